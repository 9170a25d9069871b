"""One client connection, the trio shell around the sans-IO HostConnection.

Three tasks under one nursery: the reader feeds bytes and the time to the protocol and hands
requests to the registry; the writer sends the frames of a bounded queue, each under a send
deadline; the keepalive task runs the protocol's clock (handshake deadline, ping, idle cutoff).
A write once begun is never cut by the host stopping (only by its deadline, or a cut-off): a
frame half sent, or a TLS record sealed and never sent, would leave nothing more to say, and
the client must read why the host went (`stopping`, SPEC.md [UNO-8-4]).
Others put frames in the queue with `deliver`, which never waits: a full queue means the client
is not reading, and it is cut off (slow_consumer) rather than slowing anyone else.

At `hello` the connection asks its `Gate` (the server) whether it is admitted, and tells it of
every request, intent and chat (activity: a connection that only pings is idle).
"""

from __future__ import annotations

import logging
import math
import os
import socket
from collections.abc import Callable
from typing import Any, Protocol

import trio

from host.admission import Verdict
from host.logs import ConnectionLog, quoted
from host.outgoing import CloseConnection, ConnId
from host.poller import Poller
from host.registry import Registry, ResumeRefused
from host.routing import Outlet
from host.settings import ConnectionLimits
from protocol.connection import ConnectionClosed, ConnectionFailed, MessageRefused
from protocol.errors import Code, LocalProtocolError, ProtocolError
from protocol.host_connection import (
    HelloReceived,
    HostConnection,
    HostEvent,
    IntentReceived,
    MessageReceived,
    RequestReceived,
)
from protocol.limits import RECEIVE_CHUNK
from protocol.state import ConnState

log = logging.getLogger("unonet.host.connection")

TABLE_MESSAGES = frozenset({"chat", "seed_commit", "seed_reveal"})

WRITE_BATCH = 64 * 1024
"""Bytes of queued frames joined into one write: enough for any burst a table makes."""

LAST_WORDS = 1.0
"""Seconds a stopping host gives each connection to finish its write in flight and send what
it still had queued and the `shutting_down` frame: enough for a client that reads, short enough
that one that does not never holds the host's stop (the send deadline is 10 s)."""

IDLE_REQUESTS = frozenset({"list_tables"})
"""Requests that are not activity: looking at the table list forever is squatting."""


class Gate(Protocol):
    """What a connection asks of its server: about its slot (host/admission.py decides), and
    whether what it would write must wait for the journals' group commit."""

    def admit(self, conn: ConnId, now: float, *, resume: bool) -> Verdict: ...

    def active(self, conn: ConnId, now: float) -> None: ...

    def hold(self, connection: ClientConnection) -> bool:
        """Whether `connection` must keep what it would write now until the journals are on
        disk (the server then flushes it): its answers and replies stay in the order the
        requests came, behind the moves they follow."""

    async def released(self) -> None:
        """Return once nothing is held for the journals (at once if nothing is)."""


class OpenGate:
    """A gate that admits every connection and holds nothing (a connection served outside
    HostServer: no group commit)."""

    def admit(self, conn: ConnId, now: float, *, resume: bool) -> Verdict:
        return Verdict(True)

    def active(self, conn: ConnId, now: float) -> None:
        return None

    def hold(self, connection: ClientConnection) -> bool:
        return False

    async def released(self) -> None:
        return None


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
        *,
        address: str | None = None,
        gate: Gate | None = None,
        accepted: float | None = None,
        conn_log: ConnectionLog | None = None,
        tcp: trio.SocketStream | None = None,
        poller: Poller | None = None,
    ) -> None:
        """`accepted` is when TCP accepted the connection (the handshake deadline counts from
        it, TLS included); `conn_log` the connection's budgeted log lines; `tcp` the socket
        under `stream` (TLS), which `alive` looks at; `poller` the server's set of plain-TCP
        reads (host/poller.py), which reads this connection if it is plain TCP."""
        self.id = conn_id
        self.stream = stream
        self.registry = registry
        self.changed = changed  # the registry was touched: route its outbox, re-arm its clock
        self.peer = peer
        self.address = address  # host.admission.address_key of the peer: what it counts under
        self.limits = limits or ConnectionLimits()
        self.gate: Gate = gate or OpenGate()
        now = trio.current_time()
        self.protocol = HostConnection(now if accepted is None else accepted,
                                       **self.limits.protocol_options())
        self.log = conn_log or ConnectionLog(log, f"conn {conn_id} ({peer})", now)
        self.last_received = now
        """When bytes last came from the client (a pong is enough): see `alive`."""
        self.name: str | None = None
        self._send, self._receive = trio.open_memory_channel[bytes](self.limits.queue_frames)
        self._reader_scope = trio.CancelScope()
        self._scope = trio.CancelScope()
        self._writing = False
        self._sending = trio.CancelScope()
        """The write in flight (shielded from the host stopping; see `host_stopping`)."""
        self._final = b""  # the error frame for a client cut off with a full queue
        self.outlet = Outlet(conn_id, self.protocol, self, check=self.limits.check_outgoing)
        """The outgoing half, sans-IO (host/routing.py): what is pushed to this
        client since the last flush, and why it was cut off, if it was."""
        self._out = self.outlet.out  # the same list, for the life of the connection
        self._queued = 0  # items handed to the writer and not yet written
        self._fd: int | None = stream.socket.fileno() if isinstance(stream, trio.SocketStream) \
            else None  # plain TCP: `flush` may write straight to the socket (not TLS)
        self.farewell = "eof"  # a clean close: the client's bye reason, or a bare EOF
        if tcp is None and isinstance(stream, trio.SocketStream):
            tcp = stream
        self._tcp = tcp
        self._poller = poller if self._fd is not None else None
        self._read_done = trio.Event()  # the poller read the end, or reading must stop
        self._read_failure: BaseException | None = None  # a bug while the poller read

    @property
    def cut(self) -> str | None:
        """Why the host cut the connection, if it did (kept by the outlet, which pushes
        nothing more once it is set)."""
        return self.outlet.cut

    @cut.setter
    def cut(self, why: str | None) -> None:
        self.outlet.cut = why

    def ending(self) -> str:
        """Why the connection ended, once `run` has returned."""
        if self.cut is not None:
            return self.cut
        if self.protocol.error is not None:
            return str(self.protocol.error.code)
        return "closed"  # bye or a clean EOF (`farewell` says which)

    def ended_as(self) -> str:
        """`ending()` as the log's last line says it: a clean close with its bye reason."""
        ending = self.ending()
        return f"closed ({self.farewell})" if ending == "closed" else ending

    def alive(self, now: float) -> bool:
        """Received something within `alive_window` and not closing: the seat's owner is
        there (a resume token is then refused, SPEC.md 6.9)."""
        return (self.cut is None and self.protocol.state is ConnState.READY
                and now - self.last_received < self.limits.alive_window
                and not self._closed_by_peer())

    def _closed_by_peer(self) -> bool:
        """Whether the kernel already holds the peer's FIN or RST that the reader has not
        read yet (a client that was killed and is back at once): a peek, never a wait."""
        if self._tcp is None:
            return False
        try:
            probe = socket.socket(fileno=self._tcp.socket.fileno())  # borrowed, never closed
        except OSError:
            return True  # closed under us
        try:
            return probe.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
        except BlockingIOError:
            return False  # open, nothing unread
        except OSError:
            return True  # reset
        finally:
            probe.detach()

    def drop(self, code: str, msg: str) -> None:
        """Close with a fatal `code` (the server makes room, or closes an idle connection)."""
        self.log.line(trio.current_time(), logging.INFO, "dropped: %s (%s)", code, msg)
        if self.protocol.state in (ConnState.HANDSHAKE, ConnState.READY):
            try:
                self._push(self.protocol.refuse(code, msg))
                self.flush()
            except LocalProtocolError as exc:  # our bug; the connection is closed all the same
                log.error("conn %d: no error frame for the drop: %s", self.id, exc)
        self._reader_scope.cancel()

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
                    await self.gate.released()  # what the journals held, then the rest
                    self._fd = None
                    self.flush()  # into the queue
                    self._send.close()  # the writer sends what is queued (a last error), ends
        finally:
            self._fd = None  # the stream is closed after this: never write to its number again
            self.outlet.release()  # and its frames unsent; no cycle left to the collector
        if self.cut == Code.SLOW_CONSUMER and not self._writing:
            await self._last_words(self._final)

    async def _reader(self) -> None:
        if self._poller is not None:
            await self._polled(self._poller)
            return
        while self.protocol.state not in (ConnState.CLOSED, ConnState.ERROR):
            try:
                data = await self._read()
            except (trio.BrokenResourceError, trio.ClosedResourceError) as exc:
                log.debug("conn %d (%s): stream broken: %s", self.id, self.peer, exc)
                data = b""
            if not self._received(data):
                return

    async def _polled(self, poller: Poller) -> None:
        """The reader of a plain-TCP connection on a server with a poller: the poller calls
        `readable` whenever the socket has something; this task only waits for the end (or
        for its cancellation: a drop) and takes the socket out of the poller's set."""
        assert self._fd is not None
        fd = self._fd
        poller.add(fd, self)
        try:
            await self._read_done.wait()
        finally:
            poller.remove(fd)
        if self._read_failure is not None:  # our bug, raised where the handler logs it
            raise self._read_failure

    def readable(self) -> None:
        """The poller's call (host/poller.Readable): read once and handle what came. Never
        raises: a failure is raised again in this connection's own task (`_polled`)."""
        fd = self._fd
        if fd is None or self._read_done.is_set() or self._reader_scope.cancel_called \
                or self._scope.cancel_called:
            self._read_done.set()  # cancelled meanwhile (dropped, refused): read no more
            return
        try:
            data = os.read(fd, RECEIVE_CHUNK)
        except BlockingIOError:
            return  # woken with nothing to read after all
        except OSError as exc:  # reset by the peer: the stream is broken
            log.debug("conn %d (%s): stream broken: %s", self.id, self.peer, exc)
            data = b""
        try:
            more = self._received(data, route=False)  # the poller's `after` routes the batch
        except Exception as exc:
            self._read_failure = exc
            more = False
        if not more:
            self._read_done.set()

    def _received(self, data: bytes, *, route: bool = True) -> bool:
        """Handle what one read brought (b"": the end); whether to read on. With `route`
        false, what it caused is left for the caller to route and flush (`routed`)."""
        now = trio.current_time()
        if data:
            self.last_received = now
        try:
            events = self.protocol.receive_data(data, now)
        except ProtocolError:
            return False  # already in ERROR; nothing more to read
        self._dispatch_all(events, self.protocol.data_to_send())
        # Not kept while the reader waits for the client (seconds, at a person's pace):
        # the collector's middle generation walked every waiting reader's last intent.
        del events
        if route:
            self.routed()
        return bool(data) and self.protocol.state not in (ConnState.CLOSED, ConnState.ERROR)

    def routed(self) -> None:
        """Route what reads caused: routing flushes every connection once, those answered
        first (ours, for an intent: its `accepted` and the events it caused in one write);
        ours again for what the read caused that routing did not (a pong, a refusal)."""
        self.changed()
        self.flush()

    async def _read(self) -> bytes:
        """The next bytes from the client (b"" at EOF). On plain TCP: wait until the socket
        is readable, then read it, where `receive_some` first tries a read that finds nothing
        (a client waits for its answer before it sends again) and then waits: a failed
        system call and an exception less per read. Over TLS, the stream's own read."""
        fd = self._fd
        if fd is None:
            return bytes(await self.stream.receive_some(RECEIVE_CHUNK))
        while True:
            await trio.lowlevel.wait_readable(fd)
            try:
                return os.read(fd, RECEIVE_CHUNK)
            except BlockingIOError:
                continue  # woken with nothing to read after all: wait again
            except OSError as exc:  # reset by the peer: the stream is broken
                raise trio.BrokenResourceError(str(exc)) from exc

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
            failure = await self._write(b"".join(batch) if len(batch) > 1 else frame)
            if failure is not None:
                self.log.line(trio.current_time(), logging.INFO, "write failed (%s); closing",
                              failure)
                self.cut = self.cut or "write_failed"
                self._scope.cancel()
                return
            self._queued -= len(batch)
            self._writing = False  # left True if cancelled mid-write: the framing is lost

    async def _write(self, data: bytes) -> str | None:
        """Send `data` whole, or say why not (the deadline, a broken stream). Shielded: the
        host stopping does not cut it half way, it shortens its deadline (`host_stopping`);
        a cut-off (slow_consumer) cancels it."""
        sending = self._sending = trio.CancelScope(
            deadline=trio.current_time() + self.limits.send_deadline, shield=True)
        with sending:
            try:
                await self.stream.send_all(data)
            except (trio.BrokenResourceError, trio.ClosedResourceError) as exc:
                return type(exc).__name__
        return "TooSlowError" if sending.cancelled_caught else None

    def host_stopping(self) -> None:
        """The host is stopping: the write in flight gets LAST_WORDS more seconds at most, so
        that a client that does not read never holds the stop."""
        self._sending.deadline = min(self._sending.deadline, trio.current_time() + LAST_WORDS)

    async def _keepalive(self) -> None:
        while True:
            deadline = self.protocol.next_deadline()
            await trio.sleep_until(math.inf if deadline is None else deadline)
            events = self.protocol.tick(trio.current_time())
            self._push(self.protocol.data_to_send())
            self.flush()
            for event in events:
                if isinstance(event, ConnectionFailed):
                    self._reader_scope.cancel()  # the code is in the connection's last line
                    return

    # -- incoming ------------------------------------------------------------------------------

    def _dispatch_all(self, events: list[HostEvent], replies: bytes) -> None:
        """Dispatch the events of a read, and push the protocol's `replies` (pongs, refusals)
        where they came among them (`reply_marks`): what a table answers to a request goes
        before the protocol's reply to a later frame of the same read, as SPEC.md [UNO-7-5]
        orders answers. A read whose frames the protocol answered none of, the usual case,
        routes once, after it (the reader does)."""
        pushed = 0
        dispatched = False
        for event, mark in zip(events, self.protocol.reply_marks, strict=True):
            if mark > pushed:
                if dispatched:
                    self.changed()  # what the tables answered so far, ahead of the replies
                self._push(replies[pushed:mark])
                pushed = mark
            self._dispatch(event)
            dispatched = True
        if len(replies) > pushed:
            if dispatched:
                self.changed()
            self._push(replies[pushed:] if pushed else replies)

    def _dispatch(self, event: object) -> None:
        now = trio.current_time()
        if isinstance(event, HelloReceived):
            self._hello(event, now)
        elif isinstance(event, IntentReceived):
            self.gate.active(self.id, now)
            self.registry.intent(self.id, event.id, event.action, now)
        elif isinstance(event, RequestReceived):
            if event.message.get("t") not in IDLE_REQUESTS:
                self.gate.active(self.id, now)
            self.registry.request(self.id, self.name, event.message, now, self.address)
        elif isinstance(event, MessageReceived):
            kind = event.message.get("t")
            if kind in TABLE_MESSAGES:
                self.gate.active(self.id, now)
                self.registry.message(self.id, event.message, now)
            elif kind == "error":
                self.log.line(now, logging.INFO, "client reports %s",
                              quoted(event.message.get("code")))
        elif isinstance(event, MessageRefused):
            self.log.line(now, logging.INFO, "refused %s: %s %s", quoted(event.message_type),
                          event.error.code, quoted(event.error.message))
        elif isinstance(event, ConnectionClosed):
            self.farewell = event.reason or "eof"
        elif isinstance(event, ConnectionFailed):
            who = "client" if event.by_peer else "host"
            self.log.line(now, logging.INFO, "fatal %s (%s side): %s", event.error.code, who,
                          quoted(event.error.message))

    def _hello(self, hello: HelloReceived, now: float) -> None:
        if self.protocol.state is not ConnState.HANDSHAKE:
            return  # the same read held a frame after the hello: handshake_failed, sent
        self.name = hello.name
        self.log.line(now, logging.INFO, "hello from %s %s as %s, v%d%s",
                      quoted(hello.client.get("name")), quoted(hello.client.get("version")),
                      quoted(hello.name), hello.version,
                      ", resuming" if hello.resume is not None else "")
        if hello.resume is None:
            if self._admitted(now, resume=False):
                self._push(self.protocol.welcome())
            return
        found = self.registry.find_resume(hello.resume, now)
        if isinstance(found, ResumeRefused):
            self._refuse(found.code, found.msg)
            return
        if not self._admitted(now, resume=True):
            return
        table, seat = found
        self._push(self.protocol.welcome({"table": table.number, "seat": seat}))
        self.registry.resume(self.id, table, seat, now)

    def _admitted(self, now: float, *, resume: bool) -> bool:
        """Ask the gate for a slot; refused, the connection gets its fatal error and ends."""
        verdict = self.gate.admit(self.id, now, resume=resume)
        if not verdict.admitted:
            self._refuse(verdict.code, verdict.msg)
        return verdict.admitted

    def _refuse(self, code: str, msg: str) -> None:
        self.log.line(trio.current_time(), logging.INFO, "refused at hello: %s (%s)", code, msg)
        self._push(self.protocol.refuse(code, msg))
        self._reader_scope.cancel()

    # -- outgoing ------------------------------------------------------------------------------

    def close(self, item: CloseConnection) -> None:
        """A kick (routing's `Owner.close`): the fatal error, then the reader stops."""
        self.log.line(trio.current_time(), logging.INFO, "closed by the host: %s", item.code)
        self._push(self.protocol.refuse(item.code, item.msg))
        self._reader_scope.cancel()

    def discard_unsent(self) -> None:
        """Forget what was pushed and not yet flushed: moves of a table whose journal failed,
        which the client is about to be told of (table_failed) instead."""
        self._out.clear()

    def _push(self, frame: bytes) -> None:
        """Add a frame to what the next `flush` sends (the outlet's `push`)."""
        self.outlet.push(frame)

    def flush(self) -> None:
        """Send what was pushed since the last flush, without waiting: on plain TCP with
        nothing queued for the writer, straight to the socket (one write, no task switch);
        what the socket does not take now, and everything over TLS or behind queued frames,
        goes to the writer's queue in order. Nothing while the gate holds it for the
        journals' commit: the server flushes it then."""
        if self._out and not self.gate.hold(self):
            self.write_out()

    def write_out(self) -> None:
        """`flush` once the gate has said nothing is held (the server's routing asks it once
        for all the connections of a pass)."""
        out = self._out
        if not out:
            return
        if self._fd is not None and self._queued == 0 and self.outlet.cut is None:
            data = b"".join(out) if len(out) > 1 else out[0]
            out.clear()
            try:
                sent = os.write(self._fd, data)
            except OSError:  # would block, or broken: the writer's send_all deals with it
                sent = 0
            if sent == len(data):
                return
            if sent:
                self._writing = True  # part of a frame is out: the framing hangs on the rest
            self._enqueue(data[sent:])
            return
        frames = out.copy()
        out.clear()
        for frame in frames:
            self._enqueue(frame)

    def _enqueue(self, frame: bytes) -> None:
        if self.cut is not None:
            return
        try:
            self._send.send_nowait(frame)
            self._queued += 1
        except trio.WouldBlock:
            self.cut = Code.SLOW_CONSUMER
            self.log.line(trio.current_time(), logging.WARNING,
                          "outgoing queue full; cut off as slow_consumer")
            self._final = self.protocol.refuse(Code.SLOW_CONSUMER,
                                               "the client did not read its messages")
            self._scope.cancel()
            self._sending.cancel()  # a write under way is cut too: the framing is lost
        except (trio.ClosedResourceError, trio.BrokenResourceError):
            pass  # closing already: nothing more goes out

    async def stopping(self) -> None:
        """The host is stopping (its nursery is cancelled): tell the client so, briefly and
        shielded, after what it still had queued (the rest of a frame written in part comes
        first), unless the connection was cut (a write failed, or it did not read)."""
        if self.cut is not None:
            return
        if self.protocol.state not in (ConnState.HANDSHAKE, ConnState.READY):
            return
        registry = self.registry
        words = ("the host's player left its table" if registry.stop_reason == "host_left"
                 else "the host was stopped")
        details: dict[str, Any] = {"why": registry.stop_reason}
        if registry.match_kept(self.id):
            details["kept"] = True
            words += "; the match is kept, to be carried on with unonet host --resume"
        try:
            frame = self.protocol.refuse(Code.SHUTTING_DOWN, words, **details)
        except LocalProtocolError as exc:  # our bug; the connection closes all the same
            log.error("conn %d: no shutting_down frame: %s", self.id, exc)
            return
        with trio.CancelScope(shield=True):
            await self._last_words(self._unsent() + frame)

    def _unsent(self) -> bytes:
        """What the writer had queued and not sent (cancelled between writes), in order."""
        queued = []
        while True:
            try:
                queued.append(self._receive.receive_nowait())
            except (trio.WouldBlock, trio.EndOfChannel, trio.ClosedResourceError):
                return b"".join(queued)

    async def _last_words(self, frame: bytes) -> None:
        """A final error frame straight on the stream, briefly (LAST_WORDS: the queue is
        full, or the host stops)."""
        with trio.move_on_after(LAST_WORDS):
            try:
                await self.stream.send_all(frame)
            except (trio.BrokenResourceError, trio.ClosedResourceError) as exc:
                log.debug("conn %d: last error frame not sent: %s", self.id, exc)
