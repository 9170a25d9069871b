"""A seat survives the client (issue 12, point 1): over real loopback sockets, a client killed in
mid-match leaves its token in seat_tokens, and a fresh client for the same host sits down in the
same seat; a token the host refuses is dropped with one line and the client joins as a
newcomer, once; a finished match's token is gone. Also: watching a table and taking a free seat
from the audience (point 4), and who comes and goes, in the chat (point 13)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import trio
from client_net import MACHINE_SPEED, LinkHarness, LocalHost, play_until, start_host, start_link

from client.i18n import Translator
from client.link import (
    ChatReceived,
    ConnectionChanged,
    LobbyChanged,
    LocalNews,
    Refused,
    SeatNews,
    TablesListed,
    Update,
)
from client.lobby import JoinTable, SetReady, Spectate, StartMatch
from client.model import ClientModel
from client.network import LinkConfig
from client.seat_tokens import TOKEN_LIFETIME, KeptSeat, SeatTokens
from host.registry import Registry
from host.server import HostServer, ServerConfig
from host.settings import FAST_TIMINGS
from host.table import TableSettings
from unonet import events as ev
from unonet.rules import RuleSet


def config(port: int, tokens: SeatTokens | None, **changes: object) -> LinkConfig:
    base: dict[str, Any] = {"name": "me", "tls": False, "table": 0, "auto_ready": True,
                            "seat_tokens": tokens}
    base.update(changes)
    return LinkConfig("127.0.0.1", port, **base)


def seated(update: Update) -> bool:
    return isinstance(update, LobbyChanged) and update.lobby.you is not None


def match_on(update: Update) -> bool:
    return isinstance(update, LobbyChanged) and update.lobby.started \
        and update.lobby.you is not None


async def killable_link(nursery: trio.Nursery, cfg: LinkConfig) -> tuple[LinkHarness,
                                                                          trio.CancelScope]:
    """A link the test kills (cancels) as a kill would end the process: no bye."""
    kill = trio.CancelScope()
    return await start_link(nursery, cfg, kill=kill), kill


async def seated_in_a_match(
    nursery: trio.Nursery, tokens: SeatTokens
) -> tuple[LocalHost, LinkHarness, trio.CancelScope, KeptSeat]:
    """A host with two bots and a killable client in its match; the seat it keeps (a token
    in `tokens`)."""
    host = await start_host(nursery, bots=2, rules=RuleSet(target=500))
    first, kill = await killable_link(nursery, config(host.port, tokens))
    started = await first.until(match_on)
    assert isinstance(started, LobbyChanged)
    await first.until(lambda u: isinstance(u, ConnectionChanged) or bool(tokens.entries()))
    (kept,) = tokens.entries()
    assert kept.seat == started.lobby.you
    return host, first, kill, kept


async def test_a_killed_client_run_again_takes_back_the_same_seat(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    tokens = SeatTokens(tmp_path / "seat_tokens")
    host, first, kill, kept = await seated_in_a_match(nursery, tokens)
    seat = kept.seat
    assert (kept.place, kept.table) == (f"127.0.0.1:{host.port}", 0)
    assert (tmp_path / "seat_tokens").stat().st_mode & 0o777 == 0o600

    kill.cancel()  # the terminal is closed: no bye, the host sees the socket die
    await first.finished.wait()
    await trio.sleep(0)
    # The host's grace runs out and a bot plays the seat: the token still takes it back.
    with trio.fail_after(20):
        while not any(s.taken_over for s in host.table.room.seats if s is not None):
            await trio.sleep(0.05)

    again = await start_link(nursery, config(host.port, tokens))
    back = await again.until(seated)
    assert isinstance(back, LobbyChanged)
    assert back.lobby.you == seat and back.lobby.started
    assert not [u for u in again.seen if isinstance(u, Refused)]  # never "spectate instead"
    human = host.table.room.seats[seat]
    assert human is not None and human.connected and not human.taken_over
    await again.close()
    (still,) = tokens.entries()  # quitting in mid-match keeps the seat for later
    assert still.seat == kept.seat and still.token != kept.token  # renewed by the resume


async def test_a_refused_token_is_dropped_with_one_line_and_the_client_joins_afresh(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    tokens = SeatTokens(tmp_path / "seat_tokens")
    host = await start_host(nursery, bots=1)
    place = f"127.0.0.1:{host.port}"
    tokens.keep(KeptSeat(place, "-", 0, 1, bytes(32), time.time()))
    harness = await start_link(nursery, config(host.port, tokens, auto_ready=False))
    await harness.until(seated)
    gone = [u for u in harness.seen if isinstance(u, Refused)]
    assert [u.code for u in gone] == ["invalid_resume"]
    assert "joining as a newcomer" in gone[0].message
    assert tokens.entries() == []
    # Refused once before any welcome, tried again without the token, welcomed: no loop.
    assert harness.states() == ["connecting", "connecting", "connected"]
    await harness.close()


async def test_an_old_token_is_forgotten_with_a_line_and_never_sent(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    tokens = SeatTokens(tmp_path / "seat_tokens")
    host = await start_host(nursery, bots=1)
    old = time.time() - TOKEN_LIFETIME - 60
    tokens.keep(KeptSeat(f"127.0.0.1:{host.port}", "-", 0, 1, bytes(32), old))
    harness = await start_link(nursery, config(host.port, tokens, auto_ready=False))
    await harness.until(seated)
    news = [u for u in harness.seen if isinstance(u, LocalNews)]
    assert [u.key for u in news] == ["news.seat_forgotten"]
    for lang, word in (("en", "forgotten"), ("it", "dimenticato"), ("pt", "esquecido")):
        model = ClientModel(Translator(lang), name="me")  # said in the player's language
        model.apply(news[0])
        assert word in model.chat[-1].text and f"127.0.0.1:{host.port}" in model.chat[-1].text
    assert not [u for u in harness.seen if isinstance(u, Refused)]  # the host never saw it
    assert tokens.entries() == []
    await harness.close()


async def test_the_token_of_a_finished_match_is_removed(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    # A table with an owner (not headless): after the match it waits in the lobby, so the
    # next match's token is not kept before the test looks.
    registry = Registry(FAST_TIMINGS)
    table = registry.create_table(TableSettings("net", RuleSet(target=50), headless=False,
                                                target_seats=2, timings=FAST_TIMINGS))
    table.add_bot()
    server = HostServer(registry, ServerConfig(bind="127.0.0.1", port=0,
                                               limits=MACHINE_SPEED))
    listeners: list[trio.SocketListener] = await nursery.start(server.serve)
    tokens = SeatTokens(tmp_path / "seat_tokens")
    harness = await start_link(nursery, config(listeners[0].socket.getsockname()[1], tokens))
    await harness.until(seated)
    harness.send(StartMatch())
    await harness.until(match_on)
    await play_until(harness, lambda u: bool(tokens.entries()), timeout=120)
    await play_until(harness, match_ended, timeout=120)
    await harness.until(lambda u: isinstance(u, LobbyChanged) and not u.lobby.started)
    assert tokens.entries() == []
    await harness.close()


def match_ended(update: Update) -> bool:
    from client.link import GameEvent

    return isinstance(update, GameEvent) and isinstance(update.event, ev.MatchEnded)


async def test_a_spectator_watches_then_takes_a_free_seat(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    tokens = SeatTokens(tmp_path / "seat_tokens")
    host = await start_host(nursery, bots=1, players=2)
    watcher = await start_link(nursery, config(host.port, tokens, spectate=True,
                                               auto_ready=False))
    watching = await watcher.until_type(LobbyChanged)
    assert watching.lobby.you is None and watching.lobby.spectators == 1
    free = next(s.seat for s in watching.lobby.seats if s.kind == "empty")
    watcher.send(JoinTable(0, "me", free))
    sat = await watcher.until(seated)
    assert isinstance(sat, LobbyChanged)
    assert sat.lobby.you == free and sat.lobby.spectators == 0
    assert not [u for u in watcher.seen if isinstance(u, Refused)]
    await watcher.close()


async def test_the_chat_tells_who_takes_a_seat_and_who_leaves(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    host = await start_host(nursery, bots=1, players=3, timings=FAST_TIMINGS)
    tokens = SeatTokens(tmp_path / "seat_tokens")
    ana = await start_link(nursery, config(host.port, tokens, name="Ana", auto_ready=False))
    await ana.until(seated)
    bruno = await start_link(nursery, config(host.port, None, name="Bruno", auto_ready=False))
    await bruno.until(seated)
    came = await ana.until_type(SeatNews)
    assert came == SeatNews("took_seat", "Bruno", bruno_seat(bruno))
    bruno.send(SetReady(True))
    await bruno.close()
    left = await ana.until(lambda u: isinstance(u, SeatNews) and u.what.startswith("left"))
    assert left == SeatNews("left", "Bruno", came.seat)  # the lobby frees it: no bot
    assert not [u for u in ana.seen if isinstance(u, ChatReceived) and u.name == "host"]
    await ana.close()


def bruno_seat(harness: LinkHarness) -> int:
    lobby = next(u.lobby for u in reversed(harness.seen) if isinstance(u, LobbyChanged)
                 and u.lobby.you is not None)
    assert lobby.you is not None
    return lobby.you


def test_a_spectators_seat_number_in_the_lobby_asks_for_that_free_seat() -> None:
    from client.i18n import Translator
    from client.lobby import LobbyState, SeatInfo
    from client.model import ClientModel

    model = ClientModel(Translator("en"), name="Bea")
    seats = (SeatInfo(0, "human", "Ana", False, True), SeatInfo(1, "empty", None, False, False))
    model.apply(LobbyChanged(LobbyState(0, "t", 0, {}, seats, started=False, spectators=1)))
    assert model.move_to_seat(1) == JoinTable(0, "Bea", 1)
    assert model.move_to_seat(0) is None and "taken" in model.notice


def watching(update: Update) -> bool:
    return isinstance(update, LobbyChanged) and update.lobby.you is None


async def test_watching_from_the_table_list_survives_a_refused_seat_and_a_reconnect(
    nursery: trio.Nursery
) -> None:
    """`w` on the list sends Spectate: the link watches that table, asks for it again after a
    reconnect (not a seat, not the list), and a seat refused to it (its player is there) puts
    it back in the audience it had to leave to ask."""
    host = await start_host(nursery, bots=1, players=1, timings=FAST_TIMINGS)
    ana = await start_link(nursery, config(host.port, None, name="Ana"))
    await ana.until(match_on)
    cy = await start_link(nursery, config(host.port, None, name="Cy", table=None,
                                          auto_ready=False))
    await cy.until_type(TablesListed)
    cy.send(Spectate(0))
    audience = await cy.until(watching)
    assert isinstance(audience, LobbyChanged) and audience.lobby.started
    ana_seat = next(s.seat for s in audience.lobby.seats if s.name == "Ana")
    cy.send(JoinTable(0, "Cy", ana_seat))
    refused = await cy.until_type(Refused)
    assert refused.code == "game_in_progress"
    again = await cy.until(watching)
    assert isinstance(again, LobbyChanged) and again.lobby.spectators == 1
    await cy.streams[-1].cut()
    await cy.until_state("reconnecting")
    back = await cy.until(lambda u: watching(u) or seated(u) or isinstance(u, TablesListed))
    assert watching(back)  # watching again, neither seated nor sent to the table list
    assert not [u for u in cy.seen if seated(u)]
    await cy.close()
    await ana.close()


async def test_a_copied_token_cannot_take_a_live_seat_and_waits_its_turn(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    """Issue 13 point 4 as players meet it: a second client with a copy of the seat's token
    (another terminal, or a thief) is refused `seat_in_use` while the seat's player is
    connected and answering; it says why on its screen and tries again; the player is told by
    a host notice and keeps playing. Once that player's connection is gone, the copy's next
    try takes the seat."""
    tokens = SeatTokens(tmp_path / "seat_tokens")
    host, first, kill, kept = await seated_in_a_match(nursery, tokens)
    seat = kept.seat
    copy = SeatTokens(tmp_path / "copied_tokens")
    copy.keep(kept)

    second = await start_link(nursery, config(host.port, copy))
    refused = await second.until(lambda u: isinstance(u, ConnectionChanged) and bool(u.code))
    assert isinstance(refused, ConnectionChanged) and refused.code == "seat_in_use"
    assert refused.attempt == 1  # said on its screen as why it tries again (fatal: no notice)
    told = await first.until(lambda u: isinstance(u, ChatReceived) and u.host)
    assert isinstance(told, ChatReceived) and "resume your seat" in told.text
    held = host.table.room.seats[seat]
    assert held is not None and held.connected and not held.taken_over
    assert "closed" not in first.states()

    kill.cancel()  # the player's terminal is closed: the copy's next try gets the seat
    await first.finished.wait()
    back = await second.until(seated)
    assert isinstance(back, LobbyChanged) and back.lobby.you == seat and back.lobby.started
    await second.close()


async def test_a_client_that_quits_in_mid_match_is_played_by_a_bot_at_once(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    """q, y in mid-match says bye, quit: the host plays the seat with a bot at once (a kill,
    above, is waited for), and the seat stays the player's to take back."""
    tokens = SeatTokens(tmp_path / "seat_tokens")
    host, first, _, kept = await seated_in_a_match(nursery, tokens)
    await first.close()  # bye, quit
    seat = host.table.room.seats[kept.seat]
    with trio.fail_after(FAST_TIMINGS.grace / 2):  # well within the grace a drop is given
        while seat is None or not seat.taken_over:
            await trio.sleep(0.01)
            seat = host.table.room.seats[kept.seat]
    again = await start_link(nursery, config(host.port, tokens))
    back = await again.until(seated)
    assert isinstance(back, LobbyChanged) and back.lobby.you == kept.seat
    await again.close()
