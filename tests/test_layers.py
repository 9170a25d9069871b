"""Imports only point down (DESIGN.md, Layers): client and host above protocol above the
engine, host and client never each other, and only unonet/cli.py (the command) and
unonet/__main__.py wire them all together. The engine and the protocol do no I/O, so neither
imports trio; the engine knows nothing of msgpack either."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

COMMAND = {"unonet/cli.py", "unonet/__main__.py"}
"""The engine package's modules that are the command, not the engine."""

FORBIDDEN = {
    "unonet": {"protocol", "host", "client", "trio", "msgpack", "socket", "asyncio",
               "prompt_toolkit"},
    "protocol": {"host", "client", "trio", "socket", "asyncio", "prompt_toolkit"},
    "host": {"client", "prompt_toolkit"},
    "client": {"host"},
}
"""What each package must not import (the top-level name of the module imported)."""


def imported(path: Path) -> set[str]:
    """The top-level names of every module `path` imports, at any depth of its code (an
    import inside a function or under TYPE_CHECKING counts the same)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def modules(package: str) -> list[Path]:
    return sorted(path for path in (ROOT / package).rglob("*.py")
                  if str(path.relative_to(ROOT)) not in COMMAND)


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_a_package_imports_nothing_above_it(package: str) -> None:
    found = {str(path.relative_to(ROOT)): sorted(imported(path) & FORBIDDEN[package])
             for path in modules(package)}
    assert {path: names for path, names in found.items() if names} == {}


def test_the_check_sees_an_import_inside_a_function(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("def f():\n"
                      "    from host.server import HostServer\n"
                      "    import trio.lowlevel\n")
    assert imported(module) == {"host", "trio"}


def test_the_engine_loads_nothing_above_it_when_imported() -> None:
    """At run time too: a name in a string (importlib) is no import statement for the check
    above. A fresh interpreter imports every engine module; no module of the layers above, nor
    trio or msgpack, is loaded after it."""
    engine = sorted(
        ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        for path in modules("unonet"))
    script = (
        "import importlib, sys\n"
        f"for name in {engine!r}:\n"
        "    importlib.import_module(name)\n"
        "print(sorted({m.split('.')[0] for m in sys.modules}))\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=ROOT, timeout=120, check=True)
    loaded = set(ast.literal_eval(done.stdout.strip().splitlines()[-1]))
    # The project's own layers and the libraries of I/O; not the standard library's modules,
    # which may load one another as a Python version pleases.
    assert loaded & {"protocol", "host", "client", "trio", "msgpack", "prompt_toolkit"} == set()
