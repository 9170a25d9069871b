"""The host's signature on its trust messages, and the digest of a round's public events.

A signed message is evidence a player can show others: `unonet audit` re-checks a transcript
offline, so whatever the host signed it cannot later deny. Signatures run over `statement(m)`,
`enc("uno/v1/sig", cm(m))` with `sig` left out, where `cm` is canonical msgpack (one value, one
byte string: every map's keys sorted). ECDSA P-256 with SHA-256, `sig` raw `r || s` (64 bytes),
the key behind the host's TLS certificate; the signer is named by its DER SubjectPublicKeyInfo.
Pure functions and values, no I/O (SPEC.md 11.2, 11.9).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import msgpack
from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import (
    decode_dss_signature,
    encode_dss_signature,
)

from protocol.trust.primitives import sha256
from unonet.encoding import enc

TAG_SIG: Final = "uno/v1/sig"
TAG_EVENTS: Final = "uno/v1/events"

SIG_FIELD: Final = "sig"
"""The field of a signed message that holds its signature (and is left out of what is signed)."""

SCALAR_SIZE: Final = 32
"""Bytes of r and of s: the P-256 group order is a 256-bit number."""

SIG_SIZE: Final = 2 * SCALAR_SIZE
"""A signature on the wire: raw r || s, fixed length (DER would let one signature have many
encodings, and a transcript should hold exactly what was checked)."""

MAX_SIGNER_SIZE: Final = 256
"""A P-256 SubjectPublicKeyInfo is 91 bytes; the wire allows up to 256 (`bin(1..256)`)."""

_CURVE: Final = ec.SECP256R1
_HASH: Final = hashes.SHA256


_PLAIN: Final = frozenset({bytes, str, int, bool, type(None)})
"""Types `sort_maps` returns as they are, looked up by exact type before any isinstance: a
deck_commits message holds 108 bytes values, and an isinstance check against Mapping (an
ABC) cost more than the rest of the walk."""


def _utf8(key: str) -> bytes:
    return key.encode("utf-8")


def sort_maps(value: Any) -> Any:
    """`value` with every map rebuilt in the order of its keys' UTF-8 bytes, tuples as lists.

    Raises TypeError for what the encoding profile has no place for: a float, or a map key that
    is not a str (the profile allows only str keys, so the order is always defined).
    """
    kind = type(value)
    if kind in _PLAIN:
        return value
    if kind is list or kind is tuple:
        return [item if type(item) in _PLAIN else sort_maps(item) for item in value]
    if kind is dict or isinstance(value, Mapping):
        for key in value:
            if not isinstance(key, str):
                raise TypeError(f"canonical map keys are str, not {type(key).__name__}")
        return {key: sort_maps(value[key]) for key in sorted(value, key=_utf8)}
    if isinstance(value, list | tuple):
        return [sort_maps(item) for item in value]
    if isinstance(value, float):
        raise TypeError("floats are outside the encoding profile")
    if isinstance(value, bytearray | memoryview):
        return bytes(value)
    return value


def canonical(value: Any) -> bytes:
    """cm(value): msgpack with sorted map keys and shortest forms, bytes as bin, str as str.

    msgpack-python already writes every int, str, bin, array and map in its shortest form; the
    map order is the only freedom left, and `sort_maps` fixes it. Raises TypeError for a value
    the profile does not allow (see `sort_maps`) or msgpack cannot pack.
    """
    packed: bytes = msgpack.packb(sort_maps(value), use_bin_type=True)
    return packed


def statement(message: Mapping[str, Any]) -> bytes:
    """The bytes a signature covers: enc("uno/v1/sig", cm(message without `sig`))."""
    unsigned = {key: item for key, item in message.items() if key != SIG_FIELD}
    return enc(TAG_SIG, canonical(unsigned))


class Signer:
    """The host's signing key: gives each trust message its `sig`.

    `signer` is the DER SubjectPublicKeyInfo that the manifest announces, so a client can check
    every later signature with it (and, on TLS, that it is the certificate's key).
    """

    def __init__(self, key: ec.EllipticCurvePrivateKey) -> None:
        if not isinstance(key, ec.EllipticCurvePrivateKey) or not isinstance(key.curve, _CURVE):
            raise ValueError("the signing key must be an ECDSA P-256 (secp256r1) private key")
        self._key = key
        self._algorithm = ec.ECDSA(_HASH(), deterministic_signing=True)
        """Made once: making it looks up the backend's support each time (four signatures a
        round, each paying that)."""
        self.signer: bytes = key.public_key().public_bytes(
            serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
        )

    @classmethod
    def from_private_key(cls, key: Any) -> Signer:
        """A signer from a `cryptography` private key (host/tls.py's host-key.pem, loaded).

        Raises ValueError for any key that is not ECDSA on P-256.
        """
        return cls(key)

    @classmethod
    def generate(cls) -> Signer:
        """A signer with a fresh P-256 key (a host without a key file yet; tests)."""
        return cls(ec.generate_private_key(_CURVE()))

    def sign(self, message: Mapping[str, Any]) -> dict[str, Any]:
        """A copy of `message` with `sig` set to the signature over its other fields.

        A `sig` already present is replaced, never signed over. The nonce is derived from the key
        and the message (RFC 6979), so a message signed again (a restarted host re-sending what
        it sent before) is the same bytes, and no weak random source can leak the key. Raises
        TypeError if the message is outside the encoding profile (see `canonical`).
        """
        der = self._key.sign(statement(message), self._algorithm)
        r, s = decode_dss_signature(der)
        signed = {key: item for key, item in message.items() if key != SIG_FIELD}
        signed[SIG_FIELD] = r.to_bytes(SCALAR_SIZE, "big") + s.to_bytes(SCALAR_SIZE, "big")
        return signed


def load_signer(signer: Any) -> ec.EllipticCurvePublicKey | None:
    """The P-256 public key named by a DER SubjectPublicKeyInfo, or None for anything else."""
    if not isinstance(signer, bytes) or not 1 <= len(signer) <= MAX_SIGNER_SIZE:
        return None
    try:
        key = serialization.load_der_public_key(signer)
    except Exception:  # bad DER, an unsupported algorithm: hostile input never escapes
        return None
    if not isinstance(key, ec.EllipticCurvePublicKey) or not isinstance(key.curve, _CURVE):
        return None
    return key


def verify(signer: bytes, message: Mapping[str, Any]) -> bool:
    """Whether `message["sig"]` is a valid signature by `signer` over the rest of `message`.

    Never raises: a signer that is not a P-256 SubjectPublicKeyInfo, a message that is not a map
    or is outside the profile, a missing `sig`, or one that is not exactly 64 bytes, all give
    False.
    """
    key = load_signer(signer)
    if key is None or not isinstance(message, Mapping):
        return False
    sig = message.get(SIG_FIELD)
    if not isinstance(sig, bytes) or len(sig) != SIG_SIZE:
        return False
    r = int.from_bytes(sig[:SCALAR_SIZE], "big")
    s = int.from_bytes(sig[SCALAR_SIZE:], "big")
    try:
        key.verify(encode_dss_signature(r, s), statement(message), ec.ECDSA(_HASH()))
    except InvalidSignature:
        return False
    except Exception:  # a message outside the profile, r or s out of range: not a signature
        return False
    return True


def certificate_signer(certificate: bytes) -> bytes | None:
    """The DER SubjectPublicKeyInfo of a DER certificate's key, or None if it is not one.

    On TLS the manifest's `signer` must be this: the key the player pinned is the key that signs.
    """
    try:
        key = x509.load_der_x509_certificate(certificate).public_key()
        return key.public_bytes(
            serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
        )
    except Exception:  # hostile or broken DER: no signer, never a crash
        return None


class EventsDigest:
    """The hash chain over one round's public events, in the order they were sent.

    `d_0 = H(enc("uno/v1/events", game_id, round))`, then `d_i = H(enc("uno/v1/events", d_{i-1},
    cm(e_i)))` for each event map e_i as received (proof fields included). The audit carries the
    host's value; a client that computed another saw other events than the host claims it sent.
    """

    def __init__(self, game_id: bytes, round_no: int) -> None:
        self._value = sha256(TAG_EVENTS, game_id, round_no)
        self.count = 0

    def add(self, event_map: Mapping[str, Any]) -> None:
        """Chain in the next public event. Raises TypeError for a map outside the profile."""
        self._value = sha256(TAG_EVENTS, self._value, canonical(event_map))
        self.count += 1

    @property
    def value(self) -> bytes:
        """The chain's current head: d_n after n events."""
        return self._value
