"""The host's side of one client connection, sans-IO: `HostConnection` is the one class here.

The host's trio code feeds it bytes and the time; it gets back typed events (a hello to accept
or refuse, intents already decoded into engine actions, lobby requests) and frames to send.
It enforces every receive limit that needs no socket: frame size and profile, the catalogue,
the handshake deadline, the rate limit (a token bucket) and the idle cutoff. Time is always an
argument (`now`, in seconds from any monotonic clock), never read here.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, cast

import msgpack

from protocol.connection import (
    ConnectionClosed,
    ConnectionFailed,
    Endpoint,
    MessageRefused,
    peer_error,
)
from protocol.errors import Code, LocalProtocolError, ProtocolError
from protocol.frames import EOF, encode_frame, pack
from protocol.game_codec import (
    check_legal,
    encode_event,
    encode_legal,
    encode_value,
)
from protocol.keepalive import Due, Keepalive
from protocol.limits import (
    CHAT_BURST,
    CHAT_PER_SECOND,
    HANDSHAKE_DEADLINE,
    HOST_LIMITS,
    IDLE_CUTOFF,
    LIST_TABLES_COST,
    MAX_CLIENT_CONTAINERS,
    MAX_CLIENT_FRAME,
    MAX_FRAME,
    PING_INTERVAL,
    RATE_BURST,
    RATE_PER_SECOND,
    RATE_TOKEN_BYTES,
)
from protocol.messages import REQUESTS, WIDE_FIELDS, Role, request_id, validate_message
from protocol.profile import check_profile
from protocol.ratelimit import TokenBucket, frame_cost
from protocol.state import ConnState, Trigger, transition
from protocol.text import TextRefused, normal_name
from protocol.versions import SUPPORTED_VERSIONS, common_features, negotiate
from unonet.actions import Action
from unonet.errors import EngineError
from unonet.events import Event

# -- events shared by several receivers ---------------------------------------------------------

_EVENT_HEAD = b"\x84" + msgpack.packb("t") + msgpack.packb("event") + msgpack.packb("seq")
_EVENT_KEY = msgpack.packb("event")
_LEGAL_KEY = msgpack.packb("legal")
_EVENT_FIXED = len(_EVENT_HEAD) + len(_EVENT_KEY) + len(_LEGAL_KEY)
"""An event frame's payload bytes besides its seq, event and legal."""
_U32 = struct.Struct(">I")  # the frame's length prefix


_pack = pack


def packed_event(event: Event, proof: Mapping[str, Any] | None = None, *,
                 check: bool = True) -> bytes:
    """The `event` field of an event frame, encoded and checked (catalogue and profile) once:
    the host sends each event to every member of a table, and only `seq` and `legal` differ
    between them (`HostConnection.event_packed`). `check` false skips the checks of what we
    send (HostConnection.check_outgoing)."""
    return checked_event(encode_event(event, proof), check=check)


def checked_event(value: Mapping[str, Any], *, check: bool = True) -> bytes:
    """`packed_event` of an event map already encoded (`encode_event`): checked unless
    `check` is false, then packed."""
    if not check:
        return _pack(value)
    message = {"t": "event", "seq": 0, "event": value, "legal": []}
    try:
        validate_message(message, Role.HOST)
    except ProtocolError as exc:
        raise LocalProtocolError(exc.code, exc.message) from None
    check_profile(message, WIDE_FIELDS["event"], local=True)
    return _pack(value)


_EMPTY_ARRAY = b"\x90"
"""msgpack's empty array (fixarray of 0)."""


def packed_legal(legal: Iterable[Action], *, check: bool = True) -> bytes:
    """The `legal` field of an event frame, encoded and checked once for a seat's receivers."""
    if isinstance(legal, list | tuple) and not legal:
        return _EMPTY_ARRAY  # most seats, most of the time: nothing to encode or check
    value = encode_legal(legal)
    if not check:
        return _pack(value)
    try:
        check_legal(value, "legal")
    except ProtocolError as exc:
        raise LocalProtocolError(exc.code, exc.message) from None
    check_profile({"legal": value}, frozenset({"legal"}), local=True)
    return _pack(value)


# -- what the connection reports -------------------------------------------------------------


@dataclass(frozen=True)
class HelloReceived:
    """A valid hello with a common version. Answer with `welcome()` or `refuse()`."""

    version: int
    client: Mapping[str, str]
    features: tuple[str, ...]
    name: str | None
    resume: bytes | None


@dataclass(frozen=True, slots=True)
class IntentReceived:
    """An intent whose action is a valid seat action; answer with `accept(id)` or `reject`.

    This and the next two come with most frames a client sends: immutable values, as the
    engine's actions and events are."""

    id: int
    action: Action


@dataclass(frozen=True, slots=True)
class RequestReceived:
    """A lobby request or `resync` (checked against the catalogue); `id` may be None."""

    id: int | None
    message: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class MessageReceived:
    """Any other client message: chat, seed_commit, seed_reveal, pong, a non-fatal error."""

    message: Mapping[str, Any]


HostEvent = (
    HelloReceived
    | IntentReceived
    | RequestReceived
    | MessageReceived
    | MessageRefused
    | ConnectionFailed
    | ConnectionClosed
)


class HostConnection(Endpoint):
    """One client connection as the host sees it.

    States: HANDSHAKE (waiting for hello, then for our welcome) -> READY -> CLOSED, or ERROR.
    On ERROR the fatal error message is in `data_to_send()`: send it, then close the socket.
    """

    def __init__(
        self,
        now: float,
        *,
        server_name: str = "unonet",
        server_version: str = "0.1.0",
        supported: Iterable[int] = SUPPORTED_VERSIONS,
        features: Iterable[str] = (),
        handshake_deadline: float = HANDSHAKE_DEADLINE,
        rate: float = RATE_PER_SECOND,
        burst: int = RATE_BURST,
        ping_interval: float = PING_INTERVAL,
        idle_cutoff: float = IDLE_CUTOFF,
        max_frame: int = MAX_FRAME,
        max_client_frame: int = MAX_CLIENT_FRAME,
        max_client_containers: int = MAX_CLIENT_CONTAINERS,
        rate_bytes: int = RATE_TOKEN_BYTES,
        chat_rate: float = CHAT_PER_SECOND,
        chat_burst: int = CHAT_BURST,
        check_outgoing: bool = True,
    ) -> None:
        super().__init__(Role.HOST, max_frame=max_client_frame, check_outgoing=check_outgoing,
                         max_containers=max_client_containers)
        self.max_frame = max_frame
        """Largest frame we send (SPEC 4); what we receive is bounded by `max_client_frame`."""
        self.supported = tuple(sorted(set(supported)))
        self.features = tuple(features)
        self.version: int | None = None
        self.hello: HelloReceived | None = None
        self.handshake_deadline = now + handshake_deadline
        self._server = {"name": server_name, "version": server_version}
        self.limits = {**HOST_LIMITS, "rate": max(1, int(rate)), "burst": burst,
                       "ping_interval": max(1, int(ping_interval)),
                       "idle_cutoff": max(1, int(idle_cutoff)), "max_frame": max_frame,
                       "max_client_frame": max_client_frame,
                       "max_client_containers": max_client_containers,
                       "rate_bytes": rate_bytes, "chat_rate": max(1, int(chat_rate)),
                       "chat_burst": chat_burst}
        """What `welcome.limits` announces: the values this connection enforces."""
        self._bucket = TokenBucket(now, rate=rate, burst=burst)
        self._rate_bytes = rate_bytes
        self._chat = TokenBucket(now, rate=chat_rate, burst=chat_burst)
        self._now = now  # the time of the data being handled (receive_data's `now`)
        self._keepalive = Keepalive(now, interval=ping_interval, cutoff=idle_cutoff)
        self._seq = 0
        self._next_ping = 1
        self.reply_marks: list[int] = []
        """Per event of the last `receive_data`: the bytes of `data_to_send()` before it."""

    # -- handshake ---------------------------------------------------------------------------

    def welcome(self, session: Mapping[str, int] | None = None) -> bytes:
        """Accept the hello: the welcome frame (HANDSHAKE -> READY). `session` names the
        seat a resume token took back ({table, seat})."""
        if self.hello is None:
            raise LocalProtocolError(Code.UNEXPECTED_MESSAGE, "welcome before a valid hello")
        message: dict[str, Any] = {
            "t": "welcome", "v": self.hello.version, "server": self._server,
            "features": common_features(self.hello.features, self.features),
            "limits": dict(self.limits),
        }
        if session is not None:
            message["session"] = dict(session)
        frame = self.send(message)
        self.state = transition(self.state, Trigger.SEND_WELCOME)
        return frame

    def refuse(self, code: str, msg: str, **details: Any) -> bytes:
        """A fatal error frame (server_full, invalid_resume, shutting_down, ...), with the
        error's optional fields in `details`; state ERROR."""
        error = ProtocolError(code, msg, fatal=True, details=details)
        frame = self.send(error.to_message())
        self.error = error
        return frame

    # -- answers and game traffic ------------------------------------------------------------

    def accept(self, request: int) -> bytes:
        return self.send({"t": "accepted", "id": request})

    def reject(self, request: int | None, code: str, msg: str) -> bytes:
        """A non-fatal refusal of the request `request` (engine or lobby code)."""
        return self.send(ProtocolError(code, msg, fatal=False).to_message(request))

    def reject_engine(self, request: int, error: EngineError) -> bytes:
        """The engine refused an intent: its code passes through as a non-fatal error."""
        return self.reject(request, error.code.value, error.message)

    def snapshot(self, view: Any, legal: Iterable[Action]) -> bytes:
        """A snapshot of `view` (any frozen dataclass or map); numbering restarts here."""
        self._seq += 1
        return self.send(
            {"t": "snapshot", "seq": self._seq, "view": encode_value(view),
             "legal": encode_legal(legal)}
        )

    def event(
        self, event: Event, legal: Iterable[Action], proof: Mapping[str, Any] | None = None
    ) -> bytes:
        """One engine event for this connection (the host sends each event to its audience
        only), with its proof fields and the receiver's legal actions."""
        self._seq += 1
        return self.send(
            {"t": "event", "seq": self._seq, "event": encode_event(event, proof),
             "legal": encode_legal(legal)}
        )

    def event_packed(self, event: bytes, legal: bytes) -> bytes:
        """An event frame from the parts `packed_event` and `packed_legal` made and checked;
        the same as `event`, without encoding and checking them again for each receiver."""
        if self.state is not ConnState.READY:
            raise LocalProtocolError(Code.UNEXPECTED_MESSAGE, f"connection is {self.state}")
        self._seq += 1
        seq = _pack(self._seq)
        size = _EVENT_FIXED + len(seq) + len(event) + len(legal)
        if size > self.max_frame:
            raise LocalProtocolError(Code.FRAME_TOO_LARGE, f"event frame of {size} bytes")
        # one join, the length prefix with the parts (a frame is built per receiver)
        return b"".join((_U32.pack(size), _EVENT_HEAD, seq, _EVENT_KEY, event, _LEGAL_KEY, legal))

    @property
    def seq(self) -> int:
        """The last sequence number sent."""
        return self._seq

    # -- time --------------------------------------------------------------------------------

    def tick(self, now: float) -> list[HostEvent]:
        """Apply the deadlines up to `now`: a late hello or a silent client fails the
        connection; a quiet one gets a ping (in `data_to_send()`)."""
        if self.state is ConnState.HANDSHAKE and now >= self.handshake_deadline:
            return [self._fail(ProtocolError(Code.HANDSHAKE_TIMEOUT, "no hello in time"))]
        if self.state is not ConnState.READY:
            return []
        due = self._keepalive.due(now)
        if due is Due.CUT:
            return [self._fail(ProtocolError(Code.IDLE_TIMEOUT, "no frame from the client"))]
        if due is Due.PING:
            self._outbox += encode_frame({"t": "ping", "n": self._next_ping})
            self._next_ping += 1
        return []

    def next_deadline(self) -> float | None:
        """When `tick` should run next (None once closed)."""
        if self.state is ConnState.HANDSHAKE:
            return self.handshake_deadline
        if self.state is ConnState.READY:
            return self._keepalive.next_deadline()
        return None

    # -- receiving ---------------------------------------------------------------------------

    def receive_data(self, data: bytes, now: float) -> list[HostEvent]:
        """Feed bytes from the client (`b""` for EOF) received at time `now`.

        A fatal error ends the list with ConnectionFailed (state ERROR, our error message in
        `data_to_send()`); non-fatal refusals are answered in `data_to_send()` too, and so are
        pongs. `reply_marks` then says, for each event, how many bytes of `data_to_send()`
        answer frames that came before it: the caller sends those first, then what it answers
        the event, so that a read of several frames is answered in their order (SPEC.md
        [UNO-7-5]). Never raises anything but ProtocolError (and only after ERROR, the stored
        error again).
        """
        if self.state is ConnState.ERROR and self.error is not None:
            raise self.error
        out: list[HostEvent] = []
        marks = self.reply_marks
        marks.clear()
        outbox = self._outbox
        self._now = now
        try:
            for frame in self._frames(data, self._charge):
                if self.state in (ConnState.CLOSED, ConnState.ERROR):
                    break
                if frame is EOF:
                    marks.append(len(outbox))
                    out.append(self._closed(None))
                    break
                assert isinstance(frame, dict)
                self._keepalive.received(now)
                before = len(outbox)
                for event in self._handle(frame):
                    marks.append(before)
                    out.append(event)
        except ProtocolError as exc:
            marks.append(len(outbox))
            out.append(self._fail(exc))
        return out

    def _charge(self, size: int) -> None:
        """Take a frame's cost (frame_cost: by its bytes) from the bucket before decoding it;
        too few tokens cut the client off (rate_limited, fatal), the frame unread. A cost
        over the bucket's size is capped to it, so a small test bucket still admits frames."""
        cost = min(frame_cost(size, self._rate_bytes), self._bucket.burst)
        if not self._bucket.take(self._now, cost):
            raise ProtocolError(Code.RATE_LIMITED, f"too many frames or bytes ({size} bytes)")

    def _charge_extra(self, cost: int) -> None:
        """Take `cost` more tokens for a request whose answer costs the host more than its
        frame (list_tables); too few cut the client off as `_charge` does."""
        if not self._bucket.take(self._now, min(cost, self._bucket.burst)):
            raise ProtocolError(Code.RATE_LIMITED, "too many requests for the table list")

    def _chat_allowed(self, message: dict[str, Any]) -> list[HostEvent] | None:
        """None if the chat line fits this connection's chat budget; else the refusal
        (chat_limited, non-fatal, queued): the line is dropped, the connection stays."""
        if self._chat.take(self._now):
            return None
        error = ProtocolError(Code.CHAT_LIMITED, "chat faster than one line a second (a few "
                              "at once); this line was not sent", fatal=False)
        self._reply_error(error, message)
        return [MessageRefused(error, "chat")]

    def _handle(self, message: dict[str, Any]) -> list[HostEvent]:
        if self.state is ConnState.HANDSHAKE and self.hello is not None:
            raise ProtocolError(Code.HANDSHAKE_FAILED, "wait for welcome before sending more")
        decoded: dict[str, object] = {}
        try:
            spec = self._check_incoming(message, decoded)
        except ProtocolError as exc:
            if exc.fatal:
                raise
            self._reply_error(exc, message)
            kind = message.get("t")
            return [MessageRefused(exc, kind if isinstance(kind, str) else None)]
        kind = spec.type
        if kind == "hello":
            return [self._on_hello(message)]
        if kind == "intent":
            # the catalogue check decoded the action already
            return [IntentReceived(message["id"], cast(Action, decoded["action"]))]
        if kind == "ping":
            self._outbox += encode_frame({"t": "pong", "n": message["n"]})
            return []
        if kind == "bye":
            return [self._closed(message["reason"], message.get("msg"))]
        if kind == "error" and message["fatal"] is True:
            return [self._fail(peer_error(message), by_peer=True)]
        if kind == "list_tables":
            self._charge_extra(LIST_TABLES_COST - 1)  # its frame paid 1 already
        if kind in REQUESTS:
            return [RequestReceived(request_id(message), message)]
        if kind == "chat":
            refused = self._chat_allowed(message)
            if refused is not None:
                return refused
        return [MessageReceived(message)]

    def _on_hello(self, message: dict[str, Any]) -> HelloReceived:
        # No common version raises unsupported_version (fatal) with `supported` attached.
        version = negotiate(message["v"], self.supported)
        name = message.get("name")
        if name is not None:
            try:  # a name no table would take ([UNO-8-1]): reserved, or empty once normalised
                normal_name(name)
            except TextRefused as exc:
                raise ProtocolError(Code.HANDSHAKE_FAILED, f"hello.name: {exc.msg}") from None
        self.version = version
        self.hello = HelloReceived(
            version,
            message["client"],
            tuple(message["features"]),
            message.get("name"),
            message.get("resume"),
        )
        return self.hello
