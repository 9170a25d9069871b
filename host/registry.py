"""Every table of one host, and which connection sits at which: the server's one door in.

Requests that name no table (list_tables, create_table, join_table, spectate, a resume token)
are answered here; everything else goes to the sender's table. All tables append to one
outbox, which the server drains after each call.

Every call into a table goes through `_run`: a table that raises is closed (its members get
`table_failed`, its journal stays on disk for `--resume`) and the others play on. Tables that
clients create are removed once nobody sits or watches there and no match is left to play;
the host's own tables (run.py, the command line) stay.
"""

from __future__ import annotations

import heapq
import logging
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from host.group_commit import GroupCommit
from host.outgoing import CloseConnection, ConnId, Outgoing, SendMessage, accepted, refused
from host.round_log import RoundLog
from host.seating import token_hash
from host.settings import TableTimings
from host.table import Table, TableSettings
from host.table_limits import MAX_LIVE_TABLES, TABLES_PER_ADDRESS
from protocol.errors import Code
from protocol.limits import MAX_TABLES
from protocol.text import TextRefused, normal_name
from protocol.trust.signing import Signer
from unonet.actions import Action
from unonet.errors import EngineError
from unonet.rules import OPTIONS, preset

log = logging.getLogger("unonet.host.registry")

DEFAULT_PLAYER_NAME = "player"


@dataclass(frozen=True)
class ResumeRefused:
    """Why `hello.resume` gets no seat: the fatal error the connection answers with."""

    code: str  # invalid_resume (no such seat) or seat_in_use (its connection is alive)
    msg: str


class Registry:
    def __init__(self, timings: TableTimings | None = None, signer: Signer | None = None) -> None:
        self.timings = timings or TableTimings()
        self.signer = signer or Signer.generate()
        """The host's identity key (host/tls.py), signing every table's trust messages; a
        fresh key if none is given (a host with no key file, tests)."""
        self.tables: dict[int, Table] = {}
        self.outbox: list[Outgoing] = []
        self.unsettled: list[RoundLog] = []
        """Every table's round logs with events not yet in their digest (`settle_digests`)."""
        self.journals = GroupCommit()
        """Every table's journal, committed together by the server before it sends what the
        outbox holds (host/group_commit.py)."""
        self.journal_dir: Path | None = None
        """Where the tables clients open from the lobby journal their matches: the host's
        own folder (host/run.py sets it), so that a crash or a stop loses none of theirs
        either; None, they keep none (tests that build a registry alone)."""
        self.host_record: Mapping[str, Any] = {}
        """How the host listens and plays (host/run.py host_record), for the journals of the
        tables clients open: any of them can be the first one `--resume` reads."""
        self.failed: dict[int, Path] = {}
        """The journals of tables that failed in mid-match (kept on disk), by table number:
        `--resume` carries them on beside the live tables' (host/run.py ServedHost.journals).
        The newest MAX_LIVE_TABLES only: a host whose tables keep failing has a bug to fix,
        and must not grow for it."""
        self._recipients: dict[int, set[ConnId]] = {}
        """While the server holds what it sends for a commit: per table, the connections it
        sent anything since the last commit (its members then, and any who left since)."""
        self._silenced: set[ConnId] = set()
        """Connections whose unsent frames the server must discard (`take_silenced`)."""
        self.where: dict[ConnId, int] = {}
        self.stop_reason = "stopped"
        """How the host goes away when it stops (SPEC.md [UNO-8-4]): "stopped" (Ctrl-C, a
        signal) unless the host's own player left its table ("host_left", host/run.py)."""
        self.alive: Callable[[ConnId], bool] = lambda conn: False
        """Whether a connection is alive and answering (the server sets it: a frame received
        lately and not closing); the default, False, means "unknown, treat as gone"."""
        self._created_by: dict[int, str | None] = {}
        """The tables clients created, with the creating address (None if unknown): these
        are removed once abandoned, and count against TABLES_PER_ADDRESS."""
        self._next_number = 0
        # The clock's view (`clock_deadline`, `clock_tick`): each table's deadline as last
        # computed, a heap of them (stale entries skipped), and the tables touched since.
        self._deadlines: dict[int, float] = {}
        self._heap: list[tuple[float, int]] = []
        self._touched: set[int] = set()

    def take_outgoing(self) -> list[Outgoing]:
        out, self.outbox[:] = list(self.outbox), []
        if not self.journals.pending:
            self._recipients.clear()  # sent, or sent at once: nothing held to take back
        return out

    def settle_digests(self) -> None:
        """Hash what the tables sent into their rounds' digests (RoundLog.settle): the server
        calls this once the frames of a routing pass are written, so no answer waits for it."""
        for round_log in self.unsettled:
            round_log.settle()
        self.unsettled.clear()

    def take_silenced(self) -> set[ConnId]:
        """Connections that got moves of a table that failed before they were sent (its
        journal, or the table itself, failed while the server held them for a commit): the
        server discards their unsent frames; they get `table_failed` instead."""
        silenced, self._silenced = self._silenced, set()
        return silenced

    def create_table(self, settings: TableSettings) -> Table:
        table = Table(self._next_number, settings, self.outbox, self.signer, self.journals)
        self.add_table(table)
        return table

    def add_table(self, table: Table) -> None:
        self.tables[table.number] = table
        table.room.unsettled = self.unsettled
        if table.settings.created:  # removed once abandoned (its creator: unknown, if resumed)
            self._created_by.setdefault(table.number, None)
        self._touched.add(table.number)
        self._next_number = max(self._next_number, table.number + 1)
        changed = table.rules.differences()  # "rules {}" read as no rules at all
        log.info("table %d (%s) open, rules %s", table.number, table.settings.name,
                 changed or "official (no option changed)")

    # -- connections ---------------------------------------------------------------------------

    def find_resume(self, token: bytes, now: float) -> tuple[Table, int] | ResumeRefused:
        """The seat `hello.resume` names, if the token may take it now: never while the
        seat's connection is alive (`seat_in_use`; its player is told), so a copied token
        cannot take a seat from a player who is there. Then call `resume`."""
        hashed = token_hash(token)
        for table in list(self.tables.values()):
            seat = table.seat_of_token(hashed)
            if seat is None:
                continue
            holder = table.room.seats[seat]
            if holder is not None and holder.conn is not None and self.alive(holder.conn):
                self._run(table, partial(table.resume_refused, seat, now))
                return ResumeRefused(Code.SEAT_IN_USE,
                                     "this seat's player is connected and answering; a token "
                                     "takes a seat back only once its connection is gone")
            return table, seat
        return ResumeRefused(Code.INVALID_RESUME, "this token names no seat")

    def resume(self, conn: ConnId, table: Table, seat: int, now: float) -> None:
        """Seat `conn` where `find_resume` said; it gets `seated` with a new token."""
        old = next((c for c, n in self.where.items() if n == table.number
                    and table.room.members.get(c) is not None
                    and table.room.members[c].seat == seat), None)
        if old is not None:
            self.where.pop(old, None)
        self.where[conn] = table.number
        self._run(table, lambda: table.resume(conn, seat, now))

    def match_kept(self, conn: ConnId) -> bool:
        """Whether `conn`'s table has a match on that its journal keeps: a stopped host can
        carry it on (`--resume`), and the seat's token then takes the seat back."""
        table = self._table_of(conn)
        game = table.game if table is not None else None
        return game is not None and not game.over and game.journal is not None

    def disconnect(self, conn: ConnId, now: float, quit_: bool = False) -> None:
        """The connection is gone; `quit_`: its client said bye, quit (Table.disconnect)."""
        number = self.where.pop(conn, None)
        table = None if number is None else self.tables.get(number)
        if table is not None:
            self._run(table, lambda: table.disconnect(conn, now, quit_))

    # -- messages ------------------------------------------------------------------------------

    def request(self, conn: ConnId, name: str | None, message: Mapping[str, Any],
                now: float, address: str | None = None) -> None:
        """A request from `conn` (whose hello said `name`); `address` is the address it
        counts under (host.admission.address_key), for the tables-per-address limit."""
        kind = message["t"]
        request = message.get("id")
        if kind == "list_tables":
            live = sorted(self.tables)[-MAX_TABLES:]  # the newest, were there more
            summaries = [self.tables[number].summary() for number in live]
            self.outbox.extend(accepted(conn, request))
            self.outbox.append(SendMessage(conn, {"t": "tables", "tables": summaries}))
            return
        if kind in ("create_table", "join_table", "spectate"):
            staying = kind == "join_table" and self.where.get(conn) == message.get("table")
            if conn in self.where and not staying:  # a join at one's own table moves the seat
                self.outbox.append(refused(conn, request, Code.UNEXPECTED_MESSAGE,
                                           "leave your table first"))
                return
            if kind == "create_table":
                self._create(conn, name, message, now, address)
                return
            table = self.tables.get(int(message["table"]))
            if table is None:
                self.outbox.append(refused(conn, request, Code.UNKNOWN_TABLE,
                                           f"table {message['table']} is not on this host "
                                           "(it may have closed)"))
                return
            if kind == "join_table":
                self._run(table, partial(table.join, conn, str(message["name"]),
                                         message.get("seat"), request, now))
            else:
                self._run(table, partial(table.spectate, conn, name or DEFAULT_PLAYER_NAME,
                                         request, now))
            if table.number in self.tables and conn in table.room.members:
                self.where[conn] = table.number
            return
        table = self._table_of(conn)
        if table is None:
            self.outbox.append(refused(conn, request, Code.NOT_AT_TABLE, "not at a table"))
            return
        if kind == "leave":
            self.where.pop(conn, None)
        self._run(table, lambda: table.request(conn, message, now))

    def intent(self, conn: ConnId, request: int, action: Action, now: float) -> None:
        table = self._table_of(conn)
        if table is None:
            self.outbox.append(refused(conn, request, Code.NOT_AT_TABLE, "not at a table"))
            return
        self._run(table, lambda: table.intent(conn, request, action, now))

    def message(self, conn: ConnId, message: Mapping[str, Any], now: float) -> None:
        """chat, seed_commit, seed_reveal (pong and errors never reach here)."""
        table = self._table_of(conn)
        if table is None:
            self.outbox.append(refused(conn, None, Code.NOT_AT_TABLE, "not at a table"))
            return
        self._run(table, lambda: table.message(conn, message, now))

    # -- time ----------------------------------------------------------------------------------

    def next_deadline(self) -> float | None:
        found = [d for t in list(self.tables.values()) if (d := self._deadline_of(t)) is not None]
        return min(found) if found else None

    def tick(self, now: float) -> None:
        for table in list(self.tables.values()):
            deadline = self._deadline_of(table)
            if deadline is not None and now >= deadline:
                self._run(table, partial(table.tick, now))

    def touch_all(self) -> None:
        """Make the clock look at every table again (tables changed outside this class)."""
        self._touched.update(self.tables)

    def clock_deadline(self) -> float | None:
        """`next_deadline()` for the server's clock, recomputing only the tables touched
        since it last looked (through this class's entry points or `clock_tick`)."""
        self._look()
        heap = self._heap
        while heap and self._deadlines.get(heap[0][1]) != heap[0][0]:
            heapq.heappop(heap)  # stale: that table's deadline moved or went
        return heap[0][0] if heap else None

    def clock_tick(self, now: float) -> None:
        """`tick(now)` for the server's clock: only the tables whose deadline is due."""
        self._look()
        heap = self._heap
        due: list[int] = []
        while heap and heap[0][0] <= now:
            deadline, number = heapq.heappop(heap)
            if self._deadlines.get(number) == deadline:
                del self._deadlines[number]
                due.append(number)
        self._touched.update(due)  # looked at again next time
        for number in sorted(due):  # table order, as `tick` goes
            table = self.tables.get(number)
            if table is not None:
                self._run(table, partial(table.tick, now))

    def _look(self) -> None:
        touched, self._touched = self._touched, set()
        for number in touched:
            table = self.tables.get(number)
            deadline = None if table is None else self._deadline_of(table)
            if deadline is None:
                self._deadlines.pop(number, None)
            elif self._deadlines.get(number) != deadline:
                self._deadlines[number] = deadline
                heapq.heappush(self._heap, (deadline, number))

    # -- one table's failure, one table's end ------------------------------------------------

    def _run(self, table: Table, call: Callable[[], object]) -> None:
        """Call into one table. If it raises, what it had queued is dropped and the table is
        closed; the caller and every other table go on."""
        mark = len(self.outbox)
        try:
            call()
        except Exception:
            del self.outbox[mark:]
            self._fail(table)
            return
        if self.journals.holding and len(self.outbox) > mark:
            self._recipients.setdefault(table.number, set()).update(
                item.conn for item in self.outbox[mark:])
        self._touched.add(table.number)
        if table.number in self._created_by and table.abandoned:
            self._remove(table, "abandoned")

    def _deadline_of(self, table: Table) -> float | None:
        try:
            return table.next_deadline()
        except Exception:
            self._fail(table)
            return None

    def commit_journals(self) -> None:
        """Put every journal line written since the last commit on disk: the server calls this
        before it sends what it holds. A table whose journal cannot be synced is closed, as
        one whose write fails is, and nothing it sent since the last commit goes out (`_fail`):
        nobody may see a move its journal may lack."""
        self.journals_failed(self.journals.commit())

    def journals_failed(self, failed: Iterable[tuple[object, BaseException]]) -> None:
        """Close the table of each journal the disk refused (a commit's, or an interval
        sync's: then its players have seen moves its journal may lack, and its table closes
        all the same, the journal kept for `--resume`)."""
        for journal, error in failed:
            table = next((t for t in self.tables.values()
                          if t.game is not None and t.game.journal is journal), None)
            if table is not None:
                self._fail(table, error)
            else:  # closed before its last interval sync: its match over, or its table gone
                log.error("the journal %s, closed, could not be synced: %s",
                          getattr(journal, "path", journal), error)

    def _fail(self, table: Table, error: BaseException | None = None) -> None:
        """Close a table that raised (or whose journal `error` failed): its members get
        `table_failed`, its journal is closed (kept on disk: `unonet host --resume` carries
        the match on), and it is gone. What it sent since the last commit, which the server
        still holds, is dropped, and whoever it went to (a member who left since too) gets
        `table_failed` instead."""
        log.error("table %d (%s) failed and is closed; its members are told", table.number,
                  table.settings.name, exc_info=error if error is not None else True)
        told = list(table.room.members)
        held = self._recipients.pop(table.number, set())
        if held:  # what it sent since the last commit is still held: it never goes out
            told += sorted(held.difference(told))
            silenced = set(told)
            self.outbox[:] = [item for item in self.outbox if item.conn not in silenced]
            self._silenced |= silenced
        for conn in told:
            self.outbox.append(CloseConnection(
                conn, Code.TABLE_FAILED,
                f"table {table.number} failed on the host and was closed"
                + ("; its journal is kept" if table.game and table.game.journal else "")))
        game = table.game
        if game is not None and game.journal is not None and not game.over:
            self.failed[table.number] = game.journal.path
            while len(self.failed) > MAX_LIVE_TABLES:
                del self.failed[min(self.failed)]
        self._remove(table, "failed")

    def _remove(self, table: Table, why: str) -> None:
        number = table.number
        if self.tables.get(number) is not table:
            return
        del self.tables[number]
        self._created_by.pop(number, None)
        self._deadlines.pop(number, None)
        for conn in [c for c, n in self.where.items() if n == number]:
            del self.where[conn]
        journal = table.game.journal if table.game is not None else None
        if journal is not None:
            try:
                journal.close()
            except OSError:
                log.warning("table %d: its journal %s did not close", number, journal.path)
        log.info("table %d (%s) removed: %s", number, table.settings.name, why)

    # -- helpers -----------------------------------------------------------------------------

    def _table_of(self, conn: ConnId) -> Table | None:
        number = self.where.get(conn)
        return None if number is None else self.tables.get(number)

    def _create(self, conn: ConnId, name: str | None, message: Mapping[str, Any],
                now: float, address: str | None) -> None:
        request = message.get("id")
        if len(self.tables) >= MAX_LIVE_TABLES:
            self.outbox.append(refused(conn, request, Code.TABLE_LIMIT,
                                       f"this host has {MAX_LIVE_TABLES} tables open, its most"))
            return
        if address is not None and sum(
                1 for a in self._created_by.values() if a == address) >= TABLES_PER_ADDRESS:
            self.outbox.append(refused(conn, request, Code.TABLE_LIMIT,
                                       f"your address has {TABLES_PER_ADDRESS} tables open, "
                                       "its most"))
            return
        options = dict(message.get("options") or {})
        preset_name = str(message.get("preset") or "official")
        unknown = sorted(set(options) - set(OPTIONS))
        try:
            if unknown:
                raise ValueError(f"{unknown[0]}: unknown option")
            rules = preset(preset_name, **options)
            rules.check_playable()
        except EngineError as exc:
            self.outbox.append(refused(conn, request, exc.code.value, exc.message))
            return
        except (TypeError, ValueError) as exc:
            self.outbox.append(refused(conn, request, "invalid_rules", str(exc)))
            return
        number = self._next_number
        try:
            table_name = normal_name(str(message.get("name") or f"table {number}"))
            normal_name(name or DEFAULT_PLAYER_NAME)  # refused before a table is made for it
        except TextRefused as exc:
            self.outbox.append(refused(conn, request, exc.code, exc.msg))
            return
        table = self.create_table(TableSettings(table_name, rules, preset_name,
                                                timings=self.timings,
                                                journal_dir=self.journal_dir,
                                                host=self.host_record, created=True))
        self._created_by[table.number] = address
        self._run(table, lambda: table.join(conn, name or DEFAULT_PLAYER_NAME, 0, request, now))
        if table.number in self.tables and conn in table.room.members:
            self.where[conn] = table.number

