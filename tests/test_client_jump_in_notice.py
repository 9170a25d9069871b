"""Out of turn, with a jump-in open, Enter on a card that cannot jump in said "It is not your
turn." (found in tmux, on the party preset): true, but the status line just above said
"Jump in: Enter plays a playable card", and the player held one. The notice now says which
cards may jump in under the table's rule."""

from __future__ import annotations

import random

import pytest
from test_client_fold_property import next_action

from client.i18n import Translator
from client.link import LobbyChanged, ManifestReceived, Snapshot
from client.lobby import LobbyState, SeatInfo
from client.model import ClientModel
from unonet.actions import Play
from unonet.match import Match
from unonet.rules import RuleSet


def waiting_seat_model(jump_in: str, can_jump: bool) -> ClientModel:
    """A client whose seat waits for another's turn, holding one card the host lists as a
    jump-in (if `can_jump`), another selected."""
    rules = RuleSet(jump_in=jump_in)  # type: ignore[arg-type]  # each JumpIn literal in turn
    match = Match(rules, 2, b"jump")
    rng = random.Random(1)
    step = 0
    while match.pending_seat is None or len(match.view(1 - match.pending_seat).hand) < 2:
        match.apply(*next_action(match, rng, step))  # to a turn, its round dealt
        step += 1
    me = 1 - match.pending_seat
    view = match.view(me)
    hand = view.hand
    model = ClientModel(Translator("en"), name="P")
    model.apply(ManifestReceived(match.manifest))
    seats = tuple(SeatInfo(s, "human", f"P{s}", True, True) for s in range(2))
    model.apply(LobbyChanged(LobbyState(0, "t", 0, rules.to_dict(), seats, True, you=me)))
    legal = (Play(hand[0]),) if can_jump else ()
    model.apply(Snapshot(view, legal))
    model.select_card(hand[1])
    return model


@pytest.mark.parametrize(("jump_in", "words"), [
    ("identical", "cannot jump in: only a card identical to the top one."),
    ("same_face", "cannot jump in: only the top card's number or symbol."),
])
def test_a_card_that_cannot_jump_in_says_which_can(jump_in: str, words: str) -> None:
    model = waiting_seat_model(jump_in, can_jump=True)
    assert not model.my_turn
    assert model.play_selected() is None
    assert model.notice.endswith(words), model.notice


@pytest.mark.parametrize("jump_in", ["off", "identical"])
def test_with_no_jump_in_open_it_is_not_your_turn(jump_in: str) -> None:
    model = waiting_seat_model(jump_in, can_jump=False)
    assert model.play_selected() is None
    assert model.notice == "It is not your turn."
