"""The trust messages and the proof fields of game events, as typed values.

The wire layer owns the catalogue and the msgpack codec; it hands this package plain dicts, which
`from_dict` turns into these dataclasses (and `to_dict` back). A dict of the wrong shape raises
`MalformedTrustMessage`: that is a codec error, found before any trust question arises.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from protocol.trust.constants import ALGO, DIGEST_SIZE, GAME_ID_SIZE, NO_SEAT, SEED_SIZE


class MalformedTrustMessage(ValueError):
    """A trust message or proof field whose keys or types do not match SPEC.md section 11."""


def _get(data: Mapping[str, Any], key: str) -> Any:
    if key not in data:
        raise MalformedTrustMessage(f"missing field {key!r}")
    return data[key]


def _int(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**64:
        raise MalformedTrustMessage(f"{name} must be an unsigned integer, got {value!r}")
    return value


def _bin(value: Any, name: str, size: int) -> bytes:
    if not isinstance(value, bytes | bytearray) or len(value) != size:
        raise MalformedTrustMessage(f"{name} must be {size} bytes, got {value!r}")
    return bytes(value)


def _list(value: Any, name: str) -> list[Any]:
    if not isinstance(value, list | tuple):
        raise MalformedTrustMessage(f"{name} must be an array, got {value!r}")
    return list(value)


def _seat_pairs(value: Any, name: str) -> tuple[tuple[int, bytes], ...]:
    pairs = []
    for item in _list(value, name):
        pair = _list(item, name)
        if len(pair) != 2:
            raise MalformedTrustMessage(f"{name} entries must be [seat, bin32], got {item!r}")
        pairs.append((_int(pair[0], f"{name} seat"), _bin(pair[1], f"{name} value", SEED_SIZE)))
    return tuple(pairs)


@dataclass(frozen=True, slots=True)
class RoundPrepare:
    """Host -> all: the host's seed commitment for a round, before any player commits."""

    round_no: int
    game_id: bytes
    host_commit: bytes
    algo: str = ALGO
    host_seat: int = NO_SEAT

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RoundPrepare:
        algo = _get(data, "algo")
        if not isinstance(algo, str):
            raise MalformedTrustMessage(f"algo must be a string, got {algo!r}")
        return cls(
            round_no=_int(_get(data, "round"), "round"),
            game_id=_bin(_get(data, "game_id"), "game_id", GAME_ID_SIZE),
            host_commit=_bin(_get(data, "host_commit"), "host_commit", DIGEST_SIZE),
            algo=algo,
            host_seat=_int(data.get("host_seat", NO_SEAT), "host_seat"),
        )

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "round": self.round_no,
            "game_id": self.game_id,
            "host_commit": self.host_commit,
            "algo": self.algo,
        }
        if self.host_seat != NO_SEAT:
            out["host_seat"] = self.host_seat
        return out


@dataclass(frozen=True, slots=True)
class SeedCommit:
    """Player -> host: the player's seed commitment."""

    round_no: int
    commit: bytes

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SeedCommit:
        return cls(
            round_no=_int(_get(data, "round"), "round"),
            commit=_bin(_get(data, "commit"), "commit", DIGEST_SIZE),
        )

    def to_dict(self) -> dict[str, Any]:
        return {"round": self.round_no, "commit": self.commit}


@dataclass(frozen=True, slots=True)
class SeedCommits:
    """Host -> all: every player commitment received, ascending by seat; the set is now frozen."""

    round_no: int
    commits: tuple[tuple[int, bytes], ...]

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SeedCommits:
        return cls(
            round_no=_int(_get(data, "round"), "round"),
            commits=_seat_pairs(_get(data, "commits"), "commits"),
        )

    def to_dict(self) -> dict[str, Any]:
        return {"round": self.round_no, "commits": [[s, c] for s, c in self.commits]}


@dataclass(frozen=True, slots=True)
class SeedReveal:
    """Player -> host only: the player's seed, after the commitments are frozen."""

    round_no: int
    seed: bytes

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SeedReveal:
        return cls(
            round_no=_int(_get(data, "round"), "round"),
            seed=_bin(_get(data, "seed"), "seed", SEED_SIZE),
        )

    def to_dict(self) -> dict[str, Any]:
        return {"round": self.round_no, "seed": self.seed}


@dataclass(frozen=True, slots=True)
class DeckCommits:
    """Host -> all: the position commitments of one epoch's pile and their deck commitment D."""

    round_no: int
    epoch: int
    commits: tuple[bytes, ...]
    deck_commit: bytes

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> DeckCommits:
        return cls(
            round_no=_int(_get(data, "round"), "round"),
            epoch=_int(_get(data, "epoch"), "epoch"),
            commits=tuple(
                _bin(c, "commits entry", DIGEST_SIZE)
                for c in _list(_get(data, "commits"), "commits")
            ),
            deck_commit=_bin(_get(data, "deck_commit"), "deck_commit", DIGEST_SIZE),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "round": self.round_no,
            "epoch": self.epoch,
            "commits": list(self.commits),
            "deck_commit": self.deck_commit,
        }


@dataclass(frozen=True, slots=True)
class RoundAudit:
    """Host -> all at the round's end (or abort): every seed, so anyone can re-derive the deck."""

    round_no: int
    host_seed: bytes
    seeds: tuple[tuple[int, bytes], ...]
    absent: tuple[int, ...] = ()

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RoundAudit:
        return cls(
            round_no=_int(_get(data, "round"), "round"),
            host_seed=_bin(_get(data, "host_seed"), "host_seed", SEED_SIZE),
            seeds=_seat_pairs(_get(data, "seeds"), "seeds"),
            absent=tuple(_int(s, "absent seat") for s in _list(data.get("absent", []), "absent")),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "round": self.round_no,
            "host_seed": self.host_seed,
            "seeds": [[s, seed] for s, seed in self.seeds],
            "absent": list(self.absent),
        }


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
        """Read whichever proof fields an event dict carries; absent ones stay empty."""
        nonce = data.get("nonce")
        digest = data.get("hand_digest")
        return cls(
            nonce=None if nonce is None else _bin(nonce, "nonce", SEED_SIZE),
            nonces=tuple(
                _bin(n, "nonces entry", SEED_SIZE) for n in _list(data.get("nonces", []), "nonces")
            ),
            hand_digest=None if digest is None else _bin(digest, "hand_digest", DIGEST_SIZE),
        )

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

TrustMessage = RoundPrepare | SeedCommit | SeedCommits | SeedReveal | DeckCommits | RoundAudit

MESSAGE_TYPES: dict[str, type[TrustMessage]] = {
    "round_prepare": RoundPrepare,
    "seed_commit": SeedCommit,
    "seed_commits": SeedCommits,
    "seed_reveal": SeedReveal,
    "deck_commits": DeckCommits,
    "round_audit": RoundAudit,
}
"""Wire type name -> dataclass, for the codec's dispatch."""


def message_from_dict(kind: str, data: Mapping[str, Any]) -> TrustMessage:
    """Build the trust message named `kind` (a key of MESSAGE_TYPES) from its wire dict."""
    try:
        cls = MESSAGE_TYPES[kind]
    except KeyError:
        raise MalformedTrustMessage(f"not a trust message: {kind!r}") from None
    return cls.from_dict(data)
