"""One mypyc build of what `pip install .` compiles, shared by the tests that hold it to the
pure-Python source (test_compiled_engine.py, test_compiled_host.py).

The build takes minutes of one core (the engine and the host's action path are one C file of
about 30 MB), so tests/conftest.py starts it as soon as pytest has collected a test that asks
for the `compiled_source` fixture, and moves those tests to the end of the run: the compiler
works while the rest of the suite runs, and the tests wait only for what is left of it. It
compiles a snapshot of unonet/, protocol/ and host/ taken at that moment; the pure-Python copy
beside it is the same snapshot, not compiled.

One run of pytest may be several processes (pytest-xdist's workers), and they share one build
through its folder: the first to collect a test that needs it claims the folder (an atomic
mkdir) and starts the build; the build writes its outcome to `status` when it ends, whoever is
still running, and every process's tests wait for that file. The process that made the folder
(pytest's main one) stops the build if it still runs and removes the folder at the end.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import shlex
import shutil
import signal
import subprocess
import sys
import sysconfig
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PACKAGES = ("unonet", "protocol", "host")
OPT_LEVEL = "1"
"""The C compiler's -O level. setup.py builds at 3, but mypyc makes the same C at every level,
and what these tests hold to the source is what mypyc made of it: at 1 the compiler takes half
the time it takes at 3 (80 s against about 150 s of one core for the 30 MB file, measured), and
the build is what the end of the suite waits for."""
DEBUG_LEVEL = "0"
"""No debug information (-g, setup.py's level 1): nobody debugs this copy, and it costs
compile time."""
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


STATUS_POLL = 0.5
"""Seconds between looks at the build's status file while a test waits for it."""

_BUILDER = """
import subprocess, sys
from pathlib import Path
base = Path(sys.argv[1])
with open(base / "build.log", "wb") as log:
    code = subprocess.call(sys.argv[2:], cwd=base / "compiled", stdout=log,
                           stderr=subprocess.STDOUT)
(base / "status.part").write_text(str(code))
(base / "status.part").replace(base / "status")
"""
"""Runs mypyc and then writes its exit status where every test process looks for it: the
status does not depend on the pytest process that started the build still running."""


@dataclass(frozen=True)
class SourceBuild:
    """The shared build in `base`: `pure` and `compiled` hold the same snapshot of the
    packages, `compiled` is being built (or was)."""

    base: Path

    @property
    def pure(self) -> Path:
        return self.base / "pure"

    @property
    def compiled(self) -> Path:
        return self.base / "compiled"

    @property
    def log(self) -> Path:
        return self.base / "build.log"

    @property
    def started(self) -> bool:
        return (self.base / "claim").exists()

    def wait(self) -> str | None:
        """Until the build is over: None if it built, why nothing was built (no compiler, no
        mypyc), or an AssertionError with the end of its log if it failed."""
        status = self.base / "status"
        deadline = time.monotonic() + BUILD_TIMEOUT
        while not status.exists():
            assert time.monotonic() < deadline, f"no mypyc build after {BUILD_TIMEOUT:.0f} s"
            time.sleep(STATUS_POLL)
        outcome = status.read_text(encoding="utf-8")
        if outcome.startswith("skipped: "):
            return outcome.removeprefix("skipped: ")
        tail = self.log.read_text(encoding="utf-8", errors="replace").splitlines()[-30:]
        assert outcome == "0", "mypyc failed:\n" + "\n".join(tail)
        return None


def start(base: Path) -> SourceBuild:
    """Snapshot the packages into `base` and start compiling one copy, in the background,
    unless another process of this run claimed `base` first (it builds then)."""
    from unonet.compiled import COMPILED_MODULES

    build = SourceBuild(base)
    try:
        (base / "claim").mkdir()
    except FileExistsError:
        return build
    ignore = shutil.ignore_patterns("__pycache__", "*.so", "*.pyd")
    for package in PACKAGES:
        shutil.copytree(REPO / package, build.pure / package, ignore=ignore)
    shutil.copytree(build.pure, build.compiled)
    shutil.copy(REPO / "pyproject.toml", build.compiled)  # mypy's settings, as setup.py builds
    missing = missing_toolchain()
    if missing:
        (base / "status").write_text(f"skipped: {missing}", encoding="utf-8")
        return build
    sources = [name.replace(".", "/") + ".py" for name in COMPILED_MODULES]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["MYPYC_OPT_LEVEL"] = OPT_LEVEL
    env["MYPYC_DEBUG_LEVEL"] = DEBUG_LEVEL
    process = subprocess.Popen(
        [sys.executable, "-c", _BUILDER, str(base), sys.executable, "-m", "mypyc", *sources],
        env=env, start_new_session=True)  # its own group: `stop` ends mypyc and the compiler
    (base / "pid").write_text(str(process.pid), encoding="utf-8")
    return build


def stop(base: Path) -> None:
    """End the build if it still runs (the session ended first) and remove the folder."""
    pid = base / "pid"
    if pid.exists() and not (base / "status").exists():
        with contextlib.suppress(ProcessLookupError, PermissionError, ValueError):  # over
            os.killpg(int(pid.read_text(encoding="utf-8")), signal.SIGKILL)
    shutil.rmtree(base, ignore_errors=True)


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
