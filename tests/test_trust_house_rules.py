"""Whole matches of the house-rule presets, played by the engine, verify for every seat.

`trust_sim.play_match` runs the honest host's trust code (a HostCommitments per round, the proofs
attached to every event) around a real match in which any seat acts whenever it may (jump-ins,
buzzer presses and catches race the player whose turn it is); every seat and a spectator check
every round with one verifier each. Then a dishonest host is caught in the same matches.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from trust_sim import Transcript, drawn_chooser, play_match, replay_match

from protocol.trust.results import Violation, ViolationKind
from unonet import events as ev
from unonet.cards import Kind
from unonet.rules import RuleSet, preset

HOUSE_PRESETS = ("seed000", "seed003", "seed004", "party")

CROWDED = {"buzzers": True, "hand_size": 14, "max_hand": 18, "deflect": True, "multiples": True}
"""Party with buzzers and a hand limit, dealt so deep that the pile runs out soon after a
knock-out: returned cards come back from under the pile."""


def verify_everyone(rounds: list[Transcript]) -> dict[int | None, list[Violation]]:
    seats = rounds[0].seats
    return {seat: replay_match(rounds, seat).violations() for seat in [None, *range(seats)]}


def census(rounds: list[Transcript]) -> Counter[str]:
    """Which movements the matches made: event names, draw reasons, multi-card plays,
    returned positions drawn again, stacked Wild Draw Fours (with a hand digest) challenged."""
    seen: Counter[str] = Counter()
    for t in rounds:
        under: set[tuple[int, int]] = set()
        previous: ev.Event | None = None
        digest_before = False
        stacked_wd4 = False
        for _, event, proof in t.events():
            seen[type(event).__name__] += 1
            if isinstance(event, ev.DrawStacked) and isinstance(previous, ev.CardPlayed):
                stacked_wd4 = t.manifest.face(previous.card).kind is Kind.WILD_DRAW_FOUR
                seen["stacked_wd4_with_digest"] += stacked_wd4 and digest_before
            elif isinstance(event, ev.CardPlayed):
                stacked_wd4 = False
            if isinstance(event, ev.Challenged) and stacked_wd4:
                seen["stacked_wd4_challenged"] += 1
            digest_before = proof.hand_digest is not None
            if isinstance(event, ev.CardsDrawn):
                seen[f"draw:{event.reason}"] += 1
                seen["redrawn"] += len(under & set(event.positions))
                under -= set(event.positions)
            if isinstance(event, ev.CardsReturned):
                under |= set(event.positions)
            if (isinstance(event, ev.CardPlayed) and isinstance(previous, ev.CardPlayed)
                    and previous.seat == event.seat):
                seen["multi_card_play"] += 1
            previous = event
    return seen


@pytest.mark.parametrize("name", HOUSE_PRESETS)
def test_matches_of_a_house_preset_verify_for_every_seat_and_a_spectator(name: str) -> None:
    for seed in (0, 1):
        rounds = play_match(preset(name), 4, seed)
        assert len(rounds) > 1  # a match, not a round: verifiers carry over rounds
        assert verify_everyone(rounds) == {s: [] for s in [None, 0, 1, 2, 3]}, (name, seed)


@pytest.mark.parametrize(
    ("name", "movements"),
    [
        ("seed000", {"DrawStacked", "draw:stack", "stacked_wd4_with_digest",
                     "stacked_wd4_challenged"}),
        ("seed003", {"JumpedIn", "Challenged"}),
        ("seed004", {"multi_card_play"}),
        ("party", {"HandsMoved", "JumpedIn", "DrawStacked"}),
    ],
)
def test_the_preset_matches_make_the_movements_they_are_meant_to_check(
    name: str, movements: set[str]
) -> None:
    seen = census(play_match(preset(name), 4, 0)) + census(play_match(preset(name), 4, 1))
    assert {m for m in movements if seen[m] == 0} == set()


def test_knock_outs_buzzers_and_cards_back_from_under_the_pile_verify() -> None:
    seen: Counter[str] = Counter()
    for seed in (0, 2):
        rounds = play_match(preset("party", **CROWDED), 5, seed, max_actions=1500)
        seen += census(rounds)
        assert verify_everyone(rounds) == {s: [] for s in [None, *range(5)]}, seed
    for movement in ("CardsReturned", "redrawn", "draw:penalty_buzzer", "HandsMoved"):
        assert seen[movement] > 0, movement


@settings(max_examples=14, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(
    name=st.sampled_from(HOUSE_PRESETS),
    crowded=st.booleans(),
    seats=st.integers(2, 6),
    keys=st.integers(0, 2**32),
    data=st.data(),
)
def test_random_house_rule_matches_always_verify(
    name: str, crowded: bool, seats: int, keys: int, data: st.DataObject
) -> None:
    """Hypothesis draws every action (`keys` only makes the seeds), so a failing match shrinks
    to a short one."""
    rules: RuleSet = preset(name, **CROWDED) if crowded else preset(name)
    rounds = play_match(rules, seats, keys, max_actions=400, chooser=drawn_chooser(data))
    for seat, found in verify_everyone(rounds).items():
        assert found == [], (seat, found[:3])


def first_swap_receipt(rounds: list[Transcript]) -> tuple[Transcript, int, ev.CardsReceived]:
    """The first CardsReceived that follows a HandsMoved, in the first round with one."""
    for t in rounds:
        after_move = False
        for index, event, _ in t.events():
            if isinstance(event, ev.HandsMoved):
                after_move = True
            elif isinstance(event, ev.CardsReceived) and after_move:
                return t, index, event
            elif not isinstance(event, ev.CardsReceived):
                after_move = False
    raise AssertionError("no hand moved in these rounds")


def test_a_forged_card_in_a_swapped_hand_is_caught_by_its_receiver_in_a_real_match() -> None:
    rounds = play_match(preset("party"), 4, 0)
    t, index, received = first_swap_receipt(rounds)
    forged = (received.cards[-1] + 1) % len(t.manifest)
    t.set_event(index, replace(received, cards=(*received.cards[:-1], forged)))
    found = replay_match(rounds, received.seat).violations()
    assert found and found[0].kind is ViolationKind.CARD_MISMATCH
    assert all(kind == [] for seat, kind in verify_everyone(rounds).items()
               if seat != received.seat)
