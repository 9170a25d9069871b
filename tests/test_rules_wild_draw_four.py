"""RULEBOOK.md 1.6 and anchors 6.2-6.3: the Wild Draw Four, its legality (judged on the colour in
play before it), the bluff, the challenge (only the next player; the hand shown to the
challenger alone), and the wd4_policy / challenge_guilty_extra options."""

from __future__ import annotations

import pytest
from scenario import (
    B,
    G,
    R,
    Y,
    active_color,
    card,
    codes,
    current,
    deal,
    drawn_codes,
    of_type,
    one,
    phase,
    play,
    plays,
    refused,
    top,
)

from unonet import events as ev
from unonet.actions import Accept, Challenge, ChooseColor, Draw, Play
from unonet.errors import ErrorCode
from unonet.match import Match
from unonet.rules import RuleSet

# Dealer 0: seat 1 plays the Wild Draw Four on r3, seat 2 answers it.
SEAT0 = ["y1", "y2", "y3", "y4"]
SEAT2 = ["g1", "g2", "b2", "r1"]
SIX = ["b5", "b6", "b7", "b8", "b9", "g9"]


def _wd4(
    seat1: list[str], rules: RuleSet | None = None, draws: list[str] = SIX
) -> tuple[Match, list[ev.Event]]:
    """Seat 1 plays its Wild Draw Four on r3 naming green."""
    match = deal([SEAT0, seat1, SEAT2], top="r3", draws=draws, rules=rules)
    events = play(match, 1, "W+4", color=G)
    return match, events


def test_a_wild_draw_four_asks_the_next_player_to_challenge_or_accept() -> None:
    match, events = _wd4(["W+4", "g5", "b6", "y7"])
    assert one(events, ev.DecisionPending) == ev.DecisionPending(2, "challenge", 4)
    assert phase(match) == "challenge"
    assert current(match) == 2
    assert active_color(match) is G  # the named colour is in play already
    assert match.legal_actions(2) == [Challenge(), Accept()]
    assert match.legal_actions(0) == []
    view = match.view(0)
    assert view.pending is not None
    assert (view.pending.kind, view.pending.seat, view.pending.target) == ("challenge", 2, 1)
    assert view.pending.color_before is R
    assert view.pending.target_cards == 4  # it held four cards when it played


def test_accepting_draws_four_and_loses_the_turn() -> None:
    match, _ = _wd4(["W+4", "g5", "b6", "y7"])
    events = match.apply(2, Accept())
    drawn = one(events, ev.CardsDrawn)
    assert (drawn.seat, len(drawn.positions), drawn.reason) == (2, 4, "wild_draw_four")
    assert drawn_codes(match, events, 2) == SIX[:4]
    assert one(events, ev.Skipped) == ev.Skipped(2, "wild_draw_four")
    assert current(match) == 0
    assert active_color(match) is G


def test_only_the_next_player_may_challenge() -> None:
    match, _ = _wd4(["W+4", "r5", "b6", "y7"])
    refused(match, 0, Challenge(), ErrorCode.NOT_YOUR_DECISION)
    refused(match, 1, Challenge(), ErrorCode.NOT_YOUR_DECISION)
    refused(match, 0, Accept(), ErrorCode.NOT_YOUR_DECISION)
    # and it decides before drawing or playing
    refused(match, 2, Draw(), ErrorCode.WRONG_PHASE)
    refused(match, 2, Play(card(match, 2, "g1")), ErrorCode.WRONG_PHASE)


def test_challenge_guilty_the_bluffer_draws_four_and_the_challenger_plays_normally() -> None:
    match, _ = _wd4(["W+4", "r5", "b6", "y7"])  # holds red, the colour in play: a bluff
    events = match.apply(2, Challenge())
    assert one(events, ev.Challenged) == ev.Challenged(2, 1, True)
    drawn = one(events, ev.CardsDrawn)
    assert (drawn.seat, len(drawn.positions), drawn.reason) == (1, 4, "penalty_challenge")
    assert codes(match, 1) == sorted(["r5", "b6", "y7", *SIX[:4]])
    assert not of_type(events, ev.Skipped)
    assert events[-1] == ev.TurnStarted(2, 1)
    assert phase(match) == "turn"
    assert codes(match, 2) == sorted(SEAT2)  # the challenger drew nothing
    # The named colour (green) stands: the challenger matches it, not the red below.
    assert top(match) == "W+4"
    assert active_color(match) is G
    assert plays(match, 2) == {"g1", "g2"}


def test_challenge_innocent_the_challenger_draws_six_and_loses_the_turn() -> None:
    match, _ = _wd4(["W+4", "g5", "b6", "y7"])
    events = match.apply(2, Challenge())
    assert one(events, ev.Challenged) == ev.Challenged(2, 1, False)
    drawn = one(events, ev.CardsDrawn)
    assert (drawn.seat, len(drawn.positions), drawn.reason) == (2, 6, "penalty_challenge")
    assert codes(match, 2) == sorted(SEAT2 + SIX)
    assert one(events, ev.Skipped) == ev.Skipped(2, "wild_draw_four")
    assert current(match) == 0
    assert active_color(match) is G
    assert codes(match, 1) == ["b6", "g5", "y7"]


def test_challenge_guilty_extra_adds_cards_for_the_bluffer() -> None:
    match, _ = _wd4(["W+4", "r5", "b6", "y7"], rules=RuleSet(challenge_guilty_extra=2))
    events = match.apply(2, Challenge())
    drawn = one(events, ev.CardsDrawn)
    assert (drawn.seat, len(drawn.positions)) == (1, 6)
    assert current(match) == 2


def test_the_reveal_goes_to_the_challenger_alone_with_the_hand_at_the_moment_of_play() -> None:
    match, _ = _wd4(["W+4", "r5", "b6", "y7"])
    at_play = tuple(match.round.hands[1]) if match.round else ()
    events = match.apply(2, Challenge())
    reveal = one(events, ev.ChallengeReveal)
    assert reveal.audience == frozenset({2})
    assert (reveal.challenger, reveal.target, reveal.color_before) == (2, 1, R)
    assert reveal.cards == at_play
    assert sorted(match.manifest.face(c).code for c in reveal.cards) == ["b6", "r5", "y7"]
    assert len(reveal.positions) == 3
    # Everything else in the challenge is public; no other event names the hand.
    assert one(events, ev.Challenged).audience is None
    for event in events:
        if event is not reveal and event.audience is None:
            assert not set(getattr(event, "cards", ())) & set(at_play)


def test_the_reveal_shows_the_hand_before_the_penalty_draw() -> None:
    match, _ = _wd4(["W+4", "r5", "b6", "y7"], draws=["r9", "r8", "r7", "r6"])
    events = match.apply(2, Challenge())
    reveal = one(events, ev.ChallengeReveal)
    assert len(reveal.cards) == 3
    assert match.round is not None
    assert len(match.round.hands[1]) == 7


@pytest.mark.parametrize(
    ("hand", "guilty"),
    [
        (["W+4", "g3", "b3", "y3"], False),  # same number in other colours does not count
        (["W+4", "W", "W+4", "g5"], False),  # other wilds do not count
        (["W+4", "gS", "gR", "g+2"], False),  # nor other colours' symbols
        (["W+4", "rS", "g5", "b6"], True),  # a red action card is of the colour in play
        (["W+4", "r0", "g5", "b6"], True),
    ],
)
def test_legality_counts_only_cards_of_the_colour_in_play(hand: list[str], guilty: bool) -> None:
    match, _ = _wd4(hand)
    events = match.apply(2, Challenge())
    assert one(events, ev.Challenged).guilty is guilty


def test_legality_after_a_wild_is_judged_on_the_named_colour() -> None:
    # First card Wild: seat 1 names blue, then plays the +4 holding red cards but no blue.
    match = deal([SEAT0, ["W+4", "r3", "r5", "g7"], SEAT2], top="W", draws=SIX)
    match.apply(1, ChooseColor(B))
    play(match, 1, "W+4", color=Y)
    events = match.apply(2, Challenge())
    assert one(events, ev.Challenged).guilty is False
    assert one(events, ev.ChallengeReveal).color_before is B


def test_a_wild_on_top_with_a_named_colour_makes_that_colour_the_one_to_hold() -> None:
    # Seat 0 plays a Wild naming green; seat 1 holds green: its +4 is a bluff.
    hands = [["W", "y1", "y2", "y3"], ["W+4", "g5", "b6", "b7"], SEAT2]
    match = deal(hands, top="rR", draws=SIX)  # first Reverse: dealer 0 plays, then seat 2
    play(match, 0, "W", color=G)
    assert current(match) == 2
    match.apply(2, Draw())  # drew b5, not green: the turn passed
    assert current(match) == 1
    play(match, 1, "W+4", color=Y)
    assert current(match) == 0  # play goes right after the first Reverse
    events = match.apply(0, Challenge())
    assert one(events, ev.Challenged) == ev.Challenged(0, 1, True)
    assert one(events, ev.ChallengeReveal).color_before is G


def test_legality_ignores_the_card_below_a_wild() -> None:
    # The top is a red 3 covered by a Wild naming blue: holding red is fine.
    hands = [["W", "y1", "y2", "y3"], ["W+4", "r5", "r6", "g7"], SEAT2]
    match = deal(hands, top="rR", draws=["y9"])
    play(match, 0, "W", color=B)
    match.apply(2, Draw())  # drew y9 and passed
    play(match, 1, "W+4", color=R)
    events = match.apply(0, Challenge())
    assert one(events, ev.Challenged).guilty is False


def test_a_bluff_may_be_played_under_the_challenge_policy() -> None:
    match = deal([SEAT0, ["W+4", "r5", "b6", "y7"], SEAT2], top="r3")
    wd4 = card(match, 1, "W+4")
    assert {a for a in match.legal_actions(1) if isinstance(a, Play) and a.card == wd4} == {
        Play(wd4, c) for c in (R, Y, G, B)
    }


def test_enforce_refuses_an_illegal_wild_draw_four() -> None:
    rules = RuleSet(wd4_policy="enforce")
    match = deal([SEAT0, ["W+4", "r5", "b6", "y7"], SEAT2], top="r3", rules=rules)
    assert "W+4" not in plays(match, 1)
    refused(match, 1, Play(card(match, 1, "W+4"), G), ErrorCode.ILLEGAL_WILD_DRAW_FOUR)


def test_enforce_plays_a_legal_wild_draw_four_without_a_challenge() -> None:
    rules = RuleSet(wd4_policy="enforce")
    match, events = _wd4(["W+4", "g3", "b6", "y7"], rules=rules)
    assert not of_type(events, ev.DecisionPending)
    assert drawn_codes(match, events, 2) == SIX[:4]
    assert one(events, ev.Skipped) == ev.Skipped(2, "wild_draw_four")
    assert current(match) == 0
    refused(match, 2, Challenge(), ErrorCode.NOT_YOUR_TURN)


def test_free_policy_accepts_any_wild_draw_four_and_has_no_challenge() -> None:
    rules = RuleSet(wd4_policy="free")
    match, events = _wd4(["W+4", "r5", "b6", "y7"], rules=rules)
    assert phase(match) == "turn"
    assert not of_type(events, ev.DecisionPending)
    assert drawn_codes(match, events, 2) == SIX[:4]
    assert current(match) == 0
    assert active_color(match) is G


# -- challenge_by=anyone (seed 003) ---------------------------------------------------------------

ANYONE = RuleSet(challenge_by="anyone")


def test_any_other_player_may_challenge_a_wild_draw_four() -> None:
    """Seed 003: "se un altro giocatore lo suppone o se se ne accorge basandosi sul gioco che
    avete fatto fino a questo momento, può considerarlo un bluff e può denunciarlo premendo il
    tasto F. Se avete giocato il Cambio colore più 4 ed avevate altre carte da giocare, siete
    voi a prendere le 4 carte, più 2 di penalità." Seat 0 challenges; seat 1 bluffed (it held
    r5 on r3): seat 1 draws the 4 (+2 extra here) and seat 2, who was to draw, plays."""
    match, _ = _wd4(["W+4", "r5", "b6", "y7"], rules=ANYONE.replace(challenge_guilty_extra=2))
    assert match.legal_actions(0)[0] == Challenge()
    assert Challenge() not in match.legal_actions(1)  # not on one's own card
    refused(match, 1, Challenge(), ErrorCode.NOT_YOUR_DECISION)
    events = match.apply(0, Challenge())
    assert one(events, ev.Challenged) == ev.Challenged(0, 1, True)
    assert one(events, ev.ChallengeReveal).audience == frozenset({0})
    assert drawn_codes(match, events, 1) == SIX
    assert current(match) == 2 and phase(match) == "turn"
    assert active_color(match) is G


def test_a_wrong_challenge_by_another_player_costs_it_six_and_skips_the_drawer() -> None:
    """Seed 003: "Se, invece, non avevate realmente la possibilità di giocare altre carte, sarà
    chi vi ha denunciato a torto a prendere 6 carte." The player who must draw takes nothing
    and loses the turn, as the Wild Draw Four's target."""
    match, _ = _wd4(["W+4", "b5", "b6", "y7"], rules=ANYONE)
    before = len(match.round.hands[2])  # type: ignore[union-attr]
    events = match.apply(0, Challenge())
    assert one(events, ev.Challenged) == ev.Challenged(0, 1, False)
    assert drawn_codes(match, events, 0) == SIX
    assert len(match.round.hands[2]) == before  # type: ignore[union-attr]
    assert one(events, ev.Skipped) == ev.Skipped(2, "wild_draw_four")
    assert current(match) == 0


def test_by_default_only_the_player_who_must_draw_may_challenge() -> None:
    """RULEBOOK.md 1.6, the official rule: the challenge is the next player's."""
    match, _ = _wd4(["W+4", "r5", "b6", "y7"])
    assert match.legal_actions(0) == []
    refused(match, 0, Challenge(), ErrorCode.NOT_YOUR_DECISION)
