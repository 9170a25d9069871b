"""RULEBOOK.md section 4: the No Mercy deck, the rules the variant always plays or starts with
(tests/test_rules_no_mercy_options.py sets those otherwise), and the variant offered to users."""

from __future__ import annotations

from collections import Counter

import pytest
from no_mercy_scenario import NO_MERCY, no_mercy_match

from unonet.cards import CLASSIC_COLORS, Kind
from unonet.errors import ErrorCode
from unonet.match import Match
from unonet.no_mercy_deck import NO_MERCY_DECK_SIZE, no_mercy_manifest
from unonet.rules import RulesError, RuleSet, playable_presets, preset


def test_the_deck_has_168_cards_with_the_fan_wiki_breakdown() -> None:
    deck = no_mercy_manifest()
    assert len(deck) == NO_MERCY_DECK_SIZE == 168
    faces = [card.faces[0] for card in deck]
    assert all(len(card.faces) == 1 for card in deck)
    for color in CLASSIC_COLORS:
        mine = Counter((f.kind, f.number) for f in faces if f.color == color)
        assert all(mine[(Kind.NUMBER, n)] == 2 for n in range(10))
        assert [mine[(k, None)] for k in (
            Kind.SKIP, Kind.REVERSE, Kind.DRAW_TWO, Kind.DRAW_FOUR, Kind.DISCARD_ALL,
            Kind.SKIP_EVERYONE,
        )] == [3, 3, 3, 2, 3, 2]
        assert sum(mine.values()) == 36
    wilds = Counter(f.kind for f in faces if f.color is None)
    assert wilds == {Kind.WILD_REVERSE_DRAW_FOUR: 8, Kind.WILD_DRAW_SIX: 4,
                     Kind.WILD_DRAW_TEN: 4, Kind.WILD_COLOR_ROULETTE: 8}
    assert Kind.WILD not in wilds  # no plain Wild


def test_points_are_face_value_20_for_coloured_actions_50_for_wilds() -> None:
    for face in (card.faces[0] for card in no_mercy_manifest()):
        if face.kind is Kind.NUMBER:
            assert face.points == face.number
        elif face.color is not None:
            assert face.points == 20
        else:
            assert face.is_wild and face.points == 50


def test_the_ids_run_colour_by_colour_then_the_wilds_as_spec_10_says() -> None:
    deck = no_mercy_manifest()
    assert [deck.face(i).code for i in (0, 1, 19, 20, 29, 31, 34, 36)] == [
        "r0", "r0", "r9", "rS", "r+4", "rDA", "rSE", "y0"]
    assert {deck.face(i).kind for i in range(144, 152)} == {Kind.WILD_REVERSE_DRAW_FOUR}
    assert {deck.face(i).kind for i in range(160, 168)} == {Kind.WILD_COLOR_ROULETTE}


def test_the_variant_plays_mattels_rules_unless_told_otherwise() -> None:
    rules = RuleSet().with_options({"variant": "no_mercy"})
    assert (rules.stacking, rules.seven_zero, rules.draw_until_playable,
            rules.draw_when_playable, rules.max_hand, rules.max_hand_penalty,
            rules.max_players) == ("escalating", True, True, "forbidden", 25, 250, 6)
    assert preset("no_mercy") == rules.replace(target=1000)
    assert rules.manifest() is no_mercy_manifest()


@pytest.mark.parametrize(
    ("option", "value"),
    [("stacking", "same_kind"), ("decks", 2), ("colors", 5), ("buzzers", True),
     ("play_after_draw", False), ("max_hand_penalty", "hand"), ("action_finish", False),
     ("max_players", 8), ("flip_passes_hands", True)],
)
def test_an_option_no_mercy_fixes_is_refused_by_name(option: str, value: object) -> None:
    rules = NO_MERCY.replace(**{option: value})
    with pytest.raises(RulesError) as info:
        no_mercy_match(4, b"x", rules)
    assert info.value.option == option
    assert info.value.code is ErrorCode.INVALID_RULES


def test_the_classic_default_of_an_option_no_mercy_fixes_reads_as_no_mercys_own() -> None:
    """The rule set says what is played: off, false or the classic value is No Mercy's."""
    rules = NO_MERCY.replace(draw_when_playable="allowed", max_players=10)
    assert rules == NO_MERCY


def test_options_that_combine_with_no_mercy_are_accepted() -> None:
    rules = NO_MERCY.replace(deflect=True, stack_mix_wild=False, jump_in="identical",
                             uno_penalty=4, scoring="lowest_wins", target=300)
    assert no_mercy_match(3, b"x", rules).rules == rules


def test_two_to_six_players_and_seven_are_refused_by_name() -> None:
    for seats in range(2, 7):
        no_mercy_match(seats, b"x")
    for seats in (1, 7):
        with pytest.raises(RulesError) as info:
            no_mercy_match(seats, b"x")
        assert info.value.option == "max_players"


def test_no_mercy_is_offered_to_users() -> None:
    Match(RuleSet(variant="no_mercy"), 4, b"x").start_round()
    preset("no_mercy").check_playable()
    assert "no_mercy" in playable_presets()
