"""The host's sans-IO layer driven by scripted clients, as text: tests/test_compiled_host.py runs
this once with the mypyc-compiled modules and once with their pure-Python source, and compares
the two transcripts line for line.

`python tests/compiled_host_child.py ROOT` plays with the unonet, protocol and host packages
found in ROOT. Everything random is seeded: the OS entropy the host draws (`secrets`) comes from
a seeded generator in this process only, and the signing key is fixed; ECDSA signatures are
randomised, so each one is checked against the host's key and written as `<sig ok>`.

Two parts, both through the same layers the host runs for a client (HostConnection for the
bytes, Registry and its tables for the rest, frames made as host/connection.py makes them):

- matches: players on one connection each create a table, fill it with host bots, seed the
  rounds (seed_commit, seed_reveal), play legal actions chosen by a seeded generator with
  some illegal ones, chat and resync among them, one drops out and resumes with its token,
  until the match ends. Presets: the official rules, house rules, UNO Flip and No Mercy.
- hostile input: every message a client may send, each field replaced by values of every
  wrong type (and dropped, and joined by an unknown field), sent by a seated player in a
  match, then raw byte garbage; every answer (or fatal error) is written down. A Python
  exception escaping the host's layers, or a table that fails, is written as RAISED or shows
  as `table_failed`: the test refuses both.
"""

from __future__ import annotations

import logging
import random
import secrets
import struct
import sys
import traceback
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

SEED = 20261201
TARGET = 60  # points to win a match: a round or two, so the test stays quick
MAX_PUMPS = 20_000  # exchanges per match; one that does not end is a failure, not a hang
STEP = 0.05  # virtual seconds between a client's frames

# (preset, options, players, bots): one match each.
MATCHES: tuple[tuple[str, dict[str, Any], int, int], ...] = (
    ("official", {}, 2, 1),
    ("seed000", {}, 3, 0),
    ("flip", {}, 2, 1),
    ("no_mercy", {}, 2, 2),
)

BAD_VALUES: tuple[Any, ...] = (
    None, True, -1, 2**40, 1.5, "", "x" * 600, b"\x00\xff", [], [1, "a"], {}, {"k": [None]},
)
"""What each field of a hostile message is replaced by: every msgpack type, edge sizes."""


def seed_entropy(seed: int) -> None:
    """`secrets.token_bytes` (seats' tokens, match seeds, the host's round seeds and game ids)
    from a seeded generator, in this process: the two children then draw the same bytes."""
    rng = random.Random(seed)

    def token_bytes(nbytes: int | None = None) -> bytes:
        return rng.randbytes(32 if nbytes is None else nbytes)

    secrets.token_bytes = token_bytes


class ErrorLog(logging.Handler):
    """Error records from the host's loggers (a table that raised logs one): into the text."""

    def __init__(self, out: list[str]) -> None:
        super().__init__(logging.ERROR)
        self.out = out

    def emit(self, record: logging.LogRecord) -> None:
        line = f"LOG {record.levelname} {record.name}: {record.getMessage()}"
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            where = traceback.extract_tb(error.__traceback__)[-1:]
            line += f" ({type(error).__name__}: {error} at {traceback.format_list(where)})"
        self.out.append(line)


def split_frames(data: bytes) -> list[bytes]:
    frames = []
    while data:
        (size,) = struct.unpack(">I", data[:4])
        frames.append(data[4 : 4 + size])
        data = data[4 + size :]
    return frames


class Harness:
    """One Registry with the connections of scripted clients, on a virtual clock."""

    def __init__(self, out: list[str]) -> None:
        from cryptography.hazmat.primitives.asymmetric import ec

        from host.registry import Registry
        from host.settings import FAST_TIMINGS
        from protocol.trust.signing import Signer

        self.out = out
        self.signer = Signer(ec.derive_private_key(SEED, ec.SECP256R1()))
        self.registry = Registry(FAST_TIMINGS, self.signer)
        self.registry.alive = lambda conn: conn in self.clients
        self.now = 1000.0
        self.next_conn = 1
        self.clients: dict[int, Client] = {}

    # -- the host's side of a connection (host/connection.py without trio) -------------------

    def connect(self, client: Client) -> None:
        from protocol.host_connection import HostConnection

        conn = self.next_conn
        self.next_conn += 1
        client.conn = conn
        client.host = HostConnection(self.now, rate=1000.0, burst=1000)
        self.clients[conn] = client
        self.receive(client, client.session.hello())

    def disconnect(self, client: Client) -> None:
        self.out.append(f"{client.name}: disconnects")
        del self.clients[client.conn]
        self.registry.disconnect(client.conn, self.now)

    def receive(self, client: Client, data: bytes) -> None:
        """Bytes from `client` into its HostConnection, and what they ask of the registry."""
        from host.registry import ResumeRefused
        from protocol.connection import ConnectionFailed, MessageRefused
        from protocol.host_connection import HelloReceived, IntentReceived, RequestReceived
        from protocol.host_connection import MessageReceived as HostMessage

        self.now += STEP
        host, registry, conn = client.host, self.registry, client.conn
        try:
            events = host.receive_data(data, self.now)
        except Exception as exc:  # the host's reader would die: the test refuses this line
            self.out.append(f"RAISED by receive_data: {type(exc).__name__}: {exc}")
            events = []
        for event in events:
            if isinstance(event, HelloReceived):
                if event.resume is None:
                    self.send(client, host.welcome())
                    continue
                found = registry.find_resume(event.resume, self.now)
                if isinstance(found, ResumeRefused):
                    self.send(client, host.refuse(found.code, found.msg))
                    continue
                table, seat = found
                self.send(client, host.welcome({"table": table.number, "seat": seat}))
                registry.resume(conn, table, seat, self.now)
            elif isinstance(event, IntentReceived):
                self.out.append(f"{client.name} -> intent {event.id} {event.action!r}")
                registry.intent(conn, event.id, event.action, self.now)
            elif isinstance(event, RequestReceived):
                registry.request(conn, client.name, event.message, self.now, "127.0.0.1")
            elif isinstance(event, HostMessage):
                if event.message.get("t") in ("chat", "seed_commit", "seed_reveal"):
                    registry.message(conn, event.message, self.now)
            elif isinstance(event, MessageRefused):
                self.out.append(f"{client.name}: refused {event.message_type}: "
                                f"{event.error.code} {event.error.message}")
            elif isinstance(event, ConnectionFailed):
                self.out.append(f"{client.name}: fatal {event.error.code} "
                                f"{event.error.message} (by peer {event.by_peer})")
        sent = host.data_to_send()
        if sent:
            self.send(client, sent)

    def deliver(self) -> bool:
        """What the tables asked to send, as frames to each client; whether there was any."""
        from host.outgoing import CloseConnection, SendEvent, SendMessage, SendSnapshot
        from protocol.errors import LocalProtocolError
        from protocol.host_connection import checked_event, packed_event, packed_legal
        from protocol.state import ConnState

        items = self.registry.take_outgoing()
        for item in items:
            client = self.clients.get(item.conn)
            if client is None or client.host.state is not ConnState.READY:
                continue
            host = client.host
            try:
                if isinstance(item, SendMessage):
                    frame = host.send(item.message)
                elif isinstance(item, SendSnapshot):
                    frame = host.snapshot(item.view, item.legal)
                elif isinstance(item, SendEvent):
                    shared = item.event_packed
                    if shared.data is None:
                        shared.data = (packed_event(item.event, item.proof)
                                       if shared.wire is None else checked_event(shared.wire))
                    legal = item.legal_packed
                    if legal.data is None:
                        legal.data = packed_legal(item.legal)
                    frame = host.event_packed(shared.data, legal.data)
                elif isinstance(item, CloseConnection):
                    frame = host.refuse(item.code, item.msg)
                else:
                    raise TypeError(f"cannot deliver {item!r}")
            except LocalProtocolError as exc:
                self.out.append(f"NOT SENT to {client.name}: {exc}: {item!r}")
                continue
            self.send(client, frame)
        return bool(items)

    def send(self, client: Client, data: bytes) -> None:
        """Frames from the host to `client`: written down, then handed to its session."""
        from protocol.frames import decode_payload
        from protocol.trust.signing import verify

        for payload in split_frames(data):
            message = decode_payload(payload)
            if "sig" in message:
                good = verify(self.signer.signer, message)
                message = {**message, "sig": "<sig ok>" if good else "<BAD SIG>"}
            self.out.append(f"{client.name} <- {message!r}")
        client.inbox.append(data)

    # -- the clock and the exchange ----------------------------------------------------------

    def pump(self, until: Callable[[], bool]) -> None:
        """Exchange frames and move the clock to the tables' deadlines until `until()`."""
        for _ in range(MAX_PUMPS):
            if until():
                return
            moved = self.deliver()
            for conn in sorted(self.clients):
                client = self.clients.get(conn)
                if client is not None and client.inbox:
                    for data in client.react(self):
                        if conn in self.clients:
                            self.receive(client, data)
                    moved = True
            if not moved:
                deadline = self.registry.next_deadline()
                if deadline is None:
                    if until():
                        return
                    self.out.append("STUCK: nothing to send and no deadline")
                    return
                self.now = max(self.now, deadline)
                self.registry.tick(self.now)
        self.out.append(f"NO END after {MAX_PUMPS} exchanges")


class Client:
    """A player on one connection: a ClientSession, seeding its rounds, choosing among the
    legal actions it is sent (seeded), now and then an illegal one, a chat or a resync."""

    def __init__(self, name: str, rng: random.Random, resume: bytes | None = None) -> None:
        from protocol.client_session import ClientSession
        from protocol.host_connection import HostConnection

        self.name = name
        self.rng = rng
        self.session = ClientSession(name=name, resume=resume)
        self.conn = 0
        self.host: HostConnection
        self.inbox: list[bytes] = []
        self.seat: int | None = None
        self.table: int | None = None
        self.token: bytes | None = None
        self.game_id = b""
        self.seeds: dict[int, bytes] = {}
        self.match_over = False
        self.welcomed = False
        self.accepted: list[int] = []
        self.playing = True

    def react(self, harness: Harness) -> list[bytes]:
        """The frames this client sends after reading its inbox."""
        from protocol import client_session as cs
        from protocol.trust.primitives import seed_commitment
        from unonet.events import MatchEnded

        out: list[bytes] = []
        legal: tuple[Any, ...] = ()
        data, self.inbox = b"".join(self.inbox), []
        try:
            events = self.session.receive_data(data)
        except Exception as exc:
            harness.out.append(f"{self.name}: client session raised {type(exc).__name__}")
            return out
        for event in events:
            if isinstance(event, cs.Welcomed):
                self.welcomed = True
            elif isinstance(event, cs.RequestAccepted):
                self.accepted.append(event.id)
            elif isinstance(event, (cs.GameEvent, cs.Snapshot)):
                legal = event.legal
                if isinstance(event, cs.GameEvent) and isinstance(event.event, MatchEnded):
                    self.match_over = True
            elif isinstance(event, cs.MessageReceived):
                message = event.message
                kind = message.get("t")
                if kind == "seated":
                    self.seat, self.table = message["seat"], message["table"]
                    self.token = bytes(message["token"])
                elif kind == "manifest":
                    self.game_id = bytes(message["game_id"])
                elif kind == "round_prepare" and self.seat is not None and self.playing:
                    round_no = message["round"]
                    if round_no not in self.seeds:
                        seed = self.seeds[round_no] = self.rng.randbytes(32)
                        commit = seed_commitment(self.game_id, round_no, self.seat, seed)
                        out.append(self.session.send(
                            {"t": "seed_commit", "round": round_no, "commit": commit}))
                elif kind == "seed_commits" and message["round"] in self.seeds:
                    out.append(self.session.send({"t": "seed_reveal", "round": message["round"],
                                                  "seed": self.seeds.pop(message["round"])}))
            elif isinstance(event, cs.ResyncNeeded):
                harness.out.append(f"{self.name}: resync needed")
        if legal and self.playing:
            out.append(self.session.intent(self.choose(legal))[1])
            roll = self.rng.random()
            if roll < 0.04:
                out.append(self.session.resync()[1])
            elif roll < 0.08:
                out.append(self.session.chat(f"{self.name} says {self.rng.randrange(100)}"))
            elif roll < 0.14:
                out.append(self.session.intent(self.choose(legal))[1])  # a stale one
        pending = self.session.data_to_send()
        if pending:
            out.append(pending)
        return out

    def choose(self, legal: tuple[Any, ...]) -> Any:
        from unonet.actions import Play

        plays = [action for action in legal if isinstance(action, Play)]
        if plays and self.rng.random() < 0.8:
            return self.rng.choice(plays)
        return self.rng.choice(legal)


def request(harness: Harness, client: Client, kind: str, **fields: Any) -> None:
    _, frame = client.session.request(kind, **fields)
    harness.out.append(f"{client.name} -> {kind} {fields}")
    harness.receive(client, frame)
    harness.pump(quiet(harness))


def quiet(harness: Harness) -> Callable[[], bool]:
    """Nothing left to send either way."""
    return lambda: not harness.registry.outbox and not any(
        c.inbox for c in harness.clients.values())


def play_match(out: list[str], case: int, preset: str, options: dict[str, Any], players: int,
               bots: int) -> None:
    out.append(f"== match {case}: {preset} {options}, {players} players, {bots} bots")
    harness = Harness(out)
    rng = random.Random(SEED + case)
    clients = [Client(f"p{case}{i}", random.Random(rng.random())) for i in range(players)]
    for client in clients:
        harness.connect(client)
    harness.pump(quiet(harness))
    owner = clients[0]
    request(harness, owner, "create_table", name=f"table {case}", preset=preset,
            options={"target": TARGET, **options})
    table = owner.table
    for client in clients[1:]:
        request(harness, client, "join_table", table=table, name=client.name)
    for _ in range(bots):
        request(harness, owner, "add_bot", level="normal")
    for client in clients:
        request(harness, client, "ready", ready=True)
    request(harness, owner, "start")
    # One player drops out after a few exchanges and comes back with its token.
    leaver = clients[-1]
    harness.pump(lambda: leaver.seeds == {} and len(leaver.accepted) > 12)
    harness.disconnect(leaver)
    harness.pump(quiet(harness))
    back = Client(leaver.name, leaver.rng, resume=leaver.token)
    back.seat, back.table, back.game_id = leaver.seat, leaver.table, leaver.game_id
    clients[-1] = back
    harness.connect(back)
    harness.pump(lambda: any(client.match_over for client in clients))
    harness.pump(quiet(harness))
    for client in clients:
        if client.conn in harness.clients:
            request(harness, client, "leave")
            harness.disconnect(client)
    out.append(f"tables left: {sorted(harness.registry.tables)}")


# -- hostile input ---------------------------------------------------------------------------


def mutations(message: dict[str, Any]) -> Iterable[tuple[str, dict[str, Any]]]:
    """`message` with each field (but `t`) replaced by each bad value, dropped, and with an
    unknown field added."""
    for key in message:
        if key == "t":
            continue
        for value in BAD_VALUES:
            yield f"{key}={value!r:.40}", {**message, key: value}
        yield f"no {key}", {k: v for k, v in message.items() if k != key}
    yield "extra field", {**message, "zz": 1}


RAW_GARBAGE: tuple[bytes, ...] = (
    b"\x00\x00\x00\x01\xc1",  # msgpack's never-used byte
    b"\x00\x00\x00\x02\x92\x01",  # a truncated array
    b"\x00\x00\x00\x01\x05",  # not a map
    b"\x00\x00\x00\x03\x81\x01\x02",  # an int key
    b"\x00\x00\x00\x05\x82\xa1t\xa1t",  # a truncated map
    b"\x00\x00\x00\x09\x82\xa1t\xa1x\xa1t\xa1y",  # a duplicate key (truncated)
    b"\x00\x00\x00\x06\xd4\x01\x00\x00\x00\x00",  # an ext type
    b"\x00\x00\x00\x09\xcb\x7f\xf8\x00\x00\x00\x00\x00\x00",  # NaN
    b"\x00\x00\x00\x00",  # an empty frame
    b"\x7f\xff\xff\xff",  # a frame larger than any limit
    b"\x00\x00\x00\x20" + b"\x91" * 32,  # nesting past the depth limit
)


def hostile(out: list[str]) -> None:
    from protocol.examples import EXAMPLES
    from protocol.messages import CATALOGUE, Role

    out.append("== hostile messages")
    harness = Harness(out)
    rng = random.Random(SEED)
    player = Client("h", rng)
    harness.connect(player)
    harness.pump(quiet(harness))
    request(harness, player, "create_table", name="hostile", preset="official",
            options={"target": 500})
    request(harness, player, "add_bot", level="normal")
    request(harness, player, "ready", ready=True)
    request(harness, player, "start")
    player.playing = False  # it only sends what follows; the bot waits on its turns
    table = player.table
    client_kinds = sorted(kind for kind, spec in CATALOGUE.items()
                          if kind in EXAMPLES and spec.direction.allows(Role.CLIENT))
    out.append(f"client messages: {client_kinds}")
    for kind in client_kinds:
        for label, message in mutations(dict(EXAMPLES[kind])):
            out.append(f"-- {kind} {label}")
            frame = raw_frame(message)
            if frame is None:
                out.append("(not encodable)")
                continue
            harness.receive(player, frame)
            harness.pump(quiet(harness))
            player = back_at_the_table(harness, player, table)
    for garbage in RAW_GARBAGE:
        out.append(f"-- raw {garbage[:12].hex()}")
        harness.receive(player, garbage)
        harness.pump(quiet(harness))
        player = back_at_the_table(harness, player, table)
    out.append(f"tables: {sorted(harness.registry.tables)}")


def raw_frame(message: dict[str, Any]) -> bytes | None:
    import msgpack

    try:
        payload: bytes = msgpack.packb(message, use_bin_type=True)
    except (TypeError, ValueError, OverflowError):
        return None
    return struct.pack(">I", len(payload)) + payload


def back_at_the_table(harness: Harness, player: Client, table: int | None) -> Client:
    """The hostile player after a message that ended its connection (it comes back with its
    token) or took it from its seat (it joins again): the next message is sent from the table."""
    from protocol.state import ConnState

    if player.host.state is ConnState.READY and player.conn in harness.registry.where:
        return player
    if player.conn in harness.clients:
        harness.disconnect(player)
    back = Client(player.name, player.rng, resume=player.token)
    back.playing = False
    harness.connect(back)
    harness.pump(quiet(harness))
    if back.host.state is not ConnState.READY:  # the token names no seat any more
        harness.disconnect(back)
        back = Client(player.name, player.rng)
        back.playing = False
        harness.connect(back)
        harness.pump(quiet(harness))
    if back.conn not in harness.registry.where:
        request(harness, back, "join_table", table=table, name=back.name)
    if back.token is None:
        back.seat, back.token = player.seat, player.token
    return back


def child_main(root: str) -> int:
    sys.path.insert(0, root)
    seed_entropy(SEED)
    out: list[str] = []
    logging.getLogger().addHandler(ErrorLog(out))
    import host
    from host.compiled import host_is_compiled
    from unonet.compiled import engine_is_compiled

    print(f"host from {Path(host.__file__ or '').parent}")
    print(f"compiled engine {engine_is_compiled()} host {host_is_compiled()}")
    for case, (preset, options, players, bots) in enumerate(MATCHES):
        play_match(out, case, preset, options, players, bots)
    hostile(out)
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(child_main(sys.argv[1]))
