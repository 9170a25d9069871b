"""The `unonet` command: the one module that wires the layers together."""

from __future__ import annotations

import argparse
import os
import secrets
import shutil
import sys
import time
import typing
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager, contextmanager
from typing import TYPE_CHECKING

from client.i18n import Translator, pick_language, preset_meaning
from client.options import add_join_arguments, add_play_arguments, refused, table_number, whole
from host.settings import (
    JOURNAL_SYNC_LONGEST_MS,
    MAX_CONNECTIONS,
    MAX_CONNECTIONS_CEILING,
    PER_ADDRESS,
    RESUME_RESERVE,
    TableTimings,
)
from host.table_limits import MAX_LIVE_TABLES
from protocol.address import AddressError, port_of
from protocol.versions import DEFAULT_PORT
from unonet import __version__
from unonet.bot_settings import DEFAULT_BUDGET, POLICY_NAMES, SearchBudget
from unonet.cli_words import (
    SPEAKING,
    Grouped,
    Phrase,
    cli_words,
    parser_words,
    phrase,
    rules_words,
)
from unonet.errors import EngineError
from unonet.rules import (
    PRESETS,
    RulesError,
    RuleSet,
    parse_option,
    playable_presets,
    preset,
    rules_refused,
)
from unonet.terminal_text import laid_out, usable_width

# What only some commands need is imported where it is used: `unonet --help` and `unonet rules`
# must not wait for the client's screen, trio or the host to load.
if TYPE_CHECKING:
    from pathlib import Path

    from client.cli import HostAddress
    from client.netbot import BotResult
    from host.journal import Resumed
    from host.run import HostOptions, ServedHost
    from unonet.actions import Action
    from unonet.events import Event

BOT_NAMES = ("Ana", "Bruno", "Chiara", "Davi", "Elena", "Fabio", "Giulia", "Hugo", "Iris", "Joao")


def parse_rules(preset_name: str, settings: Sequence[str]) -> RuleSet:
    """A rule set from `--rules PRESET` and `--set OPTION=VALUE` (repeatable)."""
    overrides = {}
    for setting in settings:
        name, sep, value = setting.partition("=")
        if not sep or not name.strip():
            raise CommandError.said("set_form", text=repr(setting))
        overrides[name.strip()] = parse_option(name.strip(), value)
    return preset(preset_name, **overrides)


@contextmanager
def speaking(words: Sequence[str]) -> Iterator[str]:
    """While the command line `words` is parsed and its command runs, what it says is in its
    language (returned): its --lang, else the locale's (unonet.cli_words.SPEAKING)."""
    given = next((word.partition("=")[2] for word in words if word.startswith("--lang=")),
                 None)
    if given is None and "--lang" in words[:-1]:
        given = words[list(words).index("--lang") + 1]
    lang = pick_language(given, os.environ)
    token = SPEAKING.set(lang)
    try:
        yield lang
    finally:
        SPEAKING.reset(token)


def port_number(text: str) -> int:
    """`--port`: a TCP port, as `unonet join HOST:PORT` takes one (protocol.address.port_of),
    or 0: any free one, which the line to share names."""
    if text.strip() == "0":
        return 0
    try:
        return port_of(text.strip())
    except AddressError as exc:
        raise refused("any_port", why=phrase(exc.key, **exc.values)) from None


def whole_number(flag: str, text: str | int, low: int, high: int) -> int:
    """`text` given to `flag` as a whole number from `low` to `high`, else CommandError: one
    line, not argparse's usage block (--tables, --max-connections, --per-address)."""
    try:
        value = int(text)
    except ValueError:
        raise CommandError.said("not_whole", flag=flag, text=repr(text)) from None
    if not low <= value <= high:
        raise CommandError.said("range", flag=flag, value=value, low=low, high=high)
    return value


def hex_seed(text: str) -> bytes:
    """`--seed`: hexadecimal digits, an even number of them (`unonet play --log` prints it)."""
    try:
        return bytes.fromhex(text)
    except ValueError:
        raise refused("hex_seed", text=repr(text)) from None


def seconds(text: str) -> float:
    """`--speed`, `--think`: a number of seconds, 0 or more."""
    try:
        value = float(text)
    except ValueError:
        raise refused("not_seconds", text=repr(text)) from None
    if not 0 <= value <= 3600:  # also refuses nan and inf
        raise refused("seconds_range", text=text)
    return value


MAX_BOT_MATCHES = 1_000_000
"""`unonet bot --matches`: a bound that no session reaches (a match takes a minute or more)."""


def match_count(text: str) -> int:
    """`--matches`: how many matches a bot plays before leaving, 1 and up."""
    value = whole(text, "not_matches")
    if not 1 <= value <= MAX_BOT_MATCHES:
        raise refused("matches_range", value=value, most=Grouped(MAX_BOT_MATCHES))
    return value


def search_seconds(text: str) -> float:
    """`--search-time`: seconds a strong bot may think per decision, 0 (no time limit) to 60."""
    value = seconds(text)
    if value > 60:
        raise refused("search_range", text=text)
    return value


MOST_SIMULATIONS = 10_000_000
"""`--search-sims`: a bound no decision needs (the default plays a few hundred)."""


def search_count(text: str) -> int:
    """`--search-sims`: simulations a strong bot may play per decision."""
    value = whole(text, "not_sims")
    if not 1 <= value <= MOST_SIMULATIONS:
        raise refused("sims_range", value=value, most=Grouped(MOST_SIMULATIONS))
    return value


def search_budget(args: argparse.Namespace) -> SearchBudget:
    """The strong bots' think budget from --search-time and --search-sims (the defaults'
    for what is left out); --search-time 0 takes the time limit away, so the bot's moves
    depend on its seed alone (a seeded match then replays exactly)."""
    time_limit = DEFAULT_BUDGET.seconds if args.search_time is None else args.search_time or None
    if time_limit is None and args.search_sims is None:
        raise CommandError.said("search_unbounded")
    sims = DEFAULT_BUDGET.simulations if args.search_sims is None else args.search_sims
    return SearchBudget(time_limit, sims)


def add_search_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--search-time", type=search_seconds, default=None, metavar="SECONDS",
                        help="strong bots: think at most this long per decision (default "
                        f"{DEFAULT_BUDGET.seconds}; 0: no time limit, --search-sims alone "
                        "bounds the search, and a seeded match replays exactly)")
    parser.add_argument("--search-sims", type=search_count, default=None, metavar="N",
                        help="strong bots: play at most N simulated rounds per decision "
                        f"(default {DEFAULT_BUDGET.simulations})")


def cmd_play(args: argparse.Namespace) -> int:
    """The real game against bots on a terminal; the bot-match log with --log (or on a pipe)."""
    if (args.log or args.seed or args.quiet or args.verbose or args.speed is not None
            or not sys.stdout.isatty()):
        return cmd_log(args)
    from client.cli import run_play

    bots = 3 if args.bots is None else args.bots
    rules = parse_rules(args.rules, args.set)
    if not 1 <= bots <= rules.max_players - 1:
        raise CommandError.said("bots_play", bots=bots, most=rules.max_players - 1,
                                rules=args.rules, players=rules.max_players)
    check_seats(rules, bots + 1, f"--bots {bots}" if args.bots is not None  # before the screen
                else phrase("default_bots", bots=bots))
    search_budget(args)  # its refusal too
    args.bots = bots
    return run_play(args, start_local_host)


def start_local_host(args: argparse.Namespace) -> AbstractAsyncContextManager[HostAddress]:
    """`unonet play`'s host, inside the client's trio run: one table on 127.0.0.1, an ephemeral
    port, plain TCP (loopback only), `args.bots` bots, starting once the player is ready."""
    import trio

    from client.cli import HostAddress
    from host.config import config_dir
    from host.registry import Registry
    from host.server import HostServer, ServerConfig
    from host.table import TableSettings
    from host.tls import identity_signer, load_or_create_identity

    @asynccontextmanager
    async def running() -> AsyncIterator[HostAddress]:
        rules = parse_rules(args.rules, args.set)
        seats = args.bots + 1
        # The host's own key signs the match (its transcript then names a lasting key).
        registry = Registry(TableTimings(bot_search=search_budget(args)),
                            signer=identity_signer(load_or_create_identity(config_dir())))
        table = registry.create_table(TableSettings(
            "unonet", rules, args.rules, capacity=seats, headless=True, target_seats=seats,
            timings=registry.timings))
        for _ in range(args.bots):
            table.add_bot(args.policy)
        server = HostServer(registry, ServerConfig(bind="127.0.0.1", port=0))
        async with trio.open_nursery() as nursery:
            listeners = await nursery.start(server.serve)
            yield HostAddress("127.0.0.1", listeners[0].socket.getsockname()[1])
            nursery.cancel_scope.cancel()

    return running()


def check_seats(rules: RuleSet, seats: int, flag: str | Phrase, *,
                names_count: bool = False) -> None:
    """`rules.check_table(seats)`, its refusal naming the flag that chose the seat count
    (`--bots 8`, `--seats 9`) rather than the rule option (max_players) the user never typed;
    `names_count`: `flag` already says how many seats (else "(N seats)" follows it). What no
    seat count would mend is said by its option alone (it blamed "--bots 4", which the user
    never typed, for teams with another scoring)."""
    rules.check_options()
    try:
        rules.check_table(seats)
    except RulesError as exc:
        if exc.option == "max_players":
            raise CommandError.said("rules_seat_count", flag=flag, most=rules.max_players,
                                    seats=seats) from None
        counted = "" if names_count else phrase("counted", seats=seats)
        raise CommandError.said("rules_refused", flag=flag, counted=counted, why=exc) from None


def cmd_join(args: argparse.Namespace) -> int:
    from client.cli import run_join

    if not sys.stdin.isatty():
        raise CommandError.said("join_terminal")
    return run_join(args)


def cmd_log(args: argparse.Namespace) -> int:
    """A match between bots, printed as a readable log (`unonet play --log`)."""
    from unonet.bots import make_bot
    from unonet.bots.driver import play_match
    from unonet.events import RoundEnded, TurnStarted
    from unonet.match import Match
    from unonet.narrate import Narrator
    from unonet.scoring import partner as match_partner
    from unonet.words import game_words

    rules = parse_rules(args.rules, args.set)
    seats = 4 if args.bots is None else args.bots
    if not 2 <= seats <= rules.max_players:
        why = "" if args.log or sys.stdout.isatty() else phrase("log_piped")
        with_rules = "" if rules.max_players == 10 else phrase("log_rules", rules=args.rules)
        raise CommandError.said("log_bots", seats=seats, most=rules.max_players,
                                rules=with_rules, why=why)
    check_seats(rules, seats, f"--bots {seats}" if args.bots is not None
                else phrase("default_bots", bots=seats), names_count=True)
    seed = args.seed if args.seed is not None else secrets.token_bytes(16)
    match = Match(rules, seats, seed)
    names = list(BOT_NAMES[:seats])
    budget = search_budget(args)
    bots = [make_bot(args.policy, seat, rules, match.manifest, seed=seat, budget=budget)
            for seat in range(seats)]
    lang = pick_language(args.lang, os.environ)  # as --help says: else from the locale
    say = game_words(lang)
    print(say("log.header", version=__version__, count=seats, policy=args.policy,
              rules=args.rules))
    print(say("log.seed", seed=seed.hex()))
    print(say("log.seats", seats=", ".join(f"{i}: {n}" for i, n in enumerate(names))))
    # A public log: the Narrator follows the side in play and, in UNO Flip, the dark faces told
    # to everybody (a card id names its light face only), so it must hear every event.
    tell = Narrator(names, match.manifest, None, lang, rules.teams == "pairs")

    def show(seat: int, action: Action, events: list[Event]) -> None:
        said = False
        for event in events:
            text = tell(event)
            if isinstance(event, TurnStarted) and not args.verbose:
                continue
            if args.quiet and not isinstance(event, RoundEnded):
                continue
            if text:
                print("  " + text if not isinstance(event, RoundEnded) else text,
                      flush=bool(args.speed))
                said = True
        if said and args.speed:
            time.sleep(args.speed)  # one action at a time, to be watched

    play_match(match, bots, show)
    assert match.winner is not None
    partner = match_partner(match.rules, match.seats, match.winner)  # teams=pairs: both won
    if partner is None:
        print(say("log.over", count=match.round_no, name=names[match.winner]))
    else:
        print(say("log.over_partners", count=match.round_no, name=names[match.winner],
                  partner=names[partner]))
    return 0


def cmd_host(args: argparse.Namespace) -> int:
    """Host a table; without --headless, this terminal also plays at it as the table's owner
    (imports trio, host and client only when asked to)."""

    import trio

    from host.run import HostOptions, check_can_listen, ensure_descriptors, run_host
    from host.settings import ConnectionLimits

    if args.check:
        return check_router(args)
    lang = SPEAKING.get()
    resume = resumed_journals(args.resume or [])
    opened: Opened | None = None
    if resume:
        record = resume[0][1].header.table.get("host")
        for path, other in resume[1:]:
            if (differs := record_differences(record, other.header.table.get("host"), lang)):
                print(on_stderr(cli_words(lang, "resume_other_host", path=path,
                                          differs=differs, first=resume[0][0])),
                      file=sys.stderr)
        take_recorded_options(args, record, resume[0][0])
        if args.rules is None and not args.set and args.seats is None and args.bots is None:
            opened = recorded_opened(record, resume[0][0])
    for name, default in HOST_DEFAULTS.items():
        if getattr(args, name) is None:
            setattr(args, name, default)
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    headless = args.headless or not interactive
    bots_given = args.bots is not None
    if opened is not None:  # the tables this host opened, as they were
        args.rules, rules, args.seats, args.bots = opened
    else:
        args.rules = args.rules or "official"
        args.bots = args.bots or 0
        rules = parse_rules(args.rules, args.set)
    if args.seats is not None and not 2 <= args.seats <= 10:
        raise CommandError.said("seats", seats=args.seats)
    if args.seats is not None:
        check_seats(rules, args.seats, f"--seats {args.seats}", names_count=True)
    room = args.seats if args.seats is not None else rules.max_players
    most_bots = room - (0 if headless else 1)
    if not 0 <= args.bots <= most_bots:
        why = (f"--seats {args.seats}" if args.seats is not None
               else phrase("rules_seat", rules=args.rules, players=rules.max_players))
        raise CommandError.said("bots_fit" if headless else "bots_fit_yours", bots=args.bots,
                                most=most_bots, why=why)
    if args.seats is not None:
        seats = args.seats
    elif headless:
        seats = max(2, min(room, args.bots + 1))  # starts by itself once these are filled
    else:
        seats = rules.max_players  # room for friends; the owner starts when all are in
    if args.seats is not None:
        check_seats(rules, seats, f"--seats {seats}", names_count=True)
    elif headless and bots_given:
        check_seats(rules, seats, f"--bots {args.bots}")
    else:
        check_seats(rules, seats, phrase("default_seats", seats=seats), names_count=True)
    tables = whole_number("--tables", args.tables, 1, MAX_LIVE_TABLES)
    max_connections = whole_number("--max-connections", args.max_connections, 1,
                                   MAX_CONNECTIONS_CEILING)
    per_address = whole_number("--per-address", args.per_address, 1, MAX_CONNECTIONS_CEILING)
    journal_sync = whole_number("--journal-sync", args.journal_sync, 0, JOURNAL_SYNC_LONGEST_MS)
    if tables > 1 and not headless:
        raise CommandError.said("tables_headless", tables=tables)
    if args.player_owner and not headless:
        raise CommandError.said("owner_headless")
    options = HostOptions(
        rules=rules, preset=args.rules, bind=args.bind, port=args.port, bots=args.bots,
        seats=seats, headless=headless, tls=not args.no_tls,
        resume=tuple(path for path, _ in resume), loaded=dict(resume),
        player_owner=args.player_owner, tables=tables, bot_delay=args.bot_delay,
        limits=ConnectionLimits().with_caps(max_connections, per_address),
        journal_sync=journal_sync, no_upnp=args.no_upnp,
        upnp=asks_router(args.bind, args.no_upnp, os.environ),
        bot_level=args.policy or "normal", bot_search=search_budget(args),
    )
    args.host_options = options  # a Ctrl-C's line names its journal (_stopped)
    ensure_descriptors(options.limits, options.tables + len(options.resume), lang)
    options.share_notice = True  # whoever sits down is told how friends join (the lobby's line)
    # The language of the host's terminal (and of its own player's chat line): --lang, else
    # the locale's; a dedicated server's operator reads its terminal too.
    options.notice_lang = lang
    if headless:
        check_can_listen(options.bind, options.port, options.notice_lang)  # before any log
        if not (args.headless or interactive):  # said once the options hold
            print(on_stderr(cli_words(lang, "headless_by_itself")), file=sys.stderr)
        unused = [flag for flag, given in (("--name", args.name), ("--no-bell", args.no_bell))
                  if given not in (None, False)]
        if unused:  # a dedicated server has no player of its own: said, not silently dropped
            print(on_stderr(cli_words(lang, "unused_flags", flags=", ".join(unused))),
                  file=sys.stderr)
        trio.run(run_host, options)
        return 0
    return _host_and_play(args, options)


def asks_router(bind: str | None, refused: bool, environ: typing.Mapping[str, str]) -> bool:
    """Whether `unonet host` asks the home router to forward its port: when it listens on
    every interface (a host bound to one address chose where it is reached), unless
    --no-upnp or UNONET_NO_UPNP=1 says not to (the test suite sets it: its hosts never ask
    the machine's real router)."""
    return (bind in (None, "0.0.0.0", "::") and not refused
            and environ.get("UNONET_NO_UPNP", "") in ("", "0"))


def check_router(args: argparse.Namespace) -> int:
    """`unonet host --check`: what the router says about itself and the port, changing
    nothing; 0 if the port is forwarded to this machine from a public address, else 1."""
    import trio

    from host.addresses import lan_addresses
    from host.host_words import host_words
    from host.port_lease import check_router as ask
    from host.portmap import DEADLINE, check_lines
    from host.run import terminal_width

    port = args.port if args.port is not None else DEFAULT_PORT
    if port == 0:
        raise CommandError.said("check_port0")
    if not asks_router(None, False, os.environ):
        raise CommandError.said("check_no_upnp")
    lang = SPEAKING.get()
    width = terminal_width()
    asking = host_words(lang, "check_asking", port=port, deadline=f"{DEADLINE:g}")
    print("\n".join(laid_out(asking, width)), flush=True)
    lines, forwarded = check_lines(port, trio.run(ask, port, lan_addresses(None)[0]), lang)
    print("\n".join(said for line in lines for said in laid_out(line, width)))
    return 0 if forwarded else 1


def resumed_journals(paths: Sequence[str]) -> list[tuple[Path, Resumed]]:
    """`--resume`'s journals, each loaded, refused here (before anything is printed or
    opened) if it is missing, unreadable, given twice, or of a table number another of them
    has: a host carries on each table's match once."""
    from pathlib import Path

    from host.journal import JournalError, load
    from unonet.match import MATCH_OVER

    found: list[tuple[Path, Resumed]] = []
    tables: dict[int, Path] = {}
    for given in paths:
        path = Path(given).absolute()  # the farewell's command works from any folder
        if path.is_dir():
            raise CommandError.said("resume_folder", path=given)
        if not path.is_file():
            raise CommandError.said("resume_missing", path=given)
        if any(path.resolve() == other.resolve() for other, _ in found):
            raise CommandError.said("resume_twice", path=path)
        try:
            resumed = load(path)
        except JournalError as exc:
            raise CommandError.said("resume_unreadable", path=path, why=exc) from None
        if resumed.match.phase == MATCH_OVER:
            scores = "-".join(str(score) for score in resumed.match.scores)
            raise CommandError.said("resume_over", path=path, winner=resumed.match.winner,
                                    scores=scores)
        number = resumed.header.table.get("number", 0)  # a whole number (load checked it)
        if number in tables:
            raise CommandError.said("resume_same_table", first=tables[number], path=path,
                                    table=number)
        tables[number] = path
        found.append((path, resumed))
    return found


HOST_DEFAULTS: dict[str, object] = {
    "port": DEFAULT_PORT, "no_tls": False, "headless": False, "bot_delay": TableTimings().bot_delay,
    "max_connections": MAX_CONNECTIONS, "per_address": PER_ADDRESS, "journal_sync": 0,
    "tables": 1, "no_upnp": False,
}
"""`unonet host`'s defaults for the options a journal records (host/run.py host_record): the
parser leaves them None, so that `--resume` can tell a flag given from one left out."""


def _whole(low: int, high: int) -> Callable[[object], bool]:
    return lambda value: type(value) is int and low <= value <= high


RECORDED: tuple[tuple[str, str, Callable[[object], bool]], ...] = (
    ("bind", "bind", lambda value: value is None or isinstance(value, str)),
    ("port", "port", _whole(0, 65535)),
    ("no_tls", "tls", lambda value: isinstance(value, bool)),
    ("headless", "headless", lambda value: isinstance(value, bool)),
    ("bot_delay", "bot_delay",
     lambda value: type(value) in (int, float) and 0 <= value <= 3600),  # type: ignore[operator]
    ("max_connections", "max_connections", _whole(1, MAX_CONNECTIONS_CEILING)),
    ("per_address", "per_address", _whole(1, MAX_CONNECTIONS_CEILING)),
    ("journal_sync", "journal_sync", _whole(0, JOURNAL_SYNC_LONGEST_MS)),
    ("tables", "tables", _whole(1, MAX_LIVE_TABLES)),
    ("no_upnp", "no_upnp", lambda value: isinstance(value, bool)),
)
"""The options a journal's host record keeps: the argument, its key there, what it may be."""


def take_recorded_options(args: argparse.Namespace, record: object, journal: object) -> None:
    """`--resume JOURNAL`: each listening or playing option left off the command line is the
    one the journal's host had (an older journal has none: the defaults then), so the host
    listens where friends look for it; a flag given again wins."""
    if not isinstance(record, dict):
        return
    for name, key, fits in RECORDED:
        if key not in record:
            continue
        value = record[key]
        if not fits(value):
            raise CommandError.said("resume_record", path=journal, name=key, value=repr(value))
        if getattr(args, name) is None:
            setattr(args, name, (not value) if key == "tls" else value)


def record_differences(first: object, other: object, lang: str = "en") -> str:
    """How the host record of `other` differs from `first`'s, in words of `lang` ("" if it
    does not): one host carries several journals on as the first one's host listened and
    played."""
    if not isinstance(first, dict) or not isinstance(other, dict):
        return "" if first == other else cli_words(lang, "differs_no_record")
    words = []
    for key in sorted(set(first) | set(other)):
        if first.get(key) == other.get(key):
            continue
        words.append(cli_words(lang, "differs_opened") if key == "opened"
                     else cli_words(lang, "differs_value", name=key, other=repr(other.get(key)),
                                    first=repr(first.get(key))))
    return ", ".join(words)


Opened = tuple[str, RuleSet, int, int]
"""The tables a host opened at start: their preset's name, rules, seats and bots."""


def recorded_opened(record: object, journal: object) -> Opened | None:
    """`--resume JOURNAL` without --rules, --set, --seats or --bots: the tables its host
    opened at start, as its host record keeps them (`opened`), so that those no journal
    carries on open again as they were; None for a journal that keeps none (older), which
    opens them with the defaults."""
    opened = record.get("opened") if isinstance(record, dict) else None
    if opened is None:
        return None
    try:
        name, seats, bots = opened["preset"], opened["seats"], opened["bots"]
        if not (isinstance(name, str) and type(seats) is int and type(bots) is int
                and 2 <= seats <= 10 and 0 <= bots <= seats):
            raise ValueError(f"{name!r}, {seats!r} seats, {bots!r} bots")
        rules = RuleSet.from_dict(dict(opened["rules"]))
        rules.check_table(seats)
    except (KeyError, TypeError, ValueError, RulesError) as exc:
        raise CommandError.said("resume_opened", path=journal, why=exc) from None
    return name, rules, seats, bots


def _host_and_play(args: argparse.Namespace, options: HostOptions) -> int:
    """The host in this process and the host player's client at its table, as its owner: the
    client joins first, so it owns the table, and starts the match from the lobby (`s`)."""
    from client.cli import JoinError, player_name, run_play
    from host.config import config_dir
    from host.logs import setup_logging
    from host.run import check_can_listen, describe, farewell, on_terminal, terminal_width

    check_can_listen(options.bind, options.port, options.notice_lang)  # before the screen
    try:  # a name the host would refuse: said before "starting", not after it
        args.name = player_name(args, os.environ)
    except JoinError as exc:  # in the player's language already
        raise CommandError(str(exc)) from None
    setup_logging(config_dir() / "host.log", to_stderr=False)  # the screen is the terminal's
    ran: list[ServedHost] = []
    lang = options.notice_lang
    where = (phrase("on_port", port=options.port) if options.port else phrase("free_port"))
    if options.resume:
        what = (str(options.resume[0]) if len(options.resume) == 1
                else phrase("matches", count=len(options.resume)))
        said = cli_words(lang, "host_resuming", what=what, where=where)
    else:
        said = cli_words(lang, "host_starting", where=where)
    print("\n".join(laid_out(said, terminal_width())), flush=True)
    code = run_play(args, host_for_player(options, ran), auto_ready=False)
    if ran:
        print(on_terminal(describe(options, ran[0]) + farewell(ran[0], lang), ran[0],
                          terminal_width(), lang))
    return code


def host_for_player(
    options: HostOptions, ran: list[ServedHost],
) -> Callable[[argparse.Namespace], AbstractAsyncContextManager[HostAddress]]:
    """`unonet host`'s host, for client/cli.py's run_play: served in the client's trio run,
    appended to `ran` once it listens. The own player's seat is kept under OWN_HOST, not this
    port: `--resume` may listen elsewhere, and the player still sits down where they were."""
    from client.cli import OWN_HOST, HostAddress
    from host.run import serving

    def start(_: argparse.Namespace) -> AbstractAsyncContextManager[HostAddress]:
        @asynccontextmanager
        async def running() -> AsyncIterator[HostAddress]:
            async with serving(options) as served:
                ran.append(served)
                # The seat kept from the last run is the player's only where table 0's match
                # was carried on: a fresh host, or one resuming only friends' tables, opens a
                # new table 0 that never had it.
                own = served.registry.tables.get(0) if served.registry is not None else None
                yield HostAddress("127.0.0.1", served.port, served.fingerprint, table=0,
                                  place=OWN_HOST, fresh=own is None or own.game is None)

        return running()

    return start


def cmd_bot(args: argparse.Namespace) -> int:
    """A bot that joins a host over the network, like any client. Exit 0 once it played its
    matches, 1 if it could not reach the host or the host ended the session first (why, in
    one line), 3 if the host failed a check, 4 if the host is not the pinned one."""
    import trio

    from client import netbot
    from client.cli import name_refusal, parse_address, pin_refusal, unreachable_words
    from client.command_words import command_words
    from client.safe_text import own_name, shown
    from client.tls import (
        CONNECT_FAILURES,
        CONNECT_TIMEOUT,
        HostKeyMismatch,
        connect_failure,
        format_fingerprint,
        normalize_pin,
        open_pinned_stream,
    )
    from protocol.address import host_port
    from protocol.fingerprint import PinError
    from protocol.text import TextRefused

    lang = SPEAKING.get()

    def words(key: str, **values: object) -> str:
        return command_words(lang, key, **values)

    address, port = parse_address(args.address)  # as `unonet join` reads it
    try:
        name = own_name(args.name)
    except TextRefused as refused_name:
        raise CommandError(name_refusal(lang, refused_name)) from None
    try:
        pin = None if args.fingerprint is None else normalize_pin(args.fingerprint)
    except PinError as exc:
        raise CommandError(pin_refusal(lang, "--fingerprint", exc)) from None
    budget = search_budget(args)

    async def run() -> int:
        try:
            with trio.fail_after(CONNECT_TIMEOUT):
                stream: trio.abc.Stream = await trio.open_tcp_stream(address, port)
            if not args.no_tls:
                stream, seen = await open_pinned_stream(stream, pin,
                                                        handshake_timeout=CONNECT_TIMEOUT)
                if pin is None:
                    print(on_stderr(words("bot.unpinned",
                                          fingerprint=format_fingerprint(seen))),
                          file=sys.stderr)
        except HostKeyMismatch as exc:
            print(on_stderr(words("bot.not_pinned", why=exc)), file=sys.stderr)
            return 4
        except CONNECT_FAILURES as exc:
            failure = connect_failure(exc)  # in English as the system said it (the screen's way)
            why = failure.words if lang == "en" else unreachable_words(Translator(lang), failure)
            print(on_stderr(words("bot.unreachable", address=host_port(address, port),
                                  why=why)), file=sys.stderr)
            return 1
        think = netbot.DEFAULT_THINK if args.think is None else args.think
        result = await netbot.play(stream, name=name, level=args.policy, table=args.table,
                                   matches=args.matches, think=think, budget=budget)
        for line in netbot.report_lines(result, lang):
            print(line)
        for violation in result.violations:  # the host's own words are in it: escaped
            print(on_stderr(words("bot.failed_check", violation=shown(str(violation)))),
                  file=sys.stderr)
        if result.violations:
            return 3
        if len(result.matches) < args.matches:
            why = session_ended(result, lang, plain_to_tls=args.no_tls and not result.welcomed
                                and result.closed_silently)
            print(on_stderr(words("bot.ended", played=len(result.matches),
                                  wanted=args.matches, why=why)), file=sys.stderr)
            return 1
        return 0

    code: int = trio.run(run)
    return code


def session_ended(result: BotResult, lang: str, *, plain_to_tls: bool) -> str:
    """Why `unonet bot`'s session ended before its matches were played: in English as the
    host or the link said it, in another language in its words where there are some (the
    screen's, client/render.py), else the host's own (escaped: they are the host's)."""
    from client.command_words import command_words
    from client.render import said_reason
    from client.safe_text import shown
    from client.tls import NO_TLS_HINT

    tr = Translator(lang)
    if not result.closed:
        return command_words(lang, "bot.host_left")
    if plain_to_tls:  # a TLS host closes a plain connection without a word
        return tr("lost.host_closed_plain") if lang != "en" \
            else f"{shown(result.closed)}; {NO_TLS_HINT}"
    if lang == "en":
        return shown(result.closed)
    return shown(said_reason(tr, result.closed_code, result.closed))


def cmd_rules(args: argparse.Namespace) -> int:
    """`unonet rules`: a rule set in words, in the language asked for (else the terminal's)."""
    from unonet.rulebook import LANGUAGES, describe_rules

    if args.lang is not None and args.lang.strip().lower() not in LANGUAGES:
        raise CommandError.said("unknown_language", given=repr(args.lang),
                                known=", ".join(LANGUAGES))
    lang = pick_language(args.lang, os.environ)
    if args.preset not in PRESETS:
        raise rules_refused("unknown_preset", "preset", name=repr(args.preset),
                            known=", ".join(playable_presets()))
    if args.preset not in playable_presets():
        raise CommandError.said("preset_not_played", name=args.preset)
    rules = parse_rules(args.preset, args.set)
    rules.check_options()  # what every table would refuse is not described as playable
    what = preset_meaning(Translator(lang), args.preset) if args.preset != "official" else None
    name = " ".join([f"{args.preset} ({what})" if what else args.preset,
                     *(setting.strip() for setting in args.set)])
    print(describe_rules(rules, lang, name=name), end="")
    return 0


def cmd_audit(args: argparse.Namespace) -> int:
    """`unonet audit FILE`: re-check a match transcript offline (client/audit_cmd.py)."""
    from pathlib import Path

    from client.audit_cmd import run

    return run(Path(args.file), sys.stdout, sys.stderr, pick_language(args.lang, os.environ))


class Parser(argparse.ArgumentParser):
    """argparse, whose errors are one line (no usage block above it): what was wrong and where
    the whole usage is. Its subcommands' parsers are of this class too."""

    def error(self, message: str) -> typing.NoReturn:
        lang = SPEAKING.get()
        self.exit(2, on_stderr(f"unonet: {parser_words(lang, message)} "
                               f"{cli_words(lang, 'see_help', prog=self.prog)}") + "\n")


def preset_words() -> str:
    """Each preset the engine plays with what it is, for --help: "seed000" alone tells a
    newcomer nothing (the words are the lobby's, client/i18n.py)."""
    english = Translator("en")
    return ", ".join(f"{name} ({what})" if (what := preset_meaning(english, name)) else name
                     for name in playable_presets())


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="unonet",
        description="UNO over the network, from a terminal.",
    )
    parser.add_argument("--version", action="version", version=f"unonet {__version__}",
                        help="show the version, then exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    play = sub.add_parser(
        "play",
        help="play a match against bots",
        description="Play against bots on this terminal (a host in this process, on "
        "127.0.0.1). With --log (or when the output is not a terminal), watch a match between "
        "bots as a readable log instead.",
    )
    play.add_argument("--bots", type=int, default=None, metavar="N",
                      help="bots to play against (default 3); with --log, seats (default 4)")
    play.add_argument("--rules", default="official", choices=playable_presets(),
                      help="rule preset (default official): " + preset_words())
    play.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE",
                      help="change one rule option, e.g. --set uno_penalty=4 (repeatable)")
    play.add_argument("--policy", default="normal", choices=sorted(POLICY_NAMES),
                      help="how the bots play (default normal; strong searches the cards it "
                      "cannot see, and thinks up to --search-time per move)")
    add_search_arguments(play)
    play.add_argument("--seed", type=hex_seed, help="hex seed, to replay the same match")
    play.add_argument("--quiet", action="store_true", help="print round results only")
    play.add_argument("--verbose", action="store_true", help="also print whose turn it is")
    play.add_argument("--log", action="store_true",
                      help="watch a match between bots as a log (--seed, --quiet, --verbose, "
                      "--speed imply it)")
    play.add_argument("--speed", type=seconds, default=None, metavar="SECONDS",
                      help="with --log, wait this long after each action, so the match can "
                      "be watched as it is played (e.g. 0.5; default: no wait)")
    add_play_arguments(play)
    play.set_defaults(func=cmd_play)

    join = sub.add_parser(
        "join",
        help="join a host over the network",
        description="Join a table on a host (`unonet host` prints its address and fingerprint)."
        " The first time, the host's fingerprint is shown and remembered (known_hosts in the "
        "unonet config dir); a changed one is refused.",
    )
    add_join_arguments(join)
    join.set_defaults(func=cmd_join)

    host = sub.add_parser(
        "host",
        help="host a table that friends join over the network",
        description="Host a table that friends join with `unonet join`: prints the address "
        "and the certificate fingerprint to share, and opens your own client at the table, "
        "whose owner you are (choose the rules, add bots, start with s). Leaving closes the "
        "table for everyone; --resume JOURNAL carries an interrupted match on, each player "
        "back in their seat. With --headless (or when not on a terminal) it is a dedicated "
        "server instead: its table starts by itself once its seats are filled and ready, with "
        "a new match after each one.",
    )
    host.add_argument("--bind", default=None, metavar="ADDR",
                      help="address to listen on (default: every interface; with --resume, "
                      "the journal's)")
    host.add_argument("--port", type=port_number, default=None, metavar="N",
                      help=f"port (default {DEFAULT_PORT}; with --resume, the journal's)")
    host.add_argument("--rules", default=None, choices=playable_presets(),
                      help="rule preset (default official; with --resume, that of the "
                      "tables the journal's host opened): " + preset_words())
    host.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE",
                      help="change one rule option (repeatable)")
    host.add_argument("--bots", type=int, default=None, metavar="N",
                      help="in-process bots to seat (default 0; with --resume, as the "
                      "journal's host did)")
    host.add_argument("--seats", type=int, default=None, metavar="N",
                      help="seats at the table, bots included (default: the rules' most "
                      "players; with --headless, bots + 1, at least 2)")
    host.add_argument("--headless", action="store_true", default=None,
                      help="dedicated server, no local player; its table is the operator's: "
                      "no player changes its rules, kicks or penalizes")
    host.add_argument("--player-owner", action="store_true",
                      help="with --headless: the first player to sit owns the table (may "
                      "change its rules, kick, add bots and penalize), as at a table a "
                      "player creates")
    host.add_argument("--policy", default=None, choices=sorted(POLICY_NAMES),
                      help="how the bots seated at start play (default normal); a table's "
                      "owner picks each bot's level in the lobby")
    add_search_arguments(host)
    host.add_argument("--bot-delay", type=seconds, default=None,
                      metavar="SECONDS", help="seconds each bot waits before it acts "
                      f"(default {TableTimings().bot_delay})")
    host.add_argument("--tables", default=None,
                      metavar="N",
                      help="with --headless: tables to open at start, each with these rules, "
                      f"seats and bots (default 1; at most {MAX_LIVE_TABLES}); players may "
                      "open more from the lobby. With --resume, those no journal carries on "
                      "open as they did (default: as many as the journal's host opened)")
    host.add_argument("--max-connections", default=None, metavar="N",
                      help=f"connections served at once, spectators included (default "
                      f"{MAX_CONNECTIONS}); the last {RESUME_RESERVE} are kept for players "
                      "taking their seat back")
    host.add_argument("--per-address", default=None, metavar="N",
                      help=f"connections one address (an IPv6 /64) may hold (default "
                      f"{PER_ADDRESS}); raise it when a club's players share one NAT")
    host.add_argument("--journal-sync", default=None, metavar="MS",
                      help="0 (the default): every move is on disk before anyone sees it, so "
                      "not even a power cut loses it; MS: every move is written to the "
                      "system before anyone sees it (a crash or kill of the host loses "
                      "nothing) and put on disk every MS milliseconds (at most "
                      f"{JOURNAL_SYNC_LONGEST_MS}), so no answer waits for the disk, but a "
                      "power cut can lose the last MS of play, which the players' clients "
                      "then report. For a slow disk or a busy club")
    host.add_argument("--no-tls", action="store_true", default=None,
                      help="plain TCP (readable on the wire)")
    host.add_argument("--no-upnp", action="store_true", default=None,
                      help="do not ask the home router to forward the port (by default a host "
                      "listening on every interface asks it, by UPnP, while it runs, so that "
                      "friends on the internet can join; UNONET_NO_UPNP=1 does the same)")
    host.add_argument("--check", action="store_true",
                      help="ask the home router what it says about the port (--port, default "
                      f"{DEFAULT_PORT}) and whether it is forwarded to this machine, then exit "
                      "(0: it is, friends on the internet can join; 1: it is not, and why)")
    host.add_argument("--resume", metavar="JOURNAL", action="append",
                      help="resume the match of a journal file, listening and playing as its "
                      "host did (its --bind, --port, --no-tls, --headless, --bot-delay, "
                      "--max-connections, --per-address, --journal-sync, --tables) unless "
                      "given again; once per table, for several matches (listening as the "
                      "first journal's host did); a dedicated server's other tables open again "
                      "empty, with the rules, seats and bots they had")
    add_play_arguments(host)
    host.set_defaults(func=cmd_host)

    bot = sub.add_parser(
        "bot",
        help="join a host with a bot over the network",
        description="A bot that plays through the network like any client, checking the "
        "host's deck as a player's client does. Exit 0 once it played its matches; 1 if it "
        "could not reach the host, or the host ended the session first (why, in one line); 3 "
        "if the host failed a check; 4 if the host is not the pinned one.",
    )
    bot.add_argument("address", metavar="HOST:PORT",
                     help=f"the host to join (port {DEFAULT_PORT} if left out)")
    bot.add_argument("--name", default="bot", help="the bot's name at the table")
    bot.add_argument("--table", type=table_number, default=None, metavar="N",
                     help="table to join (default: the first with a free seat)")
    bot.add_argument("--policy", default="normal", choices=sorted(POLICY_NAMES),
                     help="how the bot plays (default normal)")
    add_search_arguments(bot)
    bot.add_argument("--matches", type=match_count, default=1, metavar="N",
                     help="matches to play before leaving (default 1)")
    bot.add_argument("--think", type=seconds, default=None, metavar="SECONDS",
                     help="wait at least this long before each action, the time it took to "
                     "decide included (default 0.1; 0 for tests and tournaments, where only "
                     "the host's rate limit paces the bot)")
    bot.add_argument("--no-tls", action="store_true", help="plain TCP")
    bot.add_argument("--lang", choices=("en", "it", "pt"),
                     help="language (default: from LANGUAGE/LC_ALL/LC_MESSAGES/LANG)")
    bot.add_argument("--fingerprint", metavar="FP",
                     help="the host's certificate fingerprint to pin (base32 or hex)")
    bot.set_defaults(func=cmd_bot)

    rules = sub.add_parser(
        "rules",
        help="print a rule set in words",
        description="Print a rule set in words: every option with its value (starred where it "
        "differs from the official rules) and every choice unonet made that concerns it. "
        "RULEBOOK.md is the whole rules document.",
    )
    rules.add_argument("preset", nargs="?", default="official", metavar="PRESET",
                       help="the preset to start from (default official): " + preset_words())
    rules.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE",
                       help="change one rule option, e.g. --set stacking=same_kind (repeatable)")
    rules.add_argument("--lang", default=None, metavar="en|it|pt",
                       help="language (default: the terminal's, else English)")
    rules.set_defaults(func=cmd_rules)

    audit = sub.add_parser(
        "audit",
        help="re-check a match transcript offline",
        description="Re-check a match's transcript (kept by the client in the unonet config "
        "dir, transcripts/GAME_ID.msgpack) as if playing it again: every signature, every card, "
        "every audit and the rules. Prints a line per round and the host's key fingerprint; "
        "exit 0 if no violation is found (the summary says how many rounds could not be audited), "
        "1 if a violation is found (the host broke the protocol, or the file was changed since "
        "it was recorded), 2 if the file is not a "
        "readable transcript. Give the file to others: they can run the same check.",
    )
    audit.add_argument("file", metavar="FILE", help="a transcript (.msgpack)")
    audit.add_argument("--lang", choices=("en", "it", "pt"),
                       help="language (default: from LANGUAGE/LC_ALL/LC_MESSAGES/LANG)")
    audit.set_defaults(func=cmd_audit)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    words = list(sys.argv[1:] if argv is None else argv)
    if not words or (words[0].startswith("-") and words[0] not in TOP_LEVEL_OPTIONS):
        words.insert(0, "play")  # `unonet` alone, or with play's options, plays
    with speaking(words) as lang:
        args, extra = parser.parse_known_args(words)
        if extra:
            parser.error(unrecognized(args, extra))
        return run_command(args, lang)


def run_command(args: argparse.Namespace, lang: str) -> int:
    """The command `args` names, its failures said in one line of `lang` (never a traceback,
    but for a bug): 2 for a command that cannot run as asked, 1 for the system's refusal."""
    try:
        result: int = args.func(args)
        return result
    except RulesError as exc:
        complain(rules_words(lang, exc))
        return 2
    except EngineError as exc:
        complain(exc.message)
        return 2
    except CommandError as exc:
        complain(exc.in_language(lang))
        return 2
    except AddressError as exc:  # `unonet bot HOST:PORT`, read as `unonet join` reads it
        complain(cli_words(lang, exc.key, **exc.values))
        return 2
    except ValueError as exc:
        complain(str(exc))
        return 2
    except BrokenPipeError:  # `unonet play | head`: the reader left, which is fine
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        return 130
    except BaseExceptionGroup as group:  # trio wraps a Ctrl-C that stopped a host's tasks
        interrupted, _ = group.split(KeyboardInterrupt)
        if interrupted is None and _during_ctrl_c(group):
            interrupted = group  # a failure while stopping for a Ctrl-C: still the Ctrl-C
        if interrupted is None:  # with a Ctrl-C, what else failed is what stopping caused
            failure = _first_failure(group, lang)
            if failure is None:
                raise
            complain(failure)
            return 1
        if interrupted is group:
            log_stop_failure(group)
        return _stopped(args)
    except Exception as exc:  # a port in use, an address not ours, a bad journal, ...
        if _during_ctrl_c(exc):  # raised while stopping for a Ctrl-C (seen once, under load)
            log_stop_failure(exc)
            return _stopped(args)
        failure = _first_failure(exc, lang)
        if failure is None:
            raise  # a bug: its traceback is worth seeing
        complain(failure)
        return 1


def complain(why: str) -> None:
    """`unonet: why` on stderr: one line on a pipe; on a terminal wrapped at words within it
    (left to the terminal, a line longer than it was cut inside a word)."""
    print(on_stderr(f"unonet: {why}"), file=sys.stderr)


def on_stderr(line: str) -> str:
    """`line` laid out for stderr (unonet/terminal_text.py)."""
    if not sys.stderr.isatty():
        return line
    try:  # stderr's own terminal: stdout may be a pipe (`unonet play | less`)
        columns = os.get_terminal_size(sys.stderr.fileno()).columns
    except (OSError, ValueError):
        columns = shutil.get_terminal_size().columns
    return "\n".join(laid_out(line, usable_width(columns)))


TOP_LEVEL_OPTIONS = ("-h", "--help", "--version")


def unrecognized(args: argparse.Namespace, extra: list[str]) -> str:
    """argparse's complaint about words no option took, with the likely slip named: a port
    given as a word of its own (`unonet join 10.0.0.5 7077`) rather than after a colon."""
    lang = SPEAKING.get()
    message = cli_words(lang, "unrecognized", words=" ".join(extra))
    address = getattr(args, "address", None)
    if (args.command not in ("join", "bot") or not isinstance(address, str)
            or len(extra) != 1 or not extra[0].isdigit()):
        return message
    if ":" not in address:
        host = address
    elif address.count(":") > 1 and not address.startswith("["):
        host = f"[{address}]"  # an IPv6 address takes brackets before its port
    else:
        return message  # a port was given already
    return cli_words(lang, "port_after_colon", message=message, command=args.command, host=host,
                     port=extra[0])


def _stopped(args: argparse.Namespace) -> int:
    """A Ctrl-C: the one line a stopped host says (the command that carries its match on,
    with the real journal), and the shell's code for SIGINT."""
    if args.command == "host":
        from host.run import HostOptions, stopped_text

        options = getattr(args, "host_options", None)
        print(stopped_text(options if isinstance(options, HostOptions) else HostOptions()),
              file=sys.stderr)
    return 130


def _during_ctrl_c(exc: BaseException) -> bool:
    """Whether `exc` was raised while a KeyboardInterrupt was being handled (its context
    chain, or a member of its group, holds one): stopping failed, but the user pressed Ctrl-C
    and that is what they get told; the failure goes to the log."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, KeyboardInterrupt):
            return True
        if isinstance(current, BaseExceptionGroup) and any(
                _during_ctrl_c(inner) for inner in current.exceptions):
            return True
        current = current.__context__
    return False


def log_stop_failure(exc: BaseException) -> None:
    """One log line (the host's log, when it has one): what else failed while stopping."""
    import logging

    logging.getLogger("unonet.cli").info("stopping for Ctrl-C also raised %r", exc)


class CommandError(Exception):
    """A command that cannot run as asked; its message is the one line the user sees. One
    made by `said` has words in every language (unonet/cli_words.py): `in_language`."""

    def __init__(self, message: str, key: str | None = None,
                 values: dict[str, object] | None = None) -> None:
        super().__init__(message)
        self.key = key
        self.values = values or {}

    @classmethod
    def said(cls, key: str, **values: object) -> CommandError:
        """The error of `key` (unonet/cli_words.py), its English the message."""
        return cls(cli_words("en", key, **values), key, values)

    def in_language(self, lang: str) -> str:
        return cli_words(lang, self.key, **self.values) if self.key else str(self)


def _first_failure(exc: BaseException, lang: str = "en") -> str | None:
    """The one line that says why a command failed on the system's side (an OSError in the
    system's words, a bad journal), looking through trio's exception groups; None for anything
    else (a bug: its traceback is worth seeing)."""
    from host.journal import JournalError

    if isinstance(exc, BaseExceptionGroup):
        for inner in exc.exceptions:
            found = _first_failure(inner, lang)
            if found is not None:
                return found
        return None
    if isinstance(exc, JournalError):
        return cli_words(lang, "journal_unreadable", why=exc)
    if isinstance(exc, OSError):
        where = f" ({exc.filename})" if exc.filename else ""
        return f"{exc.strerror or exc}{where}"
    return None


if __name__ == "__main__":
    sys.exit(main())
