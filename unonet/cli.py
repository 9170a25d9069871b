"""The `unonet` command: the one module that wires the layers together."""

from __future__ import annotations

import argparse
import secrets
import sys
from collections.abc import Sequence

from unonet import __version__
from unonet.actions import Action
from unonet.bots import POLICIES
from unonet.bots.driver import play_match
from unonet.errors import EngineError
from unonet.events import Event, RoundEnded, TurnStarted
from unonet.match import Match
from unonet.narrate import describe
from unonet.rules import PRESETS, RulesError, RuleSet, parse_option, preset

BOT_NAMES = ("Ana", "Bruno", "Chiara", "Davi", "Elena", "Fabio", "Giulia", "Hugo", "Iris", "Joao")


def parse_rules(preset_name: str, settings: Sequence[str]) -> RuleSet:
    """A rule set from `--rules PRESET` and `--set OPTION=VALUE` (repeatable)."""
    overrides = {}
    for setting in settings:
        name, sep, value = setting.partition("=")
        if not sep:
            raise RulesError("--set", f"expects OPTION=VALUE, not {setting!r}")
        overrides[name.strip()] = parse_option(name.strip(), value)
    return preset(preset_name, **overrides)


def cmd_play(args: argparse.Namespace) -> int:
    rules = parse_rules(args.rules, args.set)
    seats = args.bots
    seed = bytes.fromhex(args.seed) if args.seed else secrets.token_bytes(16)
    match = Match(rules, seats, seed)
    names = list(BOT_NAMES[:seats])
    policy = POLICIES[args.policy]
    bots = [policy(seat, rules, match.manifest, seed=seat) for seat in range(seats)]
    print(f"unonet {__version__}: a match of {seats} bots ({args.policy}), rules {args.rules}")
    print(f"seed {seed.hex()} (replay with --seed)")
    print("Seats: " + ", ".join(f"{i}: {n}" for i, n in enumerate(names)))

    def show(seat: int, action: Action, events: list[Event]) -> None:
        for event in events:
            if isinstance(event, TurnStarted) and not args.verbose:
                continue
            if args.quiet and not isinstance(event, RoundEnded):
                continue
            text = describe(event, names, match.manifest, viewer=None)
            if text:
                print("  " + text if not isinstance(event, RoundEnded) else text)

    play_match(match, bots, show)
    assert match.winner is not None
    print(f"Match over after {match.round_no} rounds: {names[match.winner]} wins.")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="unonet",
        description="UNO over the network, from a terminal.",
    )
    parser.add_argument("--version", action="version", version=f"unonet {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    play = sub.add_parser(
        "play",
        help="play a match against bots",
        description="Play a match between bots and print it as a readable log.",
    )
    play.add_argument("--bots", type=int, default=4, metavar="N", help="seats (2-10, default 4)")
    play.add_argument("--rules", default="official", choices=sorted(PRESETS),
                      help="rule preset (default official)")
    play.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE",
                      help="change one rule option, e.g. --set uno_penalty=4 (repeatable)")
    play.add_argument("--policy", default="normal", choices=sorted(POLICIES),
                      help="how the bots play (default normal)")
    play.add_argument("--seed", help="hex seed, to replay the same match")
    play.add_argument("--quiet", action="store_true", help="print round results only")
    play.add_argument("--verbose", action="store_true", help="also print whose turn it is")
    play.set_defaults(func=cmd_play)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        args = parser.parse_args(["play", *(argv or sys.argv[1:])])
    try:
        result: int = args.func(args)
        return result
    except EngineError as exc:
        print(f"unonet: {exc.message}", file=sys.stderr)
        return 2
    except ValueError as exc:
        print(f"unonet: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `unonet play | head`: the reader left, which is fine
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
