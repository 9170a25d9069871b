"""Hands swapped, passed and returned under the pile are checked like any draw (issue 10).

Rounds written move by move (`trust_sim.ScriptedRound`, an honest host's proofs): every
receiver opens each card it gets against its position's commitment, the public record follows
each position from seat to seat and under the pile, and the audit finds every card in one place.
"""

from __future__ import annotations

from dataclasses import replace

from trust_sim import ScriptedRound, Transcript, replay

from protocol.trust.messages import EventProof
from protocol.trust.results import Violation, ViolationKind
from unonet import events as ev
from unonet.cards import Kind


def kinds(violations: list[Violation]) -> set[ViolationKind]:
    return {v.kind for v in violations}


def found_in(t: Transcript, seat: int | None) -> list[Violation]:
    """What `seat`'s verifier finds, less the referee's ILLEGAL: a scripted round moves cards
    by hand without following the rules (its plays are not legal ones), and the movements of
    the cards are what these tests check."""
    return [v for v in replay(t, seat).violations() if v.kind is not ViolationKind.ILLEGAL]


def everyone_verifies(t: Transcript) -> None:
    for seat in [None, *range(t.seats)]:
        assert found_in(t, seat) == [], seat


def house_round() -> ScriptedRound:
    """Four seats: a 7 swap, a 0 pass, a stacked Wild Draw Four challenged, a multiple, a
    jump-in, a knock-out whose cards come back from under the pile as buzzer and stack
    penalties once the pile above them is drawn."""
    r = ScriptedRound(seed=1, seats=4)
    r.deal()
    r.play(1)
    r.emit(ev.DecisionPending(1, "choose_target"))
    r.move([(1, 3), (3, 1)], "seven")
    r.play(2)
    r.move([(0, 1), (1, 2), (2, 3), (3, 0)], "zero")
    r.play(3, r.holding(3, Kind.WILD_DRAW_FOUR))
    r.emit(ev.DecisionPending(0, "stack", 4))
    r.play(0, r.holding(0, Kind.WILD_DRAW_FOUR))
    r.emit(ev.DrawStacked(0, 8), ev.DecisionPending(1, "challenge", 8))
    r.challenge(1, 0)
    r.draw(1, 8, "stack")
    r.play(2)  # a multiple: two cards of one play, in a row
    r.play(2)
    r.play(3, jump_in=True)  # out of turn
    r.knock_out(1)
    r.draw(0, r.left_on_top)  # everything above the returned cards
    r.emit(ev.BuzzerOpened(2, (0, 2, 3)), ev.Buzzed(0, 1), ev.Buzzed(2, 2))
    r.emit(ev.BuzzerClosed((3,), 2))
    r.draw(3, 2, "penalty_buzzer")
    r.draw(2, 2, "stack")
    r.end(winner=2)
    return r


def test_an_honest_round_of_swaps_passes_stacks_and_knock_outs_verifies_for_everyone() -> None:
    r = house_round()
    returned = [e for _, e, _ in r.t.find(ev.CardsReturned)]
    redrawn = {p for _, e, _ in r.t.find(ev.CardsDrawn) if isinstance(e, ev.CardsDrawn)
               for p in e.positions if e.reason in ("penalty_buzzer", "stack")}
    assert returned and isinstance(returned[0], ev.CardsReturned)
    assert set(returned[0].positions[:4]) <= redrawn  # the test draws returned cards again
    everyone_verifies(r.t)


def moved_to(t: Transcript, seat: int, reason: str) -> tuple[int, ev.CardsReceived]:
    """The CardsReceived that gives `seat` a hand after the HandsMoved of `reason`."""
    [(move_at, _, _)] = [(i, e, p) for i, e, p in t.find(ev.HandsMoved)
                         if isinstance(e, ev.HandsMoved) and e.reason == reason]
    for index, event, _ in t.find(ev.CardsReceived):
        if index > move_at and isinstance(event, ev.CardsReceived) and event.seat == seat:
            return index, event
    raise AssertionError("no hand received")


def test_the_receiver_of_a_swapped_hand_catches_a_card_other_than_the_committed_one() -> None:
    r = house_round()
    index, received = moved_to(r.t, 3, "seven")
    forged = (received.cards[0] + 1) % len(r.t.manifest)
    r.t.set_event(index, replace(received, cards=(forged, *received.cards[1:])))
    found = found_in(r.t, 3)
    assert found[0].kind is ViolationKind.CARD_MISMATCH
    position = received.positions[0]
    assert f"({position[0]}, {position[1]})" in found[0].detail
    assert found_in(r.t, 0) == []  # only its receiver was shown the card


def test_a_passed_hand_given_privately_from_other_positions_is_caught_at_the_audit() -> None:
    r = house_round()
    index, received = moved_to(r.t, 2, "zero")
    elsewhere = (0, len(r.t.manifest) - 1)
    positions = (elsewhere, *received.positions[1:])
    r.t.set_event(
        index,
        replace(received, positions=positions, cards=(r.card(elsewhere), *received.cards[1:])),
        EventProof(nonces=r.host.nonces(positions)),
    )
    assert ViolationKind.POSITION_MISMATCH in kinds(found_in(r.t, 2))


def test_a_returned_position_drawn_again_with_a_wrong_id_is_caught_by_its_drawer() -> None:
    r = house_round()
    [(_, returned, _)] = r.t.find(ev.CardsReturned)
    assert isinstance(returned, ev.CardsReturned)
    for index, event, _ in r.t.find(ev.CardsReceived):
        if isinstance(event, ev.CardsReceived) and returned.positions[0] in event.positions:
            last = index  # its receipt after the knock-out (the first was the deal's)
    event = r.t.deliveries[last].item[0]  # type: ignore[index]
    assert isinstance(event, ev.CardsReceived) and event.seat == 3
    at = event.positions.index(returned.positions[0])
    cards = list(event.cards)
    cards[at] = (cards[at] + 1) % len(r.t.manifest)
    r.t.set_event(last, replace(event, cards=tuple(cards)))
    found = found_in(r.t, 3)
    assert found and found[0].kind is ViolationKind.CARD_MISMATCH


def test_a_hand_moved_from_positions_its_giver_does_not_hold_is_caught_by_everyone() -> None:
    r = house_round()
    [(index, moved, _)] = [(i, e, p) for i, e, p in r.t.find(ev.HandsMoved)
                           if isinstance(e, ev.HandsMoved) and e.reason == "seven"]
    assert isinstance(moved, ev.HandsMoved)
    (giver, receiver, positions), back = moved.moves
    stranger = r.t.find(ev.TopCardTurned)[0][1]
    assert isinstance(stranger, ev.TopCardTurned)  # the discard: held by nobody
    forged = ((giver, receiver, (stranger.position, *positions[1:])), back)
    r.t.set_event(index, replace(moved, moves=forged))
    for seat in (None, 0, 2):
        found = found_in(r.t, seat)
        assert found[0].kind is ViolationKind.NOT_HELD, seat
        assert f"seat {giver} passed position" in found[0].detail
        # The audit then finds a card in two places and one nowhere.
        assert ViolationKind.CARD_COUNT in kinds(found)


def test_a_returned_card_dealt_before_the_pile_above_it_is_caught_by_everyone() -> None:
    r = ScriptedRound(seed=2, seats=3)
    r.deal()
    returned = r.knock_out(2)
    r.under.insert(0, r.under.pop())  # a dishonest host picks which returned card comes next
    r.next_index, top = len(r.t.manifest), r.next_index  # and skips the pile above them
    r.draw(0, 1, "penalty_buzzer")
    found = found_in(r.t, None)
    assert found[0].kind is ViolationKind.DRAW_ORDER
    assert f"returned position ({returned[-1][0]}, {returned[-1][1]})" in found[0].detail
    assert f"position (0, {top}) was still on top of it" in found[0].detail


def test_returned_cards_come_back_in_the_order_they_went_under() -> None:
    r = ScriptedRound(seed=2, seats=3)
    r.deal()
    r.knock_out(2)
    r.draw(0, r.left_on_top)
    r.under.insert(0, r.under.pop())  # the last returned card drawn first
    r.draw(1, 1, "stack")
    found = found_in(r.t, 1)
    assert found[0].kind is ViolationKind.DRAW_ORDER
    assert "which went under the draw pile first" in found[0].detail


def test_the_host_opens_face_down_cards_only_where_their_receiver_gets_them() -> None:
    r = house_round()
    for _, event, _ in r.t.events():
        proof = r.host.event_proof(event)
        if isinstance(event, ev.HandsMoved | ev.CardsReturned | ev.CardsDrawn | ev.KnockedOut):
            assert proof == EventProof(), event
        elif isinstance(event, ev.CardsReceived):
            assert proof.nonces == tuple(r.host.proof(p).nonce for p in event.positions)
            assert set(proof.to_dict()) == {"nonces"}
