"""The table owner's penalty (RULEBOOK.md 1.11) over the protocol: the `penalize` message."""

from __future__ import annotations

from host.outgoing import Outgoing, SendEvent, SendMessage
from host.registry import Registry
from host.settings import FAST_TIMINGS
from unonet import events as ev
from unonet.match import IN_ROUND


def dealt_table() -> Registry:
    """ana (conn 1, seat 0, owner) and bo (conn 2, seat 1), a round dealt."""
    registry = Registry(FAST_TIMINGS)
    registry.request(1, "ana", {"t": "create_table", "id": 1, "name": "t"}, 0.0)
    registry.request(2, "bo", {"t": "join_table", "id": 1, "table": 0, "name": "bo"}, 0.0)
    for conn in (1, 2):
        registry.request(conn, None, {"t": "ready", "id": 2, "ready": True}, 0.0)
    registry.request(1, "ana", {"t": "penalize", "id": 3, "seat": 1}, 0.0)
    lobby = [o for o in registry.take_outgoing() if isinstance(o, SendMessage)
             and o.message["t"] == "error"]
    assert [o.message["code"] for o in lobby] == ["wrong_phase"]  # no match yet
    registry.request(1, "ana", {"t": "start", "id": 4}, 0.0)
    table = registry.tables[0]
    while table.game is None or table.game.match.phase != IN_ROUND:
        registry.tick(registry.next_deadline() or 0.0)  # nobody seeds: the phases time out
    registry.take_outgoing()
    return registry


def kinds(out: list[Outgoing], conn: int) -> list[str]:
    return [o.message["t"] if isinstance(o, SendMessage) else type(o.event).__name__
            for o in out if o.conn == conn and isinstance(o, SendMessage | SendEvent)]


def test_the_owner_penalizes_a_seat_which_draws_in_public_and_receives_in_private() -> None:
    registry = dealt_table()
    match = registry.tables[0].game.match  # type: ignore[union-attr]
    before = len(match.view(1).hand)
    registry.request(1, "ana", {"t": "penalize", "id": 5, "seat": 1, "count": 3}, 1.0)
    out = registry.take_outgoing()
    assert len(match.view(1).hand) == before + 3
    owner = kinds(out, 1)
    assert owner[:3] == ["accepted", "Penalized", "CardsDrawn"]
    assert "CardsReceived" not in owner
    assert kinds(out, 2)[:3] == ["Penalized", "CardsDrawn", "CardsReceived"]
    drawn = next(o.event for o in out if isinstance(o, SendEvent) and o.conn == 2
                 and isinstance(o.event, ev.CardsDrawn))
    assert drawn.reason == "penalty_moderation" and len(drawn.positions) == 3


def test_only_the_owner_penalizes_and_only_seats_of_the_match() -> None:
    registry = dealt_table()
    registry.request(2, "bo", {"t": "penalize", "id": 5, "seat": 0}, 1.0)
    registry.request(1, "ana", {"t": "penalize", "id": 6, "seat": 7}, 1.0)
    errors = [o.message for o in registry.take_outgoing()
              if isinstance(o, SendMessage) and o.message["t"] == "error"]
    assert [(e["code"], e["ref"]) for e in errors] == [("not_owner", 5), ("unknown_seat", 6)]
