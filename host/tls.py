"""The host's identity: one ECDSA P-256 key and its self-signed certificate, made once and kept.

Players pin the certificate's fingerprint (SHA-256 of its DER bytes, SPEC.md Transport), so the
key must survive restarts: it lives in the unonet config dir, the key file readable by its owner
only. The same key signs the host's trust messages (SPEC.md 11), with or without TLS, so a
player's transcript is evidence tied to the host they pinned. The profile follows
crypto-protocol.md B2 (trustme's extensions), which keeps the certificate valid even for a
client that pins it as a CA under strict X.509 checks.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import ssl
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from protocol.fingerprint import ALPN, fingerprint_of, format_fingerprint
from protocol.trust.signing import Signer

__all__ = ["ALPN", "HostIdentity", "format_fingerprint", "identity_signer",
           "load_or_create_identity", "server_context"]


CERT_NAME = "uno-host"
KEY_FILE = "host-key.pem"
CERT_FILE = "host-cert.pem"
IDENTITY_LOCK = "host-identity.lock"


@dataclass(frozen=True)
class HostIdentity:
    """Where the key and certificate are, and the fingerprint players pin."""

    cert_path: Path
    key_path: Path
    fingerprint: bytes  # SHA-256 of the DER certificate

    @property
    def display(self) -> str:
        return format_fingerprint(self.fingerprint)



def load_or_create_identity(directory: Path) -> HostIdentity:
    """The identity in `directory`, made on first use; a key file is always left 0600."""
    directory.mkdir(parents=True, exist_ok=True, mode=0o700)
    key_path = directory / KEY_FILE
    cert_path = directory / CERT_FILE
    with _made_by_one(directory):
        if not (key_path.exists() and cert_path.exists()):
            _create(key_path, cert_path)
    os.chmod(key_path, 0o600)
    try:
        cert = x509.load_pem_x509_certificate(cert_path.read_bytes())
    except ValueError:
        raise IdentityError(cert_path, "is not a certificate") from None
    try:
        key = serialization.load_pem_private_key(key_path.read_bytes(), password=None)
    except (ValueError, TypeError):  # TypeError: a key that wants a password
        raise IdentityError(key_path, "is not a key this host can read") from None
    if key.public_key() != cert.public_key():
        raise IdentityError(key_path, f"is not the key of {cert_path.name}")
    der = cert.public_bytes(serialization.Encoding.DER)
    return HostIdentity(cert_path, key_path, fingerprint_of(der))


class IdentityError(ValueError):
    """The host's key or certificate cannot serve: which file, and how to start afresh (a new
    identity, whose new fingerprint the players who pinned the old one are told of)."""

    def __init__(self, path: Path, problem: str) -> None:
        super().__init__(f"the host's identity file {path} {problem}; to make a new identity, "
                         f"move {path.parent / KEY_FILE} and {path.parent / CERT_FILE} away "
                         "(players who pinned the old fingerprint are then warned it changed)")


def identity_signer(identity: HostIdentity) -> Signer:
    """The signer of the host's trust messages: the identity's own key."""
    key = serialization.load_pem_private_key(identity.key_path.read_bytes(), password=None)
    return Signer.from_private_key(key)


@contextlib.contextmanager
def _made_by_one(directory: Path) -> Iterator[None]:
    """Two hosts first started at once from one config dir (two terminals) each made a key
    and a certificate, and one could keep the other's certificate with its own key: the
    identity lock lets the first make them and the second read them. (The client's files
    shared between processes are locked alike, client/shared_file.py; host and client never
    import each other.)"""
    descriptor = os.open(directory / IDENTITY_LOCK, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)


def _create(key_path: Path, cert_path: Path) -> None:
    key = ec.generate_private_key(ec.SECP256R1())
    cert = build_certificate(key)
    key_bytes = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    # Create the key file with owner-only permissions from the start: no window where it is
    # readable by others, whatever the umask.
    fd = os.open(key_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(key_bytes)
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))


def build_certificate(key: ec.EllipticCurvePrivateKey) -> x509.Certificate:
    """The self-signed certificate of crypto-protocol.md B2 (no well-defined expiration)."""
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, CERT_NAME)])
    ski = x509.SubjectKeyIdentifier.from_public_key(key.public_key())
    now = datetime.now(UTC)
    usage = x509.KeyUsage(
        digital_signature=True, content_commitment=False, key_encipherment=False,
        data_encipherment=False, key_agreement=False, key_cert_sign=False, crl_sign=False,
        encipher_only=False, decipher_only=False,
    )
    return (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(minutes=5))
        .not_valid_after(datetime(9999, 12, 31, 23, 59, 59, tzinfo=UTC))
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(ski, critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_subject_key_identifier(ski), critical=False
        )
        .add_extension(usage, critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(CERT_NAME)]), critical=False)
        .sign(key, hashes.SHA256())
    )


def server_context(identity: HostIdentity) -> ssl.SSLContext:
    """TLS 1.3 only, ALPN uno/1, the host's certificate; no client certificates."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_3
    context.load_cert_chain(identity.cert_path, identity.key_path)
    context.set_alpn_protocols([ALPN])
    return context
