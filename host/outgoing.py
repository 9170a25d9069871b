"""What a table asks the server to send: small values, so tables stay free of I/O.

A table never builds frames: sequence numbers belong to each connection (HostConnection), so
the table says *what* goes to *whom* and the connection's writer turns it into bytes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from protocol.host_connection import HostConnection, checked_event, packed_event, packed_legal
from unonet.actions import Action
from unonet.events import Event
from unonet.view import View

ConnId = int
"""The server's number for one connection (never reused while the host runs)."""


class SendMessage:
    """A catalogue message as a map (`t` set): lobby, trust, chat, accepted, error.

    A plain class, not a dataclass: one is made per member for each broadcast, and mypyc
    compiles a plain class's __init__ but runs a dataclass's generated one as Python. Nobody
    changes one once made."""

    __slots__ = ("conn", "message")

    def __init__(self, conn: ConnId, message: Mapping[str, Any]) -> None:
        self.conn = conn
        self.message = message

    def __repr__(self) -> str:
        return f"SendMessage(conn={self.conn!r}, message={self.message!r})"


@dataclass(frozen=True)
class SendSnapshot:
    conn: ConnId
    view: View
    legal: Sequence[Action]


class Packed:
    """Bytes encoded and checked once, shared by every receiver of the same event (or the
    same legal list): most of the cost of sending an event, paid once per table not per
    member. A plain class for the reason SendMessage is one."""

    __slots__ = ("data", "raw", "wire")

    def __init__(self, data: bytes | None = None, wire: Mapping[str, Any] | None = None,
                 raw: bytes | None = None) -> None:
        self.data = data
        self.wire = wire
        """An event's map as encode_event made it, when the table encoded it (host/game.py):
        a receiver packs (and checks, if it checks what it sends) this instead of encoding
        again."""
        self.raw = raw
        """`wire` packed, unchecked: `data` for a connection that does not check what it
        sends."""

    def __repr__(self) -> str:
        return f"Packed(data={self.data!r}, wire={self.wire!r})"


class SendEvent:
    """One event for one member; made for every member an event reaches (a dozen per action),
    so a plain class (see SendMessage); the shared Packed parts are what costs."""

    __slots__ = ("conn", "event", "event_packed", "legal", "legal_packed", "proof")

    def __init__(self, conn: ConnId, event: Event, legal: Sequence[Action],
                 proof: Mapping[str, Any] | None = None, event_packed: Packed | None = None,
                 legal_packed: Packed | None = None) -> None:
        self.conn = conn
        self.event = event
        self.legal = legal
        self.proof: Mapping[str, Any] = {} if proof is None else proof
        self.event_packed = Packed() if event_packed is None else event_packed
        """Shared by the event's receivers."""
        self.legal_packed = Packed() if legal_packed is None else legal_packed
        """Shared by one seat's receivers."""

    def __repr__(self) -> str:
        return (f"SendEvent(conn={self.conn!r}, event={self.event!r}, legal={self.legal!r}, "
                f"proof={self.proof!r})")


def event_frame(protocol: HostConnection, item: SendEvent, *, check: bool) -> bytes:
    """The frame of `item` on the connection `protocol`: its event's bytes are made (and
    checked, if `check`) by the event's first receiver and its legal list's by the seat's
    first receiver, then shared; only `seq` is each receiver's own. Here rather than in the
    connection's trio shell because it runs for every receiver of every event, and this module
    is compiled. Raises LocalProtocolError (our bug) for what the catalogue refuses."""
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
