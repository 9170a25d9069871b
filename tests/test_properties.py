"""Property tests: random legal games under random rules, the engine's invariants at every step.

Each hypothesis example sets a table (2-10 seats, a seed, a random combination of the options
the engine implements that `RuleSet.check_table` accepts, the house rules of RULEBOOK.md section 2
included: stacking, stack_mix_wild, deflect, jump_in, sequences, multiples, multi_finish,
seven_zero, buzzers, max_hand, max_hand_penalty, elimination, max_rounds, teams) and plays it with
random actions drawn from every seat's legal actions (in turn and out of turn: CallUno, Catch,
jump-ins, the next card of a run, Buzz) plus occasional host Expire. After every action
`GameChecker` holds (DESIGN.md, "The engine"):

- every card id of the manifest is in exactly one place: the draw pile, the discard pile, a hand;
  a seat out of the round (knocked out, eliminated) holds nothing (its cards went under the pile);
- exactly one phase, consistent with the pending decision; one decision at a time: the pending
  seat (every seat still waiting, in a buzzer race) has a move of the kinds its phase allows, and
  nobody else has one but the out-of-turn plays the rules allow (a jump-in under `jump_in`, the
  next card of one's own run under `sequences`), checked against the top card independently;
- no view holds another seat's card: `view(seat)` differs from the spectator's `view(None)` only
  by the own hand (and own drawn card), and the spectator sees no hand;
- events: a card id of a hidden card appears only in an event whose audience is restricted
  (CardsReceived to its drawer or new owner, ChallengeReveal to the challenger, MayPlayDrawn to
  its drawer); public events name only face-up cards (CardPlayed, TopCardTurned,
  Reshuffled.cards, RoundEnded.hands, DealerDraw), positions (HandsMoved, CardsReturned), or
  the card its owner just tried to play out of turn (JumpInRefused);
- every listed legal action applies (the chosen one, and now and then every listed one on a
  copy) and plausible wrong actions raise EngineError leaving `Match.state()` unchanged;
- replaying the log reproduces the state (at the end, and at a random point of the game);
- every round ends: no stalemate (a run of actions that moves no card), and within
  MAX_ACTIONS_PER_ROUND actions under the official rules, in the whole-match test and in whole
  matches under the house rules (an empty pile, a hand limit and a pending stack included).

Random options include combinations under which random play drifts instead of ending: with
draw_until_playable and seven or eight colours a seat that cannot play draws several cards, and
with action_finish=False a seat left with one action card can only play the numbers it draws.
Such rounds last 5,000 to 20,000+ actions even for the bot's purposeful mode (see
choose_action); they end, but the random-options test stops an example there rather than spend
its time budget on them.

A failure message carries a reproduction: rules, seats, seed and the action log.
"""

from __future__ import annotations

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
    Buzz,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    ChooseTarget,
    Draw,
    Expire,
    Pass,
    Play,
    StartRound,
)
from unonet.cards import ALL_COLORS, Color, Kind
from unonet.errors import EngineError, RulesError
from unonet.match import BETWEEN_ROUNDS, IN_ROUND, MATCH_OVER, Match
from unonet.matching import matches
from unonet.options import DECLARED
from unonet.phase import DECISIONS
from unonet.round import Phase
from unonet.rules import RuleSet
from unonet.view import View

MAX_ACTIONS_PER_ROUND = 5000
GREEDY_AFTER = 500  # actions in a round after which the random bot plays to finish

OUT_OF_TURN = (CallUno, Catch)
ROUND_PHASES = (Phase.TURN, *sorted(DECISIONS))
# What the deciders of each phase may do (besides CallUno and Catch, open to anyone).
DECIDER_ACTIONS: dict[Phase, set[type]] = {
    Phase.TURN: {Play, Draw, Pass},
    Phase.CHOOSE_COLOR: {ChooseColor},
    Phase.CHALLENGE: {Challenge, Accept, Play},  # Play: stacking on the +4, or deflecting it
    Phase.STACK: {Play, Accept},
    Phase.CHOOSE_TARGET: {ChooseTarget},
    Phase.BUZZER: {Buzz},
}
NOT_IDENTICAL = (Kind.BUZZER, Kind.WILD_DRAW_FOUR)

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
POSITION_EVENTS: tuple[type[ev.Event], ...] = (ev.HandsMoved, ev.CardsReturned)
"""Public, and naming positions only: the ids go to each new owner in CardsReceived."""
SHOWN_BY_OWNER: tuple[type[ev.Event], ...] = (ev.JumpInRefused,)
"""Public, naming the card its owner just tried to play out of turn (it stays in the hand)."""
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
    ev.DrawStacked,
    ev.DrawDeflected,
    ev.JumpedIn,
    ev.BuzzerOpened,
    ev.Buzzed,
    ev.BuzzerClosed,
    ev.KnockedOut,
    ev.Stalemate,
    ev.SeatEliminated,
)
MOVES_CARDS = (ev.CardPlayed, ev.CardsDrawn, ev.HandsMoved, ev.CardsReturned)
NOTED = (
    ev.DrawStacked, ev.DrawDeflected, ev.JumpedIn, ev.JumpInRefused, ev.HandsMoved,
    ev.BuzzerClosed, ev.KnockedOut, ev.Stalemate, ev.SeatEliminated, ev.CannotDraw,
)
"""House-rule events counted in hypothesis' statistics: what the random games reached."""


PUBLIC_VIEW_FIELDS = tuple(
    f.name for f in dataclasses.fields(View) if f.name not in ("seat", "hand", "drawn_card")
)

# -- tables --------------------------------------------------------------------------------------


OFFICIAL_OPTIONS: dict[str, st.SearchStrategy[Any]] = {
    option.name: st.sampled_from(option.trial) for option in DECLARED if option.trial
}
"""The options of the official game that change how it is played, each drawn from its
declaration's `trial` values (unonet/options.py)."""


def rule_options() -> st.SearchStrategy[dict[str, Any]]:
    """A random combination of the options of the official game (RULEBOOK.md section 2);
    `house_rule_options` draws the house rules on top."""
    return st.fixed_dictionaries(OFFICIAL_OPTIONS)


HOUSE_RULES: dict[str, st.SearchStrategy[Any]] = {
    option.name: st.sampled_from(option.house_trial) for option in DECLARED if option.house_trial
}
"""Every house rule (RULEBOOK.md section 2), each drawn independently from its declaration's
`house_trial` values. tests/test_options.py fails for an option drawn nowhere here without a
reason (`untried`)."""


def house_rule_options(**fixed: Any) -> st.SearchStrategy[dict[str, Any]]:
    """The official options of `rule_options` with every house rule drawn on top; `fixed`
    pins some (the termination test keeps away from the drifting combinations)."""
    house = st.fixed_dictionaries(HOUSE_RULES)
    return st.builds(lambda base, extra: {**base, **extra, **fixed}, rule_options(), house)


def playable_rules(options: dict[str, Any], seats: int) -> RuleSet | None:
    """The rule set, or None when check_table refuses the combination for `seats`.

    teams=pairs wants 4 or 6 seats and winner_collects (the refusals have scenario tests): at
    another table the draw plays without teams, rather than being thrown away."""
    if options.get("teams") == "pairs":
        if seats in (4, 6):
            options = {**options, "scoring": "winner_collects"}
        else:
            options = {**options, "teams": "off"}
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

    Out-of-turn actions (CallUno, Catch, a jump-in, the next card of one's run) are taken a
    fifth of the time they are available; in a buzzer race a random waiting seat presses B. The
    pending seat plays a card (each card as likely, then one of its colour, UNO and `also`
    variants) 85% of the time it can, else draws, passes or answers its decision, and calls UNO
    with its next-to-last card 80% of the time. A uniform choice among the legal actions would
    draw far more often than a player does, and rounds would last thousands of actions; under
    some options (eight colours and draw_until_playable, say) even this bot's hands grow without
    end, so past GREEDY_AFTER actions in a round it turns `greedy`: it plays whenever it can,
    always calls UNO, never catches nor jumps in and the host never expires. A true stalemate
    still shows: nothing ends it.
    """
    if match.phase == BETWEEN_ROUNDS:
        return HOST, StartRound()
    if not greedy and rng.random() < expire_rate:
        return HOST, Expire()
    if legal is None:
        legal = all_legal(match)
    cur = match.pending_seat
    extra = [(s, a) for s, a in legal
             if isinstance(a, OUT_OF_TURN) or (isinstance(a, Play | Challenge) and s != cur)]
    if extra and not greedy and rng.random() < 0.2:
        return rng.choice(extra)
    buzzes = [(s, a) for s, a in legal if isinstance(a, Buzz)]
    if buzzes:
        return rng.choice(buzzes)
    plays: dict[int, list[tuple[int, Action]]] = {}
    others: list[tuple[int, Action]] = []
    for seat, action in legal:
        if seat != cur or isinstance(action, OUT_OF_TURN):
            continue
        if isinstance(action, Play):
            plays.setdefault(action.card, []).append((seat, action))
        else:
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
    if legal:
        return rng.choice(legal)
    return HOST, Expire()  # nobody may act: only the host's timer moves the game (checked)


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
    held: Counter[Color | None] = Counter(
        face.color for face in faces.values() if face.color is not None
    )

    def rank(card: int) -> tuple[bool, int, int]:
        face = faces[card]
        # Keep a wild for the last card, or a number when an action may not be the last card.
        keep = face.is_wild if match.rules.action_finish else not face.is_action
        return (keep, -held[face.color], card)

    card = min(plays, key=rank)
    best = max(rnd.colors, key=lambda color: (held[color], -rnd.colors.index(color)))
    variants = [(s, a) for s, a in plays[card] if isinstance(a, Play)]
    variants.sort(key=lambda sa: (not sa[1].uno, sa[1].color not in (None, best)))
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
        (rng.randrange(seats), Buzz()),
        (rng.randrange(seats), ChooseTarget(rng.randrange(-1, seats + 1))),
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
            out.append((seat, Play(card, color, also=(card,))))  # the same card twice
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
            if len(cur_hand) >= 2:  # two random cards: rarely a run or a multiple
                out.append((cur, Play(cur_hand[0], None, False, (cur_hand[-1],))))
        out.append((cur, Pass()))  # before drawing, usually
        out.append((cur, Draw()))  # after drawing, or while holding a playable card
        out.append(((cur + 1) % seats, Draw()))  # out of turn
        for target in range(seats):
            if target not in rnd.catchable:
                out.append(((target + 1) % seats, Catch(target)))
                break
    legal = {seat: match.legal_actions(seat) for seat in range(-1, seats)}
    return [(s, a) for s, a in out
            if s not in legal or not any(same_play(match, a, b) for b in legal[s])]


def same_play(match: Match, action: Action, listed: Action) -> bool:
    """`action` is `listed`, or the same play with other copies of identical cards in `also`:
    the list names one card id per face there (SPEC.md 9.4), and either copy plays."""
    if action == listed:
        return True
    if not (isinstance(action, Play) and isinstance(listed, Play)) or match.round is None:
        return False
    face = match.manifest.face
    hand = match.round.hands
    holder = next((seat for seat, cards in enumerate(hand) if action.card in cards), None)
    return (
        holder is not None
        and (action.card, action.color, action.uno) == (listed.card, listed.color, listed.uno)
        and [face(c) for c in action.also] == [face(c) for c in listed.also]
        and len(set(action.also)) == len(action.also)
        and action.card not in action.also
        and all(c in hand[holder] for c in action.also)
    )


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
        frozenset(match.eliminated),
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
        frozenset(rnd.out),
        rnd.pending_draw,
        rnd.finished,
        rnd.top_seat,
        rnd.run,
        tuple(rnd.buzz_waiting),
        rnd.decision,  # the whole pending decision: a race's order, a challenged hand ...
        tuple(sorted(rnd.knocked_out.items())),
        tuple(rnd.penalty_points),
        rnd.cannot_draw_streak,
    )


# -- the checker ---------------------------------------------------------------------------------


@dataclasses.dataclass
class Before:
    """What the event checks need of the state before an action."""

    hands: list[set[int]]
    discard: set[int]
    out: frozenset[int] = frozenset()


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
        max_actions: int = MAX_ACTIONS_PER_ROUND,
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
        self.max_actions = max_actions  # per round; past it a strict checker fails
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
            if self.actions_this_round >= self.max_actions:
                assert not self.strict, "the round never ends" + self.where()
                note("a round cut at max_actions (no stalemate)")
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
            out=frozenset(rnd.out) if rnd else frozenset(),
        )
        if isinstance(action, StartRound):
            self.rounds += 1
            self.actions_this_round = 0
        events = match.apply(seat, action)  # a listed action must apply
        self.actions_this_round += 1
        if any(isinstance(e, MOVES_CARDS) for e in events):
            self.quiet = 0
        else:
            self.quiet += 1
        assert self.quiet < 4 * self.seats + 10, "stalemate: no card moves" + self.where()
        self.check_events(seat, action, events, before)
        for kind in {type(e) for e in events if isinstance(e, NOTED)}:
            note(kind.__name__)
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
            assert rnd.phase in ROUND_PHASES, self.where()
            assert match.pending_seat == rnd.current
            assert (match.view(None).pending is None) == (rnd.phase is Phase.TURN)
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
        for seat in rnd.out:  # knocked out or eliminated: the cards went under the pile
            assert not rnd.hands[seat], f"seat {seat} is out but holds cards" + self.where()
        assert set(self.match.eliminated) <= rnd.out | set(range(self.seats))
        assert sorted(places) == list(range(self.deck)), self.where()
        assert set(places.values()) == {1}, f"a card in two places {places}" + self.where()
        assert rnd.discard, "the discard pile is never empty during a round"

    def check_decision(self, rnd: Any) -> None:
        """One decision at a time: the pending seat (or the seats still waiting in a buzzer
        race) has a move of the kinds its phase allows; everybody else only calls UNO,
        catches, or plays out of turn where jump_in or sequences allow."""
        cur = rnd.current
        assert 0 <= cur < self.seats
        assert cur not in rnd.out, "the round waits on a seat that is out" + self.where()
        assert (rnd.phase is Phase.CHALLENGE) == (rnd.wd4_player is not None), self.where()
        if rnd.phase in (Phase.STACK, Phase.CHALLENGE):
            assert rnd.pending_draw > 0, self.where()
        elif rnd.phase is not Phase.BUZZER:  # a Buzzer deflecting it holds it over its race
            assert rnd.pending_draw == 0, self.where()
        if rnd.drawn_card is not None:
            assert rnd.phase is Phase.TURN and rnd.drawn_card in rnd.hands[cur], self.where()
        assert 0 <= rnd.draws_this_turn <= self.rules.max_draws_per_turn, self.where()
        if rnd.phase is not Phase.CHOOSE_COLOR:
            assert rnd.active_color in rnd.colors, self.where()
        for seat in rnd.catchable:
            assert len(rnd.hands[seat]) == 1, self.where()
        for seat in rnd.uno_called:
            assert len(rnd.hands[seat]) == 1, self.where()
        if rnd.phase is Phase.BUZZER:
            deciders = set(rnd.buzz_waiting)
            assert deciders, "a buzzer race nobody can close" + self.where()
            assert not deciders & rnd.out, self.where()
        else:
            deciders = {cur}
        self.legal = []
        for seat in range(self.seats):
            legal = self.match.legal_actions(seat)
            self.legal += [(seat, action) for action in legal]
            assert len(legal) == len(set(legal)), "a legal action listed twice" + self.where()
            if seat in rnd.out:
                assert legal == [], self.where()
                continue
            decisions = [a for a in legal if not isinstance(a, OUT_OF_TURN)]
            if seat in deciders:
                assert decisions, f"seat {seat} has no move" + self.where()
                kinds = {type(a) for a in decisions}
                assert kinds <= DECIDER_ACTIONS[rnd.phase], self.where()
            else:
                for action in decisions:
                    if isinstance(action, Challenge):  # challenge_by=anyone, seed 003
                        assert self.rules.challenge_by == "anyone", self.where()
                        assert rnd.phase is Phase.CHALLENGE, self.where()
                        assert seat != rnd.wd4_player, self.where()
                        continue
                    assert isinstance(action, Play), f"{action} of {seat}" + self.where()
                    self.check_out_of_turn(rnd, seat, action)

    def check_out_of_turn(self, rnd: Any, seat: int, play: Play) -> None:
        """An out-of-turn play is a jump-in on the top card (RULEBOOK.md 6.5) or the next
        number of one's own run (6.6), judged here from the rules' words, not by the engine."""
        rules = self.rules
        where = f"\nout of turn: {play} of seat {seat}" + self.where()
        assert rnd.phase in (Phase.TURN, Phase.STACK, Phase.CHALLENGE), where
        assert rnd.draws_this_turn == 0 and not play.also, where
        face = rnd.face(play.card)
        top = rnd.face(rnd.top)
        run = rnd.run
        extends_run = (
            rules.sequences
            and rnd.phase is Phase.TURN
            and run is not None
            and run.seat == seat
            and face.kind is Kind.NUMBER
            and face.color == run.color
            and face.number is not None
            and abs(face.number - run.last) == 1
        )
        same_face = face.kind is top.kind and face.number == top.number
        identical = same_face and face.color == top.color and face.kind not in NOT_IDENTICAL
        jumps_in = seat != rnd.top_seat and (
            (rules.jump_in == "identical" and identical)
            or (rules.jump_in == "same_face" and same_face)
        )
        if rnd.phase is not Phase.TURN:  # on a pending draw: a draw card that stacks on it
            assert jumps_in and face.draw_amount > 0 and rules.stacking != "off", where
        assert extends_run or jumps_in, where

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
        moved: set[tuple[int, tuple[ev.Position, ...]]] = set()  # (receiver, positions)
        passed_on = any(isinstance(e, ev.HandsMoved) for e in events)
        for event in events:
            kind = type(event)
            audience = event.audience
            if kind in NO_CARD_EVENTS:
                assert audience is None, event
            elif kind in PUBLIC_CARD_EVENTS:
                assert audience is None, event
                self.check_public_cards(event, action, before, face_up)
            elif isinstance(event, ev.HandsMoved):
                assert audience is None, event
                moved = self.check_hands_moved(event, before)
            elif isinstance(event, ev.CardsReturned):
                assert audience is None and event.reason == "max_hand", event
                assert isinstance(previous, ev.KnockedOut), event
                assert (previous.seat, previous.cards) == (event.seat, len(event.positions))
                assert event.seat in rnd.out and not rnd.hands[event.seat], event
            elif isinstance(event, ev.JumpInRefused):
                assert audience is None, event
                assert event.card in before.hands[event.seat], event
                assert event.penalty == self.rules.jump_in_penalty > 0, event
            elif isinstance(event, ev.CardsReceived):
                assert audience == frozenset((event.seat,)), event
                if isinstance(previous, ev.CardsDrawn):
                    assert (previous.seat, previous.positions) == (event.seat, event.positions)
                else:  # a new owner of a whole hand (7 or 0): the positions HandsMoved named
                    assert (event.seat, event.positions) in moved, event
                assert len(event.cards) == len(event.positions)
                assert tuple(rnd.origin[c] for c in event.cards) == event.positions, event
                if event.seat not in rnd.out and not passed_on:  # else passed on or under
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

    def check_hands_moved(
        self, event: ev.HandsMoved, before: Before
    ) -> set[tuple[int, tuple[ev.Position, ...]]]:
        """A 7 swaps two hands, a 0 passes every hand one seat on: positions only, public,
        between seats that were in the round."""
        assert self.rules.seven_zero, event
        givers = [g for g, _, _ in event.moves]
        takers = [t for _, t, _ in event.moves]
        assert sorted(givers) == sorted(takers) and len(set(givers)) == len(givers), event
        assert not set(givers) & before.out, event
        if event.reason == "seven":
            assert len(event.moves) == 2 and givers == takers[::-1], event
            assert givers[0] != givers[1], event
        else:
            assert event.reason == "zero", event
            assert set(givers) == set(range(self.seats)) - before.out, event
            assert all(g != t for g, t in zip(givers, takers, strict=True)), event
        for _, _, positions in event.moves:
            assert all(isinstance(p, tuple) and len(p) == 2 for p in positions), event
        return {(t, positions) for _, t, positions in event.moves}

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
        """A few wrong actions: each raises EngineError and leaves the state as it was; under
        jump_in an out-of-turn play of a held card is charged the penalty instead (RULEBOOK.md
        6.5), and that changes nothing but the player's penalty points."""
        match = self.match
        wrong = wrong_actions(match, self.rng)
        state = match.state()
        for seat, action in self.rng.sample(wrong, min(len(wrong), 4)):
            if isinstance(action, Play) and self.charged(seat, action):
                self.check_charged(seat, action)
                continue
            if isinstance(action, Catch) and self.false_catch(seat, action):
                self.check_false_catch(seat, action)
                continue
            quick = fingerprint(match)
            try:
                match.apply(seat, action)
            except EngineError:
                pass
            else:
                raise AssertionError(f"{action} of seat {seat} was accepted" + self.where())
            assert fingerprint(match) == quick, f"{action} of {seat} changed it" + self.where()
        assert match.state() == state, "a refused action changed the state" + self.where()

    def charged(self, seat: int, action: Action) -> bool:
        """Is this wrong action a refused jump-in, charged rather than refused?"""
        rnd = self.match.round
        return (
            isinstance(action, Play)
            and rnd is not None
            and self.match.phase == IN_ROUND
            and rnd.phase is not Phase.ROUND_OVER
            and self.rules.jump_in != "off"
            and self.rules.jump_in_penalty > 0
            and 0 <= seat < self.seats
            and seat not in rnd.out
            and seat != rnd.current
            and action.card in rnd.hands[seat]
        )

    def check_charged(self, seat: int, action: Play) -> None:
        """On a copy: the penalty event alone, and the penalty points the only change."""
        match = self.match
        clone = self.copy()
        events = clone.apply(seat, action)
        penalty = self.rules.jump_in_penalty
        assert events == [ev.JumpInRefused(seat, action.card, penalty)], self.where()
        before, after = match.state(), clone.state()
        points = after["round"].pop("penalty_points")
        expected = before["round"].pop("penalty_points")
        expected[seat] += penalty
        assert points == expected, self.where()
        assert after["round"] == before["round"], self.where()

    def false_catch(self, seat: int, action: Catch) -> bool:
        """Is this wrong action a catch of someone not catchable, charged under
        false_catch_penalty rather than refused?"""
        rnd = self.match.round
        return (
            rnd is not None
            and self.match.phase == IN_ROUND
            and rnd.phase is not Phase.ROUND_OVER
            and self.rules.false_catch_penalty > 0
            and 0 <= seat < self.seats
            and seat not in rnd.out
            and 0 <= action.target < self.seats
            and action.target != seat
            and action.target not in rnd.out
        )

    def check_false_catch(self, seat: int, action: Catch) -> None:
        """On a copy: the false catch is said, and the catcher draws the penalty (or as many
        as there are), and nobody else's hand changes."""
        match = self.match
        clone = self.copy()
        events = clone.apply(seat, action)
        penalty = self.rules.false_catch_penalty
        assert events[0] == ev.FalseCatch(seat, action.target, penalty), self.where()
        before, after = match.round, clone.round
        assert before is not None and after is not None
        for other in range(self.seats):
            if other != seat:
                assert after.hands[other] == before.hands[other], self.where()
        grew = len(after.hands[seat]) - len(before.hands[seat])
        assert grew <= penalty and (grew > 0 or seat in after.out or not before.draw_pile), (
            self.where())

    def check_every_legal_action_applies(self) -> None:
        """Listed actions of every seat (and the host) apply, each on its own copy: all of
        them, or a sample of four when there are more."""
        match = self.match
        legal = [(seat, a) for seat in range(-1, match.seats) for a in match.legal_actions(seat)]
        state = match.state()
        for seat, action in self.rng.sample(legal, min(len(legal), 4)):
            self.copy().apply(seat, action)
        assert match.state() == state, "acting on a copy changed the match" + self.where()

    def copy(self) -> Match:
        """A copy of the match to try an action on: replayed from the log, which a compiled
        engine allows too (its native classes cannot be deep-copied)."""
        return Match.replay(self.rules, self.seats, self.seed, self.match.log)

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
# Budgets: the whole file runs in about a minute. Random options include combinations under
# which rounds drift for thousands of actions (see the module docstring); the random-options
# tests cut a round at CUT_AFTER actions, and the termination test keeps away from them.

CUT_AFTER = 300


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(
    seats=st.integers(2, 10),
    seed=st.binary(min_size=1, max_size=8),
    options=house_rule_options(),
    choices=st.integers(0, 2**32),
    rounds=st.integers(1, 2),
)
def test_random_games_keep_the_invariants(
    seats: int, seed: bytes, options: dict[str, Any], choices: int, rounds: int
) -> None:
    """Every check, every house rule drawn: cards, one decision at a time, out-of-turn plays,
    views and events leak nothing, wrong actions change nothing, listed actions apply,
    replay."""
    rules = playable_rules(options, seats)
    assume(rules is not None)
    assert rules is not None
    checker = GameChecker(
        rules, seats, seed, random.Random(choices), strict=False, max_actions=CUT_AFTER
    )
    checker.play(max_rounds=rounds)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seats=st.integers(2, 10), seed=st.binary(min_size=1, max_size=8), choices=st.integers(0))
def test_official_rules_whole_matches(seats: int, seed: bytes, choices: int) -> None:
    """The official rules, whole matches to 500, fewer of the costly checks."""
    checker = GameChecker(
        RuleSet(), seats, seed, random.Random(choices), wrong_rate=0.05, copy_rate=0.005
    )
    checker.play()
    assert checker.match.phase == MATCH_OVER


@settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(
    seats=st.integers(2, 10),
    seed=st.binary(min_size=1, max_size=8),
    options=st.one_of(rule_options(), house_rule_options()),
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
        max_actions=CUT_AFTER,
    )
    checker.play(max_rounds=2)


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(
    seats=st.integers(2, 10),
    seed=st.binary(min_size=1, max_size=8),
    options=house_rule_options(colors=4, draw_until_playable=False, action_finish=True, decks=1),
    hand_size=st.integers(5, 20),
    room=st.integers(1, 15),
    stacking=st.sampled_from(["same_kind", "escalating"]),
    rounds=st.integers(1, 2),
    choices=st.integers(0, 2**32),
)
def test_house_rule_matches_end(
    seats: int,
    seed: bytes,
    options: dict[str, Any],
    hand_size: int,
    room: int,
    stacking: str,
    rounds: int,
    choices: int,
) -> None:
    """Every round and match ends, strictly within MAX_ACTIONS_PER_ROUND: with a hand limit
    (`room` cards above the deal), a pending stack (stacking on), a draw pile that large hands
    empty quickly (the stalemate rule, RULEBOOK.md 6.11) and every other house rule drawn; no
    round waits on nobody. The drifting combinations of the module docstring
    (draw_until_playable with many colours, action_finish=false) are left out: they end, but
    slowly."""
    options = {
        **options,
        "hand_size": hand_size,
        "max_hand": max(10, hand_size + room),
        "stacking": stacking,
        "max_rounds": rounds,
    }
    rules = playable_rules(options, seats)
    assume(rules is not None)
    assert rules is not None
    checker = GameChecker(
        rules, seats, seed, random.Random(choices), wrong_rate=0, copy_rate=0, views=False
    )
    checker.play()
    assert checker.match.phase == MATCH_OVER, checker.where()


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


def test_scores_of_random_matches() -> None:
    rng = random.Random(20240611)
    for game in range(120):
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
