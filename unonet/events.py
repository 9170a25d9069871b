"""What the engine reports after each applied action.

Events are small immutable values (frozen, slotted dataclasses), compared by value in tests.

Each has an audience: None means every seat and spectator may see it; a set of seats means only
those (a card's id going to its owner, a challenge reveal going to the challenger alone). The
host sends each event to exactly its audience, which is how the information-leak rule of
DESIGN.md is kept in one place.

Cards move by *position*: (epoch, index) in the shuffled order of a pile, epoch 0 being the
round's deal and each reshuffle the next epoch. The public events name positions; only private
events name the card ids of hidden cards. The protocol's commitments bind positions to ids.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from unonet.cards import Color, Face
from unonet.values import quick_init

Position = tuple[int, int]
"""(epoch, index) of a card in the shuffled order it was dealt or drawn from."""


@dataclass(frozen=True, slots=True)
class Event:
    @property
    def audience(self) -> frozenset[int] | None:
        return None


# -- match level ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DealerDraw(Event):
    """Each seat's card for the choice of dealer; `seats` are those drawing in this attempt."""

    attempt: int
    draws: tuple[tuple[int, int], ...]  # (seat, card id), face up


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    round_no: int
    dealer: int
    deck_size: int


@dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    """The round's winner (None if the round was abandoned), every hand revealed, the points."""

    winner: int | None
    hands: tuple[tuple[int, ...], ...]
    points: tuple[int, ...]  # points scored this round, per seat
    scores: tuple[int, ...]  # match totals after this round


@dataclass(frozen=True, slots=True)
class MatchEnded(Event):
    winner: int
    scores: tuple[int, ...]


# -- cards moving ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CardsDrawn(Event):
    """`seat` took `positions` from the draw pile face down; `reason` says why."""

    seat: int
    positions: tuple[Position, ...]
    reason: str  # deal, draw, penalty_uno, penalty_challenge, draw_two, draw_four, ...


@dataclass(frozen=True, slots=True)
class CardsReceived(Event):
    """Private to `seat`: the ids of the cards it just drew, in the order of `positions`."""

    seat: int
    positions: tuple[Position, ...]
    cards: tuple[int, ...]


    @property
    def audience(self) -> frozenset[int] | None:
        return frozenset((self.seat,))


@dataclass(frozen=True, slots=True)
class TopCardTurned(Event):
    """The first discard of the round (or of a redraw after a first Wild Draw Four)."""

    card: int
    position: Position


@dataclass(frozen=True, slots=True)
class Reshuffled(Event):
    """A new draw pile (epoch `epoch`) from the cards at `sources`, sorted ascending, shuffled
    with `unonet.shuffle.reshuffle_order`.

    `reason` is `empty_pile` (the discard pile less its top card; those cards were face up, so
    `cards` names them, aligned with `sources`) or `first_card_wild_draw_four` (the rest of the
    deck with the card put back; face down, so `cards` is empty).
    """

    epoch: int
    sources: tuple[Position, ...]
    cards: tuple[int, ...]
    reason: str


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    seat: int
    card: int
    position: Position
    color: Color | None  # the colour named, for a wild
    uno: bool  # UNO was called with this play


@dataclass(frozen=True, slots=True)
class CardsReturned(Event):
    """`seat`'s cards at `positions` went face down under the draw pile (a knock-out): they keep
    their positions, so whoever draws one later checks it against its commitment as usual."""

    seat: int
    positions: tuple[Position, ...]
    reason: str  # max_hand


# -- turn flow ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    seat: int
    direction: int  # +1 to the left (seat order), -1 to the right


@dataclass(frozen=True, slots=True)
class Skipped(Event):
    seat: int
    reason: str  # skip, draw_two, wild_draw_four, reverse_two_players, first_card_*


@dataclass(frozen=True, slots=True)
class DirectionChanged(Event):
    direction: int


@dataclass(frozen=True, slots=True)
class ColorChosen(Event):
    seat: int
    color: Color


@dataclass(frozen=True, slots=True)
class Passed(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class CannotDraw(Event):
    """Every card is in a hand: `seat` had to draw and could not; the turn passes."""

    seat: int


@dataclass(frozen=True, slots=True)
class DecisionPending(Event):
    """`seat` must decide `kind` (a Phase value: choose_color, challenge, stack, choose_target)
    before play goes on; `amount` is the pending draw it takes if it accepts (stack, challenge),
    else 0. A Wild Draw Color's draw has no count: `until_color` is the colour it draws until
    (and `amount` is 0). The view's `pending` carries the same decision in full."""

    seat: int
    kind: str
    amount: int = 0
    until_color: Color | None = None


# -- UNO, challenge, moderation ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class UnoCalled(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class UnoCaught(Event):
    catcher: int | None  # None: the automatic penalty of `uno_auto_penalty`
    target: int
    penalty: int


@dataclass(frozen=True, slots=True)
class FalseCatch(Event):
    catcher: int
    target: int
    penalty: int


@dataclass(frozen=True, slots=True)
class CatchWindowClosed(Event):
    """`seats` can no longer be caught (the next player began their turn)."""

    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Challenged(Event):
    """The verdict, public. The hand behind it goes to the challenger alone (ChallengeReveal)."""

    challenger: int
    target: int
    guilty: bool


@dataclass(frozen=True, slots=True)
class ChallengeReveal(Event):
    """Private to the challenger: the challenged hand at the moment of the Wild Draw Four."""

    challenger: int
    target: int
    cards: tuple[int, ...]
    positions: tuple[Position, ...]
    color_before: Color


    @property
    def audience(self) -> frozenset[int] | None:
        return frozenset((self.challenger,))


@dataclass(frozen=True, slots=True)
class Penalized(Event):
    target: int
    count: int


@dataclass(frozen=True, slots=True)
class Expired(Event):
    """The host's timer ran out on `seat`'s decision `kind`; the default was applied."""

    seat: int
    kind: str


# -- house rules (RULEBOOK.md section 2) -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MayPlayDrawn(Event):
    """Private to `seat`: the card it just drew may be played now (the drawn-card lock).

    The engine's judgement sent along, so that a client never re-derives the rules."""

    seat: int
    card: int


    @property
    def audience(self) -> frozenset[int] | None:
        return frozenset((self.seat,))


@dataclass(frozen=True, slots=True)
class DrawStacked(Event):
    """A draw card answered a pending draw (`stacking`): `total` cards now wait for the next."""

    seat: int
    total: int


@dataclass(frozen=True, slots=True)
class DrawDeflected(Event):
    """`seat` passed the pending draw of `total` cards on to `to` with a Skip, a Reverse or a
    Buzzer (`deflect`)."""

    seat: int
    to: int
    total: int


@dataclass(frozen=True, slots=True)
class JumpedIn(Event):
    """`seat` played out of turn (`jump_in`, or the next card of its run under `sequences`);
    play goes on from it. The card itself follows as CardPlayed."""

    seat: int
    reason: str  # jump_in, sequence


@dataclass(frozen=True, slots=True)
class JumpInRefused(Event):
    """An out-of-turn play came too late or did not match: `seat` scores `penalty` points
    (`jump_in_penalty`), against it under every scoring."""

    seat: int
    card: int
    penalty: int


@dataclass(frozen=True, slots=True)
class HandsMoved(Event):
    """Whole hands changed owner (`seven_zero`): each move is (from seat, to seat, the positions
    of the cards). Each receiver then gets CardsReceived with the ids, privately."""

    moves: tuple[tuple[int, int, tuple[Position, ...]], ...]
    reason: str  # seven, zero


@dataclass(frozen=True, slots=True)
class BuzzerOpened(Event):
    """A Buzzer was played: every seat in `waiting` must press B before play goes on."""

    seat: int
    waiting: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Buzzed(Event):
    """`seat` pressed B, `place`-th (1 = first) in the host's order of arrival."""

    seat: int
    place: int


@dataclass(frozen=True, slots=True)
class BuzzerClosed(Event):
    """The race is decided: `losers` (the slowest, or everyone who had not pressed when the
    host's window closed) draw `penalty` cards each."""

    losers: tuple[int, ...]
    penalty: int


@dataclass(frozen=True, slots=True)
class KnockedOut(Event):
    """`seat` reached `max_hand` cards and is out for the round; `penalty` points await it."""

    seat: int
    cards: int
    penalty: int


@dataclass(frozen=True, slots=True)
class Stalemate(Event):
    """Nobody can play or draw (every player passed in turn with no card to draw): the round
    ends and the player holding the fewest points wins it (RULEBOOK.md, stalemate)."""

    winner: int


@dataclass(frozen=True, slots=True)
class SeatEliminated(Event):
    """`scoring=elimination`: `seat` reached the target with `score` points and is out of the
    match; the next rounds are dealt without it."""

    seat: int
    score: int


# -- UNO Flip (RULEBOOK.md section 3) ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Flipped(Event):
    """`seat` played a Flip: the discard pile was reversed and turned over (its old bottom card
    is the new top, `top`, whose face on `side` sets what to match), then the draw pile (its old
    bottom card is the next drawn), then every hand. No card changed place otherwise, so every
    card keeps its position; `side` is 0 (light) or 1 (dark)."""

    seat: int
    side: int
    top: int


@dataclass(frozen=True, slots=True)
class OtherSidesShown(Event):
    """UNO Flip: `seat`'s whole hand as everybody sees it, the side not in play. `positions` are
    its cards' positions, ascending, and `faces[i]` the face not in play of the card at
    `positions[i]`. Sent whenever that hand or the side in play changed; it replaces the last
    one. Faces, never ids: with the public manifest an id would name the side in play too."""

    seat: int
    positions: tuple[Position, ...]
    faces: tuple[Face, ...]


@dataclass(frozen=True, slots=True)
class PileOtherSideShown(Event):
    """UNO Flip: the face not in play of the draw pile's top card, at `position`, which everybody
    sees (both None: the pile is empty). Sent whenever that card or the side in play changed."""

    position: Position | None
    face: Face | None


@dataclass(frozen=True, slots=True)
class DarkFacesShown(Event):
    """UNO Flip: the dark face of each card in `cards` is `faces[i]`, for `seat` alone (the
    cards it receives) or, `seat` None, for everybody (a card face up on the dark side, every
    hand at the end of a round on the dark side). A card id names its light face only: which
    dark face backs it is dealt afresh each round, secret until the round's audit."""

    seat: int | None
    cards: tuple[int, ...]
    faces: tuple[Face, ...]


    @property
    def audience(self) -> frozenset[int] | None:
        return None if self.seat is None else frozenset({self.seat})


# -- UNO Show 'Em No Mercy (RULEBOOK.md section 4) -------------------------------------------------


@dataclass(frozen=True, slots=True)
class CardsDiscarded(Event):
    """A Discard All: `seat` also laid every other card of its colour, face up, under it (their
    effects do not apply). `cards[i]` is the card at `positions[i]`, in the order they went
    down; the Discard All itself, played first (CardPlayed), stays on top."""

    seat: int
    positions: tuple[Position, ...]
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RouletteTurned(Event):
    """A Wild Color Roulette: `seat` named `color` and turned over, face up for everyone, the
    cards at `positions` (`cards[i]` at `positions[i]`), in the order turned, until one of that
    colour showed (wilds do not count), the piles ran out, or the Mercy rule put it out. It
    keeps them all (each turned card came as CardsDrawn, reason wild_color_roulette)."""

    seat: int
    color: Color
    positions: tuple[Position, ...]
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DrawCancelled(Event):
    """`deflect` in No Mercy (seed 003): `seat` answered the pending draw of `total` cards with
    a Discard All or a Skip Everyone, and nobody draws it. The card then acts as if played in
    `seat`'s own turn."""

    seat: int
    total: int


# Every event above is made through its slots (unonet.values): two or three are made a step.
quick_init(*(value for value in list(globals().values())
             if isinstance(value, type) and issubclass(value, Event)))

turn_started = cache(TurnStarted)
passed = cache(Passed)
"""The events a round emits at nearly every step, made once per seat (and direction) and shared:
events are values, and a lookup costs a third of making one."""
