"""The host's timings and per-connection limits; each says why it is what it is. Tests and the
benchmark pass other values."""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from typing import Any, Final

from protocol.limits import (
    HANDSHAKE_DEADLINE,
    IDLE_CUTOFF,
    OUTGOING_QUEUE_FRAMES,
    PING_INTERVAL,
    RATE_BURST,
    RATE_PER_SECOND,
    SEND_DEADLINE,
)
from unonet.bot_settings import DEFAULT_BUDGET, HUMAN_REACTION, SearchBudget

MAX_CONNECTIONS: Final = 64
"""Connections past `hello` by default (players of a few tables plus spectators, with room to
spare); each costs a queue of `queue_frames` frames and a 64 KiB receive buffer at most, so the
cap bounds memory. Connections still in their handshake are counted apart (`pending_pool`), so
half-open sockets never take a player's slot. A club's server raises it (--max-connections)."""

MAX_CONNECTIONS_CEILING: Final = 16_384
"""The most --max-connections accepts: at a 64 KiB receive buffer and a full outgoing queue
each, past this one process's worst case is gigabytes, and one trio process serves far fewer
players than this at a human pace before its one core is the limit."""

JOURNAL_SYNC_LONGEST_MS: Final = 60_000
"""The longest --journal-sync interval: a power cut may lose that much play, and a minute of
moves is already more than players would want to see go; past it, play without a journal is
what is asked for, and that is not offered."""

PER_ADDRESS: Final = 8
"""Connections past `hello` one address may hold by default (IPv4: the address, IPv6: its
/64), not counting resumes: a household or a LAN party behind one NAT fits, one stranger cannot
take more than an eighth of MAX_CONNECTIONS. A club whose members share one NAT raises it
(--per-address)."""

RESUME_RESERVE: Final = 8
"""The last slots of `max_connections`, kept for `hello.resume`: a dropped player can take its
seat back however full the host is with newcomers (a resume needs a token that names a seat,
so these slots are bounded by the seats in play). --max-connections must leave room above it."""


@dataclass(frozen=True)
class TableTimings:
    grace: float = 30.0
    """How long a dropped player's seat waits before a bot plays its turns: long enough for a
    Wi-Fi hiccup or a client restart, short enough that the table is not held hostage."""

    challenge_decision: float = 20.0
    """Time to decide whether to challenge a Wild Draw Four when the rules set no think_time:
    the game cannot wait forever on one seat; expiry accepts the +4 (RULEBOOK.md 1.6 default)."""

    seed_phase: float = 10.0
    """Each of the seed commit and reveal phases (crypto-protocol.md E3: 10-15 s); an absent
    seed counts as zeros, which cannot bias the deck."""

    bot_delay: float = 0.8
    """An in-process bot's think time: humans can follow what it does."""

    bot_search: SearchBudget = DEFAULT_BUDGET
    """How long a strong bot thinks per decision (unonet.bots.strong): its search runs in
    slices inside the host's loop (host/bots.py THINK_SLICE), after `bot_delay`."""

    jump_in_wait: float = 3.0
    """The least a bot whose turn it is waits while a player at the table holds a card that may
    jump in (RULEBOOK.md section 6): a person sees the card land, finds the key and presses it
    in one to two seconds; the bots' 0.8 s closed every window first (found in tmux: in three
    minutes not one jump-in landed). Only then: a turn with no jump-in open is not slowed."""

    bot_reaction: tuple[float, float] = HUMAN_REACTION
    """The range of a stand-in bot's reaction time in a race, drawn for each chance from the
    table's seeded stream (why this range: unonet.bots.base.HUMAN_REACTION)."""

    round_break: float = 4.0
    """Pause between rounds, so players read the scores before the next deal."""

    ready_wait: float = 60.0
    """The longest a player holding the next round (ready false after a round) can hold it:
    everyone reads the scores at their pace, nobody keeps the table waiting for ever."""

    match_break: float = 15.0
    """Pause before a headless table starts its next match."""


FAST_TIMINGS = TableTimings(grace=5.0, challenge_decision=5.0, seed_phase=2.0, bot_delay=0.0,
                            jump_in_wait=0.0,
                            bot_reaction=(0.0, 0.0), round_break=0.0, match_break=0.0,
                            ready_wait=5.0)
"""For tests and benchmarks: the game never waits on purpose."""


@dataclass(frozen=True)
class ConnectionLimits:
    """What the host enforces on each connection (SPEC.md 13); `welcome.limits` announces the
    rate, burst and keepalive values actually in force, so clients can pace themselves."""

    rate: float = RATE_PER_SECOND
    """Sustained frames per second from one client. A person sends a few; a network bot with
    its default think time about 20 (two frames per decision); 50 leaves headroom for both."""

    burst: int = RATE_BURST
    """Frames at once on top of the rate: a reconnect's requests and pongs come in a burst."""

    handshake_deadline: float = HANDSHAKE_DEADLINE
    """From TCP accept to a complete hello, TLS included: a silent socket costs nothing after."""

    ping_interval: float = PING_INTERVAL
    idle_cutoff: float = IDLE_CUTOFF

    queue_frames: int = OUTGOING_QUEUE_FRAMES
    """Outgoing frames queued per client before it is cut off as a slow consumer."""

    send_deadline: float = SEND_DEADLINE
    """One write's limit: a stalled TCP window cannot hold a writer task forever."""

    check_outgoing: bool = os.environ.get("UNONET_CHECK_OUTGOING", "") not in ("", "0")
    """Check every frame the host sends against the catalogue and the profile. What the host
    receives is always checked; what it sends is built by its own code from the engine's
    values, so the check only finds host bugs, at about half the cost of sending an event.
    Off in production; the tests turn it on (UNONET_CHECK_OUTGOING=1, tests/conftest.py)."""

    max_connections: int = MAX_CONNECTIONS
    """Connections past `hello` (`unonet host --max-connections`; why 64: MAX_CONNECTIONS)."""

    pending_pool: int = 32
    """Connections between TCP accept and a valid `hello` (TLS included). When the pool is
    full, a new connection pushes out the oldest pending one of the address holding the most
    of them, never the new one: a slowloris from one address only ever competes with itself,
    and a silent socket costs nothing once pushed out. 32 handshakes at once is far more than
    a game host sees from honest players, who finish theirs in milliseconds."""

    per_address: int = PER_ADDRESS
    """Connections past `hello` one address may hold, not counting resumes (`unonet host
    --per-address`; why 8: PER_ADDRESS)."""

    resume_reserve: int = RESUME_RESERVE
    """The last slots of `max_connections`, kept for `hello.resume` (why: RESUME_RESERVE)."""

    squat_after: float = 60.0
    """A connection past `hello`, at no table, that has made no request (but `list_tables`),
    intent or chat for this long is an idle squatter: when a `hello` finds the host (or its
    address's share) full, the squatter idle the longest is dropped (`server_full`) to make
    room. Pings and pongs are not activity: they only prove the socket is open."""

    lobby_idle: float = 600.0
    """A connection idle at no table for this long is closed (`idle_timeout`) even when the
    host is not full: ten minutes is long to choose a table; anything longer is a squatter."""

    lobby_sweep: float = 10.0
    """How often the server looks for connections past `lobby_idle` (and refreshes the
    activity of everyone at a table): the bound is kept to within this much."""

    alive_window: float = PING_INTERVAL + 5.0
    """A connection is alive while it has received a frame (a pong included) within this long
    and is not closing: one ping interval plus the time to answer it. A resume token is
    refused (`seat_in_use`) for a seat whose connection is alive (host/registry.py)."""

    def with_caps(self, max_connections: int, per_address: int) -> ConnectionLimits:
        """These limits with an operator's connection caps (`unonet host --max-connections
        --per-address`), checked: ValueError with the one line the operator reads."""
        if not self.resume_reserve < max_connections <= MAX_CONNECTIONS_CEILING:
            raise ValueError(f"--max-connections {max_connections}: from "
                             f"{self.resume_reserve + 1} (the last {self.resume_reserve} are "
                             f"kept for players resuming) to {MAX_CONNECTIONS_CEILING}")
        if not 1 <= per_address <= max_connections:
            raise ValueError(f"--per-address {per_address}: from 1 to --max-connections "
                             f"({max_connections})")
        return replace(self, max_connections=max_connections, per_address=per_address)

    def protocol_options(self) -> dict[str, Any]:
        """The keyword arguments of HostConnection that these limits set."""
        return {"rate": self.rate, "burst": self.burst,
                "handshake_deadline": self.handshake_deadline,
                "ping_interval": self.ping_interval, "idle_cutoff": self.idle_cutoff,
                "check_outgoing": self.check_outgoing}


BENCHMARK_LIMITS = ConnectionLimits(rate=1_000_000.0, burst=1_000_000, max_connections=4096,
                                    queue_frames=1024, pending_pool=4096, per_address=4096)
"""For load tests whose bots answer with no think time, all from one address: only the host's
CPU limits them."""
