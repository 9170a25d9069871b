"""Runs a match between in-process bots: the loop `unonet play` and the tests use.

Each bot is asked for the pending decision when it is its turn, and after every action every
seat may react out of turn (call UNO, catch, jump in, go on with its run, press B); reactions
repeat until nobody reacts. A buzzer race is all reactions: every seat still waiting presses B
when asked, and the race closes itself when all have; if a whole pass goes by with nobody
pressing, the driver closes it as the host's window would (Expire). Bots see only their own
view and the events whose audience includes them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from unonet.actions import HOST, Action, Expire
from unonet.bots.base import Bot, out_of_turn
from unonet.events import Event
from unonet.match import BETWEEN_ROUNDS, MATCH_OVER, Match
from unonet.phase import Phase

Listener = Callable[[int, Action, list[Event]], None]

MAX_ACTIONS_PER_MATCH = 1_000_000
"""A guard against a policy that never ends a match; the engine's rules always do."""


def deliver(bots: Sequence[Bot], events: list[Event]) -> None:
    for event in events:
        audience = event.audience
        for bot in bots:
            if audience is None or bot.seat in audience:
                bot.observe(event)


def play_match(match: Match, bots: Sequence[Bot], listener: Listener | None = None) -> Match:
    """Play `match` to its end with `bots[seat]` deciding for each seat."""
    actions = 0

    def run(seat: int, action: Action) -> None:
        nonlocal actions
        actions += 1
        events = match.apply(seat, action)
        deliver(bots, events)
        if listener is not None:
            listener(seat, action, events)

    while actions < MAX_ACTIONS_PER_MATCH:
        if match.phase == MATCH_OVER:
            return match
        if match.phase == BETWEEN_ROUNDS:
            run(HOST, match.legal_actions(HOST)[0])
        elif match.view(None).phase == Phase.BUZZER:
            run(HOST, Expire())  # a whole pass of reactions went by: the window closes
        else:
            seat = match.pending_seat
            assert seat is not None
            run(seat, bots[seat].act(match.view(seat), match.legal_actions(seat)))
        _reactions(match, bots, run, actions)
    raise RuntimeError("the match did not end within MAX_ACTIONS_PER_MATCH actions")


def _reactions(match: Match, bots: Sequence[Bot], run: Callable[[int, Action], None],
               turn: int) -> None:
    """Offer every seat its out-of-turn actions until a whole pass goes by with nobody taking
    one. Each pass starts at a seat that moves on with `turn`, so that no seat always wins
    (or always loses) the races."""
    reacted = True
    while reacted and match.phase not in (MATCH_OVER, BETWEEN_ROUNDS):
        reacted = False
        for offset in range(len(bots)):
            bot = bots[(turn + offset) % len(bots)]
            view = match.view(bot.seat)
            legal = out_of_turn(view, match.legal_actions(bot.seat))
            if not legal:
                continue
            action = bot.react(view, legal)
            if action is not None:
                run(bot.seat, action)
                turn += 1
                reacted = True
                break
