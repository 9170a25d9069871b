"""RULEBOOK.md 1.11 (the table owner's penalty: a seat draws N cards) and the host's expiry
defaults (think_time; DESIGN.md: the engine has no clock): in a turn, draw one card and pass;
in a challenge decision, accept; when a colour is due, name one."""

from __future__ import annotations

from scenario import (
    B,
    G,
    R,
    Y,
    card,
    codes,
    current,
    deal,
    drawn_codes,
    one,
    phase,
    play,
    refused,
    top,
)

from unonet import events as ev
from unonet.actions import HOST, Catch, ChooseColor, Draw, Expire, Penalize, Play, StartRound
from unonet.errors import ErrorCode
from unonet.match import Match
from unonet.rules import RuleSet

SEAT0 = ["y1", "y2", "y3"]
SEAT2 = ["g1", "g2", "g3"]


# -- the table owner's penalty ------------------------------------------------------------------


def test_the_table_owner_penalizes_a_seat_with_n_cards() -> None:
    match = deal([SEAT0, ["r9", "b6", "y7"], SEAT2], top="r3", draws=["b1", "b2", "b3"])
    events = match.penalize(2, 3)
    assert events[0] == ev.Penalized(2, 3)
    drawn = one(events, ev.CardsDrawn)
    assert (drawn.seat, len(drawn.positions), drawn.reason) == (2, 3, "penalty_moderation")
    assert drawn_codes(match, events, 2) == ["b1", "b2", "b3"]
    assert current(match) == 1  # play is not disturbed
    assert match.log[-1] == (HOST, Penalize(2, 3))


def test_the_default_moderation_penalty_is_two_cards() -> None:
    match = deal([SEAT0, ["r9", "b6", "y7"], SEAT2], top="r3")
    match.penalize(0)
    assert len(codes(match, 0)) == 5


def test_a_penalty_is_refused_outside_its_limits_and_changes_nothing() -> None:
    match = deal([SEAT0, ["r9", "b6", "y7"], SEAT2], top="r3")
    refused(match, HOST, Penalize(5, 2), ErrorCode.UNKNOWN_SEAT)
    refused(match, HOST, Penalize(0, 0), ErrorCode.ACTION_NOT_ALLOWED)
    refused(match, HOST, Penalize(0, 11), ErrorCode.ACTION_NOT_ALLOWED)
    refused(match, 0, Penalize(2, 2), ErrorCode.ACTION_NOT_ALLOWED)  # only the host
    refused(match, 1, Expire(), ErrorCode.ACTION_NOT_ALLOWED)
    refused(match, HOST, StartRound(), ErrorCode.WRONG_PHASE)


# -- expiry ---------------------------------------------------------------------------------------


def test_expiry_in_a_turn_draws_one_card_and_passes() -> None:
    match = deal([SEAT0, ["r9", "b6", "y7"], SEAT2], top="r3", draws=["r8"])
    assert match.legal_actions(HOST) == [Expire()]
    events = match.expire()
    assert events[0] == ev.Expired(1, "turn")
    assert drawn_codes(match, events, 1) == ["r8"]  # kept even though playable
    assert one(events, ev.Passed) == ev.Passed(1)
    assert events[-1] == ev.TurnStarted(2, 1)
    assert top(match) == "r3"


def test_expiry_after_drawing_only_passes() -> None:
    match = deal([SEAT0, ["g9", "b6", "y7"], SEAT2], top="r3", draws=["r8"])
    match.apply(1, Draw())
    events = match.expire()
    assert events == [ev.Expired(1, "turn"), ev.Passed(1), ev.TurnStarted(2, 1)]
    assert len(codes(match, 1)) == 4


def test_expiry_of_a_challenge_decision_accepts_the_wild_draw_four() -> None:
    match = deal([SEAT0, ["W+4", "r5", "b6"], SEAT2], top="r3", draws=["b1", "b2", "b3", "b4"])
    play(match, 1, "W+4", color=B)
    events = match.expire()
    assert events[0] == ev.Expired(2, "challenge")
    assert drawn_codes(match, events, 2) == ["b1", "b2", "b3", "b4"]
    assert one(events, ev.Skipped) == ev.Skipped(2, "wild_draw_four")
    assert current(match) == 0
    assert match.round is not None and match.round.active_color is B


def test_expiry_of_a_colour_choice_names_the_colour_held_most() -> None:
    match = deal([SEAT0, ["g4", "g5", "b6"], SEAT2], top="W")
    events = match.expire()
    assert events[0] == ev.Expired(1, "choose_color")
    assert one(events, ev.ColorChosen) == ev.ColorChosen(1, G)
    assert phase(match) == "turn"
    assert current(match) == 1  # the chooser still plays
    refused(match, 1, ChooseColor(R), ErrorCode.WRONG_PHASE)


def test_expiry_names_a_colour_of_the_deck_even_holding_only_wilds() -> None:
    match = deal([SEAT0, ["W", "W+4", "W"], SEAT2], top="W")
    events = match.expire()
    assert one(events, ev.ColorChosen).color in (R, Y, G, B)


def test_expiry_between_rounds_is_refused() -> None:
    hands = [["r7", "y9"], ["r5", "r8"], ["r6", "W+4"]]
    match = deal(hands, top="r3")
    play(match, 1, "r5", uno=True)
    play(match, 2, "r6", uno=True)
    play(match, 0, "r7", uno=True)
    play(match, 1, "r8")
    assert match.legal_actions(HOST) == [StartRound()]
    refused(match, HOST, Expire(), ErrorCode.ROUND_OVER)
    refused(match, HOST, Penalize(0, 2), ErrorCode.ROUND_OVER)


def test_expiry_draws_even_where_a_voluntary_draw_is_forbidden() -> None:
    # draw_when_playable=forbidden governs the player's choice; a slow player still draws
    # (RULEBOOK.md think_time: on expiry the player draws a card and the turn passes).
    rules = RuleSet(draw_when_playable="forbidden")
    match = deal([SEAT0, ["r9", "b6", "y7"], SEAT2], top="r3", draws=["g8"], rules=rules)
    assert Draw() not in match.legal_actions(1)
    events = match.expire()
    assert drawn_codes(match, events, 1) == ["g8"]
    assert one(events, ev.Passed) == ev.Passed(1)
    assert current(match) == 2


def test_the_log_replays_a_scenario_to_the_same_state() -> None:
    match = deal([SEAT0, ["W+4", "r5", "b6"], SEAT2], top="r3", draws=["b1", "b2", "b3", "b4"])
    play(match, 1, "W+4", color=B)
    match.expire()
    match.penalize(1, 2)
    again = Match.replay(
        match.rules, match.seats, match.seed, match.log,
        stacked_decks=match.stacked_decks, first_dealer=match.first_dealer,
    )
    assert again.state() == match.state()
    assert again.log == match.log


# -- a listing is trusted only until the state changes ---------------------------------------------


def test_an_action_listed_before_an_expiry_is_judged_again_after_it() -> None:
    """`apply` accepts an action taken from the last listing without judging it again; the
    host's expiry changes the state, so the listing taken before it is no longer trusted."""
    match = deal([SEAT0, ["r9", "b6", "y7"], SEAT2], top="r3", draws=["r8"])
    listed = match.legal_actions(1)
    play_r9 = next(a for a in listed if isinstance(a, Play) and a.card == card(match, 1, "r9"))
    match.expire()  # seat 1 drew and passed
    refused(match, 1, play_r9, ErrorCode.NOT_YOUR_TURN)


def test_a_catch_listed_before_a_penalty_is_judged_again_after_it() -> None:
    match = deal([["y1", "y2"], ["r9", "r8"], ["g1", "g2"]], top="r3")
    play(match, 1, "r9")  # the next-to-last card, without UNO: seat 1 may be caught
    assert Catch(1) in match.legal_actions(2)
    listed_catch = next(a for a in match.legal_actions(2) if a == Catch(1))
    match.penalize(1, 2)  # seat 1 holds three cards now: nothing to catch
    refused(match, 2, listed_catch, ErrorCode.NOT_CATCHABLE)
