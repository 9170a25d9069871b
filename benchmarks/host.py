"""Load benchmark of the host: many tables of four network bots on loopback, plaintext.

    .venv/bin/python benchmarks/host.py [--tables 50] [--seconds 10] [--workers 2]

The host runs in its own process (so the bots' CPU is not counted against it), started from
this file with `serve`; a raw trio echo server runs in another (`echo`). The bots run in
`--workers` processes (`bots`), each with a share of the tables, so that the load generator
can use every core the host does not. They are client/netbot.py's network bots, no think time
(the host's rate limit is raised through BENCHMARK_LIMITS, a setting), as load generators:

- they DO speak the whole protocol as any client does (every frame decoded and checked
  against the catalogue and the encoding profile, sequence numbers, request ids), fold every
  event into their view and decide from it, and contribute their seed to every round;
- they do NOT verify the host (`verify=False`, an option of the bot: no card opened against
  its commitment, no deck commitment or round audit checked), so no trust violation can be
  reported; the tests run the verifying bots.

This process measures, over a window after a warm-up:

- actions/s: intents the host accepted, per second of wall time, and per second of host CPU;
- p50/p99 latency from an intent leaving a bot to its `accepted` (or refusal) arriving;
- the framed echo round trip of a similarly sized frame, idle and during the load;
- host memory per table: (RSS while every table plays - RSS with no table) / tables.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from functools import partial
from pathlib import Path

import trio

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from client import netbot  # noqa: E402
from host.registry import Registry  # noqa: E402
from host.server import HostServer, ServerConfig  # noqa: E402
from host.settings import BENCHMARK_LIMITS, FAST_TIMINGS  # noqa: E402
from host.table import TableSettings  # noqa: E402
from protocol.client_session import RequestAccepted, SessionEvent  # noqa: E402
from protocol.frames import encode_frame  # noqa: E402
from protocol.game_codec import encode_action  # noqa: E402
from unonet.actions import Play  # noqa: E402
from unonet.cards import Color  # noqa: E402

SEATS = 4
ECHO_FRAME = encode_frame({"t": "intent", "id": 1234, "action": encode_action(Play(57, Color.RED))})
"""The same size as an intent a bot sends (a play with a colour), length prefix included."""


# -- the child processes ---------------------------------------------------------------------


async def serve_for(tables: int, seconds: float | None) -> None:
    with trio.move_on_after(seconds if seconds is not None else float("inf")):
        await serve(tables)


async def serve(tables: int) -> None:
    registry = Registry(FAST_TIMINGS)
    for number in range(tables):
        registry.create_table(TableSettings(f"bench{number}", capacity=SEATS, headless=True,
                                            target_seats=SEATS, timings=FAST_TIMINGS))
    server = HostServer(registry, ServerConfig(bind="127.0.0.1", port=0,
                                               limits=BENCHMARK_LIMITS))
    async with trio.open_nursery() as nursery:
        listeners = await nursery.start(server.serve)
        print(f"port {listeners[0].socket.getsockname()[1]}", flush=True)


async def echo_server() -> None:
    async def handle(stream: trio.SocketStream) -> None:
        buffer = bytearray()
        try:
            async for data in stream:
                buffer += data
                while len(buffer) >= 4:
                    end = 4 + int.from_bytes(buffer[:4], "big")
                    if len(buffer) < end:
                        break
                    await stream.send_all(bytes(buffer[:end]))
                    del buffer[:end]
        except trio.BrokenResourceError:
            pass

    async with trio.open_nursery() as nursery:
        listeners = await nursery.start(partial(trio.serve_tcp, handle, 0, host="127.0.0.1"))
        print(f"port {listeners[0].socket.getsockname()[1]}", flush=True)


PROFILE = os.environ.get("UNONET_BENCH_PROFILE")
"""A file name: the host is then profiled (cProfile) for the run and writes its stats there."""


def spawn(*args: str) -> tuple[subprocess.Popen[bytes], int]:
    process = subprocess.Popen([sys.executable, __file__, *args], stdout=subprocess.PIPE,
                               cwd=ROOT)
    assert process.stdout is not None
    line = process.stdout.readline().decode()
    if not line.startswith("port "):
        process.kill()
        raise RuntimeError(f"{args[0]} did not start: {line!r}")
    return process, int(line.split()[1])


def rss(pid: int) -> int:
    """Resident memory of a process, in bytes (Linux /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError("no VmRSS")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# -- measuring ---------------------------------------------------------------------------------


async def echo_rtts(port: int, count: int) -> list[float]:
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    times = []
    for _ in range(count):
        started = trio.current_time()
        await stream.send_all(ECHO_FRAME)
        got = 0
        while got < len(ECHO_FRAME):
            got += len(await stream.receive_some(65_536))
        times.append(trio.current_time() - started)
    await stream.aclose()
    return times


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


class Counter:
    def __init__(self) -> None:
        self.accepted = 0

    def __call__(self, received: Sequence[SessionEvent]) -> None:
        for item in received:
            if isinstance(item, RequestAccepted) and item.request["t"] == "intent":
                self.accepted += 1


async def run_bots(port: int, first: int, count: int, start: float, seconds: float) -> None:
    """A worker: the bots of tables first..first+count-1 play from now on; the window is
    [start, start + seconds] in wall-clock time (time.time(), shared with the other
    processes). Prints what it saw in the window as one JSON line."""
    counter = Counter()
    results: list[netbot.BotResult] = []

    async def bot(table: int, seat: int) -> None:
        stream = await trio.open_tcp_stream("127.0.0.1", port)
        result = netbot.BotResult()
        results.append(result)
        await netbot.play(stream, name=f"b{table}-{seat}", table=table, think=0,
                          reaction=(0.0, 0.0),  # no human reaction time: load, not play
                          matches=10**6, observe=counter, result=result, verify=False)

    async with trio.open_nursery() as nursery:
        for table in range(first, first + count):
            for seat in range(SEATS):
                nursery.start_soon(bot, table, seat)
        await trio.sleep(max(0.0, start - time.time()))
        accepted0, cpu0 = counter.accepted, cpu_seconds(os.getpid())
        marks = [len(r.latencies) for r in results]
        await trio.sleep(max(0.0, start + seconds - time.time()))
        accepted1, cpu1 = counter.accepted, cpu_seconds(os.getpid())
        latencies = [x for r, m in zip(results, marks, strict=True) for x in r.latencies[m:]]
        nursery.cancel_scope.cancel()
    print(json.dumps({"accepted": accepted1 - accepted0, "cpu": cpu1 - cpu0,
                      "latencies": latencies}), flush=True)


async def bench(tables: int, seconds: float, warmup: float, workers: int) -> dict[str, float]:
    echo, echo_port = spawn("echo")
    extra = ("--profile", PROFILE, "--seconds", str(warmup + seconds + 1)) if PROFILE else ()
    host, port = spawn("serve", "--tables", str(tables), *extra)
    bots: list[subprocess.Popen[bytes]] = []
    try:
        idle_echo = await echo_rtts(echo_port, 2000)
        baseline = rss(host.pid)
        start = time.time() + warmup
        workers = max(1, min(workers, tables))
        for index in range(workers):
            first, last = tables * index // workers, tables * (index + 1) // workers
            bots.append(subprocess.Popen(
                [sys.executable, __file__, "bots", "--port", str(port), "--first", str(first),
                 "--tables", str(last - first), "--start", repr(start),
                 "--seconds", str(seconds)], stdout=subprocess.PIPE, cwd=ROOT))
        await trio.sleep(max(0.0, start - time.time()))
        cpu0, t0 = cpu_seconds(host.pid), time.time()
        loaded_echo = await echo_rtts(echo_port, 200)
        await trio.sleep(max(0.0, start + seconds - time.time()))
        cpu1, t1 = cpu_seconds(host.pid), time.time()
        playing = rss(host.pid)
        found = []
        for process in bots:
            out, _ = await trio.to_thread.run_sync(process.communicate)
            found.append(json.loads(out.decode().strip().splitlines()[-1]))
    finally:
        if PROFILE:
            host.wait(30)
        for process in (*bots, host, echo):
            if process.poll() is None:
                process.kill()
    window = start + seconds - start
    actions = sum(f["accepted"] for f in found)
    latencies = [x for f in found for x in f["latencies"]]
    return {
        "tables": tables, "workers": workers, "actions": actions, "seconds": window,
        "actions_per_s": actions / window,
        "host_cpu_share": (cpu1 - cpu0) / (t1 - t0),
        "bots_cpu_share": sum(f["cpu"] for f in found) / window,
        "actions_per_host_cpu_s": actions / max(1e-9, cpu1 - cpu0),
        "latency_p50": percentile(latencies, 0.5), "latency_p99": percentile(latencies, 0.99),
        "echo_idle_p50": statistics.median(idle_echo),
        "echo_loaded_p50": statistics.median(loaded_echo),
        "rss_baseline": baseline, "rss_playing": playing,
        "per_table": (playing - baseline) / tables,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", nargs="?", default="run",
                        choices=("run", "serve", "echo", "bots"))
    parser.add_argument("--workers", type=int, default=2,
                        help="processes the bots are spread over (default 2)")
    parser.add_argument("--port", type=int, help="bots: the host's port")
    parser.add_argument("--first", type=int, default=0, help="bots: the first table")
    parser.add_argument("--start", type=float, help="bots: the window's start (time.time())")
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--profile", metavar="FILE",
                        help="serve: run under cProfile for --seconds, then write the stats")
    args = parser.parse_args(argv)
    if args.mode == "serve":
        if args.profile is None:
            trio.run(serve, args.tables)
            return 0
        import cProfile

        profiler = cProfile.Profile()
        profiler.enable()
        trio.run(serve_for, args.tables, args.seconds)
        profiler.disable()
        profiler.dump_stats(args.profile)
        return 0
    if args.mode == "echo":
        trio.run(echo_server)
        return 0
    if args.mode == "bots":
        trio.run(run_bots, args.port, args.first, args.tables, args.start, args.seconds)
        return 0
    print(f"unonet host benchmark: {args.tables} tables x {SEATS} network bots, loopback, "
          f"plaintext, {args.seconds:.0f} s after {args.warmup:.0f} s warm-up; "
          f"{os.cpu_count()} CPUs shared by the host and the bots", flush=True)
    print(f"bots: client/netbot.py in {args.workers} worker processes, no think time; they "
          "decode, check and fold every frame and contribute their seeds, but do NOT verify "
          "the host's cards, commitments or audits (verify=False)", flush=True)
    for tables in (args.tables, 1):
        found = trio.run(bench, tables, args.seconds, args.warmup, args.workers)
        report(found)
    return 0


def report(found: dict[str, float]) -> None:
    ms = 1000.0
    echo = found["echo_idle_p50"]
    print(f"\n-- {found['tables']:.0f} table(s) --")
    print(f"actions/s through the host     {found['actions_per_s']:8.0f}   "
          f"(target >= 2000 with 50 tables)")
    print(f"host CPU in use                 {found['host_cpu_share'] * 100:7.0f} %   "
          f"bots' CPU {found['bots_cpu_share'] * 100:.0f} % ({found['workers']:.0f} "
          f"process(es))")
    print(f"actions per host CPU-second    {found['actions_per_host_cpu_s']:8.0f}   "
          f"(the host's capacity on one core)")
    print(f"intent -> answer  p50 / p99    {found['latency_p50'] * ms:8.3f} / "
          f"{found['latency_p99'] * ms:.3f} ms")
    print(f"framed echo RTT   p50 idle     {echo * ms:8.3f} ms   "
          f"(during the load {found['echo_loaded_p50'] * ms:.3f} ms)")
    print(f"p50 latency / echo RTT         {found['latency_p50'] / echo:8.1f} x   (target <= 2)")
    print(f"host memory per table          {found['per_table'] / 1024:8.0f} KiB   "
          f"(RSS {found['rss_baseline'] / 2**20:.1f} -> {found['rss_playing'] / 2**20:.1f} MiB;"
          f" target < 1024 KiB)")


if __name__ == "__main__":
    sys.exit(main())
