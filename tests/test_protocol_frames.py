"""Framing and the encoding profile: what FrameDecoder accepts, refuses, and how much it holds."""

from __future__ import annotations

import itertools

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol.errors import LocalProtocolError, ProtocolError
from protocol.examples import EXAMPLES
from protocol.frames import EOF, NEED_DATA, DecoderState, FrameDecoder, encode_frame
from protocol.limits import MAX_FRAME

PING = encode_frame({"t": "ping", "n": 1})


def frames_of(decoder: FrameDecoder) -> list[object]:
    out: list[object] = []
    while (frame := decoder.next_frame()) is not NEED_DATA:
        out.append(frame)
        if frame is EOF:
            break
    return out


def test_a_frame_is_a_length_prefix_and_a_msgpack_map() -> None:
    assert PING.hex() == "0000000b82a174a470696e67a16e01"


def test_frames_split_anywhere_decode_the_same() -> None:
    stream = b"".join(encode_frame(m) for m in EXAMPLES.values())
    decoder = FrameDecoder()
    got = []
    for byte in stream:
        decoder.receive_data(bytes([byte]))
        got.extend(frames_of(decoder))
    assert got == list(EXAMPLES.values())


def test_many_frames_in_one_chunk_come_out_in_order() -> None:
    decoder = FrameDecoder()
    decoder.receive_data(PING * 3 + PING[:5])
    assert frames_of(decoder) == [{"t": "ping", "n": 1}] * 3
    assert decoder.buffered == 5
    decoder.receive_data(PING[5:])
    assert frames_of(decoder) == [{"t": "ping", "n": 1}]


def test_a_length_over_the_limit_is_refused_before_the_frame_is_buffered() -> None:
    decoder = FrameDecoder()
    decoder.receive_data((MAX_FRAME + 1).to_bytes(4, "big") + b"\x00" * 1000)
    assert decoder.buffered == 0
    with pytest.raises(ProtocolError) as info:
        decoder.next_frame()
    assert info.value.code == "frame_too_large" and info.value.fatal


def test_frames_before_a_bad_prefix_are_still_delivered() -> None:
    decoder = FrameDecoder()
    decoder.receive_data(PING + b"\xff\xff\xff\xff")
    assert decoder.next_frame() == {"t": "ping", "n": 1}
    with pytest.raises(ProtocolError):
        decoder.next_frame()


def test_after_an_error_the_decoder_refuses_everything() -> None:
    decoder = FrameDecoder()
    decoder.receive_data(b"\x00\x00\x00\x01\xc1")
    with pytest.raises(ProtocolError) as first:
        decoder.next_frame()
    assert decoder.state is DecoderState.ERROR
    with pytest.raises(ProtocolError) as again:
        decoder.receive_data(PING)
    assert again.value is first.value
    with pytest.raises(ProtocolError):
        decoder.next_frame()


def test_a_clean_close_between_frames_is_eof() -> None:
    decoder = FrameDecoder()
    decoder.receive_data(PING)
    decoder.receive_data(b"")
    assert frames_of(decoder) == [{"t": "ping", "n": 1}, EOF]
    assert decoder.state is DecoderState.CLOSED


def test_a_close_inside_a_frame_is_bad_frame() -> None:
    decoder = FrameDecoder()
    decoder.receive_data(PING[:7])
    decoder.receive_data(b"")
    with pytest.raises(ProtocolError) as info:
        decoder.next_frame()
    assert info.value.code == "bad_frame"


def test_bin_fields_stay_bytes_and_str_stays_str() -> None:
    frame = encode_frame({"t": "seed_reveal", "round": 1, "seed": bytes(32)})
    decoder = FrameDecoder()
    decoder.receive_data(frame)
    message = decoder.next_frame()
    assert message == {"t": "seed_reveal", "round": 1, "seed": bytes(32)}
    assert frame[4:].count(b"\xc4\x20") == 1  # bin8 of 32 bytes, not str


@pytest.mark.parametrize(
    "message",
    [
        {"t": "ping", "n": 1.5},
        {"t": "ping", "n": 2**63},
        {"t": "ping", "x": [[[[[[[[1]]]]]]]]},
        {"t": "ping", "x": "\udc80"},
        {"t": "hello", "features": ["a"] * 257},
    ],
)
def test_we_never_send_what_we_would_refuse(message: dict[str, object]) -> None:
    with pytest.raises(LocalProtocolError):
        encode_frame(message)


def test_wide_fields_may_hold_a_whole_deck() -> None:
    commits = [bytes(32)] * 840  # four decks of eight colours, with buzzers
    message = {"t": "deck_commits", "round": 1, "epoch": 0, "commits": commits,
               "deck_commit": bytes(32)}
    decoder = FrameDecoder()
    decoder.receive_data(encode_frame(message))
    assert decoder.next_frame() == message


def test_wide_arrays_only_under_the_wide_fields_of_that_message() -> None:
    payload = msgpack.packb({"t": "seed_commits", "round": 1, "commits": [[0, bytes(32)]] * 300})
    decoder = FrameDecoder()
    decoder.receive_data(len(payload).to_bytes(4, "big") + payload)
    with pytest.raises(ProtocolError) as info:
        decoder.next_frame()
    assert info.value.code == "bad_frame"


def test_a_frame_over_the_limit_cannot_be_sent() -> None:
    with pytest.raises(LocalProtocolError) as info:
        encode_frame({"t": "chat", "text": "a" * 4000}, max_frame=1000)
    assert info.value.code == "frame_too_large"


# -- fuzzing: nothing but ProtocolError, and bounded memory ------------------------------------


def feed_all(decoder: FrameDecoder, chunks: list[bytes]) -> None:
    for chunk in chunks:
        try:
            decoder.receive_data(chunk)
            assert decoder.buffered <= decoder.max_frame + 4
            while decoder.next_frame() not in (NEED_DATA, EOF):
                pass
        except ProtocolError:
            assert decoder.state is DecoderState.ERROR or decoder.buffered == 0
            return


@settings(max_examples=300, deadline=None)
@given(st.lists(st.binary(max_size=300), max_size=20))
def test_random_bytes_raise_only_protocol_errors(chunks: list[bytes]) -> None:
    feed_all(FrameDecoder(), chunks)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.binary(min_size=1, max_size=64), max_size=30), st.integers(8, 512))
def test_random_bytes_with_a_small_limit_stay_bounded(chunks: list[bytes], limit: int) -> None:
    feed_all(FrameDecoder(max_frame=limit), chunks)


@st.composite
def mutated_stream(draw: st.DrawFn) -> list[bytes]:
    names = draw(st.lists(st.sampled_from(sorted(EXAMPLES)), min_size=1, max_size=4))
    stream = bytearray(b"".join(encode_frame(EXAMPLES[name]) for name in names))
    for _ in range(draw(st.integers(1, 8))):
        kind = draw(st.sampled_from(["flip", "insert", "delete", "replace"]))
        at = draw(st.integers(0, len(stream)))
        if kind == "flip" and at < len(stream):
            stream[at] ^= 1 << draw(st.integers(0, 7))
        elif kind == "insert":
            stream[at:at] = draw(st.binary(min_size=1, max_size=8))
        elif kind == "delete":
            del stream[at : at + draw(st.integers(1, 8))]
        elif at < len(stream):
            stream[at] = draw(st.integers(0, 255))
    cut = draw(st.lists(st.integers(0, len(stream)), max_size=6))
    points = sorted({0, len(stream), *cut})
    return [bytes(stream[a:b]) for a, b in itertools.pairwise(points) if b > a]


@settings(max_examples=400, deadline=None)
@given(mutated_stream())
def test_mutated_valid_frames_raise_only_protocol_errors(chunks: list[bytes]) -> None:
    feed_all(FrameDecoder(), [*chunks, b""])
