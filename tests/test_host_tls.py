"""The host's certificate persists, and a client accepts it only under the right pin."""

from __future__ import annotations

import stat
import threading
from functools import partial
from pathlib import Path
from typing import Any

import pytest
import trio
import trio.testing

from client.tls import HostKeyMismatch, normalize_pin, open_pinned_stream
from host.tls import (
    HostIdentity,
    IdentityError,
    format_fingerprint,
    load_or_create_identity,
    server_context,
)


def test_identity_is_made_once_and_the_key_is_owner_only(tmp_path: Path) -> None:
    first = load_or_create_identity(tmp_path)
    second = load_or_create_identity(tmp_path)
    assert first.fingerprint == second.fingerprint
    assert len(first.fingerprint) == 32
    assert stat.S_IMODE(first.key_path.stat().st_mode) == 0o600
    assert len(first.display.replace("-", "")) == 52


def test_two_hosts_first_started_at_once_share_one_identity(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two `unonet host` from one fresh config dir (two terminals): the second starts while
    the first has written its key and not yet its certificate. It waits, and both serve the
    identity the first made (without the lock, each wrote its own key and the first read a
    certificate that was not its key's)."""
    second: list[HostIdentity] = []
    started: list[threading.Thread] = []
    write_bytes = Path.write_bytes

    def writing(path: Path, data: Any) -> int:
        if not started:  # the first host's certificate, its key already on disk
            other = threading.Thread(target=lambda: second.append(
                load_or_create_identity(tmp_path)))
            started.append(other)
            other.start()
            other.join(1.0)  # it cannot end first with the lock; without it, it does
        return write_bytes(path, data)

    monkeypatch.setattr(Path, "write_bytes", writing)
    first = load_or_create_identity(tmp_path)
    started[0].join()
    assert [identity.fingerprint for identity in second] == [first.fingerprint]


def test_a_damaged_or_mismatched_identity_says_which_file_and_how_to_start_afresh(
    tmp_path: Path,
) -> None:
    """Found by trying: a damaged key file stopped `unonet host` with cryptography's "Unable
    to load PEM file", naming no file. Each case names its file and how to make a new one."""
    first, other = tmp_path / "first", tmp_path / "other"
    made = load_or_create_identity(first)
    load_or_create_identity(other)
    key, cert = made.key_path.read_bytes(), made.cert_path.read_bytes()
    for key_bytes, cert_bytes, blamed, problem in (
        (b"garbage", cert, "host-key.pem", "is not a key this host can read"),
        (key, b"garbage", "host-cert.pem", "is not a certificate"),
        ((other / "host-key.pem").read_bytes(), cert, "host-key.pem",
         "is not the key of host-cert.pem"),
    ):
        made.key_path.write_bytes(key_bytes)
        made.cert_path.write_bytes(cert_bytes)
        with pytest.raises(IdentityError) as raised:
            load_or_create_identity(first)
        said = str(raised.value)
        assert f"{first / blamed} {problem}" in said and "move" in said, said
    made.key_path.write_bytes(key)
    made.cert_path.write_bytes(cert)
    assert load_or_create_identity(first).fingerprint == made.fingerprint


def test_pins_accept_grouped_base32_prefixes_and_hex() -> None:
    digest = bytes(range(32))
    shown = format_fingerprint(digest)
    assert normalize_pin(shown.lower()) == shown.replace("-", "")
    assert normalize_pin(digest.hex()) == shown.replace("-", "")
    with pytest.raises(ValueError):
        normalize_pin("ABCD")


async def _serve_tls_once(tmp_path: Path, nursery: trio.Nursery) -> tuple[trio.SocketListener,
                                                                          bytes]:
    identity = load_or_create_identity(tmp_path)
    context = server_context(identity)

    async def handler(stream: trio.SocketStream) -> None:
        tls = trio.SSLStream(stream, context, server_side=True)
        try:
            await tls.do_handshake()
            await tls.send_all(b"hi")
            await tls.aclose()
        except trio.BrokenResourceError:
            pass  # the client refused us after the handshake, which is the point

    listeners = await nursery.start(partial(trio.serve_tcp, handler, 0, host="127.0.0.1"))
    return listeners[0], identity.fingerprint


async def test_the_right_fingerprint_is_accepted(tmp_path: Path, nursery: trio.Nursery) -> None:
    listener, fingerprint = await _serve_tls_once(tmp_path, nursery)
    tcp = await trio.testing.open_stream_to_socket_listener(listener)
    stream, seen = await open_pinned_stream(tcp, format_fingerprint(fingerprint)[:19])
    assert seen == fingerprint
    assert stream.selected_alpn_protocol() == "uno/1"
    assert await stream.receive_some(10) == b"hi"
    await stream.aclose()


async def test_a_wrong_fingerprint_is_refused(tmp_path: Path, nursery: trio.Nursery) -> None:
    listener, _ = await _serve_tls_once(tmp_path, nursery)
    tcp = await trio.testing.open_stream_to_socket_listener(listener)
    wrong = format_fingerprint(bytes(32))
    with pytest.raises(HostKeyMismatch):
        await open_pinned_stream(tcp, wrong)
