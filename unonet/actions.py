"""The actions a seat (or the host) can ask of the engine.

Every action goes through `Match.apply(seat, action)`, in turn or not: calling UNO, catching,
challenging, jumping in and buzzing are actions of seats whose turn it is not. Actions are small
immutable values (frozen dataclasses), compared and hashed by value, so `legal_actions()` lists
are directly comparable and an action decoded from the wire equals the one listed.
"""

from __future__ import annotations

from dataclasses import dataclass

from unonet.cards import Color

HOST = -1
"""The pseudo-seat for actions only the host takes: starting a round, expiry, moderation."""


@dataclass(frozen=True, slots=True)
class Play:
    """Play `card`, then the cards of `also` in order (a run under `sequences`, same numbers
    under `multiples`); `color` for a wild; `uno` calls UNO with a play that leaves one card.

    Out of turn, a Play is a jump-in (`jump_in`) or the next card of one's own run."""

    card: int
    color: Color | None = None
    uno: bool = False
    also: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw from the pile in one's turn."""


@dataclass(frozen=True, slots=True)
class Pass:
    """End the turn after drawing (the drawn card is kept)."""


@dataclass(frozen=True, slots=True)
class ChooseColor:
    """Name the colour when a decision is pending on this seat (first-card Wild, Color Roulette)."""

    color: Color


@dataclass(frozen=True, slots=True)
class CallUno:
    """Say UNO while holding one card (a late self-call is safe until someone catches you)."""


@dataclass(frozen=True, slots=True)
class Catch:
    """Catch `target`, who holds one card and has not called UNO."""

    target: int


@dataclass(frozen=True, slots=True)
class Challenge:
    """Challenge the Wild Draw Four just played on this seat."""


@dataclass(frozen=True, slots=True)
class Accept:
    """Take the pending draw (a Wild Draw Four not challenged, or a stack's total) and lose
    the turn."""


@dataclass(frozen=True, slots=True)
class Buzz:
    """Press B while a Buzzer race is open (`buzzers`); every seat, the Buzzer's player too."""


@dataclass(frozen=True, slots=True)
class ChooseTarget:
    """Pick the seat to swap hands with (a 7 under `seven_zero`)."""

    target: int


@dataclass(frozen=True, slots=True)
class StartRound:
    """Host: deal the next round. `key` is the round's shuffle key (the trust scheme's K);
    None derives it from the match seed."""

    key: bytes | None = None


@dataclass(frozen=True, slots=True)
class Expire:
    """Host: the timer of the pending decision ran out; apply the documented default."""


@dataclass(frozen=True, slots=True)
class Penalize:
    """Host, for the table owner: `target` draws `count` cards (seed 000's hinting penalty)."""

    target: int
    count: int = 2


Action = (
    Play
    | Draw
    | Pass
    | ChooseColor
    | CallUno
    | Catch
    | Challenge
    | Accept
    | Buzz
    | ChooseTarget
    | StartRound
    | Expire
    | Penalize
)

SEAT_ACTIONS: tuple[type, ...] = (
    Play, Draw, Pass, ChooseColor, CallUno, Catch, Challenge, Accept, Buzz, ChooseTarget,
)
HOST_ACTIONS: tuple[type, ...] = (StartRound, Expire, Penalize)
TURN_ACTIONS: tuple[type, ...] = (Play, Draw, Pass, ChooseColor, Challenge, Accept, ChooseTarget)
"""The actions of the seat the game waits on (or of a jump-in): the next player's first one
closes the catch windows of earlier turns and the sequence window."""
