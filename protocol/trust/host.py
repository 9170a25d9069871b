"""The host's side of a round: its secret seed, the players' seeds, the key and the committed piles.

Pure bookkeeping: the host's session calls it and sends what it returns. Mistakes here are the
host's own programming errors, so they raise `ValueError`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from protocol.trust.constants import ABSENT_SEED, ALGO, NO_SEAT, SEED_SIZE
from protocol.trust.deck import CardProof, CommittedDeck, deal_deck, reshuffle_deck
from protocol.trust.messages import (
    DeckCommits,
    EventProof,
    RoundAudit,
    RoundPrepare,
    SeedCommits,
    SeedReveals,
)
from protocol.trust.primitives import new_seed, round_key, same_digest, seed_commitment
from unonet import events as ev
from unonet.events import Position


@dataclass
class HostCommitments:
    """Everything the host holds for one round, from round_prepare to round_audit."""

    game_id: bytes
    round_no: int
    host_seat: int = NO_SEAT
    host_seed: bytes = field(default_factory=new_seed)
    commits: dict[int, bytes] = field(default_factory=dict)
    seeds: dict[int, bytes] = field(default_factory=dict)
    frozen: bool = False
    decks: dict[int, CommittedDeck] = field(default_factory=dict)
    _key: bytes | None = None

    def round_prepare(self) -> RoundPrepare:
        """The first message of the round: the host's commitment, sent before anything else."""
        commit = seed_commitment(self.game_id, self.round_no, self.host_seat, self.host_seed)
        return RoundPrepare(self.round_no, self.game_id, commit, ALGO, self.host_seat)

    def accept_commit(self, seat: int, commit: bytes) -> None:
        """Record a player's seed_commit; only before the list is frozen, never for the host."""
        if self.frozen:
            raise ValueError("seed commitments are frozen")
        if seat == self.host_seat:
            raise ValueError("the host's seat contributes only the host seed")
        self.commits[seat] = commit

    def freeze_commits(self) -> SeedCommits:
        """Close the commitment phase (all in, or timed out) and publish the list."""
        self.frozen = True
        return SeedCommits(self.round_no, tuple(sorted(self.commits.items())))

    def accept_reveal(self, seat: int, seed: bytes) -> bool:
        """Keep a player's seed if it opens that player's commitment; False (ignored) if not."""
        commit = self.commits.get(seat)
        if not self.frozen or commit is None or len(seed) != SEED_SIZE:
            return False
        if not same_digest(seed_commitment(self.game_id, self.round_no, seat, seed), commit):
            return False
        self.seeds[seat] = seed
        return True

    @property
    def absent(self) -> tuple[int, ...]:
        """Committed seats whose seed never came: each contributes ABSENT_SEED."""
        return tuple(seat for seat in sorted(self.commits) if seat not in self.seeds)

    @property
    def key(self) -> bytes:
        """The round key K, fixed once the commitments are frozen (call after the reveals)."""
        if not self.frozen:
            raise ValueError("the round key needs the frozen seed commitments")
        if self._key is None:
            contributions = [self.seeds.get(seat, ABSENT_SEED) for seat in sorted(self.commits)]
            self._key = round_key(self.host_seed, self.game_id, self.round_no, contributions)
        return self._key

    def deal(self, deck_size: int) -> DeckCommits:
        """Commit epoch 0, the deal, and return the deck_commits message to broadcast."""
        return self._publish(deal_deck(self.game_id, self.round_no, self.key, deck_size))

    def reshuffle(self, epoch: int, sources: Sequence[Position]) -> DeckCommits:
        """Commit a reshuffle epoch from the `sources` of the public Reshuffled event."""
        deck = reshuffle_deck(self.game_id, self.round_no, self.key, epoch, sources, self.card_at)
        return self._publish(deck)

    def _publish(self, deck: CommittedDeck) -> DeckCommits:
        if deck.epoch in self.decks:
            raise ValueError(f"epoch {deck.epoch} is already committed")
        self.decks[deck.epoch] = deck
        return DeckCommits(self.round_no, deck.epoch, deck.commitments, deck.deck_commitment)

    def card_at(self, position: Position) -> int:
        """The committed card id at a position (what the engine must deal there)."""
        epoch, index = position
        return self.decks[epoch].order[index]

    def proof(self, position: Position) -> CardProof:
        """The opening of one position."""
        epoch, index = position
        return self.decks[epoch].proof(index)

    def nonce(self, position: Position) -> bytes:
        """The nonce for a card_played or top_card_turned event (`proof(position).nonce`,
        without making the CardProof: this runs for most events of every action)."""
        epoch, index = position
        return self.decks[epoch].nonces[index]

    def nonces(self, positions: Iterable[Position]) -> tuple[bytes, ...]:
        """The nonces for cards_received (drawn, swapped or passed cards) or challenge_reveal,
        in the order of the event's positions."""
        return tuple(self.nonce(position) for position in positions)

    def event_proof(self, event: ev.Event) -> EventProof:
        """The proof fields an honest host attaches to `event` (SPEC.md 11.4), as an
        EventProof (`proof_fields`)."""
        fields = self.proof_fields(event)
        return EventProof(nonce=fields.get("nonce"), nonces=tuple(fields.get("nonces", ())))

    def proof_fields(self, event: ev.Event) -> dict[str, Any]:
        """The proof fields an honest host attaches to `event` (SPEC.md 11.4), as the keys they
        take beside the event on the wire: a nonce for every position whose card the receivers
        learn. A card drawn, swapped, passed or handed back from under the pile reaches its
        owner as cards_received, so that is the one place a face-down card is opened;
        hands_moved and cards_returned carry none. No Mercy's cards_discarded and
        roulette_turned show cards face up to everybody: a nonce each. A map, not an
        EventProof: this runs for most events of every action."""
        if isinstance(event, (ev.CardPlayed, ev.TopCardTurned)):
            return {"nonce": self.nonce(event.position)}
        if isinstance(event, (ev.CardsReceived, ev.ChallengeReveal, ev.CardsDiscarded,
                              ev.RouletteTurned)):
            nonces = self.nonces(event.positions)
            return {"nonces": list(nonces)} if nonces else {}
        return {}

    def challenge_proofs(self, positions: Iterable[Position]) -> tuple[CardProof, ...]:
        """The openings of a challenged hand, for the challenger alone."""
        return tuple(self.proof(position) for position in positions)

    def seed_reveals(self) -> SeedReveals:
        """The seats' seeds, published when the reveal phase closes (before the deal): every
        player sees that every seed went in. Not the host seed, which keeps the deck secret."""
        if not self.frozen:
            raise ValueError("the seeds are published after the commitments are frozen")
        return SeedReveals(self.round_no, tuple(sorted(self.seeds.items())), self.absent)

    def audit(self, outcome: str, events_digest: bytes) -> RoundAudit:
        """The round's last message: every seed, so every client can re-derive everything;
        `outcome` ("ended" iff its round_ended was sent, else "abandoned") and the digest of
        the public events sent (signing.EventsDigest). A round given up before its
        commitments were frozen names no seat: none was listed in seed_commits."""
        return RoundAudit(
            round_no=self.round_no,
            host_seed=self.host_seed,
            seeds=tuple(sorted(self.seeds.items())),
            absent=self.absent if self.frozen else (),
            outcome=outcome,
            events_digest=events_digest,
        )
