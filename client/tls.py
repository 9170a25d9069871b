"""The client's side of TLS: no certificate authority, the host's fingerprint is its identity.

A host makes its own certificate (host/tls.py); the player pins SHA-256 of its DER bytes, given
out of band or trusted on first use, as SSH does. The handshake still proves the host holds the
certificate's key (TLS 1.3 CertificateVerify), so comparing the fingerprint afterwards is sound
(crypto-protocol.md B3). Nothing is sent before the comparison succeeds.

The fingerprint's text form and pin parsing are protocol/fingerprint.py's, shared with the host.
"""

from __future__ import annotations

import errno
import os
import socket
import ssl
from dataclasses import dataclass

import trio

from protocol.fingerprint import (
    ALPN,
    MIN_PIN_CHARS,
    fingerprint_matches,
    fingerprint_of,
    format_fingerprint,
    normalize_pin,
)

__all__ = [
    "ALPN",
    "CONNECT_FAILURES",
    "CONNECT_TIMEOUT",
    "MIN_PIN_CHARS",
    "NO_TLS_HINT",
    "ConnectFailure",
    "HostKeyMismatch",
    "client_context",
    "connect_failure",
    "fingerprint_matches",
    "format_fingerprint",
    "normalize_pin",
    "open_pinned_stream",
    "peer_fingerprint",
    "probe_fingerprint",
]

SERVER_NAME = "uno-host"


class HostKeyMismatch(Exception):
    """The host's certificate is not the one pinned: a different host, or someone in between."""

    def __init__(self, expected: str, actual: bytes) -> None:
        super().__init__(
            f"the host's fingerprint is {format_fingerprint(actual)}, not the pinned {expected}"
        )
        self.expected = expected
        self.actual = actual

CONNECT_TIMEOUT = 10.0
"""Seconds a client waits for the host's TCP answer, and again for its TLS handshake."""

NO_TLS_HINT = "a host started without --no-tls speaks TLS: leave out --no-tls"
"""Said when a host closed a plain connection before answering its hello: what a TLS host
does with bytes that are not TLS."""

CONNECT_FAILURES = (OSError, trio.TooSlowError, trio.BrokenResourceError, ssl.SSLError)
"""What reaching a host can raise that is the network's or the peer's doing, not ours."""


REFUSED = frozenset({errno.ECONNREFUSED})
UNREACHABLE = frozenset({errno.EHOSTUNREACH, errno.ENETUNREACH, errno.ENETDOWN,
                         errno.EHOSTDOWN, errno.EADDRNOTAVAIL})


@dataclass(frozen=True)
class ConnectFailure:
    """Why reaching a host failed: `code` for the screen, which says it in the player's words
    (client.i18n `lost.<code>`): refused, unreachable, unknown_host, no_answer, not_tls,
    connection_broken, or cannot_connect for any other; `words` for a terminal or a log, in
    English, with the system's own reason."""

    code: str
    words: str

    def __str__(self) -> str:
        return self.words


def connect_failure(exc: BaseException) -> ConnectFailure:
    """Why reaching the host failed (one of CONNECT_FAILURES), the code and the words from one
    reading of it, so that the screen and the terminal never disagree. trio says nothing in a
    timeout's or a broken stream's own text: the cause behind them is what tells a wrong port
    from a host that speaks no TLS."""
    if isinstance(exc, trio.TooSlowError):
        return ConnectFailure("no_answer", "no answer in time (a firewall, or not a unonet host?)")
    cause = exc.__cause__ if isinstance(exc, trio.BrokenResourceError) else exc
    if isinstance(cause, ssl.SSLError):
        reason = getattr(cause, "reason", None) or cause.strerror or str(cause)
        return ConnectFailure("not_tls", f"the TLS handshake failed ({reason}): not a unonet "
                              "host, or one started with --no-tls (then join with --no-tls too)")
    if isinstance(cause, socket.gaierror):
        return ConnectFailure("unknown_host", cause.strerror or str(cause))
    if isinstance(cause, OSError):
        during = "during the TLS handshake: " if cause is not exc else ""
        return _os_failure(cause, during)
    if isinstance(exc, trio.BrokenResourceError):
        return ConnectFailure("not_tls", "the host closed the connection during the TLS "
                              "handshake (not a unonet host?)")
    return ConnectFailure("cannot_connect", str(exc) or type(exc).__name__)


def _os_failure(error: OSError, during: str) -> ConnectFailure:
    """The system's reasons, one per address tried: trio.open_tcp_stream's "all attempts to
    connect to H:P failed" says only that; why (refused, unreachable) is in the group of each
    address's error behind it. One address that refused is a machine that answered: nothing
    listens on that port, whatever the other addresses said."""
    tried = error.__cause__
    errors = ([e for e in tried.exceptions if isinstance(e, OSError)]
              if isinstance(tried, BaseExceptionGroup) else [])
    errors = errors or [error]
    words = during + ", ".join(dict.fromkeys(
        (os.strerror(e.errno) if e.errno else "") or str(e) or type(e).__name__ for e in errors))
    numbers = {e.errno for e in errors}
    if numbers & REFUSED:
        return ConnectFailure("refused", words)
    if numbers and numbers <= UNREACHABLE:
        return ConnectFailure("unreachable", words)
    if errno.ETIMEDOUT in numbers:
        return ConnectFailure("no_answer", words)
    if during:
        return ConnectFailure("connection_broken", words)
    return ConnectFailure("cannot_connect", words)


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
    return fingerprint_of(der)


async def open_pinned_stream(
    transport: trio.abc.Stream,
    pin: str | None,
    *,
    handshake_timeout: float = CONNECT_TIMEOUT,
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


async def probe_fingerprint(host: str, port: int, timeout: float = CONNECT_TIMEOUT) -> bytes:
    """The fingerprint the host shows; nothing is sent over the TLS connection."""
    with trio.fail_after(timeout):
        tcp = await trio.open_tcp_stream(host, port)
    stream, seen = await open_pinned_stream(tcp, None, handshake_timeout=timeout)
    await trio.aclose_forcefully(stream)
    return seen
