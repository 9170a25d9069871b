"""The lobby as the client sees it, and the lobby commands it can send.

These mirror the protocol's lobby messages (SPEC.md section 8: `table_state`, `tables`,
`join_table`, `ready`, `set_rules`, `add_bot`, `start`, ...) as plain values, so the screen and
the model never touch the wire; the network glue converts both ways.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """One seat of a table: who sits there (`kind` empty, human or bot), ready, connected;
    `taken_over`: a stand-in plays it in mid-match (its player left or stayed away past the
    grace period), so a join_table may take it now (SPEC.md 8.2, [UNO-8-7])."""

    seat: int
    kind: str
    name: str | None
    ready: bool
    connected: bool
    taken_over: bool = False


@dataclass(frozen=True, slots=True)
class LobbyState:
    """A table's whole lobby state (`table_state`); `you` is the receiver's seat, if seated."""

    table: int
    name: str
    owner: int | None
    rules: Mapping[str, Any]
    seats: tuple[SeatInfo, ...]
    started: bool
    preset: str | None = None
    spectators: int = 0
    you: int | None = None


@dataclass(frozen=True, slots=True)
class TableInfo:
    """One line of the host's table list (`tables`)."""

    table: int
    name: str
    seats: int
    players: int
    started: bool
    preset: str | None = None
    open: int | None = None
    """Seats a join may take now (SPEC.md [UNO-8-15]); None: an older host's list."""
    bots: int | None = None
    """Seats bots hold (SPEC.md [UNO-8-16]); None: an older host's list."""


# -- commands ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ListTables:
    """Ask for the table list."""


@dataclass(frozen=True, slots=True)
class CreateTable:
    """Open a table; the sender owns it and takes seat 0."""

    name: str | None = None
    preset: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class JoinTable:
    table: int
    name: str
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class Spectate:
    """Watch a table: public information only. A JoinTable later takes a free seat (the link
    leaves the audience first, as SPEC.md [UNO-8-8] asks)."""

    table: int


@dataclass(frozen=True, slots=True)
class SetReady:
    """Ready to start (in the lobby) or for the next round (after a round ends)."""

    ready: bool


@dataclass(frozen=True, slots=True)
class SetRules:
    """Owner: rule options over `preset`, or (None) over the rules in force."""

    options: Mapping[str, Any]
    preset: str | None = None


@dataclass(frozen=True, slots=True)
class AddBot:
    """Owner: seat a bot (any free seat when `seat` is None)."""

    seat: int | None = None
    level: str | None = None


@dataclass(frozen=True, slots=True)
class RemoveBot:
    seat: int


@dataclass(frozen=True, slots=True)
class Kick:
    """Owner, in the lobby: free `seat` of its player (whose seat token stops working)."""

    seat: int


HINT_PENALTY = 2
"""Cards a player draws for telling another what to play (seed 000, RULES.md 1.11)."""


@dataclass(frozen=True, slots=True)
class Penalize:
    """Owner, during a round: `seat` draws `count` cards (seed 000's hinting penalty)."""

    seat: int
    count: int = HINT_PENALTY


@dataclass(frozen=True, slots=True)
class StartMatch:
    """Owner: start the match."""


@dataclass(frozen=True, slots=True)
class Leave:
    """Give up the seat (or stop watching)."""


LobbyCommand = (
    ListTables | CreateTable | JoinTable | Spectate | SetReady | SetRules | AddBot | RemoveBot
    | Kick | Penalize | StartMatch | Leave
)
LOBBY_COMMANDS = (
    ListTables, CreateTable, JoinTable, Spectate, SetReady, SetRules, AddBot, RemoveBot, Kick,
    Penalize, StartMatch, Leave,
)
"""The command classes, for isinstance (the union above is for annotations)."""
