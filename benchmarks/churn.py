"""Churn benchmark of the host: does it give back what connections and abandoned tables took?

    .venv/bin/python benchmarks/churn.py [--cycles 10000] [--tables 2000] [--every 2000]

A real host (HostServer, default ConnectionLimits and TableTimings, plain TCP) runs on
loopback in this process, so that its structures can be read; the clients are raw sockets
speaking raw frames, one at a time, so they hold nothing between cycles:

- `--cycles` connect/disconnect cycles: TCP connect, hello, wait for welcome, close;
- `--tables` created-and-abandoned tables: hello, create_table, wait for seated, close.

It prints the process's RSS at the start, after a warm-up (the first cycles load modules and
fill caches once: that is the baseline), every `--every` cycles and at the end, with the ratio
to the start and to the baseline in words, and the size of every container the server, its
admission and its registry hold (every dict, list, set and deque attribute, found by walking
their attributes, so a new structure is counted without naming it here).
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
from collections import deque
from pathlib import Path
from typing import Any

import trio

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from host.registry import Registry  # noqa: E402
from host.server import HostServer, ServerConfig  # noqa: E402
from protocol.examples import EXAMPLES  # noqa: E402
from protocol.frames import EOF, NEED_DATA, FrameDecoder, encode_frame  # noqa: E402
from protocol.limits import RECEIVE_CHUNK  # noqa: E402

HELLO = encode_frame(EXAMPLES["hello"])
CREATE = encode_frame({"t": "create_table", "id": 1, "name": "churn"})
WARM_UP = 200
"""Cycles of each kind before the baseline is taken."""


def rss_bytes() -> int:
    """This process's resident set size, from /proc (Linux)."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


async def until(stream: trio.SocketStream, kind: str) -> None:
    """Read frames until one of type `kind` (or the host closes: a failure here)."""
    decoder = FrameDecoder()
    while True:
        data = bytes(await stream.receive_some(RECEIVE_CHUNK))
        decoder.receive_data(data)
        while (frame := decoder.next_frame()) is not NEED_DATA:
            if frame is EOF:
                raise RuntimeError(f"the host closed before {kind}")
            if isinstance(frame, dict) and frame.get("t") == kind:
                return
            if isinstance(frame, dict) and frame.get("t") == "error" and frame.get("fatal"):
                raise RuntimeError(f"the host refused: {frame}")


async def cycle(port: int, table: bool) -> None:
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    try:
        await stream.send_all(HELLO)
        await until(stream, "welcome")
        if table:
            await stream.send_all(CREATE)
            await until(stream, "seated")
    finally:
        await stream.aclose()


async def settle(server: HostServer) -> None:
    """Wait until the host has seen every client go."""
    while server.connections or server.sizes()["handlers"]:
        await trio.sleep(0.01)
    await trio.sleep(0.05)


def words(ratio: float, what: str) -> str:
    change = (ratio - 1.0) * 100
    if abs(change) < 0.5:
        return f"within 0.5% of the {what}"
    return f"{abs(change):.1f}% {'above' if change > 0 else 'below'} the {what}"


def containers(owner: str, obj: Any) -> dict[str, int]:
    """The size of every container attribute of `obj`."""
    return {f"{owner}.{name}": len(value) for name, value in vars(obj).items()
            if isinstance(value, dict | list | set | frozenset | deque)}


class Report:
    def __init__(self, server: HostServer) -> None:
        self.server = server
        self.start = rss_bytes()
        self.baseline: int | None = None

    def line(self, label: str) -> None:
        gc.collect()
        rss = rss_bytes()
        text = f"{label:>34}: RSS {rss / 2**20:7.1f} MiB"
        text += f"  x{rss / self.start:.3f} of start ({words(rss / self.start, 'start')})"
        if self.baseline is not None:
            ratio = rss / self.baseline
            text += f", x{ratio:.3f} of baseline ({words(ratio, 'baseline')})"
        print(text, flush=True)
        sizes = {**containers("server", self.server),
                 **containers("admission", self.server.admission),
                 **containers("registry", self.server.registry)}
        print(f"{'':>36}" + " ".join(f"{k}={v}" for k, v in sizes.items()), flush=True)


async def main(cycles: int, tables: int, every: int) -> None:
    registry = Registry()
    server = HostServer(registry, ServerConfig(bind="127.0.0.1", port=0))
    async with trio.open_nursery() as nursery:
        listeners = await nursery.start(server.serve)
        port = listeners[0].socket.getsockname()[1]
        report = Report(server)
        report.line("start (host up)")
        for kind in (False, True):
            for _ in range(WARM_UP):
                await cycle(port, kind)
        await settle(server)
        report.baseline = rss_bytes()
        report.line(f"baseline (after {WARM_UP}+{WARM_UP} warm-up)")
        for done in range(1, cycles + 1):
            await cycle(port, False)
            if done % every == 0:
                await settle(server)
                report.line(f"{done} connect/disconnect cycles")
        for done in range(1, tables + 1):
            await cycle(port, True)
            if done % every == 0 or done == tables:
                await settle(server)
                report.line(f"{done} abandoned tables")
        await settle(server)
        report.line("end")
        print(f"closes: {dict(server.closes)}")
        nursery.cancel_scope.cancel()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cycles", type=int, default=10_000)
    parser.add_argument("--tables", type=int, default=2_000)
    parser.add_argument("--every", type=int, default=2_000)
    args = parser.parse_args()
    trio.run(main, args.cycles, args.tables, args.every)
