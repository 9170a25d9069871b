"""The dict adapter: wire-shaped dicts to typed trust messages and back, checked by the one
declaration of each message, the catalogue (protocol/messages.py)."""

from __future__ import annotations

import pytest

from protocol.game_codec import encode_event
from protocol.messages import CATALOGUE
from protocol.trust.constants import ALGO, NO_SEAT
from protocol.trust.messages import (
    MESSAGE_TYPES,
    SIGNED_MESSAGES,
    EventProof,
    MalformedTrustMessage,
    MatchIdentity,
    RoundHistory,
    RoundPrepare,
    message_from_dict,
)
from unonet import events as ev
from unonet.rules import RuleSet

C = bytes(range(32))
SAMPLES = {
    "round_prepare": {"round": 1, "game_id": bytes(16), "host_commit": C, "algo": ALGO},
    "seed_commit": {"round": 1, "commit": C},
    "seed_commits": {"round": 1, "commits": [[1, C], [2, C]]},
    "seed_reveal": {"round": 1, "seed": C},
    "deck_commits": {"round": 1, "epoch": 0, "commits": [C, C], "deck_commit": C},
    "seed_reveals": {"round": 1, "seeds": [[1, C]], "absent": [2], "sig": bytes(64)},
    "round_audit": {"round": 1, "host_seed": C, "seeds": [[1, C]], "absent": [2],
                    "outcome": "ended", "events_digest": C},
}


@pytest.mark.parametrize("kind", sorted(SAMPLES))
def test_every_trust_message_round_trips(kind: str) -> None:
    msg = message_from_dict(kind, SAMPLES[kind])
    assert isinstance(msg, MESSAGE_TYPES[kind])
    assert msg.to_dict() == SAMPLES[kind]


def test_round_prepare_without_a_host_seat_uses_the_sentinel() -> None:
    msg = RoundPrepare.from_dict(SAMPLES["round_prepare"])
    assert msg.host_seat == NO_SEAT
    seated = RoundPrepare.from_dict({**SAMPLES["round_prepare"], "host_seat": 0})
    assert seated.host_seat == 0
    assert seated.to_dict()["host_seat"] == 0


def test_unknown_keys_are_ignored() -> None:
    msg = message_from_dict("seed_reveal", {**SAMPLES["seed_reveal"], "later": "field"})
    assert msg.to_dict() == SAMPLES["seed_reveal"]


@pytest.mark.parametrize(
    ("kind", "data"),
    [
        ("seed_reveal", {"round": 1, "seed": b"short"}),
        ("seed_reveal", {"round": -1, "seed": C}),
        ("seed_reveal", {"round": True, "seed": C}),
        ("seed_reveal", {"seed": C}),
        ("seed_commits", {"round": 1, "commits": [[1]]}),
        ("round_prepare", {**SAMPLES["round_prepare"], "game_id": bytes(15)}),
        ("deck_commits", {**SAMPLES["deck_commits"], "commits": "nope"}),
        ("hello", {}),
        ("round_audit", {**SAMPLES["round_audit"], "outcome": "lost"}),
        ("round_audit", {**SAMPLES["round_audit"], "sig": bytes(63)}),
        ("seed_reveals", {"round": 1, "seeds": [[1, C]]}),
        ("seed_reveals", {**SAMPLES["seed_reveals"], "absent": [10]}),
    ],
)
def test_malformed_dicts_raise_a_codec_error(kind: str, data: dict[str, object]) -> None:
    with pytest.raises(MalformedTrustMessage):
        message_from_dict(kind, data)


def test_event_proof_fields_are_read_from_an_event_dict() -> None:
    proof = EventProof.from_dict({"card": 3, "nonce": C, "hand_digest": C})
    assert proof == EventProof(nonce=C, hand_digest=C)
    # An event's own fields (a cards_received's positions) are the event's, not proof fields.
    listed = EventProof.from_dict({"nonces": [C, C], "positions": [[0, 1], [1, 2]]})
    assert listed == EventProof(nonces=(C, C))
    assert EventProof.from_dict({}) == EventProof()
    with pytest.raises(MalformedTrustMessage):
        EventProof.from_dict({"nonce": b"x"})


def test_the_catalogue_is_the_one_declaration() -> None:
    """Every typed trust message checks exactly its catalogue entry: a field the catalogue
    requires is required here, with the same words."""
    for kind, cls in MESSAGE_TYPES.items():
        assert kind in CATALOGUE
        for field in CATALOGUE[kind].fields:
            if not field.required:
                continue
            data = {k: v for k, v in SAMPLES[kind].items() if k != field.name}
            with pytest.raises(MalformedTrustMessage, match=f"{kind}.{field.name}: required"):
                cls.from_dict(data)


@pytest.mark.parametrize("kind", sorted(SIGNED_MESSAGES - {"manifest"}))
def test_a_signature_travels_with_each_signed_message(kind: str) -> None:
    signed = {**SAMPLES[kind], "sig": bytes(range(64))}
    msg = message_from_dict(kind, signed)
    assert msg.to_dict() == signed
    unsigned = {k: v for k, v in SAMPLES[kind].items() if k != "sig"}
    assert message_from_dict(kind, unsigned).to_dict() == unsigned


def test_round_history_keeps_the_event_maps_and_decodes_them() -> None:
    played = encode_event(ev.CardPlayed(0, 5, (0, 14), None, False), {"nonce": C})
    drawn = encode_event(ev.CardsReceived(1, ((0, 3),), (17,)), {"nonces": [C]})
    data = {"round": 2, "first": 10, "events": [played, drawn]}
    history = RoundHistory.from_dict(data)
    assert (history.round_no, history.first) == (2, 10)
    assert history.to_dict() == data
    assert history.decoded() == [
        (ev.CardPlayed(0, 5, (0, 14), None, False), EventProof(nonce=C)),
        (ev.CardsReceived(1, ((0, 3),), (17,)), EventProof(nonces=(C,))),
    ]
    for bad in ({**data, "events": []}, {**data, "events": [{"type": 3}]},
                {**data, "first": -1}, {**data, "events": [played] * 257}):
        with pytest.raises(MalformedTrustMessage):
            RoundHistory.from_dict(bad)


def _manifest_map() -> dict[str, object]:
    rules = RuleSet(target=200)
    return {"t": "manifest", **rules.manifest().to_dict(), "game_id": bytes(16), "seats": 3,
            "rules": rules.to_dict(), "signer": b"spki", "sig": bytes(64)}


def test_a_match_identity_is_read_from_a_manifest_and_written_back() -> None:
    data = _manifest_map()
    match = MatchIdentity.from_dict(data)
    assert match.rules == RuleSet(target=200)
    assert match.manifest == RuleSet().manifest()
    assert (match.game_id, match.seats, match.signer, match.sig) == (bytes(16), 3, b"spki",
                                                                     bytes(64))
    assert {"t": "manifest", **match.to_dict()} == data
    # A signature is not unique: the same match signed again is the same identity.
    assert MatchIdentity.from_dict({**data, "sig": bytes(range(64))}) == match
    assert MatchIdentity.from_dict({**data, "seats": 4}) != match


@pytest.mark.parametrize("change", [
    {"rules": {"target": "high"}},
    {"rules": {"no_such_option": 1}},
    {"cards": [[{"kind": "teleport", "points": 0}]]},
    {"cards": [[{"kind": "number", "color": "ultraviolet", "number": 1, "points": 1}]]},
    {"seats": 11},
    {"signer": bytes(257)},
    {"game_id": bytes(8)},
])
def test_a_bad_manifest_is_a_codec_error(change: dict[str, object]) -> None:
    with pytest.raises(MalformedTrustMessage):
        MatchIdentity.from_dict({**_manifest_map(), **change})


def test_the_catalogue_sizes_are_the_signing_ones() -> None:
    """protocol/messages.py cannot import signing.py (a cycle through protocol.trust), so the
    two say the sizes separately: they must agree."""
    from protocol.messages import MAX_SIGNER_BYTES, SIGNATURE_BYTES
    from protocol.trust.signing import MAX_SIGNER_SIZE, SIG_SIZE

    assert (SIGNATURE_BYTES, MAX_SIGNER_BYTES) == (SIG_SIZE, MAX_SIGNER_SIZE)
