"""The addresses friends can reach this machine at, for the join line `unonet host` shares.

A host listening on every interface does not know which of its addresses a friend can reach, and
"YOUR-ADDRESS" leaves the user to find out. This machine's own view is good enough on a LAN: the
address its default route leaves from (a UDP socket "connected" to a documentation address: no
packet is sent), then the others its name resolves to. Loopback comes last, for a friend on the
same machine, and only when there is nothing else.
"""

from __future__ import annotations

import ipaddress
import socket

PROBE_V4 = "192.0.2.1"
"""TEST-NET-1 (RFC 5737): routed like any remote address, never answered; nothing is sent."""
PROBE_V6 = "2001:db8::1"
"""The IPv6 documentation prefix (RFC 3849), for the same trick."""
MOST_ADDRESSES = 3
"""A join line names at most this many: more is noise, and the first is almost always right."""


def _route_source(family: socket.AddressFamily, probe: str) -> str | None:
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as udp:
            udp.connect((probe, 9))
            return str(udp.getsockname()[0])
    except OSError:  # no route of that family (offline, IPv4 only, ...)
        return None


def _name_addresses() -> list[str]:
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, proto=socket.IPPROTO_TCP)
    except OSError:
        return []
    return [str(info[4][0]) for info in infos]


def reachable(address: str) -> bool:
    """A unicast address another machine may use: not loopback, link-local or unspecified."""
    try:
        ip = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast)


def lan_addresses(bind: str | None) -> list[str]:
    """Where friends reach a host bound to `bind` (None or a wildcard: every interface),
    best first; loopback only when nothing else is known (or when bound to it)."""
    if bind and bind not in ("0.0.0.0", "::", "*"):
        return [bind]
    found: list[str] = []
    candidates = [_route_source(socket.AF_INET, PROBE_V4), *_name_addresses()]
    if bind == "::":
        candidates.insert(1, _route_source(socket.AF_INET6, PROBE_V6))
    for address in candidates:
        if address and reachable(address) and address not in found:
            found.append(address)
    return found[:MOST_ADDRESSES] or ["127.0.0.1"]


