"""Resume tokens kept on disk, so a restarted client takes its seat back (SPEC.md [UNO-8-18]).

A seat's token lives in the client's memory for one run; a killed terminal or a restarted host
(`unonet host --resume`) would lose it, and with it the seat. So while a match is on, the token
is also kept in `seat_tokens` in the unonet config dir (the directory known_hosts uses), owner-only
(0600: the token is the seat), one line per seat:

    PLACE FINGERPRINT TABLE SEAT TOKEN SAVED

PLACE is `host:port` as known_hosts writes it (or `own-host` for the host's own player, whose
port may change across `--resume`); FINGERPRINT the hex SHA-256 of the host's certificate, `-`
without TLS: a token is only ever offered to a host showing the fingerprint it was given by.
SAVED is the Unix time it was written; a token older than TOKEN_LIFETIME is dropped unread.
The line goes when the match ends, when the player leaves the seat, or when the host refuses it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from client.known_hosts import config_dir
from client.shared_file import locked, replace_text
from protocol.limits import RESUME_TOKEN_BYTES

FILE_NAME = "seat_tokens"
HEADER = "# unonet seat tokens: place fingerprint table seat token saved (keep this file secret)\n"
TOKEN_LIFETIME = 7 * 24 * 3600.0
"""Seconds a kept token is offered: a match interrupted for a week is over for everyone (the host
gives a dropped seat to a bot after 30 s, but a journal can be resumed days later)."""
NO_FINGERPRINT = "-"


@dataclass(frozen=True)
class KeptSeat:
    """One seat this client holds at a host's table, and the secret that takes it back."""

    place: str
    fingerprint: str
    table: int
    seat: int
    token: bytes
    saved: float

    def line(self) -> str:
        return (f"{self.place} {self.fingerprint} {self.table} {self.seat} {self.token.hex()} "
                f"{int(self.saved)}\n")

    @classmethod
    def parse(cls, line: str) -> KeptSeat | None:
        """The seat a line names, or None for a comment or a line that does not parse."""
        parts = line.split()
        if len(parts) != 6 or parts[0].startswith("#"):
            return None
        place, fingerprint, table, seat, token, saved = parts
        try:
            kept = cls(place, fingerprint, int(table), int(seat), bytes.fromhex(token),
                       float(saved))
        except ValueError:
            return None
        return kept if len(kept.token) == RESUME_TOKEN_BYTES and kept.table >= 0 else None


@dataclass(frozen=True)
class Lookup:
    """What `SeatTokens.find` found: the seat to take back, and the tokens it dropped on the
    way (too old), which the player is told of."""

    seat: KeptSeat | None
    dropped: tuple[KeptSeat, ...] = ()


class SeatTokens:
    """The seat_tokens file; read on each call, and changed under its lock (client/shared_file.py)
    since a host and a join in two terminals keep their seats in the same file."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path if path is not None else config_dir() / FILE_NAME

    def entries(self) -> list[KeptSeat]:
        try:
            text = self.path.read_text(encoding="utf-8", errors="replace")  # a bad line is skipped
        except (FileNotFoundError, NotADirectoryError):
            return []
        return [kept for line in text.splitlines() if (kept := KeptSeat.parse(line)) is not None]

    def find(self, place: str, fingerprint: str, table: int | None,
             now: float | None = None) -> Lookup:
        """The newest seat kept for this place, fingerprint and table (any table if None);
        tokens past TOKEN_LIFETIME for this place are dropped, each with its line."""
        now = time.time() if now is None else now
        kept = self.entries()
        stale = [k for k in kept if k.place == place and now - k.saved > TOKEN_LIFETIME]
        if stale:
            with locked(self.path):  # read again: another client may have written since
                self._write([k for k in self.entries() if k not in stale])
        dropped = tuple(stale)
        fresh = [k for k in kept if k not in stale and k.place == place
                 and k.fingerprint == fingerprint and table in (None, k.table)]
        return Lookup(max(fresh, key=lambda k: k.saved) if fresh else None, dropped)

    def keep(self, seat: KeptSeat) -> None:
        """Remember `seat`, replacing what was kept for its place and table."""
        with locked(self.path):
            others = [k for k in self.entries()
                      if (k.place, k.table) != (seat.place, seat.table)]
            self._write([*others, seat])

    def drop(self, place: str, table: int) -> bool:
        """Forget the seat kept for this place and table; True if there was one."""
        with locked(self.path):
            kept = self.entries()
            rest = [k for k in kept if (k.place, k.table) != (place, table)]
            if len(rest) != len(kept):
                self._write(rest)
        return len(rest) != len(kept)

    def _write(self, kept: list[KeptSeat]) -> None:
        """Replace the file whole (under `locked`), never readable by others even for a
        moment: the tokens are the seats."""
        replace_text(self.path, HEADER + "".join(k.line() for k in kept))


@dataclass
class SeatSlot:
    """The tokens of one host (place and fingerprint), as one link sees them: what LinkSession
    calls when its seat's token should be kept or forgotten."""

    tokens: SeatTokens
    place: str
    fingerprint: str

    def find(self, table: int | None) -> Lookup:
        return self.tokens.find(self.place, self.fingerprint, table)

    def keep(self, table: int, seat: int, token: bytes) -> None:
        self.tokens.keep(KeptSeat(self.place, self.fingerprint, table, seat, token, time.time()))

    def drop(self, table: int) -> bool:
        return self.tokens.drop(self.place, table)
