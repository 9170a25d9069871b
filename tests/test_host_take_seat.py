"""A spectator takes a seat in mid-match (issue 12, point 4, host side; SPEC.md [UNO-8-7]),
over real loopback sockets: Bo leaves, a stand-in bot plays his seat, Cy watching from the
audience sits in it, gets a fresh token and the seat's state (the match's manifest and rounds,
this round's history, the snapshot) and plays the match to its end; her client's verifier (the
trust gate) finds no violation, audits every round, and her seed goes into each round after.
A newcomer who joins straight into the seat (no watching first), in the first round or a later
one, gets the same: the history a spectator gets is not taken for the seat's own. A seat nobody
left is not offered."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import trio
from client_net import LinkHarness, LocalHost, play_until, start_host, start_link

from client.audit_cmd import run
from client.link import (
    GameEvent,
    LobbyChanged,
    Refused,
    Snapshot,
    TrustReport,
    TrustStatus,
    Update,
)
from client.lobby import JoinTable, Leave
from client.network import LinkConfig
from client.seat_tokens import SeatTokens
from client.transcript import transcript_dir
from unonet import events as ev
from unonet.rules import RuleSet

ROUNDS = 2
RULES = RuleSet(max_rounds=ROUNDS, target=10_000)


def ended(update: Update) -> bool:
    return isinstance(update, GameEvent) and isinstance(update.event, ev.MatchEnded)


def cards_played(update: Update) -> bool:
    return isinstance(update, GameEvent) and isinstance(update.event, ev.CardPlayed)


def taken_over(host: LocalHost, seat: int) -> bool:
    """Whether a stand-in plays `seat` now (it is held: its player left in mid-match)."""
    holder = host.table.room.seats[seat]
    assert holder is not None
    return holder.taken_over


def link(port: int, name: str, **changes: Any) -> LinkConfig:
    return LinkConfig("127.0.0.1", port, name=name, tls=False, table=0, auto_ready=True,
                      **changes)


def violations(harness: LinkHarness) -> list[TrustReport]:
    return [u for u in harness.seen if isinstance(u, TrustReport) and not u.ok]


def round_started(round_no: int) -> Callable[[Update], bool]:
    return lambda u: (isinstance(u, GameEvent) and isinstance(u.event, ev.RoundStarted)
                      and u.event.round_no >= round_no)


async def every_round_judged(harness: LinkHarness, rounds: int) -> TrustStatus:
    """The trust checks once each of the match's `rounds` is judged (the last audit follows
    match_ended)."""
    status = await harness.until(
        lambda u: isinstance(u, TrustStatus) and len(u.rounds) == rounds
        and all(r.state != "checking" for r in u.rounds))
    assert isinstance(status, TrustStatus)
    return status


def audits_clean(data_dir: Path, rounds: int, seen_as: str | None = None) -> None:
    """`unonet audit` on the newcomer's transcript reads it as her client did: every round
    audited, nothing held against the host (the seat's public draws from before she sat are
    owed her no private copy, SPEC.md [UNO-11-53]); `seen_as`, what its first line says of
    whose view it was."""
    said = []
    for path in transcript_dir(data_dir).glob("*.msgpack"):  # (a next match has its own)
        out = io.StringIO()
        assert run(path, out, io.StringIO()) == 0, out.getvalue()
        said.append(out.getvalue())
    assert any(f"{rounds} audited" in text for text in said), said
    if seen_as is not None:  # found in tmux: "seen as a spectator" of one who sat and played
        assert any(text.splitlines()[0].endswith(f"seen as {seen_as}") for text in said), said


async def stand_in_plays_bos_seat(host: LocalHost, ana: LinkHarness, bo: LinkHarness,
                                  round_no: int) -> int:
    """Ana and Bo play into round `round_no`, a few cards into it; Bo leaves and a stand-in
    plays his seat, which is returned."""
    if round_no > 1:
        async with trio.open_nursery() as both:
            both.start_soon(play_until, ana, round_started(round_no), 120)
            both.start_soon(play_until, bo, round_started(round_no), 120)
    async with trio.open_nursery() as both:
        both.start_soon(play_until, ana, cards_played)
        both.start_soon(play_until, bo, cards_played)
    seat = next(i for i, s in host.table.room.occupied() if s.name == "Bo")
    bo.send(Leave())
    with trio.fail_after(30):
        while not taken_over(host, seat):
            await trio.sleep(0.01)
    return seat


async def test_a_spectator_sits_in_a_stand_ins_seat_and_plays_it(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    host = await start_host(nursery, bots=1, players=2, rules=RULES)
    ana = await start_link(nursery, link(host.port, "Ana"))
    bo = await start_link(nursery, link(host.port, "Bo"))
    cy = await start_link(nursery, link(host.port, "Cy", spectate=True, transcripts=tmp_path))
    seat = await stand_in_plays_bos_seat(host, ana, bo, 1)
    cy.send(JoinTable(0, "Cy", seat))
    snapshot = await cy.until(lambda u: isinstance(u, Snapshot) and u.view.seat == seat)
    assert isinstance(snapshot, Snapshot) and snapshot.view.hand  # the seat's own cards
    sat = await cy.until(lambda u: isinstance(u, LobbyChanged) and u.lobby.you == seat)
    assert isinstance(sat, LobbyChanged) and sat.lobby.started
    taken = host.table.room.seats[seat]
    assert taken is not None and taken.name == "Cy" and not taken.taken_over
    assert taken.token_hash is not None
    async with trio.open_nursery() as both:  # Cy plays the seat to the match's end
        both.start_soon(play_until, ana, ended)
        both.start_soon(play_until, cy, ended)
    assert host.table.finished or (host.table.game is not None and host.table.game.over)
    status = await every_round_judged(cy, ROUNDS)
    assert [r.state for r in status.rounds] == ["audited"] * ROUNDS
    assert all(seat not in r.absent_seeds for r in status.rounds[1:])  # her seed went in
    assert violations(cy) == [] and violations(ana) == []
    audits_clean(tmp_path, ROUNDS, seen_as=f"a spectator, then seat {seat}")


@pytest.mark.parametrize("round_no", [1, 2])
async def test_a_newcomer_joins_straight_into_a_stand_ins_seat_and_the_host_is_not_flagged(
    nursery: trio.Nursery, round_no: int, tmp_path: Path
) -> None:
    rounds = round_no + 1
    rules = RuleSet(max_rounds=rounds, target=10_000)
    host = await start_host(nursery, bots=1, players=2, rules=rules)
    ana = await start_link(nursery, link(host.port, "Ana"))
    bo = await start_link(nursery, link(host.port, "Bo"))
    seat = await stand_in_plays_bos_seat(host, ana, bo, round_no)
    cy = await start_link(nursery, link(host.port, "Cy", transcripts=tmp_path))  # `unonet join`
    snapshot = await cy.until(lambda u: isinstance(u, Snapshot) and u.view.seat == seat)
    assert isinstance(snapshot, Snapshot) and snapshot.view.hand
    sat_in = snapshot.view.round_no
    assert sat_in == round_no
    async with trio.open_nursery() as both:
        both.start_soon(play_until, ana, ended, 200)
        both.start_soon(play_until, cy, ended, 200)
    status = await every_round_judged(cy, rounds)
    assert violations(cy) == [] and violations(ana) == []
    assert [r.state for r in status.rounds] == ["audited"] * rounds  # hers included
    assert status.rounds[sat_in - 1].round_no == sat_in
    assert seat not in status.rounds[sat_in].absent_seeds  # the next round has her seed
    audits_clean(tmp_path, rounds)


async def test_no_seat_is_offered_while_every_player_is_there(nursery: trio.Nursery) -> None:
    host = await start_host(nursery, bots=1, players=1, rules=RULES)
    ana = await start_link(nursery, link(host.port, "Ana"))
    cy = await start_link(nursery, link(host.port, "Cy", spectate=True))
    await play_until(ana, cards_played)
    cy.send(JoinTable(0, "Cy", 0))
    refused = await cy.until_type(Refused)
    assert refused.code == "game_in_progress"
    assert sorted(s.name for _, s in host.table.room.occupied()) == ["Ana", "Ana 2"]


async def newcomer_plays_a_card(nursery: trio.Nursery, ana: LinkHarness, cy: LinkHarness,
                                seat: int) -> trio.Event:
    """Cy, come into `seat`, plays a card in it while Ana plays on to the match's end (the
    event returned is set then)."""
    await cy.until(lambda u: isinstance(u, Snapshot) and u.view.seat == seat)
    ana_done = trio.Event()

    async def ana_plays_on() -> None:
        await play_until(ana, ended, 200)
        ana_done.set()

    nursery.start_soon(ana_plays_on)
    await play_until(cy, lambda u: isinstance(u, GameEvent) and isinstance(
        u.event, ev.CardPlayed) and u.event.seat == seat, 120)  # a card in her new seat
    return ana_done


async def back_in_the_seat_to_the_end(host: LocalHost, ana: LinkHarness, cy: LinkHarness,
                                      seat: int, ana_done: trio.Event, tmp_path: Path) -> None:
    """Cy, back in `seat` (the seat's snapshot), plays the match to its end: her verifier
    audits every round, it and Ana's hold nothing against the host, nor does `unonet audit`
    on her transcript in `tmp_path`."""
    resumed = await cy.until(lambda u: isinstance(u, Snapshot) and u.view.seat == seat)
    assert isinstance(resumed, Snapshot)
    taken = host.table.room.seats[seat]
    assert taken is not None and taken.name == "Cy" and not taken.taken_over
    await play_until(cy, ended, 200, current=resumed)
    with trio.fail_after(60):
        await ana_done.wait()
    status = await every_round_judged(cy, ROUNDS)
    assert violations(cy) == [] and violations(ana) == []
    assert [r.state for r in status.rounds] == ["audited"] * ROUNDS
    audits_clean(tmp_path, ROUNDS)


@pytest.mark.parametrize("cut_in_round", [1, 2])
async def test_a_newcomer_cut_off_after_taking_a_seat_resumes_it_and_is_not_flagged(
    nursery: trio.Nursery, tmp_path: Path, cut_in_round: int
) -> None:
    """Back on a new connection with the token she was given, in the round she sat in or the
    next, the host sends the seat's history (SPEC.md 7.1), her predecessor's private cards
    included, which her kept verifier never had: it compares what it got as a spectator with
    the public events and is owed the rest (SPEC.md [UNO-11-53]). Neither it nor `unonet
    audit` holds anything against the host (before, a false `history` violation)."""
    host = await start_host(nursery, bots=1, players=2, rules=RULES)
    ana = await start_link(nursery, link(host.port, "Ana"))
    bo = await start_link(nursery, link(host.port, "Bo"))
    seat = await stand_in_plays_bos_seat(host, ana, bo, 1)
    cy = await start_link(nursery, link(host.port, "Cy", transcripts=tmp_path))
    ana_done = await newcomer_plays_a_card(nursery, ana, cy, seat)
    if cut_in_round == 2:
        await play_until(cy, round_started(2), 120)
        await play_until(cy, cards_played, 120)
    await cy.streams[-1].cut()
    await back_in_the_seat_to_the_end(host, ana, cy, seat, ana_done, tmp_path)
    assert len(cy.streams) == 2


async def test_a_newcomer_whose_client_is_killed_after_taking_a_seat_runs_again_and_plays_it(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    """A fresh process with the token her first one kept (client/seat_tokens.py) takes the
    seat back: a new verifier, which gets the seat's history as the seat's own (SPEC.md 7.1)
    and checks it so; it and Ana's find nothing against the host, and every round is judged."""
    host = await start_host(nursery, bots=1, players=2, rules=RULES)
    ana = await start_link(nursery, link(host.port, "Ana"))
    bo = await start_link(nursery, link(host.port, "Bo"))
    seat = await stand_in_plays_bos_seat(host, ana, bo, 1)
    tokens = SeatTokens(tmp_path / "seat_tokens")
    kill = trio.CancelScope()
    cy = await start_link(nursery, link(host.port, "Cy", seat_tokens=tokens), kill=kill)
    ana_done = await newcomer_plays_a_card(nursery, ana, cy, seat)
    (kept,) = tokens.entries()
    assert kept.seat == seat
    kill.cancel()  # the terminal is closed: no bye
    with trio.fail_after(30):
        await cy.finished.wait()

    again = await start_link(nursery, link(host.port, "Cy", seat_tokens=tokens,
                                           transcripts=tmp_path))
    await back_in_the_seat_to_the_end(host, ana, again, seat, ana_done, tmp_path)
