"""The one vocabulary of phases, shared by Round, Match, View, host and client.

A match is BETWEEN_ROUNDS, IN_ROUND or MATCH_OVER; a round in play is in exactly one of the
round phases below, each naming the decision the game waits for. Values are the strings the
wire carries (SPEC.md section 9), so a Phase compares equal to its wire text.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = [
    "BUZZER",
    "CHALLENGE",
    "CHOOSE_COLOR",
    "CHOOSE_TARGET",
    "DECISIONS",
    "ROULETTE",
    "ROUND_OVER",
    "STACK",
    "TURN",
    "Phase",
]


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

# The round's phases as module names, which the engine's hot paths compare with. The one speed
# shape of the phases: on CPython 3.11 reading a member off its class (`Phase.TURN`) goes
# through EnumType's __getattr__ hook and costs about 300 ns, ten times a module name
# (timeit, both on this machine), and a step of the engine compared several.
TURN = Phase.TURN
CHOOSE_COLOR = Phase.CHOOSE_COLOR
CHALLENGE = Phase.CHALLENGE
STACK = Phase.STACK
CHOOSE_TARGET = Phase.CHOOSE_TARGET
BUZZER = Phase.BUZZER
ROULETTE = Phase.ROULETTE
ROUND_OVER = Phase.ROUND_OVER
