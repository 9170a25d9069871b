"""Protocol errors: one exception type, stable string codes, and which codes close the connection.

A code is part of the contract (SPEC.md section 12): never rename one. `fatal` means the side
that detects the error sends `error{fatal: true}` and closes; a non-fatal error refuses one
message and the connection goes on. Engine codes (unonet.errors.ErrorCode) pass through as
non-fatal refusals of an intent.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from protocol.limits import MAX_TEXT_CHARS
from unonet.errors import ErrorCode as EngineCode


class Code(StrEnum):
    # -- framing and encoding (always fatal: the byte stream can no longer be trusted) -------
    BAD_FRAME = "bad_frame"
    FRAME_TOO_LARGE = "frame_too_large"
    DUPLICATE_KEY = "duplicate_key"
    # -- messages -------------------------------------------------------------------------------
    BAD_MESSAGE = "bad_message"
    UNKNOWN_MESSAGE = "unknown_message"
    UNEXPECTED_MESSAGE = "unexpected_message"
    # -- connection -----------------------------------------------------------------------------
    UNSUPPORTED_VERSION = "unsupported_version"
    HANDSHAKE_FAILED = "handshake_failed"
    HANDSHAKE_TIMEOUT = "handshake_timeout"
    INVALID_RESUME = "invalid_resume"
    IDLE_TIMEOUT = "idle_timeout"
    RATE_LIMITED = "rate_limited"
    SLOW_CONSUMER = "slow_consumer"
    SERVER_FULL = "server_full"
    SHUTTING_DOWN = "shutting_down"
    KICKED = "kicked"
    SEAT_IN_USE = "seat_in_use"
    TABLE_FAILED = "table_failed"
    # -- lobby ---------------------------------------------------------------------------------
    UNKNOWN_TABLE = "unknown_table"
    TABLE_FULL = "table_full"
    SEAT_TAKEN = "seat_taken"
    NOT_AT_TABLE = "not_at_table"
    NOT_OWNER = "not_owner"
    NOT_READY = "not_ready"
    GAME_IN_PROGRESS = "game_in_progress"
    INVALID_NAME = "invalid_name"
    TABLE_LIMIT = "table_limit"
    CHAT_LIMITED = "chat_limited"
    PENALTY_LIMIT = "penalty_limit"
    # -- trust ---------------------------------------------------------------------------------
    FAIRNESS_VIOLATION = "fairness_violation"
    COMMIT_MISMATCH = "commit_mismatch"


FATAL: frozenset[str] = frozenset(
    {
        Code.BAD_FRAME,
        Code.FRAME_TOO_LARGE,
        Code.DUPLICATE_KEY,
        Code.UNSUPPORTED_VERSION,
        Code.HANDSHAKE_FAILED,
        Code.HANDSHAKE_TIMEOUT,
        Code.INVALID_RESUME,
        Code.IDLE_TIMEOUT,
        Code.RATE_LIMITED,
        Code.SLOW_CONSUMER,
        Code.SERVER_FULL,
        Code.SHUTTING_DOWN,
        Code.KICKED,
        Code.SEAT_IN_USE,
        Code.TABLE_FAILED,
        Code.FAIRNESS_VIOLATION,
    }
)
"""Codes after which the connection closes. Every other code refuses one message."""

MEANINGS: dict[str, str] = {
    Code.BAD_FRAME: "not one msgpack value within the encoding profile (truncated, trailing "
    "bytes, invalid UTF-8, ext, float, int outside int64, non-str key, too deep or too long)",
    Code.FRAME_TOO_LARGE: "the length prefix exceeds max_frame",
    Code.DUPLICATE_KEY: "a map repeats a key",
    Code.BAD_MESSAGE: "no str `t`, or a known field is missing or has the wrong type or range",
    Code.UNKNOWN_MESSAGE: "a message type this side does not know (ignored, connection goes on)",
    Code.UNEXPECTED_MESSAGE: "a known message that is not allowed now or from this side",
    Code.UNSUPPORTED_VERSION: "no protocol version in common; `supported` lists the host's",
    Code.HANDSHAKE_FAILED: "the first message was not a valid hello (or welcome)",
    Code.HANDSHAKE_TIMEOUT: "the hello did not arrive within the handshake deadline",
    Code.INVALID_RESUME: "the resume token names no seat; connect again without it",
    Code.IDLE_TIMEOUT: "nothing received for idle_cutoff seconds, or nothing but pings and "
    "pongs at no table for lobby_idle (section 6, [UNO-6-9])",
    Code.RATE_LIMITED: "the client sent frames faster than rate/burst allow",
    Code.SLOW_CONSUMER: "the client did not read; its outgoing queue overflowed",
    Code.SERVER_FULL: "the host accepts no more connections",
    Code.SHUTTING_DOWN: "the host is stopping",
    Code.KICKED: "the table's owner removed this player",
    Code.SEAT_IN_USE: "the resume token's seat is held by a connection that is alive; the "
    "token stays good: resume when that connection is gone",
    Code.TABLE_FAILED: "the host closed this table after an internal error or a failed "
    "journal write (its journal is kept); the host goes on serving its other tables",
    Code.UNKNOWN_TABLE: "no table with this number",
    Code.TABLE_FULL: "the table has no free seat (`spectate`: no spectator place left)",
    Code.SEAT_TAKEN: "the seat asked for is taken",
    Code.NOT_AT_TABLE: "the request needs a seat (or spectator place) at a table",
    Code.NOT_OWNER: "only the table's owner may do this",
    Code.NOT_READY: "start needs two seats filled and every seated player ready",
    Code.GAME_IN_PROGRESS: "the request is only possible in the lobby",
    Code.INVALID_NAME: "a name that is empty, has control or format characters, or is "
    "reserved (`host`)",
    Code.TABLE_LIMIT: "the host, or this address, already has as many tables as it allows",
    Code.CHAT_LIMITED: "chat faster than the table allows; the line was not sent",
    Code.PENALTY_LIMIT: "a penalty over the per-request card limit, or the round's penalty "
    "allowance is spent",
    Code.FAIRNESS_VIOLATION: "a commitment check failed; the host cheated or is broken",
    Code.COMMIT_MISMATCH: "a seed reveal does not match its commitment",
}

ENGINE_CODES: frozenset[str] = frozenset(code.value for code in EngineCode)
"""The engine's refusal codes: always non-fatal, answering an intent or a request the engine
judges (`penalize`, `set_rules`, `create_table`), with `ref` = its id."""

ALL_CODES: frozenset[str] = frozenset(code.value for code in Code) | ENGINE_CODES


def is_fatal(code: str) -> bool:
    """Whether `code` closes the connection. Unknown codes (from a newer peer) are not fatal
    unless the message says so; the receiver trusts the `fatal` flag it was sent."""
    return code in FATAL


class ProtocolError(Exception):
    """The peer broke the protocol (or an intent was refused), with a stable `code`.

    `fatal` errors leave the object that raised them in its ERROR state: it refuses further
    input, and the caller sends `error{code, fatal: true}` and closes.
    """

    def __init__(
        self,
        code: str,
        message: str,
        *,
        fatal: bool | None = None,
        details: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.fatal = is_fatal(code) if fatal is None else fatal
        self.details: Mapping[str, Any] = details or {}

    def to_message(self, ref: int | None = None) -> dict[str, Any]:
        """The `error` message that reports this error to the peer (with `details`, such as
        `supported` for unsupported_version)."""
        out: dict[str, Any] = {
            **self.details, "t": "error", "code": self.code, "fatal": self.fatal,
            "msg": self.message[:MAX_TEXT_CHARS],
        }
        if ref is not None:
            out["ref"] = ref
        return out


class LocalProtocolError(ProtocolError):
    """We tried to send something the protocol forbids: a bug on this side, never the peer's."""
