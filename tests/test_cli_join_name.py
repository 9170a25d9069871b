"""`unonet join --name` with a name the host would refuse says so at once: before the first
connection, before any fingerprint question (seen in tmux: the reserved name `host` was
refused only after the player had answered the trust prompt)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from client.cli import run_join
from client.known_hosts import KnownHosts
from unonet.cli import build_parser


@pytest.mark.parametrize("name", ["host", "HOST", "h o s t", "   "])
def test_a_refused_name_is_said_before_any_question(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("UNONET_HOME", str(tmp_path))
    args = build_parser().parse_args(["join", "127.0.0.1:1", "--name", name])
    out, err = io.StringIO(), io.StringIO()
    code = run_join(args, environ={}, stdin=io.StringIO("y\n"), stdout=out, stderr=err,
                    known_hosts=KnownHosts(tmp_path / "known_hosts"))
    assert code == 2
    assert out.getvalue() == ""  # no fingerprint question was asked
    lines = err.getvalue().splitlines()
    assert len(lines) == 1 and lines[0].startswith("unonet: --name:")
