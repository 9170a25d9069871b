"""The owner's moderation from the client: `k` then a seat's number removes that player from
the lobby (a bot is removed as with x), `p` then a seat's number during a round gives that
player seed 000's hinting penalty (RULES.md 1.11: "draws 2"). The host had both (SPEC.md
`kick`, `penalize`), and `unonet host --player-owner` promised them to owners, but no key of
the client sent either. Each is played here over real sockets, from the key to the host."""

from __future__ import annotations

from typing import Literal

import pytest
import trio
from client_net import MACHINE_SPEED, start_link

from client.i18n import Translator
from client.link import (
    ChatReceived,
    ConnectionChanged,
    GameEvent,
    LobbyChanged,
    TablesListed,
    Update,
)
from client.lobby import (
    HINT_PENALTY,
    AddBot,
    CreateTable,
    JoinTable,
    Kick,
    Penalize,
    RemoveBot,
    SetReady,
    StartMatch,
)
from client.model import ClientModel, ColorPrompt, QuitPrompt, SeatPrompt
from client.network import LinkConfig
from client.render import compose
from host.registry import Registry
from host.server import HostServer, ServerConfig
from host.settings import FAST_TIMINGS
from unonet import events as ev


def local_prompt(model: ClientModel) -> ColorPrompt | QuitPrompt | SeatPrompt | None:
    """`model.local_prompt` read afresh: mypy keeps a re-read narrowed by an earlier assert."""
    return model.local_prompt


async def club(nursery: trio.Nursery) -> int:
    """A host with no table yet: its players open them (and own them) from the lobby."""
    server = HostServer(Registry(FAST_TIMINGS),
                        ServerConfig(bind="127.0.0.1", port=0, limits=MACHINE_SPEED))
    listeners: list[trio.SocketListener] = await nursery.start(server.serve)
    return int(listeners[0].socket.getsockname()[1])


def screen(model: ClientModel) -> str:
    return "".join(fragment[1] for fragment in compose(model, 80, 23, plain=False))


async def test_the_owner_kicks_a_player_and_removes_a_bot_by_seat(
    nursery: trio.Nursery,
) -> None:
    port = await club(nursery)
    owner = await start_link(nursery, LinkConfig("127.0.0.1", port, name="Hana", tls=False))
    await owner.until(lambda u: isinstance(u, TablesListed))
    owner.send(CreateTable(name="Hana's"))
    await owner.until(lambda u: isinstance(u, LobbyChanged) and u.lobby.you == 0)
    owner.send(AddBot())
    friend = await start_link(nursery, LinkConfig("127.0.0.1", port, name="Fred", tls=False))
    await friend.until(lambda u: isinstance(u, TablesListed))
    friend.send(JoinTable(0, "Fred"))
    fred = await friend.until(lambda u: isinstance(u, LobbyChanged) and u.lobby.you is not None)
    assert isinstance(fred, LobbyChanged)
    fred_seat = fred.lobby.you
    assert fred_seat is not None

    model = ClientModel(Translator("en"), name="Hana")

    def fred_seated(update: Update) -> bool:
        model.apply(update)
        lobby = model.lobby
        return lobby is not None and lobby.seats[fred_seat].kind == "human"

    await owner.until(fred_seated)
    assert model.lobby is not None
    bot_seat = next(s.seat for s in model.lobby.seats if s.kind == "bot")

    model.ask_kick()
    assert model.local_prompt == SeatPrompt("kick")
    assert "Remove whom? Their seat's number (1-0); Esc: nobody" in screen(model)
    assert model.pick_seat(0) is None and model.notice == "That is your own seat."
    model.ask_kick()
    assert model.pick_seat(bot_seat) == RemoveBot(bot_seat)  # a bot goes as with x
    model.ask_kick()
    kick = model.pick_seat(fred_seat)
    assert kick == Kick(fred_seat)
    owner.send(kick)
    lost = await friend.until_state("lost")
    assert isinstance(lost, ConnectionChanged) and lost.detail.startswith("kicked")
    # The others hear why the seat emptied (its table_state alone reads as Fred leaving).
    told = await owner.until(lambda u: isinstance(u, ChatReceived) and u.host)
    assert isinstance(told, ChatReceived) and told.text == "the table's owner removed Fred"
    assert (told.notice, told.about) == ("removed", "Fred")  # SPEC [UNO-8-27]
    italian = ClientModel(Translator("it"), name="Ana")  # said in the player's words
    italian.apply(told)
    assert italian.chat[-1].text == "il padrone del tavolo ha tolto Fred dal tavolo"
    emptied = await owner.until(lambda u: isinstance(u, LobbyChanged)
                                and u.lobby.seats[fred_seat].kind == "empty")
    assert isinstance(emptied, LobbyChanged)


async def test_the_owner_penalizes_a_hint_during_a_round(nursery: trio.Nursery) -> None:
    port = await club(nursery)
    owner = await start_link(nursery, LinkConfig("127.0.0.1", port, name="Hana", tls=False))
    await owner.until(lambda u: isinstance(u, TablesListed))
    owner.send(CreateTable(name="Hana's"))
    await owner.until(lambda u: isinstance(u, LobbyChanged) and u.lobby.you == 0)
    friend = await start_link(nursery, LinkConfig("127.0.0.1", port, name="Fred", tls=False))
    await friend.until(lambda u: isinstance(u, TablesListed))
    friend.send(JoinTable(0, "Fred"))
    fred = await friend.until(lambda u: isinstance(u, LobbyChanged) and u.lobby.you is not None)
    assert isinstance(fred, LobbyChanged) and fred.lobby.you is not None
    fred_seat = fred.lobby.you
    friend.send(SetReady(True))
    await owner.until(lambda u: isinstance(u, LobbyChanged)
                      and u.lobby.seats[fred_seat].ready)
    owner.send(SetReady(True))
    owner.send(StartMatch())

    model = ClientModel(Translator("en"), name="Hana")
    model.ask_penalty()  # not seated at a table yet: nothing to penalize
    assert model.local_prompt is None

    def dealt(update: Update) -> bool:
        """The round is being played once its first card is turned. (Not its first turn: a
        first card that is a Wild waits for its colour, and nobody here chooses it.)"""
        model.apply(update)
        return isinstance(update, GameEvent) and isinstance(update.event, ev.TopCardTurned)

    await owner.until(dealt)
    model.ask_penalty()
    assert local_prompt(model) == SeatPrompt("penalize")
    assert f"Their seat's number (1-0) draws {HINT_PENALTY}" in screen(model)
    penalty = model.pick_seat(fred_seat)
    assert penalty == Penalize(fred_seat, HINT_PENALTY)
    owner.send(penalty)
    said = await friend.until(lambda u: isinstance(u, GameEvent)
                              and isinstance(u.event, ev.Penalized))
    assert isinstance(said, GameEvent) and isinstance(said.event, ev.Penalized)
    assert (said.event.target, said.event.count) == (fred_seat, HINT_PENALTY)


@pytest.mark.parametrize("lang", ["en", "it", "pt"])
@pytest.mark.parametrize("kind", ["kick", "penalize"])
def test_the_owners_questions_fit_the_smallest_screen(
    lang: str, kind: Literal["kick", "penalize"]
) -> None:
    """The question takes the status line in a round: it must be whole at 60 columns."""
    from client.render import MIN_WIDTH, local_question

    model = ClientModel(Translator(lang), name="Hana")
    question = local_question(model, SeatPrompt(kind))
    assert len(question) <= MIN_WIDTH and "Esc" in question, question


def test_a_kicked_player_is_no_longer_shown_in_the_seat() -> None:
    """Found in tmux: after the kick, Fred's lobby still said "Fred ... you" under the notice
    that the owner had removed him."""
    from client.link import Refused
    from client.lobby import LobbyState, SeatInfo

    model = ClientModel(Translator("en"), name="Fred")
    seats = (SeatInfo(0, "human", "Hana", False, True), SeatInfo(1, "human", "Fred", True, True))
    model.apply(LobbyChanged(LobbyState(0, "t", 0, {}, seats, False, you=1)))
    assert "Fred                 ready       you" in screen(model)
    model.apply(Refused("kicked", "the table's owner removed you"))
    model.apply(ConnectionChanged("lost", "kicked: the table's owner removed you"))
    text = screen(model)
    assert model.lobby is not None and model.lobby.you is None
    assert "you" not in text.split("\n")[2] and "removed you" in text
    # The host freed the seat: the lobby shows it empty, not Fred's.
    assert "Fred" not in text.split("\n")[2] and "(empty seat)" in text.split("\n")[2]
    assert model.lobby.seats[1].kind == "empty"


def test_a_host_notice_is_said_in_the_players_words_only_when_its_code_is_known() -> None:
    """SPEC [UNO-8-27]: a known code in our words, the name escaped; an unknown code (a newer
    host's) falls back to the host's text, escaped too."""
    model = ClientModel(Translator("pt"), name="Ana")
    model.apply(ChatReceived("host", "the table's owner removed \x1b[2Jfred", None, True,
                             "removed", "\x1b[2Jfred"))
    assert model.chat[-1].text == "o dono da mesa tirou \\x1b[2Jfred da mesa"
    model.apply(ChatReceived("host", "a newer host's notice", None, True, "from_the_future"))
    assert model.chat[-1].text == "a newer host's notice"
