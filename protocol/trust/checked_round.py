"""What a client's verifier remembers about one round, from round_prepare to round_audit.

It survives reconnects: the client keeps one verifier per match, so a round's record (its seeds,
its commitments, every event received, what is owed at the audit) is not lost when a connection
is; a `round_history` is compared with `received` and only extends it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from protocol.game_codec import UnknownEvent
from protocol.trust.deal import DealCheck
from protocol.trust.ledger import HandSnapshot, PublicLedger
from protocol.trust.messages import (
    ENDED,
    DeckCommits,
    EventProof,
    RoundAudit,
    RoundPrepare,
    SeedCommits,
    SeedReveals,
)
from protocol.trust.results import RoundStatus, Violation
from protocol.trust.signing import EventsDigest
from unonet import events as ev
from unonet.cards import Color, DeckManifest, Face
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


@dataclass(frozen=True, slots=True)
class Received:
    """One event of the round as this client received it (live or in a round_history), kept so
    that a later history can be compared with it; `wire` is the event map as received."""

    event: ev.Event | UnknownEvent
    proof: EventProof
    wire: dict[str, Any] | None


@dataclass
class CheckedRound:
    """One round as one client saw it: the host's commitments, every card it was shown, the
    public ledger, and what the audit must settle."""

    prepare: RoundPrepare
    ledger: PublicLedger
    deal: DealCheck
    digest: EventsDigest
    own_seed: bytes | None = None
    own_revealed: bool = False
    seed_commits: SeedCommits | None = None
    seed_reveals: SeedReveals | None = None
    decks: dict[int, DeckCommits] = field(default_factory=dict)
    seen: dict[Position, Sighting] = field(default_factory=dict)
    pending: list[Opening] = field(default_factory=list)
    public_mine: set[Position] = field(default_factory=set)  # drawn by, or moved to, this seat
    private_mine: set[Position] = field(default_factory=set)
    told: dict[int, Face] = field(default_factory=dict)  # UNO Flip: dark faces told to us alone
    challenges: list[ChallengeRecord] = field(default_factory=list)
    reveals_due: list[ev.Challenged] = field(default_factory=list)
    reveals_done: list[tuple[int, tuple[int, ...], Color | None, int]] = field(
        default_factory=list
    )  # (target, cards, colour before, side in play) of reveals awaiting their verdict
    dealer_draws: list[ev.DealerDraw] = field(default_factory=list)
    sources_checked: set[int] = field(default_factory=set)
    received: list[Received] = field(default_factory=list)
    history_end: int | None = None  # one past the last index a round_history covered
    sat_at: int | None = None
    """How many events this client had received of the round when it took its seat in it
    (SPEC.md [UNO-8-7]): those came to it as a spectator's, public only."""
    history_skipped: int = 0
    """Events of the seat's own from before `sat_at` that the round_history of this entry
    held and this client never had (the seat's earlier holder's private cards): skipped."""
    ended: bool = False  # its round_ended was received
    audit: RoundAudit | None = None
    closed: bool = False  # audited, or reported as owing its audit: nothing more is expected
    overdue: bool = False  # its audit missed its deadline (reported; a late one is still checked)
    missed: bool = False  # audited while this client was away for (the rest of) the round
    violations: list[Violation] = field(default_factory=list)

    @classmethod
    def start(
        cls,
        prepare: RoundPrepare,
        manifest: DeckManifest,
        deal: DealCheck,
        flip: bool = False,
        max_hand: int | None = None,
    ) -> CheckedRound:
        """A round prepared; `flip`: an UNO Flip match (each round pairs its own dark faces);
        `max_hand`: the rules' Mercy limit, at which a knock-out is due and below which none is."""
        return cls(
            prepare=prepare,
            ledger=PublicLedger(manifest, flip=flip, max_hand=max_hand),
            deal=deal,
            digest=EventsDigest(prepare.game_id, prepare.round_no),
        )

    @property
    def game_id(self) -> bytes:
        return self.prepare.game_id

    @property
    def round_no(self) -> int:
        return self.prepare.round_no

    @property
    def audited(self) -> bool:
        return self.audit is not None

    @property
    def absent_seeds(self) -> tuple[int, ...]:
        """Seats whose seed did not go into this round's deck (they count as zeros), as the
        public seed_reveals say: shown to every player, not only to the seat concerned."""
        return () if self.seed_reveals is None else self.seed_reveals.absent

    @property
    def dealt(self) -> bool:
        """Whether the round got as far as its deal: epoch 0 committed or any event received.
        Such a round must end and be audited; one abandoned before is only counted."""
        return 0 in self.decks or bool(self.received)

    @property
    def abandoned(self) -> bool:
        """Audited as abandoned (never dealt, so no violation; counted for every player)."""
        return self.audit is not None and self.audit.outcome != ENDED

    @property
    def given_up_unseen(self) -> bool:
        """Abandoned before its deal and nothing wrong found: allowed (a host restarted),
        counted for every player, never called audited. One given up after its seeds came in
        (a ground deck) is a violation instead (SPEC [UNO-11-47])."""
        return self.abandoned and not self.dealt and not self.violations

    @property
    def status(self) -> RoundStatus:
        if self.violations:
            return "violated"
        if self.missed:
            return "missed"
        return "audited" if self.audit is not None else "checking"

    @property
    def dark_faces(self) -> dict[int, Face]:
        """UNO Flip: every dark face this client was told this round (to everybody or to it)."""
        return {**self.ledger.dark, **self.told}

    def commitment(self, position: Position) -> bytes | None:
        """The published commitment of a position, or None if it is not (yet) known."""
        epoch, index = position
        deck = self.decks.get(epoch)
        if deck is None or not 0 <= index < len(deck.commits):
            return None
        return deck.commits[index]
