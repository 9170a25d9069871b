"""One epoll set for the reads of every plain-TCP connection, waited on by one task.

With a task per connection, each read went through trio's own wait: the connection's task
parked, an `epoll_ctl` re-armed its socket (trio's registrations are one-shot), and the run
loop woke the task again. Here the sockets are registered once, level-triggered, in a set of
our own; one task waits until that set is readable (trio watches its descriptor like any
other) and hands each ready socket to its connection, which reads it and handles what came
without a task switch. Under load one wake serves every connection that sent something
meanwhile, and the host routes what they caused in one pass (`after`). benchmarks/host.py,
saturated, 3 repeats each in one session: 143 -> 131 us of host CPU per action with the
poller, 121 -> 112 (medians of 6) with the pass once per wake.

Linux only (`select.epoll`); elsewhere, and over TLS, each connection reads in its own task
as before (host/connection.py).
"""

from __future__ import annotations

import logging
import select
from collections.abc import Callable
from typing import Protocol

import trio

log = logging.getLogger("unonet.host.poller")

BATCH = 64
"""Ready sockets handled per wake at most before the other tasks run (writers, the tables'
clock): a burst of a thousand clients does not hold the event loop for all of them."""


class Readable(Protocol):
    def readable(self) -> None:
        """The socket has bytes (or its end) to read: read once and handle them. Never raises:
        a failure ends that connection, not the poller."""


class Poller:
    """The read side of many sockets, in one epoll set. `after`, if given, is called after
    each wake's reads with the readers that read (the host routes what they caused once
    for all of them: host/server.py)."""

    def __init__(self, after: Callable[[list[Readable]], None] | None = None) -> None:
        self._epoll = select.epoll()
        self._readers: dict[int, Readable] = {}
        self._after = after

    @staticmethod
    def available() -> bool:
        """Whether this system has epoll (Linux)."""
        return hasattr(select, "epoll")

    def __len__(self) -> int:
        return len(self._readers)

    def add(self, fd: int, reader: Readable) -> None:
        """Hand `fd`'s reads to `reader` until `remove` (always before the socket closes: its
        number may be reused at once)."""
        self._epoll.register(fd, select.EPOLLIN)
        self._readers[fd] = reader

    def remove(self, fd: int) -> None:
        if self._readers.pop(fd, None) is None:
            return
        try:
            self._epoll.unregister(fd)
        except (OSError, ValueError):  # closed already: the kernel dropped it from the set
            log.debug("fd %d was no longer registered", fd)

    def _serve_ready(self) -> None:
        """One wake's reads. A function of its own, so that nothing of them (the readers it
        served) is kept while the poller waits for the next wake: a connection that ended is
        freed at once."""
        served: list[Readable] = []
        for fd, _mask in self._epoll.poll(0, BATCH):
            reader = self._readers.get(fd)
            if reader is not None:
                reader.readable()
                served.append(reader)
        if self._after is not None and served:
            try:
                self._after(served)
            except Exception:  # a bug there must not stop every connection's reads
                log.exception("handling a batch of reads failed")

    async def run(self) -> None:
        """Serve reads until cancelled; the set is closed then."""
        epoll = self._epoll
        try:
            while True:
                await trio.lowlevel.wait_readable(epoll.fileno())
                self._serve_ready()
        finally:
            self._readers.clear()
            epoll.close()
