"""A dishonest host is caught, each time by the player concerned (and often by everyone)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from trust_sim import (
    Delivery,
    Transcript,
    audit_of,
    history,
    play_match,
    play_round,
    received,
    replay,
    replay_match,
    replay_resumed,
    reveals_of,
)

from protocol.trust.host import HostCommitments
from protocol.trust.messages import DeckCommits, EventProof, SeedCommits
from protocol.trust.results import Verified, Violation, ViolationKind
from protocol.trust.signing import Signer
from protocol.trust.verifier import TrustVerifier
from unonet import events as ev
from unonet.cards import Color
from unonet.rules import RuleSet


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


# -- issue 11: the match, its rounds and their audits ---------------------------------------------


def test_a_stacked_deck_whose_audit_is_withheld_is_flagged_when_the_match_is_over() -> None:
    """The last round of a match, stacked, and never audited: nothing could check the deck,
    and that itself is the violation."""
    t = play_round(1, tamper_order=True)
    index, _ = audit_of(t)
    del t.deliveries[index]
    for seat in [None, *range(t.seats)]:
        verifier = replay(t, seat)
        assert verifier.violations() == []  # the stacked deck is invisible without the seeds
        assert verifier.rounds[0].status == "checking"
        assert kinds(verifier.finish()) == {ViolationKind.MISSING_AUDIT}
        assert [r.status for r in verifier.rounds] == ["violated"]


def test_a_new_game_id_for_every_unaudited_round_is_caught() -> None:
    """Each round its own game_id, round number 1 and no audit: the match's id is fixed by its
    manifest, so the second round is not part of it, and the first one owes its audit."""
    first, second = play_round(1), play_round(2)
    for t in (first, second):
        del t.deliveries[audit_of(t)[0]]
    for seat in [None, *range(first.seats)]:
        verifier = replay(second, seat, replay(first, seat))
        found = kinds(verifier.violations())
        assert {ViolationKind.MATCH_ID, ViolationKind.MISSING_AUDIT} <= found, seat
        assert ViolationKind.MATCH_ID in {v.kind for v in verifier.rounds[1].violations}


def test_a_round_abandoned_after_its_deal_is_caught_even_when_audited_honestly() -> None:
    """The host did not like the deal: it audits the round as abandoned and deals again under
    the next number. The audit holds; the abandonment of a dealt round does not."""
    t = play_round(1)
    t.abandon(after=len([e for _, e, _ in t.events() if e.audience is None]) // 10)
    host = t.host
    next_round = HostCommitments(host.game_id, 2, host.host_seat).round_prepare()
    for seat in [None, *range(t.seats)]:
        verifier = replay(t, seat)
        verifier.message(next_round)
        assert kinds(verifier.violations()) == {ViolationKind.ABANDONED}, seat
        assert verifier.abandoned_rounds == 0  # a dealt round is not just counted


def test_a_round_abandoned_in_the_middle_of_play_without_audit_is_missing_and_abandoned() -> None:
    t = play_round(2)
    t.abandon(after=len(t.events()) // 2)
    del t.deliveries[audit_of(t)[0]]
    next_round = HostCommitments(t.host.game_id, 2, t.host.host_seat).round_prepare()
    for seat in [None, *range(t.seats)]:
        verifier = replay(t, seat)
        verifier.message(next_round)
        assert kinds(verifier.violations()) == {
            ViolationKind.MISSING_AUDIT, ViolationKind.ABANDONED,
        }


def test_a_round_abandoned_before_its_deal_is_counted_for_everyone_not_flagged() -> None:
    rounds = play_match(RuleSet(), 3, 5, max_rounds=3, undealt={1})
    assert not rounds[0].events() and rounds[1].events()
    for seat in [None, *range(3)]:
        verifier = replay_match(rounds, seat)
        assert verifier.violations() == [], seat
        assert verifier.abandoned_rounds == 1
        assert [r.status for r in verifier.rounds] == ["audited"] * 3


def test_a_skipped_round_number_is_caught() -> None:
    t = play_round(1)
    host = t.host
    skipped = HostCommitments(host.game_id, 3, host.host_seat).round_prepare()
    verifier = replay(t, 1)
    found = verifier.message(skipped)
    assert isinstance(found, Violation) and found.kind is ViolationKind.ROUND_ORDER
    assert "round 3 was announced after round 1" in found.detail


def test_a_different_manifest_in_mid_match_is_caught_and_the_same_one_is_no_news() -> None:
    t = play_round(1)
    verifier = replay(t, 2)
    assert isinstance(verifier.message(t.match), Verified)
    other = replace(t.match, game_id=bytes(16))
    found = verifier.message(other)
    assert isinstance(found, Violation) and found.kind is ViolationKind.MATCH_ID
    assert "game id" in found.detail


def test_a_cherry_picked_deal_is_caught_by_everyone_at_the_top_card() -> None:
    """The host gives seat 1 a card dealt to seat 2 and seat 2 seat 1's: every card still
    opens its commitment, but the deal rule says whose each position is."""
    t = play_round(4)
    deal = {e.seat: (i, e) for i, e, _ in t.find(ev.CardsDrawn)
            if isinstance(e, ev.CardsDrawn) and e.reason == "deal"}
    (i1, d1), (i2, d2) = deal[1], deal[2]
    p1, p2 = d1.positions[0], d2.positions[0]
    t.set_event(i1, replace(d1, positions=(p2, *d1.positions[1:])))
    t.set_event(i2, replace(d2, positions=(p1, *d2.positions[1:])))
    for index, event, _ in t.find(ev.CardsReceived):
        assert isinstance(event, ev.CardsReceived)
        if event.seat in (1, 2) and event.positions[0] in (p1, p2):
            mine = p2 if event.seat == 1 else p1
            positions = (mine, *event.positions[1:])
            cards = (t.host.card_at(mine), *event.cards[1:])
            t.set_event(index, replace(event, positions=positions, cards=cards),
                        EventProof(nonces=t.host.nonces(positions)))
    for seat in [None, *range(t.seats)]:
        found = replay(t, seat).violations()
        assert found[0].kind is ViolationKind.DEAL_ORDER, (seat, found[:2])
        assert "the host chose who gets which card" in found[0].detail


def test_a_dropped_seed_is_seen_by_every_seat_and_flagged_by_its_owner() -> None:
    t = play_round(6)  # 6 % 7 == 6: the last committed player's reveal is not used
    [owner] = t.host.absent
    t.dropped = {owner}  # ... although it was sent: the host threw it away
    for seat in [None, *range(t.seats)]:
        verifier = replay(t, seat)
        assert verifier.rounds[0].absent_seeds == (owner,)
        expected = {ViolationKind.SEED_REVEALS} if seat == owner else set()
        assert kinds(verifier.violations()) == expected, seat
    found = replay(t, owner).violations()
    assert "you revealed it" in found[0].detail


def test_published_seeds_that_do_not_open_their_commitments_are_caught_by_everyone() -> None:
    t = play_round(1)
    index, reveals = reveals_of(t)
    seat, _ = reveals.seeds[0]
    t.deliveries[index] = Delivery(
        None, replace(reveals, seeds=((seat, bytes(32)), *reveals.seeds[1:]))
    )
    for viewer in [None, *range(t.seats)]:
        assert ViolationKind.SEED_REVEALS in kinds(replay(t, viewer).violations())


def test_a_deck_committed_before_the_seeds_were_published_is_caught() -> None:
    t = play_round(1)
    index, _ = reveals_of(t)
    del t.deliveries[index]
    found = replay(t, None).violations()
    assert found[0].kind is ViolationKind.SEED_REVEALS
    assert "before the seeds that made it were published" in found[0].detail


# -- signatures and the events digest ---------------------------------------------------------


def test_a_trust_message_with_a_bad_missing_or_foreign_signature_is_caught() -> None:
    t = play_round(1)
    [(index, _)] = t.messages(DeckCommits)
    honest = t.wire(index)
    forgeries = [
        {**honest, "sig": bytes(64)},
        {k: v for k, v in honest.items() if k != "sig"},
        Signer.generate().sign(honest),
        {**honest, "deck_commit": bytes(32)},  # signed, then changed
    ]
    for forged in forgeries:
        t.deliveries[index] = replace(t.deliveries[index], wire=forged)
        verifier = replay(t, 2)
        assert ViolationKind.SIGNATURE in kinds(verifier.violations())
        assert "no valid signature" in str(verifier.violations()[0])
        assert verifier.rounds[0].status == "violated"


def test_an_audit_with_a_wrong_events_digest_is_caught_by_everyone() -> None:
    t = play_round(1)
    index, audit = audit_of(t)
    t.deliveries[index] = Delivery(None, replace(audit, events_digest=bytes(32)))
    for seat in [None, *range(t.seats)]:
        assert kinds(replay(t, seat).violations()) == {ViolationKind.EVENTS_DIGEST}


def test_a_public_event_told_differently_to_one_seat_breaks_its_events_digest() -> None:
    """Equivocation: seat 1 is shown another turn than the others; the audit's digest (of what
    the others saw) is not that of seat 1's events."""
    t = play_round(3)
    index, turn, proof = next(
        (i, e, p) for i, e, p in t.find(ev.TurnStarted) if isinstance(e, ev.TurnStarted)
    )
    assert isinstance(turn, ev.TurnStarted)
    others = frozenset(s for s in range(t.seats) if s != 1)
    t.deliveries[index] = Delivery(others, (turn, proof))
    lie = replace(turn, seat=(turn.seat + 1) % t.seats)
    t.deliveries.insert(index + 1, Delivery(frozenset({1}), (lie, proof)))
    assert ViolationKind.EVENTS_DIGEST in kinds(replay(t, 1).violations())
    for seat in others:
        assert replay(t, seat).violations() == []


# -- blinding by reconnect --------------------------------------------------------------------


def received_events(t: Transcript, seat: int) -> list[tuple[int, ev.Event]]:
    """(delivery index, event) of every event `seat` receives, in order."""
    return [(i, item[0]) for i in received(t, seat)
            if isinstance(item := t.deliveries[i].item, tuple)]


def swap_card_received(t: Transcript, seat: int, after: int, before: int | None = None) -> int:
    """Forge the first card given to `seat` among its events [after, before); its number."""
    events = received_events(t, seat)
    for number, (index, event) in enumerate(events[after:before], start=after):
        if isinstance(event, ev.CardsReceived) and event.seat == seat:
            forged = (event.cards[0] + 1) % len(t.manifest)
            t.set_event(index, replace(event, cards=(forged, *event.cards[1:])))
            return number
    raise AssertionError("no card given to this seat there")


@pytest.mark.parametrize("kept", [False, True])
def test_a_resumed_client_still_catches_a_card_swapped_after_it_came_back(kept: bool) -> None:
    t = play_round(6)
    cut = 30
    swap_card_received(t, 1, after=cut)
    verifier = TrustVerifier(t.match, 1) if kept else None
    found = replay_resumed(t, 1, cut, verifier, dropped=cut - 10).violations()
    assert found and found[0].kind is ViolationKind.CARD_MISMATCH


def test_a_fresh_client_checks_the_cards_in_the_round_history() -> None:
    t = play_round(6)
    number = swap_card_received(t, 1, after=0)
    found = replay_resumed(t, 1, number + 5, chunk=7).violations()
    assert found and found[0].kind is ViolationKind.CARD_MISMATCH


def test_a_rewritten_history_is_caught_by_a_client_that_saw_the_events() -> None:
    t = play_round(6)
    cut = 40
    forged = history(t, 1, cut)
    events = [dict(e) for e in forged[0].events]
    index = next(i for i, e in enumerate(events) if e["type"] == "card_played")
    events[index] = {**events[index], "uno": not events[index]["uno"]}
    rewritten = [replace(forged[0], events=tuple(events)), *forged[1:]]
    verifier = replay_resumed(t, 1, cut, TrustVerifier(t.match, 1), dropped=cut - 5,
                              histories=rewritten)
    found = verifier.violations()
    assert found and found[0].kind is ViolationKind.HISTORY
    assert f"rewrites event {index}" in found[0].detail


def test_a_history_that_leaves_out_events_the_client_had_is_caught() -> None:
    t = play_round(6)
    cut = 40
    short = [replace(h, events=h.events[:20]) for h in history(t, 1, cut)]
    verifier = replay_resumed(t, 1, cut, TrustVerifier(t.match, 1), dropped=30, histories=short)
    assert ViolationKind.HISTORY in kinds(verifier.violations())


@pytest.mark.parametrize("seat", [None, 0, 1, 2])
def test_honest_resumes_at_any_event_never_flag(seat: int | None) -> None:
    t = play_round(2)
    count = len(received_events(t, 0)) if seat is None else len(received_events(t, seat))
    for cut in (0, 1, count // 3, count - 1, count):
        for chunk in (5, 256):
            assert replay_resumed(t, seat, cut, chunk=chunk).violations() == [], (cut, chunk)
            kept = TrustVerifier(t.match, seat)
            found = replay_resumed(t, seat, cut, kept, dropped=max(0, cut - 7), chunk=chunk)
            assert found.violations() == [], (cut, chunk)
            assert [r.status for r in found.rounds] == ["audited"]
