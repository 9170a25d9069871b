"""Issue 13 points 5 and 6 end to end over loopback: a raw client sends the host a hostile
name (ESC[2J, BEL, NUL, U+202E) and hostile chat lines; the host refuses each (invalid_name,
bad_message, handshake_failed at hello) and relays none, so the real client at the table gets
no chat line and no name holding a control or format character."""

from __future__ import annotations

import unicodedata
from typing import Any

import trio
from client_net import start_host, start_link

from client.link import ChatReceived, LobbyChanged, Update
from client.network import LinkConfig
from protocol.frames import NEED_DATA, FrameDecoder, encode_frame
from protocol.limits import RECEIVE_CHUNK

HELLO: dict[str, Any] = {"t": "hello", "v": [1], "client": {"name": "raw", "version": "0"},
                         "features": []}


REFUSED_CATEGORIES = {"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"}  # SPEC.md [UNO-5-12]


def refused(text: str) -> bool:
    return any(unicodedata.category(c) in REFUSED_CATEGORIES for c in text)


class Raw:
    """A client that sends whatever frames it likes and reads the host's answers."""

    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        self.decoder = FrameDecoder()
        self.frames: list[dict[str, Any]] = []

    async def send(self, message: dict[str, Any]) -> None:
        await self.stream.send_all(encode_frame(message))

    async def until(self, wanted: Any, limit: float = 10) -> dict[str, Any]:
        with trio.fail_after(limit):
            while True:
                for frame in self.frames:
                    if wanted(frame):
                        self.frames.remove(frame)
                        return frame
                data = bytes(await self.stream.receive_some(RECEIVE_CHUNK))
                assert data, f"the host closed; frames: {self.frames}"
                self.decoder.receive_data(data)
                while (decoded := self.decoder.next_frame()) is not NEED_DATA:
                    assert isinstance(decoded, dict)
                    self.frames.append(decoded)


def answer_to(request: int) -> Any:
    return lambda f: f.get("t") in ("accepted", "error") and \
        (f.get("id") == request or f.get("ref") == request)


async def test_hostile_names_and_chat_are_refused_and_never_reach_another_client(
        nursery: trio.Nursery) -> None:
    host = await start_host(nursery, bots=1, players=3)
    watcher = await start_link(nursery, LinkConfig("127.0.0.1", host.port, name="Ada",
                                                   tls=False, table=0))
    await watcher.until(lambda u: isinstance(u, LobbyChanged) and u.lobby.you is not None)

    # at hello: the handshake fails, nothing is seated
    bad_hello = Raw(await trio.open_tcp_stream("127.0.0.1", host.port))
    await bad_hello.send({**HELLO, "name": "\x1b[2Jwiped"})
    error = await bad_hello.until(lambda f: f.get("t") == "error")
    assert (error["code"], error["fatal"]) == ("handshake_failed", True)
    assert not refused(error["msg"]) and "U+001B" in error["msg"]

    raw = Raw(await trio.open_tcp_stream("127.0.0.1", host.port))
    await raw.send({**HELLO, "name": "mallory"})
    await raw.until(lambda f: f.get("t") == "welcome")
    for request, name in enumerate(["bell\x07", "nul\x00", "\u202egnp.exe", "zero\u200bwidth"],
                                   start=1):
        await raw.send({"t": "join_table", "id": request, "table": 0, "name": name})
        answer = await raw.until(answer_to(request))
        assert (answer["t"], answer.get("code"), answer["fatal"]) == \
            ("error", "invalid_name", False), name
    await raw.send({"t": "join_table", "id": 10, "table": 0, "name": "mallory"})
    assert (await raw.until(answer_to(10)))["t"] == "accepted"
    for text in ["\x1b]0;pwned\x07", "line\nhost: Friends join with --fingerprint 00",
                 "rtl \u202eevil"]:
        await raw.send({"t": "chat", "text": text})
        answer = await raw.until(lambda f: f.get("t") == "error")
        assert (answer["code"], answer["fatal"]) == ("bad_message", False), text
    await raw.send({"t": "chat", "text": "only this one"})
    await raw.until(lambda f: f.get("t") == "chat_message")

    def heard(update: Update) -> bool:
        return isinstance(update, ChatReceived) and update.text == "only this one"
    seen: list[Update] = []

    def note(update: Update) -> bool:
        seen.append(update)
        return heard(update)
    await watcher.until(note)
    chats = [u for u in seen if isinstance(u, ChatReceived)]
    assert [c.name for c in chats if c.text == "only this one"] == ["mallory"]
    assert not any(refused(c.text) or refused(c.name) for c in chats)
    names = [s.name for u in seen if isinstance(u, LobbyChanged) for s in u.lobby.seats]
    assert "mallory" in names and not any(n and refused(n) for n in names)
