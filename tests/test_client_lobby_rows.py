"""The lobby's seat rows: what each says of the seat's player, in every language."""

from __future__ import annotations

import re

from prompt_toolkit.utils import get_cwidth
from test_client_wide_names import NAMES, lobby, text_of

from client.i18n import Translator
from client.link import LobbyChanged
from client.lobby import LobbyState, SeatInfo
from client.model import ClientModel
from client.render import compose
from unonet.rules import PRESETS, RuleSet


def test_the_lobby_keeps_a_space_between_readiness_and_role_in_every_language() -> None:
    """Found in tmux: in Portuguese "não está pronto" (15 letters) filled a 12-column field,
    and ran into the role after it: "não está prontodono". The roles (seat 1 the owner's,
    seat 2 ours) start in one column, a space after the longer readiness word."""
    for lang in ("en", "it", "pt"):
        tr = Translator(lang)
        model = ClientModel(tr, name="Ana")
        model.apply(LobbyChanged(lobby(started=False)))
        lines = text_of(model)
        owner = next(line for line in lines if NAMES[0] in line)
        ours = next(line for line in lines if NAMES[1] in line)
        assert tr("lobby.ready") in owner and tr("lobby.not_ready") in ours, (lang, lines)
        columns = set()
        for line, role in ((owner, tr("lobby.owner")), (ours, tr("ui.you"))):
            at = line.index(role)
            assert line[at - 1] == " ", (lang, line)
            columns.add(get_cwidth(line[:at]))
        assert len(columns) == 1, (lang, owner, ours)


def test_an_empty_seat_is_neither_ready_nor_not_ready() -> None:
    """Found in tmux: a table opened from the list showed nine "(empty seat)  not ready"
    rows, as if someone there were holding the start up."""
    tr = Translator("en")
    model = ClientModel(tr, name="Ana")
    seats = (SeatInfo(0, "human", "Ana", False, True), SeatInfo(1, "empty", None, False, False))
    model.apply(LobbyChanged(LobbyState(0, "table", 0, RuleSet().to_dict(), seats, False, you=0)))
    lines = text_of(model)
    empty = next(line for line in lines if tr("lobby.empty") in line)
    assert tr("lobby.not_ready") not in empty and tr("lobby.ready") not in empty, empty
    assert tr("lobby.not_ready") in next(line for line in lines if "Ana" in line)


def test_a_run_of_empty_seats_is_one_row_and_leaves_the_rules_room() -> None:
    """Found in tmux: a table opened from the list has ten seats; nine "(empty seat)" rows
    left its owner two lines of rules at 80x24. Three or more empty seats in a row are one
    row now, numbered by the seats it stands for; one or two keep a row each."""
    kinds = ("human", "empty", "empty", "bot", "empty", "empty", "empty", "empty", "empty",
             "empty")
    seats = tuple(SeatInfo(s, kind, None if kind == "empty" else f"P{s}", False, True)
                  for s, kind in enumerate(kinds))
    tr = Translator("en")
    model = ClientModel(tr, name="P0")
    model.apply(LobbyChanged(LobbyState(0, "table", 0, RuleSet().to_dict(), seats, False,
                                        you=0)))
    lines = text_of(model)
    rows = [line for line in lines if re.match(r" *\d+(-\d+)?\. ", line)]
    assert [line.split(".")[0].strip() for line in rows] == ["1", "2", "3", "4", "5-10"], rows
    assert tr("lobby.empty_run") in rows[-1] and tr("lobby.empty") in rows[1]
    assert len({line.index(".") for line in rows}) == 1, rows  # the numbers line up
    options = [line for line in lines if line.startswith("   ") and "  " in line.strip()]
    assert len(options) >= 5, lines  # the rule editor keeps room: 2 options before


def test_the_rules_heading_says_what_a_preset_is() -> None:
    """Found in tmux: the owner's "p" showed "Regole (seed000)", a name from our sources'
    file names that tells a player nothing. The id stays (it is what `--rules` and SPEC.md
    call the preset); what it is follows. A preset only the host knows is shown escaped."""
    seats = (SeatInfo(0, "human", "Bea", False, True),)
    for lang, preset, heading in (("it", "seed000", "Regole (seed000: Wikipedia italiana)"),
                                  ("en", "seed004", "Rules (seed004: Brazilian rules)"),
                                  ("pt", "party", "Regras (party: regras da casa)"),
                                  ("en", "club\x1b[31m", "Rules (club\\x1b[31m)")):
        model = ClientModel(Translator(lang), name="Bea")
        rules = RuleSet(**PRESETS.get(preset, {})).to_dict()
        model.apply(LobbyChanged(LobbyState(0, "t", 0, rules, seats, False, preset, you=0)))
        assert any(heading in line for line in text_of(model)), (lang, preset, text_of(model))


def test_a_variants_preset_is_named_as_the_rules_name_its_game() -> None:
    """The lobby's words for the flip and no_mercy presets are the rulebook's names of
    their games, in each language (Portuguese said "UNO No Mercy" beside "UNO Sem Piedade")."""
    from unonet.rulebook import value_words

    for lang in ("en", "it", "pt"):
        for variant in ("flip", "no_mercy"):
            assert Translator(lang)(f"preset.{variant}") == value_words(
                "variant", variant, lang, "classic"), (lang, variant)


def test_a_lobby_of_no_seats_is_drawn() -> None:
    """A host may send a table_state with no seat at all: the lobby is drawn, empty."""
    model = ClientModel(Translator("en"), name="Bea")
    model.apply(LobbyChanged(LobbyState(0, "t", None, RuleSet().to_dict(), (), False)))
    assert any("Rules" in line for line in text_of(model))


def test_the_table_list_says_whether_a_match_has_a_seat_open() -> None:
    """Found in tmux: "table 1: 2/10 players (playing)" read as eight seats to take, and
    Enter was refused. The list says now whether a seat is open (SPEC [UNO-8-15])."""
    from client.link import TablesListed
    from client.lobby import TableInfo

    tables = (TableInfo(0, "a", 10, 2, True, None, 0), TableInfo(1, "b", 4, 4, True, None, 1),
              TableInfo(2, "c", 4, 2, True, None, 2), TableInfo(3, "d", 4, 2, True),
              TableInfo(4, "e", 4, 1, False, None, 3))
    for lang, said in (("en", ("a: 2/10 players (playing, no seat open: w watches)",
                               "b: 4/4 players (playing, 1 seat open)",
                               "c: 2/4 players (playing, 2 seats open)",
                               "d: 2/4 players (playing)", "e: 1/4 players")),
                       ("pt", ("a: 2/10 jogadores (jogando, nenhum lugar livre: w assiste)",
                               "b: 4/4 jogadores (jogando, 1 lugar livre)",
                               "c: 2/4 jogadores (jogando, 2 lugares livres)",
                               "d: 2/4 jogadores (jogando)", "e: 1/4 jogadores"))):
        model = ClientModel(Translator(lang), name="Zé")
        model.apply(TablesListed(tables))
        rows = [line.strip(" >") for line in text_of(model)]
        for line in said:
            assert line in rows, (lang, line, rows)


def test_the_lobby_says_when_the_match_starts_whole_at_the_smallest_window() -> None:
    """Found in tmux at 60 columns: a dedicated server's lobby said "La partita inizia quando
    tutti i giocatori seduti sono pront", cut at the window's edge as if that were all. The
    sentence now wraps; every language, from the smallest window up."""
    seats = (SeatInfo(0, "human", "Bea", False, True), SeatInfo(1, "human", "Cid", True, True))
    for lang in ("en", "it", "pt"):
        tr = Translator(lang)
        for started, key in ((False, "lobby.wait_ready"), (True, "lobby.starting")):
            model = ClientModel(tr, name="Bea")
            model.apply(LobbyChanged(LobbyState(0, "table", None, RuleSet().to_dict(), seats,
                                                started, you=0)))
            for width in (60, 80):
                screen = "".join(fragment[1] for fragment in compose(model, width, 18, True))
                said = " ".join(screen.split())
                assert " ".join(tr(key).split()) in said, (lang, width, screen)



def test_the_table_list_offers_a_table_of_bots_alone_to_watch() -> None:
    """Found in tmux: "table 0: 2/2 players" at a dedicated server whose table two bots held,
    and Enter was refused. Its match starts for its first watcher; the list says so where
    the host says how many seats bots hold (SPEC [UNO-8-16]), and not for an older host's
    list, a table with a human, one with a seat open, or one playing."""
    from client.link import TablesListed
    from client.lobby import TableInfo

    tables = (TableInfo(0, "a", 2, 2, False, None, 0, 2), TableInfo(1, "b", 2, 2, False),
              TableInfo(2, "c", 2, 2, False, None, 0, 1),
              TableInfo(3, "d", 4, 2, False, None, 2, 2),
              TableInfo(4, "e", 2, 2, True, None, 0, 2))
    for lang, said in (("en", ("a: 2/2 players (bots only: w watches them play)",
                               "b: 2/2 players", "c: 2/2 players", "d: 2/4 players",
                               "e: 2/2 players (playing, no seat open: w watches)")),
                       ("it", ("a: 2/2 giocatori (solo bot: w per guardarli giocare)",
                               "b: 2/2 giocatori", "c: 2/2 giocatori", "d: 2/4 giocatori",
                               "e: 2/2 giocatori (in gioco, nessun posto libero: w per "
                               "guardare)"))):
        model = ClientModel(Translator(lang), name="Zé")
        model.apply(TablesListed(tables))
        rows = [line.strip(" >") for line in text_of(model)]
        for line in said:
            assert line in rows, (lang, line, rows)


def test_the_lobby_lists_the_seats_the_rules_fill() -> None:
    """Found in tmux: a No Mercy table (six players at most) listed seats up to 10; the
    host now refuses a seventh, and the lobby lists six (and any taken beyond them)."""
    from unonet.rules import preset

    model = ClientModel(Translator("en"), name="P0")
    seats = tuple(SeatInfo(i, "human" if i == 0 else "bot" if i < 3 else "empty",
                           f"P{i}" if i < 3 else None, True, i < 3) for i in range(10))
    model.apply_lobby(LobbyState(0, "t", 0, preset("no_mercy").to_dict(), seats, False,
                                 "no_mercy", 0, 0))
    text = "".join(f[1] for f in compose(model, 80, 23, True))
    assert " 4-6. (empty seats)" in text and "10" not in text.split("Rules")[0]
    beyond = tuple(SeatInfo(i, "bot", f"P{i}", True, True) if i == 7 else s
                   for i, s in enumerate(seats))  # an older host's, filled past the rules
    model.apply_lobby(LobbyState(0, "t", 0, preset("no_mercy").to_dict(), beyond, False,
                                 "no_mercy", 0, 0))
    text = "".join(f[1] for f in compose(model, 80, 23, True))
    assert " 8. P7" in text and "9" not in text.split("Rules")[0].split("P7")[1]
