"""Properties: random keys and honest rounds always verify; any one-byte forgery is caught."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from trust_sim import play_round, replay

from protocol.trust import EventProof, card_commitment, card_nonce, deal_deck, round_key
from unonet import events as ev

SLOW = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SLOW
@given(
    seed=st.integers(0, 2**32),
    seats=st.integers(2, 6),
    host_seated=st.booleans(),
)
def test_random_honest_rounds_always_verify(seed: int, seats: int, host_seated: bool) -> None:
    t = play_round(seed, seats=seats, host_seat=0 if host_seated else None)
    for seat in [None, *range(seats)]:
        assert replay(t, seat).violations() == []


@settings(max_examples=50, deadline=None)
@given(
    host_seed=st.binary(min_size=32, max_size=32),
    seeds=st.lists(st.binary(min_size=32, max_size=32), max_size=5),
    game_id=st.binary(min_size=16, max_size=16),
)
def test_random_keys_give_self_consistent_decks(
    host_seed: bytes, seeds: list[bytes], game_id: bytes
) -> None:
    key = round_key(host_seed, game_id, 1, seeds)
    deck = deal_deck(game_id, 1, key, 108)
    assert sorted(deck.order) == list(range(108))
    for index in (0, 53, 107):
        nonce = card_nonce(key, 0, index)
        assert deck.nonces[index] == nonce
        commit = card_commitment(game_id, 1, 0, index, deck.order[index], nonce)
        assert deck.commitments[index] == commit


@SLOW
@given(seed=st.integers(0, 2**32), data=st.data())
def test_any_one_byte_change_to_a_nonce_is_caught(seed: int, data: st.DataObject) -> None:
    t = play_round(seed)
    seat = data.draw(st.integers(0, t.seats - 1))
    opened = [
        (i, e, p)
        for i, e, p in t.events()
        if (p.nonce is not None or p.nonces)
        and (t.deliveries[i].audience is None or seat in (t.deliveries[i].audience or ()))
    ]
    index, event, proof = data.draw(st.sampled_from(opened))
    nonces = [proof.nonce] if proof.nonce is not None else list(proof.nonces)
    which = data.draw(st.integers(0, len(nonces) - 1))
    byte = data.draw(st.integers(0, 31))
    flip = data.draw(st.integers(1, 255))
    forged = bytearray(nonces[which])  # type: ignore[arg-type]
    forged[byte] ^= flip
    nonces[which] = bytes(forged)
    if proof.nonce is not None:
        new_proof = replace(proof, nonce=nonces[0])
    else:
        new_proof = replace(proof, nonces=tuple(n for n in nonces if n is not None))
    t.set_event(index, event, new_proof)
    assert replay(t, seat).violations() != []


@SLOW
@given(seed=st.integers(0, 2**32), data=st.data())
def test_any_change_to_a_card_id_is_caught(seed: int, data: st.DataObject) -> None:
    t = play_round(seed)
    seat = data.draw(st.integers(0, t.seats - 1))
    candidates = [
        (i, e, p)
        for i, e, p in t.events()
        if isinstance(e, ev.CardPlayed | ev.TopCardTurned)
        or (isinstance(e, ev.CardsReceived) and e.seat == seat)
    ]
    index, event, _ = data.draw(st.sampled_from(candidates))
    delta = data.draw(st.integers(1, 255))
    if isinstance(event, ev.CardsReceived):
        which = data.draw(st.integers(0, len(event.cards) - 1))
        cards = list(event.cards)
        cards[which] = (cards[which] + delta) % 256
        t.set_event(index, replace(event, cards=tuple(cards)))
    else:
        assert isinstance(event, ev.CardPlayed | ev.TopCardTurned)
        t.set_event(index, replace(event, card=(event.card + delta) % 256))
    assert replay(t, seat).violations() != []


def test_proofs_survive_the_dict_adapter() -> None:
    t = play_round(0)
    for _, _, proof in t.events():
        assert EventProof.from_dict(proof.to_dict()) == proof
