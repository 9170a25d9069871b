"""The seed exchange that opens every round, as the host runs it (SPEC.md section 11).

round_prepare (the host's commitment) -> seed_commit from each remote seat -> seed_commits (the
set frozen) -> seed_reveal to the host only -> the round key K. Each phase ends when every
expected seat has answered or its deadline passes; a missing seed counts as zeros, which gives
nobody a choice of deck. In-process bots contribute nothing: they are the host's own.
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
from protocol.trust.signing import EventsDigest


class SeedPhase(StrEnum):
    COMMIT = "commit"  # waiting for seed_commit
    REVEAL = "reveal"  # commitments frozen, waiting for seed_reveal
    KEYED = "keyed"  # the key is fixed; the round can be dealt


def wire(kind: str, message: TrustMessage) -> dict[str, Any]:
    """A trust message as the catalogue map."""
    return {"t": kind, **message.to_dict()}


class SeedExchange:
    """One round's seed exchange: which seats are expected, which phase, until when."""

    def __init__(
        self,
        commitments: HostCommitments,
        contributors: Iterable[int],
        now: float,
        phase_time: float,
    ) -> None:
        self.commitments = commitments
        self.contributors = set(contributors)
        self.phase = SeedPhase.COMMIT
        self.phase_time = phase_time
        self.deadline: float | None = now + phase_time
        self.published: list[dict[str, Any]] = [wire("round_prepare", commitments.round_prepare())]

    @property
    def round_no(self) -> int:
        return self.commitments.round_no

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
        if seat in self.commitments.seeds:
            return Code.UNEXPECTED_MESSAGE, "this seat has revealed already"
        if not self.commitments.accept_reveal(seat, reveal.seed):
            return Code.COMMIT_MISMATCH, "the seed does not open this seat's commitment"
        return None

    def advance(self, now: float) -> list[dict[str, Any]]:
        """Move on as far as answers and deadlines allow; returns the messages to broadcast."""
        out: list[dict[str, Any]] = []
        commitments = self.commitments
        deadline_passed = self.deadline is not None and now >= self.deadline
        if self.phase is SeedPhase.COMMIT and (
            self.contributors <= set(commitments.commits) or deadline_passed
        ):
            out.append(wire("seed_commits", commitments.freeze_commits()))
            self.phase = SeedPhase.REVEAL
            self.deadline = now + self.phase_time
            deadline_passed = False
        if self.phase is SeedPhase.REVEAL:
            waiting = {s for s in commitments.commits if s in self.contributors}
            if waiting <= set(commitments.seeds) or deadline_passed:
                self.phase = SeedPhase.KEYED
                self.deadline = None
        self.published.extend(out)
        return out


def resumed_exchange(commitments: HostCommitments) -> SeedExchange:
    """The exchange of a round that a restarted host resumes: keyed, with every message it had
    published (same host seed, so the same round_prepare) ready for reconnecting players."""
    trust = SeedExchange(commitments, (), 0.0, 0.0)
    trust.phase = SeedPhase.KEYED
    trust.deadline = None
    commits = SeedCommits(commitments.round_no, tuple(sorted(commitments.commits.items())))
    trust.published.append(wire("seed_commits", commits))
    for epoch in sorted(commitments.decks):
        deck = commitments.decks[epoch]
        trust.published.append(
            wire("deck_commits", DeckCommits(commitments.round_no, epoch, deck.commitments,
                                             deck.deck_commitment))
        )
    return trust


def abandoned_messages(commitments: HostCommitments) -> list[dict[str, Any]]:
    """What a restarted host owes for a round it prepared but never dealt (SPEC.md 11.7,
    [UNO-11-24]): the same round_prepare (so nobody sees a re-deal), the commitments if they
    were frozen, and the round's audit; the deal itself then takes the next round number."""
    out = [wire("round_prepare", commitments.round_prepare())]
    if commitments.frozen:
        commits = SeedCommits(commitments.round_no, tuple(sorted(commitments.commits.items())))
        out.append(wire("seed_commits", commits))
    empty = EventsDigest(commitments.game_id, commitments.round_no).value  # nothing was dealt
    out.append(wire("round_audit", commitments.audit(ABANDONED, empty)))
    return out
