"""RULEBOOK.md 1.1 (choosing the dealer, the deal passing left) and 1.2 (the deal)."""

from __future__ import annotations

import pytest
from scenario import of_type

from unonet import events as ev
from unonet.match import Match
from unonet.matching import dealer_value
from unonet.rules import RuleSet
from unonet.shuffle import dealer_order, derive_key


def _tied_seed(seats: int) -> bytes:
    """A seed whose first dealer draw ties for the highest card."""
    manifest = RuleSet().manifest()
    for i in range(1000):
        seed = b"tie-%d" % i
        order = dealer_order(derive_key(seed, "round", 1), 0, len(manifest))[:seats]
        values = [dealer_value(manifest.face(c)) for c in order]
        if values.count(max(values)) > 1 and max(values) > 0:
            return seed
    raise AssertionError("no tied seed found")


def test_highest_number_deals_and_the_tied_draw_again() -> None:
    seed = _tied_seed(3)
    match = Match(RuleSet(), 3, seed)
    events = match.start_round()
    draws = of_type(events, ev.DealerDraw)
    manifest = match.manifest

    first = draws[0]
    assert first.attempt == 0
    assert [seat for seat, _ in first.draws] == [0, 1, 2]
    values = {seat: dealer_value(manifest.face(c)) for seat, c in first.draws}
    tied = sorted(seat for seat, v in values.items() if v == max(values.values()))
    assert len(tied) >= 2

    # Only the tied seats draw again, until one is highest.
    drawing = tied
    for attempt, redraw in enumerate(draws[1:], start=1):
        assert redraw.attempt == attempt
        assert [seat for seat, _ in redraw.draws] == drawing
        values = {seat: dealer_value(manifest.face(c)) for seat, c in redraw.draws}
        drawing = sorted(seat for seat, v in values.items() if v == max(values.values()))
    assert len(draws) >= 2
    assert len(drawing) == 1
    started = of_type(events, ev.RoundStarted)[0]
    assert started.dealer == drawing[0] == match.dealer
    assert events.index(draws[-1]) < events.index(started)


def test_action_cards_and_wilds_count_zero_for_the_dealer_draw() -> None:
    manifest = RuleSet().manifest()
    values = {manifest.face(c.id).code: dealer_value(manifest.face(c.id)) for c in manifest}
    assert values["r9"] == 9
    assert values["b0"] == 0
    for symbol in ("rS", "gR", "y+2", "W", "W+4"):
        assert values[symbol] == 0


def test_dealer_draw_is_reproducible_from_the_seed() -> None:
    one, two = Match(RuleSet(), 4, b"same"), Match(RuleSet(), 4, b"same")
    assert one.start_round() == two.start_round()
    assert one.state() == two.state()


def test_the_deal_passes_to_the_left_each_new_round() -> None:
    match = Match(RuleSet(max_rounds=4), 3, b"rotate", first_dealer=1)
    dealers = []
    for _ in range(4):
        events = match.start_round()
        dealers.append(of_type(events, ev.RoundStarted)[0].dealer)
        assert not of_type(events, ev.DealerDraw)  # the dealer draw happens once a match
        _finish_round_by_expiry(match)
    assert dealers == [1, 2, 0, 1]


def _finish_round_by_expiry(match: Match) -> None:
    """Play the round out with the first legal play or an expiry (a quick bot)."""
    from unonet.actions import Play

    for _ in range(5000):
        if match.phase != "in_round":
            return
        seat = match.pending_seat
        assert seat is not None
        plays = [a for a in match.legal_actions(seat) if isinstance(a, Play) and not a.uno]
        if plays:
            match.apply(seat, plays[0])
        else:
            match.expire()
    raise AssertionError("the round did not end")


def test_seven_cards_each_dealt_one_at_a_time_from_the_left_of_the_dealer() -> None:
    match = Match(RuleSet(), 4, b"deal", first_dealer=2)
    events = match.start_round()
    deals = [e for e in of_type(events, ev.CardsDrawn) if e.reason == "deal"]
    assert [e.seat for e in deals] == [3, 0, 1, 2]
    assert all(len(e.positions) == 7 for e in deals)
    # Round-robin from the left of the dealer: seat 3 gets deck positions 0, 4, 8, ...
    assert deals[0].positions == tuple((0, 4 * k) for k in range(7))
    assert deals[3].positions == tuple((0, 4 * k + 3) for k in range(7))
    assert match.round is not None
    assert [len(h) for h in match.round.hands] == [7, 7, 7, 7]


def test_the_rest_is_the_draw_pile_and_its_top_card_starts_the_discard_pile() -> None:
    match = Match(RuleSet(), 3, b"deal-pile", first_dealer=0)
    events = match.start_round()
    assert match.round is not None
    turned = of_type(events, ev.TopCardTurned)
    view = match.view(None)
    assert len(turned) == 1  # this seed does not turn a Wild Draw Four first
    assert turned[0].position == (0, 21)
    assert view.top_card == turned[0].card
    assert view.discard_pile == 1
    drawn_at_start = sum(len(e.cards) for e in of_type(events, ev.CardsReceived))
    assert view.draw_pile == 108 - drawn_at_start - 1


@pytest.mark.parametrize("size", [1, 10, 20])
def test_hand_size_option_deals_that_many(size: int) -> None:
    match = Match(RuleSet(hand_size=size), 4, b"size", first_dealer=0)
    events = match.start_round()
    deals = [e for e in of_type(events, ev.CardsDrawn) if e.reason == "deal"]
    assert [len(e.positions) for e in deals] == [size] * 4
