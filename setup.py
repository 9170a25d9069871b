"""Build unonet with its engine compiled by mypyc; pure Python whenever that cannot be.

pyproject.toml holds everything about the project; this file only adds `ext_modules`: the
engine modules listed in unonet/compiled.py (`ENGINE_MODULES`), compiled by mypyc into one
shared library and a small extension per module that loads it. Every extension is optional, and
the build is all or nothing: if any of them fails (no C compiler, say), none is installed and
the engine runs from its .py files, with a warning. The engine stays pure Python, not compiled:

- in an editable install (`pip install -e .`): setuptools' PEP 660 hook runs
  `setup.py editable_wheel`, and its build_ext copies what it builds into the source tree,
  where a stale compiled module would shadow every later edit of the .py next to it;
- with UNONET_PURE=1 in the environment;
- for commands that build nothing (egg_info, dist_info, sdist: pip's metadata steps).

`unonet --version` says which engine runs.
"""

from __future__ import annotations

import ast
import os
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
BUILD_COMMANDS = {"build", "build_ext", "bdist_wheel", "bdist", "bdist_egg", "install"}
EDITABLE_COMMANDS = {"editable_wheel", "develop"}
SHARED_LIB = "__mypyc"  # how mypyc's shared library of the group ends its name


def warn(message: str) -> None:
    print(f"unonet setup: WARNING: {message}", file=sys.stderr, flush=True)


def engine_modules() -> list[str]:
    """`ENGINE_MODULES` of unonet/compiled.py, read from its source: importing unonet here
    would need what the build environment does not have."""
    tree = ast.parse((ROOT / "unonet" / "compiled.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == "ENGINE_MODULES"
            for target in node.targets
        ):
            return list(ast.literal_eval(node.value))
    raise RuntimeError("unonet/compiled.py defines no ENGINE_MODULES literal")


def why_pure(argv: list[str]) -> str | None:
    """Why this run builds no compiled engine, or None when it compiles."""
    if os.environ.get("UNONET_PURE", "") not in ("", "0"):
        return "UNONET_PURE is set"
    if EDITABLE_COMMANDS & set(argv):
        return "an editable install runs the .py files"
    if not BUILD_COMMANDS & set(argv):
        return "nothing is built"
    return None


def compiled_extensions() -> list[Any]:
    """mypyc's extensions for the engine, all optional; none if mypyc cannot make them."""
    sources = [name.replace(".", "/") + ".py" for name in engine_modules()]
    try:
        from mypyc.build import mypycify

        extensions = mypycify(sources, opt_level="3")
    except (Exception, SystemExit) as exc:  # mypyc exits on a type error
        warn(f"mypyc could not compile the engine ({exc!r}); installing it as pure Python")
        return []
    for extension in extensions:
        extension.optional = True
    return extensions


class BuildPy(build_py):
    """Drop compiled engine modules that an earlier build left in build/ (pip builds in the
    source tree and reuses it), so that a pure build installs no stale extension."""

    def run(self) -> None:
        super().run()
        if not self.distribution.ext_modules:
            remove_compiled(Path(self.build_lib))


class BuildExt(build_ext):
    """All or nothing: the shared library first; if any extension fails, the built ones are
    removed and the engine stays pure. Nothing is built in editable mode."""

    def build_extensions(self) -> None:
        if self.editable_mode:
            warn("editable install: the engine is not compiled")
            self.extensions = []
            return
        self.check_extensions_list(self.extensions)
        ordered = sorted(self.extensions, key=lambda ext: not ext.name.endswith(SHARED_LIB))
        for ext in ordered:
            try:
                self.build_extension(ext)
            except Exception as exc:  # a CompileError or LinkError, or anything else
                if not ext.optional:
                    raise
                warn(
                    f"building {ext.name} failed ({exc}); the engine is installed as pure "
                    "Python (it needs a C compiler and the Python headers)"
                )
                remove_compiled(Path(self.build_lib))
                self.extensions = []
                return


def remove_compiled(build_lib: Path) -> None:
    """Delete the engine's extension modules (and mypyc's shared library) under `build_lib`."""
    stems = [build_lib / "unonet" / name.rpartition(".")[2] for name in engine_modules()]
    stems += [
        path.with_name(path.name.partition(".")[0])
        for path in build_lib.glob("*" + SHARED_LIB + ".*")
    ]
    for stem in stems:
        for suffix in EXTENSION_SUFFIXES:
            Path(str(stem) + suffix).unlink(missing_ok=True)


reason = why_pure(sys.argv[1:])
if reason is None:
    ext_modules = compiled_extensions()
else:
    ext_modules = []
    if BUILD_COMMANDS & set(sys.argv[1:]) or EDITABLE_COMMANDS & set(sys.argv[1:]):
        warn(f"the engine is not compiled: {reason}")

setup(ext_modules=ext_modules, cmdclass={"build_py": BuildPy, "build_ext": BuildExt})
