"""The host process's garbage collector: small collections as usual, full ones rarely.

CPython's cyclic collector walks every object of the generation it collects. A full
collection of a host serving 1,000 players walks about 300,000 objects (trio's tasks, cancel
scopes and coroutines, each connection's protocol state, every table's round) and took 300 ms
of one core on our test machine, during which no table moves: benchmarks/host.py saw action
round trips of 230-380 ms at p99 from exactly that, four times in twenty seconds. The host
makes little cyclic garbage (its objects are freed by reference counting), so:

- what exists once the host is set up (modules, classes, functions: most of the objects a
  full collection walks) is moved out of the collector's sight (`gc.freeze`);
- the young generations keep CPython's thresholds (a collection of a few thousand objects
  costs a few milliseconds);
- a full collection runs after FULL_AFTER middle ones instead of after 10 (CPython's own
  25% rule still applies on top), a few minutes apart under load instead of seconds.

Process-wide state: `tuned_collector` sets it for as long as the host runs and puts back
what it found, so a host run inside another program (a test, `unonet play`) leaves that
program's collector as it was.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

YOUNG_THRESHOLD = 700
"""Allocations between collections of the youngest generation: CPython's default. 10,000
cost about 5% less CPU per action in benchmarks/host.py's saturate phase, but a young
collection then walks every waiting task's coroutines made since the last one (5-30 ms with
1,000 players), and the paced phase's p99 went from 18-39 ms to 43-80 ms (3 runs each)."""

MIDDLE_THRESHOLD = 10
"""Young collections between collections of the middle generation: CPython's default."""

FULL_AFTER = 1_000
"""Middle collections between full ones (CPython: 10). Under the benchmark's load the middle
generation is collected about twice a second, so a full collection comes every eight minutes
or so instead of every five seconds; cyclic garbage that reached the oldest generation (what
a closed connection leaves) waits that long, which benchmarks/soak.py shows keeps memory flat."""


@contextmanager
def tuned_collector() -> Iterator[None]:
    """Run the block with the host's collector settings; the previous ones after it."""
    previous = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, MIDDLE_THRESHOLD, FULL_AFTER)
    try:
        yield
    finally:
        gc.set_threshold(*previous)
        gc.unfreeze()
