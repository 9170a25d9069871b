"""A match's transcript: every message the host sent, kept so a cheated player can show others.

The host signs its trust messages (SPEC.md 11.11), so a transcript is evidence: `unonet audit FILE`
re-checks it offline, and anyone given the file can run it too. One file per match,
`<data dir>/transcripts/<game_id hex>-seat<N>.msgpack` (`-watching` for a spectator; the data
dir is the one known_hosts lives in). A client holds its file locked while it writes: a second
client of the same user at the same seat or watching (two terminals) gets `...-2.msgpack`, since
one file is one client's view. The file holds a stream of msgpack maps:

- a header `{"t": "transcript", "version": 1, "host": label, "peer_cert": DER or nil, "seat":
  int or nil}` first, and again whenever a new connection (or a new seat) enters the match, so
  the reader knows which certificate and whose view the messages that follow come from;
- every message map received from the `manifest` on, as decoded (keepalives left out);
- `{"t": "transcript_left"}` when this client walked out of the match (`left()`): the round it
  left in the middle owes it no audit;
- `{"t": "transcript_end", "reason": "capped"}` once the file reaches its cap.

Only what the host sent is recorded, never what this client sent: the audit then rests on the
host's own signed words, which the player who keeps the file cannot have made up.

Owner-only (0700 directory, 0600 file): a transcript holds this player's cards. A disk error never
reaches the game: it is reported once (`problem`, `on_problem`) and recording stops.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, Final

import msgpack

from client.seat_follow import SeatFollower
from protocol.trust.constants import GAME_ID_SIZE
from protocol.trust.signing import canonical

DIRECTORY_NAME: Final = "transcripts"
SUFFIX: Final = ".msgpack"
HEADER_TYPE: Final = "transcript"
END_TYPE: Final = "transcript_end"
LEFT_TYPE: Final = "transcript_left"
VERSION: Final = 1

MAX_TRANSCRIPT_BYTES: Final = 64 * 1024 * 1024
"""A whole match is a few thousand events of ~100 bytes plus a snapshot per reconnect: a few MiB.
64 MiB leaves room for long matches with many reconnects, and stops a host that floods a client
from filling its disk."""

MAX_READ_BYTES: Final = 4 * MAX_TRANSCRIPT_BYTES
"""The largest file `read_transcript` opens: a transcript capped with a larger limit still reads,
and a multi-gigabyte file given by mistake is refused instead of filling memory."""

TRANSCRIPTS_KEPT: Final = 500
"""Transcripts a client keeps, the newest: months of a player's matches as evidence. A client
watching a table of bots writes one a match, every few minutes, day and night: kept all, the
folder would grow without end."""

TRANSCRIPTS_SLACK: Final = 50
"""Transcripts over TRANSCRIPTS_KEPT before the oldest go: reading every file's time costs a
few milliseconds at 500, so it is done once in TRANSCRIPTS_SLACK matches, not at each."""

SAME_PLACE_COPIES: Final = 9
"""Files one match may get from one seat (or from watching) in one config dir, each held by a
live client: more clients of one user at one place than that record nothing (and are told)."""

_END_RESERVE: Final = 64
"""Bytes kept free under the cap for the end marker, so a capped file says it was capped."""

SKIPPED: Final = frozenset({"ping", "pong"})
"""Keepalives: nothing to audit in them, and a long match would hold thousands."""


def transcript_dir(data_dir: Path) -> Path:
    """Where a data dir keeps its transcripts."""
    return data_dir / DIRECTORY_NAME


def match_stem(manifest: Mapping[str, Any]) -> str:
    """The start of the file names for the match a manifest announces: its game_id in hex.

    A manifest without a valid game_id (a host that breaks the protocol, which the verifier flags)
    is still recorded, under `manifest-` and a digest of the manifest, so the evidence is kept.
    """
    game_id = manifest.get("game_id")
    if isinstance(game_id, bytes) and len(game_id) == GAME_ID_SIZE:
        return game_id.hex()
    try:
        digest = hashlib.sha256(canonical(dict(manifest))).hexdigest()[:32]
    except TypeError:
        digest = "unreadable"
    return f"manifest-{digest}"


def transcript_names(stem: str, seat: int | None) -> Iterator[str]:
    """The names a client seeing the match `stem` from `seat` (None: watching) may write, in
    the order it tries them. The seat is in the name, so that a restarted client finds the file
    it wrote before; the ones after the first serve a second client of the same user in the
    same place (two watching, say), since each file is one client's view."""
    who = "watching" if seat is None else f"seat{seat}"
    yield f"{stem}-{who}{SUFFIX}"
    for copy in range(2, SAME_PLACE_COPIES + 1):
        yield f"{stem}-{who}-{copy}{SUFFIX}"


def _pack(record: Mapping[str, Any]) -> bytes:
    packed: bytes = msgpack.packb(dict(record), use_bin_type=True)
    return packed


class TranscriptWriter:
    """Appends what the host sends during a match to that match's transcript file.

    Feed it every decoded message the client receives, in order (`record`); it follows the seat
    from `welcome`, `seated` and `table_state`, starts a file at a `manifest` (a manifest with
    another game_id starts another file: another match), and writes nothing before the first
    manifest. Call `connected(peer_cert)` when a new connection opens (with the TLS peer
    certificate's DER, or None without TLS): the next messages are preceded by a fresh header.
    The file is written unbuffered, one record per call, so a crash loses nothing already seen.

    Never raises for a disk error or an odd message: the first problem is kept in `problem`,
    passed to `on_problem`, and recording stops for good (one report, not one per message).
    """

    def __init__(
        self,
        directory: Path,
        host_label: str,
        *,
        limit: int = MAX_TRANSCRIPT_BYTES,
        on_problem: Callable[[str], None] | None = None,
    ) -> None:
        """`directory`: the client's data dir (client.known_hosts.config_dir()); transcripts go
        to its `transcripts/`. `host_label`: how the user named the host (`host:port`)."""
        self.directory = transcript_dir(directory)
        self.host_label = host_label
        self.limit = limit
        self.on_problem = on_problem
        self.peer_cert: bytes | None = None
        self.path: Path | None = None
        """The current match's file, once a manifest has named it."""
        self._stem = ""
        self.problem: str | None = None
        self.capped = False
        self._fd: int | None = None
        self._size = 0
        self._header_due = True
        self._header_seat: int | None = None
        self._follower = SeatFollower()
        """Whose view the messages are, as the live trust gate reads it (`takes_seat`: a seat
        taken in mid-match whose snapshot has not come yet)."""

    @property
    def seat(self) -> int | None:
        return self._follower.seat

    @property
    def taking(self) -> bool:
        return self._follower.taking

    def connected(self, peer_cert: bytes | None) -> None:
        """A new connection to the host: its certificate (DER, None without TLS) goes in the
        header written before its next recorded message."""
        self.peer_cert = peer_cert
        self._header_due = True
        self._follower.connected()

    def record(self, message: Mapping[str, Any]) -> None:
        """One message map as received from the host. Never raises."""
        if self.problem is not None:
            return
        try:
            self._record(message)
        except OSError as exc:
            self._fail(f"cannot write the match transcript ({exc.strerror or exc}); "
                       "it is no longer recorded")
        except (TypeError, ValueError, OverflowError) as exc:
            self._fail(f"cannot record a message in the match transcript ({exc}); "
                       "it is no longer recorded")

    def left(self) -> None:
        """This client left the match before its end (TrustVerifier.finish(left=True) live):
        the audit will not count the round left in the middle as owing its audit."""
        if self.problem is None and self._fd is not None and not self.capped:
            try:
                self._write({"t": LEFT_TYPE})
            except OSError as exc:
                self._fail(f"cannot write the match transcript ({exc.strerror or exc})")

    def close(self) -> None:
        """Close the current file (idempotent); a later manifest opens one again."""
        if self._fd is not None:
            fd, self._fd = self._fd, None
            with contextlib.suppress(OSError):  # nothing left to save in a file we drop
                os.close(fd)
        self.path = None
        self._header_due = True

    def _record(self, message: Mapping[str, Any]) -> None:
        kind = message.get("t")
        self._follower.follow(message)
        if kind == "manifest":
            stem = match_stem(message)
            if self.path is None or self._stem != stem:
                self._open(stem)
        if self._fd is None or self.capped or kind in SKIPPED:
            return
        if self._header_due or self.seat != self._header_seat:
            self._write(self._header())
            self._header_due = False
            self._header_seat = self.seat
        self._write(dict(message))
        if kind == "snapshot":
            self._follower.entered()

    def _header(self) -> dict[str, Any]:
        return {"t": HEADER_TYPE, "version": VERSION, "host": self.host_label,
                "peer_cert": self.peer_cert, "seat": self.seat, "takes_seat": self.taking}

    def _open(self, stem: str) -> None:
        self.close()
        self.capped = False
        self.directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        for name in transcript_names(stem, self.seat):
            path = self.directory / name
            fd = _own_file(path)
            if fd is not None:
                break
        else:
            raise OSError(f"{SAME_PLACE_COPIES} other unonet clients are recording this match "
                          f"here ({path.parent})")
        try:
            self._size = os.fstat(fd).st_size
        except OSError:
            os.close(fd)
            raise
        self._fd, self.path, self._stem, self._header_due = fd, path, stem, True
        if self._size == 0:  # a new match: the oldest may go
            keep_newest(self.directory, TRANSCRIPTS_KEPT, TRANSCRIPTS_SLACK, path)
        if self._size >= self.limit - _END_RESERVE:
            self.capped = True  # a file capped before (an earlier run): it stays as it is
            self._report(f"the match transcript is full; not recorded further ({path})")

    def _write(self, record: Mapping[str, Any]) -> None:
        assert self._fd is not None
        data = _pack(record)
        if self._size + len(data) > self.limit - _END_RESERVE:
            end = _pack({"t": END_TYPE, "reason": "capped"})
            os.write(self._fd, end)
            self._size += len(end)
            self.capped = True
            self._report(f"the match transcript reached {self.limit // (1024 * 1024)} MiB; "
                         f"the rest of the match is not recorded ({self.path})")
            return
        os.write(self._fd, data)
        self._size += len(data)

    def _fail(self, text: str) -> None:
        self.close()
        self._report(text)
        self.problem = text

    def _report(self, text: str) -> None:
        if self.on_problem is not None:
            self.on_problem(text)


def _own_file(path: Path) -> int | None:
    """`path` opened to append, and locked for this process while it stays open; None if
    another live client holds it. Two clients of one user sharing a file wrote one stream
    of two views, which the audit read as a host dealing every card twice."""
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    except OSError:
        os.close(fd)
        raise
    return fd


def keep_newest(directory: Path, kept: int, slack: int, current: Path) -> None:
    """Once `directory` holds more than `kept + slack` transcripts, remove all but the newest
    `kept` (by modification time), never `current`. A file that cannot be read or removed
    stays; the next match tries again."""
    try:
        with os.scandir(directory) as found:
            names = [entry for entry in found if entry.name.endswith(SUFFIX)
                     and entry.path != str(current)]
        if len(names) < kept + slack:  # `current` is one of the kept
            return
        by_age = sorted((entry.stat(follow_symlinks=False).st_mtime_ns, entry.path)
                        for entry in names)
    except OSError:
        return
    for _, old in by_age[:len(by_age) - (kept - 1)]:
        with contextlib.suppress(OSError):
            os.unlink(old)


class TranscriptError(Exception):
    """A file that is not a readable transcript (the audit's exit 2). The message is its
    English; `key` and `values` say what was wrong, for `unonet audit` to say it in its
    reader's language (client/command_words.py, `transcript.KEY`)."""

    def __init__(self, message: str, key: str = "", **values: object) -> None:
        super().__init__(message)
        self.key = key
        self.values = values


def read_transcript(path: Path) -> list[dict[str, Any]]:
    """Every record of a transcript file, header first.

    Raises TranscriptError (one line) for a file that cannot be read, is not msgpack, does not
    start with a version-1 header, holds a record that is not a map with a str `t`, or ends in
    the middle of a record (a truncated copy).
    """
    try:
        size = path.stat().st_size
        if size > MAX_READ_BYTES:
            raise TranscriptError(f"{path}: {size} bytes is too large for a transcript",
                                  "too_large", name=path, size=size)
        data = path.read_bytes()
    except OSError as exc:
        raise TranscriptError(f"{path}: {exc.strerror or exc}", "unreadable", name=path,
                              why=exc.strerror or exc) from None
    return parse_transcript(data, str(path))


def parse_transcript(data: bytes, name: str = "transcript") -> list[dict[str, Any]]:
    """The records of transcript bytes; see `read_transcript`."""
    records = list(_records(data, name))
    if not records:
        raise TranscriptError(f"{name}: empty, not a unonet transcript", "empty", name=name)
    first = records[0]
    if first.get("t") != HEADER_TYPE:
        raise TranscriptError(f"{name}: not a unonet transcript (no transcript header)",
                              "no_header", name=name)
    if first.get("version") != VERSION:
        found = repr(first.get("version"))
        raise TranscriptError(f"{name}: transcript version {found} is not {VERSION}, the one "
                              "this unonet reads", "version", name=name, found=found,
                              version=VERSION)
    return records


def _records(data: bytes, name: str) -> Iterator[dict[str, Any]]:
    unpacker = msgpack.Unpacker(raw=False, strict_map_key=False, max_buffer_size=len(data) + 1)
    unpacker.feed(data)
    index = end = 0
    while True:
        try:
            record = unpacker.unpack()
        except msgpack.OutOfData:
            if end != len(data):
                raise TranscriptError(f"{name}: cut off inside record {index} (truncated "
                                      "file?)", "cut", name=name, index=index) from None
            return
        except Exception as exc:  # msgpack raises many types for malformed input
            kind = type(exc).__name__
            raise TranscriptError(f"{name}: not msgpack at record {index} ({kind})",
                                  "not_msgpack", name=name, index=index, kind=kind) from None
        if not isinstance(record, dict):
            raise TranscriptError(f"{name}: record {index} is not a map", "not_map", name=name,
                                  index=index)
        if not isinstance(record.get("t"), str):  # a map, but no unonet message
            raise TranscriptError(f"{name}: record {index} is a map without a message type "
                                  "(\"t\"): not a unonet transcript", "no_type", name=name,
                                  index=index)
        yield record
        index, end = index + 1, unpacker.tell()
