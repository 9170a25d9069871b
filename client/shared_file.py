"""Files in the config dir that several unonet processes of one user rewrite.

A host in one terminal and `unonet join` in another (or two joins, or a bot) share the config
dir, so `known_hosts` and `seat_tokens` are each read, changed and written whole by more than one
process. Without a lock, two such updates at the same moment lost one of them: two clients told
of the same match start kept their seat tokens at once, and one token was gone, so that player's
restart sat down as a newcomer and was refused. `locked` makes each read-modify-write whole, and
`replace_text` writes so that a reader sees the old file or the new one, never half of one.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

LOCK_SUFFIX = ".lock"


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """Hold `path`'s lock (an empty `path.lock` beside it) while the block reads and rewrites
    `path`; another process's block waits for it. The lock file stays: removing it would let a
    third process lock a file the second no longer sees."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    descriptor = os.open(path.with_name(path.name + LOCK_SUFFIX), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)  # and with it the lock


def replace_text(path: Path, text: str) -> None:
    """Make `text` the whole of `path`: written to a temporary file of this call's own
    (owner-only from the start, for a file that holds secrets) and renamed over `path`."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".",
                                             suffix=".tmp")
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            file.write(text)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
