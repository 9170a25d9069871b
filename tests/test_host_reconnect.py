"""A dropped player keeps its seat: back with its token it gets a snapshot first; gone past the
grace period, a bot plays its turns. Also: TLS through the real server, pin checked."""

from __future__ import annotations

import ssl
from pathlib import Path

import pytest
import trio
import trio.testing

from client.tls import HostKeyMismatch, format_fingerprint, open_pinned_stream
from host.registry import Registry
from host.server import HostServer, ServerConfig
from host.settings import FAST_TIMINGS, TableTimings
from host.table import Table, TableSettings
from host.tls import load_or_create_identity, server_context
from protocol.client_session import (
    ClientSession,
    GameEvent,
    MessageReceived,
    PeerError,
    RequestRefused,
    SessionEvent,
    Snapshot,
    Welcomed,
)
from protocol.connection import ConnectionFailed, MessageRefused
from protocol.limits import RECEIVE_CHUNK
from unonet.rules import RuleSet


class RawClient:
    """A bare protocol client: sends what it is told, collects what it gets."""

    def __init__(self, stream: trio.abc.Stream, resume: bytes | None = None) -> None:
        self.stream = stream
        self.session = ClientSession(name="ana", resume=resume)
        self.events: list[SessionEvent] = []

    async def send(self, frame: bytes) -> None:
        await self.stream.send_all(frame)

    async def until(self, wanted: type, count: int = 1) -> list[SessionEvent]:
        """Read until `count` events of type `wanted` have arrived (pongs answered)."""
        while sum(isinstance(e, wanted) for e in self.events) < count:
            data = bytes(await self.stream.receive_some(RECEIVE_CHUNK))
            assert data, "the host closed the connection"
            self.events += self.session.receive_data(data)
            pending = self.session.data_to_send()
            if pending:
                await self.stream.send_all(pending)
        return self.events

    def messages(self, kind: str) -> list[dict[str, object]]:
        return [dict(e.message) for e in self.events
                if isinstance(e, MessageReceived) and e.message["t"] == kind]


async def host_with_one_bot(
    nursery: trio.Nursery, tls: ssl.SSLContext | None = None, timings: TableTimings = FAST_TIMINGS
) -> tuple[Table, trio.SocketListener]:
    registry = Registry(timings)
    table = registry.create_table(TableSettings("t", RuleSet(target=500), headless=True,
                                                target_seats=2, timings=timings))
    table.add_bot()
    server = HostServer(registry, ServerConfig(bind="127.0.0.1", port=0, tls=tls))
    listeners = await nursery.start(server.serve)
    return table, listeners[0]


async def join_and_start(listener: trio.SocketListener) -> RawClient:
    stream = await trio.testing.open_stream_to_socket_listener(listener)
    client = RawClient(stream)
    await client.send(client.session.hello())
    await client.until(Welcomed)
    await client.send(client.session.request("join_table", table=0, name="ana")[1])
    await client.send(client.session.request("ready", ready=True)[1])
    await client.until(Snapshot)
    return client


async def test_a_dropped_player_resumes_with_its_token_and_gets_a_snapshot_first(
    nursery: trio.Nursery,
) -> None:
    table, listener = await host_with_one_bot(nursery)
    client = await join_and_start(listener)
    token = client.messages("seated")[0]["token"]
    assert isinstance(token, bytes)
    await client.stream.aclose()
    with trio.fail_after(5):
        while table.room.seats[1] is None or table.room.seats[1].conn is not None:
            await trio.sleep(0.01)
    stream = await trio.testing.open_stream_to_socket_listener(listener)
    back = RawClient(stream, resume=token)
    await back.send(back.session.hello())
    with trio.fail_after(5):
        events = await back.until(Snapshot)
    welcomed = next(e for e in events if isinstance(e, Welcomed))
    assert welcomed.session == {"table": 0, "seat": 1}
    game = [e for e in events if isinstance(e, Snapshot | GameEvent)]
    assert isinstance(game[0], Snapshot)
    assert table.game is not None
    assert tuple(game[0].view["hand"]) == table.game.match.view(1).hand
    assert table.room.seats[1] is not None and table.room.seats[1].conn is not None


def error_code(event: SessionEvent) -> str | None:
    """The code of the error `event` carries (a refusal, the peer's error, a failure), if any."""
    if isinstance(event, RequestRefused | PeerError | MessageRefused | ConnectionFailed):
        return event.error.code
    return None


def game_over(table: Table) -> bool:
    """`table.game.over` read afresh (mypy would keep it narrowed while the game goes on)."""
    assert table.game is not None
    return table.game.over


async def test_a_wrong_token_is_refused(nursery: trio.Nursery) -> None:
    _, listener = await host_with_one_bot(nursery)
    stream = await trio.testing.open_stream_to_socket_listener(listener)
    client = RawClient(stream, resume=bytes(32))
    await client.send(client.session.hello())
    with trio.fail_after(5):
        while not any(error_code(e) is not None for e in client.events):
            data = bytes(await stream.receive_some(RECEIVE_CHUNK))
            if not data:
                break
            client.events += client.session.receive_data(data)
    codes = [code for e in client.events if (code := error_code(e)) is not None]
    assert "invalid_resume" in codes


async def test_a_bot_takes_the_seat_after_the_grace_period(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    timings = TableTimings(grace=30.0, seed_phase=2.0, bot_delay=0.5, round_break=0.0,
                           match_break=10_000.0)
    table, listener = await host_with_one_bot(nursery, timings=timings)
    client = await join_and_start(listener)
    await client.stream.aclose()
    dropped_at = trio.current_time()
    seat = table.room.seats[1]
    assert seat is not None
    with trio.fail_after(timings.grace + 10):
        while not seat.taken_over:
            await trio.sleep(0.25)
    assert timings.grace <= trio.current_time() - dropped_at < timings.grace + 1
    assert table.game is not None and not table.game.over
    with trio.fail_after(100_000):  # the bot plays the seat's turns: the match reaches its end
        while not game_over(table):
            await trio.sleep(1)
    assert table.game.match.winner is not None


async def test_tls_through_the_server_checks_the_pin(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    identity = load_or_create_identity(tmp_path)
    _, listener = await host_with_one_bot(nursery, server_context(identity))
    tcp = await trio.testing.open_stream_to_socket_listener(listener)
    stream, seen = await open_pinned_stream(tcp, identity.display)
    assert seen == identity.fingerprint
    client = RawClient(stream)
    await client.send(client.session.hello())
    with trio.fail_after(5):
        await client.until(Welcomed)
    await stream.aclose()
    tcp = await trio.testing.open_stream_to_socket_listener(listener)
    with pytest.raises(HostKeyMismatch):
        await open_pinned_stream(tcp, format_fingerprint(bytes(32)))
