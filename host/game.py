"""A match being played at a table: the engine behind the protocol, the trust scheme around
every round, the timers, and the bots.

The leak rule lives here: each event goes to its audience only (`Event.audience`), each seat's
view and legal actions to that seat alone, spectators get public events and `view(None)`.
Nothing here does I/O or reads a clock: every entry point takes `now`, and `next_deadline()`
says when `tick` must run next.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from host.bots import SeatBots
from host.journal import Journal, TrustRecord
from host.outgoing import ConnId, Packed, SendEvent, SendSnapshot, accepted, refused
from host.round_log import PastRounds, RoundLog, proof_fields
from host.seating import HUMAN, Room
from host.settings import TableTimings
from protocol.frames import pack
from protocol.game_codec import encode_event
from protocol.trust.host import HostCommitments
from protocol.trust.messages import MatchIdentity
from protocol.trust.seed_exchange import SeedExchange, SeedPhase, signed
from protocol.trust.signing import Signer
from unonet import events as ev
from unonet.actions import HOST, Action, Expire, Penalize, Play, StartRound
from unonet.errors import EngineError
from unonet.match import BETWEEN_ROUNDS, IN_ROUND, MATCH_OVER, Match
from unonet.phase import Phase

log = logging.getLogger("unonet.host.game")

BUZZER_WINDOW = 5.0
"""Seconds a buzzer race stays open (RULEBOOK.md, buzzers) before everyone who has not pressed
B draws 2; it closes earlier when all have pressed. Long enough for a player who looked away
for a moment to notice the Buzzer and press, short enough that the table does not wait on
someone gone. It is the same with or without think_time: a race is not a seat's decision."""


class Game:
    """One match at one table, from its first round_prepare to MatchEnded."""

    def __init__(
        self,
        room: Room,
        match: Match,
        game_id: bytes,
        timings: TableTimings,
        journal: Journal | None,
        signer: Signer,
        *,
        label: str = "table",
        trust: SeedExchange | None = None,
        round_log: RoundLog | None = None,
        trust_round: int = 0,
        past: PastRounds | None = None,
    ) -> None:
        self.room = room
        self.match = match
        self.game_id = game_id
        self.timings = timings
        self.journal = journal
        self.label = label
        self.signer = signer
        identity = MatchIdentity(game_id, match.seats, match.rules, match.manifest, signer.signer)
        self.manifest = signer.sign({"t": "manifest", **identity.to_dict()})
        """The match's manifest, signed once: every entrant gets these very bytes."""
        self.trust = trust
        """The seed exchange of the current round, or of the last one until the next
        round_prepare (its messages go to whoever enters between rounds)."""
        self.round_log = round_log
        """The events of the same round, and its audit once sent."""
        self.trust_round = trust.round_no if trust is not None else trust_round
        """The last trust round number prepared: each round_prepare takes the next one."""
        self.past = past if past is not None else PastRounds()
        """The rounds before the current one, re-sent to every entrant (a restarted host's
        rebuilt from its journal, rounds it abandoned included: SPEC.md 11.7, 11.10)."""
        self._journaled = None if trust is None else TrustRecord.of(trust.commitments)
        levels = [seat.level if seat is not None else None for seat in room.seats[: match.seats]]
        self.bots = SeatBots(match, levels, seed=int.from_bytes(game_id[:4], "big"),
                             reaction=timings.bot_reaction, budget=timings.bot_search)
        self.next_round_at: float | None = None
        self.holding: set[int] = set()  # seats reading the scores: ready false between rounds
        self.hold_until: float | None = None
        self.decision_deadline: float | None = None
        self.bot_due: float | None = None
        self.race_due: float | None = None  # a bot's next race move (press B, jump in)
        self._decision: tuple[Any, ...] | None = None
        self._timer_told = False  # a `timer` with time left went out, not yet ended

    @property
    def over(self) -> bool:
        return self.match.phase == MATCH_OVER

    # -- entry points ------------------------------------------------------------------------

    def begin(self, now: float) -> None:
        """Start (or, after a resume, go on with) the match: a round whose seeds were being
        revealed goes on with its exchange, else the next round is prepared."""
        exchanging = self.trust is not None and not self.trust.keyed
        if self.match.phase == BETWEEN_ROUNDS and not exchanging:
            self.next_round_at = now
        self._audit_if_over()  # a resumed journal whose last round had ended: audit it again
        self._refresh(now)
        self.tick(now)

    def send_state(self, conn: ConnId, seat: int | None, *, full: bool = True,
                   history_of: int | bool | None = True, now: float | None = None) -> None:
        """Everything a member entering the match needs (SPEC.md 7.1): the manifest, each
        earlier round's four signed messages (a round abandoned before its deal: its own), the
        previous round whole (trust messages, events as `seat`'s audience got them, audit), the
        current round's trust messages so far, its events so far (round_history), its audit if
        it is over, then the snapshot of what `seat` may know. A client that keeps its verifier
        across connections so completes the round it dropped in and sees every round after it
        numbered and audited. A resync (not `full`) gets the current round's events, which its
        session dropped while waiting, then the snapshot. `now`: the running timer follows the
        snapshot, with what is left of it then (SPEC.md [UNO-8-24])."""
        # Whose events the history holds: the seat's own; for a spectator taking a seat in
        # mid-match (history_of None) the public ones its verifier already has, then the
        # snapshot of the seat's hand (a seat's history would rewrite what it saw).
        audience = seat if history_of is True else history_of
        if full:
            self.room.send(conn, self.manifest)
            for message in self.past.entry(audience):
                self.room.send(conn, message)
            if self.trust is not None:
                for message in self.trust.published:
                    self.room.send(conn, message)
        if self.round_log is not None:
            for message in self.round_log.history(audience):
                self.room.send(conn, message)
            if full and self.round_log.audit is not None:
                self.room.send(conn, self.round_log.audit)
        self.room.outbox.append(SendSnapshot(conn, self.match.view(seat), self._legal(seat)))
        if now is not None and self.decision_deadline is not None:
            self.room.send(conn, self._timer(now))

    def intent(self, conn: ConnId, seat: int, request: int, action: Action, now: float) -> None:
        """A seat's action, applied in arrival order; accepted or refused with the engine's code."""
        seat_state = self.room.seats[seat]
        try:
            events = self.match.apply(seat, action)
        except EngineError as exc:
            self.room.outbox.append(refused(conn, request, exc.code.value, exc.message))
            return
        if seat_state is not None and seat_state.taken_over and seat_state.conn is not None:
            seat_state.taken_over = False
        self.room.outbox.extend(accepted(conn, request))
        self._committed(seat, action, events, now)

    def penalize(self, conn: ConnId, request: int | None, target: int, count: int,
                 now: float) -> bool:
        """The table owner's penalty, applied by the host for them (the engine's Penalize);
        False if the engine refused it (the owner got the error)."""
        action = Penalize(target, count)
        try:
            events = self.match.apply(HOST, action)
        except EngineError as exc:
            self.room.outbox.append(refused(conn, request, exc.code.value, exc.message))
            return False
        self.room.outbox.extend(accepted(conn, request))
        self._committed(HOST, action, events, now)
        return True

    def token_changed(self, seat: int, token_hash: bytes | None, name: str | None = None
                      ) -> None:
        """A seat's resume token was renewed (resume, take-over) or given up (leave): the
        journal says so, so that after a restart the token in the player's hands works and
        a spent one does not; `name` is a newcomer's who took the seat over, so that it is
        still theirs after a restart."""
        if self.journal is not None:
            self.journal.write_token(seat, token_hash, name)

    def seed_message(
        self, conn: ConnId, seat: int, message: Mapping[str, Any], now: float
    ) -> None:
        """seed_commit or seed_reveal from a seat."""
        if self.trust is None:
            self.room.outbox.append(refused(conn, None, "unexpected_message",
                                            "no seed exchange is running"))
            return
        handle = self.trust.commit if message["t"] == "seed_commit" else self.trust.reveal
        problem = handle(seat, message)
        if problem is not None:
            self.room.outbox.append(refused(conn, None, *problem))
            log.info("%s: seat %d %s refused: %s", self.label, seat, message["t"], problem[1])
        else:
            self._journal_trust()  # a revealed seed the audit must show, even after a crash
        self._advance_trust(now)

    def seat_left(self, seat: int, now: float) -> None:
        """A seat's connection is gone: do not wait for its seed."""
        if self.trust is not None:
            self.trust.drop(seat)
            self._advance_trust(now)
        self._refresh(now)

    def seat_changed(self, now: float) -> None:
        """A seat came back or was taken over: bots and timers may have work."""
        self._refresh(now)

    # -- time --------------------------------------------------------------------------------

    def hold_next_round(self, seat: int, ready: bool) -> None:
        """`ready` between rounds: false holds the next deal (SPEC.md 8.2, `ready`), true lets
        it go; a hold lasts at most `ready_wait` after the round ended."""
        if self.match.phase != BETWEEN_ROUNDS:
            return  # the match is over: there is no next deal to hold
        if ready:
            self.holding.discard(seat)
        else:
            self.holding.add(seat)

    def _holders(self) -> bool:
        """A connected player still reading the scores."""
        return any(
            seat.kind == HUMAN and seat.conn is not None
            for index, seat in self.room.occupied() if index in self.holding
        )

    def _held(self, now: float) -> bool:
        return self._holders() and self.hold_until is not None and now < self.hold_until

    def next_deadline(self) -> float | None:
        next_round = self.next_round_at  # None in a round: no players to look at then
        if next_round is not None and self._awaiting_players():
            next_round = None
        if next_round is not None and self._holders() and self.hold_until is not None:
            next_round = max(next_round, self.hold_until)  # a release wakes the table earlier
        times = [next_round, self.decision_deadline, self.bot_due, self.race_due]
        if self.trust is not None and self.trust.phase is not SeedPhase.KEYED:
            times.append(self.trust.deadline)
        for _, seat in self.room.occupied():
            if seat.kind == HUMAN and seat.disconnected_at is not None and not seat.taken_over:
                times.append(seat.disconnected_at + self.timings.grace)
        found = [t for t in times if t is not None]
        return min(found) if found else None

    def tick(self, now: float) -> list[int]:
        """Do what is due at `now`: takeovers, seed phases, the next round, an expiry, and at
        most one bot action of each kind, a decision and a race (so a table of bots yields
        between moves). Returns the seats taken over now: the table's state changed (each is
        `taken_over` now, open to a newcomer), which the table tells its members."""
        taken_over: list[int] = []
        for index, seat in self.room.occupied():
            if (
                seat.kind == HUMAN
                and seat.disconnected_at is not None
                and not seat.taken_over
                and now >= seat.disconnected_at + self.timings.grace
            ):
                seat.taken_over = True
                taken_over.append(index)
                log.info("%s: seat %d (%s) gone past the grace period; a bot plays it",
                         self.label, index, seat.name)
                self._refresh(now)
        if self.trust is not None and self.trust.phase is not SeedPhase.KEYED:
            self._advance_trust(now)
        if (self.next_round_at is not None and now >= self.next_round_at
                and not self._awaiting_players() and not self._held(now)):
            self.next_round_at = None
            self.holding.clear()
            self._prepare_round(now)
        if self.decision_deadline is not None and now >= self.decision_deadline:
            self.decision_deadline = None
            if self.match.phase == IN_ROUND:
                rnd = self.match.round
                waited = (f"the buzzer race (seats {sorted(rnd.buzz_waiting)})"
                          if rnd is not None and rnd.phase == Phase.BUZZER
                          else f"seat {self.match.pending_seat}")
                log.info("%s: time ran out for %s", self.label, waited)
                self._apply(HOST, Expire(), now)
        if self.bot_due is not None and now >= self.bot_due:
            self.bot_due = None
            self._bot_move(now)
        if self.race_due is not None and now >= self.race_due:
            self.race_due = None
            self._race_move(now)
        return taken_over

    # -- rounds and trust --------------------------------------------------------------------

    def _awaiting_players(self) -> bool:
        """A dropped player within its grace period: the next round waits for it, so that
        it can add its seed (after a host restart, that is every player)."""
        return any(
            seat.kind == HUMAN and seat.conn is None and not seat.taken_over
            for index, seat in self.room.occupied() if index < self.match.seats
        )

    def _prepare_round(self, now: float) -> None:
        if self.match.phase != BETWEEN_ROUNDS:
            return
        if self.trust is not None:
            self.past.finish(self.trust.published, self.round_log)
        self.trust_round += 1
        round_no = self.trust_round
        contributors = [
            index for index, seat in self.room.occupied()
            if index < self.match.seats and seat.kind == HUMAN and seat.conn is not None
            and not seat.taken_over
        ]
        self.trust = SeedExchange(HostCommitments(self.game_id, round_no), contributors, now,
                                  self.timings.seed_phase, self.signer)
        self.round_log = RoundLog(self.game_id, round_no)  # the last one is in self.past
        self._journal_trust()  # the host seed, before anyone sees its commitment
        self.room.broadcast(self.trust.published[0])
        log.info("%s: round %d prepared, seeds expected from seats %s", self.label, round_no,
                 contributors)
        self._advance_trust(now)

    def _advance_trust(self, now: float) -> None:
        trust = self.trust
        if trust is None or trust.phase is SeedPhase.KEYED:
            return
        messages = trust.advance(now)
        self._journal_trust()
        for message in messages:
            self.room.broadcast(message)
        if trust.keyed:
            self._deal(trust, now)

    def _deal(self, trust: SeedExchange, now: float) -> None:
        commitments = trust.commitments
        if commitments.absent:
            log.info("%s: seats %s never revealed a seed (zeros used)", self.label,
                     list(commitments.absent))
        log.info("%s: round %d dealt", self.label, commitments.round_no)
        self.room.broadcast(trust.deal(len(self.match.manifest)))
        if self.round_log is not None:
            self.round_log.dealt = True
        self._apply(HOST, StartRound(commitments.key), now)

    def _journal_trust(self) -> None:
        """Journal the round's trust state if it changed: the host seed when the round is
        prepared, the frozen commitments, each seed revealed. A restarted host can then audit
        a round it abandoned, or go on with the one it was playing."""
        if self.journal is None or self.trust is None:
            return
        record = TrustRecord.of(self.trust.commitments)
        if record != self._journaled:
            self.journal.write_trust(record)
            self._journaled = record

    # -- applying and publishing ---------------------------------------------------------------

    def _apply(self, seat: int, action: Action, now: float) -> list[ev.Event]:
        events = self.match.apply(seat, action)
        self._committed(seat, action, events, now)
        return events

    def _committed(self, seat: int, action: Action, events: list[ev.Event], now: float) -> None:
        """An action the engine took: journal it first (nobody has seen its events yet), then
        send the events, then move the timers."""
        if self.journal is not None:
            self.journal.write_action(seat, action)
        self._publish(events)
        for event in events:
            if isinstance(event, ev.RoundEnded):
                self._round_ended(event, now)
            elif isinstance(event, ev.MatchEnded):
                log.info("%s: match over, seat %d wins with scores %s", self.label,
                         event.winner, list(event.scores))
                if self.journal is not None:
                    log.info("%s: journal kept as %s", self.label, self.journal.finish())
                    self.journal = None
        self._audit_if_over()
        self._refresh(now)

    def _audit_if_over(self) -> None:
        """Once a dealt round is over (ended, or the match with it), its audit goes out right
        after the events of the action that ended it: every seed, the outcome and the digest
        of the public events sent. Kept for whoever enters before the next round_prepare."""
        record, trust = self.round_log, self.trust
        if (record is None or trust is None or not record.dealt or record.audit is not None
                or self.match.phase == IN_ROUND):
            return
        audit = trust.commitments.audit(record.outcome, record.digest.value)
        record.audit = signed("round_audit", audit, self.signer)
        self.room.broadcast(record.audit)
        log.info("%s: round %d audited (%s, %d events)", self.label, record.round_no,
                 record.outcome, record.count)

    def _round_ended(self, event: ev.RoundEnded, now: float) -> None:
        log.info("%s: round %d won by seat %s, scores %s", self.label, self.match.round_no,
                 event.winner, list(event.scores))
        if self.match.phase == BETWEEN_ROUNDS:
            self.next_round_at = now + self.timings.round_break
            self.hold_until = now + self.timings.ready_wait

    def _publish(self, events: Sequence[ev.Event]) -> None:
        legal_now: dict[int | None, tuple[list[Action], Packed]] = {}
        members = [(member.conn, member.seat) for member in self.room.members.values()]
        outbox = self.room.outbox
        round_log = self.round_log
        if round_log is not None and not round_log.unsettled:
            self.room.unsettled.append(round_log)  # settled after the answers are written
        for event in events:
            proof = self._proof(event)
            audience = event.audience
            wire = encode_event(event, proof)  # once, for the round's log and every receiver
            raw = pack(wire)
            if round_log is not None and round_log.audit is None:
                round_log.add_encoded(event, wire, raw)
            shared = Packed(wire=wire, raw=raw)
            for conn, seat in members:
                if audience is not None and (seat is None or seat not in audience):
                    continue
                found = legal_now.get(seat)
                if found is None:
                    found = legal_now[seat] = (self._legal(seat), Packed())
                outbox.append(SendEvent(conn, event, found[0], proof, shared, found[1]))
            if isinstance(event, ev.Reshuffled) and self.trust is not None:
                commits = self.trust.commitments.reshuffle(event.epoch, event.sources)
                self.room.broadcast(self.trust.publish("deck_commits", commits))
        self.bots.observe(events)

    def _proof(self, event: ev.Event) -> dict[str, Any]:
        """The nonces that open the commitments of the positions an event names, limited to
        the proof fields the wire format carries for that event type."""
        if self.trust is None:
            return {}
        return proof_fields(self.trust.commitments, event)

    def _legal(self, seat: int | None) -> list[Action]:
        if seat is None or seat >= self.match.seats:
            return []
        return self.match.legal_actions(seat)

    # -- timers and bots -----------------------------------------------------------------------

    def _refresh(self, now: float) -> None:
        """After any change: restart the decision timer if the decision changed, and wake the
        bots if one of them has something to do (a race chance at its reaction time)."""
        key = self._decision_key()
        if key != self._decision:
            self._decision = key
            self.decision_deadline = self._decision_time(now)
            if self.decision_deadline is not None or self._timer_told:
                self._timer_told = self.decision_deadline is not None
                self.room.broadcast(self._timer(now))
        in_round = self.match.phase == IN_ROUND
        controlled = self._controlled() if in_round else []
        if not controlled:  # a table of players, most actions: no bot to ask anything
            if in_round and self.bots.chances:
                self.bots.schedule(controlled, now)  # forgets the chances it noted
            self.race_due = self.bot_due = None
            return
        self.race_due = self.bots.schedule(controlled, now)
        # After `schedule`: a bot about to catch someone has no decision to make until then.
        self.bot_due = self._bot_time(now) if self.bots.has_work(controlled) else None

    def _decision_key(self) -> tuple[Any, ...] | None:
        """What identifies the pending decision: its timer restarts when this changes. A
        buzzer race is one decision from its opening to its close, whoever presses B."""
        rnd = self.match.round
        if rnd is None or self.match.phase != IN_ROUND:
            return None
        if rnd.phase == Phase.BUZZER:
            return (self.match.round_no, rnd.phase, rnd.current)
        return (self.match.round_no, rnd.turn_serial, rnd.phase, rnd.current)

    def _decision_time(self, now: float) -> float | None:
        """When the pending decision expires (SPEC.md 13): a buzzer race after BUZZER_WINDOW
        whatever think_time; anything else (a turn, a colour, a challenge, a stack to answer, a
        7's target) after think_time, and without one never, but for a challenge, which cannot
        hold the table forever (`challenge_decision`)."""
        rnd = self.match.round
        if rnd is None or self.match.phase != IN_ROUND:
            return None
        if rnd.phase == Phase.BUZZER:
            return now + BUZZER_WINDOW
        think = self.match.rules.think_time
        if think is None and rnd.phase == Phase.CHALLENGE:
            return now + self.timings.challenge_decision
        return None if think is None else now + think

    def _timer(self, now: float) -> dict[str, Any]:
        """The `timer` message of the decision timer as it runs at `now` (SPEC.md [UNO-8-24]):
        whom it waits on, how long it has left and what it times; none running, it says so."""
        deadline = self.decision_deadline
        if deadline is None:
            return {"t": "timer", "seats": []}
        phase = self.match.decision
        seats: list[int] = []
        if phase == Phase.BUZZER:
            pending = self.match.view(None).pending
            seats = list(pending.waiting) if pending is not None else []
        elif (seat := self.match.pending_seat) is not None:
            seats = [seat]
        message: dict[str, Any] = {"t": "timer", "seats": seats,
                                   "ms": max(0, round((deadline - now) * 1000))}
        if phase is not None:
            message["kind"] = str(phase.value)
        return message

    def _bot_time(self, now: float) -> float:
        """When a bot's decision is due: after its think time, and no sooner than the jump-in
        wait while a player may jump in (TableTimings.jump_in_wait)."""
        delay = self.timings.bot_delay
        if self.timings.jump_in_wait > delay and self._player_may_jump_in():
            delay = self.timings.jump_in_wait
        return now + delay

    def _player_may_jump_in(self) -> bool:
        """A connected player, whose turn it is not, holds a card the legal list lets it play
        now: a jump-in (or the next card of its run) is open to a person."""
        if self.match.rules.jump_in == "off" and not self.match.rules.sequences:
            return False
        current = self.match.pending_seat
        for index, seat in self.room.occupied():
            if (index != current and index < self.match.seats and seat.kind == HUMAN
                    and seat.conn is not None and not seat.taken_over
                    and any(isinstance(action, Play) for action in self._legal(index))):
                return True
        return False

    def _controlled(self) -> list[int]:
        return [
            index for index, seat in self.room.occupied()
            if index < self.match.seats and seat.bot_controlled
        ]

    def _bots_have_work(self) -> bool:
        return self.match.phase == IN_ROUND and self.bots.has_work(self._controlled())

    def _bot_move(self, now: float) -> None:
        choice = self.bots.decide(self._controlled())
        if choice is None:
            if self.bots.thinking:
                self.bot_due = now  # its search goes on once the connections were served
            return
        seat, action = choice
        try:
            self._apply(seat, action, now)
        except EngineError as exc:  # a policy bug: log it, and let the game go on by expiry
            log.error("%s: bot at seat %d chose %s, refused: %s", self.label, seat, action, exc)
            if self.match.pending_seat == seat:
                self._apply(HOST, Expire(), now)

    def _race_move(self, now: float) -> None:
        """A bot's reaction time is up: it presses B, plays out of turn or catches, if it still
        wants; the next chance's time is armed either way."""
        choice = self.bots.race(now)
        if choice is None:
            self._race_let_go(now)
            return
        seat, action = choice
        try:
            self._apply(seat, action, now)
        except EngineError as exc:  # a policy bug: the chance is let go, the game goes on
            log.error("%s: bot at seat %d chose %s out of turn, refused: %s", self.label, seat,
                      action, exc)
            self._race_let_go(now)

    def _race_let_go(self, now: float) -> None:
        """Nothing changed: arm the next chance, and the decision of a bot that held it to
        catch someone first."""
        self.race_due = self.bots.next_race()
        if self.bot_due is None and self._bots_have_work():
            self.bot_due = self._bot_time(now)
