"""The referee: at a round's audit, re-play the public record on our own engine.

Once the audit gives the round key K, nothing of the round is hidden any more: K deals every card
to every position. `Referee` keeps a shadow `unonet.match.Match` under the manifest's rules and
seat count for the whole match (scores, dealer rotation, eliminations carry over). At each audit
it deals the round from K, recovers from the public record the action behind each stretch of it
(who played which card, who drew, whose timer ran out...), applies that action to the shadow and
requires the shadow's public events to equal the received ones, one for one. The engine is the
one judge (unonet.legality): nothing here restates a rule, so an illegal play, a penalty not
drawn, wrong points, totals or winner, and rules changed in mid-match all show up the same way,
as the first event where the record and the rules part.

After a divergence the shadow cannot follow a record it disagrees with. The referee says so once
(the violation), and at the next round it adopts the state the host announced (its last totals,
the dealer and the seats dealt) and referees that round from there: each forgery is reported in
the round it happens and later rounds are still checked.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import fields
from enum import Enum
from typing import Any

from protocol.trust.results import Violation, ViolationKind
from protocol.wire_codecs import wire_name
from unonet import events as ev
from unonet.actions import (
    HOST,
    Accept,
    Action,
    Buzz,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    ChooseTarget,
    Draw,
    Expire,
    Pass,
    Penalize,
    Play,
    StartRound,
)
from unonet.cards import DeckManifest, Kind
from unonet.errors import EngineError
from unonet.match import IN_ROUND, MATCH_OVER, Match
from unonet.rules import RuleSet

__all__ = ["Referee", "action_named"]

SHADOW_SEED = bytes(32)
"""The shadow match's own seed, never used: every round is dealt from the audited K."""

_PENDING_REASONS = frozenset({"stack", *(kind.value for kind in Kind)})
"""CardsDrawn/Skipped reasons of a pending draw taken (Accept): `stack`, or the draw card's kind."""

Candidate = tuple[int, Action]


class Referee:
    """Re-plays each audited round of one match and reports where the public record breaks the
    rules. Feed it every public event of the current round (`event`), then `audited(K)`."""

    def __init__(
        self,
        rules: RuleSet,
        seats: int,
        *,
        from_start: bool = True,
    ) -> None:
        """`rules` and `seats` are the manifest's, fixed for the match. `from_start` False: this
        client came in after the match began (a late spectator), so the first round it referees
        starts from the state the host announces, as after a divergence. The deck is the one the
        rules name; under UNO Flip the shadow pairs each round's dark faces from its audited K
        by itself (unonet.flip_deck.round_manifest), as the host must."""
        self.rules = rules
        self.seats = seats
        self._record: list[ev.Event] = []
        self._synced = from_start
        self._announced: tuple[int, ...] | None = None  # the host's last round_ended totals
        self._unplayable: str | None = None  # why no match can be played under the manifest
        self._said_unplayable = False
        self._shadow: Match | None = None
        try:
            self._shadow = Match(rules, seats, SHADOW_SEED)
        except (EngineError, ValueError) as err:
            self._unplayable = str(err)

    def event(self, event: ev.Event) -> None:
        """One public event of the current round, in the order received (private ones are not
        the referee's: it ignores them)."""
        if event.audience is None:
            self._record.append(event)

    def abandoned(self) -> None:
        """The round was audited without being played. Nothing to re-play; if part of it was
        played after all, the shadow cannot follow it and adopts the host's state next round
        (the verifier reports the abandoned deal)."""
        if self._record:
            self._synced = False
        self._record = []

    def missed(self) -> None:
        """The round was played while this client was away: its record here is partial (or
        empty), so it is not re-played, and the next round is refereed from the state the host
        announces in it (as after a divergence); the totals last seen are stale by then."""
        self._record = []
        self._synced = False
        self._announced = None

    def audited(self, key: bytes) -> list[Violation]:
        """Re-play the round just audited (K = `key`); [] when every public event is the one
        the rules give, else the first divergence. Never raises for a hostile record."""
        record, self._record = self._record, []
        if not record:
            return []
        try:
            found = self._referee(record, key)
        except Exception as exc:  # the engine choking on a hostile record: a finding, not a crash
            found = f"the record cannot be re-played by the rules ({type(exc).__name__}: {exc})"
        for event in reversed(record):
            if isinstance(event, ev.RoundEnded):
                self._announced = event.scores
                break
        if found is None:
            return []
        self._synced = False
        return [Violation(ViolationKind.ILLEGAL, found)]

    # -- one round -------------------------------------------------------------------------------

    def _referee(self, record: list[ev.Event], key: bytes) -> str | None:
        if self._unplayable is not None:
            if self._said_unplayable:
                return None
            self._said_unplayable = True
            return (f"the manifest's rules cannot be played at {self.seats} seats: "
                    f"{self._unplayable}")
        if not self._synced:
            problem = self._adopt(record)
            if problem is not None:
                return problem
        shadow = self._shadow
        assert shadow is not None  # built, since the rules are playable
        if shadow.phase == MATCH_OVER:
            return (f"event 0: the match is over by the rules (seat {shadow.winner} won in round "
                    f"{shadow.round_no}), yet the host deals another round")
        replay = _Replay(shadow, record)
        found = replay.run(key)
        if replay.unfinished:
            self._synced = False  # the verifier reports the round that never ended
        return found

    def _adopt(self, record: list[ev.Event]) -> str | None:
        """Follow the host's announced state from this round on: a fresh match if the record
        opens with the dealer draw (a first round), else the round number and dealer of its
        round_started, the totals of the last round_ended seen (or, with none, this round's
        totals less its points) and, under elimination, the seats not dealt as eliminated."""
        first = record[0]
        if isinstance(first, ev.DealerDraw):
            self._shadow = Match(self.rules, self.seats, SHADOW_SEED)
            self._synced = True
            return None
        if not isinstance(first, ev.RoundStarted):
            return f"event 0: a round opens with round_started, the host sent {_show(first)}"
        dealt = {e.seat for e in record if isinstance(e, ev.CardsDrawn) and e.reason == "deal"}
        eliminated: set[int] = set()
        if self.rules.scoring == "elimination":
            eliminated = {seat for seat in range(self.seats) if seat not in dealt}
        if not 0 <= first.dealer < self.seats or first.dealer in eliminated:
            return f"event 0: round_started names seat {first.dealer} the dealer, who cannot deal"
        shadow = Match(self.rules, self.seats, SHADOW_SEED, first_dealer=first.dealer)
        shadow.round_no = first.round_no - 1
        shadow.scores = self._scores_before(record)
        shadow.eliminated = eliminated
        self._shadow = shadow
        self._synced = True
        return None

    def _scores_before(self, record: list[ev.Event]) -> list[int]:
        if self._announced is not None and len(self._announced) == self.seats:
            return list(self._announced)
        for event in record:
            if (isinstance(event, ev.RoundEnded) and len(event.scores) == self.seats
                    and len(event.points) == self.seats):
                pairs = zip(event.scores, event.points, strict=True)
                return [total - points for total, points in pairs]
        return [0] * self.seats


class _Replay:
    """One round's re-play: the received record, how far the shadow has matched it."""

    def __init__(self, shadow: Match, record: list[ev.Event]) -> None:
        self.shadow = shadow
        self.record = record
        self.cursor = 0  # the record up to here is what the rules give
        self.unfinished = False

    def run(self, key: bytes) -> str | None:
        """The first divergence, or None when the whole record is what the rules give."""
        self.shadow.log.clear()  # the shadow needs no journal of the whole match
        found = self._follow(HOST, StartRound(key), 0)
        while found is None and self.cursor < len(self.record):
            if self.shadow.phase != IN_ROUND:
                got = self.record[self.cursor]
                return (f"event {self.cursor}: the round is over by the rules, yet the host "
                        f"sent {_show(got)}")
            action, at = self._next_action()
            if action is None:
                got = self.record[self.cursor]
                return f"event {self.cursor}: {_show(got)} follows from no action of the rules"
            found = self._follow(*action, at)
        if found is None and self.shadow.phase == IN_ROUND:
            self.unfinished = True
        return found

    def _next_action(self) -> tuple[Candidate | None, int]:
        """The action the next stretch of the record comes from, and the index of the event that
        names it. Events an action may cause before its own (catch windows closing, their
        automatic penalties) name none and are passed over."""
        record = self.record
        for at in range(self.cursor, len(record)):
            event = record[at]
            if isinstance(event, ev.CardPlayed):
                return _play(record, at), at
            reader = _READERS.get(type(event))
            found = reader(event) if reader is not None else None
            if found is not None:
                return found, at
        return None, len(record)

    def _follow(self, seat: int, action: Action, at: int) -> str | None:
        """Apply the action to the shadow; its public events must be the record's next ones."""
        try:
            produced = _public(self.shadow.apply(seat, action))
        except EngineError as err:  # refused: the shadow is as it was, to say what was refused on
            said = _describe(self.shadow, _deck(self.shadow), seat, action)
            return f"event {at}: the host says {said}, which the rules refuse: {err.message}"
        if not produced:
            return f"event {at}: {_show(self.record[at])} follows from no action of the rules"
        difference = self._first_difference(produced)
        if difference is not None:
            return difference
        self.cursor += len(produced)
        return None

    def _first_difference(self, produced: list[ev.Event]) -> str | None:
        for offset, expected in enumerate(produced):
            index = self.cursor + offset
            got = self.record[index] if index < len(self.record) else None
            if got != expected:
                return _divergence(index, expected, got, self.shadow)
        return None


# -- reading actions from the record ------------------------------------------------------------


def _play(record: list[ev.Event], at: int) -> Candidate:
    """A card_played and the ones right after it by the same seat are one play (`also`): a
    play of fewer cards would be followed by some event of its own (a turn, a decision, the
    round's end) before that seat's next card_played (with jumped_in ahead of it)."""
    first = record[at]
    assert isinstance(first, ev.CardPlayed)
    last = first
    also: list[int] = []
    for event in record[at + 1:]:
        if not isinstance(event, ev.CardPlayed) or event.seat != first.seat:
            break
        also.append(event.card)
        last = event
    return first.seat, Play(first.card, last.color, last.uno, tuple(also))


def _drawn(event: ev.CardsDrawn) -> Candidate | None:
    if event.reason == "draw":
        return event.seat, Draw()
    if event.reason in _PENDING_REASONS:
        return event.seat, Accept()
    return None  # the deal, a penalty: caused by something else


def _skipped(event: ev.Skipped) -> Candidate | None:
    """A pending draw taken with no card left to draw shows only as the taker skipped."""
    return (event.seat, Accept()) if event.reason in _PENDING_REASONS else None


def _swapped(event: ev.HandsMoved) -> Candidate | None:
    if event.reason != "seven" or not event.moves:
        return None  # a 0's hands passing is the play's doing
    giver, taker, _ = event.moves[0]
    return giver, ChooseTarget(taker)


_READERS: dict[type, Callable[[Any], Candidate | None]] = {
    ev.CardsDrawn: _drawn,
    ev.Skipped: _skipped,
    ev.HandsMoved: _swapped,
    ev.CannotDraw: lambda e: (e.seat, Draw()),
    ev.Passed: lambda e: (e.seat, Pass()),
    ev.ColorChosen: lambda e: (e.seat, ChooseColor(e.color)),
    ev.UnoCalled: lambda e: (e.seat, CallUno()),
    ev.UnoCaught: lambda e: None if e.catcher is None else (e.catcher, Catch(e.target)),
    ev.FalseCatch: lambda e: (e.catcher, Catch(e.target)),
    ev.Challenged: lambda e: (e.challenger, Challenge()),
    ev.Buzzed: lambda e: (e.seat, Buzz()),
    ev.JumpInRefused: lambda e: (e.seat, Play(e.card)),
    ev.Expired: lambda e: (HOST, Expire()),
    ev.Penalized: lambda e: (HOST, Penalize(e.target, e.count)),
}
"""The event that names an action, by type: what it says the seat (or the host) did. The events
of an action's consequences (turns, skips, the draws of a penalty) are not here."""


def action_named(event: ev.Event) -> Candidate | None:
    """The (seat, action) an event names as done, or None for an event that follows from an
    action (a turn, a skip, a penalty's draw) rather than naming one. A played card names a
    Play of that card alone (the cards of a run or a multiple follow as their own
    card_played); the action it names is the first of the stretch of events it caused, but
    for the events an action may cause before its own (catch windows closing, their automatic
    penalties, a jump-in's `jumped_in`), which name none."""
    if isinstance(event, ev.CardPlayed):
        return event.seat, Play(event.card, event.color, event.uno)
    reader = _READERS.get(type(event))
    return reader(event) if reader is not None else None


def _public(events: list[ev.Event]) -> list[ev.Event]:
    return [e for e in events if e.audience is None]


# -- saying what diverged -----------------------------------------------------------------------


def _divergence(index: int, expected: ev.Event, got: ev.Event | None, shadow: Match) -> str:
    where = f"event {index}"
    if got is None:
        return f"{where}: the rules give {_show(expected)}, the record ends before it"
    if isinstance(expected, ev.RoundEnded) and isinstance(got, ev.RoundEnded):
        return f"{where}, round_ended: {_round_ended(expected, got, shadow)}"
    if isinstance(expected, ev.MatchEnded) and isinstance(got, ev.MatchEnded):
        return f"{where}, match_ended: {_match_ended(expected, got)}"
    if isinstance(expected, ev.MatchEnded):
        return (f"{where}: the rules end the match here (seat {expected.winner} wins), the host "
                f"sent {_show(got)}")
    if isinstance(got, ev.MatchEnded):
        return (f"{where}: the host ends the match (seat {got.winner} wins), which the rules do "
                f"not: they give {_show(expected)}")
    return f"{where}: the rules give {_show(expected)}, the host sent {_show(got)}"


def _round_ended(expected: ev.RoundEnded, got: ev.RoundEnded, shadow: Match) -> str:
    manifest = _deck(shadow)
    if got.winner != expected.winner:
        return (f"the host names seat {got.winner} the round's winner, the rules give seat "
                f"{expected.winner}")
    for name in ("hands", "points", "scores"):
        if len(getattr(got, name)) != len(getattr(expected, name)):
            return f"the host lists {name} for {len(getattr(got, name))} seats, not {shadow.seats}"
    for seat, (shown, held) in enumerate(zip(got.hands, expected.hands, strict=True)):
        if tuple(shown) != tuple(held):
            side = _side(shadow)
            return (f"the host shows seat {seat} holding {_cards(manifest, shown, side)}, the "
                    f"rules leave it {_cards(manifest, held, side)}")
    for seat, (given, made) in enumerate(zip(got.points, expected.points, strict=True)):
        if given != made:
            return f"the host gives seat {seat} {given} points, the hands shown make {made}"
    for seat, (given, total) in enumerate(zip(got.scores, expected.scores, strict=True)):
        if given != total:
            before = total - expected.points[seat]
            return (f"the host gives seat {seat} a total of {given}, the rules {total} ({before} "
                    f"before this round and {expected.points[seat]} in it)")
    return f"the host sent {_show(got)}, the rules give {_show(expected)}"


def _match_ended(expected: ev.MatchEnded, got: ev.MatchEnded) -> str:
    if got.winner != expected.winner:
        return (f"the host names seat {got.winner} the match's winner, the rules give seat "
                f"{expected.winner}")
    return f"the host gives the totals {list(got.scores)}, the rules {list(expected.scores)}"


def _describe(shadow: Match, manifest: DeckManifest, seat: int, action: Action) -> str:
    """What the record says happened, in words, judged on the shadow as it is before it."""
    rnd = shadow.round
    who = f"seat {seat}"
    if isinstance(action, Play):
        side = _side(shadow)
        said = f"{who} played {_cards(manifest, (action.card, *action.also), side)}"
        if action.color is not None:
            said += f" naming {_word(action.color)}"
        if rnd is not None and seat != rnd.current:
            said += " out of turn"
        if rnd is not None and rnd.discard:
            said += f" on {_cards(manifest, rnd.discard[-1:], side)}"
            if rnd.active_color is not None:
                said += f" with {_word(rnd.active_color)} in play"
        return said
    if isinstance(action, StartRound):
        return "the round was dealt"
    if isinstance(action, Expire):
        current = rnd.current if rnd is not None else None
        return f"the timer ran out on seat {current}"
    if isinstance(action, Penalize):
        return f"the table owner gave seat {action.target} {action.count} penalty cards"
    if isinstance(action, ChooseColor):
        return f"{who} named {_word(action.color)}"
    if isinstance(action, Catch):
        return f"{who} caught seat {action.target} without UNO"
    if isinstance(action, ChooseTarget):
        return f"{who} swapped hands with seat {action.target}"
    return f"{who} {_DONE.get(type(action), 'acted')}"


_DONE: dict[type, str] = {
    Draw: "drew", Pass: "passed", CallUno: "called UNO", Challenge: "challenged",
    Accept: "took the pending draw", Buzz: "pressed the buzzer",
}


def _deck(shadow: Match) -> DeckManifest:
    """The deck cards are named by: the round's own (UNO Flip: both faces, paired from K, no
    secret once audited), else the match's."""
    return shadow.round.manifest if shadow.round is not None else shadow.manifest


def _side(shadow: Match) -> int:
    """The side in play on the shadow (UNO Flip), by which cards are named; 0 otherwise."""
    return shadow.round.side if shadow.round is not None else 0


def _cards(manifest: DeckManifest, cards: Sequence[int], side: int = 0) -> str:
    names = []
    for card in cards:
        faces = (
            manifest.cards[card].faces if isinstance(card, int) and 0 <= card < len(manifest)
            else ()
        )
        names.append(faces[side].name if side < len(faces) else f"card {card!r}")
    return ", ".join(names) if names else "nothing"


def _word(value: Any) -> str:
    return str(value.value) if isinstance(value, Enum) else repr(value)


def _show(event: ev.Event) -> str:
    """An event as a reader can compare two: its wire name and fields."""
    parts = ", ".join(f"{f.name}={_word(getattr(event, f.name))}" for f in fields(event))
    return f"{wire_name(type(event))}({parts})"
