"""A changed host fingerprint, said once: what the warning says, in the player's words.

Three places tell it: the screen the moment the link finds it, the terminal before the screen
opens (a remembered host that shows a new key) or after it closes, and the log. What they say
comes from `warning_said`; each lays it out for its own width. The terminal's layout is here
too (`warning_text`), as is the first contact's fingerprint, so that a fingerprint is never
broken inside a group (a terminal split "CMG/L" at 60 columns).
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from typing import Literal

from client.i18n import Translator
from client.link import HostKeyWarning
from client.safe_text import shown
from protocol.fingerprint import short_pin
from unonet.words import Words

Kind = Literal["alert", "line", "fingerprint", "prompt", "command"]


@dataclass(frozen=True, slots=True)
class Said:
    """One part of the warning: `kind` says how it is shown (a fingerprint indented and kept
    in whole groups, a command indented to copy, the rest as sentences)."""

    kind: Kind
    text: str


def warning_said(tr: Words, key: HostKeyWarning) -> list[Said]:
    """What was expected and where that came from, what the host shows now, and what to do:
    the command that pins the new fingerprint, and for a remembered one the file to edit.
    Every text that came from outside (an address, a path) is escaped."""
    address = shown(key.address)
    # A pin the player typed and the host does not match is no change: this host may never
    # have been met before (found in tmux: a mistyped --fingerprint read "HAS CHANGED").
    mismatch = key.reason == "pinned"
    said = [Said("alert", tr("ui.key_mismatch" if mismatch else "ui.key_changed")),
            Said("line", tr(f"ui.key_{key.reason}", address=address)),
            Said("fingerprint", key.expected),
            Said("line", tr("ui.key_seen")),
            Said("fingerprint", key.seen),
            Said("prompt", tr("ui.key_mismatch_do" if mismatch else "ui.key_changed_do")),
            Said("command", f"unonet join {address} --pin {short_pin(key.seen)}")]
    if key.reason == "remembered" and key.known_hosts:
        said.append(Said("line", tr("ui.key_forget", address=address,
                                    path=shown(key.known_hosts))))
    return said


def warning_text(key: HostKeyWarning, width: int = 78, tr: Words | None = None,
                 lead: int = 0) -> str:
    """The warning for a terminal or a log; English unless `tr` says. Each sentence is
    wrapped at word boundaries within `width` columns, its first line leaving `lead` columns
    to what is printed before it ("unonet: "): a terminal left to wrap a long line cuts it
    inside a word (found in tmux at 60 columns: "scr" / "itta male"), and one wrapped here
    without the lead came out ragged at 80. Each fingerprint is in whole groups within
    `width`, and the command to copy whole on a line of its own (the terminal's, if it is
    wider: a copy across the terminal's own wrap still reads as one line)."""
    lines: list[str] = []
    for part in warning_said(tr or Translator("en"), key):
        if part.kind == "fingerprint":
            lines += fingerprint_lines(part.text, width)
        elif part.kind == "command":
            lines.append(f"  {part.text}")
        else:
            lines += sentence(part.text, width, lead if not lines else 0)
    return "\n".join(lines)


def sentence(text: str, width: int, lead: int = 0) -> list[str]:
    """`text` wrapped to the terminal, a path or an address never broken: they are read
    whole, and copied. `lead`: columns already taken on the first line."""
    lines = textwrap.wrap(text, width, initial_indent=" " * lead, break_long_words=False,
                          break_on_hyphens=False)
    return [lines[0][lead:], *lines[1:]] if lines else []


def fingerprint_lines(fingerprint: str, width: int) -> list[str]:
    """A grouped fingerprint indented by two, whole groups to a line, to compare and copy."""
    lines, line = [], ""
    for group in fingerprint.split("-"):
        if line and len(f"  {line}-{group}-") > width:
            lines.append(f"  {line}-")
            line = ""
        line = f"{line}-{group}" if line else group
    return [*lines, f"  {line}"]
