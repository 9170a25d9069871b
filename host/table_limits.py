"""What one table, and the tables of one host, may hold or do: each limit named, with why.

A client meets these as errors (SPEC.md 13): `table_limit` when it creates one table too many,
`table_full` when a table has no room for another spectator, `chat_limited` when its table
relays chat faster than people read, `penalty_limit` when an owner's moderation goes past what
a round's hinting penalties (RULEBOOK.md 1.11) ever need.
"""

from __future__ import annotations

from typing import Final

from protocol.limits import MAX_TABLES

MAX_LIVE_TABLES: Final = MAX_TABLES
"""Tables open at once on one host, the host's own included: `list_tables` answers with at
most MAX_TABLES, so a host never has more than its list can show (every live table is
findable), and 256 tables of 10 seats is far more people than one process serves."""

TABLES_PER_ADDRESS: Final = 4
"""Live tables created by clients of one address (IPv4 address, or IPv6 /64 as the server
groups them): a household or a small club behind one NAT opens a few; a stranger cannot fill
the host's list by creating and abandoning tables."""

MAX_SPECTATORS: Final = 32
"""Connections watching one table: every event goes to each of them, so the cap bounds what
one table costs the host per event; more than enough for friends watching a match."""

TABLE_CHAT_PER_SECOND: Final = 10.0
"""Chat lines one table relays per second, all members together: more than any group of
people types and reads; each line goes to every member, so this bounds the broadcast work a
chatty table makes (members x lines)."""

TABLE_CHAT_BURST: Final = 20
"""Lines at once on top of that rate: a burst of greetings when a match starts."""

PENALTY_MAX_CARDS: Final = 4
"""Cards one `penalize` may give: the hinting penalty is 2 (RULEBOOK.md 1.11); twice that
covers a house's harsher one, and no owner can bury a seat in one request."""

PENALTIES_PER_TARGET: Final = 1
"""Penalties one seat may receive in a round: one offence, one penalty."""

PENALTIES_PER_ROUND: Final = 3
"""Penalties in one round, all seats together: moderation, not a way to decide the round."""

FINISHED_KEPT: Final = 1
"""Matches played to their end that a table keeps (`Table.finished`): the last one, for the
score screen, the tests and the operator; the journal keeps every match for good."""

RESUME_NOTICE_EVERY: Final = 30.0
"""Seconds between two "someone tried to resume your seat" notices to one seat's player (and
log lines): a client that retries its resume, or a thief connecting in a loop, is told once
in a while, never a line per attempt."""
