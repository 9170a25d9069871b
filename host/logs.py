"""Logging for the host: one line per event that matters, to stderr and to a rotating file.

What a stranger does is said in one line per event (a hello, a refusal, how the connection
ended), and no client can flood the log: each connection has a budget of lines (`LineBudget`),
and what it suppresses is counted and said once, in the connection's last line.
"""

from __future__ import annotations

import logging
import logging.handlers
from pathlib import Path
from typing import Any

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"

LOG_FILE_BYTES = 1024 * 1024
"""One log file's size before it rotates: a day of a busy host's connections (about 200 bytes
each), small enough to read in any editor."""

LOG_FILE_BACKUPS = 4
"""Rotated files kept (host.log.1 ... host.log.4): the log never takes more than 5 MiB."""

LINES_PER_SECOND = 2.0
LINES_BURST = 10
"""A connection's log budget: an honest client's connection writes two or three lines in its
life (hello, maybe a refusal, its end); a flood of refused frames writes ten, then two a
second. The line saying how a connection ended is always written."""

TEXT_CHARS = 120
"""Longest piece of client-chosen text (a name, an error message) quoted in a log line."""


def setup_logging(
    log_file: Path | None, level: int = logging.INFO, *, to_stderr: bool = True
) -> None:
    """Send the `unonet` loggers to stderr (unless a full-screen client owns the terminal)
    and, if given, to `log_file`, rotated at LOG_FILE_BYTES with LOG_FILE_BACKUPS kept."""
    root = logging.getLogger("unonet")
    root.setLevel(level)
    formatter = logging.Formatter(FORMAT)
    handlers: list[logging.Handler] = [logging.StreamHandler()] if to_stderr else []
    if log_file is not None:
        log_file.parent.mkdir(parents=True, exist_ok=True)
        handlers.append(logging.handlers.RotatingFileHandler(
            log_file, maxBytes=LOG_FILE_BYTES, backupCount=LOG_FILE_BACKUPS, encoding="utf-8"))
    for handler in handlers:
        handler.setFormatter(formatter)
        root.addHandler(handler)
    for handler in handlers[:1]:
        logging.getLogger("trio").addHandler(handler)


def quoted(text: object) -> str:
    """Client-chosen text as a log shows it: repr (control characters escaped, so a name
    cannot forge a line or drive a terminal), cut at TEXT_CHARS."""
    shown = repr(text)
    return shown if len(shown) <= TEXT_CHARS else shown[:TEXT_CHARS] + "..."


class LineBudget:
    """A token bucket of log lines, pure (time is an argument): `allow(now)` spends one."""

    def __init__(self, now: float, *, rate: float = LINES_PER_SECOND,
                 burst: int = LINES_BURST) -> None:
        self.rate = rate
        self.burst = burst
        self._tokens = float(burst)
        self._updated = now
        self.suppressed = 0
        """Lines refused so far."""

    def allow(self, now: float) -> bool:
        if now > self._updated:
            self._tokens = min(float(self.burst), self._tokens + (now - self._updated) * self.rate)
            self._updated = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        self.suppressed += 1
        return False


class ConnectionLog:
    """The log lines of one connection, under its `LineBudget`; `last` is never suppressed
    and says how many lines were."""

    def __init__(self, logger: logging.Logger, prefix: str, now: float) -> None:
        self.logger = logger
        self.prefix = prefix  # "conn 12 (192.0.2.7:50312)"
        self.budget = LineBudget(now)

    def line(self, now: float, level: int, text: str, *args: Any) -> None:
        if self.logger.isEnabledFor(level) and self.budget.allow(now):
            self.logger.log(level, self.prefix + ": " + text, *args)

    def last(self, level: int, text: str, *args: Any) -> None:
        if self.budget.suppressed:
            text += f" ({self.budget.suppressed} log lines suppressed)"
        self.logger.log(level, self.prefix + ": " + text, *args)
