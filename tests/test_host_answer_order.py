"""SPEC.md [UNO-7-5]: a host answers requests in the order they came, also when one read holds
several frames and the protocol answers some of them itself (a refusal, a pong) while the
tables answer the others."""

from __future__ import annotations

from typing import Any

import trio
import trio.testing

from host.registry import Registry
from host.server import HostServer, ServerConfig
from host.settings import BENCHMARK_LIMITS
from protocol.connection import MessageRefused
from protocol.frames import FrameDecoder, encode_frame
from protocol.host_connection import HostConnection, RequestReceived

HELLO = {"t": "hello", "v": [1], "features": [], "name": "a",
         "client": {"name": "test", "version": "1"}}

ONE_READ = [
    {"t": "list_tables", "id": 1},  # answered by the tables
    {"t": "spectate", "id": 2, "table": "x"},  # refused by the protocol: bad_message
    {"t": "ping", "n": 3},  # answered by the protocol: pong
    {"t": "list_tables", "id": 4},
]


def test_the_protocol_says_which_of_its_replies_come_before_each_event() -> None:
    host = HostConnection(now=0.0)
    host.receive_data(encode_frame(HELLO), 0.0)
    host.welcome()
    host.data_to_send()
    events = host.receive_data(b"".join(encode_frame(m) for m in ONE_READ), 1.0)
    replies = host.data_to_send()
    assert [type(e) for e in events] == [RequestReceived, MessageRefused, RequestReceived]
    decoder = FrameDecoder()
    decoder.receive_data(replies)
    frames = []
    while isinstance(frame := decoder.next_frame(), dict):
        frames.append((frame["t"], frame.get("ref", frame.get("n"))))
    assert frames == [("error", 2), ("pong", 3)]
    # Nothing answers the frames before the first two events; the refusal and the pong
    # answer frames before the third: the caller sends them before its answer.
    assert host.reply_marks == [0, 0, len(replies)]


async def test_a_read_of_several_frames_is_answered_in_their_order(
    nursery: trio.Nursery,
) -> None:
    server = HostServer(Registry(), ServerConfig(bind="127.0.0.1", port=0,
                                                 limits=BENCHMARK_LIMITS))
    listener = (await nursery.start(server.serve))[0]
    stream = await trio.testing.open_stream_to_socket_listener(listener)
    decoder = FrameDecoder()

    async def next_frame() -> dict[str, Any]:
        while not isinstance(frame := decoder.next_frame(), dict):
            decoder.receive_data(await stream.receive_some(65536))
        return frame

    await stream.send_all(encode_frame(HELLO))
    assert (await next_frame())["t"] == "welcome"
    await stream.send_all(b"".join(encode_frame(m) for m in ONE_READ))
    got: list[tuple[str, Any]] = []
    with trio.fail_after(10):
        while len(got) < 6:
            frame = await next_frame()
            got.append((frame["t"], frame.get("id", frame.get("ref", frame.get("n")))))
    assert got == [("accepted", 1), ("tables", None), ("error", 2), ("pong", 3),
                   ("accepted", 4), ("tables", None)]
