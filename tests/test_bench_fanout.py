"""The fan-out anchor of benchmarks/host.py works as its figures say: a group of four takes
turns, every request is answered to its sender, and each turn reaches the other three."""

from __future__ import annotations

import random

import trio

from benchmarks import host_load
from benchmarks.host_load import Stats


async def test_a_group_of_four_takes_turns_and_every_request_is_answered() -> None:
    stats = Stats(counting=True)
    async with trio.open_nursery() as nursery:
        port = await nursery.start(host_load.fanout_server, 4)
        for seat in range(4):
            nursery.start_soon(host_load.run_fanout_client, port, 7, seat, stats, (0.0, 0.0),
                               random.Random(seat))
        with trio.fail_after(20):
            while len(stats.fanout_latencies) < 40:
                await trio.sleep(0.01)
        nursery.cancel_scope.cancel()
    assert all(latency > 0 for latency in stats.fanout_latencies)


async def test_a_group_short_of_four_never_starts() -> None:
    stats = Stats(counting=True)
    async with trio.open_nursery() as nursery:
        port = await nursery.start(host_load.fanout_server, 4)
        for seat in range(3):
            nursery.start_soon(host_load.run_fanout_client, port, 7, seat, stats, (0.0, 0.0),
                               random.Random(seat))
        await trio.sleep(0.5)
        nursery.cancel_scope.cancel()
    assert stats.fanout_latencies == []
