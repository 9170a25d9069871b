"""Issue 12's last client points, on the model and the screen (80x24) around a real engine
Match (tests/client_table.py): the host's own player is told that leaving ends the table; the
table list watches a table (w); a spectator sees no hand and no player keys, is told it
watches and which seat it may take; chat lines that came while the table had the keys are
counted on the chat's title until Tab; who comes and goes is worded in each language; a
changed host key fills the screen at once with what to do."""

from __future__ import annotations

from dataclasses import replace

import pytest
from client_table import scenario_table
from prompt_toolkit.utils import get_cwidth

from client.i18n import Translator
from client.link import (
    ChatReceived,
    ConnectionChanged,
    GameEvent,
    Hosting,
    HostKeyWarning,
    LobbyChanged,
    ManifestReceived,
    SeatNews,
    Snapshot,
    TablesListed,
)
from client.lobby import JoinTable, SeatInfo, Spectate, TableInfo
from client.model import ClientModel, Screen
from client.render import compose, help_keys
from unonet import events as ev

WIDTH, HEIGHT = 80, 23


def screen(model: ClientModel, width: int = WIDTH, height: int = HEIGHT) -> str:
    text = "".join(fragment[1] for fragment in compose(model, width, height, plain=False))
    lines = text.split("\n")
    assert len(lines) == height and all(get_cwidth(line) <= width for line in lines)
    return text


def playing(lang: str = "en") -> ClientModel:
    model = ClientModel(Translator(lang), name="Me")
    scenario_table(model).start(model.apply)
    assert model.screen is Screen.GAME
    return model


def spectator(lang: str = "en", *, gone: bool = True, away: bool = False) -> ClientModel:
    """Cy in the audience of the scenario's match; Bruno (seat 2) has left and a stand-in
    plays his seat when `gone`; he dropped and may still come back when `away`."""
    player = ClientModel(Translator(lang), name="Me")
    table = scenario_table(player)
    table.start(player.apply)
    assert player.lobby is not None and player.manifest is not None
    seats = tuple(SeatInfo(s.seat, "human" if s.seat == 1 else s.kind, s.name, s.ready,
                           not ((gone or away) and s.seat == 1), gone and s.seat == 1)
                  for s in player.lobby.seats)
    model = ClientModel(Translator(lang), name="Cy")
    model.apply(ManifestReceived(player.manifest))
    model.apply(LobbyChanged(replace(player.lobby, seats=seats, you=None, started=True,
                                     spectators=1)))
    model.apply(Snapshot(table.match.view(None), ()))
    return model


# -- 1. the host's own player ------------------------------------------------------------------


@pytest.mark.parametrize(("lang", "words"), [("en", "ends it for everyone"),
                                              ("it", "finisce per tutti"),
                                              ("pt", "acaba para todos")])
def test_the_hosts_own_player_is_told_that_leaving_ends_the_table(lang: str, words: str) -> None:
    model = playing(lang)
    model.request_quit()
    assert words not in screen(model)  # a friend's quit prompt says nothing of the kind
    model.cancel_prompt()
    model.apply(Hosting())
    assert model.chat_unread == 0  # the reminder in the chat is ours, not news to read
    assert words in "".join(line.text for line in model.chat)
    model.request_quit()
    prompt = Translator(lang)("ui.quit_host")
    assert words in prompt and prompt in screen(model)


def test_the_hosts_quit_prompt_shows_on_the_lobby_too() -> None:
    model = ClientModel(Translator("en"), name="Me")
    scenario_table(model, lobby_first=True).start(model.apply)
    model.apply(Hosting())
    model.request_quit()
    assert model.screen is Screen.LOBBY
    assert "You host this table: leaving ends it for everyone. y yes, n no" in screen(model)


# -- 2. watching from the table list -----------------------------------------------------------


def test_w_on_the_table_list_watches_the_chosen_table() -> None:
    model = ClientModel(Translator("en"), name="Ada")
    model.apply(TablesListed((TableInfo(0, "home", 4, 4, True), TableInfo(3, "club", 4, 2, True))))
    model.table_next()
    assert model.watch_selected() == Spectate(3)
    text = screen(model)
    assert "w watch" in text and "1-0 join at seat" in text and "q quit" in text
    assert "help.tables_watch" in help_keys(model, plain=False)
    model.toggle_help()
    assert "w: watch the chosen table" in screen(model)
    assert ClientModel(Translator("en")).watch_selected() is None  # no list, nothing to watch


@pytest.mark.parametrize("lang", ["it", "pt"])
def test_the_table_lists_key_bar_keeps_watch_seat_and_quit_at_80_columns(lang: str) -> None:
    model = ClientModel(Translator(lang), name="Ada")
    model.apply(TablesListed((TableInfo(0, "casa", 4, 1, False),)))
    text = screen(model)
    assert ("w guarda" in text or "w assiste" in text) and "1-0" in text
    assert "q esci" in text or "q sai" in text


# -- 3. a spectator's screen ---------------------------------------------------------------------


def test_a_spectator_sees_no_hand_and_no_player_keys_and_the_seat_it_may_take() -> None:
    model = spectator()
    assert model.watching and model.screen is Screen.GAME
    text = screen(model)
    assert "Your hand" not in text
    assert "You are watching" in text
    assert "Seats you can take (their player is gone): 2 Bruno" in text
    keybar = text.split("\n")[-1]
    for key in ("Enter", "Space", "U ", "F "):
        assert key not in keybar, key
    assert "1-0 take seat" in keybar and "q quit" in keybar
    keys = help_keys(model, plain=False)
    assert "help.watching" in keys and "help.sit_match" in keys
    assert not {"help.play", "help.draw", "help.uno", "help.challenge", "help.pick"} & set(keys)


def test_a_spectator_takes_only_a_seat_whose_player_is_gone() -> None:
    model = spectator()
    assert model.open_seats() == [1]
    assert model.take_seat(0) is None and "Seat 1 has its player" in model.notice
    assert model.take_seat(1) == JoinTable(0, "Cy", 1)


def test_a_seat_whose_player_dropped_and_may_come_back_is_not_offered() -> None:
    """Within its grace period the host would refuse the seat (SPEC.md [UNO-8-14]): it is not
    offered, and pressing its number says why it is not open yet."""
    model = spectator(gone=False, away=True)
    assert model.open_seats() == []
    assert "take seat" not in screen(model).split("\n")[-1]
    assert model.take_seat(1) is None and "may still come back" in model.notice


def test_with_every_player_there_a_spectator_is_told_how_a_seat_opens() -> None:
    model = spectator(gone=False)
    text = screen(model)
    assert "Every seat has its player" in text
    assert "take seat" not in text.split("\n")[-1]


@pytest.mark.parametrize(("lang", "words"), [("en", "Bots hold every seat"),
                                              ("pt", "Bots ocupam todos os lugares")])
def test_a_spectator_of_bots_alone_is_not_told_a_seat_may_open(lang: str, words: str) -> None:
    """Found in tmux watching a dedicated server's table of three bots: "one opens if a
    player leaves and a bot stands in", where no player is there to leave."""
    model = spectator(lang, gone=False)
    assert model.lobby is not None
    bots = tuple(replace(seat, kind="bot") for seat in model.lobby.seats)
    model.apply(LobbyChanged(replace(model.lobby, seats=bots)))
    text = screen(model)
    assert words in " ".join(text.split())
    assert model.tr("ui.watch_full").split(";")[0] not in text


@pytest.mark.parametrize(("lang", "words"), [("it", "Stai guardando"),
                                              ("pt", "Você está assistindo")])
def test_a_spectators_screen_in_italian_and_portuguese(lang: str, words: str) -> None:
    text = screen(spectator(lang))
    assert words in text and "La tua mano" not in text and "Sua mão" not in text


def test_a_player_is_not_watching() -> None:
    model = playing()
    assert not model.watching and "Your hand" in screen(model)


# -- 4. unread chat, and who comes and goes ------------------------------------------------------


def test_chat_lines_that_came_while_the_table_had_the_keys_are_counted_until_tab() -> None:
    model = playing()
    model.apply(ChatReceived("Bruno", "hi", 1))
    model.apply(ChatReceived("Chiara", "hello", 2))
    model.apply(ChatReceived("Me", "my own line", 0))  # ours, back from the host
    assert model.chat_unread == 2
    assert "Chat (2 new, Tab reads)" in screen(model)
    model.focus_chat(True)
    assert model.chat_unread == 0 and "new, Tab reads" not in screen(model)
    model.apply(ChatReceived("Bruno", "read as it comes", 1))  # the chat has the keys
    assert model.chat_unread == 0
    model.focus_chat(False)
    model.apply(SeatNews("dropped", "Bruno", 1))
    assert model.chat_unread == 1


def test_the_chat_says_it_is_scrolled_back_only_when_lines_are_hidden() -> None:
    """Found in review: with two lines in a pane of more rows, PgUp set the chat back one
    line; nothing was hidden, but the title said "(earlier lines, PgDn)" where the count
    of unread lines had been. The title follows how far back the pane really is."""
    model = playing()
    model.apply(ChatReceived("Bruno", "hi", 1))
    model.scroll_chat(3, 10)
    text = screen(model)
    assert "earlier lines" not in text and "Chat (1 new, Tab reads)" in text
    for n in range(20):
        model.apply(ChatReceived("Chiara", f"line {n}", 2))
    assert "earlier lines" in screen(model) and "line 19" not in screen(model)


@pytest.mark.parametrize(("lang", "whole", "short"), [
    ("en", "Chat (1 new, Tab reads)", "Chat (1 new)"),
    ("it", "Chat (1 nuovo, Tab per leggere)", "Chat (1 nuovo)"),
    ("pt", "Chat (1 nova, Tab lê)", "Chat (1 nova)"),
])
def test_the_chat_count_fits_the_chat_pane_at_every_width(lang: str, whole: str,
                                                          short: str) -> None:
    """Found in tmux at 60 columns: "Chat (1 nuovo, Tab per" at the pane's edge. In a pane
    too narrow for the key that reads the chat (the key bar names it), the count alone."""
    model = playing(lang)
    model.apply(ChatReceived("Bruno", "ciao", 1))
    for width in range(60, 121, 5):
        text = screen(model, width, 18)
        assert whole in text or short in text, (width, text)
        heading = next(line for line in text.split("\n") if "Chat (" in line)
        assert "…" not in heading, (width, heading)
    assert whole in screen(model, 120, 24)
    assert short in screen(model, 60, 18) or whole in screen(model, 60, 18)
    if lang == "it":  # the longest: the count alone at 60 columns
        assert short in screen(model, 60, 18)


@pytest.mark.parametrize(("lang", "took", "left_bot"), [
    ("en", "Bruno took seat 2", "Bruno left: a bot plays seat 2"),
    ("it", "Bruno si siede al posto 2", "Bruno se n'è andato: un bot gioca il posto 2"),
    ("pt", "Bruno sentou no lugar 2", "Bruno saiu: um bot joga o lugar 2"),
])
def test_who_comes_and_goes_is_worded_in_the_players_language(
    lang: str, took: str, left_bot: str
) -> None:
    model = playing(lang)
    kinds = ("took_seat", "dropped", "back", "stand_in", "took_over", "moved", "left",
             "left_bot")
    for what in kinds:
        model.apply(SeatNews(what, "Bruno", 1))
    texts = [line.text for line in model.chat]
    assert texts[0] == took and texts[-1] == left_bot
    assert len(set(texts)) == len(kinds)
    assert all(line.name == Translator(lang)("news.table") for line in model.chat)


RENAMED = [("en", "Bea is now Ana 2"), ("it", "Bea ora si chiama Ana 2"),
           ("pt", "Bea agora se chama Ana 2")]


@pytest.mark.parametrize(("lang", "words"), RENAMED)
def test_a_rename_is_worded_as_one_in_each_language(lang: str, words: str) -> None:
    assert Translator(lang)("news.renamed", old="Bea", name="Ana 2", seat=2) == words


@pytest.mark.parametrize(("lang", "words"), RENAMED)
def test_a_rename_reads_as_one_line_in_the_chat(lang: str, words: str) -> None:
    model = playing(lang)
    model.apply(SeatNews("renamed", "Ana 2", 1, "Bea"))
    assert [line.text for line in model.chat] == [words]


# -- 5. a changed host key -------------------------------------------------------------------------


KEY = HostKeyWarning("remembered", "127.0.0.1:7077", "AAAA-BBBB", "CCCC-DDDD",
                     "/home/someone/.config/unonet/known_hosts")


@pytest.mark.parametrize(("lang", "title"), [("en", "THE HOST'S FINGERPRINT HAS CHANGED"),
                                              ("it", "L'IMPRONTA DELL'HOST È CAMBIATA"),
                                              ("pt", "A IMPRESSÃO DIGITAL DO HOST MUDOU")])
def test_a_changed_host_key_fills_the_screen_with_what_to_do(lang: str, title: str) -> None:
    model = playing(lang)
    model.apply(KEY)
    model.apply(ConnectionChanged("lost", "the host's fingerprint changed"))
    text = screen(model)
    assert title in text
    assert "\n  AAAA-BBBB" in text and "\n  CCCC-DDDD" in text  # remembered, and shown now
    assert "unonet join 127.0.0.1:7077 --pin CCCC-DDDD" in text
    assert model.tr("ui.key_printed") in " ".join(text.split())
    assert "Your hand" not in text and "La tua mano" not in text
    assert "alert" in {fragment[0].split(":")[-1] for fragment in compose(model, WIDTH, HEIGHT,
                                                                           plain=False)}


@pytest.mark.parametrize(("lang", "english"), [("it", "the host's fingerprint is"),
                                                ("pt", "refusing to connect")])
@pytest.mark.parametrize("reason", ["pinned", "remembered", "earlier"])
def test_a_changed_host_key_is_said_in_the_players_words(lang: str, english: str,
                                                          reason: str) -> None:
    """Found in tmux: a Portuguese client's warning for a wrong --fingerprint read "the host's
    fingerprint is …, not the pinned AAAABBBBCCCCDDDD: refusing to connect" (English, and the
    pin without its dashes). Where the link gives the warning's parts, the screen words them:
    whence the expected fingerprint, the one shown now, and the command that pins it."""
    expected, seen = "AAAA-BBBB-CCCC-DDDD", "6HPL-C3VL-ZJL3-U3AC-MNRO-FTSV-6L5R-YYJQ-EJPC"
    warning = f"the host's fingerprint is {seen}, not the pinned {expected}: refusing to connect"
    model = playing(lang)
    model.apply(HostKeyWarning(reason, "127.0.0.1:7301", expected, seen,
                               "/home/zé/.config/unonet/known_hosts"))
    model.apply(ConnectionChanged("lost", warning))
    for width, height in ((60, 17), (WIDTH, HEIGHT)):
        text = screen(model, width, height)
        joined = " ".join(text.split())
        assert english not in text, (width, text)
        assert model.tr(f"ui.key_{reason}", address="127.0.0.1:7301") in joined
        assert model.tr("ui.key_seen") in joined
        assert expected in text and seen in text.replace("\n  ", "")
        assert "unonet join 127.0.0.1:7301 --pin 6HPL-C3VL-ZJL3-U3AC" in joined
        forget = model.tr("ui.key_forget", address="127.0.0.1:7301",
                          path="/home/zé/.config/unonet/known_hosts")
        assert (forget in joined) == (reason == "remembered"), (width, text)


def test_a_plain_disconnect_is_not_a_key_warning() -> None:
    model = playing()
    model.apply(ConnectionChanged("lost", "the host closed the connection"))
    text = screen(model)
    assert "FINGERPRINT" not in text and "connection lost" in text


def test_a_spectator_in_the_lobby_is_offered_a_seat_not_ready() -> None:
    player = ClientModel(Translator("en"), name="Me")
    scenario_table(player, lobby_first=True).start(player.apply)
    assert player.lobby is not None
    model = ClientModel(Translator("en"), name="Cy")
    model.apply(LobbyChanged(replace(player.lobby, you=None, owner=None, spectators=1)))
    assert model.watching and model.screen is Screen.LOBBY
    keybar = screen(model).split("\n")[-1]
    assert "1-0 take that seat" in keybar and "r ready" not in keybar
    assert "help.ready" not in help_keys(model, plain=False)


def test_a_spectator_holds_no_deal_at_a_rounds_end() -> None:
    """Found in tmux: a spectator read "Refused: only someone at a table can do that" at
    every round's end, having pressed nothing: its client held the next deal (ready false)
    as a player's does, and Enter asked for the next round, neither of which is a
    spectator's to ask."""
    model = spectator()
    model.outbox.clear()
    model.apply(GameEvent(ev.RoundEnded(0, ((), (5,), (7,)), (12, 0, 0), (12, 0, 0)), ()))
    assert model.screen is Screen.ROUND_END and model.outbox == []
    assert model.ready_next_round() is None
