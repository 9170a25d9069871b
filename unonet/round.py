"""One round of UNO as an explicit state machine (RULEBOOK.md sections 1, 2 and 6).

`Round` holds the piles, the hands, the direction and colour in play, and the one decision it
waits for (`decision`: a typed value per kind, unonet.decisions), changed in one place,
`enter`. `apply(seat, action)` looks the action up in the transition table
(unonet.transitions: (phase, action kind) -> judge and handler), judges it before touching
anything, so a refused action leaves the state exactly as it was, and returns the events of an
accepted one. What a card does is unonet.effects'; cards moving between piles and hands are
unonet.piles'. Randomness is the round key alone: the deck, every reshuffle and the dealer draw
are portable shuffles of it (unonet.shuffle), so (rules, key, actions) replays to the same state.

Readers (unonet.legality, unonet.view, unonet.flip; the bots through views) read a round through
the small interface of unonet.round_state.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from unonet import events as ev
from unonet import piles
from unonet.actions import Action, Buzz, CallUno, Catch, Play
from unonet.actions import Challenge as ChallengeAction
from unonet.cards import ALL_COLORS, CHALLENGEABLE_KINDS, Color, DeckManifest, Face, Kind
from unonet.decisions import (
    DRAWS,
    BuzzerRace,
    Challenge,
    Decision,
    PendingDraw,
    RoundOver,
    RunWindow,
    Turn,
)
from unonet.effects import OPENING, Effects, effects_for, next_player, reverse_for_draw
from unonet.errors import EngineError, ErrorCode
from unonet.events import Position
from unonet.flip import FlipSight
from unonet.flip_deck import side_colors
from unonet.legality import legal_plays, refusal
from unonet.phase import BUZZER, CHALLENGE, ROUND_OVER, TURN, Phase
from unonet.plays import PlayTable, color_choices, play_table, seat_values
from unonet.rules import RuleSet
from unonet.scoring import hand_points
from unonet.shuffle import deal_order
from unonet.transitions import ACCEPTS, EXPIRY, LISTINGS

__all__ = ["Phase", "Round"]

BUZZER_PENALTY = 2  # seed 003: the slowest to press B draws 2
_BUZZ = Buzz()
_CALL_UNO = CallUno()
_CHALLENGE = ChallengeAction()


class Round:
    """The state of one round. Created dealt; ends in ROUND_OVER with a winner."""

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
        self.rules, self.manifest, self.seats, self.dealer = rules, manifest, seats, dealer
        self.key, self.round_no, self.absent = key, round_no, absent
        self.effects: Effects = effects_for(rules)
        self.no_mercy = rules.variant == "no_mercy"
        self.side = 0  # the face every card shows (UNO Flip turns it)
        self.colors: tuple[Color, ...] = ALL_COLORS[: rules.colors]
        self.table = table if table is not None else play_table(manifest, 0, self.colors)
        self.color_choices = color_choices(self.colors)
        # Does any rule forbid a card that matches? Only then are hands looked at card by card.
        self.restricted_plays = not rules.action_finish or rules.wd4_policy == "enforce"
        self._lay_out(seats, absent)
        self._deal(stacked)

    def _lay_out(self, seats: int, absent: frozenset[int]) -> None:
        """The empty table before the deal: piles, hands, the first decision's placeholder."""
        self.hands: list[list[int]] = [[] for _ in range(seats)]
        self.out: set[int] = set(absent)  # seats out of the round: eliminated or knocked out
        self.knocked_out: dict[int, int] = {}  # seat -> penalty points (max_hand)
        self.penalty_points = [0] * seats  # refused jump-ins
        self.draw_pile: list[int] = []  # top at the END (pop() draws)
        self.discard: list[int] = []  # top at the end
        self.origin: list[Position] = []  # card id -> its position (ids are 0..deck size-1)
        self.epoch = 0
        self.decision: Decision = Turn(0)
        self.phase, self.current = TURN, 0  # the decision's, kept by `enter` alone
        self.direction = 1
        self.active_color: Color | None = None
        self.turn_serial = 0
        self.top_seat: int | None = None  # who played the top card (no jump-in on one's own)
        self.run: RunWindow | None = None  # the sequence window
        self.finished: int | None = None  # emptied their hand while a draw waits (1.9)
        self.cannot_draw_streak = 0  # for the stalemate rule
        self.uno_called: set[int] = set()
        self.catchable: dict[int, int] = {}  # seat -> turn_serial when its window opened
        # Listed and entered, not built: values shared by every round of as many seats.
        self.catches, self.targets, self.turns = seat_values(seats)
        self.winner: int | None = None
        self._events: list[ev.Event] = []
        # UNO Flip: what each player was shown of the cards so far (unonet.flip.FlipSight).
        self.sight = FlipSight(seats) if self.rules.variant == "flip" else None

    # -- reading -------------------------------------------------------------------------------

    def face(self, card: int) -> Face:
        """What `card` shows now (the table is that of the side shown)."""
        return self.table.faces[card]

    @property
    def top(self) -> int:
        return self.discard[-1]

    @property
    def over(self) -> bool:
        return self.phase is ROUND_OVER

    def players(self) -> int:
        """Seats still in the round."""
        return self.seats - len(self.out)

    @property
    def challenge(self) -> Challenge | None:
        """The Wild Draw Four (or Flip's challengeable wild draw card) awaiting its challenge."""
        decision = self.decision
        return decision if isinstance(decision, Challenge) else None

    @property
    def pending_draw(self) -> int:
        """The cards of the pending draw (0 when none waits)."""
        decision = self.decision
        return decision.amount if isinstance(decision, DRAWS) else 0

    @property
    def drawn_card(self) -> int | None:
        decision = self.decision
        return decision.drawn if isinstance(decision, Turn) else None

    @property
    def draws_this_turn(self) -> int:
        decision = self.decision
        return decision.draws if isinstance(decision, Turn) else 0

    @property
    def buzz_waiting(self) -> tuple[int, ...]:
        decision = self.decision
        return decision.waiting if isinstance(decision, BuzzerRace) else ()

    @property
    def wd4_player(self) -> int | None:
        challenge = self.challenge
        return challenge.player if challenge is not None else None

    @property
    def wd4_hand(self) -> tuple[int, ...]:
        challenge = self.challenge
        return challenge.hand if challenge is not None else ()

    def until_color(self) -> Color | None:
        """The colour a pending Wild Draw Color (UNO Flip) is drawn until; None for any other
        decision (its draw, if any, has a count)."""
        decision = self.decision
        chain = decision.chain if isinstance(decision, DRAWS) else ()
        return self.active_color if chain and chain[-1].kind is Kind.WILD_DRAW_COLOR else None

    def deflect_target(self, seat: int, kind: Kind) -> int:
        """Who a pending draw goes to if `seat` deflects it with a card of `kind`: a Reverse
        sends it back the other way, a Skip or a Buzzer on to the next player."""
        if kind is Kind.REVERSE:
            return self.step(seat, 1, -self.direction)
        return self.step(seat, 1)

    # -- the API -------------------------------------------------------------------------------

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action `seat` may take now, in a stable order: plays first (in turn, answers
        to a pending draw, or out of turn), then Draw and Pass or a decision's answers, then
        Buzz, CallUno and catches.

        Only catches that succeed are listed. Under `false_catch_penalty` a Catch of any other
        seat is still accepted by `apply`: a wrong one costs the catcher that many cards.
        """
        if self.phase is ROUND_OVER or seat in self.out or not 0 <= seat < self.seats:
            return []
        if self.phase is BUZZER:
            actions: list[Action] = [_BUZZ] if seat in self.buzz_waiting else []
        elif seat == self.current:
            actions = LISTINGS[type(self.decision)](self, seat)
        else:
            actions = list(legal_plays(self, seat))
            others = self.effects.may_challenge  # an option's step: others may challenge
            if others is not None and self.phase is CHALLENGE and others(self, seat):
                actions.insert(0, _CHALLENGE)
        catchable = self.catchable
        if catchable:
            if seat in catchable and len(self.hands[seat]) == 1:
                actions.append(_CALL_UNO)
            actions += [self.catches[target] for target in sorted(catchable) if target != seat]
        return actions

    def apply(self, seat: int, action: Action) -> list[ev.Event]:
        """Apply `action` for `seat`, or raise EngineError and change nothing. The transition
        table gives what the round's decision does with an action of that kind, and its judge
        whether `seat` may take it now (it is then among `legal_actions(seat)`)."""
        transition = None
        if 0 <= seat < self.seats and seat not in self.out:  # (RoundOver accepts nothing)
            transition = ACCEPTS[type(self.decision)].get(type(action))
        events: list[ev.Event] = []  # this step's: handed back as they are but in UNO Flip
        self._events = events
        if transition is None or not transition.judge(self, seat, action):
            penalty = self._penalty_instead_of_refusal(seat, action)
            if penalty is None:
                raise refusal(self, seat, action)
            penalty()
            return self._take_events()
        if transition.turn:
            if self.catchable:
                self._close_catch_windows()
            if type(action) is not Play:
                self.run = None  # the next player acted: the sequence window closes
        transition.handler(self, seat, action)
        return events if self.sight is None else self._take_events()

    def expire(self) -> list[ev.Event]:
        """The host's timer for the pending decision ran out: apply the documented default
        (unonet.transitions.EXPIRY, RULEBOOK.md 6)."""
        if self.phase is ROUND_OVER:
            raise EngineError(ErrorCode.ROUND_OVER, "nothing is pending")
        seat = self.current
        self._events = [ev.Expired(seat, self.phase.value)]
        if self.catchable:
            self._close_catch_windows()
        self.run = None
        EXPIRY[self.phase](self, seat)
        return self._take_events()

    def penalize(self, target: int, count: int) -> list[ev.Event]:
        """The table owner's moderation: `target` draws `count` cards (seed 000's hint rule)."""
        if self.phase is ROUND_OVER:
            raise EngineError(ErrorCode.ROUND_OVER, "the round is over")
        if not 0 <= target < self.seats:
            raise EngineError(ErrorCode.UNKNOWN_SEAT, f"no seat {target}")
        if target in self.out:
            raise EngineError(ErrorCode.INVALID_TARGET, f"seat {target} is out of the round")
        if not 1 <= count <= 10:
            raise EngineError(ErrorCode.ACTION_NOT_ALLOWED, "a penalty is 1 to 10 cards")
        self._events = [ev.Penalized(target, count)]
        self.draw_cards(target, count, "penalty_moderation")
        return self._take_events()

    def take_setup_events(self) -> list[ev.Event]:
        """The events of the deal, once, for the match to pass on."""
        return self._take_events()

    # -- judging -------------------------------------------------------------------------------

    def _penalty_instead_of_refusal(self, seat: int, action: Action) -> Callable[[], None] | None:
        """A wrong catch under `false_catch_penalty` and a refused jump-in under `jump_in`
        cost the player instead of being refused; None for every other illegal action."""
        if self.phase is ROUND_OVER or not 0 <= seat < self.seats or seat in self.out:
            return None
        rules = self.rules
        if (isinstance(action, Catch) and rules.false_catch_penalty > 0
                and 0 <= action.target < self.seats and action.target != seat
                and action.target not in self.out):
            return lambda: self._false_catch(seat, action.target)
        if (isinstance(action, Play) and rules.jump_in != "off" and seat != self.current
                and rules.jump_in_penalty > 0 and action.card in self.hands[seat]):
            return lambda: self._refuse_jump_in(seat, action.card)
        return None

    def _false_catch(self, seat: int, target: int) -> None:
        penalty = self.rules.false_catch_penalty
        self._events.append(ev.FalseCatch(seat, target, penalty))
        self.draw_cards(seat, penalty, "penalty_false_catch")

    def _refuse_jump_in(self, seat: int, card: int) -> None:
        penalty = self.rules.jump_in_penalty
        self.penalty_points[seat] += penalty
        self._events.append(ev.JumpInRefused(seat, card, penalty))

    # -- the deal (RULEBOOK.md 1.2, 1.3) -------------------------------------------------------

    def _deal(self, stacked: Sequence[int] | None) -> None:
        order = list(stacked) if stacked is not None else deal_order(self.key, len(self.manifest))
        self.origin = list(self.table.deal_positions)  # placeholders, all overwritten:
        for position, card in zip(self.table.deal_positions, order, strict=True):
            self.origin[card] = position
        self.draw_pile = order[::-1]
        self._events.append(ev.RoundStarted(self.round_no, self.dealer, len(order)))
        seating = self.turn_order(self.dealer)
        seating = seating[1:] + seating[:1]  # starting left of the dealer
        dealt: dict[int, list[int]] = {seat: [] for seat in seating}
        for k in range(self.rules.hand_size * len(seating)):
            dealt[seating[k % len(seating)]].append(self.draw_pile.pop())
        for seat in seating:
            piles.give(self, seat, dealt[seat], "deal")
        if self.no_mercy:
            self._turn_first_number()
        else:
            self._turn_first_card()

    def _turn_first_card(self) -> None:
        """The first discard acts as if the dealer had played it (unonet.effects.OPENING); a
        Wild Draw Four (Flip: Wild Draw Two) goes back into the deck, which is reshuffled, and
        another is turned."""
        card = self.draw_pile.pop()
        self.discard.append(card)
        self._events.append(ev.TopCardTurned(card, self.origin[card]))
        face = self.face(card)
        self.active_color = face.color
        if face.kind in CHALLENGEABLE_KINDS:
            self.discard.pop()
            sources = [self.origin[c] for c in self.draw_pile] + [self.origin[card]]
            piles.new_epoch(self, sources, f"first_card_{face.kind.value}", public=False)
            self._turn_first_card()
            return
        OPENING.get(face.kind, next_player)(self, self.dealer, face, "first_card_")

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
        self.next_turn(self.step(self.dealer, 1))

    # -- what handlers and effects use --------------------------------------------------------

    draw_cards = piles.draw_cards
    draw_until_color = piles.draw_until_color
    move_hands = piles.move_hands

    def pass_hands(self, reason: str) -> None:
        piles.pass_hands(self, reason)

    def emit(self, event: ev.Event) -> None:
        """Record `event` among the step's (the handlers' and effects' door; Round appends to
        its own list directly, on every step's path)."""
        self._events.append(event)

    def enter(self, decision: Decision, serial: bool = True) -> None:
        """The one place the round's decision changes; `serial`: a new turn or decision
        (what closes the catch and sequence windows of earlier ones)."""
        self.decision = decision
        self.phase = decision.phase
        self.current = decision.seat
        if serial:
            self.turn_serial += 1

    def next_turn(self, seat: int) -> None:
        if self.phase is ROUND_OVER:
            return
        if seat in self.out:
            seat = self.step(seat, 1)
        self.enter(self.turns[seat])
        self._events.append(ev.turn_started(seat, self.direction))

    def set_decision(self, decision: Decision) -> None:
        if self.phase is ROUND_OVER:
            return
        if decision.seat in self.out:
            decision = _with_seat(decision, self.step(decision.seat, 1))
        self.enter(decision)
        amount = decision.amount if isinstance(decision, DRAWS) else 0
        self._events.append(ev.DecisionPending(decision.seat, decision.phase.value, amount,
                                               self.until_color()))

    def lay_cards(self, seat: int, action: Play) -> Face:
        """Move the played cards from the hand to the discard pile, the last one on top; return
        the face of the new top card. A Discard All takes its colour's cards with it."""
        hand = self.hands[seat]
        also = action.also
        if not also:
            card = action.card
            hand.remove(card)
            self.discard.append(card)
            self._events.append(
                ev.CardPlayed(seat, card, self.origin[card], action.color, action.uno))
        else:  # a run or a set: the last card names the colour and carries the UNO call
            for card in (action.card, *also):
                last = card == also[-1]
                hand.remove(card)
                self.discard.append(card)
                self._events.append(ev.CardPlayed(seat, card, self.origin[card],
                                                  action.color if last else None,
                                                  action.uno and last))
        face = self.table.faces[self.discard[-1]]
        if self.no_mercy and face.kind is Kind.DISCARD_ALL:
            self._discard_all(seat, face)
        return face

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
        positions = tuple(self.origin[c] for c in mates)
        self._events.append(ev.CardsDiscarded(seat, positions, tuple(mates)))

    def show_side(self, side: int) -> None:
        """Turn every card to `side` (UNO Flip): its colours and its play table."""
        self.side = side
        self.colors = side_colors(side)
        self.table = play_table(self.manifest, side, self.colors)
        self.color_choices = color_choices(self.colors)

    # -- pending draws -------------------------------------------------------------------------

    def take_pending(self, seat: int) -> None:
        """`seat` takes the pending draw and loses its turn."""
        decision = self.decision
        assert isinstance(decision, DRAWS)
        stacked = self.rules.stacking != "off" or not decision.chain
        reason = "stack" if stacked else decision.chain[0].kind.value
        self.pay_pending(seat, 0, reason)
        if seat not in self.out:  # knocked out by the draw: out, not skipped
            self._events.append(ev.Skipped(seat, reason))
        self.after_pending_paid(self.step(seat, 1))

    def pay_pending(self, seat: int, extra: int, reason: str) -> None:
        """`seat` draws the pending draw and `extra` cards more, and the pending draw ends. A
        pending Wild Draw Color (UNO Flip) is drawn until a card of the named colour."""
        until = self.until_color()
        amount = self.pending_draw
        self.enter(PendingDraw(self.current, 0, ()), serial=False)  # being paid
        if until is None:
            self.draw_cards(seat, amount + extra, reason)
            return
        self.draw_until_color(seat, until, reason)
        if extra and seat not in self.out and not self.over:
            self.draw_cards(seat, extra, reason)

    def after_pending_paid(self, nxt: int) -> None:
        """The pending draw was taken: the round ends if a player emptied their hand meanwhile,
        else `nxt` plays."""
        if self.phase is ROUND_OVER:
            return
        if self.finished is not None:
            self.finish_round(self.finished, None)
        else:
            self.next_turn(nxt)

    # -- the buzzer race (`buzzers`) -----------------------------------------------------------

    def open_buzzer(self, seat: int, then: int, then_draw: PendingDraw | None = None) -> None:
        """A Buzzer: every seat still in presses B; then the turn after `then`, or the
        deflected draw `then_draw`."""
        waiting = tuple(self.turn_order(seat))
        self.enter(BuzzerRace(seat, waiting, (), then, then_draw))
        self._events.append(ev.BuzzerOpened(seat, waiting))

    def close_buzzer(self, losers: tuple[int, ...]) -> None:
        self._events.append(ev.BuzzerClosed(losers, BUZZER_PENALTY))
        race = self.decision
        assert isinstance(race, BuzzerRace)
        self.enter(BuzzerRace(race.seat, (), (), race.then, race.then_draw), serial=False)
        for loser in losers:
            if self.phase is not ROUND_OVER:
                self.draw_cards(loser, BUZZER_PENALTY, "penalty_buzzer")
        if self.phase is ROUND_OVER:
            return
        if race.then_draw is not None:
            self.set_decision(race.then_draw)
        else:
            self.next_turn(self.step(race.then, 1))

    # -- UNO (RULEBOOK.md 1.7) -----------------------------------------------------------------

    def after_hand_shrank(self, seat: int, called: bool) -> None:
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
                self.draw_cards(seat, self.rules.uno_penalty, "penalty_uno")

    # -- turn order ----------------------------------------------------------------------------

    def step(self, seat: int, steps: int, direction: int | None = None) -> int:
        """The seat `steps` places from `seat` in the direction of play (or `direction`),
        passing over seats out of the round and one who has emptied their hand."""
        way = self.direction if direction is None else direction
        out, finished, seats = self.out, self.finished, self.seats
        nxt = (seat + way) % seats
        if steps == 1 and nxt not in out and nxt != finished:
            return nxt  # the common case, without the loops (a third of this call's cost)
        for _ in range(steps):
            seat = (seat + way) % seats
            for _ in range(seats):
                if seat not in out and seat != finished:
                    break
                seat = (seat + way) % seats
        return seat

    def turn_order(self, start: int) -> list[int]:
        """The seats in the round, from `start` (if in) in the direction of play."""
        order = [(start + k * self.direction) % self.seats for k in range(self.seats)]
        return [seat for seat in order if seat not in self.out]

    def default_target(self, seat: int) -> int:
        others = [s for s in self.turn_order(seat) if s != seat]
        return min(others, key=lambda s: len(self.hands[s]))

    def favourite_color(self, seat: int) -> Color:
        counts = {color: 0 for color in self.colors}
        for card in self.hands[seat]:
            color = self.face(card).color
            if color in counts:
                counts[color] += 1
        return max(self.colors, key=lambda color: counts[color])

    # -- the end -------------------------------------------------------------------------------

    def stalemate_reached(self) -> bool:
        """RULEBOOK.md 6: every player still in passed in a row with no card to draw."""
        if self.cannot_draw_streak < self.players():
            return False
        winner = min(
            self.turn_order(self.step(self.current, 1)),
            key=lambda s: hand_points(self.manifest, self.hands[s], self.side),
        )
        self._events.append(ev.Stalemate(winner))
        self.finish_round(winner, None)
        return True

    def finish_round(self, seat: int, last: Face | None) -> None:
        """RULEBOOK.md 1.9: a last Draw Two (or unchallenged Wild Draw Four) is still drawn; a
        Wild Reverse Draw Four that waits for no answer reverses first (No Mercy)."""
        if last is not None and last.draw_amount:
            victim = (reverse_for_draw(self, seat) if last.kind is Kind.WILD_REVERSE_DRAW_FOUR
                      else self.step(seat, 1))
            self.draw_cards(victim, last.draw_amount, last.kind.value)
        elif last is not None and last.kind is Kind.WILD_DRAW_COLOR:
            assert self.active_color is not None
            self.draw_until_color(self.step(seat, 1), self.active_color, last.kind.value)
        self.winner = seat
        self.finished = None
        self.enter(RoundOver(self.current), serial=False)
        self.catchable.clear()
        self.run = None

    def _take_events(self) -> list[ev.Event]:
        out, self._events = self._events, []
        if self.sight is not None:
            out = self.sight.after_step(self, out)
        return out



def _with_seat(decision: Decision, seat: int) -> Decision:
    return replace(decision, seat=seat)
