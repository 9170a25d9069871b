"""The rules in words, in English, Italian and Portuguese: `unonet rules`, the lobby's rule
editor and the generated parts of RULEBOOK.md all read them from here.

Pure: strings in, strings out. `option_meaning` and `value_words` are what an editor shows beside
an option; `describe_rules` says a whole rule set (every option with its value, then each choice
unonet made that concerns it); `regenerate` rewrites the generated sections of RULEBOOK.md from
the option table, so that the document cannot drift from `unonet.rules`. Said of a variant's rule
set, every sentence speaks of the variant's own cards (unonet/rulebook_variants.py), and a choice
about cards or actions the variant lacks is left out.
"""

from __future__ import annotations

import textwrap
from typing import Any

from unonet.cards import ALL_COLORS
from unonet.rulebook_text import (
    ANY_NUMBER,
    BUZZER_WINDOW_SECONDS,
    CHOICES,
    HEADINGS,
    OPTION_WORDS,
    VALUE_WORDS,
    Choice,
    OptionWords,
    Text,
)
from unonet.rulebook_variants import (
    BASIS,
    CHOICE_LEADS,
    CHOICE_PARTS,
    CHOICE_TITLES,
    INERT_WORDS,
    MEANINGS,
    OPTION_TITLES,
    STATEMENTS,
    VALUES,
)
from unonet.rules import (
    OPTIONS,
    PLAYED_VARIANTS,
    PRESETS,
    OptionInfo,
    RuleSet,
    playable_presets,
    rules_refused,
)
from unonet.words import CARD_WORDS, LANGUAGES

__all__ = [
    "BUZZER_WINDOW_SECONDS",
    "LANGUAGES",
    "PLAYED_VARIANTS",
    "VARIANT_OPTIONS",
    "UnknownLanguage",
    "applicable_choices",
    "choice_text",
    "choice_title",
    "describe_rules",
    "generated_sections",
    "option_meaning",
    "option_statement",
    "option_title",
    "regenerate",
    "value_words",
]


VARIANT_OPTIONS = ("variant", "flip_passes_hands")
"""Options that belong to the variants (RULEBOOK.md sections 3-4) rather than to section 2."""


class UnknownLanguage(ValueError):
    """A language the rulebook is not written in; the message lists those it is."""

    def __init__(self, lang: str) -> None:
        super().__init__(f"unknown language {lang!r}; known: {', '.join(LANGUAGES)}")
        self.lang = lang


def _say(text: Text, lang: str) -> str:
    if lang not in LANGUAGES:
        raise UnknownLanguage(lang)
    said: str = getattr(text, lang)
    return said


def _words(name: str) -> OptionWords:
    try:
        return OPTION_WORDS[name]
    except KeyError:
        raise rules_refused("unknown_option_known", name, known=", ".join(OPTIONS)) from None


def option_title(name: str, lang: str, variant: str = "classic") -> str:
    """The option's short name for an editor's row or a listing: 'Stacking draw cards'; in a
    variant's card names when they differ (Flip's 'Wild Draw Two and Wild Draw Color')."""
    title = OPTION_TITLES.get(variant, {}).get(name, _words(name).title)
    return _say(title, lang)


def option_meaning(name: str, lang: str, variant: str = "classic") -> str:
    """One line saying what the option is about, whatever its value; on a variant's table, in
    its card names, or what the variant does where it fixes the option (Flip's own colours)."""
    meaning = MEANINGS.get(variant, {}).get(name, _words(name).meaning)
    return _say(meaning, lang)


def value_words(name: str, value: Any, lang: str, variant: str = "classic") -> str:
    """A value of the option in words: 'yes', 'same kind', '7 cards', 'no limit'; agreeing
    with the variant's title where it differs (Flip's two wild draw cards 'si possono
    contestare')."""
    words = _words(name)
    own = None if isinstance(value, bool) else VALUES.get(variant, {}).get(name, {}).get(value)
    if own is not None:
        return _say(own, lang)
    special = None if isinstance(value, bool) else words.values.get(value)
    if special is not None:
        return _say(special, lang)
    if isinstance(value, int) and not isinstance(value, bool):
        if words.unit is None:
            return str(value)
        unit = words.unit.one if value == 1 else words.unit.many
        return f"{value} {_say(unit, lang)}"
    if value in VALUE_WORDS:
        return _say(VALUE_WORDS[value], lang)
    if lang not in LANGUAGES:
        raise UnknownLanguage(lang)
    return str(value)


def option_statement(rules: RuleSet, name: str, lang: str) -> str:
    """What the option's value does in this rule set, as one or two sentences; an option that
    another leaves without effect says so instead (a jump-in penalty without jump-in)."""
    value = getattr(rules, name)
    words = _words(name)
    if words.inert is not None and words.inert.when(rules):
        return _say(INERT_WORDS.get(rules.variant, {}).get(name, words.inert.says), lang)
    says = words.says
    key: Any = value
    if isinstance(value, int) and not isinstance(value, bool) and value not in says:
        key = ANY_NUMBER
    own = STATEMENTS.get(rules.variant, {}).get(name, {})
    template = _say(own.get(key, says[key]), lang)
    return template.format(
        v=value_words(name, value, lang, rules.variant),
        n=value,
        size=len(rules.manifest()),
        colours=_colour_list(rules.colors, lang),
    )


def _colour_list(count: int, lang: str) -> str:
    names = [CARD_WORDS[lang][f"color.{color.value}"] for color in ALL_COLORS[:count]]
    listed = ", ".join(names[:-1]) + _say(HEADINGS["and"], lang) + names[-1]
    return listed[:1].upper() + listed[1:]


def _parts_for(choice: Choice, rules: RuleSet) -> list[Text]:
    """The parts of a choice that concern `rules`, each in its variant's words: a variant's
    own part (or parts, each for the rule sets it concerns) replaces the classic one, and None
    drops it (a card the variant lacks)."""
    own = CHOICE_PARTS.get(rules.variant, {})
    said = []
    for index, classic in enumerate(choice.parts):
        part = own.get((choice.number, index), classic)
        for each in part if isinstance(part, tuple) else (part,):
            if each is not None and each.applies(rules):
                said.append(each.text)
    return said


def applicable_choices(rules: RuleSet) -> tuple[Choice, ...]:
    """The choices of RULEBOOK.md section 6 that concern this rule set and its variant."""
    return tuple(c for c in CHOICES if _parts_for(c, rules))


def choice_title(choice: Choice, lang: str, rules: RuleSet | None = None) -> str:
    """A choice's title, in the variant's card names when `rules` is a variant's."""
    variant = "classic" if rules is None else rules.variant
    return _say(CHOICE_TITLES.get(variant, {}).get(choice.number, choice.title), lang)


def choice_text(choice: Choice, lang: str, rules: RuleSet | None = None) -> str:
    """A choice in words: every part (RULEBOOK.md's classic words), or only the parts that
    concern `rules` when given, in its variant's words."""
    if rules is None:
        parts, lead = [p.text for p in choice.parts], choice.lead
    else:
        parts = _parts_for(choice, rules)
        lead = CHOICE_LEADS.get(rules.variant, {}).get(choice.number, choice.lead)
    said_lead = _say(lead, lang)
    body = choice.joiner.join(_say(p, lang) for p in parts) + choice.close
    return f"{said_lead} {body}" if said_lead else body


def _described(rules: RuleSet) -> list[str]:
    """Every option of the rule set, except a variant's options left at their default."""
    base = RuleSet()
    fixed = rules.excluded_options()
    return [
        name for name in OPTIONS
        if (name not in VARIANT_OPTIONS or getattr(rules, name) != getattr(base, name))
        and name not in fixed
    ]


def describe_rules(
    rules: RuleSet, lang: str = "en", *, name: str | None = None, width: int = 79
) -> str:
    """The whole rule set in words: the official basis, every option with its value (starred
    where it differs from the official rules), and every choice that concerns it.

    Raises UnknownLanguage for a language not in LANGUAGES, and RulesError for a variant that
    is not played yet: this text presents a rule set as playable.
    """
    if lang not in LANGUAGES:
        raise UnknownLanguage(lang)
    if rules.variant not in PLAYED_VARIANTS:
        raise rules_refused("not_played", "variant", variant=rules.variant)
    base = RuleSet()
    label = name or ("official" if not rules.differences() else _say(HEADINGS["custom"], lang))
    lines = [_say(HEADINGS["title"], lang).format(name=label), ""]
    lines += textwrap.wrap(_say(BASIS.get(rules.variant, HEADINGS["official"]), lang), width)
    lines += ["", _say(HEADINGS["options"], lang)]
    for option in _described(rules):
        value = getattr(rules, option)
        shown = value_words(option, value, lang, rules.variant)
        changed = value != getattr(base, option)
        if changed:
            official = value_words(option, getattr(base, option), lang, rules.variant)
            shown += " (" + _say(HEADINGS["official_value"], lang).format(v=official) + ")"
        title = option_title(option, lang, rules.variant)
        text = f"{title}: {shown}. {option_statement(rules, option, lang)}"
        lines += textwrap.wrap(text, width, initial_indent="* " if changed else "  ",
                               subsequent_indent="    ")
    lines += ["", _say(HEADINGS["choices"], lang)]
    for choice in applicable_choices(rules):
        title = choice_title(choice, lang, rules)
        text = f"6.{choice.number} {title}. {choice_text(choice, lang, rules)}"
        lines += textwrap.wrap(text, width, subsequent_indent="     ")
    return "\n".join(lines) + "\n"


# -- RULEBOOK.md's generated sections -----------------------------------------------------------

_MARKDOWN_WIDTH = 96  # the prose of RULEBOOK.md is wrapped like the rest of the project's text


def _raw(value: Any) -> str:
    """A value as `--set` writes it."""
    if value is None:
        return "off"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _values_column(info: OptionInfo) -> str:
    default = getattr(RuleSet(), info.name)
    if info.choices:
        ordered = [default, *(v for v in info.choices if v != default)]
        return ", ".join(f"`{_raw(v)}`" for v in ordered)
    span = f"{info.minimum}-{info.maximum}"
    if info.nullable and default is None:
        return f"`off`, {span}"
    text = f"`{_raw(default)}` ({span})"
    if info.name == "max_hand_penalty":
        text += ", `hand`"
    return text


def _options_section() -> str:
    rows = [
        "| option | values, default first | what it is about | source |",
        "| --- | --- | --- | --- |",
    ]
    for name, info in OPTIONS.items():
        meaning = option_meaning(name, "en")
        rows.append(f"| `{name}` | {_values_column(info)} | {meaning} | {info.source} |")
    rows += ["", "What each value does:", ""]
    for name, info in OPTIONS.items():
        if name in VARIANT_OPTIONS or not info.choices:
            continue
        says = OPTION_WORDS[name].says
        rows.append(f"- `{name}`")
        for value in info.choices:
            rows += textwrap.wrap(f"- `{_raw(value)}`: {says[value].en}", _MARKDOWN_WIDTH,
                                  initial_indent="  ", subsequent_indent="    ")
    return "\n".join(rows)


def _presets_section() -> str:
    rows = ["| preset | what it sets | played |", "| --- | --- | --- |"]
    for name, settings in PRESETS.items():
        sets = ", ".join(f"`{k}={_raw(v)}`" for k, v in settings.items()) or "nothing: section 1"
        played = "yes" if name in playable_presets() else "not yet (sections 3-4)"
        rows.append(f"| `{name}` | {sets} | {played} |")
    return "\n".join(rows)


def _choices_section() -> str:
    blocks = [
        f"### 6.{c.number} {c.title.en}\n\n" + textwrap.fill(choice_text(c, "en"), _MARKDOWN_WIDTH)
        for c in CHOICES
    ]
    return "\n\n".join(blocks)


def generated_sections() -> dict[str, str]:
    """The parts of RULEBOOK.md written from the code: the option table (section 2), the preset
    table (section 5), and the choices (section 6)."""
    return {
        "options": _options_section(),
        "presets": _presets_section(),
        "choices": _choices_section(),
    }


def _markers(section: str) -> tuple[str, str]:
    return (
        f"<!-- generated: {section} (python tests/test_rulebook.py rewrites it) -->",
        f"<!-- end generated: {section} -->",
    )


def regenerate(document: str) -> str:
    """RULEBOOK.md's text with every generated section rewritten from the code; the prose
    around them is kept as it is. Raises ValueError if a section's markers are missing."""
    for section, body in generated_sections().items():
        begin, end = _markers(section)
        head, found, rest = document.partition(begin)
        _, found_end, tail = rest.partition(end)
        if not (found and found_end):
            raise ValueError(f"RULEBOOK.md lacks the markers of the generated {section} section")
        document = f"{head}{begin}\n{body}\n{end}{tail}"
    return document
