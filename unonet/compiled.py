"""Which engine runs: the modules mypyc compiles on `pip install .`, and whether they were.

setup.py reads `ENGINE_MODULES` from this file's source (ast, without importing unonet), so it
stays a literal tuple of strings. Nothing here does I/O: `engine_is_compiled` looks at how the
engine's module objects were loaded.
"""

from __future__ import annotations

import importlib
from importlib.machinery import ExtensionFileLoader

__all__ = ["ENGINE_MODULES", "engine_is_compiled"]

ENGINE_MODULES = (
    "unonet.actions",
    "unonet.cards",
    "unonet.encoding",
    "unonet.errors",
    "unonet.events",
    "unonet.flip",
    "unonet.flip_deck",
    "unonet.hmac_sha256",
    "unonet.legality",
    "unonet.match",
    "unonet.matching",
    "unonet.no_mercy_deck",
    "unonet.phase",
    "unonet.plays",
    "unonet.round",
    "unonet.rules",
    "unonet.scoring",
    "unonet.shuffle",
    "unonet.view",
)
"""The engine (what a Match runs on), compiled together by mypyc into one shared library."""


def engine_is_compiled() -> bool:
    """True when every engine module was loaded from an extension module (the mypyc build),
    False when any runs from its .py source (editable installs, UNONET_PURE=1, no compiler)."""
    for name in ENGINE_MODULES:
        spec = importlib.import_module(name).__spec__
        if spec is None or not isinstance(spec.loader, ExtensionFileLoader):
            return False
    return True
