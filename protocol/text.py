"""Text that people type and every other member's terminal shows: names and chat lines.

A name or a chat line is relayed by the host to everyone at a table and drawn on their
screens, so it must not carry anything a terminal acts on (ESC sequences, BEL, NUL), anything
that reorders or hides what is drawn (U+202E and the other bidi controls, zero-width
characters), nor a line break that starts a fake line. This module says which characters are
refused (SPEC.md 5, [UNO-5-12]) and brings a name or a chat line to its one normal form before
the host stores or relays it. It is pure: no I/O, no state.

`normal_name` and `normal_chat` raise `TextRefused`; the host answers its `code` (with its
`msg`) to the sender. Clients still escape whatever they print (client/safe_text.py): a hostile
host is not bound by these rules.
"""

from __future__ import annotations

import unicodedata
from typing import Final

from protocol.errors import Code
from protocol.limits import MAX_CHAT_CHARS, MAX_NAME_CHARS

REFUSED_CATEGORIES: Final = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})
"""Unicode general categories no name or chat line may hold: controls (C0, DEL, C1: ESC,
BEL, NUL, CR, LF, TAB...), format characters (bidi embeddings and overrides U+202A-202E,
isolates U+2066-2069, zero-width space/joiners, soft hyphen, tags), private use, surrogates,
unassigned code points (their meaning, and width, may change), and the line and paragraph
separators. Newlines are refused, not turned into spaces: the reference client sends one line
at a time, and a refusal is plainer than a silently changed line."""

RESERVED_NAMES: Final = frozenset({"host"})
"""Skeletons (see `name_skeleton`) no member may take: the host speaks as `host` in its own
notices (chat_message.host), and a member called "HOST", "h o s t" or "host:" would read
like it."""

_CONFUSABLES: Final = str.maketrans({
    # Cyrillic and Greek letters drawn like the Latin letters of a reserved name, and the
    # digit drawn like an o: enough that no reserved name can be spelt with lookalikes.
    "\u04bb": "h", "\u043d": "h", "\u043e": "o", "\u03bf": "o", "\u03c3": "o", "0": "o",
    "\u0455": "s", "\u0442": "t", "\u03c4": "t",
})


class TextRefused(ValueError):
    """A name or chat line the host will not store or relay; `code` is the error code to
    answer (invalid_name for a name, bad_message for a chat line), `msg` says why in English.
    `reason` says it without words (`char`, `empty`, `long`, `reserved`; "" if unsaid) and
    `values` its parts (`char`: the character as `describe_char` shows it, `most`: the
    longest allowed), for a command to say it in its user's language."""

    def __init__(self, code: str, msg: str, reason: str = "", **values: object) -> None:
        super().__init__(msg)
        self.code = code
        self.msg = msg
        self.reason = reason
        self.values = values


def first_refused(text: str) -> str | None:
    """The first character of `text` in a refused category, or None if there is none.

    Cheap for ordinary text: str.isprintable() (in C) is true exactly when no character is
    of category Other or Separator except the ASCII space, a superset of what is refused, so
    only text with such a character (a non-ASCII space, say) is walked in Python."""
    if text.isprintable():
        return None
    for char in text:
        if unicodedata.category(char) in REFUSED_CATEGORIES:
            return char
    return None


def describe_char(char: str) -> str:
    """A character as a refusal message can show it: its code point and category, never
    the character itself (it may be one a terminal acts on)."""
    name = unicodedata.name(char, "")
    label = f" {name}" if name else ""
    return f"U+{ord(char):04X}{label} ({unicodedata.category(char)})"


def _is_space(char: str) -> bool:
    return unicodedata.category(char) == "Zs"


def _checked(text: str, what: str, code: str) -> str:
    """`text` in NFC, refused (TextRefused) if it holds a refused character."""
    normal = unicodedata.normalize("NFC", text)
    bad_char = first_refused(normal)
    if bad_char is not None:
        shown = describe_char(bad_char)
        raise TextRefused(code, f"{what} contains {shown}", "char", char=shown)
    return normal


def _strip_spaces(text: str) -> str:
    start, end = 0, len(text)
    while start < end and _is_space(text[start]):
        start += 1
    while end > start and _is_space(text[end - 1]):
        end -= 1
    return text[start:end]


def name_skeleton(name: str) -> str:
    """What a name reads as, for comparison with the reserved names: compatibility forms
    folded (fullwidth and mathematical letters), case folded, lookalike letters mapped, and
    everything but letters and digits dropped ("H o s t", "HOST", "host:" all read `host`)."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    folded = unicodedata.normalize("NFKC", folded).translate(_CONFUSABLES)
    return "".join(char for char in folded if char.isalnum())


def normal_name(text: str) -> str:
    """A player's or table's name in its normal form: NFC, every run of spaces (any Unicode
    space separator) one ASCII space, none at either end.

    Raises TextRefused(invalid_name) for a name that holds a refused character
    (REFUSED_CATEGORIES), is empty or longer than MAX_NAME_CHARS once normalised, or reads
    as a reserved name (RESERVED_NAMES, compared by `name_skeleton`)."""
    normal = _checked(text, "the name", Code.INVALID_NAME)
    words: list[str] = []
    current: list[str] = []
    for char in normal:
        if _is_space(char):
            if current:
                words.append("".join(current))
                current = []
        else:
            current.append(char)
    if current:
        words.append("".join(current))
    name = " ".join(words)
    if not name:
        raise TextRefused(Code.INVALID_NAME, "the name is empty", "empty")
    if len(name) > MAX_NAME_CHARS:
        raise TextRefused(Code.INVALID_NAME,
                          f"the name is longer than {MAX_NAME_CHARS} characters", "long",
                          most=MAX_NAME_CHARS)
    if name_skeleton(name) in RESERVED_NAMES:
        raise TextRefused(Code.INVALID_NAME, "that name is reserved for the host's notices",
                          "reserved")
    return name


def normal_chat(text: str) -> str:
    """A chat line in its normal form: NFC, no spaces at either end (spaces inside are kept
    as typed).

    Raises TextRefused(bad_message) for a line that holds a refused character (a newline
    included: see REFUSED_CATEGORIES), or is empty or longer than MAX_CHAT_CHARS once
    normalised."""
    line = _strip_spaces(_checked(text, "the chat line", Code.BAD_MESSAGE))
    if not line:
        raise TextRefused(Code.BAD_MESSAGE, "the chat line is empty", "empty")
    if len(line) > MAX_CHAT_CHARS:
        raise TextRefused(Code.BAD_MESSAGE,
                          f"the chat line is longer than {MAX_CHAT_CHARS} characters")
    return line
