"""RULEBOOK.md section 4: what each No Mercy card does. Three seats and dealer 0 unless said:
seat 1 plays first, then 2, then 0."""

from __future__ import annotations

from no_mercy_scenario import NO_MERCY, nm_deal, rnd
from scenario import (
    active_color,
    card,
    codes,
    current,
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
from unonet.actions import Accept, CallUno, Catch, Challenge, ChooseColor, Play
from unonet.cards import Color
from unonet.errors import ErrorCode
from unonet.match import Match

R, Y, G, B = Color.RED, Color.YELLOW, Color.GREEN, Color.BLUE
OTHERS = (["y1", "y2", "y3", "y4", "y6"], ["b1", "b2", "b3", "b4", "b6"])


def three(seat1: list[str], top_card: str = "r5", draws: tuple[str, ...] = (),
          **rules: object) -> Match:
    return nm_deal([OTHERS[0], seat1, OTHERS[1]], top=top_card, draws=draws,
                   rules=NO_MERCY.replace(**rules))


def decisions(match: Match, seat: int) -> list[object]:
    return [a for a in match.legal_actions(seat) if not isinstance(a, CallUno | Catch)]


# -- Discard All -------------------------------------------------------------------------------


def test_discard_all_lays_every_other_card_of_its_colour_under_it() -> None:
    match = three(["rDA", "r3", "g7", "r9", "b2"])
    events = play(match, 1, "rDA")
    discarded = one(events, ev.CardsDiscarded)
    assert [match.manifest.face(c).code for c in discarded.cards] == ["r3", "r9"]
    assert discarded.positions == tuple(rnd(match).origin[c] for c in discarded.cards)
    assert discarded.audience is None  # face up: everybody sees them
    assert codes(match, 1) == ["b2", "g7"]
    assert top(match) == "rDA" and active_color(match) == R
    assert [match.manifest.face(c).code for c in rnd(match).discard] == ["r5", "r3", "r9", "rDA"]
    assert current(match) == 2  # their effects do not apply; the next player plays


def test_a_discard_all_plays_on_another_and_alone_of_its_colour_discards_nothing_more() -> None:
    match = nm_deal([["y1", "y2"], ["rDA", "b7"], ["gDA", "y9"]], top="r5")
    play(match, 1, "rDA")
    assert plays(match, 2) == {"gDA"}  # the same symbol, another colour
    events = play(match, 2, "gDA")
    assert of_type(events, ev.CardsDiscarded) == []
    assert (current(match), active_color(match)) == (0, G)


def test_uno_counts_the_cards_a_discard_all_leaves() -> None:
    match = three(["rDA", "r3", "r4", "b2", "y9"])
    rda = card(match, 1, "rDA")
    refused(match, 1, Play(rda, uno=True), ErrorCode.UNO_NOT_ALLOWED)
    match = three(["rDA", "r3", "r4", "r8", "b2"])
    rda = card(match, 1, "rDA")
    assert Play(rda, None, True) in match.legal_actions(1)
    events = match.apply(1, Play(rda, None, True))
    assert one(events, ev.UnoCalled).seat == 1 and codes(match, 1) == ["b2"]


def test_a_discard_all_that_empties_the_hand_wins_the_round() -> None:
    match = three(["rDA", "r3", "r4", "r8", "r9"])
    events = play(match, 1, "rDA")
    assert one(events, ev.RoundEnded).winner == 1
    assert phase(match) == "round_over"


# -- Skip Everyone -----------------------------------------------------------------------------


def test_skip_everyone_skips_every_other_player_and_its_player_plays_again() -> None:
    match = three(["rSE", "r3", "g7", "r9", "b2"])
    events = play(match, 1, "rSE")
    assert [e.seat for e in of_type(events, ev.Skipped)] == [2, 0]
    assert current(match) == 1 and phase(match) == "turn"


# -- the wild draw cards -----------------------------------------------------------------------


def test_the_player_of_a_wild_draw_card_names_the_colour() -> None:
    match = three(["W+6", "r3", "g7", "r9", "b2"])
    refused(match, 1, Play(card(match, 1, "W+6")), ErrorCode.COLOR_REQUIRED)
    events = play(match, 1, "W+6", B)
    assert active_color(match) == B
    assert one(events, ev.DecisionPending) == ev.DecisionPending(2, "stack", 6)


def test_no_wild_draw_card_may_be_challenged() -> None:
    for wild in ("WR+4", "W+6", "W+10"):
        match = three([wild, "r3", "g7", "r9", "b2"])
        play(match, 1, wild, B)
        assert phase(match) == "stack" and Challenge() not in match.legal_actions(current(match))
        refused(match, current(match), Challenge(), ErrorCode.NOTHING_TO_CHALLENGE)


def test_wild_draw_ten_is_taken_whole_by_whoever_cannot_answer_it() -> None:
    match = three(["W+10", "r3", "g7", "r9", "b2"], draws=tuple(f"g{n}" for n in range(10)))
    play(match, 1, "W+10", G)
    assert decisions(match, 2) == [Accept()]
    events = match.apply(2, Accept())
    assert len(drawn_codes(match, events, 2)) == 10
    assert one(events, ev.Skipped) == ev.Skipped(2, "stack")
    assert current(match) == 0


def test_wild_reverse_draw_four_reverses_then_the_next_player_the_new_way_draws() -> None:
    match = three(["WR+4", "r3", "g7", "r9", "b2"], draws=("g1", "g2", "g3", "g4"))
    events = play(match, 1, "WR+4", G)
    assert one(events, ev.DirectionChanged).direction == -1
    assert one(events, ev.DecisionPending) == ev.DecisionPending(0, "stack", 4)
    events = match.apply(0, Accept())
    assert drawn_codes(match, events, 0) == ["g1", "g2", "g3", "g4"]
    assert current(match) == 2  # on the new way from seat 0


def test_with_two_players_a_wild_reverse_draw_four_comes_back_to_its_player() -> None:
    match = nm_deal([["y1", "y2", "y3"], ["WR+4", "W+6", "g7"]], top="r5", dealer=0)
    play(match, 1, "WR+4", G)
    assert one(match.apply(1, Accept()), ev.Skipped).seat == 1
    assert current(match) == 0
    # ... unless its player stacks, which sends it on to the other player.
    match = nm_deal([["y1", "y2", "y3"], ["WR+4", "W+6", "g7"]], top="r5", dealer=0)
    play(match, 1, "WR+4", G)
    assert current(match) == 1 and phase(match) == "stack"
    events = play(match, 1, "W+6", B)
    assert one(events, ev.DecisionPending) == ev.DecisionPending(0, "stack", 10)


def test_a_last_wild_reverse_draw_four_of_two_players_falls_on_the_other() -> None:
    match = nm_deal([["y1"], ["WR+4"]], top="r5", dealer=0)
    events = play(match, 1, "WR+4", G)
    assert len([c for e in of_type(events, ev.CardsReceived) if e.seat == 0
                for c in e.cards]) == 4
    assert one(events, ev.RoundEnded).winner == 1


# -- Color Roulette ----------------------------------------------------------------------------


def test_color_roulette_the_next_player_names_a_colour_and_turns_cards_until_it_shows() -> None:
    match = three(["WCR", "r3", "g7", "r9", "b2"], draws=("r1", "W+6", "b3", "g4", "g5"))
    refused(match, 1, Play(card(match, 1, "WCR"), G), ErrorCode.COLOR_NOT_ALLOWED)
    events = play(match, 1, "WCR")
    assert one(events, ev.DecisionPending) == ev.DecisionPending(2, "roulette")
    pending = match.view(2).pending
    assert pending is not None and pending.kind == "roulette"
    assert decisions(match, 2) == [ChooseColor(c) for c in (R, Y, G, B)]
    refused(match, 1, ChooseColor(G), ErrorCode.NOT_YOUR_DECISION)
    events = match.apply(2, ChooseColor(G))
    assert one(events, ev.ColorChosen) == ev.ColorChosen(2, G)
    turned = one(events, ev.RouletteTurned)
    assert [match.manifest.face(c).code for c in turned.cards] == ["r1", "W+6", "b3", "g4"]
    assert turned.audience is None and turned.color == G  # a wild does not count
    assert [e.reason for e in of_type(events, ev.CardsDrawn)] == ["wild_color_roulette"] * 4
    assert one(events, ev.Skipped) == ev.Skipped(2, "wild_color_roulette")
    assert (current(match), active_color(match)) == (0, G)
    assert plays(match, 0) == set()  # seat 0 holds only yellow: it must draw


def test_a_roulette_left_to_the_timer_names_the_colour_held_most() -> None:
    match = three(["WCR", "r3", "g7", "r9", "b2"], draws=("r1", "b9"))
    play(match, 1, "WCR")
    events = match.expire()
    assert one(events, ev.RouletteTurned).color == B  # seat 2 holds blue only
    assert current(match) == 0


def test_a_final_color_roulette_wins_without_its_effect() -> None:
    match = nm_deal([["y1"], ["WCR"], ["b1"]], top="r5")
    events = play(match, 1, "WCR")
    assert one(events, ev.RoundEnded).winner == 1
    assert of_type(events, ev.RouletteTurned) == []


# -- deflect: Discard All and Skip Everyone cancel a chain (seed 003) -------------------------


def test_with_deflect_a_discard_all_of_any_colour_cancels_the_pending_draw() -> None:
    match = nm_deal([["y1", "y2", "y3"], ["r+2", "r3", "g7"], ["bDA", "b4", "y9"]],
                    top="r5", rules=NO_MERCY.replace(deflect=True))
    play(match, 1, "r+2")
    assert "bDA" in plays(match, 2)
    events = play(match, 2, "bDA")
    assert one(events, ev.DrawCancelled) == ev.DrawCancelled(2, 2)
    assert of_type(events, ev.CardsDrawn) == []
    assert codes(match, 2) == ["y9"]  # its colour went down with it
    assert (current(match), phase(match), rnd(match).pending_draw) == (0, "turn", 0)


def test_with_deflect_a_skip_everyone_cancels_the_draw_and_its_player_plays_again() -> None:
    match = nm_deal([["y1", "y2", "y3"], ["r+2", "r3", "g7"], ["gSE", "b4", "y9"]],
                    top="r5", rules=NO_MERCY.replace(deflect=True))
    play(match, 1, "r+2")
    events = play(match, 2, "gSE")
    assert one(events, ev.DrawCancelled).total == 2
    assert (current(match), phase(match)) == (2, "turn")


def test_without_deflect_discard_all_and_skip_everyone_do_not_answer_a_draw() -> None:
    match = nm_deal([["y1", "y2", "y3"], ["r+2", "r3", "g7"], ["gSE", "rDA", "y9"]],
                    top="r5")
    play(match, 1, "r+2")
    assert plays(match, 2) == set()
    refused(match, 2, Play(card(match, 2, "rDA")), ErrorCode.DRAW_PENDING)
