"""UNO Flip (RULEBOOK.md section 3): what only Flip has beside its deck (unonet.flip_deck).

What each card does is in unonet.effects and the turn-over's events in
unonet.events. This module decides what each player is shown of the cards, step by step:

- everybody sees the side not in play of every card in every hand and of the draw pile's top
  card (`OtherSidesShown`, `PileOtherSideShown`): faces by position, never ids;
- a card id names its light face (the public manifest) but not its dark face: which dark face
  backs which light face is dealt afresh each round from the round key, secret until the
  round's audit. Had it been public, the dark face everybody sees on an opponent's card would
  name its light face too, and the other way round. `DarkFacesShown` tells a seat the dark face
  of each card it receives, and everybody the dark face of a card put face up on the dark side
  (played, or turned up by a Flip) and, when a round ends on the dark side, of every hand.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from unonet import events as ev
from unonet.flip_deck import DARK, LIGHT
from unonet.phase import Phase

if TYPE_CHECKING:
    from unonet.cards import Face
    from unonet.events import Position
    from unonet.round_state import RoundState

__all__ = ["FlipSight", "other_side"]


def other_side(side: int) -> int:
    """The side a Flip turns every card to."""
    return DARK if side == LIGHT else LIGHT


class FlipSight:
    """What a Flip round has shown so far, so that each step shows only what is new."""

    def __init__(self, seats: int) -> None:
        self.side = LIGHT
        self.hands: list[frozenset[int]] = [frozenset() for _ in range(seats)]
        self.pile: tuple[int, Position] | None = None
        self.public: set[int] = set()  # cards whose dark face everybody was told
        self.told: list[set[int]] = [set() for _ in range(seats)]  # ...and each seat
        self.backs: dict[int, tuple[Face, ...]] = {}  # side -> each card's face on it

    def dark_faces_known(self, seat: int | None) -> frozenset[int]:
        """The cards whose dark face `seat` (None: a spectator) was told this round."""
        if seat is None or not 0 <= seat < len(self.told):
            return frozenset(self.public)
        return frozenset(self.public | self.told[seat])

    def after_step(self, rnd: RoundState, events: list[ev.Event]) -> list[ev.Event]:
        """`events` of one step with what they show inserted: a dark face just before the event
        that needs it (a card received, a card played or turned up on the dark side, a hand
        revealed to a challenger), then the other sides that changed."""
        out: list[ev.Event] = []
        side = self.side
        touched: set[int] = set()  # seats whose hand may have changed
        for event in events:
            if isinstance(event, ev.CardsReceived):
                self._tell(out, rnd, event.seat, event.cards)
            elif isinstance(event, ev.CardPlayed):
                touched.add(event.seat)
                if side == DARK:
                    self._tell(out, rnd, None, (event.card,))
            elif isinstance(event, ev.CardsDrawn | ev.CardsReturned):
                touched.add(event.seat)
            elif isinstance(event, ev.HandsMoved):
                touched.update(range(len(self.hands)))
            elif isinstance(event, ev.ChallengeReveal) and side == DARK:
                self._tell(out, rnd, event.challenger, event.cards)
            elif isinstance(event, ev.Flipped):
                side = event.side
                if side == DARK:
                    self._tell(out, rnd, None, (event.top,))
            out.append(event)
        if rnd.phase is Phase.ROUND_OVER and rnd.side == DARK:
            self._tell(out, rnd, None, [card for hand in rnd.hands for card in hand])
        self._show_other_sides(out, rnd, touched)
        return out

    def _tell(
        self, out: list[ev.Event], rnd: RoundState, seat: int | None, cards: Iterable[int]
    ) -> None:
        public = self.public
        own = public if seat is None else self.told[seat]
        new = sorted({card for card in cards if card not in public and card not in own})
        if not new:
            return
        own.update(new)
        faces = tuple(rnd.manifest.face(card, DARK) for card in new)
        out.append(ev.DarkFacesShown(seat, tuple(new), faces))

    def _show_other_sides(self, out: list[ev.Event], rnd: RoundState, touched: set[int]) -> None:
        """Everybody sees the side not in play of every card in every hand and of the draw
        pile's top card: show again each of those that changed (a hand's cards, the pile's top
        card, or the side in play). `touched`: the seats whose hands this step's events moved."""
        hidden = other_side(rnd.side)
        turned = self.side != rnd.side
        self.side = rnd.side
        # The faces of the side not in play, by card id (the round's deck is paired afresh).
        backs = self.backs.get(hidden)
        if backs is None:
            backs = self.backs[hidden] = tuple(card.faces[hidden] for card in rnd.manifest)
        position_of = rnd.origin.__getitem__
        for seat in range(len(rnd.hands)) if turned else sorted(touched):
            held = frozenset(rnd.hands[seat])
            if held == self.hands[seat] and not turned:
                continue
            self.hands[seat] = held
            cards = sorted(held, key=position_of)
            out.append(ev.OtherSidesShown(
                seat, tuple(map(position_of, cards)), tuple(map(backs.__getitem__, cards))
            ))
        pile = rnd.draw_pile
        top = (pile[-1], rnd.origin[pile[-1]]) if pile else None
        if top != self.pile or turned:
            self.pile = top
            if top is None:
                out.append(ev.PileOtherSideShown(None, None))
            else:
                out.append(ev.PileOtherSideShown(top[1], rnd.manifest.face(top[0], hidden)))
