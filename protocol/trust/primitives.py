"""The hashes and keyed derivations of the trust scheme, one function per construction.

All are SHA-256 or HMAC-SHA256 over `unonet.encoding.enc`, never over msgpack bytes (one value has
many msgpack encodings; `enc` has exactly one).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import struct
from collections.abc import Sequence

from protocol.trust.constants import (
    GAME_ID_SIZE,
    SEED_SIZE,
    TAG_CARD_COMMIT,
    TAG_CARD_NONCE,
    TAG_DECK_COMMIT,
    TAG_HAND,
    TAG_SEED_COMMIT,
    TAG_SHUFFLE_KEY,
)
from unonet.encoding import Field, enc

_U64 = struct.Struct(">Q")
_U32 = struct.Struct(">I")
_U64_LEN = _U32.pack(8)  # the length prefix of an int field (a u64)


def sha256(*fields: Field) -> bytes:
    """H(enc(fields)): the one unkeyed hash of the scheme."""
    return hashlib.sha256(enc(*fields)).digest()


def tagged_hmac(key: bytes, *fields: Field) -> bytes:
    """HMAC(key, enc(fields)): every keyed derivation, never SHA-256(secret || x)."""
    return hmac.new(key, enc(*fields), hashlib.sha256).digest()


def new_seed() -> bytes:
    """A fresh 32-byte secret seed (host or player)."""
    return secrets.token_bytes(SEED_SIZE)


def new_game_id() -> bytes:
    """A fresh 16-byte game id, chosen by the host when the game is created."""
    return secrets.token_bytes(GAME_ID_SIZE)


def seed_commitment(game_id: bytes, round_no: int, seat: int, seed: bytes) -> bytes:
    """C = H(enc("uno/v1/seed-commit", game_id, round, seat, seed))."""
    return sha256(TAG_SEED_COMMIT, game_id, round_no, seat, seed)


def round_key(
    host_seed: bytes, game_id: bytes, round_no: int, contributions: Sequence[bytes]
) -> bytes:
    """K = HMAC(hs, enc("uno/v1/shuffle-key", game_id, round, s...)), seeds in seat order.

    `contributions` holds one seed per committed seat, ascending by seat, with `ABSENT_SEED` for a
    seat that committed but never revealed.
    """
    return tagged_hmac(host_seed, TAG_SHUFFLE_KEY, game_id, round_no, *contributions)


def card_nonce(key: bytes, epoch: int, index: int) -> bytes:
    """r = HMAC(K, enc("uno/v1/card-nonce", epoch, index))."""
    return tagged_hmac(key, TAG_CARD_NONCE, epoch, index)


def card_commitment(
    game_id: bytes, round_no: int, epoch: int, index: int, card_id: int, nonce: bytes
) -> bytes:
    """c = H(enc("uno/v1/card-commit", game_id, round, epoch, index, card_id, r))."""
    return sha256(TAG_CARD_COMMIT, game_id, round_no, epoch, index, card_id, nonce)


def card_nonces(key: bytes, epoch: int, count: int) -> tuple[bytes, ...]:
    """`card_nonce(key, epoch, i)` for i in 0..count-1, each message its fixed head plus the
    index's u64."""
    head = enc(TAG_CARD_NONCE, epoch, 0)[:-8]  # all but the index's eight bytes
    pack, digest = _U64.pack, hmac.digest
    return tuple(digest(key, head + pack(index), "sha256") for index in range(count))


def card_commitments(
    game_id: bytes, round_no: int, epoch: int, cards: Sequence[int], nonces: Sequence[bytes]
) -> tuple[bytes, ...]:
    """`card_commitment(game_id, round_no, epoch, i, cards[i], nonces[i])` for every i: the
    fields before the index are the same for every card, hashed once and the state copied."""
    if len(cards) != len(nonces):
        raise ValueError(f"{len(cards)} cards but {len(nonces)} nonces")
    # enc of 7 fields with the last three left out: count, tag, game_id, round, epoch.
    head = hashlib.sha256(enc(TAG_CARD_COMMIT, game_id, round_no, epoch, 0, 0, b"")[:-28])
    pack, length = _U64.pack, _U32.pack
    out = []
    for index, card in enumerate(cards):
        nonce = nonces[index]
        state = head.copy()
        state.update(b"".join((_U64_LEN, pack(index), _U64_LEN, pack(card),
                               length(len(nonce)), nonce)))
        out.append(state.digest())
    return tuple(out)


def deck_commitment(
    game_id: bytes, round_no: int, epoch: int, commitments: Sequence[bytes]
) -> bytes:
    """D = H(enc("uno/v1/deck-commit", game_id, round, epoch, c_0, ..., c_{n-1}))."""
    return sha256(TAG_DECK_COMMIT, game_id, round_no, epoch, *commitments)


def hand_digest(game_id: bytes, round_no: int, seat: int, commitments: Sequence[bytes]) -> bytes:
    """H(enc("uno/v1/hand", game_id, round, seat, sorted c...)): one value for a whole hand.

    The commitments are sorted bytewise so the digest does not depend on the order of the hand.
    """
    return sha256(TAG_HAND, game_id, round_no, seat, *sorted(commitments))


def same_digest(a: bytes, b: bytes) -> bool:
    """Constant-time equality: free to use, so never leak where two digests differ."""
    return hmac.compare_digest(a, b)
