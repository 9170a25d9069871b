"""The full-screen terminal client: prompt-toolkit layout, keys, mouse, bell, around the model.

One window draws `render.compose(model)`; one line below it is the chat input. Every key goes
to `ClientApp.handle(key)`, which asks the model for an intent and sends it through the
`TableLink` (client/link.py). Updates from the link land in `deliver`, on the same thread, and
redraw the screen. The app owns no game logic: what may be done comes from the legal actions.

Keys (the rule sheets' own: Space draws, U calls UNO and catches, F challenges, B buzzes; M
marks cards for a run or a multiple; arrows and Enter pick a 7's swap target):
see `help_keys` in render.py, which the help overlay shows for the screen and the rules in
force, and a test checks against `handle`.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import os
import pwd
from collections.abc import Mapping

from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.document import Document
from prompt_toolkit.filters import Filter, has_focus
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import HSplit, Layout, Window
from prompt_toolkit.layout.controls import BufferControl, FormattedTextControl
from prompt_toolkit.layout.processors import BeforeInput
from prompt_toolkit.output import ColorDepth, Output

from client import render
from client.i18n import Translator, pick_language
from client.link import TableLink, Update
from client.lobby import LOBBY_COMMANDS, LobbyCommand
from client.model import (
    ChallengePrompt,
    ClientModel,
    ColorPrompt,
    QuitPrompt,
    Screen,
    SeatPrompt,
    TargetPrompt,
)
from protocol.limits import MAX_CHAT_CHARS, MAX_NAME_CHARS
from unonet.actions import Action

TIMER_TICK = 0.25
"""Seconds between redraws while a timer runs: its whole seconds change on time (a redraw a
second could show one second late)."""

CHAT_SCROLL = 3
"""Lines a PgUp or PgDn moves the chat: the lobby's pane at the smallest screen."""

KEYS = (
    "left", "right", "up", "down", "enter", "space", "escape",
    "0", "1", "2", "3", "4", "5", "6", "7", "8", "9",
    "a", "b", "c", "e", "f", "g", "k", "l", "m", "n", "o", "p", "q", "r", "s", "t", "u", "v",
    "w",
    "x", "y",
    "?",
)
"""Keys handled while the game has the focus (capitals are folded to these)."""


def plain_wanted(environ: Mapping[str, str], output: Output | None = None) -> bool:
    """No colour when NO_COLOR is set (no-color.org), TERM is dumb, or the terminal has none."""
    if environ.get("NO_COLOR"):
        return True
    if environ.get("TERM") == "dumb":
        return True
    return output is not None and output.get_default_color_depth() is ColorDepth.DEPTH_1_BIT


class ClientApp:
    """The terminal client for one seat (or a spectator), talking through `link`."""

    def __init__(
        self,
        model: ClientModel,
        link: TableLink,
        *,
        plain: bool = False,
        bell: bool = True,
        input: Input | None = None,
        output: Output | None = None,
    ) -> None:
        self.model = model
        self.link = link
        self.plain = plain
        self.bell_enabled = bell
        self.bells = 0
        self.copied: list[str] = []  # what `c` put in the clipboard, in order
        self.chat_rows = 1
        """The chat pane's rows when last drawn (render.chat_view): PgUp goes back a paneful
        short of all the chat's lines."""
        self.sent: list[Action | LobbyCommand | str] = []
        self.chat_buffer = Buffer(multiline=False, accept_handler=self._accept_line,
                                  on_text_changed=self._bounded)
        self.body = Window(
            FormattedTextControl(self._text, focusable=True, show_cursor=False),
            always_hide_cursor=True,
        )
        self.chat_window = Window(
            BufferControl(self.chat_buffer, input_processors=[BeforeInput(self._input_prompt)]),
            height=1,
            # From its first column each time, scrolled only as far as the cursor needs: the
            # window kept a long chat line's scroll, and `e` then asked "ur name:".
            get_horizontal_scroll=lambda window: 0,
        )
        self.app: Application[None] = Application(
            layout=Layout(HSplit([self.body, self.chat_window]), focused_element=self.body),
            key_bindings=self._bindings(),
            style=render.STYLE,
            full_screen=True,
            mouse_support=True,
            input=input,
            output=output,
            color_depth=ColorDepth.DEPTH_1_BIT if plain else None,
        )

    # -- running -----------------------------------------------------------------------------------

    def run(self) -> None:
        """Run until the player leaves (blocking; starts its own asyncio loop)."""
        self.app.run(pre_run=self._start)

    async def run_async(self) -> None:
        """Run on the current asyncio loop (the network glue starts trio as its guest)."""
        await self.app.run_async(pre_run=self._start)

    def _start(self) -> None:
        self.link.start(self.deliver)
        self.app.create_background_task(self._count_down())

    async def _count_down(self) -> None:
        """While a timer of the game runs: the screen shows its seconds going, and a timer of
        ours rings once near its end (model.timer_bell), unless --no-bell."""
        while True:
            await asyncio.sleep(TIMER_TICK)
            if self.model.timer is None:
                continue
            if self.model.timer_bell():
                self.ring()
            self.app.invalidate()

    def ring(self) -> None:
        if self.bell_enabled:
            self.bells += 1
            self.app.output.bell()

    def deliver(self, update: Update) -> None:
        """An update from the link: fold it in, ring if our decision starts, redraw."""
        self.model.apply(update)
        while self.model.outbox:
            self.send(self.model.outbox.pop(0))
        if self.model.bell:
            self.model.bell = False
            self.ring()
        self.app.invalidate()

    def _text(self) -> StyleAndTextTuples:
        width, height = self._screen_size()
        return render.compose(self.model, width, height, self.plain, on_card=self.click_card,
                              on_chat=self._chat_drawn)

    def _chat_drawn(self, rows: int) -> None:
        self.chat_rows = rows

    def _screen_size(self) -> tuple[int, int]:
        """The columns and lines the screen draws in (the chat input takes the last line)."""
        size = self.app.output.get_size()
        return size.columns, max(3, size.rows - 1)

    # -- sending -----------------------------------------------------------------------------------

    def send(self, intent: Action | LobbyCommand | None) -> None:
        if intent is None:
            return
        self.sent.append(intent)
        if isinstance(intent, LOBBY_COMMANDS):
            self.link.send_lobby(intent)
        else:
            self.link.send_intent(intent)

    def _input_prompt(self) -> str:
        """What the input line starts with: what it takes while it has the keys (a chat line
        looked like nothing at all: the lobby's keys then typed into it unseen)."""
        if self.model.naming:
            return self.model.tr("ui.name_prompt") + " "
        return self.model.tr("ui.chat_prompt") + " " if self.model.chat_focused else "> "

    def _bounded(self, buffer: Buffer) -> None:
        """The input line stops at what the host takes (a name's or a chat line's length), so
        what is typed past it is seen not to go in, rather than cut from the line sent (it
        was cut at 200 characters, unsaid, where the host takes 512)."""
        most = MAX_NAME_CHARS if self.model.naming else MAX_CHAT_CHARS
        if len(buffer.text) > most:
            buffer.document = Document(buffer.text[:most], most)

    def _accept_line(self, buffer: Buffer) -> bool:
        """Enter on the input line: our new name after `e`, else a chat line. Not while the
        window is too small to show it: the line stays, for Enter once it is seen again."""
        if render.too_small_for(*self._screen_size()):
            return True  # keep the text
        if self.model.naming:
            self.model.naming = False
            self.send(self.model.set_name(buffer.text))
            self.focus_table()
            return False
        text = self.model.chat_line(buffer.text)
        if text is not None:
            self.sent.append(text)
            self.link.send_chat(text)
        self.focus_table()
        return False  # clear the line

    def click_card(self, card: int) -> None:
        """A click selects a card; a click on the selected card plays it."""
        if self.model.selected_card == card:
            self.send(self.model.play_selected())
        else:
            self.model.select_card(card)
        self.app.invalidate()

    def leave(self) -> None:
        self.link.close()
        if self.app.is_running:
            self.app.exit()

    # -- keys --------------------------------------------------------------------------------------

    def _bindings(self) -> KeyBindings:
        kb = KeyBindings()
        chatting = self._chatting

        for key in KEYS:
            @kb.add(key, filter=~chatting)
            def _(event: KeyPressEvent, key: str = key) -> None:
                self.handle(key)

            if key.isalpha() and len(key) == 1:

                @kb.add(key.upper(), filter=~chatting)
                def _(event: KeyPressEvent, key: str = key) -> None:
                    self.handle(key)

        @kb.add("tab")
        def _(event: KeyPressEvent) -> None:
            self.toggle_chat()

        @kb.add("escape", filter=chatting)
        def _(event: KeyPressEvent) -> None:
            if self.model.naming:
                self.model.naming = False
                self.chat_buffer.reset()
            self.focus_table()

        @kb.add("c-c")
        def _(event: KeyPressEvent) -> None:
            self.handle("c-c")

        # The chat's earlier lines, whoever has the keys: at 60x18 the lobby's chat has three
        # lines, and the host's own "friends join with" line took four.
        @kb.add("pageup")
        def _(event: KeyPressEvent) -> None:
            self.scroll_chat(CHAT_SCROLL)

        @kb.add("pagedown")
        def _(event: KeyPressEvent) -> None:
            self.scroll_chat(-CHAT_SCROLL)

        return kb

    @property
    def _chatting(self) -> Filter:
        return has_focus(self.chat_buffer)

    def scroll_chat(self, lines: int) -> None:
        size = self.app.output.get_size()
        self.model.scroll_chat(lines, render.chat_depth(self.model, size.columns,
                                                        self.chat_rows))

    def toggle_chat(self) -> None:
        self.model.naming = False
        if self.app.layout.has_focus(self.chat_buffer):
            self.focus_table()
        elif self.model.screen is not Screen.TABLES:  # the table list has no chat to say in
            self.focus_input()

    def focus_table(self) -> None:
        """The table takes the keys back: chat lines from now on are unread."""
        self.app.layout.focus(self.body)
        self.model.focus_chat(False)

    def focus_input(self) -> None:
        """The input line takes the keys (chat, or a name): the chat counts as read."""
        self.app.layout.focus(self.chat_buffer)
        self.model.focus_chat(True)

    def handle(self, key: str) -> None:
        """One key, while the game has the focus: the open prompt first, then the screen."""
        model = self.model
        if model.host_key is not None:
            # Nothing more goes to that host: the warning is the whole screen, q leaves at once
            # (a confirmation would be hidden under it).
            if key in ("q", "c-c", "escape"):
                self.leave()
            return
        if render.too_small_for(*self._screen_size()) and key not in ("q", "c-c") \
                and not isinstance(model.prompt, QuitPrompt | SeatPrompt):
            # Found in tmux: a window shrunk on our turn hid the game, and Enter played the
            # chosen card unseen. Only leaving works, and what answers a question on screen.
            return
        if model.show_help:
            if key in ("down", "up"):  # a help longer than the screen turns its pages
                pages = render.help_page_count(model, self.plain, *self._screen_size())
                model.turn_help_page(1 if key == "down" else -1, pages)
            else:
                model.show_help = False
            return
        if model.show_trust and key not in ("q", "c-c"):
            if key in ("t", "escape"):
                model.toggle_trust()  # the panel covers the table: other keys wait for it
            return
        if model.show_sides and key not in ("q", "c-c"):
            if key in ("o", "escape"):
                model.toggle_sides()  # as the trust panel: the table waits under it
            return
        prompt = model.prompt
        if key == "c-c" and isinstance(prompt, QuitPrompt):
            self.leave()
            return
        if key in ("q", "c-c"):
            model.request_quit()
            return
        if isinstance(prompt, QuitPrompt):
            if key in ("y", model.tr("key.yes")):  # s in it and pt (sì, sim); y everywhere
                self.leave()
            else:
                model.cancel_prompt()
            return
        if key == "?":
            model.toggle_help()
            return
        if key == "t":
            model.toggle_trust()
            return
        if key == "o" and model.flip and model.screen in (Screen.GAME, Screen.ROUND_END):
            model.toggle_sides()
            return
        if key == "escape":
            model.cancel_prompt()
            return
        if model.offline:
            return  # nothing can be sent until the host is back: the status line says why
        if isinstance(prompt, ColorPrompt) and self._color_key(key, prompt):
            return
        if isinstance(prompt, TargetPrompt) and self._target_key(key):
            return
        if isinstance(prompt, SeatPrompt):  # a seat's number answers it; any other key: no
            if key.isdigit():
                self.send(model.pick_seat(_seat_of(key)))
            else:
                model.cancel_prompt()
            return
        handlers = {
            Screen.GAME: self._game_key,
            Screen.LOBBY: self._lobby_key,
            Screen.TABLES: self._tables_key,
            Screen.ROUND_END: self._round_end_key,
            Screen.MATCH_END: self._match_end_key,
        }
        handler = handlers.get(model.screen)
        if handler is not None:
            handler(key, prompt)

    def _color_key(self, key: str, prompt: ColorPrompt) -> bool:
        for color, letter in render.color_keys(self.model.tr.lang).items():
            if key == letter and color in prompt.colors:
                self.send(self.model.choose_color(color))
                return True
        if key.isdigit() and key != "0":
            self.send(self.model.choose_color_index(int(key) - 1))
            return True
        return False

    def _target_key(self, key: str) -> bool:
        """The swap chooser: arrows move, Enter swaps, a digit swaps with that seat."""
        model = self.model
        if key in ("left", "up", "right", "down"):
            model.move_target(-1 if key in ("left", "up") else 1)
        elif key == "enter":
            self.send(model.choose_target_at_cursor())
        elif key.isdigit():
            self.send(model.choose_target(_seat_of(key)))
        else:
            return False
        return True

    def _game_key(self, key: str, prompt: object) -> None:
        model = self.model
        if model.watching:
            self._watching_key(key)
        elif key in ("left", "up"):
            model.select_prev()
        elif key in ("right", "down"):
            model.select_next()
        elif key.isdigit():
            model.select_index(int(key) - 1 if key != "0" else 9)
        elif key == "enter":
            self.send(model.play_selected())
        elif key == "space":
            self.send(model.draw())
        elif key == "u":
            self.send(model.uno())
        elif key == "f":
            self.send(model.challenge())
        elif key == "b":
            self.send(model.buzz())
        elif key == "m":
            model.toggle_mark()
        elif key == "n" and isinstance(prompt, ChallengePrompt):
            self.send(model.accept())
        elif key == "p":
            model.ask_penalty()

    def _watching_key(self, key: str) -> None:
        """A spectator's keys on the table: a seat number sits there if its player is gone;
        a player's key says that we are watching."""
        if key.isdigit():
            self.send(self.model.take_seat(_seat_of(key)))
        elif key in ("enter", "space", "u", "f", "b", "m"):
            self.model.notice = self.model.tr("n.watching")

    def _lobby_key(self, key: str, prompt: object) -> None:
        model = self.model
        if key == "r":
            self.send(model.toggle_ready())
        elif key == "up":
            model.option_next(-1)
        elif key == "down":
            model.option_next(1)
        elif key in ("left", "right"):
            self.send(model.change_option(1 if key == "right" else -1))
        elif key == "p":
            self.send(model.next_preset())
        elif key == "a":
            self.send(model.add_bot())
        elif key == "l":
            model.next_bot_level()
        elif key == "x":
            self.send(model.remove_bot())
        elif key == "k":
            model.ask_kick()
        elif key == "s":
            self.send(model.start_match())
        elif key.isdigit():
            self.send(model.move_to_seat(_seat_of(key)))
        elif key == "e":
            self.edit_name()
        elif key == "c":
            self.copy_join_line()

    def copy_join_line(self) -> None:
        """`c` in the lobby: the line friends join with, into the clipboard by the terminal's
        own escape (OSC 52: xterm, kitty, iTerm2, WezTerm, tmux with set-clipboard on...), so
        that it is pasted whole whatever the screen shows. A terminal without it ignores the
        escape; the notice says so much."""
        join = self.model.join_with
        if join is None:
            self.model.notice = self.model.tr("n.nothing_to_copy")
            return
        encoded = base64.b64encode(join.command.encode("utf-8")).decode("ascii")
        self.app.output.write_raw(f"\x1b]52;c;{encoded}\x07")
        self.app.output.flush()
        self.copied.append(join.command)
        self.model.notice = self.model.tr("n.copied", command=join.command)

    def _tables_key(self, key: str, prompt: object) -> None:
        model = self.model
        if key in ("up", "down"):
            model.table_next(-1 if key == "up" else 1)
        elif key == "enter":
            self.send(model.join_selected())
        elif key.isdigit():
            self.send(model.join_selected(_seat_of(key)))
        elif key == "w":
            self.send(model.watch_selected())
        elif key == "n":
            self.send(model.create_table())
        elif key == "e":
            self.edit_name()

    def edit_name(self) -> None:
        """`e`: the input line asks for our name; Enter sets it, Escape keeps the old one."""
        self.model.naming = True
        self.chat_buffer.reset()
        self.focus_input()

    def _match_end_key(self, key: str, prompt: object) -> None:
        if key in ("r", "enter") and not self.model.watching:
            self.send(self.model.rematch())

    def _round_end_key(self, key: str, prompt: object) -> None:
        if key in ("enter", "r", "space"):
            self.send(self.model.ready_next_round())


def _seat_of(key: str) -> int:
    """A digit key as a seat index: 1-9 are seats 1-9, 0 is seat 10."""
    return int(key) - 1 if key != "0" else 9


LOGIN_VARIABLES = ("LOGNAME", "USER", "LNAME", "USERNAME")
"""Where the login name is, in getpass.getuser's order."""


def login_name(environ: Mapping[str, str]) -> str:
    """The user's login name, the default name at a table: the environment's (getpass's
    variables), else the account's own (a container or `su` may set none), "player" only when
    the system has no name for the user."""
    for variable in LOGIN_VARIABLES:
        if environ.get(variable, "").strip():
            return environ[variable].strip()[:MAX_NAME_CHARS]
    try:
        return pwd.getpwuid(os.getuid()).pw_name[:MAX_NAME_CHARS] or "player"
    except (KeyError, OSError):
        return "player"


def build(link: TableLink, args: argparse.Namespace,
          environ: Mapping[str, str] | None = None) -> ClientApp:
    """A ClientApp from the options of `add_arguments`."""
    env = os.environ if environ is None else environ
    tr = Translator(pick_language(args.lang, env))
    name = args.name or login_name(env)
    model = ClientModel(tr, name=name)
    return ClientApp(model, link, plain=plain_wanted(env), bell=not args.no_bell)
