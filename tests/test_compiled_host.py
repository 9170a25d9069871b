"""The mypyc-compiled host path (unonet/compiled.py HOST_MODULES) behaves like its pure source.

`pip install .` compiles the host's sans-IO modules with the engine. mypyc checks argument
types at run time, where pure Python does not, and refuses some things pure Python allows;
these tests hold the shipped build to the source:

- the session's mypyc build (tests/compiled_build.py, shared with test_compiled_engine.py) and
  the same snapshot uncompiled each run tests/compiled_host_child.py: matches played through
  HostConnection and the Registry by scripted clients (seeding, legal and illegal intents,
  chat, resync, a drop and a resume; four presets), then every client message with each field
  of the wrong type, missing or extra, and raw garbage. The two transcripts (every frame each
  client got, every refusal and fatal error) must match line for line, with no exception
  escaping the host's layers and no table failing, in either;
- without a build: no class outside the compiled modules inherits from one inside them
  (mypyc's classes refuse interpreted subclasses at import), and the compiled modules do no
  I/O and await nothing.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from pathlib import Path
from typing import NamedTuple

import pytest
from compiled_build import SourceBuild, read_child, run_child

REPO = Path(__file__).resolve().parents[1]
CHILD = Path(__file__).with_name("compiled_host_child.py")
PACKAGES = ("unonet", "protocol", "host", "client")
FORBIDDEN_IMPORTS = ("trio", "socket", "asyncio", "ssl", "os", "subprocess", "select")
"""What a compiled module may not import: the host's action path is sans-IO (DESIGN.md); a
path as a value (host/table.py's journal folder) is no I/O, so pathlib may be imported."""


# -- without a build -----------------------------------------------------------------------------


def test_no_interpreted_class_inherits_a_compiled_one() -> None:
    """mypyc's native classes raise `TypeError: interpreted classes cannot inherit from
    compiled` when a pure module subclasses one: the installed build would not import."""
    from unonet.compiled import COMPILED_MODULES

    compiled = set(COMPILED_MODULES)
    offenders = []
    for package in PACKAGES:
        path = importlib.import_module(package).__path__
        for info in pkgutil.walk_packages(path, package + "."):
            if info.name in compiled or info.name.endswith("__main__"):
                continue
            module = importlib.import_module(info.name)
            for name, value in vars(module).items():
                if inspect.isclass(value) and value.__module__ == info.name:
                    offenders += [f"{info.name}.{name} <- {base.__module__}.{base.__name__}"
                                  for base in value.__mro__[1:] if base.__module__ in compiled]
    assert not offenders, f"compile these too, or change the classes: {offenders}"


@pytest.mark.parametrize("module", __import__("unonet.compiled").compiled.HOST_MODULES)
def test_compiled_host_modules_do_no_io(module: str) -> None:
    source = (REPO / (module.replace(".", "/") + ".py")).read_text(encoding="utf-8")
    tree = ast.parse(source)
    imported = {alias.name.split(".")[0] for node in ast.walk(tree)
                if isinstance(node, ast.Import) for alias in node.names}
    imported |= {(node.module or "").split(".")[0] for node in ast.walk(tree)
                 if isinstance(node, ast.ImportFrom)}
    assert not imported & set(FORBIDDEN_IMPORTS)
    assert not any(isinstance(node, ast.AsyncFunctionDef) for node in ast.walk(tree))


# -- the build against the source ---------------------------------------------------------------


class Transcripts(NamedTuple):
    base: Path
    pure: list[str]
    compiled: list[str]


@pytest.fixture(scope="module")
def transcripts(compiled_source: SourceBuild) -> Transcripts:
    build = compiled_source
    pure_out, compiled_out = build.base / "host-pure.txt", build.base / "host-compiled.txt"
    pure_child = run_child(CHILD, build.pure, pure_out)
    try:
        compiled_lines = read_child(run_child(CHILD, build.compiled, compiled_out), compiled_out)
    finally:
        pure_lines = read_child(pure_child, pure_out)
    return Transcripts(build.base, pure_lines, compiled_lines)


def test_each_child_ran_the_host_it_was_given(transcripts: Transcripts) -> None:
    base = transcripts.base
    assert transcripts.pure[:2] == [f"host from {base / 'pure' / 'host'}",
                                    "compiled engine False host False"]
    assert transcripts.compiled[:2] == [f"host from {base / 'compiled' / 'host'}",
                                        "compiled engine True host True"]


def test_compiled_host_answers_like_the_pure_one(transcripts: Transcripts) -> None:
    pure, compiled = transcripts.pure[2:], transcripts.compiled[2:]
    for number, (want, got) in enumerate(zip(pure, compiled, strict=False)):
        if want != got:
            part = next(line for line in reversed(pure[: number + 1]) if line.startswith("=="))
            context = "\n".join(line[:300] for line in pure[max(0, number - 4) : number])
            pytest.fail(f"line {number} differs ({part}); before it:\n{context}\n"
                        f"pure:     {want[:600]}\ncompiled: {got[:600]}")
    assert len(compiled) == len(pure)


@pytest.mark.parametrize("side", ["pure", "compiled"])
def test_no_exception_escapes_and_no_table_fails(transcripts: Transcripts, side: str) -> None:
    lines = getattr(transcripts, side)
    bad = [line[:300] for line in lines
           if line.startswith(("RAISED", "LOG ", "STUCK", "NO END", "NOT SENT"))
           or "table_failed" in line or "client session raised" in line
           or "<BAD SIG>" in line]
    assert not bad


def test_the_transcript_exercises_what_it_should(transcripts: Transcripts) -> None:
    text = "\n".join(transcripts.pure)
    assert text.count("'type': 'match_ended'") >= 4  # every match ends, seen by each player
    assert text.count("== match ") == 4
    for needed in ("'t': 'seed_reveals'", "'t': 'deck_commits'", "'t': 'round_audit'",
                   "<sig ok>", "'session': {'table'", "'t': 'round_history'",
                   "-> intent", "'code': 'not_your_turn'", "'t': 'chat_message'",
                   "'t': 'snapshot'", "fatal bad_frame", "'code': 'bad_message'",
                   "fatal duplicate_key", "refused intent", "'variant': 'flip'",
                   "'variant': 'no_mercy'"):
        assert needed in text, f"no {needed} in the transcript: the script no longer reaches it"
