"""Events in plain English words ("Ana played Wild Draw Four, chose blue"), for logs.

`describe(event, names, manifest, viewer)` returns a sentence, or None for bookkeeping events
nobody needs to read. `viewer` is whose log it is: a private event reads differently to its
owner, and is never described to anyone else.
"""

from __future__ import annotations

from collections.abc import Sequence

from unonet import events as ev
from unonet.cards import DeckManifest


def describe(
    event: ev.Event,
    names: Sequence[str],
    manifest: DeckManifest,
    viewer: int | None = None,
) -> str | None:
    audience = event.audience
    if audience is not None and viewer not in audience:
        return None

    def name(seat: int | None) -> str:
        return "nobody" if seat is None else names[seat]

    def card(card_id: int) -> str:
        return manifest.face(card_id).name

    match event:
        case ev.DealerDraw(attempt=attempt, draws=draws):
            drawn = ", ".join(f"{name(s)} {card(c)}" for s, c in draws)
            again = " (again, among the tied)" if attempt else ""
            return f"Drawing for dealer{again}: {drawn}."
        case ev.RoundStarted(round_no=n, dealer=dealer):
            return f"Round {n}: {name(dealer)} deals."
        case ev.TopCardTurned(card=c):
            return f"The first card is {card(c)}."
        case ev.CardPlayed(seat=s, card=c, color=color, uno=uno):
            text = f"{name(s)} played {card(c)}"
            if color is not None:
                text += f", chose {color.value}"
            return text + (" and called UNO!" if uno else ".")
        case ev.CardsDrawn(seat=s, positions=positions, reason=reason):
            if reason == "deal":
                return None
            n = len(positions)
            why = _DRAW_REASONS.get(reason, "")
            return f"{name(s)} drew {n} card{'s' if n != 1 else ''}{why}."
        case ev.CardsReceived(cards=cards):
            return "You got: " + ", ".join(card(c) for c in cards) + "."
        case ev.Skipped(seat=s):
            return f"{name(s)} is skipped."
        case ev.DirectionChanged(direction=d):
            return "Play goes " + ("left." if d > 0 else "right.")
        case ev.ColorChosen(seat=s, color=color):
            return f"{name(s)} chose {color.value}."
        case ev.Passed(seat=s):
            return f"{name(s)} passed."
        case ev.CannotDraw(seat=s):
            return f"{name(s)} cannot draw: every card is in a hand."
        case ev.Reshuffled(reason=reason):
            if reason == "empty_pile":
                return "The discard pile is shuffled into a new draw pile."
            return "The Wild Draw Four goes back into the deck, which is shuffled."
        case ev.UnoCalled(seat=s):
            return f"{name(s)} called UNO!"
        case ev.UnoCaught(catcher=catcher, target=target, penalty=penalty):
            by = f" by {name(catcher)}" if catcher is not None else ""
            return f"{name(target)} was caught without calling UNO{by} and draws {penalty}."
        case ev.FalseCatch(catcher=catcher, target=target, penalty=penalty):
            return f"{name(catcher)} wrongly caught {name(target)} and draws {penalty}."
        case ev.Challenged(challenger=c, target=t, guilty=guilty):
            verdict = "was bluffing" if guilty else "played it legally"
            return f"{name(c)} challenged the Wild Draw Four: {name(t)} {verdict}."
        case ev.ChallengeReveal(target=t, cards=cards):
            shown = ", ".join(card(c) for c in cards) or "no cards"
            return f"{name(t)}'s hand was: {shown}."
        case ev.Penalized(target=t, count=n):
            return f"The table owner penalizes {name(t)}: {n} cards."
        case ev.Expired(seat=s, kind=kind):
            return f"{name(s)} ran out of time ({kind.replace('_', ' ')})."
        case ev.RoundEnded(winner=winner, points=points, scores=scores):
            gained = max(points) if points else 0
            table = ", ".join(f"{name(s)} {score}" for s, score in enumerate(scores))
            return f"{name(winner)} wins the round (+{gained} points). Scores: {table}."
        case ev.MatchEnded(winner=winner, scores=scores):
            return f"{name(winner)} wins the match with {scores[winner]} points!"
        case ev.DecisionPending(seat=s, kind="challenge"):
            return f"{name(s)} may challenge the Wild Draw Four."
        case ev.DecisionPending(seat=s, kind="choose_color"):
            return f"{name(s)} names the colour."
    return None


_DRAW_REASONS = {
    "draw": "",
    "draw_two": " (Draw Two)",
    "wild_draw_four": " (Wild Draw Four)",
    "penalty_uno": " (UNO penalty)",
    "penalty_challenge": " (challenge)",
    "penalty_moderation": " (penalty)",
}
