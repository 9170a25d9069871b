"""A notice is said whole where the screen has room: in a round it takes a second line from
the log, in the lobby up to three (found in tmux: a spectator's "Seat 3's player dropped and
may still come back: the seat opens once a" stopped at the screen's edge)."""

from __future__ import annotations

import pytest
from client_table import fresh, house_table

from client.i18n import Translator
from client.link import LobbyChanged
from client.lobby import LobbyState, SeatInfo
from client.model import ClientModel
from client.render import LOBBY_NOTICE_LINES, MIN_HEIGHT, MIN_WIDTH, compose
from unonet.rules import RuleSet


def said(model: ClientModel, width: int, height: int) -> str:
    text = "".join(fragment[1] for fragment in compose(model, width, height, plain=False))
    return " ".join(line.strip() for line in text.split("\n") if line.strip())


@pytest.mark.parametrize("lang", ["en", "it", "pt"])
def test_a_long_notice_in_a_round_is_whole_at_the_smallest_size(lang: str) -> None:
    model = fresh(lang)
    house_table(model, RuleSet(hand_size=2), [["r5", "r6"], ["g1", "g2"]], "r0", {}, dealer=1)
    model.notice = model.tr("n.seat_waiting", seat=3)
    assert len(model.notice) > MIN_WIDTH
    assert model.notice in said(model, MIN_WIDTH, MIN_HEIGHT)


def lobby_model() -> ClientModel:
    model = ClientModel(Translator("en"), name="Fred")
    seats = (SeatInfo(0, "human", "Hana", False, True), SeatInfo(1, "human", "Fred", False, True))
    model.apply(LobbyChanged(LobbyState(0, "t", 0, {}, seats, False, you=1)))
    return model


def test_a_long_notice_in_the_lobby_is_whole_and_a_hosts_huge_one_is_cut() -> None:
    model = lobby_model()
    model.notice = model.tr("n.seat_waiting", seat=3)
    assert model.notice in said(model, MIN_WIDTH, MIN_HEIGHT)
    model.notice = "word " * 200  # a host may send a thousand characters
    text = "".join(fragment[1] for fragment in compose(model, MIN_WIDTH, MIN_HEIGHT, False))
    lines = [line for line in text.split("\n") if line.startswith("word")]
    assert len(lines) == LOBBY_NOTICE_LINES and lines[-1].rstrip().endswith("…")
    assert "Rules (official)" in text  # the rules stay in view
