"""One valid example of every message type, every seat action and every engine event: the
round-trip tests, the test vectors and the examples of SPEC.md sections 8 and 9 all come from
here. Byte values are fixed patterns, not secrets; card ids are those of the classic deck
(SPEC.md section 10), with the 8 buzzers after it (108-115).
"""

from __future__ import annotations

from typing import Any

from protocol.game_codec import encode_action, encode_event, encode_view, wire_name
from protocol.limits import HOST_LIMITS
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
    Pass,
    Play,
)
from unonet.cards import Color, Face, Kind, classic_manifest
from unonet.phase import Phase
from unonet.view import Pending, SeatView, View

_B16 = bytes(range(16))
_B32 = bytes(range(32))
_B32_2 = bytes(range(32, 64))
_TOKEN = bytes(range(0xA0, 0xC0))
_SIG = bytes(range(0x40, 0x80))
"""A signature's shape (64 bytes, r || s); not a valid signature of anything."""
_SIGNER = bytes.fromhex(
    "3059301306072a8648ce3d020106082a8648ce3d03010703420004"
) + bytes(range(1, 65))
"""A P-256 SubjectPublicKeyInfo's shape: the DER header of an uncompressed point, then x, y."""
_RULES = {"uno_penalty": 2, "stacking": "off", "think_time": None}

_LEGAL = [encode_action(Draw()), encode_action(Play(12)), encode_action(Play(100, Color.RED))]

_STACK_VIEW = View(
    seat=2, round_no=1, phase=Phase.STACK, dealer=0, current=2, direction=1,
    hand=(12, 38, 49, 100),
    seats=(SeatView(0, 5, 0, False, False), SeatView(1, 6, 0, False, False),
           SeatView(2, 4, 0, False, False)),
    top_card=48, active_color=Color.YELLOW, draw_pile=77, discard_pile=4, drawn_card=None,
    pending=Pending(Phase.STACK, 2, amount=4), round_winner=None, match_winner=None,
)
"""Seat 2 faces a stack of 4 (two Draw Twos, the top one yellow, 48): it may stack its own
yellow Draw Two (49) or accept. Its other cards: 12 red 6, 38 yellow 7, 100 a wild."""
_STACK_LEGAL = [encode_action(Play(49)), encode_action(Accept())]

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
         "preset": "official", "open": 2, "bots": 1}]},
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
                    "rules": _RULES,
                    "seats": [
                        {"seat": 0, "kind": "human", "name": "ada", "ready": True,
                         "connected": True, "taken_over": False},
                        {"seat": 1, "kind": "empty", "name": None, "ready": False,
                         "connected": False, "taken_over": False},
                    ], "spectators": 0, "started": False, "you": 0},
    "seat_news": {"t": "seat_news", "table": 0, "what": "left", "seat": 1, "name": "ada",
                  "bot": True},
    "seated": {"t": "seated", "table": 0, "seat": 1, "token": _TOKEN},
    "manifest": {"t": "manifest", **classic_manifest().to_dict(), "game_id": _B16, "seats": 3,
                 "rules": _RULES, "signer": _SIGNER, "sig": _SIG},
    "snapshot": {"t": "snapshot", "seq": 1, "view": encode_view(_STACK_VIEW),
                 "legal": _STACK_LEGAL},
    "event": {"t": "event", "seq": 2,
              "event": encode_event(ev.CardPlayed(0, 5, (0, 14), None, False), {"nonce": _B32}),
              "legal": _LEGAL},
    "intent": {"t": "intent", "id": 12, "action": encode_action(ChooseColor(Color.BLUE))},
    "accepted": {"t": "accepted", "id": 12},
    "resync": {"t": "resync", "id": 13},
    "penalize": {"t": "penalize", "id": 14, "seat": 2, "count": 2},
    "timer": {"t": "timer", "seats": [2], "ms": 30000, "kind": "turn"},
    "chat": {"t": "chat", "text": "good game"},
    "chat_message": {"t": "chat_message", "name": "ada", "seat": 1, "text": "good game"},
    "round_prepare": {"t": "round_prepare", "round": 1, "game_id": _B16, "host_commit": _B32,
                      "algo": "uno-shuffle-v1", "sig": _SIG},
    "seed_commit": {"t": "seed_commit", "round": 1, "commit": _B32_2},
    "seed_commits": {"t": "seed_commits", "round": 1, "commits": [[1, _B32_2], [2, _B32]],
                     "sig": _SIG},
    "seed_reveal": {"t": "seed_reveal", "round": 1, "seed": _B32_2},
    "seed_reveals": {"t": "seed_reveals", "round": 1, "seeds": [[1, _B32_2]], "absent": [2],
                     "sig": _SIG},
    "deck_commits": {"t": "deck_commits", "round": 1, "epoch": 0,
                     "commits": [_B32, _B32_2, _B32], "deck_commit": _B32_2, "sig": _SIG},
    "round_audit": {"t": "round_audit", "round": 1, "host_seed": _B32,
                    "seeds": [[1, _B32_2]], "absent": [2], "outcome": "ended",
                    "events_digest": _B32, "sig": _SIG},
    "round_history": {"t": "round_history", "round": 1, "first": 0, "events": [
        encode_event(ev.RoundStarted(1, 0, 108)),
        encode_event(ev.CardsDrawn(1, ((0, 0), (0, 3)), "deal")),
        encode_event(ev.CardsReceived(1, ((0, 0), (0, 3)), (17, 42)), {"nonces": [_B32, _B32_2]}),
        encode_event(ev.TopCardTurned(26, (0, 6)), {"nonce": _B32}),
    ]},
}

SHUTTING_DOWN_EXAMPLE: dict[str, Any] = {
    "t": "error", "code": "shutting_down", "fatal": True, "msg": "the host is stopping",
    "why": "host_left", "kept": True}
"""How a host that goes away says which way and whether the match is kept ([UNO-8-4])."""

PRIVATE_EVENT_EXAMPLE: dict[str, Any] = encode_event(
    ev.CardsReceived(1, ((0, 3), (0, 4)), (17, 42)), {"nonces": [_B32, _B32_2]}
)
"""A private event with proof fields (SPEC.md section 9.2)."""

ACTION_EXAMPLES: dict[str, Action] = {wire_name(type(a)): a for a in (
    Play(5, also=(7, 9)),  # a run: red 3, 4, 5 (sequences)
    Draw(),
    Pass(),
    ChooseColor(Color.BLUE),
    CallUno(),
    Catch(3),
    Challenge(),
    Accept(),
    Buzz(),
    ChooseTarget(3),
)}
"""One of every seat action (SPEC.md 9.3), as the intents of the test vectors carry them."""

_EVENTS: tuple[tuple[ev.Event, dict[str, Any]], ...] = (
    (ev.DealerDraw(0, ((0, 57), (1, 104), (2, 9))), {}),
    (ev.RoundStarted(1, 0, 108), {}),
    (ev.RoundEnded(0, ((), (12, 100), (38,)), (63, 0, 0), (63, 0, 0)), {}),  # 6 + 50 + 7
    (ev.MatchEnded(1, (120, 512, 87)), {}),
    (ev.CardsDrawn(2, ((0, 21), (0, 22)), "stack"), {}),
    (ev.CardsReceived(2, ((0, 21), (0, 22)), (17, 42)), {"nonces": [_B32, _B32_2]}),
    (ev.TopCardTurned(26, (0, 21)), {"nonce": _B32}),
    (ev.Reshuffled(1, ((0, 22), (0, 30)), (61, 88), "empty_pile"), {}),
    (ev.CardPlayed(0, 104, (0, 3), Color.GREEN, False), {"nonce": _B32, "hand_digest": _B32_2}),
    (ev.CardsReturned(1, ((0, 8), (0, 15), (1, 2)), "max_hand"), {}),
    (ev.TurnStarted(1, -1), {}),
    (ev.Skipped(2, "stack"), {}),
    (ev.DirectionChanged(-1), {}),
    (ev.ColorChosen(0, Color.RED), {}),
    (ev.Passed(1), {}),
    (ev.CannotDraw(1), {}),
    (ev.DecisionPending(2, Phase.STACK, 6), {}),
    (ev.UnoCalled(0), {}),
    (ev.UnoCaught(None, 1, 2), {}),
    (ev.FalseCatch(2, 0, 2), {}),
    (ev.CatchWindowClosed((0, 1)), {}),
    (ev.Challenged(1, 0, True), {}),
    (ev.ChallengeReveal(1, 0, (12, 38), ((0, 0), (0, 5)), Color.YELLOW),
     {"nonces": [_B32, _B32_2]}),
    (ev.Penalized(2, 2), {}),
    (ev.Expired(1, Phase.BUZZER), {}),
    (ev.MayPlayDrawn(1, 42), {}),
    (ev.DrawStacked(1, 4), {}),
    (ev.DrawDeflected(2, 0, 6), {}),
    (ev.JumpedIn(2, "jump_in"), {}),
    (ev.JumpInRefused(1, 47, 3), {}),
    (ev.HandsMoved(((0, 2, ((0, 1), (0, 9))), (2, 0, ((0, 4),))), "seven"), {}),
    (ev.BuzzerOpened(0, (0, 1, 2)), {}),
    (ev.Buzzed(2, 1), {}),
    (ev.BuzzerClosed((1,), 2), {}),
    (ev.KnockedOut(1, 25, 250), {}),
    (ev.Stalemate(2), {}),
    (ev.SeatEliminated(1, 512), {}),
    (ev.Flipped(1, 1, 63), {}),
    (ev.OtherSidesShown(2, ((0, 4), (0, 9)), (
        Face(Kind.NUMBER, Color.PINK, 7, 7), Face(Kind.WILD_DRAW_COLOR, None, None, 60),
    )), {}),
    (ev.PileOtherSideShown((0, 30), Face(Kind.DRAW_ONE, Color.BLUE, None, 10)), {}),
    (ev.DarkFacesShown(None, (63,), (Face(Kind.SKIP_EVERYONE, Color.ORANGE, None, 30),)), {}),
    # No Mercy, ids of its deck (SPEC 10): a red Discard All took red 0 (0) and red 9 (19)
    # with it; a roulette for green turned red 2 (5), then green 3 (78).
    (ev.CardsDiscarded(1, ((0, 2), (0, 9)), (0, 19)), {"nonces": [_B32, _B32_2]}),
    (ev.RouletteTurned(2, Color.GREEN, ((0, 60), (0, 61)), (5, 78)),
     {"nonces": [_B32, _B32_2]}),
    (ev.DrawCancelled(0, 14), {}),
)

EVENT_EXAMPLES: dict[str, dict[str, Any]] = {
    wire_name(type(event)): encode_event(event, proof) for event, proof in _EVENTS
}
"""One of every engine event (SPEC.md 9.2), encoded with the proof fields its type may carry."""
