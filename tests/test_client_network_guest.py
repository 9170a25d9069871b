"""NetworkLink in trio guest mode on an asyncio loop, as prompt-toolkit runs it: updates arrive
on the loop's thread and in order, commands sent from asyncio reach the host, close() ends the
trio run, and a failure inside trio is reported, not swallowed. The host runs inside the same
guest run, as `unonet play` does it."""

from __future__ import annotations

import argparse
import asyncio
import threading
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager

import pytest
import trio

from client.cli import HostAddress, play_main
from client.guest import NetworkLink
from client.link import (
    ChatReceived,
    Command,
    ConnectionChanged,
    Hosting,
    ManifestReceived,
    Snapshot,
    Update,
)
from host.registry import Registry
from host.server import HostServer, ServerConfig
from host.settings import FAST_TIMINGS
from host.table import TableSettings
from unonet.rules import RuleSet


def local_host(args: argparse.Namespace) -> AbstractAsyncContextManager[HostAddress]:
    @asynccontextmanager
    async def running() -> AsyncIterator[HostAddress]:
        registry = Registry(FAST_TIMINGS)
        table = registry.create_table(TableSettings(
            "guest", RuleSet(target=50), headless=True, target_seats=args.bots + 1,
            timings=FAST_TIMINGS))
        for _ in range(args.bots):
            table.add_bot()
        server = HostServer(registry, ServerConfig(bind="127.0.0.1", port=0))
        async with trio.open_nursery() as nursery:
            listeners = await nursery.start(server.serve)
            yield HostAddress("127.0.0.1", listeners[0].socket.getsockname()[1])
            nursery.cancel_scope.cancel()

    return running()


async def wait_for(seen: list[Update], kind: type, timeout: float = 20.0) -> Update:
    async def poll() -> Update:
        while True:
            found = [u for u in seen if isinstance(u, kind)]
            if found:
                return found[0]
            await asyncio.sleep(0.01)

    return await asyncio.wait_for(poll(), timeout)


def test_the_link_runs_as_trio_guest_of_asyncio_with_the_host_inside() -> None:
    seen: list[Update] = []
    threads: set[int] = set()

    def deliver(update: Update) -> None:
        threads.add(threading.get_ident())
        seen.append(update)

    main = play_main(argparse.Namespace(bots=1), local_host, "guest")
    link = NetworkLink(main)

    async def scenario() -> None:
        link.start(deliver)
        link.send_chat("sent before trio ran its first tick")  # queued until the welcome
        snapshot = await wait_for(seen, Snapshot)
        assert isinstance(snapshot, Snapshot) and snapshot.view.seat is not None
        chat = await wait_for(seen, ChatReceived)
        assert chat == ChatReceived("guest", "sent before trio ran its first tick",
                                    snapshot.view.seat)
        link.close()
        await asyncio.wait_for(link.wait_closed(), 10)

    asyncio.run(scenario())
    assert threads == {threading.get_ident()}  # one thread: the loop's own
    kinds = [type(u) for u in seen]
    assert kinds.index(ManifestReceived) < kinds.index(Snapshot)
    # `unonet play`'s own table: the screen is told it hosts it, then the link connects
    assert seen[:2] == [Hosting(), ConnectionChanged("connecting")]
    assert link.last_state == ConnectionChanged("closed")
    link.send_chat("after the end")  # never raises; nothing is delivered after close
    assert not any(isinstance(u, ChatReceived) and u.text == "after the end" for u in seen)


def test_a_failure_inside_trio_is_reported_and_raised() -> None:
    seen: list[Update] = []

    async def broken(commands: trio.MemoryReceiveChannel[Command],
                     updates: trio.MemorySendChannel[Update]) -> None:
        await updates.send(ConnectionChanged("connecting"))
        raise RuntimeError("the network code has a bug")

    link = NetworkLink(broken)

    async def scenario() -> None:
        link.start(seen.append)
        with pytest.raises(ExceptionGroup) as info:  # from the link's nursery, as trio raises
            await asyncio.wait_for(link.wait_closed(), 10)
        assert info.group_contains(RuntimeError, match="has a bug")

    asyncio.run(scenario())
    states = [u for u in seen if isinstance(u, ConnectionChanged)]
    assert states[0] == ConnectionChanged("connecting")  # after what the host said of itself
    lost = seen[-1]
    assert isinstance(lost, ConnectionChanged) and lost.state == "lost"
    assert "has a bug" in lost.detail and lost.code == "link_failed"  # the screen's words
