"""Port mapping for a host behind a home router: what the router said, what to do about it,
and the one line that tells the person hosting. Sans-IO: no sockets, threads or trio here.

A friend outside the host's network reaches it only if the router forwards the host's port to
it. Most home routers do that on request (UPnP IGD); host/igd.py asks through miniupnpc (the
reference IGD client) and host/port_lease.py holds the lease in the host's trio run. This
module decides between what the router reported (`judge`), holds the outcomes as values
(`Mapped`, `NotMapped`), and words each outcome as one line (`router_line`) that names what to
do when the router says no: forward the port by hand. Its words are the terminal's language
(host/host_words.py); the log's are English.
"""

from __future__ import annotations

import enum
import ipaddress
import unicodedata
from dataclasses import dataclass
from typing import Final
from urllib.parse import urlsplit

from host.host_words import host_words
from protocol.text import REFUSED_CATEGORIES

DESCRIPTION: Final = "unonet host"
"""The description a mapping of ours carries on the router: how the next host on this machine
knows a mapping left by a host that was killed (kill -9, a power cut) as its own, and takes
it over instead of calling the port taken."""

PROTOCOL: Final = "TCP"

SSDP_WAIT_MS: Final = 1000
"""How long discovery listens for routers' answers to each of its multicast searches
(miniupnpc sends four: two IGD versions, the WAN device, any root device, and waits this long
after each that found nothing; a router found by the first ends the wait). miniupnpc's own
command waits 2000 ms; a home router answers its LAN within a few hundred, so with no router
at all the line saying so comes after 4 s, not 8."""

DEADLINE: Final = 5.0
"""Seconds for the whole attempt: discovery (4 x SSDP_WAIT_MS at worst), then four short
requests to the router (its description, the address, the port's current mapping, the
mapping). Past it the host says that no router answered in time, rather than wait on a router
that hangs; the host serves its LAN all the while (it listens first)."""

LEASE_SECONDS: Final = 1800
"""How long the router keeps the mapping unless it is renewed: a host killed without removing
it (kill -9, a power cut) leaves the port open at most this long. Half an hour: short enough
for that, long enough that a missed renewal or two changes nothing."""

RENEW_EVERY: Final = LEASE_SECONDS / 3
"""The lease is asked again this often while the host runs, so two renewals can fail (a router
busy or rebooting) before it lapses."""

REMOVE_DEADLINE: Final = 3.0
"""Seconds a stopping host gives the router to remove the mapping: enough for one request on a
LAN; a router that does not answer by then lets the lease lapse (LEASE_SECONDS)."""

ROUTER_TEXT_CHARS: Final = 60
"""The most of any text the router chose (an error's words, another mapping's description)
that a line quotes: a router is a device on the network, not a trusted author of our lines."""


class Why(enum.Enum):
    """Why no mapping is in place, each with its own advice in `router_line`."""

    NO_ROUTER = "no_router"  # nothing answered the search within the deadline
    NO_PUBLIC = "no_public"  # the router's internet address is private or unknown (CGNAT)
    TAKEN = "taken"  # the port is mapped already, to another machine or program
    REFUSED = "refused"  # the router said no (not authorized, a conflict, UPnP off)
    FAILED = "failed"  # anything else: the router stopped answering, the library is missing


@dataclass(frozen=True)
class Existing:
    """A mapping the router holds for the port already: where it leads, and its description."""

    client: str
    port: int
    description: str
    lease: int = 0
    """Seconds left (0: until removed)."""

    def ours(self, lan: str, port: int) -> bool:
        """A host of this machine on this port made it (an earlier one, killed, left it)."""
        return (self.client == lan and self.port == port
                and self.description.startswith(DESCRIPTION))


@dataclass(frozen=True)
class Mapped:
    """The router forwards `port` of its internet address `public` to `lan`, this machine."""

    port: int
    public: str
    lan: str
    router: str
    lease: int = LEASE_SECONDS
    replaced: bool = False
    """A mapping of ours was there already (a killed host's): it was taken over, not doubled."""


@dataclass(frozen=True)
class NotMapped:
    """No mapping of `port` is in place, and why; `lan`: this machine's address on the router's
    network (None: unknown), `router`: the router's address (None: none answered), `said`: the
    router's words (an error, another mapping's description), `holder`: where the port leads
    when it is taken."""

    why: Why
    port: int
    lan: str | None = None
    router: str | None = None
    said: str = ""
    public: str = ""
    holder: Existing | None = None


Outcome = Mapped | NotMapped


@dataclass(frozen=True)
class Take:
    """`judge`'s verdict that the mapping may be made; `replacing`: over one of ours."""

    replacing: bool


def is_public(address: str) -> bool:
    """Whether friends on the internet can reach `address`: a global unicast address, not a
    private one, nor carrier-grade NAT's shared 100.64.0.0/10, nor empty or 0.0.0.0 (what a
    router says when it has none)."""
    try:
        ip = ipaddress.ip_address(address.strip())
    except ValueError:
        return False
    return ip.is_global and not ip.is_multicast


def judge(port: int, lan: str, public: str, existing: Existing | None) -> Take | NotMapped:
    """What to do with what the router said: make the mapping (over one of ours, if a killed
    host left it), or why not. No public address comes first: a mapping then reaches nobody."""
    if not is_public(public):
        return NotMapped(Why.NO_PUBLIC, port, lan, public=public)
    if existing is None:
        return Take(replacing=False)
    if existing.ours(lan, port):
        return Take(replacing=True)
    return NotMapped(Why.TAKEN, port, lan, holder=existing)


def refusal(port: int, lan: str, said: str) -> NotMapped:
    """A request to map the port that the router answered with an error (its words in `said`):
    a conflict means the port is taken (by a mapping the router would not show us)."""
    if "conflict" in said.lower():
        return NotMapped(Why.TAKEN, port, lan, said=said)
    return NotMapped(Why.REFUSED, port, lan, said=said)


def router_address(control_url: str) -> str:
    """The router's address from the URL it is controlled at ("http://10.0.0.1:5000/ctl")."""
    host = urlsplit(control_url).hostname
    return host or ""


def quoted(text: str) -> str:
    """Text a router chose, as a line may quote it: controls and format characters (an ESC
    that would drive the terminal, a bidi override) replaced by '?', at most
    ROUTER_TEXT_CHARS."""
    clean = "".join("?" if unicodedata.category(char) in REFUSED_CATEGORIES else char
                    for char in text[:ROUTER_TEXT_CHARS * 2])
    clean = " ".join(clean.split())
    if len(clean) > ROUTER_TEXT_CHARS:
        clean = clean[:ROUTER_TEXT_CHARS - 3] + "..."
    return clean


def by_hand(port: int, lan: str | None, lang: str = "en") -> str:
    """The advice when no mapping can be made: the one thing to do on the router's own page."""
    target = lan or host_words(lang, "this_machine")
    return host_words(lang, "by_hand", port=port, target=target)


def other_port(port: int) -> int:
    """A port to suggest when `port` is taken on the router: the next one."""
    return port + 1 if port < 65535 else port - 1


def router_line(outcome: Outcome, deadline: float = DEADLINE, lang: str = "en") -> str:
    """The one line the person hosting reads about the router: what it did, or why not and
    what to do instead, in `lang` (the log's is English); at most a chat line long."""
    if isinstance(outcome, Mapped):
        return host_words(lang, "router_mapped", port=outcome.port, public=outcome.public,
                          lan=outcome.lan, router=outcome.router,
                          over=host_words(lang, "router_taken_over") if outcome.replaced else "")
    port, lan = outcome.port, outcome.lan
    router = (host_words(lang, "router_at", router=outcome.router) if outcome.router
              else host_words(lang, "router_the"))
    said = f" ({quoted(outcome.said)})" if outcome.said else ""
    hand = by_hand(port, lan, lang)
    if outcome.why is Why.NO_ROUTER:
        return host_words(lang, "router_none", deadline=f"{deadline:g}", by_hand=hand)
    if outcome.why is Why.NO_PUBLIC:
        has = (host_words(lang, "public_not", public=quoted(outcome.public))
               if outcome.public and outcome.public != "0.0.0.0"
               else host_words(lang, "public_none"))
        return host_words(lang, "router_no_public", router=router, port=port, has=has)
    if outcome.why is Why.TAKEN:
        return host_words(lang, "router_taken", port=port, router=router,
                          where=taken_where(outcome, said, lang), other=other_port(port))
    if outcome.why is Why.REFUSED:
        return host_words(lang, "router_refused", router=router, port=port, said=said,
                          by_hand=hand)
    return host_words(lang, "router_failed", router=router, port=port, said=said, by_hand=hand)


def taken_where(outcome: NotMapped, said: str, lang: str) -> str:
    """Where the port the router has mapped already leads, in words."""
    holder = outcome.holder
    if holder is None:
        return host_words(lang, "taken_said", said=said)
    description = quoted(holder.description) or host_words(lang, "no_description")
    if holder.client == outcome.lan:
        return host_words(lang, "taken_here", port=holder.port, description=description)
    return host_words(lang, "taken_other", client=quoted(holder.client),
                      description=description)


@dataclass(frozen=True)
class RouterReport:
    """What `unonet host --check` shows: what the router said about itself and the port, as it
    said it (`status`, `connection` and `public` may be "? (its error)")."""

    router: str
    control_url: str
    lan: str
    public: str
    status: str
    connection: str
    existing: Existing | None


def check_lines(port: int, report: RouterReport | NotMapped,
                lang: str = "en") -> tuple[list[str], bool]:
    """`unonet host --check` in words of `lang`: what the router said, and whether the port is
    forwarded to this machine from a public address (the second value: friends outside can
    then join)."""
    if isinstance(report, NotMapped):
        return [router_line(report, lang=lang)], False
    public = is_public(report.public)
    lines = [host_words(lang, "check_answered", router=report.router,
                        url=quoted(report.control_url), lan=report.lan),
             host_words(lang, "check_connection", status=quoted(report.status),
                        connection=quoted(report.connection),
                        public=quoted(report.public) or host_words(lang, "check_no_address"),
                        is_public=host_words(lang, "check_public") if public else "")]
    existing = report.existing
    if not public:
        lines.append(router_line(NotMapped(Why.NO_PUBLIC, port, report.lan, report.router,
                                           public=report.public), lang=lang))
    if existing is None:
        lines.append(host_words(lang, "check_not_forwarded", port=port))
        return lines, False
    lease = (host_words(lang, "lease_left", seconds=existing.lease) if existing.lease
             else host_words(lang, "lease_forever"))
    where = (f"{quoted(existing.client)}:{existing.port} ("
             f"{quoted(existing.description) or host_words(lang, 'no_description')}{lease})")
    if existing.client != report.lan or existing.port != port:
        lines.append(host_words(lang, "check_elsewhere", port=port, where=where,
                                other=other_port(port)))
        return lines, False
    if not public:
        lines.append(host_words(lang, "check_not_public", port=port, where=where))
        return lines, False
    lines.append(host_words(lang, "check_forwarded", port=port, where=where,
                            address=f"{report.public}:{port}"))
    return lines, True
