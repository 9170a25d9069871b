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
    "HostKeyMismatch",
    "client_context",
    "connect_failure",
    "failure_code",
    "fingerprint_matches",
    "format_fingerprint",
    "normalize_pin",
    "open_pinned_stream",
    "peer_fingerprint",
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


def connect_failure(exc: BaseException) -> str:
    """One line for a player on why reaching the host failed (one of CONNECT_FAILURES). trio
    says nothing in a timeout's or a broken stream's own text: the cause behind them is what
    tells a wrong port from a host that speaks no TLS."""
    if isinstance(exc, trio.TooSlowError):
        return "no answer in time (a firewall, or not a unonet host?)"
    cause = exc.__cause__ if isinstance(exc, trio.BrokenResourceError) else exc
    if isinstance(cause, ssl.SSLError):
        reason = cause.reason or cause.strerror or str(cause)
        return (f"the TLS handshake failed ({reason}): not a unonet host, or one started with "
                "--no-tls (then join with --no-tls too)")
    if isinstance(cause, OSError):
        # trio.open_tcp_stream's "all attempts to connect to H:P failed" says only that; why
        # (refused, unreachable) is in the group of each address's error behind it.
        tried = cause.__cause__
        if isinstance(tried, BaseExceptionGroup):
            reasons = [os.strerror(error.errno) if error.errno else str(error)
                       for error in tried.exceptions if isinstance(error, OSError)]
            if reasons:
                return ", ".join(dict.fromkeys(reasons))
        return cause.strerror or str(cause) or type(cause).__name__
    if isinstance(exc, trio.BrokenResourceError):
        return "the host closed the connection during the TLS handshake (not a unonet host?)"
    return str(exc) or type(exc).__name__


REFUSED = frozenset({errno.ECONNREFUSED})
UNREACHABLE = frozenset({errno.EHOSTUNREACH, errno.ENETUNREACH, errno.ENETDOWN,
                         errno.EHOSTDOWN, errno.EADDRNOTAVAIL})


def failure_code(exc: BaseException) -> str:
    """What kind of failure `connect_failure` words, as a code the screen says in the player's
    words (client.i18n `lost.<code>`): refused, unreachable, unknown_host, no_answer, not_tls;
    cannot_connect for any other."""
    if isinstance(exc, trio.TooSlowError):
        return "no_answer"
    cause = exc.__cause__ if isinstance(exc, trio.BrokenResourceError) else exc
    if isinstance(cause, ssl.SSLError) or isinstance(exc, trio.BrokenResourceError):
        return "not_tls"
    if isinstance(cause, socket.gaierror):
        return "unknown_host"
    if isinstance(cause, OSError):
        tried = cause.__cause__
        errors = ([e for e in tried.exceptions if isinstance(e, OSError)]
                  if isinstance(tried, BaseExceptionGroup) else [cause])
        numbers = {error.errno for error in errors}
        if numbers and numbers <= REFUSED:
            return "refused"
        if numbers and numbers <= REFUSED | UNREACHABLE:
            return "unreachable"
        if numbers & {errno.ETIMEDOUT}:
            return "no_answer"
    return "cannot_connect"


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
