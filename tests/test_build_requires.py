"""`pip install .` compiles with mypyc in an isolated build environment that holds only the
build requirements (pyproject.toml [build-system]): mypyc type-checks every compiled module
there, and a third-party import it cannot resolve fails the whole build, which then installs
pure Python with a warning `pip install` hides. The host's trust code imports cryptography,
and a build without it in the requirements came out pure: the README's first command did not
give what it promised. Here, every third-party module a compiled module imports must be a
build requirement or one mypy is told to ignore (`ignore_missing_imports`).
"""

from __future__ import annotations

import ast
import sys
import tomllib
from pathlib import Path

from packaging.requirements import Requirement

from unonet.compiled import COMPILED_MODULES

REPO = Path(__file__).resolve().parents[1]
OURS = {"unonet", "protocol", "host", "client"}


def third_party_imports(module: str) -> set[str]:
    """The top-level names of what `module` imports from outside the project and stdlib."""
    tree = ast.parse((REPO / (module.replace(".", "/") + ".py")).read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.partition(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.partition(".")[0])
    return {name for name in found
            if name not in OURS and name not in sys.stdlib_module_names and name != "__future__"}


def test_what_mypyc_type_checks_against_is_in_the_build_environment() -> None:
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    required = {Requirement(text).name.lower() for text in config["build-system"]["requires"]}
    ignored = {pattern.removesuffix(".*")
               for override in config["tool"]["mypy"].get("overrides", [])
               if override.get("ignore_missing_imports")
               for pattern in override["module"]}
    missing = {
        module: sorted(names - required - ignored)
        for module in COMPILED_MODULES
        if (names := third_party_imports(module)) - required - ignored
    }
    assert missing == {}, f"add to [build-system] requires (or let mypy ignore): {missing}"


def test_the_check_sees_the_imports_it_judges() -> None:
    """The check above is not vacuous: the trust code's import of cryptography is seen."""
    assert "cryptography" in third_party_imports("protocol.trust.signing")
