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
from unonet.rules import OPTIONS, OptionInfo, RuleSet, options_over, played_as_given

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
