"""The lobby's presets keep what was set explicitly and say what they put back (issue 46,
point 5); the rule editor offers only the options of the game the table plays (point 6)."""

from __future__ import annotations

from client.rule_editor import editor_options, game_options, preset_keeping
from unonet.rules import preset


def names(variant: str) -> set[str]:
    return {info.name for info in game_options(variant)}


def test_a_preset_keeps_the_options_set_over_the_last_one() -> None:
    kept, reset = preset_keeping("seed000", {**preset("official").to_dict(), "target": 50},
                                 "official", 2)
    assert kept == {"target": 50} and reset == []


def test_what_the_new_preset_cannot_play_with_goes_back_by_name() -> None:
    rules = {**preset("flip").to_dict(), "target": 50, "flip_passes_hands": True}
    kept, reset = preset_keeping("seed003", rules, "flip", 4)
    assert kept == {"target": 50} and reset == ["flip_passes_hands"]


def test_the_values_a_preset_sets_itself_are_not_explicit() -> None:
    kept, reset = preset_keeping("official", preset("seed003").to_dict(), "seed003", 4)
    assert kept == {} and reset == []


def test_each_game_shows_its_own_options_only() -> None:
    every = {info.name for info in editor_options()}
    assert "flip_passes_hands" not in names("classic") and "flip_passes_hands" in names("flip")
    assert {"decks", "colors", "buzzers"} <= names("classic")
    assert not {"decks", "colors", "buzzers"} & names("flip")
    assert not {"draw_when_playable", "decks"} & names("no_mercy")  # No Mercy's own
    # seed 003: No Mercy's rules stay options
    assert {"stacking", "seven_zero", "draw_until_playable", "max_hand"} <= names("no_mercy")
    for variant in ("classic", "flip", "no_mercy"):
        assert "variant" in names(variant) and names(variant) <= every
