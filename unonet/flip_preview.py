"""The engine's own way to build an UNO Flip match, before Flip is offered to anyone.

The engine plays Flip (issue 14: deck, effects, the turn-over, scoring, views), but the wire,
the trust scheme and the client do not carry it yet, so `RuleSet.check_playable` still refuses
`variant=flip` for everything a user or the host reaches (presets, `--rules flip`,
create_table): offer only what works. The engine's tests build Flip matches here instead. The
refusal lifts, and this module goes, when the protocol, trust and client parts of issue 14 land.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from unonet.actions import Action
from unonet.match import Match
from unonet.rules import RuleSet

__all__ = ["FLIP_RULES", "flip_match", "replay_flip_match"]

FLIP_RULES = RuleSet(variant="flip")
"""Preset `flip`: UNO Flip with the official options."""


def flip_match(seats: int, seed: bytes, rules: RuleSet = FLIP_RULES, **setup: Any) -> Match:
    """A Flip match (`rules.variant` must be flip), accepted although Flip is not offered yet.
    `setup` is Match's: stacked_decks, first_dealer, deck (a pairing a test needs)."""
    if rules.variant != "flip":
        raise ValueError("flip_match builds UNO Flip matches only")
    return Match(rules, seats, seed, unreleased_variants=True, **setup)


def replay_flip_match(
    rules: RuleSet, seats: int, seed: bytes, log: Iterable[tuple[int, Action]], **setup: Any
) -> Match:
    """`Match.replay` for a Flip match."""
    return Match.replay(rules, seats, seed, log, unreleased_variants=True, **setup)
