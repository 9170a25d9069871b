"""What the tables queued, turned into each connection's frames: sans-IO.

The server's pass over the registry's outbox runs after every read and walks a dozen items per
action (an event for each member it reaches, the sender's `accepted`). Interpreted, that loop
and the per-item calls into each connection cost the host more per action than the event's
encoding did (benchmarks/host.py's "routing"), so they live here, in one pass, apart from trio.

Each connection's outgoing half is an `Outlet`: its protocol state and the frames pushed since
its last flush. The trio connection (host/connection.py) owns one, writes what it holds
(`flush`), and is called back only for what needs trio: closing itself (`Owner.close`).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any, Protocol

from host.outgoing import (
    CloseConnection,
    ConnId,
    Outgoing,
    SendEvent,
    SendMessage,
    SendSnapshot,
    event_frame,
)
from protocol.errors import LocalProtocolError
from protocol.host_connection import HostConnection
from protocol.state import ConnState

__all__ = ["UNSHARED", "Outlet", "Owner", "deliver", "plan"]

log = logging.getLogger("unonet.host.connection")

UNSHARED = frozenset({"error", "bye"})
"""Messages that change the sender's state: encoded for each connection (protocol/connection)."""


class Owner(Protocol):
    """The connection an Outlet belongs to: what routing cannot do without trio."""

    def close(self, item: CloseConnection) -> None:
        """Send `item`'s fatal error and stop reading (a kick)."""


class Outlet:
    """One connection's outgoing half, sans-IO: `deliver` turns an item into its frame and
    pushes it; the connection's `flush` writes and empties `out`."""

    def __init__(self, conn: ConnId, protocol: HostConnection, owner: Owner, *,
                 check: bool) -> None:
        self.conn = conn
        self.protocol = protocol
        self.owner: Owner | None = owner
        """None once the connection has ended (`release`): the two refer to each other, and a
        cycle is freed only by the collector's full pass, minutes apart under load."""
        self.check = check  # check each frame against the catalogue before it is sent
        self.out: list[bytes] = []
        """Frames pushed since the last flush. One list for the connection's life, emptied by
        each flush: a new one per flush lived until the next (seconds, at a person's pace),
        long enough for the collector's middle generation to walk thousands of them."""
        self.cut: str | None = None
        """Why the host cut the connection, if it did: nothing more is pushed then."""

    def release(self) -> None:
        """The connection has ended: forget it (and what it had not sent)."""
        self.owner = None
        self.out.clear()

    def push(self, frame: bytes) -> None:
        """Add a frame to what the next flush sends."""
        if frame and self.cut is None:
            self.out.append(frame)

    def deliver(self, item: Outgoing, encoded: bytes | None = None) -> None:
        """Queue what a table wants this client to get; never waits. `encoded` is the frame
        of a SendMessage that goes to many (`encode_shared`), made once for all of them."""
        if self.protocol.state is not ConnState.READY:
            return
        try:
            if isinstance(item, SendEvent):
                self.deliver_event(item)
                return
            if isinstance(item, SendMessage):
                if encoded is not None:
                    frame = self.protocol.send_encoded(str(item.message.get("t")), encoded)
                else:
                    frame = self.protocol.send(item.message)
            elif isinstance(item, SendSnapshot):
                frame = self.protocol.snapshot(item.view, item.legal)
            elif isinstance(item, CloseConnection):
                if self.owner is not None:
                    self.owner.close(item)
                return
            else:
                raise TypeError(f"cannot deliver {item!r}")
        except LocalProtocolError as exc:  # our bug: never send what the catalogue refuses
            log.error("conn %d: not sent, %s: %r", self.conn, exc, item)
            return
        self.push(frame)

    def deliver_event(self, item: SendEvent) -> None:
        """`deliver` for an event, the item a table sends most (`event_frame`)."""
        if self.protocol.state is not ConnState.READY or self.cut is not None:
            return
        try:
            self.out.append(event_frame(self.protocol, item, check=self.check))
        except LocalProtocolError as exc:  # our bug: never send what the catalogue refuses
            log.error("conn %d: not sent, %s: %r", self.conn, exc, item)

    def encode_shared(self, message: Mapping[str, Any]) -> bytes | None:
        """The frame of a message several connections get, encoded and checked once (the
        catalogue's checks do not depend on the receiver); None if it must not be sent."""
        try:
            return self.protocol.encode_message(message)
        except LocalProtocolError as exc:  # our bug: never send what the catalogue refuses
            log.error("not sent to anyone, %s: %r", exc, message)
            return None


class Plan:
    """One pass's items, split: those for the connections a request was answered on (their
    senders wait, so they are served first) and the rest, in order within each."""

    def __init__(self) -> None:
        self.answered: list[Outgoing] = []
        self.rest: list[Outgoing] = []
        self.receivers: dict[int, int] = {}
        """How many items carry each message (by id): one sent to many is encoded once."""
        self.shared: dict[int, bytes | None] = {}
        """The frames of those, once made."""


def plan(items: list[Outgoing]) -> Plan:
    """Split a pass's items (`Plan`)."""
    found = Plan()
    receivers = found.receivers
    answered: set[ConnId] = set()
    for item in items:
        if type(item) is SendMessage:
            key = id(item.message)
            receivers[key] = receivers.get(key, 0) + 1
            if item.message.get("t") == "accepted":
                answered.add(item.conn)
    if not answered:
        found.rest = items
        return found
    for item in items:
        if item.conn in answered:
            found.answered.append(item)
        else:
            found.rest.append(item)
    return found


def deliver(items: list[Outgoing], outlets: dict[ConnId, Outlet], found: Plan) -> list[ConnId]:
    """Queue `items` on their outlets, in order; the connections that got any, in the order
    they first did."""
    touched: dict[ConnId, None] = {}
    receivers, shared = found.receivers, found.shared
    for item in items:
        outlet = outlets.get(item.conn)
        if outlet is None:
            continue
        touched[item.conn] = None
        if type(item) is SendEvent:  # most items: a dozen per action
            outlet.deliver_event(item)
        elif type(item) is SendMessage and receivers[id(item.message)] > 1 \
                and item.message.get("t") not in UNSHARED:
            key = id(item.message)
            if key not in shared:
                shared[key] = outlet.encode_shared(item.message)
            frame = shared[key]
            if frame is not None:
                outlet.deliver(item, frame)
        else:
            outlet.deliver(item)
    return list(touched)
