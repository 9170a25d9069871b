"""How strong the bots are: a tournament of whole matches, and the search's speed.

One command, from the repository root:

    .venv/bin/python benchmarks/bots.py                        # every cell, --matches each
    .venv/bin/python benchmarks/bots.py --cell strong-normal/official/2=300 --jobs 2
    .venv/bin/python benchmarks/bots.py --speed                # the search's speed alone

The tournament. A cell is a pairing, a rule set and a seat count: `strong-normal/party/4` is
one `strong` bot against three `normal` ones under the party preset. Each match is a whole
match (to the rules' target), dealt from its own seed, with the first bot's seat rotated from
match to match (seat i % seats), so that no seat's place in the dealing order favours it. The
figure is the share of matches the first bot won, with its 95% Wilson interval, beside its
fair share (1 / seats): `strong` is better than `normal` when the interval lies above the fair
share. Rounds won are shown too (a finer but correlated measure). Ctrl-C (or SIGINT) stops the
cell in play and prints its figures over the matches it finished (kill -TERM too).

The strong bot's budget: by default its own (a time, unonet.bot_settings.DEFAULT_BUDGET), whose
figures move with the machine's load. `--search-time 0 --search-sims N` gives it a budget in
simulations alone: N playouts a decision (fewer when the search settles early), no time limit,
so its moves depend on the seeds alone and a cell's figures are the same on any machine at any
load. The output says which budget was used, and the CPU time per decision that budget cost is
printed with every cell (the default's limit: 1 s of CPU a decision at 4 seats). With
`--search-cpu`, `--search-time` counts the process's CPU time instead of the wall clock: the
strong bot thinks as long as it would with a core of its own whatever the load, so a budget of
simulations capped in time keeps to the limit and its figures stay nearly the same at any load
(only the decisions the cap cuts can differ).

Time per decision: wall-clock and CPU time of every `act` of the first bot (each move it was
asked for, a move with one legal answer included), median and 99th percentile, and the
simulations its search made per searched decision. The machine's load shows in the wall clock
and not in the CPU time; both are printed, with the CPU share the process got.

The search's speed (--speed): simulations (a sampled round played out with the normal policy
from a move) per CPU second, from real decisions of real matches, with the parts of one: the
sample, the round built from it, the copy per candidate, and the microseconds per action of a
playout. Figures are printed, never asserted (DESIGN.md).
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import random
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from unonet.actions import Action
from unonet.bots import POLICIES, Bot, SearchBudget, StrongBot, make_bot
from unonet.bots.driver import play_match
from unonet.bots.playout import Rollouts
from unonet.bots.sampling import Sampler
from unonet.cards import DeckManifest
from unonet.determinize import build_round, clone_round, table_for
from unonet.events import RoundEnded
from unonet.match import Match
from unonet.rules import RuleSet, parse_option, preset
from unonet.view import View

RULES = ("official", "party", "flip", "no_mercy")
SEATS = (2, 4)
PAIRS = ("strong-normal", "normal-random")
Z95 = 1.959964
LIMIT = 1.0
"""Issue 49's limit on a decision at 4 seats, in seconds on one core: the decisions whose CPU
time passed it are counted."""


@dataclass
class Result:
    """One match: whether the first bot won it, its rounds, and its decisions' times."""

    won: bool
    rounds_won: int
    rounds: int
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    single: list[float] = field(default_factory=list)  # wall time of moves with one legal answer
    sims: list[int] = field(default_factory=list)  # per searched decision
    match_wall: float = 0.0
    match_cpu: float = 0.0


@dataclass(frozen=True)
class Cell:
    first: str
    other: str
    rules: str
    seats: int
    matches: int

    @property
    def name(self) -> str:
        return f"{self.first}-{self.other}/{self.rules}/{self.seats}"


def wilson(wins: int, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + Z95 * Z95 / (2 * n)) / (1 + Z95 * Z95 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95 * Z95 / (4 * n * n)) / (1 + Z95 * Z95 / n)
    return centre - half, centre + half


OVERRIDES: dict[str, object] = {}
"""--set OPTION=VALUE over every cell's preset (a quicker tournament: --set target=150)."""


def rules_of(name: str) -> RuleSet:
    return preset(name, **OVERRIDES)


def play_one(args: tuple[Cell, int, SearchBudget, dict[str, object]]) -> Result:
    """Match `index` of `cell`: the first bot at seat index % seats, the others around it."""
    cell, index, budget, overrides = args
    OVERRIDES.update(overrides)  # in a worker process too
    rules = rules_of(cell.rules)
    seats = cell.seats
    seed = f"bots-{cell.rules}-{seats}-{index}".encode()
    match = Match(rules, seats, seed)
    first = index % seats
    bots: list[Bot] = [
        make_bot(cell.first if seat == first else cell.other, seat, rules, match.manifest,
                 seed=index * 131 + seat, budget=budget)
        for seat in range(seats)
    ]
    result = Result(False, 0, 0)
    timed = bots[first]
    act = timed.act

    def timed_act(view: View, legal: Sequence[Action]) -> Action:
        wall, cpu = time.perf_counter(), time.process_time()
        action = act(view, legal)
        result.wall.append(time.perf_counter() - wall)
        result.cpu.append(time.process_time() - cpu)
        if len(legal) == 1:
            result.single.append(result.wall[-1])
        report = getattr(timed, "last", None)
        if isinstance(timed, StrongBot) and report is not None and report.worlds:
            result.sims.append(report.simulations)
        return action

    timed.act = timed_act  # type: ignore[method-assign]
    winners: list[int | None] = []

    def listen(seat: int, action: Action, events: list[object]) -> None:
        winners.extend(e.winner for e in events if isinstance(e, RoundEnded))

    wall, cpu = time.perf_counter(), time.process_time()
    play_match(match, bots, listen)  # type: ignore[arg-type]
    result.match_wall = time.perf_counter() - wall
    result.match_cpu = time.process_time() - cpu
    result.won = match.winner == first
    result.rounds = len(winners)
    result.rounds_won = sum(1 for w in winners if w == first)
    return result


def percentile(values: list[float], q: float) -> float:
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run_cell(cell: Cell, budget: SearchBudget, jobs: int) -> None:
    tasks = [(cell, index, budget, dict(OVERRIDES)) for index in range(cell.matches)]
    started = time.perf_counter()
    results: list[Result] = []

    def progress(result: Result) -> None:
        results.append(result)
        won = sum(r.won for r in results)
        print(f"    {cell.name} match {len(results)}/{cell.matches}: "
              f"{'won' if result.won else 'lost'} ({result.rounds_won}/{result.rounds} rounds, "
              f"{result.match_cpu:.0f} s CPU); {won}/{len(results)} so far", file=sys.stderr,
              flush=True)

    stopped = ""
    try:
        if jobs > 1:
            with multiprocessing.Pool(jobs) as pool:
                for result in pool.imap_unordered(play_one, tasks, chunksize=1):
                    progress(result)
        else:
            for task in tasks:
                progress(play_one(task))
    except KeyboardInterrupt:  # Ctrl-C (or kill -INT): the figures of the matches played
        stopped = f" (stopped by hand after {len(results)} of {cell.matches} matches)"
        if not results:
            raise
    summarize(cell, results, started, stopped)


def summarize(cell: Cell, results: list[Result], started: float, stopped: str) -> None:
    """A cell's lines: the share won with its interval, then the first bot's time per
    decision and its search's simulations."""
    wins = sum(r.won for r in results)
    n = len(results)
    low, high = wilson(wins, n)
    rounds = sum(r.rounds for r in results)
    rounds_won = sum(r.rounds_won for r in results)
    wall = [t for r in results for t in r.wall]
    cpu = [t for r in results for t in r.cpu]
    sims = [s for r in results for s in r.sims]
    match_wall = sum(r.match_wall for r in results)
    match_cpu = sum(r.match_cpu for r in results)
    fair = 1 / cell.seats
    verdict = "above" if low > fair else ("below" if high < fair else "within")
    print(f"{cell.name}: {wins}/{n} matches won = {wins / n:.3f} "
          f"[95% {low:.3f}-{high:.3f}], fair share {fair:.2f}: {verdict} it; "
          f"rounds {rounds_won}/{rounds} = {rounds_won / max(rounds, 1):.3f}{stopped}")
    print(f"    {cell.first}'s decisions: {len(wall)}; wall median "
          f"{1000 * percentile(wall, .5):.1f} ms, p99 {1000 * percentile(wall, .99):.1f} ms, "
          f"max {1000 * max(wall or [0]):.1f} ms;"
          f" CPU median {1000 * percentile(cpu, .5):.1f} ms, p99 {1000 * percentile(cpu, .99):.1f}"
          f" ms, over {LIMIT:.0f} s: {sum(t > LIMIT for t in cpu)};"
          f" CPU share {match_cpu / max(match_wall, 1e-9):.2f}")
    single = [t for r in results for t in r.single]
    if single:
        print(f"    of those, with one legal move: {len(single)}; wall median "
              f"{1000 * percentile(single, .5):.2f} ms, p99 {1000 * percentile(single, .99):.2f}"
              " ms")
    if sims:
        print(f"    searched decisions: {len(sims)}; simulations each: median "
              f"{statistics.median(sims):.0f}, p99 {percentile([float(s) for s in sims], .99):.0f}"
              f"; {time.perf_counter() - started:.0f} s for the cell")
    sys.stdout.flush()


# -- the search's speed ------------------------------------------------------------------------


def speed(rules_names: Sequence[str], seats_list: Sequence[int], decisions: int) -> None:
    """Simulations per CPU second, measured on real decisions of normal-bot matches."""
    print("engine: pure Python")
    for name in rules_names:
        for seats in seats_list:
            _speed_cell(name, seats, decisions)


@dataclass
class SpeedStats:
    samples: list[float] = field(default_factory=list)
    builds: list[float] = field(default_factory=list)
    clones: list[float] = field(default_factory=list)
    sims: int = 0
    steps: int = 0
    sim_cpu: float = 0.0


class _Probe(StrongBot):
    """A strong bot whose search's parts are timed at each decision with two or more legal
    actions (a sample, its round, then up to four legal actions each copied and played out);
    it then plays the normal policy's move, so the matches are normal bots' matches."""

    def __init__(self, seat: int, rules: RuleSet, manifest: DeckManifest, stats: SpeedStats,
                 limit: int) -> None:
        super().__init__(seat, rules, manifest, seed=1)
        self.stats = stats
        self.limit = limit
        self.rng = random.Random(7)

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        stats = self.stats
        if len(legal) >= 2 and len(stats.samples) < self.limit:
            sampler = Sampler(self.knowledge, view, self.rules, self.manifest)
            t0 = time.process_time()
            world = sampler.sample(self.rng)
            t1 = time.process_time()
            base = build_round(world)
            stats.samples.append(t1 - t0)
            stats.builds.append(time.process_time() - t1)
            template = self._template(view)
            rollouts = Rollouts(self.seat, self.rules, self.manifest, len(view.seats),
                                self.normal, [s.score for s in view.seats])
            for action in legal[:4]:
                c0 = time.process_time()
                rnd = clone_round(base)
                c1 = time.process_time()
                outcome = rollouts.evaluate(table_for(template, rnd), action, random.Random(1))
                stats.clones.append(c1 - c0)
                stats.sim_cpu += time.process_time() - c1
                stats.sims += 1
                stats.steps += outcome.steps
        return self.normal.act(view, legal)


def _speed_cell(name: str, seats: int, decisions: int) -> None:
    rules = rules_of(name)
    stats = SpeedStats()
    index = 0
    while len(stats.samples) < decisions:
        match = Match(rules, seats, f"speed-{index}".encode())
        index += 1
        bots: list[Bot] = [_Probe(0, rules, match.manifest, stats, decisions)]
        bots += [make_bot("normal", s, rules, match.manifest, seed=s) for s in range(1, seats)]
        play_match(match, bots)
    print(f"{name}/{seats}: {stats.sims / stats.sim_cpu:.0f} simulations per CPU second "
          f"({stats.steps / stats.sims:.0f} actions each, "
          f"{1e6 * stats.sim_cpu / stats.steps:.1f} us per action); per sample "
          f"{1e6 * statistics.median(stats.samples):.0f} us, round built "
          f"{1e6 * statistics.median(stats.builds):.0f} us, copied "
          f"{1e6 * statistics.median(stats.clones):.0f} us (medians over "
          f"{len(stats.samples)} decisions, {stats.sims} simulations)")
    sys.stdout.flush()


# -- the command line --------------------------------------------------------------------------


def build() -> str:
    """The commit measured, with "+changes" when the tree differs from it, and the load."""
    root = Path(__file__).resolve().parents[1]
    try:
        commit = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"],
                                capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--",
                                "unonet", "benchmarks"], capture_output=True, text=True,
                               check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit, dirty = "unknown", ""
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else math.nan
    return f"commit {commit}{' +changes' if dirty else ''}; load average {load:.2f}"


def parse_cell(text: str, matches: int) -> Cell:
    spec, _, count = text.partition("=")
    parts = spec.split("/")
    if len(parts) != 3:
        raise argparse.ArgumentTypeError(f"{text!r}: a cell is PAIR/RULES/SEATS[=MATCHES]")
    pair, rules, seats = parts
    first, _, other = pair.partition("-")
    if first not in POLICIES or other not in POLICIES:
        raise argparse.ArgumentTypeError(f"{pair!r}: a pair is two of {', '.join(POLICIES)}")
    return Cell(first, other, rules, int(seats), int(count) if count else matches)


def _stop(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cell", action="append", default=[], metavar="PAIR/RULES/SEATS[=N]",
                        help="a cell to play (repeatable; default: every pair of "
                        f"{', '.join(PAIRS)} under {', '.join(RULES)} at {SEATS} seats)")
    parser.add_argument("--matches", type=int, default=200,
                        help="matches per cell when a cell does not say (default 200)")
    parser.add_argument("--search-time", type=float, default=None,
                        help="the strong bot's time per decision (default: its own, "
                        "unonet.bots.strong.DEFAULT_BUDGET); 0: no time limit")
    parser.add_argument("--search-cpu", action="store_true",
                        help="count --search-time in the process's CPU time, not the wall "
                        "clock: the strong bot thinks as long as with a core of its own, "
                        "whatever the machine's load")
    parser.add_argument("--search-sims", type=int, default=None,
                        help="the strong bot's simulations per decision (default: its own)")
    parser.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE",
                        help="a rule option over every cell's preset (e.g. target=150 for a "
                        "quicker tournament; repeatable)")
    parser.add_argument("--jobs", type=int, default=1,
                        help="matches played at once, in that many processes (default 1)")
    parser.add_argument("--speed", action="store_true",
                        help="measure the search's speed only")
    parser.add_argument("--decisions", type=int, default=60,
                        help="with --speed: decisions measured per rule set and seat count")
    args = parser.parse_args(argv)
    for stop in (signal.SIGINT, signal.SIGTERM):
        # A shell starts a background job with SIGINT ignored: stopping it by hand must work.
        signal.signal(stop, _stop)
    for item in args.set:
        option, _, text = item.partition("=")
        OVERRIDES[option] = parse_option(option, text)
    if args.speed:
        speed(RULES, SEATS, args.decisions)
        return 0
    default = SearchBudget()
    seconds = default.seconds if args.search_time is None else (args.search_time or None)
    sims = default.simulations if args.search_sims is None else args.search_sims
    budget = SearchBudget(seconds, sims, cpu=args.search_cpu)
    cells = [parse_cell(text, args.matches) for text in args.cell] or [
        parse_cell(f"{pair}/{rules}/{seats}", args.matches)
        for pair in PAIRS for rules in RULES for seats in SEATS
    ]
    if OVERRIDES:
        print(f"rules: each preset with {OVERRIDES}")
    if budget.seconds is None:
        kind = (f"a budget in simulations: {budget.simulations} per decision, no time limit "
                "(deterministic: the figures do not depend on the machine's load; the CPU "
                "time per decision it cost is printed with each cell)")
    else:
        clock = "CPU time" if budget.cpu else "wall clock"
        kind = (f"a budget in time: {budget.seconds} s ({clock}) or {budget.simulations} "
                "simulations per decision, whichever comes first")
    searching = any("strong" in (cell.first, cell.other) for cell in cells)
    print(f"engine: pure Python; {build()}; "
          f"{f'strong: {kind}; ' if searching else ''}{os.cpu_count()} CPUs, {args.jobs} job(s)")
    for cell in cells:
        run_cell(cell, budget, args.jobs)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
