"""benchmarks/host.py measures the host as `unonet host` runs it: its tables journal every
action (unless --no-journal), and it says on which file system."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest
import trio

from benchmarks import host as bench
from benchmarks import host_load
from benchmarks.host_load import LightPlayer, Stats


async def twenty_actions(journal_dir: Path | None) -> Stats:
    """The benchmark's host with one table, journalling into `journal_dir` if given, and four
    light players, until 20 of their intents were accepted."""
    stats = Stats(counting=True)
    async with trio.open_nursery() as nursery:
        port = await nursery.start(bench.serve, 1, 60.0, journal_dir)
        with trio.fail_after(20):
            for seat in range(bench.SEATS):
                player = LightPlayer(0, f"p{seat}", stats, random.Random(seat))
                nursery.start_soon(host_load.run_player, port, player, (0.0, 0.0))
            while stats.accepted < 20:
                await trio.sleep(0.05)
        nursery.cancel_scope.cancel()
    return stats


async def test_the_benchmarks_host_journals_every_action_of_its_tables(tmp_path: Path) -> None:
    await twenty_actions(tmp_path)
    found = sorted(tmp_path.glob("*.jsonl"))
    assert found, "no journal was written"
    lines = [json.loads(line) for line in found[0].read_text().splitlines()]
    assert lines[0]["kind"] == "header"
    assert sum(1 for line in lines if line["kind"] == "action") >= 20


def test_the_file_system_of_a_folder_is_named() -> None:
    assert bench.file_system(Path("/proc")).startswith("proc on ")
    assert bench.file_system(Path("/")) != "file system unknown"


async def test_the_benchmarks_host_says_where_its_cpu_went_when_asked() -> None:
    """The serve process times its tables' work and its routing (host_breakdown), and the
    two are a part of its CPU, never more (timed by the thread's CPU clock: the wall clock
    the benchmark uses counts the time another process had the core); the methods are put
    back after it."""
    import time

    from benchmarks import host_breakdown
    from host.connection import ClientConnection

    original = ClientConnection._dispatch_all
    with host_breakdown.instrumented(clock=time.thread_time) as found:
        assert ClientConnection._dispatch_all is not original
        before = found.snapshot()
        stats = await twenty_actions(None)
        after = found.snapshot()
    assert ClientConnection._dispatch_all is original
    parts = host_breakdown.per_action(before, after, stats.accepted)
    assert parts["tables"] > 0 and parts["routing"] > 0
    assert parts["rest"] >= 0  # the parts are within the process's CPU


def test_the_saturate_phase_measures_each_server_alone_in_a_window_of_its_own(
    tmp_path: Path,
) -> None:
    """The host's window has no echo, fan-out or durable echo requests in it (they took the
    host's core and caches when they ran beside it), and each anchor's cost comes from a
    window where it ran: its requests were served there. Seen in CI: with half a second of
    warm-up the fan-out's clients were at times not yet sending in its window (its cost then
    read as its idle CPU), and a starved echo's CPU, in the kernel's 10 ms ticks, read 0;
    the benchmark's own warm-ups are seconds long, and this one is 1.5 s."""
    found = bench.saturate(1, 1, 1.5, 1.0, None, tmp_path)
    assert found["actions"] > 0
    assert math.isnan(found["echo_p50"]) and found["fanout_requests"] == 0
    assert found["durable_requests"] == 0
    anchors = found["anchor_requests"]
    assert anchors["echo"] > 0 and anchors["fanout"] > 0 and anchors["durable"] > 0, anchors
    assert found["echo_us_per_request"] >= 0 and found["fanout_us_per_request"] >= 0
    assert found["durable_us_per_request"] is not None and found["durable_us_per_request"] >= 0
    # the same host without its journal, its players held to the rate the journalling one
    # reached (benchmarks/host_load.Pacer): never faster than asked
    assert found["level_host_us_per_action"] > 0
    assert 0 < found["level_actions_per_s"] <= found["actions_per_s"] * 1.2 + 5


def test_the_breakdown_says_how_many_actions_each_journal_commit_carried() -> None:
    """With the served host's group commit set, a snapshot counts its commits, and the parts
    say how many actions one commit carried; with no journal, none."""
    from benchmarks import host_breakdown
    from host.group_commit import GroupCommit

    found = host_breakdown.Breakdown()
    assert found.snapshot()["commits"] == 0
    found.group = GroupCommit()
    found.group.commits = 3
    before = found.snapshot()
    found.group.commits = 7
    after = found.snapshot()
    assert host_breakdown.per_action(before, after, 20)["actions_per_commit"] == 5.0
    assert host_breakdown.per_action(before, before, 20)["actions_per_commit"] == 0.0


def test_a_routing_inside_a_dispatch_is_counted_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A read that both acts and is answered routes inside its dispatch: the parts must not
    count that routing twice, or they would add up to more CPU than was spent."""
    import time

    from benchmarks import host_breakdown
    from host.connection import ClientConnection
    from host.server import HostServer

    def burn(seconds: float) -> None:
        until = time.thread_time() + seconds
        while time.thread_time() < until:
            pass

    def route(_server: object) -> None:
        burn(0.02)

    def dispatch(_connection: object, *_: object) -> None:
        burn(0.02)
        HostServer._route(None)  # type: ignore[arg-type]

    monkeypatch.setattr(HostServer, "_route", route)
    monkeypatch.setattr(ClientConnection, "_dispatch_all", dispatch)
    with host_breakdown.instrumented(clock=time.thread_time) as found:
        start = time.perf_counter()  # the clock the parts are read on
        ClientConnection._dispatch_all(None, [], b"")  # type: ignore[arg-type]
        spent = time.perf_counter() - start
    assert found.routing >= 0.02 and found.tables >= 0.02
    assert found.tables + found.routing <= spent
