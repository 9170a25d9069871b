"""Tables are bounded (issue 13 point 8, interface 5): a table clients created and abandoned is
removed, the table list shows what is live, a host and each address have at most a named
number of tables (`table_limit`), a table keeps only its last finished match, a table relays at
most a named number of chat lines a second (`chat_limited`) and takes a named number of
spectators (`table_full`).
"""

from __future__ import annotations

from functools import partial

import trio
import trio.testing
from test_host_authority import Member, serve
from test_host_robustness import play_bot, start

from client import netbot
from host.admission import address_key
from host.outgoing import SendMessage
from host.registry import Registry
from host.settings import FAST_TIMINGS, ConnectionLimits
from host.table import TableSettings
from host.table_limits import (
    MAX_LIVE_TABLES,
    MAX_SPECTATORS,
    TABLE_CHAT_BURST,
    TABLE_CHAT_PER_SECOND,
    TABLES_PER_ADDRESS,
)
from protocol.client_session import Welcomed
from unonet.rules import RuleSet


def host_with_its_own_table() -> Registry:
    registry = Registry(FAST_TIMINGS)
    registry.create_table(TableSettings("the host's", RuleSet(target=500), headless=True,
                                        target_seats=3, timings=FAST_TIMINGS))
    return registry


def codes_to(registry: Registry, conn: int) -> list[str]:
    return [str(o.message.get("code")) for o in registry.take_outgoing()
            if isinstance(o, SendMessage) and o.conn == conn and o.message["t"] == "error"]


async def test_abandoned_tables_are_removed_and_the_list_shows_the_live_ones(
    nursery: trio.Nursery,
) -> None:
    registry = host_with_its_own_table()
    listener = await serve(nursery, registry)
    for cycle in range(12):  # create, then go: 2,000 of these left 2,000 tables before
        eve = await Member.connect(listener, f"eve{cycle}")
        await eve.until(Welcomed)
        assert await eve.answer_of("create_table", name=f"gone {cycle}") == "accepted"
        await eve.stream.aclose()
        with trio.fail_after(20):
            while len(registry.tables) > 1:
                await trio.sleep(0.01)
    assert list(registry.tables) == [0]  # the host's own table stays, empty or not
    ana = await Member.connect(listener, "ana")
    await ana.until(Welcomed)
    assert await ana.answer_of("create_table", name="ana's") == "accepted"
    bo = await Member.connect(listener, "bo")
    await bo.until(Welcomed)
    assert await bo.answer_of("list_tables") == "accepted"
    listed = bo.last("tables")["tables"]
    assert isinstance(listed, list)
    assert [t["name"] for t in listed] == ["the host's", "ana's"]
    assert registry.where == {} or all(n in registry.tables for n in registry.where.values())


def test_each_address_and_the_host_have_a_named_number_of_live_tables() -> None:
    registry = host_with_its_own_table()
    create = {"t": "create_table", "id": 1}
    for conn in range(1, TABLES_PER_ADDRESS + 2):
        registry.request(conn, "eve", create, 0.0, address=address_key("203.0.113.7"))
    codes = codes_to(registry, TABLES_PER_ADDRESS + 1)
    assert codes == ["table_limit"] and len(registry.tables) == 1 + TABLES_PER_ADDRESS
    # One IPv6 host is its /64: another address in it counts against the same share.
    for conn in range(100, 100 + TABLES_PER_ADDRESS + 1):
        registry.request(conn, "six", create, 0.0, address=address_key(f"2001:db8:1:2::{conn:x}"))
    assert codes_to(registry, 100 + TABLES_PER_ADDRESS) == ["table_limit"]
    # A table's creator leaving frees its share at once (the table is gone).
    registry.request(1, "eve", {"t": "leave", "id": 2}, 0.0)
    registry.request(200, "eve", create, 0.0, address=address_key("203.0.113.7"))
    assert codes_to(registry, 200) == []
    # The host as a whole: at most MAX_LIVE_TABLES, whoever asks.
    conn = 1000
    while len(registry.tables) < MAX_LIVE_TABLES:
        conn += 1
        address = address_key(f"198.51.{conn // 256}.{conn % 256}")
        registry.request(conn, "p", create, 0.0, address=address)
    registry.request(conn + 1, "p", create, 0.0, address=address_key("192.0.2.1"))
    assert codes_to(registry, conn + 1) == ["table_limit"]
    assert len(registry.tables) == MAX_LIVE_TABLES


async def test_a_table_keeps_only_its_last_finished_match(nursery: trio.Nursery) -> None:
    one_round = RuleSet(target=200, max_rounds=1)  # three whole matches, each one round long
    _, (table,), listener = await start(nursery, ConnectionLimits(), rules=one_round)
    results: list[netbot.BotResult] = []
    await play_bot(listener, 0, results, 0.0, 3)
    assert len(results[0].matches) == 3
    with trio.fail_after(20):
        while table.matches_played < 3:
            await trio.sleep(0.01)
    assert len(table.finished) == 1 and table.finished[0].winner is not None


async def test_a_table_relays_a_bounded_number_of_chat_lines_a_second(
    nursery: trio.Nursery, mock_clock: trio.testing.MockClock
) -> None:
    registry = host_with_its_own_table()
    listener = await serve(nursery, registry)
    members = []
    for number in range(5):  # each within its own connection's chat budget
        member = await Member.connect(listener, f"p{number}")
        await member.until(Welcomed)
        assert await member.answer_of("spectate", table=0) == "accepted"
        members.append(member)
    lines = 5 * len(members)
    assert lines > TABLE_CHAT_BURST
    for member in members:
        for line in range(5):
            await member.send(member.session.chat(f"line {line}"))

    def settled(member: Member) -> bool:  # each of its lines relayed (to all) or refused
        own = [m for m in member.messages("chat_message") if m["name"] == member.name]
        return len(own) + member.errors().count("chat_limited") == 5

    for member in members:  # the clock stands still: the allowance cannot refill
        await member.until_true(partial(settled, member))
    refused = sum(m.errors().count("chat_limited") for m in members)
    watcher = members[0]
    await watcher.until_true(lambda: len(watcher.messages("chat_message")) == lines - refused)
    assert refused == lines - TABLE_CHAT_BURST  # the table relayed its burst, no more
    assert len(watcher.messages("chat_message")) == TABLE_CHAT_BURST
    mock_clock.jump(1.0)  # a second later the table relays again, at its rate
    sender = members[1]
    await sender.send(sender.session.chat("later"))
    await watcher.until_true(lambda: len(watcher.messages("chat_message")) == TABLE_CHAT_BURST + 1)
    assert watcher.messages("chat_message")[-1]["text"] == "later"
    assert TABLE_CHAT_PER_SECOND >= 1


def test_a_table_takes_a_named_number_of_spectators() -> None:
    registry = host_with_its_own_table()
    for conn in range(1, MAX_SPECTATORS + 2):
        registry.request(conn, "fan", {"t": "spectate", "id": 1, "table": 0}, 0.0)
    assert codes_to(registry, MAX_SPECTATORS + 1) == ["table_full"]
    assert len(registry.tables[0].room.members) == MAX_SPECTATORS
