"""RULEBOOK.md 1.5 with two players (anchors 6.6): a Reverse acts as a Skip, so a Skip, a Reverse
and a Draw Two all let their player play again."""

from __future__ import annotations

from scenario import codes, current, deal, drawn_codes, of_type, one, play, plays

from unonet import events as ev
from unonet.actions import Accept, Challenge, Draw
from unonet.cards import Color

# Dealer 0: seat 1 plays first.
HANDS = [["g1", "g2", "b3", "y4"], ["rR", "rS", "r+2", "r7"]]


def test_reverse_with_two_players_acts_as_a_skip() -> None:
    match = deal(HANDS, top="r5")
    events = play(match, 1, "rR")
    assert one(events, ev.Skipped) == ev.Skipped(0, "reverse_two_players")
    assert not of_type(events, ev.DirectionChanged)
    assert match.round is not None and match.round.direction == 1
    assert current(match) == 1
    assert match.legal_actions(0) == []
    assert plays(match, 1) == {"rS", "r+2", "r7"}


def test_skip_with_two_players_lets_the_player_play_again() -> None:
    match = deal(HANDS, top="r5")
    events = play(match, 1, "rS")
    assert one(events, ev.Skipped) == ev.Skipped(0, "skip")
    assert events[-1] == ev.TurnStarted(1, 1)
    assert current(match) == 1


def test_draw_two_with_two_players_lets_the_player_play_again() -> None:
    match = deal(HANDS, top="r5", draws=["y8", "y9"])
    events = play(match, 1, "r+2")
    assert drawn_codes(match, events, 0) == ["y8", "y9"]
    assert one(events, ev.Skipped) == ev.Skipped(0, "draw_two")
    assert current(match) == 1
    assert codes(match, 0) == ["b3", "g1", "g2", "y4", "y8", "y9"]


def test_after_a_reverse_the_other_player_still_plays_next_turn() -> None:
    match = deal(HANDS, top="r5", draws=["b9"])
    play(match, 1, "rR")
    play(match, 1, "r7")
    assert current(match) == 0
    match.apply(0, Draw())
    assert current(match) == 1


def test_a_first_draw_two_with_two_players_lets_the_dealer_play_first() -> None:
    match = deal(HANDS, top="g+2", draws=["y8", "y9"], dealer=0)
    assert codes(match, 1) == ["r+2", "r7", "rR", "rS", "y8", "y9"]
    assert current(match) == 0


def test_a_first_skip_with_two_players_lets_the_dealer_play_first() -> None:
    match = deal(HANDS, top="gS", dealer=1)
    assert current(match) == 1


def test_a_wild_draw_four_accepted_with_two_players_lets_its_player_play_again() -> None:
    hands = [["g1", "g2", "b3", "y4"], ["W+4", "rS", "g+2", "r7"]]
    match = deal(hands, top="b5", draws=["y5", "y6", "y7", "y8"])
    play(match, 1, "W+4", color=Color.RED)
    assert current(match) == 0
    match.apply(0, Accept())
    assert current(match) == 1


def test_a_failed_challenge_with_two_players_lets_the_wild_draw_four_player_play_again() -> None:
    hands = [["g1", "g2", "b3", "y4"], ["W+4", "rS", "g+2", "r7"]]
    match = deal(hands, top="b5", draws=["y5", "y6", "y7", "y8", "y9", "b9"])
    play(match, 1, "W+4", color=Color.RED)
    events = match.apply(0, Challenge())
    assert one(events, ev.Challenged).guilty is False
    assert len(codes(match, 0)) == 10
    assert current(match) == 1


def test_a_successful_challenge_with_two_players_gives_the_turn_to_the_challenger() -> None:
    hands = [["g1", "g2", "b3", "y4"], ["W+4", "b6", "g+2", "r7"]]
    match = deal(hands, top="b5", draws=["y5", "y6", "y7", "y8"])
    play(match, 1, "W+4", color=Color.RED)
    events = match.apply(0, Challenge())
    assert one(events, ev.Challenged).guilty is True
    assert len(codes(match, 1)) == 7
    assert current(match) == 0
