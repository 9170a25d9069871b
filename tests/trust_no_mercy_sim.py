"""UNO Show 'Em No Mercy under the trust scheme: honest in-process matches, recorded as transcripts.

As tests/trust_sim.py does for the classic deck (whose `play_match` this drives), with a chooser
that plays as a No Mercy table does at its wildest: it stacks draw cards whenever it can and
plays Discard All, Skip Everyone and Color Roulette often, so that a few seeds give rounds with
escalating stacks paid across a reshuffle, knock-outs whose hands go under the draw pile and come
back out, roulettes, several cards turned before the first play and, with `deflect`, chains
cancelled. `Features` reads what a round had from its public events, to pick the rounds a test
needs.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from trust_sim import Chooser, Options, Transcript, play_match

from unonet import events as ev
from unonet.actions import Accept, Action, Play
from unonet.cards import Kind
from unonet.match import Match
from unonet.rules import RuleSet

NO_MERCY = RuleSet().with_options({"variant": "no_mercy"})

KEEN = frozenset(
    {
        Kind.DRAW_TWO,
        Kind.DRAW_FOUR,
        Kind.WILD_REVERSE_DRAW_FOUR,
        Kind.WILD_DRAW_SIX,
        Kind.WILD_DRAW_TEN,
        Kind.DISCARD_ALL,
        Kind.SKIP_EVERYONE,
        Kind.WILD_COLOR_ROULETTE,
    }
)
"""The cards the chooser plays first when it holds them: No Mercy's own and its draw cards."""


@dataclass(frozen=True, slots=True)
class Features:
    """What a No Mercy round had, by its public events."""

    turned: int  # top_card_turned events (actions turned first stay under the first number)
    discarded: int  # cards_discarded events
    roulettes: int  # roulette_turned events
    knocked: int  # knocked_out events
    returned_drawn: int  # cards drawn again from under the pile (a knock-out's hand)
    reshuffles: int
    stack_reshuffles: int  # reshuffles in the middle of paying a stacked draw
    cancelled: int  # draw_cancelled events (deflect)
    longest_stack: int  # the largest pending total taken


def chooser(rng: random.Random, stacker: bool = False) -> Chooser:
    """The seat whose turn it is acts (the host's timer runs out now and then): it plays a
    No Mercy card or a draw card when it has one (a `stacker` its biggest draw card first),
    any play mostly, else what is legal, and never takes a stack it can answer."""

    def choose(match: Match, options: Options) -> tuple[int, Action] | None:
        seat = match.pending_seat
        if seat is None or seat not in options or rng.random() < 0.02:
            return None
        return seat, _pick(rng, match, options[seat], stacker)

    return choose


def _pick(
    rng: random.Random, match: Match, actions: Sequence[Action], stacker: bool
) -> Action:
    plays = [a for a in actions if isinstance(a, Play)]
    rnd = match.round
    assert rnd is not None
    draws = [a for a in plays if rnd.face(a.card).draw_amount]
    if stacker and draws:
        return max(draws, key=lambda a: rnd.face(a.card).draw_amount)
    keen = [a for a in plays if rnd.face(a.card).kind in KEEN]
    if keen and rng.random() < 0.9:
        return rng.choice(keen)
    if plays and rng.random() < 0.9:
        return rng.choice(plays)
    rest = [a for a in actions if not isinstance(a, Accept)] if plays else list(actions)
    return rng.choice(rest or list(actions))


def play_no_mercy_match(
    seed: int,
    seats: int = 4,
    rules: RuleSet = NO_MERCY,
    max_rounds: int | None = 1,
    max_actions: int = 4000,
    stacker: bool = False,
) -> list[Transcript]:
    """An honest No Mercy match (its first `max_rounds` rounds; None: to its end, or until
    `max_actions` were taken), one transcript per round."""
    rng = random.Random(seed * 7919 + seats)
    return play_match(
        rules, seats, seed, max_actions=max_actions, chooser=chooser(rng, stacker),
        max_rounds=max_rounds,
    )


def features(t: Transcript) -> Features:
    """What the round's public record shows happened."""
    counts = {kind: 0 for kind in ("turned", "discarded", "roulettes", "knocked", "cancelled")}
    reshuffles = stack_reshuffles = returned_drawn = longest = 0
    under: set[tuple[int, int]] = set()
    paying: int | None = None  # the seat drawing a stacked total, while it draws
    for _, event, _ in t.events():
        if event.audience is not None:
            continue  # a drawer's own cards_received: nothing public happened
        if isinstance(event, ev.TopCardTurned):
            counts["turned"] += 1
        elif isinstance(event, ev.CardsDiscarded):
            counts["discarded"] += 1
        elif isinstance(event, ev.RouletteTurned):
            counts["roulettes"] += 1
        elif isinstance(event, ev.KnockedOut):
            counts["knocked"] += 1
        elif isinstance(event, ev.DrawCancelled):
            counts["cancelled"] += 1
        elif isinstance(event, ev.CardsReturned):
            under.update(event.positions)
        elif isinstance(event, ev.DecisionPending) and event.kind == "stack":
            longest = max(longest, event.amount or 0)
        elif isinstance(event, ev.Reshuffled):
            reshuffles += 1
            stack_reshuffles += paying is not None
        if isinstance(event, ev.CardsDrawn):
            returned_drawn += len(under.intersection(event.positions))
            paying = event.seat if event.reason == "stack" else None
        elif not isinstance(event, ev.Reshuffled):
            paying = None
    return Features(
        turned=counts["turned"],
        discarded=counts["discarded"],
        roulettes=counts["roulettes"],
        knocked=counts["knocked"],
        returned_drawn=returned_drawn,
        reshuffles=reshuffles,
        stack_reshuffles=stack_reshuffles,
        cancelled=counts["cancelled"],
        longest_stack=longest,
    )
