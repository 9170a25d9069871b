"""May this card be played now, and if not why: the one judgement of a play (DESIGN.md).

The listing of legal actions, the refusal's error code (`refusal`, for every action), the
drawn-card path and (through the events the engine sends, such as MayPlayDrawn) every client
read this module; nothing else
decides whether a card may be played. Three situations ask different questions:

- in one's turn (phase turn): the card matches the top card (unonet.matching) and no rule
  forbids it (action_finish, wd4_policy=enforce, the drawn-card lock);
- answering a pending draw (phases stack and challenge): a draw card that stacks on the chain
  (`stacking`, `stack_mix_wild`) or a card that deflects it (`deflect`), or in No Mercy cancels
  it (`deflect`: a Discard All or a Skip Everyone, seed 003);
- out of turn: a jump-in (`jump_in`) or the next card of one's own run (`sequences`).

A play of several cards (`Play.also`) is a run or a set of one number, judged by its first card
as above and then as a whole.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import pairwise
from typing import TYPE_CHECKING

from unonet.actions import (
    TURN_ACTIONS,
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
from unonet.cards import CHALLENGEABLE_KINDS, Face, Kind
from unonet.decisions import DRAWS, Turn
from unonet.errors import EngineError, ErrorCode
from unonet.matching import holds_color
from unonet.phase import (
    BUZZER,
    CHALLENGE,
    CHOOSE_COLOR,
    CHOOSE_TARGET,
    ROULETTE,
    ROUND_OVER,
    STACK,
    TURN,
)

if TYPE_CHECKING:
    from unonet.round_state import RoundState as Round

__all__ = ["legal_plays", "may_play", "play_refusal", "refusal"]

_NOT_IDENTICAL = frozenset({Kind.BUZZER, *CHALLENGEABLE_KINDS})
"""Seed 003: every card may be intercepted but a Buzzer and a Wild Draw Four (`identical`);
UNO Flip's challengeable wild draw cards are kept out likewise (choice)."""
_DEFLECTORS = frozenset({Kind.SKIP, Kind.REVERSE, Kind.BUZZER})
_CANCELLERS = frozenset({Kind.DISCARD_ALL, Kind.SKIP_EVERYONE})
"""Seed 003, No Mercy with `deflect` ("risposte avanzate"): Discard All and Skip Everyone
cancel the pending draw chain altogether."""
_JUMP_IN_PHASES = (TURN, STACK, CHALLENGE)
"""RULEBOOK.md 6.5: while the current player is to play or faces a pending draw."""


# -- the judgement ---------------------------------------------------------------------------


def may_play(rnd: Round, seat: int, play: Play) -> bool:
    """May `seat` make `play` now: `play_refusal`'s answer as a yes or no, which `Round.apply`
    asks of every play.

    The common case is answered here without building a refusal: one card in one's own turn
    (the card just drawn, once one was), under rules that forbid no matching card. It is then
    legal exactly when it is in hand, matches the top card and is one of the card's listed plays
    (its colour named if wild; with UNO, one of its plays as the next-to-last card). Any other
    play is judged in full."""
    decision = rnd.decision
    card = play.card
    if (type(decision) is Turn and decision.seat == seat
            and (not decision.draws or decision.drawn == card)
            and not play.also and not rnd.restricted_plays):
        hand = rnd.hands[seat]
        table = rnd.table
        return (card in table.matching_on[rnd.discard[-1]][rnd.active_color] and card in hand
                and play in (_card_plays(rnd, hand, card) if play.uno else table.plays[card]))
    return play_refusal(rnd, seat, play) is None


def play_refusal(rnd: Round, seat: int, play: Play) -> EngineError | None:
    """None when `seat` may make `play` now, else the error that says why not."""
    hand = rnd.hands[seat]
    if play.card not in hand:
        return EngineError(ErrorCode.CARD_NOT_IN_HAND, f"card {play.card} is not in hand")
    refusal = _first_card_refusal(rnd, seat, play.card)
    if refusal is not None:
        return refusal
    face = rnd.face(play.card)
    if face.names_color and play.color not in rnd.colors:
        return EngineError(ErrorCode.COLOR_REQUIRED, "a wild needs a colour of this deck")
    if not face.names_color and play.color is not None:
        if face.is_wild:
            return EngineError(
                ErrorCode.COLOR_NOT_ALLOWED, "the next player names a Color Roulette's colour"
            )
        return EngineError(ErrorCode.COLOR_NOT_ALLOWED, "only a wild names a colour")
    if play.also:
        refusal = _combination_refusal(rnd, seat, play)
        if refusal is not None:
            return refusal
    if play.uno and cards_left(rnd, hand, play.card, len(play.also)) != 1:
        return EngineError(ErrorCode.UNO_NOT_ALLOWED, "UNO goes with a play that leaves one card")
    return None


def cards_left(rnd: Round, hand: Sequence[int], card: int, also: int = 0) -> int:
    """How many cards `hand` keeps after playing `card` and `also` more: a Discard All takes
    every other card of its colour with it (No Mercy)."""
    left = len(hand) - 1 - also
    face = rnd.face(card)
    if face.kind is Kind.DISCARD_ALL:
        left -= sum(1 for c in hand if c != card and rnd.face(c).color == face.color)
    return left


def _card_plays(rnd: Round, hand: Sequence[int], card: int) -> tuple[Play, ...]:
    """The listed plays of one card: with and without UNO when it leaves one card."""
    if rnd.no_mercy and rnd.face(card).kind is Kind.DISCARD_ALL:
        one_left = cards_left(rnd, hand, card) == 1
    else:
        one_left = len(hand) == 2
    return rnd.table.plays_with_uno[card] if one_left else rnd.table.plays[card]


def _first_card_refusal(rnd: Round, seat: int, card: int) -> EngineError | None:
    if seat != rnd.current:
        return out_of_turn_refusal(rnd, seat, card)
    if rnd.phase is TURN:
        if rnd.drawn_card is not None and card != rnd.drawn_card:
            return EngineError(ErrorCode.MUST_PLAY_DRAWN_CARD, "only the drawn card may be played")
        if rnd.draws_this_turn and rnd.drawn_card is None:
            return EngineError(ErrorCode.MUST_PLAY_DRAWN_CARD, "the card you drew does not play")
        if card not in rnd.table.matching(rnd.top, rnd.active_color):
            return EngineError(
                ErrorCode.ILLEGAL_CARD, f"{rnd.face(card).name} does not match the top card"
            )
        return rule_refusal(rnd, rnd.hands[seat], card)
    if rnd.phase in (STACK, CHALLENGE):
        return answer_refusal(rnd, seat, card)
    return EngineError(ErrorCode.WRONG_PHASE, f"now: {rnd.phase.value}")


def plays_in_turn(rnd: Round, hand: Sequence[int], card: int) -> bool:
    """`card` matches the top card and no rule forbids it: `_first_card_refusal`'s answer for
    the turn's phase as a yes or no, without building the refusal (the listing asks it of every
    card, every step; the drawn-card path of the card drawn)."""
    return card in rnd.table.matching_on[rnd.discard[-1]][rnd.active_color] and not (
        rnd.restricted_plays and rule_refusal(rnd, hand, card) is not None
    )


def rule_refusal(rnd: Round, hand: Sequence[int], card: int) -> EngineError | None:
    """A card that matches but that a rule forbids: an action card as the last card (unless
    action_finish), a Wild Draw Four (or Flip's Wild Draw Two, Wild Draw Color) while holding
    the colour in play (wd4_policy=enforce)."""
    face = rnd.face(card)
    if len(hand) == 1 and face.is_action and not rnd.rules.action_finish:
        return EngineError(ErrorCode.LAST_CARD_NOT_ALLOWED, "no action card as the last card")
    if face.kind in CHALLENGEABLE_KINDS and rnd.rules.wd4_policy == "enforce":
        others = (rnd.face(c) for c in hand if c != card)
        if holds_color(others, rnd.active_color):
            return EngineError(ErrorCode.ILLEGAL_WILD_DRAW_FOUR, "you hold the colour in play")
    return None


def answer_refusal(rnd: Round, seat: int, card: int) -> EngineError | None:
    """May `card` answer the draw pending on `seat`: stack on it, or deflect it."""
    if rnd.rules.stacking == "off" and not rnd.rules.deflect:
        return EngineError(ErrorCode.WRONG_PHASE, f"now: {rnd.phase.value}")
    if _answers(rnd, seat, card):
        return rule_refusal(rnd, rnd.hands[seat], card)
    return _pending_error(rnd)


def _answers(rnd: Round, seat: int, card: int) -> bool:
    """`answer_refusal` without its words: may `card` stack on, deflect or cancel the draw
    pending on `seat`, before the rules on last cards (the listing asks it of every card)."""
    if rnd.finished is not None and not rnd.rules.deflect:
        return False  # the round ends once this draw is taken: no answer
    face = rnd.face(card)
    return stacks_on(rnd, face) or deflects(rnd, seat, face) or cancels(rnd, face)


def _pending_error(rnd: Round) -> EngineError:
    return EngineError(
        ErrorCode.DRAW_PENDING, f"{rnd.pending_draw} cards wait for you: answer them or take them"
    )


def stacks_on(rnd: Round, face: Face) -> bool:
    """`stacking`: same_kind is +2 on +2 and +4 on +4; escalating is any draw card worth as
    much as the last one or more; stack_mix_wild=false keeps wild and coloured draws apart."""
    stacking = rnd.rules.stacking
    if stacking == "off" or not face.draw_amount:
        return False
    decision = rnd.decision
    chain = decision.chain if isinstance(decision, DRAWS) else ()
    top = chain[-1] if chain else rnd.face(rnd.top)  # a deflection is not a draw card
    if top.kind is Kind.WILD_DRAW_COLOR:  # "until a colour" has no count to add to (choice)
        return False
    if not rnd.rules.stack_mix_wild and face.is_wild != top.is_wild:
        return False
    if stacking == "same_kind":
        return face.kind is top.kind
    return face.draw_amount >= top.draw_amount


def deflects(rnd: Round, seat: int, face: Face) -> bool:
    """`deflect`: a Skip, a Reverse (or a Buzzer, with buzzers) sends the pending draw on,
    offered only when it would not come back to `seat` itself."""
    if not rnd.rules.deflect or face.kind not in _DEFLECTORS:
        return False
    return rnd.deflect_target(seat, face.kind) != seat


def cancels(rnd: Round, face: Face) -> bool:
    """`deflect` in No Mercy: a Discard All or a Skip Everyone of any colour cancels the
    pending draw (seed 003); the card then acts as in its player's turn."""
    return rnd.rules.deflect and rnd.rules.variant == "no_mercy" and face.kind in _CANCELLERS


def out_of_turn_refusal(rnd: Round, seat: int, card: int) -> EngineError | None:
    """A play out of turn: a jump-in on the top card, or the next card of one's own run."""
    if _out_of_turn(rnd, seat, card):
        return rule_refusal(rnd, rnd.hands[seat], card)
    return _not_yours(rnd)


def _out_of_turn(rnd: Round, seat: int, card: int) -> bool:
    """`out_of_turn_refusal` without its words, before the rules on last cards."""
    if rnd.phase in _JUMP_IN_PHASES and not rnd.draws_this_turn and seat not in rnd.out:
        face = rnd.face(card)
        return extends_run(rnd, seat, face) or jumps_in(rnd, seat, face)
    return False


def _not_yours(rnd: Round) -> EngineError:
    """Another seat has the turn (`not_your_turn`), or a decision it must make first
    (`not_your_decision`: a colour, a challenge, a pending draw, a swap)."""
    if rnd.phase is TURN:
        return EngineError(ErrorCode.NOT_YOUR_TURN, f"it is seat {rnd.current}'s turn")
    return EngineError(
        ErrorCode.NOT_YOUR_DECISION, f"seat {rnd.current} decides first ({rnd.phase.value})"
    )


def _buzz_refusal(rnd: Round) -> EngineError:
    """A Buzz nobody waits for: no race is on (SPEC [UNO-14-6]: a buzz after the close is
    `wrong_phase`), or the rules have no buzzers or let a seat press once."""
    if rnd.rules.buzzers and rnd.phase is not BUZZER:
        return EngineError(ErrorCode.WRONG_PHASE, f"no buzzer race is on (now: {rnd.phase.value})")
    if not rnd.rules.buzzers:
        return EngineError(ErrorCode.ACTION_NOT_ALLOWED, "these rules have no buzzers")
    return EngineError(ErrorCode.ACTION_NOT_ALLOWED, "each seat presses once")


def extends_run(rnd: Round, seat: int, face: Face) -> bool:
    """`sequences`: the run's player adds the next number in its colour (either way after a
    single card) until the next player acts."""
    run = rnd.run
    if run is None or run.seat != seat or run.serial != rnd.turn_serial:
        return False
    if rnd.phase is not TURN or face.kind is not Kind.NUMBER or face.color != run.color:
        return False
    assert face.number is not None
    steps = (run.step,) if run.step else (1, -1)
    return any(face.number == run.last + step for step in steps)


def jumps_in(rnd: Round, seat: int, face: Face) -> bool:
    """`jump_in`: identical is the same colour and face (not a Buzzer or Wild Draw Four);
    same_face is the same number or symbol in any colour. Not on one's own card, and on a
    pending draw (a stack, a Wild Draw Four awaiting its challenge) only a card that also
    stacks on it."""
    mode = rnd.rules.jump_in
    if mode == "off" or seat == rnd.top_seat:
        return False
    top = rnd.face(rnd.top)
    if face.kind is not top.kind or face.number != top.number:
        return False
    if mode == "identical" and (face.color != top.color or face.kind in _NOT_IDENTICAL):
        return False
    return rnd.phase is TURN or stacks_on(rnd, face)


def _combination_refusal(rnd: Round, seat: int, play: Play) -> EngineError | None:
    hand = rnd.hands[seat]
    cards = (play.card, *play.also)
    if seat != rnd.current or rnd.phase is not TURN or rnd.draws_this_turn:
        return _combination_error("several cards go only at the start of one's own turn")
    if len(set(cards)) != len(cards) or any(card not in hand for card in play.also):
        return EngineError(ErrorCode.CARD_NOT_IN_HAND, "every card of the play must be in hand")
    faces = [rnd.face(card) for card in cards]
    if not (rnd.rules.sequences or rnd.rules.multiples):
        return EngineError(ErrorCode.ACTION_NOT_ALLOWED, "one card per play in these rules")
    if not (
        (rnd.rules.sequences and is_run(faces)) or (rnd.rules.multiples and is_multiple(faces))
    ):
        allowed = [name for name in ("sequences", "multiples") if getattr(rnd.rules, name)]
        return _combination_error(f"these cards are not a play of {' or '.join(allowed)}")
    if not rnd.rules.multi_finish and len(cards) == len(hand):
        return _combination_error("multi_finish: a play of several cards may not empty the hand")
    return None


def _combination_error(message: str) -> EngineError:
    return EngineError(ErrorCode.INVALID_COMBINATION, message)


def is_run(faces: Sequence[Face]) -> bool:
    """Consecutive numbers of one colour, rising or falling (`sequences`), two or more."""
    if len(faces) < 2 or any(f.kind is not Kind.NUMBER or f.color != faces[0].color
                             for f in faces):
        return False
    numbers = [f.number or 0 for f in faces]
    step = numbers[1] - numbers[0]
    return step in (1, -1) and all(b - a == step for a, b in pairwise(numbers))


def is_multiple(faces: Sequence[Face]) -> bool:
    """Two or more number cards of the same number, any colours (`multiples`)."""
    return len(faces) >= 2 and all(
        f.kind is Kind.NUMBER and f.number == faces[0].number for f in faces
    )


def refusal(rnd: Round, seat: int, action: Action) -> EngineError:
    """The most useful error for an action that is not legal now: the refusal's code and
    words for any action (a play's come from play_refusal)."""
    if rnd.phase is ROUND_OVER:
        return EngineError(ErrorCode.ROUND_OVER, "the round is over")
    if not 0 <= seat < rnd.seats:
        return EngineError(ErrorCode.UNKNOWN_SEAT, f"no seat {seat}")
    if seat in rnd.out:
        return EngineError(ErrorCode.ACTION_NOT_ALLOWED, f"seat {seat} is out of the round")
    if isinstance(action, Catch | ChooseTarget) and not 0 <= action.target < rnd.seats:
        return EngineError(ErrorCode.UNKNOWN_SEAT, f"no seat {action.target}")
    if isinstance(action, Catch):
        return EngineError(ErrorCode.NOT_CATCHABLE, f"seat {action.target} cannot be caught")
    if isinstance(action, CallUno):
        return EngineError(ErrorCode.UNO_NOT_ALLOWED, "UNO is called holding one card")
    if isinstance(action, Buzz):
        return _buzz_refusal(rnd)
    if isinstance(action, Play):
        if rnd.phase is BUZZER:
            return EngineError(ErrorCode.WRONG_PHASE, "press B first: a buzzer race is on")
        why = play_refusal(rnd, seat, action)
        assert why is not None
        return why
    if not isinstance(action, TURN_ACTIONS):
        return EngineError(ErrorCode.ACTION_NOT_ALLOWED, f"{action} is not allowed")
    if seat != rnd.current:
        return _not_yours(rnd)
    return _decision_refusal(rnd, action)


def _decision_refusal(rnd: Round, action: Action) -> EngineError:
    """Why the seat the round waits on may not answer with `action` now."""
    if isinstance(action, Challenge) or (
        isinstance(action, Accept) and rnd.phase is not STACK
    ):
        return EngineError(ErrorCode.NOTHING_TO_CHALLENGE, "no Wild Draw Four to answer")
    if rnd.phase is STACK and isinstance(action, Draw | Pass):
        return EngineError(
            ErrorCode.DRAW_PENDING,
            f"{rnd.pending_draw} cards wait for you: answer them or take them (Accept)",
        )
    if isinstance(action, ChooseTarget):
        if rnd.phase is CHOOSE_TARGET:
            return EngineError(ErrorCode.INVALID_TARGET, f"seat {action.target} cannot swap")
        return EngineError(ErrorCode.WRONG_PHASE, f"now: {rnd.phase.value}")
    if rnd.phase in (CHOOSE_COLOR, ROULETTE) and isinstance(action, ChooseColor):
        return EngineError(ErrorCode.COLOR_REQUIRED, "name a colour of this deck")
    if rnd.phase is not TURN or isinstance(action, ChooseColor):
        return EngineError(ErrorCode.WRONG_PHASE, f"now: {rnd.phase.value}")
    if isinstance(action, Draw):
        return EngineError(ErrorCode.CANNOT_DRAW, "no draw is allowed now")
    if rnd.drawn_card is not None:
        return EngineError(ErrorCode.CANNOT_PASS, "the card drawn must be played (No Mercy)")
    return EngineError(ErrorCode.CANNOT_PASS, "draw before passing")


# -- the listing -----------------------------------------------------------------------------


def legal_plays(rnd: Round, seat: int) -> list[Play]:
    """Every single-card play `seat` may make now, then the multi-card plays the listing names.

    Any run or set that `play_refusal` accepts is accepted, listed or not; the listing names,
    for each first card, the longest runs (and each shorter prefix) and the set of all cards of
    its number ending on each of them, so a client that offers only listed plays offers every
    way to end on a chosen card."""
    hand = rnd.hands[seat]
    if seat != rnd.current:
        return _out_of_turn_plays(rnd, seat, hand)
    plays: list[Play] = []
    decision = rnd.decision
    if type(decision) is Turn:
        if decision.drawn is not None:
            candidates: Sequence[int] = (decision.drawn,)
        elif decision.draws:
            return plays
        else:
            candidates = hand
        table = rnd.table
        matching = table.matching_on[rnd.discard[-1]][rnd.active_color]
        restricted = rnd.restricted_plays
        by_card = table.plays_with_uno if len(hand) == 2 else table.plays
        for card in candidates:  # plays_in_turn, with the top card's set looked up once
            if card in matching and not (restricted and rule_refusal(rnd, hand, card)):
                plays += _card_plays(rnd, hand, card) if rnd.no_mercy else by_card[card]
        if (rnd.rules.sequences or rnd.rules.multiples) and candidates is hand:
            plays += _combinations(rnd, seat, [p.card for p in plays if p.color is None])
    elif (rnd.phase is STACK or rnd.phase is CHALLENGE) and (
        rnd.rules.stacking != "off" or rnd.rules.deflect
    ):
        for card in hand:
            if _answers(rnd, seat, card) and not (
                    rnd.restricted_plays and rule_refusal(rnd, hand, card)):
                plays += _card_plays(rnd, hand, card)
    return plays


def _out_of_turn_plays(rnd: Round, seat: int, hand: Sequence[int]) -> list[Play]:
    """The jump-ins and the next card of one's run that `seat` may play out of turn."""
    plays: list[Play] = []
    if rnd.rules.jump_in != "off" or rnd.rules.sequences:
        for card in hand:
            if _out_of_turn(rnd, seat, card) and not (
                    rnd.restricted_plays and rule_refusal(rnd, hand, card)):
                plays += _card_plays(rnd, hand, card)
    return plays


def _combinations(rnd: Round, seat: int, firsts: list[int]) -> list[Play]:
    hand = rnd.hands[seat]
    out: list[Play] = []
    seen: set[int] = set()
    for first in firsts:
        if first in seen or rnd.face(first).kind is not Kind.NUMBER:
            continue
        seen.add(first)
        for also in _also_options(rnd, hand, first):
            play = Play(first, None, False, also)
            if play_refusal(rnd, seat, play) is not None:
                continue
            out.append(play)
            if len(hand) - 1 - len(also) == 1:
                out.append(Play(first, None, True, also))
    return out


def _also_options(rnd: Round, hand: Sequence[int], first: int) -> Iterator[tuple[int, ...]]:
    face = rnd.face(first)
    if rnd.rules.sequences:
        by_number = {
            rnd.face(c).number: c
            for c in reversed(hand)
            if c != first and rnd.face(c).kind is Kind.NUMBER and rnd.face(c).color == face.color
        }
        assert face.number is not None
        for step in (1, -1):
            run: list[int] = []
            number = face.number + step
            while number in by_number:
                run.append(by_number[number])
                yield tuple(run)
                number += step
    if rnd.rules.multiples:
        same = [c for c in hand if c != first and rnd.face(c).kind is Kind.NUMBER
                and rnd.face(c).number == face.number]
        for last in same:
            yield (last,)
            rest = [c for c in same if c != last]
            if rest:
                yield (*rest, last)
