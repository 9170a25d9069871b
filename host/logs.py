"""Logging for the host: one line per event that matters, to stderr and to a file."""

from __future__ import annotations

import logging
from pathlib import Path

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def setup_logging(
    log_file: Path | None, level: int = logging.INFO, *, to_stderr: bool = True
) -> None:
    """Send the `unonet` loggers to stderr (unless a full-screen client owns the terminal)
    and, if given, appended to `log_file`."""
    root = logging.getLogger("unonet")
    root.setLevel(level)
    formatter = logging.Formatter(FORMAT)
    handlers: list[logging.Handler] = [logging.StreamHandler()] if to_stderr else []
    if log_file is not None:
        log_file.parent.mkdir(parents=True, exist_ok=True)
        handlers.append(logging.FileHandler(log_file, encoding="utf-8"))
    for handler in handlers:
        handler.setFormatter(formatter)
        root.addHandler(handler)
    for handler in handlers[:1]:
        logging.getLogger("trio").addHandler(handler)
