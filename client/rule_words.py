"""A table's rules in the player's words: what differs from the official rules (the lobby's
list), and what one change of the owner's made different (the chat's news)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from unonet.rulebook import option_title, value_words
from unonet.rules import OPTIONS, RuleSet

__all__ = ["differences", "option_words", "rule_changes"]

OFFICIAL = RuleSet()


def _value(rules: Mapping[str, Any], name: str) -> Any:
    """An option's value in a table's rules (a lobby may leave out what is official)."""
    return rules.get(name, getattr(OFFICIAL, name))


def _words(rules: Mapping[str, Any], names: list[str], lang: str) -> list[str]:
    variant = str(_value(rules, "variant"))  # titles in its card names
    return [f"{option_title(name, lang, variant)}: "
            f"{value_words(name, _value(rules, name), lang, variant)}" for name in names]


def differences(rules: Mapping[str, Any], lang: str) -> list[str]:
    """Each option of `rules` that differs from the official rules, "title: value"."""
    return _words(rules, [name for name in OPTIONS
                          if _value(rules, name) != getattr(OFFICIAL, name)], lang)


def rule_changes(before: Mapping[str, Any], after: Mapping[str, Any], lang: str,
                 besides: str | None = None) -> list[str]:
    """Each option whose value `after` differs from `before` (but `besides`), "title: new
    value"."""
    return _words(after, [name for name in OPTIONS if name != besides
                          and _value(before, name) != _value(after, name)], lang)


def option_words(name: str, rules: Mapping[str, Any], lang: str) -> str:
    """One option of `rules`, "title: value"."""
    return _words(rules, [name], lang)[0]
