"""The rulebook's words for UNO Flip and No Mercy, where the classic words would be untrue.

unonet/rulebook_text.py words every option and choice with the classic deck's cards (a Draw Two,
a Wild Draw Four, a Buzzer, a 0). Printed for a variant, such a sentence must speak of the
variant's own cards (Flip: Draw One, Draw Five, Wild Draw Two, Wild Draw Color; No Mercy: Draw
Two to Wild Draw Ten), or not be printed at all when it concerns nothing the variant has (No
Mercy has no challenge, and its piles never run dry: RULEBOOK.md section 4). The lobby's rule
editor reads the same words: an option's title, its value and the explanation under the cursor,
which on a variant's table also says what the variant fixes (Flip's own colours, the Mercy
rule). Data only: unonet/rulebook.py reads it; anything not listed here reads as in
rulebook_text.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from unonet.no_mercy_deck import MERCY_LIMIT
from unonet.rulebook_text import CHOICES, ChoicePart, Text
from unonet.rules import RuleSet

__all__ = [
    "BASIS",
    "CHOICE_LEADS",
    "CHOICE_PARTS",
    "CHOICE_TITLES",
    "INERT_WORDS",
    "MEANINGS",
    "OPTION_TITLES",
    "STATEMENTS",
    "VALUES",
]

N = "n"  # rulebook_text.ANY_NUMBER: the statement of every whole number

BASIS: dict[str, Text] = {
    "flip": Text(
        "UNO Flip's rules: the official UNO rules, played with double-sided cards. Match the top "
        "card by colour, number or symbol on the side in play, or play a Wild; otherwise draw. "
        "A Flip turns every card over. Call UNO as you play your next-to-last card. The first "
        "player to empty their hand wins the round. RULEBOOK.md sections 1 and 3 have them in "
        "full; the options below shape them.",
        "Le regole di UNO Flip: le regole ufficiali di UNO, giocate con carte a due facce. Si "
        "gioca una carta dello stesso colore, numero o simbolo di quella in cima agli scarti, "
        "sul lato in gioco, oppure un Jolly; altrimenti si pesca. Un Flip gira tutte le carte. "
        "Si dice UNO giocando la penultima carta. Chi resta per primo senza carte vince la "
        "manche. Il testo completo è nelle sezioni 1 e 3 di RULEBOOK.md; le opzioni qui sotto "
        "le precisano.",
        "As regras do UNO Flip: as regras oficiais do UNO, jogadas com cartas de duas faces. "
        "Joga-se uma carta da mesma cor, número ou símbolo da que está no topo do descarte, no "
        "lado em jogo, ou um Coringa; senão, compra-se. Um Flip vira todas as cartas. Diz-se "
        "UNO ao jogar a penúltima carta. Quem fica primeiro sem cartas vence a rodada. O texto "
        "completo está nas seções 1 e 3 do RULEBOOK.md; as opções abaixo as definem.",
    ),
    "no_mercy": Text(
        "UNO Show 'Em No Mercy's rules, as Mattel plays them unless an option below says "
        "otherwise: match the top card by colour, number or symbol, or play a wild card; "
        "without one, draw until a card plays and play it. Draw cards stack, each "
        "worth at least the last; a player holding 25 cards is out of the round (the Mercy "
        "rule). Call UNO as you play your next-to-last card. The first player to empty their "
        "hand, or the last one left, wins the round. RULEBOOK.md section 4 has them in full; "
        "the options below shape them.",
        "Le regole di UNO Senza pietà, come le gioca Mattel salvo dove un'opzione qui sotto "
        "dice altro: si gioca una carta dello stesso colore, numero o simbolo di quella in "
        "cima agli scarti, oppure una carta jolly; senza, si pesca finché non esce "
        "una carta giocabile e la si gioca. Alle carte Più si risponde con carte che valgano "
        "almeno quanto l'ultima; chi arriva a 25 carte è fuori dalla manche (la regola della "
        "pietà). Si dice UNO giocando la penultima carta. Chi resta per primo senza carte, o "
        "l'ultimo rimasto, vince la manche. Il testo completo è nella sezione 4 di RULEBOOK.md; "
        "le opzioni qui sotto le precisano.",
        "As regras do UNO Sem Piedade, como a Mattel as joga salvo onde uma opção abaixo diz "
        "outra coisa: joga-se uma carta da mesma cor, número ou símbolo da que está no topo do "
        "descarte, ou uma carta coringa; sem ela, compra-se até sair uma carta "
        "jogável, e joga-se. Cartas de compra se acumulam, cada uma valendo pelo menos tanto "
        "quanto a última; quem chega a 25 cartas sai da rodada (a regra da misericórdia). "
        "Diz-se UNO ao jogar a penúltima carta. Quem fica primeiro sem cartas, ou o último que "
        "resta, vence a rodada. O texto completo está na seção 4 do RULEBOOK.md; as opções "
        "abaixo as definem.",
    ),
}
"""What the rule set builds on, said before its options in place of the classic summary."""

_FLIP_WILD_DRAWS = Text("Wild Draw Two, Wild Draw Color", "Jolly +2 e Jolly pesca colore",
                        "Coringa +2 e Coringa Comprar Cor")  # 32 columns at most: the editor's
_NO_MIXING = Text("Wild and coloured draw cards never answer each other.",
                  "Carte Più jolly e colorate non si rispondono mai a vicenda.",
                  "Cartas de compra coringa e coloridas nunca respondem umas às outras.")

OPTION_TITLES: dict[str, dict[str, Text]] = {
    "flip": {
        "stacking": Text("Stacking draw cards", "Risposte alle carte Più",
                         "Acumular cartas de compra"),
        "wd4_policy": _FLIP_WILD_DRAWS,
        "seven_zero": Text("Seven swaps", "Regola del 7", "Sete troca"),
    },
    "no_mercy": {
        "stacking": Text("Stacking draw cards", "Risposte alle carte Più",
                         "Acumular cartas de compra"),
        "wd4_policy": Text("Wild cards", "Carte jolly", "Cartas coringa"),
    },
}
"""Per variant, an option's title in the variant's card names (Flip has no Wild Draw Four; No
Mercy has +6 and +10 too, and no card to challenge)."""

_OWN_DECK = Text("This game's deck is its own: no cards can be added to it.",
                 "Il mazzo di questo gioco è il suo: non gli si aggiungono carte.",
                 "O baralho deste jogo é só o seu: não se acrescentam cartas a ele.")

MEANINGS: dict[str, dict[str, Text]] = {
    "flip": {
        "decks": Text("UNO Flip plays its one deck of 112 double-sided cards, never more.",
                      "UNO Flip si gioca con il suo unico mazzo di 112 carte a due facce.",
                      "O UNO Flip usa só o seu baralho de 112 cartas de dois lados."),
        "colors": Text("UNO Flip has its own colours, four a side: red, yellow, green and blue on "
                       "the light side; orange, purple, pink and cyan on the dark one.",
                       "UNO Flip ha i suoi colori, quattro per lato: rosso, giallo, verde e blu "
                       "sul lato chiaro; arancione, viola, rosa e ciano su quello scuro.",
                       "O UNO Flip tem as suas cores, quatro por lado: vermelho, amarelo, verde "
                       "e azul no lado claro; laranja, roxo, rosa e ciano no escuro."),
        "stacking": Text("A player facing a Draw One, Draw Five or Wild Draw Two may answer with "
                         "another draw card; the next player takes the sum.",
                         "Chi deve pescare per un +1, un +5 o un Jolly +2 può rispondere con "
                         "un'altra carta Più; il giocatore seguente prende la somma.",
                         "Quem deve comprar por um Comprar Uma, Comprar Cinco ou Coringa +2 "
                         "pode responder com outra carta de compra; o próximo compra a soma."),
        "stack_mix_wild": Text("Whether a Wild Draw Two may answer a Draw One in a stack (a "
                               "Draw One is never worth a Wild Draw Two).",
                               "Se un Jolly +2 può rispondere a un +1 in una catena (un +1 non "
                               "vale mai un Jolly +2).",
                               "Se um Coringa +2 pode responder a um Comprar Uma ao acumular "
                               "(um Comprar Uma nunca vale um Coringa +2)."),
        "deflect": Text("A Skip or Reverse passes a pending draw on to another player instead "
                        "of taking it (a Skip Everyone does not).",
                        "Un Salta o un Inverti passa l'obbligo di pescare a un altro giocatore "
                        "(un Salta tutti no).",
                        "Um Pular ou Inverter passa a compra pendente para outro jogador (um "
                        "Pular Todos não)."),
        "wd4_policy": Text("How a Wild Draw Two or Wild Draw Color played holding the colour in "
                           "play is treated: a bluff open to challenge, refused, or allowed.",
                           "Come si trattano il Jolly +2 e il Jolly pesca colore giocati avendo "
                           "il colore in gioco: bluff contestabile, vietati o liberi.",
                           "Como se tratam o Coringa +2 e o Coringa Comprar Cor jogados por "
                           "quem tem a cor em jogo: blefe desafiável, proibidos ou livres."),
        "challenge_guilty_extra": Text("Extra cards a bluffer caught by a challenge draws on "
                                       "top of the 2, or of the cards drawn until the colour.",
                                       "Carte in più, oltre alle 2 o a quelle pescate fino al "
                                       "colore, per chi è scoperto a bluffare.",
                                       "Cartas a mais, além das 2 ou das compradas até a cor, "
                                       "para quem é pego blefando."),
        "seven_zero": Text("A 7 swaps hands with a player of one's choice; the Flip deck has no "
                           "zeros.",
                           "Il 7 scambia la mano con un giocatore a scelta; il mazzo di Flip non "
                           "ha zeri.",
                           "O 7 troca a mão com um jogador à escolha; o baralho do Flip não tem "
                           "zeros."),
        "buzzers": _OWN_DECK,
    },
    "no_mercy": {
        "decks": Text("No Mercy plays its one deck of 168 cards, never more.",
                      "UNO Senza pietà si gioca con il suo unico mazzo di 168 carte.",
                      "O UNO Sem Piedade usa só o seu baralho de 168 cartas."),
        "colors": Text("No Mercy's deck has its four colours: red, yellow, green and blue.",
                       "Il mazzo di UNO Senza pietà ha i suoi quattro colori: rosso, giallo, "
                       "verde e blu.",
                       "O baralho do UNO Sem Piedade tem as suas quatro cores: vermelho, "
                       "amarelo, verde e azul."),
        "max_players": Text("The most seats a table may have: 6 at most in No Mercy.",
                            "Il numero massimo di posti al tavolo: al più 6 in UNO Senza pietà.",
                            "O número máximo de lugares na mesa: no máximo 6 no UNO Sem "
                            "Piedade."),
        "draw_when_playable": Text("Whether a player may draw while holding a playable card: "
                                   "never in No Mercy.",
                                   "Se si può pescare avendo una carta giocabile: mai in UNO "
                                   "Senza pietà.",
                                   "Se o jogador pode comprar tendo uma carta jogável: nunca no "
                                   "UNO Sem Piedade."),
        "play_after_draw": Text("Whether the card just drawn may be played in the same turn: in "
                                "No Mercy it always is.",
                                "Se la carta appena pescata si può giocare nello stesso turno: "
                                "in UNO Senza pietà si gioca sempre.",
                                "Se a carta recém-comprada pode ser jogada na mesma vez: no UNO "
                                "Sem Piedade, sempre é."),
        "draw_until_playable": Text("Drawing goes on until a playable card comes, which must "
                                    "then be played: on in Mattel's No Mercy.",
                                    "Si pesca finché non arriva una carta giocabile, che poi va "
                                    "giocata: attiva in UNO Senza pietà di Mattel.",
                                    "Compra-se até sair uma carta jogável, que então deve ser "
                                    "jogada: ativa no UNO Sem Piedade da Mattel."),
        "stacking": Text("A player facing a draw card answers with one worth at least as much "
                         "(+2, +4, +6, +10) or takes the sum: Mattel's rule.",
                         "Chi deve pescare risponde con una carta Più che valga almeno "
                         "altrettanto (+2, +4, +6, +10) o prende la somma: regola di Mattel.",
                         "Quem deve comprar responde com uma carta de compra de valor igual ou "
                         "maior (+2, +4, +6, +10) ou compra a soma: regra da Mattel."),
        "stack_mix_wild": Text("Whether a wild draw card may answer a coloured one, and the "
                               "other way round.",
                               "Se una carta Più jolly può rispondere a una colorata e "
                               "viceversa.",
                               "Se uma carta de compra coringa pode responder a uma colorida e "
                               "vice-versa."),
        "deflect": Text("A Skip or Reverse passes a pending draw on to another player; a Discard "
                        "All or Skip Everyone cancels it.",
                        "Un Salta o un Inverti passa l'obbligo di pescare a un altro giocatore; "
                        "un Getta tutto o un Salta tutti lo annulla.",
                        "Um Pular ou Inverter passa a compra pendente para outro jogador; um "
                        "Descartar Tudo ou Pular Todos a cancela."),
        "wd4_policy": Text("No Mercy has no bluff to catch: a wild card may always be played.",
                           "In UNO Senza pietà non c'è bluff da scoprire: una carta jolly si può "
                           "sempre giocare.",
                           "No UNO Sem Piedade não há blefe a descobrir: uma carta coringa "
                           "sempre pode ser jogada."),
        "challenge_guilty_extra": Text("No effect in No Mercy: there is no bluff to catch.",
                                       "Nessun effetto in UNO Senza pietà: non c'è bluff da "
                                       "scoprire.",
                                       "Sem efeito no UNO Sem Piedade: não há blefe a "
                                       "descobrir."),
        "challenge_by": Text("No effect in No Mercy: there is no bluff to catch.",
                             "Nessun effetto in UNO Senza pietà: non c'è bluff da scoprire.",
                             "Sem efeito no UNO Sem Piedade: não há blefe a descobrir."),
        "action_finish": Text("Whether the last card may be an action card or a wild: in No "
                              "Mercy any card may.",
                              "Se l'ultima carta può essere una carta Azione o jolly: in UNO "
                              "Senza pietà può esserlo qualsiasi carta.",
                              "Se a última carta pode ser uma carta especial ou coringa: no UNO "
                              "Sem Piedade, qualquer carta pode."),
        "seven_zero": Text("A 0 passes every hand on in the direction of play; a 7 swaps hands "
                           "with a player of one's choice: on in Mattel's No Mercy.",
                           "Lo 0 fa passare tutte le mani nel senso del gioco; il 7 scambia la "
                           "mano con un giocatore a scelta: attiva in UNO Senza pietà di Mattel.",
                           "O 0 passa todas as mãos no sentido do jogo; o 7 troca a mão com um "
                           "jogador à escolha: ativa no UNO Sem Piedade da Mattel."),
        "buzzers": _OWN_DECK,
        "max_hand": Text("The Mercy rule: a player holding this many cards is out for the round "
                         "(25 in Mattel's No Mercy).",
                         "La regola della pietà: chi arriva a questo numero di carte è "
                         "eliminato per la manche (25 in UNO Senza pietà di Mattel).",
                         "A regra da misericórdia: quem chega a esse número de cartas sai da "
                         "rodada (25 no UNO Sem Piedade da Mattel)."),
        "max_hand_penalty": Text("Points a player knocked out by the Mercy rule counts in "
                                 "place of their hand: always 250 in No Mercy.",
                                 "Punti che conta chi è eliminato dalla regola della pietà, al "
                                 "posto della sua mano: sempre 250 in UNO Senza pietà.",
                                 "Pontos que conta quem sai pela regra da misericórdia, no "
                                 "lugar da sua mão: sempre 250 no UNO Sem Piedade."),
        "flip_passes_hands": Text("Only in UNO Flip, where turning the cards over also passes "
                                  "every hand on (seed 003).",
                                  "Solo in UNO Flip, dove girare le carte fa anche passare "
                                  "tutte le mani (seed 003).",
                                  "Só no UNO Flip, onde virar as cartas também passa todas as "
                                  "mãos (seed 003)."),
    },
}
"""Per variant, an option's one-line meaning (the lobby editor's note under its cursor) where
the classic words name cards the variant lacks or the variant fixes the option itself."""

VALUES: dict[str, dict[str, dict[Any, Text]]] = {
    "flip": {
        "wd4_policy": {
            "challenge": Text("may be challenged", "si possono contestare", "podem ser desafiados"),
            "free": Text("free", "liberi", "livres"),
        },
    },
    "no_mercy": {
        "wd4_policy": {
            "challenge": Text("always playable", "sempre giocabili", "sempre jogáveis"),
        },
    },
}
"""Per variant, option and value: the value in words where the variant's title needs other
words (Flip's two wild draw cards take a plural; No Mercy has nothing to challenge)."""

STATEMENTS: dict[str, dict[str, dict[Any, Text]]] = {
    "flip": {
        "stacking": {
            "off": Text("A Draw One, Draw Five, Wild Draw Two or Wild Draw Color cannot be "
                        "answered: the next player draws and loses the turn.",
                        "A un +1, un +5, un Jolly +2 o un Jolly pesca colore non si risponde: "
                        "il giocatore seguente pesca e salta il turno.",
                        "Um Comprar Uma, Comprar Cinco, Coringa +2 ou Coringa Comprar Cor não "
                        "admite resposta: o próximo jogador compra e perde a vez."),
            "same_kind": Text("A Draw One may answer a Draw One, a Draw Five a Draw Five and a "
                              "Wild Draw Two a Wild Draw Two (a Wild Draw Color never); whoever "
                              "does not answer takes the whole sum and loses the turn.",
                              "Si risponde a un +1 con un +1, a un +5 con un +5 e a un Jolly +2 "
                              "con un Jolly +2 (mai a un Jolly pesca colore); chi non risponde "
                              "prende tutta la somma e salta il turno.",
                              "Responde-se a um Comprar Uma com um Comprar Uma, a um Comprar "
                              "Cinco com um Comprar Cinco e a um Coringa +2 com um Coringa +2 "
                              "(nunca a um Coringa Comprar Cor); quem não responde compra a "
                              "soma toda e perde a vez."),
            "escalating": Text("Any draw card worth at least as much as the last one may "
                               "answer it (never a Draw One on a Wild Draw Two; a Wild Draw "
                               "Color never stacks); whoever does not answer takes the whole "
                               "sum and loses the turn.",
                               "Si risponde con una carta Più che valga almeno quanto l'ultima "
                               "(mai un +1 su un Jolly +2; il Jolly pesca colore non entra mai "
                               "in una catena); chi non risponde prende tutta la somma e salta "
                               "il turno.",
                               "Responde-se com uma carta de compra que valha pelo menos tanto "
                               "quanto a última (nunca um Comprar Uma sobre um Coringa +2; o "
                               "Coringa Comprar Cor nunca se acumula); quem não responde compra "
                               "a soma toda e perde a vez."),
        },
        "stack_mix_wild": {
            True: Text("When stacking allows the values, a Wild Draw Two may answer a Draw "
                       "One.",
                       "Se le risposte lo permettono, un Jolly +2 può rispondere a un +1.",
                       "Se o acúmulo permitir, um Coringa +2 pode responder a um Comprar Uma."),
            False: _NO_MIXING,
        },
        "deflect": {
            True: Text("A Skip of any colour passes a pending draw on and a Reverse sends it the "
                       "other way (a Skip Everyone does not); a draw card played as the last "
                       "card ends the round only once the draw is taken.",
                       "Un Salta di qualsiasi colore passa avanti l'obbligo di pescare e un "
                       "Inverti lo rimanda indietro (un Salta tutti no); se l'ultima carta è "
                       "una carta Più, la manche finisce solo quando le carte sono state "
                       "pescate.",
                       "Um Pular de qualquer cor passa adiante a compra pendente e um Inverter "
                       "a devolve (um Pular Todos não); se a última carta for de compra, a "
                       "rodada só acaba depois que as cartas forem compradas."),
        },
        "jump_in": {
            "identical": Text("Anyone holding a card identical to the top card (same colour "
                              "and face; never a Wild Draw Two or Wild Draw Color) may play it "
                              "out of turn before the current player draws; play goes on from "
                              "them.",
                              "Chi ha una carta identica a quella in cima (stesso colore e "
                              "stesso numero o simbolo; mai un Jolly +2 o un Jolly pesca "
                              "colore) può giocarla fuori turno prima che il giocatore di turno "
                              "peschi; il gioco riprende da lui.",
                              "Quem tiver uma carta idêntica à do topo (mesma cor e mesmo "
                              "número ou símbolo; nunca um Coringa +2 ou Coringa Comprar Cor) "
                              "pode jogá-la fora da vez antes que o jogador da vez compre; o "
                              "jogo segue a partir dele."),
            "same_face": Text("Anyone holding a card of the same number or symbol as the top "
                              "card, in any colour (Wild Draw Two and Wild Draw Color "
                              "included), may play it out of turn before the current player "
                              "draws; play goes on from them.",
                              "Super intercettazioni: chi ha una carta con lo stesso numero o "
                              "simbolo di quella in cima, di qualsiasi colore (Jolly +2 e Jolly "
                              "pesca colore compresi), può giocarla fuori turno prima che il "
                              "giocatore di turno peschi; il gioco riprende da lui.",
                              "Quem tiver uma carta com o mesmo número ou símbolo da do topo, "
                              "de qualquer cor (Coringa +2 e Coringa Comprar Cor incluídos), "
                              "pode jogá-la fora da vez antes que o jogador da vez compre; o "
                              "jogo segue a partir dele."),
        },
        "wd4_policy": {
            "challenge": Text("The next player may challenge a Wild Draw Two or Wild Draw Color "
                              "played while holding the colour in play: a caught bluffer draws "
                              "the 2 (or until the colour) plus the extra cards, a wrong "
                              "challenger draws 4 (or until the colour and 2 more).",
                              "Il giocatore seguente può contestare un Jolly +2 o un Jolly "
                              "pesca colore giocato avendo il colore in gioco: chi è scoperto a "
                              "bluffare pesca le 2 carte (o fino al colore) più quelle extra, "
                              "chi contesta a torto ne pesca 4 (o fino al colore e altre 2).",
                              "O próximo jogador pode desafiar um Coringa +2 ou Coringa Comprar "
                              "Cor jogado por quem tinha a cor em jogo: quem é pego blefando "
                              "compra as 2 (ou até a cor) mais as extras, quem desafia sem "
                              "razão compra 4 (ou até a cor e mais 2)."),
            "enforce": Text("A Wild Draw Two or Wild Draw Color is refused while its player "
                            "holds a card of the colour in play; there is nothing to challenge.",
                            "Il Jolly +2 e il Jolly pesca colore sono rifiutati se chi li gioca "
                            "ha una carta del colore in gioco; non c'è niente da contestare.",
                            "O Coringa +2 e o Coringa Comprar Cor são recusados se quem os joga "
                            "tem uma carta da cor em jogo; não há o que desafiar."),
            "free": Text("A Wild Draw Two or Wild Draw Color may always be played and cannot be "
                         "challenged.",
                         "Il Jolly +2 e il Jolly pesca colore si possono sempre giocare e non si "
                         "possono contestare.",
                         "O Coringa +2 e o Coringa Comprar Cor podem ser sempre jogados e não "
                         "podem ser desafiados."),
        },
        "challenge_guilty_extra": {
            0: Text("A caught bluffer draws just the 2, or until the colour.",
                    "Chi è scoperto a bluffare pesca solo le 2 carte, o fino al colore.",
                    "Quem é pego blefando compra só as 2, ou até a cor."),
            N: Text("A caught bluffer draws {v} on top of the 2, or of the cards until the "
                    "colour.",
                    "Chi è scoperto a bluffare pesca {v} oltre alle 2, o alle carte fino al "
                    "colore.",
                    "Quem é pego blefando compra {v} além das 2, ou das cartas até a cor."),
        },
        "seven_zero": {
            True: Text("A 7 swaps its player's hand with that of another player they pick (the "
                       "Flip deck has no zeros).",
                       "Un 7 scambia la mano di chi lo gioca con quella di un giocatore a sua "
                       "scelta (il mazzo di Flip non ha zeri).",
                       "Um 7 troca a mão de quem o joga com a de outro jogador à sua escolha "
                       "(o baralho do Flip não tem zeros)."),
            False: Text("A 7 is a plain number.", "Il 7 è un numero normale.",
                        "O 7 é um número comum."),
        },
    },
    "no_mercy": {
        "stacking": {
            "off": Text("A draw card cannot be answered: the next player draws at once and "
                        "loses the turn (after a Wild Reverse Draw Four, the next one in the new "
                        "direction).",
                        "A una carta Più non si risponde: il giocatore seguente pesca subito e "
                        "salta il turno (dopo un Jolly Inverti +4, il seguente nel nuovo "
                        "senso).",
                        "Uma carta de compra não admite resposta: o próximo jogador compra na "
                        "hora e perde a vez (depois de um Coringa Inverter +4, o próximo no novo "
                        "sentido)."),
        },
        "max_hand": {
            None: Text("No limit on the cards in a hand; seed 003 recommends one with No "
                       "Mercy, whose draw cards may otherwise empty the draw pile and make a "
                       "round run long.",
                       "Nessun limite alle carte in mano; seed 003 lo raccomanda con UNO Senza "
                       "pietà, le cui carte Più possono altrimenti esaurire il mazzo e "
                       "allungare molto la manche.",
                       "Sem limite de cartas na mão; o seed 003 o recomenda com o UNO Sem "
                       "Piedade, cujas cartas de compra podem esgotar o monte e alongar muito "
                       "a rodada."),
        },
        "draw_until_playable": {
            True: Text("A player with no card that plays keeps drawing until one comes, and "
                       "must play it.",
                       "Chi non ha carte da giocare continua a pescare finché non ne trova una "
                       "giocabile, e deve posarla.",
                       "Quem não tem carta para jogar continua comprando até sair uma jogável, "
                       "e deve jogá-la."),
        },
        "challenge_by": {
            value: Text("No effect in No Mercy: there is no bluff to catch.",
                        "Nessun effetto in UNO Senza pietà: non c'è bluff da scoprire.",
                        "Sem efeito no UNO Sem Piedade: não há blefe a descobrir.")
            for value in ("next_player", "anyone")
        },
        "stack_mix_wild": {
            True: Text("A wild draw card may answer a coloured one and a coloured one a wild "
                       "one, when worth at least as much: a Wild Draw Six on a Draw Four, a "
                       "Draw Four on a Wild Reverse Draw Four.",
                       "Una carta Più jolly può rispondere a una colorata e una colorata a una "
                       "jolly, se vale almeno altrettanto: un Cambio colore più 6 su un +4, un "
                       "+4 su un Jolly Inverti +4.",
                       "Uma carta de compra coringa pode responder a uma colorida e uma "
                       "colorida a uma coringa, se valer pelo menos tanto: um Coringa +6 sobre "
                       "um Comprar Quatro, um Comprar Quatro sobre um Coringa Inverter +4."),
            False: _NO_MIXING,
        },
        "deflect": {
            True: Text("A Skip of any colour passes a pending draw on and a Reverse sends it the "
                       "other way; a Discard All or a Skip Everyone cancels it: nobody draws "
                       "it. A draw card played as the last card ends the round only once the "
                       "draw is taken.",
                       "Un Salta di qualsiasi colore passa avanti l'obbligo di pescare e un "
                       "Inverti lo rimanda indietro; un Getta tutto o un Salta tutti lo "
                       "annulla: nessuno pesca. Se l'ultima carta è una carta Più, la manche "
                       "finisce solo quando le carte sono state pescate.",
                       "Um Pular de qualquer cor passa adiante a compra pendente e um Inverter "
                       "a devolve; um Descartar Tudo ou um Pular Todos a cancela: ninguém "
                       "compra. Se a última carta for de compra, a rodada só acaba depois que "
                       "as cartas forem compradas."),
        },
        "jump_in": {
            "identical": Text("Anyone holding a card identical to the top card (same colour "
                              "and face) may play it out of turn before the current player "
                              "draws; play goes on from them.",
                              "Chi ha una carta identica a quella in cima (stesso colore e "
                              "stesso numero o simbolo) può giocarla fuori turno prima che il "
                              "giocatore di turno peschi; il gioco riprende da lui.",
                              "Quem tiver uma carta idêntica à do topo (mesma cor e mesmo "
                              "número ou símbolo) pode jogá-la fora da vez antes que o jogador "
                              "da vez compre; o jogo segue a partir dele."),
            "same_face": Text("Anyone holding a card of the same number or symbol as the top "
                              "card, in any colour (wild cards included), may play it out of "
                              "turn before the current player draws; play goes on from them.",
                              "Super intercettazioni: chi ha una carta con lo stesso numero o "
                              "simbolo di quella in cima, di qualsiasi colore (carte jolly "
                              "comprese), può giocarla fuori turno prima che il giocatore di "
                              "turno peschi; il gioco riprende da lui.",
                              "Quem tiver uma carta com o mesmo número ou símbolo da do topo, "
                              "de qualquer cor (cartas coringa incluídas), pode jogá-la fora da "
                              "vez antes que o jogador da vez compre; o jogo segue a partir "
                              "dele."),
        },
        "think_time": {
            None: Text("No time limit on a turn or on any decision.",
                       "Nessun limite di tempo, né per il turno né per le decisioni.",
                       "Sem limite de tempo, nem por vez nem para decisões."),
        },
    },
}
"""Per variant, option and value: what the value does, in the variant's card names. A value
not listed reads as in rulebook_text (its words are true of the variant)."""

INERT_WORDS: dict[str, dict[str, Text]] = {
    "no_mercy": {
        "challenge_by": Text("No effect in No Mercy: there is no bluff to catch.",
                             "Nessun effetto in UNO Senza pietà: non c'è bluff da scoprire.",
                             "Sem efeito no UNO Sem Piedade: não há blefe a descobrir."),
    },
    "flip": {
        "stack_mix_wild": Text("No effect without stacking.",
                               "Non ha effetto senza le risposte alle carte Più.",
                               "Sem efeito sem acúmulo."),
        "challenge_guilty_extra": Text(
            "No effect: a Wild Draw Two or Wild Draw Color cannot be challenged.",
            "Non ha effetto: il Jolly +2 e il Jolly pesca colore non si possono contestare.",
            "Sem efeito: o Coringa +2 e o Coringa Comprar Cor não podem ser desafiados."),
    },
}
"""Per variant, what an option left without effect says in place of the classic words."""

CHOICE_TITLES: dict[str, dict[int, Text]] = {
    "flip": {
        2: Text("Challenging a stacked Wild Draw Two", "Contestare un Jolly +2 in una catena",
                "Desafiar um Coringa +2 acumulado"),
        8: Text("Seven", "Regola del 7", "Regra do 7"),
    },
}

CHOICE_LEADS: dict[str, dict[int, Text]] = {
    "no_mercy": {
        14: Text("When a player's time to act runs out, the host acts for them:",
                 "Quando il tempo di riflessione di un giocatore scade, l'host agisce al suo "
                 "posto:",
                 "Quando o tempo para agir de um jogador acaba, o host age por ele:"),
    },
}
"""Per variant, a choice's opening words (No Mercy has no decision the host limits itself:
host/game.py limits only a challenge without think_time)."""


def _timed(applies: Callable[[RuleSet], bool]) -> Callable[[RuleSet], bool]:
    """Only with think_time: without it nothing in No Mercy ever times out."""
    return lambda r: r.think_time is not None and applies(r)


def _classic(number: int, index: int) -> ChoicePart:
    return next(c for c in CHOICES if c.number == number).parts[index]


def _timed_part(number: int, index: int) -> ChoicePart:
    part = _classic(number, index)
    return ChoicePart(_timed(part.applies), part.text)


CHOICE_PARTS: dict[str, dict[tuple[int, int], ChoicePart | tuple[ChoicePart, ...] | None]] = {
    "flip": {
        (1, 0): ChoicePart(lambda r: r.stacking != "off", Text(
            "A stacked card needs no colour match. Under same kind, a Draw One answers a Draw "
            "One, a Draw Five a Draw Five and a Wild Draw Two a Wild Draw Two; under "
            "escalating, any draw card worth at least the last one answers it (Draw One 1, Wild "
            "Draw Two 2, Draw Five 5). A Wild Draw Color never stacks, and nothing stacks on "
            "it. Unless wild on coloured is allowed, a wild draw card never answers a coloured "
            "one, nor a coloured one a wild. The player facing the pending total stacks on it, "
            "deflects it (with deflect) or accepts: accepting takes the whole total and loses "
            "the turn. Accepting ends the chain, so the next draw card starts a new one.",
            "La carta di risposta non deve rispettare il colore. Con «stesso tipo» si risponde "
            "a un +1 con un +1, a un +5 con un +5 e a un Jolly +2 con un Jolly +2; con "
            "«crescente» si risponde con qualsiasi carta Più che valga almeno quanto l'ultima "
            "(+1 vale 1, Jolly +2 vale 2, +5 vale 5). Il Jolly pesca colore non entra mai in "
            "una catena e non gli si risponde. Se il Jolly su carte colorate non è permesso, un "
            "Jolly +2 non risponde mai a una carta colorata, né una colorata a un Jolly +2. Chi "
            "ha davanti il totale da pescare risponde, lo devia (con le risposte avanzate) "
            "oppure accetta: prende tutte le carte e salta il turno. Chi accetta chiude la "
            "catena: la carta Più seguente ne apre una nuova.",
            "A carta acumulada não precisa combinar na cor. Com «mesmo tipo», responde-se a um "
            "Comprar Uma com um Comprar Uma, a um Comprar Cinco com um Comprar Cinco e a um "
            "Coringa +2 com um Coringa +2; com «crescente», com qualquer carta de compra que "
            "valha pelo menos tanto quanto a última (Comprar Uma vale 1, Coringa +2 vale 2, "
            "Comprar Cinco vale 5). O Coringa Comprar Cor nunca se acumula, nem se acumula nada "
            "sobre ele. Se o coringa sobre carta colorida não for permitido, um Coringa +2 "
            "nunca responde a uma carta colorida, nem uma colorida a um Coringa +2. Quem tem o "
            "total pendente acumula, desvia (com desvio) ou aceita: compra o total e perde a "
            "vez. Aceitar encerra a cadeia: a próxima carta de compra começa outra.",
        )),
        (2, 0): ChoicePart(lambda r: r.stacking != "off" and r.wd4_policy == "challenge", Text(
            "A Wild Draw Two stays open to challenge when stacked. The player it falls on faces "
            "the whole pending total and may challenge, accept it, or stack on it (giving up "
            "the challenge). Guilty: the bluffer draws the whole total plus the extra cards for "
            "a bluff, and the challenger then plays a normal turn. Innocent: the challenger "
            "draws the total plus 2 and loses the turn.",
            "Un Jolly +2 giocato in risposta si può ancora contestare. Chi se lo vede arrivare "
            "ha davanti tutto il totale e può contestare, accettare o rispondere a sua volta "
            "(rinunciando a contestare). Se il bluff è scoperto, chi ha bluffato pesca tutto il "
            "totale più le carte extra per il bluff e chi ha contestato gioca normalmente il "
            "suo turno. Se non c'era bluff, chi ha contestato pesca il totale più 2 e salta il "
            "turno.",
            "Um Coringa +2 acumulado ainda pode ser desafiado. Quem o recebe tem diante de si "
            "todo o total e pode desafiar, aceitar ou acumular por cima (desistindo do "
            "desafio). Se o blefe for descoberto, quem blefou compra todo o total mais as "
            "cartas extras pelo blefe, e quem desafiou joga a sua vez normalmente. Se não havia "
            "blefe, quem desafiou compra o total mais 2 e perde a vez.",
        )),
        (3, 0): ChoicePart(lambda r: r.deflect, Text(
            "While a draw is pending (to stack on or to challenge), a Skip of any colour passes "
            "it to the player after the deflector, who is not skipped but now faces it; a "
            "Reverse turns the direction of play and the draw goes to the next player in the "
            "new direction; a Skip Everyone does not deflect. A deflection is offered only when "
            "the draw would not come straight back to the deflector.",
            "Finché c'è un obbligo di pescare (a cui rispondere o da contestare), un Salta di "
            "qualsiasi colore lo passa al giocatore dopo chi l'ha giocato, che non salta il "
            "turno ma deve ora rispondere; un Inverti cambia il senso del gioco e l'obbligo va "
            "al giocatore seguente nel nuovo senso; un Salta tutti non lo devia. La deviazione "
            "è possibile solo se l'obbligo non tornerebbe subito a chi devia.",
            "Enquanto há uma compra pendente (para acumular ou desafiar), um Pular de qualquer "
            "cor a passa ao jogador depois de quem o jogou, que não perde a vez, mas passa a "
            "enfrentá-la; um Inverter muda o sentido do jogo e a compra vai para o próximo "
            "jogador no novo sentido; um Pular Todos não a desvia. O desvio só é oferecido se a "
            "compra não voltasse direto para quem desvia.",
        )),
        (4, 0): ChoicePart(lambda r: r.stacking != "off" and not r.deflect, Text(
            "Without deflect, a Draw One, Draw Five or Wild Draw Two played as the last card "
            "ends the round at once: the next player still takes the whole pending total, and "
            "those cards count in the score.",
            "Senza risposte avanzate, un +1, un +5 o un Jolly +2 giocato come ultima carta "
            "chiude subito la manche: il giocatore seguente pesca comunque tutto il totale e "
            "quelle carte contano nel punteggio.",
            "Sem desvio, um Comprar Uma, Comprar Cinco ou Coringa +2 jogado como última carta "
            "encerra a rodada na hora: o próximo jogador ainda compra todo o total, e essas "
            "cartas contam na pontuação.",
        )),
        (8, 0): ChoicePart(lambda r: r.seven_zero, Text(
            "A 7 lets its player pick any other player still in the round and swap hands with "
            "them; the Flip deck has no zeros. Play then goes on as after any number. A 7 "
            "played as the last card ends the round without its effect. Whoever ends up with "
            "one card after a swap must call UNO like anyone else.",
            "Con un 7 chi lo gioca sceglie un altro giocatore ancora in gioco e scambia con lui "
            "la mano; il mazzo di Flip non ha zeri. Poi il gioco prosegue come dopo un numero "
            "qualsiasi. Un 7 giocato come ultima carta chiude la manche senza effetto. Chi si "
            "ritrova con una carta dopo uno scambio deve dire UNO come tutti.",
            "Com um 7, quem o joga escolhe outro jogador ainda na rodada e troca de mão com "
            "ele; o baralho do Flip não tem zeros. Depois o jogo segue como após qualquer "
            "número. Um 7 jogado como última carta encerra a rodada sem efeito. Quem fica com "
            "uma carta depois de uma troca deve dizer UNO como qualquer um.",
        )),
        (14, 2): ChoicePart(lambda r: r.wd4_policy == "challenge", Text(
            "facing a Wild Draw Two or Wild Draw Color that may be challenged, accept it",
            "davanti a un Jolly +2 o un Jolly pesca colore che si può contestare, lo accetta",
            "diante de um Coringa +2 ou Coringa Comprar Cor que pode ser desafiado, aceita-o")),
    },
    "no_mercy": {
        (1, 0): ChoicePart(lambda r: r.stacking != "off", Text(
            "A stacked card needs no colour match: any draw card worth at least the last one "
            "answers it (Draw Two 2; Draw Four and Wild Reverse Draw Four 4; Wild Draw Six 6; "
            "Wild Draw Ten 10). Unless wild on coloured is allowed, a wild draw card never "
            "answers a coloured one, nor a coloured one a wild. The player facing the pending "
            "total stacks on it, deflects or cancels it (with deflect) or accepts: accepting "
            "takes the whole total, up to the Mercy rule, and loses the turn. Accepting ends "
            "the chain, so the next draw card starts a new one.",
            "La carta di risposta non deve rispettare il colore: si risponde con qualsiasi "
            "carta Più che valga almeno quanto l'ultima (+2 vale 2; +4 e Jolly Inverti +4 "
            "valgono 4; Cambio colore più 6 vale 6; Cambio colore più 10 vale 10). Se il Jolly "
            "su carte colorate non è permesso, una carta Più jolly non risponde mai a una "
            "colorata, né una colorata a una jolly. Chi ha davanti il totale da pescare "
            "risponde, lo devia o lo annulla (con le risposte avanzate) oppure accetta: prende "
            "tutte le carte, fino alla regola della pietà, e salta il turno. Chi accetta chiude "
            "la catena: la carta Più seguente ne apre una nuova.",
            "A carta acumulada não precisa combinar na cor: responde-se com qualquer carta de "
            "compra que valha pelo menos tanto quanto a última (Comprar Duas vale 2; Comprar "
            "Quatro e Coringa Inverter +4 valem 4; Coringa +6 vale 6; Coringa +10 vale 10). Se "
            "o coringa sobre carta colorida não for permitido, uma carta de compra coringa "
            "nunca responde a uma colorida, nem uma colorida a uma coringa. Quem tem o total "
            "pendente acumula, desvia ou cancela (com desvio) ou aceita: compra o total, até a "
            "regra da misericórdia, e perde a vez. Aceitar encerra a cadeia: a próxima carta de "
            "compra começa outra.",
        )),
        (2, 0): None,  # no card of No Mercy's deck may be challenged
        (3, 0): ChoicePart(lambda r: r.deflect, Text(
            "While a draw is pending, a Skip of any colour passes it to the player after the "
            "deflector, who is not skipped but now faces it; a Reverse turns the direction of "
            "play and the draw goes to the next player in the new direction. A deflection is "
            "offered only when the draw would not come straight back to the deflector. A "
            "Discard All or a Skip Everyone of any colour cancels the pending draw: nobody "
            "draws it, and the card then acts as if played in its player's turn.",
            "Finché c'è un obbligo di pescare, un Salta di qualsiasi colore lo passa al "
            "giocatore dopo chi l'ha giocato, che non salta il turno ma deve ora rispondere; un "
            "Inverti cambia il senso del gioco e l'obbligo va al giocatore seguente nel nuovo "
            "senso. La deviazione è possibile solo se l'obbligo non tornerebbe subito a chi "
            "devia. Un Getta tutto o un Salta tutti di qualsiasi colore annulla l'obbligo: "
            "nessuno pesca, e la carta ha poi effetto come se fosse giocata nel turno di chi "
            "l'ha giocata.",
            "Enquanto há uma compra pendente, um Pular de qualquer cor a passa ao jogador "
            "depois de quem o jogou, que não perde a vez, mas passa a enfrentá-la; um Inverter "
            "muda o sentido do jogo e a compra vai para o próximo jogador no novo sentido. O "
            "desvio só é oferecido se a compra não voltasse direto para quem desvia. Um "
            "Descartar Tudo ou um Pular Todos de qualquer cor cancela a compra pendente: "
            "ninguém compra, e a carta age como se jogada na vez de quem a jogou.",
        )),
        (4, 0): ChoicePart(lambda r: r.stacking != "off" and not r.deflect, Text(
            "Without deflect, a draw card played as the last card ends the round at once: the "
            "next player still takes the whole pending total, up to the Mercy rule, and those "
            "cards count in the score.",
            "Senza risposte avanzate, una carta Più giocata come ultima carta chiude subito la "
            "manche: il giocatore seguente pesca comunque tutto il totale, fino alla regola "
            "della pietà, e quelle carte contano nel punteggio.",
            "Sem desvio, uma carta de compra jogada como última carta encerra a rodada na hora: "
            "o próximo jogador ainda compra todo o total, até a regra da misericórdia, e essas "
            "cartas contam na pontuação.",
        )),
        (11, 0): ChoicePart(  # under the Mercy rule its piles never run dry (RULEBOOK.md 4)
            lambda r: r.max_hand is None or r.max_hand > MERCY_LIMIT, _classic(11, 0).text),
        (14, 0): (ChoicePart(_timed(lambda r: r.draw_until_playable), Text(
            "on a turn, draw until a card plays and play it (a wild card naming the colour held "
            "most)",
            "nel turno, pesca finché non esce una carta giocabile e la gioca (una carta jolly "
            "sceglie il colore che ha di più in mano)",
            "na vez, compra até sair uma carta jogável e a joga (uma carta coringa escolhe a "
            "cor que mais tem na mão)")),
            ChoicePart(_timed(lambda r: not r.draw_until_playable), _classic(14, 0).text)),
        (14, 1): ChoicePart(_timed(lambda r: True), Text(
            "naming a colour (a wild card's or a Color Roulette's), the colour held most",
            "nella scelta del colore (di una carta jolly o della Roulette dei colori), il "
            "colore che ha di più in mano",
            "na escolha da cor (de uma carta coringa ou da Roleta de Cores), a cor que mais "
            "tem na mão")),
        (14, 2): None,  # nothing to challenge
        (14, 3): _timed_part(14, 3),
        (14, 4): _timed_part(14, 4),
    },
}
"""Per variant, (choice number, part index) to the part said in its place: the variant's card
names and when it applies, or None where the part concerns nothing the variant has."""
