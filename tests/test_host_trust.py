"""What the host publishes for the trust scheme (issue 11), on the sans-IO registry: every seed
shown once the reveal phase closes, every round audited with its outcome and the digest of the
public events it sent, every signed message signed by the manifest's key, and a connection that
enters a round in the middle given the round so far (its own private events only) before its
snapshot. A player at seat 0 plays against two of the host's bots; the checks recompute what
the host claims from what the player received."""

from __future__ import annotations

import secrets
from typing import Any

import msgpack
from host_receiver import Receiver, public_digest
from seat_play import plays_a_card

from host.outgoing import Outgoing
from host.registry import Registry
from host.round_log import HISTORY_BYTES, HISTORY_EVENTS, RoundLog
from host.settings import FAST_TIMINGS
from host.table import Table, TableSettings
from protocol.game_codec import decode_event, encode_event
from protocol.messages import Role, validate_message
from protocol.trust.host import HostCommitments
from protocol.trust.primitives import seed_commitment
from protocol.trust.signing import EventsDigest, certificate_signer
from unonet import events as ev
from unonet.match import IN_ROUND
from unonet.rules import RuleSet


class Player(Receiver):
    """Seat 0: commits and reveals a seed in every round (unless told to hold its reveal) and
    plays the last of its legal actions when the engine waits on it."""

    def __init__(self, conn: int = 1, *, reveal: bool = True) -> None:
        super().__init__(conn, 0)
        self.reveal = reveal
        self.seeds: dict[int, bytes] = {}
        self.to_send: list[dict[str, Any]] = []

    def _message(self, message: dict[str, Any]) -> None:
        super()._message(message)
        kind = message["t"]
        round_no = message.get("round")
        if kind == "round_prepare" and round_no not in self.seeds:
            assert isinstance(round_no, int)
            seed = self.seeds[round_no] = secrets.token_bytes(32)
            commit = seed_commitment(message["game_id"], round_no, 0, seed)
            self.to_send.append({"t": "seed_commit", "round": round_no, "commit": commit})
        elif kind == "seed_commits" and self.reveal and any(s == 0 for s, _ in
                                                            message["commits"]):
            assert isinstance(round_no, int)
            self.to_send.append({"t": "seed_reveal", "round": round_no,
                                 "seed": self.seeds[round_no]})


def open_table(rules: RuleSet | None = None, *,
               spectator: int | None = None) -> tuple[Registry, Table, Player]:
    """Ana at seat 0 (connection 1) and two bots; a spectator first if asked."""
    registry = Registry(FAST_TIMINGS)
    settings = TableSettings("t", rules or RuleSet(target=100), capacity=3, headless=True,
                             target_seats=3, timings=FAST_TIMINGS)
    table = registry.create_table(settings)
    registry.request(1, "ana", {"t": "join_table", "id": 1, "table": 0, "name": "ana"}, 0.0)
    table.add_bot()
    table.add_bot()
    player = Player()
    if spectator is not None:
        registry.request(spectator, "eve", {"t": "spectate", "id": 1, "table": 0}, 0.0)
    registry.request(1, "ana", {"t": "ready", "id": 2, "ready": True}, 0.0)
    return registry, table, player


class Driver:
    """Runs the table: the player's seeds and moves, and time jumping to each deadline."""

    def __init__(self, registry: Registry, table: Table, *watchers: Receiver) -> None:
        self.registry = registry
        self.table = table
        self.watchers = list(watchers)
        self.now = 0.0
        self.request = 100
        self.sent: list[Outgoing] = []

    @property
    def player(self) -> Player:
        found = self.watchers[0]
        assert isinstance(found, Player)
        return found

    def flush(self) -> None:
        out = self.registry.take_outgoing()
        self.sent += out
        for watcher in self.watchers:
            watcher.feed(out)

    def step(self) -> None:
        """One thing happens (a message or move of the player, or time moves on); what the
        host sent for it is fed to the watchers."""
        player = self.player
        game = self.table.game
        if player.to_send:
            self.registry.message(player.conn, player.to_send.pop(0), self.now)
        elif game is not None and game.match.phase == IN_ROUND and game.match.pending_seat == 0:
            self.request += 1
            legal = game.match.legal_actions(0)
            self.registry.intent(player.conn, self.request, plays_a_card(legal), self.now)
        else:
            deadline = self.registry.next_deadline()
            assert deadline is not None, "the table is stuck"
            self.now = max(self.now, deadline)
            self.registry.tick(self.now)
        self.flush()

    def until(self, done: Any, limit: int = 20_000) -> None:
        self.flush()
        for _ in range(limit):
            if done():
                return
            self.step()
        raise AssertionError("the match did not get there")

    def events(self) -> int:
        return sum(1 for kind in self.player.kinds() if kind == "event")


def in_round_with(driver: Driver, events: int) -> None:
    """Play until the player has received `events` events and a round is being played."""
    game = driver.table.game
    driver.until(lambda: driver.events() >= events and game is not None
                 and driver.table.game is not None
                 and driver.table.game.match.phase == IN_ROUND
                 and not driver.player.to_send)


def test_the_seeds_are_shown_to_all_once_the_reveal_phase_closes() -> None:
    registry, table, player = open_table(spectator=9)
    spectator = Receiver(9, None)
    driver = Driver(registry, table, player, spectator)
    in_round_with(driver, 30)
    for watcher in (player, spectator):
        kinds = [k for k in watcher.kinds() if k not in ("table_state", "accepted")]
        start = kinds.index("round_prepare")
        assert kinds[start:start + 4] == ["round_prepare", "seed_commits", "seed_reveals",
                                          "deck_commits"]
        assert kinds[start + 4] == "event"  # no event of the round before its seeds
    (reveals,) = spectator.messages("seed_reveals")
    (commits,) = spectator.messages("seed_commits")
    game_id = spectator.messages("round_prepare")[0]["game_id"]
    assert reveals["seeds"] == [[0, player.seeds[1]]] and reveals["absent"] == []
    for seat, seed in reveals["seeds"]:  # each listed seed opens its commitment
        assert [seat, seed_commitment(game_id, 1, seat, seed)] in commits["commits"]
    assert player.bad_signatures == [] and spectator.bad_signatures == []


def test_a_seed_never_revealed_is_listed_absent_in_the_reveals_and_the_audit() -> None:
    registry, table, _ = open_table(RuleSet(target=50))
    player = Player(reveal=False)
    driver = Driver(registry, table, player)
    driver.until(lambda: player.messages("round_audit"))
    (commits,) = player.messages("seed_commits")[:1]
    assert [seat for seat, _ in commits["commits"]] == [0]
    reveals = player.messages("seed_reveals")[0]
    audit = player.messages("round_audit")[0]
    assert (reveals["seeds"], reveals["absent"]) == ([], [0])
    assert (audit["seeds"], audit["absent"]) == ([], [0])


def test_every_round_is_audited_with_its_outcome_and_the_digest_of_its_public_events() -> None:
    registry, table, player = open_table(RuleSet(target=10000, max_rounds=3))
    driver = Driver(registry, table, player)
    driver.until(lambda: len(table.finished) == 1)
    manifests = [i for i, item in enumerate(player.items) if item.kind == "manifest"]
    assert len(manifests) == 1  # the next match waits for the player's r
    (game_id,) = {p["game_id"] for p in player.messages("round_prepare")}
    assert player.identity is not None and game_id == player.identity.game_id
    prepares = player.messages("round_prepare")
    audits = player.messages("round_audit")
    rounds = len(prepares)
    assert rounds == 3  # max_rounds
    assert [p["round"] for p in prepares] == list(range(1, rounds + 1))
    assert [a["round"] for a in audits] == list(range(1, rounds + 1))
    for number, audit in enumerate(audits, start=1):
        reveals = player.messages("seed_reveals")[number - 1]
        assert audit["outcome"] == "ended"
        assert (audit["seeds"], audit["absent"]) == (reveals["seeds"], reveals["absent"])
        assert audit["events_digest"] == public_digest(game_id, number,
                                                       player.round_events(number))
        assert audit["seeds"] == [[0, player.seeds[number]]]
    # The last round of the match is audited too, after match_ended.
    kinds = player.kinds()
    last_event = max(i for i, item in enumerate(player.items)
                     if item.kind == "event" and isinstance(item.event, ev.MatchEnded))
    assert kinds.index("round_audit", last_event) > last_event
    assert player.bad_signatures == []


def test_the_manifest_names_the_match_and_the_key_that_signs_it() -> None:
    registry, table, player = open_table()
    driver = Driver(registry, table, player)
    in_round_with(driver, 5)
    (manifest,) = player.messages("manifest")
    validate_message(manifest, Role.HOST)
    assert player.identity is not None and table.game is not None
    assert player.identity.signer == registry.signer.signer
    assert player.identity.game_id == table.game.game_id
    assert player.identity.seats == 3
    assert manifest["rules"] == player.messages("table_state")[-1]["rules"]
    assert player.identity.rules == table.rules
    assert player.identity.manifest == table.rules.manifest()
    assert player.bad_signatures == []
    # Every signed message is signed; a changed field is no longer what was signed.
    prepare = dict(player.messages("round_prepare")[0], round=2)
    player._message(prepare)
    assert player.bad_signatures == [prepare]


def history_of(watcher: Receiver, conn_items_from: int,
               round_no: int | None = None) -> list[dict[str, Any]]:
    """The events of every round_history (of round `round_no`, if given) received from item
    `conn_items_from` on, in order, checking that the chunks follow each other."""
    events: list[dict[str, Any]] = []
    for item in watcher.items[conn_items_from:]:
        if item.kind == "round_history" and round_no in (None, item.message["round"]):
            assert item.message["first"] == len(events)
            events += item.message["events"]
    return events


def test_a_resumed_player_gets_the_round_so_far_before_its_snapshot() -> None:
    registry, table, player = open_table()
    driver = Driver(registry, table, player)
    in_round_with(driver, 40)
    round_no = player.messages("round_prepare")[-1]["round"]
    live = [item.message for item in player.round_events(round_no)]
    token = next(m["token"] for m in player.messages("seated"))
    registry.disconnect(1, driver.now)
    driver.flush()
    found = registry.find_resume(token, driver.now)
    assert isinstance(found, tuple)
    mark = len(player.items)
    player.reconnect(2)
    registry.resume(2, found[0], found[1], driver.now)
    driver.flush()
    kinds = player.kinds()[mark:]
    assert kinds[:6] == ["seated", "manifest", "round_prepare", "seed_commits",
                         "seed_reveals", "deck_commits"]  # seated: the renewed token, first
    snapshot = kinds.index("snapshot")
    assert "round_history" in kinds and kinds.index("round_history") < snapshot
    assert all(k in ("deck_commits", "round_history") for k in kinds[5:snapshot])
    history = history_of(player, mark)
    assert history == live  # the same maps, its own cards and their nonces included
    private = [e for e in history if e["type"] == "cards_received"]
    assert private and all(e["seat"] == 0 for e in private)
    assert player.bad_signatures == []


def test_a_late_spectator_gets_the_public_events_of_the_round_only() -> None:
    registry, table, player = open_table()
    driver = Driver(registry, table, player)
    in_round_with(driver, 40)
    round_no = player.messages("round_prepare")[-1]["round"]
    public = [item.message for item in player.round_events(round_no)
              if item.event is not None and item.event.audience is None]
    spectator = Receiver(9, None)
    driver.watchers.append(spectator)
    registry.request(9, "eve", {"t": "spectate", "id": 1, "table": 0}, driver.now)
    driver.flush()
    kinds = spectator.kinds()
    assert kinds.index("round_history") < kinds.index("snapshot")
    history = history_of(spectator, 0)
    assert history == public
    assert not any(e["type"] in ("cards_received", "challenge_reveal") for e in history)
    assert spectator.bad_signatures == []


def test_an_entrant_between_rounds_gets_the_last_round_then_its_audit() -> None:
    registry, table, player = open_table(RuleSet(target=10000))
    driver = Driver(registry, table, player)
    driver.until(lambda: player.messages("round_audit"))
    assert table.game is not None and table.game.match.phase != IN_ROUND
    spectator = Receiver(9, None)
    driver.watchers.append(spectator)
    registry.request(9, "eve", {"t": "spectate", "id": 1, "table": 0}, driver.now)
    driver.flush()
    kinds = spectator.kinds()
    history, audit, snapshot = (kinds.index(k) for k in ("round_history", "round_audit",
                                                         "snapshot"))
    assert history < audit < snapshot
    (sent,) = player.messages("round_audit")
    assert spectator.messages("round_audit") == [sent]  # the very same signed audit
    public = [item.message for item in player.round_events(1)
              if item.event is not None and item.event.audience is None]
    assert history_of(spectator, 0) == public


def test_a_long_round_is_sent_in_chunks_that_fit_a_frame() -> None:
    commitments = HostCommitments(bytes(16), 3)
    commitments.freeze_commits()
    commitments.deal(108)
    log = RoundLog(bytes(16), 3)
    events: list[ev.Event] = [ev.Passed(1)] * 300
    events += [ev.Reshuffled(1, tuple((0, i) for i in range(100)), tuple(range(100)),
                             "empty_pile")] * 150
    events.append(ev.CardsReceived(2, ((0, 5),), (7,)))  # not seat 1's
    for event in events:
        log.add(event, {})
    chunks = log.history(1)
    assert [c["first"] for c in chunks][:2] == [0, HISTORY_EVENTS]
    total: list[dict[str, Any]] = []
    for chunk in chunks:
        validate_message(chunk, Role.HOST)
        assert len(chunk["events"]) <= HISTORY_EVENTS
        assert chunk["first"] == len(total)
        assert len(msgpack.packb(chunk, use_bin_type=True)) <= HISTORY_BYTES + 1024
        total += chunk["events"]
    assert total == [encode_event(e) for e in events[:-1]]
    assert len(log.history(2)) == len(chunks) and log.history(2)[-1]["events"][-1]["seat"] == 2
    digest = EventsDigest(bytes(16), 3)
    for event in events[:-1]:
        digest.add(encode_event(event))
    assert log.digest.value == digest.value


def test_the_host_key_signs_without_tls_and_is_the_certificates(tmp_path: Any) -> None:
    from cryptography import x509
    from cryptography.hazmat.primitives import serialization

    from host.tls import identity_signer, load_or_create_identity

    identity = load_or_create_identity(tmp_path)
    signer = identity_signer(identity)
    cert = x509.load_pem_x509_certificate(identity.cert_path.read_bytes())
    der = cert.public_bytes(serialization.Encoding.DER)
    assert certificate_signer(der) == signer.signer
    again = identity_signer(load_or_create_identity(tmp_path))  # kept, not made anew
    assert again.signer == signer.signer



# -- a client that comes back after a round boundary ---------------------------------------------


def away(driver: Driver, done: Any, limit: int = 20_000) -> None:
    """The player is disconnected: time moves on to each deadline (past the grace period a
    stand-in bot plays its seat) until `done()`."""
    for _ in range(limit):
        if done():
            return
        deadline = driver.registry.next_deadline()
        assert deadline is not None, "the table is stuck"
        driver.now = max(driver.now, deadline)
        driver.registry.tick(driver.now)
        driver.flush()
    raise AssertionError("the match did not get there")


def playing(table: Table, round_no: int) -> bool:
    """Trust round `round_no` is dealt and being played."""
    game = table.game
    return (game is not None and game.trust_round == round_no
            and game.round_log is not None and game.round_log.dealt
            and game.match.phase == IN_ROUND)


def drop_and_return(driver: Driver, registry: Registry, back_in: int) -> int:
    """Disconnect the player, let the table play on until round `back_in` is being played,
    resume it on a new connection; the index of its first item on that connection."""
    token = next(m["token"] for m in driver.player.messages("seated"))
    registry.disconnect(driver.player.conn, driver.now)
    driver.flush()
    away(driver, lambda: playing(driver.table, back_in))
    found = registry.find_resume(token, driver.now)
    assert isinstance(found, tuple)
    mark = len(driver.player.items)
    driver.player.reconnect(driver.player.conn + 1)
    registry.resume(driver.player.conn, found[0], found[1], driver.now)
    driver.flush()
    return mark


def public(wire: dict[str, Any]) -> bool:
    event = decode_event(wire).event
    return isinstance(event, ev.Event) and event.audience is None


def labelled(watcher: Receiver, start: int) -> list[tuple[str, int | None]]:
    """(kind, round) of each item from `start` to the snapshot, runs of one kind folded."""
    out: list[tuple[str, int | None]] = []
    for item in watcher.items[start:]:
        label = (item.kind, item.message.get("round"))
        if not out or out[-1] != label:
            out.append(label)
        if item.kind == "snapshot":
            break
    return out


def test_a_player_back_after_a_round_boundary_gets_the_rest_of_its_round_and_its_audit() -> None:
    registry, table, _ = open_table(RuleSet(target=10000))
    player = Player()
    player.verify_trust = True
    spectator = Receiver(9, None)
    registry.request(9, "eve", {"t": "spectate", "id": 1, "table": 0}, 0.0)
    driver = Driver(registry, table, player, spectator)
    in_round_with(driver, 40)
    assert playing(table, 1)
    live = [item.message for item in player.round_events(1)]
    mark = drop_and_return(driver, registry, 2)
    # Round 1 whole (its trust messages, the rest of its events, its audit), then round 2.
    assert labelled(player, mark) == [
        ("seated", None), ("manifest", None), ("round_prepare", 1), ("seed_commits", 1),
        ("seed_reveals", 1),
        ("deck_commits", 1), ("round_history", 1), ("round_audit", 1),
        ("round_prepare", 2), ("seed_commits", 2), ("seed_reveals", 2), ("deck_commits", 2),
        ("round_history", 2), ("snapshot", None)]
    history = history_of(player, mark, 1)
    assert history[:len(live)] == live and len(history) > len(live)
    watched = [item.message for item in spectator.round_events(1)]
    assert [e for e in history if public(e)] == watched
    (audit,) = spectator.messages("round_audit")[:1]
    assert player.messages("round_audit") == [audit]  # the same signed audit, late
    assert player.bad_signatures == []
    assert player.verifier is not None and player.verifier.violations() == []
    assert [r.status for r in player.verifier.rounds] == ["audited", "checking"]


def test_a_player_away_for_rounds_gets_each_round_signed_and_the_last_one_whole() -> None:
    registry, table, _ = open_table(RuleSet(target=10000))
    player = Player()
    spectator = Receiver(9, None)
    registry.request(9, "eve", {"t": "spectate", "id": 1, "table": 0}, 0.0)
    driver = Driver(registry, table, player, spectator)
    in_round_with(driver, 40)
    mark = drop_and_return(driver, registry, 4)
    assert labelled(player, mark) == [
        ("seated", None), ("manifest", None),
        *[(kind, n) for n in (1, 2) for kind in ("round_prepare", "seed_commits",
                                                   "seed_reveals", "round_audit")],
        ("round_prepare", 3), ("seed_commits", 3), ("seed_reveals", 3), ("deck_commits", 3),
        ("round_history", 3), ("round_audit", 3),
        ("round_prepare", 4), ("seed_commits", 4), ("seed_reveals", 4), ("deck_commits", 4),
        ("round_history", 4), ("snapshot", None)]
    for kind in ("round_prepare", "seed_commits", "seed_reveals", "round_audit"):
        sent = [m for m in spectator.messages(kind) if m["round"] <= 3]
        again = [m for m in player.items[mark:] if m.kind == kind]
        assert [m.message for m in again if m.message["round"] <= 3] == sent  # the very maps
    assert player.bad_signatures == []


def test_the_previous_round_is_kept_whole_and_earlier_ones_as_four_messages() -> None:
    registry, table, player = open_table(RuleSet(target=10000))
    driver = Driver(registry, table, player)
    driver.until(lambda: playing(table, 5))
    game = table.game
    assert game is not None and game.past.previous is not None
    assert game.past.previous.round_no == 4 and game.past.archived == 3
    assert [m["round"] for m in game.past.entry(0) if m["t"] == "round_prepare"] == [1, 2, 3, 4]


def test_a_resync_gets_the_round_so_far_before_its_snapshot() -> None:
    registry, table, player = open_table()
    driver = Driver(registry, table, player)
    in_round_with(driver, 40)
    round_no = player.messages("round_prepare")[-1]["round"]
    live = [item.message for item in player.round_events(round_no)]
    mark = len(player.items)
    registry.request(player.conn, "ana", {"t": "resync", "id": 99}, driver.now)
    driver.flush()
    kinds = player.kinds()[mark:]
    snapshot = kinds.index("snapshot")
    assert snapshot > 0 and set(kinds[:snapshot]) == {"round_history"}
    assert history_of(player, mark) == live
