"""Immutable records that are cheap to make: the one speed shape of the engine's values.

The engine makes two or three events at every step of a game, and often a decision value
(unonet.events, unonet.decisions). Both are frozen, slotted dataclasses, and a frozen
dataclass's generated `__init__` stores each field through `object.__setattr__` (plain
assignment is what frozen forbids): about 0.6 us for a five-field event against 0.45 us
through each slot's own descriptor and 0.19 us for a class that is not frozen (timeit, CPython
3.11, on this machine). Issue 44 measured a round at 0.75x turn 2's build, whose events were
mutable; `quick_init` buys most of that back without giving up immutability.

`quick_init` gives frozen, slotted dataclasses an `__init__` of the
same signature and defaults that stores each field through its slot's descriptor. Nothing else
changes: assigning a field afterwards still raises FrozenInstanceError, values still compare
and hash by value, and where a class is declared it reads as a plain dataclass. A class that
needs more of `__init__` (a `__post_init__`, a default factory, keyword-only or init=False
fields) is refused at import rather than quietly made wrong.
"""

from __future__ import annotations

import dataclasses
from typing import Any

__all__ = ["quick_init"]


def quick_init(*classes: type) -> None:
    """Give each of `classes` the quick `__init__`.

    Raises TypeError for a class that is not a frozen, slotted dataclass of plain fields."""
    for cls in classes:
        type.__setattr__(cls, "__init__", _init_for(cls))


def _init_for(cls: type) -> Any:
    """The `__init__` of `cls`: one descriptor store per field, in the declared order."""
    _check(cls)
    fields = dataclasses.fields(cls)
    namespace: dict[str, Any] = {}
    params = ["self"]
    stores = []
    for f in fields:
        namespace[f"_set_{f.name}"] = getattr(cls, f.name).__set__
        if f.default is dataclasses.MISSING:
            params.append(f.name)
        else:
            namespace[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        stores.append(f"    _set_{f.name}(self, {f.name})\n")
    source = f"def __init__({', '.join(params)}) -> None:\n" + ("".join(stores) or "    pass\n")
    exec(source, namespace)  # the text is built from the field names alone, as dataclasses does
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    return init


def _check(cls: type) -> None:
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or "__slots__" not in cls.__dict__:
        raise TypeError(f"{cls.__qualname__}: quick_init takes frozen, slotted dataclasses")
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__qualname__}: quick_init does not run __post_init__")
    for f in dataclasses.fields(cls):
        if not f.init or f.kw_only or f.default_factory is not dataclasses.MISSING:
            raise TypeError(f"{cls.__qualname__}.{f.name}: quick_init takes plain fields only")
