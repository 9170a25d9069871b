"""What `unonet audit` and `unonet bot` print, in the reader's language (`--lang`, else the
locale's). Numbers, ids, fingerprints and the host's own words stay as they are; a trust
violation's detail is the verifier's sentence (its kind is said in words by the screen's
catalogue, client/i18n.py)."""

from __future__ import annotations

from collections.abc import Mapping

DEFAULT = "en"

COMMAND_WORDS: Mapping[str, Mapping[str, str]] = {
    "en": {
        "audit.match": "match {game_id} on {host}, {seats} seats, seen as {seen}",
        "audit.seat": "seat {seat}",
        "audit.spectator_seat": "a spectator, then seat {seat}",
        "audit.spectator": "a spectator",
        "audit.signing_key": "host signing key (SHA-256 of its public key)",
        "audit.certificate": "host certificate (as unonet host prints it)",
        "audit.no_seed": " (seat {seats} did not reveal a seed: counted as zeros)",
        "audit.violation": "round {round}: VIOLATION {violation}",
        "audit.match_violation": "match: VIOLATION {violation}",
        "audit.abandoned": "round {round}: abandoned before any seed was revealed (counted; no "
                           "card dealt, its host seed opens its commitment){note}",
        "audit.audited": "round {round}: audited, every card checks out{note}",
        "audit.missed": "round {round}: not watched (the player was away); its seeds and the "
                        "cards seen before leaving check out{note}",
        "audit.unaudited": "round {round}: not audited (the transcript ends before its audit)",
        "audit.left": "its player left the table",
        "audit.stopped": "its client stopped recording (the match is still being played, or "
                         "the client was closed or killed), or the host went silent",
        "audit.short": "note: the transcript stops before the match ended: {why}; the round it "
                       "stops in is not judged, audits owed before it are counted as missing",
        "audit.capped": "note: the transcript was capped at its size limit; what came after is "
                        "not recorded and not audited",
        "audit.summary": "{rounds}, {audited} audited, {abandoned} abandoned before the deal, "
                         "{events} checked",
        "audit.broken": "summary: {summary}; {violations}: the host broke the protocol, or this "
                        "file was changed since it was recorded",
        "audit.unjudged": "summary: {summary}; no violation found, but {rounds} could not be "
                          "audited",
        "audit.holds": "summary: {summary}; everything holds",
        "audit.unreadable": "unonet audit: {message}",
        "rounds": "{count} rounds",
        "rounds_one": "1 round",
        "events": "{count} events",
        "events_one": "1 event",
        "violations": "{count} violations",
        "violations_one": "1 violation",
        "bot.this": "{name} (this bot)",
        "bot.seat": "seat {seat}",
        "bot.match": "match {number} over: {winner} wins; scores: {scores}",
        "bot.checked": "deck checks: {audited} of {rounds} audited in full",
        "bot.violations": "{checked}; {violations} (below)",
        "bot.held": "{checked}, every card and seed held",
        "bot.partly": "{checked}; no violation in what was checked",
        "bot.unpinned": "host fingerprint {fingerprint} (not checked: pass --fingerprint to "
                        "pin it)",
        "bot.not_pinned": "unonet: WARNING, not the pinned host: {why}",
        "bot.unreachable": "unonet: cannot reach {address}: {why}",
        "bot.failed_check": "the host failed a check: {violation}",
        "bot.ended": "unonet: the session ended after {played} of {wanted} matches: {why}",
        "bot.host_left": "the host left",
        "bot.abandoned": " ({count} abandoned before the deal)",
        "bot.moves": "own moves: {count} recorded by the host exactly as sent",
        "transcript.too_large": "{name}: {size} bytes is too large for a transcript",
        "transcript.unreadable": "{name}: {why}",
        "transcript.empty": "{name}: empty, not a unonet transcript",
        "transcript.no_header": "{name}: not a unonet transcript (no transcript header)",
        "transcript.version": "{name}: transcript version {found} is not {version}, the one "
                              "this unonet reads",
        "transcript.cut": "{name}: cut off inside record {index} (truncated file?)",
        "transcript.not_msgpack": "{name}: not msgpack at record {index} ({kind})",
        "transcript.not_map": "{name}: record {index} is not a map",
        "transcript.no_type": "{name}: record {index} is a map without a message type (\"t\"): "
                              "not a unonet transcript",
        "transcript.no_manifest": "the transcript holds no manifest: nothing to audit",
        "transcript.bad_manifest": "its manifest cannot be read ({why})",
        "transcript.bad_seat": "its header names seat {seat}, which a match of {seats} seats "
                               "does not have: not as a client wrote it",
    },
    "it": {
        "audit.match": "partita {game_id} su {host}, {seats} posti, vista come {seen}",
        "audit.seat": "posto {seat}",
        "audit.spectator_seat": "uno spettatore, poi il posto {seat}",
        "audit.spectator": "uno spettatore",
        "audit.signing_key": "chiave di firma dell'host (SHA-256 della sua chiave pubblica)",
        "audit.certificate": "certificato dell'host (come lo stampa unonet host)",
        "audit.no_seed": " (il posto {seats} non ha rivelato un seme: contato come zeri)",
        "audit.violation": "manche {round}: VIOLAZIONE {violation}",
        "audit.match_violation": "partita: VIOLAZIONE {violation}",
        "audit.abandoned": "manche {round}: abbandonata prima della distribuzione e verificata "
                           "(contata){note}",
        "audit.audited": "manche {round}: verificata, ogni carta torna{note}",
        "audit.missed": "manche {round}: non seguita (il giocatore era via); i suoi semi e le "
                        "carte viste prima di uscire tornano{note}",
        "audit.unaudited": "manche {round}: non verificata (la trascrizione finisce prima della "
                           "sua verifica)",
        "audit.left": "il suo giocatore ha lasciato il tavolo",
        "audit.stopped": "il suo client ha smesso di registrare (la partita è ancora in corso, "
                         "o il client è stato chiuso o ucciso), o l'host è sparito",
        "audit.short": "nota: la trascrizione si ferma prima della fine della partita: {why}; "
                       "la manche in cui si ferma non è giudicata, le verifiche dovute prima "
                       "sono contate come mancanti",
        "audit.capped": "nota: la trascrizione ha raggiunto il suo limite di dimensione; quel "
                        "che è venuto dopo non è registrato né verificato",
        "audit.summary": "{rounds}, {audited} verificate, {abandoned} abbandonate prima della "
                         "distribuzione, {events} controllati",
        "audit.broken": "riepilogo: {summary}; {violations}: l'host ha violato il protocollo, o "
                        "questo file è stato cambiato dopo la registrazione",
        "audit.unjudged": "riepilogo: {summary}; nessuna violazione trovata, ma {rounds} non "
                          "si sono potute verificare",
        "audit.holds": "riepilogo: {summary}; tutto torna",
        "audit.unreadable": "unonet audit: {message}",
        "rounds": "{count} manche",
        "rounds_one": "1 manche",
        "events": "{count} eventi",
        "events_one": "1 evento",
        "violations": "{count} violazioni",
        "violations_one": "1 violazione",
        "bot.this": "{name} (questo bot)",
        "bot.seat": "posto {seat}",
        "bot.match": "partita {number} finita: vince {winner}; punti: {scores}",
        "bot.checked": "verifiche del mazzo: {audited} di {rounds} verificate per intero",
        "bot.violations": "{checked}; {violations} (sotto)",
        "bot.held": "{checked}, ogni carta e ogni seme tornano",
        "bot.partly": "{checked}; nessuna violazione in quel che è stato verificato",
        "bot.unpinned": "impronta dell'host {fingerprint} (non controllata: passa "
                        "--fingerprint per fissarla)",
        "bot.not_pinned": "unonet: ATTENZIONE, non è l'host fissato: {why}",
        "bot.unreachable": "unonet: non si raggiunge {address}: {why}",
        "bot.failed_check": "l'host non ha superato un controllo: {violation}",
        "bot.ended": "unonet: la sessione è finita dopo {played} di {wanted} partite: {why}",
        "bot.host_left": "l'host se n'è andato",
        "bot.abandoned": " ({count} abbandonate prima della distribuzione)",
        "bot.moves": "mosse proprie: {count} registrate dall'host esattamente come inviate",
        "transcript.too_large": "{name}: {size} byte sono troppi per una trascrizione",
        "transcript.unreadable": "{name}: {why}",
        "transcript.empty": "{name}: vuoto, non è una trascrizione unonet",
        "transcript.no_header": "{name}: non è una trascrizione unonet (manca l'intestazione)",
        "transcript.version": "{name}: la versione {found} della trascrizione non è {version}, "
                              "quella che questo unonet legge",
        "transcript.cut": "{name}: interrotto dentro il record {index} (file troncato?)",
        "transcript.not_msgpack": "{name}: non è msgpack al record {index} ({kind})",
        "transcript.not_map": "{name}: il record {index} non è una mappa",
        "transcript.no_type": "{name}: il record {index} è una mappa senza tipo di messaggio "
                              "(\"t\"): non è una trascrizione unonet",
        "transcript.no_manifest": "la trascrizione non contiene un manifesto: niente da "
                                  "verificare",
        "transcript.bad_manifest": "il suo manifesto non si legge ({why})",
        "transcript.bad_seat": "la sua intestazione indica il posto {seat}, che una partita di "
                               "{seats} posti non ha: non è come l'ha scritta un client",
    },
    "pt": {
        "audit.match": "partida {game_id} em {host}, {seats} lugares, vista como {seen}",
        "audit.seat": "lugar {seat}",
        "audit.spectator_seat": "um espectador, depois o lugar {seat}",
        "audit.spectator": "um espectador",
        "audit.signing_key": "chave de assinatura do host (SHA-256 da sua chave pública)",
        "audit.certificate": "certificado do host (como o unonet host o mostra)",
        "audit.no_seed": " (o lugar {seats} não revelou uma semente: contada como zeros)",
        "audit.violation": "rodada {round}: VIOLAÇÃO {violation}",
        "audit.match_violation": "partida: VIOLAÇÃO {violation}",
        "audit.abandoned": "rodada {round}: abandonada antes da distribuição e verificada "
                           "(contada){note}",
        "audit.audited": "rodada {round}: verificada, todas as cartas conferem{note}",
        "audit.missed": "rodada {round}: não acompanhada (o jogador estava fora); suas sementes "
                        "e as cartas vistas antes de sair conferem{note}",
        "audit.unaudited": "rodada {round}: não verificada (a transcrição termina antes da sua "
                           "verificação)",
        "audit.left": "o jogador saiu da mesa",
        "audit.stopped": "o cliente parou de gravar (a partida ainda está sendo jogada, ou o "
                         "cliente foi fechado ou morto), ou o host sumiu",
        "audit.short": "nota: a transcrição para antes do fim da partida: {why}; a rodada em "
                       "que para não é julgada, as verificações devidas antes contam como "
                       "faltando",
        "audit.capped": "nota: a transcrição atingiu seu limite de tamanho; o que veio depois "
                        "não está gravado nem verificado",
        "audit.summary": "{rounds}, {audited} verificadas, {abandoned} abandonadas antes da "
                         "distribuição, {events} conferidos",
        "audit.broken": "resumo: {summary}; {violations}: o host violou o protocolo, ou este "
                        "arquivo foi alterado depois de gravado",
        "audit.unjudged": "resumo: {summary}; nenhuma violação encontrada, mas {rounds} não "
                          "puderam ser verificadas",
        "audit.holds": "resumo: {summary}; tudo confere",
        "audit.unreadable": "unonet audit: {message}",
        "rounds": "{count} rodadas",
        "rounds_one": "1 rodada",
        "events": "{count} eventos",
        "events_one": "1 evento",
        "violations": "{count} violações",
        "violations_one": "1 violação",
        "bot.this": "{name} (este bot)",
        "bot.seat": "lugar {seat}",
        "bot.match": "partida {number} terminada: {winner} vence; pontos: {scores}",
        "bot.checked": "verificações do baralho: {audited} de {rounds} verificadas por inteiro",
        "bot.violations": "{checked}; {violations} (abaixo)",
        "bot.held": "{checked}, todas as cartas e sementes conferem",
        "bot.partly": "{checked}; nenhuma violação no que foi verificado",
        "bot.unpinned": "impressão digital do host {fingerprint} (não conferida: passe "
                        "--fingerprint para fixá-la)",
        "bot.not_pinned": "unonet: ATENÇÃO, não é o host fixado: {why}",
        "bot.unreachable": "unonet: não dá para alcançar {address}: {why}",
        "bot.failed_check": "o host falhou em uma verificação: {violation}",
        "bot.ended": "unonet: a sessão terminou depois de {played} de {wanted} partidas: {why}",
        "bot.host_left": "o host saiu",
        "bot.abandoned": " ({count} abandonadas antes da distribuição)",
        "bot.moves": "jogadas próprias: {count} registradas pelo host exatamente como enviadas",
        "transcript.too_large": "{name}: {size} bytes é grande demais para uma transcrição",
        "transcript.unreadable": "{name}: {why}",
        "transcript.empty": "{name}: vazio, não é uma transcrição do unonet",
        "transcript.no_header": "{name}: não é uma transcrição do unonet (sem cabeçalho)",
        "transcript.version": "{name}: a versão {found} da transcrição não é {version}, a que "
                              "este unonet lê",
        "transcript.cut": "{name}: cortado dentro do registro {index} (arquivo truncado?)",
        "transcript.not_msgpack": "{name}: não é msgpack no registro {index} ({kind})",
        "transcript.not_map": "{name}: o registro {index} não é um mapa",
        "transcript.no_type": "{name}: o registro {index} é um mapa sem tipo de mensagem "
                              "(\"t\"): não é uma transcrição do unonet",
        "transcript.no_manifest": "a transcrição não tem manifesto: nada a verificar",
        "transcript.bad_manifest": "o manifesto não pode ser lido ({why})",
        "transcript.bad_seat": "o cabeçalho indica o lugar {seat}, que uma partida de {seats} "
                               "lugares não tem: não é como um cliente o escreveu",
    },
}


def command_words(lang: str, key: str, **values: object) -> str:
    """The string `key` in `lang` (English for a language it has not), with `values` in it;
    with count=1, `key`_one where there is one."""
    strings = COMMAND_WORDS.get(lang, COMMAND_WORDS[DEFAULT])
    if values.get("count") == 1 and f"{key}_one" in strings:
        key = f"{key}_one"
    return strings[key].format(**values)
