"""The client's side of TLS: no certificate authority, the host's fingerprint is its identity.

A host makes its own certificate (host/tls.py); the player pins SHA-256 of its DER bytes, given
out of band or trusted on first use, as SSH does. The handshake still proves the host holds the
certificate's key (TLS 1.3 CertificateVerify), so comparing the fingerprint afterwards is sound
(crypto-protocol.md B3). Nothing is sent before the comparison succeeds.

This module must not import `host` (DESIGN.md layers); the fingerprint text format is repeated
here and in host/tls.py: base32 without padding, groups of 4 joined by dashes.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import ssl

import trio

ALPN = "uno/1"
SERVER_NAME = "uno-host"
MIN_PIN_CHARS = 16
"""Shortest base32 pin accepted: 80 bits, what an invite carries (crypto-protocol.md B4)."""


class HostKeyMismatch(Exception):
    """The host's certificate is not the one pinned: a different host, or someone in between."""

    def __init__(self, expected: str, actual: bytes) -> None:
        super().__init__(
            f"the host's fingerprint is {format_fingerprint(actual)}, not the pinned {expected}"
        )
        self.expected = expected
        self.actual = actual


def format_fingerprint(digest: bytes) -> str:
    """RFC 4648 base32 without padding, in dash-separated groups of 4."""
    text = base64.b32encode(digest).decode("ascii").rstrip("=")
    return "-".join(text[i : i + 4] for i in range(0, len(text), 4))


def normalize_pin(text: str) -> str:
    """A pin as typed (any case, dashes, spaces) -> bare upper-case base32.

    64 hex digits (colons allowed, as `openssl x509 -fingerprint -sha256` prints) are accepted
    too and converted. Raises ValueError for anything else or a pin shorter than 80 bits.
    """
    bare = "".join(ch for ch in text if ch not in "-: ").upper()
    if len(bare) == 64:
        try:
            bare = base64.b32encode(bytes.fromhex(bare)).decode("ascii").rstrip("=")
        except ValueError:
            raise ValueError("a 64-character fingerprint must be hex") from None
    if len(bare) < MIN_PIN_CHARS or len(bare) > 52:
        raise ValueError(f"a fingerprint has {MIN_PIN_CHARS} to 52 base32 characters")
    try:
        base64.b32decode(bare + "=" * (-len(bare) % 8))
    except binascii.Error:
        raise ValueError("a fingerprint is base32 (A-Z, 2-7)") from None
    return bare


def fingerprint_matches(actual: bytes, pin: str) -> bool:
    """Whether the certificate digest `actual` starts with the (possibly shortened) `pin`."""
    bare = normalize_pin(pin)
    full = format_fingerprint(actual).replace("-", "")
    return hmac.compare_digest(full[: len(bare)], bare)


def client_context() -> ssl.SSLContext:
    """TLS 1.3, ALPN uno/1, no CA check: identity is the pinned fingerprint."""
    context = ssl.create_default_context()
    context.minimum_version = ssl.TLSVersion.TLSv1_3
    context.check_hostname = False  # must be set before verify_mode
    context.verify_mode = ssl.CERT_NONE
    context.set_alpn_protocols([ALPN])
    return context


def peer_fingerprint(stream: trio.SSLStream[trio.abc.Stream]) -> bytes:
    """SHA-256 of the host's DER certificate (available even with CERT_NONE)."""
    der = stream.getpeercert(binary_form=True)
    if der is None:
        raise ssl.SSLError("the host sent no certificate")
    return hashlib.sha256(der).digest()


async def open_pinned_stream(
    transport: trio.abc.Stream,
    pin: str | None,
    *,
    handshake_timeout: float = 10.0,
) -> tuple[trio.SSLStream[trio.abc.Stream], bytes]:
    """Wrap `transport` in TLS, finish the handshake, and check the pin before anything is sent.

    Returns the stream and the host's fingerprint (for trust on first use when `pin` is None:
    the caller shows it and stores it). Raises HostKeyMismatch (stream closed) on a wrong pin.
    """
    stream = trio.SSLStream(transport, client_context(), server_hostname=SERVER_NAME)
    try:
        with trio.fail_after(handshake_timeout):
            await stream.do_handshake()
        actual = peer_fingerprint(stream)
        if pin is not None and not fingerprint_matches(actual, pin):
            raise HostKeyMismatch(pin, actual)
    except BaseException:
        await trio.aclose_forcefully(stream)
        raise
    return stream, actual
