"""A whole short match in a real terminal (tmux, 80x24): `unonet host` with its own player and
one bot, one card dealt, one round, no UNO penalty, played from the keyboard to the match's
end. The score screen shows the winner, the round's points and the final round's hands, and
offers the rematch key; r starts the rematch with the same seats (at the host's own table
nothing else does: without r the table goes back to its lobby). Every step polls the screen
(see tests/test_client_terminal.py); nothing waits a fixed time."""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

from test_client_terminal import BOUND, Terminal, pytestmark, terminal

__all__ = ["pytestmark", "terminal"]  # tmux or skip; the fixture, shared

MATCH_BOUND = 120.0
"""Seconds the whole match may take: one round of two-card hands (nobody wins before the other
has acted, but by a Skip) against a bot that does not wait (measured: 6-35 s); a loaded
machine is slow, not wrong."""

ANSWERS = (
    ("Choose the colour", "1"),  # the first card is a Wild
    ("Colour for", "1"),  # the wild we play
    ("Enter plays it, Space keeps it", "Enter"),  # the card just drawn plays
    ("Your turn: Enter plays the selected card", "Enter"),  # the selection is on one that plays
    ("Your turn: nothing plays, Space draws", "Space"),
    ("Your turn: Space passes", "Space"),
    ("F challenges, Space accepts", "Space"),
    ("Enter: ready for the next round", "Enter"),
)
"""What the screen asks of us, and the key that answers it."""


def changed(term: Terminal, before: str, bound: float = 10.0) -> str:
    """The screen once it is no longer `before` (a key's effect, or the bot's move), or as it
    is after `bound` seconds: a key that changed nothing is answered again on the next look."""
    deadline = time.monotonic() + bound
    while True:
        text = term.screen()
        if text != before or time.monotonic() > deadline:
            return text
        time.sleep(0.1)


def play_to_the_match_end(term: Terminal) -> str:
    """Answer every question the screen asks until it says who won the match."""
    deadline = time.monotonic() + MATCH_BOUND
    screen = term.screen()
    while "the match!" not in screen:
        if time.monotonic() > deadline:
            raise AssertionError(f"the match did not end within {MATCH_BOUND} s:\n{screen}")
        key = next((key for asked, key in ANSWERS if asked in screen), None)
        if key is not None:
            term.keys(key)
        screen = changed(term, screen)
    return screen


def test_a_short_match_ends_on_the_score_screen_and_r_starts_the_rematch(
    terminal: Callable[[str], Terminal], tmp_path: Path,
) -> None:
    # The host's own player: after the match only r starts another (as at any table).
    term = terminal(f"cd {Path.cwd()} && {sys.executable} -m unonet.cli host --bind 127.0.0.1 "
                    "--port 0 --bots 1 --bot-delay 0 --seats 2 --name Tester --set hand_size=2 "
                    "--set max_rounds=1 --set uno_penalty=0")
    term.resize(80, 24)
    term.wait_text("s start")
    term.keys("r")  # ready, then start
    term.wait(lambda s: re.search(r"Tester +ready", s) is not None, "Tester ready")
    term.keys("s")
    # The deal (or, a bot that never waits and holds one card, already the match's end).
    term.wait(lambda s: "Tester (you)" in s or "the match!" in s, "the deal")
    screen = play_to_the_match_end(term)
    lines = screen.splitlines()
    assert len(lines) <= 24
    said = "\n".join(lines)
    assert re.search(r"(You win|Ana wins) the match!", said), said
    assert "Points per round" in said and "Cards left" in said, said
    final = re.findall(r"Round (\d+): (?:You win|Ana wins)!", said)
    assert final, said  # the final round's result, with its hands
    assert f"#{final[-1]}" in said  # its column among the rounds' points
    assert "r rematch" in lines[-2], said  # the key bar, above the chat input
    # The bot is ready for another match at once: r starts it with the same seats.
    term.keys("r")
    # Its deal, or already its end: a bot that never waits can win a two-card match before
    # the screen shows its deal (it did, about once in 50 runs); the host has then kept the
    # rematch's journal among the finished ones, beside the first match's.
    finished = tmp_path / "home" / "journals" / "finished"
    screen = term.wait(lambda s: ("Round 1" in s and "Your hand" in s)
                       or len(list(finished.glob("*.jsonl"))) >= 2, "the rematch", BOUND)
    assert "Tester" in screen and "Ana" in screen
    term.keys("q")
    term.wait_text("leaving ends it for everyone")  # we host it
    term.keys("y")
    assert "UNONET-EXIT=0" in term.wait_text("UNONET-EXIT=")
