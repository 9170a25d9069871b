"""The load generator's rate (benchmarks/host_load.py Pacer): benchmarks/host.py compares the
journalling host with the same host at the rate it reached, so the rate must be what is asked,
and a host that falls behind must not be sent a burst to catch up with."""

from __future__ import annotations

import pytest
import trio
import trio.testing

from benchmarks.host_load import Pacer


async def test_slots_are_spaced_one_interval_apart_whoever_asks(
    autojump_clock: trio.testing.MockClock,
) -> None:
    pacer = Pacer(rate=100.0)
    taken: list[float] = []
    start = trio.current_time()

    async def player() -> None:
        for _ in range(5):
            await pacer.slot()
            taken.append(trio.current_time() - start)

    async with trio.open_nursery() as nursery:
        for _ in range(4):
            nursery.start_soon(player)
    assert len(taken) == 20
    assert taken == pytest.approx([index / 100.0 for index in range(20)])


async def test_a_pacer_left_idle_gives_the_next_slot_at_once_and_no_burst(
    autojump_clock: trio.testing.MockClock,
) -> None:
    pacer = Pacer(rate=10.0)
    await pacer.slot()
    await trio.sleep(5.0)  # fifty slots went by unused
    start = trio.current_time()
    await pacer.slot()
    await pacer.slot()
    assert trio.current_time() - start == pytest.approx(0.1)


def test_a_rate_must_be_positive() -> None:
    with pytest.raises(ValueError, match="positive"):
        Pacer(0.0)
