"""The host under the house rules (SPEC.md 13 and 14): the buzzer window, the decisions that run
on think_time, out-of-turn intents reaching the engine, and stand-in bots that race like people.

The host is sans-IO (every entry point takes `now`), so these tests drive its clock by hand:
each step happens at a time the test chooses, and a timer's effect is checked at the instant
it is due and just before.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest

from host.game import BUZZER_WINDOW, Game
from host.outgoing import SendEvent, SendMessage
from host.registry import Registry
from host.settings import FAST_TIMINGS, TableTimings
from host.table import Table, TableSettings
from unonet import events as ev
from unonet.actions import (
    Accept,
    Action,
    Buzz,
    ChooseColor,
    ChooseTarget,
    Draw,
    Pass,
    Play,
)
from unonet.cards import Face, Kind
from unonet.match import BETWEEN_ROUNDS, IN_ROUND, MATCH_OVER, Match
from unonet.phase import Phase
from unonet.rules import RuleSet

MAX_STEPS = 5000
"""A bound on the moves a test makes looking for a situation; random deals find it far sooner."""


@dataclass
class Host:
    """A registry with one table of human seats (connections 1..n), played by hand."""

    registry: Registry
    table: Table
    now: float = 0.0
    events: list[tuple[float, ev.Event]] = field(default_factory=list)  # as seen by conn 1
    refusals: list[str] = field(default_factory=list)
    request: int = 100

    @property
    def game(self) -> Game:
        assert self.table.game is not None
        return self.table.game

    @property
    def match(self) -> Match:
        return self.game.match

    def conn(self, seat: int) -> int:
        return next(m.conn for m in self.table.room.members.values() if m.seat == seat)

    def humans(self) -> list[int]:
        return sorted(m.seat for m in self.table.room.members.values() if m.seat is not None)

    def collect(self) -> list[ev.Event]:
        new: list[ev.Event] = []
        for out in self.registry.take_outgoing():
            if isinstance(out, SendEvent) and out.conn == 1:
                new.append(out.event)
                self.events.append((self.now, out.event))
            elif isinstance(out, SendMessage) and out.message["t"] == "error":
                self.refusals.append(out.message["code"])
        return new

    def act(self, seat: int, action: Action, at: float | None = None) -> list[ev.Event]:
        """`seat`'s intent, received at `at` (now by default); the events it caused."""
        self.now = self.now if at is None else at
        self.request += 1
        self.registry.intent(self.conn(seat), self.request, action, self.now)
        return self.collect()

    def tick(self, at: float) -> list[ev.Event]:
        self.now = at
        self.registry.tick(at)
        return self.collect()

    def play_on(self) -> None:
        """After a match, every human asks for the next one (a headless table waits for its
        players' `r`, SPEC.md [UNO-8-11]), and its first round is dealt."""
        while self.table.game is None or self.table.game.match.phase != IN_ROUND:
            game = self.table.game
            if game is None or game.match.phase == MATCH_OVER:
                for seat in self.humans():
                    self.request += 1
                    self.registry.request(self.conn(seat), None, {
                        "t": "ready", "id": self.request, "ready": True}, self.now)
                self.collect()
            if self.table.game is None or self.table.game.match.phase != IN_ROUND:
                self.wait()

    def wait(self) -> list[ev.Event]:
        """Let the next timer run (a seed phase, a bot, a deal)."""
        deadline = self.registry.next_deadline()
        assert deadline is not None, "nothing is due: the table waits for a human"
        return self.tick(max(self.now, deadline))


def host(rules: RuleSet, humans: int, bots: int = 0,
         timings: TableTimings = FAST_TIMINGS) -> Host:
    """A headless table of `humans` human seats and `bots` stand-in bots, its first round dealt
    (the humans send no seed: the seed phases run out)."""
    registry = Registry(timings)
    table = registry.create_table(TableSettings("races", rules, headless=True,
                                                target_seats=humans + bots, timings=timings))
    for _ in range(bots):
        table.add_bot()
    for conn in range(1, humans + 1):
        registry.request(conn, f"p{conn}", {"t": "join_table", "id": 1, "table": 0,
                                            "name": f"p{conn}"}, 0.0)
        registry.request(conn, None, {"t": "ready", "id": 2, "ready": True}, 0.0)
    h = Host(registry, table)
    h.collect()
    while table.game is None or table.game.match.phase != IN_ROUND:
        h.wait()
    return h


def human_move(h: Host, seat: int, prefer: Callable[[Face], bool]) -> Action:
    """A plain player's answer to `seat`'s decision: a preferred card if it may play one, then
    any card, else accept, name a colour, pick a target, draw, pass."""
    legal = h.match.legal_actions(seat)
    plays = [a for a in legal if isinstance(a, Play) and not a.also]
    face = h.match.manifest.face
    for play in sorted(plays, key=lambda p: not prefer(face(p.card))):
        return play
    for kind in (Accept, ChooseColor, ChooseTarget, Draw, Pass):
        for action in legal:
            if isinstance(action, kind):
                return action
    raise AssertionError(f"seat {seat} has no decision among {legal}")


def reach(h: Host, phase: Phase, prefer: Callable[[Face], bool], step: float = 1.0) -> float:
    """Play (one move a second) until the round is in `phase`; the time it began."""
    for _ in range(MAX_STEPS):
        if h.match.phase == IN_ROUND and h.match.view(None).phase == phase:
            return h.now
        seat = h.match.pending_seat
        if h.match.phase == BETWEEN_ROUNDS or seat not in h.humans():
            h.wait()
        else:
            h.act(seat, human_move(h, seat, prefer), h.now + step)
    raise AssertionError(f"phase {phase} never came")


def kind_is(*kinds: Kind) -> Callable[[Face], bool]:
    return lambda face: face.kind in kinds


def of(events: list[ev.Event], kind: type[ev.Event]) -> list[ev.Event]:
    return [e for e in events if isinstance(e, kind)]


# -- the buzzer window ---------------------------------------------------------------------------


@pytest.mark.parametrize("think_time", [None, 30])
def test_the_buzzer_window_closes_after_five_seconds_whatever_think_time(
    think_time: int | None, caplog: pytest.LogCaptureFixture,
) -> None:
    h = host(RuleSet(buzzers=True, think_time=think_time, hand_size=10), humans=3)
    opened = reach(h, Phase.BUZZER, kind_is(Kind.BUZZER))
    player = h.match.view(None).pending
    assert player is not None
    assert h.game.decision_deadline == opened + BUZZER_WINDOW
    first = next(s for s in h.humans() if s != player.seat)
    assert of(h.act(first, Buzz(), opened + 1.0), ev.Buzzed) == [ev.Buzzed(first, 1)]
    assert h.game.decision_deadline == opened + BUZZER_WINDOW  # a press does not restart it
    assert h.tick(opened + BUZZER_WINDOW - 0.01) == []
    with caplog.at_level(logging.INFO, logger="unonet.host.game"):
        closed = h.tick(opened + BUZZER_WINDOW)
    assert of(closed, ev.Expired) == [ev.Expired(player.seat, "buzzer")]
    (result,) = of(closed, ev.BuzzerClosed)
    assert isinstance(result, ev.BuzzerClosed)
    assert sorted(result.losers) == sorted(s for s in h.humans() if s != first)
    # The host's log names whom the race waited for, not the seat that played the Buzzer.
    assert f"time ran out for the buzzer race (seats {sorted(result.losers)})" in caplog.text
    assert h.match.view(None).phase != Phase.BUZZER


def test_a_race_everyone_pressed_closes_at_once_and_the_last_one_loses() -> None:
    h = host(RuleSet(buzzers=True, hand_size=10), humans=2)
    opened = reach(h, Phase.BUZZER, kind_is(Kind.BUZZER))
    quick, slow = h.humans()
    h.act(slow, Buzz(), opened + 0.5)
    events = h.act(quick, Buzz(), opened + 0.8)
    assert of(events, ev.Buzzed) == [ev.Buzzed(quick, 2)]
    assert of(events, ev.BuzzerClosed) == [ev.BuzzerClosed((quick,), 2)]
    assert not of(events, ev.Expired)
    assert h.match.view(None).phase != Phase.BUZZER
    assert h.game.decision_deadline is None  # no think_time: the next turn waits
    assert h.refusals == []


# -- decisions on think_time -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "phase", "prefer"),
    [
        ({"stacking": "same_kind"}, Phase.STACK, kind_is(Kind.DRAW_TWO)),
        ({"seven_zero": True}, Phase.CHOOSE_TARGET, lambda f: f.number == 7),
    ],
)
def test_a_stack_and_a_swap_target_wait_think_time_then_take_the_default(
    options: dict[str, object], phase: Phase, prefer: Callable[[Face], bool],
) -> None:
    h = host(RuleSet(think_time=30, hand_size=10).replace(**options), humans=2)
    began = reach(h, phase, prefer)
    seat = h.match.pending_seat
    assert h.game.decision_deadline == began + 30
    assert h.tick(began + 29.9) == []
    events = h.tick(began + 30)
    assert of(events, ev.Expired) == [ev.Expired(seat, phase.value)]  # type: ignore[arg-type]
    if phase == Phase.STACK:
        assert any(isinstance(e, ev.CardsDrawn) and e.seat == seat and e.reason == "stack"
                   for e in events)
    else:
        assert of(events, ev.HandsMoved)


def test_without_think_time_a_stack_waits_for_its_player() -> None:
    h = host(RuleSet(stacking="same_kind", hand_size=10), humans=2)
    reach(h, Phase.STACK, kind_is(Kind.DRAW_TWO))
    assert h.game.decision_deadline is None
    assert h.registry.next_deadline() is None


# -- out-of-turn intents -----------------------------------------------------------------------


def test_a_jump_in_sent_out_of_turn_reaches_the_engine_and_is_played() -> None:
    h = host(RuleSet(jump_in="identical", decks=2, hand_size=12), humans=3)
    for _ in range(MAX_STEPS):
        if h.match.phase == BETWEEN_ROUNDS:
            h.wait()
            continue
        current = h.match.pending_seat
        for seat in h.humans():
            jump = [a for a in h.match.legal_actions(seat)
                    if isinstance(a, Play) and seat != current]
            if jump:
                events = h.act(seat, jump[0], h.now + 0.5)
                assert of(events, ev.JumpedIn) == [ev.JumpedIn(seat, "jump_in")]
                played = of(events, ev.CardPlayed)[0]
                assert isinstance(played, ev.CardPlayed) and played.seat == seat
                assert h.refusals == []
                return
        assert current is not None
        h.act(current, human_move(h, current, lambda face: True), h.now + 1.0)
    raise AssertionError("no jump-in chance came")


# -- stand-in bots race like people --------------------------------------------------------------

RACING = TableTimings(grace=5.0, seed_phase=2.0, bot_delay=0.8, bot_reaction=(0.6, 1.5),
                      round_break=0.0, match_break=10_000.0, ready_wait=5.0)


def test_a_person_who_presses_b_quickly_beats_the_stand_in_bot() -> None:
    h = host(RuleSet(buzzers=True, hand_size=10), humans=1, bots=1, timings=RACING)
    (me,) = h.humans()
    opened = reach(h, Phase.BUZZER, kind_is(Kind.BUZZER))
    bot = 1 - me
    h.act(me, Buzz(), opened + 0.3)
    events: list[ev.Event] = []
    while not of(events, ev.BuzzerClosed):
        events += h.wait()
    pressed = [(t, e) for t, e in h.events if isinstance(e, ev.Buzzed) and t >= opened]
    assert [e for _, e in pressed] == [ev.Buzzed(me, 1), ev.Buzzed(bot, 2)]
    bot_time = pressed[1][0] - opened
    assert RACING.bot_reaction[0] <= bot_time <= RACING.bot_reaction[1]
    assert of(events, ev.BuzzerClosed) == [ev.BuzzerClosed((bot,), 2)]


def test_stand_in_bots_press_b_and_jump_in_only_after_a_reaction_time() -> None:
    rules = RuleSet(buzzers=True, jump_in="identical", decks=2, target=100)
    h = host(rules, humans=1, bots=3, timings=RACING)
    (me,) = h.humans()
    last_play = 0.0
    races: list[float] = []  # how long after the card a bot's press or jump-in came
    for _ in range(MAX_STEPS):
        if len(races) >= 6:
            break
        if h.table.game is None or h.match.phase == MATCH_OVER:
            h.play_on()  # the first match held too few races (found in a full run)
        seat = h.match.pending_seat
        if h.match.phase == IN_ROUND and seat == me and h.match.view(None).phase != Phase.BUZZER:
            events = h.act(me, human_move(h, me, lambda face: True), h.now + 1.0)
        elif h.match.phase == IN_ROUND and me in _waiting(h):
            events = h.act(me, Buzz(), h.now + 0.1)
        else:
            events = h.wait()
        for event in events:
            if isinstance(event, ev.Buzzed | ev.JumpedIn) and event.seat != me:
                races.append(h.now - last_play)
            if isinstance(event, ev.CardPlayed):
                last_play = h.now
    assert len(races) >= 6, races
    assert all(RACING.bot_reaction[0] <= r for r in races), races


def _waiting(h: Host) -> tuple[int, ...]:
    pending = h.match.view(None).pending
    return pending.waiting if pending is not None and pending.kind == Phase.BUZZER else ()
