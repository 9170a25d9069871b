"""The host's decode bounds (issue 13, point 2): a client frame costs the host work bounded by
the frame, and a client's frames are charged by that work.

- the largest honest client frames, measured here, fit MAX_CLIENT_FRAME with room (the reason
  the constant gives);
- each bound: frame size, container count, msgpack's own lengths, depth and every profile
  rule of SPEC section 5 still enforced on the bounded path (the malformed vectors, and a
  property: the bounded decoder agrees with the full one on every frame it admits);
- the frame that cost ~70 ms before (a 64 KiB ping of ~23,000 empty maps) is refused;
- the rate limit charges by bytes before decoding, and chat has its own budget.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from protocol.client_session import ClientSession, Welcomed
from protocol.connection import ConnectionFailed, MessageRefused
from protocol.errors import ProtocolError
from protocol.examples import EXAMPLES
from protocol.frames import (
    PLAIN_DECODE_BYTES,
    decode_bounded,
    decode_payload,
    encode_frame,
    pack,
)
from protocol.game_codec import encode_action
from protocol.host_connection import HelloReceived, HostConnection, MessageReceived
from protocol.limits import (
    CHAT_BURST,
    HOST_LIMITS,
    LIST_TABLES_COST,
    MAX_ARRAY_LEN,
    MAX_CHAT_CHARS,
    MAX_CLIENT_CONTAINERS,
    MAX_CLIENT_FRAME,
    MAX_FRAME,
    MAX_MAP_LEN,
    MAX_NAME_CHARS,
    MAX_PLAY_ALSO,
    MAX_VERSIONS_OFFERED,
    RATE_BURST,
    RATE_TOKEN_BYTES,
)
from protocol.ratelimit import frame_cost
from protocol.state import ConnState
from unonet.actions import Play
from unonet.cards import Color
from unonet.rules import RuleSet

VECTORS = Path(__file__).resolve().parent.parent / "protocol" / "vectors"
WIDE_CHAR = "\U0001d11e"  # 𝄞: four bytes of UTF-8, the most a character takes


def payload_of(message: Any) -> bytes:
    return pack(message)


def ready_host(now: float = 0.0, **options: Any) -> HostConnection:
    client = ClientSession(name="ada")
    host = HostConnection(now=now, **options)
    [hello] = host.receive_data(client.hello(), now=now)
    assert isinstance(hello, HelloReceived)
    client.receive_data(host.welcome())
    assert host.state is ConnState.READY
    return host


def framed(payload: bytes) -> bytes:
    return len(payload).to_bytes(4, "big") + payload


# -- what honest clients send ---------------------------------------------------------------------


def honest_client_frames() -> dict[str, dict[str, Any]]:
    """The largest frame of each kind a client of this project sends: names and chat at their
    longest in four-byte characters, every rule option, the longest legal play."""
    name = WIDE_CHAR * MAX_NAME_CHARS
    options = RuleSet().to_dict()
    play = Play(777, Color.RED, uno=True, also=tuple(range(778, 778 + MAX_PLAY_ALSO)))
    return {
        "chat": {"t": "chat", "text": WIDE_CHAR * MAX_CHAT_CHARS},
        "hello": {"t": "hello", "v": list(range(1, MAX_VERSIONS_OFFERED + 1)),
                  "client": {"name": "unonet", "version": "0.1.0+" + "x" * 58},
                  "features": ["chat", "bots", "trust", "spectate"], "name": name,
                  "resume": bytes(32)},
        "create_table": {"t": "create_table", "id": 2**31, "name": name, "preset": "x" * 64,
                         "options": options},
        "set_rules": {"t": "set_rules", "id": 2**31, "preset": "x" * 64, "options": options},
        "join_table": {"t": "join_table", "id": 2**31, "table": 2**31, "name": name, "seat": 9},
        "intent_play": {"t": "intent", "id": 2**31, "action": encode_action(play)},
        "seed_commit": {"t": "seed_commit", "round": 2**31, "commit": bytes(32)},
        "seed_reveal": {"t": "seed_reveal", "round": 2**31, "seed": bytes(32)},
        "bye": {"t": "bye", "reason": "quit", "msg": "x" * 200},
    }


def test_the_client_frame_limit_fits_the_largest_honest_client_frame() -> None:
    sizes = {kind: len(payload_of(message)) for kind, message in honest_client_frames().items()}
    largest = max(sizes, key=sizes.__getitem__)
    assert largest == "chat" and sizes["chat"] == 16 + 4 * MAX_CHAT_CHARS  # 2,064 bytes
    assert sizes["chat"] < MAX_CLIENT_FRAME < 2 * sizes["chat"]  # fits, and fits closely
    assert max(size for kind, size in sizes.items() if kind != "chat") < MAX_CLIENT_FRAME // 4
    for kind, message in honest_client_frames().items():
        payload = payload_of(message)
        assert decode_bounded(payload) == decode_payload(payload) == message, kind


def test_honest_frames_hold_few_containers_and_cost_little() -> None:
    for kind, message in honest_client_frames().items():
        payload = payload_of(message)
        with pytest.raises(ProtocolError) as info:
            decode_bounded(payload, max_containers=0)  # every frame holds its top-level map
        assert info.value.code == "bad_frame", kind
        decode_bounded(payload, max_containers=4)  # hello, the most, holds 4
        assert frame_cost(len(payload)) <= 1 + MAX_CHAT_CHARS * 4 // RATE_TOKEN_BYTES, kind
    game = [EXAMPLES[kind] for kind in ("intent", "pong", "ping", "ready", "resync")]
    assert all(frame_cost(len(payload_of(m))) == 1 for m in game)  # a game's frames cost 1


# -- the frame that cost ~70 ms -----------------------------------------------------------------


def empty_maps_ping(limit: int) -> bytes:
    """A ping within the old profile holding as many empty maps as `limit` bytes allow: arrays
    of 255 maps (under the 256 limit) in a map of up to 60 arrays, at depth 3 and 4."""
    row: list[dict[str, Any]] = [{}] * 255
    rows: list[list[dict[str, Any]]] = []
    extra: dict[str, Any] = {}
    message: dict[str, Any] = {"t": "ping", "n": 1, "x": extra}
    while True:
        rows.append(row)
        extra[f"k{len(extra)}"] = rows
        if len(extra) >= MAX_MAP_LEN - 4 or len(rows) >= MAX_ARRAY_LEN - 1:
            rows = []
            extra = {}
            message[f"x{len(message)}"] = extra
        if len(payload_of(message)) > limit:
            rows.pop() if rows else None
            break
    payload = payload_of(message)
    while len(payload) > limit:  # trim the last row to fit
        longest = max((v for v in message.values() if isinstance(v, dict) and v), key=len)
        longest.popitem()
        payload = payload_of(message)
    return payload


def test_the_old_seventy_millisecond_ping_is_refused_by_size_and_by_containers() -> None:
    payload = empty_maps_ping(MAX_FRAME)
    maps = payload.count(b"\x80")
    assert maps > 20_000 and len(payload) <= MAX_FRAME
    assert decode_payload(payload)["t"] == "ping"  # within every limit of the old host
    host = ready_host()
    [failed] = host.receive_data(framed(payload), now=1.0)
    assert isinstance(failed, ConnectionFailed) and failed.error.code == "frame_too_large"
    # the same shape cut to the client frame size: refused after MAX_CLIENT_CONTAINERS + 1
    small = empty_maps_ping(MAX_CLIENT_FRAME)
    assert len(small) <= MAX_CLIENT_FRAME and small.count(b"\x80") > 3000
    with pytest.raises(ProtocolError) as info:
        decode_bounded(small)
    assert info.value.code == "bad_frame" and "maps and arrays" in info.value.message
    host = ready_host()
    [failed] = host.receive_data(framed(small), now=1.0)
    assert isinstance(failed, ConnectionFailed) and failed.error.code == "bad_frame"


# -- each bound ---------------------------------------------------------------------------------


def test_frame_size_bound_is_the_client_frame() -> None:
    pad = MAX_CLIENT_FRAME - len(payload_of({"t": "ping", "n": 1, "p": ""})) - 2  # str16 head
    fits = payload_of({"t": "ping", "n": 1, "p": "a" * pad})
    assert len(fits) == MAX_CLIENT_FRAME
    host = ready_host()
    assert host.receive_data(framed(fits), now=1.0) == []  # answered with a pong
    over = payload_of({"t": "ping", "n": 1, "p": "a" * (pad + 1)})
    [failed] = ready_host().receive_data(framed(over), now=1.0)
    assert isinstance(failed, ConnectionFailed) and failed.error.code == "frame_too_large"


def test_container_bound_counts_maps_and_arrays() -> None:
    def ping(maps: int, arrays: int) -> bytes:
        return payload_of({"t": "ping", "n": 1, "m": [{}] * maps, "a": [[]] * arrays})

    assert decode_bounded(ping(MAX_CLIENT_CONTAINERS - 22, 19))  # 1 + 1 + 10 + 1 + 19 = 32
    for too_many in (ping(MAX_CLIENT_CONTAINERS - 21, 19), ping(0, MAX_CLIENT_CONTAINERS)):
        with pytest.raises(ProtocolError) as info:
            decode_bounded(too_many)
        assert info.value.code == "bad_frame"


def test_a_small_frame_in_longer_forms_is_read_and_a_repeated_key_still_refused() -> None:
    """Small payloads are decoded without hooks first (PLAIN_DECODE_BYTES): one that does not
    pack back to itself takes the hooked path, which reads it or names its fault."""
    longer = b"\x83\xa1t\xa4ping\xa1n\xce\x00\x00\x00\x01\xa1x\xc0"  # n as a uint32
    assert len(longer) <= PLAIN_DECODE_BYTES and pack(decode_payload(longer)) != longer
    assert decode_bounded(longer) == decode_payload(longer) == {"t": "ping", "n": 1, "x": None}
    repeated = b"\x83\xa1t\xa4ping\xa1n\x01\xa1n\x02"  # "n" twice: it packs back shorter
    with pytest.raises(ProtocolError) as info:
        decode_bounded(repeated)
    assert info.value.code == "duplicate_key"


@pytest.mark.parametrize("payload", [
    b"\x81\xa1t\xdd\xff\xff\xff\xff",  # array32 claiming 4 294 967 295 items in 8 bytes
    b"\x81\xa1t\xdb\x00\x00\x0f\xa0" + b"a" * 10,  # str32 claiming 4 000 bytes, 10 there
    b"\x81\xa1t\xc6\x00\x00\x10\x00",  # bin32 claiming 4 096 bytes, none there
    b"\x81\xa1t\xdf\x00\x00\x00\x41",  # map32 claiming 65 entries
    pack({"t": "ping", "x": [0] * (MAX_ARRAY_LEN + 1)}),  # 257 items: msgpack says no
    pack({"t": "ping", "x": {f"k{i}": 0 for i in range(MAX_MAP_LEN + 1)}}),
])
def test_msgpack_checks_declared_lengths_before_allocating(payload: bytes) -> None:
    with pytest.raises(ProtocolError) as info:
        decode_bounded(payload)
    assert info.value.code == "bad_frame"


def test_every_malformed_vector_gets_the_same_code_on_the_bounded_path() -> None:
    vectors = json.loads((VECTORS / "malformed.json").read_text())["vectors"]
    checked = 0
    for vector in vectors:
        if vector["stage"] != "frame":
            continue
        data = bytes.fromhex(vector["hex"])
        size = int.from_bytes(data[:4], "big")
        if size > MAX_CLIENT_FRAME or len(data) < 4 + size or size == 0:
            continue  # the framing vectors: the FrameDecoder's, not the payload decoder's
        with pytest.raises(ProtocolError) as info:
            decode_bounded(data[4:4 + size])
        assert info.value.code == vector["code"], vector["name"]
        checked += 1
    assert checked >= 10  # floats, ext, uint64, non-str keys, depth, duplicates, ...


def test_depth_float_ext_int64_and_key_rules_hold_on_the_bounded_path() -> None:
    def nest(depth: int) -> Any:
        """An int under `depth - 1` arrays: depth `depth` counting the top-level map."""
        value: Any = 0
        for _ in range(depth - 1):
            value = [value]
        return value

    decode_bounded(pack({"t": "ping", "x": nest(8)}))  # depth 8 with the top map
    cases = [
        pack({"t": "ping", "x": nest(9)}),  # depth 9
        pack({"t": "ping", "x": [1, 2.5]}),
        pack({"t": "ping", "x": {"a": [True, None, "s", b"b", 1.0]}}),
        b"\x82\xa1t\xa4ping\xa1x\xcf\x80\x00\x00\x00\x00\x00\x00\x00",  # uint64 2**63
        b"\x82\xa1t\xa4ping\xa1x\x92\x01\xcf\xff\xff\xff\xff\xff\xff\xff\xff",
        b"\x82\xa1t\xa4ping\xa1x\xd4\x01\x00",  # fixext 1
        b"\x82\xa1t\xa4ping\xc4\x01x\x01",  # a bin key
        b"\x82\xa1t\xa4ping\xa1x\x81\x01\x02",  # an int key, one level down
        b"\x92\x01\x02",  # an array at the top
    ]
    for payload in cases:
        with pytest.raises(ProtocolError) as info:
            decode_bounded(payload)
        assert info.value.code == "bad_frame", payload.hex()
    with pytest.raises(ProtocolError) as info:
        decode_bounded(b"\x82\xa1t\xa4ping\xa1t\x01")
    assert info.value.code == "duplicate_key"
    assert decode_bounded(pack({"t": "ping", "n": 2**63 - 1, "m": -(2**63)}))["n"] == 2**63 - 1


_scalars = (st.none() | st.booleans() | st.integers(-(2**64), 2**64 - 1)
            | st.floats(allow_nan=False) | st.text(max_size=8) | st.binary(max_size=8))
_keys = st.text(max_size=4) | st.binary(max_size=2) | st.integers(-3, 3)
_values = st.recursive(
    _scalars,
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(_keys, inner, max_size=4),
    max_leaves=40,
)


def _outcome(decode: Any, payload: bytes) -> Any:
    try:
        return ("ok", decode(payload))
    except ProtocolError as exc:
        return ("error", exc.code)


@given(_values, st.booleans())
@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow], deadline=None)
def test_bounded_decoder_agrees_with_the_full_profile_check(value: Any, raw_top: bool) -> None:
    try:
        payload = msgpack.packb(value if raw_top else {"t": "ping", "x": value},
                                use_bin_type=True, strict_types=False)
    except (OverflowError, ValueError):
        return  # msgpack cannot write it: nothing to receive
    full = _outcome(decode_payload, payload)
    bounded = _outcome(decode_bounded, payload)
    if bounded == ("error", "bad_frame") and full[0] == "ok":
        # the one difference allowed: more containers than a client frame may hold
        with pytest.raises(ProtocolError) as info:
            decode_bounded(payload)
        assert "maps and arrays" in info.value.message, payload.hex()
        return
    assert bounded == full, payload.hex()


# -- charging by work, and the chat budget ---------------------------------------------------------


def test_frame_cost_is_one_plus_one_per_512_bytes() -> None:
    assert [frame_cost(n) for n in (1, 511, 512, 2064, MAX_CLIENT_FRAME)] == [1, 1, 2, 5, 9]


def test_big_frames_spend_the_bucket_faster_and_a_refused_frame_is_never_decoded() -> None:
    host = ready_host()
    pad = "a" * (MAX_CLIENT_FRAME - 40)
    big = encode_frame({"t": "ping", "n": 1, "p": pad})
    cost = frame_cost(len(big) - 4)
    fit = RATE_BURST // cost  # 11 of them at once; the 12th finds too few tokens
    assert host.receive_data(big * fit, now=1.0) == []
    garbage = framed(b"\xc1" * 100)  # would be bad_frame, if it were decoded
    [failed] = host.receive_data(garbage, now=1.0)
    assert isinstance(failed, ConnectionFailed) and failed.error.code == "bad_frame"
    host = ready_host()
    assert host.receive_data(big * fit, now=1.0) == []
    [failed] = host.receive_data(big[:-1] + b"\xc1" + garbage, now=1.0)  # costs 9, has 1
    assert isinstance(failed, ConnectionFailed) and failed.error.code == "rate_limited"
    small = ready_host()  # the same bytes in small frames go further: counted by frames then
    assert small.receive_data(encode_frame({"t": "ping", "n": 1}) * RATE_BURST, now=1.0) == []


def test_chat_over_its_budget_is_refused_and_the_connection_stays() -> None:
    host = ready_host()
    line = encode_frame({"t": "chat", "text": "hello"})
    events = host.receive_data(line * (CHAT_BURST + 2), now=1.0)
    relayed = [e for e in events if isinstance(e, MessageReceived)]
    refused = [e for e in events if isinstance(e, MessageRefused)]
    assert len(relayed) == CHAT_BURST and len(refused) == 2
    assert {e.error.code for e in refused} == {"chat_limited"}
    assert not any(e.error.fatal for e in refused) and host.state is ConnState.READY
    replies = FrameReader(host.data_to_send())
    assert [f["code"] for f in replies.frames if f["t"] == "error"] == ["chat_limited"] * 2
    [later] = host.receive_data(line, now=2.0)  # one line a second refills
    assert isinstance(later, MessageReceived)


def test_listing_the_tables_costs_its_answer_so_a_loop_of_requests_is_cut_off() -> None:
    """list_tables answers a few bytes with up to 256 table summaries (~23 KB): it takes
    LIST_TABLES_COST tokens, so an honest client listing now and then is never limited and a
    client listing in a loop is cut off long before the host spends a core on it."""
    from protocol.connection import ConnectionFailed
    from protocol.host_connection import RequestReceived

    listing = encode_frame({"t": "list_tables", "id": 1})
    honest = ready_host()
    for second in range(1, 61):  # one listing a second for a minute
        [event] = honest.receive_data(listing, now=float(second))
        assert isinstance(event, RequestReceived)
    looping = ready_host()
    events = looping.receive_data(listing * (RATE_BURST // LIST_TABLES_COST + 1), now=0.0)
    served = [e for e in events if isinstance(e, RequestReceived)]
    assert len(served) < RATE_BURST // LIST_TABLES_COST + 1
    assert isinstance(events[-1], ConnectionFailed) and events[-1].error.code == "rate_limited"
    pings = ready_host()  # the same number of cheap frames is no trouble at all
    assert pings.receive_data(encode_frame({"t": "ping", "n": 1}) * 11, now=0.0) == []


def test_welcome_announces_every_bound() -> None:
    host = HostConnection(now=0.0)
    client = ClientSession(name="ada")
    host.receive_data(client.hello(), now=0.0)
    [welcomed] = client.receive_data(host.welcome())
    assert isinstance(welcomed, Welcomed)
    limits = welcomed.limits
    assert limits["max_client_frame"] == MAX_CLIENT_FRAME
    assert limits["max_client_containers"] == MAX_CLIENT_CONTAINERS
    assert limits["rate_bytes"] == RATE_TOKEN_BYTES and limits["chat_burst"] == CHAT_BURST
    assert limits["max_frame"] == MAX_FRAME  # what the host sends stays 64 KiB
    assert set(HOST_LIMITS) <= set(limits)


class FrameReader:
    def __init__(self, data: bytes) -> None:
        self.frames: list[dict[str, Any]] = []
        while data:
            size = int.from_bytes(data[:4], "big")
            self.frames.append(decode_payload(data[4:4 + size]))
            data = data[4 + size:]
