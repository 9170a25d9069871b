"""The host's garbage-collector settings (host/collector.py): set while a host serves, the
previous ones back after it, and a full collection no longer every ten middle ones.

Why they exist (full collections of a big host stalled every table for 300 ms) is measured by
benchmarks/host.py, not here: a test shows what the settings are, never how long a pause is.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_host_club import club_options

from host.collector import FULL_AFTER, MIDDLE_THRESHOLD, YOUNG_THRESHOLD, tuned_collector
from host.run import serving

HOST_SETTINGS = (YOUNG_THRESHOLD, MIDDLE_THRESHOLD, FULL_AFTER)
SOMEBODY_ELSES = (500, 7, 9)
"""A program's own settings, unlike CPython's defaults and the host's: what must come back."""


@pytest.fixture
def own_settings() -> Iterator[None]:
    previous = gc.get_threshold()
    gc.set_threshold(*SOMEBODY_ELSES)
    try:
        yield
    finally:
        gc.set_threshold(*previous)


def test_full_collections_are_rarer_than_cpythons() -> None:
    assert FULL_AFTER > 10 * 10  # CPython collects everything after 10 middle collections
    assert (YOUNG_THRESHOLD, MIDDLE_THRESHOLD) == (700, 10)  # the young ones as CPython does


def test_the_settings_hold_inside_and_the_previous_ones_come_back(own_settings: None) -> None:
    frozen = gc.get_freeze_count()
    with tuned_collector():
        assert gc.get_threshold() == HOST_SETTINGS
        assert gc.get_freeze_count() > frozen  # what existed is out of the collector's sight
    assert gc.get_threshold() == SOMEBODY_ELSES
    assert gc.get_freeze_count() == 0


def test_the_previous_settings_come_back_after_an_error(own_settings: None) -> None:
    with pytest.raises(RuntimeError), tuned_collector():
        raise RuntimeError("the host failed")
    assert gc.get_threshold() == SOMEBODY_ELSES
    assert gc.get_freeze_count() == 0


async def test_a_host_serves_with_them(tmp_path: Path, own_settings: None) -> None:
    async with serving(club_options(tmp_path)):
        assert gc.get_threshold() == HOST_SETTINGS
    assert gc.get_threshold() == SOMEBODY_ELSES
