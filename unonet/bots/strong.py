"""The `strong` bot: a search over the cards it cannot see, from what a player may know.

At each decision with more than one sensible answer, the bot samples the hidden cards many
times, each time consistently with everything it was shown (unonet.bots.sampling: the other
hands and the pile hold only cards it has not seen elsewhere, the counts are the view's, UNO
Flip's visible faces fit), and plays the round out from each sample with every seat, itself
included, played by the `normal` policy (unonet.bots.playout). This is determinized Monte Carlo
search, flat at the root: each candidate move is tried on the same samples with the same seeds
(common random numbers), so two moves are compared on identical deals and the difference of
their outcomes measures the moves, not the luck of the draw. A candidate whose paired
difference with the best is below it by more than PRUNE_Z standard errors stops being tried, so
the budget goes to the close calls, and the search stops early once nothing left can beat the
normal policy's choice by SETTLED; when the budget is spent the most tried candidates remain,
and of those the best on average is played, the normal policy's own choice when no other beats
it by PREFER_SE standard errors (a search that cannot tell two moves apart keeps the heuristic's).

What it decides by search: every play (which card, which colour for a wild, which run or set
under sequences and multiples), drawing, playing or keeping a drawn card, answering a pending
draw (stack, deflect, take it), challenging a Wild Draw Four or accepting it, the colour named
for a first-card Wild or a Color Roulette, and whom a 7 swaps with. What it decides by rule,
all of it the normal policy's reaction: call UNO with the play that leaves one card (it
forgets one time in twenty, FORGET_RATE), catch whoever forgot theirs, press B at once in a
buzzer race, and jump in (or go on with its run) with the card the normal policy picks.

It reads only its view and the events addressed to it (unonet.bots.knowledge), as every bot:
what it would do is a function of those and of its seed. Its budget is a time and a number of
simulations (`SearchBudget`); with no time limit its moves depend on the seed alone, so a
seeded match between bots replays exactly.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from unonet.actions import Action, Buzz, CallUno, Catch, Play
from unonet.bot_settings import DEFAULT_BUDGET, SearchBudget
from unonet.bots.base import Bot
from unonet.bots.knowledge import Knowledge
from unonet.bots.normal import NormalBot
from unonet.bots.playout import Rollouts
from unonet.bots.sampling import Inconsistent, Sampler
from unonet.cards import Color, DeckManifest
from unonet.determinize import build_round, clone_round, table_for
from unonet.events import Event
from unonet.match import Match
from unonet.rules import RuleSet
from unonet.view import View

__all__ = ["DEFAULT_BUDGET", "Search", "SearchBudget", "SearchReport", "StrongBot"]

PRUNE_Z = 2.5
"""A candidate is dropped once its mean paired difference with the best is below zero by more
than this many standard errors. The test is made after every sample, so a move as good as the
best crosses one line or another far more often than a single test's 0.6%; 2.5 keeps that
rare. The normal policy's choice is never dropped (PREFER_SE judges it at the end)."""

MIN_WORLDS = 6
"""Samples every candidate gets before any is dropped: fewer make the standard error itself
too uncertain to judge by."""

SETTLED = 0.02
"""The search stops early once no candidate can beat the normal policy's choice by this much
(two points a round, in the playouts' units: unonet.bots.playout), at PRUNE_Z standard
errors: moves that come to
the same on every sample (two colours when no card follows, a run or its first card) are
told apart in a few samples, and the time goes to the decisions that matter."""

FORGET_RATE = 0.05
"""How often the strong bot forgets to call UNO: a strong player rarely does, but a bot that
never did would make watching it for a catch pointless (the bots are fair game: issue 12)."""

PREFER_SE = 2.0
"""When the budget ends with several candidates left, another move replaces the normal
policy's choice only if it beats it by this many standard errors of their paired difference.
A round's outcome varies far more than the worth of most moves, so with four or five
candidates each as good as the heuristic's, one standard error would let noise pick another
move about half the time; two, about one time in ten."""


@dataclass(slots=True)
class SearchReport:
    """What the last decision's search did, for benchmarks and logs."""

    candidates: int
    worlds: int = 0
    simulations: int = 0
    steps: int = 0  # actions played in the simulations
    seconds: float = 0.0
    fallback: str | None = None  # why no search was made, when none was
    values: dict[str, float] = field(default_factory=dict)  # candidate -> mean value


class StrongBot(Bot):
    """Determinized Monte Carlo search with normal-policy playouts (see the module)."""

    forget_rate = FORGET_RATE

    def __init__(self, seat: int, rules: RuleSet, manifest: DeckManifest, seed: int = 0,
                 forget_rate: float | None = None, budget: SearchBudget | None = None) -> None:
        super().__init__(seat, rules, manifest, seed, forget_rate)
        self.budget = budget if budget is not None else DEFAULT_BUDGET
        self.seed = seed
        self.knowledge = Knowledge(seat, rules, manifest)
        self.normal = NormalBot(seat, rules, manifest, seed=seed, forget_rate=0.0)
        """The normal policy from this seat: its reactions, its memory of the face-up cards
        (the playouts start from it), and its choice, kept when the search cannot beat it.
        It never forgets UNO itself: this bot's own forget rate decides (`with_uno`)."""
        self.decisions = 0
        self.last: SearchReport | None = None
        self._thinking: tuple[View, tuple[Action, ...], Search] | None = None

    def observe(self, event: Event) -> None:
        self.knowledge.observe(event)
        self.normal.observe(event)

    def react(self, view: View, legal: Sequence[Action]) -> Action | None:
        return self.normal.react(view, self.uno_calls(view, legal))

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        answer = self.ponder(view, legal, math.inf)
        assert answer is not None
        return answer

    def ponder(self, view: View, legal: Sequence[Action], seconds: float) -> Action | None:
        """Think about this decision for `seconds` more (wall clock) and answer once the
        budget is spent; None while the search goes on. The search carries on across calls
        for as long as the view and the legal actions stay the same; anything else starts
        a new one. A host calls this in slices, between its other work."""
        key = tuple(legal)
        thinking = self._thinking
        if thinking is None or thinking[0] != view or thinking[1] != key:
            started = self._start(view, legal)
            if not isinstance(started, Search):
                self._thinking = None
                return self.with_uno(view, started)
            thinking = self._thinking = (view, key, started)
        search = thinking[2]
        if not search.run(seconds):
            return None
        self._thinking = None
        return self.with_uno(view, search.choice())

    def _start(self, view: View, legal: Sequence[Action]) -> Action | Search:
        """The answer when there is nothing to search, else a search of this decision."""
        self.decisions += 1
        if Buzz() in legal:
            return Buzz()
        default = self.normal.act(view, legal)
        candidates = self.candidates(view, legal, default)
        report = SearchReport(len(candidates))
        self.last = report
        if len(candidates) == 1:
            return candidates[0]
        try:
            sampler = Sampler(self.knowledge, view, self.rules, self.manifest)
        except Inconsistent as exc:
            report.fallback = str(exc)
            return default
        rollouts = Rollouts(self.seat, self.rules, self.manifest, len(view.seats), self.normal,
                            [s.score for s in view.seats], self.forget_rate, view.round_no)
        rng = random.Random(self.seed * 1_000_003 + self.decisions)
        return Search(sampler, rollouts, self._template(view), candidates, default,
                      self.budget, rng, report)

    # -- the candidates ----------------------------------------------------------------------

    def candidates(self, view: View, legal: Sequence[Action], default: Action) -> list[Action]:
        """The moves worth searching: `legal` less the UNO calls and catches (reactions), each
        play with UNO called when it may be, and a wild's colours only among those the hand
        keeps (all of them if it keeps none) and the normal policy's."""
        plays: dict[tuple[int, tuple[int, ...], Color | None], Play] = {}
        others: list[Action] = []
        for action in legal:
            if isinstance(action, CallUno | Catch):
                continue
            if isinstance(action, Play):
                key = (action.card, action.also, action.color)
                if key not in plays or action.uno:
                    plays[key] = action
            elif action not in others:
                others.append(action)
        kept: list[Action] = []
        for (card, also, color), play in plays.items():
            if color is not None and not self._worth_naming(view, card, also, color, default):
                continue
            kept.append(play)
        out = kept + others
        if default not in out and default in legal:
            out.append(default)
        return out or list(legal[:1])

    def _worth_naming(self, view: View, card: int, also: tuple[int, ...], color: Color,
                      default: Action) -> bool:
        if isinstance(default, Play) and default.card == card and default.color == color:
            return True
        played = {card, *also}
        held = {self.normal.face(view, c).color for c in view.hand if c not in played}
        held.discard(None)
        return not held or color in held

    def _template(self, view: View) -> Match:
        """A match with this view's scores and seats, for the views the playouts ask for."""
        match = Match(self.rules, len(view.seats), b"search")
        match.scores = [s.score for s in view.seats]
        match.round_no = view.round_no
        match.dealer = view.dealer
        match.eliminated = {s.seat for s in view.seats
                             if s.out and s.seat not in self.knowledge.knocked_out}
        return match


class Search:
    """One decision's search, run in as many slices as its caller likes (`run`)."""

    def __init__(self, sampler: Sampler, rollouts: Rollouts, template: Match,
                 candidates: list[Action], default: Action, budget: SearchBudget,
                 rng: random.Random, report: SearchReport) -> None:
        self.sampler = sampler
        self.rollouts = rollouts
        self.template = template
        self.candidates = candidates
        self.default = default
        self.budget = budget
        self.rng = rng
        self.report = report
        self.values: list[list[float]] = [[] for _ in candidates]
        self.alive = list(range(len(candidates)))
        self.world_time = 0.0  # how long the last sample took, all its candidates played
        self.world_cost = 0.0  # ...on the budget's clock (SearchBudget.cpu)
        self.used = 0.0  # the budget's time spent so far
        self.done = False

    def run(self, seconds: float) -> bool:
        """Search for up to `seconds` more (wall clock: at least one sample each call);
        True once the budget is spent (or one candidate is left), and the choice is made."""
        budget, report = self.budget, self.report
        clock = time.process_time if budget.cpu else time.perf_counter  # the budget's
        now = time.perf_counter()
        until = now + seconds
        spent = budget.seconds if budget.seconds is not None else math.inf
        limit = budget.simulations if budget.simulations is not None else math.inf
        first = True
        while not self.done:
            if len(self.alive) <= 1 or self.used + self.world_cost > spent \
                    or report.simulations + len(self.alive) > limit:
                self.done = True
                break
            if not first and now + self.world_time > until:
                return False
            first = False
            ticked = clock()
            self._world()
            self.world_cost = clock() - ticked
            self.used += self.world_cost
            later = time.perf_counter()
            self.world_time = later - now
            report.seconds += later - now
            now = later
        for index, action in enumerate(self.candidates):
            if self.values[index]:
                report.values[repr(action)] = sum(self.values[index]) / len(self.values[index])
        return True

    def _world(self) -> None:
        """One sample, every candidate still in play played out on it."""
        report = self.report
        try:
            base = build_round(self.sampler.sample(self.rng))
        except Inconsistent as exc:
            report.fallback = str(exc)
            self.alive = self.alive[:1] if self.default not in self.candidates else \
                [self.candidates.index(self.default)]
            return
        seed = self.rng.getrandbits(64)
        for index in self.alive:
            rnd = clone_round(base)
            outcome = self.rollouts.evaluate(table_for(self.template, rnd),
                                             self.candidates[index], random.Random(seed))
            self.values[index].append(outcome.value)
            report.steps += outcome.steps
        report.simulations += len(self.alive)
        report.worlds += 1
        if report.worlds >= MIN_WORLDS:
            self.alive = _pruned(self.alive, self.values, self._default_index())
            if self._settled():
                self.alive = [self.candidates.index(self.default)]

    def _default_index(self) -> int | None:
        return self.candidates.index(self.default) if self.default in self.candidates else None

    def _settled(self) -> bool:
        """Whether every candidate left is, with PRUNE_Z standard errors, less than SETTLED
        better than the normal policy's choice (which must be left)."""
        if self.default not in self.candidates:
            return False
        mine = self.candidates.index(self.default)
        if mine not in self.alive:
            return False
        for index in self.alive:
            if index != mine:
                mean, se = _paired(self.values[index], self.values[mine])
                if mean + PRUNE_Z * se >= SETTLED:
                    return False
        return True

    def choice(self) -> Action:
        """The most visited candidate; of several, the best on average, unless it does not
        beat the normal policy's choice by PREFER_SE standard errors."""
        values, candidates, default = self.values, self.candidates, self.default
        most = max(len(values[i]) for i in self.alive)
        if most == 0:
            return default if default in candidates else candidates[self.alive[0]]
        left = [i for i in self.alive if len(values[i]) == most]
        best = max(left, key=lambda i: sum(values[i]) / most)
        if default in candidates:
            mine = candidates.index(default)
            if mine in left and mine != best:
                mean, se = _paired(values[best], values[mine])
                if mean <= PREFER_SE * se:
                    return default
        return candidates[best]


def _paired(a: list[float], b: list[float]) -> tuple[float, float]:
    """Mean and standard error of the differences a - b over the samples both have."""
    n = min(len(a), len(b))
    if n == 0:
        return 0.0, math.inf
    diffs = [a[j] - b[j] for j in range(n)]
    mean = sum(diffs) / n
    if n < 2:
        return mean, math.inf
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, math.sqrt(var / n)


def _pruned(alive: list[int], values: list[list[float]], keep: int | None) -> list[int]:
    """`alive` less the candidates clearly worse than the best (PRUNE_Z), but `keep`."""
    best = max(alive, key=lambda i: sum(values[i]) / len(values[i]))
    kept = []
    for index in alive:
        if index != best and index != keep:
            mean, se = _paired(values[index], values[best])
            if mean < 0 and mean + PRUNE_Z * se < 0:
                continue
        kept.append(index)
    return kept
