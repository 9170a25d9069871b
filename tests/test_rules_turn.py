"""RULEBOOK.md 1.4: a turn. Match the top card's colour (the named colour after a wild), number or
symbol, or play a Wild; otherwise draw one card, play it at once if it is playable, else the
turn passes. A player may draw instead of playing; after drawing only the drawn card may be
played (anchors 6.5, the drawn-card lock). Refused actions change nothing."""

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
    of_type,
    one,
    play,
    plays,
    refused,
    top,
)

from unonet import events as ev
from unonet.actions import Accept, CallUno, Challenge, ChooseColor, Draw, Pass, Play
from unonet.errors import ErrorCode

# Seat 1 plays first (dealer 0).
OTHERS = ["r1", "g2", "b3"]


def test_a_card_of_the_same_colour_may_be_played() -> None:
    match = deal([OTHERS, ["r9", "g5", "b6"], OTHERS], top="r3")
    assert plays(match, 1) == {"r9"}
    events = play(match, 1, "r9")
    played = one(events, ev.CardPlayed)
    assert (played.seat, played.color, played.uno) == (1, None, False)
    assert top(match) == "r9"
    assert current(match) == 2
    assert codes(match, 1) == ["b6", "g5"]


def test_a_card_of_the_same_number_in_another_colour_may_be_played() -> None:
    match = deal([OTHERS, ["g3", "y4", "b6"], OTHERS], top="r3")
    assert plays(match, 1) == {"g3"}
    play(match, 1, "g3")
    assert match.round is not None and match.round.active_color is G


def test_a_card_of_the_same_symbol_in_another_colour_may_be_played() -> None:
    symbols = ["gS", "gR", "g+2"]
    match = deal([OTHERS, symbols, OTHERS], top="r4")
    assert plays(match, 1) == set()
    # A first Skip skips seat 1: seat 2 plays first.
    match = deal([OTHERS, OTHERS, symbols], top="rS")
    assert plays(match, 2) == {"gS"}
    # A first Reverse: the dealer plays first.
    match = deal([symbols, OTHERS, OTHERS], top="rR")
    assert plays(match, 0) == {"gR"}
    # A first Draw Two: seat 1 draws two and is skipped.
    match = deal([OTHERS, OTHERS, symbols], top="r+2", draws=["y1", "y2"])
    assert plays(match, 2) == {"g+2"}


def test_a_number_does_not_match_a_symbol_and_zero_is_a_number() -> None:
    match = deal([OTHERS, ["g0", "gS", "b6"], OTHERS], top="r0")
    assert plays(match, 1) == {"g0"}


def test_a_wild_may_be_played_on_anything_and_names_the_colour() -> None:
    match = deal([OTHERS, ["W", "g5", "b6"], OTHERS], top="r3")
    assert plays(match, 1) == {"W"}
    wild = card(match, 1, "W")
    assert {a for a in match.legal_actions(1) if isinstance(a, Play)} == {
        Play(wild, color) for color in (R, Y, G, B)
    }
    events = play(match, 1, "W", color=B)
    assert one(events, ev.CardPlayed).color is B
    assert match.round is not None and match.round.active_color is B
    # the next player matches the named colour, not the Wild
    assert plays(match, 2) == {"b3"}


def test_after_a_wild_the_named_colour_is_matched_and_not_the_card_below() -> None:
    match = deal([OTHERS, ["W", "g5", "b6"], ["r9", "y3", "g7"]], top="r3")
    play(match, 1, "W", color=Y)
    assert plays(match, 2) == {"y3"}  # neither r9 (colour below) nor a number 3 on a Wild


def test_a_player_without_a_playable_card_draws_one_and_the_turn_passes() -> None:
    match = deal([OTHERS, ["g5", "b6", "y7"], OTHERS], top="r3", draws=["y9"])
    assert match.legal_actions(1) == [Draw()]
    events = match.apply(1, Draw())
    assert drawn_codes(match, events, 1) == ["y9"]
    drawn = one(events, ev.CardsDrawn)
    assert (drawn.seat, len(drawn.positions), drawn.reason) == (1, 1, "draw")
    assert one(events, ev.Passed) == ev.Passed(1)
    assert events[-1] == ev.TurnStarted(2, 1)
    assert codes(match, 1) == ["b6", "g5", "y7", "y9"]


def test_a_playable_drawn_card_may_be_played_at_once() -> None:
    match = deal([OTHERS, ["g5", "b6", "y7"], OTHERS], top="r3", draws=["r8"])
    events = match.apply(1, Draw())
    assert not of_type(events, ev.Passed)
    assert current(match) == 1
    r8 = card(match, 1, "r8")
    assert match.view(1).drawn_card == r8
    assert match.view(2).drawn_card is None  # nobody else learns which card it was
    assert match.legal_actions(1) == [Play(r8), Pass()]
    play(match, 1, "r8")
    assert top(match) == "r8"
    assert current(match) == 2


def test_a_playable_drawn_card_may_be_kept_by_passing() -> None:
    match = deal([OTHERS, ["g5", "b6", "y7"], OTHERS], top="r3", draws=["r8"])
    match.apply(1, Draw())
    events = match.apply(1, Pass())
    assert events == [ev.Passed(1), ev.TurnStarted(2, 1)]
    assert "r8" in codes(match, 1)
    assert top(match) == "r3"


def test_a_player_may_draw_instead_of_playing_a_playable_card() -> None:
    match = deal([OTHERS, ["r9", "b6", "y7"], OTHERS], top="r3", draws=["g1"])
    assert Draw() in match.legal_actions(1)
    match.apply(1, Draw())
    assert current(match) == 2  # g1 was not playable: the turn passed
    assert codes(match, 1) == ["b6", "g1", "r9", "y7"]


def test_after_drawing_only_the_drawn_card_may_be_played() -> None:
    match = deal([OTHERS, ["r9", "b6", "y7"], OTHERS], top="r3", draws=["r2"])
    match.apply(1, Draw())
    assert plays(match, 1) == {"r2"}
    refused(match, 1, Play(card(match, 1, "r9")), ErrorCode.MUST_PLAY_DRAWN_CARD)
    refused(match, 1, Draw(), ErrorCode.CANNOT_DRAW)


def test_a_pass_is_only_allowed_after_drawing() -> None:
    match = deal([OTHERS, ["r9", "b6", "y7"], OTHERS], top="r3")
    assert Pass() not in match.legal_actions(1)
    refused(match, 1, Pass(), ErrorCode.CANNOT_PASS)


def test_only_the_current_player_may_act_in_turn() -> None:
    match = deal([["r4", "g2", "b3"], ["r9", "b6", "y7"], ["r5", "g6", "b7"]], top="r3")
    assert match.legal_actions(0) == []
    assert match.legal_actions(2) == []
    refused(match, 2, Play(card(match, 2, "r5")), ErrorCode.NOT_YOUR_TURN)
    refused(match, 0, Draw(), ErrorCode.NOT_YOUR_TURN)


def test_refused_plays_carry_the_right_error_and_leave_the_state_unchanged() -> None:
    match = deal([["r4", "g2", "b3", "y1"], ["r9", "b6", "W", "W+4"], [*OTHERS, "y2"]], top="r3")
    refused(match, 1, Play(card(match, 0, "r4")), ErrorCode.CARD_NOT_IN_HAND)
    refused(match, 1, Play(card(match, 1, "b6")), ErrorCode.ILLEGAL_CARD)
    refused(match, 1, Play(card(match, 1, "W")), ErrorCode.COLOR_REQUIRED)
    refused(match, 1, Play(card(match, 1, "r9"), color=B), ErrorCode.COLOR_NOT_ALLOWED)
    refused(match, 1, Play(card(match, 1, "r9"), uno=True), ErrorCode.UNO_NOT_ALLOWED)
    refused(match, 1, Play(card(match, 1, "W"), color=B, uno=True), ErrorCode.UNO_NOT_ALLOWED)
    refused(match, 1, Play(card(match, 1, "W+4"), color=B, uno=True), ErrorCode.UNO_NOT_ALLOWED)
    refused(match, 1, Play(card(match, 1, "r9"), also=(card(match, 1, "b6"),)),
            ErrorCode.ACTION_NOT_ALLOWED)
    refused(match, 1, ChooseColor(R), ErrorCode.WRONG_PHASE)
    refused(match, 1, Challenge(), ErrorCode.NOTHING_TO_CHALLENGE)
    refused(match, 1, Accept(), ErrorCode.NOTHING_TO_CHALLENGE)
    refused(match, 1, CallUno(), ErrorCode.UNO_NOT_ALLOWED)
    refused(match, 7, Draw(), ErrorCode.UNKNOWN_SEAT)



def test_a_seat_sees_its_own_hand_and_only_counts_of_the_others() -> None:
    match = deal([["r4", "g2", "b3"], ["r9", "b6", "y7"], ["r5", "g6", "b7"]], top="r3")
    assert match.round is not None
    for seat in range(3):
        view = match.view(seat)
        assert view.hand == tuple(match.round.hands[seat])
        assert [s.cards for s in view.seats] == [3, 3, 3]
        assert view.current == 1 and view.phase == "turn"
        assert view.top_card == match.round.top and view.active_color is R
    spectator = match.view(None)
    assert spectator.hand == ()
    assert spectator.draw_pile == 108 - 9 - 1
    assert spectator.discard_pile == 1
