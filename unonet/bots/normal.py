"""The "normal" bot: plays like a decent human.

It keeps its wilds for when nothing else plays, sheds high cards when an opponent is close to
going out, plays the longest run or the most cards of a number it can, calls UNO with its
next-to-last card (but forgets now and then: FORGET_RATE), catches those who forget, names the
colour it holds most of, and challenges a Wild Draw Four when what it has seen makes a bluff
likely. In UNO Flip it reads every face on the side in play and uses the other sides everybody
sees (unonet.bots.flip_sense): it plays a Flip when that helps it, names a colour the next
player is not known to hold, and challenges knowing what the card's player held since the last
Flip. In No Mercy (unonet.bots.no_mercy_sense) it sheds the most cards (a Discard All with its
colour), knocks out the player a draw card would put past the Mercy limit, keeps its last draw
card when its own hand nears the limit, never plays a Wild Reverse Draw Four that comes back on
it, and names for a Color Roulette the colour most unseen cards are of. Under the house rules it
answers a
pending draw with a draw card (the biggest it may, escalating), else passes it on (deflect),
and takes it only when it must; swaps hands with the opponent nearest to going out; jumps in
whenever it may and presses B in a buzzer race. What is allowed it reads from the legal list
and the view's pending decision; it never re-derives a rule.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from unonet.actions import (
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
from unonet.bots import no_mercy_sense as nm
from unonet.bots.base import Bot
from unonet.bots.flip_sense import Faces, FlipMemory, flip_gain, flip_preference, hit
from unonet.cards import Color, Face, Kind
from unonet.events import (
    CardPlayed,
    CardsDiscarded,
    Event,
    Reshuffled,
    RouletteTurned,
    RoundStarted,
    TopCardTurned,
)
from unonet.flip_deck import LIGHT, dark_faces
from unonet.phase import Phase
from unonet.view import SeatView, View

CHALLENGE_THRESHOLD = 0.6
"""Challenge when the estimated chance that the +4's player held the colour exceeds this.
A failed challenge costs 2 more cards than accepting and a good one saves 4, so anything above
1/3 pays on average; the margin allows for players who play +4 honestly."""


FORGET_RATE = 0.15
"""How often the normal bot forgets to call UNO: a decent player who mostly remembers, often
enough that watching for a catch pays."""


class NormalBot(Bot):
    forget_rate = FORGET_RATE

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.seen: set[int] = set()  # face-up cards seen this round
        self.flips = FlipMemory()
        self.faces = Faces(self.manifest)
        self.no_mercy = any(spec.faces[0].kind is Kind.DISCARD_ALL for spec in self.manifest)
        """No Mercy's deck (unonet.bots.no_mercy_sense decides its plays), read from the
        manifest: a network bot may know the deck before the rules."""
        self.limit = self.rules.max_hand or nm.MERCY_LIMIT
        self.flips_deck = any(spec.faces[0].kind is Kind.FLIP for spec in self.manifest)
        """UNO Flip's deck (a Flip card among the light faces): only then is a Flip weighed."""

    def observe(self, event: Event) -> None:
        if isinstance(event, CardPlayed | TopCardTurned):
            self.seen.add(event.card)
        elif isinstance(event, CardsDiscarded | RouletteTurned):
            self.seen.update(event.cards)  # face up for everybody, out of the draw pile
        elif isinstance(event, Reshuffled):
            self.seen.difference_update(event.cards)  # back in the draw pile, unseen again
        if isinstance(event, RoundStarted):
            self.seen.clear()
        self.flips.observe(event)

    def face(self, view: View, card: int) -> Face:
        """What `card` shows on the side in play (UNO Flip turns it; other decks have one)."""
        return self.faces.in_play(view, card)

    def react(self, view: View, legal: Sequence[Action]) -> Action | None:
        """Every chance is taken: call UNO (unless it forgot), catch, press B, then jump in (or
        go on with a run) with the best card offered."""
        legal = self.uno_calls(view, legal)
        for kinds in (CallUno | Catch, Buzz):
            for action in legal:
                if isinstance(action, kinds):
                    return action
        plays = [a for a in legal if isinstance(a, Play)]
        return self._choose_play(view, plays) if plays else None

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        # The answers are the listed actions themselves where they can be: the engine takes
        # an action from its own listing without judging it again (the search's playouts).
        listed = {type(a): a for a in reversed(legal)}
        if Buzz in listed:
            return listed[Buzz]
        targets = [a for a in legal if isinstance(a, ChooseTarget)]
        if targets:
            return self._swap_target(view, targets)
        plays = [a for a in legal if isinstance(a, Play)]
        if Challenge in listed and self._bluff_likely(view):
            return listed[Challenge]
        if Accept in listed:  # a pending draw: a stack total, or a Wild Draw Four
            return self._answer_draw(view, plays) if plays else listed[Accept]
        colors = [a.color for a in legal if isinstance(a, ChooseColor)]
        if colors and view.pending is not None and view.pending.kind is Phase.ROULETTE:
            return ChooseColor(nm.roulette_color(colors, self._unseen(view), view.hand,
                                                 self.faces.reader(view)))
        if colors:
            return ChooseColor(self._best_color(view, view.hand, colors))
        if plays:
            return self._choose_play(view, plays)
        for kind in (Draw, Pass):
            for action in legal:
                if isinstance(action, kind):
                    return action
        return legal[0]

    # -- playing ----------------------------------------------------------------------------

    def _choose_play(self, view: View, plays: list[Play]) -> Play:
        if self.no_mercy:
            best = nm.choose_play(view, self.seat, plays, self.faces.reader(view),
                                  self.limit, self.rules.seven_zero)
            return self._colored(view, best, plays)
        danger = any(s.cards <= 2 for s in view.seats if s.seat != self.seat and not s.out)
        held = view.hand
        flip = self._flip_preference(view, plays, danger)
        nxt = self._next_seat(view)
        after = self.flips.known_in_play(nxt, view.side) if nxt is not None else []
        held_colors: dict[Color | None, int] | None = None  # counted once, when first needed
        face_of = self.faces.reader(view)

        def score(play: Play) -> tuple[int, ...]:
            nonlocal held_colors
            face = face_of(play.card)
            wild = 1 if face.is_wild else 0
            cards = 1 + len(play.also)  # a run or a multiple sheds several at once
            flipping = flip if face.kind is Kind.FLIP else 0
            feeds = self._feeds(view, play, after)
            if danger:
                # Hit hard and shed points while someone is about to go out.
                return (flipping, hit(face), -feeds, cards, face.points, -wild)
            if held_colors is None:
                held_colors = {}
                for card in held:
                    color = face_of(card).color
                    held_colors[color] = held_colors.get(color, 0) + 1
            same_color = held_colors.get(face.color, 0)
            return (flipping, cards, -wild, -(face.kind is Kind.WILD_DRAW_FOUR), -feeds,
                    same_color, face.points)

        return self._colored(view, max(plays, key=score), plays)

    def _feeds(self, view: View, play: Play, theirs: Sequence[Face]) -> int:
        """How many of `theirs` (the next player's faces known to be in play) could be played
        on the top `play` leaves: the fewer, the likelier the next player must draw."""
        if not theirs:
            return 0
        face = self.face(view, (play.card, *play.also)[-1])
        color = play.color if face.is_wild else face.color
        return sum(1 for f in theirs if f.is_wild or f.color == color or (
            f.kind is face.kind and (f.kind is not Kind.NUMBER or f.number == face.number)))

    def _flip_preference(self, view: View, plays: list[Play], danger: bool) -> int:
        """Whether a Flip among `plays` should go first (1), last (-1) or as any card (0)."""
        if not self.flips_deck:
            return 0
        flips = [p.card for p in plays if self.face(view, p.card).kind is Kind.FLIP]
        if not flips:
            return 0
        return flip_preference(flip_gain(view, self.faces, self.flips, self.seat, flips[0],
                                          danger))

    def _answer_draw(self, view: View, plays: list[Play]) -> Play | Accept:
        """A pending draw offers plays only to answer it: stack the biggest draw card allowed
        (escalate), else pass it on with a Skip, Reverse or Buzzer; a wild last. No Mercy has
        its own answer (`no_mercy_sense.answer_draw`), which may take the draw."""
        if self.no_mercy:
            best = nm.answer_draw(view, self.seat, plays, self.faces.reader(view),
                                  self.limit)
            return Accept() if best is None else self._colored(view, best, plays)

        def score(play: Play) -> tuple[int, ...]:
            face = self.face(view, play.card)
            return (hit(face), -face.is_wild, -face.points)

        return self._colored(view, max(plays, key=score), plays)

    def _colored(self, view: View, play: Play, plays: Sequence[Play]) -> Play:
        """`play` naming the best colour (`_best_color`) among those `plays` offer for its card,
        if it is a wild, with the UNO call if it leaves one card (unless the bot forgets:
        `Bot.calls_uno`)."""
        rest = self.left_after(view, play)
        call = self.calls_uno(view, rest)
        if not self.face(view, play.card).names_color:
            # The listed action itself when it is already the one wanted: the engine accepts
            # an action from its own listing without judging it again.
            return play if play.uno == call else Play(play.card, play.color, call, play.also)
        offered = [p.color for p in plays if p.card == play.card and p.also == play.also
                   and p.color is not None]
        color = self._best_color(view, rest, offered or [play.color or Color.RED])
        for listed in plays:  # the listed action, if it is one (see above)
            if (listed.card == play.card and listed.color == color and listed.uno == call
                    and listed.also == play.also):
                return listed
        return Play(play.card, color, call, play.also)

    def _best_color(self, view: View, hand: Sequence[int], offered: Sequence[Color]) -> Color:
        """The colour held most in `hand`, less the cards of it the next player is known to
        hold on the side in play (UNO Flip, since the last Flip: `FlipMemory`); on a tie the
        first offered."""
        counts: dict[Color, int] = {}
        face_of = self.faces.reader(view)
        for card in hand:
            color = face_of(card).color
            if color is not None:
                counts[color] = counts.get(color, 0) + 1
        theirs: dict[Color, int] = {}
        after = self._next_seat(view)
        for face in self.flips.known_in_play(after, view.side) if after is not None else ():
            if face.color is not None:
                theirs[face.color] = theirs.get(face.color, 0) + 1
        ordered = [c for c in counts if c in offered] + [c for c in offered if c not in counts]
        first = offered[0]
        return max(ordered, key=lambda c: (counts.get(c, 0) - theirs.get(c, 0),
                                           counts.get(c, 0), c == first))

    def _next_seat(self, view: View) -> int | None:
        """The next seat in play after this one (the one a colour is named for)."""
        count = len(view.seats)
        for step in range(1, count):
            seat = view.seats[(self.seat + step * view.direction) % count]
            if not seat.out:
                return seat.seat
        return None

    # -- a 7's swap -------------------------------------------------------------------------

    def _swap_target(self, view: View, targets: list[ChooseTarget]) -> ChooseTarget:
        """The opponent nearest to going out (who called UNO, else holds the fewest cards),
        never the partner while an opponent is offered; the first in turn order on a tie."""
        seats = {s.seat: s for s in view.seats}
        me = seats.get(self.seat)
        count = len(view.seats)

        def key(action: ChooseTarget) -> tuple[bool, int, bool, int]:
            other: SeatView = seats[action.target]
            partner = me is not None and me.team is not None and other.team == me.team
            order = ((action.target - self.seat) * view.direction) % count
            return (partner, other.cards, not other.uno_called, order)

        return min(targets, key=key)

    # -- challenging ------------------------------------------------------------------------

    def _bluff_likely(self, view: View) -> bool:
        """Whether the wild draw card's player likely held the colour it covered. In UNO Flip
        what it is known to hold since the last Flip settles it when it shows that colour, or
        when it is the whole hand; otherwise the odds come from the cards not seen yet."""
        pending = view.pending
        if pending is None or pending.color_before is None or pending.target_cards is None:
            return False
        if pending.target is not None:
            known = self.flips.known_in_play(pending.target, view.side)
            if any(face.color == pending.color_before for face in known):
                return True
            if known and len(known) == pending.target_cards - 1:
                return False
        unseen = self._unseen(view)
        if not unseen:
            return False
        of_color = sum(n for face, n in unseen.items() if face.color == pending.color_before)
        p = of_color / unseen.total()
        others = max(pending.target_cards - 1, 0)
        had_color = 1 - (1 - p) ** others
        return had_color > CHALLENGE_THRESHOLD

    def _unseen(self, view: View) -> Counter[Face]:
        """The faces on the side in play of the cards this bot has not seen: on the light side
        the deck's less its hand and the cards seen face up; on the dark side (UNO Flip, whose
        dark faces are paired afresh each round and told, never named by an id) the dark side's
        faces less every dark face it was told this round."""
        if view.side == LIGHT:
            known = set(view.hand) | self.seen
            return Counter(self.manifest.face(c.id) for c in self.manifest if c.id not in known)
        return Counter(dark_faces()) - Counter(self.faces.dark(view))
