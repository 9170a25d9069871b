"""table_state tells which seat a spectator may take (issue 12 audit, gap 6; SPEC.md
[UNO-8-14]), over real loopback sockets: a seat whose player dropped and is within the grace
period is waited for (`taken_over` false, and a join_table for it is refused with words that
make sense to someone already watching); a seat whose player left, which a stand-in plays, is
open (`taken_over` true). The grace period is made endless so that no timer decides."""

from __future__ import annotations

from dataclasses import replace

import pytest
import trio
import trio.testing
from client_net import play_until, start_host, start_link

from client.i18n import Translator
from client.link import GameEvent, LobbyChanged, Refused, TablesListed, Update
from client.lobby import JoinTable, Leave, SeatInfo, Spectate
from client.model import ClientModel
from client.network import LinkConfig
from client.render import compose
from client.wire import WireError, lobby_from_wire
from host.registry import Registry
from host.server import HostServer, ServerConfig
from host.settings import FAST_TIMINGS
from host.table import TableSettings
from protocol.examples import EXAMPLES
from unonet import events as ev
from unonet.rules import RuleSet

RULES = RuleSet(max_rounds=2, target=10_000)
ENDLESS_GRACE = replace(FAST_TIMINGS, grace=10_000.0)


def cards_played(update: Update) -> bool:
    return isinstance(update, GameEvent) and isinstance(update.event, ev.CardPlayed)


def link(port: int, name: str, spectate: bool = False) -> LinkConfig:
    return LinkConfig("127.0.0.1", port, name=name, tls=False, table=0, auto_ready=True,
                      spectate=spectate)


def seat_named(update: Update, name: str) -> SeatInfo | None:
    if not isinstance(update, LobbyChanged):
        return None
    return next((s for s in update.lobby.seats if s.name == name), None)


async def test_only_a_stand_ins_seat_is_shown_as_open(nursery: trio.Nursery) -> None:
    host = await start_host(nursery, bots=1, players=3, rules=RULES, timings=ENDLESS_GRACE)
    ana = await start_link(nursery, link(host.port, "Ana"))
    kill_bo = trio.CancelScope()  # a drop is a connection that dies, no bye (a quit is not)
    bo = await start_link(nursery, link(host.port, "Bo"), kill=kill_bo)
    dee = await start_link(nursery, link(host.port, "Dee"))
    cy = await start_link(nursery, link(host.port, "Cy", spectate=True))
    async with trio.open_nursery() as all_three:  # a few plays into the first round
        for player in (ana, bo, dee):
            all_three.start_soon(play_until, player, cards_played)
    lobby = await cy.until(lambda u: isinstance(u, LobbyChanged) and u.lobby.started)
    assert isinstance(lobby, LobbyChanged)
    assert not any(s.taken_over for s in lobby.lobby.seats)  # everyone is there
    assert host.table.summary()["open"] == 0  # the table list says: watch (SPEC [UNO-8-15])

    kill_bo.cancel()  # a drop: Bo's seat waits for him
    waiting = await cy.until(lambda u: (s := seat_named(u, "Bo")) is not None
                             and not s.connected)
    bo_seat = seat_named(waiting, "Bo")
    assert bo_seat is not None and not bo_seat.taken_over
    cy.send(JoinTable(0, "Cy", bo_seat.seat))
    refused = await cy.until_type(Refused)
    assert refused.code == "game_in_progress"
    assert "spectate instead" not in refused.message and "grace" in refused.message

    dee.send(Leave())  # a leave: a stand-in plays Dee's seat, which is open now
    opened = await cy.until(lambda u: (s := seat_named(u, "Dee")) is not None
                            and s.taken_over)
    assert isinstance(opened, LobbyChanged)
    assert [s.name for s in opened.lobby.seats if s.taken_over] == ["Dee"]
    assert host.table.summary()["open"] == 1  # Bo's seat waits for him; Dee's is open
    assert host.table.summary()["bots"] == 1  # Dee's stand-in is not a bot's seat ([UNO-8-16])
    assert host.table.room.seats[bo_seat.seat] is not None


def test_the_client_reads_taken_over_and_an_older_hosts_absence() -> None:
    message = dict(EXAMPLES["table_state"])
    seat = {"seat": 1, "kind": "human", "name": "bo", "ready": True, "connected": False}
    message["seats"] = [dict(seat, taken_over=True), dict(seat, seat=2), dict(seat, seat=3,
                                                                             taken_over=False)]
    assert [s.taken_over for s in lobby_from_wire(message).seats] == [True, False, False]
    message["seats"] = [dict(seat, taken_over=1)]
    with pytest.raises(WireError):
        lobby_from_wire(message)


async def test_a_seat_past_its_grace_is_shown_as_open_when_its_stand_in_takes_it(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock,
) -> None:
    """Found in tmux: the host logged "gone past the grace period; a bot plays it", but sent
    no table_state, so every screen still showed the player offline and a spectator's client
    refused the seat ("may still come back"). The members hear of the takeover now."""
    timings = replace(FAST_TIMINGS, grace=30.0)
    host = await start_host(nursery, bots=1, players=2, rules=RULES, timings=timings)
    ana = await start_link(nursery, link(host.port, "Ana"))
    kill_bo = trio.CancelScope()  # a drop, no bye: a quit is played by a bot at once
    bo = await start_link(nursery, link(host.port, "Bo"), kill=kill_bo)
    cy = await start_link(nursery, link(host.port, "Cy", spectate=True))
    async with trio.open_nursery() as both:
        for player in (ana, bo):
            both.start_soon(play_until, player, cards_played)
    kill_bo.cancel()
    dropped = await cy.until(lambda u: (s := seat_named(u, "Bo")) is not None
                             and not s.connected)
    dropped_at = trio.current_time()
    assert not seat_named(dropped, "Bo").taken_over  # type: ignore[union-attr]
    opened = await cy.until(lambda u: (s := seat_named(u, "Bo")) is not None and s.taken_over,
                            timeout=timings.grace + 10)
    assert trio.current_time() - dropped_at >= timings.grace - 1
    bo_seat = seat_named(opened, "Bo")
    assert bo_seat is not None
    cy.send(JoinTable(0, "Cy", bo_seat.seat))  # and the seat is the spectator's to take
    taken = await cy.until(lambda u: isinstance(u, LobbyChanged) and u.lobby.you == bo_seat.seat)
    assert isinstance(taken, LobbyChanged)


async def test_a_table_of_bots_alone_is_listed_as_one_to_watch(nursery: trio.Nursery) -> None:
    """Found in tmux: a dedicated server's table seated by two bots was listed "table 0: 2/2
    players", and Enter was refused: no free seat. Its match starts for its first watcher
    ([UNO-8-6]); the list says how many seats bots hold (SPEC [UNO-8-16]) and the client
    offers to watch it."""
    registry = Registry(FAST_TIMINGS)  # as `unonet host --headless --bots 2 --seats 2`
    table = registry.create_table(TableSettings("bots", RULES, capacity=2, headless=True,
                                                target_seats=2, timings=FAST_TIMINGS))
    for _ in range(2):
        table.add_bot()
    server = HostServer(registry, ServerConfig(bind="127.0.0.1", port=0))
    port = (await nursery.start(server.serve))[0].socket.getsockname()[1]
    harness = await start_link(nursery, LinkConfig("127.0.0.1", port, name="Vi", tls=False))
    listed = await harness.until_type(TablesListed)
    (listed_table,) = listed.tables
    assert (listed_table.players, listed_table.bots, listed_table.open,
            listed_table.started) == (2, 2, 0, False)
    model = ClientModel(Translator("en"), name="Vi")
    model.apply(listed)
    text = "".join(fragment[1] for fragment in compose(model, 80, 23, True))
    assert "bots: 2/2 players (bots only: w watches them play)" in text, text
    harness.send(Spectate(0))  # and watching it starts its match
    await harness.until(lambda u: isinstance(u, LobbyChanged) and u.lobby.started)
    await harness.close()
