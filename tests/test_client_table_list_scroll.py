"""A club's table list longer than the screen scrolls with the selection (found in tmux: at
60x18, with 30 tables, the arrow keys moved the selection off the screen and Enter joined a
table the player could not see). Whatever the list's length, the terminal's height, the
selection and a notice above the list, the selected table is on the screen, every table is
either shown or counted in a "+N more" line at the end it is cut from, and nothing spills
past the screen's last line."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from client.i18n import Translator
from client.link import TablesListed
from client.lobby import TableInfo
from client.model import ClientModel, Screen
from client.render import MIN_HEIGHT, MIN_WIDTH, compose

MORE = re.compile(r"^\s+\+(\d+) more\s*$")


def listed(count: int, cursor: int, notice: str | None = None) -> ClientModel:
    model = ClientModel(Translator("en"), name="me")
    model.apply(TablesListed(tuple(TableInfo(n, f"club {n + 1}", 4, n % 5, n % 3 == 0)
                                   for n in range(count))))
    model.table_next(cursor)
    model.notice = "" if notice is None else notice  # "" clears it, as None did
    assert model.screen is Screen.TABLES
    return model


def club_number(line: str) -> int:
    """The N of the "club N:" a line of the list shows."""
    found = re.search(r"club (\d+):", line)
    assert found is not None, line
    return int(found.group(1))


def shown(model: ClientModel, width: int, height: int) -> list[str]:
    return "".join(part[1] for part in compose(model, width, height, plain=True)).split("\n")


@settings(max_examples=300, deadline=None)
@given(count=st.integers(1, 120), cursor=st.integers(0, 119),
       height=st.integers(MIN_HEIGHT, 40), width=st.integers(MIN_WIDTH, 120),
       notice=st.sampled_from([None, "Refused: the table is full.", "x " * 150,
                               "a host's longest message " * 41]))
def test_the_selected_table_is_on_the_screen_and_every_other_is_shown_or_counted(
    count: int, cursor: int, height: int, width: int, notice: str | None
) -> None:
    model = listed(count, cursor % count, notice)
    lines = shown(model, width, height)
    assert len(lines) == height
    tables = [line for line in lines if re.match(r"^ [ >] club \d+:", line)]
    selected = [line for line in tables if line.startswith(" > ")]
    assert len(selected) == 1 and f"club {cursor % count + 1}:" in selected[0], lines
    counted = sum(int(found.group(1)) for line in lines if (found := MORE.match(line)))
    assert len(tables) + counted == count, lines
    numbers = [club_number(line) for line in tables]
    assert numbers == list(range(numbers[0], numbers[0] + len(numbers)))  # one run, in order


def test_thirty_tables_at_60x18_keep_the_chosen_one_in_sight() -> None:
    """The case seen in tmux: the 26th of 30 tables chosen with the arrow keys."""
    lines = shown(listed(30, 25), 60, 17)
    assert any(line.startswith(" > club 26:") for line in lines), lines
    # 15 lines under the title bar: the title, our name, a blank, "+19 more", clubs 20 to 30
    assert lines[4].split() == ["+19", "more"]
    assert lines[5].startswith("   club 20:") and lines[-2].startswith("   club 30:")


def test_a_short_list_has_no_more_lines() -> None:
    lines = shown(listed(5, 4), 80, 23)
    assert not any(MORE.match(line) for line in lines)
    assert sum(1 for line in lines if re.match(r"^ [ >] club \d+:", line)) == 5
