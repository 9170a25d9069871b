"""One valid example of every message type: the round-trip tests, the test vectors and the
examples of SPEC.md section 8 all come from here. Byte values are fixed patterns, not secrets.
"""

from __future__ import annotations

from typing import Any

from protocol.game_codec import encode_action, encode_event
from protocol.limits import HOST_LIMITS
from unonet.actions import ChooseColor, Draw, Play
from unonet.cards import Color, classic_manifest
from unonet.events import CardPlayed, CardsReceived

_B16 = bytes(range(16))
_B32 = bytes(range(32))
_B32_2 = bytes(range(32, 64))
_TOKEN = bytes(range(0xA0, 0xC0))

_LEGAL = [encode_action(Draw()), encode_action(Play(12)), encode_action(Play(100, Color.RED))]

EXAMPLES: dict[str, dict[str, Any]] = {
    "hello": {"t": "hello", "v": [1], "client": {"name": "unonet", "version": "0.1.0"},
              "features": [], "name": "ada"},
    "welcome": {"t": "welcome", "v": 1, "server": {"name": "unonet", "version": "0.1.0"},
                "features": [], "limits": dict(HOST_LIMITS)},
    "error": {"t": "error", "code": "not_your_turn", "fatal": False, "ref": 7,
              "msg": "seat 2 is to play"},
    "ping": {"t": "ping", "n": 3},
    "pong": {"t": "pong", "n": 3},
    "bye": {"t": "bye", "reason": "quit"},
    "list_tables": {"t": "list_tables", "id": 1},
    "tables": {"t": "tables", "tables": [
        {"table": 0, "name": "kitchen", "seats": 4, "players": 2, "started": False,
         "preset": "official"}]},
    "create_table": {"t": "create_table", "id": 2, "name": "kitchen", "preset": "official",
                     "options": {"uno_penalty": 4}},
    "join_table": {"t": "join_table", "id": 3, "table": 0, "name": "ada", "seat": 1},
    "spectate": {"t": "spectate", "id": 4, "table": 0},
    "ready": {"t": "ready", "id": 5, "ready": True},
    "set_rules": {"t": "set_rules", "id": 6, "preset": "seed000",
                  "options": {"stacking": "same_kind", "think_time": None}},
    "add_bot": {"t": "add_bot", "id": 7, "seat": 2, "level": "normal"},
    "remove_bot": {"t": "remove_bot", "id": 8, "seat": 2},
    "kick": {"t": "kick", "id": 9, "seat": 3},
    "start": {"t": "start", "id": 10},
    "leave": {"t": "leave", "id": 11},
    "table_state": {"t": "table_state", "table": 0, "name": "kitchen", "owner": 0,
                    "rules": {"uno_penalty": 2, "stacking": "off", "think_time": None},
                    "seats": [
                        {"seat": 0, "kind": "human", "name": "ada", "ready": True,
                         "connected": True},
                        {"seat": 1, "kind": "empty", "name": None, "ready": False,
                         "connected": False},
                    ], "spectators": 0, "started": False, "you": 0},
    "seated": {"t": "seated", "table": 0, "seat": 1, "token": _TOKEN},
    "manifest": {"t": "manifest", **classic_manifest().to_dict()},
    "snapshot": {"t": "snapshot", "seq": 1,
                 "view": {"seat": 1, "hand": [12, 100], "top_card": 5, "active_color": "red"},
                 "legal": _LEGAL},
    "event": {"t": "event", "seq": 2,
              "event": encode_event(CardPlayed(0, 5, (0, 14), None, False), {"nonce": _B32}),
              "legal": _LEGAL},
    "intent": {"t": "intent", "id": 12, "action": encode_action(ChooseColor(Color.BLUE))},
    "accepted": {"t": "accepted", "id": 12},
    "resync": {"t": "resync", "id": 13},
    "penalize": {"t": "penalize", "id": 14, "seat": 2, "count": 2},
    "chat": {"t": "chat", "text": "good game"},
    "chat_message": {"t": "chat_message", "name": "ada", "seat": 1, "text": "good game"},
    "round_prepare": {"t": "round_prepare", "round": 1, "game_id": _B16, "host_commit": _B32,
                      "algo": "uno-shuffle-v1"},
    "seed_commit": {"t": "seed_commit", "round": 1, "commit": _B32_2},
    "seed_commits": {"t": "seed_commits", "round": 1, "commits": [[1, _B32_2], [2, _B32]]},
    "seed_reveal": {"t": "seed_reveal", "round": 1, "seed": _B32_2},
    "deck_commits": {"t": "deck_commits", "round": 1, "epoch": 0,
                     "commits": [_B32, _B32_2, _B32], "deck_commit": _B32_2},
    "round_audit": {"t": "round_audit", "round": 1, "host_seed": _B32,
                    "seeds": [[1, _B32_2], [2, bytes(32)]], "absent": [2]},
}

PRIVATE_EVENT_EXAMPLE: dict[str, Any] = encode_event(
    CardsReceived(1, ((0, 3), (0, 4)), (17, 42)), {"nonces": [_B32, _B32_2]}
)
"""A private event with proof fields (SPEC.md section 9.2)."""
