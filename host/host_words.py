"""What `unonet host` says on its terminal, in the operator's language (`--lang`, else the
locale's): where it listens and how friends join, a dedicated server's status, how a match
carries on after a stop, and why it cannot listen. The commands and paths in it stay as they
are typed; the log file (host.log) stays in English, for bug reports."""

from __future__ import annotations

from collections.abc import Mapping

DEFAULT = "en"

HOST_WORDS: Mapping[str, Mapping[str, str]] = {
    "en": {
        "listening": "unonet host: listening on {where}, port {port}",
        "every_interface": "every interface",
        "fingerprint": "fingerprint (SHA-256 of the certificate, base32): {fingerprint}",
        "no_tls": "TLS is off (--no-tls): traffic is readable on the network",
        "tables": "tables open: {tables}",
        "tables_none": "none",
        "table": "{number} {name} ({seats} seats{bots})",
        "bots": ", {count} bots",
        "bots_one": ", 1 bot",
        "logs": "logs: {log}; journals: {journals}",
        "status": "unonet host: {players} at {tables} (details in {log})",
        "status_players": "{count} players",
        "status_players_one": "1 player",
        "status_tables": "{count} tables, {matches} playing",
        "status_tables_one": "1 table, {matches} playing",
        "in_use": "cannot listen on {where}, port {port}: it is in use (by another unonet host, "
                  "or another program); choose another port with --port",
        "cannot_listen": "cannot listen on {where}, port {port}: {why}",
        "stopped": "unonet: host stopped (Ctrl-C)",
        "stopped_one": "unonet: host stopped (Ctrl-C); to carry its match on: {command}",
        "stopped_many": "unonet: host stopped (Ctrl-C); to carry its {count} matches on, one "
                        "host for all of them: {command}",
        "failed": "unonet host: table {number} failed on the host and was closed (the reason is "
                  "in {log}); its match is kept in {journal}.",
        "left": "unonet host: you left, so the table is closed for everyone at it.",
        "left_one": "unonet host: you left in mid-match, so the table is closed for everyone at "
                    "it. The match is kept in its journal {journal}.",
        "carry_one": "To carry it on (everyone takes their seat back with the same unonet join):",
        "left_many": "unonet host: you left with {count} matches on, so the host's tables are "
                     "closed for everyone at them. They are kept in their journals; to carry "
                     "them all on in one host (everyone takes their seat back with the same "
                     "unonet join):",
    },
    "it": {
        "listening": "unonet host: in ascolto su {where}, porta {port}",
        "every_interface": "tutte le interfacce",
        "fingerprint": "impronta (SHA-256 del certificato, base32): {fingerprint}",
        "no_tls": "TLS disattivato (--no-tls): in rete il traffico si legge",
        "tables": "tavoli aperti: {tables}",
        "tables_none": "nessuno",
        "table": "{number} {name} ({seats} posti{bots})",
        "bots": ", {count} bot",
        "bots_one": ", 1 bot",
        "logs": "log: {log}; diari: {journals}",
        "status": "unonet host: {players} a {tables} (dettagli in {log})",
        "status_players": "{count} giocatori",
        "status_players_one": "1 giocatore",
        "status_tables": "{count} tavoli, {matches} in partita",
        "status_tables_one": "1 tavolo, {matches} in partita",
        "in_use": "non posso ascoltare su {where}, porta {port}: è in uso (da un altro unonet "
                  "host, o da un altro programma); scegli un'altra porta con --port",
        "cannot_listen": "non posso ascoltare su {where}, porta {port}: {why}",
        "stopped": "unonet: host fermato (Ctrl-C)",
        "stopped_one": "unonet: host fermato (Ctrl-C); per continuare la sua partita: {command}",
        "stopped_many": "unonet: host fermato (Ctrl-C); per continuare le sue {count} partite, "
                        "un solo host per tutte: {command}",
        "failed": "unonet host: il tavolo {number} si è guastato sull'host ed è stato chiuso (il "
                  "motivo è in {log}); la sua partita è conservata in {journal}.",
        "left": "unonet host: sei uscito, quindi il tavolo è chiuso per tutti.",
        "left_one": "unonet host: sei uscito a partita in corso, quindi il tavolo è chiuso per "
                    "tutti. La partita è conservata nel suo diario {journal}.",
        "carry_one": "Per continuarla (ognuno riprende il suo posto con lo stesso unonet join):",
        "left_many": "unonet host: sei uscito con {count} partite in corso, quindi i tavoli "
                     "dell'host sono chiusi per tutti. Sono conservate nei loro diari; per "
                     "continuarle tutte in un solo host (ognuno riprende il suo posto con lo "
                     "stesso unonet join):",
    },
    "pt": {
        "listening": "unonet host: escutando em {where}, porta {port}",
        "every_interface": "todas as interfaces",
        "fingerprint": "impressão digital (SHA-256 do certificado, base32): {fingerprint}",
        "no_tls": "TLS desligado (--no-tls): na rede o tráfego pode ser lido",
        "tables": "mesas abertas: {tables}",
        "tables_none": "nenhuma",
        "table": "{number} {name} ({seats} lugares{bots})",
        "bots": ", {count} bots",
        "bots_one": ", 1 bot",
        "logs": "logs: {log}; diários: {journals}",
        "status": "unonet host: {players} em {tables} (detalhes em {log})",
        "status_players": "{count} jogadores",
        "status_players_one": "1 jogador",
        "status_tables": "{count} mesas, {matches} jogando",
        "status_tables_one": "1 mesa, {matches} jogando",
        "in_use": "não dá para escutar em {where}, porta {port}: ela está em uso (por outro "
                  "unonet host, ou outro programa); escolha outra porta com --port",
        "cannot_listen": "não dá para escutar em {where}, porta {port}: {why}",
        "stopped": "unonet: host parado (Ctrl-C)",
        "stopped_one": "unonet: host parado (Ctrl-C); para continuar a partida: {command}",
        "stopped_many": "unonet: host parado (Ctrl-C); para continuar as {count} partidas, um "
                        "só host para todas: {command}",
        "failed": "unonet host: a mesa {number} falhou no host e foi fechada (o motivo está em "
                  "{log}); a partida está guardada em {journal}.",
        "left": "unonet host: você saiu, então a mesa está fechada para todos.",
        "left_one": "unonet host: você saiu no meio da partida, então a mesa está fechada para "
                    "todos. A partida está guardada no diário {journal}.",
        "carry_one": "Para continuá-la (cada um retoma seu lugar com o mesmo unonet join):",
        "left_many": "unonet host: você saiu com {count} partidas em andamento, então as mesas "
                     "do host estão fechadas para todos. Estão guardadas nos diários; para "
                     "continuar todas em um só host (cada um retoma seu lugar com o mesmo unonet "
                     "join):",
    },
}


def host_words(lang: str, key: str, **values: object) -> str:
    """The string `key` in `lang` (English for a language it has not), with `values` in it;
    with count=1, `key`_one."""
    strings = HOST_WORDS.get(lang, HOST_WORDS[DEFAULT])
    if values.get("count") == 1 and f"{key}_one" in strings:
        key = f"{key}_one"
    return strings[key].format(**values)
