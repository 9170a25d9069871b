"""The message catalogue of Protocol v1: every message type, who may send it, and its fields.

This table is the single source of truth that SPEC.md section 8 mirrors (a test compares the
two). A message is a map whose key `t` names its type. Validation checks the known fields
only: unknown keys are ignored, so a newer peer may add fields within a major version.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from protocol import game_codec
from protocol.errors import Code, ProtocolError
from protocol.limits import (
    MAX_ARRAY_LEN,
    MAX_CHAT_CHARS,
    MAX_CODE_CHARS,
    MAX_NAME_CHARS,
    MAX_SEATS,
    MAX_TABLES,
    MAX_TEXT_CHARS,
    MAX_VERSIONS_OFFERED,
    MAX_WIDE_ARRAY_LEN,
    RESUME_TOKEN_BYTES,
)
from protocol.schema import (
    AnyMap,
    Array,
    Bin,
    Bool,
    Custom,
    Field,
    Int,
    Nullable,
    Scalar,
    Str,
    Struct,
    Tuple,
    check_fields,
    opt,
)


class Role(StrEnum):
    CLIENT = "client"
    HOST = "host"


class Direction(StrEnum):
    CLIENT_TO_HOST = "client→host"
    HOST_TO_CLIENT = "host→client"
    BOTH = "both"

    def allows(self, sender: Role) -> bool:
        if self is Direction.BOTH:
            return True
        return (self is Direction.CLIENT_TO_HOST) == (sender is Role.CLIENT)


class Group(StrEnum):
    CONNECTION = "connection"
    LOBBY = "lobby"
    GAME = "game"
    TRUST = "trust"


@dataclass(frozen=True)
class MessageSpec:
    type: str
    direction: Direction
    group: Group
    fields: tuple[Field, ...]
    summary: str
    wide: frozenset[str] = frozenset()  # fields whose arrays may hold MAX_WIDE_ARRAY_LEN items


# -- field types used by several messages -------------------------------------------------------

SIGNATURE_BYTES = 64
"""An ECDSA P-256 signature as raw r || s, 32 bytes each (SPEC.md 11)."""
MAX_SIGNER_BYTES = 256
"""A DER SubjectPublicKeyInfo: 91 bytes for P-256; room for a larger key type later."""

VERSION = Int(1, 65_535)
SEAT = Int(0, MAX_SEATS - 1)
TABLE = Int(0)
ROUND = Int(0)
SEQ = Int(0)
PENALTY = Int(1, 10)
REQUEST_ID = Int(1)
NAME = Str(MAX_NAME_CHARS, min_chars=1, refusal=Code.INVALID_NAME)
"""A player's or table's name: plain text ([UNO-5-12]); a control or format character in it is
invalid_name, the code the host also answers for a name it refuses at the table (reserved,
empty once normalised: protocol/text.py)."""
SOFTWARE_NAME = Str(MAX_NAME_CHARS, min_chars=1)
CODE = Str(MAX_CODE_CHARS, min_chars=1)
CHAT_LINE = Str(MAX_CHAT_CHARS, min_chars=1)
TEXT = Str(MAX_TEXT_CHARS, plain=False)
"""Diagnostic text (error.msg, bye.msg): may quote what was refused, so it is not plain;
whoever shows it escapes it."""
BIN16 = Bin(16)
BIN32 = Bin(32)
FEATURES = Array(CODE)
SOFTWARE = Struct((Field("name", SOFTWARE_NAME), Field("version", CODE)))
RULE_OPTIONS = AnyMap(Scalar(), "map str → int \\| str \\| bool \\| nil")
SEAT_COMMITS = Array(Tuple((SEAT, BIN32)), MAX_SEATS)
SEATS = Array(SEAT, MAX_SEATS)
SIGNER = Bin(max_bytes=MAX_SIGNER_BYTES)
SIG = opt("sig", Bin(SIGNATURE_BYTES), "signature by the manifest's signer (§11); a missing or "
          "bad one is a trust violation, not a protocol error")
LIMITS = Struct(
    tuple(
        Field(name, Int(0))
        for name in (
            "max_frame", "max_str", "max_bin", "max_array", "max_wide_array", "max_map",
            "max_depth", "max_chat", "ping_interval", "idle_cutoff", "rate", "burst",
        )
    ),
    "limits (§13)",
)
SEAT_STATE = Struct(
    (
        Field("seat", SEAT),
        Field("kind", Str(choices=("empty", "human", "bot"))),
        Field("name", Nullable(NAME)),
        Field("ready", Bool()),
        Field("connected", Bool()),
        opt("taken_over", Bool(), "a join_table may take it now ([UNO-8-14])"),
    ),
    "seat state (§8.2)",
)
TABLE_SUMMARY = Struct(
    (
        Field("table", TABLE),
        Field("name", NAME),
        Field("seats", Int(0, MAX_SEATS)),
        Field("players", Int(0, MAX_SEATS)),
        Field("started", Bool()),
        opt("preset", CODE),
        opt("open", Int(0, MAX_SEATS)),
        opt("bots", Int(0, MAX_SEATS)),
    ),
    "table summary (§8.2)",
)
FACE = Struct(
    (
        Field("kind", CODE),
        opt("color", CODE),
        opt("number", Int(0, 99)),
        Field("points", Int(0)),
    ),
    "face (§10)",
)
ACTION = Custom("action (§9.3)", game_codec.decode_action)
EVENT = Custom("event (§9.2)", game_codec.decode_event)
LEGAL = Custom(f"[action] ≤{MAX_WIDE_ARRAY_LEN} items (§9.4)", game_codec.decode_legal)
VIEW = AnyMap(label="view (§9.1)")

_ID = opt("id", REQUEST_ID, "request id; the host answers accepted{id} or error{ref: id}")

C, H, B = Direction.CLIENT_TO_HOST, Direction.HOST_TO_CLIENT, Direction.BOTH
CONN, LOBBY, GAME, TRUST = Group.CONNECTION, Group.LOBBY, Group.GAME, Group.TRUST

_SPECS: tuple[MessageSpec, ...] = (
    # -- connection ---------------------------------------------------------------------------
    MessageSpec("hello", C, CONN, (
        Field("v", Array(VERSION, MAX_VERSIONS_OFFERED, 1), "protocol versions offered"),
        Field("client", SOFTWARE, "client software"),
        Field("features", FEATURES, "optional features the client supports"),
        opt("name", NAME, "the player's name"),
        opt("resume", Bin(RESUME_TOKEN_BYTES), "a seat's resume token (see `seated`)"),
    ), "first message of a connection"),
    MessageSpec("welcome", H, CONN, (
        Field("v", VERSION, "the version chosen"),
        Field("server", SOFTWARE, "host software"),
        Field("features", FEATURES, "features both sides support"),
        Field("limits", LIMITS, "the host's limits"),
        opt("session", Struct((Field("table", TABLE), Field("seat", SEAT))),
            "the seat taken back when hello.resume was accepted"),
    ), "the host accepts the hello"),
    MessageSpec("error", B, CONN, (
        Field("code", CODE, "stable error code (§12)"),
        Field("fatal", Bool(), "true: the sender closes the connection next"),
        Field("msg", TEXT, "diagnostic text; never parse it"),
        opt("ref", REQUEST_ID, "the id of the request refused"),
        opt("supported", Array(VERSION, MAX_VERSIONS_OFFERED), "with unsupported_version"),
        opt("why", CODE, "with shutting_down: how the host goes away (section 8, [UNO-8-4])"),
        opt("kept", Bool(), "with shutting_down: the receiver's match is kept to be carried on"),
    ), "an error report; answers a request when `ref` is set"),
    MessageSpec("ping", B, CONN, (Field("n", Int(0), "echoed by pong"),), "keepalive probe"),
    MessageSpec("pong", B, CONN, (Field("n", Int(0), "the ping's n"),), "keepalive answer"),
    MessageSpec("bye", B, CONN, (
        Field("reason", CODE, "why: quit, kicked, shutting_down, ..."),
        opt("msg", TEXT, "diagnostic text"),
    ), "the sender closes the connection; nothing follows"),
    # -- lobby ---------------------------------------------------------------------------------
    MessageSpec("list_tables", C, LOBBY, (_ID,), "ask for the table list"),
    MessageSpec("tables", H, LOBBY, (
        Field("tables", Array(TABLE_SUMMARY, MAX_TABLES), "every open table"),
    ), "the table list"),
    MessageSpec("create_table", C, LOBBY, (
        _ID,
        opt("name", NAME, "table name (the host picks one if absent)"),
        opt("preset", CODE, "rule preset (section 9.6)"),
        opt("options", RULE_OPTIONS, "rule options over the preset"),
    ), "open a table; the sender owns it and takes seat 0"),
    MessageSpec("join_table", C, LOBBY, (
        _ID,
        Field("table", TABLE, "which table"),
        Field("name", NAME, "the player's name at the table"),
        opt("seat", SEAT, "the seat wanted (any free seat if absent)"),
    ), "take a seat"),
    MessageSpec("spectate", C, LOBBY, (_ID, Field("table", TABLE, "which table")),
                "watch a table (public information only)"),
    MessageSpec("ready", C, LOBBY, (_ID, Field("ready", Bool(), "ready or not")),
                "mark the sender's seat ready"),
    MessageSpec("set_rules", C, LOBBY, (
        _ID,
        Field("options", RULE_OPTIONS, "rule options over the preset, or over the rules in force"),
        opt("preset", CODE, "rule preset to restart from"),
    ), "owner: change the rules"),
    MessageSpec("add_bot", C, LOBBY, (
        _ID, opt("seat", SEAT, "seat (any free if absent)"), opt("level", CODE, "bot policy"),
    ), "owner: seat a bot"),
    MessageSpec("remove_bot", C, LOBBY, (_ID, Field("seat", SEAT, "the bot's seat")),
                "owner: remove a bot"),
    MessageSpec("kick", C, LOBBY, (_ID, Field("seat", SEAT, "the seat to free")),
                "owner: remove a player"),
    MessageSpec("start", C, LOBBY, (_ID,), "owner: start the match"),
    MessageSpec("leave", C, LOBBY, (_ID,), "give up the seat or stop watching"),
    MessageSpec("table_state", H, LOBBY, (
        Field("table", TABLE, "table number"),
        Field("name", NAME, "table name"),
        Field("owner", Nullable(SEAT), "the owner's seat"),
        Field("rules", RULE_OPTIONS, "every rule option"),
        Field("seats", Array(SEAT_STATE, MAX_SEATS), "every seat"),
        Field("spectators", Int(0), "how many watch"),
        Field("started", Bool(), "a match is on"),
        opt("preset", CODE, "the preset the rules started from"),
        opt("you", SEAT, "the receiver's seat (absent: spectator)"),
    ), "the whole lobby state of a table, sent on every change"),
    MessageSpec("seat_news", H, LOBBY, (
        Field("table", TABLE, "table number"),
        Field("what", CODE, "what happened to the seat (section 8, [UNO-8-17])"),
        Field("seat", SEAT, "the seat concerned"),
        Field("name", NAME, "the player's name (now; `left`: the name it had)"),
        opt("was", NAME, "renamed: the name the player had"),
        opt("bot", Bool(), "left: a stand-in bot plays the seat now"),
    ), "what happened to a seat: a player came, went, came back, renamed..."),
    MessageSpec("seated", H, LOBBY, (
        Field("table", TABLE, "table number"),
        Field("seat", SEAT, "the seat taken"),
        Field("token", Bin(RESUME_TOKEN_BYTES), "secret resume token for hello.resume"),
    ), "private: the receiver now holds a seat"),
    MessageSpec("manifest", H, LOBBY, (
        Field("name", CODE, "deck name"),
        Field("cards", Array(Array(FACE, 2, 1), MAX_WIDE_ARRAY_LEN), "faces per card id"),
        Field("game_id", BIN16, "the match's id, the one every commitment binds"),
        Field("seats", Int(2, MAX_SEATS), "seats in the match"),
        Field("rules", RULE_OPTIONS, "the rules in force, as table_state.rules"),
        Field("signer", SIGNER, "DER SubjectPublicKeyInfo of the host's signing key"),
        SIG,
    ), "the match: its id, seats, rules, deck and signing key; sent at its start and, "
       "unchanged, to every connection that enters it", frozenset({"cards"})),
    # -- game ----------------------------------------------------------------------------------
    MessageSpec("snapshot", H, GAME, (
        Field("seq", SEQ, "sequence number; the next event has seq + 1"),
        Field("view", VIEW, "all the receiver may know"),
        Field("legal", LEGAL, "what the receiver may do now"),
    ), "full state for the receiver", frozenset({"view", "legal"})),
    MessageSpec("event", H, GAME, (
        Field("seq", SEQ, "previous seq + 1"),
        Field("event", EVENT, "what happened"),
        Field("legal", LEGAL, "what the receiver may do now"),
    ), "one engine event", frozenset({"event", "legal"})),
    MessageSpec("intent", C, GAME, (
        Field("id", REQUEST_ID, "request id"),
        Field("action", ACTION, "the action"),
    ), "ask the engine to apply an action"),
    MessageSpec("accepted", H, GAME, (Field("id", REQUEST_ID, "the request's id"),),
                "the request with this id was applied"),
    MessageSpec("resync", C, GAME, (_ID,), "ask for a snapshot (after a seq gap)"),
    MessageSpec("penalize", C, GAME, (
        _ID,
        Field("seat", SEAT, "the seat that draws"),
        opt("count", PENALTY, "cards to draw (absent: 2)"),
    ), "owner: a seat draws cards as a penalty (seed 000's hinting penalty, RULEBOOK.md)"),
    MessageSpec("timer", H, GAME, (
        Field("seats", SEATS, "who the timer waits on"),
        opt("ms", Int(0), "milliseconds left when the host sent it (absent: no timer runs)"),
        opt("kind", CODE, "what it times: the decision's phase (section 9.5)"),
    ), "a timer of the game started, or none runs now (section 8, [UNO-8-24])"),
    MessageSpec("chat", C, GAME, (Field("text", CHAT_LINE, "the line"),),
                "say something at the table"),
    MessageSpec("chat_message", H, GAME, (
        Field("name", NAME, "who said it"),
        Field("text", CHAT_LINE, "the line"),
        opt("seat", SEAT, "their seat (absent: a spectator)"),
        opt("host", Bool(), "true only on the host's own notices, never on a member's line"),
        opt("notice", CODE, "a host notice's code, for the client's own words (section 8, "
            "[UNO-8-27])"),
        opt("about", NAME, "the player a host notice is about"),
        opt("command", CHAT_LINE, "the command a host notice gives (join_with: how friends "
            "join)"),
        opt("addresses", CHAT_LINE, "the host's other addresses, comma-separated "
            "(join_with)"),
    ), "a chat line, to everyone at the table"),
    # -- trust ---------------------------------------------------------------------------------
    MessageSpec("round_prepare", H, TRUST, (
        Field("round", ROUND, "round number: 1, then the previous + 1"),
        Field("game_id", BIN16, "the match's id (the manifest's)"),
        Field("host_commit", BIN32, "commitment to the host seed"),
        Field("algo", CODE, "shuffle construction: uno-shuffle-v1"),
        opt("host_seat", SEAT, "the host's own seat (absent: it has none)"),
        SIG,
    ), "the host commits to its seed for a round"),
    MessageSpec("seed_commit", C, TRUST, (
        Field("round", ROUND, "round number"),
        Field("commit", BIN32, "commitment to the client seed"),
    ), "a seat commits to its seed"),
    MessageSpec("seed_commits", H, TRUST, (
        Field("round", ROUND, "round number"),
        Field("commits", SEAT_COMMITS, "[seat, commit] of every contributing seat"),
        SIG,
    ), "the frozen set of seat commitments"),
    MessageSpec("seed_reveal", C, TRUST, (
        Field("round", ROUND, "round number"),
        Field("seed", BIN32, "the client seed, to the host only"),
    ), "a seat reveals its seed"),
    MessageSpec("seed_reveals", H, TRUST, (
        Field("round", ROUND, "round number"),
        Field("seeds", SEAT_COMMITS, "[seat, seed] of every seat whose reveal opened its "
              "commitment, ascending"),
        Field("absent", SEATS, "the other seats of seed_commits (zeros used)"),
        SIG,
    ), "the seats' seeds, when the reveal phase closes"),
    MessageSpec("deck_commits", H, TRUST, (
        Field("round", ROUND, "round number"),
        Field("epoch", Int(0), "0 for the deal, then one per reshuffle"),
        Field("commits", Array(BIN32, MAX_WIDE_ARRAY_LEN, 1), "one per position"),
        Field("deck_commit", BIN32, "commitment over all of them"),
        SIG,
    ), "position commitments of a pile", frozenset({"commits"})),
    MessageSpec("round_audit", H, TRUST, (
        Field("round", ROUND, "round number"),
        Field("host_seed", BIN32, "the host seed"),
        Field("seeds", SEAT_COMMITS, "[seat, seed] of every seat"),
        Field("absent", SEATS, "seats whose seed was replaced by zeros"),
        Field("outcome", Str(choices=("ended", "abandoned")),
              "ended iff a round_ended of this round was sent"),
        Field("events_digest", BIN32, "the chain over the round's public events (§11)"),
        SIG,
    ), "every seed, for the audit"),
    MessageSpec("round_history", H, TRUST, (
        Field("round", ROUND, "round number"),
        Field("first", Int(0), "index of the first event of `events` in the round"),
        Field("events", Array(EVENT, MAX_ARRAY_LEN, 1),
              "the round's events as the receiver got them, proof fields included"),
    ), "a chunk of the current round's events, to a connection entering it",
        frozenset({"events"})),
)

CATALOGUE: dict[str, MessageSpec] = {spec.type: spec for spec in _SPECS}
"""Every message type of Protocol v1, by `t`."""

WIDE_FIELDS: dict[str, frozenset[str]] = {s.type: s.wide for s in _SPECS if s.wide}
"""Per message type, the top-level fields whose arrays may exceed MAX_ARRAY_LEN."""

REQUESTS: frozenset[str] = frozenset(
    s.type for s in _SPECS if any(f.name == "id" for f in s.fields) and s.direction is C
)
"""Client messages that carry a request id the host answers."""

assert MAX_ARRAY_LEN < MAX_WIDE_ARRAY_LEN


def validate_message(message: Mapping[str, Any], sender: Role,
                     decoded: dict[str, object] | None = None) -> MessageSpec:
    """Check a decoded frame from `sender` against the catalogue; return its spec. `decoded`,
    if given, gets the engine values the check decoded (`event`, `legal`, `action`).

    Raises ProtocolError: bad_message (no str `t`, or a known field missing or mistyped),
    unknown_message (a type not in the catalogue), unexpected_message (a type the sender's
    side may not send). None of them is fatal by itself.
    """
    kind = message.get("t")
    if not isinstance(kind, str):
        raise ProtocolError(Code.BAD_MESSAGE, "no str `t` (message type)")
    spec = CATALOGUE.get(kind)
    if spec is None:
        raise ProtocolError(Code.UNKNOWN_MESSAGE, f"unknown message type {kind[:64]!r}")
    if not spec.direction.allows(sender):
        raise ProtocolError(Code.UNEXPECTED_MESSAGE, f"{kind} is not sent by the {sender}")
    check_fields(spec.fields, message, kind, decoded)
    return spec


def request_id(message: Mapping[str, Any]) -> int | None:
    """The request id of a message, if it carries a valid one (for `error.ref`)."""
    value = message.get("id")
    if isinstance(value, int) and not isinstance(value, bool) and value >= 1:
        return value
    return None
