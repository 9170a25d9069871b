"""The tables' clock wakes when a change brings a table's deadline forward (host/server.py).

`HostServer.changed` wakes the clock only when some table's deadline now comes before the one
the clock sleeps until; a change that moved no deadline forward does not wake it. A missed
wake-up holds a table up until some later change wakes the clock, if one ever does (with no
wake-up at all this test deadlocks). Here the host's bots act at delay 0 and the network bot
answers at once, so on trio's autojump clock no virtual time passes within a round but a
race's (a bot catching a missed UNO waits its reaction time): one missed wake-up shows as
time passing before some other event.
"""

from __future__ import annotations

import itertools

import trio
import trio.testing

from client import netbot
from host.registry import Registry
from host.server import HostServer, ServerConfig
from host.settings import TableTimings
from host.table import TableSettings
from unonet import events as ev
from unonet.rules import RuleSet

TIMINGS = TableTimings(grace=30.0, challenge_decision=20.0, seed_phase=10.0, bot_delay=0.0,
                       round_break=1.0, ready_wait=5.0, match_break=10_000.0)
"""Bots that act the instant their turn comes; a second between rounds."""

RACES = (ev.UnoCaught, ev.JumpedIn, ev.Buzzed)
"""What a bot does after its reaction time (host/settings.py TableTimings.bot_reaction)."""


async def test_bots_at_delay_zero_act_at_the_instant_their_turn_comes(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock,
) -> None:
    registry = Registry(TIMINGS)
    rules = RuleSet(target=10_000, max_rounds=3)  # three rounds, whatever their points
    table = registry.create_table(TableSettings("instant", rules, headless=True,
                                                target_seats=4, timings=TIMINGS))
    for _ in range(3):
        table.add_bot("normal")
    server = HostServer(registry, ServerConfig(bind="127.0.0.1", port=0))
    listener = (await nursery.start(server.serve))[0]
    rounds: list[list[tuple[float, ev.Event]]] = []  # each round's events, with their time

    def watch(events: object) -> None:
        for event in events:  # type: ignore[attr-defined]
            inner = getattr(event, "event", None)
            if isinstance(inner, ev.RoundStarted):
                rounds.append([])
            if isinstance(inner, ev.Event) and rounds:
                rounds[-1].append((trio.current_time(), inner))

    stream = await trio.testing.open_stream_to_socket_listener(listener)
    with trio.fail_after(1_000_000):  # virtual seconds: only a deadlock can reach it
        result = await netbot.play(stream, name="quick", table=0, think=0.0, verify=True,
                                   observe=watch)
    assert len(result.matches) == 1
    assert len(rounds) == 3  # a round's start after a break is the clock's to wake, too
    for number, seen in enumerate(rounds, 1):
        assert len(seen) > 4
        for (before, _), (at, event) in itertools.pairwise(seen):
            if not isinstance(event, RACES):
                assert at - before < 0.01, (number, before, at, event)
