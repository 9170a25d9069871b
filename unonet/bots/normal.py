"""The "normal" bot: plays like a decent human.

It keeps its wilds for when nothing else plays, sheds high cards when an opponent is close to
going out, calls UNO with its next-to-last card, catches those who forget, names the colour it
holds most of, and challenges a Wild Draw Four when what it has seen makes a bluff likely.
"""

from __future__ import annotations

from collections.abc import Sequence

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
from unonet.bots.base import Bot
from unonet.cards import Color, Kind
from unonet.events import CardPlayed, Event, TopCardTurned
from unonet.view import View

CHALLENGE_THRESHOLD = 0.6
"""Challenge when the estimated chance that the +4's player held the colour exceeds this.
A failed challenge costs 2 more cards than accepting and a good one saves 4, so anything above
1/3 pays on average; the margin allows for players who play +4 honestly."""


class NormalBot(Bot):
    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.seen: set[int] = set()  # face-up cards seen this round

    def observe(self, event: Event) -> None:
        if isinstance(event, CardPlayed | TopCardTurned):
            self.seen.add(event.card)
        if type(event).__name__ == "RoundStarted":
            self.seen.clear()

    def react(self, view: View, legal: Sequence[Action]) -> Action | None:
        for action in legal:
            if isinstance(action, CallUno | Catch):
                return action
        return None

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        if any(isinstance(a, Challenge) for a in legal):
            return Challenge() if self._bluff_likely(view) else Accept()
        colors = [a for a in legal if isinstance(a, ChooseColor)]
        if colors:
            return ChooseColor(self._best_color(view.hand, colors[0].color))
        plays = [a for a in legal if isinstance(a, Play)]
        if plays:
            return self._choose_play(view, plays)
        for kind in (Draw, Pass):
            for action in legal:
                if isinstance(action, kind):
                    return action
        return legal[0]

    # -- playing ----------------------------------------------------------------------------

    def _choose_play(self, view: View, plays: list[Play]) -> Action:
        danger = any(s.cards <= 2 for s in view.seats if s.seat != self.seat)
        held = view.hand

        def score(play: Play) -> tuple[int, ...]:
            face = self.manifest.face(play.card)
            wild = 1 if face.is_wild else 0
            if danger:
                # Hit hard and shed points while someone is about to go out.
                return (face.draw_amount, face.points, -wild, play.uno)
            same_color = sum(1 for c in held if self.manifest.face(c).color == face.color)
            return (-wild, -(face.kind is Kind.WILD_DRAW_FOUR), same_color, face.points, play.uno)

        best = max(plays, key=score)
        face = self.manifest.face(best.card)
        if face.is_wild:
            rest = [c for c in held if c != best.card]
            fallback = best.color or Color.RED
            best = Play(best.card, self._best_color(rest, fallback), best.uno, best.also)
        return best  # `uno` is the last key of the score: the call goes with the play

    def _best_color(self, hand: Sequence[int], fallback: Color) -> Color:
        counts: dict[Color, int] = {}
        for card in hand:
            color = self.manifest.face(card).color
            if color is not None:
                counts[color] = counts.get(color, 0) + 1
        if not counts:
            return fallback
        return max(counts, key=lambda c: (counts[c], c == fallback))

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
