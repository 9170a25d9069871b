"""Write the rule vectors' cards as ids: an authoring aid for protocol/vectors/rules_*.json.

A vector is written with card names where ids go ("red 5", "red 5#2" for the second red 5 of
the deck, "wild_draw_four"; in a UNO Flip deal "red 5 / orange 3" also fixes its dark face).
This rewrites every name as the card's id in SPEC.md section 10's manifest order and records
it in the vector's `cards` legend, so the file holds the wire form and still reads as cards.
Files already written in ids come out unchanged. Run: .venv/bin/python
protocol/vectors/name_cards.py [FILE ...] (default: every rules_*.json beside it).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

from unonet.cards import DeckManifest, Face
from unonet.rules import RuleSet, preset

HERE = Path(__file__).resolve().parent

CARD_FIELDS = ("card", "cards", "top", "hand", "top_card", "drawn_card", "also", "hands")
"""Event, action and view fields that hold card ids (or lists, or lists of lists of them)."""
DEAL_FIELDS = ("hands", "turned", "draws", "deck", "bottom")


def face_name(face: Face) -> str:
    body = str(face.number) if face.number is not None else face.kind.value
    return f"{face.color.value} {body}" if face.color is not None else body


class Namer:
    """Names to ids for one vector's deck, and the legend of the ids used."""

    def __init__(self, manifest: DeckManifest, legend: dict[str, str]) -> None:
        self.ids: dict[str, list[int]] = {}
        for card in manifest:
            self.ids.setdefault(face_name(card.faces[0]), []).append(card.id)
        self.light = {card.id: face_name(card.faces[0]) for card in manifest}
        self.legend = legend

    def card(self, value: Any, dealt: bool = False) -> Any:
        if isinstance(value, int) and value in self.light:
            self.legend.setdefault(str(value), self.light[value])
        if not isinstance(value, str):
            return value
        name, _, dark = value.partition(" / ")
        match = re.fullmatch(r"(.+?)(?:#(\d+))?", name)
        assert match is not None
        base, nth = match.group(1), int(match.group(2) or 1)
        ids = self.ids.get(base)
        if ids is None or nth > len(ids):
            raise SystemExit(f"no card {value!r} in this deck")
        card = ids[nth - 1]
        if dark and not dealt:
            raise SystemExit(f"{value!r}: a dark face is fixed in the deal only")
        if dark:
            self.legend[str(card)] = f"{base} / {dark}"
        else:
            self.legend.setdefault(str(card), base)
        return card

    def cards(self, value: Any, dealt: bool = False) -> Any:
        if isinstance(value, list):
            return [self.cards(item, dealt) for item in value]
        return self.card(value, dealt)


def _rules(vector: dict[str, Any]) -> RuleSet:
    return preset(vector.get("preset", "official"), **vector.get("options", {}))


def convert(vector: dict[str, Any]) -> dict[str, Any]:
    if "refused" in vector:
        return vector
    legend: dict[str, str] = dict(vector.get("cards", {}))
    namer = Namer(_rules(vector).manifest(), legend)
    for deal in vector.get("deals", []):
        for key in DEAL_FIELDS:
            if key in deal:
                deal[key] = namer.cards(deal[key], dealt=True)

    def walk(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: namer.cards(v) if _holds_cards(k, v) else walk(v) for k, v in value.items()}
        if isinstance(value, list):
            return [walk(item) for item in value]
        return value

    vector["steps"] = [walk(step) for step in vector["steps"]]
    used = _ids([vector.get("deals", []), vector["steps"]])
    vector["cards"] = {k: legend[k] for k in sorted(legend, key=int) if int(k) in used}
    return vector


def _holds_cards(key: str, value: Any) -> bool:
    """A card field; `cards` is also a count (a seat's view, `knocked_out`): a list only."""
    return key in CARD_FIELDS and (key != "cards" or isinstance(value, list))


def _ids(value: Any, field: str | None = None) -> set[int]:
    """Every card id in the deals and in the card fields of the steps (a legend lists no
    other)."""
    if isinstance(value, dict):
        return set().union(*(_ids(v, k if _holds_cards(k, v) or k in DEAL_FIELDS else None)
                             for k, v in value.items()))
    if isinstance(value, list):
        return set().union(*(_ids(item, field) for item in value))
    return {value} if field is not None and isinstance(value, int) else set()


def dump(data: dict[str, Any]) -> str:
    """One vector key a line, one deal or step a line: diffs stay readable."""
    lines = ["{", f' "description": {json.dumps(data["description"], ensure_ascii=False)},',
             ' "vectors": [']
    for i, vector in enumerate(data["vectors"]):
        lines.append("  {")
        keys = list(vector)
        for j, key in enumerate(keys):
            end = "," if j < len(keys) - 1 else ""
            value = vector[key]
            if key in ("deals", "steps"):
                lines.append(f"   {json.dumps(key)}: [")
                for k, item in enumerate(value):
                    sep = "," if k < len(value) - 1 else ""
                    lines.append(f"    {json.dumps(item, ensure_ascii=False)}{sep}")
                lines.append(f"   ]{end}")
            else:
                lines.append(f"   {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}{end}")
        lines.append("  }" + ("," if i < len(data["vectors"]) - 1 else ""))
    lines += [" ]", "}", ""]
    return "\n".join(lines)


def main(paths: list[str]) -> None:
    files = [Path(p) for p in paths] or sorted(HERE.glob("rules_*.json"))
    for path in files:
        data = json.loads(path.read_text("utf-8"))
        data["vectors"] = [convert(v) for v in data["vectors"]]
        path.write_text(dump(data), "utf-8")


if __name__ == "__main__":
    main(sys.argv[1:])
