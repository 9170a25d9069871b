"""`unonet play` draws its first screen before the heavy parts load (issue 43: within 0.5 s).

What the first frame needs is the screen (prompt-toolkit, client/app.py and the model it
draws) and the command's options. The network link (trio as asyncio's guest, the link
session, the trust verifier with its audit, referee and signatures) loads after that frame,
and the host inside the link's trio run. These tests fail when an import brings one of them
back in front of the first frame; how long anything takes is benchmarks/startup.py's
business, not theirs (DESIGN.md: no timed assertions).
"""

from __future__ import annotations

import ast
import asyncio
import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
import trio

from client.cli import LateNetworkLink
from client.guest import NetworkLink
from client.link import (
    Chat,
    CloseLink,
    Command,
    ConnectionChanged,
    Refused,
    Update,
)
from client.lobby import SetReady
from unonet.actions import Draw

REPO = Path(__file__).resolve().parents[1]

AFTER_THE_FIRST_FRAME = (
    "trio", "outcome", "cryptography", "msgpack",
    "client.guest", "client.network", "client.link_session", "client.trust_gate",
    "client.transcript", "protocol.trust.verifier", "protocol.trust.audit",
    "protocol.trust.referee", "protocol.trust.signing", "protocol.client_session",
    "host.server", "host.registry", "host.table", "host.game", "unonet.bots", "unonet.match",
)
"""Modules (and their submodules) the first frame must not wait for."""


def early(loaded: set[str]) -> list[str]:
    """Which of `loaded` should have waited for the first frame."""
    return sorted(name for name in loaded
                  if any(name == late or name.startswith(late + ".")
                         for late in AFTER_THE_FIRST_FRAME))


def loaded_by(statement: str) -> set[str]:
    """The modules a fresh interpreter has loaded after `statement`."""
    script = f"import sys\n{statement}\nprint(sorted(sys.modules))\n"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=REPO, timeout=120, check=True)
    return set(ast.literal_eval(done.stdout.strip().splitlines()[-1]))


def test_the_screens_modules_load_no_link_no_verifier_and_no_host() -> None:
    loaded = loaded_by("import client.app, client.cli")
    assert {"client.app", "client.render", "prompt_toolkit"} <= loaded  # the screen itself
    assert early(loaded) == []
    assert sorted(name for name in loaded if name.split(".")[0] == "host") == []


FIRST_FRAME_PROBE = """
import os, sys
import prompt_toolkit.renderer

draw = prompt_toolkit.renderer.Renderer.render

def first_frame(self, *args, **kwargs):
    draw(self, *args, **kwargs)
    with open(sys.argv[1], "w") as out:
        out.write(repr(sorted(sys.modules)))
    os._exit(0)

prompt_toolkit.renderer.Renderer.render = first_frame
from unonet.cli import main
main(["play", "--lang", "en"])
"""
"""`unonet play` on a terminal, stopped as its first frame is drawn: what had loaded by then."""


def modules_at_the_first_frame(tmp_path: Path) -> set[str]:
    """Run FIRST_FRAME_PROBE on a pseudo-terminal (play needs one) and read what it wrote."""
    found = tmp_path / "modules"
    env = {**os.environ, "UNONET_HOME": str(tmp_path), "TERM": "xterm-256color"}
    env.pop("NO_COLOR", None)
    leader, follower = pty.openpty()
    with subprocess.Popen([sys.executable, "-c", FIRST_FRAME_PROBE, str(found)], cwd=REPO,
                          env=env, stdin=follower, stdout=follower, stderr=follower) as probe:
        os.close(follower)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:  # read the screen, so that its writes never block
            if select.select([leader], [], [], 0.1)[0]:
                try:
                    if not os.read(leader, 65536):
                        break
                except OSError:  # EIO: the probe has exited, its terminal is gone
                    break
        if probe.poll() is None:
            probe.kill()
        probe.wait()
    os.close(leader)
    assert probe.returncode == 0 and found.exists(), "the probe drew no first frame"
    return set(ast.literal_eval(found.read_text()))


def test_unonet_plays_first_frame_is_drawn_before_the_link_and_the_host_load(
    tmp_path: Path,
) -> None:
    loaded = modules_at_the_first_frame(tmp_path)
    assert {"client.app", "client.cli", "prompt_toolkit.renderer"} <= loaded
    assert early(loaded) == []


# -- the link that loads after the first frame ---------------------------------------------------


async def echo(commands: trio.MemoryReceiveChannel[Command],
               updates: trio.MemorySendChannel[Update]) -> None:
    """A link main that says each command back, as a Refused naming it, until CloseLink."""
    await updates.send(ConnectionChanged("connected"))
    async for command in commands:
        if isinstance(command, CloseLink):
            await updates.send(ConnectionChanged("closed"))
            return
        await updates.send(Refused("echo", repr(command)))


async def until(seen: list[Update], count: int) -> None:
    """Wait (at most 10 s) until `count` updates have come."""
    async def poll() -> None:
        while len(seen) < count:
            await asyncio.sleep(0.01)

    await asyncio.wait_for(poll(), 10)


def test_what_the_screen_sends_before_the_network_starts_reaches_it_in_order() -> None:
    seen: list[Update] = []
    link = LateNetworkLink(echo)

    async def scenario() -> None:
        link.start(seen.append)
        link.send_lobby(SetReady(True))  # the network starts on the loop's next turn
        link.send_intent(Draw())
        assert seen == [] and link.last_state is None
        await until(seen, 3)
        link.send_chat("after it started")
        await until(seen, 4)
        link.close()
        await asyncio.wait_for(link.wait_closed(), 10)

    asyncio.run(scenario())
    assert seen[:4] == [ConnectionChanged("connected"),
                        Refused("echo", repr(SetReady(True))), Refused("echo", repr(Draw())),
                        Refused("echo", repr(Chat("after it started")))]
    assert link.last_state == ConnectionChanged("closed")


def test_a_network_link_that_cannot_start_is_a_lost_connection(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(self: NetworkLink, deliver: object) -> None:
        raise RuntimeError("the guest run cannot start")

    monkeypatch.setattr(NetworkLink, "start", broken)
    seen: list[Update] = []
    link = LateNetworkLink(echo)

    async def scenario() -> None:
        link.start(seen.append)
        link.send_chat("never sent")
        await asyncio.sleep(0)  # the loop's next turn: the network tries to start
        link.close()
        with pytest.raises(RuntimeError, match="cannot start"):
            await link.wait_closed()

    asyncio.run(scenario())
    assert len(seen) == 1 and isinstance(seen[0], ConnectionChanged)
    assert seen[0].state == "lost" and "cannot start" in seen[0].detail
    assert link.last_state == seen[0]
