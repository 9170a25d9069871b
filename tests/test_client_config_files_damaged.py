"""The client's own files (known_hosts, seat_tokens) with bytes that are not UTF-8 in them (a
disk error, an editor's mishap): the lines that parse still count and the others are
skipped, as the files' readers promise; found by trying, they raised UnicodeDecodeError."""

from __future__ import annotations

import time
from pathlib import Path

from client.known_hosts import KnownHosts
from client.seat_tokens import KeptSeat, SeatTokens


def test_known_hosts_with_bytes_that_are_not_utf8_keeps_its_good_lines(tmp_path: Path) -> None:
    hosts = KnownHosts(tmp_path / "known_hosts")
    hosts.remember("192.0.2.7", 7077, bytes(range(32)))
    with hosts.path.open("ab") as out:
        out.write(b"\xff\xfe garbage \x80\n")
    assert hosts.lookup("192.0.2.7", 7077) == bytes(range(32))
    hosts.remember("192.0.2.8", 7077, bytes(32))  # and it can be written again
    assert hosts.lookup("192.0.2.8", 7077) == bytes(32)


def test_seat_tokens_with_bytes_that_are_not_utf8_keeps_its_good_lines(tmp_path: Path) -> None:
    tokens = SeatTokens(tmp_path / "seat_tokens")
    kept = KeptSeat("192.0.2.7:7077", "FP", 0, 1, bytes(32), float(int(time.time())))
    tokens.keep(kept)
    with tokens.path.open("ab") as out:
        out.write(b"\xc3\x28 not a seat \xa0\n")
    assert tokens.find("192.0.2.7:7077", "FP", 0).seat == kept
