"""Admission bookkeeping (host/admission.py), pure: time is a plain number, connections are
numbers, and each rule of SPEC.md 6 ([UNO-6-9]) is one test."""

from __future__ import annotations

from dataclasses import replace

from host.admission import Admission, address_key
from host.settings import ConnectionLimits

LIMITS = ConnectionLimits(max_connections=10, pending_pool=4, per_address=3, resume_reserve=2,
                          squat_after=60.0, lobby_idle=600.0)
NOBODY_SEATED: frozenset[int] = frozenset()


def admitted(admission: Admission, conn: int, address: str, now: float, *,
             resume: bool = False, seated: frozenset[int] = NOBODY_SEATED) -> bool:
    admission.accept(conn, address, now)
    return admission.hello(conn, now, resume=resume, seated=seated).admitted


def test_an_address_is_its_ipv4_address_or_its_ipv6_slash_64() -> None:
    assert address_key("192.0.2.7") == "192.0.2.7"
    assert address_key("::ffff:192.0.2.7") == "192.0.2.7"
    assert address_key("2001:db8:1:2:aaaa::1") == address_key("2001:db8:1:2:ffff::9")
    assert address_key("2001:db8:1:2::1") == "2001:db8:1:2::/64"
    assert address_key("2001:db8:1:3::1") != address_key("2001:db8:1:2::1")
    assert address_key("fe80::1%eth0") == "fe80::/64"
    assert address_key("not an address") == "not an address"


def test_a_full_pending_pool_drops_the_oldest_of_the_address_holding_most_never_the_new() -> None:
    admission = Admission(LIMITS)
    assert admission.accept(1, "honest", 0.0) == []
    for conn in range(2, 5):  # the slowloris
        assert admission.accept(conn, "loris", float(conn)) == []
    assert admission.accept(5, "loris", 5.0) == [2]  # its own oldest, not the honest one
    assert admission.accept(6, "other", 6.0) == [3]
    assert admission.accept(7, "loris", 7.0) == [4]
    assert admission.pending == LIMITS.pending_pool
    # Every address holds one: the oldest of all goes (the honest one has waited longest).
    admission.accept(8, "fourth", 8.0)
    assert admission.accept(9, "fifth", 9.0) == [1]


def test_a_pending_connection_alone_in_the_pool_is_never_dropped_for_itself() -> None:
    admission = Admission(replace(LIMITS, pending_pool=1))
    admission.accept(1, "a", 0.0)
    assert admission.accept(2, "a", 1.0) == [1]
    assert admission.pending == 1 and admission.sizes()["entries"] == 1


def test_an_address_gets_its_share_and_no_more_unless_it_drops_its_own_squatter() -> None:
    admission = Admission(LIMITS)
    for conn in range(3):
        assert admitted(admission, conn, "home", 0.0)
    assert not admitted(admission, 3, "home", 10.0)
    assert admitted(admission, 4, "elsewhere", 10.0)
    admission.active(1, 50.0)
    admission.active(2, 50.0)
    admission.accept(5, "home", 65.0)
    verdict = admission.hello(5, 65.0, resume=False, seated=NOBODY_SEATED)
    assert verdict.admitted and verdict.drop == (0,)  # home's own idle one, not elsewhere's


def test_the_last_slots_are_kept_for_resumes() -> None:
    admission = Admission(LIMITS)
    room = LIMITS.max_connections - LIMITS.resume_reserve
    for conn in range(room):
        assert admitted(admission, conn, f"a{conn}", 0.0, seated=frozenset(range(room)))
    seated = frozenset(range(room))
    assert not admitted(admission, 100, "new", 1.0, seated=seated)
    assert admitted(admission, 101, "back", 1.0, resume=True, seated=seated)
    assert admitted(admission, 102, "back", 1.0, resume=True, seated=seated)
    assert not admitted(admission, 103, "back", 1.0, resume=True, seated=seated)
    assert admission.admitted == LIMITS.max_connections


def test_when_full_the_longest_idle_squatter_at_no_table_is_dropped_pings_do_not_count() -> None:
    admission = Admission(LIMITS)
    room = LIMITS.max_connections - LIMITS.resume_reserve
    for conn in range(room):
        assert admitted(admission, conn, f"a{conn}", float(conn))
    seated = frozenset({0})  # conn 0 is at a table: never a squatter, however quiet
    admission.active(1, 30.0)  # a request: 1 is less idle than 2
    assert not admitted(admission, 50, "new", 59.0, seated=seated)  # nobody idle 60 s yet
    admission.accept(51, "new", 100.0)
    verdict = admission.hello(51, 100.0, resume=False, seated=seated)
    assert verdict.admitted and verdict.drop == (2,)
    assert admission.admitted == room


def test_leaving_a_table_starts_the_lobby_clock_and_the_sweep_closes_the_idle() -> None:
    admission = Admission(LIMITS)
    assert admitted(admission, 1, "a", 0.0)
    assert admitted(admission, 2, "b", 0.0)
    assert admission.sweep(500.0, frozenset({1})) == []
    assert admission.sweep(600.0, frozenset({1})) == [2]  # 1 was seated until now
    assert admission.sweep(1199.0, frozenset()) == [2]
    assert admission.sweep(1200.0, frozenset()) == [1, 2]


def test_gone_frees_every_structure_and_is_idempotent() -> None:
    admission = Admission(LIMITS)
    for conn in range(20):
        admission.accept(conn, f"x{conn % 5}", float(conn))
        admission.hello(conn, float(conn), resume=False, seated=NOBODY_SEATED)
    for conn in range(20):
        admission.gone(conn)
        admission.gone(conn)
    assert admission.sizes() == {"entries": 0, "pending": 0, "addresses": 0}
    assert admission.admitted == 0


def test_the_full_hosts_refusal_counts_its_connections_in_words() -> None:
    """Found in tmux: "the host is full (1 connections, …)"."""
    limits = replace(LIMITS, max_connections=3, resume_reserve=2)
    admission = Admission(limits)
    assert admitted(admission, 1, "a", 0.0, seated=frozenset({1}))
    admission.accept(2, "b", 1.0)
    verdict = admission.hello(2, 1.0, resume=False, seated=frozenset({1}))
    assert not verdict.admitted and "(1 connection, none idle" in verdict.msg
