"""The public ledger through a Flip, on hand-built events: piles turned over, faces read on the
side in play (light faces from the manifest, dark faces only as told to everybody), the dark faces
told checked against one another, and the other sides everyone sees checked against the positions
held."""

from __future__ import annotations

from protocol.trust.ledger import PublicLedger
from protocol.trust.results import Violation, ViolationKind
from unonet import events as ev
from unonet.cards import Color, Face, Kind, classic_manifest
from unonet.flip_deck import flip_manifest, light_faces, light_manifest

DECK = flip_manifest()  # the round's pairing here: card i has light face i and dark face i
PUBLIC = light_manifest()  # what the ledger knows: each card's light face
SIZE = len(DECK)


def card(light: str) -> int:
    """The first card id whose light face has this name."""
    return next(c.id for c in DECK if c.faces[0].name == light)


RED_1, RED_FLIP, WILD, WD2 = card("red 1"), card("red Flip"), card("Wild"), card("Wild Draw Two")


def test_the_card_ids_used_here_have_the_faces_they_are_named_for() -> None:
    assert [DECK.face(c, 1).name for c in (RED_1, RED_FLIP, WILD, WD2)] == [
        "orange 1", "orange Flip", "Wild", "Wild Draw Color",
    ]


def tell(ledger: PublicLedger, *cards: int) -> list[Violation]:
    """The host tells everybody these cards' dark faces (the round's pairing, DECK)."""
    ordered = tuple(sorted(cards))
    return ledger.apply(ev.DarkFacesShown(None, ordered, tuple(DECK.face(c, 1) for c in ordered)))


def fresh() -> PublicLedger:
    return PublicLedger(PUBLIC, flip=True)


def dealt() -> PublicLedger:
    """Two seats of two cards: seat 0 (0, 0), (0, 2); seat 1 (0, 1), (0, 3); top (0, 4)."""
    ledger = fresh()
    assert ledger.apply(ev.CardsDrawn(0, ((0, 0), (0, 2)), "deal")) == []
    assert ledger.apply(ev.CardsDrawn(1, ((0, 1), (0, 3)), "deal")) == []
    assert ledger.apply(ev.TopCardTurned(RED_1, (0, 4))) == []
    return ledger


def flipped(
    ledger: PublicLedger, seat: int = 0, position: tuple[int, int] = (0, 0), top: int = RED_1
) -> None:
    """`seat` plays a red Flip at `position`; the discard pile's old bottom `top` comes up. Each
    card's dark face is told first when it shows on the dark side, as the host does."""
    if ledger.side == 1:
        assert tell(ledger, RED_FLIP) == []
    assert ledger.apply(ev.CardPlayed(seat, RED_FLIP, position, None, False)) == []
    if ledger.side == 0:
        assert tell(ledger, top) == []
    assert ledger.apply(ev.Flipped(seat, 1 - ledger.side, top)) == []


def test_after_a_flip_cards_come_from_the_old_bottom_of_the_draw_pile() -> None:
    ledger = dealt()
    flipped(ledger)
    assert ledger.apply(ev.CardsDrawn(1, ((0, SIZE - 1), (0, SIZE - 2)), "draw")) == []
    found = ledger.apply(ev.CardsDrawn(1, ((0, 5),), "draw"))  # the old top
    assert [v.kind for v in found] == [ViolationKind.DRAW_ORDER]
    assert f"position (0, {SIZE - 3}) is still in the pile" in found[0].detail


def test_a_second_flip_turns_the_pile_back() -> None:
    ledger = dealt()
    flipped(ledger)
    assert ledger.apply(ev.CardsDrawn(1, ((0, SIZE - 1),), "draw")) == []
    flipped(ledger, seat=0, position=(0, 2), top=RED_FLIP)  # the first Flip comes back up
    assert ledger.side == 0
    assert [card for _, card in ledger.discard] == [RED_FLIP, RED_1, RED_FLIP]
    assert ledger.apply(ev.CardsDrawn(1, ((0, 5),), "draw")) == []


def test_returned_cards_come_first_after_a_flip_the_last_returned_first() -> None:
    ledger = dealt()
    assert ledger.apply(ev.CardsReturned(1, ((0, 1), (0, 3)), "max_hand")) == []
    flipped(ledger)
    found = ledger.apply(ev.CardsDrawn(0, ((0, 1),), "draw"))
    assert [v.kind for v in found] == [ViolationKind.DRAW_ORDER]
    assert "(0, 3), which the turned-over draw pile puts above it" in found[0].detail
    ledger = dealt()
    ledger.apply(ev.CardsReturned(1, ((0, 1), (0, 3)), "max_hand"))
    flipped(ledger)
    assert ledger.apply(ev.CardsDrawn(0, ((0, 3), (0, 1), (0, SIZE - 1)), "draw")) == []


def test_the_discard_pile_turns_over_and_a_flipped_must_name_its_new_top() -> None:
    ledger = dealt()
    ledger.apply(ev.CardPlayed(0, RED_FLIP, (0, 0), None, False))
    tell(ledger, RED_1)
    found = ledger.apply(ev.Flipped(0, 1, RED_FLIP))  # the old top, now at the bottom
    assert [v.kind for v in found] == [ViolationKind.FLIP]
    assert "puts position (0, 4), orange 1, on top" in found[0].detail
    assert ledger.discard[-1] == ((0, 4), RED_1)


def test_a_flipped_must_turn_to_the_other_side() -> None:
    ledger = dealt()
    ledger.apply(ev.CardPlayed(0, RED_FLIP, (0, 0), None, False))
    tell(ledger, RED_1)
    found = ledger.apply(ev.Flipped(0, 0, RED_1))
    assert [v.kind for v in found] == [ViolationKind.FLIP]
    assert ledger.side == 1  # the ledger follows what a Flip does, not the claim


def test_the_colour_in_play_is_the_new_top_s_on_the_new_side() -> None:
    ledger = dealt()
    flipped(ledger)
    assert ledger.color is Color.ORANGE
    wild_top = fresh()  # a Wild turned first comes up again: no colour till named
    wild_top.apply(ev.CardsDrawn(0, ((0, 0), (0, 2)), "deal"))
    wild_top.apply(ev.CardsDrawn(1, ((0, 1), (0, 3)), "deal"))
    wild_top.apply(ev.TopCardTurned(WILD, (0, 4)))
    wild_top.apply(ev.ColorChosen(1, Color.RED))
    wild_top.apply(ev.CardPlayed(0, RED_FLIP, (0, 0), None, False))
    tell(wild_top, WILD)
    assert wild_top.apply(ev.Flipped(0, 1, WILD)) == []
    assert wild_top.color is None
    wild_top.apply(ev.ColorChosen(0, Color.PINK))
    assert wild_top.color is Color.PINK


def test_a_challengeable_card_is_the_one_on_the_side_in_play() -> None:
    ledger = dealt()
    assert ledger.apply(ev.CardPlayed(1, WD2, (0, 1), Color.BLUE, False)) == []
    light = ledger.snapshots[1]
    assert (light.side, light.color_before, light.positions) == (0, Color.RED, frozenset({(0, 3)}))
    flipped(ledger)
    tell(ledger, WD2 + 1)
    assert ledger.apply(ev.CardPlayed(0, WD2 + 1, (0, 2), Color.PINK, False)) == []
    dark = ledger.snapshots[0]  # Wild Draw Color, on the dark side
    assert DECK.face(WD2 + 1, 1).kind is Kind.WILD_DRAW_COLOR
    assert (dark.side, dark.color_before) == (1, Color.ORANGE)


def test_a_hand_shown_from_its_other_side_must_be_exactly_the_hand_held() -> None:
    ledger = dealt()
    faces = (DECK.face(0, 1), DECK.face(0, 1))
    assert ledger.apply(ev.OtherSidesShown(0, ((0, 0), (0, 2)), faces)) == []
    assert [(c.whose, c.position, c.side) for c in ledger.side_claims] == [
        ("seat 0's hand", (0, 0), 1), ("seat 0's hand", (0, 2), 1),
    ]
    found = ledger.apply(ev.OtherSidesShown(0, ((0, 0), (0, 3)), faces))
    assert [v.kind for v in found] == [ViolationKind.OTHER_SIDE] * 2
    assert "with position (0, 3), which the public record does not put in its hand" in (
        found[0].detail
    )
    assert "without position (0, 2)" in found[1].detail
    backwards = ledger.apply(ev.OtherSidesShown(0, ((0, 2), (0, 0)), faces))
    assert [v.kind for v in backwards] == [ViolationKind.OTHER_SIDE]


def test_the_pile_s_top_shown_must_be_the_top_by_the_record_and_turns_with_it() -> None:
    ledger = dealt()
    face = DECK.face(5, 1)
    assert ledger.apply(ev.PileOtherSideShown((0, 5), face)) == []
    flipped(ledger)
    assert ledger.apply(ev.PileOtherSideShown((0, SIZE - 1), DECK.face(SIZE - 1, 0))) == []
    found = ledger.apply(ev.PileOtherSideShown((0, 5), face))
    assert [v.kind for v in found] == [ViolationKind.OTHER_SIDE]
    assert ledger.side_claims[-1].side == 0  # read on the side not in play: light, now


def test_every_card_rests_in_one_place_through_flips_and_returns() -> None:
    ledger = dealt()
    ledger.apply(ev.CardsReturned(1, ((0, 1),), "max_hand"))
    flipped(ledger)
    ledger.apply(ev.CardsDrawn(1, ((0, 1), (0, SIZE - 1)), "draw"))
    assert sorted(ledger.resting_places()) == [(0, i) for i in range(SIZE)]


def test_flip_events_in_a_one_sided_match_are_malformed_not_a_crash() -> None:
    ledger = PublicLedger(classic_manifest())
    ledger.apply(ev.CardsDrawn(0, ((0, 0),), "deal"))
    ledger.apply(ev.TopCardTurned(1, (0, 1)))
    for event in (
        ev.Flipped(0, 1, 1),
        ev.OtherSidesShown(0, ((0, 0),), (DECK.face(0, 1),)),
        ev.PileOtherSideShown((0, 2), DECK.face(0, 1)),
        ev.DarkFacesShown(None, (1,), (DECK.face(1, 1),)),
    ):
        assert [v.kind for v in ledger.apply(event)] == [ViolationKind.MALFORMED]
    assert ledger.side == 0


# -- dark faces: only as told ------------------------------------------------------------------


def test_the_ledger_reads_no_dark_face_from_the_manifest() -> None:
    ledger = dealt()
    flipped(ledger)
    assert ledger.face(RED_FLIP) is None  # played on the light side: never told
    assert ledger.face(RED_1) == DECK.face(RED_1, 1)  # the new top: told to everybody


def test_a_card_played_on_the_dark_side_with_no_dark_face_told_is_caught_at_once() -> None:
    ledger = dealt()
    flipped(ledger)
    found = ledger.apply(ev.CardPlayed(0, WD2, (0, 2), Color.PINK, False))
    assert [v.kind for v in found] == [ViolationKind.DARK_FACE]
    assert f"card {WD2} face up on the dark side, but nobody was told its dark face" in (
        found[0].detail
    )
    assert ledger.color is None and 0 not in ledger.snapshots  # no face: nothing read from it


def test_a_flip_to_the_dark_side_whose_new_top_was_not_told_is_caught_at_once() -> None:
    ledger = dealt()
    ledger.apply(ev.CardPlayed(0, RED_FLIP, (0, 0), None, False))
    found = ledger.apply(ev.Flipped(0, 1, RED_1))
    assert [v.kind for v in found] == [ViolationKind.DARK_FACE]
    assert "seat 0's Flip shows card" in found[0].detail


def test_dark_faces_told_must_agree_with_one_another_and_with_the_deck() -> None:
    ledger = dealt()
    assert tell(ledger, RED_1, WILD) == []
    again = ledger.apply(ev.DarkFacesShown(None, (RED_1,), (DECK.face(RED_1 + 2, 1),)))
    assert [v.kind for v in again] == [ViolationKind.DARK_FACE]
    assert "told as orange 1 and then, to everybody, as orange 2" in again[0].detail
    assert tell(ledger, RED_1) == []  # the same face again: no news
    light = ledger.apply(ev.DarkFacesShown(None, (5,), (light_faces()[0],)))
    assert [v.kind for v in light] == [ViolationKind.DARK_FACE]
    assert "no dark face of the UNO Flip deck" in light[0].detail
    color = DECK.face(WD2, 1)
    fifth = tuple(c for c in range(SIZE) if c not in ledger.dark)[:5]
    over = ledger.apply(ev.DarkFacesShown(None, fifth, (color,) * 5))
    assert [v.kind for v in over] == [ViolationKind.DARK_FACE]
    assert "5 cards were told to have Wild Draw Color on their dark side" in over[0].detail


def test_a_malformed_telling_is_malformed_not_a_crash() -> None:
    ledger = dealt()
    face: Face = DECK.face(0, 1)
    for event in (
        ev.DarkFacesShown(None, (0, 1), (face,)),
        ev.DarkFacesShown(None, (3, 2), (DECK.face(3, 1), DECK.face(2, 1))),
        ev.DarkFacesShown(None, (SIZE,), (face,)),
    ):
        assert ViolationKind.MALFORMED in {v.kind for v in ledger.apply(event)}


def test_a_round_ending_on_the_dark_side_must_tell_every_hand_first() -> None:
    ledger = dealt()
    flipped(ledger)
    tell(ledger, 2)  # seat 0 keeps (0, 2); seat 1's cards 1 and 3 are not told
    ended = ev.RoundEnded(0, ((2,), (1, 3)), (0, 0), (0, 0))
    found = ledger.apply(ended)
    assert [v.kind for v in found] == [ViolationKind.DARK_FACE]
    assert "2 cards of the hands shown (first: card 1)" in found[0].detail
    ledger = dealt()
    flipped(ledger)
    tell(ledger, 1, 2, 3)
    assert ledger.apply(ended) == []
