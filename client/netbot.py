"""A bot that plays through the network like any client: `unonet bot HOST:PORT`.

It is a client: the same LinkSession as the terminal client speaks the protocol (client/wire.py
decodes views, manifests and lobbies; client/trust_gate.py runs one trust verifier per match
over signatures, seeds, card proofs, resumed rounds' histories and audits, and contributes our
seed each round), and client/fold.py's ViewTracker
keeps the seat's view current from the events, as the screen's does. Each event carries the
seat's legal actions (SPEC.md 9.4), so the bot decides from the folded view and the newest
`legal` with the engine's bot policies, and sends one frame per decision: its intent. A fresh
snapshot is asked for only when the session sees a sequence gap (SPEC.md UNO-8-21) or an
intent is refused with nothing newer to decide from.

A race (pressing B, a jump-in, the next card of its run, catching a player who forgot UNO) is
held for a reaction time, as a person's would be, and sent only if the newest legal list still
offers it when that time is up: a person at the table can beat the bot to it (or call a late
UNO), and the bot does not throw a card too late. Its own turn waits for a catch it holds, as
its move would close the window. Whether it forgets its own UNO is its policy's (a forget rate
per level, drawn from the policy's seeded stream).

It takes an already-open stream: TLS and the fingerprint pin are the caller's (unonet/cli.py
uses client/tls.py).
"""

from __future__ import annotations

import logging
import math
import random
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import trio

from client.command_words import command_words
from client.fold import ViewTracker
from client.link import (
    GameEvent,
    LobbyChanged,
    ManifestReceived,
    MissedEvents,
    Refused,
    Snapshot,
    TablesListed,
    TrustReport,
    Update,
)
from client.link_session import LinkSession
from client.lobby import JoinTable
from client.safe_text import shown
from client.trust_gate import AuditClock
from protocol.client_session import GameEvent as WireGameEvent
from protocol.client_session import (
    MessageReceived,
    RequestAccepted,
    RequestRefused,
    ResyncNeeded,
    SessionEvent,
)
from protocol.client_session import Snapshot as WireSnapshot
from protocol.client_session import TrustReport as WireTrustReport
from protocol.errors import ProtocolError
from protocol.limits import LENGTH_PREFIX_SIZE, RATE_BURST, RATE_PER_SECOND, RECEIVE_CHUNK
from protocol.trust.results import RoundStatus, Violation
from unonet.actions import Action, Buzz, CallUno, Catch, Play
from unonet.bot_settings import HUMAN_REACTION
from unonet.bots import Bot, SearchBudget, make_bot
from unonet.bots.base import is_deciding, out_of_turn
from unonet.cards import DeckManifest
from unonet.events import MatchEnded
from unonet.rules import RuleSet

log = logging.getLogger("unonet.netbot")

DEFAULT_THINK = 0.1
"""Seconds before each action: a decision costs one frame (the intent), so this keeps a bot
at about 10 frames a second, well under the host's rate limit (protocol.limits.RATE_PER_SECOND)."""

MAX_REFUSALS = 5
"""Refused intents in a row before the bot stops deciding until something changes."""

REACTION = HUMAN_REACTION
"""The range of the bot's reaction time in a race (unonet.bot_settings.HUMAN_REACTION)."""

RACES: tuple[type, ...] = (Buzz, Play, Catch)
"""What the bot holds for a reaction time when it does it out of turn (or, a catch, before its
own decision): what other seats race it for. Its own UNO call goes at once."""

PACE_MARGIN = 0.8
"""The share of the host's announced rate and burst the bot allows itself (UNO-8-2: never
more than `welcome.limits`), leaving room for the two clocks' drift."""


def count_frames(data: bytes) -> int:
    """How many whole frames `data` holds (what the host's token bucket will charge)."""
    count = offset = 0
    while offset + LENGTH_PREFIX_SIZE <= len(data):
        offset += LENGTH_PREFIX_SIZE + int.from_bytes(data[offset:offset + LENGTH_PREFIX_SIZE],
                                                     "big")
        count += 1
    return count


class Pacer:
    """Keeps what the bot sends within the host's announced rate and burst: a token bucket of
    our own, waited on rather than overdrawn."""

    def __init__(self, now: float, rate: float = RATE_PER_SECOND,
                 burst: int = RATE_BURST) -> None:
        self.set_limits(now, rate, burst)

    def set_limits(self, now: float, rate: float, burst: int) -> None:
        self.rate = max(1.0, rate * PACE_MARGIN)
        self.burst = max(1, int(burst * PACE_MARGIN))
        self.tokens = float(self.burst)
        self.updated = now  # the time `tokens` is counted at (may be ahead of now: a wait)

    def delay(self, now: float, frames: int) -> float:
        """Seconds to wait before sending `frames` frames; the tokens are spent at once."""
        if now > self.updated:
            self.tokens = min(self.burst, self.tokens + (now - self.updated) * self.rate)
            self.updated = now
        self.tokens -= min(frames, self.burst)
        if self.tokens < 0:
            self.updated += -self.tokens / self.rate
            self.tokens = 0.0
        return self.updated - now


@dataclass(frozen=True, slots=True)
class RoundCheck:
    """What the verifier said of a round when its audit came: its status ("audited": every
    event it got, live or in a round_history, checked and the audit held; "missed": this
    connection came after the round, so only its seeds were checked; "violated") and how many
    of the round's events it checked."""

    status: RoundStatus
    events: int


@dataclass
class BotResult:
    """How the bot's session went: what it saw and what the verifier found."""

    seat: int | None = None
    token: bytes | None = None
    matches: list[MatchEnded] = field(default_factory=list)
    audited: list[int] = field(default_factory=list)
    """Rounds audited with every event checked (not missed, nothing violated), in order."""
    abandoned: list[int] = field(default_factory=list)
    """Rounds audited as abandoned before their deal: no card dealt, so none audited in full
    (a round given up after its seeds came in is a violation instead)."""
    moves_checked: int = 0
    """The bot's own moves the host accepted and the record showed exactly as sent."""
    rounds: dict[int, RoundCheck] = field(default_factory=dict)  # by round number
    other_sides_checked: int = 0
    """UNO Flip: faces shown of the side not in play (hands, the draw pile's top) that the
    passed audits checked against the deck the seeds produce."""
    violations: list[Violation] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)
    intents: int = 0
    closed: str | None = None
    """Why the session ended, as the host or the link said it (a diagnostic, in English)."""
    closed_code: str = ""
    """What ended it, for the command to say it in its reader's words (a protocol code, a bye
    reason or one of the link's own, as the screen's `Ended.code`)."""
    welcomed: bool = False
    """The host answered our hello."""
    closed_silently: bool = False
    """The host closed the stream without a word (what a TLS host does to plain bytes)."""
    latencies: list[float] = field(default_factory=list)  # seconds from intent to its answer
    names: dict[int, str] = field(default_factory=dict)
    """Each seat's name as the table's lobby last said it (the host's words: escape them)."""
    judged: int = 0
    """Rounds whose audit the verifier judged, over every match (`rounds` keeps the last
    match's by number)."""


def report_lines(result: BotResult, lang: str = "en") -> list[str]:
    """What `unonet bot` prints of its session, in `lang`: each match's winner and scores by
    name (it said "seat 1 wins, scores [238, 684]", in the host log's seat numbers, never
    saying which seat was the bot), then what the deck checks covered: "no violation" is said
    only of what was checked."""
    def words(key: str, **values: object) -> str:
        return command_words(lang, key, **values)

    def name(seat: int) -> str:
        given = shown(result.names.get(seat) or words("bot.seat", seat=seat))
        return words("bot.this", name=given) if seat == result.seat else given

    lines = []
    for number, ended in enumerate(result.matches, 1):
        scores = ", ".join(f"{name(seat)} {score}" for seat, score in enumerate(ended.scores))
        lines.append(words("bot.match", number=number, winner=name(ended.winner),
                           scores=scores))
    rounds = result.judged
    checked = words("bot.checked", audited=len(result.audited),
                    rounds=words("rounds", count=rounds))
    if result.abandoned:  # no card of them was dealt: nothing in them was audited in full
        checked += words("bot.abandoned", count=len(result.abandoned))
    if result.violations:
        lines.append(words("bot.violations", checked=checked,
                           violations=words("violations", count=len(result.violations))))
    elif rounds and len(result.audited) == rounds:
        lines.append(words("bot.held", checked=checked))
    elif rounds:  # a round not watched whole (a resume) or abandoned: no claim for its cards
        lines.append(words("bot.partly", checked=checked))
    if result.moves_checked:
        lines.append(words("bot.moves", count=result.moves_checked))
    return lines


class NetworkBot:
    """The decisions and bookkeeping of one bot connection, sans-IO: bytes in, bytes out."""

    def __init__(self, name: str, level: str = "normal", table: int | None = None,
                 matches: int = 1, resume: bytes | None = None,
                 observe: Callable[[Sequence[SessionEvent]], None] | None = None,
                 verify: bool = True, reaction: tuple[float, float] = REACTION,
                 seed: int | None = None, budget: SearchBudget | None = None) -> None:
        self.link = LinkSession(name, table=table, client_name="unonet-bot",
                                observe=self._session_events, verify=verify)
        self.verify = verify
        self.asked_table = table
        """The table the bot was sent to (--table), else None: the first with a free seat."""
        self.link.token = resume
        self.name = name
        self.level = level
        self.budget = budget  # the strong policy's think budget (None: its default)
        self.matches_wanted = matches
        self.observe = observe
        self.result = BotResult(token=resume)
        self.rules = RuleSet()
        self.manifest: DeckManifest | None = None
        self.policy: Bot | None = None
        self._policy_key: tuple[int | None, RuleSet, DeckManifest] | None = None
        """The seat, rules and deck the policy was made for."""
        self.tracker: ViewTracker | None = None
        self.legal: tuple[Action, ...] = ()
        self.fresh = False  # `legal` arrived after our last decision: it is ours to answer
        self.outstanding: int | None = None  # the request id we wait on before deciding
        self.refused_in_a_row = 0
        self.reaction = reaction
        self.rng = random.Random(zlib.crc32(name.encode()) if seed is None else seed)
        self.held: tuple[Action, float] | None = None  # a race action and when to send it
        self.done = False
        self.leaving = False  # the last match ended: we go once its final audit has come
        self.final_audit = False  # a round_audit came after the last MatchEnded
        self.ready_sent = False
        self.limits_changed = False
        self.now = 0.0  # when the bytes being handled arrived (the driver's clock)
        self.sent_at: dict[int, float] = {}  # request id of an intent -> when it went out
        self._unsent_intent: int | None = None
        self.audits = AuditClock()  # the audit a round owes, due AUDIT_DEADLINE after its end

    # -- the driver's side ---------------------------------------------------------------------

    def hello(self) -> bytes:
        return self.link.connect()

    def receive(self, data: bytes, now: float) -> bytes:
        """Bytes from the host (b"" for EOF) that arrived at `now`: the frames to send."""
        self.now = now
        out = self.link.receive(data)
        self.audits.update(self.link.audit_owed(), now)
        frames = bytearray(out.frames)
        for update in out.updates:
            if self.done:
                break  # we said bye: what came with it is not ours to answer
            frames += self._update(update)
        if self.leaving and self.final_audit and not self.done:
            frames += self._leave("match over")
        self._collect_violations()
        self.result.token = self.link.token or self.result.token
        if self.link.seat is not None:
            self.result.seat = self.link.seat
        if out.ended is not None and not self.done:
            self.done = True
            self.result.closed = out.ended.reason
            self.result.closed_code = out.ended.code
            self.result.closed_silently = out.ended.silent
        if not data:
            self.done = True
            if not self.result.closed:
                self.result.closed, self.result.closed_code = "the host closed the " \
                    "connection", "host_closed"
        frames += self._decide()
        return bytes(frames)

    @property
    def wake_at(self) -> float | None:
        """When `wake` must run with no bytes come: a held race action's time, or the time a
        round's audit is overdue."""
        if self.done:
            return None
        times = [self.audits.deadline]
        if self.held is not None and self.outstanding is None:
            times.append(self.held[1])
        due = [t for t in times if t is not None]
        return min(due) if due else None

    def wake(self, now: float) -> bytes:
        """Time passed with nothing from the host (see `wake_at`): the frames to send."""
        self.now = now
        frames = bytearray()
        overdue = self.audits.due(now)
        if overdue is not None:
            self.link.audit_overdue(overdue)  # the violation: the gate keeps it
            self._collect_violations()
            if self.leaving and not self.done:  # the match's last audit never came
                frames += self._leave("match over; its last audit never came")
        frames += self._decide()
        return bytes(frames)

    def sent(self, now: float) -> None:
        """What `receive` returned went out at `now` (the intent's latency starts here)."""
        if self._unsent_intent is not None:
            self.sent_at[self._unsent_intent] = now
            self._unsent_intent = None

    def finish(self) -> BotResult:
        """The session is over: the match too, for the gate (an audit still owed counts)."""
        self.link.gate.leave()
        self._collect_violations()
        return self.result

    @property
    def limits(self) -> dict[str, int]:
        return dict(self.link.limits)

    # -- session events: answers to our requests ----------------------------------------------

    def _session_events(self, events: Sequence[SessionEvent]) -> None:
        """In stream order: what a legal list is worth depends on where it stands against the
        answer to our intent (the events before an `accepted` predate our action)."""
        for event in events:
            if isinstance(event, WireGameEvent | WireSnapshot):
                self.legal, self.fresh = event.legal, True
            elif isinstance(event, RequestAccepted | RequestRefused):
                sent = self.sent_at.pop(event.id, None)
                if sent is not None:
                    self.result.latencies.append(self.now - sent)
                if event.id == self.outstanding:
                    self.outstanding = None
                    if isinstance(event, RequestRefused):
                        self._refused(event)
                    elif event.request["t"] == "intent":
                        self.refused_in_a_row = 0
                        self.fresh = False  # its events, with the legal list after it, follow
            elif isinstance(event, ResyncNeeded):
                self.fresh = False  # events are dropped until the snapshot the session asked
            elif isinstance(event, WireGameEvent) and isinstance(event.event, MatchEnded):
                self.final_audit = False
            elif isinstance(event, MessageReceived) and event.message.get("t") == "round_audit":
                self.final_audit = True
            elif (isinstance(event, WireTrustReport) and event.message_type == "round_audit"
                  and isinstance(event.outcome, TrustReport)):
                self._audit_reported(event.outcome)  # the gate's report

        if self.observe is not None:
            self.observe(events)

    def _audit_reported(self, report: TrustReport) -> None:
        """Record what the verifier said of the round a round_audit closed, as the gate's
        report carries it (by the time the bot reads the reports, a rematch's manifest in
        the same read may have replaced the gate's verifier: a report read after said "0 of
        1 rounds audited" one time in three); a round audited in full counts, with its
        other-side faces checked (UNO Flip)."""
        closed, round_no = report.closed, report.round_no
        if closed is None or round_no is None:
            return
        self.result.judged += 1
        self.result.rounds[round_no] = RoundCheck(closed.status, closed.events)
        if closed.status == "audited" and closed.abandoned:
            self.result.abandoned.append(round_no)
        elif closed.status == "audited":
            self.result.audited.append(round_no)
            self.result.other_sides_checked += closed.other_sides

    def _refused(self, event: RequestRefused) -> None:
        log.info("%s: %s refused: %s", self.name, event.request["t"], event.error)
        if event.request["t"] != "intent":
            return
        self.refused_in_a_row += 1
        if self.refused_in_a_row >= MAX_REFUSALS:
            self.fresh = False  # stop until something changes
        # Otherwise a newer legal list, if one came, is answered; else `_decide` asks for a
        # snapshot (a plain request: session.resync() would hide the events in flight from
        # the verifier, which must see every one).

    # -- updates: what the host's messages mean ---------------------------------------------

    def _update(self, update: Update) -> bytes:
        if isinstance(update, GameEvent):
            return self._event(update)
        if isinstance(update, Snapshot):
            if self.manifest is not None:
                self.tracker = ViewTracker(update.view, self.manifest)
        elif isinstance(update, ManifestReceived):
            self.manifest = update.manifest
            self.result.seat = self.link.seat
            key = (self.link.seat, self.rules, update.manifest)
            if self.policy is None or key != self._policy_key:
                # A reconnection to the same seat of the same match keeps the policy: what it
                # observed stays, and the round's missed events (MissedEvents) complete it.
                self.policy = make_bot(self.level, self.link.seat or 0, self.rules,
                                       self.manifest, seed=self.rng.getrandbits(32),
                                       budget=self.budget)
                self._policy_key = key
            self.tracker = None  # until the snapshot that follows
        elif isinstance(update, MissedEvents):
            # The round so far, as far as this link had not told it (a resume, a reconnection):
            # the policy counts the cards of the whole round, not only those after it.
            if self.policy is not None:
                for event in update.events:
                    self.policy.observe(event)
        elif isinstance(update, LobbyChanged):
            return self._lobby(update)
        elif isinstance(update, TablesListed):
            free = [t for t in update.tables if not t.started and t.players < t.seats]
            if not free:
                log.info("%s: no table with a free seat", self.name)
                self.result.closed = "no table with a free seat"
                return self._leave("no free seat")
            self.link.table = free[0].table
            return bytes(self.link.command(JoinTable(free[0].table, self.link.name)).frames)
        elif isinstance(update, Refused):
            log.info("%s: refused: %s %s", self.name, update.code, update.message)
            self.result.refusals.append(update.code)
            if (self.asked_table is not None and self.link.seat is None
                    and self.result.seat is None):
                # The table it was sent to refused it (no such table, full, started): it
                # does not sit elsewhere instead, nor wait, but says why and leaves. A bot
                # that chose a table itself chooses again from the list that follows.
                self.result.closed = f"{update.code}: {update.message}".rstrip(": ")
                self.result.closed_code = update.code
                return self._leave("not seated")
        return b""

    def _lobby(self, update: LobbyChanged) -> bytes:
        lobby = update.lobby
        if lobby.you is not None:
            self.result.seat = lobby.you
        self.rules = RuleSet.from_dict(dict(lobby.rules))
        self.result.names = {s.seat: s.name for s in lobby.seats if s.name}
        mine = next((s for s in lobby.seats if s.seat == self.result.seat), None)
        if self.leaving:
            return self._leave("match over")  # back in the lobby: no audit is coming now
        if lobby.started:
            self.ready_sent = False
        elif mine is not None and not mine.ready and not self.ready_sent:
            self.ready_sent = True
            return self.link.session.request("ready", ready=True)[1]
        return b""

    def _event(self, update: GameEvent) -> bytes:
        event = update.event
        if self.tracker is not None:
            self.tracker.apply(event)
        if self.policy is not None:
            self.policy.observe(event)
        if isinstance(event, MatchEnded):
            self.result.matches.append(event)
            if len(self.result.matches) >= self.matches_wanted:
                # The last round's audit follows MatchEnded: a verifying bot waits for it,
                # else the round that ended the match would go unchecked.
                self.leaving = True
                if not self.verify or self.final_audit:
                    return self._leave("match over")
            elif self.result.seat is not None:
                # More matches wanted: r on the score screen, a rematch ([UNO-8-11]); the
                # table waits for its players' answers, a bot's as anyone's.
                self.ready_sent = True
                return self.link.session.request("ready", ready=True)[1]
        return b""

    def _leave(self, why: str) -> bytes:
        self.done = True
        self.link.gate.leave()  # the match is over for us: what it still owes is a violation
        try:
            return self.link.session.close("quit", why)
        except ProtocolError:
            return b""

    def _collect_violations(self) -> None:
        """Every violation the gate found so far, every match (the same way the screen gets
        them: the gate keeps them all)."""
        if self.verify:  # else nothing was checked, and a verifier fed only seeds finds nothing
            self.result.violations = self.link.gate.violations()
            self.result.moves_checked = self.link.gate.moves_checked

    # -- deciding ---------------------------------------------------------------------------

    def _decide(self) -> bytes:
        if self.done or self.outstanding is not None:
            return b""
        if self.held is not None and not _offered(self.held[0], self.legal):
            self.held = None  # the chance went (someone was quicker, or play moved on)
        if self.held is not None and self.now >= self.held[1]:
            due, self.held = self.held[0], None
            return self._intent(due)
        if not self.fresh:
            if 0 < self.refused_in_a_row < MAX_REFUSALS and self.legal:
                # Refused, and nothing newer came: our view may be wrong, so ask for it.
                self.outstanding, frame = self.link.session.request("resync")
                self.legal = ()
                return frame
            return b""
        self.fresh = False
        legal, tracker, policy = self.legal, self.tracker, self.policy
        if not legal or tracker is None or policy is None:
            return b""
        view = tracker.view
        deciding = is_deciding(view, legal)
        action: Action | None
        if self.held is not None and (isinstance(self.held[0], Catch) or not deciding):
            # The held race or catch goes when its reaction time is up (a decision waits for
            # it); our own UNO call meanwhile goes now.
            own = [a for a in legal if isinstance(a, CallUno)]
            action = policy.react(view, own) if own else None
        elif deciding:
            self.held = None
            calls = [a for a in legal if isinstance(a, CallUno | Catch)]
            action = policy.react(view, calls) if calls else None
            if isinstance(action, Catch):
                return self._hold(action)
            if action is None:
                action = policy.act(view, legal)
        else:
            action = policy.react(view, out_of_turn(view, legal))
            if action is not None and isinstance(action, RACES):
                return self._hold(action)
        return b"" if action is None else self._intent(action)

    def _hold(self, action: Action) -> bytes:
        """Hold a race action (or a catch) for a reaction time; with none, send it now."""
        if self.reaction[1] <= 0:
            return self._intent(action)
        self.held = (action, self.now + self.rng.uniform(*self.reaction))
        return b""

    def _intent(self, action: Action) -> bytes:
        self.outstanding, frame = self.link.intent(action)
        self._unsent_intent = self.outstanding
        self.result.intents += 1
        return frame


def _offered(action: Action, legal: Sequence[Action]) -> bool:
    """Whether `legal` still offers `action` (a wild's colour is the bot's own choice)."""
    if isinstance(action, Play):
        return any(isinstance(a, Play) and (a.card, a.also) == (action.card, action.also)
                   for a in legal)
    return action in legal


async def play(
    stream: trio.abc.Stream,
    *,
    name: str = "bot",
    level: str = "normal",
    table: int | None = None,
    matches: int = 1,
    resume: bytes | None = None,
    think: float = DEFAULT_THINK,
    observe: Callable[[Sequence[SessionEvent]], None] | None = None,
    result: BotResult | None = None,
    verify: bool = True,
    reaction: tuple[float, float] = REACTION,
    budget: SearchBudget | None = None,
) -> BotResult:
    """Play `matches` matches at `table` (the first with a free seat if None) over `stream`,
    waiting `think` seconds before each action (the time the policy took to decide counts
    towards it: a strong bot thinks for most of a second, `budget`), and a time drawn from
    `reaction` before a race
    action (press B, play out of turn); `observe` sees every session event (tests, tools);
    `result`, if given, is filled as the bot plays (a caller may cancel it); `verify=False`
    checks none of the host's cards and audits (a load generator: the seed is still
    contributed, see client/trust_gate.py)."""
    bot = NetworkBot(name, level, table, matches, resume, observe, verify, reaction,
                     budget=budget)
    if result is not None:
        result.token = result.token or resume
        bot.result = result
    pacer = Pacer(trio.current_time())
    welcomed = False
    await stream.send_all(bot.hello())
    # The stream is read by a task of its own, so that waiting out a race's reaction time
    # never cancels a read (a cancelled read may break a TLS stream).
    incoming, received = trio.open_memory_channel[bytes](math.inf)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(_read, stream, incoming, name)
        while not bot.done:
            intents = bot.result.intents
            wake_at = bot.wake_at
            data: bytes | None = None
            with trio.move_on_at(math.inf if wake_at is None else wake_at):
                data = await received.receive()
            now = trio.current_time()
            pending = bot.wake(now) if data is None else bot.receive(data, now)
            decided = trio.current_time() - now  # what deciding took (a strong bot's search)
            if bot.link.limits and not welcomed:
                welcomed = bot.result.welcomed = True
                pacer.set_limits(now, bot.link.limits.get("rate", RATE_PER_SECOND),
                                 bot.link.limits.get("burst", RATE_BURST))
            if bot.result.intents > intents and think > decided:
                await trio.sleep(think - decided)
            if pending:
                await trio.sleep(pacer.delay(trio.current_time(), count_frames(pending)))
                try:
                    await stream.send_all(pending)
                except (trio.BrokenResourceError, trio.ClosedResourceError) as exc:
                    log.info("%s: connection lost while sending: %s", name, exc)
                    bot.done = True
                bot.sent(trio.current_time())
        nursery.cancel_scope.cancel()
    return bot.finish()


async def _read(stream: trio.abc.Stream, incoming: trio.MemorySendChannel[bytes],
                name: str) -> None:
    """Everything the host sends, as it comes; b"" once the stream ends or breaks."""
    async with incoming:
        while True:
            try:
                data = bytes(await stream.receive_some(RECEIVE_CHUNK))
            except (trio.BrokenResourceError, trio.ClosedResourceError) as exc:
                log.info("%s: connection lost: %s", name, exc)
                data = b""
            await incoming.send(data)
            if not data:
                return
