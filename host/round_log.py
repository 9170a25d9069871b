"""One round as the host sent it: its events, the digest of the public ones, and its audit.

A connection that enters a match in mid-round (a resume, a late spectator, any player after a
host restart) gets the round's events so far in `round_history` chunks before its snapshot, so
its verifier checks every card of the round and the audit's digest, not only what follows. Each
receiver gets the events as its audience got them: public ones, and private ones only if they
were its own (the leak rule of host/game.py). The current round's log is replaced by the next
round_prepare; `PastRounds` keeps the previous round's log and the signed messages of every round
before it, for a client that comes back after a round boundary (SPEC.md 7.1). A restarted host
rebuilds them from its journal's replay (`ReplayedRound`, `PastRounds.replayed`), so an entrant
gets what the host that never stopped would have sent it.
"""

from __future__ import annotations

import hashlib
import struct
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from protocol.frames import pack, unpack
from protocol.game_codec import PROOF_FIELDS, encode_event, wire_name
from protocol.limits import MAX_ARRAY_LEN, MAX_FRAME
from protocol.trust.host import HostCommitments
from protocol.trust.messages import ABANDONED, ENDED
from protocol.trust.primitives import sha256
from protocol.trust.seed_exchange import abandoned_messages, resumed_exchange, signed
from protocol.trust.signing import TAG_EVENTS, Signer
from unonet import events as ev
from unonet.encoding import enc

_U32 = struct.Struct(">I")

HISTORY_EVENTS = MAX_ARRAY_LEN
"""Events per round_history chunk at most (SPEC.md 8.4): the catalogue's array limit."""

HISTORY_BYTES = MAX_FRAME - 1024
"""Encoded event bytes per chunk at most: a chunk of long events (a reshuffle lists every card
it moves) must still fit one frame; 1 KiB is left for the message's own keys."""


def proof_fields(commitments: HostCommitments, event: ev.Event) -> dict[str, Any]:
    """The nonces that open the commitments of the positions an event names, limited to the
    proof fields the wire format carries for that event type: what an honest host sends."""
    allowed = PROOF_FIELDS.get(wire_name(type(event)))
    if not allowed:  # most events carry none: nothing to derive
        return {}
    proof = commitments.proof_fields(event)
    return {key: value for key, value in proof.items() if key in allowed}


def canonical_event(wire: Any) -> bytes:
    """cm(wire) (protocol.trust.signing.canonical) for an event map our own encoder built:
    its keys are str and it holds no float, so sorting each map by its keys (code point order
    is UTF-8 byte order) and packing is all there is to do, without the general function's
    checks of each value (a third of an action's cost in the host's profile)."""
    return pack(_sorted_maps(wire))


_NESTED = frozenset({dict, list, tuple})


def _sorted_maps(value: Any) -> Any:
    """`value` with every map's keys in order; a scalar is not passed down (most are)."""
    if type(value) is dict:
        out = {}
        for key in sorted(value):
            item = value[key]
            out[key] = _sorted_maps(item) if type(item) in _NESTED else item
        return out
    if type(value) in _NESTED:
        return [_sorted_maps(item) if type(item) in _NESTED else item for item in value]
    return value


class EventsChain:
    """protocol.trust.signing.EventsDigest fed with canonical bytes made once
    (`canonical_event`): the same chain, d_i = H(enc("uno/v1/events", d_{i-1}, cm(e_i)))."""

    _HEAD = enc(TAG_EVENTS, b"", b"")[:-8]
    """enc's count and tag of a link: each link is this, d_{i-1} and cm(e_i), length-prefixed
    (spelled out here: the general `enc` checked every field of every event)."""

    def __init__(self, game_id: bytes, round_no: int) -> None:
        self._value = sha256(TAG_EVENTS, game_id, round_no)
        self.count = 0

    def add_canonical(self, canonical: bytes) -> None:
        length = _U32.pack
        value = self._value
        self._value = hashlib.sha256(b"".join((
            self._HEAD, length(len(value)), value, length(len(canonical)), canonical))).digest()
        self.count += 1

    @property
    def value(self) -> bytes:
        """The chain's head: d_n after n events."""
        return self._value


class RoundLog:
    """The record of one prepared round, from its deal to its audit."""

    def __init__(self, game_id: bytes, round_no: int) -> None:
        self.round_no = round_no
        self._chain = EventsChain(game_id, round_no)
        self._undigested: list[dict[str, Any]] = []
        """Public events sent and not yet hashed into the digest: their hashing (a third of
        sending an event) waits until the frames of the pass that sent them are written
        (`settle`, by the server after each routing pass), so that no answer waits for it;
        whoever reads `digest` settles first."""
        self.dealt = False
        self.ended = False  # a round_ended of this round was sent
        self.audit: dict[str, Any] | None = None  # the signed round_audit, once sent
        self._events: list[tuple[frozenset[int] | None, bytes]] = []
        """Each event as its audience and its map packed: bytes, not the map, because a round
        keeps its events for seconds to minutes, and the collector's middle generation walked
        every map and list of every event sent since its last pass. Unpacked again only for
        an entrant's round_history (`seen_by`)."""

    @classmethod
    def replayed(cls, commitments: HostCommitments, events: Iterable[ev.Event]) -> RoundLog:
        """The log of a dealt round rebuilt from a journal's replay: the engine and the
        committed decks are deterministic, so the events and proofs are those first sent."""
        log = cls(commitments.game_id, commitments.round_no)
        log.dealt = True
        for event in events:
            log.add(event, proof_fields(commitments, event))
        log.settle()
        return log

    @property
    def digest(self) -> EventsChain:
        """The chain of the public events sent so far (settled first)."""
        self.settle()
        return self._chain

    @property
    def unsettled(self) -> bool:
        """Whether public events wait to be hashed into the digest (`settle`)."""
        return bool(self._undigested)

    def settle(self) -> None:
        """Hash the public events sent since the last settle into the digest, in order."""
        if self._undigested:
            chain = self._chain
            for wire in self._undigested:
                chain.add_canonical(canonical_event(wire))
            self._undigested.clear()

    @property
    def outcome(self) -> str:
        return ENDED if self.ended else ABANDONED

    @property
    def count(self) -> int:
        return len(self._events)

    def forget_events(self) -> None:
        """Keep only what the round's audit says (its digest and outcome): a round older than
        the previous one is re-sent as its four signed messages, without events."""
        self.settle()
        self._events.clear()

    def add(self, event: ev.Event, proof: Mapping[str, Any]) -> None:
        """An event of this round as sent (its proof fields included); a public one goes into
        the digest."""
        wire = encode_event(event, proof)
        self.add_encoded(event, wire, pack(wire))

    def add_encoded(self, event: ev.Event, wire: dict[str, Any], raw: bytes) -> None:
        """`add` for an event the caller encoded already (`wire`, packed as `raw`, neither
        changed after): the host encodes and packs each event once for the log and for every
        receiver. A public one is hashed into the digest at the next `settle`."""
        audience = event.audience
        self._events.append((audience, raw))
        if audience is None:
            self._undigested.append(wire)
        if isinstance(event, ev.RoundEnded):
            self.ended = True

    def seen_by(self, seat: int | None) -> list[tuple[dict[str, Any], int]]:
        """The events `seat`'s audience got (a spectator, None: the public ones), each as its
        map and the size of its packed bytes."""
        return [(unpack(raw), len(raw)) for audience, raw in self._events
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


ARCHIVED_ROUNDS = 2048
"""Finished rounds whose four signed messages (round_prepare, seed_commits, seed_reveals,
round_audit) a match keeps for entrants. Every earlier round is re-sent on entry so that a
client away for several rounds sees the numbering run on without a gap; a round costs about a
kilobyte at ten seats, so a table holds at most a few megabytes even for a match that never
seems to end. A real match ends in tens of rounds; past the cap the oldest rounds are dropped,
and only a client that was away for all of them (and saw one of them) notices the gap."""

ROUND_SUMMARY = ("round_prepare", "seed_commits", "seed_reveals")
"""The trust messages of a round (besides its audit) that every later entrant is sent: what
numbers the round and binds its deal, without the deck commitments nobody away could use."""


class ReplayedRound:
    """A round before the one a restarted host goes on with, as its journal's replay rebuilt
    it: the round's commitments (host seed, seed commitments and seeds, and the committed decks
    while its events are kept) and, if it was dealt, its log (events, digest, outcome). Its
    signed messages are made again from these: the same fields, and with the host's key the
    same signatures (RFC 6979)."""

    def __init__(self, commitments: HostCommitments, log: RoundLog | None) -> None:
        self.commitments = commitments
        self.log = log
        """None for a round prepared and never dealt: a crash abandoned it (SPEC.md 11.7)."""

    def summarized(self) -> None:
        """Only the round's four messages will be sent again (it is older than the previous
        round): its events and decks go, about a kilobyte stays."""
        self.commitments.decks.clear()
        if self.log is not None:
            self.log.forget_events()


class PastRounds:
    """The finished rounds of a match an entrant must be sent before the current one.

    A client keeps its verifier across connections, so one that dropped in round N and comes
    back after round N+1 was prepared must still get the rest of N and its audit (the whole
    record of the previous round is kept: its trust messages and events per audience), and one
    away for several rounds must see each of them prepared and audited (the four signed
    messages of every earlier round are kept; a round a restarted host abandoned before its
    deal, its own two or three, in its place). A restarted host rebuilds all of it from its
    journal (`replayed`), so a client away across the restart sees no gap. Memory: one round's
    events, plus about a kilobyte per earlier round, at most ARCHIVED_ROUNDS of them.
    """

    def __init__(self) -> None:
        self._archive: deque[tuple[dict[str, Any], ...]] = deque(maxlen=ARCHIVED_ROUNDS)
        self._previous: tuple[tuple[dict[str, Any], ...], RoundLog, dict[str, Any]] | None = None
        self._after: list[tuple[dict[str, Any], ...]] = []
        """Rounds abandoned before their deal after the previous one (a restart's), in order."""

    @classmethod
    def replayed(cls, rounds: Iterable[ReplayedRound], signer: Signer) -> PastRounds:
        """The past of a match a restarted host resumes, from its journal's replay (oldest
        round first): each dealt round's trust messages and audit signed again, the last one
        whole, and each round abandoned before its deal as a restarted host owes it."""
        past = cls()
        for played in rounds:
            commitments, record = played.commitments, played.log
            if record is None:
                past.abandoned(abandoned_messages(commitments, signer))
                continue
            audit = commitments.audit(record.outcome, record.digest.value)
            record.audit = signed("round_audit", audit, signer)
            past.finish(resumed_exchange(commitments, signer).published, record)
        return past

    @property
    def previous(self) -> RoundLog | None:
        """The record of the round before the current one, if it was audited."""
        return self._previous[1] if self._previous is not None else None

    @property
    def archived(self) -> int:
        """Earlier rounds kept as their four signed messages."""
        return len(self._archive)

    def finish(self, published: Sequence[Mapping[str, Any]], record: RoundLog | None) -> None:
        """The current round gives way to the next one: it becomes the previous round (kept
        whole, if it was audited), and the previous one is archived as its four messages."""
        if self._previous is not None:
            messages, _, audit = self._previous
            kept = [m for m in messages if m.get("t") in ROUND_SUMMARY]
            self._archive.append((*kept, audit))
        self._archive.extend(self._after)
        self._after.clear()
        self._previous = None
        if record is not None and record.audit is not None:
            self._previous = (tuple(dict(m) for m in published), record, record.audit)

    def abandoned(self, messages: Sequence[Mapping[str, Any]]) -> None:
        """A round prepared and never dealt, which a restarted host abandoned (SPEC.md 11.7):
        its round_prepare, its seed_commits if frozen, and its audit, kept in its place
        among the rounds (it was prepared after the previous round)."""
        kept = tuple(dict(m) for m in messages)
        if self._previous is None:
            self._archive.append(kept)
        else:
            self._after.append(kept)

    def entry(self, seat: int | None) -> list[dict[str, Any]]:
        """What a connection at `seat` entering the match is sent before the current round:
        every earlier round's four signed messages, oldest first, then the previous round's
        trust messages, its events as `seat`'s audience got them, and its audit, then any
        round abandoned since."""
        out = [message for messages in self._archive for message in messages]
        if self._previous is not None:
            messages, record, audit = self._previous
            out += messages
            out += record.history(seat)
            out.append(audit)
        out += [message for messages in self._after for message in messages]
        return out
