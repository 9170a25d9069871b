"""The portable shuffle: Fisher-Yates driven by HMAC-SHA256 in counter mode.

Clients re-derive the deck order from the revealed seeds (SPEC.md, Trust), so the algorithm is
specified to the bit and never uses `random`, whose generator is an implementation detail.

The stream for a shuffle with key K and label L is the concatenation of
`HMAC-SHA256(K, enc("uno/v1/prng", *L, ctr))` for ctr = 0, 1, 2, ...; `below(n)` takes the next
4 bytes as a big-endian u32 `x`, rejects `x >= 2**32 - (2**32 mod n)` (no modulo bias) and returns
`x mod n`. The permutation starts from the input order and, for i = len-1 down to 1, swaps item i
with item below(i+1). Index 0 of the result is the top of the pile (dealt first).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from typing import TypeVar

from unonet.encoding import Field, enc

T = TypeVar("T")

PRNG_TAG = "uno/v1/prng"
_SPACE = 2**32


class HmacStream:
    """Unbiased integers from an HMAC-SHA256 counter-mode byte stream."""

    __slots__ = ("_buffer", "_counter", "_key", "_label", "_offset")

    def __init__(self, key: bytes, label: Sequence[Field]) -> None:
        self._key = key
        self._label = tuple(label)
        self._counter = 0
        self._buffer = b""
        self._offset = 0

    def _next_u32(self) -> int:
        if self._offset + 4 > len(self._buffer):
            block = enc(PRNG_TAG, *self._label, self._counter)
            self._buffer = hmac.new(self._key, block, hashlib.sha256).digest()
            self._counter += 1
            self._offset = 0
        value = int.from_bytes(self._buffer[self._offset : self._offset + 4], "big")
        self._offset += 4
        return value

    def below(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        if not 0 < n <= _SPACE:
            raise ValueError(f"below() needs 0 < n <= 2**32, got {n}")
        limit = _SPACE - (_SPACE % n)
        while True:
            x = self._next_u32()
            if x < limit:
                return x % n


def shuffled(items: Sequence[T], key: bytes, label: Sequence[Field]) -> list[T]:
    """Return `items` permuted by the portable Fisher-Yates shuffle for (key, label)."""
    result = list(items)
    stream = HmacStream(key, label)
    for i in range(len(result) - 1, 0, -1):
        j = stream.below(i + 1)
        result[i], result[j] = result[j], result[i]
    return result


def derive_key(seed: bytes, *label: Field) -> bytes:
    """A 32-byte key for one purpose (a round, a test) from a match seed."""
    return hmac.new(seed, enc("uno/v1/derive", *label), hashlib.sha256).digest()


# The three shuffles of a round, each with its own label so that no two share a stream.


def deal_order(key: bytes, deck_size: int) -> list[int]:
    """The round's deck (epoch 0): card ids 0..deck_size-1 shuffled; index 0 is dealt first."""
    return shuffled(range(deck_size), key, ("deck",))


def reshuffle_order(
    key: bytes, epoch: int, sources: Sequence[tuple[int, int]]
) -> list[tuple[int, int]]:
    """A new draw pile (epoch >= 1): the cards' previous positions (epoch, index), sorted
    ascending, then shuffled. Index i of the result is the source of the new pile's card i.

    Shuffling positions rather than card ids lets a pile of face-down cards be reshuffled
    (a first-card Wild Draw Four goes back into the deck) without naming what is in it.
    """
    return shuffled(sorted(sources), key, ("reshuffle", epoch))


def dealer_order(key: bytes, attempt: int, deck_size: int) -> list[int]:
    """The cards drawn face up to choose the dealer; attempt 0, then 1, 2... after ties."""
    return shuffled(range(deck_size), key, ("dealer", attempt))
