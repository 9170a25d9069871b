"""Engine actions, events, legal lists and views on the wire: catalogued, checked against the
engine's classes, round-tripped, refused."""

from __future__ import annotations

import contextlib
import dataclasses
import random
import types
import typing
from collections import Counter
from enum import Enum
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol.errors import LocalProtocolError, ProtocolError
from protocol.frames import FrameDecoder, encode_frame
from protocol.game_codec import (
    ACTION_TYPES,
    EVENT_TYPES,
    FACE,
    HOST_ONLY_ACTIONS,
    PROOF_FIELDS,
    VIEW_TYPES,
    UnknownEvent,
    WireType,
    decode_action,
    decode_event,
    decode_legal,
    decode_view,
    encode_action,
    encode_event,
    encode_value,
    encode_view,
    record,
    wire_name,
)
from protocol.limits import MAX_PLAY_ALSO, MAX_SEATS
from protocol.wire_codecs import BIN, BOOL, INT, STR, Codec, array, enum_codec, fixed, nullable
from unonet import events
from unonet.actions import (
    HOST,
    HOST_ACTIONS,
    SEAT_ACTIONS,
    Buzz,
    Catch,
    ChooseColor,
    ChooseTarget,
    Draw,
    Expire,
    Penalize,
    Play,
    StartRound,
)
from unonet.cards import Color, Face, Kind, classic_manifest
from unonet.events import (
    CardPlayed,
    CardsReceived,
    DecisionPending,
    Event,
    HandsMoved,
    Position,
)
from unonet.match import Match
from unonet.phase import Phase
from unonet.rules import RuleSet
from unonet.view import Pending, SeatView, View, observe


def strategy_for(hint: Any) -> st.SearchStrategy[Any]:
    """Values of a field's type hint that fit the encoding profile."""
    if hint is bool:
        return st.booleans()
    if hint is int:
        return st.integers(-(2**63), 2**63 - 1)
    if hint is str:
        return st.text(max_size=64)
    if hint is bytes:
        return st.binary(max_size=64)
    if isinstance(hint, type) and issubclass(hint, Enum):
        return st.sampled_from(list(hint))
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return instances(hint)
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (types.UnionType, typing.Union):
        return st.one_of(*(st.none() if a is type(None) else strategy_for(a) for a in args))
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return st.lists(strategy_for(args[0]), max_size=8).map(tuple)
    if origin is tuple:
        return st.tuples(*(strategy_for(a) for a in args))
    raise AssertionError(f"no strategy for {hint!r}")


def instances(cls: type) -> st.SearchStrategy[Any]:
    hints = typing.get_type_hints(cls)
    fields = {f.name: strategy_for(hints[f.name]) for f in dataclasses.fields(cls)}
    return st.builds(cls, **fields)



ALL_EVENTS = st.deferred(lambda: st.one_of(*(instances(s.cls) for s in EVENT_TYPES.values())))
ALL_ACTIONS = st.deferred(lambda: st.one_of(*(instances(s.cls) for s in ACTION_TYPES.values())))


def test_wire_names_are_snake_case_class_names() -> None:
    assert wire_name(CardsReceived) == "cards_received"
    assert wire_name(ChooseColor) == "choose_color"
    assert set(ACTION_TYPES) == {wire_name(c) for c in SEAT_ACTIONS}
    assert {"card_played", "cards_drawn", "challenge_reveal", "round_ended"} <= set(EVENT_TYPES)


# -- the catalogue agrees with the engine's classes ---------------------------------------------


BOUNDED = {("play", "also"): MAX_PLAY_ALSO, ("view", "seats"): MAX_SEATS}
"""Array fields bounded below the wide limit (SPEC 13): (wire type, field) -> the named limit."""


def codec_for_hint(hint: Any, limit: int | None = None) -> Codec:
    """The codec a field's type hint calls for: what the catalogue must say for that field
    (`limit`: the bound of an array field listed in BOUNDED)."""
    scalars: dict[Any, Codec] = {int: INT, bool: BOOL, str: STR, bytes: BIN}
    if hint in scalars:
        return scalars[hint]
    if hint is Face:
        return FACE  # a card's face, as the manifest gives it (SPEC 10)
    if isinstance(hint, type) and issubclass(hint, Enum):
        return enum_codec(hint)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return record(VIEW_TYPES[wire_name(hint)])  # a view's record, by its own catalogue
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (types.UnionType, typing.Union) and len(args) == 2 and type(None) in args:
        return nullable(codec_for_hint(next(a for a in args if a is not type(None))))
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return array(codec_for_hint(args[0]), limit)
    if origin is tuple and args and Ellipsis not in args:
        return fixed(*(codec_for_hint(a) for a in args))
    raise AssertionError(f"no wire form for type {hint!r}")


def event_classes() -> set[type]:
    return {c for c in vars(events).values()
            if isinstance(c, type) and issubclass(c, Event) and c is not Event
            and c.__module__ == events.__name__}


ENGINE_TYPES = [*ACTION_TYPES.values(), *EVENT_TYPES.values(), *VIEW_TYPES.values()]


def decoder_of(spec: WireType) -> Any:
    if spec.name in VIEW_TYPES:
        return record(spec).decode
    return decode_action if spec.name in ACTION_TYPES else decode_event


def test_the_catalogue_has_every_engine_class_and_no_other() -> None:
    assert {spec.cls for spec in EVENT_TYPES.values()} == event_classes()
    assert {spec.cls for spec in ACTION_TYPES.values()} == set(SEAT_ACTIONS)
    assert {wire_name(c) for c in HOST_ACTIONS} == HOST_ONLY_ACTIONS
    assert {spec.cls for spec in VIEW_TYPES.values()} == {View, SeatView, Pending}


@pytest.mark.parametrize("spec", ENGINE_TYPES, ids=lambda spec: spec.name)
def test_the_catalogue_has_the_fields_of_each_class(spec: WireType) -> None:
    """Names, order and which fields have defaults: what survives compilation."""
    declared = [
        (f.name, f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING)
        for f in dataclasses.fields(spec.cls)
    ]
    assert [(f.name, f.required) for f in spec.fields] == declared
    assert "type" not in {f.name for f in spec.fields}  # the key that names the type


@pytest.mark.parametrize("spec", ENGINE_TYPES, ids=lambda spec: spec.name)
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_the_catalogue_codecs_are_what_the_type_hints_call_for(
    spec: WireType, data: st.DataObject
) -> None:
    hints = typing.get_type_hints(spec.cls)
    values: dict[str, Any] = {}
    for f in spec.fields:
        expected = codec_for_hint(hints[f.name], BOUNDED.get((spec.name, f.name)))
        assert f.describe == expected.describe, f"{spec.name}.{f.name}"
        value = values[f.name] = data.draw(strategy_for(hints[f.name]), label=f.name)
        wire = f.codec.encode(value)
        assert wire == expected.encode(value)
        assert f.codec.decode(wire, f.name) == value == expected.decode(wire, f.name)
    minimal = {f.name: f.codec.encode(values[f.name]) for f in spec.fields if f.required}
    decoder_of(spec)({"type": spec.name, **minimal}, spec.name)  # an optional field has a default


def test_a_play_on_the_wire() -> None:
    wire = encode_action(Play(12, Color.RED, True, (13, 14)))
    assert wire == {"type": "play", "card": 12, "color": "red", "uno": True, "also": [13, 14]}
    assert decode_action(wire) == Play(12, Color.RED, True, (13, 14))


def test_play_also_holds_at_most_the_longest_legal_play() -> None:
    """The longest legal play is every card of one number in the largest deck (a multiple)."""
    largest = classic_manifest(decks=4, colors=8, buzzers=True)
    faces = (largest.face(card.id) for card in largest)
    per_number = Counter(f.number for f in faces if f.kind is Kind.NUMBER)
    assert max(per_number.values()) - 1 == MAX_PLAY_ALSO  # `card` is the first of them
    longest = {"type": "play", "card": 0, "also": list(range(1, MAX_PLAY_ALSO + 1))}
    assert decode_action(longest) == Play(0, also=tuple(range(1, MAX_PLAY_ALSO + 1)))


def test_the_house_rule_actions_on_the_wire() -> None:
    assert encode_action(Buzz()) == {"type": "buzz"}
    assert encode_action(ChooseTarget(3)) == {"type": "choose_target", "target": 3}
    assert decode_action({"type": "choose_target", "target": 3}) == ChooseTarget(3)


def test_a_decision_pending_from_an_older_host_has_no_amount() -> None:
    """`amount` was added within version 1, so a receiver takes its absence as 0."""
    wire = {"type": "decision_pending", "seat": 2, "kind": "choose_color"}
    assert decode_event(wire).event == DecisionPending(2, "choose_color", 0)
    stack = encode_event(DecisionPending(1, Phase.STACK, 6))
    assert stack == {"type": "decision_pending", "seat": 1, "kind": "stack", "amount": 6}


def test_hands_moved_names_positions_only() -> None:
    event = HandsMoved((((0, 1, ((0, 3), (1, 2))), (1, 0, ((0, 9),)))), "seven")
    wire = encode_event(event)
    assert wire == {"type": "hands_moved", "moves": [[0, 1, [[0, 3], [1, 2]]], [1, 0, [[0, 9]]]],
                    "reason": "seven"}
    assert decode_event(wire).event == event


@pytest.mark.parametrize("name", ["cards_returned", "hands_moved", "cards_drawn"])
def test_face_down_moves_carry_no_nonces(name: str) -> None:
    """A nonce opens its card's commitment to whoever holds it (SPEC 11.3): on a public event
    that moves cards face down it would show everyone the cards."""
    assert name not in PROOF_FIELDS


def test_an_optional_field_sent_as_nil_takes_its_default() -> None:
    """nil in place of an optional field means the field is absent (UNO-5-11)."""
    assert decode_action({"type": "play", "card": 3, "uno": None, "also": None}) == Play(3)
    wire = {"type": "decision_pending", "seat": 1, "kind": "stack", "amount": None}
    assert decode_event(wire).event == DecisionPending(1, "stack", 0)
    with pytest.raises(ProtocolError):
        decode_action({"type": "play", "card": None})


def test_defaults_may_be_left_out_of_an_action() -> None:
    assert decode_action({"type": "play", "card": 3}) == Play(3)
    assert decode_action({"type": "draw", "future": 1}) == Draw()


def test_positions_are_two_item_arrays() -> None:
    event = CardPlayed(seat=1, card=5, position=(0, 14), color=None, uno=False)
    wire = encode_event(event)
    assert wire == {"type": "card_played", "seat": 1, "card": 5, "position": [0, 14],
                    "color": None, "uno": False}
    assert decode_event(wire).event == event


@settings(max_examples=300, deadline=None)
@given(ALL_EVENTS)
def test_every_event_round_trips_through_a_frame(event: Event) -> None:
    frame = encode_frame({"t": "event", "seq": 1, "event": encode_event(event), "legal": []})
    decoder = FrameDecoder()
    decoder.receive_data(frame)
    message = decoder.next_frame()
    assert isinstance(message, dict)
    assert decode_event(message["event"]).event == event


@settings(max_examples=200, deadline=None)
@given(ALL_ACTIONS)
def test_every_action_round_trips(action: Any) -> None:
    assert decode_action(encode_action(action)) == action
    assert decode_legal([encode_action(action)]) == (action,)


@pytest.mark.parametrize("action", [StartRound(), Expire(), Penalize(1)])
def test_host_only_actions_cannot_be_encoded(action: Any) -> None:
    with pytest.raises(LocalProtocolError):
        encode_action(action)


@pytest.mark.parametrize("name", sorted(HOST_ONLY_ACTIONS))
def test_host_only_actions_are_refused_in_intents(name: str) -> None:
    with pytest.raises(ProtocolError) as info:
        decode_action({"type": name, "target": 1, "count": 2})
    assert info.value.code == "bad_message"


@pytest.mark.parametrize(
    "wire",
    [
        None,
        [],
        {},
        {"type": 3},
        {"type": "teleport"},
        {"type": "play"},
        {"type": "play", "card": "12"},
        {"type": "play", "card": True},
        {"type": "play", "card": 1, "color": "mauve"},
        {"type": "play", "card": 1, "color": 1},
        {"type": "play", "card": 1, "uno": 1},
        {"type": "play", "card": 1, "also": 2},
        {"type": "play", "card": 1, "also": ["2"]},
        {"type": "play", "card": 1, "also": list(range(MAX_PLAY_ALSO + 1))},
        {"type": "choose_target"},
        {"type": "choose_target", "target": "left"},
        {"type": "catch"},
        {"type": "catch", "target": None},
        {"type": "choose_color", "color": None},
    ],
)
def test_malformed_intents_are_bad_message(wire: Any) -> None:
    with pytest.raises(ProtocolError) as info:
        decode_action(wire)
    assert info.value.code == "bad_message" and not info.value.fatal


@settings(max_examples=500, deadline=None)
@given(st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8) | st.binary(max_size=8),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.sampled_from(["type", "card", "color", "uno", "also", "target"])
                      | st.text(max_size=4), children, max_size=5),
    max_leaves=12,
))
def test_decoding_anything_raises_only_protocol_errors(data: Any) -> None:
    for decode in (decode_action, decode_event, decode_legal, decode_view):
        with contextlib.suppress(ProtocolError):
            decode(data)


@pytest.mark.parametrize("wire", [
    {"type": "hands_moved", "moves": [[0, 1]], "reason": "seven"},
    {"type": "hands_moved", "moves": [[0, 1, [[0]]]], "reason": "zero"},
    {"type": "cards_returned", "seat": 1, "positions": [[0]], "reason": "max_hand"},
    {"type": "cards_returned", "seat": 1, "cards": [3], "reason": "max_hand"},
    {"type": "buzzer_opened", "seat": 0, "waiting": 2},
    {"type": "decision_pending", "seat": 0, "kind": "stack", "amount": "4"},
    {"type": "jumped_in", "seat": 0},
])
def test_malformed_house_rule_events_are_bad_message(wire: Any) -> None:
    with pytest.raises(ProtocolError) as info:
        decode_event(wire)
    assert info.value.code == "bad_message"


def test_an_unknown_event_type_is_kept_not_refused() -> None:
    wire = decode_event({"type": "meteor_strike", "seat": 1})
    assert wire.event == UnknownEvent("meteor_strike", {"type": "meteor_strike", "seat": 1})


def test_unknown_action_types_in_legal_lists_are_skipped() -> None:
    legal = decode_legal([{"type": "draw"}, {"type": "future_move", "x": 1}])
    assert legal == (Draw(),)


def test_proof_fields_travel_with_their_events() -> None:
    event = CardsReceived(2, ((0, 3), (0, 4)), (17, 42))
    nonces = [bytes([1]) * 32, bytes([2]) * 32]
    wire = encode_event(event, {"nonces": nonces})
    assert wire["nonces"] == nonces
    decoded = decode_event(wire)
    assert decoded.event == event and decoded.proof == {"nonces": tuple(nonces)}


def test_proof_fields_must_be_32_bytes() -> None:
    wire = encode_event(CardPlayed(1, 5, (0, 1), None, False), {"nonce": bytes(31)})
    with pytest.raises(ProtocolError):
        decode_event(wire)


def test_an_event_carries_only_its_own_proof_fields() -> None:
    with pytest.raises(LocalProtocolError):
        encode_event(CardPlayed(1, 5, (0, 1), None, False), {"nonces": []})


def test_proof_fields_name_real_events() -> None:
    assert set(PROOF_FIELDS) <= set(EVENT_TYPES)


@dataclasses.dataclass(frozen=True)
class _Inner:
    color: Color | None
    where: Position


@dataclasses.dataclass(frozen=True)
class _View:
    seat: int | None
    hand: tuple[int, ...]
    inner: _Inner
    seen: frozenset[int]
    token: bytes


def test_views_encode_generically() -> None:
    view = _View(1, (3, 4), _Inner(Color.BLUE, (0, 2)), frozenset({9, 7}), b"\x01")
    assert encode_value(view) == {
        "seat": 1, "hand": [3, 4], "inner": {"color": "blue", "where": [0, 2]},
        "seen": [7, 9], "token": b"\x01",
    }


# -- the view (SPEC 9.1) -----------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(instances(View))
def test_a_view_round_trips_and_is_what_the_host_sends(view: View) -> None:
    """The host may write the view with encode_value (every field) or encode_view (leaving out
    UNO Flip's fields at their defaults); the catalogue reads either back."""
    full = encode_value(view)
    short = encode_view(view)
    assert set(full) - set(short) <= {"side", "pile_other_side", "dark_faces"}
    assert ("side" in short) == (view.side != 0)
    for seat_view, wire in zip(view.seats, short["seats"], strict=True):
        assert ("other_sides" in wire) == bool(seat_view.other_sides)
    assert decode_view(short) == view
    assert decode_view(full) == view


def test_the_view_of_a_match_round_trips() -> None:
    match = Match(RuleSet(), 3, bytes(16), first_dealer=0)
    match.apply(HOST, StartRound())
    for seat in (0, 1, 2, None):
        view = observe(match, seat)
        decoded = decode_view(encode_value(view))
        assert decoded == view and isinstance(decoded.phase, Phase)


HOUSE_RULES = {"stacking": "escalating", "stack_mix_wild": False, "deflect": True,
               "jump_in": "same_face", "sequences": True, "multiples": True, "seven_zero": True,
               "buzzers": True, "max_hand": 15, "max_hand_penalty": "hand"}


@pytest.mark.parametrize("seed", range(3))
def test_what_a_house_rules_match_sends_reads_back(seed: int) -> None:
    """Every event, view and legal list of a played match, every house rule on, goes through
    the catalogue unchanged: the wire carries what the engine really emits."""
    rng = random.Random(seed)
    match = Match(RuleSet.from_dict(HOUSE_RULES), 4, bytes([seed]) * 16)
    produced = match.apply(HOST, StartRound())
    for _ in range(1500):
        for event in produced:
            assert decode_event(encode_event(event)).event == event
        for seat in (*range(match.seats), None):
            view = observe(match, seat)
            assert decode_view(encode_value(view)) == view
        if match.phase == Phase.MATCH_OVER:
            break
        if match.phase == Phase.BETWEEN_ROUNDS:
            produced = match.apply(HOST, StartRound())
            continue
        moves = [(s, a) for s in range(match.seats) for a in match.legal_actions(s)]
        for _, action in moves:
            assert decode_action(encode_action(action)) == action
        seat, action = rng.choice(moves) if moves else (HOST, Expire())
        produced = match.apply(seat, action)


def _view_map(**changes: Any) -> dict[str, Any]:
    seat = {"seat": 0, "cards": 7, "score": 0, "uno_called": False, "catchable": False}
    view = {"seat": 0, "round_no": 1, "phase": "turn", "dealer": 2, "current": 0,
            "direction": 1, "hand": [1, 2], "seats": [seat], "top_card": 5,
            "active_color": "red", "draw_pile": 80, "discard_pile": 1, "drawn_card": None,
            "pending": None, "round_winner": None, "match_winner": None}
    return {**view, **changes}


def test_a_view_from_an_older_host_takes_the_new_fields_defaults() -> None:
    """`out`, `team`, `amount` and `waiting` were added within version 1 (SPEC 15)."""
    view = decode_view(_view_map(phase="challenge", pending={"kind": "challenge", "seat": 0}))
    assert view.seats[0].out is False and view.seats[0].team is None
    assert view.pending == Pending(Phase.CHALLENGE, 0)
    assert view.pending.amount == 0 and view.pending.waiting == ()


def test_a_view_carries_the_house_rule_decisions() -> None:
    pending = {"kind": "buzzer", "seat": 1, "waiting": [0, 2]}
    view = decode_view(_view_map(phase="buzzer", pending=pending, future_key=3))
    assert view.phase is Phase.BUZZER and view.pending == Pending(Phase.BUZZER, 1, waiting=(0, 2))
    seat = {"seat": 0, "cards": 0, "score": 12, "uno_called": False, "catchable": False,
            "out": True, "team": 1}
    assert decode_view(_view_map(seats=[seat])).seats[0] == SeatView(0, 0, 12, False, False,
                                                                     True, 1)


@pytest.mark.parametrize("changes", [
    {"phase": "lunch"},
    {"phase": None},
    {"pending": {"kind": "dance", "seat": 0}},
    {"pending": {"kind": "stack"}},
    {"pending": {"kind": "stack", "seat": 0, "amount": "six"}},
    {"seats": [{"seat": 0}]},
    {"seats": [{"seat": 0, "cards": 7, "score": 0, "uno_called": False, "catchable": False,
                "team": "red"}]},
    {"seats": [None] * (MAX_SEATS + 1)},
    {"hand": None},
    {"round_no": True},
])
def test_a_malformed_view_is_bad_message(changes: dict[str, Any]) -> None:
    with pytest.raises(ProtocolError) as info:
        decode_view(_view_map(**changes))
    assert info.value.code == "bad_message"


def test_floats_have_no_wire_form() -> None:
    with pytest.raises(LocalProtocolError):
        encode_value({"x": 1.5})


def test_choose_color_and_catch() -> None:
    assert encode_action(ChooseColor(Color.PINK)) == {"type": "choose_color", "color": "pink"}
    assert decode_action({"type": "catch", "target": 3}) == Catch(3)
