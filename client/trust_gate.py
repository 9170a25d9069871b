"""The client's trust checks: a fresh verifier per match, our seed for each round, and which
outcomes the status line hears about.

`TrustGate` is the ClientSession's trust observer (protocol/trust_hook.py's VerifierObserver
inside). Two things make it more than that adapter:

- A connection that enters a match in the middle (a resume, a late spectator) gets the round's
  trust messages again, then a snapshot, then only the events after it. A verifier fed that would
  miss the cards dealt meanwhile and cry wolf, so messages between a `manifest` and its
  `snapshot` are not shown to it, nor the rest of that round's trust messages (its audit); it
  starts checking at the next round_prepare. (At a match start nothing comes between the
  manifest and the snapshot, so nothing is lost.)
- The session calls the gate as each message is decoded, before the link handles any of the
  read's messages, so the gate follows the seat (`welcome.session`, `seated`, `table_state.you`)
  and the deck (`manifest`) itself, in stream order: a manifest, its snapshot and the first
  round_prepare often arrive in one read, and the round must be seen (and seeded) from its
  start.
- `verify=False` (a load generator's bots: benchmarks/host.py) checks nothing: the gate
  still follows the seat and the deck and contributes our seed each round (the host would
  otherwise wait out its seed phase), but no event, deck commitment or audit is checked.
- Every card checked is not news; the status line gets the trust messages' outcomes, the
  challenge checks, and every violation.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from client import wire
from client.link import TrustReport
from protocol.client_session import GameEvent
from protocol.trust import TrustVerifier, Verified, Violation
from protocol.trust.messages import SeedCommit, SeedReveal
from protocol.trust_hook import CHECKED_MESSAGES, VerifierObserver
from unonet.cards import DeckManifest

REPORTED_EVENTS = frozenset({"challenged", "challenge_reveal"})
"""Events whose successful check is worth a status line: a challenge's verdict and hand."""


def report_of(message: Mapping[str, Any], outcome: object) -> TrustReport | None:
    """The status-line report for one outcome, or None when it is routine."""
    round_no = message.get("round")
    round_no = round_no if isinstance(round_no, int) else None
    if isinstance(outcome, Violation):
        return TrustReport(False, kind=outcome.kind.value, detail=outcome.detail,
                           round_no=round_no)
    if not isinstance(outcome, Verified):
        return None
    kind = message.get("t")
    event = message.get("event")
    event_type = event.get("type") if isinstance(event, Mapping) else None
    if kind in CHECKED_MESSAGES or (kind == "event" and event_type in REPORTED_EVENTS):
        return TrustReport(True, what=outcome.what, round_no=round_no)
    return None


SEED_MESSAGES = frozenset({"round_prepare", "seed_commits"})
"""What the verifier must see for us to contribute our seed, even when we check nothing."""


class TrustGate:
    """The session's observer; `verifier` is None until a manifest names the deck."""

    def __init__(self, *, verify: bool = True) -> None:
        self.verify = verify
        """False: contribute seeds, check nothing (the verifier then sees only round_prepare
        and seed_commits, and its violations mean nothing)."""
        self.seat: int | None = None
        self.verifier: TrustVerifier | None = None
        self.manifest: DeckManifest | None = None
        self._observer: VerifierObserver | None = None
        self._waiting_snapshot = False
        self._missed_rounds: set[int] = set()

    def new_match(self, manifest: DeckManifest) -> None:
        """A manifest arrived: a new verifier, deaf until the snapshot that follows."""
        self.manifest = manifest
        self.verifier = TrustVerifier(manifest, self.seat)
        self._observer = VerifierObserver(self.verifier)
        self._waiting_snapshot = True
        self._missed_rounds = set()

    def observe(self, message: Mapping[str, Any],
                event: GameEvent | None = None) -> TrustReport | None:
        """The session's hook: the report (if worth one) becomes the outcome of its
        TrustReport event. `event`: what the session decoded from an `event` message."""
        kind = message.get("t")
        if kind in ("welcome", "seated", "table_state", "manifest"):
            self._follow(message)
            return None
        if self._observer is None:
            return None
        if kind == "snapshot":
            self._waiting_snapshot = False
            return None
        round_no = message.get("round")
        if self._waiting_snapshot:
            if isinstance(round_no, int):
                self._missed_rounds.add(round_no)
            return None
        if round_no in self._missed_rounds:
            return None  # the rest of a round we came into late: nothing to check it against
        if not self.verify:
            if kind in SEED_MESSAGES:
                self._observer.observe(message)  # what our seed contribution needs
            return None
        return report_of(message, self._observer.observe(message, event))

    def _follow(self, message: Mapping[str, Any]) -> None:
        kind = message.get("t")
        if kind == "welcome":
            session = message.get("session")
            self.seat = session.get("seat") if isinstance(session, Mapping) else None
        elif kind == "seated" or (kind == "table_state" and message.get("you") is not None):
            seat = message.get("seat" if kind == "seated" else "you")
            self.seat = seat if isinstance(seat, int) else self.seat
        elif kind == "manifest":
            try:
                self.new_match(wire.manifest_from_wire(message))
            except wire.WireError:
                self.verifier = self._observer = self.manifest = None  # the link says why

    def contribution(self, message: Mapping[str, Any]) -> SeedCommit | SeedReveal | None:
        """Our part of the seed exchange after `round_prepare` or `seed_commits`, if any.

        Only for a round this verifier saw prepared (not one we rejoined in the middle of), and
        only as a seated player.
        """
        verifier = self.verifier
        if verifier is None or self.seat is None or self._waiting_snapshot:
            return None
        current = verifier.current
        if current is None or current.round_no != message.get("round"):
            return None
        if message.get("t") == "round_prepare" and current.own_seed is None:
            return verifier.contribute()
        if (message.get("t") == "seed_commits" and current.own_seed is not None
                and not current.own_revealed):
            return verifier.reveal()
        return None
