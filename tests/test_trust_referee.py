"""The referee (protocol/trust/referee.py): at each audit a client re-plays the round's public
record on its own engine. An honest record is never flagged; a tampered one is flagged once, at
the event where it leaves the rules, in words that say what the rules give instead.

Honest records come from a real Match driven as the host drives it (StartRound with a random
key, then seats' actions and the host's timer), each action's public events kept apart so a
test can cut a record between two actions."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from test_properties import all_legal, choose_action, house_rule_options, playable_rules

from protocol.trust.referee import Referee
from protocol.trust.results import Violation, ViolationKind
from unonet import events as ev
from unonet.actions import HOST, Action, Expire, Penalize, Play, StartRound
from unonet.legality import play_refusal
from unonet.match import IN_ROUND, MATCH_OVER, Match
from unonet.rules import RuleSet, playable_presets, preset

GREEDY_AFTER = 150
"""Actions into a round after which every seat plays to finish it (test_properties' greedy
policy): random choices alone can make a round last thousands of actions."""
ROUND_LIMIT = 600
"""A round still going after this many actions is left unfinished (a true stalemate plays on
forever): what was played is refereed all the same."""

Chooser = Callable[[Match, int], tuple[int, Action]]


@dataclass
class Recorded:
    """One round as an honest host sent it: its key and, per action, the public events."""

    key: bytes
    steps: list[tuple[int, Action, list[ev.Event]]]

    @property
    def events(self) -> list[ev.Event]:
        return [event for _, _, events in self.steps for event in events]

    def offset(self, step: int) -> int:
        """Index in `events` of the first event of step `step`."""
        return sum(len(events) for _, _, events in self.steps[:step])


def public(events: list[ev.Event]) -> list[ev.Event]:
    return [event for event in events if event.audience is None]


def record_match(
    match: Match, choose: Chooser, next_key: Callable[[], bytes], rounds: int | None = None
) -> list[Recorded]:
    """Play `rounds` rounds (or to the match's end) and keep what every spectator saw."""
    out: list[Recorded] = []
    while match.phase != MATCH_OVER and (rounds is None or len(out) < rounds):
        key = next_key()
        deal = StartRound(key)
        played = Recorded(key, [(HOST, deal, public(match.apply(HOST, deal)))])
        out.append(played)
        step = 0
        while match.phase == IN_ROUND:
            if step >= ROUND_LIMIT:
                return out
            seat, action = choose(match, step)
            played.steps.append((seat, action, public(match.apply(seat, action))))
            step += 1
    return out


def referee(
    rules: RuleSet,
    seats: int,
    rounds: list[Recorded],
    *,
    from_start: bool = True,
) -> list[list[Violation]]:
    """What a client's referee finds, round by round (under UNO Flip its shadow pairs each
    round's dark faces from the round's key, as the host does)."""
    ref = Referee(rules, seats, from_start=from_start)
    found = []
    for played in rounds:
        for event in played.events:
            ref.event(event)
        found.append(ref.audited(played.key))
    return found


def greedy(match: Match, legal: list[tuple[int, Action]]) -> tuple[int, Action]:
    return choose_action(match, random.Random(0), 0.0, greedy=True, legal=legal)


def drawn_actions(data: st.DataObject) -> Chooser:
    """Hypothesis draws every action, so a failing game shrinks to a short one: the pending
    seat's plays most of the time (0 shrinks to a play), else any legal action of any seat, the
    host's timer or a moderation penalty (on the pending seat, unless it is out of the round:
    a penalty in a buzzer race can knock out the seat whose turn it is, and the engine then
    refuses another)."""

    def choose(match: Match, step: int) -> tuple[int, Action]:
        legal = all_legal(match)
        if step >= GREEDY_AFTER:
            return greedy(match, legal)
        current = match.pending_seat
        assert current is not None
        plays = [(s, a) for s, a in legal if s == current and isinstance(a, Play)]
        if plays and data.draw(st.integers(0, 3), label="pending seat plays") < 3:
            return data.draw(st.sampled_from(plays), label="play")
        anything = [*legal, (HOST, Expire())]
        if match.round is not None and current not in match.round.out:
            anything.append((HOST, Penalize(current, 1)))
        return data.draw(st.sampled_from(anything), label="action")

    return choose


def random_actions(seed: int) -> tuple[Chooser, Callable[[], bytes]]:
    """test_properties' bot from a seed, and round keys from the same seed: for the fixed
    matches the tampering tests edit."""
    rng = random.Random(seed)

    def choose(match: Match, step: int) -> tuple[int, Action]:
        legal = all_legal(match)
        return choose_action(match, rng, 0.03, greedy=step >= GREEDY_AFTER, legal=legal)

    return choose, lambda: rng.randbytes(32)


def keys(data: st.DataObject) -> Callable[[], bytes]:
    return lambda: data.draw(st.binary(min_size=32, max_size=32), label="round key")


PROPERTY = settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


# -- honest records ---------------------------------------------------------------------------


@PROPERTY
@given(st.data())
def test_honest_rounds_under_random_house_rules_are_never_flagged(data: st.DataObject) -> None:
    seats = data.draw(st.integers(2, 6), label="seats")
    rules = playable_rules(data.draw(house_rule_options(), label="rules"), seats)
    assume(rules is not None)
    assert rules is not None
    rounds = record_match(Match(rules, seats, b"host"), drawn_actions(data), keys(data), 2)
    assert referee(rules, seats, rounds) == [[] for _ in rounds]


@pytest.mark.parametrize("name", playable_presets())
@settings(PROPERTY, max_examples=3)
@given(data=st.data())
def test_honest_whole_matches_under_every_preset_are_never_flagged(
    name: str, data: st.DataObject
) -> None:
    """Two rounds at most (max_rounds), so each match reaches match_ended and its winner."""
    seats = data.draw(st.integers(2, 5), label="seats")
    rules = preset(name, max_rounds=2)
    match = Match(rules, seats, b"host")
    rounds = record_match(match, drawn_actions(data), keys(data))
    assert referee(rules, seats, rounds) == [[] for _ in rounds]


def test_a_late_spectator_referees_from_the_state_the_host_announces() -> None:
    """A client that came in at round 2 cannot know the totals before it: it takes them from
    the host and checks every round it sees from there."""
    rules = preset("official", target=2000)
    choose, next_key = random_actions(5)
    rounds = record_match(Match(rules, 3, b"host"), choose, next_key, 3)
    assert len(rounds) == 3
    assert referee(rules, 3, rounds[1:], from_start=False) == [[], []]


def test_a_round_abandoned_before_its_deal_changes_nothing() -> None:
    rules = preset("official")
    choose, next_key = random_actions(5)
    rounds = record_match(Match(rules, 3, b"host"), choose, next_key, 2)
    ref = Referee(rules, 3)
    for index, played in enumerate(rounds):
        if index:
            ref.abandoned()  # prepared, audited, never dealt
        for event in played.events:
            ref.event(event)
        assert ref.audited(played.key) == []


# -- tampered records -------------------------------------------------------------------------

SEATS = 3
RULES = preset("official", target=250)


@pytest.fixture(scope="module")
def honest() -> list[Recorded]:
    """A whole official match (three seats, to 250 points) that an honest host played."""
    choose, next_key = random_actions(17)  # three rounds, a Draw Two, an UNO caught
    rounds = record_match(Match(RULES, SEATS, b"host"), choose, next_key)
    assert isinstance(rounds[-1].events[-1], ev.MatchEnded)
    return rounds


def tampered(rounds: list[Recorded], index: int, events: list[ev.Event]) -> list[Recorded]:
    """The match with round `index`'s public events replaced (its key unchanged)."""
    edited = Recorded(rounds[index].key, [(HOST, StartRound(rounds[index].key), events)])
    return [*rounds[:index], edited, *rounds[index + 1:]]


def the_one_violation(found: list[list[Violation]], round_index: int) -> str:
    """The detail of the only violation of the match, found in round `round_index`."""
    flat = [(index, v) for index, round_found in enumerate(found) for v in round_found]
    assert len(flat) == 1, flat
    where, violation = flat[0]
    assert where == round_index
    assert violation.kind is ViolationKind.ILLEGAL
    return violation.detail


def first(rounds: list[Recorded], wanted: Callable[[ev.Event], bool]) -> tuple[int, int]:
    """(round, event index) of the first event of the match that `wanted` picks."""
    for round_index, played in enumerate(rounds):
        for index, event in enumerate(played.events):
            if wanted(event):
                return round_index, index
    raise AssertionError("the recorded match has no such event: pick another seed")


@dataclass
class RefusablePlay:
    """A play in turn whose seat held a card the rules refuse there."""

    round_index: int
    at: int  # index of its card_played in the round's events
    seat: int
    wrong: int  # the card refused
    top: str
    color: str


def first_refusable_play(rounds: list[Recorded]) -> RefusablePlay:
    match = Match(RULES, SEATS, b"host")  # the host's match again, to see the hands
    for round_index, played in enumerate(rounds):
        for step, (seat, action, events) in enumerate(played.steps):
            rnd = match.round
            if isinstance(action, Play) and rnd is not None and seat == rnd.current:
                wrong = [
                    card for card in rnd.hands[seat]
                    if not match.manifest.face(card).is_wild
                    and play_refusal(rnd, seat, Play(card)) is not None
                ]
                if wrong:
                    at = played.offset(step) + next(
                        i for i, e in enumerate(events) if isinstance(e, ev.CardPlayed)
                    )
                    top = match.manifest.face(rnd.discard[-1]).name
                    return RefusablePlay(round_index, at, seat, wrong[0], top,
                                         str(rnd.active_color))
            match.apply(seat, action)
    raise AssertionError("no seat ever held a card it could not play: pick another seed")


def test_an_illegal_card_is_flagged_with_the_engines_refusal(honest: list[Recorded]) -> None:
    """The record shows, in place of a card played, one of that seat's cards that does not
    match the top card."""
    case = first_refusable_play(honest)
    events = honest[case.round_index].events
    shown = events[case.at]
    assert isinstance(shown, ev.CardPlayed)
    events[case.at] = dataclasses.replace(shown, card=case.wrong, color=None)
    found = referee(RULES, SEATS, tampered(honest, case.round_index, events))
    detail = the_one_violation(found, case.round_index)
    name = RULES.manifest().face(case.wrong).name
    assert detail.startswith(
        f"event {case.at}: the host says seat {case.seat} played {name} on {case.top} with "
        f"{case.color} in play, which the rules refuse: {name} does not match the top card"
    ), detail


@pytest.mark.parametrize("reason", ["draw_two", "penalty_uno"])
def test_a_skipped_penalty_draw_is_flagged(honest: list[Recorded], reason: str) -> None:
    round_index, at = first(honest, lambda e: isinstance(e, ev.CardsDrawn) and e.reason == reason)
    events = honest[round_index].events
    skipped = events.pop(at)
    assert isinstance(skipped, ev.CardsDrawn)
    detail = the_one_violation(referee(RULES, SEATS, tampered(honest, round_index, events)),
                               round_index)
    assert detail.startswith(f"event {at}: the rules give cards_drawn(seat={skipped.seat}, ")
    assert f"reason='{reason}'), the host sent " in detail


def round_ended(rounds: list[Recorded], index: int) -> tuple[list[ev.Event], int, ev.RoundEnded]:
    events = rounds[index].events
    at = next(i for i, e in enumerate(events) if isinstance(e, ev.RoundEnded))
    end = events[at]
    assert isinstance(end, ev.RoundEnded)
    return events, at, end


def carried(rounds: list[Recorded], after: int, seat: int, extra: int) -> list[Recorded]:
    """The rounds after `after` with `extra` points on `seat`'s totals: a forgery the host
    keeps up, so that only the round where it began breaks the rules."""
    out = rounds[: after + 1]
    for played in rounds[after + 1:]:
        events = played.events
        for index, event in enumerate(events):
            if isinstance(event, ev.RoundEnded | ev.MatchEnded):
                scores = list(event.scores)
                scores[seat] += extra
                events[index] = dataclasses.replace(event, scores=tuple(scores))
        out = tampered([*out, played], len(out), events)
    return out


def test_forged_round_points_are_flagged_once(honest: list[Recorded]) -> None:
    """Seat 1 is given 7 points more, its totals to match from there on: the hands shown make
    fewer, and the later rounds, refereed from the totals the host announced, hold."""
    events, at, end = round_ended(honest, 0)
    points = list(end.points)
    scores = list(end.scores)
    points[1] += 7
    scores[1] += 7
    events[at] = dataclasses.replace(end, points=tuple(points), scores=tuple(scores))
    forged = carried(tampered(honest, 0, events), 0, 1, 7)
    detail = the_one_violation(referee(RULES, SEATS, forged), 0)
    assert detail == (
        f"event {at}, round_ended: the host gives seat 1 {points[1]} points, the hands shown "
        f"make {end.points[1]}"
    )


def test_forged_totals_are_flagged_once(honest: list[Recorded]) -> None:
    """A total that is not the previous total plus the round's points, kept up afterwards."""
    events, at, end = round_ended(honest, 1)
    scores = list(end.scores)
    scores[2] += 30
    events[at] = dataclasses.replace(end, scores=tuple(scores))
    forged = carried(tampered(honest, 1, events), 1, 2, 30)
    detail = the_one_violation(referee(RULES, SEATS, forged), 1)
    before = end.scores[2] - end.points[2]
    assert detail == (
        f"event {at}, round_ended: the host gives seat 2 a total of {scores[2]}, the rules "
        f"{end.scores[2]} ({before} before this round and {end.points[2]} in it)"
    )


def test_a_host_contradicting_its_own_totals_is_flagged_again(honest: list[Recorded]) -> None:
    """Totals forged in round 1 and forgotten in round 2: each round is wrong on its own."""
    events, at, end = round_ended(honest, 0)
    scores = list(end.scores)
    scores[0] += 30
    events[at] = dataclasses.replace(end, scores=tuple(scores))
    found = referee(RULES, SEATS, tampered(honest, 0, events))
    assert [len(f) for f in found] == [1, 1] + [0] * (len(honest) - 2)
    _, at_next, end_next = round_ended(honest, 1)
    assert found[1][0].detail == (
        f"event {at_next}, round_ended: the host gives seat 0 a total of {end_next.scores[0]}, "
        f"the rules {end_next.scores[0] + 30} ({scores[0]} before this round and "
        f"{end_next.points[0]} in it)"
    )


def test_a_forged_round_winner_is_flagged(honest: list[Recorded]) -> None:
    events, at, end = round_ended(honest, 0)
    assert end.winner is not None
    other = (end.winner + 1) % SEATS
    events[at] = dataclasses.replace(end, winner=other)
    detail = the_one_violation(referee(RULES, SEATS, tampered(honest, 0, events)), 0)
    assert detail == (
        f"event {at}, round_ended: the host names seat {other} the round's winner, the rules "
        f"give seat {end.winner}"
    )


def test_a_forged_match_winner_is_flagged(honest: list[Recorded]) -> None:
    last = len(honest) - 1
    events = honest[last].events
    end = events[-1]
    assert isinstance(end, ev.MatchEnded)
    other = (end.winner + 1) % SEATS
    events[-1] = dataclasses.replace(end, winner=other)
    detail = the_one_violation(referee(RULES, SEATS, tampered(honest, last, events)), last)
    assert detail == (
        f"event {len(events) - 1}, match_ended: the host names seat {other} the match's winner, "
        f"the rules give seat {end.winner}"
    )


def test_a_match_not_ended_when_the_rules_end_it_is_flagged(honest: list[Recorded]) -> None:
    last = len(honest) - 1
    events = honest[last].events[:-1]
    detail = the_one_violation(referee(RULES, SEATS, tampered(honest, last, events)), last)
    assert detail.startswith(f"event {len(events)}: the rules give match_ended(winner="), detail
    assert detail.endswith("the record ends before it")


def test_a_missing_event_is_flagged(honest: list[Recorded]) -> None:
    """A turn_started dropped in the middle of round 1."""
    events = honest[0].events
    at = [i for i, e in enumerate(events) if isinstance(e, ev.TurnStarted)][10]
    dropped = events.pop(at)
    assert isinstance(dropped, ev.TurnStarted)
    detail = the_one_violation(referee(RULES, SEATS, tampered(honest, 0, events)), 0)
    assert detail.startswith(f"event {at}: the rules give turn_started(seat={dropped.seat}"), detail


def test_an_extra_event_is_flagged(honest: list[Recorded]) -> None:
    """A turn_started sent twice: the second is no event of the rules."""
    events = honest[0].events
    at = [i for i, e in enumerate(events) if isinstance(e, ev.TurnStarted)][10]
    events.insert(at + 1, events[at])
    detail = the_one_violation(referee(RULES, SEATS, tampered(honest, 0, events)), 0)
    assert detail.startswith(f"event {at + 1}: the rules give "), detail
    assert "the host sent turn_started(" in detail


def test_an_action_the_rules_refuse_is_flagged(honest: list[Recorded]) -> None:
    """An UNO called by a seat holding several cards: the engine's refusal, in words."""
    events = honest[0].events
    at = [i for i, e in enumerate(events) if isinstance(e, ev.TurnStarted)][3] + 1
    events.insert(at, ev.UnoCalled(0))
    detail = the_one_violation(referee(RULES, SEATS, tampered(honest, 0, events)), 0)
    assert detail.startswith(
        f"event {at}: the host says seat 0 called UNO, which the rules refuse: "
    ), detail


def test_an_event_after_the_rounds_end_is_flagged(honest: list[Recorded]) -> None:
    events = [*honest[0].events, ev.Passed(0)]
    detail = the_one_violation(referee(RULES, SEATS, tampered(honest, 0, events)), 0)
    assert detail == (
        f"event {len(events) - 1}: the round is over by the rules, yet the host sent "
        f"passed(seat=0)"
    )


def test_a_round_dealt_after_the_match_ended_is_flagged(honest: list[Recorded]) -> None:
    extra = Recorded(honest[0].key, honest[0].steps)
    found = referee(RULES, SEATS, [*honest, extra])
    assert the_one_violation(found, len(honest)).startswith(
        "event 0: the match is over by the rules (seat "
    )


def test_a_rule_change_in_mid_match_is_flagged() -> None:
    """The host deals round 2 five cards a hand where the manifest says seven."""
    choose, next_key = random_actions(3)
    host = Match(RULES, SEATS, b"host")
    rounds = record_match(host, choose, next_key, 1)
    host.rules = RULES.replace(hand_size=5)
    rounds += record_match(host, choose, next_key, 1)
    found = referee(RULES, SEATS, rounds)
    assert found[0] == []
    [violation] = found[1]
    assert violation.kind is ViolationKind.ILLEGAL
    assert violation.detail.startswith("event 1: the rules give cards_drawn("), violation
    assert referee(host.rules, SEATS, rounds)[1] == []  # the same record is right under those


def test_a_host_cannot_skip_the_dealer_draw_of_a_client_there_from_the_start(
    honest: list[Recorded],
) -> None:
    detail = the_one_violation(referee(RULES, SEATS, honest[1:2]), 0)
    assert detail.startswith("event 0: the rules give dealer_draw("), detail


def test_a_round_cut_short_between_actions_is_left_to_the_verifier(
    honest: list[Recorded],
) -> None:
    """A record that stops in mid-round is an abandoned deal (the verifier's ABANDONED); the
    referee says nothing of it and referees the next round from the host's announced state."""
    played = honest[0]
    cut = Recorded(played.key, played.steps[: len(played.steps) // 2])
    assert referee(RULES, SEATS, [cut, *honest[1:]]) == [[] for _ in honest]


JUNK: list[ev.Event] = [
    ev.CardPlayed(99, 5, (0, 1), None, False),
    ev.CardPlayed(-1, 10**9, (0, 1), None, True),
    ev.HandsMoved((), "seven"),
    ev.Penalized(0, 99),
    ev.UnoCaught(-7, 42, 2),
    ev.ColorChosen(1, "mauve"),  # type: ignore[arg-type]
    ev.Buzzed(3, 1),
    ev.RoundEnded(None, (), (), ()),
    ev.MatchEnded(5, ()),
]


@pytest.mark.parametrize("junk", JUNK, ids=lambda e: type(e).__name__)
def test_a_nonsense_event_is_a_violation_never_a_crash(
    honest: list[Recorded], junk: ev.Event
) -> None:
    events = honest[0].events
    at = [i for i, e in enumerate(events) if isinstance(e, ev.TurnStarted)][2] + 1
    events.insert(at, junk)
    detail = the_one_violation(referee(RULES, SEATS, tampered(honest, 0, events)), 0)
    assert detail.startswith(f"event {at}"), detail


def test_rules_that_cannot_be_played_at_the_table_are_said_once() -> None:
    """A manifest of teams of pairs at three seats: no round can be refereed; said once."""
    rules = RuleSet(teams="pairs")
    ref = Referee(rules, 3)
    ref.event(ev.RoundStarted(1, 0, 108))
    [violation] = ref.audited(bytes(32))
    assert violation.kind is ViolationKind.ILLEGAL
    assert violation.detail.startswith("the manifest's rules cannot be played at 3 seats: ")
    ref.event(ev.RoundStarted(2, 1, 108))
    assert ref.audited(bytes(32)) == []
