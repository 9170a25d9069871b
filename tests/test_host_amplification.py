"""Issue 13, point 2 on loopback: a client cannot make the host spend much CPU on its frames.

A real host (HostServer) with its default limits; the abusive clients are raw byte streams
(the helpers of test_host_robustness.py). Each abuse ends as SPEC 13 says -- cut off
(`frame_too_large`, `bad_frame`, `rate_limited`) or throttled (`chat_limited`, non-fatal) --
while an honest client on the same host keeps its ping round trip. Margins, not timing: the
floods are sent in one write, far over what the bucket refills in the seconds they take.
"""

from __future__ import annotations

from typing import Any

import trio
import trio.testing
from test_host_robustness import HELLO, fatal_code, read_all

from host.registry import Registry
from host.server import HostServer, ServerConfig
from host.settings import FAST_TIMINGS, ConnectionLimits
from host.table import TableSettings
from protocol.frames import encode_frame, pack
from protocol.limits import CHAT_BURST, MAX_CLIENT_CONTAINERS, MAX_CLIENT_FRAME, MAX_FRAME
from protocol.ratelimit import frame_cost
from unonet.rules import RuleSet


def framed(payload: bytes) -> bytes:
    return len(payload).to_bytes(4, "big") + payload


def seventy_millisecond_ping() -> bytes:
    """The frame of the issue: a ping of ~23,000 empty maps, within the old limits (arrays of
    255 maps in arrays of 60 and 30 under two keys: depth 4)."""
    row: list[dict[str, Any]] = [{}] * 255
    payload = pack({"t": "ping", "n": 1, "x": [row] * 60, "y": [row] * 30})
    assert MAX_CLIENT_FRAME < len(payload) <= MAX_FRAME and payload.count(b"\x80") > 22_000
    return framed(payload)


def worst_legal_frame() -> bytes:
    """A frame at the client limit with as many containers as allowed, padded with ints:
    the most work a single frame within every limit can ask for."""
    lists = [[0] * 120 for _ in range(MAX_CLIENT_CONTAINERS - 2)]
    message = {"t": "ping", "n": 1, "x": lists}
    while len(pack(message)) > MAX_CLIENT_FRAME:
        lists[-1].pop()
    return encode_frame(message)


async def serve(nursery: trio.Nursery) -> tuple[HostServer, Registry, trio.SocketListener]:
    registry = Registry(FAST_TIMINGS)
    registry.create_table(TableSettings("chat", RuleSet(), headless=True, target_seats=4,
                                        timings=FAST_TIMINGS))
    server = HostServer(registry, ServerConfig(bind="127.0.0.1", port=0,
                                               limits=ConnectionLimits()))
    listeners = await nursery.start(server.serve)
    return server, registry, listeners[0]


async def connect(listener: trio.SocketListener) -> trio.SocketStream:
    stream = await trio.testing.open_stream_to_socket_listener(listener)
    await stream.send_all(HELLO)
    frames = await read_all(stream, until="welcome")
    assert frames[-1]["t"] == "welcome"
    return stream


async def ping_round_trip(stream: trio.SocketStream, n: int) -> None:
    await stream.send_all(encode_frame({"t": "ping", "n": n}))
    frames = await read_all(stream, until="pong")
    assert {"t": "pong", "n": n} in frames


async def test_the_seventy_millisecond_ping_and_the_worst_legal_flood_are_cut_off(
    nursery: trio.Nursery,
) -> None:
    server, _, listener = await serve(nursery)
    honest = await connect(listener)
    await ping_round_trip(honest, 1)

    old = await connect(listener)
    await old.send_all(seventy_millisecond_ping())
    assert fatal_code(await read_all(old)) == "frame_too_large"

    flood = await connect(listener)
    frame = worst_legal_frame()
    count = 40  # 40 x 9 tokens: 3.6 times the burst; the rate refills 50 a second
    assert frame_cost(len(frame) - 4) * count > 3 * 100
    await flood.send_all(frame * count)
    answered = await read_all(flood)
    assert fatal_code(answered) == "rate_limited"
    assert sum(1 for f in answered if f.get("t") == "pong") < count  # cut before the end

    await ping_round_trip(honest, 2)  # the honest client is still answered
    assert server.closes["frame_too_large"] == 1 and server.closes["rate_limited"] == 1
    for stream in (honest, old, flood):
        await stream.aclose()


async def test_a_small_frame_of_many_empty_maps_is_refused(nursery: trio.Nursery) -> None:
    _, _, listener = await serve(nursery)
    stream = await connect(listener)
    await stream.send_all(encode_frame({"t": "ping", "n": 1, "x": [{}] * 250}))
    assert fatal_code(await read_all(stream)) == "bad_frame"
    await stream.aclose()


async def test_a_chat_flood_is_throttled_and_the_flooder_stays(nursery: trio.Nursery) -> None:
    _, registry, listener = await serve(nursery)
    [table] = registry.tables.values()
    flooder, reader = await connect(listener), await connect(listener)
    for number, (stream, name) in enumerate(((flooder, "fay"), (reader, "rex")), start=1):
        await stream.send_all(encode_frame({"t": "join_table", "id": number,
                                            "table": table.number, "name": name}))
        frames = await read_all(stream, until="accepted")
        assert any(f.get("t") == "accepted" for f in frames)
    lines = 4 * CHAT_BURST
    await flooder.send_all(b"".join(encode_frame({"t": "chat", "text": f"line {i}"})
                                    for i in range(lines)))
    await flooder.send_all(encode_frame({"t": "ping", "n": 7}))
    answered = await read_all(flooder, until="pong")
    limited = [f for f in answered if f.get("t") == "error" and f["code"] == "chat_limited"]
    assert len(limited) >= lines - CHAT_BURST and not any(f["fatal"] for f in limited)
    # everything relayed was queued for the reader before the flooder's pong: its own ping
    # comes back after all of it
    await reader.send_all(encode_frame({"t": "ping", "n": 9}))
    received = await read_all(reader, until="pong")
    relayed = [f for f in received if f.get("t") == "chat_message" and f["name"] == "fay"]
    assert 1 <= len(relayed) <= CHAT_BURST
    await ping_round_trip(flooder, 10)  # the flooder is still connected
    for stream in (flooder, reader):
        await stream.aclose()
