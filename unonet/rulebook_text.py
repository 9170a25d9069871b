"""The words of the rulebook in English, Italian and Portuguese: what each option means, what each
of its values does, and the choices unonet made where the rule sheets are silent.

Data only; unonet/rulebook.py assembles it. The Italian and Portuguese follow the vocabulary of
the rule sheets in seeds/ (Italian "manche", "mazziere", "pescare", "intercettazioni",
"risposte", "scale"; Portuguese "rodada", "comprar", "perde a vez", "Coringa") and name cards as
unonet/words.py does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from unonet.option_words import ANY_NUMBER, Inert, OptionWords, Text, Unit
from unonet.options import BUZZER_WINDOW_SECONDS, DECLARED
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

OPTION_WORDS: dict[str, OptionWords] = {option.name: option.words for option in DECLARED}
"""Every option's words, from its declaration (unonet/options.py)."""

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
