"""What the screen shows, and what each key asks for: the client's one state object, no I/O.

`ClientModel` is fed engine values (a View, events, legal actions: what the protocol decodes),
lobby, chat, trust and connection updates, and keeps everything the renderer draws. Keys become
intents through its methods, which return the engine Action (or lobby command) to send, or None
when the key only changed the screen (a colour picker opening, a selection moving) or did
nothing (then `notice` says why). An Action returned is always one of the current legal actions:
the host decides, the client never guesses rules (SPEC.md: a minimal client needs none).

It is put together by screen, one module each: the table list (screen_tables.py), the lobby
(screen_lobby.py), the round (screen_round.py, its keys in round_keys.py, its questions in
prompts.py) and the scores (screen_scores.py), over the state they share (model_state.py) and
the panels every screen has (model_panels.py: chat, help, trust). Here: how each update and
each event of the round is folded, looked up by its type in a table.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from client import link
from client.model_panels import Panels
from client.model_state import (
    CHAT_LINES,
    LANDING_SCREENS,
    LOG_LINES,
    ChatLine,
    ModelState,
    Notice,
    RoundResult,
    Screen,
    shown_order,
)
from client.prompts import (
    BuzzPrompt,
    ChallengePrompt,
    ColorPrompt,
    DrawnCardPrompt,
    Prompt,
    QuitPrompt,
    SeatPrompt,
    StackPrompt,
    TargetPrompt,
)
from client.round_keys import RoundKeys
from client.screen_lobby import LobbyScreen
from client.screen_round import RoundScreen
from client.screen_scores import ScoresScreen
from client.screen_tables import TableListScreen
from unonet import events as ev
from unonet.actions import Action

__all__ = [
    "CHAT_LINES", "LANDING_SCREENS", "LOG_LINES", "BuzzPrompt", "ChallengePrompt", "ChatLine",
    "ClientModel", "ColorPrompt", "DrawnCardPrompt", "ModelState", "Notice", "Prompt",
    "QuitPrompt", "RoundResult", "Screen", "SeatPrompt", "StackPrompt", "TargetPrompt",
    "shown_order",
]


class ClientModel(TableListScreen, LobbyScreen, RoundKeys, ScoresScreen, Panels):
    """The whole client state: the screens' mixins over one ModelState. Mutated only by
    `apply` (updates, each by its handler in UPDATE_HANDLERS) and the intent methods."""

    def apply(self, update: link.Update) -> None:
        """Fold one update from the link into the state."""
        handler = UPDATE_HANDLERS.get(type(update))
        if handler is not None:
            handler(self, update)
        self._expire_notice()

    def apply_event(self, event: ev.Event, legal: tuple[Action, ...] | list[Action]) -> None:
        """One event of the round: the view follows it, its handler (EVENT_HANDLERS) changes
        what it changes on the screen, the log tells it, the legal list comes after it."""
        if self.tracker is None or self.manifest is None:
            return  # events before the first snapshot carry nothing we can place
        self.tracker.apply(event)
        handler = EVENT_HANDLERS.get(type(event))
        if handler is not None:
            handler(self, event)
        self._tell(event)
        self._set_legal(tuple(legal))

    def _on_snapshot(self, update: link.Snapshot) -> None:
        self.apply_snapshot(update.view, update.legal)
        if self.lobby is not None:  # a reconnection: the names are known
            self._tell_missed()

    def _on_game_event(self, update: link.GameEvent) -> None:
        self._tell_missed()
        self.apply_event(update.event, update.legal)

    def _on_missed(self, update: link.MissedEvents) -> None:
        self._missed += update.events
        del self._missed[:-LOG_LINES]  # more could not show

    def _on_manifest(self, update: link.ManifestReceived) -> None:
        self.manifest = update.manifest

    def _on_lobby(self, update: link.LobbyChanged) -> None:
        self.apply_lobby(update.lobby)
        self._tell_missed()


Handler = Callable[[ClientModel, Any], None]

UPDATE_HANDLERS: dict[type, Handler] = {
    link.Snapshot: ClientModel._on_snapshot,
    link.GameEvent: ClientModel._on_game_event,
    link.MissedEvents: ClientModel._on_missed,
    link.ManifestReceived: ClientModel._on_manifest,
    link.LobbyChanged: ClientModel._on_lobby,
    link.TablesListed: TableListScreen._on_tables,
    link.ChatReceived: Panels._on_chat,
    link.SeatNews: Panels._on_seat_news,
    link.LocalNews: Panels._on_local_news,
    link.Hosting: Panels._on_hosting,
    link.HostKeyWarning: Panels._on_host_key,
    link.TrustReport: Panels.apply_trust,
    link.TrustStatus: Panels._on_trust_status,
    link.ConnectionChanged: Panels._on_connection,
    link.Refused: Panels._on_refused,
    link.TimerChanged: RoundScreen._on_timer,
}
"""Each update the link delivers (client/link.py), by type: how the state folds it."""

EVENT_HANDLERS: dict[type, Handler] = {
    ev.RoundStarted: RoundScreen._round_started,
    ev.Flipped: RoundScreen._flipped,
    ev.BuzzerOpened: RoundScreen._buzzer_opened,
    ev.Buzzed: RoundScreen._buzzed,
    ev.BuzzerClosed: RoundScreen._buzzer_closed,
    ev.RouletteTurned: RoundScreen._roulette_turned,
    ev.MatchEnded: RoundScreen._match_ended,
    ev.RoundEnded: ScoresScreen._round_ended,
    ev.SeatEliminated: ScoresScreen._seat_eliminated,
    ev.KnockedOut: ScoresScreen._knocked_out,
}
"""The events that change more than the view and the log (the tracker and the narration see
every event), by type: a new round, a race, the table turning over, a result."""
