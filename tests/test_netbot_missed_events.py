"""A network bot that comes back in the middle of a round (client/netbot.py): its policy counts
the cards of the whole round, from the round's events it missed (link.MissedEvents), as if it
had seen them live; a reconnection to the same seat of the same match keeps the policy."""

from __future__ import annotations

from client.link import GameEvent, ManifestReceived, MissedEvents
from client.netbot import NetworkBot
from unonet.bots import NormalBot
from unonet.events import Event
from unonet.match import Match
from unonet.rules import RuleSet

SEAT = 1


def a_round(moves: int) -> tuple[Match, list[Event]]:
    """A two-seat round, dealt and played `moves` moves by the first legal action."""
    match = Match(RuleSet(), 2, b"missed events")
    events = match.start_round()
    for _ in range(moves):
        seat = match.pending_seat
        assert seat is not None
        events += match.apply(seat, match.legal_actions(seat)[0])
    return match, events


def seen_live(match: Match, events: list[Event]) -> set[int]:
    live = NormalBot(SEAT, match.rules, match.manifest, seed=1)
    for event in events:
        live.observe(event)
    return live.seen


def a_bot(match: Match) -> NetworkBot:
    bot = NetworkBot("ana", level="normal")
    bot.link.gate.seat = SEAT
    bot.rules = match.rules
    bot._update(ManifestReceived(match.manifest))
    return bot


def test_a_fresh_bot_resumed_mid_round_counts_the_cards_played_before_it_came() -> None:
    match, events = a_round(12)
    bot = a_bot(match)
    bot._update(MissedEvents(tuple(events)))
    assert isinstance(bot.policy, NormalBot)
    assert bot.policy.seen == seen_live(match, events) != set()


def test_a_reconnected_bot_keeps_its_policy_and_adds_the_events_it_missed() -> None:
    match, events = a_round(12)
    bot = a_bot(match)
    policy = bot.policy
    cut = len(events) // 2
    for event in events[:cut]:  # seen live, before the connection was cut
        bot._update(GameEvent(event, ()))
    bot._update(ManifestReceived(match.manifest))  # entering the match again
    assert bot.policy is policy
    bot._update(MissedEvents(tuple(events[cut:])))
    assert isinstance(bot.policy, NormalBot)
    assert bot.policy.seen == seen_live(match, events)


def test_another_seat_or_deck_makes_a_new_policy() -> None:
    match, _ = a_round(0)
    bot = a_bot(match)
    policy = bot.policy
    bot.link.gate.seat = 0
    bot._update(ManifestReceived(match.manifest))
    assert bot.policy is not policy and bot.policy is not None and bot.policy.seat == 0
