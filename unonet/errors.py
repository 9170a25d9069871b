"""Typed engine errors with stable codes (SPEC.md repeats them; never rename one)."""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum


class ErrorCode(StrEnum):
    NOT_YOUR_TURN = "not_your_turn"
    NOT_YOUR_DECISION = "not_your_decision"
    WRONG_PHASE = "wrong_phase"
    UNKNOWN_SEAT = "unknown_seat"
    CARD_NOT_IN_HAND = "card_not_in_hand"
    ILLEGAL_CARD = "illegal_card"
    ILLEGAL_WILD_DRAW_FOUR = "illegal_wild_draw_four"
    COLOR_REQUIRED = "color_required"
    COLOR_NOT_ALLOWED = "color_not_allowed"
    MUST_PLAY_DRAWN_CARD = "must_play_drawn_card"
    CANNOT_DRAW = "cannot_draw"
    CANNOT_PASS = "cannot_pass"
    NOT_CATCHABLE = "not_catchable"
    UNO_NOT_ALLOWED = "uno_not_allowed"
    NOTHING_TO_CHALLENGE = "nothing_to_challenge"
    ACTION_NOT_ALLOWED = "action_not_allowed"
    LAST_CARD_NOT_ALLOWED = "last_card_not_allowed"
    INVALID_COMBINATION = "invalid_combination"
    DRAW_PENDING = "draw_pending"
    INVALID_TARGET = "invalid_target"
    ROUND_OVER = "round_over"
    MATCH_OVER = "match_over"
    INVALID_RULES = "invalid_rules"
    NOT_IMPLEMENTED = "not_implemented"


class EngineError(Exception):
    """An action the engine refused; the state is exactly as it was before the call."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(f"{code.value}: {message}")
        self.code = code
        self.message = message


RulePart = str | int | tuple[str, ...]
"""A part of a refused rule set's words: a value as typed (its repr), a number, or a list of
values (said "a, b or c")."""


class RulesError(EngineError):
    """A rule set that cannot be played; the message names the option at fault. `kind` and
    `parts` say what is wrong without words (unonet.rules.RULES_SAYS has the English of each
    kind), so that a command or a screen says it in its reader's language; "" for a refusal
    said only in English."""

    def __init__(self, option: str, message: str, *, code: ErrorCode = ErrorCode.INVALID_RULES,
                 kind: str = "", parts: Mapping[str, RulePart] | None = None) -> None:
        super().__init__(code, f"{option}: {message}")
        self.option = option
        self.kind = kind
        self.parts: Mapping[str, RulePart] = parts or {}


def said_with(template: str, parts: Mapping[str, RulePart], either: str = "or") -> str:
    """`template` with `parts` in it, a list said "a, b `either` c" (the language's "or")."""
    return template.format(**{name: said_list(value, either) if isinstance(value, tuple)
                              else value for name, value in parts.items()})


def said_list(values: tuple[str, ...], either: str) -> str:
    """"a, b or c" (one value alone as it is)."""
    if len(values) < 2:
        return "".join(values)
    return f"{', '.join(values[:-1])} {either} {values[-1]}"
