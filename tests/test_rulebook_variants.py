"""`unonet rules flip` and `unonet rules no_mercy` say only what is true of the variant: no
sentence names a card its deck lacks (the names come from the deck and unonet/words.py, in each
language), No Mercy says nothing of challenges, and what does apply is still said, in the
variant's card names."""

from __future__ import annotations

import re
from typing import Any

import pytest

from unonet.cards import CHALLENGEABLE_KINDS, DRAW_AMOUNTS, DeckManifest, Kind
from unonet.flip_deck import flip_manifest
from unonet.no_mercy_deck import MERCY_LIMIT, NO_MERCY_MAX_PLAYERS
from unonet.rulebook import (
    LANGUAGES,
    applicable_choices,
    choice_text,
    describe_rules,
    option_meaning,
    option_statement,
    option_title,
)
from unonet.rulebook_text import CHOICES, OPTION_WORDS
from unonet.rulebook_variants import (
    CHOICE_PARTS,
    CHOICE_TITLES,
    MEANINGS,
    OPTION_TITLES,
    STATEMENTS,
    VALUES,
)
from unonet.rules import OPTIONS, RulesError, RuleSet, preset
from unonet.words import CARD_WORDS

VARIANTS = ("flip", "no_mercy")

# Options that shape which sentences are said, in the combinations a table may play.
_COMBINATIONS: tuple[dict[str, Any], ...] = (
    {},
    {"stacking": "same_kind"},
    {"stacking": "escalating"},
    {"stacking": "escalating", "deflect": True},
    {"stacking": "escalating", "stack_mix_wild": False},
    {"stacking": "same_kind", "wd4_policy": "challenge", "jump_in": "same_face"},
    {"deflect": True},
    {"wd4_policy": "enforce"},
    {"wd4_policy": "free", "challenge_guilty_extra": 2},
    {"challenge_guilty_extra": 2},
    {"seven_zero": True, "think_time": 30},
    {"jump_in": "identical", "think_time": 30},
    {"jump_in": "same_face", "deflect": True, "think_time": 30},
    {"max_hand": 20, "max_hand_penalty": "hand"},
    {"sequences": True, "multiples": True},
    {"scoring": "elimination", "max_rounds": 5},
)


def _sample_values(name: str) -> list[Any]:
    info = OPTIONS[name]
    if info.choices:
        return list(info.choices)
    values: list[Any] = [info.minimum, info.maximum]
    return [*values, None] if info.nullable else values


def variant_rule_sets(variant: str) -> list[RuleSet]:
    """The preset, each option it does not fix at each sample value, and the combinations:
    every rule set of the variant a table may play (refused ones left out)."""
    base = preset(variant)
    changes = [*_COMBINATIONS]
    changes += [{name: value} for name in OPTIONS if name not in base.excluded_options()
                and name != "variant" for value in _sample_values(name)]
    sets = []
    for change in changes:
        try:
            rules = base.replace(**change)
            rules.check_variant_options()
        except RulesError:
            continue
        sets.append(rules)
    return sets


def deck(variant: str) -> DeckManifest:
    """The variant's whole deck, both faces of a Flip card included."""
    return flip_manifest() if variant == "flip" else preset(variant).manifest()


def deck_kinds(variant: str) -> set[Kind]:
    return {face.kind for card in deck(variant).cards for face in card.faces}


def names_lacking(text: str, lang: str, present: set[Kind]) -> list[str]:
    """Names of cards not in `present` that `text` says, and draws ("+4") no card of `present`
    makes. A name inside a longer name of a card that is present does not count (Flip's Wild
    Draw Two is no Draw Two). The plain Wild's name is also the word for every wild card,
    which each variant has: not counted."""
    names: dict[Kind, str] = {
        kind: CARD_WORDS[lang][f"kind.{kind.value}"] for kind in Kind if kind != Kind.NUMBER}
    said = []
    for kind, name in names.items():
        if kind in present or kind is Kind.WILD:
            continue
        blanked = text
        for other in present - {Kind.NUMBER}:
            if name in names[other]:
                blanked = blanked.replace(names[other], "#")
        if re.search(rf"(?<!\w){re.escape(name)}(?!\w)", blanked):
            said.append(name)
    amounts = {DRAW_AMOUNTS[kind] for kind in present if kind in DRAW_AMOUNTS}
    said += [f"+{n}" for n in sorted(set(DRAW_AMOUNTS.values()) - amounts)
             if re.search(rf"\+{n}(?!\d)", text)]
    return said


_CHALLENGE_WORDS = {"en": "challeng", "it": "contest", "pt": "desafi"}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("variant", VARIANTS)
def test_a_variant_is_never_said_with_cards_its_deck_lacks(variant: str, lang: str) -> None:
    present = deck_kinds(variant)
    can_challenge = bool(present & CHALLENGEABLE_KINDS)
    for rules in variant_rule_sets(variant):
        text = " ".join(describe_rules(rules, lang, name=variant).split())
        assert names_lacking(text, lang, present) == [], rules.differences()
        if not can_challenge:
            assert _CHALLENGE_WORDS[lang] not in text.lower(), rules.differences()


def test_the_check_finds_the_classic_words_in_a_variant() -> None:
    """The check above can fail: the classic words name cards Flip and No Mercy lack."""
    classic_stacking = OPTION_WORDS["stacking"].says
    for variant in VARIANTS:
        for lang in LANGUAGES:
            assert names_lacking(getattr(classic_stacking["off"], lang), lang, deck_kinds(variant))
    assert names_lacking(classic_stacking["same_kind"].en, "en", deck_kinds("flip")) == ["+4"]
    assert names_lacking("a Wild Draw Two", "en", deck_kinds("flip")) == []
    assert names_lacking("a Draw Two", "en", deck_kinds("flip")) == ["Draw Two"]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("variant", VARIANTS)
def test_stacking_names_every_draw_card_of_the_variant(variant: str, lang: str) -> None:
    stacking = next(c for c in CHOICES if c.number == 1)
    rules = preset(variant).replace(stacking="escalating")
    said = choice_text(stacking, lang, rules)
    for kind in deck_kinds(variant) & set(DRAW_AMOUNTS):
        assert CARD_WORDS[lang][f"kind.{kind.value}"] in said


def test_no_mercy_says_its_own_choices_and_not_the_others() -> None:
    rules = preset("no_mercy")
    numbers = {c.number for c in applicable_choices(rules)}
    assert {1, 4, 8, 10, 15} <= numbers
    assert not numbers & {2, 11, 14}  # no challenge; piles that never run dry; no time limit
    timed = {c.number for c in applicable_choices(rules.replace(think_time=30))}
    assert 14 in timed and 2 not in timed
    text = " ".join(describe_rules(rules.replace(think_time=30, deflect=True), "en").split())
    assert "draw until a card plays and play it" in text
    assert "a Discard All or a Skip Everyone cancels it" in text
    assert text.startswith("unonet rules: custom UNO Show 'Em No Mercy's rules")


def test_flip_says_its_challenges_with_its_wild_draw_cards() -> None:
    rules = preset("flip").replace(stacking="same_kind")
    numbers = {c.number for c in applicable_choices(rules)}
    assert {1, 2, 4, 11, 14, 15} <= numbers
    text = " ".join(describe_rules(rules, "en").split())
    assert "6.2 Challenging a stacked Wild Draw Two. A Wild Draw Two stays open" in text
    assert "Wild Draw Two, Wild Draw Color: may be challenged." in text
    assert "facing a Wild Draw Two or Wild Draw Color that may be challenged" in text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_flip_has_no_zero_to_pass_hands_with(lang: str) -> None:
    numbers = {face.number for card in deck("flip").cards for face in card.faces}
    lacking = set(range(10)) - numbers
    assert lacking
    seven = next(c for c in CHOICES if c.number == 8)
    for value in (True, False):
        rules = preset("flip").replace(seven_zero=value)
        said = [option_title("seven_zero", lang, "flip"),
                option_statement(rules, "seven_zero", lang)]
        if value:
            said.append(choice_text(seven, lang, rules))
        for text in said:
            for number in lacking:
                assert not re.search(rf"(?<![\w+]){number}(?!\w)", text), text


def test_every_variant_word_replaces_something_that_exists() -> None:
    """A variant's words stand in for a classic option value or choice part, never beside one
    that has gone (a renumbered choice would otherwise leave them unsaid)."""
    choices = {c.number: c for c in CHOICES}
    for variant, parts in CHOICE_PARTS.items():
        for number, index in parts:
            assert index < len(choices[number].parts), (variant, number, index)
    for variant, titles in CHOICE_TITLES.items():
        assert set(titles) <= set(choices), variant
    for variant, options in STATEMENTS.items():
        for name, values in options.items():
            assert set(values) <= set(OPTION_WORDS[name].says), (variant, name)
    for table in (MEANINGS, OPTION_TITLES):
        for variant, words in table.items():
            assert set(words) <= set(OPTIONS), variant
    for variant, options in VALUES.items():
        for name, values in options.items():
            assert set(values) <= set(OPTIONS[name].choices), (variant, name)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_variants_option_meanings_state_its_own_numbers(lang: str) -> None:
    """Where a variant fixes an option, its meaning says the variant's value: the deck's size,
    the Mercy rule's limit and penalty, the seats."""
    flip_decks = option_meaning("decks", lang, "flip")
    assert str(len(flip_manifest().cards)) in flip_decks
    no_mercy = preset("no_mercy")
    said = {name: option_meaning(name, lang, "no_mercy") for name in OPTIONS}
    assert str(len(no_mercy.manifest().cards)) in said["decks"]
    assert str(MERCY_LIMIT) in said["max_hand"] and no_mercy.max_hand == MERCY_LIMIT
    assert str(no_mercy.max_hand_penalty) in said["max_hand_penalty"]
    assert str(NO_MERCY_MAX_PLAYERS) in said["max_players"]


@pytest.mark.parametrize(("lang", "plural"), [("it", "si possono contestare"),
                                              ("pt", "podem ser desafiados")])
def test_flips_challenge_value_agrees_with_its_plural_title(lang: str, plural: str) -> None:
    title = option_title("wd4_policy", lang, "flip")
    flip = describe_rules(preset("flip"), lang)
    assert f"{title}: {plural}." in " ".join(flip.split())
    assert plural not in describe_rules(preset("official"), lang)
