"""Every test vector in protocol/vectors/ (frames and malformed input) holds for this code."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

from protocol.errors import ProtocolError
from protocol.frames import NEED_DATA, FrameDecoder, encode_frame
from protocol.messages import Role, validate_message

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
                     "int_key", "missing_t", "unknown_type"):
        assert required in names
