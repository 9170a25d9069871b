"""The journal: written per action, replayed to the same Match state, torn last line ignored."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

import pytest

from host.journal import (
    FINISHED_DIR,
    Header,
    Journal,
    JournalError,
    SeatRecord,
    TrustRecord,
    load,
)
from protocol.trust.host import HostCommitments
from protocol.trust.primitives import new_game_id, new_seed, seed_commitment
from unonet.actions import HOST, Action, StartRound
from unonet.bots import NormalBot
from unonet.match import BETWEEN_ROUNDS, MATCH_OVER, Match
from unonet.rules import RuleSet


def _play_some(path: Path, actions: int, rules: RuleSet | None = None,
               table: dict[str, Any] | None = None) -> Match:
    """A journaled match between bots; rounds keyed by the trust scheme with one player seed;
    `table` is the header's table record (table 0, "t", if not given)."""
    rules = rules or RuleSet(target=50)
    seats = (SeatRecord("human", "ana", hashlib.sha256(b"t").hexdigest()),
             SeatRecord("bot", "bo", level="normal"), SeatRecord("bot", "cy", level="normal"))
    header = Header(rules, seats, b"seed", new_game_id(),
                    table if table is not None else {"number": 0, "name": "t"})
    journal = Journal.create(path, header)
    match = Match(rules, 3, header.seed)
    bots = [NormalBot(s, rules, match.manifest, seed=s) for s in range(3)]
    seat: int
    action: Action
    for _ in range(actions):
        if match.phase == MATCH_OVER:
            break
        if match.phase == BETWEEN_ROUNDS:
            commitments = HostCommitments(header.game_id, match.round_no + 1)
            player_seed = new_seed()
            commitments.accept_commit(0, seed_commitment(header.game_id, commitments.round_no, 0,
                                                        player_seed))
            commitments.freeze_commits()
            assert commitments.accept_reveal(0, player_seed)
            journal.write_trust(TrustRecord.of(commitments))
            seat, action = HOST, StartRound(commitments.key)
        else:
            pending = match.pending_seat
            assert pending is not None, "a round in play waits on a seat"
            seat = pending
            action = bots[seat].act(match.view(seat), match.legal_actions(seat))
        match.apply(seat, action)
        journal.write_action(seat, action)
    journal.close()
    return match


@pytest.mark.parametrize("rules", [RuleSet(target=50), RuleSet(variant="flip", target=50)],
                         ids=["classic", "flip"])
def test_a_resumed_journal_continues_the_same_match(tmp_path: Path, rules: RuleSet) -> None:
    """UNO Flip too: each round's pairing comes from its key, which the journal keeps."""
    path = tmp_path / "game.jsonl"
    played = _play_some(path, 150, rules)
    resumed = load(path)
    assert resumed.match.state() == played.state()
    assert resumed.match.log == played.log
    if played.round is not None and played.phase != MATCH_OVER:
        assert resumed.commitments is not None
        for card, position in enumerate(played.round.origin):
            assert resumed.commitments.card_at(position) == card
        assert resumed.commitments.key == played.round.key
        assert resumed.match.round is not None
        assert resumed.match.round.manifest == played.round.manifest


def test_a_torn_last_line_is_ignored_and_cut_before_appending(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    played = _play_some(path, 40)
    whole = path.read_bytes()
    path.write_bytes(whole + b'{"kind":"action","seat":1,"act')
    resumed = load(path)
    assert resumed.match.state() == played.state()
    assert resumed.valid_bytes == len(whole)
    journal = Journal.open_append(path, resumed.valid_bytes)
    journal.close()
    assert path.read_bytes() == whole


def test_damage_before_the_last_line_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    _play_some(path, 10)
    lines = path.read_bytes().split(b"\n")
    lines[2] = b"garbage"
    path.write_bytes(b"\n".join(lines))
    with pytest.raises(JournalError):
        load(path)


def test_a_finished_match_s_journal_moves_among_the_finished_and_only_the_newest_are_kept(
        tmp_path: Path) -> None:
    """A host that runs for weeks does not grow its disk by a file per match forever: a
    match's journal is moved to journals/finished/ when it ends, and that folder keeps the
    newest FINISHED_KEPT (here 3); the journal stays resumable where it went."""
    moved = []
    for number in range(5):
        path = tmp_path / f"table0-{number}.jsonl"
        _play_some(path, 0)  # a header only: what is kept does not depend on the match
        journal = Journal.open_append(path, path.stat().st_size)
        os.utime(path, ns=(number * 10**9, number * 10**9))
        moved.append(journal.finish(kept=3, slack=0))
    finished = tmp_path / FINISHED_DIR
    assert moved[-1] == str(finished / "table0-4.jsonl")
    assert sorted(p.name for p in finished.iterdir()) == [
        "table0-2.jsonl", "table0-3.jsonl", "table0-4.jsonl"]
    assert not list(tmp_path.glob("*.jsonl"))
    assert load(moved[-1]).header.rules == RuleSet(target=50)


def test_the_finished_are_pruned_once_they_are_more_than_the_kept_and_the_slack(
        tmp_path: Path) -> None:
    """Pruning reads every finished journal's time, so it waits until `slack` more than the
    `kept` have piled up, then keeps the newest `kept`."""
    finished = tmp_path / FINISHED_DIR
    counts = []
    for number in range(8):
        path = tmp_path / f"table0-{number}.jsonl"
        _play_some(path, 0)
        journal = Journal.open_append(path, path.stat().st_size)
        os.utime(path, ns=(number * 10**9, number * 10**9))
        journal.finish(kept=3, slack=2)
        counts.append(len(list(finished.iterdir())))
    assert counts == [1, 2, 3, 4, 5, 3, 4, 5]  # pruned at the sixth: 3 + 2 exceeded
    assert sorted(p.name for p in finished.iterdir()) == [
        f"table0-{number}.jsonl" for number in range(3, 8)]


def test_a_journal_that_cannot_be_moved_stays_where_it_is(tmp_path: Path) -> None:
    path = tmp_path / "table0-x.jsonl"
    _play_some(path, 0)
    (tmp_path / FINISHED_DIR).write_text("a file where the folder would be")
    journal = Journal.open_append(path, path.stat().st_size)
    assert journal.finish() == str(path)
    assert path.is_file()



def _two_bots() -> Header:
    """The header of a match between two bots (journals whose plays do not matter)."""
    seats = (SeatRecord("bot", "bo", level="normal"), SeatRecord("bot", "cy", level="normal"))
    return Header(RuleSet(), seats, b"seed", new_game_id(), {"number": 0, "name": "t"})


def test_a_journal_is_made_written_and_finished_without_interning_its_name(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each match's journal has a fresh name. pathlib interns every part of a path it parses,
    and a host that ran for weeks churned the interpreter's table of interned strings with
    them (benchmarks/soak.py: a step of half a MiB as the table resized). The journal keeps
    its path as a string from creation to its move among the finished ones."""
    import pathlib
    import sys

    interned: list[str] = []

    class CountingSys:
        def __getattr__(self, name: str) -> object:
            return getattr(sys, name)

        @staticmethod
        def intern(text: str) -> str:
            interned.append(text)
            return sys.intern(text)

    folder = str(tmp_path / "journals")
    header = _two_bots()
    monkeypatch.setattr(pathlib, "sys", CountingSys())
    journal = Journal.create(os.path.join(folder, "table0-1a2b3c4d5e6f.jsonl"), header)
    journal.write_action(HOST, StartRound())
    moved = journal.finish()
    monkeypatch.undo()
    assert interned == []
    assert moved == os.path.join(folder, FINISHED_DIR, "table0-1a2b3c4d5e6f.jsonl")
    assert load(moved).header.seats == header.seats


def test_a_journal_named_without_a_folder_is_made_in_the_working_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    header = _two_bots()
    Journal.create("table0-x.jsonl", header).close()
    assert load(tmp_path / "table0-x.jsonl").header.seats == header.seats
