"""Write frames.json and malformed.json, the wire test vectors of SPEC.md section 16.

    .venv/bin/python protocol/vectors/generate_frames.py      # from the repository root

frames.json: valid frames. Each entry has `name`, `hex` (the whole frame, length prefix
included) and `message` (the decoded map; a msgpack bin is written {"$bin": "<hex>"} since
JSON has no bytes). Besides one frame per message type, `intent_<action>` holds one intent per
seat action type and `event_<event>` one event message per engine event type (SPEC.md 9.2,
9.3), so a client in another language can check its reading of each one byte for byte. A
conforming decoder turns `hex` into `message`; a conforming encoder that writes the shortest
msgpack forms and the keys in the listed order produces `hex` exactly.

malformed.json: byte streams a receiver must refuse. Each entry has `name`, `hex`, `code` (the
error code), `fatal`, and `stage`: "frame" (the frame decoder refuses it), "eof" (refused when
the stream ends after these bytes) or "message" (the frame decodes; the catalogue check of a
message from `sender` refuses it). The tests in tests/test_protocol_vectors.py check every
entry against the code, so the files cannot drift from the implementation.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgpack

from protocol.errors import is_fatal
from protocol.examples import ACTION_EXAMPLES, EVENT_EXAMPLES, EXAMPLES, SHUTTING_DOWN_EXAMPLE
from protocol.frames import encode_frame
from protocol.game_codec import encode_action
from protocol.limits import MAX_PLAY_ALSO

HERE = Path(__file__).parent


def to_json(value: Any) -> Any:
    """msgpack-decoded data as JSON: bin becomes {"$bin": hex}."""
    if isinstance(value, bytes):
        return {"$bin": value.hex()}
    if isinstance(value, dict):
        return {key: to_json(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [to_json(item) for item in value]
    return value


def from_json(value: Any) -> Any:
    """The inverse of to_json."""
    if isinstance(value, dict):
        if set(value) == {"$bin"}:
            return bytes.fromhex(value["$bin"])
        return {key: from_json(item) for key, item in value.items()}
    if isinstance(value, list):
        return [from_json(item) for item in value]
    return value


def _frame(payload: bytes) -> str:
    return (len(payload).to_bytes(4, "big") + payload).hex()


def _packed(value: Any) -> bytes:
    return msgpack.packb(value, use_bin_type=True)  # type: ignore[no-any-return]


def _nested(depth: int) -> Any:
    """A ping whose extra key holds arrays nested so the frame's total depth is `depth`."""
    inner: Any = []
    for _ in range(depth - 2):
        inner = [inner]
    return {"t": "ping", "n": 1, "x": inner}


DEEP_PREFIX = bytes.fromhex("82a174a470696e67a178")  # {"t": "ping", "x": ...
PING = _packed({"t": "ping", "n": 1})  # 82 a1 74 a4 70696e67 a1 6e 01


def valid_frames() -> list[dict[str, Any]]:
    out = []
    for name, message in EXAMPLES.items():
        if name == "manifest":
            continue  # 4 KiB of faces; section 10 of SPEC.md describes it instead
        out.append({"name": name, "hex": encode_frame(message).hex(), "message": to_json(message)})
    for index, (name, action) in enumerate(ACTION_EXAMPLES.items(), start=100):
        intent = {"t": "intent", "id": index, "action": encode_action(action)}
        out.append({"name": f"intent_{name}", "hex": encode_frame(intent).hex(),
                    "message": to_json(intent)})
    for seq, (name, event) in enumerate(EVENT_EXAMPLES.items(), start=10):
        message = {"t": "event", "seq": seq, "event": event, "legal": []}
        out.append({"name": f"event_{name}", "hex": encode_frame(message).hex(),
                    "message": to_json(message)})
    out.append({"name": "error_shutting_down_kept",
                "hex": encode_frame(SHUTTING_DOWN_EXAMPLE).hex(),
                "message": to_json(SHUTTING_DOWN_EXAMPLE)})
    deepest = _nested(8)
    out.append({"name": "depth_8_is_allowed", "hex": _frame(_packed(deepest)),
                "message": to_json(deepest)})
    unknown_key = {"t": "ping", "n": 2, "future_field": "ignored"}
    out.append({"name": "unknown_key_is_ignored", "hex": _frame(_packed(unknown_key)),
                "message": to_json(unknown_key)})
    return out


def malformed_frames() -> list[dict[str, Any]]:
    def entry(name: str, hex_: str, code: str, stage: str = "frame", **more: Any) -> dict[str, Any]:
        return {"name": name, "hex": hex_, "code": code, "fatal": is_fatal(code), "stage": stage,
                **more}

    str_4097 = _packed({"t": "chat", "text": "a" * 4097})
    array_257 = _packed({"t": "hello", "features": ["a"] * 257})
    map_65 = _packed({"t": "ping", **{f"k{i}": i for i in range(64)}})
    return [
        entry("length_over_max", "00010001", "frame_too_large"),
        entry("length_u32_max", "ffffffff", "frame_too_large"),
        entry("empty_frame", "00000000", "bad_frame"),
        entry("array32_of_4294967295", _frame(bytes.fromhex("ddffffffff")), "bad_frame"),
        entry("map32_of_4294967295", _frame(bytes.fromhex("dfffffffff")), "bad_frame"),
        entry("duplicate_keys", _frame(bytes.fromhex("82a174a470696e67a174a4706f6e67")),
              "duplicate_key"),
        entry("trailing_bytes", _frame(PING + b"\xc0"), "bad_frame"),
        entry("two_values_in_one_frame", _frame(PING + PING), "bad_frame"),
        entry("ext_fixext1", _frame(bytes.fromhex("83a174a470696e67a16e01a178d40100")),
              "bad_frame"),
        entry("ext_timestamp", _frame(bytes.fromhex("83a174a470696e67a16e01a178d6ff00000000")),
              "bad_frame"),
        entry("invalid_utf8", _frame(bytes.fromhex("81a174a2fffe")), "bad_frame"),
        entry("float64", _frame(bytes.fromhex("82a174a470696e67a16ecb3ff0000000000000")),
              "bad_frame"),
        entry("float32", _frame(bytes.fromhex("82a174a470696e67a16eca3f800000")), "bad_frame"),
        entry("depth_9", _frame(_packed(_nested(9))), "bad_frame"),
        entry("depth_2000", _frame(DEEP_PREFIX + b"\x91" * 2000 + b"\x90"), "bad_frame"),
        entry("int_key", _frame(bytes.fromhex("82a174a470696e670102")), "bad_frame"),
        entry("bin_key", _frame(bytes.fromhex("82a174a470696e67c4016e01")), "bad_frame"),
        entry("top_level_array", _frame(bytes.fromhex("91a470696e67")), "bad_frame"),
        entry("uint64_over_int64", _frame(bytes.fromhex("82a174a470696e67a16ecfffffffffffffffff")),
              "bad_frame"),
        entry("reserved_byte_c1", _frame(bytes.fromhex("c1")), "bad_frame"),
        entry("truncated_map", _frame(bytes.fromhex("82a174")), "bad_frame"),
        entry("str_over_4096_bytes", _frame(str_4097), "bad_frame"),
        entry("array_over_256", _frame(array_257), "bad_frame"),
        entry("map_over_64", _frame(map_65), "bad_frame"),
        entry("closed_inside_frame", "0000000582a1", "bad_frame", "eof"),
        entry("missing_t", _frame(_packed({"n": 1})), "bad_message", "message", sender="client"),
        entry("t_not_str", _frame(_packed({"t": 1})), "bad_message", "message", sender="client"),
        entry("unknown_type", _frame(_packed({"t": "teleport"})), "unknown_message", "message",
              sender="client"),
        entry("wrong_field_type", _frame(_packed({"t": "ping", "n": "one"})), "bad_message",
              "message", sender="client"),
        entry("missing_field", _frame(_packed({"t": "intent", "id": 1})), "bad_message",
              "message", sender="client"),
        entry("unknown_action", _frame(_packed({"t": "intent", "id": 1,
                                                "action": {"type": "teleport"}})),
              "bad_message", "message", sender="client"),
        entry("host_only_action", _frame(_packed({"t": "intent", "id": 1,
                                                  "action": {"type": "start_round"}})),
              "bad_message", "message", sender="client"),
        entry("bin31_for_bin32", _frame(_packed({"t": "seed_commit", "round": 1,
                                                 "commit": bytes(31)})),
              "bad_message", "message", sender="client"),
        entry("chat_over_512_chars", _frame(_packed({"t": "chat", "text": "é" * 513})),
              "bad_message", "message", sender="client"),
        entry("host_message_from_client", _frame(_packed({"t": "accepted", "id": 1})),
              "unexpected_message", "message", sender="client"),
        entry("play_also_over_63", _frame(_packed({"t": "intent", "id": 1, "action": {
            "type": "play", "card": 0, "also": list(range(1, MAX_PLAY_ALSO + 2))}})),
              "bad_message", "message", sender="client"),
        entry("choose_target_without_target", _frame(_packed({
            "t": "intent", "id": 1, "action": {"type": "choose_target"}})),
              "bad_message", "message", sender="client"),
    ]


def main() -> None:
    for name, entries in (("frames.json", valid_frames()), ("malformed.json", malformed_frames())):
        text = json.dumps({"vectors": entries}, indent=1, ensure_ascii=False) + "\n"
        (HERE / name).write_text(text, encoding="utf-8")
        print(f"wrote {len(entries)} vectors to {HERE / name}")


if __name__ == "__main__":
    main()
