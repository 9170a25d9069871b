"""What one seat knows of a round, from the events addressed to it: the search bot's memory.

Every card sits at a position ((epoch, index): unonet.events) that public events follow from
the deal to the end of the round: a draw moves positions from the pile to a hand, a play from a
hand to the discard pile, a 7 or a 0 moves whole hands, a knock-out puts a hand under the pile,
a Flip turns both piles over. So this module follows where every position is, and remembers the
card behind each position it was ever shown: its own cards, every card face up, the hand a
challenge revealed to it. A hidden position can then only hold a card of its epoch's shuffle
that was never seen at a position of that epoch (`Pool`), which is what the sampler draws from
(unonet.bots.sampling). In UNO Flip, everybody sees the side not in play of every card in every
hand and of the pile's top card: those faces are remembered by position too (`light_seen`,
`dark_seen`), so a position seen on both sides is known on both.

It also follows what the view does not carry and a round needs to be played on: who played the
top card, the draw cards of a pending draw, the hand a Wild Draw Four was played from, whether a
colour being chosen came from a Flip, the stalemate count, knock-out and jump-in penalties.

Nothing here reads another seat's cards: the input is the seat's own events (public, or
addressed to it) and its view. `consistent` checks this memory against a view before it is
trusted; a bot that joined in mid-round without the round's events, or a host that skipped an
event, makes it inconsistent, and the bot then plays without search.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from unonet import events as ev
from unonet.cards import CHALLENGEABLE_KINDS, Color, DeckManifest, Face, Kind
from unonet.events import Position
from unonet.flip_deck import LIGHT
from unonet.in_play import face_in_play
from unonet.phase import Phase
from unonet.rules import RuleSet
from unonet.view import View

__all__ = ["Knowledge", "Pool", "Void"]


@dataclass(frozen=True, slots=True)
class Void:
    """What `seat` did not hold at `positions`. `top` set: it drew in its turn, so none of
    them could be played on `top` with `color` in play (a player draws when it has nothing to
    play; the rules let one draw anyway, and the sampler drops this when no deal fits it).
    `top` None: it played a Wild Draw Four (or Flip's challengeable wild draw card) with
    `color` in play, so none of them was of `color`: certain under wd4_policy=enforce, else
    what an honest player's card says (`honest`; a challenge found guilty removes it)."""

    seat: int
    positions: frozenset[Position]
    top: int | None
    color: Color | None
    honest: bool = False


@dataclass(slots=True)
class Pool:
    """The cards one shuffle put at the positions of its epochs, as this seat can narrow them:
    the deal (every card), a reshuffle of the discard pile (cards all seen face up), and a
    first-card Wild Draw Four put back in the deck, whose new epoch shares the deal's pool (its
    face-down cards were the deal's)."""

    cards: set[int] | None  # None: every card of the deck
    epochs: set[int] = field(default_factory=set)


class Knowledge:
    """One seat's memory of the current round (see the module's docstring)."""

    def __init__(self, seat: int, rules: RuleSet, manifest: DeckManifest) -> None:
        self.seat = seat
        self.rules = rules
        self.manifest = manifest
        self.flip = rules.variant == "flip"
        self.started = False  # a RoundStarted was seen: the memory covers the round
        self._reset(0, 0)

    def _reset(self, seats: int, deck_size: int) -> None:
        self.hands: list[list[Position]] = [[] for _ in range(seats)]
        self.pile: list[Position] = [(0, i) for i in range(deck_size)]  # top first
        self.discard: list[int] = []  # bottom first, as the engine's pile
        self.discard_positions: list[Position] = []  # where each discard card was shown
        self.seen_at: dict[Position, int] = {}  # every position whose card this seat was shown
        self.pools: list[Pool] = [Pool(None, {0})]
        self.epoch = 0
        self.side = LIGHT
        self.light_seen: dict[Position, Face] = {}  # UNO Flip: faces seen on positions
        self.dark_seen: dict[Position, Face] = {}
        self.dark_told: dict[int, Face] = {}  # UNO Flip: card id -> dark face, as told
        self.top_seat: int | None = None
        self.chain: list[Face] = []  # the draw cards played since the last turn began
        self.wd4_positions: tuple[Position, ...] = ()
        self.color_from_flip: int | None = None  # the seat whose Flip turned up a wild face
        self.cannot_draw_streak = 0
        self.knocked_out: dict[int, int] = {}
        self.penalty_points: dict[int, int] = {}
        self.serial = 0  # counts the engine's turn serial (turns, decisions, buzzer races)
        self.own_draws = 0  # this seat's draws in its current turn
        self.round_over = False
        self.color: Color | None = None  # the colour in play
        self.voids: list[Void] = []
        self.drew: set[int] = set()  # seats that drew in the current turn
        self.expired = False  # the host's timer played the current turn

    # -- following events ------------------------------------------------------------------

    def observe(self, event: ev.Event) -> None:
        handler = _HANDLERS.get(type(event))
        if handler is not None:
            handler(self, event)

    def _round_started(self, event: ev.RoundStarted) -> None:
        seats = max(len(self.hands), self.seat + 1)
        self._reset(seats, event.deck_size)
        self.started = True

    def _seats(self, seat: int) -> None:
        while len(self.hands) <= seat:
            self.hands.append([])

    def _cards_drawn(self, event: ev.CardsDrawn) -> None:
        self._seats(event.seat)
        if event.reason == "draw" and event.seat not in self.drew:
            self.drew.add(event.seat)
            hand = self.hands[event.seat]
            # Under action_finish=false a last card that matches may still not be played.
            if (event.seat != self.seat and not self.expired and self.side == LIGHT
                    and self.discard and hand and (self.rules.action_finish or len(hand) > 1)):
                self.voids.append(Void(event.seat, frozenset(hand), self.discard[-1],
                                       self.color))
        pile = self.pile
        for position in event.positions:
            if pile and pile[0] == position:
                del pile[0]
            elif position in pile:
                pile.remove(position)
        self.hands[event.seat].extend(event.positions)
        if event.reason == "draw":
            self.cannot_draw_streak = 0
            if event.seat == self.seat:
                self.own_draws += 1

    def _cards_received(self, event: ev.CardsReceived) -> None:
        for position, card in zip(event.positions, event.cards, strict=False):
            self.seen_at[position] = card

    def _top_card_turned(self, event: ev.TopCardTurned) -> None:
        if event.position in self.pile:
            self.pile.remove(event.position)
        self._to_discard(event.card, event.position)
        self.top_seat = None
        face = self.face(event.card)
        self.color = face.color if face is not None else None

    def _to_discard(self, card: int, position: Position) -> None:
        self.discard.append(card)
        self.discard_positions.append(position)
        self.seen_at[position] = card

    def _reshuffled(self, event: ev.Reshuffled) -> None:
        self.epoch = event.epoch
        self.pile = [(event.epoch, i) for i in range(len(event.sources))]
        if event.reason == "empty_pile":
            # The cards keep their old positions in `seen_at`: seen there, they are none of
            # the hidden cards of those positions' pool.
            self.discard = self.discard[-1:]
            self.discard_positions = self.discard_positions[-1:]
            self.pools.append(Pool(set(event.cards), {event.epoch}))
            return
        # A first card put back: the face-down deck with it becomes a new epoch of the same
        # cards (the deal's pool), in an order nobody saw.
        if self.discard:
            self.discard.pop()
            self.discard_positions.pop()
        for source in event.sources:  # those positions are gone; their cards are hidden again
            self.seen_at.pop(source, None)
        for pool in self.pools:
            if any(epoch == source[0] for source in event.sources for epoch in pool.epochs):
                pool.epochs.add(event.epoch)
                break

    def _card_played(self, event: ev.CardPlayed) -> None:
        self._seats(event.seat)
        hand = self.hands[event.seat]
        if event.position in hand:
            hand.remove(event.position)
        self._to_discard(event.card, event.position)
        self.top_seat = event.seat
        self.cannot_draw_streak = 0
        face = self.face(event.card)
        before = self.color
        self.color = event.color if event.color is not None else (
            face.color if face is not None and face.color is not None else self.color)
        if face is not None and (face.draw_amount or face.kind is Kind.WILD_DRAW_COLOR):
            answering = bool(self.chain)  # stacked on a pending draw: no colour rule then
            self.chain.append(face)
            if face.kind in CHALLENGEABLE_KINDS:
                self.wd4_positions = tuple(hand)
                policy = self.rules.wd4_policy
                if (policy != "free" and event.seat != self.seat and before is not None
                        and self.side == LIGHT and hand and not answering):
                    self.voids.append(Void(event.seat, frozenset(hand), None, before,
                                           honest=policy == "challenge"))

    def _cards_discarded(self, event: ev.CardsDiscarded) -> None:
        self._seats(event.seat)
        hand = self.hands[event.seat]
        for position, card in zip(event.positions, event.cards, strict=False):
            if position in hand:
                hand.remove(position)
            self.seen_at[position] = card
        # Under the Discard All, which stays on top.
        self.discard[-1:-1] = list(event.cards)
        self.discard_positions[-1:-1] = list(event.positions)

    def _roulette_turned(self, event: ev.RouletteTurned) -> None:
        for position, card in zip(event.positions, event.cards, strict=False):
            self.seen_at[position] = card

    def _challenge_reveal(self, event: ev.ChallengeReveal) -> None:
        for position, card in zip(event.positions, event.cards, strict=False):
            self.seen_at[position] = card

    def _cards_returned(self, event: ev.CardsReturned) -> None:
        self._seats(event.seat)
        hand = self.hands[event.seat]
        for position in event.positions:
            if position in hand:
                hand.remove(position)
        self.pile.extend(event.positions)  # under the pile, in the order they were held

    def _hands_moved(self, event: ev.HandsMoved) -> None:
        moved = {taker: list(positions) for _, taker, positions in event.moves}
        for taker, positions in moved.items():
            self._seats(taker)
            self.hands[taker] = positions

    def _flipped(self, event: ev.Flipped) -> None:
        self.discard.reverse()
        self.discard_positions.reverse()
        self.pile.reverse()
        self.side = event.side
        self.top_seat = None
        face = self.face(event.top)
        self.color = face.color if face is not None else None
        self.color_from_flip = event.seat if face is not None and face.is_wild else None

    def _other_sides_shown(self, event: ev.OtherSidesShown) -> None:
        seen = self.dark_seen if self.side == LIGHT else self.light_seen
        for position, face in zip(event.positions, event.faces, strict=False):
            seen[position] = face

    def _pile_other_side_shown(self, event: ev.PileOtherSideShown) -> None:
        if event.position is None or event.face is None:
            return
        seen = self.dark_seen if self.side == LIGHT else self.light_seen
        seen[event.position] = event.face

    def _dark_faces_shown(self, event: ev.DarkFacesShown) -> None:
        for card, face in zip(event.cards, event.faces, strict=False):
            self.dark_told[card] = face

    def _turn_started(self, event: ev.TurnStarted) -> None:
        self.serial += 1
        self.chain = []
        self.wd4_positions = ()
        self.own_draws = 0
        self.drew.clear()
        self.expired = False

    def _decision_pending(self, event: ev.DecisionPending) -> None:
        self.serial += 1
        self.own_draws = 0
        self.drew.clear()
        self.expired = False
        if event.kind != Phase.CHOOSE_COLOR.value:
            self.color_from_flip = None

    def _buzzer_opened(self, event: ev.BuzzerOpened) -> None:
        self.serial += 1

    def _color_chosen(self, event: ev.ColorChosen) -> None:
        self.color_from_flip = None
        self.color = event.color

    def _expired(self, event: ev.Expired) -> None:
        self.expired = True

    def _challenged(self, event: ev.Challenged) -> None:
        if event.guilty:  # it held the colour after all
            self.voids = [v for v in self.voids
                          if not (v.seat == event.target and v.top is None)]

    def _cannot_draw(self, event: ev.CannotDraw) -> None:
        self.cannot_draw_streak += 1

    def _knocked_out(self, event: ev.KnockedOut) -> None:
        self.knocked_out[event.seat] = event.penalty

    def _jump_in_refused(self, event: ev.JumpInRefused) -> None:
        self.penalty_points[event.seat] = self.penalty_points.get(event.seat, 0) + event.penalty

    def _draw_cancelled(self, event: ev.DrawCancelled) -> None:
        self.chain = []
        self.wd4_positions = ()

    def _round_ended(self, event: ev.RoundEnded) -> None:
        self.round_over = True

    # -- reading -----------------------------------------------------------------------------

    def face(self, card: int, side: int | None = None) -> Face | None:
        """`card`'s face on `side` (default: the side in play) as this seat was told."""
        return face_in_play(self.manifest, card, self.side if side is None else side,
                            self.dark_told)

    def pool_of(self, epoch: int) -> Pool:
        for pool in self.pools:
            if epoch in pool.epochs:
                return pool
        return self.pools[0]

    def consistent(self, view: View) -> str | None:
        """None when this memory agrees with `view` (the counts of every hand and pile, the
        top card, this seat's hand); else what disagrees, in words."""
        if not self.started or self.round_over:
            return "no round followed from its start"
        if view.round_no < 1:
            return "no round"
        if len(self.hands) < len(view.seats):
            for _ in range(len(view.seats) - len(self.hands)):
                self.hands.append([])
        for seat in view.seats:
            if len(self.hands[seat.seat]) != seat.cards:
                return f"seat {seat.seat} holds {seat.cards}, not {len(self.hands[seat.seat])}"
        if len(self.pile) != view.draw_pile:
            return f"the pile has {view.draw_pile} cards, not {len(self.pile)}"
        if len(self.discard) != view.discard_pile:
            return f"the discard pile has {view.discard_pile} cards, not {len(self.discard)}"
        if view.top_card is not None and (not self.discard or self.discard[-1] != view.top_card):
            return "the top card differs"
        own = [self.seen_at.get(p) for p in self.hands[self.seat]]
        if sorted(c for c in own if c is not None) != sorted(view.hand) or None in own:
            return "this seat's hand differs"
        if self.side != view.side:
            return "the side in play differs"
        return None


_HANDLERS: dict[type, Callable[[Knowledge, Any], None]] = {
    ev.RoundStarted: Knowledge._round_started,
    ev.CardsDrawn: Knowledge._cards_drawn,
    ev.CardsReceived: Knowledge._cards_received,
    ev.TopCardTurned: Knowledge._top_card_turned,
    ev.Reshuffled: Knowledge._reshuffled,
    ev.CardPlayed: Knowledge._card_played,
    ev.CardsDiscarded: Knowledge._cards_discarded,
    ev.RouletteTurned: Knowledge._roulette_turned,
    ev.ChallengeReveal: Knowledge._challenge_reveal,
    ev.CardsReturned: Knowledge._cards_returned,
    ev.HandsMoved: Knowledge._hands_moved,
    ev.Flipped: Knowledge._flipped,
    ev.OtherSidesShown: Knowledge._other_sides_shown,
    ev.PileOtherSideShown: Knowledge._pile_other_side_shown,
    ev.DarkFacesShown: Knowledge._dark_faces_shown,
    ev.TurnStarted: Knowledge._turn_started,
    ev.DecisionPending: Knowledge._decision_pending,
    ev.BuzzerOpened: Knowledge._buzzer_opened,
    ev.ColorChosen: Knowledge._color_chosen,
    ev.Expired: Knowledge._expired,
    ev.Challenged: Knowledge._challenged,
    ev.CannotDraw: Knowledge._cannot_draw,
    ev.KnockedOut: Knowledge._knocked_out,
    ev.JumpInRefused: Knowledge._jump_in_refused,
    ev.DrawCancelled: Knowledge._draw_cancelled,
    ev.RoundEnded: Knowledge._round_ended,
}
"""What each kind of event changes in the memory; every other event changes nothing here."""
