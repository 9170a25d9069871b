"""SPEC.md and the code say the same thing: every message, field, type, event, action, error
code and limit that the code knows is in the document, and nothing else is."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from host.game import BUZZER_WINDOW
from protocol.errors import ALL_CODES, FATAL
from protocol.game_codec import ACTION_TYPES, EVENT_TYPES, PROOF_FIELDS, VIEW_TYPES
from protocol.limits import HOST_LIMITS, MAX_PLAY_ALSO
from protocol.messages import CATALOGUE
from unonet.phase import DECISIONS, Phase
from unonet.rules import OPTIONS, PRESETS, OptionInfo, RulesError, RuleSet, preset

SPEC = (Path(__file__).resolve().parent.parent / "SPEC.md").read_text("utf-8")


def section(number: str) -> str:
    """The text of section `number` ("8", "9.2") up to the next heading of its level."""
    level = "##" if "." not in number else "###"
    pattern = rf"^{level} {re.escape(number)}[. ].*?(?=^{level} |^## |\Z)"
    match = re.search(pattern, SPEC, re.S | re.M)
    assert match, f"SPEC.md has no section {number}"
    return match.group(0)


def table_rows(text: str) -> list[list[str]]:
    """The cells of every table row in `text`, header and rule lines left out; an escaped
    pipe stays inside its cell."""
    rows = []
    for line in text.splitlines():
        if not line.startswith("|") or line.startswith("|---"):
            continue
        cells = [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line)[1:-1]]
        rows.append(cells)
    return rows


def code(cell: str) -> str:
    match = re.fullmatch(r"`([^`]+)`", cell)
    assert match, f"expected a `code` cell, got {cell!r}"
    return match.group(1)


def message_blocks() -> dict[str, str]:
    text = section("8")
    parts = re.split(r"^#### `([a-z_]+)`\n", text, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def test_every_message_type_has_a_section_and_no_other() -> None:
    assert set(message_blocks()) == set(CATALOGUE)


def test_the_summary_table_lists_every_type_with_its_direction() -> None:
    summary = section("8").split("### 8.1")[0]
    rows = {code(r[0]): (r[1], r[2]) for r in table_rows(summary) if r[0] != "`t`"}
    assert rows == {s.type: (s.direction.value, s.group.value) for s in CATALOGUE.values()}


@pytest.mark.parametrize("kind", sorted(CATALOGUE))
def test_each_message_section_matches_the_catalogue(kind: str) -> None:
    block = message_blocks()[kind]
    spec = CATALOGUE[kind]
    assert f"Direction: {spec.direction.value}." in block
    documented = [(code(r[0]), r[1], r[2]) for r in table_rows(block) if r[0] != "Field"]
    expected = [(f.name, f.type.describe().replace("\\|", "|"), "yes" if f.required else "no")
                for f in spec.fields]
    assert documented == expected
    wide = re.search(r"Wide fields \(.*?\): (.*)\.", block)
    assert (set(re.findall(r"`(\w+)`", wide.group(1))) if wide else set()) == set(spec.wide)


def _fields(cell: str) -> list[tuple[str, ...]]:
    """(name, type) pairs; a part without ": " stays a 1-tuple, for the comparison to fail."""
    if not cell:
        return []
    return [tuple(part.split(": ", 1)) for part in cell.split("; ")]


def test_every_event_type_and_field_is_in_spec() -> None:
    rows = {code(r[0]): r for r in table_rows(section("9.2")) if r[0].startswith("`")}
    assert set(rows) == set(EVENT_TYPES)
    for name, wire in EVENT_TYPES.items():
        expected = [(f.name + ("" if f.required else "?"), f.describe.replace("\\|", "|"))
                    for f in wire.fields]
        assert _fields(rows[name][1]) == expected, name
        proof = [(f"{k}?", c.describe) for k, c in PROOF_FIELDS.get(name, {}).items()]
        assert _fields(rows[name][2]) == proof, name


def test_every_action_type_and_field_is_in_spec() -> None:
    rows = {code(r[0]): r for r in table_rows(section("9.3")) if r[0].startswith("`")}
    assert set(rows) == set(ACTION_TYPES)
    for name, wire in ACTION_TYPES.items():
        expected = [(f.name + ("" if f.required else "?"), f.describe.replace("\\|", "|"))
                    for f in wire.fields]
        assert _fields(rows[name][1]) == expected, name


def test_every_error_code_is_in_spec_with_its_fatality() -> None:
    rows = {code(r[0]): r[1] for r in table_rows(section("12")) if r[0].startswith("`")}
    assert set(rows) == ALL_CODES
    for name, fatal in rows.items():
        assert fatal == ("yes" if name in FATAL else "no"), name


def test_every_announced_limit_is_in_spec() -> None:
    keys = set()
    for row in table_rows(section("13"))[1:]:  # the header row names the column
        keys |= set(re.findall(r"`(\w+)`", row[1]))
    assert keys == set(HOST_LIMITS)
    text = section("13")
    for figure in ("65 536", "4 096", "256", "1 024", "64 entries", "10 s", "15 s", "45 s",
                   "50 frames/s", "100", "64 frames"):
        assert figure in text


def test_requirement_labels_are_unique_and_in_their_section() -> None:
    labels: dict[str, int] = {}
    current = 0
    for line in SPEC.splitlines():
        heading = re.match(r"## (\d+)\.", line)
        if heading:
            current = int(heading.group(1))
        for number, _ in re.findall(r"(?<!, )\[UNO-(\d+)-(\d+)\]", line):
            assert int(number) == current, line
        for label in re.findall(r"(?<!, )(\[UNO-\d+-\d+\])", line):
            labels[label] = labels.get(label, 0) + 1
    assert labels and all(count == 1 for count in labels.values()), labels


def test_the_trust_section_states_every_construction() -> None:
    body = section("11")
    for tag in ("uno/v1/seed-commit", "uno/v1/shuffle-key", "uno/v1/card-nonce",
                "uno/v1/card-commit", "uno/v1/deck-commit", "uno/v1/hand", "uno/v1/prng"):
        assert tag in body, tag
    for label in ("[UNO-11-1]", "[UNO-11-49]"):
        assert label in body


def tables(text: str) -> list[list[list[str]]]:
    """Each table of `text` (a run of `|` lines), as table_rows gives it."""
    blocks = re.findall(r"(?:^\|.*\n?)+", text, re.M)
    return [table_rows(block) for block in blocks]


def test_the_view_and_its_records_are_in_spec() -> None:
    """Section 9.1 has one table per record, in the order view, seat_view, pending, each with
    every field of the catalogue, `?` marking a field an older host may leave out."""
    found = tables(section("9.1"))
    assert len(found) == len(VIEW_TYPES)
    for (name, wire), rows in zip(VIEW_TYPES.items(), found, strict=True):
        documented = [(code(r[0]), r[1]) for r in rows[1:]]
        expected = [(f.name + ("" if f.required else "?"), f.describe.replace("\\|", "|"))
                    for f in wire.fields]
        assert documented == expected, name


def test_every_phase_and_decision_is_in_spec() -> None:
    match_phases, round_phases = tables(section("9.5"))
    documented = [code(r[0]) for r in match_phases[1:] + round_phases[1:]]
    assert documented == [phase.value for phase in Phase]
    decisions = {code(r[0]) for r in round_phases[1:] if r[1] == "yes"}
    assert decisions == {phase.value for phase in DECISIONS}
    assert {r[1] for r in round_phases[1:]} == {"yes", "no"}


def _wire_value(value: object) -> str:
    return "nil" if value is None else json.dumps(value)


def playable(name: str, value: object) -> bool:
    """Whether the engine plays `value` of option `name` (with the official rules otherwise)."""
    try:
        RuleSet.from_dict({name: value}).check_playable()
    except RulesError:
        return False
    return True


def offered_values(info: OptionInfo) -> str:
    """The Values cell of an option: its wire values the engine plays, default first, or its
    range (what the lobby offers and the host accepts)."""
    default = getattr(RuleSet(), info.name)
    if info.choices:
        ordered = [default, *(c for c in info.choices if c != default)]
        return ", ".join(f"`{_wire_value(c)}`" for c in ordered if playable(info.name, c))
    cell = f"int {info.minimum}..{info.maximum}"
    if info.nullable:
        cell += " | nil"
    if playable(info.name, "hand") and info.name == "max_hand_penalty":
        cell += ' | `"hand"`'
    return cell


def test_every_rule_option_is_in_spec_with_its_default_and_values() -> None:
    """Section 9.6 lists every option of unonet.rules.OPTIONS, in order, with the official
    default and exactly the values the engine plays: nothing refused is offered."""
    rows = tables(section("9.6"))[0][1:]
    assert [code(r[0]) for r in rows] == list(OPTIONS)
    for row in rows:
        info = OPTIONS[code(row[0])]
        assert code(row[1]) == _wire_value(getattr(RuleSet(), info.name)), info.name
        assert row[2] == offered_values(info), info.name
        assert row[3], info.name


def test_every_playable_preset_is_in_spec_with_its_options() -> None:
    rows = tables(section("9.6"))[1][1:]
    documented = {}
    for row in rows:
        pairs = [part.split(": ", 1) for part in row[1].split("; ")] if row[1] else []
        documented[code(row[0])] = {k: json.loads(v) for k, v in pairs}
    expected = {}
    for name, options in PRESETS.items():
        try:
            preset(name).check_playable()
        except RulesError:
            continue  # refused presets (flip, no_mercy) are not offered anywhere
        expected[name] = options
    assert documented == expected


def test_the_bound_of_a_play_is_in_spec() -> None:
    assert f"{MAX_PLAY_ALSO} (`play.also`)" in section("13")
    assert f"also?: [int] ≤{MAX_PLAY_ALSO} items" in section("9.3")


def test_the_races_section_names_every_window() -> None:
    text = section("14")
    window = f"{BUZZER_WINDOW:g} s"  # the reference host's buzzer window
    assert window in text and f"| {window}, whatever think_time |" in section("13")
    windows = {r[0] for r in tables(text)[0][1:]}
    assert {"Jump-in (`jump_in`)", "Sequence (`sequences`)", "Buzzer (`buzzers`)"} <= windows
    assert "order in which it **receives**" in text


def test_the_announced_limit_keys_are_the_ones_spec_lists() -> None:
    """[UNO-8-2] names every key of `welcome.limits`: a client written from SPEC alone knows
    each limit the host announces, and the host announces each one SPEC names."""
    from protocol.limits import HOST_LIMITS

    line = next(line for line in SPEC.splitlines() if line.startswith("- [UNO-8-2]"))
    listed = set(re.findall(r"`([a-z_]+)`", line.split("(", 1)[1].split(";", 1)[0]))
    assert listed == set(HOST_LIMITS)


def test_every_test_spec_cites_exists() -> None:
    """SPEC.md names the test that shows each guarantee (11.8, 11.10, ...): a renamed or
    removed test must not leave the contract pointing at nothing."""
    tests_dir = Path(__file__).resolve().parent
    cited = set(re.findall(r"`?tests/([a-z0-9_]+\.py)(?:::([a-zA-Z0-9_]+))?", SPEC))
    assert cited
    missing = []
    for file_name, test_name in sorted(cited):
        path = tests_dir / file_name
        if not path.is_file():
            missing.append(file_name)
        elif test_name and not re.search(rf"^(?:async )?def {test_name}\(", path.read_text(),
                                         re.M):
            missing.append(f"{file_name}::{test_name}")
    assert not missing, missing


def test_every_table_row_has_as_many_cells_as_its_header() -> None:
    width = None
    for number, line in enumerate(SPEC.splitlines(), 1):
        if not line.startswith("|"):
            width = None
            continue
        cells = len(re.split(r"(?<!\\)\|", line)) - 2
        if width is None:
            width = cells  # the header
        assert cells == width, f"SPEC.md line {number}: {cells} cells under a header of {width}"
