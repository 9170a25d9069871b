"""SPEC.md 11.6 names the violation kind of every check: these are the checks whose kind the
spec once left unsaid, each shown with that kind. A doctored classic deck ([UNO-11-22]), an
empty hand's challenge reveal that rightly carries no nonce ([UNO-11-34]), a forged dealer draw
([UNO-11-39]), an event before the round's seeds were published ([UNO-11-27]), and forged
eliminations and final totals ([UNO-11-44])."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest
from trust_sim import Transcript, play_match, play_round, replay, replay_match, reveals_of

from protocol.trust.messages import EventProof
from protocol.trust.results import Violation, ViolationKind
from protocol.trust.verifier import TrustVerifier
from unonet import events as ev
from unonet.cards import Face, Kind
from unonet.rules import RuleSet


def kinds(violations: list[Violation]) -> list[ViolationKind]:
    return [v.kind for v in violations]


# -- [UNO-11-22]: the classic deck is the rules' deck, face for face ---------------------------


def doctored(t: Transcript, index: int, face: Face) -> Transcript:
    """The same round under a manifest whose card `index` shows `face`."""
    deck = t.match.manifest
    cards = list(deck.cards)
    cards[index] = replace(deck.cards[index], faces=(face,))
    return replace(t, match=replace(t.match, manifest=replace(deck, cards=tuple(cards))))


def test_a_classic_manifest_with_a_doctored_face_is_a_violation_at_once() -> None:
    t = play_round(1)
    five = next(c.id for c in t.manifest if c.faces[0].kind is Kind.NUMBER and
                c.faces[0].number == 5)
    face = t.manifest.face(five)
    for forged in (replace(face, points=50), replace(face, number=6)):
        for seat in (0, None):
            found = TrustVerifier(doctored(t, five, forged).match, seat).violations()
            assert kinds(found) == [ViolationKind.DECK], forged
            assert "not the classic deck of these rules" in found[0].detail
            assert f"card {five} is" in found[0].detail


def test_a_classic_manifest_of_another_size_than_the_rules_say_is_a_violation() -> None:
    t = play_round(1)
    two_decks = replace(t.match, rules=RuleSet(decks=2))
    found = TrustVerifier(two_decks, 1).violations()
    assert kinds(found) == [ViolationKind.DECK]
    assert "2 decks of 4 colours" in found[0].detail and "108 cards, not 216" in found[0].detail


@pytest.mark.parametrize(
    "rules", [RuleSet(), RuleSet(decks=2), RuleSet(colors=6), RuleSet(buzzers=True)],
    ids=["official", "two_decks", "six_colours", "buzzers"],
)
def test_the_rules_own_classic_deck_is_no_violation(rules: RuleSet) -> None:
    [t] = play_match(rules, 3, 2, max_rounds=1)
    assert len(t.manifest) == len(rules.manifest())
    assert replay(t, 1).violations() == []


# -- [UNO-11-34]: an empty hand's reveal carries no nonce, and needs none ---------------------


def empty_hand_reveal() -> tuple[Transcript, int, ev.ChallengeReveal, EventProof]:
    """An honest round where a Wild Draw Four played as the last card is challenged: the
    challenger is shown an empty hand (seed and hand size found by search, fixed here)."""
    t = play_round(19, rules=RuleSet(hand_size=1))
    [(index, reveal, proof)] = t.find(ev.ChallengeReveal)
    assert isinstance(reveal, ev.ChallengeReveal) and reveal.cards == ()
    return t, index, reveal, proof


def test_an_empty_hands_challenge_reveal_carries_no_nonce_and_is_no_violation() -> None:
    t, index, reveal, proof = empty_hand_reveal()
    assert proof.nonces == () and "nonces" not in t.wire(index)
    assert replay(t, reveal.challenger).violations() == []


def test_a_card_in_a_reveal_without_its_nonce_is_a_missing_proof() -> None:
    t, index, reveal, _ = empty_hand_reveal()
    position = (0, len(t.manifest) - 1)
    t.set_event(index, replace(reveal, cards=(t.host.card_at(position),), positions=(position,)))
    assert ViolationKind.MISSING_PROOF in kinds(replay(t, reveal.challenger).violations())


# -- [UNO-11-39], [UNO-11-44]: the dealer draw is the one the key gives, and the rules' -----


def test_a_forged_dealer_draw_is_a_deck_order_violation_and_an_illegal_record() -> None:
    t = play_round(3)
    [(index, draw, _), *_] = t.find(ev.DealerDraw)
    assert isinstance(draw, ev.DealerDraw)
    (seat, card), *rest = draw.draws
    t.set_event(index, replace(draw, draws=((seat, (card + 1) % len(t.manifest)), *rest)))
    for viewer in (None, 0, 1, 2):
        found = replay(t, viewer).violations()
        assert kinds(found) == [ViolationKind.DECK_ORDER, ViolationKind.ILLEGAL], found
        assert "the dealer draw (attempt 0)" in found[0].detail


def test_a_first_round_without_its_dealer_draw_is_illegal() -> None:
    t = play_round(3)
    [(index, _, _), *_] = t.find(ev.DealerDraw)
    del t.deliveries[index]
    t.redigest()
    found = replay(t, None).violations()
    assert kinds(found) == [ViolationKind.ILLEGAL]
    assert "the rules give dealer_draw(" in found[0].detail


# -- [UNO-11-27]: nothing of the round before its seeds are published -------------------------


def test_events_before_the_seeds_were_published_are_a_seed_reveals_violation() -> None:
    t = play_round(3)
    index, _ = reveals_of(t)
    reveals = t.deliveries.pop(index)
    first_event = t.events()[0][0]
    t.deliveries.insert(first_event + 1, reveals)  # after the dealer draw
    for viewer in (None, 1):
        found = replay(t, viewer).violations()
        assert set(kinds(found)) == {ViolationKind.SEED_REVEALS}, found
        assert any("published after the deal" in v.detail for v in found)


# -- [UNO-11-44]: eliminations and the match's end are the rules' ------------------------------

ELIMINATION = RuleSet(scoring="elimination", target=50)


def forge_last_round(change: Callable[[ev.Event], ev.Event | None]) -> list[Transcript]:
    """A whole match under elimination (seed fixed: two seats go out in its last round), with
    the first event `change` rewrites in its last round rewritten."""
    rounds = play_match(ELIMINATION, 3, 5)
    last = rounds[-1]
    for index, event, _ in last.events():
        new = change(event)
        if new is not None:
            last.set_event(index, new)
            return rounds
    raise AssertionError("the match has no such event")


@pytest.mark.parametrize(
    "change",
    [
        lambda e: replace(e, score=e.score - 1) if isinstance(e, ev.SeatEliminated) else None,
        lambda e: replace(e, seat=(e.seat + 2) % 3) if isinstance(e, ev.SeatEliminated) else None,
        lambda e: replace(e, scores=(e.scores[0], e.scores[1] + 5, *e.scores[2:]))
        if isinstance(e, ev.MatchEnded) else None,
    ],
    ids=["eliminated_score", "eliminated_seat", "final_totals"],
)
def test_a_forged_elimination_or_final_total_is_illegal(
    change: Callable[[ev.Event], ev.Event | None],
) -> None:
    rounds = forge_last_round(change)
    for viewer in (None, 0, 1):
        found = replay_match(rounds, viewer).violations()
        assert kinds(found) == [ViolationKind.ILLEGAL], found


def test_the_honest_elimination_match_is_no_violation() -> None:
    rounds = play_match(ELIMINATION, 3, 5)
    assert any(isinstance(e, ev.SeatEliminated) for _, e, _ in rounds[-1].events())
    assert replay_match(rounds, None).violations() == []
