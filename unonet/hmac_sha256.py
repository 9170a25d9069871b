"""HMAC-SHA256 keyed once, for the shuffle stream and key derivation.

The standard library's `hmac.digest` costs about 3.5 us per call here (OpenSSL 3 looks the
digest up each time) and a copied `hmac.HMAC` about 1 us per block through its Python wrappers;
the shuffle takes fourteen blocks per deal. This is RFC 2104 over two `hashlib` states, the
inner and outer pads absorbed once and copied per message: the same bytes as `hmac.digest`
(tests/test_shuffle.py compares them for keys shorter and longer than the block).
"""

from __future__ import annotations

import hashlib

_BLOCK = 64  # SHA-256's block, in bytes: the key is padded to it
_IPAD = bytes(byte ^ 0x36 for byte in range(256))  # translate tables: key byte -> padded byte
_OPAD = bytes(byte ^ 0x5C for byte in range(256))


class HmacSha256:
    """HMAC-SHA256 with a fixed key: `digest(message)` for any number of messages."""

    __slots__ = ("_inner", "_outer")

    def __init__(self, key: bytes) -> None:
        if len(key) > _BLOCK:
            key = hashlib.sha256(key).digest()
        padded = key.ljust(_BLOCK, b"\0")
        self._inner = hashlib.sha256(padded.translate(_IPAD))
        self._outer = hashlib.sha256(padded.translate(_OPAD))

    def digest(self, message: bytes) -> bytes:
        inner = self._inner.copy()
        inner.update(message)
        outer = self._outer.copy()
        outer.update(inner.digest())
        return outer.digest()
