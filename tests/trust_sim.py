"""A host that runs a round with the trust scheme, recorded as a transcript.

`play_round` runs a real engine round; `ScriptedRound` writes one move by move (hands swapped,
passed, returned under the pile...) with an honest host's proofs, for checks that need an exact
sequence of movements. Each delivery is what one audience received (a trust message, or an
engine event with its proof fields), in order; `replay` feeds a transcript to a `TrustVerifier`
as a client session would. Tests tamper with transcripts to play a dishonest host.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from protocol.trust import (
    DeckCommits,
    EventProof,
    HostCommitments,
    RoundAudit,
    RoundPrepare,
    SeedCommits,
    TrustMessage,
    TrustVerifier,
    commit_order,
    hand_digest,
)
from protocol.trust.challenge import is_guilty
from unonet import events as ev
from unonet.actions import Accept, Action, Challenge, Play
from unonet.cards import Color, DeckManifest, Kind
from unonet.events import Position
from unonet.match import IN_ROUND, MATCH_OVER, Match
from unonet.rules import RuleSet
from unonet.shuffle import deal_order

Item = TrustMessage | tuple[ev.Event, EventProof]


@dataclass
class Delivery:
    audience: frozenset[int] | None  # None: everyone, spectators included
    item: Item


@dataclass
class Transcript:
    manifest: DeckManifest
    seats: int
    host: HostCommitments
    player_seeds: dict[int, bytes]
    deliveries: list[Delivery] = field(default_factory=list)

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
        old = self.deliveries[index]
        assert isinstance(old.item, tuple)
        self.deliveries[index] = Delivery(old.audience, (event, proof or old.item[1]))

    def messages(self, kind: type[TrustMessage]) -> list[tuple[int, TrustMessage]]:
        return [(i, d.item) for i, d in enumerate(self.deliveries) if isinstance(d.item, kind)]


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


def play_round(
    seed: int,
    seats: int = 3,
    host_seat: int | None = 0,
    rules: RuleSet | None = None,
    max_actions: int = 1500,
    with_digest: bool = True,
    tamper_order: bool = False,
) -> Transcript:
    """Run one honest round (or one whose committed deck is not the derived one)."""
    rng = random.Random(seed)
    rules = rules or RuleSet()
    game_id = rng.randbytes(16)
    host = HostCommitments(
        game_id, 1, host_seat if host_seat is not None else 2**32 - 1, rng.randbytes(32)
    )
    manifest = rules.manifest()
    players = [s for s in range(seats) if s != host_seat]
    seeds = {s: rng.randbytes(32) for s in players}
    if seed % 5 == 4:
        del seeds[players[-1]]  # sometimes a player never commits: it is simply not in the list
    t = Transcript(manifest, seats, host, seeds)
    t.deliveries.append(Delivery(None, host.round_prepare()))
    for player in seeds:
        commit = TrustVerifier(manifest, player)
        commit.round_prepare(host.round_prepare())
        host.accept_commit(player, commit.record_own_seed(seeds[player]).commit)
    t.deliveries.append(Delivery(None, host.freeze_commits()))
    for player in sorted(host.commits):
        if seed % 7 == 6 and player == max(host.commits):
            continue  # sometimes a player commits but never reveals: absent
        assert host.accept_reveal(player, seeds[player])
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
    for _ in range(max_actions):
        if match.round is None or match.phase != "in_round":
            break
        seat = match.pending_seat
        assert seat is not None
        action = _choose(rng, match.legal_actions(seat))
        events = match.apply(seat, action)
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
        _deliver(t, events, digest_for=digest)
    t.deliveries.append(Delivery(None, host.audit()))
    return t


def _commit(host: HostCommitments, position: tuple[int, int]) -> bytes:
    return host.decks[position[0]].commitments[position[1]]


def _deliver(t: Transcript, events: Sequence[ev.Event], digest_for: bytes | None) -> None:
    host = t.host
    for event in events:
        proof = proof_for(host, event)
        if (
            digest_for is not None
            and isinstance(event, ev.CardPlayed)
            and t.manifest.face(event.card).kind is Kind.WILD_DRAW_FOUR
        ):
            proof = replace(proof, hand_digest=digest_for)
        t.deliveries.append(Delivery(event.audience, (event, proof)))
        if isinstance(event, ev.Reshuffled):
            t.deliveries.append(Delivery(None, host.reshuffle(event.epoch, event.sources)))


def replay(
    t: Transcript, seat: int | None, verifier: TrustVerifier | None = None
) -> TrustVerifier:
    """Feed a transcript to `verifier` (a fresh one for `seat` by default), as its client
    session would; pass the same verifier round after round to check a whole match."""
    verifier = verifier or TrustVerifier(t.manifest, seat)
    for delivery in t.deliveries:
        if delivery.audience is not None and seat not in delivery.audience:
            continue
        item = delivery.item
        if isinstance(item, tuple):
            verifier.event(*item)
            continue
        verifier.message(item)
        if isinstance(item, RoundPrepare) and seat in t.player_seeds:
            verifier.record_own_seed(t.player_seeds[seat])
        if isinstance(item, SeedCommits) and seat in dict(item.commits) and seat in t.host.seeds:
            verifier.reveal()
    return verifier


def audit_of(t: Transcript) -> tuple[int, RoundAudit]:
    [(index, audit)] = t.messages(RoundAudit)
    assert isinstance(audit, RoundAudit)
    return index, audit


def _opened_round(
    rng: random.Random, seats: int, manifest: DeckManifest, game_id: bytes, round_no: int = 1
) -> Transcript:
    """Seeds committed and revealed by every seat but the host's (seat 0); epoch 0 committed."""
    host = HostCommitments(game_id, round_no, 0, rng.randbytes(32))
    seeds = {s: rng.randbytes(32) for s in range(1, seats)}
    t = Transcript(manifest, seats, host, seeds)
    t.deliveries.append(Delivery(None, host.round_prepare()))
    for seat, player_seed in seeds.items():
        commit = TrustVerifier(manifest, seat)
        commit.round_prepare(host.round_prepare())
        host.accept_commit(seat, commit.record_own_seed(player_seed).commit)
    t.deliveries.append(Delivery(None, host.freeze_commits()))
    for seat, player_seed in seeds.items():
        assert host.accept_reveal(seat, player_seed)
    t.deliveries.append(Delivery(None, host.deal(len(manifest))))
    return t


class ScriptedRound:
    """An honest host moving cards by hand, as the engine would: from the top of the pile,
    then from under it (returned cards, in the order they went under). No rules are judged:
    each test says which movement it wants."""

    def __init__(self, seed: int = 0, seats: int = 3, manifest: DeckManifest | None = None):
        rng = random.Random(seed)
        self.t = _opened_round(rng, seats, manifest or RuleSet().manifest(), rng.randbytes(16))
        self.host = self.t.host
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
        for seat in self.hands:
            self.draw(seat, hand_size, "deal")
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
        self.t.deliveries.append(Delivery(None, self.host.audit()))


def play_match(
    rules: RuleSet, seats: int, seed: int, max_actions: int = 4000
) -> list[Transcript]:
    """A whole match under `rules`, one transcript per round, every round keyed by its own
    seeds. Any seat may act whenever it has a legal action (jump-ins, buzzer presses, catches
    race the player whose turn it is), and the host's timer runs out now and then."""
    rng = random.Random(seed)
    game_id = rng.randbytes(16)
    match = Match(rules, seats, rng.randbytes(32))
    manifest = rules.manifest()
    rounds: list[Transcript] = []
    budget = max_actions
    while match.phase != MATCH_OVER and budget > 0:
        t = _opened_round(rng, seats, manifest, game_id, len(rounds) + 1)
        rounds.append(t)
        _deliver(t, match.start_round(t.host.key), digest_for=None)
        while match.phase == IN_ROUND and budget > 0:
            budget -= 1
            _deliver_step(t, match, rng)
        t.deliveries.append(Delivery(None, t.host.audit()))
    return rounds


def _deliver_step(t: Transcript, match: Match, rng: random.Random) -> None:
    """One action by a seat that has one (the pending seat mostly), or the host's expiry."""
    options = {s: a for s in range(match.seats) if (a := match.legal_actions(s))}
    pending = match.pending_seat
    if not options or rng.random() < 0.03:
        _deliver(t, match.expire(), digest_for=None)
        return
    seat = rng.choice(sorted(options))
    if pending is not None and pending in options and rng.random() < 0.8:
        seat = pending
    action = _choose(rng, options[seat])
    events = match.apply(seat, action)
    rnd = match.round
    digest = None
    if rnd is not None and rnd.wd4_player is not None:
        positions = [rnd.origin[c] for c in rnd.wd4_hand]
        digest = hand_digest(
            t.host.game_id, t.host.round_no, rnd.wd4_player, [_commit(t.host, p) for p in positions]
        )
    _deliver(t, events, digest_for=digest)


def replay_match(rounds: Sequence[Transcript], seat: int | None) -> TrustVerifier:
    """One verifier for `seat` fed every round of a match in order."""
    verifier = TrustVerifier(rounds[0].manifest, seat)
    for t in rounds:
        replay(t, seat, verifier)
    return verifier
