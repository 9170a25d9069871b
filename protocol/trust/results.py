"""What a check returns: `Verified`, or a `Violation` naming what failed in plain words; and
`RoundStatus`, what a round's checks add up to so far (the client's title bar reads it).

A dishonest host is an expected input, not an exceptional one, so checks never raise for it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

RoundStatus = Literal["checking", "audited", "violated", "missed"]
"""What the title bar says of a round: still being checked (nothing can be called verified
before its audit), audited with everything holding, caught at something, or missed: this client
was away while it was played (it came back after it), so only its seeds and the cards it saw
before leaving were checked against its audit."""


class ViolationKind(StrEnum):
    """Stable codes for what a host got caught doing (or failing to do)."""

    CARD_MISMATCH = "card_mismatch"  # an opened card does not match its position commitment
    MISSING_PROOF = "missing_proof"  # a card the client must check came without its nonce
    MISSING_COMMITMENT = "missing_commitment"  # a position with no published commitment
    MALFORMED = "malformed"  # counts, sizes or seat lists that cannot be right
    DECK_COMMITMENT = "deck_commitment"  # D does not hash the listed commitments, or changed
    REDEAL = "redeal"  # a second, different round_prepare for a round already prepared
    ROUND_ORDER = "round_order"  # a round number that does not increase
    SEED_COMMITS = "seed_commits"  # the frozen seed list left out or altered this client's seed
    SEED_MISMATCH = "seed_mismatch"  # an audited seed does not open its commitment
    DECK_ORDER = "deck_order"  # the committed pile is not the order the seeds produce
    DRAW_ORDER = "draw_order"  # a card taken from anywhere but the top of the current pile
    POSITION_REUSED = "position_reused"  # one position handed out twice
    NOT_HELD = "not_held"  # a seat played a position the public record says it does not hold
    RESHUFFLE_CARDS = "reshuffle_cards"  # a reshuffle of cards other than the discard pile
    HAND_DIGEST = "hand_digest"  # the digest at a Wild Draw Four does not match the hand
    CHALLENGE_HAND = "challenge_hand"  # the revealed hand is not the hand the seat held
    CHALLENGE_COLOR = "challenge_color"  # the revealed colour is not the colour on the table
    CHALLENGE_VERDICT = "challenge_verdict"  # guilty/innocent contradicts the revealed hand
    MISSING_REVEAL = "missing_reveal"  # a challenge with no hand revealed to the challenger
    POSITION_MISMATCH = "position_mismatch"  # privately given a position not drawn in public
    HAND_COUNT = "hand_count"  # a hand revealed at the round's end of the wrong size
    CARD_COUNT = "card_count"  # at the audit, a card of the deck in no place or in two
    MISSING_AUDIT = "missing_audit"  # a round that ended (or was dropped) without its seeds
    MATCH_ID = "match_id"  # a game_id other than the match's, or the match announced anew
    ABANDONED = "abandoned"  # a round that was dealt and never ended
    DEAL_ORDER = "deal_order"  # a dealt position given to a seat the deal rule does not name
    SEED_REVEALS = "seed_reveals"  # the public seed reveals do not open, or differ from the audit
    SIGNATURE = "signature"  # a signed message without a valid signature by the match's signer
    EVENTS_DIGEST = "events_digest"  # the audit's digest is not that of the events received
    HISTORY = "history"  # a round_history rewrites an event this client already received
    ILLEGAL = "illegal"  # the public record has a play, penalty or score the rules do not give
    DECK = "deck"  # the manifest's deck is not the one its rules name (UNO Flip: not its faces)
    FLIP = "flip"  # a flipped event that does not turn the table as the public record does
    OTHER_SIDE = "other_side"  # a face shown of the side not in play is not that card's, or a
    # hand shown with other positions than the public record gives the seat
    DARK_FACE = "dark_face"  # UNO Flip: a dark face told that is not the round's pairing's,
    # told twice differently, or not told where the record needs it (a card face up on the
    # dark side, a card received, a hand revealed on the dark side)
    DISCARD_ALL = "discard_all"  # No Mercy: cards discarded with no Discard All of the seat's on
    # top, or not of its colour
    ROULETTE = "roulette"  # No Mercy: a Color Roulette's turned cards are not the ones its
    # chooser drew, not under the colour named, or go on past a card of that colour
    KNOCK_OUT = "knock_out"  # the Mercy rule (max_hand): a seat put out below the limit, or
    # knocked out and keeping cards
    ABANDONED_AFTER_REVEAL = "abandoned_after_reveal"  # a round given up once its seeds were
    # coming in: the host may have known the deck it would not deal
    REWRITTEN_CARD = "rewritten_card"  # the host recorded other cards than this seat played
    REWRITTEN_COLOR = "rewritten_color"  # ... another colour than this seat named
    REWRITTEN_TARGET = "rewritten_target"  # ... another seat than this seat picked (7, catch)
    REWRITTEN_UNO = "rewritten_uno"  # ... a play without the UNO this seat called, or with one
    REWRITTEN_ACTION = "rewritten_action"  # ... another action than this seat's, or none


@dataclass(frozen=True, slots=True)
class Verified:
    """The input checked out; `what` says what was checked, for a log line."""

    what: str = "nothing to check"

    def __bool__(self) -> bool:
        return True


@dataclass(frozen=True, slots=True)
class Violation:
    """Evidence that the host broke the scheme: a stable `kind` and a sentence for a human."""

    kind: ViolationKind
    detail: str

    def __bool__(self) -> bool:
        return False

    def __str__(self) -> str:
        return f"{self.kind.value}: {self.detail}"


Outcome = Verified | Violation
