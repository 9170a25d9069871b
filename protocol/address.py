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


def port_of(text: str) -> int:
    """A port as typed (`unonet join HOST:PORT`, `unonet host --port`), else ValueError in the
    same words for both commands."""
    if not text.isdigit():
        raise ValueError(f"{text!r} is not a port number ({LOWEST_PORT} to {HIGHEST_PORT})")
    port = int(text)
    if not LOWEST_PORT <= port <= HIGHEST_PORT:
        raise ValueError(f"{port} is not a port ({LOWEST_PORT} to {HIGHEST_PORT})")
    return port
