"""The client plays UNO Show 'Em No Mercy through its keys, reading the legal list and the view
(never the rules): every face readable in colour and without, a Color Roulette played without a
colour and its decision naming one, the cards it turned, a pending escalating draw and what may
answer it, the Mercy rule's danger shown before it strikes, a knock-out with its points, and a
Discard All's UNO call. Each scenario is a real engine Match on a stacked deck
(tests/client_table.py), and the folded view must equal the engine's after every batch."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from client_table import LocalTable, fresh, house_table, pick, play_of, screen

from client.model import ClientModel, ColorPrompt, StackPrompt
from client.render import compose, help_entries
from unonet import events as ev
from unonet.actions import Accept, Action, ChooseColor, Play
from unonet.cards import Color, Kind
from unonet.rules import RuleSet
from unonet.view import View

NO_MERCY = RuleSet().with_options({"variant": "no_mercy"})
ALL_FACES = ["rDA", "gSE", "b+4", "WR+4", "W+6", "W+10", "WCR"]


def table(model: ClientModel, hands: list[list[str]], top: str = "r5",
          plans: dict[int, Sequence[str]] | None = None, draws: tuple[str, ...] = (),
          dealer: int = 2, **rules: object) -> LocalTable:
    """Me at seat 0 (dealer 2: I play first; dealer 1: seat 2 plays first, then me)."""
    return house_table(model, NO_MERCY.replace(hand_size=len(hands[0]), **rules), hands, top,
                       plans or {}, draws=draws, dealer=dealer)


def assert_in_step(local: LocalTable) -> None:
    assert local.mismatches == []


@dataclass(frozen=True)
class Seen:
    """The screen as it stood right after one batch of events (the bots play on at once)."""

    events: list[ev.Event]
    notice: str
    text: str
    view: View


def send(model: ClientModel, local: LocalTable, action: Action | None) -> list[Seen]:
    """Send our intent; the screen after each batch it set off (ours, then the bots')."""
    assert action is not None
    seen: list[Seen] = []

    def record(events: list[ev.Event]) -> None:
        assert model.view is not None
        seen.append(Seen(events, model.notice, " ".join(screen(model).split()), model.view))

    local.on_batch = record
    local.send_intent(action)
    local.on_batch = None
    return seen


def after(seen: list[Seen], kind: type[ev.Event]) -> Seen:
    return next(s for s in seen if any(isinstance(e, kind) for e in s.events))


def test_every_no_mercy_face_is_readable_in_colour_and_plain() -> None:
    model = fresh()
    local = table(model, [ALL_FACES, ["b1", "b2", "b3", "b4", "b6", "b7", "b8"],
                          ["y1", "y2", "y3", "y4", "y6", "y7", "y8"]], top="r5")
    plain = screen(model)
    for code in ("RDA", "GSE", "B+4", "WR+4", "W+6", "W+10", "WCR"):
        assert f"[{code}]" in plain, code
    assert "F challenge" not in plain  # no card of No Mercy's deck may be challenged
    for width, height in ((80, 23), (60, 19)):
        colour = compose(model, width, height, plain=False)
        text = "".join(f[1] for f in colour)
        for label in ("DA", "SE", "+4", "WR+4", "W+6", "W+10", "WCR"):
            assert label in text, (label, width)
        # each four-letter chip keeps a column between it and the next
        assert "W+10  " in text.replace("\n", " ") or " W+10 " in text
    assert_in_step(local)


def test_a_color_roulette_is_played_without_a_colour_and_shows_what_it_turned() -> None:
    """I play the Roulette: no colour is asked; Bruno names one (his first offered) and turns
    cards until it shows: the notice lists them."""
    model = fresh()
    local = table(model, [["WCR", "g1", "g2"], ["b1", "b2", "b3"], ["y1", "y2", "y3"]],
                  draws=("b9", "y7", "r4"))
    pick(model, "WCR")
    action = model.play_selected()
    assert isinstance(action, Play) and action.color is None and model.local_prompt is None
    seen = after(send(model, local, action), ev.RouletteTurned)
    assert seen.notice == "Bruno named red and keeps the 3 cards turned: blue 9, yellow 7, red 4."
    assert "Bruno named red" in seen.text
    assert seen.view.seats[1].cards == 6 and seen.view.active_color is Color.RED
    assert_in_step(local)


def test_a_color_roulette_on_me_asks_the_colour_to_turn_cards_for() -> None:
    model = fresh("it")
    local = table(model, [["g1", "g2", "g3"], ["b1", "b2", "b3"], ["WCR", "y2", "y3"]],
                  plans={2: ["WCR"]}, draws=("r9", "b4"), dealer=1)
    prompt = model.prompt
    assert isinstance(prompt, ColorPrompt) and prompt.roulette and prompt.card is None
    text = screen(model)
    assert "Roulette dei colori su di te: scegli un colore r/1 rosso" in text and "esce." in text
    action = model.choose_color(Color.BLUE)
    assert action == ChooseColor(Color.BLUE)
    seen = after(send(model, local, action), ev.RouletteTurned)
    assert seen.notice == "Hai scelto blu e tieni le 2 carte scoperte: 9 rosso, 4 blu."
    assert_in_step(local)


def test_a_pending_escalating_draw_lists_its_answers_and_a_cancel() -> None:
    """Chiara's Wild Draw Six waits on me: what answers it is what the legal list offers (the
    Wild Draw Ten, not the Draw Four; the Discard All cancels it under deflect)."""
    model = fresh()
    local = table(model, [["W+10", "b+4", "rDA", "g1"], ["b1", "b2", "b3", "b5"],
                          ["W+6", "y2", "y3", "y4"]],
                  plans={2: ["W+6:red"]}, dealer=1, deflect=True)
    prompt = model.prompt
    assert isinstance(prompt, StackPrompt) and prompt.amount == 6
    assert prompt.stack and prompt.cancel and not prompt.deflect
    assert [f.kind for f in prompt.answers] == [Kind.DISCARD_ALL, Kind.WILD_DRAW_TEN]
    text = " ".join(screen(model).split())
    assert ("+6 on you: play a draw card or cancel it with a Discard All or Skip Everyone "
            "(RDA W+10), or Space draws 6.") in text
    pick(model, "rDA")
    seen = after(send(model, local, play_of(model.play_selected())), ev.DrawCancelled)
    assert seen.view.pending is None and seen.view.seats[0].cards == 3  # the DA went alone
    assert_in_step(local)


def test_the_mercy_rule_is_shown_before_it_strikes_and_a_knock_out_after() -> None:
    """Twenty cards each: every count is red with '!' and my hand's title counts down to 25;
    a +6 on me warns that taking it puts me out; taken, I am out with 250 points."""
    hands = [[f"g{n % 10}" for n in range(20)], [f"b{n % 10}" for n in range(20)],
             ["W+6", *[f"y{n % 10}" for n in range(19)]]]
    model = fresh()
    local = table(model, hands, plans={2: ["W+6:red"]}, dealer=1)
    text = screen(model)
    assert "20 cards!" in text and "Mercy rule at 25: 5 more and you are out" in text
    assert "Taking them reaches 25: you would be out!" in " ".join(text.split())
    colour = compose(model, 80, 23, plain=False)
    assert ("class:catchable", "20 cards! ") in [(f[0], f[1]) for f in colour]
    assert model.draw() == Accept()
    seen = after(send(model, local, Accept()), ev.KnockedOut)
    assert "out +250" in seen.text and "You are out of this round." in seen.text
    assert "20 cards!" in seen.text  # Bruno still in, still in danger
    assert_in_step(local)


def test_the_help_names_the_mercy_rule_the_table_plays() -> None:
    """The Mercy rule is an option of No Mercy (seed 003): the help says the table's limit, and
    nothing of it without one; the Color Roulette's line stays."""
    for limit, said in ((15, "near the Mercy rule (15 cards: out of the round"), (None, None)):
        model = fresh()
        table(model, [["y1", "y2"], ["b1", "b2"], ["g1", "g2"]], max_hand=limit)
        entries = help_entries(model, False)
        assert "No Mercy: a Color Roulette's colour is named by the next player" in entries
        mercy = [line for line in entries if "Mercy rule" in line]
        assert len(mercy) == (0 if said is None else 1)
        assert said is None or said in mercy[0]


def test_u_arms_the_call_for_a_discard_all_that_leaves_one_card() -> None:
    """Four cards, but the red Discard All takes my other reds: the legal list offers the play
    with the call, so U arms it and Enter sends it."""
    model = fresh()
    local = table(model, [["rDA", "r3", "r7", "b5"], ["b1", "b2", "b3", "b4"],
                          ["y1", "y2", "y3", "y4"]])
    assert model.uno() is None and model.uno_armed
    pick(model, "rDA")
    action = model.play_selected()
    assert action is not None and isinstance(action, Play) and action.uno
    seen = send(model, local, action)[0]
    assert seen.view.seats[0].cards == 1 and seen.view.seats[0].uno_called
    assert_in_step(local)
