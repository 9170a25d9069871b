"""`may_play`, the yes or no that `Round.apply` asks of every play, agrees with `play_refusal`,
the judgement in full, for every card of every hand named every way, at every step of random
games under random rules (house rules and the variants included)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_properties import choose_action, house_rule_options, playable_rules

from unonet.actions import Play
from unonet.legality import may_play, play_refusal
from unonet.match import IN_ROUND, MATCH_OVER, Match
from unonet.round import Round
from unonet.rules import RuleSet, preset

STEPS = 120


def every_way_to_play(rnd: Round, seat: int) -> list[Play]:
    """Each card in `seat`'s hand (and one it does not hold) with no colour and each colour of
    the deck, with and without UNO: right and wrong alike."""
    cards = [*rnd.hands[seat], next(c for c in range(len(rnd.manifest))
                                    if all(c not in hand for hand in rnd.hands))]
    return [Play(card, color, uno) for card in cards
            for color in (None, *rnd.colors) for uno in (False, True)]


def assert_judges_agree(match: Match) -> None:
    rnd = match.round
    assert rnd is not None
    for seat in range(match.seats):
        for play in every_way_to_play(rnd, seat):
            full = play_refusal(rnd, seat, play)
            assert may_play(rnd, seat, play) == (full is None), (seat, play, full)


def play_and_check(rules: RuleSet, seats: int, seed: int) -> None:
    match = Match(rules, seats, seed.to_bytes(8, "big"))
    rng = random.Random(seed)
    for _ in range(STEPS):
        if match.phase == MATCH_OVER:
            return
        if match.phase == IN_ROUND:
            assert_judges_agree(match)
        seat, action = choose_action(match, rng, expire_rate=0.02)
        match.apply(seat, action)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=house_rule_options(), seats=st.integers(2, 6), seed=st.integers(0, 2**32))
def test_the_quick_judge_agrees_with_the_full_one_under_house_rules(
    options: dict[str, object], seats: int, seed: int
) -> None:
    rules = playable_rules(dict(options), seats)
    if rules is not None:
        play_and_check(rules, seats, seed)


def test_the_quick_judge_agrees_with_the_full_one_in_every_preset() -> None:
    for name in ("official", "party", "flip", "no_mercy"):
        rules = RuleSet() if name == "official" else preset(name)
        for seed in range(4):
            play_and_check(rules, 2 + seed % 3, seed)
