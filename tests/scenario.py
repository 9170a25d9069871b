"""Scenario helpers for the rule tests: stacked decks named by card code, and small accessors.

`deal(hands=[["r5", "g7", ...], [...]], top="b3", draws=["y2"], dealer=0)` returns a started
Match whose seat i holds `hands[i]`, whose first discard is `top` and whose next draws are
`draws`, in that order. Cards are named by `Face.code` (r5, g+2, bS, yR, W, W+4). Every card not
named follows in ascending id order (r0, r1, r1, r2, ...), so a test that draws more than it
named knows what comes. With `fill=True` short hands are padded from those unnamed cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from stacking import stacked_order

from unonet import events as ev
from unonet.actions import Action, Draw, Pass, Play
from unonet.cards import Color
from unonet.errors import EngineError, ErrorCode
from unonet.match import Match
from unonet.rules import RuleSet

SEED = b"scenario"

R, Y, G, B = Color.RED, Color.YELLOW, Color.GREEN, Color.BLUE


def deal(
    hands: Sequence[Sequence[str]],
    top: str | Sequence[str] = "r5",
    draws: Sequence[str] = (),
    dealer: int = 0,
    rules: RuleSet | None = None,
    *,
    fill: bool = False,
) -> Match:
    """A started match dealt from a stacked deck. The rules' hand_size is the hands' length
    unless `fill` pads every hand up to the rules' hand_size."""
    rules = rules or RuleSet()
    if fill:
        hands = _padded(rules, hands, top, draws)
    else:
        rules = rules.replace(hand_size=len(hands[0]))
    order = stacked_order(rules.manifest(), dealer, hands, top, draws)
    match = Match(rules, len(hands), SEED, stacked_decks=[order], first_dealer=dealer)
    match.start_round()
    return match


def _padded(
    rules: RuleSet,
    hands: Sequence[Sequence[str]],
    top: str | Sequence[str],
    draws: Sequence[str],
) -> list[list[str]]:
    manifest = rules.manifest()
    named: list[str] = [c for hand in hands for c in hand]
    named += [top] if isinstance(top, str) else list(top)
    named += list(draws)
    left: dict[str, int] = {}
    for code in named:
        left[code] = left.get(code, 0) + 1
    spare: list[str] = []
    for card in manifest:
        code = card.faces[0].code
        if left.get(code, 0):
            left[code] -= 1
        else:
            spare.append(code)
    out = []
    for hand in hands:
        need = rules.hand_size - len(hand)
        out.append([*hand, *spare[:need]])
        del spare[:need]
    return out


# -- reading the state -----------------------------------------------------------------------


def code(match: Match, card: int) -> str:
    return match.manifest.face(card).code


def hand(match: Match, seat: int) -> list[int]:
    assert match.round is not None
    return list(match.round.hands[seat])


def codes(match: Match, seat: int) -> list[str]:
    """The codes of a seat's hand, sorted (order of a hand does not matter)."""
    return sorted(code(match, c) for c in hand(match, seat))


def card(match: Match, seat: int, card_code: str) -> int:
    """The id of a card with this code in `seat`'s hand (the first one if it holds several)."""
    for c in hand(match, seat):
        if code(match, c) == card_code:
            return c
    raise AssertionError(f"seat {seat} holds no {card_code}: {codes(match, seat)}")


def top(match: Match) -> str:
    assert match.round is not None
    return code(match, match.round.top)


def current(match: Match) -> int:
    assert match.round is not None
    return match.round.current


def phase(match: Match) -> str:
    assert match.round is not None
    return match.round.phase.value


def active_color(match: Match) -> Color | None:
    assert match.round is not None
    return match.round.active_color


def play(
    match: Match, seat: int, card_code: str, color: Color | None = None, uno: bool = False
) -> list[ev.Event]:
    return match.apply(seat, Play(card(match, seat, card_code), color, uno))


def plays(match: Match, seat: int) -> set[str]:
    """The codes of the cards `seat` may play now."""
    return {
        code(match, a.card) for a in match.legal_actions(seat) if isinstance(a, Play)
    }


def of_type(events: Sequence[ev.Event], kind: type[Any]) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def one(events: Sequence[ev.Event], kind: type[Any]) -> Any:
    found = of_type(events, kind)
    assert len(found) == 1, f"expected one {kind.__name__}, got {found}"
    return found[0]


def drawn_codes(match: Match, events: Sequence[ev.Event], seat: int) -> list[str]:
    """The codes of the cards `seat` received in `events`, in order."""
    return [
        code(match, c) for e in of_type(events, ev.CardsReceived) if e.seat == seat
        for c in e.cards
    ]


def refused(match: Match, seat: int, action: Action, expected: ErrorCode) -> EngineError:
    """Apply an action that must be refused with `expected`, and check nothing changed."""
    before = match.state()
    log = list(match.log)
    with pytest.raises(EngineError) as info:
        match.apply(seat, action)
    assert info.value.code is expected, info.value
    assert match.state() == before
    assert match.log == log
    return info.value


def cards_in_play(match: Match) -> int:
    """Every card in a hand or a pile: the deck size must be conserved."""
    rnd = match.round
    assert rnd is not None
    return sum(len(h) for h in rnd.hands) + len(rnd.draw_pile) + len(rnd.discard)


# -- house rules (RULEBOOK.md 2 and 6) -------------------------------------------------------


def play_cards(
    match: Match, seat: int, card_codes: Sequence[str], uno: bool = False
) -> list[ev.Event]:
    """One Play of several cards (a run or a multiple): the first, then `also` in order."""
    ids: list[int] = []
    for card_code in card_codes:
        ids.append(next(c for c in hand(match, seat) if code(match, c) == card_code
                        and c not in ids))
    return match.apply(seat, Play(ids[0], None, uno, tuple(ids[1:])))


def draw_and_pass(match: Match, seat: int) -> list[ev.Event]:
    """`seat` draws in its turn and, if the drawn card could be played, passes: the turn goes
    on to the next player either way (unless the draw ended the turn otherwise)."""
    events = match.apply(seat, Draw())
    if of_type(events, ev.MayPlayDrawn):
        events += match.apply(seat, Pass())
    return events


def round_order(
    rules: RuleSet,
    dealer: int,
    hands: dict[int, Sequence[str]],
    top: str,
    draws: Sequence[str] = (),
) -> list[int]:
    """The deal order of a later round dealt only to the seats in `hands` (the others were
    eliminated), for `Match(stacked_decks=[...])`. `dealer` must be one of them."""
    present = sorted(hands)
    return stacked_order(
        rules.manifest(), present.index(dealer), [hands[s] for s in present], top, draws
    )


def points(match: Match, seat: int) -> int:
    """The points of the cards `seat` holds (RULEBOOK.md 1.10)."""
    return sum(match.manifest.face(c).points for c in hand(match, seat))
