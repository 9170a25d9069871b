"""A host that stops (crash or kill) resumes from its journal, on the sans-IO registry: the same
match state, the same commitments; a round stopped in its reveal phase goes on and is dealt
(once seeds come in the host may know the deck: it may not give the round up), and a round
stopped in its commitment phase is audited as abandoned and dealt again under the next round
number, never re-dealt under the same one (SPEC.md 11.7).

The whole-process version (SIGKILL, `unonet host --resume`) is in test_host_kill.py.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from host_receiver import Receiver, public_digest
from seat_play import plays_a_card

from host.journal import FINISHED_DIR, Journal, load
from host.outgoing import Outgoing, SendEvent, SendMessage
from host.registry import Registry
from host.settings import FAST_TIMINGS
from host.table import Table, TableSettings
from protocol.frames import pack
from protocol.trust.signing import Signer
from unonet import events as ev
from unonet.match import IN_ROUND, MATCH_OVER
from unonet.rules import RuleSet


class Seat0(Receiver):
    """What seat 0 receives, on connection 1 before and after a restart, fed to a trust
    verifier that outlives the host."""

    def __init__(self) -> None:
        super().__init__(1, 0, verify_trust=True)

    @property
    def prepared(self) -> list[dict[str, Any]]:
        return self.messages("round_prepare")

    @property
    def snapshots(self) -> list[dict[str, Any]]:
        return self.messages("snapshot")


def unsigned(message: dict[str, Any]) -> dict[str, Any]:
    """A message without its signature (signing again after a restart gives another one)."""
    return {key: value for key, value in message.items() if key != "sig"}


def start_journaled(tmp_path: Path, rules: RuleSet | None = None,
                    ) -> tuple[Registry, Table, list[Outgoing]]:
    registry = Registry(FAST_TIMINGS)
    settings = TableSettings("t", rules or RuleSet(target=500), capacity=3, headless=True,
                             target_seats=3, timings=FAST_TIMINGS, journal_dir=tmp_path)
    table = registry.create_table(settings)
    registry.request(1, "ana", {"t": "join_table", "id": 1, "table": 0, "name": "ana"}, 0.0)
    table.add_bot()
    table.add_bot()
    registry.request(1, "ana", {"t": "ready", "id": 2, "ready": True}, 0.0)
    return registry, table, registry.take_outgoing()


def restart(tmp_path: Path, now: float, signer: Signer) -> tuple[Registry, Table]:
    """A new host process, as run.py builds it from `--resume JOURNAL`, with the host's key."""
    (path,) = tmp_path.glob("table0-*.jsonl")
    resumed = load(path)
    registry = Registry(FAST_TIMINGS, signer)
    settings = TableSettings("t", resumed.header.rules, capacity=3, headless=True,
                             target_seats=3, timings=FAST_TIMINGS, journal_dir=tmp_path)
    journal = Journal.open_append(path, resumed.valid_bytes)
    table = Table.from_journal(0, resumed, journal, settings, registry.outbox, now, signer)
    registry.add_table(table)
    return registry, table


def token_of(out: list[Outgoing], conn: int = 1) -> bytes:
    seated = next(o.message for o in out if isinstance(o, SendMessage)
                  and o.conn == conn and o.message["t"] == "seated")
    token = seated["token"]
    assert isinstance(token, bytes)
    return token


@pytest.mark.parametrize("revealed", [True, False], ids=["reveal journaled", "reveal lost"])
def test_a_round_stopped_in_its_reveal_phase_goes_on_and_is_dealt_under_its_number(
    tmp_path: Path, revealed: bool,
) -> None:
    """The host dies after seed_commits went out: the seeds were coming in, so it may have
    known the deck, and may not give the round up (SPEC.md [UNO-11-12]). Resumed, it sends the
    same round_prepare and seed_commits again, keeps the seed it had (or takes the reveal the
    player sends again, if it was lost with the host), and deals round 1 under its number:
    nothing to report, nothing abandoned."""
    registry, table, out = start_journaled(tmp_path)
    seat0 = Seat0()
    seat0.feed(out)
    token = token_of(out)
    assert seat0.verifier is not None and seat0.prepared[0]["round"] == 1
    commit = seat0.verifier.contribute()
    registry.message(1, {"t": "seed_commit", **commit.to_dict()}, 0.1)
    seat0.feed(registry.take_outgoing())  # seed_commits: every contributor is in
    reveal = seat0.verifier.reveal()
    if revealed:  # the reveal reached the journal; the host dies before dealing
        registry.message(1, {"t": "seed_reveal", **reveal.to_dict()}, 0.2)
    journal = table.game.journal  # type: ignore[union-attr]
    assert journal is not None
    journal.close()
    (path,) = tmp_path.glob("table0-*.jsonl")
    lines = path.read_text().splitlines()
    cut = next((i for i, line in enumerate(lines) if '"start_round"' in line), len(lines))
    path.write_text("\n".join(lines[:cut]) + "\n")  # the crash came before the StartRound line

    registry2, table2 = restart(tmp_path, 100.0, registry.signer)
    found = registry2.find_resume(token, 100.0)
    assert isinstance(found, tuple)
    assert table2.game is not None and table2.game.trust is not None
    # With every seed in, it deals at once; without, it waits for the reveal.
    assert table2.game.trust.round_no == 1 and table2.game.trust.keyed == revealed
    registry2.resume(1, found[0], found[1], 100.0)
    registry2.tick(100.0)
    seat0.feed(registry2.take_outgoing())
    if not revealed:  # the seed_commits sent again ask for it: the player reveals now
        registry2.message(1, {"t": "seed_reveal", **reveal.to_dict()}, 100.1)
        seat0.feed(registry2.take_outgoing())
    assert [p["round"] for p in seat0.prepared] == [1, 1]
    assert seat0.prepared[0] == seat0.prepared[1]
    assert [m["round"] for m in seat0.messages("seed_reveals")] == [1]
    assert seat0.messages("seed_reveals")[0]["absent"] == []
    game2 = table2.game
    assert game2.match.phase == IN_ROUND and game2.match.round_no == 1
    assert game2.trust is not None and game2.trust.round_no == 1
    assert seat0.verifier.violations() == [] and seat0.verifier.abandoned_rounds == 0
    resumed = load(path)
    assert resumed.commitments is not None and resumed.commitments.round_no == 1
    assert resumed.match.state() == game2.match.state()


def test_a_round_resumed_mid_play_republishes_the_same_commitments(tmp_path: Path) -> None:
    registry, table, out = start_journaled(tmp_path)
    seat0 = Seat0()
    seat0.feed(out)
    token = token_of(out)
    now = 0.0
    request = 10
    while table.game is None or table.game.match.phase != IN_ROUND or len(
        table.game.match.log) < 30:
        match = table.game.match if table.game is not None else None
        if match is not None and match.pending_seat == 0:  # ana plays her own turns
            request += 1
            legal = match.legal_actions(0)
            registry.intent(1, request, plays_a_card(legal), now)
        else:
            now = max(now, registry.next_deadline() or now)
            registry.tick(now)
        seat0.feed(registry.take_outgoing())
    game = table.game
    assert game.journal is not None
    game.journal.close()
    before = game.match.state()
    played = list(game.match.log)
    (path,) = tmp_path.glob("table0-*.jsonl")
    assert load(path).match.state() == before

    playing = seat0.prepared[-1]
    registry2, table2 = restart(tmp_path, now + 1, registry.signer)  # bots may move on at once
    found = registry2.find_resume(token, now + 1)
    assert isinstance(found, tuple)
    registry2.resume(1, found[0], found[1], now + 1)
    seat0.feed(registry2.take_outgoing())
    assert table2.game is not None and table2.game.match.log[: len(played)] == played
    assert seat0.snapshots[-1]["view"].hand == table2.game.match.view(0).hand
    assert unsigned(playing) in map(unsigned, seat0.prepared[-2:])  # the same: not a re-deal
    assert seat0.verifier is not None and seat0.verifier.violations() == []


def play_until(registry: Registry, table: Table, seat0: Seat0, now: float,
               stop: Callable[[list[Outgoing]], int | None]) -> float:
    """Ana plays her turns, time jumps to each deadline, and each batch of what the host
    sends goes to seat 0, until `stop` gives the index in a batch at which the host dies
    (seat 0 gets what came before it). Returns the time then."""
    request = 1000
    for _ in range(20_000):
        game = table.game
        if game is not None and game.match.phase == IN_ROUND and game.match.pending_seat == 0:
            request += 1
            registry.intent(seat0.conn, request, plays_a_card(game.match.legal_actions(0)),
                            now)
        else:
            now = max(now, registry.next_deadline() or now)
            registry.tick(now)
        out = registry.take_outgoing()
        cut = stop(out)
        seat0.feed(out if cut is None else out[:cut])
        if cut is not None:
            return now
    raise AssertionError("never got there")


def audit_index(out: list[Outgoing]) -> int | None:
    """Where a round_audit follows a round_ended in the batch: the host dies before it."""
    ended = any(isinstance(o, SendEvent) and isinstance(o.event, ev.RoundEnded) for o in out)
    return next((i for i, o in enumerate(out) if isinstance(o, SendMessage)
                 and o.message["t"] == "round_audit"), None) if ended else None


def test_a_host_stopped_as_a_round_ends_audits_it_on_resume_and_numbers_go_on(
    tmp_path: Path,
) -> None:
    registry, table, out = start_journaled(tmp_path, RuleSet(target=10_000))  # no match end
    seat0 = Seat0()
    seat0.feed(out)
    token = token_of(out)
    now = play_until(registry, table, seat0, 0.0, audit_index)
    assert seat0.messages("round_audit") == []  # the audit never left the dead host
    round_no = seat0.prepared[-1]["round"]
    live = [item.message for item in seat0.round_events(round_no)]
    assert table.game is not None and table.game.journal is not None
    table.game.journal.close()

    registry2, table2 = restart(tmp_path, now + 1, registry.signer)
    found = registry2.find_resume(token, now + 1)
    assert isinstance(found, tuple)
    mark = len(seat0.items)
    seat0.reconnect(2)
    registry2.resume(2, found[0], found[1], now + 1)
    seat0.feed(registry2.take_outgoing())
    kinds = [k for k in seat0.kinds()[mark:] if k != "table_state"]
    assert kinds[:5] == ["seated", "manifest", "round_prepare", "seed_commits",
                         "seed_reveals"]  # seated: the renewed token, first
    assert kinds.index("round_history") < kinds.index("round_audit") < kinds.index("snapshot")
    history = [e for m in seat0.messages("round_history") for e in m["events"]]
    assert history[: len(live)] == live and len(history) == len(live)  # nothing rewritten
    (audit,) = seat0.messages("round_audit")
    assert audit["round"] == round_no and audit["outcome"] == "ended"
    # Its digest is that of the public events seat 0 had when the host died: all of them.
    assert audit["events_digest"] == public_digest(audit_game_id(seat0), round_no,
                                                   seat0.round_events(round_no))
    # The match goes on with the next number, and every round so far is checked.
    play_until(registry2, table2, seat0, now + 1,
               lambda out: len(out) if any(isinstance(o, SendMessage) and o.message["t"] ==
                                           "round_audit" for o in out) else None)
    assert [a["round"] for a in seat0.messages("round_audit")] == [round_no, round_no + 1]
    assert seat0.prepared[-1]["round"] == round_no + 1
    assert seat0.verifier is not None and seat0.verifier.violations() == []
    assert seat0.bad_signatures == []


def audit_game_id(seat0: Seat0) -> bytes:
    assert seat0.identity is not None
    return seat0.identity.game_id


def test_a_match_played_to_its_end_leaves_its_journal_among_the_finished(
    tmp_path: Path,
) -> None:
    """Nothing resumes a finished match, so its journal becomes a record in finished/ (kept
    the newest FINISHED_KEPT), and the folder of resumable journals holds only live ones."""
    registry, table, out = start_journaled(tmp_path, RuleSet(max_rounds=1))
    seat0 = Seat0()
    seat0.feed(out)
    (live,) = tmp_path.glob("table0-*.jsonl")
    now = play_until(registry, table, seat0, 0.0,
                     lambda out: len(out) if any(isinstance(o, SendEvent) and
                                                 isinstance(o.event, ev.MatchEnded)
                                                 for o in out) else None)
    # The table is back in its lobby after the scores: in the same tick when a bot's move
    # ended the match, at the next one when Ana's own did (about 1 run in 20, as the deal
    # falls).
    run_until(registry, now, lambda: bool(table.finished))
    (ended,) = table.finished  # and the table may already have dealt the next match
    assert live.name not in [path.name for path in tmp_path.glob("table0-*.jsonl")]
    (kept,) = (tmp_path / FINISHED_DIR).glob("table0-*.jsonl")
    assert kept.name == live.name
    assert load(kept).match.log == ended.log
    assert load(kept).match.phase == MATCH_OVER


def run_until(registry: Registry, now: float, done: Callable[[], bool]) -> float:
    """Time jumps from deadline to deadline (the bots play, the seat's stand-in too once its
    grace is over) until `done`; nobody reads what the host sends. Returns the time then."""
    for _ in range(20_000):
        if done():
            return now
        now = max(now, registry.next_deadline() or now)
        registry.tick(now)
        registry.take_outgoing()
    raise AssertionError("never got there")


def dealt_round(table: Table, round_no: int, events: int = 1) -> Callable[[], bool]:
    """Whether the table plays trust round `round_no` (or a later one) with `events` sent."""
    def done() -> bool:
        log = table.game.round_log if table.game is not None else None
        return log is not None and (log.round_no > round_no or (
            log.round_no == round_no and log.dealt and log.count >= events))
    return done


def in_round(table: Table, round_no: int, events: int) -> Callable[[list[Outgoing]], int | None]:
    """A `play_until` stop: once the table has sent `events` events of trust round `round_no`."""
    return lambda out: len(out) if dealt_round(table, round_no, events)() else None


def entry_of(seat0: Seat0, mark: int) -> list[dict[str, Any]]:
    """The signed and history messages seat 0 got since `mark`, as sent (its new token and the
    table's state aside), and the snapshot's view last."""
    kept = ("manifest", "round_prepare", "seed_commits", "seed_reveals", "deck_commits",
            "round_history", "round_audit", "snapshot")
    return [{"t": item.kind, **item.message} for item in seat0.items[mark:] if item.kind in kept]


def away_across_a_restart(
    tmp_path: Path, registry: Registry, table: Table, seat0: Seat0, now: float, token: bytes, *,
    away: tuple[int, int], dies_in: int, conn: int,
) -> tuple[Registry, Table, float, int]:
    """Ana plays until she drops in round `away[0]`; the host plays on, dies once round
    `dies_in` is dealt and is resumed from its journal; it plays on until round `away[1]` is
    dealt and Ana comes back on connection `conn` with `token`, her entry ending at its
    snapshot. Returns the resumed host, the time, and where her entry starts in her items."""
    now = play_until(registry, table, seat0, now, in_round(table, away[0], 20))
    registry.disconnect(seat0.conn, now)
    now = run_until(registry, now, dealt_round(table, dies_in, 10))
    assert table.game is not None and table.game.journal is not None
    table.game.journal.close()
    registry2, table2 = restart(tmp_path, now + 1, registry.signer)
    now = run_until(registry2, now + 1, dealt_round(table2, away[1]))
    found = registry2.find_resume(token, now)
    assert isinstance(found, tuple)
    mark = len(seat0.items)
    seat0.reconnect(conn)
    registry2.resume(conn, found[0], found[1], now)
    seat0.feed(registry2.take_outgoing())
    assert seat0.verifier is not None
    seat0.verifier.entered()  # the snapshot: what follows is live
    return registry2, table2, now, mark


def test_a_seat_away_from_before_a_restart_to_after_it_finds_every_round_numbered_and_audited(
    tmp_path: Path,
) -> None:
    """Ana drops in round 2; the host plays rounds 3 and 4 without her, dies in round 4 and
    resumes; she comes back in round 6. The resumed host owes her what it would have sent had
    it never stopped: rounds 1 to 5, each prepared and audited, so her kept verifier sees the
    numbers run on and flags nothing (SPEC.md 11.10)."""
    registry, table, out = start_journaled(tmp_path, RuleSet(target=10_000))  # no match end
    seat0 = Seat0()
    seat0.feed(out)
    registry2, table2, now, mark = away_across_a_restart(
        tmp_path, registry, table, seat0, 0.0, token_of(out), away=(2, 6), dies_in=4, conn=2)
    assert seat0.verifier is not None and seat0.verifier.violations() == []
    entry = entry_of(seat0, mark)
    assert [m["round"] for m in entry if m["t"] == "round_prepare"] == [1, 2, 3, 4, 5, 6]
    assert [m["round"] for m in entry if m["t"] == "round_audit"] == [1, 2, 3, 4, 5]
    # Away for 2 to 4: audited, not judged; round 5, the previous one, came whole.
    assert seat0.verifier.missed_rounds == [2, 3, 4]
    # She plays on: round 6 is audited and round 7 prepared, and still nothing is flagged.
    play_until(registry2, table2, seat0, now, in_round(table2, 7, 1))
    assert [a["round"] for a in seat0.messages("round_audit")][-1] == 6
    assert seat0.prepared[-1]["round"] == 7
    assert seat0.verifier.violations() == []
    assert seat0.bad_signatures == []


def test_a_resumed_host_sends_an_entrant_the_earlier_rounds_as_the_host_that_never_stopped(
    tmp_path: Path,
) -> None:
    """Ana drops in round 3 and resumes at once: what the host sends her for rounds 1 and 2 and
    round 3's trust messages is what a host resumed from the journal at that very moment sends
    her, byte for byte, signatures included (RFC 6979 signs the same message the same way);
    round 3's events too, followed by those the bots played since the restart."""
    registry, table, out = start_journaled(tmp_path, RuleSet(target=10_000))
    seat0 = Seat0()
    seat0.feed(out)
    now = play_until(registry, table, seat0, 0.0, in_round(table, 3, 20))
    registry.disconnect(seat0.conn, now)
    found = registry.find_resume(token_of(out), now)
    assert isinstance(found, tuple)
    mark = len(seat0.items)
    seat0.reconnect(2)
    registry.resume(2, found[0], found[1], now)
    after_resume = registry.take_outgoing()
    seat0.feed(after_resume)
    never_stopped = entry_of(seat0, mark)
    assert [m["round"] for m in never_stopped if m["t"] == "round_audit"] == [1, 2]
    assert table.game is not None and table.game.journal is not None
    table.game.journal.close()

    registry2, _ = restart(tmp_path, now, registry.signer)
    found = registry2.find_resume(token_of(after_resume, 2), now)
    assert isinstance(found, tuple)
    mark = len(seat0.items)
    seat0.reconnect(3)
    registry2.resume(3, found[0], found[1], now)
    seat0.feed(registry2.take_outgoing())
    resumed = entry_of(seat0, mark)
    # Rounds 1 and 2, and round 3's trust messages: the same bytes.
    cut = next(i for i, m in enumerate(never_stopped) if m["t"] == "round_history"
               and m["round"] == 3)
    def numbered(entry: list[dict[str, Any]]) -> list[tuple[str, int | None]]:
        return [(m["t"], m.get("round")) for m in entry[:cut]]
    assert numbered(resumed) == numbered(never_stopped)
    assert [pack(m) for m in resumed[:cut]] == [pack(m) for m in never_stopped[:cut]]
    # Round 3's events: the same, and those the bots played since the restart after them.
    assert [m["t"] for m in resumed[cut:]][-1] == "snapshot"
    assert round_history(resumed, 3)[:len(round_history(never_stopped, 3))] == round_history(
        never_stopped, 3)
    assert seat0.verifier is not None and seat0.verifier.violations() == []
    assert seat0.bad_signatures == []


def round_history(entry: list[dict[str, Any]], round_no: int) -> list[bytes]:
    """The events of round `round_no` in an entry's round_history chunks, packed."""
    return [pack(event) for m in entry if m["t"] == "round_history" and m["round"] == round_no
            for event in m["events"]]


def prepared(round_no: int) -> Callable[[list[Outgoing]], int | None]:
    """A `play_until` stop: the host dies right after it sent round `round_no`'s round_prepare."""
    def stop(out: list[Outgoing]) -> int | None:
        return next((i + 1 for i, o in enumerate(out) if isinstance(o, SendMessage)
                     and o.message["t"] == "round_prepare" and o.message["round"] == round_no),
                    None)
    return stop


def test_a_round_abandoned_by_one_restart_keeps_its_place_after_the_next(tmp_path: Path) -> None:
    """The host dies as it prepares round 2: resumed, it audits round 2 as abandoned and deals
    round 3. Ana drops in round 3, the host dies again in round 4 and resumes; back in round 5,
    Ana gets rounds 1 to 4 in their order, round 2 among them as abandoned (SPEC.md 11.7)."""
    registry, table, out = start_journaled(tmp_path, RuleSet(target=10_000))
    seat0 = Seat0()
    seat0.feed(out)
    now = play_until(registry, table, seat0, 0.0, prepared(2))
    assert table.game is not None and table.game.journal is not None
    table.game.journal.close()

    registry2, table2 = restart(tmp_path, now + 1, registry.signer)
    found = registry2.find_resume(token_of(out), now + 1)
    assert isinstance(found, tuple)
    mark = len(seat0.items)
    seat0.reconnect(2)
    registry2.resume(2, found[0], found[1], now + 1)
    back = registry2.take_outgoing()
    seat0.feed(back)
    entry = entry_of(seat0, mark)
    assert [(m["t"], m["round"]) for m in entry if m["t"] in ("round_prepare", "round_audit")] \
        == [("round_prepare", 1), ("round_audit", 1), ("round_prepare", 2), ("round_audit", 2)]
    _, _, now, mark = away_across_a_restart(
        tmp_path, registry2, table2, seat0, now + 1, token_of(back, 2), away=(3, 5), dies_in=4,
        conn=3)
    assert seat0.verifier is not None and seat0.verifier.violations() == []
    entry = entry_of(seat0, mark)
    assert [m["round"] for m in entry if m["t"] == "round_prepare"] == [1, 2, 3, 4, 5]
    assert [(m["round"], m["outcome"]) for m in entry if m["t"] == "round_audit"] == [
        (1, "ended"), (2, "abandoned"), (3, "ended"), (4, "ended")]
    assert seat0.verifier.abandoned_rounds == 1
    assert seat0.bad_signatures == []


def test_a_seat_taken_over_mid_match_keeps_its_newcomers_name_after_a_restart(
    tmp_path: Path,
) -> None:
    """Found in tmux: Cid took Bea's seat from its stand-in mid-match; after the host was
    stopped and resumed, the seat was "Bea" again on every screen, Cid's own too (the journal
    recorded the new token, not who held it). Its take-over line now names the newcomer."""
    registry, table, _ = start_journaled(tmp_path)
    now = 0.0
    while table.game is None or table.game.match.phase != IN_ROUND:
        now = max(now, registry.next_deadline() or now)
        registry.tick(now)
    registry.request(1, "ana", {"t": "leave", "id": 3}, now)  # a stand-in plays seat 0
    registry.request(2, "cid", {"t": "join_table", "id": 5, "table": 0, "name": "cid",
                                "seat": 0}, now)
    seated = registry.take_outgoing()
    assert table.room.seats[0] is not None and table.room.seats[0].name == "cid"
    token = token_of(seated, conn=2)
    game = table.game
    assert game is not None and game.journal is not None
    game.journal.close()

    registry2, table2 = restart(tmp_path, now + 1, registry.signer)
    assert table2.room.seats[0] is not None and table2.room.seats[0].name == "cid"
    found = registry2.find_resume(token, now + 1)
    assert isinstance(found, tuple) and found[1] == 0
    registry2.resume(2, found[0], found[1], now + 1)
    lobby = next(o.message for o in registry2.take_outgoing()
                 if isinstance(o, SendMessage) and o.conn == 2
                 and o.message["t"] == "table_state")
    assert lobby["seats"][0]["name"] == "cid", lobby
