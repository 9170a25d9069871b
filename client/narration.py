"""Engine events as sentences of the player's language, for the log.

The client's counterpart of unonet.narrate, translated: `narrate(event, tr, names, manifest,
viewer)` returns a sentence, or None for bookkeeping nobody needs to read (a turn starting, a
catch window closing) and for private events not addressed to `viewer`.
"""

from __future__ import annotations

from collections.abc import Sequence

from client.i18n import Translator
from unonet import events as ev
from unonet.cards import DeckManifest, Face, Kind

_WHY_KINDS = ("draw_two", "wild_draw_four", "draw_one", "draw_five", "draw_four",
              "wild_draw_two", "wild_draw_six", "wild_draw_ten", "wild_reverse_draw_four")


def narrate(
    event: ev.Event,
    tr: Translator,
    names: Sequence[str],
    manifest: DeckManifest,
    viewer: int | None,
) -> str | None:
    audience = event.audience
    if audience is not None and viewer not in audience:
        return None

    def name(seat: int | None) -> str:
        if seat is None or not 0 <= seat < len(names):
            return "?"
        return names[seat]

    def card(card_id: int) -> str:
        return tr.card(manifest.face(card_id))

    def cards(ids: Sequence[int]) -> str:
        return ", ".join(card(c) for c in ids)

    wd4 = tr.card(Face(Kind.WILD_DRAW_FOUR))
    match event:
        case ev.DealerDraw(attempt=attempt, draws=draws):
            drawn = ", ".join(f"{name(s)} {card(c)}" for s, c in draws)
            return tr("ev.dealer_draw_again" if attempt else "ev.dealer_draw", draws=drawn)
        case ev.RoundStarted(round_no=n, dealer=dealer):
            return tr("ev.round_started", round=n, dealer=name(dealer))
        case ev.TopCardTurned(card=c):
            return tr("ev.first_card", card=card(c))
        case ev.CardPlayed(seat=s, card=c, color=color, uno=uno):
            if color is not None:
                key = "ev.played_color_uno" if uno else "ev.played_color"
                return tr(key, name=name(s), card=card(c), color=tr.color(color))
            return tr("ev.played_uno" if uno else "ev.played", name=name(s), card=card(c))
        case ev.CardsDrawn(seat=s, positions=positions, reason=reason):
            if reason == "deal":
                return None
            count = len(positions)
            if reason in _WHY_KINDS:
                why = tr(f"kind.{reason}")
            elif reason.startswith("penalty_"):
                why = tr(f"why.{reason}")
            else:
                return tr("ev.drew", name=name(s), count=count)
            return tr("ev.drew_why", name=name(s), count=count, why=why)
        case ev.CardsReceived(cards=got):
            return tr("ev.you_got", cards=cards(got))
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
        case ev.Reshuffled(reason=reason):
            if reason == "empty_pile":
                return tr("ev.reshuffled")
            return tr("ev.reshuffled_first", card=wd4)
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
            return tr(key, challenger=name(c), target=name(t), card=wd4)
        case ev.ChallengeReveal(target=t, cards=shown):
            if not shown:
                return tr("ev.reveal_empty", target=name(t))
            return tr("ev.reveal", target=name(t), cards=cards(shown))
        case ev.Penalized(target=t, count=n):
            return tr("ev.penalized", name=name(t), count=n)
        case ev.Expired(seat=s):
            return tr("ev.expired", name=name(s))
        case ev.RoundEnded(winner=None):
            return tr("ev.round_abandoned")
        case ev.RoundEnded(winner=winner, points=points):
            return tr("ev.round_ended", name=name(winner), points=max(points, default=0))
        case ev.MatchEnded(winner=winner, scores=scores):
            return tr("ev.match_ended", name=name(winner), points=scores[winner])
        case ev.DecisionPending(seat=s, kind="challenge"):
            return tr("ev.may_challenge", name=name(s), card=wd4)
        case ev.DecisionPending(seat=s, kind="choose_color"):
            return tr("ev.names_color", name=name(s))
    return None
