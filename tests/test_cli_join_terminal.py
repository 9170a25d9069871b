"""`unonet join` in a real terminal (tmux) against a real `unonet host` process (issue 12): a
killed client run again sits down in the same seat (point 1); a host whose fingerprint changed
is refused with the warning at once, before any screen (point 7); a host that goes away is
said on the screen, and no prompt invites a move (point 3). Every step polls the screen."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from test_client_terminal import Terminal, printed_address, terminal

from client.known_hosts import KnownHosts

__all__ = ["terminal"]  # the fixture, shared with test_client_terminal


class HostProcess:
    """`unonet host --headless` in a child process: its port and fingerprint as it prints them."""

    def __init__(self, home: Path, *args: str) -> None:
        env = {**os.environ, "UNONET_HOME": str(home)}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "unonet.cli", "host", "--headless", "--bind", "127.0.0.1",
             *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.port, self.fingerprint = printed_address(self.process)

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)


@pytest.fixture
def host(tmp_path: Path) -> Iterator[Callable[..., HostProcess]]:
    started: list[HostProcess] = []

    def start(*args: str) -> HostProcess:
        started.append(HostProcess(tmp_path / "host-home", *args))
        return started[-1]

    yield start
    for each in started:
        each.stop()


def join(port: int, *options: str) -> str:
    return (f"cd {Path.cwd()} && {sys.executable} -m unonet.cli join 127.0.0.1:{port} "
            f"--name Tester {' '.join(options)}")


def players(screen: str) -> list[str]:
    """The player list under the title bar, one name a line (two seats), in seat order."""
    names = []
    for line in screen.splitlines()[1:3]:
        found = re.match(r"[ ▶]+(\S+)", line)
        assert found is not None, screen
        names.append(found.group(1))
    return names


def in_game(screen: str) -> bool:
    return "Round 1" in screen and "Tester (you)" in screen


def test_a_killed_client_run_again_is_back_in_its_seat(
    terminal: Callable[[str], Terminal], host: Callable[..., HostProcess]
) -> None:
    served = host("--port", "0", "--bots", "1", "--seats", "2")
    command = join(served.port, "--table", "0", "--fingerprint", served.fingerprint)
    first = terminal(command)
    first.wait_text("not ready")
    first.keys("r")
    screen = first.wait(in_game, "the game")
    seat = players(screen).index("Tester")  # the players are listed in seat order
    first.close()  # the terminal goes: the client dies without a goodbye

    again = terminal(command)
    screen = again.wait(in_game, "the game again, in our seat")
    assert "spectate instead" not in screen
    assert players(screen).index("Tester") == seat  # the same seat, not just a seat
    again.keys("q")
    again.wait_text("Leave the game?")
    again.keys("y")
    assert "UNONET-EXIT=0" in again.wait_text("UNONET-EXIT=")


def test_a_changed_fingerprint_is_shown_at_once_with_what_to_do(
    terminal: Callable[[str], Terminal], host: Callable[..., HostProcess], tmp_path: Path
) -> None:
    served = host("--port", "0", "--bots", "1")
    KnownHosts(tmp_path / "home" / "known_hosts").remember("127.0.0.1", served.port,
                                                           bytes(32))  # another host's
    term = terminal(join(served.port))
    screen = term.wait_text("UNONET-EXIT=")
    assert "UNONET-EXIT=0" not in screen
    assert "FINGERPRINT HAS CHANGED" in screen
    assert f"--pin {served.fingerprint[:19]}" in screen
    assert "Connecting" not in screen  # no screen opened, nothing sent


def test_the_screen_says_the_host_is_gone_and_invites_no_move(
    terminal: Callable[[str], Terminal], host: Callable[..., HostProcess]
) -> None:
    served = host("--port", "0", "--bots", "1", "--seats", "2")
    term = terminal(join(served.port, "--table", "0", "--fingerprint", served.fingerprint))
    term.wait_text("not ready")
    term.keys("r")
    term.wait(in_game, "the game")
    served.stop()
    screen = term.wait_text("the host is gone")
    # Neither the status line nor the key bar ("Enter play") invites a move.
    assert "Your turn" not in screen and "Enter play" not in screen
    term.keys("q")
    term.wait_text("Leave the game?")
    term.keys("y")
    term.wait_text("UNONET-EXIT=")


def test_unonet_host_on_a_port_in_use_says_so_before_any_screen(
    terminal: Callable[[str], Terminal],
) -> None:
    with socket.socket() as taken:
        taken.bind(("0.0.0.0", 0))
        taken.listen()
        port = taken.getsockname()[1]
        term = terminal(f"cd {Path.cwd()} && {sys.executable} -m unonet.cli host --port {port}")
        screen = term.wait_text("UNONET-EXIT=")
    lines = [line for line in screen.splitlines() if line.strip()]
    said = " ".join(lines[:-1])  # wrapped at words within the terminal
    assert said == (f"unonet: cannot listen on every interface, port {port}: it is in use (by "
                    "another unonet host, or another program); choose another port with "
                    "--port"), said
    assert lines[-1] == "UNONET-EXIT=1"


def test_unonet_host_with_a_name_it_refuses_says_so_before_starting(
    terminal: Callable[[str], Terminal],
) -> None:
    """Found in tmux: `unonet host --name host` printed "unonet host: starting on port …;
    your table opens now", then "--name: that name is reserved"."""
    term = terminal(f"cd {Path.cwd()} && {sys.executable} -m unonet.cli host --port 0 "
                    "--name host")
    screen = term.wait_text("UNONET-EXIT=")
    said = [line for line in screen.splitlines() if line.strip()]
    assert said[0].startswith("unonet: --name: that name is reserved"), said
    assert said[-1] == "UNONET-EXIT=2" and "starting" not in screen
