"""Every error code of SPEC.md section 12 happens, with the fatal flag the table gives it.

The codes are READ from SPEC.md (both tables of section 12), so a code added there without a
way to make it happen fails here. Protocol and lobby codes are made to happen by raw clients
over real sockets on loopback against a real host (host.server.HostServer); engine codes
through the engine on stacked decks (tests/scenario.py), their wire form being the host's own
refusal (host.outgoing.refused), and three of them over the network too. Timers run on trio's
autojump clock: nothing here waits on luck.
"""

from __future__ import annotations

import contextlib
import os
import re
import socket
from collections.abc import Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import trio
import trio.testing
from scenario import card, code, current, deal
from test_host_robustness import malformed_vectors

from host.outgoing import refused
from host.registry import Registry
from host.server import HostServer, ServerConfig
from host.settings import FAST_TIMINGS, ConnectionLimits
from host.table import TABLE_REQUESTS, Table, TableRequest, TableSettings
from protocol.errors import ALL_CODES, FATAL, ProtocolError
from protocol.examples import EXAMPLES
from protocol.frames import EOF, NEED_DATA, FrameDecoder, encode_frame
from protocol.limits import RECEIVE_CHUNK
from unonet import rules as rules_module
from unonet.actions import (
    Action,
    Buzz,
    CallUno,
    Catch,
    Challenge,
    ChooseTarget,
    Draw,
    Pass,
    Play,
)
from unonet.cards import Color
from unonet.errors import EngineError
from unonet.match import Match
from unonet.rules import RuleSet

SPEC = Path(__file__).resolve().parent.parent / "SPEC.md"
WAIT = 600.0
"""Virtual seconds (autojump clock): a case that never gets its answer fails, it never hangs."""


def spec_codes() -> dict[str, bool]:
    """Every code of SPEC.md section 12's tables, and whether its `Fatal` column says yes."""
    text = SPEC.read_text(encoding="utf-8")
    section = text.split("\n## 12.", 1)[1].split("\n## 13.", 1)[0]
    rows = re.findall(r"^\| `([a-z_]+)` \| (yes|no) \|", section, flags=re.MULTILINE)
    return {code: fatal == "yes" for code, fatal in rows}


def spec_meanings() -> dict[str, str]:
    """Every code of SPEC.md section 12's tables, and its `Meaning` column."""
    text = SPEC.read_text(encoding="utf-8")
    section = text.split("\n## 12.", 1)[1].split("\n## 13.", 1)[0]
    rows = re.findall(r"^\| `([a-z_]+)` \| (?:yes|no) \| (.*) \|$", section, flags=re.MULTILINE)
    return dict(rows)


# -- a raw client ------------------------------------------------------------------------------


class Peer:
    """A client that speaks frames by hand: it sends what a test says, however wrong, and
    reads with one decoder for the whole connection (no frame lost between reads)."""

    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        self.decoder = FrameDecoder()
        self.pending: list[dict[str, Any]] = []
        self.closed = False

    @classmethod
    async def open(cls, listener: trio.SocketListener, hello: bool = True,
                   **fields: Any) -> Peer:
        """Connected, and (with `hello`) past a hello with `fields` on top of the example."""
        peer = cls(await trio.testing.open_stream_to_socket_listener(listener))
        if hello:
            await peer.send({**EXAMPLES["hello"], **fields})
        return peer

    async def send(self, message: Mapping[str, Any]) -> None:
        await self.send_raw(encode_frame(message))

    async def send_raw(self, data: bytes) -> None:
        await self.stream.send_all(data)

    async def frame(self) -> dict[str, Any] | None:
        """The next frame, None once the host has closed the connection."""
        with trio.fail_after(WAIT):
            while not self.pending and not self.closed:
                try:
                    data = bytes(await self.stream.receive_some(RECEIVE_CHUNK))
                except trio.BrokenResourceError:
                    data = b""
                self.decoder.receive_data(data)
                try:
                    while (frame := self.decoder.next_frame()) not in (NEED_DATA, EOF):
                        assert isinstance(frame, dict)
                        self.pending.append(frame)
                except ProtocolError:  # cut inside a frame (a slow consumer's last write)
                    data = b""
                self.closed = not data
        return self.pending.pop(0) if self.pending else None

    async def until(self, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """The next frame `wanted` accepts (the others are skipped, pings included)."""
        while True:
            frame = await self.frame()
            assert frame is not None, "the host closed the connection first"
            if wanted(frame):
                return frame

    async def kind(self, kind: str) -> dict[str, Any]:
        return await self.until(lambda f: f.get("t") == kind)

    async def error(self) -> dict[str, Any]:
        return await self.kind("error")

    async def error_then_close(self) -> dict[str, Any]:
        """The error a fatal refusal sends, after which the host closes the connection."""
        error = await self.error()
        while await self.frame() is not None:
            pass
        return error

    async def welcome(self) -> None:
        await self.kind("welcome")

    async def seated(self, message: Mapping[str, Any]) -> dict[str, Any]:
        """Send a create_table or join_table and wait for the seat."""
        await self.send(message)
        return await self.until(lambda f: f.get("t") in ("seated", "error"))

    async def still_answers(self) -> bool:
        """A non-fatal refusal left the connection working: a request is still answered."""
        await self.send({"t": "list_tables", "id": 9_999})
        return (await self.kind("tables")) is not None


@dataclass
class Host:
    server: HostServer
    registry: Registry
    listener: trio.SocketListener


async def start_host(nursery: trio.Nursery, limits: ConnectionLimits | None = None,
                     tables: int = 1, bots: int = 1, seats: int = 2) -> Host:
    """Operator (headless) tables numbered from 0, each with `bots` bots, that start when
    `seats` are filled and ready; a table a client creates comes after them."""
    registry = Registry(FAST_TIMINGS)
    for number in range(tables):
        table = registry.create_table(TableSettings(f"t{number}", RuleSet(target=500),
                                                    headless=True, target_seats=seats,
                                                    timings=FAST_TIMINGS))
        for _ in range(bots):
            table.add_bot()
    server = HostServer(registry, ServerConfig(bind="127.0.0.1", port=0,
                                               limits=limits or ConnectionLimits()))
    listeners: list[trio.SocketListener] = await nursery.start(server.serve)
    return Host(server, registry, listeners[0])


async def player(host: Host, name: str, table: int = 0) -> Peer:
    peer = await Peer.open(host.listener, name=name)
    await peer.welcome()
    seated = await peer.seated({"t": "join_table", "id": 1, "table": table, "name": name})
    assert seated["t"] == "seated", seated
    return peer


async def owner(host: Host, name: str = "ada") -> tuple[Peer, int]:
    """A player who created a table (so owns it): the peer and the table's number."""
    peer = await Peer.open(host.listener, name=name)
    await peer.welcome()
    seated = await peer.seated({"t": "create_table", "id": 1, "name": f"{name}'s"})
    assert seated["t"] == "seated", seated
    return peer, int(seated["table"])


async def in_round(host: Host, name: str = "ana") -> Peer:
    """A player at an operator table with one bot, in the first round of the match: its
    seed is committed and revealed (or the phase ran out), and the round is dealt."""
    peer = await player(host, name)
    await peer.send({"t": "ready", "id": 2, "ready": True})
    await peer.until(lambda f: f.get("t") == "event")
    return peer


Outcome = tuple[Mapping[str, Any], Peer | None]
"""The error message as sent, and the connection it came on (None: from the engine)."""
Case = Callable[[trio.Nursery], Awaitable[Outcome]]
CASES: dict[str, Case] = {}
PENDING: dict[str, str] = {}
"""Codes whose part of issue 13 has not landed: strict xfail (the lead removes the entries)."""


def case(code: str, pending: str | None = None) -> Callable[[Case], Case]:
    def register(function: Case) -> Case:
        CASES[code] = function
        if pending is not None:
            PENDING[code] = pending
        return function
    return register


def engine_case(code: str) -> Callable[[Callable[[], EngineError]], Case]:
    """A case made in the engine: its refusal travels as the host's `refused` answer to an
    intent, the way host/game.py sends it."""
    def register(function: Callable[[], EngineError]) -> Case:
        async def run(nursery: trio.Nursery) -> Outcome:
            error = function()
            return refused(1, 7, error.code.value, error.message).message, None
        CASES[code] = run
        return run
    return register


def refusal(match: Match, seat: int, action: Action) -> EngineError:
    """The engine's refusal of `action`; the match is left exactly as it was."""
    before = match.state()
    with pytest.raises(EngineError) as info:
        match.apply(seat, action)
    assert match.state() == before
    return info.value


# -- framing, messages, handshake ----------------------------------------------------------------


def _vector(code: str) -> dict[str, Any]:
    return next(v for v in malformed_vectors() if v["code"] == code)


async def _vector_case(nursery: trio.Nursery, code: str) -> Outcome:
    """A vector of protocol/vectors/malformed.json: a frame before the hello (fatal), or a
    message after it (refused, the connection goes on)."""
    host = await start_host(nursery)
    vector = _vector(code)
    peer = await Peer.open(host.listener, hello=vector["stage"] == "message")
    if vector["stage"] == "message":
        await peer.welcome()
        await peer.send_raw(bytes.fromhex(vector["hex"]))
        return await peer.error(), peer
    await peer.send_raw(bytes.fromhex(vector["hex"]))
    return await peer.error_then_close(), peer


for _code in ("bad_frame", "frame_too_large", "duplicate_key", "bad_message",
              "unknown_message", "unexpected_message"):
    async def _run(nursery: trio.Nursery, code: str = _code) -> Outcome:
        return await _vector_case(nursery, code)
    CASES[_code] = _run


@case("unsupported_version")
async def _unsupported_version(nursery: trio.Nursery) -> Outcome:
    host = await start_host(nursery)
    peer = await Peer.open(host.listener, v=[99])
    error = await peer.error_then_close()
    assert error["supported"] == [1]
    return error, peer


@case("handshake_failed")
async def _handshake_failed(nursery: trio.Nursery) -> Outcome:
    host = await start_host(nursery)
    peer = await Peer.open(host.listener, hello=False)
    await peer.send({"t": "list_tables", "id": 1})
    return await peer.error_then_close(), peer


@case("handshake_timeout")
async def _handshake_timeout(nursery: trio.Nursery) -> Outcome:
    host = await start_host(nursery)
    peer = await Peer.open(host.listener, hello=False)  # and then nothing at all
    return await peer.error_then_close(), peer


@case("invalid_resume")
async def _invalid_resume(nursery: trio.Nursery) -> Outcome:
    host = await start_host(nursery)
    peer = await Peer.open(host.listener, resume=os.urandom(32))
    return await peer.error_then_close(), peer


@case("idle_timeout")
async def _idle_timeout(nursery: trio.Nursery) -> Outcome:
    host = await start_host(nursery)
    peer = await Peer.open(host.listener)
    await peer.welcome()
    await peer.send({"t": "spectate", "id": 1, "table": 0})
    await peer.kind("accepted")
    return await peer.error_then_close(), peer  # never a pong: the pings go unanswered


@case("rate_limited")
async def _rate_limited(nursery: trio.Nursery) -> Outcome:
    host = await start_host(nursery)
    peer = await Peer.open(host.listener)
    await peer.welcome()
    await peer.send_raw(encode_frame({"t": "teleport", "id": 1}) * 1_000)
    error = await peer.until(lambda f: f.get("t") == "error" and f["fatal"])
    while await peer.frame() is not None:
        pass
    return error, peer


@case("slow_consumer")
async def _slow_consumer(nursery: trio.Nursery) -> Outcome:
    """A client that never reads while asking for the table list (40 tables) thousands of
    times at once: the host's queue for it overflows while it handles that one read."""
    limits = ConnectionLimits(rate=1e9, burst=10**9, queue_frames=2)
    host = await start_host(nursery, limits, tables=40)
    raw = socket.socket()
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
    raw.setblocking(False)
    stream = trio.SocketStream(trio.socket.from_stdlib_socket(raw))
    await stream.socket.connect(host.listener.socket.getsockname()[:2])
    peer = Peer(stream)
    await peer.send(EXAMPLES["hello"])
    await peer.welcome()
    await peer.send_raw(b"".join(encode_frame({"t": "list_tables", "id": n + 1})
                                 for n in range(3_000)))
    with trio.fail_after(WAIT):
        while host.server.closes["slow_consumer"] < 1:
            await trio.sleep(0.01)
    frames = []
    while (frame := await peer.frame()) is not None:
        frames.append(frame)
    errors = [f for f in frames if f.get("t") == "error"]
    # SPEC [UNO-13-4]: the last error may not get through a full window; the close does.
    return (errors[-1] if errors else {"code": "slow_consumer", "fatal": peer.closed}), peer


@case("server_full")
async def _server_full(nursery: trio.Nursery) -> Outcome:
    """Connections that each watch a table (no squatters to drop) until one is refused."""
    host = await start_host(nursery, ConnectionLimits(max_connections=2))
    for _ in range(12):
        peer = await Peer.open(host.listener)
        first = await peer.until(lambda f: f.get("t") in ("welcome", "error"))
        if first["t"] == "error":
            while await peer.frame() is not None:
                pass
            return first, peer
        await peer.send({"t": "spectate", "id": 1, "table": 0})
        await peer.kind("accepted")
    raise AssertionError("twelve connections and no refusal")


@case("shutting_down")
async def _shutting_down(nursery: trio.Nursery) -> Outcome:
    async with trio.open_nursery() as hosting:
        host = await start_host(hosting)
        peer = await player(host, "ana")
        hosting.cancel_scope.cancel()  # the host stops (Ctrl-C on `unonet host` does this)
    return await peer.error_then_close(), peer


@case("kicked")
async def _kicked(nursery: trio.Nursery) -> Outcome:
    host = await start_host(nursery)
    ada, number = await owner(host)
    bo = await player(host, "bo", number)
    await ada.send({"t": "kick", "id": 2, "seat": 1})
    return await bo.error_then_close(), bo


@case("seat_in_use")
async def _seat_in_use(nursery: trio.Nursery) -> Outcome:
    host = await start_host(nursery)
    ana = await Peer.open(host.listener, name="ana")
    await ana.welcome()
    seated = await ana.seated({"t": "join_table", "id": 1, "table": 0, "name": "ana"})
    await ana.send({"t": "list_tables", "id": 2})  # ana is alive and talking
    await ana.kind("tables")
    thief = await Peer.open(host.listener, resume=seated["token"])
    return await thief.error_then_close(), thief


@case("table_failed")
async def _table_failed(nursery: trio.Nursery) -> Outcome:
    """A table whose request handler raises (a bug, injected here) is closed; its members
    are told and the host goes on."""
    host = await start_host(nursery, tables=2)
    ana = await player(host, "ana", 0)
    ready = TABLE_REQUESTS["ready"]

    def broken(table: Table, *args: Any) -> None:
        if table.number == 0:
            raise RuntimeError("a bug in the table")
        ready.run(table, *args)

    TABLE_REQUESTS["ready"] = TableRequest(broken)  # table 0's ready handler, patched
    try:
        await ana.send({"t": "ready", "id": 2, "ready": True})
        error = await ana.error_then_close()
        bo = await player(host, "bo", 1)  # the other table still serves
        assert await bo.still_answers()
    finally:
        TABLE_REQUESTS["ready"] = ready
    return error, ana


# -- the lobby ---------------------------------------------------------------------------------


async def _lobby_refusal(nursery: trio.Nursery, message: dict[str, Any]) -> Outcome:
    host = await start_host(nursery)
    peer = await Peer.open(host.listener)
    await peer.welcome()
    await peer.send(message)
    return await peer.error(), peer


@case("unknown_table")
async def _unknown_table(nursery: trio.Nursery) -> Outcome:
    return await _lobby_refusal(nursery, {"t": "join_table", "id": 1, "table": 99,
                                          "name": "ana"})


@case("seat_taken")
async def _seat_taken(nursery: trio.Nursery) -> Outcome:  # the bot sits in seat 0
    return await _lobby_refusal(nursery, {"t": "join_table", "id": 1, "table": 0,
                                          "name": "ana", "seat": 0})


@case("not_at_table")
async def _not_at_table(nursery: trio.Nursery) -> Outcome:
    return await _lobby_refusal(nursery, {"t": "ready", "id": 1, "ready": True})


@case("table_full")
async def _table_full(nursery: trio.Nursery) -> Outcome:
    host = await start_host(nursery)  # a bot and one seat for a player
    await player(host, "ana")
    bo = await Peer.open(host.listener, name="bo")
    await bo.welcome()
    return await bo.seated({"t": "join_table", "id": 1, "table": 0, "name": "bo"}), bo


@case("not_owner")
async def _not_owner(nursery: trio.Nursery) -> Outcome:
    host = await start_host(nursery)
    _, number = await owner(host)
    bo = await player(host, "bo", number)
    await bo.send({"t": "start", "id": 2})
    return await bo.error(), bo


@case("not_ready")
async def _not_ready(nursery: trio.Nursery) -> Outcome:
    host = await start_host(nursery)
    ada, number = await owner(host)
    await player(host, "bo", number)  # seated, not ready
    await ada.send({"t": "start", "id": 2})
    return await ada.error(), ada


@case("game_in_progress")
async def _game_in_progress(nursery: trio.Nursery) -> Outcome:
    host = await start_host(nursery)
    await in_round(host)
    bo = await Peer.open(host.listener, name="bo")
    await bo.welcome()
    return await bo.seated({"t": "join_table", "id": 1, "table": 0, "name": "bo"}), bo


@case("invalid_name")
async def _invalid_name(nursery: trio.Nursery) -> Outcome:
    return await _lobby_refusal(nursery, {"t": "join_table", "id": 1, "table": 0,
                                          "name": "host"})


@case("table_limit")
async def _table_limit(nursery: trio.Nursery) -> Outcome:
    """One address creates tables (each kept by its creator's seat, so every connection is
    held open) until refused."""
    host = await start_host(nursery, ConnectionLimits(max_connections=64))
    creators: list[Peer] = []
    for n in range(12):
        peer = await Peer.open(host.listener, name=f"p{n}")
        creators.append(peer)
        await peer.welcome()
        answer = await peer.seated({"t": "create_table", "id": 1, "name": f"t{n}"})
        if answer["t"] == "error":
            return answer, peer
    raise AssertionError("twelve tables from one address and no refusal")


@case("chat_limited")
async def _chat_limited(nursery: trio.Nursery) -> Outcome:
    host = await start_host(nursery)
    ana = await player(host, "ana")
    await ana.send_raw(b"".join(encode_frame({"t": "chat", "text": f"line {n}"})
                                for n in range(30)))
    return await ana.error(), ana


@case("penalty_limit")
async def _penalty_limit(nursery: trio.Nursery) -> Outcome:
    """The owner of a table a client created penalizes its bot, again and again, in one
    round: the round's allowance runs out."""
    host = await start_host(nursery)
    ada, _ = await owner(host)
    await ada.send({"t": "add_bot", "id": 2})
    await ada.send({"t": "ready", "id": 3, "ready": True})
    await ada.send({"t": "start", "id": 4})
    await ada.until(lambda f: f.get("t") == "event")
    for n in range(10):
        await ada.send({"t": "penalize", "id": 10 + n, "seat": 1, "count": 1})
    return await ada.until(lambda f: f.get("t") == "error" and f["code"] == "penalty_limit"), ada


# -- trust ---------------------------------------------------------------------------------------


@case("fairness_violation")
async def _fairness_violation(nursery: trio.Nursery) -> Outcome:
    """A client's code (the host is the one it accuses; SPEC [UNO-7-7]: the reference
    client never sends it): a third-party client that does is closed, counted under it."""
    host = await start_host(nursery)
    peer = await player(host, "ana")
    error = {"t": "error", "code": "fairness_violation", "fatal": True,
             "msg": "seed_commits does not hold my commitment"}
    await peer.send(error)
    while await peer.frame() is not None:
        pass
    assert host.server.closes["fairness_violation"] == 1
    return error, peer


@case("commit_mismatch")
async def _commit_mismatch(nursery: trio.Nursery) -> Outcome:
    host = await start_host(nursery)
    ana = await player(host, "ana")
    await ana.send({"t": "ready", "id": 2, "ready": True})
    prepare = await ana.kind("round_prepare")
    await ana.send({"t": "seed_commit", "round": prepare["round"], "commit": os.urandom(32)})
    await ana.kind("seed_commits")
    await ana.send({"t": "seed_reveal", "round": prepare["round"], "seed": os.urandom(32)})
    return await ana.error(), ana


# -- engine codes over the network ----------------------------------------------------------------


@case("unknown_seat")
async def _unknown_seat(nursery: trio.Nursery) -> Outcome:
    """Issue 13's instance: a catch of a seat that does not exist (the table has 2)."""
    host = await start_host(nursery)
    ana = await in_round(host)
    await ana.send({"t": "intent", "id": 5, "action": {"type": "catch", "target": 9}})
    error = await ana.error()
    assert error["ref"] == 5
    return error, ana


@case("invalid_rules")
async def _invalid_rules(nursery: trio.Nursery) -> Outcome:
    host = await start_host(nursery)
    ada, _ = await owner(host)
    await ada.send({"t": "set_rules", "id": 2, "options": {"hand_size": 0}})
    return await ada.error(), ada


@case("not_implemented")
async def _not_implemented(nursery: trio.Nursery) -> Outcome:
    """Every variant is played today: a host whose engine did not play No Mercy refuses it."""
    unplayed = frozenset({"classic", "flip"})
    with _patched(rules_module._IMPLEMENTED, "variant", unplayed):
        host = await start_host(nursery)
        peer = await Peer.open(host.listener)
        await peer.welcome()
        return await peer.seated({"t": "create_table", "id": 1, "preset": "no_mercy"}), peer


@contextlib.contextmanager
def _patched(table: dict[str, Any], key: str, value: Any) -> Iterator[None]:
    before = table[key]
    table[key] = value
    try:
        yield
    finally:
        table[key] = before


# -- engine codes on stacked decks -----------------------------------------------------------------


def _two(hands: tuple[list[str], list[str]], top: str = "r5", draws: tuple[str, ...] = (),
         rules: RuleSet | None = None) -> tuple[Match, int, int]:
    """A two-seat round: the match, the seat to play and the other one."""
    match = deal(list(hands), top=top, draws=draws, rules=rules)
    seat = current(match)
    return match, seat, 1 - seat


_SAME = (["r1", "g7", "W", "y2"], ["r2", "g8", "W", "y3"])
"""Both hands alike in kind, so whichever seat plays first holds what a case needs."""


@engine_case("not_your_turn")
def _not_your_turn() -> EngineError:
    match, _, other = _two(_SAME)
    return refusal(match, other, Draw())


def _challenge_pending() -> tuple[Match, int, int]:
    """A Wild Draw Four played: the other seat decides whether to challenge it."""
    match, seat, other = _two((["W+4", "g7"], ["W+4", "g8"]))
    match.apply(seat, Play(card(match, seat, "W+4"), Color.BLUE))
    return match, seat, other


@engine_case("not_your_decision")
def _not_your_decision() -> EngineError:
    match, seat, _ = _challenge_pending()
    return refusal(match, seat, Draw())


@engine_case("wrong_phase")
def _wrong_phase() -> EngineError:
    match, _, other = _challenge_pending()
    return refusal(match, other, Draw())  # challenge or accept, not a draw


@engine_case("card_not_in_hand")
def _card_not_in_hand() -> EngineError:
    match, seat, other = _two(_SAME)
    return refusal(match, seat, Play(match.view(other).hand[0]))


@engine_case("illegal_card")
def _illegal_card() -> EngineError:
    match, seat, _ = _two(_SAME)
    green = next(c for c in match.view(seat).hand if code(match, c)[0] == "g")
    return refusal(match, seat, Play(green))


@engine_case("illegal_wild_draw_four")
def _illegal_wild_draw_four() -> EngineError:
    match, seat, _ = _two((["W+4", "r1"], ["W+4", "r2"]), rules=RuleSet(wd4_policy="enforce"))
    return refusal(match, seat, Play(card(match, seat, "W+4"), Color.BLUE))


@engine_case("color_required")
def _color_required() -> EngineError:
    match, seat, _ = _two(_SAME)
    return refusal(match, seat, Play(card(match, seat, "W")))


@engine_case("color_not_allowed")
def _color_not_allowed() -> EngineError:
    match, seat, _ = _two(_SAME)
    red = next(c for c in match.view(seat).hand if code(match, c)[0] == "r")
    return refusal(match, seat, Play(red, Color.BLUE))


@engine_case("must_play_drawn_card")
def _must_play_drawn_card() -> EngineError:
    match, seat, _ = _two(_SAME, draws=("r9",))
    match.apply(seat, Draw())  # r9 plays: only it may be played now
    red = next(c for c in match.view(seat).hand if code(match, c) in
               ("r1", "r2"))
    return refusal(match, seat, Play(red))


@engine_case("cannot_draw")
def _cannot_draw() -> EngineError:
    match, seat, _ = _two(_SAME, draws=("r9",))
    match.apply(seat, Draw())
    return refusal(match, seat, Draw())


@engine_case("cannot_pass")
def _cannot_pass() -> EngineError:
    match, seat, _ = _two(_SAME)
    return refusal(match, seat, Pass())


@engine_case("not_catchable")
def _not_catchable() -> EngineError:
    match, seat, other = _two(_SAME)
    return refusal(match, seat, Catch(other))  # four cards: nothing to catch


@engine_case("uno_not_allowed")
def _uno_not_allowed() -> EngineError:
    match, seat, _ = _two(_SAME)
    return refusal(match, seat, CallUno())


@engine_case("nothing_to_challenge")
def _nothing_to_challenge() -> EngineError:
    match, seat, _ = _two(_SAME)
    return refusal(match, seat, Challenge())


@engine_case("action_not_allowed")
def _action_not_allowed() -> EngineError:
    match, seat, _ = _two(_SAME)  # no buzzers in these rules
    return refusal(match, seat, Buzz())


@engine_case("last_card_not_allowed")
def _last_card_not_allowed() -> EngineError:
    match, seat, _ = _two((["rS"], ["rS"]), rules=RuleSet(action_finish=False))
    return refusal(match, seat, Play(card(match, seat, "rS")))


@engine_case("invalid_combination")
def _invalid_combination() -> EngineError:
    match, seat, _ = _two((["r1", "r3", "g1"], ["r1", "r3", "g2"]),
                          rules=RuleSet(sequences=True))
    hand = match.view(seat).hand
    r1, r3 = (next(c for c in hand if code(match, c) == name)
              for name in ("r1", "r3"))
    return refusal(match, seat, Play(r1, also=(r3,)))  # 1 then 3 is no run


@engine_case("draw_pending")
def _draw_pending() -> EngineError:
    match, seat, other = _two((["r+2", "g1"], ["r+2", "g2"]),
                              rules=RuleSet(stacking="same_kind"))
    match.apply(seat, Play(card(match, seat, "r+2")))
    return refusal(match, other, Draw())  # stack it or accept it, not a draw


@engine_case("invalid_target")
def _invalid_target() -> EngineError:
    match = deal([["r7", "g1"], ["g7", "g2"], ["y7", "g3"]], top="b7",
                  rules=RuleSet(seven_zero=True))
    seat = current(match)
    seven = next(c for c in match.view(seat).hand if code(match, c)[1] == "7")
    match.apply(seat, Play(seven))
    return refusal(match, seat, ChooseTarget(seat))  # a swap with oneself


@engine_case("round_over")
def _round_over() -> EngineError:
    match, seat, other = _two((["r1"], ["r2"]))
    match.apply(seat, Play(match.view(seat).hand[0]))  # out of cards: the round is over
    return refusal(match, other, Draw())


@engine_case("match_over")
def _match_over() -> EngineError:
    match, seat, other = _two((["W"], ["W"]), rules=RuleSet(target=50))
    match.apply(seat, Play(match.view(seat).hand[0], Color.RED))  # a Wild left: 50 points
    return refusal(match, other, Draw())


# -- the tests -------------------------------------------------------------------------------------


def _params() -> list[Any]:
    return [pytest.param(code, marks=pytest.mark.xfail(strict=True, reason=PENDING[code]))
            if code in PENDING else code for code in spec_codes()]


def test_spec_12_and_the_code_agree_on_every_code_and_which_ones_close() -> None:
    codes = spec_codes()
    assert set(codes) == ALL_CODES
    assert {code for code, fatal in codes.items() if fatal} == FATAL


def test_every_code_of_spec_12_has_a_case() -> None:
    """A code SPEC.md gains without a way to make it happen fails here (and in its own
    parametrized case below, which finds no case)."""
    assert set(spec_codes()) - set(CASES) == set()
    assert set(CASES) - set(spec_codes()) == set()


@pytest.mark.parametrize("code", _params())
async def test_each_code_happens_with_its_fatal_flag(
    code: str, nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    fatal = spec_codes()[code]
    make = CASES.get(code)
    assert make is not None, f"SPEC 12 names {code!r} and no case here makes it happen"
    with trio.fail_after(WAIT * 4):
        error, peer = await make(nursery)
    assert (error["code"], error["fatal"]) == (code, fatal), error
    if peer is not None and code != "fairness_violation":
        if fatal:
            assert await peer.frame() is None, "a fatal error closes the connection"
        else:
            assert await peer.still_answers(), "a refusal leaves the connection working"


def test_each_codes_meaning_is_the_one_spec_gives() -> None:
    """protocol.errors.MEANINGS (what the host's messages and logs say a code means) is SPEC
    12's wording, word for word: the two cannot drift apart."""
    from protocol.errors import MEANINGS

    spec = spec_meanings()
    assert {code: spec.get(code) for code in MEANINGS} == dict(MEANINGS)
