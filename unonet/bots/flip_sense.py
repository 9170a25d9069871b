"""What a bot makes of UNO Flip's open information: everybody sees the side not in play of every
card in every hand (RULEBOOK.md section 3).

Two uses, kept simple:

- `FlipMemory` remembers, by position, the faces each hand showed before the last Flip: those
  are the faces now in play, so right after a Flip a bot knows what the others hold (until they
  draw). Positions travel with the cards, so plays, hand passes and swaps need no special case.
- `flip_gain` weighs playing a Flip: my hand's other side against this one, and what each
  opponent close to going out would hold after it (seen now) against what it holds before
  (known or not).

A bot reads only events and views, so this works the same in the host and over the network.
A card id names its light face only (the public manifest); which dark face backs it is dealt
afresh each round and told only as the rules show it (unonet.flip, `View.dark_faces`): `Faces`
reads a card's face on either side from those two and nothing else (unonet.in_play, as the
client and the narration do).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from unonet.cards import DeckManifest, Face, Kind
from unonet.events import Event, Flipped, OtherSidesShown, Position, RoundStarted
from unonet.flip import other_side
from unonet.in_play import DarkFaces, face_in_play
from unonet.view import View

STRONG_KINDS = frozenset({Kind.DRAW_FIVE, Kind.SKIP_EVERYONE, Kind.WILD_DRAW_TWO,
                          Kind.WILD_DRAW_COLOR})
"""Faces that hurt the next player most: each counts as a wild in `strength`."""

FLIP_MARGIN = 0.25
"""How much `flip_gain` must favour (or disfavour) a Flip before the bot cares: a smaller
difference is noise, and the Flip is then weighed like any other action card."""

WILD_DRAW_COLOR_HIT = 4
"""About how many cards a Wild Draw Color makes the next player draw: a quarter of the
coloured dark faces are of the named colour, and it names one they are short of."""

# How likely an opponent close to going out can play on its turn, by what we know of its hand.
THREAT_WILD = 1.0  # it holds a wild on the side in play: it surely can
THREAT_UNKNOWN = 0.5  # we do not know all of it (before the first Flip: nothing)
THREAT_COLORED = 0.25  # all known, no wild: it needs the colour or the number


UNTOLD = Face(Kind.NUMBER)
"""What `Faces` gives for a dark face the bot was not told (only a host that breaks SPEC 9.2
leaves one out): no colour, no number, no points, so it matches nothing and weighs nothing, and
the bot still answers from the legal list rather than failing."""


class Faces:
    """The faces of card ids as one observer knows them: the light face from the public
    manifest, the dark face from those its view says it was told this round (its own cards,
    and cards put face up on the dark side)."""

    def __init__(self, manifest: DeckManifest) -> None:
        self.manifest = manifest
        self._dark = DarkFaces()  # rebuilt only when a view's dark_faces change
        self._light = tuple(spec.faces[0] for spec in manifest)
        """Each id's light face, as face_in_play reads it: looked up directly on the light
        side, where the search's playouts ask for faces most (unonet.bots.playout)."""

    def on(self, view: View, card: int, side: int) -> Face:
        """The face `card` shows on `side`."""
        if side == 0 and 0 <= card < len(self._light):
            return self._light[card]
        face = face_in_play(self.manifest, card, side, self._dark.of(view.dark_faces))
        return UNTOLD if face is None else face

    def in_play(self, view: View, card: int) -> Face:
        """The face `card` shows on the side in play."""
        if view.side == 0 and 0 <= card < len(self._light):  # `on`'s first case, inlined
            return self._light[card]
        return self.on(view, card, view.side)

    def reader(self, view: View) -> Callable[[int], Face]:
        """`in_play` for this view as one callable: on the light side the tuple's own lookup
        (the No Mercy and house-rule policies ask for faces hundreds of times a decision)."""
        if view.side == 0:
            return self._light.__getitem__
        return lambda card: self.in_play(view, card)

    def dark(self, view: View) -> list[Face]:
        """Every dark face `view` says this observer was told this round."""
        return [face for _, face in view.dark_faces]


def strength(face: Face) -> int:
    """How much a face helps its holder go out: a wild or a hard-hitting card 2, another action
    card 1, a number 0."""
    if face.is_wild or face.kind in STRONG_KINDS:
        return 2
    return 1 if face.is_action else 0


def hit(face: Face) -> int:
    """The cards a face makes the next player draw (a Wild Draw Color's: an estimate)."""
    if face.kind is Kind.WILD_DRAW_COLOR:
        return WILD_DRAW_COLOR_HIT
    return face.draw_amount


def threat(faces: Sequence[Face], complete: bool) -> float:
    """How likely a hand of one or two cards is to be played out soon, from its known faces on
    the side in play (`complete`: they are all of it)."""
    if any(face.is_wild for face in faces):
        return THREAT_WILD
    return THREAT_COLORED if complete else THREAT_UNKNOWN


class FlipMemory:
    """The faces in play known by position since the last Flip, and where each seat's cards
    are (its last OtherSidesShown)."""

    def __init__(self) -> None:
        self.backs: dict[int, dict[Position, Face]] = {}  # seat -> position -> face not in play
        self.fronts: dict[Position, Face] = {}  # position -> face in play, known since a Flip
        self.side = 0  # the side `fronts` are faces of

    def observe(self, event: Event) -> None:
        if isinstance(event, RoundStarted):
            self.backs.clear()
            self.fronts.clear()
            self.side = 0
        elif isinstance(event, Flipped):
            # What every hand showed of the other side is now in play.
            self.fronts = {p: f for row in self.backs.values() for p, f in row.items()}
            self.side = event.side
        elif isinstance(event, OtherSidesShown):
            self.backs[event.seat] = dict(zip(event.positions, event.faces, strict=True))

    def known_in_play(self, seat: int, side: int) -> list[Face]:
        """The faces on `side` (the side in play) that `seat` is known to hold."""
        if side != self.side:
            return []  # we missed a Flip (a resync): what we know is of the other side
        return [self.fronts[p] for p in self.backs.get(seat, {}) if p in self.fronts]


def flip_gain(view: View, faces: Faces, memory: FlipMemory, me: int, flip: int,
              danger: bool) -> float:
    """How much better off `me` is if it plays the Flip `flip` now (positive: play it).

    Mine: while an opponent is close to going out, what counts is the points the round may cost
    me (the side it ends on scores), per card in units of an action card's 20 points; otherwise
    how strong my hand is, per card. Each opponent with one or two cards (two for one with one)
    adds how much less likely it is to go out on the other side, whose faces everybody sees."""
    side, back = view.side, other_side(view.side)
    rest = [c for c in view.hand if c != flip]
    gain = 0.0
    if rest:
        now = [faces.on(view, c, side) for c in rest]
        then = [faces.on(view, c, back) for c in rest]
        if danger:
            gain = (sum(f.points for f in now) - sum(f.points for f in then)) / (20 * len(rest))
        else:
            gain = (sum(map(strength, then)) - sum(map(strength, now))) / len(rest)
    mine = next((s for s in view.seats if s.seat == me), None)
    for seat in view.seats:
        partner = mine is not None and mine.team is not None and seat.team == mine.team
        if seat.seat == me or seat.out or partner or not 0 < seat.cards <= 2:
            continue
        known = memory.known_in_play(seat.seat, side)
        before = threat(known, complete=len(known) == seat.cards)
        after = threat(seat.other_sides, complete=True)
        gain += (3 - seat.cards) * (before - after)
    return gain


def flip_preference(gain: float) -> int:
    """1: play a Flip first; -1: any other play first; 0: a Flip is an action card like others."""
    if gain > FLIP_MARGIN:
        return 1
    return -1 if gain < -FLIP_MARGIN else 0
