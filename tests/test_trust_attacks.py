"""A dishonest host, tried over real sockets on loopback: every attack of issue 11, one test
each, and every honest client flags it and its title bar shows it.

The host is the real one (host/); the client is the real link (client/link_session.py with its
TrustGate). A lie is told either on the wire, by tests/tamper.py's stream that rewrites what the
host sends (re-signed with the host's own key and with the events digest kept in step, so that
the lie itself is all there is to catch), or inside the host, by changing what the host does.
Each test first plays the same table honestly through the same harness: nothing is flagged.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import trio
from client_net import LinkHarness, play_until, start_host, start_link
from tamper import Tamper, TamperingStream, honest

from client.link import GameEvent, TrustReport, Update
from client.network import LinkConfig
from unonet import events as ev
from unonet.rules import RuleSet

RULES = RuleSet(target=50)
"""A short match: a few rounds, so that a test sees round starts, ends and audits."""


@dataclass
class Played:
    harness: LinkHarness
    flagged: list[TrustReport]


def _config(port: int) -> LinkConfig:
    return LinkConfig("127.0.0.1", port, name="me", tls=False, table=0, auto_ready=True)


def _match_over(update: Update) -> bool:
    return isinstance(update, GameEvent) and isinstance(update.event, ev.MatchEnded)


async def play_through(
    nursery: trio.Nursery,
    tamper: Tamper = honest,
    *,
    until: Callable[[Update], bool] = _match_over,
    bots: int = 2,
) -> Played:
    """One player and `bots` host bots play until `until`, the host's messages to the player
    passed through `tamper`; then the player leaves and what its trust checks flagged is
    returned (leaving ends the match for its verifier: owed audits count)."""
    host = await start_host(nursery, bots=bots, rules=RULES)
    harness = await start_link_through(nursery, host.port, tamper)
    await play_until(harness, until, timeout=120)
    await trio.sleep(0.5)  # what the host sends right after (an audit) arrives
    await harness.close()
    flagged = [u for u in harness.seen if isinstance(u, TrustReport) and not u.ok]
    return Played(harness, flagged)


async def start_link_through(nursery: trio.Nursery, port: int, tamper: Tamper) -> LinkHarness:
    return await start_link(nursery, _config(port),
                            lambda stream: TamperingStream(stream, tamper))


async def test_an_honest_host_through_the_same_harness_is_never_flagged(
    nursery: trio.Nursery,
) -> None:
    played = await play_through(nursery)
    assert played.flagged == []
    audits = [u for u in played.harness.seen if isinstance(u, TrustReport) and u.ok
              and "audited" in u.what]
    assert audits, "no round was audited"
