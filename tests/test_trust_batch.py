"""The batch derivations a deal uses are the per-card constructions of SPEC 11, byte for byte.

`card_nonces` and `card_commitments` hash a fixed head once and copy the state (the host's deal
was 216 separate HMACs and hashes); they must equal `card_nonce` and `card_commitment` for every
index, for any key, game id, round and epoch, including the u64 edges.
"""

from __future__ import annotations

import random

import pytest

from protocol.trust.primitives import card_commitment, card_commitments, card_nonce, card_nonces


@pytest.mark.parametrize("key_size", [0, 1, 32, 64, 65, 200])
def test_card_nonces_are_card_nonce_for_every_index(key_size: int) -> None:
    rng = random.Random(key_size)
    key = rng.randbytes(key_size)
    for epoch in (0, 1, 7, 2**64 - 1):
        assert card_nonces(key, epoch, 112) == tuple(
            card_nonce(key, epoch, index) for index in range(112))


def test_card_commitments_are_card_commitment_for_every_index() -> None:
    rng = random.Random(5)
    for game_id, round_no, epoch in ((b"g" * 16, 1, 0), (rng.randbytes(16), 2**64 - 1, 3),
                                     (b"", 0, 2**64 - 1)):
        cards = [rng.randrange(2**64) for _ in range(108)]
        nonces = [rng.randbytes(rng.choice((0, 16, 32, 70))) for _ in cards]
        assert card_commitments(game_id, round_no, epoch, cards, nonces) == tuple(
            card_commitment(game_id, round_no, epoch, index, card, nonce)
            for index, (card, nonce) in enumerate(zip(cards, nonces, strict=True)))


def test_card_commitments_refuse_a_card_without_its_nonce() -> None:
    with pytest.raises(ValueError, match="108 cards but 107 nonces"):
        card_commitments(b"g" * 16, 1, 0, list(range(108)), [b"n" * 32] * 107)
