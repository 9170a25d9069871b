"""UNO Flip stays verifiable: honest rounds pass every check, and each forgery is caught.

Rounds come from an honest in-process host (tests/trust_flip_sim.py: the engine, the host's
commitments, the light-only manifest and each round's secret pairing of dark faces, told as the
game shows them); a dishonest host is the same transcript with one event changed or left out
(`set_event` and `redigest` re-digest what is sent, as a liar would). Every seat's verifier and a
spectator's are fed what each received.
"""

from __future__ import annotations

import copy
import functools
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from typing import TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from trust_flip_sim import (
    FLIP,
    face_in_play,
    features,
    flip_round_with,
    play_flip_match,
    verifiers,
)
from trust_flip_sim import _deliver as deliver_flip
from trust_reconnects import follow
from trust_sim import (
    ROUND_CAP,
    SIGNER,
    Chooser,
    Delivery,
    Transcript,
    _opened_round,
    audit_of,
    deliver,
    drawn_chooser,
    received,
)

from protocol.trust.ledger import fmt
from protocol.trust.messages import MatchIdentity
from protocol.trust.results import Violation, ViolationKind
from protocol.trust.verifier import TrustVerifier
from unonet import events as ev
from unonet.cards import Face, Kind
from unonet.flip_deck import (
    dark_faces,
    flip_manifest,
    light_faces,
    light_manifest,
    round_manifest,
)
from unonet.match import IN_ROUND, MATCH_OVER, Match
from unonet.rules import RuleSet

EVERYONE = (0, 1, 2, None)


E = TypeVar("E", bound=ev.Event)


def kinds(found: list[Violation]) -> set[ViolationKind]:
    return {v.kind for v in found}


def found_before_audit(t: Transcript, seat: int | None) -> list[Violation]:
    """What `seat`'s verifier finds from the round's messages before its audit arrives."""
    verifier = TrustVerifier(t.match, seat)
    audit_at, _ = audit_of(t)
    for index in received(t, seat):
        if index < audit_at:
            deliver(t, index, verifier, seat)
    return verifier.violations()


def first(t: Transcript, kind: type[E], test: Callable[[E], bool] = bool) -> int:
    """The index of the first event of `kind` that passes `test`."""
    return next(i for i, event, _ in t.events() if isinstance(event, kind) and test(event))


def another(face: Face, side: int) -> Face:
    """A face of the same side of the Flip deck that is not `face`."""
    pool = light_faces() if side == 0 else dark_faces()
    return next(f for f in pool if f != face)


def side_at(t: Transcript, index: int) -> int:
    """The side in play when delivery `index` went out, by the public record."""
    side = 0
    for i, event, _ in t.events():
        if i >= index:
            break
        if isinstance(event, ev.Flipped):
            side = event.side
    return side


@functools.cache
def _complete() -> Transcript:
    return flip_round_with("complete")


@pytest.fixture
def complete() -> Transcript:
    """An honest round with flips, draws, a challenged Wild Draw Two and a Wild Draw Color
    (a copy each test may forge)."""
    return copy.deepcopy(_complete())


@pytest.fixture
def t(complete: Transcript) -> Transcript:
    return complete


# -- honest ------------------------------------------------------------------------------------


def test_an_honest_flip_round_with_flips_draws_and_challenges_passes_every_check(
    complete: Transcript,
) -> None:
    shape = features(complete)
    assert shape.flips and shape.draws and shape.wild_draw_colors and shape.pile_shown
    assert Kind.WILD_DRAW_TWO in shape.challenged
    for seat, verifier in verifiers(complete).items():
        assert verifier.violations() == [], seat
        [rnd] = verifier.rounds
        assert rnd.status == "audited", seat
        assert rnd.ledger.side_claims, seat  # the other sides were checked, not skipped


FLIP_OPTIONS: list[dict[str, object]] = [
    {},
    {"flip_passes_hands": True},
    {"max_hand": 14},
    {"stacking": "same_kind"},
    {"seven_zero": True, "jump_in": "identical"},
]
"""House rules that combine with Flip: hands passed, knock-outs returning cards under a pile
that then turns over, stacking, 7-0 with jump-ins."""

FLIP_ROUNDS = 3


def play_drawn_flip_match(
    rules: RuleSet, seats: int, keys: int, chooser: Chooser, unseeded: dict[int, list[int]],
    max_actions: int = 600,
) -> list[Transcript]:
    """Up to FLIP_ROUNDS honest rounds of a Flip match, as `play_flip_match` plays them, but
    with every action from `chooser` (any seat's, or the host's timer); `keys` only makes the
    seeds; `unseeded`: by round number, the seats whose client was away when it was
    prepared."""
    rng = random.Random(keys)
    match = Match(rules, seats, rng.randbytes(32))
    identity = MatchIdentity(rng.randbytes(16), seats, rules, match.manifest, SIGNER.signer)
    played: list[Transcript] = []
    budget = max_actions
    while match.phase != MATCH_OVER and len(played) < FLIP_ROUNDS and budget > 0:
        number = len(played) + 1
        t = _opened_round(rng, identity, number, unseeded=unseeded.get(number, ()))
        played.append(t)
        t.deliveries.append(Delivery(None, t.host.deal(len(match.manifest))))
        deliver_flip(t, match, match.start_round(t.host.key))
        for _ in range(ROUND_CAP):
            if match.phase != IN_ROUND:
                break
            budget -= 1
            options = {s: a for s in range(seats) if (a := match.legal_actions(s))}
            picked = chooser(match, options)
            events = match.expire() if picked is None else match.apply(*picked)
            deliver_flip(t, match, events)
        t.close()
    return played


@pytest.mark.parametrize("options", FLIP_OPTIONS, ids=lambda o: ",".join(o) or "official")
def test_honest_flip_matches_under_each_option_set_verify_for_every_seat(
    options: dict[str, object],
) -> None:
    """Whole matches (the referee carries totals over), hands passed, knock-outs returning
    cards under a pile that then turns over, reshuffles on either side: every option set every
    run, every seat and a spectator watching throughout."""
    rules = FLIP.replace(**options)
    for seed in range(2):
        rounds = play_flip_match(seed, 4, rules, rounds=3)
        assert sum(features(t).flips for t in rounds) > 0
        for seat, verifier in verifiers(*rounds).items():
            assert verifier.violations() == [], (options, seed, seat)
            assert {r.status for r in verifier.rounds} == {"audited"}


def test_honest_flip_matches_under_the_options_that_combine_with_it_are_never_flagged() -> None:
    """Whole matches (the referee carries totals over) under each option set that combines
    with Flip, hypothesis drawing the options, the actions, and where a client (a seat or a
    spectator) drops and comes back (tests/trust_reconnects.py): nothing is flagged, and each
    round is audited, or missed when the client was away for more than the round after."""
    seen: Counter[str] = Counter()

    @settings(max_examples=10, deadline=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(data=st.data())
    def honest(data: st.DataObject) -> None:
        options = data.draw(st.sampled_from(FLIP_OPTIONS), label="options")
        seats = data.draw(st.integers(2, 5), label="seats")
        rules = FLIP.replace(**options)
        seat = data.draw(st.sampled_from([None, *range(seats)]), label="seat")
        connected = [data.draw(st.integers(0, 3).map(lambda n: n < 2), label="connected")
                     for _ in range(FLIP_ROUNDS)]
        unseeded = {j + 1: [seat] for j, up in enumerate(connected)
                    if not up and seat is not None}
        keys = data.draw(st.integers(0, 2**32), label="keys")
        rounds = play_drawn_flip_match(rules, seats, keys, drawn_chooser(data), unseeded)
        followed = follow(rounds, seat, connected, data)
        verifier = followed.verifier
        assert verifier.violations() == [], (options, verifier.violations()[:3])
        assert verifier.finish() == []
        assert [r.status for r in verifier.rounds] == [
            followed.statuses[j] for j in range(len(rounds))]
        seen["matches"] += 1
        seen["flipped"] += sum(features(t).flips for t in rounds) > 0
        seen["resumed"] += followed.resumes > 0

    honest()
    assert seen["flipped"] * 2 > seen["matches"], seen  # measured: about all
    assert seen["resumed"] * 2 > seen["matches"], seen  # measured: about all


# -- the other sides everyone sees ---------------------------------------------------------------


def test_a_wrong_other_side_face_in_a_hand_is_caught_by_everyone_at_the_audit(
    complete: Transcript,
) -> None:
    index = first(complete, ev.OtherSidesShown, lambda e: bool(e.faces))
    shown = complete.event_at(index)
    assert isinstance(shown, ev.OtherSidesShown)
    hidden = 1 - side_at(complete, index)
    lie = another(shown.faces[0], hidden)
    complete.set_event(index, replace(shown, faces=(lie, *shown.faces[1:])))
    truth = shown.faces[0]
    for seat in EVERYONE:
        assert ViolationKind.OTHER_SIDE not in kinds(found_before_audit(complete, seat))
        found = [v for v in verifiers(complete)[seat].violations()
                 if v.kind is ViolationKind.OTHER_SIDE]
        assert len(found) == 1, seat
        detail = found[0].detail
        assert f"seat {shown.seat}'s hand" in detail
        assert fmt(shown.positions[0]) in detail
        assert lie.name in detail and truth.name in detail


def test_a_wrong_face_for_the_draw_pile_s_top_is_caught_at_the_audit(
    complete: Transcript,
) -> None:
    index = first(complete, ev.PileOtherSideShown, lambda e: e.face is not None)
    shown = complete.event_at(index)
    assert isinstance(shown, ev.PileOtherSideShown) and shown.face is not None
    lie = another(shown.face, 1 - side_at(complete, index))
    complete.set_event(index, replace(shown, face=lie))
    for seat in EVERYONE:
        found = [v for v in verifiers(complete)[seat].violations()
                 if v.kind is ViolationKind.OTHER_SIDE]
        assert len(found) == 1, seat
        assert "the draw pile's top" in found[0].detail
        assert shown.position is not None and fmt(shown.position) in found[0].detail
        assert lie.name in found[0].detail


def test_the_pile_s_top_shown_at_another_position_is_caught_at_once(t: Transcript) -> None:
    index = first(t, ev.PileOtherSideShown, lambda e: e.position is not None)
    shown = t.event_at(index)
    assert isinstance(shown, ev.PileOtherSideShown) and shown.position is not None
    epoch, position = shown.position
    elsewhere = (epoch, position + 1)
    t.set_event(index, replace(shown, position=elsewhere))
    for seat in EVERYONE:
        found = [v for v in found_before_audit(t, seat) if v.kind is ViolationKind.OTHER_SIDE]
        assert found, seat
        assert fmt(elsewhere) in found[0].detail and fmt(shown.position) in found[0].detail


def test_a_hand_shown_with_a_position_its_seat_does_not_hold_is_caught_at_once(
    t: Transcript,
) -> None:
    top = t.find(ev.TopCardTurned)[-1][1]
    assert isinstance(top, ev.TopCardTurned)  # on the discard pile: nobody holds it
    index = first(t, ev.OtherSidesShown, lambda e: len(e.faces) > 1)
    shown = t.event_at(index)
    assert isinstance(shown, ev.OtherSidesShown)
    left_out = shown.positions[0]
    positions = sorted([*shown.positions[1:], top.position])
    t.set_event(index, replace(shown, positions=tuple(positions)))
    for seat in EVERYONE:
        found = [v for v in found_before_audit(t, seat) if v.kind is ViolationKind.OTHER_SIDE]
        details = " | ".join(v.detail for v in found)
        assert f"seat {shown.seat}'s hand was shown with position {fmt(top.position)}" in details
        assert f"without position {fmt(left_out)}" in details


def test_a_hand_s_other_sides_left_unsent_are_flagged_by_the_referee(t: Transcript) -> None:
    """The referee's shadow plays the manifest's own pairing, so it emits the same rows the
    host must send: a row left out is a divergence, one for one."""
    index = first(t, ev.OtherSidesShown, lambda e: bool(e.faces))
    del t.deliveries[index]
    t.redigest()
    for seat in EVERYONE:
        found = [v for v in verifiers(t)[seat].violations() if v.kind is ViolationKind.ILLEGAL]
        assert len(found) == 1 and "other_sides_shown" in found[0].detail, seat


# -- the Flip itself ----------------------------------------------------------------------------


def test_a_flipped_to_the_wrong_side_is_caught_by_everyone_at_once(t: Transcript) -> None:
    index = first(t, ev.Flipped)
    flipped = t.event_at(index)
    assert isinstance(flipped, ev.Flipped)
    t.set_event(index, replace(flipped, side=1 - flipped.side))
    for seat in EVERYONE:
        found = [v for v in found_before_audit(t, seat) if v.kind is ViolationKind.FLIP]
        assert len(found) == 1, seat
        assert f"seat {flipped.seat}'s Flip turned the table to side {1 - flipped.side}" in (
            found[0].detail
        )


def test_a_flipped_naming_another_new_top_is_caught_by_everyone_at_once(t: Transcript) -> None:
    index = first(t, ev.Flipped)
    flipped = t.event_at(index)
    assert isinstance(flipped, ev.Flipped)
    before = [e for i, e, _ in t.events() if i < index and isinstance(e, ev.CardPlayed)][-1]
    assert before.card != flipped.top  # the Flip card itself: the old top, now the bottom
    t.set_event(index, replace(flipped, top=before.card))
    for seat in EVERYONE:
        found = [v for v in found_before_audit(t, seat) if v.kind is ViolationKind.FLIP]
        assert len(found) == 1, seat
        assert "the discard pile's new top" in found[0].detail


# -- challenges read on the side in play -----------------------------------------------------------


@pytest.mark.parametrize("kind", [Kind.WILD_DRAW_TWO, Kind.WILD_DRAW_COLOR])
def test_a_forged_verdict_is_caught_by_the_challenger_at_once_and_by_everyone_at_the_audit(
    kind: Kind,
) -> None:
    t = _round_challenging(kind)
    index, verdict = _challenge_of(t, kind)
    t.set_event(index, replace(verdict, guilty=not verdict.guilty))
    challenger_sees = found_before_audit(t, verdict.challenger)
    assert ViolationKind.CHALLENGE_VERDICT in kinds(challenger_sees)
    for seat in EVERYONE:
        found = [v for v in verifiers(t)[seat].violations()
                 if v.kind is ViolationKind.CHALLENGE_VERDICT]
        assert len(found) == 1, seat
        assert f"declared seat {verdict.target}" in found[0].detail


@pytest.mark.parametrize("kind", [Kind.WILD_DRAW_TWO, Kind.WILD_DRAW_COLOR])
def test_a_wrong_hand_digest_at_a_challengeable_card_of_either_side_is_caught(kind: Kind) -> None:
    t = _round_challenging(kind)
    index, verdict = _challenge_of(t, kind)
    played = max(
        i for i, e, p in t.events()
        if i < index and isinstance(e, ev.CardPlayed) and e.seat == verdict.target
    )
    item = t.deliveries[played].item
    assert isinstance(item, tuple)
    event, proof = item
    assert proof.hand_digest is not None  # the honest host sends it
    t.set_event(played, event, replace(proof, hand_digest=bytes(32)))
    for seat in EVERYONE:
        assert ViolationKind.HAND_DIGEST in kinds(found_before_audit(t, seat)), seat


def _round_challenging(kind: Kind) -> Transcript:
    for seed in range(60):
        t = play_flip_match(seed, 3, FLIP, rounds=1)[0]
        if kind in features(t).challenged:
            return t
    raise AssertionError(f"no round with a challenged {kind.value}")


def _challenge_of(t: Transcript, kind: Kind) -> tuple[int, ev.Challenged]:
    side = 0
    last: dict[int, Kind] = {}
    dark: dict[int, Face] = {}
    for index, event, _ in t.events():
        if isinstance(event, ev.DarkFacesShown) and event.seat is None:
            dark.update(zip(event.cards, event.faces, strict=True))
        elif isinstance(event, ev.Flipped):
            side = event.side
        elif isinstance(event, ev.CardPlayed):
            last[event.seat] = face_in_play(t, event.card, side, dark).kind
        elif isinstance(event, ev.Challenged) and last.get(event.target) is kind:
            return index, event
    raise AssertionError(f"no challenged {kind.value}")


# -- the manifest -----------------------------------------------------------------------------


def test_a_flip_manifest_with_a_doctored_face_is_a_violation_at_once(complete: Transcript) -> None:
    deck = complete.match.manifest
    card = next(c for c in deck if c.faces[0].kind is Kind.WILD_DRAW_TWO)
    wild = next(f for f in light_faces() if f.kind is Kind.WILD)
    cards = list(deck.cards)
    cards[card.id] = replace(card, faces=(wild,))  # a fifth Wild
    doctored = replace(complete.match, manifest=replace(deck, cards=tuple(cards)))
    for seat in EVERYONE:
        found = TrustVerifier(doctored, seat).violations()
        assert [v.kind for v in found] == [ViolationKind.DECK]
        assert "not the UNO Flip deck" in found[0].detail
        assert f"card {card.id} is Wild" in found[0].detail and "Wild Draw Two" in found[0].detail


def test_a_flip_manifest_that_names_dark_faces_is_a_violation_at_once(
    complete: Transcript,
) -> None:
    """A public pairing is what the per-round secret one replaced: even the right faces, paired
    in the manifest, give every hand's light faces away."""
    paired = flip_manifest(bytes(32))
    named = replace(complete.match, manifest=paired)
    for seat in EVERYONE:
        found = TrustVerifier(named, seat).violations()
        assert [v.kind for v in found] == [ViolationKind.DECK]
        assert "card 0 has 2 faces" in found[0].detail


def test_the_light_manifest_in_another_order_is_a_violation_at_once(
    complete: Transcript,
) -> None:
    deck = complete.match.manifest
    cards = list(deck.cards)
    cards[0], cards[-1] = replace(cards[0], faces=cards[-1].faces), replace(
        cards[-1], faces=cards[0].faces
    )
    swapped = replace(complete.match, manifest=replace(deck, cards=tuple(cards)))
    found = TrustVerifier(swapped, 0).violations()
    assert [v.kind for v in found] == [ViolationKind.DECK]
    assert "card 0 is Wild Draw Two" in found[0].detail


def test_the_honest_manifest_is_the_light_manifest(complete: Transcript) -> None:
    assert complete.match.manifest == light_manifest()
    assert TrustVerifier(complete.match, 0).violations() == []


# -- dark faces, told round by round -------------------------------------------------------------


def _told(t: Transcript) -> dict[int, Face]:
    """Every (card, dark face) the round's honest host told anyone."""
    told: dict[int, Face] = {}
    for _, event, _ in t.events():
        if isinstance(event, ev.DarkFacesShown):
            told.update(zip(event.cards, event.faces, strict=True))
    return told


def _lie_for(t: Transcript, truth: Face) -> Face:
    """A dark face other than `truth` that telling once more keeps within the deck's count (so
    that only the pairing, at the audit, can show it false)."""
    told = Counter(_told(t).values())
    deck = Counter(dark_faces())
    return next(f for f in deck if f != truth and told[f] < deck[f])


def test_every_observer_is_told_the_dark_faces_it_needs_and_the_audit_checks_them(
    complete: Transcript,
) -> None:
    held: dict[int | None, set[int]] = {seat: set() for seat in EVERYONE}
    for _, event, _ in complete.events():
        if isinstance(event, ev.CardsReceived):
            held[event.seat].update(event.cards)
    for seat, verifier in verifiers(complete).items():
        [rnd] = verifier.rounds
        assert rnd.ledger.dark, seat  # the round went to the dark side: cards shown there
        assert held[seat] <= set(rnd.dark_faces), seat  # its own cards, each told
        if seat is None:
            assert rnd.told == {}  # a spectator is told only what everybody is


def test_an_honest_round_ending_on_the_dark_side_passes_every_check() -> None:
    t = flip_round_with("ends_dark")
    last = t.find(ev.DarkFacesShown)[-1][1]
    ended = t.find(ev.RoundEnded)[-1][1]
    assert isinstance(last, ev.DarkFacesShown) and isinstance(ended, ev.RoundEnded)
    assert last.seat is None  # every hand told to everybody before the round's end
    assert {c for hand in ended.hands for c in hand} <= set(_told(t))
    for seat, verifier in verifiers(t).items():
        assert verifier.violations() == [], seat
        assert verifier.rounds[0].status == "audited"


def test_a_wrong_dark_face_told_to_everybody_is_caught_by_everyone_at_the_audit(
    complete: Transcript,
) -> None:
    index = first(complete, ev.DarkFacesShown, lambda e: e.seat is None)
    told = complete.event_at(index)
    assert isinstance(told, ev.DarkFacesShown)
    card, truth = told.cards[0], told.faces[0]
    lie = _lie_for(complete, truth)
    complete.set_event(index, replace(told, faces=(lie, *told.faces[1:])))
    holders = {
        e.seat for i, e, _ in complete.events()
        if i < index and isinstance(e, ev.CardsReceived) and card in e.cards
    }
    for seat in EVERYONE:
        early = [v for v in found_before_audit(complete, seat) if v.kind is ViolationKind.DARK_FACE]
        if seat in holders:  # it was told the true face with the card: a contradiction at once
            assert early and f"told to you as {truth.name}" in early[0].detail, seat
        else:
            assert early == [], seat
        found = [v for v in verifiers(complete)[seat].violations()
                 if v.kind is ViolationKind.DARK_FACE]
        assert found, seat
        assert any(
            f"card {card} ({complete.manifest.face(card).name}) was told to everybody to have "
            f"{lie.name} on its dark side, but the round key pairs it with {truth.name}"
            in v.detail for v in found
        ), seat


def test_a_wrong_dark_face_told_to_a_seat_alone_is_caught_by_that_seat_at_the_audit(
    complete: Transcript,
) -> None:
    public = {c for _, e, _ in complete.events()
              if isinstance(e, ev.DarkFacesShown) and e.seat is None for c in e.cards}
    index = first(complete, ev.DarkFacesShown,
                  lambda e: e.seat is not None and not set(e.cards) & public)
    told = complete.event_at(index)
    assert isinstance(told, ev.DarkFacesShown) and told.seat is not None
    lie = _lie_for(complete, told.faces[0])
    complete.set_event(index, replace(told, faces=(lie, *told.faces[1:])))
    for seat in EVERYONE:
        found = [v for v in verifiers(complete)[seat].violations()
                 if v.kind is ViolationKind.DARK_FACE]
        if seat == told.seat:
            assert len(found) == 1 and "was told to you to have" in found[0].detail
            assert ViolationKind.DARK_FACE not in kinds(found_before_audit(complete, seat))
        else:
            assert found == [], seat


def test_a_card_played_on_the_dark_side_with_no_dark_face_told_is_caught_by_everyone_at_once(
    complete: Transcript,
) -> None:
    index = first(complete, ev.DarkFacesShown,
                  lambda e: e.seat is None and len(e.cards) == 1)
    nxt = complete.event_at(index + 1)
    assert isinstance(nxt, ev.CardPlayed | ev.Flipped)
    del complete.deliveries[index]
    complete.redigest()
    for seat in EVERYONE:
        found = [v for v in found_before_audit(complete, seat)
                 if v.kind is ViolationKind.DARK_FACE]
        assert found, seat
        assert "face up on the dark side, but nobody was told its dark face" in found[0].detail
        assert ViolationKind.ILLEGAL in kinds(verifiers(complete)[seat].violations())


def test_cards_given_without_their_dark_faces_are_caught_by_their_receiver_at_once(
    complete: Transcript,
) -> None:
    index = first(complete, ev.DarkFacesShown, lambda e: e.seat is not None)
    told = complete.event_at(index)
    assert isinstance(told, ev.DarkFacesShown) and told.seat is not None
    del complete.deliveries[index]
    complete.redigest()
    for seat in EVERYONE:
        found = [v for v in found_before_audit(complete, seat)
                 if v.kind is ViolationKind.DARK_FACE]
        if seat == told.seat:
            assert found and "you were given cards without the dark face of card" in (
                found[0].detail
            )
        else:
            assert found == [], seat


def test_the_referee_pairs_each_round_from_its_key_not_from_a_deck_it_is_given() -> None:
    """Rounds of one match pair their dark faces differently; the shadow follows each."""
    rounds = play_flip_match(3, 3, FLIP, rounds=3)
    pairings = [round_manifest(t.host.key) for t in rounds]
    assert len(rounds) > 1 and len(set(pairings)) == len(pairings)
    for t, paired in zip(rounds, pairings, strict=True):
        assert all(paired.face(card, 1) == face for card, face in _told(t).items())
    for seat, verifier in verifiers(*rounds).items():
        assert verifier.violations() == [], seat
