"""RULEBOOK.md 2 `buzzers`, 6.3 (a Buzzer deflects), 6.9 and 6.14: the Buzzer race.

The source: seed 003 "Buzzers": "al mazzo vengono aggiunte 8 carte supplementari: le carte
Buzzer. Queste carte possono essere giocate in qualsiasi momento. Quando viene giocata una carta
Buzzer, tutti i giocatori devono premere il più velocemente possibile il tasto B, compreso chi ha
giocato la carta Buzzer. Il giocatore più lento è obbligato a prendere 2 carte di penalità."
"""

from __future__ import annotations

from scenario import (
    G,
    R,
    active_color,
    card,
    current,
    deal,
    drawn_codes,
    of_type,
    one,
    phase,
    play,
    plays,
    refused,
)

from unonet import events as ev
from unonet.actions import Accept, Buzz, Catch, ChooseColor, Expire, Play
from unonet.errors import ErrorCode
from unonet.match import Match
from unonet.rules import RuleSet

BUZZERS = RuleSet(buzzers=True)
SEAT0 = ["y1", "y2", "y3"]
SEAT2 = ["g1", "g2", "g3"]
DRAWS = ["b5", "b6", "b7", "b8", "b9", "y9"]


def _buzzer_played() -> Match:
    match = deal([SEAT0, ["BZ", "r5", "b6"], SEAT2], top="r3", draws=DRAWS, rules=BUZZERS)
    return match


def test_the_deck_has_eight_buzzers_of_no_colour_and_no_points() -> None:
    """Seed 003: "8 carte supplementari: le carte Buzzer"; RULEBOOK.md 6.9: "no colour ...
    worth 0 points"."""
    buzzers = [c for c in BUZZERS.manifest() if c.faces[0].code == "BZ"]
    assert len(buzzers) == 8
    assert all(c.faces[0].color is None and c.faces[0].points == 0 for c in buzzers)
    assert len(BUZZERS.manifest()) == 116


def test_a_buzzer_goes_on_anything_and_leaves_the_colour_in_play() -> None:
    """Seed 003: "possono essere giocate in qualsiasi momento"; RULEBOOK.md 6.9: "goes on
    anything ... and leaves the colour in play as it was"."""
    match = deal([SEAT0, ["BZ", "g5", "b6"], SEAT2], top="r3", rules=BUZZERS)
    assert plays(match, 1) == {"BZ"}
    play(match, 1, "BZ")
    assert active_color(match) is R


def test_every_player_its_player_included_presses_b_and_the_slowest_draws_two() -> None:
    """Seed 003: "tutti i giocatori devono premere ... compreso chi ha giocato la carta Buzzer.
    Il giocatore più lento è obbligato a prendere 2 carte"; RULEBOOK.md 6.9: "Play then goes on
    from the next player"."""
    match = _buzzer_played()
    events = play(match, 1, "BZ")
    assert one(events, ev.BuzzerOpened) == ev.BuzzerOpened(1, (1, 2, 0))
    assert phase(match) == "buzzer"
    assert [match.legal_actions(s) for s in range(3)] == [[Buzz()]] * 3
    view = match.view(None)
    assert view.pending is not None and view.pending.waiting == (1, 2, 0)
    assert match.apply(2, Buzz()) == [ev.Buzzed(2, 1)]
    assert match.legal_actions(2) == []
    refused(match, 2, Buzz(), ErrorCode.ACTION_NOT_ALLOWED)
    assert match.apply(1, Buzz()) == [ev.Buzzed(1, 2)]
    events = match.apply(0, Buzz())
    assert events[:2] == [ev.Buzzed(0, 3), ev.BuzzerClosed((0,), 2)]
    drawn = one(events, ev.CardsDrawn)
    assert (drawn.seat, drawn.reason) == (0, "penalty_buzzer")
    assert drawn_codes(match, events, 0) == DRAWS[:2]
    assert events[-1] == ev.TurnStarted(2, 1)
    assert active_color(match) is R


def test_nobody_plays_while_the_race_is_open() -> None:
    """RULEBOOK.md 6.9: the race comes first; play goes on once it is decided."""
    match = _buzzer_played()
    play(match, 1, "BZ")
    refused(match, 2, Play(card(match, 2, "g1")), ErrorCode.WRONG_PHASE)


def test_when_the_window_closes_everyone_who_has_not_pressed_draws_two() -> None:
    """RULEBOOK.md 6.9 and 6.14: "if the host's window of 5 seconds closes first, everyone who
    has not pressed draws 2"."""
    match = _buzzer_played()
    play(match, 1, "BZ")
    match.apply(2, Buzz())
    events = match.apply(-1, Expire())
    assert events[0] == ev.Expired(1, "buzzer")
    assert one(events, ev.BuzzerClosed) == ev.BuzzerClosed((1, 0), 2)
    assert [(e.seat, len(e.positions)) for e in of_type(events, ev.CardsDrawn)] == [
        (1, 2), (0, 2)]
    assert current(match) == 2


def test_a_buzzer_as_the_last_card_ends_the_round_without_a_race() -> None:
    """RULEBOOK.md 6.9: "A Buzzer played as the last card ends the round without a race"."""
    match = deal([["y1"], ["BZ"], ["g1"]], top="r3", rules=BUZZERS)
    events = play(match, 1, "BZ")
    assert not of_type(events, ev.BuzzerOpened)
    assert one(events, ev.RoundEnded).winner == 1


def test_a_buzzer_deflects_a_pending_draw_once_its_race_is_over() -> None:
    """Seed 003 Risposte avanzate: "anche le risposte alle carte Salta, Inverti e Buzzer, in modo
    da trasferire l'obbligo di pescare ad un altro giocatore"; RULEBOOK.md 6.3: "a Buzzer passes
    it on like a Skip once its race is over"."""
    rules = BUZZERS.replace(stacking="same_kind", deflect=True)
    match = deal([SEAT0, ["r+2", "r5", "b6"], ["BZ", "g1", "g2"]], top="r3", draws=DRAWS,
                 rules=rules)
    play(match, 1, "r+2")
    assert plays(match, 2) == {"BZ"}
    events = play(match, 2, "BZ")
    assert one(events, ev.DrawDeflected) == ev.DrawDeflected(2, 0, 2)
    assert one(events, ev.BuzzerOpened) == ev.BuzzerOpened(2, (2, 0, 1))
    match.apply(0, Buzz())
    match.apply(2, Buzz())
    events = match.apply(1, Buzz())
    assert one(events, ev.BuzzerClosed) == ev.BuzzerClosed((1,), 2)
    assert one(events, ev.DecisionPending) == ev.DecisionPending(0, "stack", 2)
    events = match.apply(0, Accept())
    assert drawn_codes(match, events, 0) == DRAWS[2:4]
    assert current(match) == 1


def test_without_deflect_a_buzzer_does_not_answer_a_pending_draw() -> None:
    """RULEBOOK.md 2 `deflect` false: a pending draw is answered only by stacking or taken."""
    rules = BUZZERS.replace(stacking="same_kind")
    match = deal([SEAT0, ["r+2", "r5", "b6"], ["BZ", "g1", "g2"]], top="r3", rules=rules)
    play(match, 1, "r+2")
    refused(match, 2, Play(card(match, 2, "BZ")), ErrorCode.DRAW_PENDING)


def test_a_player_knocked_out_during_the_race_leaves_it_and_the_race_still_closes() -> None:
    """RULEBOOK.md 6.9: "When all have pressed, the last to press draws 2"; 6.10: a player at
    the limit is out for the round. Seat 1 plays its Buzzer without UNO, the others press, then
    seat 2 catches it: 1 + 10 cards reach the limit of 10, seat 1 is out, and everyone still
    in has pressed."""
    rules = BUZZERS.replace(max_hand=10, uno_penalty=10)
    match = deal([["y1", "g2"], ["BZ", "W"], ["g1", "y2"]], top="r3", rules=rules)
    play(match, 1, "BZ")
    match.apply(2, Buzz())
    match.apply(0, Buzz())
    events = match.apply(2, Catch(1))
    assert one(events, ev.KnockedOut).seat == 1
    rnd = match.round
    assert rnd is not None
    assert rnd.phase != "buzzer" or rnd.buzz_waiting, "a race nobody can close"
    assert match.pending_seat not in rnd.out


def test_a_first_card_buzzer_has_no_race_and_the_first_player_names_the_colour() -> None:
    """RULEBOOK.md 6.9: "turned as the first card, it has no race and, like a Wild, the first
    player names the colour"."""
    match = deal([SEAT0, ["r5", "g5", "b6"], SEAT2], top="BZ", rules=BUZZERS)
    assert phase(match) == "choose_color" and current(match) == 1
    assert match.view(None).pending is not None
    match.apply(1, ChooseColor(G))
    assert (phase(match), current(match), active_color(match)) == ("turn", 1, G)
    assert plays(match, 1) == {"g5"}
