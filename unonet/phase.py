"""The one vocabulary of phases, shared by Round, Match, View, host and client.

A match is BETWEEN_ROUNDS, IN_ROUND or MATCH_OVER; a round in play is in exactly one of the
round phases below, each naming the decision the game waits for. Values are the strings the
wire carries (SPEC.md section 9), so a Phase compares equal to its wire text.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["DECISIONS", "Phase"]


class Phase(StrEnum):
    # the match
    BETWEEN_ROUNDS = "between_rounds"
    IN_ROUND = "in_round"
    MATCH_OVER = "match_over"
    # a round
    TURN = "turn"  # `current` plays, draws or passes
    CHOOSE_COLOR = "choose_color"  # `current` names a colour (a first-card Wild)
    CHALLENGE = "challenge"  # `current` challenges or accepts a Wild Draw Four (or stacks on it)
    STACK = "stack"  # `current` answers a pending draw: stack, deflect, or take it
    CHOOSE_TARGET = "choose_target"  # `current` picks whom to swap hands with (a 7)
    BUZZER = "buzzer"  # every seat still waiting must press B
    ROULETTE = "roulette"  # `current` names the colour a Color Roulette turns cards until
    ROUND_OVER = "round_over"


DECISIONS = frozenset(
    {
        Phase.CHOOSE_COLOR,
        Phase.CHALLENGE,
        Phase.STACK,
        Phase.CHOOSE_TARGET,
        Phase.BUZZER,
        Phase.ROULETTE,
    }
)
"""The round phases that are a pending decision (View.pending is set) rather than a turn."""
