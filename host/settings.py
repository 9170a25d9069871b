"""The host's timings, in seconds; each says why it is what it is. Tests pass shorter ones."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TableTimings:
    grace: float = 30.0
    """How long a dropped player's seat waits before a bot plays its turns: long enough for a
    Wi-Fi hiccup or a client restart, short enough that the table is not held hostage."""

    challenge_decision: float = 20.0
    """Time to decide whether to challenge a Wild Draw Four when the rules set no think_time:
    the game cannot wait forever on one seat; expiry accepts the +4 (RULES.md 1.6 default)."""

    seed_phase: float = 10.0
    """Each of the seed commit and reveal phases (crypto-protocol.md E3: 10-15 s); an absent
    seed counts as zeros, which cannot bias the deck."""

    bot_delay: float = 0.8
    """An in-process bot's think time: humans can follow what it does."""

    round_break: float = 4.0
    """Pause between rounds, so players read the scores before the next deal."""

    match_break: float = 15.0
    """Pause before a headless table starts its next match."""


FAST_TIMINGS = TableTimings(grace=5.0, challenge_decision=5.0, seed_phase=2.0, bot_delay=0.0,
                            round_break=0.0, match_break=0.0)
"""For tests and benchmarks: the game never waits on purpose."""
