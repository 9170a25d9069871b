"""Stacked decks: a deal order built from the hands, first card and draws a test wants.

Scenario tests say "seat 1 holds r5 and W+4, the first card is g7, the next draws are b2, y9"
and get the full deal order that produces it under the engine's round-robin deal (one card at a
time, starting left of the dealer). Cards are named by their short code (Face.code); each code
takes the lowest unused id with that face. Every card not named follows in ascending id order.
"""

from __future__ import annotations

from collections.abc import Sequence

from unonet.cards import DeckManifest


class _Picker:
    def __init__(self, manifest: DeckManifest) -> None:
        self.manifest = manifest
        self.used: set[int] = set()

    def take(self, code: str) -> int:
        for card in self.manifest:
            if card.id not in self.used and card.faces[0].code == code:
                self.used.add(card.id)
                return card.id
        raise ValueError(f"no unused card {code!r} left in deck {self.manifest.name!r}")


def stacked_order(
    manifest: DeckManifest,
    dealer: int,
    hands: Sequence[Sequence[str]],
    top: str | Sequence[str],
    draws: Sequence[str] = (),
) -> list[int]:
    """The deal order giving seat i the cards `hands[i]` (all hands the same length), then the
    first discard `top` (several codes: the first-card redraw cases), then `draws` in order."""
    seats = len(hands)
    size = len(hands[0])
    if any(len(hand) != size for hand in hands):
        raise ValueError("every hand must have hand_size cards")
    picker = _Picker(manifest)
    ids = [[picker.take(code) for code in hand] for hand in hands]
    order: list[int] = []
    for k in range(size * seats):
        seat = (dealer + 1 + k) % seats
        order.append(ids[seat][k // seats])
    tops = [top] if isinstance(top, str) else list(top)
    order += [picker.take(code) for code in tops]
    order += [picker.take(code) for code in draws]
    order += [card.id for card in manifest if card.id not in picker.used]
    return order


def card_id(manifest: DeckManifest, code: str, nth: int = 0) -> int:
    """The id of the `nth` card with this code (0 = the lowest id)."""
    matching = [card.id for card in manifest if card.faces[0].code == code]
    if nth >= len(matching):
        raise ValueError(f"deck {manifest.name!r} has {len(matching)} cards {code!r}")
    return matching[nth]
