"""A resume token cannot take a seat from a player who is there (issue 13 point 4): while the
seat's connection answers, a token gets `seat_in_use` and the player is told; every resume
renews the token (`seated` right after `welcome`), so a copy is worthless once its owner came
back; a `leave` in mid-match gives the token up, and the journal remembers both after a host
restart (SPEC.md 8.2).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import trio
from test_host_authority import Member, in_a_match, serve
from test_host_resume import restart, start_journaled, token_of

from host.outgoing import ConnId, SendMessage
from host.registry import Registry, ResumeRefused
from host.seating import Seat
from host.settings import FAST_TIMINGS
from host.table import Table, TableSettings
from protocol.client_session import MessageReceived, Snapshot, Welcomed
from protocol.connection import ConnectionFailed
from unonet.rules import RuleSet

WAIT = 20.0


async def seated_player(nursery: trio.Nursery) -> tuple[Registry, Table, trio.SocketListener,
                                                          Member, bytes]:
    """A table of one bot and ana, its match on; ana's resume token."""
    registry = Registry(FAST_TIMINGS)
    table = registry.create_table(TableSettings("t", RuleSet(target=500), headless=True,
                                                target_seats=2, timings=FAST_TIMINGS))
    table.add_bot()
    listener = await serve(nursery, registry)
    ana = await in_a_match(listener)
    token = ana.last("seated")["token"]
    assert isinstance(token, bytes)
    return registry, table, listener, ana, token


def fatal(member: Member) -> str | None:
    return next((str(e.error.code) for e in member.events if isinstance(e, ConnectionFailed)),
                None)


def failed(member: Member) -> Callable[[], bool]:
    """Whether `member`'s connection failed yet, to wait on with `until_true`."""
    return lambda: fatal(member) is not None


def conn_of(seat: Seat) -> ConnId | None:
    """`seat.conn` read afresh: mypy keeps a re-read narrowed across the awaits that change it."""
    return seat.conn


async def test_a_copied_token_cannot_take_the_seat_of_a_player_who_is_answering(
    nursery: trio.Nursery,
) -> None:
    _, table, listener, ana, token = await seated_player(nursery)
    seat = table.room.seats[1]
    assert seat is not None and seat.conn is not None
    held_by = seat.conn
    thief = await Member.connect(listener, "mallory", resume=token)
    await thief.until_true(lambda: fatal(thief) is not None)
    assert fatal(thief) == "seat_in_use"
    assert not any(isinstance(e, Welcomed) for e in thief.events)
    await ana.until_true(lambda: any(m.get("host") for m in ana.messages("chat_message")))
    notice = next(m for m in ana.messages("chat_message") if m.get("host"))
    assert notice["name"] == "host" and "resume your seat" in str(notice["text"])
    assert notice["notice"] == "resume_tried"  # for the client's own words (SPEC [UNO-8-27])
    assert seat.conn == held_by and not ana.closed  # ana still plays: "the token wins" no more
    assert fatal(ana) is None
    # A thief trying in a loop: every try is refused, and ana hears of it once, not per try.
    for _ in range(10):
        again = await Member.connect(listener, "mallory", resume=token)
        await again.until_true(failed(again))
        assert fatal(again) == "seat_in_use"
    await ana.send(ana.session.request("list_tables")[1])  # a round trip: all notices are in
    await ana.until_true(lambda: bool(ana.messages("tables")))
    assert sum(1 for m in ana.messages("chat_message") if m.get("host")) == 1


async def test_a_resume_renews_the_token_so_the_old_one_is_worthless(
    nursery: trio.Nursery,
) -> None:
    _, table, listener, ana, first = await seated_player(nursery)
    seat = table.room.seats[1]
    assert seat is not None
    await ana.stream.aclose()
    with trio.fail_after(WAIT):
        while conn_of(seat) is not None:
            await trio.sleep(0.01)
    back = await Member.connect(listener, "ana", resume=first)
    await back.until(Snapshot)
    kinds = [e.message["t"] if isinstance(e, MessageReceived) else type(e).__name__
             for e in back.events]
    assert kinds[0] == "Welcomed" and kinds[1] == "seated"  # before the match's entry
    renewed = back.last("seated")
    assert renewed["seat"] == 1 and renewed["table"] == 0
    second = renewed["token"]
    assert isinstance(second, bytes) and second != first
    await back.stream.aclose()
    with trio.fail_after(WAIT):
        while conn_of(seat) is not None:
            await trio.sleep(0.01)
    copy = await Member.connect(listener, "ana", resume=first)
    await copy.until_true(lambda: fatal(copy) is not None)
    assert fatal(copy) == "invalid_resume"
    again = await Member.connect(listener, "ana", resume=second)
    await again.until(Snapshot)
    assert conn_of(seat) is not None


def test_the_journal_keeps_a_renewed_token_and_forgets_one_given_up_by_leave(
    tmp_path: Path,
) -> None:
    registry, _, out = start_journaled(tmp_path)
    first = token_of(out)
    registry.disconnect(1, 1.0)
    found = registry.find_resume(first, 1.0)
    assert isinstance(found, tuple)
    registry.resume(2, *found, 1.0)
    second = next(o.message["token"] for o in registry.take_outgoing()
                  if isinstance(o, SendMessage) and o.conn == 2 and o.message.get("t") == "seated")
    registry2, _ = restart(tmp_path, 2.0, registry.signer)  # the host stops and resumes
    assert registry2.find_resume(first, 2.0) == ResumeRefused(
        "invalid_resume", "this token names no seat")
    found = registry2.find_resume(second, 2.0)
    assert isinstance(found, tuple) and found[1] == 0
    registry2.resume(3, *found, 2.0)
    registry2.request(3, "ana", {"t": "leave", "id": 5}, 2.0)  # mid-match: gives the seat up
    assert isinstance(registry2.find_resume(second, 2.0), ResumeRefused)
    registry3, _ = restart(tmp_path, 3.0, registry.signer)
    assert isinstance(registry3.find_resume(second, 3.0), ResumeRefused)
