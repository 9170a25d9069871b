"""Where a line has more to say than the screen has room: what gives way says so with "…",
and what a player needs to decide stays whole (found in tmux at 60 columns, issue 16's club
host with its long table names and rule lists)."""

from __future__ import annotations

from prompt_toolkit.utils import get_cwidth

from client.i18n import Translator
from client.link import LobbyChanged, TablesListed
from client.lobby import LobbyState, SeatInfo, TableInfo
from client.model import ClientModel
from client.render import Line, clip, column_split, compose
from unonet.rules import PRESETS


def test_a_line_cut_at_the_screens_edge_ends_in_an_ellipsis() -> None:
    """What is left out of a line that does not fit is said with "…" in its last column;
    a line whose spaces alone did not fit is not marked. Wide characters count two."""
    assert text(clip([("", "abcdef")], 4)) == "abc…"
    assert text(clip([("a", "ab"), ("b", "cdef")], 4)) == "abc…"
    assert clip([("a", "ab"), ("b", "cdef")], 4)[-1][0] == "b"  # the cut fragment's style
    assert text(clip([("", "abcd   ")], 4)) == "abcd"
    assert text(clip([("", "abcd"), ("", "  ")], 4)) == "abcd"
    assert text(clip([("", "abcd"), ("", "e")], 4)) == "abc…"
    assert text(clip([("", "ab")], 4)) == "ab  "
    assert text(clip([("", "漢字漢字")], 5)) == "漢字…"
    assert get_cwidth(text(clip([("", "a漢字漢字")], 4))) == 4
    assert text(clip([("", "abcdef")], 4, mark=False)) == "abcd"


def text(line: Line) -> str:
    return "".join(fragment[1] for fragment in line)


def screen_lines(model: ClientModel, width: int, height: int = 18) -> list[str]:
    return "".join(fragment[1] for fragment in compose(model, width, height, True)).split("\n")


def test_a_long_table_name_gives_way_to_how_full_the_table_is() -> None:
    """Found at 60 columns: "Mesa de Zé Maria da Silva Santos: 4/10 players (playing," at
    the edge: whether a seat is open was what fell off. The name is cut with "…" instead."""
    name = "Mesa de Zé Maria da Silva Santos"
    for lang in ("en", "it", "pt"):
        tr = Translator(lang)
        model = ClientModel(tr, name="Me")
        model.apply(TablesListed((TableInfo(0, name, 10, 4, True, "no_mercy", 1),
                                  TableInfo(1, "club", 4, 2, False))))
        for width in (70, 80, 100):
            rows = [line for line in screen_lines(model, width) if "4/10" in line]
            assert len(rows) == 1, (lang, width)
            state = tr("tables.playing_open", count=1)
            assert f"({state})" in rows[0], (lang, width, rows[0])
            if get_cwidth(f" > {name}: 4/10 ({state})") + 12 > width:
                assert "…" in rows[0] and name not in rows[0]
        assert any(name in line for line in screen_lines(model, 120)), lang


def test_the_guests_rule_columns_leave_the_first_whole_where_the_second_fits_beside() -> None:
    """Half the width each cut "Draw with a playable ca…: forbidden" at 78 columns beside a
    second column of short rules; the split now follows what each column needs."""
    left = ["Draw with a playable card: forbidden", "UNO penalty: 5 cards"]
    right = ["Sequences: yes", "Multiples: yes"]
    column = column_split(left, right, 78)
    assert column == get_cwidth(left[0]) + 3
    assert column_split(left, right, 50) in range(50 // 3, 50 - 50 // 3 + 1)
    assert column_split([], [], 60) == 3
    seats = (SeatInfo(0, "human", "Bea", False, True), SeatInfo(1, "human", "Cid", True, True))
    model = ClientModel(Translator("en"), name="Bea")
    model.apply(LobbyChanged(LobbyState(0, "table", None, PRESETS["seed004"], seats, False,
                                        "seed004", you=0)))
    for width in range(60, 121, 4):
        for line in screen_lines(model, width, 18):
            assert get_cwidth(line) <= width
    wide = screen_lines(model, 120, 18)
    assert not [line for line in wide if "…" in line], wide
