"""What one seat (or a spectator) may know: the observer of OpenSpiel, one function for both.

A seat sees its own hand, everyone's card count, the face-up cards and the public state; a
spectator (seat None) sees the same minus any hand. Nothing here names another seat's card.
In UNO Flip everybody also sees the side not in play of every card in every hand and of the
draw pile's top card: those are faces, never ids (with the public manifest an id would name
the side in play as well).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from unonet.cards import Color, Face
from unonet.decisions import BuzzerRace, Challenge, PendingDraw, RoundOver, Turn
from unonet.flip import other_side
from unonet.flip_deck import DARK
from unonet.phase import Phase
from unonet.scoring import team_of

if TYPE_CHECKING:
    from unonet.match import Match
    from unonet.round_state import RoundState


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    cards: int
    score: int
    uno_called: bool
    catchable: bool
    out: bool = False  # knocked out for this round (max_hand) or eliminated from the match
    team: int | None = None  # teams=pairs: 0 or 1 (partners sit opposite)
    other_sides: tuple[Face, ...] = ()  # UNO Flip: the hand's side not in play (face_order)


@dataclass(frozen=True, slots=True)
class Pending:
    """The decision the game waits for, as data: the client draws it, the narration words it
    and the bots read it, without re-deriving the rules."""

    kind: Phase  # one of phase.DECISIONS
    seat: int  # who decides (for a buzzer race: the Buzzer's player)
    target: int | None = None  # the Wild Draw Four's player, for a challenge
    color_before: Color | None = None
    target_cards: int | None = None  # how many cards the target held when it played
    amount: int = 0  # stack and challenge: the cards `seat` takes if it accepts
    waiting: tuple[int, ...] = ()  # buzzer: the seats that have not pressed B yet
    until_color: Color | None = None  # a Wild Draw Color's draw: until this colour shows


@dataclass(frozen=True, slots=True)
class View:
    seat: int | None
    round_no: int
    phase: Phase  # between_rounds, match_over, or the round's phase
    dealer: int | None
    current: int | None
    direction: int
    hand: tuple[int, ...]
    seats: tuple[SeatView, ...]
    top_card: int | None
    active_color: Color | None
    draw_pile: int
    discard_pile: int
    drawn_card: int | None
    pending: Pending | None
    round_winner: int | None
    match_winner: int | None
    side: int = 0  # UNO Flip: the side in play (0 light, 1 dark); always 0 otherwise
    pile_other_side: Face | None = None  # UNO Flip: the draw pile's top card, other side
    # UNO Flip: the dark face of each card this observer was told of this round, by card id
    # (an id names its light face only: unonet.flip).
    dark_faces: tuple[tuple[int, Face], ...] = ()


def face_order(face: Face) -> tuple[str, str, int]:
    """The canonical order of a row of other sides: by kind, colour, number. How a player
    holds its cards is not shown."""
    return (face.kind.value, face.color.value if face.color is not None else "", face.number or 0)


def observe(match: Match, seat: int | None) -> View:
    """The view of `seat`; None is a spectator's view (public information only)."""
    rnd = match.round
    teams = [team_of(match.rules, match.seats, s) for s in range(match.seats)]
    if rnd is None:
        seats = tuple(
            SeatView(s, 0, match.scores[s], False, False, s in match.eliminated, teams[s])
            for s in range(match.seats)
        )
        return View(seat, match.round_no, match.phase, match.dealer, None, 1, (), seats, None,
                    None, 0, 0, None, None, None, match.winner)
    own = seat is not None and 0 <= seat < match.seats
    hidden = other_side(rnd.side)
    flip = rnd.sight is not None  # UNO Flip
    return View(
        seat=seat,
        round_no=match.round_no,
        phase=match.phase if match.phase is Phase.MATCH_OVER else rnd.phase,
        dealer=rnd.dealer,
        current=None if rnd.phase is Phase.ROUND_OVER else rnd.current,
        direction=rnd.direction,
        hand=tuple(rnd.hands[seat]) if own and seat is not None else (),
        seats=_seat_views(match, rnd, teams, seat),
        top_card=rnd.discard[-1] if rnd.discard else None,
        active_color=rnd.active_color,
        draw_pile=len(rnd.draw_pile),
        discard_pile=len(rnd.discard),
        drawn_card=rnd.drawn_card if own and rnd.current == seat else None,
        pending=pending_decision(rnd),
        round_winner=rnd.winner,
        match_winner=match.winner,
        side=rnd.side,
        pile_other_side=(
            rnd.manifest.face(rnd.draw_pile[-1], hidden) if flip and rnd.draw_pile else None
        ),
        dark_faces=_dark_faces(rnd, seat if own else None),
    )


def _seat_views(match: Match, rnd: RoundState, teams: list[int | None],
                viewer: int | None) -> tuple[SeatView, ...]:
    """What everybody sees of each seat: its card count, score, UNO, and in UNO Flip the other
    sides of its hand, but for the viewer's own hand, which faces away from its player at a
    real table (found in tmux: the client showed a player its own cards' backs)."""
    flip = rnd.sight is not None
    hidden = other_side(rnd.side)
    return tuple(
        SeatView(s, len(rnd.hands[s]), match.scores[s], s in rnd.uno_called, s in rnd.catchable,
                 s in rnd.out or s in match.eliminated, teams[s],
                 _other_sides(rnd, rnd.hands[s], hidden) if flip and s != viewer else ())
        for s in range(match.seats)
    )


def _other_sides(rnd: RoundState, hand: list[int], side: int) -> tuple[Face, ...]:
    return tuple(sorted((rnd.manifest.face(card, side) for card in hand), key=face_order))


def _dark_faces(rnd: RoundState, seat: int | None) -> tuple[tuple[int, Face], ...]:
    if rnd.sight is None:
        return ()
    return tuple(
        (card, rnd.manifest.face(card, DARK)) for card in sorted(rnd.sight.dark_faces_known(seat))
    )


def pending_decision(rnd: RoundState) -> Pending | None:
    """The decision the round waits for, in the view's one record (its wire form, SPEC.md 9);
    None in a plain turn."""
    decision = rnd.decision
    if isinstance(decision, Turn | RoundOver):
        return None
    amount = decision.amount if isinstance(decision, PendingDraw | Challenge) else 0
    challenge = decision if isinstance(decision, Challenge) else None
    return Pending(
        kind=decision.phase,
        seat=decision.seat,
        target=challenge.player if challenge is not None else None,
        color_before=challenge.color_before if challenge is not None else None,
        target_cards=len(challenge.hand) + 1 if challenge is not None else None,
        amount=amount,
        waiting=decision.waiting if isinstance(decision, BuzzerRace) else (),
        until_color=rnd.until_color(),
    )
