"""`unonet join HOST:PORT` and `unonet play`: the functions unonet/cli.py wires in.

`join` decides whom to trust before the screen opens (SPEC.md UNO-3-5, trust on first use):

- `--fingerprint FP` pins the host explicitly (the base32 the host prints, a prefix of at least
  16 characters, or 64 hex digits); once it matches, known_hosts remembers the full value.
- Else a host:port known_hosts remembers must show the same fingerprint; a different one is
  refused with ssh's warning, printed at once instead of opening the screen (and nothing is
  sent to that host). A host that changes it between two connections of one session is
  refused with the whole warning on the screen at once (printed again when it closes).
- Else it is the first contact: the fingerprint is fetched and printed. On a terminal the player
  is asked to accept it (y/N, as ssh asks); when stdin is not a terminal there is nobody to ask,
  so it is accepted with a printed notice, as ssh's StrictHostKeyChecking=accept-new does. Either
  way it is remembered, and every later connection must show it.

`play` starts a host in the same process (the factory comes from unonet/cli.py: client never
imports host), on 127.0.0.1 with an ephemeral port, inside the client's own trio run, and joins
it; the player is made ready at once, so the match starts against the bots.

Both draw the screen first: the network link (trio, the link session, the trust verifier) is
loaded and started once the first frame is up (`LateNetworkLink`), and play's host after it.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import logging
import os
import shutil
import sys
from collections.abc import Callable, Mapping
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from client.app import ClientApp, build
from client.host_key import fingerprint_lines, sentence, warning_text
from client.i18n import Translator, pick_language
from client.known_hosts import KnownHosts, address_key, config_dir
from client.link import (
    CLOSE_GRACE,
    Command,
    ConnectionChanged,
    Deliver,
    Hosting,
    HostKeyWarning,
    Update,
)
from client.lobby import LobbyCommand
from client.model import ClientModel, Screen
from client.render import connection_line
from client.safe_text import own_name, shown
from client.seat_tokens import SeatTokens
from protocol.address import AddressError, host_port, port_of
from protocol.fingerprint import PinError, format_fingerprint, normalize_pin
from protocol.text import TextRefused
from protocol.versions import DEFAULT_PORT
from unonet.actions import Action
from unonet.cli_words import cli_words
from unonet.terminal_text import laid_out, usable_width

# trio, TLS and the link's own code are imported where they are used: `unonet play` draws its
# first screen before any of them has loaded (tests/test_first_screen.py holds it so).
if TYPE_CHECKING:
    import trio

    from client.guest import LinkMain, NetworkLink
    from client.tls import ConnectFailure

log = logging.getLogger("unonet.client.cli")

OWN_HOST = "own-host"
"""The place (client/seat_tokens.py) the host's own player keeps its seat under, whatever port
`unonet host` listens on this time."""


@dataclass(frozen=True)
class HostAddress:
    """Where a local host listens; `fingerprint` None means plain TCP (loopback only).
    `place`: the name its seat tokens are kept under (client/seat_tokens.py), None to keep
    them in memory only (a host that ends with the client has no seat to take back)."""

    host: str
    port: int
    fingerprint: str | None = None
    table: int = 0
    place: str | None = None
    fresh: bool = False
    """The host opened its tables anew (no --resume): a seat kept under `place` from an
    earlier run names nothing there, so it is dropped rather than offered and refused."""


StartLocalHost = Callable[[argparse.Namespace], AbstractAsyncContextManager[HostAddress]]
"""unonet/cli.py's factory: given `play`'s options, an async context manager that runs a host
(in the caller's trio run) while it is entered and yields its address."""


class JoinError(Exception):
    """The join cannot go ahead; the message says why, for the terminal."""


def parse_address(text: str) -> tuple[str, int]:
    """`host:port`, `[v6]:port`, or a bare host (the default port)."""
    text = text.strip()
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        port_text = rest.removeprefix(":")
    elif text.count(":") == 1:
        host, _, port_text = text.partition(":")
    else:
        host, port_text = text, ""
    if not host:
        raise AddressError(f"expected HOST:PORT, not {text!r}", "address", text=repr(text))
    if not port_text:
        if text.endswith(":"):  # `host:` says a port was meant: not the default one
            raise AddressError(f"expected a port number after the colon in {text!r}",
                               "address_colon", text=repr(text))
        return host, DEFAULT_PORT
    return host, port_of(port_text)  # in the words `unonet host --port` uses


def unreachable_words(tr: Translator, failure: ConnectFailure) -> str:
    """Why the host cannot be reached, in the player's words (`unonet join`, `unonet bot`);
    the system's own where there are none for it."""
    key = f"lost.{failure.code}"
    return tr(key) if tr.has(key) else failure.words


def name_refusal(lang: str, refused: TextRefused) -> str:
    """Why `--name` is refused, in `lang` (the protocol's English for a reason unnamed)."""
    if not refused.reason:
        return f"--name: {refused.msg}"
    return cli_words(lang, f"name_{refused.reason}", flag="--name", **refused.values)


def pin_refusal(lang: str, flag: str, refused: PinError) -> str:
    """Why the pin given to `flag` (--pin, --fingerprint) is refused, in `lang`."""
    return cli_words(lang, refused.key, flag=flag, **refused.values)


def player_name(args: argparse.Namespace, environ: Mapping[str, str]) -> str:
    """--name, else the user's login name (what friends know them by), else "player".
    A --name the host would refuse (empty, or the reserved `host`) is a JoinError now, said
    in the player's language."""
    if args.name is not None:  # `--name ""` is refused as `unonet bot` refuses it
        try:
            return own_name(str(args.name))
        except TextRefused as refused:
            lang = pick_language(getattr(args, "lang", None), environ)
            raise JoinError(name_refusal(lang, refused)) from None
    login = environ.get("LOGNAME") or environ.get("USER") or environ.get("USERNAME")
    if not login and environ is os.environ:
        try:
            login = getpass.getuser()
        except (KeyError, OSError):  # no passwd entry (a container's random uid)
            login = None
    return login or "player"


# -- trust on first use ------------------------------------------------------------------------


def resolve_pin(
    args: argparse.Namespace,
    host: str,
    port: int,
    hosts: KnownHosts,
    *,
    stdin: TextIO,
    stdout: TextIO,
    probe: Callable[[str, int], bytes] | None = None,
    tr: Translator | None = None,
) -> str | None:
    """The explicit pin to pass the link, or None when known_hosts holds the answer (or TLS is
    off). First contact is settled here: shown, accepted (or not), remembered, in the
    player's words (`tr`, English by default), each sentence wrapped to the terminal."""
    import trio  # the probe's trio run and TLS: only `join` needs them, before its screen

    from client.tls import CONNECT_FAILURES, connect_failure, probe_fingerprint

    tr = tr or Translator("en")
    if args.no_tls:
        return None
    if args.fingerprint:
        try:
            return normalize_pin(args.fingerprint)
        except PinError as exc:
            flag = getattr(args, "fingerprint_flag", None) or "--fingerprint"
            raise JoinError(pin_refusal(tr.lang, flag, exc)) from None
    remembered = hosts.lookup(host, port)
    try:
        seen = probe(host, port) if probe else trio.run(probe_fingerprint, host, port)
    except CONNECT_FAILURES as exc:
        if remembered is not None:
            return None  # a known host that is down: the screen keeps trying, and says so
        why = unreachable_words(tr, connect_failure(exc))
        raise JoinError(tr("join.unreachable", address=host_port(host, port), why=why)) \
            from None
    width = usable_width(shutil.get_terminal_size().columns)
    address = address_key(host, port)
    if remembered is not None:
        if seen != remembered:  # said now, before the screen opens, with what to do
            raise JoinError(warning_text(HostKeyWarning(
                "remembered", address, format_fingerprint(remembered), format_fingerprint(seen),
                str(hosts.path)), width, tr, lead=len("unonet: ")))  # run_join prints it so
        return None

    def say(text: str) -> None:
        print("\n".join(sentence(text, width)), file=stdout)

    say(tr("first.contact", address=address))
    print("\n".join(fingerprint_lines(format_fingerprint(seen), width)), file=stdout)
    say(tr("first.compare"))
    if stdin.isatty():
        answer = _ask(stdin, stdout, tr("first.ask") + " ")
        if answer not in {"y", "yes", tr("key.yes"), tr("first.yes_word")}:
            raise JoinError(tr("first.not_trusted"))
    else:
        say(tr("first.unasked"))
    hosts.remember(host, port, seen)
    say(tr("first.remembered", path=hosts.path))
    stdout.flush()
    return None


def _ask(stdin: TextIO, stdout: TextIO, question: str) -> str:
    print(question, end="", file=stdout, flush=True)
    return stdin.readline().strip().lower()


# -- running the screen --------------------------------------------------------------------------


def log_to_file(path: Path) -> None:
    """The screen is the terminal: log lines go to a file, never to stderr under the UI."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    handler = logging.FileHandler(path, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    for name in ("unonet", "trio"):
        logger = logging.getLogger(name)
        logger.addHandler(handler)
        logger.propagate = False
    logging.getLogger("unonet").setLevel(logging.INFO)


class LateNetworkLink:
    """The TableLink of `join` and `play`: a NetworkLink (client/guest.py) made and started
    on the asyncio loop's turn after the screen starts it, once its first frame is drawn, so
    that `unonet play` shows its screen before trio and the link's code have loaded (issue
    43: within 0.5 s). What the screen sends before then waits here, in order. A link that
    cannot start is a lost connection, said on the screen and raised by `wait_closed`, as a
    failure inside trio is."""

    def __init__(self, main: LinkMain) -> None:
        self._main = main
        self._network: NetworkLink | None = None
        self._waiting: list[Callable[[NetworkLink], None]] = []
        self._failed: Exception | None = None
        self._lost: ConnectionChanged | None = None  # what the screen was told of that

    def start(self, deliver: Deliver) -> None:
        asyncio.get_running_loop().call_soon(self._start_network, deliver)

    def _start_network(self, deliver: Deliver) -> None:
        try:
            from client.guest import NetworkLink

            network = NetworkLink(self._main)
            network.start(deliver)
        except Exception as exc:
            log.exception("the network code failed to start")
            self._failed = exc
            # worded on the screen by its code, as a failure inside trio is (client/guest.py)
            self._lost = ConnectionChanged("lost", f"the network code failed: {exc}",
                                           code="link_failed")
            deliver(self._lost)
            return
        self._network = network
        for send in self._waiting:
            send(network)
        self._waiting.clear()

    def _forward(self, send: Callable[[NetworkLink], None]) -> None:
        if self._network is None:
            self._waiting.append(send)
        else:
            send(self._network)

    def send_intent(self, action: Action) -> None:
        self._forward(lambda network: network.send_intent(action))

    def send_lobby(self, command: LobbyCommand) -> None:
        self._forward(lambda network: network.send_lobby(command))

    def send_chat(self, text: str) -> None:
        self._forward(lambda network: network.send_chat(text))

    def close(self) -> None:
        self._forward(lambda network: network.close())

    @property
    def last_state(self) -> ConnectionChanged | None:
        """What the link last said of its connection (None before it said anything)."""
        return self._network.last_state if self._network is not None else self._lost

    async def wait_closed(self) -> None:
        """Wait for the network link's orderly end; re-raise what ended it if it failed."""
        if self._failed is not None:
            raise self._failed
        if self._network is not None:
            await self._network.wait_closed()


async def run_screen(app: ClientApp, link: LateNetworkLink) -> None:
    """The app on this asyncio loop (trio joins as its guest); then the link's orderly end."""
    try:
        await app.run_async()
    finally:
        link.close()
        await asyncio.wait_for(link.wait_closed(), CLOSE_GRACE + 5)


def _finish(state: ConnectionChanged | None, model: ClientModel, stderr: TextIO,
            again: str | None = None) -> int:
    """The exit status, and what the screen showed last of a connection lost, in the player's
    words: a changed fingerprint's whole warning (the screen may have been too small for it),
    else why the connection ended. A player who left a match in progress is told that a bot
    plays the seat and the command that takes it back (`again`). `state`: what the link
    last said of its connection."""
    if state is None or state.state != "lost":
        if again is not None and left_a_match(model):
            table = model.lobby.name if model.lobby is not None else "?"
            print(model.tr("left.come_back", table=shown(table), command=shown(again)),
                  file=stderr)
        return 0
    width = usable_width(shutil.get_terminal_size().columns)
    if model.host_key is not None:
        print(warning_text(model.host_key, width, model.tr), file=stderr)
    else:
        # escaped: a host's error frame is in it, and this is the terminal, not the screen
        print(f"unonet: {shown(connection_line(model))}", file=stderr)
    return 1


def run_join(
    args: argparse.Namespace,
    *,
    environ: Mapping[str, str] | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
    known_hosts: KnownHosts | None = None,
) -> int:
    """`unonet join`: settle trust, then the full-screen client until the player leaves."""
    env = os.environ if environ is None else environ
    err = stderr or sys.stderr
    try:
        host, port = parse_address(args.address)
        # The name first: a name the host would refuse must not cost a fingerprint prompt.
        args.name = player_name(args, env)  # the screen shows the name the host hears
        hosts = known_hosts or KnownHosts()
        pin = resolve_pin(args, host, port, hosts, stdin=stdin or sys.stdin,
                          stdout=stdout or sys.stdout,
                          tr=Translator(pick_language(getattr(args, "lang", None), env)))
    except AddressError as exc:
        lang = pick_language(getattr(args, "lang", None), env)
        complain(shown(cli_words(lang, exc.key, **exc.values)), err)
        return 2
    except (JoinError, ValueError) as exc:  # a warning comes laid out already
        complain(shown(str(exc), keep_newlines=True), err)
        return 2
    from client.network import LinkConfig, run_link

    table = 0 if args.spectate and args.table is None else args.table
    config = LinkConfig(host, port, name=args.name, tls=not args.no_tls, pin=pin,
                        known_hosts=None if args.no_tls else hosts, table=table,
                        transcripts=config_dir(), seat_tokens=SeatTokens(),
                        spectate=args.spectate)
    log_to_file(config_dir() / "client.log")
    link = LateNetworkLink(partial(run_link, config))
    app = build(link, args, env)
    asyncio.run(run_screen(app, link))
    again = " ".join(["unonet join", args.address,
                      *(["--pin", args.fingerprint] if args.fingerprint else []),
                      *(["--no-tls"] if args.no_tls else [])])
    return _finish(link.last_state, app.model, err, again)


def complain(why: str, err: TextIO) -> None:
    """`unonet: why` on `err`: on a terminal, a one-line `why` wrapped at words within it (left
    to the terminal, a line longer than it was cut inside a word)."""
    line = f"unonet: {why}"
    if err.isatty() and "\n" not in why:
        line = "\n".join(laid_out(line, usable_width(shutil.get_terminal_size().columns)))
    print(line, file=err)


def left_a_match(model: ClientModel) -> bool:
    """The player closed the screen at a seat of a match in progress (not the host's own):
    the seat is a bot's now, and theirs again with the same command."""
    return (not model.hosting and not model.watching and model.me is not None
            and model.screen in (Screen.GAME, Screen.ROUND_END))


def play_main(
    args: argparse.Namespace, start_local_host: StartLocalHost, name: str,
    auto_ready: bool = True,
) -> LinkMain:
    """The trio side of `unonet play`: the local host, and the link joined to its table."""

    async def main(commands: trio.MemoryReceiveChannel[Command],
                   updates: trio.MemorySendChannel[Update]) -> None:
        from client.network import LinkConfig, run_link  # runs after the first frame

        async with start_local_host(args) as address:
            if address.place in (OWN_HOST, None):  # `unonet host`, or play's own table
                await updates.send(Hosting())  # the quit prompt and the chat say what q ends
            tokens = SeatTokens() if address.place else None
            if tokens is not None and address.place is not None and address.fresh:
                try:
                    tokens.drop(address.place, address.table)
                except OSError as exc:  # then the host refuses it, and the player is told
                    log.warning("seat tokens: %s", exc)
            config = LinkConfig(address.host, address.port, name=name,
                                tls=address.fingerprint is not None, pin=address.fingerprint,
                                table=address.table, auto_ready=auto_ready,
                                transcripts=config_dir(), place=address.place,
                                seat_tokens=tokens)
            await run_link(config, commands, updates)

    return main


def run_play(
    args: argparse.Namespace,
    start_local_host: StartLocalHost,
    *,
    environ: Mapping[str, str] | None = None,
    auto_ready: bool = True,
) -> int:
    """`unonet play` (and `unonet host`): a host in this process, and this client at its
    table; `auto_ready` marks the player ready at once (a bots-only table then starts)."""
    env = os.environ if environ is None else environ
    log_to_file(config_dir() / "play.log")
    try:
        args.name = player_name(args, env)
    except JoinError as exc:
        complain(shown(str(exc)), sys.stderr)
        return 2
    link = LateNetworkLink(play_main(args, start_local_host, args.name, auto_ready=auto_ready))
    app = build(link, args, env)
    asyncio.run(run_screen(app, link))
    return _finish(link.last_state, app.model, sys.stderr)
