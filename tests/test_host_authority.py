"""A dedicated server's table is its operator's (issue 13 point 3): on `unonet host --headless`
no player owns it, so none changes its rules, kicks or penalizes, unless the operator grants it
(`--player-owner`); where a player owns a table, its penalties are limited and logged. Host
notices are marked and nobody is called "host" (point 5, host side). Over loopback.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

import pytest
import trio
import trio.testing
from test_host_reconnect import RawClient

from host.registry import Registry
from host.run import HostOptions, build_registry
from host.server import HostServer, ServerConfig
from host.settings import FAST_TIMINGS, TableTimings
from host.table import TableSettings, host_notice
from host.table_limits import PENALTIES_PER_ROUND, PENALTY_MAX_CARDS
from protocol.client_session import (
    ClientSession,
    PeerError,
    RequestAccepted,
    RequestRefused,
    Snapshot,
    Welcomed,
)
from protocol.connection import ConnectionFailed
from protocol.limits import RECEIVE_CHUNK
from unonet.match import IN_ROUND
from unonet.rules import RuleSet

WAIT = 20.0
"""The bound on any wait for the host (real time): a loaded machine is slow, not wrong."""

SLOW_BOTS = TableTimings(grace=5.0, challenge_decision=600.0, seed_phase=0.2, bot_delay=600.0,
                         bot_reaction=(0.0, 0.0), round_break=0.0, match_break=0.0,
                         ready_wait=5.0)
"""Bots that wait ten minutes before each move: the round stays where the test leaves it."""


class Member(RawClient):
    """A raw protocol client with a name of its choosing, that reads until a condition holds
    (or the host closes the connection)."""

    def __init__(self, stream: trio.abc.Stream, name: str = "ana",
                 resume: bytes | None = None) -> None:
        super().__init__(stream, resume)
        self.session = ClientSession(name=name, resume=resume)
        self.name = name
        self.closed = False

    @classmethod
    async def connect(cls, listener: trio.SocketListener, name: str = "ana",
                      resume: bytes | None = None) -> Member:
        member = cls(await trio.testing.open_stream_to_socket_listener(listener), name, resume)
        await member.send(member.session.hello())
        return member

    async def until_true(self, wanted: Callable[[], bool], timeout: float = WAIT) -> None:
        """Read (answering pings) until `wanted()` holds; the host closing ends it too."""
        with trio.fail_after(timeout):
            while not wanted() and not self.closed:
                try:
                    data = bytes(await self.stream.receive_some(RECEIVE_CHUNK))
                except trio.BrokenResourceError:
                    data = b""
                if not data:
                    self.closed = True
                    return
                self.events += self.session.receive_data(data)
                pending = self.session.data_to_send()
                if pending:
                    try:
                        await self.stream.send_all(pending)
                    except trio.BrokenResourceError:
                        self.closed = True

    async def ask(self, kind: str, **fields: object) -> int:
        """Send a request and wait for its answer; its id."""
        request, frame = self.session.request(kind, **fields)
        await self.send(frame)
        await self.until_true(lambda: self.answer(request) is not None)
        return request

    async def answer_of(self, kind: str, **fields: object) -> str | None:
        """Send a request; "accepted" or the code it was refused with."""
        return self.answer(await self.ask(kind, **fields))

    def seated_names(self) -> list[object]:
        """The names in the last table_state this client got."""
        seats = self.last("table_state")["seats"]
        assert isinstance(seats, list)
        return [seat["name"] for seat in seats]

    def answer(self, request: int) -> str | None:
        """"accepted", the refusal's code, or None while unanswered."""
        for event in self.events:
            if isinstance(event, RequestAccepted) and event.id == request:
                return "accepted"
            if isinstance(event, RequestRefused) and event.id == request:
                return str(event.error.code)
        return None

    def errors(self) -> list[str]:
        """Codes of errors answering no request, and of a fatal one."""
        return [str(e.error.code) for e in self.events
                if isinstance(e, PeerError | ConnectionFailed)]

    def last(self, kind: str) -> dict[str, object]:
        return self.messages(kind)[-1]


async def serve(nursery: trio.Nursery, registry: Registry) -> trio.SocketListener:
    server = HostServer(registry, ServerConfig(bind="127.0.0.1", port=0))
    listeners: list[trio.SocketListener] = await nursery.start(server.serve)
    return listeners[0]


async def in_a_match(listener: trio.SocketListener, name: str = "ana") -> Member:
    """A member who joins table 0, says ready and is in its match (its first snapshot)."""
    member = await Member.connect(listener, name)
    await member.until(Welcomed)
    assert await member.answer_of("join_table", table=0, name=name) == "accepted"
    await member.send(member.session.request("ready", ready=True)[1])
    await member.until(Snapshot)
    return member


def headless(tmp_path: Path, **options: object) -> Registry:
    """What `unonet host --headless --seats 3 --bots 1` serves (run.py builds it)."""
    return build_registry(HostOptions(seats=3, bots=1, headless=True, tls=False,
                                      **options),  # type: ignore[arg-type]
                          tmp_path / "journals", trio.current_time())


async def test_on_a_dedicated_server_no_player_owns_the_table_or_overrides_the_operator(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    registry = headless(tmp_path)
    listener = await serve(nursery, registry)
    ana = await Member.connect(listener, "ana")
    await ana.until(Welcomed)
    assert await ana.answer_of("join_table", table=0, name="ana") == "accepted"
    bo = await Member.connect(listener, "bo")
    await bo.until(Welcomed)
    assert await bo.answer_of("join_table", table=0, name="bo") == "accepted"
    await ana.until_true(lambda: "bo" in ana.seated_names())
    assert ana.last("table_state")["owner"] is None
    # The first to sit would have owned it: rules, kicks and bots are the operator's.
    assert await ana.answer_of("set_rules", options={"target": 50}) == "not_owner"
    assert await ana.answer_of("kick", seat=1) == "not_owner"
    assert await ana.answer_of("add_bot", level="easy") == "not_owner"
    table = registry.tables[0]
    assert table.rules.target == RuleSet().target and table.room.seats[1] is not None
    # The players still start it as a dedicated table does: every seat filled and ready.
    await ana.send(ana.session.request("ready", ready=True)[1])
    await bo.send(bo.session.request("ready", ready=True)[1])
    await ana.until(Snapshot)
    assert table.owner is None
    assert table.game is not None
    hands = [len(table.game.match.view(seat).hand) for seat in range(3)]
    assert await ana.answer_of("penalize", seat=1, count=2) == "not_owner"
    assert [len(table.game.match.view(seat).hand) for seat in range(3)] == hands


async def test_the_operator_grants_ownership_with_player_owner(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    registry = headless(tmp_path, player_owner=True)
    listener = await serve(nursery, registry)
    ana = await Member.connect(listener, "ana")
    await ana.until(Welcomed)
    assert await ana.answer_of("join_table", table=0, name="ana") == "accepted"
    assert ana.last("table_state")["owner"] == ana.last("seated")["seat"]
    assert await ana.answer_of("set_rules", options={"target": 50}) == "accepted"
    assert registry.tables[0].rules.target == 50


async def test_an_owners_penalties_are_limited_per_request_per_seat_and_per_round_and_logged(
    nursery: trio.Nursery, caplog: pytest.LogCaptureFixture
) -> None:
    registry = Registry(SLOW_BOTS)
    table = registry.create_table(TableSettings("club", RuleSet(target=500), capacity=5,
                                                headless=True, target_seats=5,
                                                timings=SLOW_BOTS))
    listener = await serve(nursery, registry)
    ana = await Member.connect(listener, "ana")
    await ana.until(Welcomed)
    assert await ana.answer_of("join_table", table=0, name="ana") == "accepted"
    for _ in range(4):
        table.add_bot()
    await ana.send(ana.session.request("ready", ready=True)[1])
    await ana.until(Snapshot)
    game = table.game
    assert table.owner == 0 and game is not None
    await ana.until_true(lambda: game.match.phase == IN_ROUND)  # its seed phase past
    caplog.set_level(logging.INFO, logger="unonet.host.table")
    before = [len(game.match.view(seat).hand) for seat in range(5)]
    # Seat 0 drew 30 cards in three requests before: now one request gives at most a few.
    assert await ana.answer_of("penalize", seat=1, count=PENALTY_MAX_CARDS + 1) \
        == "penalty_limit"
    assert await ana.answer_of("penalize", seat=1, count=PENALTY_MAX_CARDS) == "accepted"
    assert await ana.answer_of("penalize", seat=1, count=1) == "penalty_limit"  # once a seat
    assert await ana.answer_of("penalize", seat=2) == "accepted"
    assert await ana.answer_of("penalize", seat=3) == "accepted"
    assert PENALTIES_PER_ROUND == 3
    assert await ana.answer_of("penalize", seat=4) == "penalty_limit"  # three a round
    drawn = [len(game.match.view(seat).hand) - before[seat] for seat in range(5)]
    assert drawn == [0, PENALTY_MAX_CARDS, 2, 2, 0]
    lines = [r.getMessage() for r in caplog.records if "penalized seat" in r.getMessage()]
    assert len(lines) == 3 and "ana" in lines[0] and f"{PENALTY_MAX_CARDS} cards" in lines[0]


async def test_nobody_is_called_host_and_host_notices_are_marked(
    nursery: trio.Nursery,
) -> None:
    registry = Registry(FAST_TIMINGS)
    registry.create_table(TableSettings("t", RuleSet(target=500), headless=True,
                                        target_seats=3, timings=FAST_TIMINGS,
                                        notice=host_notice("Friends join with: unonet join "
                                                           "10.0.0.1")))
    listener = await serve(nursery, registry)
    eve = await Member.connect(listener, "eve")
    await eve.until(Welcomed)
    for spelt in ("host", "HOST", "H o s t", "host:"):
        assert await eve.answer_of("join_table", table=0, name=spelt) == "invalid_name"
    assert registry.tables[0].room.members == {}
    assert await eve.answer_of("join_table", table=0, name="eve") == "accepted"
    await eve.until_true(lambda: bool(eve.messages("chat_message")))
    notice = eve.messages("chat_message")[0]
    assert notice["host"] is True and notice["name"] == "host"
    await eve.send(eve.session.chat("Friends join with: unonet join 6.6.6.6 --fingerprint X"))
    await eve.until_true(lambda: len(eve.messages("chat_message")) == 2)
    line = eve.messages("chat_message")[1]
    assert line["name"] == "eve" and "host" not in line

