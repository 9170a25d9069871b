"""Cards, faces and the public deck manifest.

A card is a stable integer id within a game; what is printed on it comes from the manifest,
which every client knows. Hands, piles and the protocol speak in ids only. A card has one face,
or two (UNO Flip's light and dark side), so the manifest already describes every deck that
RULEBOOK.md names: several decks, extra colours, Buzzer cards, Flip and No Mercy.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class Color(StrEnum):
    RED = "red"
    YELLOW = "yellow"
    GREEN = "green"
    BLUE = "blue"
    # Extra colours (option `colors`) and Flip's dark side.
    ORANGE = "orange"
    PURPLE = "purple"
    PINK = "pink"
    CYAN = "cyan"


CLASSIC_COLORS: tuple[Color, ...] = (Color.RED, Color.YELLOW, Color.GREEN, Color.BLUE)
EXTRA_COLORS: tuple[Color, ...] = (Color.ORANGE, Color.PURPLE, Color.PINK, Color.CYAN)
ALL_COLORS: tuple[Color, ...] = CLASSIC_COLORS + EXTRA_COLORS


class Kind(StrEnum):
    NUMBER = "number"
    SKIP = "skip"
    REVERSE = "reverse"
    DRAW_TWO = "draw_two"
    WILD = "wild"
    WILD_DRAW_FOUR = "wild_draw_four"
    BUZZER = "buzzer"
    # UNO Flip
    DRAW_ONE = "draw_one"
    DRAW_FIVE = "draw_five"
    FLIP = "flip"
    SKIP_EVERYONE = "skip_everyone"
    WILD_DRAW_TWO = "wild_draw_two"
    WILD_DRAW_COLOR = "wild_draw_color"
    # UNO Show 'Em No Mercy
    DRAW_FOUR = "draw_four"
    DISCARD_ALL = "discard_all"
    WILD_REVERSE_DRAW_FOUR = "wild_reverse_draw_four"
    WILD_DRAW_SIX = "wild_draw_six"
    WILD_DRAW_TEN = "wild_draw_ten"
    WILD_COLOR_ROULETTE = "wild_color_roulette"


WILD_KINDS = frozenset(
    {
        Kind.WILD,
        Kind.WILD_DRAW_FOUR,
        Kind.WILD_DRAW_TWO,
        Kind.WILD_DRAW_COLOR,
        Kind.WILD_REVERSE_DRAW_FOUR,
        Kind.WILD_DRAW_SIX,
        Kind.WILD_DRAW_TEN,
        Kind.WILD_COLOR_ROULETTE,
    }
)

NEXT_PLAYER_NAMES_COLOR = frozenset({Kind.WILD_COLOR_ROULETTE})
"""Wilds whose player names no colour: No Mercy's Color Roulette, whose colour the next player
names (RULEBOOK.md section 4)."""

CHALLENGEABLE_KINDS = frozenset({Kind.WILD_DRAW_FOUR, Kind.WILD_DRAW_TWO, Kind.WILD_DRAW_COLOR})
"""Wild draw cards legal only without a card of the colour in play, and so open to a challenge
(RULEBOOK.md 1.6 and 3); `wd4_policy` rules them all."""

DRAW_AMOUNTS: dict[Kind, int] = {
    Kind.DRAW_ONE: 1,
    Kind.DRAW_TWO: 2,
    Kind.DRAW_FOUR: 4,
    Kind.DRAW_FIVE: 5,
    Kind.WILD_DRAW_TWO: 2,
    Kind.WILD_DRAW_FOUR: 4,
    Kind.WILD_REVERSE_DRAW_FOUR: 4,
    Kind.WILD_DRAW_SIX: 6,
    Kind.WILD_DRAW_TEN: 10,
}

_SHORT: dict[Kind, str] = {
    Kind.SKIP: "S",
    Kind.REVERSE: "R",
    Kind.DRAW_TWO: "+2",
    Kind.WILD: "W",
    Kind.WILD_DRAW_FOUR: "W+4",
    Kind.BUZZER: "BZ",
    Kind.DRAW_ONE: "+1",
    Kind.DRAW_FIVE: "+5",
    Kind.FLIP: "F",
    Kind.SKIP_EVERYONE: "SE",
    Kind.WILD_DRAW_TWO: "W+2",
    Kind.WILD_DRAW_COLOR: "W+C",
    Kind.DRAW_FOUR: "+4",
    Kind.DISCARD_ALL: "DA",
    Kind.WILD_REVERSE_DRAW_FOUR: "WR+4",
    Kind.WILD_DRAW_SIX: "W+6",
    Kind.WILD_DRAW_TEN: "W+10",
    Kind.WILD_COLOR_ROULETTE: "WCR",
}

_NAMES: dict[Kind, str] = {
    Kind.SKIP: "Skip",
    Kind.REVERSE: "Reverse",
    Kind.DRAW_TWO: "Draw Two",
    Kind.WILD: "Wild",
    Kind.WILD_DRAW_FOUR: "Wild Draw Four",
    Kind.BUZZER: "Buzzer",
    Kind.DRAW_ONE: "Draw One",
    Kind.DRAW_FIVE: "Draw Five",
    Kind.FLIP: "Flip",
    Kind.SKIP_EVERYONE: "Skip Everyone",
    Kind.WILD_DRAW_TWO: "Wild Draw Two",
    Kind.WILD_DRAW_COLOR: "Wild Draw Color",
    Kind.DRAW_FOUR: "Draw Four",
    Kind.DISCARD_ALL: "Discard All",
    Kind.WILD_REVERSE_DRAW_FOUR: "Wild Reverse Draw Four",
    Kind.WILD_DRAW_SIX: "Wild Draw Six",
    Kind.WILD_DRAW_TEN: "Wild Draw Ten",
    Kind.WILD_COLOR_ROULETTE: "Wild Color Roulette",
}


@dataclass(frozen=True, slots=True)
class Face:
    """What one side of a card shows: a kind, a colour (None for wilds and buzzers), a number."""

    kind: Kind
    color: Color | None = None
    number: int | None = None
    points: int = 0

    @property
    def is_wild(self) -> bool:
        return self.kind in WILD_KINDS

    @property
    def names_color(self) -> bool:
        """Does its player name a colour with it? Every wild but the Color Roulette."""
        return self.kind in WILD_KINDS and self.kind not in NEXT_PLAYER_NAMES_COLOR

    @property
    def draw_amount(self) -> int:
        return DRAW_AMOUNTS.get(self.kind, 0)

    @property
    def is_action(self) -> bool:
        return self.kind is not Kind.NUMBER

    @property
    def code(self) -> str:
        """A short code such as `r5`, `g+2`, `W+4`: logs, tests and a minimal client use it."""
        body = str(self.number) if self.kind is Kind.NUMBER else _SHORT[self.kind]
        return f"{self.color.value[0]}{body}" if self.color is not None else body

    @property
    def name(self) -> str:
        """The card's name in English words, for logs: 'red 5', 'blue Draw Two', 'Wild'."""
        body = str(self.number) if self.kind is Kind.NUMBER else _NAMES[self.kind]
        return f"{self.color.value} {body}" if self.color is not None else body

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind.value, "points": self.points}
        if self.color is not None:
            out["color"] = self.color.value
        if self.number is not None:
            out["number"] = self.number
        return out


@dataclass(frozen=True, slots=True)
class CardSpec:
    """One physical card: its id and its faces (index 0 the light or only side)."""

    id: int
    faces: tuple[Face, ...]


@dataclass(frozen=True)
class DeckManifest:
    """The public list of every card in a game, indexed by card id."""

    name: str
    cards: tuple[CardSpec, ...]

    def __post_init__(self) -> None:
        for index, card in enumerate(self.cards):
            if card.id != index:
                raise ValueError(f"card ids must be 0..n-1 in order; found {card.id} at {index}")

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self) -> Iterator[CardSpec]:
        return iter(self.cards)

    def face(self, card_id: int, side: int = 0) -> Face:
        return self.cards[card_id].faces[side]

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "cards": [[face.to_dict() for face in card.faces] for card in self.cards],
        }


def _classic_color_set(color: Color) -> list[Face]:
    faces = [Face(Kind.NUMBER, color, 0, 0)]
    for number in range(1, 10):
        faces += [Face(Kind.NUMBER, color, number, number)] * 2
    for kind in (Kind.SKIP, Kind.REVERSE, Kind.DRAW_TWO):
        faces += [Face(kind, color, None, 20)] * 2
    return faces


def classic_faces(colors: int = 4) -> list[Face]:
    """One classic deck: per colour 0, 1-9 twice, Skip, Reverse, Draw Two twice; 4 W, 4 W+4."""
    if not 4 <= colors <= len(ALL_COLORS):
        raise ValueError(f"colors must be 4-{len(ALL_COLORS)}, got {colors}")
    faces: list[Face] = []
    for color in ALL_COLORS[:colors]:
        faces += _classic_color_set(color)
    faces += [Face(Kind.WILD, None, None, 50)] * 4
    faces += [Face(Kind.WILD_DRAW_FOUR, None, None, 50)] * 4
    return faces


def build_manifest(name: str, sides: Sequence[Sequence[Face]]) -> DeckManifest:
    """A manifest from a list of cards, each given as its faces."""
    return DeckManifest(name, tuple(CardSpec(i, tuple(f)) for i, f in enumerate(sides)))


@functools.cache
def classic_manifest(decks: int = 1, colors: int = 4, buzzers: bool = False) -> DeckManifest:
    """The classic deck(s); ids run deck by deck in the order of `classic_faces`, buzzers last.

    Manifests are immutable, so one instance per (decks, colors, buzzers) serves every game.
    """
    faces: list[Face] = []
    for _ in range(decks):
        faces += classic_faces(colors)
    if buzzers:
        faces += [Face(Kind.BUZZER, None, None, 0)] * 8
    name = "classic" if (decks, colors, buzzers) == (1, 4, False) else (
        f"classic-{decks}d-{colors}c" + ("-buzzers" if buzzers else "")
    )
    return build_manifest(name, [(face,) for face in faces])
