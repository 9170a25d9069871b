"""RULEBOOK.md 1.7 and anchors 6.4: calling UNO with the next-to-last card, the catch window (from
that card landing to the next player's first draw or play), the late self-call, the penalty,
and the options uno_penalty, uno_auto_penalty and false_catch_penalty."""

from __future__ import annotations

from scenario import (
    G,
    card,
    codes,
    current,
    deal,
    drawn_codes,
    of_type,
    one,
    play,
    refused,
)

from unonet import events as ev
from unonet.actions import Accept, CallUno, Catch, Draw, Play
from unonet.errors import ErrorCode
from unonet.match import Match
from unonet.rules import RuleSet

# Dealer 0: seat 1 plays first and holds two cards; seat 2 is next.
SEAT0 = ["y1", "y2"]
SEAT2 = ["r3", "g3"]
PENALTY = ["b7", "b8", "b9", "g9"]


def _two_left(rules: RuleSet | None = None, seat1: tuple[str, str] = ("r5", "y9")) -> Match:
    return deal([SEAT0, list(seat1), SEAT2], top="r4", draws=PENALTY, rules=rules)


def test_uno_may_be_called_with_the_play_of_the_next_to_last_card() -> None:
    match = _two_left()
    r5 = card(match, 1, "r5")
    assert Play(r5, uno=True) in match.legal_actions(1)
    events = match.apply(1, Play(r5, uno=True))
    assert one(events, ev.CardPlayed).uno is True
    assert one(events, ev.UnoCalled) == ev.UnoCalled(1)
    assert events.index(one(events, ev.CardPlayed)) < events.index(one(events, ev.UnoCalled))
    seat1 = match.view(0).seats[1]
    assert (seat1.cards, seat1.uno_called, seat1.catchable) == (1, True, False)
    refused(match, 0, Catch(1), ErrorCode.NOT_CATCHABLE)
    refused(match, 2, Catch(1), ErrorCode.NOT_CATCHABLE)
    assert Catch(1) not in match.legal_actions(0)


def test_uno_cannot_be_called_with_any_other_card() -> None:
    match = deal([["y1", "y2", "y3"], ["r5", "r6", "y9"], ["r3", "g3", "b3"]], top="r4")
    refused(match, 1, Play(card(match, 1, "r5"), uno=True), ErrorCode.UNO_NOT_ALLOWED)
    refused(match, 1, CallUno(), ErrorCode.UNO_NOT_ALLOWED)


def test_a_player_left_with_one_card_without_calling_may_be_caught_by_anyone() -> None:
    match = _two_left()
    events = play(match, 1, "r5")
    assert not of_type(events, ev.UnoCalled)
    assert match.view(2).seats[1].catchable is True
    assert Catch(1) in match.legal_actions(0)  # not only the next player
    assert Catch(1) in match.legal_actions(2)
    assert CallUno() in match.legal_actions(1)
    refused(match, 1, Catch(1), ErrorCode.NOT_CATCHABLE)  # nobody catches themselves

    events = match.apply(0, Catch(1))
    assert one(events, ev.UnoCaught) == ev.UnoCaught(0, 1, 2)
    drawn = one(events, ev.CardsDrawn)
    assert (drawn.seat, len(drawn.positions), drawn.reason) == (1, 2, "penalty_uno")
    assert drawn_codes(match, events, 1) == ["b7", "b8"]
    assert codes(match, 1) == ["b7", "b8", "y9"]
    assert match.view(2).seats[1].catchable is False
    assert current(match) == 2  # a catch is out of turn: play goes on
    refused(match, 2, Catch(1), ErrorCode.NOT_CATCHABLE)  # caught once


def test_the_catch_window_closes_at_the_next_players_play() -> None:
    match = _two_left()
    play(match, 1, "r5")
    events = play(match, 2, "r3")
    assert events[0] == ev.CatchWindowClosed((1,))
    assert match.view(0).seats[1].catchable is False
    refused(match, 0, Catch(1), ErrorCode.NOT_CATCHABLE)
    refused(match, 1, CallUno(), ErrorCode.UNO_NOT_ALLOWED)  # no need any more
    assert codes(match, 1) == ["y9"]


def test_the_catch_window_closes_at_the_next_players_draw() -> None:
    match = deal([SEAT0, ["r5", "y9"], ["b3", "g3"]], top="r4", draws=PENALTY)
    play(match, 1, "r5")
    events = match.apply(2, Draw())
    assert events[0] == ev.CatchWindowClosed((1,))
    refused(match, 0, Catch(1), ErrorCode.NOT_CATCHABLE)


def test_the_next_player_may_catch_before_beginning_its_turn() -> None:
    match = _two_left()
    play(match, 1, "r5")
    match.apply(2, Catch(1))
    assert codes(match, 1) == ["b7", "b8", "y9"]
    assert current(match) == 2


def test_other_out_of_turn_actions_do_not_close_the_window() -> None:
    hands = [["y1", "y2"], ["r5", "y9"], ["r6", "y3"]]
    match = deal(hands, top="r4", draws=PENALTY)
    play(match, 1, "r5")  # seat 1 uncalled
    play(match, 2, "r6", uno=True)  # closes seat 1's window, seat 2 called
    assert Catch(1) not in match.legal_actions(0)
    match = deal(hands, top="r4", draws=PENALTY)
    play(match, 1, "r5")
    refused(match, 0, Catch(2), ErrorCode.NOT_CATCHABLE)
    assert Catch(1) in match.legal_actions(0)


def test_a_late_self_call_before_being_caught_is_safe() -> None:
    match = _two_left()
    play(match, 1, "r5")
    events = match.apply(1, CallUno())
    assert events == [ev.UnoCalled(1)]
    assert current(match) == 2
    refused(match, 0, Catch(1), ErrorCode.NOT_CATCHABLE)
    view = match.view(None).seats[1]
    assert (view.uno_called, view.catchable) == (True, False)


def test_the_window_after_a_skip_closes_at_the_first_action_of_the_next_player_to_act() -> None:
    # Reading: the skipped player does not begin a turn; the window stays open until the player
    # after it acts.
    match = deal([["y1", "y2"], ["rS", "y9"], SEAT2], top="r4", draws=PENALTY)
    play(match, 1, "rS")
    assert current(match) == 0
    assert Catch(1) in match.legal_actions(2)
    match.apply(0, Draw())
    assert Catch(1) not in match.legal_actions(2)


def test_the_window_after_a_wild_draw_four_closes_at_the_challenge_decision() -> None:
    match = deal([["y1", "y2"], ["W+4", "y9"], SEAT2], top="r4", draws=PENALTY)
    play(match, 1, "W+4", color=G)
    assert Catch(1) in match.legal_actions(0)
    events = match.apply(2, Accept())
    assert events[0] == ev.CatchWindowClosed((1,))
    assert Catch(1) not in match.legal_actions(0)


def test_holding_one_card_after_a_draw_and_play_is_the_same_position() -> None:
    # Seat 1 holds one card, draws a playable one, plays it: one card left again, uncalled.
    match = deal([["y1"], ["g5"], ["b3"]], top="r4", draws=["r8"])
    match.apply(1, Draw())
    r8 = card(match, 1, "r8")
    assert set(match.legal_actions(1)) >= {Play(r8), Play(r8, uno=True)}
    match.apply(1, Play(r8))
    assert Catch(1) in match.legal_actions(2)


def test_uno_penalty_sets_the_cards_drawn_when_caught() -> None:
    match = _two_left(RuleSet(uno_penalty=4))
    play(match, 1, "r5")
    events = match.apply(2, Catch(1))
    assert one(events, ev.UnoCaught) == ev.UnoCaught(2, 1, 4)
    assert codes(match, 1) == sorted(["y9", *PENALTY])


def test_uno_auto_penalty_applies_when_the_window_closes_uncaught() -> None:
    match = _two_left(RuleSet(uno_auto_penalty=True))
    play(match, 1, "r5")
    events = play(match, 2, "r3")
    assert events[0] == ev.CatchWindowClosed((1,))
    assert events[1] == ev.UnoCaught(None, 1, 2)
    assert drawn_codes(match, events, 1) == ["b7", "b8"]
    assert codes(match, 1) == ["b7", "b8", "y9"]


def test_uno_auto_penalty_spares_a_player_who_called() -> None:
    match = _two_left(RuleSet(uno_auto_penalty=True))
    play(match, 1, "r5", uno=True)
    events = play(match, 2, "r3")
    assert not of_type(events, ev.UnoCaught)
    match = _two_left(RuleSet(uno_auto_penalty=True))
    play(match, 1, "r5")
    match.apply(1, CallUno())
    events = play(match, 2, "r3")
    assert not of_type(events, ev.UnoCaught)
    assert codes(match, 1) == ["y9"]


def test_a_wrong_catch_is_refused_and_costs_nothing_by_default() -> None:
    match = _two_left()
    refused(match, 0, Catch(1), ErrorCode.NOT_CATCHABLE)  # two cards
    play(match, 1, "r5", uno=True)
    refused(match, 0, Catch(1), ErrorCode.NOT_CATCHABLE)  # called
    assert codes(match, 0) == SEAT0


def test_false_catch_penalty_is_not_offered_but_costs_the_catcher_when_tried() -> None:
    match = _two_left(RuleSet(false_catch_penalty=2))
    play(match, 1, "r5", uno=True)
    assert Catch(1) not in match.legal_actions(0)
    events = match.apply(0, Catch(1))
    assert one(events, ev.FalseCatch) == ev.FalseCatch(0, 1, 2)
    drawn = one(events, ev.CardsDrawn)
    assert (drawn.seat, len(drawn.positions), drawn.reason) == (0, 2, "penalty_false_catch")
    assert codes(match, 0) == ["b7", "b8", "y1", "y2"]
    assert codes(match, 1) == ["y9"]
    assert current(match) == 2
    # catching oneself is still refused; a seat that does not exist is unknown_seat
    refused(match, 0, Catch(0), ErrorCode.NOT_CATCHABLE)
    refused(match, 0, Catch(9), ErrorCode.UNKNOWN_SEAT)


def test_a_caught_player_who_draws_is_no_longer_uno() -> None:
    match = _two_left()
    play(match, 1, "r5", uno=True)
    assert match.view(0).seats[1].uno_called is True
    match.penalize(1, 2)
    assert match.view(0).seats[1].uno_called is False


def test_only_seats_at_the_table_may_catch() -> None:
    match = _two_left()
    play(match, 1, "r5")
    assert match.legal_actions(5) == []
    assert match.legal_actions(-2) == []
    refused(match, 5, Catch(1), ErrorCode.UNKNOWN_SEAT)
