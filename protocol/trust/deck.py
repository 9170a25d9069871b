"""A committed pile: the order of one epoch, its nonces, its position commitments and D.

Epoch 0 is the round's deal (`unonet.shuffle.deal_order`); epoch e >= 1 is the e-th reshuffle, a
shuffle of the *positions* the new pile's cards come from (`unonet.shuffle.reshuffle_order`), so a
face-down pile can be reshuffled without naming its cards. Host and auditor build it the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from protocol.trust.primitives import card_commitments, card_nonces, deck_commitment
from unonet.events import Position
from unonet.shuffle import deal_order, reshuffle_order


@dataclass(frozen=True, slots=True)
class CardProof:
    """What opens one position commitment: the position, the card id there, and its nonce."""

    position: Position
    card: int
    nonce: bytes


@dataclass(frozen=True, slots=True)
class CommittedDeck:
    """One epoch's order (index 0 = top) with everything the host publishes or reveals for it.

    `sources[i]` is the earlier position card i came from (empty for epoch 0).
    """

    epoch: int
    order: tuple[int, ...]
    nonces: tuple[bytes, ...]
    commitments: tuple[bytes, ...]
    deck_commitment: bytes
    sources: tuple[Position, ...] = ()

    def proof(self, index: int) -> CardProof:
        """The opening of position (epoch, index), for its owner or for a face-up card."""
        return CardProof((self.epoch, index), self.order[index], self.nonces[index])


def commit_order(
    game_id: bytes,
    round_no: int,
    key: bytes,
    epoch: int,
    order: Sequence[int],
    sources: Sequence[Position] = (),
) -> CommittedDeck:
    """Derive the nonces, commitments and D of an already shuffled `order`."""
    nonces = card_nonces(key, epoch, len(order))
    commitments = card_commitments(game_id, round_no, epoch, order, nonces)
    return CommittedDeck(
        epoch=epoch,
        order=tuple(order),
        nonces=nonces,
        commitments=commitments,
        deck_commitment=deck_commitment(game_id, round_no, epoch, commitments),
        sources=tuple(sources),
    )


def deal_deck(game_id: bytes, round_no: int, key: bytes, deck_size: int) -> CommittedDeck:
    """Epoch 0: the whole deck shuffled by the round key."""
    return commit_order(game_id, round_no, key, 0, deal_order(key, deck_size))


def reshuffle_deck(
    game_id: bytes,
    round_no: int,
    key: bytes,
    epoch: int,
    sources: Sequence[Position],
    card_at: Callable[[Position], int],
) -> CommittedDeck:
    """Epoch e >= 1: the `sources` of the public Reshuffled event, shuffled by the round key.

    `card_at` names the card at an earlier position (the host knows; an auditor re-derives it).
    """
    if epoch < 1:
        raise ValueError(f"a reshuffle epoch starts at 1, got {epoch}")
    new_sources = reshuffle_order(key, epoch, sources)
    order = [card_at(source) for source in new_sources]
    return commit_order(game_id, round_no, key, epoch, order, new_sources)
