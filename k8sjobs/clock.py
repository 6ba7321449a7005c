"""Simulated time: the only source of time in k8sjobs.

Every component that needs "now" (the controller, its work queue, the expectations
expiry, backoff, the kubelet, the simulation) receives the same :class:`FakeClock`.
Times are floats in seconds since the start of a scenario; nothing here reads the
wall clock, so the same scenario and seed always give the same trace.
"""

from __future__ import annotations

from typing import Protocol


class Clock(Protocol):
    """What a component may ask of time: the current instant, in seconds."""

    def now(self) -> float:
        """Return the current simulated time in seconds."""
        ...


class FakeClock:
    """A clock that moves only when told to (mirrors k8s.io/utils/clock/testing.FakeClock)."""

    __slots__ = ("_now",)

    def __init__(self, start: float = 0.0) -> None:
        self._now = float(start)

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
        return f"FakeClock(t={self._now:g})"
