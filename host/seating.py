"""Who sits where: seats, the connections watching a table, and the table's outbox.

A seat outlives its connection: a dropped player's seat waits (with its resume token) while
the game goes on. A member is one connection at a table, seated or watching.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from host.outgoing import ConnId, Outgoing, SendMessage
from host.round_log import RoundLog
from protocol.limits import RESUME_TOKEN_BYTES

HUMAN = "human"
BOT = "bot"


def new_token() -> tuple[bytes, bytes]:
    """A fresh resume token and its SHA-256 (the host keeps and journals only the hash)."""
    token = secrets.token_bytes(RESUME_TOKEN_BYTES)
    return token, token_hash(token)


def token_hash(token: bytes) -> bytes:
    return hashlib.sha256(token).digest()


@dataclass
class Seat:
    kind: str  # HUMAN (a remote client, person or network bot) or BOT (in-process)
    name: str
    ready: bool = False
    token_hash: bytes | None = None
    level: str | None = None  # a bot's policy
    conn: ConnId | None = None
    disconnected_at: float | None = None
    taken_over: bool = False  # a bot plays this human seat (dropped past the grace, or left)

    @property
    def connected(self) -> bool:
        return self.kind == BOT or self.conn is not None

    @property
    def bot_controlled(self) -> bool:
        return self.kind == BOT or self.taken_over


@dataclass
class Member:
    """One connection at a table; `seat` None for a spectator."""

    conn: ConnId
    seat: int | None
    name: str


class Room:
    """The seats and members of one table, and where its messages go."""

    def __init__(self, capacity: int, outbox: list[Outgoing]) -> None:
        self.seats: list[Seat | None] = [None] * capacity
        self.members: dict[ConnId, Member] = {}
        self.outbox = outbox
        self.unsettled: list[RoundLog] = []
        """Round logs with events not yet in their digest (RoundLog.settle): the registry
        shares its own list, which the server settles after each routing pass."""

    def occupied(self) -> Iterator[tuple[int, Seat]]:
        for index, seat in enumerate(self.seats):
            if seat is not None:
                yield index, seat

    def free_seat(self) -> int | None:
        return next((i for i, seat in enumerate(self.seats) if seat is None), None)

    def send(self, conn: ConnId, message: Mapping[str, Any]) -> None:
        self.outbox.append(SendMessage(conn, message))

    def broadcast(self, message: Mapping[str, Any]) -> None:
        for conn in self.members:
            self.send(conn, message)

    def compact(self) -> None:
        """Close the gaps before a match: occupied seats become 0..n-1, in order."""
        taken = [seat for seat in self.seats if seat is not None]
        moves = {old: new for new, (old, _) in enumerate(self.occupied())}
        self.seats = taken + [None] * (len(self.seats) - len(taken))
        for member in self.members.values():
            if member.seat is not None:
                member.seat = moves[member.seat]
