"""An option is declared once (unonet/options.py): every text made from the declarations is
what they make, and every option is drawn by the property tests or says why not.

Run `python tests/test_options.py` to rewrite the generated sections (unonet/rules.py, SPEC.md
9.6, README.md) after changing a declaration.
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import pytest
from test_properties import HOUSE_RULES, OFFICIAL_OPTIONS

from unonet import option_docs
from unonet.options import DECLARED
from unonet.rulebook_text import OPTION_WORDS
from unonet.rules import OPTIONS, RuleSet

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("name", sorted(option_docs.PLACES))
def test_each_generated_section_is_what_the_declarations_make(name: str) -> None:
    path = ROOT / option_docs.PLACES[name][0]
    text = path.read_text(encoding="utf-8")
    assert option_docs.regenerate(name, text) == text, (
        f"{path.name}'s section '{name}' differs from unonet/options.py: run "
        "python tests/test_options.py"
    )


def test_the_rule_set_options_and_words_come_from_the_declarations() -> None:
    assert [f.name for f in dataclasses.fields(RuleSet)] == [o.name for o in DECLARED]
    assert [getattr(RuleSet(), o.name) for o in DECLARED] == [o.default for o in DECLARED]
    assert list(OPTIONS) == [o.name for o in DECLARED]
    assert all(OPTION_WORDS[o.name] is o.words for o in DECLARED)


def test_every_option_is_drawn_by_the_property_tests_or_says_why_not() -> None:
    """`false_catch_penalty` was drawn by no strategy, and nothing said so."""
    drawn = set(OFFICIAL_OPTIONS) | set(HOUSE_RULES)
    for option in DECLARED:
        assert option.name in drawn or option.untried, (
            f"{option.name}: give it trial or house_trial values (unonet/options.py), or say "
            "in `untried` which test draws it"
        )
        assert not (option.name in drawn and option.untried), option.name


def test_every_declared_trial_value_is_a_value_of_the_option() -> None:
    for option in DECLARED:
        for value in (*option.trial, *option.house_trial):
            RuleSet(**{option.name: value}).validate()


if __name__ == "__main__":
    for section, (file, *_) in option_docs.PLACES.items():
        target = ROOT / file
        before = target.read_text(encoding="utf-8")
        after = option_docs.regenerate(section, before)
        if after != before:
            target.write_text(after, encoding="utf-8")
            print(f"rewrote {file} ({section})")
    sys.exit(0)
