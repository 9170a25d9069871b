"""The client's command-line options, apart from the client: `unonet --help` builds every
parser from here without importing prompt-toolkit, trio or the screen (client/cli.py and
client/app.py import them from this module)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from protocol.limits import INT_MAX
from protocol.versions import DEFAULT_PORT
from unonet.cli_words import SPEAKING, cli_words


def refused(key: str, **values: object) -> argparse.ArgumentTypeError:
    """argparse's one line for a value an option cannot take, in the command's language."""
    return argparse.ArgumentTypeError(cli_words(SPEAKING.get(), key, **values))


def whole(text: str, not_one: str) -> int:
    """An option's whole number, else argparse's one line: `'x' is not a ...` (the words of
    `not_one`, unonet/cli_words.py)."""
    try:
        return int(text)
    except ValueError:
        raise refused(not_one, text=repr(text)) from None


def table_number(text: str) -> int:
    """`--table`: a table's number as the host's list gives it (0 and up), checked here rather
    than refused by the host after the connection is made."""
    number = whole(text, "not_table")
    if not 0 <= number <= INT_MAX:
        raise refused("table_range", number=number)
    return number


class NamedFlag(argparse.Action):
    """Stores the value, and the flag it was given with in `DEST_flag` (`--pin` or
    `--fingerprint`): a refusal names the flag the user typed."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: str | Sequence[Any] | None, option_string: str | None = None) -> None:
        setattr(namespace, self.dest, values)
        setattr(namespace, f"{self.dest}_flag", option_string)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The UI's command-line options, for whichever command starts the client."""
    parser.add_argument("--lang", choices=("en", "it", "pt"),
                        help="language (default: from LANGUAGE/LC_ALL/LC_MESSAGES/LANG)")
    parser.add_argument("--name", default=None,
                        help="your name at the table (default: your login name)")
    parser.add_argument("--no-bell", action="store_true",
                        help="do not ring the terminal bell when it becomes your turn, nor when a "
                        "timer of yours is about to run out")


def add_join_arguments(parser: argparse.ArgumentParser) -> None:
    """`unonet join HOST:PORT` with --name, --fingerprint, --no-tls, --table, --lang, --no-bell."""
    parser.add_argument("address", metavar="HOST:PORT",
                        help=f"the host to join (port {DEFAULT_PORT} if left out)")
    add_arguments(parser)
    parser.add_argument("--fingerprint", "--pin", dest="fingerprint", metavar="FP",
                        action=NamedFlag,
                        help="the host's fingerprint as `unonet host` prints it (or its first "
                        "16+ characters, or 64 hex digits): pins it instead of asking")
    parser.add_argument("--no-tls", action="store_true",
                        help="plain TCP, only for a host started with --no-tls")
    parser.add_argument("--table", type=table_number, default=None, metavar="N",
                        help="join table N at once (default: choose from the host's list)")
    parser.add_argument("--spectate", action="store_true",
                        help="watch the table (--table, default 0) instead of taking a seat; "
                        "a number key in its lobby takes that free seat")


def add_play_arguments(parser: argparse.ArgumentParser) -> None:
    """The screen's options for `unonet play` (its --bots/--rules/--set are unonet/cli.py's)."""
    add_arguments(parser)
