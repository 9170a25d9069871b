"""The network link against a real host on loopback: joining, playing, chat, refusals, trust
reports, and coming back after a dropped connection with the seat's resume token."""

from __future__ import annotations

import trio
from client_net import LinkHarness, play_until, start_host, start_link

from client.link import (
    Chat,
    ChatReceived,
    ConnectionChanged,
    GameEvent,
    LobbyChanged,
    ManifestReceived,
    Refused,
    Snapshot,
    TablesListed,
    TrustReport,
    Update,
)
from client.lobby import JoinTable, StartMatch
from client.network import LinkConfig
from protocol.errors import ENGINE_CODES
from unonet.actions import Play
from unonet.events import CardPlayed, CardsDrawn


def plain(port: int, **options: object) -> LinkConfig:
    return LinkConfig("127.0.0.1", port, name="me", tls=False, **options)  # type: ignore[arg-type]


async def joined(harness: LinkHarness) -> tuple[int, Snapshot]:
    """Wait for the seat, the deck and the first snapshot; return the seat and the snapshot."""
    lobby = await harness.until(lambda u: isinstance(u, LobbyChanged) and u.lobby.you is not None)
    assert isinstance(lobby, LobbyChanged) and lobby.lobby.you is not None
    await harness.until_type(ManifestReceived)
    snapshot = await harness.until_type(Snapshot)
    return lobby.lobby.you, snapshot


async def test_the_link_joins_gets_deck_and_snapshot_and_its_intents_are_applied(
    nursery: trio.Nursery,
) -> None:
    host = await start_host(nursery, bots=1)
    harness = await start_link(nursery, plain(host.port, table=0, auto_ready=True))
    seat, snapshot = await joined(harness)
    assert harness.states()[:2] == ["connecting", "connected"]
    assert host.table.game is not None
    assert snapshot.view.seat == seat
    assert sorted(snapshot.view.hand) == sorted(host.table.game.match.view(seat).hand)

    def ours(update: Update) -> bool:
        return (isinstance(update, GameEvent) and isinstance(update.event, CardPlayed | CardsDrawn)
                and update.event.seat == seat and host.table.game is not None
                and host.table.game.match.round_no >= 1)

    await play_until(harness, ours, current=snapshot)
    assert await harness.close() == ConnectionChanged("closed")
    assert harness.states()[-1] == "closed"


async def test_an_honest_round_reports_verified_and_the_audit_passes(
    nursery: trio.Nursery,
) -> None:
    host = await start_host(nursery, bots=2)
    harness = await start_link(nursery, plain(host.port, table=0, auto_ready=True))
    await joined(harness)
    audit = await play_until(
        harness, lambda u: isinstance(u, TrustReport) and "audited" in u.what, timeout=90)
    assert isinstance(audit, TrustReport) and audit.ok and audit.round_no == 1
    reports = [u for u in harness.seen if isinstance(u, TrustReport)]
    assert all(r.ok for r in reports), [r for r in reports if not r.ok]
    assert any("prepared" in r.what for r in reports)
    assert any("seed commitments" in r.what for r in reports)
    await harness.close()
    assert harness.session is not None and harness.session.gate.verifier is not None
    assert harness.session.gate.verifier.violations() == []
    round_state = harness.session.gate.verifier.current
    assert round_state is not None and round_state.own_seed is not None  # we contributed


async def test_chat_lines_and_refusals_reach_the_screen(nursery: trio.Nursery) -> None:
    host = await start_host(nursery, bots=1)
    harness = await start_link(nursery, plain(host.port, table=0, auto_ready=True))
    seat, snapshot = await joined(harness)
    harness.send(Chat("ciao a tutti"))
    line = await harness.until_type(ChatReceived)
    assert line == ChatReceived("me", "ciao a tutti", seat)
    # A card id beyond the deck: never in our hand, however the deal (which may already have
    # happened) went.
    harness.send(Play(len(snapshot.view.hand) + 10_000))
    refused = await harness.until_type(Refused)
    assert refused.code in ENGINE_CODES and refused.message  # the engine's own code and words
    harness.send(StartMatch())  # the match is on: a lobby request is refused with its code
    refused = await harness.until_type(Refused)
    assert refused.code in ("game_in_progress", "not_owner")
    await harness.close()


async def test_without_a_table_the_host_lists_them_and_a_join_seats_us(
    nursery: trio.Nursery,
) -> None:
    host = await start_host(nursery, bots=2)
    harness = await start_link(nursery, plain(host.port))
    listed = await harness.until_type(TablesListed)
    assert [t.table for t in listed.tables] == [0]
    assert listed.tables[0].players == 2 and not listed.tables[0].started
    harness.send(JoinTable(0, "me"))
    lobby = await harness.until(lambda u: isinstance(u, LobbyChanged) and u.lobby.you is not None)
    assert isinstance(lobby, LobbyChanged) and lobby.lobby.you is not None
    assert lobby.lobby.seats[lobby.lobby.you].name == "me"
    assert not lobby.lobby.started  # not ready yet: the headless table waits for us
    await harness.close()


async def test_a_dropped_connection_resumes_the_seat_and_a_snapshot_brings_the_screen_back(
    nursery: trio.Nursery,
) -> None:
    host = await start_host(nursery, bots=1)
    harness = await start_link(nursery, plain(host.port, table=0, auto_ready=True))
    seat, _ = await joined(harness)
    assert harness.session is None or harness.session.token is not None
    await harness.streams[-1].cut()
    await harness.until_state("reconnecting")
    await harness.until_state("connected")
    snapshot = await harness.until_type(Snapshot)
    assert harness.states() == ["connecting", "connected", "reconnecting", "connected"]
    assert host.table.game is not None
    assert snapshot.view.seat == seat
    assert sorted(snapshot.view.hand) == sorted(host.table.game.match.view(seat).hand)
    back = host.table.room.seats[seat]
    assert back is not None and back.conn is not None and back.name == "me"
    assert len(harness.streams) == 2
    # Still playing from the same seat after the resume.
    await play_until(harness, lambda u: isinstance(u, GameEvent)
                     and isinstance(u.event, CardPlayed | CardsDrawn) and u.event.seat == seat,
                     current=snapshot)
    await harness.close()


async def test_a_seat_lost_in_the_lobby_is_taken_again_after_invalid_resume(
    nursery: trio.Nursery,
) -> None:
    host = await start_host(nursery, bots=1)
    host.table.settings.target_seats = 3  # nobody else comes: the table stays in the lobby
    harness = await start_link(nursery, plain(host.port, table=0))
    await harness.until(lambda u: isinstance(u, LobbyChanged) and u.lobby.you is not None)
    await harness.streams[-1].cut()  # in the lobby the host frees the seat: the token dies
    refused = await harness.until_type(Refused)
    assert refused.code == "invalid_resume"
    lobby = await harness.until(lambda u: isinstance(u, LobbyChanged) and u.lobby.you is not None)
    assert isinstance(lobby, LobbyChanged)
    assert harness.states()[-1] == "connected"
    assert [s.name for s in lobby.lobby.seats if s.kind == "human"] == ["me"]
    await harness.close()
