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


class BucketsByKey:
    """One :class:`TokenBucket` of ``per_minute`` per key (a table, an address, a name), refilled over a
    minute, each made at its key's first use. Past ``kept`` keys, the full buckets (untouched for a
    minute or more) are dropped: they would be made again as they are.

    >>> meters = BucketsByKey(per_minute=2, kept=2)
    >>> [meters.take("a", now=0.0) for _ in range(3)], meters.take("b", now=0.0), meters.take("a", now=30.0)
    ([True, True, False], True, True)
    >>> meters.take("c", now=100.0), len(meters)  # "a" and "b" were full again: dropped
    (True, 1)
    """

    __slots__ = ("_buckets", "_kept", "_per_minute")

    def __init__(self, per_minute: int, kept: int = 4096) -> None:
        self._per_minute = per_minute
        self._kept = kept
        self._buckets: dict[str, TokenBucket] = {}

    def __len__(self) -> int:
        return len(self._buckets)

    def take(self, key: str, now: float) -> bool:
        """Whether ``key`` may act now (and count it)."""
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= self._kept:
                self._prune(now)
            bucket = self._buckets[key] = TokenBucket(self._per_minute, self._per_minute / 60, now)
        return bucket.take(now)

    def forget(self, key: str) -> None:
        self._buckets.pop(key, None)

    def _prune(self, now: float) -> None:
        for key, bucket in list(self._buckets.items()):
            if bucket.tokens + (now - bucket.stamp) * bucket.per_second >= bucket.size:
                del self._buckets[key]
