"""A message a table sends to many members is encoded once per routing pass, and every member
gets the same bytes (issue 13, interface 3: broadcast work does not grow with the audience)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

import pytest
import trio
import trio.testing
from test_host_admission_net import LIMITS, RawClient, connect_from, port_of
from test_host_robustness import start

import protocol.connection
from protocol.frames import encode_frame

MEMBERS = 12


async def test_a_chat_line_to_twelve_members_is_encoded_once(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock,
    monkeypatch: pytest.MonkeyPatch
) -> None:
    encoded: Counter[str] = Counter()
    real = encode_frame  # what protocol.connection calls, till patched below

    def counting(message: Mapping[str, Any], *args: Any, **kwargs: Any) -> bytes:
        encoded[str(message.get("t"))] += 1
        return real(message, *args, **kwargs)

    monkeypatch.setattr(protocol.connection, "encode_frame", counting)
    _, _, listener = await start(nursery, LIMITS)
    port = port_of(listener)
    members: list[RawClient] = []
    for number in range(MEMBERS):  # two addresses: each within its share
        member = RawClient(await connect_from(f"127.0.0.{2 + number % 2}", port))
        assert await member.hello() == "welcome"
        await member.stream.send_all(encode_frame({"t": "spectate", "id": 1, "table": 0}))
        await member.until("accepted")
        members.append(member)
    await trio.sleep(0.5)
    encoded.clear()
    await members[0].stream.send_all(encode_frame({"t": "chat", "text": "hello all"}))
    lines = [await member.until("chat_message") for member in members]
    assert all(line["text"] == "hello all" for line in lines)
    assert encoded["chat_message"] == 1
