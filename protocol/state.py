"""The connection state machine (SPEC.md section 7), the same for both roles.

Rule (after h11's _state.py): everything that changes a connection's state lives in the table
below, keyed by (state, trigger). Which messages each state lets through is a second table.
The lobby and game phases are the host's business (it refuses a message that does not fit with
a non-fatal error); the connection only knows whether the handshake is done.
"""

from __future__ import annotations

from enum import StrEnum

from protocol.errors import Code, LocalProtocolError


class ConnState(StrEnum):
    IDLE = "idle"  # client only: nothing sent yet
    HANDSHAKE = "handshake"  # client: hello sent; host: waiting for hello
    READY = "ready"  # welcome sent / received: every message of the catalogue may flow
    CLOSED = "closed"  # bye sent or received, or a clean EOF
    ERROR = "error"  # a fatal error, ours or the peer's


class Trigger(StrEnum):
    SEND_HELLO = "send_hello"
    RECV_HELLO = "recv_hello"
    SEND_WELCOME = "send_welcome"
    RECV_WELCOME = "recv_welcome"
    BYE = "bye"  # sent or received
    EOF = "eof"  # the peer closed the stream
    FATAL = "fatal"  # a fatal error sent, received or detected


S, T = ConnState, Trigger

TRANSITIONS: dict[tuple[ConnState, Trigger], ConnState] = {
    (S.IDLE, T.SEND_HELLO): S.HANDSHAKE,
    (S.IDLE, T.FATAL): S.ERROR,
    (S.IDLE, T.EOF): S.CLOSED,
    (S.HANDSHAKE, T.RECV_HELLO): S.HANDSHAKE,  # host: hello validated, welcome not yet sent
    (S.HANDSHAKE, T.SEND_WELCOME): S.READY,
    (S.HANDSHAKE, T.RECV_WELCOME): S.READY,
    (S.HANDSHAKE, T.BYE): S.CLOSED,
    (S.HANDSHAKE, T.EOF): S.CLOSED,
    (S.HANDSHAKE, T.FATAL): S.ERROR,
    (S.READY, T.BYE): S.CLOSED,
    (S.READY, T.EOF): S.CLOSED,
    (S.READY, T.FATAL): S.ERROR,
    (S.CLOSED, T.EOF): S.CLOSED,
    (S.CLOSED, T.FATAL): S.ERROR,
    (S.ERROR, T.FATAL): S.ERROR,
    (S.ERROR, T.EOF): S.ERROR,
}

HANDSHAKE_MESSAGES: dict[str, frozenset[str]] = {
    "client": frozenset({"hello"}),
    "host": frozenset({"welcome", "error", "bye"}),
}
"""What a side may send while the handshake is not done (anything else: handshake_failed)."""

READY_FORBIDDEN: frozenset[str] = frozenset({"hello", "welcome"})
"""Messages that may not appear once the handshake is done (unexpected_message)."""


def transition(state: ConnState, trigger: Trigger) -> ConnState:
    """The state after `trigger`; raises LocalProtocolError if the table has no such edge."""
    try:
        return TRANSITIONS[(state, trigger)]
    except KeyError:
        raise LocalProtocolError(
            Code.UNEXPECTED_MESSAGE, f"{trigger} is not possible in state {state}"
        ) from None
