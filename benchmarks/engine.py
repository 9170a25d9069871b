"""Engine throughput, paired with RLCard's UNO: rounds per CPU second, median and range.

One command, from the repository root (about a minute of CPU with the defaults):

    .venv/bin/python benchmarks/engine.py                  # 7 repeats, 1 s per side each
    .venv/bin/python benchmarks/engine.py --repeats 11 --seconds 2 --seats 2 4
    .venv/bin/python benchmarks/engine.py --profile        # cProfile of one side after the rest

How it is measured. Every side (an engine and rules, or one of RLCard's two measures) runs in
this one process, in turn, for `--seconds` each, and the turn repeats `--repeats` times with
the order of the sides rotated each time, so that a slow spell of a shared machine falls on
every side alike. A side's figure in one repeat is rounds per CPU second of this process
(time.process_time: other processes on the core do not count against it); its wall time is
kept too, and "CPU share" says how much of the wall clock the process got (1.00: a core to
itself). Each ratio to RLCard is taken within one repeat (the two sides ran seconds apart) and
then summarised: median and range over the repeats, never a ratio of two medians.

The bot picks, at every step, a random legal action of the seat the game waits for
(`Match.pending_seat`) and nothing out of turn, as RLCard's random agent does. A round counts
from the deal to its last card; actions are the seats' actions.

What is compared.
- "RLCard step()" is RLCard's UnoGame as its environments drive it: `step()` applies the
  action and builds the next player's observation (a dict of hand, target, legal actions,
  played cards, card counts) every step.
- "RLCard rules only" is the same game without that observation: `Round.proceed_round` and
  `Round.get_legal_actions`, the rule logic alone. unonet produces events and checks its input
  at every step but builds no observation (a view is asked for, not pushed), so this is the
  like-for-like measure of the rules, and the one that flatters RLCard least.
- unonet "official, RLCard's policy" plays the same game as RLCard: a random play while one is
  legal, else draw, a playable drawn card played (so a draw and its play count as two
  actions); a Wild Draw Four accepted. unonet still runs the full rules: the drawn-card
  decision, UNO calls, the challenge window, every event and check.
- unonet "RLCard-like rules, uniform" plays draw_when_playable=forbidden with a uniformly
  random legal action: the nearest rule set, rounds of about the same length.
- unonet "official, uniform" draws while holding a playable card (the official rules allow it),
  so its rounds last many times as long: its rounds/s is not RLCard's work; actions/s is.
- Flip plays UNO Flip with RLCard's policy (RLCard has no Flip: its ratio says how a Flip round
  costs against RLCard's classic round). No Mercy has its place here and prints "not in the
  engine yet" until issue 15's engine lands (`RuleSet(variant="no_mercy")`).

Which engine. This script imports the engine that `import unonet` finds (an install, or this
source tree) and says where it is: there is one build, pure Python. Figures are printed, never
asserted (DESIGN.md).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1]))  # this tree's engine, installed or not

from unonet.actions import Accept, Action, Draw, Play
from unonet.match import MATCH_OVER, Match
from unonet.rules import RuleSet, preset

RLCARD_LIKE = RuleSet(draw_when_playable="forbidden")

Policy = Callable[[list[Action], Callable[[Sequence[Action]], Action]], Action]
PlayRound = Callable[[], int]


def uniform(actions: list[Action], choice: Callable[[Sequence[Action]], Action]) -> Action:
    """A uniformly random legal action."""
    return choice(actions)


def rlcard_policy(actions: list[Action], choice: Callable[[Sequence[Action]], Action]) -> Action:
    """RLCard's random agent on our rules: a uniformly random play while one is legal (a
    playable drawn card is played, as RLCard plays it by itself), else draw; a Wild Draw Four
    (or Flip's Wild Draw Color) is accepted, RLCard having no challenge.

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


# -- unonet ----------------------------------------------------------------------------------------


def variant_rules(variant: str) -> RuleSet | str:
    """The rules of `variant` if this engine plays it, else the reason it does not."""
    try:
        rules = RuleSet().with_options({"variant": variant})  # its defaults
        Match(rules, 2, b"probe")
    except Exception as exc:  # any refusal: the variant is not in this engine
        return f"not in the engine yet ({type(exc).__name__}: {exc})"
    return rules


def new_match(rules: RuleSet, seats: int, seed: bytes) -> Match:
    """A match of `rules`, as users get it."""
    return Match(rules, seats, seed)


class UnonetRunner:
    """Random-bot rounds of unonet: matches played round after round, a new one at the end."""

    def __init__(self, rules: RuleSet, seats: int, seed: int, policy: Policy) -> None:
        self.rules, self.seats, self.policy = rules, seats, policy
        self.rng = random.Random(seed)
        self.games = 0
        self.match = self._new_match()

    def _new_match(self) -> Match:
        self.games += 1
        return new_match(self.rules, self.seats, self.games.to_bytes(8, "big"))

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


class RLCardStep:
    """RLCard's UnoGame as its environments drive it: init_game(), then step() (the rules
    and the next observation) until is_over()."""

    def __init__(self, seats: int, seed: int) -> None:
        import numpy as np
        from rlcard.games.uno.game import UnoGame

        self.game = UnoGame(num_players=seats)
        self.game.configure({"game_num_players": seats})
        self.game.np_random = np.random.RandomState(seed)
        self.rng = random.Random(seed)

    def round(self) -> int:
        game, choice = self.game, self.rng.choice
        game.init_game()
        actions = 0
        while not game.is_over():
            game.step(choice(game.get_legal_actions()))
            actions += 1
        return actions


class RLCardRules:
    """RLCard's rule logic alone: the deal, first card, proceed_round and get_legal_actions
    that init_game and step call, without the observation (get_state) they build."""

    def __init__(self, seats: int, seed: int) -> None:
        import numpy as np

        self.seats = seats
        self.np_random = np.random.RandomState(seed)
        self.rng = random.Random(seed)

    def round(self) -> int:
        from rlcard.games.uno import Dealer, Player, Round

        dealer = Dealer(self.np_random)
        players = [Player(i, self.np_random) for i in range(self.seats)]
        for player in players:
            dealer.deal_cards(player, 7)
        game_round = Round(dealer, self.seats, self.np_random)
        game_round.perform_top_card(players, game_round.flip_top_card())
        choice = self.rng.choice
        actions = 0
        while not game_round.is_over:
            legal = game_round.get_legal_actions(players, game_round.current_player)
            game_round.proceed_round(players, choice(legal))
            actions += 1
        return actions


def rlcard_missing() -> str | None:
    """None if RLCard's UNO imports, else the reason it does not."""
    try:
        import rlcard.games.uno.game  # noqa: F401
    except ImportError as exc:
        return str(exc)
    return None


# -- the sides and their pairing -------------------------------------------------------------------


@dataclass
class Side:
    """One thing measured: its name, and per repeat its rounds, actions, CPU and wall time."""

    key: str
    name: str
    seats: int
    play_round: PlayRound
    rounds: list[int] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    wall: list[float] = field(default_factory=list)

    def rounds_per_s(self) -> list[float]:
        return [r / c for r, c in zip(self.rounds, self.cpu, strict=True)]

    def actions_per_s(self) -> list[float]:
        return [a / c for a, c in zip(self.actions, self.cpu, strict=True)]

    def share(self) -> list[float]:
        return [c / w for c, w in zip(self.cpu, self.wall, strict=True)]

    def run(self, seconds: float) -> None:
        """Play whole rounds until `seconds` of this process's CPU time have passed."""
        play = self.play_round
        rounds = actions = 0
        wall0, cpu0 = time.perf_counter(), time.process_time()
        deadline = cpu0 + seconds
        cpu = cpu0
        while cpu < deadline:
            actions += play()
            rounds += 1
            cpu = time.process_time()
        self.wall.append(time.perf_counter() - wall0)
        self.cpu.append(cpu - cpu0)
        self.rounds.append(rounds)
        self.actions.append(actions)


def build_sides(seats: int, seed: int, with_rlcard: bool) -> tuple[list[Side], list[str]]:
    """Every side at `seats`, and a line for each that could not be built (and why)."""
    sides: list[Side] = []
    missing: list[str] = []

    def ours(key: str, name: str, rules: RuleSet, policy: Policy) -> None:
        runner = UnonetRunner(rules, seats, seed, policy)
        sides.append(Side(f"{key}{seats}", name, seats, runner.round))

    ours("pol", "unonet classic, official, RLCard's policy", RuleSet(), rlcard_policy)
    ours("like", "unonet classic, RLCard-like rules, uniform", RLCARD_LIKE, uniform)
    ours("off", "unonet classic, official, uniform", RuleSet(), uniform)
    ours("party", "unonet classic, party preset, RLCard's policy", preset("party"),
         rlcard_policy)
    for key, variant, label in (("flip", "flip", "Flip"), ("nomercy", "no_mercy", "No Mercy")):
        rules = variant_rules(variant)
        if isinstance(rules, str):
            missing.append(f"unonet {label}: {rules}")
        else:
            ours(key, f"unonet {label}, its default rules, RLCard's policy", rules,
                 rlcard_policy)
    if with_rlcard:
        sides.append(Side(f"rlstep{seats}", "RLCard step()", seats,
                          RLCardStep(seats, seed).round))
        sides.append(Side(f"rlrules{seats}", "RLCard rules only (no observation)", seats,
                          RLCardRules(seats, seed).round))
    return sides, missing


def measure(sides: list[Side], repeats: int, seconds: float, warmup: float) -> None:
    """Warm every side up, then `repeats` turns over all sides, the order rotated each turn."""
    for side in sides:
        deadline = time.process_time() + warmup
        while time.process_time() < deadline:
            side.play_round()
    for repeat in range(repeats):
        shift = repeat % len(sides)
        order = sides[shift:] + sides[:shift]
        if repeat % 2:
            order.reverse()
        for side in order:
            side.run(seconds)
        print(f"  repeat {repeat + 1}/{repeats} done", file=sys.stderr, flush=True)


# -- the report ------------------------------------------------------------------------------------


def spread(values: Sequence[float], fmt: str = ",.0f") -> str:
    """Median and range, e.g. `12,345 (11,900-12,800)`."""
    return (f"{statistics.median(values):{fmt}} ({min(values):{fmt}}-{max(values):{fmt}})")


def paired(ours: Side, theirs: Side) -> list[float]:
    """Ours over theirs in rounds per CPU second, repeat by repeat."""
    return [a / b for a, b in zip(ours.rounds_per_s(), theirs.rounds_per_s(), strict=True)]


def table(sides: list[Side]) -> list[str]:
    lines = [f"{'side':<52} {'seats':>5} {'rounds/CPU s, median (range)':>30} "
             f"{'actions/CPU s, median':>22} {'actions/round':>13} {'CPU share':>10}"]
    for side in sides:
        lines.append(
            f"{side.name:<52} {side.seats:>5} {spread(side.rounds_per_s()):>30} "
            f"{statistics.median(side.actions_per_s()):>22,.0f} "
            f"{sum(side.actions) / sum(side.rounds):>13.1f} "
            f"{statistics.median(side.share()):>10.2f}")
    return lines


MEANING = {
    "pol": "the same game as RLCard's (its policy on the official rules), with unonet's full "
           "rules, events and checks at every step",
    "like": "the nearest rule set to RLCard's, a uniform bot: rounds about as long as RLCard's",
    "off": "the official rules with a uniform bot: much longer rounds, so not RLCard's work "
           "per round (compare actions/s instead)",
    "party": "a house-rule preset (stacking, jump-in, 7-0 ...) with RLCard's policy",
    "flip": "an UNO Flip round (RLCard has no Flip) against RLCard's classic round",
    "nomercy": "an UNO No Mercy round (RLCard has none) against RLCard's classic round",
}


def ratio_lines(sides: list[Side]) -> list[str]:
    """Each of our sides against both RLCard measures at the same seats, said in words."""
    by_key = {side.key: side for side in sides}
    lines = []
    for side in sides:
        if side.key.startswith("rl"):
            continue
        kind = side.key.rstrip("0123456789")
        step, rules = by_key.get(f"rlstep{side.seats}"), by_key.get(f"rlrules{side.seats}")
        if step is None or rules is None:
            continue
        to_step, to_rules = paired(side, step), paired(side, rules)
        lines.append(
            f"{side.name}, {side.seats} seats: x{spread(to_step, '.2f')} RLCard's step() and "
            f"x{spread(to_rules, '.2f')} its rules alone, in rounds/s: "
            f"{MEANING.get(kind, '')}; "
            f"{words(statistics.median(to_step), 'RLCard as its environments run it')}; "
            f"{words(statistics.median(to_rules), 'its rule logic alone')}.")
    return lines


def words(ratio: float, what: str) -> str:
    if ratio >= 1:
        return f"unonet plays {ratio:.2f}x as many rounds a second as {what}"
    return f"{what} plays {1 / ratio:.2f}x as many rounds a second as unonet"


def report(sides: list[Side], missing: list[str], engine: str, args: argparse.Namespace) -> None:
    print()
    print(f"engine: {engine}; Python {sys.version.split()[0]}; {args.repeats} paired repeats "
          f"of {args.seconds:g} CPU s per side, the order rotated each repeat; seed {args.seed}")
    print("\n".join(table(sides)))
    for line in missing:
        print(line)
    ratios = ratio_lines(sides)
    if ratios:
        print("\nRatios, each taken within one repeat, then median (range):")
        print("\n".join(f"- {line}" for line in ratios))
    shares = [s for side in sides for s in side.share()]
    print(f"\nCPU share over all runs: median {statistics.median(shares):.2f}, lowest "
          f"{min(shares):.2f} (below 0.9: other processes took the core; the figures are "
          "per CPU second, the pairing spreads the rest)")


def profile(play_round: PlayRound, rounds: int) -> None:
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(rounds):
        play_round()
    profiler.disable()
    pstats.Stats(profiler).sort_stats("tottime").print_stats(15)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7,
                        help="paired repeats over every side (default 7)")
    parser.add_argument("--seconds", type=float, default=1.0,
                        help="CPU seconds per side in each repeat (default 1)")
    parser.add_argument("--warmup", type=float, default=0.3,
                        help="untimed CPU seconds per side first (default 0.3)")
    parser.add_argument("--seats", type=int, nargs="+", default=[2],
                        help="seat counts to measure (default 2; RLCard plays 2 to 10)")
    parser.add_argument("--seed", type=int, default=1, help="the bots' random seed")
    parser.add_argument("--no-rlcard", action="store_true", help="skip RLCard")
    parser.add_argument("--profile", metavar="SIDE", default=None,
                        help="then print a cProfile of 200 rounds of a side (e.g. pol2, flip2)")
    args = parser.parse_args(argv)
    if args.repeats < 1 or args.seconds <= 0:
        parser.error("--repeats 1 or more, --seconds above 0")

    engine = f"pure Python, from {Path(sys.modules['unonet'].__file__ or '').parent}"
    missing_rl = "skipped (--no-rlcard)" if args.no_rlcard else rlcard_missing()
    sides: list[Side] = []
    missing: list[str] = []
    for seats in args.seats:
        built, gaps = build_sides(seats, args.seed, missing_rl is None)
        sides += built
        missing += [f"{gap} ({seats} seats)" for gap in gaps]
    if missing_rl is not None:
        missing.append(f"RLCard not measured: {missing_rl}")
    print(f"measuring {len(sides)} sides, engine {engine} ...", file=sys.stderr, flush=True)
    measure(sides, args.repeats, args.seconds, args.warmup)
    report(sides, missing, engine, args)
    if args.profile:
        chosen = {side.key: side for side in sides}.get(args.profile)
        if chosen is None:
            print(f"no side {args.profile!r}: {', '.join(s.key for s in sides)}")
        else:
            print(f"\ncProfile, {chosen.name}, {chosen.seats} seats, 200 rounds:")
            profile(chosen.play_round, 200)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
