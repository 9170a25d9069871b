"""Every test checks what the host sends (host/settings.py ConnectionLimits.check_outgoing):
set before any host module is imported, and inherited by the hosts tests start as processes.

The tests comparing the mypyc build with the pure-Python source share one build, started at
collection (tests/compiled_build.py)."""

import os
import tempfile
from pathlib import Path

import compiled_build  # imports no host module
import pytest

os.environ["UNONET_CHECK_OUTGOING"] = "1"


# -- the mypyc build the compiled-vs-pure tests share (tests/compiled_build.py) ----------------

BUILD_FIXTURE = "compiled_source"
BUILD_FOLDER = "UNONET_TEST_BUILD"
"""The environment variable naming the shared build's folder: set by pytest's main process,
inherited by its pytest-xdist workers (started after it is set)."""


def _main_process(config: pytest.Config) -> bool:
    """pytest's own process (the only one without pytest-xdist), not one of its workers."""
    return not hasattr(config, "workerinput")


WORKER_NICENESS = 10
"""How much lower a pytest-xdist worker runs than the mypyc build: the build is one long
compiler run the compiled tests wait for at the end, and the workers' tests are many short
ones; at equal priority on two cores the workers were done minutes before the build. Only when a
compiled test was collected (the build runs then)."""


def pytest_configure(config: pytest.Config) -> None:
    if _main_process(config):
        os.environ[BUILD_FOLDER] = tempfile.mkdtemp(prefix="unonet-mypyc-")


@pytest.hookimpl(trylast=True)  # after -k and -m have deselected what will not run
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests on the mypyc build go last, and the build starts now, in the background (unless
    another worker started it): it compiles while the rest of the suite runs."""
    needing = [item for item in items if BUILD_FIXTURE in getattr(item, "fixturenames", ())]
    if not needing or config.option.collectonly:
        return
    items[:] = [item for item in items if BUILD_FIXTURE not in
                getattr(item, "fixturenames", ())] + needing
    compiled_build.start(Path(os.environ[BUILD_FOLDER]))
    if not _main_process(config) and hasattr(os, "nice"):
        os.nice(WORKER_NICENESS)  # after starting the build: it does not inherit this


def pytest_unconfigure(config: pytest.Config) -> None:
    if _main_process(config) and BUILD_FOLDER in os.environ:
        compiled_build.stop(Path(os.environ.pop(BUILD_FOLDER)))


@pytest.fixture(scope="session")
def compiled_source() -> compiled_build.SourceBuild:
    """The shared build, finished; the test is skipped where mypyc cannot build."""
    build = compiled_build.SourceBuild(Path(os.environ[BUILD_FOLDER]))
    if not build.started:  # cannot be: the hook saw this fixture among the collected tests
        pytest.fail("the mypyc build was not started at collection")
    skipped = build.wait()
    if skipped:
        pytest.skip(f"cannot compile with mypyc: {skipped}")
    return build
