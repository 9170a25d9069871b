"""The client's state, and what every screen reads of it: `ModelState`.

The screens (client/screen_*.py: the table list, the lobby, the round, the scores) and the
panels every screen has (client/model_panels.py) are mixins over this one state; `ClientModel`
(client/model.py) puts them together and folds the link's updates into it. Here: the state
itself, the notice line's lifetime, and the reads no screen owns (who we are, the seats'
names, the table's rules, which screen is up).
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from client import link
from client.draw_log import DrawRuns
from client.fold import ViewTracker
from client.i18n import Translator
from client.lobby import LobbyCommand, LobbyState, TableInfo
from client.prompts import ColorPrompt, QuitPrompt, SeatPrompt
from client.rule_editor import game_options
from client.safe_text import shown
from unonet import events as ev
from unonet.actions import Action
from unonet.cards import ALL_COLORS, DeckManifest, Face, Kind
from unonet.errors import ErrorCode
from unonet.in_play import DarkFaces, face_in_play
from unonet.phase import Phase
from unonet.rules import OPTIONS, OptionInfo, RuleSet
from unonet.view import View

ENGINE_CODES = frozenset(str(code) for code in ErrorCode)
"""The engine's codes for a refused move (SPEC.md 12). Those with no words of their own
(err.*) are said as "not possible now" outside English: the interface offers only legal
moves, so a refused one was a race with the table."""

LOG_LINES = 200

BOT_LEVELS = ("normal", "strong", "random")
"""The bot levels the lobby's `l` goes through, the default first (the policies of
unonet.bots; players see them as normal, hard and easy)."""

CHAT_LINES = 100

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


TIMER_BELL_AT = 5.0
"""Seconds left on a timer of ours when the bell rings (unless --no-bell): time enough to
press a key, late enough not to ring at every turn of a long think_time."""


@dataclass(frozen=True, slots=True)
class Countdown:
    """A timer of the game as the host announced it (SPEC.md [UNO-8-24]): it ends at `ends`
    on the model's clock, waiting on `seats`; `kind` is the phase it times."""

    ends: float
    seats: tuple[int, ...]
    kind: str = ""


@dataclass(frozen=True, slots=True)
class JoinLine:
    """How friends join this host, as its join_with notice says (SPEC.md [UNO-8-27]): the
    command to copy, and the host's other addresses ("" if none)."""

    command: str
    others: str = ""


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


class ModelState:
    """The whole client state. Mutated only by `ClientModel.apply` (updates) and the intent
    methods of the screens."""

    def __init__(self, tr: Translator, name: str = "",
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.tr = tr
        self.clock = clock  # a timer counts down from when its `timer` arrived, by this clock
        self.timer: Countdown | None = None  # the game's timer that runs now, if any
        self.my_name = name
        self.bot_level = BOT_LEVELS[0]  # what the owner's `a` seats (`l` changes it)
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
        self.show_sides = False
        """UNO Flip: the page of every player's other side (`o`) covers the table."""
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
        self.timer_rang: Countdown | None = None  # the timer whose last seconds rang
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
        self.join_with: JoinLine | None = None  # how friends join: the lobby's line to copy
        self.chat_focused = False  # the input line has the keys (the app says, on Tab)
        self.chat_unread = 0  # chat lines that came while the table had the keys
        self.host_key: link.HostKeyWarning | None = None  # another fingerprint: shown whole
        self.draw_runs = DrawRuns()  # a run of single-card draws is one log line
        self.knocked: dict[int, int] = {}  # seats knocked out this round -> their points

    # -- what every screen reads ---------------------------------------------------------------

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
    def timer_left(self) -> int | None:
        """Whole seconds left on the game's timer (rounded up: 0 only once it is over), None
        when none runs."""
        timer = self.timer
        if timer is None:
            return None
        return max(0, math.ceil(timer.ends - self.clock()))

    @property
    def timer_ours(self) -> bool:
        """The running timer waits on us."""
        timer = self.timer
        return timer is not None and self.me is not None and self.me in timer.seats

    def timer_bell(self) -> bool:
        """True once per timer of ours, when TIMER_BELL_AT seconds or less are left: the app
        rings then (unless --no-bell)."""
        timer, left = self.timer, self.timer_left
        if timer is None or left is None or not self.timer_ours or timer is self.timer_rang:
            return False
        if timer.ends - self.clock() > TIMER_BELL_AT:
            return False
        self.timer_rang = timer
        return True

    @property
    def shown_options(self) -> tuple[OptionInfo, ...]:
        """The rule editor's options: those of the game the table plays (game_options)."""
        lobby = self.lobby
        variant = lobby.rules.get("variant") if lobby is not None else None
        return game_options(variant if isinstance(variant, str) else RuleSet().variant)

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

    def face(self, card: int, side: int | None = None) -> Face | None:
        """`card`'s face on `side`, by default the side in play: light from the manifest, dark
        as we were told this round (UNO Flip); None for one never told (unonet.in_play)."""
        view = self.view
        if self.manifest is None or view is None:
            return None
        which = self.side if side is None else side
        return face_in_play(self.manifest, card, which, self._dark.of(view.dark_faces))

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

    def rules(self) -> RuleSet | None:
        """The table's rules as a RuleSet, when the lobby's options make a valid one."""
        if self.lobby is None:
            return None
        known = {k: v for k, v in self.lobby.rules.items() if k in OPTIONS}
        try:
            return RuleSet(**known)
        except (TypeError, ValueError):
            return None

    @property
    def watching(self) -> bool:
        """We are in a table's audience (public information only), not at a seat."""
        if self.lobby is None:
            return False
        view = self.view
        return self.lobby.you is None and (view is None or view.seat is None)

    def _owner_only(self) -> bool:
        if not self.is_owner:
            self.notice = self.tr("n.only_owner")
            return False
        return True

    def _chat(self, line: ChatLine, mine: bool = False) -> None:
        """A chat line: unread until the chat has the keys, unless we said it."""
        self.chat.append(line)
        if not (mine or self.chat_focused):
            self.chat_unread = min(self.chat_unread + 1, CHAT_LINES)

    def _leave_table(self) -> None:
        """We are at no table any more (our seat was lost, the table we were at is gone):
        nothing of it stays on the screen. Found in tmux: after a host restart that did not
        keep a lobby's table, its lobby stayed on screen for good, with us as its owner."""
        self.lobby = None
        self.timer = None
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
        self.show_trust = self.show_sides = False
