"""The client's trust checks: one verifier per match, kept across connections, our seed for each
round, the match's transcript, and the whole picture for the title bar and the trust panel.

`TrustGate` is the ClientSession's trust observer (protocol/trust_hook.py's VerifierObserver
inside, which turns each wire message into what the verifier takes and checks signatures first).
The gate decides which verifier a message goes to:

- One `TrustVerifier` per match, made at the match's `manifest` and kept by the gate (the
  LinkSession outlives connections, and so does the gate). A connection that enters the match
  again (a resume, a reconnect, a restarted host) gets the same manifest, the round's trust
  messages, a `round_history` of the round's events and a snapshot: all of it goes to the same
  verifier, which compares what it already had and checks what it missed, so every card of
  the round and its audit are checked; nothing is skipped. The host sends an entrant every
  earlier round too (SPEC.md 7.1): the previous one whole, so a round we dropped in is completed
  even if the next one began meanwhile, and the others as their signed messages, which the
  verifier shows as "missed" (played while we were away) until the entry's `snapshot`, after
  which (`TrustVerifier.entered`) a round audited unseen is withheld, not missed. No seed is
  committed for a round_prepare of the entry: it is a record, not a new round.
- A manifest naming another match replaces the verifier. If the old match was not over and we
  did not leave its table, the old verifier says so (MATCH_ID: a host may not reset a match);
  either way the old one is `finish`ed (its owed audits count) and its violations are kept.
- The match ends after the audit that follows `match_ended`: then `finish()`. Leaving the table
  (or closing the client) finishes it too, as `finish(left=True)`: a round we walk out of in the
  middle owes us nothing, a round that ended owes its audit.
- On TLS the gate knows the host's certificate (`connected`), and the match's signer must be its
  key (`check_peer`): the key the player pinned is the key that signs.
- The session calls the gate as each message is decoded, before the link handles any of the
  read's messages, so the gate follows the seat (`welcome.session`, `seated`,
  `table_state.you`) and the match itself, in stream order: a manifest, its snapshot and the
  first round_prepare often arrive in one read, and the round must be seen (and seeded) from its
  start.
- `verify=False` (a load generator's bots: benchmarks/host.py) checks nothing: the gate still
  follows the seat and the match and contributes our seed each round (the host would otherwise
  wait out its seed phase), but no event, deck commitment, signature or audit is checked.
- Every message is also written to the match's transcript (client/transcript.py), with the
  host's certificate, so that `unonet audit` can re-check the match offline.
- Our own moves: the link tells the gate each intent it sends (`intent_sent`, by request id,
  per connection); when the host answers `accepted{id}`, the verifier holds the host to it
  (SPEC.md [UNO-11-36]): the next action of the record must be exactly what we asked.
- The audit's deadline: once a round has ended (`audit_owed`), the driver gives its audit
  AUDIT_DEADLINE seconds on its clock (`AuditClock`) and then reports it overdue
  (`audit_overdue`), while the player is still at the table (SPEC.md [UNO-11-45]).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from client import wire
from client.link import Caught, ClosedRound, PanelRound, TrustReport, TrustStatus
from client.seat_follow import SeatFollower
from client.tls import format_fingerprint
from client.transcript import TranscriptWriter
from protocol.client_session import GameEvent
from protocol.fingerprint import fingerprint_of
from protocol.limits import AUDIT_DEADLINE
from protocol.trust.checked_round import CheckedRound
from protocol.trust.messages import MalformedTrustMessage, MatchIdentity, SeedCommit, SeedReveal
from protocol.trust.results import Verified, Violation, ViolationKind
from protocol.trust.verifier import TrustVerifier
from protocol.trust_hook import CHECKED_MESSAGES, VerifierObserver
from unonet.actions import Action
from unonet.cards import DeckManifest

REPORTED_EVENTS = frozenset({"challenged", "challenge_reveal"})
"""Events whose successful check is worth a status line: a challenge's verdict and hand."""

SEED_MESSAGES = frozenset({"round_prepare", "seed_commits"})
"""What the verifier must see for us to contribute our seed, even when we check nothing."""

SEAT_MESSAGES = frozenset({"welcome", "seated", "table_state"})

ANSWERS = frozenset({"accepted", "error"})
"""The host's answers to a request: `accepted{id}` of an intent binds the host to it."""

INTENTS_IN_FLIGHT = 64
"""Intents sent and not yet answered that the gate remembers: a client waits for each answer
(the reference ones do), so a handful at most; the oldest is forgotten past this."""


def report_of(message: Mapping[str, Any], outcome: object,
              round_no: int | None = None) -> TrustReport | None:
    """The report for one outcome, or None when it is routine (every card checked is not
    news; the trust messages' outcomes, the challenge checks and every violation are)."""
    number = message.get("round")
    round_no = number if isinstance(number, int) else round_no
    if isinstance(outcome, Violation):
        return TrustReport(False, kind=outcome.kind.value, detail=outcome.detail,
                           round_no=round_no)
    if not isinstance(outcome, Verified):
        return None
    kind = message.get("t")
    event = message.get("event")
    event_type = event.get("type") if isinstance(event, Mapping) else None
    if kind in CHECKED_MESSAGES or (kind == "event" and event_type in REPORTED_EVENTS):
        return TrustReport(True, what=outcome.what, round_no=round_no)
    return None


def caught_in(verifier: TrustVerifier) -> list[Caught]:
    """The verifier's violations, oldest first, each with the round it belongs to (None: the
    match itself, or before any round)."""
    where: dict[Violation, list[int]] = {}
    for rnd in verifier.rounds:
        for violation in rnd.violations:
            where.setdefault(violation, []).append(rnd.round_no)
    out = []
    for violation in verifier.violations():
        rounds = where.get(violation)
        out.append(Caught(rounds.pop(0) if rounds else None, violation.kind.value,
                          violation.detail))
    return out


class TrustGate:
    """The session's observer; `verifier` is None until a manifest names the match."""

    def __init__(self, *, verify: bool = True,
                 transcript: TranscriptWriter | None = None) -> None:
        self.verify = verify
        """False: contribute seeds, check nothing (the verifier then sees only round_prepare
        and seed_commits, and its violations mean nothing)."""
        self.transcript = transcript
        self.verifier: TrustVerifier | None = None
        self.identity: MatchIdentity | None = None
        self.peer_cert: bytes | None = None
        """The host's TLS certificate (DER) on the current connection; None without TLS."""
        self.left = False
        """We left the current match's table: what follows is not ours to check."""
        self._observer: VerifierObserver | None = None
        self._finished = False  # the current verifier was finished (match over or left)
        self._peer_checked: bytes | None = None  # the certificate check_peer last passed
        self._past: list[Caught] = []  # earlier matches' violations and the gate's own
        self._past_violations: list[Violation] = []
        self._past_moves = 0  # our moves the record showed as sent, in earlier matches
        self._unsent_commit: tuple[int, bytes] | None = None  # (round, seed) of a commitment
        # a dropped connection may have lost (see `_in_flight`)
        self._unsent_reveal: int | None = None  # the round whose reveal it may have lost
        self._humans: frozenset[int] = frozenset()  # the table's human seats (table_state)
        self._statuses: list[TrustStatus] = []  # each change, in stream order, not yet taken
        self._last_status = TrustStatus()
        self._entering = True  # a connection's entry, until its snapshot: a record of the past
        self._intents: dict[int, Action] = {}
        """Our intents on this connection not yet answered, by request id."""
        self._follower = SeatFollower()
        """Our seat, and whether it was taken in mid-match on this connection, until the
        snapshot that ends its entry: then (SPEC.md [UNO-8-7]) the host sends the match as a
        spectator got it, so the verifier follows it as a spectator and takes the seat at that
        snapshot (`_sit`)."""

    @property
    def seat(self) -> int | None:
        return self._follower.seat

    @seat.setter
    def seat(self, seat: int | None) -> None:  # the link's session says it too
        self._follower.seat = seat

    # -- what the link and the screen read ---------------------------------------------------

    @property
    def manifest(self) -> DeckManifest | None:
        return self.identity.manifest if self.identity is not None else None

    @property
    def moves_checked(self) -> int:
        """Our accepted intents that the record showed exactly as we sent them, every match."""
        current = self.verifier.intents.checked if self.verifier is not None else 0
        return self._past_moves + current

    def violations(self) -> list[Violation]:
        """Every violation found on this link, every match, oldest first."""
        current = self.verifier.violations() if self.verifier is not None else []
        return [*self._past_violations, *current]

    def status(self) -> TrustStatus:
        """The current match's rounds and everything caught so far, for the screen."""
        verifier = self.verifier
        caught = list(self._past)
        rounds: list[PanelRound] = []
        abandoned = 0
        if verifier is not None and self.verify:
            caught += caught_in(verifier)
            abandoned = verifier.abandoned_rounds
            for rnd in verifier.rounds:
                state = "abandoned" if rnd.given_up_unseen else rnd.status
                rounds.append(PanelRound(rnd.round_no, state, self._absent(rnd)))
        key = format_fingerprint(fingerprint_of(self.peer_cert)) if self.peer_cert else ""
        path = self.transcript.path if self.transcript is not None else None
        signer = (format_fingerprint(hashlib.sha256(self.identity.signer).digest())
                  if self.identity is not None else "")
        return TrustStatus(tuple(rounds), tuple(caught), abandoned, key,
                           "" if path is None else str(path), signer)

    def _absent(self, rnd: CheckedRound) -> tuple[int, ...]:
        """The players whose seed did not go into a round's deck: those seed_reveals marks
        absent, and the table's human players who are not among seed_commits at all (a seed
        the host left out of the list, or a player away at the round's start): what every
        player is shown, not only the one concerned."""
        absent = set(rnd.absent_seeds)
        if rnd.seed_commits is not None:
            committed = {seat for seat, _ in rnd.seed_commits.commits}
            absent |= {seat for seat in self._humans
                       if seat not in committed and seat < self._seats()}
        return tuple(sorted(absent))

    def _seats(self) -> int:
        return self.identity.seats if self.identity is not None else 0

    def take_statuses(self) -> list[TrustStatus]:
        """Each new status since the last call, in stream order: a read that holds a round's
        audit and the next match's start shows both (the audited round, then the new match)."""
        self._note_status()
        taken, self._statuses = self._statuses, []
        return taken

    def _note_status(self) -> None:
        status = self.status()
        if status != self._last_status:
            self._last_status = status
            self._statuses.append(status)

    # -- connections -------------------------------------------------------------------------

    def connected(self, peer_cert: bytes | None) -> None:
        """A new connection to the host: its TLS certificate (None without TLS). The verifier
        stays; the certificate is checked against the match's signer at the next manifest."""
        self.peer_cert = peer_cert
        self._entering = True
        self._intents.clear()  # request ids are the connection's: an unanswered one is unknown
        self._follower.connected()
        if self.transcript is not None:
            self.transcript.connected(peer_cert)
        self._in_flight()

    def _in_flight(self) -> None:
        """A connection dropped with our seed_commit or seed_reveal perhaps not delivered: an
        honest host then goes on without our seed (it does not wait for a seat that left), so
        its absence is not held against the host, only shown, as every absent seed is, to
        every player. A commitment the host did get is listed in seed_commits: the seed is
        ours again then, to reveal and to check. Neither is sent twice (the host refuses a
        second one, and a refusal would only puzzle the player)."""
        verifier = self.verifier
        rnd = verifier.current if verifier is not None else None
        if rnd is None or rnd.closed or self.seat is None:
            return
        if rnd.own_seed is not None and rnd.seed_commits is None:
            self._unsent_commit = (rnd.round_no, rnd.own_seed)
            rnd.own_seed = None
        elif rnd.own_revealed and rnd.seed_reveals is None:
            rnd.own_revealed = False
            self._unsent_reveal = rnd.round_no

    def _commit_delivered(self, message: Mapping[str, Any]) -> None:
        """seed_commits for a round whose commitment may have been lost: listed, it was not."""
        unsent, verifier = self._unsent_commit, self.verifier
        if unsent is None or verifier is None or message.get("round") != unsent[0]:
            return
        self._unsent_commit = None
        commits = message.get("commits")
        listed = isinstance(commits, list) and any(
            isinstance(pair, list) and pair and pair[0] == self.seat for pair in commits)
        current = verifier.current
        if listed and current is not None and current.round_no == unsent[0]:
            verifier.record_own_seed(unsent[1])  # checked as ours, and revealed

    def leave(self) -> list[Violation]:
        """We leave the table (or close the client): the match is over for us. Returns what
        finishing it found (an audit owed for a round that ended)."""
        if self.left:
            return []
        self.left = True
        if self.transcript is not None:  # so `unonet audit` reads the round we left as we do
            self.transcript.left()
        return self._finish(left=True)

    def _match_closed(self) -> None:
        """The table went back to its lobby after match_ended: the match is over by the host's
        word, and the last round's audit (sent right after match_ended, SPEC.md 7.1) is owed
        now, not only when the player leaves or the next match begins."""
        verifier = self.verifier
        if verifier is not None and verifier.match_over and not self.left:
            self._finish()

    def _finish(self, *, left: bool = False) -> list[Violation]:
        verifier = self.verifier
        if verifier is None or self._finished or not self.verify:
            return []
        self._finished = True
        return verifier.finish(left=left)

    # -- the session's hook ------------------------------------------------------------------

    def observe(self, message: Mapping[str, Any],
                event: GameEvent | None = None) -> TrustReport | None:
        """Every host message as it is decoded; the report (if worth one) becomes the outcome
        of the session's TrustReport event. `event`: what the session decoded from an `event`
        message."""
        if self.transcript is not None:
            self.transcript.record(message)
        kind = message.get("t")
        if kind in ANSWERS:
            return self._answered(message)
        if kind in SEAT_MESSAGES:
            self._follow(message)
            if kind == "table_state" and message.get("started") is False:
                self._match_closed()
            return None
        if kind == "manifest":
            self._note_status()  # what the match being replaced ended with
            return self._manifest(message)
        if kind == "snapshot":
            self._entered(message)
            return None
        observer = self._observer
        if observer is None or self.left:
            return None
        if kind == "seed_commits":
            self._commit_delivered(message)
        if not self.verify:
            if kind in SEED_MESSAGES:
                observer.observe(message)  # what our seed contribution needs
            return None
        verifier = observer.verifier
        current = verifier.current
        outcome = observer.observe(message, event)
        report = report_of(message, outcome, current.round_no if current is not None else None)
        if kind == "round_audit" and current is not None and report is not None:
            report = replace(report, closed=ClosedRound(
                current.status, len(current.received), len(current.ledger.side_claims),
                current.abandoned and not current.dealt))
        if kind != "event" or isinstance(outcome, Violation):
            self._note_status()
        if kind == "round_audit" and verifier.match_over and current is not None \
                and current.closed:
            self._finish()  # the audit after match_ended: the match is over, owed audits count
        return report

    # -- our own moves and the audit's deadline ---------------------------------------------

    def intent_sent(self, request_id: int, action: Action) -> None:
        """The link sent `action` as intent `request_id` on the current connection."""
        while len(self._intents) >= INTENTS_IN_FLIGHT:
            del self._intents[next(iter(self._intents))]
        self._intents[request_id] = action

    def _answered(self, message: Mapping[str, Any]) -> TrustReport | None:
        """An answer to a request: an intent accepted is one the record must show as sent."""
        accepted = message.get("t") == "accepted"
        ref = message.get("id" if accepted else "ref")
        action = self._intents.pop(ref, None) if isinstance(ref, int) else None
        verifier = self.verifier
        if action is None or not accepted or verifier is None or not self.verify or self.left:
            return None
        outcome = verifier.intent_accepted(action)
        if not isinstance(outcome, Violation):
            return None
        self._note_status()
        current = verifier.current
        return report_of(message, outcome, current.round_no if current is not None else None)

    def audit_owed(self) -> int | None:
        """The round whose audit is due now (it ended, its audit has not come), if any."""
        verifier = self.verifier
        if verifier is None or not self.verify or self.left or self._finished:
            return None
        return verifier.audit_owed()

    def audit_overdue(self, round_no: int) -> TrustReport | None:
        """Round `round_no`'s audit missed its deadline on the driver's clock: the violation."""
        verifier = self.verifier
        if verifier is None or self.audit_owed() != round_no:
            return None
        outcome = verifier.audit_overdue(round_no)
        self._note_status()
        return report_of({"round": round_no}, outcome)

    def _entered(self, message: Mapping[str, Any]) -> None:
        """The snapshot that ends a connection's entry: what follows is live."""
        self._entering = False
        if self.verifier is not None and not self.left:
            self.verifier.entered()
            self._sit(message)

    def _sit(self, snapshot: Mapping[str, Any]) -> None:
        """The seat's own snapshot after a seat taken in mid-match (a newcomer's, or a
        spectator's who left the audience for it): the verifier, a spectator's so far, checks
        the seat's cards from here on, and the hand the snapshot gives at the round's audit."""
        verifier, seat = self.verifier, self.seat
        view = snapshot.get("view")
        if verifier is None or seat is None or verifier.seat is not None \
                or not isinstance(view, Mapping) or view.get("seat") != seat:
            return
        self._follower.entered()
        hand = view.get("hand")
        cards = [c for c in hand if isinstance(c, int)] if isinstance(hand, list) else []
        number = view.get("round_no")
        verifier.sit(seat, cards, number if isinstance(number, int) else None)

    def _follow(self, message: Mapping[str, Any]) -> None:
        kind = message.get("t")
        self._follower.follow(message)
        if kind == "table_state":
            try:
                lobby = wire.lobby_from_wire(message)
            except wire.WireError:
                return  # the link says why
            self._humans = frozenset(s.seat for s in lobby.seats if s.kind == "human")

    def _manifest(self, message: Mapping[str, Any]) -> TrustReport | None:
        """The same match again (a connection entering it): the same verifier checks it. Another
        match, or any after we left: the old verifier is finished (and says MATCH_ID if the
        host reset a match we were still at), a new one starts."""
        try:
            identity = MatchIdentity.from_dict(message)
        except MalformedTrustMessage as exc:
            self._retire()
            return self._own(Violation(ViolationKind.MALFORMED,
                                       f"a manifest this client cannot check: {exc}"))
        report: TrustReport | None = None
        old, observer = self.verifier, self._observer
        if old is not None and observer is not None and (self.left or identity != old.match):
            if self.verify and not self.left:
                report = report_of(message, observer.observe(message))  # the old match's
                # verdict: a reset unless it was over (MATCH_ID)
            self._retire()
        if self.verifier is None:
            self._start(identity)
        assert self._observer is not None
        if self.verify:
            report = report or report_of(message, self._observer.observe(message))
        return self._check_peer() or report

    def _start(self, identity: MatchIdentity) -> None:
        self.identity = identity
        self.verifier = TrustVerifier(identity, None if self._follower.taking else self.seat)
        self._observer = VerifierObserver(self.verifier)
        self._finished = False
        self._peer_checked = None
        self.left = False

    def _retire(self) -> None:
        """The current match is done with: finish it and keep what it found."""
        verifier = self.verifier
        if verifier is None:
            return
        self._finish()
        if self.verify:
            self._past += caught_in(verifier)
            self._past_violations += verifier.violations()
            self._past_moves += verifier.intents.checked
        self.verifier = self._observer = self.identity = None

    def _check_peer(self) -> TrustReport | None:
        """On TLS, the match's signer must be the key of the certificate we pinned."""
        verifier, cert = self.verifier, self.peer_cert
        if verifier is None or cert is None or not self.verify or cert == self._peer_checked:
            return None
        self._peer_checked = cert
        outcome = verifier.check_peer(cert)
        return report_of({}, outcome) if isinstance(outcome, Violation) else None

    def _own(self, violation: Violation) -> TrustReport:
        """A violation the gate finds itself (no verifier to hold it)."""
        if self.verify:
            self._past.append(Caught(None, violation.kind.value, violation.detail))
            self._past_violations.append(violation)
        return TrustReport(False, kind=violation.kind.value, detail=violation.detail)

    # -- our seed ----------------------------------------------------------------------------

    def contribution(self, message: Mapping[str, Any]) -> SeedCommit | SeedReveal | None:
        """Our part of the seed exchange after `round_prepare` or `seed_commits`, if any.

        Once per round, as a seated player: a round_prepare replayed to a new connection asks
        for no commitment (SPEC.md 7.1: the verifier keeps our seed if we had sent one; a round
        we were away for is a record, and the host would refuse it), nor a seed_commits already
        answered a second reveal; a round whose commitments were published without ours gets
        none (its deck is made already).
        """
        verifier = self.verifier
        if verifier is None or self.seat is None or verifier.seat is None or self.left:
            return None
        current = verifier.current
        if current is None or current.round_no != message.get("round") or current.closed:
            return None
        unsent = self._unsent_commit
        if (message.get("t") == "round_prepare" and current.own_seed is None
                and not self._entering
                and current.seed_commits is None
                and (unsent is None or unsent[0] != current.round_no)):
            return verifier.contribute()
        if (message.get("t") == "seed_commits" and current.own_seed is not None
                and not current.own_revealed and current.seed_reveals is None
                and self._unsent_reveal != current.round_no):
            return verifier.reveal()
        return None


class AuditClock:
    """When the audit a round owes is overdue, on the driver's clock (trio's, in the link and
    the network bot; a test's MockClock): AUDIT_DEADLINE after the link first owes it on this
    connection. A driver `update`s it after each read and wakes at `deadline`; `due` then names
    the round to report (`TrustGate.audit_overdue`)."""

    def __init__(self, seconds: float = AUDIT_DEADLINE) -> None:
        self.seconds = seconds
        self._round: int | None = None
        self.deadline: float | None = None

    def update(self, owed: int | None, now: float) -> None:
        """What the link owes after a read (`TrustGate.audit_owed`): a new round starts the
        count; none stops it."""
        if owed != self._round:
            self._round = owed
            self.deadline = None if owed is None else now + self.seconds

    def due(self, now: float) -> int | None:
        """The round whose audit is overdue at `now`, once; else None."""
        if self.deadline is None or now < self.deadline:
            return None
        self.deadline = None
        return self._round
