"""The link's protocol logic, sans-IO: session events in, `Update`s and frames out.

`LinkSession` outlives connections: it keeps the seat's resume token, the seat and the trust
verifier, and makes a fresh ClientSession for each connection (`connect`). The trio driver
(client/network.py) owns the socket, the clock and the reconnect policy; everything that
decides what a host message means for the screen is here, where tests need no sockets.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from client import wire
from client.bounds import BoundsError, check_event, check_view
from client.link import (
    Chat,
    ChatReceived,
    CloseLink,
    Command,
    ConnectionChanged,
    GameEvent,
    LobbyChanged,
    ManifestReceived,
    MissedEvents,
    Refused,
    Snapshot,
    TablesListed,
    TimerChanged,
    TrustStatus,
    Update,
)
from client.link import TrustReport as LinkTrustReport
from client.lobby import LOBBY_COMMANDS, JoinTable, Leave, LobbyState, Spectate
from client.safe_text import own_name
from client.seat_tokens import SeatSlot
from client.transcript import TranscriptWriter
from client.trust_gate import TrustGate
from protocol.client_session import (
    ClientSession,
    HistoryReceived,
    MessageReceived,
    PeerError,
    RequestRefused,
    ResyncNeeded,
    SessionEvent,
    TrustReport,
    Welcomed,
)
from protocol.client_session import GameEvent as WireGameEvent
from protocol.client_session import Snapshot as WireSnapshot
from protocol.connection import ConnectionClosed, ConnectionFailed, MessageRefused
from protocol.errors import Code, ProtocolError
from protocol.game_codec import UnknownEvent
from protocol.text import TextRefused
from unonet import events as ev
from unonet.actions import Action

log = logging.getLogger("unonet.client.link")

RETRY_CODES = frozenset({
    Code.IDLE_TIMEOUT, Code.SLOW_CONSUMER, Code.SERVER_FULL, Code.SHUTTING_DOWN,
    Code.HANDSHAKE_TIMEOUT, Code.RATE_LIMITED, Code.SEAT_IN_USE,
})
"""Fatal errors after which connecting again may work (the host was busy, slow or restarting;
our seat's old connection had not yet been seen to drop, SPEC [UNO-6-11])."""

RETRY_BYES = frozenset({"shutting_down", "restart"})
"""A host that says it is going away may come back from its journal: the token still works."""


@dataclass(frozen=True)
class Ended:
    """The connection is over. `retry`: connecting again may help. `reason`: for the screen."""

    retry: bool
    reason: str
    silent: bool = False
    """The host closed the stream without a word (no bye, no error frame)."""
    at_once: bool = False
    """Connect again without waiting: the host is there and refused only what we came with
    (a seat token it no longer knows, now forgotten)."""
    code: str = ""
    """What ended it, for the screen to say in the player's words: a protocol code or bye
    reason, or one of the link's own (LINK_ENDINGS); `reason` stays the diagnostic."""
    kept: bool = False
    """The host went away saying it keeps our match, to carry it on (SPEC.md [UNO-8-4])."""


LINK_ENDINGS = ("cannot_connect", "host_closed", "host_closed_plain", "connection_broken",
                "no_answer", "host_silent", "refused", "unreachable", "unknown_host", "not_tls",
                "host_left", "host_stopped", "link_failed")
"""The link's own codes for how a connection ended (words for each in client/i18n.py)."""


@dataclass
class Output:
    updates: list[Update] = field(default_factory=list)
    frames: bytearray = field(default_factory=bytearray)
    ended: Ended | None = None


STOP_WAYS = {"host_left": "host_left", "stopped": "host_stopped"}
"""A stopping host's `why` (SPEC.md [UNO-8-4]) -> the link's ending code for it."""


def going_away(error: ProtocolError) -> str:
    """The ending code of a fatal error: a stopping host's way of going, where it said one."""
    why = error.details.get("why")
    if error.code == Code.SHUTTING_DOWN and isinstance(why, str) and why in STOP_WAYS:
        return STOP_WAYS[why]
    return error.code


def player_name(name: str) -> str:
    """A name the host accepts (SPEC.md [UNO-5-13]): ours normalised, else "player" (an
    empty or reserved one; the command line refuses those before it gets here)."""
    try:
        return own_name(name)
    except TextRefused:
        return "player"


TOLD_ROUNDS = 4
"""Rounds whose told events a link counts: an entry's history covers the previous round and
the current one."""


class LinkSession:
    """One player's logical session with a host, across reconnects."""

    def __init__(
        self,
        name: str,
        *,
        table: int | None = None,
        auto_ready: bool = False,
        client_name: str = "unonet",
        observe: Callable[[Sequence[SessionEvent]], None] | None = None,
        verify: bool = True,
        transcript: TranscriptWriter | None = None,
        spectate: bool = False,
    ) -> None:
        self.name = player_name(name)
        self.table = table
        self.auto_ready = auto_ready
        self.spectate = spectate
        """Watch `table` instead of taking a seat (`unonet join --spectate`, or a Spectate
        command): asked again after each reconnect, until a seat is ours."""
        self.spectating = False
        self._from_audience: int | None = None
        """The table whose audience we left to take a seat, until the seat is ours."""
        self.slot: SeatSlot | None = None
        """Where the seat's token is kept across runs (client/seat_tokens.py), once the link
        knows the host's fingerprint; None: in memory only."""
        self.match_on = False
        self.after_match = False
        """match_ended came and the table is not back in its lobby: the score screen."""
        self.client_name = client_name
        self.observe = observe
        """Sees every session event before it becomes updates (a network bot's request
        bookkeeping, tests)."""
        self.token: bytes | None = None
        self.gate = TrustGate(verify=verify, transcript=transcript)
        """One verifier per match, across connections. `verify=False`: the host's cards,
        commitments and audits go unchecked (see TrustGate); our seed is still contributed.
        `transcript`: where the match's messages are kept, for `unonet audit`."""
        self._trust_shown = TrustStatus()
        self._deck: int | None = None  # the match's deck size (its manifest), once known
        self._seats: int | None = None  # the table's seats (the last snapshot), once known
        self.session = ClientSession(name=self.name)
        self.limits: Mapping[str, int] = {}
        self._ready_sent = False
        self._round: tuple[bytes, int] | None = None
        """The round the events that come now belong to: the game id and number of the last
        round_prepare (a round's events follow its round_prepare; on entering a match, each
        round's history follows its own)."""
        self._told: dict[tuple[bytes, int], int] = {}
        """Events of each recent round (by game id and round number, as round_prepare and
        round_history number rounds) that became updates, live or from a history: a
        round_history then adds only those missed. The last TOLD_ROUNDS rounds."""

    @property
    def seat(self) -> int | None:
        return self.gate.seat

    # -- connection lifecycle ---------------------------------------------------------------

    def connect(self, peer_cert: bytes | None = None) -> bytes:
        """A fresh protocol session for a new connection; returns its hello frame.
        `peer_cert`: the host's TLS certificate (DER), whose key must sign the match."""
        self.gate.connected(peer_cert)
        self.session = ClientSession(client_name=self.client_name, name=self.name,
                                     resume=self.token,
                                     trust=self.gate)
        self._ready_sent = False
        return self.session.hello()

    def bye(self) -> bytes:
        """Our goodbye, if the connection can still carry one."""
        try:
            return self.session.close("quit", "the player left")
        except ProtocolError:
            return b""

    def ping(self) -> bytes:
        try:
            return self.session.ping()
        except ProtocolError:
            return b""

    # -- from the player -------------------------------------------------------------------

    def command(self, command: Command) -> Output:
        out = Output()
        if isinstance(command, Leave | CloseLink):
            self._left(out)
            if isinstance(command, Leave) or not self.match_on:
                self._forget_seat()  # a seat left, or a lobby seat the host frees on bye
        try:
            if isinstance(command, JoinTable):
                self.spectate = False
                if self.spectating:
                    # A spectator takes a seat: it leaves the audience first (SPEC.md
                    # [UNO-8-8]); if the seat is refused, it goes back to watching.
                    out.frames += self.session.request("leave")[1]
                    self.spectating = False
                    self._from_audience = command.table
            elif isinstance(command, Spectate):
                self.spectating = self.spectate = True  # again after a reconnect
                self.table = command.table
            if isinstance(command, Chat):
                out.frames += self.session.chat(command.text)
            elif isinstance(command, LOBBY_COMMANDS):
                kind, fields = wire.lobby_request(command)
                out.frames += self.session.request(kind, **fields)[1]
            elif isinstance(command, CloseLink):
                if self.after_match and self.gate.seat is not None and not self.spectating:
                    # Closing the score screen is leaving the finished match: the seat is
                    # freed at once, not held for a return (a drop, without it, still is).
                    out.frames += self.session.request("leave")[1]
                out.frames += self.bye()
            else:
                out.frames += self.intent(command)[1]
        except ProtocolError as exc:  # not connected yet, or a field the catalogue refuses
            out.updates.append(Refused(exc.code, exc.message))
        return out

    def intent(self, action: Action) -> tuple[int, bytes]:
        """Send `action` as an intent: (request id, frame). The gate remembers it, so that an
        `accepted` binds the host to it (SPEC.md [UNO-11-36])."""
        request_id, frame = self.session.intent(action)
        self.gate.intent_sent(request_id, action)
        return request_id, frame

    # -- the audit's deadline (the driver's clock) --------------------------------------------

    def audit_owed(self) -> int | None:
        """The round whose audit is due now, for the driver's AuditClock."""
        return self.gate.audit_owed()

    def audit_overdue(self, round_no: int) -> Output:
        """The driver's clock says round `round_no`'s audit is overdue: the violation and the
        deck checks as they are now."""
        out = Output()
        report = self.gate.audit_overdue(round_no)
        if report is not None:
            out.updates.append(report)
        self._trust_status(out)
        return out

    # -- from the host -----------------------------------------------------------------------

    def receive(self, data: bytes) -> Output:
        """Bytes from the host (b"" for EOF)."""
        out = Output()
        try:
            events = self.session.receive_data(data)
        except ProtocolError as exc:  # already failed: nothing more can come from this socket
            out.ended = Ended(False, exc.message)
            return out
        if self.observe is not None:
            self.observe(events)
        self._handle(events, out)
        out.frames += self.session.data_to_send()
        self._trust_status(out)
        return out

    def _left(self, out: Output) -> None:
        """We leave the table: the match is over for us, and what it still owed is reported."""
        for violation in self.gate.leave():
            out.updates.append(LinkTrustReport(False, kind=violation.kind.value,
                                               detail=violation.detail))
        self._trust_status(out)

    def _trust_status(self, out: Output) -> None:
        """The deck checks, whole, whenever they changed: the screen's title bar and panel."""
        for status in self.gate.take_statuses():
            if status != self._trust_shown:
                self._trust_shown = status
                out.updates.append(status)

    def _handle(self, events: Iterable[SessionEvent], out: Output) -> None:
        for event in events:
            try:
                self._one(event, out)
            except wire.WireError as exc:
                # An answer the screen cannot use: say so, and ask for a fresh snapshot.
                log.warning("host sent something unusable: %s", exc)
                out.updates.append(Refused(Code.BAD_MESSAGE, f"unusable message: {exc}"))
                if self.session.expected_seq is not None:
                    out.frames += self.session.resync()[1]

    def _one(self, event: SessionEvent, out: Output) -> None:
        match event:
            case Welcomed():
                self._welcomed(event, out)
            case MessageReceived(message=message):
                self._message(message, out)
            case WireSnapshot(view=view, legal=legal):
                decoded = wire.view_from_wire(view)
                if self._deck is None:  # SPEC.md 7.1: the manifest comes first
                    raise wire.WireError("a snapshot before its match's manifest")
                self._within_bounds(check_view, decoded, self._deck)
                self._seats = len(decoded.seats)
                out.updates.append(Snapshot(decoded, legal))
            case WireGameEvent(event=game_event, legal=legal):
                self._event_within_bounds(game_event)
                if isinstance(game_event, ev.MatchEnded):
                    self.match_on = False
                    self.after_match = True
                    self._forget_seat()  # a finished match's token takes back nothing
                if self._round is not None:
                    self._told[self._round] = self._told.get(self._round, 0) + 1
                if not isinstance(game_event, UnknownEvent):
                    out.updates.append(GameEvent(game_event, legal))
            case HistoryReceived(round_no=round_no, first=first, events=events):
                for wired in events:
                    self._event_within_bounds(wired.event)
                self._missed(round_no, first, [wired.event for wired in events], out)
            case RequestRefused(request=request, error=error) if error.fatal:
                pass  # the connection ends, which says why once; nothing may be sent now
            case RequestRefused(request=request, error=error):
                if request.get("t") == "join_table" and self._from_audience is not None:
                    self._watch_again(self._from_audience, out)
                elif request.get("t") == "join_table" and self.table is not None:
                    self.table = None  # the table we aimed at is gone: show the list instead
                    out.frames += self.session.request("list_tables")[1]
                out.updates.append(Refused(error.code, error.message))
            case PeerError(error=error):
                if error.code == Code.INVALID_RESUME:
                    # The seat is gone (the match ended, or a bot took it for good): say so
                    # once, forget the token, and connect again as a newcomer.
                    self._forget_seat()
                    self.token = None
                    out.updates.append(Refused(error.code, "the host no longer knows your seat "
                                               f"({error.message}): joining as a newcomer"))
                    return
                if error.code == Code.KICKED:
                    self._forget_seat()
                if not error.fatal or error.code == Code.KICKED:
                    # a fatal one ends the connection, which says why once; a kick also
                    # empties our seat on the screen (the model does it on this refusal)
                    out.updates.append(Refused(error.code, error.message))
            case TrustReport(outcome=report) if isinstance(report, LinkTrustReport):
                out.updates.append(report)
            case ConnectionFailed(error=error):
                retry = error.code in RETRY_CODES or error.code == Code.INVALID_RESUME
                out.ended = Ended(retry, f"{error.code}: {error.message}",
                                  at_once=error.code == Code.INVALID_RESUME,
                                  code=going_away(error), kept=error.details.get("kept") is True)
            case ConnectionClosed(reason=reason, msg=msg):
                retry = reason is None or reason in RETRY_BYES
                why = "the host closed the connection" if reason is None else reason
                out.ended = Ended(retry, f"{why}: {msg}" if msg else why, silent=reason is None,
                                  code=reason or "host_closed")
            case MessageRefused(error=error, message_type=kind):
                log.info("ignored a host message (%s): %s", kind, error)
            case ResyncNeeded(expected=expected, received=received):
                log.info("event %d when %s was expected: resync", received, expected)

    def _welcomed(self, event: Welcomed, out: Output) -> None:
        self.limits = event.limits
        out.updates.append(ConnectionChanged("connected"))
        if event.session is not None:  # our seat, taken back: table_state and snapshot follow
            self.gate.seat = event.session.get("seat")
            return
        self.gate.seat = None
        self.spectating = False
        if self.table is not None and self.spectate:  # until a seat is ours, we watch
            self._watch_again(self.table, out)
        elif self.table is not None:
            out.frames += self.session.request("join_table", table=self.table,
                                               name=self.name)[1]
        else:
            out.frames += self.session.request("list_tables")[1]

    def _watch_again(self, table: int, out: Output) -> None:
        """Back to (or into) the audience of `table`: after a welcome that took back no seat,
        or when the seat a spectator asked for was refused (it had left the audience)."""
        self._from_audience = None
        self.table = table
        self.spectating = self.spectate = True
        out.frames += self.session.request("spectate", table=table)[1]

    def _message(self, message: Mapping[str, Any], out: Output) -> None:
        kind = message["t"]
        if kind == "tables":
            out.updates.append(TablesListed(wire.tables_from_wire(message)))
        elif kind == "table_state":
            lobby = wire.lobby_from_wire(message)
            if lobby.you is not None:
                self.gate.seat = lobby.you
                self.spectating = self.spectate = False
                self._from_audience = None
            if not lobby.started:
                self.match_on = False  # (a match starts, or is entered, with its manifest)
                self.after_match = False
            out.updates.append(LobbyChanged(lobby))
            self._maybe_ready(lobby.you, lobby, out)
        elif kind == "timer":
            ms = message.get("ms")
            seats = tuple(message["seats"])
            if self._seats is not None and any(seat >= self._seats for seat in seats):
                raise wire.WireError("timer: a seat the match does not have")
            out.updates.append(TimerChanged(seats, None if ms is None else ms / 1000,
                                            str(message.get("kind") or "")))
        elif kind == "seat_news":
            # What happened to a seat, as the host tells it (SPEC.md [UNO-8-17]): told, never
            # worked out from two lobby snapshots.
            news = wire.seat_news_from_wire(message)
            if news is not None and message["table"] == self.table:
                out.updates.append(news)
        elif kind == "seated":
            self._from_audience = None
            self.spectate = False
            self.token = bytes(message["token"])
            self.gate.seat = message["seat"]
            self.table = message["table"]
            self.spectating = False
            if self.match_on:
                self._keep_seat()
        elif kind == "manifest":
            self.match_on = True
            self.after_match = False
            self._keep_seat()
            # The gate decoded it as it arrived; if it could not (no match identity to check),
            # the deck still shows, or the WireError says why it cannot.
            manifest = self.gate.manifest or wire.manifest_from_wire(message)
            # A new match: its snapshot follows. Until it comes the screen still folds events
            # into the last snapshot's view, so its seats still bound them (`_seats` kept).
            self._deck = len(manifest)
            out.updates.append(ManifestReceived(manifest))
        elif kind == "chat_message":
            host = message.get("host") is True
            notice = {key: message.get(key) for key in ("notice", "about", "command",
                                                         "addresses")} if host else {}
            out.updates.append(ChatReceived(message["name"], message["text"],
                                            None if host else message.get("seat"), host,
                                            **notice))
        elif kind in ("round_prepare", "seed_commits"):
            if kind == "round_prepare":
                self._round = (bytes(message["game_id"]), message["round"])
                self._forget_old_rounds()
            mine = self.gate.contribution(message)
            if mine is not None:
                kind = "seed_commit" if kind == "round_prepare" else "seed_reveal"
                out.frames += self.session.send({"t": kind, **mine.to_dict()})

    @staticmethod
    def _within_bounds(check: Callable[..., None], *args: object) -> None:
        """A check of client/bounds.py: what it refuses is an unusable message."""
        try:
            check(*args)
        except BoundsError as exc:
            raise wire.WireError(str(exc)) from None

    def _event_within_bounds(self, event: ev.Event | UnknownEvent) -> None:
        """An event of the match in play names only its seats and its deck's cards (known
        once the snapshot came: before it, nothing uses events)."""
        if (self._seats is not None and self._deck is not None
                and not isinstance(event, UnknownEvent)):
            self._within_bounds(check_event, event, self._seats, self._deck)

    def _missed(self, round_no: int, first: int, events: Sequence[ev.Event | UnknownEvent],
                out: Output) -> None:
        """A round_history chunk: the events at indices this link had not told yet become a
        MissedEvents update (a resync or a reconnection repeats what we had, a fresh process
        or a spectator had none of them)."""
        key = self._round if self._round is not None and self._round[1] == round_no \
            else (b"", round_no)
        told = self._told.get(key, 0)
        missed = tuple(event for index, event in enumerate(events, first)
                       if index >= told and not isinstance(event, UnknownEvent))
        self._told[key] = max(told, first + len(events))
        self._forget_old_rounds()
        if missed:
            out.updates.append(MissedEvents(missed))

    def _forget_old_rounds(self) -> None:
        while len(self._told) > TOLD_ROUNDS:
            del self._told[next(iter(self._told))]  # the oldest round

    # -- the seat kept across runs --------------------------------------------------------

    def _keep_seat(self) -> None:
        """A match is on and we hold a seat: keep its token, so a restart takes it back."""
        if self.slot is not None and self.token is not None and self.table is not None \
                and self.gate.seat is not None:
            self.slot.keep(self.table, self.gate.seat, self.token)

    def _forget_seat(self) -> None:
        if self.slot is not None and self.table is not None:
            self.slot.drop(self.table)

    def _maybe_ready(self, you: int | None, lobby: LobbyState, out: Output) -> None:
        """`unonet play`: the player came to play, so say ready once the seat is ours."""
        if not self.auto_ready or you is None or lobby.started or self._ready_sent:
            return
        mine = next((s for s in lobby.seats if s.seat == you), None)
        if mine is not None and not mine.ready:
            self._ready_sent = True
            out.frames += self.session.request("ready", ready=True)[1]

