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

import hmac
import struct
from collections.abc import Sequence
from typing import TypeVar

from unonet.encoding import Field, enc_fields

T = TypeVar("T")

PRNG_TAG = "uno/v1/prng"
_SPACE = 2**32


class HmacStream:
    """Unbiased integers from an HMAC-SHA256 counter-mode byte stream."""

    __slots__ = ("_counter", "_keyed", "_prefix", "_words")

    def __init__(self, key: bytes, label: Sequence[Field]) -> None:
        # Keyed once and copied for each block: a third less than hmac.digest a block, and a
        # deal takes 14 blocks (timeit, CPython 3.11 and OpenSSL 3, on this machine).
        self._keyed = hmac.new(key, digestmod="sha256")
        # enc(PRNG_TAG, *label, ctr) is this prefix followed by the counter's 8 bytes.
        self._prefix = enc_fields((PRNG_TAG, *label, 0))[: -_U64.size]
        self._counter = 0
        self._words: list[int] = []  # the current block's unread u32 words, next one last

    def _blocks(self, count: int) -> list[int]:
        """The next `count` HMAC blocks of the stream, as their big-endian u32 words."""
        keyed, prefix, pack = self._keyed, self._prefix, _U64.pack
        raw = []
        for counter in range(self._counter, self._counter + count):
            mac = keyed.copy()
            mac.update(prefix + pack(counter))
            raw.append(mac.digest())
        self._counter += count
        return list(struct.unpack(f">{8 * count}I", b"".join(raw)))

    def next_u32(self) -> int:
        """The next 4 bytes of the stream as a big-endian unsigned integer."""
        if not self._words:
            self._words = self._blocks(1)[::-1]
        return self._words.pop()

    def take(self, count: int) -> list[int]:
        """The next `count` words of the stream, in order (as `count` calls of next_u32)."""
        words = self._words[::-1][:count]
        del self._words[len(self._words) - len(words) :]
        need = count - len(words)
        if need > 0:
            fresh = self._blocks(-(-need // 8))  # whole blocks; the rest is read next
            words += fresh[:need]
            self._words = fresh[need:][::-1]
        return words

    def below(self, n: int) -> int:
        """A uniform integer in [0, n): reject x >= 2**32 - (2**32 mod n), then x mod n."""
        if not 0 < n <= _SPACE:
            raise ValueError(f"below() needs 0 < n <= 2**32, got {n}")
        limit = _SPACE - (_SPACE % n)
        while True:
            x = self.next_u32()
            if x < limit:
                return x % n


_U64 = struct.Struct(">Q")


def shuffled(items: Sequence[T], key: bytes, label: Sequence[Field]) -> list[T]:
    """Return `items` permuted by the portable Fisher-Yates shuffle for (key, label)."""
    return permute(items, HmacStream(key, label))


def permute(items: Sequence[T], stream: HmacStream) -> list[T]:
    """Fisher-Yates driven by `stream`: for i from the last index down to 1, swap item i with
    item `stream.below(i + 1)`.

    The words are read ahead, one per swap, in one `take` (a rejected word, about one time in
    ten million for a deck, reads one more): the same results as calling `below` each time.
    """
    result = list(items)
    words = stream.take(max(len(result) - 1, 0))
    read = 0
    for i in range(len(result) - 1, 0, -1):
        n = i + 1
        limit = _SPACE - _SPACE % n
        while True:
            if read == len(words):  # only after a rejection
                words.append(stream.next_u32())
            x = words[read]
            read += 1
            if x < limit:
                break
        j = x % n
        result[i], result[j] = result[j], result[i]
    return result


def derive_key(seed: bytes, *label: Field) -> bytes:
    """A 32-byte key for one purpose (a round, a test) from a match seed."""
    return hmac.digest(seed, enc_fields(("uno/v1/derive", *label)), "sha256")


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
