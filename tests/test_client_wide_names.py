"""Names are padded by the columns a terminal draws them in: a name in Chinese, or with an
emoji, takes two columns a character. Found in tmux: the lobby padded names by their
characters, so "李小龙🎉é" pushed its row's "not ready" four columns to the right of the
others; the round's and the match's score tables did the same."""

from __future__ import annotations

import random
import re

from prompt_toolkit.utils import get_cwidth
from test_teams_match_end import follow_to_the_end

from client.i18n import Translator
from client.link import ChatReceived, LobbyChanged, ManifestReceived, Snapshot
from client.lobby import LobbyState, SeatInfo
from client.model import ClientModel
from client.render import Look, compose, result_lines
from unonet.match import MATCH_OVER, Match
from unonet.rules import RuleSet

NAMES = ("李小龙🎉é", "Ana", "\uff46\uff55\uff4c\uff4c", "Bo")  # "full" in fullwidth letters
"""Wide (CJK, an emoji, fullwidth Latin) beside narrow names."""


def lobby(started: bool) -> LobbyState:
    seats = tuple(SeatInfo(s, "human", name, s % 2 == 0, True) for s, name in enumerate(NAMES))
    return LobbyState(0, "table", 0, RuleSet(max_rounds=1).to_dict(), seats, started, you=1)


def columns_after_names(lines: list[str]) -> list[int]:
    """For each line that holds a name, the column of the field after its padding: where a
    word starts (left-aligned), or where a number ends (right-aligned: points, a count)."""
    found = []
    for line in lines:
        if " wins" in line:  # a headline, not a row
            continue
        for name in NAMES:
            hit = re.search(re.escape(name) + r" +(\d+\b)?", line)
            if hit:
                found.append(get_cwidth(line[:hit.end()]))
    return found


def text_of(model: ClientModel) -> list[str]:
    return "".join(fragment[1] for fragment in compose(model, 80, 23, plain=True)).split("\n")


def test_the_lobby_lines_up_wide_and_narrow_names() -> None:
    model = ClientModel(Translator("en"), name="Ana")
    model.apply(LobbyChanged(lobby(started=False)))
    found = columns_after_names(text_of(model))
    assert len(found) == len(NAMES) and len(set(found)) == 1, found


def test_the_table_and_the_score_tables_line_up_wide_and_narrow_names() -> None:
    match = Match(RuleSet(max_rounds=1), len(NAMES), b"wide")
    model = ClientModel(Translator("en"), name="Ana")
    model.apply(ManifestReceived(match.manifest))
    model.apply(LobbyChanged(lobby(started=True)))
    model.apply(Snapshot(match.view(1), tuple(match.legal_actions(1))))
    table = columns_after_names(text_of(model)[1:1 + len(NAMES)])
    assert len(table) == len(NAMES) and len(set(table)) == 1, table
    follow_to_the_end(match, random.Random(3), model, 1)
    assert match.phase == MATCH_OVER and model.results
    rows = result_lines(model, model.results[-1], 80, len(NAMES), Look(plain=True))
    found = columns_after_names(["".join(fragment[1] for fragment in row) for row in rows])
    assert len(found) == len(NAMES) and len(set(found)) == 1, found
    ended = columns_after_names(text_of(model))
    assert len(ended) >= len(NAMES) and len(set(ended)) == 1, ended


def test_a_long_chat_line_in_chinese_is_wrapped_whole() -> None:
    """Found in tmux: a chat line of Chinese with no space lost its middle. A word longer
    than the pane was broken every `width` characters, twice as many columns, and each
    piece was then cut at the pane's edge."""
    from client.render import wrap

    text = "你好世界 这是一个很长的消息用来测试换行是否正确处理宽字符的情况 🎉🎉🎉 end"
    for width in (1, 2, 7, 28, 29):
        lines = wrap(text, width)
        assert all(get_cwidth(line) <= max(width, 2) for line in lines), (width, lines)
        assert "".join(lines).replace(" ", "") == text.replace(" ", "")
    model = ClientModel(Translator("en"), name="Ana")
    model.apply(LobbyChanged(lobby(started=False)))
    model.apply(ChatReceived(NAMES[0], text, 0))
    for width, height in ((80, 23), (60, 17)):
        screen = "".join(fragment[1] for fragment in compose(model, width, height, plain=True))
        chat = "".join(line.split("│")[-1].strip() for line in screen.split("\n"))
        assert "".join(text.split()) in "".join(chat.split()), screen


def test_a_fingerprint_is_broken_between_its_groups() -> None:
    """Found in tmux: the host's "Friends join with" notice broke its fingerprint mid-group
    ("...-6EKB-ABA" / "O-SQAA") in the chat pane; a group split over two lines is easy to
    copy wrong."""
    from client.render import wrap

    fingerprint = "ONZ3-X7CD-FYOK-YJXX-PVPY-UQYY-K2PI-XKTL-AFUJ-VSTO-6EKB-ABAO-SQAA"
    for width in (12, 20, 29, 30, 41):
        lines = wrap(f"unonet join 192.0.2.2:7110 --fingerprint {fingerprint}", width)
        groups = [line for line in lines if line[:4].isupper() or line.startswith("ONZ3")]
        assert "".join(groups) == fingerprint, (width, lines)
        assert all(line.endswith("-") for line in groups[:-1]), (width, lines)
        assert all(get_cwidth(line) <= width for line in lines), (width, lines)
