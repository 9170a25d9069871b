"""The `unonet` command: help, version, a bot match as a readable log, clear errors."""

from __future__ import annotations

import argparse

import pytest

from client.i18n import LOCALE_VARIABLES
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


@pytest.fixture
def english_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    """The log's language comes from the locale when --lang is not given: English here,
    whatever the machine running the tests says."""
    for variable in LOCALE_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")


@pytest.mark.usefixtures("english_locale")
def test_play_prints_a_whole_match(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--bots", "3", "--seed", "0102", "--set", "target=100"]) == 0
    out = capsys.readouterr().out
    assert "Seats: 0: Ana, 1: Bruno, 2: Chiara" in out
    assert "Round 1:" in out and "plays" in out
    assert "wins the round" in out and "wins the match" in out
    assert out.rstrip().endswith("wins.")


@pytest.mark.parametrize(("lang", "seats", "over"), [
    ("it", "Posti: 0: Ana, 1: Bruno, 2: Chiara", "Partita finita dopo "),
    ("pt", "Lugares: 0: Ana, 1: Bruno, 2: Chiara", "Partida encerrada após "),
])
@pytest.mark.parametrize("chosen_by", ["--lang", "LANG"])
def test_a_logged_match_is_in_the_players_language_from_first_line_to_last(
    lang: str, seats: str, over: str, chosen_by: str, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Found in an Italian log: its lines were Italian but its first three and its last were
    English, and without --lang the locale was not asked, as --help says it is."""
    for variable in LOCALE_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    args = ["play", "--bots", "3", "--seed", "0102", "--set", "target=100"]
    if chosen_by == "--lang":
        args += ["--lang", lang]
    else:
        monkeypatch.setenv("LANG", f"{lang}_{lang.upper()}.UTF-8")
    assert main(args) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[2] == seats
    assert lines[-1].startswith(over)
    english = ("a match of", "replay with", "Seats:", "Match over", " wins", "Round ")
    assert not [line for line in lines if any(words in line for words in english)]


@pytest.mark.usefixtures("english_locale")
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

