"""The one narrator words every event in English, Italian and Portuguese, each private event only
to its audience, with the card names the client shows; names are used exactly as given."""

from __future__ import annotations

import inspect
import re
import string
from pathlib import Path

import pytest

from client.i18n import Translator
from unonet import events as ev
from unonet.actions import Action
from unonet.bots import NormalBot
from unonet.bots.driver import play_match
from unonet.cards import Color, DeckManifest, Face, Kind, classic_manifest
from unonet.match import Match
from unonet.narrate import BOOKKEEPING, SAID_BY_THE_CATCH, Narrator, narrate
from unonet.phase import DECISIONS, Phase
from unonet.rules import preset
from unonet.words import CARD_WORDS, LANGUAGES, SENTENCES, game_words

MANIFEST = classic_manifest(buzzers=True)
NAMES = ("Ana", "Bruno", "Chiara", "Davi")
NARRATOR = Path(__file__).resolve().parent.parent / "unonet" / "narrate.py"


def card(code: str, manifest: DeckManifest = MANIFEST) -> int:
    """The first card id of the manifest whose face has this code ('r5', 'W+4', 'BZ')."""
    return next(c.id for c in manifest if c.faces[0].code == code)


P = ((0, 7), (0, 8))  # two positions of the deal's shuffled order


def samples() -> list[ev.Event]:
    """Real instances of every event class, in the shapes the engine emits them (one per case
    the narrator words differently)."""
    return [
        ev.DealerDraw(0, ((0, card("r5")), (1, card("g7")))),
        ev.DealerDraw(1, ((0, card("b9")), (1, card("y9")))),
        ev.RoundStarted(1, 0, 108),
        ev.RoundEnded(1, ((), (card("r5"),), (), ()), (5, 0, 0, 0), (5, 0, 0, 0)),
        ev.RoundEnded(1, ((), (card("r5"),), (), ()), (0, 5, 0, 0), (0, 5, 0, 0)),
        ev.RoundEnded(None, ((), (), (), ()), (0, 0, 0, 0), (0, 0, 0, 0)),
        ev.MatchEnded(2, (10, 20, 530, 0)),
        ev.CardsDrawn(1, P, "deal"),
        ev.CardsDrawn(1, P[:1], "draw"),
        ev.CardsDrawn(1, P, "draw_two"),
        ev.CardsDrawn(1, P, "penalty_uno"),
        ev.CardsDrawn(1, P, "penalty_buzzer"),
        ev.CardsDrawn(1, P, "stack"),
        ev.CardsReceived(1, P, (card("r5"), card("W"))),
        ev.TopCardTurned(card("g7"), (0, 28)),
        ev.Reshuffled(1, P, (card("r5"), card("g7")), "empty_pile"),
        ev.Reshuffled(0, (), (), "first_card_wild_draw_four"),
        ev.CardPlayed(0, card("r5"), (0, 1), None, False),
        ev.CardPlayed(0, card("r5"), (0, 1), None, True),
        ev.CardPlayed(0, card("W"), (0, 1), Color.BLUE, False),
        ev.CardPlayed(0, card("W+4"), (0, 1), Color.BLUE, True),
        ev.CardsReturned(3, P, "max_hand"),
        ev.TurnStarted(1, 1),
        ev.Skipped(1, "skip"),
        ev.DirectionChanged(1),
        ev.DirectionChanged(-1),
        ev.ColorChosen(0, Color.GREEN),
        ev.Passed(2),
        ev.CannotDraw(2),
        *(ev.DecisionPending(1, kind, 6) for kind in sorted(DECISIONS)),
        ev.DecisionPending(1, Phase.CHALLENGE, 0),
        ev.UnoCalled(0),
        ev.UnoCaught(1, 0, 2),
        ev.UnoCaught(None, 0, 2),
        ev.FalseCatch(1, 0, 2),
        ev.CatchWindowClosed((0,)),
        ev.Challenged(1, 0, True),
        ev.Challenged(1, 0, False),
        ev.ChallengeReveal(1, 0, (card("r5"),), P[:1], Color.RED),
        ev.ChallengeReveal(1, 0, (), (), Color.RED),
        ev.Penalized(2, 2),
        ev.Expired(2, "turn"),
        ev.MayPlayDrawn(1, card("g7")),
        ev.DrawStacked(1, 6),
        ev.DrawDeflected(1, 2, 6),
        ev.JumpedIn(2, "jump_in"),
        ev.JumpedIn(2, "sequence"),
        ev.JumpInRefused(3, card("r5"), 3),
        ev.HandsMoved(((0, 2, P), (2, 0, P)), "seven"),
        ev.HandsMoved(((0, 1, P), (1, 2, P), (2, 3, P), (3, 0, P)), "zero"),
        ev.BuzzerOpened(0, (0, 1, 2, 3)),
        ev.Buzzed(2, 1),
        ev.BuzzerClosed((3,), 2),
        ev.BuzzerClosed((1, 3), 2),
        ev.BuzzerClosed((), 2),
        ev.KnockedOut(3, 25, 250),
        ev.Stalemate(2),
        ev.SeatEliminated(1, 500),
        ev.Flipped(2, 1, card("g7")),
        ev.DecisionPending(1, Phase.CHALLENGE, 0, Color.PINK),
        ev.DecisionPending(1, Phase.STACK, 0, Color.CYAN),
        ev.OtherSidesShown(1, P, (Face(Kind.NUMBER, Color.PINK, 5, 5), Face(Kind.WILD))),
        ev.PileOtherSideShown(P[0], Face(Kind.SKIP_EVERYONE, Color.CYAN, None, 30)),
        ev.DarkFacesShown(1, (3,), (Face(Kind.NUMBER, Color.PINK, 5, 5),)),
        ev.DarkFacesShown(None, (4,), (Face(Kind.WILD),)),
        ev.Reshuffled(0, (), (), "first_card_wild_draw_two"),  # UNO Flip's first card
        ev.CardsDiscarded(1, P, (card("r5"), card("r3"))),  # the No Mercy cards
        ev.RouletteTurned(2, Color.RED, P, (card("g7"), card("r5"))),
        ev.DrawCancelled(3, 10),
    ]


def reader(event: ev.Event) -> int | None:
    """Whoever may read `event`: a seat of its audience, or the public (None)."""
    audience = event.audience
    return None if audience is None else min(audience)


def event_classes() -> set[type[ev.Event]]:
    return {cls for _, cls in inspect.getmembers(ev, inspect.isclass)
            if issubclass(cls, ev.Event) and cls is not ev.Event}


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


# -- every event, every language -----------------------------------------------------------------


def test_the_samples_cover_every_event_class_and_every_decision() -> None:
    """A new event class fails here until it has a sample, and so a sentence (below)."""
    assert {type(e) for e in samples()} == event_classes()
    decided = {e.kind for e in samples() if isinstance(e, ev.DecisionPending)}
    assert decided == set(DECISIONS)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_event_has_a_sentence_or_is_declared_bookkeeping(lang: str) -> None:
    english: dict[int, str | None] = {}
    for index, event in enumerate(samples()):
        text = narrate(event, NAMES, MANIFEST, reader(event), lang)
        english.setdefault(index, narrate(event, NAMES, MANIFEST, reader(event), "en"))
        if type(event) in BOOKKEEPING or (isinstance(event, ev.CardsDrawn) and event.reason in
                                          ("deal", *SAID_BY_THE_CATCH)):
            assert text is None, event
            continue
        assert text, event
        assert not re.search(r"[{}]|\b(ev|why|kind|color|card)\.[a-z]", text), (lang, text)
        assert text[-1] in ".!", (lang, text)
        if lang != "en":
            assert text != english[index], (lang, text)


def test_private_events_are_worded_only_to_their_audience() -> None:
    private = [e for e in samples() if e.audience is not None and type(e) not in BOOKKEEPING]
    assert {type(e) for e in private} == {ev.CardsReceived, ev.ChallengeReveal, ev.MayPlayDrawn}
    for event in private:
        assert event.audience is not None
        assert narrate(event, NAMES, MANIFEST, min(event.audience)) is not None
        assert narrate(event, NAMES, MANIFEST, None) is None  # a spectator, a public log
        others = set(range(len(NAMES))) - event.audience
        assert all(narrate(event, NAMES, MANIFEST, seat) is None for seat in others)


@pytest.mark.parametrize(
    ("rules", "seed"),
    [("seed003", b"narrate-3"), ("party", b"narrate-p"), ("seed004", b"narrate-4")],
)
def test_a_whole_house_rules_match_is_told_to_every_reader(rules: str, seed: bytes) -> None:
    """Real matches of bots: every event is worded (or is bookkeeping) for every seat and for
    the public log, in every language, and the house-rule events do occur."""
    match = Match(preset(rules, target=200, buzzers=True, max_hand=14), 4, seed)
    bots = [NormalBot(s, match.rules, match.manifest, seed=s) for s in range(4)]
    seen: set[type[ev.Event]] = set()

    def tell(seat: int, action: Action, events: list[ev.Event]) -> None:
        for event in events:
            seen.add(type(event))
            for viewer in (None, 0, 1, 2, 3):
                for lang in LANGUAGES:
                    text = narrate(event, NAMES, match.manifest, viewer, lang)
                    readable = event.audience is None or viewer in event.audience
                    worded = readable and type(event) not in BOOKKEEPING and not (
                        isinstance(event, ev.CardsDrawn)
                        and (event.reason == "deal" or event.reason in SAID_BY_THE_CATCH))
                    assert (text is not None) == worded, (event, viewer, lang, text)
                    assert text is None or not re.search(r"[{}]|\b(ev|why)\.", text), text

    play_match(match, bots, tell)
    assert match.winner is not None
    assert {ev.BuzzerOpened, ev.Buzzed, ev.BuzzerClosed, ev.KnockedOut, ev.CardsReturned,
            ev.MayPlayDrawn} <= seen


# -- the catalogue ------------------------------------------------------------------------------


@pytest.mark.parametrize("catalogue", [CARD_WORDS, SENTENCES], ids=["cards", "sentences"])
def test_every_language_has_the_same_keys_and_placeholders(
    catalogue: dict[str, dict[str, str]],
) -> None:
    english = catalogue["en"]
    for lang in LANGUAGES:
        assert set(catalogue[lang]) == set(english), lang
        for key, text in catalogue[lang].items():
            assert text, (lang, key)
            assert placeholders(text) == placeholders(english[key]), (lang, key)


def test_every_sentence_is_used_and_every_key_used_exists() -> None:
    source = NARRATOR.read_text()
    used = set(re.findall(r'"(ev\.[a-z_]+)"', source))
    sentences = {key for key in SENTENCES["en"] if key.startswith("ev.")}
    singular = {key for key in sentences if key.endswith("_one")}  # said for count=1
    assert used == sentences - singular
    assert {key.removesuffix("_one") for key in singular} <= used


def test_a_count_of_one_is_said_in_the_singular() -> None:
    """Found in `unonet play --log` of No Mercy: "Davi names red and keeps the 1 cards
    turned up", "fica com as 1 cartas viradas"."""
    from unonet.words import Words

    for lang, said in (("en", "Ana names red and keeps the card turned up: R5."),
                       ("it", "Ana sceglie red e si tiene la carta scoperta: R5."),
                       ("pt", "Ana escolhe red e fica com a carta virada: R5.")):
        words = Words(lang)
        values = {"name": "Ana", "color": "red", "cards": "R5"}
        assert words("ev.roulette_turned", count=1, **values) == said
        assert "2" in words("ev.roulette_turned", count=2, **values)


def test_the_client_names_cards_with_the_narrators_words() -> None:
    """One place for card names: the client's Translator and the log agree in every language,
    and the English words agree with the engine's own Face.name (its error messages)."""
    faces = {spec.faces[0] for spec in MANIFEST} | {Face(kind) for kind in Kind
                                                    if kind is not Kind.NUMBER}
    for lang in LANGUAGES:
        tr, words = Translator(lang), game_words(lang)
        for face in faces:
            assert tr.card(face) == words.card(face)
    for spec in MANIFEST:
        assert game_words("en").card(spec.faces[0]) == spec.faces[0].name


# -- what the sentences say -----------------------------------------------------------------------


def say(event: ev.Event, lang: str = "en", viewer: int | None = None) -> str | None:
    return narrate(event, NAMES, MANIFEST, viewer, lang)


def test_the_rule_sheets_words_in_the_log() -> None:
    assert say(ev.CardsDrawn(0, P[:1], "draw"), "it") == "Ana pesca 1."
    assert say(ev.Passed(0), "it") == "Ana passa."
    assert say(ev.CardPlayed(0, card("W"), (0, 1), Color.BLUE, False), "it") == (
        "Ana gioca Jolly: Cambio colore, blu.")
    assert say(ev.CardsDrawn(0, P, "draw"), "pt") == "Ana compra 2."
    assert say(ev.CardPlayed(0, card("W+4"), (0, 1), None, False), "pt") == "Ana joga Coringa +4."
    assert say(ev.CardPlayed(1, card("r5"), (0, 1), None, False)) == "Bruno plays red 5."


def test_uno_called_with_a_play_is_said_once() -> None:
    said = [say(ev.CardPlayed(0, card("r5"), (0, 1), None, True)), say(ev.UnoCalled(0))]
    assert said == ["Ana plays red 5.", "Ana calls UNO!"]


def test_why_a_player_draws() -> None:
    assert say(ev.CardsDrawn(1, P, "draw_two")) == "Bruno draws 2 (Draw Two)."
    assert say(ev.CardsDrawn(1, P, "draw_two"), "it") == "Bruno pesca 2 (+2)."
    assert say(ev.CardsDrawn(1, P, "penalty_buzzer"), "pt") == "Bruno compra 2 (buzzer)."
    assert say(ev.CardsDrawn(1, P, "penalty_uno")) is None  # the catch said it (below)
    assert say(ev.CardsDrawn(1, P, "stack")) == "Bruno draws 2 (the pending draw)."
    assert say(ev.CardsDrawn(1, P, "a_reason_of_tomorrow")) == "Bruno draws 2."


def test_a_pending_draw_and_what_answers_it() -> None:
    assert say(ev.DecisionPending(1, Phase.STACK, 6)) == (
        "6 cards on Bruno: answer with a draw card or take them.")
    assert say(ev.DrawStacked(0, 8), "it") == "Ana risponde: ora le carte da pescare sono 8."
    assert say(ev.DrawDeflected(1, 3, 4), "pt") == "Bruno passa as 4 cartas para Davi."
    assert say(ev.DecisionPending(1, Phase.CHALLENGE, 6)) == (
        "Bruno may challenge the Wild Draw Four or take 6.")
    assert say(ev.DecisionPending(1, Phase.CHALLENGE, 0)) == (
        "Bruno may challenge the Wild Draw Four.")
    assert say(ev.DecisionPending(1, "a_decision_of_tomorrow", 0)) is None


def test_jumping_in_and_runs() -> None:
    assert say(ev.JumpedIn(2, "jump_in"), "it") == "Chiara intercetta!"
    assert say(ev.JumpedIn(2, "sequence")) == "Chiara goes on with the run."
    assert say(ev.JumpInRefused(3, card("r5"), 3), "it") == (
        "Davi tenta di intercettare con 5 rosso: non vale, 3 punti di penalità.")


def test_hands_moving() -> None:
    seven = ev.HandsMoved(((0, 2, P), (2, 0, P)), "seven")
    assert say(seven) == "Ana swaps hands with Chiara."
    assert say(seven, "pt") == "Ana troca de mão com Chiara."
    assert say(ev.HandsMoved(((0, 1, P), (1, 0, P)), "zero"), "it") == (
        "Ogni mano passa al giocatore successivo.")
    assert say(ev.HandsMoved(((0, 1, P),), "a_reason_of_tomorrow")) == "Ana's hand goes to Bruno."
    assert say(ev.HandsMoved((), "a_reason_of_tomorrow")) is None


def test_the_buzzer_race() -> None:
    assert say(ev.BuzzerOpened(0, (0, 1, 3))) == (
        "Buzzer race: Ana, Bruno, Davi press B, the slowest draws.")
    assert say(ev.Buzzed(2, 1)) == "Chiara presses B (1st)."
    assert [say(ev.Buzzed(2, n)) for n in (2, 3, 4, 11, 12, 13, 21, 22)] == [
        f"Chiara presses B ({n})." for n in
        ("2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd")]
    assert say(ev.Buzzed(2, 2), "it") == "Chiara preme B (2º)."
    assert say(ev.BuzzerClosed((1, 3), 2)) == "Too slow on the buzzer: Bruno, Davi."
    assert say(ev.BuzzerClosed((3,), 2), "it") == "Gara del buzzer persa da: Davi."
    assert say(ev.CardsDrawn(3, P, "penalty_buzzer")) == "Davi draws 2 (buzzer)."
    assert say(ev.BuzzerClosed((), 2), "pt") == "Todos apertaram B a tempo."


def test_knock_out_stalemate_and_elimination() -> None:
    assert say(ev.KnockedOut(3, 25, 250)) == (
        "Davi holds 25 cards and is out of the round (250 penalty points).")
    assert say(ev.CardsReturned(3, P, "max_hand"), "it") == (
        "Le 2 carte di Davi vanno coperte sotto il mazzo.")
    assert say(ev.Stalemate(1)) == (
        "Stalemate: nobody can play or draw. Bruno holds the fewest points and wins the round.")
    assert say(ev.SeatEliminated(1, 512), "pt") == (
        "Bruno chega a 512 pontos e está fora da partida.")


def test_the_round_end_gives_the_winners_points_and_the_scores() -> None:
    collects = ev.RoundEnded(0, ((), (card("r5"),), (), ()), (5, 0, 0, 0), (105, 0, 40, 0))
    assert say(collects) == (
        "Ana wins the round (+5 points). Scores: Ana 105, Bruno 0, Chiara 40, Davi 0.")
    lowest = ev.RoundEnded(0, ((), (card("r5"),), (), ()), (0, 5, 0, 0), (0, 5, 0, 0))
    assert say(lowest, "it") == "Ana vince la manche. Punteggi: Ana 0, Bruno 5, Chiara 0, Davi 0."


def test_private_sentences_name_the_cards_to_their_owner() -> None:
    got = ev.CardsReceived(1, P, (card("r5"), card("W")))
    assert say(got, "it", viewer=1) == "Hai ricevuto: 5 rosso, Jolly."
    drawn = ev.MayPlayDrawn(1, card("g7"))
    assert say(drawn, "en", viewer=1) == "You may play the card you drew, green 7, now."


# -- names and bad input ------------------------------------------------------------------------


def test_names_are_used_exactly_as_given_even_with_braces() -> None:
    names = ("{name}", "{0}", "Ana {count!r}", "}{")
    for event in samples():
        for lang in LANGUAGES:
            narrate(event, names, MANIFEST, reader(event), lang)  # never a formatting error
    assert narrate(ev.Passed(0), names, MANIFEST) == "{name} passes."
    assert narrate(ev.DrawDeflected(2, 3, 4), names, MANIFEST) == (
        "Ana {count!r} passes the 4 cards on to }{.")


def test_unknown_seats_cards_and_languages_do_not_raise() -> None:
    assert say(ev.Passed(9)) == "? passes."
    assert say(ev.JumpInRefused(0, 10_000, 3)) == (
        "Ana tried to play ? out of turn: refused, 3 penalty points.")
    assert say(ev.MatchEnded(7, (1, 2))) == "? wins the match with 0 points!"
    assert narrate(ev.Passed(0), NAMES, MANIFEST, None, "de") == "Ana passes."


def test_a_catch_is_told_once_with_its_count() -> None:
    """The catch sentence gives the count; the penalty's CardsDrawn after it says nothing
    (it used to add "Bruno draws 2 (UNO penalty).")."""
    for events in (
        (ev.UnoCaught(0, 1, 2), ev.CardsDrawn(1, P, "penalty_uno")),
        (ev.UnoCaught(None, 1, 2), ev.CardsDrawn(1, P, "penalty_uno")),  # uno_auto_penalty
        (ev.FalseCatch(0, 1, 2), ev.CardsDrawn(0, P, "penalty_false_catch")),
    ):
        for lang in LANGUAGES:
            said = [text for e in events if (text := say(e, lang))]
            assert len(said) == 1, said
    assert say(ev.UnoCaught(0, 1, 2)) == "Ana catches Bruno without UNO: Bruno draws 2."
    assert say(ev.UnoCaught(None, 1, 2)) == "Bruno did not call UNO and draws 2."


def test_the_first_card_sent_back_and_the_no_mercy_cards_are_named() -> None:
    assert say(ev.Reshuffled(0, (), (), "first_card_wild_draw_two")) == (
        "The Wild Draw Two goes back into the deck, which is shuffled.")
    assert say(ev.Reshuffled(0, (), (), "first_card_wild_draw_four")) == (
        "The Wild Draw Four goes back into the deck, which is shuffled.")
    assert say(ev.CardsDiscarded(1, P, (card("r5"), card("r3")))) == (
        "Bruno also discards red 5, red 3.")
    assert say(ev.RouletteTurned(2, Color.RED, P, (card("g7"), card("r5")))) == (
        "Chiara names red and keeps the 2 cards turned up: green 7, red 5.")
    assert say(ev.DrawCancelled(3, 10)) == (
        "Davi cancels the 10 cards pending: nobody draws them.")
    assert say(ev.DecisionPending(1, Phase.ROULETTE, 0)) == (
        "Bruno names the colour for the Wild Color Roulette.")


def test_under_pairs_the_match_is_won_by_both_partners_with_the_teams_score() -> None:
    """teams=pairs: seat 2 and seat 0 opposite it win together (the log said "Chiara wins the
    match!", leaving out her partner Ana, who has won too); the team's score is the partners'
    higher one, as the score screen counts it."""
    won = ev.MatchEnded(2, (510, 40, 500, 40))
    assert narrate(won, NAMES, MANIFEST, pairs=True) == (
        "Chiara + Ana win the match with 510 points!")
    assert narrate(won, NAMES, MANIFEST, lang="it", pairs=True) == (
        "Chiara + Ana vincono la partita con 510 punti!")
    assert narrate(won, NAMES, MANIFEST, lang="pt", pairs=True) == (
        "Chiara + Ana vencem a partida com 510 pontos!")
    assert narrate(won, NAMES, MANIFEST) == "Chiara wins the match with 500 points!"
    assert narrate(ev.MatchEnded(7, (1, 2, 3, 4)), NAMES, MANIFEST, pairs=True) == (
        "? wins the match with 0 points!")


def test_a_logged_match_of_pairs_names_the_winning_team() -> None:
    """`unonet play --log` under teams: the last line names both partners."""
    rules = preset("official", teams="pairs")
    names = ("A", "B", "C", "D")
    match = Match(rules, 4, b"pairs")
    narrator_lines: list[str] = []
    tell = Narrator(names, match.manifest, None, "en", pairs=True)
    bots = [NormalBot(seat, rules, match.manifest, seed=seat) for seat in range(4)]

    def show(seat: int, action: Action, events: list[ev.Event]) -> None:
        narrator_lines.extend(text for event in events if (text := tell(event)))

    play_match(match, bots, show)
    last = narrator_lines[-1]
    assert re.fullmatch(r"(A \+ C|C \+ A|B \+ D|D \+ B) win the match with \d+ points!", last)
