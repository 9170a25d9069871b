"""`unonet host`: a trio server with TLS and journals, until interrupted: the host player's
table, or a dedicated server's (--headless) tables, `--tables N` of them for a club."""

from __future__ import annotations

import errno
import logging
import resource
import shlex
import shutil
import sys
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import trio

from host.addresses import lan_addresses, reachable
from host.collector import tuned_collector
from host.config import config_dir
from host.host_words import host_words
from host.igd import PortMapper
from host.journal import Journal, Resumed, load
from host.logs import setup_logging
from host.port_lease import RouterNews, hold_port_mapping
from host.portmap import DEADLINE, LEASE_SECONDS, Mapped, router_line
from host.registry import Registry
from host.seating import BOT
from host.server import HostServer, ServerConfig
from host.settings import MAX_CONNECTIONS, PER_ADDRESS, ConnectionLimits, TableTimings
from host.table import Table, TableSettings, host_notice
from host.tls import identity_signer, load_or_create_identity, server_context
from protocol.address import host_port
from protocol.fingerprint import short_pin
from protocol.trust.signing import Signer
from protocol.versions import DEFAULT_PORT
from unonet.bot_settings import DEFAULT_BUDGET, SearchBudget
from unonet.rules import RuleSet
from unonet.terminal_text import laid_out, usable_width
from unonet.words import Words, join_sentence

log = logging.getLogger("unonet.host")


@dataclass
class HostOptions:
    rules: RuleSet = field(default_factory=RuleSet)
    preset: str = "official"
    bind: str | None = None
    port: int = DEFAULT_PORT
    bots: int = 0
    seats: int = 4
    headless: bool = True
    tls: bool = True
    resume: tuple[Path, ...] = ()
    """--resume: the journals whose matches this host carries on, a table each (several only
    on a dedicated server); none, a fresh start."""
    loaded: dict[Path, Resumed] = field(default_factory=dict)
    """Journals of `resume` the command line has loaded already (to check them before
    anything starts): the host takes each as it is, rather than replay its match again. Taken
    once: a second host built from these options loads its own."""
    home: Path | None = None
    share_notice: bool = False  # tell whoever sits down how friends join (the host's own UI)
    notice_lang: str = "en"
    """The language of that notice: the host's own player's (unonet/words.py has it)."""
    tables: int = 1
    """--tables: how many tables a dedicated server opens at start, each with these rules,
    seats and bots (clients may open more from the lobby, up to MAX_LIVE_TABLES)."""
    limits: ConnectionLimits = field(default_factory=ConnectionLimits)
    """The connection caps (--max-connections, --per-address) and every other limit."""
    bot_delay: float = TableTimings().bot_delay
    """--bot-delay: seconds a bot waits before it acts (watchable by default; 0 for a table of
    bots that nobody needs to follow with their eyes, e.g. a test of a client)."""
    bot_level: str = "normal"
    """--policy: how the bots seated at start play (unonet.bots.POLICIES)."""
    bot_search: SearchBudget = DEFAULT_BUDGET
    """--search-time, --search-sims: how long a strong bot thinks per decision."""
    running: list[ServedHost] = field(default_factory=list)
    """The host once it listens (`serving` appends it): what a Ctrl-C's line names."""
    journal_sync: int = 0
    """--journal-sync: 0, every journal line on disk before anyone sees what it records (a
    power cut loses nothing); MS, each line handed to the operating system before that and
    synced every MS milliseconds (host/group_commit.py: a crash of the host loses nothing, a
    power cut the last MS, which the players' clients report)."""
    upnp: bool = False
    """Ask the home router to forward the port to this machine while the host runs (UPnP
    IGD, host/port_lease.py): unonet/cli.py sets it for a host listening on every interface,
    unless --no-upnp (or UNONET_NO_UPNP=1) says not to."""
    no_upnp: bool = False
    """--no-upnp was given: kept in the journals, so that the command that carries a match on
    does not open the port its host would not."""
    player_owner: bool = False
    """--player-owner: on a headless host, the first player to sit owns the table (changes
    its rules, kicks, penalizes) as at a table a client creates; by default the operator's
    command line alone decides (issue 13: a dedicated server's table is the operator's)."""

    @property
    def operator(self) -> bool:
        """Whether the table is the operator's: a dedicated server's, unless granted away."""
        return self.headless and not self.player_owner


def table_names(count: int) -> list[str]:
    """The names of the tables a host opens at start: "unonet" alone, "table 0".. for a club,
    by the number that `unonet join --table N`, the host's log and a table opened from the
    lobby without a name ("table 3") go by. Counted from 1 they were "unonet 1" for table 0,
    and "unonet 3" and a friend's "table 3" were different tables."""
    return ["unonet"] if count == 1 else [f"table {n}" for n in range(count)]


def resume_table(registry: Registry, path: Path, options: HostOptions, journal_dir: Path,
                 timings: TableTimings, now: float) -> None:
    """Rebuild the table of the journal at `path`, its match carried on, under the number it
    had (ValueError if the registry has that number already)."""
    resumed = options.loaded.pop(path, None) or load(path)
    record = resumed.header.table
    number = int(record.get("number", 0))
    if number in registry.tables:
        raise ValueError(f"{path}: table {number} is resumed from another journal already")
    settings = TableSettings(
        str(record.get("name", "table")), resumed.header.rules,
        str(record.get("preset", "official")),
        capacity=int(record.get("capacity", len(resumed.header.seats))),
        headless=bool(record.get("headless", True)),
        target_seats=record.get("target_seats"), timings=timings, journal_dir=journal_dir,
        operator=bool(record.get("operator", record.get("headless", True)))
        and not options.player_owner, created=bool(record.get("created", False)),
    )
    journal = Journal.open_append(path, resumed.valid_bytes, registry.journals)
    table = Table.from_journal(number, resumed, journal, settings, registry.outbox, now,
                               registry.signer, registry.journals)
    registry.add_table(table)


def build_registry(options: HostOptions, journal_dir: Path, now: float,
                   signer: Signer | None = None) -> Registry:
    """The registry with its tables: those rebuilt from the journals of `options.resume`,
    each under its number, then a new one for each of the `options.tables` numbers no
    journal carries on (a club's tables that had no match on when its host stopped come
    back empty, as they opened); `signer` signs their trust messages (the host's identity
    key). Raises ValueError for two journals of one table number (unonet/cli.py says so
    before anything starts)."""
    # --bot-delay 0 (a table played as fast as it goes) drops the jump-in wait with it.
    timings = TableTimings(bot_delay=options.bot_delay, bot_search=options.bot_search,
                           jump_in_wait=TableTimings().jump_in_wait if options.bot_delay else 0.0)
    registry = Registry(timings, signer)
    registry.journals.interval = options.journal_sync / 1000 if options.journal_sync else None
    registry.journal_dir = journal_dir  # the tables clients open journal theirs too
    for path in options.resume:
        resume_table(registry, path, options, journal_dir, timings, now)
    fresh = [(number, name) for number, name in enumerate(table_names(options.tables))
             if number not in registry.tables]
    if fresh:
        options.rules.check_table(options.seats)
    for number, name in fresh:
        settings = TableSettings(
            name, options.rules, options.preset, capacity=options.seats,
            headless=options.headless, target_seats=options.seats, timings=timings,
            journal_dir=journal_dir, operator=options.operator,
        )
        table = Table(number, settings, registry.outbox, registry.signer, registry.journals)
        registry.add_table(table)
        for _ in range(options.bots):
            table.add_bot(options.bot_level)
    return registry


DESCRIPTORS_SPARE = 64
"""File descriptors a host needs besides its connections: listeners, the log, the TLS key,
the journals being opened and closed, the interpreter's own."""


def ensure_descriptors(limits: ConnectionLimits, tables: int, lang: str = "en") -> None:
    """Raise this process's soft limit of open files to what the caps need (every admitted
    and pending connection, a journal per table, some spare), or raise OSError with the line
    the operator reads (in `lang`): a host that runs out of descriptors refuses players at
    random."""
    needed = limits.max_connections + limits.pending_pool + tables + DESCRIPTORS_SPARE
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY or needed <= soft:
        return
    if hard != resource.RLIM_INFINITY and needed > hard:
        raise OSError(errno.EMFILE, host_words(lang, "descriptors", most=limits.max_connections,
                                               needed=needed, hard=hard))
    resource.setrlimit(resource.RLIMIT_NOFILE, (needed, hard))


def host_record(options: HostOptions, port: int) -> dict[str, Any]:
    """How this host listens and plays, as its journals keep it (the table record's `host`
    map): `unonet host --resume JOURNAL` alone starts again where friends look for it. It
    keeps the tables the host opened at start too (`tables`, and `opened`: the rules, seats
    and bots each had), so that those without a match on open again beside those carried on
    (a club's, for one)."""
    return {
        "bind": options.bind, "port": port, "tls": options.tls,
        "headless": options.headless, "bot_delay": options.bot_delay,
        "max_connections": options.limits.max_connections,
        "per_address": options.limits.per_address, "journal_sync": options.journal_sync,
        "tables": options.tables,
        **({"no_upnp": True} if options.no_upnp else {}),
        "opened": {"preset": options.preset, "rules": options.rules.to_dict(),
                   "seats": options.seats, "bots": options.bots},
    }


def resume_flags(record: Mapping[str, Any]) -> list[str]:
    """The command-line flags that say `record` again (the defaults left out, the port
    never: it is where friends look)."""
    flags = []
    if record.get("bind"):
        flags += ["--bind", str(record["bind"])]
    flags += ["--port", str(record.get("port", DEFAULT_PORT))]
    if record.get("tls") is False:
        flags.append("--no-tls")
    if record.get("headless"):
        flags.append("--headless")
    if record.get("no_upnp") is True:
        flags.append("--no-upnp")
    defaults = {"bot_delay": TableTimings().bot_delay, "max_connections": MAX_CONNECTIONS,
                "per_address": PER_ADDRESS, "journal_sync": 0, "tables": 1}
    for key, default in defaults.items():
        if record.get(key, default) != default:
            flags += ["--" + key.replace("_", "-"), str(record[key])]
    return flags


@dataclass(frozen=True)
class ServedHost:
    """A running host: its port, its fingerprint (None without TLS), its config dir, the
    addresses friends reach it at (best first), its tables (for the journals in use) and how
    it listens and plays (`host_record`)."""

    port: int
    fingerprint: str | None
    home: Path
    addresses: tuple[str, ...] = ("127.0.0.1",)
    registry: Registry | None = None
    record: Mapping[str, Any] = field(default_factory=dict)
    router: RouterNews = field(default_factory=RouterNews)
    """What the home router said about forwarding the port (options.upnp), once it has."""

    def journals(self) -> list[Path]:
        """The journal of every match still on, in table order: what `--resume` carries on.
        A table that failed in mid-match is gone from the host, but its match is not: its
        journal is kept, and counts here too."""
        found: dict[int, Path] = dict(self.failed_journals())
        tables = self.registry.tables if self.registry is not None else {}
        for number, table in tables.items():
            game = table.game
            if game is not None and not game.over and game.journal is not None:
                found[number] = game.journal.path
        return [found[number] for number in sorted(found)]  # as the tables line

    def failed_journals(self) -> dict[int, Path]:
        """The journals of the tables that failed in mid-match, by table number."""
        return dict(self.registry.failed) if self.registry is not None else {}

    def resume_command(self, *journals: Path) -> str:
        """The command that carries the matches of `journals` on in one host, listening where
        this host did."""
        words = ["unonet", "host"]
        for journal in journals:
            words += ["--resume", str(journal)]
        words += resume_flags(self.record or {"port": self.port,
                                              "tls": self.fingerprint is not None})
        return shlex.join(words)


@asynccontextmanager
async def serving(options: HostOptions) -> AsyncIterator[ServedHost]:
    """Run the host while the block is entered (in the caller's trio run), then stop it."""
    home = options.home or config_dir()
    identity = load_or_create_identity(home)  # its key signs, with or without TLS
    registry = build_registry(options, home / "journals", trio.current_time(),
                              identity_signer(identity))
    context = None
    fingerprint = None
    if options.tls:
        context = server_context(identity)
        fingerprint = identity.display
    server = HostServer(registry, ServerConfig(bind=options.bind, port=options.port,
                                                tls=context, limits=options.limits))
    with tuned_collector():
        async with trio.open_nursery() as nursery:
            listeners = await nursery.start(server.serve)
            port = listeners[0].socket.getsockname()[1]
            record = host_record(options, port)
            registry.host_record = record
            served = ServedHost(port, fingerprint, home, tuple(lan_addresses(options.bind)),
                                registry, record)
            options.running.append(served)
            for table in registry.tables.values():
                table.settings.host = record  # into each journal's header, for --resume
                if options.share_notice:
                    table.settings.notice = join_notice(served, options.notice_lang)
            if options.upnp:  # beside the host, which serves its LAN meanwhile
                nursery.start_soon(partial(
                    hold_port_mapping, PortMapper(port), served.router,
                    partial(router_answered, options, served, server),
                    lan_hint=next(filter(reachable, served.addresses), None)))
            else:
                served.router.answered.set()
            yield served
            if not options.headless:  # (a Ctrl-C never gets here: "stopped" stays)
                registry.stop_reason = "host_left"  # its player left: that is what closes it
            nursery.cancel_scope.cancel()


def router_answered(options: HostOptions, served: ServedHost, server: HostServer) -> None:
    """The router answered (or the deadline passed, or the mapping was lost or is back): at
    the host player's table, said in the chat (the terminal is the screen's): the router's
    line, then how friends join now."""
    outcome = served.router.outcome
    if not options.share_notice or served.registry is None or outcome is None:
        return
    for table in served.registry.tables.values():  # in the words of its join line's text
        table.room.broadcast(host_notice(router_line(outcome, lang=options.notice_lang)))
        if table.settings.notice is not None:
            table.settings.notice = join_notice(served, options.notice_lang)
            table.room.broadcast(dict(table.settings.notice))
    server.changed()


def check_can_listen(bind: str | None, port: int, lang: str = "en") -> None:
    """Raise the OSError `serving` would (a port in use, an address not this machine's),
    now: the host's own player must read it on the terminal, not on a screen that says
    "Connecting..." and never connects. A port taken in between still fails in `serving`.
    Port 0 is tried too: it tells whether `bind` is an address of this machine."""

    async def listen_once() -> None:
        try:
            listeners = await trio.open_tcp_listeners(port, host=bind)
        except OSError as exc:
            where = bind or host_words(lang, "every_interface")
            key = "in_use" if exc.errno == errno.EADDRINUSE else "cannot_listen"
            raise OSError(exc.errno, host_words(lang, key, where=where, port=port,
                                                why=exc.strerror)) from exc
        for listener in listeners:
            await listener.aclose()

    trio.run(listen_once)


OTHER_ADDRESSES_CHARS = 200
"""At most this much of the join line lists the machine's other addresses: with the command
and the words around it, the line fits a chat line (512 characters, SPEC.md chat_message)."""


def join_line(served: ServedHost, lang: str = "en") -> str:
    """The command friends type, the same in the chat and on stdout (in English, as the
    command line speaks): this machine's address (the others it has, if that one is not
    reachable from their network), port, fingerprint."""
    command, others = join_command(served)
    return join_sentence(Words(lang), command, others)


def join_command(served: ServedHost) -> tuple[str, str]:
    """`unonet join ADDRESS:PORT --pin XXXX-XXXX-XXXX-XXXX` at this machine's first address,
    and its other addresses ("" if none); when the router forwards the port, at the router's
    public address, and this machine's addresses are the others (for friends on its own
    network). The one place the line to share is made (`pin_flag`)."""
    mapped = served.router.mapped
    first, *others = served.addresses
    if mapped is not None:
        first, others = mapped.public, list(served.addresses)
    pin = pin_flag(served)
    shown: list[str] = []
    for address in others:  # a machine with many addresses: the line stays a chat line
        if len(", ".join([*shown, address])) > OTHER_ADDRESSES_CHARS:
            break
        shown.append(address)
    return f"unonet join {host_port(first, served.port)} {pin}", ", ".join(shown)


def pin_flag(served: ServedHost) -> str:
    """The pin in the line to share: the fingerprint's shortest accepted prefix (80 bits,
    SPEC [UNO-3-5]), so that the whole command fits one line of a 60-column terminal for any
    IPv4 address and port, and a copy of it never breaks (found in tmux: the whole
    fingerprint wrapped over 2-5 chat lines and split inside a group)."""
    return "--no-tls" if served.fingerprint is None else f"--pin {short_pin(served.fingerprint)}"


def join_lines(served: ServedHost, lang: str = "en") -> list[str]:
    """How friends join, as the terminal shows it: one line, or, when the router forwards the
    port, one for friends on the internet and one for friends on this network."""
    mapped = served.router.mapped
    if mapped is None:
        return [join_line(served, lang)]
    first, *others = served.addresses
    local = f"unonet join {host_port(first, served.port)} {pin_flag(served)}"
    internet = f"unonet join {host_port(mapped.public, mapped.port)} {pin_flag(served)}"
    more = host_words(lang, "join_others", addresses=", ".join(others)) if others else ""
    return [host_words(lang, "join_internet", command=internet),
            host_words(lang, "join_local", command=local, others=more)]


def router_lines(options: HostOptions, served: ServedHost) -> list[str]:
    """What the terminal says about the router, in its language: asking (with its deadline),
    or its answer."""
    if not options.upnp:
        return []
    lang = options.notice_lang
    outcome, removed = served.router.outcome, served.router.removed
    if outcome is None:
        return [host_words(lang, "router_asking", port=served.port, deadline=f"{DEADLINE:g}")]
    if isinstance(outcome, Mapped) and removed is not None:  # the host has stopped
        if removed:
            return [host_words(lang, "router_removed", port=outcome.port,
                               public=outcome.public)]
        return [host_words(lang, "router_not_removed", port=outcome.port,
                           public=outcome.public, minutes=LEASE_SECONDS // 60)]
    return [router_line(outcome, lang=lang)]


def join_notice(served: ServedHost, lang: str = "en") -> dict[str, Any]:
    """The host notice that tells whoever sits down how friends join: `text` in the language
    of the host's player, `notice: join_with` with the command and the other addresses, so
    that each client says it in its own player's (SPEC.md [UNO-8-27]; found in tmux: a
    Portuguese guest read the English host's "Friends join with")."""
    command, others = join_command(served)
    notice = host_notice(join_line(served, lang), "join_with")
    notice["command"] = command
    if others:
        notice["addresses"] = others
    return notice


def describe(options: HostOptions, served: ServedHost) -> list[str]:
    """What the person hosting shares with friends: where to join and what to pin, in the
    operator's language (options.notice_lang)."""
    lang = options.notice_lang
    where = options.bind or host_words(lang, "every_interface")
    lines = [host_words(lang, "listening", where=where, port=served.port)]
    if served.fingerprint is not None:
        lines.append(host_words(lang, "fingerprint", fingerprint=served.fingerprint))
    else:
        lines.append(host_words(lang, "no_tls"))
    lines.extend(join_lines(served, lang))
    lines.extend(router_lines(options, served))
    lines.append(tables_line(served, lang))
    lines.append(host_words(lang, "logs", log=served.home / "host.log",
                            journals=served.home / "journals"))
    return lines


def tables_line(served: ServedHost, lang: str = "en") -> str:
    """What is open, as the operator reads it at start: each table's number (the one
    `unonet join --table` takes), name, seats and bots."""
    return host_words(lang, "tables", tables=", ".join(table_entries(served, lang))
                      or host_words(lang, "tables_none"))


def table_entries(served: ServedHost, lang: str = "en") -> list[str]:
    """Each open table as the tables line names it: "0 'unonet' (4 seats, 1 bot)"."""
    tables = served.registry.tables if served.registry is not None else {}
    shown = []
    for table in (tables[number] for number in sorted(tables)):
        bots = sum(1 for _, seat in table.room.occupied() if seat.kind == BOT)
        shown.append(host_words(lang, "table", number=table.number,
                                name=repr(table.settings.name), seats=len(table.room.seats),
                                bots=host_words(lang, "bots", count=bots) if bots else ""))
    return shown


def status_line(served: ServedHost, lang: str = "en") -> str:
    """A dedicated server's state in one line, for its terminal (the details go to its log):
    who plays, at how many tables, how many of them in a match."""
    tables = served.registry.tables if served.registry is not None else {}
    players = sum(1 for table in tables.values() for member in table.room.members.values()
                  if member.seat is not None)
    playing = sum(1 for table in tables.values() if table.started)
    return host_words(lang, "status", players=host_words(lang, "status_players", count=players),
                      tables=host_words(lang, "status_tables", count=len(tables),
                                        matches=playing),
                      log=served.home / "host.log")


def farewell(served: ServedHost, lang: str = "en") -> list[str]:
    """What the host's own player reads after leaving: the host's tables are gone for
    everyone at them, and how the matches that were on carry on: one command for all of them
    (friends' tables too, and any that failed), so that everyone is back in one host, on its
    port."""
    journals = served.journals()
    failed = served.failed_journals()
    said = [host_words(lang, "failed", number=number, log=served.home / "host.log",
                       journal=path) for number, path in sorted(failed.items())]
    if not journals:
        return [host_words(lang, "left")]
    if len(journals) == 1:
        if not failed:
            said.append(host_words(lang, "left_one", journal=journals[0]))
        return [*said, host_words(lang, "carry_one"), f"  {served.resume_command(*journals)}"]
    return [*said, host_words(lang, "left_many", count=len(journals)),
            f"  {served.resume_command(*journals)}"]


def stopped_line(options: HostOptions) -> str:
    """The one line a host stopped by Ctrl-C says: how its matches carry on, if any was on:
    one command for all of them, so that a club's tables come back in one host, on its port."""
    lang = options.notice_lang
    for served in options.running:
        journals = served.journals()
        if len(journals) == 1:
            return host_words(lang, "stopped_one", command=served.resume_command(*journals))
        if journals:
            return host_words(lang, "stopped_many", count=len(journals),
                              command=served.resume_command(*journals))
    return host_words(lang, "stopped")


def terminal_width() -> int | None:
    """The columns a line printed on stdout may take without the terminal wrapping it (one
    less than it has: a line of exactly its width wraps on some); None when stdout is no
    terminal (a service's journal, a pipe: its reader lays lines out)."""
    if not sys.stdout.isatty():
        return None
    return usable_width(shutil.get_terminal_size().columns)


def on_terminal(lines: list[str], served: ServedHost, width: int | None,
                lang: str = "en") -> str:
    """The host's lines as its terminal shows them: each wrapped at words within `width`,
    the commands to copy (the line to share, the one that carries matches on) whole on lines
    of their own, the fingerprint in whole groups, a table's entry never broken (found in
    tmux: at 80 columns the terminal cut "tables open: ... 'tabl" / "e 2'", and the
    fingerprint inside a group)."""
    commands = [*join_commands(served),
                *(served.resume_command(*journals) for journals in [served.journals()]
                  if journals)]
    entries = table_entries(served, lang)
    return "\n".join(said for line in lines
                     for said in laid_out(line, width, commands, served.fingerprint, entries))


def join_commands(served: ServedHost) -> list[str]:
    """Every `unonet join` command the host's lines may hold: at this machine's addresses
    and, when the router forwards the port, at its public one."""
    pin = pin_flag(served)
    addresses = [*served.addresses]
    if served.router.mapped is not None:
        addresses.insert(0, served.router.mapped.public)
    return [f"unonet join {host_port(address, served.port)} {pin}" for address in addresses]


def stopped_text(options: HostOptions) -> str:
    """`stopped_line` as the terminal shows it (the command that carries matches on whole on
    a line of its own)."""
    line = stopped_line(options)
    if not options.running:
        return "\n".join(laid_out(line, terminal_width()))
    return on_terminal([line], options.running[0], terminal_width(), options.notice_lang)


STATUS_EVERY = 10.0
"""Seconds between a dedicated server's status lines at most (one only when it changed)."""


async def run_host(options: HostOptions) -> None:
    """`unonet host --headless`: serve until interrupted. The terminal shows how friends join
    and a status line when it changes; the details go to the log file (found in tmux: with
    `--tables 3`, INFO lines flooded the terminal around the line to share). A stderr that is
    no terminal (a service manager's journal, a pipe) gets the log too, as it always did."""
    home = options.home or config_dir()
    setup_logging(home / "host.log", to_stderr=not sys.stderr.isatty())
    width = terminal_width()
    async with serving(options) as served:
        lang = options.notice_lang
        print(on_terminal(describe(options, served), served, width, lang), flush=True)
        if options.upnp:
            await served.router.answered.wait()
            router = router_lines(options, served)
            if served.router.mapped is not None:
                router += join_lines(served, lang)
            print(on_terminal(router, served, width, lang), flush=True)
        said = ""
        while True:
            now = status_line(served, lang)
            if now != said:
                print(on_terminal([now], served, width, lang), flush=True)
                said = now
            await trio.sleep(STATUS_EVERY)
