"""Scenario helpers for UNO Show 'Em No Mercy: stacked decks named by card code.

`nm_deal(hands=[["r5", "rDA", ...], [...]], top="b3", draws=["y2"], dealer=0)` returns a started
No Mercy match (variant=no_mercy) whose seat i holds hands[i], whose first discard is `top`
(several codes: the first-card cases, the last one on top) and whose next draws are `draws`.
Codes are `Face.code`: r5, g+2, b+4 (coloured Draw Four), yS, yR, rDA (Discard All), gSE (Skip
Everyone), WR+4, W+6, W+10, WCR (Color Roulette). Every card not named follows in ascending id
order (r0, r0, r1, ...).
With `fill=True` short hands are padded from those unnamed cards, in that order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scenario import _padded
from stacking import stacked_order

from unonet.match import Match
from unonet.round import Round
from unonet.rules import RuleSet

SEED = b"no-mercy-scenario"
NO_MERCY = RuleSet().with_options({"variant": "no_mercy"})
"""No Mercy as Mattel plays it: the variant's defaults (unonet.no_mercy_deck.NO_MERCY_DEFAULTS)."""


def no_mercy_match(seats: int, seed: bytes, rules: RuleSet = NO_MERCY, **setup: Any) -> Match:
    """A No Mercy match of `rules` (No Mercy's, with options over them)."""
    if rules.variant != "no_mercy":
        raise ValueError("no_mercy_match builds No Mercy matches only")
    return Match(rules, seats, seed, **setup)


def nm_deal(
    hands: Sequence[Sequence[str]],
    top: str | Sequence[str] = "r5",
    draws: Sequence[str] = (),
    dealer: int = 0,
    rules: RuleSet = NO_MERCY,
    *,
    fill: bool = False,
) -> Match:
    """A started No Mercy match dealt from a stacked deck (see the module's docstring). The
    rules' hand_size is the hands' length unless `fill` pads them up to it."""
    if fill:
        hands = _padded(rules, hands, top, draws)
    else:
        rules = rules.replace(hand_size=len(hands[0]))
    order = stacked_order(rules.manifest(), dealer, hands, top, draws)
    match = no_mercy_match(len(hands), SEED, rules, stacked_decks=[order], first_dealer=dealer)
    match.start_round()
    return match


def pile_codes(match: Match, count: int) -> list[str]:
    """The codes of the next `count` cards of the draw pile, the next drawn first."""
    assert match.round is not None
    pile = match.round.draw_pile
    return [match.manifest.face(c).code for c in reversed(pile[-count:])]


def rnd(match: Match) -> Round:
    """The round being played."""
    assert match.round is not None
    return match.round
