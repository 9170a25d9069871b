"""UNO Flip: the client's fold of events equals the engine's view, for every seat and a spectator.

A client follows a Flip match from the events alone (client.fold.ViewTracker): the side in play
(Flipped), the card to match read on that side, the other sides everybody sees of each hand
(OtherSidesShown) and of the draw pile's top (PileOtherSideShown), a Wild Draw Color's pending draw
(until_color), the dark faces it was told this round (DarkFacesShown: the pairing is the round's,
secret), and by them the face in play of its own cards and of the top card. Random Flip matches
under the options that combine with Flip check that after every batch each folded view is exactly
`observe` of that seat (or of a spectator); one fixed match checks it over a whole match that flips
both ways.
"""

from __future__ import annotations

import random
from typing import Any

from fold_check import fold_step, trackers_of
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_flip_properties import FLIP_OPTIONS, GREEDY_AFTER, choose, flip_rules

from client.fold import ViewTracker
from unonet import events as ev
from unonet.cards import Color, Face, Kind
from unonet.flip_deck import DARK
from unonet.match import IN_ROUND, MATCH_OVER, Match
from unonet.rules import RuleSet
from unonet.view import observe

FLIP_RULES = RuleSet(variant="flip")

MAX_ACTIONS = 1500


def follow(match: Match, rng_seed: int, max_actions: int = MAX_ACTIONS) -> list[ev.Event]:
    """Play `match` at random, folding every batch for each seat and a spectator and holding
    each fold to the engine's view; the events seen, for the caller to check what happened."""
    rng = random.Random(rng_seed)
    trackers = trackers_of(match)
    seen: list[ev.Event] = []
    in_round = 0
    for step in range(max_actions):
        if match.phase == MATCH_OVER:
            break
        seat, action = choose(match, rng, greedy=in_round > GREEDY_AFTER)
        events = match.apply(seat, action)
        in_round = 0 if match.phase != IN_ROUND else in_round + 1
        seen += events
        fold_step(match, trackers, events, f"after {action!r} by {seat} (step {step})")
        for tracker in trackers.values():
            in_play(match, tracker)
    return seen


def in_play(match: Match, tracker: ViewTracker) -> None:
    """The fold names the top card and every card of its own hand by the face the engine
    plays it as: light from the manifest, dark from the dark faces it was told this round."""
    rnd, view = match.round, tracker.view
    if rnd is None or view.round_no != match.round_no:
        return
    for card in (*view.hand, *([view.top_card] if view.top_card is not None else [])):
        assert tracker.face(card) == rnd.face(card), (card, view.side, view.dark_faces)


def test_a_whole_flip_match_folds_to_the_engine_view_on_both_sides() -> None:
    match = Match(FLIP_RULES.replace(target=150), 4, b"fold-a-whole-flip-match")
    seen = follow(match, 7, max_actions=20_000)
    assert match.phase == MATCH_OVER, "the match should end"
    sides = [e.side for e in seen if isinstance(e, ev.Flipped)]
    assert DARK in sides and 0 in sides, "the match should flip to dark and back"
    assert any(isinstance(e, ev.OtherSidesShown) for e in seen)
    assert any(isinstance(e, ev.PileOtherSideShown) for e in seen)
    public = [e for e in seen if isinstance(e, ev.DarkFacesShown) and e.seat is None]
    assert public and any(isinstance(e, ev.DarkFacesShown) and e.seat == 0 for e in seen)


def test_a_wild_draw_color_decision_folds_with_its_colour() -> None:
    """Seeds are tried until a Wild Draw Color waits for its challenge: the fold's pending
    decision carries the colour drawn until (and equals the engine's, as everywhere)."""
    for seed in range(200):
        match = Match(FLIP_RULES, 3, f"wdc-{seed}".encode())
        seen = follow(match, seed, max_actions=600)
        if any(isinstance(e, ev.DecisionPending) and e.until_color is not None for e in seen):
            return
    raise AssertionError("no Wild Draw Color decision in 200 matches")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    options=st.fixed_dictionaries(FLIP_OPTIONS),
    seats=st.integers(2, 6),
    seed=st.binary(min_size=1, max_size=8),
    rng_seed=st.integers(0, 2**32 - 1),
)
def test_random_flip_matches_fold_to_the_engine_view_after_every_batch(
    options: dict[str, Any], seats: int, seed: bytes, rng_seed: int
) -> None:
    rules: RuleSet | None = flip_rules(options, seats)
    if rules is None:
        return
    follow(Match(rules, seats, seed), rng_seed, max_actions=800)


def test_dark_faces_told_to_another_seat_are_not_ours() -> None:
    """A DarkFacesShown for another seat (which an honest host never sends us) tells us
    nothing; one for us or for everybody adds to what we were told, ids ascending."""
    match = Match(FLIP_RULES, 3, b"fold-dark-faces")
    tracker = ViewTracker(observe(match, 0), match.manifest)
    pink = ev.DarkFacesShown(1, (9,), (Face(Kind.NUMBER, Color.PINK, 5, 5),))
    assert tracker.apply(pink).dark_faces == ()
    wild = Face(Kind.WILD, None, None, 40)
    tracker.apply(ev.DarkFacesShown(0, (30,), (wild,)))
    told = tracker.apply(ev.DarkFacesShown(None, (2,), (Face(Kind.SKIP_EVERYONE, Color.CYAN),)))
    assert [card for card, _ in told.dark_faces] == [2, 30]
    assert tracker.apply(ev.RoundStarted(2, 1, 112)).dark_faces == ()
