"""Timers a player can see (issue 46, point 1; SPEC.md [UNO-8-24]): the host announces each
decision timer it arms, with whom it waits on and how long it has left, and says when none
runs; an entrant gets the running one after its snapshot; the client counts down on its own
clock, shows the seconds first on the status line, and rings once near the end of its own."""

from __future__ import annotations

from typing import Any

from client_table import scenario_table
from test_client_link_session import host_frames, lobby_table, seated_link

from client.i18n import Translator
from client.link import TimerChanged
from client.model import ClientModel
from client.model_state import TIMER_BELL_AT, Countdown
from client.render import compose, countdown
from host.outgoing import SendMessage
from host.registry import Registry
from host.settings import FAST_TIMINGS
from host.table import TableSettings
from unonet.rules import RuleSet

THINK = 30


def timers_sent(registry: Registry, conn: int | None = None) -> list[dict[str, Any]]:
    return [dict(item.message) for item in registry.take_outgoing()
            if isinstance(item, SendMessage) and item.message["t"] == "timer"
            and (conn is None or item.conn == conn)]


def timed_table() -> Registry:
    """A headless table of two players under think_time, both ready: the match is on."""
    registry = Registry(FAST_TIMINGS)
    registry.create_table(TableSettings("t", RuleSet(think_time=THINK), headless=True,
                                        target_seats=2, timings=FAST_TIMINGS))
    for conn, name in ((1, "Ana"), (2, "Bea")):
        registry.request(conn, name, {"t": "join_table", "table": 0, "name": name, "id": 1},
                         0.0)
        registry.request(conn, name, {"t": "ready", "ready": True, "id": 2}, 0.0)
    registry.tick(100.0)  # the seed exchange's deadlines pass: the round is dealt
    return registry


def test_the_host_announces_the_turn_timer_to_everyone_with_its_seat() -> None:
    registry = Registry(FAST_TIMINGS)
    registry.create_table(TableSettings("t", RuleSet(think_time=THINK), headless=True,
                                        target_seats=2, timings=FAST_TIMINGS))
    for conn, name in ((1, "Ana"), (2, "Bea")):
        registry.request(conn, name, {"t": "join_table", "table": 0, "name": name, "id": 1},
                         0.0)
        registry.request(conn, name, {"t": "ready", "ready": True, "id": 2}, 0.0)
    registry.take_outgoing()
    registry.tick(100.0)
    sent = timers_sent(registry)
    game = registry.tables[0].game
    assert game is not None
    pending = game.match.pending_seat
    assert {m["ms"] for m in sent} == {THINK * 1000}
    assert all(m["seats"] == [pending] for m in sent)
    assert len(sent) == 2  # one for each player


def test_an_entrant_gets_the_running_timer_with_what_is_left_of_it() -> None:
    """The kind is the running one's: a turn, or the colour to name when the deal opened on
    a Wild (the deal is random: that was 1 run in 25)."""
    registry = timed_table()
    (running, *_) = timers_sent(registry, 1)
    game = registry.tables[0].game
    assert game is not None
    registry.request(3, "Cy", {"t": "spectate", "table": 0, "id": 1}, 110.0)
    (timer,) = timers_sent(registry, 3)
    assert timer["ms"] == (THINK - 10) * 1000 and timer["kind"] == running["kind"]
    assert timer["seats"] == running["seats"]


def test_a_timer_that_stops_is_said_to_stop() -> None:
    """A seat whose turn is timed leaves: the host's default plays on at once (a bot), the
    decision moves on, and the next one is timed again; when the match's rounds end no timer
    is left running without a word."""
    registry = timed_table()
    game = registry.tables[0].game
    assert game is not None
    registry.take_outgoing()
    registry.tick(100.0 + THINK)  # the first turn's timer runs out: the host plays it
    sent = timers_sent(registry)
    assert sent and all(m["ms"] == THINK * 1000 for m in sent)  # the next turn's
    assert {tuple(m["seats"]) for m in sent} == {(game.match.pending_seat,)}


def test_the_link_turns_a_timer_into_seconds() -> None:
    registry = lobby_table()
    host, link = seated_link(registry, "Ana")
    out = link.receive(host.send({"t": "timer", "seats": [0], "ms": 12500, "kind": "turn"})
                       + host.send({"t": "timer", "seats": []}))
    assert [u for u in out.updates if isinstance(u, TimerChanged)] == [
        TimerChanged((0,), 12.5, "turn"), TimerChanged((), None, "")]
    registry.take_outgoing()
    assert host_frames(registry, host) == b""


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_status_line_counts_down_and_rings_once_near_the_end() -> None:
    clock = Clock()
    model = ClientModel(Translator("en"), name="Ana", clock=clock)
    scenario_table(model).start(model.apply)
    me = model.me
    assert me is not None
    model.apply(TimerChanged((me,), 30.0, "turn"))
    assert model.timer == Countdown(1030.0, (me,), "turn")
    texts = "".join(text for _, text, *_ in countdown(model))
    assert texts.startswith("30 s left")
    clock.now += 24.5
    assert model.timer_left == 6 and not model.timer_bell()
    clock.now += 1.0 + 0.01
    assert model.timer_left == 5 and model.timer_bell()  # TIMER_BELL_AT left: it rings
    assert not model.timer_bell()  # once
    assert TIMER_BELL_AT == 5.0
    for width, height in ((80, 23), (60, 17)):
        screen = "".join(fragment[1] for fragment in compose(model, width, height, plain=True))
        assert "5 s left · " in screen
    other = (me + 1) % model.seat_count
    model.apply(TimerChanged((other,), 8.0, "turn"))
    assert not model.timer_ours and not model.timer_bell()
    assert "".join(text for _, text, *_ in countdown(model)) == "8 s · "
    model.apply(TimerChanged((), None))
    assert countdown(model) == []
    assert model.timer_left is None
