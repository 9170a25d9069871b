"""A host that cannot be reached, or is not what the player asked for, is said in words that
tell what to do: a refused port, a host that speaks no TLS (or TLS to a plain connection), one
that never answers, a table that is not there. Found by hand: `unonet bot` printed a traceback
for a TLS mismatch and hung at a table that did not exist, and the join screen said only
"Connecting..." and "connection lost", or "cannot reach ...: " with nothing after the colon
(trio's broken-stream and timeout errors have no text of their own)."""

from __future__ import annotations

import contextlib
import errno
import math
import os
import re
import socket
import ssl
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import trio
import trio.testing
from client_net import start_host
from prompt_toolkit.utils import get_cwidth
from test_cli_errors import run_unonet

from client.i18n import Translator
from client.link import Command, ConnectionChanged, Update
from client.model import ClientModel
from client.network import Backoff, LinkConfig, run_link
from client.render import compose
from client.tls import NO_TLS_HINT, connect_failure, open_pinned_stream
from host.tls import load_or_create_identity, server_context

REPO = Path(__file__).resolve().parents[1]


# -- connect_failure: one line for each way reaching a host fails --------------------------------


async def failure_of(port: int, *, timeout: float = 5.0) -> str:
    """What reaching 127.0.0.1:`port` over TLS says when it fails (it must fail)."""
    return connect_failure(await exception_of(port, timeout=timeout)).words


async def exception_of(port: int, *, timeout: float = 5.0) -> Exception:
    """How reaching 127.0.0.1:`port` over TLS fails (it must fail)."""
    try:
        with trio.fail_after(timeout):
            tcp = await trio.open_tcp_stream("127.0.0.1", port)
            await open_pinned_stream(tcp, None, handshake_timeout=timeout)
    except Exception as exc:  # whatever it is, connect_failure must word it
        return exc
    raise AssertionError("the connection succeeded")


def free_port() -> int:
    """A port nothing listens on (bound, then closed: refused until something takes it)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_a_refused_port_says_refused() -> None:
    assert await failure_of(free_port()) == "Connection refused"
    assert connect_failure(await exception_of(free_port())).code == "refused"


async def test_a_server_that_speaks_no_tls_is_named_as_such() -> None:
    async def http(stream: trio.SocketStream) -> None:
        await stream.send_all(b"HTTP/1.1 400 Bad Request\r\n\r\n")
        await stream.aclose()

    async with trio.open_nursery() as nursery:
        listeners = await nursery.start(trio.serve_tcp, http, 0)
        port = listeners[0].socket.getsockname()[1]
        failed = await exception_of(port)
        nursery.cancel_scope.cancel()
    said = connect_failure(failed).words
    assert connect_failure(failed).code == "not_tls"
    assert said.startswith("the TLS handshake failed (WRONG_VERSION_NUMBER)")
    assert "--no-tls" in said


async def test_a_server_that_never_answers_is_a_timeout_in_words(
    autojump_clock: trio.testing.MockClock,
) -> None:
    async def silent(stream: trio.SocketStream) -> None:
        await trio.sleep_forever()

    async with trio.open_nursery() as nursery:
        listeners = await nursery.start(trio.serve_tcp, silent, 0)
        failed = await exception_of(listeners[0].socket.getsockname()[1], timeout=10)
        nursery.cancel_scope.cancel()
    assert connect_failure(failed).words == "no answer in time (a firewall, or not a unonet host?)"
    assert connect_failure(failed).code == "no_answer"


def test_every_failure_has_words() -> None:
    """trio's timeout and broken-stream errors say nothing by themselves."""
    assert connect_failure(trio.TooSlowError()).words != ""
    assert connect_failure(trio.BrokenResourceError()).words != ""
    assert connect_failure(OSError("no route")).words == "no route"


def code(exc: BaseException) -> str:
    return connect_failure(exc).code


def test_every_failure_has_a_code_for_the_players_words() -> None:
    """The kinds a player can act on have their own code (client.i18n says each); the rest
    is cannot_connect, said with the system's words."""
    unreachable = OSError(errno.EHOSTUNREACH, "No route to host")
    assert code(tried(unreachable, unreachable)) == "unreachable"
    assert code(tried(OSError(errno.ECONNREFUSED, "Connection refused"))) == "refused"
    assert code(socket.gaierror(socket.EAI_NONAME, "Name or service not known")) \
        == "unknown_host"
    assert code(OSError(errno.ETIMEDOUT, "Connection timed out")) == "no_answer"
    assert code(OSError("no route")) == "cannot_connect"
    assert code(trio.BrokenResourceError()) == "not_tls"


def tried(*errors: OSError) -> OSError:
    """trio.open_tcp_stream's failure: one error per address tried, in the group behind it."""
    failed = OSError("all attempts to connect to h:1 failed")
    failed.__cause__ = ExceptionGroup("", list(errors))
    return failed


def test_the_code_and_the_words_come_from_one_reading() -> None:
    """Found in review: two classifiers disagreed. A mix of an unreachable and a refusing
    address was coded unreachable while its words said "Connection refused"; a reset during
    the TLS handshake was coded not_tls, and the player was told to try --no-tls."""
    mixed = connect_failure(tried(OSError(errno.EHOSTUNREACH, "No route to host"),
                                  OSError(errno.ECONNREFUSED, "Connection refused")))
    assert mixed.code == "refused"  # one address answered: nothing listens on that port
    assert "Connection refused" in mixed.words and "No route to host" in mixed.words
    reset = trio.BrokenResourceError()
    reset.__cause__ = ConnectionResetError(errno.ECONNRESET, "Connection reset by peer")
    failure = connect_failure(reset)
    assert failure.code == "connection_broken" and "--no-tls" not in failure.words
    assert failure.words == "during the TLS handshake: Connection reset by peer"
    handshake = trio.BrokenResourceError()
    handshake.__cause__ = ssl.SSLError(1, "[SSL: WRONG_VERSION_NUMBER] wrong version number")
    assert connect_failure(handshake).code == "not_tls"
    assert "--no-tls" in connect_failure(handshake).words


# -- the join screen: why it is still connecting, or gave up ------------------------------------


def screen(model: ClientModel, width: int = 80, height: int = 23) -> str:
    text = "".join(fragment[1] for fragment in compose(model, width, height, plain=False))
    assert all(get_cwidth(line) <= width for line in text.split("\n"))
    return text


def joined_text(text: str) -> str:
    return " ".join(line.strip() for line in text.split("\n") if line.strip())


@pytest.mark.parametrize("width", [60, 80])
def test_the_connecting_screen_says_why_it_tries_again_and_why_it_stopped(width: int) -> None:
    model = ClientModel(Translator("en"), name="Zed")
    model.apply(ConnectionChanged("connecting"))
    assert "Connecting..." in screen(model, width)
    trying = "cannot reach the host (Connection refused); attempt 1 of 3 in 0.5 s"
    model.apply(ConnectionChanged("connecting", "Connection refused", attempt=1, attempts=3,
                                  delay=0.5))
    said = joined_text(screen(model, width))
    assert "Connecting..." in said and f"connecting: {trying}" in said
    model.apply(ConnectionChanged("lost", "the host closed the connection; " + NO_TLS_HINT))
    said = joined_text(screen(model, width))
    assert "Connecting..." not in said  # it stopped trying: the screen must not say it tries
    assert f"connection lost: the host closed the connection; {NO_TLS_HINT}" in said


# -- the link: a plain connection to a TLS host ---------------------------------------------------


async def test_a_plain_link_to_a_tls_host_says_to_leave_out_no_tls(tmp_path: Path) -> None:
    context = server_context(load_or_create_identity(tmp_path))
    updates_in, updates_out = trio.open_memory_channel[Update](math.inf)
    _, commands_out = trio.open_memory_channel[Command](math.inf)
    async with trio.open_nursery() as nursery:
        host = await start_host(nursery, tls=context)
        config = LinkConfig("127.0.0.1", host.port, name="Zed", tls=False,
                            backoff=Backoff(first=0.01, first_attempts=1))
        with trio.fail_after(30):
            await run_link(config, commands_out, updates_in)
        nursery.cancel_scope.cancel()
    seen = []
    while True:
        try:
            seen.append(updates_out.receive_nowait())
        except trio.WouldBlock:
            break
    last = seen[-1]
    assert isinstance(last, ConnectionChanged) and last.state == "lost"
    assert last.detail.endswith(NO_TLS_HINT), last.detail
    assert last.code == "host_closed_plain"  # for the screen to say in the player's words
    model = ClientModel(Translator("pt"), name="Zé")
    model.apply(last)
    said = joined_text(screen(model, 80))
    assert "conexão perdida: o host fechou a conexão: um host iniciado sem --no-tls fala TLS, " \
        "tire o --no-tls" in said and NO_TLS_HINT not in said, said
    retried = [u for u in seen if isinstance(u, ConnectionChanged) and u.state == "connecting"
               and u.detail]
    assert retried and all(NO_TLS_HINT in u.detail for u in retried)


# -- `unonet bot`, run as a user runs it -------------------------------------------------------


@pytest.fixture(scope="module")
def hosts(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, int]]:
    """Real headless hosts: with TLS, without, and one whose only table is full (two bots
    play at it): their ports by kind."""
    home = tmp_path_factory.mktemp("hosts")
    env = {**os.environ, "UNONET_HOME": str(home), "XDG_CONFIG_HOME": str(home),
           "XDG_STATE_HOME": str(home)}
    running: list[subprocess.Popen[str]] = []
    ports: dict[str, int] = {}
    try:
        for kind, extra in (("tls", ["--bots", "1"]), ("plain", ["--no-tls", "--bots", "1"]),
                            ("full", ["--no-tls", "--bots", "2", "--seats", "2"])):
            host = subprocess.Popen(
                [sys.executable, "-m", "unonet.cli", "host", "--headless", "--bind",
                 "127.0.0.1", "--port", "0", *extra],
                cwd=REPO, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL, text=True,
            )
            running.append(host)
            assert host.stdout is not None
            for line in host.stdout:  # it prints its port once it listens
                found = re.search(r"port (\d+)", line)
                if found:
                    ports[kind] = int(found.group(1))
                    break
            assert kind in ports, f"the {kind} host never said its port"
        yield ports
    finally:
        for host in running:
            host.kill()
            host.wait()


def complaint(result: subprocess.CompletedProcess[str]) -> list[str]:
    """stderr's lines, less the fingerprint line an unpinned TLS bot prints first."""
    return [line for line in result.stderr.splitlines()
            if line.strip() and not line.startswith("host fingerprint")]


@pytest.mark.parametrize(
    ("kind", "args", "words"),
    [
        ("tls", ["--no-tls"], f"the session ended after 0 of 1 matches: the host closed the "
                              f"connection; {NO_TLS_HINT}"),
        ("plain", [], "the TLS handshake failed (WRONG_VERSION_NUMBER): not a unonet host, or "
                      "one started with --no-tls"),
        ("plain", ["--no-tls", "--table", "9"], "the session ended after 0 of 1 matches: "
                                                "unknown_table: table 9 is not on this host"),
        ("tls", ["--table", "9"], "unknown_table: table 9 is not on this host (it may have "
                                  "closed)"),
        ("full", ["--no-tls"], "the session ended after 0 of 1 matches: no table with a free "
                               "seat"),
    ],
)
def test_a_bot_that_cannot_play_says_why_in_one_line(
    hosts: dict[str, int], kind: str, args: list[str], words: str, tmp_path: Path,
) -> None:
    result = run_unonet(["bot", f"127.0.0.1:{hosts[kind]}", "--think", "0", *args], tmp_path)
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    lines = complaint(result)
    assert len(lines) == 1 and words in lines[0], lines


def test_a_bot_at_a_refused_port_says_so(tmp_path: Path) -> None:
    port = free_port()
    result = run_unonet(["bot", f"127.0.0.1:{port}", "--no-tls"], tmp_path)
    assert result.returncode == 1
    assert complaint(result) == [f"unonet: cannot reach 127.0.0.1:{port}: Connection refused"]


def test_a_hostile_hosts_words_reach_the_bots_terminal_escaped(tmp_path: Path) -> None:
    """The host's error text goes to the operator's terminal: a terminal escape in it is
    shown as text, never sent to the terminal."""
    from protocol.frames import encode_frame

    refusal = encode_frame({"t": "error", "code": "server_full", "fatal": True,
                            "msg": "\x1b[2Jwiped \u202eevil"})
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        bot = subprocess.Popen(
            [sys.executable, "-m", "unonet.cli", "bot", f"127.0.0.1:{port}", "--no-tls"],
            cwd=REPO, env={**os.environ, "XDG_CONFIG_HOME": str(tmp_path)},
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        server.settimeout(60)
        conn, _ = server.accept()
        with conn:
            conn.recv(65536)  # its hello
            conn.sendall(refusal)
        _, err = bot.communicate(timeout=60)
    assert bot.returncode == 1, err
    assert "\x1b" not in err and "\u202e" not in err
    assert "server_full: \\x1b[2Jwiped \\u202eevil" in err


async def test_a_bot_that_catches_the_host_cheating_exits_3(
    nursery: trio.Nursery, tmp_path: Path,
) -> None:
    """`unonet bot` checks the deck as a player's client does: a host that swaps a dealt card
    (and signs its lie) is named on stderr, escaped, and the exit status is 3."""
    from tamper import Forger, Message, TamperingStream, chain, event_of

    from unonet.rules import RuleSet

    host = await start_host(nursery, bots=1, players=1, rules=RuleSet(max_rounds=1))
    forger = Forger(host.registry.signer)
    swapped = False

    def swap(message: Message) -> list[Message]:
        nonlocal swapped
        event = event_of(message, "cards_received")
        if swapped or event is None:
            return [message]
        swapped = True
        cards = list(event["cards"])
        cards[0] = (cards[0] + 1) % 108
        return [{**message, "event": {**message["event"], "cards": cards}}]

    async def dishonest(client: trio.SocketStream) -> None:
        """Between the bot and the real host: the host's messages, one of them a lie."""
        upstream = TamperingStream(await trio.open_tcp_stream("127.0.0.1", host.port),
                                   chain(swap, lambda message: [forger.forge(message)]))

        async def pump(source: trio.abc.Stream, sink: trio.abc.Stream) -> None:
            try:
                while data := await source.receive_some(65536):
                    await sink.send_all(data)
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                pass
            with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
                await sink.aclose()

        async with trio.open_nursery() as both:
            both.start_soon(pump, client, upstream)
            both.start_soon(pump, upstream, client)

    listeners = await nursery.start(trio.serve_tcp, dishonest, 0)
    port = listeners[0].socket.getsockname()[1]
    with trio.fail_after(300):
        bot = await trio.run_process(
            [sys.executable, "-m", "unonet.cli", "bot", f"127.0.0.1:{port}", "--no-tls",
             "--think", "0"],
            cwd=REPO, env={**os.environ, "XDG_CONFIG_HOME": str(tmp_path)},
            capture_stdout=True, capture_stderr=True, check=False)
    err = bot.stderr.decode()
    assert swapped
    assert bot.returncode == 3, err
    assert "the host failed a check: " in err and "card_mismatch" in err
    assert "Traceback" not in err


async def test_a_bot_that_played_says_who_won_by_name_and_what_its_checks_covered(
    nursery: trio.Nursery, tmp_path: Path,
) -> None:
    """`unonet bot` printed "match over: seat 1 wins, scores [238, 684]": seat numbers from
    0, and not which one was the bot. Now names, the bot marked, and what the deck checks
    covered, on stdout; nothing on stderr but the unpinned-fingerprint line there is none of
    over plain TCP."""
    from unonet.rules import RuleSet

    host = await start_host(nursery, bots=1, players=1, rules=RuleSet(max_rounds=1))
    with trio.fail_after(300):
        bot = await trio.run_process(
            [sys.executable, "-m", "unonet.cli", "bot", f"127.0.0.1:{host.port}", "--no-tls",
             "--think", "0", "--name", "Robo"],
            cwd=REPO, env={**os.environ, "XDG_CONFIG_HOME": str(tmp_path)},
            capture_stdout=True, capture_stderr=True, check=False)
    out, err = bot.stdout.decode(), bot.stderr.decode()
    assert bot.returncode == 0, err
    assert err == ""
    lines = out.splitlines()
    assert len(lines) == 3, lines
    assert re.fullmatch(r"match 1 over: .+ wins; scores: .+ \d+, .+ \d+", lines[0]), lines
    assert "Robo (this bot)" in lines[0]
    assert lines[1] == "deck checks: 1 of 1 round audited in full, every card and seed held"
    assert re.fullmatch(r"own moves: [1-9]\d* recorded by the host exactly as sent", lines[2])


def test_a_bots_report_escapes_names_and_says_no_more_than_was_checked() -> None:
    from client.netbot import BotResult, RoundCheck, report_lines
    from protocol.trust.results import Violation, ViolationKind
    from unonet.events import MatchEnded

    result = BotResult(seat=0, names={0: "Robo", 1: "\x1b[2Jevil"})
    result.matches.append(MatchEnded(1, (12, 540)))
    result.rounds = {1: RoundCheck("audited", 40), 2: RoundCheck("missed", 3)}
    result.audited, result.judged = [1], 2
    lines = report_lines(result)
    assert lines[0] == "match 1 over: \\x1b[2Jevil wins; scores: Robo (this bot) 12, " \
                       "\\x1b[2Jevil 540"
    assert lines[1] == ("deck checks: 1 of 2 rounds audited in full; no violation in what was "
                        "checked")  # round 2 was not watched whole: no claim for its cards
    result.violations.append(Violation(ViolationKind.CARD_MISMATCH, "a card is not the one"))
    assert report_lines(result)[1] == "deck checks: 1 of 2 rounds audited in full; 1 violation " \
                                      "(below)"
    assert report_lines(BotResult()) == []  # it never played: nothing to claim


def test_the_next_attempt_is_said_in_the_players_language() -> None:
    """Found in tmux: an Italian player read "riconnessione: the host is gone (...); attempt
    5 of 15 in 8 s". The words are the player's; the reason stays as the system said it."""
    model = ClientModel(Translator("it"), name="Bea")
    model.apply(ConnectionChanged("reconnecting", "Connection refused", attempt=5, attempts=15,
                                  delay=8.0))
    said = joined_text(screen(model, 80))
    assert ("riconnessione: l'host non c'è più (Connection refused); tentativo 5 di 15 fra "
            "8 s") in said, said
    model.apply(ConnectionChanged("connected"))
    assert "tentativo" not in joined_text(screen(model, 80))


@pytest.mark.parametrize(("lang", "words"), [
    ("pt", "o host sumiu (conexão recusada: ninguém escuta nessa porta); tentativa 4 de 15"),
    ("it", "l'host non c'è più (connessione rifiutata: nessuno ascolta su quella porta); "
           "tentativo 4 di 15"),
    ("en", "the host is gone (cannot connect: Connection refused); attempt 4 of 15")])
def test_why_an_attempt_failed_is_in_the_players_words(lang: str, words: str) -> None:
    """Found in tmux: a Portuguese player whose host had quit read "o host sumiu (cannot
    connect: Connection refused)". A reason the link knows is said in the player's words
    (in English, the system's diagnostic as before)."""
    model = ClientModel(Translator(lang), name="Bea")
    model.apply(ConnectionChanged("reconnecting", "cannot connect: Connection refused",
                                  code="refused", attempt=4, attempts=15, delay=4.0))
    said = joined_text(screen(model, 60))
    assert words in said and (lang == "en" or "Connection refused" not in said), said


def test_why_the_connection_was_lost_is_said_in_the_players_words() -> None:
    """An Italian or Portuguese player read "connessione persa: cannot connect: Connection
    refused": the link's codes and the protocol's have our words now, the diagnostic after
    them; English reads as it did."""
    lost = ConnectionChanged("lost", "cannot connect: Connection refused", code="cannot_connect")
    for lang, words in (("it", "connessione persa: l'host non si raggiunge (cannot connect: "
                                "Connection refused)"),
                        ("pt", "conexão perdida: não dá para alcançar o host (cannot connect: "
                               "Connection refused)"),
                        ("en", "connection lost: cannot connect: Connection refused")):
        model = ClientModel(Translator(lang), name="Zé")
        model.apply(lost)
        assert words in joined_text(screen(model, 80)), (lang, screen(model, 80))
    model = ClientModel(Translator("it"), name="Zé")
    model.apply(ConnectionChanged("lost", "shutting_down: the host is stopping",
                                  code="shutting_down"))
    assert "l'host si sta fermando (shutting_down: the host is stopping)" in joined_text(
        screen(model, 80))


def test_every_way_the_link_ends_has_words_in_every_language() -> None:
    from client.i18n import CATALOGUES
    from client.link_session import LINK_ENDINGS

    for code in LINK_ENDINGS:
        for lang, strings in CATALOGUES.items():
            assert f"lost.{code}" in strings, (lang, code)



def test_a_refusal_that_ends_the_connection_is_said_without_its_code() -> None:
    """Found in tmux: "connection lost: server_full: the host is full (…)": the code is for
    programs; the words after it, in English, or the player's own words."""
    lost = ConnectionChanged("lost", "server_full: the host is full (1 connection, none idle "
                             "for long enough to make room)", code="server_full")
    model = ClientModel(Translator("en"), name="Zé")
    model.apply(lost)
    said = joined_text(screen(model, 80))
    assert "connection lost: the host is full (1 connection" in said and "server_full" not in said
    model = ClientModel(Translator("en"), name="Zé")
    model.apply(ConnectionChanged("connecting", "server_full: the host is full", code="server_full",
                                  attempt=1, attempts=3, delay=2.0))
    said = joined_text(screen(model, 80))
    assert "(the host is full); attempt 1 of 3" in said and "server_full" not in said
    model = ClientModel(Translator("pt"), name="Zé")
    model.apply(ConnectionChanged("connecting", "server_full: the host is full", code="server_full",
                                  attempt=1, attempts=3, delay=2.0))
    assert model.tr("refusal.server_full") in joined_text(screen(model, 80))


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "connecting: the host refused (the seat's player is connected); attempt 1 of 15"),
    ("it", "l'host ha rifiutato (il tuo posto è in uso da un'altra connessione); tentativo 1"),
])
def test_a_host_that_refused_is_not_said_to_be_out_of_reach(lang: str, words: str) -> None:
    """A seat in use (a copy of our token, say) is a refusal by a host that answered, not
    "cannot reach the host"; since a fatal refusal is said once, by this line, it says it."""
    model = ClientModel(Translator(lang), name="Bea")
    model.apply(ConnectionChanged("connecting", "seat_in_use: the seat's player is connected",
                                  code="seat_in_use", attempt=1, attempts=15, delay=1.0))
    assert words in joined_text(screen(model, 80))
