"""The fan-out anchor of benchmarks/host.py works as its figures say: a group of four takes
turns, every request is answered to its sender, and each turn reaches the other three."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable

import trio

from benchmarks import host_load
from benchmarks.host_load import Stats


async def members_play(members: int, until: Callable[[Stats], Awaitable[None]]) -> Stats:
    """`members` clients of one group of four against a fan-out server, until `until`
    returns; what they saw."""
    stats = Stats(counting=True)
    async with trio.open_nursery() as nursery:
        port = await nursery.start(host_load.fanout_server, 4)
        for seat in range(members):
            nursery.start_soon(host_load.run_fanout_client, port, 7, seat, stats, (0.0, 0.0),
                               random.Random(seat))
        await until(stats)
        nursery.cancel_scope.cancel()
    return stats


async def test_a_group_of_four_takes_turns_and_every_request_is_answered() -> None:
    async def forty_answers(stats: Stats) -> None:
        with trio.fail_after(20):
            while len(stats.fanout_latencies) < 40:
                await trio.sleep(0.01)

    stats = await members_play(4, forty_answers)
    assert all(latency > 0 for latency in stats.fanout_latencies)


async def test_a_group_short_of_four_never_starts() -> None:
    async def a_while(stats: Stats) -> None:
        await trio.sleep(0.5)

    assert (await members_play(3, a_while)).fanout_latencies == []
