"""What the `unonet` command says when it cannot run as asked, in the user's language (`--lang`,
else the locale's): one line each, the flags and values as typed. The command (unonet/cli.py)
raises a CommandError with one of these keys; English is the text the error carries. A rule set
the engine refuses is said from its RulesError's kind and parts (`rules.KIND`, in English the
engine's own RULES_SAYS)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field

from unonet.errors import RulesError, said_with
from unonet.rules import RULES_SAYS

DEFAULT = "en"

SPEAKING: ContextVar[str] = ContextVar("unonet_speaking", default=DEFAULT)
"""The language of the command being run (its --lang, else the locale's), from the moment its
command line is read: the words of its errors, argparse's own included, and of what a check
made deep inside it says (unonet/cli.py sets it)."""

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
        "hex_seed": "{text} is not a hex seed (an even number of 0-9 and a-f, e.g. 0a1b)",
        "not_seconds": "{text} is not a number of seconds",
        "seconds_range": "{text}: seconds from 0 to 3600",
        "not_matches": "{text} is not a number of matches",
        "matches_range": "{value}: matches from 1 to {most}",
        "search_range": "{text}: a search of 0 to 60 seconds",
        "not_sims": "{text} is not a number of simulations",
        "sims_range": "{value}: simulations from 1 to {most}",
        "search_unbounded": "--search-time 0: give --search-sims N as well, so that the search "
                            "has an end",
        "not_table": "{text} is not a table number",
        "table_range": "{number} is not a table number (0 and up)",
        "name_empty": "{flag}: the name is empty",
        "name_long": "{flag}: the name is longer than {most} characters",
        "name_reserved": "{flag}: that name is reserved for the host's notices",
        "name_char": "{flag}: the name contains {char}",
        "pin_hex": "{flag}: a 64-character fingerprint must be hex",
        "pin_length": "{flag}: a fingerprint has {low} to {high} base32 characters",
        "pin_base32": "{flag}: a fingerprint is base32 (A-Z, 2-7)",
        "set_form": "--set: expects OPTION=VALUE, not {text}",
        "rules_refused": "{flag}{counted}: {why}",
        "rules_seat_count": "{flag}: these rules seat 2 to {most} players, not {seats}",
        "default_bots": "the default {bots} bots (choose with --bots)",
        "default_seats": "the table's {seats} seats (choose with --seats)",
        "counted": " ({seats} seats)",
        "log_bots": "--bots {seats}: a logged match has 2 to {most} bots{rules}{why}",
        "log_rules": " with {rules}",
        "log_piped": " (the output is not a terminal, so the match is logged)",
        "preset_not_played": "preset: {name} is not played yet (issues 14 and 15)",
        "unknown_language": "unknown language {given}; known: {known}",
        "check_port0": "--check --port 0: name the port friends are to reach (--port N)",
        "check_no_upnp": "--check: UNONET_NO_UPNP is set, so the router is not asked",
        "resume_record": "--resume {path}: not a journal this host can resume (its host record "
                         "has {name} {value})",
        "resume_opened": "--resume {path}: not a journal this host can resume (the tables its "
                         "host opened: {why})",
        "resume_other_host": "unonet: --resume {path}: its host was not this one ({differs}); "
                             "this host listens and plays as that of {first} did",
        "differs_opened": "other tables opened",
        "differs_value": "{name} {other}, not {first}",
        "differs_no_record": "one of them keeps no host record",
        "journal_unreadable": "not a journal this host can resume: {why}",
        "headless_by_itself": "unonet: not on a terminal, so running as a dedicated server "
                              "(--headless).",
        "unused_flags": "unonet: {flags}: for the host who plays; a dedicated server has no "
                        "player of its own, so ignored.",
        "host_resuming": "unonet host: resuming {what} on {where}; you take your seat back, "
                         "friends theirs with the same unonet join.",
        "host_starting": "unonet host: starting on {where}; your table opens now (press s in "
                         "the lobby to start once your friends are in).",
        "on_port": "port {port}",
        "free_port": "a free port (the chat names it)",
        "matches": "{count} matches",
        "or": "or",
        "thousands": ",",
        **{f"rules.{kind}": text for kind, text in RULES_SAYS.items()},
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
        "hex_seed": "{text} non è un seme esadecimale (un numero pari di cifre 0-9 e a-f, ad "
                    "es. 0a1b)",
        "not_seconds": "{text} non è un numero di secondi",
        "seconds_range": "{text}: secondi da 0 a 3600",
        "not_matches": "{text} non è un numero di partite",
        "matches_range": "{value}: partite da 1 a {most}",
        "search_range": "{text}: una ricerca da 0 a 60 secondi",
        "not_sims": "{text} non è un numero di simulazioni",
        "sims_range": "{value}: simulazioni da 1 a {most}",
        "search_unbounded": "--search-time 0: indica anche --search-sims N, perché la ricerca "
                            "abbia una fine",
        "not_table": "{text} non è un numero di tavolo",
        "table_range": "{number} non è un numero di tavolo (da 0 in su)",
        "name_empty": "{flag}: il nome è vuoto",
        "name_long": "{flag}: il nome supera i {most} caratteri",
        "name_reserved": "{flag}: quel nome è riservato agli avvisi dell'host",
        "name_char": "{flag}: il nome contiene {char}",
        "pin_hex": "{flag}: un'impronta di 64 caratteri dev'essere esadecimale",
        "pin_length": "{flag}: un'impronta ha da {low} a {high} caratteri base32",
        "pin_base32": "{flag}: un'impronta è in base32 (A-Z, 2-7)",
        "set_form": "--set: vuole OPTION=VALUE, non {text}",
        "rules_refused": "{flag}{counted}: {why}",
        "rules_seat_count": "{flag}: queste regole accolgono da 2 a {most} giocatori, non "
                            "{seats}",
        "default_bots": "i {bots} bot predefiniti (scegli con --bots)",
        "default_seats": "i {seats} posti del tavolo (scegli con --seats)",
        "counted": " ({seats} posti)",
        "log_bots": "--bots {seats}: una partita mostrata come log ha da 2 a {most} "
                    "bot{rules}{why}",
        "log_rules": " con {rules}",
        "log_piped": " (l'uscita non è un terminale, quindi la partita è mostrata come log)",
        "preset_not_played": "preset: {name} non si gioca ancora (issue 14 e 15)",
        "unknown_language": "lingua sconosciuta {given}; quelle note: {known}",
        "check_port0": "--check --port 0: indica la porta che gli amici devono raggiungere "
                       "(--port N)",
        "check_no_upnp": "--check: UNONET_NO_UPNP è impostata, quindi il router non viene "
                         "interpellato",
        "resume_record": "--resume {path}: non è un diario che questo host può riprendere (la "
                         "sua scheda dell'host ha {name} {value})",
        "resume_opened": "--resume {path}: non è un diario che questo host può riprendere (i "
                         "tavoli aperti dal suo host: {why})",
        "resume_other_host": "unonet: --resume {path}: il suo host non era questo ({differs}); "
                             "questo host ascolta e gioca come quello di {first}",
        "differs_opened": "altri tavoli aperti",
        "differs_value": "{name} {other}, non {first}",
        "differs_no_record": "uno dei due non conserva la scheda dell'host",
        "journal_unreadable": "non è un diario che questo host può riprendere: {why}",
        "headless_by_itself": "unonet: non è un terminale, quindi funziono da server dedicato "
                              "(--headless).",
        "unused_flags": "unonet: {flags}: per l'host che gioca; un server dedicato non ha un "
                        "giocatore suo, quindi ignorati.",
        "host_resuming": "unonet host: riprendo {what} su {where}; tu riprendi il tuo posto, "
                         "gli amici il loro con lo stesso unonet join.",
        "host_starting": "unonet host: avvio su {where}; il tuo tavolo si apre ora (premi s "
                         "nella sala per cominciare quando gli amici sono entrati).",
        "on_port": "porta {port}",
        "free_port": "una porta libera (la chat la indica)",
        "matches": "{count} partite",
        "or": "o",
        "thousands": ".",
        "rules.not_off": "non può essere off",
        "rules.one_of": "dev'essere uno tra {choices}, non {value}",
        "rules.whole_value": "dev'essere un numero intero, non {value}",
        "rules.at_least": "dev'essere almeno {least}, non {value}",
        "rules.at_most": "dev'essere al massimo {most}, non {value}",
        "rules.not_implemented": "{value} non è ancora giocato da questo motore (gioca: "
                                 "{plays})",
        "rules.not_implemented_default": "{value} non è ancora giocato da questo motore (gioca "
                                         "solo il valore predefinito)",
        "rules.not_played": "{variant} non si gioca ancora (issue 15)",
        "rules.pairs_scoring": "le coppie si contano con scoring=winner_collects, non "
                               "{scoring}",
        "rules.pairs_room": "le coppie vogliono 4 o 6 posti; max_players={most} ne consente "
                            "meno",
        "rules.table_seats": "un tavolo ha da 2 a {most} posti, non {seats}",
        "rules.pairs_seats": "le coppie vogliono 4 o 6 posti, non {seats}",
        "rules.deck_small": "{seats} posti x {hand} carte richiedono {needed} carte ma il mazzo "
                            "ne ha {deck}; abbassa hand_size o alza decks",
        "rules.flip_only": "si gioca solo con variant=flip",
        "rules.flip_decks": "UNO Flip si gioca con un solo mazzo di 112 carte a due facce",
        "rules.flip_colors": "UNO Flip ha i suoi colori: quattro per lato",
        "rules.flip_buzzers": "il mazzo di UNO Flip non ha carte Buzzer",
        "rules.no_mercy_players": "UNO Senza pietà si gioca da 2 a {most} giocatori",
        "rules.no_mercy_always": "UNO Senza pietà gioca sempre {setting}",
        "rules.no_mercy_only": "UNO Senza pietà gioca solo {setting}",
        "rules.no_mercy_refuses": "UNO Senza pietà non gioca {setting}",
        "rules.unknown_option": "opzione sconosciuta",
        "rules.unknown_option_known": "opzione sconosciuta; quelle note: {known}",
        "rules.unknown_preset": "preset sconosciuto {name}; quelli noti: {known}",
        "rules.expects_choice": "vuole {choices}, non {text}",
        "rules.expects_whole": "vuole un numero intero, non {text}",
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
        "hex_seed": "{text} não é uma semente hexadecimal (um número par de 0-9 e a-f, ex. "
                    "0a1b)",
        "not_seconds": "{text} não é um número de segundos",
        "seconds_range": "{text}: segundos de 0 a 3600",
        "not_matches": "{text} não é um número de partidas",
        "matches_range": "{value}: partidas de 1 a {most}",
        "search_range": "{text}: uma busca de 0 a 60 segundos",
        "not_sims": "{text} não é um número de simulações",
        "sims_range": "{value}: simulações de 1 a {most}",
        "search_unbounded": "--search-time 0: dê também --search-sims N, para que a busca tenha "
                            "um fim",
        "not_table": "{text} não é um número de mesa",
        "table_range": "{number} não é um número de mesa (de 0 para cima)",
        "name_empty": "{flag}: o nome está vazio",
        "name_long": "{flag}: o nome tem mais de {most} caracteres",
        "name_reserved": "{flag}: esse nome é reservado para os avisos do host",
        "name_char": "{flag}: o nome contém {char}",
        "pin_hex": "{flag}: uma impressão digital de 64 caracteres tem de ser hexadecimal",
        "pin_length": "{flag}: uma impressão digital tem de {low} a {high} caracteres base32",
        "pin_base32": "{flag}: uma impressão digital é base32 (A-Z, 2-7)",
        "set_form": "--set: espera OPTION=VALUE, não {text}",
        "rules_refused": "{flag}{counted}: {why}",
        "rules_seat_count": "{flag}: estas regras aceitam de 2 a {most} jogadores, não {seats}",
        "default_bots": "os {bots} bots padrão (escolha com --bots)",
        "default_seats": "os {seats} lugares da mesa (escolha com --seats)",
        "counted": " ({seats} lugares)",
        "log_bots": "--bots {seats}: uma partida em log tem de 2 a {most} bots{rules}{why}",
        "log_rules": " com {rules}",
        "log_piped": " (a saída não é um terminal, então a partida vai para o log)",
        "preset_not_played": "preset: {name} ainda não é jogado (issues 14 e 15)",
        "unknown_language": "idioma desconhecido {given}; os conhecidos: {known}",
        "check_port0": "--check --port 0: diga a porta que os amigos devem alcançar (--port N)",
        "check_no_upnp": "--check: UNONET_NO_UPNP está definida, então o roteador não é "
                         "consultado",
        "resume_record": "--resume {path}: não é um diário que este host possa retomar (o "
                         "registro do host tem {name} {value})",
        "resume_opened": "--resume {path}: não é um diário que este host possa retomar (as "
                         "mesas que o host abriu: {why})",
        "resume_other_host": "unonet: --resume {path}: o host dele não era este ({differs}); "
                             "este host escuta e joga como o de {first}",
        "differs_opened": "outras mesas abertas",
        "differs_value": "{name} {other}, não {first}",
        "differs_no_record": "um deles não guarda o registro do host",
        "journal_unreadable": "não é um diário que este host possa retomar: {why}",
        "headless_by_itself": "unonet: fora de um terminal, então rodando como servidor "
                              "dedicado (--headless).",
        "unused_flags": "unonet: {flags}: para o host que joga; um servidor dedicado não tem "
                        "jogador próprio, então ignorados.",
        "host_resuming": "unonet host: retomando {what} em {where}; você retoma seu lugar, os "
                         "amigos os deles com o mesmo unonet join.",
        "host_starting": "unonet host: iniciando em {where}; sua mesa abre agora (aperte s no "
                         "saguão para começar quando os amigos tiverem entrado).",
        "on_port": "porta {port}",
        "free_port": "uma porta livre (o chat a indica)",
        "matches": "{count} partidas",
        "or": "ou",
        "thousands": ".",
        "rules.not_off": "não pode ser off",
        "rules.one_of": "deve ser um de {choices}, não {value}",
        "rules.whole_value": "deve ser um número inteiro, não {value}",
        "rules.at_least": "deve ser pelo menos {least}, não {value}",
        "rules.at_most": "deve ser no máximo {most}, não {value}",
        "rules.not_implemented": "{value} ainda não é jogado por este motor (ele joga: {plays})",
        "rules.not_implemented_default": "{value} ainda não é jogado por este motor (ele joga "
                                         "só o padrão)",
        "rules.not_played": "{variant} ainda não é jogado (issue 15)",
        "rules.pairs_scoring": "duplas pontuam com scoring=winner_collects, não {scoring}",
        "rules.pairs_room": "duplas precisam de 4 ou 6 lugares; max_players={most} permite "
                            "menos",
        "rules.table_seats": "uma mesa precisa de 2 a {most} lugares, não {seats}",
        "rules.pairs_seats": "duplas precisam de 4 ou 6 lugares, não {seats}",
        "rules.deck_small": "{seats} lugares x {hand} cartas precisam de {needed} cartas, mas o "
                            "baralho tem {deck}; diminua hand_size ou aumente decks",
        "rules.flip_only": "só se joga com variant=flip",
        "rules.flip_decks": "UNO Flip joga com um só baralho de 112 cartas de dois lados",
        "rules.flip_colors": "UNO Flip tem suas próprias cores: quatro de cada lado",
        "rules.flip_buzzers": "o baralho do UNO Flip não tem cartas Buzzer",
        "rules.no_mercy_players": "UNO Sem Piedade é para 2 a {most} jogadores",
        "rules.no_mercy_always": "UNO Sem Piedade sempre joga {setting}",
        "rules.no_mercy_only": "UNO Sem Piedade joga só {setting}",
        "rules.no_mercy_refuses": "UNO Sem Piedade não joga {setting}",
        "rules.unknown_option": "opção desconhecida",
        "rules.unknown_option_known": "opção desconhecida; as conhecidas: {known}",
        "rules.unknown_preset": "preset desconhecido {name}; os conhecidos: {known}",
        "rules.expects_choice": "espera {choices}, não {text}",
        "rules.expects_whole": "espera um número inteiro, não {text}",
    },
}


@dataclass(frozen=True)
class Phrase:
    """Words of this catalogue not said yet: a part of a message that is said in the language
    the whole message is said in (a flag named in words, a detail)."""

    key: str
    values: Mapping[str, object] = field(default_factory=dict)


def phrase(key: str, **values: object) -> Phrase:
    return Phrase(key, values)


@dataclass(frozen=True)
class Grouped:
    """A large number, its thousands grouped as the message's language writes them
    (1,000,000 in English, 1.000.000 in Italian and Portuguese)."""

    value: int


def cli_words(lang: str, key: str, **values: object) -> str:
    """The message `key` in `lang` (English for a language it has not), `values` in it: a
    Phrase, a RulesError or a tuple of them said in `lang` too."""
    return CLI_WORDS.get(lang, CLI_WORDS[DEFAULT])[key].format(
        **{name: in_language(lang, value) for name, value in values.items()})


def in_language(lang: str, value: object) -> object:
    """`value` as a message shows it in `lang`: a Phrase or a RulesError in words, a tuple as
    its parts said one after another, anything else as it is."""
    if isinstance(value, Phrase):
        return cli_words(lang, value.key, **value.values)
    if isinstance(value, Grouped):
        separator = CLI_WORDS.get(lang, CLI_WORDS[DEFAULT])["thousands"]
        return f"{value.value:,}".replace(",", separator)
    if isinstance(value, RulesError):
        return rules_words(lang, value)
    if isinstance(value, tuple):
        return ", ".join(str(in_language(lang, part)) for part in value)
    return value


def rules_words(lang: str, refused: RulesError) -> str:
    """A refused rule set in `lang`: "option: why", from the error's kind and parts (its
    English message for one that has no kind)."""
    if not refused.kind:
        return refused.message
    strings = CLI_WORDS.get(lang, CLI_WORDS[DEFAULT])
    return f"{refused.option}: " + said_with(strings[f"rules.{refused.kind}"], refused.parts,
                                              strings["or"])


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
