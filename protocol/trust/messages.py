"""The trust messages, the match's identity and the proof fields of game events, as typed values.

Declared once: the wire layer's catalogue (protocol/messages.py) says what each message holds,
and `from_dict` checks a dict against that catalogue entry before building the dataclass, so
there is no second, hand-written validator to drift from it (issue 11, point 9). A dict of the
wrong shape raises `MalformedTrustMessage`: a codec error, found before any trust question.

Every signed message (manifest, round_prepare, seed_commits, seed_reveals, deck_commits,
round_audit) carries an optional `sig`: the host's Signer adds it at send time, and a missing or
bad one is the verifier's SIGNATURE violation rather than a codec error.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final

from protocol.errors import ProtocolError
from protocol.game_codec import PROOF_FIELDS, UnknownEvent, decode_event
from protocol.messages import CATALOGUE
from protocol.schema import check_fields
from protocol.trust.constants import ALGO, NO_SEAT
from unonet import events as ev
from unonet.cards import Color, DeckManifest, Face, Kind, build_manifest
from unonet.errors import EngineError
from unonet.rules import RuleSet

ENDED: Final = "ended"
"""round_audit.outcome of a round whose round_ended was sent."""
ABANDONED: Final = "abandoned"
"""round_audit.outcome of any other prepared round (a restarted host's undealt one)."""

SIGNED_MESSAGES: Final = frozenset(
    {"manifest", "round_prepare", "seed_commits", "seed_reveals", "deck_commits", "round_audit"}
)
"""The messages the host signs (SPEC.md 11): its every commitment and opening, and the match."""


# Each message's wire type, `KIND`, is a class variable of a small base class rather than of
# the dataclass itself: mypyc (setup.py compiles this module) hands the dataclass machinery a
# `ClassVar` declared in a dataclass body as an ordinary field (mypyc issue 1122), which would
# put a field with a default ahead of fields without one. Pure Python sees the same classes.


class MalformedTrustMessage(ValueError):
    """A trust message or proof field whose keys or types do not match the catalogue."""


def checked(kind: str, data: Mapping[str, Any]) -> Mapping[str, Any]:
    """`data` if it holds every field of catalogue message `kind` with its type; else
    MalformedTrustMessage (the catalogue's words: the field's path and what was expected)."""
    if not isinstance(data, Mapping):
        raise MalformedTrustMessage(f"{kind} must be a map, got {type(data).__name__}")
    try:
        check_fields(CATALOGUE[kind].fields, data, kind)
    except ProtocolError as exc:
        raise MalformedTrustMessage(exc.message) from None
    return data


def _pairs(value: Any) -> tuple[tuple[int, bytes], ...]:
    return tuple((int(seat), bytes(item)) for seat, item in value)


def _signed(out: dict[str, Any], sig: bytes | None) -> dict[str, Any]:
    if sig is not None:
        out["sig"] = sig
    return out


def _sig(data: Mapping[str, Any]) -> bytes | None:
    sig = data.get("sig")
    return None if sig is None else bytes(sig)


class _RoundPrepareKind:
    __slots__ = ()
    KIND: ClassVar[str] = "round_prepare"


@dataclass(frozen=True, slots=True)
class RoundPrepare(_RoundPrepareKind):
    """Host -> all: the host's seed commitment for a round, before any player commits."""

    round_no: int
    game_id: bytes
    host_commit: bytes
    algo: str = ALGO
    host_seat: int = NO_SEAT
    sig: bytes | None = None

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RoundPrepare:
        data = checked(cls.KIND, data)
        seat = data.get("host_seat")
        return cls(data["round"], bytes(data["game_id"]), bytes(data["host_commit"]),
                   data["algo"], NO_SEAT if seat is None else seat, _sig(data))

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "round": self.round_no,
            "game_id": self.game_id,
            "host_commit": self.host_commit,
            "algo": self.algo,
        }
        if self.host_seat != NO_SEAT:
            out["host_seat"] = self.host_seat
        return _signed(out, self.sig)


class _SeedCommitKind:
    __slots__ = ()
    KIND: ClassVar[str] = "seed_commit"


@dataclass(frozen=True, slots=True)
class SeedCommit(_SeedCommitKind):
    """Player -> host: the player's seed commitment."""

    round_no: int
    commit: bytes

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SeedCommit:
        data = checked(cls.KIND, data)
        return cls(data["round"], bytes(data["commit"]))

    def to_dict(self) -> dict[str, Any]:
        return {"round": self.round_no, "commit": self.commit}


class _SeedCommitsKind:
    __slots__ = ()
    KIND: ClassVar[str] = "seed_commits"


@dataclass(frozen=True, slots=True)
class SeedCommits(_SeedCommitsKind):
    """Host -> all: every player commitment received, ascending by seat; the set is now frozen."""

    round_no: int
    commits: tuple[tuple[int, bytes], ...]
    sig: bytes | None = None

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SeedCommits:
        data = checked(cls.KIND, data)
        return cls(data["round"], _pairs(data["commits"]), _sig(data))

    def to_dict(self) -> dict[str, Any]:
        out = {"round": self.round_no, "commits": [[s, c] for s, c in self.commits]}
        return _signed(out, self.sig)


class _SeedRevealKind:
    __slots__ = ()
    KIND: ClassVar[str] = "seed_reveal"


@dataclass(frozen=True, slots=True)
class SeedReveal(_SeedRevealKind):
    """Player -> host only: the player's seed, after the commitments are frozen."""

    round_no: int
    seed: bytes

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SeedReveal:
        data = checked(cls.KIND, data)
        return cls(data["round"], bytes(data["seed"]))

    def to_dict(self) -> dict[str, Any]:
        return {"round": self.round_no, "seed": self.seed}


class _SeedRevealsKind:
    __slots__ = ()
    KIND: ClassVar[str] = "seed_reveals"


@dataclass(frozen=True, slots=True)
class SeedReveals(_SeedRevealsKind):
    """Host -> all when the reveal phase closes: the seats' seeds that opened their
    commitments, and the committed seats that count as zeros. Public: the host seed stays
    secret until the audit, so these say nothing about the deck; they let every player see
    that every seed went in, not only its owner."""

    round_no: int
    seeds: tuple[tuple[int, bytes], ...]
    absent: tuple[int, ...] = ()
    sig: bytes | None = None

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SeedReveals:
        data = checked(cls.KIND, data)
        return cls(data["round"], _pairs(data["seeds"]), tuple(data["absent"]), _sig(data))

    def to_dict(self) -> dict[str, Any]:
        out = {"round": self.round_no, "seeds": [[s, seed] for s, seed in self.seeds],
               "absent": list(self.absent)}
        return _signed(out, self.sig)


class _DeckCommitsKind:
    __slots__ = ()
    KIND: ClassVar[str] = "deck_commits"


@dataclass(frozen=True, slots=True)
class DeckCommits(_DeckCommitsKind):
    """Host -> all: the position commitments of one epoch's pile and their deck commitment D."""

    round_no: int
    epoch: int
    commits: tuple[bytes, ...]
    deck_commit: bytes
    sig: bytes | None = None

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> DeckCommits:
        data = checked(cls.KIND, data)
        return cls(data["round"], data["epoch"], tuple(bytes(c) for c in data["commits"]),
                   bytes(data["deck_commit"]), _sig(data))

    def to_dict(self) -> dict[str, Any]:
        out = {
            "round": self.round_no,
            "epoch": self.epoch,
            "commits": list(self.commits),
            "deck_commit": self.deck_commit,
        }
        return _signed(out, self.sig)


class _RoundAuditKind:
    __slots__ = ()
    KIND: ClassVar[str] = "round_audit"


@dataclass(frozen=True, slots=True)
class RoundAudit(_RoundAuditKind):
    """Host -> all once a prepared round is over (ended, or abandoned by a restarted host):
    every seed, so anyone can re-derive the deck, and the digest of the public events."""

    round_no: int
    host_seed: bytes
    seeds: tuple[tuple[int, bytes], ...]
    outcome: str
    events_digest: bytes
    absent: tuple[int, ...] = ()
    sig: bytes | None = None

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RoundAudit:
        data = checked(cls.KIND, data)
        return cls(data["round"], bytes(data["host_seed"]), _pairs(data["seeds"]),
                   data["outcome"], bytes(data["events_digest"]), tuple(data["absent"]),
                   _sig(data))

    def to_dict(self) -> dict[str, Any]:
        out = {
            "round": self.round_no,
            "host_seed": self.host_seed,
            "seeds": [[s, seed] for s, seed in self.seeds],
            "absent": list(self.absent),
            "outcome": self.outcome,
            "events_digest": self.events_digest,
        }
        return _signed(out, self.sig)


class _RoundHistoryKind:
    __slots__ = ()
    KIND: ClassVar[str] = "round_history"


@dataclass(frozen=True, slots=True)
class RoundHistory(_RoundHistoryKind):
    """Host -> one client entering a match in mid-round: a chunk of the round's events so far,
    as that client's audience got them (the maps of `event.event`, proof fields included).
    Unsigned: public events are bound by the audit's digest, private cards by commitments."""

    round_no: int
    first: int
    events: tuple[Mapping[str, Any], ...]

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RoundHistory:
        data = checked(cls.KIND, data)
        return cls(data["round"], data["first"], tuple(dict(e) for e in data["events"]))

    def to_dict(self) -> dict[str, Any]:
        return {"round": self.round_no, "first": self.first,
                "events": [dict(e) for e in self.events]}

    def decoded(self) -> list[tuple[ev.Event | UnknownEvent, EventProof]]:
        """Each event as an engine value with its proof fields (an event type this side does
        not know stays an UnknownEvent, so indices keep their meaning)."""
        out: list[tuple[ev.Event | UnknownEvent, EventProof]] = []
        for index, data in enumerate(self.events):
            try:
                wire_event = decode_event(data, f"events[{index}]")
            except ProtocolError as exc:
                raise MalformedTrustMessage(exc.message) from None
            out.append((wire_event.event, EventProof.from_dict(data)))
        return out


class _MatchIdentityKind:
    __slots__ = ()
    KIND: ClassVar[str] = "manifest"


@dataclass(frozen=True)
class MatchIdentity(_MatchIdentityKind):
    """The trust part of a `manifest`: what a whole match is bound to and may not change while
    it lasts (the id every commitment binds, the seats, the rules, the deck and the key that
    signs). `sig` is the manifest's own signature; it does not take part in equality, since a
    signature is not unique."""

    game_id: bytes
    seats: int
    rules: RuleSet
    manifest: DeckManifest
    signer: bytes
    sig: bytes | None = field(default=None, compare=False)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MatchIdentity:
        data = checked(cls.KIND, data)
        try:
            rules = RuleSet.from_dict(dict(data["rules"]))
        except (EngineError, TypeError, ValueError) as exc:
            raise MalformedTrustMessage(f"manifest.rules: {exc}") from None
        return cls(bytes(data["game_id"]), data["seats"], rules, _deck(data),
                   bytes(data["signer"]), _sig(data))

    def to_dict(self) -> dict[str, Any]:
        out = {**self.manifest.to_dict(), "game_id": self.game_id, "seats": self.seats,
               "rules": self.rules.to_dict(), "signer": self.signer}
        return _signed(out, self.sig)


def _deck(data: Mapping[str, Any]) -> DeckManifest:
    """The deck of a checked manifest map (faces per card id, SPEC.md 10)."""
    sides = []
    for index, card in enumerate(data["cards"]):
        faces = []
        for face in card:
            try:
                kind = Kind(face["kind"])
                color = None if face.get("color") is None else Color(face["color"])
            except ValueError as exc:
                raise MalformedTrustMessage(f"manifest.cards[{index}]: {exc}") from None
            faces.append(Face(kind, color, face.get("number"), face["points"]))
        sides.append(faces)
    return build_manifest(data["name"], sides)


_PROOF_CODECS = {key: codec for fields in PROOF_FIELDS.values() for key, codec in fields.items()}
"""Every proof field by name, with its codec from the event catalogue (game_codec)."""


@dataclass(frozen=True, slots=True)
class EventProof:
    """The proof fields that travel beside an engine event on the wire.

    `nonce`: card_played, top_card_turned. `nonces`: cards_received, challenge_reveal (only
    where the receiver learns the cards: returned and moved hands travel face down, by position).
    `hand_digest`: optional, on a challengeable card_played.
    """

    nonce: bytes | None = None
    nonces: tuple[bytes, ...] = ()
    hand_digest: bytes | None = None

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> EventProof:
        """Read whichever proof fields an event dict carries; absent ones stay empty. Each is
        checked by the codec the event catalogue declares for it."""
        found: dict[str, Any] = {}
        for key, codec in _PROOF_CODECS.items():
            if data.get(key) is not None:
                try:
                    found[key] = codec.decode(data[key], key)
                except ProtocolError as exc:
                    raise MalformedTrustMessage(exc.message) from None
        return cls(found.get("nonce"), tuple(found.get("nonces", ())), found.get("hand_digest"))

    def to_dict(self) -> dict[str, Any]:
        """The fields present, as the keys they take beside the event on the wire."""
        out: dict[str, Any] = {}
        if self.nonce is not None:
            out["nonce"] = self.nonce
        if self.nonces:
            out["nonces"] = list(self.nonces)
        if self.hand_digest is not None:
            out["hand_digest"] = self.hand_digest
        return out


NO_PROOF = EventProof()

TrustMessage = (
    RoundPrepare | SeedCommit | SeedCommits | SeedReveal | SeedReveals | DeckCommits | RoundAudit
)

MESSAGE_TYPES: dict[str, type[TrustMessage]] = {
    cls.KIND: cls
    for cls in (RoundPrepare, SeedCommit, SeedCommits, SeedReveal, SeedReveals, DeckCommits,
                RoundAudit)
}
"""Wire type name -> dataclass, for the codec's dispatch (round_history and manifest, which
are not per-round commitments, have their own entry points: RoundHistory, MatchIdentity)."""


def message_from_dict(kind: str, data: Mapping[str, Any]) -> TrustMessage:
    """Build the trust message named `kind` (a key of MESSAGE_TYPES) from its wire dict."""
    try:
        cls = MESSAGE_TYPES[kind]
    except KeyError:
        raise MalformedTrustMessage(f"not a trust message: {kind!r}") from None
    return cls.from_dict(data)
