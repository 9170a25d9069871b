"""RULEBOOK.md section 3: what each UNO Flip card does, on the light side and on the dark side,
and the Flip itself. Dealer 0 and three seats unless said: seat 1 plays first."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flip_scenario import FLIP_RULES, card, flip_deal, name, names, play_events, side, top
from scenario import of_type, one, refused

from unonet import events as ev
from unonet.actions import Accept, Action, CallUno, Catch, Challenge, ChooseColor, Draw, Pass, Play
from unonet.cards import Color
from unonet.errors import ErrorCode
from unonet.events import Flipped
from unonet.flip_deck import DARK, LIGHT
from unonet.match import Match

R, G, B = Color.RED, Color.GREEN, Color.BLUE
ORANGE, PURPLE, CYAN = Color.ORANGE, Color.PURPLE, Color.CYAN


def play(match: Match, seat: int, face: str, color: Color | None = None) -> list[ev.Event]:
    return match.apply(seat, Play(card(match, seat, face), color))


def received(match: Match, events: list[ev.Event], seat: int) -> list[str]:
    return [name(match, c) for e in of_type(events, ev.CardsReceived) if e.seat == seat
            for c in e.cards]


def decisions(match: Match, seat: int) -> list[Action]:
    """The seat's legal actions less UNO calls and catches (open to anyone)."""
    return [a for a in match.legal_actions(seat) if not isinstance(a, CallUno | Catch)]


def current(match: Match) -> int:
    assert match.round is not None
    return match.round.current


def active(match: Match) -> Color | None:
    assert match.round is not None
    return match.round.active_color


# -- the light side ------------------------------------------------------------------------------


def test_draw_one_makes_the_next_player_draw_one_and_lose_the_turn() -> None:
    match = flip_deal([["yellow 1", "yellow 2"], ["red Draw One", "red 9"], ["blue 2", "blue 3"]],
                      top="red 3", draws=["green 4"])
    events = play(match, 1, "red Draw One")
    assert received(match, events, 2) == ["green 4"]
    assert one(events, ev.Skipped) == ev.Skipped(2, "draw_one")
    assert current(match) == 0


def test_light_skip_and_reverse_work_as_in_the_classic_game() -> None:
    match = flip_deal([["yellow 1", "yellow 2"], ["red Skip", "red 9"], ["blue 2", "blue 3"]],
                      top="red 3")
    assert one(play(match, 1, "red Skip"), ev.Skipped) == ev.Skipped(2, "skip")
    assert current(match) == 0
    match = flip_deal([["yellow 1", "yellow 2"], ["red Reverse", "red 9"], ["blue 2", "blue 3"]],
                      top="red 3")
    assert one(play(match, 1, "red Reverse"), ev.DirectionChanged).direction == -1
    assert current(match) == 0


def test_a_light_wild_names_a_light_colour() -> None:
    match = flip_deal([["yellow 1", "yellow 2"], ["Wild", "blue 5"], ["blue 2", "blue 3"]],
                      top="red 3")
    refused(match, 1, Play(card(match, 1, "Wild"), ORANGE), ErrorCode.COLOR_REQUIRED)
    play(match, 1, "Wild", G)
    assert (active(match), current(match)) == (G, 2)


def _wild_draw_two(seat1: list[str]) -> Match:
    match = flip_deal([["yellow 1", "yellow 2"], seat1, ["blue 2", "green 9"]], top="red 3",
                      draws=["green 4", "green 5", "green 6", "green 7"])
    events = play(match, 1, "Wild Draw Two", B)
    assert one(events, ev.DecisionPending) == ev.DecisionPending(2, "challenge", 2)
    return match


def test_a_wild_draw_two_accepted_draws_two_and_loses_the_turn() -> None:
    match = _wild_draw_two(["Wild Draw Two", "green 8"])
    events = match.apply(2, Accept())
    assert received(match, events, 2) == ["green 4", "green 5"]
    assert one(events, ev.Skipped) == ev.Skipped(2, "wild_draw_two")
    assert (current(match), active(match)) == (0, B)


def test_a_wild_draw_two_bluff_caught_makes_its_player_draw_two() -> None:
    match = _wild_draw_two(["Wild Draw Two", "red 8"])  # holds red, the colour in play
    events = match.apply(2, Challenge())
    assert one(events, ev.Challenged) == ev.Challenged(2, 1, True)
    assert received(match, events, 1) == ["green 4", "green 5"]
    assert (current(match), match.round and match.round.phase.value) == (2, "turn")


def test_a_wild_draw_two_challenged_wrongly_costs_the_challenger_four() -> None:
    match = _wild_draw_two(["Wild Draw Two", "green 8"])
    events = match.apply(2, Challenge())
    assert one(events, ev.Challenged) == ev.Challenged(2, 1, False)
    assert received(match, events, 2) == ["green 4", "green 5", "green 6", "green 7"]
    assert one(events, ev.Skipped) == ev.Skipped(2, "wild_draw_two")
    assert current(match) == 0


def test_wd4_policy_enforce_refuses_a_wild_draw_two_while_holding_the_colour() -> None:
    match = flip_deal([["yellow 1", "yellow 2"], ["Wild Draw Two", "red 8"], ["blue 2", "blue 9"]],
                      top="red 3", rules=FLIP_RULES.replace(wd4_policy="enforce"))
    refused(match, 1, Play(card(match, 1, "Wild Draw Two"), B), ErrorCode.ILLEGAL_WILD_DRAW_FOUR)


# -- the Flip ------------------------------------------------------------------------------------


def _flipped(hands: Sequence[Sequence[str]] | None = None, top: str = "red 3/orange 4",
             **kwargs: Any) -> tuple[Match, list[ev.Event]]:
    """Seat 1 plays a red Flip on red 3 (whose dark face is orange 4); seat 2 is next. kwargs
    go to flip_deal as they are (its dealer, rules or after_flip)."""
    hands = hands or [
        ["yellow 1/purple 1", "yellow 2/purple 2"],
        ["red Flip", "green 5/pink 7"],
        ["blue 1/orange 9", "blue 2/cyan 3"],
    ]
    match = flip_deal(hands, top=top, draws=["yellow 9/cyan 2"], **kwargs)
    return match, play(match, 1, "red Flip")


def test_a_flip_turns_the_discard_pile_over_its_old_bottom_card_on_top_dark_side_up() -> None:
    match, events = _flipped()
    assert match.round is not None
    assert side(match) == DARK
    assert top(match) == "orange 4"  # the first discard, now on top, dark side up
    assert match.round.discard[0] == card_played(events)  # the Flip went to the bottom
    assert active(match) is ORANGE
    flipped = one(events, Flipped)
    assert (flipped.seat, flipped.side, flipped.top) == (1, DARK, match.round.top)
    assert play_events(events)[-1] == ev.TurnStarted(2, 1)  # no effect; play goes on


def card_played(events: list[ev.Event]) -> int:
    return int(one(events, ev.CardPlayed).card)


def test_every_hand_turns_over_and_plays_its_dark_faces() -> None:
    match, _ = _flipped()
    assert names(match, 1) == ["pink 7"]
    assert names(match, 2) == ["cyan 3", "orange 9"]
    assert {name(match, a.card) for a in match.legal_actions(2) if isinstance(a, Play)} == {
        "orange 9"
    }


def test_the_draw_pile_turns_over_its_old_bottom_card_is_drawn_next() -> None:
    match, _ = _flipped(after_flip=["green 9/pink 8"])
    events = match.apply(2, Draw())
    assert received(match, events, 2) == ["pink 8"]


def test_a_wild_face_turned_up_by_a_flip_lets_its_player_name_a_dark_colour() -> None:
    match, events = _flipped(top="red 3/Wild")
    assert one(events, ev.DecisionPending) == ev.DecisionPending(1, "choose_color", 0)
    assert decisions(match, 1) == [ChooseColor(c) for c in (ORANGE, PURPLE, Color.PINK, CYAN)]
    match.apply(1, ChooseColor(PURPLE))
    assert (active(match), current(match)) == (PURPLE, 2)


def test_flip_passes_hands_passes_every_hand_on_after_the_flip() -> None:
    rules = FLIP_RULES.replace(flip_passes_hands=True)
    match, events = _flipped(rules=rules)
    moved = one(events, ev.HandsMoved)
    assert moved.reason == "flip"
    assert names(match, 2) == ["pink 7"]  # seat 1's hand
    assert names(match, 0) == ["cyan 3", "orange 9"]  # seat 2's
    assert names(match, 1) == ["purple 1", "purple 2"]  # seat 0's
    assert current(match) == 2


def test_a_dark_flip_turns_everything_back_to_the_light_side() -> None:
    hands = [["yellow 1/orange Flip", "yellow 2"], ["red Flip", "green 5"],
             ["blue 1/orange 9", "blue 2"]]
    match, _ = _flipped(hands=hands)
    play(match, 2, "orange 9")
    events = play(match, 0, "orange Flip")
    assert side(match) == LIGHT
    assert one(events, Flipped).side == LIGHT
    assert top(match) == "red Flip"  # the bottom of the pile again: the first Flip, inert
    assert (active(match), current(match)) == (R, 1)


# -- the dark side -------------------------------------------------------------------------------


def _dark(seat2: list[str], seat0: tuple[str, str] = ("yellow 1", "yellow 2"),
          **kwargs: Any) -> Match:
    """After seat 1's Flip: top orange 4, seat 2 to play `seat2`."""
    match, _ = _flipped(hands=[list(seat0), ["red Flip", "green 5"], seat2], **kwargs)
    return match


def test_draw_five_makes_the_next_player_draw_five_and_lose_the_turn() -> None:
    after = [f"green {n}/pink {n}" for n in (1, 2, 3, 4, 5)]
    match = _dark(["blue 1/orange Draw Five", "blue 2"], after_flip=after)
    events = play(match, 2, "orange Draw Five")
    assert received(match, events, 0) == [f"pink {n}" for n in (1, 2, 3, 4, 5)]
    assert one(events, ev.Skipped) == ev.Skipped(0, "draw_five")
    assert current(match) == 1


def test_a_dark_reverse_changes_the_direction() -> None:
    match = _dark(["blue 1/orange Reverse", "blue 2"])
    play(match, 2, "orange Reverse")
    assert current(match) == 1


def test_skip_everyone_skips_every_other_player_and_its_player_plays_again() -> None:
    match = _dark(["blue 1/orange Skip Everyone", "blue 2/orange 8"])
    events = play(match, 2, "orange Skip Everyone")
    assert of_type(events, ev.Skipped) == [ev.Skipped(0, "skip_everyone"),
                                           ev.Skipped(1, "skip_everyone")]
    assert play_events(events)[-1] == ev.TurnStarted(2, 1)
    play(match, 2, "orange 8")


def test_a_dark_wild_names_a_dark_colour() -> None:
    match = _dark(["blue 1/Wild", "blue 2"])
    refused(match, 2, Play(card(match, 2, "Wild"), R), ErrorCode.COLOR_REQUIRED)
    play(match, 2, "Wild", CYAN)
    assert (active(match), current(match)) == (CYAN, 0)


UNTIL_CYAN = ["green 1/pink 1", "green 2/Wild", "green 3/cyan 3", "green 4/pink 4",
              "green 5/pink 5"]


def _wild_draw_color(seat2_other: str, **kwargs: Any) -> tuple[Match, list[ev.Event]]:
    """kwargs go to _dark as they are: its seat0, or the match's options."""
    match = _dark(["blue 1/Wild Draw Color", seat2_other], after_flip=UNTIL_CYAN, **kwargs)
    return match, play(match, 2, "Wild Draw Color", CYAN)


def test_a_wild_draw_color_accepted_draws_until_the_colour_and_loses_the_turn() -> None:
    match, events = _wild_draw_color("blue 2/pink 9")
    assert one(events, ev.DecisionPending).kind == "challenge"
    events = match.apply(0, Accept())
    assert received(match, events, 0) == ["pink 1", "Wild", "cyan 3"]  # a wild does not count
    assert one(events, ev.Skipped) == ev.Skipped(0, "wild_draw_color")
    assert (current(match), active(match)) == (1, CYAN)


def test_a_wild_draw_color_bluff_caught_makes_its_player_draw_until_the_colour() -> None:
    match, _ = _wild_draw_color("blue 2/orange 9")  # holds orange, the colour in play
    events = match.apply(0, Challenge())
    assert one(events, ev.Challenged) == ev.Challenged(0, 2, True)
    assert received(match, events, 2) == ["pink 1", "Wild", "cyan 3"]
    assert current(match) == 0


def test_a_wild_draw_color_challenged_wrongly_costs_until_the_colour_plus_two() -> None:
    match, _ = _wild_draw_color("blue 2/pink 9")
    events = match.apply(0, Challenge())
    assert one(events, ev.Challenged).guilty is False
    assert received(match, events, 0) == ["pink 1", "Wild", "cyan 3", "pink 4", "pink 5"]
    assert one(events, ev.Skipped) == ev.Skipped(0, "wild_draw_color")
    assert current(match) == 1


def test_a_wild_draw_color_without_challenges_is_drawn_at_once() -> None:
    match, events = _wild_draw_color("blue 2/pink 9", rules=FLIP_RULES.replace(wd4_policy="free"))
    assert received(match, events, 0) == ["pink 1", "Wild", "cyan 3"]
    assert current(match) == 1


def test_nothing_stacks_on_a_wild_draw_color() -> None:
    rules = FLIP_RULES.replace(stacking="escalating")
    match, _ = _wild_draw_color("blue 2/pink 9", seat0=("yellow 1/orange Draw Five", "yellow 2"),
                                rules=rules)
    assert decisions(match, 0) == [Challenge(), Accept()]


def test_stacking_draw_cards_of_the_dark_side() -> None:
    rules = FLIP_RULES.replace(stacking="same_kind")
    match = _dark(["blue 1/orange Draw Five", "blue 2"],
                  seat0=("yellow 1/pink Draw Five", "yellow 2"), rules=rules)
    play(match, 2, "orange Draw Five")
    play(match, 0, "pink Draw Five")
    assert match.round is not None and match.round.pending_draw == 10
    assert current(match) == 1


def test_a_drawn_dark_card_that_plays_may_be_played_at_once() -> None:
    match = _dark(["blue 1/pink 1", "blue 2/pink 2"], after_flip=["green 9/orange 6"])
    events = match.apply(2, Draw())
    assert received(match, events, 2) == ["orange 6"]
    assert one(events, ev.MayPlayDrawn).card == card(match, 2, "orange 6")
    match.apply(2, Pass())
    assert current(match) == 0
