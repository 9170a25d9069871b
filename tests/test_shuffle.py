"""The portable shuffle's fast path equals its definition (SPEC.md, Trust: the deck order).

`permute` reads the stream ahead in one `take`; the definition calls `below(i + 1)` once per
swap. Both must agree on every input, including the rare rejected word, which a scripted stream
forces here since HMAC output almost never produces one.
"""

from __future__ import annotations

import hmac
from collections.abc import Sequence

from hypothesis import given
from hypothesis import strategies as st

from unonet.encoding import enc
from unonet.shuffle import PRNG_TAG, HmacStream, derive_key, permute, shuffled


def by_definition(items: Sequence[int], stream: HmacStream) -> list[int]:
    result = list(items)
    for i in range(len(result) - 1, 0, -1):
        j = stream.below(i + 1)
        result[i], result[j] = result[j], result[i]
    return result


class ScriptedStream(HmacStream):
    """An HmacStream whose blocks are given words (then the real HMAC blocks)."""

    __slots__ = ("_script",)

    def __init__(self, words: Sequence[int]) -> None:
        super().__init__(b"k" * 32, ("test",))
        padded = list(words) + [0] * (-len(words) % 8)
        self._script = [tuple(padded[k : k + 8]) for k in range(0, len(padded), 8)]

    def _blocks(self, count: int) -> list[int]:
        words: list[int] = []
        while count and self._script:
            words += self._script.pop(0)
            count -= 1
        return words + (super()._blocks(count) if count else [])


@given(st.binary(min_size=32, max_size=32), st.integers(0, 2**16), st.integers(0, 130))
def test_the_fast_shuffle_is_the_defined_one(key: bytes, epoch: int, size: int) -> None:
    label = ("reshuffle", epoch)
    expected = by_definition(range(size), HmacStream(key, label))
    assert shuffled(range(size), key, label) == expected


@given(st.lists(st.integers(0, 2**32 - 1), max_size=60), st.integers(0, 40))
def test_rejected_words_are_skipped_exactly_as_defined(words: list[int], size: int) -> None:
    # Words at the top of the range are rejected for most sizes: mix them in on purpose.
    scripted = [w if k % 3 else 2**32 - 1 - (w % 7) for k, w in enumerate(words)]
    assert permute(range(size), ScriptedStream(scripted)) == by_definition(
        range(size), ScriptedStream(scripted)
    )


def test_a_rejection_really_happens_in_the_scripted_stream() -> None:
    # 2**32 - 1 is rejected for n = 3 (limit 2**32 - 1); the next word, 5, gives 5 % 3 = 2.
    stream = ScriptedStream([2**32 - 1, 5])
    assert stream.below(3) == 2


@given(st.binary(min_size=32, max_size=32), st.lists(st.integers(0, 20), max_size=6))
def test_take_reads_what_next_u32_reads(key: bytes, counts: list[int]) -> None:
    fast, slow = HmacStream(key, ("t",)), HmacStream(key, ("t",))
    for count in counts:
        assert fast.take(count) == [slow.next_u32() for _ in range(count)]
    assert fast.next_u32() == slow.next_u32()


@given(st.binary(max_size=100), st.lists(st.text(max_size=8), max_size=3), st.integers(1, 40))
def test_the_stream_is_hmac_sha256_in_counter_mode(
    key: bytes, label: list[str], count: int
) -> None:
    """The stream's HMAC is the standard one, for keys
    shorter than, equal to and longer than SHA-256's 64-byte block."""
    stream = HmacStream(key, label)
    expected = b"".join(
        hmac.digest(key, enc(PRNG_TAG, *label, counter), "sha256") for counter in range(5)
    )
    words = [int.from_bytes(expected[k : k + 4], "big") for k in range(0, len(expected), 4)]
    assert stream.take(count) == words[:count]


def test_derive_key_is_hmac_of_the_encoded_label() -> None:
    seed = bytes(range(16))
    expected = hmac.digest(seed, enc("uno/v1/derive", "round", 3), "sha256")
    assert derive_key(seed, "round", 3) == expected
