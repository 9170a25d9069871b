"""The screen at 80x24, in colour and without (NO_COLOR): everything fits and is there."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

import pytest
from client_table import (
    LocalTable,
    face_of,
    play_of,
    play_out_the_round,
    play_to_the_forgotten_uno,
    scenario_table,
)
from prompt_toolkit.utils import get_cwidth

from client.i18n import Translator
from client.link import Caught, PanelRound, TablesListed, TrustReport, TrustStatus
from client.lobby import LobbyState, SeatInfo, TableInfo
from client.model import ChatLine, ClientModel, RoundResult, Screen
from client.render import Look, card_code, color_keys, compose, result_lines, trust_title
from client.rule_editor import editor_options
from unonet.actions import Accept, Catch, Challenge, Draw, Pass
from unonet.bots import NormalBot
from unonet.bots.base import Bot
from unonet.cards import Color
from unonet.match import Match
from unonet.rulebook import option_title
from unonet.rules import RuleSet
from unonet.scoring import hand_points

WIDTH, HEIGHT = 80, 23  # 24 rows less the chat input line


def screen_lines(model: ClientModel, plain: bool, width: int = WIDTH,
                 height: int = HEIGHT) -> list[str]:
    text = "".join(fragment[1] for fragment in compose(model, width, height, plain))
    lines = text.split("\n")
    assert len(lines) == height
    for line in lines:
        assert get_cwidth(line) <= width, line
    return lines


def styles(model: ClientModel, plain: bool) -> set[str]:
    return {fragment[0] for fragment in compose(model, WIDTH, HEIGHT, plain)}


def started(lang: str = "en") -> tuple[ClientModel, LocalTable]:
    model = ClientModel(Translator(lang), name="Me")
    table = scenario_table(model)
    table.start(model.apply)
    return model, table


def test_the_game_at_80x24_in_colour_shows_the_whole_table() -> None:
    model, _ = started()
    model.chat.append(ChatLine("Bruno", "good luck", 1))
    text = "\n".join(screen_lines(model, plain=False))
    for piece in ("Me (you)", "Bruno", "Chiara", "4 cards", "0 pts", "dealer", "Top:",
                  "Colour: red", "Draw pile: 95", "clockwise, next: Bruno", "Your turn",
                  "Your hand (4)", "Log", "Chat", "good luck", "The first card is red 3.",
                  "? help"):
        assert piece in text, piece
    used = styles(model, plain=False)
    assert "class:card.blue class:card.selected" in used  # b3, playable and selected
    assert "class:card.off class:fg.blue" in used  # bR, which does not play on r3
    assert any("fg.red" in s for s in used)  # the wild's multicolour letters, the red colour


def test_without_colour_cards_are_codes_with_text_markers() -> None:
    model, _ = started()
    model.select_index(1)
    text = "\n".join(screen_lines(model, plain=True))
    assert " *[B3]" in text  # playable on r3
    assert "> [BR]" in text  # selected (and not playable)
    assert " [W]" in text or "*[W]" in text
    assert "[R3]" in text  # the top card
    assert "* playable  > selected" in text
    assert not any("card." in s for s in styles(model, plain=True))


def test_prompts_fit_and_are_shown_at_80x24() -> None:
    model, table = started()
    model.select_index(2)
    model.play_selected()
    assert "Colour for Wild: r/1 red" in "\n".join(screen_lines(model, plain=True))
    table.send_intent(play_of(model.choose_color(Color.GREEN)))
    text = "\n".join(screen_lines(model, plain=False))
    assert "F challenges, Space accepts" in text
    table.send_intent(Challenge())
    table.send_intent(Draw())
    assert "You drew blue 9: Enter plays it" in "\n".join(screen_lines(model, plain=True))


def test_uno_and_catchable_players_are_marked() -> None:
    model, table = started()
    send = table.send_intent
    play_to_the_forgotten_uno(model, table)
    text = "\n".join(screen_lines(model, plain=True))
    assert "no UNO" in text  # Bruno forgot
    assert "counterclockwise" in text
    send(Catch(1))
    model.uno()
    text = "\n".join(screen_lines(model, plain=True))
    assert "UNO! goes with your next card" in text


def test_ten_players_fit_at_80x24() -> None:
    match = Match(RuleSet(), 10, b"ten")
    bots: dict[int, Bot] = {s: NormalBot(s, match.rules, match.manifest, seed=s)
                            for s in range(1, 10)}
    names = ["Me", "Ana", "Bruno", "Chiara", "Davi", "Elena", "Fabio", "Giulia", "Hugo", "Iris"]
    model = ClientModel(Translator("en"), name="Me")
    table = LocalTable(match, 0, bots, names, model=model)
    table.start(model.apply)
    text = "\n".join(screen_lines(model, plain=False))
    for name in names:
        assert name in text, name
    assert "Your hand" in text and "Top:" in text
    assert table.mismatches == []


def test_ten_players_keep_whole_names_and_the_dealer_at_80_columns() -> None:
    match = Match(RuleSet(), 10, b"ten")
    bots: dict[int, Bot] = {s: NormalBot(s, match.rules, match.manifest, seed=s)
                            for s in range(1, 10)}
    names = ["Alexandra", "Annabella", "Bruno", "Chiara", "Davi", "Elena", "Fabio",
             "Giulia", "Hugo", "Iris"]
    model = ClientModel(Translator("en"), name="Alexandra")
    table = LocalTable(match, 0, bots, names, model=model)
    table.start(model.apply)
    view = model.view
    assert view is not None and view.dealer is not None
    for plain in (False, True):
        lines = screen_lines(model, plain=plain)
        players = "\n".join(lines[1:6])  # five rows of two columns, under the title
        assert "Alexandra (you)" in players
        for name in names[1:]:
            assert re.search(rf"\b{name} +\d+ cards \d+ pts", players), name
        dealer = names[view.dealer]
        assert re.search(rf"{dealer} +\d+ cards \d+ pts dealer", players)


def test_ten_players_keep_the_points_unit_beside_a_long_name() -> None:
    match = Match(RuleSet(), 10, b"ten")
    bots: dict[int, Bot] = {s: NormalBot(s, match.rules, match.manifest, seed=s)
                            for s in range(1, 10)}
    names = ["Me", "Bartholomew Fitzgerald-Smithson", "Bruno", "Chiara", "Davi", "Elena",
             "Fabio", "Giulia", "Hugo", "Iris"]
    model = ClientModel(Translator("en"), name="Me")
    table = LocalTable(match, 0, bots, names, model=model)
    table.start(model.apply)
    for plain in (False, True):
        players = screen_lines(model, plain=plain)[1:6]
        for line in players:  # two seats a line, each score read as points
            assert len(re.findall(r"\d+ cards \d+ pts", line)) == 2, line
        assert "Bartholomew" in "\n".join(players)


def test_the_next_player_and_the_draw_pile_are_named() -> None:
    model, table = started()
    text = "\n".join(screen_lines(model, plain=True))
    assert "Draw pile: 95  ↻ clockwise, next: Bruno" in text
    play_to_the_forgotten_uno(model, table)  # a Reverse went down: the other way
    text = "\n".join(screen_lines(model, plain=True))
    assert "↺ counterclockwise, next: Chiara" in text or "↺ counterclockwise, next: Me" in text
    view = model.view
    assert view is not None and view.current is not None
    after = (view.current - 1) % 3
    assert f"next: {model.name(after)}" in text
    # Italian: the draw pile is "Da pescare"; "Mazzo" is only the deck checks of the title.
    it_model, _ = started("it")
    text = "\n".join(screen_lines(it_model, plain=True))
    assert "Da pescare: 95" in text and "poi: Bruno" in text
    lines = text.splitlines()
    assert "Mazzo:" in lines[0] and "t mazzo" in lines[-1]  # the deck checks, and their key
    assert "mazzo" not in "\n".join(lines[1:-1]).lower()


def game_at(width: int, rows: int, plain: bool = False) -> list[str]:
    """The game screen of a terminal of `rows` lines (one is the chat input)."""
    model, _ = started()
    return screen_lines(model, plain=plain, width=width, height=rows - 1)


def test_the_game_at_80x24_60x20_and_40x12() -> None:
    for width, rows in ((80, 24), (60, 20)):
        for plain in (False, True):
            text = "\n".join(game_at(width, rows, plain))
            for piece in ("Me (you)", "Bruno", "Chiara", "4 cards", "dealer", "Top:",
                          "Draw pile: 95", "next: Bruno", "Your turn", "Your hand (4)",
                          "? help  q quit"):
                assert piece in text, (width, piece)
            assert "larger" not in text
    small = game_at(40, 12)
    text = "\n".join(small)
    assert "Make the terminal larger: at least 60x18 (now 40x12)." in " ".join(
        line.strip() for line in small)
    assert "Your hand" not in text and "Top:" not in text  # nothing shown half
    assert small[-1].strip() == "q quit"  # the game is hidden: only leaving works


def test_the_key_bar_keeps_help_and_quit_and_shows_only_keys_in_force() -> None:
    model, _ = started()
    bar = screen_lines(model, plain=False, width=60, height=19)[-1]
    assert bar.rstrip().endswith("? help  q quit") and bar.startswith(" Enter play")
    assert "B buzz" not in screen_lines(model, plain=False)[-1]  # no buzzers: no B
    buzzers, _ = house_started(RuleSet(buzzers=True))
    assert "B buzz" in screen_lines(buzzers, plain=False)[-1]


@pytest.mark.parametrize(("lang", "draw", "take", "pass_"), [
    ("en", "Space draw", "Space take", "Space pass"),
    ("it", "Spazio pesca", "Spazio prende", "Spazio passa"),
    ("pt", "Espaço compra", "Espaço aceita", "Espaço passa"),
])
def test_the_key_bar_says_what_space_does_now(lang: str, draw: str, take: str,
                                              pass_: str) -> None:
    """Found in tmux: after a draw the bar still said "Space draw", where Space keeps the
    drawn card and passes. It says what Space does, as ClientModel.draw does it: take the
    Wild Draw Four played on us, draw, or pass."""
    model, table = started(lang)

    def bar() -> str:
        return screen_lines(model, plain=False)[-1]

    assert draw in bar()
    model.select_index(2)  # the scenario: a Wild naming green; Bruno g7; Chiara's bluffed +4
    model.play_selected()
    table.send_intent(play_of(model.choose_color(Color.GREEN)))
    assert any(isinstance(action, Accept) for action in model.legal)
    assert take in bar() and draw not in bar()
    table.send_intent(Challenge())  # she was bluffing: she draws 4, and it is our turn
    assert draw in bar()
    table.send_intent(Draw())  # b9: playable, so Space keeps it and passes
    assert any(isinstance(action, Pass) for action in model.legal)
    assert pass_ in bar() and draw not in bar()


def house_started(rules: RuleSet) -> tuple[ClientModel, LocalTable]:
    model = ClientModel(Translator("en"), name="Me")
    table = scenario_table(model, rules=rules)
    table.start(model.apply)
    return model, table


def test_in_italian_the_card_codes_use_the_colour_keys() -> None:
    model, _ = started("it")
    model.toggle_help()
    text = "\n".join(screen_lines(model, plain=True))
    assert "G giallo, V verde" in text and "g giallo, v verde" in text  # codes and keys agree
    model.toggle_help()
    text = "\n".join(screen_lines(model, plain=True))
    assert "[R3]" in text  # the top card: rosso 3 (the hand is blu 3, blu Cambio, two Jolly)
    green = next(c for c in range(108) if face_of(model, c).code == "g5")
    assert card_code(face_of(model, green), color_keys("it")) == "V5"
    assert card_code(face_of(model, green)) == "G5"


def test_without_colour_the_selected_playable_card_keeps_its_star() -> None:
    model, _ = started()
    model.select_index(0)
    text = "\n".join(screen_lines(model, plain=True))
    assert ">*[B3]" in text and "> [B3]" not in text  # b3 plays on r3: selected and playable
    model.select_index(1)
    text = "\n".join(screen_lines(model, plain=True))
    assert "> [BR]" in text and " *[B3]" in text


def twelve_card_result(model: ClientModel) -> tuple[RoundResult, list[int]]:
    """The last round's result with Chiara (seat 2) left holding twelve cards."""
    assert model.manifest is not None
    twelve = list(range(12))
    last = model.results[-1]
    hands = tuple(tuple(twelve) if seat == 2 else hand for seat, hand in enumerate(last.hands))
    return RoundResult(last.round_no, last.winner, hands, last.points, last.scores), twelve


def codes_on(lines: Sequence[str]) -> list[str]:
    return re.findall(r"\[([A-Z]+[^\]]*)\]", "\n".join(lines))


def test_the_score_screen_shows_a_twelve_card_hand_whole_at_80_columns() -> None:
    model, table = started()
    play_to_the_forgotten_uno(model, table)
    play_out_the_round(model, table)
    result, twelve = twelve_card_result(model)
    model.results[-1] = result
    assert model.manifest is not None
    lines = screen_lines(model, plain=True)
    codes = [card_code(face_of(model, card)) for card in twelve]
    shown = codes_on(lines)
    for code in codes:  # every card of the twelve, in order, on two lines under its column
        assert code in shown, code
    assert "more" not in "\n".join(lines)
    row = next(i for i, line in enumerate(lines) if line.startswith(" Chiara"))
    assert lines[row + 1].startswith(" " * 33 + "[")


def test_at_60x18_the_score_screen_gives_the_hands_every_line_it_has() -> None:
    model, table = started()
    play_to_the_forgotten_uno(model, table)
    play_out_the_round(model, table)
    last = model.results[-1]
    # Bruno holds twenty cards (five lines of four at 60 columns), Chiara twelve (three).
    hands = tuple(() if seat == last.winner else tuple(range(20, 40)) if seat == 1
                  else tuple(range(12)) for seat in range(len(last.hands)))
    model.results[-1] = replace(last, hands=hands, faces=())
    lines = screen_lines(model, plain=True, width=60, height=17)
    text = "\n".join(lines)
    assert "more" not in text, text  # 5 + 3 + 1 lines of hands fit, with nothing left empty
    assert len(codes_on(lines)) == 32
    assert "Target: 500" in text and "Waiting for: Me (you)" in text  # the wait is ours: we say so


def test_a_hand_that_cannot_fit_ends_in_a_count_and_its_points() -> None:
    model, table = started()
    play_to_the_forgotten_uno(model, table)
    play_out_the_round(model, table)
    result, twelve = twelve_card_result(model)
    assert model.manifest is not None
    lines = result_lines(model, result, 80, len(result.hands), Look(plain=True))  # no spare
    text = "\n".join("".join(f[1] for f in line) for line in lines)
    shown = [card for card in twelve if f"[{card_code(face_of(model, card))}]" in text]
    hidden = twelve[len(shown):]
    assert shown == twelve[:len(shown)] and hidden
    points = hand_points(model.manifest, hidden)
    assert f"+{len(hidden)} more ({points} pts)" in text
    assert hand_points(model.manifest, shown) + points == hand_points(model.manifest, twelve)


def match_over(lang: str) -> tuple[ClientModel, LocalTable]:
    """The scenario's round played out over a target of 50: Chiara's bluff costs her three
    Wild Draw Fours, 150 points and more, so the round ends the match."""
    model = ClientModel(Translator(lang), name="Me")
    draws = ["b7", "W+4", "W+4", "W+4", "b9", "r1", "r2"]
    table = scenario_table(model, rules=RuleSet(hand_size=4, target=50), draws=draws)
    table.start(model.apply)
    play_to_the_forgotten_uno(model, table)
    play_out_the_round(model, table)
    assert model.screen is Screen.MATCH_END
    return model, table


def test_the_match_end_shows_the_final_rounds_hands() -> None:
    model, _ = match_over("en")
    result, twelve = twelve_card_result(model)
    model.results[-1] = result
    text = "\n".join(screen_lines(model, plain=True))
    assert "You win the match!" in text and "Round 1: You win!" in text
    assert "Cards left" in text
    for card in twelve:
        assert f"[{card_code(face_of(model, card))}]" in text


@pytest.mark.parametrize(("lang", "all_rounds", "last_five"), [
    ("en", "Points per round", "Points per round (the last 5 of 14)"),
    ("it", "Punti per manche", "Punti per manche (le ultime 5 di 14)"),
    ("pt", "Pontos por rodada", "Pontos por rodada (as últimas 5 de 14)"),
])
def test_the_match_end_says_when_it_shows_only_the_last_rounds(
    lang: str, all_rounds: str, last_five: str
) -> None:
    """Found at 60 columns after fourteen rounds: "#10 #11 … #14" under "Points per round",
    as if the match had had five rounds and the totals did not add up."""
    model, _ = match_over(lang)
    one = "\n".join(screen_lines(model, plain=True, width=60, height=17))
    assert all_rounds in one and "(" not in one.split(all_rounds)[1].split("\n")[0]
    model.results = [replace(model.results[-1], round_no=n) for n in range(1, 15)]
    text = "\n".join(screen_lines(model, plain=True, width=60, height=17))
    assert last_five in text and "#10" in text and "#14" in text and "#9 " not in text
    wide = "\n".join(screen_lines(model, plain=True, width=120, height=24))
    assert "#1 " in wide or f"{all_rounds} (" in wide


def test_the_round_end_and_match_end_screens_fit() -> None:
    model, table = started()
    play_to_the_forgotten_uno(model, table)
    play_out_the_round(model, table)
    text = "\n".join(screen_lines(model, plain=True))
    for piece in ("Round 1: You win!", "Points", "Total", "Cards left", "[R1]", "[G1]",
                  "Target: 500", "Enter: ready for the next round"):
        assert piece in text, piece
    assert table.mismatches == []


def test_the_match_end_screen_names_the_winner_and_every_rounds_points() -> None:
    model, table = match_over("it")
    text = "\n".join(screen_lines(model, plain=False))
    for piece in ("Hai vinto la partita!", "Punti per manche", "Totale", "#1", "154"):
        assert piece in text, piece
    assert any("vince la partita con 154 punti" in line for line in model.log)
    assert table.mismatches == []


def test_the_lobby_shows_seats_ready_flags_and_the_rules_in_words() -> None:
    model = ClientModel(Translator("pt"), name="Me")
    seats = (SeatInfo(0, "human", "Me", True, True), SeatInfo(1, "bot", "Bruno", True, True),
             SeatInfo(2, "human", "Chiara", False, False), SeatInfo(3, "empty", None, False, False))
    rules = {"uno_penalty": 4, "stacking": "same_kind"}
    model.apply_lobby(LobbyState(0, "casa", 1, rules, seats, False, "party", 2, 0))
    text = "\n".join(screen_lines(model, plain=True))
    for piece in ("Mesa casa", "Me", "Bruno", "bot", "dono", "desconectado", "(lugar vazio)",
                  "pronto", "Penalidade do UNO: 4 cartas",
                  "Acumular cartas de compra: mesmo tipo", "Esperando o dono começar."):
        assert piece in text, piece
    # The owner sees the option list instead, with a cursor.
    model.apply_lobby(LobbyState(0, "casa", 0, rules, seats, False, "party", 0, 0))
    text = "\n".join(screen_lines(model, plain=True))
    first = option_title(editor_options()[0].name, "pt")  # the cursor starts on the first
    assert f"> {first}" in text and "s começa" in text
    assert "Variante" not in text  # the engine plays only classic: not offered


def test_an_operators_table_says_it_starts_when_everyone_is_ready() -> None:
    """A dedicated server's table has no owner (table_state.owner nil, SPEC [UNO-8-6]):
    nobody will press start, so the lobby says what does start it: every seat taken (found
    in tmux: "when every seated player is ready" under three ready bots and an empty seat)."""
    model = ClientModel(Translator("en"), name="Zed")
    seats = (SeatInfo(0, "bot", "Ana", True, True), SeatInfo(1, "human", "Zed", False, True))
    model.apply_lobby(LobbyState(0, "unonet", None, {}, seats, False, "official", 1, 0))
    text = "\n".join(screen_lines(model, plain=True))
    assert "The match starts once every seat is taken and every player is ready." in text
    assert "owner" not in text


def test_the_lobby_help_lists_the_lobby_keys() -> None:
    model = ClientModel(Translator("en"), name="Me")
    seats = (SeatInfo(0, "human", "Me", True, True), SeatInfo(1, "bot", "Bruno", True, True))
    model.apply_lobby(LobbyState(0, "casa", 0, {}, seats, False, "official", 0, 0))
    model.toggle_help()
    text = "\n".join(screen_lines(model, plain=False))
    for piece in ("r: ready", "p: the next preset", "Up/Down: choose a rule",
                  "Left/Right: change", "a: add a bot (", "x: remove the last bot",
                  "s: start the match",
                  "1-0: move to that empty seat", "e: change your name", "q or Ctrl-C"):
        assert piece in text, piece
    for piece in ("Space: draw", "Enter: play", "U: call UNO"):
        assert piece not in text, piece
    guest = ClientModel(Translator("en"), name="Me")
    guest.apply_lobby(LobbyState(0, "casa", 1, {}, seats, False, "official", 0, 0))
    guest.toggle_help()
    text = "\n".join(screen_lines(guest, plain=False))
    assert "r: ready" in text and "a: add a bot" not in text and "p: the next" not in text


def test_the_game_help_follows_the_rules_in_force() -> None:
    rules = RuleSet(buzzers=True, sequences=True, seven_zero=True, jump_in="identical",
                    wd4_policy="free")
    model, _ = house_started(rules)
    model.toggle_help()
    text = "\n".join(screen_lines(model, plain=True))
    for piece in ("B: press the buzzer", "M: mark cards", "swap hands", "jump in",
                  "Without colour: R red"):
        assert piece in text, piece
    assert "F: challenge" not in text  # a free +4 cannot be challenged


def test_the_help_overlay_lists_the_keys() -> None:
    model, _ = started("it")
    model.toggle_help()
    text = "\n".join(screen_lines(model, plain=False))
    for piece in ("Tasti", "Spazio: pesca", "U: dici UNO", "F: contesta", "g giallo, v verde"):
        assert piece in text, piece
    # Only keys the rules in force give a use: the official rules have no buzzer, run or 7.
    for piece in ("B: premi il buzzer", "M: segna", "scambiare la mano", "Senza colori"):
        assert piece not in text, piece



def test_the_table_list_and_the_lobby_show_the_name_and_seat_keys() -> None:
    for lang, pieces in (("en", ("Your name: Ada", "1-0 join at seat", "e name")),
                         ("it", ("Il tuo nome: Ada", "1-0 al posto", "e nome")),
                         ("pt", ("Seu nome: Ada", "1-0 no lugar", "e nome"))):
        model = ClientModel(Translator(lang), name="Ada")
        model.apply(TablesListed((TableInfo(0, "casa", 4, 1, False),)))
        text = "\n".join(screen_lines(model, plain=True))
        for piece in pieces:
            assert piece in text, piece
        seats = tuple(SeatInfo(i, "human" if i == 0 else "empty", "Ada" if i == 0 else None,
                               False, i == 0) for i in range(10))
        for owner in (0, None):  # the owner's key bar and everyone else's, with ten seats
            model.apply_lobby(LobbyState(0, "casa", owner, {}, seats, False, "official", 0, 0))
            text = "\n".join(screen_lines(model, plain=False))
            assert "? " in text and ("q leave" in text or "q esci" in text or "q sai" in text)
            if owner is None:
                assert "1-0" in text and ("e name" in text or "e nome" in text)


def test_a_wide_owner_s_key_bar_offers_remove_and_chat() -> None:
    """Found in tmux: the owner's bar never offered k (remove a player) nor Tab (chat), at
    any width; the others' offered Tab. Where there is room, both are on it."""
    seats = tuple(SeatInfo(i, "human" if i == 0 else "bot", f"P{i}", True, True)
                  for i in range(3))
    for lang, pieces in (("en", ("k remove", "Tab chat")), ("it", ("k manda via", "Tab chat")),
                         ("pt", ("k tira", "Tab chat"))):
        model = ClientModel(Translator(lang), name="P0")
        model.apply_lobby(LobbyState(0, "casa", 0, {}, seats, False, "official", 0, 0))
        bar = "".join(part[1] for part in compose(model, 120, 24, True)).split("\n")[-1]
        for piece in pieces:
            assert piece in bar, (lang, piece)


def title(model: ClientModel) -> tuple[str, str]:
    from client.render import header

    line = header(model, WIDTH)
    text = "".join(part[1] for part in line)
    assert get_cwidth(text) <= WIDTH
    return line[0][0], text


def rounds(*states: str, absent: tuple[int, ...] = ()) -> tuple[PanelRound, ...]:
    return tuple(PanelRound(n, state, absent if n == len(states) else ())
                 for n, state in enumerate(states, 1))


def test_the_title_says_checking_until_the_audit_then_audited_never_verified_early() -> None:
    for lang, checking, audited in (("en", "checking round 2", "round 2 audited"),
                                    ("it", "verifica manche 2", "manche 2 verificata"),
                                    ("pt", "verificando rodada 2", "rodada 2 auditada")):
        model = ClientModel(Translator(lang), name="Me")
        assert model.tr("trust.unchecked") in title(model)[1]
        model.apply(TrustStatus(rounds("audited", "checking")))
        style, text = title(model)
        assert checking in text and style == "class:title"
        assert "verified" not in text and "audited" not in text.replace(checking, "")
        model.apply(TrustStatus(rounds("audited", "audited")))
        assert audited in title(model)[1]


@pytest.mark.parametrize("lang", ["en", "it", "pt"])
def test_a_violation_stays_in_the_title_until_the_panel_was_opened(lang: str) -> None:
    model = ClientModel(Translator(lang), name="Me")
    tr = model.tr
    caught_mark = tr("trust.title_caught", what="").split(":")[0]  # "HOST CAUGHT", ...
    caught = Caught(1, "card_mismatch", "card at position (0, 3) does not match")
    model.apply(TrustStatus(rounds("violated"), (caught,)))
    style, text = title(model)
    assert style == "class:title.alert" and caught_mark in text
    assert tr("trust.card_mismatch") in text
    for later in range(2, 40):  # many rounds later, all of them fine: still there
        model.apply(TrustStatus(rounds("violated", *["audited"] * (later - 1)), (caught,)))
        model.apply(TrustReport(True, what=f"round {later} audited", round_no=later))
    style, text = title(model)
    assert style == "class:title.alert" and tr("trust.card_mismatch") in text
    model.toggle_trust()  # the player looks at the panel ...
    assert "card at position (0, 3) does not match" in "\n".join(screen_lines(model, False))
    model.toggle_trust()  # ... and closes it: the title goes back to the round, naming it
    style, text = title(model)
    assert style == "class:title" and tr("trust.title_audited", round=39) in text
    deck, alert = trust_title(model)  # the bar cuts it at its width; the whole of it is:
    assert tr("trust.title_first", what=tr("trust.card_mismatch")) in deck and not alert
    second = Caught(40, "deal_order", "position (0, 4) went to seat 2, the rule gives seat 1")
    model.apply(TrustStatus(rounds("violated", *["audited"] * 38, "violated"), (caught, second)))
    style, text = title(model)  # the alert again, for the new one, still naming the first
    assert style == "class:title.alert"
    assert tr("trust.title_caught_rest", what=tr("trust.card_mismatch"), rest=1) in text
    assert tr("trust.deal_order") not in text
    model.toggle_trust()
    model.toggle_trust()
    deck, _ = trust_title(model)  # still the alert style: the round in play is the violated
    assert tr("trust.title_first_rest", what=tr("trust.card_mismatch"), rest=1) in deck


def test_the_title_counts_re_deals_and_names_a_seat_whose_seed_did_not_go_in() -> None:
    model, _ = started()
    model.apply(TrustStatus(rounds("abandoned", "checking", absent=(1,)), abandoned_rounds=1))
    text = title(model)[1]
    assert "re-dealt: 1" in text and "no seed: Bruno" in text and "checking round 2" in text


def panel_status(violations: int, round_count: int) -> TrustStatus:
    caught = tuple(Caught(n, "card_mismatch" if n % 2 else "seed_reveals",
                          f"the detail of violation {n}, long enough to be wrapped on a screen "
                          f"eighty columns wide, as the verifier's sentences are")
                   for n in range(1, violations + 1))
    states = ["violated" if n <= violations else "audited" for n in range(1, round_count)]
    return TrustStatus(rounds(*states, "checking", absent=(2,)), (Caught(None, "match_id",
                       "a second manifest"), *caught), abandoned_rounds=3,
                       host_key="DZ3T-AWM5-3AC7-X6K4-OIPI-SFDA-JGPV-4LUG-EIJ3-2WTO-AWG6-6Y2P-TMUQ",
                       transcript="/home/me/.local/x.msgpack")


def test_the_trust_panel_at_80x24_in_three_languages() -> None:
    for lang in ("en", "it", "pt"):
        model, _ = started(lang)
        model.apply(panel_status(2, 5))
        model.toggle_trust()
        for plain in (False, True):
            text = "\n".join(screen_lines(model, plain))
            tr = model.tr
            for piece in (tr("trust.panel_title"), "6Y2P-TMUQ", "/home/me/.local/x.msgpack",
                          tr("trust.panel_redealt", count=3), tr("trust.match_id"),
                          tr("trust.card_mismatch"), tr("trust.seed_reveals"),
                          "the detail of violation 2", tr("trust.state_checking"),
                          tr("trust.state_audited"), tr("trust.state_violated"),
                          tr("trust.panel_no_seed", names="Chiara"), tr("trust.panel_keys")):
                assert piece in text, (lang, piece)
        assert model.unseen_violation is None


def test_the_trust_panel_cuts_a_long_match_and_keeps_the_violations_first() -> None:
    model, _ = started()
    model.apply(panel_status(3, 60))
    model.toggle_trust()
    text = "\n".join(screen_lines(model, False))
    assert "the detail of violation 3" in text and "Round 60: checking" in text
    assert "more" in text and "Round 1: VIOLATION" not in text
    model.apply(panel_status(30, 31))
    text = "\n".join(screen_lines(model, False))
    assert "the detail of violation 1," in text and "more" in text
    model.apply(TrustStatus())
    text = "\n".join(screen_lines(model, False))
    assert "none: without TLS" in text and model.tr("trust.unchecked") in text



@pytest.mark.parametrize(("lang", "tag"), [("en", "offline, dealer"),
                                           ("pt", "desconectado, carteador")])
def test_a_dealer_who_drops_stays_the_dealer(lang: str, tag: str) -> None:
    """Found in tmux: the dealer's client killed mid-round, the host's table read "… 0 pts
    offline" with no "dealer" anywhere, as if the deal had moved; back on its rejoin."""
    model = ClientModel(Translator(lang), name="Me")
    scenario_table(model).start(model.apply)  # Chiara, seat 2, deals
    seats = (SeatInfo(0, "human", "Me", True, True), SeatInfo(1, "bot", "Bruno", True, True),
             SeatInfo(2, "human", "Chiara", True, False))
    model.apply_lobby(LobbyState(0, "casa", 0, {}, seats, True, "official", 0, 0))
    for width in (80, 60):
        chiara = next(line for line in screen_lines(model, plain=True, width=width)
                      if "Chiara" in line)
        assert chiara.rstrip().endswith(tag), (width, chiara)


def test_the_lobby_after_a_match_names_no_round_of_it() -> None:
    """Found in tmux: back in the lobby after a match, the title bar still read "Round 1"
    of the match that was over."""
    model, _ = match_over("en")
    assert "Round 1" in screen_lines(model, plain=True)[0]
    assert model.lobby is not None
    model.rematch()  # asked; nobody else did: the table's lobby follows
    model.apply_lobby(replace(model.lobby, started=False))
    assert model.screen is Screen.LOBBY
    assert "Round" not in screen_lines(model, plain=True)[0]
