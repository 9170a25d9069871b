"""Round and match scoring (RULEBOOK.md 1.10 and section 2): winner_collects, lowest_wins,
elimination, teams of partners, knock-out and jump-in penalties."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from unonet.cards import DeckManifest
from unonet.rules import RuleSet


def hand_points(manifest: DeckManifest, hand: Sequence[int], side: int = 0) -> int:
    """Numbers at face value; Skip, Reverse, Draw Two 20; Wild, Wild Draw Four 50 (manifest);
    each card by its face on `side` (UNO Flip scores by the side the round ends on)."""
    return sum(manifest.face(card, side).points for card in hand)


def partner(rules: RuleSet, seats: int, seat: int) -> int | None:
    """`teams=pairs`: the partner sits opposite."""
    return opposite(seats, seat) if rules.teams == "pairs" else None


def opposite(seats: int, seat: int) -> int:
    """The seat across the table from `seat`: its partner under `teams=pairs`."""
    return (seat + seats // 2) % seats


def team_of(rules: RuleSet, seats: int, seat: int) -> int | None:
    """`teams=pairs`: seats s and s + seats/2 form team s mod seats/2."""
    return seat % (seats // 2) if rules.teams == "pairs" else None


def round_points(
    rules: RuleSet,
    manifest: DeckManifest,
    winner: int | None,
    hands: Sequence[Sequence[int]],
    knocked_out: Mapping[int, int] | None = None,
    penalties: Sequence[int] | None = None,
    scores: Sequence[int] | None = None,
    side: int = 0,
) -> list[int]:
    """Points each seat adds to its total for this round.

    winner_collects: the winner scores every other hand, and the penalty of each seat knocked
    out (max_hand) in place of its hand; with teams the opponents' hands only, for both
    partners. lowest_wins and elimination: everyone scores its own hand, a knocked-out seat its
    penalty. Refused jump-ins (`penalties`) count against their player: added, or under
    winner_collects subtracted, never below a total of 0 (`scores`, the totals before). Cards
    count by their face on `side`, the side the round ended on (UNO Flip)."""
    seats = len(hands)
    knocked = knocked_out or {}
    own = [knocked.get(s, hand_points(manifest, hands[s], side)) for s in range(seats)]
    extra = list(penalties) if penalties is not None else [0] * seats
    if rules.scoring != "winner_collects":
        return [own[s] + extra[s] for s in range(seats)]
    points = [0] * seats
    if winner is not None:
        mate = partner(rules, seats, winner)
        collected = sum(own[s] for s in range(seats) if s not in (winner, mate))
        points[winner] = collected
        if mate is not None:
            points[mate] = collected
    before = scores if scores is not None else [0] * seats
    return [max(points[s] - extra[s], -before[s]) for s in range(seats)]


def match_winner(
    rules: RuleSet,
    scores: Sequence[int],
    rounds_played: int,
    eliminated: Collection[int] = (),
    last_winner: int | None = None,
) -> int | None:
    """The seat that has won the match, or None while it goes on. Partners share a score: the
    one who won the last round is named, if its team is ahead."""
    seats = [s for s in range(len(scores)) if s not in eliminated]
    if rules.scoring == "elimination":
        if len(seats) <= 1:
            return seats[0] if seats else None
        if rules.max_rounds is None or rounds_played < rules.max_rounds:
            return None
        return min(seats, key=lambda seat: (scores[seat], seat))
    reached = any(score >= rules.target for score in scores)
    out_of_rounds = rules.max_rounds is not None and rounds_played >= rules.max_rounds
    if not (reached or out_of_rounds):
        return None
    if rules.scoring == "winner_collects":
        best = max(seats, key=lambda seat: (scores[seat], -seat))
        if last_winner is not None and scores[last_winner] == scores[best]:
            return last_winner
        return best
    return min(seats, key=lambda seat: (scores[seat], seat))
