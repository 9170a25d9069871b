"""benchmarks/host_logic.py plays real tables sans-IO as benchmarks/host.py's light players
do over sockets: its figures are of intents the tables took, rounds that were dealt, and time
the host's parts spent."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks import host_logic


def test_the_sans_io_tables_play_rounds_and_every_part_is_timed() -> None:
    run = host_logic.Run(tables=2, seed=1)
    for member in run.members.values():
        member.player.stats.counting = True  # answers and refusals counted by the players
    run.play(400)
    assert run.actions >= 400
    assert run.seed_commits >= 2 * host_logic.SEATS  # a round dealt at each table
    assert all(run.spent[part] > 0 for part in ("reading", "intents", "seed messages", "frames"))
    answered = sum(member.player.stats.accepted for member in run.members.values())
    assert answered >= 390  # the last intents' answers may be still unread
    assert sum(member.player.stats.refused for member in run.members.values()) == 0


def test_its_arguments_are_checked() -> None:
    with pytest.raises(SystemExit):
        host_logic.main(["--repeats", "0"])
    with pytest.raises(SystemExit):
        host_logic.main(["--journal-dir", "/nonexistent/unonet-bench"])


def test_a_journalled_run_journals_every_action_and_times_its_commits(tmp_path: Path) -> None:
    """With a journal folder, every table journals its actions there, and their group commits
    are made once a pass and timed, as a part of their own."""
    run = host_logic.Run(tables=2, seed=1, journal_dir=tmp_path)
    for member in run.members.values():
        member.player.stats.counting = True
    run.play(200)
    run.commit()  # the last pass's lines wait in memory for it
    journals = sorted(tmp_path.glob("*.jsonl"))
    assert len(journals) == 2
    lines = [json.loads(line) for journal in journals
             for line in journal.read_text().splitlines()]
    seats_actions = sum(1 for line in lines if line["kind"] == "action" and line["seat"] >= 0)
    accepted = sum(member.player.stats.accepted for member in run.members.values())
    assert seats_actions >= accepted >= 190  # every intent taken is on disk
    assert run.registry.journals.commits > 0
    assert run.spent["journal commit"] > 0 and run.commit_cpu > 0


def test_the_journal_comparison_prints_both_runs_and_their_ratio(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    assert host_logic.main(["--repeats", "1", "--actions", "100", "--tables", "1",
                            "--journal-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "-- no journal --" in out and "-- journal --" in out
    assert "journal / no journal" in out and "actions per commit" in out
    assert not list(tmp_path.iterdir())  # each run's folder is removed after it
