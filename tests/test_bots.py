"""Bots decide from views only, play legal moves, and the normal bot plays like a decent human."""

from __future__ import annotations

from collections.abc import Sequence

from unonet.actions import Action, Challenge, Play
from unonet.bots import NormalBot, RandomBot
from unonet.bots.base import Bot
from unonet.bots.driver import play_match
from unonet.cards import Color
from unonet.events import Event
from unonet.match import Match
from unonet.rules import RuleSet
from unonet.stacking import stacked_order
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
    bot = NormalBot(1, match.rules, match.manifest)
    action = bot.act(match.view(1), match.legal_actions(1))
    assert isinstance(action, Play) and action.uno


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
