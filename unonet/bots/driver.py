"""Runs a match between in-process bots: the loop `unonet play` and the tests use.

Each bot is asked for the pending decision when it is its turn, and after every batch of events
every seat may react out of turn (call UNO, catch); reactions repeat until nobody reacts. Bots
see only their own view and the events whose audience includes them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from unonet.actions import HOST, Action, CallUno, Catch
from unonet.bots.base import Bot
from unonet.events import Event
from unonet.match import BETWEEN_ROUNDS, MATCH_OVER, Match

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

    def run(seat: int, action: Action) -> None:
        events = match.apply(seat, action)
        deliver(bots, events)
        if listener is not None:
            listener(seat, action, events)

    for _ in range(MAX_ACTIONS_PER_MATCH):
        if match.phase == MATCH_OVER:
            return match
        if match.phase == BETWEEN_ROUNDS:
            run(HOST, match.legal_actions(HOST)[0])
        else:
            seat = match.pending_seat
            assert seat is not None
            run(seat, bots[seat].act(match.view(seat), match.legal_actions(seat)))
        _reactions(match, bots, run)
    raise RuntimeError("the match did not end within MAX_ACTIONS_PER_MATCH actions")


def _reactions(match: Match, bots: Sequence[Bot], run: Callable[[int, Action], None]) -> None:
    reacted = True
    while reacted and match.phase not in (MATCH_OVER, BETWEEN_ROUNDS):
        reacted = False
        for bot in bots:
            legal = [a for a in match.legal_actions(bot.seat) if isinstance(a, CallUno | Catch)]
            if not legal:
                continue
            action = bot.react(match.view(bot.seat), legal)
            if action is not None:
                run(bot.seat, action)
                reacted = True
                break

