"""After a match a headless table (a dedicated server's, or `unonet play`'s) waits for its
players: the scores stay on their screens until each presses r, however long the break
(found in tmux: a dedicated server's table dealt the next match 15 s after each end while
the score screen offered "r rematch"). A table of bots alone plays on while watched.
Sans-IO, through the Registry, with the host's own clock jumped past every deadline."""

from __future__ import annotations

from seat_play import plays_a_card

from host.registry import Registry
from host.seating import HUMAN
from host.settings import FAST_TIMINGS
from host.table import Table, TableSettings
from unonet.match import IN_ROUND
from unonet.rules import RuleSet


def a_match_played_to_its_end() -> tuple[Registry, Table, float]:
    """Ana and a bot at a headless two-seat table, one round: Ana takes any legal action on
    her turns, time jumps to each deadline, until the match is over and its break passed."""
    registry = Registry(FAST_TIMINGS)
    table = registry.create_table(TableSettings(
        "t", RuleSet(max_rounds=1), capacity=2, headless=True, target_seats=2,
        timings=FAST_TIMINGS))
    table.add_bot()
    registry.request(1, "ana", {"t": "join_table", "id": 1, "table": 0, "name": "ana"}, 0.0)
    registry.request(1, "ana", {"t": "ready", "id": 2, "ready": True}, 0.0)
    mine = next(index for index, seat in table.room.occupied() if seat.kind == HUMAN)
    now, request = 0.0, 10
    for _ in range(20_000):
        game = table.game
        if table.matches_played == 1:
            return registry, table, now
        if game is not None and game.match.phase == IN_ROUND \
                and game.match.pending_seat == mine:
            request += 1
            registry.intent(1, request, plays_a_card(game.match.legal_actions(mine)), now)
        else:
            now = max(now, registry.next_deadline() or now) + 1.0
            registry.tick(now)
        registry.take_outgoing()
    raise AssertionError("the match never ended")


def test_after_the_break_a_headless_table_waits_for_its_player() -> None:
    registry, table, now = a_match_played_to_its_end()
    for _ in range(5):  # long after the break: whatever the table does, it has done
        now += 60.0
        registry.tick(now)
    ana = next(seat for _, seat in table.room.occupied() if seat.kind == HUMAN)
    assert not ana.ready and not playing(table)  # no match dealt under the scores
    registry.request(1, "ana", {"t": "ready", "id": 99, "ready": True}, now)
    assert playing(table)  # r: the next match starts


def playing(table: Table) -> bool:
    """A match is on at `table` (read afresh after each request)."""
    return table.game is not None and not table.game.over


def test_a_table_of_bots_plays_for_its_watchers_and_stops_when_nobody_is_left() -> None:
    """Found in tmux: a dedicated server's table seated by bots alone (`--bots 3 --seats 3`)
    started for its first watcher and then played on after the watcher left, match after
    match, journalled, for nobody, for as long as the host ran. Now it finishes the match it
    is in, then waits for someone to come and watch; the next watcher starts the next one."""
    registry = Registry(FAST_TIMINGS)
    table = registry.create_table(TableSettings(
        "bots", RuleSet(max_rounds=1), capacity=3, headless=True, target_seats=3,
        timings=FAST_TIMINGS))
    for _ in range(3):
        table.add_bot()
    assert not playing(table)  # nobody has come yet
    registry.request(1, "wes", {"t": "spectate", "id": 1, "table": 0}, 0.0)
    assert playing(table)  # a match for its watcher
    registry.request(1, "wes", {"t": "leave", "id": 2}, 0.0)
    now = 0.0
    for _ in range(20_000):
        if table.matches_played == 1:
            break
        now = max(now, registry.next_deadline() or now) + 1.0
        registry.tick(now)
        registry.take_outgoing()
    assert table.matches_played == 1  # the match it was in is played to its end
    for _ in range(5):  # long after the break
        now += 60.0
        registry.tick(now)
    assert table.game is None and table.matches_played == 1  # no match for nobody
    registry.request(2, "zoe", {"t": "spectate", "id": 1, "table": 0}, now)
    assert playing(table)
