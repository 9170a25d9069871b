"""A headless host over real sockets refuses every kind of join a player can get wrong, and
hostile frames, while its tables play on (issue 43: on the compiled build any refused join
closed the whole table for everyone). Each refusal is answered with its code to the one who
asked; no table fails, the match in progress reaches its end, and the lobbies still start."""

from __future__ import annotations

import struct
from typing import Any

import msgpack
import trio
from client_net import MACHINE_SPEED
from spec_client import Connection

from client import netbot
from host.registry import Registry
from host.server import HostServer, ServerConfig
from host.settings import FAST_TIMINGS
from host.table import TableSettings
from unonet.rules import RuleSet

WAIT = 60.0


async def hello(port: int, name: str, **extra: Any) -> tuple[Connection, dict[str, Any]]:
    """A connection that said hello; the host's answer (welcome, or the error that ends it)."""
    conn = Connection(await trio.open_tcp_stream("127.0.0.1", port))
    await conn.send({"t": "hello", "v": [1], "client": {"name": "test", "version": "1"},
                     "features": [], "name": name, **extra})
    answer = await conn.receive()
    assert answer is not None
    return conn, answer


async def answer_to(conn: Connection, request: int) -> dict[str, Any]:
    """The host's answer to `request`: `accepted`, or the `error` naming it."""
    while True:
        message = await conn.receive()
        assert message is not None, "the host closed the connection"
        if message.get("t") == "ping":
            await conn.send({"t": "pong", "n": message["n"]})
        elif message.get("t") in ("accepted", "error") and request in (
                message.get("id"), message.get("ref")):
            return message


async def join(conn: Connection, request: int, table: int, name: str,
               seat: int | None = None) -> dict[str, Any]:
    message: dict[str, Any] = {"t": "join_table", "id": request, "table": table, "name": name}
    if seat is not None:
        message["seat"] = seat
    await conn.send(message)
    return await answer_to(conn, request)


async def seated_token(conn: Connection, request: int, table: int, name: str,
                       seat: int) -> bytes:
    """Join `table` at `seat` and return the seat token of its `seated` message."""
    await conn.send({"t": "join_table", "id": request, "table": table, "name": name,
                     "seat": seat})
    token: bytes | None = None
    accepted = False
    while token is None or not accepted:
        message = await conn.receive()
        assert message is not None, "the host closed the connection"
        if message.get("t") == "ping":
            await conn.send({"t": "pong", "n": message["n"]})
        elif message.get("t") == "seated":
            token = message["token"]
        elif request in (message.get("id"), message.get("ref")):
            assert message.get("t") == "accepted", message
            accepted = True
    return token


async def refused_with(conn: Connection, request: int, table: int, name: str,
                       seat: int | None = None) -> str:
    answer = await join(conn, request, table, name, seat)
    assert answer["t"] == "error", answer
    return str(answer["code"])


async def test_every_refused_join_and_hostile_frame_leaves_every_table_playing() -> None:
    registry = Registry(FAST_TIMINGS)
    rules = RuleSet(target=50)
    playing = registry.create_table(TableSettings("playing", rules, headless=True,
                                                  target_seats=2, capacity=2,
                                                  timings=FAST_TIMINGS))
    playing.add_bot()
    pair = registry.create_table(TableSettings("pair", rules, capacity=2, timings=FAST_TIMINGS))
    trio_table = registry.create_table(TableSettings("three", rules, capacity=3,
                                                     timings=FAST_TIMINGS))
    server = HostServer(registry, ServerConfig(bind="127.0.0.1", port=0, limits=MACHINE_SPEED))
    with trio.fail_after(WAIT):
        async with trio.open_nursery() as nursery:
            listeners = await nursery.start(server.serve)
            port = listeners[0].socket.getsockname()[1]
            result = netbot.BotResult()
            finished = trio.Event()

            async def play_table_0() -> None:
                stream = await trio.open_tcp_stream("127.0.0.1", port)
                await netbot.play(stream, name="player", table=playing.number, think=0,
                                  result=result, reaction=(0.0, 0.0))
                finished.set()

            nursery.start_soon(play_table_0)
            while playing.game is None:  # the match is on before the refusals start
                await trio.sleep(0.01)

            ada, _ = await hello(port, "ada")
            bea, _ = await hello(port, "bea")
            assert (await join(ada, 1, pair.number, "ada"))["t"] == "accepted"
            assert (await join(bea, 1, pair.number, "bea"))["t"] == "accepted"
            cid, _ = await hello(port, "cid")
            cid_token = await seated_token(cid, 1, trio_table.number, "cid", seat=0)

            late, _ = await hello(port, "late")
            # A late friend at the full table in mid-match; a third player in a two-seat
            # lobby; a seat someone has; a table that is not there.
            assert await refused_with(late, 1, playing.number, "late") in (
                "game_in_progress", "table_full")
            assert await refused_with(late, 2, pair.number, "late") == "table_full"
            assert await refused_with(late, 3, trio_table.number, "late", seat=0) == "seat_taken"
            assert await refused_with(late, 4, 99, "late") == "unknown_table"
            # A friend re-running `unonet join` with a seat token another connection holds
            # (cid's, in a lobby that does not start: the playing table's match may already
            # be over, and its token with it), and with a token that names no seat.
            _, answer = await hello(port, "again", resume=cid_token)
            assert answer["t"] == "error" and answer["code"] == "seat_in_use", answer
            _, answer = await hello(port, "again", resume=b"\x00" * 32)
            assert answer["t"] == "error" and answer["code"] == "invalid_resume", answer
            # Hostile frames: bad msgpack, a frame over the limit, a message of no known type,
            # an intent from a connection at no table.
            for payload in (b"\xc1\xc1", None):
                raw = await trio.open_tcp_stream("127.0.0.1", port)
                frame = (struct.pack(">I", len(payload)) + payload if payload is not None
                         else struct.pack(">I", 1 << 30))
                await raw.send_all(frame)
                await raw.aclose()
            await late.send({"t": "no_such_message", "id": 5})
            await late.send({"t": "intent", "id": 6, "action": {"kind": "draw"}})
            await late.send(msgpack.packb({"not": "a frame"}))  # no length prefix

            await finished.wait()
            assert len(result.matches) == 1 and not result.violations
            for table in (pair, trio_table):
                assert registry.tables.get(table.number) is table  # still open
            # The two-seat lobby still starts: both get ready, its owner starts the match.
            await ada.send({"t": "ready", "id": 2, "ready": True})
            await bea.send({"t": "ready", "id": 2, "ready": True})
            assert (await answer_to(ada, 2))["t"] == "accepted"
            assert (await answer_to(bea, 2))["t"] == "accepted"
            await ada.send({"t": "start", "id": 3})
            assert (await answer_to(ada, 3))["t"] == "accepted"
            while pair.game is None:
                await trio.sleep(0.01)
            assert registry.failed == {}
            nursery.cancel_scope.cancel()
