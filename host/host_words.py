"""What `unonet host` says on its terminal, in the operator's language (`--lang`, else the
locale's): where it listens and how friends join, a dedicated server's status, how a match
carries on after a stop, why it cannot listen, and what the home router said (host/portmap.py,
`unonet host --check`). The commands and paths in it stay as they are typed; the log file
(host.log) stays in English, for bug reports."""

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
        "router_mapped": "router: port {port} of {public} is forwarded to this machine ({lan}) by "
                         "the router at {router} (UPnP) while this host runs{over}",
        "router_taken_over": ", taken over from a host that stopped without removing it",
        "router_at": "the router at {router}",
        "router_the": "the router",
        "this_machine": "this machine's address",
        "by_hand": "forward TCP port {port} to {target} by hand in your router's settings",
        "router_none": "router: no UPnP router answered within {deadline} s, so friends outside "
                       "your network cannot reach this host: {by_hand} (or turn UPnP on there)",
        "public_not": "its internet address {public} is not a public one",
        "public_none": "it has no public internet address",
        "router_no_public": "router: {router} cannot open port {port} to the internet: {has} "
                            "(your provider shares one among its customers, carrier-grade NAT, "
                            "or another router sits in front of it); ask your provider for a "
                            "public IPv4 address, or forward port {port} on the outer router too",
        "taken_said": "is mapped already{said}",
        "taken_here": "already leads to port {port} of this machine ({description})",
        "taken_other": "already leads to {client} ({description})",
        "no_description": "no description",
        "router_taken": "router: port {port} on {router} {where}: host on another port (--port "
                        "{other}) or free it in the router's settings",
        "router_refused": "router: {router} refused to forward port {port}{said}: {by_hand}, or "
                          "allow UPnP for this machine there",
        "router_failed": "router: could not ask {router} for port {port}{said}: {by_hand}",
        "router_asking": "router: asking it to forward port {port} to this machine (UPnP, at "
                         "most {deadline} s; --no-upnp not to ask)",
        "router_removed": "router: the forwarding of port {port} from {public} is removed",
        "router_not_removed": "router: could not remove the forwarding of port {port} from "
                              "{public}; the router drops it within {minutes} minutes",
        "check_asking": "unonet host --check: asking the router about port {port} (UPnP, at "
                        "most {deadline} s)",
        "check_answered": "router: {router} answered ({url}); this machine is {lan} on its "
                          "network",
        "check_connection": "router: connection {status} ({connection}); internet address "
                            "{public}{is_public}",
        "check_public": " (public)",
        "check_no_address": "none",
        "check_not_forwarded": "port {port}: not forwarded; `unonet host --port {port}` asks "
                               "the router for it as it starts (listening on every interface, "
                               "without --no-upnp)",
        "lease_left": ", {seconds} s left",
        "lease_forever": ", until removed",
        "check_elsewhere": "port {port}: forwarded to {where}, not to this host: host on another "
                           "port (--port {other}) or free it in the router's settings",
        "check_not_public": "port {port}: forwarded to this machine, {where}, but not from a "
                            "public address",
        "check_forwarded": "port {port}: forwarded to this machine, {where}: friends on the "
                           "internet join at {address}",
        "join_internet": "Friends on the internet join with: {command}",
        "join_local": "Friends on your own network join with: {command}{others}",
        "join_others": " (or at {addresses})",
        "descriptors": "--max-connections {most} needs about {needed} open files; this system "
                       "allows {hard} (ulimit -Hn)",
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
        "router_mapped": "router: la porta {port} di {public} è inoltrata a questa macchina "
                         "({lan}) dal router a {router} (UPnP) finché questo host è in "
                         "funzione{over}",
        "router_taken_over": ", ripresa da un host che si è fermato senza toglierla",
        "router_at": "il router a {router}",
        "router_the": "il router",
        "this_machine": "l'indirizzo di questa macchina",
        "by_hand": "inoltra a mano la porta TCP {port} a {target} nelle impostazioni del router",
        "router_none": "router: nessun router UPnP ha risposto entro {deadline} s, quindi gli "
                       "amici fuori dalla tua rete non raggiungono questo host: {by_hand} (o "
                       "attiva lì l'UPnP)",
        "public_not": "il suo indirizzo internet {public} non è pubblico",
        "public_none": "non ha un indirizzo internet pubblico",
        "router_no_public": "router: {router} non può aprire la porta {port} verso internet: "
                            "{has} (il tuo provider ne divide uno tra i suoi clienti, NAT di "
                            "operatore, o c'è un altro router davanti); chiedi al provider un "
                            "indirizzo IPv4 pubblico, o inoltra la porta {port} anche sul router "
                            "esterno",
        "taken_said": "è già inoltrata{said}",
        "taken_here": "porta già alla porta {port} di questa macchina ({description})",
        "taken_other": "porta già a {client} ({description})",
        "no_description": "senza descrizione",
        "router_taken": "router: la porta {port} su {router} {where}: ospita su un'altra porta "
                        "(--port {other}) o liberala nelle impostazioni del router",
        "router_refused": "router: {router} ha rifiutato di inoltrare la porta {port}{said}: "
                          "{by_hand}, o lì consenti l'UPnP a questa macchina",
        "router_failed": "router: non sono riuscito a chiedere a {router} la porta "
                         "{port}{said}: {by_hand}",
        "router_asking": "router: gli chiedo di inoltrare la porta {port} a questa macchina "
                         "(UPnP, al massimo {deadline} s; --no-upnp per non chiederlo)",
        "router_removed": "router: l'inoltro della porta {port} da {public} è stato tolto",
        "router_not_removed": "router: non sono riuscito a togliere l'inoltro della porta {port} "
                              "da {public}; il router lo lascia cadere entro {minutes} minuti",
        "check_asking": "unonet host --check: chiedo al router della porta {port} (UPnP, al "
                        "massimo {deadline} s)",
        "check_answered": "router: {router} ha risposto ({url}); questa macchina è {lan} nella "
                          "sua rete",
        "check_connection": "router: connessione {status} ({connection}); indirizzo internet "
                            "{public}{is_public}",
        "check_public": " (pubblico)",
        "check_no_address": "nessuno",
        "check_not_forwarded": "porta {port}: non inoltrata; `unonet host --port {port}` la "
                               "chiede al router all'avvio (in ascolto su tutte le interfacce, "
                               "senza --no-upnp)",
        "lease_left": ", ancora {seconds} s",
        "lease_forever": ", finché non viene tolta",
        "check_elsewhere": "porta {port}: inoltrata a {where}, non a questo host: ospita su "
                           "un'altra porta (--port {other}) o liberala nelle impostazioni del "
                           "router",
        "check_not_public": "porta {port}: inoltrata a questa macchina, {where}, ma non da un "
                            "indirizzo pubblico",
        "check_forwarded": "porta {port}: inoltrata a questa macchina, {where}: gli amici su "
                           "internet entrano a {address}",
        "join_internet": "Gli amici su internet entrano con: {command}",
        "join_local": "Gli amici della tua rete entrano con: {command}{others}",
        "join_others": " (o a {addresses})",
        "descriptors": "--max-connections {most} richiede circa {needed} file aperti; questo "
                       "sistema ne consente {hard} (ulimit -Hn)",
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
        "router_mapped": "roteador: a porta {port} de {public} é encaminhada a esta máquina "
                         "({lan}) pelo roteador em {router} (UPnP) enquanto este host roda{over}",
        "router_taken_over": ", retomada de um host que parou sem removê-la",
        "router_at": "o roteador em {router}",
        "router_the": "o roteador",
        "this_machine": "o endereço desta máquina",
        "by_hand": "encaminhe à mão a porta TCP {port} para {target} nas configurações do "
                   "roteador",
        "router_none": "roteador: nenhum roteador UPnP respondeu em {deadline} s, então os "
                       "amigos fora da sua rede não alcançam este host: {by_hand} (ou ligue o "
                       "UPnP lá)",
        "public_not": "o endereço de internet dele, {public}, não é público",
        "public_none": "ele não tem endereço de internet público",
        "router_no_public": "roteador: {router} não pode abrir a porta {port} para a internet: "
                            "{has} (seu provedor divide um entre os clientes, NAT de operadora, "
                            "ou há outro roteador na frente); peça ao provedor um endereço IPv4 "
                            "público, ou encaminhe a porta {port} também no roteador de fora",
        "taken_said": "já está encaminhada{said}",
        "taken_here": "já leva à porta {port} desta máquina ({description})",
        "taken_other": "já leva a {client} ({description})",
        "no_description": "sem descrição",
        "router_taken": "roteador: a porta {port} em {router} {where}: hospede em outra porta "
                        "(--port {other}) ou libere-a nas configurações do roteador",
        "router_refused": "roteador: {router} recusou encaminhar a porta {port}{said}: "
                          "{by_hand}, ou permita lá o UPnP para esta máquina",
        "router_failed": "roteador: não deu para pedir a {router} a porta {port}{said}: "
                         "{by_hand}",
        "router_asking": "roteador: pedindo que encaminhe a porta {port} a esta máquina (UPnP, "
                         "no máximo {deadline} s; --no-upnp para não pedir)",
        "router_removed": "roteador: o encaminhamento da porta {port} de {public} foi removido",
        "router_not_removed": "roteador: não deu para remover o encaminhamento da porta {port} "
                              "de {public}; o roteador o descarta em até {minutes} minutos",
        "check_asking": "unonet host --check: perguntando ao roteador sobre a porta {port} "
                        "(UPnP, no máximo {deadline} s)",
        "check_answered": "roteador: {router} respondeu ({url}); esta máquina é {lan} na rede "
                          "dele",
        "check_connection": "roteador: conexão {status} ({connection}); endereço de internet "
                            "{public}{is_public}",
        "check_public": " (público)",
        "check_no_address": "nenhum",
        "check_not_forwarded": "porta {port}: não encaminhada; `unonet host --port {port}` a "
                               "pede ao roteador ao iniciar (escutando em todas as interfaces, "
                               "sem --no-upnp)",
        "lease_left": ", faltam {seconds} s",
        "lease_forever": ", até ser removido",
        "check_elsewhere": "porta {port}: encaminhada para {where}, não para este host: hospede "
                           "em outra porta (--port {other}) ou libere-a nas configurações do "
                           "roteador",
        "check_not_public": "porta {port}: encaminhada a esta máquina, {where}, mas não de um "
                            "endereço público",
        "check_forwarded": "porta {port}: encaminhada a esta máquina, {where}: os amigos pela "
                           "internet entram em {address}",
        "join_internet": "Os amigos pela internet entram com: {command}",
        "join_local": "Os amigos da sua rede entram com: {command}{others}",
        "join_others": " (ou em {addresses})",
        "descriptors": "--max-connections {most} precisa de cerca de {needed} arquivos abertos; "
                       "este sistema permite {hard} (ulimit -Hn)",
    },
}


def host_words(lang: str, key: str, **values: object) -> str:
    """The string `key` in `lang` (English for a language it has not), with `values` in it;
    with count=1, `key`_one."""
    strings = HOST_WORDS.get(lang, HOST_WORDS[DEFAULT])
    if values.get("count") == 1 and f"{key}_one" in strings:
        key = f"{key}_one"
    return strings[key].format(**values)
