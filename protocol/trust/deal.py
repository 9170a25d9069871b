"""The fixed deal (SPEC.md 11.5): which seat each dealt position goes to, checked by anyone.

The deal is `hand_size` rounds of one card each; dealt position (0, k) goes to `order[k mod n]`,
where `order` is the seats still in the match starting with the one after the dealer, ascending.
Without this rule a host that knows the deck could hand a partner the best cards of the top few.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field

from protocol.trust.ledger import fmt
from protocol.trust.results import Violation, ViolationKind
from unonet import events as ev
from unonet.events import Position


def deal_seating(dealer: int, seats: int, eliminated: Collection[int]) -> list[int]:
    """The seats dealt to, in the order they are dealt: from the dealer's left, ascending."""
    ring = [(dealer + 1 + k) % seats for k in range(seats)]
    return [seat for seat in ring if seat not in eliminated]


@dataclass
class DealCheck:
    """Collects a round's `cards_drawn` of reason `deal` and judges them once the deal is over.

    `eliminated` is None when this client does not know who is out of the match (it joined after
    the first round): the seats dealt to are then taken as the seating, and only the pattern
    (one card each in turn from the dealer's left, `hand_size` each) is checked.
    """

    seats: int
    hand_size: int
    eliminated: frozenset[int] | None
    dealer: int | None = None
    draws: list[tuple[int, Position]] = field(default_factory=list)
    done: bool = False

    def started(self, event: ev.RoundStarted) -> list[Violation]:
        if self.dealer is not None or self.draws:
            return [Violation(ViolationKind.DEAL_ORDER, "the round was started twice")]
        if not 0 <= event.dealer < self.seats:
            return [Violation(ViolationKind.MALFORMED, f"the dealer is seat {event.dealer}, "
                                                       f"not a seat of this match")]
        self.dealer = event.dealer
        return []

    def drawn(self, event: ev.CardsDrawn) -> None:
        self.draws += [(event.seat, position) for position in event.positions]

    def finish(self) -> list[Violation]:
        """The deal is over (the first public event that is not one of its draws): judge it."""
        if self.done or not self.draws:
            return []
        self.done = True
        if self.dealer is None:
            return [Violation(ViolationKind.DEAL_ORDER,
                              "cards were dealt before the round named its dealer")]
        if self.eliminated is None:
            dealt_to = {seat for seat, _ in self.draws}
            seating = [s for s in deal_seating(self.dealer, self.seats, ()) if s in dealt_to]
        else:
            seating = deal_seating(self.dealer, self.seats, self.eliminated)
        return self._judge(seating)

    def _judge(self, seating: list[int]) -> list[Violation]:
        n = len(seating)
        expected = {(0, k): seating[k % n] for k in range(self.hand_size * n)} if n else {}
        got: dict[Position, int] = {}
        for seat, position in self.draws:
            if position in got:
                return [Violation(ViolationKind.DEAL_ORDER,
                                  f"position {fmt(position)} was dealt twice")]
            got[position] = seat
        for position, seat in sorted(got.items()):
            owner = expected.get(position)
            if owner is None:
                return [Violation(
                    ViolationKind.DEAL_ORDER,
                    f"position {fmt(position)} was dealt to seat {seat}, but a deal of "
                    f"{self.hand_size} cards to {n} seats is positions (0, 0) to "
                    f"(0, {self.hand_size * n - 1})")]
            if owner != seat:
                return [Violation(
                    ViolationKind.DEAL_ORDER,
                    f"position {fmt(position)} was dealt to seat {seat}, but the deal from "
                    f"dealer {self.dealer}'s left gives it to seat {owner}: the host chose "
                    f"who gets which card")]
        missing = sorted(set(expected) - set(got))
        if missing:
            return [Violation(
                ViolationKind.DEAL_ORDER,
                f"the deal left out position {fmt(missing[0])} (seat {expected[missing[0]]}): "
                f"{len(got)} cards dealt, {len(expected)} due")]
        return []
