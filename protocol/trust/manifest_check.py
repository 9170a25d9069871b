"""The deck a manifest announces, checked against the deck its rules name (at manifest time).

Every deck is public and fixed by the rules: the classic deck by `decks`, `colors` and
`buzzers` (section 10's order), UNO Flip's and No Mercy's by their variant. A face or its points
doctored in the manifest would change what every play means and what every hand scores, while
the referee and the audit play the rules' deck: so any difference is a violation at once.

UNO Flip's 112 cards each have a light face and a dark face. The public deck names each card id's
light face only, in the order of section 10 (`unonet.flip_deck.light_manifest`): which dark face
backs which id is dealt afresh each round from its key and stays secret until the round's audit
(had the pairing been public, the dark face everybody sees on an opponent's card would name its
light face). So a client checks that a Flip manifest is exactly that deck: 112 cards, one face
each, card i the i-th light face. A doctored face would change what every play means, and a
manifest that names a dark face gives a pairing away (or one a host fixed to suit itself).

UNO Show 'Em No Mercy's 168 cards (`unonet.no_mercy_deck`) and the classic deck
(`unonet.cards.classic_manifest`) have one face a card: the manifest must be exactly the rules'
deck, every face and its points, or the ledger would read the host's faces while the referee and
the audit play the rules' deck.
"""

from __future__ import annotations

from protocol.trust.results import Violation, ViolationKind
from unonet.cards import DeckManifest
from unonet.flip_deck import FLIP_DECK_SIZE, light_faces
from unonet.rules import RuleSet

__all__ = ["deck_violations"]


def deck_violations(rules: RuleSet, manifest: DeckManifest) -> list[Violation]:
    """What is wrong with the manifest's deck for `rules` ([] when it is the rules' deck)."""
    if rules.variant == "flip":
        problem, deck = _flip_problem(manifest), "the UNO Flip deck"
    elif rules.variant == "no_mercy":
        problem, deck = _one_face_problem(manifest, rules.manifest()), "the No Mercy deck"
    else:
        problem = _one_face_problem(manifest, rules.manifest())
        deck = f"the classic deck of these rules ({_classic_words(rules)})"
    if problem is None:
        return []
    return [Violation(ViolationKind.DECK, f"the manifest's deck is not {deck}: {problem}")]


def _classic_words(rules: RuleSet) -> str:
    """The options that make a classic deck, in words: "1 deck of 4 colours, no Buzzers"."""
    decks = f"{rules.decks} deck{'s' if rules.decks > 1 else ''}"
    return f"{decks} of {rules.colors} colours, {'with' if rules.buzzers else 'no'} Buzzers"


def _one_face_problem(manifest: DeckManifest, expected: DeckManifest) -> str | None:
    """How the manifest differs from a public deck of one face a card (card i: its i-th face)."""
    if len(manifest) != len(expected):
        return f"it has {len(manifest)} cards, not {len(expected)}"
    for index, (card, want) in enumerate(zip(manifest.cards, expected.cards, strict=True)):
        if card.faces != want.faces:
            face, right = card.faces[0] if card.faces else None, want.faces[0]
            shown = "no face" if face is None else f"{face.name} ({face.points} points)"
            if len(card.faces) > 1:
                shown = f"{len(card.faces)} faces"
            return (
                f"card {index} is {shown}, where the deck has {right.name} "
                f"({right.points} points)"
            )
    return None


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
