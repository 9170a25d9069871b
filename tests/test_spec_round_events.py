"""SPEC.md 9.2's requirements on private events, the round's winner, knock-outs and false
catches ([UNO-9-3], [UNO-9-5] to [UNO-9-8]), held against the engine and the host's log."""

from __future__ import annotations

from no_mercy_scenario import nm_deal
from scenario import deal, of_type, one, play, refused

from host.round_log import RoundLog
from protocol.examples import EVENT_EXAMPLES
from protocol.game_codec import decode_event
from unonet import events as ev
from unonet.actions import Catch, Draw
from unonet.cards import Color, Face, Kind
from unonet.errors import ErrorCode
from unonet.rules import RuleSet

PRIVATE = {"cards_received", "may_play_drawn", "challenge_reveal", "dark_faces_shown"}


def test_the_private_events_are_the_four_spec_names() -> None:
    """[UNO-9-3]: an event has an audience exactly when SPEC names it private; a
    `dark_faces_shown` only when it has a `seat`, and then that seat alone."""
    for name, wire in EVENT_EXAMPLES.items():
        event = decode_event(wire).event
        assert isinstance(event, ev.Event), name
        told_everybody = isinstance(event, ev.DarkFacesShown) and event.seat is None
        assert (event.audience is not None) == (name in PRIVATE and not told_everybody), name
    face = Face(Kind.SKIP_EVERYONE, Color.ORANGE, None, 30)
    assert ev.DarkFacesShown(2, (63,), (face,)).audience == frozenset({2})
    assert ev.DarkFacesShown(None, (63,), (face,)).audience is None


def test_private_events_stay_out_of_the_audits_digest() -> None:
    """[UNO-9-5]: the events digest covers the public events only; a seat's
    `dark_faces_shown` and `cards_received` leave it unchanged, a public `dark_faces_shown` is
    in it."""
    face = Face(Kind.SKIP_EVERYONE, Color.ORANGE, None, 30)
    public = [ev.RoundStarted(1, 0, 112), ev.DarkFacesShown(None, (63,), (face,))]
    private = [ev.DarkFacesShown(1, (63,), (face,)), ev.CardsReceived(1, ((0, 0),), (63,))]
    with_private, without = RoundLog(b"g" * 16, 1), RoundLog(b"g" * 16, 1)
    for event in [public[0], *private, public[1]]:
        with_private.add(event, {})
    for event in public:
        without.add(event, {})
    assert with_private.digest.value == without.digest.value
    only_first = RoundLog(b"g" * 16, 1)
    only_first.add(public[0], {})
    assert only_first.digest.value != without.digest.value


def test_the_last_player_not_knocked_out_wins_holding_cards() -> None:
    """[UNO-9-6]: under `max_hand` the last player left wins the round with cards in hand, and
    `round_ended.hands` lists them."""
    match = deal([["b2"], ["r9"]], top="r3", rules=RuleSet(max_hand=10))
    events = match.penalize(0, 9)
    ended = one(events, ev.RoundEnded)
    assert match.round is not None
    assert ended.winner == 1 and ended.hands[1] == tuple(match.round.hands[1]) != ()
    assert ended.hands[0] == ()


def test_no_mercys_last_player_standing_wins_holding_cards() -> None:
    """[UNO-9-6]: the Mercy rule puts the other player out at its 25th card; the winner holds
    its three cards."""
    match = nm_deal([["g1", "b2", "b4"], ["b1", "b6", "g4"]], top="r3")
    events = match.penalize(0, 10) + match.penalize(0, 10) + match.penalize(0, 10)
    knocked = one(events, ev.KnockedOut)
    ended = one(events, ev.RoundEnded)
    assert (knocked.seat, knocked.cards) == (0, 25)
    assert ended.winner == 1 and len(ended.hands[1]) == 3


def test_a_stalemates_winner_holds_cards() -> None:
    """[UNO-9-6]: after a stalemate the winner is the player with the fewest points, who holds
    cards."""
    match = deal([["r8", "b8", "y8"], ["b9", "b2", "y4"], ["g8", "g2", "g4"]], top="r3")
    for _ in range(9):
        match.penalize(0, 10)
    match.penalize(0, 8)
    events = match.apply(1, Draw()) + match.apply(2, Draw()) + match.apply(0, Draw())
    ended = one(events, ev.RoundEnded)
    assert one(events, ev.Stalemate).winner == ended.winner == 2
    assert len(ended.hands[2]) == 3


def test_who_scores_a_knock_out_penalty() -> None:
    """[UNO-9-7]: under winner_collects the round's winner collects the penalty and the
    knocked-out seat scores nothing; under lowest_wins the knocked-out seat scores it; with
    teams a knocked-out partner's penalty is not collected."""
    hands = [["b2"], ["r9"], ["b1"]]
    collects = deal(hands, top="r3", rules=RuleSet(max_hand=10))
    collects.penalize(2, 9)
    ended = one(play(collects, 1, "r9"), ev.RoundEnded)
    assert ended.points == (0, 250 + 2, 0)
    lowest = deal(hands, top="r3", rules=RuleSet(max_hand=10, scoring="lowest_wins"))
    lowest.penalize(2, 9)
    ended = one(play(lowest, 1, "r9"), ev.RoundEnded)
    assert ended.points == (2, 0, 250)
    teams = deal([["b2"], ["r9"], ["b1"], ["g5"]], top="r3",
                 rules=RuleSet(max_hand=10, teams="pairs"))
    teams.penalize(3, 9)  # seat 1's partner
    teams.penalize(2, 9)  # an opponent
    ended = one(play(teams, 1, "r9"), ev.RoundEnded)
    assert ended.points == (0, 250 + 2, 0, 250 + 2)


def test_a_false_catch_penalty_is_drawn_with_its_reason() -> None:
    """[UNO-9-8]: a false catch is `false_catch`, then the catcher's `cards_drawn` of reason
    `penalty_false_catch`; with no penalty the catch is refused."""
    match = deal([["b4", "b8"], ["r9", "b2"], ["r8", "y5"]], top="r3",
                 rules=RuleSet(false_catch_penalty=2))
    events = match.apply(0, Catch(2))
    caught = one(events, ev.FalseCatch)
    drawn = [e for e in of_type(events, ev.CardsDrawn) if e.seat == 0]
    assert (caught.catcher, caught.target, caught.penalty) == (0, 2, 2)
    assert events.index(caught) < events.index(drawn[0])
    assert [(len(e.positions), e.reason) for e in drawn] == [(2, "penalty_false_catch")]
    free = deal([["b4", "b8"], ["r9", "b2"], ["r8", "y5"]], top="r3")
    refused(free, 0, Catch(2), ErrorCode.NOT_CATCHABLE)
