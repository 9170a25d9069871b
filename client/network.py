"""The link's trio core: connect, speak the protocol, reconnect; `run_link` is the one entry.

`run_link(config, commands, updates)` reads the player's commands from one memory channel and
writes `Update`s to another, so it runs the same under plain trio (tests) and as a guest on
prompt-toolkit's asyncio loop (client/guest.py). What host messages mean is decided by the
sans-IO LinkSession (client/link_session.py); here live the socket, TLS and the fingerprint,
the keepalive clock and the reconnect policy:

- A connection that drops (EOF without bye, a broken socket, a silent host, a busy or restarting
  host) is retried with the seat's resume token after a growing pause, saying
  ConnectionChanged("reconnecting"); the welcome says "connected" and the snapshot that follows
  brings the screen back. The pauses restart from the first after each successful welcome.
- A fingerprint that is not the pinned one is never retried, and nothing is sent to that host.
- bye{kicked}, a protocol failure or running out of attempts ends in ConnectionChanged("lost").
- Each connection hands the LinkSession the host's TLS certificate: the key that signs the
  match must be the one pinned. The match's transcript goes to the data dir's transcripts/.
- With `seat_tokens`, the first connection looks for a seat this client kept at this host (same
  address and fingerprint, client/seat_tokens.py) and offers its token in the hello: a restarted
  `unonet join` sits down where it was. The LinkSession keeps the file up to date from then on.
"""

from __future__ import annotations

import logging
import ssl
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import trio

from client.host_key import warning_text
from client.known_hosts import KnownHosts, Seen, address_key
from client.link import (
    NOT_CONNECTED,
    CloseLink,
    Command,
    ConnectionChanged,
    HostKeyWarning,
    LocalNews,
    Refused,
    Update,
)
from client.link_session import RETRY_BYES, STOP_WAYS, Ended, LinkSession, Output
from client.seat_tokens import NO_FINGERPRINT, TOKEN_LIFETIME, SeatSlot, SeatTokens
from client.tls import (
    ALPN,
    CONNECT_FAILURES,
    CONNECT_TIMEOUT,
    NO_TLS_HINT,
    HostKeyMismatch,
    connect_failure,
    format_fingerprint,
    normalize_pin,
    open_pinned_stream,
    peer_fingerprint,
)
from client.transcript import TranscriptWriter
from client.trust_gate import AuditClock
from protocol.keepalive import Due, Keepalive
from protocol.limits import (
    HANDSHAKE_DEADLINE,
    IDLE_CUTOFF,
    PING_INTERVAL,
    RECEIVE_CHUNK,
    SEND_DEADLINE,
)

log = logging.getLogger("unonet.client.network")

SEND_FAILURE_GRACE = 1.0
"""Seconds the reader may still read after a send failed, to learn why the host closed."""


@dataclass(frozen=True)
class Backoff:
    """Pauses between connection attempts: first, first*factor, ... up to `cap` seconds.

    `attempts` bounds the tries after a drop (about two minutes with the defaults, longer than
    the host's 30 s grace, after which a bot plays the seat but the token still works);
    `first_attempts` bounds them before the first welcome, when a wrong address should fail fast.
    The count starts again only after a connection stayed up `stable` seconds: a host that
    welcomes and drops every time is given up on, not retried for ever.
    """

    first: float = 0.5
    factor: float = 2.0
    cap: float = 10.0
    attempts: int = 15
    first_attempts: int = 3
    stable: float = 30.0

    def delay(self, attempt: int) -> float:
        return float(min(self.cap, self.first * self.factor ** max(0, attempt - 1)))


HOST_WENT = frozenset(STOP_WAYS.values()) | RETRY_BYES
"""Endings in which the host said how it went (SPEC.md [UNO-8-4]; a bye saying it stops or
restarts): said until it is back."""


@dataclass
class Reconnects:
    """What the link remembers between connections, sans-IO: the attempts since the last
    welcome that lasted, and how the host said it went. A failed attempt after the host said
    it left (or was stopped, keeping the match or not) does not erase that: "cannot connect"
    is what any host gone says, not what the player needs to read (found in tmux: "the host
    is gone (cannot connect: Connection refused); attempt 10 of 15" after the host's player
    left, keeping the match)."""

    backoff: Backoff
    ever_welcomed: bool = False
    attempt: int = 0
    went: Ended | None = None
    """The ending in which the host said how it went, until a welcome."""

    def welcomed(self, lasted: float) -> None:
        """A connection was welcomed, and stayed up `lasted` seconds."""
        self.ever_welcomed = True
        self.went = None
        if lasted >= self.backoff.stable:
            self.attempt = 0

    def retry(self, ended: Ended) -> ConnectionChanged:
        """A connection (or an attempt) ended in a way worth another try: the screen's state
        until the next one ("lost" when the attempts ran out, unless the match is kept)."""
        if ended.code in HOST_WENT or ended.kept:
            self.went = ended
        said = self.went or ended
        kept = said.kept
        self.attempt += 1
        limit = self.backoff.attempts if self.ever_welcomed else self.backoff.first_attempts
        if self.attempt > limit and not kept:
            return ConnectionChanged("lost", said.reason, code=said.code)
        # A host that said it keeps the match is waited for until the player leaves (q): it
        # comes back when its host carries the match on (found in tmux: friends were told to
        # give up after two minutes while the host restarted with --resume).
        return ConnectionChanged(
            "reconnecting" if self.ever_welcomed else "connecting", said.reason, code=said.code,
            attempt=self.attempt, attempts=0 if kept else limit,
            delay=self.backoff.delay(self.attempt), kept=kept)


@dataclass(frozen=True)
class LinkConfig:
    """Where to connect and how. With `tls`, the host's certificate must match `pin` (base32
    or hex, as client/tls.py takes it) or, without a pin, the fingerprint `known_hosts`
    remembers for the address (remembered on first contact, refused when changed)."""

    host: str
    port: int
    name: str = "player"
    tls: bool = True
    pin: str | None = None
    known_hosts: KnownHosts | None = None
    table: int | None = None
    auto_ready: bool = False
    backoff: Backoff = field(default_factory=Backoff)
    connect_timeout: float = CONNECT_TIMEOUT
    transcripts: Path | None = None
    """The data dir whose transcripts/ keeps each match's transcript (`unonet audit`); None:
    the one `known_hosts` lives in, and none without known_hosts."""
    seat_tokens: SeatTokens | None = None
    """Where seat tokens are kept across runs; None: in memory only (tests, bots)."""
    place: str | None = None
    """The name the kept tokens file this host under; None: its `host:port`."""
    spectate: bool = False
    """Watch `table` instead of taking a seat."""

    def transcript_dir(self) -> Path | None:
        if self.transcripts is not None:
            return self.transcripts
        return self.known_hosts.path.parent if self.known_hosts is not None else None


class HostKeyChanged(Exception):
    """The host showed a fingerprint other than the one pinned or remembered; `update` is
    what the screen is told, `warning` its English text (the log's)."""

    def __init__(self, update: HostKeyWarning) -> None:
        self.warning = warning_text(update)
        super().__init__(self.warning)
        self.update = update


def grouped_pin(pin: str) -> str:
    """A pin as given (dashes or none, hex or base32) in the groups of 4 `unonet host`
    prints: "AAAABBBBCCCCDDDD" read as another fingerprint beside the grouped one shown."""
    try:
        bare = normalize_pin(pin)
    except ValueError:  # not one we would have connected with; as it came
        return pin
    return "-".join(bare[i:i + 4] for i in range(0, len(bare), 4))


Connector = Callable[[LinkConfig, "bytes | None"], Awaitable[trio.abc.Stream]]


async def open_stream(config: LinkConfig, seen_before: bytes | None) -> trio.abc.Stream:
    """TCP, then TLS with the fingerprint checked before any frame is sent (SPEC.md UNO-3-5).

    `seen_before` is the fingerprint this link met on an earlier connection: a reconnect must
    find the same host. Raises HostKeyChanged when the fingerprint is wrong.
    """
    with trio.fail_after(config.connect_timeout):
        tcp: trio.abc.Stream = await trio.open_tcp_stream(config.host, config.port)
    if not config.tls:
        return tcp
    pin = config.pin if seen_before is None else seen_before.hex()
    try:
        stream, seen = await open_pinned_stream(tcp, pin, handshake_timeout=config.connect_timeout)
    except HostKeyMismatch as exc:
        address = address_key(config.host, config.port)
        shows = format_fingerprint(exc.actual)
        if seen_before is not None:
            # The host this session met at first shows another key on a reconnect: ssh's
            # warning, with the fingerprint to pin if the host really made a new one.
            raise HostKeyChanged(HostKeyWarning(
                "earlier", address, format_fingerprint(seen_before), shows)) from None
        raise HostKeyChanged(HostKeyWarning(
            "pinned", address, grouped_pin(exc.expected), shows)) from None
    try:
        if stream.selected_alpn_protocol() != ALPN:  # SPEC.md UNO-3-3
            raise ssl.SSLError(f"the host did not select ALPN {ALPN}")
        _check_known_host(config, seen)
    except BaseException:
        await trio.aclose_forcefully(stream)
        raise
    return stream


def _check_known_host(config: LinkConfig, seen: bytes) -> None:
    hosts = config.known_hosts
    if hosts is None:
        return
    check = hosts.check(config.host, config.port, seen)
    if check.seen is Seen.CHANGED and config.pin is None:
        assert check.remembered is not None
        raise HostKeyChanged(HostKeyWarning(
            "remembered", address_key(config.host, config.port),
            format_fingerprint(check.remembered), format_fingerprint(seen), str(hosts.path)))
    if check.seen is not Seen.KNOWN:  # first contact, or an explicit pin the user typed
        hosts.remember(config.host, config.port, seen)


def _tls(stream: trio.abc.Stream) -> trio.SSLStream[trio.abc.Stream] | None:
    """The TLS stream under `stream`, if any (a wrapper keeps what it wraps as `inner`)."""
    seen = 0
    while not isinstance(stream, trio.SSLStream) and seen < 8:
        inner = getattr(stream, "inner", None)
        if not isinstance(inner, trio.abc.Stream):
            return None
        stream, seen = inner, seen + 1
    return stream if isinstance(stream, trio.SSLStream) else None


def _fingerprint(stream: trio.abc.Stream) -> bytes | None:
    tls = _tls(stream)
    return peer_fingerprint(tls) if tls is not None else None


def _peer_cert(stream: trio.abc.Stream) -> bytes | None:
    """The host's certificate (DER) on a TLS connection, else None."""
    tls = _tls(stream)
    der = tls.getpeercert(binary_form=True) if tls is not None else None
    return bytes(der) if der else None


async def run_link(
    config: LinkConfig,
    commands: trio.MemoryReceiveChannel[Command],
    updates: trio.MemorySendChannel[Update],
    *,
    connector: Connector = open_stream,
    state: LinkSession | None = None,
) -> LinkSession:
    """Connect and keep connected until the player closes or the host is lost for good.

    Ends with ConnectionChanged("closed") or ("lost", why). Returns the LinkSession (its token,
    seat and verifier), for the caller's report; `state`: the one to use (a caller that watches
    it while it runs), else one made from `config`.
    """
    if state is None:
        state = link_session(config)
    seen_before: bytes | None = None
    reconnects = Reconnects(config.backoff)
    again_at_once = False  # the last connection ended asking to connect again at once
    await updates.send(ConnectionChanged("connecting"))
    while True:
        try:
            stream = await connector(config, seen_before)
        except HostKeyChanged as exc:
            log.error("%s", exc.warning)
            await updates.send(exc.update)  # the screen shows it whole
            await updates.send(ConnectionChanged("lost", exc.warning))
            return state
        except CONNECT_FAILURES as exc:
            log.info("connecting to %s:%d failed: %r", config.host, config.port, exc)
            failure = connect_failure(exc)
            ended = Ended(True, f"cannot connect: {failure.words}", code=failure.code)
        else:
            seen_before = seen_before or _fingerprint(stream)
            ended = await _connected(config, stream, state, commands, updates, reconnects)
        if ended.retry and ended.at_once and not again_at_once:
            again_at_once = True  # once: a host that refuses the newcomer too gets the backoff
            await updates.send(ConnectionChanged("reconnecting" if reconnects.ever_welcomed
                                                 else "connecting"))
            continue
        again_at_once = False
        if not ended.retry:
            final = "closed" if ended.reason == CLOSED else "lost"
            await updates.send(ConnectionChanged(final, "" if final == "closed" else ended.reason,
                                                 code=ended.code))
            return state
        changed = reconnects.retry(ended)
        await updates.send(changed)
        if changed.state == "lost" or await _wait_offline(changed.delay, commands, updates):
            if changed.state != "lost":
                await updates.send(ConnectionChanged("closed"))
            return state


CLOSED = "closed by the player"


async def _connected(config: LinkConfig, stream: trio.abc.Stream, state: LinkSession,
                     commands: trio.MemoryReceiveChannel[Command],
                     updates: trio.MemorySendChannel[Update], reconnects: Reconnects) -> Ended:
    """One connection made, served to its end: how it ended (`reconnects` told of a welcome).
    The first one ties the session to this host's kept seat tokens."""
    if state.slot is None and config.seat_tokens is not None:
        await _take_back_seat(config, config.seat_tokens, state, _fingerprint(stream), updates)
    connected_at = trio.current_time()
    welcomed, ended = await _serve(stream, state, commands, updates)
    if not welcomed and ended.silent and not config.tls:
        ended = Ended(ended.retry, f"{ended.reason}; {NO_TLS_HINT}", silent=True,
                      code="host_closed_plain")
    if welcomed:
        reconnects.welcomed(trio.current_time() - connected_at)
    return ended


async def _take_back_seat(config: LinkConfig, tokens: SeatTokens, state: LinkSession,
                          fingerprint: bytes | None,
                          updates: trio.MemorySendChannel[Update]) -> None:
    """First connection: tie the LinkSession to this host's kept tokens, and offer the seat
    kept here (same place and fingerprint) unless the player came to watch."""
    place = config.place or address_key(config.host, config.port)
    state.slot = SeatSlot(tokens, place, fingerprint.hex() if fingerprint else NO_FINGERPRINT)
    try:
        found = state.slot.find(config.table)
    except OSError as exc:  # an unreadable file loses the seat, not the game
        log.warning("seat tokens: %s", exc)
        return
    for stale in found.dropped:
        await updates.send(LocalNews("news.seat_forgotten", {
            "table": stale.table, "place": place, "days": f"{TOKEN_LIFETIME / 86400:g}"}))
    if found.seat is not None and state.token is None and not config.spectate:
        log.info("taking back seat %d at table %d of %s", found.seat.seat, found.seat.table,
                 place)
        state.token = found.seat.token
        state.table = found.seat.table


def link_session(config: LinkConfig) -> LinkSession:
    """The LinkSession `run_link` uses for `config`, with the match transcripts it asks for."""
    directory = config.transcript_dir()
    transcript = (TranscriptWriter(directory, f"{config.host}:{config.port}",
                                   on_problem=lambda text: log.warning("%s", text))
                  if directory is not None else None)
    return LinkSession(config.name, table=config.table, auto_ready=config.auto_ready,
                       transcript=transcript, spectate=config.spectate)


async def _wait_offline(
    delay: float,
    commands: trio.MemoryReceiveChannel[Command],
    updates: trio.MemorySendChannel[Update],
) -> bool:
    """Sit out a pause between attempts; True if the player left meanwhile. What the player
    sends while offline is refused, not queued: a stale intent must not fire on reconnect."""
    with trio.move_on_after(delay):
        async for command in commands:
            if isinstance(command, CloseLink):
                return True
            await updates.send(Refused(NOT_CONNECTED, "not connected: reconnecting"))
        return True  # the player's side of the channel is gone: nobody is left to play
    return False


async def _serve(
    stream: trio.abc.Stream,
    state: LinkSession,
    commands: trio.MemoryReceiveChannel[Command],
    updates: trio.MemorySendChannel[Update],
) -> tuple[bool, Ended]:
    """One connection from hello to its end: (whether it was welcomed, how it ended)."""
    connection = _Connection(stream, state, updates)
    try:
        async with trio.open_nursery() as nursery:
            connection.nursery = nursery
            await connection.send(state.connect(_peer_cert(stream)))
            nursery.start_soon(connection.read)
            nursery.start_soon(connection.obey, commands)
    finally:
        with trio.CancelScope(shield=True):
            await trio.aclose_forcefully(stream)
    ended = connection.ended or connection.send_failed
    assert ended is not None
    return connection.welcomed, ended


class _Connection:
    """The tasks of one connection: `read` (host -> updates, keepalive), `obey` (commands ->
    frames). Whichever sees the end records it and cancels the other."""

    def __init__(self, stream: trio.abc.Stream, state: LinkSession,
                 updates: trio.MemorySendChannel[Update]) -> None:
        self.stream = stream
        self.state = state
        self.updates = updates
        self.nursery: trio.Nursery | None = None
        self.ended: Ended | None = None
        self.send_failed: Ended | None = None
        self.welcomed = False
        self.ready = trio.Event()  # set once the welcome's own answers (join, list) are sent
        self._send_lock = trio.StrictFIFOLock()

    def end(self, ended: Ended) -> None:
        if self.ended is None:
            self.ended = ended
        assert self.nursery is not None
        self.nursery.cancel_scope.cancel()

    async def send(self, data: bytes | bytearray) -> None:
        if not data:
            return
        try:
            async with self._send_lock:
                with trio.fail_after(SEND_DEADLINE):
                    await self.stream.send_all(bytes(data))
        except (trio.BrokenResourceError, trio.ClosedResourceError, trio.TooSlowError) as exc:
            # The host may have said why (a fatal error, a bye) just before closing: let the
            # reader take what is already in flight for a moment; its reason wins over ours.
            log.info("connection broken while sending: %r", exc)
            self.send_failed = Ended(True, "connection broken while sending",
                                     code="connection_broken")
            assert self.nursery is not None
            scope = self.nursery.cancel_scope
            scope.deadline = min(scope.deadline, trio.current_time() + SEND_FAILURE_GRACE)

    async def _emit(self, out: Output) -> None:
        for update in out.updates:
            if isinstance(update, ConnectionChanged) and update.state == "connected":
                self.welcomed = True
            await self.updates.send(update)
        await self.send(out.frames)
        if self.welcomed:
            self.ready.set()
        if out.ended is not None:
            self.end(out.ended)

    async def read(self) -> None:
        limits = self.state.limits
        keepalive = _keepalive_for(limits)
        audits = AuditClock()  # a round's audit, due AUDIT_DEADLINE after the round ended
        handshake_deadline = trio.current_time() + HANDSHAKE_DEADLINE
        while True:
            data: bytes | None = None
            wake = keepalive.next_deadline()
            if not self.welcomed:
                wake = min(wake, handshake_deadline)
            if audits.deadline is not None:
                wake = min(wake, audits.deadline)
            with trio.move_on_at(wake):
                try:
                    data = bytes(await self.stream.receive_some(RECEIVE_CHUNK))
                except (trio.BrokenResourceError, trio.ClosedResourceError) as exc:
                    log.info("connection broken: %r", exc)  # the class is for the log only
                    self.end(Ended(True, "connection broken", code="connection_broken"))
                    return
            if data is None:
                now = trio.current_time()
                overdue = audits.due(now)
                if overdue is not None:  # said now, while the player is still at the table
                    await self._emit(self.state.audit_overdue(overdue))
                if not self.welcomed and now >= handshake_deadline:
                    self.end(Ended(True, "the host did not answer the hello", code="no_answer"))
                    return
                due = keepalive.due(now)
                if due is Due.CUT:
                    self.end(Ended(True, "the host went silent", code="host_silent"))
                    return
                if due is Due.PING:
                    await self.send(self.state.ping())
                continue
            keepalive.received(trio.current_time())
            await self._emit(self.state.receive(data))
            audits.update(self.state.audit_owed(), trio.current_time())
            if self.state.limits is not limits:  # the welcome told us the host's timing
                limits = self.state.limits
                keepalive = _keepalive_for(limits)

    async def obey(self, commands: trio.MemoryReceiveChannel[Command]) -> None:
        async for command in commands:
            if not isinstance(command, CloseLink):
                await self.ready.wait()  # a command sent while connecting waits for the welcome
            out = self.state.command(command)
            if isinstance(command, CloseLink):
                for update in out.updates:  # what leaving the match found (an owed audit)
                    await self.updates.send(update)
                with trio.move_on_after(1.0):
                    await self.send(out.frames)
                self.end(Ended(False, CLOSED))
                return
            await self._emit(out)
        self.state.gate.leave()  # the player's side is gone: so is the match, for us
        self.end(Ended(False, CLOSED))


def _keepalive_for(limits: Mapping[str, int]) -> Keepalive:
    """Ping when the host has been quiet for its ping interval; give up after its cutoff."""
    interval = float(limits.get("ping_interval", PING_INTERVAL))
    cutoff = float(limits.get("idle_cutoff", IDLE_CUTOFF))
    if not 0 < interval < cutoff:
        interval, cutoff = PING_INTERVAL, IDLE_CUTOFF
    return Keepalive(trio.current_time(), interval=interval, cutoff=cutoff)
