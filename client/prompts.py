"""The questions that take the keys until answered (a colour to name, a challenge, a pending
draw, a swap target, a buzzer race, quitting, a seat to name): small values the model derives
from the legal list (or opens itself) and the renderer draws."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from unonet.cards import Color, Face, Kind

DEFLECTING = frozenset({Kind.SKIP, Kind.REVERSE, Kind.BUZZER})
"""Cards that, when the legal list offers them against a pending draw, pass it on (`deflect`):
only used to word the prompt; what may be played comes from the legal list."""

CANCELLING = frozenset({Kind.DISCARD_ALL, Kind.SKIP_EVERYONE})
"""No Mercy's cards that, offered against a pending draw (`deflect`), cancel it: nobody draws
it (DrawCancelled). Only used to word the prompt."""


@dataclass(frozen=True, slots=True)
class ColorPrompt:
    """The colour for a wild about to be played (`card`), or the first-card Wild (card None)."""

    card: int | None
    colors: tuple[Color, ...]
    uno: bool = False
    roulette: bool = False  # No Mercy: a Color Roulette's colour, which we then turn cards for


@dataclass(frozen=True, slots=True)
class ChallengePrompt:
    """A Wild Draw Four (UNO Flip: a Wild Draw Two or Wild Draw Color, `card`) on us:
    challenge (F), take `amount` (Space; a Wild Draw Color's: draw until a card of colour
    `until`), or, when the legal list offers it, stack on it (`stack`) or pass it on
    (`deflect`)."""

    target: int | None
    amount: int = 4
    stack: bool = False
    deflect: bool = False
    until: Color | None = None
    card: Kind = Kind.WILD_DRAW_FOUR


@dataclass(frozen=True, slots=True)
class StackPrompt:
    """A pending draw of `amount` on us (UNO Flip's Wild Draw Color: until a card of colour
    `until`): answer it with a draw card (`stack`), pass it on with a Skip, Reverse or Buzzer
    (`deflect`), or take it with Space."""

    amount: int
    stack: bool
    deflect: bool
    until: Color | None = None
    cancel: bool = False  # No Mercy's Discard All or Skip Everyone cancels it (`deflect`)
    answers: tuple[Face, ...] = ()  # the faces the legal list lets us answer with, in order


@dataclass(frozen=True, slots=True)
class DrawnCardPrompt:
    card: int


@dataclass(frozen=True, slots=True)
class TargetPrompt:
    """A 7 under seven_zero: whom to swap hands with; `cursor` indexes `targets`."""

    targets: tuple[int, ...]
    cursor: int = 0


@dataclass(frozen=True, slots=True)
class BuzzPrompt:
    """A Buzzer race is open and we have not pressed B yet."""


@dataclass(frozen=True, slots=True)
class QuitPrompt:
    pass


@dataclass(frozen=True, slots=True)
class SeatPrompt:
    """The owner's moderation: the next seat number names whom to kick (`kick`, in the
    lobby) or to penalize (`penalize`, during a round: seed 000's hinting penalty)."""

    kind: Literal["kick", "penalize"]


Prompt = (
    ColorPrompt | ChallengePrompt | StackPrompt | DrawnCardPrompt | TargetPrompt | BuzzPrompt
    | QuitPrompt | SeatPrompt
)
