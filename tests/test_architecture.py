"""ARCHITECTURE.md and README.md held to the code: the phase diagram is what the transition
table and play make, every file they name exists, every link leads somewhere, and the README's
two commands are the ones CI and the install benchmark run.

Run `python tests/test_architecture.py` to rewrite ARCHITECTURE.md's phase diagram after
changing the transition table or what a handler leads to.
"""

from __future__ import annotations

import re
import sys
from functools import cache
from pathlib import Path

import pytest

from unonet import phase_diagram
from unonet.phase_diagram import Edges, explore, regenerate
from unonet.rules import RuleSet
from unonet.transitions import TRANSITIONS

ROOT = Path(__file__).resolve().parent.parent
ARCHITECTURE = ROOT / "ARCHITECTURE.md"
README = ROOT / "README.md"


@cache
def edges() -> Edges:
    return explore()


def test_the_phase_diagram_is_what_the_transition_table_and_play_make() -> None:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    assert regenerate(text, edges()) == text, (
        "ARCHITECTURE.md's phase diagram differs from unonet/transitions.py and what play "
        "shows: run python tests/test_architecture.py"
    )


def test_the_diagram_does_not_hang_on_the_seeds() -> None:
    """Other seeds find the same transitions: the diagram is the engine's, not the luck of one
    exploration."""
    assert explore(seed="another") == edges()


def test_every_entry_of_the_table_is_drawn() -> None:
    found = edges()
    for phase, kind in TRANSITIONS:
        assert found[phase.value, kind.__name__], (phase, kind)
    assert found[phase_diagram.DEAL, phase_diagram.DEAL]


def test_an_exploration_that_misses_a_transition_fails() -> None:
    """The official rules alone never stack a draw, so the table's `stack` rows go untaken."""
    with pytest.raises(ValueError, match=r"never took .*stack Play"):
        explore(rounds=5, rule_sets=[("official", RuleSet(), (2, 3, 4))])


def test_regenerate_refuses_a_document_without_markers() -> None:
    with pytest.raises(ValueError, match="markers"):
        regenerate("# no diagram here\n", edges())


def _named_paths(text: str) -> set[str]:
    """Backquoted names of this repository's files: a path from one of its top folders, or a
    file name (found in any folder)."""
    names = {n.rstrip("/") for n in re.findall(r"`([\w./-]+)`", text)}
    tops = {p.name for p in ROOT.iterdir() if p.is_dir()}
    return {n for n in names
            if re.fullmatch(r"[\w.-]+\.(py|md|json|toml)", n) or n.split("/")[0] in tops}


@pytest.mark.parametrize("doc", [ARCHITECTURE, README], ids=lambda p: p.name)
def test_every_file_a_document_names_exists(doc: Path) -> None:
    text = doc.read_text(encoding="utf-8")
    missing = sorted(n for n in _named_paths(text)
                     if not (ROOT / n).exists() and not any(_found(n)))
    assert not missing, f"{doc.name} names files that do not exist: {missing}"


def _found(name: str) -> list[Path]:
    return [p for p in ROOT.rglob(name) if ".venv" not in p.parts] if "/" not in name else []


@pytest.mark.parametrize("doc", [ARCHITECTURE, README], ids=lambda p: p.name)
def test_every_link_of_a_document_leads_somewhere(doc: Path) -> None:
    text = doc.read_text(encoding="utf-8")
    anchors = {_anchor(h) for h in re.findall(r"^#+ (.+)$", text, re.M)}
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if target.startswith(("http://", "https://")):
            continue
        path, _, anchor = target.partition("#")
        if path:
            assert (ROOT / path).exists(), f"{doc.name} links to {target}: no such file"
            if anchor and path.endswith(".md"):
                heads = re.findall(r"^#+ (.+)$", (ROOT / path).read_text("utf-8"), re.M)
                assert anchor in {_anchor(h) for h in heads}, f"{doc.name}: {target}"
        else:
            assert anchor in anchors, f"{doc.name} links to #{anchor}: no such heading"


def _anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    kept = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return kept.replace(" ", "-")


def _shell_blocks(text: str) -> list[str]:
    return re.findall(r"```sh\n(.*?)```", text, re.S)


def test_the_readme_starts_with_the_two_commands_ci_and_the_install_benchmark_run() -> None:
    blocks = _shell_blocks(README.read_text(encoding="utf-8"))
    play, tests = blocks[0].strip(), blocks[1].strip()
    assert play == "python3 -m venv .venv && .venv/bin/pip install . && .venv/bin/unonet play"
    assert tests == ("python3 -m venv .venv && .venv/bin/pip install -e '.[test]' && "
                     ".venv/bin/python -m pytest")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").replace("\\\n    ", "")
    assert tests in ci
    bench = (ROOT / "benchmarks" / "install.py").read_text(encoding="utf-8")
    assert f"(`{play}`)" in bench


if __name__ == "__main__":
    ARCHITECTURE.write_text(regenerate(ARCHITECTURE.read_text(encoding="utf-8")),
                            encoding="utf-8")
    print(f"rewrote the phase diagram of {ARCHITECTURE}")
    sys.exit(0)
