"""The token bucket that meters a connection's commands and a session's chat lines.

>>> bucket = TokenBucket(size=2, per_second=1.0, now=0.0)
>>> [bucket.take(0.0), bucket.take(0.0), bucket.take(0.0), bucket.take(0.5), bucket.take(1.0)]
[True, True, False, False, True]
>>> bucket.charge(2); bucket.take(3.5), bucket.take(4.0)  # 2 tokens owed, then 3 s to refill
(False, True)
"""

from __future__ import annotations


class TokenBucket:
    """``size`` tokens, refilled at ``per_second``; each command (or chat line) takes one."""

    __slots__ = ("per_second", "size", "stamp", "tokens")

    def __init__(self, size: float, per_second: float, now: float) -> None:
        self.size = float(size)
        self.per_second = per_second
        self.tokens = float(size)
        self.stamp = now

    def take(self, now: float) -> bool:
        """Take a token at time ``now``; ``False`` (and nothing taken) if the bucket is empty."""
        self.tokens = min(self.size, self.tokens + (now - self.stamp) * self.per_second)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def charge(self, tokens: int) -> None:
        """Take ``tokens`` more for something costlier than one command; the bucket may go below zero,
        and what comes after waits until it has refilled."""
        self.tokens -= tokens
