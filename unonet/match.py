"""A match: rounds to a target, scores, dealer rotation; the engine's one entry point.

`Match` is what the host, the bots and the tests talk to (OpenSpiel's vocabulary):
`legal_actions(seat)`, `apply(seat, action)`, `view(seat)`, `expire()`. Host-only actions
(`StartRound`, `Expire`, `Penalize`) come from the pseudo-seat `HOST`. Every applied action is
appended to `log`, so `Match.replay(rules, seats, seed, log)` rebuilds the identical state:
that is the host's journal and the tests' way to build any situation.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from unonet import events as ev
from unonet.actions import HOST, Action, Expire, Penalize, StartRound
from unonet.cards import ALL_COLORS, DeckManifest
from unonet.errors import EngineError, ErrorCode
from unonet.flip_deck import light_side, round_manifest
from unonet.matching import dealer_value
from unonet.phase import ROUND_OVER, Phase
from unonet.plays import PlayTable, play_table
from unonet.round import Round
from unonet.rules import RuleSet
from unonet.scoring import match_winner, round_points
from unonet.shuffle import dealer_order, derive_key
from unonet.view import View, observe

BETWEEN_ROUNDS = Phase.BETWEEN_ROUNDS
IN_ROUND = Phase.IN_ROUND
MATCH_OVER = Phase.MATCH_OVER


class Match:
    """A whole match between `seats` seats under `rules`, its randomness from `seed`."""

    def __init__(
        self,
        rules: RuleSet,
        seats: int,
        seed: bytes,
        *,
        stacked_decks: Sequence[Sequence[int]] = (),
        first_dealer: int | None = None,
        deck: DeckManifest | None = None,
    ) -> None:
        """`stacked_decks[k]` replaces the shuffled deck of round k+1 (a full deal order; the
        tests' stacker builds one), `first_dealer` the dealer draw and `deck` the rules' deck
        (a Flip deck paired as a scenario needs): tests build situations with them."""
        rules.check_table(seats)
        # UNO Flip: the public deck names light faces; each round pairs the dark faces afresh
        # from its key (unonet.flip_deck), unless a test gives its own pairing (`deck`).
        self.flip = rules.variant == "flip"
        self.deck = deck
        self.manifest = _public_deck(rules, seed, deck)
        self.stacked_decks = _checked_orders(stacked_decks, len(self.manifest))
        self.first_dealer = first_dealer
        self.rules = rules
        self.table = play_table(self.manifest, 0, ALL_COLORS[: rules.colors])
        self.seats = seats
        self.seed = seed
        self.scores = [0] * seats
        self.round_no = 0
        self.dealer: int | None = None
        self.round: Round | None = None
        self.winner: int | None = None
        self.eliminated: set[int] = set()  # scoring=elimination: out of the match
        self.phase = BETWEEN_ROUNDS
        self.log: list[tuple[int, Action]] = []

    # -- the API -----------------------------------------------------------------------------------

    def legal_actions(self, seat: int) -> list[Action]:
        """What `seat` may do now; for HOST, StartRound or Expire when one applies."""
        if seat == HOST:
            if self.phase == BETWEEN_ROUNDS:
                return [StartRound()]
            if self.phase == IN_ROUND:
                return [Expire()]
            return []
        if self.round is None or self.phase is not IN_ROUND or not 0 <= seat < self.seats:
            return []
        return self.round.legal_actions(seat)

    def apply(self, seat: int, action: Action) -> list[ev.Event]:
        """Apply one action; raise EngineError (state untouched) or return its events."""
        rnd = self.round
        if rnd is None or self.phase is not IN_ROUND or not 0 <= seat < self.seats:
            return self._apply_otherwise(seat, action)
        events = rnd.apply(seat, action)  # a seat's move in a round: nearly every call
        self.log.append((seat, action))
        if rnd.phase is ROUND_OVER:
            events += self._round_ended()
        return events

    def _apply_otherwise(self, seat: int, action: Action) -> list[ev.Event]:
        """A host action, or a seat's action refused for want of a round to play it in."""
        if self.phase is MATCH_OVER:
            raise EngineError(ErrorCode.MATCH_OVER, "the match is over")
        if seat != HOST:
            if not 0 <= seat < self.seats:
                raise EngineError(ErrorCode.UNKNOWN_SEAT, f"no seat {seat}")
            raise EngineError(ErrorCode.ROUND_OVER, "no round is being played")
        events = self._apply_host(action)
        self.log.append((seat, action))
        rnd = self.round
        if rnd is not None and rnd.phase is ROUND_OVER and self.phase is IN_ROUND:
            events += self._round_ended()
        return events

    def expire(self) -> list[ev.Event]:
        """The host's timer ran out on the pending decision: apply the documented default."""
        return self.apply(HOST, Expire())

    def start_round(self, key: bytes | None = None) -> list[ev.Event]:
        return self.apply(HOST, StartRound(key))

    def penalize(self, target: int, count: int = 2) -> list[ev.Event]:
        return self.apply(HOST, Penalize(target, count))

    def view(self, seat: int | None) -> View:
        return observe(self, seat)

    @property
    def pending_seat(self) -> int | None:
        """The seat whose decision the game waits for (the host's timer runs on it). In a
        buzzer race, the seat that played the Buzzer: the race waits for every seat of its
        `BuzzerRace.waiting` instead, and its timer closes it."""
        if self.round is None or self.phase is not IN_ROUND:
            return None
        return self.round.current

    @property
    def decision(self) -> Phase | None:
        """The round's phase while a round is played: what the host's timer waits for."""
        if self.round is None or self.phase != IN_ROUND:
            return None
        return self.round.phase

    @classmethod
    def replay(
        cls,
        rules: RuleSet,
        seats: int,
        seed: bytes,
        log: Iterable[tuple[int, Action]],
        **setup: Any,
    ) -> Match:
        match = cls(rules, seats, seed, **setup)
        for seat, action in log:
            match.apply(seat, action)
        return match

    def state(self) -> dict[str, Any]:
        """Everything that defines the state, as plain values (tests compare replays with it)."""
        out: dict[str, Any] = {
            "scores": list(self.scores),
            "round_no": self.round_no,
            "dealer": self.dealer,
            "phase": self.phase,
            "winner": self.winner,
        }
        rnd = self.round
        if rnd is not None:
            out["eliminated"] = sorted(self.eliminated)
            out["round"] = {
                name: _plain(getattr(rnd, name))
                for name in (
                    "hands", "draw_pile", "discard", "origin", "epoch", "phase", "current",
                    "decision", "direction", "active_color", "turn_serial", "uno_called",
                    "catchable", "winner", "out", "side", "finished", "top_seat", "run",
                    "knocked_out", "penalty_points", "cannot_draw_streak",
                )
            }
        return out

    # -- host actions ------------------------------------------------------------------------------

    def _apply_host(self, action: Action) -> list[ev.Event]:
        if isinstance(action, StartRound):
            if self.phase != BETWEEN_ROUNDS:
                raise EngineError(ErrorCode.WRONG_PHASE, "a round is being played")
            return self._start_round(action.key)
        if self.round is None or self.phase != IN_ROUND:
            raise EngineError(ErrorCode.ROUND_OVER, "no round is being played")
        if isinstance(action, Expire):
            return self.round.expire()
        if isinstance(action, Penalize):
            return self.round.penalize(action.target, action.count)
        raise EngineError(ErrorCode.ACTION_NOT_ALLOWED, f"{action} is not a host action")

    def _start_round(self, key: bytes | None) -> list[ev.Event]:
        round_no = self.round_no + 1
        if key is None:
            key = derive_key(self.seed, "round", round_no)
        if len(key) != 32:
            raise EngineError(ErrorCode.ACTION_NOT_ALLOWED, "a round key is 32 bytes")
        events: list[ev.Event] = []
        if self.dealer is None and self.first_dealer is not None:
            dealer = self.first_dealer
        elif self.dealer is None:
            dealer, events = self._choose_dealer(key)
        else:
            dealer = (self.dealer + 1) % self.seats  # the deal passes to the left
            while dealer in self.eliminated:
                dealer = (dealer + 1) % self.seats
        self.round_no = round_no
        self.dealer = dealer
        stacked = self.stacked_decks[round_no - 1] if round_no <= len(self.stacked_decks) else None
        deck: DeckManifest = self.manifest
        table: PlayTable | None = self.table
        if self.flip:  # the round's own pairing, and its own play tables
            deck = self.deck if self.deck is not None else round_manifest(key)
            table = None
        self.round = Round(self.rules, deck, self.seats, dealer, key, round_no, stacked, table,
                           frozenset(self.eliminated))
        self.phase = IN_ROUND
        return events + self.round.take_setup_events()

    def _choose_dealer(self, key: bytes) -> tuple[int, list[ev.Event]]:
        """RULEBOOK.md 1.1: everyone draws; the highest number deals; the tied draw again."""
        drawing = list(range(self.seats))
        events: list[ev.Event] = []
        attempt = 0
        while True:
            order = dealer_order(key, attempt, len(self.manifest))
            draws = tuple(zip(drawing, order, strict=False))
            events.append(ev.DealerDraw(attempt, draws))
            values = {seat: dealer_value(self.manifest.face(card)) for seat, card in draws}
            best = max(values.values())
            drawing = [seat for seat in drawing if values[seat] == best]
            if len(drawing) == 1:
                return drawing[0], events
            attempt += 1

    # -- round end ---------------------------------------------------------------------------------

    def _round_ended(self) -> list[ev.Event]:
        """Score the round just won; eliminate (scoring=elimination) and end the match."""
        rnd = self.round
        assert rnd is not None
        points = round_points(
            self.rules, rnd.manifest, rnd.winner, rnd.hands, rnd.knocked_out,
            rnd.penalty_points, self.scores, rnd.side,
        )
        self.scores = [s + p for s, p in zip(self.scores, points, strict=True)]
        events: list[ev.Event] = [
            ev.RoundEnded(
                rnd.winner,
                tuple(tuple(hand) for hand in rnd.hands),
                tuple(points),
                tuple(self.scores),
            )
        ]
        if self.rules.scoring == "elimination":
            remaining = [s for s in range(self.seats) if s not in self.eliminated]
            reached = [s for s in remaining if self.scores[s] >= self.rules.target]
            if len(reached) == len(remaining):  # all at once: the lowest total stays in
                reached.remove(min(reached, key=lambda s: (self.scores[s], s)))
            for seat in reached:
                self.eliminated.add(seat)
                events.append(ev.SeatEliminated(seat, self.scores[seat]))
        self.winner = match_winner(
            self.rules, self.scores, self.round_no, self.eliminated, rnd.winner
        )
        if self.winner is None:
            self.phase = BETWEEN_ROUNDS
        else:
            self.phase = MATCH_OVER
            events.append(ev.MatchEnded(self.winner, tuple(self.scores)))
        return events


def _plain(value: Any) -> Any:
    if isinstance(value, set | frozenset):
        return sorted(value)
    if isinstance(value, dict):
        return sorted(value.items())
    if isinstance(value, Sequence) and not isinstance(value, str | bytes):
        return [_plain(v) for v in value]
    return value


def _public_deck(rules: RuleSet, seed: bytes, deck: DeckManifest | None) -> DeckManifest:
    """The match's public manifest: the rules' deck, or a test's (UNO Flip: its light side)."""
    if deck is None:
        return rules.manifest(seed)
    manifest = light_side(deck) if rules.variant == "flip" else deck
    if len(manifest) != len(rules.manifest()):
        raise ValueError("a deck given to a match must be the size of the rules' deck")
    return manifest


def _checked_orders(orders: Sequence[Sequence[int]], size: int) -> list[list[int]]:
    """Stacked deal orders, each a permutation of the `size` card ids."""
    checked = [list(order) for order in orders]
    for order in checked:
        if sorted(order) != list(range(size)):
            raise ValueError("a stacked deck must list every card id exactly once")
    return checked
