"""What the host sends: checked in every test, and the same bytes when the checks are off."""

from __future__ import annotations

import pytest

from host.settings import ConnectionLimits
from protocol.client_session import ClientSession
from protocol.errors import LocalProtocolError
from protocol.host_connection import HostConnection, packed_event, packed_legal
from unonet.actions import HOST, StartRound
from unonet.match import Match
from unonet.rules import RuleSet


def ready(check: bool) -> HostConnection:
    host = HostConnection(0.0, check_outgoing=check)
    host.receive_data(ClientSession().hello(), 0.0)
    host.welcome()
    return host


def test_the_tests_check_every_frame_the_host_sends() -> None:
    assert ConnectionLimits().check_outgoing  # tests/conftest.py: UNONET_CHECK_OUTGOING=1
    with pytest.raises(LocalProtocolError):
        ready(True).send({"t": "accepted", "id": 1.5})


def test_unchecked_frames_are_the_same_bytes() -> None:
    match = Match(RuleSet(), 3, bytes(32))
    events = match.apply(HOST, StartRound())
    assert events
    checked, unchecked = ready(True), ready(False)
    view, legal = match.view(0), match.legal_actions(0)
    assert checked.snapshot(view, legal) == unchecked.snapshot(view, legal)
    assert checked.accept(7) == unchecked.accept(7)
    assert checked.reject(7, "not_your_turn", "wait") == unchecked.reject(7, "not_your_turn",
                                                                          "wait")
    legal = match.legal_actions(match.pending_seat or 0)
    assert legal
    for event in events:
        assert packed_event(event) == packed_event(event, check=False)
        assert (checked.event_packed(packed_event(event), packed_legal(legal))
                == unchecked.event_packed(packed_event(event, check=False),
                                          packed_legal(legal, check=False)))
    assert checked.event(events[0], legal) == unchecked.event(events[0], legal)


def test_an_event_frame_from_shared_parts_is_the_frame_event_builds() -> None:
    """event_packed (the host's path: parts encoded once, a frame per receiver) and event
    (encoded whole) give the same bytes, for legal lists empty or not and sequence numbers
    past msgpack's one-byte and two-byte forms."""
    match = Match(RuleSet(), 3, bytes(32))
    events = match.apply(HOST, StartRound())
    legal = match.legal_actions(match.pending_seat or 0)
    assert legal
    whole, shared = ready(True), ready(True)
    for _ in range(300):
        for event in events:
            for choice in (legal, []):
                assert shared.event_packed(packed_event(event), packed_legal(choice)) \
                    == whole.event(event, choice)
