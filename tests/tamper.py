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
