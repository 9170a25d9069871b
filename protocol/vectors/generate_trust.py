"""Write the trust scheme's test vectors (protocol/vectors/trust_*.json) from the reference code.

Run `python protocol/vectors/generate_trust.py`; the JSON is committed, and
tests/test_trust_vectors.py recomputes every expected value from its inputs. Fixed inputs, as in
SPEC.md section 11: game_id = 16 zero bytes, round 1, hs = 00..1f, s_1 = 20..3f, s_2 = 40..5f,
the host in seat 0, players in seats 1 and 2. Bytes are lowercase hex; positions are [epoch, index].
"""

from __future__ import annotations

import hashlib
import hmac
import json
from pathlib import Path
from typing import Any

import msgpack
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature

from protocol.game_codec import encode_action, encode_event
from protocol.trust.challenge import is_guilty
from protocol.trust.constants import ABSENT_SEED, NO_SEAT
from protocol.trust.deck import deal_deck, reshuffle_deck
from protocol.trust.primitives import (
    card_commitment,
    card_nonce,
    hand_digest,
    round_key,
    seed_commitment,
)
from protocol.trust.signing import EventsDigest, Signer, canonical, statement, verify
from unonet import events as ev
from unonet.actions import (
    Action,
    Buzz,
    Catch,
    Challenge,
    ChooseColor,
    ChooseTarget,
    Draw,
    Pass,
    Play,
)
from unonet.cards import Color, classic_manifest
from unonet.encoding import Field, enc
from unonet.shuffle import PRNG_TAG, dealer_order, reshuffle_order

HERE = Path(__file__).parent
GAME_ID = bytes(16)
ROUND = 1
HOST_SEED = bytes(range(0x00, 0x20))
S1 = bytes(range(0x20, 0x40))
S2 = bytes(range(0x40, 0x60))
DECK_SIZE = 108


def _field(value: Field) -> dict[str, Any]:
    if isinstance(value, int):
        return {"int": value}
    if isinstance(value, str):
        return {"str": value}
    return {"hex": bytes(value).hex()}


def enc_vectors() -> dict[str, Any]:
    cases: list[tuple[Field, ...]] = [
        (),
        ("t", 1, b"\x01"),
        ("",),
        (b"",),
        (0,),
        (2**64 - 1,),
        ("uno/v1/card-commit", bytes(16), 1, 0, 17, 42, bytes(32)),
        ("é✓",),
        ("ab", "c"),
        ("a", "bc"),
    ]
    return {
        "description": "enc(f1..fn) = u32be(n) || (u32be(len) || bytes)*; int -> u64be, "
        "str -> UTF-8, bytes as is",
        "vectors": [
            {"fields": [_field(f) for f in case], "enc": enc(*case).hex()} for case in cases
        ],
    }


def round_vectors() -> dict[str, Any]:
    key = round_key(HOST_SEED, GAME_ID, ROUND, [S1, S2])
    key_absent = round_key(HOST_SEED, GAME_ID, ROUND, [S1, ABSENT_SEED])
    deck = deal_deck(GAME_ID, ROUND, key, DECK_SIZE)
    prng_block = hmac.new(key, enc(PRNG_TAG, "deck", 0), hashlib.sha256).digest()
    sources = [(0, 10), (0, 3), (0, 7), (0, 21), (0, 15), (0, 30), (0, 2)]
    reshuffled = reshuffle_deck(GAME_ID, ROUND, key, 1, sources, lambda p: deck.order[p[1]])
    return {
        "description": "one round with fixed seeds: commitments, key, orders, nonces, D",
        "inputs": {
            "game_id": GAME_ID.hex(),
            "round": ROUND,
            "host_seat": 0,
            "host_seed": HOST_SEED.hex(),
            "seeds": [[1, S1.hex()], [2, S2.hex()]],
            "deck_size": DECK_SIZE,
        },
        "seed_commitments": {
            "host_seat_0": seed_commitment(GAME_ID, ROUND, 0, HOST_SEED).hex(),
            "host_no_seat": seed_commitment(GAME_ID, ROUND, NO_SEAT, HOST_SEED).hex(),
            "seat_1": seed_commitment(GAME_ID, ROUND, 1, S1).hex(),
            "seat_2": seed_commitment(GAME_ID, ROUND, 2, S2).hex(),
        },
        "round_key": key.hex(),
        "round_key_seat_2_absent": key_absent.hex(),
        "prng_first_block_deck": prng_block.hex(),
        "deal_order_first_20": list(deck.order[:20]),
        "deal_order": list(deck.order),
        "dealer_order_attempt_0_first_10": dealer_order(key, 0, DECK_SIZE)[:10],
        "nonce_0_0": card_nonce(key, 0, 0).hex(),
        "nonce_1_5": card_nonce(key, 1, 5).hex(),
        "commitment_0_0": {
            "card": deck.order[0],
            "commitment": deck.commitments[0].hex(),
        },
        "commitment_0_107": {
            "card": deck.order[107],
            "commitment": deck.commitments[107].hex(),
        },
        "deck_commitment_epoch_0": deck.deck_commitment.hex(),
        "reshuffle_epoch_1": {
            "sources": [list(s) for s in sources],
            "order": [list(s) for s in reshuffle_order(key, 1, sources)],
            "cards": list(reshuffled.order),
            "commitments": [c.hex() for c in reshuffled.commitments],
            "deck_commitment": reshuffled.deck_commitment.hex(),
        },
    }


def challenge_vectors() -> dict[str, Any]:
    key = round_key(HOST_SEED, GAME_ID, ROUND, [S1, S2])
    deck = deal_deck(GAME_ID, ROUND, key, DECK_SIZE)
    manifest = classic_manifest()
    seat = 1
    # A hand with no yellow card, so the verdicts differ by colour.
    chosen = [i for i, c in enumerate(deck.order) if manifest.face(c).color is not Color.YELLOW]
    positions = [(0, i) for i in chosen[:6]]
    cards = [deck.order[i] for _, i in positions]
    commitments = [deck.commitments[i] for _, i in positions]
    cases = []
    for color in (Color.RED, Color.YELLOW, Color.GREEN, Color.BLUE):
        cases.append({"color_before": color.value, "guilty": is_guilty(manifest, cards, color)})
    return {
        "description": "a challenge reveal of seat 1's hand (classic manifest) with verdicts",
        "inputs": {"game_id": GAME_ID.hex(), "round": ROUND, "round_key": key.hex()},
        "target_seat": seat,
        "reveal": [
            {
                "position": list(p),
                "card": card,
                "face": manifest.face(card).code,
                "nonce": deck.nonces[p[1]].hex(),
                "commitment": c.hex(),
            }
            for p, card, c in zip(positions, cards, commitments, strict=True)
        ],
        "hand_digest": hand_digest(GAME_ID, ROUND, seat, commitments).hex(),
        "verdicts": cases,
        "card_commitment_check": card_commitment(
            GAME_ID, ROUND, 0, positions[0][1], cards[0], deck.nonces[positions[0][1]]
        ).hex(),
    }


P256_ORDER = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
"""n of P-256: (r, n - s) is the other valid signature of the same statement."""

TEST_KEY_SCALAR = int.from_bytes(hashlib.sha256(b"unonet test vector key").digest(), "big")
"""A published private key, for vectors only: anyone can sign with it, so it proves nothing."""


def typed_json(value: Any) -> Any:
    """A msgpack value as JSON: bytes as {"bin": hex}, everything else as itself."""
    if isinstance(value, bytes):
        return {"bin": value.hex()}
    if isinstance(value, dict):
        return {key: typed_json(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [typed_json(item) for item in value]
    return value


def _wire(value: Any) -> str:
    """msgpack as a host might send it: keys in the order it built them, not canonical."""
    packed: bytes = msgpack.packb(value, use_bin_type=True)
    return packed.hex()


def _raw_sig(der: bytes) -> bytes:
    r, s = decode_dss_signature(der)
    return r.to_bytes(32, "big") + s.to_bytes(32, "big")


def sign_vectors() -> dict[str, Any]:
    events = [
        encode_event(ev.CardsDrawn(1, ((0, 0), (0, 1)), "deal")),
        encode_event(ev.TopCardTurned(26, (0, 14)), {"nonce": S2}),
    ]
    digest = EventsDigest(GAME_ID, ROUND)
    chain = [digest.value.hex()]
    for event in events:
        digest.add(event)
        chain.append(digest.value.hex())
    audit: dict[str, Any] = {
        "t": "round_audit", "round": ROUND, "host_seed": HOST_SEED, "seeds": [[1, S1]],
        "absent": [2], "outcome": "ended", "events_digest": digest.value,
    }
    key = ec.derive_private_key(TEST_KEY_SCALAR, ec.SECP256R1())
    signer = Signer.from_private_key(key).signer
    # RFC 6979 makes the committed signature reproducible; any valid signature verifies.
    der = key.sign(statement(audit), ec.ECDSA(hashes.SHA256(), deterministic_signing=True))
    sig = _raw_sig(der)
    signed = {**audit, "sig": sig}
    r, s = sig[:32], int.from_bytes(sig[32:], "big")
    other = ec.derive_private_key(TEST_KEY_SCALAR + 1, ec.SECP256R1())
    by_other = {**audit, "sig": _raw_sig(
        other.sign(statement(audit), ec.ECDSA(hashes.SHA256(), deterministic_signing=True))
    )}
    cases = [
        ("as signed", signed),
        ("the same signature as (r, n - s)", {**signed, "sig": r + (P256_ORDER - s).to_bytes(32)}),
        ("round changed to 2", {**signed, "round": 2}),
        ("outcome changed to abandoned", {**signed, "outcome": "abandoned"}),
        ("a field added", {**signed, "note": "x"}),
        ("last bit of s flipped", {**signed, "sig": sig[:-1] + bytes([sig[-1] ^ 1])}),
        ("signed by another key", by_other),
        ("sig of 63 bytes", {**signed, "sig": sig[:63]}),
        ("sig missing", audit),
    ]
    awkward = bytes.fromhex("82a174d90178a161cd0005")  # {"t": str8 "x", "a": uint16 5}
    return {
        "description": "canonical msgpack cm(x), the signed statement enc('uno/v1/sig', "
        "cm(m without sig)), ECDSA P-256 SHA-256 signatures as raw r||s checked against the "
        "signer's DER SubjectPublicKeyInfo, and the events digest chain; bytes in a JSON value "
        "are {'bin': hex}; msgpack is hex",
        "inputs": {
            "game_id": GAME_ID.hex(),
            "round": ROUND,
            "test_private_key": f"{TEST_KEY_SCALAR:064x}",
            "events": typed_json(events),
        },
        "canonical": [
            {"value": typed_json(value), "wire": wire, "cm": canonical(value).hex()}
            for value, wire in (
                ({"t": "x", "a": 5}, awkward.hex()),
                ({"\U00010000": 1, "\uff5e": [-1, 300, 2**40], "b": {"z": None, "y": True}},
                 _wire({"\U00010000": 1, "\uff5e": [-1, 300, 2**40],
                        "b": {"z": None, "y": True}})),
            )
        ],
        "events_digest": {"d_0": chain[0], "d_1": chain[1], "d_2": chain[2]},
        "message": {"typed": typed_json(audit), "wire": _wire(audit), "cm": canonical(audit).hex()},
        "statement": statement(audit).hex(),
        "signer": signer.hex(),
        "signatures": [
            {"case": case, "wire": _wire(message), "valid": verify(signer, message)}
            for case, message in cases
        ],
    }


def intent_vectors() -> dict[str, Any]:
    """Each case: an intent seat 1 sent and the host accepted, then the events that followed
    it, and what the sender's check says: nothing (the record is the intent) or the kind of
    the first violation, and at which event it knows it (SPEC.md 11.6, [UNO-11-36])."""
    wild, red5, red5b, red6, skip = 100, 9, 10, 11, 19
    red, blue = Color.RED, Color.BLUE

    def played(card: int, index: int, color: Color | None = None,
               uno: bool = False, seat: int = 1) -> ev.Event:
        return ev.CardPlayed(seat, card, (0, index), color, uno)

    swap = ev.HandsMoved(((1, 2, ((0, 1),)), (2, 1, ((0, 2),))), "seven")
    cases: list[tuple[str, Action, list[ev.Event], str | None, int | None]] = [
        ("a wild played naming red, recorded so", Play(wild, red),
         [played(wild, 30, red)], None, None),
        ("a wild played naming red, recorded naming blue", Play(wild, red),
         [played(wild, 30, blue)], "rewritten_color", 0),
        ("another card recorded", Play(red5), [played(red6, 31)], "rewritten_card", 0),
        ("a play calling UNO, recorded without it", Play(red5, uno=True),
         [played(red5, 31)], "rewritten_uno", 0),
        ("a run of two, recorded whole", Play(red5, also=(red6,)),
         [ev.JumpedIn(1, "sequence"), played(red5, 31), played(red6, 32)], None, None),
        ("a multiple of two, recorded with one card only", Play(red5, also=(red5b,)),
         [played(red5, 31), ev.TurnStarted(2, 1)], "rewritten_card", 1),
        ("a run of two, its second card recorded as another seat's", Play(red5, also=(red6,)),
         [played(red5, 31), played(red6, 32, seat=2)], "rewritten_card", 1),
        ("a colour named, recorded so", ChooseColor(blue), [ev.ColorChosen(1, blue)], None,
         None),
        ("a colour named, recorded as another", ChooseColor(blue), [ev.ColorChosen(1, red)],
         "rewritten_color", 0),
        ("a 7's swap with seat 2, recorded so", ChooseTarget(2), [swap], None, None),
        ("a 7's swap with seat 2, given to seat 3", ChooseTarget(2),
         [ev.HandsMoved(((1, 3, ((0, 1),)), (3, 1, ((0, 3),))), "seven")],
         "rewritten_target", 0),
        ("a catch of seat 2, recorded so", Catch(2), [ev.UnoCaught(1, 2, 2)], None, None),
        ("a challenge, recorded as taking the draw", Challenge(),
         [ev.CardsDrawn(1, ((0, 40), (0, 41), (0, 42), (0, 43)), "wild_draw_four")],
         "rewritten_action", 0),
        ("a challenge, recorded so", Challenge(), [ev.Challenged(1, 0, False)], None, None),
        ("the buzzer, recorded as another seat's", Buzz(), [ev.Buzzed(2, 1)],
         "rewritten_action", 0),
        ("a jump-in the host judges late", Play(skip), [ev.JumpInRefused(1, skip, 50)], None,
         None),
        ("a draw, recorded so", Draw(), [ev.CardsDrawn(1, ((0, 44),), "draw")], None, None),
        ("a pass, recorded as a draw", Pass(), [ev.CardsDrawn(1, ((0, 44),), "draw")],
         "rewritten_action", 0),
        ("an accepted move never recorded", Pass(), [], "rewritten_action", None),
    ]
    return {
        "description": "A seat's accepted intents against the record (SPEC.md 11.6, "
                       "[UNO-11-36]): feed `intent` as accepted from `seat`, then each map of "
                       "`events` (an event message's `event`) in order, then end the wait (the "
                       "round's audit); `verdict` is the kind of the first violation, or null; "
                       "`at` is the index in `events` of the event at which the sender finds "
                       "it, or null (found only when the wait ends, or none). Cards are ids "
                       "of the classic deck.",
        "inputs": {"deck": "classic"},
        "cases": [
            {"seat": 1, "case": name, "intent": encode_action(action),
             "events": [encode_event(event) for event in events], "verdict": verdict,
             "at": at}
            for name, action, events, verdict, at in cases
        ],
    }


def abandonment_vectors() -> dict[str, Any]:
    """How far a round went before its host gave it up, and what every client says of its
    audit "abandoned" (SPEC.md 11.7, [UNO-11-12]): received in order, each message given as
    true; `verdict` lists the kinds of violation (empty: counted, no violation)."""
    stages = [
        ((False, False, False), []),
        ((True, False, False), ["abandoned_after_reveal"]),
        ((True, True, False), ["abandoned_after_reveal"]),
        ((True, True, True), ["abandoned"]),
    ]
    return {
        "description": "A round abandoned at each stage, seen by a spectator: round_prepare, "
                       "then the messages marked true (seed_commits, seed_reveals, the "
                       "deck_commits of epoch 0), then its round_audit with outcome "
                       "\"abandoned\" over no events, as its host makes them from the fixed "
                       "inputs (seats 1 and 2 commit and reveal). `verdict`: the kinds of "
                       "violation the client reports.",
        "inputs": {"game_id": GAME_ID.hex(), "round": ROUND, "host_seat": 0,
                   "host_seed": HOST_SEED.hex(), "seeds": [[1, S1.hex()], [2, S2.hex()]]},
        "cases": [
            {"seed_commits": commits, "seed_reveals": reveals, "deck_commits": dealt,
             "verdict": verdict}
            for (commits, reveals, dealt), verdict in stages
        ],
    }


FILES = {
    "trust_enc.json": enc_vectors,
    "trust_round.json": round_vectors,
    "trust_challenge.json": challenge_vectors,
    "trust_sign.json": sign_vectors,
    "trust_intents.json": intent_vectors,
    "trust_abandoned.json": abandonment_vectors,
}


def main() -> None:
    for name, build in FILES.items():
        text = json.dumps(build(), indent=1, ensure_ascii=False) + "\n"
        (HERE / name).write_text(text, encoding="utf-8")
        print(f"wrote {name}")


if __name__ == "__main__":
    main()
