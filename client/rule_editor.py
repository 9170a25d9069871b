"""What the lobby's rule editor offers: only the options, values and presets the engine plays.

The engine says what it plays (RuleSet.check_playable refuses the rest by name); the editor asks
it rather than keeping its own list, so an option the engine learns appears here by itself and
one it refuses (variant flip, no_mercy) is never offered. No I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from unonet.errors import EngineError
from unonet.rules import (
    OPTIONS,
    PRESETS,
    OptionInfo,
    RuleSet,
    options_over,
    played_as_given,
    preset,
    variant_preset,
)

STEPS = {"target": 50, "max_hand_penalty": 10, "think_time": 5, "max_hand": 5}
"""How far one arrow key moves a wide-ranged option (1 otherwise): target runs 50..10000."""

BELOW_MINIMUM = {"max_hand_penalty": "hand"}
"""The value below an option's range, for the options that have one besides off (None)."""


def plays(rules: dict[str, Any], seats: int | None = None,
          given: Mapping[str, Any] | None = None) -> bool:
    """Does the engine play these options (over the official rules), at a table of `seats`
    if given (as the host checks a change of rules: check_table), and the options `given`
    as given (No Mercy plays its own seven_zero, whatever the arrow chose)?"""
    try:
        ruleset = played_as_given(RuleSet(**rules), given or {})
        if seats is None:
            ruleset.check_playable()
        else:
            ruleset.check_table(seats)
    except (EngineError, TypeError, ValueError):
        return False
    return True


def _candidates(info: OptionInfo) -> tuple[Any, ...]:
    """A few values that stand for the option's whole range, to ask the engine about."""
    if info.choices:
        return info.choices
    values: list[Any] = [info.minimum, info.maximum]
    if info.nullable:
        values.append(None)
    if info.name in BELOW_MINIMUM:
        values.append(BELOW_MINIMUM[info.name])
    return tuple(v for v in values if v is not None or info.nullable)


@cache
def editor_options() -> tuple[OptionInfo, ...]:
    """The options the editor lists: each one the engine plays in more than its default."""
    default = RuleSet()
    return tuple(
        info for info in OPTIONS.values()
        if any(plays({info.name: value}) for value in _candidates(info)
               if value != getattr(default, info.name))
    )


@cache
def game_options(variant: str) -> tuple[OptionInfo, ...]:
    """The editor's options for a table of `variant`: the game itself, and each option that
    game plays in another value than its own (found in tmux: "Flip passes hands" under the
    classic rules, and No Mercy's fixed rules among ~33 options to walk through)."""
    base = preset(variant_preset(variant))
    return tuple(info for info in editor_options()
                 if info.name == "variant" or any(
                     _plays_over(base, {info.name: value}) for value in _candidates(info)
                     if value != getattr(base, info.name)))


def _plays_over(base: RuleSet, options: Mapping[str, Any]) -> bool:
    try:
        base.with_options(options).check_options()
    except (EngineError, TypeError, ValueError):
        return False
    return True


def preset_keeping(name: str, rules: Mapping[str, Any], current: str | None,
                   seats: int) -> tuple[dict[str, Any], list[str]]:
    """Preset `name` over the options set explicitly at the table (those that differ from its
    current preset's: `unonet host --set`, the editor): the ones the new preset plays with
    them are kept (found in tmux: `--set target=50`, then `p`, and the friends read "Target
    points: 500"); the others go back, by name, for the owner to be told."""
    start = preset(current) if current in PRESETS else RuleSet()
    explicit = {key: value for key, value in rules.items()
                if key in OPTIONS and key != "variant" and value != getattr(start, key)}
    kept: dict[str, Any] = {}
    reset: list[str] = []
    for key, value in explicit.items():
        try:
            preset(name, **{**kept, key: value}).check_table(seats)
        except (EngineError, TypeError, ValueError):
            reset.append(key)
            continue
        kept[key] = value
    return kept, reset


def step_option(info: OptionInfo, rules: dict[str, Any], step: int, seats: int) -> Any:
    """The option's next value one arrow key away that the engine plays together with the
    other options in `rules` at a table of `seats` (the current value when there is none)."""
    current = rules.get(info.name, getattr(RuleSet(), info.name))
    value = current
    for _ in range(max(1, len(info.choices))):
        value = _next_value(info, value, step)
        if value == current:
            break
        if plays(options_over(rules, {info.name: value}), seats, {info.name: value}):
            return value
    return current


def _next_value(info: OptionInfo, current: Any, step: int) -> Any:
    """Around the choices, or within the range; below the minimum is off (None) for an option
    that may be off, or its BELOW_MINIMUM value."""
    if info.choices:
        index = info.choices.index(current) if current in info.choices else 0
        return info.choices[(index + step) % len(info.choices)]
    low = info.minimum if info.minimum is not None else 0
    high = info.maximum if info.maximum is not None else low
    if current is None or not isinstance(current, int):
        return low if step > 0 else current
    value = current + step * STEPS.get(info.name, 1)
    if value < low:
        if current > low:
            return low
        return None if info.nullable else BELOW_MINIMUM.get(info.name, low)
    return min(value, high)
