"""The host's own player leaves in mid-match in a real terminal (tmux) and reads the command
that carries the match on (issue 12 audit, gap 2): it names the real journal and listens where
friends look (the ephemeral port it had, --bind, --no-tls); run as printed, it does."""

from __future__ import annotations

import re
import shlex
import sys
from collections.abc import Callable
from pathlib import Path

from test_cli_host_resume_options import read_until, stop, unonet
from test_client_terminal import Terminal, terminal

__all__ = ["terminal"]  # the fixture, shared with test_client_terminal


def test_leaving_in_mid_match_prints_a_resume_command_that_listens_where_friends_look(
    terminal: Callable[[str], Terminal], tmp_path: Path
) -> None:
    term = terminal(f"cd {Path.cwd()} && {sys.executable} -m unonet.cli host --bind 127.0.0.1 "
                    "--port 0 --bots 1 --no-tls --name Hosta")
    term.wait_text("Friends join with")
    def hosta_ready(screen: str) -> bool:
        return any("Hosta" in line and "not ready" not in line and " ready " in line
                   for line in screen.splitlines())

    term.wait_text("Hosta")
    assert not hosta_ready(term.screen())
    term.keys("r")
    term.wait(hosta_ready, "the host player ready")
    term.keys("s")
    term.wait_text("Round 1")
    term.keys("q")
    term.wait_text("leaving ends it for everyone")
    term.keys("y")
    term.wait_text("UNONET-EXIT=0")
    said = term._tmux("capture-pane", "-p", "-J", "-t", term.name)  # long lines whole
    port = re.search(r"unonet join 127\.0\.0\.1:(\d+) --no-tls", said)
    command = re.search(r"^  (unonet host --resume .*)$", said, re.M)
    assert port is not None and command is not None, said
    words = shlex.split(command.group(1))
    journal = Path(words[3])
    assert journal.is_file() and journal.parent == tmp_path / "home" / "journals"
    assert words[4:] == ["--bind", "127.0.0.1", "--port", port.group(1), "--no-tls"]

    resumed = unonet(tmp_path / "home", *words[1:])  # as printed (no terminal: headless)
    try:
        heard = read_until(resumed.stdout, r"listening on (\S+), port (\d+)")
        assert heard.groups() == ("127.0.0.1", port.group(1))
        code, lines = stop(resumed)
        assert code == 130 and str(journal) in lines[-1]  # its Ctrl-C line names it too
    finally:
        if resumed.poll() is None:
            resumed.kill()
        resumed.wait(timeout=30)
