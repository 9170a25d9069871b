"""A spectator takes a seat in mid-match (issue 12, point 4, host side; SPEC.md [UNO-8-21]),
over real loopback sockets: Bo leaves, a stand-in bot plays his seat, Cy watching from the
audience sits in it, gets a fresh token and the seat's state (the match's manifest and rounds,
this round's history, the snapshot) and plays the match to its end; her client's verifier (the
trust gate) finds no violation. A seat nobody left is not offered."""

from __future__ import annotations

import trio
from client_net import LinkHarness, play_until, start_host, start_link

from client.link import GameEvent, LobbyChanged, Refused, Snapshot, TrustReport, Update
from client.lobby import JoinTable, Leave
from client.network import LinkConfig
from unonet import events as ev
from unonet.rules import RuleSet

RULES = RuleSet(max_rounds=2, target=10_000)


def ended(update: Update) -> bool:
    return isinstance(update, GameEvent) and isinstance(update.event, ev.MatchEnded)


def cards_played(update: Update) -> bool:
    return isinstance(update, GameEvent) and isinstance(update.event, ev.CardPlayed)


def link(port: int, name: str, **changes: object) -> LinkConfig:
    return LinkConfig("127.0.0.1", port, name=name, tls=False, table=0, auto_ready=True,
                      **changes)  # type: ignore[arg-type]


def violations(harness: LinkHarness) -> list[TrustReport]:
    return [u for u in harness.seen if isinstance(u, TrustReport) and not u.ok]


async def test_a_spectator_sits_in_a_stand_ins_seat_and_plays_it(
    nursery: trio.Nursery
) -> None:
    host = await start_host(nursery, bots=1, players=2, rules=RULES)
    ana = await start_link(nursery, link(host.port, "Ana"))
    bo = await start_link(nursery, link(host.port, "Bo"))
    cy = await start_link(nursery, link(host.port, "Cy", spectate=True))
    async with trio.open_nursery() as both:  # a few plays into the first round
        both.start_soon(play_until, ana, cards_played)
        both.start_soon(play_until, bo, cards_played)
    seat = next(i for i, s in host.table.room.occupied() if s.name == "Bo")
    bo.send(Leave())
    with trio.fail_after(20):
        while not host.table.room.seats[seat].taken_over:  # type: ignore[union-attr]
            await trio.sleep(0.01)
    cy.send(JoinTable(0, "Cy", seat))
    snapshot = await cy.until(lambda u: isinstance(u, Snapshot) and u.view.seat == seat)
    assert isinstance(snapshot, Snapshot) and snapshot.view.hand  # the seat's own cards
    sat = await cy.until(lambda u: isinstance(u, LobbyChanged) and u.lobby.you == seat)
    assert isinstance(sat, LobbyChanged) and sat.lobby.started
    taken = host.table.room.seats[seat]
    assert taken is not None and taken.name == "Cy" and not taken.taken_over
    assert taken.token_hash is not None
    async with trio.open_nursery() as both:  # Cy plays the seat to the match's end
        both.start_soon(play_until, ana, ended)
        both.start_soon(play_until, cy, ended)
    assert host.table.finished or (host.table.game is not None and host.table.game.over)
    assert violations(cy) == [] and violations(ana) == []


async def test_no_seat_is_offered_while_every_player_is_there(nursery: trio.Nursery) -> None:
    host = await start_host(nursery, bots=1, players=1, rules=RULES)
    ana = await start_link(nursery, link(host.port, "Ana"))
    cy = await start_link(nursery, link(host.port, "Cy", spectate=True))
    await play_until(ana, cards_played)
    cy.send(JoinTable(0, "Cy", 0))
    refused = await cy.until_type(Refused)
    assert refused.code == "game_in_progress"
    assert sorted(s.name for _, s in host.table.room.occupied()) == ["Ana", "Ana 2"]
