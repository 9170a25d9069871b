"""Typed engine errors with stable codes (SPEC.md repeats them; never rename one)."""

from __future__ import annotations

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


class RulesError(EngineError):
    """A rule set that cannot be played; the message names the option at fault."""

    def __init__(self, option: str, message: str, *, code: ErrorCode = ErrorCode.INVALID_RULES):
        super().__init__(code, f"{option}: {message}")
        self.option = option
