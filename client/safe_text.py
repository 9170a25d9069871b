"""The one gate between text from the wire and the terminal: `shown`.

Names, table names, chat, error messages, bye reasons, rule values and anything else a host
(or, through it, another member) sent is drawn on this terminal. A host is bound by SPEC.md
[UNO-5-12] to relay no control or format character, but a hostile or broken host is bound by
nothing, so the client never trusts it: every such string passes through `shown` before it is
drawn (render.to_text does it for every fragment of the screen; cli.py for what it prints).
`shown` replaces each character of a refused category (protocol/text.py: ESC, BEL, NUL, C1
controls, U+202E and the other bidi controls, zero-width characters, line separators...) by a
visible escape such as `\\x1b` or `\\u202e`, so the terminal prints it instead of acting on it.

The chat's own rule (who said a line) lives in render.chat_lines: each line starts with a mark
the client writes (the seat, `~` for a spectator, `»` for the host's notices, `·` for this
client's own), so no member's text can begin a line like the host's.
"""

from __future__ import annotations

import unicodedata

from protocol.limits import MAX_CHAT_CHARS, MAX_NAME_CHARS
from protocol.text import REFUSED_CATEGORIES, TextRefused, normal_chat, normal_name


def escape_char(char: str) -> str:
    """A visible stand-in for one character: `\\x1b`, `\\u202e`, `\\U000e0041`."""
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def shown(text: str, *, keep_newlines: bool = False) -> str:
    """`text` safe to draw: every character of a refused category escaped (see module doc).

    `keep_newlines` keeps LF for text this client lays out in lines itself (a multi-line
    warning printed to stderr); a screen fragment never keeps one. Escaping is idempotent:
    what `shown` returns holds no refused character, so a second pass changes nothing."""
    if text.isprintable():  # in C; true for nearly every string, see protocol.text
        return text
    out: list[str] = []
    for char in text:
        if char == "\n" and keep_newlines:
            out.append(char)
        elif unicodedata.category(char) in REFUSED_CATEGORIES:
            out.append(escape_char(char))
        else:
            out.append(char)
    return "".join(out)


def typed(text: str) -> str:
    """What the player typed or pasted, without the characters the host refuses ([UNO-5-12]):
    a stray ESC or zero-width space from a paste is dropped, not sent to be refused."""
    if text.isprintable():
        return text
    return "".join(c for c in text if unicodedata.category(c) not in REFUSED_CATEGORIES)


def own_name(text: str) -> str:
    """Our own name as the host will store it (protocol.text.normal_name), cut to the
    protocol's length. Raises TextRefused for an empty or reserved name (`host`): the
    player hears why at once rather than from the host's invalid_name."""
    return normal_name(" ".join(typed(text).split())[:MAX_NAME_CHARS])


def own_chat(text: str) -> str | None:
    """Our own chat line as the host will relay it (protocol.text.normal_chat), cut to the
    protocol's length; None if nothing is left to send."""
    try:
        return normal_chat(typed(text)[:MAX_CHAT_CHARS])
    except TextRefused:
        return None
