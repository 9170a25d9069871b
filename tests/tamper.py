"""A dishonest host on the wire: a stream between a real host and a real client that rewrites
what the host says before the client reads it.

The tests of tests/test_trust_attacks.py play a host that lies. Some lies are easiest to tell on
the wire (a changed card, a forged score, a withheld audit): `TamperingStream` decodes each frame
the host sends, hands the message to the test's `Tamper`, and sends on whatever it returns (the
message changed, several messages, or none). A host that lies consistently also signs its lies
and keeps its events digest in step with what it sent: `Forger` does that with the host's own
key, so the only thing left for the client to catch is the lie itself. Plain TCP only: a TLS
stream cannot be read in the middle, which is the point of TLS.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import trio
from client_net import CuttableStream

from protocol.frames import FrameDecoder, Signal, encode_frame
from protocol.game_codec import decode_event
from protocol.trust.signing import EventsDigest, Signer
from unonet.events import Event

Message = dict[str, Any]
Tamper = Callable[[Message], list[Message]]
"""One host message in, the messages the client gets instead out (return [message] to pass)."""


def honest(message: Message) -> list[Message]:
    return [message]


class TamperingStream(CuttableStream):
    """The client's stream to the host, with the host's messages passed through `tamper`."""

    def __init__(self, inner: trio.abc.Stream, tamper: Tamper = honest) -> None:
        super().__init__(inner)
        self.tamper = tamper
        self._decoder = FrameDecoder(max_frame=1 << 24)
        self._out = bytearray()
        self._eof = False

    async def receive_some(self, max_bytes: int | None = None) -> bytes | bytearray:
        while not self._out and not self._eof:
            data = await self.inner.receive_some(max_bytes)
            if not data:
                self._eof = True
                break
            self._decoder.receive_data(bytes(data))
            while True:
                frame = self._decoder.next_frame()
                if frame is Signal.NEED_DATA or frame is Signal.EOF:
                    break
                for message in self.tamper(frame):
                    self._out += encode_frame(message, max_frame=1 << 24, check=False)
        if not self._out:
            return b""
        size = len(self._out) if max_bytes is None else min(max_bytes, len(self._out))
        chunk = bytes(self._out[:size])
        del self._out[:size]
        return chunk


def event_of(message: Mapping[str, Any], kind: str) -> dict[str, Any] | None:
    """The event map of an `event` message of type `kind`, else None."""
    if message.get("t") != "event":
        return None
    event = message.get("event")
    if isinstance(event, dict) and event.get("type") == kind:
        return event
    return None


class Forger:
    """A dishonest host's pen: what it changed, it signs with its own key, and each round's
    audit carries the events digest of the public events it really sent. Put `forge` last in
    a tamper chain; it sees every message the client will get."""

    def __init__(self, signer: Signer) -> None:
        self.signer = signer
        self.game_id = b""
        self._digests: dict[int, EventsDigest] = {}
        self._round: int | None = None

    def sign(self, message: Mapping[str, Any]) -> Message:
        return self.signer.sign({key: value for key, value in message.items() if key != "sig"})

    def forge(self, message: Message) -> Message:
        kind = message.get("t")
        if kind == "manifest":
            self.game_id = bytes(message["game_id"])
            return self.sign(message)
        if kind == "round_prepare":
            self._round = message["round"]
            self._digests.setdefault(message["round"],
                                     EventsDigest(bytes(message["game_id"]), message["round"]))
            return self.sign(message)
        if kind == "event" and self._round is not None and _public(message["event"]):
            self._digests[self._round].add(message["event"])
        if kind == "round_audit":
            digest = self._digests.get(message["round"])
            if digest is not None:
                message = {**message, "events_digest": digest.value}
            return self.sign(message)
        if "sig" in message:
            return self.sign(message)
        return message


def _public(event_map: Mapping[str, Any]) -> bool:
    """Whether an event went to everyone (the events digest covers only those)."""
    decoded = decode_event(event_map)
    return not isinstance(decoded.event, Event) or decoded.event.audience is None


def chain(*tampers: Tamper) -> Tamper:
    """Several tampers, each fed what the one before let through."""

    def run(message: Message) -> list[Message]:
        out = [message]
        for tamper in tampers:
            out = [result for item in out for result in tamper(item)]
        return out

    return run
