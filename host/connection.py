"""One client connection, the trio shell around the sans-IO HostConnection.

Three tasks under one nursery: the reader feeds bytes and the time to the protocol and hands
requests to the registry; the writer sends the frames of a bounded queue, each under a send
deadline; the keepalive task runs the protocol's clock (handshake deadline, ping, idle cutoff).
Others put frames in the queue with `deliver`, which never waits: a full queue means the client
is not reading, and it is cut off (slow_consumer) rather than slowing anyone else.
"""

from __future__ import annotations

import logging
import math
import os
from collections.abc import Callable

import trio

from host.outgoing import CloseConnection, ConnId, Outgoing, SendEvent, SendMessage, SendSnapshot
from host.registry import Registry
from host.settings import ConnectionLimits
from protocol.connection import ConnectionClosed, ConnectionFailed, MessageRefused
from protocol.errors import Code, LocalProtocolError, ProtocolError
from protocol.host_connection import (
    HelloReceived,
    HostConnection,
    IntentReceived,
    MessageReceived,
    RequestReceived,
    packed_event,
    packed_legal,
)
from protocol.limits import RECEIVE_CHUNK
from protocol.state import ConnState

log = logging.getLogger("unonet.host.connection")

TABLE_MESSAGES = frozenset({"chat", "seed_commit", "seed_reveal"})

WRITE_BATCH = 64 * 1024
"""Bytes of queued frames joined into one write: enough for any burst a table makes."""


class ClientConnection:
    """The trio side of one client: its stream, its protocol state and its outgoing queue."""

    def __init__(
        self,
        conn_id: ConnId,
        stream: trio.abc.Stream,
        registry: Registry,
        changed: Callable[[], None],
        peer: str,
        limits: ConnectionLimits | None = None,
    ) -> None:
        self.id = conn_id
        self.stream = stream
        self.registry = registry
        self.changed = changed  # the registry was touched: route its outbox, re-arm its clock
        self.peer = peer
        self.limits = limits or ConnectionLimits()
        self.protocol = HostConnection(trio.current_time(), **self.limits.protocol_options())
        self.name: str | None = None
        self._send, self._receive = trio.open_memory_channel[bytes](self.limits.queue_frames)
        self._reader_scope = trio.CancelScope()
        self._scope = trio.CancelScope()
        self._writing = False
        self._final = b""  # the error frame for a client cut off with a full queue
        self._out: list[bytes] = []  # frames pushed since the last flush
        self._queued = 0  # items handed to the writer and not yet written
        self._fd: int | None = stream.socket.fileno() if isinstance(stream, trio.SocketStream) \
            else None  # plain TCP: `flush` may write straight to the socket (not TLS)
        self.cut: str | None = None  # why the host cut the connection, if it did

    def ending(self) -> str:
        """Why the connection ended, once `run` has returned."""
        if self.cut is not None:
            return self.cut
        if self.protocol.error is not None:
            return str(self.protocol.error.code)
        return "closed"  # bye or a clean EOF

    # -- running -----------------------------------------------------------------------------

    async def run(self) -> None:
        try:
            with self._scope:
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(self._writer)
                    with self._reader_scope:
                        async with trio.open_nursery() as inner:
                            inner.start_soon(self._keepalive)
                            await self._reader()
                            inner.cancel_scope.cancel()
                    self._fd = None
                    self.flush()  # into the queue
                    self._send.close()  # the writer sends what is queued (a last error), ends
        finally:
            self._fd = None  # the stream is closed after this: never write to its number again
            self._out = []
        if self.cut == Code.SLOW_CONSUMER and not self._writing:
            await self._last_words(self._final)

    async def _reader(self) -> None:
        while self.protocol.state not in (ConnState.CLOSED, ConnState.ERROR):
            try:
                data = bytes(await self.stream.receive_some(RECEIVE_CHUNK))
            except (trio.BrokenResourceError, trio.ClosedResourceError) as exc:
                log.info("conn %d (%s): stream broken: %s", self.id, self.peer, exc)
                data = b""
            try:
                events = self.protocol.receive_data(data, trio.current_time())
            except ProtocolError:
                return  # already in ERROR; nothing more to read
            self._push(self.protocol.data_to_send())
            for event in events:
                self._dispatch(event)
            self.changed()
            self.flush()
            if not data:
                return

    async def _writer(self) -> None:
        # Whatever is queued goes out in one write (up to WRITE_BATCH bytes): a table's
        # answer and events for one client are a handful of small frames, and one send per
        # frame cost the host more than building them. TCP never kept frames apart anyway.
        receive = self._receive
        async for frame in receive:
            batch = [frame]
            size = len(frame)
            while size < WRITE_BATCH:
                try:
                    more = receive.receive_nowait()
                except (trio.WouldBlock, trio.EndOfChannel):
                    break
                batch.append(more)
                size += len(more)
            self._writing = True
            try:
                with trio.fail_after(self.limits.send_deadline):
                    await self.stream.send_all(b"".join(batch) if len(batch) > 1 else frame)
            except (trio.TooSlowError, trio.BrokenResourceError, trio.ClosedResourceError) as exc:
                log.info("conn %d (%s): write failed (%s); closing", self.id, self.peer,
                         type(exc).__name__)
                self.cut = self.cut or "write_failed"
                self._scope.cancel()
                return
            self._queued -= len(batch)
            self._writing = False  # left True if cancelled mid-write: the framing is lost

    async def _keepalive(self) -> None:
        while True:
            deadline = self.protocol.next_deadline()
            await trio.sleep_until(math.inf if deadline is None else deadline)
            events = self.protocol.tick(trio.current_time())
            self._push(self.protocol.data_to_send())
            self.flush()
            for event in events:
                if isinstance(event, ConnectionFailed):
                    log.info("conn %d (%s): %s", self.id, self.peer, event.error.code)
                    self._reader_scope.cancel()
                    return

    # -- incoming ------------------------------------------------------------------------------

    def _dispatch(self, event: object) -> None:
        now = trio.current_time()
        if isinstance(event, HelloReceived):
            self._hello(event, now)
        elif isinstance(event, IntentReceived):
            self.registry.intent(self.id, event.id, event.action, now)
        elif isinstance(event, RequestReceived):
            self.registry.request(self.id, self.name, event.message, now)
        elif isinstance(event, MessageReceived):
            kind = event.message.get("t")
            if kind in TABLE_MESSAGES:
                self.registry.message(self.id, event.message, now)
            elif kind == "error":
                log.info("conn %d: client reports %s", self.id, event.message.get("code"))
        elif isinstance(event, MessageRefused):
            log.info("conn %d: refused %s: %s", self.id, event.message_type, event.error)
        elif isinstance(event, ConnectionFailed):
            who = "client" if event.by_peer else "host"
            log.info("conn %d (%s): fatal %s (%s side): %s", self.id, self.peer,
                     event.error.code, who, event.error.message)
        elif isinstance(event, ConnectionClosed):
            log.info("conn %d (%s): closed (%s)", self.id, self.peer, event.reason or "eof")

    def _hello(self, hello: HelloReceived, now: float) -> None:
        if self.protocol.state is not ConnState.HANDSHAKE:
            return  # the same read held a frame after the hello: handshake_failed, sent
        self.name = hello.name
        log.info("conn %d (%s): hello from %s %s as %r, v%d", self.id, self.peer,
                 hello.client.get("name"), hello.client.get("version"), hello.name,
                 hello.version)
        if hello.resume is None:
            self._push(self.protocol.welcome())
            return
        found = self.registry.find_resume(hello.resume)
        if found is None:
            self._push(self.protocol.refuse(Code.INVALID_RESUME, "this token names no seat"))
            self._reader_scope.cancel()
            return
        table, seat = found
        self._push(self.protocol.welcome({"table": table.number, "seat": seat}))
        self.registry.resume(self.id, table, seat, now)

    # -- outgoing ------------------------------------------------------------------------------

    def deliver(self, item: Outgoing) -> None:
        """Queue what a table wants this client to get; never waits."""
        if self.protocol.state is not ConnState.READY:
            return
        try:
            if isinstance(item, SendMessage):
                frame = self.protocol.send(item.message)
            elif isinstance(item, SendSnapshot):
                frame = self.protocol.snapshot(item.view, item.legal)
            elif isinstance(item, SendEvent):
                check = self.limits.check_outgoing
                if item.event_packed.data is None:
                    item.event_packed.data = packed_event(item.event, item.proof, check=check)
                if item.legal_packed.data is None:
                    item.legal_packed.data = packed_legal(item.legal, check=check)
                frame = self.protocol.event_packed(item.event_packed.data,
                                                   item.legal_packed.data)
            elif isinstance(item, CloseConnection):
                log.info("conn %d (%s): closed by the host: %s", self.id, self.peer, item.code)
                self._push(self.protocol.refuse(item.code, item.msg))
                self._reader_scope.cancel()
                return
            else:
                raise TypeError(f"cannot deliver {item!r}")
        except LocalProtocolError as exc:  # our bug: never send what the catalogue refuses
            log.error("conn %d: not sent, %s: %r", self.id, exc, item)
            return
        self._push(frame)

    def _push(self, frame: bytes) -> None:
        """Add a frame to what the next `flush` sends."""
        if frame and self.cut is None:
            self._out.append(frame)

    def flush(self) -> None:
        """Send what was pushed since the last flush, without waiting: on plain TCP with
        nothing queued for the writer, straight to the socket (one write, no task switch);
        what the socket does not take now, and everything over TLS or behind queued frames,
        goes to the writer's queue in order."""
        out = self._out
        if not out:
            return
        self._out = []
        if self._fd is not None and self._queued == 0 and self.cut is None:
            data = b"".join(out) if len(out) > 1 else out[0]
            try:
                sent = os.write(self._fd, data)
            except OSError:  # would block, or broken: the writer's send_all deals with it
                sent = 0
            if sent == len(data):
                return
            if sent:
                self._writing = True  # part of a frame is out: the framing hangs on the rest
            out = [data[sent:]]
        for frame in out:
            self._enqueue(frame)

    def _enqueue(self, frame: bytes) -> None:
        if self.cut is not None:
            return
        try:
            self._send.send_nowait(frame)
            self._queued += 1
        except trio.WouldBlock:
            self.cut = Code.SLOW_CONSUMER
            log.warning("conn %d (%s): outgoing queue full; cut off as slow_consumer",
                        self.id, self.peer)
            self._final = self.protocol.refuse(Code.SLOW_CONSUMER,
                                               "the client did not read its messages")
            self._scope.cancel()
        except (trio.ClosedResourceError, trio.BrokenResourceError):
            pass  # closing already: nothing more goes out

    async def _last_words(self, frame: bytes) -> None:
        """A final error frame straight on the stream, briefly (the queue is full). Skipped
        if a write was cut mid-frame: the stream's framing is lost then."""
        with trio.move_on_after(1.0):
            try:
                await self.stream.send_all(frame)
            except (trio.BrokenResourceError, trio.ClosedResourceError) as exc:
                log.info("conn %d: last error frame not sent: %s", self.id, exc)
