"""The public ledger under No Mercy's events, movement by movement (SPEC.md 11.13).

Rounds written by hand (trust_sim.ScriptedRound on No Mercy's deck) with an honest host's proofs:
each test makes one movement the record can contradict and checks that every seat and a
spectator catch it at that event, by its kind; the honest movement beside it passes.
"""

from __future__ import annotations

from trust_no_mercy_sim import NO_MERCY
from trust_sim import ScriptedRound, deliver, received

from protocol.trust.results import ViolationKind
from protocol.trust.verifier import TrustVerifier
from unonet import events as ev
from unonet.cards import Color, Kind
from unonet.events import Position


def at_event(script: ScriptedRound, event_type: type[ev.Event]) -> dict[int | None, set[str]]:
    """Each observer's violation kinds found at the first event of `event_type`."""
    t = script.t
    index = next(i for i, e, _ in t.events() if isinstance(e, event_type))
    found: dict[int | None, set[str]] = {}
    for seat in (*range(t.seats), None):
        verifier = TrustVerifier(t.match, seat)
        for delivery in received(t, seat):
            deliver(t, delivery, verifier, seat)
            if delivery == index:
                break
        found[seat] = {v.kind.value for v in verifier.violations()}
    return found


def with_discard_all(seed: int = 4) -> tuple[ScriptedRound, Position, Color]:
    """A dealt round in which seat 0 holds a Discard All and another card of its colour."""
    script = ScriptedRound(seed=seed, seats=3, rules=NO_MERCY)
    script.deal()
    while True:
        card = script.holding(0, Kind.DISCARD_ALL)
        color = script.t.manifest.face(script.card(card)).color
        assert color is not None
        if any(
            p != card and script.t.manifest.face(script.card(p)).color == color
            for p in script.hands[0]
        ):
            return script, card, color
        script.draw(0, 1)


def mates(script: ScriptedRound, seat: int, color: Color, but: Position) -> tuple[Position, ...]:
    return tuple(
        p for p in script.hands[seat]
        if p != but and script.t.manifest.face(script.card(p)).color == color
    )


def discard(script: ScriptedRound, seat: int, positions: tuple[Position, ...]) -> None:
    for position in positions:
        if position in script.hands[seat]:
            script.hands[seat].remove(position)
    cards = tuple(script.card(p) for p in positions)
    script.emit(ev.CardsDiscarded(seat, positions, cards))


def test_an_honest_discard_all_moves_its_colour_to_the_discard_pile() -> None:
    script, card, color = with_discard_all()
    script.play(0, card)
    discard(script, 0, mates(script, 0, color, card))
    assert all(kinds == set() for kinds in at_event(script, ev.CardsDiscarded).values())


def test_discarding_a_card_not_held_is_caught_by_everyone() -> None:
    script, card, color = with_discard_all()
    script.play(0, card)
    theirs = next(p for p in script.hands[1])
    discard(script, 0, (*mates(script, 0, color, card), theirs))
    for kinds in at_event(script, ev.CardsDiscarded).values():
        assert ViolationKind.NOT_HELD.value in kinds


def test_discarding_with_no_discard_all_on_top_is_caught_by_everyone() -> None:
    script, card, color = with_discard_all()
    discard(script, 0, mates(script, 0, color, card))  # the Discard All never played
    for kinds in at_event(script, ev.CardsDiscarded).values():
        assert ViolationKind.DISCARD_ALL.value in kinds


def test_a_knocked_out_seat_keeping_cards_is_caught_by_everyone() -> None:
    """Seat 1 holds 25 and is knocked out, but only part of its hand goes under the pile."""
    script = ScriptedRound(seed=5, seats=3, rules=NO_MERCY)
    script.deal()
    script.draw(1, 18)
    kept = script.hands[1][:3]
    script.hands[1] = script.hands[1][3:]
    script.emit(ev.KnockedOut(1, 25, 250))
    script.emit(ev.CardsReturned(1, tuple(script.hands[1]), "max_hand"))
    script.hands[1] = list(kept)
    for kinds in at_event(script, ev.CardsReturned).values():
        assert kinds == {ViolationKind.KNOCK_OUT.value}


def test_a_knock_out_counting_another_hand_is_caught_by_everyone() -> None:
    script = ScriptedRound(seed=6, seats=3, rules=NO_MERCY)
    script.deal()
    script.draw(2, 18)
    script.emit(ev.KnockedOut(2, 26, 250))
    for kinds in at_event(script, ev.KnockedOut).values():
        assert kinds == {ViolationKind.HAND_COUNT.value}


def test_an_honest_knock_out_at_25_passes() -> None:
    script = ScriptedRound(seed=6, seats=3, rules=NO_MERCY)
    script.deal()
    script.draw(2, 18)
    script.knock_out(2)
    for kinds in at_event(script, ev.CardsReturned).values():
        assert kinds == set()


def test_roulette_cards_under_another_colour_than_the_one_named_are_caught() -> None:
    script = ScriptedRound(seed=7, seats=3, rules=NO_MERCY)
    script.deal()
    script.emit(ev.ColorChosen(1, Color.RED))
    drawn = script.draw(1, 1, "wild_color_roulette")
    script.emit(ev.RouletteTurned(1, Color.BLUE, drawn, (script.card(drawn[0]),)))
    for kinds in at_event(script, ev.RouletteTurned).values():
        assert ViolationKind.ROULETTE.value in kinds
