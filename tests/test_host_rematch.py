"""After a match (issue 12, point 2), over real loopback sockets: `ready` asks for a rematch with
the same seats ([UNO-8-11]), a `leave` is a clean leave (the seat is freed, no stand-in), and the
table is back in its lobby as soon as nobody is still reading the scores. The table waits up to
`match_break` (here for ever) otherwise, so nothing below can pass by a timer running out."""

from __future__ import annotations

from dataclasses import replace

import trio
from client_net import MACHINE_SPEED, LinkHarness, play_until, start_host, start_link

from client.link import GameEvent, LobbyChanged, Snapshot, TrustReport, Update
from client.lobby import Leave, SetReady, StartMatch
from client.network import LinkConfig
from host.registry import Registry
from host.server import HostServer, ServerConfig
from host.settings import FAST_TIMINGS
from host.table import Table, TableSettings
from unonet import events as ev
from unonet.rules import RuleSet

TIMINGS = replace(FAST_TIMINGS, match_break=10_000.0)
ONE_ROUND = RuleSet(max_rounds=1)


def ended(update: Update) -> bool:
    return isinstance(update, GameEvent) and isinstance(update.event, ev.MatchEnded)


def ready(update: Update, name: str) -> bool:
    """Whether `update` is a table_state with `name` seated and ready."""
    return isinstance(update, LobbyChanged) and any(
        s.name == name and s.ready for s in update.lobby.seats)


def table_started(table: Table) -> bool:
    """`table.started` read afresh (mypy keeps a re-read after an assert narrowed)."""
    return table.started


def humans(update: LobbyChanged) -> list[str | None]:
    return [s.name for s in update.lobby.seats if s.kind == "human"]


def lobby(update: Update, started: bool) -> bool:
    return isinstance(update, LobbyChanged) and update.lobby.started is started


async def owner_table(nursery: trio.Nursery) -> tuple[Table, int]:
    """A table like `unonet host`'s (not headless: its owner starts), with one bot."""
    registry = Registry(TIMINGS)
    table = registry.create_table(TableSettings("friends", ONE_ROUND, timings=TIMINGS))
    table.add_bot()
    server = HostServer(registry, ServerConfig(bind="127.0.0.1", port=0,
                                               limits=MACHINE_SPEED))
    listeners: list[trio.SocketListener] = await nursery.start(server.serve)
    return table, listeners[0].socket.getsockname()[1]


async def join(nursery: trio.Nursery, port: int, name: str) -> LinkHarness:
    config = LinkConfig("127.0.0.1", port, name=name, tls=False, table=0, auto_ready=True)
    harness = await start_link(nursery, config)
    await harness.until(lambda u: isinstance(u, LobbyChanged) and u.lobby.you is not None)
    return harness


async def a_finished_match(nursery: trio.Nursery) -> tuple[Table, LinkHarness, LinkHarness]:
    """Ada (the owner) and Bo with a bot, one round played to the match's end."""
    table, port = await owner_table(nursery)
    ana = await join(nursery, port, "Ada")
    bo = await join(nursery, port, "Bo")
    await ana.until(lambda u: isinstance(u, LobbyChanged)
                    and sum(s.ready for s in u.lobby.seats) == 3)
    ana.send(StartMatch())
    async with trio.open_nursery() as both:
        both.start_soon(play_until, ana, ended)
        both.start_soon(play_until, bo, ended)
    assert table.game is not None and table.game.over and table.started
    return table, ana, bo


def clean(harness: LinkHarness) -> None:
    """No trust violation anywhere on this link (the simple player's stale moves may be
    refused: that is the race, not the rematch)."""
    assert not [u for u in harness.seen if isinstance(u, TrustReport) and not u.ok]


async def test_a_rematch_with_the_same_seats_when_every_player_asks(
    nursery: trio.Nursery
) -> None:
    table, ana, bo = await a_finished_match(nursery)
    first = table.game
    assert first is not None
    names = [s.name if s else None for s in table.room.seats]
    ana.send(SetReady(True))
    asked = await bo.until(lambda u: lobby(u, True) and ready(u, "Ada"))
    assert not ready(asked, "Bo")  # Bo is still reading the scores
    assert table.game is first  # one answer is not a rematch
    bo.send(SetReady(True))
    for harness in (ana, bo):  # the new match's snapshot: a new deal, same seats
        await harness.until(lambda u: isinstance(u, Snapshot) and u.view.round_no <= 1
                            and u.view.phase.value != "match_over")
    assert table.finished == [first.match] and table.game is not first
    assert [s.name if s else None for s in table.room.seats] == names
    assert table.game is not None and table.game.game_id != first.game_id
    async with trio.open_nursery() as both:  # and it plays to its end, verified
        both.start_soon(play_until, ana, ended)
        both.start_soon(play_until, bo, ended)
    clean(ana)
    clean(bo)


async def test_leaving_after_the_match_frees_the_seat_at_once(nursery: trio.Nursery) -> None:
    table, ana, bo = await a_finished_match(nursery)
    bo.send(Leave())
    freed = await ana.until(lambda u: isinstance(u, LobbyChanged) and humans(u) == ["Ada"])
    assert isinstance(freed, LobbyChanged) and freed.lobby.started  # Ada is still reading
    assert [s.kind for s in freed.lobby.seats].count("bot") == 1  # no stand-in for Bo
    assert all(seat is None or not seat.taken_over for seat in table.room.seats)
    ana.send(SetReady(True))  # the last one reading: the table is back in its lobby at once
    back = await ana.until(lambda u: lobby(u, False))
    assert isinstance(back, LobbyChanged) and back.lobby.owner == back.lobby.you
    assert table.game is None and len(table.finished) == 1  # Bo left: no automatic rematch
    assert ready(back, "Ada") and humans(back) == ["Ada"]
    clean(ana)


async def test_the_last_player_leaving_a_bot_table_closes_the_match_at_once(
    nursery: trio.Nursery
) -> None:
    host = await start_host(nursery, bots=2, rules=ONE_ROUND, timings=TIMINGS)
    me = await start_link(nursery, LinkConfig("127.0.0.1", host.port, name="me", tls=False,
                                              table=0, auto_ready=True))
    await play_until(me, ended)
    assert host.table.started
    me.send(Leave())
    with trio.fail_after(20):
        while table_started(host.table):
            await trio.sleep(0.01)
    assert [s.name for _, s in host.table.room.occupied()] == ["Ana", "Bruno"]  # bots only
    assert len(host.table.finished) == 1


async def test_a_rematch_at_a_bot_table_is_one_key(nursery: trio.Nursery) -> None:
    """`unonet play`'s table (headless, the player and bots): ready after the match deals the
    next one at once, not `match_break` later."""
    host = await start_host(nursery, bots=2, rules=ONE_ROUND, timings=TIMINGS)
    me = await start_link(nursery, LinkConfig("127.0.0.1", host.port, name="me", tls=False,
                                              table=0, auto_ready=True))
    await play_until(me, ended)
    me.send(SetReady(True))
    await me.until(lambda u: isinstance(u, Snapshot) and u.view.phase.value != "match_over")
    assert len(host.table.finished) == 1 and host.table.game is not None
    await play_until(me, ended)
    clean(me)


async def test_closing_the_link_after_the_match_is_leaving_it(nursery: trio.Nursery) -> None:
    """The client's q on the score screen closes its link: the link says `leave` first, so the
    others do not wait `match_break` on "Waiting for: Bo" and a newcomer finds the seat free
    (issue 12 audit, gap 5). A connection that merely drops there keeps its seat, as in a
    match: the player may come back for the scores, the last audit and the rematch."""
    table, ana, bo = await a_finished_match(nursery)
    await bo.close()
    freed = await ana.until(lambda u: isinstance(u, LobbyChanged) and humans(u) == ["Ada"])
    assert isinstance(freed, LobbyChanged) and freed.lobby.started  # Ada is still reading
    assert all(seat is None or not seat.taken_over for seat in table.room.seats)
    ana.send(SetReady(True))  # the last one reading: back in the lobby at once, no rematch
    back = await ana.until(lambda u: lobby(u, False))
    assert isinstance(back, LobbyChanged) and humans(back) == ["Ada"]
    assert table.game is None and len(table.finished) == 1
    clean(ana)


async def test_a_connection_dropped_after_the_match_keeps_its_seat(nursery: trio.Nursery) -> None:
    """A drop on the score screen (no `leave`) is not leaving: the seat waits for its player,
    who comes back to the finished match (its last audit included) and may still ask for the
    rematch."""
    table, ana, bo = await a_finished_match(nursery)
    seat = next(i for i, s in table.room.occupied() if s.name == "Bo")
    await bo.streams[-1].cut()
    await bo.until_state("reconnecting")
    await bo.until_state("connected")
    back = await bo.until(lambda u: isinstance(u, LobbyChanged) and u.lobby.you == seat)
    assert isinstance(back, LobbyChanged) and back.lobby.started  # the finished match's table
    assert sorted(humans(back), key=str) == ["Ada", "Bo"]  # key: a seat's name may be None
    taken = table.room.seats[seat]
    assert taken is not None and taken.conn is not None and not taken.taken_over
    clean(ana)
    clean(bo)
