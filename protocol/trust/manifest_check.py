"""The deck a manifest announces, checked against the deck its rules name (at manifest time).

UNO Flip's 112 cards each have a light face and a dark face. The public deck names each card id's
light face only, in the order of section 10 (`unonet.flip_deck.light_manifest`): which dark face
backs which id is dealt afresh each round from its key and stays secret until the round's audit
(had the pairing been public, the dark face everybody sees on an opponent's card would name its
light face). So a client checks that a Flip manifest is exactly that deck: 112 cards, one face
each, card i the i-th light face. A doctored face would change what every play means, and a
manifest that names a dark face gives a pairing away (or one a host fixed to suit itself).
"""

from __future__ import annotations

from protocol.trust.results import Violation, ViolationKind
from unonet.cards import DeckManifest
from unonet.flip_deck import FLIP_DECK_SIZE, light_faces
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
    """How the manifest differs from the public Flip deck (card i: light face i only)."""
    if len(manifest) != FLIP_DECK_SIZE:
        return f"it has {len(manifest)} cards, not {FLIP_DECK_SIZE}"
    expected = light_faces()
    for index, card in enumerate(manifest.cards):
        if len(card.faces) != 1:
            return (
                f"card {index} has {len(card.faces)} faces; the public deck names each card's "
                f"light face only, since each round pairs the dark faces in secret"
            )
        face, want = card.faces[0], expected[index]
        if face != want:
            return (
                f"card {index} is {face.name} ({face.points} points), where the light side "
                f"has {want.name} ({want.points} points)"
            )
    return None
