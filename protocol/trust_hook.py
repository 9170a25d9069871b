"""Plugs the trust layer's `TrustVerifier` into `ClientSession`'s observer hook.

The session hands every host message it accepts to `observe`; this adapter turns the wire
dicts into what the verifier takes (the manifest as a MatchIdentity, trust messages as typed
values, a round_history with its events decoded, events as engine events with their proof fields
and the map as received, for the events digest), checks the signature of each signed message
first, and returns the verifier's `Verified` or `Violation`. Input the verifier cannot read is
reported as a violation, never raised: a dishonest host is an expected input.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from protocol.client_session import GameEvent
from protocol.errors import ProtocolError
from protocol.game_codec import decode_event
from protocol.trust.messages import (
    MESSAGE_TYPES,
    SIGNED_MESSAGES,
    EventProof,
    MalformedTrustMessage,
    MatchIdentity,
    RoundHistory,
    message_from_dict,
)
from protocol.trust.results import Outcome, Verified, Violation
from protocol.trust.verifier import TrustVerifier

CHECKED_MESSAGES = frozenset(
    {"round_prepare", "seed_commits", "seed_reveals", "deck_commits", "round_audit"}
)
"""Per-round host messages the verifier checks; `event` messages go to it as engine events,
`manifest` as the match's identity, `round_history` as events it compares or checks."""


class VerifierObserver:
    """`ClientSession(trust=VerifierObserver(TrustVerifier(match, seat)))`, or assign
    `session.trust` once the manifest and the seat are known. Keep the verifier (not this
    adapter) across connections: a match is checked by one verifier from start to end."""

    def __init__(self, verifier: TrustVerifier) -> None:
        self.verifier = verifier

    def observe(self, message: Mapping[str, Any],
                event: GameEvent | None = None) -> Outcome | None:
        """`event`: what the session decoded from an `event` message (decoded here if None)."""
        kind = message.get("t")
        verifier = self.verifier
        try:
            if kind == "event":
                return self._event(message, event)
            if kind == "round_history":
                history = RoundHistory.from_dict(message)
                return verifier.history(history, history.decoded())
            if kind == "manifest":
                identity = MatchIdentity.from_dict(message)
                return _first(verifier.check_signature(message), verifier.message(identity))
            if kind in CHECKED_MESSAGES and kind in MESSAGE_TYPES:
                signed = verifier.check_signature(message) if kind in SIGNED_MESSAGES else None
                return _first(signed, verifier.message(message_from_dict(str(kind), message)))
        except (MalformedTrustMessage, ProtocolError) as exc:
            return verifier.malformed(str(exc))
        return None

    def _event(self, message: Mapping[str, Any], event: GameEvent | None) -> Outcome:
        wire = message.get("event")
        if not isinstance(wire, Mapping):
            raise MalformedTrustMessage("an event message without an event map")
        engine_event = event.event if event is not None else decode_event(wire).event
        return self.verifier.event(engine_event, EventProof.from_dict(wire), wire)


def _first(*outcomes: Outcome | None) -> Outcome:
    """The first violation among the outcomes, else the last verdict (what was checked)."""
    verdicts = [o for o in outcomes if o is not None]
    return next((o for o in verdicts if isinstance(o, Violation)), verdicts[-1]
                if verdicts else Verified())
