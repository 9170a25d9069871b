"""A dishonest host, tried over real sockets on loopback: every attack of issue 11, one test
each; the honest client flags each, and its title bar shows it.

The host is the real one (host/); the client is the real link (client/link_session.py with its
TrustGate and TrustVerifier). A lie is told either on the wire, by tests/tamper.py's stream that
rewrites what the host sends (re-signed with the host's own key and with the events digest kept
in step, so that the lie itself is all there is to catch), or inside the host, by changing what
the host does. The first test plays the same table honestly through the same harness: nothing
is flagged, so what the others flag is the lie.

Each player's client keeps the match's transcript (client/transcript.py), and `assert_flagged`
also runs `unonet audit` on it: the evidence a cheated player can show others must convict the
host of the same violation the live client flagged.
"""

from __future__ import annotations

import io
import math
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any

import pytest
import trio
from client_net import LinkHarness, LocalHost, choose, play_until, start_host, start_link
from tamper import Forger, Message, Tamper, TamperingStream, chain, event_of, honest

from client.audit_cmd import EXIT_HOLDS, EXIT_VIOLATION, run
from client.i18n import Translator
from client.link import Caught, GameEvent, LobbyChanged, TrustStatus, Update
from client.model import ClientModel
from client.network import LinkConfig
from client.render import trust_title
from host.game import Game
from host.seating import HUMAN
from host.settings import FAST_TIMINGS, TableTimings
from protocol.trust.seed_exchange import SeedExchange, signed
from unonet import events as ev
from unonet.actions import Action, Challenge, Play
from unonet.legality import play_refusal
from unonet.phase import Phase
from unonet.rules import RuleSet

RULES = RuleSet(target=100)
"""A short match: a few rounds, so that a test sees round starts, ends and audits."""

TIMINGS = replace(FAST_TIMINGS, match_break=10_000.0)
"""The game never waits on purpose, but the table plays one match while the test looks."""

Chooser = Callable[[tuple[Action, ...]], Action | None]


@dataclass
class Played:
    harness: LinkHarness
    host: LocalHost
    status: TrustStatus = field(default_factory=TrustStatus)
    transcripts: Path | None = None
    """The data dir the player's client kept its match transcripts in."""

    @property
    def caught(self) -> tuple[Caught, ...]:
        return self.status.violations

    @property
    def kinds(self) -> set[str]:
        return {violation.kind for violation in self.caught}

    def title(self, upto: int | None = None) -> tuple[str, bool]:
        """The player's title bar after everything the link delivered (or its first `upto`
        updates): (deck text, alert)."""
        model = ClientModel(Translator("en"), "me")
        for update in self.harness.seen[:upto]:
            model.apply(update)
        return trust_title(model)

    def audited(self) -> list[tuple[int, str]]:
        """`unonet audit` on each match transcript the player's client kept: (exit, output)."""
        assert self.transcripts is not None
        files = sorted((self.transcripts / "transcripts").glob("*.msgpack"))
        assert files, "the client kept no transcript"
        out = []
        for path in files:
            printed, errors = io.StringIO(), io.StringIO()
            code = run(path, printed, errors)
            assert errors.getvalue() == "", errors.getvalue()
            out.append((code, printed.getvalue()))
        return out


def _config(port: int, transcripts: Path | None = None, name: str = "me") -> LinkConfig:
    return LinkConfig("127.0.0.1", port, name=name, tls=False, table=0, auto_ready=True,
                      transcripts=transcripts)


def match_over(update: Update) -> bool:
    return isinstance(update, GameEvent) and isinstance(update.event, ev.MatchEnded)


def challenging(legal: tuple[Action, ...]) -> Action | None:
    """A player who challenges every Wild Draw Four played on it."""
    return next((a for a in legal if isinstance(a, Challenge)), None) or choose(legal)


async def play_through(
    nursery: trio.Nursery,
    transcripts: Path | None,
    make_tamper: Callable[[LocalHost], Tamper] = lambda host: honest,
    *,
    until: Callable[[Update], bool] = match_over,
    chooser: Chooser = choose,
    lie: Callable[[LocalHost, Game], None] | None = None,
    timeout: float = 120.0,
    bots: int = 2,
    timings: TableTimings = TIMINGS,
    rematch: bool = False,
) -> Played:
    """One player and two host bots play until `until`, the host's messages to the player
    passed through the tamper; `lie` changes the host's own game once it exists. Then the
    player leaves (its verifier counts what is still owed) and its trust status is returned.
    `transcripts`: the data dir its client keeps the match transcripts in (None: none kept)."""
    host = await start_host(nursery, bots=bots, rules=RULES, timings=timings)
    harness = await start_link(nursery, _config(host.port, transcripts),
                               lambda stream: TamperingStream(stream, make_tamper(host)))
    if lie is not None:
        nursery.start_soon(_lie_when_dealt, host, lie)
    await play_until(harness, until, timeout=timeout, chooser=chooser, rematch=rematch)
    await trio.sleep(0.3)  # what the host sends right after (an audit) arrives
    await harness.close()
    return Played(harness, host, _last_status(harness.seen), transcripts)


async def _lie_when_dealt(host: LocalHost, lie: Callable[[LocalHost, Game], None]) -> None:
    while host.table.game is None:
        await trio.sleep(0.005)
    lie(host, host.table.game)


def _last_status(seen: list[Update]) -> TrustStatus:
    statuses = [u for u in seen if isinstance(u, TrustStatus)]
    return statuses[-1] if statuses else TrustStatus()


def forged(host: LocalHost, *tampers: Tamper) -> Tamper:
    """The tampers, then the host's own signature and events digest over what they made."""
    forger = Forger(host.registry.signer)
    return chain(*tampers, lambda message: [forger.forge(message)])


def assert_flagged(played: Played, kind: str) -> None:
    """The live client flagged `kind` and its title bar shows the host caught; if it kept
    transcripts, `unonet audit` fails the match on the same kind, and passes every other."""
    assert kind in played.kinds, played.caught
    text, alert = played.title()
    assert alert and "CAUGHT" in text, text
    if played.transcripts is not None:
        assert_audit_fails(played.audited(), kind)


def assert_audit_fails(audits: list[tuple[int, str]], kind: str) -> None:
    """One match's transcript fails offline on `kind`; any other match the table went on to
    play holds."""
    failed = [out for code, out in audits if code != EXIT_HOLDS]
    assert len(failed) == 1, audits
    assert [code for code, _ in audits if code != EXIT_HOLDS] == [EXIT_VIOLATION]
    assert f"VIOLATION {kind}:" in failed[0], failed[0]


def once(change: Callable[[Message], Message | None]) -> Tamper:
    """A tamper that applies `change` to the first message it changes (returns not None)."""
    done = False

    def tamper(message: Message) -> list[Message]:
        nonlocal done
        if not done:
            changed = change(message)
            if changed is not None:
                done = True
                return [changed]
        return [message]

    return tamper


def with_event(message: Message, **fields: Any) -> Message:
    return {**message, "event": {**message["event"], **fields}}


# -- the honest baseline -------------------------------------------------------------------------


async def test_an_honest_host_through_the_same_harness_is_never_flagged(
    nursery: trio.Nursery, tmp_path: Path,
) -> None:
    played = await play_through(nursery, tmp_path)
    assert played.caught == ()
    assert played.status.rounds and all(r.state == "audited" for r in played.status.rounds)
    text, alert = played.title()
    assert not alert and "audited" in text
    audits = played.audited()
    assert [code for code, _ in audits] == [EXIT_HOLDS], audits
    assert "everything holds" in audits[0][1]


# -- cards ----------------------------------------------------------------------------------------


async def test_a_swapped_card_is_caught(nursery: trio.Nursery, tmp_path: Path) -> None:
    def swap(message: Message) -> Message | None:
        event = event_of(message, "cards_received")
        if event is None:
            return None
        cards = list(event["cards"])
        cards[0] = (cards[0] + 1) % 108
        return with_event(message, cards=cards)

    played = await play_through(nursery, tmp_path, lambda host: once(swap))
    assert_flagged(played, "card_mismatch")


async def test_a_fake_challenge_reveal_is_caught(nursery: trio.Nursery, tmp_path: Path) -> None:
    """The host shows the challenger a hand other than the one committed. A challenge needs a
    Wild Draw Four played on us: the player, alone with one bot, challenges each one, and the
    table plays match after match until one comes (a few rounds, usually)."""

    def fake(message: Message) -> Message | None:
        event = event_of(message, "challenge_reveal")
        if event is None or not event["cards"]:
            return None
        cards = list(event["cards"])
        cards[0] = (cards[0] + 1) % 108
        return with_event(message, cards=cards)

    def revealed(update: Update) -> bool:
        # A hand revealed with cards: one whose Wild Draw Four was its last card reveals none,
        # which `fake` has nothing to change in (about one run in fifteen came to that first).
        return (isinstance(update, GameEvent) and isinstance(update.event, ev.ChallengeReveal)
                and bool(update.event.cards))

    played = await play_through(nursery, tmp_path, lambda host: once(fake), until=revealed,
                                chooser=challenging, bots=1, timings=FAST_TIMINGS,
                                rematch=True)  # r after each match: the table waits for it
    assert_flagged(played, "card_mismatch")


# -- rounds and audits ------------------------------------------------------------------------


async def test_a_stacked_deck_whose_audits_are_withheld_is_caught(
    nursery: trio.Nursery, tmp_path: Path,
) -> None:
    """Without the audit nobody could see the deck was not the seeds' one: no audit at all,
    the last round's included, is itself the violation."""

    def withhold(message: Message) -> list[Message]:
        return [] if message.get("t") == "round_audit" else [message]

    played = await play_through(nursery, tmp_path, lambda host: withhold)
    assert_flagged(played, "missing_audit")


class WithholdTheLastAudit:
    """Every message passes but the audit that follows match_ended; `to_lobby`: the table is
    then said to go back to the lobby (a copy of the last table_state, `started` false), as
    the host does when the match break is over."""

    def __init__(self, to_lobby: bool = False) -> None:
        self.to_lobby = to_lobby
        self.over = False
        self.table_state: Message | None = None

    def __call__(self, message: Message) -> list[Message]:
        if message.get("t") == "table_state":
            self.table_state = message
        if event_of(message, "match_ended") is not None:
            self.over = True
        if not (self.over and message.get("t") == "round_audit"):
            return [message]
        if self.to_lobby and self.table_state is not None:
            return [{**self.table_state, "started": False}]
        return []


def stack_every_deck(host: LocalHost, game: Game) -> None:
    """The host deals every round from a key of its own choosing instead of the seeds' one:
    every card it hands out opens its commitment; only the audit's re-derivation can tell."""
    honest_deal = game._deal

    def stacked(trust: SeedExchange, now: float) -> None:
        trust.commitments._key = secrets.token_bytes(32)
        honest_deal(trust, now)

    game._deal = stacked  # type: ignore[method-assign]


@pytest.mark.parametrize("stacked", [False, True], ids=["honest deck", "stacked deck"])
async def test_the_last_audit_of_a_match_withheld_is_caught(
    nursery: trio.Nursery, tmp_path: Path, stacked: bool,
) -> None:
    """Only the last round's audit is withheld: no round_prepare follows to notice it, so it
    is what the match still owes once it is over. With every deck stacked, the rounds audited
    are caught at their audits and the last one, whose audit would have shown it too, is
    caught as missing its audit."""
    played = await play_through(nursery, tmp_path, lambda host: WithholdTheLastAudit(),
                                lie=stack_every_deck if stacked else None)
    assert_flagged(played, "missing_audit")
    last = played.status.rounds[-1]
    assert last.state == "violated"
    assert [c.kind for c in played.caught if c.round_no == last.round_no] == ["missing_audit"]
    earlier = {c.kind for c in played.caught if c.round_no != last.round_no}
    if not stacked:
        assert earlier == set(), played.caught
    elif len(played.status.rounds) > 1:
        assert "deck_order" in earlier, played.caught


async def test_the_last_audit_withheld_is_caught_when_the_table_goes_back_to_the_lobby(
    nursery: trio.Nursery,
) -> None:
    """The match is over and its table back in the lobby, the last round's audit never came:
    that is the moment it is missing, not only when the player leaves (a player who stays at
    the table would otherwise read "checking" for as long as it stays)."""
    host = await start_host(nursery, bots=2, rules=RULES, timings=TIMINGS)
    harness = await start_link(nursery, _config(host.port),
                               lambda stream: TamperingStream(stream,
                                                              WithholdTheLastAudit(True)))

    def back_in_the_lobby(update: Update) -> bool:
        return isinstance(update, LobbyChanged) and not update.lobby.started

    await play_until(harness, match_over, timeout=120)
    await play_until(harness, back_in_the_lobby)
    await harness.until(lambda u: isinstance(u, TrustStatus) and bool(u.violations))
    status = _last_status(harness.seen)
    assert "missing_audit" in {v.kind for v in status.violations}
    await harness.close()


async def test_a_new_game_id_for_a_round_is_caught(nursery: trio.Nursery, tmp_path: Path) -> None:
    """A fresh game_id would make every round look like a game of its own (no re-deal, no
    missing audit to see): the match's id is the manifest's."""

    def rename(message: Message) -> list[Message]:
        if message.get("t") != "round_prepare":
            return [message]
        return [{**message, "game_id": secrets.token_bytes(16)}]

    played = await play_through(nursery, tmp_path, lambda host: forged(host, rename))
    assert_flagged(played, "match_id")


async def test_a_round_re_dealt_under_a_new_number_is_caught(
    nursery: trio.Nursery, tmp_path: Path,
) -> None:
    """The host dislikes its first deal: it commits the deck, audits the round honestly as
    abandoned, and deals again under the next round number."""

    def lie(host: LocalHost, game: Game) -> None:
        honest_deal = game._deal
        done = False

        def re_deal(trust: SeedExchange, now: float) -> None:
            nonlocal done
            if done:
                honest_deal(trust, now)
                return
            done = True
            game.room.broadcast(trust.deal(len(game.match.manifest)))
            assert game.round_log is not None
            audit = trust.commitments.audit("abandoned", game.round_log.digest.value)
            game.room.broadcast(signed("round_audit", audit, game.signer))
            game.trust = None
            game._prepare_round(now)

        game._deal = re_deal  # type: ignore[method-assign]

    played = await play_through(nursery, tmp_path, lie=lie)
    assert_flagged(played, "abandoned")
    assert played.status.abandoned_rounds == 0  # it was dealt: a violation, not a count


async def test_a_round_abandoned_when_the_victim_is_down_to_one_card_is_caught(
    nursery: trio.Nursery, tmp_path: Path,
) -> None:
    """The host stops a round in mid-play, the moment a player (its victim) is one card from
    winning, with an audit that says "abandoned"."""

    def lie(host: LocalHost, game: Game) -> None:
        honest_committed = game._committed
        done = False

        def abandon(seat: int, action: Action, events: list[ev.Event], now: float) -> None:
            nonlocal done
            honest_committed(seat, action, events, now)
            rnd = game.match.round
            if (done or rnd is None or rnd.phase is Phase.ROUND_OVER
                    or all(len(hand) != 1 for hand in rnd.hands)):
                return
            done = True
            assert game.trust is not None and game.round_log is not None
            audit = game.trust.commitments.audit("abandoned", game.round_log.digest.value)
            game.round_log.audit = signed("round_audit", audit, game.signer)
            game.room.broadcast(game.round_log.audit)

        game._committed = abandon  # type: ignore[method-assign]

    played = await play_through(nursery, tmp_path, lie=lie)
    assert_flagged(played, "abandoned")


class DealSwap:
    """Holds back what the host sends from the first bot's deal draw of round 1 to the second
    one's, then lets it all through in order (seq numbers intact) with the two bots' dealt
    positions swapped."""

    def __init__(self) -> None:
        self.me: int | None = None
        self.held: list[Message] = []
        self.done = False

    def __call__(self, message: Message) -> list[Message]:
        if message.get("t") == "seated":
            self.me = message["seat"]
        event = event_of(message, "cards_drawn")
        is_bot_deal = (event is not None and event["reason"] == "deal"
                       and event["seat"] != self.me)
        if self.done or (not self.held and not is_bot_deal):
            return [message]
        self.held.append(message)
        if not is_bot_deal or len(self.held) == 1:
            return []
        self.done = True
        first, second = self.held[0], message
        swapped = {id(first): with_event(first, positions=second["event"]["positions"]),
                   id(second): with_event(second, positions=first["event"]["positions"])}
        out = [swapped.get(id(m), m) for m in self.held]
        self.held = []
        return out


async def test_a_cherry_picked_deal_is_caught(nursery: trio.Nursery, tmp_path: Path) -> None:
    """The host gives one bot the cards dealt to the other (the best 7 of the top 21, say):
    which dealt position goes to which seat is fixed by the dealer."""
    played = await play_through(nursery, tmp_path, lambda host: forged(host, DealSwap()))
    assert_flagged(played, "deal_order")


# -- scores and legality --------------------------------------------------------------------------


@pytest.mark.parametrize("forgery", ["points", "winner"])
async def test_forged_points_and_winner_are_caught(
    nursery: trio.Nursery, tmp_path: Path, forgery: str,
) -> None:
    """The round's points, the totals and the winner are what the rules give for the hands
    shown; the host signs and digests its forgery, so only the re-played rules catch it."""

    def forge(message: Message) -> Message | None:
        event = event_of(message, "round_ended")
        if event is None:
            return None
        if forgery == "points":
            return with_event(message, points=[p + 25 for p in event["points"]],
                              scores=[s + 25 for s in event["scores"]])
        seats = len(event["points"])
        winner = event["winner"]
        return with_event(message, winner=(0 if winner is None else (winner + 1) % seats))

    played = await play_through(nursery, tmp_path, lambda host: forged(host, once(forge)))
    assert_flagged(played, "illegal")


async def test_an_illegal_play_by_a_partner_is_caught(
    nursery: trio.Nursery, tmp_path: Path,
) -> None:
    """The host lets a bot play a card that does not match (it pretends its colour is in
    play): every event is signed and every card opens its commitment, but the rules refuse it."""

    def lie(host: LocalHost, game: Game) -> None:
        honest_move = game._bot_move
        done = False

        def cheat(now: float) -> None:
            nonlocal done
            rnd = game.match.round
            if not done and rnd is not None and rnd.phase is Phase.TURN:
                seat = rnd.current
                for card in rnd.hands[seat]:
                    face = rnd.face(card)
                    play = Play(card, uno=len(rnd.hands[seat]) == 2)
                    if face.color is None or play_refusal(rnd, seat, play) is None:
                        continue
                    if seat == _human_seat(host):
                        break
                    done = True
                    rnd.active_color = face.color  # the host's private lie
                    game._apply(seat, play, now)
                    return
            honest_move(now)

        game._bot_move = cheat  # type: ignore[method-assign]

    played = await play_through(nursery, tmp_path, lie=lie)
    assert_flagged(played, "illegal")


# -- seeds and reconnects ----------------------------------------------------------------------


async def test_a_dropped_seed_is_flagged_by_its_owner_and_seen_by_everyone(
    nursery: trio.Nursery, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    """The host ignores one player's seed reveal (so the deck is made without it): that player
    flags it, and every other player sees the seat whose seed did not go in, in its title bar
    when the round is audited. Offline, neither transcript convicts the host: a transcript
    holds only what the host said, and nothing in it shows that the owner did reveal its seed
    (the host may say it never came); both audits show the seat whose seed did not go in."""
    host = await start_host(nursery, bots=1, players=2, rules=RULES, timings=TIMINGS)
    victim_link = await start_link(nursery, _config(host.port, tmp_path / "victim", "victim"))
    other_link = await start_link(nursery, _config(host.port, tmp_path / "other", "other"))
    victims: list[int] = []
    honest_reveal = SeedExchange.reveal

    def drop(self: SeedExchange, seat: int, message: Any) -> tuple[str, str] | None:
        if not victims:
            victims.append(seat)
        if seat == victims[0]:
            return None  # taken without a word, and never used
        return honest_reveal(self, seat, message)

    monkeypatch.setattr(SeedExchange, "reveal", drop)

    settled: dict[int, bool] = {}
    settled_at: dict[int, int] = {}  # how many updates the link had delivered by then
    both_settled = trio.Event()

    def note(link: LinkHarness) -> Callable[[Update], bool]:
        """Keep playing (so that neither player holds up the round), noting when round 1 is
        past checking for this player; both past it ends the game for the test."""

        def done(update: Update) -> bool:
            if isinstance(update, TrustStatus) and update.rounds:
                settled[id(link)] = update.rounds[0].state != "checking"
                if settled[id(link)] and id(link) not in settled_at:
                    settled_at[id(link)] = 1 + next(
                        i for i, seen in enumerate(link.seen) if seen is update)
                if len(settled) == 2 and all(settled.values()):
                    both_settled.set()
            return False

        return done

    with trio.fail_after(120):
        async with trio.open_nursery() as both:
            both.start_soon(partial(play_until, victim_link, note(victim_link), timeout=math.inf))
            both.start_soon(partial(play_until, other_link, note(other_link), timeout=math.inf))
            await both_settled.wait()
            both.cancel_scope.cancel()
    victim_seat = victims[0]
    links = {"victim": victim_link, "other": other_link}
    statuses = {name: _last_status(link.seen) for name, link in links.items()}
    seat = host.table.room.seats[victim_seat]
    assert seat is not None
    owner = seat.name
    bystander = "other" if owner == "victim" else "victim"
    assert "seed_reveals" in {v.kind for v in statuses[owner].violations}
    assert statuses[bystander].rounds[0].absent_seeds == (victim_seat,)
    for link in links.values():
        await link.close()
    played = {name: Played(link, host, _last_status(link.seen), tmp_path / name)
              for name, link in links.items()}
    assert_flagged(replace(played[owner], transcripts=None), "seed_reveals")
    text, alert = played[bystander].title(settled_at[id(links[bystander])])
    assert not alert and f"no seed: {owner}" in text, text
    for name in links:
        [(code, out)] = played[name].audited()
        assert code == EXIT_HOLDS, out
        assert f"round 1: audited, every card checks out (seat {victim_seat} did not reveal" \
            in out, out


def _swap_first_card(event: dict[str, Any]) -> dict[str, Any]:
    cards = list(event["cards"])
    cards[0] = (cards[0] + 1) % 108
    return {**event, "cards": cards}


def _in_history(message: Message) -> Message | None:
    """A lie in the replay: the first card the player was given, as the history tells it."""
    if message.get("t") != "round_history":
        return None
    events = list(message["events"])
    for index, event in enumerate(events):
        if event.get("type") == "cards_received":
            events[index] = _swap_first_card(event)
            return {**message, "events": events}
    return None


def _after_resume(message: Message) -> Message | None:
    """A lie after the replay: the next card the player is given."""
    event = event_of(message, "cards_received")
    return None if event is None else {**message, "event": _swap_first_card(event)}


@pytest.mark.parametrize(("lie", "kind"), [(_in_history, "history"),
                                           (_after_resume, "card_mismatch")])
async def test_a_reconnect_does_not_blind_the_checks(
    nursery: trio.Nursery, tmp_path: Path, lie: Callable[[Message], Message | None], kind: str,
) -> None:
    """The player's connection drops in mid-round. On the new one the host replays the round
    (round_history) and lies, in the replay or in a card dealt after it: the player's verifier,
    kept across connections, checks every card of the round all the same."""
    connections: list[Tamper] = []

    def make(host: LocalHost) -> Tamper:
        connections.append(honest if not connections else once(lie))
        return connections[-1]

    host = await start_host(nursery, bots=2, rules=RULES, timings=TIMINGS)
    harness = await start_link(nursery, _config(host.port, tmp_path),
                               lambda stream: TamperingStream(stream, make(host)))

    def a_card_played(update: Update) -> bool:
        return isinstance(update, GameEvent) and isinstance(update.event, ev.CardPlayed)

    await play_until(harness, a_card_played)
    await harness.streams[-1].cut()
    await play_until(harness, match_over)
    await trio.sleep(0.3)
    await harness.close()
    assert len(connections) >= 2, "the link never reconnected"
    assert_flagged(Played(harness, host, _last_status(harness.seen), tmp_path), kind)


class CutBeforeTheEnd:
    """The first connection: everything passes until the round_ended that ends the match (a
    total at the target), which and all after it are held back, and `cut` is set for the test
    to cut the connection; the player never sees the last round end."""

    def __init__(self) -> None:
        self.cut = trio.Event()

    def __call__(self, message: Message) -> list[Message]:
        event = event_of(message, "round_ended")
        if event is not None and max(event["scores"]) >= RULES.target:
            self.cut.set()
        return [] if self.cut.is_set() else [message]


def _never(update: Update) -> bool:
    return False


def _without_history(message: Message) -> list[Message]:
    return [] if message.get("t") == "round_history" else [message]


async def test_the_last_round_blinded_by_a_cut_is_caught(
    nursery: trio.Nursery, tmp_path: Path,
) -> None:
    """The host cuts the player in the last round of the match and, on its return, sends the
    round's audit without its history (the rest of its events): no later round would show the
    gap, so the entry itself must. The player is caught up at once, before it leaves."""
    first = CutBeforeTheEnd()
    connections: list[Tamper] = []

    def make(host: LocalHost) -> Tamper:
        connections.append(first if not connections else _without_history)
        return connections[-1]

    host = await start_host(nursery, bots=2, rules=RULES, timings=TIMINGS)
    harness = await start_link(nursery, _config(host.port, tmp_path),
                               lambda stream: TamperingStream(stream, make(host)))

    with trio.fail_after(120):
        async with trio.open_nursery() as playing:
            playing.start_soon(partial(play_until, harness, _never, timeout=math.inf))
            await first.cut.wait()
            playing.cancel_scope.cancel()
    await harness.streams[-1].cut()

    def caught(update: Update) -> bool:
        return isinstance(update, TrustStatus) and bool(update.violations)

    await play_until(harness, caught)
    # Back at least once; maybe more, when the host had not yet seen the cut connection close
    # and refused a resume as seat_in_use (every connection after the first drops the history).
    assert len(connections) >= 2
    played = Played(harness, host, _last_status(harness.seen), tmp_path)
    assert [r.state for r in played.status.rounds][-1] == "violated"
    await harness.close()
    assert_flagged(played, "history")


def _human_seat(host: LocalHost) -> int:
    return next(index for index, seat in host.table.room.occupied() if seat.kind == HUMAN)
