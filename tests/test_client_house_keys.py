"""The house rules' keys as the terminal app reads them (ClientApp.handle): arrows and Enter
pick a 7's swap target, M marks cards for one play, B presses the buzzer."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from client_table import LocalTable, face_of, house_table
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from client.app import ClientApp
from client.i18n import Translator
from client.model import ClientModel
from unonet.actions import Buzz, ChooseTarget, Play
from unonet.rules import RuleSet

OTHERS = [["g1", "g2", "g3", "g4", "g6"], ["r1", "r2", "y1", "y2", "y3"]]


@contextmanager
def app_at(rules: RuleSet, mine: list[str]) -> Iterator[tuple[ClientApp, LocalTable]]:
    model = ClientModel(Translator("en"), name="Me")
    table = house_table(model, rules, [mine, *OTHERS], "r3", {})
    with create_pipe_input() as pipe:
        yield ClientApp(model, table, input=pipe, output=DummyOutput()), table


def index_of(app: ClientApp, code: str) -> str:
    """The digit key that selects the card `code` in the hand shown."""
    hand = app.model.hand
    return str(next(i for i, c in enumerate(hand) if face_of(app.model, c).code == code) + 1)


def test_arrows_and_enter_pick_whom_to_swap_with() -> None:
    with app_at(RuleSet(hand_size=5, seven_zero=True), ["r7", "r5", "g5", "b5", "y9"]) as (
            app, table):
        for key in (index_of(app, "r7"), "enter", "right", "enter"):
            app.handle(key)
        assert table.intents[-1] == ChooseTarget(2)
        assert table.mismatches == []


def test_m_marks_cards_and_enter_plays_them_as_one() -> None:
    with app_at(RuleSet(hand_size=5, multiples=True), ["r7", "r5", "g5", "b5", "y9"]) as (
            app, table):
        for code in ("r5", "b5", "g5"):
            app.handle(index_of(app, code))
            app.handle("m")
        app.handle("enter")
        played = table.intents[-1]
        assert isinstance(played, Play) and len(played.also) == 2
        faces = [face_of(app.model, c).code for c in (played.card, *played.also)]
        assert faces == ["r5", "b5", "g5"]
        assert table.mismatches == []


def test_b_presses_the_buzzer() -> None:
    with app_at(RuleSet(hand_size=5, buzzers=True), ["BZ", "r5", "g5", "b5", "y9"]) as (
            app, table):
        app.handle(index_of(app, "BZ"))
        app.handle("enter")
        app.handle("b")
        assert table.intents[-1] == Buzz()
        assert "you were the slowest" in app.model.notice
        assert table.mismatches == []
