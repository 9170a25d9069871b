"""The texts made from the option declarations (unonet/options.py), and where each goes.

Each generated text sits between two marker lines in its file; `regenerate` rewrites what lies
between them, and tests/test_options.py fails when a file differs from what the declarations
make (`python tests/test_options.py` rewrites them all). The places:

- unonet/rules.py: the option types (`Literal` aliases) and the RuleSet's fields;
- SPEC.md 9.6: the table of options with their defaults, wire values and meaning;
- README.md: the table of options by what they concern.

RULEBOOK.md section 2 is unonet.rulebook's (generated from the same declarations).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from unonet.options import DECLARED, README_GROUPS, Option

__all__ = ["PLACES", "generated", "regenerate"]


def _wire(value: Any) -> str:
    """A value as SPEC.md writes it on the wire: JSON, nil for None."""
    return "nil" if value is None else json.dumps(value)


def option_types() -> str:
    """The Literal alias of every option whose values are words."""
    lines = []
    for option in DECLARED:
        if option.choices and option.type[0].isupper():
            values = ", ".join(json.dumps(c) for c in option.choices)
            lines.append(f"{option.type} = Literal[{values}]")
    return "\n".join(lines)


def ruleset_fields() -> str:
    """The RuleSet's fields, each with its default (the official rules)."""
    return "\n".join(f"    {o.name}: {o.type} = {_python(o.default)}" for o in DECLARED)


def _python(value: Any) -> str:
    """A default as the project's Python writes it (double quotes)."""
    return json.dumps(value) if isinstance(value, str) else repr(value)


def _values_cell(option: Option) -> str:
    if option.choices:
        ordered = [option.default, *(c for c in option.choices if c != option.default)]
        return ", ".join(f"`{_wire(c)}`" for c in ordered)
    cell = f"int {option.minimum}..{option.maximum}"
    if option.nullable:
        cell += " \\| nil"
    return cell + "".join(f" \\| `{_wire(v)}`" for v in option.also)


def spec_table() -> str:
    """SPEC.md 9.6: every option, its default, its values on the wire and what it means."""
    rows = ["| Option | Default | Values | Meaning |", "|---|---|---|---|"]
    for o in DECLARED:
        rows.append(f"| `{o.name}` | `{_wire(o.default)}` | {_values_cell(o)} | {o.spec} |")
    return "\n".join(rows)


def readme_table() -> str:
    """README.md: the options by what they concern, each with its note."""
    rows = ["| what | options |", "| --- | --- |"]
    for group in README_GROUPS:
        names = [f"`{o.name}`" + (f" ({o.readme})" if o.readme else "")
                 for o in DECLARED if o.group == group]
        rows.append(f"| {group} | {', '.join(names)} |")
    return "\n".join(rows)


PLACES: dict[str, tuple[str, str, str, Callable[[], str]]] = {
    "option types": ("unonet/rules.py", "# <generated: option types>", "# </generated>",
                     option_types),
    "rule set fields": ("unonet/rules.py", "    # <generated: rule set fields>",
                        "    # </generated>", ruleset_fields),
    "spec options": ("SPEC.md", "<!-- generated: options (python tests/test_options.py "
                     "rewrites it) -->", "<!-- end generated: options -->", spec_table),
    "readme options": ("README.md", "<!-- generated: options (python tests/test_options.py "
                       "rewrites it) -->", "<!-- end generated: options -->", readme_table),
}
"""Each generated text: (its file, the line that opens it, the line that closes it, its maker)."""


def generated(name: str) -> str:
    return PLACES[name][3]()


def regenerate(name: str, text: str) -> str:
    """`text` (the whole file) with the section `name` made anew; ValueError without markers."""
    _, opening, closing, make = PLACES[name]
    start = text.index(opening + "\n") + len(opening) + 1
    end = text.index(closing + "\n", start)
    return text[:start] + make() + "\n" + text[end:]
