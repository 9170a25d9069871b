"""What a host's view and events may point at: seats of the table, cards of the deck.

The wire's codecs check types, not ranges: an event for seat 3 at a table of three, a card id
past the deck, a team 7, decode fine and then index past the end of the client's own tables
(found by tests/test_client_hostile_host_fuzz.py: IndexError in the fold, in the screen). Each
view and event is checked here before anything uses it; one that points outside is unusable,
as a malformed message is (client/link_session.py asks for the table again).

Sans-IO, one job: `check_view` and `check_event` raise BoundsError or return.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from unonet import events as ev
from unonet.view import View

__all__ = ["BoundsError", "check_event", "check_view"]

SEAT_FIELDS = frozenset({"seat", "target", "catcher", "challenger", "dealer", "to", "winner"})
"""An event's fields that name one seat (or None, where the event allows it)."""

SEAT_LIST_FIELDS = frozenset({"losers", "seats", "waiting"})
PER_SEAT_FIELDS = frozenset({"hands", "points", "scores"})
"""Fields with one entry per seat of the table, in seat order."""

CARD_FIELDS = frozenset({"card", "top"})


class BoundsError(ValueError):
    """A view or event names a seat or card that is not there."""


def _seat(value: object, seats: int, what: str) -> None:
    if value is not None and not (isinstance(value, int) and 0 <= value < seats):
        raise BoundsError(f"{what} {value!r} is not a seat of this table (0-{seats - 1})")


def _card(value: object, deck: int, what: str) -> None:
    if value is not None and not (isinstance(value, int) and 0 <= value < deck):
        raise BoundsError(f"{what} {value!r} is not a card of this deck (0-{deck - 1})")


def _cards(values: Iterable[object], deck: int, what: str) -> None:
    for value in values:
        _card(value, deck, what)


def check_view(view: View, deck: int) -> None:
    """Every seat and card `view` names is of its table (its own `seats`) and of a deck of
    `deck` cards."""
    seats = len(view.seats)
    for index, info in enumerate(view.seats):
        if info.seat != index:
            raise BoundsError(f"seats[{index}] is seat {info.seat}")
        if info.team is not None and not 0 <= info.team < seats // 2:
            # teams=pairs: one team per two seats, partners opposite (SPEC.md 9.1)
            raise BoundsError(f"seat {index}'s team {info.team} is not one of this table's "
                              f"{seats // 2} teams")
    for what in ("seat", "dealer", "current", "round_winner", "match_winner"):
        _seat(getattr(view, what), seats, what)
    _cards(view.hand, deck, "a card in hand")
    _card(view.top_card, deck, "top_card")
    _card(view.drawn_card, deck, "drawn_card")
    _cards((card for card, _ in view.dark_faces), deck, "a dark face's card")
    pending = view.pending
    if pending is not None:
        _seat(pending.seat, seats, "pending.seat")
        _seat(pending.target, seats, "pending.target")
        for seat in pending.waiting:
            _seat(seat, seats, "pending.waiting")


def check_event(event: ev.Event, seats: int, deck: int) -> None:
    """Every seat and card `event` names is of a table of `seats` seats and a deck of `deck`
    cards; fields with one entry per seat have one per seat."""
    name = type(event).__name__
    for field in dataclasses.fields(event):
        value = getattr(event, field.name)
        what = f"{name}.{field.name}"
        if field.name in SEAT_FIELDS:
            _seat(value, seats, what)
        elif field.name in SEAT_LIST_FIELDS:
            for seat in value:
                _seat(seat, seats, what)
        elif field.name in PER_SEAT_FIELDS:
            if len(value) != seats:
                raise BoundsError(f"{what} has {len(value)} entries for {seats} seats")
        elif field.name in CARD_FIELDS:
            _card(value, deck, what)
        elif field.name == "cards" and isinstance(value, tuple):
            _cards(value, deck, what)
    if isinstance(event, ev.RoundEnded):
        for hand in event.hands:
            _cards(hand, deck, "RoundEnded.hands")
    elif isinstance(event, ev.DealerDraw):
        for seat, card in event.draws:
            _seat(seat, seats, "DealerDraw.draws")
            _card(card, deck, "DealerDraw.draws")
    elif isinstance(event, ev.HandsMoved):
        for giver, receiver, _ in event.moves:
            _seat(giver, seats, "HandsMoved.moves")
            _seat(receiver, seats, "HandsMoved.moves")
