"""Trust on first use, as SSH does: the fingerprint each host:port showed first, remembered.

The file is `known_hosts` in the unonet config dir ($UNONET_HOME, else $XDG_CONFIG_HOME/unonet,
else ~/.config/unonet), one `host:port hex-sha256` line per address, `#` for comments. The full
32 bytes are kept (crypto-protocol.md B4), whatever prefix the user typed. A fingerprint that
differs from the remembered one is never overwritten silently: the link refuses it and the
player is told as loudly as ssh does (client.host_key), and only an explicit `--fingerprint`
replaces the line.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from client.shared_file import locked, replace_text
from protocol.address import host_port

FILE_NAME = "known_hosts"
HEADER = "# unonet known hosts: host:port, then SHA-256 of the host's certificate (hex)\n"


def config_dir() -> Path:
    """$UNONET_HOME, else $XDG_CONFIG_HOME/unonet, else ~/.config/unonet (not created here).

    The host keeps the same rule in host/config.py; client and host never import each other.
    """
    explicit = os.environ.get("UNONET_HOME")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CONFIG_HOME")
    return (Path(xdg) if xdg else Path.home() / ".config") / "unonet"


def address_key(host: str, port: int) -> str:
    """`host:port`, with IPv6 literals in brackets so the colon stays unambiguous."""
    return host_port(host.lower(), port)


class Seen(Enum):
    NEW = "new"  # never met: show the fingerprint, ask, remember
    KNOWN = "known"  # the remembered fingerprint
    CHANGED = "changed"  # a different one: refuse, warn


@dataclass(frozen=True)
class Check:
    seen: Seen
    remembered: bytes | None


class KnownHosts:
    """The known_hosts file; reads it on each call so two clients do not fight over a cache."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path if path is not None else config_dir() / FILE_NAME

    def entries(self) -> dict[str, bytes]:
        """Every remembered address; lines that do not parse are skipped, not fatal."""
        try:
            text = self.path.read_text(encoding="utf-8", errors="replace")  # a bad line is skipped
        except FileNotFoundError:
            return {}
        found: dict[str, bytes] = {}
        for line in text.splitlines():
            parts = line.split()
            if len(parts) != 2 or parts[0].startswith("#"):
                continue
            try:
                digest = bytes.fromhex(parts[1])
            except ValueError:
                continue
            if len(digest) == 32:
                found[parts[0]] = digest
        return found

    def lookup(self, host: str, port: int) -> bytes | None:
        return self.entries().get(address_key(host, port))

    def check(self, host: str, port: int, digest: bytes) -> Check:
        remembered = self.lookup(host, port)
        if remembered is None:
            return Check(Seen.NEW, None)
        return Check(Seen.KNOWN if remembered == digest else Seen.CHANGED, remembered)

    def remember(self, host: str, port: int, digest: bytes) -> None:
        """Record (or, on an explicit pin, replace) the address's fingerprint, atomically."""
        if len(digest) != 32:
            raise ValueError("a fingerprint is 32 bytes (SHA-256)")
        key = address_key(host, port)
        with locked(self.path):  # another client of this user may be remembering a host too
            entries = self.entries()
            entries[key] = digest
            replace_text(self.path, HEADER + "".join(f"{k} {v.hex()}\n"
                                                     for k, v in sorted(entries.items())))
