"""The dict adapter: wire-shaped dicts to typed trust messages and back."""

from __future__ import annotations

import pytest

from protocol.trust import (
    ALGO,
    MESSAGE_TYPES,
    NO_SEAT,
    EventProof,
    MalformedTrustMessage,
    RoundPrepare,
    message_from_dict,
)

C = bytes(range(32))
SAMPLES = {
    "round_prepare": {"round": 1, "game_id": bytes(16), "host_commit": C, "algo": ALGO},
    "seed_commit": {"round": 1, "commit": C},
    "seed_commits": {"round": 1, "commits": [[1, C], [2, C]]},
    "seed_reveal": {"round": 1, "seed": C},
    "deck_commits": {"round": 1, "epoch": 0, "commits": [C, C], "deck_commit": C},
    "round_audit": {"round": 1, "host_seed": C, "seeds": [[1, C]], "absent": [2]},
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
