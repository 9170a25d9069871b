"""The face a card id shows in play, for whoever follows a match from its views or events.

A card id names its light face only (the public manifest); in UNO Flip which dark face backs
it is dealt afresh each round and told card by card (`DarkFacesShown`, the view's
`dark_faces`: unonet.flip). So a card's face in play is read from the manifest on the light
side and from what the reader was told on the dark side. The client's fold, its screen, the
narration and the bots all read faces through `face_in_play`, so none of them can name a dark
card by a face it was never told. Pure, no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from unonet.cards import DeckManifest, Face

__all__ = ["DarkFaces", "face_in_play"]


def face_in_play(
    manifest: DeckManifest, card: int, side: int, dark: Mapping[int, Face]
) -> Face | None:
    """`card`'s face on `side` (0 light, 1 dark; always 0 but in UNO Flip): the manifest's on
    the light side, the told one on the dark side. None for an id outside the deck, or a dark
    face nobody told the reader (a host that broke SPEC 9.2: the caller shows it as unknown,
    the trust gate names the fault)."""
    if not 0 <= card < len(manifest):
        return None
    if side == 0:
        return manifest.face(card)
    told = dark.get(card)
    if told is not None:
        return told
    faces = manifest.cards[card].faces  # a manifest with both faces (a round's, at the audit)
    return faces[side] if 0 <= side < len(faces) else None


class DarkFaces:
    """The dark faces a reader was told this round, as a mapping, rebuilt only when the view's
    `dark_faces` changes (a screen reads faces many times per frame)."""

    def __init__(self) -> None:
        self._source: tuple[tuple[int, Face], ...] = ()
        self._faces: dict[int, Face] = {}

    def of(self, pairs: tuple[tuple[int, Face], ...]) -> Mapping[int, Face]:
        """The mapping card id -> dark face for `pairs` (a view's `dark_faces`)."""
        if pairs is not self._source:
            self._source = pairs
            self._faces = dict(pairs)
        return self._faces

    @staticmethod
    def merged(pairs: tuple[tuple[int, Face], ...], cards: Iterable[int],
               faces: Iterable[Face]) -> tuple[tuple[int, Face], ...]:
        """`pairs` with the newly told `cards`/`faces` added, by card id ascending (a card
        told again keeps its latest face)."""
        told = dict(pairs)
        told.update(zip(cards, faces, strict=False))
        return tuple(sorted(told.items()))
