"""RULEBOOK.md 1.8 and 6.11: the stalemate. When every card but the top one is in a hand, nobody
can draw (1.8: "a player who has to draw and cannot just passes"); if every player still in the
round passes in turn that way, the round ends and the player holding the fewest points wins it.

Nobody-can-play in the strict sense cannot be built with a classic deck: with every card in a
hand, someone holds a Wild (or a card of the colour in play), which plays whatever the top card.
A stalemate comes from players who draw instead of playing (allowed, RULEBOOK.md 1.4: "Drawing is
allowed even with a playable card in hand") when there is nothing left to draw; without this rule
such a round would never end.
"""

from __future__ import annotations

from scenario import current, deal, draw_and_pass, of_type, one, points

from unonet import events as ev
from unonet.actions import Draw, Play
from unonet.match import Match
from unonet.rules import RuleSet

RULES = RuleSet(hand_size=20)
# Seat 3 holds the lowest cards of the deck; the others are padded from what is left.
LOW = ["r0", "y0", "g0", "b0", "r1", "r1", "y1", "y1", "g1", "g1", "b1", "b1",
       "r2", "r2", "y2", "y2", "g2", "g2", "b2", "b2"]


def _empty_pile() -> Match:
    """Five seats of twenty cards, the first card r5: the seven cards of the pile go to seats
    1, 2, 3, 4, 0, 1, 2 one draw each; then the pile is empty and the discard holds one card."""
    match = deal([[], [], [], LOW, []], top="r5", rules=RULES, fill=True)
    for seat in (1, 2, 3, 4, 0, 1, 2):
        assert current(match) == seat
        draw_and_pass(match, seat)
    rnd = match.round
    assert rnd is not None
    assert rnd.draw_pile == [] and len(rnd.discard) == 1
    assert sum(len(h) for h in rnd.hands) == len(match.manifest) - 1
    return match


def test_when_every_player_passes_with_nothing_to_draw_the_fewest_points_win() -> None:
    """RULEBOOK.md 6.11: "If every player still in the round passes in turn because there is no
    card left to draw ... the round ends: the player holding the fewest points wins it"."""
    match = _empty_pile()
    held = [points(match, s) for s in range(5)]
    fewest = min(range(5), key=lambda s: held[s])
    assert fewest == 3
    for seat in (3, 4, 0, 1):
        events = match.apply(seat, Draw())
        assert events[:2] == [ev.CannotDraw(seat), ev.Passed(seat)]
        assert not of_type(events, ev.Stalemate)
    events = match.apply(2, Draw())
    assert one(events, ev.Stalemate) == ev.Stalemate(3)
    ended = one(events, ev.RoundEnded)
    assert ended.winner == 3
    # winner_collects: the winner scores the other hands (its own stays with it)
    assert ended.points == (0, 0, 0, sum(held) - held[3], 0)


def test_a_play_in_between_starts_the_count_again() -> None:
    """RULEBOOK.md 6.11: "every player ... passes in turn": one play breaks the row."""
    match = _empty_pile()
    for seat in (3, 4, 0):
        match.apply(seat, Draw())
    moves = [a for a in match.legal_actions(1)
             if isinstance(a, Play) and match.manifest.face(a.card).number is not None]
    assert moves, "seat 1 holds a number that plays on r5"
    match.apply(1, moves[0])  # two discards: seat 2 draws the old top card, reshuffled
    assert of_type(draw_and_pass(match, 2), ev.Reshuffled)
    for seat in (3, 4, 0, 1):
        events = match.apply(seat, Draw())
        assert events[0] == ev.CannotDraw(seat)
        assert not of_type(events, ev.Stalemate), seat
    assert of_type(match.apply(2, Draw()), ev.Stalemate)


def test_under_lowest_wins_everyone_scores_their_own_hand_after_a_stalemate() -> None:
    """RULEBOOK.md 6.11 with 1.10 lowest_wins: the stalemate's winner still holds cards and
    scores them like everyone else."""
    match = deal([[], [], [], LOW, []], top="r5", rules=RULES.replace(scoring="lowest_wins"),
                 fill=True)
    for seat in (1, 2, 3, 4, 0, 1, 2):
        draw_and_pass(match, seat)
    held = [points(match, s) for s in range(5)]
    for seat in (3, 4, 0, 1, 2):
        events = match.apply(seat, Draw())
    assert one(events, ev.RoundEnded).points == tuple(held)
    assert one(events, ev.Stalemate).winner == 3
