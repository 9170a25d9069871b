"""ClientSession and HostConnection talking to each other, byte for byte, with no sockets."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol.client_session import (
    ClientSession,
    GameEvent,
    MessageReceived,
    PeerError,
    Pong,
    RequestAccepted,
    RequestRefused,
    ResyncNeeded,
    Snapshot,
    TrustReport,
    Welcomed,
)
from protocol.connection import ConnectionClosed, ConnectionFailed, Endpoint, MessageRefused
from protocol.errors import LocalProtocolError, ProtocolError
from protocol.examples import EXAMPLES
from protocol.frames import encode_frame
from protocol.host_connection import (
    HelloReceived,
    HostConnection,
    IntentReceived,
    RequestReceived,
)
from protocol.state import TRANSITIONS, ConnState
from protocol.versions import negotiate
from unonet.actions import Draw, Play
from unonet.cards import Color
from unonet.errors import EngineError, ErrorCode
from unonet.events import CardPlayed, TurnStarted


def state(endpoint: Endpoint) -> ConnState:
    """The endpoint's state read afresh (mypy keeps a re-read of `.state` narrowed)."""
    return endpoint.state


def connect(**client_options: Any) -> tuple[ClientSession, HostConnection]:
    client = ClientSession(name="ada", **client_options)
    host = HostConnection(now=0.0)
    events = host.receive_data(client.hello(), now=0.1)
    assert isinstance(events[0], HelloReceived)
    welcomed = client.receive_data(host.welcome())
    assert isinstance(welcomed[0], Welcomed)
    assert client.state is host.state is ConnState.READY
    return client, host


# -- handshake and versions -------------------------------------------------------------------


def test_handshake_reaches_ready_on_both_sides() -> None:
    client = ClientSession(name="ada", features=["chat"])
    host = HostConnection(now=0.0, features=["chat", "bots"])
    assert client.state is ConnState.IDLE and host.state is ConnState.HANDSHAKE
    [hello] = host.receive_data(client.hello(), now=0.0)
    assert isinstance(hello, HelloReceived)
    assert (hello.version, hello.name, hello.features) == (1, "ada", ("chat",))
    assert state(client) is ConnState.HANDSHAKE
    [welcomed] = client.receive_data(host.welcome())
    assert isinstance(welcomed, Welcomed)
    assert welcomed.version == 1 and welcomed.features == ("chat",)
    assert welcomed.limits["max_frame"] == 65536


def test_negotiate_picks_the_highest_common_version() -> None:
    assert negotiate([1, 2, 3], [2, 3, 4]) == 3
    with pytest.raises(ProtocolError) as info:
        negotiate([5], [1, 2])
    assert info.value.code == "unsupported_version" and info.value.fatal
    assert info.value.details == {"supported": [1, 2]}


def test_a_version_the_host_lacks_is_refused_with_its_list() -> None:
    client = ClientSession(versions=[7, 8])
    host = HostConnection(now=0.0)
    [failed] = host.receive_data(client.hello(), now=0.0)
    assert isinstance(failed, ConnectionFailed) and failed.error.code == "unsupported_version"
    assert host.state is ConnState.ERROR
    events = client.receive_data(host.data_to_send())
    assert isinstance(events[0], PeerError) and events[0].supported == (1,)
    assert isinstance(events[1], ConnectionFailed) and events[1].by_peer
    assert client.state is ConnState.ERROR


def test_the_first_message_must_be_hello() -> None:
    host = HostConnection(now=0.0)
    [failed] = host.receive_data(encode_frame({"t": "chat", "text": "hi"}), now=0.0)
    assert isinstance(failed, ConnectionFailed) and failed.error.code == "handshake_failed"
    assert b"handshake_failed" in host.data_to_send()


def test_a_client_waits_for_welcome_before_sending_more() -> None:
    client = ClientSession()
    host = HostConnection(now=0.0)
    data = client.hello() + encode_frame({"t": "ping", "n": 1})
    events = host.receive_data(data, now=0.0)
    assert isinstance(events[-1], ConnectionFailed)


def test_a_welcome_for_a_version_not_offered_fails_the_handshake() -> None:
    client = ClientSession()
    client.hello()
    welcome = {**EXAMPLES["welcome"], "v": 9}
    [failed] = client.receive_data(encode_frame(welcome))
    assert isinstance(failed, ConnectionFailed) and failed.error.code == "handshake_failed"


def test_the_host_may_refuse_a_valid_hello() -> None:
    client = ClientSession(resume=bytes(32))
    host = HostConnection(now=0.0)
    [hello] = host.receive_data(client.hello(), now=0.0)
    assert isinstance(hello, HelloReceived) and hello.resume == bytes(32)
    events = client.receive_data(host.refuse("invalid_resume", "no such seat"))
    assert isinstance(events[-1], ConnectionFailed)
    assert host.state is ConnState.ERROR


@pytest.mark.parametrize("name, why", [
    ("Host", "reserved"), ("\uff48\uff4f\uff53\uff54", "reserved"), ("   ", "empty"),
    ("x" * 33, "33 characters"),
])
def test_a_hello_name_no_table_would_take_fails_the_handshake(name: str, why: str) -> None:
    """[UNO-8-1]: the name is the player's default name at a table, so a name the table would
    refuse (reserved, blank, too long) is refused at once, not after the welcome."""
    host = HostConnection(now=0.0)
    hello = {**EXAMPLES["hello"], "name": name}
    [failed] = host.receive_data(encode_frame(hello), now=0.0)
    assert isinstance(failed, ConnectionFailed) and failed.error.code == "handshake_failed"
    assert why in failed.error.message and host.state is ConnState.ERROR


def test_no_hello_in_time_is_a_handshake_timeout() -> None:
    host = HostConnection(now=100.0)
    assert host.tick(105.0) == []
    assert host.next_deadline() == 110.0
    [failed] = host.tick(110.0)
    assert isinstance(failed, ConnectionFailed) and failed.error.code == "handshake_timeout"


def test_hello_cannot_be_sent_twice_and_nothing_before_it() -> None:
    client = ClientSession()
    with pytest.raises(LocalProtocolError):
        client.chat("too early")
    client.hello()
    with pytest.raises(LocalProtocolError):
        client.hello()


def test_the_state_table_has_no_exit_from_error() -> None:
    for (state, _), target in TRANSITIONS.items():
        if state is ConnState.ERROR:
            assert target is ConnState.ERROR


# -- requests ---------------------------------------------------------------------------------


def test_an_intent_is_accepted_by_id() -> None:
    client, host = connect()
    request, frame = client.intent(Play(12, Color.RED))
    [intent] = host.receive_data(frame, now=1.0)
    assert intent == IntentReceived(request, Play(12, Color.RED))
    [answer] = client.receive_data(host.accept(request))
    assert isinstance(answer, RequestAccepted) and answer.id == request
    assert client.pending == {}


def test_an_engine_refusal_comes_back_with_its_code() -> None:
    client, host = connect()
    request, frame = client.intent(Draw())
    host.receive_data(frame, now=1.0)
    error = EngineError(ErrorCode.NOT_YOUR_TURN, "seat 2 is to play")
    [answer] = client.receive_data(host.reject_engine(request, error))
    assert isinstance(answer, RequestRefused)
    assert answer.error.code == "not_your_turn" and not answer.error.fatal
    assert answer.request["t"] == "intent"
    assert client.state is ConnState.READY


def test_request_ids_increase_and_lobby_requests_reach_the_host() -> None:
    client, host = connect()
    first, frame1 = client.request("join_table", table=0, name="ada")
    second, frame2 = client.request("ready", ready=True)
    assert second == first + 1
    events = host.receive_data(frame1 + frame2, now=1.0)
    assert [e.id for e in events if isinstance(e, RequestReceived)] == [first, second]
    assert set(client.pending) == {first, second}


def test_an_invalid_request_is_refused_by_the_sender() -> None:
    client, _ = connect()
    with pytest.raises(LocalProtocolError):
        client.request("join_table", table="zero", name="ada")
    with pytest.raises(LocalProtocolError):
        client.request("chat", text="not a request")


def test_a_mistyped_intent_is_refused_with_its_ref_and_the_connection_lives() -> None:
    client, host = connect()
    frame = encode_frame({"t": "intent", "id": 5, "action": {"type": "play", "card": "x"}})
    [refused] = host.receive_data(frame, now=1.0)
    assert isinstance(refused, MessageRefused) and refused.error.code == "bad_message"
    reply = host.data_to_send()
    assert host.state is ConnState.READY
    [error] = client.receive_data(reply)
    assert isinstance(error, PeerError) and error.ref == 5 and not error.error.fatal


def test_an_unknown_message_type_gets_a_non_fatal_error() -> None:
    _, host = connect()
    [refused] = host.receive_data(encode_frame({"t": "teleport", "id": 3}), now=1.0)
    assert isinstance(refused, MessageRefused) and refused.error.code == "unknown_message"
    assert host.state is ConnState.READY and b"unknown_message" in host.data_to_send()


def test_a_client_ignores_host_messages_it_does_not_know() -> None:
    client, _ = connect()
    [ignored] = client.receive_data(encode_frame({"t": "fireworks"}))
    assert isinstance(ignored, MessageRefused) and client.data_to_send() == b""


# -- game events and sequence numbers -------------------------------------------------------------


def game_frames(host: HostConnection) -> list[bytes]:
    return [
        host.snapshot({"seat": 0, "hand": [1, 2]}, [Draw()]),
        host.event(TurnStarted(0, 1), [Draw(), Play(1)]),
        host.event(CardPlayed(0, 1, (0, 3), None, False), [], {"nonce": bytes(32)}),
    ]


def test_snapshot_then_events_in_sequence() -> None:
    client, host = connect()
    snapshot, turn, played = (client.receive_data(f)[0] for f in game_frames(host))
    assert isinstance(snapshot, Snapshot) and snapshot.legal == (Draw(),)
    assert isinstance(turn, GameEvent) and turn.seq == snapshot.seq + 1
    assert turn.event == TurnStarted(0, 1) and turn.legal == (Draw(), Play(1))
    assert isinstance(played, GameEvent) and played.proof == {"nonce": bytes(32)}
    assert client.expected_seq == played.seq + 1


def test_a_gap_in_sequence_asks_for_a_snapshot() -> None:
    client, host = connect()
    snapshot, _, played = game_frames(host)
    client.receive_data(snapshot)
    [resync] = client.receive_data(played)  # the event in between was lost
    assert resync == ResyncNeeded(expected=2, received=3)
    [request] = host.receive_data(client.data_to_send(), now=2.0)
    assert isinstance(request, RequestReceived) and request.message["t"] == "resync"
    assert client.receive_data(host.event(TurnStarted(1, 1), [])) == []  # dropped meanwhile
    [fresh] = client.receive_data(host.snapshot({"seat": 0}, []))
    assert isinstance(fresh, Snapshot)
    [after] = client.receive_data(host.event(TurnStarted(0, 1), []))
    assert isinstance(after, GameEvent)


def test_a_repeated_event_asks_for_a_snapshot() -> None:
    client, host = connect()
    snapshot, turn, _ = game_frames(host)
    client.receive_data(snapshot + turn)
    [resync] = client.receive_data(turn)
    assert isinstance(resync, ResyncNeeded) and resync.received == 2


def test_an_event_before_any_snapshot_asks_for_one() -> None:
    client, host = connect()
    [resync] = client.receive_data(host.event(TurnStarted(0, 1), []))
    assert resync == ResyncNeeded(expected=None, received=1)


# -- keepalive, close, errors -------------------------------------------------------------------


def test_pings_are_answered_by_the_protocol() -> None:
    client, host = connect()
    assert client.receive_data(encode_frame({"t": "ping", "n": 4})) == []
    assert client.data_to_send() == encode_frame({"t": "pong", "n": 4})
    frame = client.ping()
    assert host.receive_data(frame, now=1.0) == []
    assert client.receive_data(host.data_to_send()) == [Pong(1)]


def test_a_quiet_client_is_pinged_then_cut() -> None:
    _, host = connect()
    assert host.tick(10.0) == []
    host.tick(15.2)
    assert host.data_to_send() == encode_frame({"t": "ping", "n": 1})
    [failed] = host.tick(45.2)
    assert isinstance(failed, ConnectionFailed) and failed.error.code == "idle_timeout"


def test_a_flood_is_rate_limited() -> None:
    client, host = connect()
    flood = b"".join(client.chat("spam") for _ in range(200))
    events = host.receive_data(flood, now=1.0)
    assert isinstance(events[-1], ConnectionFailed)
    assert events[-1].error.code == "rate_limited"
    # the bucket refilled to its burst of 100 since the hello: 100 chats pass, the 101st fails
    assert len(events) == 101


def test_bye_closes_and_nothing_follows() -> None:
    client, host = connect()
    frame = client.close("quit")
    assert client.state is ConnState.CLOSED
    with pytest.raises(LocalProtocolError):
        client.chat("after bye")
    [closed] = host.receive_data(frame + encode_frame({"t": "chat", "text": "x"}), now=1.0)
    assert closed == ConnectionClosed("quit")
    assert host.state is ConnState.CLOSED


def test_eof_closes() -> None:
    client, _ = connect()
    assert client.receive_data(b"") == [ConnectionClosed(None)]
    assert client.state is ConnState.CLOSED


def test_garbage_fails_the_connection_and_later_input_raises() -> None:
    client, _ = connect()
    [failed] = client.receive_data(b"\x00\x00\x00\x01\xc1")
    assert isinstance(failed, ConnectionFailed) and failed.error.code == "bad_frame"
    assert b"bad_frame" in client.data_to_send()
    with pytest.raises(ProtocolError):
        client.receive_data(b"more")


def test_lobby_and_trust_messages_reach_the_client() -> None:
    client, host = connect()
    events = client.receive_data(host.send(EXAMPLES["table_state"]) + host.send(EXAMPLES["seated"]))
    assert [type(e) for e in events] == [MessageReceived, MessageReceived]


class _Recorder:
    def __init__(self) -> None:
        self.seen: list[str] = []

    def observe(self, message: Mapping[str, Any], event: object = None) -> object | None:
        self.seen.append(message["t"])
        return "checked" if message["t"] == "round_prepare" else None


def test_the_trust_observer_sees_every_host_message() -> None:
    recorder = _Recorder()
    client, host = connect(trust=recorder)
    events = client.receive_data(host.send(EXAMPLES["round_prepare"]) + game_frames(host)[0])
    assert recorder.seen == ["welcome", "round_prepare", "snapshot"]
    assert TrustReport("round_prepare", "checked") in events


# -- fuzzing a live connection ----------------------------------------------------------------

MESSAGES = sorted(EXAMPLES)


@st.composite
def mutated_frames(draw: st.DrawFn) -> bytes:
    names = draw(st.lists(st.sampled_from(MESSAGES), min_size=1, max_size=4))
    out = bytearray()
    for name in names:
        message = dict(EXAMPLES[name])
        if draw(st.booleans()) and len(message) > 1:
            key = draw(st.sampled_from(sorted(k for k in message if k != "t")))
            message[key] = draw(st.none() | st.integers(-5, 5) | st.text(max_size=3)
                                | st.binary(max_size=3) | st.lists(st.integers(), max_size=3))
        out += encode_frame(message) if _encodable(message) else b""
    if draw(st.booleans()) and out:
        at = draw(st.integers(0, len(out) - 1))
        out[at] ^= draw(st.integers(1, 255))
    return bytes(out)


def _encodable(message: dict[str, Any]) -> bool:
    try:
        encode_frame(message)
    except ProtocolError:
        return False
    return True


@settings(max_examples=300, deadline=None)
@given(mutated_frames())
def test_a_host_connection_survives_anything(data: bytes) -> None:
    _, host = connect()
    try:
        host.receive_data(data, now=1.0)
    except ProtocolError:
        assert host.state is ConnState.ERROR


@settings(max_examples=300, deadline=None)
@given(mutated_frames())
def test_a_client_session_survives_anything(data: bytes) -> None:
    client, _ = connect()
    try:
        client.receive_data(data)
    except ProtocolError:
        assert client.state is ConnState.ERROR


def test_the_trust_verifier_plugs_into_the_session() -> None:
    from protocol.trust.messages import MatchIdentity
    from protocol.trust.results import Verified, Violation, ViolationKind
    from protocol.trust.signing import Signer
    from protocol.trust.verifier import TrustVerifier
    from protocol.trust_hook import VerifierObserver

    signer = Signer.generate()
    identity = MatchIdentity.from_dict({**EXAMPLES["manifest"], "signer": signer.signer})
    client, host = connect()
    client.trust = VerifierObserver(TrustVerifier(identity, seat=0))
    events = client.receive_data(host.send(signer.sign(EXAMPLES["round_prepare"])))
    reports = [e for e in events if isinstance(e, TrustReport)]
    assert len(reports) == 1 and isinstance(reports[0].outcome, Verified)
    assert reports[0].message_type == "round_prepare"
    # The example's sig is a pattern, not a signature by the match's key: a violation.
    events = client.receive_data(host.send({**EXAMPLES["seed_commits"]}))
    (report,) = [e for e in events if isinstance(e, TrustReport)]
    assert isinstance(report.outcome, Violation)
    assert report.outcome.kind is ViolationKind.SIGNATURE


def test_dropped_events_are_not_shown_to_the_trust_observer() -> None:
    recorder = _Recorder()
    client, host = connect(trust=recorder)
    snapshot, turn, _ = game_frames(host)
    client.receive_data(snapshot + turn + turn)
    assert recorder.seen.count("event") == 1


def test_trust_messages_that_come_during_a_resync_wait_for_its_snapshot() -> None:
    """The events a resync drops come back in round_history before the snapshot; a round_audit
    that arrived meanwhile must be checked after them, or the audit's digest would miss them."""
    recorder = _Recorder()
    client, host = connect(trust=recorder)
    snapshot, _, played = game_frames(host)
    client.receive_data(snapshot)
    client.receive_data(played)  # a gap: the resync starts
    client.receive_data(host.event(TurnStarted(1, 1), []))  # dropped
    client.receive_data(host.send(EXAMPLES["round_audit"]))
    assert "round_audit" not in recorder.seen
    client.receive_data(host.send(EXAMPLES["round_history"]))
    client.receive_data(host.snapshot({"seat": 0}, []))
    assert recorder.seen[-3:] == ["round_history", "snapshot", "round_audit"]
