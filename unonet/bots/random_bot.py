"""The random legal player: a baseline for tests and benchmarks."""

from __future__ import annotations

from collections.abc import Sequence

from unonet.actions import Action
from unonet.bots.base import Bot
from unonet.view import View

REACT_CHANCE = 0.5
"""How often the random bot takes an out-of-turn chance when asked: it sometimes calls UNO,
catches, jumps in or presses B, and sometimes lets the chance go (and may lose a race)."""


class RandomBot(Bot):
    """Any legal action, uniformly; out of turn it takes one of its chances now and then."""

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        return self.rng.choice(list(legal))

    def react(self, view: View, legal: Sequence[Action]) -> Action | None:
        if legal and self.rng.random() < REACT_CHANCE:
            return self.rng.choice(list(legal))
        return None
