"""RULEBOOK.md 1.5 with three or more players: Skip, Reverse, Draw Two, Wild."""

from __future__ import annotations

from scenario import (
    B,
    G,
    R,
    codes,
    current,
    deal,
    drawn_codes,
    of_type,
    one,
    play,
    plays,
    refused,
)

from unonet import events as ev
from unonet.actions import Draw
from unonet.errors import ErrorCode

# Dealer 0: seat 1 plays first, then 2, 3, 0.
FOUR = [
    ["r1", "g1", "b1", "y1"],
    ["rS", "rR", "r+2", "W"],
    ["r2", "g2", "b2", "y2"],
    ["r3", "g3", "b3", "y3"],
]


def test_skip_makes_the_next_player_lose_the_turn() -> None:
    match = deal(FOUR, top="r5")
    events = play(match, 1, "rS")
    assert one(events, ev.Skipped) == ev.Skipped(2, "skip")
    assert events[-1] == ev.TurnStarted(3, 1)
    assert current(match) == 3
    assert match.round is not None
    assert [len(h) for h in match.round.hands] == [4, 3, 4, 4]
    refused(match, 2, Draw(), ErrorCode.NOT_YOUR_TURN)


def test_reverse_changes_direction_with_three_or_more_players() -> None:
    match = deal(FOUR, top="r5")
    events = play(match, 1, "rR")
    assert one(events, ev.DirectionChanged) == ev.DirectionChanged(-1)
    assert not of_type(events, ev.Skipped)
    assert events[-1] == ev.TurnStarted(0, -1)
    play(match, 0, "r1")
    assert current(match) == 3  # still to the right
    play(match, 3, "r3")
    assert current(match) == 2


def test_a_second_reverse_restores_the_direction() -> None:
    hands = [["r1", "gR", "b1", "y1"], ["rS", "rR", "r+2", "W"], FOUR[2], FOUR[3]]
    match = deal(hands, top="r5")
    play(match, 1, "rR")
    assert current(match) == 0
    events = play(match, 0, "gR")
    assert one(events, ev.DirectionChanged) == ev.DirectionChanged(1)
    assert current(match) == 1


def test_draw_two_makes_the_next_player_draw_two_and_lose_the_turn() -> None:
    match = deal(FOUR, top="r5", draws=["y8", "b9"])
    events = play(match, 1, "r+2")
    drawn = [e for e in of_type(events, ev.CardsDrawn)]
    assert [(e.seat, len(e.positions), e.reason) for e in drawn] == [(2, 2, "draw_two")]
    assert drawn_codes(match, events, 2) == ["y8", "b9"]
    assert one(events, ev.Skipped) == ev.Skipped(2, "draw_two")
    assert current(match) == 3
    assert codes(match, 2) == ["b2", "b9", "g2", "r2", "y2", "y8"]


def test_draw_two_after_a_reverse_hits_the_player_to_the_right() -> None:
    hands = [["r1", "r+2", "b1", "y1"], ["rS", "rR", "g+2", "W"], FOUR[2], FOUR[3]]
    match = deal(hands, top="r5", draws=["y8", "b9"])
    play(match, 1, "rR")
    play(match, 0, "r+2")
    assert codes(match, 3) == ["b3", "b9", "g3", "r3", "y3", "y8"]
    assert current(match) == 2


def test_wild_names_any_colour() -> None:
    match = deal(FOUR, top="r5")
    play(match, 1, "W", color=G)
    assert match.round is not None and match.round.active_color is G
    assert plays(match, 2) == {"g2"}


def test_wild_may_name_the_current_colour() -> None:
    match = deal(FOUR, top="r5")
    events = play(match, 1, "W", color=R)
    assert one(events, ev.CardPlayed).color is R
    assert match.round is not None and match.round.active_color is R
    assert plays(match, 2) == {"r2"}
    assert current(match) == 2


def test_wild_is_not_an_action_on_the_next_player() -> None:
    match = deal(FOUR, top="r5")
    events = play(match, 1, "W", color=B)
    assert not of_type(events, ev.Skipped)
    assert not of_type(events, ev.CardsDrawn)
    assert events[-1] == ev.TurnStarted(2, 1)
