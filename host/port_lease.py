"""The router's mapping of the host's port, held in the host's trio run: asked for beside the
host starting (never before it: the host listens at once, and a router that does not answer
costs nothing but a line), renewed while the host runs, removed however it stops.

Every call to the router is a blocking miniupnpc call (host/igd.py), made in a worker thread
inside a cancel scope with a deadline. The mapping is removed in a shielded scope when the host
stops by its own hand (q, Ctrl-C, a failure that ends the host's run), and on SIGTERM and
SIGHUP (a service manager, a closed terminal) before the signal ends the process as it would
have. Only kill -9 and a power cut leave it behind: then the lease lapses (portmap.LEASE_SECONDS),
and the next host on this machine takes the mapping over rather than find its port taken.
"""

from __future__ import annotations

import logging
import os
import signal
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

import trio

from host.igd import PortMapper
from host.portmap import (
    DEADLINE,
    REMOVE_DEADLINE,
    RENEW_EVERY,
    Mapped,
    NotMapped,
    Outcome,
    RouterReport,
    Why,
    router_line,
)

log = logging.getLogger("unonet.host.router")
T = TypeVar("T")

STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP)
"""The signals that end a host without a word from it (a service manager's stop, the terminal
closed): the mapping is removed first. SIGINT is Ctrl-C, which trio turns into
KeyboardInterrupt: the host stops by its own hand then, and the mapping goes as it ends."""


@dataclass
class RouterNews:
    """What the router said last about the host's port (None: not yet), an event set once it
    has first answered (or the deadline passed), and, once the host stopped, whether the
    mapping it made was removed (None: it made none, or has not stopped)."""

    outcome: Outcome | None = None
    answered: trio.Event = field(default_factory=trio.Event)
    removed: bool | None = None

    def heard(self, outcome: Outcome) -> None:
        self.outcome = outcome
        self.answered.set()

    @property
    def mapped(self) -> Mapped | None:
        return self.outcome if isinstance(self.outcome, Mapped) else None


async def in_thread(call: Callable[[], T], deadline: float) -> T | None:
    """`call()` in a worker thread, or None if it has not returned within `deadline` seconds
    (the thread is left to finish on its own: PortMapper's lock and stop flag keep it from
    leaving a mapping behind)."""
    with trio.move_on_after(deadline):
        return await trio.to_thread.run_sync(call, abandon_on_cancel=True)
    return None


async def remove_mapping(mapper: PortMapper) -> bool:
    """Remove the mapping, even from a cancelled task, giving the router REMOVE_DEADLINE."""
    had = mapper.holding
    with trio.CancelScope(shield=True):
        removed = await in_thread(mapper.remove, REMOVE_DEADLINE)
    if removed and had:
        log.info("router: the mapping of port %d is removed", mapper.port)
    elif not removed:
        log.warning("router: could not remove the mapping of port %d; it lapses by itself",
                    mapper.port)
    return bool(removed)


async def hold_port_mapping(
    mapper: PortMapper, news: RouterNews, told: Callable[[], None], *, lan_hint: str | None,
    deadline: float = DEADLINE, renew_every: float = RENEW_EVERY,
) -> None:
    """Ask the router for the port (within `deadline`), put its answer in `news` and call
    `told`, then keep renewing the lease until cancelled (the same when the mapping is lost or
    back); remove it on the way out, whatever the way out is."""
    made = False
    try:
        outcome = await in_thread(lambda: mapper.map(lan_hint), deadline)
        if outcome is None:
            outcome = NotMapped(Why.NO_ROUTER, mapper.port, lan_hint)
        log.info("%s", router_line(outcome, deadline))
        made = isinstance(outcome, Mapped)
        news.heard(outcome)
        told()
        if not isinstance(outcome, Mapped):
            return
        async with trio.open_nursery() as nursery:
            nursery.start_soon(remove_on_signals, mapper)
            last: Outcome = outcome
            while True:
                await trio.sleep(renew_every)
                renewed = await in_thread(lambda: mapper.map(lan_hint), deadline)
                if renewed is None:
                    renewed = NotMapped(Why.FAILED, mapper.port, lan_hint,
                                        said=f"no answer within {deadline:g} s")
                if isinstance(renewed, Mapped) != isinstance(last, Mapped):
                    log.info("%s", router_line(renewed, deadline))
                    news.heard(renewed)
                    told()
                last = renewed
    finally:
        removed = await remove_mapping(mapper)
        if made:
            news.removed = removed


async def remove_on_signals(mapper: PortMapper) -> None:
    """On SIGTERM or SIGHUP: remove the mapping, then let the signal end the process as it
    would have without us. Only the main thread may take signals; elsewhere (a host run in a
    thread) this says so in the log and does nothing."""
    if threading.current_thread() is not threading.main_thread():
        log.info("router: not in the main thread, so SIGTERM does not remove the mapping")
        return
    with trio.open_signal_receiver(*STOP_SIGNALS) as received:
        async for signum in received:
            log.info("router: %s, removing the mapping before stopping",
                     signal.Signals(signum).name)
            await remove_mapping(mapper)
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)


async def check_router(port: int, lan_hint: str | None,
                       deadline: float = DEADLINE) -> RouterReport | NotMapped:
    """`unonet host --check`: what the router says about itself and `port`, within `deadline`
    (a NotMapped when none answered; `lan_hint`: this machine's address, for its advice)."""
    mapper = PortMapper(port)
    report = await in_thread(lambda: mapper.check(lan_hint), deadline)
    return report if report is not None else NotMapped(Why.NO_ROUTER, port, lan_hint)
