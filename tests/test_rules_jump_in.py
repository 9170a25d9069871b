"""RULEBOOK.md 2 `jump_in`, `jump_in_penalty` and 6.5: playing out of turn on the top card.

The sources: seed 003 "Intercettazioni" ("se un giocatore ha esattamente la stessa carta che è
stata appena posata, può giocarla immediatamente, anche se non è il suo turno ... Il gioco poi
continua con il giocatore che segue ... Se l'intercettazione fallisce perché il giocatore che
l'ha tentata non è stato abbastanza veloce o perché ha commesso un errore, prende 3 punti di
penalità. Tutte le carte possono essere intercettate, tranne i Buzzer ed i Cambio colore più 4")
and "Super intercettazioni" (same number or symbol in any colour, Buzzer and +4 included).
"""

from __future__ import annotations

from scenario import (
    B,
    G,
    R,
    active_color,
    card,
    codes,
    current,
    deal,
    draw_and_pass,
    of_type,
    one,
    phase,
    play,
    plays,
    points,
    refused,
    top,
)

from unonet import events as ev
from unonet.actions import Accept, Draw, Play
from unonet.errors import ErrorCode
from unonet.match import Match
from unonet.rules import RuleSet

IDENTICAL = RuleSet(jump_in="identical")
SAME_FACE = RuleSet(jump_in="same_face")
SEAT2 = ["g1", "g2", "g3"]
SEAT3 = ["y4", "y6", "y7"]


def _after_red_five(seat0: list[str], rules: RuleSet = IDENTICAL, seat1: list[str] | None = None,
                    draws: tuple[str, ...] = ()) -> Match:
    """Four seats, dealer 0: seat 1 plays r5 on r3; it is seat 2's turn."""
    match = deal([seat0, seat1 or ["r5", "b8", "b9"], SEAT2, SEAT3], top="r3", draws=draws,
                 rules=rules)
    play(match, 1, "r5")
    assert current(match) == 2
    return match


def test_an_identical_card_jumps_in_and_play_goes_on_from_the_jumper() -> None:
    """Seed 003 Intercettazioni: "esattamente la stessa carta ... può giocarla immediatamente,
    anche se non è il suo turno ... Il gioco poi continua con il giocatore che segue."
    RULEBOOK.md 6.5: "play goes on from the jumper"."""
    match = _after_red_five(["r5", "y1", "y2"])
    r5 = card(match, 0, "r5")
    assert Play(r5) in match.legal_actions(0)
    events = match.apply(0, Play(r5))
    assert events[0] == ev.JumpedIn(0, "jump_in")
    assert one(events, ev.CardPlayed).seat == 0
    assert events[-1] == ev.TurnStarted(1, 1)  # seats 2 and 3 are passed over
    assert not of_type(events, ev.Skipped)
    assert codes(match, 0) == ["y1", "y2"]


def test_the_jumped_in_card_acts_as_if_played_in_the_jumpers_turn() -> None:
    """RULEBOOK.md 6.5: "The card then acts as if played in the jumper's own turn": a Skip
    skips the player after the jumper."""
    match = deal([["rS", "y1", "y2"], ["rS", "b8", "b9"], SEAT2, SEAT3], top="r3",
                 rules=IDENTICAL)
    play(match, 1, "rS")  # seat 2 skipped: seat 3 plays
    assert current(match) == 3
    events = play(match, 0, "rS")
    assert one(events, ev.Skipped) == ev.Skipped(1, "skip")
    assert current(match) == 2


def test_identical_refuses_the_same_number_in_another_colour_and_charges_the_penalty() -> None:
    """Seed 003: a failed interception "perché ha commesso un errore, prende 3 punti di
    penalità". RULEBOOK.md 6.5: refused, and costs the jump-in penalty in points."""
    match = _after_red_five(["b5", "y1", "y2"])
    b5 = card(match, 0, "b5")
    assert plays(match, 0) == set()
    before = match.state()
    events = match.apply(0, Play(b5))
    assert events == [ev.JumpInRefused(0, b5, 3)]
    assert match.round is not None and match.round.penalty_points == [3, 0, 0, 0]
    after = match.state()
    assert after["round"].pop("penalty_points") == [3, 0, 0, 0]
    before["round"].pop("penalty_points")
    assert after == before  # nothing else changed: the card stays in hand, seat 2 plays


def test_identical_never_takes_a_wild_draw_four_but_same_face_does() -> None:
    """Seed 003: "Tutte le carte possono essere intercettate, tranne i Buzzer ed i Cambio colore
    più 4"; Super intercettazioni: "compresi i Buzzer ed i Cambio colore più 4"."""
    for rules, allowed in ((IDENTICAL, set()), (SAME_FACE, {"W+4"})):
        rules = rules.replace(wd4_policy="free")
        match = deal([["W+4", "y1", "y2"], ["W+4", "b8", "b9"], SEAT2, SEAT3], top="r3",
                     draws=["b1", "b2", "b3", "b4", "y8", "y9", "g8", "g9"], rules=rules)
        play(match, 1, "W+4", color=G)  # seat 2 draws 4 and is skipped
        assert current(match) == 3
        assert plays(match, 0) == allowed, rules.jump_in
    events = play(match, 0, "W+4", color=B)  # same_face: it acts as in seat 0's turn
    drawn = one(events, ev.CardsDrawn)
    assert (drawn.seat, len(drawn.positions)) == (1, 4)
    assert current(match) == 2
    assert active_color(match) is B


def test_same_face_jumps_in_with_the_same_number_in_any_colour() -> None:
    """Seed 003 Super intercettazioni: "lo stesso numero o lo stesso simbolo, non importa il
    colore". RULEBOOK.md 2 `jump_in` same_face."""
    match = _after_red_five(["b5", "y1", "y2"], rules=SAME_FACE)
    assert plays(match, 0) == {"b5"}
    assert plays(match, 3) == set()
    events = play(match, 0, "b5")
    assert events[0] == ev.JumpedIn(0, "jump_in")
    assert (top(match), active_color(match), current(match)) == ("b5", B, 1)


def test_nobody_jumps_in_on_their_own_card() -> None:
    """RULEBOOK.md 6.5: "Anyone but the current player may jump in"; the card to jump on is
    someone else's: a second identical card of the player who just played is refused."""
    match = _after_red_five(["y5", "y1", "y2"], seat1=["r5", "r5", "b9"])
    r5 = card(match, 1, "r5")
    assert plays(match, 1) == set()
    assert match.apply(1, Play(r5)) == [ev.JumpInRefused(1, r5, 3)]
    assert codes(match, 1) == ["b9", "r5"]


def test_the_window_closes_when_the_current_player_draws() -> None:
    """RULEBOOK.md 6.5 and 6.15: "A jump-in on a card is possible until the player whose turn it
    is acts"; too late, it is refused and costs the penalty."""
    match = _after_red_five(["r5", "y1", "y2"], draws=("r8",))
    events = match.apply(2, Draw())  # r8 plays on r5: seat 2 may still play it
    assert of_type(events, ev.MayPlayDrawn)
    r5 = card(match, 0, "r5")
    assert plays(match, 0) == set()
    assert match.apply(0, Play(r5)) == [ev.JumpInRefused(0, r5, 3)]
    assert plays(match, 2) == {"r8"}


def test_a_jump_in_on_a_pending_stack_adds_to_it_and_passes_the_player_who_faced_it() -> None:
    """RULEBOOK.md 6.5: jump in "while the current player ... faces a pending draw"; the card
    acts as in the jumper's turn: it stacks, and the player after the jumper faces the total."""
    rules = IDENTICAL.replace(stacking="same_kind")
    match = deal([["r+2", "y1", "y2"], ["r+2", "b8", "b9"], SEAT2, SEAT3], top="r3",
                 rules=rules)
    play(match, 1, "r+2")
    assert phase(match) == "stack" and current(match) == 2
    events = play(match, 0, "r+2")
    assert events[0] == ev.JumpedIn(0, "jump_in")
    assert one(events, ev.DrawStacked) == ev.DrawStacked(0, 4)
    assert one(events, ev.DecisionPending) == ev.DecisionPending(1, "stack", 4)
    events = match.apply(1, Accept())
    assert len(one(events, ev.CardsDrawn).positions) == 4


def test_on_a_pending_stack_only_a_card_that_stacks_may_jump_in() -> None:
    """RULEBOOK.md 6.5 with 6.1: on a pending draw the jump-in card must answer it: the same
    Draw Two, never a plain card."""
    rules = SAME_FACE.replace(stacking="same_kind")
    match = deal([["b+2", "y1", "y2"], ["r+2", "b8", "b9"], SEAT2, ["y+2", "y6", "y7"]],
                 top="r3", rules=rules)
    play(match, 1, "r+2")
    assert plays(match, 0) == {"b+2"}
    assert plays(match, 3) == {"y+2"}


def test_same_face_jumps_in_with_a_wild_draw_four_on_a_challengeable_one() -> None:
    """Seed 003 Super intercettazioni: "compresi i Buzzer ed i Cambio colore più 4";
    RULEBOOK.md 6.5: "while the current player is to play, or faces a pending draw, and has not
    drawn yet"; 6.2: a +4 waiting for its challenge is a pending draw one may stack on."""
    rules = SAME_FACE.replace(stacking="same_kind")  # wd4_policy challenge, the default
    match = deal([["W+4", "y1", "y2"], ["W+4", "b8", "b9"], SEAT2, SEAT3], top="r3",
                 rules=rules)
    play(match, 1, "W+4", color=G)
    assert phase(match) == "challenge" and current(match) == 2
    assert plays(match, 0) == {"W+4"}


def test_a_card_one_does_not_hold_is_refused_without_a_penalty() -> None:
    """RULEBOOK.md 6.5: the penalty is for "an out-of-turn play of a card one holds"."""
    match = _after_red_five(["r5", "y1", "y2"])
    refused(match, 3, Play(card(match, 0, "r5")), ErrorCode.CARD_NOT_IN_HAND)


def test_without_a_penalty_a_wrong_jump_in_is_simply_refused() -> None:
    """RULEBOOK.md 2 `jump_in_penalty` 0: nothing is charged; the play is refused as out of
    turn and nothing changes."""
    match = _after_red_five(["b5", "y1", "y2"], rules=IDENTICAL.replace(jump_in_penalty=0))
    refused(match, 0, Play(card(match, 0, "b5")), ErrorCode.NOT_YOUR_TURN)


def test_without_jump_in_an_identical_card_out_of_turn_is_refused() -> None:
    """RULEBOOK.md 2 `jump_in` off: "Nobody plays out of turn"."""
    match = _after_red_five(["r5", "y1", "y2"], rules=RuleSet())
    assert plays(match, 0) == set()
    refused(match, 0, Play(card(match, 0, "r5")), ErrorCode.NOT_YOUR_TURN)


def _refused_then_seat_1_wins(rules: RuleSet) -> Match:
    """Three seats: seat 0 jumps in wrongly on seat 1's r5, seat 1 too on its own card; then
    seat 1 goes out."""
    match = deal([["b5", "y1"], ["r5", "r6"], ["g1", "g2"]], top="r3",
                 draws=["b9", "b8"], rules=rules)
    play(match, 1, "r5", uno=True)
    assert one(match.apply(0, Play(card(match, 0, "b5"))), ev.JumpInRefused).penalty == 3
    assert one(match.apply(1, Play(card(match, 1, "r6"))), ev.JumpInRefused).penalty == 3
    draw_and_pass(match, 2)
    draw_and_pass(match, 0)
    events = play(match, 1, "r6")
    assert one(events, ev.RoundEnded).winner == 1
    return match


def test_the_penalty_counts_against_the_player_under_lowest_wins() -> None:
    """RULEBOOK.md 6.5: the penalty is "added to the player's score"."""
    match = _refused_then_seat_1_wins(IDENTICAL.replace(scoring="lowest_wins"))
    assert match.scores == [points(match, 0) + 3, 3, points(match, 2)]


def test_the_penalty_is_taken_off_under_winner_collects_never_below_zero() -> None:
    """RULEBOOK.md 6.5: "under winner collects, taken off it (never below 0)"."""
    match = _refused_then_seat_1_wins(IDENTICAL)
    assert match.scores == [0, points(match, 0) + points(match, 2) - 3, 0]


def test_a_jump_in_colour_is_named_for_a_wild() -> None:
    """RULEBOOK.md 2 `jump_in` identical: a Wild is identical to a Wild; it names its colour."""
    match = deal([["W", "y1", "y2"], ["W", "b8", "b9"], SEAT2, SEAT3], top="r3",
                 rules=IDENTICAL)
    play(match, 1, "W", color=R)
    events = play(match, 0, "W", color=G)
    assert events[0] == ev.JumpedIn(0, "jump_in")
    assert (active_color(match), current(match)) == (G, 1)
