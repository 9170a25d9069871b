"""RULEBOOK.md section 7 says each rule as a referee must check it, and SPEC.md makes it a
normative part of the protocol. Every statement there names the rule vectors that show it
(protocol/vectors/rules_*.json, which tests/test_rule_vectors.py runs on our engine): each name
must be a vector, and the draw counts of 7.4 must be the engine's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rule_vectors import load_all

from unonet.cards import DRAW_AMOUNTS, Kind

ROOT = Path(__file__).resolve().parent.parent
RULEBOOK = (ROOT / "RULEBOOK.md").read_text("utf-8")
SPEC = (ROOT / "SPEC.md").read_text("utf-8")
VECTOR_NAMES = {vector["name"] for vector in load_all()}


def referee_section() -> str:
    match = re.search(r"^## 7\. What a referee checks\n(.*?)(?=^## |\Z)", RULEBOOK, re.S | re.M)
    assert match, "RULEBOOK.md has no section 7, What a referee checks"
    return match.group(1)


def statements() -> dict[str, str]:
    """Each numbered statement of section 7 ("7.3"), by number."""
    parts = re.split(r"^### (7\.\d+) .*\n", referee_section(), flags=re.M)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def named_vectors(text: str) -> list[str]:
    match = re.search(r"^Vectors: (.*?)(?:\n\n|\Z)", text, re.S | re.M)
    assert match, "the statement names no vector"
    return re.findall(r"`([a-z0-9_]+)`", match.group(1))


def test_section_7_is_numbered_in_order() -> None:
    numbers = [int(number.split(".")[1]) for number in statements()]
    assert numbers == list(range(1, len(numbers) + 1))


@pytest.mark.parametrize("number", list(statements()))
def test_every_statement_names_vectors_that_exist(number: str) -> None:
    names = named_vectors(statements()[number])
    assert names, number
    assert sorted(set(names) - VECTOR_NAMES) == [], number


def test_the_draw_counts_are_the_engines() -> None:
    table = statements()["7.4"]
    checked = 0
    for line in table.splitlines():
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if len(cells) != 3 or not re.fullmatch(r"\d+(, \d+)*", cells[2]):
            continue
        kinds = re.findall(r"`([a-z_]+)`", cells[0])
        if not kinds or kinds[0] not in {kind.value for kind in DRAW_AMOUNTS}:
            continue  # a penalty, not a card
        counts = [int(count) for count in cells[2].split(", ")]
        assert len(kinds) == len(counts), line
        for kind, count in zip(kinds, counts, strict=True):
            assert DRAW_AMOUNTS[Kind(kind)] == count, kind
            checked += 1
    assert checked == len(DRAW_AMOUNTS)


def test_spec_makes_the_rulebook_normative() -> None:
    intro = SPEC.split("\n## 2.")[0]
    assert "RULEBOOK.md" in intro and "normative" in intro
    assert "RULEBOOK.md section 7" in intro
