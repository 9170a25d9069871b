"""RULEBOOK.md section 2: the drawing options, and the rule set's validation (an impossible or
unimplemented rule set is refused with a message naming the option)."""

from __future__ import annotations

import pytest
from scenario import card, codes, current, deal, drawn_codes, of_type, one, play, plays, refused

from unonet import events as ev
from unonet import rules as rules_module
from unonet.actions import Draw, Pass, Play
from unonet.cards import Color
from unonet.errors import ErrorCode, RulesError
from unonet.match import Match
from unonet.rules import RuleSet, preset

SEAT0 = ["y1", "y2", "y3"]
SEAT2 = ["g1", "g2", "g3"]


# -- draw_when_playable ---------------------------------------------------------------------------


def test_draw_when_playable_forbidden_refuses_a_draw_while_holding_a_playable_card() -> None:
    rules = RuleSet(draw_when_playable="forbidden")
    match = deal([SEAT0, ["r9", "b6", "y7"], SEAT2], top="r3", rules=rules)
    assert Draw() not in match.legal_actions(1)
    refused(match, 1, Draw(), ErrorCode.CANNOT_DRAW)


def test_draw_when_playable_forbidden_still_lets_a_player_without_a_play_draw() -> None:
    rules = RuleSet(draw_when_playable="forbidden")
    match = deal([SEAT0, ["g9", "b6", "y7"], SEAT2], top="r3", draws=["r8"], rules=rules)
    assert match.legal_actions(1) == [Draw()]
    match.apply(1, Draw())
    assert plays(match, 1) == {"r8"}


# -- play_after_draw ------------------------------------------------------------------------------


def test_play_after_draw_false_passes_the_turn_even_with_a_playable_drawn_card() -> None:
    rules = RuleSet(play_after_draw=False)
    match = deal([SEAT0, ["g9", "b6", "y7"], SEAT2], top="r3", draws=["r8"], rules=rules)
    events = match.apply(1, Draw())
    assert drawn_codes(match, events, 1) == ["r8"]
    assert one(events, ev.Passed) == ev.Passed(1)
    assert current(match) == 2
    assert "r8" in codes(match, 1)


# -- draw_until_playable --------------------------------------------------------------------------


def test_draw_until_playable_draws_until_a_playable_card_then_may_play_it() -> None:
    rules = RuleSet(draw_until_playable=True)
    match = deal(
        [SEAT0, ["g9", "b6", "y7"], SEAT2], top="r3", draws=["b1", "y4", "g8", "r7"], rules=rules
    )
    events = match.apply(1, Draw())
    assert drawn_codes(match, events, 1) == ["b1", "y4", "g8", "r7"]
    assert not of_type(events, ev.Passed)
    r7 = card(match, 1, "r7")
    assert match.legal_actions(1) == [Play(r7), Pass()]
    play(match, 1, "r7")
    assert current(match) == 2


def test_draw_until_playable_stops_at_a_wild() -> None:
    rules = RuleSet(draw_until_playable=True)
    match = deal([SEAT0, ["g9", "b6", "y7"], SEAT2], top="r3", draws=["b1", "W"], rules=rules)
    match.apply(1, Draw())
    assert plays(match, 1) == {"W"}


def test_draw_until_playable_may_keep_the_card_by_passing() -> None:
    rules = RuleSet(draw_until_playable=True)
    match = deal([SEAT0, ["g9", "b6", "y7"], SEAT2], top="r3", draws=["b1", "r2"], rules=rules)
    match.apply(1, Draw())
    match.apply(1, Pass())
    assert codes(match, 1) == ["b1", "b6", "g9", "r2", "y7"]
    assert current(match) == 2


# -- max_draws_per_turn ---------------------------------------------------------------------------


def test_max_draws_per_turn_lets_a_player_draw_again_after_an_unplayable_card() -> None:
    rules = RuleSet(max_draws_per_turn=3)
    match = deal(
        [SEAT0, ["g9", "b6", "y7"], SEAT2], top="r3", draws=["b1", "y4", "g8", "r8"], rules=rules
    )
    match.apply(1, Draw())
    assert current(match) == 1
    assert match.legal_actions(1) == [Draw(), Pass()]
    match.apply(1, Draw())
    events = match.apply(1, Draw())
    assert drawn_codes(match, events, 1) == ["g8"]
    assert one(events, ev.Passed) == ev.Passed(1)  # the third draw was the last allowed
    assert current(match) == 2


def test_max_draws_per_turn_stops_at_a_playable_drawn_card() -> None:
    rules = RuleSet(max_draws_per_turn=3)
    match = deal([SEAT0, ["g9", "b6", "y7"], SEAT2], top="r3", draws=["r8", "b1"], rules=rules)
    match.apply(1, Draw())
    r8 = card(match, 1, "r8")
    assert match.legal_actions(1) == [Play(r8), Pass()]


def test_max_draws_per_turn_keeps_the_drawn_card_lock() -> None:
    # Seat 1 holds a playable r9 but draws anyway; after drawing, r9 may not be played.
    rules = RuleSet(max_draws_per_turn=3)
    match = deal([SEAT0, ["r9", "b6", "y7"], SEAT2], top="r3", draws=["b1", "r8"], rules=rules)
    match.apply(1, Draw())  # b1: not playable
    assert plays(match, 1) == set()
    refused(match, 1, Play(card(match, 1, "r9")), ErrorCode.MUST_PLAY_DRAWN_CARD)
    assert match.legal_actions(1) == [Draw(), Pass()]
    match.apply(1, Draw())  # r8: playable
    assert plays(match, 1) == {"r8"}


# -- validation -----------------------------------------------------------------------------------


def test_too_many_cards_dealt_is_refused_naming_hand_size() -> None:
    with pytest.raises(RulesError) as info:
        Match(RuleSet(hand_size=11), 10, b"x")
    assert info.value.option == "hand_size"
    assert info.value.code is ErrorCode.INVALID_RULES
    assert "hand_size" in str(info.value)
    Match(RuleSet(hand_size=10), 10, b"x")  # 100 dealt, a first card and draws left
    Match(RuleSet(hand_size=11, decks=2), 10, b"x")


def test_a_table_outside_the_seat_limits_is_refused_naming_max_players() -> None:
    for seats in (1, 11):
        with pytest.raises(RulesError) as info:
            Match(RuleSet(), seats, b"x")
        assert info.value.option == "max_players"
    with pytest.raises(RulesError) as info:
        Match(RuleSet(max_players=4), 5, b"x")
    assert info.value.option == "max_players"


@pytest.mark.parametrize(
    ("option", "value"),
    [("hand_size", 0), ("hand_size", 21), ("uno_penalty", 11), ("wd4_policy", "sometimes"),
     ("max_draws_per_turn", 0), ("challenge_guilty_extra", 3), ("colors", 9)],
)
def test_out_of_range_options_are_refused_by_name(option: str, value: object) -> None:
    with pytest.raises(RulesError) as info:
        RuleSet().replace(**{option: value})
    assert info.value.option == option
    assert info.value.code is ErrorCode.INVALID_RULES


def test_a_value_the_engine_does_not_play_is_refused_with_not_implemented(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every value is played today; an engine without one (No Mercy, say) refuses it by name."""
    monkeypatch.setitem(rules_module._IMPLEMENTED, "variant", frozenset({"classic", "flip"}))
    with pytest.raises(RulesError) as info:
        Match(RuleSet(variant="no_mercy"), 4, b"x")
    assert info.value.option == "variant"
    assert info.value.code is ErrorCode.NOT_IMPLEMENTED


def test_an_unknown_option_is_refused_by_name() -> None:
    with pytest.raises(RulesError) as info:
        RuleSet().replace(jump_out=True)
    assert info.value.option == "jump_out"


def test_the_official_preset_is_the_default_rule_set() -> None:
    assert preset("official") == RuleSet()
    assert RuleSet().differences() == {}


def test_extra_colours_can_be_named_by_a_wild() -> None:
    rules = RuleSet(colors=5)
    match = deal([SEAT0, ["W", "b6", "y7"], SEAT2], top="r3", rules=rules)
    play(match, 1, "W", color=Color.ORANGE)
    assert match.round is not None and match.round.active_color is Color.ORANGE
