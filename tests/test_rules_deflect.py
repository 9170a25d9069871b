"""RULEBOOK.md 2 `deflect` and 6.3: a Skip, a Reverse (or a Buzzer, see test_rules_buzzers.py)
passes a pending draw on instead of taking it.

The source: seed 003 "Risposte avanzate": "permette, oltre alle risposte alle carte Più 2 e
Cambio colore più 4, anche le risposte alle carte Salta, Inverti e Buzzer, in modo da trasferire
l'obbligo di pescare ad un altro giocatore. Quando si devono pescare delle carte, un Salta passa
semplicemente l'obbligo di pescare al giocatore successivo, senza fargli saltare il turno."
"""

from __future__ import annotations

from scenario import (
    G,
    card,
    current,
    deal,
    drawn_codes,
    of_type,
    one,
    phase,
    play,
    plays,
    refused,
)

from unonet import events as ev
from unonet.actions import Accept, Draw, Play
from unonet.errors import ErrorCode
from unonet.match import Match
from unonet.rules import RuleSet

DEFLECT = RuleSet(stacking="same_kind", deflect=True)
FOUR = ["b5", "b6", "b7", "b8"]
SEAT0 = ["y1", "y2", "y3"]
SEAT3 = ["g4", "g5", "g6"]


def _pending_two(seat2: list[str], rules: RuleSet = DEFLECT, seat0: list[str] = SEAT0,
                 seat3: list[str] = SEAT3) -> Match:
    """Four seats, dealer 0: seat 1 plays a red +2, seat 2 faces 2."""
    match = deal([seat0, ["r+2", "r5", "b6"], seat2, seat3], top="r3", draws=FOUR, rules=rules)
    play(match, 1, "r+2")
    assert phase(match) == "stack" and current(match) == 2
    return match


def test_a_skip_of_any_colour_passes_the_draw_to_the_next_player_who_is_not_skipped() -> None:
    """Seed 003: "un Salta passa semplicemente l'obbligo di pescare al giocatore successivo,
    senza fargli saltare il turno." RULEBOOK.md 6.3: "passes it to the player after the
    deflector, who is not skipped but now faces it"."""
    match = _pending_two(["bS", "g1", "y9"])
    assert plays(match, 2) == {"bS"}  # blue on a red +2: no colour match needed
    events = play(match, 2, "bS")
    assert one(events, ev.DrawDeflected) == ev.DrawDeflected(2, 3, 2)
    assert not of_type(events, ev.Skipped)
    assert one(events, ev.DecisionPending) == ev.DecisionPending(3, "stack", 2)
    events = match.apply(3, Accept())
    assert drawn_codes(match, events, 3) == FOUR[:2]
    assert one(events, ev.Skipped) == ev.Skipped(3, "stack")
    assert current(match) == 0


def test_a_reverse_sends_the_draw_back_the_other_way() -> None:
    """Seed 003: Inverti answers a pending draw. RULEBOOK.md 6.3: "a Reverse turns the
    direction of play and the draw goes to the next player in the new direction"."""
    match = _pending_two(["gR", "g1", "y9"])
    events = play(match, 2, "gR")
    assert one(events, ev.DirectionChanged) == ev.DirectionChanged(-1)
    assert one(events, ev.DrawDeflected) == ev.DrawDeflected(2, 1, 2)
    assert one(events, ev.DecisionPending) == ev.DecisionPending(1, "stack", 2)
    events = match.apply(1, Accept())
    assert one(events, ev.Skipped) == ev.Skipped(1, "stack")
    assert current(match) == 0  # play goes on to the right


def test_the_deflected_draw_may_be_deflected_again() -> None:
    """RULEBOOK.md 6.3: the player who now faces the draw answers it like anyone facing one."""
    match = _pending_two(["bS", "g1", "y9"], seat3=["yS", "g5", "g6"])
    play(match, 2, "bS")
    events = play(match, 3, "yS")
    assert one(events, ev.DrawDeflected) == ev.DrawDeflected(3, 0, 2)
    assert one(events, ev.DecisionPending) == ev.DecisionPending(0, "stack", 2)


def test_without_deflect_a_skip_does_not_answer_a_pending_draw() -> None:
    """RULEBOOK.md 2 `deflect` false: "A pending draw is answered only by stacking, where
    allowed, or taken"."""
    match = _pending_two(["bS", "g1", "y9"], rules=RuleSet(stacking="same_kind"))
    assert plays(match, 2) == set()
    refused(match, 2, Play(card(match, 2, "bS")), ErrorCode.DRAW_PENDING)


def test_a_skip_deflects_a_wild_draw_four_and_gives_up_its_challenge() -> None:
    """RULEBOOK.md 6.3: "While a draw is pending (to stack on or to challenge), a Skip of any
    colour passes it" on."""
    rules = RuleSet(deflect=True)  # no stacking: only the challengeable +4 leaves a draw pending
    match = deal([SEAT0, ["W+4", "r5", "b6"], ["bS", "g1", "y9"]], top="r3", draws=FOUR,
                 rules=rules)
    play(match, 1, "W+4", color=G)
    assert phase(match) == "challenge"
    events = play(match, 2, "bS")
    assert one(events, ev.DrawDeflected) == ev.DrawDeflected(2, 0, 4)
    assert one(events, ev.DecisionPending) == ev.DecisionPending(0, "stack", 4)
    events = match.apply(0, Accept())
    drawn = one(events, ev.CardsDrawn)
    assert (drawn.seat, len(drawn.positions)) == (0, 4)
    assert current(match) == 1


def test_a_deflection_is_not_offered_when_the_draw_would_come_back_to_the_deflector() -> None:
    """RULEBOOK.md 6.3: "A deflection is offered only when the draw would not come straight back
    to the deflector": two players, the other has emptied their hand with the +2."""
    match = deal([["bS", "gR"], ["r4", "r+2"]], top="r3", draws=["b9", *FOUR], rules=DEFLECT)
    play(match, 1, "r4", uno=True)
    match.apply(0, Draw())
    play(match, 1, "r+2")  # its last card: seat 1 is passed over until the draw is taken
    assert phase(match) == "stack" and current(match) == 0
    assert plays(match, 0) == set()
    refused(match, 0, Play(card(match, 0, "bS")), ErrorCode.DRAW_PENDING)
    events = match.apply(0, Accept())
    assert one(events, ev.RoundEnded).winner == 1


def test_after_a_deflection_the_chain_still_stacks_on_its_last_draw_card_same_kind() -> None:
    """RULEBOOK.md 6.1: "Under same kind, a Draw Two answers a Draw Two"; a deflection passes
    the pending draw on (6.3) without changing what it is: a chain of Draw Twos."""
    match = _pending_two(["bS", "g1", "y9"], seat3=["g+2", "g5", "g6"])
    play(match, 2, "bS")
    assert plays(match, 3) == {"g+2"}


def test_after_a_deflection_escalating_still_refuses_a_draw_two_on_a_wild_draw_four() -> None:
    """RULEBOOK.md 2 `stacking` escalating: "Any draw card worth at least as much as the last
    one may answer it (never a +2 on a +4)"; seed 003: "non un Più 2 su un Più 4"."""
    rules = RuleSet(stacking="escalating", deflect=True, wd4_policy="free")
    match = deal([SEAT0, ["W+4", "r5", "b6"], ["bS", "g1", "y9"], ["g+2", "g5", "g6"]],
                 top="r3", draws=FOUR, rules=rules)
    play(match, 1, "W+4", color=G)
    play(match, 2, "bS")
    assert plays(match, 3) == set()


def test_accepting_a_deflected_wild_draw_four_draws_for_the_wild_draw_four() -> None:
    """SPEC.md 9.2: `cards_drawn` reasons are `wild_draw_four` or `stack` (accepting a pending
    total) for such a draw; the Skip that passed it on draws nothing (RULEBOOK.md 6.3)."""
    match = deal([SEAT0, ["W+4", "r5", "b6"], ["bS", "g1", "y9"]], top="r3", draws=FOUR,
                 rules=RuleSet(deflect=True))
    play(match, 1, "W+4", color=G)
    play(match, 2, "bS")
    events = match.apply(0, Accept())
    reason = one(events, ev.CardsDrawn).reason
    assert reason in ("stack", "wild_draw_four")
    assert one(events, ev.Skipped).reason == reason


def test_without_stacking_a_skip_still_passes_a_pending_draw_two_on() -> None:
    """Seed 003 "Risposte avanzate": it "permette, oltre alle risposte alle carte Più 2 e Cambio
    colore più 4, anche le risposte alle carte Salta, Inverti e Buzzer, in modo da trasferire
    l'obbligo di pescare ad un altro giocatore": deflect alone makes a Draw Two's draw wait for
    an answer (no stacking on it), which a Skip passes on."""
    rules = RuleSet(deflect=True)
    match = _pending_two(["bS", "g+2", "y9"], rules=rules)
    assert plays(match, 2) == {"bS"}  # no +2 on the +2: stacking is off
    refused(match, 2, Play(card(match, 2, "g+2")), ErrorCode.DRAW_PENDING)
    events = play(match, 2, "bS")
    assert one(events, ev.DrawDeflected) == ev.DrawDeflected(2, 3, 2)
    events = match.apply(3, Accept())
    assert drawn_codes(match, events, 3) == FOUR[:2]
    assert one(events, ev.Skipped) == ev.Skipped(3, "draw_two")  # the card's own draw
    assert current(match) == 0


def test_without_stacking_or_deflect_a_draw_two_is_drawn_at_once() -> None:
    """RULEBOOK.md 1.5: the official Draw Two, nothing to answer."""
    match = deal([SEAT0, ["r+2", "r5", "b6"], ["bS", "g1", "y9"], SEAT3], top="r3",
                 draws=FOUR, rules=RuleSet())
    events = play(match, 1, "r+2")
    assert drawn_codes(match, events, 2) == FOUR[:2]
    assert one(events, ev.Skipped) == ev.Skipped(2, "draw_two")
    assert current(match) == 3
