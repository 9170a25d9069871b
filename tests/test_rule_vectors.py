"""The rule vectors (protocol/vectors/rules_*.json, SPEC.md 16.1) against our engine.

Each vector was written from the rule line it names, not from the engine's output; here the
engine must do what each says. A vector's `shows` claims an option value, preset or variant,
and every option value that changes play, every preset and every variant must be claimed by at
least one vector whose rules really have it.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import re
from pathlib import Path
from typing import Any

import pytest
from rule_vectors import VECTORS, VectorFailed, load_all, rules_of, run

from unonet.rules import OPTIONS, PRESETS, RuleSet

ALL = load_all()
SPEC = (Path(__file__).resolve().parent.parent / "SPEC.md").read_text("utf-8")

VECTOR_KEYS = {"name", "rule", "quote", "shows", "preset", "options", "seats", "dealer", "cards",
               "deals", "steps", "refused"}
STEP_KEYS = {"start", "seat", "action", "host", "target", "count", "events", "absent",
             "refused", "view", "legal"}
DEAL_KEYS = {"hands", "turned", "draws", "deck", "bottom"}


@pytest.mark.parametrize("vector", ALL, ids=[v["name"] for v in ALL])
def test_the_engine_does_what_the_vector_says(vector: dict[str, Any]) -> None:
    run(vector)


def test_vector_names_are_unique_and_each_names_its_rule_line() -> None:
    names = [v["name"] for v in ALL]
    assert len(names) == len(set(names)), sorted(n for n in names if names.count(n) > 1)
    for vector in ALL:
        assert re.fullmatch(r"[a-z0-9_]+", vector["name"]), vector["name"]
        assert re.match(r"(RULEBOOK\.md [1-6](\.\d+)?|RULES\.md [1-5](\.\d+)?|seed 00[0-4])",
                        vector["rule"]), vector["name"]
        assert vector["quote"].strip(), vector["name"]
        assert vector["shows"], vector["name"]


def test_every_vector_uses_only_the_fields_spec_describes() -> None:
    for vector in ALL:
        assert set(vector) - {"file"} <= VECTOR_KEYS, vector["name"]
        for deal in vector.get("deals", []):
            assert set(deal) <= DEAL_KEYS, vector["name"]
        for step in vector.get("steps", []):
            assert set(step) <= STEP_KEYS, (vector["name"], step)


def test_spec_describes_every_field_of_a_vector() -> None:
    match = re.search(r"^### 16\.1 .*?(?=^##|\Z)", SPEC, re.S | re.M)
    assert match, "SPEC.md has no section 16.1"
    text = match.group(0)
    for key in sorted(VECTOR_KEYS | STEP_KEYS | DEAL_KEYS | {"includes", "excludes"}):
        assert f"`{key}`" in text, key


def _claims(vector: dict[str, Any]) -> list[tuple[str, str, Any]]:
    out = []
    for claim in vector["shows"]:
        kind, _, rest = claim.partition(":")
        if kind == "preset":
            out.append(("preset", rest, None))
            continue
        assert kind == "option", claim
        name, _, text = rest.partition("=")
        try:
            value = json.loads(text)
        except json.JSONDecodeError:
            value = text
        out.append(("option", name, value))
    return out


def test_each_claim_holds_in_the_vectors_own_rules() -> None:
    for vector in ALL:
        for kind, name, value in _claims(vector):
            if kind == "preset":
                assert vector.get("preset", "official") == name, vector["name"]
            elif "refused" in vector:  # refused rules exist only as the options given
                assert vector["options"].get(name) == value, (vector["name"], name)
            else:
                assert name in OPTIONS, (vector["name"], name)
                assert getattr(rules_of(vector), name) == value, (vector["name"], name)


def required_claims() -> set[tuple[str, str, Any]]:
    """Every preset; every value of an option with a list of values but its default (the
    official rules, which the vectors of preset `official` show); for a number, some value
    other than the default (or than off), and `hand` for the knock-out penalty."""
    needed: set[tuple[str, str, Any]] = {("preset", name, None) for name in PRESETS}
    default = RuleSet()
    for info in OPTIONS.values():
        if info.choices:
            needed |= {("option", info.name, value) for value in info.choices
                       if value != getattr(default, info.name)}
        else:
            needed.add(("option", info.name, "some other value"))
    needed.add(("option", "max_hand_penalty", "hand"))
    return needed


def test_every_option_value_preset_and_variant_has_a_vector() -> None:
    default = RuleSet()
    shown: set[tuple[str, str, Any]] = set()
    for vector in ALL:
        for kind, name, value in _claims(vector):
            shown.add((kind, name, value))
            info = OPTIONS.get(name)
            numeric = kind == "option" and info is not None and not info.choices
            if numeric and value not in (getattr(default, name), None, "hand"):
                shown.add((kind, name, "some other value"))
    missing = sorted(required_claims() - shown, key=str)
    assert not missing, f"no rule vector shows {missing}"


def _tampered(vector: dict[str, Any]) -> dict[str, Any] | None:
    """`vector` with the last thing it expects changed: an event field or a refusal code."""
    bad = copy.deepcopy(vector)
    for step in reversed(bad.get("steps", [])):
        if "refused" in step:
            step["refused"] = "illegal_card" if step["refused"] != "illegal_card" else "round_over"
            return bad
        for event in reversed(step.get("events", [])):
            for key, value in event.items():
                if key == "type":
                    continue
                if isinstance(value, bool):
                    event[key] = not value
                elif isinstance(value, int):
                    event[key] = value + 1
                elif isinstance(value, list):
                    event[key] = [*value, 999]
                else:
                    event[key] = f"{value}x"
                return bad
    if "refused" in bad:
        bad["refused"]["option"] += "x"
        return bad
    return None


@pytest.mark.parametrize("vector", ALL, ids=[v["name"] for v in ALL])
def test_a_tampered_vector_fails(vector: dict[str, Any]) -> None:
    """The runner can fail: the vector with one expectation changed does not pass."""
    bad = _tampered(vector)
    assert bad is not None, f"{vector['name']} expects nothing"
    with pytest.raises(VectorFailed):
        run(bad)


def test_the_files_are_in_their_written_form() -> None:
    """Cards are ids (name_cards.py has run) and every file is a list of vectors."""
    for path in sorted(VECTORS.glob("rules_*.json")):
        data = json.loads(path.read_text("utf-8"))
        assert set(data) == {"description", "vectors"}, path.name
        for vector in data["vectors"]:
            for deal in vector.get("deals", []):
                cards = [c for hand in deal.get("hands", []) for c in hand]
                cards += [c for key in DEAL_KEYS - {"hands"} for c in deal.get(key, [])]
                assert all(isinstance(c, int) for c in cards), (path.name, vector["name"])
                assert all(str(c) in vector["cards"] for c in cards), (path.name, vector["name"])


def _name_cards() -> Any:
    spec = importlib.util.spec_from_file_location("name_cards", VECTORS / "name_cards.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_name_cards_writes_names_as_ids_and_leaves_the_files_as_they_are() -> None:
    """The authoring aid turns `red 5#2` into the second red 5's id with its legend, and a
    Flip `light / dark` into the legend's pairing; the files come out of it unchanged."""
    tool = _name_cards()
    written = tool.convert({
        "name": "x", "options": {"variant": "flip"}, "seats": 2, "dealer": 0,
        "deals": [{"hands": [["red 5#2 / orange 3"], ["wild"]], "turned": ["red 3"]}],
        "steps": [{"seat": 1, "action": {"type": "play", "card": "red 5#2"}},
                  {"start": True, "view": {"seat": 0, "seats": [{"cards": 3}]}}],
    })
    assert written["deals"][0]["hands"] == [[9], [104]]
    assert written["steps"][0]["action"]["card"] == 9
    assert written["cards"] == {"4": "red 3", "9": "red 5 / orange 3", "104": "wild"}
    for path in sorted(VECTORS.glob("rules_*.json")):
        data = json.loads(path.read_text("utf-8"))
        again = [tool.convert(copy.deepcopy(v)) for v in data["vectors"]]
        assert again == data["vectors"], path.name
        assert tool.dump(data) == path.read_text("utf-8"), path.name
