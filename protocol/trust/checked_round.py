"""What a client's verifier remembers about one round until its audit."""

from __future__ import annotations

from dataclasses import dataclass, field

from protocol.trust.ledger import HandSnapshot, PublicLedger
from protocol.trust.messages import DeckCommits, RoundPrepare, SeedCommits
from unonet import events as ev
from unonet.cards import Color, DeckManifest
from unonet.events import Position


@dataclass(frozen=True, slots=True)
class Sighting:
    """A card id this client saw at a position, and how (for the audit's messages)."""

    card: int
    how: str


@dataclass(frozen=True, slots=True)
class Opening:
    """A (position, card, nonce) waiting for its epoch's commitments to arrive."""

    position: Position
    card: int
    nonce: bytes
    how: str


@dataclass(frozen=True, slots=True)
class ChallengeRecord:
    """A public verdict and the hand the public record fixed for it."""

    verdict: ev.Challenged
    snapshot: HandSnapshot | None
    checked_by_me: bool = False


@dataclass
class CheckedRound:
    """One round from round_prepare to round_audit, as one client saw it."""

    prepare: RoundPrepare
    ledger: PublicLedger
    own_seed: bytes | None = None
    own_revealed: bool = False
    seed_commits: SeedCommits | None = None
    decks: dict[int, DeckCommits] = field(default_factory=dict)
    seen: dict[Position, Sighting] = field(default_factory=dict)
    pending: list[Opening] = field(default_factory=list)
    public_mine: set[Position] = field(default_factory=set)  # drawn by, or moved to, this seat
    private_mine: set[Position] = field(default_factory=set)
    challenges: list[ChallengeRecord] = field(default_factory=list)
    reveals_due: list[ev.Challenged] = field(default_factory=list)
    reveals_done: list[tuple[int, tuple[int, ...], Color | None]] = field(default_factory=list)
    dealer_draws: list[ev.DealerDraw] = field(default_factory=list)
    sources_checked: set[int] = field(default_factory=set)
    audited: bool = False
    partial: bool = False  # joined after the deal: the public record of hands is incomplete

    @classmethod
    def start(cls, prepare: RoundPrepare, manifest: DeckManifest) -> CheckedRound:
        return cls(prepare=prepare, ledger=PublicLedger(manifest))

    @property
    def game_id(self) -> bytes:
        return self.prepare.game_id

    @property
    def round_no(self) -> int:
        return self.prepare.round_no

    def commitment(self, position: Position) -> bytes | None:
        """The published commitment of a position, or None if it is not (yet) known."""
        epoch, index = position
        deck = self.decks.get(epoch)
        if deck is None or not 0 <= index < len(deck.commits):
            return None
        return deck.commits[index]
