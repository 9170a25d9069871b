"""The server's poller (host/poller.py): plain-TCP connections are read from one epoll set, leave
it when they end (their socket numbers are reused at once), and a bug while one is read ends that
connection only. Without epoll, each connection reads in its own task, as over TLS.

Real sockets on loopback; the timers of the tables run on the autojump clock.
"""

from __future__ import annotations

import gc
import os
import weakref
from typing import Any

import pytest
import trio
import trio.testing
from test_host_admission_net import RawClient
from test_host_robustness import start

from host.connection import ClientConnection
from host.poller import Poller
from host.server import HostServer
from host.settings import ConnectionLimits
from protocol.frames import encode_frame

pytestmark = pytest.mark.skipif(not Poller.available(), reason="epoll is Linux's")

LIMITS = ConnectionLimits()


async def _connect(listener: trio.SocketListener) -> RawClient:
    return RawClient(await trio.testing.open_stream_to_socket_listener(listener))


async def _until(server: HostServer, key: str, value: int) -> None:
    with trio.fail_after(10):
        while server.sizes()[key] != value:
            await trio.sleep(0.01)


async def test_plain_connections_are_read_by_the_poller_and_leave_it_when_they_end(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock,
) -> None:
    server, _tables, listener = await start(nursery, LIMITS)
    assert server.poller is not None
    clients = [await _connect(listener) for _ in range(3)]
    for client in clients:
        assert await client.hello() == "welcome"
    await _until(server, "polled", 3)
    for client in clients:
        await client.stream.aclose()
    await _until(server, "polled", 0)
    await _until(server, "connections", 0)
    again = await _connect(listener)  # the freed socket numbers are taken again at once
    assert await again.hello() == "welcome"
    await _until(server, "polled", 1)


async def test_without_epoll_each_connection_reads_in_its_own_task(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(Poller, "available", staticmethod(lambda: False))
    server, _tables, listener = await start(nursery, LIMITS)
    assert server.poller is None
    client = await _connect(listener)
    assert await client.hello() == "welcome"
    assert server.sizes()["polled"] == 0
    await client.stream.aclose()
    await _until(server, "connections", 0)


async def test_a_bug_while_the_poller_reads_ends_that_connection_only(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock,
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
) -> None:
    server, _tables, listener = await start(nursery, LIMITS)
    real = ClientConnection._dispatch_all
    broken: set[int] = set()

    def dispatch(self: ClientConnection, *args: Any) -> None:
        if self.id in broken:
            raise RuntimeError("a bug in handling a read")
        real(self, *args)

    monkeypatch.setattr(ClientConnection, "_dispatch_all", dispatch)
    victim, bystander = await _connect(listener), await _connect(listener)
    assert await victim.hello() == "welcome"
    assert await bystander.hello() == "welcome"
    broken.add(min(server.connections))
    await victim.stream.send_all(b"\x00\x00\x00\x01\x80")  # any frame: the read fails
    assert await victim.next_frame() is None  # closed
    assert "handler failed" in caplog.text
    await _until(server, "polled", 1)
    assert await bystander.hello() == "error"  # still read: a second hello is refused


async def test_reads_of_one_wake_are_routed_in_one_pass_and_each_reader_flushed(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    batches: list[int] = []
    real = HostServer._batch_read

    def batch_read(self: HostServer, readers: list[Any]) -> None:
        batches.append(len(readers))
        real(self, readers)
        assert not any(reader.outlet.out for reader in readers)  # every reader flushed

    monkeypatch.setattr(HostServer, "_batch_read", batch_read)
    _server, _tables, listener = await start(nursery, LIMITS)
    clients = [await _connect(listener) for _ in range(2)]
    for client in clients:
        assert await client.hello() == "welcome"
    batches.clear()
    for number, client in enumerate(clients, start=7):  # both sent before the host wakes
        sock = client.stream.socket  # type: ignore[attr-defined]
        os.write(sock.fileno(), encode_frame({"t": "ping", "n": number}))
    for number, client in enumerate(clients, start=7):
        frame = await client.next_frame()
        while frame is not None and frame["t"] != "pong":  # a table's news may come first
            frame = await client.next_frame()
        assert frame == {"t": "pong", "n": number}  # written after the pass, by its reader
    assert batches == [2]


async def test_an_ended_connection_is_freed_without_the_cyclic_collector(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock,
) -> None:
    """Its outgoing half (host/routing.Outlet) and it refer to each other while it runs; a
    cycle left at its end would wait for the collector's full pass (minutes apart in a busy
    host: benchmarks/soak.py saw RSS grow 10% over a run)."""
    server, _tables, listener = await start(nursery, LIMITS)
    client = await _connect(listener)
    assert await client.hello() == "welcome"
    [connection] = server.connections.values()
    gone = weakref.ref(connection)
    del connection
    gc.disable()
    try:
        await client.stream.aclose()
        await _until(server, "connections", 0)
        await trio.testing.wait_all_tasks_blocked()
        assert gone() is None
    finally:
        gc.enable()
