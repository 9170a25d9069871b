"""Every limit of Protocol v1, as named constants; SPEC.md section 13 repeats each one.

A receiver enforces these on everything a peer sends, before it spends memory on it. Each value
says why it is what it is; a value chosen by comparison cites what other protocols chose.
"""

from __future__ import annotations

from typing import Final

# -- framing ------------------------------------------------------------------------------------

LENGTH_PREFIX_SIZE: Final = 4
"""u32 big-endian length before every frame: simple, and every language reads it natively."""

MAX_FRAME: Final = 65_536
"""Largest frame payload, in bytes. The largest legitimate message, a `deck_commits` for four
decks of eight colours (840 x 34-byte bin32 = 28.6 KB), fits with room to spare; a cap this size
keeps a hostile peer from making the host buffer more than 64 KiB per connection (NATS defaults
max_payload to 1 MiB, but carries bulk data; we carry card ids)."""

MAX_CLIENT_FRAME: Final = 4096
"""Largest frame payload the host accepts from a client, in bytes. Every other limit bounds a
frame's *memory*; this one bounds its *decode work*, which grows with its size: a 64 KiB frame
of 23,000 empty maps took ~70 ms to decode and check, and 40 such frames a second held a host
core. What clients really send is small (measured in tests/test_protocol_decode_bounds.py):
the largest honest frame is a `chat` of MAX_CHAT_CHARS four-byte characters, 2,064 bytes;
then `create_table` with every rule option and a 32-character name of four-byte characters,
735; `hello` with such a name, a resume token and 16 versions, 335; a `play` of 64 cards, 256;
`seed_commit`, 67. 4 KiB, the power of two above the chat line, holds it with ~2 KB to spare
for additive fields. Diagnostic text (`error.msg`, `bye.msg`, 1,024 characters) is English
from the client's own code, ~1 KB; a sender that fills it with four-byte characters must cut
it to fit. What the host sends keeps MAX_FRAME: `deck_commits` alone is ~29 KB."""

MAX_CLIENT_CONTAINERS: Final = 32
"""Most containers (maps and arrays, the top-level map included) in one client frame. Each
container costs the decoder a Python call (the duplicate-key check) and the profile walk a
step, where a scalar costs neither (msgpack checks str and bin lengths, and the walk checks a
container's scalars at C speed). The most an honest client frame holds is 4 (`hello`: the
message, `v`, `client`, `features`); 32 leaves room for additive fields and bounds the Python
work of any client frame to a few dozen steps, whatever its bytes hold."""

MIN_FRAME: Final = 1
"""A frame holds one msgpack map, which takes at least one byte (0x80)."""

# -- encoding profile (msgpack) -------------------------------------------------------------------

MAX_STR_BYTES: Final = 4096
"""Longest msgpack str, in UTF-8 bytes: a chat line of MAX_CHAT_CHARS is at most 2 KiB of UTF-8;
names and codes are far shorter. Checked by the msgpack decoder before it allocates."""

MAX_BIN_BYTES: Final = 4096
"""Longest msgpack bin: hashes, nonces, seeds and tokens are 16 or 32 bytes; 4 KiB is slack for
additive features, small enough that no bin can dominate a frame."""

MAX_ARRAY_LEN: Final = 256
"""Longest array in an ordinary field: lists of seats, tables, features, supported versions."""

MAX_WIDE_ARRAY_LEN: Final = 1024
"""Longest array in a field that the catalogue marks *wide*: one entry per card of the largest
deck (4 decks x (8 colours x 25 + 8 wilds) + 8 buzzers = 840 cards): `deck_commits.commits`,
the deck manifest, piles and hands inside views and events, legal action lists. This is also
the hard cap given to the msgpack decoder, which checks a declared length before allocating
(the 5-byte `dd ff ff ff ff` array32 header must never reach an allocator)."""

MAX_MAP_LEN: Final = 64
"""Most entries in one map. The rule set has 33 options and travels as one map (`set_rules`,
`table_state.rules`); 64 leaves room for additive options while keeping maps small."""

MAX_DEPTH: Final = 8
"""Deepest container nesting, the top-level map counting as 1. The deepest legitimate value
(manifest: message > manifest > cards > faces > face) uses 5; a small bound keeps recursive
receivers in every language far from their stack limits."""

INT_MIN: Final = -(2**63)
INT_MAX: Final = 2**63 - 1
"""Integers must fit int64: msgpack can carry uint64, which several languages cannot hold."""

# -- messages -----------------------------------------------------------------------------------

MAX_CHAT_CHARS: Final = 512
"""Longest chat line, in characters (code points): a long paragraph, not a file."""

MAX_NAME_CHARS: Final = 32
"""Longest player or table name: it has to fit a seat label in an 80-column terminal."""

MAX_CODE_CHARS: Final = 64
"""Longest machine-readable token (message type, error code, feature, reason, preset)."""

MAX_TEXT_CHARS: Final = 1024
"""Longest diagnostic text (`error.msg`, `bye.reason` detail): meant for logs, never parsed."""

MAX_PLAY_ALSO: Final = 63
"""Most cards in `play.also`, the cards played after `card` in one play. The longest legal play
is a multiple (`multiples`): every card of one number, which in the largest deck (4 decks x 8
colours x two of each number 1-9) is 64 cards, `card` being the first. A run (`sequences`) is
shorter: at most 0 to 9, ten cards. Anything longer cannot be legal, so it is refused as
malformed before the engine sees it."""

MAX_VERSIONS_OFFERED: Final = 16
"""Most protocol versions one hello may offer; one per major version is plenty."""

MAX_REQUEST_ID: Final = INT_MAX
"""Request ids are positive int64; a client counts up from 1 and never wraps in practice."""

RESUME_TOKEN_BYTES: Final = 32
"""A seat's resume token: 256 random bits, like every other secret of the project."""

# -- time -------------------------------------------------------------------------------------

HANDSHAKE_DEADLINE: Final = 10.0
"""Seconds from TCP accept to a complete hello (TLS included). NATS gives 2 s for auth; we allow
for a slow link and a human-speed TLS fingerprint prompt on the other side of it."""

PING_INTERVAL: Final = 15.0
"""Seconds of silence after which a side sends `ping`: well under common NAT idle timeouts
(30 s and up), so a quiet game keeps its mapping."""

IDLE_CUTOFF: Final = 45.0
"""Seconds without any frame after which the peer is gone: three ping intervals (the NATS
'stale connection' rule: a few missed pongs, not one)."""

SEND_DEADLINE: Final = 10.0
"""Seconds the host waits for one write to finish before cutting the connection."""

AUDIT_DEADLINE: Final = 10.0
"""Seconds a client waits, from a round's `round_ended`, for the round's `round_audit` before it
reports the audit missing (SPEC.md [UNO-11-45]), counted while its connection lasts. The host
sends the audit with the events of the action that ended the round, in the same pass, so it is
right behind them on the wire: only a stalled link delays it, and one stalled for a whole
SEND_DEADLINE is cut. Short enough that the player is still at the table (the score screen of
the last round, the round break of the others) when it is said."""

# -- flow control -----------------------------------------------------------------------------

OUTGOING_QUEUE_FRAMES: Final = 64
"""Frames the host queues for one connection. A whole round of events for a busy table is well
under this; a client that falls further behind is cut off (`slow_consumer`) rather than
slowing the table."""

RATE_PER_SECOND: Final = 50.0
"""Sustained frames per second a client may send. A human sends a few per second; a bot
answering every event of an eight-seat table at full speed stays well under 50."""

RATE_BURST: Final = 100
"""Frames a client may send at once on top of the sustained rate (the token bucket's size):
enough for a reconnect's burst of requests and pongs."""

RATE_TOKEN_BYTES: Final = 512
"""The rate limit charges by work, not only by frames: a frame costs 1 token plus one per
full 512 bytes of payload (`frame_cost`), since decoding costs by the byte. Every frame of a
game (intents, pongs, requests) is under 512 bytes and costs 1, as before; a frame of
MAX_CLIENT_FRAME costs 9, so the bytes a client may send are bounded as well as its frames
(50 tokens/s allow ~25 KB/s of decode work, whatever the frame sizes)."""

CHAT_PER_SECOND: Final = 1.0
"""Sustained chat lines per second from one connection. A person types a line every few
seconds; one a second is faster than anyone types, and far below what a flood needs. Each line
is relayed to every member of the table, so chat is budgeted apart from the frame rate."""

CHAT_BURST: Final = 5
"""Chat lines at once on top of the sustained rate: a quick exchange, a pasted line or two.
A line over the budget is refused with `chat_limited` (non-fatal) and not relayed."""

LIST_TABLES_COST: Final = 10
"""Tokens a `list_tables` takes from the rate limit, its frame's cost included. Its answer can
list MAX_TABLES tables (~23 KB, ~0.4 ms of the host's CPU to build and encode) for a request
of a few bytes; a client lists on connecting and when its player refreshes, so ten tokens
(five listings a second sustained, about ten at once) never touch an honest client and keep
a loop of requests from turning the host's CPU and uplink into its own."""

RECEIVE_CHUNK: Final = 65_536
"""Bytes a driver should read per call, so that what a decoder holds stays bounded."""

MAX_SEATS: Final = 10
"""Most seats at one table (the rules' max_players ceiling)."""

MAX_TABLES: Final = 256
"""Most tables one `tables` listing carries (an array limit)."""

HOST_LIMITS: Final[dict[str, int]] = {
    "max_frame": MAX_FRAME,
    "max_str": MAX_STR_BYTES,
    "max_bin": MAX_BIN_BYTES,
    "max_array": MAX_ARRAY_LEN,
    "max_wide_array": MAX_WIDE_ARRAY_LEN,
    "max_map": MAX_MAP_LEN,
    "max_depth": MAX_DEPTH,
    "max_chat": MAX_CHAT_CHARS,
    "ping_interval": int(PING_INTERVAL),
    "idle_cutoff": int(IDLE_CUTOFF),
    "rate": int(RATE_PER_SECOND),
    "burst": RATE_BURST,
    "max_client_frame": MAX_CLIENT_FRAME,
    "max_client_containers": MAX_CLIENT_CONTAINERS,
    "rate_bytes": RATE_TOKEN_BYTES,
    "chat_rate": int(CHAT_PER_SECOND),
    "chat_burst": CHAT_BURST,
}
"""What `welcome.limits` announces (integers only: the profile has no floats)."""
