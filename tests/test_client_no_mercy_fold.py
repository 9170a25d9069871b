"""UNO Show 'Em No Mercy: the client's fold of events equals the engine's view, for every seat
and a spectator.

A client follows a No Mercy match from the events alone (client.fold.ViewTracker): several first
cards turned (TopCardTurned, the last on top), a Discard All's other cards going down
(CardsDiscarded), a Color Roulette's decision and the cards it turned (RouletteTurned), an
escalating stack and a draw cancelled (DrawCancelled), knock-outs by the Mercy rule
(KnockedOut, CardsReturned). Random No Mercy matches under the options that combine with it
check after every batch that each folded view is exactly `observe` of that seat (or of a
spectator); fixed matches check that each of those events did happen while folding.
"""

from __future__ import annotations

import random
from typing import Any

from fold_check import fold_step, trackers_of
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from no_mercy_scenario import NO_MERCY, no_mercy_match
from test_no_mercy_properties import NO_MERCY_OPTIONS, choose, no_mercy_rules

from unonet import events as ev
from unonet.match import MATCH_OVER, Match
from unonet.phase import Phase

MAX_ACTIONS = 4000


def follow(match: Match, rng_seed: int, stacker: bool, max_actions: int = MAX_ACTIONS
           ) -> list[ev.Event]:
    """Play `match` at random, folding every batch for each seat and a spectator and holding
    each fold to the engine's view; the events seen, for the caller to check what happened."""
    rng = random.Random(rng_seed)
    trackers = trackers_of(match)
    seen: list[ev.Event] = []
    for step in range(max_actions):
        if match.phase == MATCH_OVER:
            break
        seat, action = choose(match, rng, stacker)
        events = match.apply(seat, action)
        seen += events
        fold_step(match, trackers, events, f"after {action!r} by {seat} (step {step})")
    return seen


def test_whole_no_mercy_matches_fold_through_every_new_event() -> None:
    """Whole matches (stackers and not) until every event No Mercy adds has been folded."""
    wanted = {ev.CardsDiscarded, ev.RouletteTurned, ev.KnockedOut, ev.CardsReturned,
              ev.DrawStacked, ev.DrawCancelled}
    seen_types: set[type] = set()
    first_cards = roulettes = 0
    for n in range(30):
        rules = NO_MERCY.replace(target=300, deflect=n % 2 == 0)
        match = no_mercy_match(2 + n % 5, b"fold-nm-%d" % n, rules)
        seen = follow(match, n, stacker=n % 3 != 0)
        assert match.phase == MATCH_OVER, "the match should end"
        seen_types |= {type(e) for e in seen}
        turned = [0]
        for e in seen:
            if isinstance(e, ev.RoundStarted):
                turned.append(0)
            elif isinstance(e, ev.TopCardTurned):
                turned[-1] += 1
        first_cards += max(turned) > 1
        roulettes += sum(isinstance(e, ev.DecisionPending) and e.kind == Phase.ROULETTE.value
                         for e in seen)
        if wanted <= seen_types and first_cards and roulettes:
            return
    raise AssertionError(f"not folded: {wanted - seen_types}, {first_cards=}, {roulettes=}")


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    options=st.fixed_dictionaries(NO_MERCY_OPTIONS),
    seats=st.integers(2, 6),
    seed=st.binary(min_size=1, max_size=8),
    rng_seed=st.integers(0, 2**32 - 1),
    stacker=st.booleans(),
)
def test_random_no_mercy_matches_fold_to_the_engine_view_after_every_batch(
    options: dict[str, Any], seats: int, seed: bytes, rng_seed: int, stacker: bool
) -> None:
    rules = no_mercy_rules(options, seats)
    if rules is None:
        return
    follow(no_mercy_match(seats, seed, rules), rng_seed, stacker, max_actions=1500)
