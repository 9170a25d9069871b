"""The public ledger, on hand-built events: what anyone can check without any secret."""

from __future__ import annotations

from protocol.trust.ledger import PublicLedger
from protocol.trust.results import ViolationKind
from unonet import events as ev
from unonet.cards import Color, Kind, classic_manifest

MANIFEST = classic_manifest()
# Card ids of the classic manifest: red 0 is 0, red 1s are 1-2, ..., wilds 100-103, W+4 104-107.
RED_5, BLUE_5, GREEN_2, WILD_DRAW_FOUR = 9, 84, 53, 104


def test_the_card_ids_used_here_are_what_they_say() -> None:
    names = [MANIFEST.face(c).name for c in (RED_5, BLUE_5, GREEN_2, WILD_DRAW_FOUR)]
    assert names == ["red 5", "blue 5", "green 2", "Wild Draw Four"]


def dealt(ledger: PublicLedger, hands: dict[int, list[int]]) -> None:
    """Deal by positions 0, 1, 2... in seat order, then turn the top card (red 5)."""
    index = 0
    for seat, count in hands.items():
        positions = tuple((0, index + k) for k in range(len(count)))
        index += len(count)
        assert ledger.apply(ev.CardsDrawn(seat, positions, "deal")) == []
    assert ledger.apply(ev.TopCardTurned(RED_5, (0, index))) == []


def test_a_wild_draw_four_fixes_the_hand_held_less_the_card_played() -> None:
    ledger = PublicLedger(MANIFEST)
    dealt(ledger, {0: [0, 0, 0], 1: [0, 0, 0]})
    assert ledger.apply(ev.CardPlayed(0, WILD_DRAW_FOUR, (0, 1), Color.BLUE, False)) == []
    snapshot = ledger.snapshots[0]
    assert snapshot.positions == {(0, 0), (0, 2)}
    assert snapshot.color_before is Color.RED
    assert ledger.color is Color.BLUE
    assert ledger.holdings[0] == {(0, 0), (0, 2)}


def test_cards_leave_the_pile_from_the_top_only() -> None:
    ledger = PublicLedger(MANIFEST)
    dealt(ledger, {0: [0, 0], 1: [0, 0]})
    found = ledger.apply(ev.CardsDrawn(1, ((0, 6),), "draw"))  # (0, 5) skipped
    assert [v.kind for v in found] == [ViolationKind.DRAW_ORDER]
    assert "(0, 5) is still in the pile" in found[0].detail


def test_the_deal_may_interleave_seats() -> None:
    ledger = PublicLedger(MANIFEST)
    assert ledger.apply(ev.CardsDrawn(0, ((0, 0), (0, 2)), "deal")) == []
    assert ledger.apply(ev.CardsDrawn(1, ((0, 1), (0, 3)), "deal")) == []
    assert ledger.apply(ev.TopCardTurned(RED_5, (0, 4))) == []


def test_a_position_handed_out_twice_is_caught() -> None:
    ledger = PublicLedger(MANIFEST)
    dealt(ledger, {0: [0, 0], 1: [0, 0]})
    found = ledger.apply(ev.CardsDrawn(1, ((0, 0),), "draw"))
    assert ViolationKind.POSITION_REUSED in {v.kind for v in found}


def test_playing_a_position_not_held_is_caught() -> None:
    ledger = PublicLedger(MANIFEST)
    dealt(ledger, {0: [0, 0], 1: [0, 0]})
    found = ledger.apply(ev.CardPlayed(0, BLUE_5, (0, 3), None, False))  # seat 1's position
    assert [v.kind for v in found] == [ViolationKind.NOT_HELD]


def test_an_emptied_pile_must_be_remade_from_the_discards_less_the_top() -> None:
    ledger = PublicLedger(MANIFEST)
    dealt(ledger, {0: [0, 0], 1: [0, 0]})
    ledger.apply(ev.CardPlayed(0, BLUE_5, (0, 0), None, False))
    ledger.apply(ev.CardPlayed(1, GREEN_2, (0, 2), None, False))  # not a legal play: irrelevant
    honest = ev.Reshuffled(1, ((0, 0), (0, 4)), (BLUE_5, RED_5), "empty_pile")
    assert ledger.apply(honest) == []
    assert ledger.discard == [((0, 2), GREEN_2)]


def test_a_reshuffle_that_smuggles_a_card_in_is_caught() -> None:
    ledger = PublicLedger(MANIFEST)
    dealt(ledger, {0: [0, 0], 1: [0, 0]})
    ledger.apply(ev.CardPlayed(0, BLUE_5, (0, 0), None, False))
    smuggled = ev.Reshuffled(1, ((0, 0), (0, 3), (0, 4)), (BLUE_5, 7, RED_5), "empty_pile")
    found = ledger.apply(smuggled)
    assert [v.kind for v in found] == [ViolationKind.RESHUFFLE_CARDS]


def test_draws_after_a_reshuffle_come_from_the_new_epoch() -> None:
    ledger = PublicLedger(MANIFEST)
    dealt(ledger, {0: [0], 1: [0]})
    ledger.apply(ev.CardPlayed(0, BLUE_5, (0, 0), None, False))
    ledger.apply(ev.Reshuffled(1, ((0, 2),), (RED_5,), "empty_pile"))
    assert ledger.apply(ev.CardsDrawn(1, ((1, 0),), "draw")) == []
    found = ledger.apply(ev.CardsDrawn(1, ((0, 7),), "draw"))
    assert ViolationKind.DRAW_ORDER in {v.kind for v in found}


def test_a_hand_shown_at_the_end_must_have_the_size_the_record_gives() -> None:
    ledger = PublicLedger(MANIFEST)
    dealt(ledger, {0: [0, 0], 1: [0, 0]})
    found = ledger.apply(ev.RoundEnded(0, ((1, 2), (3,)), (0, 0), (0, 0)))
    assert [v.kind for v in found] == [ViolationKind.HAND_COUNT]


def test_an_unknown_card_id_is_malformed_not_a_crash() -> None:
    ledger = PublicLedger(MANIFEST)
    dealt(ledger, {0: [0, 0], 1: [0, 0]})
    found = ledger.apply(ev.CardPlayed(0, 999, (0, 0), None, False))
    assert [v.kind for v in found] == [ViolationKind.MALFORMED]


def test_a_zero_passes_every_hand_on_at_once() -> None:
    ledger = PublicLedger(MANIFEST)
    dealt(ledger, {0: [0, 0], 1: [0], 2: [0, 0, 0]})
    passed = ev.HandsMoved(
        ((0, 1, ((0, 0), (0, 1))), (1, 2, ((0, 2),)), (2, 0, ((0, 3), (0, 4), (0, 5)))), "zero"
    )
    assert ledger.apply(passed) == []
    assert ledger.holdings == {0: {(0, 3), (0, 4), (0, 5)}, 1: {(0, 0), (0, 1)}, 2: {(0, 2)}}


def test_a_hand_moved_twice_in_one_event_is_caught() -> None:
    ledger = PublicLedger(MANIFEST)
    dealt(ledger, {0: [0, 0], 1: [0, 0]})
    swap = ev.HandsMoved(((0, 1, ((0, 0), (0, 1))), (1, 0, ((0, 0), (0, 3)))), "seven")
    found = ledger.apply(swap)
    assert ViolationKind.POSITION_REUSED in {v.kind for v in found}


def test_a_wild_draw_four_after_a_swap_fixes_the_hand_received() -> None:
    ledger = PublicLedger(MANIFEST)
    dealt(ledger, {0: [0, 0], 1: [0, 0, 0]})
    ledger.apply(ev.HandsMoved(((0, 1, ((0, 0), (0, 1))), (1, 0, ((0, 2), (0, 3), (0, 4)))),
                               "seven"))
    assert ledger.apply(ev.CardPlayed(0, WILD_DRAW_FOUR, (0, 3), None, False)) == []
    assert ledger.snapshots[0].positions == {(0, 2), (0, 4)}


def test_a_stacked_wild_draw_four_fixes_its_own_hand_and_the_colour_named_before_it() -> None:
    ledger = PublicLedger(MANIFEST)
    dealt(ledger, {0: [0, 0], 1: [0, 0, 0]})
    ledger.apply(ev.CardPlayed(0, WILD_DRAW_FOUR, (0, 0), None, False))
    ledger.apply(ev.ColorChosen(0, Color.GREEN))
    ledger.apply(ev.DrawStacked(1, 8))
    assert ledger.apply(ev.CardPlayed(1, WILD_DRAW_FOUR + 1, (0, 3), None, False)) == []
    snapshot = ledger.snapshots[1]
    assert snapshot.positions == {(0, 2), (0, 4)}
    assert snapshot.color_before is Color.GREEN


def test_out_of_turn_plays_and_new_draw_reasons_are_no_concern_of_the_ledger() -> None:
    ledger = PublicLedger(MANIFEST)
    dealt(ledger, {0: [0, 0], 1: [0, 0]})
    assert ledger.apply(ev.JumpedIn(1, "jump_in")) == []
    assert ledger.apply(ev.CardPlayed(1, RED_5 + 1, (0, 2), None, False)) == []
    assert ledger.apply(ev.CardPlayed(1, BLUE_5, (0, 3), None, False)) == []  # a multiple
    assert ledger.apply(ev.CardsDrawn(0, ((0, 5), (0, 6)), "penalty_buzzer")) == []
    assert ledger.apply(ev.CardsDrawn(1, ((0, 7),), "a reason from a newer host")) == []


def test_returned_cards_wait_under_the_pile_and_come_back_in_order() -> None:
    ledger = PublicLedger(MANIFEST)
    dealt(ledger, {0: [0, 0], 1: [0, 0, 0]})
    assert ledger.apply(ev.CardsReturned(1, ((0, 4), (0, 2), (0, 3)), "max_hand")) == []
    assert ledger.holdings[1] == set()
    rest = tuple((0, i) for i in range(6, len(MANIFEST)))
    assert ledger.apply(ev.CardsDrawn(0, rest, "draw")) == []
    assert ledger.apply(ev.CardsDrawn(0, ((0, 4), (0, 2)), "stack")) == []
    again = ledger.apply(ev.CardsDrawn(0, ((0, 4),), "draw"))
    assert [v.kind for v in again] == [ViolationKind.POSITION_REUSED]


def test_returning_a_position_not_held_is_caught() -> None:
    ledger = PublicLedger(MANIFEST)
    dealt(ledger, {0: [0, 0], 1: [0, 0]})
    found = ledger.apply(ev.CardsReturned(1, ((0, 0),), "max_hand"))
    assert [v.kind for v in found] == [ViolationKind.NOT_HELD]


def test_the_discards_are_not_reshuffled_while_returned_cards_wait_under_the_pile() -> None:
    ledger = PublicLedger(MANIFEST)
    dealt(ledger, {0: [0, 0], 1: [0, 0]})
    ledger.apply(ev.CardPlayed(0, BLUE_5, (0, 0), None, False))
    ledger.apply(ev.CardsReturned(1, ((0, 2), (0, 3)), "max_hand"))
    ledger.apply(ev.CardsDrawn(0, tuple((0, i) for i in range(5, len(MANIFEST))), "draw"))
    found = ledger.apply(ev.Reshuffled(1, ((0, 4),), (RED_5,), "empty_pile"))
    assert [v.kind for v in found] == [ViolationKind.RESHUFFLE_CARDS]
    assert "2 returned cards were still under the draw pile" in found[0].detail


def test_every_position_rests_in_exactly_one_place() -> None:
    ledger = PublicLedger(MANIFEST)
    dealt(ledger, {0: [0, 0], 1: [0, 0]})
    ledger.apply(ev.CardPlayed(0, BLUE_5, (0, 0), None, False))
    ledger.apply(ev.HandsMoved(((0, 1, ((0, 1),)), (1, 0, ((0, 2), (0, 3)))), "seven"))
    ledger.apply(ev.CardsReturned(1, ((0, 1),), "max_hand"))
    places = ledger.resting_places()
    assert sorted(places) == [(0, i) for i in range(len(MANIFEST))]


def test_a_buzzer_leaves_the_colour_in_play_for_a_wild_draw_four_after_it() -> None:
    manifest = classic_manifest(buzzers=True)
    buzzer = next(c for c in range(len(manifest)) if manifest.face(c).kind is Kind.BUZZER)
    ledger = PublicLedger(manifest)
    dealt(ledger, {0: [0, 0, 0], 1: [0, 0]})
    ledger.apply(ev.CardPlayed(0, buzzer, (0, 0), None, False))
    ledger.apply(ev.CardPlayed(0, WILD_DRAW_FOUR, (0, 1), None, False))
    assert ledger.snapshots[0].color_before is Color.RED
