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
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
from collections.abc import Callable
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


class GroupCommit:
    """The journals of one host written since its last commit."""

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
        self.commits = 0
        """How many commits synced anything (tests read it)."""

    @property
    def pending(self) -> bool:
        """Something is written and not yet durable: hold what it records."""
        return bool(self._written)

    @property
    def unsynced(self) -> int:
        """How many journals have lines not yet on disk (at most one per table)."""
        return len(self._written)

    def written(self, journal: Committable) -> None:
        self._written[id(journal)] = journal

    def forget(self, journal: Committable) -> None:
        """A journal closed (it synced itself first) or given up."""
        self._written.pop(id(journal), None)

    def commit(self) -> list[tuple[Committable, Exception]]:
        """Make every journal written since the last commit durable. Returns those whose
        write or sync failed, with the error (an OSError from the disk; anything else is a bug, and
        fails closed the same way); they are no longer pending (their table is to close)."""
        written, self._written = self._written, {}
        if not written:
            return []
        self.commits += 1
        by_device: dict[int, list[Committable]] = {}
        failed: list[tuple[Committable, Exception]] = []
        for journal in written.values():
            try:
                journal.write_waiting()
            except Exception as exc:  # reported: its table closes
                failed.append((journal, exc))
            else:
                by_device.setdefault(journal.device, []).append(journal)
        for journals in by_device.values():
            if len(journals) > 1 and self._syncfs is not None:
                try:
                    self._syncfs(journals[0].fileno())
                except Exception:
                    pass  # find out which of them failed, one by one
                else:
                    for journal in journals:
                        journal.synced()
                    continue
            for journal in journals:
                try:
                    self.fsync(journal.fileno())
                except Exception as exc:  # reported: its table closes
                    failed.append((journal, exc))
                else:
                    journal.synced()
        return failed
