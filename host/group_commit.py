"""Group commit: the journals written since the last commit, made durable together.

A table's journal line must be on disk before anyone sees what it records (host/journal.py),
and an fsync costs a disk's flush (a few hundred µs here). Each table journals to a file of
its own, so an fsync per action made a host of many tables flush the disk once per action,
in the event loop, holding every table up. Instead the server holds what the tables queued,
commits every journal written since the last commit at once, then sends: one flush for all
the actions of a pass of the event loop, however many tables they came from. The lines
themselves wait in their journals until then, and each journal writes its lines of the pass in
one write, before the sync: a write per journal per pass, not one per line.

One journal written: `fsync` it. Several on one file system: one `syncfs` (Linux; it reports
write-back errors since Linux 5.8) makes them all durable for about the cost of one fsync (a
flush of that file system: benchmarks/journal_sync.py). Where there is no `syncfs`, each is
fsync'd. A journal whose write or sync fails is reported, and its table is closed by the
caller.

A host may trade the last moments of play on a power cut for speed (`interval`, `unonet host
--journal-sync MS`): then a line goes to the operating system as soon as it is made, still
before anything it records is sent, so a host that crashes or is killed loses nothing, and
the disk gets it within `interval` seconds, synced by a worker thread (`take_dirty`,
`sync_taken`) while the event loop plays on. Nothing waits for a commit then, so no
answer waits for the disk. A power cut loses at most the last interval's lines: players'
clients that saw those moves report the resumed history that lacks them (SPEC.md
[UNO-11-50], [UNO-11-51]).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
from collections.abc import Callable, Sequence
from typing import Protocol


class Committable(Protocol):
    """What a journal shows the group: its file, to sync, and the file system it is on."""

    device: int
    """`st_dev` of the file: journals on one file system share a syncfs."""

    def fileno(self) -> int: ...

    def write_waiting(self) -> None:
        """Write the lines it holds for the commit (raises OSError if the disk refuses)."""

    def synced(self) -> None:
        """Its lines so far are on disk."""


def _load_syncfs() -> Callable[[int], None] | None:
    """libc's syncfs(2), raising OSError as os's calls do; None where there is none."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
        function = libc.syncfs
    except (OSError, AttributeError):
        return None
    function.argtypes = [ctypes.c_int]
    function.restype = ctypes.c_int

    def syncfs(fd: int) -> None:
        if function(fd) != 0:
            number = ctypes.get_errno()
            raise OSError(number, os.strerror(number))

    return syncfs


SYNCFS = _load_syncfs()


def sync_descriptors(files: Sequence[tuple[int, int]], fsync: Callable[[int], None] = os.fsync,
                     syncfs: Callable[[int], None] | None = SYNCFS) -> dict[int, Exception]:
    """Make `files`, (device, descriptor) pairs, durable: one `syncfs` for several on one
    file system (each fsync'd to find out which failed, if it fails), an fsync otherwise.
    Returns the errors by position in `files`. No state of its own: a worker thread runs it
    for `GroupCommit.take_dirty`, and `GroupCommit.commit` in the event loop."""
    by_device: dict[int, list[int]] = {}
    for position, (device, _) in enumerate(files):
        by_device.setdefault(device, []).append(position)
    failed: dict[int, Exception] = {}
    for positions in by_device.values():
        if len(positions) > 1 and syncfs is not None:
            try:
                syncfs(files[positions[0]][1])
            except Exception:
                pass  # find out which of them failed, one by one
            else:
                continue
        for position in positions:
            try:
                fsync(files[position][1])
            except Exception as exc:  # reported: its table closes
                failed[position] = exc
    return failed


def sync_taken(taken: Sequence[tuple[Committable, int]], fsync: Callable[[int], None] = os.fsync,
               syncfs: Callable[[int], None] | None = SYNCFS) -> dict[int, Exception]:
    """Sync what `GroupCommit.take_dirty` took and close its duplicated descriptors, whatever
    happens: the errors by position in `taken`. The host's worker thread runs it, so the
    closes stay off the event loop too."""
    try:
        return sync_descriptors([(journal.device, duplicate) for journal, duplicate in taken],
                                fsync, syncfs)
    finally:
        for _, duplicate in taken:
            os.close(duplicate)


class GroupCommit:
    """The journals of one host written since its last commit."""

    def __init__(self, fsync: Callable[[int], None] = os.fsync,
                 syncfs: Callable[[int], None] | None = SYNCFS,
                 interval: float | None = None) -> None:
        self.deferred = False
        """Whether journals leave their fsync to the group (set by the server, which commits
        before it sends anything, or syncs every `interval`); otherwise each line is fsync'd
        as it is written."""
        self.interval = interval
        """None: every line is on disk before anything it records is sent (the default).
        Seconds: while deferred, every line goes to the operating system at once and to the
        disk within this long (the server's `_journal_syncs`)."""
        self.fsync = fsync
        """How one journal is synced: by `commit`, and by a journal of this group that syncs
        itself (as it is written when not deferred, or as it closes)."""
        self.syncfs = syncfs
        """How journals on one file system are synced together (None: each fsync'd)."""
        self._written: dict[int, Committable] = {}  # by id
        self._dirty: dict[int, Committable] = {}  # by id: written to the OS, not yet synced
        self._retired: list[tuple[Committable, int]] = []
        """Journals closed on an interval before their last sync, each with a duplicate of
        its descriptor that the next sync syncs and closes (`retire`)."""
        self.commits = 0
        """How many commits synced anything (tests read it)."""
        self.syncs = 0
        """How many interval syncs took any journal (tests and benchmarks read it)."""

    @property
    def holding(self) -> bool:
        """Whether lines wait in memory for the commit, and what they record with them."""
        return self.deferred and self.interval is None

    @property
    def pending(self) -> bool:
        """Something is written and not yet durable: hold what it records."""
        return bool(self._written)

    @property
    def unsynced(self) -> int:
        """How many journals have lines not yet on disk (at most one per table, and those of
        matches that ended since the last sync)."""
        return len(self._written) + len(self._dirty) + len(self._retired)

    def written(self, journal: Committable) -> None:
        """`journal` holds lines for the commit (strict mode)."""
        self._written[id(journal)] = journal

    def dirty(self, journal: Committable) -> None:
        """`journal` wrote lines to the operating system that the next interval syncs."""
        self._dirty[id(journal)] = journal

    def forget(self, journal: Committable) -> None:
        """A journal closed (it synced itself first) or given up."""
        self._written.pop(id(journal), None)
        self._dirty.pop(id(journal), None)

    def retire(self, journal: Committable) -> bool:
        """`journal` closes (its match ended) with lines the system has and the disk may not:
        on an interval, the next sync takes them, through a duplicate of its descriptor, so
        that no answer waits for the disk at a match's end either. False if it must sync
        itself: not on an interval, or out of descriptors."""
        if not (self.deferred and self.interval is not None):
            return False
        try:
            self._retired.append((journal, os.dup(journal.fileno())))
        except OSError:
            return False
        return True

    def take_dirty(self) -> list[tuple[Committable, int]]:
        """The journals written since the last interval sync (those closed since, `retire`,
        first), each with a duplicate of its descriptor for a worker thread to sync and close
        (`sync_taken`):
        a journal that closes meanwhile closes its own descriptor, never the one being
        synced. Each counts as synced from now: a line written after this is the next
        sync's, and one written before is on disk once the thread's sync returns."""
        dirty, self._dirty = self._dirty, {}
        taken, self._retired = self._retired, []
        for journal in dirty.values():
            try:
                duplicate = os.dup(journal.fileno())
            except OSError:  # out of descriptors: synced here, in the loop
                self._dirty[id(journal)] = journal
                continue
            journal.synced()
            taken.append((journal, duplicate))
        if taken:
            self.syncs += 1
        return taken

    def commit(self) -> list[tuple[Committable, Exception]]:
        """Make every journal written since the last commit (or interval sync) durable.
        Returns those whose write or sync failed, with the error (an OSError from the disk;
        anything else is a bug, and fails closed the same way); they are no longer pending
        (their table is to close)."""
        written = {**self._written, **self._dirty}
        self._written, self._dirty = {}, {}
        failed: list[tuple[Committable, Exception]] = []
        if self._retired:  # a stopping host's last interval: the journals closed since
            retired, self._retired = self._retired, []
            errors = sync_taken(retired, self.fsync, self.syncfs)
            failed += [(retired[position][0], error) for position, error in errors.items()]
        if not written:
            return failed
        self.commits += 1
        ready: list[Committable] = []
        files: list[tuple[int, int]] = []
        for journal in written.values():
            try:
                journal.write_waiting()
                files.append((journal.device, journal.fileno()))
            except Exception as exc:  # reported: its table closes
                failed.append((journal, exc))
            else:
                ready.append(journal)
        errors = sync_descriptors(files, self.fsync, self.syncfs)
        for position, journal in enumerate(ready):
            if position in errors:
                failed.append((journal, errors[position]))
            else:
                journal.synced()
        return failed
