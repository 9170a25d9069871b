"""What every bot policy offers: an in-turn decision and an out-of-turn reaction, and the one
rule every driver (the bot loop, the host's stand-ins, the network bot) uses to tell them apart."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

from unonet.actions import (
    Accept,
    Action,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    ChooseTarget,
    Draw,
    Pass,
    Play,
)
from unonet.bots.no_mercy_sense import left_after
from unonet.cards import DeckManifest, Face
from unonet.events import Event
from unonet.phase import Phase
from unonet.rules import RuleSet
from unonet.view import View

DECISION_ONLY: tuple[type, ...] = (Draw, Pass, ChooseColor, Challenge, Accept, ChooseTarget)
"""Actions only the seat facing the pending decision is offered: a list holding one of them
answers that seat's own turn, colour, challenge, stack or swap target."""


def is_deciding(view: View, legal: Sequence[Action]) -> bool:
    """Whether `legal` answers this seat's own pending decision rather than offering only
    out-of-turn moves. In a buzzer race nobody decides: every seat, the Buzzer's player too,
    reacts by pressing B."""
    if view.phase == Phase.BUZZER:
        return False
    return view.current == view.seat or any(isinstance(a, DECISION_ONLY) for a in legal)


def out_of_turn(view: View, legal: Sequence[Action]) -> list[Action]:
    """The actions of `legal` a seat may take whenever it likes: UNO calls and catches always;
    for a seat that is not deciding, everything else listed too (a jump-in, the next card of its
    own run, pressing B), since the engine lists nothing else out of turn."""
    if is_deciding(view, legal):
        return [a for a in legal if isinstance(a, CallUno | Catch)]
    return list(legal)


class Bot:
    """A policy for one seat. `act` is asked when the seat must decide; `react` after every
    event with the seat's out-of-turn actions (`out_of_turn`): call UNO, catch someone, press
    B, jump in. None from `react` means "not now"."""

    forget_rate: float = 0.0
    """The chance that the bot forgets to call UNO when it reaches one card (then it stays
    silent until that card goes, and may be caught): bots that never forget make catching
    pointless. Each level sets its own; drawn by `calls_uno`."""

    def __init__(self, seat: int, rules: RuleSet, manifest: DeckManifest, seed: int = 0,
                 forget_rate: float | None = None) -> None:
        self.seat = seat
        self.rules = rules
        self.manifest = manifest
        self.rng = random.Random(seed)
        if forget_rate is not None:
            self.forget_rate = forget_rate
        self._one_card: tuple[tuple[int, int], bool] | None = None
        """The current stretch at one card ((round, that card)) and whether the bot calls it."""

    def observe(self, event: Event) -> None:
        """An event this seat may see (public, or addressed to it)."""

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        """The answer to this seat's pending decision, one of `legal`."""
        return legal[0]

    def react(self, view: View, legal: Sequence[Action]) -> Action | None:
        return None

    def ponder(self, view: View, legal: Sequence[Action], seconds: float) -> Action | None:
        """`act` for a caller that must not wait long: think for about `seconds` more and
        answer, or None to be asked again (the same view and legal list go on with the same
        thought). A policy that answers at once answers here at once."""
        return self.act(view, legal)

    def face(self, view: View, card: int) -> Face:
        """What `card` shows: its face in the manifest (a policy that reads UNO Flip's dark
        side overrides this)."""
        return self.manifest.face(card)

    def left_after(self, view: View, play: Play) -> list[int]:
        """The hand once `play` is made (a No Mercy Discard All takes its colour with it)."""
        return left_after(view.hand, play, lambda card: self.face(view, card))

    # -- calling UNO, or forgetting to ---------------------------------------------------------

    def calls_uno(self, view: View, left: Sequence[int]) -> bool:
        """Whether the bot says UNO holding `left` (its hand after the action it weighs).
        Drawn from the bot's own seeded stream once each time it reaches one card, so a game
        replays from its seed; holding (or about to hold) any other number of cards ends the
        stretch, so coming back to one card draws again."""
        if len(view.hand) != 1 or len(left) != 1:
            self._one_card = None
        if len(left) != 1:
            return False
        stretch = (view.round_no, left[0])
        if self._one_card is None or self._one_card[0] != stretch:
            self._one_card = (stretch, self.rng.random() >= self.forget_rate)
        return self._one_card[1]

    def with_uno(self, view: View, action: Action) -> Action:
        """`action` with the UNO call the bot makes (or forgets) if it is a play that leaves it
        one card; any other action as it is."""
        if not isinstance(action, Play):
            return action
        call = self.calls_uno(view, self.left_after(view, action))
        return action if action.uno == call else replace(action, uno=call)

    def uno_calls(self, view: View, legal: Sequence[Action]) -> list[Action]:
        """`legal` without CallUno while the bot has forgotten to call at this one card."""
        if CallUno() not in legal or self.calls_uno(view, view.hand):
            return list(legal)
        return [a for a in legal if not isinstance(a, CallUno)]
