"""Frames: a 4-byte big-endian length, then one msgpack map (SPEC.md sections 4 and 5).

`FrameDecoder` is the one class of this module, in the style of h11's Connection: bytes go in
through `receive_data`, decoded maps come out of `next_frame` (or NEED_DATA). It never holds
more than one incomplete frame: a length prefix is checked the moment its four bytes arrive,
before any of the frame is buffered. Each complete frame is decoded in one shot with tight
msgpack limits (never a streaming Unpacker, which must not be reused after an error), then
checked against the encoding profile.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from enum import Enum
from typing import Any, Final, Literal

import msgpack

from protocol.errors import Code, LocalProtocolError, ProtocolError
from protocol.limits import (
    LENGTH_PREFIX_SIZE,
    MAX_ARRAY_LEN,
    MAX_BIN_BYTES,
    MAX_CLIENT_CONTAINERS,
    MAX_FRAME,
    MAX_MAP_LEN,
    MAX_STR_BYTES,
    MAX_WIDE_ARRAY_LEN,
)
from protocol.messages import CATALOGUE, WIDE_FIELDS, Role
from protocol.profile import check_decoded, check_profile

CLIENT_WIDE_FIELDS: Final[dict[str, frozenset[str]]] = {
    kind: wide for kind, wide in WIDE_FIELDS.items()
    if CATALOGUE[kind].direction.allows(Role.CLIENT)
}
"""The wide fields of messages a client may send (none today): in a client's frame, every
array is at most MAX_ARRAY_LEN, which msgpack then checks by itself."""


class Signal(Enum):
    """What `next_frame` returns when it has no frame to give."""

    NEED_DATA = "need_data"  # feed more bytes with receive_data
    EOF = "eof"  # the peer closed cleanly, between frames


NEED_DATA: Final = Signal.NEED_DATA
EOF: Final = Signal.EOF


class DecoderState(Enum):
    OPEN = "open"
    CLOSED = "closed"  # EOF received and every frame handed out
    ERROR = "error"  # a fatal error was raised; every further call raises it again


class _DuplicateKey(Exception):
    pass


def _reject_duplicate_keys(pairs: list[tuple[Any, Any]]) -> dict[Any, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        raise _DuplicateKey
    return result


_UNPACK_OPTIONS: Final[dict[str, Any]] = {
    "raw": False,  # str must be valid UTF-8
    "strict_map_key": True,  # only str/bytes keys reach the hook (the profile then wants str)
    "use_list": True,
    "max_str_len": MAX_STR_BYTES,
    "max_bin_len": MAX_BIN_BYTES,
    "max_array_len": MAX_WIDE_ARRAY_LEN,  # the hard cap; the profile applies the usual 256
    "max_map_len": MAX_MAP_LEN,
    "max_ext_len": 0,  # no ext types at all, not even the timestamp
    "object_pairs_hook": _reject_duplicate_keys,
}


def decode_payload(
    payload: bytes, wide_fields: Mapping[str, frozenset[str]] = WIDE_FIELDS
) -> dict[str, Any]:
    """Decode one frame's payload (without its length prefix) and check the profile.

    Raises ProtocolError: duplicate_key, or bad_frame for anything else msgpack or the profile
    refuses. Both are fatal.
    """
    try:
        value = msgpack.unpackb(payload, **_UNPACK_OPTIONS)
    except _DuplicateKey:
        raise ProtocolError(Code.DUPLICATE_KEY, "a map repeats a key") from None
    except Exception as exc:  # msgpack raises many types; its changelog says catch them all
        detail = str(exc) or type(exc).__name__
        raise ProtocolError(Code.BAD_FRAME, f"invalid msgpack: {detail}") from None
    kind = value.get("t") if isinstance(value, dict) else None
    wide = wide_fields.get(kind, frozenset()) if isinstance(kind, str) else frozenset()
    check_profile(value, wide)
    return value  # type: ignore[no-any-return]


class _TooManyContainers(Exception):
    pass


def decode_bounded(
    payload: bytes,
    *,
    max_containers: int = MAX_CLIENT_CONTAINERS,
    wide_fields: Mapping[str, frozenset[str]] = CLIENT_WIDE_FIELDS,
) -> dict[str, Any]:
    """`decode_payload` for small frames from a peer whose messages are simple (the host's
    client frames), at a cost bounded by the frame whatever it holds: msgpack itself checks
    every length (scaled to the payload, and arrays at `max_array` exactly when no message
    has a wide field), its hooks count the containers and stop at `max_containers + 1`, and
    the profile walk (`check_decoded`) steps through those few containers only.

    Raises ProtocolError as decode_payload does: duplicate_key, or bad_frame (too many
    containers included). Every rule of the profile holds for what it returns.
    """
    size = len(payload)
    count = 0

    def pairs_hook(pairs: list[tuple[Any, Any]]) -> dict[Any, Any]:
        nonlocal count
        count += 1
        if count > max_containers:
            raise _TooManyContainers
        result = dict(pairs)
        if len(result) != len(pairs):
            raise _DuplicateKey
        return result

    def list_hook(items: list[Any]) -> list[Any]:
        nonlocal count
        count += 1
        if count > max_containers:
            raise _TooManyContainers
        return items

    wide = any(wide_fields.values())
    max_array = MAX_WIDE_ARRAY_LEN if wide else MAX_ARRAY_LEN
    if size <= PLAIN_DECODE_BYTES:
        plain = _decode_plain(payload, size, max_array)
        if plain is not None:
            kind = plain.get("t")
            keys = wide_fields.get(kind, frozenset()) if isinstance(kind, str) else frozenset()
            check_decoded(plain, keys, max_array, max_containers)
            return plain
    try:
        value = msgpack.unpackb(
            payload, raw=False, strict_map_key=True, use_list=True,
            max_str_len=min(MAX_STR_BYTES, size), max_bin_len=min(MAX_BIN_BYTES, size),
            max_array_len=min(max_array, size), max_map_len=min(MAX_MAP_LEN, size // 2),
            max_ext_len=0, object_pairs_hook=pairs_hook, list_hook=list_hook,
        )
    except _DuplicateKey:
        raise ProtocolError(Code.DUPLICATE_KEY, "a map repeats a key") from None
    except _TooManyContainers:
        raise ProtocolError(
            Code.BAD_FRAME, f"more than {max_containers} maps and arrays in one frame"
        ) from None
    except Exception as exc:  # msgpack raises many types; its changelog says catch them all
        detail = str(exc) or type(exc).__name__
        raise ProtocolError(Code.BAD_FRAME, f"invalid msgpack: {detail}") from None
    kind = value.get("t") if type(value) is dict else None
    keys = wide_fields.get(kind, frozenset()) if isinstance(kind, str) else frozenset()
    check_decoded(value, keys, max_array)
    return value  # type: ignore[no-any-return]


PLAIN_DECODE_BYTES: Final = 256
"""Payloads up to this size (an intent, a seed message, a ping: most frames a client sends)
are first decoded without msgpack's hooks, which cost three times the decoding itself: such a
payload holds at most this many containers, and `check_decoded` counts them. A map that
repeated a key would have lost one, so the value is kept only if packing it gives the payload
back byte for byte (what every msgpack encoder that packs each value in its shortest form
sends); any other payload takes the hooked path, which names the fault."""


def _decode_plain(payload: bytes, size: int, max_array: int) -> dict[str, Any] | None:
    """`payload` decoded without hooks, if it is a map that packs back to the same bytes."""
    try:
        value = msgpack.unpackb(
            payload, raw=False, strict_map_key=True, use_list=True,
            max_str_len=min(MAX_STR_BYTES, size), max_bin_len=min(MAX_BIN_BYTES, size),
            max_array_len=min(max_array, size), max_map_len=min(MAX_MAP_LEN, size // 2),
            max_ext_len=0,
        )
    except Exception:  # msgpack raises many types: the hooked path says which fault it is
        return None
    if type(value) is not dict or _PACKER.pack(value) != payload:
        return None
    return value


_PACKER = msgpack.Packer(use_bin_type=True)
"""One packer for every frame (packb makes a new one per call); pack() is atomic under the GIL
since it calls no Python code for the types the profile allows."""


def pack(value: Any) -> bytes:
    """msgpack bytes of `value` (bin type for bytes)."""
    packed: bytes = _PACKER.pack(value)
    return packed


def unpack(data: bytes) -> Any:
    """What `pack` made, back: for bytes we packed ourselves and kept, never a peer's (those
    go through decode_payload or decode_bounded and their checks)."""
    return msgpack.unpackb(data, raw=False, strict_map_key=False, use_list=True)


def encode_frame(message: Mapping[str, Any], *, max_frame: int = MAX_FRAME,
                 check: bool = True) -> bytes:
    """The frame for `message`: length prefix and msgpack map (bin type for bytes).

    Raises LocalProtocolError if the message is outside the profile (unless `check` is false:
    the caller vouches for it) or too large to send.
    """
    if check:
        kind = message.get("t")
        wide = WIDE_FIELDS.get(kind, frozenset()) if isinstance(kind, str) else frozenset()
        check_profile(message, wide, local=True)
    payload = pack(message)
    if len(payload) > max_frame:
        raise LocalProtocolError(
            Code.FRAME_TOO_LARGE, f"frame of {len(payload)} bytes exceeds {max_frame}"
        )
    return len(payload).to_bytes(LENGTH_PREFIX_SIZE, "big") + payload


class FrameDecoder:
    """Turns a byte stream into decoded, profile-checked maps, one frame at a time.

    After any ProtocolError the decoder is in ERROR state; every later call raises again.
    The bytes it holds of an incomplete frame never exceed `max_frame + 3` (`buffered`).
    """

    def __init__(
        self,
        *,
        max_frame: int = MAX_FRAME,
        wide_fields: Mapping[str, frozenset[str]] = WIDE_FIELDS,
        max_containers: int | None = None,
    ) -> None:
        self.max_frame = max_frame
        self.state = DecoderState.OPEN
        self._wide_fields = wide_fields
        self.max_containers = max_containers
        """Set: frames are decoded by `decode_bounded` with this container cap (the host's
        client frames, with the wide fields passed); None: by `decode_payload`."""
        self._buffer = bytearray()
        self._frames: deque[bytes] = deque()
        self._pending_error: ProtocolError | None = None
        self._error: ProtocolError | None = None
        self._eof = False

    @property
    def buffered(self) -> int:
        """Bytes held of the frame not yet complete (prefix included)."""
        return len(self._buffer)

    @property
    def pending(self) -> int:
        """Complete frames received and not yet returned by next_frame."""
        return len(self._frames)

    @property
    def next_size(self) -> int | None:
        """Payload bytes of the next complete frame `next_frame` will decode, or None: the
        host charges a frame's cost before spending work on decoding it."""
        return len(self._frames[0]) if self._frames else None

    def receive_data(self, data: bytes) -> None:
        """Add bytes from the peer; `b""` means the peer closed its side (EOF).

        A length prefix over `max_frame` is detected here, and the rest of the stream is
        dropped unread; the error is raised by next_frame once the frames before it are out.
        """
        if self._error is not None:
            raise self._error
        if self._eof:
            raise LocalProtocolError(Code.BAD_FRAME, "receive_data called after EOF")
        if not data:
            self._eof = True
            return
        if self._pending_error is not None:
            return
        self._buffer += data
        while len(self._buffer) >= LENGTH_PREFIX_SIZE:
            size = int.from_bytes(self._buffer[:LENGTH_PREFIX_SIZE], "big")
            if size > self.max_frame:
                self._pending_error = ProtocolError(
                    Code.FRAME_TOO_LARGE, f"length prefix {size} exceeds {self.max_frame}"
                )
                self._buffer.clear()
                return
            end = LENGTH_PREFIX_SIZE + size
            if len(self._buffer) < end:
                return
            self._frames.append(bytes(self._buffer[LENGTH_PREFIX_SIZE:end]))
            del self._buffer[:end]

    def next_frame(self) -> dict[str, Any] | Literal[Signal.NEED_DATA, Signal.EOF]:
        """The next decoded frame, NEED_DATA, or EOF after a clean close between frames.

        Raises ProtocolError (fatal, state ERROR) for a frame that fails to decode, a length
        prefix over the limit, or a close in the middle of a frame.
        """
        if self._error is not None:
            raise self._error
        if self._frames:
            try:
                if self.max_containers is None:
                    return decode_payload(self._frames.popleft(), self._wide_fields)
                return decode_bounded(self._frames.popleft(), max_containers=self.max_containers,
                                      wide_fields=self._wide_fields)
            except ProtocolError as exc:
                self._fail(exc)
                raise
        if self._pending_error is not None:
            self._fail(self._pending_error)
            raise self._pending_error
        if self._eof:
            if self._buffer:
                error = ProtocolError(
                    Code.BAD_FRAME, f"connection closed inside a frame ({len(self._buffer)} bytes)"
                )
                self._fail(error)
                raise error
            self.state = DecoderState.CLOSED
            return EOF
        return NEED_DATA

    def _fail(self, error: ProtocolError) -> None:
        self._error = error
        self.state = DecoderState.ERROR
        self._frames.clear()
        self._buffer.clear()
