"""UNO Flip in the log: the table turning over, the Wild Draw Color's draw "until a colour", a
challenge named by the side's own challengeable card, every card named on the side in play; the
other sides shown after each step say nothing (they are on the screen).

A card id names its light face only (the public manifest, `light_manifest`); its dark face is the
round's secret pairing, told card by card (DarkFacesShown). So a dark-side card is named by the
dark face the reader was told: `narrate(..., dark=)`, or a Narrator following the events; one
never told is "?", never a crash and never its light face."""

from __future__ import annotations

import pytest
from flip_scenario import flip_deal

from unonet import events as ev
from unonet.actions import Action, Play
from unonet.bots import NormalBot
from unonet.bots.driver import play_match
from unonet.cards import Color, Face, Kind
from unonet.cli import main
from unonet.flip_deck import DARK, LIGHT, light_manifest, round_manifest
from unonet.match import Match
from unonet.narrate import Narrator, narrate
from unonet.phase import Phase
from unonet.rules import RuleSet
from unonet.words import LANGUAGES

FLIP_RULES = RuleSet(variant="flip")

NAMES = ("Ana", "Bruno", "Chiara", "Davi")
PAIRED = round_manifest(b"narrate-flip")  # one round's pairing, as the host deals it
MANIFEST = light_manifest()  # what every client has: light faces only
TOLD = {card.id: card.faces[DARK] for card in PAIRED}  # every dark face told (a round's end)
P = ((0, 3), (0, 4))


def card_with(side: int, name: str) -> int:
    """The first card whose face on `side` is called `name` ('pink 5', 'Wild Draw Color')."""
    return next(c.id for c in PAIRED if c.faces[side].name == name)


def say(event: ev.Event, lang: str = "en", side: int = LIGHT) -> str | None:
    return narrate(event, NAMES, MANIFEST, None, lang, side, TOLD)


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
    both = PAIRED.cards[skip_everyone].faces
    played = ev.CardPlayed(2, skip_everyone, (0, 1), None, False)
    assert say(played, side=DARK) == "Chiara plays cyan Skip Everyone."
    assert say(played, side=LIGHT) == f"Chiara plays {both[0].name}."
    got = ev.CardsReceived(0, P, (card_with(DARK, "orange Draw Five"),))
    assert narrate(got, NAMES, MANIFEST, 0, "it", DARK, TOLD) == "Hai ricevuto: +5 arancione."


def test_a_dark_card_never_told_is_a_question_mark_not_its_light_face() -> None:
    """Without the dark faces (a caller that has none, a host that did not tell one) the dark
    side names no card it cannot know: "?", and no exception."""
    card = card_with(DARK, "cyan Skip Everyone")
    played = ev.CardPlayed(2, card, (0, 1), None, False)
    assert narrate(played, NAMES, MANIFEST, None, "en", DARK) == "Chiara plays ?."
    flipped = ev.Flipped(1, DARK, card)
    assert narrate(flipped, NAMES, MANIFEST) == (
        "Bruno flips the table: the dark side is in play, ? on top.")
    assert narrate(played, NAMES, MANIFEST, None, "en", LIGHT) == (
        f"Chiara plays {MANIFEST.face(card).name}.")


def test_the_narrator_names_dark_cards_by_the_faces_told_to_its_reader() -> None:
    """A Narrator takes the dark faces told to everybody and to its viewer, not those told to
    another seat; a new round forgets them (its pairing is new)."""
    mine, theirs = card_with(DARK, "pink 5"), card_with(DARK, "orange Draw Five")
    tell = Narrator(NAMES, MANIFEST, viewer=0)
    tell(ev.Flipped(1, DARK, mine))
    tell(ev.DarkFacesShown(0, (mine,), (PAIRED.face(mine, DARK),)))
    tell(ev.DarkFacesShown(1, (theirs,), (PAIRED.face(theirs, DARK),)))  # not for seat 0
    assert tell(ev.CardPlayed(0, mine, (0, 1), None, False)) == "Ana plays pink 5."
    assert tell(ev.CardPlayed(1, theirs, (0, 2), None, False)) == "Bruno plays ?."
    tell(ev.DarkFacesShown(None, (theirs,), (PAIRED.face(theirs, DARK),)))  # now public
    assert tell(ev.CardPlayed(1, theirs, (0, 2), None, False)) == "Bruno plays orange Draw Five."
    tell(ev.RoundStarted(2, 1, 112))
    tell(ev.Flipped(1, DARK, mine))
    assert tell(ev.CardPlayed(0, mine, (0, 1), None, False)) == "Ana plays ?."


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
        assert challenge == "Bruno may challenge the Wild Draw Color or draw until a card is pink."
        assert stack == "Wild Draw Color on Bruno: answer it or draw until a card is purple."


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
    assert first is not None
    assert match.round is not None
    paired = match.round.manifest  # the round's pairing: the narrator never reads it
    flip_card = next(c for c in match.round.hands[first]
                     if match.manifest.face(c, LIGHT).kind is Kind.FLIP)
    lines = [tell(e) for e in match.apply(first, Play(flip_card))]
    assert tell.side == DARK
    assert match.round is not None
    flipped = next(line for line in lines if line and "flips the table" in line)
    top = match.round.discard[-1]
    assert flipped.endswith(f"{paired.face(top, DARK).name} on top.")
    # the next card played is named by its dark face
    seat = match.pending_seat
    assert seat is not None
    plays = [a for a in match.legal_actions(seat) if isinstance(a, Play) and a.color is None]
    assert plays, "the stacked deal leaves the next player a card to play on the dark side"
    told = [(e, tell(e)) for e in match.apply(seat, plays[0])]  # its dark face told first
    text = next(line for e, line in told if isinstance(e, ev.CardPlayed))
    assert text is not None
    assert paired.face(plays[0].card, DARK).name in text


def test_a_whole_flip_match_is_told_in_every_language() -> None:
    """Bots play a Flip match: every event is worded or silent as declared, in every language,
    and the table does flip. A public log (viewer None) names every card played on the dark
    side by its true dark face, from the public dark faces alone."""
    match = Match(FLIP_RULES.replace(target=200), 4, b"narrate-a-flip-match")
    bots = [NormalBot(s, match.rules, match.manifest, seed=s) for s in range(4)]
    tellers = {lang: Narrator(NAMES, match.manifest, None, lang) for lang in LANGUAGES}
    flips = dark_plays = 0

    def tell(seat: int, action: Action, events: list[ev.Event]) -> None:
        nonlocal flips, dark_plays
        for event in events:
            for lang, teller in tellers.items():
                text = teller(event)
                if isinstance(event, ev.Flipped):
                    assert text, (lang, event)
                    flips += 1
                if isinstance(event, ev.OtherSidesShown | ev.PileOtherSideShown
                              | ev.DarkFacesShown):
                    assert text is None
                assert text is None or "{" not in text, text
                if isinstance(event, ev.CardPlayed) and lang == "en":
                    assert match.round is not None
                    face = match.round.manifest.face(event.card, teller.side)
                    assert text is not None and face.name in text, (text, face)
                    dark_plays += teller.side == DARK

    play_match(match, bots, tell)
    assert match.winner is not None
    assert flips > 0 and dark_plays > 0


def test_unonet_play_log_names_dark_side_cards_by_their_dark_faces(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`unonet play --rules flip --log`: after the table flips to the dark side every card
    played is named by a dark face (a dark colour, or a dark wild), never by its light face,
    and no card is left unnamed ("?")."""
    assert main(["play", "--rules", "flip", "--log", "--seed", "01"]) == 0
    lines = capsys.readouterr().out.splitlines()
    side, dark_plays = LIGHT, 0
    dark_words = ("orange", "purple", "pink", "cyan", "Wild")
    light_words = ("red", "yellow", "green", "blue", "Draw Two", "Draw One")
    for line in lines:
        if "flips the table" in line:
            side = DARK if "dark side is in play" in line else LIGHT
        elif line.strip().startswith("Round "):  # every round starts on the light side
            side = LIGHT
        assert "?" not in line, line
        if side == DARK and " plays " in line:
            card = line.split(" plays ", 1)[1]
            assert any(w in card for w in dark_words), line
            assert not any(w in card.split(" and chooses ")[0] for w in light_words), line
            dark_plays += 1
    assert dark_plays > 10
