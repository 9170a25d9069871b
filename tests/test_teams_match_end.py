"""Under teams=pairs a match is won by a team: the winner's partner read "Dario wins the
match!" on the score screen, and the bot log named one winner. Both say the team now."""

from __future__ import annotations

import random

import pytest
from test_client_fold_property import next_action
from test_client_render_any_table import model_of

from client.link import GameEvent
from client.model import ClientModel
from unonet.cli import main
from unonet.match import MATCH_OVER, Match
from unonet.rules import RuleSet
from unonet.scoring import partner


def finished(seats: int) -> Match:
    match = Match(RuleSet(teams="pairs", max_rounds=1), seats, b"\x02")
    rng = random.Random(2)
    for step in range(3000):
        if match.phase == MATCH_OVER:
            return match
        seat, action = next_action(match, rng, step)
        match.apply(seat, action)
    raise AssertionError("the match did not end")


def follow_to_the_end(match: Match, rng: random.Random, model: ClientModel, seat: int) -> None:
    """Play `match` out with random choices, `model` fed every event `seat` gets, as over the
    wire."""
    for step in range(3000):
        if match.phase == MATCH_OVER:
            return
        actor, action = next_action(match, rng, step)
        for event in match.apply(actor, action):
            if event.audience is None or seat in event.audience:
                model.apply(GameEvent(event, tuple(match.legal_actions(seat))))
    raise AssertionError("the match did not end")


def headline(match: Match, seat: int | None) -> str:
    from client.render import compose

    model = model_of(match, seat, "en")
    text = "".join(fragment[1] for fragment in compose(model, 80, 23, plain=False))
    return text.split("\n")[1].strip()


@pytest.mark.parametrize("seats", [4, 6])
def test_the_score_screen_names_the_winning_team(seats: int) -> None:
    match = finished(seats)
    winner = match.winner
    assert winner is not None
    mate = partner(match.rules, seats, winner)
    assert mate is not None
    team = "ABC"[winner % (seats // 2)]
    names = f"Player {min(winner, mate)} + Player {max(winner, mate)}"
    assert headline(match, mate) == f"Your team ({names}) wins the match!"
    assert headline(match, winner) == f"Your team ({names}) wins the match!"
    loser = next(s for s in range(seats) if s not in (winner, mate))
    assert headline(match, loser) == f"Team {team} ({names}) wins the match!"
    assert headline(match, None) == f"Team {team} ({names}) wins the match!"


def test_the_clients_log_names_both_partners() -> None:
    """The log a player reads (and `play --log --verbose`'s narrator) said "Player 2 wins the
    match with 510 points!" under teams; it names the partners now."""
    match = Match(RuleSet(teams="pairs", max_rounds=1), 4, b"\x02")
    model = model_of(match, 0, "en")
    follow_to_the_end(match, random.Random(2), model, 0)
    winner = match.winner
    assert winner is not None
    mate = partner(match.rules, 4, winner)
    assert model.log[-1].startswith(f"Player {winner} + Player {mate} win the match with ")


def test_the_bot_log_names_both_partners(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--log", "--bots", "4", "--set", "teams=pairs", "--seed", "01",
                 "--quiet"]) == 0
    last = capsys.readouterr().out.strip().split("\n")[-1]
    assert last.startswith("Match over after ") and last.endswith(" (partners) win.")
