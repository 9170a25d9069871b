"""Host benchmark: CPU per action, round trips beside a framed echo, many paced clients.

    .venv/bin/python benchmarks/host.py                  # 5 repeats, the three phases
    .venv/bin/python benchmarks/host.py --repeats 7 --clients 1000 --tables 20

Each repeat starts a fresh host (`serve`), a framed msgpack echo server (`echo`) and a fan-out
server (`fanout`), all pinned to core 0, and load workers (`worker`, benchmarks/host_load.py)
pinned to the other cores where the machine has at least two (each process prints the cores it
had). The echo is the anchor the targets are set against: a request read and written back. The
fan-out is a second anchor, the I/O of one action without the game: clients in groups of four
take turns, and each request is answered to its sender and announced to the other three, one
frame and one write each, read and written as the host does it. Three phases per repeat:

- saturate: windows one after the other, each with one server busy: `--tables` tables of
  four light players with no think time; then four echo clients back to back; then two
  fan-out groups back to back; then, when the tables journal, four clients of the durable
  echo (below) back to back. Host CPU per action = the host process's CPU time over its
  window / the intents it accepted in it (the kernel's share from /proc is printed beside it);
  the echo's and the fan-out's CPU per request the same, each in its own window. The host is
  as busy as the load can make it, alone on its core as a club's dedicated host would be, so
  this is its cost per action with batching at its best (how busy it was is printed).
- one table: a friends' game, the host otherwise idle: one table of four light players, each
  decision after 20-40 ms (so the host answers one action at a time and waits between them,
  as it does at a person's pace, but with some 250 actions in a window of 8 s instead of 20),
  one echo client, one fan-out group and (when the tables journal) one durable echo client at
  the same pace.
- paced: `--clients` light players (four a table) at a human pace (a decision after 0.25-0.5 s,
  so each sends an action every 1-2 s), `--echo-clients` echo clients at one frame every
  1-2 s, and as many fan-out clients (groups of four at the players' pace), in the same worker
  processes. Round trips are measured the same way for all three: from the write of the frame
  to the arrival of its answer (`accepted`, or the frame sent back).

The host's tables journal every action as `unonet host`'s do (host/journal.py: a line written
and flushed at once, and on disk before the action's events go out: the server's group commit,
one fsync or syncfs for every journal written in a pass of its event loop, host/group_commit.py),
into a fresh folder per repeat under
`--journal-dir` (default: the system's temporary folder; its file system is printed, since
an fsync costs what that file system makes it cost: nothing on a tmpfs, a disk's time on a
disk). `--no-journal` measures the host without it, which no real host runs: what the
journal costs. When the tables journal, the paced phase also runs a durable echo (`echo
--durable FILE`, its file in the same folder) with as many clients as the echo, at its pace:
the echo, each request appended to its file and fsync'd before its answer, one fsync per pass
of its event loop as the host's group commit. The plain echo keeps nothing, so it is not like
with like for a host that keeps every action; the durable echo is, and the round trips are
printed beside both. The journalling host is not saturated (its answers wait for the commit of
their pass, and its load waits for them), and on this machine a host that waits between
actions costs more per action than a busy one: the saturate phase therefore also runs the same
host without its journal, its players paced (host_load.Pacer) to the actions a second the
journalling host reached in that repeat, and prints the ratio of the two at one rate: what the
journal costs, like with like.

`--against TREE` pairs the saturate phase: the host of another source tree (an earlier commit,
say) runs beside this one on the same core, loaded by its own workers exactly as this one is,
over the same window, and the ratio of their CPU per action is printed per pair: a machine
whose speed drifts by tens of percent within the hour compares like with like only that way.

Figures are printed per repeat, then the median and the range (min-max) over the repeats.
What runs is what is installed (`pip install .`), else this source tree: one build, pure
Python, the one a user gets; where it was imported from is printed. The machine's load
average is printed before and after: other processes on the box inflate every figure here, the
echo's too.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

import trio

ROOT = Path(__file__).resolve().parent.parent
if sys.path and Path(sys.path[0] or ".").resolve() == ROOT / "benchmarks":
    del sys.path[0]  # this file's folder: its name, host.py, would shadow the host package
sys.path.append(str(ROOT))  # after site-packages: an installed build runs, else this tree

from benchmarks import host_breakdown, host_load  # noqa: E402
from host.collector import tuned_collector  # noqa: E402
from host.registry import Registry  # noqa: E402
from host.server import HostServer, ServerConfig  # noqa: E402
from host.settings import FAST_TIMINGS, ConnectionLimits  # noqa: E402
from host.table import TableSettings  # noqa: E402

SEATS = 4
SERVER_CORE = 0
"""The core the host and the echo server share: the anchor runs where the host runs."""

LIMITS = ConnectionLimits(rate=1_000_000.0, burst=1_000_000, max_connections=8192,
                          per_address=8192, pending_pool=8192, resume_reserve=8)
"""Every client comes from 127.0.0.1 at once: the per-address share, the handshake pool and
the rate limit would refuse the load generator (SPEC 13's defaults are for strangers)."""

PACED_THINK = (0.25, 0.5)
"""A light player's think time before each decision in the paced phase: four seats take turns,
so each player sends an action every 1-2 s, a person's pace."""

ECHO_THINK = (1.0, 2.0)
"""An echo client's pause between frames in the paced phase: the players' pace."""

TABLE_THINK = (0.02, 0.04)
"""A player's think time before each decision at the one table, and its anchors' pause between
frames: one action at a time with the host idle between them, as at a person's pace, but
enough of them in a window for a p99 (at a person's pace a table makes 2-4 actions a second)."""


# -- the child processes ---------------------------------------------------------------------


def pin(cores: set[int]) -> list[int]:
    """Run on `cores` (those of them the machine has); the cores this process then has."""
    available = os.sched_getaffinity(0)
    wanted = cores & available
    if wanted:
        os.sched_setaffinity(0, wanted)
    return sorted(os.sched_getaffinity(0))


def server_core() -> set[int]:
    return {min(os.sched_getaffinity(0))}


def load_cores() -> set[int]:
    """Every core but the server's where there are two or more, else the one there is."""
    cores = os.sched_getaffinity(0)
    rest = cores - server_core()
    return rest or cores


PROFILE = os.environ.get("UNONET_BENCH_PROFILE")
"""A file name: the host of the first phase then runs under cProfile for its warm-up and window
(the figures of that phase are the profiled host's) and writes its stats there."""


async def serve(tables: int, seconds: float | None = None, journal_dir: Path | None = None,
                journal_sync: int = 0,
                *, task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED) -> None:
    """Serve `tables` headless tables, each journalling its matches into `journal_dir` (as
    `unonet host` does into its config folder) if given, synced as `unonet host
    --journal-sync journal_sync` syncs them; for `seconds` if given (a profiled run), else
    until killed. Its port is printed (JSON, with how it runs) and started with."""
    with trio.move_on_after(math.inf if seconds is None else seconds):
        await _serve(tables, journal_dir, journal_sync, task_status)


async def _serve(tables: int, journal_dir: Path | None, journal_sync: int,
                 task_status: trio.TaskStatus[int]) -> None:
    registry = Registry(FAST_TIMINGS)
    registry.journals.interval = journal_sync / 1000 if journal_sync else None
    for number in range(tables):
        registry.create_table(TableSettings(f"bench{number}", capacity=SEATS, headless=True,
                                            target_seats=SEATS, timings=FAST_TIMINGS,
                                            journal_dir=journal_dir))
    server = HostServer(registry, ServerConfig(bind="127.0.0.1", port=0, limits=LIMITS))
    with tuned_collector(), host_breakdown.instrumented() as breakdown:
        breakdown.group = registry.journals
        async with trio.open_nursery() as nursery:
            listeners = await nursery.start(server.serve)
            port = listeners[0].socket.getsockname()[1]
            nursery.start_soon(host_breakdown.report_on_signal, breakdown)
            print(json.dumps({"port": port, "affinity": sorted(os.sched_getaffinity(0))}),
                  flush=True)
            task_status.started(port)


async def echo(journal: str | None = None) -> None:
    async with trio.open_nursery() as nursery:
        port = await nursery.start(host_load.echo_server, journal)
        print(json.dumps({"port": port, "affinity": sorted(os.sched_getaffinity(0))}),
              flush=True)


async def fanout() -> None:
    async with trio.open_nursery() as nursery:
        port = await nursery.start(host_load.fanout_server, SEATS)
        print(json.dumps({"port": port, "affinity": sorted(os.sched_getaffinity(0))}),
              flush=True)


def spawn(*args: str) -> tuple[subprocess.Popen[bytes], dict[str, Any]]:
    process = subprocess.Popen([sys.executable, __file__, *args], stdout=subprocess.PIPE,
                               cwd=ROOT)
    return process, announced(process, args[0])


def announced(process: subprocess.Popen[bytes], what: str) -> dict[str, Any]:
    """The first line a child prints once it serves (JSON); it is killed if that is not it."""
    assert process.stdout is not None
    line = process.stdout.readline().decode()
    try:
        found: dict[str, Any] = json.loads(line)
    except ValueError:
        process.kill()
        raise RuntimeError(f"{what} did not start: {line!r}") from None
    return found


def breakdown(host: subprocess.Popen[bytes]) -> dict[str, float]:
    """The serve process's CPU so far, whole and in the parts host_breakdown times."""
    assert host.stdout is not None
    host.send_signal(signal.SIGUSR1)
    found: dict[str, float] = json.loads(host.stdout.readline())
    return found


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used (Linux /proc)."""
    return sum(cpu_split(pid))


def cpu_split(pid: int) -> tuple[float, float]:
    """User and system (kernel) CPU time a process has used (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


def percentile(values: Sequence[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


# -- one phase -----------------------------------------------------------------------------------


def spawn_against(tree: Path, tables: int, journal: Sequence[str] = ()
                  ) -> tuple[subprocess.Popen[bytes], dict[str, Any]]:
    """`--against`: a host served by another source tree's benchmarks/host.py, importing that
    tree (PYTHONPATH goes before site-packages and this tree); journalling as this one does
    (`journal`), if that tree's benchmark can."""
    script = tree / "benchmarks" / "host.py"
    text = script.read_text(encoding="utf-8")
    if "--journal-dir" not in text:
        journal = ()
    elif "--journal-sync" not in text:  # an older tree: it syncs every action
        journal = journal[:2]
    process = subprocess.Popen(
        [sys.executable, str(script), "serve", "--tables", str(tables), *journal],
        stdout=subprocess.PIPE, cwd=tree, env={**os.environ, "PYTHONPATH": str(tree)})
    return process, announced(process, f"the host of {tree}")


def phase(tables: int, echo_clients: int, think: tuple[float, float],
          echo_think: tuple[float, float], workers: int, warmup: float,
          seconds: float, against: Path | None = None, fanout_groups: int = 0,
          journal_root: Path | None = None, durable_clients: int = 0,
          rate: float = 0.0, journal_sync: int = 0) -> dict[str, Any]:
    """Start a host, an echo server and a fan-out server (`fanout_groups` groups of SEATS
    clients, paced as the players are), load them, measure the window; everything stopped.
    With `against`, a second host from that tree runs beside the first on the same core, with
    the same load from workers of its own, over the same window: a pair. With `journal_root`,
    the tables journal their matches into fresh folders there, removed afterwards, and
    `durable_clients` echo clients (paced as the echo's) use a durable echo whose file is
    there too: the echo, each request on disk before its answer. With `rate`, the players'
    intents are spaced to that many a second in all (host_load.Pacer), in place of `think`.
    `journal_sync`: the host's tables sync their journals as `unonet host --journal-sync`."""
    with tempfile.TemporaryDirectory(prefix="unonet-bench-journals-",
                                     dir=journal_root) as folder:
        journal = ("--journal-dir", folder, "--journal-sync", str(journal_sync)) \
            if journal_root is not None else ()
        durable = str(Path(folder) / "durable-echo") if journal_root is not None else None
        return _phase(tables, echo_clients, think, echo_think, workers, warmup, seconds,
                      against, fanout_groups, journal, durable_clients if durable else 0,
                      durable, rate)


def _phase(tables: int, echo_clients: int, think: tuple[float, float],
           echo_think: tuple[float, float], workers: int, warmup: float,
           seconds: float, against: Path | None, fanout_groups: int,
           journal: Sequence[str], durable_clients: int, durable: str | None, rate: float
           ) -> dict[str, Any]:
    profile = ("--profile", PROFILE, "--seconds", str(warmup + seconds + 1.0)) \
        if PROFILE and not os.path.exists(PROFILE) else ()
    host, started = spawn("serve", "--tables", str(tables), *journal, *profile)
    echo_server, echo_started = spawn("echo")
    fanout_server, fanout_started = spawn("fanout")
    durable_server, durable_started = spawn("echo", "--durable", durable) \
        if durable_clients and durable is not None else (None, {"port": 0})
    children: list[subprocess.Popen[bytes]] = []
    other: subprocess.Popen[bytes] | None = None
    other_children: list[subprocess.Popen[bytes]] = []
    try:
        if against is not None:
            # its journals in a folder of their own: the finished ones are pruned per folder
            other_journal = ("--journal-dir", str(Path(journal[1]) / "against"),
                             *journal[2:]) if journal else ()
            other, other_started = spawn_against(against, tables, other_journal)
        workers = max(1, min(workers, tables))
        for index in range(workers):
            first, last = tables * index // workers, tables * (index + 1) // workers
            plan = host_load.LoadPlan(
                port=started["port"], echo_port=echo_started["port"], first=first,
                tables=last - first, seats=SEATS,
                echo_clients=echo_clients * (index + 1) // workers - echo_clients * index //
                workers, think=think, echo_think=echo_think, start=0.0, seconds=seconds,
                fanout_port=fanout_started["port"],
                fanout_groups=fanout_groups * (index + 1) // workers - fanout_groups * index //
                workers, durable_port=durable_started["port"],
                durable_clients=durable_clients * (index + 1) // workers
                - durable_clients * index // workers, rate=rate / workers)
            children.append(subprocess.Popen(
                [sys.executable, __file__, "worker", "--plan", json.dumps(asdict(plan))],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=ROOT))
            if other is not None:  # the same players and the same echo share, at the other
                plan = replace(plan, port=other_started["port"])
                other_children.append(subprocess.Popen(
                    [sys.executable, __file__, "worker", "--plan", json.dumps(asdict(plan))],
                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=ROOT))
        start = started_together([*children, *other_children], warmup)
        time.sleep(max(0.0, start - time.time()))
        parts0 = breakdown(host)
        host0, echo0, t0 = cpu_seconds(host.pid), cpu_seconds(echo_server.pid), time.time()
        fanout0 = cpu_split(fanout_server.pid)
        host_kernel0 = cpu_split(host.pid)[1]
        other0 = cpu_seconds(other.pid) if other is not None else 0.0
        durable0 = cpu_seconds(durable_server.pid) if durable_server is not None else 0.0
        time.sleep(max(0.0, start + seconds - time.time()))
        host1, echo1, t1 = cpu_seconds(host.pid), cpu_seconds(echo_server.pid), time.time()
        fanout1 = cpu_split(fanout_server.pid)
        host_kernel1 = cpu_split(host.pid)[1]
        other1 = cpu_seconds(other.pid) if other is not None else 0.0
        durable1 = cpu_seconds(durable_server.pid) if durable_server is not None else 0.0
        parts1 = breakdown(host)
        found = []
        for child in children:
            out, _ = child.communicate(timeout=120)
            found.append(json.loads(out.decode().strip().splitlines()[-1]))
        other_found = []
        for child in other_children:
            out, _ = child.communicate(timeout=120)
            other_found.append(json.loads(out.decode().strip().splitlines()[-1]))
    finally:
        if profile:
            host.wait(60)
        for process in (*children, *other_children, host, echo_server, fanout_server,
                        *([other] if other is not None else []),
                        *([durable_server] if durable_server is not None else [])):
            if process.poll() is None:
                process.kill()
                process.wait()
    actions = sum(f["accepted"] for f in found)
    echoes = sum(len(f["echo_latencies"]) for f in found)
    latencies = [x for f in found for x in f["latencies"]]
    echo_latencies = [x for f in found for x in f["echo_latencies"]]
    fanout_latencies = [x for f in found for x in f["fanout_latencies"]]
    durable_latencies = [x for f in found for x in f["durable_latencies"]]
    paired: dict[str, Any] = {}
    if other is not None:
        other_actions = sum(f["accepted"] for f in other_found)
        paired = {"against_us_per_action": 1e6 * (other1 - other0) / max(1, other_actions),
                  "against_actions": other_actions}
    return {
        **paired,
        "parts": host_breakdown.per_action(parts0, parts1, actions),
        "host_cores": started["affinity"],
        "echo_cores": echo_started["affinity"], "load_cores": found[0]["affinity"],
        "workers": workers, "clients": tables * SEATS, "actions": actions,
        "refused": sum(f["refused"] for f in found), "window": t1 - t0,
        "actions_per_s": actions / (t1 - t0),
        "host_cpu_share": (host1 - host0) / (t1 - t0),
        "load_cpu_share": sum(f["cpu"] for f in found) / seconds,
        "host_us_per_action": 1e6 * (host1 - host0) / max(1, actions),
        "echo_us_per_request": 1e6 * (echo1 - echo0) / max(1, echoes),
        "host_kernel_us_per_action": 1e6 * (host_kernel1 - host_kernel0) / max(1, actions),
        "fanout_us_per_request": 1e6 * (sum(fanout1) - sum(fanout0))
        / max(1, len(fanout_latencies)),
        "fanout_kernel_us_per_request": 1e6 * (fanout1[1] - fanout0[1])
        / max(1, len(fanout_latencies)),
        "fanout_requests": len(fanout_latencies),
        "echo_requests": len(echo_latencies),
        "p50": percentile(latencies, 0.5), "p99": percentile(latencies, 0.99),
        "echo_p50": percentile(echo_latencies, 0.5), "echo_p99": percentile(echo_latencies, 0.99),
        "fanout_p50": percentile(fanout_latencies, 0.5),
        "fanout_p99": percentile(fanout_latencies, 0.99),
        "durable_requests": len(durable_latencies),
        "durable_us_per_request": 1e6 * (durable1 - durable0) / max(1, len(durable_latencies)),
        "durable_p50": percentile(durable_latencies, 0.5) if durable_latencies else None,
        "durable_p99": percentile(durable_latencies, 0.99) if durable_latencies else None,
    }


def started_together(workers: Sequence[subprocess.Popen[bytes]], warmup: float) -> float:
    """Once every worker has started (a process takes seconds to start on a busy machine,
    and a window that opened before its players played would measure nothing), the window's
    start, `warmup` from now, told to each of them: the time they all count from."""
    for worker in workers:
        announced(worker, "a load worker")
    start = time.time() + warmup
    for worker in workers:
        assert worker.stdin is not None
        worker.stdin.write(f"{start!r}\n".encode())
        worker.stdin.flush()  # left open: communicate() closes it
    return start


SATURATE_ECHO_CLIENTS = 4
"""Echo clients back to back in the echo's saturated window: as many as keep it busy."""

SATURATE_FANOUT_GROUPS = 2
"""Fan-out groups of SEATS clients back to back in the fan-out's saturated window."""


LEVEL_KEYS = ("host_us_per_action", "host_kernel_us_per_action", "host_cpu_share",
              "actions_per_s")
"""What `saturate` keeps of the no-journal host's window at the journalling host's rate."""


def saturate(tables: int, workers: int, warmup: float, seconds: float, against: Path | None,
             journal_root: Path | None, journal_sync: int = 0) -> dict[str, Any]:
    """One repeat of the saturate phase: windows one after the other, each with one server
    busy on core 0 and the load on the others: the host's tables, then the echo's clients,
    then the fan-out's groups, then (when the tables journal) the durable echo's clients.
    A server that shared its core with the others while they were busy too was measured
    with their work in its caches and its time slices (the host's CPU per action was half as
    much again), and it was not saturated: each got what the others left. The anchors'
    windows are half as long, with a shorter warm-up: their cost per request is steady
    within a second. When the tables journal, a window of the same host without its journal
    follows the host's, its load paced to the actions a second the journalling host reached
    (`level_*`): the journalling host waits for its disk and its load, and on this machine a
    host that waits between actions costs more per action, so the two are compared at one
    rate, like with like."""
    host = phase(tables, 0, (0.0, 0.0), (0.0, 0.0), workers, warmup, seconds, against,
                 journal_root=journal_root, journal_sync=journal_sync)
    level: dict[str, Any] = {}
    if journal_root is not None:  # the same host with no journal, at the rate it reached
        found = phase(tables, 0, (0.0, 0.0), (0.0, 0.0), workers, warmup, seconds,
                      rate=host["actions_per_s"])
        level = {f"level_{key}": found[key] for key in LEVEL_KEYS}
    anchor_warmup, anchor_seconds = min(warmup, 2.0), seconds / 2
    echo = phase(0, SATURATE_ECHO_CLIENTS, (0.0, 0.0), (0.0, 0.0), workers, anchor_warmup,
                 anchor_seconds)
    fan = phase(0, 0, (0.0, 0.0), (0.0, 0.0), workers, anchor_warmup, anchor_seconds,
                fanout_groups=SATURATE_FANOUT_GROUPS)
    durable: dict[str, Any] = {"durable_us_per_request": None}
    if journal_root is not None:
        durable = phase(0, 0, (0.0, 0.0), (0.0, 0.0), workers, anchor_warmup, anchor_seconds,
                        journal_root=journal_root, durable_clients=SATURATE_ECHO_CLIENTS)
    anchors = {"echo": echo["echo_requests"], "fanout": fan["fanout_requests"],
               "durable": durable.get("durable_requests", 0)}
    return {**host, **level, "echo_us_per_request": echo["echo_us_per_request"],
            "durable_us_per_request": durable["durable_us_per_request"],
            "anchor_requests": anchors,
            **{key: fan[key] for key in ("fanout_us_per_request",
                                         "fanout_kernel_us_per_request")}}


# -- reporting -------------------------------------------------------------------------------------


def spread(values: Sequence[float], scale: float = 1.0, form: str = "{:.0f}") -> str:
    """`median (min-max)` of the repeats."""
    scaled = [v * scale for v in values]
    return (f"{form.format(statistics.median(scaled))} "
            f"({form.format(min(scaled))}-{form.format(max(scaled))})")


def report(saturated: list[dict[str, Any]], one_table: list[dict[str, Any]],
           paced: list[dict[str, Any]]) -> None:
    ms = 1000.0
    if saturated:
        s = saturated[0]
        print(f"\n-- saturate: {s['clients']} light players ({s['clients'] // SEATS} tables), "
              f"no think time; then {SATURATE_ECHO_CLIENTS} echo clients, then "
              f"{SATURATE_FANOUT_GROUPS} fan-out groups (and the durable echo's clients when "
              "the tables journal), back to back, each server alone in its window --")
        print("  per repeat: " + "; ".join(
            f"{r['host_us_per_action']:.0f} us/action, host {r['host_cpu_share'] * 100:.0f} %, "
            f"load {r['load_cpu_share'] * 100:.0f} %" for r in saturated))
        cpu = [r["host_us_per_action"] for r in saturated]
        echo = [r["echo_us_per_request"] for r in saturated]
        print(f"host CPU per action          {spread(cpu)} us   (target <= 120), of which the "
              f"kernel's {spread([r['host_kernel_us_per_action'] for r in saturated])} us")
        parts = [r["parts"] for r in saturated]
        print(f"  of which the tables'        {spread([p['tables'] for p in parts])} us   (what "
              "a read's messages make the registry do: intents applied, their events made "
              "and journalled, seeds taken, rounds dealt)")
        print(f"  routing                     {spread([p['routing'] for p in parts])} us   "
              "(every connection's frames made, and written unless held for the journals' "
              "commit)")
        print(f"  the rest                    {spread([p['rest'] for p in parts])} us   "
              "(reading and decoding, the event loop, the table clock, the journals' commits "
              "and the writes they held; benchmarks/host_breakdown.py)")
        if any(p["rest"] < 0 for p in parts):
            print("  (not usable in this run: the parts time the wall clock within the host's "
                  "calls, and a host short of CPU spends some of it descheduled, so they "
                  "add up to more than its CPU)")
        if any(p["actions_per_commit"] for p in parts):
            print(f"actions per journal commit   "
                  f"{spread([p['actions_per_commit'] for p in parts], 1, '{:.1f}')}   (one "
                  "sync of the journals for that many actions: host/group_commit.py)")
        print(f"actions/s per host core      {spread([1e6 / c for c in cpu])}   "
              "(1 s of CPU / the CPU per action: what one core could serve)")
        print(f"actions/s reached            {spread([r['actions_per_s'] for r in saturated])}"
              f"   (host CPU in use {spread([r['host_cpu_share'] for r in saturated], 100)} %)")
        if "level_host_us_per_action" in s:
            level = [r["level_host_us_per_action"] for r in saturated]
            kernel = [r["level_host_kernel_us_per_action"] for r in saturated]
            print(f"no journal, at that rate     {spread(level)} us per action at "
                  f"{spread([r['level_actions_per_s'] for r in saturated])} actions/s, host "
                  f"CPU in use {spread([r['level_host_cpu_share'] for r in saturated], 100)} %, "
                  f"the kernel's {spread(kernel)} us   (the same host without its journal, "
                  "its players paced to the actions a second the journalling host reached "
                  "in each repeat)")
            print(f"journal / no journal there   "
                  f"{spread([c / n for c, n in zip(cpu, level, strict=True)], 1, '{:.2f}')} x"
                  "   (what journalling costs a host at one load: like with like, where the "
                  "saturated no-journal host is busier, and a busier host costs less an action "
                  "here)")
        print(f"echo CPU per request         {spread(echo)} us")
        print(f"host / echo CPU              "
              f"{spread([c / e for c, e in zip(cpu, echo, strict=True)], 1, '{:.1f}')} x   "
              "(what an action costs the host beyond reading a frame and writing one back)")
        if s["durable_us_per_request"] is not None:
            durable = [r["durable_us_per_request"] for r in saturated]
            print(f"durable echo CPU per request {spread(durable)} us   (the echo, each request "
                  "on disk before its answer, one fsync per pass of its event loop: what "
                  "durability alone costs a server that answers requests back to back)")
            print(f"host / durable echo CPU      "
                  f"{spread([c / d for c, d in zip(cpu, durable, strict=True)], 1, '{:.1f}')}"
                  " x   (the journalling host beside it: like with like)")
        fan = [r["fanout_us_per_request"] for r in saturated]
        print(f"fan-out CPU per request      {spread(fan)} us, of which the kernel's "
              f"{spread([r['fanout_kernel_us_per_request'] for r in saturated])} us   (the I/O "
              f"floor of an action at a table of {SEATS}, built as the host is: trio and "
              f"the host's poller, protocol.frames; a read and {SEATS} writes, a frame "
              "each, no game)")
        print(f"host / fan-out CPU           "
              f"{spread([c / f for c, f in zip(cpu, fan, strict=True)], 1, '{:.1f}')} x   "
              "(the host's cost beside a server that only does the I/O of an action, the same "
              "way)")
        if "against_us_per_action" in s:
            other = [r["against_us_per_action"] for r in saturated]
            print(f"paired with --against        this tree {spread(cpu)} us, the other "
                  f"{spread(other)} us per action; ratio "
                  f"{spread([a / b for a, b in zip(cpu, other, strict=True)], 1, '{:.2f}')}   "
                  "(both hosts at once on one core under the same load: below 1, this tree "
                  "costs less)")
        print(f"round trip p50 / p99         {spread([r['p50'] for r in saturated], ms, '{:.2f}')}"
              f" / {spread([r['p99'] for r in saturated], ms, '{:.2f}')} ms   "
              "(saturated: mostly waiting behind other tables' actions)")
    if one_table:
        s = one_table[0]
        print(f"\n-- one table: {SEATS} light players, a decision after "
              f"{TABLE_THINK[0] * ms:.0f}-{TABLE_THINK[1] * ms:.0f} ms, the host idle between "
              "actions; one echo client, one fan-out group (and one durable echo client) at "
              "the same pace --")
        round_trips(one_table, "", 1 / statistics.mean(TABLE_THINK))
    if paced:
        s = paced[0]
        print(f"\n-- paced: {s['clients']} light players ({s['clients'] // SEATS} tables), one "
              f"action each every 1-2 s, echo clients at the same pace --")
        round_trips(paced, " at 1,000 clients",
                    s["clients"] // SEATS / statistics.mean(PACED_THINK))


def round_trips(rows: list[dict[str, Any]], where: str, asked: float) -> None:
    """The round trips of a paced phase (the one table's, or the many clients'), each beside
    its anchors' in the same repeat: the ratios are the figures, the times are the machine's.
    A repeat in which a server answered nothing within the window (a machine so busy that its
    clients had not started) is left out of that server's figures, and says so. `asked`: the
    actions a second the players' pace asks for (a decision at a time per table, after the
    mean think time), which a starved host or load generator does not reach."""
    ms = 1000.0
    s = rows[0]
    print("  per repeat: " + "; ".join(
        f"p99 {r['p99'] * ms:.2f} ms, echo p99 {r['echo_p99'] * ms:.2f} ms, "
        f"host {r['host_cpu_share'] * 100:.0f} %, load {r['load_cpu_share'] * 100:.0f} %"
        for r in rows))
    print(f"actions/s                    {spread([r['actions_per_s'] for r in rows])}   "
          f"(the pace asks for at most {asked:.0f}: fewer, the host or the load was short of "
          f"CPU; refused intents {sum(r['refused'] for r in rows)} in all; {s['actions']} "
          "actions in the first repeat's window)")
    print(f"host CPU per action          {spread([r['host_us_per_action'] for r in rows])}"
          " us   (at this pace: includes the wake-ups of a host that waits between actions)")
    action = times(rows, "", "actions")
    echo = times(rows, "echo_", "echo requests")
    print(f"action round trip p50 / p99  {action}   (p99 target < 50 ms{where})")
    print(f"echo round trip p50 / p99    {echo}   ({s['echo_requests']} requests in the "
          "first repeat's window)")
    print(f"p50 action / echo            {ratio(rows, 'p50', 'echo_p50', '{:.2f}')} x   "
          "(target <= 1.5: a typical action's answer takes this many echo round trips;"
          " two decimals: at the target's edge one read 1.5 up to 1.549)")
    print(f"p99 action / echo            {ratio(rows, 'p99', 'echo_p99', '{:.2f}')} x   "
          "(target <= 3: the slowest 1 % of answers beside the slowest 1 % of echoes)")
    print(f"fan-out round trip p50 / p99 {times(rows, 'fanout_', 'fan-out requests')}   "
          f"({s['fanout_requests']} requests in the first repeat's window: the answer to a "
          "request that is also sent to three others)")
    print(f"p50 / p99 fan-out / echo     {ratio(rows, 'fanout_p50', 'echo_p50')} / "
          f"{ratio(rows, 'fanout_p99', 'echo_p99')} x   (the same ratios for the floor: what "
          "the I/O alone does to them)")
    print(f"p50 / p99 action / fan-out   {ratio(rows, 'p50', 'fanout_p50')} / "
          f"{ratio(rows, 'p99', 'fanout_p99')} x   (what the game adds to the answer beyond "
          "the I/O of an action)")
    if any(r["durable_p50"] is not None for r in rows):
        print(f"durable echo p50 / p99       {times(rows, 'durable_', 'durable requests')}   "
              f"({s['durable_requests']} requests in the first repeat's window: the echo, "
              "each request appended to a file and fsync'd before its answer, one fsync per "
              "pass of the event loop as the host's group commit: the floor of an answer that "
              "survives a power cut)")
        print(f"p50 / p99 action / durable   {ratio(rows, 'p50', 'durable_p50')} / "
              f"{ratio(rows, 'p99', 'durable_p99')} x   (the journalling host beside the "
              "durable echo: like with like, where the targets' echo keeps nothing)")
        print(f"p50 / p99 durable / echo     {ratio(rows, 'durable_p50', 'echo_p50')} / "
              f"{ratio(rows, 'durable_p99', 'echo_p99')} x   (what making a request durable "
              "alone does to the echo's round trip)")


def measured(value: float | None) -> bool:
    """A round trip some request had (None, or NaN: nothing answered in the window)."""
    return value is not None and not math.isnan(value)


def times(rows: list[dict[str, Any]], prefix: str, what: str) -> str:
    """`p50 / p99 ms` of the repeats in which `prefix`'s server answered."""
    kept = [r for r in rows if measured(r[f"{prefix}p50"])]
    if not kept:
        return f"none ({what}: none answered in any window)"
    found = (f"{spread([r[f'{prefix}p50'] for r in kept], 1000.0, '{:.2f}')} / "
             f"{spread([r[f'{prefix}p99'] for r in kept], 1000.0, '{:.2f}')} ms")
    return found + (f" ({len(kept)} of {len(rows)} repeats)" if len(kept) < len(rows) else "")


def ratio(rows: list[dict[str, Any]], top: str, bottom: str, form: str = "{:.1f}") -> str:
    """`top / bottom` in each repeat where both were measured, median (range)."""
    pairs = [(r[top], r[bottom]) for r in rows if measured(r[top]) and measured(r[bottom])]
    if not pairs:
        return "none"
    found = spread([a / b for a, b in pairs], 1, form)
    return found + (f" [{len(pairs)} of {len(rows)} repeats]" if len(pairs) < len(rows) else "")


def file_system(folder: Path) -> str:
    """The file system `folder` is on, as /proc/mounts names it (its type says what an fsync
    costs there: tmpfs none, a disk's its own), or "file system unknown"."""
    try:
        mounts = Path("/proc/mounts").read_text().splitlines()
    except OSError:
        return "file system unknown"
    found, best = "file system unknown", -1
    target = str(folder.resolve())
    for line in mounts:
        fields = line.split()
        if len(fields) < 3:
            continue
        point = fields[1]
        inside = target == point or target.startswith(point.rstrip("/") + "/")
        if inside and len(point) > best:
            found, best = f"{fields[2]} on {fields[0]}", len(point)
    return found


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", nargs="?", default="run",
                        choices=("run", "serve", "echo", "fanout", "worker"))
    parser.add_argument("--repeats", type=int, default=5, help="repeats (default 5)")
    parser.add_argument("--tables", type=int, default=20,
                        help="saturate: tables of four players (default 20)")
    parser.add_argument("--clients", type=int, default=1000,
                        help="paced: players, four a table (default 1000)")
    parser.add_argument("--echo-clients", type=int, default=100,
                        help="paced: echo clients at the players' pace (default 100)")
    parser.add_argument("--workers", type=int, default=1,
                        help="load generator processes, on the cores the host has not")
    parser.add_argument("--seconds", type=float, default=8.0, help="each window (default 8)")
    parser.add_argument("--warmup", type=float, default=4.0,
                        help="before each window (default 4; paced adds 1 s per 250 clients)")
    parser.add_argument("--phase", choices=("all", "both", "saturate", "table", "paced"),
                        default="all", help="all (the default): saturate, one table, paced; "
                        "both: saturate and paced")
    parser.add_argument("--plan", help="worker: its LoadPlan as JSON")
    parser.add_argument("--profile", metavar="FILE", help="serve: under cProfile, stats here")
    parser.add_argument("--journal-dir", metavar="DIR", type=Path,
                        help="where the tables journal their matches (every action on disk "
                        "before its events go out, as `unonet host` does in its config "
                        "folder); run: a fresh folder here per repeat (default: the system's "
                        "temporary folder)")
    parser.add_argument("--journal-sync", type=int, default=0, metavar="MS",
                        help="the tables sync their journals as `unonet host --journal-sync "
                        "MS` does: 0 (the default), every action on disk before its events "
                        "go out; MS, written to the system before and synced every MS ms")
    parser.add_argument("--no-journal", action="store_true",
                        help="tables keep no journal (unlike `unonet host`): what it costs")
    parser.add_argument("--durable", metavar="FILE",
                        help="echo: a durable echo, each request appended to FILE and on disk "
                        "before its answer (run: the paced phase runs one when the tables "
                        "journal)")
    parser.add_argument("--json", metavar="FILE", type=Path,
                        help="run: also write every repeat's figures there (JSON), for "
                        "comparing runs")
    parser.add_argument("--against", metavar="TREE", type=Path,
                        help="saturate: also run the host of another source tree (e.g. `git "
                        "worktree add /tmp/before HEAD~5`) beside this one, paired")
    args = parser.parse_args(argv)
    if args.against is not None and not (args.against / "benchmarks" / "host.py").exists():
        parser.error(f"--against: {args.against} has no benchmarks/host.py")
    if args.mode == "serve":
        pin(server_core())
        if args.profile is None:
            trio.run(serve, args.tables, None, args.journal_dir, args.journal_sync)
            return 0
        import cProfile

        profiler = cProfile.Profile()
        profiler.enable()
        trio.run(serve, args.tables, args.seconds, args.journal_dir, args.journal_sync)
        profiler.disable()
        profiler.dump_stats(args.profile)
        return 0
    if args.mode == "echo":
        pin(server_core())
        trio.run(echo, args.durable)
        return 0
    if args.mode == "fanout":
        pin(server_core())
        trio.run(fanout)
        return 0
    if args.mode == "worker":
        pin(load_cores())
        host_load.worker_main(args.plan)
        return 0
    print(f"unonet host benchmark: pure Python (from "
          f"{Path(sys.modules['unonet'].__file__ or '').parent.parent}), {os.cpu_count()} CPUs, "
          "host and echo on "
          f"core {min(server_core())}, load on "
          f"{sorted(load_cores())}; load average before: {load_average()}", flush=True)
    journal_root = None if args.no_journal else \
        (args.journal_dir or Path(tempfile.gettempdir()))
    if journal_root is None:
        print("tables keep no journal (--no-journal; `unonet host` always journals)")
    else:
        journal_root.mkdir(parents=True, exist_ok=True)
        how = ("on disk before its events go out (group commit), as `unonet host` does"
               if not args.journal_sync else
               "written to the system before its events go out and synced every "
               f"{args.journal_sync} ms, as `unonet host --journal-sync {args.journal_sync}` "
               "does")
        print(f"tables journal every action, {how}: into {journal_root}"
              f" ({file_system(journal_root)})")
    saturated: list[dict[str, Any]] = []
    one_table: list[dict[str, Any]] = []
    paced: list[dict[str, Any]] = []
    for repeat in range(args.repeats):
        if args.phase in ("all", "both", "saturate"):
            saturated.append(saturate(args.tables, args.workers, args.warmup, args.seconds,
                                      args.against, journal_root, args.journal_sync))
        if args.phase in ("all", "table"):
            one_table.append(phase(1, 1, TABLE_THINK, TABLE_THINK, args.workers, args.warmup,
                                   args.seconds, fanout_groups=1, journal_root=journal_root,
                                   durable_clients=1, journal_sync=args.journal_sync))
        if args.phase in ("all", "both", "paced"):
            paced.append(phase(args.clients // SEATS, args.echo_clients, PACED_THINK,
                               ECHO_THINK, args.workers,
                               args.warmup + args.clients / 250, args.seconds,
                               fanout_groups=args.echo_clients // SEATS,
                               journal_root=journal_root, durable_clients=args.echo_clients,
                               journal_sync=args.journal_sync))
        print(f"repeat {repeat + 1} of {args.repeats} done", flush=True)
    first = (saturated or one_table or paced)[0]
    print(f"host on cores {first['host_cores']}, echo on {first['echo_cores']}, load "
          f"generator ({first['workers']} process(es)) on {first['load_cores']}")
    report(saturated, one_table, paced)
    if args.json is not None:
        args.json.write_text(json.dumps({"saturate": saturated, "one_table": one_table,
                                         "paced": paced}, indent=1))
    print(f"\nload average after: {load_average()} (other processes on these cores inflate "
          "every figure, the echo's too)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
