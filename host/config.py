"""Where the host keeps what must outlive a run: its TLS key and certificate, journals, logs."""

from __future__ import annotations

import os
from pathlib import Path


def config_dir() -> Path:
    """$UNONET_HOME, else $XDG_CONFIG_HOME/unonet, else ~/.config/unonet (created, owner-only)."""
    explicit = os.environ.get("UNONET_HOME")
    if explicit:
        path = Path(explicit)
    else:
        xdg = os.environ.get("XDG_CONFIG_HOME")
        base = Path(xdg) if xdg else Path.home() / ".config"
        path = base / "unonet"
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    return path
