"""How an address and its port are written: `host:port`, an IPv6 literal in brackets.

The one form every screen, log line and invite uses, and the one `unonet join` parses back
(a bare "::1:1" cannot say where the port starts)."""

from __future__ import annotations


def host_port(host: str, port: int) -> str:
    """`host:port`, an IPv6 literal (any host with a colon) in brackets."""
    host = host.strip("[]")
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


LOWEST_PORT = 1
HIGHEST_PORT = 65535
"""The TCP ports a host listens on and a client joins (`unonet host --port` also takes 0:
any free port, which the line to share then names)."""


class AddressError(ValueError):
    """An address or port as typed that is not one. The message is its English; `key` and
    `values` say what was wrong, for a command to say it in its user's language
    (unonet/cli_words.py has the words of each key)."""

    def __init__(self, message: str, key: str, **values: object) -> None:
        super().__init__(message)
        self.key = key
        self.values = values


def port_of(text: str) -> int:
    """A port as typed (`unonet join HOST:PORT`, `unonet host --port`), else AddressError in
    the same words for both commands."""
    if not text.isdigit():
        raise AddressError(f"{text!r} is not a port number ({LOWEST_PORT} to {HIGHEST_PORT})",
                           "port_word", text=repr(text), low=LOWEST_PORT, high=HIGHEST_PORT)
    port = int(text)
    if not LOWEST_PORT <= port <= HIGHEST_PORT:
        raise AddressError(f"{port} is not a port ({LOWEST_PORT} to {HIGHEST_PORT})",
                           "port_range", port=port, low=LOWEST_PORT, high=HIGHEST_PORT)
    return port
