"""What the terminal says after the screen closes on a lost connection: the player's words.

Found reading the code behind a Portuguese tmux session: the screen said why in Portuguese, and
the terminal after it printed the link's English ("unonet: cannot connect: …", or the English
warning of a changed fingerprint)."""

from __future__ import annotations

import io

import pytest

from client.cli import _finish
from client.i18n import Translator
from client.link import ConnectionChanged, HostKeyWarning
from client.model import ClientModel


def ended(lang: str, *updates: object) -> tuple[ConnectionChanged | None, ClientModel]:
    """The screen's model after `updates`, and what the link last said of its connection:
    `_finish` reads only that."""
    state = None
    model = ClientModel(Translator(lang), name="Me")
    for update in updates:
        model.apply(update)  # type: ignore[arg-type]
        if isinstance(update, ConnectionChanged):
            state = update
    return state, model


def key_refused(lang: str, known: str, expected: str) -> tuple[str, ClientModel]:
    """What the CLI prints (exit 1) after the host's key was refused, the key known from
    `known` ("earlier", "pinned") being `expected`; and the model, for its words."""
    seen = "6HPL-C3VL-ZJL3-U3AC-MNRO-FTSV-6L5R-YYJQ-EJPC"
    key = HostKeyWarning(known, "127.0.0.1:7301", expected, seen)
    state, model = ended(lang, key, ConnectionChanged("lost", "the host's fingerprint is …"))
    err = io.StringIO()
    assert _finish(state, model, err) == 1
    return err.getvalue(), model


@pytest.mark.parametrize(("lang", "title"), [("en", "THE HOST'S FINGERPRINT HAS CHANGED"),
                                              ("it", "L'IMPRONTA DELL'HOST È CAMBIATA"),
                                              ("pt", "A IMPRESSÃO DIGITAL DO HOST MUDOU")])
def test_a_changed_fingerprint_is_printed_again_in_the_players_words(lang: str,
                                                                     title: str) -> None:
    said, model = key_refused(lang, "earlier", "AAAA-BBBB-CCCC-DDDD")
    assert title in said and "the host's fingerprint is" not in said
    assert "\n  unonet join 127.0.0.1:7301 --pin 6HPL-C3VL-ZJL3-U3AC\n" in said
    assert model.tr("ui.key_printed") not in " ".join(said.split())  # the screen's alone


@pytest.mark.parametrize(("lang", "title"), [
    ("en", "THE HOST'S FINGERPRINT IS NOT THE ONE YOU GAVE"),
    ("it", "L'IMPRONTA DELL'HOST NON È QUELLA INDICATA"),
    ("pt", "A IMPRESSÃO DIGITAL DO HOST NÃO É A QUE VOCÊ DEU")])
def test_a_pin_the_host_does_not_match_is_no_change(lang: str, title: str) -> None:
    """Found in tmux: a mistyped --fingerprint for a host never met before read "THE HOST'S
    FINGERPRINT HAS CHANGED"; nothing changed, the pin given does not match."""
    said, model = key_refused(lang, "pinned", "AAAA-AAAA-AAAA-AAAA")
    assert title in said and model.tr("ui.key_changed") not in said
    assert model.tr("ui.key_pinned") in said and "AAAA-AAAA-AAAA-AAAA" in said


@pytest.mark.parametrize(("lang", "words"), [("en", "cannot connect: Connection refused"),
                                              ("it", "(cannot connect: Connection refused)"),
                                              ("pt", "(cannot connect: Connection refused)")])
def test_a_lost_connection_is_said_as_the_screen_said_it(lang: str, words: str) -> None:
    lost = ConnectionChanged("lost", "cannot connect: Connection refused",
                             code="cannot_connect")
    state, model = ended(lang, lost)
    err = io.StringIO()
    assert _finish(state, model, err) == 1
    said = err.getvalue()
    assert said.startswith(f"unonet: {model.tr('conn.lost')}: ") and words in said, said
    if lang != "en":
        assert model.tr("lost.cannot_connect") in said


def test_a_screen_left_by_the_player_prints_nothing() -> None:
    state, model = ended("it", ConnectionChanged("connected"))
    err = io.StringIO()
    assert _finish(state, model, err) == 0
    assert err.getvalue() == ""


def test_a_hostile_hosts_words_reach_the_terminal_escaped() -> None:
    """What a host's error frame said is part of why the connection ended; printed on the
    terminal after the screen, its escape sequences must not act there."""
    lost = ConnectionChanged("lost", "bye: \x1b]0;pwned\x07\x1b[2J gone", code="")
    state, model = ended("en", lost)
    err = io.StringIO()
    assert _finish(state, model, err) == 1
    said = err.getvalue()
    assert "\x1b" not in said and "\x07" not in said and "gone" in said, said
