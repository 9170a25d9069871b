"""What both ends of a connection share: frames in, checked messages out, the state machine,
and an outbox for the replies the protocol sends by itself (pong, error, resync).

`ClientSession` (client_session.py) and `HostConnection` (host_connection.py) build on
`Endpoint`. Neither does I/O: the driver feeds received bytes in, sends what the methods return
and what `data_to_send()` holds, and closes the socket when the state is CLOSED or ERROR.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from protocol.errors import Code, LocalProtocolError, ProtocolError
from protocol.frames import CLIENT_WIDE_FIELDS, EOF, FrameDecoder, Signal, encode_frame
from protocol.limits import MAX_FRAME
from protocol.messages import CATALOGUE, MessageSpec, Role, request_id, validate_message
from protocol.state import (
    HANDSHAKE_MESSAGES,
    READY_FORBIDDEN,
    ConnState,
    Trigger,
    transition,
)

_STATEFUL = frozenset({"bye", "error"})
"""Message types whose sending changes our state (bye closes, a fatal error fails): they go
through `send`, never the shared encoding."""

# -- events both roles report -----------------------------------------------------------------


@dataclass(frozen=True)
class ConnectionFailed:
    """A fatal protocol error, detected here or reported by the peer. The state is ERROR; the
    driver sends what `data_to_send()` holds (our error message, if any) and closes."""

    error: ProtocolError
    by_peer: bool


@dataclass(frozen=True)
class ConnectionClosed:
    """The peer said bye (`reason` set) or closed the stream (`reason` None). State CLOSED."""

    reason: str | None
    msg: str | None = None


@dataclass(frozen=True)
class MessageRefused:
    """A peer message refused without closing (bad_message, unknown_message,
    unexpected_message); the host has already queued the error reply."""

    error: ProtocolError
    message_type: str | None


class Endpoint:
    """Shared machinery; `role` is our side. See the subclasses for the public API."""

    role: Role
    peer: Role

    def __init__(self, role: Role, *, max_frame: int = MAX_FRAME,
                 check_outgoing: bool = True, max_containers: int | None = None) -> None:
        self.role = role
        self.check_outgoing = check_outgoing
        """Check what we send against the catalogue and the profile (our own bugs). Incoming
        frames are always checked; a host that trusts its own code may skip the outgoing
        checks (they cost as much as building the frame), tests keep them on."""
        self.peer = Role.HOST if role is Role.CLIENT else Role.CLIENT
        self.state = ConnState.IDLE if role is Role.CLIENT else ConnState.HANDSHAKE
        self.error: ProtocolError | None = None
        self._decoder = (FrameDecoder(max_frame=max_frame) if max_containers is None else
                         FrameDecoder(max_frame=max_frame, max_containers=max_containers,
                                      wide_fields=CLIENT_WIDE_FIELDS))
        """What we receive; `max_containers` set (the host) decodes the peer's frames with
        that bound (frames.decode_bounded): a client's messages are small and simple."""
        self._outbox = bytearray()

    # -- sending -----------------------------------------------------------------------------

    def data_to_send(self) -> bytes:
        """Bytes the protocol produced on its own since the last call (replies, errors)."""
        out = bytes(self._outbox)
        self._outbox.clear()
        return out

    def send(self, message: Mapping[str, Any]) -> bytes:
        """The frame for `message`, after checking it against the catalogue and our state.

        Raises LocalProtocolError (our bug, the state is unchanged) for a message we may not
        send now or whose fields are wrong. Sending `bye` or a fatal `error` closes our side.
        """
        if self.state in (ConnState.CLOSED, ConnState.ERROR):
            raise LocalProtocolError(Code.UNEXPECTED_MESSAGE, f"connection is {self.state}")
        spec = self._outgoing_spec(message)
        self._check_send_state(spec)
        frame = encode_frame(message, check=self.check_outgoing)
        if spec.type == "bye":
            self.state = transition(self.state, Trigger.BYE)
        elif spec.type == "error" and message.get("fatal") is True:
            self.state = transition(self.state, Trigger.FATAL)
        return frame

    def encode_message(self, message: Mapping[str, Any]) -> bytes:
        """The frame for `message`, checked (catalogue and profile, unless `check_outgoing` is
        off) but not sent: no state is read or changed, so the host can encode a message that
        goes to many connections once and hand the same bytes to each `send_encoded`.

        Raises LocalProtocolError for a message outside the catalogue or the profile, or too
        large. `bye` and `error` change the sender's state: send them with `send`.
        """
        spec = self._outgoing_spec(message)
        if spec.type in _STATEFUL:
            raise LocalProtocolError(Code.UNEXPECTED_MESSAGE, f"send {spec.type} with send()")
        return encode_frame(message, check=self.check_outgoing)

    def send_encoded(self, kind: str, frame: bytes) -> bytes:
        """`frame` (from `encode_message` of a `kind` message, on any connection of our role)
        once our state allows sending `kind`; raises LocalProtocolError (state unchanged) if
        it does not."""
        if self.state in (ConnState.CLOSED, ConnState.ERROR):
            raise LocalProtocolError(Code.UNEXPECTED_MESSAGE, f"connection is {self.state}")
        spec = CATALOGUE.get(kind)
        if spec is None or not spec.direction.allows(self.role) or kind in _STATEFUL:
            raise LocalProtocolError(Code.UNEXPECTED_MESSAGE, f"cannot send {kind!r} encoded")
        self._check_send_state(spec)
        return frame

    def _outgoing_spec(self, message: Mapping[str, Any]) -> MessageSpec:
        """The catalogue entry of a message we send; validated unless `check_outgoing` is off."""
        spec = CATALOGUE.get(message.get("t")) if not self.check_outgoing else None  # type: ignore[arg-type]
        if spec is None:
            try:
                spec = validate_message(message, self.role)
            except ProtocolError as exc:
                raise LocalProtocolError(exc.code, exc.message) from None
        return spec

    def close(self, reason: str = "quit", msg: str | None = None) -> bytes:
        """The `bye` frame; the state becomes CLOSED. Nothing may be sent after it."""
        message: dict[str, Any] = {"t": "bye", "reason": reason}
        if msg is not None:
            message["msg"] = msg
        return self.send(message)

    def _check_send_state(self, spec: MessageSpec) -> None:
        if self.state is ConnState.READY:
            if spec.type in READY_FORBIDDEN:
                raise LocalProtocolError(Code.UNEXPECTED_MESSAGE, f"{spec.type} after handshake")
        elif spec.type not in HANDSHAKE_MESSAGES[self.role]:
            raise LocalProtocolError(
                Code.UNEXPECTED_MESSAGE, f"{spec.type} before the handshake is done"
            )

    # -- receiving ---------------------------------------------------------------------------

    def _frames(self, data: bytes, admit: Callable[[int], None] | None = None
                ) -> Iterator[dict[str, Any] | Signal]:
        """Feed `data` and yield decoded frames (and EOF). A decoder error fails the
        connection: it is re-raised for `_fail` to report. `admit`, if given, is called with
        each frame's payload size before the frame is decoded; it raises ProtocolError to
        refuse the frame (the rate limit), so a refused frame costs no decoding."""
        if self.error is not None and self.state is ConnState.ERROR:
            raise self.error
        self._decoder.receive_data(data)
        while True:
            if admit is not None:
                size = self._decoder.next_size
                if size is not None:
                    admit(size)
            frame = self._decoder.next_frame()
            if frame is Signal.NEED_DATA:
                return
            yield frame
            if frame is EOF:
                return

    def _check_incoming(self, message: dict[str, Any],
                        decoded: dict[str, object] | None = None) -> MessageSpec:
        """Validate a peer message for the current state. Raises ProtocolError: fatal
        handshake_failed during the handshake, else the non-fatal catalogue codes. `decoded`,
        if given, gets the engine values the check decoded (see validate_message)."""
        if self.state is not ConnState.READY:
            allowed = HANDSHAKE_MESSAGES[self.peer]
            try:
                spec = validate_message(message, self.peer, decoded)
            except ProtocolError as exc:
                raise ProtocolError(Code.HANDSHAKE_FAILED, exc.message) from None
            if spec.type not in allowed:
                raise ProtocolError(
                    Code.HANDSHAKE_FAILED, f"{spec.type} before the handshake is done"
                )
            return spec
        spec = validate_message(message, self.peer, decoded)
        if spec.type in READY_FORBIDDEN:
            raise ProtocolError(Code.UNEXPECTED_MESSAGE, f"{spec.type} after the handshake")
        return spec

    def _fail(self, error: ProtocolError, *, by_peer: bool = False) -> ConnectionFailed:
        """Enter ERROR; unless the peer reported the error, queue our fatal error message."""
        fatal = error if error.fatal else ProtocolError(error.code, error.message, fatal=True)
        if not by_peer and self.state not in (ConnState.CLOSED, ConnState.ERROR):
            self._outbox += encode_frame(fatal.to_message())
        self.error = fatal
        self.state = transition(self.state, Trigger.FATAL)
        return ConnectionFailed(fatal, by_peer)

    def _closed(self, reason: str | None, msg: str | None = None) -> ConnectionClosed:
        trigger = Trigger.EOF if reason is None else Trigger.BYE
        if self.state is not ConnState.ERROR:
            self.state = transition(self.state, trigger)
        return ConnectionClosed(reason, msg)

    def _reply_error(self, error: ProtocolError, message: Mapping[str, Any]) -> None:
        """Queue a non-fatal error answering `message` (with `ref` if it carried an id)."""
        self._outbox += encode_frame(error.to_message(request_id(message)))


def peer_error(message: Mapping[str, Any]) -> ProtocolError:
    """The ProtocolError an `error` message from the peer reports (`why` and `kept` of a host
    going away, SPEC.md [UNO-8-4], in its details)."""
    details = {key: message[key] for key in ("why", "kept") if message.get(key) is not None}
    return ProtocolError(str(message["code"]), str(message["msg"]), fatal=bool(message["fatal"]),
                         details=details)
