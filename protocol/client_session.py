"""The client's side of a connection, sans-IO: `ClientSession` is the one class here.

It writes the hello, checks the welcome, turns bytes from the host into typed events, numbers
requests and matches their answers, answers pings, notices a gap in the game's sequence numbers
and asks for a snapshot, decodes the events of a `round_history` (a connection entering a round
in the middle), and passes every host message to a trust observer if one is plugged in. A
driver owns the socket: it sends what the methods return and what `data_to_send()` holds, and
closes once the state is CLOSED or ERROR.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from protocol.connection import (
    ConnectionClosed,
    ConnectionFailed,
    Endpoint,
    MessageRefused,
    peer_error,
)
from protocol.errors import Code, LocalProtocolError, ProtocolError
from protocol.frames import EOF, encode_frame
from protocol.game_codec import (
    UnknownEvent,
    WireEvent,
    decode_event,
    decode_legal,
    encode_action,
)
from protocol.limits import MAX_FRAME
from protocol.messages import REQUESTS, Role
from protocol.state import ConnState, Trigger, transition
from protocol.versions import SUPPORTED_VERSIONS
from unonet.actions import Action
from unonet.events import Event

HELD_WHILE_RESYNCING = frozenset(
    {"round_prepare", "seed_commits", "seed_reveals", "deck_commits", "round_audit"})
"""A round's trust messages received while a resync drops events: the audit of a round whose
last events were dropped must be checked after they come back in round_history."""


# -- what the session reports ------------------------------------------------------------------


@dataclass(frozen=True)
class Welcomed:
    version: int
    server: Mapping[str, Any]
    features: tuple[str, ...]
    limits: Mapping[str, int]
    session: Mapping[str, int] | None  # the seat taken back by hello.resume


@dataclass(frozen=True)
class Snapshot:
    """Everything this seat may know; event numbering restarts from `seq`."""

    seq: int
    view: Mapping[str, Any]
    legal: tuple[Action, ...]


@dataclass(frozen=True)
class GameEvent:
    seq: int
    event: Event | UnknownEvent
    proof: Mapping[str, Any]
    legal: tuple[Action, ...]


@dataclass(frozen=True)
class HistoryReceived:
    """A chunk of the current round's events so far (`round_history`), sent to a connection
    that enters a match in mid-round, before its snapshot: each event decoded as an `event`
    message's, with its proof fields, as this client's audience got it. `first` is the index
    of the chunk's first event in the round. They carry no seq: the snapshot that follows
    starts the numbering."""

    round_no: int
    first: int
    events: tuple[WireEvent, ...]


@dataclass(frozen=True)
class ResyncNeeded:
    """An event arrived out of sequence (a gap or a repeat). A `resync` request is queued in
    `data_to_send()`; events are dropped until the snapshot that answers it."""

    expected: int | None
    received: int


@dataclass(frozen=True)
class RequestAccepted:
    id: int
    request: Mapping[str, Any]


@dataclass(frozen=True)
class RequestRefused:
    id: int
    request: Mapping[str, Any]
    error: ProtocolError


@dataclass(frozen=True)
class PeerError:
    """An error from the host that answers none of our pending requests."""

    error: ProtocolError
    ref: int | None
    supported: tuple[int, ...] = ()


@dataclass(frozen=True)
class Pong:
    n: int


@dataclass(frozen=True)
class MessageReceived:
    """Any other host message (lobby, chat, trust), already checked against the catalogue."""

    message: Mapping[str, Any]


@dataclass(frozen=True)
class TrustReport:
    """What the trust observer said about the message it was just given."""

    message_type: str
    outcome: object


SessionEvent = (
    Welcomed
    | Snapshot
    | GameEvent
    | HistoryReceived
    | ResyncNeeded
    | RequestAccepted
    | RequestRefused
    | PeerError
    | Pong
    | MessageReceived
    | TrustReport
    | MessageRefused
    | ConnectionFailed
    | ConnectionClosed
)


class TrustObserver(Protocol):
    """The hook the trust layer plugs into: it sees every host message after validation.
    A non-None return becomes a TrustReport event; it must not raise for a dishonest host.
    For an `event` message, `event` is the GameEvent the session decoded from it (the engine
    event and its proof), so that the observer need not decode it again."""

    def observe(self, message: Mapping[str, Any],
                event: GameEvent | None = None) -> object | None: ...


@dataclass
class _Sequence:
    """Game event numbering: `expected` is the seq the next event must carry (None before the
    first snapshot); while `resyncing`, events are dropped until a snapshot arrives."""

    expected: int | None = None
    resyncing: bool = False
    gaps: int = field(default=0)


class ClientSession(Endpoint):
    """A client connection's protocol state, from hello to bye.

    States: IDLE -> (hello) HANDSHAKE -> (welcome) READY -> CLOSED, or ERROR on a fatal error.
    After ERROR every `receive_data` raises the error again; nothing more may be sent.
    """

    def __init__(
        self,
        *,
        client_name: str = "unonet",
        client_version: str = "0.1.0",
        versions: Iterable[int] = SUPPORTED_VERSIONS,
        features: Iterable[str] = (),
        name: str | None = None,
        resume: bytes | None = None,
        trust: TrustObserver | None = None,
        max_frame: int = MAX_FRAME,
    ) -> None:
        super().__init__(Role.CLIENT, max_frame=max_frame)
        self.versions = tuple(sorted(set(versions)))
        self.features = tuple(features)
        self.version: int | None = None
        self.trust = trust
        self._client = {"name": client_name, "version": client_version}
        self._name = name
        self._resume = resume
        self._next_id = 1
        self._next_ping = 1
        self._pending: dict[int, Mapping[str, Any]] = {}
        self._held_trust: list[dict[str, Any]] = []
        """Round trust messages that came while a resync dropped events: shown to the trust
        observer after the snapshot, so that it sees the dropped events (round_history) first."""
        self._sequence = _Sequence()
        self._decoded: dict[str, object] = {}  # what the catalogue check of the message
        # being handled decoded (`event`, `legal`): its handler uses that, not a second decode

    # -- sending -----------------------------------------------------------------------------

    def hello(self) -> bytes:
        """The hello frame. IDLE -> HANDSHAKE; calling it twice is a LocalProtocolError."""
        message: dict[str, Any] = {
            "t": "hello", "v": list(self.versions), "client": self._client,
            "features": list(self.features),
        }
        if self._name is not None:
            message["name"] = self._name
        if self._resume is not None:
            message["resume"] = self._resume
        frame = self.send(message)
        self.state = transition(self.state, Trigger.SEND_HELLO)
        return frame

    def _check_send_state(self, spec: Any) -> None:
        if spec.type == "hello" and self.state is not ConnState.IDLE:
            raise LocalProtocolError(Code.UNEXPECTED_MESSAGE, "hello was sent already")
        if self.state is ConnState.IDLE and spec.type != "hello":
            raise LocalProtocolError(Code.UNEXPECTED_MESSAGE, "send hello first")
        super()._check_send_state(spec)

    def request(self, kind: str, **fields: Any) -> tuple[int, bytes]:
        """A request with a fresh id (`list_tables`, `join_table`, ... `resync`, `intent`).
        Returns (id, frame); the answer comes back as RequestAccepted or RequestRefused."""
        if kind not in REQUESTS:
            raise LocalProtocolError(Code.UNEXPECTED_MESSAGE, f"{kind} is not a request")
        request_id = self._next_id
        message = {"t": kind, **fields, "id": request_id}
        frame = self.send(message)
        self._next_id += 1
        self._pending[request_id] = message
        return request_id, frame

    def intent(self, action: Action) -> tuple[int, bytes]:
        """Ask the host to apply `action` for our seat; returns (id, frame)."""
        return self.request("intent", action=encode_action(action))

    def resync(self) -> tuple[int, bytes]:
        """Ask for a fresh snapshot; events are dropped until it arrives."""
        self._sequence.resyncing = True
        return self.request("resync")

    def chat(self, text: str) -> bytes:
        return self.send({"t": "chat", "text": text})

    def ping(self) -> bytes:
        """A ping; its pong comes back as a Pong event with the same n."""
        frame = self.send({"t": "ping", "n": self._next_ping})
        self._next_ping += 1
        return frame

    @property
    def pending(self) -> Mapping[int, Mapping[str, Any]]:
        """Requests sent and not yet answered, by id."""
        return dict(self._pending)

    @property
    def expected_seq(self) -> int | None:
        return self._sequence.expected

    # -- receiving ---------------------------------------------------------------------------

    def receive_data(self, data: bytes) -> list[SessionEvent]:
        """Feed bytes from the host (`b""` for EOF) and get what they mean, in order.

        A fatal error ends the list with ConnectionFailed (state ERROR, our error message in
        `data_to_send()`); a later call raises that error again. Never raises anything but
        ProtocolError.
        """
        if self.state is ConnState.ERROR and self.error is not None:
            raise self.error
        out: list[SessionEvent] = []
        try:
            for frame in self._frames(data):
                if self.state in (ConnState.CLOSED, ConnState.ERROR):
                    break  # nothing may follow bye or a fatal error
                if frame is EOF:
                    out.append(self._closed(None))
                    break
                assert isinstance(frame, dict)
                out.extend(self._handle(frame))
        except ProtocolError as exc:
            out.append(self._fail(exc))
        return out

    def _handle(self, message: dict[str, Any]) -> list[SessionEvent]:
        decoded: dict[str, object] = {}
        self._decoded = decoded
        try:
            spec = self._check_incoming(message, decoded)
        except ProtocolError as exc:
            if exc.fatal:
                raise
            # A newer host may send what we do not know; log it, do not answer it.
            kind = message.get("t")
            return [MessageRefused(exc, kind if isinstance(kind, str) else None)]
        handler = HANDLERS.get(spec.type)
        events: list[SessionEvent] = (
            handler(self, message) if handler is not None else [MessageReceived(message)]
        )
        # A dropped event (out of sequence, or during a resync) is not shown to the trust
        # observer: a repeat would look like a card handed out twice.
        game_event = None
        if spec.type == "event":
            game_event = next((e for e in events if isinstance(e, GameEvent)), None)
        delivered = spec.type != "event" or game_event is not None
        if self.trust is None or self.state is not ConnState.READY or not delivered:
            return events
        if self._sequence.resyncing and spec.type in HELD_WHILE_RESYNCING:
            self._held_trust.append(message)
            return events
        held = self._held_trust if spec.type == "snapshot" else []
        for item in [message, *held]:
            outcome = self.trust.observe(item, game_event if item is message else None)
            if outcome is not None:
                events.append(TrustReport(str(item["t"]), outcome))
        if held:
            self._held_trust = []
        return events

    def _on_welcome(self, message: dict[str, Any]) -> list[SessionEvent]:
        version = message["v"]
        if version not in self.versions:
            raise ProtocolError(
                Code.HANDSHAKE_FAILED, f"host chose version {version}, not one we offered"
            )
        self.version = version
        self.state = transition(self.state, Trigger.RECV_WELCOME)
        return [
            Welcomed(
                version,
                message["server"],
                tuple(message["features"]),
                {k: v for k, v in message["limits"].items() if isinstance(v, int)},
                message.get("session"),
            )
        ]

    def _on_error(self, message: dict[str, Any]) -> list[SessionEvent]:
        error = peer_error(message)
        ref = message.get("ref")
        events: list[SessionEvent] = []
        request = self._pending.pop(ref, None) if ref is not None else None
        if ref is not None and request is not None:
            events.append(RequestRefused(ref, request, error))
            if request["t"] == "resync":
                self._sequence.resyncing = False
        else:
            supported = tuple(message.get("supported") or ())
            events.append(PeerError(error, ref, supported))
        if error.fatal:
            events.append(self._fail(error, by_peer=True))
        return events

    def _on_bye(self, message: dict[str, Any]) -> list[SessionEvent]:
        return [self._closed(message["reason"], message.get("msg"))]

    def _on_ping(self, message: dict[str, Any]) -> list[SessionEvent]:
        self._outbox += encode_frame({"t": "pong", "n": message["n"]})
        return []

    def _on_pong(self, message: dict[str, Any]) -> list[SessionEvent]:
        return [Pong(message["n"])]

    def _on_accepted(self, message: dict[str, Any]) -> list[SessionEvent]:
        request = self._pending.pop(message["id"], None)
        if request is None:
            return [MessageRefused(ProtocolError(Code.BAD_MESSAGE, "accepted{id} answers no "
                                                 "request of ours"), "accepted")]
        return [RequestAccepted(message["id"], request)]

    def _on_snapshot(self, message: dict[str, Any]) -> list[SessionEvent]:
        seq = message["seq"]
        self._sequence.expected = seq + 1
        self._sequence.resyncing = False
        return [Snapshot(seq, message["view"], self._legal(message))]

    def _on_event(self, message: dict[str, Any]) -> list[SessionEvent]:
        seq = message["seq"]
        sequence = self._sequence
        if sequence.resyncing:
            return []
        if sequence.expected is None or seq != sequence.expected:
            sequence.gaps += 1
            expected = sequence.expected
            _, frame = self.resync()
            self._outbox += frame
            return [ResyncNeeded(expected, seq)]
        sequence.expected = seq + 1
        wire = self._decoded.get("event")
        if not isinstance(wire, WireEvent):
            wire = decode_event(message["event"])
        return [GameEvent(seq, wire.event, wire.proof, self._legal(message))]

    def _on_round_history(self, message: dict[str, Any]) -> list[SessionEvent]:
        events = tuple(decode_event(data, f"round_history.events[{index}]")
                       for index, data in enumerate(message["events"]))
        return [HistoryReceived(message["round"], message["first"], events)]

    def _legal(self, message: Mapping[str, Any]) -> tuple[Action, ...]:
        """The message's legal list, as the catalogue check decoded it."""
        legal = self._decoded.get("legal")
        if isinstance(legal, tuple):
            return legal
        return decode_legal(message["legal"])


HANDLERS: dict[str, Callable[[ClientSession, dict[str, Any]], list[SessionEvent]]] = {
    "welcome": ClientSession._on_welcome,
    "error": ClientSession._on_error,
    "bye": ClientSession._on_bye,
    "ping": ClientSession._on_ping,
    "pong": ClientSession._on_pong,
    "accepted": ClientSession._on_accepted,
    "snapshot": ClientSession._on_snapshot,
    "event": ClientSession._on_event,
    "round_history": ClientSession._on_round_history,
}
"""The messages the session itself handles, by type; every other one the catalogue accepts
goes to the caller as MessageReceived."""

