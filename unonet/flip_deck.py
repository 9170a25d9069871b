"""UNO Flip's 112 double-sided cards (RULEBOOK.md section 3): both faces and their pairing.

Each card has a light face (index 0, the side play starts on) and a dark face (index 1). Card id
i names light face i (`light_manifest`, the public deck). Nobody at a physical table knows which
dark face backs which light face (research/variant-rules.md 2.1), and here nobody but the host
may: were the pairing public, the dark face everybody sees on an opponent's card would name its
light face. So each round pairs them afresh, by a portable shuffle of the dark faces keyed from
the round key (`round_manifest`): secret while the round is played, the same on every replay,
and re-derived by the round's audit, which reveals the key. Points are those of the side a
round ends on (Mattel's sheet GDR44).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from unonet.cards import (
    CLASSIC_COLORS,
    EXTRA_COLORS,
    Color,
    DeckManifest,
    Face,
    Kind,
    build_manifest,
)
from unonet.shuffle import derive_key, shuffled

__all__ = [
    "DARK",
    "FLIP_DECK_SIZE",
    "LIGHT",
    "dark_faces",
    "flip_manifest",
    "light_faces",
    "light_manifest",
    "light_side",
    "pair_faces",
    "round_manifest",
    "side_colors",
]

LIGHT = 0
"""The side every round starts on: red, yellow, green, blue."""
DARK = 1
"""The other side: orange, purple, pink, cyan (seed 003's names for pink, teal, orange, purple)."""

FLIP_DECK_SIZE = 112

_SIDE_COLORS: dict[int, tuple[Color, ...]] = {LIGHT: CLASSIC_COLORS, DARK: EXTRA_COLORS}

# Points by the side the round ends on (GDR44): numbers at face value.
_LIGHT_POINTS = {
    Kind.DRAW_ONE: 10, Kind.REVERSE: 20, Kind.SKIP: 20, Kind.FLIP: 20,
    Kind.WILD: 40, Kind.WILD_DRAW_TWO: 50,
}
_DARK_POINTS = {
    Kind.DRAW_FIVE: 20, Kind.REVERSE: 20, Kind.SKIP_EVERYONE: 30, Kind.FLIP: 20,
    Kind.WILD: 40, Kind.WILD_DRAW_COLOR: 60,
}


def side_colors(side: int) -> tuple[Color, ...]:
    """The colours a wild may name, and that cards show, on `side`."""
    return _SIDE_COLORS[side]


def _side_faces(colors: Sequence[Color], actions: Sequence[Kind], wilds: Sequence[Kind],
                points: dict[Kind, int]) -> list[Face]:
    faces: list[Face] = []
    for color in colors:
        for number in range(1, 10):  # no zeros on either side
            faces += [Face(Kind.NUMBER, color, number, number)] * 2
        for kind in actions:
            faces += [Face(kind, color, None, points[kind])] * 2
    for kind in wilds:
        faces += [Face(kind, None, None, points[kind])] * 4
    return faces


@functools.cache
def light_faces() -> tuple[Face, ...]:
    """Per colour 1-9 twice, Draw One, Reverse, Skip, Flip twice; four Wild, four Wild Draw Two."""
    return tuple(_side_faces(
        CLASSIC_COLORS, (Kind.DRAW_ONE, Kind.REVERSE, Kind.SKIP, Kind.FLIP),
        (Kind.WILD, Kind.WILD_DRAW_TWO), _LIGHT_POINTS,
    ))


@functools.cache
def dark_faces() -> tuple[Face, ...]:
    """Per colour 1-9 twice, Draw Five, Reverse, Skip Everyone, Flip twice; four Wild, four Wild
    Draw Color."""
    return tuple(_side_faces(
        EXTRA_COLORS, (Kind.DRAW_FIVE, Kind.REVERSE, Kind.SKIP_EVERYONE, Kind.FLIP),
        (Kind.WILD, Kind.WILD_DRAW_COLOR), _DARK_POINTS,
    ))


def pair_faces(pairs: Sequence[tuple[Face, Face]]) -> DeckManifest:
    """A Flip manifest from (light, dark) pairs, card id i being pairs[i]; checks that both sides
    are the whole of their side's faces (the tests build a pairing a scenario needs with it)."""
    if sorted(map(_order, (p[0] for p in pairs))) != sorted(map(_order, light_faces())):
        raise ValueError("the light faces must be exactly the Flip deck's light side")
    if sorted(map(_order, (p[1] for p in pairs))) != sorted(map(_order, dark_faces())):
        raise ValueError("the dark faces must be exactly the Flip deck's dark side")
    return build_manifest("flip", [(light, dark) for light, dark in pairs])


def _order(face: Face) -> tuple[str, str, int]:
    return (face.kind.value, face.color.value if face.color else "", face.number or 0)


@functools.lru_cache(maxsize=8)
def round_manifest(key: bytes) -> DeckManifest:
    """The Flip deck of one round: light faces in the order of `light_faces` (card id i has light
    face i), each backed by the dark face the portable shuffle of `dark_faces` with the key
    derived from the round `key` (label "flip_pairing") puts at i."""
    darks = shuffled(dark_faces(), derive_key(key, "flip_pairing"), ("flip_pairing",))
    # Each side is its whole list by construction: no need for pair_faces's check (2 ms).
    return build_manifest("flip", list(zip(light_faces(), darks, strict=True)))


def flip_manifest(key: bytes | None = None) -> DeckManifest:
    """A paired Flip deck: the round's of `key`, or with no key dark face i behind light face i
    (the tests' fixed pairing)."""
    if key is not None:
        return round_manifest(key)
    return pair_faces(list(zip(light_faces(), dark_faces(), strict=True)))


@functools.cache
def light_manifest() -> DeckManifest:
    """The public Flip deck: card id i and its light face i. Its dark faces are the round's."""
    return build_manifest("flip", [(face,) for face in light_faces()])


def light_side(deck: DeckManifest) -> DeckManifest:
    """The public part of a paired Flip deck (a test's own pairing): each card's light face."""
    return build_manifest(deck.name, [(card.faces[0],) for card in deck.cards])
