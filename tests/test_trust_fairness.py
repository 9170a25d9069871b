"""Issue 45's three holes, on the verifier: the host rewrites a choice of yours, grinds the deck
by giving up rounds once the seeds are in, or sits on a round's audit; and the violations are
named in the order they came. Whole matches under the simulated honest host (tests/trust_sim.py)
are played with every seat's intents fed to its verifier as its client would (the host accepts
each just before its events): nothing is flagged. Each lie is then the honest record with one
seat's intent otherwise than the record shows (what the player sent, which the host changed),
and it is caught by that seat alone, at the event that records it. The same over real sockets
with a patched host is tests/test_trust_fairness_net.py.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest
from trust_sim import (
    Delivery,
    Transcript,
    audit_of,
    deliver,
    play_match,
    play_round,
    received,
    replay,
    replay_match,
)

from protocol.limits import AUDIT_DEADLINE
from protocol.trust.host import HostCommitments
from protocol.trust.results import Verified, Violation, ViolationKind
from protocol.trust.verifier import TrustVerifier
from unonet import events as ev
from unonet.actions import (
    Accept,
    Action,
    Catch,
    Challenge,
    ChooseTarget,
    Draw,
    Pass,
    Play,
)
from unonet.cards import Color
from unonet.rules import RuleSet, preset

RULES = {
    "official": RuleSet(target=200),
    "party": preset("party", target=200),
    "flip": RuleSet(variant="flip", target=200),
    "no_mercy": preset("no_mercy", target=200),
}


# -- honest matches --------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(RULES))
def test_every_move_of_whole_honest_matches_is_held_to_the_record_and_holds(name: str) -> None:
    """Every seat's accepted moves, each checked against the action the record shows, over
    whole matches: official rules, the party preset, UNO Flip and No Mercy."""
    for seed in range(3):
        rounds = play_match(RULES[name], 4, seed, max_actions=2500)
        for seat in range(4):
            verifier = replay_match(rounds, seat)
            assert verifier.violations() == [], (seed, seat, verifier.violations()[:3])
            assert verifier.intents.checked > 0
            assert verifier.intents.awaiting is None


# -- a choice rewritten ----------------------------------------------------------------------

Change = Callable[[Action], Action | None]
"""What the player sent instead of the action the host recorded (None: this one will not do)."""


def _other_color(action: Action) -> Action | None:
    if isinstance(action, Play) and action.color is not None:
        color = Color.BLUE if action.color is not Color.BLUE else Color.GREEN
        return Play(action.card, color, action.uno, action.also)
    return None


def _other_card(action: Action) -> Action | None:
    if isinstance(action, Play) and not action.also:
        return Play(action.card + 1, action.color, action.uno)
    return None


def _other_uno(action: Action) -> Action | None:
    if isinstance(action, Play) and not action.also:
        return Play(action.card, action.color, not action.uno)
    return None


def _other_target(action: Action) -> Action | None:
    if isinstance(action, ChooseTarget):
        return ChooseTarget((action.target + 1) % 4)
    if isinstance(action, Catch):
        return Catch((action.target + 1) % 4)
    return None


def _other_run(action: Action) -> Action | None:
    if isinstance(action, Play) and action.also:
        return Play(action.card, action.color, action.uno, (*action.also[:-1], 0))
    return None


def _challenge_not_accept(action: Action) -> Action | None:
    return Challenge() if isinstance(action, Accept) else None


def _pass_not_draw(action: Action) -> Action | None:
    return Pass() if isinstance(action, Draw) else None


CASES = [
    ("the colour of a wild", RuleSet(target=200), _other_color, ViolationKind.REWRITTEN_COLOR),
    ("the card played", RuleSet(target=200), _other_card, ViolationKind.REWRITTEN_CARD),
    ("the UNO called with a play", RuleSet(target=200), _other_uno, ViolationKind.REWRITTEN_UNO),
    ("the 7's swap target", RuleSet(seven_zero=True, target=200), _other_target,
     ViolationKind.REWRITTEN_TARGET),
    ("the cards of a run or multiple", RuleSet(sequences=True, multiples=True, target=200),
     _other_run, ViolationKind.REWRITTEN_CARD),
    ("a challenge turned into taking the draw", RuleSet(target=200), _challenge_not_accept,
     ViolationKind.REWRITTEN_ACTION),
    ("a pass turned into a draw", RuleSet(target=200), _pass_not_draw,
     ViolationKind.REWRITTEN_ACTION),
]


def _rewritten(rules: RuleSet, change: Change) -> tuple[list[Transcript], int, int, int]:
    """An honest match in which one seat's intent is changed as `change` says (the player sent
    that; the record shows what the host applied): (rounds, round index, delivery, seat)."""
    for seed in range(40):
        rounds = play_match(rules, 4, seed, max_actions=2500)
        for number, t in enumerate(rounds):
            for index, delivery in enumerate(t.deliveries):
                if delivery.intent is None:
                    continue
                seat, action = delivery.intent
                sent = change(action)
                if seat >= 0 and sent is not None:
                    t.deliveries[index] = replace(delivery, intent=(seat, sent))
                    return rounds, number, index, seat
    raise AssertionError("no match had such a move")


def _first_flag(rounds: list[Transcript], seat: int | None) -> tuple[int, int] | None:
    """(round index, delivery index) where `seat`'s verifier first found a violation."""
    verifier = TrustVerifier(rounds[0].match, seat)
    for number, t in enumerate(rounds):
        for index in received(t, seat):
            deliver(t, index, verifier, seat)
            if verifier.violations():
                return number, index
    return None


@pytest.mark.parametrize(("what", "rules", "change", "kind"), CASES, ids=[c[0] for c in CASES])
def test_a_choice_the_host_rewrote_is_caught_by_its_player_at_the_event_that_records_it(
    what: str, rules: RuleSet, change: Change, kind: ViolationKind,
) -> None:
    rounds, number, index, seat = _rewritten(rules, change)
    verifier = replay_match(rounds, seat)
    found = verifier.violations()
    assert found and found[0].kind is kind, found
    assert "you " in found[0].detail and "the host" in found[0].detail
    where = _first_flag(rounds, seat)
    assert where is not None and where[0] == number
    t = rounds[number]
    cards = 1 + len(getattr(t.deliveries[index].intent[1], "also", ()))  # type: ignore[index]
    events_after = [i for i in received(t, seat) if i >= index
                    and isinstance(t.deliveries[i].item, tuple)]
    assert where[1] in events_after[: cards + 2], (where, index)  # at once, not at the audit
    # Nobody else knows what that player asked for: they see an honest match.
    for other in [None, *(s for s in range(4) if s != seat)]:
        assert replay_match(rounds, other).violations() == [], other


def test_an_accepted_move_the_record_never_shows_is_caught_at_the_audit() -> None:
    """The host answers `accepted`, then records nothing of it (a buzzer press it swallowed at
    the end of the round): the round's audit ends the wait."""
    t = play_round(3)
    seat = 1
    index, _ = audit_of(t)
    verifier = TrustVerifier(t.match, seat)
    for i in received(t, seat):
        if i == index:
            verifier.intent_accepted(Pass())
        deliver(t, i, verifier, seat)
    assert [v.kind for v in verifier.violations()] == [ViolationKind.REWRITTEN_ACTION]
    assert "never recorded it" in verifier.violations()[0].detail


def test_a_spectator_has_no_intents_to_check() -> None:
    t = play_round(3)
    verifier = replay(t, None)
    assert isinstance(verifier.intent_accepted(Pass()), Verified)
    assert verifier.intents.awaiting is None


# -- grinding the deck -----------------------------------------------------------------------


def _given_up(stage: str) -> Transcript:
    """Round 1 given up by its host at `stage` and audited honestly as abandoned."""
    t = play_round(7, missing_seeds=(False, False))
    cut = {"seed_commits": 2, "seed_reveals": 3}[stage]  # deliveries kept: through it
    t.deliveries = t.deliveries[:cut]
    t.close()
    return t


@pytest.mark.parametrize("stage", ["seed_commits", "seed_reveals"])
def test_a_round_given_up_after_its_seeds_started_coming_in_is_caught_by_everyone(
    stage: str,
) -> None:
    """Once seed_commits is out, the players reveal their seeds to the host, which can then
    know the deck before anyone sees a card: a round it gives up then is a deck it may have
    refused. Every client saw seed_commits; each flags it at the audit, in alert colours."""
    t = _given_up(stage)
    for seat in [None, 0, 1, 2]:
        verifier = replay(t, seat)
        assert [v.kind for v in verifier.violations()] == [
            ViolationKind.ABANDONED_AFTER_REVEAL], seat
        assert verifier.rounds[0].status == "violated"


def test_a_round_given_up_after_the_reveal_without_its_audit_is_caught_at_the_next_round(
) -> None:
    t = _given_up("seed_reveals")
    del t.deliveries[audit_of(t)[0]]
    following = HostCommitments(t.host.game_id, 2, t.host.host_seat).round_prepare()
    for seat in [None, 1]:
        verifier = replay(t, seat)
        verifier.message(following)
        assert {v.kind for v in verifier.violations()} == {
            ViolationKind.MISSING_AUDIT, ViolationKind.ABANDONED_AFTER_REVEAL}


def test_an_entrant_who_saw_only_the_audit_still_catches_a_round_given_up_with_seeds_in(
) -> None:
    """A client whose entry the host sent only the round's round_prepare and audit (leaving out
    the seed_commits it owed, itself a violation): the audit names the seeds the host had, so
    the host had them, and the round is caught as given up with its seeds in all the same."""
    t = _given_up("seed_reveals")
    verifier = TrustVerifier(t.match, None)
    for index in (0, audit_of(t)[0]):  # its round_prepare, then its audit
        deliver(t, index, verifier, None, contribute=False)
    assert ViolationKind.ABANDONED_AFTER_REVEAL in {v.kind for v in verifier.violations()}


def test_a_round_given_up_in_its_commitment_phase_is_counted_not_flagged() -> None:
    """Before seed_commits no player has revealed: the host holds commitments, which say
    nothing of the seeds, so it knows nothing of the deck it gives up."""
    rounds = play_match(RuleSet(), 3, 5, max_rounds=3, undealt={1})
    assert [type(d.item).__name__ for d in rounds[0].deliveries] == ["RoundPrepare",
                                                                       "RoundAudit"]
    for seat in [None, 0, 1, 2]:
        verifier = replay_match(rounds, seat)
        assert verifier.violations() == [] and verifier.abandoned_rounds == 1


# -- the audit's deadline --------------------------------------------------------------------


def _ended_without_audit() -> tuple[Transcript, TrustVerifier, Delivery]:
    t = play_round(11)
    index, _ = audit_of(t)
    audit = t.deliveries.pop(index)
    return t, replay(t, 1), audit


def test_a_round_that_ended_owes_its_audit_and_is_flagged_when_its_deadline_passes() -> None:
    t, verifier, audit = _ended_without_audit()
    assert verifier.audit_owed() == 1 and verifier.violations() == []
    found = verifier.audit_overdue(1)
    assert isinstance(found, Violation) and found.kind is ViolationKind.MISSING_AUDIT
    assert f"within {AUDIT_DEADLINE:g} s" in found.detail
    assert verifier.audit_owed() is None and verifier.rounds[0].status == "violated"
    assert isinstance(verifier.audit_overdue(1), Verified)  # said once
    # The audit that comes late is still checked, and the match's end adds nothing twice.
    t.deliveries.append(audit)
    deliver(t, len(t.deliveries) - 1, verifier, 1)
    assert verifier.rounds[0].audited
    assert verifier.finish() == []
    assert [v.kind for v in verifier.violations()] == [ViolationKind.MISSING_AUDIT]


def test_an_overdue_audit_never_sent_is_said_once_when_the_match_is_over() -> None:
    _, verifier, _ = _ended_without_audit()
    verifier.audit_overdue(1)
    assert verifier.finish() == []
    assert [v.kind for v in verifier.violations()] == [ViolationKind.MISSING_AUDIT]


def test_a_round_in_play_owes_no_audit_yet() -> None:
    t = play_round(11)
    verifier = TrustVerifier(t.match, 1)
    for index in received(t, 1):
        item = t.deliveries[index].item
        if isinstance(item, tuple) and isinstance(item[0], ev.RoundEnded):
            assert verifier.audit_owed() is None
        deliver(t, index, verifier, 1)
    assert verifier.audit_owed() is None  # audited
