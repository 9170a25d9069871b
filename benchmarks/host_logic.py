"""The host's logic per action without its I/O: what benchmarks/host.py's CPU per action
would be with no sockets, no trio and no system calls.

    .venv/bin/python benchmarks/host_logic.py                # 5 repeats of 20,000 actions
    .venv/bin/python benchmarks/host_logic.py --journal-dir /tmp  # and beside it, journalled

It drives a real Registry as the server does, sans-IO: `--tables` headless tables of four
members (no journal). Each member is benchmarks/host_load.py's LightPlayer (the players
benchmarks/host.py loads the host with) on one side and the host's HostConnection on the
other, with the benchmark's connection limits; bytes pass between them as over a socket.
What a member sends is read by its HostConnection and handed to the registry as the
server's connection does; what the tables queue becomes each member's frames as the server
makes them (`host.outgoing.event_frame` for events, `send` for the rest). The table clock
runs on a virtual time that jumps to the next deadline when nobody has anything to do, so a
match's rounds and restarts cost what they cost and no time is waited.

Per action it prints the time of the host's parts (reading what members sent, the
registry's calls for intents, for the seed exchange's messages, for other requests, and the
clock: round starts and match restarts, making every member's frames, and hashing the events
sent into their rounds' digests, which the server does after its writes), the median and
range over `--repeats`; the players' own work is not timed. Beside benchmarks/host.py's CPU
per action (the same tables over real sockets), the difference is the trio shell and the
system calls. What runs is what is installed, else this source tree (one build, pure
Python); where it was imported from is said.

With `--journal-dir`, each repeat runs twice, in turns: once as above, once with every table
journalling into a fresh folder there, as `unonet host` does (host/journal.py), its lines
left to the group commit the server makes once a pass of its event loop
(host/group_commit.py): here once a pass over the members, timed as its own part (the lines'
writes and the sync of their files: its wall time, the disk's flush included, and its CPU).
The difference is what the journal costs an action, without the event loop's wake-ups
around it. (Each match deals from fresh random seeds, as a host's do, so the two runs play
different games: their actions per round say by how much.)
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

if sys.path and Path(sys.path[0] or ".").resolve() == Path(__file__).resolve().parent:
    del sys.path[0]  # this folder: its host.py would shadow the host package
sys.path.append(str(Path(__file__).resolve().parent.parent))

from benchmarks import host as host_bench
from benchmarks.host import LIMITS
from benchmarks.host_load import LightPlayer, Stats
from host.outgoing import SendEvent, SendMessage, SendSnapshot, event_frame
from host.registry import Registry
from host.settings import FAST_TIMINGS
from host.table import TableSettings
from protocol.host_connection import (
    HelloReceived,
    HostConnection,
    IntentReceived,
    MessageReceived,
    RequestReceived,
)

SEATS = host_bench.SEATS
PARTS = ("reading", "intents", "seed messages", "requests", "clock", "frames", "digests",
         "journal commit")
"""What each action's time is split into (see the module's docstring)."""

SEED_MESSAGES = frozenset({"seed_commit", "seed_reveal"})


class Member:
    """One seat: a light player and the host's side of its connection."""

    def __init__(self, conn: int, table: int, rng: random.Random) -> None:
        self.conn = conn
        self.player = LightPlayer(table, f"p{conn}", Stats(), rng)
        self.protocol = HostConnection(0.0, **LIMITS.protocol_options())
        self.inbox = bytearray()  # the host's frames for the player, not yet read


class Run:
    """One repeat: the registry, its members and the time spent in each part."""

    def __init__(self, tables: int, seed: int, journal_dir: Path | None = None) -> None:
        self.registry = Registry(FAST_TIMINGS)
        self.registry.journals.deferred = True  # as the server runs it: `commit` once a pass
        self.now = 0.0
        self.spent = dict.fromkeys(PARTS, 0.0)
        self.commit_cpu = 0.0
        self.journalled = journal_dir is not None
        self.actions = 0
        self.seed_commits = 0  # one per member a round: how many rounds were played
        rng = random.Random(seed)
        self.members: dict[int, Member] = {}
        for number in range(tables):
            self.registry.create_table(TableSettings(
                f"bench{number}", capacity=SEATS, headless=True, target_seats=SEATS,
                timings=FAST_TIMINGS, journal_dir=journal_dir))
            for _ in range(SEATS):
                member = Member(len(self.members) + 1, number, random.Random(rng.getrandbits(64)))
                self.members[member.conn] = member
                self.read(member, member.player.hello())

    def timed(self, part: str, call: Callable[..., object], *args: Any) -> Any:
        start = time.perf_counter()
        result = call(*args)
        self.spent[part] += time.perf_counter() - start
        return result

    def read(self, member: Member, data: bytes) -> None:
        """What `member` sent, read by the host and handed to the registry, as
        host/connection.py's `_dispatch` does."""
        events = self.timed("reading", member.protocol.receive_data, data, self.now)
        member.inbox += member.protocol.data_to_send()
        for event in events:
            if isinstance(event, HelloReceived):
                member.inbox += member.protocol.welcome()
            elif isinstance(event, IntentReceived):
                self.actions += 1
                self.timed("intents", self.registry.intent, member.conn, event.id,
                           event.action, self.now)
            elif isinstance(event, RequestReceived):
                self.timed("requests", self.registry.request, member.conn,
                           member.player.name, event.message, self.now)
            elif isinstance(event, MessageReceived) and event.message.get("t") in SEED_MESSAGES:
                self.seed_commits += event.message["t"] == "seed_commit"
                self.timed("seed messages", self.registry.message, member.conn, event.message,
                           self.now)

    def route(self) -> None:
        """Every member's frames of what the tables queued (timed)."""
        items = self.registry.take_outgoing()
        start = time.perf_counter()
        for item in items:
            member = self.members[item.conn]
            if type(item) is SendEvent:
                member.inbox += event_frame(member.protocol, item, check=LIMITS.check_outgoing)
            elif type(item) is SendMessage:
                member.inbox += member.protocol.send(item.message)
            elif type(item) is SendSnapshot:
                member.inbox += member.protocol.snapshot(item.view, item.legal)
        self.spent["frames"] += time.perf_counter() - start
        self.timed("digests", self.registry.settle_digests)  # the server's, after its writes

    def commit(self) -> None:
        """The journals' group commit, as the server makes it once a pass (timed); a table
        whose journal fails is closed, as there, which a benchmark must not hide."""
        cpu = time.process_time()
        failed = self.timed("journal commit", self.registry.journals.commit)
        self.commit_cpu += time.process_time() - cpu
        if failed:
            raise RuntimeError(f"a journal failed: {failed[0][1]}")

    def play(self, actions: int) -> None:
        """Members read what came and answer, as benchmarks/host_load.py's `run_player` does
        with no think time, until `actions` intents were handed to the tables."""
        while self.actions < actions:
            self.commit()
            self.route()
            answered = False
            for member in self.members.values():
                if not member.inbox:
                    continue
                player = member.player
                out = player.receive(bytes(member.inbox))
                member.inbox.clear()
                action = player.decision()
                if action is not None:
                    out += player.intent(action)
                if out:
                    answered = True
                    self.read(member, out)
                    self.route()
            if not answered:  # nobody has anything to do: the next deadline
                deadline = self.registry.clock_deadline()
                self.now = max(self.now + 0.001, deadline if deadline is not None else 0.0)
                self.timed("clock", self.registry.clock_tick, self.now)


def spread(values: list[float], form: str = "{:.1f}") -> str:
    """`median (min-max)` as benchmarks/host.py prints it, to a tenth by default."""
    return host_bench.spread(values, 1.0, form)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5, help="repeats (default 5)")
    parser.add_argument("--actions", type=int, default=20_000,
                        help="actions per repeat (default 20,000)")
    parser.add_argument("--tables", type=int, default=4,
                        help="tables of four members (default 4)")
    parser.add_argument("--journal-dir", metavar="DIR", type=Path,
                        help="also run each repeat with the tables journalling into a fresh "
                        "folder here (as `unonet host` does), beside the run without")
    args = parser.parse_args(argv)
    if args.repeats < 1 or args.actions < 1 or args.tables < 1:
        parser.error("--repeats, --actions and --tables are at least 1")
    if args.journal_dir is not None and not args.journal_dir.is_dir():
        parser.error(f"--journal-dir: {args.journal_dir} is not a folder")
    source = Path(sys.modules["host"].__file__ or "").parent.parent
    print(f"host logic, sans-IO: pure Python (from {source}); {args.tables} tables of "
          f"{SEATS}, {args.actions:,} actions a repeat, {args.repeats} "
          f"repeat{'s' if args.repeats > 1 else ''}", flush=True)
    kinds = ("no journal",) if args.journal_dir is None else ("no journal", "journal")
    found = {kind: Found() for kind in kinds}
    for repeat in range(args.repeats):
        for kind in kinds:  # in turns: the machine's drift touches both alike
            if kind == "journal":
                with tempfile.TemporaryDirectory(prefix="unonet-bench-journals-",
                                                 dir=args.journal_dir) as folder:
                    found[kind].add(Run(args.tables, seed=repeat, journal_dir=Path(folder)),
                                    args.actions)
            else:
                found[kind].add(Run(args.tables, seed=repeat), args.actions)
    if args.journal_dir is None:
        found["no journal"].report()
        return 0
    print(f"the journals in {host_bench.file_system(args.journal_dir)}")
    for kind in kinds:
        print(f"-- {kind} --")
        found[kind].report()
    plain, journal = found["no journal"].totals, found["journal"].totals
    ratios = [j / p for j, p in zip(journal, plain, strict=True)]
    print(f"journal / no journal      {spread(ratios, '{:.2f}')} x   (paired by "
          "repeat: what journalling every action multiplies the logic's time per action by)")
    return 0


class Found:
    """One kind of run's figures over the repeats."""

    def __init__(self) -> None:
        self.totals: list[float] = []
        self.parts: dict[str, list[float]] = {part: [] for part in PARTS}
        self.per_round: list[float] = []
        self.per_commit: list[float] = []
        self.commit_cpu: list[float] = []
        self.journalled = False

    def add(self, run: Run, actions: int) -> None:
        run.play(actions)
        for part in PARTS:
            self.parts[part].append(run.spent[part] / run.actions * 1e6)
        self.totals.append(sum(run.spent.values()) / run.actions * 1e6)
        self.per_round.append(run.actions * SEATS / max(1, run.seed_commits))
        self.per_commit.append(run.actions / max(1, run.registry.journals.commits))
        self.commit_cpu.append(run.commit_cpu / run.actions * 1e6)
        self.journalled = run.journalled

    def report(self) -> None:
        print(f"per action                {spread(self.totals)} us   (the parts below, summed)")
        for part in PARTS:
            if part == "journal commit" and not self.journalled:
                continue
            print(f"  {part:22s}  {spread(self.parts[part])} us")
        if self.journalled:
            print(f"    of which CPU          {spread(self.commit_cpu)} us   (the rest of the "
                  "commit's time, the process waited for the disk)")
        print(f"actions per round         {spread(self.per_round)}   (the seed exchange and "
              "the clock are paid once a round, or once a match, and spread over its actions "
              "here)")
        if self.journalled:
            print(f"actions per commit        {spread(self.per_commit)}   (one write per "
                  "journal written and one sync of them all, once a pass over the members)")


if __name__ == "__main__":
    sys.exit(main())
