"""The client's fold of events equals the engine's own view, for every seat and a spectator.

A client never asks the host for a view during play: it folds the events it is sent
(client.fold.ViewTracker). Random games under random options check that after every batch the
folded view of each seat, and of a spectator, is exactly `Match.view` of that seat.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from test_properties import choose_action, playable_rules, rule_options

from client.fold import ViewTracker
from unonet.match import MATCH_OVER, Match

MAX_ACTIONS = 500


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seats=st.integers(2, 6),
    seed=st.binary(min_size=1, max_size=8),
    options=rule_options(),
    choices=st.integers(0, 2**32),
)
def test_the_folded_view_is_the_engine_view_after_every_batch(
    seats: int, seed: bytes, options: dict[str, Any], choices: int
) -> None:
    rules = playable_rules(options, seats)
    assume(rules is not None)
    assert rules is not None
    rng = random.Random(choices)
    match = Match(rules, seats, seed)
    observers: list[int | None] = [*range(seats), None]
    trackers = {who: ViewTracker(match.view(who), match.manifest, rules) for who in observers}
    for step in range(MAX_ACTIONS):
        if match.phase == MATCH_OVER:
            break
        seat, action = choose_action(match, rng, expire_rate=0.05, greedy=step > 300)
        events = match.apply(seat, action)
        for who, tracker in trackers.items():
            for event in events:
                audience = event.audience
                if audience is None or (who is not None and who in audience):
                    tracker.apply(event)
            assert tracker.view == match.view(who), (
                f"seat {who} after {action!r} by {seat} (step {step}): {events}"
            )
