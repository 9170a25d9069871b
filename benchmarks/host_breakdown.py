"""Where the benchmarked host's CPU goes: its tables' work, its routing and writes, the rest.

benchmarks/host.py's serve process wraps two methods of the host's trio shell (pure Python,
so they can be replaced on the class) with a clock read before and after each call:

- `ClientConnection._dispatch_all`: what a read's messages make the registry do (an intent
  applied, its events made and journalled; a seed taken and a round dealt), the tables' logic;
- `HostServer._route`: turning what the tables queued into every connection's frames and
  writing them (the system calls included), unless the journals' commit holds the writes;
  a dispatch may route (a read that both acts and is answered): that counts as routing only.

The rest of the process's CPU is reading and decoding, the event loop, the table clock, and
the journals' commits with the writes they held. On SIGUSR1 the process prints the totals so
far as one JSON line on its stdout; the benchmark asks at the start and the end of its window.
Both methods are synchronous (nothing in them awaits, and the sockets never block), and the
host has its core to itself in the window, so the wall clock between the two reads is the
CPU they took, the kernel's included. On a machine where other processes take the host's core
that no longer holds: the clock runs on while the host waits for the core, the parts can add
up to more than its CPU, and benchmarks/host.py says the breakdown is not usable then. The
clock is `time.perf_counter`, read from the vDSO (0.16 µs a read here, against 1.08 µs for
the thread's CPU clock, a system call that this module read before); an action makes about
2.3 wrapped calls (1.12 dispatches and 1.13 routings, counted in a saturated run), so the
timing adds about 1 µs to the host's CPU per action, where the thread's CPU clock added
about 5 µs.
"""

from __future__ import annotations

import json
import signal
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import trio

from host.connection import ClientConnection
from host.group_commit import GroupCommit
from host.server import HostServer
from protocol.host_connection import HostEvent


class Breakdown:
    """CPU seconds spent in the wrapped parts since `instrument`."""

    def __init__(self) -> None:
        self.tables = 0.0
        self.routing = 0.0
        self.group: GroupCommit | None = None
        """The served host's group commit, if set: its commits are counted too."""

    def snapshot(self) -> dict[str, float]:
        return {"cpu": time.process_time(), "tables": self.tables, "routing": self.routing,
                "commits": 0 if self.group is None else self.group.commits}


@contextmanager
def instrumented(clock: Callable[[], float] = time.perf_counter) -> Iterator[Breakdown]:
    """Wrap the two methods for the block (they are put back after it): their totals. A
    routing that a dispatch makes (a read that both acts and is answered) counts once, as
    routing, not in the tables' work around it too. `clock`: the wall clock, right when the
    host has its core to itself (the benchmark); the thread's CPU clock where it shares one
    (a test on a loaded machine), slower to read but never more than the process's CPU."""
    found = Breakdown()
    nested = 0  # dispatches under way: a routing inside one is taken off its total

    dispatch: Callable[[ClientConnection, list[HostEvent], bytes], None] = \
        ClientConnection._dispatch_all
    route: Callable[[HostServer], None] = HostServer._route

    def timed_dispatch(*args: Any) -> None:
        nonlocal nested
        start = clock()
        nested += 1
        try:
            dispatch(*args)
        finally:
            nested -= 1
            found.tables += clock() - start

    def timed_route(*args: Any) -> None:
        start = clock()
        try:
            route(*args)
        finally:
            spent = clock() - start
            found.routing += spent
            if nested:
                found.tables -= spent

    ClientConnection._dispatch_all = timed_dispatch  # type: ignore[method-assign,assignment]
    HostServer._route = timed_route  # type: ignore[method-assign,assignment]
    try:
        yield found
    finally:
        ClientConnection._dispatch_all = dispatch  # type: ignore[method-assign,assignment]
        HostServer._route = route  # type: ignore[method-assign,assignment]


async def report_on_signal(found: Breakdown) -> None:
    """Print `found.snapshot()` as a JSON line on stdout at each SIGUSR1, until cancelled."""
    with trio.open_signal_receiver(signal.SIGUSR1) as signals:
        async for _ in signals:
            print(json.dumps(found.snapshot()), file=sys.stdout, flush=True)


def per_action(before: dict[str, float], after: dict[str, float], actions: int
               ) -> dict[str, float]:
    """µs per action of each part between two snapshots, and of the rest; and how many
    actions each group commit of the journals carried (0: no journal)."""
    spent = {key: after[key] - before[key] for key in ("cpu", "tables", "routing", "commits")}
    scale = 1e6 / max(1, actions)
    return {"tables": spent["tables"] * scale, "routing": spent["routing"] * scale,
            "rest": (spent["cpu"] - spent["tables"] - spent["routing"]) * scale,
            "actions_per_commit": actions / spent["commits"] if spent["commits"] else 0.0}
