"""Engine throughput: full random-bot rounds, rounds/s and actions/s; RLCard's UNO beside it.

Run from the repository root (about a minute with the defaults):

    .venv/bin/python benchmarks/engine.py                 # 4 s per configuration
    .venv/bin/python benchmarks/engine.py --seconds 10    # steadier figures
    .venv/bin/python benchmarks/engine.py --profile       # cProfile of the 2-seat run too
    .venv/bin/python benchmarks/engine.py --no-compiled   # the pure-Python engine only

The bot picks, at every step, a uniformly random legal action of the seat the game waits for
(`Match.pending_seat`) and nothing out of turn, which is what RLCard's random agent does. Each
match is played round after round (`start_round`) to its end, then a new one begins; a round
counts from the deal to its last card, actions are the seats' actions (the host's StartRound is
not one). RLCard (`pip install rlcard`, never a dependency of unonet) is measured the same way
when it can be imported, and skipped with a message when not.

What is compared. unonet plays the full rules: drawing while holding a playable card (allowed
by the official rules), the drawn-card decision, UNO calls and catches, the Wild Draw Four
challenge, every event of the protocol and every check of the input. RLCard's UNO draws only
when nothing is playable, plays a playable drawn card by itself, has no UNO call, no challenge
and no events. A uniform bot under the official rules therefore draws often, and its rounds
last about twenty times as many actions as RLCard's: rounds/s of the official rules and of
RLCard are not the same work. The line "unonet, RLCard-like rules" plays draw_when_playable=
forbidden, the nearest rule set (rounds about 75 actions), so rounds/s compare; actions/s is
the per-step cost whatever the rules. The lines "RLCard's policy" play the official rules
with RLCard's agent: a random play while one is legal, else draw, a playable drawn card played;
rounds are then the same game as RLCard's, a draw and its play counting as two actions.

Which engine. `pip install .` ships the engine compiled by mypyc (setup.py; the modules of
unonet.compiled.ENGINE_MODULES), while this script imports the source tree, which runs as pure
Python (as an editable install does). So it measures both: the source tree in this process, then
the same modules compiled as setup.py compiles them (mypyc, -O3, from the test extra's mypy;
needs a C compiler) into a temporary folder, measured in a child process. `--no-compiled` skips
the second. Figures are printed, never asserted (DESIGN.md).
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

# The child measuring the compiled engine finds it in UNONET_ENGINE_ROOT.
sys.path.insert(0, os.environ.get("UNONET_ENGINE_ROOT", str(Path(__file__).parents[1])))

from unonet.actions import Accept, Action, Draw, Play
from unonet.compiled import ENGINE_MODULES, engine_is_compiled
from unonet.match import MATCH_OVER, Match
from unonet.rules import RuleSet, preset

ROOT = Path(__file__).resolve().parent.parent
ENGINE_ROOT = "UNONET_ENGINE_ROOT"
RLCARD_LIKE = RuleSet(draw_when_playable="forbidden")


@dataclass
class Result:
    name: str
    seats: int
    rounds: int
    actions: int
    seconds: float

    @property
    def rounds_per_s(self) -> float:
        return self.rounds / self.seconds

    @property
    def actions_per_s(self) -> float:
        return self.actions / self.seconds

    def line(self) -> str:
        return (
            f"{self.name:<46} {self.seats:>5} {self.rounds_per_s:>10,.0f} "
            f"{self.actions_per_s:>11,.0f} {self.actions / self.rounds:>12.1f} {self.rounds:>8,}"
        )


# -- unonet ----------------------------------------------------------------------------------------


Policy = Callable[[list[Action], Callable[[Sequence[Action]], Action]], Action]


def uniform(actions: list[Action], choice: Callable[[Sequence[Action]], Action]) -> Action:
    """A uniformly random legal action."""
    return choice(actions)


def rlcard_policy(actions: list[Action], choice: Callable[[Sequence[Action]], Action]) -> Action:
    """RLCard's random agent on the official rules: a uniformly random play while one is legal
    (a playable drawn card is played, as RLCard plays it by itself), else draw; a Wild Draw Four
    is accepted (RLCard has no challenge). The engine still checks and reports everything.

    `legal_actions` lists a seat's plays first, so the plays are the list up to its last Play.
    """
    plays = len(actions)
    while plays and type(actions[plays - 1]) is not Play:
        plays -= 1
    if plays:
        return choice(actions[:plays])
    for action in actions:
        if type(action) is Draw or type(action) is Accept:
            return action
    return choice(actions)


class UnonetRunner:
    """Random-bot rounds of unonet: matches played round after round."""

    def __init__(self, rules: RuleSet, seats: int, seed: int, policy: Policy = uniform) -> None:
        self.rules = rules
        self.seats = seats
        self.policy = policy
        self.rng = random.Random(seed)
        self.games = 0
        self.match = self._new_match()

    def _new_match(self) -> Match:
        self.games += 1
        return Match(self.rules, self.seats, self.games.to_bytes(8, "big"))

    def round(self) -> int:
        """Play one round; return the number of seat actions."""
        if self.match.phase == MATCH_OVER:
            self.match = self._new_match()
        match = self.match
        match.start_round()
        choice, policy = self.rng.choice, self.policy
        actions = 0
        seat = match.pending_seat
        while seat is not None:
            match.apply(seat, policy(match.legal_actions(seat), choice))
            actions += 1
            seat = match.pending_seat
        return actions


# -- RLCard ----------------------------------------------------------------------------------------


class RLCardRunner:
    """Random-agent games of RLCard's UNO (a game is one round there)."""

    def __init__(self, seats: int, seed: int) -> None:
        import numpy as np
        from rlcard.games.uno.game import UnoGame

        self.game = UnoGame(num_players=seats)
        self.game.configure({"game_num_players": seats})
        self.game.np_random = np.random.RandomState(seed)
        self.rng = random.Random(seed)

    def round(self) -> int:
        game = self.game
        choice = self.rng.choice
        game.init_game()
        actions = 0
        while not game.is_over():
            game.step(choice(game.get_legal_actions()))
            actions += 1
        return actions


def rlcard_available() -> str | None:
    """None if RLCard's UNO imports, else the reason it does not."""
    try:
        import rlcard.games.uno.game  # noqa: F401
    except ImportError as exc:
        return str(exc)
    return None


# -- measuring -------------------------------------------------------------------------------------


def measure(
    name: str, seats: int, play_round: Callable[[], int], seconds: float, warmup: float
) -> Result:
    """Play rounds for `warmup` seconds untimed, then for `seconds` timed."""
    deadline = time.perf_counter() + warmup
    while time.perf_counter() < deadline:
        play_round()
    rounds = actions = 0
    start = time.perf_counter()
    deadline = start + seconds
    now = start
    while now < deadline:
        actions += play_round()
        rounds += 1
        now = time.perf_counter()
    return Result(name, seats, rounds, actions, now - start)


def profile(play_round: Callable[[], int], rounds: int) -> None:
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(rounds):
        play_round()
    profiler.disable()
    pstats.Stats(profiler).sort_stats("tottime").print_stats(15)


CONFIGS: list[tuple[str, str, RuleSet, int, Policy]] = [
    ("ours2", "unonet, official rules", RuleSet(), 2, uniform),
    ("ours4", "unonet, official rules", RuleSet(), 4, uniform),
    ("like2", "unonet, RLCard-like rules", RLCARD_LIKE, 2, uniform),
    ("like4", "unonet, RLCard-like rules", RLCARD_LIKE, 4, uniform),
    ("pol2", "unonet, official, RLCard's policy", RuleSet(), 2, rlcard_policy),
    ("pol4", "unonet, official, RLCard's policy", RuleSet(), 4, rlcard_policy),
    # The house-rule presets (RULEBOOK.md 5), with the same policy: a play while one is legal,
    # else draw or take the pending draw. Only the pending seat acts, so nobody jumps in.
    ("party2", "unonet, party preset, RLCard's policy", preset("party"), 2, rlcard_policy),
    ("party4", "unonet, party preset, RLCard's policy", preset("party"), 4, rlcard_policy),
    ("s0042", "unonet, seed004 preset, RLCard's policy", preset("seed004"), 2, rlcard_policy),
    ("s0044", "unonet, seed004 preset, RLCard's policy", preset("seed004"), 4, rlcard_policy),
]
def run_unonet(args: argparse.Namespace, suffix: str) -> dict[str, Result]:
    results: dict[str, Result] = {}
    for key, name, rules, seats, policy in CONFIGS:
        runner = UnonetRunner(rules, seats, args.seed, policy)
        results[key] = measure(name + suffix, seats, runner.round, args.seconds, args.warmup)
        print(results[key].line(), flush=True)
    return results


def run_compiled(args: argparse.Namespace) -> dict[str, Result] | str:
    """Compile a copy of the engine as setup.py does and measure it in a child process; the
    results, or why they could not be had."""
    with tempfile.TemporaryDirectory(prefix="unonet-mypyc-") as folder:
        shutil.copytree(ROOT / "unonet", Path(folder) / "unonet")
        sources = [name.replace(".", "/") + ".py" for name in ENGINE_MODULES]
        build = subprocess.run(
            [sys.executable, "-m", "mypyc", *sources],
            cwd=folder,
            capture_output=True,
            text=True,
            env={**os.environ, "MYPYC_OPT_LEVEL": "3"},  # as setup.py builds it
        )
        if build.returncode != 0:
            return "mypyc failed: " + (build.stderr or build.stdout).strip().splitlines()[-1]
        out = Path(folder) / "results.json"
        child = [
            sys.executable, __file__, "--unonet-only", "--results-to", str(out),
            "--seconds", str(args.seconds), "--warmup", str(args.warmup), "--seed", str(args.seed),
        ]
        if subprocess.run(child, env={**os.environ, ENGINE_ROOT: folder}).returncode != 0:
            return "its measuring process failed (see above)"
        return {key: Result(**value) for key, value in json.loads(out.read_text()).items()}


def summary(engine: str, results: dict[str, Result]) -> str:
    ours2, like2, pol2 = results["ours2"], results["like2"], results["pol2"]
    party2, s0042 = results["party2"], results["s0042"]
    return (
        f"{engine} at 2 seats: {ours2.rounds_per_s:,.0f} rounds/s ({ours2.actions_per_s:,.0f} "
        f"actions/s) official rules, {like2.rounds_per_s:,.0f} rounds/s RLCard-like rules, "
        f"{pol2.rounds_per_s:,.0f} rounds/s with RLCard's policy; with that policy "
        f"{party2.rounds_per_s:,.0f} rounds/s under party and {s0042.rounds_per_s:,.0f} under "
        f"seed004 ({party2.actions_per_s / pol2.actions_per_s:.2f}x and "
        f"{s0042.actions_per_s / pol2.actions_per_s:.2f}x the official rules' actions/s: "
        f"what a step of those rules costs, relative to an official step)."
    )


def ratios(results: dict[str, Result], keys: list[str]) -> str:
    rl2 = results["rl2"]
    parts = [
        f"{results[key].name.strip()}: {results[key].rounds_per_s / rl2.rounds_per_s:.2f}x"
        for key in keys
        if key in results
    ]
    return "Ratio of rounds/s to RLCard at 2 seats (target 2x): " + "; ".join(parts) + "."


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--seconds", type=float, default=4.0, help="timed seconds per configuration (default 4)"
    )
    parser.add_argument(
        "--warmup", type=float, default=0.5, help="untimed seconds first (default 0.5)"
    )
    parser.add_argument("--seed", type=int, default=1, help="the bots' random seed")
    parser.add_argument("--no-rlcard", action="store_true", help="skip RLCard")
    parser.add_argument(
        "--no-compiled",
        action="store_true",
        help="measure only the pure-Python engine, not the compiled one that pip install builds",
    )
    parser.add_argument(
        "--profile",
        action="store_true",
        help="also print a cProfile of unonet's 2-seat official rounds",
    )
    parser.add_argument("--unonet-only", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--results-to", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.unonet_only:  # the child measuring the compiled engine
        if not engine_is_compiled():
            print("the engine in UNONET_ENGINE_ROOT is not compiled", file=sys.stderr)
            return 1
        results = run_unonet(args, " (compiled)")
        if args.results_to:
            args.results_to.write_text(json.dumps({k: vars(r) for k, r in results.items()}))
        return 0

    print(
        f"Python {sys.version.split()[0]}, {args.seconds:g} s per configuration, "
        f"random bot on the pending seat only"
    )
    print(
        f"{'engine, rules':<46} {'seats':>5} {'rounds/s':>10} {'actions/s':>11} "
        f"{'actions/round':>12} {'rounds':>8}"
    )
    results = run_unonet(args, "")
    missing = "skipped (--no-rlcard)" if args.no_rlcard else rlcard_available()
    if missing is None:
        for seats in (2, 4):
            rl = RLCardRunner(seats, args.seed)
            results[f"rl{seats}"] = measure(
                "RLCard UnoGame", seats, rl.round, args.seconds, args.warmup
            )
            print(results[f"rl{seats}"].line(), flush=True)
    else:
        print(f"RLCard not measured: {missing} (`.venv/bin/pip install rlcard` to compare)")
    compiled: dict[str, Result] = {}
    if not args.no_compiled:
        built = run_compiled(args)
        if isinstance(built, str):
            print(f"compiled engine not measured: {built}")
        else:
            compiled = built

    print()
    print(summary("unonet, pure Python", results))
    if compiled:
        print(summary("unonet, compiled (as pip install builds it)", compiled))
    if "rl2" in results:
        rl2 = results["rl2"]
        print(
            f"RLCard at 2 seats: {rl2.rounds_per_s:,.0f} rounds/s "
            f"({rl2.actions_per_s:,.0f} actions/s)."
        )
        merged = {**results, **{f"c{key}": value for key, value in compiled.items()}}
        keys = ["ours2", "like2", "pol2", "cours2", "clike2", "cpol2"]
        print(ratios(merged, keys))

    if args.profile:
        print("\ncProfile, unonet official rules, 2 seats, 200 rounds:")
        profile(UnonetRunner(RuleSet(), 2, args.seed).round, 200)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
