"""Who gets a connection slot, pure: per-address shares, the pool of connections still in their
handshake, the slots past `hello`, the reserve for resumes, and which idle squatter to drop.

The server tells an `Admission` what happens (a TCP accept, a hello, a request, a connection
gone) with the time as a plain number, and it answers which connections to drop; the server
does the closing. Nothing here reads a clock or touches a socket (SPEC.md 6, [UNO-6-9]).
"""

from __future__ import annotations

import ipaddress
from collections import Counter
from collections.abc import Container
from dataclasses import dataclass

from host.outgoing import ConnId
from host.settings import ConnectionLimits
from protocol.errors import Code

IPV6_SHARE_PREFIX = 64
"""An IPv6 address counts by its /64: one home or one server gets a /64 and may pick any
address in it, so counting single addresses would give one stranger 2^64 shares."""


def address_key(host: str) -> str:
    """The address a connection counts against: the IPv4 address itself (an IPv4-mapped IPv6
    address as its IPv4 form), an IPv6 address's /64; anything unparsable as itself."""
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, IPV6_SHARE_PREFIX), strict=False))
    return str(address)


@dataclass
class _Entry:
    address: str
    accepted: float  # TCP accept: the order of the pending pool
    active: float  # the last activity past hello (hello, request, intent, chat)
    admitted: bool = False


@dataclass(frozen=True)
class Verdict:
    """The answer to a hello: admitted (after dropping `drop`, squatters), or refused."""

    admitted: bool
    drop: tuple[ConnId, ...] = ()
    code: str = ""
    msg: str = ""


class Admission:
    """The connection slots of one host (limits: host/settings.py ConnectionLimits)."""

    def __init__(self, limits: ConnectionLimits) -> None:
        self.limits = limits
        self._entries: dict[ConnId, _Entry] = {}
        self._pending: dict[ConnId, None] = {}  # in accept order (dicts keep insertion order)
        self._admitted = 0
        self._by_address: Counter[str] = Counter()  # admitted connections per address

    # -- what happens ------------------------------------------------------------------------

    def accept(self, conn: ConnId, address: str, now: float) -> list[ConnId]:
        """A TCP connection accepted from `address` (an `address_key`): it waits in the pending
        pool until its hello. Returns the pending connections to drop to make room: when the
        pool is full, the oldest of the address holding the most, never `conn` itself."""
        self._entries[conn] = _Entry(address, now, now)
        self._pending[conn] = None
        drop: list[ConnId] = []
        while len(self._pending) > self.limits.pending_pool:
            victim = self._pending_victim(conn)
            if victim is None:
                break
            self.gone(victim)
            drop.append(victim)
        return drop

    def hello(self, conn: ConnId, now: float, *, resume: bool,
              seated: Container[ConnId]) -> Verdict:
        """A valid hello on `conn`: admit it (maybe dropping idle squatters first) or refuse
        it. `resume` is true for a hello whose token names a seat: it is not held to its
        address's share and may take the reserved slots. `seated` holds the connections at a
        table (never squatters)."""
        entry = self._entries.get(conn)
        if entry is None or entry.admitted:
            return Verdict(False, code=Code.SERVER_FULL, msg="connection not known")
        self._pending.pop(conn, None)
        self._refresh(seated, now)
        drop: list[ConnId] = []
        if not resume and self._by_address[entry.address] >= self.limits.per_address:
            squatter = self._squatter(now, seated, entry.address)
            if squatter is None:
                return self._refused(conn, f"your address has {self.limits.per_address} "
                                           "connections, its share of this host")
            drop.append(squatter)
        room = self.limits.max_connections - (0 if resume else self.limits.resume_reserve)
        if self._admitted - len(drop) >= room:
            squatter = self._squatter(now, seated, None, exclude=drop)
            if squatter is None:
                count = self._admitted
                return self._refused(conn, f"the host is full ({count} connection"
                                           f"{'' if count == 1 else 's'}, none idle for long "
                                           "enough to make room)")
            drop.append(squatter)
        for victim in drop:
            self.gone(victim)
        entry.admitted = True
        entry.active = now
        self._admitted += 1
        self._by_address[entry.address] += 1
        return Verdict(True, tuple(drop))

    def active(self, conn: ConnId, now: float) -> None:
        """`conn` made a request (but list_tables), an intent or a chat: not a squatter."""
        entry = self._entries.get(conn)
        if entry is not None:
            entry.active = max(entry.active, now)

    def gone(self, conn: ConnId) -> None:
        """`conn` is closed (or being dropped): its slot is free. Idempotent."""
        entry = self._entries.pop(conn, None)
        if entry is None:
            return
        self._pending.pop(conn, None)
        if entry.admitted:
            self._admitted -= 1
            self._by_address[entry.address] -= 1
            if self._by_address[entry.address] <= 0:
                del self._by_address[entry.address]

    def sweep(self, now: float, seated: Container[ConnId]) -> list[ConnId]:
        """The connections idle at no table for `lobby_idle` (to close as idle_timeout); the
        seated ones count as active now, so that leaving a table starts their lobby time."""
        self._refresh(seated, now)
        bound = self.limits.lobby_idle
        return [conn for conn, entry in self._entries.items()
                if entry.admitted and now - entry.active >= bound]

    # -- what it holds -----------------------------------------------------------------------

    @property
    def pending(self) -> int:
        return len(self._pending)

    @property
    def admitted(self) -> int:
        return self._admitted

    def sizes(self) -> dict[str, int]:
        """The size of every structure, for tests and the soak benchmark."""
        return {"entries": len(self._entries), "pending": len(self._pending),
                "addresses": len(self._by_address)}

    # -- choices -----------------------------------------------------------------------------

    def _pending_victim(self, newcomer: ConnId) -> ConnId | None:
        counts = Counter(self._entries[c].address for c in self._pending if c != newcomer)
        if not counts:
            return None
        most = max(counts.values())
        # The first pending connection (the oldest) of an address holding the most.
        return next(c for c in self._pending
                    if c != newcomer and counts[self._entries[c].address] == most)

    def _squatter(self, now: float, seated: Container[ConnId], address: str | None,
                  exclude: list[ConnId] | None = None) -> ConnId | None:
        """The connection idle at no table the longest, past `squat_after` (of `address`
        only, if given)."""
        best: tuple[float, ConnId] | None = None
        for conn, entry in self._entries.items():
            if (not entry.admitted or conn in seated or (exclude and conn in exclude)
                    or (address is not None and entry.address != address)
                    or now - entry.active < self.limits.squat_after):
                continue
            if best is None or (entry.active, conn) < best:
                best = (entry.active, conn)
        return None if best is None else best[1]

    def _refresh(self, seated: Container[ConnId], now: float) -> None:
        for conn, entry in self._entries.items():
            if entry.admitted and conn in seated:
                entry.active = now

    def _refused(self, conn: ConnId, msg: str) -> Verdict:
        self.gone(conn)
        return Verdict(False, code=Code.SERVER_FULL, msg=msg)
