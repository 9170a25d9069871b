"""Engine throughput: full random-bot rounds, rounds/s and actions/s; RLCard's UNO beside it.

Run from the repository root (about 30 s with the defaults):

    .venv/bin/python benchmarks/engine.py                 # 4 s per configuration
    .venv/bin/python benchmarks/engine.py --seconds 10    # steadier figures
    .venv/bin/python benchmarks/engine.py --profile       # cProfile of the 2-seat run too

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
the per-step cost whatever the rules. Figures are printed, never asserted (DESIGN.md).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from unonet.match import MATCH_OVER, Match
from unonet.rules import RuleSet

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
            f"{self.name:<34} {self.seats:>5} {self.rounds_per_s:>10,.0f} "
            f"{self.actions_per_s:>11,.0f} {self.actions / self.rounds:>12.1f} {self.rounds:>8,}"
        )


# -- unonet ----------------------------------------------------------------------------------------


class UnonetRunner:
    """Random-bot rounds of unonet: matches played round after round."""

    def __init__(self, rules: RuleSet, seats: int, seed: int) -> None:
        self.rules = rules
        self.seats = seats
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
        choice = self.rng.choice
        actions = 0
        seat = match.pending_seat
        while seat is not None:
            match.apply(seat, choice(match.legal_actions(seat)))
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
        "--profile",
        action="store_true",
        help="also print a cProfile of unonet's 2-seat official rounds",
    )
    args = parser.parse_args(argv)

    print(
        f"Python {sys.version.split()[0]}, {args.seconds:g} s per configuration, "
        f"random bot on the pending seat only"
    )
    print(
        f"{'engine, rules':<34} {'seats':>5} {'rounds/s':>10} {'actions/s':>11} "
        f"{'actions/round':>12} {'rounds':>8}"
    )
    results: dict[str, Result] = {}
    configs = [
        ("ours2", "unonet, official rules", RuleSet(), 2),
        ("ours4", "unonet, official rules", RuleSet(), 4),
        ("like2", "unonet, RLCard-like rules", RLCARD_LIKE, 2),
        ("like4", "unonet, RLCard-like rules", RLCARD_LIKE, 4),
    ]
    for key, name, rules, seats in configs:
        runner = UnonetRunner(rules, seats, args.seed)
        results[key] = measure(name, seats, runner.round, args.seconds, args.warmup)
        print(results[key].line(), flush=True)

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

    print()
    ours2, ours4, like2 = results["ours2"], results["ours4"], results["like2"]
    quote = (
        f"unonet: {ours2.rounds_per_s:,.0f} rounds/s ({ours2.actions_per_s:,.0f} actions/s) "
        f"at 2 seats, {ours4.rounds_per_s:,.0f} rounds/s ({ours4.actions_per_s:,.0f} actions/s) "
        f"at 4 seats, official rules; {like2.rounds_per_s:,.0f} rounds/s at 2 seats with "
        f"RLCard-like rules"
    )
    if "rl2" in results:
        rl2 = results["rl2"]
        quote += (
            f". RLCard: {rl2.rounds_per_s:,.0f} rounds/s ({rl2.actions_per_s:,.0f} actions/s) "
            f"at 2 seats. Ratio ours/RLCard at 2 seats: rounds/s "
            f"{ours2.rounds_per_s / rl2.rounds_per_s:.2f}x official rules, "
            f"{like2.rounds_per_s / rl2.rounds_per_s:.2f}x RLCard-like rules; actions/s "
            f"{ours2.actions_per_s / rl2.actions_per_s:.2f}x"
        )
    print(quote + ".")

    if args.profile:
        print("\ncProfile, unonet official rules, 2 seats, 200 rounds:")
        profile(UnonetRunner(RuleSet(), 2, args.seed).round, 200)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
