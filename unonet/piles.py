"""Cards moving between the piles and the hands (RULEBOOK.md 1.7, 1.8, 2, 6.10), for Round.

Every movement is an event with positions, because the trust scheme follows every card:
drawing (with the reshuffle of the discard pile when the draw pile runs out), the Mercy rule's
knock-out (`max_hand`), whole hands changing owner (`seven_zero`, `flip_passes_hands`).
A knock-out releases whatever decision waited on the seat knocked out. The functions take
the round as their first argument and are Round's methods of the same names.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from unonet import events as ev
from unonet.cards import Color
from unonet.decisions import BuzzerRace, Challenge, ColorToName, PendingDraw
from unonet.events import Position
from unonet.scoring import hand_points
from unonet.shuffle import reshuffle_order

if TYPE_CHECKING:
    from unonet.round import Round

__all__ = ["draw_cards", "draw_until_color", "move_hands", "new_epoch", "pass_hands"]


def draw_cards(rnd: Round, seat: int, count: int, reason: str) -> list[int]:
    """Move up to `count` cards from the draw pile to `seat`, reshuffling when it runs out
    (RULEBOOK.md 1.8). Fewer come when every other card is in a hand."""
    if count == 1 and rnd.draw_pile:  # the turn's draw: one card, the pile not empty
        got = [rnd.draw_pile.pop()]
        give(rnd, seat, got, reason)
        if rnd.rules.max_hand is not None and reason != "deal":
            _check_max_hand(rnd, seat)
        return got
    got = []
    batch: list[int] = []
    if rnd.no_mercy and reason != "deal" and rnd.rules.max_hand is not None:
        # The Mercy rule is checked card by card: the 25th card puts the player out, and
        # the rest of the draw is not taken (RULEBOOK.md 4).
        count = min(count, max(rnd.rules.max_hand - len(rnd.hands[seat]), 1))
    pile = rnd.draw_pile
    for _ in range(count):
        if not pile:
            if batch:
                give(rnd, seat, batch, reason)
                batch = []
            if not _reshuffle_discards(rnd):
                break
            pile = rnd.draw_pile
        card = pile.pop()
        batch.append(card)
        got.append(card)
    if batch:
        give(rnd, seat, batch, reason)
    if reason != "deal":
        _check_max_hand(rnd, seat)
    return got


def give(rnd: Round, seat: int, cards: list[int], reason: str) -> None:
    positions = tuple([rnd.origin[c] for c in cards])
    rnd.hands[seat].extend(cards)
    rnd.uno_called.discard(seat)
    rnd.catchable.pop(seat, None)
    if seat == rnd.finished:
        rnd.finished = None  # a guilty last +4: the bluffer has cards again
    rnd.emit(ev.CardsDrawn(seat, positions, reason))
    rnd.emit(ev.CardsReceived(seat, positions, tuple(cards)))


def draw_until_color(rnd: Round, seat: int, color: Color, reason: str) -> None:
    """Draw one card at a time until one shows `color` (a wild does not count, RULEBOOK.md
    3), the piles run out, or the draw knocks `seat` out (max_hand)."""
    while seat not in rnd.out and not rnd.over:
        got = draw_cards(rnd, seat, 1, reason)
        if not got or rnd.face(got[0]).color == color:
            return


def _check_max_hand(rnd: Round, seat: int) -> None:
    """`max_hand`: holding that many cards knocks the player out of the round; the cards go
    face down under the draw pile, keeping their positions."""
    limit = rnd.rules.max_hand
    hand = rnd.hands[seat]
    if limit is None or len(hand) < limit or seat in rnd.out:
        return
    if rnd.rules.max_hand_penalty == "hand":
        penalty = hand_points(rnd.manifest, hand, rnd.side)
    else:
        penalty = rnd.rules.max_hand_penalty
    rnd.knocked_out[seat] = penalty
    rnd.emit(ev.KnockedOut(seat, len(hand), penalty))
    rnd.emit(ev.CardsReturned(seat, tuple(rnd.origin[c] for c in hand), "max_hand"))
    rnd.draw_pile[0:0] = reversed(hand)  # under the pile, in the order held
    rnd.hands[seat] = []
    rnd.out.add(seat)
    rnd.uno_called.discard(seat)
    rnd.catchable.pop(seat, None)
    left = rnd.turn_order(seat)
    if len(left) == 1:
        rnd.finish_round(left[0], None)
    else:
        _release_decisions_of(rnd, seat)


def _release_decisions_of(rnd: Round, seat: int) -> None:
    """A seat knocked out (perhaps out of turn: a catch, a penalty) leaves nothing waiting
    on it (RULEBOOK.md 6.10): its turn passes, a pending draw on it goes on to the next
    player, a challenge of its Wild Draw Four lapses (the draw stays pending), its 7 swaps
    with nobody, and a buzzer race no longer waits for it."""
    decision = rnd.decision
    if isinstance(decision, BuzzerRace):
        if seat in decision.waiting:
            waiting = tuple(s for s in decision.waiting if s != seat)
            rnd.enter(replace(decision, waiting=waiting), serial=False)
            if not waiting:
                pressed = [s for s in decision.order if s not in rnd.out]
                rnd.close_buzzer(tuple(pressed[-1:]))
        return
    if isinstance(decision, Challenge) and seat == decision.player:
        rnd.set_decision(decision.lapsed(decision.seat))
        return
    if seat != decision.seat:
        return
    if isinstance(decision, PendingDraw | Challenge):
        if decision.chain:  # else knocked out paying the draw: whoever pays it moves play on
            rnd.set_decision(PendingDraw(rnd.step(seat, 1), decision.amount, decision.chain))
    elif isinstance(decision, ColorToName):
        rnd.set_decision(replace(decision, seat=rnd.step(seat, 1)))
    else:  # its turn, or the target of its 7
        rnd.next_turn(rnd.step(seat, 1))


def _reshuffle_discards(rnd: Round) -> bool:
    """The discard pile less its top card becomes the new draw pile; wild colours clear."""
    if len(rnd.discard) < 2:
        return False
    top = rnd.discard.pop()
    sources = [rnd.origin[c] for c in rnd.discard]
    rnd.discard = [top]
    new_epoch(rnd, sources, "empty_pile", public=True)
    return True


def new_epoch(rnd: Round, sources: list[Position], reason: str, public: bool) -> None:
    """The cards at `sources` become a new draw pile, shuffled by position (the next epoch)."""
    wanted = set(sources)
    card_at = {pos: card for card, pos in enumerate(rnd.origin) if pos in wanted}
    rnd.epoch += 1
    order = reshuffle_order(rnd.key, rnd.epoch, sources)
    new_pile = [card_at[source] for source in order]
    for index, card in enumerate(new_pile):
        rnd.origin[card] = (rnd.epoch, index)
    rnd.draw_pile = new_pile[::-1]
    canonical = tuple(sorted(sources))
    cards = tuple(card_at[s] for s in canonical) if public else ()
    rnd.emit(ev.Reshuffled(rnd.epoch, canonical, cards, reason))


def pass_hands(rnd: Round, reason: str) -> None:
    """`seven_zero`: a 0 passes every hand to the next player in the direction of play
    (and so does a Flip under `flip_passes_hands`)."""
    order = rnd.turn_order(rnd.current)
    move_hands(rnd, [(s, rnd.step(s, 1)) for s in order], reason)


def move_hands(rnd: Round, moves: list[tuple[int, int]], reason: str) -> None:
    """Whole hands change owner; a receiver left holding one card may be caught (1.7)."""
    hands = {giver: rnd.hands[giver] for giver, _ in moves}
    rnd.emit(ev.HandsMoved(
        tuple((g, t, tuple(rnd.origin[c] for c in hands[g])) for g, t in moves), reason
    ))
    for giver, taker in moves:
        rnd.hands[taker] = list(hands[giver])
    for _, taker in moves:
        cards = rnd.hands[taker]
        rnd.uno_called.discard(taker)
        rnd.catchable.pop(taker, None)
        if cards:
            rnd.emit(ev.CardsReceived(taker, tuple(rnd.origin[c] for c in cards), tuple(cards)))
        if len(cards) == 1:
            rnd.catchable[taker] = rnd.turn_serial  # holding one card by a swap (1.7)
    for _, taker in moves:
        _check_max_hand(rnd, taker)
