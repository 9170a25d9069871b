"""A refusal on the way to a table is on the screen the player lands on (issue 12 audit, gap
4): over real loopback sockets, a join to a table that is not there, and a kept seat the host
no longer knows followed by a join the started match refuses, both end on the table list; the
rendered list says why, instead of the notice going with the screen it was said on."""

from __future__ import annotations

import time
from pathlib import Path

import trio
from client_net import LinkHarness, start_host, start_link

from client.i18n import Translator
from client.link import TablesListed
from client.model import ClientModel, Screen
from client.network import LinkConfig
from client.render import compose
from client.seat_tokens import KeptSeat, SeatTokens

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
    assert "your seat was given up while you were away" in said, "\n".join(lines)
    assert "· Refused: no seat can be taken" in said, "\n".join(lines)
    await harness.close()
    await player.close()
