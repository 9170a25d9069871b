"""One round of UNO as an explicit state machine (RULEBOOK.md sections 1, 2 and 6).

`Round` holds the piles, the hands, whose turn it is and the one pending decision, in a single
`phase` (unonet.phase). `apply(seat, action)` judges the action before touching anything
(unonet.legality is the one judgement of a play), so a refused action leaves the state exactly
as it was; an accepted one returns its events. Randomness is the round key alone: the deck,
every reshuffle and the dealer draw are portable shuffles of it (unonet.shuffle), so
(rules, key, actions) replays to the same state.

What a card does is looked up by its kind (`_EFFECTS`); an option changes an entry or adds a
step there. A pending draw (`stacking`), a buzzer race, a swap target and a challenge are
decisions with their own phase, and `Pending` (unonet.view) carries them to everyone.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from unonet import events as ev
from unonet.actions import (
    TURN_ACTIONS,
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
from unonet.cards import ALL_COLORS, CHALLENGEABLE_KINDS, Color, DeckManifest, Face, Kind
from unonet.errors import EngineError, ErrorCode
from unonet.events import Position
from unonet.flip import FlipSight, other_side
from unonet.flip_deck import side_colors
from unonet.legality import cancels, legal_plays, play_refusal, plays_in_turn, refusal
from unonet.matching import holds_color
from unonet.phase import Phase
from unonet.plays import PlayTable, play_table
from unonet.rules import RuleSet
from unonet.scoring import hand_points
from unonet.shuffle import deal_order, reshuffle_order

__all__ = ["Phase", "Round", "Run"]

BUZZER_PENALTY = 2  # seed 003: the slowest to press B draws 2
_DRAW = Draw()
_PASS = Pass()
_ACCEPT = Accept()
_BUZZ = Buzz()
_CALL_UNO = CallUno()
_CHALLENGE_ANSWERS: tuple[Action, ...] = (Challenge(), Accept())


@dataclass(frozen=True, slots=True)
class Run:
    """The sequence window (`sequences`): `seat` may add the next number of its run in `color`
    out of turn while `serial` is still the turn serial (the next player has not acted)."""

    seat: int
    color: Color | None
    last: int
    step: int  # +1 rising, -1 falling, 0 after a single card (either way)
    serial: int


class Round:
    """The state of one round. Created dealt; ends in Phase.ROUND_OVER with a winner."""

    def __init__(
        self,
        rules: RuleSet,
        manifest: DeckManifest,
        seats: int,
        dealer: int,
        key: bytes,
        round_no: int = 1,
        stacked: Sequence[int] | None = None,
        table: PlayTable | None = None,
        absent: frozenset[int] = frozenset(),
    ) -> None:
        """`table` is the match's PlayTable for this deck (built here when None); `absent` are
        seats eliminated from the match, dealt no cards."""
        self.rules = rules
        self.round_no = round_no
        self.manifest = manifest
        self.seats = seats
        self.dealer = dealer
        self.key = key
        self.side = 0  # the face every card shows (UNO Flip turns it)
        self.colors: tuple[Color, ...] = ALL_COLORS[: rules.colors]
        self.table = table if table is not None else play_table(manifest, self.side, self.colors)
        self._faces = self.table.faces
        # Does any rule forbid a card that matches? Only then are hands looked at card by card.
        self.restricted_plays = not rules.action_finish or rules.wd4_policy == "enforce"

        self.hands: list[list[int]] = [[] for _ in range(seats)]
        self.out: set[int] = set(absent)  # seats out of the round: eliminated or knocked out
        self.absent = absent
        self.knocked_out: dict[int, int] = {}  # seat -> penalty points (max_hand)
        self.penalty_points = [0] * seats  # refused jump-ins
        self.draw_pile: list[int] = []  # top at the END (pop() draws)
        self.discard: list[int] = []  # top at the end
        self.origin: list[Position] = []  # card id -> its position (ids are 0..deck size-1)
        self.epoch = 0

        self.phase = Phase.TURN
        self.current = 0
        self.direction = 1
        self.active_color: Color | None = None
        self.turn_serial = 0
        self.drawn_card: int | None = None  # the drawn-card lock
        self.draws_this_turn = 0
        self.top_seat: int | None = None  # who played the top card (no jump-in on one's own)
        self.run: Run | None = None  # the sequence window
        # Who plays once the pending colour is named: None for the chooser itself (a first-card
        # Wild), the next player after a Flip that turned up a wild face.
        self.color_then: int | None = None

        # A pending draw (stacking, a Wild Draw Four): its total, and who emptied their hand
        # while it waits (the round ends once it is taken).
        self.pending_draw = 0
        self.chain: list[Face] = []  # the draw cards of the pending draw, in order
        self.finished: int | None = None
        # A challengeable wild draw card (CHALLENGEABLE_KINDS) waiting for the challenge
        # decision of `current`.
        self.wd4_player: int | None = None
        self.wd4_hand: tuple[int, ...] = ()
        self.color_before: Color | None = None
        # A buzzer race: who has not pressed, who pressed (in order), and what comes after.
        self.buzz_waiting: list[int] = []
        self.buzz_order: list[int] = []
        # What the race leads to: the next turn after seat N (TURN, N), or a deflected pending
        # draw waiting on seat N (STACK, N). Data, not a closure, so a copy of a round is whole.
        self.buzz_then: tuple[Phase, int] | None = None
        self.cannot_draw_streak = 0  # for the stalemate rule

        self.uno_called: set[int] = set()
        self.catchable: dict[int, int] = {}  # seat -> turn_serial when its window opened
        self._catches = tuple(Catch(target) for target in range(seats))  # listed, not built
        self.winner: int | None = None

        self._events: list[ev.Event] = []
        # UNO Flip: what each player was shown of the cards so far (unonet.flip.FlipSight).
        self.sight = FlipSight(seats) if rules.variant == "flip" else None
        self._no_mercy = rules.variant == "no_mercy"
        self._deal(stacked)

    # -- public API ------------------------------------------------------------------------------

    def face(self, card: int) -> Face:
        """What `card` shows now (the table is that of the side shown)."""
        return self._faces[card]

    @property
    def top(self) -> int:
        return self.discard[-1]

    def players(self) -> int:
        """Seats still in the round."""
        return self.seats - len(self.out)

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action `seat` may take now, in a stable order: plays first (in turn, answers
        to a pending draw, or out of turn), then Draw and Pass or a decision's answers, then
        Buzz, CallUno and catches.

        Only catches that succeed are listed. Under `false_catch_penalty` a Catch of any other
        seat is still accepted by `apply`: a wrong one costs the catcher that many cards.
        """
        if self.phase is Phase.ROUND_OVER or seat in self.out or not 0 <= seat < self.seats:
            return []
        actions: list[Action] = []
        if self.phase is Phase.BUZZER:
            if seat in self.buzz_waiting:
                actions.append(_BUZZ)
        elif seat == self.current:
            actions += self._decision_actions(seat)
        else:
            actions += legal_plays(self, seat)
        catchable = self.catchable
        if catchable:
            if seat in catchable and len(self.hands[seat]) == 1:
                actions.append(_CALL_UNO)
            actions += [self._catches[target] for target in sorted(catchable) if target != seat]
        return actions

    def apply(self, seat: int, action: Action) -> list[ev.Event]:
        """Apply `action` for `seat`, or raise EngineError and change nothing."""
        if not self._is_legal(seat, action):
            penalty = self._penalty_instead_of_refusal(seat, action)
            if penalty is None:
                raise refusal(self, seat, action)
            self._events = []
            penalty()
            return self._take_events()
        self._events = []
        if isinstance(action, TURN_ACTIONS):
            if self.catchable:
                self._close_catch_windows()
            if not isinstance(action, Play):
                self.run = None  # the next player acted: the sequence window closes
        _HANDLERS[type(action)](self, seat, action)
        return self._take_events()

    def expire(self) -> list[ev.Event]:
        """The host's timer for the pending decision ran out: apply the documented default
        (RULEBOOK.md 6): a turn draws one card and passes (or passes, if already drawn); a
        colour is the one the decider holds most of; a challenge or a pending draw is accepted;
        a swap goes to the player with the fewest cards; a buzzer race closes, and everyone who
        has not pressed draws."""
        if self.phase is Phase.ROUND_OVER:
            raise EngineError(ErrorCode.ROUND_OVER, "nothing is pending")
        seat = self.current
        self._events = [ev.Expired(seat, self.phase.value)]
        if self.catchable:
            self._close_catch_windows()
        self.run = None
        if self.phase is Phase.TURN and self._no_mercy:
            self._expire_turn_no_mercy(seat)
        elif self.phase is Phase.TURN:
            if self.draws_this_turn == 0:  # draw_when_playable limits a choice, not this
                got = self._draw_cards(seat, 1, "draw")
                if not got:
                    self._events.append(ev.CannotDraw(seat))
                    self.cannot_draw_streak += 1
            if self.phase is Phase.TURN and self.current == seat:
                self._events.append(ev.Passed(seat))
                if not self._stalemate_reached():
                    self._next_turn(self._step(seat, 1))
        elif self.phase is Phase.CHOOSE_COLOR or self.phase is Phase.ROULETTE:
            self._do_choose_color(seat, ChooseColor(self._favourite_color(seat)))
        elif self.phase in (Phase.CHALLENGE, Phase.STACK):
            self._do_accept(seat, _ACCEPT)
        elif self.phase is Phase.CHOOSE_TARGET:
            self._do_choose_target(seat, ChooseTarget(self._default_target(seat)))
        elif self.phase is Phase.BUZZER:
            self._close_buzzer(tuple(self.buzz_waiting))
        return self._take_events()

    def penalize(self, target: int, count: int) -> list[ev.Event]:
        """The table owner's moderation: `target` draws `count` cards (seed 000's hint rule)."""
        if self.phase is Phase.ROUND_OVER:
            raise EngineError(ErrorCode.ROUND_OVER, "the round is over")
        if not 0 <= target < self.seats:
            raise EngineError(ErrorCode.UNKNOWN_SEAT, f"no seat {target}")
        if target in self.out:
            raise EngineError(ErrorCode.INVALID_TARGET, f"seat {target} is out of the round")
        if not 1 <= count <= 10:
            raise EngineError(ErrorCode.ACTION_NOT_ALLOWED, "a penalty is 1 to 10 cards")
        self._events = [ev.Penalized(target, count)]
        self._draw_cards(target, count, "penalty_moderation")
        return self._take_events()

    def deflect_target(self, seat: int, kind: Kind) -> int:
        """Who a pending draw goes to if `seat` deflects it with a card of `kind`: a Reverse
        sends it back the other way, a Skip or a Buzzer on to the next player."""
        if kind is Kind.REVERSE:
            return self._step(seat, 1, -self.direction)
        return self._step(seat, 1)

    def take_setup_events(self) -> list[ev.Event]:
        """The events of the deal, once, for the match to pass on."""
        return self._take_events()

    # -- judging ---------------------------------------------------------------------------------

    def _is_legal(self, seat: int, action: Action) -> bool:
        """`action in self.legal_actions(seat)`: a Play judged by unonet.legality, the rest
        found in the listing. Every action given to `apply` is judged here."""
        if not 0 <= seat < self.seats or seat in self.out or self.phase is Phase.ROUND_OVER:
            return False
        if isinstance(action, Play):
            return self.phase is not Phase.BUZZER and play_refusal(self, seat, action) is None
        return action in self.legal_actions(seat)

    def _penalty_instead_of_refusal(
        self, seat: int, action: Action
    ) -> Callable[[], None] | None:
        """A wrong catch under `false_catch_penalty` and a refused jump-in under `jump_in`
        cost the player instead of being refused; None for every other illegal action."""
        if self.phase is Phase.ROUND_OVER or not 0 <= seat < self.seats or seat in self.out:
            return None
        if (
            isinstance(action, Catch)
            and self.rules.false_catch_penalty > 0
            and 0 <= action.target < self.seats
            and action.target != seat
            and action.target not in self.out
        ):
            return lambda: self._do_false_catch(seat, action)
        if (
            isinstance(action, Play)
            and self.rules.jump_in != "off"
            and seat != self.current
            and self.rules.jump_in_penalty > 0
            and action.card in self.hands[seat]
        ):
            return lambda: self._refuse_jump_in(seat, action.card)
        return None

    def _decision_actions(self, seat: int) -> list[Action]:
        phase = self.phase
        if phase is Phase.CHOOSE_COLOR or phase is Phase.ROULETTE:
            return [ChooseColor(color) for color in self.colors]
        if phase is Phase.CHOOSE_TARGET:
            return [ChooseTarget(t) for t in self._turn_order(seat) if t != seat]
        actions: list[Action] = list(legal_plays(self, seat))
        if phase is Phase.CHALLENGE:
            return [*_CHALLENGE_ANSWERS, *actions]
        if phase is Phase.STACK:
            actions.append(_ACCEPT)
            return actions
        if self._can_draw(seat, has_play=bool(actions)):
            actions.append(_DRAW)
        if self.draws_this_turn > 0 and not (self._no_mercy and self.drawn_card is not None):
            actions.append(_PASS)  # No Mercy: a card drawn until playable must be played
        return actions

    def _can_draw(self, seat: int, has_play: bool | None = None) -> bool:
        if self.drawn_card is not None or self.draws_this_turn >= self.rules.max_draws_per_turn:
            return False
        if self.rules.draw_when_playable == "forbidden" and self.draws_this_turn == 0:
            if has_play is None:
                has_play = bool(legal_plays(self, seat))
            return not has_play
        return True

    # -- the deal (RULEBOOK.md 1.2, 1.3) ---------------------------------------------------------

    def _deal(self, stacked: Sequence[int] | None) -> None:
        order = list(stacked) if stacked is not None else deal_order(self.key, len(self.manifest))
        self.origin = list(self.table.deal_positions)  # placeholders, all overwritten:
        for position, card in zip(self.table.deal_positions, order, strict=True):
            self.origin[card] = position
        self.draw_pile = order[::-1]
        self._events.append(ev.RoundStarted(self.round_no, self.dealer, len(order)))
        seating = self._turn_order(self.dealer)
        seating = seating[1:] + seating[:1]  # starting left of the dealer
        dealt: dict[int, list[int]] = {seat: [] for seat in seating}
        for k in range(self.rules.hand_size * len(seating)):
            dealt[seating[k % len(seating)]].append(self.draw_pile.pop())
        for seat in seating:
            self._give(seat, dealt[seat], "deal")
        if self._no_mercy:
            self._turn_first_number()
        else:
            self._turn_first_card()

    def _turn_order(self, start: int) -> list[int]:
        """The seats in the round, from `start` (if in) in the direction of play."""
        order = [(start + k * self.direction) % self.seats for k in range(self.seats)]
        return [seat for seat in order if seat not in self.out]

    def _turn_first_card(self) -> None:
        card = self.draw_pile.pop()
        self.discard.append(card)
        self._events.append(ev.TopCardTurned(card, self.origin[card]))
        face = self.face(card)
        self.active_color = face.color
        first = self._step(self.dealer, 1)
        if face.kind in CHALLENGEABLE_KINDS:  # a Wild Draw Four or (Flip) Wild Draw Two
            self._return_first_card(card)
            return
        if face.kind is Kind.WILD or face.kind is Kind.BUZZER:  # a Buzzer: RULEBOOK.md 6.9
            self.current = first
            self._set_decision(Phase.CHOOSE_COLOR, first)
            return
        if face.kind is Kind.DRAW_TWO or face.kind is Kind.DRAW_ONE:  # Draw One: UNO Flip
            self._draw_cards(first, face.draw_amount, face.kind.value)
            self._events.append(ev.Skipped(first, f"first_card_{face.kind.value}"))
            self._next_turn(self._step(first, 1))
        elif face.kind is Kind.SKIP:
            self._events.append(ev.Skipped(first, "first_card_skip"))
            self._next_turn(self._step(first, 1))
        elif face.kind is Kind.REVERSE:
            if self.players() == 2:  # acts as a Skip: the dealer plays first
                self._events.append(ev.Skipped(first, "first_card_reverse"))
            else:
                self.direction = -self.direction
                self._events.append(ev.DirectionChanged(self.direction))
            self._next_turn(self.dealer if self.dealer not in self.out else self._step(first, 1))
        else:  # a number, or a Flip: inert as the first card (RULEBOOK.md 3, choice)
            self._next_turn(first)

    def _turn_first_number(self) -> None:
        """No Mercy (HWV18): "If this card is an Action Card, ignore it and flip over the next
        card", until a number shows; the ignored cards stay under it. A 7 or 0 turned does
        nothing (nobody played it). The player left of the dealer plays first."""
        while True:
            card = self.draw_pile.pop()  # 80 numbers in 168 cards: one shows before the end
            self.discard.append(card)
            self._events.append(ev.TopCardTurned(card, self.origin[card]))
            face = self.face(card)
            if face.kind is Kind.NUMBER:
                break
        self.active_color = face.color
        self._next_turn(self._step(self.dealer, 1))

    def _return_first_card(self, card: int) -> None:
        """A first Wild Draw Four (Flip: Wild Draw Two) goes back into the deck, which is
        reshuffled; turn another."""
        kind = self.face(card).kind
        self.discard.pop()
        sources = [self.origin[c] for c in self.draw_pile] + [self.origin[card]]
        self._new_epoch(sources, f"first_card_{kind.value}", public=False)
        self._turn_first_card()

    # -- playing cards (RULEBOOK.md 1.4-1.6, 2) ---------------------------------------------------

    def _do_play(self, seat: int, action: Play) -> None:
        run = self.run
        self.run = None
        if seat != self.current:  # a jump-in, or the next card of one's own run
            reason = "sequence" if run is not None and run.seat == seat else "jump_in"
            self._events.append(ev.JumpedIn(seat, reason))
            self.current = seat
            self.draws_this_turn = 0
        phase = self.phase
        answering = phase is Phase.STACK or phase is Phase.CHALLENGE
        if phase is Phase.CHALLENGE:  # stacking on a +4 gives up the challenge
            self.wd4_player, self.wd4_hand, self.color_before = None, (), None
        self.cannot_draw_streak = 0
        color_before = self.active_color
        face = self._lay_cards(seat, action)
        if face.kind is Kind.DISCARD_ALL:
            self._discard_all(seat, face)
        self.active_color = action.color if face.is_wild else (face.color or color_before)
        self.drawn_card = None
        self.top_seat = seat
        self._after_hand_shrank(seat, called=action.uno)

        if (face.draw_amount or face.kind is Kind.WILD_DRAW_COLOR) and (
            answering or self._draw_pends(face)
        ):
            self._pend_draw(seat, face, color_before, answering)
        elif answering and self._no_mercy and cancels(self, face):
            self._cancel_draw(seat, face)
        elif answering:
            self._deflect(seat, face)
        elif not self.hands[seat]:
            self._finish_round(seat, face)
        else:
            _EFFECTS.get(face.kind, Round._effect_none)(self, seat, face)
        if self.rules.sequences and face.kind is Kind.NUMBER and self.phase is not Phase.ROUND_OVER:
            self._open_run(seat, action, face, run)

    def _lay_cards(self, seat: int, action: Play) -> Face:
        """Move the played cards from the hand to the discard pile, the last one on top; return
        the face of the new top card."""
        hand = self.hands[seat]
        also = action.also
        for card in (action.card, *also) if also else (action.card,):
            last = not also or card == also[-1]
            hand.remove(card)
            self.discard.append(card)
            self._events.append(ev.CardPlayed(
                seat, card, self.origin[card], action.color if last else None, action.uno and last
            ))
        return self.face(self.discard[-1])

    def _open_run(self, seat: int, action: Play, face: Face, previous: Run | None) -> None:
        """`sequences`: the run's player may add its next number until the next player acts;
        its direction is set by its last two cards (none yet after a single card)."""
        number = face.number or 0
        if action.also:
            before = action.also[-2] if len(action.also) > 1 else action.card
            step = number - (self.face(before).number or 0)
        elif previous is not None and previous.seat == seat:
            step = number - previous.last
        else:
            step = 0
        self.run = Run(seat, face.color, number, step if step in (1, -1) else 0, self.turn_serial)

    def _draw_pends(self, face: Face) -> bool:
        """Does a draw card leave its draw pending (a decision for the next player) rather than
        taken at once? Under stacking (a Wild Draw Color never stacks), and for a challengeable
        wild draw card."""
        if face.kind in CHALLENGEABLE_KINDS and self.rules.wd4_policy == "challenge":
            return True
        return self.rules.stacking != "off" and face.draw_amount > 0

    def _pend_draw(self, seat: int, face: Face, color_before: Color | None, stacked: bool) -> None:
        """A draw card starts or grows the pending draw; the next player must answer it."""
        self.pending_draw += face.draw_amount
        self.chain.append(face)
        if stacked:
            self._events.append(ev.DrawStacked(seat, self.pending_draw))
        if not self.hands[seat]:
            self.finished = seat
        victim = self._step(seat, 1)
        if face.kind is Kind.WILD_REVERSE_DRAW_FOUR:
            victim = self._reverse_for_draw(seat)
        if face.kind in CHALLENGEABLE_KINDS and self.rules.wd4_policy == "challenge":
            self.wd4_player = seat
            self.wd4_hand = tuple(self.hands[seat])
            self.color_before = color_before
            self._set_decision(Phase.CHALLENGE, victim)
        elif self.finished is not None and not self.rules.deflect:
            self.current = victim
            self._take_pending(victim)  # a last draw card: no answer, the round ends (1.9)
        else:
            self._set_decision(Phase.STACK, victim)

    def _reverse_for_draw(self, seat: int) -> int:
        """No Mercy's Wild Reverse Draw Four: reverse, then the next player in the new direction
        faces the draw. With two players that is its own player (HWV18: "makes YOU draw 4
        cards! You may use the stacking rule to send the penalty back"), unless the card was
        its last: then the other player."""
        self.direction = -self.direction
        self._events.append(ev.DirectionChanged(self.direction))
        if self.players() == 2 and self.hands[seat]:
            return seat
        return self._step(seat, 1)

    def _cancel_draw(self, seat: int, face: Face) -> None:
        """No Mercy with `deflect` (seed 003): a Discard All or a Skip Everyone cancels the
        pending draw; nobody draws it, and the card then acts as in its player's turn. A player
        who emptied their hand while the draw waited wins at once."""
        total = self._clear_pending()
        self._events.append(ev.DrawCancelled(seat, total))
        if self.finished is not None:
            self._finish_round(self.finished, None)
        elif not self.hands[seat]:
            self._finish_round(seat, face)
        else:
            _EFFECTS[face.kind](self, seat, face)

    def _discard_all(self, seat: int, face: Face) -> None:
        """No Mercy's Discard All: every other card of its colour goes from the hand, face up,
        under it (their effects do not apply); the Discard All stays on top."""
        hand = self.hands[seat]
        mates = [card for card in hand if self.face(card).color == face.color]
        if not mates:
            return
        for card in mates:
            hand.remove(card)
        self.discard[-1:-1] = mates
        self._events.append(
            ev.CardsDiscarded(seat, tuple(self.origin[c] for c in mates), tuple(mates))
        )

    def _effect_roulette(self, seat: int, face: Face) -> None:
        """No Mercy's Wild Color Roulette: the next player names a colour (phase roulette)."""
        self._set_decision(Phase.ROULETTE, self._step(seat, 1))

    def _do_roulette(self, seat: int, color: Color) -> None:
        """The roulette's player named `color`: it turns cards from the draw pile, face up,
        until one of that colour shows (wilds do not count), keeps them all and loses its
        turn; `color` is then in play. The Mercy rule may put it out on the way."""
        self.active_color = color
        self._events.append(ev.ColorChosen(seat, color))
        self.phase = Phase.TURN  # what a knock-out on the way releases (the next player plays)
        cards: list[int] = []
        positions: list[Position] = []
        reason = Kind.WILD_COLOR_ROULETTE.value
        while seat not in self.out and self.phase is not Phase.ROUND_OVER:
            got = self._draw_cards(seat, 1, reason)
            if not got:
                break
            cards.append(got[0])
            positions.append(self.origin[got[0]])
            if self.face(got[0]).color == color:
                break
        self._events.append(ev.RouletteTurned(seat, color, tuple(positions), tuple(cards)))
        if seat in self.out or self.phase is Phase.ROUND_OVER:
            return
        self._events.append(ev.Skipped(seat, reason))
        self._next_turn(self._step(seat, 1))

    def _deflect(self, seat: int, face: Face) -> None:
        """`deflect`: the pending draw goes on (Skip, Buzzer) or back (Reverse)."""
        if face.kind is Kind.REVERSE:
            self.direction = -self.direction
            self._events.append(ev.DirectionChanged(self.direction))
        to = self._step(seat, 1)
        self._events.append(ev.DrawDeflected(seat, to, self.pending_draw))
        if not self.hands[seat]:
            self.finished = seat
        if face.kind is Kind.BUZZER and self.hands[seat] and self.finished is None:
            self._open_buzzer(seat, (Phase.STACK, to))
        else:
            self._set_decision(Phase.STACK, to)

    def _effect_none(self, seat: int, face: Face) -> None:
        self._next_turn(self._step(seat, 1))

    def _effect_skip(self, seat: int, face: Face) -> None:
        nxt = self._step(seat, 1)
        self._events.append(ev.Skipped(nxt, "skip"))
        self._next_turn(self._step(nxt, 1))

    def _effect_reverse(self, seat: int, face: Face) -> None:
        if self.players() == 2:
            self._events.append(ev.Skipped(self._step(seat, 1), "reverse_two_players"))
            self._next_turn(seat)
            return
        self.direction = -self.direction
        self._events.append(ev.DirectionChanged(self.direction))
        self._next_turn(self._step(seat, 1))

    def _effect_draw(self, seat: int, face: Face) -> None:
        """Draw Two, an unchallengeable Wild Draw Four: the next player draws and is skipped."""
        nxt = self._step(seat, 1)
        self._draw_cards(nxt, face.draw_amount, face.kind.value)
        self._events.append(ev.Skipped(nxt, face.kind.value))
        self._next_turn(self._step(nxt, 1))

    def _effect_draw_color(self, seat: int, face: Face) -> None:
        """UNO Flip's Wild Draw Color, not challengeable: the next player draws until a card of
        the named colour and is skipped."""
        nxt = self._step(seat, 1)
        assert self.active_color is not None
        self._draw_until_color(nxt, self.active_color, face.kind.value)
        self._events.append(ev.Skipped(nxt, face.kind.value))
        self._next_turn(self._step(nxt, 1))

    def _draw_until_color(self, seat: int, color: Color, reason: str) -> None:
        """Draw one card at a time until one shows `color` (a wild does not count, RULEBOOK.md
        3), the piles run out, or the draw knocks `seat` out (max_hand)."""
        while seat not in self.out and self.phase is not Phase.ROUND_OVER:
            got = self._draw_cards(seat, 1, reason)
            if not got or self.face(got[0]).color == color:
                return

    def _effect_skip_everyone(self, seat: int, face: Face) -> None:
        """UNO Flip's Skip Everyone: every other player is skipped; its player plays again."""
        for other in self._turn_order(seat)[1:]:
            self._events.append(ev.Skipped(other, face.kind.value))
        self._next_turn(seat)

    def _effect_flip(self, seat: int, face: Face) -> None:
        """UNO Flip: the discard pile, then the draw pile, then every hand turn over (each pile
        reversed, its bottom card now on top); the new top's face sets what to match and its
        effect is not applied. A wild face lets the Flip's player name the colour; then (or at
        once) the next player plays. `flip_passes_hands` then passes every hand on."""
        self.discard.reverse()
        self.draw_pile.reverse()
        self.side = other_side(self.side)
        self.colors = side_colors(self.side)
        self.table = play_table(self.manifest, self.side, self.colors)
        self._faces = self.table.faces
        top = self.face(self.top)
        self.active_color = top.color
        self.top_seat = None  # nobody played the new top card: anyone may jump in on it
        self._events.append(ev.Flipped(seat, self.side, self.top))
        if self.rules.flip_passes_hands:
            self._pass_hands("flip")
            if self.phase is Phase.ROUND_OVER:
                return
        if top.is_wild:
            self.color_then = self._step(seat, 1)
            self._set_decision(Phase.CHOOSE_COLOR, seat)
        else:
            self._next_turn(self._step(seat, 1))

    def _effect_number(self, seat: int, face: Face) -> None:
        """A number; under `seven_zero` a 7 swaps with a chosen player, a 0 passes every hand."""
        if self.rules.seven_zero and face.number == 7:
            self._set_decision(Phase.CHOOSE_TARGET, seat)
            return
        if self.rules.seven_zero and face.number == 0:
            self._pass_hands()
            if self.phase is Phase.ROUND_OVER:
                return
        self._next_turn(self._step(seat, 1))

    def _effect_buzzer(self, seat: int, face: Face) -> None:
        self._open_buzzer(seat, (Phase.TURN, seat))

    # -- drawing, passing, deciding ----------------------------------------------------------------

    def _do_draw_action(self, seat: int, action: Action) -> None:
        self.draws_this_turn += 1
        if self.rules.draw_until_playable:
            drawn = self._draw_until_playable(seat)
        else:
            got = self._draw_cards(seat, 1, "draw")
            drawn = got[0] if got else None
        if seat in self.out or self.phase is not Phase.TURN:
            return  # knocked out by the draw (max_hand), or the round ended
        if drawn is None:
            self._events.append(ev.CannotDraw(seat))
            self._events.append(ev.Passed(seat))
            self.cannot_draw_streak += 1
            if not self._stalemate_reached():
                self._next_turn(self._step(seat, 1))
            return
        self.cannot_draw_streak = 0
        if self.rules.play_after_draw and self._playable_now(seat, drawn):
            self.drawn_card = drawn  # only the drawn card may be played now (1.4)
            self._events.append(ev.MayPlayDrawn(seat, drawn))
            return
        if not self.rules.play_after_draw or self.draws_this_turn >= self.rules.max_draws_per_turn:
            self._events.append(ev.Passed(seat))
            self._next_turn(self._step(seat, 1))

    def _draw_until_playable(self, seat: int) -> int | None:
        while True:
            got = self._draw_cards(seat, 1, "draw")
            if not got or seat in self.out:
                return None
            if self._playable_now(seat, got[0]):
                return got[0]

    def _playable_now(self, seat: int, card: int) -> bool:
        """Would `card`, just drawn, play now (RULEBOOK.md 1.4)?"""
        return plays_in_turn(self, self.hands[seat], card)

    def _expire_turn_no_mercy(self, seat: int) -> None:
        """No Mercy's time-out on a turn: draw until a card plays and play it (a wild naming
        the colour held most), as the player would have had to."""
        if self.drawn_card is None and self.draws_this_turn == 0:
            self._do_draw_action(seat, _DRAW)
        card = self.drawn_card
        if card is None or self.phase is not Phase.TURN or self.current != seat:
            return
        color = self._favourite_color(seat) if self.face(card).names_color else None
        self._do_play(seat, Play(card, color))

    def _do_pass(self, seat: int, action: Action) -> None:
        self._events.append(ev.Passed(seat))
        self._next_turn(self._step(seat, 1))

    def _do_choose_color(self, seat: int, action: ChooseColor) -> None:
        if self.phase is Phase.ROULETTE:
            self._do_roulette(seat, action.color)
            return
        self.active_color = action.color
        self._events.append(ev.ColorChosen(seat, action.color))
        then, self.color_then = self.color_then, None
        self._next_turn(seat if then is None else then)  # a first-card Wild: the chooser plays

    def _do_accept(self, seat: int, action: Action) -> None:
        """Take the pending draw (a stack's total or a Wild Draw Four) and lose the turn."""
        self._take_pending(seat)

    def _take_pending(self, seat: int) -> None:
        reason = self._pending_reason()
        self._pay_pending(seat, 0, reason)
        if seat not in self.out:  # knocked out by the draw: out, not skipped
            self._events.append(ev.Skipped(seat, reason))
        self._after_pending_paid(self._step(seat, 1))

    def _pay_pending(self, seat: int, extra: int, reason: str) -> None:
        """`seat` draws the pending draw and `extra` cards more, and the pending draw ends. A
        pending Wild Draw Color (UNO Flip) is drawn until a card of the named colour."""
        until = self._chain_until_color()
        amount = self._clear_pending()
        if until is None:
            self._draw_cards(seat, amount + extra, reason)
            return
        self._draw_until_color(seat, until, reason)
        if extra and seat not in self.out and self.phase is not Phase.ROUND_OVER:
            self._draw_cards(seat, extra, reason)

    def _pending_reason(self) -> str:
        """"stack" under stacking (the chain's total), else the one draw card's own kind (a
        Wild Draw Four that waited for its challenge, perhaps deflected on)."""
        if self.rules.stacking != "off" or not self.chain:
            return "stack"
        return self.chain[0].kind.value

    def _clear_pending(self) -> int:
        """End the pending draw (and any challenge on it); return how many cards it was."""
        amount = self.pending_draw
        self.pending_draw = 0
        self.chain = []
        self.wd4_player, self.wd4_hand, self.color_before = None, (), None
        return amount

    def _after_pending_paid(self, nxt: int) -> None:
        """The pending draw was taken: the round ends if a player emptied their hand meanwhile,
        else `nxt` plays."""
        if self.phase is Phase.ROUND_OVER:
            return
        if self.finished is not None:
            self._finish_round(self.finished, None)
        else:
            self._next_turn(nxt)

    def _do_challenge(self, seat: int, action: Action) -> None:
        """RULEBOOK.md 1.6 and 6: guilty, the player of the +4 draws the pending total (+ the
        extra) and the challenger plays; innocent, the challenger draws the total + 2 and loses
        the turn. The named colour stands either way. UNO Flip's Wild Draw Two is the same with
        2; its Wild Draw Color's total is "until the named colour" (RULEBOOK.md 3)."""
        target = self.wd4_player
        assert target is not None and self.color_before is not None
        challenged = self.chain[-1].kind.value if self.chain else Kind.WILD_DRAW_FOUR.value
        hand = self.wd4_hand
        guilty = holds_color((self.face(c) for c in hand), self.color_before)
        self._events.append(ev.Challenged(seat, target, guilty))
        self._events.append(
            ev.ChallengeReveal(
                seat, target, hand, tuple(self.origin[c] for c in hand), self.color_before
            )
        )
        if guilty:
            self._pay_pending(target, self.rules.challenge_guilty_extra, "penalty_challenge")
            self._after_pending_paid(seat)
        else:
            self._pay_pending(seat, 2, "penalty_challenge")
            self._events.append(ev.Skipped(seat, challenged))
            self._after_pending_paid(self._step(seat, 1))

    def _do_choose_target(self, seat: int, action: ChooseTarget) -> None:
        """`seven_zero`: swap hands with the seat chosen; play goes on after the 7's player."""
        self._move_hands([(seat, action.target), (action.target, seat)], "seven")
        if self.phase is not Phase.ROUND_OVER:
            self._next_turn(self._step(seat, 1))

    def _default_target(self, seat: int) -> int:
        others = [s for s in self._turn_order(seat) if s != seat]
        return min(others, key=lambda s: len(self.hands[s]))

    def _pass_hands(self, reason: str = "zero") -> None:
        """`seven_zero`: a 0 passes every hand to the next player in the direction of play
        (and so does a Flip under `flip_passes_hands`)."""
        order = self._turn_order(self.current)
        self._move_hands([(s, self._step(s, 1)) for s in order], reason)

    def _move_hands(self, moves: list[tuple[int, int]], reason: str) -> None:
        hands = {giver: self.hands[giver] for giver, _ in moves}
        self._events.append(
            ev.HandsMoved(
                tuple((g, t, tuple(self.origin[c] for c in hands[g])) for g, t in moves), reason
            )
        )
        for giver, taker in moves:
            self.hands[taker] = list(hands[giver])
        for _, taker in moves:
            cards = self.hands[taker]
            self.uno_called.discard(taker)
            self.catchable.pop(taker, None)
            if cards:
                self._events.append(
                    ev.CardsReceived(taker, tuple(self.origin[c] for c in cards), tuple(cards))
                )
            if len(cards) == 1:
                self.catchable[taker] = self.turn_serial  # holding one card by a swap (1.7)
        for _, taker in moves:
            self._check_max_hand(taker)

    # -- the buzzer race (`buzzers`) ---------------------------------------------------------------

    def _open_buzzer(self, seat: int, then: tuple[Phase, int]) -> None:
        self.buzz_waiting = self._turn_order(seat)
        self.buzz_order = []
        self.buzz_then = then
        self.phase = Phase.BUZZER
        self.current = seat
        self.turn_serial += 1
        self._events.append(ev.BuzzerOpened(seat, tuple(self.buzz_waiting)))

    def _do_buzz(self, seat: int, action: Action) -> None:
        self.buzz_waiting.remove(seat)
        self.buzz_order.append(seat)
        self._events.append(ev.Buzzed(seat, len(self.buzz_order)))
        if not self.buzz_waiting:
            self._close_buzzer((seat,))  # everyone pressed: the last one loses

    def _close_buzzer(self, losers: tuple[int, ...]) -> None:
        self._events.append(ev.BuzzerClosed(losers, BUZZER_PENALTY))
        self.buzz_waiting, self.buzz_order = [], []
        then, self.buzz_then = self.buzz_then, None
        for loser in losers:
            if self.phase is not Phase.ROUND_OVER:
                self._draw_cards(loser, BUZZER_PENALTY, "penalty_buzzer")
        if self.phase is Phase.ROUND_OVER:
            return
        assert then is not None
        self.phase = Phase.TURN
        then_phase, then_seat = then
        if then_phase is Phase.STACK:
            self._set_decision(Phase.STACK, then_seat)
        else:
            self._next_turn(self._step(then_seat, 1))

    # -- UNO (RULEBOOK.md 1.7) ---------------------------------------------------------------------

    def _after_hand_shrank(self, seat: int, called: bool) -> None:
        left = len(self.hands[seat])
        if left == 0:  # out of cards: no UNO to show, even while a last +4 awaits its challenge
            self.uno_called.discard(seat)
        if left != 1:
            return
        if called:
            self.uno_called.add(seat)
            self._events.append(ev.UnoCalled(seat))
        else:
            self.catchable[seat] = self.turn_serial

    def _do_call_uno(self, seat: int, action: Action) -> None:
        del self.catchable[seat]
        self.uno_called.add(seat)
        self._events.append(ev.UnoCalled(seat))

    def _do_catch(self, seat: int, action: Catch) -> None:
        target = action.target
        del self.catchable[target]
        penalty = self.rules.uno_penalty
        self._events.append(ev.UnoCaught(seat, target, penalty))
        self._draw_cards(target, penalty, "penalty_uno")

    def _do_false_catch(self, seat: int, action: Catch) -> None:
        penalty = self.rules.false_catch_penalty
        self._events.append(ev.FalseCatch(seat, action.target, penalty))
        self._draw_cards(seat, penalty, "penalty_false_catch")

    def _refuse_jump_in(self, seat: int, card: int) -> None:
        penalty = self.rules.jump_in_penalty
        self.penalty_points[seat] += penalty
        self._events.append(ev.JumpInRefused(seat, card, penalty))

    def _close_catch_windows(self) -> None:
        """The next player's first action closes every window opened on an earlier turn."""
        closing = sorted(s for s, serial in self.catchable.items() if serial < self.turn_serial)
        if not closing:
            return
        for seat in closing:
            del self.catchable[seat]
        self._events.append(ev.CatchWindowClosed(tuple(closing)))
        if self.rules.uno_auto_penalty:
            for seat in closing:
                if seat in self.out:
                    continue
                self._events.append(ev.UnoCaught(None, seat, self.rules.uno_penalty))
                self._draw_cards(seat, self.rules.uno_penalty, "penalty_uno")

    # -- piles -------------------------------------------------------------------------------------

    def _draw_cards(self, seat: int, count: int, reason: str) -> list[int]:
        """Move up to `count` cards from the draw pile to `seat`, reshuffling when it runs out
        (RULEBOOK.md 1.8). Fewer come when every other card is in a hand."""
        got: list[int] = []
        batch: list[int] = []
        if self._no_mercy and reason != "deal" and self.rules.max_hand is not None:
            # The Mercy rule is checked card by card: the 25th card puts the player out, and
            # the rest of the draw is not taken (RULEBOOK.md 4).
            count = min(count, max(self.rules.max_hand - len(self.hands[seat]), 1))
        for _ in range(count):
            if not self.draw_pile:
                if batch:
                    self._give(seat, batch, reason)
                    batch = []
                if not self._reshuffle_discards():
                    break
            card = self.draw_pile.pop()
            batch.append(card)
            got.append(card)
        if batch:
            self._give(seat, batch, reason)
        if reason != "deal":
            self._check_max_hand(seat)
        return got

    def _give(self, seat: int, cards: list[int], reason: str) -> None:
        positions = tuple(self.origin[c] for c in cards)
        self.hands[seat].extend(cards)
        self.uno_called.discard(seat)
        self.catchable.pop(seat, None)
        if seat == self.finished:
            self.finished = None  # a guilty last +4: the bluffer has cards again
        self._events.append(ev.CardsDrawn(seat, positions, reason))
        self._events.append(ev.CardsReceived(seat, positions, tuple(cards)))

    def _check_max_hand(self, seat: int) -> None:
        """`max_hand`: holding that many cards knocks the player out of the round; the cards go
        face down under the draw pile, keeping their positions."""
        limit = self.rules.max_hand
        hand = self.hands[seat]
        if limit is None or len(hand) < limit or seat in self.out:
            return
        if self.rules.max_hand_penalty == "hand":
            penalty = hand_points(self.manifest, hand, self.side)
        else:
            penalty = self.rules.max_hand_penalty
        self.knocked_out[seat] = penalty
        self._events.append(ev.KnockedOut(seat, len(hand), penalty))
        self._events.append(
            ev.CardsReturned(seat, tuple(self.origin[c] for c in hand), "max_hand")
        )
        self.draw_pile[0:0] = reversed(hand)  # under the pile, in the order held
        self.hands[seat] = []
        self.out.add(seat)
        self.uno_called.discard(seat)
        self.catchable.pop(seat, None)
        left = self._turn_order(seat)
        if len(left) == 1:
            self._finish_round(left[0], None)
        else:
            self._release_decisions_of(seat)

    def _release_decisions_of(self, seat: int) -> None:
        """A seat knocked out (perhaps out of turn: a catch, a penalty) leaves nothing waiting
        on it (RULEBOOK.md 6.10): its turn passes, a pending draw on it goes on to the next
        player, a challenge of its Wild Draw Four lapses (the draw stays pending), its 7 swaps
        with nobody, and a buzzer race no longer waits for it."""
        phase = self.phase
        if phase is Phase.BUZZER:
            if seat in self.buzz_waiting:
                self.buzz_waiting.remove(seat)
                if not self.buzz_waiting:
                    pressed = [s for s in self.buzz_order if s not in self.out]
                    self._close_buzzer(tuple(pressed[-1:]))
            return
        if phase is Phase.CHALLENGE and seat == self.wd4_player:
            self.wd4_player, self.wd4_hand, self.color_before = None, (), None
            self._set_decision(Phase.STACK, self.current)
            return
        if seat != self.current:
            return
        if phase in (Phase.STACK, Phase.CHALLENGE) and not self.chain:
            return  # knocked out paying the draw: whoever pays it moves play on
        if phase in (Phase.STACK, Phase.CHALLENGE):
            self.wd4_player, self.wd4_hand, self.color_before = None, (), None
            self._set_decision(Phase.STACK, self._step(seat, 1))
        elif phase is Phase.CHOOSE_COLOR or phase is Phase.ROULETTE:
            self._set_decision(phase, self._step(seat, 1))
        else:  # its turn, or the target of its 7
            self._next_turn(self._step(seat, 1))

    def _reshuffle_discards(self) -> bool:
        """The discard pile less its top card becomes the new draw pile; wild colours clear."""
        if len(self.discard) < 2:
            return False
        top = self.discard.pop()
        sources = [self.origin[c] for c in self.discard]
        self.discard = [top]
        self._new_epoch(sources, "empty_pile", public=True)
        return True

    def _new_epoch(self, sources: list[Position], reason: str, public: bool) -> None:
        card_at = {self.origin[c]: c for c in self._cards_at(sources)}
        self.epoch += 1
        order = reshuffle_order(self.key, self.epoch, sources)
        new_pile = [card_at[source] for source in order]
        for index, card in enumerate(new_pile):
            self.origin[card] = (self.epoch, index)
        self.draw_pile = new_pile[::-1]
        canonical = tuple(sorted(sources))
        cards = tuple(card_at[s] for s in canonical) if public else ()
        self._events.append(ev.Reshuffled(self.epoch, canonical, cards, reason))

    def _cards_at(self, sources: list[Position]) -> list[int]:
        wanted = set(sources)
        return [card for card, pos in enumerate(self.origin) if pos in wanted]

    # -- turn order --------------------------------------------------------------------------------

    def _step(self, seat: int, steps: int, direction: int | None = None) -> int:
        """The seat `steps` places from `seat` in the direction of play (or `direction`),
        passing over seats out of the round and one who has emptied their hand."""
        way = self.direction if direction is None else direction
        for _ in range(steps):
            seat = (seat + way) % self.seats
            for _ in range(self.seats):
                if seat not in self.out and seat != self.finished:
                    break
                seat = (seat + way) % self.seats
        return seat

    def _next_turn(self, seat: int) -> None:
        if self.phase is Phase.ROUND_OVER:
            return
        if seat in self.out:
            seat = self._step(seat, 1)
        self.phase = Phase.TURN
        self.current = seat
        self.turn_serial += 1
        self.drawn_card = None
        self.draws_this_turn = 0
        self._events.append(ev.TurnStarted(seat, self.direction))

    def _set_decision(self, phase: Phase, seat: int) -> None:
        if self.phase is Phase.ROUND_OVER:
            return
        if seat in self.out:
            seat = self._step(seat, 1)
        self.phase = phase
        self.current = seat
        self.turn_serial += 1
        self.drawn_card = None
        self.draws_this_turn = 0
        amount = self.pending_draw if phase in (Phase.STACK, Phase.CHALLENGE) else 0
        self._events.append(ev.DecisionPending(seat, phase.value, amount, self.until_color()))

    def until_color(self) -> Color | None:
        """The colour a pending Wild Draw Color (UNO Flip) is drawn until; None for any other
        decision (its draw, if any, has a count)."""
        if self.phase in (Phase.STACK, Phase.CHALLENGE):
            return self._chain_until_color()
        return None

    def _chain_until_color(self) -> Color | None:
        if self.chain and self.chain[-1].kind is Kind.WILD_DRAW_COLOR:
            return self.active_color
        return None

    def _stalemate_reached(self) -> bool:
        """RULEBOOK.md 6: every player still in passed in a row with no card to draw."""
        if self.cannot_draw_streak < self.players():
            return False
        winner = min(
            self._turn_order(self._step(self.current, 1)),
            key=lambda s: hand_points(self.manifest, self.hands[s], self.side),
        )
        self._events.append(ev.Stalemate(winner))
        self._finish_round(winner, None)
        return True

    def _finish_round(self, seat: int, last: Face | None) -> None:
        """RULEBOOK.md 1.9: a last Draw Two (or unchallenged Wild Draw Four) is still drawn."""
        if last is not None and last.draw_amount:
            victim = self._step(seat, 1)
            self._draw_cards(victim, last.draw_amount, last.kind.value)
        elif last is not None and last.kind is Kind.WILD_DRAW_COLOR:
            assert self.active_color is not None
            self._draw_until_color(self._step(seat, 1), self.active_color, last.kind.value)
        self.winner = seat
        self.finished = None
        self.phase = Phase.ROUND_OVER
        self.catchable.clear()
        self.run = None

    def _favourite_color(self, seat: int) -> Color:
        counts = {color: 0 for color in self.colors}
        for card in self.hands[seat]:
            color = self.face(card).color
            if color in counts:
                counts[color] += 1
        return max(self.colors, key=lambda color: counts[color])

    def _take_events(self) -> list[ev.Event]:
        out, self._events = self._events, []
        if self.sight is not None:
            out = self.sight.after_step(self, out)
        return out


# Module-level tables, not tables of bound methods built per round: those made every Round a
# reference cycle (the round, its table, each bound method, the round again), which only the
# cyclic garbage collector frees, and a long-running server runs its full passes rarely.

_HANDLERS: dict[type, Callable[[Round, int, Any], None]] = {
    Play: Round._do_play,
    Draw: Round._do_draw_action,
    Pass: Round._do_pass,
    ChooseColor: Round._do_choose_color,
    Challenge: Round._do_challenge,
    Accept: Round._do_accept,
    CallUno: Round._do_call_uno,
    Catch: Round._do_catch,
    Buzz: Round._do_buzz,
    ChooseTarget: Round._do_choose_target,
}
"""What each action does, by its type (`apply` has judged it first)."""

_EFFECTS: dict[Kind, Callable[[Round, int, Face], None]] = {
    Kind.NUMBER: Round._effect_number,
    Kind.SKIP: Round._effect_skip,
    Kind.REVERSE: Round._effect_reverse,
    Kind.DRAW_TWO: Round._effect_draw,
    Kind.WILD_DRAW_FOUR: Round._effect_draw,
    Kind.BUZZER: Round._effect_buzzer,
    # UNO Flip (RULEBOOK.md 3); a wild draw card here is one not challengeable.
    Kind.DRAW_ONE: Round._effect_draw,
    Kind.DRAW_FIVE: Round._effect_draw,
    Kind.WILD_DRAW_TWO: Round._effect_draw,
    Kind.WILD_DRAW_COLOR: Round._effect_draw_color,
    Kind.SKIP_EVERYONE: Round._effect_skip_everyone,
    Kind.FLIP: Round._effect_flip,
    # UNO Show 'Em No Mercy (RULEBOOK.md 4); its draw cards always pend (stacking).
    Kind.DISCARD_ALL: Round._effect_none,  # its colour went down with it (_discard_all)
    Kind.WILD_COLOR_ROULETTE: Round._effect_roulette,
}
"""What a card does in its player's turn, by kind (a Wild only names its colour). A pending
draw (stacking, a challengeable +4) is decided before this table is read."""
