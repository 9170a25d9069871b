"""The host's signature (SPEC.md 11.2): canonical msgpack, what is signed, what verifies.

A signature is evidence only if any change to what was signed breaks it, another key cannot
make it, and no malformed input makes `verify` say yes or crash.
"""

from __future__ import annotations

import datetime
from typing import Any

import msgpack
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa
from cryptography.x509.oid import NameOID
from hypothesis import given
from hypothesis import strategies as st

from protocol.trust.primitives import sha256
from protocol.trust.signing import (
    SIG_SIZE,
    TAG_EVENTS,
    TAG_SIG,
    EventsDigest,
    Signer,
    canonical,
    certificate_signer,
    statement,
    verify,
)
from unonet.encoding import enc

SIGNER = Signer.generate()
OTHER = Signer.generate()

SAMPLE: dict[str, Any] = {
    "t": "deck_commits",
    "round": 3,
    "epoch": 0,
    "size": 108,
    "commitments": [bytes([i]) * 32 for i in range(3)],
    "deck_commit": b"\x07" * 32,
    "nested": {"b": [1, -2, None, True], "a": "\u00e9", "aa": b""},
}

_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**63), max_value=2**64 - 1),
    st.text(max_size=8),
    st.binary(max_size=8),
)
_values = st.recursive(
    _scalars,
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=4), inner, max_size=4),
    max_leaves=20,
)


def _reordered(value: Any, flip: bool) -> Any:
    """The same value with every map's insertion order reversed (when `flip`)."""
    if isinstance(value, dict):
        items = list(value.items())
        if flip:
            items.reverse()
        return {key: _reordered(item, not flip) for key, item in items}
    if isinstance(value, list):
        return [_reordered(item, flip) for item in value]
    return value


@given(_values, st.booleans())
def test_canonical_does_not_depend_on_the_order_maps_were_built_in(value: Any, flip: bool) -> None:
    assert canonical(_reordered(value, flip)) == canonical(value)


@given(_values)
def test_canonical_decodes_back_to_the_same_value(value: Any) -> None:
    assert msgpack.unpackb(canonical(value), raw=False, strict_map_key=False) == value


def test_canonical_sorts_keys_by_their_utf8_bytes_not_by_utf16_units() -> None:
    # U+FF5E before U+10000 in UTF-8 (ef bd 9e < f0 90 80 80); UTF-16 (Java, JS) sorts the other
    # way (ff5e > d800), so a client sorting its native strings would sign other bytes.
    value = {"\U00010000": 1, "\uff5e": 2, "b": 3, "a": 4}
    assert canonical(value) == b"\x84\xa1a\x04\xa1b\x03\xa3\xef\xbd\x9e\x02\xa4\xf0\x90\x80\x80\x01"


def test_canonical_uses_bin_for_bytes_str_for_text_and_shortest_ints() -> None:
    assert canonical(b"ab") == b"\xc4\x02ab"
    assert canonical("ab") == b"\xa2ab"
    assert canonical(5) == b"\x05"
    assert canonical(300) == b"\xcd\x01\x2c"
    assert canonical((1, 2)) == canonical([1, 2]) == b"\x92\x01\x02"


@pytest.mark.parametrize("bad", [1.5, {1: 2}, {b"k": 1}, [object()]])
def test_canonical_refuses_what_the_profile_has_no_place_for(bad: Any) -> None:
    with pytest.raises(TypeError):
        canonical(bad)


def test_statement_is_the_tagged_canonical_map_without_sig() -> None:
    signed = SIGNER.sign(SAMPLE)
    assert statement(signed) == statement(SAMPLE) == enc(TAG_SIG, canonical(SAMPLE))


def test_a_signed_message_verifies_and_keeps_its_fields() -> None:
    signed = SIGNER.sign(SAMPLE)
    assert {k: v for k, v in signed.items() if k != "sig"} == SAMPLE
    assert len(signed["sig"]) == SIG_SIZE
    assert verify(SIGNER.signer, signed)
    assert "sig" not in SAMPLE


def test_signing_again_replaces_an_old_sig() -> None:
    resigned = SIGNER.sign(OTHER.sign(SAMPLE))
    assert verify(SIGNER.signer, resigned)
    assert not verify(OTHER.signer, resigned)


def _tamperings(message: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Every field changed, one at a time, plus one added and one removed."""
    out = []
    for key, value in message.items():
        if key == "sig":
            continue
        changed = dict(message)
        if isinstance(value, bool) or value is None:
            changed[key] = 0
        elif isinstance(value, int):
            changed[key] = value + 1
        elif isinstance(value, bytes):
            changed[key] = value[:-1] + bytes([value[-1] ^ 1])
        elif isinstance(value, str):
            changed[key] = value + "x"
        elif isinstance(value, list):
            changed[key] = value[:-1]
        else:
            changed[key] = {**value, "a": "other"}
        out.append((f"changed {key}", changed))
        removed = {k: v for k, v in message.items() if k != key}
        out.append((f"removed {key}", removed))
    out.append(("added field", {**message, "extra": 1}))
    return out


@pytest.mark.parametrize(("what", "tampered"), _tamperings(SIGNER.sign(SAMPLE)))
def test_tampering_with_any_field_breaks_the_signature(what: str, tampered: dict[str, Any]) -> None:
    assert not verify(SIGNER.signer, tampered), what


def test_a_signature_by_another_key_fails() -> None:
    assert not verify(SIGNER.signer, OTHER.sign(SAMPLE))


def test_a_flipped_bit_in_the_signature_fails() -> None:
    signed = SIGNER.sign(SAMPLE)
    for position in (0, 31, 32, 63):
        sig = bytearray(signed["sig"])
        sig[position] ^= 0x01
        assert not verify(SIGNER.signer, {**signed, "sig": bytes(sig)})


@pytest.mark.parametrize(
    "sig",
    [None, b"", b"\x01" * 63, b"\x01" * 65, bytes(64), b"\xff" * 64, "x" * 64, 12, [b"\x01"] * 64],
)
def test_a_sig_of_the_wrong_type_or_length_fails(sig: Any) -> None:
    signed = SIGNER.sign(SAMPLE)
    message = {**signed, "sig": sig}
    assert not verify(SIGNER.signer, message)


def test_a_der_signature_of_the_right_content_is_not_accepted() -> None:
    # The wire has one form, raw r||s: the DER form of the same signature is refused.
    key = ec.generate_private_key(ec.SECP256R1())
    der = key.sign(statement(SAMPLE), ec.ECDSA(hashes.SHA256()))
    assert len(der) != SIG_SIZE or der[0] == 0x30
    assert not verify(Signer.from_private_key(key).signer, {**SAMPLE, "sig": der})


def test_a_missing_sig_fails() -> None:
    assert not verify(SIGNER.signer, dict(SAMPLE))


@pytest.mark.parametrize(
    "signer",
    [
        b"",
        b"\x30\x03\x02\x01\x01",
        b"\x00" * 91,
        b"\x30" * 300,
        "not bytes",
        None,
        # fixed, not generated: every pytest-xdist worker must collect the same test ids
        ed25519.Ed25519PrivateKey.from_private_bytes(bytes(range(32))).public_key()
        .public_bytes_raw(),
    ],
)
def test_a_bad_signer_fails_without_raising(signer: Any) -> None:
    assert not verify(signer, SIGNER.sign(SAMPLE))


def _spki(key: Any) -> bytes:
    spki: bytes = key.public_key().public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    return spki


def test_a_key_of_another_type_or_curve_fails_as_signer() -> None:
    signed = SIGNER.sign(SAMPLE)
    assert not verify(_spki(ec.generate_private_key(ec.SECP384R1())), signed)
    assert not verify(_spki(ed25519.Ed25519PrivateKey.generate()), signed)
    assert not verify(_spki(rsa.generate_private_key(65537, 2048)), signed)


def test_a_message_outside_the_profile_fails_without_raising() -> None:
    assert not verify(SIGNER.signer, {**SIGNER.sign(SAMPLE), "x": 1.5})
    assert not verify(SIGNER.signer, [1, 2])  # type: ignore[arg-type]


def test_only_p256_keys_sign() -> None:
    with pytest.raises(ValueError, match="P-256"):
        Signer.from_private_key(ec.generate_private_key(ec.SECP384R1()))
    with pytest.raises(ValueError, match="P-256"):
        Signer.from_private_key(ed25519.Ed25519PrivateKey.generate())
    key = ec.generate_private_key(ec.SECP256R1())
    assert Signer.from_private_key(key).signer == _spki(key)


def test_the_certificate_signer_is_the_certificates_key() -> None:
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "unonet host")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(1)
        .not_valid_before(now)
        .not_valid_after(now + datetime.timedelta(days=1))
        .sign(key, hashes.SHA256())
    )
    der = cert.public_bytes(serialization.Encoding.DER)
    assert certificate_signer(der) == Signer.from_private_key(key).signer
    assert certificate_signer(der) != SIGNER.signer
    assert certificate_signer(der[:-5]) is None
    assert certificate_signer(b"") is None


def test_the_events_digest_is_the_chain_of_the_spec() -> None:
    game_id, events = bytes(range(16)), [{"t": "a", "seat": 1}, {"seat": 2, "t": "b"}]
    digest = EventsDigest(game_id, 4)
    assert digest.value == sha256(TAG_EVENTS, game_id, 4)
    expected = digest.value
    for event in events:
        digest.add(event)
        expected = sha256(TAG_EVENTS, expected, canonical(event))
        assert digest.value == expected
    assert digest.count == 2


def test_the_events_digest_depends_on_game_round_order_and_content() -> None:
    game_id = bytes(16)
    a, b = {"t": "a"}, {"t": "b"}

    def chain(gid: bytes, round_no: int, *events: dict[str, Any]) -> bytes:
        digest = EventsDigest(gid, round_no)
        for event in events:
            digest.add(event)
        return digest.value

    base = chain(game_id, 1, a, b)
    assert base != chain(game_id, 1, b, a)
    assert base != chain(game_id, 2, a, b)
    assert base != chain(b"\x01" * 16, 1, a, b)
    assert base != chain(game_id, 1, a)
    assert base != chain(game_id, 1, a, b, a)
    assert base == chain(game_id, 1, {"t": "a"}, {"t": "b"})
