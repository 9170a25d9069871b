"""RULEBOOK.md 1.8 and anchors 6.7: when the draw pile runs out, the discard pile except its top
card is shuffled into a new draw pile (a new epoch; the top card and the colour in play stay;
no card is minted or lost). With every other card in a hand, a player who must draw passes."""

from __future__ import annotations

from scenario import (
    B,
    card,
    cards_in_play,
    code,
    codes,
    current,
    deal,
    of_type,
    one,
    play,
    top,
)

from unonet import events as ev
from unonet.actions import Draw, Play
from unonet.match import Match


def _drain(match: Match, seat: int, leave: int = 0) -> None:
    """Move draw-pile cards into `seat`'s hand (the host's penalty) until `leave` remain."""
    assert match.round is not None
    while len(match.round.draw_pile) > leave:
        match.penalize(seat, min(10, len(match.round.draw_pile) - leave))


def _discards_three_then_wild() -> Match:
    """Seat 1 plays r5, seat 2 r6, seat 0 a Wild naming blue: discards r3 r5 r6 W."""
    match = deal([["W", "g1", "g2"], ["r5", "y1", "y2"], ["r6", "y3", "y4"]], top="r3")
    play(match, 1, "r5")
    play(match, 2, "r6")
    play(match, 0, "W", color=B)
    return match


def test_an_empty_draw_pile_is_refilled_from_the_discards_under_the_top_card() -> None:
    match = _discards_three_then_wild()
    assert match.round is not None
    rnd = match.round
    below = [c for c in rnd.discard[:-1]]
    wild = rnd.discard[-1]
    _drain(match, 0)
    assert rnd.draw_pile == []
    events = match.apply(1, Draw())
    reshuffle = one(events, ev.Reshuffled)
    assert reshuffle.reason == "empty_pile"
    assert reshuffle.epoch == 1
    # The discards were face up: the event names them, aligned with their sorted positions.
    assert sorted(reshuffle.cards) == sorted(below)
    assert reshuffle.sources == tuple(sorted(reshuffle.sources))
    assert len(reshuffle.sources) == 3
    # The top card stays, alone, with its named colour.
    assert rnd.discard == [wild]
    assert top(match) == "W"
    assert rnd.active_color is B
    # The drawn card comes from the new pile (epoch 1).
    drawn = one(events, ev.CardsDrawn)
    assert drawn.positions[0][0] == 1
    assert len(rnd.draw_pile) == 2
    assert cards_in_play(match) == 108
    assert rnd.epoch == 1


def test_a_reshuffle_in_the_middle_of_a_draw_two_keeps_drawing_from_the_new_pile() -> None:
    match = deal([["g1", "g2", "g3"], ["r+2", "y1", "y2"], ["y3", "y4", "y5"]], top="r3")
    assert match.round is not None
    _drain(match, 0, leave=1)
    events = play(match, 1, "r+2")
    drawn = of_type(events, ev.CardsDrawn)
    reshuffle = one(events, ev.Reshuffled)
    assert [(e.seat, e.reason) for e in drawn] == [(2, "draw_two"), (2, "draw_two")]
    assert drawn[0].positions[0][0] == 0
    assert drawn[1].positions == ((1, 0),)  # the only card of the new pile
    assert events.index(drawn[0]) < events.index(reshuffle) < events.index(drawn[1])
    assert [code(match, c) for c in reshuffle.cards] == ["r3"]
    assert "r3" in codes(match, 2)
    assert len(codes(match, 2)) == 5
    assert top(match) == "r+2"
    assert current(match) == 0
    assert cards_in_play(match) == 108


def test_wild_colours_are_cleared_in_the_new_pile() -> None:
    # The Wild under the top card goes back as a plain Wild: drawn again it needs a colour.
    match = deal([["g1", "g2", "g3"], ["W", "y1", "y2"], ["b6", "y3", "y4"]], top="r3")
    play(match, 1, "W", color=B)
    play(match, 2, "b6")
    _drain(match, 2)
    events = match.penalize(0, 2)
    reshuffle = one(events, ev.Reshuffled)
    assert sorted(code(match, c) for c in reshuffle.cards) == ["W", "r3"]
    assert codes(match, 0) == ["W", "g1", "g2", "g3", "r3"]
    assert top(match) == "b6"
    assert match.round is not None and match.round.active_color is B
    wild = card(match, 0, "W")
    colours = {a.color for a in match.legal_actions(0) if isinstance(a, Play) and a.card == wild}
    assert len(colours) == 4 and None not in colours


def test_every_card_in_hands_a_player_who_must_draw_passes() -> None:
    match = deal([["g1", "g2"], ["y5", "y6"], ["b7", "b8"]], top="r3")
    assert match.round is not None
    _drain(match, 0)
    assert match.round.draw_pile == [] and len(match.round.discard) == 1
    events = match.apply(1, Draw())
    assert events == [ev.CannotDraw(1), ev.Passed(1), ev.TurnStarted(2, 1)]
    assert codes(match, 1) == ["y5", "y6"]
    assert cards_in_play(match) == 108


def test_a_draw_two_with_one_card_left_to_draw_gives_that_card_and_still_skips() -> None:
    match = deal([["g1", "g2"], ["r+2", "y6"], ["b7", "b8"]], top="r3")
    _drain(match, 0)
    events = play(match, 1, "r+2")  # the only card not in a hand is the r3 below it
    drawn = one(events, ev.CardsDrawn)
    assert (drawn.seat, drawn.positions, drawn.reason) == (2, ((1, 0),), "draw_two")
    assert codes(match, 2) == ["b7", "b8", "r3"]
    assert one(events, ev.Skipped) == ev.Skipped(2, "draw_two")
    assert current(match) == 0
    assert cards_in_play(match) == 108


def test_the_card_count_is_conserved_over_many_reshuffles() -> None:
    match = deal([["g1", "g2"], ["y5", "y6"], ["b7", "b8"]], top="r3", fill=False)
    assert match.round is not None
    _drain(match, 0, leave=3)
    epochs = set()
    for _ in range(300):
        if match.phase != "in_round":
            break
        seat = current(match)
        plays = [a for a in match.legal_actions(seat) if isinstance(a, Play) and not a.uno]
        if plays and len(match.round.hands[seat]) > 2:
            match.apply(seat, plays[0])
        else:
            match.expire()
        assert cards_in_play(match) == 108
        epochs.add(match.round.epoch)
    assert len(epochs) > 2
