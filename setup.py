"""Build unonet with its engine and the host's action path compiled by mypyc; pure Python
whenever that cannot be.

pyproject.toml holds everything about the project; this file only adds `ext_modules`: the
modules listed in unonet/compiled.py (`ENGINE_MODULES` and `HOST_MODULES`), compiled by mypyc
into one shared library and a small extension per module that loads it. Every extension is
optional, and the build is all or nothing: if any of them fails (no C compiler, say), none is
installed and everything runs from its .py files, with a warning. Nothing is compiled:

- in an editable install (`pip install -e .`): setuptools' PEP 660 hook runs
  `setup.py editable_wheel`, and its build_ext copies what it builds into the source tree,
  where a stale compiled module would shadow every later edit of the .py next to it;
- with UNONET_PURE=1 in the environment;
- for commands that build nothing (egg_info, dist_info, sdist: pip's metadata steps).

`unonet --version` says which parts run compiled.
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


COMPILED_TUPLES = ("ENGINE_MODULES", "HOST_MODULES")  # the literals of unonet/compiled.py


def compiled_modules() -> list[str]:
    """`ENGINE_MODULES` then `HOST_MODULES` of unonet/compiled.py, read from its source:
    importing unonet here would need what the build environment does not have."""
    tree = ast.parse((ROOT / "unonet" / "compiled.py").read_text(encoding="utf-8"))
    found: dict[str, list[str]] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name) and target.id in COMPILED_TUPLES:
                    found[target.id] = list(ast.literal_eval(node.value))
    missing = [name for name in COMPILED_TUPLES if name not in found]
    if missing:
        raise RuntimeError(f"unonet/compiled.py defines no {' or '.join(missing)} literal")
    return [module for name in COMPILED_TUPLES for module in found[name]]


def why_pure(argv: list[str]) -> str | None:
    """Why this run compiles nothing, or None when it compiles."""
    if os.environ.get("UNONET_PURE", "") not in ("", "0"):
        return "UNONET_PURE is set"
    if EDITABLE_COMMANDS & set(argv):
        return "an editable install runs the .py files"
    if not BUILD_COMMANDS & set(argv):
        return "nothing is built"
    return None


def compiled_extensions() -> list[Any]:
    """mypyc's extensions, all optional; none if mypyc cannot make them. One group (one
    shared library) for the engine and the host, so that the host's calls into the engine
    stay native."""
    sources = [name.replace(".", "/") + ".py" for name in compiled_modules()]
    try:
        from mypyc.build import mypycify

        extensions = mypycify(sources, opt_level="3")
    except (Exception, SystemExit) as exc:  # mypyc exits on a type error
        warn(f"mypyc could not compile ({exc!r}); installing pure Python")
        return []
    for extension in extensions:
        extension.optional = True
    return extensions


class BuildPy(build_py):
    """Drop compiled modules that an earlier build left in build/ (pip builds in the source
    tree and reuses it), so that a pure build installs no stale extension."""

    def run(self) -> None:
        super().run()
        if not self.distribution.ext_modules:
            remove_compiled(Path(self.build_lib))


class BuildExt(build_ext):
    """All or nothing: the shared library first; if any extension fails, the built ones are
    removed and everything stays pure. Nothing is built in editable mode."""

    def build_extensions(self) -> None:
        if self.editable_mode:
            warn("editable install: nothing is compiled")
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
                    f"building {ext.name} failed ({exc}); installing pure Python (mypyc "
                    "needs a C compiler and the Python headers)"
                )
                remove_compiled(Path(self.build_lib))
                self.extensions = []
                return


def remove_compiled(build_lib: Path) -> None:
    """Delete the compiled modules (and mypyc's shared library) under `build_lib`."""
    stems = [build_lib.joinpath(*name.split(".")) for name in compiled_modules()]
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
        warn(f"nothing is compiled: {reason}")

setup(ext_modules=ext_modules, cmdclass={"build_py": BuildPy, "build_ext": BuildExt})
