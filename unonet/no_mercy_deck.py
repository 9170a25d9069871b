"""UNO Show 'Em No Mercy's 168 cards (RULEBOOK.md section 4), the options the variant fixes and
those it only starts with (seed 003 keeps Mattel's rules as options).

Mattel's sheet (HWV18) says only "168 Cards"; the breakdown is the fan wiki's, checked against
the printed sheet by several implementations (research/variant-rules.md 3.1): per colour two
each of 0-9, three Skip, three Reverse, three Draw Two, two Draw Four, three Discard All, two
Skip Everyone; then eight Wild Reverse Draw Four, four Wild Draw Six, four Wild Draw Ten and
eight Wild Color Roulette. No plain Wild. Points (the sheet's optional scoring): numbers at
face value, coloured action cards 20, wild cards 50.
"""

from __future__ import annotations

import functools
from typing import Any

from unonet.cards import CLASSIC_COLORS, DeckManifest, Face, Kind, build_manifest

__all__ = [
    "NO_MERCY_DECK_SIZE",
    "NO_MERCY_DEFAULTS",
    "NO_MERCY_KEEPS",
    "NO_MERCY_MAX_PLAYERS",
    "NO_MERCY_REFUSES",
    "NO_MERCY_SETS",
    "no_mercy_faces",
    "no_mercy_manifest",
]

NO_MERCY_DECK_SIZE = 168
NO_MERCY_MAX_PLAYERS = 6  # the box says "2-6"
MERCY_LIMIT = 25  # "If a player ever has 25 or more cards in their hand, they are out"

_COLORED_ACTIONS: tuple[tuple[Kind, int], ...] = (
    (Kind.SKIP, 3),
    (Kind.REVERSE, 3),
    (Kind.DRAW_TWO, 3),
    (Kind.DRAW_FOUR, 2),
    (Kind.DISCARD_ALL, 3),
    (Kind.SKIP_EVERYONE, 2),
)
_WILDS: tuple[tuple[Kind, int], ...] = (
    (Kind.WILD_REVERSE_DRAW_FOUR, 8),
    (Kind.WILD_DRAW_SIX, 4),
    (Kind.WILD_DRAW_TEN, 4),
    (Kind.WILD_COLOR_ROULETTE, 8),
)
COLORED_ACTION_POINTS = 20
WILD_POINTS = 50

NO_MERCY_DEFAULTS: dict[str, Any] = {
    "stacking": "escalating",
    "seven_zero": True,
    "draw_until_playable": True,
    "max_hand": MERCY_LIMIT,
}
"""Mattel's rules that seed 003 keeps as options of the variant ("aggiunge un nuovo mazzo": it
adds a deck; "Se le risposte e le scale sono abilitate": its answers are an option): a table
that takes the variant up starts with these values (unonet.rules.options_over, the presets),
and plays whatever value is given over them, but for those of `NO_MERCY_REFUSES`."""

NO_MERCY_REFUSES: dict[str, tuple[Any, ...]] = {"stacking": ("same_kind",)}
"""Values of its defaults that No Mercy refuses by name: seed 003's answers escalate ("puoi
giocare un Più 4 su un Più 2, ma non un Più 2 su un Più 4"), so they are that or off."""

NO_MERCY_SETS: dict[str, Any] = {
    "draw_when_playable": "forbidden",
    "max_players": NO_MERCY_MAX_PLAYERS,
}
"""Options No Mercy always plays with (the sheet's rules, always on): a rule set of the variant
takes these values where it has the classic default, and refuses any other by name
(max_players: any value above 6). `draw_when_playable=forbidden` is our reading of "if you do
not have a matching card, you MUST draw" (RULEBOOK.md section 4)."""

NO_MERCY_KEEPS: tuple[str, ...] = (
    "decks", "colors", "buzzers", "play_after_draw", "action_finish", "max_hand_penalty",
    "wd4_policy", "challenge_guilty_extra",
)
"""Options No Mercy leaves at their default and refuses otherwise: its own deck (one deck,
four colours, no Buzzer), the drawn card always played, any card may be the last, 250 points
per player knocked out, and the challenge's options (no card of its deck may be challenged)."""


@functools.cache
def no_mercy_faces() -> tuple[Face, ...]:
    """Per colour (red, yellow, green, blue) 0, 0, 1, 1 ... 9, 9, then the coloured action
    cards in the order of `_COLORED_ACTIONS`; then the wilds in the order of `_WILDS`."""
    faces: list[Face] = []
    for color in CLASSIC_COLORS:
        for number in range(10):
            faces += [Face(Kind.NUMBER, color, number, number)] * 2
        for kind, count in _COLORED_ACTIONS:
            faces += [Face(kind, color, None, COLORED_ACTION_POINTS)] * count
    for kind, count in _WILDS:
        faces += [Face(kind, None, None, WILD_POINTS)] * count
    assert len(faces) == NO_MERCY_DECK_SIZE
    return tuple(faces)


@functools.cache
def no_mercy_manifest() -> DeckManifest:
    """The No Mercy deck: card id i has face i of `no_mercy_faces` (one face per card)."""
    return build_manifest("no_mercy", [(face,) for face in no_mercy_faces()])
