"""The cheaper action path: one write per recipient per batch, one encoding of each event,
stand-in policies fed only when their seat is asked to act."""

from __future__ import annotations

import os
import random
from types import SimpleNamespace
from typing import Any

import pytest
import trio
import trio.testing

import host.connection as connection_module
import host.routing as routing_module
from host.bots import SeatBots
from host.connection import ClientConnection
from host.outgoing import event_frame
from host.registry import Registry
from host.round_log import EventsChain, RoundLog, canonical_event
from host.server import HostServer, ServerConfig
from host.settings import BENCHMARK_LIMITS, FAST_TIMINGS
from host.table import Table, TableSettings
from protocol.frames import FrameDecoder, encode_frame
from protocol.game_codec import encode_event
from protocol.trust.primitives import seed_commitment
from protocol.trust.signing import EventsDigest, canonical
from unonet.actions import HOST, StartRound
from unonet.bots import POLICIES, Bot, NormalBot
from unonet.events import Event
from unonet.match import Match
from unonet.rules import RuleSet


def _frames(data: bytes) -> list[dict[str, Any]]:
    decoder = FrameDecoder()
    decoder.receive_data(data)
    out = []
    while isinstance(frame := decoder.next_frame(), dict):
        out.append(frame)
    return out


def socket_of(conn: ClientConnection) -> trio.socket.SocketType:
    """The socket under a connection the server accepted (always a trio.SocketStream)."""
    assert isinstance(conn.stream, trio.SocketStream)
    return conn.stream.socket


class RawPlayer:
    """A client on a real socket that joins table 0, contributes its seeds and answers its
    first decision with an intent."""

    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        self.decoder = FrameDecoder()
        self.seat = 0
        self.seed = bytes(32)
        self.intents = 0

    async def send(self, message: dict[str, Any]) -> None:
        await self.stream.send_all(encode_frame(message))

    async def until_decision(self) -> list[dict[str, Any]]:
        """Frames until an event or snapshot offers a play or a draw; its legal list."""
        await self.send({"t": "hello", "v": [1], "features": [], "name": "ana",
                         "client": {"name": "test", "version": "1"}})
        while True:
            data = await self.stream.receive_some(65_536)
            assert data
            self.decoder.receive_data(data)
            while isinstance(frame := self.decoder.next_frame(), dict):
                legal = await self.handle(frame)
                if legal:
                    return legal

    async def handle(self, frame: dict[str, Any]) -> list[dict[str, Any]] | None:
        kind = frame["t"]
        if kind == "welcome":
            await self.send({"t": "join_table", "id": 1, "table": 0, "name": "ana"})
        elif kind == "seated":
            self.seat = frame["seat"]
            await self.send({"t": "ready", "id": 2, "ready": True})
        elif kind == "round_prepare":
            commit = seed_commitment(frame["game_id"], frame["round"], self.seat, self.seed)
            await self.send({"t": "seed_commit", "round": frame["round"], "commit": commit})
        elif kind == "seed_commits":
            await self.send({"t": "seed_reveal", "round": frame["round"], "seed": self.seed})
        elif kind in ("event", "snapshot"):
            legal = [a for a in frame["legal"] if a["type"] in ("play", "draw")]
            colour = [a for a in frame["legal"] if a["type"] == "choose_color"]
            if colour and not legal:  # a Wild turned first, and ours to name: name one, or
                self.intents += 1     # the round waits for us for good (no turn timer)
                await self.send({"t": "intent", "id": 100 + self.intents, "action": colour[0]})
            return legal or None
        return None


async def _table_against_a_bot(nursery: trio.Nursery, name: str
                               ) -> tuple[HostServer, Table, RawPlayer]:
    """A served table of two seats, a bot in one, and a raw player connected to take the
    other: the host as benchmarks/host.py serves it."""
    registry = Registry(FAST_TIMINGS)
    table = registry.create_table(TableSettings(name, RuleSet(), headless=True,
                                                target_seats=2, timings=FAST_TIMINGS))
    table.add_bot()
    server = HostServer(registry, ServerConfig(bind="127.0.0.1", port=0,
                                               limits=BENCHMARK_LIMITS))
    listener = (await nursery.start(server.serve))[0]
    return server, table, RawPlayer(await trio.testing.open_stream_to_socket_listener(listener))


async def test_an_intents_answer_and_its_events_leave_in_one_write(
    nursery: trio.Nursery, monkeypatch: pytest.MonkeyPatch,
) -> None:
    server, _, player = await _table_against_a_bot(nursery, "batch")
    writes: list[tuple[int, bytes]] = []
    real_write = os.write
    with trio.fail_after(20):
        legal = await player.until_decision()
        (conn,) = server.connections.values()
        fd = socket_of(conn).fileno()
        monkeypatch.setattr(connection_module, "os", SimpleNamespace(  # writes counted
            read=os.read, write=lambda fd, data: _count(real_write, writes, fd, data)))
        await player.send({"t": "intent", "id": 77, "action": legal[0]})
        while not any(f["t"] == "accepted" for w_fd, data in writes if w_fd == fd
                      for f in _frames(data)):
            await trio.sleep(0.01)
        await trio.testing.wait_all_tasks_blocked()
    ours = [_frames(data) for w_fd, data in writes if w_fd == fd]
    answer = next(frames for frames in ours if any(f["t"] == "accepted" for f in frames))
    kinds = [f["t"] for f in answer]
    assert kinds[0] == "accepted" and "event" in kinds, kinds  # not a write of its own


async def test_the_sender_of_an_intent_is_served_before_the_rest_of_its_table(
    nursery: trio.Nursery, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Its answer is written first, and before the frames of anyone else are even made."""
    registry = Registry(FAST_TIMINGS)
    registry.create_table(TableSettings("first", RuleSet(), headless=True, target_seats=2,
                                        timings=FAST_TIMINGS))
    server = HostServer(registry, ServerConfig(bind="127.0.0.1", port=0,
                                               limits=BENCHMARK_LIMITS))
    listener = (await nursery.start(server.serve))[0]
    players = [RawPlayer(await trio.testing.open_stream_to_socket_listener(listener))
               for _ in range(2)]
    players[1].seed = bytes([1]) * 32
    decided: list[tuple[RawPlayer, list[dict[str, Any]]]] = []

    async def until_decision(player: RawPlayer) -> None:
        decided.append((player, await player.until_decision()))
        await trio.sleep_forever()  # the other keeps reading: its socket never fills

    writes: list[tuple[int, bytes]] = []
    real_write = os.write
    with trio.fail_after(20):
        async with trio.open_nursery() as inner:
            for player in players:
                inner.start_soon(until_decision, player)
            while not decided:
                await trio.sleep(0.01)
            await trio.testing.wait_all_tasks_blocked()
            actor, legal = decided[0]
            by_name = {socket_of(c).getpeername(): c for c in server.connections.values()}
            fd = socket_of(by_name[actor.stream.socket.getsockname()]).fileno()
            monkeypatch.setattr(connection_module, "os", SimpleNamespace(
                read=os.read, write=lambda fd, data: _count(real_write, writes, fd, data)))
            actor_protocol = by_name[actor.stream.socket.getsockname()].protocol
            real_frame = event_frame

            def frame(protocol: Any, item: Any, *, check: bool) -> bytes:
                made.append((protocol is actor_protocol, len(writes)))  # writes done by then
                return real_frame(protocol, item, check=check)

            made: list[tuple[bool, int]] = []
            monkeypatch.setattr(routing_module, "event_frame", frame)
            await actor.send({"t": "intent", "id": 78, "action": legal[0]})
            while len({w_fd for w_fd, data in writes
                       if any(f["t"] == "event" for f in _frames(data))}) < 2:
                await trio.sleep(0.01)
            inner.cancel_scope.cancel()
    first_fd, first = writes[0]
    assert first_fd == fd, "the other player was written to first"
    assert _frames(first)[0]["t"] == "accepted"
    others = [done for actor_frame, done in made if not actor_frame]
    assert others and len(others) < len(made)  # both players got events
    assert min(others) >= 1, "a frame for the other player was made before the answer left"


async def test_the_events_of_an_answer_are_hashed_into_the_digest_after_it_is_written(
    nursery: trio.Nursery, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The digest's hashing waits for the pass's writes, and nothing waits after the pass."""
    server, table, player = await _table_against_a_bot(nursery, "digest")
    registry = server.registry
    writes: list[tuple[int, bytes]] = []
    settled: list[tuple[int, int]] = []  # (round logs waiting, writes made) at each settle
    real_write, real_settle = os.write, Registry.settle_digests

    def settle(self: Registry) -> None:
        settled.append((len(self.unsettled), len(writes)))
        real_settle(self)

    with trio.fail_after(20):
        legal = await player.until_decision()
        (conn,) = server.connections.values()
        fd = socket_of(conn).fileno()
        assert table.game is not None and table.game.round_log is not None
        before = table.game.round_log.count
        monkeypatch.setattr(connection_module, "os", SimpleNamespace(
            read=os.read, write=lambda fd, data: _count(real_write, writes, fd, data)))
        monkeypatch.setattr(Registry, "settle_digests", settle)
        await player.send({"t": "intent", "id": 79, "action": legal[0]})
        while not any(f["t"] == "accepted" for w_fd, data in writes if w_fd == fd
                      for f in _frames(data)):
            await trio.sleep(0.01)
        await trio.testing.wait_all_tasks_blocked()
    answered = next(i for i, (w_fd, data) in enumerate(writes)
                    if w_fd == fd and any(f["t"] == "accepted" for f in _frames(data)))
    hashing = [made for waiting, made in settled if waiting]
    assert hashing and hashing[0] > answered, "the hashing came before the answer's write"
    assert registry.unsettled == [] and not table.game.round_log.unsettled
    assert table.game.round_log.count > before


def test_a_round_logs_digest_read_before_its_settle_has_every_event() -> None:
    match = Match(RuleSet(), 4, bytes(16))
    events = _play(match, SeatBots(match, ["normal"] * 4), 40)
    log, digest = RoundLog(b"g" * 16, 3), EventsDigest(b"g" * 16, 3)
    for index, event in enumerate(events):
        log.add(event, {})
        if event.audience is None:
            digest.add(encode_event(event))
        if index % 7 == 0:  # read now and then: what it shows has every event so far
            assert log.digest.value == digest.value and not log.unsettled
    assert log.digest.value == digest.value and log.digest.count == digest.count


def _count(write: Any, writes: list[tuple[int, bytes]], fd: int, data: bytes) -> int:
    written: int = write(fd, data)
    writes.append((fd, bytes(data[:written])))
    return written


def _play(match: Match, bots: SeatBots, steps: int) -> list[Event]:
    """`steps` actions of the pending seats, chosen by fresh eager policies; every event."""
    deciders = [POLICIES["normal"](seat, match.rules, match.manifest, seed=seat)
                for seat in range(match.seats)]
    seen: list[Event] = []
    events = match.apply(HOST, StartRound(bytes(32)))
    for _ in range(steps):
        bots.observe(events)
        seen += events
        seat = match.pending_seat
        if seat is None:
            break
        legal = match.legal_actions(seat)
        events = match.apply(seat, deciders[seat].act(match.view(seat), legal))
    bots.observe(events)
    return seen + events


def normal(policy: Bot) -> NormalBot:
    """A "normal" policy as the NormalBot it is, for what it has seen."""
    assert isinstance(policy, NormalBot)
    return policy


def test_a_players_stand_in_is_fed_only_when_its_seat_is_asked_to_act() -> None:
    match = Match(RuleSet(), 3, bytes(16))
    bots = SeatBots(match, ["normal"] * 3)
    played = _play(match, bots, 12)
    seat = match.pending_seat
    assert seat is not None
    assert not normal(bots.policies[seat]).seen  # nobody asked it yet
    eager = normal(POLICIES["normal"](seat, match.rules, match.manifest, seed=seat))
    for event in played:
        if event.audience is None or seat in event.audience:
            eager.observe(event)
    assert eager.seen
    assert bots.decide([seat]) is not None  # taken over: its policy learns the round first
    assert normal(bots.policies[seat]).seen == eager.seen


def test_the_round_logs_digest_is_the_trust_schemes() -> None:
    match = Match(RuleSet(), 4, bytes(16))
    events = _play(match, SeatBots(match, ["normal"] * 4), 40)
    chain, digest = EventsChain(b"g" * 16, 3), EventsDigest(b"g" * 16, 3)
    rng = random.Random(1)
    for event in events:
        wire = encode_event(event)
        if rng.random() < 0.3:  # maps built in another key order pack the same
            wire = dict(reversed(list(wire.items())))
        assert canonical_event(wire) == canonical(wire)
        chain.add_canonical(canonical_event(wire))
        digest.add(wire)
    assert chain.value == digest.value and chain.count == digest.count == len(events)
