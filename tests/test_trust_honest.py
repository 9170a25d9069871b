"""An honest host's rounds verify end to end, for every seat and for a spectator.

The rounds are real engine rounds (unonet.match) run by `trust_sim`: seeds, the key, the
committed deck, every event with its proofs, challenges, reshuffles and the audit.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from trust_sim import SIGNER, audit_of, deliver, history, play_round, received, replay

from protocol.trust.host import HostCommitments
from protocol.trust.results import Verified, Violation, ViolationKind
from protocol.trust.verifier import TrustVerifier
from protocol.trust_hook import VerifierObserver
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
    verifier = TrustVerifier(t.match, reveal.challenger)
    outcomes = []
    for index in received(t, reveal.challenger):
        item = t.deliveries[index].item
        wire = t.wire(index)
        if isinstance(item, tuple):
            outcomes.append(verifier.event(*item, wire))
        else:
            outcomes += [verifier.check_signature(wire), verifier.message(item)]
    assert all(isinstance(o, Verified) for o in outcomes)
    last = outcomes[-1]
    assert isinstance(last, Verified) and last.what.startswith("round 1 audited")
    assert verifier.rounds[0].status == "audited"
    _, audit = audit_of(t)
    assert isinstance(verifier.round_audit(audit), Verified)  # the same audit again: a resend
    other = replace(audit, host_seed=bytes(32))
    again = verifier.round_audit(other)
    assert isinstance(again, Violation)
    assert again.kind is ViolationKind.MALFORMED  # a second, different audit is refused


def test_a_round_is_checking_until_its_audit_then_audited() -> None:
    t = play_round(1)
    verifier = TrustVerifier(t.match, 1)
    index, _ = audit_of(t)
    for i in received(t, 1):
        if i == index:
            assert [r.status for r in verifier.rounds] == ["checking"]
        deliver(t, i, verifier, 1)
    assert [r.status for r in verifier.rounds] == ["audited"]
    assert verifier.finish() == []


def test_a_second_round_needs_a_number_one_higher() -> None:
    t = play_round(1)
    verifier = replay(t, 1)
    host = t.host
    second = HostCommitments(host.game_id, 2, host.host_seat)
    assert isinstance(verifier.round_prepare(second.round_prepare()), Verified)
    older = HostCommitments(host.game_id, 2, host.host_seat)
    result = verifier.round_prepare(older.round_prepare())
    assert isinstance(result, Violation)
    assert result.kind is ViolationKind.REDEAL  # round 2 again, with another commitment


def test_signatures_of_the_honest_host_verify_and_a_resent_message_is_no_news() -> None:
    t = play_round(3)
    verifier = replay(t, None)
    index, _ = audit_of(t)
    assert isinstance(verifier.check_signature(t.wire(index)), Verified)
    assert isinstance(verifier.check_signature({"t": "chat", "text": "hi"}), Verified)
    assert verifier.ok


def test_the_session_hook_checks_maps_as_received_signatures_and_histories() -> None:
    """VerifierObserver, fed the wire maps (as ClientSession hands them over): a resumed
    spectator's manifest, trust messages, round_history and live events all verify; a
    trust message whose signature was cut off does not."""
    t = play_round(5)
    cut = 25
    observer = VerifierObserver(TrustVerifier(t.match, None))
    maps: list[dict[str, Any]] = [SIGNER.sign({"t": "manifest", **t.match.to_dict()})]
    events = [i for i in received(t, None) if isinstance(t.deliveries[i].item, tuple)]
    for index in received(t, None):
        if index < events[cut] and not isinstance(t.deliveries[index].item, tuple):
            maps.append(t.wire(index))
    maps += [{"t": "round_history", **h.to_dict()} for h in history(t, None, cut, chunk=10)]
    for seq, index in enumerate(i for i in received(t, None) if i >= events[cut]):
        wire = t.wire(index)
        maps.append({"t": "event", "seq": seq, "event": wire, "legal": []}
                    if isinstance(t.deliveries[index].item, tuple) else wire)
    outcomes = [observer.observe(m) for m in maps]
    assert all(isinstance(o, Verified) for o in outcomes), [o for o in outcomes if not o]
    assert observer.verifier.rounds[0].status == "audited"

    unsigned = {k: v for k, v in maps[1].items() if k != "sig"}
    found = VerifierObserver(TrustVerifier(t.match, None)).observe(unsigned)
    assert isinstance(found, Violation) and found.kind is ViolationKind.SIGNATURE
