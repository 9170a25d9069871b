"""What the public events alone say: who holds which positions, the discard pile, the colour.

Every seat and spectator can keep this ledger, so whatever it finds wrong is wrong for everyone.
It fixes the hand behind a Wild Draw Four (the positions its player held, less the card played)
before the host could know whether anyone will challenge. Cards move only by position: drawn
(`cards_drawn`), played (`card_played`), whole hands passed on (`hands_moved`, 7-0) and hands put
back face down under the draw pile (`cards_returned`, a knock-out), where they keep their
positions and wait, in order, until the rest of the pile has been drawn.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from protocol.trust.results import Violation, ViolationKind
from unonet import events as ev
from unonet.cards import Color, DeckManifest, Face, Kind
from unonet.events import Position

CHALLENGEABLE = frozenset({Kind.WILD_DRAW_FOUR, Kind.WILD_DRAW_TWO, Kind.WILD_DRAW_COLOR})
"""Cards whose play may be challenged (RULEBOOK.md 1.6, and Flip's Wild Draw Two and Draw Color)."""


def fmt(position: Position) -> str:
    """A position as the messages print it: (epoch, index)."""
    return f"({position[0]}, {position[1]})"


@dataclass(frozen=True, slots=True)
class HandSnapshot:
    """A seat's hand at the moment it played a challengeable card, that card excluded."""

    seat: int
    positions: frozenset[Position]
    color_before: Color | None
    played: Position


@dataclass(frozen=True, slots=True)
class ReshuffleRecord:
    """A Reshuffled event with the public state it must agree with, kept for a later check."""

    event: ev.Reshuffled
    previous_epoch: int
    taken: frozenset[int]  # indices of the previous epoch already drawn or turned
    discard: tuple[tuple[Position, int], ...]  # the discard pile just before, top last


@dataclass
class PublicLedger:
    """The positions and face-up cards that public events establish, for one round."""

    manifest: DeckManifest
    holdings: dict[int, set[Position]] = field(default_factory=dict)
    face_up: dict[Position, int] = field(default_factory=dict)
    taken: dict[int, set[int]] = field(default_factory=dict)
    epoch: int = 0
    discard: list[tuple[Position, int]] = field(default_factory=list)
    color: Color | None = None
    snapshots: dict[int, HandSnapshot] = field(default_factory=dict)
    reshuffles: dict[int, ReshuffleRecord] = field(default_factory=dict)
    under: list[Position] = field(default_factory=list)  # returned, in the order drawn later
    final_hands: tuple[tuple[int, ...], ...] | None = None
    _dealing: bool = True

    @property
    def tracks_color(self) -> bool:
        """Colours are followed for one-sided decks; a Flip deck's side is not in the events."""
        return all(len(card.faces) == 1 for card in self.manifest)

    def face(self, card: int) -> Face | None:
        """The card's face, or None for an id the deck does not have (a malformed event)."""
        return self.manifest.face(card) if 0 <= card < len(self.manifest) else None

    def _unknown_card(self, card: int, what: str) -> list[Violation]:
        return [Violation(ViolationKind.MALFORMED, f"{what} names card {card}, not in the deck")]

    def hand(self, seat: int) -> set[Position]:
        return self.holdings.setdefault(seat, set())

    def apply(self, event: ev.Event) -> list[Violation]:
        """Update the ledger from one public event; return what it contradicts."""
        if isinstance(event, ev.CardsDrawn):
            return self._drawn(event)
        if isinstance(event, ev.TopCardTurned):
            return self._turned(event)
        if isinstance(event, ev.CardPlayed):
            return self._played(event)
        if isinstance(event, ev.HandsMoved):
            return self._moved(event)
        if isinstance(event, ev.CardsReturned):
            return self._returned(event)
        if isinstance(event, ev.ColorChosen):
            self.color = event.color
        elif isinstance(event, ev.Reshuffled):
            return self._reshuffled(event)
        elif isinstance(event, ev.RoundEnded):
            return self._ended(event)
        return []

    def pile_size(self, epoch: int) -> int | None:
        """How many positions the pile of `epoch` has: the deck, or its reshuffle's sources."""
        if epoch == 0:
            return len(self.manifest)
        record = self.reshuffles.get(epoch)
        return None if record is None else len(record.event.sources)

    def _take(self, position: Position, what: str) -> list[Violation]:
        if position in self.under:
            return self._take_returned(position, what)
        epoch, index = position
        taken = self.taken.setdefault(epoch, set())
        if index in taken:
            return [
                Violation(
                    ViolationKind.POSITION_REUSED,
                    f"position {fmt(position)} was handed out twice ({what})",
                )
            ]
        if epoch != self.epoch:
            return [
                Violation(
                    ViolationKind.DRAW_ORDER,
                    f"{what} came from position {fmt(position)}, but the draw pile is epoch "
                    f"{self.epoch} now",
                )
            ]
        taken.add(index)
        return []

    def _take_returned(self, position: Position, what: str) -> list[Violation]:
        """A returned card lies under the pile: it comes only once the pile above it is gone,
        and returned cards come in the order they went under (SPEC.md 11.5 step 6)."""
        found: list[Violation] = []
        size = self.pile_size(self.epoch)
        taken = self.taken.get(self.epoch, set())
        left = None if size is None else next((i for i in range(size) if i not in taken), None)
        if left is not None:
            found.append(
                Violation(
                    ViolationKind.DRAW_ORDER,
                    f"{what} took returned position {fmt(position)} from under the draw pile "
                    f"while position {fmt((self.epoch, left))} was still on top of it",
                )
            )
        elif position != self.under[0]:
            found.append(
                Violation(
                    ViolationKind.DRAW_ORDER,
                    f"{what} took returned position {fmt(position)} before "
                    f"{fmt(self.under[0])}, which went under the draw pile first",
                )
            )
        self.under.remove(position)
        return found

    def _check_prefix(self, what: str) -> list[Violation]:
        """Cards leave a pile from the top: the indices taken must be 0..m-1 with no gap."""
        taken = self.taken.get(self.epoch, set())
        gaps = sorted(set(range(len(taken))) - taken)
        if not gaps:
            return []
        return [
            Violation(
                ViolationKind.DRAW_ORDER,
                f"{what}: position {fmt((self.epoch, gaps[0]))} is still in the pile while a "
                f"card below it was taken; the host may not pick which card comes next",
            )
        ]

    def _drawn(self, event: ev.CardsDrawn) -> list[Violation]:
        found: list[Violation] = []
        for position in event.positions:
            found += self._take(position, f"seat {event.seat}'s draw")
            self.hand(event.seat).add(position)
        if event.reason != "deal":
            self._dealing = False
        if not self._dealing:
            found += self._check_prefix(f"seat {event.seat}'s draw")
        return found

    def _turned(self, event: ev.TopCardTurned) -> list[Violation]:
        self._dealing = False
        found = self._take(event.position, "the turned top card")
        found += self._check_prefix("the turned top card")
        self.face_up[event.position] = event.card
        self.discard.append((event.position, event.card))
        face = self.face(event.card)
        if face is None:
            self.color = None
            return found + self._unknown_card(event.card, "the turned top card")
        self.color = face.color
        return found

    def _played(self, event: ev.CardPlayed) -> list[Violation]:
        found: list[Violation] = []
        hand = self.hand(event.seat)
        face = self.face(event.card)
        if face is None:
            found += self._unknown_card(event.card, f"seat {event.seat}'s play")
        elif face.kind in CHALLENGEABLE:
            self.snapshots[event.seat] = HandSnapshot(
                seat=event.seat,
                positions=frozenset(hand - {event.position}),
                color_before=self.color,
                played=event.position,
            )
        if event.position in hand:
            hand.remove(event.position)
        else:
            found.append(
                Violation(
                    ViolationKind.NOT_HELD,
                    f"seat {event.seat} played position {fmt(event.position)}, which the public "
                    f"record does not put in its hand",
                )
            )
        self.face_up[event.position] = event.card
        self.discard.append((event.position, event.card))
        if face is None:
            self.color = None
        elif face.is_wild:
            self.color = event.color
        elif face.color is not None:  # a Buzzer has no colour and leaves the one in play
            self.color = face.color
        return found

    def _moved(self, event: ev.HandsMoved) -> list[Violation]:
        """Hands change owner all at once (a 0 passes every hand on): each giver must hold
        every position it gives, judged on the hands as they were before any of the moves."""
        found: list[Violation] = []
        named: set[Position] = set()
        for giver, receiver, positions in event.moves:
            hand = self.hand(giver)
            for position in positions:
                if position in named:
                    found.append(
                        Violation(
                            ViolationKind.POSITION_REUSED,
                            f"the {event.reason} moves position {fmt(position)} twice",
                        )
                    )
                elif position not in hand:
                    found.append(
                        Violation(
                            ViolationKind.NOT_HELD,
                            f"seat {giver} passed position {fmt(position)} to seat {receiver}, "
                            f"which the public record does not put in its hand",
                        )
                    )
                named.add(position)
        for giver, _, positions in event.moves:
            self.hand(giver).difference_update(positions)
        for _, receiver, positions in event.moves:
            self.hand(receiver).update(positions)
        return found

    def _returned(self, event: ev.CardsReturned) -> list[Violation]:
        """A hand goes face down under the draw pile, keeping its positions, in listed order."""
        found: list[Violation] = []
        hand = self.hand(event.seat)
        for position in event.positions:
            if position in self.under:
                found.append(
                    Violation(
                        ViolationKind.POSITION_REUSED,
                        f"seat {event.seat} returned position {fmt(position)}, which is "
                        f"already under the draw pile",
                    )
                )
                continue
            if position in hand:
                hand.remove(position)
            else:
                found.append(
                    Violation(
                        ViolationKind.NOT_HELD,
                        f"seat {event.seat} returned position {fmt(position)}, which the public "
                        f"record does not put in its hand",
                    )
                )
            self.under.append(position)
        return found

    def resting_places(self) -> list[Position]:
        """Every position where a card of this round lies now, by the public record: in a
        hand, on the discard pile, under the draw pile or still in it. Each card should be at
        exactly one (the audit reads them through the derived order)."""
        places = [p for hand in self.holdings.values() for p in hand]
        places += [position for position, _ in self.discard]
        places += self.under
        size = self.pile_size(self.epoch) or 0
        taken = self.taken.get(self.epoch, set())
        places += [(self.epoch, i) for i in range(size) if i not in taken]
        return places

    def _reshuffled(self, event: ev.Reshuffled) -> list[Violation]:
        found: list[Violation] = []
        if event.epoch != self.epoch + 1:
            found.append(
                Violation(
                    ViolationKind.MALFORMED,
                    f"a reshuffle into epoch {event.epoch} follows epoch {self.epoch}",
                )
            )
        record = ReshuffleRecord(
            event=event,
            previous_epoch=self.epoch,
            taken=frozenset(self.taken.get(self.epoch, set())),
            discard=tuple(self.discard),
        )
        self.reshuffles[event.epoch] = record
        found += self._public_sources(record)
        if self.under and event.reason == "empty_pile":
            found.append(
                Violation(
                    ViolationKind.RESHUFFLE_CARDS,
                    f"the discard pile was reshuffled while {len(self.under)} returned cards "
                    f"were still under the draw pile",
                )
            )
        if event.reason == "empty_pile" and self.discard:
            self.discard = [self.discard[-1]]
        else:
            self.discard = []
        self.epoch = event.epoch
        return found

    def _public_sources(self, record: ReshuffleRecord) -> list[Violation]:
        """An emptied pile is remade from the face-up discards less the top, named card by card."""
        event = record.event
        if event.reason != "empty_pile":
            return []
        expected = sorted(record.discard[:-1])
        named = sorted(zip(event.sources, event.cards, strict=False))
        if len(event.sources) != len(event.cards) or named != expected:
            return [
                Violation(
                    ViolationKind.RESHUFFLE_CARDS,
                    f"the reshuffle into epoch {event.epoch} is not the discard pile less its "
                    f"top card ({len(expected)} cards expected, {len(event.sources)} listed)",
                )
            ]
        return []

    def expected_sources(self, record: ReshuffleRecord, size: int) -> list[Position]:
        """What a reshuffle must mix: the untaken rest of the pile and the discards it takes."""
        untaken = [(record.previous_epoch, i) for i in range(size) if i not in record.taken]
        discards = record.discard[:-1] if record.event.reason == "empty_pile" else record.discard
        return sorted(untaken + [position for position, _ in discards])

    def _ended(self, event: ev.RoundEnded) -> list[Violation]:
        self.final_hands = event.hands
        found: list[Violation] = []
        for seat, hand in enumerate(event.hands):
            held = len(self.hand(seat))
            if held != len(hand):
                found.append(
                    Violation(
                        ViolationKind.HAND_COUNT,
                        f"seat {seat} ends the round showing {len(hand)} cards, but the public "
                        f"record gives it {held}",
                    )
                )
        return found
