"""End to end over loopback: network bots play whole matches against the host."""

from __future__ import annotations

from typing import Any

import pytest
import trio
import trio.testing
from client_net import played_match

from client import netbot
from host.registry import Registry
from host.server import HostServer, ServerConfig
from host.settings import BENCHMARK_LIMITS, FAST_TIMINGS
from host.table import Table, TableSettings
from protocol.trust.seed_exchange import SeedExchange
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


async def play_bots(
    listener: trio.SocketListener, verify: bool, names: tuple[str, ...] = ("alpha", "beta")
) -> dict[str, netbot.BotResult]:
    """Network bots named `names` join table 0 and play until they leave; their results."""
    results: dict[str, netbot.BotResult] = {}

    async def one(name: str) -> None:
        stream = await trio.testing.open_stream_to_socket_listener(listener)
        results[name] = await netbot.play(stream, name=name, table=0, think=0, verify=verify)

    with trio.fail_after(30):
        async with trio.open_nursery() as bots:
            for name in names:
                bots.start_soon(one, name)
    return results


async def test_network_bots_play_a_whole_match_with_correct_scores(
    nursery: trio.Nursery,
) -> None:
    settings = TableSettings("e2e", RuleSet(target=200), headless=True, target_seats=3,
                             timings=FAST_TIMINGS)
    _, table, listener = await start_host(nursery, settings, bots=1)
    results = await play_bots(listener, verify=True)
    match = played_match(table)
    assert match.winner is not None
    for result in results.values():
        assert len(result.matches) == 1
        assert result.matches[0].scores == tuple(match.scores)
        assert result.matches[0].winner == match.winner
        assert result.violations == []
        assert result.intents > 0
    assert max(match.scores) >= 200


async def test_bots_that_verify_nothing_still_contribute_their_seeds(
    nursery: trio.Nursery, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """verify=False (the benchmark's load generator) checks no card, yet seeds every round."""
    commits: list[tuple[int, int]] = []  # (round, seat) of every seed_commit the host took
    original = SeedExchange.commit

    def commit(self: SeedExchange, seat: int, message: Any) -> Any:
        problem = original(self, seat, message)
        if problem is None:
            commits.append((self.round_no, seat))
        return problem

    monkeypatch.setattr(SeedExchange, "commit", commit)
    settings = TableSettings("lean", RuleSet(target=100), headless=True, target_seats=2,
                             timings=FAST_TIMINGS)
    _, table, listener = await start_host(nursery, settings)
    results = await play_bots(listener, verify=False)
    match = played_match(table)
    assert match.winner is not None
    first_match = commits[:2 * match.round_no]  # a next match may have begun as they left
    assert sorted(first_match) == [(n, seat) for n in range(1, match.round_no + 1)
                                   for seat in (0, 1)]  # both seats, every round
    for result in results.values():
        assert len(result.matches) == 1
        assert result.violations == []  # nothing checked, nothing reported
