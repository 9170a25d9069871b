"""How long the command takes to answer: `unonet --help`, `unonet rules`, `unonet play`'s screen.

    .venv/bin/python benchmarks/startup.py                # 11 repeats
    .venv/bin/python benchmarks/startup.py --repeats 21 --size 120x40

Each repeat runs, in an order rotated every repeat (so a slow spell of a shared machine falls
on each alike), `python -c pass` (the anchor: what starting this interpreter costs here),
`unonet --help`, `unonet rules` and `unonet play`, with the `unonet` beside this interpreter
(an installed build; `--unonet` names another). The two commands' wall time runs from the
spawn to their exit, their output thrown away. `unonet play` runs on a pseudo-terminal of a
fixed size (80x24 unless `--size`), with a fresh config folder (UNONET_HOME: a first-time
user's, so the host's key is made as on a first run), and its output is read as it comes,
escape sequences removed, until these marks appear, each timed from the spawn:

- first screen: the title bar's "Deck:" (the client's first frame, "Connecting...");
- lobby: "Rules (" (the table's lobby: its seats and its rules);
- table: "Your hand (" (the match dealt and drawn: what a player plays from).

Then the whole process group is ended. Figures are each repeat's time, median and range, and
each time's ratio to `python -c pass` in the same repeat, median and range: the ratio is the
figure that means something on a machine whose load varies, the time the one a target reads
(`--help` and `rules` under 150 ms, `play`'s first screen within 0.5 s, on a calm 2-core
machine: the ratios say what the targets are in units of the interpreter's own start, 15-30
ms on such a machine). Beside the wall time, the CPU time each used (the commands': their
rusage at exit; play's: its process's at each mark, read from /proc in clock ticks), which a
busy machine inflates less than it does the wall time: other processes take the core between
a program's steps, not its steps themselves.
"""

from __future__ import annotations

import argparse
import fcntl
import os
import pty
import re
import select
import shutil
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

MARKS = {
    "first screen": re.compile(rb"Deck:"),
    "lobby": re.compile(rb"Rules\s*\("),
    "table": re.compile(rb"Your\s*hand\s*\("),
}
"""What `unonet play` shows at each stage (English, `--lang en`), as read with the escape
sequences removed: prompt-toolkit may move the cursor over a space, hence the `\\s*`."""

ESCAPES = re.compile(rb"\x1b\[[0-9;?<=>]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"
                     rb"|\x1b[()][0-9A-Za-z]|\x1b[=>78DEHMNOZc]")
"""Control sequences a terminal program writes: CSI, OSC, character sets, keypad modes."""

COMMANDS = ("python -c pass", "unonet --help", "unonet rules")


@dataclass
class Series:
    """One thing timed: its wall time per repeat (s) and its ratio to the anchor's."""

    name: str
    times: list[float] = field(default_factory=list)
    ratios: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    cpu_ratios: list[float] = field(default_factory=list)


@dataclass(frozen=True)
class Took:
    """A wall time and the CPU time (user + system) used in it, in seconds."""

    wall: float
    cpu: float


def timed_run(argv: Sequence[str], env: dict[str, str]) -> Took:
    """Wall time of `argv` from its spawn to its exit, and its CPU time; raises if it fails."""
    with tempfile.TemporaryFile() as errors:
        start = time.perf_counter()
        process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                   stderr=errors, env=env)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode != 0:
            errors.seek(0)
            raise RuntimeError(f"{' '.join(argv)} exited {process.returncode}: "
                               f"{errors.read().decode(errors='replace').strip()[-500:]}")
    return Took(wall, usage.ru_utime + usage.ru_stime)


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a running process has used (Linux /proc, clock ticks)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def play_marks(unonet: str, size: tuple[int, int], timeout: float,
               env: dict[str, str]) -> dict[str, Took]:
    """`unonet play` on a pseudo-terminal of `size` (columns, rows): the time from its spawn to
    each of MARKS on its screen; the process group is ended once the table is drawn."""
    columns, rows = size
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    with tempfile.TemporaryDirectory(prefix="unonet-startup-home-") as home:
        start = time.perf_counter()
        process = subprocess.Popen(
            [unonet, "play", "--lang", "en"], stdin=slave, stdout=slave, stderr=slave,
            env={**env, "UNONET_HOME": home, "TERM": "xterm-256color",
                 "COLUMNS": str(columns), "LINES": str(rows)},
            start_new_session=True, close_fds=True)
        os.close(slave)
        try:
            return _read_marks(master, process.pid, start, timeout)
        finally:
            _end(process)
            os.close(master)


def _read_marks(master: int, pid: int, start: float, timeout: float) -> dict[str, Took]:
    seen: dict[str, Took] = {}
    screen = b""
    deadline = start + timeout
    while len(seen) < len(MARKS):
        left = deadline - time.perf_counter()
        if left <= 0:
            break
        ready, _, _ = select.select([master], [], [], min(left, 0.05))
        if not ready:
            continue
        try:
            data = os.read(master, 65536)
        except OSError:  # the other side closed: the program ended
            break
        if not data:
            break
        now = time.perf_counter()
        screen += data
        text = ESCAPES.sub(b"", screen)
        for name, mark in MARKS.items():
            if name not in seen and mark.search(text):
                seen[name] = Took(now - start, cpu_seconds(pid))
    missing = [name for name in MARKS if name not in seen]
    if missing:
        shown = ESCAPES.sub(b"", screen)[-1500:].decode(errors="replace")
        raise RuntimeError(f"unonet play: no {', '.join(missing)} within {timeout:g} s; "
                           f"the screen's last text:\n{shown}")
    return seen


def _end(process: subprocess.Popen[bytes]) -> None:
    """End `unonet play` and all it started (its session's process group)."""
    for sig, wait in ((signal.SIGTERM, 5.0), (signal.SIGKILL, 5.0)):
        if process.poll() is not None:
            return
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            return
        try:
            process.wait(wait)
        except subprocess.TimeoutExpired:
            continue


def spread(values: Sequence[float], form: str) -> str:
    """`median (min-max)`."""
    return (f"{form.format(statistics.median(values))} "
            f"({form.format(min(values))}-{form.format(max(values))})")


def measure(unonet: str, repeats: int, size: tuple[int, int],
            timeout: float) -> list[Series]:
    env = {key: value for key, value in os.environ.items()
           if key not in ("NO_COLOR", "UNONET_HOME")}
    argvs = {"python -c pass": [sys.executable, "-c", "pass"],
             "unonet --help": [unonet, "--help"], "unonet rules": [unonet, "rules"]}
    series = {name: Series(name) for name in (*COMMANDS, *(f"unonet play: {m}" for m in MARKS))}
    steps = [*COMMANDS, "unonet play"]
    for repeat in range(repeats):
        found: dict[str, Took] = {}
        order = steps[repeat % len(steps):] + steps[:repeat % len(steps)]
        for step in order:
            if step == "unonet play":
                for mark, took in play_marks(unonet, size, timeout, env).items():
                    found[f"unonet play: {mark}"] = took
            else:
                found[step] = timed_run(argvs[step], env)
        anchor = found["python -c pass"]
        for name, took in found.items():
            series[name].times.append(took.wall)
            series[name].ratios.append(took.wall / anchor.wall)
            series[name].cpu.append(took.cpu)
            series[name].cpu_ratios.append(took.cpu / max(anchor.cpu, 1e-3))
        print(f"  repeat {repeat + 1}/{repeats}: " + ", ".join(
            f"{name} {took.wall * 1000:.0f} ms" for name, took in found.items()),
            file=sys.stderr, flush=True)
    return list(series.values())


TARGETS = {"unonet --help": 0.150, "unonet rules": 0.150, "unonet play: first screen": 0.5,
           "unonet play: table": 0.5}
"""Issue 43's targets, on a calm 2-core machine (the table's: "play draws its first screen
within 0.5 s", read both ways)."""


def report(found: list[Series], repeats: int, size: tuple[int, int], unonet: str) -> None:
    print(f"\n{unonet}; Python {sys.version.split()[0]}; {os.cpu_count()} CPUs; {repeats} "
          f"repeats, the order rotated each; play on a {size[0]}x{size[1]} pseudo-terminal, "
          f"a fresh config folder each time; load average {load_average()}")
    print(f"{'median (range)':27} {'wall ms':>16} {'x python -c pass':>17} {'CPU ms':>16} "
          f"{'x its CPU':>17}   target (wall)")
    for series in found:
        target = TARGETS.get(series.name)
        print(f"{series.name:27} {spread([t * 1000 for t in series.times], '{:.0f}'):>16} "
              f"{spread(series.ratios, '{:.1f}'):>17} "
              f"{spread([t * 1000 for t in series.cpu], '{:.0f}'):>16} "
              f"{spread(series.cpu_ratios, '{:.1f}'):>17}   "
              + (f"< {target * 1000:.0f} ms" if target is not None else "(the anchor)"
                 if series.name == "python -c pass" else ""))
    print("\nThe ratio is the time in units of this interpreter's own start in the same repeat"
          " (each ratio taken within one repeat, then median and range): it stays put while "
          "the machine's load moves the times. The play marks: the client's first frame, the "
          "lobby, then the table dealt and drawn.")


def load_average() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "unknown"


def window(text: str) -> tuple[int, int]:
    """`--size COLSxROWS`."""
    try:
        columns, rows = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: give COLUMNSxROWS, e.g. 80x24") from None
    if not (20 <= columns <= 1000 and 5 <= rows <= 1000):
        raise argparse.ArgumentTypeError(f"{text!r}: 20-1000 columns, 5-1000 rows")
    return columns, rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=11, help="repeats (default 11)")
    parser.add_argument("--size", type=window, default=(80, 24), metavar="COLSxROWS",
                        help="play's terminal (default 80x24)")
    parser.add_argument("--timeout", type=float, default=60.0,
                        help="seconds to wait for play's table (default 60)")
    parser.add_argument("--unonet", metavar="PATH",
                        help="the unonet command (default: the one beside this interpreter)")
    args = parser.parse_args(argv)
    if args.repeats < 1 or args.timeout <= 0:
        parser.error("--repeats 1 or more, --timeout above 0")
    unonet = args.unonet or str(Path(sys.executable).parent / "unonet")
    if shutil.which(unonet) is None:
        parser.error(f"no unonet command at {unonet} (install the package, or --unonet PATH)")
    try:
        found = measure(unonet, args.repeats, args.size, args.timeout)
    except (RuntimeError, OSError) as exc:
        print(f"startup benchmark: {exc}", file=sys.stderr)
        return 1
    report(found, args.repeats, args.size, unonet)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
