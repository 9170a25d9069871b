"""The seam between the terminal UI and the network: `TableLink`, the updates it delivers and
the commands it carries.

The UI never touches sockets, msgpack or trio. It talks to one object implementing `TableLink`
and receives `Update` values through the callback it gave to `start`. The network glue (trio in
guest mode on prompt-toolkit's asyncio loop, DESIGN.md "The client") implements it; tests
implement it around a real engine Match. The contract:

- `start(deliver)` is called once, from the UI's event loop, when the screen is up. From then
  on the link calls `deliver(update)` on that same thread (trio guest mode runs there), in the
  order things happened. A link may deliver from inside a `send_*` call (the tests' link does)
  or later (the network does); the UI copes with both.
- `send_intent`, `send_lobby` and `send_chat` never block and never raise for network trouble:
  they queue the message; a failure comes back as a `ConnectionChanged` or `Refused` update.
- A game starts with a `ManifestReceived` and a `Snapshot`; every later change of the seat's
  view comes as `GameEvent`s, each with the seat's legal actions after it (SPEC.md 9).
- `close()` is called once when the player leaves; the link says goodbye and stops delivering.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol

from client.lobby import LobbyCommand, LobbyState, TableInfo
from protocol.trust.results import RoundStatus
from unonet.actions import Action
from unonet.cards import DeckManifest
from unonet.events import Event
from unonet.view import View


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The seat's full view (on joining, reconnecting or a resync) and its legal actions."""

    view: View
    legal: tuple[Action, ...]


@dataclass(frozen=True, slots=True)
class GameEvent:
    """One engine event addressed to this seat, and the seat's legal actions after it."""

    event: Event
    legal: tuple[Action, ...]


@dataclass(frozen=True, slots=True)
class MissedEvents:
    """Events of a round this client had not been told, from the round_history a connection
    entering a match gets (a resume, a spectate, a reconnection, a restarted host), oldest
    first: for the log, since the snapshot that follows sets the screen's state."""

    events: tuple[Event, ...]


@dataclass(frozen=True, slots=True)
class ManifestReceived:
    """The deck of the match: the faces of every card id (before the first snapshot)."""

    manifest: DeckManifest


@dataclass(frozen=True, slots=True)
class LobbyChanged:
    lobby: LobbyState


@dataclass(frozen=True, slots=True)
class TablesListed:
    tables: tuple[TableInfo, ...]


@dataclass(frozen=True, slots=True)
class ChatReceived:
    """A chat line; `seat` is None for a spectator. `host` true: the host's own notice
    (chat_message.host, SPEC.md 8.3), drawn as no member's line can be."""

    name: str
    text: str
    seat: int | None = None
    host: bool = False
    notice: str | None = None
    """A host notice's code (SPEC.md [UNO-8-27]): said in the player's words if known."""
    about: str | None = None
    command: str | None = None
    """join_with: the command friends type."""
    addresses: str | None = None
    """join_with: the host's other addresses."""


@dataclass(frozen=True, slots=True)
class SeatNews:
    """Someone came or went at the table since the last `table_state`, for the chat (the
    screen words it in the player's language): `what` is "took_seat", "dropped" (lost the
    connection), "back", "left", "left_bot" (left, and a stand-in bot plays the seat), or
    "renamed" (the player in the seat, connected all along, is now called `name`; `old`: the
    name it had)."""

    what: str
    name: str
    seat: int
    old: str = ""


@dataclass(frozen=True, slots=True)
class TimerChanged:
    """A timer of the game started (`seconds` left when the host said it, for `seats`; `kind`
    the phase it times) or none runs now (`seconds` None): SPEC.md [UNO-8-24]. The screen
    counts down from when it arrived."""

    seats: tuple[int, ...]
    seconds: float | None
    kind: str = ""


@dataclass(frozen=True, slots=True)
class HostKeyWarning:
    """The host showed another certificate fingerprint than the one pinned, remembered, or
    met earlier in this session: nothing more is sent to it, and the link ends "lost" right
    after. The screen shows it whole at once, as no ordinary disconnect, and the terminal
    again when the screen closes, in the player's words (client.host_key says it)."""

    reason: str
    """Where the expected fingerprint came from: "pinned" (--fingerprint), "remembered"
    (known_hosts) or "earlier" (this session's first connection)."""
    address: str  # host:port, as known_hosts keys it
    expected: str  # grouped as `unonet host` prints it (a pin: as far as it goes)
    seen: str  # the fingerprint the host showed, grouped
    known_hosts: str = ""  # the file that remembered `expected`, for "remembered"


@dataclass(frozen=True, slots=True)
class Hosting:
    """This client is the host's own player (`unonet host`): its leaving ends the table for
    everyone, which the quit prompt says."""


@dataclass(frozen=True, slots=True)
class TrustReport:
    """The outcome of one trust check (DESIGN.md "Trust"), for the status line.

    `ok` true: `what` was verified. `ok` false: the host was caught; `kind` is the stable
    violation code (protocol.trust.results.ViolationKind value) and `detail` its sentence.
    """

    ok: bool
    what: str = ""
    kind: str = ""
    detail: str = ""
    round_no: int | None = None
    closed: ClosedRound | None = None
    """For a round_audit's report: the round it closed, as the verifier judged it then (a
    rematch's manifest later in the same read replaces the verifier and its rounds)."""


@dataclass(frozen=True, slots=True)
class ClosedRound:
    """A round its audit closed: its state (ROUND_STATES), how many of its events were
    checked, how many other-side faces were (UNO Flip), and whether it was abandoned before
    its deal (audited, but no card of it was dealt: nothing of it is "audited in full")."""

    status: RoundStatus
    events: int
    other_sides: int
    abandoned: bool = False


ROUND_STATES = ("checking", "audited", "violated", "abandoned", "missed")
"""A round's state on the trust panel: prepared and being checked; audited (every card and the
seeds held); a violation found in it; abandoned before any card was dealt (a counted re-deal,
not a violation); or missed: played while this client was away (it came back after it), so
only its seeds and the cards seen before leaving were checked, not a violation."""


@dataclass(frozen=True, slots=True)
class PanelRound:
    """One round as the trust panel lists it; `absent_seeds`: the seats whose seed did not go
    into the shuffle (shown to every player)."""

    round_no: int
    state: str = "checking"
    absent_seeds: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Caught:
    """One violation, for the panel: the round it was found in (None: the match itself, such
    as its manifest or signer), its stable code and its sentence."""

    round_no: int | None
    kind: str
    detail: str


@dataclass(frozen=True, slots=True)
class TrustStatus:
    """The trust checks of the match so far, whole: the link sends a new one whenever it
    changes, so the title bar and the panel never depend on a line that scrolled away.

    `host_key`: the host's certificate fingerprint (empty without TLS); `signing_key`: the
    fingerprint of the key that signs the match's deck commitments (SHA-256 of its public
    key, as `unonet audit` prints it; empty before the first manifest); `transcript`: where
    the match's transcript is kept (empty when none is written)."""

    rounds: tuple[PanelRound, ...] = ()
    violations: tuple[Caught, ...] = ()
    abandoned_rounds: int = 0
    host_key: str = ""
    transcript: str = ""
    signing_key: str = ""

    @property
    def current(self) -> PanelRound | None:
        return self.rounds[-1] if self.rounds else None


@dataclass(frozen=True, slots=True)
class ConnectionChanged:
    """The link's own state: connecting, connected, reconnecting, lost or closed. `detail`:
    why (a diagnostic, as the host or the system said it); while trying again, `attempt` of
    `attempts` comes in `delay` seconds (the screen words them in the player's language)."""

    state: str
    detail: str = ""
    code: str = ""
    """What ended the connection (client/link_session.Ended.code), if that is what changed."""
    attempt: int = 0
    attempts: int = 0  # 0 while `kept`: no limit
    delay: float = 0.0
    kept: bool = False
    """The host went away saying it keeps our match (SPEC.md [UNO-8-4]): the link waits for
    it to carry the match on, trying again until the player leaves."""


@dataclass(frozen=True, slots=True)
class LocalNews:
    """Something the link tells the player itself (a kept seat forgotten): the words' key and
    values, for the screen to say in the player's language."""

    key: str
    values: Mapping[str, object]


@dataclass(frozen=True, slots=True)
class Refused:
    """The host refused a request; `code` is the stable error code (engine or SPEC.md 12)."""

    code: str
    message: str = ""


Update = (
    Snapshot | GameEvent | MissedEvents | ManifestReceived | LobbyChanged | TablesListed
    | ChatReceived | TrustReport | TrustStatus | ConnectionChanged | Refused | SeatNews
    | HostKeyWarning | Hosting | LocalNews | TimerChanged
)

Deliver = Callable[[Update], None]

NOT_CONNECTED = "not_connected"
"""The code of a `Refused` the link gives itself: no connection carries the request now."""


@dataclass(frozen=True)
class Chat:
    text: str


@dataclass(frozen=True)
class CloseLink:
    """The player leaves."""


Command = Action | LobbyCommand | Chat | CloseLink
"""What a link carries from the screen to the network: the `send_*` calls and `close`, as
values (the network's side, client/link_session.py, takes them one by one)."""

CONNECTION_STATES = ("connecting", "connected", "reconnecting", "lost", "closed")


CLOSE_GRACE = 2.0
"""Seconds the link gets to say bye and close after the player leaves, before it is cancelled."""


class TableLink(Protocol):
    """What the UI needs from the network: three ways to send, one way to receive."""

    def start(self, deliver: Deliver) -> None:
        """Begin delivering updates to `deliver`, on the UI's thread, in order."""

    def send_intent(self, action: Action) -> None:
        """Ask the host to apply `action` for our seat (one of the legal actions we hold)."""

    def send_lobby(self, command: LobbyCommand) -> None:
        """Send a lobby command (join, ready, rules, bots, start, leave)."""

    def send_chat(self, text: str) -> None:
        """Say `text` at the table."""

    def close(self) -> None:
        """Leave: say goodbye to the host and stop delivering updates."""
