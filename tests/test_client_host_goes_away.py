"""Every way the host goes away says which it was and what comes next (issue 46, point 3;
SPEC.md [UNO-8-4]): a host whose player left, or that was stopped, says so, and whether the
match is kept; a link told the match is kept waits for the host to carry it on, with no limit
but the player's patience; the words are the player's, in their language, never a Python
class name."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
from client_net import start_link

from client.i18n import Translator
from client.link import ConnectionChanged, LobbyChanged, Snapshot
from client.lobby import SetReady, StartMatch
from client.model import ClientModel
from client.network import LinkConfig
from client.render import connection_line
from host.run import HostOptions, serving
from unonet.rules import RuleSet


def options(home: Path) -> HostOptions:
    return HostOptions(rules=RuleSet(target=50), bind="127.0.0.1", port=0, bots=1, seats=3,
                       headless=False, tls=False, home=home, share_notice=True)


async def test_a_host_whose_player_left_says_so_and_keeps_no_lobby(
    tmp_path: Path, nursery: trio.Nursery
) -> None:
    async with serving(options(tmp_path)) as served:
        bea = await start_link(nursery, LinkConfig("127.0.0.1", served.port, name="Bea",
                                                   tls=False, table=0))
        await bea.until_type(LobbyChanged)
    gone = await bea.until(lambda u: isinstance(u, ConnectionChanged) and u.attempt > 0)
    assert isinstance(gone, ConnectionChanged)
    assert gone.code == "host_left" and not gone.kept and gone.attempts > 0


async def test_a_host_that_left_in_mid_match_keeps_it_and_the_link_waits_for_it(
    tmp_path: Path, nursery: trio.Nursery
) -> None:
    async with serving(options(tmp_path)) as served:
        config = LinkConfig("127.0.0.1", served.port, name="Bea", tls=False, table=0)
        bea = await start_link(nursery, config)
        await bea.until(lambda u: isinstance(u, LobbyChanged) and u.lobby.you is not None)
        bea.send(SetReady(True))
        bea.send(StartMatch())  # the first to sit owns the table
        await bea.until_type(Snapshot)
    gone = await bea.until(lambda u: isinstance(u, ConnectionChanged) and u.attempt > 0)
    assert isinstance(gone, ConnectionChanged)
    assert gone.code == "host_left" and gone.kept and gone.attempts == 0  # no limit
    later = await bea.until(lambda u: isinstance(u, ConnectionChanged) and u.attempt > 1)
    assert isinstance(later, ConnectionChanged)
    assert later.code == "host_left" and later.kept  # how it went, not the refused connect


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "The host's player left the table; the match is kept: you are back in your seat "
           "once it goes on (try 3 in 2 s)"),
    ("it", "Chi ospita ha lasciato il tavolo; la partita è conservata: torni al tuo posto "
           "quando riprende (tentativo 3 fra 2 s)"),
    ("pt", "Quem hospeda saiu da mesa; a partida está guardada: você volta ao seu lugar quando "
           "ela continuar (tentativa 3 em 2 s)"),
])
def test_the_way_the_host_went_is_said_in_the_players_words(lang: str, words: str) -> None:
    model = ClientModel(Translator(lang), name="Bea")
    model.apply(ConnectionChanged("reconnecting", "shutting_down: the host's player left its "
                                  "table", code="host_left", attempt=3, delay=2.0, kept=True))
    assert connection_line(model) == words


@pytest.mark.parametrize("lang", ["en", "it", "pt"])
def test_a_broken_connection_names_no_python_class(lang: str) -> None:
    model = ClientModel(Translator(lang), name="Bea")
    model.apply(ConnectionChanged("reconnecting", "connection broken", code="connection_broken",
                                  attempt=5, attempts=15, delay=8.0))
    line = connection_line(model)
    assert "Error" not in line and "()" not in line
    assert Translator(lang)("lost.connection_broken") in line
