"""The public seed reveals (SPEC.md 11.3): every player sees which seeds went into the deck.

Before the deal the host publishes each player seed that opened its commitment and the seats that
count as absent. A seed dropped by the host is then visible to every player (as `absent_seeds`),
and a violation for the player whose seed it was; the audit must repeat exactly these seeds.
"""

from __future__ import annotations

from protocol.trust.checked_round import CheckedRound
from protocol.trust.messages import RoundAudit, SeedReveals
from protocol.trust.primitives import same_digest, seed_commitment
from protocol.trust.results import Violation, ViolationKind


def _violation(detail: str) -> Violation:
    return Violation(ViolationKind.SEED_REVEALS, detail)


def reveals_violations(rnd: CheckedRound, msg: SeedReveals, seat: int | None) -> list[Violation]:
    """What is wrong with a round's seed_reveals, judged against its seed_commits."""
    if rnd.seed_commits is None:
        return [_violation("the seeds were published before the seed commitments")]
    committed = dict(rnd.seed_commits.commits)
    seeds = dict(msg.seeds)
    seats = [s for s, _ in msg.seeds]
    found: list[Violation] = []
    if seats != sorted(set(seats)) or list(msg.absent) != sorted(set(msg.absent)):
        found.append(_violation("the seed reveals must list each seat once, ascending"))
    both = set(seeds) & set(msg.absent)
    if both:
        found.append(_violation(f"seat {min(both)} is given a seed and marked absent"))
    named = set(seeds) | set(msg.absent)
    if named != set(committed):
        odd = sorted(named ^ set(committed))
        found.append(
            _violation(
                f"the seed reveals name seats {sorted(named)}, but seats {sorted(committed)} "
                f"committed seeds (seat {odd[0]} differs)"
            )
        )
    for player, seed in sorted(seeds.items()):
        commit = committed.get(player)
        opened = seed_commitment(rnd.game_id, rnd.round_no, player, seed)
        if commit is not None and not same_digest(opened, commit):
            who = "your" if player == seat else f"seat {player}'s"
            found.append(_violation(f"{who} published seed does not open {who} commitment"))
    found += _own_seed(rnd, msg, seat)
    return found


def _own_seed(rnd: CheckedRound, msg: SeedReveals, seat: int | None) -> list[Violation]:
    """This player's seed, revealed to the host, must be published as it was sent."""
    if seat is None or not rnd.own_revealed or rnd.own_seed is None:
        return []
    published = dict(msg.seeds).get(seat)
    if published is None:
        return [
            _violation(
                "your seed is marked absent (or left out), but you revealed it: the deck was "
                "made without your contribution"
            )
        ]
    if not same_digest(published, rnd.own_seed):
        return [_violation("the host published a seed for your seat other than yours")]
    return []


def audit_against_reveals(rnd: CheckedRound, audit: RoundAudit) -> list[Violation]:
    """The audit must give exactly the seeds and absences the seed_reveals published."""
    published = rnd.seed_reveals
    if published is None:
        return []
    if sorted(audit.seeds) == sorted(published.seeds) and sorted(audit.absent) == sorted(
        published.absent
    ):
        return []
    return [
        _violation(
            f"the audit of round {rnd.round_no} gives other seeds or absences than the seed "
            f"reveals published before the deal"
        )
    ]
