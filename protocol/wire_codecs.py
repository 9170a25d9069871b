"""Converters between engine values and wire data, one per wire type, each naming itself in the
notation of SPEC.md section 9 (`int`, `color \\| nil`, `[[int, int]]`).

They are combined by hand in game_codec's catalogue rather than read off the engine's type
hints: the wire form is a contract of its own (SPEC.md), which a change of a hint must not
move unseen. Decoding validates
and raises nothing but ProtocolError(bad_message).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from protocol.limits import INT_MAX, INT_MIN, MAX_CODE_CHARS, MAX_WIDE_ARRAY_LEN
from protocol.schema import bad

Decoder = Callable[[Any, str], Any]
"""(wire value, path for errors) -> engine value."""


_WIRE_NAMES: dict[type, str] = {}


def wire_name(cls: type) -> str:
    """`CardsDrawn` -> `cards_drawn`: the `type` of a class on the wire."""
    name = _WIRE_NAMES.get(cls)
    if name is None:  # once per class: this runs for every event sent
        name = _WIRE_NAMES[cls] = re.sub(r"(?<!^)(?=[A-Z])", "_", cls.__name__).lower()
    return name


@dataclass(frozen=True)
class Codec:
    """One wire type: its SPEC.md notation and the two conversions."""

    describe: str
    encode: Callable[[Any], Any]
    decode: Decoder


def _identity(value: Any) -> Any:
    return value


def _decode_int(value: Any, path: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not INT_MIN <= value <= INT_MAX:
        raise bad(path, "int", value)
    return value


def _decode_bool(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        raise bad(path, "bool", value)
    return value


def _decode_str(value: Any, path: str) -> str:
    if not isinstance(value, str) or len(value) > MAX_CODE_CHARS:
        raise bad(path, f"str(≤{MAX_CODE_CHARS})", value)
    return value


def _decode_bytes(value: Any, path: str) -> bytes:
    if not isinstance(value, bytes):
        raise bad(path, "bin", value)
    return value


def _decode_bin32(value: Any, path: str) -> bytes:
    if not isinstance(value, bytes) or len(value) != 32:
        raise bad(path, "bin32", value)
    return value


INT = Codec("int", _identity, _decode_int)
BOOL = Codec("bool", _identity, _decode_bool)
STR = Codec("str", _identity, _decode_str)
BIN = Codec("bin", _identity, _decode_bytes)
BIN32 = Codec("bin32", _identity, _decode_bin32)


def enum_codec(enum: type[Enum]) -> Codec:
    """An enum as its string value, named after the enum (`Color` -> `color`)."""
    by_value = {member.value: member for member in enum}
    label = wire_name(enum)

    def decode(value: Any, path: str) -> Enum:
        member = by_value.get(value) if isinstance(value, str) else None
        if member is None:
            raise bad(path, label, value)
        return member

    def encode(member: Any) -> Any:
        return enum(member).value  # a member, or its value (a StrEnum compares equal to it)

    return Codec(label, encode, decode)


def nullable(inner: Codec) -> Codec:
    """`inner` or nil (an `X | None` field)."""

    def encode(value: Any) -> Any:
        return None if value is None else inner.encode(value)

    def decode(value: Any, path: str) -> Any:
        return None if value is None else inner.decode(value, path)

    return Codec(f"{inner.describe} \\| nil", encode, decode)


def array(item: Codec, limit: int | None = None) -> Codec:
    """An array of `item` (a `tuple[X, ...]` field), decoded to a tuple: at most `limit` items
    (written `[X] ≤n items`), else a wide array's MAX_WIDE_ARRAY_LEN (written `[X]`)."""
    most = MAX_WIDE_ARRAY_LEN if limit is None else limit
    label = f"[{item.describe}]" if limit is None else f"[{item.describe}] ≤{limit} items"

    def encode(value: Any) -> list[Any]:
        return [item.encode(v) for v in value]

    def decode(value: Any, path: str) -> tuple[Any, ...]:
        if not isinstance(value, list | tuple) or len(value) > most:
            raise bad(path, label, value)
        return tuple(item.decode(v, f"{path}[{i}]") for i, v in enumerate(value))

    return Codec(label, encode, decode)


def fixed(*items: Codec) -> Codec:
    """An array of exactly these items (a `tuple[X, Y]` field, such as a position)."""
    label = "[" + ", ".join(i.describe for i in items) + "]"

    def encode(value: Any) -> list[Any]:
        return [codec.encode(v) for codec, v in zip(items, value, strict=True)]

    def decode(value: Any, path: str) -> tuple[Any, ...]:
        if not isinstance(value, list | tuple) or len(value) != len(items):
            raise bad(path, label, value)
        pairs = enumerate(zip(items, value, strict=True))
        return tuple(codec.decode(v, f"{path}[{i}]") for i, (codec, v) in pairs)

    return Codec(label, encode, decode)
