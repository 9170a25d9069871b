"""Bots decide from views only, play legal moves, and the normal bot plays like a decent human,
under the official rules and under every house rule: whole matches of each preset and of random
option combinations, and the choices the normal bot makes when an option offers one."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest
from scenario import card, current, deal
from stacking import stacked_order

from unonet import events as ev
from unonet.actions import (
    Accept,
    Action,
    Buzz,
    Challenge,
    ChooseTarget,
    Draw,
    Play,
)
from unonet.bots import NormalBot, RandomBot
from unonet.bots.base import Bot, out_of_turn
from unonet.bots.driver import play_match
from unonet.cards import Color
from unonet.events import Event
from unonet.match import Match
from unonet.phase import Phase
from unonet.rules import RuleSet, preset
from unonet.view import View


def _bots(kinds: Sequence[type[Bot]], match: Match) -> list[Bot]:
    return [kind(seat, match.rules, match.manifest, seed=seat) for seat, kind in enumerate(kinds)]


def test_bot_matches_end_with_a_winner_who_reached_the_target() -> None:
    for seed in range(6):
        match = Match(RuleSet(), 4, bytes([seed]))
        play_match(match, _bots([NormalBot, RandomBot, NormalBot, RandomBot], match))
        assert match.winner is not None
        assert match.scores[match.winner] >= 500


def test_normal_bots_beat_random_bots() -> None:
    wins = {"normal": 0, "random": 0}
    for seed in range(30):
        match = Match(RuleSet(target=200), 2, bytes([seed, 7]))
        kinds: list[type[Bot]] = [NormalBot, RandomBot] if seed % 2 else [RandomBot, NormalBot]
        play_match(match, _bots(kinds, match))
        assert match.winner is not None
        wins["normal" if kinds[match.winner] is NormalBot else "random"] += 1
    assert wins["normal"] > wins["random"] * 1.5, wins


class _Recorder(NormalBot):
    """Records what the bot was given: it must only ever be its own view and audience events."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.views: list[View] = []
        self.events: list[Event] = []

    def observe(self, event: Event) -> None:
        self.events.append(event)
        super().observe(event)

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        self.views.append(view)
        action = super().act(view, legal)
        assert action in legal
        return action


def test_bots_see_only_their_own_view_and_events() -> None:
    match = Match(RuleSet(target=100), 3, b"views")
    bots = [_Recorder(s, match.rules, match.manifest, seed=s) for s in range(3)]
    play_match(match, bots)
    for bot in bots:
        assert bot.views and all(v.seat == bot.seat for v in bot.views)
        for event in bot.events:
            assert event.audience is None or bot.seat in event.audience


def _deal(hands: list[list[str]], top: str, draws: Sequence[str] = ()) -> Match:
    rules = RuleSet(hand_size=len(hands[0]))
    order = stacked_order(rules.manifest(), 0, hands, top, draws)
    match = Match(rules, len(hands), b"bot", stacked_decks=[order], first_dealer=0)
    match.start_round()
    return match


def test_normal_bot_keeps_its_wild_when_a_colour_card_plays() -> None:
    match = _deal([["r1", "g2", "b3"], ["W", "r7", "y9"]], top="r5")
    bot = NormalBot(1, match.rules, match.manifest)
    action = bot.act(match.view(1), match.legal_actions(1))
    assert isinstance(action, Play)
    assert match.manifest.face(action.card).code == "r7"


def test_normal_bot_calls_uno_with_its_next_to_last_card() -> None:
    match = _deal([["r1", "g2"], ["r7", "y9"]], top="r5")
    bot = NormalBot(1, match.rules, match.manifest, forget_rate=0.0)  # one that never forgets
    action = bot.act(match.view(1), match.legal_actions(1))
    assert isinstance(action, Play) and action.uno
    forgetful = NormalBot(1, match.rules, match.manifest, forget_rate=1.0)
    action = forgetful.act(match.view(1), match.legal_actions(1))
    assert isinstance(action, Play) and not action.uno


def test_normal_bot_names_the_colour_it_holds_most() -> None:
    match = _deal([["r1", "g2", "b3", "b4"], ["W", "g7", "g9", "y1"]], top="b5")
    bot = NormalBot(1, match.rules, match.manifest)
    action = bot.act(match.view(1), match.legal_actions(1))
    assert isinstance(action, Play) and action.color is Color.GREEN


def test_normal_bot_challenges_a_wild_draw_four_from_a_big_hand() -> None:
    # Seat 1 plays W+4 holding ten other cards: it very likely held the colour in play.
    hand1 = ["W+4", "r1", "r2", "r3", "g4", "g5", "b6", "b7", "y8", "y9", "g9"]
    hand0 = ["b1", "b2", "y3", "y4", "g1", "g2", "g3", "b3", "b4", "y5", "y6"]
    match = _deal([hand0, hand1], top="r5")
    w4 = next(c for c in match.view(1).hand if match.manifest.face(c).code == "W+4")
    match.apply(1, Play(w4, Color.BLUE))
    bot = NormalBot(0, match.rules, match.manifest)
    assert bot.act(match.view(0), match.legal_actions(0)) == Challenge()


# -- house rules: the normal bot's choices ----------------------------------------------------


def _two_answering_plus_two(rules: RuleSet, answers: list[str]) -> tuple[Match, int]:
    """Seat 1 plays a red +2 on seat 0 (next, two seats), who holds `answers` and fillers.
    Returns the match and the seat facing the pending draw."""
    filler = ["y1", "y2", "g3", "g4"][: 4 - len(answers)]
    match = deal([[*answers, *filler], ["r+2", "b1", "b2", "b3"]], top="r5", rules=rules)
    assert current(match) == 1
    match.apply(1, Play(card(match, 1, "r+2")))
    return match, 0


def test_normal_bot_stacks_a_draw_two_rather_than_take_it() -> None:
    match, seat = _two_answering_plus_two(RuleSet(stacking="same_kind"), ["g+2"])
    view = match.view(seat)
    assert view.pending is not None and view.pending.kind == Phase.STACK
    assert view.pending.amount == 2
    legal = match.legal_actions(seat)
    assert Accept() in legal
    action = NormalBot(seat, match.rules, match.manifest).act(view, legal)
    assert action == Play(card(match, seat, "g+2"))


def test_normal_bot_escalates_with_the_bigger_draw_card() -> None:
    rules = RuleSet(stacking="escalating", stack_mix_wild=True)
    match, seat = _two_answering_plus_two(rules, ["g+2", "W+4"])
    action = NormalBot(seat, match.rules, match.manifest).act(match.view(seat),
                                                             match.legal_actions(seat))
    assert isinstance(action, Play) and action.card == card(match, seat, "W+4")
    assert action.color is not None


def test_normal_bot_deflects_a_pending_draw_it_cannot_stack() -> None:
    rules = RuleSet(stacking="same_kind", deflect=True)
    match, seat = _two_answering_plus_two(rules, ["gS"])
    legal = match.legal_actions(seat)
    action = NormalBot(seat, match.rules, match.manifest).act(match.view(seat), legal)
    assert action == Play(card(match, seat, "gS"))


def test_normal_bot_takes_the_draw_when_nothing_answers_it() -> None:
    match, seat = _two_answering_plus_two(RuleSet(stacking="same_kind"), ["g7"])
    action = NormalBot(seat, match.rules, match.manifest).act(match.view(seat),
                                                             match.legal_actions(seat))
    assert action == Accept()


def test_normal_bot_swaps_hands_with_the_player_holding_the_fewest_cards() -> None:
    # Seat 1 and seat 2 play a card each, seat 0 draws and passes: then seat 1's 7 picks
    # between seat 2 (3 cards) and seat 0 (5 cards).
    rules = RuleSet(seven_zero=True)
    match = deal([["y1", "y2", "y3", "y4"], ["r1", "r7", "g8", "g9"], ["r2", "b3", "b4", "b5"]],
                 top="r5", draws=["y9"], rules=rules)
    assert current(match) == 1
    match.apply(1, Play(card(match, 1, "r1")))
    match.apply(2, Play(card(match, 2, "r2")))
    match.apply(0, Draw())  # y9 does not play on r2: the turn passes by itself
    match.apply(1, Play(card(match, 1, "r7")))
    view = match.view(1)
    assert view.pending is not None and view.pending.kind == Phase.CHOOSE_TARGET
    legal = match.legal_actions(1)
    assert set(legal) >= {ChooseTarget(0), ChooseTarget(2)}
    assert NormalBot(1, match.rules, match.manifest).act(view, legal) == ChooseTarget(2)


def test_normal_bot_never_swaps_with_its_partner_while_an_opponent_is_offered() -> None:
    # Seat 1's partner is seat 3 (teams=pairs). Seat 2 draws, seats 3 and 0 play: seats 3 and
    # 0 hold 3 cards each, seat 2 five. The first with the fewest in turn order is the partner.
    rules = RuleSet(seven_zero=True, teams="pairs")
    hands = [["r4", "y2", "y3", "y4"], ["r1", "r7", "g8", "g9"], ["b2", "b3", "b4", "b5"],
             ["r3", "g1", "g2", "g3"]]
    match = deal(hands, top="r5", draws=["y9"], rules=rules)
    assert current(match) == 1
    match.apply(1, Play(card(match, 1, "r1")))
    match.apply(2, Draw())  # y9 does not play on r1
    match.apply(3, Play(card(match, 3, "r3")))
    match.apply(0, Play(card(match, 0, "r4")))
    match.apply(1, Play(card(match, 1, "r7")))
    view = match.view(1)
    assert [s.cards for s in view.seats] == [3, 2, 5, 3]
    choice = NormalBot(1, match.rules, match.manifest).act(view, match.legal_actions(1))
    assert choice == ChooseTarget(0)


def test_normal_bot_jumps_in_with_an_identical_card() -> None:
    rules = RuleSet(jump_in="identical")
    match = deal([["b7", "y2", "y3"], ["b7", "g8", "g9"], ["r2", "r3", "r4"]], top="b5",
                 rules=rules)
    assert current(match) == 1
    match.apply(1, Play(card(match, 1, "b7")))  # seat 2 is next; seat 0 holds the twin
    view = match.view(0)
    chances = out_of_turn(view, match.legal_actions(0))
    assert Play(card(match, 0, "b7")) in chances
    bot = NormalBot(0, match.rules, match.manifest)
    assert bot.react(view, chances) == Play(card(match, 0, "b7"))


def test_every_seat_is_offered_b_in_a_buzzer_race_and_the_normal_bot_presses_it() -> None:
    rules = RuleSet(buzzers=True)
    match = deal([["y1", "y2", "y3"], ["BZ", "g8", "g9"], ["r2", "r3", "r4"]], top="b5",
                 rules=rules)
    match.apply(1, Play(card(match, 1, "BZ")))
    public = match.view(None)
    assert public.phase == Phase.BUZZER
    assert public.pending is not None and set(public.pending.waiting) == {0, 1, 2}
    for seat in range(3):
        view = match.view(seat)
        chances = out_of_turn(view, match.legal_actions(seat))
        assert NormalBot(seat, match.rules, match.manifest).react(view, chances) == Buzz()


@pytest.mark.parametrize(
    ("option", "hand", "top", "played"),
    [
        ("sequences", ["r4", "r5", "r6", "g9"], "r3", ["r4", "r5", "r6"]),
        ("multiples", ["r5", "g5", "b5", "y1"], "r2", ["r5", "g5", "b5"]),
    ],
)
def test_normal_bot_plays_the_longest_run_or_multiple_it_may(
    option: str, hand: list[str], top: str, played: list[str]
) -> None:
    rules = RuleSet().replace(**{option: True})
    match = deal([["y7", "y8", "b7", "b8"], hand], top=top, rules=rules)
    legal = match.legal_actions(1)
    action = NormalBot(1, match.rules, match.manifest).act(match.view(1), legal)
    assert action in legal and isinstance(action, Play)
    codes = [match.manifest.face(c).code for c in (action.card, *action.also)]
    assert sorted(codes) == sorted(played)


# -- house rules: whole matches -----------------------------------------------------------------


Seen = dict[str, int]


def _play_counting(match: Match, kinds: Sequence[type[Bot]]) -> Seen:
    """Play `match` to its end; how many of each event type (and of plays of several cards,
    'also') happened. Every action a bot took must have been listed for it."""
    seen: Seen = {}

    def listen(seat: int, action: Action, events: list[Event]) -> None:
        if isinstance(action, Play) and action.also:
            seen["also"] = seen.get("also", 0) + 1
        for event in events:
            name = type(event).__name__
            seen[name] = seen.get(name, 0) + 1

    play_match(match, _bots(kinds, match), listen)
    assert match.winner is not None
    return seen


PRESET_SHOWS: dict[str, set[str]] = {
    "seed000": {"DrawStacked"},
    "seed003": {"JumpedIn", "SeatEliminated"},
    "seed004": {"also", "JumpedIn"},  # runs and multiples, and the sequence window
    "party": {"DrawStacked", "HandsMoved", "JumpedIn"},
}
"""What each preset's bots must have used over a few matches: the preset's options in play."""


@pytest.mark.parametrize("name", sorted(PRESET_SHOWS))
def test_bots_finish_whole_matches_of_each_house_rules_preset(name: str) -> None:
    seen: Seen = {}
    for n, seats in enumerate((2, 3, 4, 5)):
        match = Match(preset(name, target=100), seats, f"{name}-{n}".encode())
        kinds = [NormalBot if (seat + n) % 2 else RandomBot for seat in range(seats)]
        for key, count in _play_counting(match, kinds).items():
            seen[key] = seen.get(key, 0) + count
    assert PRESET_SHOWS[name] <= set(seen), (name, seen)


def _random_rules(rng: random.Random) -> tuple[RuleSet, int]:
    """A random combination of the house rules, with a seat count it can deal."""
    teams = rng.random() < 0.2
    seats = rng.choice((4, 6)) if teams else rng.randint(2, 8)
    options: dict[str, Any] = {
        "stacking": rng.choice(("off", "same_kind", "escalating")),
        "stack_mix_wild": rng.random() < 0.5,
        "deflect": rng.random() < 0.5,
        "jump_in": rng.choice(("off", "identical", "same_face")),
        "sequences": rng.random() < 0.5,
        "multiples": rng.random() < 0.5,
        "multi_finish": rng.random() < 0.5,
        "seven_zero": rng.random() < 0.5,
        "buzzers": rng.random() < 0.5,
        "max_hand": rng.choice((None, 15, 25)),
        "max_hand_penalty": rng.choice((50, "hand")),
        "scoring": "winner_collects" if teams else rng.choice(
            ("winner_collects", "lowest_wins", "elimination")),
        "teams": "pairs" if teams else "off",
        "max_rounds": rng.choice((None, 3)),
        "wd4_policy": rng.choice(("challenge", "enforce", "free")),
        "decks": 2 if seats > 6 else 1,
        "target": 100,
    }
    rules = RuleSet(**options)
    rules.check_table(seats)
    return rules, seats


def test_bots_finish_whole_matches_under_random_combinations_of_the_house_rules() -> None:
    rng = random.Random(10)
    seen: Seen = {}
    for n in range(40):
        rules, seats = _random_rules(rng)
        match = Match(rules, seats, bytes([n]))
        kinds = [NormalBot if (seat + n) % 2 else RandomBot for seat in range(seats)]
        for key, count in _play_counting(match, kinds).items():
            seen[key] = seen.get(key, 0) + count
    used = {"DrawStacked", "DrawDeflected", "JumpedIn", "HandsMoved", "BuzzerOpened",
            "KnockedOut", "SeatEliminated", "also"}
    assert used <= set(seen), used - set(seen)


def test_in_a_buzzer_race_every_seat_presses_b_and_normal_bots_never_need_the_window() -> None:
    rules = RuleSet(buzzers=True, target=100)
    opened: list[ev.BuzzerOpened] = []
    pressed: list[list[int]] = []
    expired: list[str] = []

    def listen(seat: int, action: Action, events: list[Event]) -> None:
        for event in events:
            if isinstance(event, ev.BuzzerOpened):
                opened.append(event)
                pressed.append([])
            elif isinstance(event, ev.Buzzed):
                pressed[-1].append(event.seat)
            elif isinstance(event, ev.Expired):
                expired.append(event.kind)

    match = Match(rules, 4, b"buzz")
    play_match(match, [NormalBot(s, rules, match.manifest, seed=s) for s in range(4)], listen)
    assert opened, "no Buzzer was played: pick another seed"
    for race, seats in zip(opened, pressed, strict=True):
        assert sorted(seats) == sorted(race.waiting)
    assert "buzzer" not in expired
    firsts = {seats[0] for seats in pressed if seats}
    assert len(firsts) > 1, "the same seat always pressed first: the driver favours a seat"


def test_a_race_nobody_presses_is_closed_by_the_driver_and_everyone_draws() -> None:
    class Idle(RandomBot):
        def react(self, view: View, legal: Sequence[Action]) -> Action | None:
            return None

    rules = RuleSet(buzzers=True, target=100)
    closed: list[ev.BuzzerClosed] = []

    def listen(seat: int, action: Action, events: list[Event]) -> None:
        closed.extend(e for e in events if isinstance(e, ev.BuzzerClosed))

    match = Match(rules, 3, b"idle")
    play_match(match, [Idle(s, rules, match.manifest, seed=s) for s in range(3)], listen)
    assert closed and all(len(race.losers) >= 2 for race in closed)


def test_the_light_list_of_policies_names_every_bot_the_engine_has() -> None:
    """The command line offers unonet.bot_settings' names without loading the bots (issue 43:
    `unonet --help` answers fast); a policy added to one list and not the other fails here."""
    from unonet.bot_settings import LEVEL_NAMES, POLICY_NAMES
    from unonet.bots import POLICIES

    assert tuple(POLICIES) == POLICY_NAMES
    assert set(LEVEL_NAMES) == set(POLICY_NAMES)
