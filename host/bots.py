"""In-process bots: a policy per seat that decides from that seat's view and events only.

Every seat of a match gets a policy, so a dropped player's seat can be played by a bot that has
watched the round from that seat (what it saw, never more): the round's events are kept, and a
policy is fed them only when its seat is asked to act. Bot seats always use theirs; a
human seat uses it only while taken over. Timing is the table's business (host/game.py), with
one exception kept here: the races. A chance to press B, to play out of turn (a jump-in, the
next card of one's run) or to catch a player who forgot UNO is taken after a reaction time drawn
from the table's seeded stream, once per chance, so that a person watching the table can beat
the bots to it (or call a late UNO before a bot catches it).
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable, Sequence

from unonet.actions import Action, Buzz, CallUno, Catch, Play
from unonet.bots import POLICIES, Bot, SearchBudget, make_bot
from unonet.bots.base import is_deciding, out_of_turn
from unonet.events import Event, RoundStarted
from unonet.match import Match

DEFAULT_LEVEL = "normal"
BOT_NAMES = ("Ana", "Bruno", "Chiara", "Davi", "Elena", "Fabio", "Giulia", "Hugo", "Iris", "Joao")

RACE_ACTIONS: tuple[type, ...] = (Buzz, Play, Catch)
"""Out-of-turn actions that race other seats (decided by the host's order of arrival): they
wait a reaction time. A catch races the forgetful player's late call and the next player's
move, under any rules; a bot's own UNO call goes at the table's bot pace."""

THINK_SLICE = 0.04
"""How long a bot's search runs at one go in the host's loop before the host serves its
connections again (a strong bot thinks for most of a second, in slices: Bot.ponder). Forty
milliseconds is a frame or two of a terminal, and about ten playouts of the search."""

DECLINED = float("inf")
"""The time of a chance the bot let go: it is not asked again until the chance changes."""


def check_level(level: str | None) -> str:
    """The policy name to use; ValueError for one that does not exist."""
    chosen = level or DEFAULT_LEVEL
    if chosen not in POLICIES:
        raise ValueError(f"unknown bot level {chosen!r}; known: {', '.join(sorted(POLICIES))}")
    return chosen


class SeatBots:
    """One policy per seat of `match`, fed the events each seat may see, with the reaction
    times of their race chances (`reaction`: the range, in seconds)."""

    def __init__(self, match: Match, levels: Sequence[str | None], seed: int = 0,
                 reaction: tuple[float, float] = (0.0, 0.0),
                 budget: SearchBudget | None = None) -> None:
        self.match = match
        self.policies: list[Bot] = [
            make_bot(check_level(level), seat, match.rules, match.manifest, seed=seed + seat,
                     budget=budget)
            for seat, level in enumerate(levels)
        ]
        self.thinking = False
        """Whether the last `decide` left a bot's search half done: ask again soon."""
        self.reaction = reaction
        rules = match.rules
        self.races = rules.jump_in != "off" or rules.sequences or rules.buzzers
        """Whether these rules have races besides catches: without, `schedule` looks only while
        someone may be caught (a table of bots under the official rules pays little for it)."""
        self.rng = random.Random(seed)
        self.round_events: list[Event] = []
        """The current round's events from its RoundStarted on (before the first round: the
        events so far), for `_policy` to feed; cleared at each RoundStarted."""
        self.fed = [0] * len(self.policies)
        """Per seat, how many of `round_events` its policy has been fed."""
        self.chances: dict[int, tuple[tuple[Hashable, tuple[Action, ...]], float]] = {}
        """seat -> (the chance it has, when it takes it): a chance is the seat's race actions
        with the table's state they belong to, so a new chance draws a new reaction time."""

    def observe(self, events: Iterable[Event]) -> None:
        """Keep the round's events; a policy is fed them when its seat is asked to act
        (`_policy`): most seats are players', whose policies may never be asked, and feeding
        every policy every event was work the host did on each action for nothing."""
        for event in events:
            if isinstance(event, RoundStarted):
                self.round_events.clear()
                self.fed = [0] * len(self.policies)
            self.round_events.append(event)

    def _policy(self, seat: int) -> Bot:
        """`seat`'s policy, fed first the events of the round its seat may see that it has
        not seen yet (a stand-in taking over in mid-round learns the round so far)."""
        policy = self.policies[seat]
        events = self.round_events
        start = self.fed[seat]
        if start < len(events):
            for event in events[start:]:
                audience = event.audience
                if audience is None or seat in audience:
                    policy.observe(event)
            self.fed[seat] = len(events)
        return policy

    # -- decisions and UNO calls, at the table's bot pace ------------------------------------

    def has_work(self, controlled: Iterable[int]) -> bool:
        """Whether `decide` has something to ask: a bot's pending decision, or an UNO call a
        bot may make."""
        return any(self._decision(seat) or self._calls(seat) for seat in controlled)

    def decide(self, controlled: Iterable[int]) -> tuple[int, Action] | None:
        """The next action of a bot-controlled seat: its own UNO call first, as the bot
        driver does, else the pending decision if a bot holds it. Races are not here: see
        `race`; a seat about to catch someone makes its decision after (its move would close
        the window). None with `thinking` set: a bot thought for THINK_SLICE and is not done
        (ask again once the host has served its connections)."""
        match = self.match
        seats = sorted(controlled)
        self.thinking = False
        for seat in seats:
            calls = self._calls(seat)
            if calls:
                action = self._policy(seat).react(match.view(seat), calls)
                if action is not None:
                    return seat, action
        for seat in seats:
            legal = self._decision(seat)
            if legal:
                action = self._policy(seat).ponder(match.view(seat), legal, THINK_SLICE)
                if action is None:  # a search under way: the host comes back to it
                    self.thinking = True
                    return None
                return seat, action
        return None

    def _decision(self, seat: int) -> list[Action]:
        """The legal list of `seat` if it holds the pending decision (a buzzer race is none)
        and has no catch waiting for its reaction time."""
        match = self.match
        if match.pending_seat != seat or self._catching(seat):
            return []
        legal = match.legal_actions(seat)
        return legal if legal and is_deciding(match.view(seat), legal) else []

    def _calls(self, seat: int) -> list[Action]:
        return [a for a in self.match.legal_actions(seat) if isinstance(a, CallUno)]

    def _catching(self, seat: int) -> bool:
        """Whether `seat` has a chance to catch someone it has not yet let go."""
        known = self.chances.get(seat)
        return (known is not None and known[1] != DECLINED
                and any(isinstance(a, Catch) for a in known[0][1]))

    # -- races, after a reaction time ------------------------------------------------------

    def schedule(self, controlled: Iterable[int], now: float) -> float | None:
        """Note the race chances the controlled seats have now, drawing a reaction time for
        each new one; the earliest time one of them is due (None: no chance open)."""
        seats = list(controlled)
        if not seats:  # nobody to race for (a table of players): no view to build
            self.chances.clear()
            return None
        match = self.match
        public = match.view(None)
        if not self.races and not any(s.catchable for s in public.seats):
            self.chances.clear()
            return None
        state = (public.round_no, public.phase, public.current, public.top_card)
        seen: set[int] = set()
        for seat in seats:
            races = tuple(a for a in self._races(seat) if isinstance(a, RACE_ACTIONS))
            if not races:
                continue
            seen.add(seat)
            chance = (state, races)
            known = self.chances.get(seat)
            if known is None or known[0] != chance:
                low, high = self.reaction
                self.chances[seat] = (chance, now + self.rng.uniform(low, high))
        for seat in [s for s in self.chances if s not in seen]:
            del self.chances[seat]
        return self.next_race()

    def next_race(self) -> float | None:
        due = [at for _, at in self.chances.values() if at != DECLINED]
        return min(due) if due else None

    def race(self, now: float) -> tuple[int, Action] | None:
        """The race action of the seat whose reaction time is up first (by `now`), if its
        policy takes the chance; a chance let go is not offered again until it changes."""
        due = sorted((at, seat) for seat, (_, at) in self.chances.items() if at <= now)
        for _, seat in due:
            chance, _ = self.chances[seat]
            self.chances[seat] = (chance, DECLINED)
            legal = self._races(seat)
            action = self._policy(seat).react(self.match.view(seat), legal) if legal \
                else None
            if action is not None:
                return seat, action
        return None

    def _races(self, seat: int) -> list[Action]:
        """What `seat` may do out of turn now (races, and the calls that come with them)."""
        legal = self.match.legal_actions(seat)
        return out_of_turn(self.match.view(seat), legal) if legal else []
