"""RULEBOOK.md section 4: No Mercy's rules that are always on (escalating stacking, draw until
playable and play it, 7-0, the Mercy rule), the first card, winning and scoring. Three seats
and dealer 0 unless said: seat 1 plays first, then 2, then 0."""

from __future__ import annotations

from no_mercy_scenario import NO_MERCY, nm_deal, no_mercy_match, pile_codes, rnd
from scenario import (
    active_color,
    card,
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
    top,
)
from stacking import stacked_order

from unonet import events as ev
from unonet.actions import Accept, ChooseTarget, Draw, Pass, Play
from unonet.cards import Color
from unonet.errors import ErrorCode
from unonet.scoring import round_points

R, Y, G, B = Color.RED, Color.YELLOW, Color.GREEN, Color.BLUE


# -- escalating stacking ------------------------------------------------------------------------


def test_a_draw_card_worth_at_least_the_last_one_stacks_in_any_colour() -> None:
    match = nm_deal([["y1", "y2", "y3"], ["r+2", "r3", "g7"], ["b+2", "g+4", "y9"]], top="r5")
    play(match, 1, "r+2")
    assert plays(match, 2) == {"b+2", "g+4"}  # no colour needed
    events = play(match, 2, "g+4")
    assert one(events, ev.DrawStacked) == ev.DrawStacked(2, 6)
    assert one(events, ev.DecisionPending) == ev.DecisionPending(0, "stack", 6)


def test_the_comparison_is_with_the_last_card_not_the_total() -> None:
    match = nm_deal([["r+4", "r+2", "y3"], ["W+6", "r3", "g7"], ["W+10", "b+2", "y9"]],
                    top="r5")
    play(match, 1, "W+6", G)
    assert plays(match, 2) == {"W+10"}  # a +2 is worth less than the +6
    refused(match, 2, Play(card(match, 2, "b+2")), ErrorCode.DRAW_PENDING)
    play(match, 2, "W+10", B)
    assert plays(match, 0) == set()  # only a +10 answers a +10
    events = match.apply(0, Accept())
    assert len(drawn_codes(match, events, 0)) == 16


def test_wild_and_coloured_draw_cards_mix_unless_stack_mix_wild_is_off() -> None:
    hands = [["y1", "y2", "y3"], ["r+4", "r3", "g7"], ["W+6", "WR+4", "y9"]]
    match = nm_deal(hands, top="r5")
    play(match, 1, "r+4")
    assert plays(match, 2) == {"W+6", "WR+4"}  # the official rule
    match = nm_deal(hands, top="r5", rules=NO_MERCY.replace(stack_mix_wild=False))
    play(match, 1, "r+4")
    assert plays(match, 2) == set()  # seed 003: no wild on a coloured draw card


# -- draw until playable, then play it -----------------------------------------------------------


def test_without_a_match_the_player_draws_until_a_card_plays_and_must_play_it() -> None:
    match = nm_deal([["y1", "y2", "y3"], ["b1", "g7", "y9"], ["b2", "b3", "b4"]], top="r5",
                    draws=("b6", "g6", "r8", "y4"))
    refused(match, 1, Pass(), ErrorCode.CANNOT_PASS)
    events = match.apply(1, Draw())
    assert drawn_codes(match, events, 1) == ["b6", "g6", "r8"]
    drawn = card(match, 1, "r8")
    assert one(events, ev.MayPlayDrawn) == ev.MayPlayDrawn(1, drawn)
    assert [a for a in match.legal_actions(1) if not isinstance(a, Play)] == []
    refused(match, 1, Pass(), ErrorCode.CANNOT_PASS)
    refused(match, 1, Play(card(match, 1, "g6")), ErrorCode.MUST_PLAY_DRAWN_CARD)
    play(match, 1, "r8")
    assert current(match) == 2


def test_holding_a_card_that_plays_the_player_may_not_draw() -> None:
    match = nm_deal([["y1", "y2", "y3"], ["r1", "g7", "y9"], ["b2", "b3", "b4"]], top="r5")
    refused(match, 1, Draw(), ErrorCode.CANNOT_DRAW)


def test_a_timed_out_turn_draws_until_a_card_plays_and_plays_it() -> None:
    match = nm_deal([["y1", "y2", "y3"], ["b1", "g7", "y9"], ["b2", "b3", "b4"]], top="r5",
                    draws=("b6", "W+10"))
    events = match.expire()
    played = one(events, ev.CardPlayed)
    assert match.manifest.face(played.card).code == "W+10"
    assert played.color in (B, G, Y)  # the colour held most (a tie: the first of them)
    assert one(events, ev.DecisionPending) == ev.DecisionPending(2, "stack", 10)


# -- 7-0 -------------------------------------------------------------------------------------------


def test_a_seven_swaps_hands_with_a_chosen_player_and_a_zero_passes_them_on() -> None:
    match = nm_deal([["y1", "y2", "y3"], ["r7", "g7", "y9"], ["b2", "b3", "b4"]], top="r5")
    play(match, 1, "r7")
    assert phase(match) == "choose_target"
    match.apply(1, ChooseTarget(2))
    assert codes(match, 1) == ["b2", "b3", "b4"] and codes(match, 2) == ["g7", "y9"]
    match = nm_deal([["y1", "y2", "y3"], ["r0", "g7", "y9"], ["b2", "b3", "b4"]], top="r5")
    events = play(match, 1, "r0")
    assert one(events, ev.HandsMoved).reason == "zero"
    assert codes(match, 2) == ["g7", "y9"] and codes(match, 0) == ["b2", "b3", "b4"]


def test_a_final_seven_or_zero_wins_without_its_effect() -> None:
    for last in ("r7", "r0"):
        match = nm_deal([["y1"], [last], ["b2"]], top="r5")
        events = play(match, 1, last)
        assert one(events, ev.RoundEnded).winner == 1
        assert of_type(events, ev.HandsMoved) == [] and phase(match) == "round_over"


# -- the Mercy rule ------------------------------------------------------------------------------

BIG = 20  # cards each: one more +10 would take a hand past 25


def _big_deal(seats: int, seat1_first: list[str]) -> list[list[str]]:
    return [seat1_first if s == 1 else [] for s in range(seats)]


def test_25_cards_knock_a_player_out_the_draw_stops_there_and_the_cards_go_under_the_pile() -> None:
    rules = NO_MERCY.replace(hand_size=BIG)
    match = nm_deal(_big_deal(3, ["W+10"]), top="r5", rules=rules, fill=True)
    pile_before = len(rnd(match).draw_pile)
    held = hand(match, 2)
    play(match, 1, "W+10", G)
    events = match.apply(2, Accept())
    assert sum(len(e.positions) for e in of_type(events, ev.CardsDrawn)) == 5  # not 10
    assert one(events, ev.KnockedOut) == ev.KnockedOut(2, 25, 250)
    returned = one(events, ev.CardsReturned)
    assert returned.seat == 2 and len(returned.positions) == 25
    pile = rnd(match).draw_pile
    assert set(held) <= set(pile[:25]) and hand(match, 2) == []
    assert len(pile) == pile_before - 5 + 25
    assert match.view(0).seats[2].out and current(match) == 0
    assert of_type(events, ev.Skipped) == []  # its turn is simply gone


def test_the_last_player_not_knocked_out_wins_and_collects_250_per_knock_out() -> None:
    rules = NO_MERCY.replace(hand_size=BIG)
    match = nm_deal([[], ["W+10"]], top="r5", rules=rules, fill=True)
    play(match, 1, "W+10", G)
    events = match.apply(0, Accept())
    assert one(events, ev.KnockedOut).seat == 0
    ended = one(events, ev.RoundEnded)
    points = sum(match.manifest.face(c).points for c in hand(match, 1))
    assert ended.winner == 1 and ended.points == (0, 250)
    assert points > 0  # the winner's own cards never count


# -- the first card, scoring -------------------------------------------------------------------


def test_action_cards_turned_first_are_ignored_until_a_number_shows() -> None:
    turned = ["rS", "WCR", "b+2", "gDA", "g4"]
    order = stacked_order(NO_MERCY.manifest(), 0, [["y1"], ["b1"], ["g1"]], turned, ["r9"])
    match = no_mercy_match(3, b"first", NO_MERCY.replace(hand_size=1), stacked_decks=[order],
                           first_dealer=0)
    events = match.start_round()
    shown = [match.manifest.face(e.card).code for e in of_type(events, ev.TopCardTurned)]
    assert shown == turned
    assert [match.manifest.face(c).code for c in rnd(match).discard] == turned  # left there
    assert (top(match), active_color(match), current(match), phase(match)) == ("g4", G, 1, "turn")
    assert pile_codes(match, 1) == ["r9"]


def test_a_seven_or_zero_turned_first_does_nothing() -> None:
    for first in ("r7", "r0"):
        match = nm_deal([["y1", "y2"], ["b1", "b2"], ["g1", "g2"]], top=first)
        assert (phase(match), current(match)) == ("turn", 1)
        assert codes(match, 1) == ["b1", "b2"]


def test_scoring_numbers_face_value_coloured_actions_20_wilds_50_knock_outs_250() -> None:
    match = nm_deal([["y1"], ["r3"], ["b2"]], top="r5")
    deck = match.manifest
    ids = {c.faces[0].code: c.id for c in reversed(deck.cards)}
    hands = [[], [ids["g7"], ids["bDA"], ids["WCR"]], [ids["y0"], ids["r+4"]], []]
    points = round_points(match.rules, deck, 0, hands, knocked_out={3: 250})
    assert points == [7 + 20 + 50 + 0 + 20 + 250, 0, 0, 0]
