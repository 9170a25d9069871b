"""What the command line, the host's settings and the lobby need to know of the bots without
loading them: the policies' names, what players call them, a search's think budget and a bot's
reaction time. The bots themselves (unonet.bots) import the engine, the view and the search,
about a tenth of a second; `unonet --help` must answer in less than that (issue 43)."""

from __future__ import annotations

from dataclasses import dataclass

POLICY_NAMES: tuple[str, ...] = ("random", "normal", "strong")
"""The bot policies, by the names the wire and the command line use (unonet.bots.POLICIES maps
each to its class; a test holds the two alike)."""

LEVEL_NAMES: dict[str, str] = {"random": "easy", "normal": "normal", "strong": "hard"}
"""What players call each policy: the lobby's picker and the help show these words (translated
by the client); the wire and the command line keep the policy names."""

HUMAN_REACTION: tuple[float, float] = (0.6, 1.5)
"""The range, in seconds, of a bot's reaction time in a race (pressing B, playing out of turn),
drawn afresh for each chance. A person's simple reaction to a signal takes about 0.25 s and a
choice reaction (is this card mine to throw?) 0.5 s or more: from 0.6 s a player who watches the
table often wins a race against a bot, and by 1.5 s the bot still takes what nobody wanted. The
host's stand-in bots (host/settings.py) and the network bot (client/netbot.py) both use it."""


@dataclass(frozen=True, slots=True)
class SearchBudget:
    """How long the bot thinks: until `seconds` have passed (wall clock) or `simulations`
    playouts were made, whichever comes first; None is no limit of that kind (one of them must
    be set). With `seconds` None the bot's moves depend on its seed alone."""

    seconds: float | None = 0.7
    simulations: int | None = 20_000
    cpu: bool = False
    """Count `seconds` in this process's CPU time, not the wall clock: the time the search
    would take with a core of its own, whatever else the machine runs. A benchmark's
    tournament uses it so that its bots think alike at any load; a player's bot must answer
    in time on the wall clock, and does not."""

    def __post_init__(self) -> None:
        if self.seconds is None and self.simulations is None:
            raise ValueError("a search budget needs a time or a number of simulations")
        if self.seconds is not None and not 0 < self.seconds <= 60:
            raise ValueError(f"a search time is more than 0 and at most 60 s, not {self.seconds}")
        if self.simulations is not None and not 1 <= self.simulations <= 10_000_000:
            raise ValueError(f"simulations are 1 to 10000000, not {self.simulations}")


DEFAULT_BUDGET = SearchBudget()
"""0.7 s: the answer comes within 1 s on one core at four seats (a sample and its playouts
take a few milliseconds; the last one started may end after the time is up), and at once when
only one move makes sense."""
