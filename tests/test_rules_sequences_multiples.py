"""RULEBOOK.md 2 `sequences`, `multiples`, `multi_finish`, 6.6 and 6.7: several cards in one
Play (`also`), the sequence window out of turn, and combinations that are refused.

The sources: seed 003 "Scale" ("chi ha più carte dello stesso colore con numeri consecutivi, ad
esempio 2, 3 e 4 giallo, può giocarle nello stesso turno, in ordine crescente o decrescente.
Dovrà però essere abbastanza veloce perché perde questa possibilità quando il giocatore
successivo gioca la sua carta, cosa che può fare non appena sarà stata messa sul tavolo la prima
carta della scala") and seed 004 ("As cartas podem ser jogadas na sequência (crescente ou
decrescente) dos números, caso possuam a mesma cor"; "se tiver mais de que uma carta desse
numero pode jogá-las"; "Não se pode esvaziar todas as cartas da mão de uma vez só").
"""

from __future__ import annotations

import pytest
from scenario import (
    G,
    Y,
    active_color,
    card,
    codes,
    current,
    deal,
    of_type,
    one,
    play,
    play_cards,
    refused,
    top,
)

from unonet import events as ev
from unonet.actions import Draw, Play
from unonet.errors import ErrorCode
from unonet.match import Match
from unonet.rules import RuleSet

SEQUENCES = RuleSet(sequences=True)
MULTIPLES = RuleSet(multiples=True)
SEAT0 = ["y1", "y2", "y3", "y4"]
SEAT2 = ["g1", "g2", "g3", "g4"]


def _ids(match: Match, seat: int, card_codes: list[str]) -> tuple[int, ...]:
    ids: list[int] = []
    for card_code in card_codes:
        ids.append(next(c for c in match.round.hands[seat]  # type: ignore[union-attr]
                        if match.manifest.face(c).code == card_code and c not in ids))
    return tuple(ids)


def _combo(match: Match, seat: int, card_codes: list[str], uno: bool = False) -> Play:
    ids = _ids(match, seat, card_codes)
    return Play(ids[0], None, uno, ids[1:])


def test_a_rising_run_of_one_colour_goes_down_in_one_play() -> None:
    """Seed 003 Scale: "2, 3 e 4 giallo, può giocarle nello stesso turno, in ordine crescente";
    RULEBOOK.md 6.6: "A run is played as one move"."""
    match = deal([SEAT0, ["r4", "r5", "r6", "b9"], SEAT2], top="r3", rules=SEQUENCES)
    action = _combo(match, 1, ["r4", "r5", "r6"])
    assert action in match.legal_actions(1)
    events = match.apply(1, action)
    assert [match.manifest.face(e.card).code for e in of_type(events, ev.CardPlayed)] == [
        "r4", "r5", "r6"]
    assert (top(match), codes(match, 1), current(match)) == ("r6", ["b9"], 2)
    assert events[-1] == ev.TurnStarted(2, 1)


def test_a_falling_run_goes_down_too() -> None:
    """Seed 004: "na sequência (crescente ou decrescente) dos números, caso possuam a mesma
    cor"."""
    match = deal([SEAT0, ["b8", "b7", "b6", "r1"], SEAT2], top="b9", rules=SEQUENCES)
    events = play_cards(match, 1, ["b8", "b7", "b6"])
    assert len(of_type(events, ev.CardPlayed)) == 3
    assert (top(match), codes(match, 1)) == ("b6", ["r1"])


def test_the_first_card_of_a_run_must_match_the_top_card() -> None:
    """RULEBOOK.md 2 `sequences`: "if its first card matches the top card"."""
    match = deal([SEAT0, ["b4", "b5", "b6", "r1"], SEAT2], top="r3", rules=SEQUENCES)
    refused(match, 1, _combo(match, 1, ["b4", "b5", "b6"]), ErrorCode.ILLEGAL_CARD)


def test_after_a_single_card_its_player_may_add_the_next_number_either_way_out_of_turn() -> None:
    """Seed 003 Scale: the chance is lost "quando il giocatore successivo gioca la sua carta,
    cosa che può fare non appena sarà stata messa sul tavolo la prima carta"; RULEBOOK.md 6.6:
    "either way after a single card ... out of turn, until the next player acts"."""
    match = deal([SEAT0, ["r4", "r5", "r3", "b9"], SEAT2], top="r2", rules=SEQUENCES)
    play(match, 1, "r4")
    assert current(match) == 2
    listed = {match.manifest.face(a.card).code for a in match.legal_actions(1)
              if isinstance(a, Play)}
    assert listed == {"r5", "r3"}
    events = play(match, 1, "r5")
    assert events[0] == ev.JumpedIn(1, "sequence")
    assert events[-1] == ev.TurnStarted(2, 1)  # play goes on from the run's player
    assert top(match) == "r5"


def test_after_a_run_the_window_follows_the_runs_own_way() -> None:
    """RULEBOOK.md 6.6: "the run's own way after a run"."""
    match = deal([SEAT0, ["r4", "r5", "r6", "r3"], SEAT2], top="r2", rules=SEQUENCES)
    play_cards(match, 1, ["r4", "r5"])
    listed = {match.manifest.face(a.card).code for a in match.legal_actions(1)
              if isinstance(a, Play)}
    assert listed == {"r6"}
    refused(match, 1, Play(card(match, 1, "r3")), ErrorCode.NOT_YOUR_TURN)


def test_the_sequence_window_closes_when_the_next_player_acts() -> None:
    """Seed 003 Scale: "perde questa possibilità quando il giocatore successivo gioca";
    RULEBOOK.md 6.15: "The sequence window stays open until the next player acts"."""
    match = deal([SEAT0, ["r4", "r5", "b8", "b9"], SEAT2], top="r2", draws=["r7"],
                 rules=SEQUENCES)
    play(match, 1, "r4")
    match.apply(2, Draw())  # r7: playable, seat 2's turn goes on, but it has acted
    assert current(match) == 2
    refused(match, 1, Play(card(match, 1, "r5")), ErrorCode.NOT_YOUR_TURN)


def test_the_next_players_play_closes_the_sequence_window() -> None:
    """Seed 003 Scale: the next player may play "non appena sarà stata messa sul tavolo la prima
    carta della scala", and that ends the run."""
    match = deal([SEAT0, ["r4", "r5", "b8", "b9"], ["r6", "g2", "g3", "g4"]], top="r2",
                 rules=SEQUENCES)
    play(match, 1, "r4")
    play(match, 2, "r6")
    refused(match, 1, Play(card(match, 1, "r5")), ErrorCode.NOT_YOUR_TURN)


def test_several_cards_of_one_number_in_any_colours_go_down_and_the_last_sets_the_colour() -> None:
    """Seed 004: "se tiver mais de que uma carta desse numero pode jogá-las (se for uma carta
    numérica)"; RULEBOOK.md 6.7: "the colour in play becomes the last card's"."""
    match = deal([SEAT0, ["b5", "y5", "g5", "r9"], SEAT2], top="r5", rules=MULTIPLES)
    action = _combo(match, 1, ["b5", "y5", "g5"])
    assert action in match.legal_actions(1)
    events = match.apply(1, action)
    assert len(of_type(events, ev.CardPlayed)) == 3
    assert (top(match), active_color(match), codes(match, 1)) == ("g5", G, ["r9"])


def test_a_multiple_may_end_on_any_of_its_cards() -> None:
    """RULEBOOK.md 6.7: the first card matches the top card; the order after it is the
    player's, so the colour left in play is chosen."""
    match = deal([SEAT0, ["b5", "y5", "g5", "r9"], SEAT2], top="b3", rules=MULTIPLES)
    play_cards(match, 1, ["b5", "g5", "y5"])
    assert active_color(match) is Y
    refused(match, 2, Play(card(match, 2, "g1")), ErrorCode.ILLEGAL_CARD)


def test_multi_finish_false_forbids_emptying_the_hand_with_several_cards() -> None:
    """Seed 004: "Não se pode esvaziar todas as cartas da mão de uma vez só"; RULEBOOK.md 6.7:
    "When finishing with several cards is off, such a play may not empty the hand"."""
    rules = MULTIPLES.replace(sequences=True, multi_finish=False)
    match = deal([["y1", "y2"], ["b5", "y5"], ["g1", "g2"]], top="r5", rules=rules)
    refused(match, 1, _combo(match, 1, ["b5", "y5"]), ErrorCode.INVALID_COMBINATION)
    assert all(not a.also for a in match.legal_actions(1) if isinstance(a, Play))
    match = deal([["y1", "y2"], ["r6", "r7"], ["g1", "g2"]], top="r5", rules=rules)
    refused(match, 1, _combo(match, 1, ["r6", "r7"]), ErrorCode.INVALID_COMBINATION)


def test_multi_finish_true_lets_a_multiple_win_the_round() -> None:
    """RULEBOOK.md 2 `multi_finish` true: "A run or a multiple may empty the hand and win the
    round"."""
    match = deal([["y1", "y2"], ["b5", "y5"], ["g1", "g2"]], top="r5", rules=MULTIPLES)
    events = play_cards(match, 1, ["b5", "y5"])
    assert one(events, ev.RoundEnded).winner == 1


def test_uno_is_called_with_a_run_that_leaves_one_card() -> None:
    """RULEBOOK.md 1.7: the call goes with the play that leaves one card, several cards too."""
    match = deal([SEAT0, ["r4", "r5", "r6", "b9"], SEAT2], top="r3", rules=SEQUENCES)
    refused(match, 1, _combo(match, 1, ["r4", "r5"], uno=True), ErrorCode.UNO_NOT_ALLOWED)
    events = match.apply(1, _combo(match, 1, ["r4", "r5", "r6"], uno=True))
    assert one(events, ev.UnoCalled) == ev.UnoCalled(1)
    assert [e.uno for e in of_type(events, ev.CardPlayed)] == [False, False, True]


@pytest.mark.parametrize(
    ("rules", "cards"),
    [
        (SEQUENCES, ["r4", "r6"]),  # not consecutive
        (SEQUENCES, ["r4", "b5"]),  # not one colour
        (SEQUENCES, ["r4", "r5", "r4"]),  # turns back
        (SEQUENCES, ["r4", "r+2"]),  # an action card is no number
        (SEQUENCES, ["r4", "b4"]),  # a multiple, but multiples is off
        (MULTIPLES, ["r4", "r5"]),  # a run, but sequences is off
        (MULTIPLES, ["rS", "bS"]),  # symbols are no numbers
        (MULTIPLES.replace(sequences=True), ["r4", "b4", "b5"]),  # a multiple, then a run
    ],
)
def test_invalid_combinations_are_refused_and_change_nothing(
    rules: RuleSet, cards: list[str]
) -> None:
    """RULEBOOK.md 2 `sequences` ("consecutive numbers of one colour") and `multiples` ("number
    cards of the same number"): anything else is refused with invalid_combination (choices.md,
    the engine's error codes) and leaves the state as it was."""
    match = deal(
        [["y1", "y2", "y3", "y4", "y5", "y6", "y7", "y8"],
         ["r4", "r5", "r6", "r4", "b5", "b4", "r+2", "rS"],
         ["bS", "g2", "g3", "g4", "g5", "g6", "g7", "g8"]],
        top="r3", rules=rules)
    if "bS" in cards:  # seat 1 plays rS alone; seat 2 (skipped) holds the bS: give it over
        match = deal(
            [["y1", "y2", "y3", "y4"], ["rS", "bS", "r5", "r6"], ["g1", "g2", "g3", "g4"]],
            top="r3", rules=rules)
    refused(match, 1, _combo(match, 1, cards), ErrorCode.INVALID_COMBINATION)


def test_several_cards_with_neither_option_are_not_allowed() -> None:
    """RULEBOOK.md 2: one card per play unless `sequences` or `multiples` is on; the official
    rules keep the code they always gave (action_not_allowed, SPEC.md 12)."""
    match = deal([SEAT0, ["r4", "r5", "r6", "b9"], SEAT2], top="r3")
    refused(match, 1, _combo(match, 1, ["r4", "r5"]), ErrorCode.ACTION_NOT_ALLOWED)


def test_a_combination_goes_only_at_the_start_of_ones_own_turn() -> None:
    """RULEBOOK.md 6.6: out of turn only the next number of one's own run, one card at a time."""
    match = deal([SEAT0, ["r4", "r5", "r6", "b9"], SEAT2], top="r2", rules=SEQUENCES)
    play(match, 1, "r4")
    refused(match, 1, _combo(match, 1, ["r5", "r6"]), ErrorCode.INVALID_COMBINATION)
