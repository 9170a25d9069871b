"""UNO Show 'Em No Mercy under the trust scheme (SPEC.md 11.13): every round verifiable.

Honest rounds and whole matches, at 2 to 6 seats, pass every check for every seat and a
spectator: the ledger follows a Discard All's other cards onto the discard pile, a Color
Roulette's turned cards, several cards turned before the first play, knock-outs whose hands go
under the draw pile and are drawn again, and reshuffles in the middle of paying a stack; the
audit re-derives the 168-card deck and the referee re-plays each round under No Mercy's rules.
Forgeries are caught: a Discard All that leaves a card of its colour in hand (the referee), a
roulette card that is not the committed one (opened against its commitment at once), a
knock-out below the Mercy limit (at once) or one not done at it (the referee), a wrong
escalation (the referee), a doctored deck (at once).
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from trust_no_mercy_sim import NO_MERCY, Features, features, play_no_mercy_match
from trust_sim import (
    Delivery,
    ScriptedRound,
    Transcript,
    deliver,
    play_round,
    proof_for,
    received,
    replay,
    replay_match,
    replay_resumed,
)

from protocol.trust.messages import EventProof
from protocol.trust.results import Violation, ViolationKind
from protocol.trust.verifier import TrustVerifier
from unonet import events as ev
from unonet.cards import Kind
from unonet.events import Position
from unonet.no_mercy_deck import no_mercy_manifest
from unonet.rules import RuleSet

DEFLECT = RuleSet().with_options({"variant": "no_mercy", "deflect": True})


def everyone(t: Transcript) -> tuple[int | None, ...]:
    return (*range(t.seats), None)


@pytest.fixture(scope="module")
def honest() -> list[Transcript]:
    """First rounds of honest matches at 2, 4 and 6 seats."""
    return [play_no_mercy_match(seed, seats)[0] for seats in (2, 4, 6) for seed in range(3)]


def round_with(wanted: str, seats: int = 6, stacker: bool = False, tries: int = 40) -> Transcript:
    """The first honest first round, by seed, whose Features has `wanted` non-zero."""
    for seed in range(tries):
        t = play_no_mercy_match(seed, seats, stacker=stacker)[0]
        if getattr(features(t), wanted):
            return t
    raise AssertionError(f"no No Mercy round in {tries} seeds has {wanted}")


def kinds(found: list[Violation]) -> set[ViolationKind]:
    return {v.kind for v in found}


def caught_at(t: Transcript, seat: int | None) -> tuple[int | None, TrustVerifier]:
    """The delivery at which `seat`'s verifier first finds a violation (None: never)."""
    verifier = TrustVerifier(t.match, seat)
    first = None
    for index in received(t, seat):
        deliver(t, index, verifier, seat)
        if first is None and verifier.violations():
            first = index
    return first, verifier


def forge(t: Transcript, index: int, event: ev.Event, proof: EventProof | None = None) -> None:
    """The host sends `event` in place of delivery `index` (with an honest host's proof for it
    unless given), and digests what it sent."""
    t.set_event(index, event, proof if proof is not None else proof_for(t.host, event))


# -- honest rounds ------------------------------------------------------------------------------


def test_honest_no_mercy_rounds_pass_every_check_for_every_seat_and_a_spectator(
    honest: list[Transcript],
) -> None:
    for t in honest:
        for seat in everyone(t):
            verifier = replay(t, seat)
            assert verifier.violations() == [], (t.seats, seat, verifier.violations()[:2])
            assert [r.status for r in verifier.rounds] == ["audited"]


def test_the_honest_rounds_have_every_no_mercy_movement(honest: list[Transcript]) -> None:
    """What the test above covers: cards turned before the first play, Discard Alls, roulettes,
    knock-outs, returned cards drawn again and big stacks."""
    seen = [features(t) for t in honest]

    def total(name: str) -> int:
        return sum(getattr(f, name) for f in seen)

    assert any(f.turned >= 2 for f in seen)
    for name in ("discarded", "roulettes", "knocked", "returned_drawn"):
        assert total(name) > 0, name
    assert max(f.longest_stack for f in seen) >= 10


def test_a_reshuffle_in_the_middle_of_paying_a_stack_checks_out() -> None:
    t = round_with("stack_reshuffles", seats=6, stacker=True)
    assert features(t).knocked > 0
    for seat in everyone(t):
        assert replay(t, seat).violations() == []


def test_cancelled_draws_under_deflect_check_out() -> None:
    t = play_no_mercy_match(1, 4, DEFLECT, stacker=True)[0]
    assert features(t).cancelled > 0
    for seat in everyone(t):
        assert replay(t, seat).violations() == []


@pytest.mark.parametrize(("seats", "seed"), [(2, 0), (2, 5), (3, 3)])
def test_whole_no_mercy_matches_pass_for_every_seat_and_a_spectator(seats: int, seed: int) -> None:
    """Matches played to their end (several rounds: the referee's totals carry over)."""
    rounds = play_no_mercy_match(seed, seats, max_rounds=None, max_actions=20000)
    assert len(rounds) >= 2
    assert any(isinstance(e, ev.MatchEnded) for _, e, _ in rounds[-1].events())
    for seat in everyone(rounds[0]):
        verifier = replay_match(rounds, seat)
        assert verifier.violations() == [] and verifier.finish() == []
        assert {r.status for r in verifier.rounds} == {"audited"}


def test_the_honest_manifest_is_the_no_mercy_deck(honest: list[Transcript]) -> None:
    assert honest[0].match.manifest == no_mercy_manifest()
    assert len(honest[0].match.manifest) == 168


# -- forgeries ----------------------------------------------------------------------------------


def test_a_doctored_no_mercy_deck_is_a_violation_at_once(honest: list[Transcript]) -> None:
    deck = honest[0].match.manifest
    ten = next(c for c in deck if c.faces[0].kind is Kind.WILD_DRAW_TEN)
    cheap = replace(ten, faces=(replace(ten.faces[0], points=5),))
    cards = list(deck.cards)
    cards[ten.id] = cheap
    doctored = replace(honest[0].match, manifest=replace(deck, cards=tuple(cards)))
    for seat in (0, None):
        found = TrustVerifier(doctored, seat).violations()
        assert [v.kind for v in found] == [ViolationKind.DECK]
        assert "not the No Mercy deck" in found[0].detail and f"card {ten.id}" in found[0].detail


def test_a_deck_order_not_derived_from_the_seeds_is_caught_at_the_audit() -> None:
    t = play_round(3, seats=4, rules=NO_MERCY, tamper_order=True)
    for seat in (0, None):
        assert ViolationKind.DECK_ORDER in kinds(replay(t, seat).violations())


def test_a_discard_all_that_leaves_a_card_of_its_colour_in_hand_is_caught_by_the_referee() -> None:
    t = round_with("discarded")
    index, event = next(
        (i, e) for i, e, _ in t.events() if isinstance(e, ev.CardsDiscarded) and len(e.cards) >= 2
    )
    assert isinstance(event, ev.CardsDiscarded)
    kept = ev.CardsDiscarded(event.seat, event.positions[:-1], event.cards[:-1])
    forge(t, index, kept)
    for seat in everyone(t):
        found = replay(t, seat).violations()
        illegal = [v for v in found if v.kind is ViolationKind.ILLEGAL]
        assert illegal and "cards_discarded" in illegal[0].detail, found[:3]


def test_discarded_cards_not_of_the_discard_alls_colour_are_caught_at_once() -> None:
    t = round_with("discarded")
    index, event = next((i, e) for i, e, _ in t.events() if isinstance(e, ev.CardsDiscarded))
    assert isinstance(event, ev.CardsDiscarded)
    color = t.manifest.face(event.cards[0]).color
    other = next(c.id for c in t.manifest if c.faces[0].color not in (None, color))
    lied = ev.CardsDiscarded(event.seat, event.positions, (other, *event.cards[1:]))
    forge(t, index, lied, proof_for(t.host, event))  # the true nonces: the card is a lie
    for seat in everyone(t):
        at, verifier = caught_at(t, seat)
        assert at == index
        assert {ViolationKind.DISCARD_ALL, ViolationKind.CARD_MISMATCH} <= kinds(
            verifier.violations()
        )


def test_a_forged_roulette_card_is_caught_against_its_commitment_at_once() -> None:
    t = round_with("roulettes")
    index, event = next((i, e) for i, e, _ in t.events() if isinstance(e, ev.RouletteTurned))
    assert isinstance(event, ev.RouletteTurned)
    swapped = (event.cards[-1] + 1) % len(t.manifest)
    lied = ev.RouletteTurned(
        event.seat, event.color, event.positions, (*event.cards[:-1], swapped)
    )
    forge(t, index, lied, proof_for(t.host, event))
    for seat in everyone(t):
        at, verifier = caught_at(t, seat)
        assert at == index, seat
        mismatch = [v for v in verifier.violations() if v.kind is ViolationKind.CARD_MISMATCH]
        assert mismatch and "Color Roulette" in mismatch[0].detail


def test_roulette_cards_other_than_those_drawn_for_it_are_caught_at_once() -> None:
    t = round_with("roulettes")
    index, event = next(
        (i, e) for i, e, _ in t.events() if isinstance(e, ev.RouletteTurned) and len(e.cards) >= 2
    )
    assert isinstance(event, ev.RouletteTurned)
    fewer = ev.RouletteTurned(event.seat, event.color, event.positions[1:], event.cards[1:])
    forge(t, index, fewer)
    for seat in everyone(t):
        at, verifier = caught_at(t, seat)
        assert at == index
        assert ViolationKind.ROULETTE in kinds(verifier.violations())


def test_roulette_cards_without_their_nonces_are_a_missing_proof() -> None:
    t = round_with("roulettes")
    index, event = next((i, e) for i, e, _ in t.events() if isinstance(e, ev.RouletteTurned))
    forge(t, index, event, EventProof())
    at, verifier = caught_at(t, None)
    assert at == index
    assert kinds(verifier.violations()) == {ViolationKind.MISSING_PROOF}


def test_a_knock_out_below_the_mercy_limit_is_caught_at_once() -> None:
    """A seat holding 7 cards put out: the public record counts its hand."""
    script = ScriptedRound(seed=1, seats=3, rules=NO_MERCY)
    script.deal()
    script.knock_out(1)
    knocked = next(i for i, e, _ in script.t.events() if isinstance(e, ev.KnockedOut))
    for seat in (0, 1, None):
        at, verifier = caught_at(script.t, seat)
        assert at == knocked
        found = [v for v in verifier.violations() if v.kind is ViolationKind.KNOCK_OUT]
        assert found and "holding 7 cards" in found[0].detail and "at 25" in found[0].detail


def test_a_knock_out_not_done_at_25_is_caught_by_the_referee() -> None:
    """The host leaves a seat in play at 25 cards (its knocked_out and cards_returned dropped,
    the rest of the record as sent): the referee's shadow puts it out there."""
    t = round_with("knocked", seats=4)
    at = next(i for i, e, _ in t.events() if isinstance(e, ev.KnockedOut))
    assert isinstance(t.deliveries[at + 1].item[0], ev.CardsReturned)  # type: ignore[index]
    del t.deliveries[at:at + 2]
    t.redigest()
    for seat in everyone(t):
        found = replay(t, seat).violations()
        illegal = [v for v in found if v.kind is ViolationKind.ILLEGAL]
        assert illegal and "knocked_out" in illegal[0].detail, found[:3]


def _stack_answered_by_four(
    t: Transcript,
) -> tuple[int, ev.DecisionPending, int, Position] | None:
    """A stack decision on a +4 whose seat holds a Draw Two, by the public record and the
    host's deck: (the decision's delivery, the decision, the Draw Two, its position)."""
    verifier = TrustVerifier(t.match, None)
    last: int | None = None
    for index in received(t, None):
        deliver(t, index, verifier, None)
        item = t.deliveries[index].item
        if not isinstance(item, tuple):
            continue
        event = item[0]
        if isinstance(event, ev.CardPlayed):
            last = event.card
        if not (isinstance(event, ev.DecisionPending) and event.kind == "stack"):
            continue
        if last is None or t.manifest.face(last).draw_amount != 4:
            continue
        rnd = verifier.current
        assert rnd is not None
        for position in sorted(rnd.ledger.hand(event.seat)):
            card = t.host.card_at(position)
            if t.manifest.face(card).kind is Kind.DRAW_TWO:
                return index, event, card, position
    return None


def test_a_draw_two_on_a_draw_four_is_a_wrong_escalation_the_referee_refuses() -> None:
    """Escalating stacking answers with at least the last card's value: +2 never on +4."""
    for seed in range(40):
        t = play_no_mercy_match(seed, 4, stacker=True)[0]
        found = _stack_answered_by_four(t)
        if found is not None:
            break
    else:
        raise AssertionError("no +4 stack met a Draw Two in 40 seeds")
    index, decision, card, position = found
    play = ev.CardPlayed(decision.seat, card, position, None, False)
    t.deliveries.insert(index + 1, Delivery(None, (play, proof_for(t.host, play))))
    t.redigest()
    for seat in everyone(t):
        found_ = replay(t, seat).violations()
        illegal = [v for v in found_ if v.kind is ViolationKind.ILLEGAL]
        assert illegal and "rules refuse" in illegal[0].detail, found_[:3]
        assert "Draw Two" in illegal[0].detail


def test_a_wrong_escalating_total_is_caught_by_the_referee() -> None:
    t = round_with("longest_stack", seats=4, stacker=True)
    index, event = next(
        (i, e) for i, e, _ in t.events()
        if isinstance(e, ev.DecisionPending) and e.kind == "stack" and e.amount >= 6
    )
    assert isinstance(event, ev.DecisionPending)
    forge(t, index, ev.DecisionPending(event.seat, "stack", event.amount + 2))
    for seat in everyone(t):
        found = replay(t, seat).violations()
        illegal = [v for v in found if v.kind is ViolationKind.ILLEGAL]
        assert illegal and f"amount={event.amount}" in illegal[0].detail, found[:3]


def test_features_of_a_scripted_round_are_read_from_its_events() -> None:
    """The helper itself: a round with no No Mercy event has none."""
    script = ScriptedRound(seed=2, seats=3, rules=NO_MERCY)
    script.deal()
    script.end(0)
    assert features(script.t) == Features(1, 0, 0, 0, 0, 0, 0, 0, 0)


def test_a_connection_entering_after_a_roulette_checks_the_rest_of_the_round() -> None:
    """A late spectator and a seat that reconnects get the round so far as round_history and
    check it, knock-outs and roulettes included, to its audit."""
    t = round_with("roulettes", seats=4)
    cut = next(
        n for n, (_, e, _) in enumerate(
            (i, e, p) for i, e, p in t.events() if e.audience is None
        )
        if isinstance(e, ev.RouletteTurned)
    ) + 1
    late = replay_resumed(t, None, cut)
    assert late.violations() == [] and [r.status for r in late.rounds] == ["audited"]
    kept = TrustVerifier(t.match, 1)
    back = replay_resumed(t, 1, cut + 5, kept, dropped=cut)
    assert back.violations() == [] and [r.status for r in back.rounds] == ["audited"]
