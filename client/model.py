"""What the screen shows, and what each key asks for: the client's one state object, no I/O.

`ClientModel` is fed engine values (a View, events, legal actions: what the protocol decodes),
lobby, chat, trust and connection updates, and keeps everything the renderer draws. Keys become
intents through its methods, which return the engine Action (or lobby command) to send, or None
when the key only changed the screen (a colour picker opening, a selection moving) or did
nothing (then `notice` says why). An Action returned is always one of the current legal actions:
the host decides, the client never guesses rules (SPEC.md: a minimal client needs none).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from client import link
from client.fold import ViewTracker
from client.i18n import Translator
from client.lobby import (
    AddBot,
    CreateTable,
    JoinTable,
    LobbyCommand,
    LobbyState,
    RemoveBot,
    SetReady,
    SetRules,
    StartMatch,
    TableInfo,
)
from client.narration import narrate
from unonet import events as ev
from unonet.actions import (
    Accept,
    Action,
    Buzz,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    ChooseTarget,
    Draw,
    Pass,
    Play,
)
from unonet.cards import ALL_COLORS, Color, DeckManifest, Face
from unonet.rules import OPTIONS, PRESETS, RuleSet
from unonet.view import View

LOG_LINES = 200
CHAT_LINES = 100
TRUST_LINES = 20
MAX_CHAT_CHARS = 200
"""The protocol's chat limit (protocol.limits.MAX_CHAT_CHARS); longer lines are cut here."""
MAX_NAME_CHARS = 32
"""A player's name on the wire is str(1..32) (SPEC.md 8.2 join_table); longer names are cut."""

COLOR_ORDER = {color: i for i, color in enumerate(ALL_COLORS)}


class Screen(StrEnum):
    CONNECTING = "connecting"
    TABLES = "tables"
    LOBBY = "lobby"
    GAME = "game"
    ROUND_END = "round_end"
    MATCH_END = "match_end"


# -- prompts: a question that takes the keys until answered --------------------------------------


@dataclass(frozen=True, slots=True)
class ColorPrompt:
    """The colour for a wild about to be played (`card`), or the first-card Wild (card None)."""

    card: int | None
    colors: tuple[Color, ...]
    uno: bool = False


@dataclass(frozen=True, slots=True)
class ChallengePrompt:
    target: int | None


@dataclass(frozen=True, slots=True)
class DrawnCardPrompt:
    card: int


@dataclass(frozen=True, slots=True)
class TargetPrompt:
    targets: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class QuitPrompt:
    pass


Prompt = ColorPrompt | ChallengePrompt | DrawnCardPrompt | TargetPrompt | QuitPrompt


@dataclass(frozen=True, slots=True)
class RoundResult:
    round_no: int
    winner: int | None
    hands: tuple[tuple[int, ...], ...]
    points: tuple[int, ...]
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ChatLine:
    name: str
    text: str
    seat: int | None


@dataclass(frozen=True, slots=True)
class TrustLine:
    ok: bool
    text: str


class ClientModel:
    """The whole client state. Mutated only by `apply` (updates) and the intent methods."""

    def __init__(self, tr: Translator, name: str = "") -> None:
        self.tr = tr
        self.my_name = name
        self.name_pending = False  # named before creating a table: rename once seated there
        self.manifest: DeckManifest | None = None
        self.tracker: ViewTracker | None = None
        self.legal: tuple[Action, ...] = ()
        self.log: deque[str] = deque(maxlen=LOG_LINES)
        self.chat: deque[ChatLine] = deque(maxlen=CHAT_LINES)
        self.trust: deque[TrustLine] = deque(maxlen=TRUST_LINES)
        self.trust_failed = False
        self.connection = "connecting"
        self.lobby: LobbyState | None = None
        self.tables: tuple[TableInfo, ...] | None = None
        self.table_cursor = 0
        self.option_cursor = 0
        self.results: list[RoundResult] = []
        self.selected = 0
        self.uno_armed = False
        self.local_prompt: ColorPrompt | QuitPrompt | None = None
        self.show_help = False
        self.notice = ""
        self.bell = False  # set when a decision of ours starts; the app rings and clears it
        self.reading_scores = False  # after a round: we hold the next deal until Enter
        self.outbox: list[LobbyCommand] = []  # commands the model sends by itself; the app sends

    # -- what the screen reads -----------------------------------------------------------------

    @property
    def view(self) -> View | None:
        return self.tracker.view if self.tracker is not None else None

    @property
    def me(self) -> int | None:
        if self.view is not None and self.view.seat is not None:
            return self.view.seat
        return self.lobby.you if self.lobby is not None else None

    @property
    def seat_count(self) -> int:
        if self.view is not None:
            return len(self.view.seats)
        return len(self.lobby.seats) if self.lobby is not None else 0

    def name(self, seat: int | None) -> str:
        if seat is None:
            return "?"
        if self.lobby is not None and 0 <= seat < len(self.lobby.seats):
            given = self.lobby.seats[seat].name
            if given:
                return given
        return self.tr("ui.seat", seat=seat + 1)

    def names(self) -> list[str]:
        return [self.name(s) for s in range(self.seat_count)]

    def connected(self, seat: int) -> bool:
        if self.lobby is None or not 0 <= seat < len(self.lobby.seats):
            return True
        info = self.lobby.seats[seat]
        return info.connected or info.kind == "bot"

    def face(self, card: int) -> Face:
        assert self.manifest is not None
        return self.manifest.face(card)

    @property
    def hand(self) -> list[int]:
        """Our hand as shown: by colour (red, yellow, green, blue, ..., wilds last), then face."""
        view = self.view
        if view is None or self.manifest is None:
            return []

        def key(card: int) -> tuple[int, int, int, str, int]:
            face = self.face(card)
            color = COLOR_ORDER[face.color] if face.color is not None else len(COLOR_ORDER)
            number = face.number if face.number is not None else 99
            return (color, 0 if face.number is not None else 1, number, face.kind.value, card)

        return sorted(view.hand, key=key)

    @property
    def playable(self) -> frozenset[int]:
        return frozenset(a.card for a in self.legal if isinstance(a, Play))

    @property
    def selected_card(self) -> int | None:
        hand = self.hand
        if not hand:
            return None
        return hand[min(self.selected, len(hand) - 1)]

    @property
    def prompt(self) -> Prompt | None:
        """The question the keys answer now: ours (colour, quit) before the game's."""
        if self.local_prompt is not None:
            return self.local_prompt
        legal = self.legal
        if any(isinstance(a, Challenge) for a in legal):
            view = self.view
            target = view.pending.target if view and view.pending else None
            return ChallengePrompt(target)
        colors = tuple(a.color for a in legal if isinstance(a, ChooseColor))
        if colors:
            return ColorPrompt(None, colors)
        targets = tuple(a.target for a in legal if isinstance(a, ChooseTarget))
        if targets:
            return TargetPrompt(targets)
        if any(isinstance(a, Pass) for a in legal):
            plays = {a.card for a in legal if isinstance(a, Play)}
            if len(plays) == 1:
                return DrawnCardPrompt(plays.pop())
        return None

    @property
    def my_turn(self) -> bool:
        view = self.view
        return view is not None and view.current is not None and view.current == view.seat

    @property
    def screen(self) -> Screen:
        view = self.view
        if view is not None:
            if view.phase == "match_over":
                return Screen.MATCH_END
            if view.phase == "round_over":
                return Screen.ROUND_END
            if view.phase != "between_rounds":
                return Screen.GAME
        if self.lobby is not None:
            return Screen.LOBBY
        if self.tables is not None:
            return Screen.TABLES
        return Screen.CONNECTING

    @property
    def is_owner(self) -> bool:
        lobby = self.lobby
        return lobby is not None and lobby.owner is not None and lobby.owner == lobby.you

    def rules(self) -> RuleSet | None:
        """The table's rules as a RuleSet, when the lobby's options make a valid one."""
        if self.lobby is None:
            return None
        known = {k: v for k, v in self.lobby.rules.items() if k in OPTIONS}
        try:
            return RuleSet(**known)
        except (TypeError, ValueError):
            return None

    # -- updates -------------------------------------------------------------------------------

    def apply(self, update: link.Update) -> None:
        """Fold one update from the link into the state."""
        match update:
            case link.Snapshot(view=view, legal=legal):
                self.apply_snapshot(view, legal)
            case link.GameEvent(event=event, legal=legal):
                self.apply_event(event, legal)
            case link.ManifestReceived(manifest=manifest):
                self.manifest = manifest
            case link.LobbyChanged(lobby=lobby):
                self.apply_lobby(lobby)
            case link.TablesListed(tables=tables):
                self.tables = tables
                self.table_cursor = min(self.table_cursor, max(0, len(tables) - 1))
            case link.ChatReceived(name=name, text=text, seat=seat):
                self.chat.append(ChatLine(name, text, seat))
            case link.TrustReport():
                self.apply_trust(update)
            case link.ConnectionChanged(state=state):
                self.connection = state
            case link.Refused(code=code, message=message):
                reason = self.tr(f"err.{code}") if f"err.{code}" in self.tr.strings else message
                self.notice = self.tr("n.refused", reason=reason or code)

    def apply_snapshot(self, view: View, legal: tuple[Action, ...] | list[Action]) -> None:
        if self.manifest is None:
            raise ValueError("a snapshot needs the deck manifest first")
        self.tracker = ViewTracker(view, self.manifest, self.rules())
        self._set_legal(tuple(legal))

    def apply_event(self, event: ev.Event, legal: tuple[Action, ...] | list[Action]) -> None:
        if self.tracker is None or self.manifest is None:
            return  # events before the first snapshot carry nothing we can place
        self.tracker.apply(event)
        if isinstance(event, ev.RoundStarted):
            self.reading_scores = False
            self.selected = 0
            self.uno_armed = False
        if isinstance(event, ev.RoundEnded):
            view = self.tracker.view
            self.results.append(
                RoundResult(view.round_no, event.winner, event.hands, event.points, event.scores)
            )
            # Hold the next deal while we read the scores (SPEC.md [UNO-8-13]); Enter lets go.
            self.reading_scores = True
            self.outbox.append(SetReady(False))
        text = narrate(event, self.tr, self.names(), self.manifest, self.me)
        if text:
            self.log.append(text)
        self._set_legal(tuple(legal))

    def apply_lobby(self, lobby: LobbyState) -> None:
        self.lobby = lobby
        self.option_cursor = min(self.option_cursor, len(OPTIONS) - 1)
        if self.name_pending and lobby.you is not None and not lobby.started:
            # create_table seats us under the hello name; ours was chosen later ([UNO-8-14])
            self.name_pending = False
            if lobby.you < len(lobby.seats) and lobby.seats[lobby.you].name != self.my_name:
                self.outbox.append(JoinTable(lobby.table, self.my_name))

    def apply_trust(self, report: link.TrustReport) -> None:
        if report.ok:
            self.trust.append(TrustLine(True, self.tr("trust.ok", what=report.what)))
            return
        key = f"trust.{report.kind}"
        what = self.tr(key) if key in self.tr.strings else (report.detail or report.kind)
        self.trust_failed = True
        self.trust.append(TrustLine(False, self.tr("trust.caught", what=what)))

    def _set_legal(self, legal: tuple[Action, ...]) -> None:
        was_deciding = self._deciding(self.legal)
        self.legal = legal
        if self._deciding(legal) and not was_deciding:
            self.bell = True
        prompt = self.local_prompt
        if isinstance(prompt, ColorPrompt) and prompt.card not in self.playable:
            self.local_prompt = None
        hand = self.hand
        if len(hand) != 2:
            self.uno_armed = False
        drawn = self.prompt
        if isinstance(drawn, DrawnCardPrompt) and drawn.card in hand:
            self.selected = hand.index(drawn.card)
        self.selected = min(self.selected, max(0, len(hand) - 1))

    @staticmethod
    def _deciding(legal: tuple[Action, ...]) -> bool:
        """A decision of ours is pending (not merely a chance to call UNO or catch)."""
        return any(not isinstance(a, CallUno | Catch) for a in legal)

    # -- intents: the game ---------------------------------------------------------------------

    def _offer(self, action: Action, notice_key: str = "", **values: Any) -> Action | None:
        """`action` if it is legal now, else None with a notice."""
        if action in self.legal:
            self.notice = ""
            return action
        if notice_key:
            self.notice = self.tr(notice_key, **values)
        return None

    def select_next(self) -> None:
        self._move(1)

    def select_prev(self) -> None:
        self._move(-1)

    def _move(self, step: int) -> None:
        if self.hand:
            self.selected = (self.selected + step) % len(self.hand)

    def select_index(self, index: int) -> None:
        if 0 <= index < len(self.hand):
            self.selected = index

    def select_card(self, card: int) -> None:
        if card in self.hand:
            self.selected = self.hand.index(card)

    def play_selected(self) -> Action | None:
        """Enter: play the selected card. A wild opens the colour picker first; a drawn card is
        the only one that can be played after drawing, so Enter plays it whatever is selected."""
        prompt = self.prompt
        card = prompt.card if isinstance(prompt, DrawnCardPrompt) else self.selected_card
        if card is None:
            return None
        plays = [a for a in self.legal if isinstance(a, Play) and a.card == card]
        if not plays:
            if self.my_turn:
                self.notice = self.tr("n.not_playable", card=self.tr.card(self.face(card)))
            else:
                self.notice = self.tr("n.not_your_turn")
            return None
        uno = self.uno_armed and any(a.uno for a in plays)
        if self.face(card).is_wild:
            colors = tuple(dict.fromkeys(a.color for a in plays if a.color is not None))
            self.local_prompt = ColorPrompt(card, colors, uno)
            self.notice = ""
            return None
        action = next((a for a in plays if a.uno == uno), plays[0])
        return self._played(action)

    def _played(self, action: Action | None) -> Action | None:
        if action is not None:
            self.uno_armed = False
            self.local_prompt = None
            self.notice = ""
        return action

    def choose_color(self, color: Color) -> Action | None:
        """A colour key in the colour picker: the wild's play, or the first-card colour."""
        prompt = self.prompt
        if not isinstance(prompt, ColorPrompt) or color not in prompt.colors:
            return None
        if prompt.card is None:
            return self._offer(ChooseColor(color))
        return self._played(self._offer(Play(prompt.card, color, prompt.uno)))

    def choose_color_index(self, index: int) -> Action | None:
        prompt = self.prompt
        if isinstance(prompt, ColorPrompt) and 0 <= index < len(prompt.colors):
            return self.choose_color(prompt.colors[index])
        return None

    def cancel_prompt(self) -> None:
        self.local_prompt = None
        self.show_help = False

    def draw(self) -> Action | None:
        """Space: draw; after drawing, keep the card and pass; on a +4 waiting, accept it."""
        for kind in (Accept, Draw, Pass):
            for action in self.legal:
                if isinstance(action, kind):
                    self.local_prompt = None
                    return self._offer(action)
        self.notice = self.tr("n.cannot_draw" if self.my_turn else "n.not_your_turn")
        return None

    def uno(self) -> Action | None:
        """U: say UNO holding one card (safe until caught); else catch whoever forgot; else,
        holding two cards, make the next play carry the call (a second U cancels it)."""
        for action in self.legal:
            if isinstance(action, CallUno):
                return self._offer(action)
        for action in self.legal:
            if isinstance(action, Catch):
                return self._offer(action)
        if len(self.hand) == 2:
            self.uno_armed = not self.uno_armed
            self.notice = self.tr("n.uno_armed" if self.uno_armed else "n.uno_disarmed")
            return None
        self.notice = self.tr("n.nothing_uno")
        return None

    def challenge(self) -> Action | None:
        return self._offer(Challenge(), "n.no_challenge")

    def accept(self) -> Action | None:
        return self._offer(Accept(), "n.no_challenge")

    def buzz(self) -> Action | None:
        return self._offer(Buzz(), "n.no_buzz")

    def choose_target(self, seat: int) -> Action | None:
        return self._offer(ChooseTarget(seat))

    # -- intents: the screen -------------------------------------------------------------------

    def request_quit(self) -> None:
        self.show_help = False
        self.local_prompt = QuitPrompt()

    def toggle_help(self) -> None:
        self.show_help = not self.show_help

    @staticmethod
    def chat_line(text: str) -> str | None:
        """The chat text to send, trimmed and cut to the protocol's limit; None if empty."""
        text = " ".join(text.split())
        return text[:MAX_CHAT_CHARS] or None

    # -- intents: the table list and the lobby -------------------------------------------------

    def table_next(self, step: int = 1) -> None:
        if self.tables:
            self.table_cursor = (self.table_cursor + step) % len(self.tables)

    def join_selected(self, seat: int | None = None) -> LobbyCommand | None:
        """Enter: the selected table, any free seat; a seat number: that seat."""
        if not self.tables:
            return None
        table = self.tables[min(self.table_cursor, len(self.tables) - 1)]
        self.name_pending = False  # the join carries the name
        return JoinTable(table.table, self.my_name or "player", seat)

    def create_table(self) -> LobbyCommand:
        return CreateTable()

    def set_name(self, text: str) -> LobbyCommand | None:
        """The name typed after `e` (spaces folded, cut to 32). Seated in the lobby it renames
        us there at once (a join at our own table, SPEC.md [UNO-8-14]); before joining, the
        next join carries it and a new table gets it right after seating us."""
        name = " ".join(text.split())[:MAX_NAME_CHARS]
        if not name:
            self.notice = self.tr("n.name_empty")
            return None
        self.my_name = name
        self.notice = self.tr("n.name_set", name=name)
        lobby = self.lobby
        if lobby is not None and lobby.you is not None and not lobby.started:
            return JoinTable(lobby.table, name)
        self.name_pending = lobby is None
        return None

    def move_to_seat(self, index: int) -> LobbyCommand | None:
        """A seat number in the lobby: sit there if it is empty. One join at our own table
        moves us (SPEC.md [UNO-8-14]), so the owner keeps the table and the seat is never
        free for someone else in between, as it would be with leave and join."""
        lobby = self.lobby
        if lobby is None or lobby.you is None or lobby.started or index == lobby.you:
            return None
        if not 0 <= index < len(lobby.seats):
            self.notice = self.tr("n.no_seat", seat=index + 1)
            return None
        if lobby.seats[index].kind != "empty":
            self.notice = self.tr("n.seat_taken", seat=index + 1)
            return None
        self.notice = ""
        return JoinTable(lobby.table, self.my_name or "player", index)

    def toggle_ready(self) -> LobbyCommand | None:
        lobby = self.lobby
        if lobby is None or lobby.you is None or lobby.you >= len(lobby.seats):
            return None
        return SetReady(not lobby.seats[lobby.you].ready)

    def ready_next_round(self) -> LobbyCommand | None:
        if self.reading_scores:
            self.reading_scores = False
            return SetReady(True)
        lobby = self.lobby
        if lobby is None or lobby.you is None or lobby.you >= len(lobby.seats):
            return SetReady(True)
        return None if lobby.seats[lobby.you].ready else SetReady(True)

    def _owner_only(self) -> bool:
        if not self.is_owner:
            self.notice = self.tr("n.only_owner")
            return False
        return True

    def option_next(self, step: int = 1) -> None:
        self.option_cursor = (self.option_cursor + step) % len(OPTIONS)

    def change_option(self, step: int) -> LobbyCommand | None:
        """Owner: the option under the cursor, one value up or down (its choices or range)."""
        if not self._owner_only() or self.lobby is None:
            return None
        info = list(OPTIONS.values())[self.option_cursor]
        current = self.lobby.rules.get(info.name, getattr(RuleSet(), info.name))
        value = _step_value(info.choices, info.minimum, info.maximum, info.nullable,
                            current, step)
        if value == current:
            return None
        return SetRules({info.name: value}, self.lobby.preset)

    def next_preset(self) -> LobbyCommand | None:
        if not self._owner_only() or self.lobby is None:
            return None
        names = list(PRESETS)
        now = names.index(self.lobby.preset) if self.lobby.preset in names else -1
        return SetRules({}, names[(now + 1) % len(names)])

    def add_bot(self) -> LobbyCommand | None:
        return AddBot() if self._owner_only() else None

    def remove_bot(self) -> LobbyCommand | None:
        if not self._owner_only() or self.lobby is None:
            return None
        bots = [s.seat for s in self.lobby.seats if s.kind == "bot"]
        return RemoveBot(bots[-1]) if bots else None

    def start_match(self) -> LobbyCommand | None:
        return StartMatch() if self._owner_only() else None


def _step_value(
    choices: tuple[Any, ...],
    minimum: int | None,
    maximum: int | None,
    nullable: bool,
    current: Any,
    step: int,
) -> Any:
    """The next value of an option: around its choices, or within its range (None = off,
    below the minimum, for options that may be off)."""
    if choices:
        index = choices.index(current) if current in choices else 0
        return choices[(index + step) % len(choices)]
    low = minimum if minimum is not None else 0
    high = maximum if maximum is not None else low
    if current is None or not isinstance(current, int):
        return low if step > 0 else current
    value = current + step
    if value < low:
        return None if nullable else low
    return min(value, high)
