"""The client model, driven by intents against a real engine Match (tests/client_table.py)."""

from __future__ import annotations

from dataclasses import replace

from client_table import (
    LocalTable,
    code_of,
    face_of,
    house_table,
    play_of,
    play_to_the_forgotten_uno,
    scenario_table,
)

from client.i18n import Translator
from client.link import ChatReceived, ConnectionChanged, LobbyChanged, Refused, TablesListed
from client.lobby import CreateTable, JoinTable, LobbyState, SeatInfo, TableInfo
from client.model import (
    ChallengePrompt,
    ClientModel,
    ColorPrompt,
    DrawnCardPrompt,
    QuitPrompt,
    Screen,
)
from unonet.actions import Accept, CallUno, Catch, Challenge, ChooseColor, Draw, Play
from unonet.cards import Color
from unonet.rules import RuleSet
from unonet.view import View


def setup(lang: str = "en") -> tuple[ClientModel, LocalTable]:
    model = ClientModel(Translator(lang), name="Me")
    table = scenario_table(model)
    table.start(model.apply)
    return model, table


def afresh(model: ClientModel) -> ClientModel:
    """`model` itself, for reading an attribute again after a call changed it: mypy keeps
    `model.prompt` (say) narrowed by an earlier assert, but not `afresh(model).prompt`."""
    return model


def view_of(model: ClientModel) -> View:
    """`model.view` read afresh (after the updates a call applied); there is one."""
    view = model.view
    assert view is not None
    return view


def hand_codes(model: ClientModel) -> list[str]:
    return [face_of(model, c).code for c in model.hand]


def test_a_whole_round_through_the_models_intents() -> None:
    model, table = setup()
    send = table.send_intent
    match = table.match
    assert model.screen is Screen.GAME
    assert model.my_turn
    assert hand_codes(model) == ["b3", "bR", "W", "W"]  # sorted: blue, then wilds

    # A wild opens the colour picker; the colour makes the play.
    model.select_index(2)
    assert model.play_selected() is None
    prompt = model.prompt
    assert isinstance(prompt, ColorPrompt) and prompt.card is not None
    assert Color.GREEN in prompt.colors
    action = play_of(model.choose_color(Color.GREEN))
    assert action.color is Color.GREEN and action in model.legal
    send(action)

    # Chiara bluffed a Wild Draw Four: the challenge decision is ours.
    assert isinstance(model.prompt, ChallengePrompt)
    assert model.prompt.target == 2
    assert model.challenge() == Challenge()
    send(Challenge())
    assert any("bluffing" in line for line in model.log)
    assert model.view is not None and model.view.seats[2].cards == 7
    assert model.my_turn and model.view.active_color is Color.BLUE

    # Space draws; the drawn card is offered; Enter plays it whatever is selected.
    assert model.draw() == Draw()
    send(Draw())
    prompt = afresh(model).prompt
    assert isinstance(prompt, DrawnCardPrompt) and code_of(match, prompt.card) == "b9"
    model.select_index(0)
    action = play_of(model.play_selected())
    assert code_of(match, action.card) == "b9"
    send(action)

    # bR: play goes right.
    model.select_card(next(c for c in model.hand if face_of(model, c).code == "bR"))
    send(play_of(model.play_selected()))
    assert model.view.direction == -1

    # Bruno played his next-to-last card without UNO: U catches him.
    assert model.view.seats[1].catchable
    assert model.uno() == Catch(1)
    send(Catch(1))
    assert model.view.seats[1].cards == 3

    # U with two cards marks the next play with the UNO call.
    assert model.uno() is None and model.uno_armed
    model.select_index(0)
    action = play_of(model.play_selected())
    assert action.uno and code_of(match, action.card) == "b3"
    send(action)
    assert model.view.seats[0].uno_called
    assert not afresh(model).uno_armed

    # The last card, a Wild: red, and the round is ours.
    assert model.play_selected() is None
    send(play_of(model.choose_color(Color.RED)))
    assert afresh(model).screen is Screen.ROUND_END
    result = model.results[-1]
    assert result.winner == 0 and result.points[0] == 10
    assert table.mismatches == []


def test_every_action_the_model_returns_is_legal() -> None:
    model, _ = setup()
    model.select_index(0)
    assert model.play_selected() in model.legal  # b3 on r3
    assert model.challenge() is None and "nothing to challenge" in model.notice
    assert model.accept() is None
    assert model.buzz() is None
    assert model.choose_target(1) is None
    assert model.uno() is None and "Nobody" in model.notice  # four cards: nothing to call


def test_out_of_turn_keys_say_why_they_did_nothing() -> None:
    model, table = setup()
    model.select_index(2)
    model.play_selected()
    table.send_intent(play_of(model.choose_color(Color.GREEN)))
    # The challenge decision is pending: Space accepts the +4 instead of drawing.
    assert model.draw() == Accept()
    model.local_prompt = None
    assert isinstance(model.prompt, ChallengePrompt)


def test_a_late_uno_is_called_with_u_holding_one_card() -> None:
    model, table = setup()
    send = table.send_intent
    play_to_the_forgotten_uno(model, table)  # ends with our bR
    send(Catch(1))
    model.select_index(0)
    # Chiara waits: the bots stubbed out on this one table (mypy flags any assignment to a method)
    table.run_bots = lambda: None  # type: ignore[method-assign]
    send(play_of(model.play_selected()))  # b3 without the call: we are catchable
    assert model.view is not None and model.view.seats[0].catchable
    assert model.uno() == CallUno()
    send(CallUno())
    me = view_of(model).seats[0]
    assert me.uno_called and not me.catchable
    assert table.mismatches == []


def test_the_quit_prompt_and_help_are_local() -> None:
    model, _ = setup()
    model.request_quit()
    assert isinstance(model.prompt, QuitPrompt)
    model.cancel_prompt()
    assert afresh(model).prompt is None
    model.toggle_help()
    assert model.show_help


def test_the_log_speaks_the_players_language() -> None:
    model, table = setup("it")
    model.select_index(2)
    model.play_selected()
    table.send_intent(play_of(model.choose_color(Color.GREEN)))
    text = "\n".join(model.log)
    assert "Me gioca Jolly: Cambio colore, verde." in text
    assert "Bruno gioca 7 verde." in text
    assert "Chiara gioca Jolly +4" in text
    model_pt, table_pt = setup("pt")
    model_pt.select_index(0)
    table_pt.send_intent(play_of(model_pt.play_selected()))
    assert any("compra" in line or "joga" in line for line in model_pt.log)


def test_a_refused_intent_becomes_a_notice() -> None:
    model, table = setup()
    table.send_intent(Play(9999))
    assert model.notice.startswith("Refused")


def test_after_a_round_the_model_holds_the_next_deal_until_enter() -> None:
    from client.link import GameEvent
    from client.lobby import SetReady
    from unonet.events import RoundEnded, RoundStarted

    model, _ = setup()
    assert model.view is not None
    seats = len(model.view.seats)
    ended = RoundEnded(0, tuple(() for _ in range(seats)), (0,) * seats, (0,) * seats)
    model.apply(GameEvent(ended, ()))
    assert model.outbox == [SetReady(False)]  # SPEC.md [UNO-8-10]: reading the scores
    assert model.ready_next_round() == SetReady(True)
    model.apply(GameEvent(RoundStarted(2, 1, 108), ()))
    assert not model.reading_scores


def lobby(you: int, names: tuple[str | None, ...], started: bool = False) -> LobbyState:
    seats = tuple(SeatInfo(i, "empty" if n is None else "human", n, False, n is not None)
                  for i, n in enumerate(names))
    return LobbyState(5, "t", 0, {}, seats, started, "official", 0, you)


def test_a_name_chosen_before_joining_goes_with_the_join() -> None:
    model = ClientModel(Translator("it"), name="Me")
    assert model.set_name("   ") is None and model.my_name == "Me"
    assert model.notice == "Il nome deve avere almeno un carattere."
    assert model.set_name("  Ada   Lovelace ") is None  # no table yet: nothing to send
    assert model.my_name == "Ada Lovelace" and "Ada Lovelace" in model.notice
    assert model.set_name("x" * 40) is None and model.my_name == "x" * 32  # SPEC: str(1..32)
    model.set_name("Ada")
    model.apply(TablesListed((TableInfo(5, "t", 4, 1, False),)))
    assert model.join_selected() == JoinTable(5, "Ada")
    assert model.join_selected(2) == JoinTable(5, "Ada", 2)


def test_a_new_table_is_named_for_its_owner_in_the_owners_words() -> None:
    """Found in tmux: a table opened from the list was "table 1" for a Portuguese player. It
    is named for its owner now; a name too long for a table's leaves it to the host."""
    assert ClientModel(Translator("pt"), name="Zé").create_table() == CreateTable("Mesa de Zé")
    assert ClientModel(Translator("it"), name="Bea").create_table() == CreateTable(
        "Tavolo di Bea")
    assert ClientModel(Translator("en"), name="A" * 32).create_table() == CreateTable()


def test_a_name_chosen_before_creating_a_table_renames_us_once_seated() -> None:
    """create_table seats us under the hello name; the model asks for ours once."""
    model = ClientModel(Translator("en"), name="Me")
    model.set_name("Ada")
    assert model.create_table() == CreateTable("Ada's table")
    model.apply_lobby(lobby(0, ("Me", None)))
    assert model.outbox == [JoinTable(5, "Ada")]
    model.outbox.clear()
    model.apply_lobby(lobby(0, ("Ada", None)))
    assert model.outbox == []


def test_a_seat_number_in_the_lobby_moves_us_to_an_empty_seat() -> None:
    model = ClientModel(Translator("pt"), name="Me")
    model.apply_lobby(lobby(0, ("Me", "Bo", None)))
    assert model.move_to_seat(2) == JoinTable(5, "Me", 2)
    assert model.move_to_seat(0) is None and model.notice == ""  # already there
    assert model.move_to_seat(1) is None and model.notice == "O lugar 2 está ocupado."
    assert model.move_to_seat(9) is None and model.notice == "Esta mesa não tem o lugar 10."
    assert model.set_name("Ana") == JoinTable(5, "Ana")  # seated: a rename where we sit
    model.apply_lobby(lobby(0, ("Ana", "Bo", None), started=True))
    assert model.move_to_seat(2) is None  # not during a match


def test_a_refusal_goes_once_the_lobby_has_changed() -> None:
    model = ClientModel(Translator("en"), name="Me")
    model.apply(LobbyChanged(lobby(0, ("Me", "Bo"))))
    model.apply(Refused("not_ready", "every seated player must be ready"))
    assert model.notice == "Refused: every seated player must be ready"
    model.apply(ChatReceived("Bo", "one moment", 1))  # chat is not what it was about
    assert model.notice.startswith("Refused")
    ready = lobby(0, ("Me", "Bo"))
    ready = LobbyState(ready.table, ready.name, ready.owner, ready.rules,
                       tuple(replace(seat, ready=True) for seat in ready.seats), False,
                       ready.preset, 0, 0)
    model.apply(LobbyChanged(ready))  # Bo is ready now: the refusal is no longer true
    assert model.notice == ""
    model.apply(LobbyChanged(lobby(0, ("Me", "Bo"))))  # and it does not come back
    assert model.notice == ""


def test_your_name_is_now_goes_when_the_table_seats_us_under_another() -> None:
    model = ClientModel(Translator("en"), name="Me")
    model.apply(LobbyChanged(lobby(0, ("Me", "Bo"))))
    assert model.set_name("Anna") == JoinTable(5, "Anna")
    assert model.notice == "Your name is now Anna."
    model.apply(LobbyChanged(lobby(0, ("Anna", "Bo"))))  # the host took it: still true
    assert model.notice == "Your name is now Anna."
    model.apply(LobbyChanged(lobby(0, ("Anna 2", "Bo"))))  # the host made it unique
    assert model.notice == ""
    # Chosen on the table list, it goes when the screen does (the lobby shows the name).
    model = ClientModel(Translator("en"), name="Me")
    model.apply(TablesListed((TableInfo(5, "t", 4, 1, False),)))
    model.set_name("Anna")
    assert model.notice == "Your name is now Anna."
    model.apply(LobbyChanged(lobby(0, ("Anna", None))))
    assert model.notice == ""


def test_an_answer_to_a_key_goes_when_the_game_moves_on() -> None:
    model, table = setup()
    model.select_index(1)  # bR does not play on r3
    assert model.play_selected() is None and "cannot be played" in model.notice
    model.select_index(0)
    table.send_intent(play_of(model.play_selected()))  # b3: the others play, our turn again
    assert model.notice == ""


def test_the_selection_starts_on_a_playable_card_each_turn() -> None:
    model = ClientModel(Translator("en"), name="Me")
    # Sorted by colour the hand is r5 r6 g2 b7 b8: the first card does not play on b1.
    hands = [["r5", "b7", "g2", "r6", "b8"], ["b2", "b3", "r9", "r8", "r7"],
             ["b4", "b5", "g9", "g8", "g7"]]
    table = house_table(model, RuleSet(hand_size=5), hands, "b1", {1: ["b2"], 2: ["b4"]})
    assert model.my_turn and hand_codes(model) == ["r5", "r6", "g2", "b7", "b8"]
    assert hand_codes(model)[model.selected] == "b7"  # not r5: Enter plays something
    model.select_index(4)  # the player's own choice, b8, is kept while the turn lasts
    model.apply(Refused("not_your_turn"))
    assert hand_codes(model)[model.selected] == "b8"
    table.send_intent(play_of(model.play_selected()))  # b8; Bruno b2, Chiara b4
    assert model.my_turn and model.selected_card in model.playable
    assert hand_codes(model)[model.selected] == "b7"


def test_after_we_name_the_colour_of_a_turned_up_wild_the_selection_is_on_a_card_that_plays(
) -> None:
    model = ClientModel(Translator("en"), name="Me")
    # A Wild turned up: we play first, so we name its colour, then play. Sorted, the hand is
    # r5 b7; naming blue, only b7 plays, and Enter must play it (a test in tmux pressed Enter
    # on r5 for two minutes: the turn had started before the colour was named).
    hands = [["r5", "b7"], ["y2", "y3"]]
    table = house_table(model, RuleSet(hand_size=2), hands, "W", {1: []}, dealer=1)
    assert model.my_turn and hand_codes(model) == ["r5", "b7"]
    assert ChooseColor(Color.BLUE) in model.legal
    table.send_intent(ChooseColor(Color.BLUE))
    assert model.my_turn and model.selected_card in model.playable
    assert hand_codes(model)[model.selected] == "b7"
    assert code_of(table.match, play_of(model.play_selected()).card) == "b7"


def test_after_our_own_skip_with_two_players_the_selection_is_on_a_card_that_plays() -> None:
    model = ClientModel(Translator("en"), name="Me")
    # Two players: our gS on g1 skips Bruno, so the turn stays ours and only g7 plays on gS.
    hands = [["gS", "r5", "r6", "g7", "b8"], ["y2", "y3", "y4", "y5", "y6"]]
    table = house_table(model, RuleSet(hand_size=5), hands, "g1", {1: []}, dealer=1)
    assert model.my_turn and hand_codes(model) == ["r5", "r6", "g7", "gS", "b8"]
    model.select_index(3)
    table.send_intent(play_of(model.play_selected()))
    assert model.my_turn and hand_codes(model) == ["r5", "r6", "g7", "b8"]
    assert hand_codes(model)[model.selected] == "g7"  # not b8, where the index fell


def test_a_refused_join_on_the_table_list_stays_over_the_list_it_brings() -> None:
    model = ClientModel(Translator("en"), name="Me")
    model.apply(TablesListed((TableInfo(0, "t", 2, 1, False),)))
    model.apply(Refused("table_full", "table 1 is full"))
    # The link asks for the list again after a refused join: its answer is the refusal's
    # consequence, not a change that makes it untrue.
    model.apply(TablesListed((TableInfo(0, "t", 2, 2, True),)))
    assert model.notice == "Refused: table 1 is full"
    model.apply(TablesListed((TableInfo(0, "t", 2, 2, True), TableInfo(1, "u", 4, 0, False))))
    assert model.notice == ""  # a later change of the list: it goes as any answer does


def test_a_resume_tells_the_rounds_missed_events_once_the_seats_have_names() -> None:
    """A fresh client resuming in mid-round gets the round's events in its history before
    the snapshot, and the table's names only after it (table_state ends a resume): the log
    says nothing until the names are there, then the same lines as a client that saw it all
    live."""
    from client.link import GameEvent, ManifestReceived, MissedEvents, Snapshot, Update

    seen: list[Update] = []
    live = ClientModel(Translator("en"), name="Me")
    table = scenario_table(live)

    def deliver(update: Update) -> None:
        seen.append(update)
        live.apply(update)

    table.start(deliver)
    live.select_index(2)
    live.play_selected()
    table.send_intent(play_of(live.choose_color(Color.GREEN)))
    events = tuple(u.event for u in seen if isinstance(u, GameEvent))
    names = [u for u in seen if isinstance(u, LobbyChanged)][-1]
    assert len(events) > 5 and any("Bruno" in line for line in live.log)

    resumed = ClientModel(Translator("en"), name="Me")
    resumed.apply(ManifestReceived(table.match.manifest))
    resumed.apply(MissedEvents(events))
    resumed.apply(Snapshot(table.match.view(table.me), table.legal()))
    assert list(resumed.log) == []  # no names yet: "Seat 2" would be wrong
    resumed.apply(names)
    assert list(resumed.log) == list(live.log)


def test_a_refusal_stays_while_the_game_is_as_it_was_across_a_reconnection() -> None:
    """A refusal answers something the player did: it holds while the table is as it was,
    a reconnection included. (A fatal refusal, the host stopping say, never arrives here: the
    connection's end says it, once: test_client_link_session.)"""
    model = ClientModel(Translator("en"), name="Me")
    model.apply(ConnectionChanged("connected"))
    model.apply(LobbyChanged(lobby(0, ("Me", "Bo"))))
    model.apply(Refused("not_ready", "every seated player must be ready"))
    model.apply(ConnectionChanged("reconnecting", "the host is gone"))
    model.apply(ConnectionChanged("connected"))
    assert model.notice == "Refused: every seated player must be ready"
