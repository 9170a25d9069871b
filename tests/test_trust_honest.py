"""An honest host's rounds verify end to end, for every seat and for a spectator.

The rounds are real engine rounds (unonet.match) run by `trust_sim`: seeds, the key, the
committed deck, every event with its proofs, challenges, reshuffles and the audit.
"""

from __future__ import annotations

import pytest
from trust_sim import play_round, replay

from protocol.trust import HostCommitments, TrustVerifier, Verified, Violation, ViolationKind
from unonet import events as ev


def _all_verify(seed: int, seats: int = 3, host_seat: int | None = 0) -> None:
    t = play_round(seed, seats=seats, host_seat=host_seat)
    for seat in [None, *range(seats)]:
        verifier = replay(t, seat)
        assert verifier.violations() == [], (seat, verifier.violations())
        assert verifier.ok


@pytest.mark.parametrize("seed", range(12))
def test_honest_rounds_verify_for_every_seat_and_spectators(seed: int) -> None:
    _all_verify(seed)


def test_an_honest_round_with_guilty_and_innocent_challenges_verifies() -> None:
    t = play_round(2)
    verdicts = {e.guilty for _, e, _ in t.find(ev.Challenged) if isinstance(e, ev.Challenged)}
    assert verdicts == {True, False}
    _all_verify(2)


def test_an_honest_round_with_an_emptied_pile_verifies() -> None:
    t = play_round(6)
    assert [e.reason for _, e, _ in t.find(ev.Reshuffled) if isinstance(e, ev.Reshuffled)] == [
        "empty_pile"
    ]
    _all_verify(6)


def test_an_honest_round_with_a_first_wild_draw_four_verifies() -> None:
    t = play_round(27)
    reasons = [e.reason for _, e, _ in t.find(ev.Reshuffled) if isinstance(e, ev.Reshuffled)]
    assert reasons == ["first_card_wild_draw_four"]
    _all_verify(27)


def test_a_host_without_a_seat_commits_under_the_sentinel_seat() -> None:
    _all_verify(3, seats=4, host_seat=None)


def test_a_player_who_never_reveals_is_absent_and_the_round_still_verifies() -> None:
    t = play_round(6)  # 6 % 7 == 6: the last committed player never reveals
    assert t.host.absent
    _all_verify(6)


def test_the_challenger_sees_every_step_verified_and_the_audit_once() -> None:
    t = play_round(0)
    [(_, reveal, _)] = t.find(ev.ChallengeReveal)
    assert isinstance(reveal, ev.ChallengeReveal)
    verifier = TrustVerifier(t.manifest, reveal.challenger)
    outcomes = []
    for delivery in t.deliveries:
        if delivery.audience is None or reveal.challenger in delivery.audience:
            item = delivery.item
            outcome = verifier.event(*item) if isinstance(item, tuple) else verifier.message(item)
            outcomes.append(outcome)
    assert all(isinstance(o, Verified) for o in outcomes)
    assert outcomes[-1].what.startswith("round 1 audited")
    again = verifier.round_audit(t.host.audit())
    assert isinstance(again, Violation)
    assert again.kind is ViolationKind.MALFORMED  # a second audit of one round is refused


def test_a_second_round_needs_the_first_audited_and_a_higher_number() -> None:
    t = play_round(1)
    verifier = replay(t, 1)
    host = t.host
    second = HostCommitments(host.game_id, 2, host.host_seat)
    assert isinstance(verifier.round_prepare(second.round_prepare()), Verified)
    older = HostCommitments(host.game_id, 1, host.host_seat)
    result = verifier.round_prepare(older.round_prepare())
    assert isinstance(result, Violation)
    assert result.kind is ViolationKind.REDEAL  # round 1 again, with another commitment
