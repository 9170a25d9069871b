"""What `unonet bot` reports of its deck checks is what its verifier judged, even when a
rematch's manifest comes in the same read as the audit that ended the match.

Found running `unonet bot` against a host of one round a match: one time in three it said
"deck checks: 0 of 1 rounds audited in full". The bot read the audited round from the gate's
verifier after the read, when the next match's manifest, in the same read, had replaced it: its
round 1 was the new match's, just dealt. Here the stream between host and bot holds the audit
back until the rematch's manifest and round_prepare come, and hands them over in one read.
"""

from __future__ import annotations

import trio
import trio.testing
from client_net import start_host
from tamper import Message, TamperingStream

from client import netbot
from unonet.rules import RuleSet


async def test_the_audit_and_a_rematch_in_one_read_still_count_the_round_audited(
    nursery: trio.Nursery,
) -> None:
    host = await start_host(nursery, bots=1, players=1, rules=RuleSet(max_rounds=1))
    held: list[Message] = []
    released = False

    def hold_the_audit(message: Message) -> list[Message]:
        nonlocal released
        if released:
            return [message]
        if message.get("t") == "round_audit" or held:
            held.append(message)
            if message.get("t") == "round_prepare":  # the rematch's first round, dealt
                released = True
                return list(held)  # all in one read
            return []
        return [message]

    stream = TamperingStream(await trio.open_tcp_stream("127.0.0.1", host.port),
                             hold_the_audit)
    with trio.fail_after(300):  # two matches: the bot asks for the rematch that races
        result = await netbot.play(stream, name="Robo", table=0, think=0.0, matches=2)
    assert released, "the rematch never came: the test did not test the race"
    kinds = [message.get("t") for message in held]
    assert kinds[0] == "round_audit" and "manifest" in kinds, kinds
    assert result.violations == []
    assert result.audited == [1, 1]  # the first match's round 1 counted, then the second's
    assert result.rounds[1].status == "audited" and result.rounds[1].events > 0
    assert result.judged == 2
    assert netbot.report_lines(result)[-2] == (  # then its own moves' line
        "deck checks: 2 of 2 rounds audited in full, every card and seed held")


async def test_a_bot_of_two_matches_counts_every_round_it_judged(nursery: trio.Nursery) -> None:
    """`rounds` is by round number, and both matches have a round 1: the report counts the
    rounds judged over the session ("2 of 2"), not the numbers ("2 of 1")."""
    host = await start_host(nursery, bots=1, players=1, rules=RuleSet(max_rounds=1))
    stream = await trio.open_tcp_stream("127.0.0.1", host.port)
    with trio.fail_after(300):
        result = await netbot.play(stream, name="Robo", table=0, think=0.0, matches=2)
    assert len(result.matches) == 2 and result.violations == []
    assert result.audited == [1, 1] and result.judged == 2
    assert netbot.report_lines(result)[-2] == (  # then its own moves' line
        "deck checks: 2 of 2 rounds audited in full, every card and seed held")
