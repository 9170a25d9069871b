"""The `unonet` command: help, version, a bot match as a readable log, clear errors."""

from __future__ import annotations

import argparse

import pytest

from unonet import __version__
from unonet.cli import main


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert __version__ in capsys.readouterr().out


def test_help_lists_play(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "play" in capsys.readouterr().out


@pytest.mark.parametrize("command", ["play", "host", "rules"])
def test_help_says_what_each_preset_is(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    """"seed000" alone tells a newcomer nothing: each preset's --help names what it is."""
    with pytest.raises(SystemExit):
        main([command, "--help"])
    said = " ".join(capsys.readouterr().out.split())  # argparse wraps the lines
    for words in ("official (the rules in the box)", "seed000 (Italian Wikipedia)",
                  "seed003 (Italian online game)", "seed004 (Brazilian rules)",
                  "flip (UNO Flip)", "party (house rules)"):
        assert words in said, (command, words)


def test_play_prints_a_whole_match(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--bots", "3", "--seed", "0102", "--set", "target=100"]) == 0
    out = capsys.readouterr().out
    assert "Seats: 0: Ana, 1: Bruno, 2: Chiara" in out
    assert "Round 1:" in out and "plays" in out
    assert "wins the round" in out and "wins the match" in out
    assert out.rstrip().endswith("wins.")


def test_play_is_replayable_from_its_seed(capsys: pytest.CaptureFixture[str]) -> None:
    main(["play", "--bots", "2", "--seed", "ab", "--set", "target=100"])
    first = capsys.readouterr().out
    main(["play", "--bots", "2", "--seed", "ab", "--set", "target=100"])
    assert capsys.readouterr().out == first


def test_only_the_presets_the_engine_plays_are_offered(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["play", "--rules", "nosuch"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'nosuch'" in err
    assert all(name in err for name in ("party", "flip", "no_mercy"))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--set", "variant=nosuch"], "variant"),
        (["--bots", "2", "--set", "teams=pairs"], "teams"),
        (["--bots", "10", "--set", "hand_size=20"], "hand_size"),
        (["--set", "nonsense=1"], "nonsense"),
        (["--set", "uno_penalty"], "OPTION=VALUE"),
        (["--set", "uno_penalty=lots"], "uno_penalty"),
    ],
)
def test_bad_rules_are_refused_naming_the_option(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", *args]) == 2
    assert message in capsys.readouterr().err


def test_every_commands_arguments_say_what_they_are() -> None:
    """`unonet bot --help` listed HOST:PORT with no word about it: every positional argument
    and option of every command has a help text."""
    from unonet.cli import build_parser

    parser = build_parser()
    commands = next(action for action in parser._actions
                    if isinstance(action, argparse._SubParsersAction))
    for name, command in commands.choices.items():
        for action in command._actions:
            if not isinstance(action, argparse._HelpAction):
                assert action.help, (name, action.dest)

