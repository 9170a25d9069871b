"""Every table of one host, and which connection sits at which: the server's one door in.

Requests that name no table (list_tables, create_table, join_table, spectate, a resume token)
are answered here; everything else goes to the sender's table. All tables append to one
outbox, which the server drains after each call.
"""

from __future__ import annotations

import heapq
import logging
from collections.abc import Mapping
from typing import Any

from host.outgoing import ConnId, Outgoing, SendMessage, accepted, refused
from host.seating import token_hash
from host.settings import TableTimings
from host.table import Table, TableSettings
from protocol.errors import Code
from protocol.limits import MAX_TABLES
from protocol.trust.signing import Signer
from unonet.actions import Action
from unonet.errors import EngineError
from unonet.rules import OPTIONS, preset

log = logging.getLogger("unonet.host.registry")

DEFAULT_PLAYER_NAME = "player"


class Registry:
    def __init__(self, timings: TableTimings | None = None, signer: Signer | None = None) -> None:
        self.timings = timings or TableTimings()
        self.signer = signer or Signer.generate()
        """The host's identity key (host/tls.py), signing every table's trust messages; a
        fresh key if none is given (a host with no key file, tests)."""
        self.tables: dict[int, Table] = {}
        self.outbox: list[Outgoing] = []
        self.where: dict[ConnId, int] = {}
        self._next_number = 0
        # The clock's view (`clock_deadline`, `clock_tick`): each table's deadline as last
        # computed, a heap of them (stale entries skipped), and the tables touched since.
        self._deadlines: dict[int, float] = {}
        self._heap: list[tuple[float, int]] = []
        self._touched: set[int] = set()

    def take_outgoing(self) -> list[Outgoing]:
        out, self.outbox[:] = list(self.outbox), []
        return out

    def create_table(self, settings: TableSettings) -> Table:
        table = Table(self._next_number, settings, self.outbox, self.signer)
        self.add_table(table)
        return table

    def add_table(self, table: Table) -> None:
        self.tables[table.number] = table
        self._touched.add(table.number)
        self._next_number = max(self._next_number, table.number + 1)
        log.info("table %d (%s) open, rules %s", table.number, table.settings.name,
                 table.rules.differences())

    # -- connections ---------------------------------------------------------------------------

    def find_resume(self, token: bytes) -> tuple[Table, int] | None:
        hashed = token_hash(token)
        for table in self.tables.values():
            seat = table.seat_of_token(hashed)
            if seat is not None:
                return table, seat
        return None

    def resume(self, conn: ConnId, table: Table, seat: int, now: float) -> None:
        old = next((c for c, n in self.where.items() if n == table.number
                    and table.room.members.get(c) is not None
                    and table.room.members[c].seat == seat), None)
        if old is not None:
            self.where.pop(old, None)
        self.where[conn] = table.number
        self._touched.add(table.number)
        table.resume(conn, seat, now)

    def disconnect(self, conn: ConnId, now: float) -> None:
        number = self.where.pop(conn, None)
        if number is not None and number in self.tables:
            self._touched.add(number)
            self.tables[number].disconnect(conn, now)

    # -- messages ------------------------------------------------------------------------------

    def request(self, conn: ConnId, name: str | None, message: Mapping[str, Any],
                now: float) -> None:
        kind = message["t"]
        request = message.get("id")
        if kind == "list_tables":
            summaries = [t.summary() for t in self.tables.values()][:MAX_TABLES]
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
                self._create(conn, name, message, now)
                return
            table = self.tables.get(int(message["table"]))
            if table is None:
                self.outbox.append(refused(conn, request, Code.UNKNOWN_TABLE,
                                           f"no table {message['table']}"))
                return
            self._touched.add(table.number)
            if kind == "join_table":
                table.join(conn, str(message["name"]), message.get("seat"), request, now)
            else:
                table.spectate(conn, name or DEFAULT_PLAYER_NAME, request, now)
            if conn in table.room.members:
                self.where[conn] = table.number
            return
        table = self._table_of(conn)
        if table is None:
            self.outbox.append(refused(conn, request, Code.NOT_AT_TABLE, "not at a table"))
            return
        self._touched.add(table.number)
        table.request(conn, message, now)
        if kind == "leave":
            self.where.pop(conn, None)

    def intent(self, conn: ConnId, request: int, action: Action, now: float) -> None:
        table = self._table_of(conn)
        if table is None:
            self.outbox.append(refused(conn, request, Code.NOT_AT_TABLE, "not at a table"))
            return
        self._touched.add(table.number)
        table.intent(conn, request, action, now)

    def message(self, conn: ConnId, message: Mapping[str, Any], now: float) -> None:
        """chat, seed_commit, seed_reveal (pong and errors never reach here)."""
        table = self._table_of(conn)
        if table is None:
            self.outbox.append(refused(conn, None, Code.NOT_AT_TABLE, "not at a table"))
            return
        self._touched.add(table.number)
        table.message(conn, message, now)

    # -- time ----------------------------------------------------------------------------------

    def next_deadline(self) -> float | None:
        found = [d for t in self.tables.values() if (d := t.next_deadline()) is not None]
        return min(found) if found else None

    def tick(self, now: float) -> None:
        for table in list(self.tables.values()):
            deadline = table.next_deadline()
            if deadline is not None and now >= deadline:
                table.tick(now)

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
        self._touched.update(due)  # looked at again next time, even if a tick fails
        for number in sorted(due):  # table order, as `tick` goes
            table = self.tables.get(number)
            if table is not None:
                table.tick(now)

    def _look(self) -> None:
        for number in self._touched:
            table = self.tables.get(number)
            deadline = None if table is None else table.next_deadline()
            if deadline is None:
                self._deadlines.pop(number, None)
            elif self._deadlines.get(number) != deadline:
                self._deadlines[number] = deadline
                heapq.heappush(self._heap, (deadline, number))
        self._touched.clear()

    # -- helpers -----------------------------------------------------------------------------

    def _table_of(self, conn: ConnId) -> Table | None:
        number = self.where.get(conn)
        return None if number is None else self.tables.get(number)

    def _create(self, conn: ConnId, name: str | None, message: Mapping[str, Any],
                now: float) -> None:
        request = message.get("id")
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
        table_name = str(message.get("name") or f"table {number}")
        table = self.create_table(TableSettings(table_name, rules, preset_name,
                                                timings=self.timings))
        table.join(conn, name or DEFAULT_PLAYER_NAME, 0, request, now)
        self.where[conn] = table.number

