"""Seed 003's No Mercy: a deck whose rules stay options. "Uno senza pietà: Questa variante
aggiunge un nuovo mazzo di carte speciali" (it adds a deck), and its rules apply where seed 003
says they are on ("Se le risposte e le scale sono abilitate"). Mattel's rules are the variant's
defaults (tests/test_no_mercy_rules.py plays them); here each is set otherwise, on a stacked
deck. Three seats and dealer 0 unless said: seat 1 plays first, then 2, then 0."""

from __future__ import annotations

from typing import Any

import pytest
from no_mercy_scenario import NO_MERCY, nm_deal
from scenario import (
    codes,
    current,
    drawn_codes,
    hand,
    of_type,
    one,
    phase,
    play,
    plays,
    refused,
)

from unonet import events as ev
from unonet.actions import Accept, Draw, Pass, Play
from unonet.cards import Color
from unonet.errors import ErrorCode
from unonet.rules import RulesError, RuleSet, preset


@pytest.mark.parametrize(("option", "value"), [("seven_zero", False),
                                               ("draw_until_playable", False),
                                               ("max_hand", None), ("max_hand", 15),
                                               ("stacking", "off")])
def test_a_rule_no_mercy_starts_with_takes_the_value_given(option: str, value: Any) -> None:
    """A preset, `--set`, a change of variant in the lobby and a rule set built whole all play
    the value given; the variant's defaults fill only what is not given."""
    for rules in (preset("no_mercy", **{option: value}),
                  RuleSet().with_options({"variant": "no_mercy", option: value}),
                  preset("no_mercy").with_options({option: value}),
                  NO_MERCY.replace(**{option: value})):
        assert getattr(rules, option) == value
        rules.check_table(4)
    assert getattr(preset("no_mercy"), option) != value  # Mattel's rule, unless told


# -- stacking -------------------------------------------------------------------------------------

NO_STACKING = NO_MERCY.replace(stacking="off")
"""Seed 003: "Se le risposte e le scale sono abilitate, puoi giocare una carta Più X sopra una
carta Più Y più debole"; with the answers off, a draw card is drawn."""


def test_without_stacking_a_draw_card_is_drawn_at_once_and_the_turn_lost() -> None:
    """Seed 003's "Risposte" off: nobody answers; the next player draws and is skipped."""
    match = nm_deal([["y1", "y2", "y3"], ["W+6", "r3", "g7"], ["W+10", "b+2", "y9"]], top="r5",
                    draws=("g1", "g2", "g3", "g4", "g5", "g6"), rules=NO_STACKING)
    events = play(match, 1, "W+6", Color.GREEN)
    assert drawn_codes(match, events, 2) == ["g1", "g2", "g3", "g4", "g5", "g6"]
    assert one(events, ev.Skipped) == ev.Skipped(2, "wild_draw_six")
    assert of_type(events, ev.DecisionPending) == [] and current(match) == 0
    assert phase(match) == "turn" and "W+10" in codes(match, 2)


def test_without_stacking_a_wild_reverse_draw_four_reverses_then_the_draw_is_taken() -> None:
    """RULEBOOK.md 4: it reverses, then the next player in the new direction draws 4; with
    stacking off that player draws at once and loses the turn."""
    match = nm_deal([["y1", "y2", "y3"], ["WR+4", "r3", "g7"], ["b2", "b3", "b4"]], top="r5",
                    draws=("g1", "g2", "g3", "g4"), rules=NO_STACKING)
    events = play(match, 1, "WR+4", Color.GREEN)
    assert one(events, ev.DirectionChanged).direction == -1
    assert drawn_codes(match, events, 0) == ["g1", "g2", "g3", "g4"]
    assert one(events, ev.Skipped).seat == 0 and current(match) == 2  # on the new way


def test_without_stacking_a_wild_reverse_draw_four_of_two_players_falls_on_its_player() -> None:
    """With two players it comes back to its player (RULEBOOK.md 4), who draws at once."""
    match = nm_deal([["y1", "y2", "y3"], ["WR+4", "W+6", "g7"]], top="r5",
                    draws=("g1", "g2", "g3", "g4"), rules=NO_STACKING)
    events = play(match, 1, "WR+4", Color.GREEN)
    assert drawn_codes(match, events, 1) == ["g1", "g2", "g3", "g4"]
    assert one(events, ev.Skipped).seat == 1 and current(match) == 0


def test_without_stacking_a_last_wild_reverse_draw_four_falls_on_the_previous_player() -> None:
    """RULEBOOK.md 1.9: a last draw card is still drawn, by the next player in the direction
    the card leaves: after a Wild Reverse Draw Four, the one who played before it."""
    match = nm_deal([["y1"], ["WR+4"], ["b2"]], top="r5", draws=("g1", "g2", "g3", "g4"),
                    rules=NO_STACKING)
    events = play(match, 1, "WR+4", Color.GREEN)
    assert one(events, ev.DirectionChanged).direction == -1
    assert drawn_codes(match, events, 0) == ["g1", "g2", "g3", "g4"]
    assert one(events, ev.RoundEnded).winner == 1 and len(hand(match, 2)) == 1


def test_without_stacking_a_draw_that_knocks_out_skips_nobody() -> None:
    """The Mercy rule puts the drawer out mid-draw (RULEBOOK.md 4): out, not skipped."""
    rules = NO_STACKING.replace(hand_size=20)
    match = nm_deal([[], ["W+10"], []], top="r5", rules=rules, fill=True)
    events = play(match, 1, "W+10", Color.GREEN)
    assert one(events, ev.KnockedOut).seat == 2
    assert of_type(events, ev.Skipped) == [] and current(match) == 0


def test_no_mercy_stacks_escalating_or_not_at_all() -> None:
    """Seed 003: "puoi giocare un Più 4 su un Più 2, ma non un Più 2 su un Più 4": never the
    same kind only (a +4 may answer a +2)."""
    with pytest.raises(RulesError) as info:
        preset("no_mercy", stacking="same_kind").check_options()
    assert info.value.option == "stacking"
    match = nm_deal([["y1", "y2", "y3"], ["r+2", "r3", "g7"], ["b+4", "b+2", "y9"]], top="r5")
    play(match, 1, "r+2")
    assert plays(match, 2) == {"b+4", "b+2"}
    match = nm_deal([["y1", "y2", "y3"], ["r+2", "r3", "g7"], ["b+4", "b+2", "y9"]], top="r5",
                    rules=NO_STACKING)
    events = play(match, 1, "r+2")
    assert len(drawn_codes(match, events, 2)) == 2 and current(match) == 0
    refused(match, 2, Play(next(c for c in hand(match, 2)
                               if match.manifest.face(c).code == "b+4")),
            ErrorCode.NOT_YOUR_TURN)


# -- 7-0 ------------------------------------------------------------------------------------------


def test_without_seven_zero_a_seven_and_a_zero_are_plain_numbers() -> None:
    """Seed 003, "Regole dello 0/7": "Se questa opzione è attivata, le carte 0 e 7 hanno degli
    effetti particolari"; off, in No Mercy too, they have none."""
    rules = NO_MERCY.replace(seven_zero=False)
    match = nm_deal([["y1", "y2", "y3"], ["r7", "g7", "y9"], ["b2", "b3", "b4"]], top="r5",
                    rules=rules)
    play(match, 1, "r7")
    assert phase(match) == "turn" and current(match) == 2  # no one to pick
    assert codes(match, 1) == ["g7", "y9"] and codes(match, 2) == ["b2", "b3", "b4"]
    match = nm_deal([["y1", "y2", "y3"], ["r0", "g7", "y9"], ["b2", "b3", "b4"]], top="r5",
                    rules=rules)
    events = play(match, 1, "r0")
    assert of_type(events, ev.HandsMoved) == [] and current(match) == 2
    assert codes(match, 1) == ["g7", "y9"] and codes(match, 2) == ["b2", "b3", "b4"]


# -- draw until playable --------------------------------------------------------------------------


def test_without_draw_until_playable_one_card_is_drawn_and_may_be_played_or_kept() -> None:
    """Seed 003: "Pescare fino a trovare una carta giocabile: Attivando questa opzione, quando
    si prende una carta, vengono automaticamente pescate carte fino a quando non si prende una
    carta giocabile". Off, its turn as it says for every game: "deve pescarne una dal mazzo
    [...] Se questa carta è giocabile, può posarla immediatamente, altrimenti il turno passa"."""
    rules = NO_MERCY.replace(draw_until_playable=False)
    match = nm_deal([["y1", "y2", "y3"], ["b1", "g7", "y9"], ["b2", "b3", "b4"]], top="r5",
                    draws=("b6", "r8", "g6"), rules=rules)
    events = match.apply(1, Draw())
    assert drawn_codes(match, events, 1) == ["b6"]  # one card, which does not play
    assert of_type(events, ev.MayPlayDrawn) == [] and one(events, ev.Passed).seat == 1
    events = match.apply(2, Draw())
    assert drawn_codes(match, events, 2) == ["r8"]
    assert one(events, ev.MayPlayDrawn).seat == 2
    assert Pass() in match.legal_actions(2)  # it may be played, not must
    match.apply(2, Pass())
    assert current(match) == 0 and "r8" in codes(match, 2)


def test_without_draw_until_playable_a_time_out_draws_one_card_and_passes() -> None:
    """The classic time-out (RULEBOOK.md 6.14): no longer draw until a card plays and play it."""
    rules = NO_MERCY.replace(draw_until_playable=False)
    match = nm_deal([["y1", "y2", "y3"], ["b1", "g7", "y9"], ["b2", "b3", "b4"]], top="r5",
                    draws=("r8", "g6"), rules=rules)
    events = match.expire()
    assert drawn_codes(match, events, 1) == ["r8"]
    assert of_type(events, ev.CardPlayed) == [] and one(events, ev.Passed).seat == 1
    assert current(match) == 2 and "r8" in codes(match, 1)


# -- the Mercy rule -------------------------------------------------------------------------------


def _big(seats: int, seat1: list[str]) -> list[list[str]]:
    return [seat1 if seat == 1 else [] for seat in range(seats)]


def test_without_the_mercy_rule_nobody_is_knocked_out_and_the_whole_draw_is_taken() -> None:
    """Seed 003: "Eliminare i giocatori che accumulano troppe carte: Attivando questa opzione,
    il giocatore che ha troppe carte viene eliminato per la manche corrente", an option it
    recommends with No Mercy ("Si raccomanda vivamente di attivare l'opzione"): off, a hand of
    20 takes a +10 whole and plays on."""
    rules = NO_MERCY.replace(max_hand=None, hand_size=20)
    match = nm_deal(_big(3, ["W+10"]), top="r5", rules=rules, fill=True)
    play(match, 1, "W+10", Color.GREEN)
    events = match.apply(2, Accept())
    assert len(hand(match, 2)) == 30 and of_type(events, ev.KnockedOut) == []
    assert sum(len(e.positions) for e in of_type(events, ev.CardsDrawn)) == 10
    assert current(match) == 0 and not match.view(0).seats[2].out


def test_the_mercy_limit_is_the_number_given() -> None:
    """Seed 003: "Di default il limite è fissato a 25 carte": the limit is the option's value."""
    rules = NO_MERCY.replace(max_hand=15, hand_size=10)
    match = nm_deal(_big(3, ["W+10"]), top="r5", rules=rules, fill=True)
    play(match, 1, "W+10", Color.GREEN)
    events = match.apply(2, Accept())
    assert one(events, ev.KnockedOut) == ev.KnockedOut(2, 15, 250)
    assert sum(len(e.positions) for e in of_type(events, ev.CardsDrawn)) == 5  # not 10
