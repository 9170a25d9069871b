"""Lines laid out for a terminal of a given width, so that the terminal never wraps them itself:
it cuts inside a word (found in tmux: 'tabl' / 'e 2' at 80 columns, 'scr' / 'itta' at 60) and
inside a fingerprint, which is then copied in pieces. A sentence is wrapped at its words; a
command to copy is whole on a line of its own; a fingerprint is in whole groups. Text only:
the client's warnings and the host's terminal both use it."""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence

KEPT = "\u00a0"
"""Joins the words of what must not be broken across lines while a sentence is wrapped
(textwrap breaks only at ASCII whitespace), a space again once it is."""


MIN_WIDTH = 40
"""The narrowest lay-out: a terminal narrower still wraps our lines itself."""


def usable_width(columns: int) -> int:
    """The columns a line may take on a terminal `columns` wide without the terminal wrapping
    it: one less (a line of exactly its width wraps on some), never under MIN_WIDTH."""
    return max(MIN_WIDTH, columns - 1)


def sentence(text: str, width: int, lead: int = 0, whole: Sequence[str] = ()) -> list[str]:
    """`text` wrapped at its words within `width` columns, a path or an address never broken
    (they are read whole, and copied), nor any of `whole` (a table's quoted name). `lead`:
    columns already taken on the first line."""
    for words in whole:
        text = text.replace(words, words.replace(" ", KEPT))
    lines = textwrap.wrap(text, width, initial_indent=" " * lead, break_long_words=False,
                          break_on_hyphens=False)
    lines = [line.replace(KEPT, " ") for line in lines]
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


GROUPS = re.compile(r"'[^']*'|\([^()]*\)")
"""A name as a line quotes it (a table's), and a remark in brackets: kept whole on a line when
they are short (`laid_out`)."""


def laid_out(line: str, width: int | None, commands: Sequence[str] = (),
             fingerprint: str | None = None, whole: Sequence[str] = ()) -> list[str]:
    """`line` as a terminal `width` columns wide shows it (None: as it is, for a pipe or a
    file, whose reader lays it out): as it is where it fits; else wrapped at words, each of
    `commands` whole on a line of its own, to copy (indented by two where that fits: the
    line to share is 59 columns at most, for a terminal of 60), `fingerprint` in whole
    groups on lines of its own, and neither `whole` (a table's entry) nor a short quoted name
    or remark in brackets broken."""
    if width is None or len(line) <= width or line.strip() in commands:
        return [line] if line else []  # a command alone, however long: as it is
    for kept in (*commands, fingerprint):
        if not kept or kept not in line:
            continue
        before, _, after = line.partition(kept)
        middle = (fingerprint_lines(kept, width) if kept == fingerprint
                  else [f"  {kept}" if len(kept) + 2 <= width else kept])
        return [*laid_out(before.strip(), width, whole=whole), *middle,
                *laid_out(after.strip(), width, commands, fingerprint, whole)]
    short = [group for group in GROUPS.findall(line) if len(group) <= width // 2]
    return sentence(line, width, whole=[*whole, *short])
