"""The words of the rulebook in English, Italian and Portuguese: what each option means, what each
of its values does, and the choices unonet made where the rule sheets are silent.

Data only; unonet/rulebook.py assembles it. The Italian and Portuguese follow the vocabulary of
the rule sheets in seeds/ (Italian "manche", "mazziere", "pescare", "intercettazioni",
"risposte", "scale"; Portuguese "rodada", "comprar", "perde a vez", "Coringa") and name cards as
unonet/words.py does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from unonet.rules import RuleSet

__all__ = [
    "ANY_NUMBER",
    "BUZZER_WINDOW_SECONDS",
    "CHOICES",
    "HEADINGS",
    "OPTION_WORDS",
    "VALUE_WORDS",
    "Choice",
    "ChoicePart",
    "Inert",
    "OptionWords",
    "Text",
    "Unit",
]

BUZZER_WINDOW_SECONDS = 5
"""How long the host keeps a buzzer race open (choices.md 9: the host's BUZZER_WINDOW): long
enough to see the Buzzer land and press B over a slow link, short enough to stay a race."""


class Text(NamedTuple):
    """One text in each language; read it with getattr(text, lang)."""

    en: str
    it: str
    pt: str


class Unit(NamedTuple):
    """What a number of an option counts: '1 card', '7 cards'."""

    one: Text
    many: Text


ANY_NUMBER = "n"
"""Key of an option's statement that serves every whole number ({v} is the value in words)."""


class Inert(NamedTuple):
    """When another option leaves this one without effect, and what to say instead."""

    when: Callable[[RuleSet], bool]
    says: Text


@dataclass(frozen=True)
class OptionWords:
    """An option in words: a short title, a one-line meaning, and per value what it does."""

    title: Text
    meaning: Text
    says: dict[Any, Text]
    unit: Unit | None = None
    values: dict[Any, Text] = field(default_factory=dict)  # value words peculiar to it
    inert: Inert | None = None


VALUE_WORDS: dict[Any, Text] = {
    True: Text("yes", "sì", "sim"),
    False: Text("no", "no", "não"),
    None: Text("off", "no", "não"),
    "off": Text("off", "no", "não"),
    "classic": Text("classic", "classico", "clássico"),
    "flip": Text("UNO Flip", "UNO Flip", "UNO Flip"),
    "no_mercy": Text("UNO Show 'Em No Mercy", "UNO Senza pietà", "UNO Sem Piedade"),
    "allowed": Text("allowed", "permesso", "permitido"),
    "forbidden": Text("forbidden", "vietato", "proibido"),
    "same_kind": Text("same kind", "stesso tipo", "mesmo tipo"),
    "escalating": Text("escalating", "crescente", "crescente"),
    "identical": Text("identical card", "carta identica", "carta idêntica"),
    "same_face": Text("same face", "stesso simbolo", "mesmo símbolo"),
    "challenge": Text("may be challenged", "si può contestare", "pode ser desafiado"),
    "enforce": Text("enforced, no bluff", "imposto, niente bluff", "obrigatório, sem blefe"),
    "free": Text("free", "libero", "livre"),
    "winner_collects": Text("winner collects", "il vincitore incassa", "o vencedor soma"),
    "lowest_wins": Text("lowest wins", "vince il più basso", "o menor vence"),
    "elimination": Text("elimination", "eliminazione", "eliminação"),
    "pairs": Text("pairs", "a coppie", "em duplas"),
    "hand": Text("the hand's points", "i punti della mano", "os pontos da mão"),
}

_CARDS = Unit(Text("card", "carta", "carta"), Text("cards", "carte", "cartas"))
_POINTS = Unit(Text("point", "punto", "ponto"), Text("points", "punti", "pontos"))
_NO_LIMIT = Text("no limit", "nessun limite", "sem limite")

N = ANY_NUMBER

OPTION_WORDS: dict[str, OptionWords] = {
    "variant": OptionWords(
        Text("Game", "Gioco", "Jogo"),
        Text("Which game is played: classic UNO, UNO Flip or UNO Show 'Em No Mercy.",
              "Il gioco: UNO classico, UNO Flip o UNO Senza pietà.",
              "O jogo: UNO clássico, UNO Flip ou UNO Sem Piedade."),
        {
            "classic": Text("Classic UNO with its 108-card deck.",
                             "UNO classico con il suo mazzo di 108 carte.",
                             "UNO clássico com o seu baralho de 108 cartas."),
            "flip": Text(
                "UNO Flip: 112 double-sided cards. A Flip card turns the discard pile, the draw "
                "pile and every hand over, from the light side to the dark one and back; "
                "everybody sees the other side of every hand. RULEBOOK.md section 3.",
                "UNO Flip: 112 carte a due facce. Una carta Flip gira la pila degli scarti, il "
                "mazzo e tutte le mani, dal lato chiaro a quello scuro e viceversa; tutti vedono "
                "l'altro lato delle mani altrui. RULEBOOK.md sezione 3.",
                "UNO Flip: 112 cartas de dois lados. Uma carta Flip vira a pilha de descarte, o "
                "monte e todas as mãos, do lado claro para o escuro e de volta; todos veem o "
                "outro lado das mãos. RULEBOOK.md seção 3."),
            "no_mercy": Text(
                "UNO Show 'Em No Mercy: 168 cards, escalating draw stacks up to +10, Discard "
                "All, Color Roulette, 7-0, and the Mercy rule: 25 cards put a player out. "
                "RULEBOOK.md section 4.",
                "UNO Senza pietà: 168 carte, pesca a catena crescente fino a +10, Getta tutto, "
                "Roulette dei colori, 7-0, e la regola della pietà: con 25 carte si è fuori. "
                "RULEBOOK.md sezione 4.",
                "UNO Sem Piedade: 168 cartas, compras em cadeia crescentes até +10, Descartar "
                "Tudo, Roleta de Cores, 7-0, e a regra da misericórdia: com 25 cartas se está "
                "fora. RULEBOOK.md seção 4."),
        },
    ),
    "hand_size": OptionWords(
        Text("Cards dealt", "Carte distribuite", "Cartas distribuídas"),
        Text("How many cards each player is dealt at the start of a round.",
              "Quante carte il mazziere distribuisce a ciascun giocatore all'inizio della manche.",
              "Quantas cartas cada jogador recebe no início da rodada."),
        {N: Text("Each player is dealt {v} at the start of a round.",
                  "Ogni giocatore riceve {v} all'inizio della manche.",
                  "Cada jogador recebe {v} no início da rodada.")},
        unit=_CARDS,
    ),
    "decks": OptionWords(
        Text("Decks", "Mazzi", "Baralhos"),
        Text("How many full decks are shuffled together.",
              "Quanti mazzi completi si mescolano insieme.",
              "Quantos baralhos completos são embaralhados juntos."),
        {
            1: Text("One deck: {size} cards in all.", "Un solo mazzo: {size} carte in tutto.",
                     "Um só baralho: {size} cartas ao todo."),
            N: Text("{v} shuffled together: {size} cards in all.",
                     "{v} mescolati insieme: {size} carte in tutto.",
                     "{v} embaralhados juntos: {size} cartas ao todo."),
        },
        unit=Unit(Text("deck", "mazzo", "baralho"), Text("decks", "mazzi", "baralhos")),
    ),
    "colors": OptionWords(
        Text("Colours", "Colori", "Cores"),
        Text("How many colours the deck has: red, yellow, green and blue, then orange, purple, "
              "pink and cyan, each with a full set of cards.",
              "Quanti colori ha il mazzo: rosso, giallo, verde e blu, poi arancione, viola, rosa "
              "e ciano, ognuno con la serie completa di carte.",
              "Quantas cores tem o baralho: vermelho, amarelo, verde e azul, depois laranja, "
              "roxo, rosa e ciano, cada uma com a série completa de cartas."),
        {N: Text("{colours}, each with a full set of numbers and action cards.",
                  "{colours}, ognuno con la serie completa di numeri e carte Azione.",
                  "{colours}, cada uma com a série completa de números e cartas especiais.")},
        unit=Unit(Text("colour", "colore", "cor"), Text("colours", "colori", "cores")),
    ),
    "max_players": OptionWords(
        Text("Most players", "Giocatori al massimo", "Máximo de jogadores"),
        Text("The most seats a table may have; the deck must hold every hand.",
              "Il numero massimo di posti al tavolo; il mazzo deve bastare per tutte le mani.",
              "O número máximo de lugares na mesa; o baralho tem de bastar para todas as mãos."),
        {N: Text("A table seats 2 to {n} players.", "Al tavolo siedono da 2 a {n} giocatori.",
                  "A mesa recebe de 2 a {n} jogadores.")},
        unit=Unit(Text("player", "giocatore", "jogador"),
                  Text("players", "giocatori", "jogadores")),
    ),
    "draw_when_playable": OptionWords(
        Text("Draw with a playable card", "Pescare con una carta giocabile",
              "Comprar com carta jogável"),
        Text("Whether a player may draw instead of playing a card they could play.",
              "Se si può pescare anche avendo una carta giocabile.",
              "Se o jogador pode comprar mesmo tendo uma carta que poderia jogar."),
        {
            "allowed": Text("A player may draw even while holding a playable card.",
                             "Si può pescare anche avendo una carta giocabile.",
                             "Pode-se comprar mesmo tendo uma carta jogável."),
            "forbidden": Text("A player may draw only when holding no playable card.",
                               "Si può pescare solo se non si hanno carte giocabili.",
                               "Só se pode comprar quando não se tem carta jogável."),
        },
    ),
    "play_after_draw": OptionWords(
        Text("Play the drawn card", "Giocare la carta pescata", "Jogar a carta comprada"),
        Text("Whether the card just drawn may be played in the same turn.",
              "Se la carta appena pescata si può giocare nello stesso turno.",
              "Se a carta recém-comprada pode ser jogada na mesma vez."),
        {
            True: Text("A playable card just drawn may be played at once; after drawing, no "
                        "other card may be played.",
                        "La carta appena pescata, se giocabile, si può posare subito; dopo aver "
                        "pescato non si può giocare nessun'altra carta.",
                        "A carta recém-comprada, se jogável, pode ser jogada na hora; depois de "
                        "comprar, nenhuma outra carta pode ser jogada."),
            False: Text("A player who draws then passes: the drawn card waits for the next "
                         "turn.",
                         "Chi pesca salta il turno: la carta pescata aspetta il turno seguente.",
                         "Quem compra passa a vez: a carta comprada fica para a próxima vez."),
        },
    ),
    "draw_until_playable": OptionWords(
        Text("Draw until playable", "Pescare finché si può giocare", "Comprar até poder jogar"),
        Text("Drawing goes on until a playable card comes, which may then be played.",
              "Si continua a pescare finché non arriva una carta giocabile, che si può poi "
              "giocare.",
              "Compra-se até sair uma carta jogável, que pode então ser jogada."),
        {
            True: Text("A player who draws keeps drawing until a playable card comes, and may "
                        "then play it.",
                        "Chi pesca continua a pescare finché non trova una carta giocabile, che "
                        "può poi posare.",
                        "Quem compra continua comprando até sair uma carta jogável, que pode "
                        "então jogar."),
            False: Text("A player draws one card at a time.", "Si pesca una carta alla volta.",
                         "Compra-se uma carta por vez."),
        },
    ),
    "max_draws_per_turn": OptionWords(
        Text("Draws per turn", "Pescate per turno", "Compras por vez"),
        Text("How many cards a player may draw in one turn before passing.",
              "Quante carte si possono pescare in un turno prima di passare.",
              "Quantas cartas o jogador pode comprar numa vez antes de passar."),
        {
            1: Text("A player draws at most one card in a turn, then plays it or passes.",
                     "In un turno si pesca al massimo una carta, poi la si gioca o si passa.",
                     "Numa vez compra-se no máximo uma carta; depois joga-se ou passa-se."),
            N: Text("A player may draw up to {v} in a turn before passing.",
                     "In un turno si possono pescare fino a {v} prima di passare.",
                     "Numa vez pode-se comprar até {v} antes de passar."),
        },
        unit=_CARDS,
        inert=Inert(lambda r: r.draw_until_playable, Text(
            "Not counted: one draw goes on until a playable card comes.",
            "Non conta: si pesca finché non arriva una carta giocabile.",
            "Não conta: compra-se até sair uma carta jogável.")),
    ),
    "stacking": OptionWords(
        Text("Stacking draw cards", "Risposte ai +2 e +4", "Acumular cartas de compra"),
        Text("A player facing a +2 or +4 may answer with another draw card; the next player "
              "takes the sum.",
              "Chi deve pescare per un +2 o un +4 può rispondere con un'altra carta Più; il "
              "giocatore seguente prende la somma.",
              "Quem deve comprar por um +2 ou +4 pode responder com outra carta de compra; o "
              "próximo jogador compra a soma."),
        {
            "off": Text("A Draw Two or Wild Draw Four cannot be answered: the next player "
                         "draws and loses the turn.",
                         "A un +2 o a un Jolly +4 non si risponde: il giocatore seguente pesca "
                         "e salta il turno.",
                         "Um +2 ou Coringa +4 não admite resposta: o próximo jogador compra e "
                         "perde a vez."),
            "same_kind": Text("A +2 may answer a +2 and a Wild +4 a Wild +4; whoever does not "
                               "answer takes the whole sum and loses the turn.",
                               "Si risponde a un +2 con un +2 e a un Jolly +4 con un Jolly +4; "
                               "chi non risponde prende tutta la somma e salta il turno.",
                               "Responde-se a um +2 com um +2 e a um Coringa +4 com um Coringa "
                               "+4; quem não responde compra a soma toda e perde a vez."),
            "escalating": Text("Any draw card worth at least as much as the last one may "
                                "answer it (never a +2 on a +4); whoever does not answer takes "
                                "the whole sum and loses the turn.",
                                "Si risponde con una carta Più che valga almeno quanto l'ultima "
                                "(mai un +2 su un +4); chi non risponde prende tutta la somma e "
                                "salta il turno.",
                                "Responde-se com uma carta de compra que valha pelo menos tanto "
                                "quanto a última (nunca um +2 sobre um +4); quem não responde "
                                "compra a soma toda e perde a vez."),
        },
    ),
    "stack_mix_wild": OptionWords(
        Text("Wild on coloured draw", "Jolly su carte colorate", "Coringa sobre carta colorida"),
        Text("Whether a wild draw card may answer a coloured one, and the other way round.",
              "Se un Jolly +4 può rispondere a un +2 colorato e viceversa.",
              "Se um Coringa +4 pode responder a um +2 colorido e vice-versa."),
        {
            True: Text("When stacking allows the values, a Wild Draw Four may answer a Draw "
                        "Two.",
                        "Se le risposte lo permettono, un Jolly +4 può rispondere a un +2.",
                        "Se o acúmulo permitir, um Coringa +4 pode responder a um +2."),
            False: Text("Wild and coloured draw cards never answer each other.",
                         "Jolly +4 e +2 colorati non si rispondono mai a vicenda.",
                         "Coringas +4 e +2 coloridos nunca respondem um ao outro."),
        },
        inert=Inert(lambda r: r.stacking == "off", Text(
            "No effect without stacking.",
            "Non ha effetto senza le risposte ai +2 e +4.",
            "Sem efeito sem acúmulo.")),
    ),
    "deflect": OptionWords(
        Text("Deflect with Skip/Reverse", "Risposte avanzate", "Desviar com Pular/Inverter"),
        Text("A Skip or Reverse (and a Buzzer) passes a pending draw on to another player "
              "instead of taking it.",
              "Un Salta o un Inverti (e un Buzzer) passa l'obbligo di pescare a un altro "
              "giocatore.",
              "Um Pular ou Inverter (e um Buzzer) passa a compra pendente para outro jogador."),
        {
            True: Text("A Skip of any colour passes a pending draw on, a Reverse sends it the "
                        "other way, a Buzzer passes it on too; a draw card played as the last "
                        "card ends the round only once the draw is taken.",
                        "Un Salta di qualsiasi colore passa avanti l'obbligo di pescare, un "
                        "Inverti lo rimanda indietro, anche un Buzzer lo passa avanti; se "
                        "l'ultima carta è una carta Più, la manche finisce solo quando le carte "
                        "sono state pescate.",
                        "Um Pular de qualquer cor passa adiante a compra pendente, um Inverter "
                        "a devolve, um Buzzer também a passa adiante; se a última carta for de "
                        "compra, a rodada só acaba depois que as cartas forem compradas."),
            False: Text("A pending draw is answered only by stacking, where allowed, or "
                         "taken.",
                         "A un obbligo di pescare si risponde solo con una carta Più, se "
                         "permesso, oppure si pesca.",
                         "Uma compra pendente só se responde acumulando, se permitido, ou "
                         "comprando."),
        },
    ),
    "jump_in": OptionWords(
        Text("Jump in", "Intercettazioni", "Jogar fora da vez"),
        Text("Play out of turn a card identical to the top card (or of the same face); play "
              "goes on from that player.",
              "Giocare fuori turno una carta identica a quella in cima (o con lo stesso "
              "simbolo); il gioco riprende da chi l'ha giocata.",
              "Jogar fora da vez uma carta idêntica à do topo (ou com o mesmo símbolo); o jogo "
              "segue a partir de quem jogou."),
        {
            "off": Text("Nobody plays out of turn (calling UNO and catching aside).",
                         "Nessuno gioca fuori turno (salvo dire UNO e accusare chi non l'ha "
                         "detto).",
                         "Ninguém joga fora da vez (exceto dizer UNO e acusar quem não disse)."),
            "identical": Text("Anyone holding a card identical to the top card (same colour "
                               "and face; never a Buzzer or Wild Draw Four) may play it out of "
                               "turn before the current player draws; play goes on from them.",
                               "Chi ha una carta identica a quella in cima (stesso colore e "
                               "stesso numero o simbolo; mai un Buzzer o un Jolly +4) può "
                               "giocarla fuori turno prima che il giocatore di turno peschi; il "
                               "gioco riprende da lui.",
                               "Quem tiver uma carta idêntica à do topo (mesma cor e mesmo "
                               "número ou símbolo; nunca um Buzzer ou Coringa +4) pode jogá-la "
                               "fora da vez antes que o jogador da vez compre; o jogo segue a "
                               "partir dele."),
            "same_face": Text("Anyone holding a card of the same number or symbol as the top "
                               "card, in any colour (Buzzer and Wild Draw Four included), may "
                               "play it out of turn before the current player draws; play goes "
                               "on from them.",
                               "Super intercettazioni: chi ha una carta con lo stesso numero o "
                               "simbolo di quella in cima, di qualsiasi colore (Buzzer e Jolly "
                               "+4 compresi), può giocarla fuori turno prima che il giocatore "
                               "di turno peschi; il gioco riprende da lui.",
                               "Quem tiver uma carta com o mesmo número ou símbolo da do topo, "
                               "de qualquer cor (Buzzer e Coringa +4 incluídos), pode jogá-la "
                               "fora da vez antes que o jogador da vez compre; o jogo segue a "
                               "partir dele."),
        },
    ),
    "jump_in_penalty": OptionWords(
        Text("Jump-in penalty", "Penalità intercettazione", "Penalidade fora da vez"),
        Text("Points charged for an out-of-turn play that is refused (too late or not "
              "matching).",
              "Punti di penalità per un'intercettazione fallita (troppo lenta o sbagliata).",
              "Pontos de penalidade por uma jogada fora da vez recusada (tarde demais ou "
              "errada)."),
        {N: Text("An out-of-turn play that comes too late or does not match costs {v}.",
                  "Un'intercettazione troppo lenta o sbagliata costa {v} di penalità.",
                  "Uma jogada fora da vez atrasada ou errada custa {v} de penalidade.")},
        unit=_POINTS,
        inert=Inert(lambda r: r.jump_in == "off", Text(
            "No effect without jump-in.",
            "Non ha effetto senza le intercettazioni.",
            "Sem efeito sem jogadas fora da vez.")),
    ),
    "wd4_policy": OptionWords(
        Text("Wild Draw Four", "Jolly +4", "Coringa +4"),
        Text("How a Wild Draw Four played while holding the colour in play is treated: a "
              "bluff that may be challenged, refused, or allowed.",
              "Come si tratta un Jolly +4 giocato avendo il colore in gioco: bluff che si può "
              "contestare, vietato o libero.",
              "Como se trata um Coringa +4 jogado por quem tem a cor em jogo: blefe que pode "
              "ser desafiado, proibido ou livre."),
        {
            "challenge": Text("The next player may challenge a Wild Draw Four played while "
                               "holding the colour in play: a caught bluffer draws 4 plus the "
                               "extra cards, a wrong challenger draws 6.",
                               "Il giocatore seguente può contestare un Jolly +4 giocato avendo "
                               "il colore in gioco: chi è scoperto a bluffare pesca 4 carte più "
                               "quelle extra, chi contesta a torto ne pesca 6.",
                               "O próximo jogador pode desafiar um Coringa +4 jogado por quem "
                               "tinha a cor em jogo: quem é pego blefando compra 4 mais as "
                               "extras, quem desafia sem razão compra 6."),
            "enforce": Text("A Wild Draw Four is refused while its player holds a card of the "
                             "colour in play; there is nothing to challenge.",
                             "Il Jolly +4 è rifiutato se chi lo gioca ha una carta del colore "
                             "in gioco; non c'è niente da contestare.",
                             "O Coringa +4 é recusado se quem o joga tem uma carta da cor em "
                             "jogo; não há o que desafiar."),
            "free": Text("A Wild Draw Four may always be played and cannot be challenged.",
                          "Il Jolly +4 si può sempre giocare e non si può contestare.",
                          "O Coringa +4 pode ser sempre jogado e não pode ser desafiado."),
        },
    ),
    "challenge_guilty_extra": OptionWords(
        Text("Extra cards for a bluff", "Carte extra per il bluff", "Cartas extras pelo blefe"),
        Text("Extra cards a bluffer caught by a challenge draws on top of the 4.",
              "Carte in più, oltre alle 4, per chi è scoperto a bluffare.",
              "Cartas a mais, além das 4, para quem é pego blefando."),
        {
            0: Text("A caught bluffer draws just the 4.",
                     "Chi è scoperto a bluffare pesca solo le 4 carte.",
                     "Quem é pego blefando compra só as 4."),
            N: Text("A caught bluffer draws {v} on top of the 4.",
                     "Chi è scoperto a bluffare pesca {v} oltre alle 4.",
                     "Quem é pego blefando compra {v} além das 4."),
        },
        unit=_CARDS,
        inert=Inert(lambda r: r.wd4_policy != "challenge", Text(
            "No effect: a Wild Draw Four cannot be challenged.",
            "Non ha effetto: il Jolly +4 non si può contestare.",
            "Sem efeito: o Coringa +4 não pode ser desafiado.")),
    ),
    "uno_penalty": OptionWords(
        Text("UNO penalty", "Penalità UNO", "Penalidade do UNO"),
        Text("Cards drawn by a player caught not calling UNO.",
              "Carte di penalità per chi non dice UNO e viene scoperto.",
              "Cartas compradas por quem é pego sem dizer UNO."),
        {N: Text("A player caught with one card and no UNO call draws {v}.",
                  "Chi resta con una carta senza dire UNO e viene scoperto pesca {v}.",
                  "Quem fica com uma carta sem dizer UNO e é pego compra {v}.")},
        unit=_CARDS,
    ),
    "uno_auto_penalty": OptionWords(
        Text("UNO penalty without a catch", "Penalità UNO automatica",
              "Penalidade do UNO automática"),
        Text("The UNO penalty applies even when nobody catches the player.",
              "La penalità UNO si applica anche se nessuno se ne accorge.",
              "A penalidade do UNO vale mesmo que ninguém perceba."),
        {
            True: Text("A player who has not called UNO draws the penalty even if nobody "
                        "catches them, once the chance to catch is over.",
                        "Chi non ha detto UNO pesca la penalità anche se nessuno se ne accorge, "
                        "quando si chiude la possibilità di accusarlo.",
                        "Quem não disse UNO compra a penalidade mesmo que ninguém perceba, "
                        "quando acaba a chance de acusá-lo."),
            False: Text("The UNO penalty applies only if another player catches it in time.",
                         "La penalità UNO si applica solo se un altro giocatore se ne accorge "
                         "in tempo.",
                         "A penalidade do UNO só vale se outro jogador perceber a tempo."),
        },
    ),
    "false_catch_penalty": OptionWords(
        Text("Wrong catch penalty", "Penalità accusa sbagliata", "Penalidade por acusação errada"),
        Text("Cards drawn by a player who catches someone who could not be caught.",
              "Carte di penalità per chi accusa a torto qualcuno di non aver detto UNO.",
              "Cartas compradas por quem acusa sem razão alguém de não ter dito UNO."),
        {
            0: Text("A wrong catch costs nothing.", "Un'accusa sbagliata non costa nulla.",
                     "Uma acusação errada não custa nada."),
            N: Text("A player who catches someone who cannot be caught draws {v}.",
                     "Chi accusa a torto pesca {v}.", "Quem acusa sem razão compra {v}."),
        },
        unit=_CARDS,
    ),
    "sequences": OptionWords(
        Text("Sequences", "Scale", "Sequências"),
        Text("Play a run of consecutive numbers of one colour, rising or falling, at once.",
              "Giocare insieme una scala di numeri consecutivi dello stesso colore, crescente o "
              "decrescente.",
              "Jogar de uma vez uma sequência de números seguidos da mesma cor, crescente ou "
              "decrescente."),
        {
            True: Text("A run of two or more consecutive numbers of one colour, rising or "
                        "falling, may be played at once if its first card matches the top "
                        "card; its player may add the next number until the next player acts.",
                        "Si può giocare una scala di due o più numeri consecutivi dello stesso "
                        "colore, crescente o decrescente, se la prima carta è giocabile; chi la "
                        "gioca può aggiungere il numero seguente finché il giocatore "
                        "successivo non agisce.",
                        "Pode-se jogar uma sequência de dois ou mais números seguidos da mesma "
                        "cor, crescente ou decrescente, se a primeira carta for jogável; quem a "
                        "joga pode acrescentar o número seguinte até o próximo jogador agir."),
            False: Text("No runs of consecutive numbers.", "Niente scale di numeri consecutivi.",
                         "Sem sequências de números seguidos."),
        },
    ),
    "multiples": OptionWords(
        Text("Multiples", "Carte multiple", "Cartas iguais juntas"),
        Text("Play several number cards of the same number, in any colours, at once.",
              "Giocare insieme più carte con lo stesso numero, di qualsiasi colore.",
              "Jogar de uma vez várias cartas do mesmo número, de qualquer cor."),
        {
            True: Text("Two or more number cards of the same number, in any colours, may be "
                        "played at once if the first matches the top card; the last one sets "
                        "the colour.",
                        "Si possono giocare insieme due o più carte con lo stesso numero, di "
                        "qualsiasi colore, se la prima è giocabile; l'ultima decide il colore.",
                        "Podem-se jogar juntas duas ou mais cartas do mesmo número, de qualquer "
                        "cor, se a primeira for jogável; a última define a cor."),
            False: Text("Cards of the same number go down one at a time.",
                         "Le carte con lo stesso numero si giocano una alla volta.",
                         "Cartas do mesmo número são jogadas uma por vez."),
        },
    ),
    "multi_finish": OptionWords(
        Text("Finish with several cards", "Chiudere con più carte", "Terminar com várias cartas"),
        Text("Whether a play of several cards may empty the hand.",
              "Se si può chiudere la manche giocando più carte insieme.",
              "Se uma jogada de várias cartas pode esvaziar a mão."),
        {
            True: Text("A run or a multiple may empty the hand and win the round.",
                        "Una scala o più carte uguali possono svuotare la mano e vincere la "
                        "manche.",
                        "Uma sequência ou várias cartas iguais podem esvaziar a mão e vencer a "
                        "rodada."),
            False: Text("A play of several cards may not empty the hand: the last card goes "
                         "down on its own.",
                         "Non si può chiudere giocando più carte insieme: l'ultima carta si "
                         "gioca da sola.",
                         "Não se pode esvaziar a mão com várias cartas de uma vez: a última "
                         "carta vai sozinha."),
        },
        inert=Inert(lambda r: not (r.sequences or r.multiples), Text(
            "No effect without sequences or multiples.",
            "Non ha effetto senza scale né carte multiple.",
            "Sem efeito sem sequências nem cartas iguais juntas.")),
    ),
    "action_finish": OptionWords(
        Text("Finish with an action card", "Chiudere con una carta Azione",
              "Terminar com carta especial"),
        Text("Whether the last card may be an action card or a wild.",
              "Se l'ultima carta può essere una carta Azione o un Jolly.",
              "Se a última carta pode ser uma carta especial ou um coringa."),
        {
            True: Text("The last card may be any card.", "L'ultima carta può essere qualsiasi.",
                        "A última carta pode ser qualquer uma."),
            False: Text("The last card must be a number: a player whose last card is an "
                         "action card or a wild must draw instead.",
                         "L'ultima carta deve essere un numero: chi ha come ultima carta una "
                         "carta Azione o un Jolly deve pescare.",
                         "A última carta tem de ser um número: quem tem como última carta uma "
                         "carta especial ou um coringa deve comprar."),
        },
    ),
    "seven_zero": OptionWords(
        Text("Seven swaps, zero passes", "Regola dello 0/7", "Sete troca, zero passa"),
        Text("A 0 passes every hand on in the direction of play; a 7 swaps hands with a "
              "player of one's choice.",
              "Lo 0 fa passare tutte le mani nel senso del gioco; il 7 scambia la mano con un "
              "giocatore a scelta.",
              "O 0 passa todas as mãos no sentido do jogo; o 7 troca a mão com um jogador à "
              "escolha."),
        {
            True: Text("A 0 passes every hand to the next player in the direction of play; a "
                        "7 swaps its player's hand with that of another player they pick.",
                        "Uno 0 fa passare tutte le mani al giocatore seguente nel senso del "
                        "gioco; un 7 scambia la mano di chi lo gioca con quella di un giocatore "
                        "a sua scelta.",
                        "Um 0 passa todas as mãos ao próximo jogador no sentido do jogo; um 7 "
                        "troca a mão de quem o joga com a de outro jogador à sua escolha."),
            False: Text("0 and 7 are plain numbers.", "0 e 7 sono numeri normali.",
                         "0 e 7 são números comuns."),
        },
    ),
    "buzzers": OptionWords(
        Text("Buzzer cards", "Carte Buzzer", "Cartas Buzzer"),
        Text("Adds 8 Buzzer cards; when one is played everyone presses B and the slowest "
              "draws 2.",
              "Aggiunge 8 carte Buzzer; quando se ne gioca una tutti premono B e il più lento "
              "pesca 2 carte.",
              "Acrescenta 8 cartas Buzzer; quando uma é jogada todos apertam B e o mais lento "
              "compra 2."),
        {
            True: Text("8 Buzzer cards join the deck: no colour, playable on anything, 0 "
                        "points. When one is played everyone still in presses B; the last to "
                        "press draws 2, and so does anyone who has not pressed within "
                        f"{BUZZER_WINDOW_SECONDS} seconds.",
                        "Al mazzo si aggiungono 8 carte Buzzer: senza colore, giocabili su "
                        "qualsiasi carta, 0 punti. Quando se ne gioca una, tutti i giocatori "
                        "ancora in gioco premono B; l'ultimo a premere pesca 2 carte, come chi "
                        f"non ha premuto entro {BUZZER_WINDOW_SECONDS} secondi.",
                        "Entram no baralho 8 cartas Buzzer: sem cor, jogáveis sobre qualquer "
                        "carta, 0 pontos. Quando uma é jogada, todos os jogadores ainda na "
                        "rodada apertam B; o último a apertar compra 2, assim como quem não "
                        f"apertou em {BUZZER_WINDOW_SECONDS} segundos."),
            False: Text("No Buzzer cards.", "Nessuna carta Buzzer.", "Sem cartas Buzzer."),
        },
    ),
    "max_hand": OptionWords(
        Text("Out at this many cards", "Eliminato con troppe carte",
              "Eliminado com cartas demais"),
        Text("A player holding this many cards is out for the round and pays a penalty.",
              "Chi accumula questo numero di carte è eliminato per la manche e subisce una "
              "penalità.",
              "Quem acumula esse número de cartas sai da rodada e paga uma penalidade."),
        {
            None: Text("No limit on the cards in a hand.", "Nessun limite alle carte in mano.",
                        "Sem limite de cartas na mão."),
            N: Text("A player holding {v} or more after a draw, a swap or a pass is out for "
                     "the round: the cards go face down under the draw pile and the player "
                     "pays the penalty.",
                     "Chi ha {v} o più dopo aver pescato, scambiato o ricevuto le mani è "
                     "eliminato per la manche: le carte tornano coperte sotto il mazzo e il "
                     "giocatore subisce la penalità.",
                     "Quem tiver {v} ou mais depois de comprar, trocar ou receber mãos sai da "
                     "rodada: as cartas voltam viradas para baixo sob o monte de compra e o "
                     "jogador paga a penalidade."),
        },
        unit=_CARDS,
        values={None: _NO_LIMIT},
    ),
    "max_hand_penalty": OptionWords(
        Text("Penalty for going out", "Penalità eliminazione", "Penalidade da eliminação"),
        Text("Points charged for going out on the hand limit: a fixed number or the points of "
              "the hand.",
              "Penalità per chi è eliminato per troppe carte: punti fissi o i punti delle carte "
              "in mano.",
              "Penalidade de quem sai por cartas demais: pontos fixos ou os pontos das cartas "
              "na mão."),
        {
            "hand": Text("With a hand limit, a player out on it is charged the points of the "
                          "cards held.",
                          "Con un limite di carte, chi è eliminato subisce i punti delle carte "
                          "che aveva in mano.",
                          "Com limite de cartas, quem sai por ele paga os pontos das cartas "
                          "que tinha na mão."),
            N: Text("With a hand limit, a player out on it is charged {v}.",
                     "Con un limite di carte, chi è eliminato subisce {v} di penalità.",
                     "Com limite de cartas, quem sai por ele paga {v}."),
        },
        unit=_POINTS,
        inert=Inert(lambda r: r.max_hand is None, Text(
            "No effect without a hand limit.",
            "Non ha effetto senza un limite di carte.",
            "Sem efeito sem limite de cartas.")),
    ),
    "think_time": OptionWords(
        Text("Seconds to act", "Tempo di riflessione", "Segundos para jogar"),
        Text("Seconds a player has to act; on time-out the host acts for them.",
              "Secondi per agire; allo scadere l'host agisce al posto del giocatore.",
              "Segundos que o jogador tem para agir; quando o tempo acaba, o host age por ele."),
        {
            None: Text("No time limit on a turn; the host still waits only so long for a "
                        "decision such as a challenge.",
                        "Nessun limite di tempo per il turno; l'host però non aspetta "
                        "all'infinito una decisione come una contestazione.",
                        "Sem limite de tempo por vez; o host, porém, não espera para sempre "
                        "por uma decisão como um desafio."),
            N: Text("A player has {v} to act; when time runs out the host acts for them.",
                     "Ogni giocatore ha {v} per agire; allo scadere l'host agisce al suo "
                     "posto.",
                     "Cada jogador tem {v} para agir; quando o tempo acaba, o host age por "
                     "ele."),
        },
        unit=Unit(Text("second", "secondo", "segundo"), Text("seconds", "secondi", "segundos")),
        values={None: _NO_LIMIT},
    ),
    "scoring": OptionWords(
        Text("Scoring", "Punteggio", "Pontuação"),
        Text("How rounds are scored and who wins the match.",
              "Come si contano i punti delle manche e chi vince la partita.",
              "Como se contam os pontos das rodadas e quem vence a partida."),
        {
            "winner_collects": Text("The round's winner scores the points of the cards left "
                                     "in the other hands; the first to reach the target wins "
                                     "the match.",
                                     "Chi vince la manche incassa i punti delle carte rimaste "
                                     "in mano agli altri; vince la partita chi raggiunge per "
                                     "primo l'obiettivo.",
                                     "Quem vence a rodada soma os pontos das cartas que "
                                     "ficaram na mão dos outros; vence a partida quem alcança "
                                     "a meta primeiro."),
            "lowest_wins": Text("Each player scores the points left in their own hand; when "
                                 "someone reaches the target, the lowest total wins the match.",
                                 "Ognuno segna i punti delle carte rimaste nella propria mano; "
                                 "quando qualcuno raggiunge il limite, vince chi ha il totale "
                                 "più basso.",
                                 "Cada jogador marca os pontos que ficaram na própria mão; "
                                 "quando alguém alcança a meta, vence o menor total."),
            "elimination": Text("Each player scores the points left in their own hand; "
                                 "reaching the target puts a player out of the match, and the "
                                 "last player left wins.",
                                 "Ognuno segna i punti delle carte rimaste nella propria mano; "
                                 "chi raggiunge il limite è eliminato dalla partita e vince "
                                 "l'ultimo rimasto.",
                                 "Cada jogador marca os pontos que ficaram na própria mão; "
                                 "quem alcança o limite é eliminado da partida, e vence o "
                                 "último que restar."),
        },
    ),
    "target": OptionWords(
        Text("Target points", "Punti obiettivo", "Pontos da meta"),
        Text("The points that end the match: the score to reach, or the limit that "
              "eliminates.",
              "I punti che chiudono la partita: il punteggio da raggiungere o il limite che "
              "elimina.",
              "Os pontos que encerram a partida: a meta a alcançar ou o limite que elimina."),
        {N: Text("The match is played to {v}.", "La partita si gioca a {v}.",
                  "A partida vai até {v}.")},
        unit=_POINTS,
    ),
    "max_rounds": OptionWords(
        Text("Most rounds", "Manche al massimo", "Máximo de rodadas"),
        Text("The match also ends after this many rounds.",
              "La partita finisce anche dopo questo numero di manche.",
              "A partida também termina depois desse número de rodadas."),
        {
            None: Text("No limit on the number of rounds.", "Nessun limite di manche.",
                        "Sem limite de rodadas."),
            N: Text("The match also ends after {v}; the best total then wins.",
                     "La partita finisce anche dopo {v}; vince allora il totale migliore.",
                     "A partida também termina depois de {v}; vence então o melhor total."),
        },
        unit=Unit(Text("round", "manche", "rodada"), Text("rounds", "manche", "rodadas")),
        values={None: _NO_LIMIT},
    ),
    "teams": OptionWords(
        Text("Teams", "Squadre", "Equipes"),
        Text("Partners sit opposite and score together (4 or 6 players).",
              "I compagni siedono uno di fronte all'altro e segnano insieme (4 o 6 giocatori).",
              "Os parceiros sentam frente a frente e pontuam juntos (4 ou 6 jogadores)."),
        {
            "off": Text("Everyone plays for themselves.", "Ognuno gioca per sé.",
                         "Cada um joga por si."),
            "pairs": Text("Four or six players in teams of two, partners sitting opposite; a "
                           "round won by either partner scores the opponents' hands for both.",
                           "Quattro o sei giocatori a coppie, i compagni uno di fronte "
                           "all'altro; una manche vinta da uno dei due segna per entrambi i "
                           "punti delle mani avversarie.",
                           "Quatro ou seis jogadores em duplas, os parceiros frente a frente; "
                           "uma rodada vencida por um deles conta para os dois os pontos das "
                           "mãos adversárias."),
        },
    ),
    "flip_passes_hands": OptionWords(
        Text("Flip passes hands", "Flip passa le mani", "Flip passa as mãos"),
        Text("UNO Flip only: a Flip also passes every hand on (seed 003).",
              "Solo UNO Flip: un Flip fa anche passare tutte le mani (seed 003).",
              "Só UNO Flip: um Flip também passa todas as mãos (seed 003)."),
        {
            True: Text("After a Flip every player passes their hand to the next player in "
                        "the direction of play.",
                        "Dopo un Flip ogni giocatore passa la sua mano al successivo nel verso "
                        "di gioco.",
                        "Depois de um Flip cada jogador passa a sua mão ao seguinte no sentido "
                        "do jogo."),
            False: Text("A Flip turns the cards over; every hand stays with its player.",
                         "Un Flip gira le carte; ogni mano resta al suo giocatore.",
                         "Um Flip vira as cartas; cada mão fica com o seu jogador."),
        },
    ),
}

HEADINGS: dict[str, Text] = {
    "title": Text("unonet rules: {name}", "Regole di unonet: {name}", "Regras do unonet: {name}"),
    "official": Text(
        "The official UNO rules: match the top card by colour, number or symbol, or play a "
        "Wild; otherwise draw. Call UNO as you play your next-to-last card. The first player "
        "to empty their hand wins the round. RULEBOOK.md section 1 has them in full; the "
        "options below shape them.",
        "Le regole ufficiali di UNO: si gioca una carta dello stesso colore, numero o simbolo "
        "di quella in cima agli scarti, oppure un Jolly; altrimenti si pesca. Si dice UNO "
        "giocando la penultima carta. Chi resta per primo senza carte vince la manche. Il testo "
        "completo è nella sezione 1 di RULEBOOK.md; le opzioni qui sotto le precisano.",
        "As regras oficiais do UNO: joga-se uma carta da mesma cor, número ou símbolo da que "
        "está no topo do descarte, ou um Coringa; senão, compra-se. Diz-se UNO ao jogar a "
        "penúltima carta. Quem fica primeiro sem cartas vence a rodada. O texto completo está "
        "na seção 1 do RULEBOOK.md; as opções abaixo as definem.",
    ),
    "options": Text("Options (* differs from the official rules):",
                     "Opzioni (* diversa dalle regole ufficiali):",
                     "Opções (* diferente das regras oficiais):"),
    "official_value": Text("official: {v}", "ufficiale: {v}", "oficial: {v}"),
    "choices": Text("Where the rule sheets are silent, unonet decides:",
                     "Dove i regolamenti non dicono nulla, unonet decide così:",
                     "Onde as regras não dizem nada, o unonet decide assim:"),
    "and": Text(" and ", " e ", " e "),
    "custom": Text("custom", "personalizzate", "personalizadas"),
}


@dataclass(frozen=True)
class ChoicePart:
    """A piece of a choice's text and the rule sets it concerns."""

    applies: Callable[[RuleSet], bool]
    text: Text


@dataclass(frozen=True)
class Choice:
    """A rule the sources leave open, as decided (RULEBOOK.md section 6.number).

    `lead` is always said when any part applies; the parts follow it, each joined with
    `joiner`, and `close` ends the paragraph.
    """

    number: int
    title: Text
    lead: Text
    parts: tuple[ChoicePart, ...]
    joiner: str = " "
    close: str = ""


def _always(_: RuleSet) -> bool:
    return True


def _stacking(r: RuleSet) -> bool:
    return r.stacking != "off"


def _pending_draws(r: RuleSet) -> bool:
    return r.stacking != "off" or r.deflect


_E = Text("", "", "")  # a choice whose parts carry all its text

CHOICES: tuple[Choice, ...] = (
    Choice(1, Text("Stacking", "Risposte", "Acúmulo"), _E, (ChoicePart(_stacking, Text(
        "A stacked card needs no colour match. Under same kind, a Draw Two answers a Draw Two "
        "and a Wild Draw Four a Wild Draw Four; under escalating, any draw card worth at least "
        "the last one answers it. Unless wild on coloured is allowed, a wild draw card never "
        "answers a coloured one, nor a coloured one a wild. The player facing the pending total "
        "stacks on it, deflects it (with deflect) or accepts: accepting takes the whole total "
        "and loses the turn. Accepting ends the chain, so the next draw card starts a new one.",
        "La carta di risposta non deve rispettare il colore. Con «stesso tipo» si risponde a "
        "un +2 con un +2 e a un Jolly +4 con un Jolly +4; con «crescente» si risponde con "
        "qualsiasi carta Più che valga almeno quanto l'ultima. Se il Jolly su carte colorate "
        "non è permesso, un Jolly +4 non risponde mai a un +2, né un +2 a un Jolly +4. Chi ha "
        "davanti il totale da pescare risponde, lo devia (con le risposte avanzate) oppure "
        "accetta: prende tutte le carte e salta il turno. Chi accetta chiude la catena: la "
        "carta Più seguente ne apre una nuova.",
        "A carta acumulada não precisa combinar na cor. Com «mesmo tipo», responde-se a um +2 "
        "com um +2 e a um Coringa +4 com um Coringa +4; com «crescente», com qualquer carta de "
        "compra que valha pelo menos tanto quanto a última. Se o coringa sobre carta colorida "
        "não for permitido, um Coringa +4 nunca responde a um +2, nem um +2 a um Coringa +4. "
        "Quem tem o total pendente acumula, desvia (com desvio) ou aceita: compra o total e "
        "perde a vez. Aceitar encerra a cadeia: a próxima carta de compra começa outra.",
    )),)),
    Choice(2, Text("Challenging a stacked Wild Draw Four", "Contestare un Jolly +4 in una catena",
                    "Desafiar um Coringa +4 acumulado"), _E, (ChoicePart(
        lambda r: r.stacking != "off" and r.wd4_policy == "challenge", Text(
            "A Wild Draw Four stays open to challenge when stacked. The player it falls on "
            "faces the whole pending total and may challenge, accept it, or stack on it "
            "(giving up the challenge). Guilty: the bluffer draws the whole total plus the "
            "extra cards for a bluff, and the challenger then plays a normal turn. Innocent: "
            "the challenger draws the total plus 2 and loses the turn.",
            "Un Jolly +4 giocato in risposta si può ancora contestare. Chi se lo vede arrivare "
            "ha davanti tutto il totale e può contestare, accettare o rispondere a sua volta "
            "(rinunciando a contestare). Se il bluff è scoperto, chi ha bluffato pesca tutto il "
            "totale più le carte extra per il bluff e chi ha contestato gioca normalmente il "
            "suo turno. Se non c'era bluff, chi ha contestato pesca il totale più 2 e salta il "
            "turno.",
            "Um Coringa +4 acumulado ainda pode ser desafiado. Quem o recebe tem diante de si "
            "todo o total e pode desafiar, aceitar ou acumular por cima (desistindo do "
            "desafio). Se o blefe for descoberto, quem blefou compra todo o total mais as "
            "cartas extras pelo blefe, e quem desafiou joga a sua vez normalmente. Se não havia "
            "blefe, quem desafiou compra o total mais 2 e perde a vez.",
        )),)),
    Choice(3, Text("Deflecting", "Risposte avanzate", "Desvio"), _E, (ChoicePart(
        lambda r: r.deflect, Text(
            "While a draw is pending (to stack on or to challenge), a Skip of any colour "
            "passes it to the player after the deflector, who is not skipped but now faces it; "
            "a Reverse turns the direction of play and the draw goes to the next player in the "
            "new direction; with Buzzer cards, a Buzzer passes it on like a Skip once its race "
            "is over. A deflection is offered only when the draw would not come straight back "
            "to the deflector.",
            "Finché c'è un obbligo di pescare (a cui rispondere o da contestare), un Salta di "
            "qualsiasi colore lo passa al giocatore dopo chi l'ha giocato, che non salta il "
            "turno ma deve ora rispondere; un Inverti cambia il senso del gioco e l'obbligo va "
            "al giocatore seguente nel nuovo senso; con le carte Buzzer, un Buzzer lo passa "
            "avanti come un Salta, finita la gara. La deviazione è possibile solo se l'obbligo "
            "non tornerebbe subito a chi devia.",
            "Enquanto há uma compra pendente (para acumular ou desafiar), um Pular de qualquer "
            "cor a passa ao jogador depois de quem o jogou, que não perde a vez, mas passa a "
            "enfrentá-la; um Inverter muda o sentido do jogo e a compra vai para o próximo "
            "jogador no novo sentido; com cartas Buzzer, um Buzzer a passa adiante como um "
            "Pular, terminada a disputa. O desvio só é oferecido se a compra não voltasse "
            "direto para quem desvia.",
        )),)),
    Choice(4, Text("A draw card as the last card", "Una carta Più come ultima carta",
                    "Carta de compra como última carta"), _E, (
        ChoicePart(lambda r: r.stacking != "off" and not r.deflect, Text(
            "Without deflect, a Draw Two or Wild Draw Four played as the last card ends the "
            "round at once: the next player still takes the whole pending total, and those "
            "cards count in the score.",
            "Senza risposte avanzate, un +2 o un Jolly +4 giocato come ultima carta chiude "
            "subito la manche: il giocatore seguente pesca comunque tutto il totale e quelle "
            "carte contano nel punteggio.",
            "Sem desvio, um +2 ou Coringa +4 jogado como última carta encerra a rodada na "
            "hora: o próximo jogador ainda compra todo o total, e essas cartas contam na "
            "pontuação.",
        )),
        ChoicePart(lambda r: r.deflect, Text(
            "With deflect, the round goes on until the draw is taken, the player with no cards "
            "being passed over; then the round ends with that player as the winner.",
            "Con le risposte avanzate la manche continua finché le carte non sono state "
            "pescate, saltando chi non ha più carte; poi la manche finisce e la vince lui.",
            "Com desvio, a rodada continua até a compra ser feita, pulando quem já não tem "
            "cartas; depois a rodada acaba e ele é o vencedor.",
        )),
    )),
    Choice(5, Text("Jumping in", "Intercettazioni", "Jogar fora da vez"), _E, (ChoicePart(
        lambda r: r.jump_in != "off", Text(
            "Anyone but the current player and the player of the top card may jump in while the "
            "current player is to play, or faces a pending draw, and has not drawn yet. The "
            "card then acts as if played in the jumper's own turn, and play goes on from the "
            "jumper: the player after them plays next (seed 003's 'may play again at once' is "
            "read as the jump-in being the jumper's play, not a second one). An out-of-turn "
            "play of a "
            "card one holds that comes too late or does not match is refused and costs the "
            "jump-in penalty in points: added to the player's score or, under winner collects, "
            "taken off it (never below 0).",
            "Chiunque tranne il giocatore di turno e chi ha giocato la carta in cima può "
            "intercettare finché il giocatore di turno deve ancora giocare, o rispondere a un "
            "obbligo di pescare, e non ha ancora pescato. La carta ha allora effetto come se "
            "fosse giocata nel turno di chi intercetta, e il gioco riprende da lui: tocca a chi "
            "lo segue (il 'può rigiocare subito' di seed 003 è letto come l'intercettazione "
            "stessa, non come una seconda giocata). Una carta giocata fuori turno troppo "
            "tardi, o che non "
            "corrisponde, viene rifiutata e costa la penalità di intercettazione in punti: "
            "aggiunti al punteggio del giocatore o, se il vincitore incassa, tolti dal suo "
            "punteggio (mai sotto 0).",
            "Qualquer jogador, exceto o da vez e quem jogou a carta do topo, pode jogar fora da "
            "vez enquanto o jogador da vez ainda vai jogar, ou enfrenta uma compra pendente, e "
            "ainda não comprou. A carta então vale como se fosse jogada na vez de quem a jogou, "
            "e o jogo segue a partir dele: joga o seguinte (o 'pode jogar de novo' do seed 003 "
            "é lido como a própria jogada fora da vez, não uma segunda). Uma carta jogada fora "
            "da vez tarde demais, ou que não corresponde, é "
            "recusada e custa a penalidade em pontos: somados aos pontos do jogador ou, quando "
            "o vencedor soma, descontados deles (nunca abaixo de 0).",
        )),)),
    Choice(6, Text("The sequence window", "La finestra della scala", "A janela da sequência"),
           _E, (ChoicePart(
        lambda r: r.sequences, Text(
            "A run is played as one move. After a play that ended on a number, its player may "
            "still add the next number of the run in the same colour (either way after a "
            "single card, the run's own way after a run), out of turn, until the next player "
            "acts.",
            "Una scala si gioca in una sola mossa. Dopo una giocata finita su un numero, chi "
            "l'ha fatta può ancora aggiungere il numero seguente della scala nello stesso "
            "colore (in un senso o nell'altro dopo una carta sola, nel senso della scala dopo "
            "una scala), anche fuori turno, finché il giocatore successivo non agisce.",
            "Uma sequência é jogada num só lance. Depois de uma jogada que terminou num número, "
            "quem a fez ainda pode acrescentar o número seguinte da sequência na mesma cor (em "
            "qualquer direção depois de uma carta só, na direção da sequência depois de uma "
            "sequência), mesmo fora da vez, até o próximo jogador agir.",
        )),)),
    Choice(7, Text("Multiples", "Carte multiple", "Cartas iguais juntas"), _E, (ChoicePart(
        lambda r: r.multiples, Text(
            "Two or more number cards of the same number, in any colours, go down as one move, "
            "the first matching the top card; the colour in play becomes the last card's. When "
            "finishing with several cards is off, such a play may not empty the hand.",
            "Due o più carte con lo stesso numero, di qualsiasi colore, si giocano in una sola "
            "mossa, con la prima giocabile sulla carta in cima; il colore in gioco diventa "
            "quello dell'ultima. Se chiudere con più carte non è permesso, una giocata del "
            "genere non può svuotare la mano.",
            "Duas ou mais cartas do mesmo número, de qualquer cor, vão à mesa num só lance, com "
            "a primeira jogável sobre a do topo; a cor em jogo passa a ser a da última. Se "
            "terminar com várias cartas não for permitido, esse lance não pode esvaziar a mão.",
        )),)),
    Choice(8, Text("Seven and zero", "Regola dello 0/7", "Regra do 7 e do 0"), _E, (ChoicePart(
        lambda r: r.seven_zero, Text(
            "A 0 passes every hand to the next player in the direction of play; a 7 lets its "
            "player pick any other player still in the round and swap hands with them. Play "
            "then goes on as after any number. A 7 or 0 played as the last card ends the round "
            "without its effect. Whoever ends up with one card after a swap or a pass must "
            "call UNO like anyone else.",
            "Con uno 0 ogni giocatore passa la sua mano al seguente nel senso del gioco; con "
            "un 7 chi lo gioca sceglie un altro giocatore ancora in gioco e scambia con lui la "
            "mano. Poi il gioco prosegue come dopo un numero qualsiasi. Un 7 o uno 0 giocato "
            "come ultima carta chiude la manche senza effetto. Chi si ritrova con una carta "
            "dopo uno scambio o un passaggio deve dire UNO come tutti.",
            "Com um 0, cada jogador passa a sua mão ao seguinte no sentido do jogo; com um 7, "
            "quem o joga escolhe outro jogador ainda na rodada e troca de mão com ele. Depois o "
            "jogo segue como após qualquer número. Um 7 ou 0 jogado como última carta encerra "
            "a rodada sem efeito. Quem fica com uma carta depois de uma troca ou passagem deve "
            "dizer UNO como qualquer um.",
        )),)),
    Choice(9, Text("Buzzers", "Buzzer", "Buzzer"), _E, (ChoicePart(
        lambda r: r.buzzers, Text(
            "A Buzzer has no colour, goes on anything, is worth 0 points, and leaves the colour "
            "in play as it was. When one is played, a race opens: every player still in the "
            "round, the Buzzer's player included, presses B. When all have pressed, the last to "
            f"press draws 2; if the host's window of {BUZZER_WINDOW_SECONDS} seconds closes "
            "first, everyone who has not pressed draws 2. Play then goes on from the next "
            "player. A Buzzer played as the last card ends the round without a race; turned as "
            "the first card, it has no race and, like a Wild, the first player names the colour.",
            "Il Buzzer non ha colore, si gioca su qualsiasi carta, vale 0 punti e lascia "
            "invariato il colore in gioco. Quando se ne gioca uno si apre una gara: tutti i "
            "giocatori ancora in gioco, compreso chi l'ha giocato, premono B. Quando hanno "
            "premuto tutti, l'ultimo pesca 2 carte; se prima si chiude la finestra di "
            f"{BUZZER_WINDOW_SECONDS} secondi dell'host, pesca 2 carte chi non ha premuto. Poi "
            "il gioco riprende dal giocatore seguente. Un Buzzer giocato come ultima carta "
            "chiude la manche senza gara; se è la prima carta scoperta non c'è gara e, come per "
            "un Jolly, il primo giocatore sceglie il colore.",
            "O Buzzer não tem cor, vai sobre qualquer carta, vale 0 pontos e deixa a cor em "
            "jogo como estava. Quando um é jogado, abre-se uma disputa: todos os jogadores "
            "ainda na rodada, inclusive quem o jogou, apertam B. Quando todos apertaram, o "
            f"último compra 2; se antes se fechar a janela de {BUZZER_WINDOW_SECONDS} segundos "
            "do host, compra 2 quem não apertou. Depois o jogo segue a partir do próximo "
            "jogador. Um Buzzer jogado como última carta encerra a rodada sem disputa; virado "
            "como primeira carta, não há disputa e, como com um Coringa, o primeiro jogador "
            "escolhe a cor.",
        )),)),
    Choice(10, Text("The hand limit", "Troppe carte in mano", "Limite de cartas na mão"), _E, (
        ChoicePart(lambda r: r.max_hand is not None, Text(
            "The limit is checked after any draw, swap or pass. A player at the limit or over "
            "it is out for the round: the cards go face down under the draw pile and the "
            "player is charged the penalty. Under winner collects, the round's winner collects "
            "the penalty in place of that hand; under lowest wins and elimination, the player "
            "out scores it. The last player left in the round wins it.",
            "Il limite si controlla dopo ogni pescata, scambio o passaggio di mani. Chi "
            "raggiunge o supera il limite è eliminato per la manche: le sue carte vanno coperte "
            "sotto il mazzo e subisce la penalità. Se il vincitore incassa, chi vince la manche "
            "incassa la penalità al posto di quella mano; se vince il più basso o con "
            "l'eliminazione, la penalità va a chi è uscito. L'ultimo rimasto in gioco vince la "
            "manche.",
            "O limite é verificado depois de cada compra, troca ou passagem de mãos. Quem chega "
            "ao limite ou passa dele sai da rodada: as cartas vão viradas para baixo sob o "
            "monte de compra e o jogador paga a penalidade. Quando o vencedor soma, o vencedor "
            "da rodada soma a penalidade no lugar daquela mão; quando o menor vence ou com "
            "eliminação, a penalidade fica com quem saiu. O último que resta na rodada a vence.",
        )),)),
    Choice(11, Text("Stalemate", "Stallo", "Impasse"), _E, (ChoicePart(_always, Text(
        "If every player still in the round, one after the other, draws and finds no card "
        "left to draw (every card is in a hand or on the discard pile's top), the round ends: "
        "the player holding the fewest points wins it (the first in turn order on a tie).",
        "Se tutti i giocatori ancora in gioco, uno dopo l'altro, pescano e non trovano più "
        "nessuna carta da pescare (sono tutte in mano o in cima agli scarti), la manche "
        "finisce: la vince chi ha in mano meno punti (a parità, il primo nell'ordine di gioco).",
        "Se todos os jogadores ainda na rodada, um após o outro, compram e não encontram "
        "carta para comprar (estão todas nas mãos ou no topo do descarte), a rodada termina: "
        "vence quem tem menos pontos na mão (em caso de empate, o primeiro na ordem de jogo).",
    )),)),
    Choice(12, Text("Elimination and the round limit", "Eliminazione e numero di manche",
                     "Eliminação e limite de rodadas"), _E, (
        ChoicePart(lambda r: r.scoring == "elimination", Text(
            "Under elimination, everyone keeps their own points as under lowest wins; a player "
            "who reaches the target is out of the match: no longer dealt in, and the deal "
            "passes over them. The last player left wins the match.",
            "Con l'eliminazione ognuno tiene i propri punti, come quando vince il più basso; "
            "chi raggiunge il limite esce dalla partita: non riceve più carte e il turno di "
            "mazziere lo salta. L'ultimo rimasto vince la partita.",
            "Com eliminação, cada um fica com os próprios pontos, como quando o menor vence; "
            "quem alcança o limite sai da partida: não recebe mais cartas e a vez de dar as "
            "cartas pula ele. O último que restar vence a partida.",
        )),
        ChoicePart(lambda r: r.max_rounds is not None, Text(
            "With a round limit, the match also ends after that many rounds; then the lowest "
            "total wins (lowest wins, elimination) or the highest (winner collects).",
            "Con un limite di manche, la partita finisce anche dopo quel numero di manche; "
            "vince allora il totale più basso (vince il più basso, eliminazione) o il più alto "
            "(il vincitore incassa).",
            "Com limite de rodadas, a partida também termina depois desse número de rodadas; "
            "vence então o menor total (o menor vence, eliminação) ou o maior (o vencedor "
            "soma).",
        )),
    )),
    Choice(13, Text("Teams", "Coppie", "Duplas"), _E, (ChoicePart(
        lambda r: r.teams == "pairs", Text(
            "Teams of two are for 4 or 6 players, partners sitting opposite (seat s with seat s "
            "plus half the table), and only with winner collects (any other scoring is refused "
            "by name). A round won by either partner scores the opponents' hands only, credited "
            "to both partners. The match ends when a team reaches the target; the player who "
            "won the last round wins, together with their partner.",
            "Le coppie si formano con 4 o 6 giocatori, i compagni uno di fronte all'altro (il "
            "posto s con il posto s più metà tavolo), e solo quando il vincitore incassa (con "
            "un altro punteggio l'opzione è rifiutata). Una manche vinta da uno dei due "
            "compagni segna solo i punti delle mani avversarie, accreditati a entrambi. La "
            "partita finisce quando una coppia raggiunge l'obiettivo; vince chi ha vinto "
            "l'ultima manche, insieme al compagno.",
            "As duplas são para 4 ou 6 jogadores, com os parceiros frente a frente (o lugar s "
            "com o lugar s mais metade da mesa), e só quando o vencedor soma (com outra "
            "pontuação a opção é recusada). Uma rodada vencida por qualquer dos parceiros conta "
            "só os pontos das mãos adversárias, creditados aos dois. A partida termina quando "
            "uma dupla alcança a meta; vence quem ganhou a última rodada, junto com o parceiro.",
        )),)),
    Choice(14, Text("Time-outs", "Tempo scaduto", "Tempo esgotado"), Text(
        "When a player's time runs out (the time to act, or the host's own limit on a "
        "decision), the host acts for them:",
        "Quando il tempo di un giocatore scade (il tempo di riflessione, o il limite dell'host "
        "per una decisione), l'host agisce al suo posto:",
        "Quando o tempo de um jogador acaba (o tempo para agir, ou o limite do host para uma "
        "decisão), o host age por ele:",
    ), (
        ChoicePart(_always, Text("on a turn, draw one card and pass",
                                  "nel turno, pesca una carta e passa",
                                  "na vez, compra uma carta e passa")),
        ChoicePart(_always, Text("naming a colour, the colour held most",
                                  "nella scelta del colore, il colore che ha di più in mano",
                                  "na escolha da cor, a cor que mais tem na mão")),
        ChoicePart(lambda r: r.wd4_policy == "challenge", Text(
            "facing a Wild Draw Four that may be challenged, accept it",
            "davanti a un Jolly +4 che si può contestare, lo accetta",
            "diante de um Coringa +4 que pode ser desafiado, aceita-o")),
        ChoicePart(_pending_draws, Text(
            "facing a pending total, take it",
            "davanti a un totale da pescare, lo pesca",
            "diante de um total pendente, compra-o")),
        ChoicePart(lambda r: r.seven_zero, Text(
            "picking whom a 7 swaps with, the player with the fewest cards (the first in turn "
            "order on a tie)",
            "nella scelta dello scambio del 7, il giocatore con meno carte (a parità, il primo "
            "nell'ordine di gioco)",
            "na escolha da troca do 7, o jogador com menos cartas (em caso de empate, o "
            "primeiro na ordem de jogo)")),
        ChoicePart(lambda r: r.buzzers, Text(
            "in a buzzer race, everyone who has not pressed draws 2",
            "nella gara del Buzzer, chi non ha premuto pesca 2 carte",
            "na disputa do Buzzer, quem não apertou compra 2")),
    ), joiner="; ", close="."),
    Choice(15, Text("Races and windows", "Gare e finestre", "Disputas e janelas"), _E, (
        ChoicePart(_always, Text(
            "Some actions race each other: the host decides every race by the order in which "
            "it receives the actions, and a client sees only the outcome. The UNO call races "
            "the catch: a catch counts from the moment the next-to-last card lands until the "
            "next player acts.",
            "Alcune azioni fanno a gara tra loro: l'host decide ogni gara secondo l'ordine in "
            "cui riceve le azioni, e un client vede solo il risultato. Dire UNO fa a gara con "
            "l'accusa: si può accusare dal momento in cui la penultima carta arriva sul tavolo "
            "finché il giocatore seguente non agisce.",
            "Algumas ações disputam entre si: o host decide cada disputa pela ordem em que "
            "recebe as ações, e um cliente vê só o resultado. Dizer UNO disputa com a acusação: "
            "pode-se acusar desde que a penúltima carta chega à mesa até o próximo jogador "
            "agir.",
        )),
        ChoicePart(lambda r: r.jump_in != "off", Text(
            "A jump-in on a card is possible until the player whose turn it is acts; of two "
            "jump-ins on the same card, the first to arrive plays and the other is too late.",
            "Si può intercettare una carta finché il giocatore di turno non agisce; di due "
            "intercettazioni sulla stessa carta gioca quella che arriva per prima, l'altra "
            "arriva troppo tardi.",
            "Pode-se jogar fora da vez sobre uma carta até o jogador da vez agir; de duas "
            "jogadas fora da vez sobre a mesma carta, vale a que chega primeiro, a outra chega "
            "tarde demais.",
        )),
        ChoicePart(lambda r: r.sequences, Text(
            "The sequence window stays open until the next player acts; if the next number of "
            "the run and the next player's action arrive together, the first to reach the host "
            "counts.",
            "La finestra della scala resta aperta finché il giocatore seguente non agisce; se "
            "il numero seguente della scala e la mossa del giocatore seguente arrivano insieme, "
            "conta quello che raggiunge l'host per primo.",
            "A janela da sequência fica aberta até o próximo jogador agir; se o número seguinte "
            "da sequência e o lance do próximo jogador chegam juntos, vale o que chegar "
            "primeiro ao host.",
        )),
        ChoicePart(lambda r: r.buzzers, Text(
            f"The buzzer window lasts {BUZZER_WINDOW_SECONDS} seconds; the order of the presses "
            "is their order of arrival.",
            f"La finestra del Buzzer dura {BUZZER_WINDOW_SECONDS} secondi; l'ordine delle "
            "pressioni è il loro ordine di arrivo.",
            f"A janela do Buzzer dura {BUZZER_WINDOW_SECONDS} segundos; a ordem dos toques é a "
            "ordem de chegada.",
        )),
    )),
)
