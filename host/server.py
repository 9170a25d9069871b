"""The trio server: accepts connections, runs the tables' clock, routes what tables send.

Structure (crypto-protocol.md E): one nursery holds the listener, the table clock, the lobby
clock and every connection handler; each connection has its own nursery (connection.py). Every
handler catches its own exceptions and logs them, so no client can crash the host.

Who gets a slot is host/admission.py's choice (SPEC.md 6, [UNO-6-9]): a connection waits in
the pending pool from TCP accept to its hello, is admitted or refused (`server_full`) at hello,
and an idle squatter may be dropped to make room; the server does the dropping.
"""

from __future__ import annotations

import itertools
import logging
import math
import ssl
from collections import Counter
from dataclasses import dataclass, field
from functools import partial

import trio

from host.admission import Admission, Verdict, address_key
from host.connection import ClientConnection
from host.group_commit import sync_taken
from host.logs import ConnectionLog
from host.outgoing import ConnId
from host.poller import Poller, Readable
from host.registry import Registry
from host.routing import Outlet, deliver, plan
from host.settings import ConnectionLimits
from protocol.address import host_port
from protocol.errors import ALL_CODES, Code
from protocol.fingerprint import ALPN
from protocol.versions import DEFAULT_PORT

log = logging.getLogger("unonet.host.server")

COUNTED_ENDINGS = ALL_CODES | {"write_failed", "closed"}
"""The keys of `HostServer.closes`: a code a client makes up in its fatal error is `other`."""

@dataclass
class ServerConfig:
    bind: str | None = None  # None: every interface, IPv4 and IPv6
    port: int = DEFAULT_PORT
    tls: ssl.SSLContext | None = None
    limits: ConnectionLimits = field(default_factory=ConnectionLimits)


class HostServer:
    """Serves a Registry of tables on one port."""

    def __init__(self, registry: Registry, config: ServerConfig) -> None:
        self.registry = registry
        self.config = config
        self.limits = config.limits
        self.connections: dict[ConnId, ClientConnection] = {}
        self.outlets: dict[ConnId, Outlet] = {}
        """Each connection's outgoing half (host/routing.py), by the same key."""
        self.admission = Admission(self.limits)
        self._ids = itertools.count(1)
        self._wakeup = trio.Event()
        self._commit_wanted = trio.Event()
        self._commit_done = trio.Event()  # set, and replaced, after each commit's flush
        self._held: dict[ConnId, ClientConnection] = {}
        """Connections with frames held until the journals' commit (`hold`)."""
        self._held_answered: dict[ConnId, ClientConnection] = {}
        """Those of them answered in the meantime, flushed first: their senders wait."""
        self._armed = -math.inf
        """The deadline the tables' clock sleeps until (inf: none); -inf while it is awake,
        when it looks at every table's deadline again before sleeping."""
        self._scopes: dict[ConnId, trio.CancelScope] = {}  # every handler, to drop it early
        self.poller = Poller(self._batch_read) if Poller.available() else None
        """The reads of every plain-TCP connection, in one epoll set (host/poller.py)."""
        self.closes: Counter[str] = Counter()
        """How connections ended: a fatal code the host sent or got (slow_consumer,
        rate_limited, bad_frame, ...), `write_failed` or `closed` (bye or EOF); any other
        code a client made up counts as `other`, so the keys are bounded."""
        registry.alive = self._alive

    async def serve(
        self, *, task_status: trio.TaskStatus[list[trio.SocketListener]] = trio.TASK_STATUS_IGNORED
    ) -> None:
        """Run until cancelled; `nursery.start(server.serve)` returns the listeners. While it
        runs, the tables' journals leave their fsync to its group commit."""
        self.registry.journals.deferred = True
        try:
            await self._serve(task_status)
        finally:
            self.registry.journals.deferred = False
            try:
                self.registry.commit_journals()  # what the last pass wrote, sent or not
            except Exception:
                log.exception("the journals' last commit failed")

    async def _serve(self, task_status: trio.TaskStatus[list[trio.SocketListener]]) -> None:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(self._table_clock)
            nursery.start_soon(self._lobby_clock)
            nursery.start_soon(self._journal_commits)
            nursery.start_soon(self._writes_cut_short_at_stop)
            if self.poller is not None:
                nursery.start_soon(self.poller.run)
            if self.registry.journals.interval is not None:
                nursery.start_soon(self._journal_syncs, self.registry.journals.interval)
            try:
                listeners: list[trio.SocketListener] = await nursery.start(
                    partial(trio.serve_tcp, self._handle, self.config.port,
                            host=self.config.bind, handler_nursery=nursery)
                )
            except OSError as exc:  # a port in use, an address that is not this machine's
                where = f"{self.config.bind or 'every interface'}, port {self.config.port}"
                raise OSError(exc.errno, f"cannot listen on {where}: {exc.strerror}") from exc
            for listener in listeners:
                log.info("listening on %s (%s)", listener.socket.getsockname(),
                         "TLS" if self.config.tls else "plain TCP")
            task_status.started(listeners)

    async def _writes_cut_short_at_stop(self) -> None:
        """Wait for the host to stop, then give every write in flight LAST_WORDS more seconds
        at most: a connection's writes are shielded from the stop, so that none is cut half
        way and each client reads why the host went (host/connection.py)."""
        try:
            await trio.sleep_forever()
        finally:
            for connection in self.connections.values():
                connection.host_stopping()

    def sizes(self) -> dict[str, int]:
        """The size of every structure the server and its registry keep per connection or per
        table (benchmarks/soak.py watches them stay bounded)."""
        return {"connections": len(self.connections), "outlets": len(self.outlets),
                "polled": len(self.poller) if self.poller is not None else 0,
                "closes": len(self.closes),
                "handlers": len(self._scopes),
                **{f"admission.{k}": v for k, v in self.admission.sizes().items()},
                "registry.tables": len(self.registry.tables),
                "registry.where": len(self.registry.where),
                "registry.outbox": len(self.registry.outbox),
                "registry.journals_unsynced": self.registry.journals.unsynced}

    # -- the tables' clock -------------------------------------------------------------------

    def changed(self) -> None:
        """Something touched the registry: send what it produced, and wake the tables' clock
        if a table's deadline now comes before the one it sleeps until. Most actions bring
        no deadline forward; waking the clock for each made a task switch, an event and a
        cancel scope per action, and those lived until the next action (seconds, at a
        person's pace), long enough for the collector's middle generation to walk them."""
        self._route()
        if self._armed == -math.inf:
            return  # the clock is awake: it reads every deadline before it sleeps again
        deadline = self.registry.clock_deadline()  # a table that fails is closed, not raised
        if deadline is not None and deadline < self._armed:
            self._armed = -math.inf
            self._wakeup.set()

    def _batch_read(self, readers: list[Readable]) -> None:
        """After a wake of the poller: what its reads caused, routed in one pass (under load,
        a read from each of many tables; the pass's own cost once for all of them), then
        each reader's own frames the pass did not write (a pong, a refusal)."""
        if self.registry.journals.pending:  # the batch's moves on disk before they go out
            self._commit_journals()
            self._commit_done.set()  # a closing connection may wait for it (`released`)
            self._commit_done = trio.Event()
        self.changed()
        for reader in readers:
            if isinstance(reader, ClientConnection):
                reader.flush()

    def _route(self) -> None:
        """Turn what the tables queued into each connection's frames, in order, and send
        them; while a journal has lines not yet on disk, the frames wait in their connections
        (`hold`) for the commit, which `_journal_commits` makes and then sends them."""
        if self.registry.journals.pending:  # what the outbox holds may record those lines
            self._commit_wanted.set()
        for conn in self.registry.take_silenced():
            if (connection := self.connections.get(conn)) is not None:
                connection.discard_unsent()
        items = self.registry.take_outgoing()
        if not items:
            self.registry.settle_digests()
            return
        # The items, their frames and the connections touched are host/routing.py's work;
        # the writes are the connections'. A message a table sends to many
        # members is one shared map, encoded once per pass. One write per connection: an
        # intent's `accepted` goes with the events it caused. The connections that were
        # answered are served first, frames and write, before the frames of anyone else are
        # even made: their sender is waiting for that answer.
        found = plan(items)
        connections = self.connections
        held = self.registry.journals.pending  # routing journals nothing: one look a pass
        send = ClientConnection.flush if held else ClientConnection.write_out
        if found.answered:
            for conn in deliver(found.answered, self.outlets, found):
                if held:  # flushed first once the commit is made
                    self._held_answered[conn] = connections[conn]
                send(connections[conn])
        for conn in deliver(found.rest, self.outlets, found):
            send(connections[conn])
        self.registry.settle_digests()  # after the writes: no answer waits for the hashing

    async def _table_clock(self) -> None:
        self.registry.touch_all()
        while True:
            deadline = self.registry.clock_deadline()
            self._armed = math.inf if deadline is None else deadline
            with trio.move_on_at(self._armed):
                await self._wakeup.wait()
            self._armed = -math.inf
            if self._wakeup.is_set():
                self._wakeup = trio.Event()
            try:
                self.registry.clock_tick(trio.current_time())
            except Exception:  # a table bug must not stop every other table: log it loudly
                log.exception("a table failed while handling its timers")
            self._route()  # not changed(): waking ourselves would spin
            await trio.lowlevel.checkpoint()

    async def _journal_commits(self) -> None:
        """Group commit (host/group_commit.py): while a journal has lines not yet on disk,
        every connection holds what it would write (`hold`) and this task is woken. It runs
        after every task the same pass of the event loop woke (each may journal an action of
        its own table), syncs every journal written, then sends what was held. One flush of
        the disk for all of them, in place of one per action. (What the poller reads in one
        wake is committed at the end of it, in its own task: `_batch_read`.)"""
        while True:
            await self._commit_wanted.wait()
            self._commit_wanted = trio.Event()
            self._commit_journals()
            self._route()  # a failed journal's table_failed, after its moves are discarded
            answered, self._held_answered = self._held_answered, {}
            held, self._held = self._held, {}
            for connection in (*answered.values(), *held.values()):
                connection.flush()  # a second time finds nothing to send
            self._commit_done.set()
            self._commit_done = trio.Event()

    def _commit_journals(self) -> None:
        try:
            self.registry.commit_journals()
        except Exception:  # a bug here must not stop every table: log it loudly
            log.exception("the journals' commit failed")

    async def _journal_syncs(self, interval: float) -> None:
        """`--journal-sync`: every `interval` seconds, the lines the journals wrote to the
        operating system since the last sync go to disk, in a worker thread so that the
        tables play on meanwhile (host/group_commit.py). A journal the disk refuses closes
        its table, as a failed commit does."""
        group = self.registry.journals
        while True:
            await trio.sleep(interval)
            taken = group.take_dirty()
            if not taken:
                continue
            errors = await trio.to_thread.run_sync(
                partial(sync_taken, taken, group.fsync, group.syncfs))
            if errors:
                self.registry.journals_failed(
                    (taken[position][0], error) for position, error in errors.items())
                self._route()

    def hold(self, connection: ClientConnection) -> bool:
        """The Gate's question: a journal has lines not yet on disk, so what `connection`
        would write now waits for the commit (which flushes it), behind what it follows."""
        if not self.registry.journals.pending:
            return False
        self._held[connection.id] = connection
        self._commit_wanted.set()
        return True

    async def released(self) -> None:
        """The Gate's wait: until no journal line waits for its commit (a closing connection
        sends what was held for it before it closes)."""
        while self.registry.journals.pending:
            await self._commit_done.wait()

    # -- admission (the Gate of host/connection.py) ------------------------------------------

    def admit(self, conn: ConnId, now: float, *, resume: bool) -> Verdict:
        """A valid hello on `conn`: admitted (after dropping idle squatters) or refused."""
        verdict = self.admission.hello(conn, now, resume=resume, seated=self.registry.where)
        for squatter in verdict.drop:
            self._drop(squatter, Code.SERVER_FULL,
                       "dropped to make room: idle at no table while the host was full")
        return verdict

    def active(self, conn: ConnId, now: float) -> None:
        self.admission.active(conn, now)

    def _alive(self, conn: ConnId) -> bool:
        """The liveness the registry asks about before a resume token takes a seat."""
        connection = self.connections.get(conn)
        return connection is not None and connection.alive(trio.current_time())

    def _drop(self, conn: ConnId, code: str, msg: str) -> None:
        connection = self.connections.get(conn)
        if connection is not None:
            connection.drop(code, msg)
        elif (scope := self._scopes.get(conn)) is not None:
            scope.cancel()  # still in its TLS handshake: nothing can be said to it

    async def _lobby_clock(self) -> None:
        """Close connections idle at no table for `lobby_idle`, host full or not."""
        while True:
            await trio.sleep(self.limits.lobby_sweep)
            for conn in self.admission.sweep(trio.current_time(), self.registry.where):
                self._drop(conn, Code.IDLE_TIMEOUT,
                           f"idle at no table for {self.limits.lobby_idle:.0f} s")

    # -- connections ---------------------------------------------------------------------------

    async def _handle(self, tcp: trio.SocketStream) -> None:
        try:
            host, port = tcp.socket.getpeername()[:2]
        except OSError:
            host, port = "?", 0
        await self.serve_stream(tcp, str(host), port)

    async def serve_stream(self, raw: trio.abc.Stream, host: str, port: int) -> None:
        """Serve one client at `host`:`port` over `raw`, the TCP stream the listener accepted
        (TLS goes over it when the host has TLS), or any stream (a test's, in memory)."""
        conn_id = next(self._ids)
        accepted = trio.current_time()
        peer = host_port(host, port)
        conn_log = ConnectionLog(log, f"conn {conn_id} ({peer})", accepted)
        scope = self._scopes[conn_id] = trio.CancelScope()
        address = address_key(host)
        for victim in self.admission.accept(conn_id, address, accepted):
            self._drop(victim, Code.SERVER_FULL,
                       "dropped to make room: too many connections still in their handshake")
        ending = "closed"
        try:
            with scope:
                ending = await self._serve_one(conn_id, raw, peer, address, accepted, conn_log)
            if scope.cancelled_caught:  # dropped in its TLS handshake
                ending = str(Code.SERVER_FULL)
                self.closes[ending] += 1
        except Exception:
            log.exception("conn %d (%s): handler failed", conn_id, peer)
        finally:
            self._scopes.pop(conn_id, None)
            self.admission.gone(conn_id)
            connection = self.connections.pop(conn_id, None)
            self.outlets.pop(conn_id, None)
            if connection is not None:  # cancelled (the host stops): what it got so far
                ending = connection.ended_as()
            conn_log.last(logging.INFO, "ended: %s after %.1f s", ending,
                          trio.current_time() - accepted)
            # the player chose to leave (bye, quit): no wait for it
            quit_ = connection is not None and connection.ending() == "closed" \
                and connection.farewell == "quit"
            try:
                self.registry.disconnect(conn_id, trio.current_time(), quit_)
            except Exception:
                log.exception("conn %d: disconnect failed", conn_id)
            self.changed()
            await trio.aclose_forcefully(raw)  # closed already, unless dropped in TLS

    async def _serve_one(self, conn_id: ConnId, raw: trio.abc.Stream, peer: str,
                         address: str, accepted: float, conn_log: ConnectionLog) -> str:
        """Serve one connection; returns how it ended, as its last log line says (a key of
        `closes`, with the client's bye reason after `closed`)."""
        stream: trio.abc.Stream = raw
        tcp = raw if isinstance(raw, trio.SocketStream) else None
        if self.config.tls is not None:
            tls = trio.SSLStream(raw, self.config.tls, server_side=True)
            try:
                with trio.fail_at(accepted + self.limits.handshake_deadline):
                    await tls.do_handshake()
            except (trio.TooSlowError, trio.BrokenResourceError) as exc:
                ending = str(Code.HANDSHAKE_TIMEOUT if isinstance(exc, trio.TooSlowError)
                             else Code.HANDSHAKE_FAILED)
                conn_log.line(trio.current_time(), logging.INFO, "TLS handshake failed: %s",
                              type(exc).__name__)
                self.closes[ending] += 1
                return ending
            alpn = tls.selected_alpn_protocol()
            if alpn != ALPN:  # SPEC.md [UNO-3-3]: both sides MUST select uno/1
                conn_log.line(trio.current_time(), logging.INFO,
                              "TLS closed: ALPN %r selected, not %s", alpn, ALPN)
                self.closes[Code.HANDSHAKE_FAILED] += 1
                with trio.move_on_after(1.0):
                    await trio.aclose_forcefully(tls)
                return str(Code.HANDSHAKE_FAILED)
            stream = tls
        connection = ClientConnection(conn_id, stream, self.registry, self.changed, peer,
                                      self.limits, address=address, gate=self,
                                      accepted=accepted,
                                      conn_log=conn_log, tcp=tcp, poller=self.poller)
        self.connections[conn_id] = connection
        self.outlets[conn_id] = connection.outlet
        try:
            await connection.run()
        except (trio.BrokenResourceError, trio.ClosedResourceError) as exc:
            log.debug("conn %d (%s): stream closed: %s", conn_id, peer, exc)
        finally:
            if trio.current_effective_deadline() == -math.inf:
                # Only the server's own nursery cancels a connection from outside: the host
                # is stopping (Ctrl-C, the host's player quitting). Say so (SPEC [UNO-6-8]).
                await connection.stopping()
        ending = connection.ending()
        ending = ending if ending in COUNTED_ENDINGS else "other"
        self.closes[ending] += 1
        with trio.move_on_after(1.0):
            try:
                await stream.aclose()
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                log.debug("conn %d: already closed", conn_id)
        return connection.ended_as()
