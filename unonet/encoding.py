"""The unambiguous length-prefixed encoding that every hash and HMAC of the project runs over.

`enc(f1, ..., fn) = u32be(n) || for each field: u32be(len(fi)) || fi`, where an int becomes
u64be and a str becomes UTF-8. Two different field lists never encode to the same bytes, which
is what a commitment needs; msgpack bytes do not have that property (one value, many encodings).
"""

from __future__ import annotations

import struct
from collections.abc import Sequence

Field = bytes | str | int

_U32 = struct.Struct(">I")
_U64 = struct.Struct(">Q")


def field_bytes(field: Field) -> bytes:
    """The bytes of one field before its length prefix."""
    if isinstance(field, bool):
        raise TypeError("booleans are not encodable; use 0 or 1")
    if isinstance(field, int):
        if not 0 <= field < 2**64:
            raise ValueError(f"integer field out of u64 range: {field}")
        return _U64.pack(field)
    if isinstance(field, str):
        return field.encode("utf-8")
    if isinstance(field, bytes | bytearray | memoryview):
        return bytes(field)
    raise TypeError(f"cannot encode field of type {type(field).__name__}")


def enc(*fields: Field) -> bytes:
    """Encode a list of fields as `u32be(n) || (u32be(len) || bytes)*`."""
    return enc_fields(fields)


def enc_fields(fields: Sequence[Field]) -> bytes:
    """`enc(*fields)`, for a sequence at hand (the shuffle calls this one directly).
    A bytes field, most of them (a deck's commitment has 108), is taken as it is: the general
    `field_bytes` cost a third of a microsecond each in its checks."""
    length = _U32.pack
    parts = [length(len(fields))]
    for field in fields:
        raw = field if type(field) is bytes else field_bytes(field)
        parts.append(length(len(raw)))
        parts.append(raw)
    return b"".join(parts)
