"""The round audit: from the revealed seeds, re-derive the key, every pile and every card.

Once K is known nothing about the round is secret, so every client can check not only its own
cards but every face-up card, every hand shown at the end, every public verdict, the dealer draw,
every face shown of a Flip card's side not in play, every dark face told, and where every card
went: hands drawn, passed, swapped or returned under the pile all move by position, so the public
record puts each card of the deck in exactly one place. UNO Flip: K also pairs the round's dark
faces with the card ids (unonet.flip_deck.round_manifest), so every face is read on that deck.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable

from protocol.trust.challenge import verdict_violation
from protocol.trust.checked_round import CheckedRound
from protocol.trust.constants import ABSENT_SEED
from protocol.trust.dark_faces import audit_dark_faces
from protocol.trust.deck import CommittedDeck, deal_deck, reshuffle_deck
from protocol.trust.ledger import fmt
from protocol.trust.messages import RoundAudit
from protocol.trust.primitives import round_key, same_digest, seed_commitment
from protocol.trust.results import Violation, ViolationKind
from unonet.cards import DeckManifest
from unonet.events import Position
from unonet.flip_deck import round_manifest
from unonet.shuffle import dealer_order

_CardAt = Callable[[Position], int | None]


EntryHand = tuple[tuple[Position, ...], tuple[int, ...]]
"""A seat taken in mid-match: the positions the public record gave it, and the cards the host's
snapshot said they were (TrustVerifier.sit)."""


def audit_round(
    rnd: CheckedRound,
    msg: RoundAudit,
    manifest: DeckManifest,
    seat: int | None,
    entry_hand: EntryHand | None = None,
) -> tuple[list[Violation], bytes | None]:
    """Every violation the audit finds (none when the whole round checks out), and the round
    key K it re-derived (None when the seeds do not open their commitments), with which the
    referee re-plays the round. `entry_hand`: the hand of a seat this client took in the
    round, seen only in the snapshot (no nonce opened those cards)."""
    found, contributions = _check_seeds(rnd, msg, seat)
    if contributions is None:
        return found, None  # without the right seeds nothing further can be derived
    key = round_key(msg.host_seed, rnd.game_id, rnd.round_no, contributions)
    decks, problems = _derive_decks(rnd, key, len(manifest))
    found += problems
    found += _compare_commitments(rnd, decks)

    def card_at(position: Position) -> int | None:
        deck = decks.get(position[0])
        if deck is None or not 0 <= position[1] < len(deck.order):
            return None
        return deck.order[position[1]]

    paired = round_manifest(key) if rnd.ledger.flip else manifest
    found += _check_sightings(rnd, card_at, manifest)
    found += _check_hands(rnd, card_at)
    found += _check_entry_hand(entry_hand, card_at, seat)
    found += _check_whereabouts(rnd, card_at, manifest)
    found += _check_verdicts(rnd, card_at, paired)
    found += _check_other_sides(rnd, card_at, paired)
    found += _check_dark_faces(rnd, paired)
    found += _check_dealer(rnd, key, manifest)
    found += _leftovers(rnd)
    return found, key


def _check_seeds(
    rnd: CheckedRound, msg: RoundAudit, seat: int | None
) -> tuple[list[Violation], list[bytes] | None]:
    """Open every seed commitment; return the contributions in seat order, or None."""
    found: list[Violation] = []
    prep = rnd.prepare
    host_commit = seed_commitment(rnd.game_id, rnd.round_no, prep.host_seat, msg.host_seed)
    if not same_digest(host_commit, prep.host_commit):
        found.append(
            Violation(
                ViolationKind.SEED_MISMATCH,
                f"the host's revealed seed does not match the commitment it made in "
                f"round_prepare for round {rnd.round_no}",
            )
        )
        return found, None
    committed = dict(rnd.seed_commits.commits) if rnd.seed_commits is not None else {}
    seeds = dict(msg.seeds)
    absent = set(msg.absent)
    if len(seeds) != len(msg.seeds) or len(absent) != len(msg.absent):
        found.append(Violation(ViolationKind.MALFORMED, "the audit lists a seat twice"))
    for extra in sorted((set(seeds) | absent) - set(committed)):
        found.append(
            Violation(
                ViolationKind.MALFORMED,
                f"the audit names seat {extra}, which committed no seed this round",
            )
        )
    contributions: list[bytes] = []
    usable = True
    for player in sorted(committed):
        if player in seeds and player in absent:
            found.append(
                Violation(
                    ViolationKind.MALFORMED, f"the audit gives seat {player} a seed and absence"
                )
            )
        if player in seeds:
            seed = seeds[player]
            opened = seed_commitment(rnd.game_id, rnd.round_no, player, seed)
            if not same_digest(opened, committed[player]):
                who = "your" if player == seat else f"seat {player}'s"
                found.append(
                    Violation(
                        ViolationKind.SEED_MISMATCH,
                        f"{who} revealed seed does not match {who} commitment",
                    )
                )
                usable = False
            contributions.append(seed)
        elif player in absent:
            if player == seat and rnd.own_revealed and rnd.seed_reveals is None:
                found.append(
                    Violation(
                        ViolationKind.SEED_COMMITS,
                        "the audit lists your seed as absent, but you revealed it: the deck was "
                        "made without your contribution",
                    )
                )
            contributions.append(ABSENT_SEED)
        else:
            found.append(
                Violation(
                    ViolationKind.MALFORMED,
                    f"the audit gives neither a seed nor absence for seat {player}",
                )
            )
            usable = False
    mine = seeds.get(seat) if seat is not None else None
    if mine is not None and rnd.own_seed is not None and not same_digest(mine, rnd.own_seed):
        found.append(
            Violation(ViolationKind.SEED_MISMATCH, "the audit replaces your seed with another")
        )
        usable = False
    return found, contributions if usable else None


def _derive_decks(
    rnd: CheckedRound, key: bytes, deck_size: int
) -> tuple[dict[int, CommittedDeck], list[Violation]]:
    """Epoch 0 from the key, then each reshuffle from the sources of its public event."""
    size0 = len(rnd.decks[0].commits) if 0 in rnd.decks else deck_size
    decks = {0: deal_deck(rnd.game_id, rnd.round_no, key, size0)}

    def card_at(position: Position) -> int:
        return decks[position[0]].order[position[1]]

    for epoch in sorted(rnd.ledger.reshuffles):
        sources = rnd.ledger.reshuffles[epoch].event.sources
        try:
            decks[epoch] = reshuffle_deck(rnd.game_id, rnd.round_no, key, epoch, sources, card_at)
        except (KeyError, IndexError):
            return decks, [
                Violation(
                    ViolationKind.RESHUFFLE_CARDS,
                    f"the reshuffle into epoch {epoch} names positions no earlier pile had",
                )
            ]
    return decks, []


def _compare_commitments(rnd: CheckedRound, decks: dict[int, CommittedDeck]) -> list[Violation]:
    """The published commitments must be exactly those of the derived piles."""
    found: list[Violation] = []
    for epoch in sorted(set(decks) | set(rnd.decks)):
        published = rnd.decks.get(epoch)
        derived = decks.get(epoch)
        if published is None:
            if derived is not None and (
                (epoch == 0 and rnd.dealt) or epoch in rnd.ledger.reshuffles
            ):
                found.append(
                    Violation(
                        ViolationKind.MISSING_COMMITMENT,
                        f"the pile of epoch {epoch} was never committed",
                    )
                )
            continue
        if derived is None:
            found.append(
                Violation(
                    ViolationKind.MALFORMED,
                    f"the host committed epoch {epoch}, which no public reshuffle started",
                )
            )
            continue
        if len(published.commits) != len(derived.commitments):
            found.append(
                Violation(
                    ViolationKind.DECK_ORDER,
                    f"epoch {epoch} has {len(published.commits)} commitments, but the seeds "
                    f"produce a pile of {len(derived.commitments)}",
                )
            )
            continue
        for index, (got, want) in enumerate(
            zip(published.commits, derived.commitments, strict=True)
        ):
            if not same_digest(got, want):
                found.append(
                    Violation(
                        ViolationKind.DECK_ORDER,
                        f"the host's commitments for epoch {epoch} are not those of the deck the "
                        f"seeds produce (first difference at position {fmt((epoch, index))})",
                    )
                )
                break
    return found


def _check_sightings(
    rnd: CheckedRound, card_at: _CardAt, manifest: DeckManifest
) -> list[Violation]:
    found: list[Violation] = []
    for position, sighting in sorted(rnd.seen.items()):
        actual = card_at(position)
        if actual is None:
            found.append(
                Violation(
                    ViolationKind.MISSING_COMMITMENT,
                    f"position {fmt(position)} ({sighting.how}) is in no pile the seeds produce",
                )
            )
        elif actual != sighting.card:
            found.append(
                Violation(
                    ViolationKind.CARD_MISMATCH,
                    f"card at position {fmt(position)} was shown as "
                    f"{_name(manifest, sighting.card)} ({sighting.how}), but the deck the seeds "
                    f"produce has {_name(manifest, actual)} there",
                )
            )
    mismatched = rnd.private_mine ^ rnd.public_mine
    if rnd.missed:
        # Away for the rest of the round: a draw everyone saw may have been the last thing
        # this client got, its private cards (the next event) among what it missed.
        mismatched = rnd.private_mine - rnd.public_mine
    for position in sorted(mismatched):
        side = (
            "privately but not in public"
            if position in rnd.private_mine
            else ("in public but never privately")
        )
        found.append(
            Violation(
                ViolationKind.POSITION_MISMATCH,
                f"you were given position {fmt(position)} {side}: the host may not hand you a "
                f"card other than the one everyone saw you draw",
            )
        )
    return found


def _multiset_at(card_at: _CardAt, positions: Iterable[Position]) -> Counter[int | None]:
    return Counter(card_at(p) for p in positions)


def _check_hands(rnd: CheckedRound, card_at: _CardAt) -> list[Violation]:
    """Hands shown at the round's end against the positions the public record gives them."""
    found: list[Violation] = []
    ledger = rnd.ledger
    if ledger.final_hands is not None:
        for seat, hand in enumerate(ledger.final_hands):
            if _multiset_at(card_at, ledger.hand(seat)) != Counter(hand):
                found.append(
                    Violation(
                        ViolationKind.CARD_MISMATCH,
                        f"seat {seat}'s hand shown at the round's end is not the cards at the "
                        f"positions it drew",
                    )
                )
    return found


def _check_entry_hand(
    entry_hand: EntryHand | None, card_at: _CardAt, seat: int | None
) -> list[Violation]:
    """The hand a seat taken in mid-match came with must be the cards the public record gave
    that seat: the host may not hand the newcomer other cards than its stand-in held."""
    if entry_hand is None:
        return []
    positions, hand = entry_hand
    if _multiset_at(card_at, positions) == Counter(hand):
        return []
    return [
        Violation(
            ViolationKind.CARD_MISMATCH,
            f"the hand you were given when you took seat {seat} ({len(hand)} cards) is not the "
            f"cards at the {len(positions)} positions the public record gives that seat",
        )
    ]


def _check_whereabouts(
    rnd: CheckedRound, card_at: _CardAt, manifest: DeckManifest
) -> list[Violation]:
    """Each card of the deck lies in exactly one place the public record names (a hand, the
    discard pile, under or in the draw pile): none lost, none in two places at once."""
    if not rnd.dealt:
        return []
    where = _multiset_at(card_at, rnd.ledger.resting_places())
    lost = [card for card in range(len(manifest)) if where[card] == 0]
    doubled = [card for card, count in where.items() if card is not None and count > 1]
    if not lost and not doubled and where[None] == 0:
        return []
    parts = []
    if lost:
        parts.append(f"{len(lost)} cards are nowhere (first: {_name(manifest, lost[0])})")
    if doubled:
        parts.append(
            f"{len(doubled)} are in two places at once (first: {_name(manifest, doubled[0])})"
        )
    if where[None]:
        parts.append(f"{where[None]} places name positions no pile has")
    return [
        Violation(
            ViolationKind.CARD_COUNT,
            "the public record does not account for every card exactly once: "
            + "; ".join(parts),
        )
    ]


def _check_verdicts(rnd: CheckedRound, card_at: _CardAt, manifest: DeckManifest) -> list[Violation]:
    """Every public verdict, now that every hand can be read from the key."""
    found: list[Violation] = []
    for record in rnd.challenges:
        snap = record.snapshot
        if record.checked_by_me or snap is None or snap.color_before is None:
            continue
        cards = [card_at(p) for p in snap.positions]
        known = [c for c in cards if c is not None]
        problem = verdict_violation(
            manifest,
            snap.seat,
            record.verdict.guilty,
            known,
            snap.color_before,
            "the audited deck shows it",
            snap.side,
        )
        if problem is not None:
            found.append(problem)
    for verdict in rnd.reveals_due:
        found.append(
            Violation(
                ViolationKind.MISSING_REVEAL,
                f"you challenged seat {verdict.target} but its hand was never revealed to you",
            )
        )
    return found


def _check_other_sides(
    rnd: CheckedRound, card_at: _CardAt, manifest: DeckManifest
) -> list[Violation]:
    """UNO Flip: every face shown of the side not in play (each hand, the draw pile's top) must
    be that side of the card the seeds put at its position."""
    found: list[Violation] = []
    for claim in rnd.ledger.side_claims:
        card = card_at(claim.position)
        if card is None or not 0 <= card < len(manifest):
            found.append(
                Violation(
                    ViolationKind.OTHER_SIDE,
                    f"{claim.whose} was shown with {claim.face.name} at position "
                    f"{fmt(claim.position)}, which no pile the seeds produce has",
                )
            )
            continue
        faces = manifest.cards[card].faces
        actual = faces[claim.side] if claim.side < len(faces) else None
        if actual == claim.face:
            continue
        in_play = faces[1 - claim.side].name if len(faces) == 2 else faces[0].name
        said = actual.name if actual is not None else "no such side"
        found.append(
            Violation(
                ViolationKind.OTHER_SIDE,
                f"{claim.whose} was shown with {claim.face.name} as the other side of position "
                f"{fmt(claim.position)}, but the deck the seeds produce has {in_play} there, "
                f"whose other side is {said}",
            )
        )
    return found


def _check_dark_faces(rnd: CheckedRound, paired: DeckManifest) -> list[Violation]:
    """UNO Flip: every dark face told this round, to everybody or to this client, is the one
    the round key pairs with its card."""
    if not rnd.ledger.flip:
        return []
    told = [(card, face, "everybody") for card, face in sorted(rnd.ledger.dark.items())]
    told += [(card, face, "you") for card, face in sorted(rnd.told.items())]
    return audit_dark_faces(told, paired)


def _check_dealer(rnd: CheckedRound, key: bytes, manifest: DeckManifest) -> list[Violation]:
    """The k-th card of dealer draw attempt a is dealer_order(K, a, deck size)[k]."""
    found: list[Violation] = []
    for draw in rnd.dealer_draws:
        order = dealer_order(key, draw.attempt, len(manifest))
        cards = [card for _, card in draw.draws]
        if cards != order[: len(cards)]:
            found.append(
                Violation(
                    ViolationKind.DECK_ORDER,
                    f"the dealer draw (attempt {draw.attempt}) is not the one the seeds produce",
                )
            )
    return found


def _leftovers(rnd: CheckedRound) -> list[Violation]:
    return [
        Violation(
            ViolationKind.MISSING_COMMITMENT,
            f"position {fmt(o.position)} ({o.how}) was never covered by a commitment",
        )
        for o in rnd.pending
    ]


def _name(manifest: DeckManifest, card: int) -> str:
    return manifest.face(card).name if 0 <= card < len(manifest) else f"card {card}"
