"""Every command's words follow --lang (issue 46, point 9), its refusals of values included: a
rule set the engine refuses (`--set`), `--name`, `--fingerprint` and `--pin`, `--search-time`
and `--search-sims`, `unonet host --check`, and what the host says of the home router. The
engine says why a rule set is refused without words (a RulesError's kind and parts); the
command says it in the user's language, in English exactly as the engine's own message."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import msgpack
import pytest
from test_host_portmap import FINGERPRINT, LAN, PUBLIC, fits_the_chat

from client.cli import run_join
from client.command_words import command_words
from client.known_hosts import KnownHosts
from client.netbot import BotResult
from host.portmap import Existing, Mapped, NotMapped, RouterReport, Why, check_lines, router_line
from host.run import (
    HostOptions,
    ServedHost,
    build_registry,
    describe,
    on_terminal,
    status_line,
    table_entries,
)
from protocol.fingerprint import short_pin
from unonet import rulebook, rules
from unonet.cli import build_parser, main, session_ended
from unonet.cli_words import rules_words
from unonet.errors import RulesError
from unonet.rules import RULES_SAYS, RuleSet, parse_option, preset
from unonet.terminal_text import laid_out

REPO = Path(__file__).resolve().parents[1]


def refused(make: Callable[[], object]) -> RulesError:
    with pytest.raises(RulesError) as caught:
        make()
    return caught.value


def every_kind_of_refusal(monkeypatch: pytest.MonkeyPatch) -> list[RulesError]:
    """A rule set refused for each reason the engine has (what it plays today cannot be
    refused as unplayed: the list of what it plays is narrowed for that)."""
    made = [refused(make) for make in (
        lambda: RuleSet(target=None),  # type: ignore[arg-type]
        lambda: RuleSet(stacking="always"),  # type: ignore[arg-type]
        lambda: RuleSet(target="lots"),  # type: ignore[arg-type]
        lambda: RuleSet(target=0),
        lambda: RuleSet(uno_penalty=99),
        lambda: RuleSet(teams="pairs", scoring="lowest_wins").check_options(),
        lambda: RuleSet(teams="pairs", max_players=3).check_options(),
        lambda: RuleSet().check_table(11),
        lambda: RuleSet(teams="pairs").check_table(5),
        lambda: RuleSet(hand_size=20).check_table(10),
        lambda: RuleSet(flip_passes_hands=True).check_options(),
        lambda: RuleSet(variant="flip", decks=2).check_options(),
        lambda: RuleSet(variant="flip", colors=5).check_options(),
        lambda: RuleSet(variant="flip", buzzers=True).check_options(),
        lambda: preset("no_mercy", max_players=10),
        lambda: preset("no_mercy", draw_when_playable="allowed"),
        lambda: RuleSet(variant="no_mercy", decks=2).check_options(),
        lambda: RuleSet(variant="no_mercy", stacking="same_kind").check_options(),
        lambda: RuleSet.from_dict({"nosuch": 1}),
        lambda: parse_option("nosuch", "1"),
        lambda: preset("nosuch"),
        lambda: parse_option("multi_finish", "maybe"),
        lambda: parse_option("target", "lots"),
    )]
    monkeypatch.setitem(rules._IMPLEMENTED, "stacking", frozenset({"off", "same_kind"}))
    made.append(refused(lambda: RuleSet(stacking="escalating").check_playable()))
    monkeypatch.setitem(rules._IMPLEMENTED, "deflect", frozenset())
    made.append(refused(lambda: RuleSet(deflect=True).check_playable()))
    monkeypatch.setattr(rulebook, "PLAYED_VARIANTS", ("classic",))
    made.append(refused(lambda: rulebook.describe_rules(RuleSet(variant="flip"), "en")))
    return made


def test_every_refused_rule_set_is_said_in_each_language_and_in_english_as_the_engine_says(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    made = every_kind_of_refusal(monkeypatch)
    assert {exc.kind for exc in made} == set(RULES_SAYS)  # each kind, none unsaid
    for exc in made:
        assert rules_words("en", exc) == exc.message, exc.kind
        italian, portuguese = rules_words("it", exc), rules_words("pt", exc)
        assert italian.startswith(f"{exc.option}: ") and portuguese.startswith(f"{exc.option}: ")
        assert len({exc.message, italian, portuguese}) == 3, exc.kind  # no English left in


def test_a_list_of_values_is_said_with_the_languages_or() -> None:
    exc = refused(lambda: parse_option("multi_finish", "maybe"))
    assert exc.message == "multi_finish: expects true, false or penalty, not 'maybe'"
    assert rules_words("it", exc) == "multi_finish: vuole true, false o penalty, non 'maybe'"
    assert rules_words("pt", exc) == "multi_finish: espera true, false ou penalty, não 'maybe'"


@pytest.fixture(autouse=True)
def no_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    """--lang alone says which language (English without it), whatever the machine's."""
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(variable, raising=False)


@pytest.mark.parametrize(("argv", "words"), [
    # the engine's refusals of --set, worded by the command
    (["rules", "--set", "target=0", "--lang", "it"], "target: dev'essere almeno 50, non 0"),
    (["rules", "--set", "stacking=always", "--lang", "pt"],
     "stacking: deve ser um de escalating, off, same_kind, não 'always'"),
    (["rules", "--set", "deflect=maybe", "--lang", "it"],
     "deflect: vuole true o false, non 'maybe'"),
    (["rules", "--set", "uno_penalty=lots", "--lang", "pt"],
     "uno_penalty: espera um número inteiro, não 'lots'"),
    (["rules", "--set", "nosuch=1", "--lang", "it"], "nosuch: opzione sconosciuta; quelle "
     "note: variant, hand_size, "),
    (["rules", "no_mercy", "--set", "draw_when_playable=allowed", "--lang", "it"],
     "draw_when_playable: UNO Senza pietà gioca sempre draw_when_playable=forbidden"),
    (["rules", "no_mercy", "--set", "stacking=same_kind", "--lang", "pt"],
     "stacking: UNO Sem Piedade não joga stacking=same_kind"),
    (["rules", "flip", "--set", "decks=2", "--lang", "pt"],
     "decks: UNO Flip joga com um só baralho de 112 cartas de dois lados"),
    (["rules", "--set", "=3", "--lang", "it"], "--set: vuole OPTION=VALUE, non '=3'"),
    (["rules", "nosuch", "--lang", "pt"], "preset: preset desconhecido 'nosuch'; os conhecidos: "
     "official, "),
    (["play", "--log", "--set", "teams=pairs", "--bots", "5", "--lang", "pt"],
     "--bots 5: teams: duplas precisam de 4 ou 6 lugares, não 5"),
    (["host", "--headless", "--no-tls", "--port", "0", "--set", "teams=pairs", "--lang", "it"],
     "i 2 posti del tavolo (scegli con --seats): teams: le coppie vogliono 4 o 6 posti, non 2"),
    (["host", "--headless", "--no-tls", "--port", "0", "--set", "teams=pairs", "--bots", "2",
      "--lang", "pt"], "--bots 2 (3 lugares): teams: duplas precisam de 4 ou 6 lugares, não 3"),
    (["host", "--headless", "--rules", "no_mercy", "--seats", "9", "--no-tls", "--lang", "it"],
     "--seats 9: queste regole accolgono da 2 a 6 giocatori, non 9"),
    (["play", "--bots", "1", "--lang", "it"], "--bots 1: una partita mostrata come log ha da 2 "
     "a 10 bot (l'uscita non è un terminale, quindi la partita è mostrata come log)"),
    # --name and --fingerprint
    (["bot", "127.0.0.1:1", "--name", "host", "--lang", "it"],
     "--name: quel nome è riservato agli avvisi dell'host"),
    (["bot", "127.0.0.1:1", "--name", " ", "--lang", "pt"], "--name: o nome está vazio"),
    (["bot", "127.0.0.1:1", "--name", "\x1b\u200b", "--lang", "it"],  # dropped: nothing left
     "--name: il nome è vuoto"),
    (["bot", "127.0.0.1:1", "--fingerprint", "AAAA", "--lang", "it"],
     "--fingerprint: un'impronta ha da 16 a 52 caratteri base32"),
    (["bot", "127.0.0.1:1", "--fingerprint", "1" * 16, "--lang", "pt"],
     "--fingerprint: uma impressão digital é base32 (A-Z, 2-7)"),
    (["bot", "127.0.0.1:1", "--fingerprint", "Z" * 64, "--lang", "it"],
     "--fingerprint: un'impronta di 64 caratteri dev'essere esadecimale"),
    # the search's bounds
    (["play", "--log", "--search-time", "0", "--lang", "it"], "--search-time 0: indica anche "
     "--search-sims N, perché la ricerca abbia una fine"),
    (["play", "--log", "--search-time", "99", "--lang", "pt"],
     "--search-time: 99: uma busca de 0 a 60 segundos (veja unonet play --help)"),
    (["play", "--log", "--search-time", "soon", "--lang", "it"],
     "--search-time: 'soon' non è un numero di secondi (vedi unonet play --help)"),
    (["bot", "127.0.0.1:1", "--search-sims", "0", "--lang", "pt"],
     "--search-sims: 0: simulações de 1 a 10.000.000 (veja unonet bot --help)"),
    (["host", "--search-sims", "many", "--lang", "it"],
     "--search-sims: 'many' non è un numero di simulazioni (vedi unonet host --help)"),
    # the other values an option cannot take
    (["bot", "127.0.0.1:1", "--matches", "0", "--lang", "it"],
     "--matches: 0: partite da 1 a 1.000.000 (vedi unonet bot --help)"),
    (["bot", "127.0.0.1:1", "--table", "-1", "--lang", "pt"],
     "--table: -1 não é um número de mesa (de 0 para cima) (veja unonet bot --help)"),
    (["play", "--seed", "zz", "--lang", "it"], "--seed: 'zz' non è un seme esadecimale"),
    (["play", "--log", "--speed", "9999", "--lang", "pt"],
     "--speed: 9999: segundos de 0 a 3600 (veja unonet play --help)"),
    (["host", "--check", "--port", "0", "--lang", "it"], "--check --port 0: indica la porta "
     "che gli amici devono raggiungere (--port N)"),
    (["host", "--check", "--lang", "pt"], "--check: UNONET_NO_UPNP está definida, então o "
     "roteador não é consultado"),  # the suite's hosts never ask the machine's router
    # and in English without --lang, as the engine says it
    (["rules", "--set", "target=0"], "target: must be at least 50, not 0"),
    (["bot", "127.0.0.1:1", "--matches", "0"],
     "argument --matches: 0: matches from 1 to 1,000,000 (see unonet bot --help)"),
])
def test_a_refused_command_line_says_why_in_its_language(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    try:
        code = main(argv)
    except SystemExit as exit_:  # argparse's own refusal
        code = exit_.code  # type: ignore[assignment]
    assert code == 2
    captured = capsys.readouterr()
    said = captured.err.strip()
    assert said.startswith(f"unonet: {words}"), said
    assert len(said.splitlines()) == 1 and captured.out == ""


@pytest.mark.parametrize(("argv", "words"), [
    (["join", "127.0.0.1:1", "--pin", "AAAA", "--lang", "pt"],
     "unonet: --pin: uma impressão digital tem de 16 a 52 caracteres base32"),
    (["join", "127.0.0.1:1", "--fingerprint", "AAAA", "--lang", "it"],
     "unonet: --fingerprint: un'impronta ha da 16 a 52 caratteri base32"),
    (["join", "127.0.0.1:1", "--name", "HOST", "--lang", "it"],
     "unonet: --name: quel nome è riservato agli avvisi dell'host"),
])
def test_join_refuses_a_pin_or_a_name_in_its_language_naming_the_flag_typed(
    argv: list[str], words: str, tmp_path: Path
) -> None:
    """Refused before anything is asked of the host (the line to share uses --pin: a refusal
    named --fingerprint, which the user never typed)."""
    args = build_parser().parse_args(argv)
    err = io.StringIO()
    assert run_join(args, environ={}, stderr=err, known_hosts=KnownHosts(tmp_path / "kh")) == 2
    assert err.getvalue() == words + "\n"


def test_a_refused_command_line_is_one_line_and_exit_2_for_the_real_command(
    tmp_path: Path
) -> None:
    env = {key: value for key, value in os.environ.items()
           if key not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    env.update(UNONET_HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path))
    for argv, words in (
        (["rules", "--set", "uno_penalty=99", "--lang", "pt"],
         "unonet: uno_penalty: deve ser no máximo 10, não 99\n"),
        (["bot", "127.0.0.1:1", "--name", "host", "--search-sims", "3", "--lang", "it"],
         "unonet: --name: quel nome è riservato agli avvisi dell'host\n"),
    ):
        done = subprocess.run([sys.executable, "-m", "unonet.cli", *argv], cwd=REPO, env=env,
                              stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              timeout=60)
        assert (done.returncode, done.stderr, done.stdout) == (2, words, "")


def router_outcomes() -> dict[str, Mapped | NotMapped]:
    return {
        "mapped": Mapped(7077, PUBLIC, LAN, "192.168.1.1", replaced=True),
        "no router": NotMapped(Why.NO_ROUTER, 7077, LAN),
        "unknown lan": NotMapped(Why.NO_ROUTER, 7077),
        "refused": NotMapped(Why.REFUSED, 7077, LAN, "192.168.1.1", "Action not authorized"),
        "taken": NotMapped(Why.TAKEN, 7077, LAN, "192.168.1.1",
                           holder=Existing("192.168.1.30", 7077, "another game")),
        "taken here": NotMapped(Why.TAKEN, 7077, LAN, "192.168.1.1",
                                holder=Existing(LAN, 9000, "")),
        "conflict": NotMapped(Why.TAKEN, 7077, LAN, "192.168.1.1", "ConflictInMappingEntry"),
        "cgnat": NotMapped(Why.NO_PUBLIC, 7077, LAN, "192.168.1.1", public="100.64.0.7"),
        "no address": NotMapped(Why.NO_PUBLIC, 7077, LAN, "192.168.1.1", public="0.0.0.0"),
        "failed": NotMapped(Why.FAILED, 7077, LAN, "192.168.1.1", "timed out"),
    }


@pytest.mark.parametrize(("lang", "by_hand"), [
    ("it", f"inoltra a mano la porta TCP 7077 a {LAN} nelle impostazioni del router"),
    ("pt", f"encaminhe à mão a porta TCP 7077 para {LAN} nas configurações do roteador"),
])
def test_what_the_router_said_is_said_in_the_hosts_language(lang: str, by_hand: str) -> None:
    """The host's terminal and its player's chat (and `unonet host --check`) said the router's
    answer in English whatever --lang was; the log keeps it in English."""
    lines = {name: router_line(outcome, lang=lang) for name, outcome in router_outcomes().items()}
    english = {name: router_line(outcome) for name, outcome in router_outcomes().items()}
    for name, line in lines.items():
        assert line != english[name] and "\n" not in line, name
        for word in ("forward", "router at", "already", "public", "answered", "description"):
            assert word not in line, (name, word, line)
        fits_the_chat(line)
    for name in ("no router", "refused", "failed"):
        assert by_hand in lines[name], name
    assert "(Action not authorized)" in lines["refused"]  # the router's own words, as said
    assert "--port 7078" in lines["taken"]
    worst = router_line(NotMapped(Why.NO_PUBLIC, 65535, "f" * 39, "f" * 39, public="f" * 39),
                        lang=lang)
    fits_the_chat(worst)


def test_unonet_host_check_says_what_the_router_said_in_its_language() -> None:
    report = RouterReport("192.168.1.1", "http://192.168.1.1:5000/ctl", LAN, PUBLIC,
                          "Connected", "IP_Routed", Existing(LAN, 7077, "unonet host", 1200))
    lines, forwarded = check_lines(7077, report, "it")
    assert forwarded and lines == [
        "router: 192.168.1.1 ha risposto (http://192.168.1.1:5000/ctl); questa macchina è "
        f"{LAN} nella sua rete",
        f"router: connessione Connected (IP_Routed); indirizzo internet {PUBLIC} (pubblico)",
        f"porta 7077: inoltrata a questa macchina, {LAN}:7077 (unonet host, ancora 1200 s): "
        f"gli amici su internet entrano a {PUBLIC}:7077",
    ]
    nothing = RouterReport("192.168.1.1", "http://192.168.1.1/", LAN, "", "Connected", "?",
                           None)
    lines, forwarded = check_lines(7077, nothing, "pt")
    assert not forwarded
    assert lines[1].endswith("endereço de internet nenhum")
    assert lines[2].startswith("roteador: o roteador em 192.168.1.1 não pode abrir a porta "
                               "7077 para a internet: ele não tem endereço de internet público")
    assert lines[3].startswith("porta 7077: não encaminhada; `unonet host --port 7077` a pede")
    elsewhere = RouterReport("192.168.1.1", "u", LAN, PUBLIC, "Connected", "IP_Routed",
                             Existing("192.168.1.30", 7077, "", 0))
    lines, forwarded = check_lines(7077, elsewhere, "pt")
    assert not forwarded and lines[-1] == (
        "porta 7077: encaminhada para 192.168.1.30:7077 (sem descrição, até ser removido), não "
        "para este host: hospede em outra porta (--port 7078) ou libere-a nas configurações do "
        "roteador")


def collapsed(text: str) -> str:
    """`text`'s words, however laid out (a fingerprint split after one of its dashes reads as
    one)."""
    return re.sub(r"-\s+", "-", " ".join(text.split()))


@pytest.mark.parametrize("lang", ["en", "it", "pt"])
@pytest.mark.parametrize("width", [59, 79])
def test_the_dedicated_servers_lines_are_wrapped_at_words_with_the_join_line_whole(
    lang: str, width: int, tmp_path: Path
) -> None:
    """Found in tmux at 80 columns: the terminal cut "tables open: ... 'tabl" / "e 2'" and the
    long fingerprint line inside a group. Each line is laid out within the terminal: wrapped
    at words, a table's entry never broken, the fingerprint in whole groups, and the command
    to share whole on a line of its own; on a pipe, the lines are as they were."""
    options = HostOptions(tables=3, bots=1, seats=2, bind="192.168.100.200", port=65000,
                          notice_lang=lang)
    served = ServedHost(65000, FINGERPRINT, tmp_path, ("192.168.100.200", "10.0.0.7"),
                        build_registry(options, tmp_path / "journals", 0.0))
    lines = [*describe(options, served), status_line(served, lang)]
    assert on_terminal(lines, served, None, lang) == "\n".join(lines)
    shown = on_terminal(lines, served, width, lang).splitlines()
    assert collapsed("\n".join(shown)) == collapsed("\n".join(lines))  # no word cut or lost
    command = f"unonet join 192.168.100.200:65000 --pin {short_pin(FINGERPRINT)}"
    assert any(line.strip() == command or line.endswith(f": {command}")
               for line in shown), shown
    for line in shown:
        assert len(line) <= width or " " not in line.strip(), line  # or a path alone
    for entry in table_entries(served, lang):
        assert any(entry in line for line in shown), (entry, shown)
    groups = [line.strip() for line in shown if re.fullmatch(r"  [A-Z2-7]{4}(-[A-Z2-7]{4})*-?",
                                                             line)]
    assert "".join(groups) == FINGERPRINT  # in whole groups, on lines of their own


@pytest.mark.parametrize(("data", "lang", "words"), [
    (b"", "it", "{path}: vuoto, non è una trascrizione unonet"),
    (msgpack.packb({"t": "manifest"}), "pt",
     "{path}: não é uma transcrição do unonet (sem cabeçalho)"),
    (b"\x92\x01\x02", "it", "{path}: il record 0 non è una mappa"),
    (msgpack.packb({"t": "transcript", "version": 1, "host": "h", "peer_cert": None,
                    "seat": None}), "pt",
     "{path}: a transcrição não tem manifesto: nada a verificar"),
    (b"", "en", "{path}: empty, not a unonet transcript"),
])
def test_unonet_audit_says_why_a_file_is_no_transcript_in_its_language(
    data: bytes, lang: str, words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "x.msgpack"
    path.write_bytes(data)
    assert main(["audit", str(path), "--lang", lang]) == 2
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == ("", f"unonet audit: {words.format(path=path)}\n")


@pytest.mark.parametrize(("lang", "plain", "words"), [
    ("it", False, "quel tavolo non è sull'host (forse è stato chiuso)"),
    ("pt", False, "essa mesa não está no host (talvez tenha sido fechada)"),
    ("en", False, "unknown_table: table 9 is not on this host (it may have closed)"),
    ("it", True, "l'host ha chiuso la connessione: un host avviato senza --no-tls parla TLS, "
                 "togli --no-tls"),
])
def test_unonet_bot_says_why_its_session_ended_in_its_language(
    lang: str, plain: bool, words: str
) -> None:
    """The host's refusal was said as it came ("unknown_table: table 9 ..."), in English, after
    Italian words; in English it still is."""
    result = BotResult(closed="unknown_table: table 9 is not on this host (it may have closed)",
                       closed_code="unknown_table")
    if plain:
        result = BotResult(closed="the host closed the connection", closed_code="host_closed",
                           closed_silently=True)
    assert session_ended(result, lang, plain_to_tls=plain) == words
    assert session_ended(BotResult(), lang, plain_to_tls=False) == command_words(
        lang, "bot.host_left")


def test_a_line_is_laid_out_at_words_with_its_command_whole_on_a_line_of_its_own() -> None:
    command = "unonet join 192.168.100.200:65000 --pin WSBO-67FC-QF2C-UEVD"  # 59 columns
    line = f"Gli amici entrano con: {command} (o a 10.0.0.7, 172.16.0.9)"
    assert laid_out(line, None, [command]) == [line]  # a pipe's
    assert laid_out(line, 79, [command]) == [
        "Gli amici entrano con:", f"  {command}", "(o a 10.0.0.7, 172.16.0.9)"]
    assert laid_out(line, 59, [command]) == [  # no room to indent it: still whole
        "Gli amici entrano con:", command, "(o a 10.0.0.7, 172.16.0.9)"]
    resume = "unonet host --resume /home/ana/.config/unonet/journals/table0-04ca9e.jsonl"
    assert laid_out(f"  {resume}", 59, [resume]) == [f"  {resume}"]  # as printed, to copy
    assert laid_out("tavoli aperti: 0 'table 0' (2 posti, 1 bot), 1 'table 1' (2 posti, 1 "
                    "bot)", 59, whole=["0 'table 0' (2 posti, 1 bot)",
                                       "1 'table 1' (2 posti, 1 bot)"]) == [
        "tavoli aperti: 0 'table 0' (2 posti, 1 bot),", "1 'table 1' (2 posti, 1 bot)"]
