"""Pod-failure backoff: the delay curve, remaining time, backoff records and finish times.

Cases follow upstream's backoff_utils_test.go (scaled to seconds) and reference §6 and §9.
"""

from __future__ import annotations

import pytest
from builders import T0, pod
from hypothesis import given
from hypothesis import strategies as st

from k8sjobs.controller.job.backoff_utils import (
    DEFAULT_JOB_POD_FAILURE_BACKOFF,
    MAX_JOB_POD_FAILURE_BACKOFF,
    BackoffRecord,
    BackoffStore,
    backoff_delay,
    get_remaining_time,
    get_remaining_time_per_index,
)
from k8sjobs.controller.pod_util import get_finished_time


def test_the_defaults_are_ten_seconds_and_ten_minutes():
    assert (DEFAULT_JOB_POD_FAILURE_BACKOFF, MAX_JOB_POD_FAILURE_BACKOFF) == (10.0, 600.0)


@pytest.mark.parametrize(("failures", "delay"), [
    pytest.param(0, 0, id="no failure means no delay"),
    pytest.param(1, 10, id="the first failure waits 10 s"),
    pytest.param(2, 20, id="the second failure waits 20 s"),
    pytest.param(6, 320, id="the sixth failure waits 320 s"),
    pytest.param(7, 600, id="the seventh failure hits the 10 minute cap"),
    pytest.param(50, 600, id="the cap holds for any number of failures"),
])
def test_backoff_delay_curve(failures, delay):
    assert backoff_delay(failures) == delay


REMAINING = [
    pytest.param(BackoffRecord("k", 0, None), T0, 5, 700, 0, id="no failures leave no delay"),
    pytest.param(BackoffRecord("k", 1, T0), T0, 5, 700, 5, id="right after one failure the whole base delay remains"),
    pytest.param(BackoffRecord("k", 1, T0), T0 + 1, 5, 700, 4, id="elapsed time is subtracted"),
    pytest.param(BackoffRecord("k", 1, T0), T0 + 5, 5, 700, 0, id="exactly at expiry nothing remains"),
    pytest.param(BackoffRecord("k", 1, T0), T0 + 6, 5, 700, 0, id="after expiry nothing remains"),
    pytest.param(BackoffRecord("k", 3, T0), T0, 5, 700, 20, id="three failures double twice"),
    pytest.param(BackoffRecord("k", 8, T0), T0, 5, 700, 640, id="doubling below the cap is not capped"),
    pytest.param(BackoffRecord("k", 9, T0), T0, 5, 700, 700, id="doubling past the cap is capped"),
    pytest.param(BackoffRecord("k", 2, None), T0, 10, 600, 0, id="a failure at the zero time is long past"),
]


@pytest.mark.parametrize(("record", "now", "base", "cap", "remaining"), REMAINING)
def test_get_remaining_time(record, now, base, cap, remaining):
    assert get_remaining_time(record, now, base, cap) == remaining
    assert record.remaining_time(now, base, cap) == remaining


def _finished(*times):
    return [pod(f"p{i}").failed().finished_at(t).build() for i, t in enumerate(times)]


RECORDS = [
    pytest.param(None, [], [T0], (1, T0), id="one new failure starts the count"),
    pytest.param(None, [], [T0, T0 - 1], (2, T0), id="two failures of one sync count twice"),
    pytest.param(None, [T0], [T0 - 2, T0 - 1], (0, None), id="failures before a success are not counted"),
    pytest.param(None, [T0 - 2], [T0, T0 - 4, T0 - 3, T0 - 1], (2, T0),
                 id="only failures after the latest success count"),
    pytest.param((2, None), [], [T0], (3, T0), id="new failures add to the stored count"),
    pytest.param(None, [T0], [T0], (0, None), id="a failure at the same time as a success is not counted"),
    pytest.param(None, [], [], (0, None), id="no new pods leave an empty record"),
    pytest.param((3, T0 - 25), [], [], (3, T0 - 25), id="no new pods keep the stored record"),
    pytest.param((6, T0 - 50), [T0 - 10], [], (0, None), id="a success resets a large stored count"),
    pytest.param((6, T0 - 50), [T0 - 20], [T0 - 5], (1, T0 - 5), id="a success discards the stored count"),
]


@pytest.mark.parametrize(("stored", "succeeded", "failed", "expected"), RECORDS)
def test_new_backoff_record(stored, succeeded, failed, expected):
    store = BackoffStore()
    if stored is not None:
        store.update_backoff_record(BackoffRecord("key", *stored))
    record = store.new_backoff_record("key", _finished(*succeeded), _finished(*failed))
    assert (record.key, record.failures_after_last_success, record.last_failure_time) == ("key", *expected)


def test_new_backoff_record_does_not_store_the_record():
    store = BackoffStore()
    store.new_backoff_record("key", [], _finished(T0))
    assert store.get("key") is None


def test_the_store_updates_and_removes_records():
    store = BackoffStore()
    store.update_backoff_record(BackoffRecord("a", 1, T0))
    store.update_backoff_record(BackoffRecord("a", 2, T0 + 1))
    store.update_backoff_record(BackoffRecord("b", 1, T0))
    assert store.get("a") == BackoffRecord("a", 2, T0 + 1)
    store.remove_backoff_record("b")
    store.remove_backoff_record("missing")
    assert store.keys() == ["a"]


FINISH_TIMES = [
    pytest.param(pod().failed().finished_at(T0 - 1).finished_at(T0).finished_at(T0 - 2), T0,
                 id="the latest finish time of all terminated containers is taken"),
    pytest.param(pod().failed().finished_at(T0 - 1).container("r", running=True).deleting(T0), T0,
                 id="a running container makes the deletion timestamp the finish time"),
    pytest.param(pod().container("r", running=True).deleting(T0, grace=30), T0 - 30,
                 id="the grace period is subtracted from the deletion timestamp"),
    pytest.param(pod().container("c", exit_code=1).not_ready(T0), T0,
                 id="a Ready=False transition is used when containers have no finish time"),
    pytest.param(pod().container("c", exit_code=1).ready(T0 - 30).deleting(T0), T0,
                 id="a Ready=True condition is not a finish time"),
    pytest.param(pod().container("r", running=True).not_ready(T0 - 40).deleting(T0 - 10, grace=30), T0 - 40,
                 id="a Ready=False transition wins over the deletion timestamp"),
    pytest.param(pod().container("c", exit_code=1).not_ready(None).created(T0 - 7), T0 - 7,
                 id="a Ready=False condition without a time is skipped"),
    pytest.param(pod().container("c", exit_code=1).created(T0), T0, id="the creation time is the last resort"),
    pytest.param(pod().container("c", exit_code=1).created(None), None,
                 id="without any time the finish time is the zero time"),
    pytest.param(pod().created(T0 - 3), T0 - 3, id="a pod without container statuses falls back too"),
    pytest.param(pod().finished_at(T0 - 1).container("side", exit_code=0, finished_at=T0, sidecar=True), T0,
                 id="a sidecar that finished last sets the finish time"),
    pytest.param(pod().finished_at(T0 - 1).container("side", running=True, sidecar=True).created(T0 - 9), T0 - 9,
                 id="a running sidecar means the containers have not all finished"),
    pytest.param(pod().finished_at(T0 - 10).container("init", exit_code=0, finished_at=T0, init=True), T0 - 10,
                 id="ordinary init containers are ignored"),
    pytest.param(pod().container("r", running=True).container("side", exit_code=1, finished_at=T0 - 4, sidecar=True),
                 T0 - 4, id="like upstream, terminated sidecars give a time even while a regular container runs"),
]


@pytest.mark.parametrize(("builder", "finished"), FINISH_TIMES)
def test_get_finished_time(builder, finished):
    assert get_finished_time(builder.build()) == finished


PER_INDEX = [
    pytest.param(None, T0, 5, 700, 0, id="an index without a failed pod has no delay"),
    pytest.param(pod().failed().failure_count(2).deleting(T0), T0, 5, 700, 20,
                 id="two earlier failures plus this one wait 20 s with a 5 s base"),
    pytest.param(pod().failed().failure_count(1).ignored_failure_count(1).deleting(T0), T0, 5, 700, 20,
                 id="ignored failures count toward the per-index delay"),
    pytest.param(pod().failed().failure_count(0).finished_at(T0), T0, 10, 600, 10,
                 id="the first failure of an index waits 10 s"),
    pytest.param(pod().failed().failure_count(0).finished_at(T0 - 4), T0, 10, 600, 6,
                 id="time since the pod finished is subtracted"),
    pytest.param(pod().failed().failure_count(9).finished_at(T0), T0, 10, 600, 600,
                 id="the per-index delay is capped too"),
    pytest.param(pod().failed().failure_count("bad").finished_at(T0), T0, 10, 600, 10,
                 id="a bad annotation reads as no earlier failure"),
]


@pytest.mark.parametrize(("builder", "now", "base", "cap", "remaining"), PER_INDEX)
def test_get_remaining_time_per_index(builder, now, base, cap, remaining):
    failed_pod = None if builder is None else builder.build()
    assert get_remaining_time_per_index(now, base, cap, failed_pod) == remaining


@given(st.integers(1, 40), st.floats(0, 2000, allow_nan=False))
def test_remaining_time_is_the_delay_minus_elapsed_never_negative(failures, elapsed):
    remaining = get_remaining_time(BackoffRecord("k", failures, T0), T0 + elapsed)
    assert remaining == pytest.approx(max(backoff_delay(failures) - elapsed, 0.0), abs=1e-9)
    assert 0 <= remaining <= MAX_JOB_POD_FAILURE_BACKOFF
