"""Every test vector in protocol/vectors/ (frames and malformed input) holds for this code."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

from protocol.errors import ProtocolError
from protocol.examples import ACTION_EXAMPLES, EVENT_EXAMPLES
from protocol.frames import NEED_DATA, FrameDecoder, encode_frame
from protocol.game_codec import (
    ACTION_TYPES,
    EVENT_TYPES,
    PROOF_FIELDS,
    UnknownEvent,
    decode_action,
    decode_event,
    decode_legal,
    decode_view,
    encode_event,
)
from protocol.messages import Role, validate_message
from unonet.actions import Accept, Play
from unonet.phase import Phase

VECTORS = Path(__file__).resolve().parent.parent / "protocol" / "vectors"


def _load_generator() -> Any:
    spec = importlib.util.spec_from_file_location("generate_frames", VECTORS / "generate_frames.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GENERATOR = _load_generator()


def load(name: str) -> list[dict[str, Any]]:
    vectors: list[dict[str, Any]] = json.loads((VECTORS / name).read_text("utf-8"))["vectors"]
    return vectors


FRAMES = load("frames.json")
MALFORMED = load("malformed.json")


def test_the_committed_vectors_are_what_the_generator_writes() -> None:
    assert json.loads(json.dumps(GENERATOR.valid_frames())) == FRAMES
    assert json.loads(json.dumps(GENERATOR.malformed_frames())) == MALFORMED


@pytest.mark.parametrize("vector", FRAMES, ids=[v["name"] for v in FRAMES])
def test_valid_frame_decodes_to_its_message(vector: dict[str, Any]) -> None:
    decoder = FrameDecoder()
    decoder.receive_data(bytes.fromhex(vector["hex"]))
    message = GENERATOR.from_json(vector["message"])
    assert decoder.next_frame() == message
    assert decoder.next_frame() is NEED_DATA
    assert encode_frame(message).hex() == vector["hex"]


@pytest.mark.parametrize("vector", MALFORMED, ids=[v["name"] for v in MALFORMED])
def test_malformed_input_is_refused_with_its_code(vector: dict[str, Any]) -> None:
    decoder = FrameDecoder()
    decoder.receive_data(bytes.fromhex(vector["hex"]))
    with pytest.raises(ProtocolError) as info:
        if vector["stage"] == "eof":
            assert decoder.next_frame() is NEED_DATA
            decoder.receive_data(b"")
            decoder.next_frame()
        elif vector["stage"] == "frame":
            decoder.next_frame()
        else:
            message = decoder.next_frame()
            assert isinstance(message, dict)
            validate_message(message, Role(vector["sender"]))
    assert info.value.code == vector["code"]
    assert info.value.fatal == vector["fatal"]


def test_the_malformed_vectors_cover_what_spec_names() -> None:
    names = {v["name"] for v in MALFORMED}
    for required in ("length_over_max", "array32_of_4294967295", "duplicate_keys",
                     "trailing_bytes", "ext_fixext1", "invalid_utf8", "float64", "depth_9",
                     "int_key", "missing_t", "unknown_type", "play_also_over_63",
                     "choose_target_without_target"):
        assert required in names


def test_there_is_a_vector_for_every_action_and_event_type() -> None:
    names = {v["name"] for v in FRAMES}
    assert {f"intent_{name}" for name in ACTION_TYPES} <= names
    assert {f"event_{name}" for name in EVENT_TYPES} <= names


def _vector(name: str) -> dict[str, Any]:
    return next(v for v in FRAMES if v["name"] == name)


def _decoded(vector: dict[str, Any], sender: Role) -> dict[str, Any]:
    decoder = FrameDecoder()
    decoder.receive_data(bytes.fromhex(vector["hex"]))
    message = decoder.next_frame()
    assert isinstance(message, dict)
    validate_message(message, sender)
    return message


@pytest.mark.parametrize("name", sorted(ACTION_TYPES))
def test_each_intent_vector_is_the_action_it_names(name: str) -> None:
    message = _decoded(_vector(f"intent_{name}"), Role.CLIENT)
    assert decode_action(message["action"]) == ACTION_EXAMPLES[name]


@pytest.mark.parametrize("name", sorted(EVENT_TYPES))
def test_each_event_vector_is_the_event_it_names_with_its_proof(name: str) -> None:
    message = _decoded(_vector(f"event_{name}"), Role.HOST)
    wire = decode_event(message["event"])
    assert not isinstance(wire.event, UnknownEvent)
    assert encode_event(wire.event, wire.proof) == EVENT_EXAMPLES[name]
    assert set(wire.proof) == set(PROOF_FIELDS.get(name, {}))  # every proof field it may carry


def test_the_snapshot_vector_is_a_whole_view() -> None:
    message = _decoded(_vector("snapshot"), Role.HOST)
    view = decode_view(message["view"])
    assert view.phase is Phase.STACK and view.pending is not None and view.pending.amount == 4
    assert decode_legal(message["legal"]) == (Play(49), Accept())
