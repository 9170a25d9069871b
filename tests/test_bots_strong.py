"""The strong bot (unonet.bots.strong): a search over the cards it cannot see, from what a
player may know. It never reads a hidden card (it plays the same whatever they are), its
samples look from its seat exactly like the real round, it answers every kind of decision
under every rule set, and a match of bots with a budget in simulations replays from its seed."""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, replace

import pytest
from stacking import stacked_order

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
    Pass,
    Play,
)
from unonet.bots import NormalBot, RandomBot, SearchBudget, StrongBot
from unonet.bots.base import Bot
from unonet.bots.driver import deliver, play_match
from unonet.bots.knowledge import Knowledge
from unonet.bots.playout import Views
from unonet.bots.sampling import Sampler
from unonet.cards import Color
from unonet.determinize import build_round, clone_round, table_for
from unonet.events import Event
from unonet.match import Match
from unonet.matching import matches
from unonet.phase import Phase
from unonet.rules import RuleSet, preset
from unonet.view import View, observe

SMALL = SearchBudget(seconds=None, simulations=16)
"""A search of a few playouts, bounded in simulations only: the moves depend on the seed."""

RULE_SETS: dict[str, RuleSet] = {
    "official": RuleSet(target=100),
    "party": preset("party", target=100),
    "flip": preset("flip", target=100),
    "no_mercy": preset("no_mercy", target=200),
    "seed003": preset("seed003", target=100),
    "seed004": preset("seed004", target=100),
    "buzzers_runs": RuleSet(buzzers=True, sequences=True, target=100),
    "multiples_swaps": RuleSet(multiples=True, seven_zero=True, jump_in="same_face", target=100),
    "escalating_deflect_enforce": RuleSet(stacking="escalating", deflect=True,
                                          wd4_policy="enforce", target=100),
    "max_hand_teams": RuleSet(max_hand=15, teams="pairs", target=100),
    "draws": RuleSet(draw_until_playable=True, max_draws_per_turn=3, uno_auto_penalty=True,
                     false_catch_penalty=2, target=100),
    "flip_house": preset("flip", flip_passes_hands=True, stacking="same_kind",
                         jump_in="identical", target=100),
    "big_deck": RuleSet(colors=6, decks=2, hand_size=10, challenge_guilty_extra=2, target=100),
    "no_mercy_deflect": preset("no_mercy", deflect=True, jump_in="identical", target=200),
    "lowest_wins": RuleSet(play_after_draw=False, action_finish=False, scoring="lowest_wins",
                           stacking="same_kind", stack_mix_wild=False, target=100),
    "penalties_anyone": RuleSet(challenge_by="anyone", draw_when_playable="penalty",
                                multi_finish="penalty", multiples=True, deflect=True,
                                target=100),
}
"""Every variant, the presets and each option of RULEBOOK section 2 in some combination."""


def _seats(rules: RuleSet) -> tuple[int, ...]:
    return (4,) if rules.teams == "pairs" else (2, 4)


# -- the samples -----------------------------------------------------------------------------


class _Checked(NormalBot):
    """A normal bot that, at each decision, samples the hidden cards from its own memory and
    checks that the round built from the sample looks from its seat exactly as the real one
    (its view, but the dark faces it was told, and its legal actions)."""

    def __init__(self, seat: int, match: Match, found: Counter[str]) -> None:
        super().__init__(seat, match.rules, match.manifest, seed=seat)
        self.match = match
        self.memory = Knowledge(seat, match.rules, match.manifest)
        self.found = found
        self.sampling = random.Random(seat)  # its own: the bot's rng draws its UNO calls

    def observe(self, event: Event) -> None:
        super().observe(event)
        self.memory.observe(event)

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        sampler = Sampler(self.memory, view, self.rules, self.manifest)
        rnd = build_round(sampler.sample(self.sampling))
        seen = observe(table_for(self.match, rnd), self.seat)
        mine, theirs = asdict(view), asdict(seen)
        for key in mine:
            if key != "dark_faces" and mine[key] != theirs[key]:
                self.found[f"view.{key}"] += 1
        if sorted(map(repr, legal)) != sorted(map(repr, rnd.legal_actions(self.seat))):
            self.found["legal"] += 1
        real = self.match.round
        assert real is not None
        if any(len(real.hands[s]) != len(rnd.hands[s]) for s in range(len(real.hands))):
            self.found["counts"] += 1
        if sorted(real.hands[self.seat]) != sorted(rnd.hands[self.seat]):
            self.found["own hand"] += 1
        self.found["decisions"] += 1
        return super().act(view, legal)


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_a_sampled_round_looks_from_the_seat_exactly_like_the_real_one(name: str) -> None:
    rules = RULE_SETS[name]
    found: Counter[str] = Counter()
    for seats in _seats(rules):
        match = Match(rules, seats, f"samples-{name}".encode())
        bots: list[Bot] = [_Checked(s, match, found) if s % 2 == 0
                           else RandomBot(s, rules, match.manifest, seed=s)
                           for s in range(seats)]
        play_match(match, bots)
    assert found["decisions"] >= 10
    assert found == Counter({"decisions": found["decisions"]}), found


def test_samples_differ_where_the_seat_cannot_see_and_agree_where_it_can() -> None:
    match = Match(RuleSet(), 3, b"differ")
    memory = Knowledge(0, match.rules, match.manifest)
    for event in match.start_round():
        if event.audience is None or 0 in event.audience:
            memory.observe(event)
    sampler = Sampler(memory, match.view(0), match.rules, match.manifest)
    rng = random.Random(3)
    worlds = [sampler.sample(rng) for _ in range(20)]
    real = match.round
    assert real is not None
    seen = {*real.hands[0], *real.discard}
    for world in worlds:
        assert sorted(world.hands[0]) == sorted(real.hands[0])
        assert world.discard == real.discard
        assert [len(h) for h in world.hands] == [len(h) for h in real.hands]
        others = [c for hand in world.hands[1:] for c in hand] + world.draw_pile
        assert not seen & set(others)  # nothing it saw elsewhere is put in a hidden place
        assert sorted(others + list(seen)) == list(range(len(match.manifest)))
    assert len({tuple(w.hands[1]) for w in worlds}) == len(worlds)
    assert all(w.hands[1] != real.hands[1] for w in worlds)


# -- it never sees a hidden card -------------------------------------------------------------


def _twin_decks(rules: RuleSet, seats: int, seed: int) -> tuple[list[int], list[int]]:
    """Two deal orders that differ only in cards seat 0 cannot see (the other hands and the
    pile), the first card a number, seat 0 playing first (the dealer sits last)."""
    rng = random.Random(seed)
    manifest = rules.manifest()
    dealt = rules.hand_size * seats
    while True:
        order = list(range(len(manifest)))
        rng.shuffle(order)
        if manifest.face(order[dealt]).kind.value == "number":
            break
    # The other hands, and the bottom of the pile, which nobody reaches in a few turns; seat 0
    # is dealt first (it sits left of the dealer) and draws from the top.
    others = [k for k in range(dealt) if k % seats != 0]
    hidden = others + list(range(len(order) - 40, len(order)))
    cards = [order[k] for k in hidden]
    rng.shuffle(cards)
    twin = list(order)
    for k, card in zip(hidden, cards, strict=True):
        twin[k] = card
    return order, twin


def _scripted_match(rules: RuleSet, seats: int, order: list[int],
                    bot: StrongBot) -> tuple[list[Action], list[dict[str, float]], Match]:
    """Seat 0 played by `bot`; every other seat draws and passes (or takes a pending draw),
    which the rules allow whatever it holds, so the two twins stay alike in all seat 0 sees."""
    match = Match(rules, seats, b"twins", stacked_decks=[order], first_dealer=seats - 1)
    deliver([bot], match.apply(HOST, match.legal_actions(HOST)[0]))
    moves: list[Action] = []
    values: list[dict[str, float]] = []
    while match.phase == Phase.IN_ROUND and len(moves) < 6:
        seat = match.pending_seat
        assert seat is not None
        legal = match.legal_actions(seat)
        if seat == 0:
            action = bot.act(match.view(0), legal)
            moves.append(action)
            assert bot.last is not None
            values.append(dict(bot.last.values))
        else:
            kinds = [a for a in legal if isinstance(a, Accept | Draw | Pass)]
            action = kinds[0]
        deliver([bot], match.apply(seat, action))
    return moves, values, match


@pytest.mark.parametrize("seats", [2, 4])
def test_the_strong_bot_plays_the_same_whatever_the_cards_it_cannot_see(seats: int) -> None:
    rules = RuleSet()
    searched = 0
    for seed in range(4):
        order, twin = _twin_decks(rules, seats, seed)
        games = []
        for deck in (order, twin):
            bot = StrongBot(0, rules, rules.manifest(), seed=5, budget=SMALL)
            games.append(_scripted_match(rules, seats, deck, bot))
        (moves_a, values_a, match_a), (moves_b, values_b, match_b) = games
        assert match_a.round is not None and match_b.round is not None
        assert match_a.round.hands[1] != match_b.round.hands[1]  # the twins do differ
        assert moves_a == moves_b
        assert values_a == values_b  # the whole search, not only its outcome
        searched += sum(1 for v in values_a if v)
    assert searched >= 4


# -- every kind of decision --------------------------------------------------------------------


class _Logged(StrongBot):
    """A strong bot that records every decision it makes and every reaction it takes."""

    def __init__(self, seat: int, rules: RuleSet, match: Match, log: Counter[str]) -> None:
        super().__init__(seat, rules, match.manifest, seed=seat + 11, budget=SMALL)
        self.log = log

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        action = super().act(view, legal)
        assert action in legal or isinstance(action, Play | ChooseColor)
        report = self.last
        assert report is not None and report.fallback is None, report
        kind = f"{view.phase}:{type(action).__name__}"
        if isinstance(action, Play) and action.also:
            kind += "+also"
        if isinstance(action, Play) and action.uno:
            kind += "+uno"
        self.log[kind] += 1
        if report.worlds:
            self.log[f"searched {view.phase}"] += 1
            for tried in report.values:  # the candidates weighed, by their kind
                self.log[f"weighed {view.phase}:{tried.split('(')[0]}"] += 1
        return action

    def react(self, view: View, legal: Sequence[Action]) -> Action | None:
        action = super().react(view, legal)
        if action is not None:
            self.log[f"react:{type(action).__name__}"] += 1
        return action


KINDS_RULES = ("official", "party", "seed004", "buzzers_runs", "no_mercy", "flip",
               "max_hand_teams")
"""Rule sets whose matches between them bring every kind of decision (a first-card Wild's
colour is rare: test_a_first_wild_colour_and_a_seven_target_are_chosen_by_search has one)."""


def test_the_strong_bot_answers_every_kind_of_decision_under_every_rule_set() -> None:
    log: Counter[str] = Counter()
    for name in KINDS_RULES:
        rules = RULE_SETS[name]
        seats = 4 if rules.teams == "pairs" else 3
        match = Match(rules, seats, f"kinds-{name}".encode())
        bots: list[Bot] = [_Logged(0, rules, match, log)]
        bots += [NormalBot(s, rules, match.manifest, seed=s) for s in range(1, seats)]
        play_match(match, bots)
        assert match.winner is not None
    wanted = [
        "turn:Play", "turn:Draw", "weighed turn:Pass", "turn:Play+uno", "turn:Play+also",
        "roulette:ChooseColor", "challenge:Challenge",
        "challenge:Accept", "stack:Play", "stack:Accept", "choose_target:ChooseTarget",
        "react:Buzz", "react:Catch", "react:Play",
        "searched turn", "searched challenge", "searched stack", "searched choose_target",
        "searched roulette",
    ]
    missing = [kind for kind in wanted if not log[kind]]
    assert not missing, (missing, log)


def _dealt(rules: RuleSet, hands: Sequence[Sequence[str]], top: str,
           draws: Sequence[str] = (), dealer: int | None = None) -> tuple[Match, list[Event]]:
    """A match dealt `hands` (seat 0 plays first unless `dealer` says otherwise)."""
    dealer = len(hands) - 1 if dealer is None else dealer
    rules = rules.replace(hand_size=len(hands[0]))
    order = stacked_order(rules.manifest(), dealer, hands, top, draws)
    match = Match(rules, len(hands), b"strong", stacked_decks=[order], first_dealer=dealer)
    return match, match.start_round()


def _bot(match: Match, events: Sequence[Event], seat: int = 1,
         forget_rate: float | None = None) -> StrongBot:
    bot = StrongBot(seat, match.rules, match.manifest, seed=3, budget=SMALL,
                    forget_rate=forget_rate)
    deliver([bot], list(events))
    return bot


def _answer(match: Match, bot: StrongBot) -> Action:
    action = bot.act(match.view(bot.seat), match.legal_actions(bot.seat))
    assert bot.last is not None and bot.last.worlds > 0  # it searched
    match.apply(bot.seat, action)  # and the engine takes it
    return action


def test_a_wild_draw_four_is_challenged_or_accepted_by_search() -> None:
    match, events = _dealt(RuleSet(), [["W+4", "r1", "r2"], ["g1", "g2", "y7"]], "r5")
    bot = _bot(match, events)
    deliver([bot], match.apply(0, Play(_card(match, 0, "W+4"), Color.GREEN)))
    assert match.view(1).phase == Phase.CHALLENGE
    assert isinstance(_answer(match, bot), Challenge | Accept)


def _card(match: Match, seat: int, code: str) -> int:
    assert match.round is not None
    return next(c for c in match.round.hands[seat] if match.manifest.face(c).code == code)


def test_a_first_wild_colour_and_a_seven_target_are_chosen_by_search() -> None:
    match, events = _dealt(RuleSet(), [["r1", "b2", "b3"], ["g1", "g2", "b7"]], "W", dealer=0)
    bot = _bot(match, events)
    assert match.view(1).phase == Phase.CHOOSE_COLOR
    assert isinstance(_answer(match, bot), ChooseColor)

    swaps = RuleSet(seven_zero=True)
    match, events = _dealt(swaps, [["r1", "b2", "b3"], ["g1", "r7", "b9"], ["y1", "y2", "y3"]],
                           "r5", dealer=0)
    bot = _bot(match, events)
    deliver([bot], match.apply(1, Play(_card(match, 1, "r7"))))
    assert match.view(1).phase == Phase.CHOOSE_TARGET
    assert isinstance(_answer(match, bot), ChooseTarget)


def test_a_pending_draw_is_stacked_or_taken_by_search() -> None:
    stacking = RuleSet(stacking="same_kind")
    match, events = _dealt(stacking, [["r+2", "r1", "g2"], ["b+2", "g1", "y7"]], "r5")
    bot = _bot(match, events)
    deliver([bot], match.apply(0, Play(_card(match, 0, "r+2"))))
    assert match.view(1).phase == Phase.STACK
    assert isinstance(_answer(match, bot), Play | Accept)


def test_the_strong_bot_calls_uno_catches_and_presses_b_by_rule() -> None:
    # Its UNO goes with the play, unless it forgets (its rate: test_bots_fair.py); here none.
    match, events = _dealt(RuleSet(), [["r3", "g1"], ["r1", "g2"]], "r5")
    bot = _bot(match, events, forget_rate=0.0)
    deliver([bot], match.apply(0, Play(_card(match, 0, "r3"), uno=True)))
    play = bot.act(match.view(1), match.legal_actions(1))
    assert isinstance(play, Play) and play.uno

    match, events = _dealt(RuleSet(), [["r1", "g2"], ["r3", "r4"]], "r5")
    bot = _bot(match, events)
    deliver([bot], match.apply(0, Play(_card(match, 0, "r1"))))  # and no UNO
    calls = [a for a in match.legal_actions(1) if isinstance(a, Catch | CallUno)]
    assert bot.react(match.view(1), calls) == Catch(0)

    match, events = _dealt(RuleSet(buzzers=True), [["BZ", "r1", "g2"], ["r3", "g1", "y7"]], "r5")
    bot = _bot(match, events)
    deliver([bot], match.apply(0, Play(_card(match, 0, "BZ"))))
    assert bot.react(match.view(1), match.legal_actions(1)) == Buzz()


# -- budget, slices, replay ----------------------------------------------------------------------


def test_a_search_thought_in_slices_comes_to_the_same_move() -> None:
    match, events = _dealt(RuleSet(), [["r1", "b2", "b3"], ["g1", "g2", "b7"]], "W", dealer=0)
    whole = _bot(match, events)
    view, legal = match.view(1), match.legal_actions(1)
    expected = whole.act(view, legal)
    sliced = _bot(match, events)
    answers = [sliced.ponder(view, legal, 0.0) for _ in range(200)]
    assert answers[0] is None  # one sample per slice: not done after the first
    done = [a for a in answers if a is not None]
    assert done and done[0] == expected


def test_a_memory_that_missed_the_deal_falls_back_to_the_normal_policy() -> None:
    match, _events = _dealt(RuleSet(), [["r1", "b2", "b3"], ["g1", "g2", "b7"]], "W", dealer=0)
    bot = StrongBot(1, match.rules, match.manifest, seed=3, budget=SMALL)  # fed nothing
    action = bot.act(match.view(1), match.legal_actions(1))
    assert action in match.legal_actions(1)
    assert bot.last is not None and bot.last.fallback is not None


def test_a_seeded_match_of_strong_bots_replays_exactly() -> None:
    logs = []
    for _ in range(2):
        match = Match(RuleSet(target=100), 3, b"replay")
        bots: list[Bot] = [StrongBot(s, match.rules, match.manifest, seed=s, budget=SMALL)
                           for s in range(2)]
        bots.append(NormalBot(2, match.rules, match.manifest, seed=2))
        play_match(match, bots)
        logs.append(match.log)
    assert logs[0] == logs[1]


def test_a_copied_round_is_independent_of_its_original() -> None:
    match = Match(preset("flip"), 3, b"copy")
    match.start_round()
    rnd = match.round
    assert rnd is not None
    before = match.state()
    copy = clone_round(rnd)
    while copy.phase is not Phase.ROUND_OVER:
        legal = copy.legal_actions(copy.current)
        copy.apply(copy.current, legal[-1] if not isinstance(legal[-1], Catch) else legal[0])
    assert match.state() == before
    assert replace(SMALL, simulations=2).simulations == 2


def test_a_player_who_drew_is_dealt_nothing_it_could_have_played_then() -> None:
    match, events = _dealt(RuleSet(), [["g1", "g2", "y7"], ["r1", "b2", "b3"]], "r5",
                           draws=["b9"])
    bot = _bot(match, events)
    deliver([bot], match.apply(0, Draw()))  # nothing to play on the red 5: it draws
    assert match.pending_seat == 1
    sampler = Sampler(bot.knowledge, match.view(1), match.rules, match.manifest)
    rng = random.Random(5)
    held = []
    for _ in range(30):
        world = sampler.sample(rng)
        first = world.hands[0][:3]  # what it held when it drew (the b9 came after)
        held += first
        top = match.manifest.face(world.discard[-1])
        assert not any(matches(match.manifest.face(c), top, Color.RED) for c in first)
    assert len(set(held)) > 20 and sampler.relaxed == 0  # still a wide choice of deals


class _Compared(NormalBot):
    """A normal bot that, at each decision, asks the playouts' views (unonet.bots.playout.Views)
    for every seat's view and compares them with unonet.view.observe's."""

    def __init__(self, seat: int, match: Match, views: Views, checked: list[int]) -> None:
        super().__init__(seat, match.rules, match.manifest, seed=seat)
        self.match = match
        self.views = views
        self.checked = checked

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        for seat in range(self.match.seats):
            assert self.views.of(self.match, seat) == observe(self.match, seat)
            self.checked.append(seat)
        return super().act(view, legal)


@pytest.mark.parametrize("name", ["party", "no_mercy", "max_hand_teams", "flip", "flip_house"])
def test_the_playouts_views_are_the_views_a_seat_is_given(name: str) -> None:
    rules = RULE_SETS[name]
    match = Match(rules, 4, b"views")
    views, checked = Views(), list[int]()
    bots: list[Bot] = [_Compared(seat, match, views, checked) for seat in range(4)]
    play_match(match, bots)
    assert len(checked) > 100
    assert views.rows


def test_a_budget_in_cpu_time_ends_the_search_on_the_process_clock(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A tournament's budget counts the CPU time the search used: here each sample costs a
    tenth of a second on a stand-in process clock, so half a second buys five samples, however
    long the wall clock took."""
    match, events = _dealt(RuleSet(), [["r1", "b2", "b3"], ["g1", "g2", "b7"]], "W", dealer=0)
    ticks = iter(range(10_000))
    monkeypatch.setattr(time, "process_time", lambda: next(ticks) * 0.1)  # the one Search reads
    bot = StrongBot(1, match.rules, match.manifest, seed=3,
                    budget=SearchBudget(seconds=0.5, simulations=None, cpu=True))
    deliver([bot], list(events))
    bot.act(match.view(1), match.legal_actions(1))
    assert bot.last is not None and bot.last.worlds == 5
