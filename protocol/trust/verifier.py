"""The client's side of the trust scheme: `TrustVerifier` checks everything the host claims.

A client session feeds it the round's trust messages and every engine event it receives, with the
proof fields that came beside them. Each call returns `Verified` or the first `Violation` it found;
`violations()` lists all of them so far. Nothing here raises for a dishonest host.
"""

from __future__ import annotations

from collections.abc import Sequence

from protocol.limits import MAX_SEATS
from protocol.trust.audit import audit_round
from protocol.trust.challenge import hand_set_violations, verdict_violation
from protocol.trust.checked_round import ChallengeRecord, CheckedRound, Opening, Sighting
from protocol.trust.constants import ALGO, DIGEST_SIZE, SEED_SIZE
from protocol.trust.ledger import CHALLENGEABLE, fmt
from protocol.trust.messages import (
    NO_PROOF,
    DeckCommits,
    EventProof,
    RoundAudit,
    RoundPrepare,
    SeedCommit,
    SeedCommits,
    SeedReveal,
    TrustMessage,
)
from protocol.trust.primitives import (
    card_commitment,
    deck_commitment,
    hand_digest,
    new_seed,
    same_digest,
    seed_commitment,
)
from protocol.trust.results import Outcome, Verified, Violation, ViolationKind
from unonet import events as ev
from unonet.cards import DeckManifest
from unonet.events import Position


class TrustVerifier:
    """Checks one game's commitments, cards, challenges and audits, for one seat or a spectator.

    `seat` is this client's seat (None for a spectator); `manifest` is the game's public deck.
    """

    def __init__(self, manifest: DeckManifest, seat: int | None = None) -> None:
        self.manifest = manifest
        self.seat = seat
        self._rounds: list[CheckedRound] = []
        self._violations: list[Violation] = []

    # -- results -----------------------------------------------------------------------------------

    def violations(self) -> list[Violation]:
        """Every violation found so far, oldest first."""
        return list(self._violations)

    @property
    def ok(self) -> bool:
        """True while the host has not been caught at anything."""
        return not self._violations

    @property
    def current(self) -> CheckedRound | None:
        """The round being played (the last one prepared)."""
        return self._rounds[-1] if self._rounds else None

    def _report(self, found: Sequence[Violation], what: str) -> Outcome:
        self._violations.extend(found)
        return found[0] if found else Verified(what)

    # -- dispatch ----------------------------------------------------------------------------------

    def message(self, msg: TrustMessage) -> Outcome:
        """Feed any trust message received from the host (SeedCommit/SeedReveal are ours)."""
        if isinstance(msg, RoundPrepare):
            return self.round_prepare(msg)
        if isinstance(msg, SeedCommits):
            return self.seed_commits(msg)
        if isinstance(msg, DeckCommits):
            return self.deck_commits(msg)
        if isinstance(msg, RoundAudit):
            return self.round_audit(msg)
        return Verified("a message this client sends, not checks")

    # -- round setup -------------------------------------------------------------------------------

    def round_prepare(self, msg: RoundPrepare) -> Outcome:
        """A round begins: record the host's commitment; a second one for the round is a re-deal."""
        found: list[Violation] = []
        if msg.algo != ALGO:
            found.append(
                Violation(
                    ViolationKind.MALFORMED,
                    f"the host shuffles with {msg.algo!r}; this client can only check {ALGO!r}",
                )
            )
        same_game = [r for r in self._rounds if r.game_id == msg.game_id]
        for earlier in same_game:
            if earlier.round_no != msg.round_no:
                continue
            if same_digest(earlier.prepare.host_commit, msg.host_commit):
                return self._report(found, f"round {msg.round_no} announced again, unchanged")
            found.append(
                Violation(
                    ViolationKind.REDEAL,
                    f"the host announced round {msg.round_no} again with a different seed "
                    f"commitment: the round was re-dealt",
                )
            )
            break
        else:
            latest = max((r.round_no for r in same_game), default=None)
            if latest is not None and msg.round_no < latest:
                found.append(
                    Violation(
                        ViolationKind.ROUND_ORDER,
                        f"round {msg.round_no} was announced after round {latest}",
                    )
                )
            for earlier in same_game:
                if earlier.round_no < msg.round_no and not earlier.audited:
                    found.append(
                        Violation(
                            ViolationKind.MISSING_AUDIT,
                            f"round {earlier.round_no} ended without the host revealing its "
                            f"seeds, so its deck could not be checked",
                        )
                    )
                    earlier.audited = True  # reported once
        self._rounds.append(CheckedRound.start(msg, self.manifest))
        return self._report(found, f"round {msg.round_no} prepared")

    def joined_mid_round(self) -> None:
        """This client entered the current round after its deal (a resume, a late spectator).
        It missed public events, so the checks that need the whole public record of who
        holds which position are skipped for this round; every card it is shown is still
        opened against its commitment, and the audit still re-derives the seeds and piles."""
        rnd = self.current
        if rnd is None:
            return
        rnd.partial = True
        rnd.ledger.uncertain.update(range(MAX_SEATS))

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
        rnd = self.current
        if rnd is None:
            return None, []
        if rnd.round_no != round_no:
            return None, [
                Violation(
                    ViolationKind.MALFORMED,
                    f"{what} names round {round_no} while round {rnd.round_no} is being played",
                )
            ]
        return rnd, []

    def seed_commits(self, msg: SeedCommits) -> Outcome:
        """The frozen list of player commitments: ours must be in it, unaltered."""
        rnd, found = self._round_for(msg.round_no, "seed_commits")
        if rnd is None:
            return self._report(found, "no round to check seed_commits against")
        seats = [seat for seat, _ in msg.commits]
        if seats != sorted(set(seats)) or rnd.prepare.host_seat in seats:
            found.append(
                Violation(
                    ViolationKind.MALFORMED,
                    "seed_commits must list each player seat once, ascending, without the host's",
                )
            )
        if rnd.seed_commits is not None and rnd.seed_commits != msg:
            found.append(
                Violation(
                    ViolationKind.SEED_COMMITS,
                    "the host changed the seed commitments after publishing them",
                )
            )
        elif rnd.seed_commits is None:
            rnd.seed_commits = msg
        if self.seat is not None and rnd.own_seed is not None:
            mine = seed_commitment(rnd.game_id, rnd.round_no, self.seat, rnd.own_seed)
            listed = dict(msg.commits).get(self.seat)
            if listed is None:
                found.append(
                    Violation(
                        ViolationKind.SEED_COMMITS,
                        "your seed commitment is not in the host's list: the deck will be made "
                        "without your contribution",
                    )
                )
            elif not same_digest(listed, mine):
                found.append(
                    Violation(
                        ViolationKind.SEED_COMMITS,
                        "the host lists a seed commitment for your seat that is not the one you "
                        "sent",
                    )
                )
        return self._report(found, f"{len(msg.commits)} seed commitments recorded")

    def deck_commits(self, msg: DeckCommits) -> Outcome:
        """An epoch's position commitments: D must hash them; the count must fit the pile."""
        rnd, found = self._round_for(msg.round_no, "deck_commits")
        if rnd is None:
            return self._report(found, "no round to check deck_commits against")
        expected_d = deck_commitment(rnd.game_id, rnd.round_no, msg.epoch, msg.commits)
        if not same_digest(expected_d, msg.deck_commit):
            found.append(
                Violation(
                    ViolationKind.DECK_COMMITMENT,
                    f"the deck commitment of epoch {msg.epoch} is not the hash of its "
                    f"{len(msg.commits)} position commitments",
                )
            )
        earlier = rnd.decks.get(msg.epoch)
        if earlier is not None:
            if earlier != msg:
                found.append(
                    Violation(
                        ViolationKind.DECK_COMMITMENT,
                        f"the host committed epoch {msg.epoch} twice, differently",
                    )
                )
            return self._report(found, f"epoch {msg.epoch} commitments repeated")
        if msg.epoch == 0 and rnd.seed_commits is None:
            found.append(
                Violation(
                    ViolationKind.MALFORMED,
                    "the deck was committed before the seed commitments were published",
                )
            )
        size = self._pile_size(rnd, msg.epoch)
        if size is not None and size != len(msg.commits):
            found.append(
                Violation(
                    ViolationKind.MALFORMED,
                    f"epoch {msg.epoch} has {len(msg.commits)} commitments for a pile of {size}",
                )
            )
        rnd.decks[msg.epoch] = msg
        found += self._retry_pending(rnd, msg.epoch)
        found += self._check_sources(rnd)
        return self._report(found, f"epoch {msg.epoch}: {len(msg.commits)} commitments recorded")

    def _pile_size(self, rnd: CheckedRound, epoch: int) -> int | None:
        if epoch == 0:
            return len(self.manifest)
        record = rnd.ledger.reshuffles.get(epoch)
        return None if record is None else len(record.event.sources)

    # -- card openings -----------------------------------------------------------------------------

    def _name(self, card: int) -> str:
        if 0 <= card < len(self.manifest):
            return self.manifest.face(card).name
        return f"card {card} (not in the deck)"

    def _open(
        self, rnd: CheckedRound, position: Position, card: int, nonce: bytes | None, how: str
    ) -> list[Violation]:
        """Record a sighting and, given a nonce, check it against the position's commitment."""
        found: list[Violation] = []
        earlier = rnd.seen.get(position)
        if earlier is not None and earlier.card != card:
            found.append(
                Violation(
                    ViolationKind.CARD_MISMATCH,
                    f"position {fmt(position)} was shown as {self._name(earlier.card)} "
                    f"({earlier.how}) and later as {self._name(card)} ({how})",
                )
            )
        elif earlier is None:
            rnd.seen[position] = Sighting(card, how)
        if nonce is None:
            return found
        if len(nonce) != SEED_SIZE:
            return [
                *found,
                Violation(
                    ViolationKind.MALFORMED, f"the nonce for {fmt(position)} is not 32 bytes"
                ),
            ]
        if position[0] not in rnd.decks:
            rnd.pending.append(Opening(position, card, nonce, how))
            return found
        return found + self._check_opening(rnd, Opening(position, card, nonce, how))

    def _check_opening(self, rnd: CheckedRound, opening: Opening) -> list[Violation]:
        committed = rnd.commitment(opening.position)
        if committed is None:
            return [
                Violation(
                    ViolationKind.MISSING_COMMITMENT,
                    f"position {fmt(opening.position)} has no published commitment",
                )
            ]
        epoch, index = opening.position
        actual = card_commitment(
            rnd.game_id, rnd.round_no, epoch, index, opening.card, opening.nonce
        )
        if same_digest(actual, committed):
            return []
        return [
            Violation(
                ViolationKind.CARD_MISMATCH,
                f"card at position {fmt(opening.position)} does not match the host's commitment "
                f"(shown as {self._name(opening.card)}, {opening.how})",
            )
        ]

    def _retry_pending(self, rnd: CheckedRound, epoch: int) -> list[Violation]:
        ready = [o for o in rnd.pending if o.position[0] == epoch]
        rnd.pending = [o for o in rnd.pending if o.position[0] != epoch]
        found: list[Violation] = []
        for opening in ready:
            found += self._check_opening(rnd, opening)
        return found

    def _check_sources(self, rnd: CheckedRound) -> list[Violation]:
        """A reshuffle mixes exactly the untaken pile and the discards it takes (sizes needed)."""
        found: list[Violation] = []
        if rnd.partial:
            return found  # the public record before we joined is not ours to compare with
        for epoch, record in rnd.ledger.reshuffles.items():
            previous = rnd.decks.get(record.previous_epoch)
            if epoch in rnd.sources_checked or previous is None:
                continue
            rnd.sources_checked.add(epoch)
            expected = rnd.ledger.expected_sources(record, len(previous.commits))
            if sorted(record.event.sources) != expected:
                found.append(
                    Violation(
                        ViolationKind.RESHUFFLE_CARDS,
                        f"the reshuffle into epoch {epoch} mixes {len(record.event.sources)} "
                        f"positions, not the {len(expected)} the public record leaves to mix",
                    )
                )
        return found

    # -- engine events -----------------------------------------------------------------------------

    def event(self, event: ev.Event, proof: EventProof = NO_PROOF) -> Outcome:
        """Feed one engine event as received, with the proof fields that came beside it."""
        rnd = self.current
        if rnd is None:
            return Verified("no round prepared: nothing to check against")
        found: list[Violation] = []
        if event.audience is None:
            problems = rnd.ledger.apply(event)
            if not rnd.partial:
                found += problems
        found += self._event_checks(rnd, event, proof)
        return self._report(found, f"{type(event).__name__} checked")

    def _event_checks(
        self, rnd: CheckedRound, event: ev.Event, proof: EventProof
    ) -> list[Violation]:
        if isinstance(event, ev.CardsDrawn):
            if event.seat == self.seat:
                rnd.public_mine.update(event.positions)
            return []
        if isinstance(event, ev.CardsReceived):
            return self._received(rnd, event, proof)
        if isinstance(event, ev.TopCardTurned):
            return self._open(rnd, event.position, event.card, proof.nonce, "turned face up")
        if isinstance(event, ev.CardPlayed):
            return self._played(rnd, event, proof)
        if isinstance(event, ev.Reshuffled):
            found: list[Violation] = []
            size = self._pile_size(rnd, event.epoch)
            deck = rnd.decks.get(event.epoch)
            if deck is not None and size != len(deck.commits):
                found.append(
                    Violation(
                        ViolationKind.MALFORMED,
                        f"epoch {event.epoch} has {len(deck.commits)} commitments for a pile "
                        f"of {size}",
                    )
                )
            for position, card in zip(event.sources, event.cards, strict=False):
                found += self._open(rnd, position, card, None, "reshuffled face up")
            return found + self._check_sources(rnd)
        if isinstance(event, ev.HandsMoved):
            for _, receiver, positions in event.moves:
                if receiver == self.seat:
                    rnd.public_mine.update(positions)
            return []
        if isinstance(event, ev.Challenged):
            return self._challenged(rnd, event)
        if isinstance(event, ev.ChallengeReveal):
            return self._reveal(rnd, event, proof)
        if isinstance(event, ev.DealerDraw):
            rnd.dealer_draws.append(event)
        return []

    def _received(
        self, rnd: CheckedRound, event: ev.CardsReceived, proof: EventProof
    ) -> list[Violation]:
        if event.seat != self.seat:
            return []
        rnd.private_mine.update(event.positions)
        found: list[Violation] = []
        if len(event.positions) != len(event.cards):
            found.append(
                Violation(ViolationKind.MALFORMED, "cards_received pairs positions and cards badly")
            )
        nonces: Sequence[bytes | None] = proof.nonces
        if len(proof.nonces) != len(event.cards):
            found.append(
                Violation(
                    ViolationKind.MISSING_PROOF,
                    f"{len(event.cards)} cards were given to you with {len(proof.nonces)} nonces; "
                    f"each needs one to be checked",
                )
            )
            nonces = [None] * len(event.cards)
        for position, card, nonce in zip(event.positions, event.cards, nonces, strict=False):
            found += self._open(rnd, position, card, nonce, "given to you")
        return found

    def _played(
        self, rnd: CheckedRound, event: ev.CardPlayed, proof: EventProof
    ) -> list[Violation]:
        found = self._open(
            rnd, event.position, event.card, proof.nonce, f"played by seat {event.seat}"
        )
        snapshot = rnd.ledger.snapshots.get(event.seat)
        face = rnd.ledger.face(event.card)
        if proof.hand_digest is None or face is None or face.kind not in CHALLENGEABLE:
            return found
        if snapshot is None or snapshot.played != event.position:
            return found
        commitments = [rnd.commitment(p) for p in snapshot.positions]
        known = [c for c in commitments if c is not None]
        if len(known) != len(commitments):
            return [
                *found,
                Violation(
                    ViolationKind.MISSING_COMMITMENT,
                    f"seat {event.seat}'s hand digest covers positions with no commitment",
                ),
            ]
        expected = hand_digest(rnd.game_id, rnd.round_no, event.seat, known)
        if len(proof.hand_digest) != DIGEST_SIZE or not same_digest(expected, proof.hand_digest):
            found.append(
                Violation(
                    ViolationKind.HAND_DIGEST,
                    f"the hand digest at seat {event.seat}'s {face.name} is not the digest of "
                    f"the {len(known)} positions the public record says it held",
                )
            )
        return found

    def _challenged(self, rnd: CheckedRound, event: ev.Challenged) -> list[Violation]:
        mine = event.challenger == self.seat
        rnd.challenges.append(
            ChallengeRecord(event, rnd.ledger.snapshots.get(event.target), checked_by_me=mine)
        )
        if not mine:
            return []
        for index, (target, cards, color) in enumerate(rnd.reveals_done):
            if target == event.target:
                del rnd.reveals_done[index]
                problem = verdict_violation(
                    self.manifest, target, event.guilty, cards, color, "the hand revealed to you"
                )
                return [] if problem is None else [problem]
        rnd.reveals_due.append(event)
        return []

    def _reveal(
        self, rnd: CheckedRound, event: ev.ChallengeReveal, proof: EventProof
    ) -> list[Violation]:
        if event.challenger != self.seat:
            return []
        found: list[Violation] = []
        how = f"in seat {event.target}'s hand, revealed to you at the challenge"
        if not len(event.cards) == len(event.positions) == len(proof.nonces):
            found.append(
                Violation(
                    ViolationKind.MISSING_PROOF,
                    f"the challenge reveal pairs {len(event.positions)} positions, "
                    f"{len(event.cards)} cards and {len(proof.nonces)} nonces",
                )
            )
        nonces: Sequence[bytes | None] = (
            proof.nonces if len(proof.nonces) == len(event.cards) else [None] * len(event.cards)
        )
        for position, card, nonce in zip(event.positions, event.cards, nonces, strict=False):
            found += self._open(rnd, position, card, nonce, how)
        snapshot = rnd.ledger.snapshots.get(event.target)
        color = event.color_before
        if snapshot is None and not rnd.partial:
            found.append(
                Violation(
                    ViolationKind.CHALLENGE_HAND,
                    f"a hand was revealed for seat {event.target}, which played no challengeable "
                    f"card in the public record",
                )
            )
        elif snapshot is not None:
            if event.target not in rnd.ledger.uncertain:
                found += hand_set_violations(event.target, snapshot.positions, event.positions)
            if (rnd.ledger.tracks_color and snapshot.color_before is not None
                    and not rnd.partial):
                if snapshot.color_before != event.color_before:
                    found.append(
                        Violation(
                            ViolationKind.CHALLENGE_COLOR,
                            f"the reveal says {event.color_before.value} was in play before the "
                            f"Wild Draw Four, but the public record says "
                            f"{snapshot.color_before.value}",
                        )
                    )
                color = snapshot.color_before
        for index, verdict in enumerate(rnd.reveals_due):
            if verdict.target == event.target:
                del rnd.reveals_due[index]
                problem = verdict_violation(
                    self.manifest,
                    event.target,
                    verdict.guilty,
                    event.cards,
                    color,
                    "the hand revealed to you",
                )
                if problem is not None:
                    found.append(problem)
                break
        else:
            rnd.reveals_done.append((event.target, event.cards, color))
        return found

    # -- the audit ---------------------------------------------------------------------------------

    def round_audit(self, msg: RoundAudit) -> Outcome:
        """The round's seeds: re-derive everything and check every card this client saw."""
        candidates = [
            r for r in reversed(self._rounds) if r.round_no == msg.round_no and not r.audited
        ]
        if not candidates:
            return self._report(
                [
                    Violation(
                        ViolationKind.MALFORMED,
                        f"an audit for round {msg.round_no}, which is not awaiting one",
                    )
                ],
                "",
            )
        # After a re-deal two preparations share a round number; the seed says which it opens.
        rnd = next(
            (
                r
                for r in candidates
                if same_digest(
                    seed_commitment(r.game_id, r.round_no, r.prepare.host_seat, msg.host_seed),
                    r.prepare.host_commit,
                )
            ),
            candidates[0],
        )
        rnd.audited = True
        found = audit_round(rnd, msg, self.manifest, self.seat)
        return self._report(found, f"round {msg.round_no} audited: every card checks out")
