"""RULEBOOK.md 2 `scoring` elimination, `max_rounds`, `teams` and 6.12-6.13: who is out of the
match, when the match ends, and partners scoring together.

The sources: seed 003 ("Il giocatore che non ha più carte in mano conclude la manche con 0 punti,
mentre gli avversari guadagnano i punti corrispondenti alle carte che sono rimaste loro in mano.
Il giocatore che raggiunge il limite di punti fissato a inizio partita viene eliminato."; "Manches
da giocare: E' possibile impostare il numero di manches da giocare. Se è stato definito anche un
punteggio limite, la partita termina appena è stato raggiunto uno dei 2 limiti.") and the 1993
partner rules behind `teams` (RULEBOOK.md 6.13).
"""

from __future__ import annotations

import pytest
from scenario import card, deal, draw_and_pass, of_type, one, play, points, round_order
from stacking import stacked_order

from unonet import events as ev
from unonet.actions import Play
from unonet.errors import RulesError
from unonet.match import BETWEEN_ROUNDS, MATCH_OVER, Match
from unonet.rules import RuleSet, Scoring

ELIMINATION = RuleSet(scoring="elimination", target=50)


def test_elimination_everyone_scores_their_own_hand_and_the_target_puts_a_player_out() -> None:
    """Seed 003: "gli avversari guadagnano i punti corrispondenti alle carte che sono rimaste
    loro in mano. Il giocatore che raggiunge il limite ... viene eliminato"."""
    match = deal([["W", "y2"], ["r4", "r6"], ["g1", "g2"], ["b1", "b2"]], top="r3",
                 draws=["b9"], rules=ELIMINATION)
    play(match, 1, "r4", uno=True)
    draw_and_pass(match, 2)
    draw_and_pass(match, 3)
    draw_and_pass(match, 0)
    events = play(match, 1, "r6")
    ended = one(events, ev.RoundEnded)
    assert ended.points == (points(match, 0), 0, points(match, 2), points(match, 3))
    assert points(match, 0) >= 50 > points(match, 2)
    assert one(events, ev.SeatEliminated) == ev.SeatEliminated(0, points(match, 0))
    assert match.phase == BETWEEN_ROUNDS


def test_a_seat_eliminated_shows_out_in_the_view_between_rounds() -> None:
    """unonet/view.py SeatView.out: "knocked out for this round (max_hand) or eliminated from
    the match"; RULEBOOK.md 6.12: reaching the target puts the player out of the match."""
    match = deal([["W", "y2"], ["r4", "r6"], ["g1", "g2"]], top="r3", rules=ELIMINATION)
    play(match, 1, "r4", uno=True)
    draw_and_pass(match, 2)
    draw_and_pass(match, 0)
    events = play(match, 1, "r6")
    assert one(events, ev.SeatEliminated).seat == 0
    assert match.view(None).seats[0].out


def test_an_eliminated_player_is_not_dealt_in_and_the_deal_passes_over_them() -> None:
    """RULEBOOK.md 6.12: "no longer dealt in, and the deal passes over them"."""
    rules = ELIMINATION.replace(hand_size=1)
    first = stacked_order(rules.manifest(), 2, [["W"], ["r4"], ["g5"]], "r3", ["b9"])
    second = round_order(rules, 1, {1: ["y1"], 2: ["g1"]}, top="y3")
    match = Match(rules, 3, b"seed", stacked_decks=[first, second], first_dealer=2)
    match.start_round()
    draw_and_pass(match, 0)  # seat 0, left of dealer 2, draws b9 and keeps its Wild
    events = play(match, 1, "r4")
    assert one(events, ev.SeatEliminated).seat == 0
    events = match.start_round()
    assert one(events, ev.RoundStarted) == ev.RoundStarted(2, 1, 108)  # dealer 0 passed over
    assert points(match, 0) == 0 and match.round is not None and match.round.hands[0] == []
    assert match.view(None).seats[0].out
    assert match.pending_seat == 2
    assert match.legal_actions(0) == []
    assert [(s.cards, s.out) for s in match.view(None).seats] == [(0, True), (1, False),
                                                                 (1, False)]


def test_the_last_player_left_wins_the_match() -> None:
    """RULEBOOK.md 6.12: "The last player left wins the match"."""
    match = deal([["W"], ["r4"], ["W+4"]], top="r3", rules=ELIMINATION)
    events = play(match, 1, "r4")
    assert [e.seat for e in of_type(events, ev.SeatEliminated)] == [0, 2]
    assert one(events, ev.MatchEnded).winner == 1
    assert match.phase == MATCH_OVER


@pytest.mark.parametrize(
    ("scoring", "winner"),
    [("lowest_wins", 2), ("elimination", 2), ("winner_collects", 1)],
)
def test_max_rounds_ends_the_match_lowest_total_or_highest_under_winner_collects(
    scoring: Scoring, winner: int
) -> None:
    """Seed 003 Manches da giocare: "la partita termina appena è stato raggiunto uno dei 2
    limiti"; RULEBOOK.md 6.12: "the match also ends after that many rounds; then the lowest
    total wins (lowest wins, elimination) or the highest (winner collects)". Seat 1 goes out
    but pays a refused jump-in (3 points); seat 2 holds only zeros."""
    rules = RuleSet(scoring=scoring, max_rounds=1, target=500, jump_in="identical")
    match = deal([["y9", "y8"], ["r4", "r6"], ["g0", "b0"]], top="r3", draws=["y0", "b9"],
                 rules=rules)
    play(match, 1, "r4", uno=True)
    match.apply(1, Play(card(match, 1, "r6")))  # on its own card: refused, 3 points
    draw_and_pass(match, 2)
    draw_and_pass(match, 0)
    events = play(match, 1, "r6")
    assert one(events, ev.RoundEnded).winner == 1
    assert max(match.scores) < 500
    assert one(events, ev.MatchEnded).winner == winner
    assert match.phase == MATCH_OVER


def test_without_max_rounds_the_match_goes_on_below_the_target() -> None:
    """RULEBOOK.md 1.10: the match ends at the target; max_rounds off adds no other end."""
    match = deal([["y9"], ["r4"], ["g1"]], top="r3", rules=RuleSet(scoring="lowest_wins"))
    events = play(match, 1, "r4")
    assert not of_type(events, ev.MatchEnded)
    assert match.phase == BETWEEN_ROUNDS


def test_teams_a_round_won_by_one_partner_scores_the_opponents_hands_for_both() -> None:
    """RULEBOOK.md 6.13: "A round won by either partner scores the opponents' hands only,
    credited to both partners" (partners: seat s and s + half the table)."""
    rules = RuleSet(teams="pairs")
    match = deal([["y9"], ["r4"], ["g1"], ["W"]], top="r3", rules=rules)
    assert [s.team for s in match.view(None).seats] == [0, 1, 0, 1]
    events = play(match, 1, "r4")
    ended = one(events, ev.RoundEnded)
    collected = points(match, 0) + points(match, 2)  # not seat 3's Wild: it is the partner's
    assert ended.points == (0, collected, 0, collected)
    assert match.scores == [0, 10, 0, 10]


def test_teams_the_match_goes_to_the_seat_that_won_the_last_round_with_its_partner() -> None:
    """RULEBOOK.md 6.13: "The match ends when a team reaches the target; the player who won the
    last round wins, together with their partner"."""
    rules = RuleSet(teams="pairs", target=50)
    match = deal([["W"], ["y2"], ["W+4"], ["r4"]], top="r3", dealer=2, rules=rules)
    events = play(match, 3, "r4")
    assert one(events, ev.RoundEnded).points == (0, 100, 0, 100)
    assert one(events, ev.MatchEnded).winner == 3


@pytest.mark.parametrize("seats", [2, 3, 5, 7, 8])
def test_teams_are_refused_without_four_or_six_seats(seats: int) -> None:
    """RULEBOOK.md 6.13: "Teams of two are for 4 or 6 players"."""
    with pytest.raises(RulesError) as info:
        Match(RuleSet(teams="pairs"), seats, b"seed")
    assert info.value.option == "teams"


@pytest.mark.parametrize("scoring", ["lowest_wins", "elimination"])
def test_teams_are_refused_with_any_scoring_but_winner_collects(scoring: Scoring) -> None:
    """RULEBOOK.md 6.13: "only with winner collects (any other scoring is refused by name)"."""
    with pytest.raises(RulesError) as info:
        Match(RuleSet(teams="pairs", scoring=scoring), 4, b"seed")
    assert info.value.option == "teams"
    assert "winner_collects" in str(info.value)
