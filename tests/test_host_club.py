"""A club's dedicated server (issue 16, point 2): `unonet host --headless --tables N
--max-connections N --per-address N` opens N tables at start, serves as many connections as
its caps allow (80 from one address, where the defaults turn 16 of them away), lists its tables,
and refuses a bad value in one line with a non-zero exit.

Hosts run on loopback in the test's trio run (`host.run.serving`, as `unonet host` runs it),
clients speak raw frames; the bad values run the real command in a child process.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
from test_cli_errors import run_unonet
from test_host_admission_net import RawClient

from host.run import HostOptions, ServedHost, serving, table_names
from host.settings import MAX_CONNECTIONS, PER_ADDRESS, RESUME_RESERVE, ConnectionLimits
from protocol.frames import encode_frame

CLUB = 80
"""Connections a club's evening brings (the issue's count: 16 of them were refused)."""


def club_options(home: Path, *, tables: int = 1, limits: ConnectionLimits | None = None,
                 bots: int = 0) -> HostOptions:
    return HostOptions(bind="127.0.0.1", port=0, tls=False, headless=True, home=home,
                       tables=tables, bots=bots, seats=4,
                       limits=limits or ConnectionLimits())


async def hellos(served: ServedHost, count: int) -> tuple[list[str], list[RawClient]]:
    """`count` connections from 127.0.0.1, each sending its hello; the answers' types."""
    clients = []
    answers = []
    for _ in range(count):
        client = RawClient(await trio.open_tcp_stream("127.0.0.1", served.port))
        clients.append(client)
        answers.append(await client.hello())
    return answers, clients


async def close_all(clients: list[RawClient]) -> None:
    for client in clients:
        await client.stream.aclose()


async def test_eighty_connections_fit_when_the_caps_allow_them(tmp_path: Path) -> None:
    limits = ConnectionLimits().with_caps(CLUB + RESUME_RESERVE, CLUB)
    async with serving(club_options(tmp_path, limits=limits)) as served:
        answers, clients = await hellos(served, CLUB)
        assert answers == ["welcome"] * CLUB
        await close_all(clients)


async def test_the_default_caps_turn_a_club_away(tmp_path: Path) -> None:
    """The same 80 under the defaults: one address gets its share and no more."""
    async with serving(club_options(tmp_path)) as served:
        answers, clients = await hellos(served, CLUB)
        assert answers.count("welcome") == min(PER_ADDRESS, MAX_CONNECTIONS - RESUME_RESERVE)
        assert set(answers[PER_ADDRESS:]) == {"error"}
        await close_all(clients)


async def test_n_tables_are_open_at_start_and_listed(tmp_path: Path) -> None:
    async with serving(club_options(tmp_path, tables=5, bots=1)) as served:
        assert served.registry is not None
        assert sorted(served.registry.tables) == [0, 1, 2, 3, 4]
        client = RawClient(await trio.open_tcp_stream("127.0.0.1", served.port))
        assert await client.hello() == "welcome"
        await client.stream.send_all(encode_frame({"t": "list_tables", "id": 1}))
        while (frame := await client.next_frame()) is not None and frame["t"] != "tables":
            pass
        assert frame is not None
        listed = [(t["table"], t["name"], t["seats"], t["players"]) for t in frame["tables"]]
        assert listed == [(n, name, 4, 1) for n, name in enumerate(table_names(5))]
        await client.stream.aclose()


async def test_clients_open_more_tables_from_the_lobby(tmp_path: Path) -> None:
    async with serving(club_options(tmp_path, tables=2)) as served:
        assert served.registry is not None
        client = RawClient(await trio.open_tcp_stream("127.0.0.1", served.port))
        assert await client.hello() == "welcome"
        await client.stream.send_all(encode_frame({"t": "create_table", "id": 1,
                                                   "name": "late"}))
        while (frame := await client.next_frame()) is not None and frame["t"] != "seated":
            pass
        assert frame is not None
        assert [t.settings.name for t in served.registry.tables.values()] == \
            [*table_names(2), "late"]
        await client.stream.aclose()


def test_the_table_names_are_their_numbers() -> None:
    """As `--table N`, the host's log and a lobby table's default name count them."""
    assert table_names(1) == ["unonet"]
    assert table_names(3) == ["table 0", "table 1", "table 2"]


def test_caps_are_checked_with_the_line_the_operator_reads() -> None:
    with pytest.raises(ValueError, match="--max-connections 8: from 9"):
        ConnectionLimits().with_caps(RESUME_RESERVE, 1)
    with pytest.raises(ValueError, match="--per-address 0"):
        ConnectionLimits().with_caps(100, 0)
    with pytest.raises(ValueError, match=r"--per-address 101: from 1 to --max-connections"):
        ConnectionLimits().with_caps(100, 101)
    caps = ConnectionLimits().with_caps(500, 50)
    assert (caps.max_connections, caps.per_address) == (500, 50)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--max-connections", "abc"], "--max-connections 'abc': not a whole number"),
        (["--max-connections", "8"], "--max-connections 8: from 9"),
        (["--max-connections", "100000"], "--max-connections 100000: from 1 to 16384"),
        (["--per-address", "0"], "--per-address 0: from 1 to"),
        (["--per-address", "65"], "--per-address 65: from 1 to --max-connections (64)"),
        (["--tables", "0"], "--tables 0: from 1 to 256"),
        (["--tables", "2.5"], "--tables '2.5': not a whole number"),
        (["--journal-sync", "-1"], "--journal-sync -1: from 0 to 60000"),
        (["--journal-sync", "60001"], "--journal-sync 60001: from 0 to 60000"),
        (["--journal-sync", "0.5"], "--journal-sync '0.5': not a whole number"),
    ],
)
def test_a_bad_value_is_one_line_and_a_non_zero_exit(tmp_path: Path, args: list[str],
                                                     words: str) -> None:
    result = run_unonet(["host", "--headless", "--no-tls", "--port", "0", *args], tmp_path)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.splitlines() == [result.stderr.strip()]
    assert words in result.stderr

