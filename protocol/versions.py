"""Version negotiation (SPEC.md section 6): the client offers, the host picks.

A version is one integer, the major version; within it every change is additive, so there is
nothing finer to negotiate. Optional extensions are named `features` instead.
"""

from __future__ import annotations

from collections.abc import Iterable

from protocol.errors import Code, ProtocolError

PROTOCOL_VERSION = 1
SUPPORTED_VERSIONS: tuple[int, ...] = (1,)
"""Versions this implementation speaks, oldest first."""

ALPN = "uno/1"
"""The TLS ALPN protocol id (SPEC.md section 3); it names the framing, not the version."""

DEFAULT_PORT = 7077


def negotiate(offered: Iterable[int], supported: Iterable[int] = SUPPORTED_VERSIONS) -> int:
    """The highest version both sides speak.

    Raises ProtocolError(unsupported_version, fatal) when there is none; the host then sends
    `error{code: "unsupported_version", supported: [...]}` and closes.
    """
    offered, supported = list(offered), list(supported)
    common = set(offered) & set(supported)
    if not common:
        raise ProtocolError(
            Code.UNSUPPORTED_VERSION,
            f"no common version: offered {sorted(set(offered))}, supported {sorted(supported)}",
            details={"supported": sorted(set(supported))},
        )
    return max(common)


def common_features(offered: Iterable[str], supported: Iterable[str]) -> list[str]:
    """Features both sides support, in a stable order (the host's welcome lists these)."""
    return sorted(set(offered) & set(supported))
