"""UNO Flip rounds under the trust scheme: an honest in-process host, recorded as transcripts.

As tests/trust_sim.py does for the classic deck, with what Flip adds: the manifest names each card
id's light face only and each round pairs the dark faces from its key (the engine's
`round_manifest(K)`, told by `dark_faces_shown`), every challengeable card played (a Wild Draw
Two on the light side, a Wild Draw Color on the dark side) carries the hand digest of its
player's hand, and the chooser plays Flips and challengeable cards and challenges them often, so
that a few seeds give rounds with flips, draws, reshuffles and challenges on both sides.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from trust_sim import (
    ROUND_CAP,
    SIGNER,
    Delivery,
    Transcript,
    _opened_round,
    proof_for,
    replay,
)

from protocol.trust.messages import MatchIdentity
from protocol.trust.primitives import hand_digest
from protocol.trust.verifier import TrustVerifier
from unonet import events as ev
from unonet.actions import Action, Challenge, Play
from unonet.cards import CHALLENGEABLE_KINDS, Face, Kind
from unonet.match import IN_ROUND, MATCH_OVER, Match
from unonet.rules import RuleSet

FLIP = RuleSet(variant="flip")


@dataclass(frozen=True, slots=True)
class Features:
    """What a Flip round had, by its public events: enough to pick rounds a test needs."""

    flips: int
    draws: int
    challenged: frozenset[Kind]  # the kinds of challenged cards, read on the side in play
    wild_draw_colors: int
    reshuffles: int
    pile_shown: int
    ends_dark: bool  # the round ended on the dark side (every hand's dark faces told)

    @property
    def complete(self) -> bool:
        """Flips, draws, a challenged Wild Draw Two and a Wild Draw Color played."""
        return (
            self.flips > 0
            and self.draws > 0
            and Kind.WILD_DRAW_TWO in self.challenged
            and self.wild_draw_colors > 0
        )


def _choose(rng: random.Random, match: Match, actions: Sequence[Action]) -> Action:
    """Challenge mostly; play a Flip or a challengeable card when there is one, else a random
    play mostly, else anything legal."""
    if any(isinstance(a, Challenge) for a in actions) and rng.random() < 0.7:
        return Challenge()
    plays = [a for a in actions if isinstance(a, Play)]
    rnd = match.round
    assert rnd is not None
    keen = [a for a in plays if rnd.face(a.card).kind in (*CHALLENGEABLE_KINDS, Kind.FLIP)]
    if keen and rng.random() < 0.8:
        return rng.choice(keen)
    if plays and rng.random() < 0.85:
        return rng.choice(plays)
    return rng.choice(list(actions))


def play_flip_round(seed: int, seats: int = 3, rules: RuleSet = FLIP) -> Transcript:
    """One honest Flip round to its end: the light-only manifest, every card and the round's
    pairing of dark faces keyed by the round's seeds, every event with an honest host's
    proofs."""
    return play_flip_match(seed, seats, rules, rounds=1)[0]


def play_flip_match(
    seed: int, seats: int = 3, rules: RuleSet = FLIP, rounds: int = 3
) -> list[Transcript]:
    """Up to `rounds` honest rounds of one Flip match (fewer if it ends), one transcript each."""
    rng = random.Random(seed)
    match = Match(rules, seats, rng.randbytes(32))
    identity = MatchIdentity(rng.randbytes(16), seats, rules, match.manifest, SIGNER.signer)
    played: list[Transcript] = []
    while match.phase != MATCH_OVER and len(played) < rounds:
        t = _opened_round(rng, identity, len(played) + 1)
        played.append(t)
        t.deliveries.append(Delivery(None, t.host.deal(len(match.manifest))))
        _deliver(t, match, match.start_round(t.host.key))
        for _ in range(ROUND_CAP):
            if match.phase != IN_ROUND:
                break
            seat = match.pending_seat
            if seat is None:  # nobody's decision: the host's timer (a catch window, a race)
                _deliver(t, match, match.expire())
                continue
            action = _choose(rng, match, match.legal_actions(seat))
            _deliver(t, match, match.apply(seat, action))
        t.close()
    return played


def _deliver(t: Transcript, match: Match, events: Sequence[ev.Event]) -> None:
    """The events as an honest host sends them: proofs, the hand digest at a challengeable
    card (the hand its player keeps, as the engine holds it for the challenge), and the
    commitments of each new epoch right after its reshuffle."""
    rnd = match.round
    for event in events:
        proof = proof_for(t.host, event)
        if (
            isinstance(event, ev.CardPlayed)
            and rnd is not None
            and rnd.wd4_player == event.seat
            and rnd.manifest.face(event.card, rnd.side).kind in CHALLENGEABLE_KINDS
        ):
            commits = [
                t.host.decks[p[0]].commitments[p[1]]
                for p in (rnd.origin[c] for c in rnd.wd4_hand)
            ]
            digest = hand_digest(t.host.game_id, t.host.round_no, event.seat, commits)
            proof = replace(proof, hand_digest=digest)
        t.deliveries.append(Delivery(event.audience, (event, proof)))
        if isinstance(event, ev.Reshuffled):
            t.deliveries.append(Delivery(None, t.host.reshuffle(event.epoch, event.sources)))


def face_in_play(t: Transcript, card: int, side: int, dark: dict[int, Face]) -> Face:
    """A card's face on `side` as everybody knows it: the manifest's light face, or the dark
    face told to everybody."""
    return t.manifest.face(card) if side == 0 else dark[card]


def features(t: Transcript) -> Features:
    """What the round's public record shows happened."""
    side = 0
    flips = draws = colors = reshuffles = shown = 0
    played: dict[int, Kind] = {}
    challenged: set[Kind] = set()
    dark: dict[int, Face] = {}
    for _, event, _ in t.events():
        if isinstance(event, ev.DarkFacesShown) and event.seat is None:
            dark.update(zip(event.cards, event.faces, strict=True))
        elif isinstance(event, ev.Flipped):
            flips, side = flips + 1, event.side
        elif isinstance(event, ev.CardsDrawn) and event.reason != "deal":
            draws += 1
        elif isinstance(event, ev.CardPlayed):
            kind = face_in_play(t, event.card, side, dark).kind
            played[event.seat] = kind
            colors += kind is Kind.WILD_DRAW_COLOR
        elif isinstance(event, ev.Challenged):
            challenged.add(played[event.target])
        elif isinstance(event, ev.Reshuffled):
            reshuffles += 1
        elif isinstance(event, ev.PileOtherSideShown):
            shown += 1
    ends_dark = side == 1 and any(isinstance(e, ev.RoundEnded) for _, e, _ in t.events())
    return Features(flips, draws, frozenset(challenged), colors, reshuffles, shown, ends_dark)


def flip_round_with(wanted: str, seats: int = 3, tries: int = 60) -> Transcript:
    """The first honest round, by seed, whose Features have the property `wanted` true."""
    for seed in range(tries):
        t = play_flip_round(seed, seats)
        if getattr(features(t), wanted):
            return t
    raise AssertionError(f"no Flip round in {tries} seeds has {wanted}")


def verifiers(*rounds: Transcript) -> dict[int | None, TrustVerifier]:
    """Every seat's verifier and a spectator's (None), each fed the rounds of one match in
    order, as received."""
    found: dict[int | None, TrustVerifier] = {}
    for seat in (*range(rounds[0].seats), None):
        verifier = TrustVerifier(rounds[0].match, seat)
        for t in rounds:
            replay(t, seat, verifier)
        found[seat] = verifier
    return found
