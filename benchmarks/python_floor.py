"""A floor for pure Python: the fewest lines that play a 2-seat UNO round, timed.

Not an engine and not unonet: no API, no events, no input checks, no UNO call, no challenge,
no scoring, `random.shuffle` instead of the portable HMAC shuffle. Numbers and actions are
(colour, symbol) pairs, and RLCard's random policy plays (a random matching card, else draw, a
playable drawn card played at once). What it measures is the cost of the least work a round
needs in CPython, so that an engine's figures, and targets such as "2x RLCard's rounds/s", can
be read against it:

    .venv/bin/python benchmarks/python_floor.py [--seconds 4]
"""

from __future__ import annotations

import argparse
import random
import sys
import time

WILD = -1
SKIP, REVERSE, DRAW_TWO, WILD_CARD, WILD_DRAW_FOUR = 10, 11, 12, 13, 14


def classic_deck() -> list[tuple[int, int]]:
    deck: list[tuple[int, int]] = []
    for color in range(4):
        deck.append((color, 0))
        deck += [(color, symbol) for symbol in range(1, 13) for _ in (0, 1)]
    return deck + [(WILD, WILD_CARD)] * 4 + [(WILD, WILD_DRAW_FOUR)] * 4


class FloorRound:
    """One round's piles and turn; `play()` runs it to the end and returns the actions taken."""

    def __init__(self, deck: list[tuple[int, int]], rng: random.Random) -> None:
        self.deck, self.rng = deck, rng
        cards = list(range(len(deck)))
        rng.shuffle(cards)
        self.hands = [cards[:7], cards[7:14]]
        self.pile = cards[15:]
        self.discard = [cards[14]]
        color, self.symbol = deck[cards[14]]
        self.color = color if color != WILD else rng.randrange(4)

    def playable(self, card: int) -> bool:
        color, symbol = self.deck[card]
        return color == WILD or color == self.color or symbol == self.symbol

    def draw(self) -> int | None:
        if not self.pile:
            if len(self.discard) < 2:
                return None
            self.pile, self.discard = self.discard[:-1], self.discard[-1:]
            self.rng.shuffle(self.pile)
        return self.pile.pop()

    def play(self) -> int:
        seat, actions = 0, 0
        while True:
            hand = self.hands[seat]
            actions += 1
            choices = [card for card in hand if self.playable(card)]
            if not choices:
                card = self.draw()
                if card is None:
                    return actions
                hand.append(card)
                if not self.playable(card):
                    seat ^= 1
                    continue
                choices = [card]
            card = self.rng.choice(choices)
            hand.remove(card)
            self.discard.append(card)
            color, self.symbol = self.deck[card]
            self.color = color if color != WILD else self.rng.randrange(4)
            if not hand:
                return actions
            penalty = {DRAW_TWO: 2, WILD_DRAW_FOUR: 4}.get(self.symbol, 0)
            for _ in range(penalty):
                drawn = self.draw()
                if drawn is not None:
                    self.hands[seat ^ 1].append(drawn)
            if self.symbol not in (SKIP, REVERSE, DRAW_TWO, WILD_DRAW_FOUR):
                seat ^= 1  # two players: Skip, Reverse and the draw cards play again


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=4.0, help="timed seconds (default 4)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    deck, rng = classic_deck(), random.Random(args.seed)
    rounds = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < args.seconds:
        actions += FloorRound(deck, rng).play()
        rounds += 1
    seconds = time.perf_counter() - start
    print(
        f"Python {sys.version.split()[0]}: {rounds / seconds:,.0f} rounds/s, "
        f"{actions / seconds:,.0f} actions/s, {actions / rounds:.1f} actions/round "
        f"({rounds:,} rounds)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
