"""Plugs the trust layer's `TrustVerifier` into `ClientSession`'s observer hook.

The session hands every host message it accepts to `observe`; this adapter turns the wire
dicts into what the verifier takes (trust messages as typed values, events as engine events
with their proof fields) and returns the verifier's `Verified` or `Violation`. A proof the
verifier cannot read is reported as a violation, never raised: a dishonest host is an expected
input.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from protocol.client_session import GameEvent
from protocol.game_codec import UnknownEvent, decode_event
from protocol.trust import (
    MESSAGE_TYPES,
    EventProof,
    MalformedTrustMessage,
    Outcome,
    TrustVerifier,
    Violation,
    ViolationKind,
    message_from_dict,
)

CHECKED_MESSAGES = frozenset({"round_prepare", "seed_commits", "deck_commits", "round_audit"})
"""Host messages the verifier checks; `event` messages go to it as engine events."""


class VerifierObserver:
    """`ClientSession(trust=VerifierObserver(TrustVerifier(manifest, seat)))`, or assign
    `session.trust` once the manifest and the seat are known."""

    def __init__(self, verifier: TrustVerifier) -> None:
        self.verifier = verifier

    def observe(self, message: Mapping[str, Any],
                event: GameEvent | None = None) -> Outcome | None:
        """`event`: what the session decoded from an `event` message (decoded here if None)."""
        kind = message.get("t")
        try:
            if kind in CHECKED_MESSAGES and kind in MESSAGE_TYPES:
                return self.verifier.message(message_from_dict(str(kind), message))
            if kind == "event":
                engine_event = (event.event if event is not None
                                else decode_event(message["event"]).event)
                if isinstance(engine_event, UnknownEvent):
                    return None
                return self.verifier.event(engine_event, EventProof.from_dict(message["event"]))
        except MalformedTrustMessage as exc:
            return Violation(ViolationKind.MALFORMED, str(exc))
        return None
