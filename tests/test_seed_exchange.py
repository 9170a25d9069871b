"""The host's seed exchange on its own (protocol/trust/seed_exchange.py): a seed that does not
open its commitment leaves its seat absent at once (SPEC.md [UNO-11-5], [UNO-11-14]), so the
round is not held up to the reveal deadline by a broken or hostile client, and no second try
gets a seed in after the host answered commit_mismatch."""

from __future__ import annotations

import os

from protocol.errors import Code
from protocol.trust.host import HostCommitments
from protocol.trust.primitives import seed_commitment
from protocol.trust.seed_exchange import SeedExchange, SeedPhase
from protocol.trust.signing import Signer

GAME_ID = bytes(16)
PHASE_TIME = 10.0


def committed_exchange(seeds: dict[int, bytes]) -> SeedExchange:
    """Round 1 with `seeds`' seats committed (each to its seed) and the list frozen."""
    exchange = SeedExchange(HostCommitments(GAME_ID, 1), seeds, 0.0, PHASE_TIME,
                            Signer.generate())
    for seat, seed in seeds.items():
        commit = seed_commitment(GAME_ID, 1, seat, seed)
        assert exchange.commit(seat, {"t": "seed_commit", "round": 1, "commit": commit}) is None
    exchange.advance(0.0)
    assert exchange.phase is SeedPhase.REVEAL
    return exchange


def reveal(exchange: SeedExchange, seat: int, seed: bytes) -> tuple[str, str] | None:
    return exchange.reveal(seat, {"t": "seed_reveal", "round": 1, "seed": seed})


def test_a_seed_that_does_not_open_its_commitment_closes_the_reveals_without_waiting() -> None:
    seeds = {0: os.urandom(32), 1: os.urandom(32)}
    exchange = committed_exchange(seeds)
    assert reveal(exchange, 0, seeds[0]) is None
    refusal = reveal(exchange, 1, os.urandom(32))
    assert refusal is not None and refusal[0] == Code.COMMIT_MISMATCH
    (published,) = exchange.advance(1.0)  # long before the deadline at 10 s
    assert published["t"] == "seed_reveals"
    assert published["seeds"] == [[0, seeds[0]]] and published["absent"] == [1]
    assert exchange.keyed


def test_no_second_reveal_is_taken_after_a_mismatch() -> None:
    seeds = {0: os.urandom(32), 1: os.urandom(32)}
    exchange = committed_exchange(seeds)
    assert reveal(exchange, 1, os.urandom(32)) is not None
    refusal = reveal(exchange, 1, seeds[1])  # the right one, too late
    assert refusal is not None and refusal[0] == Code.UNEXPECTED_MESSAGE
    assert exchange.advance(1.0) == []  # seat 0 still owes its reveal: the phase waits for it
    assert reveal(exchange, 0, seeds[0]) is None
    (published,) = exchange.advance(2.0)
    assert published["absent"] == [1]


def test_a_seat_that_never_reveals_is_still_waited_for_until_the_deadline() -> None:
    seeds = {0: os.urandom(32), 1: os.urandom(32)}
    exchange = committed_exchange(seeds)
    assert reveal(exchange, 0, seeds[0]) is None
    assert exchange.advance(PHASE_TIME - 0.5) == []
    (published,) = exchange.advance(PHASE_TIME)
    assert published["absent"] == [1]
