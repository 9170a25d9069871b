"""End to end over loopback: network bots play whole matches against the host."""

from __future__ import annotations

import trio
import trio.testing

from client import netbot
from host.registry import Registry
from host.server import HostServer, ServerConfig
from host.settings import BENCHMARK_LIMITS, FAST_TIMINGS
from host.table import Table, TableSettings
from unonet.rules import RuleSet


async def start_host(
    nursery: trio.Nursery, settings: TableSettings, bots: int = 0
) -> tuple[HostServer, Table, trio.SocketListener]:
    registry = Registry(FAST_TIMINGS)
    table = registry.create_table(settings)
    for _ in range(bots):
        table.add_bot()
    # Bots here play without a think delay, so the rate limit is raised for them.
    server = HostServer(registry, ServerConfig(bind="127.0.0.1", port=0,
                                               limits=BENCHMARK_LIMITS))
    listeners = await nursery.start(server.serve)
    return server, table, listeners[0]


async def test_network_bots_play_a_whole_match_with_correct_scores(
    nursery: trio.Nursery,
) -> None:
    settings = TableSettings("e2e", RuleSet(target=200), headless=True, target_seats=3,
                             timings=FAST_TIMINGS)
    _, table, listener = await start_host(nursery, settings, bots=1)
    results: dict[str, netbot.BotResult] = {}

    async def one(name: str) -> None:
        stream = await trio.testing.open_stream_to_socket_listener(listener)
        results[name] = await netbot.play(stream, name=name, table=0, think=0)

    with trio.fail_after(30):
        async with trio.open_nursery() as bots:
            bots.start_soon(one, "alpha")
            bots.start_soon(one, "beta")
    match = table.finished[0] if table.finished else table.game.match  # type: ignore[union-attr]
    assert match.winner is not None
    for result in results.values():
        assert len(result.matches) == 1
        assert result.matches[0].scores == tuple(match.scores)
        assert result.matches[0].winner == match.winner
        assert result.violations == []
        assert result.intents > 0
    assert max(match.scores) >= 200
