"""Tags, sizes and sentinels of the trust scheme (SPEC.md section 11).

Every value a client in another language must reproduce byte for byte lives here, so the
constructions in `primitives` read as the spec does.
"""

from __future__ import annotations

from typing import Final

ALGO: Final = "uno-shuffle-v1"
"""Names the whole construction in round_prepare, so old transcripts stay checkable later."""

TAG_SEED_COMMIT: Final = "uno/v1/seed-commit"
TAG_SHUFFLE_KEY: Final = "uno/v1/shuffle-key"
TAG_CARD_NONCE: Final = "uno/v1/card-nonce"
TAG_CARD_COMMIT: Final = "uno/v1/card-commit"
TAG_DECK_COMMIT: Final = "uno/v1/deck-commit"
TAG_HAND: Final = "uno/v1/hand"

GAME_ID_SIZE: Final = 16
"""128 random bits: enough that two games never share an id, so no commitment replays."""

SEED_SIZE: Final = 32
"""256-bit seeds and nonces: a card has ~54 faces, so anything guessable would be brute-forced."""

DIGEST_SIZE: Final = 32
"""SHA-256 and HMAC-SHA256 output."""

NO_SEAT: Final = 2**32 - 1
"""The seat number a host without a seat of its own commits its seed under (a u64 in `enc`)."""

ABSENT_SEED: Final = bytes(SEED_SIZE)
"""What a committed seat that never revealed contributes to the round key: 32 zero bytes."""
