"""Helpers for the network client tests: a real host on loopback, and a link driven by hand.

`start_host` serves one table on 127.0.0.1 port 0 in the test's nursery (as tests/test_host_*
do). `LinkHarness` runs `run_link` in that nursery, keeps every update it delivers, and waits
for the ones a test expects with a bounded deadline, never a fixed sleep.
"""

from __future__ import annotations

import math
import ssl
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TypeVar

import trio

from client.link import CloseLink, Command, ConnectionChanged, GameEvent, Refused, Snapshot, Update
from client.link_session import LinkSession
from client.lobby import SetReady
from client.network import LinkConfig, open_stream, run_link
from host.registry import Registry
from host.server import HostServer, ServerConfig
from host.settings import FAST_TIMINGS, ConnectionLimits, TableTimings
from host.table import Table, TableSettings
from unonet.actions import Accept, Action, CallUno, Catch, ChooseColor, Draw, Pass, Play
from unonet.events import MatchEnded
from unonet.match import Match
from unonet.rules import RuleSet

U = TypeVar("U")

MACHINE_SPEED = replace(ConnectionLimits(), rate=10_000.0, burst=10_000)
"""The limits of the tests' hosts. A test player answers each decision the moment it comes,
against bots that wait for nothing (FAST_TIMINGS), so a long round goes by at hundreds of
intents a second; at the default 50 a second (SPEC.md 13, a person's pace) the host cut such a
player off as rate_limited now and then (a round of 542 events did it), and the test then
waited for a round it was no longer at. The rate limit itself is tested with its defaults
(tests/test_error_codes.py, test_host_robustness.py); netbot paces itself (client/netbot.py)."""

WAIT = 20.0
"""The bound on any wait for the host: generous, since a loaded machine is slow, not wrong."""


@dataclass
class LocalHost:
    registry: Registry
    table: Table
    server: HostServer
    port: int


def played_match(table: Table) -> Match:
    """The table's first match played to its end, else the one it is playing."""
    if table.finished:
        return table.finished[0]
    assert table.game is not None, "the table never started a match"
    return table.game.match


async def start_host(
    nursery: trio.Nursery,
    *,
    bots: int = 1,
    tls: ssl.SSLContext | None = None,
    rules: RuleSet | None = None,
    timings: TableTimings = FAST_TIMINGS,
    players: int = 1,
) -> LocalHost:
    """A headless table for `bots` bots and `players` players, which starts once they are all
    seated and ready."""
    registry = Registry(timings)
    settings = TableSettings("net", rules or RuleSet(target=50), headless=True,
                             target_seats=bots + players, timings=timings)
    table = registry.create_table(settings)
    for _ in range(bots):
        table.add_bot()
    server = HostServer(registry, ServerConfig(bind="127.0.0.1", port=0, tls=tls,
                                               limits=MACHINE_SPEED))
    listeners: list[trio.SocketListener] = await nursery.start(server.serve)
    return LocalHost(registry, table, server, listeners[0].socket.getsockname()[1])


class StreamWrapper(trio.abc.Stream):
    """A stream that passes everything to `inner`: a test's stream overrides what it watches
    or holds."""

    def __init__(self, inner: trio.abc.Stream) -> None:
        self.inner = inner

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        await self.inner.send_all(data)

    async def wait_send_all_might_not_block(self) -> None:
        await self.inner.wait_send_all_might_not_block()

    async def receive_some(self, max_bytes: int | None = None) -> bytes | bytearray:
        return await self.inner.receive_some(max_bytes)

    async def aclose(self) -> None:
        await self.inner.aclose()


class CuttableStream(StreamWrapper):
    """A stream the test can cut, as a network failure would: both directions break at once."""

    def __init__(self, inner: trio.abc.Stream) -> None:
        super().__init__(inner)
        self.sent = 0

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        self.sent += len(data)
        await super().send_all(data)

    async def cut(self) -> None:
        await trio.aclose_forcefully(self.inner)


@dataclass
class LinkHarness:
    commands: trio.MemorySendChannel[Command]
    updates: trio.MemoryReceiveChannel[Update]
    seen: list[Update] = field(default_factory=list)
    streams: list[CuttableStream] = field(default_factory=list)
    session: LinkSession | None = None
    finished: trio.Event = field(default_factory=trio.Event)
    pending: list[Update] = field(default_factory=list)
    """Updates read (and in `seen`) but given back, unhandled: `next` returns them first."""

    async def next(self) -> Update:
        if self.pending:
            return self.pending.pop(0)
        update = await self.updates.receive()
        self.seen.append(update)
        return update

    def give_back(self, updates: list[Update]) -> None:
        """Updates read but not handled (the rest of a batch): the next reader gets them."""
        self.pending[:0] = updates

    async def until(self, wanted: Callable[[Update], bool], timeout: float = WAIT) -> Update:
        """The next update (after those already read) for which `wanted` is true."""
        with trio.fail_after(timeout):
            while True:
                update = await self.next()
                if wanted(update):
                    return update

    async def until_type(self, kind: type[U], timeout: float = WAIT) -> U:
        update = await self.until(lambda u: isinstance(u, kind), timeout)
        assert isinstance(update, kind)
        return update

    async def until_state(self, state: str, timeout: float = WAIT) -> ConnectionChanged:
        update = await self.until(
            lambda u: isinstance(u, ConnectionChanged) and u.state == state, timeout)
        assert isinstance(update, ConnectionChanged)
        return update

    def send(self, command: Command) -> None:
        self.commands.send_nowait(command)

    async def close(self) -> ConnectionChanged:
        self.send(CloseLink())
        closed = await self.until_state("closed")
        with trio.fail_after(WAIT):
            await self.finished.wait()
        return closed

    def states(self) -> list[str]:
        return [u.state for u in self.seen if isinstance(u, ConnectionChanged)]


async def start_link(
    nursery: trio.Nursery,
    config: LinkConfig,
    wrap: Callable[[trio.abc.Stream], CuttableStream] = CuttableStream,
    kill: trio.CancelScope | None = None,
) -> LinkHarness:
    """`run_link(config)` in `nursery`, through streams the test can cut (`wrap` makes each
    connection's stream: tests/tamper.py's dishonest host, for instance). Cancelling `kill`
    ends it as a killed process would: no bye, the host sees the socket die."""
    commands_in, commands_out = trio.open_memory_channel[Command](math.inf)
    updates_in, updates_out = trio.open_memory_channel[Update](math.inf)
    harness = LinkHarness(commands_in, updates_out)

    async def connector(config: LinkConfig, seen_before: bytes | None) -> trio.abc.Stream:
        stream = wrap(await open_stream(config, seen_before))
        harness.streams.append(stream)
        return stream

    async def run() -> None:
        with kill or trio.CancelScope():
            harness.session = await run_link(config, commands_out, updates_in,
                                             connector=connector)
        harness.finished.set()

    nursery.start_soon(run)
    return harness


def choose(legal: tuple[Action, ...]) -> Action | None:
    """A simple player: play the first playable card, else pick a colour, accept, draw, pass."""
    for kind in (ChooseColor, Play, Accept, Draw, Pass, CallUno):
        for action in legal:
            if isinstance(action, kind):
                return action
    return None


async def play_until(harness: LinkHarness, done: Callable[[Update], bool],
                     timeout: float = 60.0, *, current: Update | None = None,
                     chooser: Callable[[tuple[Action, ...]], Action | None] = choose,
                     rematch: bool = False) -> Update:
    """Answer every decision with `choose` until an update satisfies `done`. A decision is
    taken on the newest legal list of what has arrived, once per decision (a refusal allows one
    more try), so the player never floods the host. `current`: an update already read whose
    legal actions are still to be answered; `chooser` picks the action (`choose` by default);
    `rematch`: r on each score screen, a rematch (the table waits for its players' answers,
    [UNO-8-11]), for a test that plays match after match until something comes."""
    acted: tuple[Action, ...] = ()
    latest: Snapshot | GameEvent | None = None  # the newest legal list that arrived
    retried: Snapshot | GameEvent | None = None
    with trio.fail_after(timeout):
        while True:
            if current is not None:
                batch, current = [current], None
            else:
                batch = [await harness.next(), *_drain(harness)]
            for index, update in enumerate(batch):
                if done(update):
                    # The rest of the batch is still to be answered (the legal actions of our
                    # turn may come right after what we waited for): the next caller gets it.
                    harness.give_back(batch[index + 1:])
                    return update
            if rematch and any(isinstance(u, GameEvent) and isinstance(u.event, MatchEnded)
                               for u in batch):
                harness.send(SetReady(True))
            if any(isinstance(u, Refused | ConnectionChanged) for u in batch):
                acted = ()  # refused, or sent on a connection that broke: decide again
            game = [u for u in batch if isinstance(u, Snapshot | GameEvent)]
            if game:
                latest = game[-1]
            elif not acted and latest is not None and latest is not retried:
                game = [retried := latest]  # a refusal alone: decide again, once per list
            else:
                continue
            if any(not _decisions(u.legal) for u in game):
                acted = ()  # our decision ended in between: the same list later is a new one
            decisions = _decisions(game[-1].legal)
            action = chooser(decisions)
            if action is not None and decisions != acted:
                acted = decisions
                harness.send(action)


def _decisions(legal: tuple[Action, ...]) -> tuple[Action, ...]:
    return tuple(a for a in legal if not isinstance(a, Catch))


def _drain(harness: LinkHarness) -> list[Update]:
    """What already arrived, without waiting (what was given back first)."""
    out, harness.pending = harness.pending, []
    while True:
        try:
            update = harness.updates.receive_nowait()
        except trio.WouldBlock:
            return out
        harness.seen.append(update)
        out.append(update)
