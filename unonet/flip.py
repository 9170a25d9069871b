"""UNO Flip at the table (RULEBOOK.md section 3): the turn-over's event, and what everyone sees.

The deck is unonet.flip_deck's; what each card does is in Round's table of effects; this module
holds what only Flip has:

- `Flipped`, the event of a Flip card: the discard pile, then the draw pile, then every hand
  turned over, and the side now in play;
- `observe_flip`, the observer's Flip part: in the physical game everyone sees the inactive side
  of every card in every hand and of the draw pile's top card, so a view carries exactly those
  faces (never a card id, which with the public manifest would name the active side too).

The event lives here, not in unonet.events, because the wire does not carry Flip yet (issue 14:
the protocol, trust and client parts); those parts move it beside the others.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from unonet.cards import Face
from unonet.events import Event
from unonet.flip_deck import DARK, LIGHT
from unonet.view import View, observe

if TYPE_CHECKING:
    from unonet.match import Match

__all__ = ["FlipView", "Flipped", "observe_flip", "other_side"]


def other_side(side: int) -> int:
    """The side a Flip turns every card to."""
    return DARK if side == LIGHT else LIGHT


@dataclass(slots=True, init=False)
class Flipped(Event):
    """`seat` played a Flip: the discard pile was reversed and turned over (its old bottom card
    is the new top, `top`, whose face on `side` sets what to match), then the draw pile (its old
    bottom card is the next drawn), then every hand. No card changed place otherwise, so every
    card keeps its position; `side` is 0 (light) or 1 (dark)."""

    seat: int
    side: int
    top: int

    def __init__(self, seat: int, side: int, top: int) -> None:
        self.seat = seat
        self.side = side
        self.top = top


@dataclass(frozen=True, slots=True)
class FlipView:
    """A seat's (or a spectator's) view of a Flip match: the classic view, the side in play,
    and the inactive faces everybody sees.

    `other_sides[s]` is the inactive face of each card seat s holds, sorted by kind, colour
    and number (how the player holds them is not shown); `draw_pile_other_side` is that of the
    draw pile's top card (None when the pile is empty)."""

    view: View
    side: int
    other_sides: tuple[tuple[Face, ...], ...]
    draw_pile_other_side: Face | None


def _face_order(face: Face) -> tuple[str, str, int]:
    return (face.kind.value, face.color.value if face.color is not None else "", face.number or 0)


def observe_flip(match: Match, seat: int | None) -> FlipView:
    """The view of `seat` (None: a spectator) of a Flip match: the same for every observer
    but for the classic view's own hand."""
    view = observe(match, seat)
    rnd = match.round
    if rnd is None:
        return FlipView(view, LIGHT, tuple(() for _ in range(match.seats)), None)
    hidden = other_side(rnd.side)
    backs = tuple(
        tuple(sorted((match.manifest.face(card, hidden) for card in hand), key=_face_order))
        for hand in rnd.hands
    )
    pile_top = match.manifest.face(rnd.draw_pile[-1], hidden) if rnd.draw_pile else None
    return FlipView(view, rnd.side, backs, pile_top)
