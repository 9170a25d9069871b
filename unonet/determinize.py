"""A concrete round from a description of it, and cheap copies of rounds: what a search plays on.

A search bot knows its own cards and everything public, and samples the rest (unonet.bots.
sampling); `World` is one such sample, every card in its place, written as plain values. This
module turns a World into a `Round` the engine plays on, through the engine's own code from
there on, and copies rounds for each simulation.

This is the one module that writes a Round's internal state: `build_round` (and
`clone_round`, which copies whatever attributes a Round has, and `table_for`, which puts a
round in a Match so that views can be asked of it). A round cannot be rebuilt through the
public entry points alone: replaying (rules, key, actions) needs the round key, which a player
never has (a reshuffle's order and UNO Flip's pairing come from it), and a stacked deck fixes
only the deal. So `build_round` lets the constructor deal a stacked round, which sets every
attribute a round has, then writes the state the World describes over it: the piles and hands,
the direction and colour, the UNO and catch windows, and the decision the round waits for,
which goes in through the engine's own door for decisions (`Round.enter`, a value of
unonet.decisions) as the side in play does (`Round.show_side`). When the engine's state changes
shape, this function is what changes with it.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, fields, is_dataclass
from enum import Enum
from typing import Any

from unonet.cards import Color, DeckManifest, Face
from unonet.decisions import (
    BuzzerRace,
    Challenge,
    ColorToName,
    Decision,
    PendingDraw,
    TargetToPick,
    Turn,
)
from unonet.events import Position
from unonet.flip import FlipSight
from unonet.match import IN_ROUND, Match
from unonet.phase import Phase
from unonet.plays import PlayTable
from unonet.round import Round
from unonet.rules import RuleSet

__all__ = ["World", "build_round", "clone_round", "table_for"]


@dataclass(slots=True)
class World:
    """Everything a round is, with every card placed: one determinization."""

    rules: RuleSet
    manifest: DeckManifest  # UNO Flip: both faces paired, as sampled
    seats: int
    dealer: int
    round_no: int
    key: bytes  # the reshuffles' source in the simulations (any 32 bytes)
    hands: list[list[int]]
    draw_pile: list[int]  # top at the end, as the engine's
    discard: list[int]  # top at the end
    origin: list[Position]  # card id -> its position
    epoch: int
    side: int
    phase: Phase
    current: int
    direction: int
    active_color: Color | None
    out: set[int]
    absent: frozenset[int]
    knocked_out: dict[int, int]
    penalty_points: list[int]
    uno_called: set[int]
    catchable: set[int]
    serial: int
    drawn_card: int | None = None
    draws_this_turn: int = 0
    top_seat: int | None = None
    color_then: int | None = None
    pending_draw: int = 0
    chain: list[Face] = field(default_factory=list)
    finished: int | None = None
    wd4_player: int | None = None
    wd4_hand: tuple[int, ...] = ()
    color_before: Color | None = None
    cannot_draw_streak: int = 0
    buzz_waiting: tuple[int, ...] = ()  # a buzzer race: who has not pressed yet
    public: set[int] = field(default_factory=set)  # UNO Flip: dark faces told to everybody
    told: list[set[int]] = field(default_factory=list)  # ... and to each seat


def build_round(world: World) -> Round:
    """A Round in the state `world` describes. The engine's rules then play it as any round:
    legal_actions, apply, expire."""
    size = len(world.manifest)
    rnd = Round(world.rules, world.manifest, world.seats, world.dealer, world.key,
                world.round_no, stacked=list(range(size)), absent=world.absent)
    rnd.take_setup_events()
    rnd.hands = [list(hand) for hand in world.hands]
    rnd.draw_pile = list(world.draw_pile)
    rnd.discard = list(world.discard)
    rnd.origin = list(world.origin)
    rnd.epoch = world.epoch
    if world.side != rnd.side:
        rnd.show_side(world.side)
    rnd.direction = world.direction
    rnd.active_color = world.active_color
    rnd.out = set(world.out)
    rnd.knocked_out = dict(world.knocked_out)
    rnd.penalty_points = list(world.penalty_points)
    rnd.uno_called = set(world.uno_called)
    rnd.turn_serial = world.serial
    rnd.catchable = {seat: world.serial - 1 for seat in world.catchable}
    rnd.top_seat = world.top_seat
    rnd.run = None  # a run's window closes with the next player's move: this seat's, now
    rnd.finished = world.finished
    rnd.cannot_draw_streak = world.cannot_draw_streak
    rnd.winner = None
    rnd.enter(_decision(world), serial=False)
    if rnd.sight is not None:
        sight = rnd.sight
        sight.side = world.side
        sight.hands = [frozenset(hand) for hand in world.hands]
        pile = world.draw_pile
        sight.pile = (pile[-1], world.origin[pile[-1]]) if pile else None
        sight.public = set(world.public)
        sight.told = [set(told) for told in world.told] or [set() for _ in world.hands]
    return rnd


def _decision(world: World) -> Decision:
    """The decision the round waits for, as the engine holds it (unonet.decisions)."""
    seat, phase = world.current, world.phase
    if phase is Phase.CHOOSE_COLOR or phase is Phase.ROULETTE:
        return ColorToName(seat, world.color_then, roulette=phase is Phase.ROULETTE)
    if phase is Phase.STACK:
        return PendingDraw(seat, world.pending_draw, tuple(world.chain))
    if phase is Phase.CHALLENGE:
        assert world.wd4_player is not None and world.color_before is not None
        return Challenge(seat, world.pending_draw, tuple(world.chain), world.wd4_player,
                         world.wd4_hand, world.color_before)
    if phase is Phase.CHOOSE_TARGET:
        return TargetToPick(seat)
    if phase is Phase.BUZZER:
        return BuzzerRace(seat, world.buzz_waiting, (), seat)
    return Turn(seat, world.drawn_card, world.draws_this_turn)


_SHARED: tuple[type, ...] = (
    int, float, str, bytes, bool, type(None), tuple, frozenset, Enum, RuleSet, DeckManifest,
    PlayTable, Face,
)
"""Values a copy of a round shares with the original: immutable, or (a PlayTable) a cache of
answers that depend on the deck alone."""


def clone_round(rnd: Round) -> Round:
    """An independent copy of `rnd`: whatever it holds, containers copied (nested ones too) and
    immutable values shared. Faster than copy.deepcopy by an order of magnitude, and it needs
    no list of a round's attributes, so a round of another shape copies as well."""
    new = object.__new__(type(rnd))
    state = new.__dict__
    for name, value in rnd.__dict__.items():
        state[name] = _copied(value)
    return new


def _copied(value: Any) -> Any:
    kind = type(value)
    if kind is list:
        return [_copied(item) for item in value] if value and _mutable(value[0]) else value[:]
    if kind is set:
        return set(value)
    if kind is dict:
        return {key: _copied(item) for key, item in value.items()}
    if isinstance(value, _SHARED):
        return value
    if kind is FlipSight:
        sight = object.__new__(FlipSight)
        for name, item in value.__dict__.items():
            sight.__dict__[name] = _copied(item)
        return sight
    if is_dataclass(value) and not isinstance(value, type):
        params = getattr(type(value), "__dataclass_params__", None)
        if params is not None and params.frozen:
            return value  # a value, as the engine's decisions and runs are
        if not any(_mutable(getattr(value, f.name)) for f in fields(value)):
            return copy.copy(value)
    return copy.deepcopy(value)


def _mutable(value: Any) -> bool:
    return type(value) in (list, set, dict)


def table_for(template: Match, rnd: Round) -> Match:
    """A Match around `rnd` that views can be asked of (unonet.view.observe reads the match's
    scores, seats and phase): a copy of `template`'s attributes, sharing its rules and deck."""
    match = object.__new__(Match)
    match.__dict__.update(template.__dict__)
    match.round = rnd
    match.phase = IN_ROUND
    match.log = []
    return match
