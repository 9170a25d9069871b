"""Every failure a user meets on the command line is one clear line and a non-zero exit, never a
traceback: a port out of range or in use, an address not on this machine, a journal that is
missing or is not one, a seed that is not hex, more bots than seats, `join` with no terminal
(issue 12, points 5-6).

Each case runs the real `unonet` command in a child process, as a user would."""

from __future__ import annotations

import io
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def run_unonet(args: list[str], home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "UNONET_HOME": str(home), "XDG_CONFIG_HOME": str(home),
           "XDG_STATE_HOME": str(home)}
    return subprocess.run(
        [sys.executable, "-m", "unonet.cli", *args], cwd=REPO, env=env, stdin=subprocess.DEVNULL,
        capture_output=True, text=True, timeout=60,
    )


def said(result: subprocess.CompletedProcess[str]) -> list[str]:
    """What stderr says to the user: every line that is not blank (argparse's usage block
    included, had it come back)."""
    return [line for line in result.stderr.splitlines() if line.strip()]


@pytest.mark.parametrize(
    ("args", "code", "words"),
    [
        (["host", "--headless", "--no-tls", "--port", "99999"], 2, "99999 is not a port"),
        (["host", "--headless", "--no-tls", "--port", "http"], 2, "'http' is not a port"),
        (["host", "--resume", "/nonexistent/journal"], 2, "no such journal file"),
        (["host", "--resume", "/tmp"], 2, "--resume /tmp: a folder, not a journal file"),
        (["host", "--resume", "README.md"], 2, "not a journal this host can resume"),
        (["host", "--headless", "--no-tls", "--bind", "192.0.2.1", "--port", "0"], 1,
         "cannot listen on 192.0.2.1"),
        (["play", "--log", "--seed", "zz"], 2, "'zz' is not a hex seed"),
        (["join", "127.0.0.1:1", "--no-tls"], 2, "join needs a terminal"),
        (["host", "--headless", "--no-tls", "--port", "0", "--bots", "20"], 2, "--bots 20"),
        (["host", "--headless", "--no-tls", "--port", "0", "--seats", "4", "--bots", "5"], 2,
         "0 to 4 bots fit"),
        (["play", "--log", "--bots", "1"], 2, "--bots 1: a logged match has 2 to 10"),
        # Not asked for a log: the line says why the match is one (the output is a pipe).
        (["play", "--bots", "1"], 2, "a logged match has 2 to 10 bots (the output is not a "
         "terminal, so the match is logged)"),
        (["play", "--log", "--rules", "no_mercy", "--bots", "8"], 2, "--bots 8"),
        (["host", "--rules", "no_mercy", "--bots", "8", "--no-tls", "--port", "0"], 2,
         "--bots 8: 0 to 6 bots fit"),
        (["host", "--headless", "--rules", "no_mercy", "--seats", "9", "--no-tls", "--port",
          "0"], 2, "--seats 9: these rules seat 2 to 6 players, not 9"),
        (["play", "--log", "--set", "teams=pairs", "--bots", "5"], 2, "--bots 5"),
        # A count the user never typed is named as the default it is (found in review: the
        # headless host blamed "--bots 0" for teams at its two seats).
        (["host", "--headless", "--no-tls", "--port", "0", "--set", "teams=pairs"], 2,
         "the table's 2 seats (choose with --seats): teams"),
        (["host", "--headless", "--no-tls", "--port", "0", "--set", "teams=pairs", "--bots",
          "2"], 2, "--bots 2 (3 seats): teams"),
        (["bot", "127.0.0.1:99999"], 2, "99999 is not a port"),
        (["bot", "127.0.0.1:1", "--table", "-1"], 2, "-1 is not a table number (0 and up)"),
        (["bot", "127.0.0.1:1", "--table", "x"], 2, "'x' is not a table number"),
        (["host", "--resume", "tests/test_host_journal.py"], 2,
         "not a journal this host can resume"),
        (["play", "--bots", "x"], 2, "unonet: argument --bots: invalid int value: 'x' "
         "(see unonet play --help)"),
        (["host", "--bots"], 2, "argument --bots: expected one argument (see unonet host"),
        (["frob"], 2, "invalid choice: 'frob'"),
        (["--frob"], 2, "unrecognized arguments: --frob (see unonet --help)"),
        (["bot", "127.0.0.1:1", "--matches", "0"], 2, "0: matches from 1 to 1,000,000"),
        (["bot", "127.0.0.1:1", "--name", "host"], 2, "--name: that name is reserved"),
        # `unonet rules` described sets every table refuses, exit 0 (found in tmux)
        (["rules", "--set", "teams=pairs", "--set", "scoring=lowest_wins"], 2,
         "teams: pairs score with scoring=winner_collects, not lowest_wins"),
        (["rules", "flip", "--set", "decks=2"], 2, "decks: UNO Flip plays one double-sided"),
        # Shown as set and played otherwise: No Mercy took its own value (found in tmux)
        (["rules", "no_mercy", "--set", "draw_when_playable=allowed"], 2,
         "draw_when_playable: No Mercy always plays draw_when_playable=forbidden"),
        (["play", "--log", "--rules", "no_mercy", "--set", "stacking=same_kind"], 2,
         "stacking: No Mercy does not play stacking=same_kind"),
        (["rules", "no_mercy", "--set", "max_players=10"], 2,
         "max_players: No Mercy is for 2 to 6 players"),
        (["rules", "--set", "=3"], 2, "--set: expects OPTION=VALUE, not '=3'"),
        (["rules", "--set", "teams=pairs", "--set", "max_players=3"], 2,
         "teams: pairs need 4 or 6 seats; max_players=3 allows fewer"),
        (["bot", "127.0.0.1:1", "--fingerprint", "AAAA"], 2, "--fingerprint: a fingerprint has"),
        # A port as a word of its own: the line says where it goes.
        (["join", "127.0.0.1", "7077"], 2, "the port goes after a colon: unonet join "
         "127.0.0.1:7077"),
        (["bot", "::1", "7077"], 2, "the port goes after a colon: unonet bot [::1]:7077"),
    ],
)
def test_a_failing_command_says_why_in_one_line(
    args: list[str], code: int, words: str, tmp_path: Path
) -> None:
    result = run_unonet(args, tmp_path)
    assert result.returncode == code, result.stderr
    assert "Traceback" not in result.stderr
    lines = said(result)
    assert len(lines) == 1, lines
    assert words in lines[0]


def test_a_port_in_use_is_one_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run_unonet(
            ["host", "--headless", "--no-tls", "--bind", "127.0.0.1", "--port", str(port)],
            tmp_path,
        )
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert said(result) == [f"unonet: cannot listen on 127.0.0.1, port {port}: it is in use "
                            "(by another unonet host, or another program); choose another "
                            "port with --port"]


def test_ctrl_c_stops_a_headless_host_with_one_line(tmp_path: Path) -> None:
    env = {**os.environ, "UNONET_HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path),
           "XDG_STATE_HOME": str(tmp_path)}
    host = subprocess.Popen(
        [sys.executable, "-m", "unonet.cli", "host", "--headless", "--no-tls", "--bind",
         "127.0.0.1", "--port", "0"],
        cwd=REPO, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert host.stderr is not None and host.stdout is not None
    seen = []
    for line in host.stdout:  # wait until it listens and is up: no sleeping on luck
        seen.append(line)
        if line.startswith("Friends join with"):  # after "listening on", before it waits
            break
    host.send_signal(signal.SIGINT)
    rest = host.stderr.read()
    assert host.wait(timeout=30) == 130, (seen, rest)
    assert "Traceback" not in rest
    lines = [line for line in rest.splitlines() if " INFO " not in line and line.strip()]
    assert len(lines) == 1 and "host stopped (Ctrl-C)" in lines[0], (seen, rest)


def test_a_failure_while_stopping_for_ctrl_c_is_still_a_ctrl_c(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Seen once under load: Ctrl-C on a headless host exited 1 with "unonet: Bad file
    descriptor", an OSError raised while the KeyboardInterrupt unwound. The user pressed
    Ctrl-C: they get its one line and 130, bare or inside trio's exception group."""
    import unonet.cli as cli

    def stopping_fails(_: object) -> int:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt:
            raise OSError(9, "Bad file descriptor") from None  # the context stays the KI

    def stopping_fails_in_a_group(_: object) -> int:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt:
            raise ExceptionGroup("stopping", [OSError(9, "Bad file descriptor")])  # noqa: B904

    for failing in (stopping_fails, stopping_fails_in_a_group):
        monkeypatch.setattr(cli, "cmd_host", failing)
        parser = cli.build_parser()
        monkeypatch.setattr(cli, "build_parser", lambda parser=parser: parser)
        for action in parser._subparsers._group_actions:  # type: ignore[union-attr]
            action.choices["host"].set_defaults(func=failing)  # type: ignore[index]
        assert cli.main(["host", "--headless"]) == 130
        err = capsys.readouterr().err
        assert "Bad file descriptor" not in err and "host stopped (Ctrl-C)" in err


def test_play_options_without_the_word_play_play(tmp_path: Path) -> None:
    """`unonet` alone plays, so `unonet --bots 2 --log` does too, rather than taking `2` for a
    command."""
    result = run_unonet(["--bots", "2", "--log", "--seed", "00", "--quiet"], tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip()


class Terminal(io.StringIO):
    """stdin or stdout as a terminal: `unonet host` plays at its table there."""

    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(("flag", "words"), [
    (["--tables", "3"], "--tables 3: a dedicated server's option (--headless)"),
    (["--player-owner"], "--player-owner: a dedicated server's option (--headless)"),
])
def test_a_dedicated_servers_option_on_a_hosts_terminal_is_refused(
    flag: list[str], words: str, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str], tmp_path: Path,
) -> None:
    """The host who plays has one table, which it owns: these flags would do nothing there,
    so they are refused rather than ignored."""
    from unonet.cli import main

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    monkeypatch.setattr(sys, "stdin", Terminal())
    monkeypatch.setattr(sys, "stdout", Terminal())
    assert main(["host", "--no-tls", "--port", "0", *flag]) == 2
    assert words in capsys.readouterr().err


def test_a_dedicated_server_says_it_ignores_the_players_options(tmp_path: Path) -> None:
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path), "XDG_STATE_HOME": str(tmp_path)}
    host = subprocess.Popen(
        [sys.executable, "-m", "unonet.cli", "host", "--headless", "--no-tls", "--bind",
         "127.0.0.1", "--port", "0", "--name", "Hana", "--lang", "it"],
        cwd=REPO, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, text=True,
    )
    try:
        assert host.stderr is not None
        first = host.stderr.readline()
    finally:
        host.kill()
        host.wait()
    # --lang is its terminal's, not ignored: what it says is in it
    assert first == ("unonet: --name: per l'host che gioca; un server dedicato non ha un "
                     "giocatore suo, quindi ignorati.\n")
