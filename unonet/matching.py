"""What may be played on what (RULEBOOK.md 1.4-1.6): the one place that compares faces."""

from __future__ import annotations

from collections.abc import Iterable

from unonet.cards import Color, Face, Kind


def matches(face: Face, top: Face, active_color: Color | None) -> bool:
    """A card may be played on `top` when it is a wild, has the colour in play (the named
    colour after a wild), or shows the same number or symbol."""
    if face.is_wild or face.kind is Kind.BUZZER:
        return True
    if face.color is not None and face.color == active_color:
        return True
    if face.kind is Kind.NUMBER:
        return top.kind is Kind.NUMBER and face.number == top.number
    return face.kind == top.kind


def holds_color(faces: Iterable[Face], color: Color | None) -> bool:
    """Does a hand hold a card of `color`? Wilds and same-number cards of other colours do not
    count (RULEBOOK.md 1.6: the Wild Draw Four legality test)."""
    return color is not None and any(face.color == color for face in faces)


def dealer_value(face: Face) -> int:
    """A card's value when choosing the dealer: its number; action cards and wilds count 0."""
    return face.number if face.kind is Kind.NUMBER and face.number is not None else 0
