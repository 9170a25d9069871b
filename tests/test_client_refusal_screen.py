"""A refusal on the way to a table is on the screen the player lands on (issue 12 audit, gap
4): over real loopback sockets, a join to a table that is not there, and a kept seat the host
no longer knows followed by a join the started match refuses, both end on the table list; the
rendered list says why, instead of the notice going with the screen it was said on."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import trio
from client_net import LinkHarness, start_host, start_link

from client.i18n import Translator
from client.link import ConnectionChanged, LobbyChanged, Refused, TablesListed
from client.lobby import LobbyState, SeatInfo, TableInfo
from client.model import ClientModel, Screen
from client.network import Backoff, LinkConfig
from client.render import compose
from client.seat_tokens import KeptSeat, SeatTokens
from unonet.rules import RuleSet

WIDTH, HEIGHT = 80, 23


async def land(harness: LinkHarness, model: ClientModel) -> list[str]:
    """Every update into `model` until the table list is shown: the rendered screen."""
    with trio.fail_after(20):
        while True:
            update = await harness.next()
            model.apply(update)
            if isinstance(update, TablesListed) and model.screen is Screen.TABLES:
                break
    text = "".join(fragment[1] for fragment in compose(model, WIDTH, HEIGHT, plain=True))
    return text.split("\n")


async def test_a_join_to_a_table_that_is_not_there_says_so_on_the_table_list(
    nursery: trio.Nursery,
) -> None:
    host = await start_host(nursery, bots=1)
    harness = await start_link(nursery, LinkConfig("127.0.0.1", host.port, name="me", tls=False,
                                                   table=5))
    model = ClientModel(Translator("en"), name="me")
    lines = await land(harness, model)
    said = " ".join(line.strip() for line in lines)
    assert "Tables on this host" in said
    assert "Refused:" in said and "5" in said.split("Refused:")[1], "\n".join(lines)
    await harness.close()


async def test_a_lost_seat_and_the_refused_join_after_it_are_both_told_on_the_list(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    host = await start_host(nursery, bots=1)
    player = await start_link(nursery, LinkConfig("127.0.0.1", host.port, name="Bo", tls=False,
                                                  table=0, auto_ready=True))
    with trio.fail_after(20):  # Bo and the bot: the match starts, no seat is left
        while host.table.game is None:
            await trio.sleep(0.05)
    tokens = SeatTokens(tmp_path / "seat_tokens")
    tokens.keep(KeptSeat(f"127.0.0.1:{host.port}", "-", 0, 1, bytes(32), time.time()))
    harness = await start_link(nursery, LinkConfig("127.0.0.1", host.port, name="me",
                                                   tls=False, table=0, seat_tokens=tokens))
    model = ClientModel(Translator("en"), name="me")
    lines = await land(harness, model)
    said = " ".join(line.strip() for line in lines)
    assert "Tables on this host" in said
    assert "Your seat was taken while you were away" in said, "\n".join(lines)
    assert "· Refused: no seat can be taken" in said, "\n".join(lines)
    await harness.close()
    await player.close()


async def test_a_seat_the_host_no_longer_knows_is_followed_at_once_by_the_newcomers_join(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    """Found in tmux: after a host restart, a client whose seat was not kept waited out its
    backoff (8 s at the fifth attempt) before joining as a newcomer, though the host was up
    and had only refused the token. It connects again at once now: here the backoff's first
    pause is a minute, and the client is on the table list long before."""
    host = await start_host(nursery, bots=1)
    tokens = SeatTokens(tmp_path / "seat_tokens")
    tokens.keep(KeptSeat(f"127.0.0.1:{host.port}", "-", 0, 1, bytes(32), time.time()))
    harness = await start_link(nursery, LinkConfig(
        "127.0.0.1", host.port, name="me", tls=False, seat_tokens=tokens,
        backoff=Backoff(first=60.0, cap=60.0)))
    model = ClientModel(Translator("en"), name="me")
    with trio.fail_after(10):  # a minute's backoff would fail this
        while not (isinstance(update := await harness.next(), LobbyChanged)
                   and update.lobby.you is not None):  # seated as a newcomer
            model.apply(update)
    model.apply(update)
    said = " ".join(compose_text(model))
    assert "Your seat was taken while you were away" in " ".join(said.split()), said
    await harness.close()


@pytest.mark.parametrize("lang", ["en", "it"])
def test_a_lobby_the_host_did_not_keep_gives_way_to_the_list_with_both_reasons(
    lang: str,
) -> None:
    """Found in tmux: Bea owned a new table's lobby; the host was stopped and resumed with
    its journals, which do not keep a lobby. Her client came back, lost its seat, was refused
    the table as a newcomer, and went on showing the dead lobby, her as its owner, for good.
    Now the lost seat takes the table off the screen; the list comes with both reasons."""
    tr = Translator(lang)
    model = ClientModel(tr, name="Bea")
    seats = (SeatInfo(0, "human", "Bea", False, True), SeatInfo(1, "empty", None, False, False))
    model.apply(LobbyChanged(LobbyState(2, "table 2", 0, RuleSet().to_dict(), seats, False,
                                        you=0)))
    assert screen_of(model) is Screen.LOBBY and model.is_owner
    model.apply(ConnectionChanged("reconnecting"))
    model.apply(Refused("invalid_resume", "the host no longer knows your seat"))
    assert screen_of(model) is not Screen.LOBBY and model.lobby is None
    model.apply(ConnectionChanged("connected"))
    model.apply(Refused("unknown_table", "table 2 is not on this host (it may have closed)"))
    model.apply(TablesListed((TableInfo(0, "unonet", 3, 3, True, "flip"),)))
    assert screen_of(model) is Screen.TABLES
    said = " ".join(" ".join(compose_text(model)).split())
    lost = tr("n.seat_lost")
    gone = "table 2 is not on this host" if lang == "en" else tr("refusal.unknown_table")
    assert lost[:30] in said and gone in said, said


def screen_of(model: ClientModel) -> Screen:
    """The screen as it is now (read anew: mypy keeps what an earlier check narrowed)."""
    return model.screen


def compose_text(model: ClientModel) -> list[str]:
    return "".join(fragment[1] for fragment in compose(model, WIDTH, HEIGHT,
                                                       plain=True)).split("\n")
