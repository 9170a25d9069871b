"""Playing a sampled round to its end with the `normal` policy: the search's simulations.

A simulation is a copy of one determinization (unonet.determinize), the searching seat's
candidate move, then every seat played by the normal bot (unonet.bots.normal) from its own view
of the simulated round, to the end of the round, as the bot driver plays a match
(unonet.bots.driver): each seat its pending decision, a buzzer race pressed by everyone, a
player who forgot UNO caught, a jump-in (or the next card of one's run) taken when offered.
The round's points (unonet.scoring) then say what the move was worth to the searching seat.

Two differences from the driver, both for speed and both the driver's outcome: a seat with one
legal action takes it without being asked (nothing to decide, no view to build), and the
normal bots of a simulation share one memory of the face-up cards and of UNO Flip's faces,
since everything they remember is public (NormalBot.observe reads public events only), so each
event is read once rather than once per seat.
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Sequence

from unonet import events as ev
from unonet.actions import Action, Buzz, CallUno, Catch, Play
from unonet.bots.flip_sense import FlipMemory
from unonet.bots.normal import NormalBot
from unonet.cards import DeckManifest, Face
from unonet.events import Event
from unonet.flip import FlipSight, other_side
from unonet.flip_deck import DARK
from unonet.match import Match
from unonet.phase import Phase
from unonet.round import Round
from unonet.rules import RuleSet
from unonet.scoring import match_winner, partner, round_points, team_of
from unonet.view import SeatView, View, face_order, observe, pending_decision

__all__ = ["Outcome", "Rollouts"]

MAX_STEPS = 2_000
"""A simulation that has not ended after this many actions is scored as it stands (hand
sizes): the engine's rounds always end, but a No Mercy round of bots can run long."""

POINTS_SCALE = 100.0
"""A round is worth its points: 100 points more for the searching seat than for its best
opponent (under lowest_wins and elimination, 100 fewer than their mean) count 1. Matches are
won on points: a round won with few points and one lost holding many are worth their points,
not a win and a loss."""

WIN_BONUS = 0.25
"""What winning the round adds to its points: of two moves that score alike, the one that wins
more often (a win also deals the next round's first move elsewhere, and ends the others'
chances)."""

MATCH_WORTH = 3.0
"""A round that ends the match is worth this, won or lost, whatever its points: from 300
points the match is what counts (a seat near the target plays to end it, its opponents to stop
it)."""


class Outcome:
    """What one simulation was worth to the searching seat."""

    __slots__ = ("steps", "value")

    def __init__(self, value: float, steps: int) -> None:
        self.value = value
        self.steps = steps


class Rollouts:
    """The normal bots that play every seat of a decision's simulations, and the scoring of
    their outcomes for `seat`."""

    def __init__(self, seat: int, rules: RuleSet, manifest: DeckManifest, seats: int,
                 root: NormalBot, scores: Sequence[int], forget_rate: float = 0.0,
                 round_no: int = 1) -> None:
        self.seat = seat
        self.rules = rules
        self.seats = seats
        self.root = root
        self.scores = list(scores)
        self.round_no = round_no
        self.bots = [NormalBot(s, rules, manifest, seed=s) for s in range(seats)]
        self.bots[seat].forget_rate = forget_rate  # the searching seat's own
        self.memory = self.bots[0]  # reads every event for all of them (shared memory)
        self.races = rules.jump_in != "off" or rules.sequences
        mate = partner(rules, seats, seat)
        self.team = {seat} if mate is None else {seat, mate}
        self.views = Views()

    def _reset(self, rng: random.Random) -> None:
        """Each simulation starts from what the searching seat's own normal bot remembers of
        the round (all of it public), with fresh seeds for the UNO calls."""
        seen = set(self.root.seen)
        flips = _copy_flips(self.root.flips)
        for bot in self.bots:
            bot.seen = seen
            bot.flips = flips
            bot.rng.seed(rng.getrandbits(32))
            bot._one_card = None

    def evaluate(self, match: Match, action: Action, rng: random.Random) -> Outcome:
        """Apply the searching seat's `action` to the round of `match`, play the round out, and
        score it. `match.round` is played on: pass a copy."""
        self._reset(rng)
        rnd = match.round
        assert rnd is not None
        self._feed(rnd.apply(self.seat, action))
        steps = 1 + self._react(match, rnd, rng, 0)
        while _phase(rnd) is not Phase.ROUND_OVER and steps < MAX_STEPS:
            steps += 1 + self._step(match, rnd, rng, steps)
        return Outcome(self._value(rnd), steps)

    # -- playing -------------------------------------------------------------------------------

    def _feed(self, events: list[Event]) -> None:
        observe_event = self.memory.observe
        for event in events:
            if type(event) in _REMEMBERED:
                observe_event(event)

    def _step(self, match: Match, rnd: Round, rng: random.Random, turn: int) -> int:
        """One decision (or a whole buzzer race), then the reactions it allows; the number of
        actions beyond the first."""
        if rnd.phase is Phase.BUZZER:
            waiting = list(rnd.buzz_waiting)
            rng.shuffle(waiting)
            for seat in waiting:
                if _phase(rnd) is not Phase.BUZZER:
                    break
                self._feed(rnd.apply(seat, _BUZZ))
            return len(waiting) + self._react(match, rnd, rng, turn)
        seat = rnd.current
        legal = rnd.legal_actions(seat)
        if not legal:  # nothing listed (cannot happen in a round in play): the host's default
            self._feed(rnd.expire())
            return 0
        action = legal[0] if len(legal) == 1 else \
            self.bots[seat].act(self.views.of(match, seat), legal)
        self._feed(rnd.apply(seat, action))
        return self._react(match, rnd, rng, turn)

    def _react(self, match: Match, rnd: Round, rng: random.Random, turn: int) -> int:
        """What the seats do out of turn after an action, until nobody does more: a seat left
        holding one card without calling UNO calls it late if its bot remembers, else the next
        seat catches it; under jump-in or sequences, each other seat (from one that moves on
        with `turn`) may play out of turn."""
        actions = 0
        while _phase(rnd) is not Phase.ROUND_OVER:
            acted = False
            if rnd.catchable:
                for target in sorted(rnd.catchable):
                    if _phase(rnd) is Phase.ROUND_OVER or target not in rnd.catchable:
                        continue
                    bot = self.bots[target]
                    calls = [_CALL_UNO] if len(rnd.hands[target]) == 1 else []
                    if calls and bot.uno_calls(self.views.of(match, target), calls):
                        # Its bot remembers (a hand passed to it): the late call.
                        self._feed(rnd.apply(target, _CALL_UNO))
                    else:
                        catcher = self._catcher(rnd, target)
                        if catcher is None:
                            continue
                        self._feed(rnd.apply(catcher, Catch(target)))
                    actions += 1
                    acted = True
            if self.races and _phase(rnd) not in (Phase.ROUND_OVER, Phase.BUZZER):
                count = self.seats
                for offset in range(count):
                    seat = (turn + actions + offset) % count
                    if seat == rnd.current or seat in rnd.out or not _may_race(rnd, seat):
                        continue
                    plays = [a for a in rnd.legal_actions(seat) if isinstance(a, Play)]
                    if not plays:
                        continue
                    choice = self.bots[seat].react(self.views.of(match, seat), plays)
                    if choice is not None:
                        self._feed(rnd.apply(seat, choice))
                        actions += 1
                        acted = True
                        break
            if not acted:
                return actions
        return actions

    @staticmethod
    def _catcher(rnd: Round, target: int) -> int | None:
        for step in range(1, rnd.seats):
            seat = (target + step) % rnd.seats
            if seat not in rnd.out:
                return seat
        return None

    # -- scoring -------------------------------------------------------------------------------

    def _value(self, rnd: Round) -> float:
        """The round's worth to the searching seat (its team): ±MATCH_WORTH if it ends the
        match (unonet.scoring.match_winner; under elimination, reaching the target puts the
        seat out), else its points (POINTS_SCALE) and WIN_BONUS for a win."""
        if _phase(rnd) is not Phase.ROUND_OVER or rnd.winner is None:
            return self._estimate(rnd)
        rules = self.rules
        points = round_points(rules, rnd.manifest, rnd.winner, rnd.hands, rnd.knocked_out,
                              rnd.penalty_points, self.scores, rnd.side)
        team = self.team
        totals = [score + gained for score, gained in zip(self.scores, points, strict=True)]
        if rules.scoring == "elimination":
            if totals[self.seat] >= rules.target:
                return -MATCH_WORTH
        else:
            champion = match_winner(rules, totals, self.round_no, rnd.absent, rnd.winner)
            if champion is not None:
                return MATCH_WORTH if champion in team else -MATCH_WORTH
        others = [points[s] for s in range(self.seats) if s not in team and s not in rnd.absent]
        mine = points[self.seat]
        diff: float
        if rules.scoring == "winner_collects":
            diff = mine - (max(others) if others else 0)
        else:
            diff = (sum(others) / len(others) if others else 0) - mine
        won = WIN_BONUS if rnd.winner in team else 0.0
        return won + diff / POINTS_SCALE

    def _estimate(self, rnd: Round) -> float:
        """An unfinished simulation: the searching seat's share of the chances (fewer cards
        counting for more) of the win's bonus."""
        weights = {s: 1.0 / (1 + len(rnd.hands[s])) ** 2
                   for s in range(self.seats) if s not in rnd.out}
        total = sum(weights.values())
        share = sum(w for s, w in weights.items() if s in self.team) / total if total else 0.0
        return WIN_BONUS * share


class Views:
    """The views a simulation's bots are asked with: unonet.view.observe's, with each part
    built once per value and kept, since a playout asks for a view at nearly every action and
    the parts repeat: each seat's row (SeatView) and, under UNO Flip, a hand's sorted other
    sides (kept per round manifest: a sampled round pairs the faces afresh) and the dark faces
    each seat was told (`Told`). Building those was half of a UNO Flip playout's time."""

    __slots__ = ("backs", "manifest", "rows", "sight", "told")

    def __init__(self) -> None:
        self.rows: dict[tuple[object, ...], SeatView] = {}
        self.manifest: DeckManifest | None = None  # the one `rows` and `backs` were read from
        self.backs: dict[tuple[int, tuple[int, ...]], tuple[Face, ...]] = {}
        self.sight: FlipSight | None = None  # the round `told` follows
        self.told: dict[int, Told] = {}

    def of(self, match: Match, seat: int) -> View:
        """What observe(match, seat) gives, for a match in a round."""
        rnd = match.round
        assert rnd is not None
        if match.phase is Phase.MATCH_OVER:
            return observe(match, seat)
        if rnd.manifest is not self.manifest:
            self.manifest = rnd.manifest
            self.rows.clear()
            self.backs.clear()
        phase, sight = rnd.phase, rnd.sight
        pile: Face | None = None
        dark: tuple[tuple[int, Face], ...] = ()
        if sight is not None:
            if rnd.draw_pile:
                pile = rnd.manifest.face(rnd.draw_pile[-1], other_side(rnd.side))
            dark = self._told(sight, seat).pairs(rnd.manifest)
        return View(seat, match.round_no, phase, rnd.dealer,
                    None if phase is Phase.ROUND_OVER else rnd.current, rnd.direction,
                    tuple(rnd.hands[seat]), self._seats(match, rnd, seat),
                    rnd.discard[-1] if rnd.discard else None, rnd.active_color,
                    len(rnd.draw_pile), len(rnd.discard),
                    rnd.drawn_card if rnd.current == seat else None, pending_decision(rnd),
                    rnd.winner, match.winner, rnd.side, pile, dark)

    def _seats(self, match: Match, rnd: Round, viewer: int) -> tuple[SeatView, ...]:
        rows = self.rows
        seats: list[SeatView] = []
        scores, eliminated, out = match.scores, match.eliminated, rnd.out
        rules, count, hands = match.rules, match.seats, rnd.hands
        hidden = other_side(rnd.side) if rnd.sight is not None else None
        for s in range(count):
            held = tuple(hands[s]) if hidden is not None and s != viewer else None
            key = (s, len(hands[s]), scores[s], s in rnd.uno_called, s in rnd.catchable,
                   s in out or s in eliminated, team_of(rules, count, s), hidden, held)
            row = rows.get(key)
            if row is None:
                backs = () if hidden is None or held is None else self._backs(rnd, hidden, held)
                row = rows[key] = SeatView(*key[:7], backs)
            seats.append(row)
        return tuple(seats)

    def _backs(self, rnd: Round, hidden: int, hand: tuple[int, ...]) -> tuple[Face, ...]:
        """A hand's faces on the side not in play, as observe sorts them."""
        key = (hidden, hand)
        backs = self.backs.get(key)
        if backs is None:
            face = rnd.manifest.face
            backs = self.backs[key] = tuple(sorted((face(c, hidden) for c in hand),
                                                   key=face_order))
        return backs

    def _told(self, sight: FlipSight, seat: int) -> Told:
        if sight is not self.sight:
            self.sight = sight
            self.told = {}
        told = self.told.get(seat)
        if told is None:
            told = self.told[seat] = Told(sight, seat)
        return told


class Told:
    """The dark faces one seat was told in one round, as a view's sorted `dark_faces`, kept up
    to date by adding only the cards told since the last call: what a seat is told only grows
    within a round (unonet.flip.FlipSight), so the sizes of the two sets say whether it did."""

    __slots__ = ("cards", "seat", "sight", "sizes", "sorted", "view")

    def __init__(self, sight: FlipSight, seat: int) -> None:
        self.sight = sight
        self.seat = seat
        self.sizes = (-1, -1)
        self.cards: set[int] = set()
        self.sorted: list[tuple[int, Face]] = []
        self.view: tuple[tuple[int, Face], ...] = ()

    def pairs(self, manifest: DeckManifest) -> tuple[tuple[int, Face], ...]:
        sight, seat = self.sight, self.seat
        own = sight.told[seat] if 0 <= seat < len(sight.told) else set()
        sizes = (len(sight.public), len(own))
        if sizes != self.sizes:
            self.sizes = sizes
            new = (sight.public | own) - self.cards
            self.cards |= new
            for card in sorted(new):
                insort(self.sorted, (card, manifest.face(card, DARK)))
            self.view = tuple(self.sorted)
        return self.view


def _may_race(rnd: Round, seat: int) -> bool:
    """Whether `seat` could play out of turn now, on a first look that never says no wrongly:
    the next card of its own run, or a card of the top card's kind and number (what every
    jump-in needs); the engine's listing then judges it (unonet.legality)."""
    run = rnd.run
    if run is not None and run.seat == seat:
        return True
    if rnd.rules.jump_in == "off" or seat == rnd.top_seat or not rnd.discard:
        return False
    top = rnd.face(rnd.top)
    face = rnd.face
    return any(face(card).kind is top.kind and face(card).number == top.number
               for card in rnd.hands[seat])


def _phase(rnd: Round) -> Phase:
    """The round's phase, read afresh (an action just applied may have changed it)."""
    return rnd.phase


def _copy_flips(memory: FlipMemory) -> FlipMemory:
    copy = FlipMemory()
    copy.backs = {seat: dict(row) for seat, row in memory.backs.items()}
    copy.fronts = dict(memory.fronts)
    copy.side = memory.side
    return copy


_REMEMBERED = frozenset({
    ev.CardPlayed, ev.TopCardTurned, ev.CardsDiscarded, ev.RouletteTurned, ev.Reshuffled,
    ev.RoundStarted, ev.Flipped, ev.OtherSidesShown,
})
"""The events NormalBot.observe (and its FlipMemory) reads, all public: the others are not
handed to it, which changes nothing it remembers."""

_BUZZ = Buzz()
_CALL_UNO = CallUno()
