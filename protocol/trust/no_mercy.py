"""What UNO Show 'Em No Mercy's public events add to the ledger (SPEC.md 11.13).

Every card still moves by position, so these checks only follow the record: a Discard All's other
cards (`cards_discarded`) leave its player's hand face up and lie under it on the discard pile; a
Color Roulette's turned cards (`roulette_turned`) are exactly the ones its chooser was just seen
drawing, in order, none before the last of the colour named; a knock-out (`knocked_out`) counts
the hand the record gives the seat, happens at the Mercy limit and no earlier, and its
`cards_returned` sends that whole hand under the draw pile. Whether a Discard All took *every*
card of its colour, or the Mercy rule put someone out when it should have, needs the hidden hands:
the referee judges those at the audit, on the engine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from protocol.trust.results import Violation, ViolationKind
from unonet import events as ev
from unonet.cards import Kind

if TYPE_CHECKING:
    from protocol.trust.ledger import PublicLedger

ROULETTE_REASON = Kind.WILD_COLOR_ROULETTE.value
"""The reason of each `cards_drawn` a Color Roulette's chooser turns."""


def _fmt(position: tuple[int, int]) -> str:
    return f"({position[0]}, {position[1]})"


def _malformed(what: str, positions: int, cards: int) -> list[Violation]:
    if positions == cards:
        return []
    return [
        Violation(
            ViolationKind.MALFORMED, f"{what} pairs {positions} positions with {cards} cards"
        )
    ]


def discarded(ledger: PublicLedger, event: ev.CardsDiscarded) -> list[Violation]:
    """A Discard All's other cards: held by its player, each of the Discard All's colour, laid
    face up under it in the order listed (the Discard All stays on top)."""
    what = f"seat {event.seat}'s Discard All"
    found = _malformed(what, len(event.positions), len(event.cards))
    top = ledger.discard[-1] if ledger.discard else None
    face = None if top is None else ledger.face(top[1])
    if top is None or face is None or face.kind is not Kind.DISCARD_ALL or (
        ledger.top_player != event.seat
    ):
        found.append(
            Violation(
                ViolationKind.DISCARD_ALL,
                f"seat {event.seat} discarded {len(event.positions)} cards as if by a Discard "
                f"All, but the discard pile's top is not a Discard All it played",
            )
        )
        color = None
    else:
        color = face.color
    hand = ledger.hand(event.seat)
    named: set[tuple[int, int]] = set()
    laid: list[tuple[tuple[int, int], int]] = []
    for position, card in zip(event.positions, event.cards, strict=False):
        if position in named:
            found.append(
                Violation(
                    ViolationKind.POSITION_REUSED,
                    f"{what} lists position {_fmt(position)} twice",
                )
            )
            continue
        named.add(position)
        if position not in hand:
            found.append(
                Violation(
                    ViolationKind.NOT_HELD,
                    f"{what} discarded position {_fmt(position)}, which the public record "
                    f"does not put in its hand",
                )
            )
        else:
            hand.remove(position)
        shown = ledger.face(card)
        if shown is None:
            found += ledger.unknown_card(card, what)
        elif color is not None and shown.color != color:
            found.append(
                Violation(
                    ViolationKind.DISCARD_ALL,
                    f"{what} took {shown.name} at position {_fmt(position)}, which is not of "
                    f"its colour ({color.value})",
                )
            )
        ledger.face_up[position] = card
        laid.append((position, card))
    if ledger.discard:
        ledger.discard[-1:-1] = laid
    else:
        ledger.discard.extend(laid)
    return found


def drawn(ledger: PublicLedger, event: ev.CardsDrawn) -> None:
    """A card a Color Roulette's chooser turns: kept until its `roulette_turned` names it."""
    if event.reason == ROULETTE_REASON:
        ledger.roulette.setdefault(event.seat, []).extend(event.positions)


def roulette_turned(ledger: PublicLedger, event: ev.RouletteTurned) -> list[Violation]:
    """The turned cards are the ones the chooser drew for the roulette, in order, under the
    colour it named; none but the last may be of that colour (a wild does not count)."""
    what = f"seat {event.seat}'s Color Roulette"
    found = _malformed(what, len(event.positions), len(event.cards))
    drew = ledger.roulette.pop(event.seat, [])
    if list(event.positions) != drew:
        found.append(
            Violation(
                ViolationKind.ROULETTE,
                f"{what} shows {len(event.positions)} cards turned, but the public record has "
                f"it turn {len(drew)} (positions {', '.join(map(_fmt, drew)) or 'none'})",
            )
        )
    if ledger.color != event.color:
        named = "no colour" if ledger.color is None else ledger.color.value
        found.append(
            Violation(
                ViolationKind.ROULETTE,
                f"{what} turned cards for {event.color.value}, but {named} was named for it",
            )
        )
    for offset, (position, card) in enumerate(zip(event.positions, event.cards, strict=False)):
        face = ledger.face(card)
        if face is None:
            found += ledger.unknown_card(card, what)
        elif face.color == event.color and offset < len(event.cards) - 1:
            found.append(
                Violation(
                    ViolationKind.ROULETTE,
                    f"{what} went on turning after {face.name} at position {_fmt(position)}, "
                    f"of the colour named: the roulette stops at the first card of it",
                )
            )
    return found


def knocked_out(ledger: PublicLedger, event: ev.KnockedOut) -> list[Violation]:
    """The Mercy rule: the seat holds the cards it is said to hold, at least the limit."""
    held = len(ledger.hand(event.seat))
    found: list[Violation] = []
    if event.cards != held:
        found.append(
            Violation(
                ViolationKind.HAND_COUNT,
                f"seat {event.seat} is knocked out holding {event.cards} cards, but the public "
                f"record gives it {held}",
            )
        )
    limit = ledger.max_hand
    if limit is not None and held < limit:
        found.append(
            Violation(
                ViolationKind.KNOCK_OUT,
                f"seat {event.seat} is knocked out holding {held} cards by the public record; "
                f"the Mercy rule puts a player out at {limit}",
            )
        )
    ledger.knocked.add(event.seat)
    return found


def returned_whole(ledger: PublicLedger, event: ev.CardsReturned) -> list[Violation]:
    """After a knock-out's `cards_returned` the seat holds nothing: the whole hand went under."""
    if event.seat not in ledger.knocked:
        return []
    left = len(ledger.hand(event.seat))
    if not left:
        return []
    return [
        Violation(
            ViolationKind.KNOCK_OUT,
            f"seat {event.seat} was knocked out but returned only {len(event.positions)} cards "
            f"under the draw pile, keeping {left} the public record gives it",
        )
    ]
