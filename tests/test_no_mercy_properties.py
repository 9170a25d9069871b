"""Property tests of UNO Show 'Em No Mercy (issue 15): random legal No Mercy matches under random
options that combine with it, checking after every action that

- the 168 cards are all there, each in exactly one place (hands, draw pile, discard pile);
- a knocked-out player's cards are at the bottom of the draw pile, in the order returned;
- every view (each seat's and a spectator's) holds the viewer's own cards only;
- under the Mercy rule at 25 cards or fewer, the piles never run dry: nobody ever finds nothing
  to draw (with 25 cards a hand at most, at least 168 - 5 x 24 = 48 cards are outside the other
  hands, more than any draw takes); without it, a round still ends;
- replaying the log rebuilds the same state;
- every round ends (within MAX_ACTIONS_PER_ROUND actions), and every match (within MAX_ROUNDS).

A "stacker" policy that plays a draw card whenever it may drives the big stacks (+10 on +10)
that drain the draw pile and force reshuffles. A failure carries the reproduction: options,
seats, seed and the action log.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import event as statistic
from hypothesis import strategies as st
from hypothesis.control import currently_in_test_context
from no_mercy_scenario import NO_MERCY, no_mercy_match

from unonet.actions import HOST, Action, CallUno, Catch, Expire, Play, StartRound
from unonet.events import (
    CannotDraw,
    CardsDrawn,
    CardsReturned,
    DrawStacked,
    Event,
    KnockedOut,
    Reshuffled,
    Stalemate,
)
from unonet.match import BETWEEN_ROUNDS, IN_ROUND, MATCH_OVER, Match
from unonet.no_mercy_deck import MERCY_LIMIT, NO_MERCY_DECK_SIZE
from unonet.rules import RulesError, RuleSet
from unonet.view import observe

MAX_ACTIONS_PER_ROUND = 3000
MAX_ROUNDS = 200
"""A bound that only a match that stopped progressing reaches: a round can score as few as 0
points (a 0 card left in the loser's hand), so no bound is certain. A two-seat match of
one-card hands to 1,000 points scores about 25 a round and took 41 rounds on one seed
hypothesis found (the bound was 40 then)."""

NO_MERCY_OPTIONS: dict[str, st.SearchStrategy[Any]] = {
    "hand_size": st.one_of(st.just(7), st.integers(1, 20)),
    "deflect": st.booleans(),
    "stack_mix_wild": st.booleans(),
    # seed 003 keeps Mattel's rules as options (NO_MERCY_DEFAULTS)
    "stacking": st.sampled_from(["escalating", "off"]),
    "seven_zero": st.booleans(),
    "draw_until_playable": st.booleans(),
    "max_hand": st.sampled_from([MERCY_LIMIT, 12]),  # off: test_without_the_mercy_rule_...
    "jump_in": st.sampled_from(["off", "identical", "same_face"]),
    "sequences": st.booleans(),
    "multiples": st.booleans(),
    "uno_penalty": st.integers(0, 4),
    "uno_auto_penalty": st.booleans(),
    "scoring": st.sampled_from(["winner_collects", "lowest_wins", "elimination"]),
    "target": st.sampled_from([300, 1000]),
}


def no_mercy_rules(options: dict[str, Any], seats: int) -> RuleSet | None:
    try:
        rules = NO_MERCY.replace(**options)
        rules.check_table(seats)
    except RulesError:
        return None
    return rules


def choose(match: Match, rng: random.Random, stacker: bool) -> tuple[int, Action]:
    """A random legal action: the pending seat plays a card most of the time it can (a draw
    card first, for a stacker), other seats now and then call, catch or jump in, the host now
    and then lets a timer expire."""
    if match.phase == BETWEEN_ROUNDS:
        return HOST, StartRound()
    if rng.random() < 0.03:
        return HOST, Expire()
    legal = [(s, a) for s in range(match.seats) for a in match.legal_actions(s)]
    cur = match.pending_seat
    extra = [(s, a) for s, a in legal
             if isinstance(a, CallUno | Catch) or (isinstance(a, Play) and s != cur)]
    if extra and rng.random() < 0.15:
        return rng.choice(extra)
    mine = [(s, a) for s, a in legal if s == cur and not isinstance(a, CallUno | Catch)]
    plays = [(s, a) for s, a in mine if isinstance(a, Play)]
    if stacker:
        draws = [(s, a) for s, a in plays if match.manifest.face(a.card).draw_amount]
        if draws:
            return max(draws, key=lambda p: match.manifest.face(p[1].card).draw_amount)
    if plays and (rng.random() < 0.85 or len(plays) == len(mine)):
        return rng.choice(plays)
    if mine:
        return rng.choice(mine)
    return rng.choice(legal) if legal else (HOST, Expire())


def check_cards(match: Match) -> None:
    rnd = match.round
    assert rnd is not None
    places = [c for hand in rnd.hands for c in hand] + rnd.draw_pile + rnd.discard
    assert sorted(places) == list(range(NO_MERCY_DECK_SIZE)), "a card is lost or in two places"
    for seat in rnd.out - rnd.absent:
        assert rnd.hands[seat] == [], "a knocked-out seat still holds cards"


def check_returned(match: Match, events: list[Event]) -> None:
    """Cards returned by a knock-out lie at the bottom of the draw pile, the first listed
    deepest (unless a later reshuffle of the same step took the pile apart)."""
    rnd = match.round
    assert rnd is not None
    if any(isinstance(e, Reshuffled) for e in events):
        return
    bottom: list[tuple[int, int]] = []  # the draw pile from its bottom up
    for event in events:
        if isinstance(event, CardsReturned):
            # the first listed is drawn first; a later return goes under an earlier one
            bottom = list(reversed(event.positions)) + bottom
    if bottom:
        pile = [rnd.origin[c] for c in rnd.draw_pile]
        assert pile[: len(bottom)] == bottom, "the returned cards are not under the draw pile"


def check_views(match: Match) -> None:
    rnd = match.round
    assert rnd is not None
    for viewer in (None, *range(match.seats)):
        seen = observe(match, viewer)
        own = tuple(rnd.hands[viewer]) if viewer is not None else ()
        assert seen.hand == own
        assert seen.drawn_card is None or seen.drawn_card in own
        assert [s.cards for s in seen.seats] == [len(h) for h in rnd.hands]
        assert [s.out for s in seen.seats] == [
            s in rnd.out or s in match.eliminated for s in range(match.seats)]


def note(what: str) -> None:
    """Count `what` among hypothesis's statistics (a seeded test plays outside hypothesis)."""
    if currently_in_test_context():
        statistic(what)


def never_dry(rules: RuleSet) -> bool:
    """The piles never run dry under the Mercy rule at 25 or less (RULEBOOK.md section 4);
    without it a draw may find nothing left, and the stalemate rule ends the round."""
    return rules.max_hand is not None and rules.max_hand <= MERCY_LIMIT


def play_match(rules: RuleSet, seats: int, seed: bytes, rng_seed: int, stacker: bool,
               max_actions: int = MAX_ACTIONS_PER_ROUND) -> Match:
    match = no_mercy_match(seats, seed, rules)
    rng = random.Random(rng_seed)
    in_round = 0
    while match.phase != MATCH_OVER:
        assert match.round_no <= MAX_ROUNDS, "the match does not end"
        seat, action = choose(match, rng, stacker)
        events = match.apply(seat, action)
        in_round = 0 if match.phase != IN_ROUND else in_round + 1
        assert in_round < max_actions, "the round does not end"
        if never_dry(rules):
            assert not any(isinstance(e, CannotDraw | Stalemate) for e in events), \
                "the piles ran dry"
        if any(isinstance(e, KnockedOut) for e in events):
            note("knocked out")
        if any(isinstance(e, Reshuffled) for e in events):
            note("reshuffled")
        if any(isinstance(e, DrawStacked) and e.total >= 20 for e in events):
            note("a stack of 20 or more")
        if match.round is not None:
            check_cards(match)
            check_returned(match, events)
            check_views(match)
    return match


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    options=st.fixed_dictionaries(NO_MERCY_OPTIONS),
    seats=st.integers(2, 6),
    seed=st.binary(min_size=1, max_size=8),
    rng_seed=st.integers(0, 2**32 - 1),
    stacker=st.booleans(),
)
def test_random_no_mercy_matches_keep_every_card_end_and_replay(
    options: dict[str, Any], seats: int, seed: bytes, rng_seed: int, stacker: bool
) -> None:
    rules = no_mercy_rules(options, seats)
    if rules is None:
        return
    match = play_match(rules, seats, seed, rng_seed, stacker)
    replayed = Match.replay(rules, seats, seed, match.log)
    assert replayed.state() == match.state(), (options, seats, seed, match.log)


def test_big_stacks_drain_the_draw_pile_and_every_round_still_ends() -> None:
    """Four stackers: stacks of +10 on +10, knock-outs, and a stack whose payment empties the
    draw pile and reshuffles the discards mid-draw; every match played to its end with every
    card in one place and each drawer given the whole total or up to the Mercy limit."""
    big_stacks = knockouts = mid_draw_reshuffles = 0
    for n in range(40):
        match = no_mercy_match(4, b"dry-%d" % n, NO_MERCY)
        rng = random.Random(n)
        while match.phase != MATCH_OVER:
            assert match.round_no <= MAX_ROUNDS
            pending = match.round.pending_draw if match.round is not None else 0
            before = [len(h) for h in match.round.hands] if match.round is not None else []
            seat, action = choose(match, rng, stacker=True)
            events = match.apply(seat, action)
            big_stacks += sum(isinstance(e, DrawStacked) and e.total >= 20 for e in events)
            knockouts += sum(isinstance(e, KnockedOut) for e in events)
            assert not any(isinstance(e, CannotDraw | Stalemate) for e in events)
            if match.round is not None:
                check_cards(match)
            paid = [e for e in events if isinstance(e, CardsDrawn) and e.reason == "stack"]
            shuffled = [i for i, e in enumerate(events) if isinstance(e, Reshuffled)]
            if paid and shuffled and shuffled[0] < events.index(paid[-1]):
                mid_draw_reshuffles += 1
                drawer = paid[0].seat
                got = sum(len(e.positions) for e in paid)
                assert got == min(pending, 25 - before[drawer])
        if big_stacks and knockouts and mid_draw_reshuffles:
            break
    assert big_stacks and knockouts and mid_draw_reshuffles


UNLIMITED = ((2, 2), (2, 3), (3, 0))
"""(seats, n) of seeded matches without the Mercy rule whose random play ends its rounds within
UNLIMITED_ACTIONS (many others run past 100,000 actions: the hands only pass cards around)."""
UNLIMITED_ACTIONS = 20_000


def test_without_the_mercy_rule_every_card_stays_in_one_place_and_rounds_still_end() -> None:
    """Seed 003 makes the limit an option it recommends: "Si raccomanda vivamente di attivare
    l'opzione 'Eliminare i giocatori che accumulano troppe carte' [...] L'elevata quantità di
    carte speciali può altrimenti bloccare la partita molto rapidamente o può portare
    all'esaurimento delle carte disponibili nel mazzo". Without it the piles run dry and a
    round runs long; seeded matches keep every card in one place, end, and replay."""
    rules = NO_MERCY.replace(max_hand=None)
    for seats, n in UNLIMITED:
        seed = b"dry-%d" % n
        match = play_match(rules, seats, seed, n, n % 2 == 1, max_actions=UNLIMITED_ACTIONS)
        assert match.phase == MATCH_OVER
        assert Match.replay(rules, seats, seed, match.log).state() == match.state()
