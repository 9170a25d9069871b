"""Issue 45 over real sockets: a host patched to rewrite a player's choices (a 7's target, a
Wild's colour, the card, the UNO call, a challenge, the cards of a run), to give a round up once
its seeds are in, and to sit on the last audit, each caught by a real client (the link of
client/link_session.py with its TrustGate, or `unonet bot`) at the moment it can be known, and
named first in the title bar and the trust panel; `unonet bot` and `unonet audit` never count a
round given up as audited; and honest whole matches with every move checked, nothing flagged.

On trio's autojump clock, at the reference host's pace (its bots wait 0.8 s a move): the
timers are real, the waiting is not, so "at once" and "after AUDIT_DEADLINE" are read on the
virtual clock. The patched hosts are the real one (host/) with one method changed; the
withheld audit is taken out on the wire (tests/tamper.py).
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest
import trio
import trio.testing
from client_net import LinkHarness, choose, play_until, start_host, start_link
from tamper import Message, Tamper, TamperingStream, event_of

from client import netbot
from client.audit_cmd import EXIT_HOLDS, EXIT_VIOLATION, run
from client.i18n import Translator
from client.link import GameEvent, TrustReport, TrustStatus, Update
from client.model import ClientModel
from client.network import LinkConfig
from client.render import trust_panel_lines, trust_title
from host.game import Game
from host.settings import TableTimings
from protocol.limits import AUDIT_DEADLINE
from protocol.trust.seed_exchange import SeedExchange, SeedPhase, signed
from protocol.trust.signing import EventsDigest
from unonet import events as ev
from unonet.actions import Accept, Action, Challenge, ChooseTarget, Play
from unonet.cards import Color
from unonet.rules import RuleSet

TIMINGS = TableTimings(grace=30.0, challenge_decision=20.0, seed_phase=10.0, bot_delay=0.8,
                       round_break=1.0, ready_wait=5.0, match_break=10_000.0)
"""The reference host's pace, but a match break long enough that the table stays on its
finished match while the test looks (the player stays at the table)."""

VIRTUAL = 100_000.0
"""A bound in virtual seconds: only a deadlock reaches it."""


def _config(port: int, name: str = "me", transcripts: Path | None = None) -> LinkConfig:
    return LinkConfig("127.0.0.1", port, name=name, tls=False, table=0, auto_ready=True,
                      transcripts=transcripts)


def _match_over(update: Update) -> bool:
    return isinstance(update, GameEvent) and isinstance(update.event, ev.MatchEnded)


def _caught(kind: str) -> Callable[[Update], bool]:
    def check(update: Update) -> bool:
        return isinstance(update, TrustStatus) and kind in {v.kind for v in update.violations}
    return check


def _status(harness: LinkHarness) -> TrustStatus:
    statuses = [u for u in harness.seen if isinstance(u, TrustStatus)]
    return statuses[-1] if statuses else TrustStatus()


def _screen(harness: LinkHarness) -> ClientModel:
    """The player's screen after everything its link delivered."""
    model = ClientModel(Translator("en"), "me")
    for update in harness.seen:
        model.apply(update)
    return model


def _first_named(harness: LinkHarness) -> None:
    """The title bar's alert names the first violation and counts the rest; the trust panel
    (key t) names the first, then lists them all."""
    caught = _status(harness).violations
    assert caught
    model = _screen(harness)
    tr = model.tr
    what = tr(f"trust.{caught[0].kind}")
    text, alert = trust_title(model)
    assert alert, text
    if len(caught) > 1:
        assert text == tr("trust.title_caught_rest", what=what, rest=len(caught) - 1), text
    else:
        assert text == tr("trust.title_caught", what=what), text
    whole = 10 * len(caught) + 50  # lines enough for the panel not to cut anything
    panel = ["".join(part[1] for part in line) for line in trust_panel_lines(model, 80, whole)]
    first = panel.index(" " + tr("trust.panel_first", what=what))
    assert panel[first - 1] == " " + tr("trust.panel_violations", count=len(caught))
    listed = panel[first + 1:panel.index(tr("trust.panel_rounds"))]
    assert [line.split(": ", 1)[1] for line in listed if not line.startswith("   ")] == [
        tr(f"trust.{c.kind}") for c in caught]


async def _until(harness: LinkHarness, wanted: Callable[[Update], bool]) -> Update:
    return await play_until(harness, wanted, timeout=VIRTUAL)


# -- choices rewritten ---------------------------------------------------------------------------


@dataclass
class Rewrites:
    """What the patched host changed of the player's intents: (kind, engine round)."""

    done: list[tuple[str, int]] = field(default_factory=list)

    def patch(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """The host gives the player's 7 swap to another seat than the one it picked, and names
        another colour for its Wild than the one it named (only with cards to spare, so that
        the play does not end the round): both legal, both consistent in the record."""
        honest = Game.intent

        def rewrite(game: Game, conn: int, seat: int, request: int, action: Action,
                    now: float) -> None:
            rnd = game.match.round
            if isinstance(action, ChooseTarget):
                others = [s for s in range(game.match.seats) if s not in (seat, action.target)]
                action = ChooseTarget(others[0])
                self.done.append(("rewritten_target", game.match.round_no))
            elif (isinstance(action, Play) and action.color is not None and rnd is not None
                  and len(rnd.hands[seat]) > 2):
                other = Color.BLUE if action.color is not Color.BLUE else Color.GREEN
                action = Play(action.card, other, action.uno, action.also)
                self.done.append(("rewritten_color", game.match.round_no))
            honest(game, conn, seat, request, action, now)

        monkeypatch.setattr(Game, "intent", rewrite)


def _sevens_and_wilds(legal: tuple[Action, ...]) -> Action | None:
    """A player who swaps hands whenever it may, and plays its 7s and Wilds first."""
    for action in legal:
        if isinstance(action, ChooseTarget):
            return action
    for action in legal:
        if isinstance(action, Play) and not action.also and action.color is not None:
            return action
    return choose(legal)


async def test_a_host_that_rewrites_a_swap_target_and_a_wild_s_colour_is_caught_at_once(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rewrites = Rewrites()
    rewrites.patch(monkeypatch)
    host = await start_host(nursery, bots=2, rules=RuleSet(seven_zero=True, target=2000),
                            timings=TIMINGS)
    harness = await start_link(nursery, _config(host.port))

    def both(update: Update) -> bool:
        return isinstance(update, TrustStatus) and {"rewritten_target", "rewritten_color"} \
            <= {v.kind for v in update.violations}

    await play_until(harness, both, timeout=VIRTUAL, chooser=_sevens_and_wilds)
    caught = _status(harness).violations
    assert {c.kind for c in caught} == {"rewritten_target", "rewritten_color"}, caught
    for kind, known_at in (("rewritten_target", _at(ev.HandsMoved)),
                           ("rewritten_color", _at(ev.CardPlayed))):
        first = next(c for c in caught if c.kind == kind)
        done = next(number for what, number in rewrites.done if what == kind)
        assert first.round_no == done  # the round it was done in ...
        _said_at(harness, kind, known_at)  # ... at the event that records it, not its audit
    assert "the host changed" in caught[0].detail and "you " in caught[0].detail
    _first_named(harness)
    await harness.close()


@dataclass(frozen=True)
class Rewrite:
    """One way a patched host changes the player's intent before applying it: the rules that
    make such a move come up, how the player picks its moves, the change (None: not this one;
    only a legal change is made, so that the host accepts it), what the player's client names
    it, and whether the last of the events so far is where the change can first be known."""

    rules: RuleSet
    chooser: Callable[[tuple[Action, ...]], Action | None]
    change: Callable[[Game, int, Action], Action | None]
    kind: str
    known_at: Callable[[list[ev.Event]], bool]


def _at(kind: type[ev.Event]) -> Callable[[list[ev.Event]], bool]:
    """At the event of `kind` that records the move."""
    return lambda events: isinstance(events[-1], kind)


def _right_after_the_cards_recorded(events: list[ev.Event]) -> bool:
    """At the first event after the cards of a run the host recorded (they come one right
    after another): whatever it is, it is not the run's next card."""
    *_, card, after = events
    return isinstance(card, ev.CardPlayed) and not (
        isinstance(after, ev.CardPlayed) and after.seat == card.seat)


def _said_at(harness: LinkHarness, kind: str,
             known_at: Callable[[list[ev.Event]], bool]) -> None:
    """The first report of `kind` came right behind the event where the change can first be
    known (the client reports a violation as it checks the event that shows it)."""
    said = next(i for i, u in enumerate(harness.seen)
                if isinstance(u, TrustReport) and not u.ok and u.kind == kind)
    before = [u.event for u in harness.seen[:said] if isinstance(u, GameEvent)]
    assert len(before) > 1 and known_at(before), (kind, before[-3:])


def _legal(game: Game, seat: int, action: Action) -> Action | None:
    return action if action in game.match.legal_actions(seat) else None


def _another_card(game: Game, seat: int, action: Action) -> Action | None:
    """Another of the player's playable cards than the one it played."""
    if not isinstance(action, Play) or action.also:
        return None
    return next((other for other in game.match.legal_actions(seat)
                 if isinstance(other, Play) and other.card != action.card and not other.also
                 and not other.uno), None)


def _uno_left_out(game: Game, seat: int, action: Action) -> Action | None:
    if not isinstance(action, Play) or not action.uno:
        return None
    return _legal(game, seat, Play(action.card, action.color, False, action.also))


def _accept_for_challenge(game: Game, seat: int, action: Action) -> Action | None:
    return _legal(game, seat, Accept()) if isinstance(action, Challenge) else None


def _a_card_left_out_of_the_run(game: Game, seat: int, action: Action) -> Action | None:
    if not isinstance(action, Play) or not action.also:
        return None
    return _legal(game, seat, Play(action.card, action.color, False, action.also[:-1]))


def _preferring(wanted: Callable[[Action], bool]) -> Callable[[tuple[Action, ...]],
                                                              Action | None]:
    """A player who makes the move `wanted` picks whenever it may, else plays simply."""
    def chooser(legal: tuple[Action, ...]) -> Action | None:
        return next((action for action in legal if wanted(action)), None) or choose(legal)
    return chooser


REWRITES = {
    "the card played": Rewrite(RuleSet(target=2000), choose, _another_card, "rewritten_card",
                               _at(ev.CardPlayed)),
    "the UNO called with it": Rewrite(
        RuleSet(target=2000), _preferring(lambda a: isinstance(a, Play) and a.uno),
        _uno_left_out, "rewritten_uno", _at(ev.CardPlayed)),
    "a challenge, taken as accepting the draw": Rewrite(
        RuleSet(target=2000), _preferring(lambda a: isinstance(a, Challenge)),
        _accept_for_challenge, "rewritten_action", _at(ev.CardsDrawn)),
    "the cards of a run or multiple": Rewrite(
        RuleSet(sequences=True, multiples=True, target=2000),
        _preferring(lambda a: isinstance(a, Play) and len(a.also) >= 2),
        _a_card_left_out_of_the_run, "rewritten_card", _right_after_the_cards_recorded),
}


def _rewrite_the_player_s(monkeypatch: pytest.MonkeyPatch, rewrite: Rewrite) -> list[int]:
    """The host applies the changed move instead of each move of the network player's that
    `rewrite` can change; the rounds it did so in, in order."""
    honest = Game.intent
    done: list[int] = []

    def intent(game: Game, conn: int, seat: int, request: int, action: Action,
               now: float) -> None:
        changed = rewrite.change(game, seat, action) if game.match.round is not None else None
        if changed is not None:
            done.append(game.match.round_no)
            action = changed
        honest(game, conn, seat, request, action, now)

    monkeypatch.setattr(Game, "intent", intent)
    return done


@pytest.mark.parametrize("what", sorted(REWRITES))
async def test_a_host_that_rewrites_another_choice_is_caught_at_the_event_that_records_it(
    what: str, nursery: trio.Nursery, autojump_clock: trio.testing.MockClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The card played, the UNO called with it, a challenge (taken as accepting the draw) and
    the cards of a run: each changed by the host, each caught by the player's client at the
    event that shows it, and named in the title bar and the trust panel."""
    rewrite = REWRITES[what]
    done = _rewrite_the_player_s(monkeypatch, rewrite)
    host = await start_host(nursery, bots=2, rules=rewrite.rules, timings=TIMINGS)
    harness = await start_link(nursery, _config(host.port))
    await play_until(harness, _caught(rewrite.kind), timeout=VIRTUAL, chooser=rewrite.chooser)
    [caught] = _status(harness).violations
    assert caught.kind == rewrite.kind and caught.round_no == done[0], (caught, done)
    assert "the host" in caught.detail and "you " in caught.detail
    _said_at(harness, rewrite.kind, rewrite.known_at)
    _first_named(harness)
    await harness.close()


# -- the deck ground -----------------------------------------------------------------------------


def _give_up_after_the_reveal(monkeypatch: pytest.MonkeyPatch) -> None:
    """The host does not like the deck the seeds made (it knows it: every seed is in): it
    gives its first round up before the deal, audits it as abandoned, and prepares another."""
    honest_deal = Game._deal
    done = False

    def grind(game: Game, trust: SeedExchange, now: float) -> None:
        nonlocal done
        if done:
            honest_deal(game, trust, now)
            return
        done = True
        digest = EventsDigest(game.game_id, trust.round_no).value
        audit = trust.commitments.audit("abandoned", digest)
        game.room.broadcast(signed("round_audit", audit, game.signer))
        game.trust = None
        game._prepare_round(now)

    monkeypatch.setattr(Game, "_deal", grind)


async def test_a_round_given_up_after_its_seeds_came_in_is_flagged_at_once_for_everyone(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _give_up_after_the_reveal(monkeypatch)
    host = await start_host(nursery, bots=1, players=2, rules=RuleSet(target=100),
                            timings=TIMINGS)
    players = [await start_link(nursery, _config(host.port, name)) for name in ("ana", "bo")]
    for harness in players:
        await harness.until(_caught("abandoned_after_reveal"), timeout=VIRTUAL)
        dealt = [i for i, u in enumerate(harness.seen)
                 if isinstance(u, GameEvent) and isinstance(u.event, ev.RoundStarted)]
        said = next(i for i, u in enumerate(harness.seen) if _caught("abandoned_after_reveal")(u))
        assert not dealt or said < dealt[0]  # before the next deal: at the abandoned audit
        status = _status(harness)
        assert status.rounds[0].state == "violated"
        assert status.abandoned_rounds == 0  # the title bar's "re-dealt" counts no ground deck
        assert [c.round_no for c in status.violations] == [1]
        _first_named(harness)
    for harness in players:
        await harness.close()


def _give_up_while_committing(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every host gives its first round up in its commitment phase (before any seed is
    revealed: allowed, and counted), audits it as abandoned and prepares the next."""
    honest = Game._advance_trust
    given_up: list[int] = []

    def give_up(self: Game, now: float) -> None:
        trust = self.trust
        if not given_up and trust is not None and trust.phase is SeedPhase.COMMIT:
            given_up.append(trust.round_no)
            digest = EventsDigest(self.game_id, trust.round_no).value
            audit = trust.commitments.audit("abandoned", digest)
            self.room.broadcast(signed("round_audit", audit, self.signer))
            self.trust = None
            self._prepare_round(now)
            return
        honest(self, now)

    monkeypatch.setattr(Game, "_advance_trust", give_up)
    return given_up


@dataclass
class Played:
    """A whole match as the terminal client (its link), `unonet bot` and `unonet audit` of the
    link's transcript saw it."""

    status: TrustStatus
    bot: netbot.BotResult
    bot_checked: str
    """`unonet bot`'s line on the deck checks."""
    audit_exit: int
    audit: str
    """What `unonet audit` printed."""


async def _a_match_with_a_bot(nursery: trio.Nursery, tmp_path: Path) -> Played:
    """The link and a network bot play a whole match beside a bot of the host's."""
    host = await start_host(nursery, bots=1, players=2, rules=RuleSet(target=100),
                            timings=TIMINGS)
    harness = await start_link(nursery, _config(host.port, "me", tmp_path))
    result: netbot.BotResult | None = None

    async def bot() -> None:
        nonlocal result
        stream = await trio.open_tcp_stream("127.0.0.1", host.port)
        result = await netbot.play(stream, name="bot", table=0, think=0.3)

    nursery.start_soon(bot)
    await _until(harness, _match_over)
    with trio.fail_after(VIRTUAL):
        while result is None:
            await trio.sleep(1)
    await harness.close()
    lines = netbot.report_lines(result)
    [path] = (tmp_path / "transcripts").glob("*.msgpack")
    printed = io.StringIO()
    code = run(path, printed, io.StringIO())
    checked = next(line for line in lines if line.startswith("deck checks"))
    return Played(_status(harness), result, checked, code, printed.getvalue())


async def test_a_round_given_up_before_the_reveal_is_counted_never_called_audited(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock,
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    """Allowed, and counted: no violation; but neither the screen, `unonet bot` nor
    `unonet audit` says a round that was never dealt was audited."""
    given_up = _give_up_while_committing(monkeypatch)
    played = await _a_match_with_a_bot(nursery, tmp_path)
    assert given_up == [1]
    status, result = played.status, played.bot
    assert status.violations == () and status.abandoned_rounds == 1
    assert status.rounds[0].state == "abandoned"
    assert result.violations == [] and result.abandoned == [1]
    rounds = result.judged
    assert played.bot_checked == (f"deck checks: {rounds - 1} of {rounds} rounds audited in "
                                  f"full (1 abandoned before the deal); no violation in what "
                                  f"was checked")
    assert played.audit_exit == EXIT_HOLDS
    out = played.audit
    assert "round 1: abandoned before any seed was revealed (counted; no card dealt" in out
    assert "round 1: audited" not in out
    assert f"{rounds} rounds, {rounds - 1} audited, 1 abandoned before the deal" in out


async def test_a_round_given_up_after_the_reveal_is_a_violation_for_unonet_bot_and_audit(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock,
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    """The deck ground (issue 45: `unonet bot` printed "audited in full" of such a match):
    the screen, `unonet bot` and `unonet audit` each report the round given up as a
    violation, and none counts it audited, nor abandoned before the deal."""
    _give_up_after_the_reveal(monkeypatch)
    played = await _a_match_with_a_bot(nursery, tmp_path)
    status, result = played.status, played.bot
    assert [(c.round_no, c.kind) for c in status.violations] == [(1, "abandoned_after_reveal")]
    assert status.rounds[0].state == "violated" and status.abandoned_rounds == 0
    assert [v.kind.value for v in result.violations] == ["abandoned_after_reveal"]
    assert 1 not in result.audited and result.abandoned == []
    rounds = result.judged
    assert result.audited == list(range(2, rounds + 1))
    assert played.bot_checked == (f"deck checks: {rounds - 1} of {rounds} rounds audited in "
                                  f"full; 1 violation (below)")
    assert played.audit_exit == EXIT_VIOLATION
    out = played.audit
    assert "round 1: VIOLATION abandoned_after_reveal: " in out
    assert "round 1: audited" not in out and "round 1: abandoned before" not in out
    assert f"{rounds} rounds, {rounds - 1} audited, 0 abandoned before the deal" in out


# -- the last audit withheld ---------------------------------------------------------------------


class WithholdTheLastAudit:
    """Every message passes but the audit that follows match_ended; the table stays on the
    finished match (its break is long), so nothing else would ever say it is missing."""

    def __init__(self) -> None:
        self.over = False

    def __call__(self, message: Message) -> list[Message]:
        if event_of(message, "match_ended") is not None:
            self.over = True
        return [] if self.over and message.get("t") == "round_audit" else [message]


def _stack_every_deck(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every round dealt from a key of the host's choosing: each card opens its commitment;
    only the audit shows the deck is not the seeds' one."""
    honest_deal = Game._deal

    def stacked(game: Game, trust: SeedExchange, now: float) -> None:
        trust.commitments._key = bytes(range(32))
        honest_deal(game, trust, now)

    monkeypatch.setattr(Game, "_deal", stacked)


@pytest.mark.parametrize("stacked", [False, True], ids=["honest decks", "stacked decks"])
async def test_the_last_audit_withheld_is_flagged_at_its_deadline_while_the_player_stays(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock, stacked: bool,
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    """The match is over, its last audit never comes, the player stays at the table: the
    audit is flagged AUDIT_DEADLINE after the round ended, not when the player leaves. With
    every deck stacked, the first round's audit caught it first, and the title bar names
    that, counting the missing audit after it. `unonet audit` of the transcript agrees."""
    if stacked:
        _stack_every_deck(monkeypatch)
    two_rounds = RuleSet(target=10_000, max_rounds=2)  # the first audited, the last withheld
    host = await start_host(nursery, bots=2, rules=two_rounds, timings=TIMINGS)
    tamper: Tamper = WithholdTheLastAudit()
    harness = await start_link(nursery, _config(host.port, transcripts=tmp_path),
                               lambda stream: TamperingStream(stream, tamper))
    await _until(harness, _match_over)
    ended = trio.current_time()
    await harness.until(_caught("missing_audit"), timeout=AUDIT_DEADLINE + 5)
    waited = trio.current_time() - ended
    assert AUDIT_DEADLINE - 0.01 <= waited < AUDIT_DEADLINE + 1, waited  # virtual seconds
    assert harness.states()[-1] == "connected"  # still at the table
    status = _status(harness)
    last = status.rounds[-1]
    assert last.state == "violated"
    assert [c.kind for c in status.violations if c.round_no == last.round_no] == [
        "missing_audit"]
    assert [r.state for r in status.rounds] == ["violated" if stacked else "audited",
                                                "violated"]
    if stacked:  # the stacked deck of round 1 is named, not the missing audit after it
        assert status.violations[0].kind == "deck_order"
    _first_named(harness)
    await harness.close()
    assert [c.kind for c in _status(harness).violations].count("missing_audit") == 1
    [path] = (tmp_path / "transcripts").glob("*.msgpack")
    printed = io.StringIO()
    assert run(path, printed, io.StringIO()) == EXIT_VIOLATION
    assert "round 2: VIOLATION missing_audit: " in printed.getvalue()
    assert "round 2: audited" not in printed.getvalue()


async def test_a_round_s_audit_withheld_is_flagged_at_its_deadline_before_the_next_round(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock,
) -> None:
    """Not only the last: a round in mid-match whose audit does not come is flagged
    AUDIT_DEADLINE after it ended, while the table waits for the next round (its break here
    longer than the deadline), not only when the next round is prepared."""
    rounds_apart = replace(TIMINGS, round_break=60.0)
    host = await start_host(nursery, bots=2, rules=RuleSet(target=10_000, max_rounds=2),
                            timings=rounds_apart)

    def withhold_round_1(message: Message) -> list[Message]:
        return [] if message.get("t") == "round_audit" and message.get("round") == 1 else [
            message]

    harness = await start_link(nursery, _config(host.port),
                               lambda stream: TamperingStream(stream, withhold_round_1))
    await _until(harness, lambda u: isinstance(u, GameEvent)
                 and isinstance(u.event, ev.RoundEnded))
    ended = trio.current_time()
    await harness.until(_caught("missing_audit"), timeout=AUDIT_DEADLINE + 5)
    assert AUDIT_DEADLINE - 0.01 <= trio.current_time() - ended < AUDIT_DEADLINE + 1
    assert not any(isinstance(u, GameEvent) and isinstance(u.event, ev.RoundStarted)
                   and u.event.round_no == 2 for u in harness.seen)  # the next round not yet
    status = _status(harness)
    assert [(c.round_no, c.kind) for c in status.violations] == [(1, "missing_audit")]
    _first_named(harness)
    await harness.close()


async def test_unonet_bot_flags_the_withheld_last_audit_and_leaves(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock,
) -> None:
    """A bot waits for the last round's audit before it leaves; withheld, it waited for ever.
    Now it reports it missing at the deadline and goes."""
    host = await start_host(nursery, bots=2, rules=RuleSet(target=150), timings=TIMINGS)
    with trio.fail_after(VIRTUAL):
        stream = TamperingStream(await trio.open_tcp_stream("127.0.0.1", host.port),
                                 WithholdTheLastAudit())
        result = await netbot.play(stream, name="bot", table=0, think=0.3)
    assert len(result.matches) == 1
    assert [v.kind.value for v in result.violations] == ["missing_audit"]
    assert "1 violation (below)" in netbot.report_lines(result)[1]


# -- honest whole matches ------------------------------------------------------------------------


async def test_bots_play_a_whole_match_of_the_official_rules_every_move_held_to_the_record(
    nursery: trio.Nursery, autojump_clock: trio.testing.MockClock,
) -> None:
    """Two network bots and two of the host's: each network bot's moves, every one the host
    accepted, are the ones the record shows, and nothing else is flagged. (Party, UNO Flip and
    No Mercy: tests/test_presets_network.py, test_flip_network.py, test_no_mercy_network.py,
    whose bots check their moves the same way.)"""
    host = await start_host(nursery, bots=2, rules=RuleSet(target=200), timings=TIMINGS,
                            players=2)
    results: dict[str, netbot.BotResult] = {}

    async def one(name: str) -> None:
        stream = await trio.open_tcp_stream("127.0.0.1", host.port)
        results[name] = await netbot.play(stream, name=name, table=0, think=0.3)

    with trio.fail_after(VIRTUAL):
        async with trio.open_nursery() as bots:
            for name in ("alpha", "beta"):
                bots.start_soon(one, name)
    for name, result in results.items():
        assert result.violations == [], (name, result.violations)
        assert len(result.matches) == 1 and result.audited == list(range(1, result.judged + 1))
        assert 0 < result.moves_checked <= result.intents, name
        assert f"own moves: {result.moves_checked} recorded by the host exactly as sent" in \
            netbot.report_lines(result)
