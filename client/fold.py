"""Keeps a seat's View current from the events it receives.

The host sends one snapshot, then events only (SPEC.md 9), so the client folds each event into
the view itself: card counts, its own hand, the top card and colour, whose turn, the pending
decision, UNO flags, the piles. What it folds must equal the engine's `Match.view(seat)` after
every event batch; the client tests hold it to that against a real match.
"""

from __future__ import annotations

from dataclasses import replace

from unonet import events as ev
from unonet.cards import Color, DeckManifest, Kind
from unonet.matching import holds_color, matches
from unonet.rules import RuleSet
from unonet.view import Pending, SeatView, View


class ViewTracker:
    """The current view of one seat, and the little memory folding needs (who played last)."""

    def __init__(self, view: View, manifest: DeckManifest, rules: RuleSet | None = None) -> None:
        """`rules`: the table's, from the lobby. Events alone do not say whether a drawn Wild
        Draw Four may be played under wd4_policy=enforce; without rules it is taken as allowed."""
        self.view = view
        self.manifest = manifest
        self.wd4_enforced = rules is not None and rules.wd4_policy == "enforce"
        self._last_player: int | None = None
        self._color_before: Color | None = None
        self._last_draw_reason = ""

    def _seat(self, seat: int, **changes: object) -> None:
        seats = list(self.view.seats)
        seats[seat] = replace(seats[seat], **changes)  # type: ignore[arg-type]
        self.view = replace(self.view, seats=tuple(seats))

    def apply(self, event: ev.Event) -> View:
        """Fold `event` into the view and return the new view."""
        v = self.view
        me = v.seat
        match event:
            case ev.RoundStarted(round_no=n, dealer=dealer, deck_size=size):
                seats = tuple(SeatView(s.seat, 0, s.score, False, False) for s in v.seats)
                self.view = replace(
                    v, round_no=n, phase="turn", dealer=dealer, current=None, direction=1,
                    hand=(), seats=seats, top_card=None, active_color=None, draw_pile=size,
                    discard_pile=0, drawn_card=None, pending=None, round_winner=None,
                )
            case ev.CardsDrawn(seat=s, positions=positions, reason=reason):
                self._last_draw_reason = reason
                count = v.seats[s].cards + len(positions)
                self._seat(s, cards=count, uno_called=False, catchable=False)
                self.view = replace(self.view, draw_pile=max(0, v.draw_pile - len(positions)))
            case ev.CardsReceived(seat=s, cards=cards) if s == me:
                drawn = v.drawn_card
                mine = self._last_draw_reason == "draw" and v.current == me and v.phase == "turn"
                if mine and self._may_play_drawn(cards[-1], v.hand):
                    drawn = cards[-1]
                self.view = replace(v, hand=v.hand + tuple(cards), drawn_card=drawn)
            case ev.TopCardTurned(card=card):
                self.view = replace(
                    v, top_card=card, active_color=self.manifest.face(card).color,
                    discard_pile=v.discard_pile + 1, draw_pile=max(0, v.draw_pile - 1),
                )
            case ev.Reshuffled(sources=sources, reason=reason):
                discard = max(0, v.discard_pile - len(sources))
                top = v.top_card
                if reason == "first_card_wild_draw_four":
                    discard, top = 0, None
                self.view = replace(v, draw_pile=len(sources), discard_pile=discard, top_card=top)
            case ev.CardPlayed(seat=s, card=card, color=color, uno=uno):
                self._play(s, card, color, uno)
            case ev.CardsReturned(seat=s, cards=cards):
                hand = tuple(c for c in v.hand if c not in cards) if s == me else v.hand
                self.view = replace(v, hand=hand, draw_pile=v.draw_pile + len(cards))
                self._seat(s, cards=max(0, v.seats[s].cards - len(cards)))
            case ev.TurnStarted(seat=s, direction=d):
                self.view = replace(
                    v, phase="turn", current=s, direction=d, drawn_card=None, pending=None
                )
            case ev.DirectionChanged(direction=d):
                self.view = replace(v, direction=d)
            case ev.ColorChosen(color=color):
                self.view = replace(v, active_color=color)
            case ev.Passed():
                self.view = replace(v, drawn_card=None)
            case ev.DecisionPending(seat=s, kind=kind):
                self.view = replace(
                    v, phase=kind, current=s, drawn_card=None, pending=self._pending(kind, s)
                )
            case ev.UnoCalled(seat=s):
                self._seat(s, uno_called=True, catchable=False)
            case ev.UnoCaught(target=t):
                self._seat(t, catchable=False)
            case ev.CatchWindowClosed(seats=closed):
                for s in closed:
                    self._seat(s, catchable=False)
            case ev.RoundEnded(winner=winner, scores=scores):
                seats = tuple(
                    replace(s, score=scores[s.seat], catchable=False) for s in v.seats
                )
                self.view = replace(
                    v, phase="round_over", current=None, seats=seats, round_winner=winner,
                    drawn_card=None, pending=None,
                )
            case ev.MatchEnded(winner=winner, scores=scores):
                seats = tuple(replace(s, score=scores[s.seat]) for s in v.seats)
                self.view = replace(v, phase="match_over", seats=seats, match_winner=winner)
        return self.view

    def _play(self, seat: int, card: int, color: Color | None, uno: bool) -> None:
        v = self.view
        face = self.manifest.face(card)
        self._last_player = seat
        self._color_before = v.active_color
        hand = tuple(c for c in v.hand if c != card) if seat == v.seat else v.hand
        self.view = replace(
            v, hand=hand, top_card=card, discard_pile=v.discard_pile + 1, drawn_card=None,
            active_color=color if face.is_wild else face.color,
        )
        left = max(0, v.seats[seat].cards - 1)
        if left == 1:
            self._seat(seat, cards=left, uno_called=uno, catchable=not uno)
        elif left == 0:  # as the engine: an empty hand shows no UNO mark
            self._seat(seat, cards=0, uno_called=False, catchable=False)
        else:
            self._seat(seat, cards=left)

    def _may_play_drawn(self, card: int, hand: tuple[int, ...]) -> bool:
        """Does the drawn card play now? Only then is it the view's drawn card (the engine's
        lock); an unplayable draw under max_draws_per_turn leaves the turn open with none."""
        v = self.view
        if v.top_card is None:
            return False
        face = self.manifest.face(card)
        if not matches(face, self.manifest.face(v.top_card), v.active_color):
            return False
        if face.kind is Kind.WILD_DRAW_FOUR and self.wd4_enforced:
            return not holds_color((self.manifest.face(c) for c in hand), v.active_color)
        return True

    def _pending(self, kind: str, seat: int) -> Pending:
        if kind != "challenge" or self._last_player is None:
            return Pending(kind, seat)
        target = self._last_player
        held = self.view.seats[target].cards + 1
        return Pending(kind, seat, target, self._color_before, held)
