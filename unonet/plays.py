"""Look-up tables for the turn's hot path: which cards play on a top card, and each card's Plays.

Listing a seat's legal plays happens at every step of every game (the bots, the host's checks,
the benchmark), so what depends only on the deck is computed once per match instead of per
turn: each card's face on the side shown, the `Play` values it can be played as, and, per top
card and colour in play, the set of card ids that match it. Matching itself stays in
`unonet.matching`; this module only remembers its answers.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache

from unonet.actions import Catch, ChooseColor, ChooseTarget, Play
from unonet.cards import Color, DeckManifest, Face, Kind
from unonet.decisions import Turn
from unonet.events import Position
from unonet.matching import matches

MatchKey = tuple[Kind, int | None, Color | None]
"""What `matches()` reads of the top card and the table: kind, number, the colour in play."""


class PlayTable:
    """Faces, Play values and matching sets for one deck, one side shown and the deck's colours.

    The Play values are shared, immutable instances: a legal-actions list is built from them
    without creating any.
    """

    __slots__ = (
        "_by_face", "_distinct", "_matching", "deal_positions", "faces", "matching_on", "plays",
        "plays_with_uno",
    )

    def __init__(self, manifest: DeckManifest, side: int, colors: Sequence[Color]) -> None:
        self.faces: tuple[Face, ...] = tuple(card.faces[side] for card in manifest.cards)
        self.plays: tuple[tuple[Play, ...], ...] = tuple(
            self._plays_of(card, face, colors, (False,)) for card, face in enumerate(self.faces)
        )
        """card -> its plays when it is not the next-to-last card."""
        self.plays_with_uno: tuple[tuple[Play, ...], ...] = tuple(
            self._plays_of(card, face, colors, (False, True))
            for card, face in enumerate(self.faces)
        )
        """card -> its plays as the next-to-last card: each without and with the UNO call."""
        self.deal_positions: tuple[Position, ...] = tuple((0, i) for i in range(len(self.faces)))
        """index -> (0, index): the positions of a fresh deal, shared by every round."""
        self._matching: dict[MatchKey, frozenset[int]] = {}
        # The ids of each distinct face: a deck has about half as many faces as cards, and a
        # Flip round's dark side (paired afresh each round) needs its matching sets anew.
        self._by_face: dict[Face, list[int]] = {}
        for card, face in enumerate(self.faces):
            self._by_face.setdefault(face, []).append(card)
        self._distinct = frozenset(self._by_face)  # (a frozenset keeps its hash)
        self.matching_on: tuple[dict[Color | None, frozenset[int]], ...] = tuple(
            _ByColor(self, top) for top in range(len(self.faces)))
        """top card id -> colour in play -> the ids of every card that may be played on it:
        `matching` as two look-ups, with no key to build and no call, for the paths every step
        takes (the listing, the judge of a play, the card drawn); each set made on first use."""

    @staticmethod
    def _plays_of(
        card: int, face: Face, colors: Sequence[Color], unos: tuple[bool, ...]
    ) -> tuple[Play, ...]:
        """A card's Play values depend on its id, whether its face names a colour, the colours
        and the UNO calls only: shared by every table (a Flip round builds two tables)."""
        key = (card, face.names_color, tuple(colors), unos)
        found = _PLAYS.get(key)
        if found is None:
            named: Sequence[Color | None] = colors if face.names_color else (None,)
            found = tuple(Play(card, color, uno) for color in named for uno in unos)
            if len(_PLAYS) >= 100_000:  # decks of tests must not accumulate without bound
                _PLAYS.clear()
            _PLAYS[key] = found
        return found

    def matching(self, top: int, active_color: Color | None) -> frozenset[int]:
        """The ids of every card that may be played on card `top` with `active_color` in play."""
        return self.matching_on[top][active_color]

    def _matching_set(self, top: int, active_color: Color | None) -> frozenset[int]:
        top_face = self.faces[top]
        key = (top_face.kind, top_face.number, active_color)
        found = self._matching.get(key)
        if found is None:
            by_face = self._by_face
            found = frozenset(card for face in _matching_faces(self._distinct, top_face,
                                                               active_color)
                              for card in by_face[face])
            self._matching[key] = found
        return found


@lru_cache(maxsize=4096)
def _matching_faces(
    faces: frozenset[Face], top: Face, active_color: Color | None
) -> tuple[Face, ...]:
    """Which of `faces` may be played on `top` with `active_color` in play: the same answer
    for every UNO Flip round, whose dark faces are paired with ids afresh (unonet.flip_deck)
    but are always the same faces."""
    return tuple(face for face in faces if matches(face, top, active_color))


class _ByColor(dict[Color | None, frozenset[int]]):
    """One top card's matching sets by colour in play, each made on first use."""

    __slots__ = ("_table", "_top")

    def __init__(self, table: PlayTable, top: int) -> None:
        super().__init__()
        self._table, self._top = table, top

    def __missing__(self, color: Color | None) -> frozenset[int]:
        found = self[color] = self._table._matching_set(self._top, color)
        return found


_PLAYS: dict[tuple[int, bool, tuple[Color, ...], tuple[bool, ...]], tuple[Play, ...]] = {}
_TABLES: dict[tuple[int, int, tuple[Color, ...]], tuple[DeckManifest, PlayTable]] = {}
_BY_FACES: dict[tuple[tuple[Face, ...], tuple[Color, ...]], PlayTable] = {}


def play_table(manifest: DeckManifest, side: int, colors: Sequence[Color]) -> PlayTable:
    """The shared PlayTable of (manifest, side, colours): built once, then reused by every match.

    Keyed by the manifest's identity (manifests are immutable, and `classic_manifest` hands out
    one instance per deck), holding the manifest so that its id stays its own; then by the
    faces shown, which a table depends on alone: a Flip round's deck is new each round, but its
    light side is the same every round.
    """
    key = (id(manifest), side, tuple(colors))
    entry = _TABLES.get(key)
    if entry is None:
        if len(_TABLES) >= 64:  # custom manifests (tests) must not accumulate without bound
            _TABLES.clear()
        faces_key = (tuple(card.faces[side] for card in manifest.cards), tuple(colors))
        table = _BY_FACES.get(faces_key)
        if table is None:
            if len(_BY_FACES) >= 64:
                _BY_FACES.clear()
            table = _BY_FACES[faces_key] = PlayTable(manifest, side, colors)
        entry = (manifest, table)
        _TABLES[key] = entry
    return entry[1]


@cache
def seat_values(
    seats: int,
) -> tuple[tuple[Catch, ...], tuple[ChooseTarget, ...], tuple[Turn, ...]]:
    """Each seat's Catch and ChooseTarget, and a fresh Turn of each seat: listed and entered,
    never built, by every round of as many seats (values, shared as the Plays are)."""
    return (tuple(Catch(seat) for seat in range(seats)),
            tuple(ChooseTarget(seat) for seat in range(seats)),
            tuple(Turn(seat) for seat in range(seats)))


@cache
def color_choices(colors: tuple[Color, ...]) -> tuple[ChooseColor, ...]:
    """A ChooseColor of each of `colors`, shared likewise."""
    return tuple(ChooseColor(color) for color in colors)
