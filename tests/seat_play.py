"""How the tests' own human seat chooses an action when a test drives the host by hand."""

from __future__ import annotations

from collections.abc import Sequence

from unonet.actions import Action, Play


def plays_a_card(legal: Sequence[Action]) -> Action:
    """A card if she can, else the last choice offered. Always taking the last choice (a draw,
    even where a card could go) hoards cards: in about one match in 400 she held nearly every
    card, each reshuffle gave the bots one card at a time, and the round went on for tens of
    thousands of steps (tests that hit their step limits in CI, twice)."""
    return next((action for action in legal if isinstance(action, Play)), legal[-1])
