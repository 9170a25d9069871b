"""What a bot makes of UNO Show 'Em No Mercy (RULEBOOK.md section 4): hands grow fast, the Mercy
rule puts a player out at 25 cards, draw cards stack upwards, and a few cards do what no classic
card does.

The choices kept here, each from the seat's view and the faces it may read, never the state:

- how many cards a play leaves in hand: a Discard All takes every other card of its colour, a
  7 (under seven_zero) swaps for the smallest other hand, a 0 takes the previous hand;
- whom a draw card hits, and whether that puts them past the Mercy limit;
- when a draw card falls back on its own player: a Wild Reverse Draw Four with two players
  left, unless it is the last card or another draw card can send the stack on;
- which colour to name for a Color Roulette one must turn: the one most cards left unseen are
  of, so that the fewest are turned.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from unonet.actions import Play
from unonet.cards import Color, Face, Kind
from unonet.view import View

FaceOf = Callable[[int], Face]
"""A card id's face on the side in play, as the bot reads it."""

MERCY_LIMIT = 25
"""The No Mercy hand limit when the rules a bot was given do not say (RULEBOOK.md 4)."""

PRESSURE_MARGIN = 10
"""A hand within this many cards of the limit is under pressure: the bot sheds what it can and
keeps a draw card to answer the next stack with."""

ROULETTE_HIT = 4
"""About how many cards a Color Roulette makes its victim turn: they name the colour most
likely to show, and a little over a fifth of the deck is of each colour."""


def hit(face: Face) -> int:
    """The cards a face makes the player it hits take (a Color Roulette's: an estimate)."""
    if face.kind is Kind.WILD_COLOR_ROULETTE:
        return ROULETTE_HIT
    return face.draw_amount


def in_play(view: View) -> list[int]:
    """The seats not knocked out, in seat order."""
    return [s.seat for s in view.seats if not s.out]


def neighbour(view: View, seat: int, direction: int) -> int | None:
    """The next seat in play after `seat` going `direction` (None if it is alone)."""
    count = len(view.seats)
    for step in range(1, count):
        other = view.seats[(seat + step * direction) % count]
        if not other.out:
            return other.seat
    return None


def left_after(hand: Sequence[int], play: Play, face_of: FaceOf) -> list[int]:
    """The cards `hand` keeps once `play` is made: a Discard All lays every other card of its
    colour with it (unonet.legality.cards_left, read from faces)."""
    gone = {play.card, *play.also}
    face = face_of(play.card)
    if face.kind is Kind.DISCARD_ALL:
        gone.update(c for c in hand if face_of(c).color == face.color)
    return [c for c in hand if c not in gone]


def hand_after(view: View, me: int, play: Play, left: Sequence[int], face_of: FaceOf,
               seven_zero: bool) -> int:
    """How many cards `me` holds once `play` has done its work: a 7 swaps for the smallest other
    hand (the target the normal bot picks), a 0 takes the previous player's hand; a last card
    wins without its effect."""
    face = face_of(play.card)
    if not left or not seven_zero or face.kind is not Kind.NUMBER:
        return len(left)
    cards = {s.seat: s.cards for s in view.seats if not s.out and s.seat != me}
    if face.number == 7 and cards:
        return min(cards.values())
    if face.number == 0:
        before = neighbour(view, me, -view.direction)
        if before is not None and before in cards:
            return cards[before]
    return len(left)


def victim(view: View, me: int, face: Face) -> int | None:
    """The seat a draw card (or a Color Roulette) played by `me` hits: the next in play, in the
    new direction after a Wild Reverse Draw Four (with two players: `me` itself)."""
    if hit(face) == 0:
        return None
    direction = view.direction
    if face.kind is Kind.WILD_REVERSE_DRAW_FOUR:
        direction = -direction
        if len(in_play(view)) == 2:
            return me
    return neighbour(view, me, direction)


def knocks_out(view: View, me: int, face: Face, limit: int, pending: int = 0) -> bool:
    """Whether playing `face` puts the player it hits at or past the Mercy limit if they take
    the draw (`pending`: the stack's total so far), never counting `me`."""
    seat = victim(view, me, face)
    if seat is None or seat == me:
        return False
    cards = next(s.cards for s in view.seats if s.seat == seat)
    return cards + pending + hit(face) >= limit


def backfires(view: View, me: int, play: Play, left: Sequence[int], face_of: FaceOf) -> bool:
    """Whether `play` sends a draw back to `me`: a Wild Reverse Draw Four with two players in
    play, not the last card, and no other draw card of at least 4 left to send it on."""
    face = face_of(play.card)
    if face.kind is not Kind.WILD_REVERSE_DRAW_FOUR or not left:
        return False
    if victim(view, me, face) != me:
        return False
    return not any(face_of(c).draw_amount >= face.draw_amount for c in left)


def roulette_color(offered: Sequence[Color], unseen: Counter[Face], hand: Sequence[int],
                   face_of: FaceOf) -> Color:
    """The colour to name when a Color Roulette makes us turn cards: the one the most unseen
    cards are of (a wild does not stop the turning), then the one we hold most (it is in play
    after), then the first offered."""
    left = Counter[Color]()
    for face, count in unseen.items():
        if face.color is not None and not face.is_wild:
            left[face.color] += count
    held = Counter(face_of(c).color for c in hand)
    first = offered[0]
    return max(offered, key=lambda c: (left[c], held[c], c == first))


def pressured(view: View, limit: int) -> bool:
    """Whether our hand is close enough to the Mercy limit that one stack could put us out."""
    return len(view.hand) >= limit - PRESSURE_MARGIN


def choose_play(view: View, me: int, plays: Sequence[Play], face_of: FaceOf, limit: int,
                seven_zero: bool) -> Play:
    """The play a decent No Mercy player makes in its own turn (or out of it).

    Going out first, then never a draw that comes back on us; then a draw card that puts the
    player it hits past the Mercy limit. While an opponent is close to going out: hit hardest,
    then shed most. Otherwise shed the most cards (a Discard All with its colour, a 7 that
    swaps for a small hand) and keep wilds, and, under pressure, our last draw card to answer
    the next stack with; then the colour we hold most, then the highest points."""
    danger = any(s.cards <= 2 for s in view.seats if s.seat != me and not s.out)
    stress = pressured(view, limit)
    draws = [c for c in view.hand if face_of(c).draw_amount > 0] if stress else []
    scored: dict[tuple[int, tuple[int, ...]], tuple[int, ...]] = {}

    def score(play: Play) -> tuple[int, ...]:
        # A wild's colours score alike (the first listed wins a tie): scored once.
        key = (play.card, play.also)
        found = scored.get(key)
        if found is None:
            found = scored[key] = _score(play)
        return found

    def _score(play: Play) -> tuple[int, ...]:
        face = face_of(play.card)
        left = left_after(view.hand, play, face_of)
        shed = len(view.hand) - hand_after(view, me, play, left, face_of, seven_zero)
        first = (not left, -backfires(view, me, play, left, face_of),
                 knocks_out(view, me, face, limit))
        if danger:
            return (*first, hit(face), shed, face.points, -face.is_wild)
        keep = stress and face.draw_amount > 0 and len(draws) == 1
        same = sum(1 for c in left if face_of(c).color == face.color)
        return (*first, -keep, shed, -face.is_wild, same, face.points)

    return max(plays, key=score)


def answer_draw(view: View, me: int, plays: Sequence[Play], face_of: FaceOf,
                limit: int) -> Play | None:
    """The answer to a pending draw of `view.pending.amount` cards, or None to take it.

    A draw card that would send the stack back on us (a Wild Reverse Draw Four with two
    players, nothing to follow it) is no answer. Otherwise any answer beats taking the draw:
    the one that puts its victim past the limit, else a deflect that sheds most when taking the
    draw could not put us out, else the biggest draw card (the next player must match it to
    send the stack on), a wild last."""
    amount = view.pending.amount if view.pending is not None else 0
    answers = [p for p in plays
               if not backfires(view, me, p, left_after(view.hand, p, face_of), face_of)]
    if not answers:
        return None

    def score(play: Play) -> tuple[int, ...]:
        face = face_of(play.card)
        shed = len(view.hand) - len(left_after(view.hand, play, face_of))
        cancels = face.kind in (Kind.DISCARD_ALL, Kind.SKIP_EVERYONE)
        return (knocks_out(view, me, face, limit, amount), cancels and shed > 1,
                hit(face), shed, -face.is_wild, -face.points)

    return max(answers, key=score)
