"""One round of UNO as an explicit state machine (RULES.md section 1).

`Round` holds the piles, the hands, whose turn it is and the one pending decision, in a single
`phase`. `apply(seat, action)` validates against `legal_actions(seat)` before touching anything,
so a refused action leaves the state exactly as it was; an accepted one returns its events.
Randomness is the round key alone: the deck, every reshuffle and the dealer draw are portable
shuffles of it (unonet.shuffle), so (rules, key, actions) replays to the same state.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from unonet import events as ev
from unonet.actions import (
    Accept,
    Action,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    Draw,
    Pass,
    Play,
)
from unonet.cards import ALL_COLORS, Color, DeckManifest, Face, Kind
from unonet.errors import EngineError, ErrorCode
from unonet.events import Position
from unonet.matching import holds_color, matches
from unonet.plays import PlayTable, play_table
from unonet.rules import RuleSet
from unonet.shuffle import deal_order, reshuffle_order


class Phase(StrEnum):
    TURN = "turn"  # `current` plays, draws or passes
    CHOOSE_COLOR = "choose_color"  # `current` names a colour (a first-card Wild)
    CHALLENGE = "challenge"  # `current` challenges or accepts a Wild Draw Four
    ROUND_OVER = "round_over"


TURN_ACTIONS = (Play, Draw, Pass, ChooseColor, Challenge, Accept)
_DRAW = Draw()
_PASS = Pass()
_CALL_UNO = CallUno()
_CHALLENGE_ANSWERS: tuple[Action, ...] = (Challenge(), Accept())


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
    ) -> None:
        """`table` is the match's PlayTable for this deck (built here when None)."""
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
        self._restricted_plays = not rules.action_finish or rules.wd4_policy == "enforce"

        self.hands: list[list[int]] = [[] for _ in range(seats)]
        self.out: set[int] = set()  # seats out of the round (not in classic yet)
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

        # A Wild Draw Four waiting for the challenge decision of `current`.
        self.wd4_player: int | None = None
        self.wd4_hand: tuple[int, ...] = ()
        self.color_before: Color | None = None

        self.uno_called: set[int] = set()
        self.catchable: dict[int, int] = {}  # seat -> turn_serial when its window opened
        self._catches = tuple(Catch(target) for target in range(seats))  # listed, not built
        self.winner: int | None = None

        self._events: list[ev.Event] = []
        # The last list of legal actions and whose it was: `apply` accepts an action taken from
        # it by identity without working out its legality again (bots and the host list, then
        # apply). Every change of state clears it: apply, expire, penalize.
        self._listed: tuple[int, tuple[Action, ...]] | None = None
        self._deal(stacked)

    # -- public API ------------------------------------------------------------------------------

    def face(self, card: int) -> Face:
        """What `card` shows now (the table is that of the side shown)."""
        return self._faces[card]

    @property
    def top(self) -> int:
        return self.discard[-1]

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action `seat` may take now, in a stable order: plays first, then Draw and Pass
        (or a decision's answers), then CallUno and catches.

        Only catches that succeed are listed. Under `false_catch_penalty` a Catch of any other
        seat is still accepted by `apply`: a wrong one costs the catcher that many cards.
        """
        if self.phase is Phase.ROUND_OVER or seat in self.out:
            return []
        actions = self._decision_actions(seat) if seat == self.current else []
        catchable = self.catchable
        if catchable:
            if seat in catchable and len(self.hands[seat]) == 1:
                actions.append(_CALL_UNO)
            actions += [self._catches[target] for target in sorted(catchable) if target != seat]
        self._listed = (seat, tuple(actions))  # a copy: the caller owns `actions`
        return actions

    def apply(self, seat: int, action: Action) -> list[ev.Event]:
        """Apply `action` for `seat`, or raise EngineError and change nothing."""
        listed = self._listed
        from_listing = (
            listed is not None and listed[0] == seat and any(a is action for a in listed[1])
        )
        if not from_listing and not self._is_listed(seat, action):
            if not self._is_false_catch(seat, action):
                raise self._diagnose(seat, action)
            self._listed = None
            self._events = []
            self._do_false_catch(seat, action)
            return self._take_events()
        self._listed = None
        self._events = []
        if self.catchable and isinstance(action, TURN_ACTIONS):
            self._close_catch_windows()
        self._carry_out(seat, action)
        return self._take_events()

    def expire(self) -> list[ev.Event]:
        """The host's timer for the pending decision ran out: apply the documented default.

        A turn: draw one card and pass (or pass, if already drawn). A colour: the colour the
        decider holds most of. A challenge decision: accept the Wild Draw Four.
        """
        if self.phase is Phase.ROUND_OVER:
            raise EngineError(ErrorCode.ROUND_OVER, "nothing is pending")
        seat = self.current
        self._listed = None
        self._events = [ev.Expired(seat, self.phase.value)]
        if self.catchable:
            self._close_catch_windows()
        if self.phase is Phase.TURN:
            if self.draws_this_turn == 0:  # draw_when_playable limits a choice, not this
                self._draw_cards(seat, 1, "draw")
            if self.phase is Phase.TURN and self.current == seat:
                self._events.append(ev.Passed(seat))
                self._next_turn(self._step(seat, 1))
        elif self.phase is Phase.CHOOSE_COLOR:
            self._do_choose_color(seat, ChooseColor(self._favourite_color(seat)))
        elif self.phase is Phase.CHALLENGE:
            self._do_accept(seat)
        return self._take_events()

    def penalize(self, target: int, count: int) -> list[ev.Event]:
        """The table owner's moderation: `target` draws `count` cards (seed 000's hint rule)."""
        if self.phase is Phase.ROUND_OVER:
            raise EngineError(ErrorCode.ROUND_OVER, "the round is over")
        if not 0 <= target < self.seats:
            raise EngineError(ErrorCode.UNKNOWN_SEAT, f"no seat {target}")
        if not 1 <= count <= 10:
            raise EngineError(ErrorCode.ACTION_NOT_ALLOWED, "a penalty is 1 to 10 cards")
        self._listed = None
        self._events = [ev.Penalized(target, count)]
        self._draw_cards(target, count, "penalty_moderation")
        return self._take_events()

    def _carry_out(self, seat: int, action: Action) -> None:
        """Run the handler of an action `apply` accepted. A chain of isinstance rather than a
        table of handlers: the compiled engine calls each handler directly."""
        if isinstance(action, Play):
            self._do_play(seat, action)
        elif isinstance(action, Draw):
            self._do_draw(seat)
        elif isinstance(action, Pass):
            self._do_pass(seat)
        elif isinstance(action, ChooseColor):
            self._do_choose_color(seat, action)
        elif isinstance(action, Challenge):
            self._do_challenge(seat)
        elif isinstance(action, Accept):
            self._do_accept(seat)
        elif isinstance(action, CallUno):
            self._do_call_uno(seat)
        else:
            assert isinstance(action, Catch)
            self._do_catch(seat, action)

    # -- the deal (RULES.md 1.2, 1.3) ------------------------------------------------------------

    def _deal(self, stacked: Sequence[int] | None) -> None:
        order = list(stacked) if stacked is not None else deal_order(self.key, len(self.manifest))
        self.origin = list(self.table.deal_positions)  # placeholders, all overwritten:
        for position, card in zip(self.table.deal_positions, order, strict=True):
            self.origin[card] = position
        self.draw_pile = order[::-1]
        self._events.append(ev.RoundStarted(self.round_no, self.dealer, len(order)))
        dealt: list[list[int]] = [[] for _ in range(self.seats)]
        for k in range(self.rules.hand_size * self.seats):
            seat = (self.dealer + 1 + k) % self.seats
            dealt[seat].append(self.draw_pile.pop())
        for offset in range(self.seats):
            seat = (self.dealer + 1 + offset) % self.seats
            self._give(seat, dealt[seat], "deal")
        self._turn_first_card()

    def _turn_first_card(self) -> None:
        card = self.draw_pile.pop()
        self.discard.append(card)
        self._events.append(ev.TopCardTurned(card, self.origin[card]))
        face = self.face(card)
        self.active_color = face.color
        first = self._step(self.dealer, 1)
        if face.kind is Kind.WILD_DRAW_FOUR:
            self._return_first_card(card)
            return
        if face.kind is Kind.WILD:
            self.current = first
            self._set_decision(Phase.CHOOSE_COLOR, first)
            return
        if face.kind is Kind.DRAW_TWO:
            self._draw_cards(first, 2, "draw_two")
            self._events.append(ev.Skipped(first, "first_card_draw_two"))
            self._next_turn(self._step(first, 1))
        elif face.kind is Kind.SKIP:
            self._events.append(ev.Skipped(first, "first_card_skip"))
            self._next_turn(self._step(first, 1))
        elif face.kind is Kind.REVERSE:
            if self._players() == 2:  # acts as a Skip: the dealer plays first
                self._events.append(ev.Skipped(first, "first_card_reverse"))
            else:
                self.direction = -self.direction
                self._events.append(ev.DirectionChanged(self.direction))
            self._next_turn(self.dealer)
        else:
            self._next_turn(first)

    def _return_first_card(self, card: int) -> None:
        """A first Wild Draw Four goes back into the deck, which is reshuffled; turn another."""
        self.discard.pop()
        sources = [self.origin[c] for c in self.draw_pile] + [self.origin[card]]
        self._new_epoch(sources, "first_card_wild_draw_four", public=False)
        self._turn_first_card()

    # -- decisions of the seat whose turn it is ---------------------------------------------------

    def _decision_actions(self, seat: int) -> list[Action]:
        if self.phase is Phase.CHOOSE_COLOR:
            return [ChooseColor(color) for color in self.colors]
        if self.phase is Phase.CHALLENGE:
            return list(_CHALLENGE_ANSWERS)
        actions: list[Action] = []
        hand = self.hands[seat]
        matching = self.table.matching(self.discard[-1], self.active_color)
        plays = self.table.plays_with_uno if len(hand) == 2 else self.table.plays
        restricted = self._restricted_plays
        for card in self._play_candidates(seat):  # _may_play, inlined: this runs every step
            if card in matching and not (restricted and self._rule_forbids(hand, card)):
                actions += plays[card]
        if self._can_draw(seat, has_play=bool(actions)):
            actions.append(_DRAW)
        if self.draws_this_turn > 0:
            actions.append(_PASS)
        return actions

    def _play_candidates(self, seat: int) -> Sequence[int]:
        """The cards `seat` may try to play in its turn.

        The drawn-card lock (RULES.md 1.4): after drawing, only the drawn card may be played.
        Under max_draws_per_turn an unplayable draw leaves nothing to play but another draw.
        """
        if self.drawn_card is not None:
            return (self.drawn_card,)
        return () if self.draws_this_turn else self.hands[seat]

    def _is_listed(self, seat: int, action: Action) -> bool:
        """`action in self.legal_actions(seat)`, without listing every play of the hand: the
        plays of the one card named, and Draw or Pass from their own conditions. For actions
        not taken from the last listing (a client's intent, decoded from the wire)."""
        kind = type(action)
        if (
            kind in (Play, Draw, Pass)
            and seat == self.current
            and self.phase is Phase.TURN
            and seat not in self.out
        ):
            if kind is Pass:
                return self.draws_this_turn > 0
            if kind is Draw:
                return self._can_draw(seat)
            assert isinstance(action, Play)
            return action.card in self._play_candidates(seat) and action in self._plays_of(
                seat, action.card
            )
        return action in self.legal_actions(seat)

    def _plays_of(self, seat: int, card: int) -> tuple[Play, ...]:
        """The plays of `card` from `seat`'s hand: none if it does not match or a rule forbids
        it, else one per colour a wild may name and, as the next-to-last card, per UNO call."""
        hand = self.hands[seat]
        if not self._may_play(hand, card, self.table.matching(self.discard[-1], self.active_color)):
            return ()
        plays = self.table.plays_with_uno if len(hand) == 2 else self.table.plays
        return plays[card]

    def _may_play(self, hand: list[int], card: int, matching: frozenset[int]) -> bool:
        """`card` matches (it is in `matching`, the top card's set) and no rule forbids it."""
        return card in matching and not (self._restricted_plays and self._rule_forbids(hand, card))

    def _rule_forbids(self, hand: list[int], card: int) -> bool:
        """A card that matches but may not be played: an action card as the last card (unless
        action_finish), a Wild Draw Four while holding the colour in play (wd4_policy=enforce)."""
        face = self.face(card)
        if len(hand) == 1 and face.is_action and not self.rules.action_finish:
            return True
        if face.kind is Kind.WILD_DRAW_FOUR and self.rules.wd4_policy == "enforce":
            return holds_color((self.face(c) for c in hand if c != card), self.active_color)
        return False

    def _can_draw(self, seat: int, has_play: bool | None = None) -> bool:
        if self.drawn_card is not None or self.draws_this_turn >= self.rules.max_draws_per_turn:
            return False
        if self.rules.draw_when_playable == "forbidden" and self.draws_this_turn == 0:
            if has_play is None:
                hand = self.hands[seat]
                matching = self.table.matching(self.discard[-1], self.active_color)
                has_play = any(self._may_play(hand, card, matching) for card in hand)
            return not has_play
        return True

    def _do_play(self, seat: int, action: Play) -> None:
        card = action.card
        face = self.face(card)
        color_before = self.active_color
        hand = self.hands[seat]
        hand.remove(card)
        self.discard.append(card)
        self.active_color = action.color if face.is_wild else face.color
        self.drawn_card = None
        self._events.append(ev.CardPlayed(seat, card, self.origin[card], action.color, action.uno))
        self._after_hand_shrank(seat, called=action.uno)

        if face.kind is Kind.WILD_DRAW_FOUR and self.rules.wd4_policy == "challenge":
            self.wd4_player = seat
            self.wd4_hand = tuple(hand)
            self.color_before = color_before
            self._set_decision(Phase.CHALLENGE, self._step(seat, 1))
            return
        if not hand:
            self._finish_round(seat, face)
            return
        self._apply_effect(seat, face)

    def _apply_effect(self, seat: int, face: Face) -> None:
        """RULES.md 1.5 and 1.6 (an unchallengeable Wild Draw Four)."""
        nxt = self._step(seat, 1)
        kind = face.kind
        if kind is Kind.SKIP:
            self._events.append(ev.Skipped(nxt, "skip"))
            self._next_turn(self._step(nxt, 1))
        elif kind is Kind.REVERSE:
            if self._players() == 2:
                self._events.append(ev.Skipped(nxt, "reverse_two_players"))
                self._next_turn(seat)
            else:
                self.direction = -self.direction
                self._events.append(ev.DirectionChanged(self.direction))
                self._next_turn(self._step(seat, 1))
        elif face.draw_amount:
            self._draw_cards(nxt, face.draw_amount, kind.value)
            self._events.append(ev.Skipped(nxt, kind.value))
            self._next_turn(self._step(nxt, 1))
        else:
            self._next_turn(nxt)

    def _do_draw(self, seat: int) -> None:
        self.draws_this_turn += 1
        if self.rules.draw_until_playable:
            drawn = self._draw_until_playable(seat)
        else:
            got = self._draw_cards(seat, 1, "draw")
            drawn = got[0] if got else None
        if drawn is None:
            self._events.append(ev.CannotDraw(seat))
            self._events.append(ev.Passed(seat))
            self._next_turn(self._step(seat, 1))
            return
        playable = bool(self._plays_of(seat, drawn))
        if playable and self.rules.play_after_draw:
            self.drawn_card = drawn  # only the drawn card may be played now (RULES.md 1.4)
            return
        if not self.rules.play_after_draw or self.draws_this_turn >= self.rules.max_draws_per_turn:
            self._events.append(ev.Passed(seat))
            self._next_turn(self._step(seat, 1))

    def _draw_until_playable(self, seat: int) -> int | None:
        while True:
            got = self._draw_cards(seat, 1, "draw")
            if not got:
                return None
            if self._plays_of(seat, got[0]):
                return got[0]

    def _do_pass(self, seat: int) -> None:
        self._events.append(ev.Passed(seat))
        self._next_turn(self._step(seat, 1))

    def _do_choose_color(self, seat: int, action: ChooseColor) -> None:
        self.active_color = action.color
        self._events.append(ev.ColorChosen(seat, action.color))
        self._next_turn(seat)  # the first-card Wild: the chooser then plays

    def _do_accept(self, seat: int) -> None:
        assert self.wd4_player is not None
        self._draw_cards(seat, 4, "wild_draw_four")
        self._events.append(ev.Skipped(seat, "wild_draw_four"))
        self._end_challenge_window(seat, victim_skipped=True)

    def _do_challenge(self, seat: int) -> None:
        """RULES.md 1.6: guilty, the player draws 4 and the challenger plays; innocent, the
        challenger draws 6 and loses the turn. The named colour stands either way."""
        target = self.wd4_player
        assert target is not None and self.color_before is not None
        hand = self.wd4_hand
        guilty = holds_color((self.face(c) for c in hand), self.color_before)
        self._events.append(ev.Challenged(seat, target, guilty))
        self._events.append(
            ev.ChallengeReveal(
                seat, target, hand, tuple(self.origin[c] for c in hand), self.color_before
            )
        )
        if guilty:
            extra = self.rules.challenge_guilty_extra
            self._draw_cards(target, 4 + extra, "penalty_challenge")
            self._end_challenge_window(seat, victim_skipped=False)
        else:
            self._draw_cards(seat, 6, "penalty_challenge")
            self._events.append(ev.Skipped(seat, "wild_draw_four"))
            self._end_challenge_window(seat, victim_skipped=True)

    def _end_challenge_window(self, victim: int, victim_skipped: bool) -> None:
        target = self.wd4_player
        assert target is not None
        self.wd4_player, self.wd4_hand, self.color_before = None, (), None
        if not self.hands[target]:
            self._finish_round(target, None)
        elif victim_skipped:
            self._next_turn(self._step(victim, 1))
        else:
            self._next_turn(victim)

    # -- UNO (RULES.md 1.7) ----------------------------------------------------------------------

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

    def _do_call_uno(self, seat: int) -> None:
        del self.catchable[seat]
        self.uno_called.add(seat)
        self._events.append(ev.UnoCalled(seat))

    def _do_catch(self, seat: int, action: Catch) -> None:
        target = action.target
        del self.catchable[target]
        penalty = self.rules.uno_penalty
        self._events.append(ev.UnoCaught(seat, target, penalty))
        self._draw_cards(target, penalty, "penalty_uno")

    def _is_false_catch(self, seat: int, action: Action) -> bool:
        """A wrong catch that `false_catch_penalty` punishes rather than refuses."""
        return (
            isinstance(action, Catch)
            and self.rules.false_catch_penalty > 0
            and self.phase is not Phase.ROUND_OVER
            and 0 <= seat < self.seats
            and seat not in self.out
            and 0 <= action.target < self.seats
            and action.target != seat
            and action.target not in self.out
        )

    def _do_false_catch(self, seat: int, action: Action) -> None:
        assert isinstance(action, Catch)
        penalty = self.rules.false_catch_penalty
        self._events.append(ev.FalseCatch(seat, action.target, penalty))
        self._draw_cards(seat, penalty, "penalty_false_catch")

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
                self._events.append(ev.UnoCaught(None, seat, self.rules.uno_penalty))
                self._draw_cards(seat, self.rules.uno_penalty, "penalty_uno")

    # -- piles -----------------------------------------------------------------------------------

    def _draw_cards(self, seat: int, count: int, reason: str) -> list[int]:
        """Move up to `count` cards from the draw pile to `seat`, reshuffling when it runs out
        (RULES.md 1.8). Fewer come when every other card is in a hand."""
        got: list[int] = []
        batch: list[int] = []
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
        return got

    def _give(self, seat: int, cards: list[int], reason: str) -> None:
        positions = tuple(self.origin[c] for c in cards)
        self.hands[seat].extend(cards)
        self.uno_called.discard(seat)
        self.catchable.pop(seat, None)
        self._events.append(ev.CardsDrawn(seat, positions, reason))
        self._events.append(ev.CardsReceived(seat, positions, tuple(cards)))

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

    # -- turn order ------------------------------------------------------------------------------

    def _players(self) -> int:
        return self.seats - len(self.out)

    def _step(self, seat: int, steps: int) -> int:
        """The seat `steps` places from `seat` in the direction of play, skipping seats out."""
        for _ in range(steps):
            seat = (seat + self.direction) % self.seats
            while seat in self.out:
                seat = (seat + self.direction) % self.seats
        return seat

    def _next_turn(self, seat: int) -> None:
        self.phase = Phase.TURN
        self.current = seat
        self.turn_serial += 1
        self.drawn_card = None
        self.draws_this_turn = 0
        self._events.append(ev.TurnStarted(seat, self.direction))

    def _set_decision(self, phase: Phase, seat: int) -> None:
        self.phase = phase
        self.current = seat
        self.turn_serial += 1
        self.drawn_card = None
        self.draws_this_turn = 0
        self._events.append(ev.DecisionPending(seat, phase.value))

    def _finish_round(self, seat: int, last: Face | None) -> None:
        """RULES.md 1.9: a last Draw Two (or unchallenged Wild Draw Four) is still drawn."""
        if last is not None and last.draw_amount:
            victim = self._step(seat, 1)
            self._draw_cards(victim, last.draw_amount, last.kind.value)
        self.winner = seat
        self.phase = Phase.ROUND_OVER
        self.catchable.clear()

    def _favourite_color(self, seat: int) -> Color:
        counts = {color: 0 for color in self.colors}
        for card in self.hands[seat]:
            color = self.face(card).color
            if color in counts:
                counts[color] += 1
        return max(self.colors, key=lambda color: counts[color])

    def _take_events(self) -> list[ev.Event]:
        out, self._events = self._events, []
        return out

    def take_setup_events(self) -> list[ev.Event]:
        """The events of the deal, once, for the match to pass on."""
        return self._take_events()

    # -- errors ----------------------------------------------------------------------------------

    def _diagnose(self, seat: int, action: Action) -> EngineError:
        """The most useful error code for an action that is not legal now."""
        if self.phase is Phase.ROUND_OVER:
            return EngineError(ErrorCode.ROUND_OVER, "the round is over")
        if not 0 <= seat < self.seats:
            return EngineError(ErrorCode.UNKNOWN_SEAT, f"no seat {seat}")
        if isinstance(action, Catch):
            return EngineError(ErrorCode.NOT_CATCHABLE, f"seat {action.target} cannot be caught")
        if isinstance(action, CallUno):
            return EngineError(ErrorCode.UNO_NOT_ALLOWED, "UNO is called holding one card")
        if not isinstance(action, TURN_ACTIONS):
            return EngineError(ErrorCode.ACTION_NOT_ALLOWED, f"{action} is not allowed")
        if seat != self.current:
            code = (
                ErrorCode.NOT_YOUR_TURN if self.phase is Phase.TURN else ErrorCode.NOT_YOUR_DECISION
            )
            return EngineError(code, f"it is seat {self.current}'s {self.phase.value}")
        if isinstance(action, Challenge | Accept):
            return EngineError(ErrorCode.NOTHING_TO_CHALLENGE, "no Wild Draw Four to answer")
        if self.phase is Phase.CHOOSE_COLOR and isinstance(action, ChooseColor):
            return EngineError(ErrorCode.COLOR_REQUIRED, "name a colour of this deck")
        if self.phase is not Phase.TURN or isinstance(action, ChooseColor):
            return EngineError(ErrorCode.WRONG_PHASE, f"now: {self.phase.value}")
        if isinstance(action, Draw):
            return EngineError(ErrorCode.CANNOT_DRAW, "no draw is allowed now")
        if isinstance(action, Pass):
            return EngineError(ErrorCode.CANNOT_PASS, "draw before passing")
        assert isinstance(action, Play)
        return self._diagnose_play(seat, action)

    def _diagnose_play(self, seat: int, action: Play) -> EngineError:
        hand = self.hands[seat]
        if action.card not in hand:
            return EngineError(ErrorCode.CARD_NOT_IN_HAND, f"card {action.card} is not in hand")
        if action.also:
            return EngineError(ErrorCode.ACTION_NOT_ALLOWED, "one card per play in these rules")
        if self.draws_this_turn and action.card != self.drawn_card:
            return EngineError(ErrorCode.MUST_PLAY_DRAWN_CARD, "only the drawn card may be played")
        face = self.face(action.card)
        if face.is_wild and action.color not in self.colors:
            return EngineError(ErrorCode.COLOR_REQUIRED, "a wild needs a colour of this deck")
        if not face.is_wild and action.color is not None:
            return EngineError(ErrorCode.COLOR_NOT_ALLOWED, "only a wild names a colour")
        if not matches(face, self.face(self.top), self.active_color):
            return EngineError(ErrorCode.ILLEGAL_CARD, f"{face.name} does not match the top card")
        if len(hand) == 1 and face.is_action and not self.rules.action_finish:
            return EngineError(ErrorCode.LAST_CARD_NOT_ALLOWED, "no action card as the last card")
        if face.kind is Kind.WILD_DRAW_FOUR and self.rules.wd4_policy == "enforce":
            others = (self.face(c) for c in hand if c != action.card)
            if holds_color(others, self.active_color):
                return EngineError(ErrorCode.ILLEGAL_WILD_DRAW_FOUR, "you hold the colour in play")
        return EngineError(ErrorCode.UNO_NOT_ALLOWED, "UNO goes with the next-to-last card")

