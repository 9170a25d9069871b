"""What the `unonet` command says when it cannot run as asked, in the user's language (`--lang`,
else the locale's): one line each, the flags and values as typed. The command (unonet/cli.py)
raises a CommandError with one of these keys; English is the text the error carries."""

from __future__ import annotations

import re
from collections.abc import Mapping

DEFAULT = "en"

CLI_WORDS: Mapping[str, Mapping[str, str]] = {
    "en": {
        "not_whole": "{flag} {text}: not a whole number",
        "range": "{flag} {value}: from {low} to {high}",
        "bots_play": "--bots {bots}: play against 1 to {most} bots ({rules} seats at most "
                     "{players} players, you included)",
        "join_terminal": "join needs a terminal to play in (stdin is not one); `unonet bot "
                         "HOST:PORT` plays without one",
        "seats": "--seats {seats}: a table has 2 to 10 seats",
        "bots_fit": "--bots {bots}: 0 to {most} bots fit at this table ({why})",
        "bots_fit_yours": "--bots {bots}: 0 to {most} bots fit at this table ({why}; one seat "
                          "is yours)",
        "rules_seat": "{rules} seats at most {players} players",
        "tables_headless": "--tables {tables}: a dedicated server's option (--headless); the "
                           "host who plays has one table, and friends open more from the lobby",
        "owner_headless": "--player-owner: a dedicated server's option (--headless); the host "
                          "who plays owns its table",
        "resume_folder": "--resume {path}: a folder, not a journal file (journals are the "
                         ".jsonl files in the host's journals/ folder)",
        "resume_missing": "--resume {path}: no such journal file",
        "resume_twice": "--resume {path}: given twice",
        "resume_unreadable": "--resume {path}: not a journal this host can resume ({why})",
        "resume_over": "--resume {path}: its match is over (seat {winner} won, {scores}): there "
                       "is nothing to carry on",
        "resume_same_table": "--resume {first} and {path}: both are table {table}'s match; "
                             "carry them on at two hosts",
        "see_help": "(see {prog} --help)",
        "port_word": "{text} is not a port number ({low} to {high})",
        "port_range": "{port} is not a port ({low} to {high})",
        "any_port": "{why}, or 0 for any free port",
        "address": "expected HOST:PORT, not {text}",
        "address_colon": "expected a port number after the colon in {text}",
        "required": "the following arguments are required: {what}",
        "invalid_choice": "argument {flag}: invalid choice: {value} (choose from {choices})",
        "expected_one": "argument {flag}: expected one argument",
        "invalid_value": "argument {flag}: invalid {kind} value: {value}",
        "unrecognized": "unrecognized arguments: {words}",
        "argument": "argument {flag}: {message}",
        "port_after_colon": "{message}; the port goes after a colon: unonet {command} "
                            "{host}:{port}",
    },
    "it": {
        "not_whole": "{flag} {text}: non è un numero intero",
        "range": "{flag} {value}: da {low} a {high}",
        "bots_play": "--bots {bots}: si gioca contro 1-{most} bot ({rules} accoglie al massimo "
                     "{players} giocatori, tu compreso)",
        "join_terminal": "join ha bisogno di un terminale in cui giocare (stdin non lo è); "
                         "`unonet bot HOST:PORT` gioca senza",
        "seats": "--seats {seats}: un tavolo ha da 2 a 10 posti",
        "bots_fit": "--bots {bots}: a questo tavolo stanno da 0 a {most} bot ({why})",
        "bots_fit_yours": "--bots {bots}: a questo tavolo stanno da 0 a {most} bot ({why}; un "
                          "posto è tuo)",
        "rules_seat": "{rules} accoglie al massimo {players} giocatori",
        "tables_headless": "--tables {tables}: un'opzione del server dedicato (--headless); "
                           "l'host che gioca ha un tavolo, e gli amici ne aprono altri dalla "
                           "sala",
        "owner_headless": "--player-owner: un'opzione del server dedicato (--headless); l'host "
                          "che gioca è padrone del suo tavolo",
        "resume_folder": "--resume {path}: una cartella, non un file di diario (i diari sono "
                         "i file .jsonl nella cartella journals/ dell'host)",
        "resume_missing": "--resume {path}: questo file di diario non esiste",
        "resume_twice": "--resume {path}: indicato due volte",
        "resume_unreadable": "--resume {path}: non è un diario che questo host può riprendere "
                             "({why})",
        "resume_over": "--resume {path}: la sua partita è finita (ha vinto il posto {winner}, "
                       "{scores}): non c'è niente da continuare",
        "resume_same_table": "--resume {first} e {path}: sono entrambi la partita del tavolo "
                             "{table}; continuali con due host",
        "see_help": "(vedi {prog} --help)",
        "port_word": "{text} non è un numero di porta (da {low} a {high})",
        "port_range": "{port} non è una porta (da {low} a {high})",
        "any_port": "{why}, o 0 per una porta libera qualsiasi",
        "address": "serve HOST:PORTA, non {text}",
        "address_colon": "manca il numero di porta dopo i due punti in {text}",
        "required": "mancano questi argomenti: {what}",
        "invalid_choice": "{flag}: {value} non è tra le scelte ({choices})",
        "expected_one": "{flag}: manca il valore",
        "invalid_value": "{flag}: {value} non è un valore valido ({kind})",
        "unrecognized": "argomenti non riconosciuti: {words}",
        "argument": "{flag}: {message}",
        "port_after_colon": "{message}; la porta va dopo i due punti: unonet {command} "
                            "{host}:{port}",
    },
    "pt": {
        "not_whole": "{flag} {text}: não é um número inteiro",
        "range": "{flag} {value}: de {low} a {high}",
        "bots_play": "--bots {bots}: jogue contra 1 a {most} bots ({rules} aceita no máximo "
                     "{players} jogadores, você incluído)",
        "join_terminal": "join precisa de um terminal para jogar (stdin não é um); `unonet bot "
                         "HOST:PORT` joga sem",
        "seats": "--seats {seats}: uma mesa tem de 2 a 10 lugares",
        "bots_fit": "--bots {bots}: cabem de 0 a {most} bots nesta mesa ({why})",
        "bots_fit_yours": "--bots {bots}: cabem de 0 a {most} bots nesta mesa ({why}; um lugar "
                          "é seu)",
        "rules_seat": "{rules} aceita no máximo {players} jogadores",
        "tables_headless": "--tables {tables}: uma opção do servidor dedicado (--headless); o "
                           "host que joga tem uma mesa, e os amigos abrem outras no saguão",
        "owner_headless": "--player-owner: uma opção do servidor dedicado (--headless); o host "
                          "que joga é dono da sua mesa",
        "resume_folder": "--resume {path}: uma pasta, não um arquivo de diário (os diários são "
                         "os arquivos .jsonl na pasta journals/ do host)",
        "resume_missing": "--resume {path}: esse arquivo de diário não existe",
        "resume_twice": "--resume {path}: dado duas vezes",
        "resume_unreadable": "--resume {path}: não é um diário que este host possa retomar "
                             "({why})",
        "resume_over": "--resume {path}: a partida acabou (o lugar {winner} venceu, {scores}): "
                       "não há nada a continuar",
        "resume_same_table": "--resume {first} e {path}: os dois são a partida da mesa "
                             "{table}; continue-os em dois hosts",
        "see_help": "(veja {prog} --help)",
        "port_word": "{text} não é um número de porta (de {low} a {high})",
        "port_range": "{port} não é uma porta (de {low} a {high})",
        "any_port": "{why}, ou 0 para qualquer porta livre",
        "address": "esperava HOST:PORTA, não {text}",
        "address_colon": "falta o número da porta depois dos dois-pontos em {text}",
        "required": "faltam estes argumentos: {what}",
        "invalid_choice": "{flag}: {value} não é uma das opções ({choices})",
        "expected_one": "{flag}: falta o valor",
        "invalid_value": "{flag}: {value} não é um valor válido ({kind})",
        "unrecognized": "argumentos não reconhecidos: {words}",
        "argument": "{flag}: {message}",
        "port_after_colon": "{message}; a porta vem depois dos dois-pontos: unonet {command} "
                            "{host}:{port}",
    },
}


def cli_words(lang: str, key: str, **values: object) -> str:
    """The message `key` in `lang` (English for a language it has not), `values` in it."""
    return CLI_WORDS.get(lang, CLI_WORDS[DEFAULT])[key].format(**values)


ARGPARSE_SAYS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("required", re.compile(r"the following arguments are required: (?P<what>.+)")),
    ("invalid_choice", re.compile(r"argument (?P<flag>\S+): invalid choice: (?P<value>.+) "
                                  r"\(choose from (?P<choices>.+)\)")),
    ("expected_one", re.compile(r"argument (?P<flag>\S+): expected one argument")),
    ("invalid_value", re.compile(r"argument (?P<flag>\S+): invalid (?P<kind>\w+) value: "
                                 r"(?P<value>.+)")),
    ("argument", re.compile(r"argument (?P<flag>\S+): (?P<message>.+)")),  # ours, said already
)
"""argparse's own complaints (Python's English, whatever the locale), by their shape: said in
`--lang` with the same parts. What is not among them stays as argparse said it (ours are in
the user's language already: the argparse types of unonet/cli.py speak it)."""


def parser_words(lang: str, message: str) -> str:
    """An argparse error `message` in `lang`."""
    for key, shape in ARGPARSE_SAYS:
        if (found := shape.fullmatch(message)) is not None:
            return cli_words(lang, key, **found.groupdict())
    return message
