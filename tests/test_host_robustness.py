"""What no client can do to a running host: every abuse ends that one connection with the error
code SPEC.md documents, and the games in progress play on undisturbed.

Real sockets on loopback. The abusive clients are raw byte streams; the games are played by
network bots (protocol/ClientSession) and the host's own bots, on short but configurable
deadlines (ConnectionLimits), so nothing here waits on luck: each wait is bounded and polls.
"""

from __future__ import annotations

import json
import os
import socket
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import trio
import trio.testing
from client_net import played_match

from client import netbot
from host.registry import Registry
from host.server import HostServer, ServerConfig
from host.settings import BENCHMARK_LIMITS, FAST_TIMINGS, ConnectionLimits, TableTimings
from host.table import Table, TableSettings
from protocol.client_session import GameEvent, MessageReceived, SessionEvent, Snapshot
from protocol.errors import ProtocolError
from protocol.examples import EXAMPLES
from protocol.frames import EOF, NEED_DATA, FrameDecoder, encode_frame
from protocol.limits import MAX_CLIENT_FRAME, RECEIVE_CHUNK
from unonet import events as ev
from unonet.match import Match
from unonet.rules import RuleSet

VECTORS = Path(__file__).resolve().parent.parent / "protocol" / "vectors"
HELLO = encode_frame(EXAMPLES["hello"])


async def read_all(stream: trio.abc.Stream, limit: float = 10,
                   until: str | None = None) -> list[dict[str, Any]]:
    """Every frame the host sends until it closes, or until a frame of type `until` (bounded
    by `limit` seconds)."""
    decoder = FrameDecoder()
    out: list[dict[str, Any]] = []
    with trio.fail_after(limit):
        while not (until and any(f.get("t") == until for f in out)):
            try:
                data = bytes(await stream.receive_some(RECEIVE_CHUNK))
            except trio.BrokenResourceError:
                data = b""
            decoder.receive_data(data)
            while True:
                try:
                    frame = decoder.next_frame()
                except ProtocolError:
                    return out
                if frame is NEED_DATA:
                    break
                if frame is EOF:
                    return out
                assert isinstance(frame, dict)
                out.append(frame)
            if not data:
                return out
    return out


def fatal_code(frames: Sequence[dict[str, Any]]) -> str | None:
    errors = [f for f in frames if f.get("t") == "error" and f.get("fatal")]
    return str(errors[-1]["code"]) if errors else None


async def start(nursery: trio.Nursery, limits: ConnectionLimits, tables: int = 1,
                timings: TableTimings = FAST_TIMINGS, seats: int = 2,
                rules: RuleSet | None = None,
                ) -> tuple[HostServer, list[Table], trio.SocketListener]:
    """Tables with one in-process bot each, waiting for network players to fill them."""
    registry = Registry(timings)
    made = []
    for number in range(tables):
        table = registry.create_table(TableSettings(f"t{number}", rules or RuleSet(target=200),
                                                    headless=True, target_seats=seats,
                                                    timings=timings))
        table.add_bot()
        made.append(table)
    server = HostServer(registry, ServerConfig(bind="127.0.0.1", port=0, limits=limits))
    listeners = await nursery.start(server.serve)
    return server, made, listeners[0]


async def play_bot(listener: trio.SocketListener, table: int, results: list[netbot.BotResult],
                   think: float = 0.0, matches: int = 1) -> None:
    """A network bot plays `matches` matches at `table`, as fast as the host lets it."""
    stream = await trio.testing.open_stream_to_socket_listener(listener)
    results.append(await netbot.play(stream, name=f"bot{table}", table=table, think=think,
                                     matches=matches))


def assert_clean(results: Sequence[netbot.BotResult], tables: Sequence[Table]) -> None:
    for result in results:
        assert len(result.matches) == 1 and result.violations == []
        assert result.refusals == [] and result.closed is None  # it left: the match was over
    for table in tables:
        finished = played_match(table)
        assert finished.winner is not None


# -- 1. a dropped player, and one who never comes back --------------------------------------------


class Watcher:
    """Collects what a network bot receives; keeps its resume token."""

    def __init__(self) -> None:
        self.token: bytes | None = None
        self.snapshots: list[Snapshot] = []
        self.played = 0

    def __call__(self, received: Sequence[SessionEvent]) -> None:
        for item in received:
            if isinstance(item, MessageReceived) and item.message["t"] == "seated":
                self.token = item.message["token"]
            elif isinstance(item, Snapshot):
                self.snapshots.append(item)
            elif isinstance(item, GameEvent) and isinstance(item.event, ev.CardPlayed):
                self.played += 1


def state_when_sent(match: Match, seat: int, view: dict[str, Any]) -> bool:
    """Whether some prefix of the match's log gives `seat` exactly this round and hand: the
    snapshot was true when the host built it, whatever happened since."""
    replay = Match(match.rules, match.seats, match.seed)
    for step in [None, *match.log]:
        if step is not None:
            replay.apply(*step)
        if replay.round_no == view["round_no"] and list(replay.view(seat).hand) == view["hand"]:
            return True
    return False


async def test_a_dropped_player_resumes_and_one_who_never_returns_is_played_by_a_bot(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    timings = TableTimings(grace=30.0, challenge_decision=5.0, seed_phase=2.0, bot_delay=0.3,
                           round_break=0.0, match_break=10_000.0)
    _, (table,), listener = await start(nursery, ConnectionLimits(), timings=timings, seats=3)
    ana, bo = Watcher(), Watcher()
    results: list[netbot.BotResult] = []

    async def until_cancelled(scope: trio.CancelScope, name: str, watcher: Watcher) -> None:
        with scope:
            stream = await trio.testing.open_stream_to_socket_listener(listener)
            await netbot.play(stream, name=name, table=0, observe=watcher, think=0.2)

    played_by_a_bot: list[bool] = []

    async def bo_taken_over() -> None:
        """Bo's seat, once a bot plays it: seen now, while the match is on (once it is over
        and its last player has gone, the table is back in its lobby and frees the seat)."""
        while True:
            seat = next((s for _, s in table.room.occupied() if s.name == "bo"), None)
            if seat is not None and seat.taken_over and seat.conn is None:
                played_by_a_bot.append(True)
                return
            await trio.sleep(0.1)

    with trio.fail_after(100_000):
        async with trio.open_nursery() as players:
            ana_scope, bo_scope = trio.CancelScope(), trio.CancelScope()
            players.start_soon(until_cancelled, ana_scope, "ana", ana)
            players.start_soon(until_cancelled, bo_scope, "bo", bo)
            while ana.played < 5:
                await trio.sleep(0.1)
            ana_scope.cancel()  # ana drops in the middle of a round
            played_when_dropped = bo.played
            while bo.played < played_when_dropped + 3:  # the game goes on without her
                await trio.sleep(0.1)
            assert ana.token is not None
            mark = len(ana.snapshots)
            stream = await trio.testing.open_stream_to_socket_listener(listener)
            bo_scope.cancel()  # bo goes and never comes back: a bot plays his seat
            players.start_soon(bo_taken_over)
            results.append(await netbot.play(stream, name="ana", table=0, resume=ana.token,
                                             observe=ana, think=0.2))
    match = played_match(table)
    assert match.winner is not None
    (back,) = results
    assert back.seat is not None and back.matches[0].winner == match.winner
    assert back.violations == []
    assert state_when_sent(match, back.seat, dict(ana.snapshots[mark].view))
    assert played_by_a_bot == [True]


# -- 3. abusive clients beside running games ------------------------------------------------------


def raw_socket_stream(fd_owner: socket.socket) -> trio.SocketStream:
    return trio.SocketStream(trio.socket.from_stdlib_socket(fd_owner))


async def test_a_client_that_never_reads_is_cut_off_while_other_tables_play(
    nursery: trio.Nursery,
) -> None:
    server, tables, listener = await start(nursery, BENCHMARK_LIMITS, tables=2)
    # The sluggard spectates table 0 with a tiny receive window and, after the welcome,
    # never reads again: its frames pile up in the host's queue for it until it overflows.
    host, port = listener.socket.getsockname()[:2]
    raw = socket.socket()
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
    raw.setblocking(False)
    sluggard = raw_socket_stream(raw)
    await sluggard.socket.connect((host, port))
    await sluggard.send_all(HELLO)
    await read_all(sluggard, until="welcome")
    await sluggard.send_all(encode_frame({"t": "spectate", "id": 1, "table": 0}))
    results: list[netbot.BotResult] = []
    with trio.fail_after(30):
        async with trio.open_nursery() as players:
            for number in range(2):
                players.start_soon(play_bot, listener, number, results, 0.0, 1000)
            while server.closes["slow_consumer"] < 1:
                await trio.sleep(0.01)
            at_cut = [t.matches_played for t in tables]
            while any(t.matches_played < n + 1 for t, n in zip(tables, at_cut, strict=True)):
                await trio.sleep(0.01)  # both tables finish a match after the cut
            players.cancel_scope.cancel()
    assert server.closes["slow_consumer"] == 1  # the sluggard alone
    for table in tables:
        assert all(m.winner is not None for m in table.finished)
    frames = await read_all(sluggard)  # what got through, then the close
    assert fatal_code(frames) in (None, "slow_consumer")  # the error may not get through: 13-3
    await sluggard.aclose()


def malformed_vectors() -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = json.loads((VECTORS / "malformed.json").read_text())["vectors"]
    return data


async def abuse_with_vector(listener: trio.SocketListener, vector: dict[str, Any]) -> str | None:
    stream = await trio.testing.open_stream_to_socket_listener(listener)
    payload = bytes.fromhex(vector["hex"])
    if vector["stage"] == "message":  # a message refused in READY: non-fatal, the line stays
        await stream.send_all(HELLO)
        await read_all(stream, until="welcome")
        await stream.send_all(payload)
        refusals = await read_all(stream, until="error")
        await stream.aclose()
        assert not refusals[-1]["fatal"], vector["name"]
        return str(refusals[-1]["code"])
    await stream.send_all(payload)
    if vector["stage"] == "eof":
        await stream.send_eof()
    frames = await read_all(stream)
    await stream.aclose()
    return fatal_code(frames)


async def test_malformed_oversized_slow_and_garbage_clients_get_their_codes_and_games_go_on(
    nursery: trio.Nursery,
) -> None:
    # A high sustained rate lets the bots play fast; the burst stays the documented 100. The
    # strangers all come from 127.0.0.1 here, so its share is raised to hold them all at once.
    limits = ConnectionLimits(rate=2_000, handshake_deadline=0.5, max_connections=256,
                              pending_pool=256, per_address=256)
    server, tables, listener = await start(nursery, limits, tables=2)
    results: list[netbot.BotResult] = []
    codes: dict[str, str | None] = {}

    async def abuse(vector: dict[str, Any]) -> None:
        codes[vector["name"]] = await abuse_with_vector(listener, vector)

    async def silent() -> None:
        stream = await trio.testing.open_stream_to_socket_listener(listener)
        codes["silent"] = fatal_code(await read_all(stream))

    async def half_hello() -> None:
        stream = await trio.testing.open_stream_to_socket_listener(listener)
        await stream.send_all(HELLO[:10])
        codes["half_hello"] = fatal_code(await read_all(stream))

    async def garbage(seed: int) -> None:
        stream = await trio.testing.open_stream_to_socket_listener(listener)
        noise = os.urandom(64)
        noise = bytes([0x00, 0x00, 0x00, 0x10]) + noise if seed % 2 else b"\xff" + noise
        await stream.send_all(noise)
        codes[f"garbage{seed}"] = fatal_code(await read_all(stream))

    async def flood() -> None:
        """A thousand frames the catalogue refuses, at once: the burst answers some, then
        the rate limit ends it."""
        stream = await trio.testing.open_stream_to_socket_listener(listener)
        await stream.send_all(HELLO)
        await read_all(stream, until="welcome")
        await stream.send_all(encode_frame({"t": "teleport", "id": 1}) * 1000)
        frames = await read_all(stream)
        refused = [f["code"] for f in frames if f.get("t") == "error" and not f["fatal"]]
        assert refused and set(refused) == {"unknown_message"}
        codes["flood"] = fatal_code(frames)

    with trio.fail_after(60):
        async with trio.open_nursery() as everyone:
            for number in range(2):
                everyone.start_soon(play_bot, listener, number, results)
            for vector in malformed_vectors():
                everyone.start_soon(abuse, vector)
            everyone.start_soon(silent)
            everyone.start_soon(half_hello)
            everyone.start_soon(flood)
            for seed in range(20):
                everyone.start_soon(garbage, seed)
    assert_clean(results, tables)
    for vector in malformed_vectors():
        # A frame over the client frame limit is refused by its length prefix, before its
        # content (SPEC [UNO-4-3]): what the vector finds wrong inside is never looked at.
        prefix = bytes.fromhex(vector["hex"])[:4]
        too_large = len(prefix) == 4 and int.from_bytes(prefix, "big") > MAX_CLIENT_FRAME
        expected = "frame_too_large" if too_large else vector["code"]
        assert codes[vector["name"]] == expected, vector["name"]
    assert codes["silent"] == codes["half_hello"] == "handshake_timeout"
    assert codes["flood"] == "rate_limited"
    for seed in range(20):
        assert codes[f"garbage{seed}"] in ("bad_frame", "frame_too_large", "duplicate_key")
    assert server.closes["handshake_timeout"] == 2 and server.closes["rate_limited"] == 1
