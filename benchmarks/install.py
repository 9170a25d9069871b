"""From nothing to the table: the README's two commands in a fresh virtual environment, timed.

    .venv/bin/python benchmarks/install.py            # the play command, to the table
    .venv/bin/python benchmarks/install.py --tests    # and the test command, the whole suite

The play command (`python3 -m venv .venv && .venv/bin/pip install . && .venv/bin/unonet play`)
runs in a fresh folder holding this tree's last commit (`git archive HEAD`: what a user's
clone holds), each step timed from its spawn to its end: the virtual environment, the install
(its output kept in a log in that folder, printed if it fails), then `unonet play` on a
pseudo-terminal of 80x24 until the table is drawn (benchmarks/startup.py's marks; a fresh
config folder), where it is ended. `--tests` then runs the test command (`python3 -m venv .venv
&& .venv/bin/pip install -e '.[test]' && .venv/bin/python -m pytest`) in a second fresh folder,
as `.ci/run` does, and prints the suite's last line.

pip's package cache is left as it is on this machine: warm when an install fetched the same
packages before (the README's "with a warm package cache"); `--cold` gives pip no cache. The
wall time is the figure a user waits; the CPU time (the steps' and their children's, from
wait4) says how much of it was work, since a shared machine's load stretches the wait. The
load average is printed before and after. Nothing is asserted; the folders are removed.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Sequence
from io import BytesIO
from pathlib import Path

if sys.path and Path(sys.path[0] or ".").resolve() == Path(__file__).resolve().parent:
    del sys.path[0]  # this folder: its host.py would shadow the host package
sys.path.append(str(Path(__file__).resolve().parent.parent))

from benchmarks.startup import Took, load_average, play_marks

ROOT = Path(__file__).resolve().parent.parent


def checkout(folder: Path) -> str:
    """This tree's last commit, written into `folder`; its short name."""
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True, check=True).stdout.strip()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", "HEAD"],
                             capture_output=True, check=True).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    return commit


def step(argv: Sequence[str], folder: Path, log: Path, env: dict[str, str],
         *, check: bool = True) -> Took:
    """Run `argv` in `folder`, its output appended to `log`: its wall and CPU time (its own
    and its waited-for children's); raises with the log's end if it fails and `check`."""
    with log.open("ab") as out:
        out.write(f"$ {' '.join(argv)}\n".encode())
        out.flush()
        start = time.perf_counter()
        process = subprocess.Popen(argv, cwd=folder, stdin=subprocess.DEVNULL, stdout=out,
                                   stderr=subprocess.STDOUT, env=env)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0 and check:
        tail = log.read_text(errors="replace")[-3000:]
        raise RuntimeError(f"{' '.join(argv)} exited {process.returncode}:\n{tail}")
    return Took(wall, usage.ru_utime + usage.ru_stime)


def line(name: str, took: Took) -> str:
    return f"  {name:34} {took.wall:7.1f} s wall, {took.cpu:6.1f} s CPU"


def play_command(python: str, env: dict[str, str]) -> list[tuple[str, Took]]:
    with tempfile.TemporaryDirectory(prefix="unonet-install-") as name:
        folder = Path(name)
        commit = checkout(folder)
        print(f"play command, commit {commit}, in {folder}", flush=True)
        log = folder / "install.log"
        steps = [("python3 -m venv .venv", step([python, "-m", "venv", ".venv"], folder, log,
                                                env)),
                 ("pip install .", step([".venv/bin/pip", "install", "."], folder, log, env))]
        for name_, took in steps:
            print(line(name_, took), flush=True)
        marks = play_marks(str(folder / ".venv" / "bin" / "unonet"), (80, 24), 120.0, env)
        for mark, took in marks.items():
            print(line(f"unonet play: {mark}", took), flush=True)
        steps.append(("unonet play, to the table", marks["table"]))
        return steps


def test_command(python: str, env: dict[str, str]) -> list[tuple[str, Took]]:
    with tempfile.TemporaryDirectory(prefix="unonet-install-tests-") as name:
        folder = Path(name)
        commit = checkout(folder)
        print(f"test command, commit {commit}, in {folder}", flush=True)
        log = folder / "tests.log"
        steps: list[tuple[str, Took]] = []
        for what, argv in (("python3 -m venv .venv", [python, "-m", "venv", ".venv"]),
                           ("pip install -e '.[test]'",
                            [".venv/bin/pip", "install", "-e", ".[test]"]),
                           ("python -m pytest", [".venv/bin/python", "-m", "pytest"])):
            # the suite's time is the figure whether or not it passed: its last line says
            steps.append((what, step(argv, folder, log, env, check=what != "python -m pytest")))
            print(line(what, steps[-1][1]), flush=True)
        lines = [text for text in log.read_text(errors="replace").splitlines() if text.strip()]
        for failed in (text for text in lines if text.startswith(("FAILED ", "ERROR "))):
            print(f"  {failed}")  # the folder and its log go: the names stay
        print(f"  the suite's last line: {lines[-1] if lines else '(none)'}")
        return steps


def total(steps: list[tuple[str, Took]]) -> Took:
    return Took(sum(t.wall for _, t in steps), sum(t.cpu for _, t in steps))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tests", action="store_true",
                        help="also the test command (the whole suite: several minutes)")
    parser.add_argument("--cold", action="store_true", help="pip without its package cache")
    parser.add_argument("--python", default=shutil.which("python3") or sys.executable,
                        help="the python3 the README's commands start from (default: "
                        "python3 on the PATH)")
    args = parser.parse_args(argv)
    env = {key: value for key, value in os.environ.items()
           if key not in ("VIRTUAL_ENV", "PYTHONPATH", "NO_COLOR", "UNONET_HOME")}
    if args.cold:
        env["PIP_NO_CACHE_DIR"] = "1"
    version = subprocess.run([args.python, "--version"], capture_output=True,
                             text=True).stdout.strip()
    print(f"{args.python} ({version}), {os.cpu_count()} CPUs, pip's cache "
          f"{'off' if args.cold else 'as it is'}; load average before: {load_average()}",
          flush=True)
    try:
        play = total(play_command(args.python, env))
        print(line("from nothing to the table", play))
        if args.tests:
            print(line("the test command, in all", total(test_command(args.python, env))))
    except (RuntimeError, OSError, subprocess.CalledProcessError) as exc:
        print(f"install benchmark: {exc}", file=sys.stderr)
        return 1
    print(f"load average after: {load_average()} (other processes stretch the wall times; "
          "the CPU times much less)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
