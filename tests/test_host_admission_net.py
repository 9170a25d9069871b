"""Nobody locks the host: half-open sockets, idle squatters and silent TLS sockets never keep a
new client or a dropped player out (issue 13, point 1; SPEC.md 6 [UNO-6-9], 3 [UNO-3-3]).

Real sockets on loopback. Strangers come from other loopback addresses (127.0.0.2 and up: every
127/8 address is this machine), so per-address shares are what they are on the internet. Timers
run on the autojump clock.
"""

from __future__ import annotations

import ssl
from pathlib import Path
from typing import Any

import trio
import trio.testing
from test_host_robustness import HELLO, fatal_code, read_all, start

from client.tls import client_context
from host.registry import Registry
from host.server import HostServer, ServerConfig
from host.settings import ConnectionLimits
from host.tls import load_or_create_identity, server_context
from protocol.examples import EXAMPLES
from protocol.frames import EOF, NEED_DATA, FrameDecoder, encode_frame
from protocol.limits import RECEIVE_CHUNK

LIMITS = ConnectionLimits()
"""The defaults: what a host opened to the internet runs with."""


async def connect_from(source: str, port: int) -> trio.SocketStream:
    """A TCP connection to the host on 127.0.0.1 from the loopback address `source`."""
    sock = trio.socket.socket()
    await sock.bind((source, 0))
    await sock.connect(("127.0.0.1", port))
    return trio.SocketStream(sock)


def port_of(listener: trio.SocketListener) -> int:
    return int(listener.socket.getsockname()[1])


class RawClient:
    """A client speaking raw frames: reads what the host sends, answers its pings."""

    def __init__(self, stream: trio.abc.Stream) -> None:
        self.stream = stream
        self.decoder = FrameDecoder()
        self.frames: list[dict[str, Any]] = []
        self.closed = False

    async def hello(self, message: dict[str, Any] | None = None) -> str:
        """Send a hello; the type of the answer (welcome or error), or "closed"."""
        await self.stream.send_all(encode_frame(message or EXAMPLES["hello"]))
        answer = await self.next_frame()
        if answer is None:
            return "closed"
        return str(answer["t"])

    async def next_frame(self) -> dict[str, Any] | None:
        while True:
            frame = self.decoder.next_frame()
            if isinstance(frame, dict):
                self.frames.append(frame)
                return frame
            if frame is EOF or self.closed:
                self.closed = True
                return None
            assert frame is NEED_DATA
            try:
                data = bytes(await self.stream.receive_some(RECEIVE_CHUNK))
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                data = b""
            self.closed = not data
            self.decoder.receive_data(data)

    async def idle(self) -> None:
        """Stay connected doing nothing but answer pings, as a squatter does."""
        while (frame := await self.next_frame()) is not None:
            if frame["t"] == "ping":
                await self.stream.send_all(encode_frame({"t": "pong", "n": frame["n"]}))

    async def ping_every(self, seconds: float) -> None:
        """Send our own pings, as the issue's squatters did (pings are not activity)."""
        for n in range(1, 1_000_000):
            await trio.sleep(seconds)
            await self.stream.send_all(encode_frame({"t": "ping", "n": n}))

    async def until(self, kind: str) -> dict[str, Any]:
        while (frame := await self.next_frame()) is not None:
            if frame["t"] == kind:
                return frame
        raise AssertionError(f"closed before {kind}: {self.frames}")

    def fatal(self) -> str | None:
        return fatal_code(self.frames)


async def test_sixty_half_open_connections_from_one_address_do_not_keep_another_out(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    server, _, listener = await start(nursery, LIMITS)
    port = port_of(listener)
    half_open = [await connect_from("127.0.0.2", port) for _ in range(70)]
    for stream in half_open[::2]:
        await stream.send_all(HELLO[:10])  # half a hello: a slowloris
    await trio.sleep(1.0)  # well within the 10 s handshake deadline
    honest = RawClient(await connect_from("127.0.0.1", port))
    assert await honest.hello() == "welcome"
    assert server.admission.pending <= LIMITS.pending_pool
    assert server.admission.admitted == 1
    for stream in half_open:
        await stream.aclose()


async def test_idle_connections_that_only_ping_do_not_keep_a_new_client_out(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    server, _, listener = await start(nursery, LIMITS)
    port = port_of(listener)
    squatters: list[RawClient] = []
    async with trio.open_nursery() as idlers:
        for number in range(LIMITS.max_connections):  # 8 addresses, 8 each: every slot
            squatter = RawClient(await connect_from(f"127.0.0.{2 + number // 8}", port))
            if await squatter.hello() == "welcome":
                idlers.start_soon(squatter.idle)
                if number % 2 == 0:  # the oldest, first to go, pings too
                    idlers.start_soon(squatter.ping_every, 10.0)
            squatters.append(squatter)
        await trio.sleep(LIMITS.squat_after + 2 * LIMITS.ping_interval)  # pinged and ponged
        assert all(not s.closed for s in squatters if s.frames[0]["t"] == "welcome")
        newcomer = RawClient(await connect_from("127.0.0.1", port))
        assert await newcomer.hello() == "welcome"
        await trio.sleep(1.0)
        dropped = [s for s in squatters if s.frames[0]["t"] == "welcome" and s.closed]
        assert len(dropped) == 1 and dropped[0].fatal() == "server_full"
        assert "idle" in dropped[0].frames[-1]["msg"]
        assert dropped[0] is squatters[0]  # the oldest idle one
        assert server.admission.admitted == LIMITS.max_connections - LIMITS.resume_reserve
        idlers.cancel_scope.cancel()


async def test_a_connection_idle_at_no_table_is_closed_even_when_the_host_is_not_full(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    server, _, listener = await start(nursery, LIMITS)
    idler = RawClient(await connect_from("127.0.0.2", port_of(listener)))
    assert await idler.hello() == "welcome"
    with trio.fail_after(LIMITS.lobby_idle + 2 * LIMITS.lobby_sweep):
        await idler.idle()  # it answers every ping, and is closed all the same
    assert idler.fatal() == "idle_timeout"
    while server.admission.admitted:
        await trio.sleep(0.1)
    assert server.closes["idle_timeout"] == 1


async def test_an_address_past_its_share_is_refused_with_a_reason_others_are_not(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    _, _, listener = await start(nursery, LIMITS)
    port = port_of(listener)
    mine: list[RawClient] = []
    for _ in range(LIMITS.per_address):
        client = RawClient(await connect_from("127.0.0.2", port))
        assert await client.hello() == "welcome"
        await client.stream.send_all(encode_frame({"t": "spectate", "id": 1, "table": 0}))
        mine.append(client)
    one_more = RawClient(await connect_from("127.0.0.2", port))
    assert await one_more.hello() == "error"
    assert one_more.fatal() == "server_full" and "share" in one_more.frames[-1]["msg"]
    other = RawClient(await connect_from("127.0.0.3", port))
    assert await other.hello() == "welcome"
    for client in mine:
        await client.stream.aclose()


async def test_a_dropped_player_resumes_its_seat_while_the_host_is_otherwise_full(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    _, (table,), listener = await start(nursery, LIMITS)
    port = port_of(listener)
    ana = RawClient(await connect_from("127.0.0.1", port))
    assert await ana.hello() == "welcome"
    await ana.stream.send_all(encode_frame({"t": "join_table", "id": 1, "table": 0,
                                            "name": "ana"}))
    seated = await ana.until("seated")
    await ana.stream.send_all(encode_frame({"t": "ready", "id": 2, "ready": True}))
    while table.game is None:
        await trio.sleep(0.1)
    await ana.stream.aclose()  # ana drops in mid-match; her seat waits for her
    fillers: list[RawClient] = []
    for number in range(LIMITS.max_connections):  # busy newcomers fill every slot
        filler = RawClient(await connect_from(f"127.0.0.{2 + number // 8}", port))
        if await filler.hello() == "welcome":
            await filler.stream.send_all(encode_frame({"t": "spectate", "id": 1, "table": 0}))
        fillers.append(filler)
    late = RawClient(await connect_from("127.0.0.10", port))
    assert await late.hello() == "error" and late.fatal() == "server_full"
    back = RawClient(await connect_from("127.0.0.1", port))
    hello = dict(EXAMPLES["hello"], resume=seated["token"])
    assert await back.hello(hello) == "welcome"
    assert back.frames[0]["session"] == {"table": 0, "seat": seated["seat"]}
    for client in fillers:
        await client.stream.aclose()


async def tls_host(nursery: trio.Nursery, tmp_path: Path) -> tuple[HostServer, int]:
    registry = Registry()
    context = server_context(load_or_create_identity(tmp_path))
    server = HostServer(registry, ServerConfig(bind="127.0.0.1", port=0, tls=context))
    listeners = await nursery.start(server.serve)
    return server, port_of(listeners[0])


async def tls_hello(port: int, alpn: list[str] | None, source: str = "127.0.0.1") -> str:
    """Connect over TLS offering `alpn` (None: no ALPN at all), send a hello: the answer."""
    if alpn == ["uno/1"]:
        context = client_context()
    else:
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        if alpn is not None:
            context.set_alpn_protocols(alpn)
    stream = trio.SSLStream(await connect_from(source, port), context)
    try:
        await stream.do_handshake()
        return await RawClient(stream).hello()
    except trio.BrokenResourceError:
        return "closed"
    finally:
        await trio.aclose_forcefully(stream)


async def test_a_hundred_tcp_connections_that_never_send_a_client_hello_do_not_keep_tls_out(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock, tmp_path: Path
) -> None:
    server, port = await tls_host(nursery, tmp_path)
    silent = [await connect_from("127.0.0.2", port) for _ in range(100)]
    await trio.sleep(1.0)
    assert await tls_hello(port, ["uno/1"]) == "welcome"
    assert server.admission.pending <= LIMITS.pending_pool
    assert server.closes["server_full"] >= 100 - LIMITS.pending_pool
    for stream in silent:
        await stream.aclose()


async def test_a_tls_client_offering_no_alpn_or_http11_is_refused(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock, tmp_path: Path
) -> None:
    server, port = await tls_host(nursery, tmp_path)
    assert await tls_hello(port, None) == "closed"
    assert await tls_hello(port, ["http/1.1"]) == "closed"
    assert await tls_hello(port, ["uno/1"]) == "welcome"
    assert server.closes["handshake_failed"] == 2


async def test_closes_stays_bounded_with_a_thousand_client_chosen_error_codes(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    server, _, listener = await start(nursery, LIMITS)
    port = port_of(listener)
    for number in range(1000):
        client = RawClient(await connect_from("127.0.0.2", port))
        assert await client.hello() == "welcome"
        await client.stream.send_all(encode_frame(
            {"t": "error", "code": f"made_up_{number}", "fatal": True, "msg": "bye"}))
        await read_all(client.stream)
        await client.stream.aclose()
    while sum(server.closes.values()) < 1000:
        await trio.sleep(0.1)
    assert server.closes["other"] == 1000
    assert len(server.closes) == 1


async def test_a_seat_whose_client_just_closed_is_not_alive_before_the_host_reads_the_close(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    server, (table,), listener = await start(nursery, LIMITS)
    tcp = await connect_from("127.0.0.1", port_of(listener))
    ana = RawClient(tcp)
    assert await ana.hello() == "welcome"
    await ana.stream.send_all(encode_frame({"t": "join_table", "id": 1, "table": 0,
                                            "name": "ana"}))
    seated = await ana.until("seated")
    holder = table.room.seats[seated["seat"]]
    assert holder is not None and holder.conn is not None
    connection = server.connections[holder.conn]
    assert connection.alive(trio.current_time())  # it just sent a frame
    tcp.socket.close()  # killed: no checkpoint, the host has not read the close yet
    assert holder.conn in server.connections
    assert not connection.alive(trio.current_time())  # so a resume right now is not refused
