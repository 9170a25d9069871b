"""The encoding profile: which msgpack values a frame may hold (SPEC.md section 5).

msgpack can say more than this protocol allows. After decoding, every frame is walked once:
the top level is a map with str keys; no floats, no ext; ints fit int64; containers nest at
most MAX_DEPTH deep; arrays hold at most MAX_ARRAY_LEN items, except under the top-level keys
a message type marks *wide*. The same check runs on what we send, so we never emit a frame our
own decoder would refuse.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from protocol.errors import Code, LocalProtocolError, ProtocolError
from protocol.limits import (
    INT_MAX,
    INT_MIN,
    MAX_ARRAY_LEN,
    MAX_BIN_BYTES,
    MAX_DEPTH,
    MAX_MAP_LEN,
    MAX_STR_BYTES,
    MAX_WIDE_ARRAY_LEN,
)


def check_profile(
    message: Any, wide_keys: frozenset[str] = frozenset(), *, local: bool = False
) -> None:
    """Raise ProtocolError(bad_frame) unless `message` is within the profile.

    `wide_keys` are the top-level keys under which arrays may reach MAX_WIDE_ARRAY_LEN.
    `local` raises LocalProtocolError instead (for what we are about to send).
    """
    error = LocalProtocolError if local else ProtocolError
    if not isinstance(message, Mapping):
        raise error(Code.BAD_FRAME, f"top level must be a map, not {_kind(message)}")
    _check_map(message, 1, wide_keys, error)


def _check_map(
    value: Mapping[Any, Any], depth: int, wide_keys: frozenset[str], error: type[ProtocolError]
) -> None:
    if len(value) > MAX_MAP_LEN:
        raise error(Code.BAD_FRAME, f"map of {len(value)} entries exceeds {MAX_MAP_LEN}")
    for key, item in value.items():
        if not isinstance(key, str):
            raise error(Code.BAD_FRAME, f"map keys must be str, not {_kind(key)}")
        _check_str(key, error)
        wide = MAX_WIDE_ARRAY_LEN if depth == 1 and key in wide_keys else None
        _check_value(item, depth, wide, error)


def _check_value(
    value: Any, depth: int, wide: int | None, error: type[ProtocolError]
) -> None:
    """`depth` is that of the container holding `value`; `wide` the array limit inherited
    from a wide top-level key, or None for the ordinary limit."""
    kind = type(value)  # exact types first: the common cases, without isinstance chains
    if kind is int:
        if not INT_MIN <= value <= INT_MAX:
            raise error(Code.BAD_FRAME, f"integer {value} is outside int64")
        return
    if kind is str:
        if not (value.isascii() and len(value) <= MAX_STR_BYTES):
            _check_str(value, error)
        return
    if value is None or kind is bool:
        return
    if isinstance(value, int):
        if not INT_MIN <= value <= INT_MAX:
            raise error(Code.BAD_FRAME, f"integer {value} is outside int64")
        return
    if isinstance(value, str):
        _check_str(value, error)
        return
    if isinstance(value, bytes | bytearray | memoryview):
        if len(value) > MAX_BIN_BYTES:
            raise error(Code.BAD_FRAME, f"bin of {len(value)} bytes exceeds {MAX_BIN_BYTES}")
        return
    if isinstance(value, float):
        raise error(Code.BAD_FRAME, "floats are not allowed")
    if not isinstance(value, list | tuple | Mapping):
        raise error(Code.BAD_FRAME, f"{_kind(value)} values are not allowed")
    if depth + 1 > MAX_DEPTH:
        raise error(Code.BAD_FRAME, f"containers nest deeper than {MAX_DEPTH}")
    if isinstance(value, Mapping):
        if len(value) > MAX_MAP_LEN:
            raise error(Code.BAD_FRAME, f"map of {len(value)} entries exceeds {MAX_MAP_LEN}")
        for key, item in value.items():
            if type(key) is not str and not isinstance(key, str):
                raise error(Code.BAD_FRAME, f"map keys must be str, not {_kind(key)}")
            if not (key.isascii() and len(key) <= MAX_STR_BYTES):
                _check_str(key, error)
            _check_value(item, depth + 1, wide, error)
        return
    limit = wide if wide is not None else MAX_ARRAY_LEN
    if len(value) > limit:
        raise error(Code.BAD_FRAME, f"array of {len(value)} items exceeds {limit}")
    for item in value:
        _check_value(item, depth + 1, wide, error)


def _check_str(value: str, error: type[ProtocolError]) -> None:
    # A decoded str is valid UTF-8 already; on the sending side a lone surrogate would make
    # msgpack fail late, so refuse it here with a clear code.
    try:
        size = len(value.encode("utf-8"))
    except UnicodeEncodeError:
        raise error(Code.BAD_FRAME, "str is not valid Unicode (lone surrogate)") from None
    if size > MAX_STR_BYTES:
        raise error(Code.BAD_FRAME, f"str of {size} bytes exceeds {MAX_STR_BYTES}")


def _kind(value: Any) -> str:
    return type(value).__name__


# -- the bounded walk, for frames msgpack has already bounded ----------------------------------

_SCALARS = frozenset({str, bytes, bool, type(None)})
"""Types the bounded walk needs no more than their type for: msgpack checked str and bin
lengths (max_str_len, max_bin_len) and str's UTF-8 while decoding."""
_STR_ONLY = frozenset({str})


def check_decoded(message: Any, wide_keys: frozenset[str], max_array: int,
                  max_containers: int | None = None) -> None:
    """Raise ProtocolError(bad_frame) unless `message`, as msgpack decoded it with
    `decode_bounded`'s options, is within the profile.

    The same rules as `check_profile`, for a value whose str and bin lengths, map sizes, ext
    types and array sizes up to `max_array` msgpack has checked already, and whose containers
    are few (MAX_CLIENT_CONTAINERS): the walk steps through containers only, checking each
    container's keys and scalars by their set of types at C speed. Arrays over MAX_ARRAY_LEN
    are checked here only when `max_array` allowed more (a wide field). With
    `max_containers`, more maps and arrays than that are refused too (when msgpack decoded
    without counting them: frames.PLAIN_DECODE_BYTES).
    """
    if type(message) is not dict:
        raise ProtocolError(Code.BAD_FRAME, f"top level must be a map, not {_kind(message)}")
    wide_checked = max_array > MAX_ARRAY_LEN
    stack: list[tuple[Any, int, bool]] = [(message, 1, False)]
    containers = 0
    while stack:
        container, depth, wide = stack.pop()
        containers += 1
        if max_containers is not None and containers > max_containers:
            raise ProtocolError(
                Code.BAD_FRAME, f"more than {max_containers} maps and arrays in one frame")
        if not container:
            continue
        if type(container) is dict:
            if len(container) <= SMALL_CONTAINER:
                for key in container:
                    if type(key) is not str:
                        raise ProtocolError(Code.BAD_FRAME,
                                            f"map keys must be str, not {_kind(key)}")
            elif not _STR_ONLY.issuperset(map(type, container)):
                bad = next(k for k in container if type(k) is not str)
                raise ProtocolError(Code.BAD_FRAME, f"map keys must be str, not {_kind(bad)}")
            items: Any = container.values()
        else:
            items = container
            if wide_checked and not wide and len(items) > MAX_ARRAY_LEN:
                raise ProtocolError(
                    Code.BAD_FRAME, f"array of {len(items)} items exceeds {MAX_ARRAY_LEN}")
        shape = _small_shape(items) if len(items) <= SMALL_CONTAINER else _UNSURE
        if shape == _SCALARS_ONLY:
            continue
        if shape == _UNSURE:
            kinds = set(map(type, items))
            if kinds <= _SCALARS:
                continue
            if int in kinds and _over_int64(items, kinds):
                raise ProtocolError(Code.BAD_FRAME,
                                    "integer outside int64 (a uint64 over 2**63-1)")
            nested = kinds & {dict, list}
            if kinds - _SCALARS - {int} - nested:
                other = next(v for v in items if type(v) not in _SCALARS | {int, dict, list})
                what = "floats are" if type(other) is float else f"{_kind(other)} values are"
                raise ProtocolError(Code.BAD_FRAME, f"{what} not allowed")
            if not nested:
                continue
        if depth + 1 > MAX_DEPTH:
            raise ProtocolError(Code.BAD_FRAME, f"containers nest deeper than {MAX_DEPTH}")
        if depth == 1 and wide_checked:
            for key, item in container.items():
                if type(item) is dict or type(item) is list:
                    stack.append((item, 2, key in wide_keys))
            continue
        for item in items:
            if type(item) is dict or type(item) is list:
                stack.append((item, depth + 1, wide))


SMALL_CONTAINER = 16
"""Containers up to this size are walked item by item (`_small_shape`: a few
comparisons each), larger ones by their set of types (a set built in C)."""

_SCALARS_ONLY, _NESTED, _UNSURE = 0, 1, 2


def _small_shape(items: Any) -> int:
    """_SCALARS_ONLY if every item is a scalar within the profile, _NESTED if some are maps or
    arrays and the rest are such scalars, _UNSURE if any is neither (the set of types then
    says which fault it is)."""
    shape = _SCALARS_ONLY
    for item in items:
        kind = type(item)
        if kind is str or kind is bytes or kind is bool or item is None:
            continue
        if kind is int:
            if item > INT_MAX:
                return _UNSURE
            continue
        if kind is dict or kind is list:
            shape = _NESTED
            continue
        return _UNSURE
    return shape


def _over_int64(items: Any, kinds: set[type]) -> bool:
    """Whether an int among `items` exceeds int64: msgpack yields nothing below INT_MIN, so
    only a uint64 over INT_MAX can; `max` does a list of plain numbers at C speed."""
    if kinds <= {int, bool}:
        return bool(max(items) > INT_MAX)
    return any(type(v) is int and v > INT_MAX for v in items)
