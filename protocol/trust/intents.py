"""Your own choices as the host recorded them (SPEC.md 11.6, [UNO-11-36]).

The referee re-plays the public record, which says what each seat did but not what it asked
for: a host that gives your 7's swap to another seat, or names another colour for your Wild,
keeps every rule. Only the seat that sent an intent knows it, so only its client can hold the
host to it: `IntentCheck` keeps each intent the host accepted and compares it with the action
the record shows.

The host answers `accepted{id}` before the events of the action it applied ([UNO-8-22]), so the
first event after that answer which names an action (`referee.action_named`) is the action, and
must be the intent exactly: the card, the cards of a run or a multiple in their order, the
colour named, the UNO called with the play, the target, the answer to a challenge or a pending
draw, the buzzer, the draw, the pass. A jump-in the engine turns down (`jump_in_refused`) is the
intent's play, judged late by the host's order of arrival (section 14, not checkable here).
"""

from __future__ import annotations

from dataclasses import dataclass

from protocol.trust.referee import action_named
from protocol.trust.results import Violation, ViolationKind
from protocol.wire_codecs import wire_name
from unonet import events as ev
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
    Expire,
    Pass,
    Penalize,
    Play,
)
from unonet.cards import Color, DeckManifest

__all__ = ["IntentCheck"]


@dataclass(slots=True)
class _Awaited:
    """An accepted intent whose action the record has not shown yet (whole)."""

    action: Action
    round_no: int | None
    played: int = 0  # cards of a Play matched so far


class IntentCheck:
    """One seat's accepted intents against the record of its actions. Feed it each accepted
    intent (`accepted`) and every event of the round in order (`event`); each returns the
    violations it found."""

    def __init__(self, seat: int | None, manifest: DeckManifest) -> None:
        self.seat = seat
        self.manifest = manifest
        self.checked = 0
        """Intents whose action the record showed exactly as asked."""
        self._awaited: _Awaited | None = None

    @property
    def awaiting(self) -> Action | None:
        """The accepted intent whose action has not come (whole) yet."""
        return self._awaited.action if self._awaited is not None else None

    def accepted(self, action: Action, round_no: int | None) -> list[Violation]:
        """The host accepted `action` in round `round_no`: its events come next. An earlier
        accepted intent still awaited never came: the host dropped it."""
        found = self.settle("before accepting your next one")
        self._awaited = _Awaited(action, round_no)
        return found

    def settle(self, when: str) -> list[Violation]:
        """The awaited intent's action can come no more (the round is audited, another intent
        was accepted): a violation if it is still awaited. `when` says what ended the wait."""
        awaited, self._awaited = self._awaited, None
        if awaited is None:
            return []
        if awaited.played:
            cards = _cards_of(awaited.action)
            return [Violation(ViolationKind.REWRITTEN_CARD,
                              f"you played {self._cards(cards)}; the host recorded only "
                              f"{self._cards(cards[:awaited.played])} {when}")]
        return [Violation(ViolationKind.REWRITTEN_ACTION,
                          f"the host accepted your move (you {self._words(awaited.action)}) and "
                          f"never recorded it {when}")]

    def forget(self) -> None:
        """The round went on while this client was away: what it awaited is not its to judge."""
        self._awaited = None

    def event(self, event: ev.Event) -> list[Violation]:
        """One event of the round, in order: the action it names, if an intent awaits it."""
        awaited = self._awaited
        if awaited is None or self.seat is None:
            return []
        named = action_named(event)
        wanted = awaited.action
        if isinstance(wanted, Play) and awaited.played:
            # The cards of one play are laid one right after another (the engine lays them
            # in one go): any other event, whatever it names, shows the rest was not played.
            return self._next_card(awaited, wanted, named, event)
        if named is None:
            return []
        seat, done = named
        if isinstance(event, ev.JumpInRefused) and seat == self.seat and isinstance(wanted, Play):
            self._awaited = None  # the whole play, turned down by the host's clock
            if event.card == wanted.card:
                self.checked += 1
                return []
            return [self._changed(ViolationKind.REWRITTEN_CARD, wanted, seat, done)]
        if seat != self.seat or type(done) is not type(wanted):
            self._awaited = None
            return [self._changed(ViolationKind.REWRITTEN_ACTION, wanted, seat, done)]
        if isinstance(wanted, Play) and isinstance(done, Play):
            return self._next_card(awaited, wanted, named, event)
        self._awaited = None
        kind = _difference(wanted, done)
        if kind is not None:
            return [self._changed(kind, wanted, seat, done)]
        self.checked += 1
        return []

    def _next_card(self, awaited: _Awaited, wanted: Play, named: tuple[int, Action] | None,
                   event: ev.Event) -> list[Violation]:
        """The next card of the intent's play (`event`, naming `named`): its card, and on the
        last one the colour named and the UNO called (the engine writes them there, none on
        the cards before)."""
        cards = _cards_of(wanted)
        index = awaited.played
        last = index == len(cards) - 1
        expected = Play(cards[index], wanted.color if last else None, wanted.uno and last)
        if named is None or named[0] != self.seat or not isinstance(named[1], Play):
            self._awaited = None
            then = (wire_name(type(event)) if named is None
                    else f"{self._someone(named[0])} {self._words(named[1])}")
            return [Violation(ViolationKind.REWRITTEN_CARD,
                              f"you played {self._cards(cards)}; the host recorded only "
                              f"{self._cards(cards[:index])}, then {then}")]
        seat, done = named
        kind = _difference(expected, done)
        if kind is not None:
            self._awaited = None
            return [self._changed(kind, wanted, seat, done)]
        awaited.played += 1
        if last:
            self._awaited = None
            self.checked += 1
        return []

    # -- words ----------------------------------------------------------------------------------

    def _changed(self, kind: ViolationKind, wanted: Action, seat: int,
                 done: Action) -> Violation:
        what = {
            ViolationKind.REWRITTEN_CARD: "changed the card",
            ViolationKind.REWRITTEN_COLOR: "changed the colour you named",
            ViolationKind.REWRITTEN_TARGET: "changed the player you picked",
            ViolationKind.REWRITTEN_UNO: "changed your UNO call",
        }.get(kind, "recorded another move than yours")
        return Violation(kind, f"you {self._words(wanted)}; the host {what}: it recorded "
                               f"{self._someone(seat)} {self._words(done)}")

    def _someone(self, seat: int) -> str:
        return "you" if seat == self.seat else "the host" if seat < 0 else f"seat {seat}"

    def _cards(self, cards: tuple[int, ...]) -> str:
        return ", ".join(self._card(card) for card in cards) if cards else "no card"

    def _card(self, card: int) -> str:
        if 0 <= card < len(self.manifest):
            return f"{self.manifest.face(card).name} (card {card})"
        return f"card {card}"

    def _words(self, action: Action) -> str:
        if isinstance(action, Play):
            said = f"played {self._cards(_cards_of(action))}"
            if action.color is not None:
                said += f" naming {_colour(action.color)}"
            return said + (" calling UNO" if action.uno else "")
        if isinstance(action, ChooseColor):
            return f"named {_colour(action.color)}"
        if isinstance(action, ChooseTarget):
            return f"picked seat {action.target} to swap hands with"
        if isinstance(action, Catch):
            return f"caught seat {action.target} without UNO"
        if isinstance(action, Penalize):
            return f"gave seat {action.target} {action.count} penalty cards"
        return _DONE.get(type(action), "acted")


_DONE: dict[type, str] = {
    Draw: "drew", Pass: "passed", CallUno: "called UNO", Challenge: "challenged",
    Accept: "took the pending draw", Buzz: "pressed the buzzer",
    Expire: "let the timer run out",
}

def _difference(wanted: Action, done: Action) -> ViolationKind | None:
    """What differs between two actions of one type, named for the part that changed."""
    if isinstance(wanted, Play) and isinstance(done, Play):
        if wanted.card != done.card:
            return ViolationKind.REWRITTEN_CARD
        if wanted.color != done.color:
            return ViolationKind.REWRITTEN_COLOR
        if wanted.uno != done.uno:
            return ViolationKind.REWRITTEN_UNO
        return None
    if isinstance(wanted, ChooseColor) and isinstance(done, ChooseColor):
        return None if wanted.color == done.color else ViolationKind.REWRITTEN_COLOR
    if isinstance(wanted, ChooseTarget | Catch) and isinstance(done, ChooseTarget | Catch):
        return None if wanted.target == done.target else ViolationKind.REWRITTEN_TARGET
    return None if wanted == done else ViolationKind.REWRITTEN_ACTION


def _cards_of(play: Action) -> tuple[int, ...]:
    return (play.card, *play.also) if isinstance(play, Play) else ()


def _colour(color: Color) -> str:
    return str(color.value)
