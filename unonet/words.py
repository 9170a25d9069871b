"""The words of the game in English, Italian and Portuguese: card names and event sentences.

One catalogue for everything that names a card or tells what happened, so that the narrator
(unonet/narrate.py) and the terminal client's interface (client/i18n.py, which adds its own
interface strings on top of CARD_WORDS) name a card the same way. The rule sheets in seeds/ are
Italian and Portuguese, so their words are used: Italian "pesca", "Jolly", "+4", "intercetta";
Portuguese "compra", "passa a vez", "Coringa". A test checks that every language has the same
keys with the same placeholders.

`Words(lang)(key, **values)` formats one string; `card` and `color` name cards; `game_words(lang)`
is the narrator's (card names and sentences). Values are substituted as they are, never read as
templates, so a player's name may contain any character.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping
from typing import ClassVar

from unonet.cards import Color, Face, Kind

__all__ = [
    "CARD_WORDS", "DEFAULT_LANGUAGE", "LANGUAGES", "SENTENCES", "WORDS", "Words", "game_words",
    "join_sentence",
]

LANGUAGES = ("en", "it", "pt")
DEFAULT_LANGUAGE = "en"


# -- card names ----------------------------------------------------------------------------------

CARD_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "color.red": "red",
        "color.yellow": "yellow",
        "color.green": "green",
        "color.blue": "blue",
        "color.orange": "orange",
        "color.purple": "purple",
        "color.pink": "pink",
        "color.cyan": "cyan",
        "side.light": "light",
        "side.dark": "dark",
        "card.number": "{color} {number}",
        "card.action": "{color} {kind}",
        "kind.skip": "Skip",
        "kind.reverse": "Reverse",
        "kind.draw_two": "Draw Two",
        "kind.wild": "Wild",
        "kind.wild_draw_four": "Wild Draw Four",
        "kind.buzzer": "Buzzer",
        "kind.draw_one": "Draw One",
        "kind.draw_five": "Draw Five",
        "kind.flip": "Flip",
        "kind.skip_everyone": "Skip Everyone",
        "kind.wild_draw_two": "Wild Draw Two",
        "kind.wild_draw_color": "Wild Draw Color",
        "kind.draw_four": "Draw Four",
        "kind.discard_all": "Discard All",
        "kind.wild_reverse_draw_four": "Wild Reverse Draw Four",
        "kind.wild_draw_six": "Wild Draw Six",
        "kind.wild_draw_ten": "Wild Draw Ten",
        "kind.wild_color_roulette": "Wild Color Roulette",
    },
    "it": {
        "color.red": "rosso",
        "color.yellow": "giallo",
        "color.green": "verde",
        "color.blue": "blu",
        "color.orange": "arancione",
        "color.purple": "viola",
        "color.pink": "rosa",
        "color.cyan": "ciano",
        "side.light": "chiaro",
        "side.dark": "scuro",
        "card.number": "{number} {color}",
        "card.action": "{kind} {color}",
        "kind.skip": "Salta",
        "kind.reverse": "Inverti",
        "kind.draw_two": "+2",
        "kind.wild": "Jolly",
        "kind.wild_draw_four": "Jolly +4",
        "kind.buzzer": "Buzzer",
        "kind.draw_one": "+1",
        "kind.draw_five": "+5",
        "kind.flip": "Flip",
        "kind.skip_everyone": "Salta tutti",
        "kind.wild_draw_two": "Jolly +2",
        "kind.wild_draw_color": "Jolly pesca colore",
        "kind.draw_four": "+4",
        "kind.discard_all": "Getta tutto",
        "kind.wild_reverse_draw_four": "Jolly Inverti +4",
        "kind.wild_draw_six": "Cambio colore più 6",
        "kind.wild_draw_ten": "Cambio colore più 10",
        "kind.wild_color_roulette": "Roulette dei colori",
    },
    "pt": {
        "color.red": "vermelho",
        "color.yellow": "amarelo",
        "color.green": "verde",
        "color.blue": "azul",
        "color.orange": "laranja",
        "color.purple": "roxo",
        "color.pink": "rosa",
        "color.cyan": "ciano",
        "side.light": "claro",
        "side.dark": "escuro",
        "card.number": "{number} {color}",
        "card.action": "{kind} {color}",
        "kind.skip": "Pular",
        "kind.reverse": "Inverter",
        "kind.draw_two": "Comprar Duas",
        "kind.wild": "Coringa",
        "kind.wild_draw_four": "Coringa +4",
        "kind.buzzer": "Buzzer",
        "kind.draw_one": "Comprar Uma",
        "kind.draw_five": "Comprar Cinco",
        "kind.flip": "Flip",
        "kind.skip_everyone": "Pular Todos",
        "kind.wild_draw_two": "Coringa +2",
        "kind.wild_draw_color": "Coringa Comprar Cor",
        "kind.draw_four": "Comprar Quatro",
        "kind.discard_all": "Descartar Tudo",
        "kind.wild_reverse_draw_four": "Coringa Inverter +4",
        "kind.wild_draw_six": "Coringa +6",
        "kind.wild_draw_ten": "Coringa +10",
        "kind.wild_color_roulette": "Coringa Roleta de Cores",
    },
}
"""Colours, card kinds and how a card's name is put together (a number after its colour in
English, before it in Italian and Portuguese)."""


# -- what happened (one sentence per event) ------------------------------------------------------

SENTENCES: dict[str, dict[str, str]] = {
    "en": {
        "ev.dealer_draw": "Drawing for dealer: {draws}.",
        "ev.dealer_draw_again": "Drawing for dealer again, among the tied: {draws}.",
        "ev.round_started": "Round {round}: {dealer} deals.",
        "ev.first_card": "The first card is {card}.",
        "ev.played": "{name} plays {card}.",
        "ev.played_color": "{name} plays {card} and chooses {color}.",
        "ev.drew": "{name} draws {count}.",
        "ev.drew_why": "{name} draws {count} ({why}).",
        "why.penalty_uno": "UNO penalty",
        "why.penalty_challenge": "challenge",
        "why.penalty_moderation": "penalty",
        "why.penalty_buzzer": "buzzer",
        "why.stack": "the pending draw",
        "ev.you_got": "You got: {cards}.",
        "ev.may_play_drawn": "You may play the card you drew, {card}, now.",
        "ev.skipped": "{name} is skipped.",
        "ev.direction_cw": "Play goes clockwise.",
        "ev.direction_ccw": "Play goes counterclockwise.",
        "ev.color_chosen": "{name} chooses {color}.",
        "ev.passed": "{name} passes.",
        "ev.cannot_draw": "{name} cannot draw: every card is in a hand.",
        "ev.reshuffled": "The discard pile is shuffled into a new draw pile.",
        "ev.reshuffled_first": "The {card} goes back into the deck, which is shuffled.",
        "ev.uno_called": "{name} calls UNO!",
        "ev.uno_caught": "{catcher} catches {target} without UNO: {target} draws {count}.",
        "ev.uno_auto": "{target} did not call UNO and draws {count}.",
        "ev.false_catch": "{catcher} wrongly catches {target} and draws {count}.",
        "ev.challenged_guilty": "{challenger} challenges the {card}: {target} was bluffing!",
        "ev.challenged_innocent": "{challenger} challenges the {card}: {target} played it fairly.",
        "ev.reveal": "{target}'s hand was: {cards}.",
        "ev.reveal_empty": "{target}'s hand was empty.",
        "ev.penalized": "The table owner penalizes {name}: {count} cards.",
        "ev.penalized_one": "The table owner penalizes {name}: 1 card.",
        "ev.expired": "{name} ran out of time.",
        "ev.round_ended": "{name} wins the round. Scores: {scores}.",
        "ev.round_ended_points": "{name} wins the round (+{points} points). Scores: {scores}.",
        "ev.round_abandoned": "The round was abandoned.",
        "ev.match_ended": "{name} wins the match with {points} points!",
        "ev.match_ended_team": "{names} win the match with {points} points!",
        "ev.names_color": "{name} names the colour.",
        "ev.may_challenge": "{name} may challenge the {card}.",
        "ev.may_challenge_amount": "{name} may challenge the {card} or take {count}.",
        "ev.must_answer": "{count} cards on {name}: answer with a draw card or take them.",
        "ev.picks_target": "{name} picks whom to swap hands with.",
        "ev.buzzer_race": "{name}'s Buzzer: everyone still in presses B.",
        "ev.roulette": "{name} names the colour for the {card}.",
        "log.header": "unonet {version}: a match of {count} bots ({policy}), rules {rules}",
        "log.seed": "seed {seed} (replay with --seed)",
        "log.seats": "Seats: {seats}",
        "log.over": "Match over after {count} rounds: {name} wins.",
        "log.over_one": "Match over after 1 round: {name} wins.",
        "log.over_partners": "Match over after {count} rounds: {name} and {partner} (partners) "
                             "win.",
        "log.over_partners_one": "Match over after 1 round: {name} and {partner} (partners) win.",
        "host.join_with": "Friends join with: {command}",
        "host.join_or": "{line} (or at {addresses})",
        "host.join_internet": "Friends on the internet join with: {command} (friends on your "
                              "own network: at {addresses})",
        "ev.roulette_turned": "{name} names {color} and keeps the {count} cards turned up: "
                              "{cards}.",
        "ev.roulette_turned_one": "{name} names {color} and keeps the card turned up: {cards}.",
        "ev.cards_discarded": "{name} also discards {cards}.",
        "ev.draw_cancelled": "{name} cancels the {count} cards pending: nobody draws them.",
        "ev.stacked": "{name} answers the draw: {count} cards are now pending.",
        "ev.deflected": "{name} passes the {count} cards on to {target}.",
        "ev.jumped_in": "{name} jumps in!",
        "ev.run_goes_on": "{name} goes on with the run.",
        "ev.jump_in_refused": "{name} tried to play {card} out of turn: refused, "
                              "{points} penalty points.",
        "ev.hands_swapped": "{name} swaps hands with {target}.",
        "ev.hands_passed": "Every hand passes to the next player.",
        "ev.hand_moved": "{name}'s hand goes to {target}.",
        "ev.buzzer_opened": "Buzzer race: {names} press B, the slowest draws.",
        "ev.buzzed": "{name} presses B ({place}).",
        "ev.buzzer_lost": "Too slow on the buzzer: {names}.",
        "ev.buzzer_nobody": "Everyone pressed B in time.",
        "ev.knocked_out": "{name} holds {count} cards and is out of the round "
                          "({points} penalty points).",
        "ev.cards_returned": "{name}'s {count} cards go face down under the draw pile.",
        "ev.cards_returned_one": "{name}'s card goes face down under the draw pile.",
        "ev.stalemate": "Stalemate: nobody can play or draw. {name} holds the fewest points "
                        "and wins the round.",
        "ev.eliminated": "{name} reaches {points} points and is out of the match.",
        "ev.flipped": "{name} flips the table: the {side} side is in play, {card} on top.",
        "ev.may_challenge_until": "{name} may challenge the {card} or draw until a card is "
                                  "{color}.",
        "ev.must_answer_until": "{card} on {name}: answer it or draw until a card is {color}.",
    },
    "it": {
        "ev.dealer_draw": "Sorteggio del mazziere: {draws}.",
        "ev.dealer_draw_again": "Nuovo sorteggio tra i pari: {draws}.",
        "ev.round_started": "Manche {round}: distribuisce {dealer}.",
        "ev.first_card": "La prima carta è {card}.",
        "ev.played": "{name} gioca {card}.",
        "ev.played_color": "{name} gioca {card}: Cambio colore, {color}.",
        "ev.drew": "{name} pesca {count}.",
        "ev.drew_why": "{name} pesca {count} ({why}).",
        "why.penalty_uno": "penalità UNO",
        "why.penalty_challenge": "accusa",
        "why.penalty_moderation": "penalità",
        "why.penalty_buzzer": "buzzer",
        "why.stack": "le carte accumulate",
        "ev.you_got": "Hai ricevuto: {cards}.",
        "ev.may_play_drawn": "Puoi giocare subito la carta pescata, {card}.",
        "ev.skipped": "{name} salta il turno.",
        "ev.direction_cw": "Il gioco procede in senso orario.",
        "ev.direction_ccw": "Il gioco procede in senso antiorario.",
        "ev.color_chosen": "{name} sceglie {color}.",
        "ev.passed": "{name} passa.",
        "ev.cannot_draw": "{name} non può pescare: tutte le carte sono in mano.",
        "ev.reshuffled": "Gli scarti vengono rimescolati nel mazzo pesca.",
        "ev.reshuffled_first": "Il {card} torna nel mazzo, che viene rimescolato.",
        "ev.uno_called": "{name} dice UNO!",
        "ev.uno_caught": "{catcher} coglie {target} senza UNO: {target} pesca {count}.",
        "ev.uno_auto": "{target} non ha detto UNO e pesca {count}.",
        "ev.false_catch": "{catcher} accusa {target} a torto e pesca {count}.",
        "ev.challenged_guilty": "{challenger} contesta il {card}: {target} bluffava!",
        "ev.challenged_innocent": "{challenger} contesta il {card}: {target} era in regola.",
        "ev.reveal": "La mano di {target} era: {cards}.",
        "ev.reveal_empty": "La mano di {target} era vuota.",
        "ev.penalized": "Il padrone del tavolo penalizza {name}: {count} carte.",
        "ev.penalized_one": "Il padrone del tavolo penalizza {name}: 1 carta.",
        "ev.expired": "{name} ha esaurito il tempo.",
        "ev.round_ended": "{name} vince la manche. Punteggi: {scores}.",
        "ev.round_ended_points": "{name} vince la manche (+{points} punti). Punteggi: {scores}.",
        "ev.round_abandoned": "La manche è stata abbandonata.",
        "ev.match_ended": "{name} vince la partita con {points} punti!",
        "ev.match_ended_team": "{names} vincono la partita con {points} punti!",
        "ev.names_color": "{name} sceglie il colore.",
        "ev.may_challenge": "{name} può contestare il {card}.",
        "ev.may_challenge_amount": "{name} può contestare il {card} o pescare {count}.",
        "ev.must_answer": "{count} carte per {name}: risponde con un'altra carta Più o le pesca.",
        "ev.picks_target": "{name} sceglie con chi scambiare la mano.",
        "ev.buzzer_race": "Buzzer di {name}: tutti quelli in gioco premono B.",
        "ev.roulette": "{name} sceglie il colore per la {card}.",
        "log.header": "unonet {version}: una partita di {count} bot ({policy}), regole {rules}",
        "log.seed": "seme {seed} (per rigiocarla: --seed)",
        "log.seats": "Posti: {seats}",
        "log.over": "Partita finita dopo {count} manche: vince {name}.",
        "log.over_one": "Partita finita dopo 1 manche: vince {name}.",
        "log.over_partners": "Partita finita dopo {count} manche: vincono {name} e {partner} "
                             "(in coppia).",
        "log.over_partners_one": "Partita finita dopo 1 manche: vincono {name} e {partner} "
                                 "(in coppia).",
        "host.join_with": "Gli amici entrano con: {command}",
        "host.join_or": "{line} (o a {addresses})",
        "host.join_internet": "Gli amici su internet entrano con: {command} (quelli della tua "
                              "rete: a {addresses})",
        "ev.roulette_turned": "{name} sceglie {color} e si tiene le {count} carte scoperte: "
                              "{cards}.",
        "ev.roulette_turned_one": "{name} sceglie {color} e si tiene la carta scoperta: {cards}.",
        "ev.cards_discarded": "{name} scarta anche {cards}.",
        "ev.draw_cancelled": "{name} annulla le {count} carte da pescare: nessuno le pesca.",
        "ev.stacked": "{name} risponde: ora le carte da pescare sono {count}.",
        "ev.deflected": "{name} passa le {count} carte a {target}.",
        "ev.jumped_in": "{name} intercetta!",
        "ev.run_goes_on": "{name} continua la scala.",
        "ev.jump_in_refused": "{name} tenta di intercettare con {card}: non vale, "
                              "{points} punti di penalità.",
        "ev.hands_swapped": "{name} scambia la mano con {target}.",
        "ev.hands_passed": "Ogni mano passa al giocatore successivo.",
        "ev.hand_moved": "La mano di {name} passa a {target}.",
        "ev.buzzer_opened": "Gara del buzzer: {names} premono B, il più lento pesca.",
        "ev.buzzed": "{name} preme B ({place}).",
        "ev.buzzer_lost": "Gara del buzzer persa da: {names}.",
        "ev.buzzer_nobody": "Tutti hanno premuto B in tempo.",
        "ev.knocked_out": "{name} ha {count} carte ed è eliminato dalla manche "
                          "({points} punti di penalità).",
        "ev.cards_returned": "Le {count} carte di {name} vanno coperte sotto il mazzo.",
        "ev.cards_returned_one": "La carta di {name} va coperta sotto il mazzo.",
        "ev.stalemate": "Stallo: nessuno può giocare né pescare. {name} ha meno punti in mano "
                        "e vince la manche.",
        "ev.eliminated": "{name} raggiunge {points} punti ed è eliminato dalla partita.",
        "ev.flipped": "{name} gira il tavolo: si gioca sul lato {side}, in cima {card}.",
        "ev.may_challenge_until": "{name} può contestare il {card} o pescare finché non esce "
                                  "una carta {color}.",
        "ev.must_answer_until": "{card} su {name}: risponde o pesca finché non esce una carta "
                                "{color}.",
    },
    "pt": {
        "ev.dealer_draw": "Sorteio de quem dá as cartas: {draws}.",
        "ev.dealer_draw_again": "Novo sorteio entre os empatados: {draws}.",
        "ev.round_started": "Rodada {round}: {dealer} dá as cartas.",
        "ev.first_card": "A primeira carta é {card}.",
        "ev.played": "{name} joga {card}.",
        "ev.played_color": "{name} joga {card} e escolhe {color}.",
        "ev.drew": "{name} compra {count}.",
        "ev.drew_why": "{name} compra {count} ({why}).",
        "why.penalty_uno": "penalidade do UNO",
        "why.penalty_challenge": "desafio",
        "why.penalty_moderation": "penalidade",
        "why.penalty_buzzer": "buzzer",
        "why.stack": "as cartas acumuladas",
        "ev.you_got": "Você recebeu: {cards}.",
        "ev.may_play_drawn": "Você pode jogar agora a carta comprada, {card}.",
        "ev.skipped": "{name} perde a vez.",
        "ev.direction_cw": "O jogo segue no sentido horário.",
        "ev.direction_ccw": "O jogo segue no sentido anti-horário.",
        "ev.color_chosen": "{name} escolhe {color}.",
        "ev.passed": "{name} passa a vez.",
        "ev.cannot_draw": "{name} não pode comprar: todas as cartas estão nas mãos.",
        "ev.reshuffled": "As cartas jogadas são embaralhadas numa nova pilha.",
        "ev.reshuffled_first": "O {card} volta ao baralho, que é embaralhado.",
        "ev.uno_called": "{name} diz UNO!",
        "ev.uno_caught": "{catcher} pega {target} sem UNO: {target} compra {count}.",
        "ev.uno_auto": "{target} não disse UNO e compra {count}.",
        "ev.false_catch": "{catcher} acusa {target} sem razão e compra {count}.",
        "ev.challenged_guilty": "{challenger} desafia o {card}: {target} blefava!",
        "ev.challenged_innocent": "{challenger} desafia o {card}: {target} jogou certo.",
        "ev.reveal": "A mão de {target} era: {cards}.",
        "ev.reveal_empty": "A mão de {target} estava vazia.",
        "ev.penalized": "O dono da mesa penaliza {name}: {count} cartas.",
        "ev.penalized_one": "O dono da mesa penaliza {name}: 1 carta.",
        "ev.expired": "O tempo de {name} acabou.",
        "ev.round_ended": "{name} vence a rodada. Placar: {scores}.",
        "ev.round_ended_points": "{name} vence a rodada (+{points} pontos). Placar: {scores}.",
        "ev.round_abandoned": "A rodada foi abandonada.",
        "ev.match_ended": "{name} vence a partida com {points} pontos!",
        "ev.match_ended_team": "{names} vencem a partida com {points} pontos!",
        "ev.names_color": "{name} escolhe a cor.",
        "ev.may_challenge": "{name} pode desafiar o {card}.",
        "ev.may_challenge_amount": "{name} pode desafiar o {card} ou comprar {count}.",
        "ev.must_answer": "{count} cartas para {name}: responde com uma carta de compra "
                          "ou compra todas.",
        "ev.picks_target": "{name} escolhe com quem trocar de mão.",
        "ev.buzzer_race": "Buzzer de {name}: todos que estão no jogo apertam B.",
        "ev.roulette": "{name} escolhe a cor da {card}.",
        "log.header": "unonet {version}: uma partida de {count} bots ({policy}), regras {rules}",
        "log.seed": "semente {seed} (para repetir: --seed)",
        "log.seats": "Lugares: {seats}",
        "log.over": "Partida encerrada após {count} rodadas: {name} vence.",
        "log.over_one": "Partida encerrada após 1 rodada: {name} vence.",
        "log.over_partners": "Partida encerrada após {count} rodadas: {name} e {partner} "
                             "(parceiros) vencem.",
        "log.over_partners_one": "Partida encerrada após 1 rodada: {name} e {partner} "
                                 "(parceiros) vencem.",
        "host.join_with": "Os amigos entram com: {command}",
        "host.join_or": "{line} (ou em {addresses})",
        "host.join_internet": "Os amigos pela internet entram com: {command} (os da sua "
                              "rede: em {addresses})",
        "ev.roulette_turned": "{name} escolhe {color} e fica com as {count} cartas viradas: "
                              "{cards}.",
        "ev.roulette_turned_one": "{name} escolhe {color} e fica com a carta virada: {cards}.",
        "ev.cards_discarded": "{name} descarta também {cards}.",
        "ev.draw_cancelled": "{name} anula as {count} cartas pendentes: ninguém as compra.",
        "ev.stacked": "{name} responde: agora são {count} cartas para comprar.",
        "ev.deflected": "{name} passa as {count} cartas para {target}.",
        "ev.jumped_in": "{name} joga fora da vez!",
        "ev.run_goes_on": "{name} continua a sequência.",
        "ev.jump_in_refused": "{name} tentou jogar {card} fora da vez: recusado, "
                              "{points} pontos de penalidade.",
        "ev.hands_swapped": "{name} troca de mão com {target}.",
        "ev.hands_passed": "Cada mão passa para o próximo jogador.",
        "ev.hand_moved": "A mão de {name} vai para {target}.",
        "ev.buzzer_opened": "Corrida do buzzer: {names} apertam B, o mais lento compra.",
        "ev.buzzed": "{name} aperta B ({place}).",
        "ev.buzzer_lost": "Corrida do buzzer perdida por: {names}.",
        "ev.buzzer_nobody": "Todos apertaram B a tempo.",
        "ev.knocked_out": "{name} tem {count} cartas e está fora da rodada "
                          "({points} pontos de penalidade).",
        "ev.cards_returned": "As {count} cartas de {name} vão viradas para baixo sob o monte.",
        "ev.cards_returned_one": "A carta de {name} vai virada para baixo sob o monte.",
        "ev.stalemate": "Jogo travado: ninguém pode jogar nem comprar. {name} tem menos pontos "
                        "na mão e vence a rodada.",
        "ev.eliminated": "{name} chega a {points} pontos e está fora da partida.",
        "ev.flipped": "{name} vira a mesa: agora vale o lado {side}, {card} na mesa.",
        "ev.may_challenge_until": "{name} pode desafiar o {card} ou comprar até sair a cor "
                                  "{color}.",
        "ev.must_answer_until": "{card} em {name}: responde ou compra até sair a cor {color}.",
    },
}
"""The narrator's sentences (ev.*) and the reasons a player draws (why.*); a draw caused by a
card is worded with the card's kind instead."""

WORDS: dict[str, dict[str, str]] = {
    lang: {**CARD_WORDS[lang], **SENTENCES[lang]} for lang in LANGUAGES
}


# -- formatting ----------------------------------------------------------------------------------


class Words:
    """Formats the strings of one language; a missing key falls back to English, then the key
    itself (a visible slip rather than a traceback)."""

    catalogues: ClassVar[Mapping[str, Mapping[str, str]]] = WORDS
    """Per language; the client's Translator adds its interface strings to CARD_WORDS."""

    def __init__(self, lang: str = DEFAULT_LANGUAGE) -> None:
        self.lang = lang if lang in self.catalogues else DEFAULT_LANGUAGE
        self.strings = self.catalogues[self.lang]

    def __call__(self, key: str, **values: object) -> str:
        """The string `key` with `values` in it; with count=1, `key`_one where a catalogue
        has it (Italian "1 nuovo", not "1 nuovi")."""
        if values.get("count") == 1 and (f"{key}_one" in self.strings or f"{key}_one"
                                         in self.catalogues[DEFAULT_LANGUAGE]):
            key = f"{key}_one"
        template = self.strings.get(key) or self.catalogues[DEFAULT_LANGUAGE].get(key) or key
        return template.format(**values) if values else template

    def has(self, key: str) -> bool:
        return key in self.strings

    def color(self, color: Color | None) -> str:
        return self(f"color.{color.value}") if color is not None else "?"

    def card(self, face: Face | None) -> str:
        """The card's name in words: 'red 5', '5 rosso', 'Coringa +4'; "?" for a face the
        reader was never told (an UNO Flip dark face: unonet.in_play)."""
        if face is None:
            return "?"
        if face.kind is Kind.NUMBER:
            return self("card.number", color=self.color(face.color), number=face.number)
        kind = self(f"kind.{face.kind.value}")
        if face.color is None:
            return kind
        return self("card.action", color=self.color(face.color), kind=kind)

    def ordinal(self, n: int) -> str:
        """1st, 2nd, 3rd in English; 1º, 2º in Italian and Portuguese."""
        if self.lang != "en":
            return f"{n}º"
        suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
        return f"{n}{suffix}"


def join_sentence(words: Words, command: str, addresses: str | None) -> str:
    """How friends join, from the `join_with` notice's `command` and `addresses` (SPEC.md
    [UNO-8-27]), for the host's line and every client's alike. A command that leads with a
    public address while the others are not (the host's router forwards its port to it) says
    which to send to whom: the public one to friends on the internet, the others to friends on
    the host's own network (a router seldom lets them in by its public address)."""
    if addresses and _public(_command_address(command)) and not any(
            _public(address) for address in addresses.split(", ")):
        return words("host.join_internet", command=command, addresses=addresses)
    line = words("host.join_with", command=command)
    return words("host.join_or", line=line, addresses=addresses) if addresses else line


def _command_address(command: str) -> str:
    """The address of `unonet join ADDRESS:PORT ...` ("" if the command has none)."""
    words = command.split()
    if len(words) < 3:
        return ""
    where = words[2]
    if where.startswith("["):  # [IPv6]:port
        return where[1:].partition("]")[0]
    return where.rpartition(":")[0] if where.count(":") == 1 else where


def _public(address: str) -> bool:
    try:
        return ipaddress.ip_address(address.strip()).is_global
    except ValueError:
        return False


def game_words(lang: str) -> Words:
    """Card names and event sentences of `lang` (English if unknown), built once each."""
    return _BY_LANGUAGE.get(lang) or _BY_LANGUAGE[DEFAULT_LANGUAGE]


_BY_LANGUAGE: dict[str, Words] = {lang: Words(lang) for lang in LANGUAGES}
