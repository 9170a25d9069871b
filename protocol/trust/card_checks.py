"""The card-level checks of one round: commitments of each pile, every card opened, challenges.

`CardChecks` is the part of the client's verifier that looks at cards: it opens each card this
client is shown against its position's commitment (or keeps it until the commitment arrives),
follows the public ledger, checks a reshuffle's sources, the hand digest at a challengeable card (a
Wild Draw Four; UNO Flip's Wild Draw Two and Wild Draw Color, read on the side in play) and the
hand revealed at a challenge. The round's lifecycle (numbering, seeds, audit) is the
verifier's; the audit's re-derivation is `audit.py`'s.
"""

from __future__ import annotations

from collections.abc import Sequence

from protocol.trust.challenge import hand_set_violations, verdict_violation
from protocol.trust.checked_round import ChallengeRecord, CheckedRound, Opening, Sighting
from protocol.trust.constants import DIGEST_SIZE, SEED_SIZE
from protocol.trust.dark_faces import told_violations, untold
from protocol.trust.ledger import CHALLENGEABLE, fmt
from protocol.trust.messages import DeckCommits, EventProof
from protocol.trust.primitives import card_commitment, deck_commitment, hand_digest, same_digest
from protocol.trust.results import Violation, ViolationKind
from unonet import events as ev
from unonet.cards import DeckManifest
from unonet.events import Position


class CardChecks:
    """Card checks for `seat` (None: a spectator) on a deck of `manifest`; stateless between
    calls, everything it learns is kept in the CheckedRound it is given."""

    def __init__(self, manifest: DeckManifest, seat: int | None) -> None:
        self.manifest = manifest
        self.seat = seat

    def deck_commits(self, rnd: CheckedRound, msg: DeckCommits) -> list[Violation]:
        """An epoch's position commitments: D must hash them; the count must fit the pile."""
        found: list[Violation] = []
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
            return found
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
        return found

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
        """A reshuffle mixes exactly the rest of the draw pile and the discards it takes."""
        found: list[Violation] = []
        for epoch, record in rnd.ledger.reshuffles.items():
            if epoch in rnd.sources_checked:
                continue
            rnd.sources_checked.add(epoch)
            expected = rnd.ledger.expected_sources(record)
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

    def event(self, rnd: CheckedRound, event: ev.Event, proof: EventProof) -> list[Violation]:
        """One engine event as received, with the proof fields that came beside it."""
        found = rnd.ledger.apply(event) if event.audience is None else []
        return found + self._event_checks(rnd, event, proof)

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
        if isinstance(event, ev.DarkFacesShown):
            return self._dark_told(rnd, event)
        if isinstance(event, ev.CardsDiscarded):
            how = f"discarded face up by seat {event.seat}'s Discard All"
            return self._face_up(rnd, event.positions, event.cards, proof, how)
        if isinstance(event, ev.RouletteTurned):
            how = f"turned face up by seat {event.seat}'s Color Roulette"
            return self._face_up(rnd, event.positions, event.cards, proof, how)
        return []

    def _face_up(
        self,
        rnd: CheckedRound,
        positions: Sequence[Position],
        cards: Sequence[int],
        proof: EventProof,
        how: str,
    ) -> list[Violation]:
        """No Mercy: cards shown face up to everybody, several at once (a Discard All's other
        cards, a Color Roulette's turned cards), each opened against its position's commitment
        with its nonce; the host attaches one per position (SPEC.md 11.13)."""
        found: list[Violation] = []
        nonces: Sequence[bytes | None] = proof.nonces
        if len(proof.nonces) != len(cards):
            found.append(
                Violation(
                    ViolationKind.MISSING_PROOF,
                    f"{len(cards)} cards were {how} with {len(proof.nonces)} nonces; each needs "
                    f"one to be checked",
                )
            )
            nonces = [None] * len(cards)
        for position, card, nonce in zip(positions, cards, nonces, strict=False):
            found += self._open(rnd, position, card, nonce, how)
        return found

    def _dark_told(self, rnd: CheckedRound, event: ev.DarkFacesShown) -> list[Violation]:
        """UNO Flip: dark faces told to us alone are kept beside the public ones (the ledger
        keeps those); none may contradict another. The audit checks them against the pairing."""
        if event.seat is None:
            contradicted = [
                (card, face) for card, face in zip(event.cards, event.faces, strict=False)
                if card in rnd.told and rnd.told[card] != face
            ]
            return [
                Violation(
                    ViolationKind.DARK_FACE,
                    f"card {card}'s dark face was told to you as {rnd.told[card].name} and then "
                    f"to everybody as {face.name}: a card has one dark face a round",
                )
                for card, face in contradicted
            ]
        if event.seat != self.seat:
            return []
        if not rnd.ledger.flip:
            return [Violation(ViolationKind.MALFORMED, "dark faces told in a one-sided match")]
        found, added = told_violations(event, rnd.dark_faces, len(self.manifest), "you")
        rnd.told.update(added)
        return found

    def _untold(self, rnd: CheckedRound, cards: Sequence[int], what: str) -> list[Violation]:
        """UNO Flip: a card this client is given, or shown on the dark side, comes with its dark
        face told first."""
        missing = untold((c for c in cards if 0 <= c < len(self.manifest)), rnd.dark_faces)
        if not rnd.ledger.flip or not missing:
            return []
        return [
            Violation(
                ViolationKind.DARK_FACE,
                f"{what} without the dark face of card {missing[0]}"
                + (f" and {len(missing) - 1} more" if len(missing) > 1 else "")
                + ": the host tells a card's dark face to whoever sees it",
            )
        ]

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
        return found + self._untold(rnd, event.cards, "you were given cards")

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
        for index, (target, cards, color, side) in enumerate(rnd.reveals_done):
            if target == event.target:
                del rnd.reveals_done[index]
                problem = verdict_violation(
                    self.manifest, target, event.guilty, cards, color, "the hand revealed to you",
                    side, rnd.dark_faces,
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
        side = rnd.ledger.side if snapshot is None else snapshot.side
        if side == 1:
            what = "the hand revealed to you on the dark side came"
            found += self._untold(rnd, event.cards, what)
        if snapshot is None:
            found.append(
                Violation(
                    ViolationKind.CHALLENGE_HAND,
                    f"a hand was revealed for seat {event.target}, which played no challengeable "
                    f"card in the public record",
                )
            )
        elif snapshot is not None:
            found += hand_set_violations(event.target, snapshot.positions, event.positions)
            if snapshot.color_before is not None:
                if snapshot.color_before != event.color_before:
                    found.append(
                        Violation(
                            ViolationKind.CHALLENGE_COLOR,
                            f"the reveal says {event.color_before.value} was in play before the "
                            f"challenged card, but the public record says "
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
                    side,
                    rnd.dark_faces,
                )
                if problem is not None:
                    found.append(problem)
                break
        else:
            rnd.reveals_done.append((event.target, event.cards, color, side))
        return found
