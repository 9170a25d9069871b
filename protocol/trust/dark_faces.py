"""UNO Flip's dark faces as told (`dark_faces_shown`), checked at once and at the audit.

A card id names its light face only; which dark face backs it is dealt afresh each round from the
round key K (unonet.flip_deck.round_manifest), secret until the audit reveals K. So while a round
is played a client knows a card's dark face only as the host tells it: to everybody for a card
face up on the dark side, to a seat for the cards it receives. What can be judged at once is that
the tellings agree with one another and with the Flip deck (a face of its dark side, never more
cards told one face than the deck has of it, a card never told two faces); that they are the
round's pairing is judged at the audit, once K is known.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

from protocol.trust.results import Violation, ViolationKind
from unonet import events as ev
from unonet.cards import DeckManifest, Face
from unonet.flip_deck import DARK, dark_faces

__all__ = ["audit_dark_faces", "told_violations", "untold"]


def told_violations(
    event: ev.DarkFacesShown, known: Mapping[int, Face], deck_size: int, whom: str
) -> tuple[list[Violation], dict[int, Face]]:
    """What is wrong with one telling, given what this observer was told before this round
    (`known`), and the (card, face) pairs it adds. `whom`: "everybody", "you"."""
    found: list[Violation] = []
    if len(event.cards) != len(event.faces):
        found.append(
            Violation(
                ViolationKind.MALFORMED,
                f"dark faces told to {whom} pair {len(event.cards)} cards with "
                f"{len(event.faces)} faces",
            )
        )
    if list(event.cards) != sorted(set(event.cards)):
        found.append(
            Violation(
                ViolationKind.MALFORMED,
                f"dark faces told to {whom} list their cards out of order or twice",
            )
        )
    deck = Counter(dark_faces())
    added: dict[int, Face] = {}
    for card, face in zip(event.cards, event.faces, strict=False):
        if not 0 <= card < deck_size:
            found.append(
                Violation(
                    ViolationKind.MALFORMED,
                    f"a dark face was told to {whom} for card {card}, not in the deck",
                )
            )
            continue
        if face not in deck:
            found.append(
                Violation(
                    ViolationKind.DARK_FACE,
                    f"card {card} was told to {whom} to have {face.name} on its dark side, "
                    f"which is no dark face of the UNO Flip deck",
                )
            )
            continue
        before = known.get(card, added.get(card))
        if before is not None and before != face:
            found.append(
                Violation(
                    ViolationKind.DARK_FACE,
                    f"card {card}'s dark face was told as {before.name} and then, to {whom}, "
                    f"as {face.name}: a card has one dark face a round",
                )
            )
            continue
        added[card] = face
    told = Counter({**known, **added}.values())
    for face in sorted(set(added.values()), key=lambda face: face.name):
        count = told[face]
        if count > deck[face]:
            found.append(
                Violation(
                    ViolationKind.DARK_FACE,
                    f"{count} cards were told to have {face.name} on their dark side, but the "
                    f"UNO Flip deck has {deck[face]}",
                )
            )
    return found, added


def untold(cards: Iterable[int], known: Mapping[int, Face]) -> list[int]:
    """The cards among `cards` whose dark face this observer was not told, ascending."""
    return sorted({card for card in cards if card not in known})


def audit_dark_faces(
    told: Iterable[tuple[int, Face, str]], paired: DeckManifest
) -> list[Violation]:
    """Each (card, dark face, to whom) told this round against the round's pairing (the deck
    `round_manifest(K)` pairs), once the audit reveals K."""
    found: list[Violation] = []
    for card, face, whom in told:
        if not 0 <= card < len(paired) or len(paired.cards[card].faces) <= DARK:
            continue  # reported when it was told
        actual = paired.face(card, DARK)
        if actual != face:
            light = paired.face(card).name
            found.append(
                Violation(
                    ViolationKind.DARK_FACE,
                    f"card {card} ({light}) was told to {whom} to have {face.name} on its dark "
                    f"side, but the round key pairs it with {actual.name}",
                )
            )
    return found
