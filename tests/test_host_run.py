"""`unonet host` with its own player: the host serves over TLS, the first to sit down owns the
table, and everyone who sits down is told how friends join (port and fingerprint)."""

from __future__ import annotations

from pathlib import Path

import trio
from client_net import start_link

from client.link import ChatReceived, LobbyChanged
from client.lobby import JoinTable, SetReady, StartMatch
from client.network import LinkConfig
from host.run import HostOptions, describe, join_line, serving
from protocol.fingerprint import short_pin
from unonet.rules import RuleSet


async def test_the_host_player_owns_the_table_and_sees_how_friends_join(
    tmp_path: Path, nursery: trio.Nursery
) -> None:
    options = HostOptions(rules=RuleSet(target=50), bind="127.0.0.1", port=0, bots=1, seats=4,
                          headless=False, tls=True, home=tmp_path, share_notice=True)
    async with serving(options) as served:
        assert served.fingerprint is not None
        assert (tmp_path / "host-key.pem").stat().st_mode & 0o077 == 0  # owner-only key
        lines = describe(options, served)
        assert any(served.fingerprint in line for line in lines)  # whole, on a line of its own
        assert any(str(served.port) in line and short_pin(served.fingerprint) in line
                   and line.startswith("Friends join with") for line in lines)

        config = LinkConfig("127.0.0.1", served.port, name="Hosta", pin=served.fingerprint)
        harness = await start_link(nursery, config)
        harness.send(JoinTable(0, "Hosta", None))
        notice = await harness.until_type(ChatReceived)
        assert notice.name == "host" and notice.text == join_line(served)
        assert f":{served.port} --pin {short_pin(served.fingerprint)}" in notice.text

        def owned(update: object) -> bool:
            if not isinstance(update, LobbyChanged):
                return False
            return update.lobby.owner is not None and update.lobby.owner == update.lobby.you

        await harness.until(owned)
        # Not headless: nothing starts by itself; the owner starts it.
        harness.send(SetReady(True))
        harness.send(StartMatch())
        started = await harness.until(
            lambda u: isinstance(u, LobbyChanged) and u.lobby.started
        )
        assert isinstance(started, LobbyChanged)
        await harness.close()
