"""What the `unonet` command says when it cannot run as asked, in the user's language (`--lang`,
else the locale's): one line each, the flags and values as typed. The command (unonet/cli.py)
raises a CommandError with one of these keys; English is the text the error carries."""

from __future__ import annotations

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
    },
}


def cli_words(lang: str, key: str, **values: object) -> str:
    """The message `key` in `lang` (English for a language it has not), `values` in it."""
    return CLI_WORDS.get(lang, CLI_WORDS[DEFAULT])[key].format(**values)
