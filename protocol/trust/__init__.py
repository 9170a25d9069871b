"""The trust scheme (SPEC.md section 11): commitments the host makes and clients check.

Host side: `HostCommitments` and the pure constructions in `primitives` and `deck`. Client side:
`TrustVerifier`, fed the trust messages and engine events with their proof fields; it returns
`Verified` or `Violation` values and never raises for a dishonest host. No I/O here.
"""

from protocol.trust.constants import (
    ABSENT_SEED,
    ALGO,
    NO_SEAT,
    TAG_CARD_COMMIT,
    TAG_CARD_NONCE,
    TAG_DECK_COMMIT,
    TAG_HAND,
    TAG_SEED_COMMIT,
    TAG_SHUFFLE_KEY,
)
from protocol.trust.deck import CardProof, CommittedDeck, commit_order, deal_deck, reshuffle_deck
from protocol.trust.host import HostCommitments
from protocol.trust.messages import (
    MESSAGE_TYPES,
    NO_PROOF,
    DeckCommits,
    EventProof,
    MalformedTrustMessage,
    RoundAudit,
    RoundPrepare,
    SeedCommit,
    SeedCommits,
    SeedReveal,
    TrustMessage,
    message_from_dict,
)
from protocol.trust.primitives import (
    card_commitment,
    card_nonce,
    deck_commitment,
    hand_digest,
    new_game_id,
    new_seed,
    round_key,
    seed_commitment,
)
from protocol.trust.results import Outcome, Verified, Violation, ViolationKind
from protocol.trust.verifier import TrustVerifier

__all__ = [
    "ABSENT_SEED",
    "ALGO",
    "MESSAGE_TYPES",
    "NO_PROOF",
    "NO_SEAT",
    "TAG_CARD_COMMIT",
    "TAG_CARD_NONCE",
    "TAG_DECK_COMMIT",
    "TAG_HAND",
    "TAG_SEED_COMMIT",
    "TAG_SHUFFLE_KEY",
    "CardProof",
    "CommittedDeck",
    "DeckCommits",
    "EventProof",
    "HostCommitments",
    "MalformedTrustMessage",
    "Outcome",
    "RoundAudit",
    "RoundPrepare",
    "SeedCommit",
    "SeedCommits",
    "SeedReveal",
    "TrustMessage",
    "TrustVerifier",
    "Verified",
    "Violation",
    "ViolationKind",
    "card_commitment",
    "card_nonce",
    "commit_order",
    "deal_deck",
    "deck_commitment",
    "hand_digest",
    "message_from_dict",
    "new_game_id",
    "new_seed",
    "reshuffle_deck",
    "round_key",
    "seed_commitment",
]
