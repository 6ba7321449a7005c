"""The rate limiters of the controllers' queues (client-go util/workqueue)."""

from __future__ import annotations

import pytest

from k8sjobs.clock import FakeClock
from k8sjobs.controller.workqueue import BucketRateLimiter, default_controller_rate_limiter


def test_the_default_controller_limiter_doubles_from_5_ms_and_caps_at_1000_s_per_key() -> None:
    limiter = default_controller_rate_limiter(FakeClock())
    delays = [limiter.when("ns/a") for _ in range(20)]
    assert delays[:4] == pytest.approx([0.005, 0.01, 0.02, 0.04])
    assert delays[-1] == 1000.0
    assert limiter.when("ns/b") == pytest.approx(0.005)  # per key
    limiter.forget("ns/a")
    assert limiter.when("ns/a") == pytest.approx(0.005)


def test_the_bucket_lets_100_requeues_through_then_10_a_second() -> None:
    clock = FakeClock()
    bucket = BucketRateLimiter(clock)
    assert [bucket.when(f"k{i}") for i in range(100)] == [0.0] * 100
    assert bucket.when("k100") == pytest.approx(0.1)
    assert bucket.when("k101") == pytest.approx(0.2)
    clock.step(10.0)
    assert bucket.when("k102") == 0.0
