"""UNO Flip in the log: the table turning over, the Wild Draw Color's draw "until a colour", a
challenge named by the side's own challengeable card, every card named on the side in play; the
other sides shown after each step say nothing (they are on the screen)."""

from __future__ import annotations

import pytest
from flip_scenario import flip_deal

from unonet import events as ev
from unonet.actions import Action, Play
from unonet.bots import NormalBot
from unonet.bots.driver import play_match
from unonet.cards import Color, Face, Kind
from unonet.flip_deck import DARK, LIGHT, flip_manifest
from unonet.match import Match
from unonet.narrate import Narrator, narrate
from unonet.phase import Phase
from unonet.rules import RuleSet
from unonet.words import LANGUAGES

FLIP_RULES = RuleSet(variant="flip")

NAMES = ("Ana", "Bruno", "Chiara", "Davi")
MANIFEST = flip_manifest(b"narrate-flip")
P = ((0, 3), (0, 4))


def card_with(side: int, name: str) -> int:
    """The first card whose face on `side` is called `name` ('pink 5', 'Wild Draw Color')."""
    return next(c.id for c in MANIFEST if c.faces[side].name == name)


def say(event: ev.Event, lang: str = "en", side: int = LIGHT) -> str | None:
    return narrate(event, NAMES, MANIFEST, None, lang, side)


def test_a_flip_says_the_side_now_in_play_and_the_new_top_read_on_it() -> None:
    top = card_with(DARK, "pink 5")
    flipped = ev.Flipped(1, DARK, top)
    assert say(flipped) == "Bruno flips the table: the dark side is in play, pink 5 on top."
    assert say(flipped, "it") == "Bruno gira il tavolo: si gioca sul lato scuro, in cima 5 rosa."
    assert say(flipped, "pt") == "Bruno vira a mesa: agora vale o lado escuro, 5 rosa na mesa."
    # the new top is read on the side the event names, whatever side the caller passed
    assert say(flipped, side=LIGHT) == say(flipped, side=DARK)
    back = ev.Flipped(0, LIGHT, card_with(LIGHT, "Wild"))
    assert say(back) == "Ana flips the table: the light side is in play, Wild on top."


def test_cards_are_named_on_the_side_in_play() -> None:
    skip_everyone = card_with(DARK, "cyan Skip Everyone")
    both = MANIFEST.cards[skip_everyone].faces
    played = ev.CardPlayed(2, skip_everyone, (0, 1), None, False)
    assert say(played, side=DARK) == "Chiara plays cyan Skip Everyone."
    assert say(played, side=LIGHT) == f"Chiara plays {both[0].name}."
    got = ev.CardsReceived(0, P, (card_with(DARK, "orange Draw Five"),))
    assert narrate(got, NAMES, MANIFEST, 0, "it", DARK) == "Hai pescato: +5 arancione."


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_until_colour_decision_names_the_colour(lang: str) -> None:
    challenge = say(ev.DecisionPending(1, Phase.CHALLENGE, 0, Color.PINK), lang, DARK)
    stack = say(ev.DecisionPending(1, Phase.STACK, 0, Color.PURPLE), lang, DARK)
    assert challenge is not None and stack is not None
    for text, color in ((challenge, "pink"), (stack, "purple")):
        words = {"en": {"pink": "pink", "purple": "purple"},
                 "it": {"pink": "rosa", "purple": "viola"},
                 "pt": {"pink": "rosa", "purple": "roxo"}}[lang]
        assert words[color] in text and "Bruno" in text
    if lang == "en":
        assert challenge == "Bruno may challenge the Wild Draw Color or draw until a pink card."
        assert stack == "Wild Draw Color on Bruno: answer it or draw until a purple card."


def test_a_challenge_names_the_sides_own_challengeable_card() -> None:
    assert say(ev.DecisionPending(1, Phase.CHALLENGE, 2), side=LIGHT) == (
        "Bruno may challenge the Wild Draw Two or take 2.")
    assert say(ev.Challenged(1, 0, True), side=LIGHT) == (
        "Bruno challenges the Wild Draw Two: Ana was bluffing!")
    assert say(ev.Challenged(1, 0, False), "it", side=DARK) == (
        narrate(ev.Challenged(1, 0, False), NAMES, MANIFEST, None, "it", DARK))
    assert "Jolly pesca colore" in (say(ev.Challenged(1, 0, False), "it", side=DARK) or "")


def test_other_sides_shown_are_silent_and_a_flip_hand_pass_is_worded() -> None:
    shown = ev.OtherSidesShown(1, P, (Face(Kind.NUMBER, Color.PINK, 5, 5), Face(Kind.WILD)))
    for lang in LANGUAGES:
        assert say(shown, lang) is None
        assert say(ev.PileOtherSideShown(None, None), lang) is None
    moves = ((0, 1, P), (1, 2, P), (2, 3, P), (3, 0, P))
    assert say(ev.HandsMoved(moves, "flip")) == say(ev.HandsMoved(moves, "zero"))


def test_the_narrator_follows_the_side_through_a_real_flip() -> None:
    """A stacked deal: whoever plays first plays a red Flip; the narrator says the new top on
    the dark side and names the next card played by its dark face, as the engine reads it."""
    match = flip_deal(
        hands=[["red Flip", "red 3", "green 2"], ["red Flip", "blue 4", "yellow 6"]],
        top="red 5",
        rules=FLIP_RULES,
    )
    tell = Narrator(NAMES[:2], match.manifest)
    first = match.pending_seat
    assert match.round is not None
    flip_card = next(c for c in match.round.hands[first]
                     if match.manifest.face(c, LIGHT).kind is Kind.FLIP)
    lines = [tell(e) for e in match.apply(first, Play(flip_card))]
    assert tell.side == DARK
    assert match.round is not None
    flipped = next(line for line in lines if line and "flips the table" in line)
    top = match.round.discard[-1]
    assert flipped.endswith(f"{match.manifest.face(top, DARK).name} on top.")
    # the next card played is named by its dark face
    seat = match.pending_seat
    plays = [a for a in match.legal_actions(seat) if isinstance(a, Play) and a.color is None]
    assert plays, "the stacked deal leaves the next player a card to play on the dark side"
    events = match.apply(seat, plays[0])
    text = tell(next(e for e in events if isinstance(e, ev.CardPlayed)))
    assert text is not None
    assert match.manifest.face(plays[0].card, DARK).name in text


def test_a_whole_flip_match_is_told_in_every_language() -> None:
    """Bots play a Flip match: every event is worded or silent as declared, in every language,
    and the table does flip."""
    match = Match(FLIP_RULES.replace(target=200), 4, b"narrate-a-flip-match")
    bots = [NormalBot(s, match.rules, match.manifest, seed=s) for s in range(4)]
    tellers = {lang: Narrator(NAMES, match.manifest, None, lang) for lang in LANGUAGES}
    flips = 0

    def tell(seat: int, action: Action, events: list[ev.Event]) -> None:
        nonlocal flips
        for event in events:
            for lang, teller in tellers.items():
                text = teller(event)
                if isinstance(event, ev.Flipped):
                    assert text, (lang, event)
                    flips += 1
                if isinstance(event, ev.OtherSidesShown | ev.PileOtherSideShown):
                    assert text is None
                assert text is None or "{" not in text, text

    play_match(match, bots, tell)
    assert match.winner is not None
    assert flips > 0
