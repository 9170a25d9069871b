"""The host's log (issue 13, point 9): it rotates, says what a stranger did in one line per
event, and no client can flood it or forge a line of it. Loopback clients speak raw frames."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import trio
import trio.testing
from test_host_admission_net import LIMITS, RawClient, connect_from, port_of
from test_host_robustness import start

from host.logs import LINES_BURST, LOG_FILE_BACKUPS, LOG_FILE_BYTES, LineBudget, setup_logging
from host.server import HostServer
from protocol.examples import EXAMPLES
from protocol.frames import encode_frame


@pytest.fixture
def unonet_handlers() -> Iterator[None]:
    """Whatever setup_logging adds to the unonet and trio loggers is removed afterwards."""
    loggers = [logging.getLogger("unonet"), logging.getLogger("trio")]
    before = [list(logger.handlers) for logger in loggers]
    level = loggers[0].level
    yield
    for logger, handlers in zip(loggers, before, strict=True):
        for handler in logger.handlers[:]:
            if handler not in handlers:
                handler.close()
                logger.removeHandler(handler)
    loggers[0].setLevel(level)


def test_the_log_file_rotates_and_never_takes_more_than_its_files(
    tmp_path: Path, unonet_handlers: None
) -> None:
    setup_logging(tmp_path / "host.log", to_stderr=False)
    log = logging.getLogger("unonet.host.test")
    line = "conn 1 (192.0.2.1:5000): hello from 'unonet' '0.1.0' as 'ana', v1 " + "x" * 100
    for _ in range(3 * (LOG_FILE_BACKUPS + 1) * LOG_FILE_BYTES // len(line)):
        log.info(line)
    files = sorted(tmp_path.glob("host.log*"))
    assert len(files) == LOG_FILE_BACKUPS + 1
    assert all(f.stat().st_size <= LOG_FILE_BYTES for f in files)


def test_a_line_budget_allows_a_burst_then_its_rate_and_counts_the_rest() -> None:
    budget = LineBudget(0.0, rate=2.0, burst=3)
    assert [budget.allow(0.0) for _ in range(5)] == [True, True, True, False, False]
    assert budget.allow(0.5) and not budget.allow(0.5)
    assert budget.suppressed == 3


def lines_of(caplog: pytest.LogCaptureFixture, conn: int) -> list[str]:
    """The log lines about connection number `conn` (numbered from 1 by each server)."""
    return [r.getMessage() for r in caplog.records
            if re.match(rf"conn {conn}\b", r.getMessage())]


async def welcomed_stranger(
    nursery: trio.Nursery, caplog: pytest.LogCaptureFixture
) -> tuple[HostServer, RawClient]:
    """A host logging at INFO, and a client from 127.0.0.2 past its hello (conn 1)."""
    caplog.set_level(logging.INFO, logger="unonet")
    server, _, listener = await start(nursery, LIMITS)
    client = RawClient(await connect_from("127.0.0.2", port_of(listener)))
    assert await client.hello() == "welcome"
    return server, client


async def test_a_connection_that_says_hello_and_bye_is_two_lines(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock,
    caplog: pytest.LogCaptureFixture
) -> None:
    server, client = await welcomed_stranger(nursery, caplog)
    await client.stream.send_all(encode_frame({"t": "bye", "reason": "quit"}))
    await client.next_frame()
    while server.closes["closed"] < 1:
        await trio.sleep(0.1)
    await trio.sleep(0.1)
    hello, ended = lines_of(caplog, 1)
    assert "hello from 'unonet'" in hello and "ended: closed" in ended


async def test_a_client_flooding_refused_frames_writes_a_few_lines_and_the_count_once(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock,
    caplog: pytest.LogCaptureFixture
) -> None:
    server, client = await welcomed_stranger(nursery, caplog)
    for _ in range(20):  # within the rate limit: every frame is refused, none is fatal
        await client.stream.send_all(encode_frame({"t": "teleport", "id": 1}) * 10)
        await trio.sleep(1.0)
    await client.stream.aclose()
    while sum(server.closes.values()) < 1:
        await trio.sleep(0.1)
    await trio.sleep(0.1)
    lines = lines_of(caplog, 1)
    refusals = [line for line in lines if "refused" in line]
    assert 0 < len(refusals) < LINES_BURST + 20 * 2 + 1 < 200  # 200 frames were refused
    assert sum("log lines suppressed" in line for line in lines) == 1
    assert "log lines suppressed" in lines[-1] and "ended" in lines[-1]


async def test_client_chosen_text_cannot_forge_a_log_line(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock,
    caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="unonet")
    _, _, listener = await start(nursery, LIMITS)
    forged = "1.0\nconn 1 (203.0.113.9:1): hello from 'admin'\x1b[2J"
    client = RawClient(await connect_from("127.0.0.2", port_of(listener)))
    hello = dict(EXAMPLES["hello"], client={"name": "unonet", "version": forged})
    await client.hello(hello)
    await client.stream.aclose()
    await trio.sleep(1.0)
    messages = [r.getMessage() for r in caplog.records]
    assert any("ended" in m for m in messages)  # refused or welcomed, it was logged
    assert not any("\n" in m or "\x1b" in m for m in messages)


def test_a_table_opened_with_the_official_rules_says_so(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The host's log said "table 0 (table 0) open, rules {}": no changed option read as no
    rules at all."""
    from host.registry import Registry
    from host.settings import FAST_TIMINGS
    from host.table import TableSettings
    from unonet.rules import RuleSet

    registry = Registry(FAST_TIMINGS)
    with caplog.at_level(logging.INFO, logger="unonet.host.registry"):
        registry.create_table(TableSettings("club", RuleSet(), headless=True, target_seats=2,
                                            timings=FAST_TIMINGS))
        registry.create_table(TableSettings("fast", RuleSet(target=50), headless=True,
                                            target_seats=2, timings=FAST_TIMINGS))
    said = [record.getMessage() for record in caplog.records]
    assert "table 0 (club) open, rules official (no option changed)" in said, said
    assert "table 1 (fast) open, rules {'target': 50}" in said, said
