"""Lobby flows and the leak rule, on the sans-IO registry (no sockets, no clock)."""

from __future__ import annotations

from typing import Any

import pytest

from host.outgoing import Outgoing, SendEvent, SendMessage, SendSnapshot
from host.registry import Registry
from host.seating import Seat
from host.settings import FAST_TIMINGS
from host.table import TableSettings, host_notice
from unonet import rules as rules_module
from unonet.actions import Draw, Play
from unonet.errors import EngineError


def messages(out: list[Outgoing], conn: int, kind: str) -> list[dict[str, Any]]:
    return [dict(o.message) for o in out
            if isinstance(o, SendMessage) and o.conn == conn and o.message["t"] == kind]


def open_table() -> tuple[Registry, list[Outgoing]]:
    registry = Registry(FAST_TIMINGS)
    registry.request(1, "ana", {"t": "create_table", "id": 1, "name": "friends"}, 0.0)
    return registry, registry.take_outgoing()


def test_the_creator_owns_the_table_and_gets_a_token() -> None:
    _, out = open_table()
    assert messages(out, 1, "accepted") == [{"t": "accepted", "id": 1}]
    seated = messages(out, 1, "seated")[0]
    assert seated["seat"] == 0 and len(seated["token"]) == 32
    state = messages(out, 1, "table_state")[-1]
    assert state["owner"] == 0 and state["you"] == 0 and not state["started"]


def test_bad_rules_are_refused_with_the_option_named(monkeypatch: pytest.MonkeyPatch) -> None:
    registry, _ = open_table()
    registry.request(1, "ana", {"t": "set_rules", "id": 2, "options": {"hand_size": 99}}, 0.0)
    error = messages(registry.take_outgoing(), 1, "error")[0]
    assert error["code"] == "invalid_rules" and error["ref"] == 2 and "hand_size" in error["msg"]
    # Every value is played today; an engine that did not play one refuses it by name.
    monkeypatch.setitem(rules_module._IMPLEMENTED, "variant", frozenset({"classic", "flip"}))
    registry.request(1, "ana", {"t": "set_rules", "id": 3, "options": {"variant": "no_mercy"}},
                     0.0)
    assert messages(registry.take_outgoing(), 1, "error")[0]["code"] == "not_implemented"


def test_only_the_owner_adds_bots_and_starts() -> None:
    registry, _ = open_table()
    registry.request(2, "bo", {"t": "join_table", "id": 1, "table": 0, "name": "bo"}, 0.0)
    registry.request(2, "bo", {"t": "add_bot", "id": 2}, 0.0)
    assert messages(registry.take_outgoing(), 2, "error")[0]["code"] == "not_owner"
    registry.request(1, "ana", {"t": "add_bot", "id": 2, "level": "random"}, 0.0)
    registry.request(1, "ana", {"t": "start", "id": 3}, 0.0)
    assert messages(registry.take_outgoing(), 1, "error")[0]["code"] == "not_ready"
    registry.request(1, "ana", {"t": "ready", "id": 4, "ready": True}, 0.0)
    registry.request(2, "bo", {"t": "ready", "id": 3, "ready": True}, 0.0)
    registry.request(1, "ana", {"t": "start", "id": 5}, 0.0)
    out = registry.take_outgoing()
    assert messages(out, 1, "accepted")[-1] == {"t": "accepted", "id": 5}
    assert messages(out, 1, "table_state")[-1]["started"]
    assert messages(out, 1, "round_prepare")
    registry.request(1, "ana", {"t": "add_bot", "id": 6}, 0.0)
    assert messages(registry.take_outgoing(), 1, "error")[0]["code"] == "game_in_progress"


def test_a_spectator_sees_no_hand_and_no_private_event() -> None:
    registry, _ = open_table()
    registry.request(1, "ana", {"t": "add_bot", "id": 2}, 0.0)
    registry.request(1, "ana", {"t": "ready", "id": 3, "ready": True}, 0.0)
    registry.request(3, "eve", {"t": "spectate", "id": 1, "table": 0}, 0.0)
    registry.request(1, "ana", {"t": "start", "id": 4}, 0.0)
    out = registry.take_outgoing()
    for _ in range(20):  # play on a little: bots move, timers run
        registry.tick(registry.next_deadline() or 0.0)
        out += registry.take_outgoing()
    watched = [o for o in out if o.conn == 3]
    snapshots = [o for o in watched if isinstance(o, SendSnapshot)]
    assert snapshots and all(s.view.hand == () and not s.legal for s in snapshots)
    events = [o for o in watched if isinstance(o, SendEvent)]
    assert events and all(e.event.audience is None and not e.legal for e in events)
    private = [o for o in out if isinstance(o, SendEvent) and o.event.audience is not None]
    assert private and all(o.conn == 1 and o.event.audience == frozenset({0}) for o in private)


def test_an_intent_is_refused_with_the_engine_code() -> None:
    registry, _ = open_table()
    registry.request(1, "ana", {"t": "add_bot", "id": 2}, 0.0)
    registry.request(1, "ana", {"t": "ready", "id": 3, "ready": True}, 0.0)
    registry.request(1, "ana", {"t": "start", "id": 4}, 0.0)
    registry.take_outgoing()
    table = registry.tables[0]
    assert table.game is not None
    match = table.game.match
    while match.phase != "in_round":  # ana sends no seed: the phases end at their deadlines
        registry.tick(registry.next_deadline() or 0.0)
    registry.take_outgoing()
    not_mine = next(c for c in range(len(match.manifest)) if c not in match.view(0).hand)
    with pytest.raises(EngineError) as refused:  # a refused action leaves the match untouched
        match.apply(0, Play(not_mine))
    registry.intent(1, 7, Play(not_mine), 0.0)
    error = messages(registry.take_outgoing(), 1, "error")[0]
    assert error["ref"] == 7
    assert error["code"] == refused.value.code.value
    if match.pending_seat == 1:  # the bot's turn (or decision): ana may not draw
        registry.intent(1, 8, Draw(), 0.0)
        code = messages(registry.take_outgoing(), 1, "error")[0]["code"]
        expected = "not_your_turn" if match.round and match.round.phase == "turn" else (
            "not_your_decision"
        )
        assert code == expected


def _play_out_the_round(registry: Registry, now: float) -> float:
    """Ana (conn 1, seat 0) plays her first legal action each turn; bots and timers run."""
    table = registry.tables[0]
    assert table.game is not None
    match = table.game.match
    while match.phase != "in_round":  # the seed exchange: ana sends no seed, phases time out
        now = max(now, registry.next_deadline() or now)
        registry.tick(now)
    request = 100
    while match.phase != "between_rounds":
        if match.phase == "in_round" and match.pending_seat == 0:
            legal = match.legal_actions(0)
            plays = [a for a in legal if isinstance(a, Play)]
            request += 1
            registry.intent(1, request, (plays or legal)[0], now)
        else:
            now = max(now, registry.next_deadline() or now)
            registry.tick(now)
    registry.take_outgoing()
    return now


def _round_played() -> tuple[Registry, float]:
    registry, _ = open_table()
    registry.request(1, "ana", {"t": "set_rules", "id": 2, "options": {"target": 5000}}, 0.0)
    registry.request(1, "ana", {"t": "add_bot", "id": 3}, 0.0)
    registry.request(1, "ana", {"t": "ready", "id": 4, "ready": True}, 0.0)
    registry.request(1, "ana", {"t": "start", "id": 5}, 0.0)
    return registry, _play_out_the_round(registry, 0.0)


def test_the_next_round_waits_for_a_player_reading_the_scores() -> None:
    registry, now = _round_played()
    registry.request(1, "ana", {"t": "ready", "id": 50, "ready": False}, now)
    assert messages(registry.take_outgoing(), 1, "accepted") == [{"t": "accepted", "id": 50}]
    wait = FAST_TIMINGS.ready_wait
    registry.tick(now + wait / 2)
    assert not messages(registry.take_outgoing(), 1, "round_prepare")  # held
    assert registry.next_deadline() == now + wait  # the hold's end, not before
    registry.request(1, "ana", {"t": "ready", "id": 51, "ready": True}, now + wait / 2)
    registry.tick(now + wait / 2)
    assert messages(registry.take_outgoing(), 1, "round_prepare")  # released: dealt at once


def test_a_hold_ends_after_ready_wait() -> None:
    registry, now = _round_played()
    registry.request(1, "ana", {"t": "ready", "id": 50, "ready": False}, now)
    registry.take_outgoing()
    registry.tick(now + FAST_TIMINGS.ready_wait)
    assert messages(registry.take_outgoing(), 1, "round_prepare")


def test_nobody_holding_means_the_round_break_alone() -> None:
    registry, now = _round_played()
    registry.tick(now + FAST_TIMINGS.round_break)
    assert messages(registry.take_outgoing(), 1, "round_prepare")


def test_ready_during_a_round_is_refused() -> None:
    registry, _ = open_table()
    registry.request(1, "ana", {"t": "add_bot", "id": 3}, 0.0)
    registry.request(1, "ana", {"t": "ready", "id": 4, "ready": True}, 0.0)
    registry.request(1, "ana", {"t": "start", "id": 5}, 0.0)
    game = registry.tables[0].game
    assert game is not None
    now = 0.0
    while game.match.phase != "in_round":
        now = max(now, registry.next_deadline() or now)
        registry.tick(now)
    registry.take_outgoing()
    registry.request(1, "ana", {"t": "ready", "id": 6, "ready": False}, now)
    assert messages(registry.take_outgoing(), 1, "error")[0]["code"] == "game_in_progress"


def test_a_join_at_ones_own_table_moves_and_renames_keeping_the_table() -> None:
    """SPEC.md [UNO-8-8]: the owner moves without handing the table to the next human."""
    registry, _ = open_table()
    registry.request(2, "bo", {"t": "join_table", "id": 1, "table": 0, "name": "bo"}, 0.0)
    registry.take_outgoing()
    registry.request(1, "ana", {"t": "join_table", "id": 2, "table": 0, "name": "Ana",
                                "seat": 3}, 0.0)
    out = registry.take_outgoing()
    assert messages(out, 1, "accepted") == [{"t": "accepted", "id": 2}]
    assert not messages(out, 1, "seated")
    state = messages(out, 2, "table_state")[-1]
    assert state["owner"] == 3 and state["seats"][0]["kind"] == "empty"
    assert state["seats"][3]["name"] == "Ana" and messages(out, 1, "table_state")[-1]["you"] == 3
    registry.request(1, "ana", {"t": "add_bot", "id": 3}, 0.0)  # still the owner
    assert messages(registry.take_outgoing(), 1, "accepted") == [{"t": "accepted", "id": 3}]
    registry.request(1, "ana", {"t": "join_table", "id": 4, "table": 0, "name": "Ana",
                                "seat": 1}, 0.0)
    assert messages(registry.take_outgoing(), 1, "error")[0]["code"] == "seat_taken"
    registry.request(1, "ana", {"t": "join_table", "id": 5, "table": 7, "name": "Ana"}, 0.0)
    assert messages(registry.take_outgoing(), 1, "error")[0]["code"] == "unexpected_message"
    registry.request(2, "bo", {"t": "join_table", "id": 2, "table": 0, "name": "Bo"}, 0.0)
    state = messages(registry.take_outgoing(), 1, "table_state")[-1]
    assert state["seats"][1]["name"] == "Bo" and state["owner"] == 3  # a rename, same seat


def test_a_change_of_rules_unreadies_the_players() -> None:
    registry, _ = open_table()
    registry.request(1, "ana", {"t": "ready", "id": 2, "ready": True}, 0.0)
    registry.request(1, "ana", {"t": "set_rules", "id": 3, "options": {"uno_penalty": 4}}, 0.0)
    state = messages(registry.take_outgoing(), 1, "table_state")[-1]
    assert state["rules"]["uno_penalty"] == 4
    assert not state["seats"][0]["ready"]  # SPEC.md [UNO-8-9]


def test_the_servers_clock_sees_the_deadlines_a_full_scan_sees() -> None:
    """`clock_deadline`/`clock_tick` (recomputing only the tables touched) agree with
    `next_deadline`/`tick` (every table) while two tables play and a player comes and goes."""
    registry = Registry(FAST_TIMINGS)
    registry.touch_all()
    for conn, name in ((1, "ana"), (2, "bo")):
        registry.request(conn, name, {"t": "create_table", "id": 1, "name": name}, 0.0)
        registry.request(conn, name, {"t": "add_bot", "id": 2}, 0.0)
        registry.request(conn, name, {"t": "ready", "id": 3, "ready": True}, 0.0)
        registry.request(conn, name, {"t": "start", "id": 4}, 0.0)
    created = set(registry.tables)
    now = 0.0
    dealt: set[int] = set()  # tables seen playing a round (a match may also end in the run)
    for step in range(400):
        assert registry.clock_deadline() == registry.next_deadline()
        if step == 50:
            registry.disconnect(2, now)  # bo's table waits out the grace, then a bot takes over
        now = max(now, registry.clock_deadline() or now)
        registry.clock_tick(now)
        registry.take_outgoing()
        dealt |= {number for number, table in registry.tables.items()
                  if table.game is not None and table.game.match.round_no >= 1}
    assert registry.clock_deadline() == registry.next_deadline()
    # Both tables played. Bo's, left to bots alone, may finish its match within the run and
    # is then removed as abandoned (about once in 300 runs): the clock must not miss that.
    assert len(created) == 2 and dealt == created


def test_rule_changes_add_up_and_a_preset_starts_afresh() -> None:
    """Found in tmux: the owner set teams to pairs, then a round limit, and teams was off
    again: each set_rules restarted from the preset. SPEC.md: options go over the rules in
    force; only a `preset` restarts from it."""
    registry, _ = open_table()
    registry.request(1, "ana", {"t": "set_rules", "id": 2, "options": {"uno_penalty": 4}}, 0.0)
    registry.request(1, "ana", {"t": "set_rules", "id": 3, "options": {"target": 200}}, 0.0)
    rules = messages(registry.take_outgoing(), 1, "table_state")[-1]["rules"]
    assert (rules["uno_penalty"], rules["target"]) == (4, 200)
    registry.request(1, "ana", {"t": "set_rules", "id": 4, "preset": "official",
                                "options": {"target": 300}}, 0.0)
    rules = messages(registry.take_outgoing(), 1, "table_state")[-1]["rules"]
    assert (rules["uno_penalty"], rules["target"]) == (2, 300)


def test_a_change_of_variant_drops_what_the_old_variant_fixed() -> None:
    """Found in review: from No Mercy to classic without a preset, the table kept No Mercy's
    escalating stacking, 7-0 and six seats; and a house rule set earlier refused No Mercy by
    name. SPEC.md [UNO-8-12]: a change of variant puts back what either variant sets itself."""
    registry, _ = open_table()
    registry.request(1, "ana", {"t": "set_rules", "id": 2, "preset": "no_mercy",
                                "options": {}}, 0.0)
    registry.request(1, "ana", {"t": "set_rules", "id": 3, "options": {"variant": "classic"}},
                     0.0)
    rules = messages(registry.take_outgoing(), 1, "table_state")[-1]["rules"]
    assert rules["variant"] == "classic" and rules["target"] == 1000  # the preset's, kept
    assert (rules["stacking"], rules["seven_zero"], rules["max_players"]) == ("off", False, 10)
    # named after the variant now played (found in tmux: "flip: UNO Flip, changed" over a
    # classic game); its target stays the No Mercy preset's, so the lobby says "changed"
    assert registry.tables[0].settings.preset == "official"
    registry.request(1, "ana", {"t": "set_rules", "id": 4, "options": {"stacking": "same_kind"}},
                     0.0)
    registry.request(1, "ana", {"t": "set_rules", "id": 5, "options": {"variant": "no_mercy"}},
                     0.0)
    out = registry.take_outgoing()
    assert not messages(out, 1, "error")
    rules = messages(out, 1, "table_state")[-1]["rules"]
    assert (rules["variant"], rules["stacking"], rules["max_players"]) == ("no_mercy",
                                                                           "escalating", 6)
    assert registry.tables[0].settings.preset == "no_mercy"
    registry.request(1, "ana", {"t": "set_rules", "id": 6, "options": {"seven_zero": False}},
                     0.0)  # seed 003: an option of No Mercy, played as given
    rules = messages(registry.take_outgoing(), 1, "table_state")[-1]["rules"]
    assert (rules["variant"], rules["seven_zero"]) == ("no_mercy", False)
    registry.request(1, "ana", {"t": "set_rules", "id": 7,
                                "options": {"draw_when_playable": "allowed"}}, 0.0)
    (error,) = messages(registry.take_outgoing(), 1, "error")
    assert error["code"] == "invalid_rules" and "draw_when_playable=forbidden" in error["msg"]


def test_no_more_seats_fill_than_the_rules_seat() -> None:
    """Found in tmux: a No Mercy table (six players at most) took a seventh and an eighth
    (bots, then players), and its start was refused "max_players: a table needs 2 to 6
    seats, not 8"."""
    registry, _ = open_table()
    registry.request(1, "ana", {"t": "set_rules", "id": 2, "preset": "no_mercy",
                                "options": {}}, 0.0)
    for request in range(3, 8):  # five bots: six seated
        registry.request(1, "ana", {"t": "add_bot", "id": request}, 0.0)
    registry.take_outgoing()
    registry.request(1, "ana", {"t": "add_bot", "id": 8}, 0.0)
    (error,) = messages(registry.take_outgoing(), 1, "error")
    assert error["code"] == "table_full" and "at most 6" in error["msg"]
    registry.request(2, "bo", {"t": "join_table", "id": 1, "table": 0, "name": "Bo"}, 0.0)
    (error,) = messages(registry.take_outgoing(), 2, "error")
    assert error["code"] == "table_full"


def test_a_player_who_quits_in_mid_match_is_played_at_once_and_may_come_back() -> None:
    """Found in tmux: a player who chose to leave (q, y: bye quit) read to the others as
    "lost the connection", and their game waited out the grace period for a player who had
    said they were going. A bot plays the seat at once; the token still takes it back."""
    registry = Registry(FAST_TIMINGS)
    registry.request(1, "ana", {"t": "create_table", "id": 1, "name": "t"}, 0.0)
    token = messages(registry.take_outgoing(), 1, "seated")[0]["token"]
    registry.request(2, "bo", {"t": "join_table", "id": 1, "table": 0, "name": "Bo"}, 0.0)
    for conn, name in ((1, "ana"), (2, "bo")):
        registry.request(conn, name, {"t": "ready", "id": 3, "ready": True}, 0.0)
    registry.request(1, "ana", {"t": "start", "id": 4}, 0.0)
    table = registry.tables[0]
    assert table.game is not None
    registry.take_outgoing()
    registry.disconnect(1, 1.0, quit_=True)
    def ana() -> Seat:
        """Her seat, read afresh (mypy would keep what one assert narrowed)."""
        return next(seat for _, seat in table.room.occupied() if seat.name == "ana")

    assert ana().taken_over and ana().conn is None  # no grace to wait out
    (state,) = messages(registry.take_outgoing(), 2, "table_state")[-1:]
    assert any(s["name"] == "ana" and s["taken_over"] for s in state["seats"])
    found = registry.find_resume(bytes(token), 2.0)
    assert isinstance(found, tuple)  # her seat, still hers to take back
    registry.resume(3, found[0], found[1], 2.0)
    assert not ana().taken_over and ana().conn == 3


def test_every_seating_is_greeted_with_the_host_s_notice_a_resumed_one_too() -> None:
    """Found in tmux: a host resumed from its journal showed its own player no line on how
    friends join: the seat came back by token, and only join_table brought the notice."""
    registry = Registry(FAST_TIMINGS)
    registry.create_table(TableSettings("t", notice=host_notice("Friends join with: x",
                                                                "join_with")))
    registry.request(1, "ana", {"t": "join_table", "id": 1, "table": 0, "name": "ana"}, 0.0)
    out = registry.take_outgoing()
    token = messages(out, 1, "seated")[0]["token"]
    assert [m["notice"] for m in messages(out, 1, "chat_message")] == ["join_with"]
    registry.request(2, "bo", {"t": "join_table", "id": 1, "table": 0, "name": "bo"}, 0.0)
    for conn, name in ((1, "ana"), (2, "bo")):
        registry.request(conn, name, {"t": "ready", "id": 3, "ready": True}, 0.0)
    registry.request(1, "ana", {"t": "start", "id": 4}, 0.0)
    registry.disconnect(1, 1.0)
    registry.take_outgoing()
    found = registry.find_resume(bytes(token), 2.0)
    assert isinstance(found, tuple)
    registry.resume(3, found[0], found[1], 2.0)
    assert [m["notice"] for m in messages(registry.take_outgoing(), 3, "chat_message")] == [
        "join_with"]
