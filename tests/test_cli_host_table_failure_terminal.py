"""A table that fails on the host (a bug raised inside it) in `unonet host`, in a real terminal
(tmux): the host's own player is told, is offered the way on, and on leaving reads the command
that carries the failed table's match on, which works (issue 43: the host's own table went down
without the `--resume` line)."""

from __future__ import annotations

import re
import shlex
import sys
from collections.abc import Callable
from pathlib import Path

from test_cli_host_resume_options import read_until, stop, unonet
from test_client_terminal import Terminal, terminal

__all__ = ["terminal"]  # the fixture, shared with test_client_terminal

FAILING_HOST = '''
import sys

import host.table
from unonet.cli import main

def failing_intent(*args, **kwargs):
    raise RuntimeError("a bug inside the table")

host.table.Table.intent = failing_intent  # the table raises on the first move a player sends
sys.exit(main(sys.argv[1:]))
'''


def test_a_table_that_fails_leaves_its_host_player_the_command_that_carries_it_on(
    terminal: Callable[[str], Terminal], tmp_path: Path
) -> None:
    script = tmp_path / "failing_host.py"
    script.write_text(FAILING_HOST)
    term = terminal(f"cd {Path.cwd()} && {sys.executable} {script} host --bind 127.0.0.1 "
                    "--port 0 --bots 1 --no-tls --name Hosta")
    term.wait_text("Friends join with")
    term.wait_text("Hosta")
    term.keys("r")
    term.wait(lambda screen: any("Hosta" in line and " ready " in line
                                 and "not ready" not in line for line in screen.splitlines()),
              "the host player ready")
    term.keys("s")
    term.wait_text("Your turn")
    term.keys("Space")  # a draw: the table raises on it
    term.wait_text("table 0 failed on the host and was closed")
    term.wait_text("the host prints how to carry the match on")  # not "unonet join later"
    assert "unonet join later" not in term.screen()
    term.keys("q")
    term.wait_text("leaving ends it for everyone")
    term.keys("y")
    term.wait_text("UNONET-EXIT=")
    said = term._tmux("capture-pane", "-p", "-J", "-t", term.name)  # long lines whole
    assert re.search(r"table 0 failed on the host and was closed \(the reason is in \S+host\.log"
                     r"\); its match is kept in \S+\.jsonl", " ".join(said.split())), said
    port = re.search(r"unonet join 127\.0\.0\.1:(\d+) --no-tls", said)
    command = re.search(r"^  (unonet host --resume .*)$", said, re.M)
    assert port is not None and command is not None, said
    words = shlex.split(command.group(1))
    journal = Path(words[3])
    assert journal.is_file() and journal.parent == tmp_path / "home" / "journals"
    assert words[4:] == ["--bind", "127.0.0.1", "--port", port.group(1), "--no-tls"]

    resumed = unonet(tmp_path / "home", *words[1:])  # as printed: the match carries on
    try:
        read_until(resumed.stdout, r"listening on (\S+), port (\d+)")
        code, lines = stop(resumed)
        assert code == 130 and str(journal) in lines[-1]
    finally:
        if resumed.poll() is None:
            resumed.kill()
        resumed.wait(timeout=30)
