"""Seed 004's penalties as the alternative to refusing (RULEBOOK.md 2 `draw_when_playable`,
`multi_finish`, value `penalty`): the move is allowed, and costs the UNO penalty's cards.

Seed 004: "Se o jogador possuir a carta que precisa para ser jogada, mas não jogá-la e comprar
outra, uma penalização é aplicada." and "Não se pode esvaziar todas as cartas da mão de uma vez
só. Caso alguém esvazie as cartas da mão de uma vez só ou esqueça de dizer uno deve comprar mais
cinco cartas".
"""

from __future__ import annotations

from scenario import current, deal, drawn_codes, of_type, one, play_cards, plays

from unonet import events as ev
from unonet.actions import Draw
from unonet.rules import RuleSet, parse_option

DRAWS = ["b1", "b2", "b3", "b4", "b5", "b6", "b7", "b8"]


def test_drawing_while_holding_a_playable_card_costs_the_uno_penalty() -> None:
    """"mas não jogá-la e comprar outra, uma penalização é aplicada": the draw is allowed, the
    card is drawn, then the penalty (uno_penalty=5 as in seed 004's preset)."""
    rules = RuleSet(draw_when_playable="penalty", uno_penalty=5)
    match = deal([["y1", "y2"], ["r7", "g9"], ["g1", "g2"]], top="r5", draws=DRAWS, rules=rules)
    assert plays(match, 1) == {"r7"}
    assert Draw() in match.legal_actions(1)  # not refused, as forbidden would
    events = match.apply(1, Draw())
    drawn = of_type(events, ev.CardsDrawn)
    assert [(e.seat, e.reason, len(e.positions)) for e in drawn] == [
        (1, "draw", 1), (1, "penalty_draw", 5)]
    assert drawn_codes(match, events, 1) == DRAWS[:6]


def test_drawing_with_no_playable_card_costs_nothing() -> None:
    rules = RuleSet(draw_when_playable="penalty", uno_penalty=5)
    match = deal([["y1", "y2"], ["g7", "g9"], ["g1", "g2"]], top="r5", draws=DRAWS, rules=rules)
    events = match.apply(1, Draw())
    assert [e.reason for e in of_type(events, ev.CardsDrawn)] == ["draw"]


def test_emptying_the_hand_with_a_multiple_costs_the_penalty_and_the_round_goes_on() -> None:
    """"Caso alguém esvazie as cartas da mão de uma vez só [...] deve comprar mais cinco
    cartas": the play stands (the last card's effect too), its player draws five, no win."""
    rules = RuleSet(multiples=True, multi_finish="penalty", uno_penalty=5)
    match = deal([["y1", "y2"], ["b5", "y5"], ["g1", "g2"]], top="r5", draws=DRAWS, rules=rules)
    events = play_cards(match, 1, ["b5", "y5"])
    assert not of_type(events, ev.RoundEnded)
    penalty = one(events, ev.CardsDrawn)
    assert (penalty.seat, penalty.reason, len(penalty.positions)) == (1, "penalty_multi_finish", 5)
    assert len(match.round.hands[1]) == 5  # type: ignore[union-attr]
    assert current(match) == 2


def test_a_run_that_leaves_cards_costs_nothing() -> None:
    rules = RuleSet(sequences=True, multi_finish="penalty", uno_penalty=5)
    hands = [["y1", "y2", "y3"], ["r6", "r7", "b9"], ["g1", "g2", "g3"]]
    match = deal(hands, top="r5", draws=DRAWS, rules=rules)
    events = play_cards(match, 1, ["r6", "r7"])
    assert not of_type(events, ev.CardsDrawn)


def test_the_penalty_values_are_set_by_name() -> None:
    assert parse_option("multi_finish", "penalty") == "penalty"
    assert parse_option("multi_finish", "no") is False
    assert parse_option("draw_when_playable", "penalty") == "penalty"
