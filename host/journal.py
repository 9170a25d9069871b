"""The journal: what a crashed or stopped host needs to resume a match exactly where it was.

One JSON object per line, append-only, each line on disk before anyone sees what it records:
written and fsync'd at once, or, on a served host, written and synced by the group commit the
server runs before it sends anything (host/group_commit.py). A host run with `--journal-sync
MS` writes each line to the operating system before anyone sees what it records and leaves it
to a sync every MS milliseconds: a crash of the host loses nothing, a power cut the last MS.

- `header`: format version, rules, seat count, match seed, game id, the table's settings and
  its seats (kind, name, bot policy, SHA-256 of the resume token: never the token itself);
- `trust`: a round's secrets (host seed, players' commitments and seeds). Written when the
  round is prepared (before round_prepare goes out), again at each step of the seed exchange
  (before seed_commits goes out, after each reveal is taken), the last one before the
  StartRound that uses the key they give. The latest record of a round wins. A round whose
  record is not followed by its StartRound was cut short by a crash: on resume, a round whose
  commitments were frozen goes on with its reveal phase and is dealt (SPEC.md 11.7: once the
  seeds start coming in, the host may know the deck, and may not give the round up); one still
  in its commitment phase is abandoned, its audit published, and the next number prepared;
  nothing else about a round is written: its events, their proofs, its digest and its audit
  follow from the replay, so a host that stops right after a round ends audits it on resume,
  and every earlier round's signed messages (round_prepare, seed_commits, seed_reveals,
  deck_commits, round_audit) are made again from its last record and its replayed events, for
  entrants to get as the host that never stopped would have sent them (`Resumed.earlier`);
- `action`: one applied action, its seat (-1 for the host) and the action as a tagged map;
- `token`: a seat's resume token changed (a resume renews it, a take-over gives a new one, a
  leave gives it up: SPEC.md 8.2): the seat and the new SHA-256, or null, and with a
  take-over the `name` of the newcomer who now plays the seat. The latest of each wins.

The engine replays deterministically (`Match.replay`), so rules + seed + actions are the whole
state. A crash mid-write leaves at most one partial last line; `load` drops it and the next
`Journal.open_append` cuts it off before writing.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from host.bots import check_level
from host.group_commit import GroupCommit
from host.round_log import ReplayedRound, RoundLog
from host.seating import BOT, HUMAN
from protocol.errors import ProtocolError
from protocol.game_codec import decode_action, encode_action
from protocol.text import normal_name
from protocol.trust.host import HostCommitments
from unonet import events as ev
from unonet.actions import HOST, Action, Expire, Penalize, StartRound
from unonet.errors import EngineError, RulesError
from unonet.match import Match
from unonet.rules import RuleSet

FORMAT_VERSION = 1

FINISHED_DIR = "finished"
"""Where a journal goes once its match has ended (a folder beside the live ones): nothing
resumes it any more, so it is a record, and records are kept only so many."""

FINISHED_KEPT = 500
"""Finished matches' journals a host keeps (the newest): a week of a busy club's matches as
records, a few MiB, where keeping all of them grows the disk by one file per match forever."""

FINISHED_SLACK = 50
"""Finished journals over FINISHED_KEPT before they are pruned back to FINISHED_KEPT. Pruning
reads the time of every one (about 6 ms for 500 on our test machine, in the event loop, where
it holds up every table), so it runs once in FINISHED_SLACK match ends, not at each."""


class JournalError(Exception):
    """A journal that cannot be resumed (not a truncated last line: real damage or a newer
    format)."""


@dataclass(frozen=True)
class SeatRecord:
    """One seat as the journal keeps it."""

    kind: str  # human or bot
    name: str
    token_hash: str | None = None  # hex SHA-256 of the resume token (humans)
    level: str | None = None  # bot policy

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "name": self.name, "token_hash": self.token_hash,
                "level": self.level}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SeatRecord:
        """ValueError (damage) unless each field is what the host writes: a seat of a kind it
        seats, a name, a token's hash in hex, a bot level it plays."""
        kind, name = data["kind"], data["name"]
        token_hash, level = data.get("token_hash"), data.get("level")
        if kind not in (HUMAN, BOT) or type(name) is not str or normal_name(name) != name:
            raise ValueError(f"a seat of kind {kind!r} named {name!r}")  # as no player is
        if token_hash is not None and not (type(token_hash) is str and len(token_hash) == 64
                                           and bytes.fromhex(token_hash)):
            raise ValueError(f"a seat's token hash {token_hash!r}")
        if level is not None and type(level) is not str:
            raise ValueError(f"a seat's bot level {level!r}")
        if kind == BOT:
            check_level(level)
        return cls(kind, name, token_hash, level)


@dataclass(frozen=True)
class Header:
    rules: RuleSet
    seats: tuple[SeatRecord, ...]
    seed: bytes
    game_id: bytes
    table: dict[str, Any]
    """The table's settings (number, name, preset, headless, target_seats, capacity,
    operator, created: a table a client opened) and `host`: how its host listened and played
    (bind, port, tls, headless, bot_delay, max_connections, per_address, journal_sync,
    tables, and the rules, seats and bots of the tables it opened; host/run.py
    host_record), which `--resume` takes for any flag not given again. A journal written
    before `host` has none: the command line's defaults then. Unknown keys are kept and
    ignored."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": "header",
            "format": FORMAT_VERSION,
            "rules": self.rules.to_dict(),
            "seats": [seat.to_dict() for seat in self.seats],
            "seed": self.seed.hex(),
            "game_id": self.game_id.hex(),
            "table": self.table,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Header:
        if not isinstance(data, Mapping) or data.get("kind") != "header":
            raise JournalError("the first line is not a journal header")
        if data.get("format") != FORMAT_VERSION:
            raise JournalError(f"journal format {data.get('format')!r} is not {FORMAT_VERSION}")
        return cls(
            rules=RuleSet.from_dict(dict(data["rules"])),
            seats=tuple(SeatRecord.from_dict(s) for s in data["seats"]),
            seed=bytes.fromhex(data["seed"]),
            game_id=bytes.fromhex(data["game_id"]),
            table=_checked_table(data["table"]),
        )


TABLE_RECORD: dict[str, tuple[type, ...]] = {
    "number": (int,), "name": (str,), "preset": (str,), "headless": (bool,),
    "operator": (bool,), "capacity": (int,), "target_seats": (int, type(None)),
    "created": (bool,), "host": (dict,),
}
"""The table record's keys a resumed table is built from, and the types each may have (a
journal from before a key has none of it: the defaults then)."""


def _checked_table(record: Any) -> dict[str, Any]:
    """The header's table record, refused (JournalError) unless each key a resumed table is
    built from has its type: a whole number of a table, 2 to 10 seats."""
    if type(record) is not dict:
        raise JournalError(f"its table record is {type(record).__name__}, not a map")
    for key, types in TABLE_RECORD.items():
        if key not in record:
            continue
        value = record[key]
        fits = type(value) in types
        if fits and type(value) is int:
            fits = value >= 0 if key == "number" else 2 <= value <= 10
        if not fits:
            raise JournalError(f"its table {key} is {value!r}")
    return dict(record)


@dataclass(frozen=True)
class TrustRecord:
    """A round's secrets: enough to rebuild its HostCommitments after a restart."""

    round_no: int
    host_seed: bytes
    commits: dict[int, bytes]
    seeds: dict[int, bytes]
    frozen: bool = True  # seed_commits was published (older journals wrote only keyed rounds)

    @classmethod
    def of(cls, commitments: HostCommitments) -> TrustRecord:
        return cls(commitments.round_no, commitments.host_seed, dict(commitments.commits),
                   dict(commitments.seeds), commitments.frozen)

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": "trust",
            "round": self.round_no,
            "host_seed": self.host_seed.hex(),
            "commits": {str(s): c.hex() for s, c in self.commits.items()},
            "seeds": {str(s): v.hex() for s, v in self.seeds.items()},
            "frozen": self.frozen,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TrustRecord:
        return cls(
            round_no=int(data["round"]),
            host_seed=bytes.fromhex(data["host_seed"]),
            commits={int(s): bytes.fromhex(c) for s, c in data["commits"].items()},
            seeds={int(s): bytes.fromhex(v) for s, v in data["seeds"].items()},
            frozen=bool(data.get("frozen", True)),
        )

    def rebuild(self, game_id: bytes) -> HostCommitments:
        """The HostCommitments as the record left it (its decks are re-dealt by load). Before the
        freeze no commitment was published, so none is kept."""
        commitments = HostCommitments(game_id, self.round_no, host_seed=self.host_seed)
        if self.frozen:
            commitments.commits.update(self.commits)
            commitments.frozen = True
            commitments.seeds.update(self.seeds)
        return commitments


# -- actions as tagged maps ----------------------------------------------------------------------


def encode_logged_action(action: Action) -> dict[str, Any]:
    """A seat action in its wire form (game_codec); a host action as a small tagged map."""
    if isinstance(action, StartRound):
        return {"type": "start_round", "key": None if action.key is None else action.key.hex()}
    if isinstance(action, Expire):
        return {"type": "expire"}
    if isinstance(action, Penalize):
        return {"type": "penalize", "target": action.target, "count": action.count}
    return encode_action(action)


def decode_logged_action(data: Mapping[str, Any]) -> Action:
    kind = data.get("type")
    if kind == "start_round":
        key = data.get("key")
        return StartRound(None if key is None else bytes.fromhex(key))
    if kind == "expire":
        return Expire()
    if kind == "penalize":
        return Penalize(int(data["target"]), int(data["count"]))
    return decode_action(data)


# -- writing -----------------------------------------------------------------------------------


_LINE_ENCODER = json.JSONEncoder(separators=(",", ":"), check_circular=False)
"""A line's JSON, as `json.dumps(line, separators=(",", ":"))` writes it: one encoder for every
line, where `json.dumps` with any argument builds a new one per call (a third of a line's cost;
a line is a tree of fresh dicts, so no cycle to check for)."""


def journal_file(folder: str | os.PathLike[str], table: int, game_id: bytes) -> str:
    """Where a new match's journal goes: its table and game in the name. A string, not a Path:
    pathlib interns every part of a path it parses, and each match's name is fresh
    (`Journal._path`)."""
    return os.path.join(folder, f"table{table}-{game_id.hex()[:12]}.jsonl")


class Journal:
    """An open journal file. Every `write_*` is on disk when it returns, unless its `group`
    defers the sync (host/group_commit.py). Deferred to its commit, the line waits in memory,
    and the commit writes it (with the others of its pass, in one write) and syncs it, which
    the server does before it sends anything: nobody has seen what a waiting line records, so
    a crash that loses it loses nothing anyone was told. Deferred to an interval
    (`GroupCommit.interval`), the line is written to the operating system at once, and
    synced with the others by the next interval's sync."""

    def __init__(self, path: str | os.PathLike[str], fd: int,
                 group: GroupCommit | None = None) -> None:
        self._path = os.fspath(path)
        """A string, not a Path: pathlib interns every part of a path it parses, and each
        match's journal has a fresh name, so a Path per match churned the interpreter's
        table of interned strings (benchmarks/soak.py saw it resize, half a MiB at a time)."""
        self._fd = fd
        self._closed = False
        self._group = group
        self._waiting: list[bytes] = []
        """Lines not yet written: their commit writes them (`write_waiting`)."""
        self._unsynced = False
        self.device = os.fstat(fd).st_dev
        """The file system it is on (host/group_commit.py syncs one at a time)."""

    @property
    def path(self) -> Path:
        """Where the journal is (made on demand: see `_path`)."""
        return Path(self._path)

    @classmethod
    def create(cls, path: str | os.PathLike[str], header: Header,
               group: GroupCommit | None = None) -> Journal:
        folder = os.path.dirname(path)
        if folder:  # a bare name is in the working folder, which exists
            os.makedirs(folder, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND, 0o600)
        journal = cls(path, fd, group)
        journal._write(header.to_dict())
        return journal

    @classmethod
    def open_append(cls, path: str | os.PathLike[str], valid_bytes: int,
                    group: GroupCommit | None = None) -> Journal:
        """Reopen after `load`, cutting a partial last line off first."""
        fd = os.open(path, os.O_WRONLY | os.O_APPEND)
        try:
            os.ftruncate(fd, valid_bytes)
        except BaseException:
            os.close(fd)
            raise
        return cls(path, fd, group)

    def write_trust(self, record: TrustRecord) -> None:
        self._write(record.to_dict())

    def write_action(self, seat: int, action: Action) -> None:
        self._write({"kind": "action", "seat": seat, "action": encode_logged_action(action)})

    def write_token(self, seat: int, token_hash: bytes | None, name: str | None = None) -> None:
        """`name`: the seat's player is someone else now (a take-over), under this name."""
        line: dict[str, Any] = {"kind": "token", "seat": seat,
                                "token_hash": None if token_hash is None else token_hash.hex()}
        if name is not None:
            line["name"] = name
        self._write(line)

    def fileno(self) -> int:
        return self._fd

    @property
    def waiting(self) -> int:
        """Lines made and not yet written to the file (they wait for their commit)."""
        return len(self._waiting)

    def write_waiting(self) -> None:
        """Write the lines waiting for the commit, in one write (raises OSError if the file
        system refuses them: a full disk)."""
        if self._waiting:
            data = b"".join(self._waiting)
            self._waiting.clear()
            _write_all(self._fd, data)

    def synced(self) -> None:
        """Its group committed it: every line so far is on disk."""
        self._unsynced = False

    def close(self) -> None:
        """Close the file, its last lines on disk first if its group has not committed them
        yet (raises OSError if they cannot be; the file is closed all the same). On an
        interval, the group's next sync puts them there instead (`GroupCommit.retire`)."""
        if self._closed:
            return
        if self._group is not None:
            self._group.forget(self)
        try:
            if self._unsynced:
                self._unsynced = False
                self.write_waiting()
                if self._group is None or not self._group.retire(self):
                    self._fsync()
        finally:
            self._closed = True
            os.close(self._fd)

    def finish(self, kept: int = FINISHED_KEPT, slack: int = FINISHED_SLACK) -> str:
        """The match ended: close the journal, move it among the finished ones, and once
        those are more than `kept + slack`, keep only the newest `kept`. Returns where it
        went. A file system that refuses (a read-only disk, a journal someone moved) leaves
        the journal where it is: losing a record is better than failing a table whose match
        just ended."""
        self.close()
        folder, name = os.path.split(self._path)
        finished = os.path.join(folder, FINISHED_DIR)
        try:
            with contextlib.suppress(FileExistsError):
                os.mkdir(finished, 0o700)
            target = os.path.join(finished, name)
            os.replace(self._path, target)
        except OSError:
            return self._path
        self._path = target
        prune_finished(finished, kept, slack)
        return target

    def _write(self, line: Mapping[str, Any]) -> None:
        if self._closed:
            raise ValueError(f"journal {self._path} is closed")
        self._waiting.append((_LINE_ENCODER.encode(line) + "\n").encode())
        group = self._group
        if group is None or not group.deferred:  # after any lines still waiting, in order
            self.write_waiting()
            self._fsync()
        elif group.interval is None:
            self._unsynced = True
            group.written(self)
        else:  # to the operating system now (a crash of the host cannot lose it), the disk soon
            self._unsynced = True
            self.write_waiting()
            group.dirty(self)

    def _fsync(self) -> None:
        (os.fsync if self._group is None else self._group.fsync)(self._fd)


def _write_all(fd: int, data: bytes) -> None:
    """os.write until all of `data` is written (a regular file takes it in one call unless
    the disk fills, and then the next call raises)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def prune_finished(finished: str | os.PathLike[str], kept: int, slack: int = 0) -> None:
    """Once `finished` holds more than `kept + slack` journals, remove all but the newest
    `kept` (by modification time). Counting the names is cheap; reading every file's time is
    what costs, and it is done only then."""
    try:
        with os.scandir(finished) as found:
            journals = [entry for entry in found if entry.name.endswith(".jsonl")]
        if len(journals) <= kept + slack:
            return
        entries = [(entry.stat().st_mtime_ns, entry.path) for entry in journals]
    except OSError:
        return
    entries.sort()
    for _, path in entries[:max(0, len(entries) - kept)]:
        with contextlib.suppress(OSError):  # gone already: the next match's pruning tries again
            os.unlink(path)


# -- reading -----------------------------------------------------------------------------------


@dataclass
class Resumed:
    """What `load` rebuilds: the header, the match in its state, and the last round's trust."""

    header: Header
    match: Match
    trust: dict[int, TrustRecord] = field(default_factory=dict)
    commitments: HostCommitments | None = None
    """The last round dealt (being played, or over if the match is between rounds)."""
    round_events: list[ev.Event] = field(default_factory=list)
    """Every event of that round, in the order the engine made (and the host sent) them."""
    abandoned: list[HostCommitments] = field(default_factory=list)
    """Rounds prepared after it and never dealt (a crash, maybe several), oldest first."""
    revealing: HostCommitments | None = None
    """The round prepared last, if its commitments were frozen and it was not dealt: the host
    goes on with its reveal phase (SPEC.md 11.7: never given up once seed_commits went out)."""
    earlier: list[ReplayedRound] = field(default_factory=list)
    """Every round prepared before the last one dealt, oldest first: the dealt ones with
    their logs (the last of them whole, the older ones only as far as their audits need),
    and those a crash abandoned before their deal."""
    valid_bytes: int = 0
    tokens: dict[int, str | None] = field(default_factory=dict)
    """Seats whose resume token changed after the header: the latest hex SHA-256, or None
    (given up)."""

    names: dict[int, str] = field(default_factory=dict)
    """Seats taken over by a newcomer after the header: the latest newcomer's name."""

    def seat_name(self, seat: int) -> str:
        """The name the seat's player goes by when the journal ends."""
        return self.names.get(seat, self.header.seats[seat].name)

    def token_hash(self, seat: int) -> str | None:
        """The seat's resume token hash in force when the journal ends."""
        if seat in self.tokens:
            return self.tokens[seat]
        return self.header.seats[seat].token_hash

    @property
    def last_trust_round(self) -> int:
        """The highest round number prepared so far: the next one must be higher."""
        return max(self.trust, default=0)


def load(path: str | os.PathLike[str]) -> Resumed:
    """Replay a journal. A partial last line (a crash mid-write) is ignored; any other damage
    raises JournalError."""
    data = Path(path).read_bytes()
    lines: list[dict[str, Any]] = []
    offset = 0
    while offset < len(data):
        end = data.find(b"\n", offset)
        if end < 0:
            break  # a partial last line: never fsync'd completely, so never acted upon
        try:
            lines.append(json.loads(data[offset:end]))
        except ValueError:
            if end + 1 < len(data):
                raise JournalError(f"damaged line at byte {offset}") from None
            break  # an unreadable last line is a torn write too
        offset = end + 1
    if not lines:
        raise JournalError("the journal has no header")
    try:
        header = Header.from_dict(lines[0])
        match = Match(header.rules, len(header.seats), header.seed)
    except DAMAGE as exc:
        raise JournalError(f"its header: {_what(exc)}") from None
    resumed = Resumed(header, match, valid_bytes=offset)
    try:
        _replay(resumed, lines)
    except DAMAGE as exc:
        raise JournalError(_what(exc)) from None
    return resumed


DAMAGE = (KeyError, TypeError, ValueError, AttributeError, EngineError, RulesError,
          ProtocolError)
"""What a journal that was not written as the host writes it (edited, or another file)
makes its replay raise: each is turned into a JournalError, one line for the operator."""


def _what(exc: Exception) -> str:
    """What is wrong, in the operator's words rather than the exception's."""
    if isinstance(exc, KeyError):
        return f"no {exc} in it"
    if isinstance(exc, EngineError):
        return f"the rules refuse it ({exc.message})"
    if isinstance(exc, ProtocolError):
        return f"not an action ({exc.message})"
    return str(exc) or type(exc).__name__


def _replay(resumed: Resumed, lines: list[Any]) -> None:
    """The match of `resumed` played on from the journal's `lines` after the header."""
    header, match = resumed.header, resumed.match
    deck_size = len(match.manifest)
    pending: dict[int, TrustRecord] = {}  # records since the last StartRound, by round
    latest: TrustRecord | None = None  # the last record, until a StartRound uses it
    for number, line in enumerate(lines[1:], start=2):
        if type(line) is not dict:
            raise JournalError(f"line {number}: not a record")
        try:
            if line["kind"] == "trust":
                latest = TrustRecord.from_dict(line)
                resumed.trust[latest.round_no] = pending[latest.round_no] = latest
                continue
            if line["kind"] == "token":
                seat = int(line["seat"])
                if not 0 <= seat < len(header.seats):
                    raise JournalError(f"line {number}: no seat {seat}")
                hashed = line["token_hash"]
                resumed.tokens[seat] = None if hashed is None else bytes.fromhex(hashed).hex()
                if "name" in line:
                    name = line["name"]
                    if type(name) is not str or normal_name(name) != name:
                        raise JournalError(f"line {number}: a seat's name is not a name")
                    resumed.names[seat] = name
                continue
            if line["kind"] != "action":
                raise JournalError(f"line {number}: unknown kind {line['kind']!r}")
            seat = int(line["seat"])
            action = decode_logged_action(line["action"])
            events = match.apply(seat, action)
            if seat == HOST and isinstance(action, StartRound):
                _round_over(resumed, pending, latest)
                resumed.commitments = (None if latest is None
                                       else latest.rebuild(header.game_id))
                resumed.round_events = []
                latest = None
                pending.clear()
                if resumed.commitments is not None:
                    resumed.commitments.deal(deck_size)
            resumed.round_events.extend(events)
            for event in events:
                if isinstance(event, ev.Reshuffled) and resumed.commitments is not None:
                    resumed.commitments.reshuffle(event.epoch, event.sources)
        except DAMAGE as exc:
            raise JournalError(f"line {number}: {_what(exc)}") from None
    numbers = sorted(pending)
    if numbers and pending[numbers[-1]].frozen:
        resumed.revealing = pending[numbers.pop()].rebuild(header.game_id)
    resumed.abandoned = [pending[r].rebuild(header.game_id) for r in numbers]


def _round_over(resumed: Resumed, pending: Mapping[int, TrustRecord],
                latest: TrustRecord | None) -> None:
    """A new round is dealt: the one dealt before it, and each prepared since and never dealt
    (all but `latest`, which this deal uses), join the earlier rounds. Only the last dealt
    one keeps its events and decks: it is sent whole, the older ones as four messages."""
    earlier = resumed.earlier
    if resumed.commitments is not None:
        for played in reversed(earlier):
            if played.log is not None:
                played.summarized()
                break
        log = RoundLog.replayed(resumed.commitments, resumed.round_events)
        earlier.append(ReplayedRound(resumed.commitments, log))
    dealing = None if latest is None else latest.round_no
    earlier += [ReplayedRound(pending[number].rebuild(resumed.header.game_id), None)
                for number in sorted(pending) if number != dealing]
