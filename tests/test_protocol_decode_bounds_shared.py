"""Interface 3 of issue 13: a message encoded once (`encode_message`) is sent to many
connections (`send_encoded`), each checking only its own send state."""

from __future__ import annotations

import pytest

from protocol.client_session import ClientSession, MessageReceived
from protocol.errors import LocalProtocolError
from protocol.host_connection import HelloReceived, HostConnection
from protocol.state import ConnState


def _ready_pair(name: str) -> tuple[ClientSession, HostConnection]:
    client = ClientSession(name=name)
    host = HostConnection(now=0.0)
    [hello] = host.receive_data(client.hello(), now=0.0)
    assert isinstance(hello, HelloReceived)
    client.receive_data(host.welcome())
    return client, host


def test_one_encoding_reaches_every_connection_unchanged() -> None:
    pairs = [_ready_pair(name) for name in ("ada", "bob", "cy")]
    chat = {"t": "chat_message", "seat": 0, "name": "ada", "text": "hi all"}
    frame = pairs[0][1].encode_message(chat)
    assert frame == pairs[0][1].send(dict(chat))  # the same bytes `send` makes
    for client, host in pairs:
        out = host.send_encoded("chat_message", frame)
        assert out is frame
        [received] = client.receive_data(out)
        assert isinstance(received, MessageReceived)
        assert received.message["text"] == "hi all"


def test_encode_message_checks_the_catalogue_and_keeps_the_state() -> None:
    _, host = _ready_pair("ada")
    with pytest.raises(LocalProtocolError):
        host.encode_message({"t": "chat_message", "seat": 0})  # fields missing
    with pytest.raises(LocalProtocolError):
        host.encode_message({"t": "bye", "reason": "quit"})  # changes state: use send
    assert host.state is ConnState.READY


def test_send_encoded_checks_this_connections_state() -> None:
    _, ready = _ready_pair("ada")
    frame = ready.encode_message({"t": "chat_message", "seat": 0, "name": "ada",
                                  "text": "x"})
    waiting = HostConnection(now=0.0)  # still in the handshake
    with pytest.raises(LocalProtocolError):
        waiting.send_encoded("chat_message", frame)
    ready.close()
    with pytest.raises(LocalProtocolError):
        ready.send_encoded("chat_message", frame)
    with pytest.raises(LocalProtocolError):
        HostConnection(now=0.0).send_encoded("hello", frame)  # not the host's to send
