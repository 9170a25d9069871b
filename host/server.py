"""The trio server: accepts connections, runs the tables' clock, routes what tables send.

Structure (crypto-protocol.md E): one nursery holds the listener, the table clock and every
connection handler; each connection has its own nursery (connection.py). Every handler catches
its own exceptions and logs them, so no client can crash the host. Beyond `max_connections`
a client gets error{server_full} and is closed.
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

from host.connection import ClientConnection
from host.outgoing import ConnId, SendMessage
from host.registry import Registry
from host.settings import ConnectionLimits
from protocol.errors import Code
from protocol.host_connection import HostConnection

log = logging.getLogger("unonet.host.server")


@dataclass
class ServerConfig:
    bind: str | None = None  # None: every interface, IPv4 and IPv6
    port: int = 7077
    tls: ssl.SSLContext | None = None
    limits: ConnectionLimits = field(default_factory=ConnectionLimits)


class HostServer:
    """Serves a Registry of tables on one port."""

    def __init__(self, registry: Registry, config: ServerConfig) -> None:
        self.registry = registry
        self.config = config
        self.limits = config.limits
        self.connections: dict[ConnId, ClientConnection] = {}
        self._ids = itertools.count(1)
        self._wakeup = trio.Event()
        self._active = 0
        self.closes: Counter[str] = Counter()
        """How connections ended: a fatal code the host sent or got (slow_consumer,
        rate_limited, bad_frame, ...), `write_failed` or `closed` (bye or EOF)."""

    async def serve(
        self, *, task_status: trio.TaskStatus[list[trio.SocketListener]] = trio.TASK_STATUS_IGNORED
    ) -> None:
        """Run until cancelled; `nursery.start(server.serve)` returns the listeners."""
        async with trio.open_nursery() as nursery:
            nursery.start_soon(self._table_clock)
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

    # -- the tables' clock -------------------------------------------------------------------

    def changed(self) -> None:
        """Something touched the registry: send what it produced and re-arm the clock."""
        self._route()
        self._wakeup.set()

    def _route(self) -> None:
        touched: dict[ConnId, ClientConnection] = {}
        for item in self.registry.take_outgoing():
            connection = self.connections.get(item.conn)
            if connection is not None:
                connection.deliver(item)
                if isinstance(item, SendMessage) and item.message.get("t") == "accepted":
                    # The action is applied and journaled (the tables run before any routing):
                    # its answer goes out now, not after the events are encoded for everyone.
                    connection.flush()
                else:
                    touched[item.conn] = connection
        for connection in touched.values():
            connection.flush()

    async def _table_clock(self) -> None:
        self.registry.touch_all()
        while True:
            deadline = self.registry.clock_deadline()
            with trio.move_on_at(math.inf if deadline is None else deadline):
                await self._wakeup.wait()
            self._wakeup = trio.Event()
            try:
                self.registry.clock_tick(trio.current_time())
            except Exception:  # a table bug must not stop every other table: log it loudly
                log.exception("a table failed while handling its timers")
            self._route()  # not changed(): waking ourselves would spin
            await trio.lowlevel.checkpoint()

    # -- connections ---------------------------------------------------------------------------

    async def _handle(self, tcp: trio.SocketStream) -> None:
        conn_id = next(self._ids)
        try:
            peer = "{}:{}".format(*tcp.socket.getpeername()[:2])
        except OSError:
            peer = "?"
        self._active += 1
        try:
            await self._serve_one(conn_id, tcp, peer)
        except Exception:
            log.exception("conn %d (%s): handler failed", conn_id, peer)
        finally:
            self._active -= 1
            self.connections.pop(conn_id, None)
            try:
                self.registry.disconnect(conn_id, trio.current_time())
            except Exception:
                log.exception("conn %d: disconnect failed", conn_id)
            self.changed()

    async def _serve_one(self, conn_id: ConnId, tcp: trio.SocketStream, peer: str) -> None:
        stream: trio.abc.Stream = tcp
        if self.config.tls is not None:
            tls = trio.SSLStream(tcp, self.config.tls, server_side=True)
            try:
                with trio.fail_after(self.limits.handshake_deadline):
                    await tls.do_handshake()
            except (trio.TooSlowError, trio.BrokenResourceError) as exc:
                log.info("conn %d (%s): TLS handshake failed: %s", conn_id, peer,
                         type(exc).__name__)
                return
            stream = tls
        log.info("conn %d (%s): connected", conn_id, peer)
        if self._active > self.limits.max_connections:
            log.warning("conn %d (%s): refused, server_full", conn_id, peer)
            refusal = HostConnection(trio.current_time(), **self.limits.protocol_options())
            with trio.move_on_after(2.0):
                await stream.send_all(refusal.refuse(Code.SERVER_FULL, "too many connections"))
            return
        connection = ClientConnection(conn_id, stream, self.registry, self.changed, peer,
                                      self.limits)
        self.connections[conn_id] = connection
        try:
            await connection.run()
        except (trio.BrokenResourceError, trio.ClosedResourceError) as exc:
            log.info("conn %d (%s): stream closed: %s", conn_id, peer, exc)
        self.closes[connection.ending()] += 1
        with trio.move_on_after(1.0):
            try:
                await stream.aclose()
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                log.debug("conn %d: already closed", conn_id)
        log.info("conn %d (%s): gone", conn_id, peer)
