"""The round's state machine in one table: (phase, action kind) -> (who may, what it does).

Read it as h11's `_state.py`: `TRANSITIONS` lists every action a round accepts in each phase,
each with its judge (may `seat` take `action` now; unonet.legality judges a Play) and its
handler (what the action does, once judged). An action with no entry for the phase is refused.
Calling UNO and catching are open in every phase (`ANY_PHASE`). `LISTINGS` says, per phase,
what the seat the round waits on may do, and `EXPIRY` the documented default when its time
runs out (RULEBOOK.md 6). The card effects are unonet.effects'.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, NamedTuple

from unonet import events as ev
from unonet.actions import (
    Accept,
    Action,
    Buzz,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    ChooseTarget,
    Draw,
    Pass,
    Play,
)
from unonet.cards import Color, Kind
from unonet.decisions import (
    DRAWS,
    BuzzerRace,
    ColorToName,
    Decision,
    PendingDraw,
    RoundOver,
    TargetToPick,
    Turn,
)
from unonet.decisions import (
    Challenge as ChallengeDecision,
)
from unonet.effects import answer, pend_draw
from unonet.legality import legal_plays, may_play, plays_in_turn
from unonet.matching import holds_color
from unonet.phase import (
    BUZZER,
    CHALLENGE,
    CHOOSE_COLOR,
    CHOOSE_TARGET,
    ROULETTE,
    STACK,
    TURN,
    Phase,
)

if TYPE_CHECKING:
    from unonet.round import Round

__all__ = ["ACCEPTS", "ANY_PHASE", "EXPIRY", "LISTINGS", "TRANSITIONS", "Transition"]

Judge = Callable[["Round", int, Any], bool]
Handler = Callable[["Round", int, Any], None]


class Transition(NamedTuple):
    judge: Judge
    handler: Handler
    turn: bool  # the seat's own move: closes the catch windows of earlier turns


_DRAW, _PASS, _ACCEPT, _CHALLENGE = Draw(), Pass(), Accept(), Challenge()


# -- judges ----------------------------------------------------------------------------------


def _deciding(rnd: Round, seat: int, action: Action) -> bool:
    return seat == rnd.current


def _may_challenge(rnd: Round, seat: int, action: Challenge) -> bool:
    """The player who must draw, or another seat where an option's step opens the challenge
    to it (unonet.effects, `Effects.may_challenge`)."""
    if seat == rnd.current:
        return True
    others = rnd.effects.may_challenge
    return others is not None and others(rnd, seat)


def _may_draw(rnd: Round, seat: int, action: Draw) -> bool:
    return seat == rnd.current and can_draw(rnd, seat)


def can_draw(rnd: Round, seat: int, has_play: bool | None = None) -> bool:
    """May the seat whose turn it is draw: not after its drawn card plays, not past
    max_draws_per_turn, and under draw_when_playable=forbidden only with no play."""
    turn = rnd.decision
    assert isinstance(turn, Turn)
    if turn.drawn is not None or turn.draws >= rnd.rules.max_draws_per_turn:
        return False
    if rnd.rules.draw_when_playable == "forbidden" and turn.draws == 0:
        if has_play is None:
            has_play = bool(legal_plays(rnd, seat))
        return not has_play
    return True


def _may_pass(rnd: Round, seat: int, action: Pass) -> bool:
    return seat == rnd.current and may_pass(rnd)


def may_pass(rnd: Round) -> bool:
    """After drawing; in No Mercy not while a card drawn until playable waits to be played
    (without draw_until_playable, seed 003's drawn card: "può posarla immediatamente")."""
    turn = rnd.decision
    assert isinstance(turn, Turn)
    return turn.draws > 0 and not (rnd.no_mercy and turn.drawn is not None
                                   and rnd.rules.draw_until_playable)


def _may_name(rnd: Round, seat: int, action: ChooseColor) -> bool:
    return seat == rnd.current and action.color in rnd.colors


def _may_target(rnd: Round, seat: int, action: ChooseTarget) -> bool:
    target = action.target
    return (seat == rnd.current and target != seat and 0 <= target < rnd.seats
            and target not in rnd.out)


def _may_buzz(rnd: Round, seat: int, action: Buzz) -> bool:
    decision = rnd.decision
    return isinstance(decision, BuzzerRace) and seat in decision.waiting


def _may_call_uno(rnd: Round, seat: int, action: CallUno) -> bool:
    return seat in rnd.catchable and len(rnd.hands[seat]) == 1


def _may_catch(rnd: Round, seat: int, action: Catch) -> bool:
    return action.target in rnd.catchable and action.target != seat


# -- handlers --------------------------------------------------------------------------------


def play(rnd: Round, seat: int, action: Play) -> None:
    """Lay the cards; then the card's effect, its answer to a pending draw, or the round's
    end; then the options' after-play steps (RULEBOOK.md 1.4-1.6, 2)."""
    run = rnd.run
    if run is not None:
        rnd.run = None
    decision = rnd.decision
    draw = None
    if type(decision) is not Turn and isinstance(decision, DRAWS):
        draw = PendingDraw(seat, decision.amount, decision.chain)  # a challenge lapses
    if seat != decision.seat:  # a jump-in, or the next card of one's own run
        rnd.emit(ev.JumpedIn(seat, "sequence" if run is not None and run.seat == seat
                             else "jump_in"))
        rnd.enter(draw if draw is not None else rnd.turns[seat], serial=False)
    rnd.cannot_draw_streak = 0
    color_before = rnd.active_color
    face = rnd.lay_cards(seat, action)
    rnd.active_color = face.color or (action.color if face.is_wild else color_before)
    rnd.top_seat = seat
    if len(rnd.hands[seat]) <= 1:
        rnd.after_hand_shrank(seat, called=action.uno)
    effects = rnd.effects
    for laid in effects.after_lay:
        laid(rnd, seat, action, face)
    if draw is not None:
        answer(rnd, seat, face, draw, color_before)
    elif face.kind in effects.pends:
        pend_draw(rnd, seat, face, None, color_before)
    elif not rnd.hands[seat]:
        rnd.finish_round(seat, face)
    else:
        effects.by_kind[face.kind](rnd, seat, face, "")
    for step in effects.after_play:
        step(rnd, seat, action, face, run)


def draw(rnd: Round, seat: int, action: Action) -> None:
    """Draw one card (or until one plays, `draw_until_playable`); a card that plays may be
    played at once (the drawn-card lock), else the turn passes when no more draws are left."""
    turn = rnd.decision
    assert isinstance(turn, Turn)
    steps = rnd.effects.before_draw
    owed = [step(rnd, seat) for step in steps] if steps else ()
    draws = turn.draws + 1
    if rnd.rules.draw_until_playable:
        drawn = _draw_until_playable(rnd, seat)
    else:
        got = rnd.draw_cards(seat, 1, "draw")
        drawn = got[0] if got else None
    for then in owed:
        if then is not None and rnd.decision is turn:
            then()
    if rnd.decision is not turn:
        return  # knocked out by the draw (max_hand), or the round ended
    if drawn is None:
        rnd.emit(ev.CannotDraw(seat))
        rnd.emit(ev.Passed(seat))
        rnd.cannot_draw_streak += 1
        if not rnd.stalemate_reached():
            rnd.next_turn(rnd.step(seat, 1))
        return
    rnd.cannot_draw_streak = 0
    rules = rnd.rules
    if rules.play_after_draw and plays_in_turn(rnd, rnd.hands[seat], drawn):
        rnd.enter(Turn(seat, drawn, draws), serial=False)  # only this card may be played (1.4)
        rnd.emit(ev.MayPlayDrawn(seat, drawn))
    elif not rules.play_after_draw or draws >= rules.max_draws_per_turn:
        rnd.emit(ev.passed(seat))
        rnd.next_turn(rnd.step(seat, 1))
    else:
        rnd.enter(Turn(seat, None, draws), serial=False)


def _draw_until_playable(rnd: Round, seat: int) -> int | None:
    while True:
        got = rnd.draw_cards(seat, 1, "draw")
        if not got or seat in rnd.out:
            return None
        if plays_in_turn(rnd, rnd.hands[seat], got[0]):
            return got[0]


def pass_turn(rnd: Round, seat: int, action: Action) -> None:
    rnd.emit(ev.Passed(seat))
    rnd.next_turn(rnd.step(seat, 1))


def choose_color(rnd: Round, seat: int, action: ChooseColor) -> None:
    decision = rnd.decision
    assert isinstance(decision, ColorToName)
    if decision.roulette:
        _roulette(rnd, seat, action.color)
        return
    rnd.active_color = action.color
    rnd.emit(ev.ColorChosen(seat, action.color))
    rnd.next_turn(seat if decision.then is None else decision.then)  # first-card Wild: chooser


def _roulette(rnd: Round, seat: int, color: Color) -> None:
    """The roulette's player named `color`: it turns cards from the draw pile, face up,
    until one of that colour shows (wilds do not count), keeps them all and loses its
    turn; `color` is then in play. The Mercy rule may put it out on the way."""
    rnd.active_color = color
    rnd.emit(ev.ColorChosen(seat, color))
    rnd.enter(Turn(seat), serial=False)  # what a knock-out on the way releases: the next plays
    cards: list[int] = []
    reason = Kind.WILD_COLOR_ROULETTE.value
    while seat not in rnd.out and not rnd.over:
        got = rnd.draw_cards(seat, 1, reason)
        if not got:
            break
        cards.append(got[0])
        if rnd.face(got[0]).color == color:
            break
    positions = tuple(rnd.origin[card] for card in cards)
    rnd.emit(ev.RouletteTurned(seat, color, positions, tuple(cards)))
    if seat in rnd.out or rnd.over:
        return
    rnd.emit(ev.Skipped(seat, reason))
    rnd.next_turn(rnd.step(seat, 1))


def accept(rnd: Round, seat: int, action: Action) -> None:
    """Take the pending draw (a stack's total or a Wild Draw Four) and lose the turn."""
    rnd.take_pending(seat)


def challenge(rnd: Round, seat: int, action: Action) -> None:
    """RULEBOOK.md 1.6 and 6: guilty, the player of the +4 draws the pending total (+ the
    extra) and the challenger plays; innocent, the challenger draws the total + 2 and loses
    the turn. The named colour stands either way. UNO Flip's Wild Draw Two is the same with
    2; its Wild Draw Color's total is "until the named colour" (RULEBOOK.md 3). Challenged by
    another seat than the one that must draw (`Effects.may_challenge`), the cards go to whoever
    loses the challenge and the turn stays the drawer's: it plays (guilty) or is skipped."""
    pending = rnd.challenge
    assert pending is not None
    hand, target, victim = pending.hand, pending.player, pending.seat
    guilty = holds_color((rnd.face(c) for c in hand), pending.color_before)
    rnd.emit(ev.Challenged(seat, target, guilty))
    rnd.emit(ev.ChallengeReveal(seat, target, hand, tuple(rnd.origin[c] for c in hand),
                                pending.color_before))
    if guilty:
        rnd.pay_pending(target, rnd.rules.challenge_guilty_extra, "penalty_challenge")
        rnd.after_pending_paid(victim)
    else:
        rnd.pay_pending(seat, 2, "penalty_challenge")
        if victim not in rnd.out:
            rnd.emit(ev.Skipped(victim, pending.chain[-1].kind.value))
        rnd.after_pending_paid(rnd.step(victim, 1))


def choose_target(rnd: Round, seat: int, action: ChooseTarget) -> None:
    """`seven_zero`: swap hands with the seat chosen; play goes on after the 7's player."""
    rnd.move_hands([(seat, action.target), (action.target, seat)], "seven")
    if not rnd.over:
        rnd.next_turn(rnd.step(seat, 1))


def buzz(rnd: Round, seat: int, action: Action) -> None:
    race = rnd.decision
    assert isinstance(race, BuzzerRace)
    pressed = replace(race, waiting=tuple(s for s in race.waiting if s != seat),
                      order=(*race.order, seat))
    rnd.enter(pressed, serial=False)
    rnd.emit(ev.Buzzed(seat, len(pressed.order)))
    if not pressed.waiting:
        rnd.close_buzzer((seat,))  # everyone pressed: the last one loses


def call_uno(rnd: Round, seat: int, action: Action) -> None:
    del rnd.catchable[seat]
    rnd.uno_called.add(seat)
    rnd.emit(ev.UnoCalled(seat))


def catch(rnd: Round, seat: int, action: Catch) -> None:
    target = action.target
    del rnd.catchable[target]
    penalty = rnd.rules.uno_penalty
    rnd.emit(ev.UnoCaught(seat, target, penalty))
    rnd.draw_cards(target, penalty, "penalty_uno")


# -- the tables ------------------------------------------------------------------------------

_PLAY = Transition(may_play, play, True)
_ACCEPTS = Transition(_deciding, accept, True)
_NAME = Transition(_may_name, choose_color, True)

TRANSITIONS: dict[tuple[Phase, type], Transition] = {
    (TURN, Play): _PLAY,
    (TURN, Draw): Transition(_may_draw, draw, True),
    (TURN, Pass): Transition(_may_pass, pass_turn, True),
    (CHOOSE_COLOR, ChooseColor): _NAME,
    (ROULETTE, ChooseColor): _NAME,
    (STACK, Play): _PLAY,
    (STACK, Accept): _ACCEPTS,
    (CHALLENGE, Play): _PLAY,
    (CHALLENGE, Accept): _ACCEPTS,
    (CHALLENGE, Challenge): Transition(_may_challenge, challenge, True),
    (CHOOSE_TARGET, ChooseTarget): Transition(_may_target, choose_target, True),
    (BUZZER, Buzz): Transition(_may_buzz, buzz, False),
}
"""What each phase accepts: plays where a card may go (in turn, on a pending draw, or out of
turn: legality says which), the turn's Draw and Pass, and each decision's answers."""

ANY_PHASE: dict[type, Transition] = {
    CallUno: Transition(_may_call_uno, call_uno, False),
    Catch: Transition(_may_catch, catch, False),
}
"""Open whatever the round waits for (RULEBOOK.md 1.7)."""


def _turn_actions(rnd: Round, seat: int) -> list[Action]:
    actions: list[Action] = list(legal_plays(rnd, seat))
    if can_draw(rnd, seat, has_play=bool(actions)):
        actions.append(_DRAW)
    if may_pass(rnd):
        actions.append(_PASS)  # No Mercy: a card drawn until playable must be played
    return actions


def _stack_actions(rnd: Round, seat: int) -> list[Action]:
    actions: list[Action] = list(legal_plays(rnd, seat))
    actions.append(_ACCEPT)
    return actions


def _challenge_actions(rnd: Round, seat: int) -> list[Action]:
    return [_CHALLENGE, _ACCEPT, *legal_plays(rnd, seat)]


def _colour_actions(rnd: Round, seat: int) -> list[Action]:
    return list(rnd.color_choices)


def _target_actions(rnd: Round, seat: int) -> list[Action]:
    return [rnd.targets[t] for t in rnd.turn_order(seat) if t != seat]


_LISTINGS: dict[Phase, Callable[[Round, int], list[Action]]] = {
    TURN: _turn_actions,
    STACK: _stack_actions,
    CHALLENGE: _challenge_actions,
    CHOOSE_COLOR: _colour_actions,
    ROULETTE: _colour_actions,
    CHOOSE_TARGET: _target_actions,
}
"""What the seat the round waits on may do, per phase, in the listing's order."""

_DECISION_OF: dict[Phase, type[Decision]] = {
    TURN: Turn,
    CHOOSE_COLOR: ColorToName,
    ROULETTE: ColorToName,
    STACK: PendingDraw,
    CHALLENGE: ChallengeDecision,
    CHOOSE_TARGET: TargetToPick,
    BUZZER: BuzzerRace,
}

ACCEPTS: dict[type, dict[type, Transition]] = {RoundOver: {}}
"""The same tables keyed by the decision's type, then the action's (what `Round.apply` looks
up: two look-ups of a type, the only hashing it does)."""
for _phase, _kind in TRANSITIONS:
    ACCEPTS.setdefault(_DECISION_OF[_phase], dict(ANY_PHASE))[_kind] = TRANSITIONS[_phase, _kind]
LISTINGS: dict[type, Callable[[Round, int], list[Action]]] = {
    _DECISION_OF[phase]: listing for phase, listing in _LISTINGS.items()
}


# -- expiry ----------------------------------------------------------------------------------


def _expire_turn(rnd: Round, seat: int) -> None:
    """Draw one card and pass, or pass if already drawn (draw_when_playable limits a choice,
    not this). No Mercy: draw until a card plays and play it, as the player had to (with
    draw_until_playable, its default)."""
    turn = rnd.decision
    assert isinstance(turn, Turn)
    if rnd.no_mercy and rnd.rules.draw_until_playable:
        _expire_turn_no_mercy(rnd, seat)
        return
    if turn.draws == 0 and not rnd.draw_cards(seat, 1, "draw"):
        rnd.emit(ev.CannotDraw(seat))
        rnd.cannot_draw_streak += 1
    if rnd.phase is TURN and rnd.current == seat:
        rnd.emit(ev.Passed(seat))
        if not rnd.stalemate_reached():
            rnd.next_turn(rnd.step(seat, 1))


def _expire_turn_no_mercy(rnd: Round, seat: int) -> None:
    turn = rnd.decision
    assert isinstance(turn, Turn)
    if turn.drawn is None and turn.draws == 0:
        draw(rnd, seat, _DRAW)
    turn = rnd.decision
    if not isinstance(turn, Turn) or turn.drawn is None or rnd.current != seat:
        return
    card = turn.drawn
    color = rnd.favourite_color(seat) if rnd.face(card).names_color else None
    play(rnd, seat, Play(card, color))


EXPIRY: dict[Phase, Callable[[Round, int], None]] = {
    TURN: _expire_turn,
    CHOOSE_COLOR: lambda rnd, seat: choose_color(
        rnd, seat, ChooseColor(rnd.favourite_color(seat))),
    ROULETTE: lambda rnd, seat: choose_color(
        rnd, seat, ChooseColor(rnd.favourite_color(seat))),
    CHALLENGE: lambda rnd, seat: rnd.take_pending(seat),
    STACK: lambda rnd, seat: rnd.take_pending(seat),
    CHOOSE_TARGET: lambda rnd, seat: choose_target(
        rnd, seat, ChooseTarget(rnd.default_target(seat))),
    BUZZER: lambda rnd, seat: rnd.close_buzzer(rnd.buzz_waiting),
}
"""The documented default of each decision when the host's timer runs out (RULEBOOK.md 6):
a colour is the one the decider holds most of, a challenge or a pending draw is accepted, a
swap goes to the player with the fewest cards, a buzzer race closes and whoever has not
pressed draws."""
