"""A host that runs rounds with the trust scheme, recorded as transcripts.

`play_round` runs a real engine round; `play_match` a whole match, one transcript per round, in
which the actions come from a `Chooser` (random by default; `drawn_chooser` has hypothesis draw
them in the property tests, so that a failing game shrinks); `ScriptedRound` writes a round
move by move (hands swapped, passed, returned under the pile...) with an honest host's proofs,
for checks that need an exact sequence of movements. Each delivery is what one audience
received: a trust message (signed by the host's key as it goes out) or an engine event with its
proof fields, in order; each round opens with round_prepare, seed_commits, seed_reveals and the
deal's deck_commits and closes with an audit whose outcome and events digest an honest host
computes from what it sent.

`replay` feeds a transcript to a `TrustVerifier` as a client session would; `replay_resumed`
cuts a round at event k, as a connection entering it then (a resume, a reconnect, a late
spectator) gets it: the manifest again, the round's trust messages so far, its events so far in
`round_history` chunks, then the rest live. Tests tamper with transcripts to play a dishonest
host; `set_event` re-digests, since a dishonest host digests what it sent.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from cryptography.hazmat.primitives.asymmetric import ec
from hypothesis import strategies as st

from protocol.game_codec import encode_event
from protocol.trust.challenge import is_guilty
from protocol.trust.deck import commit_order
from protocol.trust.host import HostCommitments
from protocol.trust.messages import (
    ABANDONED,
    ENDED,
    DeckCommits,
    EventProof,
    MatchIdentity,
    RoundAudit,
    RoundHistory,
    RoundPrepare,
    SeedCommits,
    SeedReveals,
    TrustMessage,
)
from protocol.trust.primitives import hand_digest, seed_commitment
from protocol.trust.signing import EventsDigest, Signer
from protocol.trust.verifier import TrustVerifier
from unonet import events as ev
from unonet.actions import Accept, Action, Challenge, Play
from unonet.cards import Color, DeckManifest, Kind
from unonet.events import Position
from unonet.match import IN_ROUND, MATCH_OVER, Match
from unonet.rules import RuleSet
from unonet.shuffle import deal_order

SIGNER = Signer.from_private_key(ec.generate_private_key(ec.SECP256R1()))
"""The test host's identity key (one per test run: signing is what costs, not the key)."""

Item = TrustMessage | tuple[ev.Event, EventProof]

ROUND_CAP = 5000
"""Actions after which a round that will not end is given up (its audit then says so, and the
verifiers flag it): a bound on a test's run time, not a rule."""


def identity(rules: RuleSet, seats: int, game_id: bytes) -> MatchIdentity:
    """The match's manifest, as the honest host announces it."""
    return MatchIdentity(game_id, seats, rules, rules.manifest(), SIGNER.signer)


@dataclass
class Delivery:
    audience: frozenset[int] | None  # None: everyone, spectators included
    item: Item
    wire: dict[str, Any] | None = None  # the map as sent, when a test forges it
    intent: tuple[int, Action] | None = None
    """On the first event of a seat's action: (seat, action), the intent that seat sent and the
    host accepted just before (SPEC.md [UNO-8-22]); its client feeds it to its verifier."""


@dataclass
class Transcript:
    match: MatchIdentity
    host: HostCommitments
    player_seeds: dict[int, bytes]
    deliveries: list[Delivery] = field(default_factory=list)
    dropped: set[int] = field(default_factory=set)
    """Seats that revealed their seed but whose reveal the host threw away (an attack): their
    clients reveal all the same. (A seat that never reveals is simply not in host.seeds.)"""

    @property
    def manifest(self) -> DeckManifest:
        return self.match.manifest

    def event_at(self, index: int) -> ev.Event:
        """The event of delivery `index`, which must be an event, not a trust message."""
        item = self.deliveries[index].item
        assert isinstance(item, tuple), f"delivery {index} is no event"
        return item[0]

    @property
    def seats(self) -> int:
        return self.match.seats

    def events(self) -> list[tuple[int, ev.Event, EventProof]]:
        """(index, event, proof) for every event delivery."""
        return [
            (i, d.item[0], d.item[1])
            for i, d in enumerate(self.deliveries)
            if isinstance(d.item, tuple)
        ]

    def find(self, kind: type[ev.Event]) -> list[tuple[int, ev.Event, EventProof]]:
        return [(i, e, p) for i, e, p in self.events() if isinstance(e, kind)]

    def set_event(self, index: int, event: ev.Event, proof: EventProof | None = None) -> None:
        """Replace an event (a dishonest host's lie), and digest what is now sent."""
        old = self.deliveries[index]
        assert isinstance(old.item, tuple)
        self.deliveries[index] = replace(old, item=(event, proof or old.item[1]), wire=None)
        self.redigest()

    def messages(self, kind: type[TrustMessage]) -> list[tuple[int, TrustMessage]]:
        return [(i, d.item) for i, d in enumerate(self.deliveries) if isinstance(d.item, kind)]

    def wire(self, index: int) -> dict[str, Any]:
        """The map delivery `index` goes out as: an event's `event` field, or a trust message
        signed by the host's key."""
        delivery = self.deliveries[index]
        if delivery.wire is not None:
            return delivery.wire
        item = delivery.item
        if isinstance(item, tuple):
            event, proof = item
            return encode_event(event, proof.to_dict())
        return SIGNER.sign({"t": item.KIND, **item.to_dict()})

    def redigest(self) -> None:
        """Each audit's events digest over the public events sent before it, as sent."""
        digest = EventsDigest(self.host.game_id, self.host.round_no)
        for index, delivery in enumerate(self.deliveries):
            item = delivery.item
            if isinstance(item, tuple) and delivery.audience is None:
                digest.add(self.wire(index))
            elif isinstance(item, RoundAudit):
                self.deliveries[index] = replace(
                    delivery, item=replace(item, events_digest=digest.value)
                )

    def abandon(self, after: int | None) -> None:
        """The host gives the round up after its `after` first events (None: before the deal,
        its deck_commits included) and audits it honestly as abandoned."""
        events = [i for i, d in enumerate(self.deliveries) if isinstance(d.item, tuple)]
        if after is None:
            [stop] = [
                i for i, d in enumerate(self.deliveries)
                if isinstance(d.item, DeckCommits) and d.item.epoch == 0
            ]
        else:
            stop = events[after] if after < len(events) else len(self.deliveries)
        self.deliveries = [
            d for i, d in enumerate(self.deliveries)
            if i < stop and not isinstance(d.item, RoundAudit)
        ]
        self.close()

    def close(self) -> None:
        """The honest audit: outcome "ended" iff a round_ended was sent."""
        ended = any(isinstance(e, ev.RoundEnded) for _, e, _ in self.events())
        audit = self.host.audit(ENDED if ended else ABANDONED, bytes(32))
        self.deliveries.append(Delivery(None, audit))
        self.redigest()


def proof_for(host: HostCommitments, event: ev.Event) -> EventProof:
    """The proof fields an honest host attaches to an engine event, as they cross the wire."""
    return EventProof.from_dict(host.event_proof(event).to_dict())


def _choose(rng: random.Random, actions: Sequence[Action]) -> Action:
    """A random legal action that plays mostly, challenges often and sometimes draws anyway."""
    if any(isinstance(a, Challenge) for a in actions) and rng.random() < 0.6:
        return Challenge()
    plays = [a for a in actions if isinstance(a, Play)]
    if plays and rng.random() < 0.85:
        return rng.choice(plays)
    return rng.choice(list(actions))


def _opened_round(
    rng: random.Random,
    match: MatchIdentity,
    round_no: int = 1,
    host_seat: int | None = 0,
    skip_commit: bool = False,
    skip_reveal: bool = False,
    unseeded: Collection[int] = (),
    committing: bool = False,
) -> Transcript:
    """round_prepare, every player's seed committed and revealed (but one that never commits or
    never reveals, if asked, and the `unseeded` seats, whose clients were not connected when the
    round was prepared), seed_commits and seed_reveals; not dealt yet. `committing`: the round
    stops in its commitment phase (the players' commitments in, not frozen: no seed_commits)."""
    host = HostCommitments(
        match.game_id, round_no, host_seat if host_seat is not None else 2**32 - 1,
        rng.randbytes(32),
    )
    players = [s for s in range(match.seats) if s != host_seat]
    seeds = {s: rng.randbytes(32) for s in players}
    for seat in unseeded:
        seeds.pop(seat, None)
    if skip_commit:
        seeds.pop(players[-1], None)  # it is simply not in the list
    t = Transcript(match, host, seeds)
    t.deliveries.append(Delivery(None, host.round_prepare()))
    for player, player_seed in seeds.items():
        host.accept_commit(player, seed_commitment(match.game_id, round_no, player, player_seed))
    if committing:
        return t
    t.deliveries.append(Delivery(None, host.freeze_commits()))
    for player in sorted(host.commits):
        if skip_reveal and player == max(host.commits):
            continue  # it commits but never reveals: absent, as everyone sees
        assert host.accept_reveal(player, seeds[player])
    t.deliveries.append(Delivery(None, host.seed_reveals()))
    return t


def play_round(
    seed: int,
    seats: int = 3,
    host_seat: int | None = 0,
    rules: RuleSet | None = None,
    with_digest: bool = True,
    tamper_order: bool = False,
    chooser: Chooser | None = None,
    missing_seeds: tuple[bool, bool] | None = None,
) -> Transcript:
    """Run one honest round to its end (or one whose committed deck is not the derived one).

    `seed` makes the keys and, by default, the actions (the pending seat's, `_choose`n) and
    whether a player never commits or never reveals its seed; `chooser` picks the actions
    instead (any seat's, as in `play_match`), `missing_seeds` says (never commits, never
    reveals)."""
    rng = random.Random(seed)
    rules = rules or RuleSet()
    match_id = identity(rules, seats, rng.randbytes(16))
    skip_commit, skip_reveal = missing_seeds or (seed % 5 == 4, seed % 7 == 6)
    t = _opened_round(
        rng, match_id, 1, host_seat, skip_commit=skip_commit, skip_reveal=skip_reveal
    )
    host, manifest, game_id = t.host, match_id.manifest, match_id.game_id
    order = deal_order(host.key, len(manifest))
    if tamper_order:
        order[0], order[-1] = order[-1], order[0]
        deck = commit_order(game_id, 1, host.key, 0, order)
        host.decks[0] = deck
        t.deliveries.append(
            Delivery(None, DeckCommits(1, 0, deck.commitments, deck.deck_commitment))
        )
        match = Match(rules, seats, b"s" * 32, stacked_decks=[order])
    else:
        t.deliveries.append(Delivery(None, host.deal(len(manifest))))
        match = Match(rules, seats, b"s" * 32)
    _deliver(t, match.start_round(host.key), digest_for=None)
    for _ in range(ROUND_CAP):
        if match.round is None or match.phase != IN_ROUND:
            break
        if chooser is not None:
            _deliver_step(t, match, chooser)
            continue
        seat = match.pending_seat
        assert seat is not None
        action = _choose(rng, match.legal_actions(seat))
        events = match.apply(seat, action)
        intent = (seat, action)
        digest = None
        if (
            with_digest
            and match.round.wd4_player is not None
            and not isinstance(action, Challenge | Accept)
        ):
            hand = match.round.wd4_hand
            positions = [match.round.origin[c] for c in hand]
            digest = hand_digest(
                game_id, 1, match.round.wd4_player, [_commit(host, p) for p in positions]
            )
        _deliver(t, events, digest_for=digest, intent=intent)
    t.close()
    return t


def _commit(host: HostCommitments, position: tuple[int, int]) -> bytes:
    return host.decks[position[0]].commitments[position[1]]


def _deliver(t: Transcript, events: Sequence[ev.Event], digest_for: bytes | None,
             intent: tuple[int, Action] | None = None) -> None:
    """The events of one action (`intent`: the seat's, as it sent it), with their proofs."""
    host = t.host
    for number, event in enumerate(events):
        proof = proof_for(host, event)
        if (
            digest_for is not None
            and isinstance(event, ev.CardPlayed)
            and t.manifest.face(event.card).kind is Kind.WILD_DRAW_FOUR
        ):
            proof = replace(proof, hand_digest=digest_for)
        t.deliveries.append(Delivery(event.audience, (event, proof),
                                     intent=intent if number == 0 else None))
        if isinstance(event, ev.Reshuffled):
            t.deliveries.append(Delivery(None, host.reshuffle(event.epoch, event.sources)))


# -- feeding a verifier -----------------------------------------------------------------------


def received(t: Transcript, seat: int | None) -> list[int]:
    """Indices of the deliveries `seat` (None: a spectator) receives, in order."""
    return [
        i for i, d in enumerate(t.deliveries) if d.audience is None or seat in d.audience
    ]


def deliver(
    t: Transcript, index: int, verifier: TrustVerifier, seat: int | None, contribute: bool = True
) -> None:
    """One delivery, as the client session and its trust gate pass it on: a signed message's
    signature first, then the message; our seed after round_prepare, our reveal after
    seed_commits (`contribute` False: a connection that enters a round contributes nothing);
    before the first event of one of our own actions, its intent as the host accepted it."""
    delivery = t.deliveries[index]
    item = delivery.item
    wire = t.wire(index)
    if isinstance(item, tuple):
        if delivery.intent is not None and delivery.intent[0] == seat:
            verifier.intent_accepted(delivery.intent[1])  # `accepted` came just before
        verifier.event(item[0], item[1], wire)
        return
    verifier.check_signature(wire)
    verifier.message(item)
    current = verifier.current
    if not contribute or current is None or seat not in t.player_seeds:
        return
    if isinstance(item, RoundPrepare) and current.own_seed is None:
        verifier.record_own_seed(t.player_seeds[seat])
    if (
        isinstance(item, SeedCommits)
        and seat in dict(item.commits)
        and (seat in t.host.seeds or seat in t.dropped)
        and not current.own_revealed
    ):
        verifier.reveal()


def replay(
    t: Transcript, seat: int | None, verifier: TrustVerifier | None = None
) -> TrustVerifier:
    """Feed a transcript to `verifier` (a fresh one for `seat` by default), as its client
    session would; pass the same verifier round after round to check a whole match."""
    verifier = verifier or TrustVerifier(t.match, seat)
    for index in received(t, seat):
        deliver(t, index, verifier, seat)
    return verifier


def history(t: Transcript, seat: int | None, cut: int, chunk: int = 256) -> list[RoundHistory]:
    """The round_history messages for `seat` entering after its `cut` first events."""
    events = [i for i in received(t, seat) if isinstance(t.deliveries[i].item, tuple)][:cut]
    maps = [t.wire(i) for i in events]
    round_no = t.host.round_no
    return [
        RoundHistory(round_no, first, tuple(maps[first:first + chunk]))
        for first in range(0, len(maps), chunk)
    ]


def replay_resumed(
    t: Transcript,
    seat: int | None,
    cut: int,
    verifier: TrustVerifier | None = None,
    dropped: int | None = None,
    chunk: int = 256,
    histories: Sequence[RoundHistory] | None = None,
) -> TrustVerifier:
    """`seat`'s connection enters the round after its `cut` first events (counting those its
    audience gets): the manifest again, the round's trust messages so far, the events so far in
    round_history chunks (`histories`, to forge them), then the rest live.

    `verifier`: a kept one (the same client, reconnecting), which got the round live up to its
    `dropped` first events (default `cut`) and missed the rest; None: a fresh one (a new client
    process, a late spectator), which got nothing of the round before."""
    kept = verifier is not None
    verifier = verifier or TrustVerifier(t.match, seat)
    mine = received(t, seat)
    event_at = [i for i in mine if isinstance(t.deliveries[i].item, tuple)]

    def before(number: int) -> int:
        """The delivery index event `number` has (just past the last event, if none)."""
        return event_at[number] if number < len(event_at) else event_at[-1] + 1

    cut_at = before(cut)
    if kept:
        drop_at = before(dropped if dropped is not None else cut)
        for index in mine:
            if index < drop_at:
                deliver(t, index, verifier, seat)
    verifier.check_signature(SIGNER.sign({"t": "manifest", **t.match.to_dict()}))
    verifier.message(t.match)
    for index in mine:
        if index < cut_at and not isinstance(t.deliveries[index].item, tuple):
            deliver(t, index, verifier, seat, contribute=False)
    for message in histories if histories is not None else history(t, seat, cut, chunk):
        verifier.message(message)
    for index in mine:
        if index >= cut_at:
            deliver(t, index, verifier, seat, contribute=kept)
    return verifier


def audit_of(t: Transcript) -> tuple[int, RoundAudit]:
    [(index, audit)] = t.messages(RoundAudit)
    assert isinstance(audit, RoundAudit)
    return index, audit


def reveals_of(t: Transcript) -> tuple[int, SeedReveals]:
    [(index, reveals)] = t.messages(SeedReveals)
    assert isinstance(reveals, SeedReveals)
    return index, reveals


# -- a round written by hand ------------------------------------------------------------------


class ScriptedRound:
    """An honest host moving cards by hand, as the engine would: the deal by the rule (one card
    each in turn from the dealer's left; the dealer is the last seat), then from the top of the
    pile, then from under it (returned cards, in the order they went under). No rules are
    judged: each test says which movement it wants."""

    def __init__(self, seed: int = 0, seats: int = 3, rules: RuleSet | None = None):
        rng = random.Random(seed)
        self.rules = rules or RuleSet()
        match = identity(self.rules, seats, rng.randbytes(16))
        self.t = _opened_round(rng, match)
        self.host = self.t.host
        self.t.deliveries.append(Delivery(None, self.host.deal(len(self.t.manifest))))
        self.hands: dict[int, list[Position]] = {seat: [] for seat in range(seats)}
        self.discard: list[Position] = []
        self.under: list[Position] = []
        self.next_index = 0
        self.color: Color | None = None
        self.wd4: dict[int, tuple[list[Position], Color | None]] = {}

    def card(self, position: Position) -> int:
        return self.host.card_at(position)

    def emit(self, *events: ev.Event) -> None:
        _deliver(self.t, events, digest_for=None)

    def _take(self) -> Position:
        if self.next_index < len(self.t.manifest):
            self.next_index += 1
            return (0, self.next_index - 1)
        return self.under.pop(0)

    @property
    def left_on_top(self) -> int:
        """Cards still above the returned ones in the draw pile."""
        return len(self.t.manifest) - self.next_index

    def deal(self, hand_size: int = 7) -> None:
        """Seat k % n gets dealt position k (the dealer, the last seat, gets the last card of
        each turn); then the top card is turned."""
        seats = len(self.hands)
        self.emit(ev.RoundStarted(1, seats - 1, len(self.t.manifest)))
        for seat in self.hands:
            positions = tuple((0, k) for k in range(seat, hand_size * seats, seats))
            self.hands[seat].extend(positions)
            cards = tuple(self.card(p) for p in positions)
            self.emit(ev.CardsDrawn(seat, positions, "deal"),
                      ev.CardsReceived(seat, positions, cards))
        self.next_index = hand_size * seats
        top = self._take()
        self.discard.append(top)
        self.color = self.t.manifest.face(self.card(top)).color
        self.emit(ev.TopCardTurned(self.card(top), top))

    def draw(self, seat: int, count: int, reason: str = "draw") -> tuple[Position, ...]:
        positions = tuple(self._take() for _ in range(count))
        self.hands[seat].extend(positions)
        cards = tuple(self.card(p) for p in positions)
        self.emit(ev.CardsDrawn(seat, positions, reason), ev.CardsReceived(seat, positions, cards))
        return positions

    def holding(self, seat: int, kind: Kind) -> Position:
        """A position of `seat`'s hand whose card is of `kind`, drawing until there is one."""
        while True:
            for position in self.hands[seat]:
                if self.t.manifest.face(self.card(position)).kind is kind:
                    return position
            self.draw(seat, 1)

    def play(self, seat: int, position: Position | None = None, jump_in: bool = False) -> int:
        """`seat` plays `position` (default: its first card); a wild names red."""
        position = self.hands[seat][0] if position is None else position
        self.hands[seat].remove(position)
        card = self.card(position)
        face = self.t.manifest.face(card)
        if face.kind is Kind.WILD_DRAW_FOUR:
            self.wd4[seat] = (list(self.hands[seat]), self.color)
        color = Color.RED if face.is_wild else None
        self.color = color if face.is_wild else face.color
        if jump_in:
            self.emit(ev.JumpedIn(seat, "jump_in"))
        self.emit(ev.CardPlayed(seat, card, position, color, False))
        self.discard.append(position)
        return card

    def challenge(self, challenger: int, target: int) -> None:
        """The verdict and the reveal of `target`'s hand at its last Wild Draw Four."""
        positions, color = self.wd4[target]
        assert color is not None
        cards = tuple(self.card(p) for p in positions)
        self.emit(
            ev.Challenged(challenger, target, is_guilty(self.t.manifest, cards, color)),
            ev.ChallengeReveal(challenger, target, cards, tuple(positions), color),
        )

    def move(self, pairs: Sequence[tuple[int, int]], reason: str) -> None:
        """Whole hands change owner at once: (from, to) for each moving hand."""
        moving = {giver: tuple(self.hands[giver]) for giver, _ in pairs}
        for giver, _ in pairs:
            self.hands[giver] = []
        for giver, receiver in pairs:
            self.hands[receiver].extend(moving[giver])
        self.emit(ev.HandsMoved(tuple((g, r, moving[g]) for g, r in pairs), reason))
        for giver, receiver in pairs:
            cards = tuple(self.card(p) for p in moving[giver])
            self.emit(ev.CardsReceived(receiver, moving[giver], cards))

    def knock_out(self, seat: int) -> tuple[Position, ...]:
        """`seat` is out: its hand goes face down under the draw pile, keeping its positions."""
        positions = tuple(self.hands[seat])
        self.hands[seat] = []
        self.under.extend(positions)
        self.emit(
            ev.KnockedOut(seat, len(positions), 0),
            ev.CardsReturned(seat, positions, "max_hand"),
        )
        return positions

    def end(self, winner: int) -> None:
        hands = tuple(tuple(self.card(p) for p in self.hands[s]) for s in sorted(self.hands))
        zeros = tuple(0 for _ in hands)
        self.emit(ev.RoundEnded(winner, hands, zeros, zeros))
        self.t.close()


# -- a whole match ----------------------------------------------------------------------------

Options = Mapping[int, Sequence[Action]]
Chooser = Callable[[Match, Options], tuple[int, Action] | None]
"""Picks the next (seat, action) among every seat's legal actions, or None for the host's
timer running out (Expire)."""


def random_chooser(rng: random.Random) -> Chooser:
    """Any seat may act whenever it has a legal action (jump-ins, buzzer presses, catches race
    the player whose turn it is, who acts mostly); the host's timer runs out now and then."""

    def choose(match: Match, options: Options) -> tuple[int, Action] | None:
        pending = match.pending_seat
        if not options or rng.random() < 0.03:
            return None
        seat = rng.choice(sorted(options))
        if pending is not None and pending in options and rng.random() < 0.8:
            seat = pending
        return seat, _choose(rng, options[seat])

    return choose


def play_match(
    rules: RuleSet,
    seats: int,
    seed: int,
    max_actions: int = 4000,
    chooser: Chooser | None = None,
    max_rounds: int | None = None,
    undealt: Collection[int] = (),
    unseeded: Mapping[int, Collection[int]] | None = None,
) -> list[Transcript]:
    """A match under `rules`, one transcript per round, every round keyed by its own seeds and
    played to its end. New rounds start while fewer than `max_actions` actions were taken (and
    fewer than `max_rounds` rounds played), so the match may stop between two rounds. The
    rounds numbered in `undealt` are prepared and abandoned in their commitment phase, before
    any seed is revealed (a restarted host, SPEC.md 11.7), the deal going to the next number.
    `unseeded` maps a round's number to the seats that add no seed to it: their clients were
    not connected when it was prepared."""
    rng = random.Random(seed)
    match_id = identity(rules, seats, rng.randbytes(16))
    match = Match(rules, seats, rng.randbytes(32))
    choose = chooser or random_chooser(rng)
    rounds: list[Transcript] = []
    budget = max_actions
    while match.phase != MATCH_OVER and budget > 0:
        if max_rounds is not None and len(rounds) >= max_rounds:
            break
        number = len(rounds) + 1
        t = _opened_round(rng, match_id, number, unseeded=(unseeded or {}).get(number, ()),
                          committing=number in undealt)
        rounds.append(t)
        if number in undealt:
            t.close()
            continue
        t.deliveries.append(Delivery(None, t.host.deal(len(t.manifest))))
        _deliver(t, match.start_round(t.host.key), digest_for=None)
        for _ in range(ROUND_CAP):
            if match.phase != IN_ROUND:
                break
            budget -= 1
            _deliver_step(t, match, choose)
        t.close()
    return rounds


PLAY_WEIGHT = 4
"""How many times more likely the pending seat's plays are than any other legal action in
`drawn_chooser`: a uniform choice would draw far more often than players do, and rounds would
not end."""


def drawn_chooser(data: st.DataObject) -> Chooser:
    """Each action drawn by hypothesis among every seat's legal ones (or the host's timer), so
    that a failing game shrinks to a short one: the first choice of each draw is the pending
    seat's first play."""

    def choose(match: Match, options: Options) -> tuple[int, Action] | None:
        pairs: list[tuple[int, Action] | None] = [
            (seat, action) for seat in sorted(options) for action in options[seat]
        ]
        plays = [
            p for p in pairs
            if p is not None and p[0] == match.pending_seat and isinstance(p[1], Play)
        ]
        return data.draw(st.sampled_from([*plays * PLAY_WEIGHT, *pairs, None]))

    return choose


def _deliver_step(t: Transcript, match: Match, choose: Chooser) -> None:
    """One action chosen among every seat's, or the host's expiry."""
    options = {s: a for s in range(match.seats) if (a := match.legal_actions(s))}
    picked = choose(match, options)
    if picked is None:
        _deliver(t, match.expire(), digest_for=None)
        return
    seat, action = picked
    events = match.apply(seat, action)
    intent = (seat, action)
    rnd = match.round
    digest = None
    if rnd is not None and rnd.wd4_player is not None:
        positions = [rnd.origin[c] for c in rnd.wd4_hand]
        digest = hand_digest(
            t.host.game_id, t.host.round_no, rnd.wd4_player, [_commit(t.host, p) for p in positions]
        )
    _deliver(t, events, digest_for=digest, intent=intent)


def replay_match(
    rounds: Sequence[Transcript],
    seat: int | None,
    resumes: Mapping[int, int] | None = None,
) -> TrustVerifier:
    """One verifier for `seat` fed every round of a match in order; `resumes` maps a round's
    index to the event at which this client's connection dropped and came back (the same
    verifier, given the round's history)."""
    verifier = TrustVerifier(rounds[0].match, seat)
    for number, t in enumerate(rounds):
        cut = (resumes or {}).get(number)
        if cut is None:
            replay(t, seat, verifier)
        else:
            replay_resumed(t, seat, cut, verifier)
    return verifier


def events_of(rounds: Sequence[Transcript]) -> Iterator[tuple[Transcript, int, ev.Event]]:
    for t in rounds:
        for index, event, _ in t.events():
            yield t, index, event
