"""The resume command a host prints carries where it listened (issue 12 audit, gap 2), run as a
user would, in child processes: a headless host on an ephemeral port (`--port 0`, TLS off,
a slow bot) plays a match with a network bot; Ctrl-C prints one line naming the real journal and
`--resume JOURNAL --bind 127.0.0.1 --port N --no-tls ...` with the port it listened on; that
command listens there again, and so does `--resume JOURNAL` alone (the journal keeps how its
host listened), while a flag given again wins. An older journal (no `host` record) takes the
defaults."""

from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import pytest
from test_client_terminal import Terminal
from test_host_journal import _play_some

from host.run import HostOptions, host_record, resume_flags
from unonet.cli import (
    HOST_DEFAULTS,
    CommandError,
    build_parser,
    record_differences,
    recorded_opened,
    resumed_journals,
    take_recorded_options,
)
from unonet.rules import RuleSet, preset

REPO = Path(__file__).resolve().parents[1]
BOUND = 60.0


def environment(home: Path) -> dict[str, str]:
    return {**os.environ, "UNONET_HOME": str(home), "XDG_CONFIG_HOME": str(home),
            "XDG_STATE_HOME": str(home)}


def unonet(home: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "unonet.cli", *args], cwd=REPO, env=environment(home),
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def read_until(stream: IO[str] | None, pattern: str) -> re.Match[str]:
    """The first line of `stream` that matches `pattern` (the process's own pace, no sleeps;
    the test's timeout bounds it)."""
    assert stream is not None
    seen: list[str] = []
    for line in stream:
        if found := re.search(pattern, line):
            return found
        seen.append(line)
    raise AssertionError(f"the stream ended before {pattern!r}; its last lines: "
                         f"{''.join(seen[-5:])!r}")


def stop(process: subprocess.Popen[str]) -> tuple[int, list[str]]:
    """Ctrl-C: the exit code and what stderr says after it (less the host's log lines)."""
    process.send_signal(signal.SIGINT)
    assert process.stderr is not None
    rest = process.stderr.read()
    code = process.wait(timeout=BOUND)
    return code, [line for line in rest.splitlines() if line.strip() and " INFO " not in line]


WATCHDOG = 300.0
"""Seconds after which a test's children are killed: a line that never comes then ends its
stream, and `read_until` fails instead of waiting for CI's limit. A test here takes seconds."""


@pytest.fixture
def processes() -> Iterator[list[subprocess.Popen[str]]]:
    """The test's child processes: killed after it, or by the watchdog if it hangs."""
    started: list[subprocess.Popen[str]] = []

    def kill_all() -> None:
        for process in list(started):
            if process.poll() is None:
                process.kill()

    watchdog = threading.Timer(WATCHDOG, kill_all)
    watchdog.start()
    yield started
    watchdog.cancel()
    for process in started:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=BOUND)


def host_in_mid_match(tmp_path: Path, processes: list[subprocess.Popen[str]]
                      ) -> tuple[subprocess.Popen[str], int, Path]:
    """A headless host on an ephemeral port (TLS off, a slow bot) whose match with a network
    bot is on: the host, the port it listens on, the match's journal."""
    host = unonet(tmp_path, "host", "--headless", "--no-tls", "--bind", "127.0.0.1", "--port",
                  "0", "--bots", "1", "--seats", "2", "--bot-delay", "30")
    processes.append(host)
    port = int(read_until(host.stdout, r"listening on 127\.0\.0\.1, port (\d+)").group(1))
    assert port != 0
    processes.append(unonet(tmp_path, "bot", f"127.0.0.1:{port}", "--no-tls", "--think", "0"))
    journal = Path(read_until(host.stderr, r": journal (\S+\.jsonl)").group(1))
    read_until(host.stderr, r"round 1 dealt")  # the match is on (a slow bot keeps it so)
    return host, port, journal


def test_the_resume_command_listens_where_the_host_did(
    tmp_path: Path, processes: list[subprocess.Popen[str]]
) -> None:
    host, port, journal = host_in_mid_match(tmp_path, processes)
    code, said = stop(host)
    assert code == 130 and len(said) == 1, said
    command = said[0].split("to carry its match on: ", 1)[1]
    assert shlex.split(command) == [
        "unonet", "host", "--resume", str(journal), "--bind", "127.0.0.1", "--port",
        str(port), "--no-tls", "--headless", "--bot-delay", "30.0"]
    assert journal.is_file()

    for again in (shlex.split(command)[2:], ["--resume", str(journal)]):
        resumed = unonet(tmp_path, "host", *again)
        processes.append(resumed)
        heard = read_until(resumed.stdout, r"listening on (\S+), port (\d+)|TLS")
        assert heard.groups() == ("127.0.0.1", str(port)), heard.group(0)
        assert read_until(resumed.stdout, r"TLS is (off)").group(1) == "off"
        code, said = stop(resumed)
        assert code == 130 and f"--resume {journal} --bind 127.0.0.1 --port {port}" in said[0]


def parsed(*argv: str) -> argparse.Namespace:
    return build_parser().parse_args(["host", *argv])


def test_a_flag_given_again_wins_and_an_older_journal_takes_the_defaults() -> None:
    record = {"bind": "127.0.0.1", "port": 47104, "tls": False, "headless": True,
              "bot_delay": 0.0, "max_connections": 100, "per_address": 9,
              "journal_sync": 250}
    args = parsed("--port", "0", "--bind", "::1")
    take_recorded_options(args, record, "j.jsonl")
    assert (args.port, args.bind, args.no_tls, args.bot_delay, args.max_connections,
            args.journal_sync) == (0, "::1", True, 0.0, 100, 250)
    again = parsed("--journal-sync", "0")
    take_recorded_options(again, record, "j.jsonl")
    assert again.journal_sync == "0"  # given again: wins (checked as a whole number later)
    with pytest.raises(CommandError, match="journal_sync -1"):
        take_recorded_options(parsed(), dict(record, journal_sync=-1), "bad.jsonl")
    older = parsed()
    take_recorded_options(older, None, "old.jsonl")  # a journal before the host record
    assert all(getattr(older, name) is None for name in HOST_DEFAULTS)
    with pytest.raises(CommandError, match="port 99999"):
        take_recorded_options(parsed(), dict(record, port=99999), "bad.jsonl")


def test_the_resume_line_names_a_journal_sync_interval_and_leaves_the_default_out() -> None:
    assert resume_flags(host_record(HostOptions(journal_sync=250), 7077))[-2:] == [
        "--journal-sync", "250"]
    assert "--journal-sync" not in resume_flags(host_record(HostOptions(), 7077))


def test_a_club_host_stopped_with_matches_on_two_tables_carries_both_on_in_one_host(
    tmp_path: Path, processes: list[subprocess.Popen[str]]
) -> None:
    """Ctrl-C on a dedicated server of three tables, two in mid-match, prints one command that
    carries both matches on in one host, on its port (two hosts could not share it); that
    host opens both tables under their numbers and the third again, empty, as it opened (a
    player sits at it and its match starts), and its own Ctrl-C names all three journals."""
    host = unonet(tmp_path, "host", "--headless", "--no-tls", "--bind", "127.0.0.1", "--port",
                  "0", "--tables", "3", "--bots", "1", "--seats", "2", "--bot-delay", "30",
                  "--rules", "party")
    processes.append(host)
    port = int(read_until(host.stdout, r"listening on 127\.0\.0\.1, port (\d+)").group(1))
    for table in (0, 2):
        bot = unonet(tmp_path, "bot", f"127.0.0.1:{port}", "--no-tls", "--think", "0",
                     "--table", str(table))
        processes.append(bot)
    journals = matches_on(host, {0, 2})

    code, said = stop(host)
    assert code == 130 and len(said) == 1, said
    assert "to carry its 2 matches on, one host for all of them: " in said[0]
    command = shlex.split(said[0].split("one host for all of them: ", 1)[1])
    assert command == ["unonet", "host", "--resume", str(journals[0]), "--resume",
                       str(journals[2]), "--bind", "127.0.0.1", "--port", str(port),
                       "--no-tls", "--headless", "--bot-delay", "30.0", "--tables", "3"]

    resumed = unonet(tmp_path, *command[1:])
    processes.append(resumed)
    heard = read_until(resumed.stdout, r"listening on (\S+), port (\d+)")
    assert heard.groups() == ("127.0.0.1", str(port))
    assert read_until(resumed.stdout, r"tables open: (.*)").group(1) == (
        "0 'table 0' (2 seats, 1 bot), 1 'table 1' (2 seats, 1 bot), "
        "2 'table 2' (2 seats, 1 bot)")
    bot = unonet(tmp_path, "bot", f"127.0.0.1:{port}", "--no-tls", "--think", "0",
                 "--table", "1")
    processes.append(bot)
    journals[1] = matches_on(resumed, {1})[1]
    assert b'"preset":"party"' in journals[1].read_bytes()  # as the club's tables opened
    code, said = stop(resumed)
    assert code == 130 and said[0].endswith(shlex.join(
        ["--resume", str(journals[0]), "--resume", str(journals[1]), "--resume",
         str(journals[2]), *command[6:]]))


def matches_on(host: subprocess.Popen[str], tables: set[int]) -> dict[int, Path]:
    """The journals of the matches at `tables`, once each has dealt its first round (the slow
    bots keep them on). Another table may deal too: a resumed one whose host stopped after it
    froze the seed commitments of its round goes on with it (SPEC.md [UNO-11-12])."""
    journals: dict[int, Path] = {}
    dealt: set[int] = set()
    while set(journals) != tables or dealt != tables:
        found = read_until(host.stderr, r"table (\d): (journal (\S+\.jsonl)|round 1 dealt)")
        number = int(found.group(1))
        assert number in tables or not found.group(3), found.group(0)
        if found.group(3):
            journals[number] = Path(found.group(3))
        elif number in tables:
            dealt.add(number)
    return journals


def test_the_tables_a_host_opened_come_back_as_recorded_unless_told_otherwise(
    tmp_path: Path,
) -> None:
    """`opened` in the host record: the rules, seats and bots of the tables a host opened,
    which a resumed host opens those no journal carries on with; a record that is not that
    is refused in one line, and a journal from before it opens them with the defaults."""
    options = HostOptions(rules=preset("party"), preset="party", seats=3, bots=2, tables=4)
    record = host_record(options, 7077)
    assert resume_flags(record)[-2:] == ["--tables", "4"]
    assert "--tables" not in resume_flags(host_record(HostOptions(), 7077))
    name, rules, seats, bots = recorded_opened(record, "j.jsonl") or ("", None, 0, 0)
    assert (name, rules, seats, bots) == ("party", preset("party"), 3, 2)
    args = parsed()
    take_recorded_options(args, record, "j.jsonl")
    assert args.tables == 4
    assert recorded_opened({"port": 7077}, "old.jsonl") is None
    for opened in ({"preset": "house", "rules": {}, "seats": 3, "bots": 4},
                   {"preset": "house", "rules": {"no_such_option": 1}, "seats": 3, "bots": 0},
                   {"preset": "house", "rules": {}, "seats": "3", "bots": 0},
                   {"preset": "house", "seats": 3, "bots": 0}):
        with pytest.raises(CommandError, match="not a journal this host can resume"):
            recorded_opened(dict(record, opened=opened), "bad.jsonl")


def test_resume_refuses_a_journal_given_twice_or_two_of_one_table(
    tmp_path: Path, processes: list[subprocess.Popen[str]]
) -> None:
    """One line each, before anything listens: a table's match carries on once."""
    host, _, journal = host_in_mid_match(tmp_path, processes)
    stop(host)
    copy = tmp_path / "copy.jsonl"
    copy.write_bytes(journal.read_bytes())
    edited = tmp_path / "edited.jsonl"
    edited.write_bytes(journal.read_bytes().replace(b'"table":{"number":0,',
                                                    b'"table":{"number":"0",', 1))
    for args, words in (
        (["--resume", str(edited)], "its table number is '0'"),
        (["--resume", str(journal), "--resume", str(journal)], f"--resume {journal}: given twice"),
        (["--resume", str(journal), "--resume", str(copy)],
         f"--resume {journal} and {copy}: both are table 0's match"),
        (["--resume", str(journal), "--tables", "0"], "--tables 0: from 1 to"),
        (["--resume", str(journal), "--bots", "11"], "--bots 11: 0 to 10 bots fit"),
        (["--resume", str(journal), "--seats", "11"], "--seats 11: a table has 2 to 10"),
    ):
        result = subprocess.run([sys.executable, "-m", "unonet.cli", "host", *args], cwd=REPO,
                                env=environment(tmp_path), stdin=subprocess.DEVNULL,
                                capture_output=True, text=True, timeout=BOUND)
        lines = [line for line in result.stderr.splitlines() if line.strip()]
        assert result.returncode == 2 and len(lines) == 1 and words in lines[0], lines


def test_a_host_who_plays_carries_several_journals_on_in_a_real_terminal(
    tmp_path: Path,
) -> None:
    """On a terminal, `unonet host` takes several journals too (its friends' tables journal
    their matches, and its farewell names them all in one command): it says so, opens its
    screen, and leaves with q as ever."""
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed: no real terminal to drive")
    journals = []
    for number in (0, 1):
        path = tmp_path / f"table{number}.jsonl"
        _play_some(path, 5, table={"number": number, "name": "t"})  # mid-round
        journals += ["--resume", str(path)]
    term = Terminal(tmp_path, shlex.join(["cd", str(REPO)]) + " && " + shlex.join(
        [sys.executable, "-m", "unonet.cli", "host", *journals, "--no-tls", "--port", "0"]))
    try:
        # The screen opens; this terminal's player has no seat in either journal (they are
        # the test's), so the host says why on its table list, both tables there.
        screen = term.wait_text("Tables on this host")
        assert screen.count("3/3 players (playing, no seat open") == 2, screen
        term.keys("q")
        screen = term.wait(lambda text: "UNONET-EXIT=" in text or "?" in text, "q's answer")
        if "UNONET-EXIT=" not in screen:
            term.keys("y")
        screen = term.wait_text("UNONET-EXIT=")
    finally:
        term.close()
    said = " ".join(screen.split())
    assert "unonet host: resuming 2 matches on a free port" in said, screen
    assert "you left with 2 matches on" in said, screen
    assert "".join(screen.split()).count("--resume") == 2, screen  # one command, both journals
    assert "UNONET-EXIT=0" in said


def test_a_journal_whose_match_is_over_is_refused_with_its_result(tmp_path: Path) -> None:
    """Found by trying: `--resume` of a journal from journals/finished/ opened a table whose
    match had ended. The stop line never names one; given one, the command says so."""
    path = tmp_path / "table0-over.jsonl"
    played = _play_some(path, 100_000, RuleSet(max_rounds=1))
    assert played.winner is not None
    with pytest.raises(CommandError, match=rf"its match is over \(seat {played.winner} won, "
                       rf"{'-'.join(map(str, played.scores))}\): there is nothing to carry on"):
        resumed_journals([str(path)])


def test_journals_of_two_hosts_are_carried_on_as_the_first_one_s_host_did_and_said_so() -> None:
    first = host_record(HostOptions(journal_sync=250, tables=2), 7077)
    assert record_differences(first, dict(first)) == ""
    assert record_differences(first, {**first, "port": 7078, "tls": False}) == \
        "port 7078, not 7077, tls False, not True"
    assert record_differences(first, host_record(HostOptions(seats=3, tables=2), 7077)) == \
        "journal_sync 0, not 250, other tables opened"
    assert record_differences(None, first) == "one of them keeps no host record"


def test_the_command_says_how_a_second_journal_s_host_differed(
    tmp_path: Path, processes: list[subprocess.Popen[str]]
) -> None:
    journals = []
    for number, port in ((0, 47001), (1, 47002)):
        path = tmp_path / f"table{number}-x.jsonl"
        # mid-round: no round can end in 5 actions, so neither the match
        _play_some(path, 5, table={"number": number, "name": f"t{number}", "host": {
            **host_record(HostOptions(tls=False), port), "bind": "127.0.0.1"}})
        journals += ["--resume", str(path)]
    host = unonet(tmp_path, "host", *journals, "--port", "0")
    processes.append(host)
    said = read_until(host.stderr, r"its host was not this one \((.*)\); this host listens")
    assert said.group(1) == "port 47002, not 47001"
    read_until(host.stdout, r"listening on 127\.0\.0\.1, port \d+")
    assert stop(host)[0] == 130


def test_resume_replays_each_journal_once(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The command line loads each journal to check it, and the host used to load it again:
    a long match was replayed twice before the host listened. The host takes the loaded one;
    a second host built from the same options (the first one's match moved on) loads its own."""
    import host.run
    from host.journal import Resumed, load
    from host.run import build_registry

    path = tmp_path / "table0.jsonl"
    _play_some(path, 5)  # mid-round
    resume = resumed_journals([str(path)])
    replays: list[Path] = []
    real_load = load  # what host.run calls, till patched below

    def counted(journal: Path) -> Resumed:
        replays.append(journal)
        return real_load(journal)

    monkeypatch.setattr(host.run, "load", counted)
    options = HostOptions(rules=RuleSet(), resume=(path,), loaded=dict(resume), home=tmp_path)
    registry = build_registry(options, tmp_path, 0.0)
    game = registry.tables[0].game
    assert game is not None and game.match is resume[0][1].match and replays == []
    build_registry(options, tmp_path, 0.0)
    assert replays == [path]


def test_a_journal_given_by_a_relative_path_is_named_whole_in_the_farewell(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Found in tmux: `--resume hh/journals/table0-….jsonl` came back in the stop line as
    typed, a command that works only from the folder it was typed in."""
    (tmp_path / "hh").mkdir()
    _play_some(tmp_path / "hh" / "table0.jsonl", 5, table={"number": 0, "name": "t"})
    monkeypatch.chdir(tmp_path)
    ((path, _),) = resumed_journals(["hh/table0.jsonl"])
    assert path == tmp_path / "hh" / "table0.jsonl" and path.is_absolute()
