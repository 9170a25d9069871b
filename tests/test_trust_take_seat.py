"""A client that followed a round as a spectator takes a seat in it (SPEC.md [UNO-8-7]), on the
verifier: the seat's earlier draws came to it in public only, so they are owed no private copy,
while every card given to the seat from then on is checked as its own, and the hand the host's
snapshot gave the newcomer must be the cards the public record gives that seat."""

from __future__ import annotations

import pytest
from trust_sim import SIGNER, Transcript, deliver, history, play_round, received

from protocol.trust.results import ViolationKind
from protocol.trust.verifier import TrustVerifier

SEAT = 1


def enter_as_spectator_then_sit(t: Transcript, hand_of: object = None) -> TrustVerifier:
    """A spectator's entry after about half of the round's public events (the manifest, the
    trust messages so far, the history), then the seat taken at the entry's snapshot with the
    hand it holds (or `hand_of(honest hand)`, a dishonest host's), then the rest as the seat."""
    public = received(t, None)
    events = [i for i in public if isinstance(t.deliveries[i].item, tuple)]
    cut = len(events) // 2
    while t.deliveries[events[cut] - 1].audience is not None:  # between two actions
        cut += 1
    cut_at = events[cut]
    verifier = TrustVerifier(t.match, None)
    verifier.check_signature(SIGNER.sign({"t": "manifest", **t.match.to_dict()}))
    verifier.message(t.match)
    for index in public:
        if index < cut_at and not isinstance(t.deliveries[index].item, tuple):
            deliver(t, index, verifier, None, contribute=False)
    for message in history(t, None, cut):
        verifier.message(message)
    verifier.entered()
    current = verifier.current
    assert current is not None
    held = sorted(current.ledger.hand(SEAT))
    hand = [t.host.card_at(position) for position in held]
    assert hand
    verifier.sit(SEAT, hand_of(hand) if callable(hand_of) else hand, current.round_no)
    for index in received(t, SEAT):
        if index >= cut_at:
            deliver(t, index, verifier, SEAT, contribute=False)
    return verifier


@pytest.mark.parametrize("seed", range(1, 6))
def test_an_honest_round_taken_over_in_its_middle_checks_out(seed: int) -> None:
    t = play_round(seed, missing_seeds=(False, False))
    verifier = enter_as_spectator_then_sit(t)
    assert verifier.violations() == []
    [rnd] = verifier.rounds
    assert rnd.status == "audited"
    assert rnd.private_mine and rnd.private_mine == rnd.public_mine  # its draws after, checked


def test_a_hand_other_than_the_stand_ins_is_caught_at_the_audit() -> None:
    t = play_round(1, missing_seeds=(False, False))
    manifest = t.manifest

    def swapped(hand: list[int]) -> list[int]:
        other = next(c for c in range(len(manifest)) if c not in hand)
        return [other, *hand[1:]]

    verifier = enter_as_spectator_then_sit(t, swapped)
    kinds = [v.kind for v in verifier.violations()]
    assert kinds == [ViolationKind.CARD_MISMATCH]
    assert "when you took seat 1" in verifier.violations()[0].detail


def test_a_resumed_seat_is_not_sat_again() -> None:
    """`sit` only turns a spectator's verifier into a seat's: a seat's own stays as it is."""
    t = play_round(2, missing_seeds=(False, False))
    verifier = TrustVerifier(t.match, 2)
    verifier.sit(SEAT, [], 1)
    assert verifier.seat == 2 and verifier.cards.seat == 2
