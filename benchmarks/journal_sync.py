"""What making journals durable costs on this disk: why the host commits them as a group.

    .venv/bin/python benchmarks/journal_sync.py                 # in the system's temp folder
    .venv/bin/python benchmarks/journal_sync.py --dir ~/.config/unonet/journals --files 20

A host journals each table to a file of its own (host/journal.py) and must have a move's line
on disk before anyone sees the move. This writes one journal-sized line to each of `--files`
files and makes them durable three ways, in turns (so the disk's drift touches all alike):

- one file: a line to one file and its fsync (a host with one table, or one move in a pass);
- fsync each: a line to every file, then an fsync of each (what an fsync per action did when
  several tables moved in one pass of the host's event loop);
- syncfs: a line to every file, then one syncfs(2) of their file system (host/group_commit.py).

It prints the wall time of each (median and range of `--repeats` rounds of `--rounds` each)
and the ratios. The figures are the disk's: a tmpfs makes them all nothing.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

if sys.path and Path(sys.path[0] or ".").resolve() == Path(__file__).resolve().parent:
    del sys.path[0]
sys.path.append(str(Path(__file__).resolve().parent.parent))

from benchmarks.host import file_system
from host.group_commit import SYNCFS

LINE = (b'{"kind":"action","seat":1,"action":{"type":"play","card":96,"color":null,'
        b'"uno":false,"also":[]}}\n')
"""A journal's action line, as host/journal.py writes one."""


def timed(step: Callable[[], None], rounds: int) -> float:
    """The median wall time of `step`, in µs, over `rounds` calls."""
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        step()
        times.append((time.perf_counter() - start) * 1e6)
    return statistics.median(times)


def spread(values: list[float], unit: str = " µs", digits: int = 0) -> str:
    def number(value: float) -> str:
        return f"{value:,.{digits}f}"
    middle, low, high = statistics.median(values), min(values), max(values)
    return f"{number(middle)}{unit} ({number(low)}-{number(high)})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", type=Path, default=Path(tempfile.gettempdir()),
                        help="where to write (default: the system's temporary folder)")
    parser.add_argument("--files", type=int, default=20, help="journals (default 20)")
    parser.add_argument("--repeats", type=int, default=5, help="repeats (default 5)")
    parser.add_argument("--rounds", type=int, default=50, help="syncs a repeat (default 50)")
    args = parser.parse_args(argv)
    if args.files < 2 or args.repeats < 1 or args.rounds < 1:
        parser.error("--files must be at least 2, --repeats and --rounds at least 1")
    syncfs = SYNCFS
    if syncfs is None:
        print("this system's libc has no syncfs: nothing to compare", file=sys.stderr)
        return 1
    args.dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="unonet-sync-", dir=args.dir) as folder:
        fds = [os.open(Path(folder) / f"table{n}.jsonl",
                       os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600) for n in range(args.files)]
        try:
            def one() -> None:
                os.write(fds[0], LINE)
                os.fsync(fds[0])

            def each() -> None:
                for fd in fds:
                    os.write(fd, LINE)
                for fd in fds:
                    os.fsync(fd)

            def grouped() -> None:
                for fd in fds:
                    os.write(fd, LINE)
                syncfs(fds[0])

            results: dict[str, list[float]] = {"one": [], "each": [], "syncfs": []}
            for _ in range(args.repeats):
                results["one"].append(timed(one, args.rounds))
                results["each"].append(timed(each, args.rounds))
                results["syncfs"].append(timed(grouped, args.rounds))
        finally:
            for fd in fds:
                os.close(fd)
    print(f"{args.files} journals in {args.dir} ({file_system(args.dir)}); "
          f"{args.repeats} repeats of {args.rounds} syncs each, median (range) of the "
          "repeats' medians, wall time")
    rows = [
        ("one file: a line, its fsync", spread(results["one"])),
        (f"{args.files} files: a line each, fsync each", spread(results["each"])),
        (f"{args.files} files: a line each, one syncfs", spread(results["syncfs"])),
    ]
    pairs = list(zip(results["each"], results["syncfs"], results["one"], strict=True))
    rows.append(("fsync each / syncfs", spread([e / s for e, s, _ in pairs], "x", 1)
                 + f"   (what the group commit saves when {args.files} tables move in a pass)"))
    rows.append((f"syncfs of {args.files} / fsync of one",
                 spread([s / o for _, s, o in pairs], "x", 1)
                 + "   (what a flush of them all costs beside a lone move's)"))
    width = max(len(label) for label, _ in rows)
    for label, figure in rows:
        print(f"{label:<{width}}  {figure}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
