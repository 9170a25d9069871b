"""The engine's quick-made values are still values (unonet.values): frozen, by value, and made
with the dataclass's own signature and defaults."""

from __future__ import annotations

import dataclasses
import inspect
from typing import Any

import pytest

from unonet import decisions
from unonet import events as ev
from unonet.values import quick_init

EVENTS = [value for value in vars(ev).values()
          if isinstance(value, type) and issubclass(value, ev.Event) and value is not ev.Event]
DECISIONS = [decisions.Turn, decisions.ColorToName, decisions.PendingDraw, decisions.Challenge,
             decisions.TargetToPick, decisions.BuzzerRace, decisions.RoundOver,
             decisions.RunWindow]


def _sample(cls: type) -> tuple[dict[str, Any], Any]:
    """Keyword arguments for every field (a distinct value each) and the value made with them."""
    kwargs = {f.name: (index, f.name) for index, f in enumerate(dataclasses.fields(cls))}
    return kwargs, cls(**kwargs)


@pytest.mark.parametrize("cls", EVENTS + DECISIONS, ids=lambda cls: cls.__name__)
def test_a_quick_made_value_is_frozen_and_holds_what_it_was_given(cls: type) -> None:
    kwargs, value = _sample(cls)
    assert {name: getattr(value, name) for name in kwargs} == kwargs
    assert value == cls(*kwargs.values())  # positionally, in the declared order
    assert hash(value) == hash(cls(**kwargs))
    for name in kwargs:
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, name, None)


@pytest.mark.parametrize("cls", EVENTS + DECISIONS, ids=lambda cls: cls.__name__)
def test_the_quick_init_has_the_dataclass_signature_and_defaults(cls: type) -> None:
    fields = dataclasses.fields(cls)
    params = list(inspect.signature(vars(cls)["__init__"]).parameters.values())[1:]
    assert [p.name for p in params] == [f.name for f in fields]
    assert [p.default for p in params] == [
        inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default
        for f in fields
    ]


def test_defaults_fill_the_fields_left_out() -> None:
    assert decisions.Turn(2) == decisions.Turn(2, None, 0)
    assert ev.DecisionPending(1, "stack").until_color is None


def test_quick_init_refuses_a_class_it_would_make_wrong() -> None:
    @dataclasses.dataclass(frozen=True, slots=True)
    class Checked:
        n: int

        def __post_init__(self) -> None:
            raise ValueError

    @dataclasses.dataclass(slots=True)
    class Mutable:
        n: int

    @dataclasses.dataclass(frozen=True, slots=True)
    class Listed:
        items: list[int] = dataclasses.field(default_factory=list)

    for cls in (Checked, Mutable, Listed):
        with pytest.raises(TypeError):
            quick_init(cls)
