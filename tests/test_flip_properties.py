"""Property tests of UNO Flip (issue 14): random legal Flip matches under random options that
combine with Flip, checking after every action that

- the 112 cards are all there, each in exactly one place, across flips, reshuffles, hand
  passes and knock-outs;
- every view (each seat's and a spectator's) shows the other side of every card in every hand
  and of the draw pile's top, and of another seat's cards nothing else: no id, so not their
  active side;
- replaying the log rebuilds the same state;
- every round ends (within MAX_ACTIONS_PER_ROUND actions).

A failure message carries the reproduction: options, seats, seed and the action log.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from flip_scenario import FLIP_RULES, flip_deal, flip_match, replay_flip_match
from hypothesis import HealthCheck, given, settings
from hypothesis import event as note
from hypothesis import strategies as st

from unonet.actions import HOST, Action, CallUno, Catch, Expire, Play, StartRound
from unonet.cards import Face
from unonet.events import (
    CardPlayed,
    CardsReceived,
    ChallengeReveal,
    DarkFacesShown,
    Event,
    Flipped,
    OtherSidesShown,
    PileOtherSideShown,
    Position,
    RoundStarted,
    TopCardTurned,
)
from unonet.flip import other_side
from unonet.flip_deck import DARK, FLIP_DECK_SIZE
from unonet.match import BETWEEN_ROUNDS, IN_ROUND, MATCH_OVER, Match
from unonet.phase import Phase
from unonet.rules import RulesError, RuleSet
from unonet.view import observe

MAX_ACTIONS_PER_ROUND = 3000
GREEDY_AFTER = 400  # actions in a round after which the bot plays whenever it can
ROUNDS = 3  # rounds played per example at most

FLIP_OPTIONS: dict[str, st.SearchStrategy[Any]] = {
    "hand_size": st.one_of(st.just(7), st.integers(1, 10)),
    "stacking": st.sampled_from(["off", "same_kind", "escalating"]),
    "deflect": st.booleans(),
    "jump_in": st.sampled_from(["off", "identical", "same_face"]),
    "seven_zero": st.booleans(),
    "sequences": st.booleans(),
    "multiples": st.booleans(),
    "uno_penalty": st.integers(0, 4),
    "uno_auto_penalty": st.booleans(),
    "wd4_policy": st.sampled_from(["challenge", "enforce", "free"]),
    "challenge_guilty_extra": st.integers(0, 2),
    "draw_when_playable": st.sampled_from(["allowed", "forbidden"]),
    "play_after_draw": st.booleans(),
    "max_hand": st.one_of(st.none(), st.integers(15, 30)),
    "scoring": st.sampled_from(["winner_collects", "lowest_wins", "elimination"]),
    "target": st.integers(50, 300),
    "flip_passes_hands": st.booleans(),
}


def flip_rules(options: dict[str, Any], seats: int) -> RuleSet | None:
    try:
        rules = FLIP_RULES.replace(**options)
        rules.check_table(seats)
    except RulesError:
        return None
    return rules


def choose(match: Match, rng: random.Random, greedy: bool) -> tuple[int, Action]:
    """A random legal action: the pending seat plays a card most of the time it can (with UNO
    when it may), other seats now and then call, catch or jump in, the host now and then lets a
    timer expire. Past GREEDY_AFTER actions in a round: play whenever possible."""
    if match.phase == BETWEEN_ROUNDS:
        return HOST, StartRound()
    if not greedy and rng.random() < 0.03:
        return HOST, Expire()
    legal = [(s, a) for s in range(match.seats) for a in match.legal_actions(s)]
    cur = match.pending_seat
    extra = [(s, a) for s, a in legal
             if isinstance(a, CallUno | Catch) or (isinstance(a, Play) and s != cur)]
    if extra and not greedy and rng.random() < 0.15:
        return rng.choice(extra)
    mine = [(s, a) for s, a in legal if s == cur and not isinstance(a, CallUno | Catch)]
    plays = [(s, a) for s, a in mine if isinstance(a, Play)]
    if plays and (greedy or rng.random() < 0.85 or len(plays) == len(mine)):
        calls = [(s, a) for s, a in plays if isinstance(a, Play) and a.uno]
        return rng.choice(calls if calls and (greedy or rng.random() < 0.8) else plays)
    if mine:
        return rng.choice(mine)
    return (rng.choice(legal) if legal else (HOST, Expire()))


def check_cards(match: Match) -> None:
    rnd = match.round
    assert rnd is not None
    places = [c for hand in rnd.hands for c in hand] + rnd.draw_pile + rnd.discard
    assert sorted(places) == list(range(FLIP_DECK_SIZE)), "a card is lost or in two places"


def check_views(match: Match) -> None:
    rnd = match.round
    assert rnd is not None
    hidden = other_side(rnd.side)
    face = rnd.manifest.face
    expected = [Counter(face(c, hidden) for c in hand) for hand in rnd.hands]
    pile_top = face(rnd.draw_pile[-1], hidden) if rnd.draw_pile else None
    for viewer in (None, *range(match.seats)):
        seen = observe(match, viewer)
        assert seen.side == rnd.side
        # every hand's other side, but the viewer's own, which faces away from its player
        assert [Counter(s.other_sides) for s in seen.seats] == [
            Counter() if seat == viewer else row for seat, row in enumerate(expected)]
        assert seen.pile_other_side == pile_top
        own = tuple(rnd.hands[viewer]) if viewer is not None else ()
        assert seen.hand == own  # no other seat's card id: not their active side
        assert seen.seat == viewer


class ShownSides:
    """What a client learns of the other sides from the events alone (a row per seat, the
    pile's top), to hold against the engine's state after every step."""

    def __init__(self, seats: int) -> None:
        self.rows: list[dict[Position, Face]] = [{} for _ in range(seats)]
        self.pile: tuple[Position | None, Face | None] = (None, None)
        self.dark: dict[int | None, dict[int, Face]] = {s: {} for s in (None, *range(seats))}
        self.played: set[int] = set()  # cards put face up this round
        self.received: dict[int, set[int]] = {s: set() for s in range(seats)}  # or revealed

    def follow(self, events: list[Event]) -> None:
        for event in events:
            if isinstance(event, RoundStarted):
                self.rows = [{} for _ in self.rows]
                self.dark = {s: {} for s in self.dark}
                self.played = set()
                self.received = {s: set() for s in self.received}
            elif isinstance(event, CardsReceived):
                self.received[event.seat].update(event.cards)
            elif isinstance(event, ChallengeReveal):
                self.received[event.challenger].update(event.cards)
            elif isinstance(event, CardPlayed | TopCardTurned):
                self.played.add(event.card)
            elif isinstance(event, Flipped):
                self.played.add(event.top)
            elif isinstance(event, DarkFacesShown):
                for seat in self.dark if event.seat is None else (event.seat,):
                    self.dark[seat].update(zip(event.cards, event.faces, strict=True))
            elif isinstance(event, OtherSidesShown):
                assert list(event.positions) == sorted(event.positions)
                self.rows[event.seat] = dict(zip(event.positions, event.faces, strict=True))
            elif isinstance(event, PileOtherSideShown):
                self.pile = (event.position, event.face)

    def ever_held(self, viewer: int | None) -> set[int]:
        return set() if viewer is None else self.received[viewer]

    def check(self, match: Match) -> None:
        rnd = match.round
        assert rnd is not None
        hidden = other_side(rnd.side)
        for seat, hand in enumerate(rnd.hands):
            assert self.rows[seat] == {
                rnd.origin[c]: rnd.manifest.face(c, hidden) for c in hand
            }, f"seat {seat}'s shown row is not its hand's other side"
        for viewer, told in self.dark.items():
            seen = observe(match, viewer)
            assert dict(seen.dark_faces) == told, "the view's dark faces are not what was told"
            for card, face in told.items():
                assert rnd.manifest.face(card, DARK) == face
            held = set(rnd.hands[viewer]) if viewer is not None else set()
            # Nothing but what the observer holds, and cards face up: never another hand's
            # dark face while the round is on.
            if rnd.phase is not Phase.ROUND_OVER:
                assert set(told) <= held | self.played | set(rnd.discard) | self.ever_held(viewer)
        top = rnd.draw_pile[-1] if rnd.draw_pile else None
        assert self.pile == (
            (None, None) if top is None else (rnd.origin[top], rnd.manifest.face(top, hidden))
        )


def play_match(rules: RuleSet, seats: int, seed: bytes, rng_seed: int) -> Match:
    match = flip_match(seats, seed, rules)
    rng = random.Random(rng_seed)
    shown = ShownSides(match.seats)
    in_round = 0
    while match.phase != MATCH_OVER and match.round_no <= ROUNDS:
        if match.phase == BETWEEN_ROUNDS and match.round_no == ROUNDS:
            break
        seat, action = choose(match, rng, greedy=in_round > GREEDY_AFTER)
        events = match.apply(seat, action)
        shown.follow(events)
        in_round = 0 if match.phase != IN_ROUND else in_round + 1
        assert in_round < MAX_ACTIONS_PER_ROUND, "the round does not end"
        if any(isinstance(e, Flipped) for e in events):
            note("flipped")
        if match.round is not None:
            check_cards(match)
            check_views(match)
            shown.check(match)
            if match.round.phase is Phase.ROUND_OVER and match.round.side == DARK:
                note("a round ended on the dark side")
    return match


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    options=st.fixed_dictionaries(FLIP_OPTIONS),
    seats=st.integers(2, 6),
    seed=st.binary(min_size=1, max_size=8),
    rng_seed=st.integers(0, 2**32 - 1),
)
def test_random_flip_matches_keep_every_card_show_only_the_other_side_and_replay(
    options: dict[str, Any], seats: int, seed: bytes, rng_seed: int
) -> None:
    rules = flip_rules(options, seats)
    if rules is None:
        return
    match = play_match(rules, seats, seed, rng_seed)
    replayed = replay_flip_match(rules, seats, seed, match.log)
    assert replayed.state() == match.state(), (options, seats, seed, match.log)
    assert replayed.manifest == match.manifest


def test_the_official_flip_rules_play_whole_rounds_that_flip_and_end_on_either_side() -> None:
    """Under the official options (preset `flip`), rounds end, flip, and end on both sides."""
    sides = set()
    flips = 0
    for n in range(12):
        match = flip_match(4, b"flip-%d" % n)
        rng = random.Random(n)
        match.start_round()
        actions = 0
        while match.phase == IN_ROUND:
            seat, action = choose(match, rng, greedy=actions > GREEDY_AFTER)
            flips += sum(isinstance(e, Flipped) for e in match.apply(seat, action))
            actions += 1
            assert actions < MAX_ACTIONS_PER_ROUND
        assert match.round is not None
        sides.add(match.round.side)
        check_cards(match)
    assert flips > 0
    assert sides == {0, 1}


def test_a_view_of_a_fresh_deal_shows_the_dark_faces_of_every_hand_and_of_the_pile_top() -> None:
    match = flip_deal([["red 1/orange 1", "red 2/pink 2"], ["blue 1/cyan 5", "Wild/Wild"]],
                      top="yellow 3", draws=["green 4/purple Flip"])
    rows = [["orange 1", "pink 2"], ["cyan 5", "Wild"]]
    for viewer in (None, 0, 1):
        seen = observe(match, viewer)
        assert [[f.name for f in s.other_sides] for s in seen.seats] == [
            [] if seat == viewer else row for seat, row in enumerate(rows)]  # not our own
        assert seen.pile_other_side is not None
        assert seen.pile_other_side.name == "purple Flip"
        assert seen.side == 0
    assert observe(match, None).hand == ()
