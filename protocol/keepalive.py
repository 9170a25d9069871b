"""Keepalive timing, pure: when to ping a quiet peer and when to give up on it (SPEC.md 13).

Both sides use it the same way: `received(now)` for every frame that arrives, `due(now)` from
the driver's timer, `next_deadline()` to know when to wake up next.
"""

from __future__ import annotations

from enum import Enum

from protocol.limits import IDLE_CUTOFF, PING_INTERVAL


class Due(Enum):
    NOTHING = "nothing"
    PING = "ping"  # send ping{n} now
    CUT = "cut"  # the peer is gone: error{idle_timeout} and close


class Keepalive:
    def __init__(
        self, now: float, *, interval: float = PING_INTERVAL, cutoff: float = IDLE_CUTOFF
    ) -> None:
        if not 0 < interval < cutoff:
            raise ValueError("need 0 < interval < cutoff")
        self.interval = interval
        self.cutoff = cutoff
        self._last_received = now
        self._next_ping = now + interval

    def received(self, now: float) -> None:
        """Any frame from the peer proves it alive."""
        self._last_received = max(self._last_received, now)
        self._next_ping = self._last_received + self.interval

    def due(self, now: float) -> Due:
        """What the silence up to `now` calls for; a PING is reported once per interval."""
        if now >= self._last_received + self.cutoff:
            return Due.CUT
        if now >= self._next_ping:
            self._next_ping = now + self.interval
            return Due.PING
        return Due.NOTHING

    def next_deadline(self) -> float:
        """The next time `due` may answer something other than NOTHING."""
        return min(self._next_ping, self._last_received + self.cutoff)
