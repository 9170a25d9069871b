"""The link's protocol logic without sockets: a real registry's messages, framed by the host's
HostConnection, fed to a LinkSession in the chunks TCP may deliver."""

from __future__ import annotations

import os
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from client.link import (
    LobbyChanged,
    ManifestReceived,
    Refused,
    SeatNews,
    Snapshot,
    TrustReport,
    TrustStatus,
)
from client.link_session import LinkSession
from client.lobby import Leave
from client.trust_gate import TrustGate
from host.outgoing import SendEvent, SendMessage, SendSnapshot
from host.registry import Registry
from host.settings import FAST_TIMINGS
from host.table import TableSettings
from host.tls import build_certificate
from protocol.frames import FrameDecoder
from protocol.host_connection import HostConnection, packed_event, packed_legal
from protocol.trust.signing import Signer
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


def started_match() -> tuple[Registry, HostConnection, LinkSession, dict[str, Any]]:
    """A link seated at a headless table whose match has started; the manifest it got."""
    registry = Registry(FAST_TIMINGS)
    table = registry.create_table(TableSettings("t", RuleSet(), headless=True, target_seats=2,
                                                timings=FAST_TIMINGS))
    table.add_bot()
    host = HostConnection(0.0)
    link = LinkSession("me", table=0)
    host.receive_data(link.connect(), 0.0)
    link.receive(host.welcome())
    registry.request(1, "me", {"t": "join_table", "table": 0, "name": "me", "id": 1}, 0.0)
    registry.request(1, "me", {"t": "ready", "ready": True, "id": 2}, 0.0)
    manifests = [item.message for item in registry.take_outgoing()
                 if isinstance(item, SendMessage) and item.message["t"] == "manifest"]
    link.receive(host.send(manifests[0]))
    assert link.gate.verifier is not None
    return registry, host, link, dict(manifests[0])


def another_match(manifest: dict[str, Any]) -> dict[str, Any]:
    """A manifest of another match (new game_id), properly signed by its own key."""
    signer = Signer.generate()
    unsigned = {k: v for k, v in manifest.items() if k != "sig"}
    return signer.sign({**unsigned, "game_id": os.urandom(16), "signer": signer.signer})


def flagged(updates: list[Any]) -> list[str]:
    return [u.kind for u in updates if isinstance(u, TrustReport) and not u.ok]


def test_the_same_manifest_again_keeps_the_verifier_and_another_one_is_a_reset() -> None:
    _, host, link, manifest = started_match()
    verifier = link.gate.verifier
    out = link.receive(host.send(manifest))  # a re-entry: the same match
    assert link.gate.verifier is verifier and flagged(out.updates) == []
    out = link.receive(host.send(another_match(manifest)))
    assert flagged(out.updates) == ["match_id"]
    assert link.gate.verifier is not verifier and link.gate.verifier is not None
    status = next(u for u in out.updates if isinstance(u, TrustStatus))
    assert [c.kind for c in status.violations] == ["match_id"]
    assert [v.kind.value for v in link.gate.violations()] == ["match_id"]


def test_a_new_match_after_we_left_the_table_is_no_violation() -> None:
    _, host, link, manifest = started_match()
    verifier = link.gate.verifier
    out = link.command(Leave())
    assert flagged(out.updates) == []  # nothing was dealt yet: nothing owed
    out = link.receive(host.send(another_match(manifest)))
    assert flagged(out.updates) == [] and link.gate.verifier is not verifier


def test_on_tls_a_match_signed_by_another_key_than_the_certificate_s_is_caught() -> None:
    _, _, _, manifest = started_match()
    other = build_certificate(ec.generate_private_key(ec.SECP256R1()))
    link2 = LinkSession("me", table=0)
    host2 = HostConnection(0.0)
    host2.receive_data(link2.connect(other.public_bytes(serialization.Encoding.DER)), 0.0)
    link2.receive(host2.welcome())
    out = link2.receive(host2.send(manifest))
    assert flagged(out.updates) == ["signature"]
    status = next(u for u in out.updates if isinstance(u, TrustStatus))
    assert status.host_key and status.violations[0].kind == "signature"


def seated_link(registry: Registry, name: str) -> tuple[HostConnection, LinkSession]:
    """A link at table 0's lobby as connection 1, its table_state read."""
    host = HostConnection(0.0)
    link = LinkSession(name, table=0)
    host.receive_data(link.connect(), 0.0)
    link.receive(host.welcome())
    registry.request(1, name, {"t": "join_table", "table": 0, "name": name, "id": 1}, 0.0)
    link.receive(host_frames(registry, host))
    return host, link


def lobby_table() -> Registry:
    registry = Registry(FAST_TIMINGS)
    registry.create_table(TableSettings("t", RuleSet(), headless=True, target_seats=3,
                                        timings=FAST_TIMINGS))
    return registry


def bea_takes_a_seat(registry: Registry, host: HostConnection,
                     link: LinkSession) -> list[SeatNews]:
    """Bea (connection 2) joins table 0: the link reads it, news of one newcomer."""
    registry.request(2, "Bea", {"t": "join_table", "table": 0, "name": "Bea", "id": 1}, 0.0)
    came = [u for u in link.receive(host_frames(registry, host)).updates
            if isinstance(u, SeatNews)]
    assert [(u.what, u.name) for u in came] == [("took_seat", "Bea")]
    return came


def match_with_bea() -> tuple[Registry, HostConnection, LinkSession, int]:
    """Ana (whose link reads the news), Bea and a bot, all ready: the match is on. Returns
    Bea's seat too."""
    registry = lobby_table()
    host, link = seated_link(registry, "Ana")
    came = bea_takes_a_seat(registry, host, link)
    registry.tables[0].add_bot()
    registry.request(1, "Ana", {"t": "ready", "id": 5, "ready": True}, 0.0)
    registry.request(2, "Bea", {"t": "ready", "id": 5, "ready": True}, 0.0)
    link.receive(host_frames(registry, host))
    return registry, host, link, came[0].seat


def test_a_player_who_renames_in_the_lobby_is_one_rename_not_a_join_and_a_leave() -> None:
    registry = lobby_table()
    host, link = seated_link(registry, "Ana")
    came = bea_takes_a_seat(registry, host, link)
    registry.request(2, "Bea", {"t": "join_table", "table": 0, "name": "Ana", "id": 2}, 0.0)

    news = [u for u in link.receive(host_frames(registry, host)).updates
            if isinstance(u, SeatNews)]

    assert news == [SeatNews("renamed", "Ana 2", came[0].seat, "Bea")]  # made unique


def test_a_player_who_moves_to_another_seat_is_one_move_not_a_join_and_a_leave() -> None:
    """Found in tmux: the owner pressed 7 in the lobby, and the chat read "Hugo took seat
    7", then "Hugo left"."""
    registry = lobby_table()
    host, link = seated_link(registry, "Ana")
    came = bea_takes_a_seat(registry, host, link)
    other = next(seat for seat in range(3) if seat not in (0, came[0].seat))
    registry.request(2, "Bea", {"t": "join_table", "table": 0, "name": "Bea", "id": 2,
                                "seat": other}, 0.0)

    news = [u for u in link.receive(host_frames(registry, host)).updates
            if isinstance(u, SeatNews)]

    assert news == [SeatNews("moved", "Bea", other)]


def test_a_player_who_quits_in_mid_match_left_and_a_bot_plays_the_seat() -> None:
    """Found in tmux: a player who chose to leave (q, y) read to the others as "lost the
    connection"; the host plays the seat at once now, and the news says so."""
    registry, host, link, bea_seat = match_with_bea()
    assert registry.tables[0].game is not None  # the match is on
    registry.disconnect(2, 1.0, quit_=True)

    news = [u for u in link.receive(host_frames(registry, host)).updates
            if isinstance(u, SeatNews)]

    assert news == [SeatNews("left_bot", "Bea", bea_seat)]


def test_a_player_away_past_the_grace_period_is_news_when_the_bot_takes_over() -> None:
    """Found in tmux: a dropped player's seat went to a stand-in bot with no word in the chat;
    the seat just showed its stand-in."""
    registry, host, link, bea_seat = match_with_bea()
    registry.disconnect(2, 1.0)  # dropped, not quit: the seat waits for her

    dropped = [u for u in link.receive(host_frames(registry, host)).updates
               if isinstance(u, SeatNews)]
    registry.tick(1.0 + FAST_TIMINGS.grace + 1)
    later = [u for u in link.receive(host_frames(registry, host)).updates
             if isinstance(u, SeatNews)]

    assert dropped == [SeatNews("dropped", "Bea", bea_seat)]
    assert later == [SeatNews("stand_in", "Bea", bea_seat)]


def test_a_seat_that_changes_hands_is_still_a_leave_and_a_join() -> None:
    registry = lobby_table()
    host, link = seated_link(registry, "Ana")
    registry.request(2, "Bea", {"t": "join_table", "table": 0, "name": "Bea", "id": 1}, 0.0)
    link.receive(host_frames(registry, host))
    registry.request(2, "Bea", {"t": "leave", "id": 2}, 0.0)
    registry.request(3, "Cy", {"t": "join_table", "table": 0, "name": "Cy", "id": 1}, 0.0)

    news = [(u.what, u.name) for u in link.receive(host_frames(registry, host)).updates
            if isinstance(u, SeatNews)]

    assert ("renamed", "Cy") not in news and ("left", "Bea") in news
    assert ("took_seat", "Cy") in news


def test_after_a_reconnection_a_seat_that_changed_hands_meanwhile_is_no_rename() -> None:
    """The lobby a new connection sees is the scene, not news: the seat Bea left and Cy took
    while we were cut off is not told as Bea renaming herself Cy."""
    registry = lobby_table()
    first, link = seated_link(registry, "Ana")
    bea_takes_a_seat(registry, first, link)
    # Our connection is cut: we never read what follows until we are back.
    registry.request(2, "Bea", {"t": "leave", "id": 2}, 0.0)
    registry.request(3, "Cy", {"t": "join_table", "table": 0, "name": "Cy", "id": 1}, 0.0)
    registry.take_outgoing()
    host = HostConnection(0.0)  # back, on a new connection
    host.receive_data(link.connect(), 0.0)
    link.receive(host.welcome())
    registry.request(3, "Cy", {"t": "ready", "id": 2, "ready": True}, 0.0)

    out = link.receive(host_frames(registry, host))

    (lobby,) = [u.lobby for u in out.updates if isinstance(u, LobbyChanged)]
    assert {s.name for s in lobby.seats} >= {"Ana", "Cy"} and "Bea" not in \
        {s.name for s in lobby.seats}
    assert [u for u in out.updates if isinstance(u, SeatNews)] == []


def test_a_resumed_seat_is_checked_from_its_entry_a_taken_one_from_its_snapshot() -> None:
    """A resume (welcome names our seat; its `seated` renews the token) enters with the seat's
    own history: the verifier is the seat's from the manifest. A newcomer's `seated` in mid-match
    is followed by the round as a spectator got it: the verifier is a spectator's until the
    seat's snapshot ([UNO-8-7])."""
    _, _, _, manifest = started_match()
    resumed = TrustGate()
    resumed.connected(None)
    resumed.observe({"t": "welcome", "session": {"table": 0, "seat": 1}})
    resumed.observe({"t": "seated", "table": 0, "seat": 1, "token": b"t" * 16})
    resumed.observe(manifest)
    assert resumed.verifier is not None and resumed.verifier.seat == 1

    newcomer = TrustGate()
    newcomer.connected(None)
    newcomer.observe({"t": "welcome"})
    newcomer.observe({"t": "seated", "table": 0, "seat": 1, "token": b"t" * 16})
    newcomer.observe(manifest)
    assert newcomer.verifier is not None and newcomer.verifier.seat is None
    newcomer.observe({"t": "snapshot", "seq": 1, "view": {"seat": 1, "round_no": 1, "hand": []}})
    assert newcomer.verifier.seat == 1


def test_a_fatal_answer_to_a_request_is_said_once_by_the_connection_s_end() -> None:
    """Found in review: a fatal error answering our request (rate_limited, say) was said
    twice, as a refusal of what we did and again as why the connection ended; answering a
    join_table, the link then asked for the table list on the closed connection and raised."""
    host = HostConnection(0.0)
    link = LinkSession("me", table=0)
    host.receive_data(link.connect(), 0.0)
    out = link.receive(host.welcome())
    assert sent_types(bytes(out.frames)) == ["join_table"]
    out = link.receive(host.send({"t": "error", "ref": 1, "code": "rate_limited",
                                  "msg": "too many frames", "fatal": True}))
    assert not any(isinstance(update, Refused) for update in out.updates)
    assert out.ended is not None and out.ended.code == "rate_limited"
    link = LinkSession("me", table=0)
    host = HostConnection(0.0)
    host.receive_data(link.connect(), 0.0)
    link.receive(host.welcome())
    out = link.receive(host.send({"t": "error", "ref": 1, "code": "table_full",
                                  "msg": "these rules seat at most 6 players", "fatal": False}))
    assert [u.code for u in out.updates if isinstance(u, Refused)] == ["table_full"]
    assert out.ended is None


def only_the_last_table_state(frames: bytes, host: HostConnection) -> bytes:
    """`frames` with every table_state but the last left out: a lobby told once after several
    changes (SPEC.md says only that table_state is the whole state, sent on every change)."""
    decoder = FrameDecoder()
    decoder.receive_data(frames)
    messages = []
    while isinstance(frame := decoder.next_frame(), dict):
        messages.append(frame)
    last = max(i for i, m in enumerate(messages) if m["t"] == "table_state")
    out = bytearray()
    for index, message in enumerate(messages):
        if message["t"] != "table_state" or index == last:
            out += host.send(message)
    return bytes(out)


def test_a_leave_and_a_newcomer_in_one_lobby_update_are_a_leave_and_a_join() -> None:
    """Bea leaves and Cy sits in the seat she freed before our link reads the lobby again: a
    client that diffed two lobby snapshots read this as Bea renaming herself Cy. The host says
    what happened to each seat, and the player reads exactly that."""
    registry = lobby_table()
    host, link = seated_link(registry, "Ana")
    came = bea_takes_a_seat(registry, host, link)
    registry.request(2, "Bea", {"t": "leave", "id": 2}, 0.0)
    registry.request(3, "Cy", {"t": "join_table", "table": 0, "name": "Cy", "id": 1}, 0.0)

    frames = only_the_last_table_state(host_frames(registry, host), host)
    news = [u for u in link.receive(frames).updates if isinstance(u, SeatNews)]

    assert news == [SeatNews("left", "Bea", came[0].seat),
                    SeatNews("took_seat", "Cy", came[0].seat)]


def news_read(registry: Registry, host: HostConnection, link: LinkSession) -> list[SeatNews]:
    return [u for u in link.receive(host_frames(registry, host)).updates
            if isinstance(u, SeatNews)]


def test_a_dropped_player_who_takes_the_seat_back_is_back() -> None:
    registry, host, link, bea_seat = match_with_bea()
    table = registry.tables[0]
    registry.disconnect(2, 1.0)
    assert news_read(registry, host, link) == [SeatNews("dropped", "Bea", bea_seat)]

    registry.resume(4, table, bea_seat, 2.0)

    assert news_read(registry, host, link) == [SeatNews("back", "Bea", bea_seat)]


def test_a_newcomer_in_a_stand_ins_seat_took_it_over() -> None:
    registry, host, link, bea_seat = match_with_bea()
    registry.request(2, "Bea", {"t": "leave", "id": 9}, 1.0)
    assert news_read(registry, host, link) == [SeatNews("left_bot", "Bea", bea_seat)]

    registry.request(3, "Cy", {"t": "join_table", "table": 0, "name": "Cy", "id": 1}, 2.0)

    assert news_read(registry, host, link) == [SeatNews("took_over", "Cy", bea_seat)]


def test_a_move_under_another_name_is_a_rename_then_a_move() -> None:
    registry = lobby_table()
    host, link = seated_link(registry, "Ana")
    bea_takes_a_seat(registry, host, link)
    registry.request(2, "Bea", {"t": "join_table", "table": 0, "name": "Bice", "id": 2,
                                "seat": 2}, 0.0)

    assert news_read(registry, host, link) == [SeatNews("renamed", "Bice", 2, "Bea"),
                                               SeatNews("moved", "Bice", 2)]


def test_nobody_is_told_their_own_news() -> None:
    """Ana's own join, rename and move are on her screen as her seat, not as news."""
    registry = lobby_table()
    host, link = seated_link(registry, "Ana")
    registry.request(1, "Ana", {"t": "join_table", "table": 0, "name": "Anna", "id": 2,
                                "seat": 2}, 0.0)
    frames = host_frames(registry, host)
    assert "seat_news" not in sent_types(frames)
    assert [u for u in link.receive(frames).updates if isinstance(u, SeatNews)] == []


def test_a_lobby_snapshot_alone_is_no_news_and_an_unknown_what_is_ignored() -> None:
    """The client folds what the host tells; a table_state that shows another player in a seat
    says nothing by itself (SPEC.md [UNO-8-17]), and a kind of news a newer host may tell is
    passed over."""
    registry = lobby_table()
    host, link = seated_link(registry, "Ana")
    state = registry.tables[0].table_state(0)
    seats = [dict(seat) for seat in state["seats"]]
    seats[1] = {"seat": 1, "kind": "human", "name": "Cy", "ready": False, "connected": True,
                "taken_over": False}
    out = link.receive(host.send({**state, "seats": seats})
                       + host.send({"t": "seat_news", "table": 0, "what": "waved", "seat": 1,
                                    "name": "Cy"})
                       + host.send({"t": "seat_news", "table": 5, "what": "joined", "seat": 1,
                                    "name": "Cy"}))
    assert [u for u in out.updates if isinstance(u, SeatNews)] == []
    assert any(isinstance(u, LobbyChanged) for u in out.updates)
