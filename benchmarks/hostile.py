"""What hostile clients within the limits cost an honest player (issue 13, point 2).

    .venv/bin/python benchmarks/hostile.py [--reps 3] [--seconds 4]

A real host (host.server.HostServer, its default ConnectionLimits but for the per-address and
connection caps, since every client here comes from 127.0.0.1) runs in its own process. An
honest client in this process measures its ping round trip (ping -> pong, one every 25 ms:
within its rate) in four phases, each with its load in a separate process:

- idle: nothing else;
- abuse x1, abuse x16: that many clients each sending the worst frames the host's announced
  limits allow, at the highest rate the limits allow (95% of it, so as not to be cut off):
  with `max_client_frame` announced, frames of that size with `max_client_containers`
  containers full of ints (the dearest legal frame found); without it (the code before
  issue 13), 64 KiB pings of ~64,000 empty maps, the shape that cost the most to decode;
- chat x50: 50 members at 5 tables, each chatting 512-character lines at its limit
  (`chat_rate` lines/s if announced, else the frame rate).

Each repetition runs idle then the three loads, so each load is compared with the idle
measured just before it (paired); the ratio of p50s is given as the median and range over the
repetitions, with the host's CPU use in each phase. The issue's target: within 2x of idle.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import trio

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from host.registry import Registry  # noqa: E402
from host.server import HostServer, ServerConfig  # noqa: E402
from host.settings import FAST_TIMINGS, ConnectionLimits  # noqa: E402
from host.table import TableSettings  # noqa: E402
from protocol.frames import EOF, NEED_DATA, FrameDecoder, encode_frame, pack  # noqa: E402

HELLO = encode_frame({"t": "hello", "v": [1], "client": {"name": "hostile", "version": "1"},
                      "features": [], "name": "bench"})
CHAT_TABLES = 5
PING_EVERY = 0.025
RATE_SHARE = float(os.environ.get("RATE_SHARE", "0.95"))


# -- the host ----------------------------------------------------------------------------------


async def serve() -> None:
    registry = Registry(FAST_TIMINGS)
    for number in range(CHAT_TABLES):
        registry.create_table(TableSettings(f"chat{number}", capacity=10, timings=FAST_TIMINGS))
    # Every client of the benchmark comes from 127.0.0.1: room for all of them.
    limits = ConnectionLimits(max_connections=512, per_address=512, pending_pool=512)
    server = HostServer(registry, ServerConfig(bind="127.0.0.1", port=0, limits=limits))
    async with trio.open_nursery() as nursery:
        listeners = await nursery.start(server.serve)
        print(f"port {listeners[0].socket.getsockname()[1]}", flush=True)


# -- a raw client --------------------------------------------------------------------------------


class Client:
    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        self.decoder = FrameDecoder()
        self.limits: dict[str, int] = {}

    async def frames(self) -> list[dict[str, Any]]:
        data = bytes(await self.stream.receive_some(1 << 16))
        self.decoder.receive_data(data)
        out: list[dict[str, Any]] = []
        while True:
            frame = self.decoder.next_frame()
            if frame is NEED_DATA or frame is EOF:
                if frame is EOF:
                    raise EOFError("host closed")
                return out
            assert isinstance(frame, dict)
            out.append(frame)

    async def until(self, kind: str) -> dict[str, Any]:
        while True:
            for frame in await self.frames():
                if frame.get("t") == kind:
                    return frame
                if frame.get("t") == "error" and frame.get("fatal"):
                    raise EOFError(f"cut off: {frame['code']}")


async def connect(port: int) -> Client:
    client = Client(await trio.open_tcp_stream("127.0.0.1", port))
    await client.stream.send_all(HELLO)
    client.limits = dict((await client.until("welcome"))["limits"])
    return client


async def drain(client: Client) -> None:
    """Read and drop what the host sends (a client that does not read is cut off); say so
    if the host cuts this load client off: the load would not be what it claims."""
    try:
        while True:
            for frame in await client.frames():
                if frame.get("t") == "error" and frame.get("fatal"):
                    print(f"load client cut off: {frame['code']}: {frame['msg']}",
                          file=sys.stderr, flush=True)
    except (EOFError, trio.BrokenResourceError, trio.ClosedResourceError):
        return


# -- the loads -----------------------------------------------------------------------------------


def worst_frame(limits: dict[str, int]) -> bytes:
    size = limits.get("max_client_frame")
    if size is None:  # before issue 13: a 64 KiB frame of empty maps
        row: list[dict[str, Any]] = [{}] * 255
        message: dict[str, Any] = {"t": "ping", "n": 1, "x": [row] * 200}
        while len(pack(message)) + 255 * 2 < limits["max_frame"] and len(message["x"]) < 255:
            message["x"].append(row)
        return encode_frame(message, max_frame=limits["max_frame"], check=False)
    lists: list[list[int]] = [[] for _ in range(limits["max_client_containers"] - 2)]
    message = {"t": "ping", "n": 1, "x": lists}
    while len(pack(message)) < size:  # one byte per 0, a few per array header
        for items in lists:
            items.extend([0] * max(1, min(255 - len(items), (size - len(pack(message))) // 2)))
    while len(pack(message)) > size:
        max(lists, key=len).pop()
    return encode_frame(message)


def frame_cost(limits: dict[str, int], size: int) -> int:
    per = limits.get("rate_bytes")
    return 1 + size // per if per else 1


async def paced(client: Client, frame: bytes, interval: float) -> None:
    """Send `frame` every `interval` seconds; after a stall of this process, start again
    from now rather than catch up (a catch-up burst could exceed the host's bucket)."""
    next_at = trio.current_time()
    while True:
        await client.stream.send_all(frame)
        next_at = max(next_at + interval, trio.current_time())
        await trio.sleep_until(next_at)


async def send_paced(client: Client, frame: bytes, interval: float, started: list[int]) -> None:
    """Read whatever the host sends (so it never cuts us off as slow), and send `frame` every
    `interval` seconds; count this client in `started` once it is sending."""
    async with trio.open_nursery() as nursery:
        nursery.start_soon(drain, client)
        started.append(1)
        await paced(client, frame, interval)


async def start_all(one: Callable[[int], Awaitable[None]], numbers: range,
                    started: list[int], ready: Any) -> None:
    """Run `one(n)` for every n, and set `ready` once each of them is sending."""
    async with trio.open_nursery() as nursery:
        for number in numbers:
            nursery.start_soon(one, number)
        while len(started) < len(numbers):
            await trio.sleep(0.05)
        ready.set()


async def abuse(port: int, clients: int, ready: Any) -> None:
    frames: dict[str, bytes] = {}

    async def one(_: int) -> None:
        client = await connect(port)
        if "worst" not in frames:  # built once: building it is work this process needs
            frames["worst"] = worst_frame(client.limits)
        frame = frames["worst"]
        interval = frame_cost(client.limits, len(frame) - 4) / (RATE_SHARE * client.limits["rate"])
        await send_paced(client, frame, interval, started)

    started: list[int] = []
    await start_all(one, range(clients), started, ready)


async def chat(port: int, members: int, ready: Any) -> None:
    async def one(number: int) -> None:
        client = await connect(port)
        table = number % CHAT_TABLES
        await client.stream.send_all(encode_frame(
            {"t": "join_table", "id": 1, "table": table, "name": f"m{number}"}))
        await client.until("accepted")
        rate = client.limits.get("chat_rate", client.limits["rate"])
        line = encode_frame({"t": "chat", "text": "x" * 512})
        cost = frame_cost(client.limits, len(line) - 4)
        interval = max(1.0 / rate, cost / (0.95 * client.limits["rate"]))
        await send_paced(client, line, interval, started)

    started: list[int] = []
    await start_all(one, range(members), started, ready)


def run_load(kind: str, port: int, count: int, ready: Any) -> None:
    load: Callable[..., Any] = abuse if kind == "abuse" else chat
    trio.run(load, port, count, ready)


# -- the honest client ---------------------------------------------------------------------------


async def ping_p50(port: int, seconds: float) -> float:
    client = await connect(port)
    times = []
    n = 0
    end = trio.current_time() + seconds
    while trio.current_time() < end:
        n += 1
        start = time.perf_counter()
        await client.stream.send_all(encode_frame({"t": "ping", "n": n}))
        while True:
            pong = await client.until("pong")
            if pong["n"] == n:
                break
        times.append(time.perf_counter() - start)
        await trio.sleep(PING_EVERY)
    await client.stream.aclose()
    return statistics.median(times)


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def phase(port: int, host_pid: int, seconds: float, load: tuple[str, int] | None
          ) -> tuple[float, float]:
    """(honest ping p50 in seconds, host CPU share) with `load` running in another process."""
    process = None
    if load is not None:
        ready = multiprocessing.Event()
        process = multiprocessing.Process(target=run_load, args=(load[0], port, load[1], ready),
                                          daemon=True)
        process.start()
        if not ready.wait(60):
            raise RuntimeError("the load did not start")
        time.sleep(1.0)  # warm-up: the host is under the load's steady rate
    cpu, wall = cpu_seconds(host_pid), time.perf_counter()
    p50 = trio.run(ping_p50, port, seconds)
    share = (cpu_seconds(host_pid) - cpu) / (time.perf_counter() - wall)
    if process is not None:
        process.terminate()
        process.join()
    settle(host_pid)
    return p50, share


def settle(host_pid: int, limit: float = 60.0) -> None:
    """Wait until the host is idle again (under 10% of a core over half a second): a host
    behind on decoding what a load sent before it ended would spoil the next idle phase."""
    end = time.perf_counter() + limit
    while time.perf_counter() < end:
        before = cpu_seconds(host_pid)
        time.sleep(0.5)
        if cpu_seconds(host_pid) - before < 0.05:
            return


LOADS = {"abuse x1": ("abuse", 1), "abuse x16": ("abuse", 16), "chat x50": ("chat", 50)}


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=4.0)
    args = parser.parse_args(argv)
    host = subprocess.Popen([sys.executable, __file__, "serve"], stdout=subprocess.PIPE,
                            text=True)
    try:
        assert host.stdout is not None
        port = int(host.stdout.readline().split()[1])
        ratios: dict[str, list[float]] = {name: [] for name in LOADS}
        rows = []
        for rep in range(args.reps):
            for name, load in LOADS.items():
                idle, idle_cpu = phase(port, host.pid, args.seconds, None)
                loaded, cpu = phase(port, host.pid, args.seconds, load)
                ratios[name].append(loaded / idle)
                rows.append((rep, name, idle, loaded, idle_cpu, cpu))
                print(f"rep {rep + 1} {name:10} idle p50 {idle * 1e3:7.3f} ms (host cpu "
                      f"{idle_cpu:4.0%})  loaded p50 {loaded * 1e3:8.3f} ms (host cpu "
                      f"{cpu:4.0%})  ratio {loaded / idle:7.2f}", flush=True)
        print()
        for name, values in ratios.items():
            median = statistics.median(values)
            verdict = "within" if median <= 2 else "NOT within"
            print(f"{name:10}: an honest player's ping takes {median:.2f}x as long as on an idle "
                  f"host (median of {len(values)}, range {min(values):.2f}-{max(values):.2f}); "
                  f"{verdict} the 2x target")
    finally:
        host.terminate()
        host.wait()


if __name__ == "__main__":
    if sys.argv[1:2] == ["serve"]:
        trio.run(serve)
    else:
        main(sys.argv[1:])
