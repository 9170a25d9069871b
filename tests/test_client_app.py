"""The full-screen client driven by keys through prompt-toolkit's pipe input, at 80x24,
against a real engine Match with scripted bots (tests/client_table.py).

Every key batch ends with Ctrl-Y, bound here to a barrier: keys are processed in order and the
test link applies intents synchronously, so when the barrier fires, every effect of the batch
is done. Nothing waits on a clock.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import pwd
import re
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from io import StringIO
from typing import TypedDict, Unpack

from client_table import code_of, scenario_table
from prompt_toolkit.data_structures import Point, Size
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.mouse_events import MouseButton, MouseEvent, MouseEventType
from prompt_toolkit.output.vt100 import Vt100_Output

from client import render
from client.app import ClientApp, build, login_name
from client.i18n import Translator
from client.link import ChatReceived, ConnectionChanged, HostKeyWarning
from client.lobby import AddBot, JoinTable, LobbyCommand, SetReady, SetRules, Spectate, StartMatch
from client.model import ChallengePrompt, ClientModel, ColorPrompt, Prompt, QuitPrompt, Screen
from client.render import compose
from client.rule_editor import editor_options, step_option
from protocol.limits import MAX_CHAT_CHARS, MAX_NAME_CHARS
from unonet.actions import Accept, Action, CallUno, Catch, Challenge, Draw, Play
from unonet.cards import Color

BARRIER = "\x19"  # Ctrl-Y


class Driver:
    def __init__(self, pipe: PipeInput, *, lang: str = "en", plain: bool = False,
                 bell: bool = True, lobby_first: bool = False, tables_first: bool = False,
                 capacity: int | None = None) -> None:
        self.pipe = pipe
        self.screen = StringIO()
        self.size = Size(rows=24, columns=80)  # the terminal's: a test may resize it
        output = Vt100_Output(self.screen, lambda: self.size, term="xterm")
        self.model = ClientModel(Translator(lang), name="Me")
        self.table = scenario_table(self.model, lobby_first=lobby_first,
                                    tables_first=tables_first, capacity=capacity)
        self.client = ClientApp(self.model, self.table, plain=plain, bell=bell, input=pipe,
                                output=output)
        self.barrier = asyncio.Event()

        bindings = self.client.app.key_bindings
        assert isinstance(bindings, KeyBindings)

        @bindings.add("c-y")
        def _(event: KeyPressEvent) -> None:
            self.barrier.set()

    async def press(self, keys: str) -> None:
        self.barrier.clear()
        self.pipe.send_text(keys + BARRIER)
        await asyncio.wait_for(self.barrier.wait(), 10)

    def codes(self) -> list[str]:
        codes = []
        for card in self.model.hand:
            face = self.model.face(card)
            assert face is not None, card  # our own hand: every face is known
            codes.append(face.code)
        return codes


class DriverOptions(TypedDict, total=False):
    """Driver's keyword arguments."""

    lang: str
    plain: bool
    bell: bool
    lobby_first: bool
    tables_first: bool
    capacity: int | None


@contextmanager
def driver(**options: Unpack[DriverOptions]) -> Iterator[Driver]:
    with create_pipe_input() as pipe:
        yield Driver(pipe, **options)


def run(d: Driver, script: Callable[[Driver], Awaitable[None]]) -> None:
    """Run the app with the script typing into it; the script ends by leaving (q, y)."""

    async def main() -> None:
        app = asyncio.ensure_future(d.client.run_async())
        await script(d)
        await asyncio.wait_for(app, 10)

    asyncio.run(main())


# The keys change the model behind mypy's back: it would keep an attribute narrowed by one
# assert through the keys that change it, so what a press changes is read again through these.


def prompt(m: ClientModel) -> Prompt | None:
    return m.prompt


def showing_help(m: ClientModel) -> bool:
    return m.show_help


def showing_trust(m: ClientModel) -> bool:
    return m.show_trust


def screen(m: ClientModel) -> Screen:
    return m.screen


def last_intent(d: Driver) -> Action:
    return d.table.intents[-1]


def last_lobby_command(d: Driver) -> LobbyCommand:
    return d.table.lobby_commands[-1]


def test_a_whole_round_with_keys_only() -> None:
    async def script(d: Driver) -> None:
        m, match = d.model, d.table.match
        await d.press("")
        assert screen(m) is Screen.GAME and m.my_turn
        assert d.codes() == ["b3", "bR", "W", "W"]
        assert d.client.bells == 1  # our first turn

        await d.press("3\r")  # the Wild: the colour picker opens
        assert isinstance(prompt(m), ColorPrompt)
        await d.press("g")  # green
        played = last_intent(d)
        assert isinstance(played, Play) and played.color is Color.GREEN
        assert isinstance(prompt(m), ChallengePrompt)  # Chiara's +4 is on us

        await d.press("f")  # challenge: she was bluffing
        assert last_intent(d) == Challenge()
        assert m.view is not None and m.view.seats[2].cards == 7
        await d.press(" ")  # draw
        assert last_intent(d) == Draw()
        await d.press("\r")  # play the drawn card
        drawn = last_intent(d)
        assert isinstance(drawn, Play) and code_of(match, drawn.card) == "b9"

        await d.press("2\r")  # bR
        assert m.view.direction == -1
        assert m.view.seats[1].catchable  # Bruno forgot UNO
        await d.press("u")  # catch him
        assert last_intent(d) == Catch(1)
        assert m.view.seats[1].cards == 3
        await d.press("1U\r")  # b3, calling UNO with it (capital U works too)
        last = last_intent(d)
        assert isinstance(last, Play) and last.uno and code_of(match, last.card) == "b3"
        assert m.view.seats[0].uno_called

        await d.press("\r")  # the last card, a Wild
        await d.press("r")
        assert screen(m) is Screen.ROUND_END
        assert m.results[-1].winner == 0
        bells = d.client.bells
        await d.press("\r")  # ready for the next round: it starts
        assert SetReady(True) in d.table.lobby_commands
        assert screen(m) is Screen.GAME and m.view.round_no == 2
        assert d.client.bells >= bells
        d.pipe.send_text("qy")

    with driver() as d:
        run(d, script)
        assert d.table.mismatches == []
        assert d.table.closed
        assert "\a" in d.screen.getvalue()  # the bell went to the terminal


def test_every_key_does_what_the_help_says() -> None:
    async def script(d: Driver) -> None:
        m = d.model
        await d.press("")
        # Left/Right, 1-9, 0: pick a card.
        await d.press("\x1b[C")  # Right
        assert m.selected == 1
        await d.press("\x1b[D\x1b[D")  # Left twice wraps around
        assert m.selected == 3
        await d.press("2")
        assert m.selected == 1
        # ?: help; any key closes it.
        await d.press("?")
        assert showing_help(m)
        await d.press("x")
        assert not showing_help(m)
        # t: the deck checks; while they cover the table other keys wait; t or Esc closes.
        await d.press("t")
        assert showing_trust(m)
        await d.press("3")
        assert showing_trust(m) and m.selected == 1
        await d.press("t")
        assert not showing_trust(m)
        await d.press("t")
        d.client.handle("escape")
        assert not showing_trust(m)
        # Enter: play the selected card (bR does not play on r3: a notice, nothing sent).
        await d.press("\r")
        assert d.table.intents == [] and "cannot be played" in m.notice
        # U with four cards: nothing to call or catch.
        await d.press("u")
        assert "Nobody" in m.notice
        # F with nothing to challenge; B with no buzzer.
        await d.press("f")
        assert "nothing to challenge" in m.notice
        await d.press("b")
        assert "No buzzer" in m.notice
        # r y g b or 1-4 choose a colour in the picker (4: blue).
        await d.press("3\r")
        assert isinstance(prompt(m), ColorPrompt)
        await d.press("4")
        played = last_intent(d)
        assert isinstance(played, Play) and played.color is Color.BLUE
        # Space on a +4: accept it (Chiara's bluff goes unchallenged).
        assert isinstance(prompt(m), ChallengePrompt)
        await d.press(" ")
        assert last_intent(d) == Accept()
        # Tab: chat and back.
        await d.press("\tgood game\r")
        assert d.table.chat == ["good game"]
        assert any(line.text == "good game" for line in m.chat)
        await d.press("u")  # the game has the keys again
        assert "u" not in d.client.chat_buffer.text
        # q asks first; n cancels; Ctrl-C asks too; q then y leaves.
        await d.press("q")
        assert isinstance(prompt(m), QuitPrompt)
        await d.press("n")
        assert not isinstance(prompt(m), QuitPrompt)
        await d.press("\x03")  # Ctrl-C
        assert isinstance(prompt(m), QuitPrompt)
        d.pipe.send_text("y")

    with driver(plain=True) as d:
        run(d, script)
        assert d.table.closed
        assert d.table.mismatches == []


def test_the_bell_can_be_turned_off() -> None:
    async def script(d: Driver) -> None:
        await d.press("")
        assert d.model.my_turn
        d.pipe.send_text("qy")

    with driver(bell=False) as d:
        run(d, script)
        assert d.client.bells == 0
        assert "\a" not in d.screen.getvalue()


def test_a_late_uno_and_the_lobby_keys_of_the_owner() -> None:
    async def script(d: Driver) -> None:
        m = d.model
        await d.press("")
        assert screen(m) is Screen.LOBBY and m.is_owner
        await d.press("r")
        assert last_lobby_command(d) == SetReady(True)
        await d.press("\x1b[C")  # Right: the first option offered takes its next value
        command = last_lobby_command(d)
        first = editor_options()[0]
        expected = step_option(first, {}, 1, len(m.lobby.seats) if m.lobby else 2)
        assert isinstance(command, SetRules) and command.options == {first.name: expected}
        await d.press("p")  # the next preset, keeping what the table set (4 cards dealt)
        assert last_lobby_command(d) == SetRules({"hand_size": 4}, "seed000")
        await d.press("a")
        assert last_lobby_command(d) == AddBot()
        d.table.rules["hand_size"] = 4  # the scenario's deal is stacked for four cards
        await d.press("s")
        assert last_lobby_command(d) == StartMatch()
        assert screen(m) is Screen.GAME
        d.pipe.send_text("qy")

    with driver(lobby_first=True) as d:
        run(d, script)


def test_a_click_selects_a_card_and_a_second_click_plays_it() -> None:
    with driver() as d:
        model = d.model
        d.table.start(model.apply)
        first = model.hand[0]
        fragments = compose(model, 80, 23, False, on_card=d.client.click_card)
        handlers = [f[2] for f in fragments if len(f) == 3]
        assert handlers  # every card of the hand is clickable
        up = MouseEvent(Point(0, 0), MouseEventType.MOUSE_UP, MouseButton.LEFT, frozenset())
        d.client.click_card(model.hand[1])
        assert model.selected == 1
        handlers[0](up)  # the first chip: selects the first card
        assert model.selected_card == first
        d.client.click_card(first)  # again: plays it (b3 on r3)
        sent = last_intent(d)
        assert isinstance(sent, Play) and sent.card == first


def test_holding_one_card_u_calls_uno_late() -> None:
    with driver() as d:
        model = d.model
        d.table.start(model.apply)
        for key in ("3", "enter", "g", "f", "space", "enter", "2", "enter", "u", "1"):
            d.client.handle(key)
        d.table.run_bots = lambda: None  # type: ignore[method-assign]  # stubbed here: Chiara waits
        d.client.handle("enter")  # b3 without the call
        d.client.handle("u")
        assert last_intent(d) == CallUno()
        assert model.view is not None and model.view.seats[0].uno_called


def screen_text(d: Driver) -> str:
    return "".join(f[1] for f in compose(d.model, 80, 23, True))


def test_a_name_chosen_before_joining_then_a_move_to_an_empty_seat() -> None:
    async def script(d: Driver) -> None:
        m = d.model
        await d.press("")
        assert screen(m) is Screen.TABLES and "Your name: Me" in screen_text(d)
        await d.press("eAda Lovelace\r")
        assert m.my_name == "Ada Lovelace" and "Your name: Ada Lovelace" in screen_text(d)
        assert d.table.lobby_commands == []  # not at a table yet: the join carries it
        await d.press("\r")
        assert last_lobby_command(d) == JoinTable(0, "Ada Lovelace")
        assert screen(m) is Screen.LOBBY and m.lobby is not None and m.lobby.you == 0
        await d.press("4")  # seat 4 is empty: one join at our own table moves us
        assert last_lobby_command(d) == JoinTable(0, "Ada Lovelace", 3)
        assert m.lobby.you == 3 and m.is_owner
        assert " 4. Ada Lovelace" in screen_text(d) and " 1. (empty seat)" in screen_text(d)
        sent = len(d.table.lobby_commands)
        await d.press("2")  # a bot sits there
        assert len(d.table.lobby_commands) == sent and "Seat 2 is taken" in m.notice
        await d.press("eAda\r")  # a new name in the lobby: a rename where we sit
        assert last_lobby_command(d) == JoinTable(0, "Ada")
        assert " 4. Ada " in screen_text(d)
        await d.press("s")  # the keys are the game's again, not the input line's
        assert last_lobby_command(d) == StartMatch()
        d.pipe.send_text("qy")

    with driver(tables_first=True, capacity=4) as d:
        run(d, script)


def test_a_seat_number_on_the_table_list_joins_at_that_seat() -> None:
    async def script(d: Driver) -> None:
        await d.press("4")
        assert d.table.lobby_commands == [JoinTable(0, "Me", 3)]
        assert d.model.lobby is not None and d.model.lobby.you == 3
        d.pipe.send_text("qy")

    with driver(tables_first=True, capacity=4) as d:
        run(d, script)


def test_in_italian_the_colour_keys_are_the_initials_and_s_confirms_leaving() -> None:
    async def script(d: Driver) -> None:
        m = d.model
        await d.press("")
        await d.press("3\r")  # the Wild: the picker names its keys in Italian
        assert isinstance(prompt(m), ColorPrompt)
        picker = screen_text(d)
        assert "g/2 giallo" in picker and "v/3 verde" in picker
        await d.press("v")  # verde
        played = last_intent(d)
        assert isinstance(played, Play) and played.color is Color.GREEN
        await d.press("q")
        assert isinstance(prompt(m), QuitPrompt) and "s sì, n no" in screen_text(d)
        await d.press("n")  # no: back to the game
        assert not isinstance(prompt(m), QuitPrompt) and not d.table.closed
        d.pipe.send_text("qs")  # sì

    with driver(lang="it") as d:
        run(d, script)
        assert d.table.closed


def test_in_portuguese_the_help_names_the_colour_keys() -> None:
    model = ClientModel(Translator("pt"), name="Me")
    table = scenario_table(model)
    table.start(model.apply)
    model.toggle_help()
    text = "".join(f[1] for f in compose(model, 80, 23, False))
    assert "r vermelho, y amarelo, g verde, b azul" in text


def test_the_default_name_is_the_login_name() -> None:
    assert login_name({"LOGNAME": "ada", "USER": "root"}) == "ada"  # getpass's order
    assert login_name({"USER": "grace"}) == "grace"
    assert login_name({}) == pwd.getpwuid(os.getuid()).pw_name  # none set: the account's
    assert login_name({"USER": "  "}) == pwd.getpwuid(os.getuid()).pw_name
    args = argparse.Namespace(lang="en", name="", no_bell=False)
    app = build(scenario_table(), args, {"USER": "grace"})
    assert app.model.my_name == "grace"
    args.name = "Bea"
    assert build(scenario_table(), args, {"USER": "grace"}).model.my_name == "Bea"


def test_w_on_the_table_list_asks_to_watch_the_chosen_table() -> None:
    async def script(d: Driver) -> None:
        await d.press("w")
        assert d.table.lobby_commands == [Spectate(0)]
        d.pipe.send_text("qy")

    with driver(tables_first=True, capacity=4) as d:
        run(d, script)


def test_tab_reads_the_chat_and_lines_after_it_count_again() -> None:
    async def script(d: Driver) -> None:
        m = d.model
        await d.press("")
        d.client.deliver(ChatReceived("Bruno", "hi", 1))
        assert m.chat_unread == 1
        await d.press("\t")  # the chat has the keys: read
        assert m.chat_unread == 0
        d.client.deliver(ChatReceived("Bruno", "still reading", 1))
        assert m.chat_unread == 0
        await d.press("\t")  # Tab again: the table has the keys again
        await d.press("2")
        d.client.deliver(ChatReceived("Chiara", "new", 2))
        assert m.chat_unread == 1 and m.selected == 1
        d.pipe.send_text("qy")

    with driver() as d:
        run(d, script)


def test_page_up_shows_the_chats_earlier_lines_and_page_down_comes_back() -> None:
    """Found in tmux: at 60x18 the lobby's chat has three lines, and the host's own "friends
    join with" line took four: its start, the address to give, could not be read. PgUp and
    PgDn scroll the chat, whoever has the keys; the chat's title says it is scrolled."""
    long = "join with: unonet join 192.0.2.2:7077 --fingerprint " + "ABCD-" * 12 + "EFGH"

    async def script(d: Driver) -> None:
        m = d.model
        await d.press("")
        d.client.deliver(ChatReceived("Bruno", long, 1))
        for n in range(30):
            d.client.deliver(ChatReceived("Chiara", f"line {n}", 2))
        await d.press("")
        assert "line 29" in screen_text(d) and "192.0.2.2" not in screen_text(d)
        for _ in range(12):
            await d.press("\x1b[5~")  # PgUp
        assert "192.0.2.2" in screen_text(d) and "earlier lines, PgDn" in screen_text(d)
        depth = m.chat_back
        await d.press("\x1b[5~" * 40)  # past the oldest line: it stays in view
        rows = d.client.chat_rows
        assert rows > 1 and m.chat_back == render.chat_depth(m, 80, rows)
        assert "Bruno" in screen_text(d) and depth <= m.chat_back
        oldest = screen_text(d)
        await d.press("\x1b[6~")  # one PgDn moves the pane (it went a paneful past before)
        assert screen_text(d) != oldest and m.chat_back < render.chat_depth(m, 80, rows)
        await d.press("\x1b[6~" * 60)  # PgDn, to the newest
        assert m.chat_back == 0 and "line 29" in screen_text(d)
        assert "earlier lines" not in screen_text(d)
        await d.press("\x1b[5~\t\t")  # the chat's keys given back: the newest again
        assert m.chat_back == 0
        d.pipe.send_text("qy")

    with driver() as d:
        run(d, script)


def test_the_input_line_stops_at_what_the_host_takes() -> None:
    """A chat line was cut at 200 characters when sent, unsaid, where the host takes 512
    (the client had its own stale copy of the limit). The input line now stops at the
    protocol's limit, a chat line's or, after `e`, a name's: what does not go in is seen
    not to, and everything seen is sent."""
    async def script(d: Driver) -> None:
        await d.press("")
        long = "".join(f"{n % 10}" for n in range(MAX_CHAT_CHARS + 40))
        await d.press("\t" + long)
        assert d.client.chat_buffer.text == long[:MAX_CHAT_CHARS]
        await d.press("\r")
        assert d.table.chat == [long[:MAX_CHAT_CHARS]]
        d.pipe.send_text("qy")

    with driver() as d:
        run(d, script)
    with driver(lobby_first=True) as d:
        async def naming(d: Driver) -> None:
            await d.press("e" + "n" * (MAX_NAME_CHARS + 5))
            assert d.client.chat_buffer.text == "n" * MAX_NAME_CHARS
            await d.press("\r")
            assert d.model.my_name == "n" * MAX_NAME_CHARS
            d.pipe.send_text("qy")

        run(d, naming)


def screen_lines(d: Driver) -> list[str]:
    """The screen as the app draws it at 80x24 (the chat input takes the last line)."""
    return screen_text(d).split("\n")


def test_a_changed_fingerprint_screen_quits_with_q_at_once() -> None:
    async def script(d: Driver) -> None:
        await d.press("")
        d.client.deliver(HostKeyWarning("earlier", "127.0.0.1:7077", "AAAA-BBBB", "CCCC-DDDD"))
        d.client.deliver(ConnectionChanged("lost", "the host's fingerprint changed"))
        await d.press("\r ")  # nothing goes to that host
        assert "FINGERPRINT HAS CHANGED" in screen_text(d)
        assert screen_lines(d)[-1].strip() == "q quit"
        assert d.client.sent == []
        d.pipe.send_text("q")  # no confirmation hidden under the warning: the app ends

    with driver() as d:
        run(d, script)
        assert d.table.closed


def test_while_the_host_is_gone_the_keys_offered_are_the_ones_that_work() -> None:
    reason = "cannot connect: [Errno 111] Connect call failed ('127.0.0.1', 47107)"
    detail = f"the host is gone ({reason}); attempt 3 of 15 in 4 s"

    async def script(d: Driver) -> None:
        m = d.model
        await d.press("")
        assert m.my_turn
        d.client.deliver(ConnectionChanged("reconnecting", reason, attempt=3, attempts=15,
                                           delay=4.0))
        await d.press("\r 1u")
        lines = screen_lines(d)
        said = " ".join(line.strip() for line in lines)
        assert f"reconnecting: {detail}" in said  # whole, over two lines
        assert lines[-1].strip() == "q quit"
        assert m.notice == "" and d.client.sent == []  # Enter did not claim it was not our turn
        lost = "cannot connect: [Errno 111] Connect call failed ('127.0.0.1', 47107)"
        d.client.deliver(ConnectionChanged("lost", lost))
        await d.press("\r")
        lines = screen_lines(d)
        assert f"connection lost: {lost}" in " ".join(line.strip() for line in lines)
        assert lines[-1].strip() == ("your seat is kept: run the same unonet join once the host "
                                     "is back  q quit")
        assert m.notice == "" and d.client.sent == []
        d.pipe.send_text("qy")

    with driver() as d:
        run(d, script)
        assert d.table.closed


def input_line(d: Driver) -> str:
    """The input line as the app draws it now, the frame drawn whole (not as a
    difference from the last), escape sequences taken out."""
    app = d.client.app
    app.renderer.reset()
    d.screen.truncate(0)
    d.screen.seek(0)
    app.renderer.render(app, app.layout)
    line = d.screen.getvalue().split("\r\n")[-1]
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|[\x00-\x1f]", "", line)


def test_the_input_line_shows_its_start_after_a_long_line() -> None:
    """Found in tmux: after a chat line longer than the screen, `e` asked "ur name:" (the
    input window kept the long line's horizontal scroll). A line that fits shows whole, from
    its first column."""
    async def script(d: Driver) -> None:
        await d.press("")
        await d.press("\t" + "x" * 150)
        assert input_line(d).strip() == "x" * 79  # the line's end, where the cursor is
        await d.press("\re")
        assert input_line(d).strip() == "Your name:"  # it showed " " here, "ur name:" in tmux
        await d.press("\t")  # the name unchanged, the keys back on the table
        d.pipe.send_text("qy")

    with driver(lobby_first=True) as d:
        run(d, script)


def test_while_the_input_line_has_the_keys_the_screen_says_so() -> None:
    """Found in tmux: after Tab the lobby's key bar still offered "r ready", and r typed into
    an input line that looked like nothing ("> "). It now asks for what it takes, and the
    key bar says what Enter and Tab (or Esc) do there."""
    async def script(d: Driver) -> None:
        await d.press("")
        bar = screen_text(d).splitlines()[-1]
        assert "r ready" in bar and input_line(d).strip() == ">"
        await d.press("\t")
        bar = screen_text(d).splitlines()[-1]
        assert "r ready" not in bar and "Enter send" in bar and "Tab back" in bar
        assert input_line(d).strip() == "Say:"
        await d.press("r\t")
        assert d.client.chat_buffer.text == "r" and d.table.lobby_commands == []
        assert input_line(d).strip() == "> r"  # kept, the keys back on the table
        await d.press("e")
        bar = screen_text(d).splitlines()[-1]
        assert "Enter sets your name" in bar and "Esc keeps it" in bar
        await d.press("\t")
        assert "r ready" in screen_text(d).splitlines()[-1]
        d.pipe.send_text("qy")

    with driver(lobby_first=True) as d:
        run(d, script)


def test_a_window_too_small_for_the_game_lets_no_key_play_unseen() -> None:
    """Found in tmux: a window shrunk to 50x15 on our turn showed only "Make the terminal
    larger", and Enter played the chosen card (a Wild's colour too) without the player
    seeing either. While the game is hidden only q works (and what answers its question);
    the key bar offers nothing else."""
    async def script(d: Driver) -> None:
        m = d.model
        await d.press("")
        assert m.my_turn
        d.size = Size(rows=15, columns=50)
        await d.press("3\r ?t")  # choose, play, draw, help, trust: all unseen
        assert d.client.sent == [] and not m.show_help and not m.show_trust
        small = "".join(f[1] for f in compose(m, 50, 14, True)).splitlines()
        assert small[-1].strip() == "q quit"
        await d.press("q")
        assert isinstance(prompt(m), QuitPrompt)  # its question is on the small screen
        await d.press("n")
        assert prompt(m) is None
        d.size = Size(rows=24, columns=80)
        await d.press("3\r")  # seen again: the keys play
        assert isinstance(prompt(m), ColorPrompt)
        d.pipe.send_text("qy")

    with driver() as d:
        run(d, script)


def test_a_window_too_small_sends_no_chat_line_unseen_and_keeps_it() -> None:
    """The same for the chat's input line: Enter sends nothing while the window hides the
    line; it stays typed, and Enter sends it once the window shows it again."""
    async def script(d: Driver) -> None:
        await d.press("\t")  # the chat has the keys
        await d.press("hi all")
        d.size = Size(rows=15, columns=50)
        await d.press("\r")
        assert d.client.sent == [] and d.client.chat_buffer.text == "hi all"
        d.size = Size(rows=24, columns=80)
        await d.press("\r")
        assert d.client.sent == ["hi all"] and d.client.chat_buffer.text == ""
        d.pipe.send_text("qy")

    with driver() as d:
        run(d, script)


def test_a_help_longer_than_the_screen_turns_its_pages() -> None:
    """Found in tmux at 60x18: the help's long lines were cut with "…" and nothing read
    the rest. ↓ and ↑ turn its pages; any other key closes it, as before."""
    async def script(d: Driver) -> None:
        m = d.model
        d.size = Size(rows=18, columns=60)
        await d.press("?")
        pages = render.help_page_count(m, False, 60, 17)
        assert showing_help(m) and m.help_page == 0 and pages > 1
        await d.press("\x1b[B" * (pages + 1))  # down, past the last page
        assert m.help_page == pages - 1
        await d.press("\x1b[A")
        assert m.help_page == pages - 2 and showing_help(m)
        await d.press("x")
        assert not showing_help(m) and d.client.sent == []
        await d.press("?")
        assert m.help_page == 0  # opened again at its first page
        d.pipe.send_text("xqy")

    with driver() as d:
        run(d, script)


def test_the_table_list_offers_no_chat() -> None:
    """Found in tmux: the table list's help offered Tab for the chat; Tab opened "Say:", and
    Enter was refused ("not at a table"). A chat is a table's: the list offers none."""
    async def script(d: Driver) -> None:
        m = d.model
        await d.press("")
        assert screen(m) is Screen.TABLES
        await d.press("\t")
        assert not m.chat_focused and input_line(d).strip() == ">"
        help_text = " ".join(f[1] for line in render.help_lines(m, True, 80, 21) for f in line)
        assert "Tab" not in help_text and "Enter" in help_text
        d.pipe.send_text("qy")

    with driver(tables_first=True) as d:
        run(d, script)
