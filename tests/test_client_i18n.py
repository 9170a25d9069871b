"""Every string of the client exists in English, Italian and Portuguese, with the same
placeholders; the language comes from --lang or the locale; the rule sheets' words are used."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from client.i18n import CATALOGUES, LANGUAGES, Translator, pick_language
from protocol.trust.results import ViolationKind
from unonet.cards import Color, Face, Kind

CLIENT = Path(__file__).resolve().parent.parent / "client"


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_key_exists_in_all_three_languages() -> None:
    english = set(CATALOGUES["en"])
    for lang in LANGUAGES:
        assert set(CATALOGUES[lang]) == english, lang
        for key, text in CATALOGUES[lang].items():
            assert text, (lang, key)


def test_placeholders_agree_across_languages() -> None:
    for key, text in CATALOGUES["en"].items():
        for lang in LANGUAGES:
            assert placeholders(CATALOGUES[lang][key]) == placeholders(text), (lang, key)


def test_every_key_the_code_uses_is_in_the_catalogue() -> None:
    """Literal keys in tr("...") calls; dynamic ones (kind., color., err.,
    trust., conn., why., help.) are checked below against what produces them."""
    used: set[str] = set()
    for path in CLIENT.glob("*.py"):
        used |= set(re.findall(r"""tr\(\s*"([a-z_]+\.[a-z_.]+)\"""", path.read_text()))
        used |= set(re.findall(r'"((?:ui|n|ev|lobby|tables|end|help|trust)\.[a-z_]+)"',
                               path.read_text()))
    missing = sorted(k for k in used if k not in CATALOGUES["en"])
    assert not missing, missing
    for kind in Kind:
        if kind is not Kind.NUMBER:  # a number's name is its number
                assert f"kind.{kind.value}" in CATALOGUES["en"]
    for color in Color:
        assert f"color.{color.value}" in CATALOGUES["en"]
    for state in ("connecting", "connected", "reconnecting", "lost", "closed"):
        assert f"conn.{state}" in CATALOGUES["en"]


def test_every_violation_kind_is_said_in_every_language() -> None:
    """The title bar and the panel say what the host was caught at in the player's language:
    a kind without words would show the verifier's English detail to an Italian player."""
    for kind in ViolationKind:
        for lang in LANGUAGES:
            assert f"trust.{kind.value}" in CATALOGUES[lang], (lang, kind)


def test_the_rule_sheets_words() -> None:
    """Card names; the log's sentences in these words are tests/test_narrate.py's."""
    it, pt = Translator("it"), Translator("pt")
    assert it.card(Face(Kind.WILD)) == "Jolly"
    assert it.card(Face(Kind.WILD_DRAW_FOUR)) == "Jolly +4"
    assert it.card(Face(Kind.DRAW_TWO, Color.RED)) == "+2 rosso"
    assert it.card(Face(Kind.NUMBER, Color.GREEN, 7)) == "7 verde"
    assert pt.card(Face(Kind.WILD)) == "Coringa"
    assert pt.card(Face(Kind.WILD_DRAW_FOUR)) == "Coringa +4"
    assert pt.card(Face(Kind.NUMBER, Color.BLUE, 5)) == "5 azul"
    assert Translator("en").card(Face(Kind.SKIP, Color.YELLOW)) == "yellow Skip"


@pytest.mark.parametrize(
    ("arg", "environ", "expected"),
    [
        ("it", {"LANG": "pt_BR.UTF-8"}, "it"),
        (None, {"LANG": "pt_BR.UTF-8"}, "pt"),
        (None, {"LC_ALL": "it_IT.UTF-8", "LANG": "pt_PT"}, "it"),
        (None, {"LANGUAGE": "de:it", "LANG": "en_US"}, "it"),
        (None, {"LC_MESSAGES": "pt_PT.UTF-8"}, "pt"),
        (None, {"LANG": "C"}, "en"),
        (None, {"LANG": "de_DE.UTF-8"}, "en"),
        (None, {}, "en"),
        ("fr", {"LANG": "it_IT"}, "en"),
    ],
)
def test_the_language_comes_from_the_flag_then_the_locale(
    arg: str | None, environ: dict[str, str], expected: str
) -> None:
    assert pick_language(arg, environ) == expected


def test_more_never_reads_as_a_draw_card() -> None:
    """Found on Portuguese's end screen: a hand's cards left over were counted "+4", which
    reads as a Draw Four beside the cards shown; then in UNO Flip's other-side row at 60
    columns, "+6" beside a player with nothing else shown (a Draw Six?), and the end screen's
    "+4 (20 pts)" in Portuguese. No count of more, in any language, is a bare "+N" (with
    its points in parentheses or without): a word says what it counts ("+4 more")."""
    keys = [key for key in CATALOGUES["en"] if key.endswith(("more", "more_one"))]
    assert {"ui.more", "ui.row_more", "end.more"} <= set(keys)
    for lang in LANGUAGES:
        for key in keys:
            said = Translator(lang)(key, count=4, points=20)
            bare = re.sub(r"\s*\(.*\)$", "", said.strip())
            assert not re.fullmatch(r"\+\d+", bare), (lang, key, said)


def test_a_count_of_one_is_said_in_the_singular() -> None:
    """Found in tmux: Portuguese said "Chat (1 novas, Tab lê)", Italian "1 nuovi"; a count
    of one takes a key's `_one` form where a catalogue has one."""
    for lang, key, one, many in (("pt", "ui.unread", "(1 nova, Tab lê)", "(2 novas, Tab lê)"),
                                 ("it", "ui.unread", "(1 nuovo, Tab per leggere)",
                                  "(2 nuovi, Tab per leggere)"),
                                 ("it", "lobby.spectators", "1 guarda", "2 guardano"),
                                 ("en", "ui.roulette_turned_you",
                                  "You named red and keep the card turned: R5.",
                                  "You named red and keep the 2 cards turned: R5.")):
        tr = Translator(lang)
        values = {"color": "red", "cards": "R5"} if "roulette" in key else {}
        assert tr(key, count=1, **values) == one, (lang, key)
        assert tr(key, count=2, **values) == many, (lang, key)
