"""Round's phase diagram, drawn from the code: the generated section of ARCHITECTURE.md.

The phases and the actions each one accepts are read from the transition table
(unonet.transitions.TRANSITIONS: (phase, action kind) -> judge and handler). Where each action
leads is not written in the table (its handler decides, through `Round.enter`), so it is found
by playing: a seeded exploration plays rounds of every preset and of the house rules, and
records for each (phase, action kind) it took the phase the round was in once the action was
applied. It fails if an entry of the table was never taken, so every transition the table has
is on the diagram. The same seeds give the same diagram; tests/test_architecture.py holds
ARCHITECTURE.md to it and `python tests/test_architecture.py` rewrites it.

Calling UNO and catching (`ANY_PHASE`) are open in every phase and drawn in none; the host's
timer (`EXPIRY`) answers a decision with its default, which the exploration takes now and then
but does not draw either.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from unonet.actions import Action, Play
from unonet.cards import Face
from unonet.match import IN_ROUND, MATCH_OVER, Match
from unonet.phase import Phase
from unonet.rules import RuleSet, playable_presets, preset
from unonet.transitions import ANY_PHASE, TRANSITIONS

__all__ = ["DEAL", "END", "START", "Edges", "RuleSets", "explore", "generated", "regenerate"]

START = "<!-- generated: phase diagram (python tests/test_architecture.py rewrites it) -->"
END = "<!-- end generated: phase diagram -->"

DEAL = "deal"
"""The pseudo action that starts a round: the phase the deal leaves it in."""

Edges = Mapping[tuple[str, str], frozenset[str]]
"""(phase before, action kind) -> the phases the round was in after it (phase values)."""

ROUNDS = 40
"""Rounds played under each rule set of `_rule_sets`: enough that every entry of the table is
taken with every seed tried (tests/test_architecture.py tries a few others), and the rarest
way out of a phase seen in each (a Wild Draw Four as a last card, a knock-out by a draw)."""

MAX_ACTIONS = 3000
"""A round still going after this many actions is left (its match is dropped)."""

_HOUSE: dict[str, Any] = {
    "stacking": "escalating", "stack_mix_wild": True, "deflect": True, "seven_zero": True,
    "buzzers": True, "jump_in": "same_face", "sequences": True, "multiples": True,
    "max_hand": 10, "challenge_by": "anyone", "false_catch_penalty": 2,
}


def _rule_sets() -> Iterator[tuple[str, RuleSet, tuple[int, ...]]]:
    """What is played: every preset, then the house rules all on (at big and small tables),
    with UNO Flip, and No Mercy's own with deflect and jump-in (its cancelled draws)."""
    for name in playable_presets():
        yield name, preset(name), (2, 3, 4, 5, 6)
    yield "house", RuleSet(**_HOUSE), (2, 3, 4, 5, 6)
    yield "house at 2-3 seats", RuleSet(**_HOUSE), (2, 3)
    flip = {**_HOUSE, "stacking": "same_kind", "buzzers": False, "flip_passes_hands": True}
    yield "flip house", RuleSet(variant="flip", **flip), (2, 3, 4)
    yield "no_mercy house", preset("no_mercy", deflect=True, jump_in="same_face"), (2, 3, 4)


RuleSets = Iterable[tuple[str, RuleSet, tuple[int, ...]]]
"""(a label, the rules, the seat counts to draw from)."""


def explore(rounds: int = ROUNDS, seed: str = "",
            rule_sets: RuleSets | None = None) -> dict[tuple[str, str], frozenset[str]]:
    """Play `rounds` rounds of each rule set (`_rule_sets` unless given) and return where
    each action led.

    The players are crude on purpose: the seat the round waits on mostly plays (a card that is
    not wild, when it can: so a Wild Draw Four often ends a hand), a random seat acts out of
    turn one time in ten (jump-ins, UNO, catches, a challenge by anyone) and the host's timer
    runs out one time in fifty. Raises ValueError if an entry of TRANSITIONS was never taken.
    """
    found: defaultdict[tuple[str, str], set[str]] = defaultdict(set)
    for label, rules, seats in _rule_sets() if rule_sets is None else rule_sets:
        rng = random.Random(f"phase diagram {seed} {label}")
        played = 0
        while played < rounds:
            match = Match(rules, rng.choice(seats), rng.randbytes(16))
            while match.phase != MATCH_OVER and played < rounds:
                played += 1
                if not _play_round(match, rng, found):
                    break
    missing = [f"{phase.value} {kind.__name__}" for phase, kind in TRANSITIONS
               if (phase.value, kind.__name__) not in found]
    if missing:
        raise ValueError(f"the exploration never took {', '.join(missing)}: raise ROUNDS")
    return {key: frozenset(to) for key, to in found.items()}


def _play_round(match: Match, rng: random.Random,
                found: defaultdict[tuple[str, str], set[str]]) -> bool:
    """One round; False if it ran past MAX_ACTIONS (the match is left)."""
    match.start_round()
    rnd = match.round
    assert rnd is not None
    found[DEAL, DEAL].add(rnd.phase.value)
    for _ in range(MAX_ACTIONS):
        if match.phase != IN_ROUND:
            return True
        before = rnd.phase
        chance = rng.random()
        if chance < 0.02:
            match.expire()
            continue
        if before is Phase.BUZZER:
            seat = rng.choice(rnd.buzz_waiting)
        elif chance < 0.12:
            seat = rng.randrange(match.seats)
        else:
            seat = rnd.current
        legal = match.legal_actions(seat)
        if not legal:
            continue
        action = _choose(legal, rnd.face, rng)
        match.apply(seat, action)
        if type(action) not in ANY_PHASE:
            found[before.value, type(action).__name__].add(rnd.phase.value)
    return False


def _choose(legal: list[Action], face: Callable[[int], Face], rng: random.Random) -> Action:
    """Mostly a play, and mostly not a wild one; else anything legal."""
    plays = [a for a in legal if isinstance(a, Play)]
    if plays and rng.random() < 0.8:
        tame = [p for p in plays if not face(p.card).is_wild]
        return rng.choice(tame if tame and rng.random() < 0.9 else plays)
    return rng.choice(legal)


# -- the text --------------------------------------------------------------------------------


def _order(phase: str) -> int:
    phases = [p.value for p in Phase]
    return phases.index(phase) if phase in phases else -1


def mermaid(edges: Edges) -> str:
    """A Mermaid state diagram: each arrow one phase to another, named by the actions that
    take it (GitHub draws it; as text it reads as a list)."""
    arrows: defaultdict[tuple[str, str], set[str]] = defaultdict(set)
    for (phase, kind), targets in edges.items():
        for target in targets:
            arrows["[*]" if kind == DEAL else phase, target].add(kind)
    lines = ["```mermaid", "stateDiagram-v2"]
    for (phase, target), kinds in sorted(arrows.items(),
                                         key=lambda a: (_order(a[0][0]), _order(a[0][1]))):
        lines.append(f"    {phase} --> {target}: {', '.join(sorted(kinds))}")
    lines += [f"    {Phase.ROUND_OVER.value} --> [*]", "```"]
    return "\n".join(lines)


def table(edges: Edges) -> str:
    """Every entry of TRANSITIONS: its judge, its handler and where it was seen to lead."""
    rows = ["| phase | action | judge | handler | leads to |", "| --- | --- | --- | --- | --- |"]
    starts = ", ".join(f"`{p}`" for p in sorted(edges.get((DEAL, DEAL), ()), key=_order))
    rows.append(f"| (the deal) | | | `Round._deal` | {starts} |")
    for (phase, kind), transition in TRANSITIONS.items():
        targets = sorted(edges.get((phase.value, kind.__name__), ()), key=_order)
        rows.append(f"| `{phase.value}` | `{kind.__name__}` | `{transition.judge.__name__}` "
                    f"| `{transition.handler.__name__}` | {', '.join(f'`{t}`' for t in targets)} |")
    anywhere = ", ".join(f"`{kind.__name__}` (`{t.handler.__name__}`)"
                         for kind, t in ANY_PHASE.items())
    return "\n".join(rows) + f"\n\nIn every phase (`ANY_PHASE`): {anywhere}."


def generated(edges: Edges | None = None) -> str:
    """The section's text, between the markers."""
    edges = explore() if edges is None else edges
    return f"{mermaid(edges)}\n\n{table(edges)}"


def regenerate(text: str, edges: Edges | None = None) -> str:
    """`text` with the generated section rewritten; ValueError if it has no markers."""
    head, start, rest = text.partition(START)
    _, end, tail = rest.partition(END)
    if not start or not end:
        raise ValueError("no phase diagram markers: " + START)
    return f"{head}{START}\n{generated(edges)}\n{END}{tail}"
