"""The rules in words: every option and value said in en/it/pt, every played preset rendered,
`unonet rules` and its errors, and RULEBOOK.md held to the option table.

`python tests/test_rulebook.py` rewrites RULEBOOK.md's generated sections from the code.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from client.i18n import Translator
from host.game import BUZZER_WINDOW
from unonet import rulebook
from unonet.cli import main
from unonet.rulebook import (
    BUZZER_WINDOW_SECONDS,
    LANGUAGES,
    VARIANT_OPTIONS,
    UnknownLanguage,
    applicable_choices,
    choice_text,
    describe_rules,
    generated_sections,
    option_meaning,
    option_statement,
    option_title,
    regenerate,
    value_words,
)
from unonet.rulebook_text import CHOICES, OPTION_WORDS
from unonet.rules import (
    OPTIONS,
    PRESETS,
    RulesError,
    RuleSet,
    parse_option,
    playable_presets,
    preset,
)

RULEBOOK = Path(__file__).resolve().parent.parent / "RULEBOOK.md"
HOUSE_PRESETS = ("official", "seed000", "seed003", "seed004", "party", "flip", "no_mercy")


def sample_values(name: str) -> list[Any]:
    """Every value of a choice option; the ends of a numeric range, and off where allowed."""
    info = OPTIONS[name]
    if info.choices:
        return list(info.choices)
    values: list[Any] = [info.minimum, info.maximum, getattr(RuleSet(), name)]
    if info.nullable:
        values.append(None)
    if name == "max_hand_penalty":
        values.append("hand")
    return values


# -- every option in words, in every language ----------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", list(OPTIONS))
def test_every_option_has_a_title_and_a_one_line_meaning(name: str, lang: str) -> None:
    meaning = option_meaning(name, lang)
    assert meaning.strip() and "\n" not in meaning
    assert option_title(name, lang).strip()


def test_the_words_cover_exactly_the_options() -> None:
    assert set(OPTION_WORDS) == set(OPTIONS)


@pytest.mark.parametrize("lang", ["it", "pt"])
def test_italian_and_portuguese_are_not_english_left_untranslated(lang: str) -> None:
    untranslated = [n for n in OPTIONS if option_meaning(n, lang) == option_meaning(n, "en")]
    assert untranslated == []
    for choice in CHOICES:
        assert choice_text(choice, lang) != choice_text(choice, "en")


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", list(OPTIONS))
def test_every_value_of_every_option_has_words(name: str, lang: str) -> None:
    for value in sample_values(name):
        words = value_words(name, value, lang)
        assert words.strip() and "None" not in words and "True" not in words


def test_values_are_said_with_their_unit_and_number() -> None:
    assert value_words("uno_penalty", 1, "en") == "1 card"
    assert value_words("uno_penalty", 4, "it") == "4 carte"
    assert value_words("think_time", 30, "pt") == "30 segundos"
    assert value_words("max_rounds", None, "it") == "nessun limite"
    assert value_words("stacking", "same_kind", "pt") == "mesmo tipo"
    assert value_words("sequences", True, "it") == "sì"


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", [n for n in OPTIONS if n not in VARIANT_OPTIONS])
def test_every_value_of_every_option_renders_in_a_rule_set(name: str, lang: str) -> None:
    for value in sample_values(name):
        try:
            rules = RuleSet().replace(**{name: value})
        except RulesError:
            continue  # a combination the rule set itself refuses (e.g. teams alone)
        text = describe_rules(rules, lang)
        assert f"{option_title(name, lang)}: {value_words(name, value, lang)}" in " ".join(
            text.split())


def test_an_unknown_language_or_option_is_refused_by_name() -> None:
    with pytest.raises(UnknownLanguage, match="de"):
        option_meaning("stacking", "de")
    with pytest.raises(RulesError, match="nonsense"):
        option_meaning("nonsense", "en")


# -- whole rule sets -----------------------------------------------------------------------------


def test_the_played_presets_are_the_classic_ones() -> None:
    assert set(playable_presets()) == set(HOUSE_PRESETS)
    assert set(PRESETS) == set(playable_presets())


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", HOUSE_PRESETS)
def test_every_preset_renders_with_every_option_and_its_choices(name: str, lang: str) -> None:
    rules = preset(name)
    text = " ".join(describe_rules(rules, lang, name=name).split())
    for option in OPTIONS:
        if option in VARIANT_OPTIONS or option in rules.excluded_options():
            continue
        said = value_words(option, getattr(rules, option), lang, rules.variant)
        assert f"{option_title(option, lang, rules.variant)}: {said}" in text
    for choice in applicable_choices(rules):
        assert " ".join(choice_text(choice, lang, rules).split()) in text
    changed = [line for line in describe_rules(rules, lang).splitlines() if line[:2] == "* "]
    shown = [name for name in rules.differences() if name not in rules.excluded_options()]
    assert len(changed) == len(shown)  # a variant's own options are its text, not starred


def test_a_rule_set_names_only_the_choices_that_concern_it() -> None:
    numbers = {c.number for c in applicable_choices(RuleSet())}
    assert numbers == {11, 14, 15}  # stalemate, time-outs, races: every game has them
    party = {c.number for c in applicable_choices(preset("party"))}
    assert {1, 2, 5, 8} <= party and not party & {3, 6, 7, 9, 10, 12, 13}
    seed004 = {c.number for c in applicable_choices(preset("seed004"))}
    assert {6, 7} <= seed004 and 1 not in seed004


def test_the_parts_of_a_choice_follow_the_rule_set() -> None:
    last_card = next(c for c in CHOICES if c.number == 4)
    without = choice_text(last_card, "en", RuleSet(stacking="same_kind"))
    with_deflect = choice_text(last_card, "en", RuleSet(stacking="same_kind", deflect=True))
    assert "at once" in without and "until the draw is taken" not in without
    assert "until the draw is taken" in with_deflect and "at once" not in with_deflect


def test_an_option_another_leaves_without_effect_says_so() -> None:
    assert option_statement(RuleSet(), "jump_in_penalty", "en") == "No effect without jump-in."
    assert "3 points" in option_statement(preset("party"), "jump_in_penalty", "en")
    seed004 = option_statement(preset("seed004"), "max_draws_per_turn", "pt")
    assert seed004.startswith("Não conta")
    assert "4 carte" not in option_statement(
        RuleSet(wd4_policy="free", challenge_guilty_extra=2), "challenge_guilty_extra", "it")


def test_a_variant_not_played_is_never_presented(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every variant is played today; one an engine did not play would be refused by name."""
    monkeypatch.setattr(rulebook, "PLAYED_VARIANTS", ("classic", "flip"))
    with pytest.raises(RulesError, match="not played yet"):
        describe_rules(preset("no_mercy"), "en")


def test_the_buzzer_window_said_is_the_hosts() -> None:
    assert BUZZER_WINDOW == BUZZER_WINDOW_SECONDS


# -- `unonet rules` ------------------------------------------------------------------------------


def test_rules_prints_the_official_rules_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert out == describe_rules(RuleSet(), "en", name="official")


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", HOUSE_PRESETS)
def test_rules_prints_each_preset_in_each_language(
    name: str, lang: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["rules", name, "--lang", lang]) == 0
    captured = capsys.readouterr()
    what = Translator(lang)(f"preset.{name}")  # said beside the id: "seed000" tells nothing
    title = name if name == "official" else f"{name} ({what})"
    assert captured.out == describe_rules(preset(name), lang, name=title)
    assert captured.err == ""


def test_rules_applies_every_set_on_the_preset(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["rules", "party", "--set", "uno_penalty=4", "--set", "max_rounds=8", "--lang", "it"]
    assert main(args) == 0
    out = capsys.readouterr().out
    expected = preset("party", uno_penalty=4, max_rounds=8)
    name = "party (regole della casa) uno_penalty=4 max_rounds=8"
    assert out == describe_rules(expected, "it", name=name)
    assert "* Penalità UNO: 4 carte (ufficiale: 2 carte)." in out
    assert "6.12 " in out


def test_rules_takes_the_language_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "pt_BR.UTF-8")
    assert main(["rules"]) == 0
    assert capsys.readouterr().out.startswith("Regras do unonet: official")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["rules", "nosuch"], "unknown preset 'nosuch'"),
        (["rules", "--set", "nonsense=1"], "nonsense"),
        (["rules", "--set", "uno_penalty"], "OPTION=VALUE"),
        (["rules", "--set", "uno_penalty=lots"], "uno_penalty"),
        (["rules", "--set", "uno_penalty=99"], "at most 10"),
        (["rules", "--set", "stacking=always"], "stacking"),
        (["rules", "--lang", "de"], "unknown language 'de'"),
    ],
)
def test_rules_refuses_bad_input_in_one_line(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(args) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("unonet: ") and message in lines[0]


def test_rules_as_a_command_exits_non_zero_without_a_traceback() -> None:
    ok = subprocess.run([sys.executable, "-m", "unonet.cli", "rules", "seed000", "--lang", "pt"],
                        capture_output=True, text=True, check=False)
    assert ok.returncode == 0 and ok.stdout.startswith("Regras do unonet: seed000")
    bad = subprocess.run([sys.executable, "-m", "unonet.cli", "rules", "--set", "decks=9"],
                         capture_output=True, text=True, check=False)
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.startswith("unonet: decks:") and "Traceback" not in bad.stderr


def test_rules_help_names_the_presets_and_languages(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["rules", "--help"])
    assert exit_info.value.code == 0
    out = " ".join(capsys.readouterr().out.split())
    for name in HOUSE_PRESETS:
        assert name in out
    assert "--lang" in out and "--set OPTION=VALUE" in out and "RULEBOOK.md" in out


# -- RULEBOOK.md ---------------------------------------------------------------------------------


def test_rulebook_generated_sections_match_the_code() -> None:
    text = RULEBOOK.read_text(encoding="utf-8")
    assert regenerate(text) == text, "RULEBOOK.md is stale: run `python tests/test_rulebook.py`"


def _section(text: str, number: int) -> str:
    match = re.search(rf"^## {number}\. .*?(?=^## |\Z)", text, re.M | re.S)
    assert match, f"RULEBOOK.md has no section {number}"
    return match.group(0)


def test_rulebook_describes_every_option() -> None:
    options = _section(RULEBOOK.read_text(encoding="utf-8"), 2)
    described = set(re.findall(r"^\| `(\w+)` \|", options, re.M))
    assert described == set(OPTIONS)


def test_rulebook_presets_table_is_presets() -> None:
    presets = _section(RULEBOOK.read_text(encoding="utf-8"), 5)
    table: dict[str, dict[str, Any]] = {}
    for name, sets in re.findall(r"^\| `(\w+)` \| (.*?) \|", presets, re.M):
        pairs = re.findall(r"`(\w+)=([^`]*)`", sets)
        table[name] = {option: parse_option(option, value) for option, value in pairs}
    assert table == PRESETS


def test_rulebook_keeps_its_section_numbers() -> None:
    text = RULEBOOK.read_text(encoding="utf-8")
    headings = re.findall(r"^## (\d+)\. ", text, re.M)
    assert headings == ["1", "2", "3", "4", "5", "6", "7"]
    official = _section(text, 1)
    assert re.findall(r"^1\.(\d+) ", official, re.M) == [str(i) for i in range(1, 12)]
    for variant in (3, 4):  # UNO Flip and No Mercy are played
        assert "not played yet" not in _section(text, variant).lower()
    choices = re.findall(r"^### 6\.(\d+) ", _section(text, 6), re.M)
    assert choices == [str(c.number) for c in CHOICES]


def test_nothing_the_rulebook_presents_as_played_is_refused_by_the_engine() -> None:
    for name in OPTIONS:
        if name in VARIANT_OPTIONS:
            continue
        for value in sample_values(name):
            try:
                rules = RuleSet().replace(**{name: value})
            except RulesError:
                continue
            rules.check_playable()
    for name in playable_presets():
        preset(name).check_playable()


def test_the_readme_lists_what_is_played() -> None:
    readme = (RULEBOOK.parent / "README.md").read_text(encoding="utf-8")
    rules = re.search(r"^## Rules\n(.*?)^## ", readme, re.M | re.S)
    assert rules, "README.md has no Rules section"
    text = rules.group(1)
    assert "RULEBOOK.md" in text and "unonet rules" in text
    listed = set(re.findall(r"`(\w+)`", text))
    assert set(OPTIONS) - set(VARIANT_OPTIONS) <= listed
    assert set(playable_presets()) <= listed


def test_regenerate_refuses_a_document_without_markers() -> None:
    with pytest.raises(ValueError, match="options"):
        regenerate("# a rulebook with no generated sections\n")
    assert set(generated_sections()) == {"options", "presets", "choices"}


if __name__ == "__main__":
    RULEBOOK.write_text(regenerate(RULEBOOK.read_text(encoding="utf-8")), encoding="utf-8")
    print(f"rewrote the generated sections of {RULEBOOK}")
