"""What every bot policy offers: an in-turn decision and an out-of-turn reaction."""

from __future__ import annotations

import random
from collections.abc import Sequence

from unonet.actions import Action
from unonet.cards import DeckManifest
from unonet.events import Event
from unonet.rules import RuleSet
from unonet.view import View


class Bot:
    """A policy for one seat. `act` is asked when the seat must decide; `react` after every
    event, for what a seat may do out of turn (call UNO, catch someone)."""

    def __init__(self, seat: int, rules: RuleSet, manifest: DeckManifest, seed: int = 0) -> None:
        self.seat = seat
        self.rules = rules
        self.manifest = manifest
        self.rng = random.Random(seed)

    def observe(self, event: Event) -> None:
        """An event this seat may see (public, or addressed to it)."""

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        raise NotImplementedError

    def react(self, view: View, legal: Sequence[Action]) -> Action | None:
        return None
