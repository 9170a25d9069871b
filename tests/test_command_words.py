"""Every command's words in every language (issue 46, point 9): the catalogues of `unonet
host`'s terminal and of `unonet audit` and `unonet bot` have the same keys and placeholders in
English, Italian and Portuguese, and say something in each."""

from __future__ import annotations

import string
from collections.abc import Mapping

import pytest

from client.command_words import COMMAND_WORDS, command_words
from host.host_words import HOST_WORDS, host_words
from unonet.cli import main
from unonet.cli_words import CLI_WORDS


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("catalogue", [HOST_WORDS, COMMAND_WORDS, CLI_WORDS],
                         ids=["host", "commands", "cli"])
def test_each_language_has_every_key_with_its_placeholders(
    catalogue: Mapping[str, Mapping[str, str]]
) -> None:
    english = catalogue["en"]
    for lang in ("it", "pt"):
        assert set(catalogue[lang]) == set(english), lang
        for key, text in english.items():
            assert catalogue[lang][key], (lang, key)
            assert placeholders(catalogue[lang][key]) == placeholders(text), (lang, key)


def test_one_is_said_in_the_singular_and_an_unknown_language_in_english() -> None:
    assert command_words("it", "rounds", count=1) == "1 manche"
    assert command_words("pt", "violations", count=2) == "2 violações"
    assert host_words("de", "tables_none") == "none"
    assert host_words("pt", "in_use", where="0.0.0.0", port=7077).endswith(
        "escolha outra porta com --port")


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "unonet: --seats 11: a table has 2 to 10 seats"),
    ("it", "unonet: --seats 11: un tavolo ha da 2 a 10 posti"),
    ("pt", "unonet: --seats 11: uma mesa tem de 2 a 10 lugares"),
])
def test_a_command_that_cannot_run_says_why_in_the_users_language(
    lang: str, words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["host", "--headless", "--no-tls", "--seats", "11", "--lang", lang]) == 2
    assert capsys.readouterr().err.strip() == words


@pytest.mark.parametrize(("argv", "words"), [
    (["audit", "--lang", "pt"], "unonet: faltam estes argumentos: FILE (veja unonet audit --help)"),
    (["host", "--port", "70000", "--lang", "it"],
     "unonet: --port: 70000 non è una porta (da 1 a 65535), o 0 per una porta libera "
     "qualsiasi (vedi unonet host --help)"),
    (["play", "--rules", "nosuch", "--lang=pt"], "unonet: --rules: 'nosuch' não é uma das "
     "opções ("),
    (["host", "--bots", "--lang", "it"], "unonet: --bots: manca il valore (vedi unonet host "
     "--help)"),
    (["bot", "127.0.0.1", "7077", "--lang", "it"], "unonet: argomenti non riconosciuti: 7077; "
     "la porta va dopo i due punti: unonet bot 127.0.0.1:7077 (vedi unonet --help)"),
    (["bot", "127.0.0.1:99999", "--lang", "pt"], "unonet: 99999 não é uma porta (de 1 a 65535)"),
    (["bot", ":7077", "--lang", "it"], "unonet: serve HOST:PORTA, non ':7077'"),
    (["host", "--port", "70000"], "unonet: argument --port: 70000 is not a port (1 to 65535), "
     "or 0 for any free port (see unonet host --help)"),
])
def test_a_command_line_it_cannot_take_is_refused_in_its_lang(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Found in tmux: `--lang it` spoke Italian once a command ran, and English when the
    command line itself was refused (argparse's own words, a port out of range)."""
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(variable, raising=False)
    try:
        code = main(argv)
    except SystemExit as exit_:
        code = exit_.code  # type: ignore[assignment]
    assert code == 2
    said = capsys.readouterr().err.strip()
    assert said.startswith(words), said
    assert len(said.splitlines()) == 1
