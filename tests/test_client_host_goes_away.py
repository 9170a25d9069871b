"""Every way the host goes away says which it was and what comes next (issue 46, point 3;
SPEC.md [UNO-8-4]): a host whose player left, or that was stopped, says so, and whether the
match is kept; a link told the match is kept waits for the host to carry it on, with no limit
but the player's patience; the words are the player's, in their language, never a Python
class name."""

from __future__ import annotations

import errno
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import pytest
import trio
import trio.testing
from client_net import MACHINE_SPEED, StreamWrapper, start_link
from test_client_flip_render import play_until
from test_client_network_timers import CONFIG, Script, ScriptedHost, hello, run, states

from client.i18n import CATALOGUES, Translator
from client.link import (
    Chat,
    ChatReceived,
    CloseLink,
    Command,
    ConnectionChanged,
    LobbyChanged,
    Snapshot,
    Update,
)
from client.link_session import Ended
from client.lobby import LobbyState, SeatInfo, SetReady, StartMatch
from client.model import ClientModel, Screen
from client.network import Backoff, LinkConfig, Reconnects, run_link
from client.render import compose, connection_line
from host.connection import LAST_WORDS
from host.registry import Registry
from host.run import HostOptions, serving
from host.server import HostServer, ServerConfig
from host.settings import FAST_TIMINGS
from host.table import TableSettings
from protocol.limits import SEND_DEADLINE
from unonet.rules import RuleSet


def options(home: Path) -> HostOptions:
    return HostOptions(rules=RuleSet(target=50), bind="127.0.0.1", port=0, bots=1, seats=3,
                       headless=False, tls=False, home=home, share_notice=True)


async def test_a_host_whose_player_left_says_so_and_keeps_no_lobby(
    tmp_path: Path, nursery: trio.Nursery
) -> None:
    async with serving(options(tmp_path)) as served:
        bea = await start_link(nursery, LinkConfig("127.0.0.1", served.port, name="Bea",
                                                   tls=False, table=0))
        await bea.until_type(LobbyChanged)
    gone = await bea.until(lambda u: isinstance(u, ConnectionChanged) and u.attempt > 0)
    assert isinstance(gone, ConnectionChanged)
    assert gone.code == "host_left" and not gone.kept and gone.attempts > 0


async def test_a_host_that_left_in_mid_match_keeps_it_and_the_link_waits_for_it(
    tmp_path: Path, nursery: trio.Nursery
) -> None:
    async with serving(options(tmp_path)) as served:
        config = LinkConfig("127.0.0.1", served.port, name="Bea", tls=False, table=0)
        bea = await start_link(nursery, config)
        await bea.until(lambda u: isinstance(u, LobbyChanged) and u.lobby.you is not None)
        bea.send(SetReady(True))
        bea.send(StartMatch())  # the first to sit owns the table
        await bea.until_type(Snapshot)
    gone = await bea.until(lambda u: isinstance(u, ConnectionChanged) and u.attempt > 0)
    assert isinstance(gone, ConnectionChanged)
    assert gone.code == "host_left" and gone.kept and gone.attempts == 0  # no limit
    later = await bea.until(lambda u: isinstance(u, ConnectionChanged) and u.attempt > 1)
    assert isinstance(later, ConnectionChanged)
    assert later.code == "host_left" and later.kept  # how it went, not the refused connect


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "The host's player left the table; the match is kept: you are back in your seat "
           "once it goes on (try 3 in 2 s)"),
    ("it", "Chi ospita ha lasciato il tavolo; la partita è conservata: torni al tuo posto "
           "quando riprende (tentativo 3 fra 2 s)"),
    ("pt", "Quem hospeda saiu da mesa; a partida está guardada: você volta ao seu lugar quando "
           "ela continuar (tentativa 3 em 2 s)"),
])
def test_the_way_the_host_went_is_said_in_the_players_words(lang: str, words: str) -> None:
    model = ClientModel(Translator(lang), name="Bea")
    model.apply(ConnectionChanged("reconnecting", "shutting_down: the host's player left its "
                                  "table", code="host_left", attempt=3, delay=2.0, kept=True))
    assert connection_line(model) == words


@pytest.mark.parametrize("lang", ["en", "it", "pt"])
def test_a_broken_connection_names_no_python_class(lang: str) -> None:
    model = ClientModel(Translator(lang), name="Bea")
    model.apply(ConnectionChanged("reconnecting", "connection broken", code="connection_broken",
                                  attempt=5, attempts=15, delay=8.0))
    line = connection_line(model)
    assert "Error" not in line and "()" not in line
    assert Translator(lang)("lost.connection_broken") in line


# -- the order things arrive in (found in tmux: half the time the friend read "the host is
# gone (cannot connect: Connection refused); attempt 10 of 15" after the host's player left) --


class PausedWrites(StreamWrapper):
    """The host's side of an in-memory connection whose writes, once `pause` is called, wait
    for `go`: a write in flight for as long as the test wants (over TLS a cancelled write had
    sealed its record and the stream was broken; on any stream the connection skipped its
    last words when a write was under way)."""

    def __init__(self, inner: trio.abc.Stream) -> None:
        super().__init__(inner)
        self.paused = False
        self.marker = b""
        self.waiting = trio.Event()  # a write is held
        self.go = trio.Event()

    def pause(self, marker: bytes = b"") -> None:
        """Hold the next write that carries `marker` (any write for b""): a bot's moves are
        written too, and a test that waits for its own frame must not hold one of those."""
        self.paused = True
        self.marker = marker

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        if self.paused and self.marker in bytes(data):
            self.waiting.set()
            await self.go.wait()
        await self.inner.send_all(data)


@dataclass
class InMemoryHost:
    """A real HostServer (one headless table, a bot, a journal) whose clients connect over
    in-memory streams: each connection after the first finds it gone (refused)."""

    server: HostServer
    nursery: trio.Nursery
    streams: list[PausedWrites] = field(default_factory=list)
    attempts: int = 0

    async def connect(self, config: LinkConfig, seen_before: bytes | None) -> trio.abc.Stream:
        self.attempts += 1
        if self.streams:
            raise OSError(errno.ECONNREFUSED, "Connection refused")
        ours, theirs = trio.testing.memory_stream_pair()
        self.streams.append(PausedWrites(theirs))
        self.nursery.start_soon(self.server.serve_stream, self.streams[-1], "127.0.0.1", 5000)
        return ours

    def stop(self, why: str) -> None:
        """The host stops as `unonet host` does: its nursery cancelled, saying `why`."""
        self.server.registry.stop_reason = why
        self.nursery.cancel_scope.cancel()


async def in_memory_host(tmp_path: Path, *,
                         task_status: trio.TaskStatus[InMemoryHost] = trio.TASK_STATUS_IGNORED
                         ) -> None:
    registry = Registry(FAST_TIMINGS)
    table = registry.create_table(TableSettings("net", RuleSet(target=50), headless=True,
                                                target_seats=2, timings=FAST_TIMINGS,
                                                journal_dir=tmp_path))
    table.add_bot()
    server = HostServer(registry, ServerConfig(bind="127.0.0.1", port=0, limits=MACHINE_SPEED))
    async with trio.open_nursery() as nursery:
        await nursery.start(server.serve)
        task_status.started(InMemoryHost(server, nursery))


async def updates_until(updates: trio.MemoryReceiveChannel[Update],
                        last: Callable[[Update], bool]) -> list[Update]:
    seen = []
    with trio.fail_after(600):  # virtual time: the autojump clock
        async for update in updates:
            seen.append(update)
            if last(update):
                return seen
    raise AssertionError(f"the link ended first: {seen}")


async def bea_seated(nursery: trio.Nursery, tmp_path: Path) -> tuple[
        InMemoryHost, trio.MemorySendChannel[Command], trio.MemoryReceiveChannel[Update]]:
    """An in-memory host, and Bea's link seated at its table with the round's snapshot in:
    the host, what Bea's screen sends, and what it is told."""
    host: InMemoryHost = await nursery.start(in_memory_host, tmp_path)
    commands_in, commands = trio.open_memory_channel[Command](math.inf)
    updates_in, updates = trio.open_memory_channel[Update](math.inf)
    config = LinkConfig("127.0.0.1", 5000, name="Bea", tls=False, table=0, auto_ready=True)
    nursery.start_soon(partial(run_link, config, commands, updates_in, connector=host.connect))
    await updates_until(updates, lambda u: isinstance(u, Snapshot))
    return host, commands_in, updates


@pytest.mark.parametrize("why", ["host_left", "stopped"])
async def test_a_host_that_stops_while_writing_finishes_the_write_then_says_why(
    tmp_path: Path, nursery: trio.Nursery, autojump_clock: trio.testing.MockClock, why: str
) -> None:
    """The host stops while a write to Bea is under way: the write is finished, what was
    queued follows, then the shutting_down frame with how it went and that the match is kept;
    every failed attempt after it still says so."""
    host, commands_in, updates = await bea_seated(nursery, tmp_path)
    host.streams[0].pause(b"the next write is held")
    commands_in.send_nowait(Chat("the next write is held"))
    await host.streams[0].waiting.wait()
    host.stop(why)
    host.streams[0].go.set()
    seen = await updates_until(updates, lambda u: isinstance(u, ConnectionChanged)
                               and u.attempt == 4)
    assert any(isinstance(u, ChatReceived) for u in seen)  # the write held, then the rest
    retries = [u for u in seen if isinstance(u, ConnectionChanged) and u.attempt]
    code = "host_left" if why == "host_left" else "host_stopped"
    assert [(u.code, u.kept, u.attempts) for u in retries] == [(code, True, 0)] * 4
    assert host.attempts == 4
    commands_in.send_nowait(CloseLink())


async def test_a_client_that_does_not_read_never_holds_the_stop(
    tmp_path: Path, nursery: trio.Nursery, autojump_clock: trio.testing.MockClock
) -> None:
    """A write the client never takes is not cut by the stop, but given LAST_WORDS more
    seconds at most: the host stops well within the send deadline."""
    host, commands_in, _updates = await bea_seated(nursery, tmp_path)
    host.streams[0].pause()
    commands_in.send_nowait(Chat("never taken"))
    await host.streams[0].waiting.wait()
    stopped_at = trio.current_time()
    host.stop("stopped")
    while host.server.connections:
        await trio.sleep(0.1)
    assert trio.current_time() - stopped_at <= LAST_WORDS + 0.2 < SEND_DEADLINE
    commands_in.send_nowait(CloseLink())


class ClientEnd(trio.abc.Stream):
    """The client's end of a scripted connection, as the network may give it: `broken_eof`,
    the end comes as a broken stream (TLS closed without its close_notify) rather than EOF;
    `sends_fail`, every send after the hello fails (the host already closed)."""

    def __init__(self, inner: trio.abc.Stream, *, broken_eof: bool, sends_fail: bool) -> None:
        self.inner = inner
        self.broken_eof = broken_eof
        self.sends_fail = sends_fail
        self.sent = 0

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        self.sent += 1
        if self.sends_fail and self.sent > 1:
            raise trio.BrokenResourceError("scripted: the host closed")
        await self.inner.send_all(data)

    async def wait_send_all_might_not_block(self) -> None:
        await self.inner.wait_send_all_might_not_block()

    async def receive_some(self, max_bytes: int | None = None) -> bytes | bytearray:
        data = await self.inner.receive_some(max_bytes)
        if not data and self.broken_eof:
            raise trio.BrokenResourceError("scripted: no close_notify")
        return data

    async def aclose(self) -> None:
        await self.inner.aclose()


class RefusingHost(ScriptedHost):
    """A scripted host gone at the link's second and fourth attempts (refused), whose first
    connection ends in the ClientEnd's way."""

    def __init__(self, nursery: trio.Nursery, script: Script, *, broken_eof: bool,
                 sends_fail: bool) -> None:
        super().__init__(nursery, script)
        self.broken_eof = broken_eof
        self.sends_fail = sends_fail
        self.attempts = 0

    async def connect(self, config: LinkConfig, seen_before: bytes | None) -> trio.abc.Stream:
        self.attempts += 1
        if self.attempts in (2, 4):
            raise OSError(errno.ECONNREFUSED, "Connection refused")
        inner = await super().connect(config, seen_before)
        return ClientEnd(inner, broken_eof=self.broken_eof,
                         sends_fail=self.sends_fail and self.attempts == 1)


ORDERS = [
    pytest.param(False, False, id="the frame, then EOF"),
    pytest.param(True, False, id="the frame, then a broken stream"),
    pytest.param(False, True, id="our send fails, then the frame"),
]


@pytest.mark.parametrize(("broken_eof", "sends_fail"), ORDERS)
@pytest.mark.parametrize("kept", [True, False])
async def test_how_the_host_went_is_said_whatever_order_the_frame_and_the_close_come_in(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock, broken_eof: bool,
    sends_fail: bool, kept: bool,
) -> None:
    """The host's player left (the match kept or not): the link says so on every attempt
    after it, whichever came first of its frame, the stream's end or our failed send, and
    however later attempts fail (refused, or a host that closes without a word); kept, it
    waits with no limit until a host welcomes it again; not kept, the attempts run out with
    the same words."""
    details = {"why": "host_left", **({"kept": True} if kept else {})}

    async def script(stream: trio.abc.Stream, number: int) -> None:
        connection = await hello(stream, host.received[number - 1])
        if number == 1:
            await stream.send_all(connection.welcome())
            await trio.sleep(0.5)  # (our send, if it fails, fails first)
            await stream.send_all(connection.refuse("shutting_down", "scripted", **details))
        elif number == 2 or not kept:
            pass  # a host that closes without a word
        else:
            await stream.send_all(connection.welcome())
            await stream.send_all(connection.close("quit", "that is all"))
        await stream.aclose()

    host = RefusingHost(nursery, script, broken_eof=broken_eof, sends_fail=sends_fail)
    updates = await run(CONFIG, host)
    away = [u for u in updates if isinstance(u, ConnectionChanged) and u.attempt]
    assert {(u.state, u.code, u.kept) for u in away} == {("reconnecting", "host_left", kept)}
    if kept:
        assert len(away) == 4 and {u.attempts for u in away} == {0}
        assert states(updates)[-2:] == ["connected", "lost"]  # the host is back, then says bye
    else:
        assert len(away) == CONFIG.backoff.attempts
        lost = updates[-1]
        assert isinstance(lost, ConnectionChanged)
        assert (lost.state, lost.code) == ("lost", "host_left")


def test_a_failed_attempt_after_the_host_said_how_it_went_keeps_its_words() -> None:
    """Reconnects, sans-IO: the ending that says how the host went is what every attempt
    after it says, until a welcome; a broken connection alone is said as such."""
    reconnects = Reconnects(Backoff(attempts=3))
    reconnects.welcomed(lasted=60.0)
    went = Ended(True, "shutting_down: the host was stopped", code="host_stopped", kept=True)
    refused = Ended(True, "cannot connect: Connection refused", code="refused")
    first = reconnects.retry(went)
    later = [reconnects.retry(refused) for _ in range(5)]
    assert (first.code, first.kept, first.attempts) == ("host_stopped", True, 0)
    assert {(u.state, u.code, u.kept) for u in later} == {("reconnecting", "host_stopped", True)}
    reconnects.welcomed(lasted=60.0)
    broken = reconnects.retry(Ended(True, "connection broken", code="connection_broken"))
    assert (broken.code, broken.kept, broken.attempts) == ("connection_broken", False, 3)


@pytest.mark.parametrize("lang", ["en", "it", "pt"])
def test_a_link_that_failed_is_said_in_words_not_by_its_exception(lang: str) -> None:
    """The network code failing (a bug of ours) named its exception on the screen ("the
    network code failed: BrokenResourceError()"): words now, the traceback in the log."""
    model = ClientModel(Translator(lang), name="Bea")
    model.apply(ConnectionChanged("lost", "the network code failed", code="link_failed"))
    line = connection_line(model)
    assert Translator(lang)("lost.link_failed") in line
    assert CLASS_NAME.search(line) is None, line


CLASS_NAME = re.compile(r"\b[A-Z][a-zA-Z]+(Error|Exception)\b|\w+\(\)")


def test_a_lobby_whose_host_is_gone_for_good_promises_no_kept_seat() -> None:
    """A lobby seat is not kept when its host goes (only a match's journal keeps seats): the
    key bar says to join again once the host is back, not that the seat is kept."""
    model = ClientModel(Translator("en"), name="Bea")
    seats = (SeatInfo(0, "human", "Bea", False, True), SeatInfo(1, "bot", "Ana", True, False))
    model.apply(ConnectionChanged("connected"))
    model.apply(LobbyChanged(LobbyState(0, "unonet", 0, RuleSet().to_dict(), seats, False,
                                        you=0)))
    model.apply(ConnectionChanged("lost", "shutting_down: the host's player left its table",
                                  code="host_left"))
    said = " ".join("".join(f[1] for f in compose(model, 100, 30, plain=True)).split())
    assert "run the same unonet join once the host is back" in said, said
    assert "your seat is kept" not in said and "the host's player left the table" in said


def test_no_catalogue_has_the_lines_issue_46_quoted() -> None:
    """Issue 46 quoted lines a player must never read again; none is in any catalogue."""
    quoted = ("unonet join later", "you join as a newcomer", "no table {", "Error()")
    for lang, strings in CATALOGUES.items():
        for key, text in strings.items():
            assert not any(line in text for line in quoted), (lang, key, text)


def test_a_host_that_left_between_rounds_is_said_on_the_round_end_screen() -> None:
    """The score screen between rounds said nothing but "reconnecting" in its title bar when
    the host's player left then; it says how the host went and that the match is kept."""
    model, _ = play_until(lambda m: m.screen is Screen.ROUND_END, seats=2)
    model.apply(ConnectionChanged("reconnecting", "shutting_down: the host's player left",
                                  code="host_left", attempt=1, delay=0.5, kept=True))
    said = " ".join("".join(f[1] for f in compose(model, 60, 17, plain=True)).split())
    assert "The host's player left the table; the match is kept" in said, said
