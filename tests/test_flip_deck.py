"""RULEBOOK.md section 3: UNO Flip's 112 double-sided cards, their pairing fixed per game from
the seed, and the options that combine with Flip or that the rule set refuses by name."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from flip_scenario import FLIP_RULES, flip_match

from unonet.cards import CLASSIC_COLORS, EXTRA_COLORS, Color, Face, Kind
from unonet.errors import ErrorCode, RulesError
from unonet.flip_deck import (
    DARK,
    LIGHT,
    dark_faces,
    flip_manifest,
    light_faces,
    light_manifest,
    round_manifest,
)
from unonet.match import Match
from unonet.rules import RuleSet, playable_presets, preset


def test_the_deck_has_112_cards_each_with_a_light_and_a_dark_face() -> None:
    deck = flip_manifest(b"seed")
    assert len(deck) == 112
    assert all(len(card.faces) == 2 for card in deck)
    assert [card.faces[LIGHT] for card in deck] == list(light_faces())
    assert Counter(card.faces[DARK] for card in deck) == Counter(dark_faces())


@pytest.mark.parametrize(
    ("faces", "colors", "actions", "wilds"),
    [
        (light_faces(), CLASSIC_COLORS, (Kind.DRAW_ONE, Kind.REVERSE, Kind.SKIP, Kind.FLIP),
         (Kind.WILD, Kind.WILD_DRAW_TWO)),
        (dark_faces(), EXTRA_COLORS, (Kind.DRAW_FIVE, Kind.REVERSE, Kind.SKIP_EVERYONE, Kind.FLIP),
         (Kind.WILD, Kind.WILD_DRAW_COLOR)),
    ],
    ids=["light", "dark"],
)
def test_each_side_has_1_to_9_twice_and_two_of_each_action_per_colour_and_eight_wilds(
    faces: tuple[Face, ...], colors: tuple[Color, ...], actions: tuple[Kind, ...],
    wilds: tuple[Kind, ...],
) -> None:
    counts = Counter((f.kind, f.color, f.number) for f in faces)
    expected: Counter[tuple[Kind, Color | None, int | None]] = Counter()
    for color in colors:
        for number in range(1, 10):  # no zeros on either side
            expected[(Kind.NUMBER, color, number)] = 2
        for kind in actions:
            expected[(kind, color, None)] = 2
    for kind in wilds:
        expected[(kind, None, None)] = 4
    assert counts == expected
    assert len(faces) == 112


def test_which_dark_face_backs_which_light_face_is_dealt_afresh_each_round_from_its_key() -> None:
    first = round_manifest(b"k" * 32)
    assert round_manifest(b"k" * 32) == first  # reproducible: the audit re-derives it
    assert round_manifest(b"j" * 32).cards != first.cards  # another round, another pairing
    match = Match(FLIP_RULES, 3, b"one")
    match.start_round()
    assert match.round is not None
    key = match.round.key
    assert match.round.manifest == round_manifest(key)
    match2 = Match(FLIP_RULES, 3, b"one")
    match2.start_round()
    assert match2.state() == match.state()


def test_the_public_manifest_names_light_faces_only() -> None:
    data = Match(FLIP_RULES, 3, b"x").manifest.to_dict()
    assert data["name"] == "flip"
    assert all(len(card) == 1 for card in data["cards"])
    assert [card[0] for card in data["cards"]] == [face.to_dict() for face in light_faces()]
    assert light_manifest().to_dict() == data


# -- Flip is offered ---------------------------------------------------------------------------


def test_variant_flip_is_offered_to_users_and_the_host() -> None:
    Match(FLIP_RULES, 4, b"x").start_round()
    preset("flip").check_playable()
    assert "flip" in playable_presets()


def test_the_tests_build_flip_matches_with_their_own_pairing() -> None:
    match = flip_match(4, b"x")
    match.start_round()
    assert match.round is not None and match.round.side == LIGHT
    with pytest.raises(ValueError):
        flip_match(4, b"x", RuleSet())


# -- options -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "options",
    [
        {"stacking": "same_kind"},
        {"stacking": "escalating", "deflect": True},
        {"jump_in": "identical"},
        {"jump_in": "same_face"},
        {"seven_zero": True},
        {"sequences": True, "multiples": True},
        {"uno_penalty": 4, "uno_auto_penalty": True, "false_catch_penalty": 2},
        {"think_time": 30},
        {"scoring": "elimination"},
        {"scoring": "lowest_wins", "max_rounds": 3},
        {"teams": "pairs"},
        {"max_hand": 25},
        {"wd4_policy": "enforce", "challenge_guilty_extra": 2},
        {"flip_passes_hands": True},
        {"draw_until_playable": True, "draw_when_playable": "forbidden"},
    ],
)
def test_options_that_make_sense_combine_with_flip(options: dict[str, Any]) -> None:
    match = flip_match(4, b"x", FLIP_RULES.replace(**options))
    match.start_round()


@pytest.mark.parametrize(
    ("option", "value"), [("colors", 6), ("decks", 2), ("buzzers", True)]
)
def test_options_flip_excludes_are_refused_by_name(option: str, value: object) -> None:
    with pytest.raises(RulesError) as info:
        flip_match(4, b"x", FLIP_RULES.replace(**{option: value}))
    assert info.value.option == option
    assert info.value.code is ErrorCode.INVALID_RULES


def test_flip_passes_hands_without_flip_is_refused_by_name() -> None:
    rules = RuleSet(flip_passes_hands=True)
    with pytest.raises(RulesError) as info:
        Match(rules, 4, b"x")
    assert (info.value.option, info.value.code) == ("flip_passes_hands", ErrorCode.INVALID_RULES)
