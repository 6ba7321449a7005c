"""A rate-limited, delaying work queue on simulated time (mirrors client-go's workqueue).

Semantics kept from client-go: a key is queued at most once ("dirty" set); a key
re-added while it is being processed is queued again when processing is done;
``add_after`` keeps the earliest pending time per key; ``add_rate_limited`` waits what the
queue's rate limiter says until ``forget``: ``base * 2^failures`` (1 s doubling to 1 min for the
Job controller), or client-go's default controller limiter (5 ms doubling to 1000 s per key, and
a token bucket of 10 a second with a burst of 100 over all keys) for the CronJob and
ttl-after-finished controllers.
"""

from __future__ import annotations

import copy
from collections import deque
from collections.abc import Callable
from functools import partial
from typing import Any

from ..clock import Clock, Scheduler, copy_callback

DEFAULT_JOB_API_BACKOFF = 1.0
MAX_JOB_API_BACKOFF = 60.0
DEFAULT_CONTROLLER_BASE_DELAY = 0.005
DEFAULT_CONTROLLER_MAX_DELAY = 1000.0
DEFAULT_CONTROLLER_QPS = 10.0
DEFAULT_CONTROLLER_BURST = 100
PRIORITY_QUEUE = 15
"""Heap priority of delayed adds: after informer deliveries, before worker runs."""


class ItemExponentialFailureRateLimiter:
    """base * 2^failures per key, capped (mirrors ItemExponentialFailureRateLimiter)."""

    def __init__(self, base: float = DEFAULT_JOB_API_BACKOFF, maximum: float = MAX_JOB_API_BACKOFF) -> None:
        self.base = base
        self.maximum = maximum
        self._failures: dict[str, int] = {}

    def when(self, key: str) -> float:
        """The delay for this failure of ``key``, counting it."""
        n = self._failures.get(key, 0)
        self._failures[key] = n + 1
        if n > 62:  # as upstream: past 2^62 the delay is the maximum (a float could not hold 2^n for long)
            return self.maximum
        return min(self.base * (2**n), self.maximum)

    def num_requeues(self, key: str) -> int:
        """How many failures are counted for ``key``."""
        return self._failures.get(key, 0)

    def forget(self, key: str) -> None:
        """Reset ``key`` after a success."""
        self._failures.pop(key, None)


class BucketRateLimiter:
    """One token bucket for every key: ``qps`` tokens a second, at most ``burst`` saved (mirrors
    BucketRateLimiter over golang.org/x/time/rate: a reservation takes a token now and waits
    for it when the bucket is empty)."""

    def __init__(self, clock: Clock, qps: float = DEFAULT_CONTROLLER_QPS,
                 burst: int = DEFAULT_CONTROLLER_BURST) -> None:
        self.clock = clock
        self.qps = qps
        self.burst = burst
        self._tokens = float(burst)
        self._last = clock.now()

    def when(self, key: str) -> float:
        """The delay until a token is free for this requeue, taking it."""
        now = self.clock.now()
        self._tokens = min(float(self.burst), self._tokens + max(0.0, now - self._last) * self.qps) - 1.0
        self._last = now
        return 0.0 if self._tokens >= 0 else -self._tokens / self.qps

    def num_requeues(self, key: str) -> int:
        """The bucket counts no failures."""
        return 0

    def forget(self, key: str) -> None:
        """Nothing to forget: the bucket is shared."""


class MaxOfRateLimiter:
    """The longest delay of several limiters (mirrors MaxOfRateLimiter)."""

    def __init__(self, *limiters: ItemExponentialFailureRateLimiter | BucketRateLimiter) -> None:
        self.limiters = limiters

    def when(self, key: str) -> float:
        """Every limiter counts this requeue; the longest delay wins."""
        return max(limiter.when(key) for limiter in self.limiters)

    def num_requeues(self, key: str) -> int:
        """The most failures any limiter counts for ``key``."""
        return max(limiter.num_requeues(key) for limiter in self.limiters)

    def forget(self, key: str) -> None:
        """Reset ``key`` in every limiter."""
        for limiter in self.limiters:
            limiter.forget(key)


def default_controller_rate_limiter(clock: Clock) -> MaxOfRateLimiter:
    """client-go's DefaultControllerRateLimiter, which the CronJob and ttl-after-finished controllers'
    queues use: 5 ms doubling to 1000 s per key, and 10 requeues a second (burst 100) over all keys."""
    return MaxOfRateLimiter(ItemExponentialFailureRateLimiter(DEFAULT_CONTROLLER_BASE_DELAY, DEFAULT_CONTROLLER_MAX_DELAY),
                            BucketRateLimiter(clock))


class RateLimitingQueue:
    """The Job controller's queue of ``namespace/name`` keys."""

    def __init__(self, clock: Clock, scheduler: Scheduler | None = None, *,
                 rate_limiter: ItemExponentialFailureRateLimiter | MaxOfRateLimiter | None = None,
                 on_ready: Callable[[], None] | None = None) -> None:
        self.clock = clock
        self.scheduler = scheduler
        self.rate_limiter = rate_limiter or ItemExponentialFailureRateLimiter()
        self.on_ready = on_ready
        self._queue: deque[str] = deque()
        self._dirty: set[str] = set()
        self._processing: set[str] = set()
        self.waiting: dict[str, float] = {}
        """Keys scheduled for a later add, with the time they become ready."""
        self.log: list[tuple[float, str, str, float]] = []
        """(time, verb, key, delay) of every add, for traces and tests."""

    def __deepcopy__(self, memo: dict[int, Any]) -> RateLimitingQueue:
        new = RateLimitingQueue.__new__(RateLimitingQueue)
        memo[id(self)] = new
        for name, value in self.__dict__.items():
            if name == "log":
                new.log = list(value)  # of immutable tuples
            elif name == "on_ready":
                new.on_ready = copy_callback(value, memo)
            else:
                setattr(new, name, copy.deepcopy(value, memo))
        return new

    def add(self, key: str) -> None:
        """Queue ``key`` now (no-op if already queued)."""
        self.log.append((self.clock.now(), "add", key, 0.0))
        self._add(key)

    def _add(self, key: str) -> None:
        if key in self._dirty:
            return
        self._dirty.add(key)
        if key in self._processing:
            return
        self._queue.append(key)
        if self.on_ready is not None:
            self.on_ready()

    def add_after(self, key: str, delay: float) -> None:
        """Queue ``key`` after ``delay`` seconds; a non-positive delay queues it now."""
        now = self.clock.now()
        self.log.append((now, "add_after", key, delay))
        if delay <= 0:
            self._add(key)
            return
        t = now + delay
        if key in self.waiting and self.waiting[key] <= t:
            return
        self.waiting[key] = t
        if self.scheduler is not None:
            self.scheduler.call_at(t, partial(self._fire, key, t), priority=PRIORITY_QUEUE, label=f"queue:{key}")

    def _fire(self, key: str, t: float) -> None:
        if self.waiting.get(key) != t:
            return  # superseded by an earlier add_after
        del self.waiting[key]
        self._add(key)

    def add_rate_limited(self, key: str) -> float:
        """Queue ``key`` after the rate limiter's delay; returns that delay."""
        delay = self.rate_limiter.when(key)
        self.log.append((self.clock.now(), "add_rate_limited", key, delay))
        if key in self.waiting and self.waiting[key] <= self.clock.now() + delay:
            return delay
        t = self.clock.now() + delay
        self.waiting[key] = t
        if self.scheduler is not None:
            self.scheduler.call_at(t, partial(self._fire, key, t), priority=PRIORITY_QUEUE, label=f"queue:{key}")
        return delay

    def forget(self, key: str) -> None:
        """Reset the rate limiter for ``key``."""
        self.rate_limiter.forget(key)

    def num_requeues(self, key: str) -> int:
        """Failures counted for ``key``."""
        return self.rate_limiter.num_requeues(key)

    def get(self) -> str | None:
        """Take the next ready key (None if nothing is ready); call :meth:`done` after processing."""
        if not self._queue:
            return None
        key = self._queue.popleft()
        self._processing.add(key)
        self._dirty.discard(key)
        return key

    def done(self, key: str) -> None:
        """Finish processing ``key``; re-queue it if it was added meanwhile."""
        self._processing.discard(key)
        if key in self._dirty:
            self._queue.append(key)
            if self.on_ready is not None:
                self.on_ready()

    def __len__(self) -> int:
        return len(self._queue)

    def ready_keys(self) -> list[str]:
        """Keys ready to be processed, in order."""
        return list(self._queue)
