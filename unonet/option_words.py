"""An option in words, in English, Italian and Portuguese: the vocabulary of a declaration.

unonet/options.py declares each option with its words in these types; unonet/rulebook.py says
them. Data types only, so that the declarations import nothing of the rules they describe.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from unonet.rules import RuleSet

__all__ = ["ANY_NUMBER", "Inert", "OptionWords", "Text", "Unit"]


class Text(NamedTuple):
    """One text in each language; read it with getattr(text, lang)."""

    en: str
    it: str
    pt: str


class Unit(NamedTuple):
    """What a number of an option counts: '1 card', '7 cards'."""

    one: Text
    many: Text


ANY_NUMBER = "n"
"""Key of an option's statement that serves every whole number ({v} is the value in words)."""


class Inert(NamedTuple):
    """When another option leaves this one without effect, and what to say instead."""

    when: Callable[[RuleSet], bool]
    says: Text


@dataclass(frozen=True)
class OptionWords:
    """An option in words: a short title, a one-line meaning, and per value what it does."""

    title: Text
    meaning: Text
    says: dict[Any, Text]
    unit: Unit | None = None
    values: dict[Any, Text] = field(default_factory=dict)  # value words peculiar to it
    inert: Inert | None = None
