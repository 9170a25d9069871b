"""Two builds of the engine side by side: this tree against another checkout, paired.

    git worktree add /work/wt-c603 c603c4e        # the build to compare with
    .venv/bin/python benchmarks/engine_pair.py /work/wt-c603 --repeats 7 --seconds 1

Each repeat runs one child process per tree (the order alternating each repeat, so a slow
spell of a shared machine falls on both alike); a child imports `unonet` from its tree alone
and plays random-bot rounds of each rule set for `--seconds` CPU seconds. It times the two
calls every step makes, `legal_actions` and `apply`, apart as well as whole rounds, so the
ratios say which of them moved (by the wall clock around each call, scaled by the share of the
wall clock the child got as CPU). A ratio is taken within one repeat (ours over theirs, above 1
is faster here), then summarised as median and range over the repeats: never a ratio of two
medians. Rule sets the other tree does not play are measured here alone. Figures are printed,
never asserted (DESIGN.md).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RULESETS = ("official", "party", "flip", "no_mercy")


def child(root: str, names: list[str], seconds: float, seed: int) -> dict[str, Any]:
    """Measure each rule set in `names` with the engine of `root`; {name: figures or error}."""
    sys.path.insert(0, root)
    from unonet.actions import Accept, Draw, Play
    from unonet.match import MATCH_OVER, Match
    from unonet.rules import RuleSet, preset

    def policy(actions: list[Any], rng: random.Random) -> Any:
        """RLCard's random agent: a random play while one is legal, else draw (or accept)."""
        plays = [a for a in actions if type(a) is Play]
        if plays:
            return rng.choice(plays)
        for action in actions:
            if type(action) is Draw or type(action) is Accept:
                return action
        return rng.choice(actions)

    def new_match(rules: Any, games: int) -> Any:
        seed_bytes = games.to_bytes(8, "big")
        try:
            return Match(rules, 2, seed_bytes)
        except Exception:  # a tree from before every variant was offered: its tests' flag
            earlier: dict[str, Any] = {"unreleased_variants": True}
            return Match(rules, 2, seed_bytes, **earlier)

    out: dict[str, Any] = {"unonet": __import__("unonet").__file__}
    for name in names:
        try:
            rules = RuleSet() if name == "official" else preset(name)
            match = new_match(rules, 1)
        except Exception as exc:  # the other tree may not play this rule set
            out[name] = {"error": f"{type(exc).__name__}: {exc}"}
            continue
        rng = random.Random(seed)
        games, rounds, steps = 1, 0, 0
        listing = applying = 0.0
        clock = time.perf_counter
        wall0, cpu0 = clock(), time.process_time()
        deadline = cpu0 + seconds
        while time.process_time() < deadline:
            if match.phase == MATCH_OVER:
                games += 1
                match = new_match(rules, games)
            match.start_round()
            seat = match.pending_seat
            while seat is not None:
                t0 = clock()
                actions = match.legal_actions(seat)
                t1 = clock()
                action = policy(actions, rng)
                t2 = clock()
                match.apply(seat, action)
                t3 = clock()
                listing += t1 - t0
                applying += t3 - t2
                steps += 1
                seat = match.pending_seat
            rounds += 1
        cpu = time.process_time() - cpu0
        share = cpu / (clock() - wall0)  # the wall clock's splits, scaled to this process's CPU
        out[name] = {"rounds_per_s": rounds / cpu, "steps": steps,
                     "list_us": listing * share / steps * 1e6,
                     "apply_us": applying * share / steps * 1e6}
    return out


def run_child(root: Path, names: list[str], seconds: float, seed: int) -> dict[str, Any]:
    command = [sys.executable, __file__, "--child", str(root), "--seconds", str(seconds),
               "--seed", str(seed), "--only", *names]
    done = subprocess.run(command, capture_output=True, text=True, cwd=root,
                          env={**os.environ, "PYTHONPATH": str(root)})
    if done.returncode != 0:
        raise SystemExit(f"the child for {root} failed:\n{done.stderr}")
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def spread(values: list[float], fmt: str = ".2f") -> str:
    return f"{statistics.median(values):{fmt}} ({min(values):{fmt}}-{max(values):{fmt}})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("other", nargs="?", help="the other checkout's root")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU s per rule set")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", nargs="+", default=list(RULESETS), choices=RULESETS)
    parser.add_argument("--child", metavar="ROOT", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.child, args.only, args.seconds, args.seed)))
        return 0
    if not args.other:
        parser.error("name the other checkout's root")
    trees = {"here": ROOT, "other": Path(args.other).resolve()}
    runs: dict[str, list[dict[str, Any]]] = {"here": [], "other": []}
    for repeat in range(args.repeats):
        order = ["here", "other"] if repeat % 2 == 0 else ["other", "here"]
        for which in order:
            runs[which].append(run_child(trees[which], args.only, args.seconds, args.seed))
        print(f"  repeat {repeat + 1}/{args.repeats} done", file=sys.stderr, flush=True)
    print(f"here: {runs['here'][0]['unonet']}\nother: {runs['other'][0]['unonet']}")
    print(f"{args.repeats} paired repeats of {args.seconds:g} CPU s per rule set, 2 seats, "
          "RLCard's random policy; ratios here/other (above 1: faster here), median (range)")
    for name in args.only:
        here = [r[name] for r in runs["here"]]
        other = [r[name] for r in runs["other"]]
        if "error" in here[0]:
            print(f"{name}: not played here ({here[0]['error']})")
            continue
        line = (f"{name}: rounds/s here {spread([h['rounds_per_s'] for h in here], ',.0f')}; "
                f"list {spread([h['list_us'] for h in here])} us, "
                f"apply {spread([h['apply_us'] for h in here])} us a step")
        if "error" in other[0]:
            print(f"{line}; the other tree does not play it ({other[0]['error']})")
            continue
        rounds = [h["rounds_per_s"] / o["rounds_per_s"] for h, o in zip(here, other, strict=True)]
        listing = [o["list_us"] / h["list_us"] for h, o in zip(here, other, strict=True)]
        applying = [o["apply_us"] / h["apply_us"] for h, o in zip(here, other, strict=True)]
        print(f"{line}\n    x{spread(rounds)} rounds/s, x{spread(listing)} listing, "
              f"x{spread(applying)} apply (other: list "
              f"{statistics.median(o['list_us'] for o in other):.2f} us, apply "
              f"{statistics.median(o['apply_us'] for o in other):.2f} us)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
