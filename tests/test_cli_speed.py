"""`unonet play --speed` and `unonet bot --think` (issue 12, point 15): they parse, a bad value
is one line and exit 2, and --speed slows the log down by its delay per action."""

from __future__ import annotations

import time

import pytest

from unonet.cli import build_parser, main


def test_speed_and_think_parse_and_bad_values_are_one_line(
    capsys: pytest.CaptureFixture[str]
) -> None:
    parser = build_parser()
    assert parser.parse_args(["play", "--speed", "0.5"]).speed == 0.5
    assert parser.parse_args(["play"]).speed is None
    assert parser.parse_args(["bot", "h:1", "--think", "0"]).think == 0.0
    assert parser.parse_args(["bot", "h:1"]).think is None  # netbot.DEFAULT_THINK
    for argv in (["play", "--speed", "fast"], ["play", "--speed", "-1"],
                 ["bot", "h:1", "--think", "nan"]):
        with pytest.raises(SystemExit) as exit_info:
            parser.parse_args(argv)
        assert exit_info.value.code == 2
        error = capsys.readouterr().err.strip().splitlines()[-1]
        assert "seconds" in error


def test_help_names_both(capsys: pytest.CaptureFixture[str]) -> None:
    for argv, option in ((["play", "--help"], "--speed SECONDS"),
                         (["bot", "--help"], "--think SECONDS")):
        with pytest.raises(SystemExit):
            build_parser().parse_args(argv)
        assert option in capsys.readouterr().out


def logged(capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[list[str], float]:
    start = time.monotonic()
    assert main(["play", "--log", "--bots", "2", "--seed", "00", "--set", "max_rounds=1",
                 *extra]) == 0
    return capsys.readouterr().out.splitlines(), time.monotonic() - start


def test_speed_waits_after_each_action(capsys: pytest.CaptureFixture[str]) -> None:
    fast, _ = logged(capsys)
    slow, took = logged(capsys, "--speed", "0.02")
    assert slow == fast  # the same match, only slower (implied --log, same seed)
    actions = sum(1 for line in slow if line.startswith("  ")) // 3  # an action says <= 3
    assert actions > 5 and took >= 0.02 * actions
