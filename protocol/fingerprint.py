"""The host's identity as players see it: the fingerprint of its certificate (SPEC.md 3).

The fingerprint is SHA-256 of the certificate's DER bytes. It is displayed as RFC 4648 base32
without padding in dash-separated groups of four (52 characters, as Syncthing shows device ids);
a pin may be that text in any case, with or without dashes, a prefix of at least 16 characters
(80 bits, what an invite carries), or the 64 hex digits `openssl x509 -fingerprint -sha256`
prints. Pure functions, shared by the host (which prints it) and the client (which pins it).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac

ALPN = "uno/1"
"""The ALPN protocol id both sides offer and select (SPEC.md [UNO-3-3])."""

MIN_PIN_CHARS = 16
"""Shortest base32 pin accepted: 80 bits, enough against a second-preimage search."""

FULL_PIN_CHARS = 52
"""Base32 characters of a whole SHA-256 digest, without padding."""


def short_pin(fingerprint: str) -> str:
    """The first groups of a grouped fingerprint that make the shortest pin accepted
    (MIN_PIN_CHARS): what a player types after --fingerprint."""
    return "-".join(fingerprint.split("-")[: MIN_PIN_CHARS // 4])


def fingerprint_of(der: bytes) -> bytes:
    """SHA-256 of a DER certificate: the 32 bytes players pin."""
    return hashlib.sha256(der).digest()


def format_fingerprint(digest: bytes) -> str:
    """Base32 without padding, in dash-separated groups of 4."""
    text = base64.b32encode(digest).decode("ascii").rstrip("=")
    return "-".join(text[i : i + 4] for i in range(0, len(text), 4))


class PinError(ValueError):
    """A pin as typed that is not one. The message is its English; `key` and `values` say
    what was wrong, for a command to say it in its user's language (unonet/cli_words.py
    has the words of each key: `pin_hex`, `pin_length`, `pin_base32`)."""

    def __init__(self, message: str, key: str, **values: object) -> None:
        super().__init__(message)
        self.key = key
        self.values = values


def normalize_pin(text: str) -> str:
    """A pin as typed (any case, dashes, colons, spaces) -> bare upper-case base32.

    Raises PinError (a ValueError) for anything else, or for a pin shorter than 80 bits.
    """
    bare = "".join(ch for ch in text if ch not in "-: ").upper()
    if len(bare) == 64:
        try:
            bare = base64.b32encode(bytes.fromhex(bare)).decode("ascii").rstrip("=")
        except ValueError:
            raise PinError("a 64-character fingerprint must be hex", "pin_hex") from None
    if not MIN_PIN_CHARS <= len(bare) <= FULL_PIN_CHARS:
        raise PinError(f"a fingerprint has {MIN_PIN_CHARS} to {FULL_PIN_CHARS} base32 characters",
                       "pin_length", low=MIN_PIN_CHARS, high=FULL_PIN_CHARS)
    try:
        base64.b32decode(bare + "=" * (-len(bare) % 8))
    except binascii.Error:
        raise PinError("a fingerprint is base32 (A-Z, 2-7)", "pin_base32") from None
    return bare


def fingerprint_matches(actual: bytes, pin: str) -> bool:
    """Whether the certificate digest `actual` starts with the (possibly shortened) `pin`;
    compared in constant time."""
    bare = normalize_pin(pin)
    full = format_fingerprint(actual).replace("-", "")
    return hmac.compare_digest(full[: len(bare)], bare)
