"""UNO Show 'Em No Mercy over the network on loopback (issue 15, "Show"): network bots, each
verifying every card, every Discard All, every Color Roulette's turned cards, every knock-out
and every round's audit with its trust verifier, play a whole `no_mercy` match at a headless
host at 2, 4 and 6 seats, and a verifying spectator watches. Each target (500, 1000, 2500 by
seats: No Mercy's rounds score high, a knock-out 250, and more seats knock out more) ends the
match in a few rounds: 2 to 6 in the runs made when this was written (the seeds are the
clients' own, fresh each run).

- the match ends, and every bot saw the same end (winner and scores);
- no verifier (the bots' and the spectator's) found a violation, and every round's audit passed
  for every bot and for the spectator;
- the match played No Mercy's own events (a Discard All's other cards, a roulette's turned
  cards or a knock-out), so the checks above are not vacuous;
- the spectator's view, folded from what it received (client/fold.py), is the host's public
  view (`observe(match, None)`, replayed from the host's own log) after every step.

On trio's autojump clock: the host's timers and the bots' reaction times are real, the waiting
is not.
"""

from __future__ import annotations

import pytest
import trio
import trio.testing
from client_net import played_match
from spectator_net import Spectator, same_as_the_host, watch

from client import netbot
from host.registry import Registry
from host.server import HostServer, ServerConfig
from host.settings import TableTimings
from host.table import TableSettings
from unonet import events as ev
from unonet.rules import preset

TIMINGS = TableTimings(grace=30.0, challenge_decision=20.0, seed_phase=10.0, bot_delay=0.8,
                       round_break=1.0, ready_wait=5.0, match_break=10_000.0)
"""The reference host's pace, but a match break long enough that the table plays one match."""

NO_MERCY_EVENTS = (ev.CardsDiscarded, ev.RouletteTurned, ev.KnockedOut)


@pytest.mark.parametrize(("seats", "target"), [(2, 500), (4, 1000), (6, 2500)])
async def test_bots_play_a_whole_no_mercy_match_over_loopback_every_check_passing(
    seats: int, target: int, nursery: trio.Nursery, autojump_clock: trio.testing.MockClock,
) -> None:
    registry = Registry(TIMINGS)
    table = registry.create_table(TableSettings(
        "no mercy", preset("no_mercy", target=target), preset="no_mercy", headless=True,
        target_seats=seats, timings=TIMINGS))
    server = HostServer(registry, ServerConfig(bind="127.0.0.1", port=0))
    listener = (await nursery.start(server.serve))[0]
    bots = [(f"bot{seat}", "normal" if seat % 2 == 0 else "random") for seat in range(seats)]
    results: dict[str, netbot.BotResult] = {}
    spectator = Spectator()

    async def one(name: str, level: str) -> None:
        stream = await trio.testing.open_stream_to_socket_listener(listener)
        results[name] = await netbot.play(stream, name=name, level=level, table=0, think=0.3,
                                          verify=True)

    with trio.fail_after(1_000_000):  # virtual seconds: only a deadlock can reach it
        async with trio.open_nursery() as clients:
            clients.start_soon(watch, listener, spectator)
            await trio.sleep(0.05)  # the spectator is in before the table fills
            for name, level in bots:
                clients.start_soon(one, name, level)
    match = played_match(table)

    # The match ended, No Mercy's own events in it, and everyone saw the same end.
    assert match.winner is not None and match.rules.variant == "no_mercy"
    assert match.seats == seats
    assert any(isinstance(e, NO_MERCY_EVENTS) for e in spectator.events)
    for name, result in results.items():
        assert len(result.matches) == 1, name
        assert result.matches[0].winner == match.winner
        assert result.matches[0].scores == tuple(match.scores)

    # Every check ran and passed: each bot and the spectator audited every round.
    rounds = list(range(1, match.round_no + 1))
    for name, result in results.items():
        assert result.violations == [], (name, result.violations)
        assert 0 < result.moves_checked <= result.intents, name  # its moves, as sent
        assert result.audited == rounds, (name, result.audited)
        assert result.intents > 0
    assert spectator.link.gate.violations() == []
    assert spectator.audited == rounds

    # The spectator's view is the host's public view after every step of the match.
    same_as_the_host(match, spectator)


