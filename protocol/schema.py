"""A small type language for message fields: each type checks a decoded value and describes
itself in the notation SPEC.md uses, so the catalogue and the document cannot drift apart.

Checks raise ProtocolError(bad_message) naming the path of the offending field (a name field
holding a control or format character: invalid_name). Unknown keys in a map are ignored
(forward compatibility); an optional field may be absent or nil.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from protocol.errors import Code, ProtocolError
from protocol.limits import INT_MAX, INT_MIN, MAX_ARRAY_LEN, MAX_BIN_BYTES, MAX_CODE_CHARS
from protocol.text import describe_char, first_refused


class FieldType(Protocol):
    def check(self, value: Any, path: str) -> None: ...

    def describe(self) -> str: ...


def bad(path: str, expected: str, value: Any) -> ProtocolError:
    """The error for a field that is not what the catalogue says."""
    shown = type(value).__name__ if not isinstance(value, int | str) else repr(value)[:40]
    return ProtocolError(Code.BAD_MESSAGE, f"{path}: expected {expected}, got {shown}")


@dataclass(frozen=True)
class Int:
    lo: int = INT_MIN
    hi: int = INT_MAX

    def check(self, value: Any, path: str) -> None:
        if isinstance(value, bool) or not isinstance(value, int):
            raise bad(path, self.describe(), value)
        if not self.lo <= value <= self.hi:
            raise bad(path, self.describe(), value)

    def describe(self) -> str:
        if (self.lo, self.hi) == (INT_MIN, INT_MAX):
            return "int"
        if self.hi == INT_MAX:
            return f"int ≥{self.lo}"
        return f"int {self.lo}..{self.hi}"


@dataclass(frozen=True)
class Bool:
    def check(self, value: Any, path: str) -> None:
        if not isinstance(value, bool):
            raise bad(path, "bool", value)

    def describe(self) -> str:
        return "bool"


@dataclass(frozen=True)
class Str:
    """A str field. Unless `plain` is false it may not hold a character of a refused category
    (protocol/text.py, SPEC.md [UNO-5-12]: controls, format characters, line separators...),
    so that no name, code or chat line a peer sends can drive a terminal or forge a line;
    `refusal` is the code for that (invalid_name for names). Only diagnostic text (error.msg,
    bye.msg) is not plain: it may quote what was refused, and receivers escape it."""

    max_chars: int = MAX_CODE_CHARS
    choices: tuple[str, ...] = ()
    min_chars: int = 0
    plain: bool = True
    refusal: Code = Code.BAD_MESSAGE

    def check(self, value: Any, path: str) -> None:
        if not isinstance(value, str):
            raise bad(path, self.describe(), value)
        if self.choices and value not in self.choices:
            raise bad(path, self.describe(), value)
        if not self.min_chars <= len(value) <= self.max_chars:
            if self.refusal is not Code.BAD_MESSAGE:  # a name too long is a name refused
                raise ProtocolError(self.refusal, f"{path}: expected {self.describe()}, "
                                    f"got {len(value)} characters")
            raise bad(path, self.describe(), value)
        if self.plain:
            char = first_refused(value)
            if char is not None:
                raise ProtocolError(self.refusal, f"{path}: contains {describe_char(char)}")

    def describe(self) -> str:
        if self.choices:
            return " \\| ".join(f'"{c}"' for c in self.choices)
        low = f"{self.min_chars}.." if self.min_chars else "≤"
        return f"str({low}{self.max_chars})"


@dataclass(frozen=True)
class Bin:
    size: int | None = None  # exact size, or None for any size up to max_bytes
    max_bytes: int = MAX_BIN_BYTES

    def check(self, value: Any, path: str) -> None:
        if not isinstance(value, bytes):
            raise bad(path, self.describe(), value)
        if self.size is not None and len(value) != self.size:
            raise bad(path, self.describe(), f"{len(value)} bytes")
        if len(value) > self.max_bytes:
            raise bad(path, self.describe(), f"{len(value)} bytes")

    def describe(self) -> str:
        return f"bin{self.size}" if self.size is not None else f"bin(≤{self.max_bytes})"


@dataclass(frozen=True)
class Array:
    item: FieldType
    max_len: int = MAX_ARRAY_LEN
    min_len: int = 0

    def check(self, value: Any, path: str) -> None:
        if not isinstance(value, list | tuple):
            raise bad(path, self.describe(), value)
        if not self.min_len <= len(value) <= self.max_len:
            raise bad(path, self.describe(), f"{len(value)} items")
        for index, item in enumerate(value):
            self.item.check(item, f"{path}[{index}]")

    def describe(self) -> str:
        low = f"{self.min_len}.." if self.min_len else "≤"
        return f"[{self.item.describe()}] {low}{self.max_len} items"


@dataclass(frozen=True)
class Tuple:
    """A fixed-length array whose items have their own types, e.g. [seat, bin32]."""

    items: tuple[FieldType, ...]

    def check(self, value: Any, path: str) -> None:
        if not isinstance(value, list | tuple) or len(value) != len(self.items):
            raise bad(path, self.describe(), value)
        for index, (kind, item) in enumerate(zip(self.items, value, strict=True)):
            kind.check(item, f"{path}[{index}]")

    def describe(self) -> str:
        return "[" + ", ".join(item.describe() for item in self.items) + "]"


@dataclass(frozen=True)
class Nullable:
    inner: FieldType

    def check(self, value: Any, path: str) -> None:
        if value is not None:
            self.inner.check(value, path)

    def describe(self) -> str:
        return f"{self.inner.describe()} \\| nil"


@dataclass(frozen=True)
class Scalar:
    """A rule option's value: int, str, bool or nil."""

    def check(self, value: Any, path: str) -> None:
        if value is not None and not isinstance(value, bool | int | str):
            raise bad(path, "int, str, bool or nil", value)

    def describe(self) -> str:
        return "int \\| str \\| bool \\| nil"


@dataclass(frozen=True)
class AnyMap:
    """A map checked only by the encoding profile (and, where said, by another layer)."""

    values: FieldType | None = None
    label: str = "map"

    def check(self, value: Any, path: str) -> None:
        if not isinstance(value, Mapping):
            raise bad(path, self.label, value)
        if self.values is not None:
            for key, item in value.items():
                self.values.check(item, f"{path}.{key}")

    def describe(self) -> str:
        return self.label


@dataclass(frozen=True)
class Custom:
    """A value checked by another module (an engine action or event; see game_codec)."""

    label: str
    checker: Callable[[Any, str], object]
    """Raises ProtocolError, or returns the decoded value (kept by `check_fields`)."""

    def check(self, value: Any, path: str) -> None:
        self.checker(value, path)

    def decode(self, value: Any, path: str) -> object:
        return self.checker(value, path)

    def describe(self) -> str:
        return self.label


@dataclass(frozen=True)
class Field:
    name: str
    type: FieldType
    doc: str = ""
    required: bool = True


def opt(name: str, kind: FieldType, doc: str = "") -> Field:
    """An optional field: absent and nil both mean 'not given'."""
    return Field(name, kind, doc, required=False)


@dataclass(frozen=True)
class Struct:
    """A map with known fields; other keys are ignored."""

    fields: tuple[Field, ...]
    label: str = ""
    names: frozenset[str] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "names", frozenset(f.name for f in self.fields))

    def check(self, value: Any, path: str) -> None:
        if not isinstance(value, Mapping):
            raise bad(path, "map", value)
        check_fields(self.fields, value, path)

    def describe(self) -> str:
        if self.label:
            return self.label
        parts = [f"{f.name}{'' if f.required else '?'}: {f.type.describe()}" for f in self.fields]
        return "{" + ", ".join(parts) + "}"


def check_fields(fields: tuple[Field, ...], value: Mapping[str, Any], path: str,
                 decoded: dict[str, object] | None = None) -> None:
    """Check every known field of `value`; a missing required one is bad_message. `decoded`,
    if given, gets what each Custom field decoded to (an event, an action list), by name, so
    that the receiver need not decode it again."""
    for spec in fields:
        item = value.get(spec.name)
        where = f"{path}.{spec.name}" if path else spec.name
        if item is None and (spec.name not in value or not spec.required):
            if spec.required:
                raise ProtocolError(Code.BAD_MESSAGE, f"{where}: required field missing")
            continue
        if decoded is not None and isinstance(spec.type, Custom):
            decoded[spec.name] = spec.type.decode(item, where)
        else:
            spec.type.check(item, where)
