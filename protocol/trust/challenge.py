"""The Wild Draw Four challenge, checked: the verdict rule and the comparison of hands.

RULEBOOK.md 1.6: the play was illegal (guilty) iff the hand held a card of the colour in play; wilds
and same-number cards of other colours do not count. Faces come from the public manifest.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from protocol.trust.ledger import fmt
from protocol.trust.results import Violation, ViolationKind
from unonet.cards import Color, DeckManifest
from unonet.events import Position


def is_guilty(manifest: DeckManifest, cards: Iterable[int], color_before: Color | None) -> bool:
    """The verdict the hand `cards` implies when `color_before` was the colour in play."""
    return color_before is not None and any(
        manifest.face(card).color == color_before for card in cards if 0 <= card < len(manifest)
    )


def describe_verdict(guilty: bool) -> str:
    return "guilty" if guilty else "innocent"


def verdict_violation(
    manifest: DeckManifest,
    target: int,
    declared: bool,
    cards: Collection[int],
    color_before: Color | None,
    whose: str,
) -> Violation | None:
    """A Violation if the declared verdict is not the one the cards imply, else None."""
    expected = is_guilty(manifest, cards, color_before)
    if expected == declared:
        return None
    colour = color_before.value if color_before is not None else "no colour"
    if expected:
        matching = next(
            c for c in cards if 0 <= c < len(manifest) and manifest.face(c).color == color_before
        )
        why = f"holds {manifest.face(matching).name}, a {colour} card, and {colour} was in play"
    else:
        why = f"holds no {colour} card, and {colour} was in play"
    return Violation(
        ViolationKind.CHALLENGE_VERDICT,
        f"the host declared seat {target} {describe_verdict(declared)}, but {whose} {why}: "
        f"the verdict should be {describe_verdict(expected)}",
    )


def hand_set_violations(
    target: int, held: Collection[Position], revealed: Iterable[Position]
) -> list[Violation]:
    """Compare the revealed positions with those the public record says `target` held."""
    found: list[Violation] = []
    revealed_list = list(revealed)
    seen: set[Position] = set()
    for position in revealed_list:
        if position in seen:
            found.append(
                Violation(
                    ViolationKind.CHALLENGE_HAND,
                    f"the hand revealed at the challenge lists position {fmt(position)} twice",
                )
            )
        seen.add(position)
    for position in sorted(set(held) - seen):
        found.append(
            Violation(
                ViolationKind.CHALLENGE_HAND,
                f"the hand revealed at the challenge leaves out position {fmt(position)}, which "
                f"seat {target} held when it played the Wild Draw Four",
            )
        )
    for position in sorted(seen - set(held)):
        found.append(
            Violation(
                ViolationKind.CHALLENGE_HAND,
                f"the hand revealed at the challenge includes position {fmt(position)}, which "
                f"seat {target} did not hold when it played the Wild Draw Four",
            )
        )
    return found
