"""UNO Flip (RULEBOOK.md section 3): what only Flip has beside its deck (unonet.flip_deck).

What each card does is in Round's table of effects, the turn-over's events (`Flipped`,
`OtherSidesShown`, `PileOtherSideShown`) in unonet.events, and the faces everyone sees of the
side not in play in unonet.view.
"""

from __future__ import annotations

from unonet.flip_deck import DARK, LIGHT

__all__ = ["other_side"]


def other_side(side: int) -> int:
    """The side a Flip turns every card to."""
    return DARK if side == LIGHT else LIGHT
