"""The client plays every house rule through its keys, reading the legal list and the view
(never the rules): a pending stack, a 7's swap, a run or a multiple, a jump-in, the buzzer race,
a knocked-out seat and teams. Each scenario is a real engine Match on a stacked deck
(tests/client_table.py), and the folded view must equal the engine's after every batch."""

from __future__ import annotations

from typing import Any

from client_table import LocalTable, face_of, fresh, house_table, pick, play_of, screen

from client.link import GameEvent
from client.model import BuzzPrompt, ChallengePrompt, ClientModel, StackPrompt, TargetPrompt
from client.render import compose
from unonet.actions import Accept, Buzz, ChooseTarget, Play
from unonet.cards import Color, Face, Kind
from unonet.events import MatchEnded, SeatEliminated
from unonet.rules import RuleSet

WIDTH, HEIGHT = 80, 23


def codes(model: ClientModel, cards: tuple[int, ...]) -> list[str]:
    return [face_of(model, c).code for c in cards]


def assert_in_step(table: LocalTable) -> None:
    assert table.mismatches == []


# -- stacking and deflect ------------------------------------------------------------------------


def stack_table(model: ClientModel, **rules: Any) -> LocalTable:
    """Chiara opens with a red +2 on me; I hold a green +2 and a red Skip."""
    return house_table(
        model, RuleSet(hand_size=4, stacking="same_kind", **rules),
        [["g+2", "rS", "b5", "y7"], ["g1", "g2", "g3", "g4"], ["r+2", "r1", "y1", "y2"]],
        "r3", {2: ["r+2"]}, dealer=1,
    )


def test_a_pending_draw_says_its_total_and_what_answers_it() -> None:
    model = fresh()
    table = stack_table(model)
    prompt = model.prompt
    green_two = Face(Kind.DRAW_TWO, Color.GREEN, None, 20)
    assert prompt == StackPrompt(amount=2, stack=True, deflect=False, answers=(green_two,))
    assert "+2 on you: play a draw card (G+2), or Space draws 2." in screen(model)
    # Only the +2 answers it: the legal list says so, and Enter on the Skip says why not.
    pick(model, "rS")
    assert model.play_selected() is None and "cannot be played now" in model.notice
    pick(model, "g+2")
    table.send_intent(play_of(model.play_selected()))
    view = model.view
    assert view is not None and view.seats[1].cards == 4 + 4  # Bruno took the stack of 4
    assert_in_step(table)


def test_space_takes_the_pending_total() -> None:
    model = fresh("pt")
    table = stack_table(model)
    assert "+2 em você: jogue uma carta de compra (G+2), ou Espaço compra 2." in screen(model)
    assert model.draw() == Accept()
    table.send_intent(Accept())
    view = model.view
    assert view is not None and view.seats[0].cards == 6
    assert_in_step(table)


def test_deflect_is_offered_when_the_legal_list_holds_a_skip() -> None:
    model = fresh()
    table = stack_table(model, deflect=True)
    answers = (Face(Kind.SKIP, Color.RED, None, 20), Face(Kind.DRAW_TWO, Color.GREEN, None, 20))
    assert model.prompt == StackPrompt(amount=2, stack=True, deflect=True, answers=answers)
    text = screen(model)
    assert "play a draw card or pass it on" in text and "Space draws 2." in text  # wrapped
    pick(model, "rS")
    table.send_intent(play_of(model.play_selected()))
    view = model.view
    assert view is not None and view.seats[0].cards == 3  # the draw went on, not to me
    assert_in_step(table)


# -- seven_zero --------------------------------------------------------------------------------


def test_a_seven_opens_a_chooser_of_the_other_players() -> None:
    model = fresh()
    table = house_table(
        model, RuleSet(hand_size=4, seven_zero=True),
        [["r7", "rS", "b5", "y7"], ["g1", "g2", "g3", "g4"], ["r1", "r2", "y1", "y2"]],
        "r3", {},
    )
    pick(model, "r7")
    table.send_intent(play_of(model.play_selected()))
    assert model.prompt == TargetPrompt((1, 2), 0)
    assert ">2 Bruno (4)   3 Chiara (4)" in screen(model)
    model.move_target(1)
    assert ">3 Chiara (4)" in screen(model)
    model.move_target(1)  # around to the first again
    model.move_target(-1)
    assert model.choose_target_at_cursor() == ChooseTarget(2)
    table.send_intent(ChooseTarget(2))
    assert sorted(codes(model, model.view.hand if model.view else ())) == [
        "r1", "r2", "y1", "y2"]
    assert_in_step(table)


def test_the_swap_chooser_keeps_the_cursors_choice_in_view_at_every_width() -> None:
    """Found at 60 columns with ten players: the chooser was cut for an 80-column screen, and
    with the cursor on the ninth player its line ended ">9…", the name gone. Those nearest
    the cursor are shown in the status's two lines at any width, with "…" where some are
    left out."""
    colours = "rgby"
    hands = [["r7", "rS", "b5", "y7"]] + [
        [f"{colours[(i + k) % 4]}{(i * 4 + k) % 9 + 1}" for k in range(4)] for i in range(9)]
    for lang in ("en", "pt"):
        model = fresh(lang)
        table = house_table(model, RuleSet(hand_size=4, seven_zero=True), hands, "r3", {})
        pick(model, "r7")
        table.send_intent(play_of(model.play_selected()))
        prompt = model.prompt
        assert isinstance(prompt, TargetPrompt) and len(prompt.targets) == 9
        for cursor in range(9):
            seat = prompt.targets[cursor]
            chosen = f">{seat + 1} {model.name(seat)} ("
            for width in (60, 70, 80, 100):
                text = " ".join(screen(model, width=width, height=18).split())
                assert chosen in text, (lang, cursor, width, text)
                shown = [s for s in prompt.targets if f"{s + 1} {model.name(s)} (" in text]
                if prompt.targets[0] not in shown:
                    assert "… " in text, (lang, cursor, width)
            model.move_target(1)
            prompt = model.prompt
            assert isinstance(prompt, TargetPrompt)


# -- sequences and multiples ---------------------------------------------------------------------


def multi_table(model: ClientModel) -> LocalTable:
    return house_table(
        model, RuleSet(hand_size=5, multiples=True, sequences=True),
        [["r5", "g5", "b5", "r4", "y9"], ["g1", "g2", "g3", "g4", "g6"],
         ["r1", "r2", "y1", "y2", "y3"]],
        "r3", {},
    )


def test_marked_cards_are_played_together_as_one_play() -> None:
    model = fresh()
    table = multi_table(model)
    assert model.multi_offered
    assert "M marks cards to play together." in screen(model)
    pick(model, "g5")
    model.toggle_mark()
    pick(model, "r5")
    model.toggle_mark()
    text = screen(model)
    assert "Marked green 5, red 5: Enter plays them" in text
    assert "+1" in text and "^+2" in text  # the order under the cards
    # green 5 does not play on red 3 first: the play is the listed order of the same cards
    action = play_of(model.play_selected())
    assert codes(model, (action.card, *action.also)) == ["r5", "g5"]
    assert action in model.legal
    table.send_intent(action)
    view = model.view
    assert view is not None and view.top_card == action.also[-1] and model.marked == []
    assert_in_step(table)


def test_a_run_in_the_order_marked() -> None:
    model = fresh()
    multi_table(model)
    for code in ("r4", "r5"):
        pick(model, code)
        model.toggle_mark()
    action = play_of(model.play_selected())
    assert codes(model, (action.card, *action.also)) == ["r4", "r5"]


def test_marks_that_make_no_play_say_so_and_nothing_is_sent() -> None:
    model = fresh()
    multi_table(model)
    for code in ("r4", "y9"):
        pick(model, code)
        model.toggle_mark()
    assert model.play_selected() is None
    assert model.notice == "Those cards cannot be played together now."
    pick(model, "y9")
    model.toggle_mark()  # unmark
    assert len(model.marked) == 1


def test_marking_is_offered_only_when_the_legal_list_has_such_a_play() -> None:
    model = fresh()
    house_table(model, RuleSet(hand_size=4),
                [["r5", "g5", "b5", "r4"], ["g1", "g2", "g3", "g4"], ["r1", "r2", "y1", "y2"]],
                "r3", {})
    assert not model.multi_offered
    model.toggle_mark()
    assert model.marked == [] and model.notice == "No run or set can be played now."
    assert "M marks" not in screen(model)


# -- jump-in -------------------------------------------------------------------------------------


def test_a_card_that_may_jump_in_is_marked_and_enter_plays_it() -> None:
    model = fresh()
    table = house_table(
        model, RuleSet(hand_size=4, jump_in="identical"),
        [["r5", "g7", "b5", "y9"], ["g7", "g2", "g3", "g4"], ["r1", "g1", "y1", "y2"]],
        "g3", {1: ["g7"]}, dealer=0, wait_for_jump_in=True,
    )
    assert not model.my_turn and model.jump_in_open
    assert not model.bell  # a chance to jump in is not our turn: no bell at every card
    text = screen(model)
    assert "Chiara's turn. Jump in now: Enter plays green 7." in text  # selected for us
    assert "*[G7]" in text and " [Y9]" in text  # only the identical card may jump in
    styles = {fragment[0] for fragment in compose(model, WIDTH, HEIGHT, False)}
    assert "class:card.green" in styles  # in colour: the green 7 bright, the others grey
    assert "class:card.off class:fg.yellow" in styles
    pick(model, "g7")
    action = play_of(model.play_selected())
    assert action == Play(action.card) and action in model.legal
    table.send_intent(action)
    assert "g7" not in codes(model, model.view.hand if model.view else ())
    assert any("jumps in" in line for line in model.log)
    assert_in_step(table)


# -- buzzers -------------------------------------------------------------------------------------


def test_the_buzzer_race_shows_who_pressed_and_the_result() -> None:
    model = fresh()
    table = house_table(
        model, RuleSet(hand_size=4, buzzers=True),
        [["BZ", "rS", "b5", "y7"], ["g1", "g2", "g3", "g4"], ["r1", "r2", "y1", "y2"]],
        "r3", {},
    )
    pick(model, "BZ")
    table.send_intent(play_of(model.play_selected()))
    assert model.prompt == BuzzPrompt()  # the bots pressed first
    assert "Buzzer! Press B, quick" in screen(model)
    assert "Pressed: 1. Bruno, 2. Chiara." in screen(model)
    assert model.buzz() == Buzz()
    table.send_intent(Buzz())
    assert model.notice == "Buzzer race over: you were the slowest and draw 2."
    view = model.view
    assert view is not None and view.seats[0].cards == 3 + 2
    assert_in_step(table)


# -- who is out, teams -----------------------------------------------------------------------------


def test_a_knocked_out_seat_shows_out_instead_of_its_cards() -> None:
    model = fresh()
    # Bruno holds 9 cards of max_hand 10, none playable, and draws: out for the round.
    table = house_table(
        model, RuleSet(hand_size=9, max_hand=10),
        [["r5", "r6", "r7", "r8", "r9", "r1", "r2", "r3", "r4"],
         ["g1", "g2", "g3", "g4", "g5", "g6", "g7", "g8", "g9"],
         ["y1", "y2", "y3", "y4", "y5", "y6", "y7", "y8", "r1"]],
        "r0", {2: ["r1"]}, draws=["b1"],
    )
    pick(model, "r5")
    table.send_intent(play_of(model.play_selected()))
    view = model.view
    assert view is not None and view.seats[1].out
    assert any(line.startswith("  Bruno") and " out " in line
               for line in screen(model).split("\n"))
    assert model.my_turn
    assert_in_step(table)


def test_teams_show_partners_and_the_team_total() -> None:
    model = fresh("pt")
    table = house_table(
        model, RuleSet(hand_size=2, teams="pairs"),
        [["r5", "r6"], ["g1", "g2"], ["y1", "y2"], ["b1", "b2"]], "r0", {}, dealer=3,
    )
    text = screen(model)
    assert "Equipe A (Me + Chiara): 0 pts · Equipe B (Bruno + Dario): 0 pts" in text
    assert "A Me (você)" in text and "B Bruno" in text
    assert_in_step(table)


def test_a_stacked_wild_draw_four_may_be_challenged_or_stacked_on() -> None:
    model = fresh()
    table = house_table(
        model, RuleSet(hand_size=4, stacking="same_kind"),
        [["W+4", "rS", "b5", "y7"], ["g1", "g2", "g3", "g4"], ["W+4", "r1", "y1", "y2"]],
        "r3", {2: ["W+4:blue"]}, dealer=1,
    )
    prompt = model.prompt
    assert isinstance(prompt, ChallengePrompt) and prompt.target == 2
    assert (prompt.amount, prompt.stack, prompt.deflect) == (4, True, False)
    flat = " ".join(screen(model).split())  # the question wraps onto a second line
    assert ("Chiara played Wild Draw Four on you: F challenges, Space takes 4, or play a draw "
            "card.") in flat
    pick(model, "W+4")
    assert model.play_selected() is None  # the colour picker first
    table.send_intent(play_of(model.choose_color(Color.GREEN)))
    view = model.view
    assert view is not None and view.seats[1].cards == 4 + 8  # Bruno took the chain
    assert_in_step(table)


def test_an_eliminated_player_is_shown_so() -> None:
    model = fresh()
    table = house_table(
        model, RuleSet(hand_size=4, scoring="elimination"),
        [["r5", "rS", "b5", "y7"], ["g1", "g2", "g3", "g4"], ["r1", "r2", "y1", "y2"]],
        "r3", {},
    )
    model.apply(GameEvent(SeatEliminated(1, 512), model.legal))
    line = next(line for line in screen(model).split("\n") if line.startswith("  Bruno"))
    assert "eliminated" in line
    assert_in_step(table)


def test_eliminated_we_are_told_so_and_the_match_lists_the_lowest_first() -> None:
    model = fresh()
    house_table(
        model, RuleSet(hand_size=4, scoring="elimination"),
        [["r5", "rS", "b5", "y7"], ["g1", "g2", "g3", "g4"], ["r1", "r2", "y1", "y2"]],
        "r3", {},
    )
    model.apply(GameEvent(SeatEliminated(0, 530), ()))
    assert "You are out of the match; the others play on." in screen(model)
    model.apply(GameEvent(MatchEnded(1, (530, 0, 120)), ()))
    rows = [line.split()[0] for line in screen(model).split("\n")[5:8]]
    assert rows == ["Bruno", "Chiara", "Me"]  # the winner, then the lowest totals


def test_at_ten_seats_the_swap_chooser_keeps_the_cursor_in_view() -> None:
    model = fresh()
    hands = [["r7", "b9"]] + [[f"g{n}", f"y{n}"] for n in range(1, 10)]
    table = house_table(model, RuleSet(hand_size=2, seven_zero=True), hands, "r3", {},
                        dealer=9)
    pick(model, "r7")
    table.send_intent(play_of(model.play_selected()))
    prompt = model.prompt
    assert isinstance(prompt, TargetPrompt) and len(prompt.targets) == 9
    for _ in range(8):
        model.move_target(1)
    text = screen(model)
    assert ">10 Luca (2)" in " ".join(text.split())
    assert_in_step(table)


def test_six_players_in_pairs_show_three_teams() -> None:
    """Six seats make three teams (seat s with s + 3): the screen had letters for two and
    stopped with an IndexError on the first deal of any six-player game in pairs (found by
    checking every real view against client/bounds.py)."""
    model = fresh()
    table = house_table(
        model, RuleSet(hand_size=2, teams="pairs"),
        [["r5", "r6"], ["g1", "g2"], ["y1", "y2"], ["b1", "b2"], ["g3", "g4"], ["y3", "y4"]],
        "r0", {}, dealer=5,
    )
    lines = [line.strip() for line in screen(model).split("\n")]
    assert "Team A (Me + Dario): 0 pts · Team B (Bruno + Eva): 0 pts" in lines
    assert "Team C (Chiara + Fabio): 0 pts" in lines  # on a line of its own: 80 columns
    assert_in_step(table)
