"""The random legal player: a baseline for tests and benchmarks."""

from __future__ import annotations

from collections.abc import Sequence

from unonet.actions import Action, CallUno
from unonet.bots.base import Bot
from unonet.view import View

REACT_CHANCE = 0.5
"""How often the random bot takes an out-of-turn chance when asked: it sometimes calls UNO,
catches, jumps in or presses B, and sometimes lets the chance go (and may lose a race)."""


FORGET_RATE = 0.5
"""How often the random bot forgets to call UNO: a coin toss, as a careless beginner."""


class RandomBot(Bot):
    """Any legal action, uniformly; out of turn it takes one of its chances now and then. Its
    UNO call is its forget rate's, not chance's: a remembered call is made with the play (or at
    once, on reaching one card otherwise), a forgotten one never."""

    forget_rate = FORGET_RATE

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        return self.with_uno(view, self.rng.choice(list(legal)))

    def react(self, view: View, legal: Sequence[Action]) -> Action | None:
        legal = self.uno_calls(view, legal)
        if CallUno() in legal:
            return CallUno()
        if legal and self.rng.random() < REACT_CHANCE:
            return self.with_uno(view, self.rng.choice(legal))
        return None
