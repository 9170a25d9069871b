"""The screen as prompt-toolkit formatted text, drawn from the model alone (pure functions).

`compose(model, width, height, plain)` returns exactly `height` lines, none wider than `width`:
the whole screen but the chat input line. The game screen at 80x24 shows, top to bottom: a
title bar (round, table, trust, connection), every player (cards, UNO, score, connection),
the top card with the colour in play, the draw pile, the direction and who plays next, what
is awaited, your hand, the log beside the chat, and the keys that work there (`?` lists them
all). `plain` (NO_COLOR, or a terminal without colour) draws cards as codes, `[R5]`, with `*`
for playable and `>` for selected (`>*` both), and no colour at all. Below MIN_WIDTH x
MIN_HEIGHT the screen asks for a larger terminal instead of hiding parts of the table.

UNO Flip adds: the side in play in the title bar (the dark side in its own colours), every card
read on that side (the dark side's orange, purple, pink and cyan: letters O P K C in plain
codes), beside each player the row of their cards' other side that everybody sees, beside the
draw pile its top card's other side, and a notice when the table turns over.

UNO Show 'Em No Mercy adds: its faces as codes that fit a chip (DA Discard All, SE Skip
Everyone, +4, WR+4, W+6, W+10, WCR Color Roulette: the hand's chips widen by one column when a
four-letter one is held), what may answer a pending draw (the faces the legal list offers), the
roulette's colour question and the cards it turned (a notice), knocked-out players with their
points, and the Mercy rule's danger before it strikes: a count within 5 of the hand limit is red
with a `!` (plain: the `!` alone) and our hand's title says how many cards are left to the limit.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import cast

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.mouse_events import MouseEvent, MouseEventType
from prompt_toolkit.styles import Style
from prompt_toolkit.utils import get_cwidth

from client.host_key import Said, fingerprint_lines, warning_said
from client.i18n import Translator, preset_meaning
from client.link import HostKeyWarning
from client.lobby import HINT_PENALTY, SeatInfo
from client.model import (
    BuzzPrompt,
    ChallengePrompt,
    ChatLine,
    ClientModel,
    ColorPrompt,
    DrawnCardPrompt,
    QuitPrompt,
    RoundResult,
    Screen,
    SeatPrompt,
    StackPrompt,
    TargetPrompt,
    shown_order,
)
from client.model_state import TIMER_BELL_AT
from client.rule_editor import editor_options
from client.rule_words import differences, rule_changes
from client.safe_text import shown
from unonet.actions import Accept, Draw, Pass
from unonet.cards import Color, Face, Kind
from unonet.phase import Phase
from unonet.rulebook import option_meaning, option_title, value_words
from unonet.rules import PRESETS, RuleSet
from unonet.rules import preset as preset_rules
from unonet.words import Words

Fragment = tuple[str, str] | tuple[str, str, Callable[[MouseEvent], object]]
Line = list[Fragment]
CardClick = Callable[[int], None]

COLOR_KEYS: dict[Color, str] = {
    Color.RED: "r", Color.YELLOW: "y", Color.GREEN: "g", Color.BLUE: "b",
    Color.ORANGE: "o", Color.PURPLE: "p", Color.PINK: "k", Color.CYAN: "c",
}
"""Keys of the colour picker (also 1-4 by position) and letters of the plain card codes."""

LANGUAGE_COLOR_KEYS: dict[str, dict[Color, str]] = {
    "it": {Color.YELLOW: "g", Color.GREEN: "v"},  # rosso, giallo, verde, blu
}
"""The colour picker's keys where the language's initials differ from English and do not
clash (Portuguese vermelho/verde and azul/amarelo do: it keeps r y g b, and its help says so)."""

MIN_WIDTH, MIN_HEIGHT = 60, 17
"""The smallest screen (lines above the chat input) that shows a table of ten without hiding
a card, a name or a key: below it the screen asks for a larger terminal instead."""


def color_keys(lang: str) -> dict[Color, str]:
    """The colour picker's letter for each colour in `lang` (digits, by position, in all)."""
    return {**COLOR_KEYS, **LANGUAGE_COLOR_KEYS.get(lang, {})}


TEAM_NAMES = "ABC"
"""teams=pairs: team 0 is A, team 1 is B, and at six seats team 2 is C (partners sit
opposite: seat s and s + seats/2)."""


def team_name(team: int) -> str:
    """A team's letter; a number past them (a host's invention), as a number."""
    return TEAM_NAMES[team] if 0 <= team < len(TEAM_NAMES) else str(team)

STYLE = Style.from_dict({
    "title": "bg:#303030 #ffffff bold",
    "title.alert": "bg:#b00020 #ffffff bold",
    "title.light": "bg:#fff8e1 #000000 bold",
    "title.dark": "bg:#4a148c #ffffff bold",
    "card.red": "bg:#d32f2f #ffffff bold",
    "card.yellow": "bg:#fbc02d #000000 bold",
    "card.green": "bg:#388e3c #ffffff bold",
    "card.blue": "bg:#1565c0 #ffffff bold",
    "card.orange": "bg:#ef6c00 #000000 bold",
    "card.purple": "bg:#6a1b9a #ffffff bold",
    "card.pink": "bg:#ec407a #000000 bold",
    "card.cyan": "bg:#00acc1 #000000 bold",
    "card.wild": "bg:#000000 #ffffff bold",
    "card.off": "bg:#3a3a3a #9e9e9e",
    "card.selected": "reverse underline",
    "fg.red": "#ff5252", "fg.yellow": "#ffd740", "fg.green": "#69f0ae", "fg.blue": "#448aff",
    "fg.orange": "#ffab40", "fg.purple": "#b388ff", "fg.pink": "#ff80ab", "fg.cyan": "#84ffff",
    "turn": "bold #ffffff bg:#005f87",
    "me": "bold",
    "uno": "bold #ffd740",
    "catchable": "bold #ff5252",
    "offline": "#ff5252",
    "dim": "#808080",
    "prompt": "bold #ffd740",
    "notice": "#ff8a65",
    "heading": "bold underline",
    "ok": "#69f0ae",
    "alert": "bold #ffffff bg:#b00020",
    "keybar": "bg:#303030 #d0d0d0",
    "chat.name": "bold #84ffff",
    "chat.mark": "#9e9e9e",
    "chat.host": "bold #ffd54f",
    "chat.local": "italic #9e9e9e",
    "cursor": "reverse",
})


def card_code(face: Face, letters: Mapping[Color, str] = COLOR_KEYS) -> str:
    """The plain code of a card: R5, YS, G+2, BR, W, W+4 (colour letter, then the face); the
    letters are the colour picker's, so in Italian G5 is giallo 5 and V5 verde 5."""
    body = face.code[1:] if face.color is not None else face.code
    return (letters[face.color].upper() + body) if face.color is not None else body


def card_label(face: Face) -> str:
    """What a coloured chip shows: the number or symbol; the colour is the chip's own."""
    return face.code[1:] if face.color is not None else face.code


# -- line helpers -------------------------------------------------------------------------------


def width_of(line: Iterable[Fragment]) -> int:
    return sum(get_cwidth(f[1]) for f in line)


def within(text: str, width: int) -> str:
    """The longest start of `text` that fits in `width` columns, wide characters counted (a
    slice counts characters: ten Chinese ones are twenty columns)."""
    used = 0
    for index, char in enumerate(text):
        used += get_cwidth(char)
        if used > width:
            return text[:index]
    return text


def clip(line: Line, width: int, *, mark: bool = True) -> Line:
    """The line cut to `width` columns (wide characters counted) and padded with spaces; a
    line that had more to say than its spaces ends in "…" where it was cut: the screen's
    edge must not pass for the end of a sentence (found in tmux at 60 columns: "La partita
    inizia quando tutti i giocatori seduti sono pront"). Without `mark`, cut bare: for a
    caller that marks the cut its own way."""
    if width <= 0:
        return []
    out: Line = []
    used = 0
    for index, fragment in enumerate(line):
        text = fragment[1]
        room = width - used
        if get_cwidth(text) > room:
            text = within(text, room)
            if mark and (fragment[1][len(text):].strip()
                         or any(f[1].strip() for f in line[index + 1:])):
                return _marked(out, (fragment[0], text, *fragment[2:]), width)
        if text:
            out.append((fragment[0], text, *fragment[2:]))
            used += get_cwidth(text)
    if used < width:
        out.append(("", " " * (width - used)))
    return out


def _marked(out: Line, last: Fragment, width: int) -> Line:
    """`clip`'s line when text was left out: what fits in `width` - 1 columns, the rest of
    the last column "…" in the style of the fragment that was cut (padding if it was less)."""
    if last[1]:
        out.append(last)
    kept: Line = []
    used = 0
    for fragment in out:
        text = within(fragment[1], width - 1 - used)
        if text:
            kept.append((fragment[0], text, *fragment[2:]))
            used += get_cwidth(text)
        if used >= width - 1:
            break
    if used < width - 1:
        kept.append(("", " " * (width - 1 - used)))
    kept.append((last[0], "…"))
    return kept


def fold_line(line: Line, width: int) -> tuple[Line, Line]:
    """`line` as two lines, broken at the last space that leaves the first within `width`."""
    text = "".join(f[1] for f in line)
    room = 0
    for i, ch in enumerate(text):
        if get_cwidth(text[:i + 1]) > width:
            break
        if ch == " ":
            room = i
    if room == 0:
        return line, []
    first: Line = []
    second: Line = []
    used = 0
    for fragment in line:
        piece = fragment[1]
        head, tail = piece[:max(0, room - used)], piece[max(0, room - used):]
        if head:
            first.append((fragment[0], head, *fragment[2:]))
        if tail:
            second.append((fragment[0], tail, *fragment[2:]))
        used += len(piece)
    if second:
        second[0] = (second[0][0], second[0][1].lstrip(), *second[0][2:])
    return first, marked_cut(second, width)


def marked_cut(line: Line, width: int) -> Line:
    """`line` in `width` columns, ending in "…" (in its last kept fragment's style) where it
    had to be cut: a folded notice's second line is cut so, not mid-word at the edge as if
    it were all (found in tmux: the roulette's turned cards ended "Desca")."""
    if width_of(line) <= width:
        return line
    kept = clip(line, max(0, width - 1), mark=False)
    while kept and not kept[-1][1].strip():
        kept.pop()  # clip's padding, and the spaces the cut left
    if not kept:
        return [("", "…")]
    last = kept[-1]
    text = last[1].rstrip()
    space = text.rfind(" ")
    if space > len(text) // 2:  # at a word's end, not in its middle
        text = text[:space].rstrip(" ,;:")
    kept[-1] = (last[0], text + "…", *last[2:])
    return kept


def wrap_within(text: str, width: int, most: int) -> list[str]:
    """`text` wrapped into at most `most` lines (at least one), the last ending in "…" where
    the rest had to be left out: a cut text says so."""
    lines = wrap(text, width)
    most = max(1, most)
    if len(lines) <= most:
        return lines
    return [*lines[:most - 1], _cut(lines[most - 1] + " …", width)]


def plain_line(text: str, style: str = "") -> Line:
    return [(style, text)]


def wrap(text: str, width: int) -> list[str]:
    """Words into lines of at most `width` columns (a word longer than a line, such as a
    fingerprint to copy, is broken over lines, never cut short: after a hyphen where one is
    in the line's second half, so that a fingerprint's groups stay whole)."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        candidate = f"{current} {word}" if current else word
        if get_cwidth(candidate) <= width:
            current = candidate
            continue
        if current:
            lines.append(current)
        while width > 0 and get_cwidth(word) > width:
            head = within(word, width) or word[0]  # a character wider than the line goes whole
            hyphen = head.rfind("-")
            if hyphen >= len(head) // 2:  # a fingerprint's groups stay whole, to read and copy
                head = head[:hyphen + 1]
            lines.append(head)
            word = word[len(head):]
        current = word
    if current:
        lines.append(current)
    return lines or [""]


def side_by_side(left: Sequence[Line], right: Sequence[Line], left_width: int,
                 width: int) -> list[Line]:
    rows = max(len(left), len(right))
    out: list[Line] = []
    for i in range(rows):
        a = clip(list(left[i]) if i < len(left) else [], left_width)
        b = clip(list(right[i]) if i < len(right) else [], width - left_width - 1)
        out.append([*a, ("class:dim", "│"), *b])
    return out


def to_text(lines: Sequence[Line], width: int) -> StyleAndTextTuples:
    """The lines joined into one formatted text, each cut to `width`. Every fragment's text
    passes through `shown` first: whatever a line holds, from the wire or not, the terminal
    gets no control or format character (client/safe_text.py), only the newlines put here."""
    out: StyleAndTextTuples = []
    for i, line in enumerate(lines):
        if i:
            out.append(("", "\n"))
        out.extend(clip([safe_fragment(fragment) for fragment in line], width))
    return out


def safe_fragment(fragment: Fragment) -> Fragment:
    """A fragment with its text `shown` (style and mouse handler kept)."""
    text = fragment[1]
    safe = shown(text)
    if safe is text:
        return fragment
    return cast(Fragment, (fragment[0], safe, *fragment[2:]))


# -- the pieces ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Look:
    """How to draw: colour or plain, and the mouse handler for cards (None in tests)."""

    plain: bool
    on_card: CardClick | None = None
    letters: Mapping[Color, str] = field(default_factory=lambda: COLOR_KEYS)
    side: int = 0  # UNO Flip's dark side draws its wilds in its own colours
    on_chat: Callable[[int], None] | None = None
    """Told the chat pane's rows when it is drawn: how far PgUp may go (chat_depth)."""


LIGHT_RAINBOW = ("fg.red", "fg.yellow", "fg.green", "fg.blue")
DARK_RAINBOW = ("fg.orange", "fg.purple", "fg.pink", "fg.cyan")


def card_chip(face: Face | None, look: Look, *, playable: bool = True, selected: bool = False,
              card: int | None = None, in_hand: bool = True, dim: bool = False) -> Line:
    """One card. Colour: a chip in the card's colour (wilds black with multicolour letters);
    `dim` (our turn, and it cannot be played): its colour on grey. Plain: ` *[R5]` playable,
    `> [R5]` selected, `>*[R5]` both. A face never told (an UNO Flip dark face the host did
    not send: the trust panel says so) is `[?]`, on grey."""
    handler = _click(look, card)
    code = card_code(face, look.letters) if face is not None else "?"
    if look.plain:
        mark = ((">" if selected else " ") + ("*" if playable else " ")) if in_hand else ""
        return [_frag("", f"{mark}[{code}]", handler)]
    extra = " class:card.selected" if selected else ""
    if face is None:
        return [_frag("class:card.off" + extra, f" {code:^3} ", handler)]
    label = f" {card_label(face):^3} "
    if dim:
        fg = f" class:fg.{face.color.value}" if face.color is not None else ""
        return [_frag("class:card.off" + fg + extra, label, handler)]
    if face.color is None:
        rainbow = DARK_RAINBOW if look.side else LIGHT_RAINBOW
        return [
            _frag(f"bg:#000000 bold class:{rainbow[i % 4]}" + extra, ch, handler)
            for i, ch in enumerate(label)
        ]
    return [_frag(f"class:card.{face.color.value}" + extra, label, handler)]


def _frag(style: str, text: str, handler: Callable[[MouseEvent], object] | None) -> Fragment:
    return (style, text, handler) if handler is not None else (style, text)


def _click(look: Look, card: int | None) -> Callable[[MouseEvent], object] | None:
    on_card = look.on_card
    if on_card is None or card is None:
        return None
    chosen: int = card

    def handler(event: MouseEvent) -> object:
        if event.event_type is MouseEventType.MOUSE_UP:
            on_card(chosen)
            return None
        return NotImplemented

    return handler


def color_word(model: ClientModel, color: Color | None, look: Look) -> Line:
    if color is None:
        return [("", "-")]
    word = model.tr.color(color)
    return [("" if look.plain else f"class:fg.{color.value} bold", word)]


def header(model: ClientModel, width: int) -> Line:
    """Round, table, the deck checks and the connection. The deck part never says more than
    was checked: the current round is being checked until its audit, audited after it. A
    violation the player has not seen on the trust panel takes the bar's alert style and, if
    space is short, the table's name's room."""
    tr = model.tr
    view = model.view
    parts = ["unonet"]
    if model.lobby is not None:
        parts.append(tr("lobby.title", name=model.lobby.name))
    if view is not None and view.round_no and model.screen is not Screen.LOBBY:
        # a round of a match being played or just over (the lobby after a match read "Round
        # 1" of the match before: found in tmux)
        parts.append(tr("ui.round", round=view.round_no))
    trust, alert = trust_title(model)
    right = f"{trust} · {tr(f'conn.{model.connection}')} "
    style = "class:title.alert" if alert else "class:title"
    side = side_label(model)  # UNO Flip: never given up for room
    while len(parts) > 1 and (get_cwidth(" " + " · ".join(parts)) + width_of(side)
                              + get_cwidth(right)) >= width:
        parts.pop(1 if alert else -1)  # alert: what the host did comes before the table's name
    left = " " + " · ".join(parts)
    spare = width - 1 - get_cwidth(left) - width_of(side)  # the last column left blank
    if get_cwidth(right) > spare:
        # The deck's words cut with "…", the connection kept whole; but what the host was
        # caught doing keeps the room it needs, the connection's word giving way.
        connection = f" · {tr(f'conn.{model.connection}')} "
        keep = spare - get_cwidth(connection) - 1
        right = (within(trust, keep) + "…" + connection if keep > 0 and not alert
                 else within(right, spare))
    room = max(0, width - get_cwidth(left) - width_of(side) - get_cwidth(right))
    return [(style, left), *side, (style, " " * room + right)]


def side_label(model: ClientModel) -> Line:
    """UNO Flip: the side in play, for the title bar, in that side's style ("Dark side" on
    deep purple, "Light side" on cream); nothing for a one-sided deck."""
    if not model.flip or model.view is None:
        return []
    word = model.tr("side.dark" if model.side else "side.light")
    text = model.tr("ui.side", side=word)
    return [("class:title", " "), ("class:title.dark" if model.side else "class:title.light",
                                   f" {text[:1].upper()}{text[1:]} ")]


def trust_title(model: ClientModel) -> tuple[str, bool]:
    """The title bar's deck part and whether it is an alert. A violation names the first one
    the host was caught at, and counts the rest: a later, milder one (an audit missing after
    a stacked deck) must not hide the one that mattered. Alert until the panel was opened."""
    tr = model.tr
    trust = model.trust
    first = trust.violations[0] if trust.violations else None
    rest = len(trust.violations) - 1
    what = model.violation_words(first.kind, first.detail) if first is not None else ""
    if model.unseen_violation is not None:
        if rest:
            return tr("trust.title_caught_rest", what=what, rest=rest), True
        return tr("trust.title_caught", what=what), True
    current = trust.current
    if current is None:
        text = tr("trust.unchecked")
    else:
        text = tr(f"trust.title_{current.state}", round=current.round_no)
    extras = []
    if first is not None:
        extras.append(tr("trust.title_first_rest", what=what, rest=rest) if rest
                      else tr("trust.title_first", what=what))
    if trust.abandoned_rounds:
        extras.append(tr("trust.title_redealt", count=trust.abandoned_rounds))
    if current is not None and current.absent_seeds:
        names = ", ".join(model.name(seat) for seat in current.absent_seeds)
        extras.append(tr("trust.title_no_seed", names=names))
    return " · ".join([text, *extras]), current is not None and current.state == "violated"


@dataclass(frozen=True)
class Entry:
    """One player's line in parts, so the columns can be sized to what is in them."""

    seat: int
    marker: str
    team: str
    name: str
    """The name as shown whole, " (you)" included for ours."""
    count: str
    count_style: str
    uno: str
    uno_style: str
    points: str
    bare_points: str
    tag: str
    tag_style: str


def entry_of(model: ClientModel, seat: int) -> Entry:
    """A player's parts: turn marker, team, name, cards (with UNO state), score, dealer or
    offline."""
    tr = model.tr
    view = model.view
    assert view is not None
    info = view.seats[seat]
    name = model.name(seat)
    if seat == model.me:
        name += you_mark(model)
    count = tr("ui.card") if info.cards == 1 else tr("ui.cards", count=info.cards)
    count_style = "class:dim" if info.out else ""
    if seat in model.eliminated:
        count = tr("ui.eliminated")
    elif info.out:
        points = model.knock_out_points(seat) if model.hand_limit is not None else None
        count = tr("ui.out") if points is None else tr("ui.out_points", points=points)
    elif model.in_danger(seat):  # the Mercy rule (hand limit) is near: before it strikes
        count, count_style = count + "!", "class:catchable"
    uno, uno_style = "", ""
    if info.uno_called and info.cards == 1:
        uno, uno_style = tr("ui.uno"), "class:uno"
    elif info.catchable:
        uno, uno_style = tr("ui.catchable"), "class:catchable"
    tag, tag_style = "", ""
    if not model.connected(seat):  # the dealer too, if so (it read as if the deal had moved)
        tag, tag_style = tr("ui.offline"), "class:offline"
        if view.dealer == seat:
            tag += ", " + tr("ui.dealer")
    elif view.dealer == seat:
        tag, tag_style = tr("ui.dealer"), "class:dim"
    return Entry(seat, "▶ " if view.current == seat else "  ",
                 f"{team_name(info.team)} " if info.team is not None else "", name, count,
                 count_style, uno, uno_style,
                 tr("ui.points", points=info.score), str(info.score), tag, tag_style)


def entry_lines(model: ClientModel, entries: Sequence[Entry], width: int) -> list[Line]:
    """The entries as aligned columns within `width`, each column as wide as its longest part.
    When that is too wide a long name gives up columns down to NAME_ROOM, then the points lose
    their unit ("0 pts" is clearer than a bare "0"), then the names give up more: the cards,
    the UNO state, the score and "dealer" are never cut."""
    def widest(parts: Iterable[str]) -> int:
        return max((get_cwidth(p) for p in parts), default=0)

    team, name, count, uno, points, tag = _columns(entries)
    bare = False

    def total() -> int:
        return _line_width(team, name, count, uno, points, tag)

    name = max(min(name, NAME_ROOM), name - max(0, total() - width))
    if total() > width:
        bare, points = True, widest(e.bare_points for e in entries)
    name = max(min(4, name), name - max(0, total() - width))  # never wider than the names
    lines: list[Line] = []
    you = you_mark(model)
    for e in entries:
        cut = _cut_name(e.name, name, you if e.seat == model.me else "")
        line: Line = [
            ("class:turn" if e.marker.strip() else "", e.marker),
            ("class:dim", f"{e.team:<{team}}"),
            ("class:me" if e.seat == model.me else "", pad(cut, name + 1)),
            (e.count_style, f"{e.count:>{count}} "),
        ]
        if uno:
            line.append((e.uno_style, f"{e.uno:<{uno}} "))
        line.append(("", f"{e.bare_points if bare else e.points:>{points}} "))
        line.append((e.tag_style, e.tag))
        lines.append(clip(line, width))
    return lines


def pad(text: str, width: int) -> str:
    """`text` and the spaces that make it `width` columns wide, counted as the terminal draws
    them: a name in Chinese or with an emoji takes two columns a letter (format's `:<20`
    counts characters, and pushed the columns after such a name out of line)."""
    return text + " " * max(0, width - get_cwidth(text))


def you_mark(model: ClientModel) -> str:
    """What follows our own name wherever names are listed: " (you)"."""
    return f" ({model.tr('ui.you')})"


def _cut_name(name: str, width: int, suffix: str) -> str:
    """`name` in `width` columns, cut at its end with "…"; `suffix` (our " (you)") is kept
    whole where the name keeps NAME_LETTERS letters (all, if fewer) and the mark beside it.
    In a column of fewer than ELLIPSIS_FROM the letters tell players apart better than a
    mark would."""
    if get_cwidth(name) <= width:
        return name
    mark = "…" if width >= ELLIPSIS_FROM else ""
    letters = min(NAME_LETTERS, len(name) - len(suffix))
    keep = suffix if suffix and name.endswith(suffix) and \
        letters + len(mark) + get_cwidth(suffix) <= width else ""
    return _cut(name[:len(name) - len(keep)], width - get_cwidth(keep), mark) + keep


ELLIPSIS_FROM = 6
"""The narrowest name column whose cut names end in "…" (five letters and the mark)."""
NAME_LETTERS = 4
"""The letters of our own cut name kept before its " (you)": the name tells more."""


NAME_ROOM = 10
"""The columns a long name keeps before the points give up their unit: enough to tell ten
players apart (a name is cut, the score must still read as points)."""


def _widest(parts: Iterable[str]) -> int:
    return max((get_cwidth(p) for p in parts), default=0)


def _columns(entries: Sequence[Entry]) -> tuple[int, int, int, int, int, int]:
    """The natural widths of the team, name, count, UNO, points and tag columns."""
    return (_widest(e.team for e in entries), _widest(e.name for e in entries),
            _widest(e.count for e in entries), _widest(e.uno for e in entries),
            _widest(e.points for e in entries), _widest(e.tag for e in entries))


def _line_width(team: int, name: int, count: int, uno: int, points: int, tag: int) -> int:
    return 2 + team + name + 1 + count + (uno + 1 if uno else 0) + 1 + points + 1 + tag


ROW_ROOM = 14
"""UNO Flip: the columns a player's other-side row keeps when the names must give way (a few
faces and the "N more" of the rest)."""


def player_cells(model: ClientModel, entries: Sequence[Entry], width: int,
                 look: Look) -> list[Line]:
    """The entries within `width`; in UNO Flip each followed by the row of the other side of
    that player's cards, which everybody sees."""
    if not model.flip:
        return entry_lines(model, entries, width)
    team, name, count, uno, _, tag = _columns(entries)
    least = _line_width(team, min(4, name), count, uno, _widest(e.bare_points for e in entries),
                        tag)  # what entry_lines never cuts
    own = max(least, min(_line_width(*_columns(entries)), width - ROW_ROOM - 1))
    rows = [other_side_row(model, entry.seat, width - own - 1, look) for entry in entries]
    if not any(rows):  # no face fits beside any player: the names take the room back
        return entry_lines(model, entries, width)  # (found in tmux: "Brun", "Chia" at 60x18)
    return [clip([*line, ("", " "), *row], width)
            for row, line in zip(rows, entry_lines(model, entries, own), strict=True)]


def players(model: ClientModel, width: int, look: Look | None = None,
            room: int = 0) -> list[Line]:
    """Every player, in two columns when there are more than four (in UNO Flip one a line
    while `room` lines allow it: the other sides need the columns); then the teams' totals."""
    look = look if look is not None else Look(plain=False)
    count = model.seat_count
    entries = [entry_of(model, s) for s in range(count)]
    teams = team_line(model, width)
    if count <= 4 or (model.flip and count + len(teams) <= room):
        return player_cells(model, entries, width, look) + teams
    half = (width - 1) // 2
    rows = (count + 1) // 2
    both = player_cells(model, entries, half, look)  # one set of column widths for both halves
    lines: list[Line] = []
    for r in range(rows):
        lines.append([*both[r], ("", " "), *(both[r + rows] if r + rows < count else [])])
    return lines + teams


def other_side_row(model: ClientModel, seat: int, width: int, look: Look) -> Line:
    """UNO Flip: the other side of `seat`'s cards, as everybody sees them, by colour; what
    does not fit in `width` columns is counted ("3 more"), never left out unsaid; where not
    one face fits, nothing (a count alone said only what the hand's count says). Colour: each
    colour's faces on one chip of that colour; plain: codes, `O3 K+5 W`."""
    view = model.view
    if view is None or not 0 <= seat < len(view.seats) or seat == view.seat:
        return []  # our own cards' other side faces away from us, as at a real table
    faces = sorted(view.seats[seat].other_sides, key=shown_order)
    whole = face_row(faces, look)
    if width_of(whole) <= width:
        return whole
    for count in range(len(faces) - 1, 0, -1):  # no face at all: the count is the hand's
        hidden = len(faces) - count
        row = [*face_row(faces[:count], look),
               ("class:dim", (" " if look.plain else "") + model.tr("ui.row_more", count=hidden))]
        if width_of(row) <= width:
            return row
    return []


def sides_panel_lines(model: ClientModel, width: int, height: int, look: Look) -> list[Line]:
    """UNO Flip's page of every player's other side (`o`): a player to a line, the name whole
    (within a third of the width) and every face, on more lines where one is too short; ours
    left out, as at a real table. What does not fit in `height` lines is counted."""
    view = model.view
    title: list[Line] = [[("class:heading", part)] for part in wrap(model.tr("sides.title"),
                                                                     width)]
    if view is None:
        return title
    seats = [seat for seat in range(len(view.seats)) if seat != view.seat]
    names = {seat: model.name(seat) for seat in seats}
    column = min(_widest(names.values()), max(4, width // 3))
    room = max(1, width - column - 3)
    lines: list[Line] = []
    for seat in seats:
        faces = sorted(view.seats[seat].other_sides, key=shown_order)
        rows = face_rows(faces, room, look) or [[("class:dim", model.tr("ui.cards", count=0))]]
        name = pad(_cut_name(names[seat], column, ""), column)
        lines.append([("", f"  {name} "), *rows[0]])
        lines += [[("", " " * (column + 3)), *row] for row in rows[1:]]
    return [*title, *_fit(model, lines, height - len(title))]


def face_rows(faces: Sequence[Face], width: int, look: Look) -> list[Line]:
    """`faces` as face_row lays them out, in as many rows of `width` columns as they take."""
    rows: list[list[Face]] = []
    for face in faces:
        if rows and width_of(face_row([*rows[-1], face], look)) <= width:
            rows[-1].append(face)
        else:
            rows.append([face])
    return [face_row(row, look) for row in rows]


def face_row(faces: Sequence[Face], look: Look) -> Line:
    """Faces in a compact row: plain codes with a space between; in colour, each run of one
    colour on a chip of that colour (the wilds on black), a space between the faces."""
    if look.plain:
        return [("", " ".join(card_code(face, look.letters) for face in faces))] if faces else []
    row: Line = []
    run: list[Face] = []
    for face in [*faces, None]:
        if run and (face is None or face.color != run[0].color):
            color = run[0].color
            style = f"class:card.{color.value}" if color is not None else "class:card.wild"
            row.append((style, " " + " ".join(card_label(f) for f in run) + " "))
            run = []
        if face is not None:
            run.append(face)
    return row


def team_line(model: ClientModel, width: int) -> list[Line]:
    """teams=pairs: each team, its partners and its total, as many to a line as fit `width`
    (none without teams): three teams of six seats take two lines at 80 columns."""
    teams = model.teams()
    if not teams:
        return []
    parts = [
        model.tr("ui.team_score", team=team_name(team),
                 names=" + ".join(model.name(s) for s in seats), points=model.team_points(team))
        for team, seats in sorted(teams.items())
    ]
    lines: list[str] = []
    for part in parts:
        if lines and get_cwidth(f"{lines[-1]} · {part}") <= width:
            lines[-1] = f"{lines[-1]} · {part}"
        else:
            lines.append("  " + part)
    return [[("class:dim", line)] for line in lines]


def centre(model: ClientModel, look: Look, width: int) -> Line:
    """Top card, colour in play, draw pile (UNO Flip: and its top card's other side),
    direction and who plays next; the words "Colour" and "back" give way first when the
    line is too long, then the direction's name: who comes next is never cut."""
    for labels in (True, False):
        line = centre_line(model, look, width, labels)
        if width_of(line) <= width:
            break
    return line


def centre_line(model: ClientModel, look: Look, width: int, labels: bool) -> Line:
    tr = model.tr
    view = model.view
    assert view is not None
    line: Line = [("", f" {tr('ui.top')}: ")]
    if view.top_card is not None:
        line += card_chip(model.face(view.top_card), look, in_hand=False)
    else:
        line.append(("", "-"))
    line.append(("", f"  {tr('ui.color')}: " if labels else "  "))
    top = model.face(view.top_card) if view.top_card is not None else None
    if view.active_color is None and top is not None and top.kind is Kind.BUZZER:
        line.append(("", tr("ui.any_color")))  # a first-card Buzzer: no colour yet
    else:
        line += color_word(model, view.active_color, look)
    arrow = "↻" if view.direction > 0 else "↺"
    direction = tr("ui.cw") if view.direction > 0 else tr("ui.ccw")
    line.append(("", f"  {tr('ui.pile', count=view.draw_pile)}"))
    if model.flip and view.pile_other_side is not None:  # its other side, which all can see
        line += [("class:dim", f" {tr('ui.pile_back')} " if labels else " "),
                 *card_chip(view.pile_other_side, replace(look, side=1 - model.side),
                            in_hand=False)]
    line.append(("", "  "))
    after = next_seat(model)
    upcoming = tr("ui.next", name=model.name(after)) if after is not None else ""
    text = f"{arrow} {direction}, {upcoming}" if upcoming else f"{arrow} {direction}"
    if width_of(line) + get_cwidth(text) > width:
        text = f"{arrow} {upcoming}"  # the arrow says the way; who comes next matters more
    line.append(("", text.rstrip()))
    return line


def next_seat(model: ClientModel) -> int | None:
    """Who plays after the current player, going the way play goes and passing over the seats
    out of the round or the match (a Skip played now would change it: this is the plain
    order)."""
    view = model.view
    if view is None or view.current is None:
        return None
    count = len(view.seats)
    for step in range(1, count):
        seat = (view.current + step * view.direction) % count
        if not view.seats[seat].out and seat not in model.eliminated:
            return seat
    return None


def color_choices(model: ClientModel, colors: Sequence[Color], look: Look) -> Line:
    line: Line = []
    for i, color in enumerate(colors):
        key = f"{color_keys(model.tr.lang)[color]}/{i + 1} "
        line.append(("class:prompt", key))
        line += color_word(model, color, look)
        line.append(("", "  "))
    return line


def connection_line(model: ClientModel) -> str:
    """The link's state and why: "connection lost: cannot connect: Connection refused"."""
    state = model.tr(f"conn.{model.connection}")
    retry = model.connection_retry
    if retry is not None:
        if retry.kept:  # the host said how it went, and that it keeps the match
            why = reason_words(model, retry.code, retry.detail)
            text = model.tr("conn.retry_kept", why=why, attempt=retry.attempt,
                            delay=f"{retry.delay:g}")
            return text[:1].upper() + text[1:]  # said whole: no state word before it
        # A host that answered and refused is no host gone or out of reach.
        key = ("conn.refused" if retry.code in ADMISSION_REFUSALS else
               "conn.gone" if model.connection == "reconnecting" else "conn.unreachable")
        why = model.tr(key, reason=reason_words(model, retry.code, retry.detail))
        return f"{state}: " + model.tr("conn.retry", why=why, attempt=retry.attempt,
                                       attempts=retry.attempts, delay=f"{retry.delay:g}")
    return f"{state}: {ending_words(model)}".rstrip(": ")


OWN_ENDINGS = frozenset({"host_closed_plain", "no_answer", "host_silent", "refused",
                         "unreachable", "unknown_host", "not_tls"})
"""Endings whose diagnostic is only our own English sentence: said in the player's words
alone, not followed by it."""


SAID_BY_US = frozenset({"host_left", "host_stopped", "connection_broken", "link_failed"})
"""Endings the player reads in our words whatever the language: a stopping host's way of going
(SPEC.md [UNO-8-4]) and a broken connection, whose diagnostic is only for the log."""


ADMISSION_REFUSALS = frozenset({"server_full", "seat_in_use"})
"""Codes of a host that answered and would not let us in: "the host refused" on the retry line
(a host stopping, or a connection cut as idle, is not one)."""


def reason_words(model: ClientModel, code: str, detail: str, *, with_detail: bool = False
                 ) -> str:
    """Why a connection ended or an attempt failed: in English the diagnostic as it came,
    without the code it starts with ("server_full: the host is full"); in another language
    the words for the code where there are some (found in tmux: a Portuguese screen read "o
    host sumiu (cannot connect: Connection refused)"), `with_detail` the diagnostic after them
    in parentheses but where the words say all the link knows (OWN_ENDINGS)."""
    return said_reason(model.tr, code, detail, with_detail=with_detail)


def said_reason(tr: Words, code: str, detail: str, *, with_detail: bool = False) -> str:
    """`reason_words` in `tr`'s language, for the screen and for `unonet bot` alike."""
    bare = detail.removeprefix(f"{code}: ") if code else detail
    if code in SAID_BY_US:  # how the host went, in our words in every language
        return tr(f"lost.{code}")
    if tr.lang == "en" or not code:
        return bare
    key = next((k for k in (f"refusal.{code}", f"lost.{code}") if tr.has(k)), None)
    if key is None:
        return bare
    words = tr(key)
    return f"{words} ({detail})" if with_detail and detail and code not in OWN_ENDINGS \
        else words


def ending_words(model: ClientModel) -> str:
    """Why the connection ended: reason_words, the diagnostic after the player's words."""
    return reason_words(model, model.connection_code, model.connection_detail,
                        with_detail=True)


def status(model: ClientModel, look: Look, width: int) -> Line:
    """What the game waits for: a prompt of ours, or whose turn it is and what is pending;
    while the host is away, only that (no prompt invites a move that cannot be sent). A timer
    that runs comes first, so that no width cuts it (found in tmux: 30 s turns ran unseen
    until "root ran out of time")."""
    if model.offline and model.local_prompt is None:
        return [("class:prompt", connection_line(model))]
    return [*countdown(model), *waiting_for(model, look, width)]


def countdown(model: ClientModel) -> Line:
    """The seconds left on the game's timer, before the status: ours in the alert style in its
    last TIMER_BELL_AT seconds; nothing when no timer runs."""
    left = model.timer_left
    if left is None:
        return []
    if model.timer_ours:
        style = "class:alert" if left <= TIMER_BELL_AT else "class:prompt"
        return [(style, model.tr("ui.timer_you", seconds=left)), ("", " · ")]
    return [("class:dim", model.tr("ui.timer_other", seconds=left)), ("", " · ")]


def waiting_for(model: ClientModel, look: Look, width: int) -> Line:
    """The status without its timer: a prompt of ours, or whose turn it is."""
    line = prompt_status(model, look, width)
    if line is not None:
        return line
    tr = model.tr
    view = model.view
    assert view is not None
    pending = view.pending
    if view.phase == Phase.BUZZER and pending is not None:
        waiting = ", ".join(model.name(s) for s in pending.waiting)
        return [("class:prompt", tr("ui.buzz_wait", names=waiting)), *pressed_line(model)]
    name = model.name(view.current)
    if view.seat is None:
        return [("class:dim", tr("ui.watching_turn", name=name))]
    if view.phase == Phase.CHALLENGE and pending is not None:
        return [("", tr("ui.challenge_other", name=name, target=model.name(pending.target)))]
    if view.phase == Phase.STACK and pending is not None and pending.until_color is not None:
        return [("", tr("ui.stack_until_other", name=name, color=tr.color(pending.until_color),
                        card=tr.card(Face(Kind.WILD_DRAW_COLOR))))]
    if view.phase == Phase.STACK and pending is not None:
        return [("", tr("ui.stack_other", name=name, amount=pending.amount))]
    if view.phase == Phase.CHOOSE_TARGET:
        return [("", tr("ui.target_other", name=name))]
    if view.phase == Phase.CHOOSE_COLOR:
        return [("", tr("ui.color_other", name=name))]
    if view.phase == Phase.ROULETTE:
        return [("", tr("ui.roulette_other", name=name,
                        card=tr.card(Face(Kind.WILD_COLOR_ROULETTE))))]
    if view.seat in model.eliminated:
        return [("class:dim", tr("n.eliminated"))]
    if view.seats[view.seat].out:
        return [("class:dim", tr("n.out"))]
    if model.my_turn:
        if model.playable:
            return [("class:turn", tr("ui.your_turn"))]
        if any(isinstance(a, Draw) for a in model.legal):
            return [("class:turn", tr("ui.your_turn_none"))]
        return [("class:turn", tr("ui.your_turn_pass"))]
    if model.jump_in_open:
        selected = model.selected_card
        card = selected if selected in model.playable else min(model.playable)
        return [("class:prompt", tr("ui.jump_in", name=name, card=tr.card(model.face(card))))]
    return [("", tr("ui.turn_of", name=name))]


def prompt_status(model: ClientModel, look: Look, width: int) -> Line | None:
    """The question our keys answer now, if there is one."""
    tr = model.tr
    prompt = model.prompt
    p = "class:prompt"
    if isinstance(prompt, QuitPrompt | SeatPrompt):
        return [(p, local_question(model, prompt))]
    if isinstance(prompt, ColorPrompt):
        if prompt.roulette:  # the choices early: a narrow screen folds the rest
            card = tr.card(Face(Kind.WILD_COLOR_ROULETTE))
            text = tr("ui.roulette_you", card=card, choices="\0")
            before, _, after = text.partition("\0")
            choices = color_choices(model, prompt.colors, look)[:-1]  # the sentence goes on
            return [(p, before), *choices, (p, after)]
        if prompt.card is None:
            return [(p, tr("ui.color_you", choices="")), *color_choices(model, prompt.colors, look)]
        name = tr.card(model.face(prompt.card))
        text = tr("ui.pick_color", card=name, choices="\0")
        before, _, after = text.partition("\0")
        return [(p, before), *color_choices(model, prompt.colors, look), (p, after.strip())]
    if isinstance(prompt, ChallengePrompt):
        card = tr.card(Face(prompt.card))
        target = model.name(prompt.target)
        answers = answer_words(model, prompt.stack, prompt.deflect)
        if prompt.until is not None:  # a Wild Draw Color: drawn until a card of that colour
            color = tr.color(prompt.until)
            if not answers:
                return [(p, tr("ui.challenge_until", target=target, card=card, color=color))]
            return [(p, tr("ui.challenge_until_stack", target=target, card=card, color=color,
                           answers=answers))]
        if not answers:
            return [(p, tr("ui.challenge_you", target=target, card=card, count=prompt.amount))]
        return [(p, tr("ui.challenge_stack", target=target, card=card, count=prompt.amount,
                       answers=answers))]
    if isinstance(prompt, StackPrompt):
        answers = answer_words(model, prompt.stack, prompt.deflect, prompt.cancel)
        if prompt.answers:
            codes = " ".join(card_code(face, look.letters) for face in prompt.answers)
            answers = f"{answers} ({codes})"
        if prompt.until is not None:
            card, color = tr.card(Face(Kind.WILD_DRAW_COLOR)), tr.color(prompt.until)
            if not answers:
                return [(p, tr("ui.stack_until_take", card=card, color=color))]
            return [(p, tr("ui.stack_until_you", card=card, color=color, answers=answers))]
        risk = mercy_risk(model, prompt.amount)
        if not answers:
            return [(p, tr("ui.stack_take", amount=prompt.amount)), *risk]
        return [(p, tr("ui.stack_you", amount=prompt.amount, answers=answers)), *risk]
    if isinstance(prompt, DrawnCardPrompt):
        return [(p, tr("ui.drawn", card=tr.card(model.face(prompt.card))))]
    if isinstance(prompt, TargetPrompt):
        return target_choices(model, prompt, width)
    if isinstance(prompt, BuzzPrompt):
        return [(p, tr("ui.buzz_you")), *pressed_line(model)]
    return None


def local_question(model: ClientModel, prompt: QuitPrompt | SeatPrompt) -> str:
    """A question of this screen's own (leave? whom to kick or penalize?), in words."""
    if isinstance(prompt, SeatPrompt):
        return model.tr(f"ui.{prompt.kind}_who", count=HINT_PENALTY)
    return quit_words(model)


def quit_words(model: ClientModel) -> str:
    """The quit question, saying what leaving does where the player is: the host's own player
    ends the table; a player in mid-match leaves the seat to a bot and can take it back with
    the same command (found in tmux: "Leave the game? y yes, n no", and the friend never
    knew); in the lobby the seat is freed; a spectator stops watching."""
    if model.hosting:
        return model.tr("ui.quit_host")
    if model.watching:
        return model.tr("ui.quit_watching")
    screen = model.screen
    if screen in (Screen.GAME, Screen.ROUND_END):
        return model.tr("ui.quit_match")
    if screen is Screen.LOBBY:
        return model.tr("ui.quit_lobby")
    return model.tr("ui.quit")


def answer_words(model: ClientModel, stack: bool, deflect: bool, cancel: bool = False) -> str:
    """What answers a pending draw, in words: 'play a draw card or pass it on ...' (No Mercy:
    'or cancel it with a Discard All or Skip Everyone')."""
    tr = model.tr
    answers = [tr(key) for key, offered in (("ui.answer_stack", stack),
                                            ("ui.answer_deflect", deflect),
                                            ("ui.answer_cancel", cancel)) if offered]
    return tr("ui.answer_join").join(answers)


def mercy_risk(model: ClientModel, amount: int) -> Line:
    """Taking `amount` cards would reach the hand limit (the Mercy rule): said beside the
    question, so the player knows before pressing Space."""
    limit, view = model.hand_limit, model.view
    if limit is None or view is None or view.seat is None:
        return []
    if view.seats[view.seat].cards + amount < limit:
        return []
    return [("", " "), ("class:catchable", model.tr("ui.mercy_take", limit=limit))]


def target_choices(model: ClientModel, prompt: TargetPrompt, width: int) -> Line:
    """The swap chooser: every player we may swap with and their cards, the cursor on one;
    when they do not fit in the two lines the status folds into at `width` columns, those
    nearest the cursor, with "…" on each side where some are left out (found at 60 columns
    with ten players: the line was made for 80, and the cursor's own choice fell off it)."""
    view = model.view
    assert view is not None
    head: Line = [("class:prompt", model.tr("ui.pick_target_keys") + " ")]
    entries: list[tuple[int, Line]] = []
    for index, seat in enumerate(prompt.targets):
        chosen = index == prompt.cursor
        text = f"{'>' if chosen else ' '}{seat + 1} {model.name(seat)} ({view.seats[seat].cards})"
        entries.append((index, [("class:cursor" if chosen else "", text), ("", "  ")]))
    # The fold breaks at a space: its first line may end a word early, so the room is two
    # lines less the longest word.
    words = [word for fragment in [*head, *(f for _, e in entries for f in e)]
             for word in fragment[1].split()]
    room = 2 * width - max((get_cwidth(word) for word in words), default=0) - 1
    if width_of(head) + sum(width_of(e) for _, e in entries) > room:
        room -= 4  # the "… " and " …" that say where choices are left out
        while len(entries) > 1 and width_of(head) + sum(width_of(e) for _, e in entries) > room:
            entries.remove(max(entries, key=lambda e: abs(e[0] - prompt.cursor)))
    before: Line = [("class:dim", "… ")] if entries[0][0] > 0 else []
    after: Line = [("class:dim", "…")] if entries[-1][0] < len(prompt.targets) - 1 else []
    return head + before + [fragment for _, entry in entries for fragment in entry] + after


def pressed_line(model: ClientModel) -> Line:
    """Who pressed B so far in the open race, in order."""
    if not model.pressed:
        return []
    names = ", ".join(f"{place}. {model.name(s)}" for place, s in enumerate(model.pressed, 1))
    return [("", "  "), ("", model.tr("ui.buzz_pressed", names=names))]


def hand_lines(model: ClientModel, width: int, rows: int, look: Look) -> list[Line]:
    """The hand: a title line, then card rows each with a marker row under it (the digit
    that picks the card, `^` under the selected one). Scrolls to keep the selection shown."""
    tr = model.tr
    if model.watching:
        return watching_lines(model, width)
    hand = model.hand
    playable = model.playable
    if not hand:
        return [hand_title(model, width, look, hidden=0), [("class:dim", tr("ui.hand_empty"))]]
    slot = 8 if look.plain else 6
    if not look.plain and any(len(card_label(f)) > 3 for f in map(model.face, hand) if f):
        slot = 7  # No Mercy's W+10 and WR+4 fill a chip: a column between chips still
    deciding = model.my_turn or model.jump_in_open  # the cards that play now stand out
    per_row = max(1, (width - 1) // slot)
    card_rows = max(1, (rows - 1) // 2)
    selected = min(model.selected, len(hand) - 1)
    first_row = max(0, selected // per_row - card_rows + 1)
    start = first_row * per_row
    shown = hand[start:start + per_row * card_rows]
    out = [hand_title(model, width, look, hidden=len(hand) - len(shown))]
    for r in range(0, len(shown), per_row):
        chips: Line = [("", " ")]
        marks: Line = [("", " ")]
        for offset, card in enumerate(shown[r:r + per_row]):
            index = start + r + offset
            is_selected = index == selected
            chip = card_chip(model.face(card), look, playable=card in playable,
                             selected=is_selected, card=card,
                             dim=deciding and card not in playable)
            chips += chip
            chips.append(("", " " * (slot - width_of(chip))))
            key = str((index + 1) % 10) if index < 10 else ""
            marked = card in model.marked
            if marked:
                key = f"+{model.marked.index(card) + 1}"  # the order the run is played in
            mark = ("^" + (key if marked else "")) if is_selected else key
            style = "class:prompt" if is_selected or marked else "class:dim"
            marks.append((style, f"{mark:^{slot - 1}} "))
        out += [chips, marks]
    return out


def hand_title(model: ClientModel, width: int, look: Look, hidden: int) -> Line:
    """The hand's title: its count, then the notes that concern it, the most needed first.
    A short note (the cards left out, the Mercy rule, the legend) is said whole or not at all:
    cut, '+6 more' would read '+6', a card, and the legend a lone '*'. Only the marked cards'
    sentence may run off the edge, as it did before the notes had an order."""
    tr = model.tr
    title: Line = [("class:heading", f"{tr('ui.hand')} ({len(model.hand)})")]
    notes: list[tuple[str, tuple[str, ...], bool]] = []  # style, long to short, whole?
    if hidden:
        notes.append(("class:dim", (tr("ui.more", count=hidden),), True))
    limit = model.hand_limit
    if limit is not None and model.me is not None and model.in_danger(model.me):
        left = limit - len(model.hand)
        said = (tr("ui.mercy_near", limit=limit, left=left), tr("ui.mercy_short", left=left))
        notes.append(("class:catchable", said, True))
    if model.uno_armed:
        notes.append(("class:uno", (tr("ui.uno_armed"),), True))
    if model.marked:
        cards = ", ".join(tr.card(model.face(c)) for c in model.marked)
        notes.append(("class:prompt", (tr("ui.marked", cards=cards),), False))
    elif model.multi_offered:
        notes.append(("class:prompt", (tr("ui.multi_hint"),), False))
    if look.plain:
        notes.append(("class:dim", (tr("ui.legend"),), True))
    for style, texts, whole in notes:
        room = width - width_of(title) - 2
        fitting = [text for text in texts if not whole or get_cwidth(text) <= room]
        if fitting:
            title += [("", "  "), (style, fitting[0])]
    return title


def watching_lines(model: ClientModel, width: int) -> list[Line]:
    """A spectator's part of the table where a hand would be: that we watch, and which seat
    a number key takes (a seat whose player is gone), or that none is open."""
    tr = model.tr
    lines: list[Line] = [[("class:heading", tr("ui.watching"))]]
    seats = model.open_seats()
    if seats:
        names = ", ".join(f"{s + 1} {model.name(s)}" for s in seats)
        text = tr("ui.watch_open", seats=names)
    elif model.lobby is not None and model.lobby.seats and all(
            seat.kind == "bot" for seat in model.lobby.seats):
        text = tr("ui.watch_bots")  # no player to leave: no seat will open
    else:
        text = tr("ui.watch_full")
    lines += [[("", " " + part)] for part in wrap(text, width - 1)]
    return lines


def log_lines(model: ClientModel, width: int, rows: int) -> list[Line]:
    """The end of the log, wrapped, newest at the bottom."""
    wrapped: list[str] = []
    for entry in list(model.log)[-rows:]:
        wrapped += wrap(entry, width)
    return [[("", text)] for text in wrapped[-rows:]]


HOST_MARK = "»"
"""Starts every host notice in the chat (chat_message.host): a member's line starts with its
seat number or SPECTATOR_MARK instead, which the client writes, so no member can begin a
line like the host's whatever its name or text."""
LOCAL_MARK = "·"
"""Starts this client's own notices (who came and went, that we host the table)."""
SPECTATOR_MARK = "~"
"""Starts a spectator's line where a seated member's starts with its seat number."""


def chat_mark(line: ChatLine) -> tuple[str, str]:
    """Who said a chat line, as the client (never the sender) writes it: (mark, style)."""
    if line.kind == "host":
        return HOST_MARK, "class:chat.host"
    if line.kind == "local":
        return LOCAL_MARK, "class:chat.local"
    return (str(line.seat + 1) if line.seat is not None else SPECTATOR_MARK), "class:chat.mark"


def chat_lines(model: ClientModel, width: int, rows: int) -> list[Line]:
    """The end of the chat, wrapped, newest at the bottom. A member's line is `2 ada: text`
    (seat, name, text); a host notice `» host: text` in its own style, text included; the
    mark is the client's, so a line's first column always says who wrote it."""
    return chat_view(model, width, rows)[0]


def chat_view(model: ClientModel, width: int, rows: int, look: Look | None = None
              ) -> tuple[list[Line], int]:
    """The chat pane's lines and how far back from the newest they really are: PgUp asks
    for `chat_back` lines, the pane goes no further than its oldest line allows."""
    if rows < 1:
        return [], 0
    if look is not None and look.on_chat is not None:
        look.on_chat(rows)
    lines: list[Line] = []
    needed = rows + model.chat_back  # PgUp: the pane ends chat_back lines before the newest
    for entry in reversed(model.chat):  # only as far back as the pane shows
        lines[:0] = chat_entry_lines(entry, width)
        if len(lines) >= needed:
            break
    back = min(model.chat_back, max(0, len(lines) - rows))
    end = len(lines) - back
    return lines[max(0, end - rows):end], back


def chat_pane_width(model: ClientModel, width: int) -> int:
    """The chat pane's columns on a screen `width` wide: the lobby's whole width, the
    table's right two fifths."""
    return width - width * 3 // 5 - 1 if model.screen is Screen.GAME else width


def chat_depth(model: ClientModel, width: int, rows: int = 1) -> int:
    """How far back the chat can scroll on a screen `width` wide whose chat pane shows `rows`
    lines: its wrapped lines but a paneful (found in tmux: PgUp went on past the oldest line
    by up to a pane's height, and PgDn then took as many presses to come back)."""
    pane = chat_pane_width(model, width)
    lines = sum(len(chat_entry_lines(entry, pane)) for entry in model.chat)
    return max(0, lines - max(1, rows))


def chat_entry_lines(entry: ChatLine, width: int) -> list[Line]:
    """One chat line, wrapped under its mark."""
    mark, mark_style = chat_mark(entry)
    name, text = shown(entry.name), shown(entry.text)
    text_style = "class:chat.host" if entry.kind == "host" else \
        "class:chat.local" if entry.kind == "local" else ""
    name_style = "class:chat.host" if entry.kind == "host" else "class:chat.name"
    lines: list[Line] = []
    for i, part in enumerate(wrap(f"{name}: {text}", max(1, width - len(mark) - 1))):
        lead = (mark_style, mark + " ") if i == 0 else ("", " " * (len(mark) + 1))
        if i == 0 and part.startswith(name + ":"):
            lines.append([lead, (name_style, name + ":"), (text_style, part[len(name) + 1:])])
        else:
            lines.append([lead, (text_style, part)])
    return lines


def chat_title(model: ClientModel, width: int, back: int) -> Line:
    """The chat pane's title, with how many lines came while the table had the keys; in a
    narrow pane without the key that reads them (found at 60 columns: "Chat (1 nuovo, Tab
    per" at the pane's edge), which the key bar and help name."""
    title: Line = [("class:heading", model.tr("ui.chat"))]
    if back:  # scrolled back (as far as there was to go): say so, and how to come back
        title += [("", " "), ("class:prompt", model.tr("ui.chat_back"))]
    elif model.chat_unread:
        news = model.tr("ui.unread", count=model.chat_unread)
        if get_cwidth(model.tr("ui.chat") + " " + news) > width:
            news = model.tr("ui.unread_short", count=model.chat_unread)
        title += [("", " "), ("class:prompt", news)]
    return title


def game_keys(model: ClientModel) -> list[str]:
    """The key bar's entries on the table: only keys the rules in force give a use (a
    spectator's: a seat number, when one is open to take)."""
    if model.watching:
        keys = ["key.sit"] if model.open_seats() else []
        return [*keys, "key.deck", "key.chat", "key.help", "key.quit"]
    rules = model.rules()
    keys = ["key.play", space_key(model), "key.uno"]
    if (rules is None or rules.wd4_policy == "challenge") and not model.no_mercy:
        keys.append("key.challenge")
    if rules is None or rules.buzzers:
        keys.append("key.buzz")
    return [*keys, "key.deck", "key.chat", "key.help", "key.quit"]


def space_key(model: ClientModel) -> str:
    """What Space does now (`ClientModel.space_action`; found in tmux: after a draw the bar
    still said "Space draw" where Space keeps the card and passes): take a pending draw,
    draw, or pass; "draw" while nothing is ours to do."""
    action = model.space_action()
    return ("key.accept" if isinstance(action, Accept) else
            "key.pass" if isinstance(action, Pass) else "key.draw")


def keybar(model: ClientModel, items: Sequence[str], width: int) -> Line:
    """The keys as one line of `width`: the last two (help and leave) always shown, the others
    in order while they fit (`?` lists them all)."""
    tr = model.tr
    texts = [part for item in items for part in tr(item).split("  ")]
    kept, protected = texts[:-2], texts[-2:]
    while kept and get_cwidth(" " + "  ".join(kept + protected)) > width:
        kept.pop()
    return [("class:keybar", " " + "  ".join(kept + protected))]


def notice_line(model: ClientModel) -> Line:
    return [("class:notice", model.notice)] if model.notice else []


def trust_panel_lines(model: ClientModel, width: int, height: int) -> list[Line]:
    """The trust panel (`t`): the host's key, the transcript, the rounds abandoned, every
    violation with its detail, then each round's state, newest first; what does not fit in
    `height` lines is counted, violations last to go."""
    tr = model.tr
    trust = model.trust
    head: list[Line] = [[("class:heading", tr("trust.panel_title"))]]
    key = trust.host_key or tr("trust.panel_no_key")
    said = [tr("trust.panel_host_key", fingerprint=key)]
    if trust.signing_key:  # what `unonet audit` names: it said "none" here, and a key there
        said.append(tr("trust.panel_signing_key", fingerprint=trust.signing_key))
    head += [[("", " " + part)] for text in said for part in wrap(text, width - 1)]
    if trust.transcript:  # a path has no spaces to wrap at: its end is what tells it apart
        path = tr("trust.panel_transcript", path=trust.transcript)
        tail = within(path[::-1], width - 3)[::-1]
        head.append([("", " " + (path if get_cwidth(path) < width else "…" + tail))])
    if trust.abandoned_rounds:
        head.append([("class:prompt", " " + tr("trust.panel_redealt",
                                                count=trust.abandoned_rounds))])
    found: list[Line] = []
    if trust.violations:
        first = trust.violations[0]
        found.append([("class:alert", " " + tr("trust.panel_violations",
                                                count=len(trust.violations)))])
        found.append([("class:alert", " " + tr("trust.panel_first", what=model.violation_words(
            first.kind, first.detail)))])
    for caught in trust.violations:
        where = (tr("trust.panel_match") if caught.round_no is None
                 else tr("ui.round", round=caught.round_no))
        found.append([("class:notice", f"  {where}: {model.violation_words(caught.kind)}")])
        found += [[("class:dim", "    " + part)] for part in wrap(caught.detail, width - 5)]
    rounds: list[Line] = []
    for rnd in reversed(trust.rounds):
        state = tr(f"trust.state_{rnd.state}")
        style = {"violated": "class:alert", "audited": "class:ok",
                 "missed": "class:dim"}.get(rnd.state, "")
        line: Line = [("", f"  {tr('ui.round', round=rnd.round_no)}: "), (style, state)]
        if rnd.absent_seeds:
            names = ", ".join(model.name(seat) for seat in rnd.absent_seeds)
            line.append(("class:prompt", "  " + tr("trust.panel_no_seed", names=names)))
        rounds.append(line)
    if not trust.rounds:
        rounds.append([("class:dim", "  " + tr("trust.unchecked"))])
    elif not trust.violations:
        head.append([("class:ok", " " + tr("trust.panel_clean"))])
    room = max(0, height - len(head) - 2)  # the rounds' heading and at least one round
    shown = _fit(model, found, room)
    listed = _fit(model, rounds, max(0, height - len(head) - len(shown) - 1))
    heading: Line = [("class:heading", tr("trust.panel_rounds"))]
    return [*head, *shown, heading, *listed][:height]


def _fit(model: ClientModel, lines: list[Line], room: int) -> list[Line]:
    """`lines` in `room` lines: the last one shown says how many more there are."""
    if len(lines) <= room:
        return lines
    if room <= 0:
        return []
    more: Line = [("class:dim", "  " + model.tr("ui.more", count=len(lines) - room + 1))]
    return [*lines[:room - 1], more]


HELP_VALUES: dict[str, dict[str, object]] = {"help.penalize": {"count": HINT_PENALTY}}
"""The numbers a help line names, by its key."""


def help_keys(model: ClientModel, plain: bool) -> list[str]:
    """The help's lines for where the player is: the table list's keys, the lobby's (the
    owner's too, for the owner), or the game's under the rules in force (no B without
    buzzers, no M without runs or sets)."""
    screen = model.screen
    if screen is Screen.TABLES:
        return ["help.tables_pick", "help.tables_join", "help.seat_tables",
                "help.tables_watch", "help.new_table", "help.name", "help.help", "help.quit"]
        # no chat: it is a table's (found in tmux: Tab opened "Say:" and Enter was refused)
    if screen in (Screen.LOBBY, Screen.CONNECTING):
        keys = ["help.seat_lobby", "help.name"] if model.watching else \
            ["help.ready", "help.seat_lobby", "help.name"]
        if model.is_owner:
            keys += ["help.start", "help.preset", "help.options", "help.change", "help.bots",
                     "help.kick"]
        if model.join_with is not None:
            keys.append("help.copy")
        return [*keys, "help.chat", "help.trust", "help.help", "help.leave"]
    if model.watching:
        return ["help.watching", "help.sit_match", *(["help.sides"] if model.flip else []),
                "help.chat", "help.trust", "help.help", "help.quit"]
    keys = ["help.pick", "help.play", "help.draw", "help.uno"]
    rules = model.rules()
    if (rules is None or rules.wd4_policy == "challenge") and not model.no_mercy:
        keys.append("help.challenge_flip" if model.flip else "help.challenge")
    if rules is None or rules.buzzers:
        keys.append("help.buzz")
    if rules is None or rules.sequences or rules.multiples:
        keys.append("help.mark")
    if rules is None or rules.jump_in != "off":
        keys.append("help.jump")
    if rules is None or rules.seven_zero:
        keys.append("help.target")
    keys += ["help.colors", *(["help.flip", "help.sides"] if model.flip else []),
             *(["help.roulette"] if model.no_mercy else []),
             *(["help.no_mercy"] if model.no_mercy and model.hand_limit is not None else []),
             *(["help.penalize"] if model.is_owner else []), "help.chat", "help.trust"]
    if screen is Screen.ROUND_END:
        keys.insert(0, "help.ready_round")
    keys += ["help.help", "help.quit"]
    if plain:
        keys.append("help.codes")
        if model.flip:
            keys.append("help.codes_dark")
        if model.no_mercy:
            keys.append("help.codes_no_mercy")
    return keys


def help_entries(model: ClientModel, plain: bool) -> list[str]:
    """The help's lines in words (help_keys, with the numbers they name)."""
    values: dict[str, dict[str, object]] = {
        **HELP_VALUES, "help.bots": {"level": model.tr(f"level.{model.bot_level}")},
        "help.no_mercy": {"limit": model.hand_limit}}
    return [model.tr(key, **values.get(key, {})) for key in help_keys(model, plain)]


def help_pages(model: ClientModel, plain: bool, width: int, height: int) -> list[list[str]]:
    """The help's lines in pages of `height` less the title: each key's line wrapped under
    itself, a key's lines on one page where they fit in one (found in tmux at 60x18: the
    help's long lines, a No Mercy card legend among them, were cut with no way to read the
    rest)."""
    room = max(1, height - 1)
    pages: list[list[str]] = [[]]
    for entry in help_entries(model, plain):
        parts = [("  " if index == 0 else "    ") + part
                 for index, part in enumerate(wrap(entry, max(1, width - 4)))]
        if pages[-1] and len(pages[-1]) + len(parts) > room:
            pages.append([])
        for part in parts:
            if len(pages[-1]) == room:
                pages.append([])
            pages[-1].append(part)
    return pages


def help_page_count(model: ClientModel, plain: bool, width: int, height: int) -> int:
    """How many pages the help takes on a screen `width` x `height` (compose's sizes)."""
    return len(help_pages(model, plain, width, height - 2))  # the title bar and the key bar


def help_lines(model: ClientModel, plain: bool, width: int, height: int) -> list[Line]:
    """The help in `height` lines: its page `model.help_page`, the title saying which of how
    many where there is more than one."""
    tr = model.tr
    pages = help_pages(model, plain, width, height)
    page = min(model.help_page, len(pages) - 1)
    title = tr("help.title")
    if len(pages) > 1:
        title += " " + tr("help.page", page=page + 1, pages=len(pages))
    lines: list[Line] = [[("class:heading", _cut(title, width))]]
    return lines + [[("", line)] for line in pages[page]]


def _cut(text: str, width: int, mark: str = "…") -> str:
    """`text` in `width` columns (wide characters counted), ending in `mark` if it had to be
    cut, without the spaces the cut left before it."""
    if get_cwidth(text) <= width:
        return text
    return within(text, max(0, width - get_cwidth(mark))).rstrip() + mark


# -- screens ------------------------------------------------------------------------------------


def compose(model: ClientModel, width: int, height: int, plain: bool,
            on_card: CardClick | None = None,
            on_chat: Callable[[int], None] | None = None) -> StyleAndTextTuples:
    """The whole screen above the chat input: exactly `height` lines of `width` columns."""
    look = Look(plain, on_card, color_keys(model.tr.lang), model.side, on_chat)
    screen = model.screen
    body_height = height - 2  # the title bar and the key bar
    keys: list[str] = ["key.help", "key.quit"]
    small = too_small_for(width, height)
    if small:
        body = too_small(model, width, height)
        keys = ["key.quit"]  # the game is hidden: only leaving works (the app ignores the rest)
    elif model.host_key is not None:
        body = host_key_lines(model.tr, model.host_key, width)
        keys = ["key.quit"]
    elif model.show_trust:
        body = trust_panel_lines(model, width, body_height)
        keys = ["trust.panel_keys"]
    elif model.show_sides:
        body = sides_panel_lines(model, width, body_height, look)
        keys = ["sides.panel_keys"]
    elif model.show_help:
        body = help_lines(model, plain, width, body_height)
        keys = ["ui.help_close" if len(help_pages(model, plain, width, body_height)) == 1
                else "ui.help_pages"]
    elif screen is Screen.GAME:
        body = game_body(model, width, body_height, look)
        keys = game_keys(model)
    elif screen is Screen.LOBBY:
        body = lobby_body(model, width, body_height, look)
        keys = ["lobby.keys_owner" if model.is_owner else
                "lobby.keys_watching" if model.watching else "lobby.keys", "key.help", "key.leave"]
    elif screen is Screen.TABLES:
        prompt = 1 if isinstance(model.local_prompt, QuitPrompt) else 0  # put above it
        body = tables_body(model, width, body_height - prompt)
        keys = ["tables.keys", "key.help", "key.quit"]
    elif screen is Screen.ROUND_END:
        body = round_end_body(model, width, body_height, look)
        keys = ["end.ready", "key.deck", "key.help", "key.quit"]
        if model.watching:
            keys = keys[1:]
    elif screen is Screen.MATCH_END:
        body = match_end_body(model, width, body_height, look)
        keys = ["end.rematch", "key.deck", "end.leave"]
        if model.watching:  # a rematch is the players' to ask for
            keys = keys[1:]
    else:
        # Why we are still connecting (a seat in use elsewhere, a full host, a refused
        # connection and the next attempt), or why we gave up: said here, or the player sees
        # nothing but "Connecting..." while the link tries again, or after it stopped trying.
        body = [] if model.offline else [[("", model.tr("ui.connecting"))]]
        if model.connection_detail or model.offline:
            body += [[("class:prompt", part)] for part in wrap(connection_line(model), width)]
        body += [[("class:notice", part)] for part in wrap(model.notice, width)] \
            if model.notice else []
    if model.offline and not (small or model.host_key is not None):
        # The host is gone: only leaving works; once tries ran out, say how to come back.
        # The host's own player: the host is this process, and says how to carry on once
        # the player leaves (a table that failed keeps its journal).
        later = ("key.resume_later" if model.hosting else "key.join_later"
                 if screen in (Screen.GAME, Screen.ROUND_END) else "key.join_again")
        keys = [later, "key.quit"] if model.connection == "lost" else ["key.quit"]
    if model.chat_focused and not small and model.host_key is None:
        # The input line has the keys: the screen's keys would type into it.
        keys = ["name.keys" if model.naming else "chat.keys"]
    asking = model.local_prompt
    if isinstance(asking, QuitPrompt | SeatPrompt) and (small or screen is not Screen.GAME):
        question: list[Line] = [[("class:prompt", part)]
                                for part in wrap(local_question(model, asking), width)]
        body = [*question, *body]
    body = (body + [[] for _ in range(body_height)])[:body_height]
    return to_text([header(model, width), *body, keybar(model, keys, width)], width)


def host_key_lines(tr: Translator, key: HostKeyWarning, width: int) -> list[Line]:
    """A changed host fingerprint, whole, the moment the link finds it: not a disconnect
    but a host that may not be the one we trusted; nothing more is sent to it."""
    lines: list[Line] = []
    for part in [*warning_said(tr, key), Said("prompt", tr("ui.key_printed"))]:
        if part.kind == "fingerprint":
            lines += [[("class:heading", line)] for line in fingerprint_lines(part.text, width)]
        elif part.kind == "command":
            lines += [[("", "  " + line)] for line in wrap(part.text, width - 2)]
        else:
            style = {"alert": "class:alert", "prompt": "class:prompt"}.get(part.kind, "")
            lines += [[(style, line)] for line in wrap(part.text, width)]
    return lines


def too_small_for(width: int, height: int) -> bool:
    """Whether a screen `width` x `height` (lines above the chat input) is below the smallest
    that shows the table: it then asks for a larger terminal instead."""
    return width < MIN_WIDTH or height < MIN_HEIGHT


def too_small(model: ClientModel, width: int, height: int) -> list[Line]:
    """Below the smallest screen: what to do, instead of a table with parts cut off (the
    sizes are the terminal's: the chat input takes one line more than the screen)."""
    text = model.tr("ui.too_small", width=MIN_WIDTH, height=MIN_HEIGHT + 1,
                    now=f"{width}x{height + 1}")
    return [[("class:prompt", part)] for part in wrap(text, width)]


HAND_ROWS = 5
"""The most lines the hand takes: its title and two rows of cards, each with its keys."""


def game_body(model: ClientModel, width: int, height: int, look: Look) -> list[Line]:
    table = players(model, width, look, height - 8 - 3)  # leave the log a heading and 2 lines
    waiting = status(model, look, width)
    notice = notice_line(model)
    if width_of(waiting) > width and (not notice or model.prompt is not None
                                      or model.offline):
        # A long question takes the notice's line: a question our keys answer now matters
        # more than the news of a key pressed before it (its choices must not be cut); so
        # does why the host cannot be reached, the one thing that matters while it is so.
        waiting, notice = fold_line(waiting, width)
        notices = [notice]
    elif width_of(notice) > width:
        # A long notice (a seat that may not be taken yet, and why) takes a second line from
        # the log below rather than losing its end at the screen's edge.
        notices = list(fold_line(notice, width))
    else:
        notices = [notice]
    lines: list[Line] = [*table, centre(model, look, width), waiting, *notices]
    hand = hand_lines(model, width, HAND_ROWS, look)[:HAND_ROWS]
    # A hand of one row of cards leaves its second row to the log (found in tmux: at 60x18
    # the log had two lines under a hand that took three of its five).
    hand_rows = min(HAND_ROWS, len(hand) + 1)
    bottom = height - len(lines) - hand_rows
    lines += (hand + [[]] * hand_rows)[:hand_rows]
    if bottom > 0:
        right_width = chat_pane_width(model, width)
        left_width = width - right_width - 1
        log = log_lines(model, left_width, bottom - 1)
        chat, back = chat_view(model, right_width, bottom - 1, look)
        heads = side_by_side([[("class:heading", model.tr("ui.log"))]],
                             [chat_title(model, right_width, back)], left_width, width)
        lines += heads + side_by_side(log, chat, left_width, width)
    return lines


def rules_in_words(model: ClientModel) -> list[str]:
    """The table's rules as sentences: each option that differs from the official rules."""
    lobby = model.lobby
    if lobby is None:
        return []
    return differences(lobby.rules, model.tr.lang) or [model.tr("lobby.official")]


LOBBY_NOTICE_LINES = 3
"""The most lines a notice takes in the lobby: the seats and rules stay in view."""


def preset_words(model: ClientModel) -> str:
    """The table's preset as the lobby heads its rules: its id (what `--rules` and SPEC.md
    call it) and what it is, where we know ("seed000: Italian Wikipedia"); an id that only
    the host knows, escaped."""
    preset = (model.lobby.preset if model.lobby is not None else None) or "official"
    what = preset_meaning(model.tr, preset)
    if preset == "official" or what is None:
        return shown(preset)  # "Rules (official)" says it; a host's own, escaped
    return f"{preset}: {what}"


EMPTY_RUN = 3
"""Consecutive empty seats shown as one row ("2-10. (empty seats)"): a table opened from the
list has ten seats, and nine rows saying "empty" left its rules two lines."""


def seat_rows(seats: Sequence[SeatInfo]) -> list[tuple[int, int]]:
    """The lobby's rows as (first, last) seat indices: each seat its own row, but a run of
    EMPTY_RUN or more empty seats one row."""
    rows: list[tuple[int, int]] = []
    index = 0
    while index < len(seats):
        end = index
        if seats[index].kind == "empty":
            while end + 1 < len(seats) and seats[end + 1].kind == "empty":
                end += 1
        if end - index + 1 >= EMPTY_RUN:
            rows.append((index, end))
        else:
            rows.extend((seat, seat) for seat in range(index, end + 1))
        index = end + 1
    return rows


def lobby_body(model: ClientModel, width: int, height: int, look: Look | None = None
               ) -> list[Line]:
    tr = model.tr
    lobby = model.lobby
    assert lobby is not None
    lines: list[Line] = []
    # The status column: 12, or as wide as its longer word and a space ("não está pronto").
    status_width = max(12, 1 + get_cwidth(tr("lobby.ready")), 1 + get_cwidth(tr("lobby.not_ready")))
    # The seats the rules fill (a No Mercy table seats six of its ten), and any taken beyond.
    most = lobby.rules.get("max_players")
    if isinstance(most, int):
        last_taken = max((seat.seat for seat in lobby.seats if seat.kind != "empty"), default=-1)
        rows = seat_rows(lobby.seats[:max(most, last_taken + 1)])
    else:
        rows = seat_rows(lobby.seats)
    labels = [f"{first + 1}." if first == last else f"{first + 1}-{last + 1}."
              for first, last in rows]
    label_width = max([3, *(len(label) for label in labels)])  # a host may list no seat
    for (first, last), label in zip(rows, labels, strict=True):
        info = lobby.seats[first]
        if info.kind == "empty":
            who = tr("lobby.empty" if first == last else "lobby.empty_run")
        else:
            who = info.name or tr("ui.seat", seat=info.seat + 1)
        tags = []
        if info.kind == "bot":
            tags.append(tr("ui.bot"))
        if lobby.owner == info.seat:
            tags.append(tr("lobby.owner"))
        if lobby.you == info.seat:
            tags.append(tr("ui.you"))
        if info.kind == "human" and not info.connected:
            tags.append(tr("ui.offline"))
        ready = ("" if info.kind == "empty"  # nobody there to be ready or not
                 else tr("lobby.ready") if info.ready else tr("lobby.not_ready"))
        style = "class:ok" if info.ready else "class:dim"
        lines.append([("", f" {label:>{label_width}} {pad(_cut_name(who, 20, ''), 20)} "),
                      (style, pad(ready, status_width)), ("class:dim", ", ".join(tags))])
    if lobby.spectators:
        lines.append([("class:dim", "  " + tr("lobby.spectators", count=lobby.spectators))])
    # A notice whole (a refusal's reason, why a seat cannot be taken) in up to three lines,
    # a host's longer one cut there; one line, empty, when there is none. While the host is
    # gone, how it went and what comes next, there (the title bar said only "reconnecting").
    said, style = ((connection_line(model), "class:prompt") if model.offline
                   else (model.notice, "class:notice"))
    lines += [[(style, part)] for part in wrap_within(said, width, LOBBY_NOTICE_LINES)] or [[]]
    preset = lobby.preset or "official"
    # against the preset's whole rule set: the options its variant sets read as changes
    # (an untouched No Mercy table said "no_mercy, changed")
    changed = preset in PRESETS and bool(rule_changes(preset_rules(preset).to_dict(),
                                                      lobby.rules, tr.lang))
    heading = tr("lobby.rules_changed" if changed else "lobby.rules", preset=preset_words(model))
    lines.append([("class:heading", heading)])
    if model.is_owner:
        meaning = meaning_lines(model, width)
        lines += option_lines(model, max(3, height - len(lines) - 5 - len(meaning)))
        lines += meaning
    else:
        lines += guest_rule_lines(model, width, height - len(lines) - 3)
    if not model.is_owner and not lobby.started:
        # A dedicated server's table has no owner (SPEC [UNO-8-6]): it starts on its own.
        waiting = "lobby.wait_owner" if lobby.owner is not None else "lobby.wait_ready"
        lines += [[("class:dim", part)] for part in wrap_within(tr(waiting), width, 2)]
    if lobby.started:
        lines += [[("class:prompt", part)] for part in wrap_within(tr("lobby.starting"), width, 2)]
    lines += join_lines(model, width)
    room = height - len(lines) - 1
    if room > 1:
        chat, back = chat_view(model, width, room - 1, look)
        lines.append(chat_title(model, width, back))
        lines += chat
    return lines


def join_lines(model: ClientModel, width: int) -> list[Line]:
    """How friends join, on lines of its own: what it is, then the command alone on its line,
    never wrapped (a copy of a wrapped command breaks it; `c` copies it whole in any case).
    The host makes it short enough for 60 columns (host/run.py join_command)."""
    join = model.join_with
    if join is None:
        return []
    tr = model.tr
    label = (tr("lobby.join_with_or", addresses=join.others) if join.others
             else tr("lobby.join_with"))
    return [[("class:dim", _cut(label, width))],
            [("class:heading", _cut(join.command, width))]]


def guest_rule_lines(model: ClientModel, width: int, rows: int) -> list[Line]:
    """Every option that differs from the official rules, in two columns when one does not
    fit in `rows` (a guest sees the whole rule set, not the editor); when two do not either,
    the last cell says how many more there are."""
    texts = rules_in_words(model)
    if rows < 1:
        return []
    if len(texts) <= rows:
        return [[("", "  " + text)] for text in texts]
    if len(texts) > 2 * rows:  # not even in two columns: the last cell counts the rest
        kept = 2 * rows - 1
        texts = [*texts[:kept], model.tr("ui.more", count=len(texts) - kept)]
    half = (len(texts) + 1) // 2
    column = column_split(texts[:half], texts[half:], width)
    left: list[Line] = [[("", "  " + rule_within(text, column - 3))] for text in texts[:half]]
    right: list[Line] = [[("", " " + rule_within(text, width - column - 2))]
                         for text in texts[half:]]
    return [[*clip(a, column), *clip(b, width - column)]
            for a, b in zip(left, right + [[]] * (len(left) - len(right)), strict=True)]


def column_split(left: Sequence[str], right: Sequence[str], width: int) -> int:
    """Where guest_rule_lines' second column starts: after the first's longest rule where the
    second's longest still fits beside it, else the width shared in proportion to what each
    needs (half each cut "Draw with a playable ca…" at 78 columns beside "Sequences: yes")."""
    need_left = max((get_cwidth(text) for text in left), default=0) + 3  # indent, a space
    need_right = max((get_cwidth(text) for text in right), default=0) + 2
    if need_left + need_right <= width:
        return need_left
    share = width * need_left // (need_left + need_right)
    return min(max(share, width // 3), width - width // 3)


def rule_within(text: str, width: int) -> str:
    """A rule's "title: value" in `width` columns: its title cut with "…", its value whole
    (found in tmux at 60 columns: "Comprar com carta jogável: " had lost "proibido"), unless
    the value alone does not fit."""
    if get_cwidth(text) <= width:
        return text
    title, colon, value = text.rpartition(": ")
    room = width - get_cwidth(colon + value)
    if not colon or room < 2:
        return _cut(text, width)
    return _cut(title, room) + colon + value


def option_lines(model: ClientModel, rows: int) -> list[Line]:
    """The owner's option list around the cursor (only what the engine plays), each with its
    value in words."""
    tr = model.tr
    lobby = model.lobby
    assert lobby is not None
    infos = model.shown_options
    base = RuleSet()
    at = editor_options()[min(model.option_cursor, len(editor_options()) - 1)]
    cursor = infos.index(at) if at in infos else -1
    first = max(0, min(cursor - rows // 2, len(infos) - rows))
    variant = str(lobby.rules.get("variant", base.variant))  # titles in its card names
    lines: list[Line] = []
    for index in range(first, min(len(infos), first + rows)):
        info = infos[index]
        value = lobby.rules.get(info.name, getattr(base, info.name))
        mark = ">" if index == cursor else " "
        changed = value != getattr(base, info.name)
        style = "class:cursor" if index == cursor else ""
        title = option_title(info.name, tr.lang, variant)[:32]
        lines.append([(style, f" {mark} {title:<32} "),
                      ("class:prompt" if changed else "",
                       value_words(info.name, value, tr.lang, variant))])
    return lines


def meaning_lines(model: ClientModel, width: int) -> list[Line]:
    """What the option under the editor's cursor is about, in a line or two (RULEBOOK.md's
    words, from unonet.rulebook), in the card names of the table's variant."""
    infos = editor_options()
    info = infos[min(model.option_cursor, len(infos) - 1)]
    rules = model.lobby.rules if model.lobby is not None else {}
    variant = str(rules.get("variant", RuleSet().variant))
    text = model.tr("ui.meaning", text=option_meaning(info.name, model.tr.lang, variant))
    # cut, and seen to be: the rest is in RULEBOOK.md
    return [[("class:dim", "   " + part)] for part in wrap_within(text, width - 4, MEANING_LINES)]


MEANING_LINES = 2
"""The lines the option under the owner's cursor is explained in: the options stay in view."""


def tables_body(model: ClientModel, width: int, height: int) -> list[Line]:
    """The host's tables, under our name and the notice, in `height` lines: a refusal that
    sent us here (a lost seat, a table that is not there) says why in as many lines as it
    takes, and a list longer than the room left scrolls with the selection, each cut end
    saying how many more tables lie that way (a club's host opens dozens)."""
    tr = model.tr
    lines: list[Line] = [[("class:heading", tr("tables.title"))],
                         [("", tr("tables.name", name=model.my_name or "player"))]]
    room = max(1, height - len(lines) - min(3, len(model.tables or ())))  # the list's first 3
    # a host's message of a thousand characters is cut: the list stays seen
    notice = wrap_within(model.notice, width, room) if model.notice else []
    lines += [[("class:notice", part)] for part in notice] if notice else [[]]
    if not model.tables:
        return [*lines, [("", tr("tables.none"))]]
    rows: list[Line] = []
    for i, table in enumerate(model.tables):
        mark = ">" if i == model.table_cursor else " "
        state = ""
        if table.started:
            key = ("tables.playing" if table.open is None
                   else "tables.playing_open" if table.open else "tables.playing_watch")
            state = f" ({tr(key, count=table.open)})"
        elif table.open == 0 and table.players and table.bots == table.players:
            # Seated by bots alone, its match starts for its first watcher ([UNO-8-6]):
            # "2/2 players" read as a full table, and Enter was refused.
            state = f" ({tr('tables.bots_only')})"
        # What a table's name cannot have of the line, it gives up with "…": how full the
        # table is and whether a seat is open stay whole (found at 60 columns in a club's
        # list: "Mesa de Zé Maria da Silva Santos: 4/10 players (playing,").
        over = get_cwidth(f" {mark} " + tr("tables.line", name=table.name, players=table.players,
                                           seats=table.seats) + state) - width
        name = (_cut(table.name, max(ELLIPSIS_FROM, get_cwidth(table.name) - over))
                if over > 0 else table.name)
        text = tr("tables.line", name=name, players=table.players, seats=table.seats) + state
        rows.append([("class:cursor" if i == model.table_cursor else "", f" {mark} {text}")])
    return [*lines, *_scrolled(model, rows, model.table_cursor, height - len(lines))]


def _scrolled(model: ClientModel, rows: list[Line], cursor: int, room: int) -> list[Line]:
    """`rows` in `room` lines with row `cursor` among them: where some are cut off, a line at
    that end says how many ("+N more"); the cursor's row is kept near the middle."""
    count = len(rows)
    if count <= room:
        return rows
    room = max(room, 3)  # the cursor's row and a line for each end, whatever the notice took
    if cursor < room - 1:  # among the first ones: cut below only
        start, end = 0, room - 1
    elif cursor >= count - (room - 1):  # among the last ones: cut above only
        start, end = count - (room - 1), count
    else:
        shown = room - 2
        start = cursor - shown // 2
        end = start + shown

    def more(hidden: int) -> list[Line]:
        return [[("class:dim", "   " + model.tr("ui.more", count=hidden))]] if hidden else []

    return [*more(start), *rows[start:end], *more(count - end)]


def match_winner_words(model: ClientModel, winner: int | None) -> str:
    """Who won the match: under teams=pairs the winner's team, partners and all (a partner
    of the winner has won too, and read "Dario wins the match!")."""
    teams = model.teams()
    view = model.view
    team = (view.seats[winner].team if view is not None and winner is not None
            and 0 <= winner < len(view.seats) else None)
    if team is None or team not in teams:
        return winner_words(model, "end.match", winner)
    names = " + ".join(model.name(seat) for seat in teams[team])
    if model.me in teams[team]:
        return model.tr("end.match_team_you", names=names)
    return model.tr("end.match_team", team=team_name(team), names=names)


def winner_words(model: ClientModel, key: str, winner: int | None, **values: object) -> str:
    """`key`'s sentence naming the winner, or its "_you" form when the winner is us."""
    if winner is not None and winner == model.me:
        return model.tr(f"{key}_you", **values)
    return model.tr(key, name=model.name(winner), **values)


def result_lines(model: ClientModel, result: RoundResult, width: int, room: int,
                 look: Look) -> list[Line]:
    """A round's table: each player's points, total and the cards left in hand, wrapped under
    the cards column. With `room` lines for the rows, a hand that still does not fit ends in
    "+N more (P pts)", so the points always add up."""
    tr = model.tr
    indent = 33
    per_line = max(1, (width - indent - 1) // 6)
    lines: list[Line] = [[("class:dim", f" {tr('end.col_player')[:14]:<14} "
                                        f"{tr('end.col_points')[:7]:>7} "
                                        f"{tr('end.col_total')[:7]:>7}  {tr('end.col_left')}")]]
    spare = max(0, room - len(result.hands))
    for seat in range(len(result.hands)):
        faces = result_faces(model, result, seat)
        needed = (len(faces) + per_line - 1) // per_line
        given = max(1, min(needed, 1 + spare))
        spare -= given - 1
        shown = faces
        if given < needed:  # the last line gives a card's room to the count
            shown = faces[:given * per_line - 2]
        rows: list[Line] = [[("class:me" if seat == model.me else "",
                              f" {pad(_cut_name(model.name(seat), 14, ''), 14)} "
                              f"{result.points[seat]:>7} "
                              f"{result.scores[seat]:>7}  ")]]
        for index, face in enumerate(shown):
            if index and index % per_line == 0:
                rows.append([("", " " * indent)])
            rows[-1] += [*card_chip(face, replace(look, side=result.side),
                                    in_hand=False), ("", " ")]
        hidden = faces[len(shown):]
        if hidden:  # scored by the side the round ended on (UNO Flip)
            points = sum(face.points for face in hidden if face is not None)
            rows[-1].append(("class:dim", tr("end.more", count=len(hidden), points=points)))
        lines += rows
    return lines


def result_faces(model: ClientModel, result: RoundResult, seat: int) -> list[Face | None]:
    """A hand's cards at a round's end, read on the side it ended on: as read then (UNO Flip's
    dark faces are the round's), else now."""
    hand = result.hands[seat]
    if seat < len(result.faces) and len(result.faces[seat]) == len(hand):
        return list(result.faces[seat])
    return [model.face(card, result.side) for card in hand]


def round_end_body(model: ClientModel, width: int, height: int, look: Look) -> list[Line]:
    """The round's result: each hand left and its points, the totals, who is ready."""
    tr = model.tr
    if not model.results:
        return []
    result = model.results[-1]
    rules = model.rules()
    after: list[Line] = [[("class:dim", " " + tr("end.target", target=rules.target))]] \
        if rules is not None else []
    after.append([])
    if model.offline:  # how the host went and what comes next (a host that left between rounds)
        after += [[("class:prompt", part)] for part in wrap_within(connection_line(model), width,
                                                                    2)]
    elif model.notice:  # no line kept empty for it: the hands have it
        after.append(notice_line(model))
    waiting = _not_ready(model)
    if waiting:
        after.append([("", tr("end.waiting", names=", ".join(waiting)))])
    lines: list[Line] = [
        [("class:heading", winner_words(model, "end.round", result.winner,
                                        round=result.round_no))],
        [],
    ]
    # The hands get every line but the heading's two, their column titles and what follows.
    lines += result_lines(model, result, width, height - len(lines) - 1 - len(after), look)
    lines += after
    room = height - len(lines) - 1
    if room > 0:
        lines.append([("class:heading", tr("ui.log"))])
        lines += log_lines(model, width, room - 1)
    return lines


def _not_ready(model: ClientModel) -> list[str]:
    """Who the next round or the rematch waits for, "(you)" marking us as the table's rows
    do: "Waiting for: Ana" did not tell Ana that the wait was hers."""
    lobby = model.lobby
    if lobby is None:
        return []
    return [model.name(s.seat) + (you_mark(model) if s.seat == lobby.you else "")
            for s in lobby.seats if s.kind == "human" and not s.ready]


def standing(model: ClientModel, seat: int) -> tuple[bool, int]:
    """Where a seat is listed at the match's end: the winner first, then the best totals
    (the highest when the winner collects, the lowest under lowest_wins and elimination)."""
    view = model.view
    assert view is not None
    rules = model.rules()
    score = view.seats[seat].score
    lowest = rules is not None and rules.scoring != "winner_collects"
    return seat != view.match_winner, score if lowest else -score


def match_end_body(model: ClientModel, width: int, height: int, look: Look) -> list[Line]:
    """The winner, the final scores, every round's points (the last rounds that fit), then
    the last round's hands, so the final score can be checked card by card."""
    tr = model.tr
    view = model.view
    assert view is not None
    rounds = model.results[-max(1, (width - 26) // 6):]
    # Rounds left out on the left are said: "#10 … #14" under a bare heading read as the
    # whole match, the totals not adding up (found at 60 columns after fourteen rounds).
    heading = (tr("end.history") if len(rounds) == len(model.results) else
               tr("end.history_last", count=len(rounds), total=len(model.results)))
    lines: list[Line] = [
        [("class:uno", match_winner_words(model, view.match_winner))], [],
        [("class:heading", heading)],
    ]
    head = f" {tr('end.col_player')[:14]:<14} {tr('end.col_total')[:7]:>7} "
    head += "".join(f"{'#' + str(r.round_no):>6}" for r in rounds)
    lines.append([("class:dim", head)])
    order = sorted(range(len(view.seats)), key=lambda s: standing(model, s))
    for seat in order:
        text = f" {pad(_cut_name(model.name(seat), 14, ''), 14)} {view.seats[seat].score:>7} "
        text += "".join(f"{r.points[seat]:>6}" for r in rounds)
        lines.append([("class:me" if seat == model.me else "", text)])
    if model.results:
        last = model.results[-1]
        lines += [[], [("class:heading", winner_words(model, "end.round", last.winner,
                                                      round=last.round_no))]]
        waiting = _not_ready(model) if model.rematch_asked else []
        after = 2 if waiting else 0
        lines += result_lines(model, last, width, height - len(lines) - 1 - after, look)
        if waiting:  # we asked for a rematch ([UNO-8-11]): who has not yet
            lines += [[], [("", tr("end.waiting", names=", ".join(waiting)))]]
    return lines
