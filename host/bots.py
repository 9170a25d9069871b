"""In-process bots: a policy per seat that decides from that seat's view and events only.

Every seat of a match gets a policy, so a dropped player's seat can be played by a bot that has
watched the round from that seat (what it saw, never more). Bot seats always use theirs; a
human seat uses it only while taken over. Timing (the think delay) is the table's business.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from unonet.actions import Action, CallUno, Catch
from unonet.bots import POLICIES, Bot
from unonet.events import Event
from unonet.match import Match

DEFAULT_LEVEL = "normal"
BOT_NAMES = ("Ana", "Bruno", "Chiara", "Davi", "Elena", "Fabio", "Giulia", "Hugo", "Iris", "Joao")


def check_level(level: str | None) -> str:
    """The policy name to use; ValueError for one that does not exist."""
    chosen = level or DEFAULT_LEVEL
    if chosen not in POLICIES:
        raise ValueError(f"unknown bot level {chosen!r}; known: {', '.join(sorted(POLICIES))}")
    return chosen


class SeatBots:
    """One policy per seat of `match`, fed the events each seat may see."""

    def __init__(self, match: Match, levels: Sequence[str | None], seed: int = 0) -> None:
        self.match = match
        self.policies: list[Bot] = [
            POLICIES[check_level(level)](seat, match.rules, match.manifest, seed=seed + seat)
            for seat, level in enumerate(levels)
        ]

    def observe(self, events: Iterable[Event]) -> None:
        for event in events:
            audience = event.audience
            for policy in self.policies:
                if audience is None or policy.seat in audience:
                    policy.observe(event)

    def decide(self, controlled: Iterable[int]) -> tuple[int, Action] | None:
        """The next action of a bot-controlled seat: an out-of-turn reaction (UNO, catch)
        first, as the bot driver does, else the pending decision if a bot holds it."""
        match = self.match
        seats = sorted(controlled)
        for seat in seats:
            reactions = [a for a in match.legal_actions(seat) if isinstance(a, CallUno | Catch)]
            if reactions:
                action = self.policies[seat].react(match.view(seat), reactions)
                if action is not None:
                    return seat, action
        pending = match.pending_seat
        if pending is not None and pending in seats:
            legal = match.legal_actions(pending)
            if legal:
                return pending, self.policies[pending].act(match.view(pending), legal)
        return None
