"""Simulated time: the only source of time in k8sjobs.

Every component that needs "now" (the controller, its work queue, the expectations
expiry, backoff, the kubelet, the simulation) receives the same :class:`FakeClock`.
Times are floats in seconds since the start of a scenario; nothing here reads the
wall clock, so the same scenario and seed always give the same trace.
"""

from __future__ import annotations

import copy
import heapq
import types
from collections.abc import Callable
from functools import partial
from typing import Any, Protocol


def copy_callback(fn: Any, memo: dict[int, Any]) -> Any:
    """``fn`` bound to the copies made by one ``copy.deepcopy`` (its ``memo``): how a snapshot of a
    simulation keeps every scheduled callback and event handler pointing at the copied objects.

    A bound method is rebound to the copy of its object; a ``functools.partial`` keeps its
    arguments (copied with the same memo, so a shared list stays shared); a plain function
    without a closure is kept. A closure (a lambda capturing objects) cannot be rebound: it
    raises ``TypeError`` naming it, so such a callback fails loudly instead of silently driving
    the original simulation from its copy.
    """
    if fn is None:
        return None
    kind = type(fn)
    if kind is types.MethodType:
        return types.MethodType(fn.__func__, copy.deepcopy(fn.__self__, memo))
    if kind is partial:
        return partial(copy_callback(fn.func, memo), *copy.deepcopy(fn.args, memo), **fn.keywords)
    if kind is types.FunctionType and fn.__closure__ is None:
        return fn
    if kind is types.BuiltinFunctionType and isinstance(getattr(fn, "__self__", None), (types.ModuleType, type(None))):
        return fn
    raise TypeError(f"cannot copy the callback {fn!r}: a closure keeps its captured objects; schedule a bound "
                    "method or a functools.partial of one instead")


class Clock(Protocol):
    """What a component may ask of time: the current instant, in seconds, and where 0 is on the wall clock."""

    origin: float
    """Where simulated time 0 is on the wall clock, in seconds after 2026-01-01T00:00:00Z (the model's
    epoch, :data:`k8sjobs.api.serialize.EPOCH`): the instant ``t`` is ``EPOCH + origin + t``. Only what
    needs the calendar reads it (the CronJob controller's schedules and Job names); durations never do."""

    def now(self) -> float:
        """Return the current simulated time in seconds."""
        ...


class FakeClock:
    """A clock that moves only when told to (mirrors k8s.io/utils/clock/testing.FakeClock).

    ``origin`` is where its 0 is on the wall clock (see :attr:`Clock.origin`; 0: the model's epoch,
    2026-01-01T00:00:00Z). Upstream's fake clock holds an absolute ``time.Time``; ours holds seconds
    since ``origin``, and the calendar is ``origin`` away.
    """

    __slots__ = ("_now", "origin")

    def __init__(self, start: float = 0.0, origin: float = 0.0) -> None:
        self._now = float(start)
        self.origin = float(origin)

    def now(self) -> float:
        """Return the current simulated time in seconds."""
        return self._now

    def since(self, t: float) -> float:
        """Seconds elapsed from ``t`` until now (negative when ``t`` is in the future)."""
        return self._now - t

    def step(self, dt: float) -> None:
        """Move time forward by ``dt`` seconds; time never goes backwards."""
        if dt < 0:
            raise ValueError(f"clock: cannot step by a negative duration {dt}")
        self._now += dt

    def set(self, t: float) -> None:
        """Jump to the absolute time ``t``; it may not be earlier than now."""
        if t < self._now:
            raise ValueError(f"clock: cannot go back from t={self._now} to t={t}")
        self._now = float(t)

    def __repr__(self) -> str:
        return f"FakeClock(t={self._now:g})" if not self.origin else f"FakeClock(t={self._now:g}, origin={self.origin:g})"


class Scheduler(Protocol):
    """Something that runs callbacks at simulated times (implemented by :class:`EventHeap`)."""

    def call_at(self, t: float, fn: Callable[[], None], *, priority: int = 0, label: str = "") -> None:
        """Run ``fn`` when simulated time reaches ``t``."""
        ...

    def now(self) -> float:
        """The current simulated time."""
        ...


class EventHeap:
    """The one event heap of a simulation: callbacks keyed ``(time, priority, seq)``.

    ``seq`` comes from a per-instance counter, so two callbacks due at the same time
    and priority run in the order they were scheduled, and two heaps never share state.
    Running an event moves the clock to its time.
    """

    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self._queue: list[tuple[float, int, int, str, Callable[[], None]]] = []
        self._seq = 0

    def __deepcopy__(self, memo: dict[int, Any]) -> EventHeap:
        new = EventHeap.__new__(EventHeap)
        memo[id(self)] = new
        new.clock = copy.deepcopy(self.clock, memo)
        new._seq = self._seq
        # Entries stay in heap order; only their callbacks are rebound to the copies.
        new._queue = [(t, prio, seq, label, copy_callback(fn, memo)) for t, prio, seq, label, fn in self._queue]
        return new

    def now(self) -> float:
        """The current simulated time."""
        return self.clock.now()

    def call_at(self, t: float, fn: Callable[[], None], *, priority: int = 0, label: str = "") -> None:
        """Schedule ``fn`` at time ``t`` (never earlier than now)."""
        now = self.clock._now
        if t < now:  # max(t, now), without two calls: this runs for every event of a run
            t = now
        seq = self._seq
        self._seq = seq + 1
        heapq.heappush(self._queue, (t, priority, seq, label, fn))

    def call_later(self, delay: float, fn: Callable[[], None], *, priority: int = 0, label: str = "") -> None:
        """Schedule ``fn`` ``delay`` seconds from now."""
        self.call_at(self.clock.now() + max(delay, 0.0), fn, priority=priority, label=label)

    def peek_time(self) -> float | None:
        """Time of the next event, or None when the heap is empty."""
        return self._queue[0][0] if self._queue else None

    def __len__(self) -> int:
        return len(self._queue)

    def run_next(self) -> str | None:
        """Advance the clock to the next event and run it; returns its label (None if empty)."""
        if not self._queue:
            return None
        t, _prio, _seq, label, fn = heapq.heappop(self._queue)
        # FakeClock.set inlined (one call less per event): call_at never queues a time before now.
        clock = self.clock
        if t < clock._now:
            raise ValueError(f"clock: cannot go back from t={clock._now} to t={t}")
        clock._now = float(t)
        fn()
        return label

    def run_until(self, t: float) -> int:
        """Run every event due at or before ``t``, then set the clock to ``t``; returns how many ran."""
        n = 0
        while self._queue and self._queue[0][0] <= t:
            self.run_next()
            n += 1
        if t > self.clock.now():
            self.clock.set(t)
        return n

    def run_due(self) -> int:
        """Run the events due now (including ones they schedule for now)."""
        return self.run_until(self.clock.now())
