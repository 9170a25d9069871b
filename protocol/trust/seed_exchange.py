"""The seed exchange that opens every round, as the host runs it (SPEC.md section 11).

round_prepare (the host's commitment) -> seed_commit from each remote seat -> seed_commits (the
set frozen) -> seed_reveal to the host only -> seed_reveals (every seat's seed, to all) -> the
round key K. Each phase ends when every expected seat has answered or its deadline passes; a
missing seed counts as zeros, which gives nobody a choice of deck. In-process bots contribute
nothing: they are the host's own. Every message the exchange publishes is signed by the host's
key (signing.Signer) and kept, so a connection entering the round gets them as first sent.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import StrEnum
from typing import Any

from protocol.errors import Code
from protocol.trust.host import HostCommitments
from protocol.trust.messages import (
    ABANDONED,
    DeckCommits,
    MalformedTrustMessage,
    SeedCommit,
    SeedCommits,
    SeedReveal,
    TrustMessage,
)
from protocol.trust.signing import EventsDigest, Signer


class SeedPhase(StrEnum):
    COMMIT = "commit"  # waiting for seed_commit
    REVEAL = "reveal"  # commitments frozen, waiting for seed_reveal
    KEYED = "keyed"  # the key is fixed; the round can be dealt


def wire(kind: str, message: TrustMessage) -> dict[str, Any]:
    """A trust message as the catalogue map."""
    return {"t": kind, **message.to_dict()}


def signed(kind: str, message: TrustMessage, signer: Signer) -> dict[str, Any]:
    """A host trust message as the catalogue map, with the host's `sig`."""
    return signer.sign(wire(kind, message))


class SeedExchange:
    """One round's seed exchange: which seats are expected, which phase, until when."""

    def __init__(
        self,
        commitments: HostCommitments,
        contributors: Iterable[int],
        now: float,
        phase_time: float,
        signer: Signer,
    ) -> None:
        self.commitments = commitments
        self.contributors = set(contributors)
        self.phase = SeedPhase.COMMIT
        self.phase_time = phase_time
        self.deadline: float | None = now + phase_time
        self.signer = signer
        self.published: list[dict[str, Any]] = []
        """The round's signed trust messages so far, in the order sent (not its audit)."""
        self.unopened: set[int] = set()
        """Seats whose reveal did not open their commitment: absent, and answered all the same
        (SPEC.md [UNO-11-14]): the reveal phase does not wait for them, nor takes a second try."""
        self.publish("round_prepare", commitments.round_prepare())

    @property
    def round_no(self) -> int:
        return self.commitments.round_no

    def publish(self, kind: str, message: TrustMessage) -> dict[str, Any]:
        """Sign a trust message of this round and keep it for late entrants; returns the map
        to broadcast."""
        out = signed(kind, message, self.signer)
        self.published.append(out)
        return out

    def deal(self, deck_size: int) -> dict[str, Any]:
        """Commit epoch 0 (the keyed round's deal): the deck_commits to broadcast."""
        return self.publish("deck_commits", self.commitments.deal(deck_size))

    @property
    def keyed(self) -> bool:
        return self.phase is SeedPhase.KEYED

    def drop(self, seat: int) -> None:
        """A contributor left: do not wait for it (a commitment it made still counts)."""
        self.contributors.discard(seat)

    def commit(self, seat: int, message: Mapping[str, Any]) -> tuple[str, str] | None:
        """Record a seed_commit; an (error code, text) pair if it cannot be taken."""
        try:
            commit = SeedCommit.from_dict(message)
        except MalformedTrustMessage as exc:
            return Code.BAD_MESSAGE, str(exc)
        if self.phase is not SeedPhase.COMMIT or commit.round_no != self.round_no:
            return Code.UNEXPECTED_MESSAGE, "no seed commitment is expected now"
        if seat not in self.contributors or seat in self.commitments.commits:
            return Code.UNEXPECTED_MESSAGE, "this seat does not commit a seed for this round"
        self.commitments.accept_commit(seat, commit.commit)
        return None

    def reveal(self, seat: int, message: Mapping[str, Any]) -> tuple[str, str] | None:
        """Check a seed_reveal against its commitment; a mismatch leaves the seat absent."""
        try:
            reveal = SeedReveal.from_dict(message)
        except MalformedTrustMessage as exc:
            return Code.BAD_MESSAGE, str(exc)
        if self.phase is not SeedPhase.REVEAL or reveal.round_no != self.round_no:
            return Code.UNEXPECTED_MESSAGE, "no seed reveal is expected now"
        if seat in self.commitments.seeds or seat in self.unopened:
            return Code.UNEXPECTED_MESSAGE, "this seat has revealed already"
        if not self.commitments.accept_reveal(seat, reveal.seed):
            self.unopened.add(seat)
            return (Code.COMMIT_MISMATCH,
                    "the seed does not open this seat's commitment: the seat is absent this round")
        return None

    def advance(self, now: float) -> list[dict[str, Any]]:
        """Move on as far as answers and deadlines allow; returns the messages to broadcast."""
        out: list[dict[str, Any]] = []
        commitments = self.commitments
        deadline_passed = self.deadline is not None and now >= self.deadline
        if self.phase is SeedPhase.COMMIT and (
            self.contributors <= set(commitments.commits) or deadline_passed
        ):
            out.append(self.publish("seed_commits", commitments.freeze_commits()))
            self.phase = SeedPhase.REVEAL
            self.deadline = now + self.phase_time
            deadline_passed = False
        if self.phase is SeedPhase.REVEAL:
            waiting = {s for s in commitments.commits if s in self.contributors}
            if waiting <= set(commitments.seeds) | self.unopened or deadline_passed:
                out.append(self.publish("seed_reveals", commitments.seed_reveals()))
                self.phase = SeedPhase.KEYED
                self.deadline = None
        return out


def resumed_exchange(commitments: HostCommitments, signer: Signer) -> SeedExchange:
    """The exchange of a dealt round that a restarted host resumes: keyed, with every message
    it had published (same host seed, so the same round_prepare; the same seeds, so the same
    seed_reveals) ready for reconnecting players, signed again."""
    trust = SeedExchange(commitments, (), 0.0, 0.0, signer)
    trust.phase = SeedPhase.KEYED
    trust.deadline = None
    commits = SeedCommits(commitments.round_no, tuple(sorted(commitments.commits.items())))
    trust.publish("seed_commits", commits)
    trust.publish("seed_reveals", commitments.seed_reveals())
    for epoch in sorted(commitments.decks):
        deck = commitments.decks[epoch]
        trust.publish("deck_commits", DeckCommits(commitments.round_no, epoch, deck.commitments,
                                                  deck.deck_commitment))
    return trust


def revealing_exchange(commitments: HostCommitments, signer: Signer, now: float,
                       phase_time: float) -> SeedExchange:
    """The exchange of a round whose commitments a restarted host had frozen and not yet dealt:
    it goes on with the reveal phase, for a round is never given up once its seed_commits went
    out (SPEC.md 11.7, [UNO-11-12]). The same round_prepare and seed_commits (the same bytes:
    the same fields, signed deterministically), the seeds revealed before the restart kept, the
    other listed seats awaited until a fresh deadline."""
    waiting = set(commitments.commits) - set(commitments.seeds)
    trust = SeedExchange(commitments, waiting, now, phase_time, signer)
    trust.phase = SeedPhase.REVEAL
    commits = SeedCommits(commitments.round_no, tuple(sorted(commitments.commits.items())))
    trust.publish("seed_commits", commits)
    return trust


def abandoned_messages(commitments: HostCommitments, signer: Signer) -> list[dict[str, Any]]:
    """What a restarted host owes for a round it prepared and never froze the commitments of
    (SPEC.md 11.7, [UNO-11-48]): the same round_prepare (so nobody sees a re-deal) and the
    round's audit, outcome "abandoned" over no events; the deal itself then takes the next round
    number. (A round whose commitments were frozen is not abandoned: `revealing_exchange`; an
    older journal may still hold one, whose seed_commits are then owed too.)"""
    out = [signed("round_prepare", commitments.round_prepare(), signer)]
    if commitments.frozen:
        commits = SeedCommits(commitments.round_no, tuple(sorted(commitments.commits.items())))
        out.append(signed("seed_commits", commits, signer))
    empty = EventsDigest(commitments.game_id, commitments.round_no).value  # nothing was dealt
    out.append(signed("round_audit", commitments.audit(ABANDONED, empty), signer))
    return out
