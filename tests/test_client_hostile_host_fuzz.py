"""A hostile host cannot crash the client with its messages: a few of the messages a host may
send, most of them with one value anywhere replaced by a hostile one or a key added (a list, a
map, an escape, a huge number, a wrong type), go through the client's session, its model and
its screen without an exception.
The protocol's catalogue refuses most of them; what it lets through (a map's values, say) the
client must refuse or word itself. Found this way: `table_state.rules` with a list for a rule."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from client.i18n import Translator
from client.link import Refused
from client.link_session import LinkSession
from client.model import ClientModel
from client.render import compose
from protocol.errors import Code
from protocol.examples import EXAMPLES
from protocol.frames import encode_frame
from protocol.messages import CATALOGUE, Direction
from unonet.rules import OPTIONS

FROM_HOST = sorted(t for t, spec in CATALOGUE.items()
                   if spec.direction in (Direction.HOST_TO_CLIENT, Direction.BOTH)
                   and t in EXAMPLES and t not in ("welcome", "hello"))
"""The messages a host sends after its welcome, each with its SPEC.md example to start from."""

PRELUDE = ("table_state", "manifest", "snapshot")
"""A table in play first (its state, deck and view), so that each message has one to land on:
an event, an audit or a history goes as deep as it would in a match."""

LOBBY = ("table_state",)
"""A lobby first, no match: the lobby's screen draws what lands on it, which the match's
screen never does (a table_state with no seat crashed a lobby's seat rows this stop; that one
takes two changed values, so tests/test_client_lobby_rows.py shows it)."""

HOSTILE = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(2**63), max_value=2**64 - 1),
    st.floats(allow_nan=True), st.text(max_size=20),
    st.sampled_from(["\x1b[2J", "\u202eevil", "", "a" * 300, "host", "official", "flip"]),
    st.lists(st.integers(), max_size=3), st.dictionaries(st.text(max_size=5), st.integers(),
                                                         max_size=3),
    st.binary(max_size=8),
)


KEYS = sorted({*OPTIONS, *(f.name for spec in CATALOGUE.values() for f in spec.fields),
               "taken_over", "kind", "seat", "cards", "color", "number"})
"""Keys a hostile host may add to any map: every field and rule option the client knows."""


def places(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[tuple[Any, ...], Any]]:
    """Every place in a message a value sits, the message itself first (its path is ()),
    with the value there: map keys and list indexes, nested."""
    found = [(prefix, value)]
    if isinstance(value, dict):
        for key, inner in value.items():
            found += places(inner, (*prefix, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            found += places(inner, (*prefix, index))
    return found


def replaced(message: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    changed = copy.deepcopy(message)
    where: Any = changed
    for step in path[:-1]:
        where = where[step]
    where[path[-1]] = value
    return changed


def welcomed() -> tuple[LinkSession, ClientModel]:
    """A link past its handshake (the SPEC.md example welcome), and a screen's model."""
    link = LinkSession("me")
    link.connect()
    model = ClientModel(Translator("en"), name="me")
    for update in link.receive(encode_frame(EXAMPLES["welcome"])).updates:
        model.apply(update)
    return link, model


@pytest.mark.parametrize("prelude", [PRELUDE, LOBBY], ids=["in a match", "in a lobby"])
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_no_message_from_a_host_crashes_the_client(prelude: tuple[str, ...],
                                                   data: st.DataObject) -> None:
    link, model = welcomed()
    for kind in prelude:
        for update in link.receive(encode_frame(EXAMPLES[kind])).updates:
            model.apply(update)
    for _ in range(data.draw(st.integers(1, 3), label="messages")):
        kind = data.draw(st.sampled_from(FROM_HOST), label="message")
        message = dict(EXAMPLES[kind])
        if data.draw(st.integers(0, 3), label="honest") > 0:  # most of them lie
            message = hostile(data, message)
        try:
            frame = encode_frame(message, check=False)
        except Exception:  # not even msgpack (a float key...): nothing to send
            continue
        for update in link.receive(frame).updates:
            model.apply(update)
        for width, height in ((80, 23), (60, 17)):
            compose(model, width, height, plain=False)


def hostile(data: st.DataObject, message: dict[str, Any]) -> dict[str, Any]:
    """`message` with one value anywhere replaced, or one key added to one of its maps."""
    found = places(message)
    if data.draw(st.booleans(), label="add a key"):
        where = data.draw(st.sampled_from([p for p, v in found if isinstance(v, dict)]),
                          label="map")
        path = (*where, data.draw(st.sampled_from(KEYS), label="key"))
    else:
        path = data.draw(st.sampled_from([p for p, _ in found if p not in ((), ("t",))]),
                         label="path")
    return replaced(message, path, data.draw(HOSTILE, label="value"))


def test_an_event_for_a_seat_past_the_table_between_a_new_manifest_and_its_snapshot_is_refused(
) -> None:
    """Found by the fuzz above in CI: a second manifest, then an event for seat 3 at a table of
    three. The link had forgotten the table's seats with the manifest, while the screen still
    folded events into the last snapshot's view: IndexError in the fold."""
    link, model = welcomed()
    for kind in (*PRELUDE, "manifest"):
        for update in link.receive(encode_frame(EXAMPLES[kind])).updates:
            model.apply(update)
    message = copy.deepcopy(EXAMPLES["event"])
    message["event"]["seat"] = len(EXAMPLES["snapshot"]["view"]["seats"])
    updates = link.receive(encode_frame(message, check=False)).updates
    for update in updates:
        model.apply(update)
    assert [u.code for u in updates if isinstance(u, Refused)] == [Code.BAD_MESSAGE]
    compose(model, 80, 23, plain=False)
