"""How an address and its port are written: `host:port`, an IPv6 literal in brackets.

The one form every screen, log line and invite uses, and the one `unonet join` parses back
(a bare "::1:1" cannot say where the port starts)."""

from __future__ import annotations


def host_port(host: str, port: int) -> str:
    """`host:port`, an IPv6 literal (any host with a colon) in brackets."""
    host = host.strip("[]")
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
