"""`unonet host --resume` gives the host's own player its seat back (issue 12, points 1 and 3):
the host and its player run as `unonet host` runs them (unonet/cli.py host_for_player and
client/cli.py play_main, over TLS on loopback); the host goes away in mid-match, and the player's
link says so (reconnecting, attempt n); the resumed host, on another port, seats the player where
it was, from the token kept under own-host. Leaving prints the --resume command and journal."""

from __future__ import annotations

import argparse
import math
from pathlib import Path

import pytest
import trio
from client_net import LinkHarness, start_link

from client.cli import OWN_HOST, play_main
from client.link import Command, ConnectionChanged, LobbyChanged, Refused, TablesListed, Update
from client.lobby import AddBot, CreateTable, SetReady, StartMatch
from client.network import Backoff, LinkConfig
from client.seat_tokens import SeatTokens
from host.run import HostOptions, ServedHost, farewell
from unonet.cli import host_for_player
from unonet.rules import RuleSet


def host_options(home: Path, *resume: Path) -> HostOptions:
    return HostOptions(rules=RuleSet(target=500), bind="127.0.0.1", port=0, bots=1, seats=2,
                       headless=False, tls=True, home=home, share_notice=True, resume=resume)


async def host_and_player(nursery: trio.Nursery, options: HostOptions,
                          ran: list[ServedHost]) -> tuple[LinkHarness, trio.CancelScope]:
    """`unonet host`'s two halves in this trio run; the scope ends both, as Ctrl-C would."""
    commands_in, commands_out = trio.open_memory_channel[Command](math.inf)
    updates_in, updates_out = trio.open_memory_channel[Update](math.inf)
    harness = LinkHarness(commands_in, updates_out)
    main = play_main(argparse.Namespace(), host_for_player(options, ran), "Hosta",
                     auto_ready=False)
    scope = trio.CancelScope()

    async def run() -> None:
        with scope:
            await main(commands_out, updates_in)
        harness.finished.set()

    nursery.start_soon(run)
    return harness, scope


def seated_in_match(update: Update) -> bool:
    return isinstance(update, LobbyChanged) and update.lobby.started \
        and update.lobby.you is not None


async def test_the_host_player_takes_its_seat_back_after_host_resume(
    nursery: trio.Nursery, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("UNONET_HOME", str(tmp_path))
    ran: list[ServedHost] = []
    harness, stop = await host_and_player(nursery, host_options(tmp_path), ran)
    lobby = await harness.until(lambda u: isinstance(u, LobbyChanged) and u.lobby.you is not None)
    assert isinstance(lobby, LobbyChanged) and lobby.lobby.owner == lobby.lobby.you
    harness.send(SetReady(True))
    harness.send(StartMatch())
    started = await harness.until(seated_in_match)
    assert isinstance(started, LobbyChanged)
    seat = started.lobby.you
    tokens = SeatTokens(tmp_path / "seat_tokens")
    with trio.fail_after(20):
        while not tokens.entries():
            await trio.sleep(0.01)
    assert tokens.entries()[0].place == OWN_HOST
    (journal,) = ran[0].journals()
    said = "\n".join(farewell(ran[0]))
    assert "closed for everyone" in said  # and the command listens where friends look:
    assert (f"  unonet host --resume {journal} --bind 127.0.0.1 --port {ran[0].port}"
            in said.splitlines())

    stop.cancel()  # the host process ends (Ctrl-C, a closed terminal): both halves go
    await harness.finished.wait()

    again: list[ServedHost] = []
    back, stop_again = await host_and_player(nursery, host_options(tmp_path, journal), again)
    resumed = await back.until(seated_in_match)
    assert isinstance(resumed, LobbyChanged)
    assert resumed.lobby.you == seat
    assert again[0].journals() == [journal]
    stop_again.cancel()


async def test_when_the_host_is_gone_the_link_says_so_with_the_attempt(
    nursery: trio.Nursery, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A friend's link to a host that went away: 'reconnecting' with the attempt, never a
    silent screen; then 'lost' once the attempts run out."""
    monkeypatch.setenv("UNONET_HOME", str(tmp_path))
    ran: list[ServedHost] = []
    options = host_options(tmp_path / "host")
    options.bots = 0  # a seat for the friend
    host, stop = await host_and_player(nursery, options, ran)
    await host.until(lambda u: isinstance(u, LobbyChanged) and u.lobby.you is not None)
    friend = await start_link(nursery, LinkConfig(
        "127.0.0.1", ran[0].port, name="Bea", pin=ran[0].fingerprint, table=0,
        backoff=Backoff(first=0.01, cap=0.01, attempts=3)))
    await friend.until(lambda u: isinstance(u, LobbyChanged) and u.lobby.you is not None)
    stop.cancel()
    gone = await friend.until_state("reconnecting")
    assert isinstance(gone, ConnectionChanged) and (gone.attempt, gone.attempts) == (1, 3)
    lost = await friend.until_state("lost")
    assert lost.detail
    assert [s for s in friend.states() if s == "reconnecting"] == ["reconnecting"] * 3
    assert isinstance(lost, ConnectionChanged)


async def two_matches_stopped(
    nursery: trio.Nursery, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> tuple[Path, Path, int | None]:
    """A host who plays, its match on at table 0 and a friend's at a table the friend opened,
    stopped: their journals, and the host player's seat."""
    monkeypatch.setenv("UNONET_HOME", str(tmp_path))
    ran: list[ServedHost] = []
    options = host_options(tmp_path)
    harness, stop = await host_and_player(nursery, options, ran)
    await harness.until(lambda u: isinstance(u, LobbyChanged) and u.lobby.you is not None)
    harness.send(SetReady(True))
    harness.send(StartMatch())
    started = await harness.until(seated_in_match)
    assert isinstance(started, LobbyChanged)
    seat = started.lobby.you
    friend = await start_link(nursery, LinkConfig("127.0.0.1", ran[0].port, name="Fred",
                                                  pin=ran[0].fingerprint))
    await friend.until(lambda u: isinstance(u, TablesListed))
    friend.send(CreateTable(name="Fred's"))
    await friend.until(lambda u: isinstance(u, LobbyChanged) and u.lobby.you is not None)
    friend.send(AddBot())
    friend.send(SetReady(True))
    friend.send(StartMatch())
    await friend.until(seated_in_match)
    with trio.fail_after(20):
        while len(ran[0].journals()) < 2:
            await trio.sleep(0.01)
    own, theirs = ran[0].journals()
    said = farewell(ran[0])
    assert "2 matches on" in said[0]
    assert said[-1].startswith(f"  unonet host --resume {own} --resume {theirs} ")
    await friend.close()
    stop.cancel()
    await harness.finished.wait()
    return own, theirs, seat


async def test_a_friend_s_table_is_journalled_and_carried_on_with_the_host_s_own(
    nursery: trio.Nursery, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found by trying: a table a friend opened from the lobby of `unonet host` kept no
    journal, so its match was lost when the host left (and a dedicated server's lobby
    tables the same). It journals now; the host's farewell carries both matches on in one
    command, which a host who plays takes: the player back in its seat at its own table, the
    friend's table again under its number, its match on, still the friend's to lose."""
    own, theirs, seat = await two_matches_stopped(nursery, tmp_path, monkeypatch)
    again: list[ServedHost] = []
    back, _ = await host_and_player(
        nursery, host_options(tmp_path, own, theirs), again)
    resumed = await back.until(seated_in_match)
    assert isinstance(resumed, LobbyChanged) and resumed.lobby.you == seat
    registry = again[0].registry
    assert registry is not None
    table = registry.tables[1]
    assert table.settings.name == "Fred's" and table.settings.created
    assert table.game is not None and not table.game.over
    assert again[0].journals() == [own, theirs]


async def test_a_fresh_host_does_not_offer_its_player_the_last_runs_seat(
    nursery: trio.Nursery, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found in tmux: `unonet host` started again without --resume greeted its own player
    with "Refused: the host no longer knows your seat ... joining as a newcomer": the seat
    kept from the last run was offered to a host that never had it. A fresh host's player
    sits down as a newcomer without a word; the kept seat is only for --resume."""
    monkeypatch.setenv("UNONET_HOME", str(tmp_path))
    ran: list[ServedHost] = []
    harness, stop = await host_and_player(nursery, host_options(tmp_path), ran)
    await harness.until(lambda u: isinstance(u, LobbyChanged) and u.lobby.you is not None)
    harness.send(SetReady(True))
    harness.send(StartMatch())
    await harness.until(seated_in_match)
    tokens = SeatTokens(tmp_path / "seat_tokens")
    with trio.fail_after(20):
        while not tokens.entries():
            await trio.sleep(0.01)
    stop.cancel()
    await harness.finished.wait()

    again: list[ServedHost] = []
    fresh, stop_again = await host_and_player(nursery, host_options(tmp_path), again)
    seen: list[Update] = []

    def seated(update: Update) -> bool:
        seen.append(update)
        return isinstance(update, LobbyChanged) and update.lobby.you is not None

    await fresh.until(seated)
    assert not [u for u in seen if isinstance(u, Refused)], seen
    stop_again.cancel()


async def test_a_host_resuming_only_a_friends_table_seats_its_player_afresh(
    nursery: trio.Nursery, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`unonet host --resume` with a friend's journal only: table 0 opens new, and its player
    was offered the seat kept from the last run's table 0, refused ("the host no longer knows
    your seat"). The kept seat is offered only where table 0's match is carried on."""
    _, theirs, _ = await two_matches_stopped(nursery, tmp_path, monkeypatch)
    again: list[ServedHost] = []
    back, stop_again = await host_and_player(nursery, host_options(tmp_path, theirs), again)
    seen: list[Update] = []

    def seated(update: Update) -> bool:
        seen.append(update)
        return isinstance(update, LobbyChanged) and update.lobby.you is not None

    lobby = await back.until(seated)
    assert isinstance(lobby, LobbyChanged) and not lobby.lobby.started
    assert not [u for u in seen if isinstance(u, Refused)], seen
    assert again[0].journals() == [theirs]
    stop_again.cancel()
