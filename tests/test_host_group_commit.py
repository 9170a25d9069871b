"""Group commit (host/server.py, host/journal.py): what an action causes goes out only once the
journal lines it wrote are on the disk, and the disk is waited for off the event loop.

Each test holds the commit (the fsync in its worker thread) on a threading.Event, and looks at
what a player receives over a real socket meanwhile: the match's start (the journal's header
and the first round's trust record) must not reach it, while the host still answers; once the
commit runs, it does, with every journal line synced.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
import trio

import host.server
from host.journal import commit
from host.registry import Registry
from host.server import HostServer, ServerConfig
from host.settings import FAST_TIMINGS
from host.table import Table, TableSettings
from protocol.frames import FrameDecoder, Signal, encode_frame
from unonet.rules import RuleSet

QUIET = 0.5
"""Real seconds the player waits to see that nothing comes while the commit is held: a host
that sent early would have sent within a millisecond; a slow machine can only make this pass
when it should not, never fail when it should pass."""

BOUND = 20.0
"""The bound on any wait for the host."""


class HeldCommit:
    """`host.server.commit` behind a gate the test opens; counts the commits that ran."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.entered = threading.Event()
        self.ran = 0

    def __call__(self, pending: Sequence[int]) -> list[OSError]:
        self.entered.set()
        self.gate.wait(BOUND)
        self.ran += 1
        return commit(pending)


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> Iterator[HeldCommit]:
    gate = HeldCommit()
    monkeypatch.setattr(host.server, "commit", gate)
    yield gate
    gate.gate.set()  # never leave a worker thread waiting


class Player:
    """A player that speaks the protocol by hand over a socket stream."""

    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        self.decoder = FrameDecoder()
        self.next_id = 1

    async def send(self, message: dict[str, Any]) -> None:
        await self.stream.send_all(encode_frame(message))

    async def request(self, kind: str, **fields: Any) -> None:
        self.next_id += 1
        await self.send({"t": kind, "id": self.next_id, **fields})

    async def until(self, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """The first frame `wanted` accepts (pings answered on the way)."""
        while True:
            frame = self.decoder.next_frame()
            if frame is Signal.NEED_DATA:
                self.decoder.receive_data(bytes(await self.stream.receive_some(65536)))
                continue
            assert isinstance(frame, dict), frame
            if frame.get("t") == "ping":
                await self.send({"t": "pong", "n": frame["n"]})
            elif wanted(frame):
                return frame


async def seated_at_journalled_table(nursery: trio.Nursery, tmp_path: Path
                                     ) -> tuple[Player, Table]:
    registry = Registry(FAST_TIMINGS)
    table = registry.create_table(TableSettings(
        "durable", RuleSet(target=50), headless=True, target_seats=2, timings=FAST_TIMINGS,
        journal_dir=tmp_path / "journals"))
    table.add_bot()
    server = HostServer(registry, ServerConfig(bind="127.0.0.1", port=0))
    listener = (await nursery.start(server.serve))[0]
    player = Player(await trio.testing.open_stream_to_socket_listener(listener))
    await player.send({"t": "hello", "v": [1], "client": {"name": "test", "version": "1"},
                       "features": [], "name": "Durable"})
    with trio.fail_after(BOUND):
        await player.until(lambda f: f["t"] == "welcome")
        await player.request("join_table", table=table.number, name="Durable")
        await player.until(lambda f: f["t"] == "seated")
    return player, table


async def test_the_match_start_waits_for_its_journal_on_the_disk(
    nursery: trio.Nursery, tmp_path: Path, held: HeldCommit,
) -> None:
    player, table = await seated_at_journalled_table(nursery, tmp_path)
    await player.request("ready", ready=True)  # the bot is ready: the match starts
    asked = player.next_id
    with trio.fail_after(BOUND):
        await trio.to_thread.run_sync(held.entered.wait, BOUND)
    assert table.game is not None and table.game.journal is not None
    journal = table.game.journal
    assert journal.unsynced and journal.path.exists()  # written and flushed, not yet synced
    # Held: neither the answer to `ready` nor the round's start comes out.
    with trio.move_on_after(QUIET) as quiet:
        await player.until(lambda f: f["t"] in ("accepted", "round_prepare"))
    assert quiet.cancelled_caught, "the host sent what its unsynced journal records"
    held.gate.set()
    with trio.fail_after(BOUND):
        answer = await player.until(lambda f: f["t"] in ("accepted", "round_prepare"))
        assert answer == {"t": "accepted", "id": asked}
        await player.until(lambda f: f["t"] == "round_prepare")
    assert held.ran >= 1
    assert journal.synced >= 2  # the header and the round's first trust record, at least


async def test_while_a_commit_waits_the_host_still_reads_and_answers(
    nursery: trio.Nursery, tmp_path: Path, held: HeldCommit,
) -> None:
    player, _ = await seated_at_journalled_table(nursery, tmp_path)
    await player.request("ready", ready=True)
    with trio.fail_after(BOUND):
        await trio.to_thread.run_sync(held.entered.wait, BOUND)
    # The event loop is not blocked by the disk: a ping of ours is answered at once (a pong
    # is the connection's own, behind no journal).
    await player.send({"t": "ping", "n": 7})
    with trio.fail_after(BOUND):
        pong = await player.until(lambda f: f["t"] == "pong")
    assert pong["n"] == 7
    assert held.ran == 0
    held.gate.set()
    with trio.fail_after(BOUND):
        await player.until(lambda f: f["t"] == "round_prepare")
