"""The one narrator: engine events as sentences of English, Italian or Portuguese.

`narrate(event, names, manifest, viewer, lang, side)` returns a sentence, or None for
bookkeeping nobody needs to read (BOOKKEEPING: a turn starting, a catch window closing, the
deal's draws, UNO Flip's other sides shown) and for a private event whose audience is not
`viewer`. Every log uses it: the terminal client's log, `unonet play --log`. Pure, no I/O; the
words come from unonet/words.py.

In UNO Flip a card is named by its face on the side in play, `side`. A card id names its light
face only; which dark face backs it is dealt each round and told card by card (`DarkFacesShown`,
unonet.flip), so on the dark side a card is named by the dark face the reader was told, `dark`
(unonet.in_play), and a face never told is "?". The caller knows both (the client's view), or lets
a `Narrator` follow them from the events (a log of a whole match).

Names are used as given: the caller passes them ready for display (the client passes the seat
names it shows everywhere else), and they are substituted as values, never read as templates.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from unonet import events as ev
from unonet.cards import CHALLENGEABLE_KINDS, Color, DeckManifest, Face, Kind
from unonet.in_play import face_in_play
from unonet.phase import Phase
from unonet.scoring import opposite
from unonet.words import DEFAULT_LANGUAGE, Words, game_words

__all__ = ["BOOKKEEPING", "SAID_BY_THE_CATCH", "Narrator", "narrate"]

BOOKKEEPING: frozenset[type[ev.Event]] = frozenset({
    ev.TurnStarted, ev.CatchWindowClosed, ev.OtherSidesShown, ev.PileOtherSideShown,
    ev.DarkFacesShown,
})
"""Event classes that are never worded: the screen shows whose turn it is, a closed catch
window only means that nothing happened, and UNO Flip's other sides are on the screen (a line
for each hand after every step would drown the log; the dark faces told are what names the
cards of the sentences that follow). (CardsDrawn of the deal is also silent:
the round's start says it; so is the draw of an UNO or false-catch penalty, whose count the
catch's own sentence gives, so that a catch is told once.)"""

_KINDS = frozenset(kind.value for kind in Kind)

SAID_BY_THE_CATCH = frozenset({"penalty_uno", "penalty_false_catch"})
"""CardsDrawn reasons worded by the event just before them (UnoCaught, FalseCatch)."""


def narrate(
    event: ev.Event,
    names: Sequence[str],
    manifest: DeckManifest,
    viewer: int | None = None,
    lang: str = DEFAULT_LANGUAGE,
    side: int = 0,
    dark: Mapping[int, Face] | None = None,
    pairs: bool = False,
) -> str | None:
    """The sentence for `event` as `viewer` (a seat, or None for a spectator or a public log)
    reads it, in `lang` (English if unknown), cards named by their face on `side` (UNO Flip:
    the side in play once `event` happened; 0 for every other deck), a dark face as `dark`
    (card id -> dark face told to `viewer` this round) says. `pairs`: the table plays
    teams=pairs, so a match is won by the winner and the partner opposite, together."""
    audience = event.audience
    if audience is not None and viewer not in audience:
        return None
    if type(event) in BOOKKEEPING:
        return None
    return _Teller(game_words(lang), names, manifest, side, dark or {}, pairs).tell(event)


class Narrator:
    """`narrate` for a whole match told in order, following the side in play and the dark faces
    told to `viewer` from the events themselves (a Flipped turns the side, a DarkFacesShown for
    `viewer` or everybody names dark faces, a new round starts on the light side with none): for
    a log that has no view at hand, such as `unonet play --log`. Events for other seats may be
    passed too: their dark faces are not taken."""

    def __init__(self, names: Sequence[str], manifest: DeckManifest,
                 viewer: int | None = None, lang: str = DEFAULT_LANGUAGE,
                 pairs: bool = False) -> None:
        self.names = names
        self.pairs = pairs
        self.manifest = manifest
        self.viewer = viewer
        self.lang = lang
        self.side = 0
        self.dark: dict[int, Face] = {}

    def __call__(self, event: ev.Event) -> str | None:
        match event:
            case ev.Flipped(side=side):
                self.side = side
            case ev.RoundStarted():
                self.side = 0
                self.dark = {}  # each round pairs the dark faces afresh
            case ev.DarkFacesShown(cards=cards, faces=faces):
                if event.audience is None or self.viewer in event.audience:
                    self.dark.update(zip(cards, faces, strict=False))
        return narrate(event, self.names, self.manifest, self.viewer, self.lang, self.side,
                       self.dark, self.pairs)


class _Teller:
    """One event's wording: the language's words, and how seats and cards are named."""

    def __init__(self, words: Words, names: Sequence[str], manifest: DeckManifest,
                 side: int = 0, dark: Mapping[int, Face] | None = None,
                 pairs: bool = False) -> None:
        self.tr = words
        self.pairs = pairs
        self.names = names
        self.manifest = manifest
        self.side = side
        self.dark: Mapping[int, Face] = dark or {}

    def name(self, seat: int | None) -> str:
        if seat is None or not 0 <= seat < len(self.names):
            return "?"
        return self.names[seat]

    def partner(self, seat: int) -> int | None:
        """teams=pairs: the seat opposite, if the table has one."""
        count = len(self.names)
        if not self.pairs or count < 4 or count % 2 or not 0 <= seat < count:
            return None
        return opposite(count, seat)

    def seats(self, seats: Iterable[int]) -> str:
        return ", ".join(self.name(s) for s in seats)

    def card(self, card_id: int) -> str:
        face = face_in_play(self.manifest, card_id, self.side, self.dark)
        return "?" if face is None else self.tr.card(face)

    def challenged(self) -> str:
        """The name of the card a challenge is about: the one challengeable kind the deck has
        on the side in play (UNO Flip: Wild Draw Two on light, Wild Draw Color on dark: only
        Flip has a dark side, which the public manifest does not list), else the Wild Draw
        Four."""
        if self.side != 0:
            return self.tr.card(Face(Kind.WILD_DRAW_COLOR))
        kinds = {card.faces[0].kind for card in self.manifest} & CHALLENGEABLE_KINDS
        kind = kinds.pop() if len(kinds) == 1 else Kind.WILD_DRAW_FOUR
        return self.tr.card(Face(kind))

    def cards(self, ids: Iterable[int]) -> str:
        return ", ".join(self.card(c) for c in ids)

    def tell(self, event: ev.Event) -> str | None:
        return (
            self.match_and_round(event)
            or self.cards_moving(event)
            or self.turn_flow(event)
            or self.uno_and_challenge(event)
            or self.house_rules(event)
            or self.flip(event)
        )

    # -- UNO Flip ----------------------------------------------------------------------------

    def flip(self, event: ev.Event) -> str | None:
        """The table turning over: the side now in play and the new top card, read on it."""
        match event:
            case ev.Flipped(seat=s, side=side, top=top):
                which = self.tr("side.dark" if side else "side.light")
                on_top = _Teller(self.tr, self.names, self.manifest, side, self.dark).card(top)
                return self.tr("ev.flipped", name=self.name(s), side=which, card=on_top)
        return None

    # -- match level -------------------------------------------------------------------------

    def match_and_round(self, event: ev.Event) -> str | None:
        tr, name = self.tr, self.name
        match event:
            case ev.DealerDraw(attempt=attempt, draws=draws):
                drawn = ", ".join(f"{name(s)} {self.card(c)}" for s, c in draws)
                return tr("ev.dealer_draw_again" if attempt else "ev.dealer_draw", draws=drawn)
            case ev.RoundStarted(round_no=n, dealer=dealer):
                return tr("ev.round_started", round=n, dealer=name(dealer))
            case ev.RoundEnded(winner=winner, points=points, scores=scores):
                if winner is None:
                    return tr("ev.round_abandoned")
                table = ", ".join(f"{name(s)} {score}" for s, score in enumerate(scores))
                gained = points[winner] if 0 <= winner < len(points) else 0
                if gained > 0:
                    return tr("ev.round_ended_points", name=name(winner), points=gained,
                              scores=table)
                return tr("ev.round_ended", name=name(winner), scores=table)
            case ev.MatchEnded(winner=winner, scores=scores):
                total = scores[winner] if 0 <= winner < len(scores) else 0
                partner = self.partner(winner)
                if partner is None:
                    return tr("ev.match_ended", name=name(winner), points=total)
                # Partners are credited alike; each holds the team's score less its own refused
                # jump-ins, and the higher one is the team's (client.model.team_points).
                if partner < len(scores):
                    total = max(total, scores[partner])
                return tr("ev.match_ended_team", names=f"{name(winner)} + {name(partner)}",
                          points=total)
            case ev.SeatEliminated(seat=s, score=score):
                return tr("ev.eliminated", name=name(s), points=score)
        return None

    # -- cards moving ------------------------------------------------------------------------

    def cards_moving(self, event: ev.Event) -> str | None:
        tr, name = self.tr, self.name
        match event:
            case ev.TopCardTurned(card=c):
                return tr("ev.first_card", card=self.card(c))
            # A call of UNO with the play is worded by the UnoCalled that follows it (emitted
            # only when the call counts: one card left), so it is said once.
            case ev.CardPlayed(seat=s, card=c, color=None):
                return tr("ev.played", name=name(s), card=self.card(c))
            case ev.CardPlayed(seat=s, card=c, color=color):
                return tr("ev.played_color", name=name(s), card=self.card(c),
                          color=tr.color(color))
            case ev.CardsDrawn(reason=reason) if reason == "deal" or reason in SAID_BY_THE_CATCH:
                return None
            case ev.CardsDrawn(seat=s, positions=positions, reason=reason):
                why = self.why(reason)
                if why is None:
                    return tr("ev.drew", name=name(s), count=len(positions))
                return tr("ev.drew_why", name=name(s), count=len(positions), why=why)
            case ev.CardsReceived(cards=got):
                return tr("ev.you_got", cards=self.cards(got))
            case ev.Reshuffled(reason="empty_pile"):
                return tr("ev.reshuffled")
            case ev.Reshuffled(reason=reason):  # a first card sent back: its kind is named
                kind = reason.removeprefix("first_card_")
                first = Kind(kind) if kind in _KINDS else Kind.WILD_DRAW_FOUR
                return tr("ev.reshuffled_first", card=tr.card(Face(first)))
            case ev.CardsDiscarded(seat=s, cards=cards):
                return tr("ev.cards_discarded", name=name(s), cards=self.cards(cards))
            case ev.RouletteTurned(seat=s, color=color, cards=cards):
                return tr("ev.roulette_turned", name=name(s), color=tr.color(color),
                          count=len(cards), cards=self.cards(cards))
            case ev.CardsReturned(seat=s, positions=positions):
                return tr("ev.cards_returned", name=name(s), count=len(positions))
            case ev.HandsMoved(moves=moves, reason=reason):
                if reason in ("zero", "flip"):  # a 0, or a Flip under flip_passes_hands
                    return tr("ev.hands_passed")
                if reason == "seven" and moves:
                    giver, taker, _ = moves[0]
                    return tr("ev.hands_swapped", name=name(giver), target=name(taker))
                return " ".join(tr("ev.hand_moved", name=name(giver), target=name(taker))
                                for giver, taker, _ in moves) or None
        return None

    def why(self, reason: str) -> str | None:
        """Why a player draws, in words: a card's kind (Draw Two) or a named reason (UNO
        penalty); None for an ordinary draw or a reason without words."""
        if self.tr.has(f"why.{reason}"):
            return self.tr(f"why.{reason}")
        if self.tr.has(f"kind.{reason}"):
            return self.tr(f"kind.{reason}")
        return None

    # -- turn flow ---------------------------------------------------------------------------

    def turn_flow(self, event: ev.Event) -> str | None:
        tr, name = self.tr, self.name
        match event:
            case ev.Skipped(seat=s):
                return tr("ev.skipped", name=name(s))
            case ev.DirectionChanged(direction=d):
                return tr("ev.direction_cw" if d > 0 else "ev.direction_ccw")
            case ev.ColorChosen(seat=s, color=color):
                return tr("ev.color_chosen", name=name(s), color=tr.color(color))
            case ev.Passed(seat=s):
                return tr("ev.passed", name=name(s))
            case ev.CannotDraw(seat=s):
                return tr("ev.cannot_draw", name=name(s))
            case ev.DecisionPending(seat=s, kind=kind, amount=amount, until_color=until):
                return self.decision(name(s), kind, amount, until)
            case ev.Expired(seat=s):
                return tr("ev.expired", name=name(s))
            case ev.Stalemate(winner=w):
                return tr("ev.stalemate", name=name(w))
        return None

    def decision(self, who: str, kind: str, amount: int, until: Color | None = None
                 ) -> str | None:
        """What the game now waits for (DecisionPending); None for a kind it does not know.
        `until`: the pending draw is a Wild Draw Color's, drawn until a card of that colour."""
        tr = self.tr
        wd4 = self.challenged()
        match kind:
            case Phase.CHOOSE_COLOR:
                return tr("ev.names_color", name=who)
            case Phase.CHALLENGE if until is not None:
                return tr("ev.may_challenge_until", name=who, card=wd4, color=tr.color(until))
            case Phase.STACK if until is not None:
                card = tr.card(Face(Kind.WILD_DRAW_COLOR))
                return tr("ev.must_answer_until", name=who, card=card, color=tr.color(until))
            case Phase.CHALLENGE if amount > 0:
                return tr("ev.may_challenge_amount", name=who, card=wd4, count=amount)
            case Phase.CHALLENGE:
                return tr("ev.may_challenge", name=who, card=wd4)
            case Phase.STACK:
                return tr("ev.must_answer", name=who, count=amount)
            case Phase.CHOOSE_TARGET:
                return tr("ev.picks_target", name=who)
            case Phase.BUZZER:
                return tr("ev.buzzer_race", name=who)
            case Phase.ROULETTE:
                return tr("ev.roulette", name=who, card=tr.card(Face(Kind.WILD_COLOR_ROULETTE)))
        return None

    # -- UNO, challenge, moderation ----------------------------------------------------------

    def uno_and_challenge(self, event: ev.Event) -> str | None:
        tr, name = self.tr, self.name
        match event:
            case ev.UnoCalled(seat=s):
                return tr("ev.uno_called", name=name(s))
            case ev.UnoCaught(catcher=None, target=t, penalty=n):
                return tr("ev.uno_auto", target=name(t), count=n)
            case ev.UnoCaught(catcher=c, target=t, penalty=n):
                return tr("ev.uno_caught", catcher=name(c), target=name(t), count=n)
            case ev.FalseCatch(catcher=c, target=t, penalty=n):
                return tr("ev.false_catch", catcher=name(c), target=name(t), count=n)
            case ev.Challenged(challenger=c, target=t, guilty=guilty):
                key = "ev.challenged_guilty" if guilty else "ev.challenged_innocent"
                return tr(key, challenger=name(c), target=name(t), card=self.challenged())
            case ev.ChallengeReveal(target=t, cards=()):
                return tr("ev.reveal_empty", target=name(t))
            case ev.ChallengeReveal(target=t, cards=shown):
                return tr("ev.reveal", target=name(t), cards=self.cards(shown))
            case ev.Penalized(target=t, count=n):
                return tr("ev.penalized", name=name(t), count=n)
        return None

    # -- house rules -------------------------------------------------------------------------

    def house_rules(self, event: ev.Event) -> str | None:
        tr, name = self.tr, self.name
        match event:
            case ev.MayPlayDrawn(card=c):
                return tr("ev.may_play_drawn", card=self.card(c))
            case ev.DrawStacked(seat=s, total=total):
                return tr("ev.stacked", name=name(s), count=total)
            case ev.DrawDeflected(seat=s, to=to, total=total):
                return tr("ev.deflected", name=name(s), target=name(to), count=total)
            case ev.DrawCancelled(seat=s, total=total):
                return tr("ev.draw_cancelled", name=name(s), count=total)
            case ev.JumpedIn(seat=s, reason="sequence"):
                return tr("ev.run_goes_on", name=name(s))
            case ev.JumpedIn(seat=s):
                return tr("ev.jumped_in", name=name(s))
            case ev.JumpInRefused(seat=s, card=c, penalty=points):
                return tr("ev.jump_in_refused", name=name(s), card=self.card(c), points=points)
            case ev.BuzzerOpened(waiting=waiting):
                return tr("ev.buzzer_opened", names=self.seats(waiting))
            case ev.Buzzed(seat=s, place=place):
                return tr("ev.buzzed", name=name(s), place=tr.ordinal(place))
            case ev.BuzzerClosed(losers=()):
                return tr("ev.buzzer_nobody")
            case ev.BuzzerClosed(losers=losers):  # each loser's draw follows as CardsDrawn
                return tr("ev.buzzer_lost", names=self.seats(losers))
            case ev.KnockedOut(seat=s, cards=n, penalty=points):
                return tr("ev.knocked_out", name=name(s), count=n, points=points)
        return None
