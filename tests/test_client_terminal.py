"""Once through a real terminal (DESIGN.md "Tests"): `unonet play --bots 3` in tmux. The table
appears, a card is played from the keyboard, the player quits and the command exits 0. Every
step polls the screen (capture-pane) until the text it expects is there, within a generous
bound; nothing waits a fixed time."""

from __future__ import annotations

import itertools
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None,
                                reason="tmux is not installed: no real terminal to drive")

BOUND = 60.0
"""Seconds any one step may take: a loaded CI machine is slow, not wrong."""


class Terminal:
    """A tmux session of its own (own socket), 100x30 unless told, running one command. Each
    terminal has its own socket, so a test's second terminal never meets the first one's
    server while it is still shutting down."""

    opened = itertools.count()

    def __init__(self, tmp: Path, command: str, columns: int = 100, rows: int = 30) -> None:
        self.socket = str(tmp / f"tmux-{next(Terminal.opened)}.sock")
        self.name = "unonet"
        # Not COLUMNS and LINES: pytest-xdist's workers set them to 80x24, and a program
        # asking for its terminal's size (shutil.get_terminal_size) believes them first.
        env = {**{k: v for k, v in os.environ.items() if k not in {"COLUMNS", "LINES"}},
               "UNONET_HOME": str(tmp / "home"), "NO_COLOR": "1",
               "TERM": "xterm-256color", "LANGUAGE": "en", "LC_ALL": "C.UTF-8"}
        self.env = env
        self._tmux("new-session", "-d", "-s", self.name, "-x", str(columns), "-y", str(rows),
                   f"{command}; echo UNONET-EXIT=$?; sleep 600")

    def _tmux(self, *args: str) -> str:
        result = subprocess.run(["tmux", "-S", self.socket, *args], env=self.env,
                                capture_output=True, text=True, check=True, timeout=30)
        return result.stdout

    def screen(self) -> str:
        return self._tmux("capture-pane", "-p", "-t", self.name)

    def tmux(self, *args: str) -> str:
        """Any tmux command on this terminal's server (its clipboard, its options)."""
        return self._tmux(*args)

    def keys(self, *keys: str) -> None:
        self._tmux("send-keys", "-t", self.name, *keys)

    def resize(self, columns: int, rows: int) -> None:
        self._tmux("resize-window", "-t", self.name, "-x", str(columns), "-y", str(rows))

    def wait(self, found: Callable[[str], bool], what: str, bound: float = BOUND) -> str:
        deadline = time.monotonic() + bound
        while True:
            text = self.screen()
            if found(text):
                return text
            if time.monotonic() > deadline:
                raise AssertionError(f"never saw {what} within {bound} s; the screen:\n{text}")
            time.sleep(0.1)

    def wait_text(self, text: str, bound: float = BOUND) -> str:
        return self.wait(lambda screen: text in screen, repr(text), bound)

    def close(self) -> None:
        subprocess.run(["tmux", "-S", self.socket, "kill-server"], env=self.env,
                       capture_output=True, timeout=30, check=False)


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Callable[..., Terminal]]:
    made: list[Terminal] = []

    def make(command: str, columns: int = 100, rows: int = 30) -> Terminal:
        made.append(Terminal(tmp_path, command, columns, rows))
        return made[-1]

    yield make
    for term in made:
        term.close()


def hand_size(screen: str) -> int | None:
    match = re.search(r"Your hand \((\d+)\)", screen)
    return int(match.group(1)) if match else None


def test_play_against_bots_in_a_real_terminal(
    terminal: Callable[[str], Terminal], tmp_path: Path
) -> None:
    command = f"cd {Path.cwd()} && {sys.executable} -m unonet.cli play --bots 3 --name Tester"
    term = terminal(command)
    screen = term.wait_text("Tester (you)")
    for bot in ("Ana", "Bruno", "Chiara"):
        assert bot in screen
    # The bots play until it is ours. When the first card is a wild and we are the first to
    # play, the game first asks us to name its colour (seen in CI): name one, then play.
    screen = term.wait(lambda s: "Your turn" in s or "Choose the colour" in s, "our turn")
    if "Your turn" not in screen:
        term.keys("1")
        screen = term.wait_text("Your turn")
    assert "connected" in screen
    before = hand_size(screen)
    assert before is not None
    plays = screen.count("Tester plays")
    # The selection starts on a card that plays, so Enter plays it (a wild opens the colour
    # picker, where 1 takes the first colour); with none, Space draws. Each wait is for what
    # only that key can bring about (one more "Tester plays" line, a hand that changed), never
    # for text that may still be on the screen from before the key.
    if "Enter plays the selected card" in screen:
        term.keys("Enter")
        screen = term.wait(lambda s: "Colour for" in s or s.count("Tester plays") > plays,
                           "the card played")
        if "Colour for" in screen:
            term.keys("1")
            screen = term.wait(lambda s: s.count("Tester plays") > plays, "the wild played")
    else:
        term.keys("Space")
        screen = term.wait(lambda s: hand_size(s) != before, "a draw")
    # The same table at 60x20 keeps the keys to leave and to get help; at 40x12 it asks for a
    # larger terminal instead of showing part of the table.
    term.resize(60, 20)
    screen = term.wait(lambda s: s.splitlines()[-2].rstrip().endswith("? help  q quit")
                       and "Tester (you)" in s, "the 60x20 key bar")
    term.resize(40, 12)
    screen = term.wait_text("Make the terminal larger")
    assert "Your hand" not in screen
    term.resize(100, 30)
    term.wait_text("Your hand")
    term.keys("q")
    term.wait_text("Leave?")  # `unonet play`: the table is ours, and ends with us
    term.keys("y")
    screen = term.wait_text("UNONET-EXIT=")
    assert "UNONET-EXIT=0" in screen
    log = (tmp_path / "home" / "play.log").read_text()
    assert "Tester" in log and "closed (quit)" in log


def printed_address(host: subprocess.Popen[str]) -> tuple[int, str]:
    """The port and fingerprint a `unonet host` child prints as it starts. A host that prints
    nothing more is killed after BOUND, so that readline ends, not the suite."""
    assert host.stdout is not None
    port, fingerprint = 0, ""
    watchdog = threading.Timer(BOUND, host.kill)
    watchdog.start()
    try:
        while not fingerprint:
            line = host.stdout.readline()
            if not line:
                break
            if found := re.search(r"port (\d+)", line):
                port = int(found.group(1))
            if found := re.search(r"fingerprint .*: (\S+)", line):
                fingerprint = found.group(1)
    finally:
        watchdog.cancel()
    assert port and fingerprint
    return port, fingerprint


def test_join_asks_about_a_new_fingerprint_then_plays(
    terminal: Callable[[str], Terminal], tmp_path: Path
) -> None:
    env = {**os.environ, "UNONET_HOME": str(tmp_path / "host-home")}
    host = subprocess.Popen(
        [sys.executable, "-m", "unonet.cli", "host", "--bind", "127.0.0.1", "--port", "0",
         "--bots", "1"], env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        port, fingerprint = printed_address(host)
        term = terminal(f"cd {Path.cwd()} && {sys.executable} -m unonet.cli join "
                        f"127.0.0.1:{port} --name Tester")
        screen = term.wait_text("[y/N]")
        assert fingerprint in screen  # the same text the host printed
        term.keys("y", "Enter")
        term.wait_text("Tables on this host")
        term.keys("Enter")  # join the first table
        term.wait_text("not ready")  # the lobby (the table list shows our name too)
        term.keys("r")  # ready: the headless table starts with its bot
        screen = term.wait(lambda s: "Round 1" in s and "Tester (you)" in s, "the game")
        assert "Your hand" in screen
        term.keys("q")
        term.wait_text("Leave the game?")
        term.keys("y")
        assert "UNONET-EXIT=0" in term.wait_text("UNONET-EXIT=")
        known = (tmp_path / "home" / "known_hosts").read_text()
        assert f"127.0.0.1:{port} " in known
    finally:
        host.terminate()
        host.wait(timeout=30)
