"""The host's logic per action without its I/O: what benchmarks/host.py's CPU per action
would be with no sockets, no trio and no system calls.

    .venv/bin/python benchmarks/host_logic.py                # 5 repeats of 20,000 actions
    UNONET_BENCH_BUILD=/path/to/build .venv/bin/python benchmarks/host_logic.py

It drives a real Registry as the server does, sans-IO: `--tables` headless tables of four
members (no journal), each member a HostConnection past its handshake whose frames are made
as the server makes them (`host.outgoing.event_frame` for events, `send` for the rest, each
connection its own). The members play as benchmarks/host_load.py's light players do: the
first action of their newest legal list in the same order of preference, their seed to every
round. The table clock runs on a virtual time that jumps to the next deadline when nobody has
anything to do, so a match's rounds and restarts cost what they cost and no time is waited.

Per action it prints the time of the registry's calls (intents, the seed exchange's
messages, the clock: round starts and match restarts) and of making every member's frames,
the median and range over `--repeats`. Beside benchmarks/host.py's CPU per action (the same
tables over real sockets), the difference is the trio shell and the system calls. What runs
is what is installed, or the build UNONET_BENCH_BUILD names (benchmarks/host.py --compiled
makes one); which one is said.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

if sys.path and Path(sys.path[0] or ".").resolve() == Path(__file__).resolve().parent:
    del sys.path[0]  # this folder: its host.py would shadow the host package
sys.path.append(str(Path(__file__).resolve().parent.parent))

from benchmarks import host as host_bench  # first: it puts a build on the path
from benchmarks.host_load import choose
from host.outgoing import SendEvent, SendMessage, SendSnapshot, event_frame
from host.registry import Registry
from host.settings import FAST_TIMINGS
from host.table import TableSettings
from protocol.frames import encode_frame
from protocol.game_codec import encode_action
from protocol.host_connection import HostConnection
from protocol.trust.primitives import seed_commitment
from unonet.actions import Action
from unonet.compiled import compiled_parts

SEATS = host_bench.SEATS
PARTS = ("intents", "seed messages", "clock", "frames")
"""What each action's time is split into (see the module's docstring)."""


class Member:
    """One light player's seat, sans-IO: its connection's protocol and what it knows."""

    def __init__(self, conn: int, rng: random.Random) -> None:
        self.conn = conn
        self.protocol = HostConnection(0.0)
        self.protocol.receive_data(encode_frame(
            {"t": "hello", "v": [1], "client": {"name": "bench", "version": "1"},
             "features": [], "name": f"p{conn}"}), 0.0)
        self.protocol.welcome()
        self.rng = rng
        self.seat: int | None = None
        self.legal: tuple[Action, ...] = ()
        self.waiting = False  # an intent not yet answered
        self.seeds: dict[int, bytes] = {}
        self.next_id = 100


class Run:
    """One repeat: the registry, its members and the time spent in each part."""

    def __init__(self, tables: int, seed: int) -> None:
        self.registry = Registry(FAST_TIMINGS)
        self.now = 0.0
        self.spent = dict.fromkeys(PARTS, 0.0)
        self.actions = 0
        self.rounds = 0
        rng = random.Random(seed)
        self.members: dict[int, Member] = {}
        for number in range(tables):
            self.registry.create_table(TableSettings(
                f"bench{number}", capacity=SEATS, headless=True, target_seats=SEATS,
                timings=FAST_TIMINGS))
            for _ in range(SEATS):
                member = Member(len(self.members) + 1, random.Random(rng.getrandbits(64)))
                self.members[member.conn] = member
                self.registry.request(member.conn, f"p{member.conn}",
                                      {"t": "join_table", "table": number,
                                       "name": f"p{member.conn}", "id": 1}, 0.0)
                self.registry.request(member.conn, f"p{member.conn}",
                                      {"t": "ready", "ready": True, "id": 2}, 0.0)

    def timed(self, part: str, call: Callable[..., object], *args: Any) -> None:
        start = time.perf_counter()
        call(*args)
        self.spent[part] += time.perf_counter() - start

    def route(self) -> list[tuple[int, dict[str, Any]]]:
        """Every member's frames of what the tables queued (timed), then what the members
        answer (seeds: not timed, a client's work)."""
        items = self.registry.take_outgoing()
        start = time.perf_counter()
        for item in items:
            member = self.members[item.conn]
            if type(item) is SendEvent:
                event_frame(member.protocol, item, check=False)
            elif type(item) is SendMessage:
                member.protocol.send(item.message)
            elif type(item) is SendSnapshot:
                member.protocol.snapshot(item.view, item.legal)
        self.spent["frames"] += time.perf_counter() - start
        answers: list[tuple[int, dict[str, Any]]] = []
        for item in items:
            member = self.members[item.conn]
            if type(item) is SendEvent or type(item) is SendSnapshot:
                member.legal = tuple(item.legal)
            elif type(item) is SendMessage:
                answers += self.answer(member, item.message)
        return answers

    def answer(self, member: Member, message: Mapping[str, Any]
               ) -> list[tuple[int, dict[str, Any]]]:
        kind = message.get("t")
        if kind == "seated":
            member.seat = message["seat"]
        elif kind == "accepted" or (kind == "error" and "ref" in message):
            member.waiting = False
        elif kind == "round_prepare":
            if member.seat == 0:
                self.rounds += 1
            seed = member.rng.randbytes(32)
            member.seeds = {message["round"]: seed}
            return [(member.conn, {"t": "seed_commit", "round": message["round"],
                                   "commit": seed_commitment(message["game_id"],
                                                             message["round"],
                                                             member.seat or 0, seed)})]
        elif kind == "seed_commits":
            kept = member.seeds.get(message["round"])
            if kept is not None and any(s == member.seat for s, _ in message["commits"]):
                return [(member.conn, {"t": "seed_reveal", "round": message["round"],
                                       "seed": kept})]
        return []

    def play(self, actions: int) -> None:
        registry = self.registry
        while self.actions < actions:
            answers = self.route()
            for conn, message in answers:
                self.timed("seed messages", registry.message, conn, message, self.now)
            acted = False
            for member in self.members.values():
                action = self.decision(member)
                if action is None:
                    continue
                member.next_id += 1
                member.waiting = True
                self.timed("intents", registry.intent, member.conn, member.next_id, action,
                           self.now)
                self.actions += 1
                acted = True
                self.route()
            if not acted and not answers:  # nobody has anything to do: the next deadline
                deadline = registry.clock_deadline()
                self.now = max(self.now + 0.001, deadline if deadline is not None else 0.0)
                self.timed("clock", registry.clock_tick, self.now)

    @staticmethod
    def decision(member: Member) -> Action | None:
        """A light player's choice (benchmarks/host_load.py `choose`) on its newest list."""
        if member.waiting or not member.legal:
            return None
        wires = [encode_action(a) for a in member.legal]
        by_wire = {id(w): a for w, a in zip(wires, member.legal, strict=True)}
        chosen = choose(wires)
        member.legal = ()
        return None if chosen is None else by_wire[id(chosen)]


def spread(values: list[float], digits: int = 1) -> str:
    return (f"{statistics.median(values):.{digits}f} "
            f"({min(values):.{digits}f}-{max(values):.{digits}f})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5, help="repeats (default 5)")
    parser.add_argument("--actions", type=int, default=20_000,
                        help="actions per repeat (default 20,000)")
    parser.add_argument("--tables", type=int, default=4,
                        help="tables of four members (default 4)")
    args = parser.parse_args(argv)
    if args.repeats < 1 or args.actions < 1 or args.tables < 1:
        parser.error("--repeats, --actions and --tables are at least 1")
    print(f"host logic, sans-IO: {compiled_parts()}; {args.tables} tables of {SEATS}, "
          f"{args.actions:,} actions a repeat, {args.repeats} "
          f"repeat{'s' if args.repeats > 1 else ''}", flush=True)
    totals: list[float] = []
    parts: dict[str, list[float]] = {part: [] for part in PARTS}
    per_round: list[float] = []
    for repeat in range(args.repeats):
        run = Run(args.tables, seed=repeat)
        run.play(args.actions)
        for part in PARTS:
            parts[part].append(run.spent[part] / run.actions * 1e6)
        totals.append(sum(run.spent.values()) / run.actions * 1e6)
        per_round.append(run.actions / max(1, run.rounds))
    print(f"per action                {spread(totals)} us   (the parts below, summed)")
    for part in PARTS:
        print(f"  {part:22s}  {spread(parts[part])} us")
    print(f"actions per round         {spread(per_round)}   (the seed exchange and the clock "
          "are paid once a round, or once a match, and spread over its actions here)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
