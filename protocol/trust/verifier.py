"""The client's side of the trust scheme: `TrustVerifier` checks everything the host claims.

One verifier per match, kept across connections: a client session feeds it the match's identity
(the manifest), every trust message, every engine event with its proof fields, and the
`round_history` a resumed connection gets; it checks each signed message's signature through
`check_signature`. The match's identity and round numbering are fixed, every round dealt must end
with its audit (`finish()` settles what is owed when the match is over), the deal follows the
rule, the seeds that went in are public, and the events digest ties the audit to the events this
client received. The card checks are `CardChecks`'; the audit's re-derivation is `audit.py`'s.

Each call returns `Verified` or the first `Violation` it found; `violations()` lists them all so
far, and each round keeps its own (`rounds[i].status`). Nothing here raises for a dishonest host.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from protocol.errors import ProtocolError
from protocol.game_codec import UnknownEvent, encode_event
from protocol.limits import AUDIT_DEADLINE
from protocol.trust.audit import EntryHand, audit_round
from protocol.trust.card_checks import CardChecks
from protocol.trust.checked_round import CheckedRound, Received
from protocol.trust.constants import ALGO, SEED_SIZE
from protocol.trust.deal import DealCheck
from protocol.trust.intents import IntentCheck
from protocol.trust.manifest_check import deck_violations
from protocol.trust.messages import (
    ABANDONED,
    ENDED,
    NO_PROOF,
    SIGNED_MESSAGES,
    DeckCommits,
    EventProof,
    MalformedTrustMessage,
    MatchIdentity,
    RoundAudit,
    RoundHistory,
    RoundPrepare,
    SeedCommit,
    SeedCommits,
    SeedReveal,
    SeedReveals,
    TrustMessage,
)
from protocol.trust.primitives import new_seed, same_digest, seed_commitment
from protocol.trust.referee import Referee
from protocol.trust.results import Outcome, Verified, Violation, ViolationKind
from protocol.trust.seed_checks import audit_against_reveals, reveals_violations
from protocol.trust.signing import certificate_signer, verify
from unonet import events as ev
from unonet.actions import Action
from unonet.cards import DeckManifest

HistoryItems = Sequence[tuple[ev.Event | UnknownEvent, EventProof]]


class TrustVerifier:
    """Checks one match's commitments, cards, challenges and audits, for one seat or a spectator.

    `match` is the match's identity from its manifest; `seat` is this client's seat (None for a
    spectator).
    """

    def __init__(self, match: MatchIdentity, seat: int | None = None) -> None:
        self.match = match
        self.seat = seat
        self.cards = CardChecks(match.manifest, seat)
        self.intents = IntentCheck(seat, match.manifest)
        """This seat's accepted intents against the actions the record shows (only this client
        knows what it asked for)."""
        self.match_over = False
        """A match_ended was received: a new manifest is then a new match, not a violation."""
        self._rounds: list[CheckedRound] = []
        self._violations: list[Violation] = []
        self._eliminated: set[int] = set()
        self._from_start: bool | None = None  # None until the first round_prepare
        self._referee: Referee | None = None
        self._unplaced: dict[int, list[Violation]] = {}  # by round, before its round exists
        self._entering = True
        """A connection is entering the match: until its snapshot (`entered`) or a live event,
        what comes is the host's record of the past (SPEC.md 7.1), in which a round this client
        was away for may be audited without its deal (a missed round)."""
        self._eliminations_known = True  # False once a round was missed: who is out is unknown
        self._missed_in_entry: list[CheckedRound] = []  # judged when the entry ends (`entered`)
        self._entry_hands: dict[int, EntryHand] = {}
        """By round: the positions the public record gave the seat this client took in mid-match
        (`sit`) and the hand the host's snapshot gave it, checked against each other at the
        round's audit."""
        self._report(deck_violations(match.rules, match.manifest), "")

    # -- results -----------------------------------------------------------------------------------

    @property
    def manifest(self) -> DeckManifest:
        return self.match.manifest

    def violations(self) -> list[Violation]:
        """Every violation found so far, oldest first."""
        return list(self._violations)

    @property
    def ok(self) -> bool:
        """True while the host has not been caught at anything."""
        return not self._violations

    @property
    def rounds(self) -> list[CheckedRound]:
        """Every round seen, oldest first, each with its `status` and `absent_seeds`."""
        return list(self._rounds)

    @property
    def current(self) -> CheckedRound | None:
        """The round being played (the last one prepared)."""
        return self._rounds[-1] if self._rounds else None

    @property
    def missed_rounds(self) -> list[int]:
        """The rounds played while this client was away (it came back after them): audited,
        their seeds checked, but neither their deal nor their play watched. No violation."""
        return [rnd.round_no for rnd in self._rounds if rnd.missed]

    @property
    def abandoned_rounds(self) -> int:
        """Rounds prepared and audited as abandoned before their deal: no violation (a host
        restarted), but each is a deal nobody saw, so every player is shown the count
        (CheckedRound.given_up_unseen: a ground deck is a violation, not counted here)."""
        return sum(1 for rnd in self._rounds if rnd.given_up_unseen)

    def _report(
        self, found: Sequence[Violation], what: str, rnd: CheckedRound | None = None
    ) -> Outcome:
        self._violations.extend(found)
        if rnd is not None:
            rnd.violations.extend(found)
        return found[0] if found else Verified(what)

    def malformed(self, detail: str) -> Outcome:
        """Record a host message this client could not read as a trust message (its map passed
        the catalogue but makes no sense as one): a violation of the current round."""
        return self._report([Violation(ViolationKind.MALFORMED, detail)], "", self.current)

    # -- dispatch ----------------------------------------------------------------------------------

    def message(self, msg: TrustMessage | MatchIdentity | RoundHistory) -> Outcome:
        """Feed any trust message received from the host (SeedCommit/SeedReveal are ours), the
        match's identity from a manifest, or a round_history (decoded here)."""
        if isinstance(msg, MatchIdentity):
            return self.manifest_again(msg)
        if isinstance(msg, RoundHistory):
            try:
                decoded = msg.decoded()
            except MalformedTrustMessage as exc:
                return self.malformed(str(exc))
            return self.history(msg, decoded)
        if isinstance(msg, RoundPrepare):
            return self.round_prepare(msg)
        if isinstance(msg, SeedCommits):
            return self.seed_commits(msg)
        if isinstance(msg, SeedReveals):
            return self.seed_reveals(msg)
        if isinstance(msg, DeckCommits):
            return self.deck_commits(msg)
        if isinstance(msg, RoundAudit):
            return self.round_audit(msg)
        return Verified("a message this client sends, not checks")

    # -- the match ---------------------------------------------------------------------------------

    def manifest_again(self, match: MatchIdentity) -> Outcome:
        """A manifest while this match is on (a connection entering it again): it must be the
        same match. A different one before match_ended is a reset the host may not make; the
        client's own leaving the table is the client's business (it calls `finish()` and
        starts a new verifier)."""
        if match == self.match:
            self._entering = True
            return Verified("the match announced again, unchanged")
        if self.match_over:
            return Verified("a new match after this one ended")
        what = [
            name
            for name, mine, theirs in (
                ("game id", self.match.game_id, match.game_id),
                ("seats", self.match.seats, match.seats),
                ("rules", self.match.rules, match.rules),
                ("deck", self.match.manifest, match.manifest),
                ("signer", self.match.signer, match.signer),
            )
            if mine != theirs
        ]
        return self._report(
            [
                Violation(
                    ViolationKind.MATCH_ID,
                    f"the host announced the match again with another {', '.join(what)} while "
                    f"it was not over: a match may not be reset",
                )
            ],
            "",
            self.current,
        )

    def entered(self) -> None:
        """The snapshot that ends a connection's entry arrived (SPEC.md 7.1): what follows is
        live, so a round audited from now on without this client seeing it dealt was withheld,
        not missed. The entry itself is judged now: the host owed it the current and the
        previous round whole (SPEC.md 11.10), so one of them that this client saw dealt and got
        only the audit of was blinded, not missed (the last round of a match included, which
        no later round would reveal)."""
        if self._entering:
            self._owed_whole()
        self._entering = False

    def sit(self, seat: int, hand: Sequence[int] = (), round_no: int | None = None) -> None:
        """This client, which followed the match as a spectator, takes `seat` in mid-match
        (SPEC.md [UNO-8-7]), at the snapshot that ends its entry: from now on the seat's cards
        are checked as its own (given privately exactly where everyone saw it draw, each opened
        against its commitment) and it contributes its seed to each round. What the seat drew
        before came to this client in public only, so no private copy of it is owed; instead
        `hand`, the seat's cards in that snapshot of round `round_no`, must be the cards at the
        positions the public record gives the seat, which the round's audit checks. A seat
        already known (a resume of one's own seat) is kept."""
        if self.seat is not None:
            return
        self.seat = self.cards.seat = self.intents.seat = seat
        rnd = self.current
        if rnd is not None and rnd.round_no == round_no and rnd.dealt and not rnd.ended \
                and not rnd.closed:
            self._entry_hands[rnd.round_no] = (tuple(sorted(rnd.ledger.hand(seat))), tuple(hand))
            rnd.sat_at = len(rnd.received)

    def _owed_whole(self) -> None:
        """Flag each round missed in this entry that was dealt (this client saw its deal, or
        the host replayed its deck) and that the host owed whole: the current or previous one.
        Older rounds come as four messages only, and a round this client never saw dealt has
        nothing of its own to complete: both are missed, no violation."""
        missed, self._missed_in_entry = self._missed_in_entry, []
        current = self.current
        if current is None:
            return
        for rnd in missed:
            if not rnd.dealt or rnd.round_no < current.round_no - 1:
                continue
            found = Violation(
                ViolationKind.HISTORY,
                f"you had seen round {rnd.round_no} dealt, and on your return the host sent "
                f"its audit but not the rest of its events, which it owed you: its end went "
                f"unchecked",
            )
            self._report([found], "", rnd)

    def intent_accepted(self, action: Action) -> Outcome:
        """The host accepted an intent this seat sent (`accepted{id}`): the next action the
        record shows must be exactly it (SPEC.md [UNO-11-36]); checked as its events come."""
        if self.seat is None:
            return Verified("a spectator sends no intents")
        rnd = self.current
        found = self.intents.accepted(action, None if rnd is None else rnd.round_no)
        return self._report(found, "your move was accepted: its record is checked as it comes",
                            rnd)

    def check_signature(self, message: Mapping[str, Any]) -> Outcome:
        """Check the `sig` of a signed message map as received (manifest, round_prepare,
        seed_commits, seed_reveals, deck_commits, round_audit) against the match's signer; call
        it before `message()`. Other messages are not signed: Verified."""
        kind = message.get("t")
        if kind not in SIGNED_MESSAGES:
            return Verified("not a signed message")
        signer = self.match.signer
        own = message.get("signer")
        if kind == "manifest" and isinstance(own, bytes):
            signer = own  # a manifest naming another signer is a MATCH_ID matter
        round_no = message.get("round")
        if verify(signer, message):
            return Verified(f"{kind} signed by the host")
        where = f" of round {round_no}" if isinstance(round_no, int) else ""
        found = [
            Violation(
                ViolationKind.SIGNATURE,
                f"the host's {kind}{where} has no valid signature by the match's key: it could "
                f"deny having sent it",
            )
        ]
        rnd = self._round_numbered(round_no) if isinstance(round_no, int) else None
        if rnd is None and isinstance(round_no, int):
            self._unplaced.setdefault(round_no, []).extend(found)
            self._violations.extend(found)
            return found[0]
        return self._report(found, "", rnd)

    def check_peer(self, certificate: bytes) -> Outcome:
        """On TLS: the key behind the host's certificate must be the match's signer."""
        if certificate_signer(certificate) == self.match.signer:
            return Verified("the match is signed with the key of the host's certificate")
        return self._report(
            [
                Violation(
                    ViolationKind.SIGNATURE,
                    "the match is signed with a key other than the one behind the host's TLS "
                    "certificate",
                )
            ],
            "",
            self.current,
        )

    def audit_owed(self) -> int | None:
        """The round whose audit is due now: its round_ended came, its audit has not (nor was
        it reported overdue). The client's clock gives it AUDIT_DEADLINE (SPEC.md
        [UNO-11-45]), then calls `audit_overdue`."""
        rnd = self.current
        if rnd is None or rnd.closed or not rnd.ended or rnd.audit is not None or rnd.overdue:
            return None
        return rnd.round_no

    def audit_overdue(self, round_no: int) -> Outcome:
        """Round `round_no` ended AUDIT_DEADLINE ago and its audit has not come: a violation
        now, while the player is at the table. The round stays open: an audit that comes late
        is still checked."""
        if self.audit_owed() != round_no:
            return Verified(f"round {round_no} owes no audit now")
        rnd = self.current
        assert rnd is not None
        rnd.overdue = True
        found = Violation(
            ViolationKind.MISSING_AUDIT,
            f"round {round_no} ended and its audit did not come within {AUDIT_DEADLINE:g} s: "
            f"its deck cannot be checked, and the host sends it with the round's last events",
        )
        return self._report([found], "", rnd)

    def finish(self, left: bool = False) -> list[Violation]:
        """The match is over, or this client is done with it: every round prepared must have
        been audited by now. `left`: this client walked out of the table, so the round it left
        in the middle (not yet ended) owes it nothing. Returns the violations found."""
        found: list[Violation] = []
        for rnd in self._rounds:
            if rnd.closed or (left and rnd is self.current and not rnd.ended):
                continue
            owed = self._owed(rnd)
            self._report(owed, "", rnd)
            found += owed
        return found

    def _owed(self, rnd: CheckedRound) -> list[Violation]:
        """A round closed without its audit: missing, and if it was dealt and never ended,
        abandoned (the deal might have been one the host did not like)."""
        rnd.closed = True
        found = [] if rnd.overdue else [  # an overdue audit was reported when it was
            Violation(
                ViolationKind.MISSING_AUDIT,
                f"round {rnd.round_no} {'was dealt' if rnd.dealt else 'was prepared'} and its "
                f"audit never came, so its deck could not be checked",
            )
        ]
        if rnd.dealt and not rnd.ended:
            found.append(
                Violation(
                    ViolationKind.ABANDONED,
                    f"round {rnd.round_no} was dealt and never ended",
                )
            )
        elif not rnd.dealt and rnd.seed_commits is not None:
            found.append(_abandoned_after_reveal(rnd, "and never dealt"))
        return found

    def _round_numbered(self, round_no: int) -> CheckedRound | None:
        return next((r for r in reversed(self._rounds) if r.round_no == round_no), None)

    # -- round setup -------------------------------------------------------------------------------

    def round_prepare(self, msg: RoundPrepare) -> Outcome:
        """A round begins: its number follows the last one, its game is this match's; the round
        before it must have been audited; a second, different one for a number is a re-deal."""
        msg = replace(msg, sig=None)
        previous = self.current
        if previous is not None and previous.prepare == msg:
            return Verified(f"round {msg.round_no} announced again, unchanged")
        if previous is not None and msg.round_no < previous.round_no:
            return self._earlier_prepare(msg)
        found: list[Violation] = []
        if msg.algo != ALGO:
            found.append(
                Violation(
                    ViolationKind.MALFORMED,
                    f"the host shuffles with {msg.algo!r}; this client can only check {ALGO!r}",
                )
            )
        if msg.game_id != self.match.game_id:
            found.append(
                Violation(
                    ViolationKind.MATCH_ID,
                    f"round {msg.round_no} is prepared for another game id than the match's: "
                    f"a host may not restart the match's numbering",
                )
            )
        if self.match_over:
            found.append(
                Violation(ViolationKind.MATCH_ID, f"round {msg.round_no} after the match ended")
            )
        if previous is not None and previous.round_no == msg.round_no:
            found.append(
                Violation(
                    ViolationKind.REDEAL,
                    f"the host announced round {msg.round_no} again with a different seed "
                    f"commitment: the round was re-dealt",
                )
            )
        elif previous is not None and msg.round_no != previous.round_no + 1:
            found.append(
                Violation(
                    ViolationKind.ROUND_ORDER,
                    f"round {msg.round_no} was announced after round {previous.round_no}; "
                    f"rounds are numbered one after another",
                )
            )
        owed = [] if previous is None or previous.closed else self._owed(previous)
        owed += self.intents.settle("before the next round")
        if self._from_start is None:
            self._from_start = msg.round_no == 1
            self._referee = Referee(
                self.match.rules, self.match.seats, from_start=self._from_start
            )
        flip = self.match.rules.variant == "flip"
        rnd = CheckedRound.start(
            msg, self.manifest, self._deal_check(), flip, self.match.rules.max_hand
        )
        self._rounds.append(rnd)
        rnd.violations.extend(self._unplaced.pop(msg.round_no, []))
        outcome = self._report(found, f"round {msg.round_no} prepared", rnd)
        if previous is not None and owed:
            self._report(owed, "", previous)
            return outcome if found else owed[0]
        return outcome

    def _earlier_prepare(self, msg: RoundPrepare) -> Outcome:
        """An earlier round announced again (a connection entering the match is sent every
        round so far): the same as this client has, else a re-deal; one it never had is out of
        order (the host sends every round from the first)."""
        known = self._round_numbered(msg.round_no)
        if known is not None and known.prepare == msg:
            return Verified(f"round {msg.round_no} announced again, unchanged")
        if known is not None:
            found = Violation(
                ViolationKind.REDEAL,
                f"the host announced round {msg.round_no} again with another seed commitment "
                f"than the one it announced first: the round was re-dealt",
            )
        else:
            found = Violation(
                ViolationKind.ROUND_ORDER,
                f"round {msg.round_no} was announced after round {self._rounds[-1].round_no}; "
                f"rounds are numbered one after another",
            )
        return self._report([found], "", known or self.current)

    def _repeated(self, round_no: int, what: str,
                  held: Callable[[CheckedRound], object], msg: object) -> Outcome | None:
        """A trust message sent again (a re-entry replays them): Verified if it is the one
        this client holds for its round (`held` reads it), a violation if it differs from one
        held for an earlier round, None if it is news (the round's checks apply)."""
        current = self.current
        if current is not None and current.round_no == round_no and held(current) == msg:
            return Verified(f"round {round_no}'s {what} repeated")
        rnd = self._round_numbered(round_no)
        if rnd is None or (rnd is current and not rnd.closed):
            return None
        if held(rnd) == msg:
            return Verified(f"round {round_no}'s {what} repeated")
        found = Violation(
            ViolationKind.MALFORMED,
            f"the host sent round {round_no}'s {what} again, different from the first time: "
            f"it changed a round that was over",
        )
        return self._report([found], "", rnd)

    def _deal_check(self) -> DealCheck:
        known = (frozenset(self._eliminated)
                 if self._from_start and self._eliminations_known else None)
        return DealCheck(self.match.seats, self.match.rules.hand_size, known)

    def record_own_seed(self, seed: bytes) -> SeedCommit:
        """Remember this client's seed for the current round; return the seed_commit to send."""
        rnd = self._require_round()
        if self.seat is None:
            raise ValueError("a spectator contributes no seed")
        if len(seed) != SEED_SIZE:
            raise ValueError(f"a seed is {SEED_SIZE} bytes")
        rnd.own_seed = seed
        commit = seed_commitment(rnd.game_id, rnd.round_no, self.seat, seed)
        return SeedCommit(rnd.round_no, commit)

    def contribute(self) -> SeedCommit:
        """Draw a fresh seed for the current round; return the seed_commit to send."""
        return self.record_own_seed(new_seed())

    def reveal(self) -> SeedReveal:
        """The seed_reveal to send (to the host only) once seed_commits has arrived."""
        rnd = self._require_round()
        if rnd.own_seed is None:
            raise ValueError("no seed was contributed this round")
        rnd.own_revealed = True
        return SeedReveal(rnd.round_no, rnd.own_seed)

    def _require_round(self) -> CheckedRound:
        if self.current is None:
            raise ValueError("no round_prepare has been received")
        return self.current

    def _round_for(self, round_no: int, what: str) -> tuple[CheckedRound | None, list[Violation]]:
        """The current round if `round_no` names it and it is still open."""
        rnd = self.current
        if rnd is None:
            return None, [Violation(ViolationKind.MALFORMED, f"{what} before any round_prepare")]
        if rnd.round_no != round_no:
            return None, [
                Violation(
                    ViolationKind.MALFORMED,
                    f"{what} names round {round_no} while round {rnd.round_no} is being played",
                )
            ]
        if rnd.closed:
            return None, [
                Violation(ViolationKind.MALFORMED, f"{what} for round {round_no} after its audit")
            ]
        return rnd, []

    def seed_commits(self, msg: SeedCommits) -> Outcome:
        """The frozen list of player commitments: ours must be in it, unaltered."""
        msg = replace(msg, sig=None)
        repeated = self._repeated(msg.round_no, "seed commitments",
                                  lambda rnd: rnd.seed_commits, msg)
        if repeated is not None:
            return repeated
        rnd, found = self._round_for(msg.round_no, "seed_commits")
        if rnd is None:
            return self._report(found, "", self.current)
        seats = [seat for seat, _ in msg.commits]
        if seats != sorted(set(seats)) or rnd.prepare.host_seat in seats:
            found.append(
                Violation(
                    ViolationKind.MALFORMED,
                    "seed_commits must list each player seat once, ascending, without the host's",
                )
            )
        if rnd.seed_commits is not None:
            found.append(
                Violation(
                    ViolationKind.SEED_COMMITS,
                    "the host changed the seed commitments after publishing them",
                )
            )
        else:
            rnd.seed_commits = msg
        found += self._own_commit(rnd, msg)
        return self._report(found, f"{len(msg.commits)} seed commitments recorded", rnd)

    def _own_commit(self, rnd: CheckedRound, msg: SeedCommits) -> list[Violation]:
        if self.seat is None or rnd.own_seed is None:
            return []
        mine = seed_commitment(rnd.game_id, rnd.round_no, self.seat, rnd.own_seed)
        listed = dict(msg.commits).get(self.seat)
        if listed is None:
            return [
                Violation(
                    ViolationKind.SEED_COMMITS,
                    "your seed commitment is not in the host's list: the deck will be made "
                    "without your contribution",
                )
            ]
        if not same_digest(listed, mine):
            return [
                Violation(
                    ViolationKind.SEED_COMMITS,
                    "the host lists a seed commitment for your seat that is not the one you sent",
                )
            ]
        return []

    def seed_reveals(self, msg: SeedReveals) -> Outcome:
        """The seeds that went in, public before the deal: each opens its commitment, every
        committed seat is listed or absent, and ours is there if we revealed it."""
        msg = replace(msg, sig=None)
        repeated = self._repeated(msg.round_no, "seed reveals", lambda rnd: rnd.seed_reveals,
                                  msg)
        if repeated is not None:
            return repeated
        rnd, found = self._round_for(msg.round_no, "seed_reveals")
        if rnd is None:
            return self._report(found, "", self.current)
        if rnd.seed_reveals is not None:
            found.append(
                Violation(
                    ViolationKind.SEED_REVEALS,
                    "the host changed the published seeds after publishing them",
                )
            )
            return self._report(found, "", rnd)
        if rnd.dealt:
            found.append(
                Violation(ViolationKind.SEED_REVEALS, "the seeds were published after the deal")
            )
        found += reveals_violations(rnd, msg, self.seat)
        rnd.seed_reveals = msg
        absent = f", seats {list(msg.absent)} absent" if msg.absent else ""
        return self._report(found, f"{len(msg.seeds)} seeds published{absent}", rnd)

    def deck_commits(self, msg: DeckCommits) -> Outcome:
        """An epoch's position commitments: D must hash them; the count must fit the pile; the
        deal's pile only after the seeds that made it were published."""
        msg = replace(msg, sig=None)
        repeated = self._repeated(msg.round_no, f"epoch {msg.epoch} commitments",
                                  lambda rnd: rnd.decks.get(msg.epoch), msg)
        if repeated is not None:
            return repeated
        rnd, found = self._round_for(msg.round_no, "deck_commits")
        if rnd is None:
            return self._report(found, "", self.current)
        if msg.epoch == 0 and rnd.seed_commits is not None and rnd.seed_reveals is None:
            found.append(
                Violation(
                    ViolationKind.SEED_REVEALS,
                    "the deck was committed before the seeds that made it were published",
                )
            )
        found += self.cards.deck_commits(rnd, msg)
        return self._report(
            found, f"epoch {msg.epoch}: {len(msg.commits)} commitments recorded", rnd
        )

    # -- engine events -----------------------------------------------------------------------------

    def event(
        self,
        event: ev.Event | UnknownEvent,
        proof: EventProof = NO_PROOF,
        wire: Mapping[str, Any] | None = None,
    ) -> Outcome:
        """Feed one engine event as received, with the proof fields that came beside it; `wire`
        is the event map as received (for the events digest; re-encoded when None)."""
        if self._entering:
            self.entered()  # an event comes live: the entry is over even without a snapshot
        rnd = self.current
        if rnd is None:
            return Verified("no round prepared: nothing to check against")
        if rnd.closed:
            found = [
                Violation(
                    ViolationKind.MALFORMED,
                    f"an event after round {rnd.round_no}'s audit and before the next round: "
                    f"nothing binds it",
                )
            ]
            return self._report(found, "", rnd)
        found = []
        if rnd.history_end is not None and rnd.history_end < len(rnd.received):
            found.append(
                Violation(
                    ViolationKind.HISTORY,
                    f"the round's history ends at event {rnd.history_end}, but you had "
                    f"received {len(rnd.received)}: the host left out events it had sent",
                )
            )
        rnd.history_end = None
        found += self._ingest(rnd, event, proof, wire)
        return self._report(found, f"{type(event).__name__} checked", rnd)

    def _ingest(
        self,
        rnd: CheckedRound,
        event: ev.Event | UnknownEvent,
        proof: EventProof,
        wire: Mapping[str, Any] | None,
    ) -> list[Violation]:
        """Every check of one new event of the round."""
        rnd.received.append(Received(event, proof, None if wire is None else dict(wire)))
        if isinstance(event, UnknownEvent):
            return []  # a newer host's event: nothing this client can check
        found: list[Violation] = []
        if event.audience is None:
            found += self._digest(rnd, event, proof, wire)
            found += self._deal(rnd, event)
            if self._referee is not None:
                self._referee.event(event)
        found += self.cards.event(rnd, event, proof)
        found += self.intents.event(event)
        if isinstance(event, ev.RoundEnded):
            rnd.ended = True
        elif isinstance(event, ev.SeatEliminated):
            self._eliminated.add(event.seat)
        elif isinstance(event, ev.MatchEnded):
            self.match_over = True
        return found

    def _digest(
        self, rnd: CheckedRound, event: ev.Event, proof: EventProof, wire: Mapping[str, Any] | None
    ) -> list[Violation]:
        try:
            rnd.digest.add(wire if wire is not None else encode_event(event, proof.to_dict()))
        except (ProtocolError, TypeError, ValueError) as exc:
            return [Violation(ViolationKind.MALFORMED, f"an event that cannot be encoded: {exc}")]
        return []

    @staticmethod
    def _deal(rnd: CheckedRound, event: ev.Event) -> list[Violation]:
        if isinstance(event, ev.RoundStarted):
            return rnd.deal.started(event)
        if isinstance(event, ev.CardsDrawn) and event.reason == "deal" and not rnd.deal.done:
            rnd.deal.drawn(event)
            return []
        if isinstance(event, ev.DealerDraw):
            return []
        return rnd.deal.finish()

    def history(self, msg: RoundHistory, decoded: HistoryItems) -> Outcome:
        """A chunk of the round's events so far, sent to a connection entering in mid-round.
        Events this client already received must be the same (else the past was rewritten:
        HISTORY); the others are checked as if they had come live, so a resumed client checks
        every card of the round and its audit."""
        rnd, found = self._round_for(msg.round_no, "round_history")
        if rnd is None:
            closed = self._round_numbered(msg.round_no)
            if closed is not None and closed.closed:
                return self._compare_only(closed, msg, decoded)
            return self._report(found, "", self.current)
        if msg.first == 0:
            rnd.history_skipped = 0  # a new entry's history, from its start
        first = msg.first - rnd.history_skipped  # where it resumes in what this client has
        if first > len(rnd.received):
            found.append(
                Violation(
                    ViolationKind.HISTORY,
                    f"the round's history resumes at event {msg.first}, but you have "
                    f"{len(rnd.received)}: events {len(rnd.received)} to {first - 1} "
                    f"are missing",
                )
            )
            return self._report(found, "", rnd)
        for offset, (event, proof) in enumerate(decoded):
            index = msg.first + offset - rnd.history_skipped
            wire = msg.events[offset] if offset < len(msg.events) else None
            if index < len(rnd.received):
                found += _compared(rnd, index, event, proof)
            else:
                found += self._ingest(rnd, event, proof, wire)
        end = msg.first + len(decoded) - rnd.history_skipped
        rnd.history_end = max(end, rnd.history_end or 0)
        return self._report(found, f"events {msg.first} to {msg.first + len(decoded) - 1} "
                            "of the round checked", rnd)

    def _compare_only(
        self, rnd: CheckedRound, msg: RoundHistory, decoded: HistoryItems
    ) -> Outcome:
        """The history of a round already audited (re-sent on re-entry): only a comparison."""
        found: list[Violation] = []
        if msg.first == 0:
            rnd.history_skipped = 0
        for offset, (event, proof) in enumerate(decoded):
            index = msg.first + offset - rnd.history_skipped
            if index < len(rnd.received):
                found += _compared(rnd, index, event, proof)
            elif rnd.missed:
                break  # the rest of a round this client was away for: not its to check
            else:
                found.append(
                    Violation(
                        ViolationKind.HISTORY,
                        f"the history of round {rnd.round_no} has an event {index} the round "
                        f"did not have when it was audited",
                    )
                )
                break
        return self._report(found, f"round {rnd.round_no}'s history repeated", rnd)

    # -- the audit ---------------------------------------------------------------------------------

    def round_audit(self, msg: RoundAudit) -> Outcome:
        """The round's seeds: re-derive everything and check every card this client saw; the
        round must have ended if it was dealt, and the events digest be that of the public
        events this client received."""
        msg = replace(msg, sig=None)
        rnd = self._round_numbered(msg.round_no)
        if rnd is not None and rnd.audit == msg:
            return Verified(f"round {msg.round_no}'s audit repeated")
        if rnd is not None and rnd.audit is not None:
            return self._report(
                [
                    Violation(
                        ViolationKind.MALFORMED,
                        f"the host sent round {msg.round_no}'s audit again, different from the "
                        f"first time: it changed a round that was over",
                    )
                ],
                "",
                rnd,
            )
        if rnd is None or rnd.audit is not None or rnd is not self.current:
            found = [
                Violation(
                    ViolationKind.MALFORMED,
                    f"an audit for round {msg.round_no}, which is not awaiting one",
                )
            ]
            return self._report(found, "", rnd)
        rnd.closed = True
        rnd.audit = msg
        if self._entering and msg.outcome == ENDED and not rnd.ended:
            return self._missed(rnd, msg)
        found = audit_against_reveals(rnd, msg)
        found += self.intents.settle("before the round's audit")
        found += self._outcome(rnd, msg)
        if rnd.dealt and not same_digest(msg.events_digest, rnd.digest.value):
            found.append(
                Violation(
                    ViolationKind.EVENTS_DIGEST,
                    f"the audit's events digest is not that of the {rnd.digest.count} public "
                    f"events you received in round {rnd.round_no}: the host claims to have "
                    f"sent other events",
                )
            )
        problems, key = audit_round(rnd, msg, self.manifest, self.seat,
                                    self._entry_hands.get(rnd.round_no))
        found += problems
        found += self._referee_audit(rnd, key)
        if not rnd.dealt:
            return self._report(found, f"round {msg.round_no} abandoned before its deal", rnd)
        return self._report(found, f"round {msg.round_no} audited: every card checks out", rnd)

    def _missed(self, rnd: CheckedRound, msg: RoundAudit) -> Outcome:
        """The audit of a round this client was away for (or for the rest of), sent on entry:
        its seeds must be those published and open their commitments, and the cards seen
        before leaving must be the audited deck's; its deal, play and digest went unwatched,
        so neither they nor the referee judge it, and who is out of the match is unknown."""
        rnd.missed = True
        self.intents.forget()
        self._missed_in_entry.append(rnd)
        found = audit_against_reveals(rnd, msg)
        problems, _ = audit_round(rnd, msg, self.manifest, self.seat)
        found += [v for v in problems if v.kind not in _UNWATCHED]
        self._eliminations_known = False
        if self._referee is not None:
            self._referee.missed()
        return self._report(found, f"round {msg.round_no} played while you were away", rnd)

    @staticmethod
    def _outcome(rnd: CheckedRound, msg: RoundAudit) -> list[Violation]:
        if msg.outcome not in (ENDED, ABANDONED):
            return [Violation(ViolationKind.MALFORMED, f"an audit outcome {msg.outcome!r}")]
        if not rnd.dealt and (rnd.seed_commits is not None or msg.seeds):
            return [_abandoned_after_reveal(rnd, "and audited as abandoned")]
        if rnd.dealt and (msg.outcome != ENDED or not rnd.ended):
            return [
                Violation(
                    ViolationKind.ABANDONED,
                    f"round {rnd.round_no} was dealt and abandoned before it ended: a host "
                    f"may not drop a deal it does not like",
                )
            ]
        if msg.outcome == ENDED and not rnd.ended:
            return [
                Violation(
                    ViolationKind.MALFORMED,
                    f"the audit says round {rnd.round_no} ended, but it was never dealt",
                )
            ]
        return []

    def _referee_audit(self, rnd: CheckedRound, key: bytes | None) -> list[Violation]:
        """The referee re-plays the round from the public record with the key; a round with no
        usable key cannot be re-played, and neither can the rounds after it (their scores
        build on it), so the referee stops there."""
        referee = self._referee
        if referee is None:
            return []
        if not rnd.ended:
            referee.abandoned()
            return []
        if key is None:
            self._referee = None
            return []
        return referee.audited(key)


def _abandoned_after_reveal(rnd: CheckedRound, how: str) -> Violation:
    """A round given up after its seed_commits went out (SPEC.md [UNO-11-12]): from then on
    the players reveal their seeds to the host, which can know the deck before anyone sees a
    card, so a round it drops then may be a deal it did not like."""
    revealed = f"{len(rnd.seed_reveals.seeds)} seeds published" if rnd.seed_reveals else (
        "the seeds were coming in")
    return Violation(
        ViolationKind.ABANDONED_AFTER_REVEAL,
        f"round {rnd.round_no} was given up after its seed commitments were frozen ({revealed}) "
        f"{how}: the host could know its deck by then, and a round it may drop is a deck it "
        f"may choose",
    )


_UNWATCHED = frozenset(
    {ViolationKind.CARD_COUNT, ViolationKind.MISSING_COMMITMENT, ViolationKind.MISSING_REVEAL}
)
"""What the audit of a round watched only in part cannot hold against the host: where every
card ended, the commitments and hand reveals of the part this client was away for."""


def _compared(
    rnd: CheckedRound, index: int, event: ev.Event | UnknownEvent, proof: EventProof
) -> list[Violation]:
    """A history event at `index` of what this client received: the same one, or one it is
    not owed from before it sat down (skipped, counted in `history_skipped`)."""
    if _before_sitting(rnd, index, event, proof):
        rnd.history_skipped += 1
        return []
    return _same_as_received(rnd, index, event, proof)


def _before_sitting(
    rnd: CheckedRound, index: int, event: ev.Event | UnknownEvent, proof: EventProof
) -> bool:
    """An event of the seat's own history that this client, which took the seat in this
    round after receiving `sat_at` events as a spectator, never had and is not owed (SPEC.md
    [UNO-11-53]): a private one, at a place where what this client received differs from it
    and precedes its sitting down (the boundary included: the seat's last private event may
    come right after the last public one this client had)."""
    if rnd.sat_at is None or index > rnd.sat_at or isinstance(event, UnknownEvent) \
            or event.audience is None:
        return False
    old = rnd.received[index]
    return not (old.event == event and old.proof == proof)


def _same_as_received(
    rnd: CheckedRound, index: int, event: ev.Event | UnknownEvent, proof: EventProof
) -> list[Violation]:
    old = rnd.received[index]
    if old.event == event and old.proof == proof:
        return []
    return [
        Violation(
            ViolationKind.HISTORY,
            f"the round's history rewrites event {index} ({type(old.event).__name__} when you "
            f"received it, {type(event).__name__} now): the host changed the past",
        )
    ]
