"""Every rule option, declared once: its name, type, values, default, source, its words in
English, Italian and Portuguese, and what the documents and tests say of it.

From these declarations come the RuleSet's fields and the option types (a generated section of
unonet/rules.py), `unonet.rules.OPTIONS` (what `--set`, the lobby's rule editor and the host
check values against), the words of `unonet rules` and RULEBOOK.md section 2 (unonet.rulebook),
SPEC.md 9.6's table, README's table of options, and the hypothesis strategies of
tests/test_properties.py (`trial`, `house_trial`). tests/test_options.py holds every generated
text to these declarations (`python tests/test_options.py` rewrites them), and fails for an
option that no property test draws without saying why (`untried`).

So an option is added here (and its effect as a step in unonet/effects.py, its scenario test
beside the others): nowhere else.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from unonet.option_words import ANY_NUMBER, Inert, OptionWords, Text, Unit

__all__ = ["BUZZER_WINDOW_SECONDS", "DECLARED", "README_GROUPS", "Option"]

BUZZER_WINDOW_SECONDS = 5
"""How long the host keeps a buzzer race open (choices.md 9: the host's BUZZER_WINDOW): long
enough to see the Buzzer land and press B over a slow link, short enough to stay a race."""


@dataclass(frozen=True)
class Option:
    """One option. `type` is its RuleSet field's annotation as written there (a name of
    `LITERALS` for a choice of words), `choices` its values when it has a list of them, else
    `minimum`..`maximum` (`nullable`: None too, said `off`; `also`: other values beside the
    range). `spec` is SPEC.md 9.6's Meaning cell; `group` and `readme` its row and note in
    README's table ("" keeps it out: a variant's own); `trial` and `house_trial` the values
    tests/test_properties.py draws with the official options and with the house rules, and
    `untried` why no property test draws it there."""

    name: str
    type: str
    default: Any
    source: str
    words: OptionWords
    spec: str
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    nullable: bool = False
    also: tuple[Any, ...] = ()
    group: str = ""
    readme: str = ""
    trial: Sequence[Any] = ()
    house_trial: Sequence[Any] = ()
    untried: str = ""


_BOTH = (True, False)
_CARDS = Unit(Text("card", "carta", "carta"), Text("cards", "carte", "cartas"))
_POINTS = Unit(Text("point", "punto", "ponto"), Text("points", "punti", "pontos"))
_NO_LIMIT = Text("no limit", "nessun limite", "sem limite")
N = ANY_NUMBER

README_GROUPS = (
    "the deck and the table",
    "drawing",
    "draw cards",
    "out of turn",
    "several cards at once",
    "special effects",
    "UNO",
    "ending",
    "the match",
)
"""The rows of README's table of options, in order."""

VARIANT = Option(
    "variant",
    type="Variant",
    default="classic",
    source="RULEBOOK 3-4",
    choices=("classic", "flip", "no_mercy"),
    spec=(
        "the game: classic UNO, UNO Flip or UNO Show 'Em No Mercy (their decks in section 10, "
        "their events in 9.2). A variant sets the options its rules fix and refuses any other "
        "value of them with `invalid_rules`, even one given in `options` that is the official "
        "default (No Mercy refuses `draw_when_playable: \"allowed\"`, which it would otherwise "
        "play as forbidden). An option it only starts with (No Mercy's defaults, 9.2) takes the "
        "variant's value when a table takes the variant up, and any value given replaces it "
        "(RULEBOOK.md sections 3 and 4)"
    ),
    untried=(
        "each variant has its own property tests "
        "(tests/test_flip_properties.py, tests/test_no_mercy_properties.py)"
    ),
    words=OptionWords(
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
                "UNO Show 'Em No Mercy: 168 cards, draw cards up to +10, Discard All, Color "
                "Roulette; Mattel's rules by default, each an option: escalating stacks, 7-0, "
                "draw until playable and the Mercy rule (25 cards put a player out). "
                "RULEBOOK.md section 4.",
                "UNO Senza pietà: 168 carte, carte Più fino a +10, Getta tutto, Roulette dei "
                "colori; di norma le regole di Mattel, ognuna un'opzione: risposte crescenti, "
                "7-0, pescare finché si può giocare e la regola della pietà (con 25 carte si è "
                "fuori). RULEBOOK.md sezione 4.",
                "UNO Sem Piedade: 168 cartas, cartas de compra até +10, Descartar Tudo, Roleta "
                "de Cores; por padrão as regras da Mattel, cada uma uma opção: acúmulo "
                "crescente, 7-0, comprar até poder jogar e a regra da misericórdia (com 25 "
                "cartas se está fora). RULEBOOK.md seção 4."),
        },
    ),
)

HAND_SIZE = Option(
    "hand_size",
    type="int",
    default=7,
    source="003",
    minimum=1,
    maximum=20,
    spec="cards dealt to each player",
    group="the deck and the table",
    trial=(7, *range(1, 13)),
    words=OptionWords(
        Text("Cards dealt", "Carte distribuite", "Cartas distribuídas"),
        Text("How many cards each player is dealt at the start of a round.",
              "Quante carte il mazziere distribuisce a ciascun giocatore all'inizio della manche.",
              "Quantas cartas cada jogador recebe no início da rodada."),
        {N: Text("Each player is dealt {v} at the start of a round.",
                  "Ogni giocatore riceve {v} all'inizio della manche.",
                  "Cada jogador recebe {v} no início da rodada.")},
        unit=_CARDS,
    ),
)

DECKS = Option(
    "decks",
    type="int",
    default=1,
    source="003",
    minimum=1,
    maximum=4,
    spec="decks shuffled together",
    group="the deck and the table",
    trial=range(1, 3),
    words=OptionWords(
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
)

COLORS = Option(
    "colors",
    type="int",
    default=4,
    source="003",
    minimum=4,
    maximum=8,
    spec="colours in the deck (orange, purple, pink, cyan added in that order)",
    group="the deck and the table",
    trial=range(4, 9),
    words=OptionWords(
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
)

MAX_PLAYERS = Option(
    "max_players",
    type="int",
    default=10,
    source="000",
    minimum=2,
    maximum=10,
    spec="most seats at the table",
    group="the deck and the table",
    untried="the tests draw the seat count itself, up to the most seats",
    words=OptionWords(
        Text("Most players", "Giocatori al massimo", "Máximo de jogadores"),
        Text("The most seats a table may have; the deck must hold every hand.",
              "Il numero massimo di posti al tavolo; il mazzo deve bastare per tutte le mani.",
              "O número máximo de lugares na mesa; o baralho tem de bastar para todas as mãos."),
        {N: Text("A table seats 2 to {n} players.", "Al tavolo siedono da 2 a {n} giocatori.",
                  "A mesa recebe de 2 a {n} jogadores.")},
        unit=Unit(Text("player", "giocatore", "jogador"),
                  Text("players", "giocatori", "jogadores")),
    ),
)

DRAW_WHEN_PLAYABLE = Option(
    "draw_when_playable",
    type="DrawWhenPlayable",
    default="allowed",
    source="000, 003, 004",
    choices=("allowed", "forbidden", "penalty"),
    spec=(
        "may a player draw while holding a playable card; `penalty`: yes, and then draws "
        "`uno_penalty` cards more (`cards_drawn` reason `penalty_draw`)"
    ),
    group="drawing",
    readme="`penalty`: allowed at a price, seed 004",
    trial=("allowed", "forbidden", "penalty"),
    words=OptionWords(
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
            "penalty": Text("A player may draw while holding a playable card, but then draws "
                             "as many cards more as the UNO penalty.",
                             "Si può pescare anche avendo una carta giocabile, ma poi si pescano "
                             "altrettante carte quante la penalità per UNO.",
                             "Pode-se comprar tendo uma carta jogável, mas uma penalização é "
                             "aplicada: compram-se tantas cartas quanto a penalidade do UNO."),
        },
        values={"penalty": Text("with a penalty", "con penalità", "com penalização")},
    ),
)

PLAY_AFTER_DRAW = Option(
    "play_after_draw",
    type="bool",
    default=True,
    source="003",
    choices=_BOTH,
    spec="may the drawn card be played in the same turn",
    group="drawing",
    trial=_BOTH,
    words=OptionWords(
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
)

DRAW_UNTIL_PLAYABLE = Option(
    "draw_until_playable",
    type="bool",
    default=False,
    source="003, 004",
    choices=_BOTH,
    spec="draw until a playable card comes",
    group="drawing",
    trial=_BOTH,
    words=OptionWords(
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
)

MAX_DRAWS_PER_TURN = Option(
    "max_draws_per_turn",
    type="int",
    default=1,
    source="003",
    minimum=1,
    maximum=10,
    spec="cards a player may draw in a turn before passing",
    group="drawing",
    trial=range(1, 4),
    words=OptionWords(
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
)

STACKING = Option(
    "stacking",
    type="Stacking",
    default="off",
    source="000, 003",
    choices=("off", "same_kind", "escalating"),
    spec="answer a pending draw with another draw card (9.5, `stack`)",
    group="draw cards",
    readme="`same_kind`, `escalating`",
    house_trial=("off", "same_kind", "escalating"),
    words=OptionWords(
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
)

STACK_MIX_WILD = Option(
    "stack_mix_wild",
    type="bool",
    default=True,
    source="003",
    choices=_BOTH,
    spec="may a wild draw card answer a coloured one, and the reverse",
    group="draw cards",
    house_trial=_BOTH,
    words=OptionWords(
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
)

DEFLECT = Option(
    "deflect",
    type="bool",
    default=False,
    source="003",
    choices=_BOTH,
    spec=(
        "a Skip passes a pending draw on, a Reverse turns it back, a Buzzer passes it on "
        "after its race; with or without `stacking`, every draw card's draw waits for an "
        "answer (9.5, `stack`)"
    ),
    group="draw cards",
    readme="Skip, Reverse and Buzzer pass a pending draw on",
    house_trial=_BOTH,
    words=OptionWords(
        Text("Deflect with Skip/Reverse", "Risposte avanzate", "Desviar com Pular/Inverter"),
        Text("A Skip or Reverse (and a Buzzer) passes a pending draw on to another player "
              "instead of taking it.",
              "Un Salta o un Inverti (e un Buzzer) passa l'obbligo di pescare a un altro "
              "giocatore.",
              "Um Pular ou Inverter (e um Buzzer) passa a compra pendente para outro jogador."),
        {
            True: Text("A Skip of any colour passes a pending draw on, a Reverse sends it the "
                        "other way, a Buzzer passes it on too, with or without stacking: every "
                        "draw card's draw waits for an answer; a draw card played as the last "
                        "card ends the round only once the draw is taken.",
                        "Un Salta di qualsiasi colore passa avanti l'obbligo di pescare, un "
                        "Inverti lo rimanda indietro, anche un Buzzer lo passa avanti, con o "
                        "senza risposte: ogni carta Più aspetta una risposta; se l'ultima carta "
                        "è una carta Più, la manche finisce solo quando le carte sono state "
                        "pescate.",
                        "Um Pular de qualquer cor passa adiante a compra pendente, um Inverter "
                        "a devolve, um Buzzer também a passa adiante, com ou sem acúmulo: toda "
                        "carta de compra espera uma resposta; se a última carta for de compra, "
                        "a rodada só acaba depois que as cartas forem compradas."),
            False: Text("A pending draw is answered only by stacking, where allowed, or "
                         "taken.",
                         "A un obbligo di pescare si risponde solo con una carta Più, se "
                         "permesso, oppure si pesca.",
                         "Uma compra pendente só se responde acumulando, se permitido, ou "
                         "comprando."),
        },
    ),
)

JUMP_IN = Option(
    "jump_in",
    type="JumpIn",
    default="off",
    source="003",
    choices=("off", "identical", "same_face"),
    spec=(
        "play out of turn a card identical to the top card, or of the same number or symbol "
        "(section 14)"
    ),
    group="out of turn",
    readme="`identical`, `same_face`",
    house_trial=("off", "identical", "same_face"),
    words=OptionWords(
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
)

JUMP_IN_PENALTY = Option(
    "jump_in_penalty",
    type="int",
    default=3,
    source="003",
    minimum=0,
    maximum=100,
    spec="points for an out-of-turn play refused as too late or not matching",
    group="out of turn",
    house_trial=range(0, 6),
    words=OptionWords(
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
)

WD4_POLICY = Option(
    "wd4_policy",
    type="Wd4Policy",
    default="challenge",
    source="003",
    choices=("challenge", "enforce", "free"),
    spec=(
        "Wild Draw Four: a bluff that may be challenged, refused when illegal, or always "
        "allowed"
    ),
    group="draw cards",
    trial=("challenge", "enforce", "free"),
    words=OptionWords(
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
)

CHALLENGE_GUILTY_EXTRA = Option(
    "challenge_guilty_extra",
    type="int",
    default=0,
    source="003",
    minimum=0,
    maximum=2,
    spec="extra cards a caught bluffer draws",
    group="draw cards",
    trial=range(0, 3),
    words=OptionWords(
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
)

CHALLENGE_BY = Option(
    "challenge_by",
    type="ChallengeBy",
    default="next_player",
    source="003",
    choices=("next_player", "anyone"),
    spec=(
        "who may challenge a Wild Draw Four: the player who must draw, or any other player but "
        "its own (9.5, `challenge`); the cards go to whoever loses the challenge"
    ),
    group="draw cards",
    readme="`anyone`, seed 003",
    house_trial=("next_player", "anyone"),
    words=OptionWords(
        Text("Who may call a bluff", "Chi può denunciare il bluff", "Quem pode denunciar o blefe"),
        Text("Who may challenge a wild draw card as a bluff.",
              "Chi può denunciare come bluff una carta Più jolly.",
              "Quem pode desafiar como blefe uma carta coringa de compra."),
        {
            "next_player": Text("Only the player who must draw may challenge it (official).",
                                 "Solo chi deve pescare può denunciarlo (regola ufficiale).",
                                 "Só quem deve comprar pode desafiá-lo (regra oficial)."),
            "anyone": Text("Any other player may challenge it too, before the player who "
                            "must draw answers: guilty, its player draws the cards; innocent, "
                            "whoever challenged draws them and 2 more, and the player who "
                            "must draw loses the turn without drawing.",
                            "Se un altro giocatore lo suppone, può denunciarlo anche lui, "
                            "prima che risponda chi deve pescare: se è un bluff, chi l'ha "
                            "giocato prende le carte; se no, chi l'ha denunciato a torto le "
                            "prende con 2 in più, e chi doveva pescare salta il turno senza "
                            "pescare.",
                            "Qualquer outro jogador também pode desafiá-lo, antes que responda "
                            "quem deve comprar: se for blefe, quem o jogou compra as cartas; se "
                            "não, quem desafiou as compra com mais 2, e quem devia comprar "
                            "perde a vez sem comprar."),
        },
        values={"next_player": Text("the next player", "il giocatore successivo",
                                    "o próximo jogador"),
                "anyone": Text("anyone", "chiunque", "qualquer um")},
        inert=Inert(lambda r: r.wd4_policy != "challenge", Text(
            "No effect: no wild draw card may be challenged under these rules.",
            "Non ha effetto: con queste regole nessuna carta Più jolly si può contestare.",
            "Sem efeito: com estas regras nenhuma carta coringa de compra pode ser "
            "desafiada.")),
    ),
)

UNO_PENALTY = Option(
    "uno_penalty",
    type="int",
    default=2,
    source="000-004",
    minimum=0,
    maximum=10,
    spec="cards for being caught without calling UNO",
    group="UNO",
    trial=range(0, 7),
    words=OptionWords(
        Text("UNO penalty", "Penalità UNO", "Penalidade do UNO"),
        Text("Cards drawn by a player caught not calling UNO.",
              "Carte di penalità per chi non dice UNO e viene scoperto.",
              "Cartas compradas por quem é pego sem dizer UNO."),
        {N: Text("A player caught with one card and no UNO call draws {v}.",
                  "Chi resta con una carta senza dire UNO e viene scoperto pesca {v}.",
                  "Quem fica com uma carta sem dizer UNO e é pego compra {v}.")},
        unit=_CARDS,
    ),
)

UNO_AUTO_PENALTY = Option(
    "uno_auto_penalty",
    type="bool",
    default=False,
    source="004",
    choices=_BOTH,
    spec="the UNO penalty applies even if nobody catches",
    group="UNO",
    trial=_BOTH,
    words=OptionWords(
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
)

FALSE_CATCH_PENALTY = Option(
    "false_catch_penalty",
    type="int",
    default=0,
    source="other games",
    minimum=0,
    maximum=4,
    spec="cards for catching someone who is not catchable",
    group="UNO",
    house_trial=range(0, 5),
    words=OptionWords(
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
)

SEQUENCES = Option(
    "sequences",
    type="bool",
    default=False,
    source="003, 004",
    choices=_BOTH,
    spec=(
        "play a run of consecutive numbers of one colour (`play.also`); the run's player may "
        "add its next number out of turn (section 14)"
    ),
    group="several cards at once",
    readme="runs of one colour",
    house_trial=_BOTH,
    words=OptionWords(
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
)

MULTIPLES = Option(
    "multiples",
    type="bool",
    default=False,
    source="004",
    choices=_BOTH,
    spec="play several number cards of the same number at once (`play.also`)",
    group="several cards at once",
    readme="cards of one number",
    house_trial=_BOTH,
    words=OptionWords(
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
)

MULTI_FINISH = Option(
    "multi_finish",
    type='bool | Literal["penalty"]',
    default=True,
    source="004",
    choices=(True, False, "penalty"),
    spec=(
        "may a play of several cards empty the hand; `penalty`: yes, and then its player draws "
        "`uno_penalty` cards and plays on (`cards_drawn` reason `penalty_multi_finish`)"
    ),
    group="several cards at once",
    house_trial=(True, False, "penalty"),
    words=OptionWords(
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
            "penalty": Text("A play of several cards may empty the hand, but its player then "
                             "draws as many cards as the UNO penalty and the round goes on.",
                             "Si possono giocare più carte insieme anche svuotando la mano, ma "
                             "poi si pescano altrettante carte quante la penalità per UNO e la "
                             "manche continua.",
                             "Quem esvazia a mão de uma vez só deve comprar tantas cartas quanto "
                             "a penalidade do UNO, e a rodada continua."),
        },
        values={"penalty": Text("with a penalty", "con penalità", "com penalização")},
        inert=Inert(lambda r: not (r.sequences or r.multiples), Text(
            "No effect without sequences or multiples.",
            "Non ha effetto senza scale né carte multiple.",
            "Sem efeito sem sequências nem cartas iguais juntas.")),
    ),
)

ACTION_FINISH = Option(
    "action_finish",
    type="bool",
    default=True,
    source="000, 004",
    choices=_BOTH,
    spec="may the last card be an action card or a wild",
    group="ending",
    trial=_BOTH,
    words=OptionWords(
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
)

SEVEN_ZERO = Option(
    "seven_zero",
    type="bool",
    default=False,
    source="003",
    choices=_BOTH,
    spec=(
        "a 0 passes every hand on in the direction of play; a 7 swaps hands with a chosen "
        "player (9.5, `choose_target`)"
    ),
    group="special effects",
    readme="a 0 passes every hand on, a 7 swaps with a player of your choice",
    house_trial=_BOTH,
    words=OptionWords(
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
)

BUZZERS = Option(
    "buzzers",
    type="bool",
    default=False,
    source="003",
    choices=_BOTH,
    spec="adds 8 Buzzer cards, which open a race (9.5, `buzzer`)",
    group="the deck and the table",
    readme="8 Buzzer cards and the B race",
    house_trial=_BOTH,
    words=OptionWords(
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
)

MAX_HAND = Option(
    "max_hand",
    type="int | None",
    default=None,
    source="003, No Mercy",
    minimum=10,
    maximum=100,
    nullable=True,
    spec="holding this many cards after a draw, swap or pass knocks a player out of the round",
    group="ending",
    house_trial=(None, *range(10, 31)),
    words=OptionWords(
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
)

MAX_HAND_PENALTY = Option(
    "max_hand_penalty",
    type='int | Literal["hand"]',
    default=250,
    source="003",
    minimum=0,
    maximum=1000,
    also=("hand",),
    spec="points for a knock-out: a number, or the points of the hand held",
    group="ending",
    readme="out of the round at too many cards",
    house_trial=(*range(0, 301), "hand"),
    words=OptionWords(
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
)

THINK_TIME = Option(
    "think_time",
    type="int | None",
    default=None,
    source="003",
    minimum=5,
    maximum=600,
    nullable=True,
    spec=(
        "seconds to act on a turn or a decision before the host applies its default (section "
        "13)"
    ),
    group="the match",
    untried=(
        "the host's timer: the engine has no clock (its expiry is drawn as an "
        "action)"
    ),
    words=OptionWords(
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
)

SCORING = Option(
    "scoring",
    type="Scoring",
    default="winner_collects",
    source="000, 003",
    choices=("winner_collects", "lowest_wins", "elimination"),
    spec=(
        "the winner collects the others' points; everyone keeps their own; or everyone keeps "
        "their own and reaching `target` eliminates"
    ),
    group="the match",
    readme="`winner_collects`, `lowest_wins`, `elimination`",
    trial=("winner_collects", "lowest_wins"),
    house_trial=("winner_collects", "lowest_wins", "elimination"),
    words=OptionWords(
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
)

TARGET = Option(
    "target",
    type="int",
    default=500,
    source="all",
    minimum=50,
    maximum=10000,
    spec="the points that end the match",
    group="the match",
    trial=range(50, 701),
    words=OptionWords(
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
)

MAX_ROUNDS = Option(
    "max_rounds",
    type="int | None",
    default=None,
    source="003",
    minimum=1,
    maximum=1000,
    nullable=True,
    spec="the match also ends after this many rounds",
    group="the match",
    house_trial=(None, 1, 2, 3),
    words=OptionWords(
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
)

TEAMS = Option(
    "teams",
    type="Teams",
    default="off",
    source="1993 partner rules",
    choices=("off", "pairs"),
    spec="partners sit opposite, 4 or 6 seats, with `scoring: \"winner_collects\"` only",
    group="the match",
    readme="`pairs`",
    house_trial=("off", "pairs"),
    words=OptionWords(
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
)

FLIP_PASSES_HANDS = Option(
    "flip_passes_hands",
    type="bool",
    default=False,
    source="003",
    choices=_BOTH,
    spec="UNO Flip only: a Flip also passes every hand on, as a 0 does",
    untried="UNO Flip only: tests/test_flip_properties.py draws it",
    words=OptionWords(
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
)

DECLARED: tuple[Option, ...] = (
    VARIANT,
    HAND_SIZE,
    DECKS,
    COLORS,
    MAX_PLAYERS,
    DRAW_WHEN_PLAYABLE,
    PLAY_AFTER_DRAW,
    DRAW_UNTIL_PLAYABLE,
    MAX_DRAWS_PER_TURN,
    STACKING,
    STACK_MIX_WILD,
    DEFLECT,
    JUMP_IN,
    JUMP_IN_PENALTY,
    WD4_POLICY,
    CHALLENGE_GUILTY_EXTRA,
    CHALLENGE_BY,
    UNO_PENALTY,
    UNO_AUTO_PENALTY,
    FALSE_CATCH_PENALTY,
    SEQUENCES,
    MULTIPLES,
    MULTI_FINISH,
    ACTION_FINISH,
    SEVEN_ZERO,
    BUZZERS,
    MAX_HAND,
    MAX_HAND_PENALTY,
    THINK_TIME,
    SCORING,
    TARGET,
    MAX_ROUNDS,
    TEAMS,
    FLIP_PASSES_HANDS,
)
"""Every option, in the order RULEBOOK.md, SPEC.md and `unonet rules` list them."""
