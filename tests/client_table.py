"""A TableLink around a real engine Match, for the client tests (never shipped).

`LocalTable` seats the human client at `me` and scripted or normal bots everywhere else. An
intent is applied to the Match at once; the events go to the client (each with its legal
actions, as the protocol sends them), then the bots play until the human must decide. So the
whole game is synchronous and deterministic: a key's effects are complete when it returns.
After every batch it compares the client's folded view with the engine's own view of the seat.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from prompt_toolkit.utils import get_cwidth
from stacking import stacked_order

from client.i18n import Translator
from client.link import (
    ChatReceived,
    ConnectionChanged,
    Deliver,
    GameEvent,
    LobbyChanged,
    ManifestReceived,
    Refused,
    Snapshot,
    TablesListed,
)
from client.lobby import (
    AddBot,
    JoinTable,
    LobbyCommand,
    LobbyState,
    SeatInfo,
    SetReady,
    SetRules,
    StartMatch,
    TableInfo,
)
from client.model import ClientModel
from client.render import compose
from unonet.actions import (
    Accept,
    Action,
    Buzz,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    Draw,
    Pass,
    Play,
)
from unonet.bots.base import Bot
from unonet.cards import Color, Face
from unonet.errors import EngineError
from unonet.events import Event
from unonet.match import BETWEEN_ROUNDS, IN_ROUND, Match
from unonet.phase import Phase
from unonet.rules import RuleSet
from unonet.view import View


class ScriptBot(Bot):
    """Plays its `plan` in order ("g7", "W+4:blue"; a trailing "!" calls UNO with it) whenever
    the next planned card can be played (a draw card answering a pending draw too); otherwise
    takes a pending draw, or draws, then passes. Presses B at once in a buzzer race. Never
    challenges, never calls UNO late, never catches: it forgets UNO unless its plan says "!"."""

    def __init__(self, seat: int, rules: RuleSet, match: Match, plan: Sequence[str]) -> None:
        super().__init__(seat, rules, match.manifest)
        self.plan = list(plan)

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        if Buzz() in legal:
            return Buzz()
        colors = [a for a in legal if isinstance(a, ChooseColor)]
        if colors:
            return colors[0]
        if self.plan:
            step = self.plan[0]
            uno = step.endswith("!")
            code, _, color = step.rstrip("!").partition(":")
            for action in legal:
                if (
                    isinstance(action, Play)
                    and self.manifest.face(action.card).code == code
                    and action.uno == uno
                    and (action.color.value if action.color else "") == color
                ):
                    self.plan.pop(0)
                    return action
        for kind in (Accept, Draw, Pass):
            for action in legal:
                if isinstance(action, kind):
                    return action
        return legal[0]


class LocalTable:
    """The test's host: a Match, the client at `me`, bots in the other seats."""

    def __init__(
        self,
        match: Match,
        me: int,
        bots: dict[int, Bot],
        names: Sequence[str],
        *,
        model: ClientModel | None = None,
        lobby_first: bool = False,
        tables_first: bool = False,
        capacity: int | None = None,
    ) -> None:
        self.match = match
        self.me = me
        self.lobby_me = me  # our seat in the lobby; a join at the table moves it (capacity)
        self.capacity = capacity or match.seats
        self.tables_first = tables_first  # the table list first; the lobby after a JoinTable
        self.joined = not tables_first
        self.bots = bots
        self.names = list(names)
        self.model = model
        self.deliver: Deliver = lambda update: None
        self.ready = {seat: True for seat in bots}
        self.ready[me] = False
        self.started = not (lobby_first or tables_first)
        self.rules = match.rules.to_dict()
        self.preset = "official"
        self.intents: list[Action] = []
        self.lobby_commands: list[LobbyCommand] = []
        self.chat: list[str] = []
        self.mismatches: list[str] = []
        self.closed = False
        self.on_batch: Callable[[list[Event]], None] | None = None
        self.wait_for_jump_in = False  # bots hold while the human may play out of turn

    # -- the TableLink protocol --------------------------------------------------------------------

    def start(self, deliver: Deliver) -> None:
        self.deliver = deliver
        deliver(ConnectionChanged("connected"))
        if not self.joined:
            table = TableInfo(0, "test", self.capacity, len(self.bots), False, self.preset)
            deliver(TablesListed((table,)))
            return
        deliver(LobbyChanged(self.lobby()))
        deliver(ManifestReceived(self.match.manifest))
        deliver(Snapshot(self.match.view(self.me), self.legal()))
        if self.started and self.match.phase == BETWEEN_ROUNDS and self.match.round_no == 0:
            self._start_round()
        self.run_bots()

    def send_intent(self, action: Action) -> None:
        self.intents.append(action)
        try:
            events = self.match.apply(self.me, action)
        except EngineError as exc:
            self.deliver(Refused(exc.code.value, exc.message))
            return
        self.publish(events)
        self.run_bots()

    def send_lobby(self, command: LobbyCommand) -> None:
        self.lobby_commands.append(command)
        if isinstance(command, SetReady):
            self.ready[self.me] = command.ready
            self.deliver(LobbyChanged(self.lobby()))
            if self.started and self.match.phase == BETWEEN_ROUNDS and all(self.ready.values()):
                self._start_round()
                self.run_bots()
        elif isinstance(command, SetRules):
            self.rules.update(command.options)
            self.preset = command.preset or self.preset
            self.deliver(LobbyChanged(self.lobby()))
        elif isinstance(command, StartMatch):
            self.started = True
            self.lobby_me = self.me  # the host closes the gaps: back to our match seat
            self._start_round()
            self.run_bots()
        elif isinstance(command, AddBot):
            self.deliver(LobbyChanged(self.lobby()))
        elif isinstance(command, JoinTable):
            self._join(command)

    def _join(self, command: JoinTable) -> None:
        """A join from the table list seats us; one at our table moves or renames us
        (SPEC.md [UNO-8-8])."""
        seat = command.seat
        if seat is None:
            seat = self.lobby_me if self.joined else next(
                s for s in range(self.capacity) if s not in self.bots)
        if self.started or seat in self.bots or not 0 <= seat < self.capacity:
            self.deliver(Refused("seat_taken", f"seat {seat} is taken"))
            return
        self.lobby_me = seat
        self.names[self.me] = command.name
        self.joined = True
        self.deliver(LobbyChanged(self.lobby()))

    def send_chat(self, text: str) -> None:
        self.chat.append(text)
        self.deliver(ChatReceived(self.names[self.me], text, self.me))

    def close(self) -> None:
        self.closed = True

    # -- the table ---------------------------------------------------------------------------------

    def legal(self) -> tuple[Action, ...]:
        return tuple(self.match.legal_actions(self.me))

    def lobby(self) -> LobbyState:
        seats = []
        for s in range(self.capacity):
            if s == self.lobby_me:
                seats.append(SeatInfo(s, "human", self.names[self.me], self.ready[self.me], True))
            elif s in self.bots:
                seats.append(SeatInfo(s, "bot", self.names[s], self.ready[s], True))
            else:
                seats.append(SeatInfo(s, "empty", None, False, False))
        return LobbyState(0, "test", self.lobby_me, dict(self.rules), tuple(seats),
                          self.started, self.preset, 0, self.lobby_me)

    def publish(self, events: list[Event]) -> None:
        """The events the client may see, each with its legal actions after the batch."""
        legal = self.legal()
        for event in events:
            if event.audience is None or self.me in event.audience:
                self.deliver(GameEvent(event, legal))
        for bot in self.bots.values():
            for event in events:
                if event.audience is None or bot.seat in event.audience:
                    bot.observe(event)
        if self.model is not None and self.model.view != self.match.view(self.me):
            self.mismatches.append(f"after {events}: {self.model.view} != "
                                   f"{self.match.view(self.me)}")
        if self.on_batch is not None:
            self.on_batch(events)

    def _start_round(self) -> None:
        for seat in self.bots:
            self.ready[seat] = True
        self.ready[self.me] = False
        self.publish(self.match.start_round())
        self.deliver(LobbyChanged(self.lobby()))

    def run_bots(self) -> None:
        """Bots act until the human must decide or the round is over (or, with
        `wait_for_jump_in`, until the human may play out of turn)."""
        while self.match.phase == IN_ROUND:
            seat = self._next_bot()
            if seat is None:
                return
            bot = self.bots[seat]
            action = bot.act(self.match.view(seat), self.match.legal_actions(seat))
            self.publish(self.match.apply(seat, action))
            self._reactions()

    def _next_bot(self) -> int | None:
        """The bot to act next: in a buzzer race, any bot that has not pressed yet (bots press
        before the human); else the pending seat, if it is a bot."""
        if self.match.decision == Phase.BUZZER:
            return next((s for s in sorted(self.bots)
                         if Buzz() in self.match.legal_actions(s)), None)
        if self.wait_for_jump_in and any(isinstance(a, Play) for a in self.legal()):
            return None
        seat = self.match.pending_seat
        return None if seat is None or seat == self.me else seat

    def _reactions(self) -> None:
        for bot in self.bots.values():
            legal = [a for a in self.match.legal_actions(bot.seat)
                     if isinstance(a, CallUno | Catch)]
            if legal and self.match.phase == IN_ROUND:
                action = bot.react(self.match.view(bot.seat), legal)
                if action is not None:
                    self.publish(self.match.apply(bot.seat, action))


# -- the scenario every client test plays --------------------------------------------------------

NAMES = ("Me", "Bruno", "Chiara")
SEED = b"client-tests"

ME_HAND = ["b3", "bR", "W", "W"]
BRUNO_HAND = ["g7", "b1", "b8", "b5"]
CHIARA_HAND = ["W+4", "g1", "b4", "b6"]
DRAWS = ["b7", "y1", "y2", "y3", "b9", "r1", "r2"]
"""Chiara's 4 for the bluff, then my draw (b9), then Bruno's 2 for being caught."""

BRUNO_PLAN = ["g7", "b1", "b8", "b5"]  # b8 is his next-to-last card: he forgets UNO
CHIARA_PLAN = ["W+4:blue", "b4", "b6", "b7"]  # the W+4 is a bluff: she holds g1 on green


def scenario_match(rules: RuleSet | None = None, draws: Sequence[str] = DRAWS) -> Match:
    """Three seats, me first (the dealer is seat 2), four cards each, the first card r3.

    The round, played right: I play a Wild naming green; Bruno g7; Chiara bluffs a Wild Draw
    Four naming blue; I challenge (guilty: she draws 4), draw b9 and play it; Bruno b1; Chiara
    b4; I play bR (play goes right); Chiara b6; Bruno b8 forgetting UNO; I catch him (he draws
    2), then play b3 calling UNO; Chiara b7; Bruno b5; I play my last Wild and win.
    """
    rules = rules or RuleSet(hand_size=4)
    order = stacked_order(rules.manifest(), 2, [ME_HAND, BRUNO_HAND, CHIARA_HAND], "r3", draws)
    return Match(rules, 3, SEED, stacked_decks=[order], first_dealer=2)


def scenario_table(
    model: ClientModel | None = None,
    *,
    lobby_first: bool = False,
    tables_first: bool = False,
    capacity: int | None = None,
    rules: RuleSet | None = None,
    draws: Sequence[str] = DRAWS,
) -> LocalTable:
    match = scenario_match(rules, draws)
    bots: dict[int, Bot] = {
        1: ScriptBot(1, match.rules, match, BRUNO_PLAN),
        2: ScriptBot(2, match.rules, match, CHIARA_PLAN),
    }
    return LocalTable(match, 0, bots, NAMES, model=model, lobby_first=lobby_first,
                      tables_first=tables_first, capacity=capacity)


def house_table(
    model: ClientModel,
    rules: RuleSet,
    hands: Sequence[Sequence[str]],
    top: str,
    plans: dict[int, Sequence[str]],
    *,
    draws: Sequence[str] = (),
    dealer: int = 2,
    wait_for_jump_in: bool = False,
) -> LocalTable:
    """A table for one house rule: stacked `hands` (me at seat 0), the first card `top`, the
    bots playing their `plans`; dealer 2 makes seat 0 play first, dealer 1 seat 2. Started."""
    order = stacked_order(rules.manifest(), dealer, hands, top, draws)
    match = Match(rules, len(hands), SEED, stacked_decks=[order], first_dealer=dealer)
    bots: dict[int, Bot] = {
        seat: ScriptBot(seat, rules, match, plans.get(seat, ())) for seat in range(1, len(hands))
    }
    names = [*NAMES, "Dario", "Eva", "Fabio", "Gina", "Hugo", "Ines", "Luca"][:len(hands)]
    table = LocalTable(match, 0, bots, names, model=model)
    table.wait_for_jump_in = wait_for_jump_in
    table.start(model.apply)
    return table


def code_of(match: Match, card: int) -> str:
    return match.manifest.face(card).code


def play_of(action: Action | None) -> Play:
    assert isinstance(action, Play), action
    return action



def play_to_the_forgotten_uno(model: ClientModel, table: LocalTable) -> None:
    """The scenario's opening, through the model's intents: Wild naming green, challenge
    Chiara's bluffed +4, draw and play the drawn b9, play bR; Bruno is left with one card and
    has not called UNO."""
    send = table.send_intent
    model.select_index(2)
    model.play_selected()
    send(play_of(model.choose_color(Color.GREEN)))
    send(Challenge())
    send(Draw())
    send(play_of(model.play_selected()))
    model.select_index(1)
    send(play_of(model.play_selected()))


def play_out_the_round(model: ClientModel, table: LocalTable) -> None:
    """From the forgotten UNO: catch Bruno, arm UNO, play b3, then the last Wild naming red."""
    send = table.send_intent
    send(Catch(1))
    model.uno()
    model.select_index(0)
    send(play_of(model.play_selected()))
    model.play_selected()
    send(play_of(model.choose_color(Color.RED)))


def screen(model: ClientModel, plain: bool = True, width: int = 80, height: int = 23) -> str:
    """The screen as text, held to the window: exactly `height` lines, none wider than `width`."""
    text = "".join(fragment[1] for fragment in compose(model, width, height, plain))
    lines = text.split("\n")
    assert len(lines) == height
    assert all(get_cwidth(line) <= width for line in lines)
    return text


def fresh(lang: str = "en") -> ClientModel:
    return ClientModel(Translator(lang), name="Me")


def pick(model: ClientModel, code: str) -> None:
    """Select the first card in hand with this code (e.g. `r5`, `W+4`)."""
    model.select_card(next(
        c for c in model.hand if (face := model.face(c)) is not None and face.code == code
    ))


def face_of(model: ClientModel, card: int) -> Face:
    """The face `model` reads `card` by: one it was told, or the test fails here."""
    face = model.face(card)
    assert face is not None, f"card {card} was never told"
    return face
