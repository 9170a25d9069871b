"""Engine values on the wire: actions, events, legal action lists and views (SPEC.md section 9).

Nothing here is written per class. The wire form of an action or event is derived from its
dataclass: `type` is the class name in snake_case, every field keeps its name, tuples become
arrays, a Position (epoch, index) a two-item array, a Color its string value. A new event in
unonet/events.py therefore needs no code here, only its line in SPEC.md (a test compares).

Decoding validates everything and raises nothing but ProtocolError(bad_message): an intent is
the one place where a peer's data becomes an engine value.
"""

from __future__ import annotations

import dataclasses
import re
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from protocol.errors import Code, LocalProtocolError, ProtocolError
from protocol.limits import INT_MAX, INT_MIN, MAX_CODE_CHARS, MAX_WIDE_ARRAY_LEN
from protocol.schema import bad
from unonet import events
from unonet.actions import HOST_ACTIONS, SEAT_ACTIONS, Action
from unonet.events import Event

Decoder = Callable[[Any, str], Any]


_WIRE_NAMES: dict[type, str] = {}


def wire_name(cls: type) -> str:
    """`CardsDrawn` -> `cards_drawn`: the `type` of a class on the wire."""
    name = _WIRE_NAMES.get(cls)
    if name is None:  # once per class: this runs for every event sent
        name = _WIRE_NAMES[cls] = re.sub(r"(?<!^)(?=[A-Z])", "_", cls.__name__).lower()
    return name


# -- per-type converters, derived from type hints --------------------------------------------


@dataclass(frozen=True)
class _Codec:
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


_SCALARS: dict[Any, _Codec] = {
    int: _Codec("int", _identity, _decode_int),
    bool: _Codec("bool", _identity, _decode_bool),
    str: _Codec("str", _identity, _decode_str),
    bytes: _Codec("bin", _identity, _decode_bytes),
}


def _enum_codec(enum: type[Enum]) -> _Codec:
    by_value = {member.value: member for member in enum}
    label = wire_name(enum)

    def decode(value: Any, path: str) -> Enum:
        member = by_value.get(value) if isinstance(value, str) else None
        if member is None:
            raise bad(path, label, value)
        return member

    return _Codec(label, lambda member: member.value, decode)


def _nullable_codec(inner: _Codec) -> _Codec:
    def encode(value: Any) -> Any:
        return None if value is None else inner.encode(value)

    def decode(value: Any, path: str) -> Any:
        return None if value is None else inner.decode(value, path)

    return _Codec(f"{inner.describe} \\| nil", encode, decode)


def _array_codec(item: _Codec) -> _Codec:
    def encode(value: Any) -> list[Any]:
        return [item.encode(v) for v in value]

    def decode(value: Any, path: str) -> tuple[Any, ...]:
        if not isinstance(value, list | tuple) or len(value) > MAX_WIDE_ARRAY_LEN:
            raise bad(path, f"[{item.describe}]", value)
        return tuple(item.decode(v, f"{path}[{i}]") for i, v in enumerate(value))

    return _Codec(f"[{item.describe}]", encode, decode)


def _tuple_codec(items: tuple[_Codec, ...]) -> _Codec:
    label = "[" + ", ".join(i.describe for i in items) + "]"

    def encode(value: Any) -> list[Any]:
        return [codec.encode(v) for codec, v in zip(items, value, strict=True)]

    def decode(value: Any, path: str) -> tuple[Any, ...]:
        if not isinstance(value, list | tuple) or len(value) != len(items):
            raise bad(path, label, value)
        pairs = enumerate(zip(items, value, strict=True))
        return tuple(codec.decode(v, f"{path}[{i}]") for i, (codec, v) in pairs)

    return _Codec(label, encode, decode)


def _codec_for(hint: Any) -> _Codec:
    """The converter for one resolved type hint; an unsupported hint fails at import time."""
    if hint in _SCALARS:
        return _SCALARS[hint]
    if isinstance(hint, type) and issubclass(hint, Enum):
        return _enum_codec(hint)
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (types.UnionType, typing.Union) and type(None) in args:
        rest = [a for a in args if a is not type(None)]
        if len(rest) == 1:
            return _nullable_codec(_codec_for(rest[0]))
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return _array_codec(_codec_for(args[0]))
    if origin is tuple and args and Ellipsis not in args:
        return _tuple_codec(tuple(_codec_for(a) for a in args))
    raise TypeError(f"no wire form for type {hint!r}")


# -- the catalogue of engine classes -----------------------------------------------------------


@dataclass(frozen=True)
class WireField:
    name: str
    codec: _Codec
    required: bool  # False when the dataclass gives a default

    @property
    def describe(self) -> str:
        return self.codec.describe


@dataclass(frozen=True)
class WireType:
    """One action or event class and the wire form of its fields."""

    name: str
    cls: type
    fields: tuple[WireField, ...]


def _wire_type(cls: type) -> WireType:
    hints = typing.get_type_hints(cls)
    fields = []
    for f in dataclasses.fields(cls):
        has_default = (
            f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING
        )
        fields.append(WireField(f.name, _codec_for(hints[f.name]), not has_default))
    return WireType(wire_name(cls), cls, tuple(fields))


def _event_classes() -> list[type]:
    """Every Event subclass defined in unonet.events, in the order of the module."""
    return [
        value
        for value in vars(events).values()
        if isinstance(value, type)
        and issubclass(value, Event)
        and value is not Event
        and value.__module__ == events.__name__
    ]


ACTION_TYPES: dict[str, WireType] = {wire_name(c): _wire_type(c) for c in SEAT_ACTIONS}
"""Actions a client may send in an intent (and find in legal lists), by wire name."""

HOST_ONLY_ACTIONS: frozenset[str] = frozenset(wire_name(c) for c in HOST_ACTIONS)
"""Engine actions that only the host takes; never encodable, refused in intents."""

EVENT_TYPES: dict[str, WireType] = {wire_name(c): _wire_type(c) for c in _event_classes()}
"""Every engine event, by wire name."""

def _decode_bin32(value: Any, path: str) -> bytes:
    if not isinstance(value, bytes) or len(value) != 32:
        raise bad(path, "bin32", value)
    return value


_BIN32 = _Codec("bin32", _identity, _decode_bin32)

_NONCES = _array_codec(_BIN32)
_POSITIONS = _array_codec(_tuple_codec((_SCALARS[int], _SCALARS[int])))

PROOF_FIELDS: dict[str, dict[str, _Codec]] = {
    "cards_received": {"nonces": _NONCES},
    "card_played": {"nonce": _BIN32, "hand_digest": _BIN32},
    "top_card_turned": {"nonce": _BIN32},
    "challenge_reveal": {"nonces": _NONCES},
    "cards_returned": {"nonces": _NONCES, "positions": _POSITIONS},
}
"""Optional fields the host adds to some events so the trust layer can check card commitments:
the nonce of each position, in the order of the event's positions; the hand digest at a
challengeable card; the positions of returned cards (SPEC.md section 9.2, checked in 11)."""


# -- actions -----------------------------------------------------------------------------------


def encode_action(action: Action) -> dict[str, Any]:
    """`Play(12, Color.RED)` -> {"type": "play", "card": 12, "color": "red", ...}."""
    spec = ACTION_TYPES.get(wire_name(type(action)))
    if spec is None or not isinstance(action, spec.cls):
        raise LocalProtocolError(
            Code.BAD_MESSAGE, f"{type(action).__name__} is not an action a seat can send"
        )
    return _encode_fields(spec, action)


def decode_action(data: Any, path: str = "action") -> Action:
    """The engine action for a client's `action` map.

    Raises ProtocolError(bad_message) for anything but a valid seat action: a missing or
    unknown `type`, a host-only action, a missing required field or a wrong type.
    """
    if not isinstance(data, Mapping):
        raise bad(path, "action map", data)
    name = data.get("type")
    spec = ACTION_TYPES.get(name) if isinstance(name, str) else None
    if spec is None:
        raise ProtocolError(Code.BAD_MESSAGE, f"{path}.type: unknown action {name!r}")
    return _decode_fields(spec, data, path)  # type: ignore[no-any-return]


def check_action(data: Any, path: str) -> None:
    """Schema hook for the catalogue: validate an action map."""
    decode_action(data, path)


def encode_legal(legal: typing.Iterable[Action]) -> list[dict[str, Any]]:
    return [encode_action(action) for action in legal]


def decode_legal(data: Any, path: str = "legal") -> tuple[Action, ...]:
    """A legal action list; action types this client does not know (a newer host) are skipped,
    since a client can only ever send what it understands."""
    if not isinstance(data, list | tuple):
        raise bad(path, "array of actions", data)
    out = []
    for index, item in enumerate(data):
        where = f"{path}[{index}]"
        if isinstance(item, Mapping):
            name = item.get("type")
            if not isinstance(name, str):
                raise bad(f"{where}.type", "str", name)
            if name not in ACTION_TYPES:
                continue
        out.append(decode_action(item, where))
    return tuple(out)


def check_legal(data: Any, path: str) -> None:
    decode_legal(data, path)


# -- events ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class UnknownEvent:
    """An event type this side does not know (sent by a newer host): kept, not fatal."""

    type: str
    fields: Mapping[str, Any]


@dataclass(frozen=True)
class WireEvent:
    """A decoded event and the proof fields that came with it (nonces; may be empty)."""

    event: Event | UnknownEvent
    proof: Mapping[str, Any] = dataclasses.field(default_factory=dict)


def encode_event(event: Event, proof: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """{"type": "card_played", "seat": 1, ...} plus the proof fields this event type allows."""
    spec = EVENT_TYPES.get(wire_name(type(event)))
    if spec is None or not isinstance(event, spec.cls):
        raise LocalProtocolError(Code.BAD_MESSAGE, f"{type(event).__name__} is not an event")
    out = _encode_fields(spec, event)
    allowed = PROOF_FIELDS.get(spec.name, {})
    for key, value in (proof or {}).items():
        if key not in allowed:
            raise LocalProtocolError(Code.BAD_MESSAGE, f"{spec.name} carries no proof {key!r}")
        out[key] = list(value) if isinstance(value, list | tuple) else value
    return out


def decode_event(data: Any, path: str = "event") -> WireEvent:
    """The engine event for an `event` map, with its proof fields checked and split off."""
    if not isinstance(data, Mapping):
        raise bad(path, "event map", data)
    name = data.get("type")
    if not isinstance(name, str):
        raise bad(f"{path}.type", "str", name)
    spec = EVENT_TYPES.get(name)
    if spec is None:
        return WireEvent(UnknownEvent(name, dict(data)))
    event = _decode_fields(spec, data, path)
    proof: dict[str, Any] = {}
    for key, codec in PROOF_FIELDS.get(name, {}).items():
        if data.get(key) is not None:
            proof[key] = codec.decode(data[key], f"{path}.{key}")
    return WireEvent(event, proof)


def check_event(data: Any, path: str) -> None:
    decode_event(data, path)


# -- shared ------------------------------------------------------------------------------------


def _encode_fields(spec: WireType, value: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"type": spec.name}
    for f in spec.fields:
        out[f.name] = f.codec.encode(getattr(value, f.name))
    return out


def _decode_fields(spec: WireType, data: Mapping[str, Any], path: str) -> Any:
    kwargs: dict[str, Any] = {}
    for f in spec.fields:
        if f.name not in data:
            if f.required:
                raise ProtocolError(Code.BAD_MESSAGE, f"{path}.{f.name}: required field missing")
            continue
        kwargs[f.name] = f.codec.decode(data[f.name], f"{path}.{f.name}")
    return spec.cls(**kwargs)


# -- views: any frozen dataclass ------------------------------------------------------------


def encode_value(value: Any) -> Any:
    """Any engine value as plain wire data: dataclass -> map of its fields, tuple -> array,
    enum -> its value, frozenset -> sorted array. Used for `snapshot.view`, whose shape the
    engine owns; the client receives it as a map."""
    if value is None or isinstance(value, bool | int | str | bytes):
        return value
    if isinstance(value, Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: encode_value(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, list | tuple):
        return [encode_value(item) for item in value]
    if isinstance(value, frozenset | set):
        return sorted(encode_value(item) for item in value)
    if isinstance(value, Mapping) and all(isinstance(k, str) for k in value):
        return {key: encode_value(item) for key, item in value.items()}
    raise LocalProtocolError(Code.BAD_MESSAGE, f"no wire form for {type(value).__name__}")
