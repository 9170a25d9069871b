"""RULEBOOK.md 2 `max_hand`, `max_hand_penalty` and 6.10: the hand limit knocks a player out of
the round; the cards go face down under the draw pile; the penalty and who scores it.

The source: seed 003 "Eliminare i giocatori che accumulano troppe carte": "il giocatore che ha
troppe carte viene eliminato per la manche corrente. Tutte le sue carte tornano nel mazzo e quel
giocatore dovrà aspettare la manche successiva per giocare di nuovo. Il giocatore eliminato
subisce immediatamente una penalità. La penalità può essere costituita da un numero fisso di
punti ... o dai punti delle carte che aveva in mano. ... Di default il limite è fissato a 25
carte e la penalità è di 250 punti."
"""

from __future__ import annotations

import pytest
from scenario import (
    current,
    deal,
    drawn_codes,
    hand,
    of_type,
    one,
    play,
    points,
)

from unonet import events as ev
from unonet.actions import Accept, Catch, Draw, Expire
from unonet.match import Match
from unonet.rules import RuleSet

LIMIT = RuleSet(max_hand=10, target=1000)
NINE = [
    ["y1", "y2", "y3", "y4", "y6", "y7", "y8", "y9", "yS"],
    ["g1", "g2", "g3", "g4", "g6", "g7", "g8", "g9", "gS"],
    ["b1", "b2", "b3", "b4", "b6", "b7", "b8", "b9", "bS"],
]


def _nine_each(rules: RuleSet = LIMIT) -> Match:
    """Three seats of nine cards, none playable on r5: each draw brings a seat to ten."""
    return deal(NINE, top="r5", draws=["y0", "g0", "b0", "yR", "gR"], rules=rules)


def test_reaching_the_limit_knocks_the_player_out_and_returns_the_cards_under_the_pile() -> None:
    """Seed 003: "viene eliminato per la manche corrente. Tutte le sue carte tornano nel mazzo";
    RULEBOOK.md 6.10: "the cards go face down under the draw pile"."""
    match = _nine_each()
    rnd = match.round
    assert rnd is not None
    events = match.apply(1, Draw())
    held = [*NINE[1], "y0"]  # the first card of the pile
    knocked = one(events, ev.KnockedOut)
    assert knocked == ev.KnockedOut(1, 10, 250)
    returned = one(events, ev.CardsReturned)
    assert returned.seat == 1 and returned.reason == "max_hand"
    assert [match.manifest.face(c).code for c in rnd.draw_pile[:10]] == held[::-1]
    assert returned.positions == tuple(rnd.origin[c] for c in reversed(rnd.draw_pile[:10]))
    assert hand(match, 1) == []
    assert events[-1] == ev.TurnStarted(2, 1)
    assert match.legal_actions(1) == []
    seat = match.view(0).seats[1]
    assert (seat.out, seat.cards) == (True, 0)


def test_a_knocked_out_player_is_passed_over_for_the_rest_of_the_round() -> None:
    """Seed 003: "dovrà aspettare la manche successiva per giocare di nuovo"."""
    match = deal([["r1", *NINE[0][1:]], NINE[1], ["r2", *NINE[2][1:]]], top="r5",
                 draws=["g0"], rules=LIMIT)
    match.apply(1, Draw())
    play(match, 2, "r2")
    assert current(match) == 0
    play(match, 0, "r1")
    assert current(match) == 2


@pytest.mark.parametrize("penalty", [250, 0, 40])
def test_a_fixed_penalty_is_charged(penalty: int) -> None:
    """Seed 003: "un numero fisso di punti stabilito con la relativa opzione"."""
    match = _nine_each(LIMIT.replace(max_hand_penalty=penalty))
    events = match.apply(1, Draw())
    assert one(events, ev.KnockedOut).penalty == penalty


def test_the_hand_penalty_is_the_points_of_the_cards_held() -> None:
    """Seed 003: "o dai punti delle carte che aveva in mano"; RULEBOOK.md 2 `max_hand_penalty`
    hand."""
    match = _nine_each(LIMIT.replace(max_hand_penalty="hand"))
    before = points(match, 1)
    events = match.apply(1, Draw())
    assert one(events, ev.KnockedOut).penalty == before + 0  # the y0 drawn is worth 0
    assert before == 1 + 2 + 3 + 4 + 6 + 7 + 8 + 9 + 20


def test_the_last_player_left_in_wins_and_under_winner_collects_collects_the_penalties() -> None:
    """RULEBOOK.md 6.10: "Under winner collects, the round's winner collects the penalty in place
    of that hand ... The last player left in the round wins it"."""
    match = _nine_each()
    match.apply(1, Draw())
    events = match.apply(2, Draw())
    ended = one(events, ev.RoundEnded)
    assert ended.winner == 0
    assert ended.hands[1] == () and ended.hands[2] == ()
    assert ended.points == (500, 0, 0)
    assert match.scores == [500, 0, 0]


@pytest.mark.parametrize("scoring", ["lowest_wins", "elimination"])
def test_under_lowest_wins_and_elimination_the_player_out_scores_the_penalty(
    scoring: str
) -> None:
    """RULEBOOK.md 6.10: "under lowest wins and elimination, the player out scores it"."""
    match = _nine_each(LIMIT.replace(scoring=scoring, max_hand_penalty=100))
    match.apply(1, Draw())
    events = match.apply(2, Draw())
    ended = one(events, ev.RoundEnded)
    assert ended.winner == 0
    assert ended.points == (points(match, 0), 100, 100)


def test_the_hand_penalty_is_collected_by_the_winner() -> None:
    """RULEBOOK.md 6.10 with `max_hand_penalty` hand: the winner collects the points of the hand
    the player held when it went out."""
    match = _nine_each(LIMIT.replace(max_hand_penalty="hand"))
    first = one(match.apply(1, Draw()), ev.KnockedOut).penalty
    events = match.apply(2, Draw())
    second = one(events, ev.KnockedOut).penalty
    assert one(events, ev.RoundEnded).points == (first + second, 0, 0)


def _is_playable_on_red_five(code: str) -> bool:
    return code.startswith("r") or code.endswith("5") or code.startswith("W")


def test_returned_cards_are_drawn_later_in_the_order_they_went_under() -> None:
    """SPEC.md 9.2 `cards_returned`: "they are drawn again, in the listed order, once the cards
    above them are gone"; RULEBOOK.md 6.10. Seat 1 draws the whole pile (draw_until_playable,
    nothing plays on r5) and goes out at 67 cards; its cards are then the pile."""
    manifest = RuleSet().manifest()
    deck = [c.faces[0].code for c in manifest]
    deck.remove("r5")  # the first card
    playable = [c for c in deck if _is_playable_on_red_five(c)]
    unplayable = [c for c in deck if not _is_playable_on_red_five(c)]
    assert (len(playable), len(unplayable)) == (38, 69)
    hands = [unplayable[2:22], [unplayable[0], *playable[:19]], [*playable[19:], unplayable[1]]]
    rules = RuleSet(hand_size=20, draw_until_playable=True, max_hand=67)
    match = deal(hands, top="r5", rules=rules)
    events = match.apply(1, Draw())
    assert len(one(events, ev.CardsReturned).positions) == 67
    assert one(events, ev.KnockedOut).cards == 67
    returned = one(events, ev.CardsReturned).positions
    assert current(match) == 2
    events = match.apply(2, Draw())  # draws until playable: seat 1's first card, then its second
    assert drawn_codes(match, events, 2) == [unplayable[0], playable[0]]
    drawn = [p for e in of_type(events, ev.CardsDrawn) for p in e.positions]
    assert drawn == list(returned[:2])
    assert of_type(events, ev.MayPlayDrawn)


def test_a_knock_out_by_a_stack_taken_ends_nothing_else() -> None:
    """RULEBOOK.md 6.10: "The limit is checked after any draw"; taking a stack that reaches the
    limit knocks the player out, and play goes on from the next player."""
    rules = LIMIT.replace(stacking="same_kind")
    match = deal([NINE[0], ["r+2", *NINE[1][1:]], NINE[2]], top="r5", rules=rules)
    play(match, 1, "r+2")
    events = match.apply(2, Accept())
    assert one(events, ev.KnockedOut).cards == 11
    assert not of_type(events, ev.RoundEnded)
    assert current(match) == 0


def test_a_sevens_player_knocked_out_before_choosing_does_not_swap() -> None:
    """RULEBOOK.md 6.10: a player at the limit "is out for the round: the cards go face down
    under the draw pile"; 6.8: the 7 swaps with a player "still in the round". Seat 1 plays its
    7 without UNO and is caught for 10 cards before it picks: it is out, and nothing waits on
    it."""
    rules = RuleSet(seven_zero=True, max_hand=10, uno_penalty=10)
    match = deal([["y1", "g2"], ["r7", "W"], ["g1", "y2"]], top="r3", rules=rules)
    play(match, 1, "r7")
    events = match.apply(2, Catch(1))
    assert one(events, ev.KnockedOut).seat == 1
    rnd = match.round
    assert rnd is not None
    assert match.pending_seat not in rnd.out, "the round waits on a seat that is out"
    match.apply(-1, Expire())
    assert all(not rnd.hands[s] for s in rnd.out), "a seat out of the round holds cards"
