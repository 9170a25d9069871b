"""What the public events alone say: who holds which positions, the piles, the side, the colour.

Every seat and spectator can keep this ledger, so whatever it finds wrong is wrong for everyone.
It fixes the hand behind a Wild Draw Four (the positions its player held, less the card played)
before the host could know whether anyone will challenge. Cards move only by position: drawn
(`cards_drawn`), played (`card_played`), whole hands passed on (`hands_moved`, 7-0) and hands put
back face down under the draw pile (`cards_returned`, a knock-out), where they keep their
positions and wait, in order, until the rest of the pile has been drawn.

UNO Flip: a `flipped` turns the discard pile and the draw pile over (each reversed: what was
under the draw pile comes first) and the side in play, by which every face is read. A card id
names its light face (the manifest); its dark face is the round's secret pairing, known here only
as told to everybody (`dark_faces_shown` with no seat), which must come before any public event
that needs it (a card played or turned up on the dark side, the hands of a round that ends on
it). The faces shown of the side not in play (`other_sides_shown`, `pile_other_side_shown`) are
checked here against the positions the record gives (the seat's whole hand, the draw pile's top)
and kept as claims that the audit checks against the deck the seeds and the pairing produce.

No Mercy (`no_mercy.py`): a Discard All's other cards (`cards_discarded`) go from the hand face up
under it; a Color Roulette's turned cards (`roulette_turned`) are the ones its chooser was seen
drawing; a knock-out (`knocked_out`) counts the hand and its `cards_returned` sends all of it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from protocol.trust import no_mercy
from protocol.trust.dark_faces import told_violations, untold
from protocol.trust.results import Violation, ViolationKind
from unonet import events as ev
from unonet.cards import CHALLENGEABLE_KINDS, Color, DeckManifest, Face
from unonet.events import Position

CHALLENGEABLE = CHALLENGEABLE_KINDS
"""Cards whose play may be challenged (RULEBOOK.md 1.6, and Flip's Wild Draw Two and Draw Color),
read on the side in play."""


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
    side: int = 0  # the side in play: the verdict reads the hand's faces on it


@dataclass(frozen=True, slots=True)
class ReshuffleRecord:
    """A Reshuffled event with the public state it must agree with, kept for a later check."""

    event: ev.Reshuffled
    previous_epoch: int
    rest: tuple[Position, ...]  # the previous epoch's positions still in the draw pile
    discard: tuple[tuple[Position, int], ...]  # the discard pile just before, top last


@dataclass(frozen=True, slots=True)
class SideClaim:
    """A face the host showed as the side not in play of the card at `position` (UNO Flip),
    with the side it must be read on; the audit opens the position and compares."""

    whose: str  # "seat 2's hand", "the draw pile's top"
    position: Position
    face: Face
    side: int


@dataclass
class PublicLedger:
    """The positions and face-up cards that public events establish, for one round.

    `pile` is the draw pile by the record, top first: the untaken positions of the latest epoch
    and the returned positions (`under`) below them, the whole turned over by each Flip. `flip`:
    an UNO Flip round, whose `dark` faces are those told to everybody this round."""

    manifest: DeckManifest
    flip: bool = False
    dark: dict[int, Face] = field(default_factory=dict)
    holdings: dict[int, set[Position]] = field(default_factory=dict)
    face_up: dict[Position, int] = field(default_factory=dict)
    taken: dict[int, set[int]] = field(default_factory=dict)  # indices that left their pile
    epoch: int = 0
    pile: list[Position] = field(default_factory=list)
    discard: list[tuple[Position, int]] = field(default_factory=list)
    color: Color | None = None
    side: int = 0  # UNO Flip: the side in play (0 light, 1 dark); faces are read on it
    snapshots: dict[int, HandSnapshot] = field(default_factory=dict)
    reshuffles: dict[int, ReshuffleRecord] = field(default_factory=dict)
    under: list[Position] = field(default_factory=list)  # returned, still in the pile
    side_claims: list[SideClaim] = field(default_factory=list)
    final_hands: tuple[tuple[int, ...], ...] | None = None
    max_hand: int | None = None  # the Mercy limit (max_hand) of the match's rules
    knocked: set[int] = field(default_factory=set)  # seats knocked out this round
    roulette: dict[int, list[Position]] = field(default_factory=dict)  # turned, not yet shown
    top_player: int | None = None  # who played the discard pile's top card (None: turned)
    _dealing: bool = True
    _pile_turned: bool = False  # a Flip turned the pile over since it was made

    def __post_init__(self) -> None:
        if not self.pile:
            self.pile = [(0, index) for index in range(len(self.manifest))]

    @property
    def two_sided(self) -> bool:
        """A Flip round: every card has a face on each side."""
        return self.flip

    def face(self, card: int) -> Face | None:
        """The card's face on the side in play, or None for an id the deck does not have (a
        malformed event) or, on the dark side, a card whose dark face nobody was told."""
        if not 0 <= card < len(self.manifest):
            return None
        if self.flip and self.side == 1:
            return self.dark.get(card)
        return self.manifest.cards[card].faces[0]

    def unknown_card(self, card: int, what: str) -> list[Violation]:
        if 0 <= card < len(self.manifest):  # a dark side in play, and the face not told
            return [
                Violation(
                    ViolationKind.DARK_FACE,
                    f"{what} shows card {card} face up on the dark side, but nobody was told "
                    f"its dark face (a card's dark face is told before it shows)",
                )
            ]
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
            return self._returned(event) + no_mercy.returned_whole(self, event)
        if isinstance(event, ev.CardsDiscarded):
            return no_mercy.discarded(self, event)
        if isinstance(event, ev.RouletteTurned):
            return no_mercy.roulette_turned(self, event)
        if isinstance(event, ev.KnockedOut):
            return no_mercy.knocked_out(self, event)
        if isinstance(event, ev.ColorChosen):
            self.color = event.color
        elif isinstance(event, ev.Reshuffled):
            return self._reshuffled(event)
        elif isinstance(event, ev.Flipped):
            return self._flipped(event)
        elif isinstance(event, ev.OtherSidesShown):
            return self._other_sides(event)
        elif isinstance(event, ev.PileOtherSideShown):
            return self._pile_other_side(event)
        elif isinstance(event, ev.DarkFacesShown):
            return self._dark_told(event)
        elif isinstance(event, ev.RoundEnded):
            return self._ended(event)
        return []

    def pile_size(self, epoch: int) -> int | None:
        """How many positions the pile of `epoch` has: the deck, or its reshuffle's sources."""
        if epoch == 0:
            return len(self.manifest)
        record = self.reshuffles.get(epoch)
        return None if record is None else len(record.event.sources)

    # -- taking cards from the draw pile -----------------------------------------------------------

    def _take(self, position: Position, what: str) -> list[Violation]:
        """A card leaves the draw pile: it must be the top one (during the deal, any of the
        top ones: the deal's pattern is judged once it is over)."""
        if position in self.pile:
            found = [] if self._dealing else self._out_of_order(position, what)
            self.pile.remove(position)
            if position in self.under:
                self.under.remove(position)
            else:
                self.taken.setdefault(position[0], set()).add(position[1])
            return found
        epoch, index = position
        if index in self.taken.get(epoch, set()):
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
        return [
            Violation(
                ViolationKind.DRAW_ORDER,
                f"{what} came from position {fmt(position)}, which is in no pile of the round",
            )
        ]

    def _out_of_order(self, position: Position, what: str) -> list[Violation]:
        """Cards leave the pile from the top: the host may not pick which card comes next.
        Returned cards lie under the rest, in the order they went under (SPEC.md 11.5 step 6),
        until a Flip turns the whole pile over."""
        top = self.pile[0]
        if position == top:
            return []
        if position not in self.under:
            detail = (
                f"{what}: position {fmt(top)} is still in the pile while {fmt(position)}, "
                f"below it, was taken; the host may not pick which card comes next"
            )
        elif top not in self.under:
            detail = (
                f"{what} took returned position {fmt(position)} from under the draw pile while "
                f"position {fmt(top)} was still on top of it"
            )
        elif not self._pile_turned:
            detail = (
                f"{what} took returned position {fmt(position)} before {fmt(top)}, which went "
                f"under the draw pile first"
            )
        else:
            detail = (
                f"{what} took returned position {fmt(position)} before {fmt(top)}, which the "
                f"turned-over draw pile puts above it"
            )
        return [Violation(ViolationKind.DRAW_ORDER, detail)]

    def _end_deal(self, what: str) -> list[Violation]:
        """The deal is over: it must have taken the top of the deck, 0..m-1 with no gap."""
        if not self._dealing:
            return []
        self._dealing = False
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
        what = f"seat {event.seat}'s draw"
        found = [] if event.reason == "deal" else self._end_deal(what)
        for position in event.positions:
            found += self._take(position, what)
            self.hand(event.seat).add(position)
        no_mercy.drawn(self, event)
        return found

    def _turned(self, event: ev.TopCardTurned) -> list[Violation]:
        found = self._end_deal("the turned top card")
        found += self._take(event.position, "the turned top card")
        self.face_up[event.position] = event.card
        self.discard.append((event.position, event.card))
        self.top_player = None
        face = self.face(event.card)
        if face is None:
            self.color = None
            return found + self.unknown_card(event.card, "the turned top card")
        self.color = face.color
        return found

    # -- playing and moving cards ------------------------------------------------------------------

    def _played(self, event: ev.CardPlayed) -> list[Violation]:
        found: list[Violation] = []
        hand = self.hand(event.seat)
        face = self.face(event.card)
        if face is None:
            found += self.unknown_card(event.card, f"seat {event.seat}'s play")
        elif face.kind in CHALLENGEABLE:
            self.snapshots[event.seat] = HandSnapshot(
                seat=event.seat,
                positions=frozenset(hand - {event.position}),
                color_before=self.color,
                played=event.position,
                side=self.side,
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
        self.top_player = event.seat
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
            if position in self.pile:
                found.append(
                    Violation(
                        ViolationKind.POSITION_REUSED,
                        f"seat {event.seat} returned position {fmt(position)}, which is "
                        f"already in the draw pile",
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
            self.pile.append(position)
        return found

    def resting_places(self) -> list[Position]:
        """Every position where a card of this round lies now, by the public record: in a
        hand, on the discard pile, or in the draw pile (under it, if returned). Each card should
        be at exactly one (the audit reads them through the derived order)."""
        places = [p for hand in self.holdings.values() for p in hand]
        places += [position for position, _ in self.discard]
        return places + self.pile

    # -- reshuffles --------------------------------------------------------------------------------

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
            rest=tuple(p for p in self.pile if p not in self.under),
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
        self.pile = [(event.epoch, index) for index in range(len(event.sources))] + self.under
        self._pile_turned = False
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

    @staticmethod
    def expected_sources(record: ReshuffleRecord) -> list[Position]:
        """What a reshuffle must mix: the rest of the draw pile and the discards it takes."""
        discards = record.discard[:-1] if record.event.reason == "empty_pile" else record.discard
        return sorted([*record.rest, *(position for position, _ in discards)])

    # -- UNO Flip ----------------------------------------------------------------------------------

    def _one_sided(self, what: str) -> list[Violation]:
        return [
            Violation(
                ViolationKind.MALFORMED, f"{what}, but this match's deck has only one side"
            )
        ]

    def _flipped(self, event: ev.Flipped) -> list[Violation]:
        """The discard pile and the draw pile turn over (each reversed) and so does the side
        in play; the new top's face on the new side sets the colour. The ledger follows what a
        Flip does, whatever the event claims."""
        if not self.two_sided:
            return self._one_sided(f"seat {event.seat} flipped the table")
        found: list[Violation] = []
        side = 1 - self.side
        if event.side != side:
            found.append(
                Violation(
                    ViolationKind.FLIP,
                    f"seat {event.seat}'s Flip turned the table to side {event.side}, but side "
                    f"{self.side} was in play, so it turns to side {side}",
                )
            )
        self.side = side
        self.top_player = None
        self.discard.reverse()
        self.pile.reverse()
        self._pile_turned = not self._pile_turned
        if not self.discard:
            self.color = None
            return found
        position, card = self.discard[-1]
        face = self.face(card)
        if face is None and event.top == card:
            found += self.unknown_card(card, f"seat {event.seat}'s Flip")
        if event.top != card:
            shown = self.face(event.top)
            named = shown.name if shown is not None else f"card {event.top}"
            actual = face.name if face is not None else f"card {card}"
            found.append(
                Violation(
                    ViolationKind.FLIP,
                    f"seat {event.seat}'s Flip names {named} the discard pile's new top, but "
                    f"the pile turned over puts position {fmt(position)}, {actual}, on top",
                )
            )
        self.color = face.color if face is not None else None
        return found

    def _other_sides(self, event: ev.OtherSidesShown) -> list[Violation]:
        """A seat's whole hand as everyone sees it: exactly the positions the record gives it,
        ascending, each with the face of the side not in play (checked at the audit)."""
        whose = f"seat {event.seat}'s hand"
        if not self.two_sided:
            return self._one_sided(f"{whose} was shown from its other side")
        found: list[Violation] = []
        if len(event.positions) != len(event.faces):
            found.append(
                Violation(
                    ViolationKind.MALFORMED,
                    f"{whose} was shown as {len(event.positions)} positions with "
                    f"{len(event.faces)} faces",
                )
            )
        listed = list(event.positions)
        if listed != sorted(set(listed)):
            found.append(
                Violation(
                    ViolationKind.OTHER_SIDE,
                    f"{whose} was shown with its positions out of order or listed twice",
                )
            )
        held = self.hand(event.seat)
        for position in sorted(set(listed) - held):
            found.append(
                Violation(
                    ViolationKind.OTHER_SIDE,
                    f"{whose} was shown with position {fmt(position)}, which the public record "
                    f"does not put in its hand",
                )
            )
        for position in sorted(held - set(listed)):
            found.append(
                Violation(
                    ViolationKind.OTHER_SIDE,
                    f"{whose} was shown without position {fmt(position)}, which the public "
                    f"record puts in its hand",
                )
            )
        hidden = 1 - self.side
        for position, face in zip(event.positions, event.faces, strict=False):
            self.side_claims.append(SideClaim(whose, position, face, hidden))
        return found

    def _pile_other_side(self, event: ev.PileOtherSideShown) -> list[Violation]:
        """The face not in play of the draw pile's top card: that card's, at the audit."""
        whose = "the draw pile's top"
        if not self.two_sided:
            return self._one_sided(f"{whose} was shown from its other side")
        if (event.position is None) != (event.face is None):
            return [
                Violation(
                    ViolationKind.MALFORMED,
                    f"{whose} was shown with a position and no face, or a face and no position",
                )
            ]
        top = self.pile[0] if self.pile else None
        found: list[Violation] = []
        if event.position != top:
            said = "an empty pile" if event.position is None else f"position {fmt(event.position)}"
            actual = "an empty pile" if top is None else f"position {fmt(top)} on top"
            found.append(
                Violation(
                    ViolationKind.OTHER_SIDE,
                    f"{whose} was shown as {said}, but the public record has {actual}",
                )
            )
        if event.position is not None and event.face is not None:
            self.side_claims.append(SideClaim(whose, event.position, event.face, 1 - self.side))
        return found

    def _dark_told(self, event: ev.DarkFacesShown) -> list[Violation]:
        """Dark faces told to everybody: kept (the faces of cards face up on the dark side),
        once each and consistent with the Flip deck; true to the pairing at the audit."""
        if not self.two_sided:
            return self._one_sided("dark faces were told")
        found, added = told_violations(event, self.dark, len(self.manifest), "everybody")
        self.dark.update(added)
        return found

    # -- the end -----------------------------------------------------------------------------------

    def _ended(self, event: ev.RoundEnded) -> list[Violation]:
        self.final_hands = event.hands
        found: list[Violation] = []
        shown = [card for hand in event.hands for card in hand if 0 <= card < len(self.manifest)]
        missing = untold(shown, self.dark) if self.flip and self.side == 1 else []
        if missing:
            found.append(
                Violation(
                    ViolationKind.DARK_FACE,
                    f"the round ends on the dark side, but nobody was told the dark face of "
                    f"{len(missing)} cards of the hands shown (first: card {missing[0]}): their "
                    f"points cannot be read",
                )
            )
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
