"""What a card does, looked up by its kind, with each option's change registered as a step.

`effects_for(rules)` builds, once per rule set, the table a round reads when a card is played
(RULEBOOK.md 1.5, 2, 3, 4): the base effect of every kind, then each option's step, which
replaces an entry (`seven_zero` gives the number cards their 7 and 0), makes a draw card's
draw wait for an answer (`stacking`, a challengeable Wild Draw Four, `deflect`) or adds a step
after every play (`sequences` opens its window). A card that answers a pending draw (stacks on
it, deflects it, or in No Mercy cancels it) is looked up in `answer`.

The first card of a round goes through the same effects (`OPENING`): turned up by nobody, it
acts as if the dealer had played it, so a Skip skips the player left of the dealer and a Draw
Two makes that player draw; a Reverse lets the dealer begin the other way (RULEBOOK.md 1.3).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from unonet import events as ev
from unonet.actions import Play
from unonet.cards import CHALLENGEABLE_KINDS, DRAW_AMOUNTS, Color, Face, Kind
from unonet.decisions import Challenge, ColorToName, PendingDraw, RunWindow, TargetToPick
from unonet.flip import other_side
from unonet.legality import cancels, legal_plays
from unonet.phase import ROUND_OVER
from unonet.rules import RuleSet

if TYPE_CHECKING:
    from unonet.round import Round

__all__ = ["OPENING", "Effects", "answer", "effects_for", "pend_draw", "reverse_for_draw"]

Effect = Callable[["Round", int, Face, str], None]
"""(round, the player's seat, the card's face, the cause: "" played, "first_card_" turned up)."""
AfterPlay = Callable[["Round", int, Play, Face, "RunWindow | None"], None]
AfterLay = Callable[["Round", int, Play, Face], None]
"""A step once the cards are laid, before the card acts or the round ends."""
BeforeDraw = Callable[["Round", int], "Callable[[], object] | None"]
"""A step when a seat draws in its turn: it looks at the hand before the draw, and what it
returns is done once the card is drawn (so the record names the draw first)."""
OutOfTurn = Callable[["Round", int], bool]
"""May this seat, not the one the round waits on, also answer the pending decision?"""


@dataclass(frozen=True)
class Effects:
    """One rule set's effects: by kind, the kinds whose draw waits for an answer, and the
    options' steps: once the cards are laid, after every play, before a draw."""

    by_kind: dict[Kind, Effect]
    pends: frozenset[Kind]
    after_lay: tuple[AfterLay, ...] = ()
    after_play: tuple[AfterPlay, ...] = ()
    before_draw: tuple[BeforeDraw, ...] = ()
    may_challenge: OutOfTurn | None = None  # besides the player who must draw


@dataclass
class Steps:
    """What an option's step may change: the effect by kind and the step lists."""

    by_kind: dict[Kind, Effect]
    after_lay: list[AfterLay] = field(default_factory=list)
    after_play: list[AfterPlay] = field(default_factory=list)
    before_draw: list[BeforeDraw] = field(default_factory=list)
    may_challenge: OutOfTurn | None = None


# -- the base effects ------------------------------------------------------------------------


def next_player(rnd: Round, seat: int, face: Face, cause: str) -> None:
    """A number, a Wild (its colour named with it), a Flip turned first: the next one plays."""
    rnd.next_turn(rnd.step(seat, 1))


def skip(rnd: Round, seat: int, face: Face, cause: str) -> None:
    nxt = rnd.step(seat, 1)
    rnd.emit(ev.Skipped(nxt, cause + "skip"))
    rnd.next_turn(rnd.step(nxt, 1))


def reverse(rnd: Round, seat: int, face: Face, cause: str) -> None:
    """With two players a Reverse acts as a Skip. Turned first, the dealer plays first."""
    if rnd.players() == 2:
        reason = "first_card_reverse" if cause else "reverse_two_players"
        rnd.emit(ev.Skipped(rnd.step(seat, 1), reason))
        rnd.next_turn(seat)
        return
    rnd.direction = -rnd.direction
    rnd.emit(ev.DirectionChanged(rnd.direction))
    rnd.next_turn(seat if cause else rnd.step(seat, 1))


def draw(rnd: Round, seat: int, face: Face, cause: str) -> None:
    """Draw Two, an unchallengeable Wild Draw Four: the next player draws and is skipped."""
    _drawn_by(rnd, rnd.step(seat, 1), face, cause)


def reverse_draw(rnd: Round, seat: int, face: Face, cause: str) -> None:
    """No Mercy's Wild Reverse Draw Four whose draw is not answered (no stacking, no deflect):
    reverse, then the next player in the new direction draws and is skipped."""
    _drawn_by(rnd, reverse_for_draw(rnd, seat), face, cause)


def _drawn_by(rnd: Round, victim: int, face: Face, cause: str) -> None:
    """`victim` draws the card's count and is skipped, unless the draw put it out (max_hand)."""
    rnd.draw_cards(victim, face.draw_amount, face.kind.value)
    if victim not in rnd.out:
        rnd.emit(ev.Skipped(victim, cause + face.kind.value))
    rnd.next_turn(rnd.step(victim, 1))


def draw_color(rnd: Round, seat: int, face: Face, cause: str) -> None:
    """UNO Flip's Wild Draw Color, not challengeable: the next player draws until a card of
    the named colour and is skipped."""
    nxt = rnd.step(seat, 1)
    assert rnd.active_color is not None
    rnd.draw_until_color(nxt, rnd.active_color, face.kind.value)
    rnd.emit(ev.Skipped(nxt, face.kind.value))
    rnd.next_turn(rnd.step(nxt, 1))


def skip_everyone(rnd: Round, seat: int, face: Face, cause: str) -> None:
    """Skip Everyone: every other player is skipped; its player plays again."""
    for other in rnd.turn_order(seat)[1:]:
        rnd.emit(ev.Skipped(other, face.kind.value))
    rnd.next_turn(seat)


def buzzer(rnd: Round, seat: int, face: Face, cause: str) -> None:
    rnd.open_buzzer(seat, seat)


def roulette(rnd: Round, seat: int, face: Face, cause: str) -> None:
    """No Mercy's Wild Color Roulette: the next player names a colour (phase roulette)."""
    rnd.set_decision(ColorToName(rnd.step(seat, 1), roulette=True))


def first_colour(rnd: Round, seat: int, face: Face, cause: str) -> None:
    """A Wild (or a Buzzer, RULEBOOK.md 6.9) turned first: the first player names the colour,
    then plays."""
    rnd.set_decision(ColorToName(rnd.step(seat, 1)))


def flip(rnd: Round, seat: int, face: Face, cause: str) -> None:
    """UNO Flip: the discard pile, then the draw pile, then every hand turn over (each pile
    reversed, its bottom card now on top); the new top's face sets what to match and its
    effect is not applied. A wild face lets the Flip's player name the colour; then (or at
    once) the next player plays. `flip_passes_hands` then passes every hand on."""
    rnd.discard.reverse()
    rnd.draw_pile.reverse()
    rnd.show_side(other_side(rnd.side))
    top = rnd.face(rnd.top)
    rnd.active_color = top.color
    rnd.top_seat = None  # nobody played the new top card: anyone may jump in on it
    rnd.emit(ev.Flipped(seat, rnd.side, rnd.top))
    if rnd.rules.flip_passes_hands:
        rnd.pass_hands("flip")
        if rnd.phase is ROUND_OVER:
            return
    if top.is_wild:
        rnd.set_decision(ColorToName(seat, then=rnd.step(seat, 1)))
    else:
        rnd.next_turn(rnd.step(seat, 1))


_BASE: dict[Kind, Effect] = {
    Kind.NUMBER: next_player,
    Kind.WILD: next_player,
    Kind.SKIP: skip,
    Kind.REVERSE: reverse,
    Kind.DRAW_TWO: draw,
    Kind.WILD_DRAW_FOUR: draw,
    Kind.BUZZER: buzzer,
    # UNO Flip (RULEBOOK.md 3); a wild draw card here is one not challengeable.
    Kind.DRAW_ONE: draw,
    Kind.DRAW_FIVE: draw,
    Kind.WILD_DRAW_TWO: draw,
    Kind.WILD_DRAW_COLOR: draw_color,
    Kind.SKIP_EVERYONE: skip_everyone,
    Kind.FLIP: flip,
    # UNO Show 'Em No Mercy (RULEBOOK.md 4); its draw cards pend under stacking (its default).
    Kind.DRAW_FOUR: draw,
    Kind.WILD_REVERSE_DRAW_FOUR: reverse_draw,
    Kind.WILD_DRAW_SIX: draw,
    Kind.WILD_DRAW_TEN: draw,
    Kind.DISCARD_ALL: next_player,  # its colour went down with it (Round.discard_all)
    Kind.WILD_COLOR_ROULETTE: roulette,
}

OPENING: dict[Kind, Effect] = {
    Kind.SKIP: skip,
    Kind.REVERSE: reverse,
    Kind.DRAW_TWO: draw,
    Kind.DRAW_ONE: draw,
    Kind.WILD: first_colour,
    Kind.BUZZER: first_colour,
}
"""The first card turned up, as if the dealer played it; any other kind is inert then (a 7 or
a 0 swaps nothing, a Flip turns nothing: nobody played it)."""


# -- the options' steps ---------------------------------------------------------------------


def seven_zero_number(rnd: Round, seat: int, face: Face, cause: str) -> None:
    """`seven_zero`: a 7 swaps hands with a chosen player, a 0 passes every hand on."""
    if face.number == 7:
        rnd.set_decision(TargetToPick(seat))
        return
    if face.number == 0:
        rnd.pass_hands("zero")
        if rnd.phase is ROUND_OVER:
            return
    rnd.next_turn(rnd.step(seat, 1))


def open_run(rnd: Round, seat: int, action: Play, face: Face, previous: RunWindow | None) -> None:
    """`sequences`: the run's player may add its next number until the next player acts;
    its direction is set by its last two cards (none yet after a single card)."""
    if face.kind is not Kind.NUMBER or rnd.phase is ROUND_OVER:
        return
    number = face.number or 0
    if action.also:
        before = action.also[-2] if len(action.also) > 1 else action.card
        step = number - (rnd.face(before).number or 0)
    elif previous is not None and previous.seat == seat:
        step = number - previous.last
    else:
        step = 0
    rnd.run = RunWindow(seat, face.color, number, step if step in (1, -1) else 0,
                        rnd.turn_serial)


def _pending_kinds(rules: RuleSet) -> frozenset[Kind]:
    """The draw cards whose draw waits for the next player's answer rather than being taken at
    once: under `stacking` or `deflect` every draw card with a count (a Wild Draw Color never
    stacks), and a challengeable wild draw card under wd4_policy=challenge. Seed 003's
    "Risposte avanzate" deflect "oltre alle risposte alle carte Più 2 e Cambio colore più 4":
    with or without stacking, a Draw Two waits to be passed on."""
    pends: set[Kind] = set()
    if rules.stacking != "off" or rules.deflect:
        pends |= set(DRAW_AMOUNTS)
    if rules.wd4_policy == "challenge":
        pends |= CHALLENGEABLE_KINDS
    return frozenset(pends)


Step = Callable[[RuleSet, Steps], None]


def _seven_zero_step(rules: RuleSet, steps: Steps) -> None:
    if rules.seven_zero:
        steps.by_kind[Kind.NUMBER] = seven_zero_number


def _sequences_step(rules: RuleSet, steps: Steps) -> None:
    if rules.sequences:
        steps.after_play.append(open_run)


def _penalties_step(rules: RuleSet, steps: Steps) -> None:
    """Seed 004's penalties instead of refusals, each the UNO penalty's cards (the one count
    it names: "deve comprar mais cinco cartas", with uno_penalty=5 in its preset)."""
    if rules.draw_when_playable == "penalty":
        steps.before_draw.append(_draw_penalty)
    if rules.multi_finish == "penalty":
        steps.after_lay.append(_multi_finish_penalty)


def _draw_penalty(rnd: Round, seat: int) -> Callable[[], object] | None:
    """Seed 004: "Se o jogador possuir a carta que precisa para ser jogada, mas não jogá-la e
    comprar outra, uma penalização é aplicada": the penalty follows the card drawn."""
    if rnd.draws_this_turn or not legal_plays(rnd, seat):
        return None
    return lambda: rnd.draw_cards(seat, rnd.rules.uno_penalty, "penalty_draw")


def _multi_finish_penalty(rnd: Round, seat: int, action: Play, face: Face) -> None:
    """Seed 004: "Caso alguém esvazie as cartas da mão de uma vez só [...] deve comprar mais
    cinco cartas": the play stands, its player draws and plays on."""
    if action.also and not rnd.hands[seat]:
        rnd.draw_cards(seat, rnd.rules.uno_penalty, "penalty_multi_finish")


def _challenge_by_step(rules: RuleSet, steps: Steps) -> None:
    """challenge_by=anyone, seed 003: "se un altro giocatore lo suppone o se se ne accorge
    [...] può considerarlo un bluff e può denunciarlo premendo il tasto F"."""
    if rules.challenge_by == "anyone":
        steps.may_challenge = _not_the_bluffer


def _not_the_bluffer(rnd: Round, seat: int) -> bool:
    challenge = rnd.challenge
    return challenge is not None and seat != challenge.player


STEPS: tuple[Step, ...] = (
    _seven_zero_step, _sequences_step, _penalties_step, _challenge_by_step,
)
"""Each option's change to the base effects, in order."""


@lru_cache(maxsize=64)
def effects_for(rules: RuleSet) -> Effects:
    """The effects a round under `rules` plays by (rule sets are immutable values)."""
    steps = Steps(dict(_BASE))
    for step in STEPS:
        step(rules, steps)
    return Effects(steps.by_kind, _pending_kinds(rules), tuple(steps.after_lay),
                   tuple(steps.after_play), tuple(steps.before_draw), steps.may_challenge)


# -- answering a pending draw ------------------------------------------------------------------


def pend_draw(
    rnd: Round, seat: int, face: Face, draw: PendingDraw | None, color_before: Color | None
) -> None:
    """A draw card starts (or, answering, grows) the pending draw; the next player answers it.
    A challengeable one waits for the challenge; a last draw card with no answer possible is
    taken at once (RULEBOOK.md 1.9)."""
    amount = face.draw_amount + (draw.amount if draw is not None else 0)
    chain = (*draw.chain, face) if draw is not None else (face,)
    if draw is not None:
        rnd.emit(ev.DrawStacked(seat, amount))
    if not rnd.hands[seat]:
        rnd.finished = seat
    victim = rnd.step(seat, 1)
    if face.kind is Kind.WILD_REVERSE_DRAW_FOUR:
        victim = reverse_for_draw(rnd, seat)
    if face.kind in CHALLENGEABLE_KINDS and rnd.rules.wd4_policy == "challenge":
        assert color_before is not None
        rnd.set_decision(Challenge(victim, amount, chain, seat, tuple(rnd.hands[seat]),
                                   color_before))
    elif rnd.finished is not None and not rnd.rules.deflect:
        rnd.enter(PendingDraw(victim, amount, chain), serial=False)
        rnd.take_pending(victim)  # a last draw card: no answer, the round ends (1.9)
    else:
        rnd.set_decision(PendingDraw(victim, amount, chain))


def reverse_for_draw(rnd: Round, seat: int) -> int:
    """No Mercy's Wild Reverse Draw Four: reverse, then the next player in the new direction
    faces the draw. With two players that is its own player (HWV18: "makes YOU draw 4
    cards! You may use the stacking rule to send the penalty back"), unless the card was
    its last: then the other player."""
    rnd.direction = -rnd.direction
    rnd.emit(ev.DirectionChanged(rnd.direction))
    if rnd.players() == 2 and rnd.hands[seat]:
        return seat
    return rnd.step(seat, 1)


def answer(
    rnd: Round, seat: int, face: Face, draw: PendingDraw, color_before: Color | None
) -> None:
    """A card played on a pending draw: a draw card stacks on it, a Discard All or Skip
    Everyone cancels it (No Mercy with `deflect`), any other (a Skip, a Reverse, a Buzzer)
    deflects it (`deflect`); unonet.legality judged which may."""
    if face.draw_amount or face.kind is Kind.WILD_DRAW_COLOR:
        pend_draw(rnd, seat, face, draw, color_before)
    elif rnd.rules.variant == "no_mercy" and cancels(rnd, face):
        _cancel_draw(rnd, seat, face, draw)
    else:
        _deflect(rnd, seat, face, draw)


def _cancel_draw(rnd: Round, seat: int, face: Face, draw: PendingDraw) -> None:
    """No Mercy with `deflect` (seed 003): a Discard All or a Skip Everyone cancels the
    pending draw; nobody draws it, and the card then acts as in its player's turn. A player
    who emptied their hand while the draw waited wins at once."""
    rnd.emit(ev.DrawCancelled(seat, draw.amount))
    if rnd.finished is not None:
        rnd.finish_round(rnd.finished, None)
    elif not rnd.hands[seat]:
        rnd.finish_round(seat, face)
    else:
        rnd.effects.by_kind[face.kind](rnd, seat, face, "")


def _deflect(rnd: Round, seat: int, face: Face, draw: PendingDraw) -> None:
    """`deflect`: the pending draw goes on (Skip, Buzzer) or back (Reverse)."""
    if face.kind is Kind.REVERSE:
        rnd.direction = -rnd.direction
        rnd.emit(ev.DirectionChanged(rnd.direction))
    to = rnd.step(seat, 1)
    rnd.emit(ev.DrawDeflected(seat, to, draw.amount))
    if not rnd.hands[seat]:
        rnd.finished = seat
    deflected = PendingDraw(to, draw.amount, draw.chain)
    if face.kind is Kind.BUZZER and rnd.hands[seat] and rnd.finished is None:
        rnd.open_buzzer(seat, to, deflected)
    else:
        rnd.set_decision(deflected)

