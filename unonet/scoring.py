"""Round and match scoring (RULES.md 1.10): winner_collects and lowest_wins."""

from __future__ import annotations

from collections.abc import Sequence

from unonet.cards import DeckManifest
from unonet.rules import RuleSet


def hand_points(manifest: DeckManifest, hand: Sequence[int], side: int = 0) -> int:
    """Numbers at face value; Skip, Reverse, Draw Two 20; Wild, Wild Draw Four 50 (manifest)."""
    return sum(manifest.face(card, side).points for card in hand)


def round_points(
    rules: RuleSet, manifest: DeckManifest, winner: int | None, hands: Sequence[Sequence[int]]
) -> list[int]:
    """Points each seat adds to its total for this round."""
    own = [hand_points(manifest, hand) for hand in hands]
    if rules.scoring == "winner_collects":
        points = [0] * len(hands)
        if winner is not None:
            points[winner] = sum(own)
        return points
    return own  # lowest_wins: everyone keeps the points left in their own hand


def match_winner(rules: RuleSet, scores: Sequence[int], rounds_played: int) -> int | None:
    """The seat that has won the match, or None while it goes on."""
    reached = any(score >= rules.target for score in scores)
    out_of_rounds = rules.max_rounds is not None and rounds_played >= rules.max_rounds
    if not (reached or out_of_rounds):
        return None
    seats = range(len(scores))
    if rules.scoring == "winner_collects":
        return max(seats, key=lambda seat: (scores[seat], -seat))
    return min(seats, key=lambda seat: (scores[seat], seat))
