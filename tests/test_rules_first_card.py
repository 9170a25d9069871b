"""RULEBOOK.md 1.3: the first card turned and what it does (anchors 6.1: only a Wild Draw Four is
redrawn; Skip, Reverse and Draw Two apply; a Wild lets the first player name the colour)."""

from __future__ import annotations

from scenario import (
    B,
    G,
    R,
    Y,
    active_color,
    cards_in_play,
    codes,
    current,
    deal,
    drawn_codes,
    of_type,
    one,
    phase,
    play,
    plays,
    refused,
    top,
)

from unonet import events as ev
from unonet.actions import ChooseColor, Draw
from unonet.cards import Color
from unonet.errors import ErrorCode

HANDS3 = [["r1", "g2", "b3"], ["r4", "g5", "b6"], ["r7", "g8", "b9"]]


def test_a_number_first_card_is_just_matched_by_the_player_left_of_the_dealer() -> None:
    match = deal(HANDS3, top="g3", dealer=0)
    assert current(match) == 1
    assert phase(match) == "turn"
    assert match.round is not None and match.round.direction == 1
    assert active_color(match) is G
    assert plays(match, 1) == {"g5"}
    assert [len(h) for h in match.round.hands] == [3, 3, 3]


def test_a_first_draw_two_makes_the_player_left_of_the_dealer_draw_two_and_lose_the_turn() -> None:
    match = deal(HANDS3, top="r+2", draws=["y1", "y2"], dealer=2)
    # Seat 0 is left of dealer 2: draws y1, y2 and is skipped; seat 1 plays first.
    assert codes(match, 0) == ["b3", "g2", "r1", "y1", "y2"]
    assert current(match) == 1
    assert match.round is not None
    assert [len(h) for h in match.round.hands] == [5, 3, 3]


def test_first_draw_two_events_say_who_drew_and_was_skipped() -> None:
    from stacking import stacked_order

    from unonet.match import Match
    from unonet.rules import RuleSet

    rules = RuleSet(hand_size=3)
    order = stacked_order(rules.manifest(), 0, HANDS3, "b+2", ["y1", "y2"])
    match = Match(rules, 3, b"x", stacked_decks=[order], first_dealer=0)
    events = match.start_round()
    drawn = [e for e in of_type(events, ev.CardsDrawn) if e.reason != "deal"]
    assert [(e.seat, len(e.positions), e.reason) for e in drawn] == [(1, 2, "draw_two")]
    assert drawn_codes(match, events, 1)[-2:] == ["y1", "y2"]
    assert one(events, ev.Skipped) == ev.Skipped(1, "first_card_draw_two")
    assert events[-1] == ev.TurnStarted(2, 1)


def test_a_first_skip_skips_the_player_left_of_the_dealer() -> None:
    match = deal(HANDS3, top="yS", dealer=0)
    assert current(match) == 2
    assert match.round is not None
    assert [len(h) for h in match.round.hands] == [3, 3, 3]
    assert active_color(match) is Y


def test_a_first_reverse_lets_the_dealer_play_first_then_play_goes_right() -> None:
    match = deal(HANDS3, top="rR", dealer=1)
    assert match.round is not None
    assert current(match) == 1  # the dealer
    assert match.round.direction == -1
    play(match, 1, "r4")
    assert current(match) == 0  # to the dealer's right
    play(match, 0, "r1")
    assert current(match) == 2


def test_a_first_reverse_with_two_players_lets_the_dealer_play_first() -> None:
    match = deal([["r1", "g2"], ["r4", "g5"]], top="rR", dealer=0)
    assert current(match) == 0
    play(match, 0, "r1")
    assert current(match) == 1


def test_a_first_wild_lets_the_player_left_of_the_dealer_name_the_colour_then_play() -> None:
    match = deal(HANDS3, top="W", dealer=0)
    assert phase(match) == "choose_color"
    assert current(match) == 1
    assert active_color(match) is None
    view = match.view(1)
    assert view.pending is not None and view.pending.kind == "choose_color"
    assert view.pending.seat == 1
    refused(match, 1, Draw(), ErrorCode.WRONG_PHASE)
    refused(match, 2, ChooseColor(B), ErrorCode.NOT_YOUR_DECISION)
    refused(match, 1, ChooseColor(Color.ORANGE), ErrorCode.COLOR_REQUIRED)  # not in this deck

    events = match.apply(1, ChooseColor(B))
    assert one(events, ev.ColorChosen) == ev.ColorChosen(1, B)
    assert phase(match) == "turn"
    assert current(match) == 1  # the chooser plays too
    assert active_color(match) is B
    assert plays(match, 1) == {"b6"}
    play(match, 1, "b6")
    assert current(match) == 2


def test_a_first_wild_draw_four_goes_back_into_the_deck_which_is_reshuffled() -> None:
    match = deal(HANDS3, top=["W+4", "g7"], dealer=0)
    assert match.round is not None
    rnd = match.round
    assert top(match) != "W+4"
    assert len(rnd.discard) == 1
    # the Wild Draw Four is somewhere in the new draw pile, nothing is lost
    assert "W+4" in {match.manifest.face(c).code for c in rnd.draw_pile}
    assert cards_in_play(match) == 108
    assert rnd.epoch >= 1


def test_first_wild_draw_four_events_reshuffle_face_down_and_turn_another() -> None:
    from stacking import stacked_order

    from unonet.match import Match
    from unonet.rules import RuleSet

    rules = RuleSet(hand_size=3)
    manifest = rules.manifest()
    order = stacked_order(manifest, 0, HANDS3, ["W+4"])
    wd4 = order[9]
    match = Match(rules, 3, b"x", stacked_decks=[order], first_dealer=0)
    events = match.start_round()
    turned = of_type(events, ev.TopCardTurned)
    assert turned[0] == ev.TopCardTurned(wd4, (0, 9))
    reshuffle = one(events, ev.Reshuffled)
    assert reshuffle.reason == "first_card_wild_draw_four"
    assert reshuffle.cards == ()  # the deck was face down: no card is named
    assert reshuffle.epoch == 1
    # The sources are the rest of the deck and the Wild Draw Four: positions 9..107 of epoch 0.
    assert reshuffle.sources == tuple((0, i) for i in range(9, 108))
    assert len(turned) >= 2
    assert events.index(turned[0]) < events.index(reshuffle) < events.index(turned[1])
    assert turned[-1].position[0] >= 1  # turned from the reshuffled pile
    assert match.manifest.face(turned[-1].card).code != "W+4"


def test_only_the_wild_draw_four_is_redrawn() -> None:
    for first in ("r+2", "rS", "rR", "W", "r0"):
        match = deal(HANDS3, top=first, dealer=0)
        assert top(match) == first
        assert match.round is not None and match.round.epoch == 0


def test_a_first_wild_colour_may_be_any_colour_of_the_deck() -> None:
    match = deal(HANDS3, top="W", dealer=2)
    assert current(match) == 0
    assert set(match.legal_actions(0)) == {ChooseColor(c) for c in (R, Y, G, B)}
