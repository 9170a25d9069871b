"""Trust on first use over real TLS on loopback: the first contact is remembered, a changed
fingerprint is refused with ssh's warning before anything is sent, an explicit pin works (and
replaces the remembered one); and `unonet join`'s first-contact prompt, on and off a terminal."""

from __future__ import annotations

import argparse
import functools
import io
import math
import re
from dataclasses import replace
from pathlib import Path

import pytest
import trio
from client_net import CuttableStream, LinkHarness, start_host, start_link
from prompt_toolkit.utils import get_cwidth

from client.cli import JoinError, parse_address, resolve_pin
from client.host_key import warning_said, warning_text
from client.i18n import Translator
from client.known_hosts import KnownHosts, address_key
from client.link import Command, HostKeyWarning, Snapshot, TablesListed, Update
from client.network import LinkConfig, open_stream, run_link
from client.tls import format_fingerprint, probe_fingerprint
from host.tls import HostIdentity, load_or_create_identity, server_context


def tls_config(port: int, hosts: KnownHosts, pin: str | None = None) -> LinkConfig:
    return LinkConfig("127.0.0.1", port, name="me", tls=True, pin=pin, known_hosts=hosts,
                      table=0, auto_ready=True)


async def tls_host(nursery: trio.Nursery, tmp_path: Path) -> tuple[int, HostIdentity]:
    identity = load_or_create_identity(tmp_path / "host")
    host = await start_host(nursery, bots=1, tls=server_context(identity))
    return host.port, identity


async def test_first_contact_is_remembered_and_the_game_runs_over_tls(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    port, identity = await tls_host(nursery, tmp_path)
    hosts = KnownHosts(tmp_path / "client" / "known_hosts")
    harness = await start_link(nursery, tls_config(port, hosts))
    await harness.until_type(Snapshot)
    assert hosts.lookup("127.0.0.1", port) == identity.fingerprint
    text = hosts.path.read_text()
    assert f"{address_key('127.0.0.1', port)} {identity.fingerprint.hex()}" in text
    await harness.close()
    # The second time the remembered fingerprint is checked and matches.
    config = tls_config(port, hosts)
    again = await start_link(nursery, LinkConfig(config.host, config.port, known_hosts=hosts))
    await again.until_type(TablesListed)
    assert again.states() == ["connecting", "connected"]
    await again.close()


async def test_a_changed_fingerprint_is_refused_loudly_and_nothing_is_sent(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    port, identity = await tls_host(nursery, tmp_path)
    hosts = KnownHosts(tmp_path / "client" / "known_hosts")
    hosts.remember("127.0.0.1", port, bytes(32))
    harness = await start_link(nursery, tls_config(port, hosts))
    warned = await harness.until_type(HostKeyWarning)
    lost = await harness.until_state("lost")
    assert lost.detail == warning_text(warned)  # the log's and the link's own words
    assert "THE HOST'S FINGERPRINT HAS CHANGED" in lost.detail
    assert format_fingerprint(identity.fingerprint) in lost.detail
    assert format_fingerprint(bytes(32)) in lost.detail
    assert str(hosts.path) in lost.detail
    # and its parts, for the screen to say in the player's words
    assert (warned.reason, warned.address) == ("remembered", address_key("127.0.0.1", port))
    assert warned.expected == format_fingerprint(bytes(32))
    assert warned.seen == format_fingerprint(identity.fingerprint)
    assert warned.known_hosts == str(hosts.path)
    with trio.fail_after(5):
        await harness.finished.wait()
    assert harness.streams == []  # refused before the link ever got a stream to write on
    assert harness.states() == ["connecting", "lost"]
    assert hosts.lookup("127.0.0.1", port) == bytes(32)  # never overwritten silently


async def test_a_key_that_changes_on_a_reconnect_is_a_warning_not_a_disconnect(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    """The first connection meets host A; the connection is cut, and the reconnect to the same
    address is answered by host B (another real TLS host: a machine in the middle, say). The
    link delivers the whole ssh-style warning as its own update, before "lost", sends nothing
    to B, and never retries."""
    port_a, identity_a = await tls_host(nursery, tmp_path / "a")
    port_b, identity_b = await tls_host(nursery, tmp_path / "b")
    hosts = KnownHosts(tmp_path / "client" / "known_hosts")
    config = tls_config(port_a, hosts)
    commands_in, commands_out = trio.open_memory_channel[Command](math.inf)
    updates_in, updates_out = trio.open_memory_channel[Update](math.inf)
    harness = LinkHarness(commands_in, updates_out)

    async def connector(config: LinkConfig, seen_before: bytes | None) -> trio.abc.Stream:
        where = config if not harness.streams else replace(config, port=port_b)
        stream = CuttableStream(await open_stream(where, seen_before))
        harness.streams.append(stream)
        return stream

    async def run() -> None:
        await run_link(config, commands_out, updates_in, connector=connector)
        harness.finished.set()

    nursery.start_soon(run)
    await harness.until_type(Snapshot)
    await harness.streams[0].cut()
    warned = await harness.until_type(HostKeyWarning)
    assert warned.reason == "earlier"
    assert warned.expected == format_fingerprint(identity_a.fingerprint)  # the one met first
    assert warned.seen == format_fingerprint(identity_b.fingerprint)  # the one shown now
    lost = await harness.until_state("lost")
    assert lost.detail == warning_text(warned)
    assert f"--pin {format_fingerprint(identity_b.fingerprint)[:19]}" in lost.detail
    with trio.fail_after(5):
        await harness.finished.wait()
    assert len(harness.streams) == 1  # B never got a stream to read a frame from
    assert harness.states()[-2:] == ["reconnecting", "lost"]
    assert hosts.lookup("127.0.0.1", port_a) == identity_a.fingerprint


async def test_an_explicit_pin_connects_and_replaces_the_remembered_fingerprint(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    port, identity = await tls_host(nursery, tmp_path)
    hosts = KnownHosts(tmp_path / "client" / "known_hosts")
    hosts.remember("127.0.0.1", port, bytes(32))  # the host made itself a new certificate
    pin = identity.display[:19]  # the first 16 base32 characters, as an invite carries
    harness = await start_link(nursery, tls_config(port, hosts, pin=pin))
    await harness.until_type(Snapshot)
    assert hosts.lookup("127.0.0.1", port) == identity.fingerprint
    await harness.close()


async def test_a_wrong_explicit_pin_is_refused(nursery: trio.Nursery, tmp_path: Path) -> None:
    port, identity = await tls_host(nursery, tmp_path)
    hosts = KnownHosts(tmp_path / "client" / "known_hosts")
    harness = await start_link(nursery, tls_config(port, hosts,
                                                   pin=format_fingerprint(bytes(32))))
    warned = await harness.until_type(HostKeyWarning)
    lost = await harness.until_state("lost")
    assert "You pinned (--fingerprint):" in lost.detail
    assert (warned.reason, warned.seen) == ("pinned", format_fingerprint(identity.fingerprint))
    assert warned.expected == format_fingerprint(bytes(32))  # grouped, as the user typed it
    assert harness.streams == []
    assert hosts.lookup("127.0.0.1", port) is None


async def test_probe_reads_the_fingerprint_the_host_prints(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    port, identity = await tls_host(nursery, tmp_path)
    assert await probe_fingerprint("127.0.0.1", port) == identity.fingerprint


# -- the first-contact prompt of `unonet join` -------------------------------------------------


class FakeInput(io.StringIO):
    def __init__(self, text: str, tty: bool) -> None:
        super().__init__(text)
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


def join_args(**options: object) -> argparse.Namespace:
    values: dict[str, object] = {"no_tls": False, "fingerprint": None}
    values.update(options)
    return argparse.Namespace(**values)


SEEN = bytes(range(32))


def probe(host: str, port: int) -> bytes:
    return SEEN


def never(host: str, port: int) -> bytes:
    raise AssertionError("no probe was expected")


def test_off_a_terminal_first_contact_is_accepted_with_a_notice(tmp_path: Path) -> None:
    hosts = KnownHosts(tmp_path / "known_hosts")
    out = io.StringIO()
    pin = resolve_pin(join_args(), "example.org", 7077, hosts, stdin=FakeInput("", False),
                      stdout=out, probe=probe)
    assert pin is None  # known_hosts holds it now: the link checks it there
    assert hosts.lookup("example.org", 7077) == SEEN
    text = out.getvalue()
    assert format_fingerprint(SEEN) in text and "First connection to example.org:7077" in text
    assert "not a terminal" in text and "accepting" in text


@pytest.mark.parametrize(("answer", "trusted"), [("y\n", True), ("yes\n", True), ("n\n", False),
                                                 ("\n", False)])
def test_on_a_terminal_first_contact_is_asked(tmp_path: Path, answer: str, trusted: bool) -> None:
    hosts = KnownHosts(tmp_path / "known_hosts")
    out = io.StringIO()
    stdin = FakeInput(answer, True)
    if trusted:
        resolve_pin(join_args(), "example.org", 7077, hosts, stdin=stdin, stdout=out, probe=probe)
        assert hosts.lookup("example.org", 7077) == SEEN
    else:
        with pytest.raises(JoinError, match="not trusted"):
            resolve_pin(join_args(), "example.org", 7077, hosts, stdin=stdin, stdout=out,
                        probe=probe)
        assert hosts.lookup("example.org", 7077) is None
    assert "[y/N]" in out.getvalue()


@pytest.mark.parametrize(("answer", "trusted"), [("s\n", True), ("sì\n", True), ("S\n", True),
                                                 ("y\n", True), ("n\n", False)])
def test_first_contact_is_asked_in_the_players_words(
    tmp_path: Path, answer: str, trusted: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found in tmux: `unonet join --lang pt` asked "Trust this host and remember its
    fingerprint? [y/N]" in English, and the terminal broke "fingerprint i/s" at 60 columns.
    The question is the player's language, its yes too, and each sentence is wrapped to the
    terminal; the fingerprint keeps a line of its own, whole."""
    monkeypatch.setenv("COLUMNS", "60")
    hosts = KnownHosts(tmp_path / "known_hosts")
    out = io.StringIO()
    tr = Translator("it")
    call = functools.partial(resolve_pin, join_args(), "example.org", 7077, hosts,
                             stdin=FakeInput(answer, True), stdout=out, probe=probe, tr=tr)
    if trusted:
        call()
        assert hosts.lookup("example.org", 7077) == SEEN
    else:
        with pytest.raises(JoinError, match="host non accettato"):
            call()
        assert hosts.lookup("example.org", 7077) is None
    text = out.getvalue()
    assert "Prima connessione a example.org:7077" in text and "[s/N]" in text
    lines = text.splitlines()
    fingerprint = lines[2:4] if lines[2].endswith("-") else lines[2:3]  # at 60 columns: two
    assert "".join(line.strip() for line in fingerprint) == format_fingerprint(SEEN), lines
    assert all(line.startswith("  ") and len(line) <= 60 for line in fingerprint), lines
    whole = (str(hosts.path), "[s/N]")  # the answer follows [s/N]
    assert all(len(line) <= 60 for line in text.splitlines()
               if not any(part in line for part in whole)), text
    if trusted:
        assert f"Ricordata in {hosts.path}." in text.replace("\n", " ")
    assert "Trust" not in text


def test_a_known_host_is_checked_before_the_screen_opens(tmp_path: Path) -> None:
    hosts = KnownHosts(tmp_path / "known_hosts")
    hosts.remember("example.org", 7077, SEEN)
    quiet = io.StringIO()
    assert resolve_pin(join_args(), "example.org", 7077, hosts, stdin=FakeInput("", True),
                       stdout=quiet, probe=probe) is None
    assert quiet.getvalue() == ""
    other = bytes(reversed(SEEN))
    with pytest.raises(JoinError) as refused:
        resolve_pin(join_args(), "example.org", 7077, hosts, stdin=FakeInput("y\n", True),
                    stdout=quiet, probe=lambda host, port: other)
    assert "FINGERPRINT HAS CHANGED" in str(refused.value)
    assert f"--pin {format_fingerprint(other)[:19]}" in str(refused.value)
    assert hosts.lookup("example.org", 7077) == SEEN  # never overwritten silently


def test_a_changed_key_before_the_screen_opens_is_said_in_the_players_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The screen's warning was in the player's language, the same warning before the
    screen opened in English; both say it in the player's words now, with the command that
    pins the new fingerprint and the file that remembers the old one."""
    monkeypatch.setenv("COLUMNS", "60")
    hosts = KnownHosts(tmp_path / "known_hosts")
    hosts.remember("example.org", 7077, SEEN)
    other = bytes(reversed(SEEN))
    tr = Translator("pt")
    with pytest.raises(JoinError) as refused:
        resolve_pin(join_args(), "example.org", 7077, hosts, stdin=FakeInput("s\n", True),
                    stdout=io.StringIO(), probe=lambda host, port: other, tr=tr)
    said = str(refused.value)
    joined = " ".join(said.split())
    assert "A IMPRESSÃO DIGITAL DO HOST MUDOU" in said and "FINGERPRINT" not in said
    unbroken = said.replace("-\n  ", "-")  # whole groups to a line, broken after a dash
    for fingerprint in (SEEN, other):
        assert f"\n  {format_fingerprint(fingerprint)}\n" in unbroken, said
    assert f"unonet join example.org:7077 --pin {format_fingerprint(other)[:19]}" \
        in said
    assert tr("ui.key_forget", address="example.org:7077", path=hosts.path) in joined
    # Each sentence wrapped at its words, within the terminal (issue 46: a terminal left to
    # wrap it cut words; one wrapped without room for "unonet: " came out ragged)
    assert_wrapped(said, 59, lead=len("unonet: "))
    assert hosts.lookup("example.org", 7077) == SEEN


def unreachable(host: str, port: int) -> bytes:
    raise ConnectionRefusedError(111, "Connection refused")


def test_a_known_host_that_is_down_opens_the_screen_which_keeps_trying(tmp_path: Path) -> None:
    hosts = KnownHosts(tmp_path / "known_hosts")
    hosts.remember("example.org", 7077, SEEN)
    assert resolve_pin(join_args(), "example.org", 7077, hosts, stdin=FakeInput("", True),
                       stdout=io.StringIO(), probe=unreachable) is None
    with pytest.raises(JoinError, match="cannot reach"):  # a first contact must be reached
        resolve_pin(join_args(), "new.example.org", 7077, hosts, stdin=FakeInput("", True),
                    stdout=io.StringIO(), probe=unreachable)


def test_an_explicit_pin_or_no_tls_needs_no_probe(tmp_path: Path) -> None:
    hosts = KnownHosts(tmp_path / "known_hosts")
    quiet = io.StringIO()
    pin = resolve_pin(join_args(fingerprint=format_fingerprint(SEEN).lower()), "other", 1,
                      hosts, stdin=FakeInput("", True), stdout=quiet, probe=never)
    assert pin == format_fingerprint(SEEN).replace("-", "")
    assert resolve_pin(join_args(no_tls=True), "other", 1, hosts, stdin=FakeInput("", True),
                       stdout=quiet, probe=never) is None
    assert quiet.getvalue() == ""
    with pytest.raises(JoinError, match="--fingerprint"):
        resolve_pin(join_args(fingerprint="ABCD"), "other", 1, hosts,
                    stdin=FakeInput("", True), stdout=quiet, probe=never)


def test_known_hosts_keeps_addresses_apart_and_skips_junk(tmp_path: Path) -> None:
    path = tmp_path / "known_hosts"
    path.write_text("# comment\nnot a line at all\n[::1]:7077 zz\n")
    hosts = KnownHosts(path)
    assert hosts.entries() == {}
    hosts.remember("::1", 7077, SEEN)
    hosts.remember("localhost", 7077, bytes(32))
    assert hosts.lookup("[::1]", 7077) == SEEN
    assert hosts.lookup("LOCALHOST", 7077) == bytes(32)
    assert hosts.lookup("localhost", 7078) is None


@pytest.mark.parametrize(("text", "expected"), [
    ("example.org:7000", ("example.org", 7000)),
    ("example.org", ("example.org", 7077)),
    ("[2001:db8::1]:7001", ("2001:db8::1", 7001)),
    ("2001:db8::1", ("2001:db8::1", 7077)),
    ("127.0.0.1:1", ("127.0.0.1", 1)),
])
def test_addresses_parse(text: str, expected: tuple[str, int]) -> None:
    assert parse_address(text) == expected


@pytest.mark.parametrize(("text", "said"), [
    (":7077", "expected HOST:PORT"), ("host:port", "'port' is not a port number (1 to 65535)"),
    ("host:70000", "70000 is not a port (1 to 65535)"), ("[::1]:0", "0 is not a port"),
    ("[::1]:x", "'x' is not a port number"),
    # found in tmux: `unonet join 127.0.0.1:` tried the default port without a word
    ("127.0.0.1:", "expected a port number after the colon"),
    ("[::1]:", "expected a port number after the colon"),
])
def test_bad_addresses_are_refused(text: str, said: str) -> None:
    """A number that is no port is not told "expected a port number" (found: localhost:99999)."""
    with pytest.raises(ValueError, match=re.escape(said)):
        parse_address(text)


def test_the_config_dir_follows_unonet_home_then_xdg(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("UNONET_HOME", str(tmp_path / "home"))
    assert KnownHosts().path == tmp_path / "home" / "known_hosts"
    monkeypatch.delenv("UNONET_HOME")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert KnownHosts().path == tmp_path / "xdg" / "unonet" / "known_hosts"



def assert_wrapped(text: str, width: int, lead: int = 0) -> None:
    """Every line of `text` within `width` (the first after `lead` columns; a word too long for
    any line, a path, as it is), and no sentence line that could have taken the next line's
    first word: wrapped at words, not ragged. The indented lines (a fingerprint, the command
    to copy) are laid out on their own."""
    lines = text.splitlines()
    for number, (line, after) in enumerate(zip(lines, [*lines[1:], ""], strict=True)):
        taken = lead if number == 0 else 0
        assert taken + get_cwidth(line) <= width or " " not in line.strip() \
            or line.startswith("  unonet join"), line
        if line.startswith("  ") or after.startswith("  ") or not after \
                or line.endswith((":", ".")):
            continue  # a sentence ends, or a fingerprint or a command follows
        room = width - taken - get_cwidth(line)
        assert get_cwidth(after.split(" ")[0]) + 1 > room, (line, after)


@pytest.mark.parametrize("host", ["192.168.100.200", "2001:db8:ffff:ffff:ffff:ffff:ffff:ffff"])
@pytest.mark.parametrize("reason", ["pinned", "remembered", "earlier"])
@pytest.mark.parametrize("width", [59, 79])
def test_the_changed_fingerprint_warning_is_wrapped_at_words_within_the_terminal(
    host: str, reason: str, width: int
) -> None:
    """The terminal's and the log's text: each sentence wrapped at its words within the
    terminal's width (issue 46: pre-wrapped without room for "unonet: ", it came out ragged at
    80 columns; left to the terminal, it was cut inside words at 60), each fingerprint whole
    on its own lines, and the command that pins the new one whole on its own."""
    address = address_key(host, 65535)
    path = "/home/someone/.config/unonet/known_hosts"
    expected, seen = format_fingerprint(bytes(32)), format_fingerprint(bytes([255]) * 32)
    warned = HostKeyWarning(reason, address, expected, seen, path)
    text = warning_text(warned, width, lead=len("unonet: "))
    assert_wrapped(text, width, lead=len("unonet: "))
    joined = " ".join(text.split())
    for part in warning_said(Translator("en"), warned):
        if part.kind in ("alert", "line", "prompt"):
            assert " ".join(part.text.split()) in joined, part.text
    assert expected in text.replace("-\n  ", "-") and seen in text.replace("-\n  ", "-")
    assert f"  unonet join {address} --pin {seen[:19]}" in text.splitlines()
    assert (path in text) == (reason == "remembered")


def test_an_unreachable_ipv6_host_is_named_with_its_brackets(tmp_path: Path) -> None:
    """Found trying `unonet join [::1]:1`: "cannot reach ::1:1", where the port cannot be
    told from the address; every host:port is written as `unonet join` reads it."""
    def refused(host: str, port: int) -> bytes:
        raise ConnectionRefusedError(111, "Connection refused")

    with pytest.raises(JoinError) as failed:
        resolve_pin(join_args(), "::1", 1, KnownHosts(tmp_path / "known_hosts"),
                    stdin=FakeInput("", False), stdout=io.StringIO(), probe=refused)
    assert str(failed.value).startswith("cannot reach [::1]:1: ")
