"""Where a strong bot sits: `--policy strong` on the command line (its budget flags, a seeded
logged match that replays), the lobby's level picker (l: normal, hard, easy; a adds one), and a
host table where a strong stand-in and a strong network bot play a whole match, the host's
thinking done in slices between its other work (host/bots.py THINK_SLICE)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
import trio
import trio.testing
from test_client_rule_editor import owner_lobby
from test_host_authority import Member, headless, serve

from client import netbot
from client.lobby import AddBot
from client.render import help_entries
from host.registry import Registry
from host.server import HostServer, ServerConfig
from host.settings import FAST_TIMINGS
from host.table import TableSettings
from protocol.client_session import Welcomed
from unonet.bots import SearchBudget
from unonet.cli import main
from unonet.rules import RuleSet

STRONG_LOG = ["play", "--log", "--bots", "2", "--policy", "strong", "--search-time", "0",
              "--search-sims", "8", "--seed", "ab", "--set", "target=50", "--quiet"]


def test_a_logged_match_of_strong_bots_with_a_budget_in_simulations_replays(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(STRONG_LOG) == 0
    first = capsys.readouterr().out
    assert main(STRONG_LOG) == 0
    assert capsys.readouterr().out == first
    assert "strong" in first


def test_a_search_with_no_end_is_refused_by_name(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--log", "--policy", "strong", "--search-time", "0"]) == 2
    assert "--search-sims" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_:
        main(["bot", "127.0.0.1:1", "--policy", "strong", "--search-time", "61"])
    assert exit_.value.code == 2
    assert "0 to 60 seconds" in capsys.readouterr().err


def test_the_owner_picks_the_level_of_the_next_bot_by_the_name_players_know() -> None:
    model = owner_lobby({})
    assert model.add_bot() == AddBot()  # normal: the host's default level
    model.next_bot_level()
    assert "hard" in model.notice
    assert model.add_bot() == AddBot(level="strong")
    assert any("a: add a bot (hard)" in line for line in help_entries(model, False))
    model.next_bot_level()
    assert model.add_bot() == AddBot(level="random")
    model.next_bot_level()
    assert model.add_bot() == AddBot()
    for lang, word in (("it", "difficile"), ("pt", "difícil")):
        other = owner_lobby({}, lang=lang)
        other.next_bot_level()
        assert word in other.notice


async def test_strong_bots_play_a_whole_match_at_a_host_and_over_the_network(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock,
) -> None:
    budget = SearchBudget(seconds=None, simulations=12)
    timings = replace(FAST_TIMINGS, bot_search=budget, match_break=10_000.0)
    registry = Registry(timings)
    table = registry.create_table(TableSettings("strong", RuleSet(target=50), headless=True,
                                                target_seats=3, timings=timings))
    table.add_bot("strong")
    server = HostServer(registry, ServerConfig(bind="127.0.0.1", port=0))
    listener = (await nursery.start(server.serve))[0]
    port = listener.socket.getsockname()[1]
    results: dict[str, netbot.BotResult] = {}

    async def one(name: str, level: str) -> None:
        stream = await trio.open_tcp_stream("127.0.0.1", port)
        results[name] = await netbot.play(stream, name=name, level=level, table=0, think=0.0,
                                          budget=budget)

    with trio.fail_after(1_000_000):  # virtual seconds: only a deadlock can reach it
        async with trio.open_nursery() as clients:
            clients.start_soon(one, "deep", "strong")
            clients.start_soon(one, "plain", "normal")
    for name, result in results.items():
        assert len(result.matches) == 1, name
        assert not result.violations, name
    assert results["deep"].matches[0] == results["plain"].matches[0]


async def test_the_owner_seats_a_strong_bot_by_its_policy_and_the_host_seats_them_at_start(
    nursery: trio.Nursery, tmp_path: Path,
) -> None:
    registry = headless(tmp_path, player_owner=True, bot_level="strong")  # 3 seats, 1 bot
    table = registry.tables[0]
    assert [s.level for s in table.room.seats if s is not None] == ["strong"]  # --policy
    listener = await serve(nursery, registry)
    ana = await Member.connect(listener, "ana")
    await ana.until(Welcomed)
    assert await ana.answer_of("join_table", table=0, name="ana") == "accepted"
    assert await ana.answer_of("add_bot", level="strong") == "accepted"
    assert await ana.answer_of("add_bot", level="hard") == "bad_message"  # the word, not a policy
    assert sorted(s.level or "" for s in table.room.seats if s is not None and s.level) == [
        "strong", "strong"]
