"""What runs compiled: the modules mypyc compiles on `pip install .`, and whether they were.

setup.py reads `ENGINE_MODULES` and `HOST_MODULES` from this file's source (ast, without
importing unonet), so they stay literal tuples of strings. Nothing here does I/O:
`engine_is_compiled` looks at how the engine's module objects were loaded. Whether the host's
modules were is host/compiled.py's question: importing them from here would make the engine
import the layers above it.
"""

from __future__ import annotations

import importlib
from importlib.machinery import ExtensionFileLoader

__all__ = [
    "COMPILED_MODULES",
    "ENGINE_MODULES",
    "HOST_MODULES",
    "all_compiled",
    "engine_is_compiled",
]

ENGINE_MODULES = (
    "unonet.actions",
    "unonet.cards",
    "unonet.encoding",
    "unonet.errors",
    "unonet.events",
    "unonet.flip",
    "unonet.flip_deck",
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
"""The engine (what a Match runs on)."""

HOST_MODULES = (
    # The wire, as the host reads and writes it for every frame: the limits and error codes it
    # cites, the msgpack profile and catalogue checks, the codecs of actions, events and views,
    # and HostConnection (framing, rate limit, keepalive, connection state).
    "protocol.connection",
    "protocol.errors",
    "protocol.frames",
    "protocol.game_codec",
    "protocol.host_connection",
    "protocol.keepalive",
    "protocol.limits",
    "protocol.messages",
    "protocol.profile",
    "protocol.ratelimit",
    "protocol.schema",
    "protocol.state",
    "protocol.text",
    "protocol.versions",
    "protocol.wire_codecs",
    # Not the host's: the client's sans-IO session, because it subclasses Endpoint
    # (protocol.connection) and mypyc lets no interpreted class inherit from a compiled one.
    "protocol.client_session",
    # The host's side of the trust protocol: each event's proof fields and the events digest
    # (every action), the round's commitments, seed exchange and signed messages (every round).
    "protocol.trust.constants",
    "protocol.trust.deck",
    "protocol.trust.host",
    "protocol.trust.messages",
    "protocol.trust.primitives",
    "protocol.trust.seed_exchange",
    "protocol.trust.signing",
    # The tables, sans-IO: an intent's way from the registry to the match and back out as what
    # each member gets, down to each connection's frames (host/routing.py). The trio shell
    # (host/connection.py, host/server.py, host/poller.py), the journal's file I/O and the
    # settings stay pure Python: they await, touch files, or run once per round rather than
    # once per action. So do the stand-in bots (host/bots.py): their bookkeeping
    # runs at every action, but compiled it made no difference beyond the noise where the
    # host's tables have players only, as in the benchmarks (benchmarks/host_logic.py, 20
    # tables, three alternating pairs: 0.93x, 1.07x, 0.99x); tables of bots were not measured.
    "host.game",
    "host.outgoing",
    "host.registry",
    "host.round_log",
    "host.routing",
    "host.seating",
    "host.table",
    "host.table_limits",
)
"""The host's action path around the engine: no trio, no I/O (mypyc compiles neither awaits
nor anything it could not check), every module something an action runs through."""

COMPILED_MODULES = ENGINE_MODULES + HOST_MODULES
"""What setup.py compiles, into one shared library: a call from the host into the engine stays
a native call (two libraries would meet through Python's calling convention)."""


def all_compiled(names: tuple[str, ...]) -> bool:
    """True when every module named was loaded from an extension module (importing it if it
    was not yet): the mypyc build rather than its .py source."""
    for name in names:
        spec = importlib.import_module(name).__spec__
        if spec is None or not isinstance(spec.loader, ExtensionFileLoader):
            return False
    return True


def engine_is_compiled() -> bool:
    """True when every engine module was loaded from an extension module (the mypyc build),
    False when any runs from its .py source (editable installs, UNONET_PURE=1, no compiler)."""
    return all_compiled(ENGINE_MODULES)
