"""Property tests: random legal games under random rules, the engine's invariants at every step.

Each hypothesis example sets a table (2-10 seats, a seed, a random combination of the options
the engine implements that `RuleSet.check_table` accepts) and plays it with random actions drawn
from every seat's legal actions (in turn and out of turn: CallUno, Catch) plus occasional host
Expire. After every action `GameChecker` holds (DESIGN.md, "The engine"):

- every card id of the manifest is in exactly one place: the draw pile, the discard pile, a hand;
- exactly one phase, consistent with the pending decision; the pending seat always has a move;
- no view holds another seat's card: `view(seat)` differs from the spectator's `view(None)` only
  by the own hand (and own drawn card), and the spectator sees no hand;
- events: a card id of a hidden card appears only in an event whose audience is restricted
  (CardsReceived to its drawer, ChallengeReveal to the challenger); public events name only
  face-up cards (CardPlayed, TopCardTurned, Reshuffled.cards, RoundEnded.hands, DealerDraw);
- every listed legal action applies (the chosen one, and now and then every listed one on a
  copy) and plausible wrong actions raise EngineError leaving `Match.state()` unchanged;
- replaying the log reproduces the state (at the end, and at a random point of the game);
- every round ends: no stalemate (a run of actions that moves no card), and within
  MAX_ACTIONS_PER_ROUND actions under the official rules and in the whole-match test.

Random options include combinations under which random play drifts instead of ending: with
draw_until_playable and seven or eight colours a seat that cannot play draws several cards, and
with action_finish=False a seat left with one action card can only play the numbers it draws.
Such rounds last 5,000 to 20,000+ actions even for the bot's purposeful mode (see
choose_action); they end, but the random-options test stops an example there rather than spend
its time budget on them.

A failure message carries a reproduction: rules, seats, seed and the action log.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import event as note
from hypothesis import strategies as st

from unonet import events as ev
from unonet.actions import (
    HOST,
    Accept,
    Action,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    Draw,
    Expire,
    Pass,
    Play,
    StartRound,
)
from unonet.cards import ALL_COLORS
from unonet.errors import EngineError, RulesError
from unonet.match import BETWEEN_ROUNDS, IN_ROUND, MATCH_OVER, Match
from unonet.matching import matches
from unonet.round import Phase
from unonet.rules import RuleSet
from unonet.view import View

MAX_ACTIONS_PER_ROUND = 5000
GREEDY_AFTER = 500  # actions in a round after which the random bot plays to finish

OUT_OF_TURN = (CallUno, Catch)
DECISION_PHASES = (Phase.TURN, Phase.CHOOSE_COLOR, Phase.CHALLENGE)

# Event types and the fields that name card ids. A new event type must be added here (the test
# fails on an unknown one) so that the leak check keeps covering every event.
PUBLIC_CARD_EVENTS: tuple[type[ev.Event], ...] = (
    ev.CardPlayed,
    ev.TopCardTurned,
    ev.Reshuffled,
    ev.RoundEnded,
    ev.DealerDraw,
)
PRIVATE_CARD_EVENTS: tuple[type[ev.Event], ...] = (
    ev.CardsReceived, ev.ChallengeReveal, ev.MayPlayDrawn,
)
NO_CARD_EVENTS: tuple[type[ev.Event], ...] = (
    ev.RoundStarted,
    ev.MatchEnded,
    ev.CardsDrawn,
    ev.TurnStarted,
    ev.Skipped,
    ev.DirectionChanged,
    ev.ColorChosen,
    ev.Passed,
    ev.CannotDraw,
    ev.DecisionPending,
    ev.UnoCalled,
    ev.UnoCaught,
    ev.FalseCatch,
    ev.CatchWindowClosed,
    ev.Challenged,
    ev.Penalized,
    ev.Expired,
)


PUBLIC_VIEW_FIELDS = tuple(
    f.name for f in dataclasses.fields(View) if f.name not in ("seat", "hand", "drawn_card")
)

# -- tables --------------------------------------------------------------------------------------


def rule_options() -> st.SearchStrategy[dict[str, Any]]:
    """A random combination of the options the engine implements (RULEBOOK.md section 2)."""
    return st.fixed_dictionaries(
        {
            "hand_size": st.one_of(st.just(7), st.integers(1, 12)),
            "draw_when_playable": st.sampled_from(["allowed", "forbidden"]),
            "play_after_draw": st.booleans(),
            "draw_until_playable": st.booleans(),
            "max_draws_per_turn": st.integers(1, 3),
            "wd4_policy": st.sampled_from(["challenge", "enforce", "free"]),
            "challenge_guilty_extra": st.integers(0, 2),
            "uno_penalty": st.integers(0, 6),
            "uno_auto_penalty": st.booleans(),
            "action_finish": st.booleans(),
            "scoring": st.sampled_from(["winner_collects", "lowest_wins"]),
            "target": st.integers(50, 700),
            "decks": st.integers(1, 2),
            "colors": st.integers(4, 8),
        }
    )


def playable_rules(options: dict[str, Any], seats: int) -> RuleSet | None:
    """The rule set, or None when check_table refuses the combination for `seats`."""
    try:
        rules = RuleSet(**options)
        rules.check_table(seats)
    except RulesError:
        return None
    return rules


# -- choosing actions ----------------------------------------------------------------------------


def all_legal(match: Match) -> list[tuple[int, Action]]:
    return [(seat, a) for seat in range(match.seats) for a in match.legal_actions(seat)]


def choose_action(
    match: Match,
    rng: random.Random,
    expire_rate: float,
    *,
    greedy: bool = False,
    legal: list[tuple[int, Action]] | None = None,
) -> tuple[int, Action]:
    """A random legal action of any seat, or the host's StartRound/Expire.

    Out-of-turn actions (CallUno, Catch) are taken a fifth of the time they are available. The
    pending seat plays a card (each card as likely, then one of its colour and UNO variants)
    85% of the time it can, else draws or passes, and calls UNO with its next-to-last card 80%
    of the time. A uniform choice among the legal actions would draw far more often than a
    player does, and rounds would last thousands of actions; under some options (eight colours
    and draw_until_playable, say) even this bot's hands grow without end, so past GREEDY_AFTER
    actions in a round it turns `greedy`: it plays whenever it can, always calls UNO, never
    catches and the host never expires. A true stalemate still shows: nothing ends it.
    """
    if match.phase == BETWEEN_ROUNDS:
        return HOST, StartRound()
    if not greedy and rng.random() < expire_rate:
        return HOST, Expire()
    if legal is None:
        legal = all_legal(match)
    extra = [(s, a) for s, a in legal if isinstance(a, OUT_OF_TURN)]
    if extra and not greedy and rng.random() < 0.2:
        return rng.choice(extra)
    plays: dict[int, list[tuple[int, Action]]] = {}
    others: list[tuple[int, Action]] = []
    for seat, action in legal:
        if isinstance(action, Play):
            plays.setdefault(action.card, []).append((seat, action))
        elif not isinstance(action, OUT_OF_TURN):
            others.append((seat, action))
    if plays and greedy:
        return purposeful_play(match, plays, others)
    if plays and (not others or rng.random() < 0.85):
        variants = rng.choice(list(plays.values()))
        calls = [(s, a) for s, a in variants if isinstance(a, Play) and a.uno]
        if calls and (greedy or rng.random() < 0.8):
            return rng.choice(calls)
        return rng.choice(variants)
    if others:
        return rng.choice(others)
    return rng.choice(legal)  # cannot happen: the pending seat always has a move (checked)


def purposeful_play(
    match: Match, plays: dict[int, list[tuple[int, Action]]], others: list[tuple[int, Action]]
) -> tuple[int, Action]:
    """A player's choice: a card of the colour held most (keeping a wild, or a number under
    action_finish=False, for the end), a wild naming that colour, always with UNO.

    Under action_finish=False a seat left with action cards only cannot go out, and with the
    drawn-card lock it would play every number it draws: it keeps the drawn number instead.
    """
    rnd = match.round
    assert rnd is not None
    seat = rnd.current
    faces = {card: match.manifest.face(card) for card in rnd.hands[seat]}
    passes = [(s, a) for s, a in others if isinstance(a, Pass)]
    if rnd.drawn_card is not None and passes and not match.rules.action_finish:
        rest = [faces[c] for c in rnd.hands[seat] if c != rnd.drawn_card]
        if all(face.is_action for face in rest):
            return passes[0]
    held = Counter(face.color for face in faces.values() if face.color is not None)

    def rank(card: int) -> tuple[bool, int, int]:
        face = faces[card]
        # Keep a wild for the last card, or a number when an action may not be the last card.
        keep = face.is_wild if match.rules.action_finish else not face.is_action
        return (keep, -held[face.color], card)

    card = min(plays, key=rank)
    best = max(rnd.colors, key=lambda color: (held[color], -rnd.colors.index(color)))
    variants = [(s, a) for s, a in plays[card] if isinstance(a, Play)]
    variants.sort(key=lambda sa: (not sa[1].uno, sa[1].color not in (None, best)))  # type: ignore[union-attr]
    return variants[0]


def wrong_actions(match: Match, rng: random.Random) -> list[tuple[int, Action]]:
    """Plausible actions that are not legal now (each is filtered against legal_actions)."""
    seats = match.seats
    deck = len(match.manifest)
    out: list[tuple[int, Action]] = [
        (seats, Draw()),  # an unknown seat
        (rng.randrange(seats), Challenge()),
        (rng.randrange(seats), Accept()),
        (rng.randrange(seats), Pass()),
        (rng.randrange(seats), Draw()),
        (rng.randrange(seats), CallUno()),
        (rng.randrange(seats), ChooseColor(rng.choice(ALL_COLORS))),
        (rng.randrange(seats), Play(rng.randrange(deck))),
    ]
    seat = rng.randrange(seats)
    out.append((seat, Catch(seat)))
    out.append((seat, Catch(rng.randrange(seats))))
    if match.phase == IN_ROUND:
        out.append((HOST, StartRound()))
    else:
        out.append((HOST, Expire()))
        out.append((rng.randrange(seats), Play(rng.randrange(deck), uno=True)))
    rnd = match.round
    if rnd is not None and match.phase == IN_ROUND:
        cur = rnd.current
        hand = rnd.hands[seat]
        others = [c for c in range(deck) if c not in hand]
        out.append((seat, Play(rng.choice(others))))  # a card not in hand
        if hand:
            card = rng.choice(hand)
            face = match.manifest.face(card)
            color = rng.choice(ALL_COLORS) if face.is_wild else None
            out.append((seat, Play(card, color)))  # maybe out of turn
            out.append((seat, Play(card, color, also=(card,))))  # sequences are off
        cur_hand = rnd.hands[cur]
        for card in cur_hand:
            face = match.manifest.face(card)
            top = match.manifest.face(rnd.discard[-1])
            if not matches(face, top, rnd.active_color):
                out.append((cur, Play(card)))  # an unplayable card
                break
        if cur_hand:
            card = rng.choice(cur_hand)
            face = match.manifest.face(card)
            if face.is_wild:
                out.append((cur, Play(card)))  # a wild without a colour
                out.append((cur, Play(card, ALL_COLORS[-1])))  # maybe a colour not in the deck
            else:
                out.append((cur, Play(card, ALL_COLORS[0])))  # a colour on a non-wild
            if len(cur_hand) != 2:
                out.append((cur, Play(card, rng.choice(ALL_COLORS), uno=True)))
        out.append((cur, Pass()))  # before drawing, usually
        out.append((cur, Draw()))  # after drawing, or while holding a playable card
        out.append(((cur + 1) % seats, Draw()))  # out of turn
        for target in range(seats):
            if target not in rnd.catchable:
                out.append(((target + 1) % seats, Catch(target)))
                break
    legal = {seat: match.legal_actions(seat) for seat in range(-1, seats)}
    return [(s, a) for s, a in out if s not in legal or a not in legal[s]]


def fingerprint(match: Match) -> tuple[Any, ...]:
    """A cheap summary of the state (Match.state() is the full one), for many comparisons."""
    rnd = match.round
    head = (
        match.phase,
        match.round_no,
        match.dealer,
        match.winner,
        tuple(match.scores),
        len(match.log),
    )
    if rnd is None:
        return head
    return (
        *head,
        tuple(tuple(h) for h in rnd.hands),
        tuple(rnd.draw_pile),
        tuple(rnd.discard),
        rnd.phase,
        rnd.current,
        rnd.direction,
        rnd.active_color,
        rnd.turn_serial,
        rnd.drawn_card,
        rnd.draws_this_turn,
        rnd.wd4_player,
        rnd.wd4_hand,
        rnd.epoch,
        frozenset(rnd.uno_called),
        tuple(sorted(rnd.catchable.items())),
        rnd.winner,
    )


# -- the checker ---------------------------------------------------------------------------------


@dataclasses.dataclass
class Before:
    """What the event checks need of the state before an action."""

    hands: list[set[int]]
    discard: set[int]


class GameChecker:
    """Plays one match with random actions and checks the invariants after each action."""

    def __init__(
        self,
        rules: RuleSet,
        seats: int,
        seed: bytes,
        rng: random.Random,
        *,
        expire_rate: float = 0.02,
        wrong_rate: float = 0.2,
        copy_rate: float = 0.02,
        strict: bool = True,
        views: bool = True,
    ) -> None:
        self.rules = rules
        self.seats = seats
        self.seed = seed
        self.rng = rng
        self.expire_rate = expire_rate
        self.wrong_rate = wrong_rate
        self.copy_rate = copy_rate
        self.strict = strict
        self.views = views
        self.quiet = 0  # actions in a row that moved no card
        self.legal: list[tuple[int, Action]] | None = None  # every seat's, after the last action
        self.match = Match(rules, seats, seed)
        self.deck = len(self.match.manifest)
        self.actions_this_round = 0
        self.rounds = 0
        self.snapshot: tuple[int, dict[str, Any]] | None = None

    def where(self) -> str:
        """The reproduction printed with a failure."""
        return (
            f"\nrules={self.rules.differences()!r}\nseats={self.seats} seed={self.seed!r}"
            f"\nlog ({len(self.match.log)} actions)={self.match.log!r}"
        )

    def play(self, max_rounds: int | None = None) -> None:
        """Play until the match ends (or `max_rounds` rounds are over)."""
        match = self.match
        self.check_state()
        while match.phase != MATCH_OVER:
            done = max_rounds is not None and self.rounds >= max_rounds
            if match.phase == BETWEEN_ROUNDS and done:
                break
            if self.actions_this_round >= MAX_ACTIONS_PER_ROUND:
                assert not self.strict, "the round never ends" + self.where()
                note("a round cut at MAX_ACTIONS_PER_ROUND (no stalemate)")
                break
            self.step()
        self.check_replay()

    def step(self) -> None:
        match = self.match
        rng = self.rng
        if rng.random() < self.wrong_rate:
            self.check_wrong_actions()
        if rng.random() < self.copy_rate:
            self.check_every_legal_action_applies()
        if self.snapshot is None and rng.random() < 0.01:
            self.snapshot = (len(match.log), match.state())
        greedy = self.actions_this_round >= GREEDY_AFTER
        seat, action = choose_action(match, rng, self.expire_rate, greedy=greedy, legal=self.legal)
        rnd = match.round
        before = Before(
            hands=[set(h) for h in rnd.hands] if rnd else [set() for _ in range(self.seats)],
            discard=set(rnd.discard) if rnd else set(),
        )
        if isinstance(action, StartRound):
            self.rounds += 1
            self.actions_this_round = 0
        events = match.apply(seat, action)  # a listed action must apply
        self.actions_this_round += 1
        if any(isinstance(e, ev.CardPlayed | ev.CardsDrawn) for e in events):
            self.quiet = 0
        else:
            self.quiet += 1
        assert self.quiet < 4 * self.seats + 10, "stalemate: no card moves" + self.where()
        self.check_events(seat, action, events, before)
        self.check_state()

    # -- the invariants ------------------------------------------------------------------------

    def check_state(self) -> None:
        match = self.match
        rnd = match.round
        self.legal = None
        assert match.phase in (BETWEEN_ROUNDS, IN_ROUND, MATCH_OVER)
        if match.phase != IN_ROUND:
            assert rnd is None or rnd.phase is Phase.ROUND_OVER, self.where()
            assert match.pending_seat is None
            for seat in range(match.seats):
                assert match.legal_actions(seat) == [], self.where()
            host = [StartRound()] if match.phase == BETWEEN_ROUNDS else []
            assert match.legal_actions(HOST) == host
            assert (match.winner is not None) == (match.phase == MATCH_OVER)
        else:
            assert rnd is not None
            assert rnd.phase in DECISION_PHASES, self.where()
            assert match.pending_seat == rnd.current
            assert match.legal_actions(HOST) == [Expire()]
            self.check_decision(rnd)
        if rnd is not None:
            self.check_cards(rnd)
        if self.views:
            self.check_views()

    def check_cards(self, rnd: Any) -> None:
        """Every card id in exactly one place."""
        places = Counter(rnd.draw_pile)
        places.update(rnd.discard)
        for hand in rnd.hands:
            places.update(hand)
        assert not rnd.out
        assert sorted(places) == list(range(self.deck)), self.where()
        assert set(places.values()) == {1}, f"a card in two places {places}" + self.where()
        assert rnd.discard, "the discard pile is never empty during a round"

    def check_decision(self, rnd: Any) -> None:
        """Exactly one pending decision, on `current`, and it has a move."""
        cur = rnd.current
        assert 0 <= cur < self.seats
        assert (rnd.phase is Phase.CHALLENGE) == (rnd.wd4_player is not None), self.where()
        if rnd.drawn_card is not None:
            assert rnd.phase is Phase.TURN and rnd.drawn_card in rnd.hands[cur], self.where()
        assert 0 <= rnd.draws_this_turn <= self.rules.max_draws_per_turn, self.where()
        if rnd.phase is not Phase.CHOOSE_COLOR:
            assert rnd.active_color in rnd.colors, self.where()
        for seat in rnd.catchable:
            assert len(rnd.hands[seat]) == 1, self.where()
        for seat in rnd.uno_called:
            # One card; none for a seat whose last card, a Wild Draw Four, awaits a challenge.
            allowed = (0, 1) if seat == rnd.wd4_player else (1,)
            assert len(rnd.hands[seat]) in allowed, self.where()
        self.legal = []
        for seat in range(self.seats):
            legal = self.match.legal_actions(seat)
            self.legal += [(seat, action) for action in legal]
            decisions = [a for a in legal if not isinstance(a, OUT_OF_TURN)]
            if seat == cur:
                assert decisions, f"seat {cur} has no move" + self.where()
                kinds = {type(a) for a in decisions}
                allowed = {
                    Phase.TURN: {Play, Draw, Pass},
                    Phase.CHOOSE_COLOR: {ChooseColor},
                    Phase.CHALLENGE: {Challenge, Accept},
                }[rnd.phase]
                assert kinds <= allowed, self.where()
            else:
                assert not decisions, self.where()
            assert len(legal) == len(set(legal)), "a legal action listed twice" + self.where()

    def check_views(self) -> None:
        """No view holds another seat's card."""
        match = self.match
        rnd = match.round
        spectator = match.view(None)
        assert spectator.hand == () and spectator.drawn_card is None
        public = [getattr(spectator, f) for f in PUBLIC_VIEW_FIELDS]
        if rnd is not None and match.phase == IN_ROUND:
            assert spectator.top_card == rnd.discard[-1]
            assert [s.cards for s in spectator.seats] == [len(h) for h in rnd.hands]
        for seat in range(match.seats):
            view = match.view(seat)
            own = tuple(rnd.hands[seat]) if rnd is not None else ()
            assert view.hand == own, self.where()
            if view.drawn_card is not None:
                assert view.drawn_card in own
            # Everything else is public: the same as the spectator's view.
            assert [getattr(view, f) for f in PUBLIC_VIEW_FIELDS] == public, self.where()

    def check_events(
        self, seat: int, action: Action, events: list[ev.Event], before: Before
    ) -> None:
        """Hidden card ids only in events whose audience is restricted."""
        rnd = self.match.round
        assert rnd is not None
        face_up = set(before.discard)
        previous: ev.Event | None = None
        for event in events:
            kind = type(event)
            audience = event.audience
            if kind in NO_CARD_EVENTS:
                assert audience is None, event
            elif kind in PUBLIC_CARD_EVENTS:
                assert audience is None, event
                self.check_public_cards(event, action, before, face_up)
            elif isinstance(event, ev.CardsReceived):
                assert audience == frozenset((event.seat,)), event
                assert isinstance(previous, ev.CardsDrawn), event
                assert (previous.seat, previous.positions) == (event.seat, event.positions)
                assert len(event.cards) == len(event.positions)
                assert set(event.cards) <= set(rnd.hands[event.seat]), event
            elif isinstance(event, ev.MayPlayDrawn):
                assert audience == frozenset((event.seat,)), event
                assert event.card in rnd.hands[event.seat], event
            elif isinstance(event, ev.ChallengeReveal):
                assert audience == frozenset((event.challenger,)), event
                assert isinstance(previous, ev.Challenged), event
                assert (previous.challenger, previous.target) == (event.challenger, event.target)
                assert set(event.cards) <= before.hands[event.target], event
            else:
                raise AssertionError(f"unknown event type {kind.__name__}: classify it here")
            previous = event

    def check_public_cards(
        self, event: ev.Event, action: Action, before: Before, face_up: set[int]
    ) -> None:
        rnd = self.match.round
        assert rnd is not None
        if isinstance(event, ev.CardPlayed):
            assert event.card in before.hands[event.seat], event
            face_up.add(event.card)
        elif isinstance(event, ev.TopCardTurned):
            assert isinstance(action, StartRound), event
            face_up.add(event.card)
        elif isinstance(event, ev.Reshuffled):
            if event.reason == "empty_pile":
                assert len(event.cards) == len(event.sources)
                assert set(event.cards) <= face_up, f"reshuffle names hidden cards: {event}"
                face_up.difference_update(event.cards)
            else:
                assert event.cards == (), event
        elif isinstance(event, ev.RoundEnded):
            assert rnd.phase is Phase.ROUND_OVER
            assert event.hands == tuple(tuple(h) for h in rnd.hands), event
        elif isinstance(event, ev.DealerDraw):
            assert isinstance(action, StartRound) and self.match.round_no == 1, event
            assert all(0 <= card < self.deck for _, card in event.draws)

    # -- legal and illegal actions ---------------------------------------------------------------

    def check_wrong_actions(self) -> None:
        """A few wrong actions: each raises EngineError and leaves the state as it was."""
        match = self.match
        wrong = wrong_actions(match, self.rng)
        state = match.state()
        for seat, action in self.rng.sample(wrong, min(len(wrong), 4)):
            quick = fingerprint(match)
            try:
                match.apply(seat, action)
            except EngineError:
                pass
            else:
                raise AssertionError(f"{action} of seat {seat} was accepted" + self.where())
            assert fingerprint(match) == quick, f"{action} of {seat} changed it" + self.where()
        assert match.state() == state, "a refused action changed the state" + self.where()

    def check_every_legal_action_applies(self) -> None:
        """Listed actions of every seat (and the host) apply, each on its own copy: all of
        them, or a sample of four when there are more."""
        match = self.match
        legal = [(seat, a) for seat in range(-1, match.seats) for a in match.legal_actions(seat)]
        for seat, action in self.rng.sample(legal, min(len(legal), 4)):
            # Shared: the immutable rules and manifest; not copied: the log (a new one).
            memo = {
                id(match.rules): match.rules,
                id(match.manifest): match.manifest,
                id(match.log): [],
            }
            clone = copy.deepcopy(match, memo)
            clone.apply(seat, action)

    def check_replay(self) -> None:
        match = self.match
        replayed = Match.replay(self.rules, self.seats, self.seed, match.log)
        assert replayed.state() == match.state(), "replay differs" + self.where()
        assert replayed.view(None) == match.view(None)
        if self.snapshot is not None:
            length, state = self.snapshot
            prefix = Match.replay(self.rules, self.seats, self.seed, match.log[:length])
            assert prefix.state() == state, f"replay of {length} actions differs" + self.where()


# -- the properties ------------------------------------------------------------------------------


@settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(
    seats=st.integers(2, 10),
    seed=st.binary(min_size=1, max_size=8),
    options=rule_options(),
    choices=st.integers(0, 2**32),
    rounds=st.integers(1, 2),
)
def test_random_games_keep_the_invariants(
    seats: int, seed: bytes, options: dict[str, Any], choices: int, rounds: int
) -> None:
    rules = playable_rules(options, seats)
    assume(rules is not None)
    assert rules is not None
    checker = GameChecker(rules, seats, seed, random.Random(choices), strict=False)
    checker.play(max_rounds=rounds)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seats=st.integers(2, 10), seed=st.binary(min_size=1, max_size=8), choices=st.integers(0))
def test_official_rules_whole_matches(seats: int, seed: bytes, choices: int) -> None:
    """The official rules, whole matches to 500, fewer of the costly checks."""
    checker = GameChecker(
        RuleSet(), seats, seed, random.Random(choices), wrong_rate=0.05, copy_rate=0.005
    )
    checker.play()
    assert checker.match.phase == MATCH_OVER


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seats=st.integers(2, 10),
    seed=st.binary(min_size=1, max_size=8),
    options=rule_options(),
    choices=st.integers(0, 2**32),
)
def test_many_random_rounds_light(
    seats: int, seed: bytes, options: dict[str, Any], choices: int
) -> None:
    """More games, the cheaper checks: cards, phases, events, moves, replay, termination."""
    rules = playable_rules(options, seats)
    assume(rules is not None)
    assert rules is not None
    checker = GameChecker(
        rules,
        seats,
        seed,
        random.Random(choices),
        wrong_rate=0,
        copy_rate=0,
        strict=False,
        views=False,
    )
    checker.play(max_rounds=2)


def test_listed_actions_of_an_unknown_seat_are_none() -> None:
    """legal_actions of a seat that does not exist lists nothing: apply refuses it anyway.

    Checked while a seat is catchable, when every seat's list holds a Catch."""
    for key in range(100):
        match = Match(RuleSet(hand_size=2), 3, bytes([key]))
        match.start_round()
        seat = match.pending_seat
        assert seat is not None
        plays = [a for a in match.legal_actions(seat) if isinstance(a, Play) and not a.uno]
        if not plays or match.pending_seat is None:
            continue
        match.apply(seat, plays[0])
        if match.round is None or not match.round.catchable:
            continue
        for other in (3, 7, -2):
            assert match.legal_actions(other) == [], other
            state = match.state()
            for action in (Draw(), Catch(seat)):
                try:
                    match.apply(other, action)
                except EngineError:
                    pass
                else:
                    raise AssertionError(f"unknown seat {other} acted")
                assert match.state() == state
        return
    raise AssertionError("no catchable seat in 100 deals")


# -- whole matches, scores -----------------------------------------------------------------------


def play_fast(match: Match, rng: random.Random) -> list[ev.RoundEnded]:
    """Random legal play of every seat to the end of the match; the RoundEnded events."""
    ended: list[ev.RoundEnded] = []
    actions = 0
    while match.phase != MATCH_OVER:
        if match.phase == BETWEEN_ROUNDS:
            events = match.start_round()
            actions = 0
        else:
            seat, action = choose_action(match, rng, 0.01, greedy=actions >= GREEDY_AFTER)
            events = match.apply(seat, action)
            actions += 1
            assert actions < MAX_ACTIONS_PER_ROUND
        ended += [e for e in events if isinstance(e, ev.RoundEnded)]
    return ended


def test_scores_of_300_random_matches() -> None:
    rng = random.Random(20240611)
    for game in range(300):
        seats = rng.randint(2, 10)
        rules = RuleSet(
            scoring=rng.choice(["winner_collects", "lowest_wins"]),
            target=rng.choice([50, 100, 200, 500]),
        )
        match = Match(rules, seats, game.to_bytes(4, "big"))
        ended = play_fast(match, rng)
        winner = match.winner
        assert winner is not None and ended
        totals = [sum(e.points[s] for e in ended) for s in range(seats)]
        assert totals == match.scores == list(ended[-1].scores)
        assert len(ended) == match.round_no
        assert max(match.scores) >= rules.target
        for e in ended:
            hands = [sum(match.manifest.face(c).points for c in h) for h in e.hands]
            assert e.winner is not None and e.hands[e.winner] == ()
            if rules.scoring == "winner_collects":
                assert e.points == tuple(sum(hands) if s == e.winner else 0 for s in range(seats))
            else:
                assert e.points == tuple(hands)
        if rules.scoring == "winner_collects":
            assert match.scores[winner] >= rules.target
            assert match.scores[winner] == max(match.scores)
            assert sum(1 for e in ended if e.winner == winner) >= 1
        else:
            assert match.scores[winner] == min(match.scores)
