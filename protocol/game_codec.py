"""Engine values on the wire: actions, events, legal action lists and views (SPEC.md section 9).

The wire form of every action and event is spelled out below, in the catalogue: `type` is the
class name in snake_case, every field keeps its name and gets the codec of its wire type
(protocol.wire_codecs): tuples become arrays, a Position (epoch, index) a two-item array, a
Color its string value. It is written by hand, not read off the engine's type hints, because
the wire form is a contract with people who never read our code. A new event in
unonet/events.py (or seat action in unonet/actions.py) therefore needs its line here and in
SPEC.md; tests/test_protocol_codec.py fails while the catalogue and the engine's classes
disagree (a class, a field, its order, its type or whether it may be left out), and
tests/test_protocol_spec.py while SPEC.md does.

Decoding validates everything and raises nothing but ProtocolError(bad_message): an intent is
the one place where a peer's data becomes an engine value.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from protocol.errors import Code, LocalProtocolError, ProtocolError
from protocol.limits import MAX_PLAY_ALSO, MAX_SEATS
from protocol.schema import bad
from protocol.wire_codecs import (
    BIN32,
    BOOL,
    INT,
    STR,
    Codec,
    array,
    enum_codec,
    fixed,
    nullable,
)
from protocol.wire_codecs import wire_name as wire_name  # re-exported: callers name types by it
from unonet import events as ev
from unonet.actions import (
    Accept,
    Action,
    Buzz,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    ChooseTarget,
    Draw,
    Pass,
    Play,
)
from unonet.cards import Color, Face, Kind
from unonet.events import Event
from unonet.phase import Phase
from unonet.view import Pending, SeatView, View

# -- the catalogue ----------------------------------------------------------------------------


_SENT = object()
"""`WireField.omit` of a field always sent."""


@dataclass(frozen=True)
class WireField:
    name: str
    codec: Codec
    required: bool  # False: an intent may leave it out and the class gives its default
    omit: Any = _SENT  # a value not sent (the receiver's default): UNO Flip's fields elsewhere

    @property
    def describe(self) -> str:
        return self.codec.describe


@dataclass(frozen=True)
class WireType:
    """One action or event class and the wire form of its fields, in the class's order."""

    name: str
    cls: type
    fields: tuple[WireField, ...]


@dataclass(frozen=True)
class _Optional:
    codec: Codec
    omit: Any = _SENT


def _optional(codec: Codec, omit: Any = _SENT) -> _Optional:
    """A field that may be left out (marked `?` in SPEC.md); `omit`: the value (its default)
    with which the sender leaves it out, so that a field only some matches use (UNO Flip's)
    costs the others nothing."""
    return _Optional(codec, omit)


def _wire(cls: type, /, **fields: Codec | _Optional) -> WireType:
    """The wire form of `cls`: its fields, in order, each with its codec."""
    return WireType(wire_name(cls), cls, tuple(
        WireField(name, f.codec, False, f.omit) if isinstance(f, _Optional)
        else WireField(name, f, True)
        for name, f in fields.items()
    ))


def _by_name(*types: WireType) -> dict[str, WireType]:
    return {t.name: t for t in types}


COLOR = enum_codec(Color)
KIND = enum_codec(Kind)
INTS = array(INT)
POSITION = fixed(INT, INT)
"""(epoch, index) of a card in the shuffled order of its pile."""
POSITIONS = array(POSITION)


def _encode_face(face: Face) -> dict[str, Any]:
    return face.to_dict()


def _decode_face(value: Any, path: str) -> Face:
    if not isinstance(value, Mapping):
        raise bad(path, "face", value)
    for key in ("kind", "points"):
        if key not in value:
            raise ProtocolError(Code.BAD_MESSAGE, f"{path}.{key}: required field missing")
    color = value.get("color")
    number = value.get("number")
    return Face(
        KIND.decode(value["kind"], f"{path}.kind"),
        None if color is None else COLOR.decode(color, f"{path}.color"),
        None if number is None else INT.decode(number, f"{path}.number"),
        INT.decode(value["points"], f"{path}.points"),
    )


FACE = Codec("face", _encode_face, _decode_face)
"""What one side of a card shows, as in the manifest (SPEC 10): {kind, color?, number?,
points}. UNO Flip's views and events show faces, never ids, of cards whose side in play is
hidden (an id would name both sides)."""
FACES = array(FACE)

ACTION_TYPES: dict[str, WireType] = _by_name(
    _wire(Play, card=INT, color=_optional(nullable(COLOR)), uno=_optional(BOOL),
          also=_optional(array(INT, MAX_PLAY_ALSO))),
    _wire(Draw),
    _wire(Pass),
    _wire(ChooseColor, color=COLOR),
    _wire(CallUno),
    _wire(Catch, target=INT),
    _wire(Challenge),
    _wire(Accept),
    _wire(Buzz),
    _wire(ChooseTarget, target=INT),
)
"""Actions a client may send in an intent (and find in legal lists), by wire name (SPEC 9.3)."""

HOST_ONLY_ACTIONS: frozenset[str] = frozenset({"start_round", "expire", "penalize"})
"""Engine actions that only the host takes; never encodable, refused in intents."""

EVENT_TYPES: dict[str, WireType] = _by_name(
    _wire(ev.DealerDraw, attempt=INT, draws=array(fixed(INT, INT))),  # (seat, card id)
    _wire(ev.RoundStarted, round_no=INT, dealer=INT, deck_size=INT),
    _wire(ev.RoundEnded, winner=nullable(INT), hands=array(INTS), points=INTS, scores=INTS),
    _wire(ev.MatchEnded, winner=INT, scores=INTS),
    _wire(ev.CardsDrawn, seat=INT, positions=POSITIONS, reason=STR),
    _wire(ev.CardsReceived, seat=INT, positions=POSITIONS, cards=INTS),
    _wire(ev.TopCardTurned, card=INT, position=POSITION),
    _wire(ev.Reshuffled, epoch=INT, sources=POSITIONS, cards=INTS, reason=STR),
    _wire(ev.CardPlayed, seat=INT, card=INT, position=POSITION, color=nullable(COLOR), uno=BOOL),
    _wire(ev.CardsReturned, seat=INT, positions=POSITIONS, reason=STR),
    _wire(ev.TurnStarted, seat=INT, direction=INT),
    _wire(ev.Skipped, seat=INT, reason=STR),
    _wire(ev.DirectionChanged, direction=INT),
    _wire(ev.ColorChosen, seat=INT, color=COLOR),
    _wire(ev.Passed, seat=INT),
    _wire(ev.CannotDraw, seat=INT),
    _wire(ev.DecisionPending, seat=INT, kind=STR, amount=_optional(INT),  # new in 1.x:
          until_color=_optional(nullable(COLOR), omit=None)),  # amount, until_color
    _wire(ev.UnoCalled, seat=INT),
    _wire(ev.UnoCaught, catcher=nullable(INT), target=INT, penalty=INT),
    _wire(ev.FalseCatch, catcher=INT, target=INT, penalty=INT),
    _wire(ev.CatchWindowClosed, seats=INTS),
    _wire(ev.Challenged, challenger=INT, target=INT, guilty=BOOL),
    _wire(ev.ChallengeReveal, challenger=INT, target=INT, cards=INTS, positions=POSITIONS,
          color_before=COLOR),
    _wire(ev.Penalized, target=INT, count=INT),
    _wire(ev.Expired, seat=INT, kind=STR),
    # house rules (SPEC 9.2, RULEBOOK.md section 2)
    _wire(ev.MayPlayDrawn, seat=INT, card=INT),
    _wire(ev.DrawStacked, seat=INT, total=INT),
    _wire(ev.DrawDeflected, seat=INT, to=INT, total=INT),
    _wire(ev.JumpedIn, seat=INT, reason=STR),
    _wire(ev.JumpInRefused, seat=INT, card=INT, penalty=INT),
    _wire(ev.HandsMoved, moves=array(fixed(INT, INT, POSITIONS)), reason=STR),  # (from, to, ...)
    _wire(ev.BuzzerOpened, seat=INT, waiting=INTS),
    _wire(ev.Buzzed, seat=INT, place=INT),
    _wire(ev.BuzzerClosed, losers=INTS, penalty=INT),
    _wire(ev.KnockedOut, seat=INT, cards=INT, penalty=INT),
    _wire(ev.Stalemate, winner=INT),
    _wire(ev.SeatEliminated, seat=INT, score=INT),
    # UNO Flip (SPEC 9.2, RULEBOOK.md section 3)
    _wire(ev.Flipped, seat=INT, side=INT, top=INT),
    _wire(ev.OtherSidesShown, seat=INT, positions=POSITIONS, faces=FACES),
    _wire(ev.PileOtherSideShown, position=nullable(POSITION), face=nullable(FACE)),
    _wire(ev.DarkFacesShown, seat=nullable(INT), cards=INTS, faces=FACES),
    # UNO Show 'Em No Mercy (SPEC 9.2, RULEBOOK.md section 4)
    _wire(ev.CardsDiscarded, seat=INT, positions=POSITIONS, cards=INTS),
    _wire(ev.RouletteTurned, seat=INT, color=COLOR, positions=POSITIONS, cards=INTS),
    _wire(ev.DrawCancelled, seat=INT, total=INT),
)
"""Every engine event, by wire name (SPEC 9.2)."""

PROOF_FIELDS: dict[str, dict[str, Codec]] = {
    "cards_received": {"nonces": array(BIN32)},
    "card_played": {"nonce": BIN32, "hand_digest": BIN32},
    "top_card_turned": {"nonce": BIN32},
    "challenge_reveal": {"nonces": array(BIN32)},
    "cards_discarded": {"nonces": array(BIN32)},
    "roulette_turned": {"nonces": array(BIN32)},
}
"""Optional fields the host adds to some events so the trust layer can check card commitments:
the nonce of each position, in the order of the event's positions (only where the receiver also
learns the card: a nonce opens its commitment to anyone who has it; No Mercy's discarded and
roulette-turned cards are face up, so everyone); the hand digest at a
challengeable card (SPEC.md section 9.2, checked in 11). `cards_returned` and `hands_moved`
carry none: they move face-down cards by position, and the cards' receivers check them when
they get them (cards_received)."""


# -- actions -----------------------------------------------------------------------------------


def encode_action(action: Action) -> dict[str, Any]:
    """`Play(12, Color.RED)` -> {"type": "play", "card": 12, "color": "red", ...}."""
    spec = ACTION_TYPES.get(wire_name(type(action)))
    if spec is None or not isinstance(action, spec.cls):
        raise LocalProtocolError(
            Code.BAD_MESSAGE, f"{type(action).__name__} is not an action a seat can send"
        )
    return _encode_fields(spec, action)


def decode_action(data: Any, path: str = "action") -> Action:
    """The engine action for a client's `action` map.

    Raises ProtocolError(bad_message) for anything but a valid seat action: a missing or
    unknown `type`, a host-only action, a missing required field or a wrong type.
    """
    if not isinstance(data, Mapping):
        raise bad(path, "action map", data)
    name = data.get("type")
    spec = ACTION_TYPES.get(name) if isinstance(name, str) else None
    if spec is None:
        raise ProtocolError(Code.BAD_MESSAGE, f"{path}.type: unknown action {name!r}")
    return _decode_fields(spec, data, path)  # type: ignore[no-any-return]


def check_action(data: Any, path: str) -> None:
    """Schema hook for the catalogue: validate an action map."""
    decode_action(data, path)


def encode_legal(legal: typing.Iterable[Action]) -> list[dict[str, Any]]:
    return [encode_action(action) for action in legal]


def decode_legal(data: Any, path: str = "legal") -> tuple[Action, ...]:
    """A legal action list; action types this client does not know (a newer host) are skipped,
    since a client can only ever send what it understands."""
    if not isinstance(data, list | tuple):
        raise bad(path, "array of actions", data)
    out = []
    for index, item in enumerate(data):
        where = f"{path}[{index}]"
        if isinstance(item, Mapping):
            name = item.get("type")
            if not isinstance(name, str):
                raise bad(f"{where}.type", "str", name)
            if name not in ACTION_TYPES:
                continue
        out.append(decode_action(item, where))
    return tuple(out)


def check_legal(data: Any, path: str) -> None:
    decode_legal(data, path)


# -- events ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class UnknownEvent:
    """An event type this side does not know (sent by a newer host): kept, not fatal."""

    type: str
    fields: Mapping[str, Any]


@dataclass(frozen=True)
class WireEvent:
    """A decoded event and the proof fields that came with it (nonces; may be empty)."""

    event: Event | UnknownEvent
    proof: Mapping[str, Any] = dataclasses.field(default_factory=dict)


def encode_event(event: Event, proof: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """{"type": "card_played", "seat": 1, ...} plus the proof fields this event type allows."""
    spec = EVENT_TYPES.get(wire_name(type(event)))
    if spec is None or not isinstance(event, spec.cls):
        raise LocalProtocolError(Code.BAD_MESSAGE, f"{type(event).__name__} is not an event")
    out = _encode_fields(spec, event)
    allowed = PROOF_FIELDS.get(spec.name, {})
    for key, value in (proof or {}).items():
        if key not in allowed:
            raise LocalProtocolError(Code.BAD_MESSAGE, f"{spec.name} carries no proof {key!r}")
        out[key] = list(value) if isinstance(value, list | tuple) else value
    return out


def decode_event(data: Any, path: str = "event") -> WireEvent:
    """The engine event for an `event` map, with its proof fields checked and split off."""
    if not isinstance(data, Mapping):
        raise bad(path, "event map", data)
    name = data.get("type")
    if not isinstance(name, str):
        raise bad(f"{path}.type", "str", name)
    spec = EVENT_TYPES.get(name)
    if spec is None:
        return WireEvent(UnknownEvent(name, dict(data)))
    event = _decode_fields(spec, data, path)
    proof: dict[str, Any] = {}
    for key, codec in PROOF_FIELDS.get(name, {}).items():
        if data.get(key) is not None:
            proof[key] = codec.decode(data[key], f"{path}.{key}")
    return WireEvent(event, proof)


def check_event(data: Any, path: str) -> None:
    decode_event(data, path)


# -- shared ------------------------------------------------------------------------------------


def _encode_fields(spec: WireType, value: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"type": spec.name}
    for f in spec.fields:
        item = getattr(value, f.name)
        if f.omit is _SENT or item != f.omit:
            out[f.name] = f.codec.encode(item)
    return out


def _decode_fields(spec: WireType, data: Mapping[str, Any], path: str) -> Any:
    kwargs: dict[str, Any] = {}
    for f in spec.fields:
        if f.name not in data or (data[f.name] is None and not f.required):
            if f.required:  # an optional field left out or nil takes its default (UNO-5-11)
                raise ProtocolError(Code.BAD_MESSAGE, f"{path}.{f.name}: required field missing")
            continue
        kwargs[f.name] = f.codec.decode(data[f.name], f"{path}.{f.name}")
    return spec.cls(**kwargs)


# -- views ---------------------------------------------------------------------------------


def record(spec: WireType) -> Codec:
    """A nested record of a view (`seat_view`, `pending`): a map of its fields, no `type`."""

    def encode(value: Any) -> dict[str, Any]:
        out = {}
        for f in spec.fields:
            item = getattr(value, f.name)
            if f.omit is _SENT or item != f.omit:
                out[f.name] = f.codec.encode(item)
        return out

    def decode(value: Any, path: str) -> Any:
        if not isinstance(value, Mapping):
            raise bad(path, spec.name, value)
        return _decode_fields(spec, value, path)

    return Codec(spec.name, encode, decode)


PHASE = enum_codec(Phase)

SEAT_VIEW = _wire(SeatView, seat=INT, cards=INT, score=INT, uno_called=BOOL, catchable=BOOL,
                  out=_optional(BOOL), team=_optional(nullable(INT)),
                  other_sides=_optional(FACES, omit=()))
PENDING = _wire(Pending, kind=PHASE, seat=INT, target=_optional(nullable(INT)),
                color_before=_optional(nullable(COLOR)), target_cards=_optional(nullable(INT)),
                amount=_optional(INT), waiting=_optional(INTS),
                until_color=_optional(nullable(COLOR), omit=None))
VIEW = _wire(View, seat=nullable(INT), round_no=INT, phase=PHASE, dealer=nullable(INT),
             current=nullable(INT), direction=INT, hand=INTS,
             seats=array(record(SEAT_VIEW), MAX_SEATS), top_card=nullable(INT),
             active_color=nullable(COLOR), draw_pile=INT, discard_pile=INT,
             drawn_card=nullable(INT), pending=nullable(record(PENDING)),
             round_winner=nullable(INT), match_winner=nullable(INT),
             side=_optional(INT, omit=0), pile_other_side=_optional(nullable(FACE), omit=None),
             dark_faces=_optional(array(fixed(INT, FACE)), omit=()))
VIEW_TYPES: dict[str, WireType] = _by_name(VIEW, SEAT_VIEW, PENDING)
"""The view of `snapshot.view` and its records (SPEC 9.1). Fields added within version 1
(`out`, `team`, `amount`, `waiting`, `until_color`, and UNO Flip's `side`, `other_sides`,
`pile_other_side`, `dark_faces`) are optional: a view from an older host decodes with their
defaults."""


def encode_view(view: View) -> dict[str, Any]:
    """The `snapshot.view` map of `view`."""
    return record(VIEW).encode(view)  # type: ignore[no-any-return]


def decode_view(data: Any, path: str = "view") -> View:
    """The engine's View from a `snapshot.view` map: every field checked (a phase or a pending
    kind must be a Phase value), unknown keys ignored (UNO-9-1). Raises ProtocolError
    (bad_message) for anything else."""
    return record(VIEW).decode(data, path)  # type: ignore[no-any-return]


# -- any frozen dataclass --------------------------------------------------------------------


def encode_value(value: Any) -> Any:
    """Any engine value as plain wire data: dataclass -> map of its fields, tuple -> array,
    enum -> its value, frozenset -> sorted array. Used for `snapshot.view`, whose shape the
    engine owns; the client receives it as a map."""
    if value is None or isinstance(value, bool | int | str | bytes):
        return value
    if isinstance(value, Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: encode_value(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, list | tuple):
        return [encode_value(item) for item in value]
    if isinstance(value, frozenset | set):
        return sorted(encode_value(item) for item in value)
    if isinstance(value, Mapping) and all(isinstance(k, str) for k in value):
        return {key: encode_value(item) for key, item in value.items()}
    raise LocalProtocolError(Code.BAD_MESSAGE, f"no wire form for {type(value).__name__}")
