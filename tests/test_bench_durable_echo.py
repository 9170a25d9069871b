"""The durable echo of benchmarks/host.py is what its figures say: every request is on disk
(written to its file, then fsync'd) before its answer comes back, and the answer is the
request, framed as the plain echo frames it."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
import trio

from benchmarks import host_load
from benchmarks.host_load import ECHO_MESSAGE, Stats
from protocol.frames import FrameDecoder, encode_frame


async def test_every_answer_comes_after_its_request_is_fsynced(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    journal = tmp_path / "durable-echo"
    synced: list[int] = []  # the file's size at each fsync, once it returned
    real_fsync = os.fsync

    def recording_fsync(fd: int) -> None:
        real_fsync(fd)
        synced.append(os.fstat(fd).st_size)

    monkeypatch.setattr("benchmarks.host_load.os.fsync", recording_fsync)
    frame = encode_frame(ECHO_MESSAGE, check=False)
    async with trio.open_nursery() as nursery:
        port = await nursery.start(host_load.echo_server, str(journal))
        stream = await trio.open_tcp_stream("127.0.0.1", port)
        decoder = FrameDecoder()
        for sent in range(1, 21):
            await stream.send_all(frame)
            while not isinstance(got := decoder.next_frame(), dict):
                decoder.receive_data(await stream.receive_some(65_536))
            assert got == ECHO_MESSAGE
            assert synced and synced[-1] >= sent * len(frame)  # on disk before the answer
        await stream.aclose()
        nursery.cancel_scope.cancel()
    assert journal.read_bytes() == frame * 20


async def test_durable_echo_clients_time_their_round_trips_apart_from_the_echo(
        tmp_path: Path) -> None:
    stats = Stats(counting=True)
    async with trio.open_nursery() as nursery:
        port = await nursery.start(host_load.echo_server, str(tmp_path / "durable-echo"))

        async def client(i: int) -> None:
            await host_load.run_echo_client(port, stats, (0.0, 0.0), random.Random(i),
                                            durable=True)

        for index in range(3):
            nursery.start_soon(client, index)
        with trio.fail_after(20):
            while len(stats.durable_latencies) < 30:
                await trio.sleep(0.01)
        nursery.cancel_scope.cancel()
    assert stats.echo_latencies == []
    assert all(latency > 0 for latency in stats.durable_latencies)
