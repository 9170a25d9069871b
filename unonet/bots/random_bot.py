"""The random legal player: a baseline for tests and benchmarks."""

from __future__ import annotations

from collections.abc import Sequence

from unonet.actions import Action, CallUno, Catch
from unonet.bots.base import Bot
from unonet.view import View


class RandomBot(Bot):
    """Any legal action, uniformly; out of turn it calls UNO or catches now and then."""

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        return self.rng.choice(list(legal))

    def react(self, view: View, legal: Sequence[Action]) -> Action | None:
        options = [a for a in legal if isinstance(a, CallUno | Catch)]
        if options and self.rng.random() < 0.5:
            return self.rng.choice(options)
        return None
