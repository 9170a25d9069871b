"""The client's fold held to the engine, step by step: every seat and a spectator fold the
events their audience gets (client/fold.py), and each fold must equal `observe` after every
batch. Shared by the fold tests of the variants."""

from __future__ import annotations

from collections.abc import Sequence

from client.bounds import check_event, check_view
from client.fold import ViewTracker
from unonet import events as ev
from unonet.match import Match
from unonet.view import observe


def trackers_of(match: Match) -> dict[int | None, ViewTracker]:
    """A fold per seat and one for a spectator (None), from the views they start with."""
    observers: list[int | None] = [*range(match.seats), None]
    return {who: ViewTracker(observe(match, who), match.manifest) for who in observers}


def fold_step(
    match: Match, trackers: dict[int | None, ViewTracker], events: Sequence[ev.Event], where: str
) -> None:
    """Give each fold what its audience got of `events`, then hold it to the engine's view.
    Every event and view is also within client/bounds.py's checks: a real match's never
    counts as a hostile host's."""
    deck = len(match.manifest)
    for event in events:
        check_event(event, match.seats, deck)
    for who, tracker in trackers.items():
        for event in events:
            audience = event.audience
            if audience is None or (who is not None and who in audience):
                tracker.apply(event)
        view = observe(match, who)
        check_view(view, deck)
        assert tracker.view == view, f"seat {who} {where}: {list(events)}"
