"""RULEBOOK.md 2 `stacking` and `stack_mix_wild`, 6.1, 6.2 and 6.4: answering a pending draw
with another draw card, taking the total, the challenge of a stacked Wild Draw Four, and a draw
card played as the last card.

The sources: seed 000 (a Draw Two on a Draw Two makes the third player draw four, a Wild Draw
Four on a Wild Draw Four eight), seed 003 "Risposte" (the sum, no +2 on a +4 and the other way,
a +2 after drawing starts over, a stacked +4 can be challenged) and the Più X chain of its No
Mercy paragraph (a stronger draw card on a weaker one, never the other way).
"""

from __future__ import annotations

from scenario import (
    B,
    G,
    R,
    Y,
    active_color,
    card,
    codes,
    current,
    deal,
    drawn_codes,
    of_type,
    one,
    phase,
    play,
    plays,
    refused,
    top,
)

from unonet import events as ev
from unonet.actions import Accept, Challenge, Draw, Expire, Pass, Play
from unonet.errors import ErrorCode
from unonet.rules import RuleSet

SAME_KIND = RuleSet(stacking="same_kind")
ESCALATING = RuleSet(stacking="escalating")
FOUR = ["b5", "b6", "b7", "b8"]
TEN = ["b5", "b6", "b7", "b8", "b9", "y5", "y6", "y7", "y8", "y9"]


def test_a_draw_two_answers_a_draw_two_and_the_next_player_takes_four() -> None:
    """Seed 000: "Se anche il giocatore successivo gioca una carta Pesca Due, il terzo
    giocatore deve pescare quattro carte, e così via." RULEBOOK.md 6.1."""
    match = deal([["y1", "y2", "y3"], ["r+2", "r5", "b6"], ["g+2", "g1", "y9"]], top="r3",
                 draws=FOUR, rules=SAME_KIND)
    events = play(match, 1, "r+2")
    assert one(events, ev.DecisionPending) == ev.DecisionPending(2, "stack", 2)
    assert phase(match) == "stack"
    assert match.legal_actions(2) == [Play(card(match, 2, "g+2")), Accept()]
    events = play(match, 2, "g+2")  # no colour match needed: a draw card on a draw card
    assert one(events, ev.DrawStacked) == ev.DrawStacked(2, 4)
    assert one(events, ev.DecisionPending) == ev.DecisionPending(0, "stack", 4)
    assert active_color(match) is G
    view = match.view(None)
    assert view.pending is not None
    assert (view.pending.kind, view.pending.seat, view.pending.amount) == ("stack", 0, 4)


def test_accepting_takes_the_whole_total_and_loses_the_turn() -> None:
    """RULEBOOK.md 6.1: "accepting takes the whole total and loses the turn"."""
    match = deal([["y1", "y2", "y3"], ["r+2", "r5", "b6"], ["g+2", "g1", "y9"]], top="r3",
                 draws=FOUR, rules=SAME_KIND)
    play(match, 1, "r+2")
    play(match, 2, "g+2")
    events = match.apply(0, Accept())
    drawn = one(events, ev.CardsDrawn)
    assert (drawn.seat, len(drawn.positions), drawn.reason) == (0, 4, "stack")
    assert drawn_codes(match, events, 0) == FOUR
    assert one(events, ev.Skipped) == ev.Skipped(0, "stack")
    assert events[-1] == ev.TurnStarted(1, 1)
    assert phase(match) == "turn"
    assert match.view(None).pending is None


def test_facing_a_stack_a_player_may_not_draw_or_pass_only_answer_or_accept() -> None:
    """RULEBOOK.md 6.1: the player facing the pending total stacks, deflects or accepts."""
    match = deal([["y1", "y2", "y3"], ["r+2", "r5", "b6"], ["g1", "g2", "y9"]], top="r3",
                 rules=SAME_KIND)
    play(match, 1, "r+2")
    assert match.legal_actions(2) == [Accept()]
    refused(match, 2, Draw(), ErrorCode.DRAW_PENDING)
    refused(match, 2, Pass(), ErrorCode.DRAW_PENDING)
    refused(match, 2, Play(card(match, 2, "g1")), ErrorCode.DRAW_PENDING)
    refused(match, 0, Accept(), ErrorCode.NOT_YOUR_DECISION)


def test_same_kind_a_wild_draw_four_answers_a_wild_draw_four_and_the_third_takes_eight() -> None:
    """Seed 000: "Se anche il giocatore successivo gioca una carta Jolly Pesca Quattro, il terzo
    giocatore deve pescare otto carte". RULEBOOK.md 2 `stacking` same_kind."""
    rules = SAME_KIND.replace(wd4_policy="free")
    match = deal([["y1", "y2", "y3"], ["W+4", "r5", "b6"], ["W+4", "g1", "y9"]], top="r3",
                 draws=TEN, rules=rules)
    events = play(match, 1, "W+4", color=G)
    assert one(events, ev.DecisionPending) == ev.DecisionPending(2, "stack", 4)
    events = play(match, 2, "W+4", color=R)
    assert one(events, ev.DrawStacked) == ev.DrawStacked(2, 8)
    events = match.apply(0, Accept())
    assert drawn_codes(match, events, 0) == TEN[:8]
    assert current(match) == 1
    assert active_color(match) is R


def test_same_kind_never_mixes_a_draw_two_and_a_wild_draw_four() -> None:
    """Seed 003 Risposte: "Non si può giocare una carta Più 2 su un Cambio colore più 4 e
    viceversa." RULEBOOK.md 2 `stacking` same_kind: a +2 answers a +2, a +4 a +4."""
    match = deal([["y1", "y2", "y3"], ["r+2", "r5", "b6"], ["W+4", "g+2", "y9"]], top="r3",
                 rules=SAME_KIND)
    play(match, 1, "r+2")
    assert plays(match, 2) == {"g+2"}
    refused(match, 2, Play(card(match, 2, "W+4"), G), ErrorCode.DRAW_PENDING)


def test_escalating_a_wild_draw_four_answers_a_draw_two_but_never_the_other_way() -> None:
    """Seed 003 (Uno senza pietà): "puoi giocare un Più 4 su un Più 2, ma non un Più 2 su un
    Più 4". RULEBOOK.md 2 `stacking` escalating: worth at least the last one."""
    rules = ESCALATING.replace(wd4_policy="free")
    match = deal([["g+2", "y2", "y3"], ["r+2", "r5", "b6"], ["W+4", "b+2", "y9"]], top="r3",
                 draws=TEN, rules=rules)
    play(match, 1, "r+2")
    assert plays(match, 2) == {"W+4", "b+2"}  # 4 >= 2, and 2 >= 2
    events = play(match, 2, "W+4", color=G)
    assert one(events, ev.DrawStacked) == ev.DrawStacked(2, 6)
    assert one(events, ev.DecisionPending) == ev.DecisionPending(0, "stack", 6)
    assert plays(match, 0) == set()
    refused(match, 0, Play(card(match, 0, "g+2")), ErrorCode.DRAW_PENDING)
    events = match.apply(0, Accept())
    assert drawn_codes(match, events, 0) == TEN[:6]


def test_stack_mix_wild_false_keeps_wild_and_coloured_draw_cards_apart() -> None:
    """Seed 003: "Non puoi mescolare carte normali e carte Cambio colore nella stessa catena".
    RULEBOOK.md 6.1: "Unless wild on coloured is allowed, a wild draw card never answers a
    coloured one"."""
    rules = ESCALATING.replace(stack_mix_wild=False, wd4_policy="free")
    match = deal([["y1", "y2", "y3"], ["r+2", "r5", "b6"], ["W+4", "b+2", "y9"]], top="r3",
                 rules=rules)
    play(match, 1, "r+2")
    assert plays(match, 2) == {"b+2"}
    refused(match, 2, Play(card(match, 2, "W+4"), G), ErrorCode.DRAW_PENDING)


def test_stack_mix_wild_true_lets_a_wild_draw_four_answer_a_draw_two_when_escalating() -> None:
    """RULEBOOK.md 2 `stack_mix_wild` true: "When stacking allows the values, a Wild Draw Four
    may answer a Draw Two"; under same_kind the values do not allow it."""
    for base, allowed in ((ESCALATING, {"W+4"}), (SAME_KIND, set())):
        rules = base.replace(stack_mix_wild=True, wd4_policy="free")
        match = deal([["y1", "y2", "y3"], ["r+2", "r5", "b6"], ["W+4", "g1", "y9"]],
                     top="r3", rules=rules)
        play(match, 1, "r+2")
        assert plays(match, 2) == allowed, base.stacking


def test_a_draw_two_played_after_accepting_starts_a_new_chain() -> None:
    """Seed 003 Risposte: "Se un giocatore gioca una carta Più 2 dopo aver pescato, quello
    successivo dovrà prendere solo 2 carte." RULEBOOK.md 6.1: "Accepting ends the chain"."""
    match = deal([["g+2", "y2", "y3"], ["r+2", "b+2", "b6"]], top="r3", draws=TEN,
                 rules=SAME_KIND)
    play(match, 1, "r+2")
    match.apply(0, Accept())  # takes 2, loses the turn: seat 1 plays again, on the +2
    assert (current(match), phase(match), top(match)) == (1, "turn", "r+2")
    events = play(match, 1, "b+2")
    assert not of_type(events, ev.DrawStacked)
    assert one(events, ev.DecisionPending) == ev.DecisionPending(0, "stack", 2)
    events = play(match, 0, "g+2")  # the one who drew answers: a chain of 4, not 6
    assert one(events, ev.DrawStacked) == ev.DrawStacked(0, 4)


def test_a_stacked_wild_draw_four_may_be_challenged_with_the_whole_total() -> None:
    """Seed 003 Risposte: "Attenzione a giocare un Cambio colore più 4 su un Cambio colore più 4
    perché si può essere accusati di bluffare". RULEBOOK.md 6.2: the player it falls on faces
    the whole pending total and may challenge, accept, or stack on it."""
    match = deal([["y1", "W+4", "y3"], ["r+2", "r5", "b6"], ["W+4", "r1", "y9"]], top="r3",
                 draws=TEN, rules=ESCALATING)
    play(match, 1, "r+2")
    events = play(match, 2, "W+4", color=G)
    assert one(events, ev.DecisionPending) == ev.DecisionPending(0, "challenge", 6)
    wd4 = card(match, 0, "W+4")
    assert match.legal_actions(0) == [Challenge(), Accept(), *(Play(wd4, c) for c in (R, Y, G, B))]
    view = match.view(1)
    assert view.pending is not None
    assert (view.pending.kind, view.pending.target, view.pending.amount) == ("challenge", 2, 6)
    assert view.pending.color_before is R


def test_a_stacked_wild_draw_four_challenged_guilty_the_bluffer_draws_the_total() -> None:
    """RULEBOOK.md 6.2: "Guilty: the bluffer draws the whole total plus the extra cards for a
    bluff, and the challenger then plays a normal turn." Seed 003 Bluff: 4 + 2 of penalty."""
    rules = ESCALATING.replace(challenge_guilty_extra=2)
    match = deal([["y1", "y2", "y3"], ["r+2", "r5", "b6"], ["W+4", "r1", "y9"]], top="r3",
                 draws=TEN, rules=rules)
    play(match, 1, "r+2")
    play(match, 2, "W+4", color=G)  # holds r1, red was in play: a bluff
    events = match.apply(0, Challenge())
    assert one(events, ev.Challenged) == ev.Challenged(0, 2, True)
    drawn = one(events, ev.CardsDrawn)
    assert (drawn.seat, len(drawn.positions), drawn.reason) == (2, 8, "penalty_challenge")
    assert not of_type(events, ev.Skipped)
    assert events[-1] == ev.TurnStarted(0, 1)
    assert codes(match, 0) == ["y1", "y2", "y3"]
    assert active_color(match) is G


def test_a_stacked_wild_draw_four_challenged_innocent_the_challenger_draws_total_plus_two() -> None:
    """RULEBOOK.md 6.2: "Innocent: the challenger draws the total plus 2 and loses the turn"."""
    match = deal([["y1", "y2", "y3"], ["r+2", "r5", "b6"], ["W+4", "g1", "y9"]], top="r3",
                 draws=TEN, rules=ESCALATING)
    play(match, 1, "r+2")
    play(match, 2, "W+4", color=G)  # no red left after the +2: legal
    events = match.apply(0, Challenge())
    assert one(events, ev.Challenged) == ev.Challenged(0, 2, False)
    drawn = one(events, ev.CardsDrawn)
    assert (drawn.seat, len(drawn.positions), drawn.reason) == (0, 8, "penalty_challenge")
    assert one(events, ev.Skipped) == ev.Skipped(0, "wild_draw_four")
    assert current(match) == 1
    assert codes(match, 2) == ["g1", "y9"]


def test_stacking_on_a_wild_draw_four_gives_up_the_challenge() -> None:
    """RULEBOOK.md 6.2: "or stack on it (giving up the challenge)"; the next player may
    challenge the new +4 with the grown total."""
    match = deal([["y1", "W+4", "y3"], ["r+2", "r5", "b6"], ["W+4", "g1", "y9"]], top="r3",
                 draws=TEN, rules=ESCALATING)
    play(match, 1, "r+2")
    play(match, 2, "W+4", color=G)
    events = play(match, 0, "W+4", color=R)
    assert not of_type(events, ev.Challenged)
    assert one(events, ev.DrawStacked) == ev.DrawStacked(0, 10)
    assert one(events, ev.DecisionPending) == ev.DecisionPending(1, "challenge", 10)
    view = match.view(None)
    assert view.pending is not None and view.pending.target == 0
    assert view.pending.color_before is G


def test_a_last_draw_card_without_deflect_ends_the_round_and_the_next_takes_the_total() -> None:
    """RULEBOOK.md 1.9 and 6.4: "Without deflect, a Draw Two or Wild Draw Four played as the
    last card ends the round at once: the next player still takes the whole pending total"."""
    match = deal([["y1"], ["r+2"], ["g+2"]], top="r3", draws=FOUR, rules=SAME_KIND)
    events = play(match, 1, "r+2")
    assert not of_type(events, ev.DecisionPending)
    drawn = one(events, ev.CardsDrawn)
    assert (drawn.seat, len(drawn.positions)) == (2, 2)
    ended = one(events, ev.RoundEnded)
    assert ended.winner == 1
    assert len(ended.hands[2]) == 3  # the two cards drawn count in the score
    assert match.legal_actions(2) == []


def test_a_last_draw_card_with_deflect_waits_until_the_total_is_taken() -> None:
    """Seed 003 Risposte avanzate: "Se un Più 2 ... viene giocato come ultima carta ... la mano
    non termina immediatamente. Al contrario, dovrai aspettare finché non saranno state pescate
    tutte le carte richieste." RULEBOOK.md 6.4: the player with no cards is passed over."""
    rules = SAME_KIND.replace(deflect=True)
    match = deal([["y1", "y2"], ["r4", "r+2"], ["g+2", "g7"]], top="r3",
                 draws=["b9", "b8", *FOUR], rules=rules)
    play(match, 1, "r4", uno=True)
    events = match.apply(2, Draw())  # b9: no play, the turn passes
    events = match.apply(0, Draw())  # b8
    assert current(match) == 1
    events = play(match, 1, "r+2")
    assert not of_type(events, ev.RoundEnded)
    assert one(events, ev.DecisionPending) == ev.DecisionPending(2, "stack", 2)
    events = play(match, 2, "g+2")
    # The player after seat 2 is seat 0: seat 1, out of cards, is passed over from now on.
    assert one(events, ev.DecisionPending) == ev.DecisionPending(0, "stack", 4)
    events = match.apply(0, Accept())
    assert drawn_codes(match, events, 0) == FOUR
    assert one(events, ev.RoundEnded).winner == 1


def test_on_expiry_a_pending_stack_is_taken() -> None:
    """RULEBOOK.md 6.14: "facing a pending total, take it"."""
    match = deal([["y1", "y2", "y3"], ["r+2", "r5", "b6"], ["g+2", "g1", "y9"]], top="r3",
                 draws=FOUR, rules=SAME_KIND)
    play(match, 1, "r+2")
    play(match, 2, "g+2")
    events = match.apply(-1, Expire())
    assert events[0] == ev.Expired(0, "stack")
    assert drawn_codes(match, events, 0) == FOUR
    assert one(events, ev.Skipped) == ev.Skipped(0, "stack")
    assert current(match) == 1


def test_on_expiry_a_stacked_wild_draw_four_is_accepted_not_challenged() -> None:
    """RULEBOOK.md 6.14: "facing a Wild Draw Four that may be challenged, accept it" (the
    whole pending total)."""
    match = deal([["y1", "y2", "y3"], ["r+2", "r5", "b6"], ["W+4", "r1", "y9"]], top="r3",
                 draws=TEN, rules=ESCALATING)
    play(match, 1, "r+2")
    play(match, 2, "W+4", color=G)
    events = match.apply(-1, Expire())
    assert events[0] == ev.Expired(0, "challenge")
    assert not of_type(events, ev.Challenged)
    assert drawn_codes(match, events, 0) == TEN[:6]
    assert current(match) == 1
