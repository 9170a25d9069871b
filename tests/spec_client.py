"""A unonet client written from SPEC.md alone, to show the spec is enough to follow UNO Flip.

Nothing here imports the project: framing (SPEC 4), the encoding profile (SPEC 5), the
handshake (SPEC 6), spectating (SPEC 8.2 `spectate`, 7.1 "Entering a match in progress"),
`seq` and `resync` (SPEC 8.3, [UNO-8-21]), `round_history` merging ([UNO-8-31]) and a model of
a Flip round kept from the public events of SPEC 9.2 alone. The model is compared with every
snapshot the client receives, so a test can ask for snapshots (`resync`) and see whether the
events were enough to know what the host knows.
"""

from __future__ import annotations

import struct
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import msgpack
import trio

MAX_FRAME = 65_536  # SPEC 4 [UNO-4-2]
MAX_CLIENT_FRAME = 4_096  # SPEC 4 [UNO-4-3]
MAX_ARRAY = 256
MAX_DEPTH = 8
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
# SPEC 8: the wide fields of each host message type (arrays up to 1 024 below them).
WIDE_FIELDS: dict[str, frozenset[str]] = {
    "manifest": frozenset({"cards"}),
    "snapshot": frozenset({"legal", "view"}),
    "event": frozenset({"event", "legal"}),
    "deck_commits": frozenset({"commits"}),
    "round_history": frozenset({"events"}),
}

Msg = dict[str, Any]
Face = dict[str, Any]


class ProtocolError(Exception):
    """A framing or encoding error (SPEC 4-5): fatal for the connection."""

    def __init__(self, code: str, msg: str) -> None:
        super().__init__(f"{code}: {msg}")
        self.code = code


class Contradiction(AssertionError):
    """The events told the model something impossible, or a snapshot disagreed with it."""


# ---------------------------------------------------------------- framing and encoding


def encode_frame(message: Msg) -> bytes:
    """One frame: u32 big-endian length, then one msgpack map (SPEC 4)."""
    payload: bytes = msgpack.packb(message, use_bin_type=True)
    if not 1 <= len(payload) <= MAX_CLIENT_FRAME:
        raise ProtocolError("frame_too_large", f"client frame of {len(payload)} bytes")
    return struct.pack(">I", len(payload)) + payload


def _no_duplicates(pairs: list[tuple[Any, Any]]) -> dict[Any, Any]:
    out: dict[Any, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ProtocolError("duplicate_key", f"key {key!r} twice")
        out[key] = value
    return out


def _walk(value: Any, depth: int, wide: bool) -> None:
    """Check SPEC 5's profile on a decoded value: str keys, no float, int64, depth, lengths."""
    if isinstance(value, dict):
        if depth > MAX_DEPTH:
            raise ProtocolError("bad_frame", "too deep")
        for key, item in value.items():
            if not isinstance(key, str):
                raise ProtocolError("bad_frame", "a map key that is not a str")
            _walk(item, depth + 1, wide)
    elif isinstance(value, list):
        if depth > MAX_DEPTH:
            raise ProtocolError("bad_frame", "too deep")
        if len(value) > MAX_ARRAY and not wide:
            raise ProtocolError("bad_frame", "array over max_array outside a wide field")
        for item in value:
            _walk(item, depth + 1, wide)
    elif isinstance(value, bool) or value is None or isinstance(value, str | bytes):
        return
    elif isinstance(value, int):
        if not INT64_MIN <= value <= INT64_MAX:
            raise ProtocolError("bad_frame", "integer outside int64")
    else:
        raise ProtocolError("bad_frame", f"a {type(value).__name__} is outside the profile")


def decode_payload(payload: bytes) -> Msg:
    """Decode one frame's payload under SPEC 5 (the decoder SPEC 5 itself sketches)."""
    if not payload:
        raise ProtocolError("bad_frame", "zero-length frame")
    try:
        value = msgpack.unpackb(
            payload, raw=False, strict_map_key=True, use_list=True, max_str_len=4096,
            max_bin_len=4096, max_array_len=1024, max_map_len=64, max_ext_len=0,
            object_pairs_hook=_no_duplicates,
        )
    except ProtocolError:
        raise
    except Exception as exc:  # msgpack's errors: truncated, trailing bytes, ext, bad UTF-8
        raise ProtocolError("bad_frame", f"{type(exc).__name__}: {exc}") from None
    if not isinstance(value, dict):
        raise ProtocolError("bad_frame", "top-level value is not a map")
    kind = value.get("t")
    wide_keys = WIDE_FIELDS.get(kind, frozenset()) if isinstance(kind, str) else frozenset()
    for key, item in value.items():
        if not isinstance(key, str):
            raise ProtocolError("bad_frame", "a map key that is not a str")
        _walk(item, 2, key in wide_keys)
    return value


class Connection:
    """A framed connection over a trio stream; reads one whole frame at a time."""

    def __init__(self, stream: trio.abc.Stream) -> None:
        self._stream = stream
        self._buffer = bytearray()

    async def _fill(self, size: int) -> bool:
        while len(self._buffer) < size:
            chunk = await self._stream.receive_some(65_536)
            if not chunk:
                return False
            self._buffer += chunk
        return True

    async def receive(self) -> Msg | None:
        """The next message, or None at a clean EOF between frames ([UNO-4-6])."""
        if not await self._fill(4):
            if self._buffer:
                raise ProtocolError("bad_frame", "connection ended inside a length prefix")
            return None
        (length,) = struct.unpack(">I", self._buffer[:4])
        if length > MAX_FRAME:  # checked before reading the payload ([UNO-4-2])
            raise ProtocolError("frame_too_large", f"{length} bytes announced")
        if not await self._fill(4 + length):
            raise ProtocolError("bad_frame", "connection ended inside a frame")
        payload = bytes(self._buffer[4 : 4 + length])
        del self._buffer[: 4 + length]
        return decode_payload(payload)

    async def send(self, message: Msg) -> None:
        await self._stream.send_all(encode_frame(message))

    async def aclose(self) -> None:
        await self._stream.aclose()


# ---------------------------------------------------------------- faces and the Flip deck

LIGHT_COLORS = ("red", "yellow", "green", "blue")
DARK_COLORS = ("orange", "purple", "pink", "cyan")
LIGHT_ACTIONS = (("draw_one", 10), ("reverse", 20), ("skip", 20), ("flip", 20))
DARK_ACTIONS = (("draw_five", 20), ("reverse", 20), ("skip_everyone", 30), ("flip", 20))


def norm(face: Face | None) -> Face | None:
    """A face without its nil keys: SPEC 5 [UNO-5-11] makes nil and absent the same."""
    if face is None:
        return None
    return {k: v for k, v in face.items() if v is not None}


def norm_face(face: Face) -> Face:
    """`norm` of a face that is there."""
    return {k: v for k, v in face.items() if v is not None}


def face_key(face: Face) -> tuple[str, str, int]:
    """An order for comparing rows as multisets (SPEC 9.1 names no exact sort order)."""
    return (str(face.get("kind")), str(face.get("color") or ""), int(face.get("number") or -1))


def _side(colors: tuple[str, ...], actions: tuple[tuple[str, int], ...],
          wild_draw: tuple[str, int]) -> list[Face]:
    faces: list[Face] = []
    for color in colors:
        for number in range(1, 10):
            faces += [{"kind": "number", "color": color, "number": number, "points": number}] * 2
        for kind, points in actions:
            faces += [{"kind": kind, "color": color, "points": points}] * 2
    faces += [{"kind": "wild", "points": 40}] * 4
    faces += [{"kind": wild_draw[0], "points": wild_draw[1]}] * 4
    return [dict(f) for f in faces]


LIGHT_SIDE = _side(LIGHT_COLORS, LIGHT_ACTIONS, ("wild_draw_two", 50))  # SPEC 10, 11.12
DARK_SIDE = _side(DARK_COLORS, DARK_ACTIONS, ("wild_draw_color", 60))
DARK_COUNTS = Counter(tuple(sorted(f.items())) for f in DARK_SIDE)


# ---------------------------------------------------------------- the Flip model


@dataclass
class FlipModel:
    """What a spectator knows of a Flip round, kept from public events alone (SPEC 9.2)."""

    light: list[Face]  # manifest cards[i][0]
    seats: int
    side: int = 0
    top_card: int | None = None
    active_color: str | None = None
    cards: list[int] = field(default_factory=list)
    draw_pile: int = 0
    discard_pile: int = 0
    other_sides: list[list[Face]] = field(default_factory=list)
    pile_other_side: Face | None = None
    dark: dict[int, Face] = field(default_factory=dict)
    flips: int = 0
    dealt: bool = False
    # seat -> the face its next other_sides_shown must hold (the pile's face it just drew)
    expect_in_row: dict[int, Face] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.cards = [0] * self.seats
        self.other_sides = [[] for _ in range(self.seats)]

    # -- faces
    def face(self, card: int, side: int | None = None) -> Face:
        """The card's face on `side` (default: in play): light from the manifest, dark told."""
        side = self.side if side is None else side
        if side == 0:
            return self.light[card]
        if card not in self.dark:
            raise Contradiction(f"card {card} shown on the dark side before its dark face was told")
        return self.dark[card]

    def top_face(self) -> Face | None:
        return None if self.top_card is None else self.face(self.top_card)

    # -- events
    def apply(self, ev: Msg) -> None:
        handler = getattr(self, "_on_" + str(ev.get("type")), None)
        if handler is not None:  # unknown events are skipped ([UNO-9-2])
            handler(ev)

    def _on_round_started(self, ev: Msg) -> None:
        self.side, self.top_card, self.active_color = 0, None, None
        self.cards = [0] * self.seats
        self.other_sides = [[] for _ in range(self.seats)]
        self.pile_other_side = None  # GUESS: SPEC only says round_started empties the rows
        self.dark = {}
        self.draw_pile, self.discard_pile = int(ev["deck_size"]), 0
        self.expect_in_row = {}
        self.dealt = True

    def _on_cards_drawn(self, ev: Msg) -> None:
        seat, n = int(ev["seat"]), len(ev["positions"])
        self.cards[seat] += n
        self.draw_pile -= n
        if n == 1 and self.pile_other_side is not None and ev["reason"] != "deal":
            self.expect_in_row[seat] = self.pile_other_side
        self._check_counts()

    def _on_top_card_turned(self, ev: Msg) -> None:
        self.top_card = int(ev["card"])
        self.draw_pile -= 1
        self.discard_pile += 1
        self.active_color = self.face(self.top_card).get("color")
        self._check_counts()

    def _on_card_played(self, ev: Msg) -> None:
        seat, card = int(ev["seat"]), int(ev["card"])
        self.cards[seat] -= 1
        self.discard_pile += 1
        self.top_card = card
        face = self.face(card)
        color = ev.get("color")
        wild = "color" not in norm_face(face)
        if wild and color is None:
            raise Contradiction(f"wild {face} played with no colour")
        if not wild and color is not None:
            raise Contradiction(f"coloured {face} played with colour {color}")
        self.active_color = color if wild else face["color"]
        self.expect_in_row.pop(seat, None)
        self._check_counts()

    def _on_color_chosen(self, ev: Msg) -> None:
        self.active_color = str(ev["color"])

    def _on_cards_returned(self, ev: Msg) -> None:
        n = len(ev["positions"])
        self.cards[int(ev["seat"])] -= n
        self.draw_pile += n
        self._check_counts()

    def _on_hands_moved(self, ev: Msg) -> None:
        new = list(self.cards)
        for giver, taker, positions in ev["moves"]:
            new[int(giver)] -= len(positions)
            new[int(taker)] += len(positions)
        self.cards = new
        self.expect_in_row = {}
        self._check_counts()

    def _on_reshuffled(self, ev: Msg) -> None:
        n = len(ev["sources"])
        if ev["reason"] == "empty_pile":
            if self.draw_pile != 0:
                raise Contradiction(f"reshuffle with {self.draw_pile} cards still in the pile")
            self.draw_pile, self.discard_pile = n, self.discard_pile - n
        else:  # first_card_wild_draw_two: the untaken pile plus the turned card
            self.draw_pile, self.discard_pile = n, self.discard_pile - 1
            self.top_card, self.active_color = None, None
        self.expect_in_row = {}
        self._check_counts()

    def _on_flipped(self, ev: Msg) -> None:
        side, top = int(ev["side"]), int(ev["top"])
        if side != 1 - self.side:
            raise Contradiction(f"flipped to side {side} while side {self.side} was in play")
        self.side, self.top_card, self.flips = side, top, self.flips + 1
        self.active_color = self.face(top).get("color")  # a wild waits for color_chosen
        self.expect_in_row = {}

    def _on_other_sides_shown(self, ev: Msg) -> None:
        seat = int(ev["seat"])
        positions, faces = ev["positions"], [norm_face(f) for f in ev["faces"]]
        if len(positions) != len(faces):
            raise Contradiction("other_sides_shown: positions and faces of unequal length")
        if [tuple(p) for p in positions] != sorted(tuple(p) for p in positions):
            raise Contradiction("other_sides_shown: positions not ascending")
        if len(faces) != self.cards[seat]:
            raise Contradiction(f"seat {seat}: {len(faces)} other sides for {self.cards[seat]} "
                                "cards")
        self._check_side_faces(faces, 1 - self.side, f"seat {seat}'s row")
        expected = self.expect_in_row.pop(seat, None)
        if expected is not None and norm(expected) not in faces:
            raise Contradiction(f"seat {seat} drew the pile's top ({expected}) but its row "
                                f"{faces} lacks it")
        self.other_sides[seat] = faces

    def _on_pile_other_side_shown(self, ev: Msg) -> None:
        if (ev.get("position") is None) != (ev.get("face") is None):
            raise Contradiction("pile_other_side_shown: one of position and face is nil")
        face = norm(ev.get("face"))
        if face is not None:
            self._check_side_faces([face], 1 - self.side, "the pile's other side")
        if face is None and self.draw_pile != 0:
            raise Contradiction(f"pile shown empty with {self.draw_pile} cards in it")
        self.pile_other_side = face

    def _on_dark_faces_shown(self, ev: Msg) -> None:
        if ev.get("seat") is not None:
            raise Contradiction("a spectator received a private dark_faces_shown ([UNO-9-3])")
        cards, faces = ev["cards"], [norm_face(f) for f in ev["faces"]]
        if len(cards) != len(faces) or cards != sorted(cards):
            raise Contradiction("dark_faces_shown: malformed")
        self._check_side_faces(faces, 1, "a dark face told")
        for card, face in zip(cards, faces, strict=True):
            if card in self.dark and self.dark[card] != face:
                raise Contradiction(f"card {card} told two dark faces")
            self.dark[int(card)] = face
        told = Counter(tuple(sorted(f.items())) for f in self.dark.values())
        for item, n in told.items():
            if n > DARK_COUNTS[item]:
                raise Contradiction(f"dark face {dict(item)} told for {n} cards")

    def _on_round_ended(self, ev: Msg) -> None:
        hands = ev["hands"]
        for seat, hand in enumerate(hands):
            if len(hand) != self.cards[seat]:
                raise Contradiction(f"round_ended: seat {seat} holds {len(hand)}, model "
                                    f"{self.cards[seat]}")
            if self.side == 1:  # the rows are light faces: the manifest checks them
                shown = sorted((norm_face(self.light[c]) for c in hand), key=face_key)
                if shown != sorted(self.other_sides[seat], key=face_key):
                    raise Contradiction(f"seat {seat}: its light row is not its hand's")
                for card in hand:
                    self.face(card)  # told before round_ended on the dark side

    def _check_side_faces(self, faces: list[Face], side: int, what: str) -> None:
        colors = LIGHT_COLORS if side == 0 else DARK_COLORS
        kinds = {f["kind"] for f in (LIGHT_SIDE if side == 0 else DARK_SIDE)}
        for face in faces:
            if face.get("kind") not in kinds or face.get("color", colors[0]) not in colors:
                raise Contradiction(f"{what}: {face} is not a face of side {side}")

    def _check_counts(self) -> None:
        total = sum(self.cards) + self.draw_pile + self.discard_pile
        if min(self.cards) < 0 or self.draw_pile < 0 or self.discard_pile < 0:
            raise Contradiction(f"negative count: {self.cards}, {self.draw_pile}, "
                                f"{self.discard_pile}")
        if self.dealt and total != len(self.light):
            raise Contradiction(f"{total} cards accounted for, deck of {len(self.light)}")

    # -- snapshots
    def load(self, view: Msg) -> None:
        """Take a snapshot's view as the model, for a connection that entered mid-round."""
        self.side = int(view.get("side") or 0)
        self.top_card = view.get("top_card")
        self.active_color = view.get("active_color")
        self.cards = [int(s["cards"]) for s in view["seats"]]
        self.draw_pile, self.discard_pile = int(view["draw_pile"]), int(view["discard_pile"])
        self.other_sides = [[norm_face(f) for f in s.get("other_sides") or []]
                            for s in view["seats"]]
        self.pile_other_side = norm(view.get("pile_other_side"))
        self.dark = {int(c): norm_face(f) for c, f in view.get("dark_faces") or []}
        self.dealt = int(view["round_no"]) > 0

    def differences(self, view: Msg) -> list[str]:
        """Every modelled field on which a snapshot's view disagrees with the model."""
        theirs: dict[str, Any] = {
            "side": int(view.get("side") or 0),
            "top_card": view.get("top_card"),
            "top_face": None,
            "active_color": view.get("active_color"),
            "cards": [int(s["cards"]) for s in view["seats"]],
            "draw_pile": view["draw_pile"],
            "discard_pile": view["discard_pile"],
            "other_sides": [sorted((norm(f) for f in s.get("other_sides") or []), key=face_key)
                            for s in view["seats"]],
            "pile_other_side": norm(view.get("pile_other_side")),
            "dark_faces": {int(c): norm(f) for c, f in view.get("dark_faces") or []},
        }
        top = theirs["top_card"]
        if top is not None:
            side = theirs["side"]
            theirs["top_face"] = (self.light[top] if side == 0
                                  else theirs["dark_faces"].get(top, "untold"))
        mine: dict[str, Any] = {
            "side": self.side,
            "top_card": self.top_card,
            "top_face": self.top_face(),
            "active_color": self.active_color,
            "cards": self.cards,
            "draw_pile": self.draw_pile,
            "discard_pile": self.discard_pile,
            "other_sides": [sorted(r, key=face_key) for r in self.other_sides],
            "pile_other_side": self.pile_other_side,
            "dark_faces": self.dark,
        }
        return [f"{k}: model {mine[k]!r} != snapshot {theirs[k]!r}"
                for k in mine if mine[k] != theirs[k]]


def check_flip_manifest(manifest: Msg) -> list[Face]:
    """The manifest must be exactly the public Flip deck, light faces only ([UNO-11-55])."""
    cards = manifest["cards"]
    faces = [norm_face(c[0]) for c in cards if len(c) == 1]
    if len(faces) != len(cards) or faces != LIGHT_SIDE:
        raise Contradiction("the manifest is not the public UNO Flip deck of SPEC 10")
    return LIGHT_SIDE


# ---------------------------------------------------------------- the client


@dataclass
class Checkpoint:
    """One snapshot compared with the model."""

    seq: int
    phase: str
    round_no: int
    side: int
    differences: list[str]


class SpecClient:
    """Spectate a table and follow its match, checking the model against each snapshot."""

    def __init__(self, conn: Connection, name: str = "speccy") -> None:
        self.conn = conn
        self.name = name
        self._next_id = 1
        self.seq: int | None = None  # the last seq applied; None before the first snapshot
        self.waiting_resync: int | None = None
        self.model: FlipModel | None = None
        self.manifest: Msg | None = None
        self.round_events: list[Msg] = []
        self.checkpoints: list[Checkpoint] = []
        self.rounds_followed = 0  # rounds seen live from round_started to round_ended
        self.flips_seen = 0  # live flipped events, over every round and match
        self.live_round = False
        self.events_applied = 0
        self.table_state: Msg | None = None
        self.log: list[str] = []

    def _id(self) -> int:
        self._next_id += 1
        return self._next_id - 1

    async def request(self, message: Msg) -> int:
        rid = self._id()
        await self.conn.send({**message, "id": rid})
        return rid

    async def handshake(self) -> Msg:
        await self.conn.send({"t": "hello", "v": [1], "client": {"name": "spec-client",
                              "version": "0.1"}, "features": [], "name": self.name})
        welcome = await self.conn.receive()
        if welcome is None or welcome.get("t") != "welcome" or welcome.get("v") != 1:
            raise ProtocolError("handshake_failed", f"expected welcome, got {welcome!r}")
        return welcome

    async def find_table(self) -> int:
        """The first table listed (SPEC 8.2 `list_tables`, answered accepted then tables)."""
        await self.request({"t": "list_tables"})
        while True:
            msg = await self._receive()
            if msg.get("t") == "tables":
                if not msg["tables"]:
                    raise ProtocolError("bad_message", "no table open")
                return int(msg["tables"][0]["table"])
            if msg.get("t") == "error":
                raise ProtocolError(str(msg["code"]), str(msg.get("msg")))

    async def _receive(self) -> Msg:
        msg = await self.conn.receive()
        if msg is None:
            raise ProtocolError("closed", "the host closed the connection")
        if msg.get("t") == "ping":
            await self.conn.send({"t": "pong", "n": msg["n"]})
        return msg

    async def spectate(self, table: int) -> None:
        await self.request({"t": "spectate", "table": table})

    async def resync(self) -> None:
        """Ask for a snapshot now (SPEC 8.3 `resync`); the model is compared with it."""
        if self.waiting_resync is None:
            self.waiting_resync = await self.request({"t": "resync"})

    async def follow(self, done: Callable[[SpecClient], bool],
                     want_snapshot: Callable[[SpecClient, Msg], bool]) -> None:
        """Dispatch messages until `done`; after each event `want_snapshot` may ask a resync."""
        while not done(self):
            msg = await self._receive()
            kind = msg.get("t")
            if kind == "error":
                if msg.get("fatal"):
                    raise ProtocolError(str(msg["code"]), str(msg.get("msg")))
                self.log.append(f"refused: {msg}")
                if msg.get("ref") == self.waiting_resync:
                    self.waiting_resync = None
            elif kind == "accepted":
                if msg["id"] == self.waiting_resync:
                    self.waiting_resync = None
            elif kind == "table_state":
                self.table_state = msg
            elif kind == "manifest":
                self._on_manifest(msg)
            elif kind == "round_prepare":
                self.round_events = []
            elif kind == "round_history":
                self._on_history(msg)
            elif kind == "snapshot":
                self._on_snapshot(msg)
            elif kind == "event":
                self._on_event(msg)
                if self.waiting_resync is None and want_snapshot(self, msg["event"]):
                    await self.resync()

    def _on_manifest(self, msg: Msg) -> None:
        if msg["rules"].get("variant") != "flip":
            raise Contradiction(f"not a Flip match: {msg['rules'].get('variant')}")
        if self.manifest is not None and msg["game_id"] == self.manifest["game_id"]:
            return
        self.manifest = msg
        self.model = FlipModel(check_flip_manifest(msg), int(msg["seats"]))

    def _on_history(self, msg: Msg) -> None:
        """Merge a chunk: an index we hold must match; a new one continues the round."""
        first = int(msg["first"])
        for offset, ev in enumerate(msg["events"]):
            index = first + offset
            if index < len(self.round_events):
                if self.round_events[index] != ev:
                    raise Contradiction(f"round_history event {index} differs from the one "
                                        f"received: {ev} != {self.round_events[index]}")
            elif index == len(self.round_events):
                self.round_events.append(ev)
                if self.seq is not None and self.model is not None:
                    self.model.apply(ev)  # one we dropped while waiting (none expected)
            else:
                raise Contradiction(f"round_history skips to index {index}")

    def _on_snapshot(self, msg: Msg) -> None:
        if self.model is None:
            raise Contradiction("a snapshot before any manifest")
        view = msg["view"]
        if view.get("seat") is not None or view.get("hand"):
            raise Contradiction("a spectator's view with a seat or a hand")
        if self.seq is None:
            self._enter(view)
        self.seq = int(msg["seq"])
        diffs = self.model.differences(view) if self.model.dealt else []
        self.checkpoints.append(Checkpoint(self.seq, str(view["phase"]), int(view["round_no"]),
                                           int(view.get("side") or 0), diffs))

    def _enter(self, view: Msg) -> None:
        """First snapshot: replay the round's history if it starts the round, else load."""
        assert self.model is not None
        if self.round_events and self.round_events[0].get("type") in ("round_started",
                                                                      "dealer_draw"):
            for ev in self.round_events:
                self.model.apply(ev)
        else:
            self.model.load(view)

    def _on_event(self, msg: Msg) -> None:
        if self.seq is None or self.model is None or int(msg["seq"]) != self.seq + 1:
            raise Contradiction(f"event seq {msg['seq']} after {self.seq}")
        self.seq = int(msg["seq"])
        ev = msg["event"]
        if ev.get("type") == "round_started":
            self.live_round = True
        self.round_events.append(ev)
        self.model.apply(ev)
        self.events_applied += 1
        if ev.get("type") == "flipped":
            self.flips_seen += 1
        if ev.get("type") == "round_ended" and self.live_round:
            self.rounds_followed += 1
            self.live_round = False


async def connect(host: str, port: int, name: str = "speccy") -> SpecClient:
    """Open a plaintext connection (the host runs with --no-tls, SPEC 3 [UNO-3-6])."""
    stream = await trio.open_tcp_stream(host, port)
    client = SpecClient(Connection(stream), name)
    await client.handshake()
    return client
