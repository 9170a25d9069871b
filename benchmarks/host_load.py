"""The load generator of benchmarks/host.py: light players and echo clients, one trio loop.

A light player speaks the protocol as far as playing needs and no further, so that the
generator's own CPU stays small beside the host's (client/netbot.py decodes, checks, folds and
verifies every frame: as a load generator it saturated its core long before the host did). It
joins a headless table, marks itself ready (again after each match: a rematch), contributes
its seed to every round (so no round waits out the seed phase) and answers each decision with
the first action of the newest legal list the host sent it, preferring a play. It never calls
UNO or catches: races would make the measured work depend on timing. Its frames are read with
one msgpack Unpacker and written with protocol.frames.encode_frame, the framing code the echo
client uses too.

Latency is measured from the intent's write to the arrival of its answer (`accepted` or a
refusal); `think` paces a player (a human pace: a decision after a random think time), zero
plays as fast as the host answers; a `rate` paces a worker's players together instead (their
intents evenly spaced: a steady load below what saturates the host).
"""

from __future__ import annotations

import itertools
import json
import math
import os
import random
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

import msgpack
import trio

from host.poller import Poller
from protocol.frames import FrameDecoder, encode_frame
from protocol.trust.primitives import seed_commitment

PREFERRED = ("play", "choose_color", "draw", "pass", "accept", "challenge", "swap")
"""Action types a light player answers its decision with, in this order of preference."""

SKIPPED = frozenset({"call_uno", "catch", "buzz"})
"""Out-of-turn actions a light player never sends (races depend on timing, not on the host)."""

RECEIVE = 65_536


def _frame(message: Mapping[str, Any]) -> bytes:
    return encode_frame(message, check=False)


@dataclass
class Stats:
    """What one process saw: answered intents, their round trips (s) and refusals, and the
    round trips of the anchors (echo, durable echo, fan-out)."""

    accepted: int = 0
    refused: int = 0
    latencies: list[float] = field(default_factory=list)
    echo_latencies: list[float] = field(default_factory=list)
    durable_latencies: list[float] = field(default_factory=list)
    fanout_latencies: list[float] = field(default_factory=list)
    counting: bool = False  # inside the measured window


def choose(legal: Sequence[Mapping[str, Any]]) -> Mapping[str, Any] | None:
    """The action a light player sends for this legal list, or None (nothing to decide)."""
    offered = [a for a in legal if a.get("type") not in SKIPPED]
    for kind in PREFERRED:
        for action in offered:
            if action.get("type") == kind:
                return action
    return offered[0] if offered else None


class LightPlayer:
    """One seat's protocol, sans-IO: `receive` takes bytes and returns the bytes to send."""

    def __init__(self, table: int, name: str, stats: Stats, rng: random.Random) -> None:
        self.table = table
        self.name = name
        self.stats = stats
        self.rng = rng
        self.buffer = bytearray()
        self.seat: int | None = None
        self.legal: Sequence[Mapping[str, Any]] = ()
        self.fresh = False  # a legal list arrived since our last intent was answered
        self.waiting: tuple[int, float] | None = None  # (request id, sent at)
        self.next_id = 100
        self.seeds: dict[int, bytes] = {}

    def hello(self) -> bytes:
        return _frame({"t": "hello", "v": [1], "client": {"name": "bench", "version": "1"},
                       "features": [], "name": self.name})

    def receive(self, data: bytes) -> bytes:
        self.buffer += data
        out: list[bytes] = []
        now = time.perf_counter()
        for message in _messages(self.buffer):
            out.extend(self._handle(message, now))
        return b"".join(out)

    def _handle(self, message: dict[str, Any], now: float) -> list[bytes]:
        kind = message.get("t")
        if kind in ("event", "snapshot"):
            self.legal = message.get("legal") or ()
            self.fresh = True
            event = message.get("event")
            if isinstance(event, dict) and event.get("type") == "match_ended":
                self.next_id += 1  # a rematch at once: the table waits for its players
                return [_frame({"t": "ready", "id": self.next_id, "ready": True})]
        elif kind == "accepted" or (kind == "error" and "ref" in message):
            if self.waiting is not None and message.get("id", message.get("ref")) == \
                    self.waiting[0]:
                if self.stats.counting:
                    self.stats.latencies.append(now - self.waiting[1])
                    if kind == "accepted":
                        self.stats.accepted += 1
                    else:
                        self.stats.refused += 1
                self.waiting = None
                if kind == "error":  # our legal list was stale: ask for a fresh one
                    self.fresh = False
                    return [_frame({"t": "resync"})]
        elif kind == "welcome":
            return [_frame({"t": "join_table", "id": 1, "table": self.table,
                            "name": self.name})]
        elif kind == "seated":
            self.seat = message["seat"]
            return [_frame({"t": "ready", "id": 2, "ready": True})]
        elif kind == "round_prepare":
            seed = self.rng.randbytes(32)
            self.seeds = {message["round"]: seed}
            return [_frame({"t": "seed_commit", "round": message["round"], "commit":
                            seed_commitment(message["game_id"], message["round"],
                                            self.seat or 0, seed)})]
        elif kind == "seed_commits":
            revealed = self.seeds.get(message["round"])
            if revealed is not None and any(s == self.seat for s, _ in message["commits"]):
                return [_frame({"t": "seed_reveal", "round": message["round"],
                                "seed": revealed})]
        elif kind == "ping":
            return [_frame({"t": "pong", "n": message["n"]})]
        return []

    def decision(self) -> Mapping[str, Any] | None:
        """The action to send now, if there is a new decision and no intent unanswered."""
        if self.waiting is not None or not self.fresh:
            return None
        return choose(self.legal)

    def intent(self, action: Mapping[str, Any]) -> bytes:
        self.next_id += 1
        self.waiting = (self.next_id, time.perf_counter())
        self.fresh = False
        return _frame({"t": "intent", "id": self.next_id, "action": dict(action)})


def _messages(buffer: bytearray) -> list[dict[str, Any]]:
    """The complete frames at the start of `buffer`, decoded and removed from it."""
    found = []
    start = 0
    while len(buffer) - start >= 4:
        end = start + 4 + int.from_bytes(buffer[start:start + 4], "big")
        if len(buffer) < end:
            break
        found.append(msgpack.unpackb(buffer[start + 4:end], raw=False, strict_map_key=False))
        start = end
    del buffer[:start]
    return found


class Pacer:
    """Spaces the intents of a worker's players `1 / rate` seconds apart, first come first
    served: the host gets `rate` actions a second while it keeps up. A slot is never given
    to a time already past, so a host that falls behind gets no burst to catch up with."""

    def __init__(self, rate: float) -> None:
        if rate <= 0:
            raise ValueError(f"a rate must be positive, not {rate}")
        self.interval = 1.0 / rate
        self._next = -math.inf

    async def slot(self) -> None:
        """Wait for the next free slot, and take it."""
        at = max(trio.current_time(), self._next)
        self._next = at + self.interval
        await trio.sleep_until(at)


async def run_player(port: int, player: LightPlayer, think: tuple[float, float],
                     pacer: Pacer | None = None) -> None:
    """Play `player` until the host closes: each decision sent at once, after `think`, or in
    the next slot of `pacer` when one is given."""
    paced = think[1] > 0 or pacer is not None
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    await stream.send_all(player.hello())
    pending = trio.Event()
    sending = trio.StrictFIFOLock()  # the reader's answers and the pacer's intents share a stream

    async def send(data: bytes) -> None:
        async with sending:
            await stream.send_all(data)

    async def pace() -> None:
        nonlocal pending
        while True:
            await pending.wait()
            pending = trio.Event()
            if pacer is not None:
                await pacer.slot()
            elif think[1] > 0:
                await trio.sleep(player.rng.uniform(*think))
            action = player.decision()
            if action is not None:
                await send(player.intent(action))

    async with trio.open_nursery() as nursery:
        if paced:
            nursery.start_soon(pace)
        while True:
            data = await stream.receive_some(RECEIVE)
            if not data:
                nursery.cancel_scope.cancel()
                return
            out = player.receive(data)
            if paced:
                if player.decision() is not None:
                    pending.set()
            else:
                action = player.decision()
                if action is not None:
                    out += player.intent(action)
            if out:
                await send(out)


ECHO_MESSAGE: dict[str, Any] = {"t": "intent", "id": 1234,
                                "action": {"type": "play", "card": 57, "color": "red"}}
"""What an echo client sends: an intent as a light player's (the same keys and size)."""


async def run_echo_client(port: int, stats: Stats, think: tuple[float, float],
                          rng: random.Random, *, durable: bool = False) -> None:
    """Send ECHO_MESSAGE, wait for it to come back (decoded by protocol.frames.FrameDecoder,
    the framing code a client uses), every `think` seconds (or back to back). `durable`: the
    server is a durable echo, and the round trips go to `stats.durable_latencies`."""
    latencies = stats.durable_latencies if durable else stats.echo_latencies
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    decoder = FrameDecoder()
    frame = _frame(ECHO_MESSAGE)
    while True:
        if think[1] > 0:
            await trio.sleep(rng.uniform(*think))
        started = time.perf_counter()
        await stream.send_all(frame)
        while True:
            got = decoder.next_frame()
            if isinstance(got, dict):
                break
            data = await stream.receive_some(RECEIVE)
            if not data:
                return
            decoder.receive_data(data)
        if stats.counting:
            latencies.append(time.perf_counter() - started)


class PassCommit:
    """The durable echo's group commit: one fsync of its file for every request read in the
    same pass of the event loop, as the host's group commit (host/group_commit.py) makes one
    flush of the disk for every action of a pass (an fsync when one journal was written)."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self._wanted = trio.Event()
        self._done = trio.Event()

    async def run(self) -> None:
        while True:
            await self._wanted.wait()
            self._wanted = trio.Event()
            done, self._done = self._done, trio.Event()
            os.fsync(self.fd)  # in the event loop, as the host's commit runs
            done.set()

    async def durable(self, data: bytes) -> None:
        """Append `data` and return once it is on disk."""
        os.write(self.fd, data)
        done = self._done
        self._wanted.set()
        await done.wait()


async def echo_server(journal: str | None = None,
                      task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED) -> None:
    """The anchor: each frame decoded with protocol.frames.FrameDecoder (msgpack and the
    profile) and answered with encode_frame of what it held: a framed msgpack request and
    reply, one write, nothing else.

    With `journal` (a file), the durable echo: the frames read are appended to that file and
    made durable (PassCommit) before they are answered, as the host journals an action before
    anything recording it goes out. The floor of an answer that survives a power cut."""
    commit: PassCommit | None = None

    async def handle(stream: trio.SocketStream) -> None:
        decoder = FrameDecoder()
        try:
            async for data in stream:
                decoder.receive_data(bytes(data))
                out = []
                while True:
                    got = decoder.next_frame()
                    if not isinstance(got, dict):
                        break
                    out.append(encode_frame(got))
                if out and commit is not None:
                    await commit.durable(bytes(data))
                if out:
                    await stream.send_all(b"".join(out))
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass

    async with trio.open_nursery() as nursery:
        if journal is not None:
            commit = PassCommit(os.open(journal, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600))
            nursery.start_soon(commit.run)
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        task_status.started(listeners[0].socket.getsockname()[1])
        await trio.serve_listeners(handle, listeners)


FANOUT_EVENT: dict[str, Any] = {"type": "card_played", "seat": 1, "card": 57, "position": 12}
"""The event a fan-out anchor sends each group mate: an event map of a typical size."""


async def fanout_server(seats: int,
                        task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED) -> None:
    """The I/O floor of an action, a second anchor beside the echo: clients in groups of
    `seats` take turns; each request is decoded (FrameDecoder), answered to its sender first
    (encode_frame of what it held, as the echo does) and then announced to every group mate
    in a frame of its own (an event map with a sequence number and the next seat), one write
    per connection, through the host's own reads and writes: the server's poller
    (host/poller.py: one epoll set, one task) where the host has one, else wait_readable in a
    task per connection; os.read, os.write. What a host cannot do with less: a read, `seats`
    writes, a frame each; no game, no table, no trust. The turn passes to the next seat on
    that frame."""
    groups: dict[int, list[int | None]] = {}
    sequence = itertools.count(1)
    poller = Poller() if Poller.available() else None

    async def handle(stream: trio.SocketStream) -> None:
        member = FanoutMember(stream, groups, seats, sequence)
        try:
            if poller is not None:
                poller.add(member.fd, member)
                try:
                    await member.done.wait()
                finally:
                    poller.remove(member.fd)
                return
            while True:
                await trio.lowlevel.wait_readable(member.fd)
                member.readable()
                if member.done.is_set():
                    return
        finally:
            member.leave()

    async with trio.open_nursery() as nursery:
        if poller is not None:
            nursery.start_soon(poller.run)
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        task_status.started(listeners[0].socket.getsockname()[1])
        await trio.serve_listeners(handle, listeners)


class FanoutMember:
    """One client of the fan-out anchor: what a read of its socket does (`readable`)."""

    def __init__(self, stream: trio.SocketStream, groups: dict[int, list[int | None]],
                 seats: int, sequence: Iterator[int]) -> None:
        self.fd = stream.socket.fileno()
        self.sequence = sequence  # shared by every member: the events' sequence numbers
        self.groups = groups
        self.seats = seats
        self.decoder = FrameDecoder()
        self.member: tuple[int, int] | None = None
        self.done = trio.Event()

    def readable(self) -> None:
        """Read once and answer what came; `done` is set at the end of the stream."""
        try:
            data = os.read(self.fd, RECEIVE)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self.done.set()
            return
        self.decoder.receive_data(data)
        while isinstance(got := self.decoder.next_frame(), dict):
            if got.get("t") == "hello":  # {"group": g, "seat": s}: a member
                self.member = (int(got["group"]), int(got["seat"]))
                group = self.groups.setdefault(self.member[0], [None] * self.seats)
                group[self.member[1]] = self.fd
                if all(mate is not None for mate in group):  # full: seat 0 starts
                    start = encode_frame({"t": "event", "seq": 0,
                                          "event": FANOUT_EVENT, "next": 0})
                    for mate in group:
                        assert mate is not None
                        _send(mate, start)
                continue
            if self.member is None:
                self.done.set()
                return
            _send(self.fd, encode_frame(got))  # the sender's answer first
            announced = encode_frame({"t": "event", "seq": next(self.sequence),
                                      "event": FANOUT_EVENT,
                                      "next": (self.member[1] + 1) % self.seats})
            for index, mate in enumerate(self.groups[self.member[0]]):
                if index != self.member[1] and mate is not None:
                    _send(mate, announced)

    def leave(self) -> None:
        if self.member is not None:
            self.groups[self.member[0]][self.member[1]] = None


def _send(fd: int, data: bytes) -> int:
    """Bytes the socket took now; the rest is dropped (the client then stalls, and the phase's
    figures show it)."""
    try:
        return os.write(fd, data)
    except (BlockingIOError, BrokenPipeError, ConnectionResetError):
        return 0


async def run_fanout_client(port: int, group: int, seat: int, stats: Stats,
                            think: tuple[float, float], rng: random.Random) -> None:
    """One member of a fan-out group: on the frame that gives it the turn, after `think`,
    send ECHO_MESSAGE and time it to its answer (the frame that comes back to it)."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    await stream.send_all(_frame({"t": "hello", "group": group, "seat": seat}))
    decoder = FrameDecoder()
    frame = _frame(ECHO_MESSAGE)
    started: float | None = None
    while True:
        data = await stream.receive_some(RECEIVE)
        if not data:
            return
        decoder.receive_data(data)
        while isinstance(got := decoder.next_frame(), dict):
            if got.get("t") == "intent" and started is not None:  # our answer
                if stats.counting:
                    stats.fanout_latencies.append(time.perf_counter() - started)
                started = None
            elif got.get("t") == "event" and got.get("next") == seat:
                if think[1] > 0:
                    await trio.sleep(rng.uniform(*think))
                started = time.perf_counter()
                await stream.send_all(frame)


@dataclass(frozen=True)
class LoadPlan:
    """One worker's share: tables first..first+tables-1, each with `seats` light players, and
    `echo_clients` echo clients, all paced by `think`; the window is [start, start+seconds] of
    time.time() (shared with the other processes; a worker process is told `start` once every
    worker has started: `worker_main`)."""

    port: int
    echo_port: int
    first: int
    tables: int
    seats: int
    echo_clients: int
    think: tuple[float, float]
    echo_think: tuple[float, float]
    start: float
    seconds: float
    fanout_port: int = 0
    fanout_groups: int = 0
    """Groups of `seats` fan-out clients (fanout_server), paced by `think` like the players."""
    durable_port: int = 0
    durable_clients: int = 0
    """Echo clients of the durable echo (echo_server with a journal), paced by `echo_think`."""
    rate: float = 0.0
    """Intents a second from this worker's players together, evenly spaced (`Pacer`) in
    place of `think`; 0: as `think` says."""


def cpu_seconds() -> float:
    times = os.times()
    return times.user + times.system


async def run_worker(plan: LoadPlan) -> dict[str, Any]:
    """Play the plan; what the worker saw in the window, as a dict for JSON."""
    stats = Stats()
    rng = random.Random(plan.first)
    pacer = Pacer(plan.rate) if plan.rate > 0 else None
    async with trio.open_nursery() as nursery:
        for table in range(plan.first, plan.first + plan.tables):
            for seat in range(plan.seats):
                player = LightPlayer(table, f"p{table}-{seat}", stats,
                                     random.Random(rng.getrandbits(64)))
                nursery.start_soon(run_player, plan.port, player, plan.think, pacer)
            await trio.sleep(0)
        for _ in range(plan.echo_clients):
            nursery.start_soon(run_echo_client, plan.echo_port, stats, plan.echo_think,
                               random.Random(rng.getrandbits(64)))
        for _ in range(plan.durable_clients):
            nursery.start_soon(partial(run_echo_client, plan.durable_port, stats,
                                       plan.echo_think, random.Random(rng.getrandbits(64)),
                                       durable=True))
        for index in range(plan.fanout_groups):
            group = plan.first * 10_000 + index  # unique across workers
            for seat in range(plan.seats):
                nursery.start_soon(run_fanout_client, plan.fanout_port, group, seat, stats,
                                   plan.think, random.Random(rng.getrandbits(64)))
        await trio.sleep(max(0.0, plan.start - time.time()))
        stats.counting = True
        cpu0 = cpu_seconds()
        await trio.sleep(max(0.0, plan.start + plan.seconds - time.time()))
        stats.counting = False
        cpu1 = cpu_seconds()
        nursery.cancel_scope.cancel()
    return {"accepted": stats.accepted, "refused": stats.refused, "cpu": cpu1 - cpu0,
            "latencies": stats.latencies, "echo_latencies": stats.echo_latencies,
            "fanout_latencies": stats.fanout_latencies,
            "durable_latencies": stats.durable_latencies,
            "affinity": sorted(os.sched_getaffinity(0))}


def worker_main(plan_json: str) -> None:
    """A worker process: it says it has started (a JSON line), reads the window's start (a
    line of time.time(), the same for every worker: benchmarks/host.py `started_together`),
    plays its plan and prints what it saw (a JSON line)."""
    fields = json.loads(plan_json)
    plan = LoadPlan(**{**fields, "think": tuple(fields["think"]),
                       "echo_think": tuple(fields["echo_think"])})
    print(json.dumps({"ready": True}), flush=True)
    line = sys.stdin.readline()
    try:
        start = float(line)
    except ValueError:
        raise SystemExit(f"a load worker expects the window's start, got {line!r}") from None
    print(json.dumps(trio.run(run_worker, replace(plan, start=start))), flush=True)
