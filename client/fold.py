"""Keeps a seat's View current from the events it receives.

The host sends one snapshot, then events only (SPEC.md 9), so the client folds each event into the
view itself: card counts, its own hand, the top card and colour, whose turn, the pending decision,
UNO flags, the piles, who is out; in UNO Flip the side in play and the other side everybody sees of
each hand and of the draw pile's top, and the dark faces this seat was told this round (a card's
face is read on the side in play: unonet.in_play); in No Mercy a Discard All's other cards going
down with it (the UNO call counts what is left after them). What it folds must equal the engine's
`Match.view(seat)` after every event batch; the client tests hold it to that against a real match,
under random house rules, in Flip and in No Mercy. The fold judges no rule: whether a drawn card
may be played comes from the engine (MayPlayDrawn), as does every decision (DecisionPending,
BuzzerOpened).
"""

from __future__ import annotations

from dataclasses import replace

from unonet import events as ev
from unonet.cards import Color, DeckManifest, Face
from unonet.in_play import DarkFaces, face_in_play
from unonet.phase import Phase
from unonet.view import Pending, SeatView, View, face_order


class ViewTracker:
    """The current view of one seat, and the little memory folding needs (who played last)."""

    def __init__(self, view: View, manifest: DeckManifest) -> None:
        self.view = view
        self.manifest = manifest
        self._last_player: int | None = None
        self._last_uno = False  # the UNO call of the last play (a Discard All's counts after it)
        self._color_before: Color | None = None
        self._eliminated: set[int] = set()  # out of the match from the next deal on
        self._dark = DarkFaces()

    def _seat(self, seat: int, **changes: object) -> None:
        seats = list(self.view.seats)
        seats[seat] = replace(seats[seat], **changes)  # type: ignore[arg-type]
        self.view = replace(self.view, seats=tuple(seats))

    def face(self, card: int) -> Face | None:
        """The face of `card` on the side in play (always side 0 but in UNO Flip, whose dark
        faces are those told this round); None for one never told."""
        view = self.view
        return face_in_play(self.manifest, card, view.side, self._dark.of(view.dark_faces))

    def color_of(self, card: int) -> Color | None:
        """The colour `card` sets on the side in play (None: a wild, or a face not told)."""
        face = self.face(card)
        return face.color if face is not None else None

    def apply(self, event: ev.Event) -> View:
        """Fold `event` into the view and return the new view."""
        if not (self._cards(event) or self._flow(event) or self._house(event)
                or self._flip(event)):
            self._match(event)
        return self.view

    # -- cards moving ------------------------------------------------------------------------

    def _cards(self, event: ev.Event) -> bool:
        v = self.view
        me = v.seat
        match event:
            case ev.CardsDrawn(seat=s, positions=positions, reason=reason):
                count = v.seats[s].cards + len(positions)
                self._seat(s, cards=count, uno_called=False, catchable=False)
                if reason == "deal":  # dealt in: not knocked out, not eliminated
                    self._seat(s, out=False)
                self.view = replace(self.view, draw_pile=max(0, v.draw_pile - len(positions)))
            case ev.CardsReceived(seat=s, cards=cards):
                if s == me:
                    self.view = replace(v, hand=v.hand + tuple(cards))
            case ev.MayPlayDrawn(seat=s, card=card):
                if s == me:
                    self.view = replace(v, drawn_card=card)
            case ev.TopCardTurned(card=card):
                self.view = replace(
                    v, top_card=card, active_color=self.color_of(card),
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
            case ev.CardsReturned(seat=s, positions=positions):
                # a knock-out: the whole hand goes face down under the draw pile
                hand = () if s == me else v.hand
                self.view = replace(v, hand=hand, draw_pile=v.draw_pile + len(positions))
                left = max(0, v.seats[s].cards - len(positions))
                self._seat(s, cards=left, uno_called=False, catchable=False)
            case ev.HandsMoved(moves=moves):
                self._move_hands(moves)
            case ev.CardsDiscarded(seat=s, cards=cards):
                self._discarded(s, cards)
            case _:
                return False
        return True

    def _discarded(self, seat: int, cards: tuple[int, ...]) -> None:
        """No Mercy's Discard All: the rest of its colour goes face up under it; the UNO call of
        its play counts the cards left after them (the Discard All stays on top)."""
        v = self.view
        gone = set(cards)
        hand = tuple(c for c in v.hand if c not in gone) if seat == v.seat else v.hand
        self.view = replace(v, hand=hand, discard_pile=v.discard_pile + len(cards))
        left = max(0, v.seats[seat].cards - len(cards))
        one = left == 1
        self._seat(seat, cards=left, uno_called=one and self._last_uno,
                   catchable=one and not self._last_uno)

    def _play(self, seat: int, card: int, color: Color | None, uno: bool) -> None:
        v = self.view
        face = self.face(card)
        wild = face is not None and face.is_wild
        own = face.color if face is not None else None
        self._last_player = seat
        self._last_uno = uno
        self._color_before = v.active_color
        hand = tuple(c for c in v.hand if c != card) if seat == v.seat else v.hand
        self.view = replace(
            v, hand=hand, top_card=card, discard_pile=v.discard_pile + 1, drawn_card=None,
            active_color=color if wild else (own or v.active_color),
        )
        left = max(0, v.seats[seat].cards - 1)
        if left == 1:
            self._seat(seat, cards=left, uno_called=uno, catchable=not uno)
        elif left == 0:  # as the engine: an empty hand shows no UNO mark
            self._seat(seat, cards=0, uno_called=False, catchable=False)
        else:
            self._seat(seat, cards=left)

    def _move_hands(self, moves: tuple[tuple[int, int, tuple[ev.Position, ...]], ...]) -> None:
        """Whole hands change owner at once (a 7 or a 0): each giver is left with nothing, each
        receiver holds what it was given; our own new cards follow as CardsReceived."""
        counts = [s.cards for s in self.view.seats]
        for giver, _, positions in moves:
            counts[giver] -= len(positions)
        for _, receiver, positions in moves:
            counts[receiver] += len(positions)
        me = self.view.seat
        if any(giver == me for giver, _, _ in moves):
            self.view = replace(self.view, hand=())
        takers = {receiver for _, receiver, _ in moves}
        for seat in {giver for giver, _, _ in moves} | takers:
            # one card taken by a swap is one card held without UNO: catchable (1.7)
            left = max(0, counts[seat])
            self._seat(seat, cards=left, uno_called=False, catchable=seat in takers and left == 1)

    # -- turn flow and decisions -------------------------------------------------------------

    def _flow(self, event: ev.Event) -> bool:
        v = self.view
        match event:
            case ev.TurnStarted(seat=s, direction=d):
                self.view = replace(
                    v, phase=Phase.TURN, current=s, direction=d, drawn_card=None, pending=None
                )
            case ev.DirectionChanged(direction=d):
                self.view = replace(v, direction=d)
            case ev.ColorChosen(color=color):
                self.view = replace(v, active_color=color)
            case ev.Passed():
                self.view = replace(v, drawn_card=None)
            case ev.DecisionPending(seat=s, kind=kind, amount=amount, until_color=until):
                phase = Phase(kind)
                self.view = replace(
                    v, phase=phase, current=s, drawn_card=None,
                    pending=self._pending(phase, s, amount, until),
                )
            case ev.UnoCalled(seat=s):
                self._seat(s, uno_called=True, catchable=False)
            case ev.UnoCaught(target=t):
                self._seat(t, catchable=False)
            case ev.CatchWindowClosed(seats=closed):
                for s in closed:
                    self._seat(s, catchable=False)
            case _:
                return False
        return True

    def _pending(self, kind: Phase, seat: int, amount: int, until: Color | None) -> Pending:
        if kind is not Phase.CHALLENGE or self._last_player is None:
            return Pending(kind, seat, amount=amount, until_color=until)
        target = self._last_player
        held = self.view.seats[target].cards + 1
        return Pending(kind, seat, target, self._color_before, held, amount, until_color=until)

    # -- house rules -------------------------------------------------------------------------

    def _house(self, event: ev.Event) -> bool:
        v = self.view
        match event:
            case ev.DrawStacked(total=total) | ev.DrawDeflected(total=total):
                if v.pending is not None:
                    self.view = replace(v, pending=replace(v.pending, amount=total))
            case ev.JumpedIn(seat=s):
                self.view = replace(v, current=s, drawn_card=None)
            case ev.BuzzerOpened(seat=s, waiting=waiting):
                self.view = replace(
                    v, phase=Phase.BUZZER, current=s, drawn_card=None,
                    pending=Pending(Phase.BUZZER, s, waiting=tuple(waiting)),
                )
            case ev.Buzzed(seat=s):
                if v.pending is not None:
                    waiting = tuple(w for w in v.pending.waiting if w != s)
                    self.view = replace(v, pending=replace(v.pending, waiting=waiting))
            case ev.BuzzerClosed():
                self.view = replace(v, pending=None)
            case ev.KnockedOut(seat=s):
                self._seat(s, out=True)
            case ev.SeatEliminated(seat=s):
                self._eliminated.add(s)  # out of every round from now on
                self._seat(s, out=True)
            case ev.Stalemate(winner=winner):
                self.view = replace(v, round_winner=winner)
            case _:
                return False
        return True

    # -- UNO Flip --------------------------------------------------------------------------------

    def _flip(self, event: ev.Event) -> bool:
        """The table turned over, and the other sides everybody sees (each row replaces the
        last one sent for that hand or for the pile)."""
        match event:
            case ev.Flipped(side=side, top=top):
                # The new top's face on the new side sets what to match; a wild face waits
                # for its colour (ColorChosen).
                self.view = replace(self.view, side=side, top_card=top)
                self.view = replace(self.view, active_color=self.color_of(top))
            case ev.OtherSidesShown(seat=s, faces=faces):
                # Our own hand's other side faces away from us (unonet.view): not ours to show.
                if 0 <= s < len(self.view.seats) and s != self.view.seat:
                    self._seat(s, other_sides=tuple(sorted(faces, key=face_order)))
            case ev.PileOtherSideShown(face=face):
                self.view = replace(self.view, pile_other_side=face)
            case ev.DarkFacesShown(seat=s, cards=cards, faces=faces):
                # Told of this round's pairing (a card id names its light face only): kept
                # until the next round deals a new one. Only what was told to us counts.
                if s is not None and s != self.view.seat:
                    return True
                merged = DarkFaces.merged(self.view.dark_faces, cards, faces)
                self.view = replace(self.view, dark_faces=merged)
            case _:
                return False
        return True

    # -- the match ---------------------------------------------------------------------------

    def _match(self, event: ev.Event) -> None:
        v = self.view
        match event:
            case ev.RoundStarted(round_no=n, dealer=dealer, deck_size=size):
                # Eliminated seats stay out. A seat shown out since our snapshot may be only
                # knocked out: being dealt cards (CardsDrawn "deal") brings it back in.
                seats = tuple(
                    SeatView(s.seat, 0, s.score, False, False,
                             s.out or s.seat in self._eliminated, s.team)
                    for s in v.seats
                )
                self.view = replace(
                    v, round_no=n, phase=Phase.TURN, dealer=dealer, current=None, direction=1,
                    hand=(), seats=seats, top_card=None, active_color=None, draw_pile=size,
                    discard_pile=0, drawn_card=None, pending=None, round_winner=None,
                    side=0, pile_other_side=None,  # every round starts on the light side
                    dark_faces=(),  # and pairs the dark faces afresh (unonet.flip)
                )
            case ev.RoundEnded(winner=winner, scores=scores):
                seats = tuple(
                    replace(s, score=scores[s.seat], catchable=False) for s in v.seats
                )
                self.view = replace(
                    v, phase=Phase.ROUND_OVER, current=None, seats=seats, round_winner=winner,
                    drawn_card=None, pending=None,
                )
            case ev.MatchEnded(winner=winner, scores=scores):
                seats = tuple(replace(s, score=scores[s.seat]) for s in v.seats)
                self.view = replace(v, phase=Phase.MATCH_OVER, seats=seats, match_winner=winner)
