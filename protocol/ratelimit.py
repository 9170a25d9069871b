"""A token bucket, pure: the caller passes the time, so tests need no clock.

The host charges each frame a client sends by its work (`frame_cost`: one token, plus one per
RATE_TOKEN_BYTES of payload), before decoding it. The bucket holds `burst` tokens and refills
at `rate` per second; a frame that finds too few is over the limit (SPEC.md 13). Chat lines
have a bucket of their own (CHAT_PER_SECOND, CHAT_BURST).
"""

from __future__ import annotations

from protocol.limits import RATE_BURST, RATE_PER_SECOND, RATE_TOKEN_BYTES


def frame_cost(size: int, token_bytes: int = RATE_TOKEN_BYTES) -> int:
    """Tokens a frame of `size` payload bytes costs: 1, plus 1 per full `token_bytes`. Small
    frames cost 1, as when the bucket counted frames; decode work grows with the bytes."""
    return 1 + size // token_bytes


class TokenBucket:
    def __init__(
        self, now: float, *, rate: float = RATE_PER_SECOND, burst: int = RATE_BURST
    ) -> None:
        if rate <= 0 or burst < 1:
            raise ValueError("rate must be positive and burst at least 1")
        self.rate = rate
        self.burst = burst
        self._tokens = float(burst)
        self._updated = now

    def take(self, now: float, cost: float = 1.0) -> bool:
        """Spend `cost` tokens if there are enough; False (and nothing spent) if not.
        A clock that goes backwards is treated as standing still."""
        if now > self._updated:
            self._tokens = min(self.burst, self._tokens + (now - self._updated) * self.rate)
            self._updated = now
        if self._tokens >= cost:
            self._tokens -= cost
            return True
        return False

    @property
    def tokens(self) -> float:
        """Tokens left at the last update."""
        return self._tokens
