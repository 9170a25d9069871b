"""Group commit (host/group_commit.py): the journals a pass of the event loop wrote are made
durable together, and nothing they record is sent before.

The syncs here are the real ones (os.fsync, syncfs where libc has it), wrapped to record what
each made durable: the wrappers observe, they stand in for nothing.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import socket
import stat
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest
import trio
import trio.testing

from client import netbot
from host.group_commit import SYNCFS, GroupCommit, sync_taken
from host.journal import Header, Journal, SeatRecord
from host.outgoing import CloseConnection
from host.registry import Registry
from host.server import HostServer, ServerConfig
from host.settings import BENCHMARK_LIMITS, FAST_TIMINGS, TableTimings
from host.table import TableSettings
from protocol.frames import FrameDecoder, encode_frame
from protocol.trust.primitives import new_game_id
from unonet.actions import Draw
from unonet.rules import RuleSet


class Disk:
    """The real syncs, recording how much of each file each one made durable."""

    def __init__(self, folder: Path, fail: Callable[[int], bool] = lambda fd: False) -> None:
        self.folder = folder
        """Where the journals are: what a syncfs makes durable."""
        self.durable: dict[str, int] = {}  # file name -> bytes on disk
        self.fsyncs = 0
        self.syncfs_calls = 0
        self._fail = fail

    def fsync(self, fd: int) -> None:
        self.fsyncs += 1
        if self._fail(fd):
            raise OSError(errno.EIO, "injected: the disk refused this file")
        size = os.fstat(fd).st_size  # before: what is written meanwhile may not be on disk
        os.fsync(fd)
        self.durable[os.readlink(f"/proc/self/fd/{fd}")] = size

    def syncfs(self, fd: int) -> None:
        """Every journal in the folder is on disk as it was before the call."""
        self.syncfs_calls += 1
        if self._fail(fd):
            raise OSError(errno.EIO, "injected: the disk refused")
        sizes = {str(path): path.stat().st_size for path in self.folder.glob("**/*.jsonl")}
        (SYNCFS or os.fsync)(fd)
        if SYNCFS is None:  # no syncfs here: sync every journal, as syncfs would have
            for name in sizes:
                with open(name, "rb") as file:
                    os.fsync(file.fileno())
        self.durable.update(sizes)

    def refused_syncfs(self, fd: int) -> None:
        self.syncfs_calls += 1
        raise OSError(errno.EIO, "injected: the file system reported an error")


def pending(group: GroupCommit) -> bool:
    """`group.pending` read afresh: mypy would keep it narrowed across the calls that change it."""
    return group.pending


def deferred(group: GroupCommit) -> bool:
    """`group.deferred` read afresh (as `pending`)."""
    return group.deferred


def deferred_group(disk: Disk) -> GroupCommit:
    """A group on `disk` whose journals leave their syncs to its commit, as a served host's."""
    group = GroupCommit(fsync=disk.fsync, syncfs=disk.syncfs)
    group.deferred = True
    return group


def header() -> Header:
    return Header(RuleSet(), (SeatRecord("bot", "a", level="easy"),
                              SeatRecord("bot", "b", level="easy")),
                  b"seed", new_game_id(), {"number": 0, "name": "t"})


def test_one_journal_is_fsynced_and_several_on_one_disk_share_one_syncfs(
    tmp_path: Path,
) -> None:
    disk = Disk(tmp_path)
    group = deferred_group(disk)
    journals = [Journal.create(tmp_path / f"t{n}.jsonl", header(), group) for n in range(3)]
    assert group.pending and disk.fsyncs == 0 and disk.syncfs_calls == 0  # waiting: unsynced
    assert group.commit() == []
    assert (disk.fsyncs, disk.syncfs_calls) == (0, 1)
    assert not pending(group)
    for journal in journals:
        assert disk.durable[str(journal.path)] == journal.path.stat().st_size > 0
    journals[1].write_action(0, Draw())
    assert group.commit() == []
    assert (disk.fsyncs, disk.syncfs_calls) == (1, 1)
    assert group.commit() == [] and group.commits == 2  # nothing written: nothing synced


def test_a_failed_syncfs_finds_the_journals_that_failed_one_by_one(tmp_path: Path) -> None:
    bad = tmp_path / "t1.jsonl"
    disk = Disk(tmp_path, fail=lambda fd: os.readlink(f"/proc/self/fd/{fd}") == str(bad))
    group = GroupCommit(fsync=disk.fsync, syncfs=disk.refused_syncfs)
    group.deferred = True
    journals = [Journal.create(tmp_path / f"t{n}.jsonl", header(), group) for n in range(3)]
    failed = group.commit()
    assert disk.syncfs_calls == 1 and disk.fsyncs == 3
    assert [journal for journal, _ in failed] == [journals[1]]
    error = failed[0][1]
    assert isinstance(error, OSError) and error.errno == errno.EIO
    assert str(journals[0].path) in disk.durable and str(journals[2].path) in disk.durable
    assert str(bad) not in disk.durable
    assert not group.pending  # its table is the caller's to close


class BrokenJournal:
    """A journal whose file is gone from under it (a bug: closed without leaving its group)."""

    device = -1
    synced_calls = 0

    def fileno(self) -> int:
        raise ValueError("I/O operation on closed file")

    def write_waiting(self) -> None:
        """Nothing waits to be written: the sync is what fails."""

    def synced(self) -> None:
        self.synced_calls += 1


def test_a_journal_that_cannot_even_be_synced_fails_closed_and_the_others_are_synced(
    tmp_path: Path,
) -> None:
    disk = Disk(tmp_path)
    group = GroupCommit(fsync=disk.fsync, syncfs=None)  # each journal synced alone
    group.deferred = True
    good = Journal.create(tmp_path / "t.jsonl", header(), group)
    broken = BrokenJournal()
    group.written(broken)
    failed = group.commit()
    assert [(journal, type(error)) for journal, error in failed] == [(broken, ValueError)]
    assert broken.synced_calls == 0
    assert disk.durable[str(good.path)] == good.path.stat().st_size > 0


def test_a_deferred_journal_writes_its_lines_of_a_pass_at_the_commit_in_one_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    disk = Disk(tmp_path)
    group = deferred_group(disk)
    journal = Journal.create(tmp_path / "t.jsonl", header(), group)
    for _ in range(3):
        journal.write_action(0, Draw())
    assert journal.path.stat().st_size == 0  # nobody has seen them: they wait in memory
    writes: list[int] = []
    real_write = os.write

    def counted(fd: int, data: Any) -> int:
        writes.append(fd)
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", counted)
    assert group.commit() == []
    assert writes == [journal.fileno()]
    lines = [json.loads(line) for line in journal.path.read_text().splitlines()]
    assert [line["kind"] for line in lines] == ["header", "action", "action", "action"]
    assert disk.durable[str(journal.path)] == journal.path.stat().st_size


def test_a_journal_whose_write_fails_at_the_commit_is_reported_and_the_others_are_synced(
    tmp_path: Path,
) -> None:
    disk = Disk(tmp_path)
    group = deferred_group(disk)
    good = Journal.create(tmp_path / "t.jsonl", header(), group)
    full = Journal(tmp_path / "full.jsonl", os.open("/dev/full", os.O_WRONLY), group)
    full.write_action(0, Draw())  # waits: the disk is not asked yet
    failed = group.commit()
    assert [(journal, getattr(error, "errno", None)) for journal, error in failed] \
        == [(full, errno.ENOSPC)]
    assert disk.durable[str(good.path)] == good.path.stat().st_size > 0
    with contextlib.suppress(OSError):  # as its failed table's removal closes it
        full.close()


def test_a_deferred_journal_syncs_its_last_lines_when_it_closes(tmp_path: Path) -> None:
    disk = Disk(tmp_path)
    group = deferred_group(disk)
    journal = Journal.create(tmp_path / "t.jsonl", header(), group)
    assert group.pending and disk.fsyncs == 0
    journal.close()  # a finished match's journal: on disk before it moves, whatever the group
    assert not pending(group) and disk.fsyncs == 1
    assert disk.durable[str(journal.path)] == journal.path.stat().st_size
    assert json.loads((tmp_path / "t.jsonl").read_text().splitlines()[0])["kind"] == "header"
    journal.close()  # again (a failed table's journal is closed twice): nothing more to sync
    assert disk.fsyncs == 1


def test_without_a_deferring_server_every_line_is_fsynced_as_it_is_written(
    tmp_path: Path,
) -> None:
    disk = Disk(tmp_path)
    group = GroupCommit(fsync=disk.fsync, syncfs=disk.syncfs)
    journal = Journal.create(tmp_path / "t.jsonl", header(), group)
    assert disk.fsyncs == 1 and not group.pending  # at once, not through the group's commit
    journal.write_action(0, Draw())
    assert disk.fsyncs == 2
    assert disk.durable[str(journal.path)] == journal.path.stat().st_size
    journal.close()
    assert disk.fsyncs == 2  # nothing left to sync


async def test_a_stopping_server_commits_what_is_left_and_stops_deferring(
    tmp_path: Path,
) -> None:
    disk = Disk(tmp_path)
    registry = Registry()
    registry.journals = GroupCommit(fsync=disk.fsync, syncfs=disk.syncfs)
    journal = Journal.create(tmp_path / "t.jsonl", header(), registry.journals)
    server = HostServer(registry, ServerConfig(bind="127.0.0.1", port=0))
    async with trio.open_nursery() as nursery:
        await nursery.start(server.serve)
        assert registry.journals.deferred
        journal.write_token(0, None)  # written while serving, its commit not yet made
        assert registry.journals.pending
        nursery.cancel_scope.cancel()
    assert not deferred(registry.journals) and not pending(registry.journals)
    lines = [json.loads(line) for line in journal.path.read_text().splitlines()]
    assert [line["kind"] for line in lines] == ["header", "token"]  # written, not just waiting
    assert disk.durable[str(journal.path)] == journal.path.stat().st_size


TIMINGS = TableTimings(grace=30.0, challenge_decision=20.0, seed_phase=10.0, bot_delay=0.5,
                       round_break=1.0, ready_wait=5.0, match_break=10_000.0)


def serve_tables(registry: Registry, tmp_path: Path, count: int) -> None:
    for number in range(count):
        table = registry.create_table(TableSettings(
            f"t{number}", RuleSet(target=10_000, max_rounds=1), headless=True, target_seats=4,
            timings=TIMINGS, journal_dir=tmp_path))
        for _ in range(3):
            table.add_bot("normal")


async def play_tables(
    nursery: trio.Nursery, registry: Registry, count: int,
    observe: Callable[[int], Callable[[object], None]] | None = None,
) -> dict[int, netbot.BotResult]:
    """Serve `registry` on loopback and seat one network player at each of its first `count`
    tables, answering at once and checking every card; their results once all have left."""
    server = HostServer(registry, ServerConfig(bind="127.0.0.1", port=0))
    listener = (await nursery.start(server.serve))[0]
    results: dict[int, netbot.BotResult] = {}

    async def player(table: int) -> None:
        stream = await trio.testing.open_stream_to_socket_listener(listener)
        result = results[table] = netbot.BotResult()
        await netbot.play(stream, name=f"p{table}", table=table, think=0.0, result=result,
                          observe=None if observe is None else observe(table))

    with trio.fail_after(100_000):
        async with trio.open_nursery() as players:
            for table in range(count):
                players.start_soon(player, table)
    return results


async def test_no_player_sees_a_move_before_its_journal_line_is_on_disk(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Whenever the host writes to a client's socket, every line of every journal is on disk
    (the group commit holds every write while one is not): none waits in memory for its
    commit, and the files are synced as far as they go. Checked at the write itself: a
    player's own task reads later than that, after the commit has run in any case."""
    disk = Disk(tmp_path)
    registry = Registry(TIMINGS)
    registry.journals = GroupCommit(fsync=disk.fsync, syncfs=disk.syncfs)
    serve_tables(registry, tmp_path, 2)
    checked = 0
    write = os.write

    def checked_write(fd: int, data: bytes) -> int:
        nonlocal checked
        if stat.S_ISSOCK(os.fstat(fd).st_mode):  # the host's write to a client (plain TCP)
            # No line waits in memory for a commit (the journals write them at the commit)...
            assert not registry.journals.pending
            # ... and every line in the files is on disk.
            for path in tmp_path.glob("*.jsonl"):  # open journals (finished/ holds the rest)
                assert disk.durable.get(str(path)) == path.stat().st_size, path
            checked += 1
        return write(fd, data)

    monkeypatch.setattr(os, "write", checked_write)
    results = list((await play_tables(nursery, registry, 2)).values())
    assert [len(result.matches) for result in results] == [1, 1]
    assert all(result.intents > 0 and not result.violations for result in results)
    assert checked > 50
    assert disk.syncfs_calls + disk.fsyncs >= 2 * 4  # at least the headers and a move each


async def test_the_tables_whose_moves_come_in_one_pass_share_one_commit(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock, tmp_path: Path,
) -> None:
    """Four tables, each of three bots and a player who answers at once, dealt at one
    instant: the bots act half a virtual second after their turn comes, so the tables' bots
    move at the same instants, and the clock's pass that moves them commits once for all."""
    if SYNCFS is None:
        pytest.skip("no syncfs in this libc: each journal is fsync'd on its own")
    disk = Disk(tmp_path)
    registry = Registry(TIMINGS)
    registry.journals = GroupCommit(fsync=disk.fsync, syncfs=disk.syncfs)
    serve_tables(registry, tmp_path, 4)
    results = await play_tables(nursery, registry, 4)
    assert [len(result.matches) for result in results.values()] == [1] * 4
    lines = sum(len(path.read_text().splitlines()) for path in tmp_path.glob("**/*.jsonl"))
    assert lines > 4 * 20
    # Journals written in one pass share a syncfs (34-84 of them in 15 runs of this test), and
    # the disk is flushed less often than lines are written (0.4-0.7 times per line in those
    # runs; an fsync per line is once per line).
    assert disk.syncfs_calls >= 10
    assert disk.fsyncs + disk.syncfs_calls < lines


async def test_a_table_whose_journal_cannot_be_synced_closes_and_the_others_play_on(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock, tmp_path: Path,
) -> None:
    """The disk refuses table 0's journal once its player has made two moves: the move whose
    line failed is never answered, the table closes with table_failed, and table 1 plays on."""
    registry = Registry(TIMINGS)
    failing = {"moves": 0}

    def refuse(fd: int) -> bool:
        name = os.readlink(f"/proc/self/fd/{fd}")
        if "table0-" not in name:
            return False
        last = json.loads(Path(name).read_text().splitlines()[-1])
        if last.get("kind") == "action" and last.get("seat") == seat_of_player.get(0):
            failing["moves"] += 1
            return failing["moves"] >= 3
        return False

    disk = Disk(tmp_path, fail=refuse)
    registry.journals = GroupCommit(fsync=disk.fsync, syncfs=None)  # one fsync per journal
    serve_tables(registry, tmp_path, 2)
    seat_of_player: dict[int, int] = {}

    def seat_seen(table: int) -> Callable[[object], None]:
        def observe(events: object) -> None:
            if table == 0 and 0 in registry.tables and registry.tables[0].game is not None:
                seat_of_player.setdefault(0, next(
                    m.seat for m in registry.tables[0].room.members.values()
                    if m.seat is not None))
        return observe

    results = await play_tables(nursery, registry, 2, observe=seat_seen)
    assert 0 not in registry.tables and 1 in registry.tables
    assert (results[0].closed or "").startswith("table_failed")
    assert results[0].intents == 3 and len(results[0].latencies) == 2  # the third: no answer
    assert len(results[1].matches) == 1


# -- what waits for a commit keeps its order, reaches a client that closes, and is dropped ---
# -- with its table ------------------------------------------------------------------------


class JournalingRequests:
    """Every `list_tables` the registry answers also journals a line (as a request that moves
    a seat does), so its answer waits for a commit; `next_frame` is written from the client's
    socket while the host handles it, so that the host reads it in a later read of the same
    pass of its event loop, before the commit."""

    def __init__(self, registry: Registry, journal: Journal) -> None:
        self.next_frame: Callable[[], object] | None = None
        answer = registry.request

        def request(conn: int, name: str | None, message: Mapping[str, Any], now: float,
                    address: str | None = None) -> None:
            answer(conn, name, message, now, address)
            if message.get("t") == "list_tables":
                journal.write_token(0, None)
                if self.next_frame is not None:
                    self.next_frame()

        registry.request = request  # type: ignore[method-assign]  # wrapped on this instance only


async def hello(listener: trio.SocketListener) -> tuple[trio.SocketStream, FrameDecoder]:
    stream = await trio.testing.open_stream_to_socket_listener(listener)
    decoder = FrameDecoder()
    await stream.send_all(encode_frame({"t": "hello", "v": [1], "features": [], "name": "a",
                                        "client": {"name": "test", "version": "1"}}))
    assert (await next_frame(stream, decoder))["t"] == "welcome"
    return stream, decoder


async def next_frame(stream: trio.SocketStream, decoder: FrameDecoder) -> dict[str, Any]:
    while not isinstance(frame := decoder.next_frame(), dict):
        data = await stream.receive_some(65536)
        if not data:
            raise EOFError
        decoder.receive_data(data)
    return frame


async def served(nursery: trio.Nursery, tmp_path: Path
                 ) -> tuple[trio.SocketListener, JournalingRequests]:
    registry = Registry()
    group = registry.journals
    journal = Journal.create(tmp_path / "t.jsonl", header(), group)
    requests = JournalingRequests(registry, journal)
    server = HostServer(registry, ServerConfig(bind="127.0.0.1", port=0,
                                               limits=BENCHMARK_LIMITS))
    return (await nursery.start(server.serve))[0], requests


async def test_a_reply_to_a_later_read_never_overtakes_an_answer_held_for_the_commit(
    nursery: trio.Nursery, tmp_path: Path,
) -> None:
    """SPEC [UNO-7-5]: answers in the order the requests came. A ping read while the answer
    to the request before it waits for the journals must get its pong after that answer (the
    host reads it before or after the commit, as trio orders the pass: about half and half)."""
    listener, requests = await served(nursery, tmp_path)
    stream, decoder = await hello(listener)
    fd = stream.socket.fileno()
    for number in range(1, 41):
        requests.next_frame = lambda n=number: os.write(fd, encode_frame({"t": "ping", "n": n}))
        await stream.send_all(encode_frame({"t": "list_tables", "id": number}))
        order: list[str] = []
        while len(order) < 3:
            frame = await next_frame(stream, decoder)
            if frame["t"] in ("accepted", "tables", "pong"):
                order.append(frame["t"])
        assert order == ["accepted", "tables", "pong"], (number, order)


@pytest.mark.parametrize("close", ["bye", "eof"])
async def test_a_request_whose_answer_waits_for_the_commit_is_answered_before_the_close(
    nursery: trio.Nursery, tmp_path: Path, close: str,
) -> None:
    """A client that sends a request and then bye (or shuts its side) at once still gets the
    answer: the connection sends what the commit held before it closes."""
    listener, requests = await served(nursery, tmp_path)
    for _ in range(10):
        stream, decoder = await hello(listener)
        sock = stream.socket
        if close == "bye":
            requests.next_frame = lambda sock=sock: os.write(
                sock.fileno(), encode_frame({"t": "bye", "reason": "done"}))
        else:
            requests.next_frame = lambda sock=sock: sock.shutdown(socket.SHUT_WR)
        await stream.send_all(encode_frame({"t": "list_tables", "id": 1}))
        got = []
        with trio.fail_after(10):
            try:
                while True:
                    got.append((await next_frame(stream, decoder))["t"])
            except EOFError:
                pass
        assert got[:2] == ["accepted", "tables"], got
        await stream.aclose()


def test_a_failed_journal_silences_what_its_table_sent_since_the_commit_even_to_one_who_left(
    tmp_path: Path,
) -> None:
    """A player who leaves in the pass whose commit fails got its `accepted` from a table
    whose journal may lack the leave: it never goes out, and that player is told the table
    failed, as those still seated are."""
    registry = Registry(FAST_TIMINGS)
    table = registry.create_table(TableSettings("t", RuleSet(), headless=True, target_seats=3,
                                                timings=FAST_TIMINGS, journal_dir=tmp_path))
    table.add_bot()
    for conn in (1, 2):
        registry.request(conn, "p", {"t": "join_table", "id": 1, "table": 0, "name": f"p{conn}"},
                         0.0)
        registry.request(conn, "p", {"t": "ready", "id": 2, "ready": True}, 0.0)
    assert table.game is not None and table.game.journal is not None
    registry.take_outgoing()
    registry.journals.deferred = True  # as a serving HostServer sets it
    registry.request(1, "p", {"t": "leave", "id": 3}, 1.0)  # its token given up: a line
    assert registry.journals.pending

    def refused(fd: int) -> None:
        raise OSError(errno.EIO, "injected: the disk refused")

    registry.journals = GroupCommit(fsync=refused, syncfs=None)
    registry.journals.deferred = True
    registry.journals.written(table.game.journal)
    registry.commit_journals()
    assert 0 not in registry.tables
    closes = {item.conn: item.code for item in registry.outbox
              if isinstance(item, CloseConnection)}
    assert closes == {1: "table_failed", 2: "table_failed"}
    assert all(isinstance(item, CloseConnection) for item in registry.outbox)  # no accepted
    assert registry.take_silenced() == {1, 2}


# -- --journal-sync MS: every line to the operating system at once, to the disk on an interval --


def interval_group(disk: Disk, interval: float = 0.5) -> GroupCommit:
    """A served host's group under `unonet host --journal-sync`."""
    group = GroupCommit(fsync=disk.fsync, syncfs=disk.syncfs, interval=interval)
    group.deferred = True
    return group


def test_on_an_interval_each_line_is_written_at_once_and_nothing_waits_for_a_commit(
    tmp_path: Path,
) -> None:
    disk = Disk(tmp_path)
    group = interval_group(disk)
    journal = Journal.create(tmp_path / "t.jsonl", header(), group)
    size = journal.path.stat().st_size
    assert size > 0 and journal.waiting == 0
    journal.write_action(0, Draw())
    assert journal.path.stat().st_size > size and journal.waiting == 0
    assert not group.pending and not group.holding  # so no connection holds its writes
    assert group.unsynced == 1 and disk.fsyncs == disk.syncfs_calls == 0


def test_an_interval_sync_makes_every_line_written_before_it_durable_through_duplicates(
    tmp_path: Path,
) -> None:
    disk = Disk(tmp_path)
    group = interval_group(disk)
    journals = [Journal.create(tmp_path / f"t{n}.jsonl", header(), group) for n in range(3)]
    sizes = [journal.path.stat().st_size for journal in journals]
    taken = group.take_dirty()
    assert [journal for journal, _ in taken] == journals and group.unsynced == 0
    assert all(duplicate != journal.fileno() for journal, duplicate in taken)
    journals[0].write_action(0, Draw())  # after the take: the next sync's
    assert group.unsynced == 1
    journals[2].close()  # closing meanwhile closes its own descriptor, not the duplicate
    errors = sync_taken(taken, disk.fsync, disk.syncfs)
    assert errors == {}
    for journal, size in zip(journals, sizes, strict=True):
        assert disk.durable[str(journal.path)] >= size
    assert not any(descriptor_is_open(duplicate) for _, duplicate in taken)
    assert descriptor_is_open(journals[0].fileno())  # the journal's own stays open
    assert group.syncs == 1
    following = group.take_dirty()
    assert [journal for journal, _ in following] == [journals[0]]
    sync_taken(following, disk.fsync, disk.syncfs)


def test_a_journal_closing_between_interval_syncs_leaves_its_last_lines_to_the_next(
    tmp_path: Path,
) -> None:
    """A match ends on an interval: its journal closes without a sync in the event loop (no
    answer waits for the disk then either), and the next interval sync makes its last lines
    durable through a duplicate of its descriptor, which it closes."""
    disk = Disk(tmp_path)
    group = interval_group(disk)
    journal = Journal.create(tmp_path / "t.jsonl", header(), group)
    for _, duplicate in group.take_dirty():
        os.close(duplicate)
    journal.write_action(0, Draw())
    journal.close()
    assert disk.fsyncs == 0 and group.unsynced == 1
    taken = group.take_dirty()
    assert [closed for closed, _ in taken] == [journal]
    assert sync_taken(taken, disk.fsync, disk.syncfs) == {}
    assert disk.durable[str(journal.path)] == journal.path.stat().st_size
    assert not descriptor_is_open(taken[0][1]) and group.unsynced == 0


def test_a_stopping_host_syncs_the_journals_closed_since_its_last_interval(
    tmp_path: Path,
) -> None:
    disk = Disk(tmp_path)
    group = interval_group(disk)
    journal = Journal.create(tmp_path / "t.jsonl", header(), group)
    journal.close()
    assert disk.fsyncs == 0 and group.unsynced == 1
    group.deferred = False  # as the server's last commit finds it
    assert group.commit() == []
    assert disk.durable[str(journal.path)] == journal.path.stat().st_size
    assert group.unsynced == 0


def test_an_interval_sync_that_fails_names_the_journal_the_disk_refused(tmp_path: Path) -> None:
    bad = tmp_path / "t1.jsonl"
    disk = Disk(tmp_path, fail=lambda fd: os.readlink(f"/proc/self/fd/{fd}") == str(bad))
    group = GroupCommit(fsync=disk.fsync, syncfs=disk.refused_syncfs, interval=0.5)
    group.deferred = True
    journals = [Journal.create(tmp_path / f"t{n}.jsonl", header(), group) for n in range(3)]
    taken = group.take_dirty()
    errors = sync_taken(taken, disk.fsync, disk.refused_syncfs)
    assert list(errors) == [1] and taken[1][0] is journals[1]
    assert isinstance(errors[1], OSError) and errors[1].errno == errno.EIO
    assert not any(descriptor_is_open(duplicate) for _, duplicate in taken)  # failed or not


def descriptor_is_open(fd: int) -> bool:
    try:
        os.fstat(fd)
    except OSError:
        return False
    return True


async def test_a_stopping_server_syncs_what_its_interval_had_not_yet(tmp_path: Path) -> None:
    disk = Disk(tmp_path)
    registry = Registry()
    registry.journals = GroupCommit(fsync=disk.fsync, syncfs=disk.syncfs, interval=60.0)
    journal = Journal.create(tmp_path / "t.jsonl", header(), registry.journals)
    server = HostServer(registry, ServerConfig(bind="127.0.0.1", port=0))
    async with trio.open_nursery() as nursery:
        await nursery.start(server.serve)
        journal.write_token(0, None)
        assert registry.journals.unsynced == 1 and not registry.journals.pending
        nursery.cancel_scope.cancel()
    assert not registry.journals.deferred and registry.journals.unsynced == 0
    assert disk.durable[str(journal.path)] == journal.path.stat().st_size


class Threads:
    """Which threads the disk's syncs ran in: the event loop's, or a worker's."""

    def __init__(self, disk: Disk) -> None:
        self.loop = threading.get_ident()
        self.in_loop = 0
        self.in_workers = 0
        self.disk = disk

    def _count(self) -> None:
        if threading.get_ident() == self.loop:
            self.in_loop += 1
        else:
            self.in_workers += 1

    def fsync(self, fd: int) -> None:
        self._count()
        self.disk.fsync(fd)

    def syncfs(self, fd: int) -> None:
        self._count()
        self.disk.syncfs(fd)


async def test_on_an_interval_players_see_moves_the_system_has_and_the_disk_gets_them_later(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`--journal-sync`: whenever the host writes to a client's socket, no journal line waits
    in memory (each is in its file, which a crash of the host cannot undo), and the files are
    synced by a worker thread every interval while play goes on, not before each answer."""
    disk = Disk(tmp_path)
    threads = Threads(disk)
    registry = Registry(TIMINGS)
    registry.journals = GroupCommit(fsync=threads.fsync, syncfs=threads.syncfs, interval=0.25)
    serve_tables(registry, tmp_path, 2)
    checked = 0
    unsynced_seen = 0
    write = os.write

    def checked_write(fd: int, data: bytes) -> int:
        nonlocal checked, unsynced_seen
        if stat.S_ISSOCK(os.fstat(fd).st_mode):
            for table in registry.tables.values():
                if table.game is not None and table.game.journal is not None:
                    assert table.game.journal.waiting == 0
            unsynced_seen += any(disk.durable.get(str(path)) != path.stat().st_size
                                 for path in tmp_path.glob("*.jsonl"))
            checked += 1
        return write(fd, data)

    monkeypatch.setattr(os, "write", checked_write)
    started = trio.current_time()
    results = list((await play_tables(nursery, registry, 2)).values())
    elapsed = trio.current_time() - started
    assert [len(result.matches) for result in results] == [1, 1]
    assert all(result.intents > 0 and not result.violations for result in results)
    assert checked > 50 and unsynced_seen > 0  # answers went out ahead of the disk's sync
    # One sync per interval with anything written, in a worker thread: about one per
    # interval of the match, and none in the loop: a match's end leaves its journal's last
    # lines to the next sync too.
    assert registry.journals.syncs >= 2 and threads.in_workers >= registry.journals.syncs
    assert registry.journals.syncs <= elapsed / 0.25 + 1
    assert threads.in_loop == 0


async def test_on_an_interval_a_journal_the_disk_refuses_closes_its_table_and_others_play_on(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock, tmp_path: Path,
) -> None:
    """The disk refuses table 0's journal at an interval sync once its match is under way:
    its players have seen moves the journal may lack, so the table closes (table_failed, its
    journal kept for --resume), and table 1 plays its match out. Only the worker thread's
    sync is refused: a sync in the loop (a journal's own, as it closes where it cannot leave
    its lines to the next sync) would close the table another way."""
    def refuse(fd: int) -> bool:
        name = os.readlink(f"/proc/self/fd/{fd}")
        return (threading.current_thread() is not threading.main_thread()
                and "table0-" in name and '"kind":"action"' in Path(name).read_text())

    disk = Disk(tmp_path, fail=refuse)
    registry = Registry(TIMINGS)
    registry.journals = GroupCommit(fsync=disk.fsync, syncfs=None, interval=0.25)
    serve_tables(registry, tmp_path, 2)
    results = await play_tables(nursery, registry, 2)
    assert 0 not in registry.tables and 1 in registry.tables
    assert (results[0].closed or "").startswith("table_failed")
    assert results[0].matches == [] and len(results[1].matches) == 1
    assert list(tmp_path.glob("table0-*.jsonl"))  # kept where --resume finds it
