"""Names are unique at a table (issue 12, point 10), over real loopback sockets: a player whose
name a seat already has (a bot's, another player's, in any case) is seated as "name 2", "name 3",
and sees it in its table_state; a bot added later takes a name nobody has."""

from __future__ import annotations

import trio
from client_net import LinkHarness, start_host, start_link

from client.link import LobbyChanged, Update
from client.lobby import AddBot, JoinTable
from client.network import LinkConfig
from host.registry import Registry
from host.server import HostServer, ServerConfig
from host.settings import FAST_TIMINGS
from host.table import TableSettings
from unonet.rules import RuleSet


def mine(update: Update) -> str | None:
    """Our own seat's name in a table_state, else None."""
    if not isinstance(update, LobbyChanged) or update.lobby.you is None:
        return None
    return update.lobby.seats[update.lobby.you].name


async def seated_as(nursery: trio.Nursery, port: int, name: str) -> tuple[LinkHarness, str]:
    harness = await start_link(nursery, LinkConfig("127.0.0.1", port, name=name, tls=False,
                                                   table=0))
    update = await harness.until(lambda u: mine(u) is not None)
    given = mine(update)
    assert given is not None
    return harness, given


async def test_a_players_name_a_bot_has_gets_a_number(nursery: trio.Nursery) -> None:
    host = await start_host(nursery, bots=1, players=3, rules=RuleSet(target=50))
    assert [s.name for _, s in host.table.room.occupied()] == ["Ana"]
    _, first = await seated_as(nursery, host.port, "Ana")
    _, second = await seated_as(nursery, host.port, "ana")
    _, third = await seated_as(nursery, host.port, "Bruno")
    assert (first, second, third) == ("Ana 2", "ana 3", "Bruno")
    names = [s.name.casefold() for _, s in host.table.room.occupied()]
    assert len(set(names)) == len(names) == 4


async def test_a_rename_and_a_later_bot_keep_names_unique(nursery: trio.Nursery) -> None:
    registry = Registry(FAST_TIMINGS)
    registry.create_table(TableSettings("friends", RuleSet(), timings=FAST_TIMINGS))
    server = HostServer(registry, ServerConfig(bind="127.0.0.1", port=0))
    listeners: list[trio.SocketListener] = await nursery.start(server.serve)
    port = listeners[0].socket.getsockname()[1]
    owner, _ = await seated_as(nursery, port, "Bruno")
    owner.send(AddBot())  # not Bruno: the first bot name nobody has
    await owner.until(lambda u: isinstance(u, LobbyChanged)
                      and any(s.kind == "bot" for s in u.lobby.seats))
    _, guest = await seated_as(nursery, port, "Zoe")
    owner.send(JoinTable(0, "Ana"))  # a rename ([UNO-8-8]) to the bot's name
    renamed = await owner.until(lambda u: mine(u) not in (None, "Bruno"))
    table = registry.tables[0]
    assert [s.name for _, s in table.room.occupied()] == ["Ana 2", "Ana", "Zoe"]
    assert mine(renamed) == "Ana 2" and guest == "Zoe"
