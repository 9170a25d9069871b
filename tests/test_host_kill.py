"""The host process is killed (SIGKILL) mid-round and started again with `--resume JOURNAL`:
every network bot comes back with its resume token, the round goes on from the same state, the
match ends, and no card is lost. Real processes, real sockets, real time: every wait is bounded
and polls instead of sleeping a fixed time."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
import trio

from client import netbot
from host.journal import FINISHED_DIR, decode_logged_action, load
from protocol.client_session import GameEvent, HistoryReceived, SessionEvent, Snapshot
from unonet import events as ev
from unonet.actions import HOST, StartRound
from unonet.match import IN_ROUND

ROOT = Path(__file__).resolve().parent.parent
SEATS = 3
PORT_LINE = re.compile(rb"listening on .*, port (\d+)")

BOUND = 90.0
"""The bound on each wait for the host processes: a loaded machine is slow, not wrong (a
whole match usually takes seconds)."""


class HostProcess:
    """`python -m unonet.cli host` as a child process; its port read from what it prints."""

    def __init__(self, home: Path, *extra: str) -> None:
        env = {**os.environ, "UNONET_HOME": str(home), "PYTHONPATH": str(ROOT)}
        self.log = (home / "stderr.txt").open("ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "unonet.cli", "host", "--headless", "--no-tls",
             "--bind", "127.0.0.1", "--port", "0", "--seats", str(SEATS),
             "--set", "target=50", *extra],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=self.log,
        )

    async def port(self) -> int:
        assert self.process.stdout is not None
        with trio.fail_after(BOUND):
            while True:
                line = await trio.to_thread.run_sync(self.process.stdout.readline)
                assert line, "the host exited before listening"
                found = PORT_LINE.search(line)
                if found:
                    return int(found.group(1))

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(5)
        self.log.close()


class Player:
    """One network bot across both host processes, and what it saw."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.token: bytes | None = None
        self.seat: int | None = None
        self.events: list[ev.Event] = []
        self.snapshots: list[Snapshot] = []
        self.histories: list[HistoryReceived] = []
        self.results: list[netbot.BotResult] = []

    def observe(self, received: Sequence[SessionEvent]) -> None:
        for item in received:
            if isinstance(item, GameEvent) and isinstance(item.event, ev.Event):
                self.events.append(item.event)
            elif isinstance(item, Snapshot):
                self.snapshots.append(item)
            elif isinstance(item, HistoryReceived):
                self.histories.append(item)

    async def play(self, port: int) -> None:
        stream = await trio.open_tcp_stream("127.0.0.1", port)
        result = await netbot.play(stream, name=self.name, table=0, think=0,
                                   resume=self.token, observe=self.observe)
        self.results.append(result)
        self.token = self.token or result.token
        self.seat = result.seat if result.seat is not None else self.seat


def round_events(journal: Path, round_no: int, copy: Path) -> list[ev.Event]:
    """Every event of round `round_no`, as the host's journal replays it: the journal up to the
    deal of the next round, written to `copy` and loaded (`load` keeps the last round's)."""
    kept: list[bytes] = []
    deals = 0
    for line in journal.read_bytes().splitlines(keepends=True):
        record = json.loads(line)
        if (record["kind"] == "action" and record["seat"] == HOST
                and isinstance(decode_logged_action(record["action"]), StartRound)):
            deals += 1
            if deals > round_no:
                break
        kept.append(line)
    copy.write_bytes(b"".join(kept))
    replayed = load(copy)
    assert replayed.match.round_no == round_no
    return replayed.round_events


@pytest.mark.parametrize("sync", [(), ("--journal-sync", "1000")], ids=["strict", "interval"])
async def test_a_killed_host_resumes_its_journal_and_the_match_ends_with_every_card(
    tmp_path: Path, sync: tuple[str, ...],
) -> None:
    """Also with `--journal-sync`: a killed process loses nothing, since every line is with
    the operating system before a player sees what it records (only a power cut could lose
    the last interval's lines). The journal records the interval, which `--resume` takes up
    (tests/test_cli_host_resume_options.py)."""
    players = [Player(f"p{i}") for i in range(SEATS)]
    first = HostProcess(tmp_path, *sync)
    try:
        port = await first.port()
        with trio.fail_after(BOUND):
            async with trio.open_nursery() as nursery:
                for player in players:
                    nursery.start_soon(player.play, port)
                # Mid-round: cards have been played by several seats.
                while sum(isinstance(e, ev.CardPlayed) for e in players[0].events) < 6:
                    await trio.sleep(0.01)
                first.kill()  # the bots see the connection end and return
    finally:
        if first.process.poll() is None:
            first.kill()
    assert all(p.token is not None and p.results[0].matches == [] for p in players)

    (journal,) = (tmp_path / "journals").glob("table0-*.jsonl")
    header = json.loads(journal.read_bytes().split(b"\n", 1)[0])
    assert header["table"]["host"]["journal_sync"] == (int(sync[1]) if sync else 0)
    at_kill = load(journal)
    assert at_kill.match.phase == IN_ROUND
    killed_bytes = journal.read_bytes()[: at_kill.valid_bytes]

    second = HostProcess(tmp_path, "--resume", str(journal))
    try:
        port = await second.port()
        marks = [len(p.snapshots) for p in players]
        with trio.fail_after(BOUND):
            async with trio.open_nursery() as nursery:
                for player in players:
                    nursery.start_soon(player.play, port)
    finally:
        second.kill()

    # Each player came back into its seat and first saw the hand the journal gave it.
    for player, mark in zip(players, marks, strict=True):
        assert player.seat is not None
        resumed_view = player.snapshots[mark].view
        assert tuple(resumed_view["hand"]) == at_kill.match.view(player.seat).hand
        assert resumed_view["round_no"] == at_kill.match.round_no
    # The match ended, the same for everyone, and the journal only grew (and, the match
    # over, went among the finished ones).
    journal = journal.parent / FINISHED_DIR / journal.name
    final = load(journal)
    assert journal.read_bytes().startswith(killed_bytes)
    assert final.match.winner is not None
    interrupted = at_kill.match.round_no  # no round was abandoned: trust and engine agree
    interrupted_events = round_events(journal, interrupted, tmp_path / "interrupted.jsonl")
    assert any(isinstance(e, ev.RoundEnded) for e in interrupted_events)
    for player in players:
        assert player.results[-1].violations == []  # the trust checks held across the restart
        # ...and covered the whole interrupted round: the resumed connection got its events
        # from the first one (the deal) in round_history, and audited the round.
        history = [h for h in player.histories if h.round_no == interrupted]
        assert history and history[0].first == 0
        dealt = [w.event for h in history for w in h.events
                 if isinstance(w.event, ev.CardsReceived) and w.event.seat == player.seat]
        assert dealt and len(dealt[0].cards) == 7
        # Every event of the round that this seat's audience got, as the journal replays the
        # round, was checked by the resumed connection's verifier, and the round was audited
        # (not merely "missed": a connection that came after the round would be).
        assert player.seat is not None
        got = [e for e in interrupted_events if e.audience is None or player.seat in e.audience]
        assert player.results[-1].rounds[interrupted] == netbot.RoundCheck("audited", len(got))
        assert interrupted in player.results[-1].audited
        (ended,) = player.results[-1].matches
        assert ended.winner == final.match.winner
        assert list(ended.scores) == list(final.match.scores)
    # No card lost: the round the kill interrupted ended with every card of the deck in a
    # hand or a pile, and the hands shown at its end are the engine's.
    round_ends = [e for e in players[0].events if isinstance(e, ev.RoundEnded)]
    assert round_ends
    replay = load(journal)
    assert replay.match.round is not None
    rnd = replay.match.round
    cards = [c for hand in rnd.hands for c in hand] + list(rnd.draw_pile) + list(rnd.discard)
    assert sorted(cards) == list(range(len(replay.match.manifest)))
    assert [list(h) for h in round_ends[-1].hands] == [list(h) for h in rnd.hands]
