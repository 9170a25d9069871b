"""Whose view a connection's messages are, read from the messages alone.

The live trust gate (client/trust_gate.py) and the transcript writer (client/transcript.py)
both need the same two facts, and they must never read them differently: an offline audit of
a transcript has to judge the entry the way the live client judged it.

- the seat: `welcome.session.seat` on a resume, then `seated` or `table_state.you`;
- whether that seat was just taken in mid-match (SPEC.md [UNO-11-53]): a `seated` on a
  connection whose welcome took back no seat. Until the snapshot that ends the entry, the host
  sends the match as a spectator got it, so the seat's own history is not what follows.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def _is_seat(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class SeatFollower:
    """Follows `welcome`, `seated` and `table_state` on one connection after another."""

    def __init__(self) -> None:
        self.seat: int | None = None
        self.taking = False
        """A seat taken in mid-match on this connection whose entry has not ended yet (its
        owner calls `entered` when the snapshot that ends it has been dealt with)."""
        self._resumed = False  # this connection's welcome took back a seat

    def connected(self) -> None:
        """A new connection: nothing is known of its welcome yet."""
        self._resumed = False

    def follow(self, message: Mapping[str, Any]) -> None:
        """One message from the host, in stream order."""
        kind = message.get("t")
        if kind == "welcome":
            session = message.get("session")
            seat = session.get("seat") if isinstance(session, Mapping) else None
            self.seat = seat if _is_seat(seat) else None
            self._resumed = self.seat is not None
            self.taking = False
            return
        if kind == "seated" or (kind == "table_state" and message.get("you") is not None):
            seat = message.get("seat" if kind == "seated" else "you")
            if _is_seat(seat):
                self.seat = seat
            if kind == "seated" and not self._resumed:  # a resume's seated renews the token
                self.taking = True
        if kind == "table_state" and message.get("started") is False:
            self.taking = False  # a seat in the lobby: the match will start with us in it

    def entered(self) -> None:
        """The entry of a seat taken in mid-match ended: the seat is ours from here on."""
        self.taking = False
