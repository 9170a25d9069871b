"""Soak benchmark of the host: a club's week compressed. Does its memory stay flat?

One command, from the repository root (about 10-20 minutes on one free core):

    .venv/bin/python benchmarks/soak.py            # 2,000 matches, 10,000 cycles, 2,000 tables
    .venv/bin/python benchmarks/soak.py --matches 300 --cycles 2000 --abandoned 300  # a quick look
    .venv/bin/python benchmarks/soak.py --journal-sync 100  # journals synced every 100 ms

A real host (HostServer and Registry, the default ConnectionLimits but for the caps a club
raises, plain TCP, a rotating log file and journals in a temporary folder) runs on loopback in
this process, so that its structures can be read. At the same time:

- `--tables` tables play matches back to back: in-process bots with no think time
  (FAST_TIMINGS), matches of `--rounds` round(s) each so that thousands fit in minutes. Each
  match is a whole one: a journal, the seed exchange, commitments, the audit, the scores, the
  table back in its lobby. Half the tables keep a seat for a visitor;
- `--visitors` network players (the `unonet bot` client, no think time, in a child process:
  their objects are not the host's memory) go from table to table: each joins a free seat,
  plays, drops its connection after a random moment, comes back with its resume token
  (taking its seat back, or refused when the match has ended), plays the match out and
  leaves;
- `--cycles` connect/disconnect cycles (TCP connect, hello, welcome, close) and `--abandoned`
  tables created and abandoned (hello, create_table, seated, close) by raw clients, as
  benchmarks/churn.py did, spread over the run.

It prints the process's RSS after a warm-up (`--warmup` matches and as many cycles and
tables: modules loaded, caches filled, the log file at its rotation size; that is the
baseline), then every `--every` matches, and at the end the growth over the baseline with the
target (< 5%), then the size of every host structure: HostServer.sizes(), every container
attribute of the server, its admission, its registry, each table, its room and its game
(summed over the tables, with the largest), the journals on disk and open, the log's files.
RSS counts what the allocator keeps as well as what Python holds: a flat line is the test.
"""

from __future__ import annotations

import argparse
import gc
import json
import logging
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import trio

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from client.netbot import BotResult, play  # noqa: E402
from host.collector import tuned_collector  # noqa: E402
from host.journal import FINISHED_DIR, FINISHED_KEPT, FINISHED_SLACK  # noqa: E402
from host.logs import setup_logging  # noqa: E402
from host.registry import Registry  # noqa: E402
from host.server import HostServer, ServerConfig  # noqa: E402
from host.settings import FAST_TIMINGS, ConnectionLimits, TableTimings  # noqa: E402
from host.table import Table, TableSettings  # noqa: E402
from protocol.examples import EXAMPLES  # noqa: E402
from protocol.frames import EOF, NEED_DATA, FrameDecoder, encode_frame  # noqa: E402
from protocol.limits import RECEIVE_CHUNK  # noqa: E402
from unonet.rules import RuleSet  # noqa: E402

HELLO = encode_frame(EXAMPLES["hello"])
CREATE = encode_frame({"t": "create_table", "id": 1, "name": "soak"})
SEATS = 4
GROWTH_TARGET = 0.05
"""The issue's bound: RSS after the warm-up grows by less than 5% over the soak."""

SOAK_TIMINGS: TableTimings = replace(FAST_TIMINGS, grace=1.0)
"""No think time anywhere; a dropped visitor's seat goes to a stand-in bot after 1 s, so a
drop holds its table up for a moment, not the 30 s a real grace gives."""


def rss_bytes() -> int:
    """This process's resident set size, from /proc (Linux)."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def mib(n: int) -> str:
    return f"{n / 2**20:.1f} MiB"


# -- raw clients: the churn ------------------------------------------------------------------------


async def until(stream: trio.SocketStream, kind: str) -> None:
    """Read frames until one of type `kind` (the host closing first is a failure)."""
    decoder = FrameDecoder()
    while True:
        data = bytes(await stream.receive_some(RECEIVE_CHUNK))
        decoder.receive_data(data)
        while (frame := decoder.next_frame()) is not NEED_DATA:
            if frame is EOF:
                raise RuntimeError(f"the host closed before {kind}")
            if isinstance(frame, dict) and frame.get("t") == kind:
                return
            if isinstance(frame, dict) and frame.get("t") == "error" and frame.get("fatal"):
                raise RuntimeError(f"the host refused: {frame}")


async def cycle(port: int, table: bool) -> None:
    """One connect/disconnect cycle; with `table`, a table created and abandoned."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    try:
        await stream.send_all(HELLO)
        await until(stream, "welcome")
        if table:
            await stream.send_all(CREATE)
            await until(stream, "seated")
    finally:
        await stream.aclose()


# -- the club ----------------------------------------------------------------------------------


@dataclass
class Club:
    """The host, its tables and what the soak has done so far."""

    server: HostServer
    port: int
    home: Path
    tables: list[Table]
    cycles: int = 0
    abandoned: int = 0
    visits: Counter[str] = field(default_factory=Counter)

    @property
    def matches(self) -> int:
        return sum(table.matches_played for table in self.tables)


def open_club(tables: int, rounds: int, home: Path) -> tuple[Registry, list[Table]]:
    """The tables a `unonet host --headless --tables N --bots 3|4` opens, fast and short."""
    registry = Registry(SOAK_TIMINGS)
    rules = RuleSet(max_rounds=rounds)
    made = []
    for number in range(tables):
        settings = TableSettings(f"soak {number}", rules, "official", capacity=SEATS,
                                 headless=True, target_seats=SEATS, timings=SOAK_TIMINGS,
                                 journal_dir=home / "journals", operator=True)
        table = registry.create_table(settings)
        for _ in range(SEATS - (number % 2)):  # odd tables keep a seat for a visitor
            table.add_bot()
        made.append(table)
    return registry, made


async def visitor(port: int, seats: list[int], number: int, visits: Counter[str],
                  stop: trio.Event) -> None:
    """A network player going from table to table (`seats`: the tables that keep a seat for
    one): join, drop, resume, play out, leave."""
    rng = random.Random(number)
    while not stop.is_set():
        table = rng.choice(seats)
        result = BotResult()
        stream = await trio.open_tcp_stream("127.0.0.1", port)
        with trio.move_on_after(rng.uniform(0.05, 1.5)):
            await play(stream, name=f"visitor{number}", table=table, think=0.0, verify=False,
                       result=result)
        await stream.aclose()  # dropped (or done, if the match was that short)
        if result.closed is not None or result.token is None:
            visits["no seat (table full, or dropped before seated)"
                   if result.token is None else "played out"] += 1
            await trio.sleep(rng.uniform(0.0, 0.5))
            continue
        visits["dropped"] += 1
        await trio.sleep(rng.uniform(0.0, 2.0))  # within the grace or past it
        again = await trio.open_tcp_stream("127.0.0.1", port)
        back = BotResult()
        with trio.move_on_after(60):
            await play(again, name=f"visitor{number}", think=0.0, verify=False,
                       resume=result.token, result=back)
        await again.aclose()
        if back.matches:
            visits["resumed, played out"] += 1
        elif back.closed is not None:
            visits[f"resume: {back.closed}"] += 1
        else:  # neither an answer that closed it nor a match's end: time ran out
            visits["resumed, no match end within 60 s or before the soak stopped"] += 1


async def visitors_child(port: int, seats: list[int], count: int) -> None:
    """The visitors, in a process of their own: their client objects (and the cyclic garbage
    a client leaves) are not the host's memory. They play until this process's stdin closes,
    then print what they did as JSON."""
    logging.getLogger().addHandler(logging.NullHandler())  # a refused seat is counted, not logged
    visits: Counter[str] = Counter()
    stop = trio.Event()
    async with trio.open_nursery() as nursery:
        for number in range(count):
            nursery.start_soon(visitor, port, seats, number, visits, stop)
        await trio.to_thread.run_sync(sys.stdin.buffer.read)  # until the soak closes it
        stop.set()
        nursery.cancel_scope.cancel()
    print(json.dumps(dict(visits)), flush=True)


@asynccontextmanager
async def visitors_process(club: Club, count: int) -> AsyncIterator[None]:
    """`count` visitors in a child process while the block runs; what they did is added to
    `club.visits` after it."""
    seats = [t.number for t in club.tables if t.number % 2]
    process = await trio.lowlevel.open_process(
        [sys.executable, __file__, "--visitors-child", json.dumps([club.port, seats, count])],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert process.stdin is not None and process.stdout is not None
    try:
        yield
    finally:
        with trio.CancelScope(shield=True), trio.move_on_after(30):
            await process.stdin.aclose()
            out = b""
            while chunk := await process.stdout.receive_some():
                out += chunk
        if process.poll() is None:
            process.kill()
        with trio.CancelScope(shield=True):
            await process.wait()
        try:
            club.visits.update(json.loads(out.decode().strip().splitlines()[-1]))
        except (ValueError, IndexError):
            club.visits[f"the visitors' process ended without a report "
                        f"(exit {process.returncode})"] += 1


async def churn(club: Club, start: int, goal: int, cycles: int, abandoned: int,
                stop: trio.Event) -> None:
    """`cycles` connect/disconnect cycles and `abandoned` tables on top of what the warm-up
    did, spread over the matches from `start` to `goal`: it keeps up with their progress (and
    finishes at full speed once they are played)."""
    rng = random.Random(7)
    first_cycles, first_abandoned = club.cycles, club.abandoned
    total = cycles + abandoned
    while not stop.is_set():
        done = club.cycles - first_cycles + club.abandoned - first_abandoned
        if done >= total:
            return
        progress = (club.matches - start) / max(1, goal - start)
        if done >= total * progress:
            await trio.sleep(0.05)
            continue
        left_cycles = cycles - (club.cycles - first_cycles)
        left_tables = abandoned - (club.abandoned - first_abandoned)
        make_table = rng.random() < left_tables / (left_cycles + left_tables)
        try:
            await cycle(club.port, make_table)
        except (OSError, RuntimeError, trio.BrokenResourceError) as exc:
            club.visits[f"churn failed: {type(exc).__name__}"] += 1
        if make_table:
            club.abandoned += 1
        else:
            club.cycles += 1


# -- what the host holds -----------------------------------------------------------------------


def containers(obj: Any) -> dict[str, int]:
    """The size of every container attribute of `obj`."""
    return {name: len(value) for name, value in vars(obj).items()
            if isinstance(value, dict | list | set | frozenset | deque | Counter)}


def structure_sizes(club: Club) -> list[str]:
    server = club.server
    registry = server.registry
    lines = ["HostServer.sizes(): " + " ".join(f"{k}={v}" for k, v in server.sizes().items())]
    for owner, obj in (("server", server), ("admission", server.admission),
                       ("registry", registry)):
        lines.append(f"{owner}: " + " ".join(f"{k}={v}" for k, v in containers(obj).items()))
    per: dict[str, list[int]] = {}
    for table in registry.tables.values():
        parts: list[tuple[str, object]] = [("table", table), ("room", table.room)]
        if table.game is not None:
            parts.append(("game", table.game))
        for part, held in parts:
            for key, value in containers(held).items():
                per.setdefault(f"{part}.{key}", []).append(value)
    lines.append(f"per table (sum/largest over {len(registry.tables)} tables): " + " ".join(
        f"{k}={sum(v)}/{max(v)}" for k, v in sorted(per.items())))
    journals = list((club.home / "journals").glob("*.jsonl"))
    finished = list((club.home / "journals" / FINISHED_DIR).glob("*.jsonl"))
    size = sum(p.stat().st_size for p in journals + finished)
    open_journals = sum(1 for t in registry.tables.values()
                        if t.game is not None and t.game.journal is not None)
    lines.append(f"journals: {len(journals)} of matches not finished ({open_journals} open), "
                 f"{len(finished)} finished (pruned to the newest {FINISHED_KEPT} past "
                 f"{FINISHED_KEPT + FINISHED_SLACK}), {mib(size)} "
                 "on disk")
    logs = sorted(club.home.glob("host.log*"))
    lines.append(f"log: {len(logs)} files, {mib(sum(p.stat().st_size for p in logs))} "
                 "(rotated at 1 MiB, five kept)")
    fds = len(os.listdir("/proc/self/fd"))
    lines.append(f"open file descriptors: {fds}; closes: {dict(server.closes)}")
    lines.append(f"visits: {dict(club.visits)}")
    return lines


class Report:
    def __init__(self, club: Club) -> None:
        self.club = club
        self.start = time.perf_counter()
        self.baseline: int | None = None
        self.samples: list[tuple[int, int]] = []  # (matches, rss) after the baseline

    def line(self, label: str) -> int:
        """Print RSS and progress. No collection first: the host's collector (host/collector.py)
        decides when garbage goes, and RSS as it leaves it is what a club's host has."""
        rss = rss_bytes()
        club = self.club
        text = (f"{time.perf_counter() - self.start:7.1f} s {label:>22}: RSS {mib(rss):>10}; "
                f"matches {club.matches:>6,}, cycles {club.cycles:>6,}, "
                f"abandoned tables {club.abandoned:>5,}, connections "
                f"{len(club.server.connections):>3}, tables {len(club.server.registry.tables)}, "
                f"open files {len(os.listdir('/proc/self/fd'))}")
        if self.baseline is not None:
            text += f"; x{rss / self.baseline:.3f} of the baseline"
            self.samples.append((club.matches, rss))
        print(text, flush=True)
        return rss


async def soak(args: argparse.Namespace, home: Path) -> None:
    setup_logging(home / "host.log", to_stderr=False)
    logging.getLogger("trio").handlers.clear()
    registry, tables = open_club(args.tables, args.rounds, home)
    registry.journals.interval = args.journal_sync / 1000 if args.journal_sync else None
    limits = ConnectionLimits().with_caps(4096, 4096)  # one address: every client is 127.0.0.1
    server = HostServer(registry, ServerConfig(bind="127.0.0.1", port=0, limits=limits))
    with tuned_collector():  # as `unonet host` runs it (host/run.py)
        async with trio.open_nursery() as nursery:
            listeners = await nursery.start(server.serve)
            club = Club(server, listeners[0].socket.getsockname()[1], home, tables)
            report = Report(club)
            report.line("host up")
            stop = trio.Event()
            async with visitors_process(club, args.visitors):
                warm = args.warmup
                await churn_to(club, warm, warm)
                while club.matches < warm:
                    await trio.sleep(0.2)
                report.baseline = report.line("baseline (warmed up)")
                full_before = gc.get_stats()[2]["collections"]
                start = club.matches
                goal = start + args.matches
                nursery.start_soon(churn, club, start, goal, args.cycles, args.abandoned, stop)
                next_line = start + args.every
                while club.matches < goal or club.cycles < warm + args.cycles \
                        or club.abandoned < warm + args.abandoned:
                    await trio.sleep(0.2)
                    if club.matches >= next_line:
                        report.line(f"{club.matches - start} matches in")
                        next_line += args.every
                stop.set()
            with trio.move_on_after(120):
                while server.connections:
                    await trio.sleep(0.1)
            end = report.line("end")
            full = gc.get_stats()[2]["collections"] - full_before
            print(f"full collections by the host's collector after the baseline: {full}; a "
                  f"last one now finds {gc.collect()} unreachable objects")
            assert report.baseline is not None
            growth = end / report.baseline - 1
            done = club.matches - start
            verdict = "within" if growth < GROWTH_TARGET else "OVER"
            print(f"RSS after the warm-up: {mib(report.baseline)} -> {mib(end)} at the end, "
                  f"{growth * 100:+.1f}% over {done:,} matches, {club.cycles - warm:,} "
                  f"connect/disconnect cycles and {club.abandoned - warm:,} abandoned tables "
                  f"({verdict} the {GROWTH_TARGET:.0%} target)")
            later = [rss for matches, rss in report.samples if matches >= start + done // 2]
            if len(later) >= 2:
                print(f"second half of the run: RSS median {mib(int(statistics.median(later)))}, "
                      f"range {mib(min(later))}-{mib(max(later))}")
            print("\n".join(structure_sizes(club)))
            nursery.cancel_scope.cancel()


async def churn_to(club: Club, cycles: int, abandoned: int) -> None:
    """The warm-up's churn, as fast as it goes."""
    while club.cycles < cycles or club.abandoned < abandoned:
        table = club.abandoned < abandoned and club.abandoned <= club.cycles
        await cycle(club.port, table)
        if table:
            club.abandoned += 1
        else:
            club.cycles += 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=2_000,
                        help="matches after the warm-up (default 2,000)")
    parser.add_argument("--cycles", type=int, default=10_000,
                        help="connect/disconnect cycles after the warm-up (default 10,000)")
    parser.add_argument("--abandoned", type=int, default=2_000,
                        help="tables created and abandoned after the warm-up (default 2,000)")
    parser.add_argument("--tables", type=int, default=16,
                        help="tables playing at once (default 16; half keep a visitor's seat)")
    parser.add_argument("--visitors", type=int, default=12,
                        help="network players joining, dropping and resuming (default 12)")
    parser.add_argument("--rounds", type=int, default=1,
                        help="rounds per match (max_rounds; default 1)")
    parser.add_argument("--warmup", type=int, default=200,
                        help="matches, cycles and abandoned tables before the baseline "
                        "(default 200)")
    parser.add_argument("--every", type=int, default=250,
                        help="matches between two RSS lines (default 250)")
    parser.add_argument("--journal-sync", type=int, default=0, metavar="MS",
                        help="the journals synced as `unonet host --journal-sync MS` syncs "
                        "them (default 0: every line on disk before its events go out); MS "
                        "soaks the interval's syncs, and the finished journals each one "
                        "takes over")
    parser.add_argument("--visitors-child", help=argparse.SUPPRESS)  # [port, seats, count]
    args = parser.parse_args(argv)
    if args.visitors_child is not None:
        port, seats, count = json.loads(args.visitors_child)
        trio.run(visitors_child, port, seats, count)
        return 0
    with tempfile.TemporaryDirectory(prefix="unonet-soak-") as folder:
        trio.run(soak, args, Path(folder))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
