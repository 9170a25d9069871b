"""The screen draws any table the engine can make: random house rules and variants, 2 to 10
seats, a random point of a random match, each seat's view and a spectator's, at the usual and
the smallest terminal. A six-player game in pairs (three teams) stopped the screen with an
IndexError at its first deal while every test drew two teams: this draws them all."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from prompt_toolkit.utils import get_cwidth
from test_client_fold_property import next_action
from test_properties import house_rule_options, playable_rules

from client.i18n import Translator
from client.link import GameEvent, LobbyChanged, ManifestReceived, Snapshot
from client.lobby import LobbyState, SeatInfo
from client.model import ClientModel
from client.render import MIN_HEIGHT, MIN_WIDTH, compose
from unonet import events as ev
from unonet.match import MATCH_OVER, Match

SIZES = ((80, 23), (MIN_WIDTH, MIN_HEIGHT))


def model_of(match: Match, seat: int | None, lang: str) -> ClientModel:
    """A client at `seat` (None: watching) that has just entered `match` where it is now."""
    model = ClientModel(Translator(lang), name=f"P{seat}")
    model.apply(ManifestReceived(match.manifest))
    seats = tuple(SeatInfo(s, "human" if s % 3 else "bot", f"Player {s}", True, True)
                  for s in range(match.seats))
    model.apply(LobbyChanged(LobbyState(0, "table", 0, match.rules.to_dict(), seats, True,
                                        you=seat)))
    legal = tuple(match.legal_actions(seat)) if seat is not None else ()
    model.apply(Snapshot(match.view(seat), legal))
    return model


VARIANTS = ("classic", "classic", "flip", "no_mercy")
LANGS = ("en", "it", "pt")
PATIENCE = settings(deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


@st.composite
def tables(draw: st.DrawFn, /, **fixed: Any) -> tuple[Match, random.Random, str]:
    """A match the engine can play (random house rules and variant, 2-10 seats, options in
    `fixed` pinned), a random player's choices for it, and a language."""
    seats = draw(st.integers(2, 10))
    options = {**draw(house_rule_options()), "variant": draw(st.sampled_from(VARIANTS)), **fixed}
    rules = playable_rules(options, seats)
    assume(rules is not None)
    assert rules is not None
    match = Match(rules, seats, draw(st.binary(min_size=1, max_size=8)))
    return match, random.Random(draw(st.integers(0, 2**32))), draw(st.sampled_from(LANGS))


def assert_drawn(model: ClientModel) -> None:
    """The screen at each size: its height, and no line wider than the terminal."""
    for width, height in SIZES:
        text = "".join(fragment[1] for fragment in compose(model, width, height, False))
        lines = text.split("\n")
        assert len(lines) == height
        assert all(get_cwidth(line) <= width for line in lines), (width, lines)


@settings(PATIENCE, max_examples=80)
@given(table=tables(), steps=st.integers(0, 150))
def test_any_table_at_any_point_is_drawn_within_the_screen(
    table: tuple[Match, random.Random, str], steps: int,
) -> None:
    match, rng, lang = table
    for step in range(steps):
        if match.phase == MATCH_OVER:
            break
        seat, action = next_action(match, rng, step)
        match.apply(seat, action)
    for who in (0, match.seats - 1, None):
        assert_drawn(model_of(match, who, lang))


@settings(PATIENCE, max_examples=40)
@given(table=tables(max_rounds=2))
def test_a_whole_match_as_a_seat_follows_it_is_drawn_within_the_screen(
    table: tuple[Match, random.Random, str],
) -> None:
    """Seat 0's client fed every event it gets from the first deal on, as over the wire: the
    table, the round-end scores (every hand of every seat) and the match's end, drawn as it
    goes."""
    match, rng, lang = table
    model = model_of(match, 0, lang)
    for step in range(400):
        if match.phase == MATCH_OVER:
            break
        seat, action = next_action(match, rng, step)
        events = match.apply(seat, action)
        legal = tuple(match.legal_actions(0))
        for event in events:
            if event.audience is None or 0 in event.audience:
                model.apply(GameEvent(event, legal))
        ended = any(isinstance(event, ev.RoundEnded | ev.MatchEnded) for event in events)
        if ended or step % 25 == 0:  # the scores' screens each time they show
            assert_drawn(model)
