"""A failure stays in its table (issue 13 point 11): a table whose timers or requests raise is
closed, its members get `table_failed`, its journal stays on disk; the other tables play on and
the clock does not spin on the failed table's deadline.

The failure is injected by a table whose `tick` raises once told to: no code path of a real
table raises on purpose, and the registry and server around it are the real ones.
"""

from __future__ import annotations

from pathlib import Path

import trio
from test_host_authority import in_a_match, serve
from test_host_robustness import play_bot

from client import netbot
from host.outgoing import CloseConnection, Outgoing
from host.registry import Registry
from host.settings import FAST_TIMINGS
from host.table import Table, TableSettings
from protocol.connection import ConnectionFailed
from unonet.rules import RuleSet


class FailingTable(Table):
    """A table with a bug that shows once `broken` is set: its clock handler raises."""

    broken = False

    def tick(self, now: float) -> None:
        if self.broken:
            raise RuntimeError("a bug in this table's timers")
        super().tick(now)


def add_table(registry: Registry, cls: type[Table], name: str,
              journal_dir: Path | None = None) -> Table:
    settings = TableSettings(name, RuleSet(target=200), headless=True, target_seats=2,
                             timings=FAST_TIMINGS, journal_dir=journal_dir)
    table = cls(len(registry.tables), settings, registry.outbox, registry.signer)
    registry.add_table(table)
    table.add_bot()
    return table


def test_a_table_whose_timer_raises_is_closed_and_the_other_due_tables_still_tick() -> None:
    registry = Registry(FAST_TIMINGS)
    failing = add_table(registry, FailingTable, "buggy")
    good = add_table(registry, Table, "fine")
    for conn, number in ((1, 0), (2, 1)):
        registry.request(conn, "p", {"t": "join_table", "id": 1, "table": number,
                                     "name": f"p{conn}"}, 0.0)
        registry.request(conn, "p", {"t": "ready", "id": 2, "ready": True}, 0.0)
    assert failing.game is not None and good.game is not None
    registry.take_outgoing()
    assert isinstance(failing, FailingTable)
    failing.broken = True
    deadline = registry.clock_deadline()
    assert deadline is not None
    before = len(good.game.match.log)
    now = deadline + FAST_TIMINGS.seed_phase  # both tables are due
    registry.clock_tick(now)  # raised through before, skipping table 1 after it
    out: list[Outgoing] = registry.take_outgoing()
    assert [(o.conn, o.code) for o in out if isinstance(o, CloseConnection)] == \
        [(1, "table_failed")]
    assert 0 not in registry.tables and 1 not in registry.where
    assert len(good.game.match.log) > before  # its timers ran in the same pass
    for _ in range(10_000):  # the clock goes quiet at `now`: nothing of table 0 stays due
        later = registry.clock_deadline()
        if later is None or later > now:
            break
        registry.clock_tick(now)
    else:
        raise AssertionError("the clock spins: a deadline stays due however often it ticks")
    assert all(number == 1 for number in registry.where.values())


async def test_a_failed_table_tells_its_players_keeps_its_journal_and_the_others_play_on(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    registry = Registry(FAST_TIMINGS)
    failing = add_table(registry, FailingTable, "buggy", tmp_path)
    add_table(registry, Table, "fine")
    listener = await serve(nursery, registry)
    ana = await in_a_match(listener)
    assert failing.game is not None and failing.game.journal is not None
    journal = failing.game.journal.path
    assert isinstance(failing, FailingTable)
    failing.broken = True
    await ana.until_true(lambda: ana.closed)  # ana does not play: the table waits on timers
    failed = [e.error for e in ana.events if isinstance(e, ConnectionFailed)]
    assert [str(e.code) for e in failed] == ["table_failed"]
    assert "journal" in failed[0].message
    assert journal.exists() and journal.read_text().startswith('{"kind":"header"')
    assert 0 not in registry.tables
    results: list[netbot.BotResult] = []
    with trio.fail_after(60):  # the other table plays a whole match after the failure
        await play_bot(listener, 1, results)
    assert len(results[0].matches) == 1 and results[0].violations == []
