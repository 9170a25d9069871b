"""benchmarks/journal_sync.py prints what it measured: the three ways, and their ratios."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks import journal_sync
from host.group_commit import SYNCFS


@pytest.mark.skipif(SYNCFS is None, reason="no syncfs in this libc")
def test_it_prints_each_way_and_the_ratios_and_leaves_nothing_behind(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    assert journal_sync.main(["--dir", str(tmp_path), "--files", "3", "--repeats", "2",
                              "--rounds", "2"]) == 0
    out = capsys.readouterr().out
    for label in ("one file: a line, its fsync", "3 files: a line each, fsync each",
                  "3 files: a line each, one syncfs", "fsync each / syncfs",
                  "syncfs of 3 / fsync of one"):
        assert label in out
    assert list(tmp_path.iterdir()) == []  # its journals went with their folder


def test_it_refuses_fewer_than_two_files(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        journal_sync.main(["--files", "1"])
    assert stop.value.code == 2
    assert "--files must be at least 2" in capsys.readouterr().err
