"""Group commit: the journals written since the last commit, made durable together.

A table's journal line must be on disk before anyone sees what it records (host/journal.py),
and an fsync costs a disk's flush (a few hundred µs here). Each table journals to a file of
its own, so an fsync per action made a host of many tables flush the disk once per action,
in the event loop, holding every table up. Instead the server holds what the tables queued,
commits every journal written since the last commit at once, then sends: one flush for all
the actions of a pass of the event loop, however many tables they came from.

One journal written: `fsync` it. Several on one file system: one `syncfs` (Linux; it reports
write-back errors since Linux 5.8) makes them all durable for about the cost of one fsync (a
flush of that file system: benchmarks/journal_sync.py). Where there is no `syncfs`, each is
fsync'd. A journal whose sync fails is reported, and its table is closed
by the caller, as a table whose write failed always was.

The server runs the sync in a worker thread (`CommitBatch.sync`), so that the event loop goes
on reading and playing while the disk flushes: what it plays meanwhile is journalled for the
next commit, and what it would send waits for that one. A sync on the event loop put the
process to sleep for the disk's flush, and the Python that ran after it ran slower, on caches
others had used meanwhile.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol


class Committable(Protocol):
    """What a journal shows the group: its file, to sync, and the file system it is on."""

    device: int
    """`st_dev` of the file: journals on one file system share a syncfs."""

    def fileno(self) -> int: ...

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


@dataclass
class CommitBatch:
    """The journals one commit makes durable, with a duplicate of each file descriptor it
    syncs: `sync` may run in a worker thread while the event loop goes on, and a journal
    that closes meanwhile (its match over) must not have its number reused under the sync."""

    journals: dict[int, Committable]  # by id
    plan: list[tuple[list[Committable], list[int]]]
    """Per file system: its journals and their duplicated descriptors, in the same order."""
    fsync: Callable[[int], None]
    syncfs: Callable[[int], None] | None
    early: list[tuple[Committable, Exception]]
    """Journals that failed before the sync (their file was closed under them)."""
    borrowed: bool = False
    """The descriptors are the journals' own (no duplicate could be made): `sync` must run
    before any of them can close, on the event loop, and leaves them open."""

    def sync(self) -> list[tuple[Committable, Exception]]:
        """Make the batch durable (blocking; touches nothing but the batch, so it may run in
        a worker thread): one syncfs per file system holding several journals, an fsync
        each otherwise, or where the syncfs failed, to find which. Returns the journals
        whose sync failed, with the error; the descriptors are closed."""
        failed = list(self.early)
        try:
            for journals, fds in self.plan:
                if len(fds) > 1 and self.syncfs is not None:
                    try:
                        self.syncfs(fds[0])
                    except Exception:
                        pass  # find out which of them failed, one by one
                    else:
                        continue
                for journal, fd in zip(journals, fds, strict=True):
                    try:
                        self.fsync(fd)
                    except Exception as exc:  # reported: its table closes
                        failed.append((journal, exc))
        finally:
            if not self.borrowed:
                for _, fds in self.plan:
                    for fd in fds:
                        os.close(fd)
        return failed


class GroupCommit:
    """The journals of one host written since its last commit, and those of the commit in
    flight. A commit is `begin` (on the event loop), `CommitBatch.sync` (in a worker thread,
    or at once), then `end` (on the event loop); `commit` does all three at once."""

    def __init__(self, fsync: Callable[[int], None] = os.fsync,
                 syncfs: Callable[[int], None] | None = SYNCFS) -> None:
        self.deferred = False
        """Whether journals leave their fsync to `commit` (set by the server, which commits
        before it sends anything); otherwise each line is fsync'd as it is written."""
        self.fsync = fsync
        """How one journal is synced: by `commit`, and by a journal of this group that syncs
        itself (as it is written when not deferred, or as it closes)."""
        self._syncfs = syncfs
        self._written: dict[int, Committable] = {}  # by id
        self._in_flight: dict[int, Committable] = {}
        """The journals of the commit begun and not yet ended."""
        self.commits = 0
        """How many commits synced anything (tests read it)."""

    @property
    def pending(self) -> bool:
        """Something is written and not yet durable, or a commit is in flight: hold what
        it records."""
        return bool(self._written) or bool(self._in_flight)

    @property
    def waiting(self) -> bool:
        """Something is written that no commit has taken yet: a commit is wanted."""
        return bool(self._written)

    @property
    def unsynced(self) -> int:
        """How many journals have lines not yet on disk (at most one per table)."""
        return len(self._written.keys() | self._in_flight.keys())

    def written(self, journal: Committable) -> None:
        self._written[id(journal)] = journal

    def forget(self, journal: Committable) -> None:
        """A journal closed (it synced itself first) or given up."""
        self._written.pop(id(journal), None)
        self._in_flight.pop(id(journal), None)

    def begin(self) -> CommitBatch | None:
        """Take every journal written since the last commit (and any of a commit that never
        ended) into a batch to sync; None if there is none. Lines written from now on wait
        for the next commit."""
        journals = {**self._in_flight, **self._written}
        self._written = {}
        self._in_flight = journals
        if not journals:
            return None
        self.commits += 1
        early: list[tuple[Committable, Exception]] = []
        by_device: dict[int, tuple[list[Committable], list[int]]] = {}
        for journal in journals.values():
            try:
                fileno = journal.fileno()
            except Exception as exc:  # a file closed under it (a bug): fails closed
                early.append((journal, exc))
                continue
            on_device, filenos = by_device.setdefault(journal.device, ([], []))
            on_device.append(journal)
            filenos.append(fileno)
        plan = list(by_device.values())
        duplicates: list[tuple[list[Committable], list[int]]] = []
        try:
            for on_device, filenos in plan:
                fds: list[int] = []
                duplicates.append((on_device, fds))
                for fileno in filenos:
                    fds.append(os.dup(fileno))
        except OSError:  # out of descriptors: the journals' own, synced on the event loop
            for _, fds in duplicates:
                for fd in fds:
                    os.close(fd)
            return CommitBatch(journals, plan, self.fsync, self._syncfs, early, borrowed=True)
        return CommitBatch(journals, duplicates, self.fsync, self._syncfs, early)

    def end(self, batch: CommitBatch | None,
            failed: list[tuple[Committable, Exception]]) -> None:
        """The batch's sync returned `failed`: the others are durable up to the lines they
        had when it began (those written since wait for the next commit)."""
        self._in_flight = {}
        if batch is None:
            return
        refused = {id(journal) for journal, _ in failed}
        for key, journal in batch.journals.items():
            if key not in refused and key not in self._written:
                journal.synced()

    def commit(self) -> list[tuple[Committable, Exception]]:
        """Make every journal written since the last commit durable, at once. Returns those
        whose sync failed, with the error (an OSError from the disk; anything else is a
        bug, and fails closed the same way); they are no longer pending (their table is to
        close)."""
        batch = self.begin()
        failed = [] if batch is None else batch.sync()
        self.end(batch, failed)
        return failed
