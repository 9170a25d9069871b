"""The Wild Draw Four challenge, checked: the verdict rule and the comparison of hands.

RULEBOOK.md 1.6: the play was illegal (guilty) iff the hand held a card of the colour in play; wilds
and same-number cards of other colours do not count. Faces are read on the side in play when the
card was played (UNO Flip's Wild Draw Two on the light side, Wild Draw Color on the dark side; a
classic deck has only side 0): from the manifest, or, for UNO Flip's dark side while the round's
pairing is secret, from the dark faces told (`dark`); at the audit, from the round's pairing.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping

from protocol.trust.ledger import fmt
from protocol.trust.results import Violation, ViolationKind
from unonet.cards import Color, DeckManifest, Face
from unonet.events import Position

Dark = Mapping[int, Face] | None
"""UNO Flip: the dark faces told, by card id (None: read every side from the manifest)."""


def _face(manifest: DeckManifest, card: int, side: int, dark: Dark = None) -> Face | None:
    """The card's face on `side`, or None for an id or side the deck does not have (or a dark
    face not told)."""
    if not 0 <= card < len(manifest):
        return None
    if dark is not None and side == 1:
        return dark.get(card)
    faces = manifest.cards[card].faces
    return faces[side] if 0 <= side < len(faces) else None


def _colour_of(manifest: DeckManifest, card: int, side: int, dark: Dark = None) -> Color | None:
    face = _face(manifest, card, side, dark)
    return None if face is None else face.color


def is_guilty(
    manifest: DeckManifest,
    cards: Iterable[int],
    color_before: Color | None,
    side: int = 0,
    dark: Dark = None,
) -> bool:
    """The verdict the hand `cards` implies when `color_before` was the colour in play on
    `side`."""
    return color_before is not None and any(
        _colour_of(manifest, card, side, dark) == color_before for card in cards
    )


def describe_verdict(guilty: bool) -> str:
    return "guilty" if guilty else "innocent"


def verdict_violation(
    manifest: DeckManifest,
    target: int,
    declared: bool,
    cards: Collection[int],
    color_before: Color | None,
    whose: str,
    side: int = 0,
    dark: Dark = None,
) -> Violation | None:
    """A Violation if the declared verdict is not the one the cards imply, else None."""
    expected = is_guilty(manifest, cards, color_before, side, dark)
    if expected == declared:
        return None
    colour = color_before.value if color_before is not None else "no colour"
    if expected:
        matching = next(c for c in cards if _colour_of(manifest, c, side, dark) == color_before)
        face = _face(manifest, matching, side, dark)
        name = face.name if face is not None else f"card {matching}"
        why = f"holds {name}, a {colour} card, and {colour} was in play"
    else:
        why = f"holds no {colour} card, and {colour} was in play"
    return Violation(
        ViolationKind.CHALLENGE_VERDICT,
        f"the host declared seat {target} {describe_verdict(declared)}, but {whose} {why}: "
        f"the verdict should be {describe_verdict(expected)}",
    )


def hand_set_violations(
    target: int, held: Collection[Position], revealed: Iterable[Position]
) -> list[Violation]:
    """Compare the revealed positions with those the public record says `target` held."""
    found: list[Violation] = []
    revealed_list = list(revealed)
    seen: set[Position] = set()
    for position in revealed_list:
        if position in seen:
            found.append(
                Violation(
                    ViolationKind.CHALLENGE_HAND,
                    f"the hand revealed at the challenge lists position {fmt(position)} twice",
                )
            )
        seen.add(position)
    for position in sorted(set(held) - seen):
        found.append(
            Violation(
                ViolationKind.CHALLENGE_HAND,
                f"the hand revealed at the challenge leaves out position {fmt(position)}, which "
                f"seat {target} held when it played the challenged card",
            )
        )
    for position in sorted(seen - set(held)):
        found.append(
            Violation(
                ViolationKind.CHALLENGE_HAND,
                f"the hand revealed at the challenge includes position {fmt(position)}, which "
                f"seat {target} did not hold when it played the challenged card",
            )
        )
    return found
