"""The fingerprint's text form and pins (SPEC.md [UNO-3-4]), shared by host and client."""

from __future__ import annotations

import base64
import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from protocol.fingerprint import (
    fingerprint_matches,
    fingerprint_of,
    format_fingerprint,
    normalize_pin,
)

DIGEST = hashlib.sha256(b"a certificate").digest()


def test_display_is_grouped_base32_of_the_sha256() -> None:
    shown = format_fingerprint(DIGEST)
    assert len(shown.replace("-", "")) == 52
    assert all(len(group) == 4 for group in shown.split("-")[:-1])
    assert shown.replace("-", "") == base64.b32encode(DIGEST).decode().rstrip("=")
    assert fingerprint_of(b"a certificate") == DIGEST


@pytest.mark.parametrize(
    "pin",
    [
        format_fingerprint(DIGEST),
        format_fingerprint(DIGEST).lower(),
        format_fingerprint(DIGEST).replace("-", "")[:16],
        DIGEST.hex(),
        ":".join(f"{b:02X}" for b in DIGEST),
    ],
)
def test_every_accepted_form_of_a_pin_matches(pin: str) -> None:
    assert fingerprint_matches(DIGEST, pin)


@pytest.mark.parametrize("pin", ["ABCD", "not base32 at all 0189", "Z" * 53, "g" * 64])
def test_malformed_pins_are_refused(pin: str) -> None:
    with pytest.raises(ValueError):
        normalize_pin(pin)


@given(st.binary(min_size=32, max_size=32), st.binary(min_size=32, max_size=32))
def test_another_certificate_does_not_match(a: bytes, b: bytes) -> None:
    pin = format_fingerprint(a)
    assert fingerprint_matches(b, pin) == (format_fingerprint(b) == pin)
