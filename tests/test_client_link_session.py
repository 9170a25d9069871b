"""The link's protocol logic without sockets: a real registry's messages, framed by the host's
HostConnection, fed to a LinkSession in the chunks TCP may deliver."""

from __future__ import annotations

from client.link import ManifestReceived, Snapshot
from client.link_session import LinkSession
from host.outgoing import SendEvent, SendMessage, SendSnapshot
from host.registry import Registry
from host.settings import FAST_TIMINGS
from host.table import TableSettings
from protocol.frames import FrameDecoder
from protocol.host_connection import HostConnection, packed_event, packed_legal
from unonet.rules import RuleSet


def host_frames(registry: Registry, host: HostConnection) -> bytes:
    """What the registry queued for connection 1, as the host's writer would frame it."""
    out = bytearray()
    for item in registry.take_outgoing():
        if item.conn != 1:
            continue
        if isinstance(item, SendMessage):
            out += host.send(item.message)
        elif isinstance(item, SendSnapshot):
            out += host.snapshot(item.view, item.legal)
        elif isinstance(item, SendEvent):
            out += host.event_packed(packed_event(item.event, item.proof),
                                     packed_legal(item.legal))
    return bytes(out)


def sent_types(frames: bytes) -> list[str]:
    decoder = FrameDecoder()
    decoder.receive_data(frames)
    types = []
    while isinstance(frame := decoder.next_frame(), dict):
        types.append(frame["t"])
    return types


def test_a_match_start_in_one_read_is_verified_and_seeded_from_its_first_round() -> None:
    """seated, table_state, manifest, snapshot and round_prepare in one read: the trust gate
    follows the seat and the deck in stream order, so the link contributes its seed to the
    first round and the verifier sees that round from its start."""
    registry = Registry(FAST_TIMINGS)
    table = registry.create_table(TableSettings("t", RuleSet(), headless=True, target_seats=2,
                                                timings=FAST_TIMINGS))
    table.add_bot()
    host = HostConnection(0.0)
    link = LinkSession("me", table=0)
    host.receive_data(link.connect(), 0.0)
    out = link.receive(host.welcome())
    assert sent_types(bytes(out.frames)) == ["join_table"]
    registry.request(1, "me", {"t": "join_table", "table": 0, "name": "me", "id": 1}, 0.0)
    registry.request(1, "me", {"t": "ready", "ready": True, "id": 2}, 0.0)
    chunk = host_frames(registry, host)
    assert {"seated", "manifest", "snapshot", "round_prepare"} <= set(sent_types(chunk))

    out = link.receive(chunk)

    assert sent_types(bytes(out.frames)) == ["seed_commit"]
    assert any(isinstance(u, ManifestReceived) for u in out.updates)
    assert any(isinstance(u, Snapshot) for u in out.updates)
    assert link.seat == 1  # the bot took seat 0
    verifier = link.gate.verifier
    assert verifier is not None and verifier.seat == 1
    assert verifier.current is not None and verifier.current.own_seed is not None
