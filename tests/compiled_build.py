"""One mypyc build of what `pip install .` compiles, shared by the tests that hold it to the
pure-Python source (test_compiled_engine.py, test_compiled_host.py).

The build takes minutes of one core (the engine and the host's action path are one C file of
about 30 MB), so tests/conftest.py starts it as soon as pytest has collected a test that asks
for the `compiled_source` fixture, and moves those tests to the end of the run: the compiler
works on the other core while the rest of the suite runs, and the tests wait only for what is
left of it. It compiles a snapshot of unonet/, protocol/ and host/ taken at that moment; the
pure-Python copy beside it is the same snapshot, not compiled.
"""

from __future__ import annotations

import importlib.util
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PACKAGES = ("unonet", "protocol", "host")
OPT_LEVEL = "3"
"""The C compiler's -O level, as setup.py builds: mypyc makes the same C at every level."""
BUILD_TIMEOUT = 1800.0
"""Seconds a test waits for the build: far beyond the few minutes it takes on a loaded box."""


def missing_toolchain() -> str | None:
    """Why mypyc cannot build here, or None."""
    for module in ("mypyc", "setuptools"):
        if importlib.util.find_spec(module) is None:
            return f"{module} is not installed (mypyc comes with mypy: pip install mypy)"
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    if shutil.which(shlex.split(cc)[0]) is None:
        return f"no C compiler ({cc!r} is not on PATH)"
    if not Path(sysconfig.get_paths()["include"], "Python.h").exists():
        return "no Python headers (Python.h) to compile against"
    return None


@dataclass
class SourceBuild:
    """`pure` and `compiled` hold the same snapshot of the packages; `compiled` is being built."""

    base: Path
    pure: Path
    compiled: Path
    process: subprocess.Popen[bytes] | None
    skipped: str | None  # why nothing is built (no compiler, no mypyc)

    @property
    def log(self) -> Path:
        return self.base / "build.log"

    def wait(self) -> None:
        """Until the build is over; an AssertionError with the end of its log if it failed."""
        if self.process is None:
            return
        returncode = self.process.wait(timeout=BUILD_TIMEOUT)
        tail = self.log.read_text(encoding="utf-8", errors="replace").splitlines()[-30:]
        assert returncode == 0, "mypyc failed:\n" + "\n".join(tail)

    def stop(self) -> None:
        """End the build if it still runs (the session ended first) and remove the folder."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.base, ignore_errors=True)


def start(base: Path) -> SourceBuild:
    """Snapshot the packages into `base` and start compiling one copy, in the background."""
    from unonet.compiled import COMPILED_MODULES

    pure, compiled = base / "pure", base / "compiled"
    ignore = shutil.ignore_patterns("__pycache__", "*.so", "*.pyd")
    for package in PACKAGES:
        shutil.copytree(REPO / package, pure / package, ignore=ignore)
    shutil.copytree(pure, compiled)
    shutil.copy(REPO / "pyproject.toml", compiled)  # mypy's settings, as setup.py builds
    missing = missing_toolchain()
    if missing:
        return SourceBuild(base, pure, compiled, None, missing)
    sources = [name.replace(".", "/") + ".py" for name in COMPILED_MODULES]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["MYPYC_OPT_LEVEL"] = OPT_LEVEL
    with open(base / "build.log", "wb") as log:
        process = subprocess.Popen([sys.executable, "-m", "mypyc", *sources], cwd=compiled,
                                   stdout=log, stderr=subprocess.STDOUT, env=env)
    return SourceBuild(base, pure, compiled, process, None)


def run_child(script: Path, root: Path, output: Path) -> subprocess.Popen[str]:
    """`script ROOT` in a fresh interpreter that finds the packages in `root` first, its
    standard output into `output`."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONHASHSEED"] = "0"
    with open(output, "w", encoding="utf-8") as out:
        return subprocess.Popen([sys.executable, "-P", str(script), str(root)],
                                stdout=out, stderr=subprocess.PIPE, text=True, env=env, cwd=root)


def read_child(child: subprocess.Popen[str], output: Path) -> list[str]:
    _, err = child.communicate()
    assert child.returncode == 0, f"the child writing {output} failed:\n{err}"
    return output.read_text(encoding="utf-8").splitlines()
