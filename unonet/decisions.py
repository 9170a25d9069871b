"""What a round waits for, as one typed value per kind (DESIGN.md: "the decision pending is a
value").

A round is always in exactly one of these: a plain `Turn`, a colour to name, a pending draw
to answer (perhaps one that may be challenged), a swap target to pick, a buzzer race, or the
round's end. Each says who decides and carries what that decision needs, so nothing about it
lives in loose fields of the round: a stack's total is the `PendingDraw`'s, the challenged
hand is the `Challenge`'s, the seats yet to press B are the `BuzzerRace`'s. `Round.enter` is the
one place a round changes from one to another; `phase` names the kind on the wire (SPEC.md 9).

Beside the decision, the sequence window (`RunWindow`, `sequences`) stays open until the next
player acts; a jump-in (`jump_in`) is open on the top card to all but the seat that played it
(`Round.top_seat`), judged by unonet.legality.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from unonet.cards import Color, Face
from unonet.phase import Phase
from unonet.values import quick_init

__all__ = [
    "BuzzerRace",
    "Challenge",
    "ColorToName",
    "Decision",
    "PendingDraw",
    "RoundOver",
    "RunWindow",
    "TargetToPick",
    "Turn",
]


@dataclass(frozen=True, slots=True)
class Turn:
    """`seat` plays, draws or passes. `drawn` is the drawn-card lock (only that card may be
    played now); `draws` how many times it drew this turn."""

    phase: ClassVar[Phase] = Phase.TURN
    seat: int
    drawn: int | None = None
    draws: int = 0


@dataclass(frozen=True, slots=True)
class ColorToName:
    """`seat` names the colour in play: a first-card Wild (`then` None: the chooser plays), or
    a Flip that turned up a wild face (`then`: the next player). `roulette`: No Mercy's Color
    Roulette, whose chooser then turns cards until that colour shows."""

    seat: int
    then: int | None = None
    roulette: bool = False

    @property
    def phase(self) -> Phase:
        return Phase.ROULETTE if self.roulette else Phase.CHOOSE_COLOR


@dataclass(frozen=True, slots=True)
class PendingDraw:
    """`seat` answers a pending draw of `amount` cards (stacking, a deflection, a Wild Draw Four
    not challenged): stack on it, deflect it, or take it. `chain` holds the draw cards in
    order; a Wild Draw Color's draw is "until the colour in play" rather than a count."""

    phase: ClassVar[Phase] = Phase.STACK
    seat: int
    amount: int
    chain: tuple[Face, ...]


@dataclass(frozen=True, slots=True)
class Challenge:
    """`seat` may challenge the wild draw card `player` just played on it (or stack on it, or
    take it): `hand` is what `player` held besides it, `color_before` the colour then in play."""

    phase: ClassVar[Phase] = Phase.CHALLENGE
    seat: int
    amount: int
    chain: tuple[Face, ...]
    player: int
    hand: tuple[int, ...]
    color_before: Color

    def lapsed(self, seat: int) -> PendingDraw:
        """The same draw, no longer challengeable, waiting on `seat`."""
        return PendingDraw(seat, self.amount, self.chain)


@dataclass(frozen=True, slots=True)
class TargetToPick:
    """`seat` played a 7 (`seven_zero`) and picks whom to swap hands with."""

    phase: ClassVar[Phase] = Phase.CHOOSE_TARGET
    seat: int


@dataclass(frozen=True, slots=True)
class BuzzerRace:
    """Every seat of `waiting` must press B (`buzzers`); `seat` played the Buzzer. When the
    race closes, `then` is what follows: the turn after seat `then`, or a deflected pending
    draw (`then_draw`) waiting on its seat."""

    phase: ClassVar[Phase] = Phase.BUZZER
    seat: int
    waiting: tuple[int, ...]
    order: tuple[int, ...]
    then: int
    then_draw: PendingDraw | None = None


@dataclass(frozen=True, slots=True)
class RoundOver:
    """The round has ended; `seat` is its last current seat, kept for the record."""

    phase: ClassVar[Phase] = Phase.ROUND_OVER
    seat: int


Decision = Turn | ColorToName | PendingDraw | Challenge | TargetToPick | BuzzerRace | RoundOver

DRAWS = (PendingDraw, Challenge)
"""The decisions that carry a pending draw."""


@dataclass(frozen=True, slots=True)
class RunWindow:
    """`sequences`: `seat` may add the next number of its run in `color` out of turn while
    `serial` is still the turn serial (the next player has not acted)."""

    seat: int
    color: Color | None
    last: int
    step: int  # +1 rising, -1 falling, 0 after a single card (either way)
    serial: int


# Made at most steps, as events are: through their slots (unonet.values).
quick_init(Turn, ColorToName, PendingDraw, Challenge, TargetToPick, BuzzerRace, RoundOver,
           RunWindow)
