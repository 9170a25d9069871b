"""A journal that is not as the host wrote it (edited by hand, cut, another file) is refused in
one JournalError, which `unonet host --resume` says in one line; found by trying: a header
line that was JSON but not a header's map printed a traceback (KeyError, AttributeError),
and so would an action the rules refuse or a table record of the wrong types. Whatever one
value of one line is changed to (or a key removed), the journal either replays and its
table is rebuilt as a host resumes it, or it is refused as damage: never another error."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_client_hostile_host_fuzz import places
from test_host_journal import _play_some

from host.journal import JournalError, load
from host.run import HostOptions, build_registry


@pytest.fixture(scope="module")
def journal_lines(tmp_path_factory: pytest.TempPathFactory) -> list[Any]:
    path = tmp_path_factory.mktemp("journal") / "game.jsonl"
    _play_some(path, 60)
    return [json.loads(line) for line in path.read_bytes().splitlines()]


VALUES = st.one_of(st.none(), st.booleans(), st.integers(-3, 300), st.text(max_size=6),
                   st.lists(st.integers(-1, 120), max_size=4),
                   st.dictionaries(st.text(max_size=4), st.integers(0, 3), max_size=2))


def paths(value: Any) -> list[tuple[Any, ...]]:
    """Every place in a decoded line a value sits (map keys and list positions)."""
    return [path for path, _ in places(value) if path]


def edited(line: Any, path: tuple[Any, ...], value: Any, remove: bool) -> Any:
    line = json.loads(json.dumps(line))
    holder = line
    for step in path[:-1]:
        holder = holder[step]
    if remove and isinstance(holder, dict):
        del holder[path[-1]]
    else:
        holder[path[-1]] = value
    return line


def replays_or_is_refused(lines: list[Any]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "table0-edited.jsonl"
        path.write_text("".join(json.dumps(line) + "\n" for line in lines))
        try:
            load(path)
        except JournalError:
            return
        build_registry(HostOptions(resume=(path,)), Path(folder) / "journals", 0.0)


@settings(max_examples=250, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_one_value_changed_replays_or_is_refused_as_damage(
    journal_lines: list[Any], data: st.DataObject
) -> None:
    # The header half the time: it holds the most that a resumed table is built from.
    index = data.draw(st.one_of(st.just(0), st.integers(1, len(journal_lines) - 1)),
                      label="line")
    places = paths(journal_lines[index])
    path = data.draw(st.sampled_from(places), label="where")
    value = data.draw(VALUES, label="value")
    remove = data.draw(st.booleans(), label="remove the key instead")
    lines = list(journal_lines)
    lines[index] = edited(lines[index], path, value, remove)
    replays_or_is_refused(lines)


def test_a_line_that_is_not_a_record_or_an_action_the_rules_refuse_is_damage(
    journal_lines: list[Any], tmp_path: Path
) -> None:
    actions = [n for n, line in enumerate(journal_lines) if line.get("kind") == "action"]
    for lines, said in (
        ([["not", "a", "header"], *journal_lines[1:]], "not a journal header"),
        ([journal_lines[0], [1, 2], *journal_lines[1:]], "line 2: not a record"),
        # a player's move before the first deal (always refused: no round is on)
        ([*journal_lines[:actions[0]], journal_lines[actions[1]],
          *journal_lines[actions[0]:]], "the rules refuse it"),
        ([{**journal_lines[0], "table": {"number": 0, "capacity": "4"}}, *journal_lines[1:]],
         "its table capacity is '4'"),
        ([{**journal_lines[0], "seats": [{**journal_lines[0]["seats"][0], "name": "a\x1b[2J"},
                                         *journal_lines[0]["seats"][1:]]},
          *journal_lines[1:]], r"its header: the name contains U\+001B"),  # no player's
        # a take-over's newcomer named as no player can be
        ([*journal_lines, {"kind": "token", "seat": 0, "token_hash": None, "name": "a\x1b[2J"}],
         "the name contains U\\+001B"),
        ([*journal_lines, {"kind": "token", "seat": 0, "token_hash": None, "name": 7}],
         "a seat's name is not a name"),
    ):
        path = tmp_path / "damaged.jsonl"
        path.write_text("".join(json.dumps(line) + "\n" for line in lines))
        with pytest.raises(JournalError, match=said):
            load(path)
