"""Every trust vector in protocol/vectors/trust_*.json, recomputed from its inputs.

The checks recompute from the JSON's own inputs with the library (not by re-running the
generator), and a tampered copy of each file must fail them.
"""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
from pathlib import Path
from typing import Any

import msgpack
import pytest
from cryptography.hazmat.primitives.asymmetric import ec

import protocol
from protocol.game_codec import decode_action, decode_event
from protocol.trust.challenge import is_guilty
from protocol.trust.constants import ABSENT_SEED, NO_SEAT
from protocol.trust.deck import deal_deck, reshuffle_deck
from protocol.trust.host import HostCommitments
from protocol.trust.intents import IntentCheck
from protocol.trust.messages import MatchIdentity
from protocol.trust.primitives import (
    card_commitment,
    card_nonce,
    deck_commitment,
    hand_digest,
    round_key,
    seed_commitment,
)
from protocol.trust.signing import EventsDigest, Signer, canonical, statement, verify
from protocol.trust.verifier import TrustVerifier
from unonet.cards import Color, classic_manifest
from unonet.encoding import Field, enc
from unonet.events import Event
from unonet.rules import RuleSet
from unonet.shuffle import PRNG_TAG, HmacStream, dealer_order, reshuffle_order

SIGNER = Signer.from_private_key(ec.generate_private_key(ec.SECP256R1()))
"""A signer for the match a vector's verifier checks (its messages go unsigned: no signature
is asked for here, only what each message says)."""

VECTORS = Path(protocol.__file__).parent / "vectors"


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((VECTORS / name).read_text(encoding="utf-8"))
    return data


def _field(spec: dict[str, Any]) -> Field:
    if "int" in spec:
        return int(spec["int"])
    if "str" in spec:
        return str(spec["str"])
    return bytes.fromhex(spec["hex"])


def check_enc(data: dict[str, Any]) -> None:
    assert len(data["vectors"]) >= 5
    for vector in data["vectors"]:
        fields = [_field(f) for f in vector["fields"]]
        assert enc(*fields).hex() == vector["enc"], fields


def check_round(data: dict[str, Any]) -> None:
    inputs = data["inputs"]
    game_id = bytes.fromhex(inputs["game_id"])
    rnd = inputs["round"]
    hs = bytes.fromhex(inputs["host_seed"])
    seeds = {seat: bytes.fromhex(s) for seat, s in inputs["seeds"]}
    commits = data["seed_commitments"]
    assert seed_commitment(game_id, rnd, inputs["host_seat"], hs).hex() == commits["host_seat_0"]
    assert seed_commitment(game_id, rnd, NO_SEAT, hs).hex() == commits["host_no_seat"]
    for seat, seed in seeds.items():
        assert seed_commitment(game_id, rnd, seat, seed).hex() == commits[f"seat_{seat}"]
    contributions = [seeds[seat] for seat in sorted(seeds)]
    key = round_key(hs, game_id, rnd, contributions)
    assert key.hex() == data["round_key"]
    absent = round_key(hs, game_id, rnd, [seeds[1], ABSENT_SEED])
    assert absent.hex() == data["round_key_seat_2_absent"]
    block = hmac.new(key, enc(PRNG_TAG, "deck", 0), hashlib.sha256).digest()
    assert block.hex() == data["prng_first_block_deck"]
    assert HmacStream(key, ("deck",)).below(2**32) == int.from_bytes(block[:4], "big")
    size = inputs["deck_size"]
    deck = deal_deck(game_id, rnd, key, size)
    assert list(deck.order[:20]) == data["deal_order_first_20"]
    assert list(deck.order) == data["deal_order"]
    assert dealer_order(key, 0, size)[:10] == data["dealer_order_attempt_0_first_10"]
    assert card_nonce(key, 0, 0).hex() == data["nonce_0_0"]
    assert card_nonce(key, 1, 5).hex() == data["nonce_1_5"]
    for index in (0, 107):
        vector = data[f"commitment_0_{index}"]
        nonce = card_nonce(key, 0, index)
        commit = card_commitment(game_id, rnd, 0, index, vector["card"], nonce)
        assert commit.hex() == vector["commitment"]
    assert (
        deck_commitment(game_id, rnd, 0, deck.commitments).hex() == data["deck_commitment_epoch_0"]
    )
    reshuffle = data["reshuffle_epoch_1"]
    sources = [tuple(s) for s in reshuffle["sources"]]
    order = reshuffle_order(key, 1, sources)
    assert [list(s) for s in order] == reshuffle["order"]
    epoch1 = reshuffle_deck(game_id, rnd, key, 1, sources, lambda p: deck.order[p[1]])
    assert list(epoch1.order) == reshuffle["cards"]
    assert [c.hex() for c in epoch1.commitments] == reshuffle["commitments"]
    assert epoch1.deck_commitment.hex() == reshuffle["deck_commitment"]


def check_challenge(data: dict[str, Any]) -> None:
    inputs = data["inputs"]
    game_id = bytes.fromhex(inputs["game_id"])
    rnd = inputs["round"]
    key = bytes.fromhex(inputs["round_key"])
    manifest = classic_manifest()
    commitments = []
    for item in data["reveal"]:
        epoch, index = item["position"]
        nonce = bytes.fromhex(item["nonce"])
        assert card_nonce(key, epoch, index) == nonce
        commit = card_commitment(game_id, rnd, epoch, index, item["card"], nonce)
        assert commit.hex() == item["commitment"]
        assert manifest.face(item["card"]).code == item["face"]
        commitments.append(commit)
    seat = data["target_seat"]
    assert hand_digest(game_id, rnd, seat, commitments).hex() == data["hand_digest"]
    cards = [item["card"] for item in data["reveal"]]
    verdicts = {case["color_before"]: case["guilty"] for case in data["verdicts"]}
    assert set(verdicts.values()) == {True, False}  # the vector shows both outcomes
    for color, guilty in verdicts.items():
        assert is_guilty(manifest, cards, Color(color)) is guilty
    assert data["card_commitment_check"] == data["reveal"][0]["commitment"]


def from_typed(value: Any) -> Any:
    """A JSON value of the signing vectors back to msgpack's: {"bin": hex} -> bytes."""
    if isinstance(value, dict):
        if set(value) == {"bin"}:
            return bytes.fromhex(value["bin"])
        return {key: from_typed(item) for key, item in value.items()}
    if isinstance(value, list):
        return [from_typed(item) for item in value]
    return value


def unpack(hex_text: str) -> Any:
    """Decode a hex msgpack vector; undecodable bytes fail the check (not a crash)."""
    try:
        return msgpack.unpackb(bytes.fromhex(hex_text), raw=False)
    except Exception as exc:
        raise AssertionError(f"not msgpack: {exc}") from None


def check_sign(data: dict[str, Any]) -> None:
    inputs = data["inputs"]
    game_id = bytes.fromhex(inputs["game_id"])
    for case in data["canonical"]:
        value = from_typed(case["value"])
        assert unpack(case["wire"]) == value
        assert canonical(value).hex() == case["cm"]
        assert canonical(unpack(case["wire"])).hex() == case["cm"]
    digest = EventsDigest(game_id, inputs["round"])
    chain = [digest.value.hex()]
    for event in from_typed(inputs["events"]):
        digest.add(event)
        chain.append(digest.value.hex())
    assert chain == [data["events_digest"][f"d_{i}"] for i in range(3)]
    message = from_typed(data["message"]["typed"])
    assert unpack(data["message"]["wire"]) == message
    assert canonical(message).hex() == data["message"]["cm"]
    assert message["events_digest"].hex() == data["events_digest"]["d_2"]
    assert statement(message).hex() == data["statement"]
    assert enc("uno/v1/sig", canonical(message)).hex() == data["statement"]
    key = ec.derive_private_key(int(inputs["test_private_key"], 16), ec.SECP256R1())
    signer = bytes.fromhex(data["signer"])
    assert Signer.from_private_key(key).signer == signer
    valid = [case["valid"] for case in data["signatures"]]
    assert True in valid and False in valid  # the vector shows both outcomes
    for case in data["signatures"]:
        assert verify(signer, unpack(case["wire"])) is case["valid"], case["case"]
    assert data["signatures"][0]["case"] == "as signed"
    signed = unpack(data["signatures"][0]["wire"])
    assert {k: v for k, v in signed.items() if k != "sig"} == message


def check_intents(data: dict[str, Any]) -> None:
    """Each accepted intent against the events after it, as the sender's verifier judges."""
    assert data["inputs"]["deck"] == "classic"
    verdicts = set()
    for case in data["cases"]:
        check = IntentCheck(case["seat"], classic_manifest())
        found = check.accepted(decode_action(case["intent"]), 1)
        at = None
        for index, event in enumerate(case["events"]):
            decoded = decode_event(event).event
            assert isinstance(decoded, Event), event  # every vector's event is one we know
            found += check.event(decoded)
            if found and at is None:
                at = index  # where the sender knows it: at once, not at the audit
        found += check.settle("at the round's audit")
        verdict = found[0].kind.value if found else None
        assert (verdict, at) == (case["verdict"], case["at"]), case["case"]
        verdicts.add(verdict)
    assert {None, "rewritten_card", "rewritten_color", "rewritten_target", "rewritten_uno",
            "rewritten_action"} <= verdicts


def check_abandoned(data: dict[str, Any]) -> None:
    """A round given up at each stage, audited "abandoned", as a spectator judges it."""
    inputs = data["inputs"]
    game_id = bytes.fromhex(inputs["game_id"])
    seeds = {seat: bytes.fromhex(seed) for seat, seed in inputs["seeds"]}
    for case in data["cases"]:
        host = HostCommitments(game_id, inputs["round"], inputs["host_seat"],
                               bytes.fromhex(inputs["host_seed"]))
        match = MatchIdentity(game_id, 3, RuleSet(), classic_manifest(), SIGNER.signer)
        verifier = TrustVerifier(match, None)
        verifier.message(host.round_prepare())
        for seat, seed in seeds.items():
            host.accept_commit(seat, seed_commitment(game_id, inputs["round"], seat, seed))
        if case["seed_commits"]:
            verifier.message(host.freeze_commits())
            for seat, seed in seeds.items():
                host.accept_reveal(seat, seed)
        if case["seed_reveals"]:
            verifier.message(host.seed_reveals())
        if case["deck_commits"]:
            verifier.message(host.deal(108))
        verifier.message(host.audit("abandoned", EventsDigest(game_id, inputs["round"]).value))
        assert [v.kind.value for v in verifier.violations()] == case["verdict"], case


CHECKS = {
    "trust_enc.json": check_enc,
    "trust_round.json": check_round,
    "trust_challenge.json": check_challenge,
    "trust_sign.json": check_sign,
    "trust_intents.json": check_intents,
    "trust_abandoned.json": check_abandoned,
}


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_the_committed_vectors_match_the_code(name: str) -> None:
    CHECKS[name](load(name))


def test_the_seed_commitments_and_key_match_the_research_note() -> None:
    """research/crypto-protocol.md A6 printed these from an independent sketch."""
    data = load("trust_round.json")
    assert data["seed_commitments"]["host_seat_0"].startswith("388df16821de672e")
    assert data["seed_commitments"]["seat_1"].startswith("996fab6994077bc0")
    assert data["round_key"].startswith("e19b2305e4fc5a9d")


def _tamper(value: Any) -> Any:
    """`value` with its first hex string, integer or boolean (depth first) changed; else None."""
    if isinstance(value, dict):
        for key in value:
            changed = _tamper(value[key])
            if changed is not None:
                value[key] = changed
                return value
        return None
    if isinstance(value, list):
        for index, item in enumerate(value):
            changed = _tamper(item)
            if changed is not None:
                value[index] = changed
                return value
        return None
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, str) and value and all(c in "0123456789abcdef" for c in value):
        return ("1" if value[0] == "0" else "0") + value[1:]
    return None


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_a_tampered_vector_fails_its_check(name: str) -> None:
    data = load(name)
    expected = [k for k in data if k not in ("description", "inputs")]
    assert expected
    for key in expected:
        tampered = copy.deepcopy(data)
        tampered[key] = _tamper(tampered[key])
        assert tampered[key] is not None, key
        with pytest.raises(AssertionError):
            CHECKS[name](tampered)
