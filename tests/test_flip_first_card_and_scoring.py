"""RULEBOOK.md section 3: UNO Flip's first card (always on the light side) and scoring by the
side the round ends on. Dealer 0 and three seats: seat 1 is left of the dealer."""

from __future__ import annotations

from flip_scenario import card, flip_deal, name, side, top
from scenario import of_type, one

from unonet import events as ev
from unonet.actions import Accept, ChooseColor, Draw, Play
from unonet.cards import Color, Kind
from unonet.events import Flipped
from unonet.flip_deck import DARK, LIGHT
from unonet.match import Match

HANDS = [["yellow 1", "yellow 2"], ["green 1", "green 2"], ["blue 1", "blue 2"]]


def current(match: Match) -> int:
    assert match.round is not None
    return match.round.current


# -- the first card ------------------------------------------------------------------------------


def test_a_first_draw_one_makes_the_first_player_draw_one_and_lose_the_turn() -> None:
    match = flip_deal(HANDS, top="red Draw One", draws=["green 9"])
    assert match.round is not None
    assert len(match.round.hands[1]) == 3
    assert current(match) == 2


def test_a_first_skip_skips_the_first_player() -> None:
    assert current(flip_deal(HANDS, top="red Skip")) == 2


def test_a_first_reverse_lets_the_dealer_play_first_then_play_goes_right() -> None:
    match = flip_deal(HANDS, top="red Reverse")
    assert match.round is not None
    assert (current(match), match.round.direction) == (0, -1)


def test_a_first_wild_lets_the_first_player_name_a_light_colour_and_play() -> None:
    match = flip_deal(HANDS, top="Wild")
    assert match.round is not None and match.round.phase.value == "choose_color"
    match.apply(1, ChooseColor(Color.BLUE))
    assert current(match) == 1


def test_a_first_wild_draw_two_goes_back_into_the_deck_and_another_is_turned() -> None:
    match = flip_deal(HANDS, top="Wild Draw Two", dealer=0)
    assert match.round is not None
    assert match.round.face(match.round.top).kind is not Kind.WILD_DRAW_TWO
    assert match.round.epoch >= 1  # reshuffled: "first_card_wild_draw_two"
    assert len(match.round.discard) == 1


def test_a_first_flip_is_inert_its_colour_or_a_flip_is_matched() -> None:
    hands = [["yellow 1", "yellow 2"], ["green Flip", "red 7"], ["blue 1", "blue 2"]]
    match = flip_deal(hands, top="red Flip")
    assert (side(match), top(match), current(match)) == (LIGHT, "red Flip", 1)
    plays = {name(match, a.card) for a in match.legal_actions(1) if isinstance(a, Play)}
    assert plays == {"green Flip", "red 7"}


# -- scoring -------------------------------------------------------------------------------------


def test_a_round_that_ends_on_the_light_side_scores_light_faces() -> None:
    match = flip_deal(
        [["yellow 1/purple Skip Everyone", "Wild Draw Two/Wild Draw Color"], ["red 7", "red 8"]],
        top="red 3", draws=["green 9/pink 9"],
    )
    match.apply(1, Play(card(match, 1, "red 7"), uno=True))
    match.apply(0, Draw())  # green 9 does not play on red 7: the turn passes
    events = match.apply(1, Play(card(match, 1, "red 8")))
    ended = one(events, ev.RoundEnded)
    assert ended.points[1] == 1 + 50 + 9  # yellow 1, Wild Draw Two, green 9


def test_a_round_that_ends_on_the_dark_side_scores_dark_faces() -> None:
    hands = [["green 2/purple Skip Everyone", "yellow 4/Wild Draw Color"],
             ["red Flip", "blue 1/orange 7"]]
    match = flip_deal(hands, top="red 3/orange 4", after_flip=["green 9/cyan 1"])
    match.apply(1, Play(card(match, 1, "red Flip"), uno=True))
    assert side(match) == DARK
    match.apply(0, Draw())  # cyan 1 does not play on orange 4: the turn passes
    events = match.apply(1, Play(card(match, 1, "orange 7")))
    ended = one(events, ev.RoundEnded)
    assert ended.points[1] == 30 + 60 + 1  # Skip Everyone, Wild Draw Color, cyan 1


def test_a_last_wild_draw_color_is_still_drawn_and_the_cards_count() -> None:
    hands = [["green 2/purple 2", "yellow 4/purple 3"], ["red Flip", "blue 1/Wild Draw Color"]]
    match = flip_deal(hands, top="red 3/orange 4",
                      after_flip=["green 9/cyan 1", "green 8/pink 5", "green 7/orange 5"])
    match.apply(1, Play(card(match, 1, "red Flip"), uno=True))
    match.apply(0, Draw())  # cyan 1 does not play on orange 4: the turn passes
    match.apply(1, Play(card(match, 1, "Wild Draw Color"), Color.ORANGE))
    events = match.apply(0, Accept())
    assert [name(match, c) for e in of_type(events, ev.CardsReceived) for c in e.cards] == [
        "pink 5", "orange 5"
    ]
    ended = one(events, ev.RoundEnded)
    assert ended.winner == 1
    assert ended.points[1] == 2 + 3 + 1 + 5 + 5


def test_a_flip_as_the_last_card_ends_the_round_on_the_side_it_was_played_on() -> None:
    hands = [["green 2/purple Skip Everyone", "yellow 4/purple 3"], ["red Flip", "red 8"]]
    match = flip_deal(hands, top="red 3", draws=["green 9/pink 9"])
    match.apply(1, Play(card(match, 1, "red 8"), uno=True))
    match.apply(0, Draw())  # green 9 does not play on red 8: the turn passes
    events = match.apply(1, Play(card(match, 1, "red Flip")))
    assert not of_type(events, Flipped)  # the round is over first (choice)
    assert side(match) == LIGHT
    assert one(events, ev.RoundEnded).points[1] == 2 + 4 + 9
