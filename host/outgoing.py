"""What a table asks the server to send: small values, so tables stay free of I/O.

A table never builds frames: sequence numbers belong to each connection (HostConnection), so
the table says *what* goes to *whom* and the connection's writer turns it into bytes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from protocol.host_connection import HostConnection, checked_event, packed_event, packed_legal
from unonet.actions import Action
from unonet.events import Event
from unonet.view import View

ConnId = int
"""The server's number for one connection (never reused while the host runs)."""


@dataclass(frozen=True, slots=True)
class SendMessage:
    """A catalogue message as a map (`t` set): lobby, trust, chat, accepted, error.

    One is made per member for each broadcast; nobody changes one once made."""

    conn: ConnId
    message: Mapping[str, Any]


@dataclass(frozen=True)
class SendSnapshot:
    conn: ConnId
    view: View
    legal: Sequence[Action]


@dataclass(slots=True)
class Packed:
    """Bytes encoded and checked once, shared by every receiver of the same event (or the
    same legal list): most of the cost of sending an event, paid once per table not per
    member. Filled by the first receiver that needs it (`event_frame`): a cache, so mutable."""

    data: bytes | None = None
    wire: Mapping[str, Any] | None = None
    """An event's map as encode_event made it, when the table encoded it (host/game.py): a
    receiver packs (and checks, if it checks what it sends) this instead of encoding again."""
    raw: bytes | None = field(default=None, repr=False)
    """`wire` packed, unchecked: `data` for a connection that does not check what it sends."""


@dataclass(frozen=True, slots=True)
class SendEvent:
    """One event for one member; made for every member an event reaches (a dozen per action);
    the shared Packed parts are what costs."""

    conn: ConnId
    event: Event
    legal: Sequence[Action]
    proof: Mapping[str, Any] = field(default_factory=dict)
    event_packed: Packed = field(default_factory=Packed, repr=False)
    """Shared by the event's receivers."""
    legal_packed: Packed = field(default_factory=Packed, repr=False)
    """Shared by one seat's receivers."""


def event_frame(protocol: HostConnection, item: SendEvent, *, check: bool) -> bytes:
    """The frame of `item` on the connection `protocol`: its event's bytes are made (and
    checked, if `check`) by the event's first receiver and its legal list's by the seat's
    first receiver, then shared; only `seq` is each receiver's own. Here rather than in the
    connection's trio shell because it runs for every receiver of every event, sans-IO.
    Raises LocalProtocolError (our bug) for what the catalogue refuses."""
    shared = item.event_packed
    event = shared.data
    if event is None:
        if shared.wire is None:
            event = packed_event(item.event, item.proof, check=check)
        elif check or shared.raw is None:
            event = checked_event(shared.wire, check=check)
        else:
            event = shared.raw
        shared.data = event
    legal = item.legal_packed.data
    if legal is None:
        legal = item.legal_packed.data = packed_legal(item.legal, check=check)
    return protocol.event_packed(event, legal)


@dataclass(frozen=True)
class CloseConnection:
    """Send a fatal error with `code`, then close (a kick)."""

    conn: ConnId
    code: str
    msg: str


Outgoing = SendMessage | SendSnapshot | SendEvent | CloseConnection


def accepted(conn: ConnId, request: int | None) -> list[Outgoing]:
    """The answer to a request, if it carried an id."""
    if request is None:
        return []
    return [SendMessage(conn, {"t": "accepted", "id": request})]


def refused(conn: ConnId, request: int | None, code: str, msg: str) -> SendMessage:
    """A non-fatal error answering `request` (lobby or engine code)."""
    message: dict[str, Any] = {"t": "error", "code": str(code), "fatal": False,
                               "msg": msg[:1024]}
    if request is not None:
        message["ref"] = request
    return SendMessage(conn, message)
