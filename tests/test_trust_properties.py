"""Properties: honest matches under random options, with drops and resumes, never flag anything;
random keys give self-consistent decks; any one-byte forgery is caught.

In the match properties hypothesis draws every action (`data.draw(sampled_from(legal actions))`),
not a seed for random.Random, so a failing game shrinks to a short one: the first choice of each
draw is the pending seat's first play.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from test_properties import house_rule_options, playable_rules
from trust_sim import (
    Chooser,
    Options,
    Transcript,
    play_match,
    play_round,
    received,
    replay,
    replay_resumed,
)

from protocol.trust import EventProof, card_commitment, card_nonce, deal_deck, round_key
from protocol.trust.verifier import TrustVerifier
from unonet import events as ev
from unonet.actions import Action, Play
from unonet.match import Match

SLOW = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

PLAY_WEIGHT = 4
"""How many times more likely the pending seat's plays are than any other legal action: a
uniform choice would draw far more often than players do, and rounds would not end."""


def drawn_chooser(data: st.DataObject) -> Chooser:
    """Each action drawn by hypothesis among every seat's legal ones (or the host's timer)."""

    def choose(match: Match, options: Options) -> tuple[int, Action] | None:
        pairs: list[tuple[int, Action] | None] = [
            (seat, action) for seat in sorted(options) for action in options[seat]
        ]
        plays = [
            p for p in pairs
            if p is not None and p[0] == match.pending_seat and isinstance(p[1], Play)
        ]
        return data.draw(st.sampled_from([*plays * PLAY_WEIGHT, *pairs, None]))

    return choose


def event_count(t: Transcript, seat: int | None) -> int:
    return sum(1 for i in received(t, seat) if isinstance(t.deliveries[i].item, tuple))


def check_match(rounds: Sequence[Transcript], seat: int | None, data: st.DataObject) -> None:
    """`seat` follows the match, dropping and resuming its connection at drawn events (the
    same verifier, given each resumed round's history), or joins it late with a fresh one."""
    joins = data.draw(st.integers(0, len(rounds) - 1))
    verifier: TrustVerifier | None = None
    for number, t in enumerate(rounds[joins:], start=joins):
        count = event_count(t, seat)
        if verifier is None:  # a new client process, or a spectator, entering here
            verifier = replay_resumed(t, seat, data.draw(st.integers(0, count)))
        elif data.draw(st.booleans()):
            cut = data.draw(st.integers(0, count))
            dropped = data.draw(st.integers(0, cut))
            replay_resumed(t, seat, cut, verifier, dropped=dropped, chunk=data.draw(
                st.sampled_from([1, 16, 256])))
        else:
            replay(t, seat, verifier)
        assert verifier.violations() == [], (number, verifier.violations()[:3])
    assert verifier is not None
    assert verifier.finish() == []  # every round played ended and was audited
    assert {r.status for r in verifier.rounds} == {"audited"}


@SLOW
@given(data=st.data())
def test_honest_matches_under_random_options_with_drops_and_resumes_never_flag(
    data: st.DataObject,
) -> None:
    seats = data.draw(st.integers(2, 5), label="seats")
    rules = playable_rules(data.draw(house_rule_options(), label="options"), seats)
    assume(rules is not None)
    assert rules is not None
    rounds = play_match(rules, seats, 0, max_actions=150, chooser=drawn_chooser(data),
                        max_rounds=2)
    seat = data.draw(st.sampled_from([None, *range(seats)]), label="seat")
    check_match(rounds, seat, data)


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
    forged = bytearray(nonces[which])
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
