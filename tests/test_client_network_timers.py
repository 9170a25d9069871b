"""The link's clocks against scripted hosts on in-memory streams, under trio's autojump clock:
the handshake deadline, keepalive pings, the idle cutoff, the reconnect backoff, and which
endings are retried. In-memory streams keep real I/O out, so virtual time is exact."""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable

import pytest
import trio
import trio.testing

from client.link import CloseLink, Command, ConnectionChanged, Refused, Update
from client.lobby import SetReady
from client.network import Backoff, LinkConfig, run_link
from protocol.frames import FrameDecoder
from protocol.host_connection import HelloReceived, HostConnection
from protocol.limits import HANDSHAKE_DEADLINE, IDLE_CUTOFF, PING_INTERVAL, RECEIVE_CHUNK

Script = Callable[[trio.abc.Stream, int], Awaitable[None]]


class ScriptedHost:
    """Each connection gets a fresh in-memory stream pair; `script` plays the host's side."""

    def __init__(self, nursery: trio.Nursery, script: Script) -> None:
        self.nursery = nursery
        self.script = script
        self.connections = 0
        self.connected_at: list[float] = []
        self.received: list[list[str]] = []

    async def connect(self, config: LinkConfig, seen_before: bytes | None) -> trio.abc.Stream:
        client, host = trio.testing.memory_stream_pair()
        self.connections += 1
        self.connected_at.append(trio.current_time())
        self.received.append([])
        self.nursery.start_soon(self.script, host, self.connections)
        return client


async def hello(stream: trio.abc.Stream, log: list[str]) -> HostConnection:
    """Read the client's hello into a HostConnection (the host's sans-IO side)."""
    connection = HostConnection(trio.current_time())
    while True:
        data = bytes(await stream.receive_some(RECEIVE_CHUNK))
        for event in connection.receive_data(data, trio.current_time()):
            if isinstance(event, HelloReceived):
                log.append("hello")
                return connection
        assert data, "the client closed before its hello"


async def read_all(stream: trio.abc.Stream, log: list[str]) -> None:
    """Keep reading what the client sends and note each message type (none is answered)."""
    decoder = FrameDecoder()
    while data := bytes(await stream.receive_some(RECEIVE_CHUNK)):
        decoder.receive_data(data)
        while isinstance(frame := decoder.next_frame(), dict):
            log.append(str(frame["t"]))


async def run(config: LinkConfig, host: ScriptedHost,
              commands: list[Command] | None = None) -> list[Update]:
    commands_in, commands_out = trio.open_memory_channel[Command](math.inf)
    updates_in, updates_out = trio.open_memory_channel[Update](math.inf)
    for command in commands or []:
        commands_in.send_nowait(command)
    await run_link(config, commands_out, updates_in, connector=host.connect)
    updates_in.close()
    return [u async for u in updates_out]


def states(updates: list[Update]) -> list[str]:
    return [u.state for u in updates if isinstance(u, ConnectionChanged)]


CONFIG = LinkConfig("host.invalid", 7077, name="me", tls=False,
                    backoff=Backoff(first=0.5, factor=2.0, cap=10.0, attempts=3,
                                    first_attempts=2))


async def test_a_host_that_never_welcomes_is_given_up_after_the_first_attempts(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    async def mute(stream: trio.abc.Stream, number: int) -> None:
        await hello(stream, host.received[number - 1])
        await trio.sleep_forever()

    host = ScriptedHost(nursery, mute)
    start = trio.current_time()
    updates = await run(CONFIG, host)
    assert states(updates) == ["connecting", "connecting", "connecting", "lost"]
    assert host.connections == 3  # the first try and first_attempts retries
    gaps = [b - a for a, b in zip(host.connected_at, host.connected_at[1:], strict=False)]
    assert gaps == pytest.approx([HANDSHAKE_DEADLINE + 0.5, HANDSHAKE_DEADLINE + 1.0])
    assert trio.current_time() - start == pytest.approx(3 * HANDSHAKE_DEADLINE + 1.5)
    lost = updates[-1]
    assert isinstance(lost, ConnectionChanged) and "hello" in lost.detail


async def test_a_quiet_host_gets_pings_and_a_silent_one_is_cut_and_retried(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    async def welcome_then_silence(stream: trio.abc.Stream, number: int) -> None:
        log = host.received[number - 1]
        connection = await hello(stream, log)
        await stream.send_all(connection.welcome())
        if number == 1:
            with trio.move_on_after(IDLE_CUTOFF + 1):
                await read_all(stream, log)  # reads pings, answers none
        else:
            await stream.send_all(connection.close("quit", "that is all"))

    host = ScriptedHost(nursery, welcome_then_silence)
    start = trio.current_time()
    updates = await run(CONFIG, host)
    assert states(updates) == ["connecting", "connected", "reconnecting", "connected", "lost"]
    # Pinged at 15 s and 30 s of silence, cut at 45 s (HOST_LIMITS from the welcome).
    assert host.received[0].count("ping") == math.ceil(IDLE_CUTOFF / PING_INTERVAL) - 1
    reconnecting = next(u for u in updates
                        if isinstance(u, ConnectionChanged) and u.state == "reconnecting")
    assert "silent" in reconnecting.detail
    assert host.connected_at[1] - start == pytest.approx(IDLE_CUTOFF + 0.5)


@pytest.mark.parametrize(("code", "retried"), [("kicked", False), ("shutting_down", True),
                                               ("server_full", True),
                                               ("unsupported_version", False)])
async def test_fatal_errors_are_retried_only_when_connecting_again_can_help(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock, code: str, retried: bool
) -> None:
    async def refuse_first(stream: trio.abc.Stream, number: int) -> None:
        connection = await hello(stream, host.received[number - 1])
        if number == 1:
            await stream.send_all(connection.welcome())
            await stream.send_all(connection.refuse(code, "scripted"))
            await stream.aclose()
        else:
            await stream.send_all(connection.welcome())
            await stream.send_all(connection.close("quit", "that is all"))

    host = ScriptedHost(nursery, refuse_first)
    updates = await run(CONFIG, host, [])
    expected = (["connecting", "connected", "reconnecting", "connected", "lost"] if retried
                else ["connecting", "connected", "lost"])
    assert states(updates) == expected
    assert host.connections == (2 if retried else 1)
    # said once, by the connection's end (its code for the player's words), not also as a
    # refusal of something the player did (found in tmux: the same line twice)
    # (a kick's refusal stays: the screen empties our seat on it)
    assert [u.code for u in updates if isinstance(u, Refused)] == \
        (["kicked"] if code == "kicked" else [])
    ended = [u for u in updates if isinstance(u, ConnectionChanged) and u.code == code]
    assert ended and ended[0].state == ("reconnecting" if retried else "lost")


async def test_a_bye_ends_the_link_and_a_restart_is_waited_for(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    async def bye(stream: trio.abc.Stream, number: int) -> None:
        connection = await hello(stream, host.received[number - 1])
        await stream.send_all(connection.welcome())
        reason = "shutting_down" if number == 1 else "quit"
        await stream.send_all(connection.close(reason, "scripted"))
        await stream.aclose()

    host = ScriptedHost(nursery, bye)
    updates = await run(CONFIG, host)
    assert states(updates) == ["connecting", "connected", "reconnecting", "connected", "lost"]
    lost = updates[-1]
    assert isinstance(lost, ConnectionChanged) and lost.detail.startswith("quit")


async def test_leaving_while_offline_ends_at_once_and_offline_sends_are_refused(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    async def drop(stream: trio.abc.Stream, number: int) -> None:
        connection = await hello(stream, host.received[number - 1])
        await stream.send_all(connection.welcome())
        await stream.aclose()

    host = ScriptedHost(nursery, drop)
    commands_in, commands_out = trio.open_memory_channel[Command](math.inf)
    updates_in, updates_out = trio.open_memory_channel[Update](math.inf)
    slow = LinkConfig("host.invalid", 7077, tls=False, backoff=Backoff(first=30.0))
    async with trio.open_nursery() as inner:
        inner.start_soon(lambda: run_link(slow, commands_out, updates_in,
                                          connector=host.connect))
        seen: list[Update] = []
        while "reconnecting" not in states(seen):
            seen.append(await updates_out.receive())
        commands_in.send_nowait(SetReady(True))
        refused = await updates_out.receive()
        assert refused == Refused("not_connected", "not connected: reconnecting")
        before = trio.current_time()
        commands_in.send_nowait(CloseLink())
        closed = await updates_out.receive()
        assert closed == ConnectionChanged("closed")
        assert trio.current_time() == before  # no waiting out the 30 s pause
    assert host.connections == 1


async def test_a_host_that_welcomes_and_drops_every_time_is_given_up(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    async def welcome_then_drop(stream: trio.abc.Stream, number: int) -> None:
        connection = await hello(stream, host.received[number - 1])
        await stream.send_all(connection.welcome())
        await stream.aclose()  # dropped at once, every time

    host = ScriptedHost(nursery, welcome_then_drop)
    updates = await run(CONFIG, host)
    # The count of tries does not start again after a welcome that did not last.
    assert host.connections == 1 + CONFIG.backoff.attempts
    assert states(updates)[-1] == "lost"


async def test_a_connection_that_lasted_starts_the_count_again(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    async def long_then_short(stream: trio.abc.Stream, number: int) -> None:
        log = host.received[number - 1]
        connection = await hello(stream, log)
        await stream.send_all(connection.welcome())
        if number in (1, 3):  # these two stay up long enough to count as stable
            await trio.sleep(CONFIG.backoff.stable + 1)  # under the idle cutoff: not cut
        await stream.aclose()

    host = ScriptedHost(nursery, long_then_short)
    updates = await run(CONFIG, host)
    # 1 stable, 2 short, 3 stable (count starts again), then `attempts` short ones.
    assert host.connections == 3 + CONFIG.backoff.attempts
    assert states(updates)[-1] == "lost"
