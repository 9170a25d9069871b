"""The "normal" bot: plays like a decent human.

It keeps its wilds for when nothing else plays, sheds high cards when an opponent is close to
going out, plays the longest run or the most cards of a number it can, calls UNO with its
next-to-last card (but forgets now and then: FORGET_RATE), catches those who forget, names the
colour it holds most of, and challenges a Wild Draw Four when what it has seen makes a bluff
likely. Under the house rules it answers a
pending draw with a draw card (the biggest it may, escalating), else passes it on (deflect),
and takes it only when it must; swaps hands with the opponent nearest to going out; jumps in
whenever it may and presses B in a buzzer race. What is allowed it reads from the legal list
and the view's pending decision; it never re-derives a rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

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
from unonet.bots.base import Bot
from unonet.cards import Color, Kind
from unonet.events import CardPlayed, Event, RoundStarted, TopCardTurned
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

    def observe(self, event: Event) -> None:
        if isinstance(event, CardPlayed | TopCardTurned):
            self.seen.add(event.card)
        if isinstance(event, RoundStarted):
            self.seen.clear()

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
        if Buzz() in legal:
            return Buzz()
        targets = [a for a in legal if isinstance(a, ChooseTarget)]
        if targets:
            return self._swap_target(view, targets)
        plays = [a for a in legal if isinstance(a, Play)]
        if Challenge() in legal and self._bluff_likely(view):
            return Challenge()
        if Accept() in legal:  # a pending draw: a stack total, or a Wild Draw Four
            return self._answer_draw(view, plays) if plays else Accept()
        colors = [a for a in legal if isinstance(a, ChooseColor)]
        if colors:
            return ChooseColor(self._best_color(view.hand, colors[0].color))
        if plays:
            return self._choose_play(view, plays)
        for kind in (Draw, Pass):
            for action in legal:
                if isinstance(action, kind):
                    return action
        return legal[0]

    # -- playing ----------------------------------------------------------------------------

    def _choose_play(self, view: View, plays: list[Play]) -> Play:
        danger = any(s.cards <= 2 for s in view.seats if s.seat != self.seat and not s.out)
        held = view.hand

        def score(play: Play) -> tuple[int, ...]:
            face = self.manifest.face(play.card)
            wild = 1 if face.is_wild else 0
            cards = 1 + len(play.also)  # a run or a multiple sheds several at once
            if danger:
                # Hit hard and shed points while someone is about to go out.
                return (face.draw_amount, cards, face.points, -wild)
            same_color = sum(1 for c in held if self.manifest.face(c).color == face.color)
            return (cards, -wild, -(face.kind is Kind.WILD_DRAW_FOUR), same_color, face.points)

        return self._colored(view, max(plays, key=score))

    def _answer_draw(self, view: View, plays: list[Play]) -> Play:
        """A pending draw offers plays only to answer it: stack the biggest draw card allowed
        (escalate), else pass it on with a Skip, Reverse or Buzzer; a wild last."""

        def score(play: Play) -> tuple[int, ...]:
            face = self.manifest.face(play.card)
            return (face.draw_amount, -face.is_wild, -face.points)

        return self._colored(view, max(plays, key=score))

    def _colored(self, view: View, play: Play) -> Play:
        """`play` naming the colour held most among the cards left, if it is a wild, with the
        UNO call if it leaves one card (unless the bot forgets: `Bot.calls_uno`)."""
        played = {play.card, *play.also}
        rest = [c for c in view.hand if c not in played]
        call = self.calls_uno(view, rest)
        if not self.manifest.face(play.card).is_wild:
            return replace(play, uno=call)
        return Play(play.card, self._best_color(rest, play.color or Color.RED), call, play.also)

    def _best_color(self, hand: Sequence[int], fallback: Color) -> Color:
        counts: dict[Color, int] = {}
        for card in hand:
            color = self.manifest.face(card).color
            if color is not None:
                counts[color] = counts.get(color, 0) + 1
        if not counts:
            return fallback
        return max(counts, key=lambda c: (counts[c], c == fallback))

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
        pending = view.pending
        if pending is None or pending.color_before is None or pending.target_cards is None:
            return False
        known = set(view.hand) | self.seen
        unseen = [card for card in self.manifest if card.id not in known]
        if not unseen:
            return False
        of_color = sum(1 for card in unseen if card.faces[0].color == pending.color_before)
        p = of_color / len(unseen)
        others = max(pending.target_cards - 1, 0)
        had_color = 1 - (1 - p) ** others
        return had_color > CHALLENGE_THRESHOLD
