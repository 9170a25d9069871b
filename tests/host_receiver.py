"""What one connection receives from the sans-IO host (a Registry's outbox), kept and checked
as a client would: each signed message against the manifest's signer, each public event into
the round's events digest, and, if asked, everything fed to a TrustVerifier that outlives the
connection and the host (so a test can resume it elsewhere)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from host.outgoing import Outgoing, SendEvent, SendMessage, SendSnapshot
from protocol.game_codec import encode_event
from protocol.trust.messages import (
    MESSAGE_TYPES,
    SIGNED_MESSAGES,
    EventProof,
    MatchIdentity,
    RoundHistory,
    message_from_dict,
)
from protocol.trust.signing import EventsDigest, verify
from protocol.trust.verifier import TrustVerifier
from unonet import events as ev


@dataclass
class Received:
    """One item as a client sees it: a message map, or an event with its map as sent."""

    kind: str  # the message type; "event" for events
    message: dict[str, Any] = field(default_factory=dict)
    event: ev.Event | None = None


class Receiver:
    """Connection `conn`'s view of the host, across connections and host restarts (a new
    connection number with `reconnect`)."""

    def __init__(self, conn: int, seat: int | None, *, verify_trust: bool = False) -> None:
        self.conn = conn
        self.seat = seat
        self.verify_trust = verify_trust
        self.items: list[Received] = []
        self.identity: MatchIdentity | None = None
        self.verifier: TrustVerifier | None = None
        self.bad_signatures: list[dict[str, Any]] = []

    def reconnect(self, conn: int) -> None:
        self.conn = conn

    def feed(self, out: Iterable[Outgoing]) -> None:
        for item in out:
            if item.conn != self.conn:
                continue
            if isinstance(item, SendSnapshot):
                self.items.append(Received("snapshot", {"view": item.view}))
            elif isinstance(item, SendEvent):
                wire = encode_event(item.event, item.proof)
                self.items.append(Received("event", wire, item.event))
                if self.verifier is not None:
                    self.verifier.event(item.event, EventProof.from_dict(item.proof), wire)
            elif isinstance(item, SendMessage):
                self._message(dict(item.message))

    def _message(self, message: dict[str, Any]) -> None:
        kind = message["t"]
        self.items.append(Received(kind, message))
        if kind == "manifest":
            identity = MatchIdentity.from_dict(message)
            if self.identity is None:
                self.identity = identity
                if self.verify_trust:
                    self.verifier = TrustVerifier(identity, self.seat)
            elif self.verifier is not None:
                self.verifier.message(identity)
        if kind in SIGNED_MESSAGES and (
            self.identity is None or not verify(self.identity.signer, message)
        ):
            self.bad_signatures.append(message)
        if self.verifier is None:
            return
        if kind in SIGNED_MESSAGES:
            self.verifier.check_signature(message)
        if kind in MESSAGE_TYPES:
            self.verifier.message(message_from_dict(kind, message))
        elif kind == "round_history":
            self.verifier.message(RoundHistory.from_dict(message))

    # -- what was received ---------------------------------------------------------------------

    def kinds(self) -> list[str]:
        return [item.kind for item in self.items]

    def messages(self, kind: str) -> list[dict[str, Any]]:
        return [item.message for item in self.items if item.kind == kind]

    def round_events(self, round_no: int) -> list[Received]:
        """The events of round `round_no` as this connection got them live: those after the
        round's seed_reveals and before its round_audit (or the end)."""
        out: list[Received] = []
        inside = False
        for item in self.items:
            if item.kind == "seed_reveals" and item.message["round"] == round_no:
                inside = True
            elif item.kind == "round_audit" and item.message["round"] == round_no:
                inside = False
            elif inside and item.kind == "event":
                out.append(item)
        return out


def public_digest(game_id: bytes, round_no: int, events: Iterable[Received]) -> bytes:
    """The events digest of SPEC.md 11, recomputed from the public events as received."""
    digest = EventsDigest(game_id, round_no)
    for item in events:
        if item.event is not None and item.event.audience is None:
            digest.add(item.message)
    return digest.value
