"""UNO Flip over the network on loopback (issue 14, "Show"): four network bots, each verifying
every card, every Flip, every face shown of the side not in play and every round's audit with
its trust verifier, play a whole `flip` match at a headless host, and a spectator watches.

- the match ends, with a Flip in it, and every bot saw the same end;
- no verifier (the bots' and the spectator's) found a violation, every round's audit passed
  for every bot, and the audits did check the other sides shown (they are not vacuous);
- the spectator's view, folded from what it received (client/fold.py), is the host's public
  view (`observe(match, None)`, replayed from the host's own log) after every step of the match;
- the dark faces each client was told (`dark_faces_shown`, and a snapshot's `dark_faces`) are
  those of the round's secret pairing, and only of cards that client held, was shown by a
  challenge, or saw face up on the dark side (for the spectator: only the last); a seat knows
  the dark face of every card it held.

On trio's autojump clock: the host's timers and the bots' reaction times are real, the waiting
is not.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import trio
import trio.testing
from client_net import played_match
from spectator_net import Spectator, same_as_the_host, watch

from client import netbot
from host.registry import Registry
from host.server import HostServer, ServerConfig
from host.settings import TableTimings
from host.table import TableSettings
from protocol.client_session import GameEvent as WireGameEvent
from protocol.client_session import SessionEvent
from protocol.client_session import Snapshot as WireSnapshot
from protocol.game_codec import decode_view
from unonet import events as ev
from unonet.cards import DeckManifest, Face
from unonet.flip_deck import DARK, LIGHT
from unonet.match import Match
from unonet.rules import preset

TIMINGS = TableTimings(grace=30.0, challenge_decision=20.0, seed_phase=10.0, bot_delay=0.8,
                       round_break=1.0, ready_wait=5.0, match_break=10_000.0)
"""The reference host's pace, but a match break long enough that the table plays one match."""

TARGET = 1000
"""Several rounds: a round without a Flip happens (about one in twelve with these bots), a
match of several rounds without one practically never."""

BOTS = (("alpha", "normal"), ("beta", "random"), ("gamma", "normal"), ("delta", "random"))


Told = tuple[int, int | None, int, Face]
"""A dark face a client was told: (round, the audience: a seat or None for everybody, card,
face)."""


class DarkFaces:
    """The dark faces one client received, by round: from `dark_faces_shown` events and from a
    snapshot's view (`netbot.play`'s observer, or the spectator's session events)."""

    def __init__(self) -> None:
        self.round_no = 0
        self.told: list[Told] = []

    def __call__(self, events: Sequence[SessionEvent]) -> None:
        for item in events:
            if isinstance(item, WireSnapshot):
                view = decode_view(item.view)
                self.round_no = view.round_no
                self.told += [(view.round_no, view.seat, c, f) for c, f in view.dark_faces]
            elif isinstance(item, WireGameEvent):
                event = item.event
                if isinstance(event, ev.RoundStarted):
                    self.round_no = event.round_no
                elif isinstance(event, ev.DarkFacesShown):
                    self.told += [(self.round_no, event.seat, c, f)
                                  for c, f in zip(event.cards, event.faces, strict=True)]


async def test_bots_play_a_whole_flip_match_over_loopback_every_check_passing(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock,
) -> None:
    registry = Registry(TIMINGS)
    table = registry.create_table(TableSettings("flip", preset("flip", target=TARGET),
                                                preset="flip", headless=True,
                                                target_seats=len(BOTS), timings=TIMINGS))
    server = HostServer(registry, ServerConfig(bind="127.0.0.1", port=0))
    listener = (await nursery.start(server.serve))[0]
    results: dict[str, netbot.BotResult] = {}
    told = {name: DarkFaces() for name, _ in BOTS}
    spectator = Spectator()
    dark = DarkFaces()

    async def one(name: str, level: str) -> None:
        stream = await trio.testing.open_stream_to_socket_listener(listener)
        observer: Callable[[Sequence[SessionEvent]], None] = told[name]
        results[name] = await netbot.play(stream, name=name, level=level, table=0, think=0.3,
                                          verify=True, observe=observer)

    with trio.fail_after(1_000_000):  # virtual seconds: only a deadlock can reach it
        async with trio.open_nursery() as clients:
            clients.start_soon(watch, listener, spectator, dark)
            await trio.sleep(0.05)  # the spectator is in before the table fills
            for name, level in BOTS:
                clients.start_soon(one, name, level)
    match = played_match(table)

    # The match ended, with Flips in it, and everyone saw the same end.
    assert match.winner is not None and match.rules.variant == "flip"
    flips = [e for e in spectator.events if isinstance(e, ev.Flipped)]
    assert flips, "no Flip was played in the whole match"
    for name, result in results.items():
        assert len(result.matches) == 1, name
        assert result.matches[0].winner == match.winner
        assert result.matches[0].scores == tuple(match.scores)

    # Every check ran and passed: each bot audited every round, with the other sides in them.
    rounds = list(range(1, match.round_no + 1))
    for name, result in results.items():
        assert result.violations == [], (name, result.violations)
        assert 0 < result.moves_checked <= result.intents, name  # its moves, as sent
        assert result.audited == rounds, (name, result.audited)
        assert result.other_sides_checked > 0, name
        assert result.intents > 0
    assert spectator.link.gate.violations() == []
    assert spectator.audited == rounds

    # The spectator's view is the host's public view after every step of the match.
    same_as_the_host(match, spectator)

    # Each client was told the dark faces it may know, and truly; a seat those of all it held.
    sight = _what_each_may_know(match)
    for name, result in results.items():
        assert result.seat is not None
        _told_only_what_it_may_know(sight, result.seat, told[name].told)
    _told_only_what_it_may_know(sight, None, dark.told)




@dataclass
class Sight:
    """What the host's replayed match let each observer know of the dark faces, by round."""

    pairing: dict[int, DeckManifest] = field(default_factory=dict)  # the round's both faces
    held: dict[tuple[int, int], set[int]] = field(default_factory=dict)  # (round, seat)
    revealed: dict[tuple[int, int], set[int]] = field(default_factory=dict)  # to a challenger
    face_up: dict[int, set[int]] = field(default_factory=dict)  # on the dark side, to all

    def of(self, table: dict[tuple[int, int], set[int]], round_no: int, seat: int) -> set[int]:
        return table.setdefault((round_no, seat), set())


def _what_each_may_know(played: Match) -> Sight:
    """Replay the host's log: every card each seat held, each hand a challenge showed its
    challenger, and every card face up on the dark side (played on it, turned up by a Flip,
    or in a hand when a round ends on it), round by round."""
    replay = Match(played.rules, played.seats, played.seed)
    sight = Sight()
    side = LIGHT
    for seat, action in played.log:
        events = replay.apply(seat, action)
        rnd = replay.round
        if rnd is None:
            continue
        r = replay.round_no
        sight.pairing[r] = rnd.manifest
        up = sight.face_up.setdefault(r, set())
        for event in events:
            if isinstance(event, ev.RoundStarted):
                side = LIGHT
            elif isinstance(event, ev.Flipped):
                side = event.side
                if side == DARK:
                    up.add(event.top)
            elif isinstance(event, ev.CardPlayed) and side == DARK:
                up.add(event.card)
            elif isinstance(event, ev.ChallengeReveal):
                sight.of(sight.revealed, r, event.challenger).update(event.cards)
            elif isinstance(event, ev.CardsReceived):
                sight.of(sight.held, r, event.seat).update(event.cards)
            elif isinstance(event, ev.RoundEnded) and side == DARK:
                up.update(card for hand in event.hands for card in hand)
        for s, hand in enumerate(rnd.hands):
            sight.of(sight.held, r, s).update(hand)
    return sight


def _told_only_what_it_may_know(sight: Sight, seat: int | None, told: Sequence[Told]) -> None:
    """`told` (what the client at `seat` received; None: the spectator) names only dark faces
    it may know, each the round's true one, each once per audience and round; a seat was told
    the dark face of every card it held (it is told on receipt)."""
    assert told, "no dark face was told at all"
    once: set[tuple[int, int | None, int]] = set()
    for round_no, audience, card, face in told:
        where = (round_no, seat, card)
        assert audience is None or audience == seat, ("another seat's dark face", where)
        assert (round_no, audience, card) not in once, ("told twice", where)
        once.add((round_no, audience, card))
        assert face == sight.pairing[round_no].face(card, DARK), ("not the pairing's", where)
        public = sight.face_up.get(round_no, set())
        if audience is None:
            assert card in public, ("told everybody a card not face up on the dark side", where)
        elif seat is not None:
            mine = sight.of(sight.held, round_no, seat) | sight.of(sight.revealed, round_no, seat)
            assert card in mine | public, ("a card it never held nor saw", where)
    if seat is not None:
        for (round_no, s), held in sight.held.items():
            if s == seat:
                known = {c for r, _, c, _ in told if r == round_no}
                assert held <= known, ("held but not told", round_no, sorted(held - known))
