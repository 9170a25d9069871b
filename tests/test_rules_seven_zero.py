"""RULEBOOK.md 2 `seven_zero`, 6.8 and 6.14: a 7 swaps hands with a chosen player, a 0 passes
every hand on in the direction of play.

Seed 003 names the option ("Regole dello 0/7: Se questa opzione è attivata, le carte 0 e 7 hanno
degli effetti particolari") but its list of effects did not survive; RULEBOOK.md 6.8 states them.
"""

from __future__ import annotations

from scenario import (
    codes,
    current,
    deal,
    draw_and_pass,
    of_type,
    one,
    phase,
    play,
    refused,
)

from unonet import events as ev
from unonet.actions import Catch, ChooseTarget, Expire
from unonet.errors import ErrorCode
from unonet.match import Match
from unonet.rules import RuleSet

SEVEN_ZERO = RuleSet(seven_zero=True)
SEAT0 = ["y1", "y2", "y3"]
SEAT2 = ["g1", "g2", "g3"]
SEAT3 = ["b1", "b2", "b3"]


def _positions(match: Match, seat: int) -> tuple[tuple[int, int], ...]:
    rnd = match.round
    assert rnd is not None
    return tuple(rnd.origin[c] for c in rnd.hands[seat])


def test_a_seven_lets_its_player_pick_whom_to_swap_hands_with() -> None:
    """RULEBOOK.md 6.8: "a 7 lets its player pick any other player still in the round and swap
    hands with them. Play then goes on as after any number"."""
    match = deal([SEAT0, ["r7", "r5", "b6"], SEAT2, SEAT3], top="r3", rules=SEVEN_ZERO)
    events = play(match, 1, "r7")
    assert one(events, ev.DecisionPending) == ev.DecisionPending(1, "choose_target", 0)
    assert phase(match) == "choose_target"
    assert match.legal_actions(1) == [ChooseTarget(2), ChooseTarget(3), ChooseTarget(0)]
    assert match.legal_actions(2) == []
    mine, theirs = _positions(match, 1), _positions(match, 3)
    events = match.apply(1, ChooseTarget(3))
    assert one(events, ev.HandsMoved) == ev.HandsMoved(((1, 3, mine), (3, 1, theirs)), "seven")
    received = of_type(events, ev.CardsReceived)
    assert [(e.seat, e.positions) for e in received] == [(3, mine), (1, theirs)]
    assert all(e.audience == frozenset({e.seat}) for e in received)
    assert (codes(match, 1), codes(match, 3)) == (sorted(SEAT3), ["b6", "r5"])
    assert events[-1] == ev.TurnStarted(2, 1)


def test_a_seven_may_not_swap_with_oneself_or_a_seat_not_in_the_round() -> None:
    """RULEBOOK.md 6.8: "any other player still in the round"; choices.md: invalid_target."""
    match = deal([SEAT0, ["r7", "r5", "b6"], SEAT2], top="r3", rules=SEVEN_ZERO)
    play(match, 1, "r7")
    refused(match, 1, ChooseTarget(1), ErrorCode.INVALID_TARGET)
    refused(match, 1, ChooseTarget(3), ErrorCode.UNKNOWN_SEAT)
    refused(match, 2, ChooseTarget(0), ErrorCode.NOT_YOUR_DECISION)


def test_a_zero_passes_every_hand_to_the_next_player_in_the_direction_of_play() -> None:
    """RULEBOOK.md 6.8: "A 0 passes every hand to the next player in the direction of play"."""
    match = deal([SEAT0, ["r0", "r5", "b6"], SEAT2], top="r3", rules=SEVEN_ZERO)
    before = {s: _positions(match, s) for s in (0, 2)}
    events = play(match, 1, "r0")
    moved = one(events, ev.HandsMoved)
    assert moved.reason == "zero"
    assert {(g, t) for g, t, _ in moved.moves} == {(1, 2), (2, 0), (0, 1)}
    assert (codes(match, 2), codes(match, 0), codes(match, 1)) == (
        ["b6", "r5"], sorted(SEAT2), sorted(SEAT0))
    assert _positions(match, 1) == before[0]
    assert events[-1] == ev.TurnStarted(2, 1)


def test_a_zero_passes_the_hands_the_other_way_after_a_reverse() -> None:
    """RULEBOOK.md 6.8: "in the direction of play"."""
    match = deal([SEAT0, ["r0", "r5", "b6"], SEAT2], top="rR", rules=SEVEN_ZERO)
    # A first Reverse: the dealer (seat 0) plays first and play goes right (0 -> 2 -> 1).
    draw_and_pass(match, 0)
    draw_and_pass(match, 2)
    assert current(match) == 1
    events = play(match, 1, "r0")
    assert {(g, t) for g, t, _ in one(events, ev.HandsMoved).moves} == {
        (1, 0), (0, 2), (2, 1)}
    assert current(match) == 0


def test_whoever_ends_up_with_one_card_after_a_swap_must_call_uno_or_be_caught() -> None:
    """RULEBOOK.md 1.7 and 6.8: "Whoever ends up with one card after a swap or a pass must call
    UNO like anyone else"."""
    match = deal([["y1", "y2"], ["r7", "b6"], ["g1", "g2"]], top="r3", rules=SEVEN_ZERO)
    play(match, 1, "r7", uno=True)  # seat 1 holds b6 and has called UNO
    match.apply(1, ChooseTarget(0))  # seat 0 takes the b6: one card, UNO not called
    assert codes(match, 0) == ["b6"]
    view = match.view(None)
    assert view.seats[0].catchable and not view.seats[0].uno_called
    assert not view.seats[1].uno_called  # seat 1 holds two cards now
    assert Catch(0) in match.legal_actions(2)
    events = match.apply(2, Catch(0))
    assert one(events, ev.UnoCaught) == ev.UnoCaught(2, 0, 2)
    assert len(codes(match, 0)) == 3


def test_a_seven_or_zero_as_the_last_card_ends_the_round_without_its_effect() -> None:
    """RULEBOOK.md 6.8: "A 7 or 0 played as the last card ends the round without its effect"."""
    for last in ("r7", "r0"):
        match = deal([["y1"], [last], ["g1"]], top="r3", rules=SEVEN_ZERO)
        events = play(match, 1, last)
        assert not of_type(events, ev.HandsMoved) and not of_type(events, ev.DecisionPending)
        assert one(events, ev.RoundEnded).winner == 1


def test_on_expiry_a_seven_swaps_with_the_player_holding_the_fewest_cards() -> None:
    """RULEBOOK.md 6.14: "picking whom a 7 swaps with, the player with the fewest cards"."""
    match = deal([["r7", "y2", "y3"], ["b1", "b2", "b3"], ["r4", "g2", "g3"], SEAT3],
                 top="r3", draws=["b7", "b8"], rules=SEVEN_ZERO)
    draw_and_pass(match, 1)  # 4 cards
    play(match, 2, "r4")  # 2 cards
    draw_and_pass(match, 3)  # 4 cards
    play(match, 0, "r7")
    events = match.apply(-1, Expire())
    assert events[0] == ev.Expired(0, "choose_target")
    assert {(g, t) for g, t, _ in one(events, ev.HandsMoved).moves} == {(0, 2), (2, 0)}


def test_on_expiry_a_tie_for_fewest_cards_goes_to_the_first_in_turn_order() -> None:
    """RULEBOOK.md 6.14: "(the first in turn order on a tie)"."""
    match = deal([["r7", "y2", "y3"], ["r4", "b2", "b3"], ["g1", "g2", "g3"], ["r5", "b4", "b5"]],
                 top="r3", draws=["b7"], rules=SEVEN_ZERO)
    play(match, 1, "r4")  # 2 cards
    draw_and_pass(match, 2)  # 4 cards
    play(match, 3, "r5")  # 2 cards
    play(match, 0, "r7")
    events = match.apply(-1, Expire())
    assert {(g, t) for g, t, _ in one(events, ev.HandsMoved).moves} == {(0, 1), (1, 0)}
