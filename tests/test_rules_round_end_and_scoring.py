"""RULEBOOK.md 1.9 (round end: a last Draw Two or Wild Draw Four is still drawn and counted) and
1.10 (scoring: winner_collects and lowest_wins, the 500 target, max_rounds), and the option
action_finish."""

from __future__ import annotations

import random

from scenario import G, codes, deal, drawn_codes, of_type, one, play, refused
from stacking import card_id, stacked_order

from unonet import events as ev
from unonet.actions import HOST, Accept, Challenge, Draw, Play, StartRound
from unonet.errors import ErrorCode
from unonet.match import BETWEEN_ROUNDS, MATCH_OVER, Match
from unonet.rules import RuleSet
from unonet.scoring import hand_points

# Dealer 0: seat 1 plays first; seat 2 is next.


def test_last_card_number_ends_the_round_and_scores_the_other_hands() -> None:
    # Two-card hands: seat 1 plays r5 calling UNO, seat 2 and 0 play, seat 1 goes out.
    hands = [["r7", "yS"], ["r5", "r8"], ["r6", "W+4"]]
    match = deal(hands, top="r3")
    play(match, 1, "r5", uno=True)
    play(match, 2, "r6", uno=True)
    play(match, 0, "r7", uno=True)
    events = play(match, 1, "r8")
    ended = one(events, ev.RoundEnded)
    assert ended.winner == 1
    assert [[match.manifest.face(c).code for c in h] for h in ended.hands] == [["yS"], [], ["W+4"]]
    assert ended.points == (0, 70, 0)
    assert ended.scores == (0, 70, 0)
    assert match.scores == [0, 70, 0]
    assert match.phase == BETWEEN_ROUNDS
    assert not of_type(events, ev.MatchEnded)
    view = match.view(None)
    assert view.round_winner == 1 and view.current is None
    refused(match, 2, Draw(), ErrorCode.ROUND_OVER)


def test_card_values_numbers_face_actions_twenty_wilds_fifty() -> None:
    manifest = RuleSet().manifest()
    cases = {"r0": 0, "r7": 7, "b9": 9, "gS": 20, "yR": 20, "b+2": 20, "W": 50, "W+4": 50}
    for code, points in cases.items():
        assert hand_points(manifest, [card_id(manifest, code)]) == points
    full = hand_points(manifest, range(len(manifest)))
    # per colour: 0 + 2*(1..9) = 90 and six actions = 120; eight wilds = 400
    assert full == 4 * (90 + 120) + 400


def test_a_last_draw_two_is_still_drawn_by_the_next_player_and_counted() -> None:
    hands = [["r7", "y9"], ["r5", "r+2"], ["r6", "g9"]]
    match = deal(hands, top="r3", draws=["b8", "bR"])
    play(match, 1, "r5", uno=True)
    play(match, 2, "r6", uno=True)
    play(match, 0, "r7", uno=True)
    events = play(match, 1, "r+2")
    assert drawn_codes(match, events, 2) == ["b8", "bR"]
    ended = one(events, ev.RoundEnded)
    assert ended.winner == 1
    assert sorted(match.manifest.face(c).code for c in ended.hands[2]) == ["b8", "bR", "g9"]
    assert ended.points == (0, 9 + 9 + 8 + 20, 0)
    assert events.index(one(events, ev.CardsDrawn)) < events.index(ended)


def test_a_last_wild_draw_four_accepted_is_drawn_and_counted() -> None:
    hands = [["r7", "y9"], ["r5", "W+4"], ["r6", "g9"]]
    match = deal(hands, top="r3", draws=["b1", "b2", "b3", "b4"])
    play(match, 1, "r5", uno=True)
    play(match, 2, "r6", uno=True)
    play(match, 0, "r7", uno=True)
    events = play(match, 1, "W+4", color=G)
    assert not of_type(events, ev.RoundEnded)  # the next player may still challenge
    assert match.view(2).pending is not None
    events = match.apply(2, Accept())
    assert drawn_codes(match, events, 2) == ["b1", "b2", "b3", "b4"]
    ended = one(events, ev.RoundEnded)
    assert ended.winner == 1
    assert ended.points == (0, 9 + 9 + 1 + 2 + 3 + 4, 0)


def test_a_seat_out_of_cards_shows_no_uno_mark_while_its_last_four_awaits_the_challenge() -> None:
    hands = [["r7", "y9"], ["r5", "W+4"], ["r6", "g9"]]
    match = deal(hands, top="r3")
    play(match, 1, "r5", uno=True)
    play(match, 2, "r6", uno=True)
    play(match, 0, "r7", uno=True)
    assert match.view(None).seats[1].uno_called
    play(match, 1, "W+4", color=G)
    seat = match.view(None).seats[1]
    assert (seat.cards, seat.uno_called, seat.catchable) == (0, False, False)
    assert match.view(2).pending is not None


def test_a_last_wild_draw_four_challenged_costs_the_challenger_six_and_they_count() -> None:
    hands = [["r7", "y9"], ["r5", "W+4"], ["r6", "g9"]]
    match = deal(hands, top="r3", draws=["b1", "b2", "b3", "b4", "b5", "b6"])
    play(match, 1, "r5", uno=True)
    play(match, 2, "r6", uno=True)
    play(match, 0, "r7", uno=True)
    play(match, 1, "W+4", color=G)
    events = match.apply(2, Challenge())
    assert one(events, ev.Challenged).guilty is False  # an empty hand holds no red
    ended = one(events, ev.RoundEnded)
    assert ended.points == (0, 9 + 9 + 21, 0)


def test_a_last_wild_draw_four_under_the_free_policy_is_drawn_at_once() -> None:
    hands = [["r7", "y9"], ["r5", "W+4"], ["r6", "g9"]]
    rules = RuleSet(wd4_policy="free")
    match = deal(hands, top="r3", draws=["b1", "b2", "b3", "b4"], rules=rules)
    play(match, 1, "r5", uno=True)
    play(match, 2, "r6", uno=True)
    play(match, 0, "r7", uno=True)
    events = play(match, 1, "W+4", color=G)
    assert drawn_codes(match, events, 2) == ["b1", "b2", "b3", "b4"]
    assert one(events, ev.RoundEnded).points == (0, 9 + 9 + 10, 0)


def test_a_last_skip_reverse_or_wild_just_ends_the_round() -> None:
    for last, color in (("rS", None), ("rR", None), ("W", G)):
        hands = [["r7", "y9"], ["r5", last], ["r6", "g9"]]
        match = deal(hands, top="r3")
        play(match, 1, "r5", uno=True)
        play(match, 2, "r6", uno=True)
        play(match, 0, "r7", uno=True)
        events = play(match, 1, last, color=color)
        assert not of_type(events, ev.CardsDrawn)
        assert not of_type(events, ev.Skipped)
        assert one(events, ev.RoundEnded).points == (0, 18, 0)


def test_action_finish_false_refuses_an_action_card_as_the_last_card() -> None:
    rules = RuleSet(action_finish=False)
    for last in ("rS", "r+2", "W", "W+4"):
        hands = [["r7", "y9"], ["r5", last], ["r6", "g9"]]
        match = deal(hands, top="r3", draws=["b1"], rules=rules)
        play(match, 1, "r5", uno=True)
        play(match, 2, "r6", uno=True)
        play(match, 0, "r7", uno=True)
        assert match.round is not None
        last_id = match.round.hands[1][0]
        color = G if match.manifest.face(last_id).is_wild else None
        refused(match, 1, Play(last_id, color), ErrorCode.LAST_CARD_NOT_ALLOWED)
        assert match.legal_actions(1) == [Draw()]
        match.apply(1, Draw())
        assert codes(match, 1) == sorted([last, "b1"])


def test_action_finish_false_still_allows_a_number_as_the_last_card() -> None:
    rules = RuleSet(action_finish=False)
    hands = [["r7", "y9"], ["r5", "r8"], ["r6", "g9"]]
    match = deal(hands, top="r3", rules=rules)
    play(match, 1, "r5", uno=True)
    play(match, 2, "r6", uno=True)
    play(match, 0, "r7", uno=True)
    assert one(play(match, 1, "r8"), ev.RoundEnded).winner == 1


def test_lowest_wins_everyone_keeps_the_points_of_their_own_hand() -> None:
    rules = RuleSet(scoring="lowest_wins")
    hands = [["r7", "yS"], ["r5", "r8"], ["r6", "W+4"]]
    match = deal(hands, top="r3", rules=rules)
    play(match, 1, "r5", uno=True)
    play(match, 2, "r6", uno=True)
    play(match, 0, "r7", uno=True)
    ended = one(play(match, 1, "r8"), ev.RoundEnded)
    assert ended.points == (20, 0, 50)
    assert match.scores == [20, 0, 50]


# -- the match -----------------------------------------------------------------------------------


def _round_orders(rules: RuleSet, rounds: int) -> list[list[int]]:
    """Two seats, dealer 0 then 1 then 0...: seat 1 always goes out with rS then r6, leaving
    seat 0 holding W and W+4 (100 points) plus, when seat 0 starts, the g1 it drew."""
    manifest = rules.manifest()
    orders = []
    for k in range(rounds):
        dealer = k % 2
        orders.append(
            stacked_order(manifest, dealer, [["W", "W+4"], ["rS", "r6"]], "r5", ["g1"])
        )
    return orders


def _seat1_wins(match: Match) -> list[ev.Event]:
    assert match.round is not None
    if match.round.current == 0:
        match.apply(0, Draw())  # seat 0 draws g1 instead of playing a wild, and passes
    play(match, 1, "rS", uno=True)  # two players: the Skip lets seat 1 play again
    return play(match, 1, "r6")


def test_the_first_to_500_wins_the_match() -> None:
    rules = RuleSet(hand_size=2)
    match = Match(rules, 2, b"to500", stacked_decks=_round_orders(rules, 5), first_dealer=0)
    totals = []
    for round_no in range(1, 6):
        events = match.start_round()
        assert one(events, ev.RoundStarted).dealer == (round_no - 1) % 2
        events = _seat1_wins(match)
        ended = one(events, ev.RoundEnded)
        totals.append(ended.scores[1])
        if round_no < 5:
            assert not of_type(events, ev.MatchEnded)
            assert match.phase == BETWEEN_ROUNDS
    assert totals == [100, 201, 301, 402, 502]
    assert one(events, ev.MatchEnded) == ev.MatchEnded(1, (0, 502))
    assert match.phase == MATCH_OVER
    assert match.winner == 1
    assert match.view(0).match_winner == 1
    assert match.legal_actions(HOST) == []
    refused(match, HOST, StartRound(), ErrorCode.MATCH_OVER)


def test_lowest_wins_ends_when_someone_reaches_the_target_and_the_lowest_total_wins() -> None:
    rules = RuleSet(hand_size=2, scoring="lowest_wins", target=200)
    match = Match(rules, 2, b"low", stacked_decks=_round_orders(rules, 2), first_dealer=0)
    match.start_round()
    events = _seat1_wins(match)
    assert one(events, ev.RoundEnded).scores == (100, 0)
    match.start_round()
    events = _seat1_wins(match)
    assert one(events, ev.RoundEnded).scores == (201, 0)
    assert one(events, ev.MatchEnded) == ev.MatchEnded(1, (201, 0))


def test_max_rounds_ends_the_match_with_the_highest_collected() -> None:
    rules = RuleSet(hand_size=2, max_rounds=1)
    match = Match(rules, 2, b"max", stacked_decks=_round_orders(rules, 1), first_dealer=0)
    match.start_round()
    events = _seat1_wins(match)
    assert one(events, ev.MatchEnded) == ev.MatchEnded(1, (0, 100))


def test_max_rounds_under_lowest_wins_gives_the_match_to_the_lowest_total() -> None:
    rules = RuleSet(hand_size=2, max_rounds=1, scoring="lowest_wins")
    match = Match(rules, 2, b"max", stacked_decks=_round_orders(rules, 1), first_dealer=0)
    match.start_round()
    events = _seat1_wins(match)
    assert one(events, ev.MatchEnded) == ev.MatchEnded(1, (100, 0))


def test_random_matches_to_500_add_up() -> None:
    rng = random.Random(7)
    for game in range(3):
        match = Match(RuleSet(), 3, b"rand-%d" % game)
        ended: list[ev.RoundEnded] = []
        while match.phase != MATCH_OVER:
            if match.phase == BETWEEN_ROUNDS:
                match.start_round()
                continue
            seat = match.pending_seat
            assert seat is not None
            legal = [a for a in match.legal_actions(seat) if not getattr(a, "uno", False)]
            events = match.apply(seat, rng.choice(legal)) if legal else match.expire()
            ended += of_type(events, ev.RoundEnded)
        totals = [sum(e.points[s] for e in ended) for s in range(3)]
        assert totals == match.scores
        assert max(match.scores) >= 500
        assert match.winner == match.scores.index(max(match.scores))
        assert all(sum(1 for p in e.points if p) <= 1 for e in ended)
