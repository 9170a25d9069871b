"""A bot that plays through the network like any client: `unonet bot HOST:PORT`.

It speaks the protocol through the sans-IO ClientSession, checks the host with the trust
verifier (seeds, card proofs, audits), and decides with the engine's bot policies from the
snapshot view, asking for a fresh snapshot (`resync`) whenever it has something to decide, so
it needs no game logic of its own. It takes an already-open stream: TLS and the fingerprint pin
are the caller's (unonet/cli.py uses client/tls.py; host must not import client).

It lives in host/ until the client package takes it over.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import trio

from protocol.client_session import (
    ClientSession,
    GameEvent,
    MessageReceived,
    PeerError,
    RequestAccepted,
    RequestRefused,
    SessionEvent,
    Snapshot,
    Welcomed,
)
from protocol.connection import ConnectionClosed, ConnectionFailed
from protocol.limits import LENGTH_PREFIX_SIZE, RATE_BURST, RATE_PER_SECOND, RECEIVE_CHUNK
from protocol.trust.messages import MESSAGE_TYPES, EventProof, message_from_dict
from protocol.trust.results import Violation
from protocol.trust.verifier import TrustVerifier
from unonet.actions import Action, CallUno, Catch
from unonet.bots import POLICIES, Bot
from unonet.cards import Color, DeckManifest, Face, Kind, build_manifest
from unonet.events import Event, MatchEnded
from unonet.rules import RuleSet
from unonet.view import Pending, SeatView, View

log = logging.getLogger("unonet.netbot")

DEFAULT_THINK = 0.1
"""Seconds before each action: a decision costs two frames (resync, intent), so this keeps a bot
at 20 frames a second, well under the host's rate limit (protocol.limits.RATE_PER_SECOND)."""

MAX_REFUSALS = 5
"""Refused intents in a row before the bot stops deciding until something changes."""

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


@dataclass
class BotResult:
    """How the bot's session went: what it saw and what the verifier found."""

    seat: int | None = None
    token: bytes | None = None
    matches: list[MatchEnded] = field(default_factory=list)
    violations: list[Violation] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)
    intents: int = 0
    closed: str | None = None
    latencies: list[float] = field(default_factory=list)  # seconds from intent to its answer


def view_from_wire(data: Mapping[str, Any]) -> View:
    """The engine's View from a snapshot's `view` map (the inverse of encode_value)."""
    pending = data.get("pending")
    return View(
        seat=data["seat"],
        round_no=data["round_no"],
        phase=data["phase"],
        dealer=data["dealer"],
        current=data["current"],
        direction=data["direction"],
        hand=tuple(data["hand"]),
        seats=tuple(SeatView(**s) for s in data["seats"]),
        top_card=data["top_card"],
        active_color=_color(data["active_color"]),
        draw_pile=data["draw_pile"],
        discard_pile=data["discard_pile"],
        drawn_card=data["drawn_card"],
        pending=None if pending is None else Pending(
            pending["kind"], pending["seat"], pending.get("target"),
            _color(pending.get("color_before")), pending.get("target_cards"),
        ),
        round_winner=data["round_winner"],
        match_winner=data["match_winner"],
    )


def manifest_from_wire(data: Mapping[str, Any]) -> DeckManifest:
    sides = [
        [Face(Kind(f["kind"]), _color(f.get("color")), f.get("number"), f["points"])
         for f in card]
        for card in data["cards"]
    ]
    return build_manifest(str(data["name"]), sides)


def _color(value: Any) -> Color | None:
    return None if value is None else Color(value)


class NetworkBot:
    """The decisions and bookkeeping of one bot connection, fed SessionEvents."""

    def __init__(self, session: ClientSession, name: str, level: str, table: int | None,
                 matches: int) -> None:
        self.session = session
        self.name = name
        self.level = level
        self.table = table
        self.matches_wanted = matches
        self.result = BotResult()
        self.rules = RuleSet()
        self.manifest: DeckManifest | None = None
        self.verifier: TrustVerifier | None = None
        self.policy: Bot | None = None
        self.outstanding: int | None = None  # the request id we wait on before deciding
        self.want_decision = False
        self.refused_in_a_row = 0
        self.done = False
        self.ready_sent = False
        self.contributing = True  # False after a resume until its snapshot: the trust
        # messages before it belong to a round whose commitments are closed to us
        self.limits: Mapping[str, int] = {}  # welcome.limits: the pace the host allows

    # -- events -> frames ------------------------------------------------------------------

    def handle(self, events: Sequence[SessionEvent]) -> list[bytes]:
        out: list[bytes] = []
        for event in events:
            if self.done:
                break  # we said bye: what came with it is not ours to answer
            out += self._handle(event)
        if self.want_decision and self.outstanding is None and not self.done:
            self.want_decision = False
            # A plain request, not session.resync(): that one drops the events in flight (it
            # is for gaps), and the verifier must see every event.
            request, frame = self.session.request("resync")
            self.outstanding = request
            out.append(frame)
        return out

    def _handle(self, event: SessionEvent) -> list[bytes]:
        if isinstance(event, Welcomed):
            self.limits = event.limits
            if event.session is not None:  # a resumed seat: the snapshot follows
                self.result.seat = event.session["seat"]
                self.contributing = False
                return []
            if self.table is None:
                return [self.session.request("list_tables")[1]]
            return [self._join(self.table)]
        if isinstance(event, MessageReceived):
            return self._message(event.message)
        if isinstance(event, Snapshot):
            self.outstanding = None  # a snapshot answers our resync (or opens a resume)
            if not self.contributing and self.verifier is not None:
                current = self.verifier.current  # resumed into a dealt round: we missed some
                if current is not None and 0 in current.decks and not current.audited:
                    self.verifier.joined_mid_round()
            self.contributing = True  # a round_prepare after it is a round we can seed
            return self._decide(view_from_wire(event.view), event.legal)
        if isinstance(event, GameEvent):
            return self._game_event(event)
        if isinstance(event, RequestAccepted):
            if event.id == self.outstanding and event.request["t"] == "intent":
                self.outstanding = None
                self.refused_in_a_row = 0
            return []
        if isinstance(event, RequestRefused):
            return self._refused(event)
        if isinstance(event, PeerError):
            log.info("%s: host error %s: %s", self.name, event.error.code, event.error.message)
            self.result.refusals.append(event.error.code)
            return []
        if isinstance(event, ConnectionFailed | ConnectionClosed):
            self.done = True
            self.result.closed = getattr(event, "reason", None) or (
                event.error.code if isinstance(event, ConnectionFailed) else "eof")
        return []

    def _join(self, table: int) -> bytes:
        return self.session.request("join_table", table=table, name=self.name)[1]

    def _message(self, message: Mapping[str, Any]) -> list[bytes]:
        kind = message["t"]
        if kind == "tables":
            free = [t for t in message["tables"] if not t["started"] and t["players"] < t["seats"]]
            if not free:
                log.warning("%s: no table with a free seat", self.name)
                self.done = True
                return [self.session.close("quit", "no free seat")]
            self.table = free[0]["table"]
            return [self._join(free[0]["table"])]
        if kind == "seated":
            self.result.seat = message["seat"]
            self.result.token = message["token"]
        elif kind == "table_state":
            self.result.seat = message.get("you", self.result.seat)
            self.rules = RuleSet.from_dict(dict(message["rules"]))
            mine = next((s for s in message["seats"] if s["seat"] == self.result.seat), None)
            if message["started"]:
                self.ready_sent = False
            elif mine is not None and not mine["ready"] and not self.ready_sent:
                self.ready_sent = True
                return [self.session.request("ready", ready=True)[1]]
        elif kind == "manifest":
            self.manifest = manifest_from_wire(message)
            self.verifier = TrustVerifier(self.manifest, self.result.seat)
            self.policy = POLICIES[self.level](self.result.seat or 0, self.rules, self.manifest)
        elif kind in MESSAGE_TYPES and self.verifier is not None:
            return self._trust(kind, message)
        return []

    def _trust(self, kind: str, message: Mapping[str, Any]) -> list[bytes]:
        assert self.verifier is not None
        self._check(self.verifier.message(message_from_dict(kind, message)))
        if kind == "round_prepare" and self.result.seat is not None and self.contributing:
            commit = self.verifier.contribute()
            return [self.session.send({"t": "seed_commit", **commit.to_dict()})]
        if kind == "seed_commits" and self.result.seat is not None:
            current = self.verifier.current
            if current is not None and current.own_seed is not None:
                reveal = self.verifier.reveal()
                return [self.session.send({"t": "seed_reveal", **reveal.to_dict()})]
        return []

    def _game_event(self, event: GameEvent) -> list[bytes]:
        if isinstance(event.event, Event):
            if self.verifier is not None:
                self._check(self.verifier.event(event.event, EventProof.from_dict(event.proof)))
            if self.policy is not None:
                self.policy.observe(event.event)
            if isinstance(event.event, MatchEnded):
                self.result.matches.append(event.event)
                if len(self.result.matches) >= self.matches_wanted:
                    self.done = True
                    return [self.session.close("quit", "match over")]
        if event.legal:
            self.want_decision = True
        return []

    def _refused(self, event: RequestRefused) -> list[bytes]:
        code = event.error.code
        self.result.refusals.append(code)
        log.info("%s: %s refused: %s", self.name, event.request["t"], event.error)
        if event.id == self.outstanding:
            self.outstanding = None
            self.refused_in_a_row += 1
            if self.refused_in_a_row < MAX_REFUSALS:
                self.want_decision = True
        return []

    def _decide(self, view: View, legal: Sequence[Action]) -> list[bytes]:
        if not legal or self.policy is None or self.done:
            return []
        reactions = [a for a in legal if isinstance(a, CallUno | Catch)]
        action: Action | None
        if len(reactions) < len(legal):
            action = self.policy.act(view, legal)
        else:
            action = self.policy.react(view, reactions)
        if action is None:
            return []
        request, frame = self.session.intent(action)
        self.outstanding = request
        self.result.intents += 1
        return [frame]

    def _check(self, outcome: object) -> None:
        if isinstance(outcome, Violation):
            log.warning("%s: the host failed a check: %s", self.name, outcome)
            self.result.violations.append(outcome)


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
) -> BotResult:
    """Play `matches` matches at `table` (the first with a free seat if None) over `stream`,
    waiting `think` seconds before each action; `observe` sees every session event (tests,
    tools); `result`, if given, is filled as the bot plays (a caller may cancel it)."""
    session = ClientSession(client_name="unonet-bot", name=name, resume=resume)
    bot = NetworkBot(session, name, level, table, matches)
    if result is not None:
        bot.result = result
    pacer = Pacer(trio.current_time())
    sent_at: dict[int, float] = {}  # request id of an intent -> when it went out
    await stream.send_all(session.hello())
    while not bot.done:
        try:
            data = bytes(await stream.receive_some(RECEIVE_CHUNK))
        except (trio.BrokenResourceError, trio.ClosedResourceError) as exc:
            log.info("%s: connection lost: %s", name, exc)
            data = b""
        arrived = trio.current_time()
        intents = bot.result.intents
        welcomed = bool(bot.limits)
        received = session.receive_data(data)
        for item in received:
            if isinstance(item, RequestAccepted | RequestRefused) and item.id in sent_at:
                bot.result.latencies.append(arrived - sent_at.pop(item.id))
        if observe is not None:
            observe(received)
        frames = bot.handle(received)
        if bot.limits and not welcomed:
            pacer.set_limits(trio.current_time(), bot.limits.get("rate", RATE_PER_SECOND),
                             bot.limits.get("burst", RATE_BURST))
        if bot.result.intents > intents and think > 0:
            await trio.sleep(think)
        pending = session.data_to_send() + b"".join(frames)
        if pending:
            await trio.sleep(pacer.delay(trio.current_time(), count_frames(pending)))
            try:
                await stream.send_all(pending)
            except (trio.BrokenResourceError, trio.ClosedResourceError) as exc:
                log.info("%s: connection lost while sending: %s", name, exc)
                bot.done = True
            if bot.result.intents > intents and bot.outstanding is not None:
                sent_at[bot.outstanding] = trio.current_time()
        if not data:
            bot.done = True
    if bot.verifier is not None:
        bot.result.violations = bot.verifier.violations()
    return bot.result
