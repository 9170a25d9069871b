"""Bots play UNO Flip (issue 14): they read every face on the side in play, and the normal bot
uses the other sides everybody sees (unonet/bots/flip_sense.py): it plays a Flip when that
helps it and holds it when it would hand an opponent the round, names a colour the next player
is not known to hold, challenges knowing what the card's player held since the last Flip, and
clearly beats the random bot over many Flip matches.

Scenarios are stacked decks (tests/flip_scenario.py); the bots are fed every event of the deal
and of each step, as the driver and the network bot feed them.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace as dataclass_replace

import pytest
from flip_scenario import SEED, card, flip_deal, name

from unonet.actions import Action, Challenge, Play
from unonet.bots import NormalBot, RandomBot
from unonet.bots.base import Bot
from unonet.bots.driver import deliver, play_match
from unonet.bots.flip_sense import FlipMemory
from unonet.cards import Color
from unonet.events import Event, Flipped
from unonet.flip_deck import DARK
from unonet.match import BETWEEN_ROUNDS, MATCH_OVER, Match
from unonet.phase import Phase
from unonet.rules import RuleSet

FLIP_RULES = RuleSet(variant="flip")

# -- helpers -------------------------------------------------------------------------------------


def dealt(hands: Sequence[Sequence[str]], top: str, dealer: int = 0,
          draws: Sequence[str] = ()) -> tuple[Match, list[Event]]:
    """flip_deal's match, dealt again so that the deal's events (every hand's other side) can
    be given to the bots."""
    shown = flip_deal(hands, top=top, dealer=dealer, draws=draws)
    match = Match(shown.rules, len(hands), SEED, deck=shown.deck,
                  stacked_decks=[list(range(len(shown.manifest)))], first_dealer=dealer)
    return match, match.start_round()


def normal(match: Match, seat: int, events: list[Event]) -> NormalBot:
    bot = NormalBot(seat, match.rules, match.manifest, seed=seat, forget_rate=0.0)
    deliver([bot], events)
    return bot


def step(match: Match, bots: Sequence[Bot], seat: int, face: str,
         color: Color | None = None) -> None:
    deliver(bots, match.apply(seat, Play(card(match, seat, face), color)))


def decide(bot: Bot, match: Match) -> Action:
    legal = match.legal_actions(bot.seat)
    action = bot.act(match.view(bot.seat), legal)
    assert action in legal
    return action


# -- reading the side in play --------------------------------------------------------------------


def test_on_the_dark_side_the_normal_bot_reads_dark_faces_and_names_a_dark_colour() -> None:
    # Seat 0 flips; seat 1's dark faces are a Wild, two purples and a cyan.
    match, events = dealt([["red Flip/cyan 1", "yellow 2", "yellow 4"],
                           ["blue 1/Wild", "blue 2/purple 7", "blue 3/purple 8"]],
                          top="red 8/orange 1", dealer=1)
    bot = normal(match, 1, events)
    step(match, [bot], 0, "red Flip")
    assert match.view(1).side == DARK
    action = decide(bot, match)
    assert isinstance(action, Play) and action.card == card(match, 1, "Wild")
    assert action.color == Color.PURPLE  # what it holds most, on the side in play


def test_a_dark_face_never_told_leaves_the_normal_bot_answering_from_the_legal_list() -> None:
    # Only a host breaking SPEC 9.2 leaves one out: the bot still answers, legally.
    match, events = dealt([["red Flip/cyan 1", "yellow 2", "yellow 4"],
                           ["blue 1/Wild", "blue 2/purple 7", "blue 3/purple 8"]],
                          top="red 8/orange 1", dealer=1)
    bot = normal(match, 1, events)
    step(match, [bot], 0, "red Flip")
    view = match.view(1)
    assert view.side == DARK and view.dark_faces
    legal = match.legal_actions(1)
    assert bot.act(dataclass_replace(view, dark_faces=()), legal) in legal


# -- playing a Flip ------------------------------------------------------------------------------


def _near_out(opponent_back: str, other_play: str) -> str:
    """Seat 0 plays down to one card, whose dark face (everybody sees it) is `opponent_back`;
    the bot, seat 1, may play a red Flip or `other_play`: the name of what it plays."""
    match, events = dealt([["red 1", f"blue 9/{opponent_back}"],
                           ["red Flip/orange 9", f"{other_play}/orange 8"]],
                          top="red 8", dealer=1)
    bot = normal(match, 1, events)
    step(match, [bot], 0, "red 1")
    action = decide(bot, match)
    assert isinstance(action, Play)
    return name(match, action.card)


def test_the_normal_bot_flips_when_the_player_about_to_go_out_shows_a_colour_on_the_back() -> None:
    # Otherwise the Draw One would go first, to hit the player about to go out.
    assert _near_out("orange 5", "red Draw One") == "red Flip"


def test_the_normal_bot_keeps_its_flip_when_it_would_hand_the_opponent_a_wild() -> None:
    # Otherwise the Flip would go first, shedding its 20 points.
    assert _near_out("Wild", "red 6") == "red 6"


def _strong_or_weak_backs(bot_hand: list[str]) -> str:
    """Seat 0 plays a red 8 (three cards left: nobody close to going out); what the bot plays."""
    match, events = dealt([["red 8", "green 2", "green 3", "green 4"], bot_hand],
                          top="red 2", dealer=1)
    bot = normal(match, 1, events)
    step(match, [bot], 0, "red 8")
    action = decide(bot, match)
    assert isinstance(action, Play)
    return name(match, action.card)


def test_the_normal_bot_flips_to_a_stronger_hand_when_nobody_is_close_to_going_out() -> None:
    # Otherwise it would follow the colour it holds most (yellow 8, on the red 8).
    hand = ["red Flip/orange 1", "yellow 8/Wild", "yellow 5/purple Skip Everyone",
            "yellow 6/cyan Draw Five"]
    assert _strong_or_weak_backs(hand) == "red Flip"


def test_the_normal_bot_keeps_its_flip_when_its_hand_is_stronger_on_this_side() -> None:
    # Otherwise the Flip's 20 points would go before the yellow 8.
    hand = ["red Flip/orange 1", "yellow 8/orange 2", "Wild/purple 3", "Wild Draw Two/cyan 4"]
    assert _strong_or_weak_backs(hand) == "yellow 8"


# -- what the others hold after a Flip -----------------------------------------------------------


def test_after_a_flip_the_normal_bot_names_a_colour_the_next_player_is_not_known_to_hold() -> None:
    # After seat 0's Flip its hand shows pink 3, pink 5 and pink 9 in play (everybody saw them
    # on its back). The bot holds two pinks and one purple besides its Wild: it names purple.
    match, events = dealt([["red Flip/cyan 1", "yellow 2/pink 3", "yellow 4/pink 5",
                            "green 6/pink 9"],
                           ["blue 1/Wild", "blue 2/pink 7", "blue 3/pink 8", "blue 5/purple 4"]],
                          top="red 8/orange 1", dealer=1)
    bot = normal(match, 1, events)
    step(match, [bot], 0, "red Flip")
    assert sorted(f.name for f in bot.flips.known_in_play(0, DARK)) == [
        "pink 3", "pink 5", "pink 9"]
    action = decide(bot, match)
    assert isinstance(action, Play) and action.card == card(match, 1, "Wild")
    assert action.color == Color.PURPLE
    # A bot that has seen nothing of seat 0 names the colour it holds most: pink.
    blind = normal(match, 1, [])
    blind_action = decide(blind, match)
    assert isinstance(blind_action, Play) and blind_action.color == Color.PINK


def _wild_draw_color(keeps: list[str]) -> tuple[Match, NormalBot, NormalBot]:
    """Seat 0 flips, seat 1 (the bot) plays a pink 2, seat 0 plays a Wild Draw Color over pink
    keeping `keeps` (light/dark names). Returns the bot that saw it all and one that saw
    nothing of seat 0's hand."""
    pads = ["blue 6/purple 6", "blue 7/purple 7", "blue 8/purple 8", "blue 9/purple 9"]
    match, events = dealt([["red Flip/cyan 1", "yellow 2/Wild Draw Color", *keeps],
                           ["blue 1/pink 2", "blue 3/orange 4", "blue 5/orange 3",
                            *pads[:len(keeps) - 1]]],
                          top="red 8/pink 1", dealer=1)
    bot = normal(match, 1, events)
    step(match, [bot], 0, "red Flip")
    step(match, [bot], 1, "pink 2")
    step(match, [bot], 0, "Wild Draw Color", Color.CYAN)
    view = match.view(1)
    assert view.pending is not None and view.pending.kind is Phase.CHALLENGE
    assert view.pending.until_color == Color.CYAN and view.pending.color_before == Color.PINK
    return match, bot, normal(match, 1, [])


def test_the_normal_bot_challenges_a_wild_draw_color_from_a_player_known_to_hold_it() -> None:
    match, bot, blind = _wild_draw_color(["yellow 4/pink 5"])
    assert decide(bot, match) == Challenge()
    assert decide(blind, match) != Challenge()  # one card left: the odds say it is honest


def test_the_normal_bot_accepts_a_wild_draw_color_from_a_player_known_not_to_hold_it() -> None:
    match, bot, blind = _wild_draw_color(["yellow 4/orange 5", "yellow 5/orange 6",
                                          "yellow 6/cyan 7", "yellow 7/cyan 8"])
    assert decide(bot, match) != Challenge()
    assert decide(blind, match) == Challenge()  # four cards left: the odds say a bluff


# -- memory follows the cards --------------------------------------------------------------------


@pytest.mark.parametrize("passes", [False, True])
def test_right_after_every_flip_the_memory_knows_every_hand_in_play(passes: bool) -> None:
    """Random Flip matches (with and without hand passes, with 7-0 swaps): what FlipMemory says
    a seat holds in play is always in that seat's hand, and right after a Flip it is all of it."""
    rules = FLIP_RULES.replace(flip_passes_hands=passes, seven_zero=True, target=100)
    flips = 0
    for seed in range(4):
        match = Match(rules, 3, bytes([seed, 14]))
        follower = _Follower(match)
        play_match(match, [RandomBot(s, rules, match.manifest, seed=s) for s in range(3)],
                   follower)
        flips += follower.flips
    assert flips > 10


class _Follower:
    """A FlipMemory fed every event of a match, checked against the match after each step."""

    def __init__(self, match: Match) -> None:
        self.match = match
        self.memory = FlipMemory()
        self.flips = 0

    def __call__(self, seat: int, action: Action, events: list[Event]) -> None:
        for event in events:
            self.memory.observe(event)
        rnd = self.match.round
        if rnd is None or self.match.phase in (BETWEEN_ROUNDS, MATCH_OVER):
            return
        flipped = any(isinstance(e, Flipped) for e in events)
        self.flips += flipped
        for s in range(self.match.seats):
            held = Counter(rnd.face(c) for c in rnd.hands[s])
            known = Counter(self.memory.known_in_play(s, rnd.side))
            assert known <= held, (s, known, held)
            if flipped:
                assert known == held, (s, known, held)


# -- over many matches ---------------------------------------------------------------------------


def test_normal_bots_clearly_beat_random_bots_at_flip() -> None:
    """40 two-seat Flip matches to 200 on fixed seeds, each level first half of the time: the
    normal bot wins at least 85% (it won 40 of 40 when this was written, and again once dark
    faces were read only as told: the per-round secret pairing)."""
    wins = Counter[str]()
    flips = 0
    for seed in range(40):
        match = Match(FLIP_RULES.replace(target=200), 2, bytes([seed, 41]))
        kinds: list[type[Bot]] = [NormalBot, RandomBot] if seed % 2 else [RandomBot, NormalBot]
        bots = [kind(s, match.rules, match.manifest, seed=s) for s, kind in enumerate(kinds)]

        def count(seat: int, action: Action, events: list[Event]) -> None:
            nonlocal flips
            flips += sum(isinstance(e, Flipped) for e in events)

        play_match(match, bots, count)
        assert match.winner is not None
        wins["normal" if kinds[match.winner] is NormalBot else "random"] += 1
    assert wins["normal"] >= 34, wins
    assert flips > 40  # the matches did turn over


def test_bots_finish_flip_matches_under_the_options_that_combine_with_it() -> None:
    rng = random.Random(14)
    for seed in range(6):
        rules = FLIP_RULES.replace(
            target=150, stacking=rng.choice(["off", "same_kind", "escalating"]),
            jump_in=rng.choice(["off", "identical"]), seven_zero=rng.random() < 0.5,
            flip_passes_hands=rng.random() < 0.5, sequences=rng.random() < 0.5,
            wd4_policy=rng.choice(["challenge", "enforce", "free"]))
        match = Match(rules, 4, bytes([seed, 99]))
        kinds: list[type[Bot]] = [NormalBot, RandomBot, NormalBot, RandomBot]
        play_match(match, [k(s, rules, match.manifest, seed=s) for s, k in enumerate(kinds)])
        assert match.winner is not None and match.phase == MATCH_OVER

