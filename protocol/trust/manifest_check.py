"""The deck a manifest announces, checked against the deck its rules name (at manifest time).

UNO Flip's 112 cards each have a light face and a dark face. Which dark face backs which light
face is the host's choice (unonet.flip_deck pairs them from the match seed), fixed in the
manifest before any seed of a round is committed, so it cannot follow a round's shuffle. What a
client can and must check is that the faces are the Flip deck's: every card two-faced, the light
faces exactly the light side's and the dark faces exactly the dark side's, as multisets. A
doctored side (a second Wild Draw Color, a missing Skip) would change what every play means.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from protocol.trust.results import Violation, ViolationKind
from unonet.cards import DeckManifest, Face
from unonet.flip_deck import DARK, FLIP_DECK_SIZE, LIGHT, dark_faces, light_faces
from unonet.rules import RuleSet

__all__ = ["deck_violations"]


def deck_violations(rules: RuleSet, manifest: DeckManifest) -> list[Violation]:
    """What is wrong with the manifest's deck for `rules` ([] for a variant not checked here)."""
    if rules.variant != "flip":
        return []
    problem = _flip_problem(manifest)
    if problem is None:
        return []
    return [
        Violation(ViolationKind.DECK, f"the manifest's deck is not the UNO Flip deck: {problem}")
    ]


def _flip_problem(manifest: DeckManifest) -> str | None:
    if len(manifest) != FLIP_DECK_SIZE:
        return f"it has {len(manifest)} cards, not {FLIP_DECK_SIZE}"
    if all(len(card.faces) == 1 for card in manifest):
        # The public deck of unonet.flip_deck.light_manifest: card id i names light face i; the
        # dark faces are paired per round from its key (issue 14, commit 1616842).
        return _difference((card.faces[0] for card in manifest), light_faces(), "light side")
    one_sided = [card.id for card in manifest if len(card.faces) != 2]
    if one_sided:
        return f"card {one_sided[0]} has {len(manifest.cards[one_sided[0]].faces)} faces, not 2"
    for side, name, expected in ((LIGHT, "light", light_faces()), (DARK, "dark", dark_faces())):
        difference = _difference((card.faces[side] for card in manifest), expected, f"{name} side")
        if difference is not None:
            return difference
    return None


def _difference(faces: Iterable[Face], expected: Iterable[Face], what: str) -> str | None:
    """How a side's faces differ from the expected multiset, in words, or None."""
    have, want = Counter(faces), Counter(expected)
    extra, missing = have - want, want - have
    if not extra and not missing:
        return None
    parts = []
    if extra:
        face, count = sorted(extra.items(), key=lambda item: item[0].name)[0]
        parts.append(f"its {what} has {count} {face.name} ({face.points} points) too many")
    if missing:
        face, count = sorted(missing.items(), key=lambda item: item[0].name)[0]
        parts.append(f"its {what} lacks {count} {face.name} ({face.points} points)")
    return " and ".join(parts)
