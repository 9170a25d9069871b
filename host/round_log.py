"""One round as the host sent it: its events, the digest of the public ones, and its audit.

A connection that enters a match in mid-round (a resume, a late spectator, any player after a
host restart) gets the round's events so far in `round_history` chunks before its snapshot, so
its verifier checks every card of the round and the audit's digest, not only what follows. Each
receiver gets the events as its audience got them: public ones, and private ones only if they
were its own (the leak rule of host/game.py). Only the current round is kept, so the memory is
bounded by one round; the next round_prepare replaces it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import msgpack

from protocol.game_codec import PROOF_FIELDS, encode_event, wire_name
from protocol.limits import MAX_ARRAY_LEN, MAX_FRAME
from protocol.trust.host import HostCommitments
from protocol.trust.messages import ABANDONED, ENDED
from protocol.trust.signing import EventsDigest
from unonet import events as ev

HISTORY_EVENTS = MAX_ARRAY_LEN
"""Events per round_history chunk at most (SPEC.md 8.4): the catalogue's array limit."""

HISTORY_BYTES = MAX_FRAME - 1024
"""Encoded event bytes per chunk at most: a chunk of long events (a reshuffle lists every card
it moves) must still fit one frame; 1 KiB is left for the message's own keys."""


def proof_fields(commitments: HostCommitments, event: ev.Event) -> dict[str, Any]:
    """The nonces that open the commitments of the positions an event names, limited to the
    proof fields the wire format carries for that event type: what an honest host sends."""
    proof = commitments.event_proof(event).to_dict()
    allowed = PROOF_FIELDS.get(wire_name(type(event)), {})
    return {key: value for key, value in proof.items() if key in allowed}


class RoundLog:
    """The record of one prepared round, from its deal to its audit."""

    def __init__(self, game_id: bytes, round_no: int) -> None:
        self.round_no = round_no
        self.digest = EventsDigest(game_id, round_no)
        self.dealt = False
        self.ended = False  # a round_ended of this round was sent
        self.audit: dict[str, Any] | None = None  # the signed round_audit, once sent
        self._events: list[tuple[frozenset[int] | None, dict[str, Any], int]] = []

    @classmethod
    def replayed(cls, commitments: HostCommitments, events: Iterable[ev.Event]) -> RoundLog:
        """The log of a dealt round rebuilt from a journal's replay: the engine and the
        committed decks are deterministic, so the events and proofs are those first sent."""
        log = cls(commitments.game_id, commitments.round_no)
        log.dealt = True
        for event in events:
            log.add(event, proof_fields(commitments, event))
        return log

    @property
    def outcome(self) -> str:
        return ENDED if self.ended else ABANDONED

    @property
    def count(self) -> int:
        return len(self._events)

    def add(self, event: ev.Event, proof: Mapping[str, Any]) -> None:
        """An event of this round as sent (its proof fields included); a public one goes into
        the digest."""
        wire = encode_event(event, proof)
        audience = event.audience
        size = len(msgpack.packb(wire, use_bin_type=True))
        self._events.append((audience, wire, size))
        if audience is None:
            self.digest.add(wire)
        if isinstance(event, ev.RoundEnded):
            self.ended = True

    def seen_by(self, seat: int | None) -> list[tuple[dict[str, Any], int]]:
        """The events `seat`'s audience got (a spectator, None: the public ones)."""
        return [(wire, size) for audience, wire, size in self._events
                if audience is None or (seat is not None and seat in audience)]

    def history(self, seat: int | None) -> list[dict[str, Any]]:
        """The round_history messages for a connection at `seat` entering the round: its
        events so far in chunks of at most HISTORY_EVENTS events and HISTORY_BYTES bytes."""
        out: list[dict[str, Any]] = []
        chunk: list[dict[str, Any]] = []
        first = used = 0
        for index, (wire, size) in enumerate(self.seen_by(seat)):
            if chunk and (len(chunk) == HISTORY_EVENTS or used + size > HISTORY_BYTES):
                out.append(_chunk(self.round_no, first, chunk))
                chunk, first, used = [], index, 0
            chunk.append(wire)
            used += size
        if chunk:
            out.append(_chunk(self.round_no, first, chunk))
        return out


def _chunk(round_no: int, first: int, events: list[dict[str, Any]]) -> dict[str, Any]:
    return {"t": "round_history", "round": round_no, "first": first, "events": events}
