"""A verifying spectator on loopback for the whole-match network tests: it folds every public
event into its view (client/fold.py) and watches until the match's last round is audited."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import trio
import trio.testing

from client.fold import ViewTracker
from client.link import GameEvent, ManifestReceived, Snapshot, Update
from client.link_session import LinkSession
from protocol.client_session import SessionEvent
from protocol.limits import RECEIVE_CHUNK
from unonet import events as ev
from unonet.cards import DeckManifest
from unonet.match import Match
from unonet.view import View, observe


@dataclass
class Spectator:
    """What a verifying spectator folded: its view after each public event, and the events."""

    link: LinkSession = field(default_factory=lambda: LinkSession("eve", table=0,
                                                                  spectate=True))
    manifest: DeckManifest | None = None
    tracker: ViewTracker | None = None
    events: list[ev.Event] = field(default_factory=list)
    views: list[View] = field(default_factory=list)  # [0]: the snapshot's; then one per event
    ended: bool = False

    def take(self, updates: Sequence[Update]) -> None:
        for update in updates:
            if isinstance(update, ManifestReceived):
                self.manifest = update.manifest
            elif isinstance(update, Snapshot):
                assert self.manifest is not None and self.tracker is None, "one snapshot"
                self.tracker = ViewTracker(update.view, self.manifest)
                self.views.append(update.view)
            elif isinstance(update, GameEvent) and self.tracker is not None:
                self.events.append(update.event)
                self.views.append(self.tracker.apply(update.event))
                self.ended = self.ended or isinstance(update.event, ev.MatchEnded)

    @property
    def audited(self) -> list[int]:
        """The rounds the spectator's verifier audited."""
        return [r.round_no for r in self.link.gate.status().rounds if r.state == "audited"]

    @property
    def done(self) -> bool:
        """The match ended and its last round's audit came."""
        rounds = sum(1 for e in self.events if isinstance(e, ev.RoundEnded))
        return self.ended and rounds in self.audited


async def watch(
    listener: trio.SocketListener,
    spectator: Spectator,
    observe: Callable[[Sequence[SessionEvent]], None] | None = None,
) -> None:
    """Spectate table 0 until the match is over and audited; `observe` also sees every session
    event (a test's own record of what came)."""
    stream = await trio.testing.open_stream_to_socket_listener(listener)
    if observe is not None:
        spectator.link.observe = observe
    await stream.send_all(spectator.link.connect())
    while not spectator.done:
        data = bytes(await stream.receive_some(RECEIVE_CHUNK))
        assert data, "the host closed the spectator"
        out = spectator.link.receive(data)
        spectator.take(out.updates)
        if out.frames:
            await stream.send_all(bytes(out.frames))
    spectator.link.gate.leave()
    await stream.aclose()


def same_as_the_host(played: Match, spectator: Spectator) -> None:
    """Replay the host's log; after each step, the spectator's view folded through that step's
    public events must be the host's public view then."""
    replay = Match(played.rules, played.seats, played.seed)
    assert spectator.views[0] == observe(replay, None)
    seen = 0
    for seat, action in played.log:
        public = [e for e in replay.apply(seat, action) if e.audience is None]
        assert spectator.events[seen:seen + len(public)] == public, (seat, action)
        seen += len(public)
        assert spectator.views[seen] == observe(replay, None), (seat, action)
    assert seen == len(spectator.events)
