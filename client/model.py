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
from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, Literal

from client import link
from client.draw_log import DrawRuns
from client.fold import ViewTracker
from client.i18n import Translator
from client.lobby import (
    AddBot,
    CreateTable,
    JoinTable,
    Kick,
    LobbyCommand,
    LobbyState,
    Penalize,
    RemoveBot,
    SeatInfo,
    SetReady,
    SetRules,
    Spectate,
    StartMatch,
    TableInfo,
)
from client.rule_editor import editor_options, step_option
from client.rule_words import option_words, rule_changes
from client.safe_text import own_chat, own_name, shown, typed
from protocol.text import TextRefused, normal_name
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
from unonet.cards import (
    ALL_COLORS,
    CHALLENGEABLE_KINDS,
    DRAW_AMOUNTS,
    Color,
    DeckManifest,
    Face,
    Kind,
)
from unonet.errors import ErrorCode
from unonet.in_play import DarkFaces, face_in_play
from unonet.narrate import narrate
from unonet.phase import Phase
from unonet.rules import OPTIONS, RuleSet, playable_presets
from unonet.view import View
from unonet.words import Words, join_sentence

ENGINE_CODES = frozenset(str(code) for code in ErrorCode)
"""The engine's codes for a refused move (SPEC.md 12). Those with no words of their own
(err.*) are said as "not possible now" outside English: the interface offers only legal
moves, so a refused one was a race with the table."""

LOG_LINES = 200
CHAT_LINES = 100

RULE_CHANGES_SAID = 3
"""A rule change of more options than this (a preset) is said as a count: the lobby lists
the table's rules anyway, and the chat keeps a few lines."""

COLOR_ORDER = {color: i for i, color in enumerate(ALL_COLORS)}

def shown_order(face: Face | None) -> tuple[int, int, int, str]:
    """How cards are shown in a row: by colour (red, yellow, green, blue, then the dark side's
    orange, purple, pink, cyan; wilds last), numbers first, then by face; a face never told
    (UNO Flip) after every other."""
    if face is None:
        return (len(COLOR_ORDER) + 1, 2, 99, "")
    color = COLOR_ORDER[face.color] if face.color is not None else len(COLOR_ORDER)
    number = face.number if face.number is not None else 99
    return (color, 0 if face.number is not None else 1, number, face.kind.value)


DEFLECTING = frozenset({Kind.SKIP, Kind.REVERSE, Kind.BUZZER})
"""Cards that, when the legal list offers them against a pending draw, pass it on (`deflect`):
only used to word the prompt; what may be played comes from the legal list."""

CANCELLING = frozenset({Kind.DISCARD_ALL, Kind.SKIP_EVERYONE})
"""No Mercy's cards that, offered against a pending draw (`deflect`), cancel it: nobody draws
it (DrawCancelled). Only used to word the prompt."""

DANGER_MARGIN = 5
"""With a hand limit (No Mercy's Mercy rule at 25), a hand this close to it is shown in
danger (from 20 cards at 25), before the draw that would put its player out."""


class Screen(StrEnum):
    CONNECTING = "connecting"
    TABLES = "tables"
    LOBBY = "lobby"
    GAME = "game"
    ROUND_END = "round_end"
    MATCH_END = "match_end"


LANDING_SCREENS = frozenset({Screen.CONNECTING, Screen.TABLES})
"""Where a refusal is on the way to a table: its notice lands on what follows (`Notice`)."""


# -- prompts: a question that takes the keys until answered --------------------------------------


@dataclass(frozen=True, slots=True)
class ColorPrompt:
    """The colour for a wild about to be played (`card`), or the first-card Wild (card None)."""

    card: int | None
    colors: tuple[Color, ...]
    uno: bool = False
    roulette: bool = False  # No Mercy: a Color Roulette's colour, which we then turn cards for


@dataclass(frozen=True, slots=True)
class ChallengePrompt:
    """A Wild Draw Four (UNO Flip: a Wild Draw Two or Wild Draw Color, `card`) on us:
    challenge (F), take `amount` (Space; a Wild Draw Color's: draw until a card of colour
    `until`), or, when the legal list offers it, stack on it (`stack`) or pass it on
    (`deflect`)."""

    target: int | None
    amount: int = 4
    stack: bool = False
    deflect: bool = False
    until: Color | None = None
    card: Kind = Kind.WILD_DRAW_FOUR


@dataclass(frozen=True, slots=True)
class StackPrompt:
    """A pending draw of `amount` on us (UNO Flip's Wild Draw Color: until a card of colour
    `until`): answer it with a draw card (`stack`), pass it on with a Skip, Reverse or Buzzer
    (`deflect`), or take it with Space."""

    amount: int
    stack: bool
    deflect: bool
    until: Color | None = None
    cancel: bool = False  # No Mercy's Discard All or Skip Everyone cancels it (`deflect`)
    answers: tuple[Face, ...] = ()  # the faces the legal list lets us answer with, in order


@dataclass(frozen=True, slots=True)
class DrawnCardPrompt:
    card: int


@dataclass(frozen=True, slots=True)
class TargetPrompt:
    """A 7 under seven_zero: whom to swap hands with; `cursor` indexes `targets`."""

    targets: tuple[int, ...]
    cursor: int = 0


@dataclass(frozen=True, slots=True)
class BuzzPrompt:
    """A Buzzer race is open and we have not pressed B yet."""


@dataclass(frozen=True, slots=True)
class QuitPrompt:
    pass


@dataclass(frozen=True, slots=True)
class SeatPrompt:
    """The owner's moderation: the next seat number names whom to kick (`kick`, in the
    lobby) or to penalize (`penalize`, during a round: seed 000's hinting penalty)."""

    kind: Literal["kick", "penalize"]


Prompt = (
    ColorPrompt | ChallengePrompt | StackPrompt | DrawnCardPrompt | TargetPrompt | BuzzPrompt
    | QuitPrompt | SeatPrompt
)


@dataclass(frozen=True, slots=True)
class RoundResult:
    round_no: int
    winner: int | None
    hands: tuple[tuple[int, ...], ...]
    points: tuple[int, ...]
    scores: tuple[int, ...]
    side: int = 0  # UNO Flip: the side the round ended on, which its hands are scored by
    # Each hand's cards read on that side when the round ended (UNO Flip's dark faces are the
    # round's own, forgotten at the next deal); None for a face never told.
    faces: tuple[tuple[Face | None, ...], ...] = ()


@dataclass(frozen=True, slots=True)
class Notice:
    """A line of news with a lifetime: it is shown while what it is about is as it was when it
    was said (`stamp`, read by `ClientModel.notice_stamp(about)`), so a refusal or "Your name
    is now Anna" goes once it stops being true instead of staying until the next notice.

    `about` is "state" (an answer to a key or a refusal: the legal actions, lobby and table list
    at the time), "name" (the name we gave ourselves: gone once the lobby seats us under
    another) or "race" (a buzzer race's result, UNO Flip's table turning over: gone with the
    next card played).

    `landing`: a refusal on the way to a table (said while connecting, or on the table list)
    is followed by its own consequence: the table list the link asks for, the first screen
    after connecting. It lands there (`ClientModel.landed`) instead of going with it, so the
    player sees why they are on the list and not at the table they asked for."""

    text: str
    about: str
    screen: Screen
    stamp: object
    landing: bool = False


@dataclass(frozen=True, slots=True)
class ChatLine:
    """A line of the chat pane. `kind` says who wrote it, which the pane shows by a mark
    no sender controls (render.chat_lines): "member" (a player or spectator; `seat` None for
    a spectator), "host" (the host's own notice: chat_message.host true), or "local" (this
    client's own news)."""

    name: str
    text: str
    seat: int | None
    kind: str = "member"


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
        self._missed: list[ev.Event] = []
        """Events of the round from a round_history (link.MissedEvents), told in the log once
        the seats' names are known: a resume's table_state comes after its snapshot."""
        self.chat: deque[ChatLine] = deque(maxlen=CHAT_LINES)
        self.chat_back = 0  # wrapped lines the chat pane is scrolled back from its newest
        self._rules_said: tuple[ChatLine, Mapping[str, Any], bool] | None = None
        """The last rule-change line, the rules before the changes it says, and whether it
        says we are no longer ready: the owner's next change, with nothing said between,
        rewrites that line rather than adding one per arrow key."""
        self._option_asked: str | None = None
        """The option the owner last changed in the editor, until the rules change: what else
        changed with it is said (`_own_rules_news`)."""
        self.trust = link.TrustStatus()
        """The deck checks of the match, whole (the link sends each change)."""
        self.trust_seen = 0
        """How many of `trust.violations` the player has seen on the trust panel: until all
        are, the title bar shows the newest one in the alert style."""
        self.show_trust = False
        self.connection = "connecting"
        self.connection_detail = ""  # why, for the status line: "Connection refused"
        self.connection_code = ""  # what ended the connection, to say in our words
        self.connection_retry: link.ConnectionChanged | None = None
        """While the link waits to try again: which attempt, of how many, in how long."""
        self.lobby: LobbyState | None = None
        self.tables: tuple[TableInfo, ...] | None = None
        self.table_cursor = 0
        self.option_cursor = 0
        self.results: list[RoundResult] = []
        self._dark = DarkFaces()  # the view's dark_faces as a mapping (UNO Flip)
        self.selected = 0
        self.marked: list[int] = []  # cards marked to play together (a run or a multiple)
        self.target_cursor = 0
        self.pressed: list[int] = []  # the seats that pressed B in the open race, in order
        self.eliminated: set[int] = set()
        self.uno_armed = False
        self.local_prompt: ColorPrompt | QuitPrompt | SeatPrompt | None = None
        self.show_help = False
        self.help_page = 0  # which page of a help longer than the screen
        self.naming = False  # the input line takes our name (key e) instead of a chat line
        self.current_notice: Notice | None = None
        self.bell = False  # set when a decision of ours starts; the app rings and clears it
        self.was_deciding = False
        self.was_my_turn = False
        self.turn_table: tuple[tuple[int, ...], int | None, frozenset[int]] = (
            (), None, frozenset())
        """Our hand, the top card and what played when the selection was last placed
        (`_set_legal`)."""
        self.reading_scores = False  # after a round: we hold the next deal until Enter
        self.rematch_asked = False  # after the match: we asked for a rematch (r)
        self.outbox: list[LobbyCommand] = []  # commands the model sends by itself; the app sends
        self.hosting = False  # we are the host's own player: leaving ends the table
        self.chat_focused = False  # the input line has the keys (the app says, on Tab)
        self.chat_unread = 0  # chat lines that came while the table had the keys
        self.host_key: link.HostKeyWarning | None = None  # another fingerprint: shown whole
        self.draw_runs = DrawRuns()  # a run of single-card draws is one log line
        self.knocked: dict[int, int] = {}  # seats knocked out this round -> their points

    # -- what the screen reads -----------------------------------------------------------------

    @property
    def view(self) -> View | None:
        return self.tracker.view if self.tracker is not None else None

    @property
    def notice(self) -> str:
        """The notice line's text, while what it is about still holds."""
        self._expire_notice()  # once stale it stays gone, even if the state comes back
        return self.current_notice.text if self.current_notice is not None else ""

    @notice.setter
    def notice(self, text: str) -> None:
        """An answer to a key (or "" to clear): it lasts while the state it answered holds."""
        self.say(text, "state")

    def say(self, text: str, about: str) -> None:
        """Show `text` on the notice line for as long as `about` stays as it is now."""
        self.current_notice = (Notice(text, about, self.screen, self.notice_stamp(about))
                               if text else None)

    def notice_stamp(self, about: str) -> object:
        """What a notice about `about` depends on, as it is now."""
        if about == "name":
            lobby = self.lobby
            if lobby is None or lobby.you is None or lobby.you >= len(lobby.seats):
                return None
            return lobby.seats[lobby.you].name
        if about == "race":
            view = self.view
            return view.top_card if view is not None else None
        return (self.legal, self.lobby, self.tables)

    def refused(self, text: str) -> None:
        """A refusal from the host, said while the state it answered holds. On the way to a
        table, several before the list lands (the seat lost on a resume, then the join as a
        newcomer) are said together."""
        notice = self.current_notice
        if self.screen in LANDING_SCREENS:
            if notice is not None and notice.landing and notice.screen is Screen.CONNECTING \
                    and self.screen is Screen.CONNECTING and text not in notice.text:
                text = f"{notice.text} · {text}"
            self.current_notice = Notice(text, "state", self.screen, self.notice_stamp("state"),
                                         landing=True)
        else:
            self.say(text, "state")

    def landed(self, notice: Notice) -> Notice | None:
        """A landing refusal at the first change after it, if that change is its consequence
        (the screen connecting led to, or the table list again): it stays, now about that
        screen; None for any other change."""
        if not notice.landing or self.screen is Screen.CONNECTING:
            return None
        if notice.screen is Screen.CONNECTING or self.screen is notice.screen:
            return Notice(notice.text, notice.about, self.screen,
                          self.notice_stamp(notice.about))
        return None

    def _still_true(self, notice: Notice) -> bool:
        if notice.screen is not self.screen:
            return False
        now = self.notice_stamp(notice.about)
        if notice.about == "name":  # the old name until the host answers, then ours
            return now is None or now in (notice.stamp, self.my_name)
        return bool(now == notice.stamp)

    def _expire_notice(self) -> None:
        notice = self.current_notice
        if notice is not None and not self._still_true(notice):
            self.current_notice = self.landed(notice)

    @property
    def offline(self) -> bool:
        """The host is gone (we try again) or lost for good: nothing can be sent to it."""
        return self.connection in ("reconnecting", "lost")

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
                return shown(given)  # the host's word: drawn escaped, wherever it goes
        return self.tr("ui.seat", seat=seat + 1)

    def names(self) -> list[str]:
        return [self.name(s) for s in range(self.seat_count)]

    def connected(self, seat: int) -> bool:
        if self.lobby is None or not 0 <= seat < len(self.lobby.seats):
            return True
        info = self.lobby.seats[seat]
        return info.connected or info.kind == "bot"

    @property
    def side(self) -> int:
        """The side in play: 0 but in UNO Flip, where a Flip turns the table over."""
        view = self.view
        return view.side if view is not None else 0

    @property
    def flip(self) -> bool:
        """The table plays UNO Flip: the lobby says so, or the view shows a Flip table (a side,
        other sides). The manifest cannot say: it names each card's light face only."""
        if self.lobby is not None and self.lobby.rules.get("variant") == "flip":
            return True
        view = self.view
        return view is not None and (view.side != 0 or view.pile_other_side is not None
                                     or any(seat.other_sides for seat in view.seats))

    @property
    def no_mercy(self) -> bool:
        """The table plays UNO Show 'Em No Mercy: the lobby says so, or the manifest holds its
        cards (a spectator's or a resumed client's lobby may come later)."""
        if self.lobby is not None and self.lobby.rules.get("variant") == "no_mercy":
            return True
        manifest = self.manifest
        return manifest is not None and len(manifest) > 0 and \
            manifest.face(len(manifest) - 1).kind is Kind.WILD_COLOR_ROULETTE

    @property
    def hand_limit(self) -> int | None:
        """The hand limit (`max_hand`; No Mercy's Mercy rule: 25), None without one."""
        rules = self.rules()
        if rules is not None:
            return rules.max_hand
        return 25 if self.no_mercy else None

    def in_danger(self, seat: int) -> bool:
        """`seat` holds a hand within DANGER_MARGIN cards of the hand limit (and is still in):
        shown before the draw that would put it out."""
        view, limit = self.view, self.hand_limit
        if view is None or limit is None or not 0 <= seat < len(view.seats):
            return False
        info = view.seats[seat]
        return not info.out and info.cards >= limit - DANGER_MARGIN

    def knock_out_points(self, seat: int) -> int | None:
        """The points a seat knocked out this round is charged: as the KnockedOut said, else
        (a snapshot taken since) the rules' number; None when neither says."""
        if seat in self.knocked:
            return self.knocked[seat]
        rules = self.rules()
        penalty = rules.max_hand_penalty if rules is not None else (250 if self.no_mercy else None)
        return penalty if isinstance(penalty, int) else None

    def face(self, card: int, side: int | None = None) -> Face | None:
        """`card`'s face on `side`, by default the side in play: light from the manifest, dark
        as we were told this round (UNO Flip); None for one never told (unonet.in_play)."""
        view = self.view
        if self.manifest is None or view is None:
            return None
        which = self.side if side is None else side
        return face_in_play(self.manifest, card, which, self._dark.of(view.dark_faces))

    @property
    def hand(self) -> list[int]:
        """Our hand as shown: by colour (red, yellow, green, blue, ..., wilds last), then face."""
        view = self.view
        if view is None or self.manifest is None:
            return []
        return sorted(view.hand, key=lambda card: (*shown_order(self.face(card)), card))

    @property
    def playable(self) -> frozenset[int]:
        """The cards the legal list lets us play now (out of turn too: a jump-in)."""
        return frozenset(a.card for a in self.legal if isinstance(a, Play))

    @property
    def jump_in_open(self) -> bool:
        """A card of ours may be played although it is not our turn (a jump-in, or the next
        card of our run): the host listed it, so Enter plays it."""
        return not self.my_turn and bool(self.playable)

    @property
    def uno_possible(self) -> bool:
        """A play of ours may leave one card, so U arms the call: a hand of two, or a listed
        play that carries the call (No Mercy's Discard All takes the rest of its colour)."""
        return len(self.hand) == 2 or any(isinstance(a, Play) and a.uno for a in self.legal)

    @property
    def multi_offered(self) -> bool:
        """The legal list holds a play of several cards (a run or a multiple)."""
        return any(isinstance(a, Play) and a.also for a in self.legal)

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
        view = self.view
        pending = view.pending if view is not None else None
        until = pending.until_color if pending is not None else None
        if any(isinstance(a, Challenge) for a in legal):
            target = pending.target if pending is not None else None
            amount = pending.amount if pending is not None and pending.amount else 4
            return ChallengePrompt(target, 0 if until else amount, *self._answers(),
                                   until=until, card=self._challenged())
        if any(isinstance(a, Accept) for a in legal):
            amount = pending.amount if pending is not None else 0
            faces = sorted({face for face in map(self.face, self.playable) if face is not None},
                           key=shown_order)
            return StackPrompt(amount, *self._answers(), until=until,
                               cancel=any(f.kind in CANCELLING for f in faces),
                               answers=tuple(faces))
        colors = tuple(a.color for a in legal if isinstance(a, ChooseColor))
        if colors:
            return ColorPrompt(None, colors, roulette=view is not None
                               and view.phase == Phase.ROULETTE)
        targets = tuple(a.target for a in legal if isinstance(a, ChooseTarget))
        if targets:
            return TargetPrompt(targets, min(self.target_cursor, len(targets) - 1))
        if any(isinstance(a, Buzz) for a in legal):
            return BuzzPrompt()
        if any(isinstance(a, Pass) for a in legal):
            plays = {a.card for a in legal if isinstance(a, Play)}
            if len(plays) == 1:
                return DrawnCardPrompt(plays.pop())
        return None

    def _answers(self) -> tuple[bool, bool]:
        """What the legal plays against a pending draw are, to word the prompt: draw cards
        (a stack), and Skips, Reverses or Buzzers (a deflect)."""
        kinds = {face.kind for face in map(self.face, self.playable) if face is not None}
        draws = any(k in DRAW_AMOUNTS or k is Kind.WILD_DRAW_COLOR for k in kinds)
        return draws, bool(kinds & DEFLECTING)

    def _challenged(self) -> Kind:
        """The card a challenge is about: the top card, read on the side in play, when it is
        one that can be challenged (a Wild Draw Four; in UNO Flip a Wild Draw Two or Color)."""
        view = self.view
        if view is None or view.top_card is None or self.manifest is None:
            return Kind.WILD_DRAW_FOUR
        face = self.face(view.top_card)
        if face is not None and face.kind in CHALLENGEABLE_KINDS:
            return face.kind
        return Kind.WILD_DRAW_COLOR if self.side else Kind.WILD_DRAW_FOUR

    @property
    def my_turn(self) -> bool:
        view = self.view
        return view is not None and view.current is not None and view.current == view.seat

    @property
    def screen(self) -> Screen:
        view = self.view
        back = self.lobby is not None and not self.lobby.started
        if view is not None and not (view.phase == Phase.MATCH_OVER and self.rematch_asked
                                     and back):  # asked, and no rematch: the lobby, to start
            if view.phase == Phase.MATCH_OVER:
                return Screen.MATCH_END
            if view.phase == Phase.ROUND_OVER:
                return Screen.ROUND_END
            if view.phase != Phase.BETWEEN_ROUNDS:
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

    def teams(self) -> dict[int, list[int]]:
        """teams=pairs: each team's seats (partners sit opposite); empty without teams."""
        view = self.view
        out: dict[int, list[int]] = {}
        if view is not None:
            for info in view.seats:
                if info.team is not None:
                    out.setdefault(info.team, []).append(info.seat)
        return out

    def team_points(self, team: int) -> int:
        """A team's total. Partners are credited the same round points (unonet.scoring), so
        each holds the team's score, less any refused jump-in of their own; the higher one is
        what counts towards the target (a sum would count the team twice)."""
        view = self.view
        seats = self.teams().get(team, [])
        if view is None or not seats:
            return 0
        return max(view.seats[s].score for s in seats)

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
                if self.lobby is not None:  # a reconnection: the names are known
                    self._tell_missed()
            case link.GameEvent(event=event, legal=legal):
                self._tell_missed()
                self.apply_event(event, legal)
            case link.MissedEvents(events=events):
                self._missed += events
                del self._missed[:-LOG_LINES]  # more could not show
            case link.ManifestReceived(manifest=manifest):
                self.manifest = manifest
            case link.LobbyChanged(lobby=lobby):
                self.apply_lobby(lobby)
                self._tell_missed()
            case link.TablesListed(tables=tables):
                if self.lobby is not None or self.tracker is not None:
                    self._leave_table()  # the link lists tables only when it is at none
                self.tables = tables
                self.table_cursor = min(self.table_cursor, max(0, len(tables) - 1))
            case link.ChatReceived(name=name, text=text, seat=seat, host=host):
                if host:
                    text = self._notice_words(update) or text  # SPEC.md [UNO-8-31]
                    line = ChatLine(shown(name), shown(text), None, "host")
                    # how friends join comes with each seating, a resume too: said once
                    if update.notice != "join_with" or line not in self.chat:
                        self._chat(line)
                else:
                    self._chat(ChatLine(shown(name), shown(text), seat),
                               mine=self._said_by_us(name, seat))
            case link.SeatNews(what=what, name=name, seat=seat, old=old):
                text = self.tr(f"news.{what}", name=shown(name), seat=seat + 1, old=shown(old))
                self._chat(ChatLine(self.tr("news.table"), text, None, "local"))
            case link.LocalNews(key=key, values=values):
                self._chat(ChatLine("unonet", self.tr(key, **values), None, "local"))
            case link.Hosting():
                self.hosting = True
                self._chat(ChatLine("unonet", self.tr("news.hosting"), None, "local"),
                           mine=True)
            case link.HostKeyWarning():
                self.host_key = update
                self.local_prompt = None
                self.show_help = self.show_trust = False
            case link.TrustReport():
                self.apply_trust(update)
            case link.TrustStatus():
                self.trust = update
                if self.show_trust:
                    self.trust_seen = len(update.violations)  # it is on the screen now
            case link.ConnectionChanged(state=state, detail=detail, attempt=attempt, code=code):
                self.connection = state
                self.connection_detail = detail
                self.connection_code = code
                self.connection_retry = update if attempt else None
                if state != "connected":
                    self.legal = ()  # the host is gone: nothing can be played until it is back
            case link.Refused(code=code, message=message):
                reason = self.refusal_reason(code, message)
                if code == "invalid_resume":
                    # Our seat is gone (the link joins again as a newcomer): so is the table
                    # it showed, and this refusal lands on whatever comes next.
                    self._leave_table()
                # A fatal refusal is said by the connection's end (ConnectionChanged), not
                # here: what arrives is a refusal of something we did, the kick, or our seat
                # being gone (invalid_resume), each about the table's state.
                if code == "kicked" and self.lobby is not None:
                    # The seat is no longer ours, and the host has freed it: the lobby shows
                    # it empty, not ours (before the notice, which holds while the lobby
                    # stays as it is then).
                    lobby = self.lobby
                    seats = tuple(
                        SeatInfo(info.seat, "empty", None, False, False)
                        if info.seat == lobby.you else info for info in lobby.seats)
                    self.lobby = replace(lobby, you=None, seats=seats)
                self.refused(self.tr("n.refused", reason=shown(reason or code)))
        self._expire_notice()

    def _notice_words(self, notice: link.ChatReceived) -> str | None:
        """A host notice in our player's words, if we know its code and it has what the words
        need (else the host's `text` is shown: SPEC.md [UNO-8-31])."""
        if notice.notice == "join_with":
            if notice.command is None:
                return None
            # the host's words for it, in our player's language
            return join_sentence(Words(self.tr.lang), notice.command, notice.addresses)
        key = f"notice.{notice.notice}"
        if notice.notice is None or not self.tr.has(key):
            return None
        return self.tr(key, name=notice.about or "?")

    def refusal_reason(self, code: str, message: str) -> str:
        """A refusal in the player's words: ours for the codes whose meaning is ours to say
        (a move refused, a seat given up); else the host's own words where the player reads
        English (they name the seat, the limit; unonet's host writes its diagnostic `msg` in
        English), and our words for the code in another language."""
        if self.tr.has(f"err.{code}"):
            return self.tr(f"err.{code}")
        if self.tr.lang != "en" or not message:
            if self.tr.has(f"refusal.{code}"):
                return self.tr(f"refusal.{code}")
            if code in ENGINE_CODES:  # a move the table had moved on from (a race)
                return self.tr("refusal.move")
        return message

    def _leave_table(self) -> None:
        """We are at no table any more (our seat was lost, the table we were at is gone):
        nothing of it stays on the screen. Found in tmux: after a host restart that did not
        keep a lobby's table, its lobby stayed on screen for good, with us as its owner."""
        self.lobby = None
        self.tracker = None  # the manifest stays: the link decodes what follows against it
        self.legal = ()
        self.tables = None  # until the link lists them anew
        self.results = []
        self.eliminated = set()
        self.marked, self.pressed = [], []
        self.local_prompt = None
        self.reading_scores = self.rematch_asked = False
        self.trust = link.TrustStatus()
        self.trust_seen = 0
        self.show_trust = False

    def _chat(self, line: ChatLine, mine: bool = False) -> None:
        """A chat line: unread until the chat has the keys, unless we said it."""
        self.chat.append(line)
        if not (mine or self.chat_focused):
            self.chat_unread = min(self.chat_unread + 1, CHAT_LINES)

    def _said_by_us(self, name: str, seat: int | None) -> bool:
        """Our own line coming back from the host (a spectator's has no seat: by name)."""
        if seat is not None:
            return seat == self.me
        return self.me is None and name == self.my_name

    def focus_chat(self, focused: bool) -> None:
        """The input line got (or gave back) the keys: with them, every line is read; given
        back, the chat shows its newest lines again."""
        self.chat_focused = focused
        if focused:
            self.chat_unread = 0
        else:
            self.chat_back = 0

    def scroll_chat(self, lines: int, depth: int) -> None:
        """PgUp/PgDn: the chat `lines` further back (negative: forward), never past its newest
        line nor `depth`, the wrapped lines before it on the screen (render.chat_depth)."""
        self.chat_back = min(max(0, self.chat_back + lines), max(0, depth))

    def apply_snapshot(self, view: View, legal: tuple[Action, ...] | list[Action]) -> None:
        if self.manifest is None:
            raise ValueError("a snapshot needs the deck manifest first")
        old = self.view
        if old is not None and old.phase == Phase.MATCH_OVER and view.phase != Phase.MATCH_OVER:
            self.results = []  # a new match (a rematch): its rounds only
            self.eliminated = set()
            self.rematch_asked = False
        self.tracker = ViewTracker(view, self.manifest)
        self._set_legal(tuple(legal))

    def apply_event(self, event: ev.Event, legal: tuple[Action, ...] | list[Action]) -> None:
        if self.tracker is None or self.manifest is None:
            return  # events before the first snapshot carry nothing we can place
        self.tracker.apply(event)
        if isinstance(event, ev.RoundStarted):
            self.knocked = {}
            self.reading_scores = False
            self.selected = 0
            self.uno_armed = False
            self.marked = []
        self._follow_race(event)
        if isinstance(event, ev.RoundEnded):
            view = self.tracker.view
            faces = tuple(tuple(self.face(card) for card in hand) for hand in event.hands)
            self.results.append(RoundResult(view.round_no, event.winner, event.hands,
                                            event.points, event.scores, view.side, faces))
            # Hold the next deal while we read the scores (SPEC.md [UNO-8-13]); Enter lets go.
            # A spectator holds nothing (it was refused at every round's end, unasked).
            self.reading_scores = True
            if not self.watching:
                self.outbox.append(SetReady(False))
        if isinstance(event, ev.Flipped):
            self.say(self.flipped_words(event), "race")  # until the next card is played
        self._tell(event)
        self._set_legal(tuple(legal))

    def _tell(self, event: ev.Event) -> None:
        """An event in the log, in words."""
        if self.tracker is None or self.manifest is None:
            return
        manifest, names, side = self.manifest, self.names(), self.side
        dark = self._dark.of(self.tracker.view.dark_faces)
        pairs = any(info.team is not None for info in self.tracker.view.seats)
        self.draw_runs.tell(self.log, event, lambda told: narrate(
            told, names, manifest, self.me, self.tr.lang, side, dark, pairs))

    def _tell_missed(self) -> None:
        """What happened in the round before we came (back), in the log before what follows."""
        missed, self._missed = self._missed, []
        for event in missed:
            self._tell(event)

    def roulette_words(self, seat: int, color: Color, cards: tuple[int, ...]) -> str:
        """The notice line after a Color Roulette: who named which colour and every card it
        turned, kept by that player (until the next card is played)."""
        turned = ", ".join(self.tr.card(self.face(card)) for card in cards)
        if seat == self.me:
            return self.tr("ui.roulette_turned_you", color=self.tr.color(color),
                           count=len(cards), cards=turned)
        return self.tr("ui.roulette_turned", name=self.name(seat), color=self.tr.color(color),
                       count=len(cards), cards=turned)

    def flipped_words(self, event: ev.Flipped) -> str:
        """The notice line when the table turns over: who, the side now up, what to match."""
        side = self.tr("side.dark" if event.side else "side.light")
        top = self.tr.card(self.face(event.top, event.side))
        if event.seat == self.me:
            return self.tr("ui.flipped_you", side=side, card=top)
        return self.tr("ui.flipped", name=self.name(event.seat), side=side, card=top)

    def _follow_race(self, event: ev.Event) -> None:
        """Who pressed B, in order, and the race's result as a notice; who was eliminated."""
        match event:
            case ev.BuzzerOpened():
                self.pressed = []
            case ev.Buzzed(seat=seat):
                self.pressed.append(seat)
            case ev.BuzzerClosed(losers=losers, penalty=penalty):
                if tuple(losers) == (self.me,):
                    self.say(self.tr("ui.buzz_result_you", count=penalty), "race")
                elif losers:
                    names = ", ".join(self.name(s) for s in losers)
                    self.say(self.tr("ui.buzz_result", names=names, count=penalty), "race")
                else:
                    self.say(self.tr("ui.buzz_nobody"), "race")
            case ev.SeatEliminated(seat=seat):
                self.eliminated.add(seat)
            case ev.KnockedOut(seat=seat, penalty=penalty):
                self.knocked[seat] = penalty
            case ev.RouletteTurned(seat=seat, color=color, cards=cards):
                self.say(self.roulette_words(seat, color, cards), "race")
            case ev.MatchEnded():
                self.pressed = []

    def apply_lobby(self, lobby: LobbyState) -> None:
        before = self.lobby
        self.lobby = lobby
        if before is not None and before.table == lobby.table and not lobby.started:
            self._rules_news(before, lobby)
        self.option_cursor = min(self.option_cursor, len(editor_options()) - 1)
        if self.name_pending and lobby.you is not None and not lobby.started:
            # create_table seats us under the hello name; ours was chosen later ([UNO-8-14])
            self.name_pending = False
            if lobby.you < len(lobby.seats) and lobby.seats[lobby.you].name != self.my_name:
                self.outbox.append(JoinTable(lobby.table, self.my_name))

    def _rules_news(self, before: LobbyState, lobby: LobbyState) -> None:
        """The owner changed the rules: said in the chat to everyone but the owner (who sees
        the editor), with what changed. The host makes every player ready again then: a
        player who was ready hears it, else the start waits on them without a word why."""
        if before.rules == lobby.rules:
            return
        if lobby.you is not None and lobby.you == lobby.owner:
            self._own_rules_news(before, lobby)
            return
        base, unready = before.rules, False
        said = self._rules_said
        if said is not None and self.chat and self.chat[-1] is said[0]:
            base, unready = said[1], said[2]  # the same stretch of changes: one line for it
            self.chat.pop()
            self.chat_unread = max(0, self.chat_unread - 1)
        changed = rule_changes(base, lobby.rules, self.tr.lang)
        owner = lobby.owner
        name = (lobby.seats[owner].name if owner is not None and owner < len(lobby.seats)
                else None) or "?"
        if not changed:  # changed, then changed back
            text = self.tr("news.rules_back", name=shown(name))
        elif len(changed) > RULE_CHANGES_SAID:
            text = self.tr("news.rules_many", name=shown(name), count=len(changed))
        else:
            text = self.tr("news.rules", name=shown(name), changes="; ".join(changed))
        was = next((s for s in before.seats if s.seat == before.you), None)
        now = next((s for s in lobby.seats if s.seat == lobby.you), None)
        unready = unready or (was is not None and now is not None and was.ready
                              and not now.ready)
        if unready and now is not None and not now.ready:
            text += " · " + self.tr("news.ready_again")
        line = ChatLine(self.tr("news.table"), text, None, "local")
        self._chat(line)
        self._rules_said = (line, base, unready)

    def _own_rules_news(self, before: LobbyState, lobby: LobbyState) -> None:
        """The owner's change of one option that changed others with it (a variant puts back
        what it plays itself, SPEC [UNO-8-34]): said to the owner, whose editor shows the
        option asked while the others change out of its sight."""
        asked, self._option_asked = self._option_asked, None
        if asked is None:
            return
        also = rule_changes(before.rules, lobby.rules, self.tr.lang, besides=asked)
        if also:
            text = self.tr("news.rules_also", option=option_words(asked, lobby.rules,
                                                                  self.tr.lang),
                           changes="; ".join(also))
            self._chat(ChatLine(self.tr("news.table"), text, None, "local"))

    def apply_trust(self, report: link.TrustReport) -> None:
        """A check's outcome: a violation goes into the log too (the panel keeps them all);
        a check that passed is routine, the title bar's round status says it."""
        if not report.ok:
            self.log.append(self.tr("trust.caught", what=self.violation_words(report.kind,
                                                                              report.detail)))

    def violation_words(self, kind: str, detail: str = "") -> str:
        """What the host was caught at, in the player's language (the code's own words when
        this client has none for it)."""
        key = f"trust.{kind}"
        return self.tr(key) if key in self.tr.strings else (detail or kind)

    @property
    def unseen_violation(self) -> link.Caught | None:
        """The newest violation the player has not seen on the trust panel yet."""
        violations = self.trust.violations
        return violations[-1] if len(violations) > self.trust_seen else None

    def toggle_trust(self) -> None:
        """`t`: open the trust panel (every violation on it counts as seen) or close it."""
        self.show_trust = not self.show_trust
        self.show_help = False
        if self.show_trust:
            self.trust_seen = len(self.trust.violations)

    def _set_legal(self, legal: tuple[Action, ...]) -> None:
        self.legal = legal
        deciding = self._deciding()
        if deciding and not self.was_deciding:
            self.bell = True
        self.was_deciding = deciding
        prompt = self.local_prompt
        if isinstance(prompt, ColorPrompt) and prompt.card not in self.playable:
            self.local_prompt = None
        hand = self.hand
        if not self.uno_possible:
            self.uno_armed = False
        self.marked = [c for c in self.marked if c in hand]
        if not any(isinstance(a, ChooseTarget) for a in legal):
            self.target_cursor = 0
        drawn = self.prompt
        if isinstance(drawn, DrawnCardPrompt) and drawn.card in hand:
            self.selected = hand.index(drawn.card)
        self.selected = min(self.selected, max(0, len(hand) - 1))
        view = self.view
        table = (tuple(hand), view.top_card if view is not None else None, self.playable)
        if self.my_turn and (not self.was_my_turn or table != self.turn_table):
            # A turn that starts, or one that goes on over a new table (our own Skip or
            # Reverse with two players, a card drawn) or with other cards that play (the
            # colour of a turned-up Wild just named): the selection is read afresh.
            self._select_playable()
        self.was_my_turn = self.my_turn
        self.turn_table = table

    def _select_playable(self) -> None:
        """As our turn starts, the selection moves to the first card that plays, unless the
        selected one does: Enter then plays something."""
        playable = self.playable
        hand = self.hand
        if self.selected_card in playable:
            return
        for index, card in enumerate(hand):
            if card in playable:
                self.selected = index
                return

    def _deciding(self) -> bool:
        """A decision of ours is pending: our turn, a decision on us, or a buzzer race (not
        merely a chance to call UNO, catch or jump in, which would ring at every card)."""
        if any(isinstance(a, Buzz) for a in self.legal):
            return True
        return self.my_turn and any(not isinstance(a, CallUno | Catch) for a in self.legal)

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
        if len(self.marked) > 1 and not isinstance(prompt, DrawnCardPrompt):
            return self._play_marked()
        card = prompt.card if isinstance(prompt, DrawnCardPrompt) else self.selected_card
        if len(self.marked) == 1:
            card = self.marked[0]
        if card is None:
            return None
        plays = [a for a in self.legal if isinstance(a, Play) and a.card == card and not a.also]
        if not plays:
            if self.my_turn:
                self.notice = self.tr("n.not_playable", card=self.tr.card(self.face(card)))
            elif (rules := self.rules()) is not None and rules.jump_in != "off" and any(
                    isinstance(a, Play) for a in self.legal):  # a jump-in is open, not to it
                self.notice = self.tr(f"n.not_jump_in_{rules.jump_in}",
                                      card=self.tr.card(self.face(card)))
            else:
                self.notice = self.tr("n.not_your_turn")
            return None
        uno = self.uno_armed and any(a.uno for a in plays)
        face = self.face(card)
        if face is not None and face.is_wild and face.names_color:  # a Roulette names none
            colors = tuple(dict.fromkeys(a.color for a in plays if a.color is not None))
            self.local_prompt = ColorPrompt(card, colors, uno)
            self.notice = ""
            return None
        action = next((a for a in plays if a.uno == uno), plays[0])
        return self._played(action)

    def _play_marked(self) -> Action | None:
        """The marked cards as one Play with `also`, in the order they were marked if the
        legal list has that order, else in an order it lists for the same cards."""
        marked = tuple(self.marked)
        together = [a for a in self.legal if isinstance(a, Play) and a.also
                    and sorted((a.card, *a.also)) == sorted(marked)]
        if not together:
            self.notice = self.tr("n.not_together")
            return None
        in_order = [a for a in together if (a.card, *a.also) == marked] or together
        uno = self.uno_armed and any(a.uno for a in in_order)
        action = next((a for a in in_order if a.uno == uno), in_order[0])
        return self._played(action)

    def toggle_mark(self) -> None:
        """M: mark the selected card to be played with others (or unmark it). Offered only
        while the legal list holds a play of several cards, or cards are already marked."""
        card = self.selected_card
        if card is None:
            return
        if card in self.marked:
            self.marked.remove(card)
            self.notice = ""
            return
        if not self.multi_offered:
            self.notice = self.tr("n.no_multi")
            return
        self.marked.append(card)
        self.notice = ""

    def _played(self, action: Action | None) -> Action | None:
        if action is not None:
            self.marked = []
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

    def space_action(self) -> Action | None:
        """What Space does now, if anything: on a +4 or a pending total, take it; else draw;
        after drawing, keep the card and pass (the key bar says which)."""
        for kind in (Accept, Draw, Pass):
            for action in self.legal:
                if isinstance(action, kind):
                    return action
        return None

    def draw(self) -> Action | None:
        """Space: `space_action`, or why there is none."""
        action = self.space_action()
        if action is not None:
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
        if self.uno_possible:
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

    def move_target(self, step: int) -> None:
        """An arrow key in the swap chooser: the next player to swap with."""
        prompt = self.prompt
        if isinstance(prompt, TargetPrompt):
            self.target_cursor = (prompt.cursor + step) % len(prompt.targets)

    def choose_target_at_cursor(self) -> Action | None:
        """Enter in the swap chooser: swap hands with the player under the cursor."""
        prompt = self.prompt
        if not isinstance(prompt, TargetPrompt):
            return None
        return self.choose_target(prompt.targets[prompt.cursor])

    # -- intents: the screen -------------------------------------------------------------------

    def request_quit(self) -> None:
        self.show_help = False
        self.show_trust = False
        self.local_prompt = QuitPrompt()

    def toggle_help(self) -> None:
        self.show_help = not self.show_help
        self.show_trust = False
        self.help_page = 0

    def turn_help_page(self, step: int, pages: int) -> None:
        """↓/↑ while the help is open: the next or the previous of its `pages`."""
        self.help_page = min(max(0, self.help_page + step), max(0, pages - 1))

    @staticmethod
    def chat_line(text: str) -> str | None:
        """The chat text to send, trimmed and cut to the protocol's limit; None if empty."""
        return own_chat(" ".join(typed(text).split()))  # own_chat cuts it to the limit

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

    def watch_selected(self) -> LobbyCommand | None:
        """`w` on the table list: watch the selected table (a free seat can be taken later)."""
        if not self.tables:
            return None
        return Spectate(self.tables[min(self.table_cursor, len(self.tables) - 1)].table)

    def create_table(self) -> LobbyCommand:
        """A new table named for its owner in the owner's words ("Tavolo di Bea"), not the
        host's "table 3"; the host's name where ours would be too long or refused."""
        try:
            name = normal_name(self.tr("tables.new_name", name=self.my_name or "player"))
        except TextRefused:
            return CreateTable()
        return CreateTable(name)

    def set_name(self, text: str) -> LobbyCommand | None:
        """The name typed after `e` (spaces folded, cut to 32). Seated in the lobby it renames
        us there at once (a join at our own table, SPEC.md [UNO-8-14]); before joining, the
        next join carries it and a new table gets it right after seating us."""
        if not typed(text).split():
            self.notice = self.tr("n.name_empty")
            return None
        try:
            name = own_name(text)
        except TextRefused:  # nothing else is left to refuse but a reserved name
            self.notice = self.tr("n.name_reserved")
            return None
        self.my_name = name
        self.say(self.tr("n.name_set", name=name), "name")
        lobby = self.lobby
        if lobby is not None and lobby.you is not None and not lobby.started:
            return JoinTable(lobby.table, name)
        self.name_pending = lobby is None
        return None

    def move_to_seat(self, index: int) -> LobbyCommand | None:
        """A seat number in the lobby: sit there if it is empty. One join at our own table
        moves us (SPEC.md [UNO-8-14]), so the owner keeps the table and the seat is never
        free for someone else in between, as it would be with leave and join. A spectator
        takes the seat (the link leaves the audience first)."""
        lobby = self.lobby
        if lobby is None or lobby.started or index == lobby.you:
            return None
        if not 0 <= index < len(lobby.seats):
            self.notice = self.tr("n.no_seat", seat=index + 1)
            return None
        if lobby.seats[index].kind != "empty":
            self.notice = self.tr("n.seat_taken", seat=index + 1)
            return None
        self.notice = ""
        return JoinTable(lobby.table, self.my_name or "player", index)

    @property
    def watching(self) -> bool:
        """We are in a table's audience (public information only), not at a seat."""
        if self.lobby is None:
            return False
        view = self.view
        return self.lobby.you is None and (view is None or view.seat is None)

    def open_seats(self) -> list[int]:
        """The seats a spectator may take: in the lobby the empty ones; in mid-match those a
        stand-in plays because their player is gone (the host says so: `taken_over`, SPEC.md
        8.2 [UNO-8-23]); a seat whose player dropped and may still come back within its grace
        period is not offered, since the host would refuse it."""
        lobby = self.lobby
        if lobby is None:
            return []
        if not lobby.started:
            return [s.seat for s in lobby.seats if s.kind == "empty"]
        return [s.seat for s in lobby.seats if s.kind == "human" and s.taken_over]

    def take_seat(self, index: int) -> LobbyCommand | None:
        """A seat number while watching a match: sit in that seat if its player is gone."""
        lobby = self.lobby
        if lobby is None or not self.watching:
            return None
        if not lobby.started:
            return self.move_to_seat(index)
        if index not in self.open_seats():
            away = any(s.seat == index and s.kind == "human" and not s.connected
                       for s in lobby.seats)
            self.notice = self.tr("n.seat_waiting" if away else "n.seat_not_open", seat=index + 1)
            return None
        self.notice = ""
        return JoinTable(lobby.table, self.my_name or "player", index)

    def toggle_ready(self) -> LobbyCommand | None:
        lobby = self.lobby
        if lobby is None or lobby.you is None or lobby.you >= len(lobby.seats):
            return None
        return SetReady(not lobby.seats[lobby.you].ready)

    def rematch(self) -> LobbyCommand | None:
        """`r` after the match: ask for a rematch with the same seats (SPEC.md [UNO-8-20]);
        it starts once every player has asked, else the table's lobby follows."""
        lobby = self.lobby
        if lobby is None or lobby.you is None or self.rematch_asked:
            return None
        self.rematch_asked = True
        return SetReady(True)

    def ready_next_round(self) -> LobbyCommand | None:
        if self.watching:  # the players deal the next round; the scores stay until then
            return None
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
        self.option_cursor = (self.option_cursor + step) % len(editor_options())

    def change_option(self, step: int) -> LobbyCommand | None:
        """Owner: the option under the cursor, one value up or down (its choices or range),
        skipping values the engine does not play with the other options."""
        if not self._owner_only() or self.lobby is None:
            return None
        info = editor_options()[min(self.option_cursor, len(editor_options()) - 1)]
        rules = {k: v for k, v in self.lobby.rules.items() if k in OPTIONS}
        current = rules.get(info.name, getattr(RuleSet(), info.name))
        seated = sum(1 for seat in self.lobby.seats if seat.kind != "empty")
        value = step_option(info, rules, step, max(2, seated))
        if value == current:
            return None
        self._option_asked = info.name
        return SetRules({info.name: value})  # over the rules in force: the others stay

    def next_preset(self) -> LobbyCommand | None:
        """Owner, `p`: the next preset the engine plays (never flip or no_mercy)."""
        if not self._owner_only() or self.lobby is None:
            return None
        names = playable_presets()
        now = names.index(self.lobby.preset) if self.lobby.preset in names else -1
        return SetRules({}, names[(now + 1) % len(names)])

    def add_bot(self) -> LobbyCommand | None:
        return AddBot() if self._owner_only() else None

    def remove_bot(self) -> LobbyCommand | None:
        if not self._owner_only() or self.lobby is None:
            return None
        bots = [s.seat for s in self.lobby.seats if s.kind == "bot"]
        return RemoveBot(bots[-1]) if bots else None

    def ask_kick(self) -> None:
        """`k` in the lobby (owner): the next seat number is whom to remove."""
        if self._owner_only() and self.lobby is not None and not self.lobby.started:
            self.local_prompt = SeatPrompt("kick")

    def ask_penalty(self) -> None:
        """`p` during a round (owner): the next seat number draws the hinting penalty."""
        if self.local_prompt is not None:
            return  # a colour being chosen stays open: its card is half played
        if self._owner_only() and self.view is not None:
            self.local_prompt = SeatPrompt("penalize")

    def pick_seat(self, index: int) -> LobbyCommand | None:
        """A seat number answering the SeatPrompt: the command for that seat. Kicking a bot
        removes it (the owner's x, for that seat); our own seat or an empty one is refused
        here with a notice, the rest is the host's to judge."""
        prompt = self.local_prompt
        self.local_prompt = None
        lobby = self.lobby
        if not isinstance(prompt, SeatPrompt) or lobby is None:
            return None
        if not 0 <= index < len(lobby.seats):
            self.notice = self.tr("n.no_seat", seat=index + 1)
            return None
        seat = lobby.seats[index]
        if index == lobby.you:
            self.notice = self.tr("n.not_yourself")
            return None
        if seat.kind == "empty":
            self.notice = self.tr("n.seat_empty", seat=index + 1)
            return None
        self.notice = ""
        if prompt.kind == "penalize":
            return Penalize(index)
        return RemoveBot(index) if seat.kind == "bot" else Kick(index)

    def start_match(self) -> LobbyCommand | None:
        return StartMatch() if self._owner_only() else None

