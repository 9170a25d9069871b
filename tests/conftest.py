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
_build: compiled_build.SourceBuild | None = None


@pytest.hookimpl(trylast=True)  # after -k and -m have deselected what will not run
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests on the mypyc build go last, and the build starts now, in the background: it
    compiles on the other core while the rest of the suite runs."""
    global _build
    needing = [item for item in items if BUILD_FIXTURE in getattr(item, "fixturenames", ())]
    if not needing or config.option.collectonly:
        return
    items[:] = [item for item in items if BUILD_FIXTURE not in
                getattr(item, "fixturenames", ())] + needing
    if _build is None:
        _build = compiled_build.start(Path(tempfile.mkdtemp(prefix="unonet-mypyc-")))


def pytest_unconfigure() -> None:
    if _build is not None:
        _build.stop()


@pytest.fixture(scope="session")
def compiled_source() -> compiled_build.SourceBuild:
    """The shared build, finished; the test is skipped where mypyc cannot build."""
    if _build is None:  # cannot be: the hook saw this fixture among the collected tests
        pytest.fail("the mypyc build was not started at collection")
    if _build.skipped:
        pytest.skip(f"cannot compile with mypyc: {_build.skipped}")
    _build.wait()
    return _build
