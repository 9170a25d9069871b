"""A round in play: our hand and what it may play, the question the legal list asks
(client/prompts.py), the log, and how each event of the round changes what is shown."""

from __future__ import annotations

from client import link
from client.fold import ViewTracker
from client.model_state import DANGER_MARGIN, Countdown, ModelState, shown_order
from client.prompts import (
    CANCELLING,
    DEFLECTING,
    BuzzPrompt,
    ChallengePrompt,
    ColorPrompt,
    DrawnCardPrompt,
    Prompt,
    StackPrompt,
    TargetPrompt,
)
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
    Pass,
    Play,
)
from unonet.cards import CHALLENGEABLE_KINDS, DRAW_AMOUNTS, Color, Kind
from unonet.narrate import narrate
from unonet.phase import Phase
from unonet.view import View


class RoundScreen(ModelState):
    """The round as our seat sees it (`tracker`, `legal`, the selection and prompts)."""

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
        elif self.jump_in_open and table != self.turn_table:
            # A jump-in opens (or another card may jump in now): Enter plays what is selected,
            # so the selection moves to a card that can (found in tmux: "Jump in: Enter plays
            # a playable card" while the selection sat on one that could not).
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

    def _on_timer(self, update: link.TimerChanged) -> None:
        """A timer of the game started, or none runs now (SPEC.md [UNO-8-24])."""
        if update.seconds is None:
            self.timer = None
            return
        self.timer = Countdown(self.clock() + update.seconds, update.seats, update.kind)

    # -- the round's events, each told by its handler (client/model.py EVENT_HANDLERS) ------

    def _round_started(self, event: ev.RoundStarted) -> None:
        self.knocked = {}
        self.reading_scores = False
        self.selected = 0
        self.uno_armed = False
        self.marked = []

    def _flipped(self, event: ev.Flipped) -> None:
        self.say(self.flipped_words(event), "race")  # until the next card is played

    def _buzzer_opened(self, event: ev.BuzzerOpened) -> None:
        self.pressed = []

    def _buzzed(self, event: ev.Buzzed) -> None:
        """Who pressed B, in order."""
        self.pressed.append(event.seat)

    def _buzzer_closed(self, event: ev.BuzzerClosed) -> None:
        """The race's result as a notice, until the next card is played."""
        losers = event.losers
        if tuple(losers) == (self.me,):
            self.say(self.tr("ui.buzz_result_you", count=event.penalty), "race")
        elif losers:
            names = ", ".join(self.name(s) for s in losers)
            self.say(self.tr("ui.buzz_result", names=names, count=event.penalty), "race")
        else:
            self.say(self.tr("ui.buzz_nobody"), "race")

    def _roulette_turned(self, event: ev.RouletteTurned) -> None:
        self.say(self.roulette_words(event.seat, event.color, event.cards), "race")

    def _match_ended(self, event: ev.MatchEnded) -> None:
        self.pressed = []
