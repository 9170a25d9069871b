"""The home router, asked through miniupnpc (UPnP IGD): blocking calls, each made in a worker
thread by host/port_lease.py, one at a time under a lock.

miniupnpc is the reference IGD client (the same C library as the `upnpc` command and the
miniupnpd router daemon's own tests). Its Python module raises a bare Exception whose text is
the UPnP error ("ConflictInMappingEntry", "Action not authorized"); what those mean for the
person hosting is decided in host/portmap.py, not here.

NAT-PMP and PCP (the other two port-mapping protocols, from Apple routers and some recent
ones) are not asked: the Python libraries for them on PyPI speak NAT-PMP v0 only, find the
gateway by parsing `netstat` output and have not been kept up; a router that speaks PCP almost
always speaks UPnP IGD too.
"""

from __future__ import annotations

import threading
from typing import Any

from host.portmap import (
    DESCRIPTION,
    LEASE_SECONDS,
    PROTOCOL,
    SSDP_WAIT_MS,
    Existing,
    Mapped,
    NotMapped,
    Outcome,
    RouterReport,
    Why,
    judge,
    refusal,
    router_address,
)

PERMANENT_ONLY = "OnlyPermanentLeasesSupported"
"""An IGDv1 router's answer to a lease with a duration: it then gets 0 (until removed)."""


class RouterError(Exception):
    """The router (or the library) failed a request; the text is what it said."""


def _upnp() -> Any:
    """A fresh miniupnpc client, or RouterError if the library is not installed."""
    try:
        import miniupnpc
    except ImportError as exc:  # a platform without its wheel: said, not a traceback
        raise RouterError(f"the miniupnpc library is not installed: {exc}") from None
    client = miniupnpc.UPnP()
    client.discoverdelay = SSDP_WAIT_MS
    return client


class PortMapper:
    """One port's mapping on the router this machine's default route leads to. Blocking: each
    method runs in a worker thread; a lock keeps them one at a time, because a call abandoned
    at its deadline may still be running when the host stops and removes the mapping."""

    def __init__(self, port: int, lease: int = LEASE_SECONDS) -> None:
        self.port = port
        self.lease = lease
        self._lock = threading.Lock()
        self._client: Any = None
        self._lan: str | None = None
        self._control_url = ""
        self._holding = False
        self._stopped = threading.Event()

    @property
    def holding(self) -> bool:
        """Whether a mapping of ours may be in place (made, not yet removed)."""
        return self._holding

    def _find(self) -> Any:
        """The router's client (discovered now, or the one found before); LookupError if no
        router answers, RouterError if the library is missing."""
        if self._client is not None:
            return self._client
        client = _upnp()
        try:
            found = client.discover()
        except Exception:  # miniupnpc raises a bare Exception when nothing answers
            found = 0
        if not found:
            raise LookupError("no UPnP device answered")
        try:
            self._control_url = str(client.selectigd())
        except Exception as exc:
            raise LookupError(f"no internet gateway among the UPnP devices ({exc})") from None
        self._client = client
        self._lan = str(client.lanaddr)
        return client

    def _existing(self, client: Any) -> Existing | None:
        found = client.getspecificportmapping(self.port, PROTOCOL)  # None: none (or an error)
        if found is None:
            return None
        target, port, description, lease = found[0], found[1], found[2], found[4]
        return Existing(str(target), int(port), str(description), int(lease))

    def _add(self, client: Any, lan: str) -> int:
        """Ask for the mapping; the lease it got (0: permanent, for an IGDv1 router)."""
        try:
            client.addportmapping(self.port, PROTOCOL, lan, self.port, DESCRIPTION, "",
                                  self.lease)
            return self.lease
        except Exception as exc:
            if PERMANENT_ONLY not in str(exc):
                raise
        client.addportmapping(self.port, PROTOCOL, lan, self.port, DESCRIPTION, "", 0)
        return 0

    def map(self, lan_hint: str | None = None) -> Outcome:
        """Find the router, then map the port to this machine (taking over a mapping of ours
        left by a killed host), or say why not. Also renews: asked again, it re-adds the
        same mapping, which restarts its lease. `lan_hint`: this machine's address, for the
        advice when no router answers. Never raises: whatever fails is a NotMapped."""
        with self._lock:
            if self._stopped.is_set():
                return NotMapped(Why.FAILED, self.port, lan_hint, said="the host stopped")
            try:
                return self._map(lan_hint)
            except Exception as exc:  # the library's bare Exception, a dropped connection
                return NotMapped(Why.FAILED, self.port, self._lan or lan_hint,
                                 router_address(self._control_url) or None, said=str(exc))

    def _map(self, lan_hint: str | None) -> Outcome:
        try:
            client = self._find()
        except LookupError:
            return NotMapped(Why.NO_ROUTER, self.port, lan_hint)
        except RouterError as exc:
            return NotMapped(Why.FAILED, self.port, lan_hint, said=str(exc))
        lan = self._lan or lan_hint or "?"
        router = router_address(self._control_url)
        try:
            public = str(client.externalipaddress())
        except Exception:  # no address at all (miniupnpd behind carrier-grade NAT)
            public = ""
        verdict = judge(self.port, lan, public, self._existing(client))
        if isinstance(verdict, NotMapped):
            return _at(verdict, router)
        try:
            lease = self._add(client, lan)
        except Exception as exc:  # the router's refusal, in its words
            return _at(refusal(self.port, lan, str(exc)), router)
        self._holding = True
        if self._stopped.is_set():  # the host stopped while this call was on its way
            self._remove(client)
        return Mapped(self.port, public, lan, router, lease, verdict.replacing)

    def remove(self) -> bool:
        """Remove the mapping if it is still ours (another machine's, made since ours lapsed,
        is left alone); True if none of ours is left. No more mapping after this: a `map`
        still on its way removes what it makes."""
        self._stopped.set()
        with self._lock:
            if not self._holding or self._client is None:
                return True
            return self._remove(self._client)

    def _remove(self, client: Any) -> bool:
        try:
            existing = self._existing(client)
            if existing is not None and existing.ours(self._lan or "", self.port):
                client.deleteportmapping(self.port, PROTOCOL)
        except Exception:
            return False
        self._holding = False
        return True

    def check(self, lan_hint: str | None = None) -> RouterReport | NotMapped:
        """Ask the router what it knows (itself, its address, the port's mapping), changing
        nothing: `unonet host --check`."""
        with self._lock:
            try:
                client = self._find()
            except LookupError:
                return NotMapped(Why.NO_ROUTER, self.port, lan_hint)
            except RouterError as exc:
                return NotMapped(Why.FAILED, self.port, lan_hint, said=str(exc))
            url = self._control_url

            def asked(call: str) -> str:
                try:
                    said = getattr(client, call)()
                except Exception as exc:
                    return f"? ({exc})"
                return str(said[0] if isinstance(said, tuple) else said)

            return RouterReport(router_address(url), url, self._lan or "?",
                                asked("externalipaddress"), asked("statusinfo"),
                                asked("connectiontype"), self._existing(client))


def _at(outcome: NotMapped, router: str) -> NotMapped:
    return NotMapped(outcome.why, outcome.port, outcome.lan, router, outcome.said,
                     outcome.public, outcome.holder)
