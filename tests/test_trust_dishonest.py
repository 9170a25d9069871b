"""A dishonest host is caught, each time by the player concerned (and often by everyone)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from trust_sim import Delivery, Transcript, audit_of, play_round, replay

from protocol.trust import (
    DeckCommits,
    EventProof,
    HostCommitments,
    SeedCommits,
    Violation,
    ViolationKind,
)
from unonet import events as ev
from unonet.cards import Color


def kinds(violations: list[Violation]) -> set[ViolationKind]:
    return {v.kind for v in violations}


def first_received(t: Transcript, seat: int) -> tuple[int, ev.CardsReceived, EventProof]:
    for index, event, proof in t.find(ev.CardsReceived):
        if isinstance(event, ev.CardsReceived) and event.seat == seat:
            return index, event, proof
    raise AssertionError("no cards received")


def challenge(t: Transcript, min_cards: int = 2) -> tuple[int, ev.ChallengeReveal, EventProof]:
    for index, event, proof in t.find(ev.ChallengeReveal):
        if isinstance(event, ev.ChallengeReveal) and len(event.cards) >= min_cards:
            return index, event, proof
    raise AssertionError("no challenge in this round")


def test_a_swapped_card_is_caught_by_its_owner_at_once() -> None:
    t = play_round(6)
    index, event, _ = first_received(t, 1)
    other = (event.cards[0] + 1) % len(t.manifest)
    t.set_event(index, replace(event, cards=(other, *event.cards[1:])))
    verifier = replay(t, 1)
    [first, *_] = verifier.violations()
    assert first.kind is ViolationKind.CARD_MISMATCH
    pos = event.positions[0]
    assert f"card at position ({pos[0]}, {pos[1]}) does not match the host's commitment" in str(
        first
    )


def test_a_card_given_without_its_nonce_is_a_missing_proof() -> None:
    t = play_round(6)
    index, event, _ = first_received(t, 1)
    t.set_event(index, event, EventProof())
    assert ViolationKind.MISSING_PROOF in kinds(replay(t, 1).violations())


def test_a_card_privately_given_from_another_position_is_caught() -> None:
    """The host names one position in public and hands over another (a card it chose)."""
    t = play_round(6)
    index, event, _ = first_received(t, 1)
    chosen = (0, len(t.manifest) - 1)  # the bottom of the deck, which nobody drew yet
    card = t.host.card_at(chosen)
    t.set_event(
        index,
        replace(event, positions=(chosen, *event.positions[1:]), cards=(card, *event.cards[1:])),
        EventProof(nonces=t.host.nonces((chosen, *event.positions[1:]))),
    )
    assert ViolationKind.POSITION_MISMATCH in kinds(replay(t, 1).violations())


def test_a_lie_about_the_verdict_is_caught_by_the_challenger_and_at_the_audit() -> None:
    t = play_round(2)
    [(index, verdict, _), *_] = t.find(ev.Challenged)
    assert isinstance(verdict, ev.Challenged)
    t.set_event(index, replace(verdict, guilty=not verdict.guilty))
    challenger = replay(t, verdict.challenger)
    # and the referee, re-playing the round, finds the penalty that followed is not the rules'
    expected = {ViolationKind.CHALLENGE_VERDICT, ViolationKind.ILLEGAL}
    assert kinds(challenger.violations()) == expected
    assert "the verdict should be" in str(challenger.violations()[0])
    for seat in [None, *(s for s in range(t.seats) if s != verdict.challenger)]:
        assert kinds(replay(t, seat).violations()) == expected


def test_a_wrong_card_in_the_revealed_hand_is_caught() -> None:
    t = play_round(2)
    index, reveal, _ = challenge(t)
    fake = next(
        c
        for c in range(len(t.manifest))
        if t.manifest.face(c).color == reveal.color_before and c not in reveal.cards
    )
    t.set_event(index, replace(reveal, cards=(fake, *reveal.cards[1:])))
    found = replay(t, reveal.challenger).violations()
    assert found and found[0].kind is ViolationKind.CARD_MISMATCH


def test_a_revealed_hand_missing_a_position_is_caught() -> None:
    t = play_round(2)
    index, reveal, proof = challenge(t)
    t.set_event(
        index,
        replace(reveal, cards=reveal.cards[:-1], positions=reveal.positions[:-1]),
        EventProof(nonces=proof.nonces[:-1]),
    )
    found = replay(t, reveal.challenger).violations()
    assert ViolationKind.CHALLENGE_HAND in kinds(found)
    assert any("leaves out position" in v.detail for v in found)


def test_a_revealed_hand_with_an_extra_position_is_caught() -> None:
    t = play_round(2)
    index, reveal, proof = challenge(t)
    extra = (0, len(t.manifest) - 1)
    t.set_event(
        index,
        replace(
            reveal,
            cards=(*reveal.cards, t.host.card_at(extra)),
            positions=(*reveal.positions, extra),
        ),
        EventProof(nonces=(*proof.nonces, t.host.nonce(extra))),
    )
    found = replay(t, reveal.challenger).violations()
    assert any("includes position" in v.detail for v in found)


def test_a_revealed_colour_other_than_the_one_in_play_is_caught() -> None:
    t = play_round(2)
    index, reveal, _ = challenge(t)
    other = next(c for c in (Color.RED, Color.BLUE) if c != reveal.color_before)
    t.set_event(index, replace(reveal, color_before=other))
    assert ViolationKind.CHALLENGE_COLOR in kinds(replay(t, reveal.challenger).violations())


def test_a_wrong_hand_digest_is_caught_by_everyone() -> None:
    t = play_round(2)
    for index, event, proof in t.find(ev.CardPlayed):
        if proof.hand_digest is not None:
            t.set_event(index, event, replace(proof, hand_digest=bytes(32)))
            break
    else:
        pytest.fail("no digest in this round")
    assert ViolationKind.HAND_DIGEST in kinds(replay(t, None).violations())


def test_a_second_round_prepare_is_flagged_as_a_re_deal() -> None:
    t = play_round(1)
    host = t.host
    redeal = HostCommitments(host.game_id, host.round_no, host.host_seat)
    deck_index = t.messages(DeckCommits)[0][0]
    t.deliveries.insert(deck_index + 1, Delivery(None, redeal.round_prepare()))
    for seat in [None, *range(t.seats)]:
        found = replay(t, seat).violations()
        assert found[0].kind is ViolationKind.REDEAL
        assert "re-dealt" in found[0].detail


def test_an_audit_host_seed_that_does_not_open_its_commitment_is_caught() -> None:
    t = play_round(1)
    index, audit = audit_of(t)
    t.deliveries[index] = Delivery(None, replace(audit, host_seed=bytes(32)))
    for seat in [None, *range(t.seats)]:
        assert kinds(replay(t, seat).violations()) == {ViolationKind.SEED_MISMATCH}


def test_an_audit_player_seed_that_does_not_open_its_commitment_is_caught() -> None:
    t = play_round(1)
    index, audit = audit_of(t)
    seat, _ = audit.seeds[0]
    forged = ((seat, bytes(32)), *audit.seeds[1:])
    t.deliveries[index] = Delivery(None, replace(audit, seeds=forged))
    found = replay(t, seat).violations()
    assert kinds(found) >= {ViolationKind.SEED_MISMATCH}
    assert any("your revealed seed" in v.detail for v in found)
    assert ViolationKind.SEED_MISMATCH in kinds(replay(t, None).violations())


def test_an_audit_that_drops_a_revealed_seed_is_caught_by_everyone() -> None:
    """The seeds were published before the deal: an audit that gives others is caught by all."""
    t = play_round(1)
    index, audit = audit_of(t)
    seat, _ = audit.seeds[0]
    dropped = replace(audit, seeds=audit.seeds[1:], absent=(*audit.absent, seat))
    t.deliveries[index] = Delivery(None, dropped)
    for viewer in [None, *range(t.seats)]:
        assert ViolationKind.SEED_REVEALS in kinds(replay(t, viewer).violations())


def test_a_deck_order_that_is_not_the_derived_one_is_caught_at_the_audit() -> None:
    t = play_round(1, tamper_order=True)
    for seat in [None, *range(t.seats)]:
        verifier = replay(t, seat)
        found = verifier.violations()
        assert ViolationKind.DECK_ORDER in kinds(found), seat
        assert "not those of the deck the seeds produce" in str(found[0])


def test_a_deck_commitment_that_does_not_hash_its_positions_is_caught() -> None:
    t = play_round(1)
    index, msg = t.messages(DeckCommits)[0]
    assert isinstance(msg, DeckCommits)
    t.deliveries[index] = Delivery(None, replace(msg, deck_commit=bytes(32)))
    assert ViolationKind.DECK_COMMITMENT in kinds(replay(t, None).violations())


def test_seed_commits_without_this_players_commitment_are_flagged() -> None:
    t = play_round(1)
    index, msg = t.messages(SeedCommits)[0]
    assert isinstance(msg, SeedCommits)
    seat, _ = msg.commits[0]
    t.deliveries[index] = Delivery(None, replace(msg, commits=msg.commits[1:]))
    found = replay(t, seat).violations()
    assert found[0].kind is ViolationKind.SEED_COMMITS
    assert "without your contribution" in found[0].detail
