"""The title bar in a narrow terminal: what gives way for room, and what never does."""

from __future__ import annotations

from client.i18n import Translator
from client.link import LobbyChanged, ManifestReceived, Snapshot
from client.lobby import LobbyState, SeatInfo
from client.model import ClientModel
from client.render import header
from unonet.match import Match
from unonet.rules import preset


def flip_model(lang: str) -> ClientModel:
    """A player at a UNO Flip table, in its first round (its deck not checked yet)."""
    rules = preset("flip")
    match = Match(rules, 3, b"header")
    model = ClientModel(Translator(lang), name="Zé")
    model.apply(ManifestReceived(match.manifest))
    seats = tuple(SeatInfo(s, "human", name, True, True) for s, name in enumerate(("A", "B", "Zé")))
    model.apply(LobbyChanged(LobbyState(0, "unonet", 0, rules.to_dict(), seats, True, you=2)))
    model.apply(Snapshot(match.view(2), tuple(match.legal_actions(2))))
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
