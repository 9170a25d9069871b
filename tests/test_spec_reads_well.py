"""SPEC.md is written for a stranger who implements a client in an afternoon: a quick start
whose bytes are the vectors' own, requirements labelled in order within each section, one
threat model, no pointer into this repository's code, and no sentence over 60 words."""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPEC = (ROOT / "SPEC.md").read_text("utf-8")
FRAMES = {
    vector["name"]: vector["hex"]
    for vector in json.loads((ROOT / "protocol" / "vectors" / "frames.json").read_text("utf-8"))[
        "vectors"
    ]
}


def quick_start() -> str:
    match = re.search(r"^### 1\.1 Quick start.*?(?=^##)", SPEC, re.S | re.M)
    assert match, "SPEC.md has no quick start (1.1)"
    return match.group(0)


def code_blocks(text: str) -> list[str]:
    return re.findall(r"^```\n(.*?)^```", text, re.S | re.M)


def hex_of(block: str) -> list[str]:
    """The bytes of an annotated dump: on each line, the hex pairs before the first gap of two
    spaces (a line of bytes alone is all bytes)."""
    lines = []
    for line in block.splitlines():
        dump = line.split("  ")[0].strip()
        assert re.fullmatch(r"[0-9a-f]{2}( [0-9a-f]{2})*", dump), line
        lines.append(dump.replace(" ", ""))
    return lines


def test_the_quick_start_dumps_are_the_vectors_bytes() -> None:
    hello, event, exchange = code_blocks(quick_start())
    assert "".join(hex_of(hello)) == FRAMES["hello"]
    assert "".join(hex_of(event)) == FRAMES["event_turn_started"]
    assert hex_of(exchange) == [FRAMES["intent"], FRAMES["accepted"]]


def test_the_quick_start_names_the_messages_of_a_round_in_order() -> None:
    text = quick_start()
    order = ["hello", "welcome", "join_table", "seated", "ready", "start", "manifest",
             "snapshot", "round_prepare", "seed_commit", "seed_reveal", "deck_commits",
             "cards_received", "intent{", "accepted{", "round_ended", "round_audit"]
    places = [text.index(f"`{name}") for name in order]
    assert places == sorted(places)


def prose() -> str:
    """SPEC.md without its HTML comments (markers of generated tables, for our tools only)."""
    return re.sub(r"<!--.*?-->", "", SPEC, flags=re.S)


def test_spec_points_into_no_file_of_our_code() -> None:
    """A client author never reads our code: SPEC.md says the thing itself, or names a vector
    file, which is data."""
    assert re.findall(r"[\w/.]+\.py\b", prose()) == []


def test_there_is_one_threat_model_and_the_trust_section_points_to_it() -> None:
    headings = re.findall(r"^#+ .*threat model.*$", SPEC, re.M | re.I)
    assert headings == ["## 2. Threat model"]
    trust = SPEC[SPEC.index("### 11.8 "):SPEC.index("### 11.9 ")]
    assert "The threat model is section 2." in trust


LONGEST_SENTENCE = 60
"""Words: a sentence longer than this is two sentences (issue 47 measured one of 120)."""


def blocks(text: str) -> list[str]:
    """The text's paragraphs, list items and table cells, each as one line; code blocks and
    headings left out."""
    out: list[str] = []
    current: list[str] = []
    fence = False

    def close() -> None:
        if current:
            out.append(" ".join(current))
            current.clear()

    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("```"):
            fence = not fence
            close()
            continue
        if fence:
            continue
        if stripped.startswith("|"):
            close()
            if not re.fullmatch(r"\|[-| ]+\|", stripped):
                out += [cell.strip() for cell in re.split(r"(?<!\\)\|", stripped)[1:-1]]
            continue
        item = re.match(r"([-*]|\d+\.) (.*)", stripped)
        if not stripped or stripped.startswith("#") or item:
            close()
            if item:
                current.append(item.group(2))
            continue
        current.append(stripped)
    close()
    return out


def sentences(block: str) -> list[str]:
    """A block cut after each `.`, `!` or `?` that a space and a capital, a bracket, a quote,
    an emphasis or a code span follow; dots inside code spans and in "e.g." do not end one."""
    guarded = re.sub(r"`[^`]*`", lambda m: m.group(0).replace(".", "\0"), block)
    guarded = re.sub(r"\b(e\.g|i\.e|etc|vs)\.", r"\1", guarded)
    parts = re.split(r"(?<=[.!?])\s+(?=[A-Z\[(\"*`])", guarded)
    return [part.replace("\0", ".") for part in parts if part.strip()]


def test_the_sentence_splitter_cuts_where_a_reader_stops() -> None:
    assert sentences("One `a.b` here. Two [UNO-1-1] there, e.g. this. `three` too") == [
        "One `a.b` here.", "Two [UNO-1-1] there, e.g this.", "`three` too"]
    assert blocks("- an item\n  going on\n\n| a | b |\n|---|---|\n| c. D | e |") == [
        "an item going on", "a", "b", "c. D", "e"]


def test_no_sentence_is_over_60_words() -> None:
    long = [
        f"{len(sentence.split())} words: {sentence[:120]}"
        for block in blocks(prose())
        for sentence in sentences(block)
        if len(sentence.split()) > LONGEST_SENTENCE
    ]
    assert long == []


def test_labels_run_in_order_within_each_section() -> None:
    """A reader meets [UNO-6-8], then 6-9, 6-10: one requirement, one label, numbered in the
    order they are read (from 0 where a section opens with its general rule, else from 1)."""
    by_section: dict[int, list[int]] = {}
    section = 0
    for line in SPEC.splitlines():
        heading = re.match(r"## (\d+)\.", line)
        if heading:
            section = int(heading.group(1))
        for _, number in re.findall(r"(?<!, )\[UNO-(\d+)-(\d+)\]", line):
            by_section.setdefault(section, []).append(int(number))
    for section, numbers in by_section.items():
        first = numbers[0]
        assert first in (0, 1) and numbers == list(range(first, first + len(numbers))), section


# -- `python tests/test_spec_reads_well.py` renumbers the labels -----------------------------------


def label_order() -> dict[str, str]:
    """Old label -> new label ("UNO-6-13" -> "UNO-6-9"), numbering each section's labels in
    the order they are read, from 0 where the section opens with 0, else from 1."""
    found: dict[int, list[int]] = {}
    section = 0
    for line in SPEC.splitlines():
        heading = re.match(r"## (\d+)\.", line)
        if heading:
            section = int(heading.group(1))
        for _, number in re.findall(r"(?<!, )\[UNO-(\d+)-(\d+)\]", line):
            found.setdefault(section, []).append(int(number))
    mapping = {}
    for section, numbers in found.items():
        first = 0 if 0 in numbers else 1
        for rank, old in enumerate(numbers):
            mapping[f"UNO-{section}-{old}"] = f"UNO-{section}-{first + rank}"
    return mapping


def renumber() -> None:
    """Renumber the labels in SPEC.md and every reference to them in the files git knows, in
    one pass (a merge that brought labels out of order runs this, then the tests)."""
    import subprocess

    mapping = label_order()
    names = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                           check=True).stdout.split()
    changed = 0
    for name in names:
        path = ROOT / name
        if path.suffix not in {".md", ".py", ".json"} or not path.is_file():
            continue
        text = path.read_text("utf-8")
        new = re.sub(r"\bUNO-\d+-\d+\b", lambda m: mapping.get(m.group(0), m.group(0)), text)
        if new != text:
            path.write_text(new, "utf-8")
            changed += 1
    moved = sum(1 for old, new in mapping.items() if old != new)
    print(f"{moved} labels renumbered, {changed} files rewritten")


if __name__ == "__main__":
    renumber()
