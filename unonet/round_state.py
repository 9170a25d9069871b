"""What the judge, the observer and UNO Flip's sight read of a round: a small interface.

unonet.legality, unonet.view and unonet.flip take a `RoundState`, not a Round: what they may
read is listed here, so a reader of the round cannot grow into its internals unseen (mypy holds
them to it). Round (unonet.round) is the one implementation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from unonet.cards import Color, DeckManifest, Face, Kind
from unonet.decisions import Decision, RunWindow
from unonet.events import Position
from unonet.phase import Phase
from unonet.plays import PlayTable
from unonet.rules import RuleSet

if TYPE_CHECKING:
    from unonet.flip import FlipSight

__all__ = ["RoundState"]


class RoundState(Protocol):
    """What a reader of a round may read of it, and nothing more."""

    rules: RuleSet
    manifest: DeckManifest
    seats: int
    dealer: int
    direction: int
    winner: int | None
    uno_called: set[int]
    catchable: dict[int, int]
    sight: FlipSight | None
    side: int
    colors: tuple[Color, ...]
    table: PlayTable
    hands: list[list[int]]
    out: set[int]
    draw_pile: list[int]
    discard: list[int]
    origin: list[Position]
    decision: Decision
    phase: Phase
    current: int
    active_color: Color | None
    top_seat: int | None
    run: RunWindow | None
    finished: int | None
    turn_serial: int
    restricted_plays: bool
    no_mercy: bool

    @property
    def top(self) -> int: ...

    @property
    def drawn_card(self) -> int | None: ...

    @property
    def draws_this_turn(self) -> int: ...

    @property
    def pending_draw(self) -> int: ...

    def face(self, card: int) -> Face: ...

    def until_color(self) -> Color | None: ...

    def deflect_target(self, seat: int, kind: Kind) -> int: ...
