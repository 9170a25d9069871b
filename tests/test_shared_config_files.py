"""Two unonet processes of one user share the config dir (a host in one terminal, a join in
another): what each keeps there survives the other's writes (client/shared_file.py).

Found in CI: the host's own player and a friend were told of the match start at the same moment
and kept their seat tokens together; the friend's write, made from the file as it was before the
host's, dropped the host's token, so the host's player, after `--resume`, was refused its seat.
"""

from __future__ import annotations

import stat
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from client.known_hosts import KnownHosts
from client.seat_tokens import KeptSeat, SeatTokens
from client.shared_file import locked, replace_text
from client.transcript import SAME_PLACE_COPIES, TranscriptWriter, read_transcript

GAME = bytes(range(16))
OTHER_WRITE_WAIT = 1.0
"""Seconds a read waits for the other process's write to end. With the lock the other write
cannot end before this one (the wait runs out, the test goes on); without it, it ends at once."""


def seat(table: int, token_byte: int) -> KeptSeat:
    return KeptSeat("127.0.0.1:7777", "-", table, 1, bytes([token_byte]) * 32, 1e9)


def write_between_read_and_write(
    monkeypatch: pytest.MonkeyPatch, cls: type[SeatTokens] | type[KnownHosts],
    other_write: Callable[[], None],
) -> list[threading.Thread]:
    """Make `cls.entries`, the first time it is called, run `other_write` (another process's
    update of the same file, in a thread) and wait for it: the moment a lost update needs.
    Returns the list the thread goes in, to be joined at the end."""
    original = cls.entries
    started: list[threading.Thread] = []

    def entries(self: Any) -> Any:
        read = original(self)
        if not started:
            other = threading.Thread(target=other_write)
            started.append(other)
            other.start()
            other.join(OTHER_WRITE_WAIT)
        return read

    monkeypatch.setattr(cls, "entries", entries)
    return started


def test_two_clients_keeping_seats_at_once_keep_both(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "seat_tokens"
    host_player, friend = SeatTokens(path), SeatTokens(path)
    threads = write_between_read_and_write(monkeypatch, SeatTokens,
                                           lambda: friend.keep(seat(1, 0xBB)))
    host_player.keep(seat(0, 0xAA))
    for thread in threads:
        thread.join()
    assert {(kept.table, kept.token[0]) for kept in SeatTokens(path).entries()} == {
        (0, 0xAA), (1, 0xBB)}
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_a_seat_dropped_while_another_is_kept_drops_only_that_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "seat_tokens"
    tokens = SeatTokens(path)
    tokens.keep(seat(0, 0xAA))
    tokens.keep(seat(1, 0xBB))
    threads = write_between_read_and_write(monkeypatch, SeatTokens,
                                           lambda: SeatTokens(path).keep(seat(2, 0xCC)))
    assert tokens.drop("127.0.0.1:7777", 0)
    for thread in threads:
        thread.join()
    assert {kept.table for kept in SeatTokens(path).entries()} == {1, 2}


def test_two_clients_meeting_new_hosts_at_once_remember_both(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "known_hosts"
    threads = write_between_read_and_write(
        monkeypatch, KnownHosts, lambda: KnownHosts(path).remember("b.example", 7777, b"b" * 32))
    KnownHosts(path).remember("a.example", 7777, b"a" * 32)
    for thread in threads:
        thread.join()
    assert KnownHosts(path).entries() == {"a.example:7777": b"a" * 32,
                                          "b.example:7777": b"b" * 32}


def test_a_rewrite_is_whole_and_owner_only(tmp_path: Path) -> None:
    path = tmp_path / "deeper" / "file"
    with locked(path):
        replace_text(path, "one\n")
        replace_text(path, "two\n")
    assert path.read_text() == "two\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert sorted(p.name for p in path.parent.iterdir()) == ["file", "file.lock"]


def transcript(tmp_path: Path, seat_number: int | None,
               problems: list[str] | None = None) -> TranscriptWriter:
    writer = TranscriptWriter(tmp_path, "127.0.0.1:7777",
                              on_problem=None if problems is None else problems.append)
    writer.connected(None)
    writer.record({"t": "welcome", "session": {"seat": seat_number}})
    writer.record({"t": "manifest", "game_id": GAME, "seats": 3})
    return writer


def test_each_client_at_a_match_writes_its_own_transcript(tmp_path: Path) -> None:
    """Two clients of one config dir at one match: one file each, named by seat, held while
    written; a second one watching (or at the same seat) gets the next name; a client that
    ended frees its file for its next run."""
    first, second = transcript(tmp_path, 0), transcript(tmp_path, 1)
    watching, watching_too = transcript(tmp_path, None), transcript(tmp_path, None)
    names = [w.path.name if w.path else None for w in (first, second, watching, watching_too)]
    assert names == [f"{GAME.hex()}-seat0.msgpack", f"{GAME.hex()}-seat1.msgpack",
                     f"{GAME.hex()}-watching.msgpack", f"{GAME.hex()}-watching-2.msgpack"]
    for writer in (first, second, watching, watching_too):
        assert writer.path is not None
        assert [record["t"] for record in read_transcript(writer.path)] == ["transcript",
                                                                            "manifest"]
    first.close()
    again = transcript(tmp_path, 0)
    assert again.path is not None and again.path.name == f"{GAME.hex()}-seat0.msgpack"
    assert [record["t"] for record in read_transcript(again.path)] == [
        "transcript", "manifest", "transcript", "manifest"]


def test_more_clients_at_one_seat_than_files_record_nothing_and_say_so(tmp_path: Path) -> None:
    writers = [transcript(tmp_path, 2) for _ in range(SAME_PLACE_COPIES)]
    assert len({w.path for w in writers}) == SAME_PLACE_COPIES
    problems: list[str] = []
    extra = transcript(tmp_path, 2, problems)
    assert extra.path is None and len(problems) == 1
    assert "other unonet clients are recording this match" in problems[0]
