"""The score screen after a match offers the rematch (issue 12, point 2; SPEC.md [UNO-8-11]):
`r` asks once, the screen says whom we wait for, and if the table goes back to its lobby
without a rematch (someone left) the lobby shows, to start from there. A real engine match
(tests/client_table.py), played to its end by the model's own intents."""

from __future__ import annotations

import random

from client_table import play_out_the_round, play_to_the_forgotten_uno, scenario_table
from test_client_fold_property import next_action
from test_client_render_any_table import model_of

from client.i18n import Translator
from client.link import LobbyChanged
from client.lobby import LobbyState, SeatInfo, SetReady
from client.model import ClientModel, Screen
from client.render import compose
from unonet.match import MATCH_OVER, Match
from unonet.rules import RuleSet


def text(model: ClientModel) -> str:
    return "".join(fragment[1] for fragment in compose(model, 80, 24, plain=True))


def finished(lang: str = "en") -> ClientModel:
    model = ClientModel(Translator(lang), name="Me")
    table = scenario_table(model, rules=RuleSet(hand_size=4, max_rounds=1))
    table.start(model.apply)
    play_to_the_forgotten_uno(model, table)
    play_out_the_round(model, table)
    assert model.screen is Screen.MATCH_END
    return model


def lobby(started: bool, ready: tuple[bool, bool, bool]) -> LobbyState:
    kinds = ("human", "human", "bot")
    seats = tuple(SeatInfo(i, kinds[i], ("Me", "Bruno", "Chiara")[i], ready[i], True)
                  for i in range(3))
    return LobbyState(0, "t", 0, {}, seats, started, "official", 0, 0)


def test_the_match_end_offers_a_rematch_and_asks_once() -> None:
    model = finished()
    assert "r rematch" in text(model) and "q leave" in text(model)
    model.apply(LobbyChanged(lobby(True, (False, False, True))))
    assert model.rematch() == SetReady(True)
    assert model.rematch() is None  # asked already: no second request
    model.apply(LobbyChanged(lobby(True, (True, False, True))))
    assert "Waiting for: Bruno" in text(model)
    assert model.screen is Screen.MATCH_END


def test_without_a_rematch_the_table_goes_back_to_its_lobby_on_screen() -> None:
    model = finished("it")
    assert "r rivincita" in text(model)
    model.apply(LobbyChanged(lobby(True, (False, False, True))))
    model.rematch()
    model.apply(LobbyChanged(lobby(False, (True, False, True))))  # Bruno left, say
    assert model.screen is Screen.LOBBY


def test_before_asking_the_scores_stay_even_when_the_table_is_back_in_its_lobby() -> None:
    model = finished()
    model.apply(LobbyChanged(lobby(False, (False, False, True))))
    assert model.screen is Screen.MATCH_END  # the final scores stay until we answer


def test_a_spectator_is_not_offered_the_players_rematch() -> None:
    """Found in tmux: watching a bot table to its end, the screen said `r rematch`, and r did
    nothing (a rematch is the seated players' to ask for)."""
    match = Match(RuleSet(max_rounds=1), 2, b"\x01")
    rng = random.Random(1)
    for step in range(2000):
        if match.phase == MATCH_OVER:
            break
        seat, action = next_action(match, rng, step)
        match.apply(seat, action)
    model = model_of(match, None, "en")
    assert model.watching and model.screen is Screen.MATCH_END
    keys = text(model).split("\n")[-1]
    assert "rematch" not in keys and "q leave" in keys
