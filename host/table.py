"""One table: its lobby (seats, names, ready flags, the owner's rules, bots) and its match.

Sans-IO like h11: the server calls a method per request with the time, the table appends what
to send to the shared outbox, and `next_deadline()`/`tick()` drive its timers. The lobby rules:
the first to join owns the table; only the owner changes rules, seats or removes bots, kicks or
starts, and only in the lobby. An operator's table (`unonet host --headless`) has no owner among
its players: it is the operator's, set from the command line. A headless table (a dedicated
server) starts by itself once `target_seats` seats are filled and every player is ready, and a
new match follows each one.
"""

from __future__ import annotations

import logging
import math
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from host.bots import BOT_NAMES, check_level
from host.game import Game
from host.group_commit import GroupCommit
from host.journal import Header, Journal, Resumed, SeatRecord, journal_file
from host.outgoing import CloseConnection, ConnId, Outgoing, accepted, refused
from host.round_log import PastRounds, ReplayedRound, RoundLog
from host.seating import BOT, HUMAN, Member, Room, Seat, new_token
from host.settings import TableTimings
from host.table_limits import (
    FINISHED_KEPT,
    MAX_SPECTATORS,
    PENALTIES_PER_ROUND,
    PENALTIES_PER_TARGET,
    PENALTY_MAX_CARDS,
    RESUME_NOTICE_EVERY,
    TABLE_CHAT_BURST,
    TABLE_CHAT_PER_SECOND,
)
from protocol.errors import Code
from protocol.ratelimit import TokenBucket
from protocol.text import TextRefused, normal_chat, normal_name
from protocol.trust.primitives import new_game_id
from protocol.trust.seed_exchange import resumed_exchange, revealing_exchange
from protocol.trust.signing import Signer
from unonet.actions import Action
from unonet.errors import EngineError
from unonet.match import IN_ROUND, Match
from unonet.rules import OPTIONS, RuleSet, preset, variant_preset

log = logging.getLogger("unonet.host.table")

MAX_NAME = 32
"""A player's name at most (SPEC.md 8.2, join_table.name: str(1..32))."""


class Refusal(Exception):
    """A request the lobby refuses; becomes error{code, ref} to the sender."""

    def __init__(self, code: str, msg: str) -> None:
        super().__init__(msg)
        self.code = code
        self.msg = msg


@dataclass
class TableSettings:
    name: str
    rules: RuleSet = field(default_factory=RuleSet)
    preset: str = "official"
    capacity: int = 10
    headless: bool = False
    target_seats: int | None = None  # headless: start when this many seats are filled
    timings: TableTimings = field(default_factory=TableTimings)
    journal_dir: Path | None = None
    notice: Mapping[str, Any] | None = None
    """A host notice (host_notice) sent to everyone who takes a seat: how friends join."""
    host: Mapping[str, Any] = field(default_factory=dict)
    """How the host listens and plays (host/run.py host_record): kept in the journal's table
    record so that `--resume JOURNAL` alone listens where friends look."""
    operator: bool = False
    """The operator's table (`unonet host --headless`): no player owns it, so no player
    changes its rules, kicks, adds bots or penalizes; the operator's command line decides."""
    created: bool = False
    """A table a client opened from the lobby: removed once abandoned. Its journal says so,
    so that it is again once resumed."""


def host_notice(text: str, notice: str | None = None, about: str | None = None
                ) -> dict[str, Any]:
    """A chat line from the host itself: `host: true` is what clients draw as the host's own,
    a mark no member's line carries (and no member may be called "host"). `notice`: its code,
    for a client to say it in its player's words (SPEC.md [UNO-8-27]); `about`: whom."""
    message: dict[str, Any] = {"t": "chat_message", "name": "host", "text": text, "host": True}
    if notice is not None:
        message["notice"] = notice
    if about is not None:
        message["about"] = about
    return message


class Table:
    def __init__(self, number: int, settings: TableSettings, outbox: list[Outgoing],
                 signer: Signer | None = None, journals: GroupCommit | None = None) -> None:
        self.number = number
        self.settings = settings
        self.journals = journals
        """The host's group commit, which each match's journal joins (None: every journal
        line is fsync'd as it is written)."""
        self.signer = signer or Signer.generate()
        """The host's key, which signs every match's manifest and trust messages (a key of
        its own, made now, for a table built without the host's)."""
        self.rules = settings.rules
        capacity = min(settings.capacity, settings.rules.max_players, 10)
        self.room = Room(capacity, outbox)
        self.owner: int | None = None
        self.game: Game | None = None
        self.restart_at: float | None = None
        self.finished: list[Match] = []
        self._resume_noticed: dict[int, float] = {}  # seat -> when its player was last told
        """The last FINISHED_KEPT matches played to their end here, oldest first (the
        journal keeps them all); `matches_played` counts every one."""
        self.matches_played = 0
        self._chat: TokenBucket | None = None  # the table's chat allowance, from its first line
        self._penalties: tuple[int, dict[int, int]] = (0, {})  # round, penalties per seat
        self.label = f"table {number}"
        self.match_humans = 0
        """How many human seats the current (or last) match was dealt with: a rematch starts
        by itself only if every one of them asked for it ([UNO-8-11])."""

    # -- what others ask of a table ----------------------------------------------------------

    @property
    def started(self) -> bool:
        return self.game is not None

    def summary(self) -> dict[str, Any]:
        return {
            "table": self.number, "name": self.settings.name, "seats": len(self.room.seats),
            "players": sum(1 for _ in self.room.occupied()), "started": self.started,
            "preset": self.settings.preset, "open": self.open_seats(),
            "bots": sum(1 for _, seat in self.room.occupied() if seat.kind == BOT),
        }

    def open_seats(self) -> int:
        """How many seats a join_table may take now (SPEC.md [UNO-8-15]): the empty ones in
        the lobby, the stand-ins' in mid-match, none while the scores are read."""
        if not self.started:
            return sum(1 for seat in self.room.seats if seat is None)
        if self.game is None or self.game.over:
            return 0
        return sum(1 for index in range(len(self.room.seats)) if self._open_in_match(index))

    @property
    def abandoned(self) -> bool:
        """Nobody sits or watches here and no match is left to play: nothing to keep."""
        return not self.room.members and (self.game is None or self.game.over)

    def seat_of_token(self, hashed: bytes) -> int | None:
        for index, seat in self.room.occupied():
            if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, hashed):
                return index
        return None

    def next_deadline(self) -> float | None:
        if self.game is not None and self.game.over and self.restart_at is None:
            return -math.inf  # the match just ended: tick now, to schedule the next one
        times = [self.restart_at]
        if self.game is not None:
            times.append(self.game.next_deadline())
        found = [t for t in times if t is not None]
        return min(found) if found else None

    def tick(self, now: float) -> None:
        if self.game is not None:
            stand_ins = self.game.tick(now)
            for index in stand_ins:  # a seat past its grace: a bot plays it, open to all
                seat = self.room.seats[index]
                if seat is not None:
                    self._seat_news("stand_in", index, seat.name)
            if stand_ins:
                self._lobby_changed(now)
            if self.game.over and self.restart_at is None:
                self._match_over(now)
        if self.restart_at is not None and now >= self.restart_at:
            self.restart_at = None
            self._back_to_lobby(now)

    # -- joining and leaving -----------------------------------------------------------------

    def join(self, conn: ConnId, name: str, wanted: int | None, request: int | None,
             now: float) -> None:
        """Take a seat: the sender gets `seated` with its secret resume token."""
        try:
            name = normal_name(name)
        except TextRefused as exc:
            self.room.outbox.append(refused(conn, request, exc.code, exc.msg))
            return
        member = self.room.members.get(conn)
        if member is not None:
            self._move(member, name, wanted, request, now)
            return
        try:
            if self.game is not None and not self.game.over:
                self._take_over(conn, name, self._stand_in_seat(wanted), request, now)
                return
            if self.started:
                raise Refusal(Code.GAME_IN_PROGRESS, "the match is over; wait for the lobby")
            self._rules_room()
            index = self._pick_seat(wanted)
        except Refusal as exc:
            self.room.outbox.append(refused(conn, request, exc.code, exc.msg))
            return
        token, hashed = new_token()
        name = self._unique(name, index)
        self.room.seats[index] = Seat(HUMAN, name, token_hash=hashed, conn=conn)
        self.room.members[conn] = Member(conn, index, name)
        if self.owner is None and not self.settings.operator:
            self.owner = index
        log.info("%s: %s joined seat %d", self.label, name, index)
        self.room.outbox.extend(accepted(conn, request))
        self.room.send(conn, {"t": "seated", "table": self.number, "seat": index, "token": token})
        self._greet(conn)
        self._seat_news("joined", index, name, about=conn)
        self._lobby_changed(now)

    def _stand_in_seat(self, wanted: int | None) -> int:
        """In mid-match, the seat a newcomer may take: one a stand-in bot plays because its
        player left or stayed away past the grace period ([UNO-8-7])."""
        open_seats = [i for i, _ in self.room.occupied() if self._open_in_match(i)]
        if wanted is None and open_seats:
            return open_seats[0]
        if wanted in open_seats:
            return wanted
        # Said to a spectator as much as to a newcomer: what would open a seat, not "spectate".
        if wanted is not None:
            raise Refusal(Code.GAME_IN_PROGRESS,
                          f"seat {wanted} cannot be taken now: a seat opens in mid-match only "
                          "when its player leaves or stays away past the grace period")
        raise Refusal(Code.GAME_IN_PROGRESS,
                      "no seat can be taken in this match now: one opens when its player "
                      "leaves or stays away past the grace period (watch meanwhile)")

    def _open_in_match(self, index: int) -> bool:
        """Whether a join_table may take seat `index` now ([UNO-8-7]): a match is on and a
        stand-in plays the seat because its player left or its grace ran out
        (table_state's `taken_over`)."""
        game = self.game
        seat = self.room.seats[index]
        return (game is not None and not game.over and index < game.match.seats
                and seat is not None and seat.kind == HUMAN and seat.taken_over
                and seat.conn is None)

    def _take_over(self, conn: ConnId, name: str, index: int, request: int | None,
                   now: float) -> None:
        """A newcomer (a spectator, say) sits in a stand-in's seat in mid-match: a fresh
        token (the old one died with the leave), then the seat's state as a resume gets it
        (SPEC.md 7.1: the manifest, the earlier rounds, this round's history, the snapshot)."""
        seat = self.room.seats[index]
        assert seat is not None and self.game is not None
        token, hashed = new_token()
        seat.name = self._unique(name, index)
        seat.token_hash, seat.conn = hashed, conn
        self.game.token_changed(index, hashed, seat.name)
        seat.disconnected_at, seat.taken_over, seat.ready = None, False, True
        self.room.members[conn] = Member(conn, index, seat.name)
        log.info("%s: %s takes seat %d from its stand-in", self.label, seat.name, index)
        self.room.outbox.extend(accepted(conn, request))
        self.room.send(conn, {"t": "seated", "table": self.number, "seat": index,
                              "token": token})
        self._greet(conn)
        self.game.send_state(conn, index, history_of=None, now=now)
        self.game.seat_changed(now)
        self._seat_news("took_over", index, seat.name, about=conn)
        self._lobby_changed(now)

    def _move(self, member: Member, name: str, wanted: int | None, request: int | None,
              now: float) -> None:
        """join_table at one's own table, in the lobby ([UNO-8-8]): another seat and/or name.
        The seat object moves whole, so the owner stays owner and the resume token still works
        (a leave then join would hand the table to the next human)."""
        try:
            if member.seat is None:
                raise Refusal(Code.UNEXPECTED_MESSAGE, "leave your table first")
            self._in_lobby()
            index = member.seat if wanted in (None, member.seat) else self._pick_seat(wanted)
        except Refusal as exc:
            self.room.outbox.append(refused(member.conn, request, exc.code, exc.msg))
            return
        seat = self.room.seats[member.seat]
        assert seat is not None
        self.room.seats[member.seat] = None
        self.room.seats[index] = seat
        if self.owner == member.seat:
            self.owner = index
        name = self._unique(name, index)  # the seat has moved there already
        log.info("%s: %s moved from seat %d to %d as %s", self.label, seat.name, member.seat,
                 index, name)
        was = seat.name
        seat.name = member.name = name
        moved = index != member.seat
        member.seat = index
        self.room.outbox.extend(accepted(member.conn, request))
        if name != was:
            self._seat_news("renamed", index, name, about=member.conn, was=was)
        if moved:
            self._seat_news("moved", index, name, about=member.conn)
        self._lobby_changed(now)

    def spectate(self, conn: ConnId, name: str, request: int | None, now: float) -> None:
        """Watch the table: at most MAX_SPECTATORS connections do (`table_full`)."""
        try:
            name = normal_name(name)
        except TextRefused as exc:
            self.room.outbox.append(refused(conn, request, exc.code, exc.msg))
            return
        watching = sum(1 for m in self.room.members.values() if m.seat is None)
        if watching >= MAX_SPECTATORS:
            self.room.outbox.append(refused(conn, request, Code.TABLE_FULL,
                                            f"{MAX_SPECTATORS} connections watch this table "
                                            "already"))
            return
        self.room.members[conn] = Member(conn, None, name)
        self.room.outbox.extend(accepted(conn, request))
        self._lobby_changed(now)
        if self.game is not None:
            self.game.send_state(conn, None, now=now)

    def resume(self, conn: ConnId, index: int, now: float) -> None:
        """A dropped player is back (hello.resume): a new token in `seated` (the one it came
        with is spent, so a copy of it is worthless now), then a snapshot first of all.
        The registry lets a token in only when the seat's connection is not alive
        (`seat_in_use` otherwise): a connection still here is a dead one not yet noticed."""
        seat = self.room.seats[index]
        assert seat is not None
        away = seat.conn is None  # (else a silent connection, never told as gone)
        if seat.conn is not None:
            self.room.members.pop(seat.conn, None)
            self.room.outbox.append(CloseConnection(seat.conn, Code.KICKED,
                                                    "the seat was resumed from another "
                                                    "connection while this one was silent"))
        token, hashed = new_token()
        seat.token_hash = hashed
        seat.conn = conn
        seat.disconnected_at = None
        seat.taken_over = False
        self.room.members[conn] = Member(conn, index, seat.name)
        log.info("%s: %s is back in seat %d (token renewed)", self.label, seat.name, index)
        self.room.send(conn, {"t": "seated", "table": self.number, "seat": index,
                              "token": token})
        self._greet(conn)  # a host resumed from its journal: its own player's chat is new
        if self.game is not None:
            self.game.token_changed(index, hashed)
            self.game.send_state(conn, index, now=now)
            self.game.seat_changed(now)
        if away:
            self._seat_news("back", index, seat.name, about=conn)
        self._lobby_changed(now)

    def _greet(self, conn: ConnId) -> None:
        """The host's notice for whoever takes a seat (how friends join), if it has one: at
        every seating, a resumed one included (a client shows a line it already has once)."""
        if self.settings.notice is not None:
            self.room.send(conn, dict(self.settings.notice))

    def resume_refused(self, index: int, now: float) -> None:
        """Someone came with this seat's token while its player is connected and answering:
        the player hears of it (the token has leaked, or another of its clients tried), once
        per RESUME_NOTICE_EVERY seconds: a client retrying, or a thief connecting in a loop,
        must not flood the player's chat and the host's log."""
        seat = self.room.seats[index]
        last = self._resume_noticed.get(index)
        if last is not None and now - last < RESUME_NOTICE_EVERY:
            return
        self._resume_noticed[index] = now
        if seat is not None and seat.conn is not None:
            log.warning("%s: a resume of seat %d (%s) refused: its connection is alive",
                        self.label, index, seat.name)
            self.room.send(seat.conn, host_notice(
                "someone tried to resume your seat from another connection; you keep it",
                "resume_tried"))

    def disconnect(self, conn: ConnId, now: float, quit_: bool = False) -> None:
        """The connection is gone. In a match the seat waits for its player (grace period,
        then a bot); in the lobby there is nothing to keep, so the seat is freed. A player
        who quit (bye, quit) is not waited for: a bot plays the seat at once, and the player
        may still take it back with its token (found in tmux: a player who chose to leave was
        "lost the connection" to the others, whose game stalled for the grace period)."""
        member = self.room.members.pop(conn, None)
        if member is None or member.seat is None:
            if member is not None:
                self._lobby_changed(now)
            return
        seat = self.room.seats[member.seat]
        if seat is None or seat.conn != conn:
            return
        if self.game is None:
            self._free(member.seat)
            self._seat_news("left", member.seat, seat.name)
        else:
            seat.conn = None
            seat.disconnected_at = now
            seat.taken_over = quit_
            log.info("%s: %s %s seat %d", self.label, seat.name,
                     "quit; a bot plays" if quit_ else "dropped from", member.seat)
            self.game.seat_left(member.seat, now)
            if not quit_:
                self._seat_news("dropped", member.seat, seat.name)
            else:
                self._seat_news("left", member.seat, seat.name, bot=not self.game.over)
        self._lobby_changed(now)

    # -- requests from members ----------------------------------------------------------------

    def request(self, conn: ConnId, message: Mapping[str, Any], now: float) -> None:
        """A request of a member (TABLE_REQUESTS): ready, set_rules, add_bot, remove_bot, kick,
        start, leave, resync or penalize."""
        kind = str(message["t"])
        request = message.get("id")
        member = self.room.members.get(conn)
        handler = TABLE_REQUESTS.get(kind)
        try:
            if member is None:
                raise Refusal(Code.NOT_AT_TABLE, "join or spectate a table first")
            if handler is None:
                raise Refusal(Code.UNEXPECTED_MESSAGE, f"{kind} is not a table request")
            handler.run(self, member, message, now)
        except Refusal as exc:
            self.room.outbox.append(refused(conn, request, exc.code, exc.msg))
            return
        if handler.answers:
            return
        self.room.outbox.extend(accepted(conn, request))
        if handler.lobby_changes:
            self._lobby_changed(now)

    def intent(self, conn: ConnId, request: int, action: Action, now: float) -> None:
        member = self.room.members.get(conn)
        if member is None or member.seat is None:
            self.room.outbox.append(refused(conn, request, Code.NOT_AT_TABLE,
                                            "only a seated player acts"))
        elif self.game is None:
            self.room.outbox.append(refused(conn, request, "wrong_phase", "no match is on"))
        else:
            self.game.intent(conn, member.seat, request, action, now)

    def message(self, conn: ConnId, message: Mapping[str, Any], now: float) -> None:
        """chat, seed_commit, seed_reveal."""
        member = self.room.members.get(conn)
        if member is None:
            self.room.outbox.append(refused(conn, None, Code.NOT_AT_TABLE, "not at a table"))
            return
        if message["t"] == "chat":
            try:
                text = normal_chat(str(message["text"]))
            except TextRefused as exc:
                self.room.outbox.append(refused(conn, None, exc.code, exc.msg))
                return
            if self._chat is None:
                self._chat = TokenBucket(now, rate=TABLE_CHAT_PER_SECOND, burst=TABLE_CHAT_BURST)
            if not self._chat.take(now):
                self.room.outbox.append(refused(
                    conn, None, Code.CHAT_LIMITED,
                    f"this table relays at most {TABLE_CHAT_PER_SECOND:g} chat lines a second; "
                    "the line was not sent"))
                return
            line: dict[str, Any] = {"t": "chat_message", "name": member.name, "text": text}
            if member.seat is not None:
                line["seat"] = member.seat
            self.room.broadcast(line)
        elif member.seat is not None and self.game is not None:
            self.game.seed_message(conn, member.seat, message, now)
        else:
            self.room.outbox.append(refused(conn, None, Code.UNEXPECTED_MESSAGE,
                                            "no seed is expected from this connection"))

    # -- the lobby requests --------------------------------------------------------------------

    def _on_ready(self, member: Member, message: Mapping[str, Any], now: float) -> None:
        seat = self._own_seat(member)
        game = self.game
        if game is not None and game.over:  # [UNO-8-11]: a rematch with the same seats
            if self.restart_at is None:
                self._match_over(now)  # the clock has not looked yet: clear the old answers
            seat.ready = bool(message["ready"])
            self._after_the_match(now)
            return
        if game is not None and game.match.phase != IN_ROUND and member.seat is not None:
            game.hold_next_round(member.seat, bool(message["ready"]))  # nothing after the end
            return
        self._in_lobby()
        seat.ready = bool(message["ready"])

    def _on_set_rules(self, member: Member, message: Mapping[str, Any], now: float) -> None:
        self._owner_in_lobby(member)
        options = dict(message["options"])
        given = message.get("preset")
        name = str(given or self.settings.preset)
        unknown = sorted(set(options) - set(OPTIONS))
        if unknown:
            raise Refusal("invalid_rules", f"{unknown[0]}: unknown option")
        try:
            # SPEC.md set_rules: a preset restarts from it; without one, the options go over
            # the rules in force (each change undid the ones before it: teams, then a round
            # limit, and teams was off again).
            rules = (preset(name, **options) if given is not None
                     else self.rules.with_options(options))
            rules.check_table(max(2, self._needed_seats()))
        except EngineError as exc:
            raise Refusal(exc.code.value, exc.message) from None
        except (TypeError, ValueError) as exc:
            raise Refusal("invalid_rules", str(exc)) from None
        if given is None and rules.variant != self.rules.variant:
            # found in tmux: "Rules (flip: UNO Flip, changed)" over a classic game
            name = variant_preset(rules.variant)
        self.rules = rules
        self.settings.preset = name
        for _, seat in self.room.occupied():  # ready was agreement to the old rules
            if seat.kind == HUMAN:
                seat.ready = False
        log.info("%s: rules set to %s %s", self.label, name, rules.differences())

    def _on_add_bot(self, member: Member, message: Mapping[str, Any], now: float) -> None:
        self._owner_in_lobby(member)
        try:
            level = check_level(message.get("level"))
        except ValueError as exc:
            raise Refusal(Code.BAD_MESSAGE, str(exc)) from None
        self.add_bot(level, message.get("seat"))

    def _on_remove_bot(self, member: Member, message: Mapping[str, Any], now: float) -> None:
        self._owner_in_lobby(member)
        index = int(message["seat"])
        seat = self.room.seats[index] if index < len(self.room.seats) else None
        if seat is None or seat.kind != BOT:
            raise Refusal(Code.BAD_MESSAGE, f"seat {index} holds no bot")
        self._free(index)

    def _on_kick(self, member: Member, message: Mapping[str, Any], now: float) -> None:
        self._owner_in_lobby(member)
        index = int(message["seat"])
        seat = self.room.seats[index] if index < len(self.room.seats) else None
        if seat is None or index == member.seat:
            raise Refusal(Code.BAD_MESSAGE, f"seat {index} cannot be kicked")
        if seat.conn is not None:
            self.room.members.pop(seat.conn, None)
            self.room.outbox.append(CloseConnection(seat.conn, Code.KICKED,
                                                    "the table's owner removed you"))
        log.info("%s: seat %d (%s) kicked", self.label, index, seat.name)
        # Everyone still at the table hears why the seat is empty: this notice is the seat's
        # news ([UNO-8-17]), in place of a `left` that would say the player chose to go.
        self.room.broadcast(host_notice(f"the table's owner removed {seat.name}", "removed",
                                        seat.name))
        self._free(index)

    def _on_start(self, member: Member, message: Mapping[str, Any], now: float) -> None:
        self._owner_in_lobby(member)
        occupied = list(self.room.occupied())
        if len(occupied) < 2:
            raise Refusal(Code.NOT_READY, "a match needs at least two seats filled")
        if any(s.kind == HUMAN and not (s.ready and s.connected) for _, s in occupied):
            raise Refusal(Code.NOT_READY, "every seated player must be ready")
        try:
            self.rules.check_table(len(occupied))
        except EngineError as exc:
            raise Refusal(exc.code.value, exc.message) from None
        self.start(now)

    def _on_leave(self, member: Member, message: Mapping[str, Any], now: float) -> None:
        self.room.members.pop(member.conn, None)
        if member.seat is not None:
            seat = self.room.seats[member.seat]
            if seat is not None and self.game is None:
                self._free(member.seat)
                self._seat_news("left", member.seat, seat.name)
            elif seat is not None and self.game is not None and self.game.over:
                self._left_after_the_match(member.seat, now)
                # `started`, not `self.game is None`: mypy still holds self.game narrowed to a
                # Game here, and would call the check unreachable.
                if not self.started:
                    return  # back in the lobby: everyone got its table_state
            elif seat is not None and self.game is not None:
                seat.conn = None
                seat.token_hash = None  # the seat is given up: a newcomer may take it
                self.game.token_changed(member.seat, None)
                seat.taken_over = True
                log.info("%s: %s left seat %d; a bot plays it", self.label, seat.name,
                         member.seat)
                self.game.seat_left(member.seat, now)
                self._seat_news("left", member.seat, seat.name, bot=True)
        self._lobby_changed(now)

    def _left_after_the_match(self, index: int, now: float) -> None:
        """A player left the finished match (leave, or its connection closed on the score
        screen): nothing is left to play, so no stand-in and no token: the seat is free now,
        and the table goes back to its lobby if nobody else is still reading the scores."""
        seat = self.room.seats[index]
        log.info("%s: %s left seat %d after the match", self.label,
                 seat.name if seat else "?", index)
        self._free(index)
        if seat is not None:
            self._seat_news("left", index, seat.name)
        self._after_the_match(now)

    def _on_resync(self, member: Member, message: Mapping[str, Any], now: float) -> None:
        if self.game is None:
            raise Refusal(Code.UNEXPECTED_MESSAGE, "no match is on: nothing to resync")
        self.game.send_state(member.conn, member.seat, full=False, now=now)

    def _on_penalize(self, member: Member, message: Mapping[str, Any], now: float) -> None:
        """The owner's moderation (RULEBOOK.md 1.11): the game answers, then sends the events.
        Limited (`penalty_limit`): PENALTY_MAX_CARDS a request, PENALTIES_PER_TARGET per seat
        and PENALTIES_PER_ROUND per round; each one applied is one log line."""
        if member.seat is None or member.seat != self.owner:
            raise Refusal(Code.NOT_OWNER, "only the table's owner may penalize")
        if self.game is None:
            raise Refusal("wrong_phase", "no match is on")
        raw = message.get("count")
        count = 2 if raw is None else int(raw)
        target = int(message["seat"])
        round_no = self.game.match.round_no
        counted, given = self._penalties
        if counted != round_no:
            given = {}
            self._penalties = (round_no, given)
        if count > PENALTY_MAX_CARDS:
            raise Refusal(Code.PENALTY_LIMIT, f"a penalty is at most {PENALTY_MAX_CARDS} cards")
        if given.get(target, 0) >= PENALTIES_PER_TARGET:
            raise Refusal(Code.PENALTY_LIMIT, f"seat {target} was penalized this round already")
        if sum(given.values()) >= PENALTIES_PER_ROUND:
            raise Refusal(Code.PENALTY_LIMIT,
                          f"at most {PENALTIES_PER_ROUND} penalties in a round")
        if self.game.penalize(member.conn, message.get("id"), target, count, now):
            given[target] = given.get(target, 0) + 1
            log.info("%s: %s (seat %d, owner) penalized seat %d with %d cards in round %d "
                     "(%d of %d this round)", self.label, member.name, member.seat, target,
                     count, round_no, sum(given.values()), PENALTIES_PER_ROUND)

    # -- lobby mechanics --------------------------------------------------------------------

    def add_bot(self, level: str = "normal", wanted: int | None = None) -> int:
        """Seat an in-process bot (the host's own: the command line's --bots uses this too)."""
        self._in_lobby()
        self._rules_room()
        index = self._pick_seat(wanted)
        used = {seat.name.casefold() for _, seat in self.room.occupied()}
        name = next((n for n in BOT_NAMES if n.casefold() not in used),
                    self._unique(f"Bot {index}", index))
        self.room.seats[index] = Seat(BOT, name, ready=True, level=check_level(level))
        log.info("%s: bot %s (%s) in seat %d", self.label, name, level, index)
        return index

    def start(self, now: float) -> None:
        """Deal the match: seats closed up to 0..n-1, a fresh game id and journal."""
        self.room.compact()
        self.owner = self._default_owner()
        seats = [seat for _, seat in self.room.occupied()]
        self.match_humans = sum(1 for seat in seats if seat.kind == HUMAN)
        game_id = new_game_id()
        match = Match(self.rules, len(seats), secrets.token_bytes(16))
        journal = None
        if self.settings.journal_dir is not None:
            header = Header(
                self.rules,
                tuple(SeatRecord(s.kind, s.name, s.token_hash.hex() if s.token_hash else None,
                                 s.level) for s in seats),
                match.seed, game_id, self._table_record(),
            )
            path = journal_file(self.settings.journal_dir, self.number, game_id)
            journal = Journal.create(path, header, self.journals)
            log.info("%s: journal %s", self.label, path)
        log.info("%s: match starts with %s", self.label, [s.name for s in seats])
        self.game = Game(self.room, match, game_id, self.settings.timings, journal, self.signer,
                         label=self.label)
        self._lobby_changed(now)
        for conn, member in self.room.members.items():
            self.game.send_state(conn, member.seat, now=now)
        self.game.begin(now)

    @classmethod
    def from_journal(cls, number: int, resumed: Resumed, journal: Journal | None,
                     settings: TableSettings, outbox: list[Outgoing], now: float,
                     signer: Signer | None = None, journals: GroupCommit | None = None) -> Table:
        """The table of a resumed journal: every human seat waits for its player's token.
        The last round dealt is rebuilt with its events (its audit too, if it had ended), every
        earlier round with its signed messages, and every round prepared after it and never
        dealt is owed to entrants with its audit: an entrant gets what the host that never
        stopped would have sent it, rounds numbered on (SPEC.md 11.10)."""
        header = resumed.header
        table = cls(number, settings, outbox, signer, journals)
        table.rules = header.rules
        for index, record in enumerate(header.seats):
            if record.kind == BOT:
                table.room.seats[index] = Seat(BOT, record.name, ready=True, level=record.level)
            else:
                recorded = resumed.token_hash(index)
                hashed = bytes.fromhex(recorded) if recorded else None
                table.room.seats[index] = Seat(HUMAN, resumed.seat_name(index), ready=True,
                                               token_hash=hashed, disconnected_at=now,
                                               taken_over=hashed is None)
        table.owner = table._default_owner()
        table.match_humans = sum(1 for record in header.seats if record.kind != BOT)
        trust = round_log = None
        earlier = list(resumed.earlier)
        if resumed.commitments is not None:
            last = RoundLog.replayed(resumed.commitments, resumed.round_events)
            if resumed.abandoned or resumed.revealing is not None:
                earlier.append(ReplayedRound(resumed.commitments, last))  # over and audited
            else:
                trust, round_log = resumed_exchange(resumed.commitments, table.signer), last
        for abandoned in resumed.abandoned:
            earlier.append(ReplayedRound(abandoned, None))
            log.info("%s: round %d was being prepared when the host stopped, before any seed "
                     "was revealed; it is audited as abandoned and the next round number deals",
                     table.label, abandoned.round_no)
        revealing = resumed.revealing
        if revealing is not None:
            trust = revealing_exchange(revealing, table.signer, now,
                                       settings.timings.seed_phase)
            round_log = RoundLog(header.game_id, revealing.round_no)
            log.info("%s: round %d was revealing its seeds when the host stopped; its reveal "
                     "phase goes on, and the round is dealt", table.label, revealing.round_no)
        past = PastRounds.replayed(earlier, table.signer)
        table.game = Game(table.room, resumed.match, header.game_id, settings.timings, journal,
                          table.signer, label=table.label, trust=trust, round_log=round_log,
                          trust_round=resumed.last_trust_round, past=past)
        log.info("%s: resumed from the journal at round %d, scores %s", table.label,
                 resumed.match.round_no, resumed.match.scores)
        table.game.begin(now)
        return table

    def _rules_room(self) -> None:
        """One more player or bot only while the rules seat one more: found in tmux, a No
        Mercy table (six at most) took eight, and its start was refused."""
        most = self.rules.max_players
        if sum(1 for _ in self.room.occupied()) >= most:
            raise Refusal(Code.TABLE_FULL, f"these rules seat at most {most} players")

    def _pick_seat(self, wanted: int | None) -> int:
        if wanted is not None:
            if not 0 <= wanted < len(self.room.seats):
                raise Refusal(Code.BAD_MESSAGE, f"this table has seats 0 to "
                                                f"{len(self.room.seats) - 1}")
            if self.room.seats[wanted] is not None:
                raise Refusal(Code.SEAT_TAKEN, f"seat {wanted} is taken")
            return wanted
        index = self.room.free_seat()
        if index is None or (self._target() is not None and
                             sum(1 for _ in self.room.occupied()) >= (self._target() or 0)):
            raise Refusal(Code.TABLE_FULL, "no free seat")
        return index

    def _unique(self, name: str, seat: int) -> str:
        """`name`, or "name 2", "name 3"... if another seat already has it: every name at the
        table tells one player (a human Ana beside bot Ana made the log ambiguous). The
        player's client sees its new name in table_state and says so."""
        taken = {s.name.casefold() for i, s in self.room.occupied() if i != seat}
        if name.casefold() not in taken:
            return name
        for number in range(2, len(self.room.seats) + 2):
            suffix = f" {number}"
            candidate = name[: MAX_NAME - len(suffix)] + suffix
            if candidate.casefold() not in taken:
                return candidate
        return name  # unreachable: more numbers than seats

    def _target(self) -> int | None:
        return self.settings.target_seats if self.settings.headless else None

    def _needed_seats(self) -> int:
        return self._target() or sum(1 for _ in self.room.occupied())

    def _own_seat(self, member: Member) -> Seat:
        seat = self.room.seats[member.seat] if member.seat is not None else None
        if seat is None:
            raise Refusal(Code.NOT_AT_TABLE, "only a seated player may do this")
        return seat

    def _in_lobby(self) -> None:
        if self.started:
            raise Refusal(Code.GAME_IN_PROGRESS, "only possible in the lobby")

    def _owner_in_lobby(self, member: Member) -> None:
        if member.seat is None or member.seat != self.owner:
            raise Refusal(Code.NOT_OWNER, "only the table's owner may do this")
        self._in_lobby()

    def _free(self, index: int) -> None:
        self.room.seats[index] = None
        if index == self.owner:
            self.owner = self._default_owner()

    def _default_owner(self) -> int | None:
        """Who owns the table when its owner goes: the first human, unless the table is the
        operator's (then nobody at it)."""
        return None if self.settings.operator else self._first_human()

    def _first_human(self) -> int | None:
        return next((i for i, s in self.room.occupied() if s.kind == HUMAN), None)

    def _table_record(self) -> dict[str, Any]:
        s = self.settings
        return {"number": self.number, "name": s.name, "preset": s.preset,
                "headless": s.headless, "target_seats": s.target_seats,
                "capacity": len(self.room.seats), "operator": s.operator,
                "created": s.created, "host": dict(s.host)}

    def _seat_news(self, what: str, index: int, name: str, about: ConnId | None = None,
                   was: str | None = None, bot: bool = False) -> None:
        """Tell everyone at the table what happened to human seat `index` (SPEC.md [UNO-8-17]),
        before the table_state that shows it: the host knows what happened, and a client that
        worked it out from two lobby snapshots read a leave and a newcomer as a rename.
        `about`: the connection of the player concerned, who is not told its own news."""
        news: dict[str, Any] = {"t": "seat_news", "table": self.number, "what": what,
                                "seat": index, "name": name}
        if was is not None:
            news["was"] = was
        if bot:
            news["bot"] = True
        for conn in self.room.members:
            if conn != about:
                self.room.send(conn, news)

    def _lobby_changed(self, now: float) -> None:
        """Every member gets the new table_state; a headless table may start now: once its
        seats are filled and ready, and someone is there (a table of bots alone waits for
        its first watcher, rather than play and journal match after match for nobody)."""
        for conn, member in self.room.members.items():
            self.room.send(conn, self.table_state(member.seat))
        target = self._target()
        if self.game is None and target is not None and self.room.members:
            occupied = [seat for _, seat in self.room.occupied()]
            if len(occupied) >= target and all(
                s.kind == BOT or (s.ready and s.connected) for s in occupied
            ):
                self.start(now)

    def _match_over(self, now: float) -> None:
        """The match just ended: every player's `ready` is cleared, and from now on says
        whether it wants a rematch with the same seats ([UNO-8-11]). The table stays on the
        score screen until everyone has answered (ready, or gone) or `match_break` passes."""
        self.restart_at = now + self.settings.timings.match_break
        for _, seat in self.room.occupied():
            if seat.kind == HUMAN:
                seat.ready = False
        self._lobby_changed(now)

    def _after_the_match(self, now: float) -> None:
        """A player answered after the match (ready, or leave): once nobody is still
        reading the scores the table is back in the lobby at once, and if every player of
        the match asked for a rematch (a bot always does), the rematch starts."""
        game = self.game
        if game is None or not game.over:
            return
        if self.restart_at is None:
            self._match_over(now)
        humans = [seat for _, seat in self.room.occupied() if seat.kind == HUMAN]
        present = [s for s in humans if s.conn is not None and not s.taken_over]
        if any(not s.ready for s in present):
            self._lobby_changed(now)  # who asked so far
            return
        everyone = bool(present) and len(present) == self.match_humans
        self.restart_at = None
        self._back_to_lobby(now)
        if everyone and not self.settings.headless and self.game is None:
            log.info("%s: rematch with the same seats", self.label)
            self.start(now)

    def _back_to_lobby(self, now: float) -> None:
        """After a match: dropped players' seats are freed; `ready` stays as each player
        answered the rematch question. A headless table starts its next match once every
        player there is ready (its bots always are): found in tmux, a dedicated server's
        table dealt a new match 15 s after each end, while the score screen offered "r
        rematch" to a player still reading it."""
        if self.game is not None:
            self.finished.append(self.game.match)
            del self.finished[:-FINISHED_KEPT]
            self.matches_played += 1
        self.game = None
        for index, seat in list(self.room.occupied()):
            if seat.kind == HUMAN and (seat.conn is None or seat.taken_over):
                self._free(index)
                self._seat_news("left", index, seat.name)
        self._lobby_changed(now)

    def table_state(self, you: int | None) -> dict[str, Any]:
        seats = []
        for index, seat in enumerate(self.room.seats):
            if seat is None:
                seats.append({"seat": index, "kind": "empty", "name": None, "ready": False,
                              "connected": False, "taken_over": False})
            else:
                seats.append({"seat": index, "kind": seat.kind, "name": seat.name,
                              "ready": seat.ready, "connected": seat.connected,
                              "taken_over": self._open_in_match(index)})
        state: dict[str, Any] = {
            "t": "table_state", "table": self.number, "name": self.settings.name,
            "owner": self.owner, "rules": self.rules.to_dict(), "seats": seats,
            "spectators": sum(1 for m in self.room.members.values() if m.seat is None),
            "started": self.started, "preset": self.settings.preset,
        }
        if you is not None:
            state["you"] = you
        return state


@dataclass(frozen=True)
class TableRequest:
    """How a table handles one request type: `run` does it (or raises Refusal); `answers`:
    it answers the request itself (the game's accepted or error); `lobby_changes`: everyone
    gets the new table_state after it (a leave sends it itself, a resync changes nothing)."""

    run: Callable[[Table, Member, Mapping[str, Any], float], None]
    answers: bool = False
    lobby_changes: bool = True


TABLE_REQUESTS: dict[str, TableRequest] = {
    "ready": TableRequest(Table._on_ready),
    "set_rules": TableRequest(Table._on_set_rules),
    "add_bot": TableRequest(Table._on_add_bot),
    "remove_bot": TableRequest(Table._on_remove_bot),
    "kick": TableRequest(Table._on_kick),
    "start": TableRequest(Table._on_start),
    "leave": TableRequest(Table._on_leave, lobby_changes=False),
    "resync": TableRequest(Table._on_resync, lobby_changes=False),
    "penalize": TableRequest(Table._on_penalize, answers=True),
}
"""Every request a member sends its table (the registry routes the others), by type."""

