"""Whether the host's action path runs compiled, and which parts do, in words.

The list of modules mypyc compiles is unonet/compiled.py's (setup.py reads it there); asking
whether they were loaded compiled imports them, protocol and host modules among them, so the
question is asked from here, above them, not from the engine.
"""

from __future__ import annotations

from unonet.compiled import HOST_MODULES, all_compiled, engine_is_compiled

__all__ = ["compiled_parts", "host_is_compiled"]


def host_is_compiled() -> bool:
    """True when every module of HOST_MODULES was loaded from an extension module (imported
    here if it was not yet)."""
    return all_compiled(HOST_MODULES)


def compiled_parts() -> str:
    """Which parts run compiled, in words (`unonet --version`, the benchmarks)."""
    engine, host = engine_is_compiled(), host_is_compiled()
    if engine and host:
        return "compiled engine and host"
    if engine:
        return "compiled engine, pure-Python host"
    if host:
        return "pure-Python engine, compiled host"
    return "pure-Python engine and host"
