"""The client's fold of events equals the engine's own view, for every seat and a spectator.

A client never asks the host for a view during play: it folds the events it is sent
(client.fold.ViewTracker). Random games under random options, the house rules included
(stacking, deflect, jump-in, sequences, multiples, 7-0, buzzers, max_hand, elimination, teams),
check that after every batch the folded view of each seat, and of a spectator, is exactly
`Match.view` of that seat.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from test_properties import all_legal, choose_action, house_rule_options, playable_rules

from client.bounds import check_event, check_view
from client.fold import ViewTracker
from unonet.actions import Action, Play
from unonet.match import MATCH_OVER, Match

MAX_ACTIONS = 500


def for_seats(options: dict[str, Any], seats: int) -> dict[str, Any]:
    """teams=pairs wants 4 or 6 seats and winner_collects: elsewhere the draw plays without
    teams, rather than being thrown away."""
    if options["teams"] == "pairs":
        if seats in (4, 6):
            return {**options, "scoring": "winner_collects"}
        return {**options, "teams": "off"}
    return options


def next_action(match: Match, rng: random.Random, step: int) -> tuple[int, Action]:
    """test_properties' random player; once it turns greedy (a long round), only the pending
    seat plays, so out-of-turn plays (jump-ins) never stall its choice of a card."""
    greedy = step > 300
    legal = all_legal(match)
    if greedy:
        legal = [(s, a) for s, a in legal
                 if not isinstance(a, Play) or s == match.pending_seat]
    return choose_action(match, rng, expire_rate=0.05, greedy=greedy, legal=legal)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(
    seats=st.integers(2, 6),
    seed=st.binary(min_size=1, max_size=8),
    options=house_rule_options(),
    choices=st.integers(0, 2**32),
)
def test_the_folded_view_is_the_engine_view_after_every_batch(
    seats: int, seed: bytes, options: dict[str, Any], choices: int
) -> None:
    rules = playable_rules(for_seats(options, seats), seats)
    assume(rules is not None)
    assert rules is not None
    rng = random.Random(choices)
    match = Match(rules, seats, seed)
    observers: list[int | None] = [*range(seats), None]
    trackers = {who: ViewTracker(match.view(who), match.manifest) for who in observers}
    for step in range(MAX_ACTIONS):
        if match.phase == MATCH_OVER:
            break
        seat, action = next_action(match, rng, step)
        events = match.apply(seat, action)
        for event in events:  # a real match is never out of bounds (client/bounds.py)
            check_event(event, seats, len(match.manifest))
        for who, tracker in trackers.items():
            for event in events:
                audience = event.audience
                if audience is None or (who is not None and who in audience):
                    tracker.apply(event)
            check_view(match.view(who), len(match.manifest))
            assert tracker.view == match.view(who), (
                f"seat {who} after {action!r} by {seat} (step {step}): {events}"
            )
