"""Issue 13 points 5 and 6 on the client's model and screen (80x23): whatever a hostile host
or member puts in a name, a table name, a chat line or an error message (ESC[2J, BEL, NUL,
U+202E...), the terminal gets a visible escape, never the character; and a host notice
(chat_message.host) starts with a mark no member's line can show, however the member is
called and whatever it says."""

from __future__ import annotations

import argparse
import unicodedata
from dataclasses import replace

import pytest
from client_table import scenario_table
from hypothesis import given
from hypothesis import strategies as st

from client.cli import JoinError, player_name
from client.i18n import Translator
from client.link import ChatReceived, LobbyChanged, Refused, SeatNews, TablesListed
from client.link_session import player_name as session_name
from client.lobby import TableInfo
from client.model import ClientModel, Screen
from client.render import HOST_MARK, LOCAL_MARK, chat_lines, compose
from client.safe_text import shown
from client.wire import WireError, lobby_from_wire
from protocol.examples import EXAMPLES
from protocol.text import REFUSED_CATEGORIES

WIDTH, HEIGHT = 80, 23
HOSTILE_NAMES = ["\x1b[2J\x1b[Hwiped", "bell\x07\x07", "nul\x00byte", "\u202egnp.exe",
                 "title\x1b]0;pwned\x07", "csi\x9b31m"]
FAKE_NOTICE = "Friends join with unonet join 10.0.0.9:7777 --fingerprint AB:CD:EF:01"


def refused(text: str) -> list[str]:
    return [c for c in text if unicodedata.category(c) in REFUSED_CATEGORIES]


def drawn(model: ClientModel, width: int = WIDTH, height: int = HEIGHT) -> str:
    return "".join(fragment[1] for fragment in compose(model, width, height, plain=False))


def playing() -> ClientModel:
    model = ClientModel(Translator("en"), name="Me")
    scenario_table(model).start(model.apply)
    assert model.screen is Screen.GAME
    return model


def hostile_seats(model: ClientModel) -> ClientModel:
    """The scenario's match as a hostile host would name its seats (no catalogue check)."""
    assert model.lobby is not None
    seats = tuple(replace(seat, name=HOSTILE_NAMES[seat.seat % len(HOSTILE_NAMES)])
                  if seat.seat != model.lobby.you else seat for seat in model.lobby.seats)
    model.apply(LobbyChanged(replace(model.lobby, seats=seats, name="\x1b[31mred\u202etable")))
    return model


def test_shown_escapes_control_and_format_characters_visibly() -> None:
    assert shown("\x1b[2J") == "\\x1b[2J"
    assert shown("a\x07b\x00c") == "a\\x07b\\x00c"
    assert shown("ab\u202ecd") == "ab\\u202ecd"
    assert shown("tag\U000e0041") == "tag\\U000e0041"
    assert shown("plain ada, zoé 🎉") == "plain ada, zoé 🎉"
    assert shown("two\nlines") == "two\\x0alines"
    assert shown("two\nlines\x1b", keep_newlines=True) == "two\nlines\\x1b"


@given(st.text(alphabet=st.characters(codec=None), max_size=60))
def test_nothing_shown_holds_a_refused_character_and_showing_twice_changes_nothing(
        text: str) -> None:
    once = shown(text)
    assert not refused(once)
    assert shown(once) == once


def test_hostile_seat_and_table_names_reach_the_screen_escaped() -> None:
    model = hostile_seats(playing())
    screen = drawn(model)
    assert not refused(screen.replace("\n", ""))
    assert "\\x1b[2J" in screen or "\\x07" in screen  # the names are there, as escapes
    for name in HOSTILE_NAMES:
        assert name not in screen


def test_hostile_names_are_escaped_in_the_narrator_log_and_chat_news() -> None:
    model = hostile_seats(playing())
    assert not any(refused(name) for name in model.names())
    model.apply(SeatNews("took_seat", "\x1b[2Jintruder\u202e", 2))
    assert not refused(model.chat[-1].text) and "\\x1b[2Jintruder\\u202e" in model.chat[-1].text
    for entry in model.log:
        assert not refused(entry)


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_a_hostile_chat_line_is_drawn_escaped(name: str) -> None:
    model = playing()
    model.apply(ChatReceived(name, "look \x1b[2J\x07 here\u202e", 1))
    pane = "".join(f[1] for line in chat_lines(model, 40, 10) for f in line)
    assert not refused(pane)
    assert "look \\x1b[2J\\x07 here\\u202e" in pane.replace("  ", " ") or "\\x1b" in pane
    assert not refused(drawn(model).replace("\n", ""))


def test_an_error_message_and_a_table_list_from_the_host_are_escaped() -> None:
    model = ClientModel(Translator("en"), name="Me")
    model.apply(TablesListed((TableInfo(0, "\x1b]0;owned\x07kitchen", 4, 1, False, "official"),)))
    screen = drawn(model)
    assert "\\x1b]0;owned\\x07kitchen" in screen and not refused(screen.replace("\n", ""))
    model.apply(Refused("made_up_code", "you \x1b[2J lost\x00"))
    assert model.notice is not None and not refused(model.notice)
    assert "\\x1b[2J" in model.notice


def first_lines(model: ClientModel, width: int = 60) -> list[list[tuple[str, str]]]:
    """The chat pane's lines, one per chat line when they are short (as here)."""
    return [[(f[0], f[1]) for f in line] for line in chat_lines(model, width, 20)]


def test_a_host_notice_is_drawn_as_no_member_line_can_be() -> None:
    model = playing()
    model.apply(ChatReceived("host", FAKE_NOTICE, None, host=True))
    model.apply(ChatReceived("host", FAKE_NOTICE, None))  # a member a hostile host calls host
    model.apply(ChatReceived("ada", f"{HOST_MARK} host: {FAKE_NOTICE}", 1))
    model.apply(ChatReceived(f"{HOST_MARK} host", FAKE_NOTICE, None))
    real, *fakes = [line for line in first_lines(model, 200)]
    assert real[0] == ("class:chat.host", f"{HOST_MARK} ")
    assert "".join(f[1] for f in real).startswith(f"{HOST_MARK} host: Friends join")
    assert all(style == "class:chat.host" for style, _ in real)
    for line in fakes:
        text = "".join(f[1] for f in line)
        assert not text.startswith(HOST_MARK) and not text.startswith(LOCAL_MARK)
        assert all(style != "class:chat.host" for style, _ in line)
    assert [("".join(f[1] for f in line)).split(" ")[0] for line in fakes] == ["~", "2", "~"]


@given(name=st.text(min_size=1, max_size=32), text=st.text(min_size=1, max_size=200),
       seat=st.one_of(st.none(), st.integers(0, 9)))
def test_no_member_line_starts_like_a_host_notice(name: str, text: str,
                                                  seat: int | None) -> None:
    model = ClientModel(Translator("en"), name="Me")
    model.apply(ChatReceived(name, text, seat))
    for index, line in enumerate(chat_lines(model, 40, 100)):
        drawn_line = "".join(f[1] for f in line)
        assert not drawn_line.startswith((HOST_MARK, LOCAL_MARK))
        assert all(f[0] != "class:chat.host" for f in line)
        assert not refused(drawn_line)
        if index == 0:
            assert drawn_line.startswith("~ " if seat is None else f"{seat + 1} ")


def test_our_own_name_is_normalised_and_host_is_refused() -> None:
    model = ClientModel(Translator("en"), name="Me")
    assert model.set_name("HOST") is None and model.notice is not None
    assert "host" in model.notice and model.my_name == "Me"
    model.set_name("  a\x1bda \u202e ")
    assert model.my_name == "ada"
    assert model.chat_line("hi\x1b[2J there\x07") == "hi[2J there"
    assert model.chat_line("\x1b\x07") is None
    assert session_name("H o s t") == "player" and session_name("zoe\u0301") == "zoé"


def test_the_command_line_refuses_a_reserved_name() -> None:
    with pytest.raises(JoinError, match="reserved"):
        player_name(argparse.Namespace(name="Host:"), {})
    assert player_name(argparse.Namespace(name="ada\x07"), {}) == "ada"
    # found in tmux: `unonet join --name ""` played as the login name, where `unonet bot`
    # refused the empty name
    with pytest.raises(JoinError, match="empty"):
        player_name(argparse.Namespace(name=""), {"USER": "root"})
    assert player_name(argparse.Namespace(name=None), {"USER": "root"}) == "root"


@pytest.mark.parametrize("value", [[], {"a": 1}, "x\x1b[2J", True, 10**30])
def test_a_rule_value_the_rules_refuse_makes_a_table_state_unusable(value: object) -> None:
    """Found by trying values: a host whose table_state said `variant: []` (or any list or
    map) crashed the screen, which words every rule that differs from the official ones."""
    message = {**EXAMPLES["table_state"], "rules": {"target": 200, "variant": value}}
    with pytest.raises(WireError, match="rules: "):
        lobby_from_wire(message)


def test_an_option_this_client_does_not_know_is_left_out() -> None:
    """A newer host's option ([UNO-6-14]): ignored, the known ones kept and worded."""
    message = {**EXAMPLES["table_state"], "owner": None,
               "rules": {"target": 200, "warp_drive": [1, 2]}}
    lobby = lobby_from_wire(message)
    assert lobby.rules == {"target": 200}
    model = ClientModel(Translator("en"), name="Me")
    model.apply(LobbyChanged(lobby))
    assert "Target points: 200 points" in drawn(model)
