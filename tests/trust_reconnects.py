"""A client that follows a match across connections, served as an honest host serves it.

A position in a round, for one receiver, is an event number: `k` is just before its `k`-th
event, `count` after its last one (its audit still to come) and `count + 1` after its audit
(between rounds). `follow` has hypothesis draw, round after round, where the client's connection
drops and where it comes back (in the same round, or rounds later), with one verifier per client
process kept across its connections. Connected, it receives the round live; coming back, it gets
what SPEC.md 7.1 has the host send a connection that enters a match: the manifest, every earlier
round's four signed messages, the previous round whole (its trust messages, its events in
round_history, its audit), the current round's trust messages and events so far, and the
snapshot. Whether its seed went into a round depends on whether it was connected when the round
was prepared, which `play_match(unseeded=...)` must be told before the match is played: hence
`connected`, drawn first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from hypothesis import strategies as st
from trust_sim import SIGNER, Transcript, deliver, history, received

from protocol.trust.messages import DeckCommits, RoundAudit, RoundPrepare, SeedCommits, SeedReveals
from protocol.trust.verifier import TrustVerifier
from unonet import events as ev

FOUR = (RoundPrepare, SeedCommits, SeedReveals, RoundAudit)
"""What the host re-sends of each round before the previous one to a connection entering."""

OPENING = (RoundPrepare, SeedCommits, SeedReveals, DeckCommits)
"""A round's trust messages but its audit, re-sent before its events' history."""


def event_indices(t: Transcript, seat: int | None) -> list[int]:
    """The delivery indices of the events `seat` (None: a spectator) receives in round `t`."""
    return [i for i in received(t, seat) if isinstance(t.deliveries[i].item, tuple)]


def position(t: Transcript, seat: int | None, k: int) -> int:
    """The delivery index at which position `k` of round `t` starts, for `seat`."""
    events = event_indices(t, seat)
    assert events, "a round the client follows was dealt"
    if k < len(events):
        return events[k]
    return events[-1] + 1 if k == len(events) else len(t.deliveries)


def live(
    t: Transcript, seat: int | None, verifier: TrustVerifier, start: int | None, stop: int
) -> None:
    """Round `t` received live from position `start` (None: from its round_prepare, with this
    client's seed contributed if the round has it) up to position `stop`."""
    first = 0 if start is None else position(t, seat, start)
    end = position(t, seat, stop)
    for index in received(t, seat):
        if first <= index < end:
            deliver(t, index, verifier, seat)


def _trust_messages(t: Transcript, seat: int | None, verifier: TrustVerifier,
                    kinds: tuple[type, ...], before: int | None = None) -> None:
    for index in received(t, seat):
        item = t.deliveries[index].item
        if isinstance(item, kinds) and (before is None or index < before):
            deliver(t, index, verifier, seat, contribute=False)


def enter(
    rounds: Sequence[Transcript],
    seat: int | None,
    back: int,
    cut: int,
    verifier: TrustVerifier | None = None,
    chunk: int = 256,
) -> TrustVerifier:
    """A connection entering the match at position `cut` of round index `back`, as the host
    sends it (SPEC.md 7.1), up to the snapshot; `verifier`: the client's, kept from its earlier
    connections, or None for a new client process (or spectator) with no record."""
    verifier = verifier or TrustVerifier(rounds[0].match, seat)
    verifier.check_signature(SIGNER.sign({"t": "manifest", **rounds[0].match.to_dict()}))
    verifier.message(rounds[0].match)
    for t in rounds[:max(back - 1, 0)]:
        _trust_messages(t, seat, verifier, FOUR)
    if back > 0:
        previous = rounds[back - 1]
        _trust_messages(previous, seat, verifier, OPENING)
        for message in history(previous, seat, len(event_indices(previous, seat)), chunk):
            verifier.message(message)
        _trust_messages(previous, seat, verifier, (RoundAudit,))
    current = rounds[back]
    stop = position(current, seat, cut)
    _trust_messages(current, seat, verifier, OPENING, before=stop)
    count = len(event_indices(current, seat))
    for message in history(current, seat, min(cut, count), chunk):
        verifier.message(message)
    _trust_messages(current, seat, verifier, (RoundAudit,), before=stop)
    verifier.entered()  # the snapshot
    return verifier


@dataclass
class Followed:
    """What `follow` did, for the test to count, and what the verifier must say of each
    round."""

    verifier: TrustVerifier
    resumes: int = 0  # entries with the client's own verifier, kept across the drop
    across: int = 0  # of which, back in a later round than the one it dropped in
    missed_events: int = 0  # events sent while away, received again in a round_history
    late: bool = False  # the first connection entered a match in progress
    statuses: dict[int, str] = field(default_factory=dict)  # round index -> expected status


class _Client:
    """One client across its connections: where it is, and what it has been shown."""

    def __init__(self, rounds: Sequence[Transcript], seat: int | None) -> None:
        self.rounds, self.seat = rounds, seat
        self.verifier: TrustVerifier | None = None
        self.dropped_in: int | None = None  # the round index its last connection dropped in
        self.done: set[int] = set()  # rounds received whole: live or in a history, audited
        self.result: Followed | None = None

    def count(self, j: int) -> int:
        return len(event_indices(self.rounds[j], self.seat))

    def ended_by(self, j: int, stop: int) -> bool:
        """Whether the events before position `stop` of round index j hold its round_ended:
        a round the client saw end is audited in full when its audit comes on a later entry,
        not missed (SPEC.md [UNO-11-52]), whether or not it was there for the audit itself."""
        t = self.rounds[j]
        return any(isinstance(t.event_at(index), ev.RoundEnded)
                   for index in event_indices(t, self.seat)[:stop])

    def live(self, j: int, start: int | None, stop: int) -> None:
        assert self.verifier is not None
        live(self.rounds[j], self.seat, self.verifier, start, stop)
        if self.ended_by(j, stop):
            self.done.add(j)

    def enter(self, j: int, cut: int, chunk: int, dropped_at: int | None = None) -> None:
        """Back at position `cut` of round index j (`dropped_at`: where in that same round the
        last connection dropped)."""
        kept = self.verifier is not None
        self.verifier = enter(self.rounds, self.seat, j, cut, self.verifier, chunk)
        if self.result is None:
            self.result = Followed(self.verifier, late=True)
        result = self.result
        if kept:
            result.resumes += 1
            result.across += self.dropped_in != j
            if self.dropped_in == j and dropped_at is not None:
                result.missed_events += min(cut, self.count(j)) - min(dropped_at, self.count(j))
        for earlier in range(j - 1):
            if earlier not in self.done:
                result.statuses.setdefault(earlier, "missed")
        if j > 0:
            self.done.add(j - 1)
        if self.ended_by(j, cut):
            self.done.add(j)


OFTEN = st.integers(0, 3).map(lambda n: n < 3)
"""True three times in four (hypothesis draws its booleans mostly all alike within a test)."""


def follow(
    rounds: Sequence[Transcript], seat: int | None, connected: Sequence[bool],
    data: st.DataObject,
) -> Followed:
    """`seat`'s client through the match: `connected[j]` says whether its connection was up
    when round index j was prepared (past the last round it is: the client stays to the end,
    for the last audit); hypothesis draws where, in each round, it comes, drops and comes
    back."""
    client = _Client(rounds, seat)
    for j, t in enumerate(rounds):
        end = client.count(j) + 1
        up_next = connected[j + 1] if j + 1 < len(rounds) else True
        chunk = data.draw(st.sampled_from([256, 16, 1]), label="history chunk")
        start: int | None = None  # where it is live from in this round (None: its start)
        if connected[j]:
            if client.verifier is None:  # there from the match's very start
                assert j == 0
                client.verifier = TrustVerifier(t.match, seat)
                client.result = Followed(client.verifier)
        elif up_next or data.draw(OFTEN, label="comes in this round"):
            start = data.draw(st.integers(0, end), label="enters at")
            client.enter(j, start, chunk)
        else:
            continue  # away for the whole round
        if up_next and data.draw(OFTEN, label="drops and comes back in this round"):
            at_drop = data.draw(st.integers(start or 0, end), label="drops at")
            client.live(j, start, at_drop)
            client.dropped_in = j
            start = data.draw(st.integers(at_drop, end), label="back at")
            client.enter(j, start, chunk, at_drop)
        if up_next:
            client.live(j, start, end)
            continue
        at_drop = data.draw(st.integers(start or 0, end), label="drops at")
        client.live(j, start, at_drop)
        client.dropped_in = j
    result = client.result
    assert result is not None
    for j in range(len(rounds)):
        if j in client.done:
            result.statuses.setdefault(j, "audited")
    return result
