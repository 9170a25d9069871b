"""The title bar and the players' rows when room is short: what gives way, and what never does."""

from __future__ import annotations

import re

from client.i18n import Translator
from client.link import LobbyChanged, ManifestReceived, Snapshot
from client.lobby import LobbyState, SeatInfo
from client.model import ClientModel
from client.render import Look, fold_line, header, players, width_of
from unonet.match import Match
from unonet.rules import preset


def flip_model(lang: str, you: int | None = 2, names: tuple[str, ...] = ("A", "B", "Zé"),
               dealt: bool = False) -> ClientModel:
    """At a UNO Flip table in its first round (its deck not checked yet): the player in seat
    `you`, or a spectator (None); `dealt` once the cards are dealt."""
    rules = preset("flip")
    match = Match(rules, len(names), b"room")
    if dealt:
        match.start_round()
    model = ClientModel(Translator(lang), name="Zé" if you is not None else "Evil")
    model.apply(ManifestReceived(match.manifest))
    seats = tuple(SeatInfo(s, "human", name, True, True) for s, name in enumerate(names))
    model.apply(LobbyChanged(LobbyState(0, "unonet", 0, rules.to_dict(), seats, True, you=you)))
    model.apply(Snapshot(match.view(you), tuple(match.legal_actions(you)) if you is not None
                         else ()))
    return model


def test_a_narrow_bar_cuts_the_decks_words_and_keeps_the_connection_whole() -> None:
    """Found in tmux at 60 columns in Portuguese: the bar ended "verificando rodada 1 ·
    conecta", the connection's word cut. The deck's words now give way, with "…" (an alert,
    what the host was caught doing, keeps its room: test_client_render)."""
    for lang in ("en", "it", "pt"):
        model = flip_model(lang)
        connected = model.tr(f"conn.{model.connection}")
        for width in range(40, 100):
            bar = "".join(fragment[1] for fragment in header(model, width))
            assert len(bar) <= width, (lang, width, bar)
            assert bar.endswith(f" · {connected} "), (lang, width, bar)
            assert model.tr("side.light").lower() in bar.lower(), (lang, width, bar)


def test_a_wide_bar_says_everything_uncut() -> None:
    model = flip_model("pt")
    bar = "".join(fragment[1] for fragment in header(model, 120))
    connection = model.tr(f"conn.{model.connection}")
    assert "…" not in bar and bar.endswith(f"{model.tr('trust.unchecked')} · {connection} "), bar


def test_a_spectator_of_short_names_sees_dealer_whole_in_uno_flip() -> None:
    """Found in tmux: watching a UNO Flip table of "Ana", "Ann" and "Zé", the dealer's row
    ended "deale" at any width. The name column was widened to its floor of 4 when every
    name was shorter, one column more than the other sides' rows had left the players."""
    model = flip_model("en", None, ("Ana", "Ann", "Zé"), dealt=True)
    view = model.view
    assert view is not None and view.dealer is not None
    for width in (60, 80, 100):
        rows = ["".join(fragment[1] for fragment in line)
                for line in players(model, width, Look(plain=True))]
        dealer = rows[view.dealer]
        assert re.search(r"\d+ pts dealer ", dealer), (width, rows)


def test_ten_players_in_two_columns_at_60_keep_the_dealer_whole_in_every_language() -> None:
    """Found in tmux: at the smallest window (60 columns), ten players in two columns of 29,
    Portuguese cut its dealer's "dá as cartas" to "dá as carta": the shortest row it allows
    (four letters of name, "7 cartas", a bare score) left eleven columns. It says
    "carteador" now, the word for the one who deals."""
    names = ("Ana", "Bruno", "Chiara", "Dario", "Elena", "Fabio", "Gianna", "Hugo", "Irene",
             "Jacopo")
    for lang in ("en", "it", "pt"):
        model = flip_model(lang, 0, names, dealt=True)
        view = model.view
        assert view is not None and view.dealer is not None
        rows = ["".join(fragment[1] for fragment in line)
                for line in players(model, 60, Look(plain=True))]
        assert any(model.tr("ui.dealer") + " " in row + " " for row in rows), (lang, rows)


def test_a_notice_folded_in_two_lines_says_where_it_was_cut() -> None:
    """Found in tmux at 60 columns in Portuguese: the roulette's turned cards, folded into
    two lines, ended "..., Comprar Duas azul, Desca" at the screen's edge, as if that were
    all. The second line now ends in "…" at a word's end; a notice that fits is whole."""
    text = ("Você escolheu verde e fica com as 7 cartas viradas: 7 vermelho, 5 azul, Pular "
            "Todos azul, Comprar Duas azul, Descartar Tudo verde, 3 verde.")
    for width in (40, 60, 80):
        first, second = fold_line([("class:notice", text)], width)
        one, two = ("".join(fragment[1] for fragment in line) for line in (first, second))
        assert width_of(first) <= width and width_of(second) <= width, (width, one, two)
        if len(text) <= 2 * width - 2 and two.rstrip().endswith("."):
            assert f"{one} {two}" == text
        else:
            assert two.endswith("…") and text.startswith(f"{one} {two[:-1]}"), (width, two)
    first, second = fold_line([("class:notice", "Short and whole, at two lines: 12 34.")], 20)
    assert "".join(fragment[1] for fragment in second) == "two lines: 12 34."
