"""A jump-in window a person can land against bots (issue 46, point 4; RULEBOOK.md section 6):
while a connected player holds a card that may jump in, a bot whose turn it is waits the
table's jump-in wait (3 s) rather than its think time (0.8 s); with no jump-in open, or none a
person holds, it does not."""

from __future__ import annotations

from stacking import stacked_order

from host.game import Game
from host.seating import BOT, HUMAN, Room, Seat
from host.settings import TableTimings
from protocol.trust.signing import Signer
from unonet.match import Match
from unonet.rules import RuleSet

TIMINGS = TableTimings(bot_delay=0.8, jump_in_wait=3.0, seed_phase=1.0, round_break=0.0,
                       bot_reaction=(5.0, 5.0))
"""Bots that think 0.8 s, and race (jump in themselves) only after the moments looked at."""


def dealt(rules: RuleSet, ana: list[str]) -> tuple[Game, float]:
    """Ana (seat 0, a connected player) holds `ana`; two bots; the first card is r5 and the
    first to play is bot seat 1. The round dealt; returns the game and when it was dealt."""
    hands = [ana, ["g1", "g2", "g3"], ["y1", "y2", "y3"]]
    order = stacked_order(rules.manifest(), 0, hands, "r5")
    match = Match(rules, 3, b"jump-wait", stacked_decks=[order], first_dealer=0)
    room = Room(3, [])
    room.seats = [Seat(HUMAN, "Ana", ready=True, conn=1), Seat(BOT, "Bo", ready=True,
                  level="normal"), Seat(BOT, "Cy", ready=True, level="normal")]
    game = Game(room, match, bytes(16), TIMINGS, None, Signer.generate())
    game.begin(0.0)
    now = 0.0
    while match.round is None or match.pending_seat is None:  # the seed phases run out
        now += 1.0
        game.tick(now)
    assert match.pending_seat == 1
    return game, now


def test_a_bot_waits_for_a_player_who_may_jump_in() -> None:
    game, now = dealt(RuleSet(hand_size=3, jump_in="identical"), ["r5", "b7", "b8"])
    assert game.bot_due == now + TIMINGS.jump_in_wait


def test_a_bot_thinks_its_usual_time_when_no_player_may_jump_in() -> None:
    game, now = dealt(RuleSet(hand_size=3, jump_in="identical"), ["r6", "b7", "b8"])
    assert game.bot_due == now + TIMINGS.bot_delay
    game, now = dealt(RuleSet(hand_size=3), ["r5", "b7", "b8"])  # no jump-in in these rules
    assert game.bot_due == now + TIMINGS.bot_delay
