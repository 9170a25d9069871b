"""Scenario helpers for UNO Flip: stacked decks with the pairing of faces a test needs.

Cards are named by their face's English name (`Face.name`: "red 5", "blue Draw One", "Wild
Draw Two", "pink Skip Everyone"), light side first: "red 5" is a card whose light face is red 5
(its dark face whatever is left), "red 5/orange Flip" one whose dark face is also chosen. Names
are used rather than codes because purple and pink share a code letter.

`flip_deal(hands=[[...], [...]], top="red 3", draws=[...])` returns a started Flip match whose
seat i holds hands[i], first discard top (several: the first-card redraw cases) and next draws
`draws`; the deck is built so: the named cards take ids 0.. in the order named, the unnamed
light faces are paired with the unnamed dark faces in `light_faces`/`dark_faces` order, and the
deal order is the named cards, then the rest by id, then `after_flip` (the pile's bottom).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from unonet.actions import Action
from unonet.cards import Face
from unonet.events import Event, OtherSidesShown, PileOtherSideShown
from unonet.flip_deck import dark_faces, light_faces, pair_faces
from unonet.match import Match
from unonet.rules import RuleSet

SEED = b"flip-scenario"



FLIP_RULES = RuleSet(variant="flip")
"""Preset `flip`: UNO Flip with the official options."""


def flip_match(seats: int, seed: bytes, rules: RuleSet = FLIP_RULES, **setup: Any) -> Match:
    """A Flip match (`rules.variant` must be flip); `setup` is Match's: stacked_decks,
    first_dealer, deck (a pairing a scenario needs, for every round)."""
    if rules.variant != "flip":
        raise ValueError("flip_match builds UNO Flip matches only")
    return Match(rules, seats, seed, **setup)


def replay_flip_match(
    rules: RuleSet, seats: int, seed: bytes, log: Iterable[tuple[int, Action]], **setup: Any
) -> Match:
    """`Match.replay` for a Flip match."""
    return Match.replay(rules, seats, seed, log, **setup)


def _take(pool: list[Face], name: str, side: str) -> Face:
    for index, face in enumerate(pool):
        if face.name == name:
            return pool.pop(index)
    raise ValueError(f"no {side} face {name!r} left in the Flip deck")


def flip_deal(
    hands: Sequence[Sequence[str]],
    top: str | Sequence[str] = "red 5",
    draws: Sequence[str] = (),
    dealer: int = 0,
    rules: RuleSet = FLIP_RULES,
    after_flip: Sequence[str] = (),
) -> Match:
    """A started Flip match dealt as named (see the module's docstring). `after_flip` are the
    bottom cards of the draw pile: the first cards drawn after one Flip, in that order."""
    size = len(hands[0])
    if any(len(hand) != size for hand in hands):
        raise ValueError("every hand must have the same number of cards")
    tops = [top] if isinstance(top, str) else list(top)
    seats = len(hands)
    dealt = [hands[(dealer + 1 + k) % seats][k // seats] for k in range(size * seats)]
    named = [*dealt, *tops, *draws, *reversed(after_flip)]
    lights, darks = list(light_faces()), list(dark_faces())
    chosen: list[tuple[Face, str | None]] = []
    for entry in named:
        light_name, _, dark_name = entry.partition("/")
        chosen.append((_take(lights, light_name, "light"), dark_name or None))
    # Reserve the dark faces named explicitly before handing out the rest.
    explicit = [_take(darks, dark, "dark") if dark else None for _, dark in chosen]
    pairs = [(light, dark if dark is not None else darks.pop(0))
             for (light, _), dark in zip(chosen, explicit, strict=True)]
    bottom = len(after_flip)
    last = pairs[len(pairs) - bottom:] if bottom else []
    pairs = pairs[: len(pairs) - bottom] + list(zip(lights, darks, strict=True)) + last
    deck = pair_faces(pairs)
    match = flip_match(seats, SEED, rules.replace(hand_size=size), deck=deck,
                       stacked_decks=[list(range(len(deck)))], first_dealer=dealer)
    match.start_round()
    return match


# -- reading the state ---------------------------------------------------------------------------


def name(match: Match, card: int) -> str:
    """The name of the face `card` shows now."""
    assert match.round is not None
    return match.round.face(card).name


def names(match: Match, seat: int) -> list[str]:
    """The faces `seat` holds on the side in play, sorted."""
    assert match.round is not None
    return sorted(name(match, c) for c in match.round.hands[seat])


def card(match: Match, seat: int, face_name: str) -> int:
    """The id of a card showing `face_name` in `seat`'s hand."""
    assert match.round is not None
    for c in match.round.hands[seat]:
        if name(match, c) == face_name:
            return c
    raise AssertionError(f"seat {seat} holds no {face_name}: {names(match, seat)}")


def top(match: Match) -> str:
    assert match.round is not None
    return name(match, match.round.top)


def side(match: Match) -> int:
    assert match.round is not None
    return match.round.side


def play_events(events: Sequence[Event]) -> list[Event]:
    """`events` without what everyone sees of the other sides (shown again at the end of every
    step that changed a hand or the pile's top): what the play itself did."""
    return [e for e in events if not isinstance(e, OtherSidesShown | PileOtherSideShown)]
