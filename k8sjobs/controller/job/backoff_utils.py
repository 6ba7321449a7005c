"""Pod-failure backoff: how long the controller waits before replacing failed pods.

Mirrors pkg/controller/job/backoff_utils.go (Kubernetes 1.35, current master line, the
sidecar-aware version) and the two constants of job_controller.go. Time is simulated: every
function takes ``now`` (seconds) instead of reading a clock, and ``None`` stands for Go's zero
time, which is earlier than every real instant.

The delay after ``n`` consecutive failures is ``10 s * 2**(n-1)``, doubling stopped at 10 min:
10, 20, 40, 80, 160, 320, 600, 600, ... seconds, counted from the latest failure. A success
resets the count; failures that finished before the latest success do not count.

``getFinishedTime`` and its lookups are in :mod:`k8sjobs.controller.pod_util`, the leaf of pod
facts, because indexed_job_utils.go calls it too while this module calls indexed_job_utils.go's
``getIndexAbsoluteFailureCount``: in Python that pair would be a circle of imports.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from k8sjobs.api.types import Pod
from k8sjobs.controller.job.indexed_job_utils import get_index_absolute_failure_count
from k8sjobs.controller.pod_util import get_finished_time

DEFAULT_JOB_POD_FAILURE_BACKOFF = 10.0
"""Seconds; DefaultJobPodFailureBackOff in job_controller.go: the delay after the first failure."""

MAX_JOB_POD_FAILURE_BACKOFF = 600.0
"""Seconds; MaxJobPodFailureBackOff in job_controller.go (the docs' "six minutes" is the pre-1.27 cap)."""

_ZERO_TIME = float("-inf")


def _instant(t: float | None) -> float:
    # Go's zero time is before every real time.
    return _ZERO_TIME if t is None else t


# --------------------------------------------------------------------------------------
# The delay curve
# --------------------------------------------------------------------------------------


def _doubled_delay(default_backoff: float, max_backoff: float, failures: int) -> float:
    # The loop of getRemainingTimeForFailuresCount: double once per failure after the
    # first, and stop as soon as the cap is reached.
    delay = default_backoff
    for _ in range(1, failures):
        delay *= 2
        if delay >= max_backoff:
            return max_backoff
    return delay


def backoff_delay(
    failures: int,
    default_backoff: float = DEFAULT_JOB_POD_FAILURE_BACKOFF,
    max_backoff: float = MAX_JOB_POD_FAILURE_BACKOFF,
) -> float:
    """The full delay after ``failures`` consecutive failures: ``default * 2**(failures-1)``, capped.

    0 for no failures. Doubling stops as soon as the cap is reached, like the loop in
    ``getRemainingTimeForFailuresCount``: 10, 20, 40, 80, 160, 320, 600, 600, ... seconds.
    """
    if failures <= 0:
        return 0.0
    return _doubled_delay(default_backoff, max_backoff, failures)


def get_remaining_time_for_failures_count(
    now: float,
    default_backoff: float,
    max_backoff: float,
    failures_count: int,
    last_failure_time: float | None,
) -> float:
    """Seconds left before a replacement pod may be created; 0 when none.

    Mirrors ``getRemainingTimeForFailuresCount``: the delay minus the time elapsed since the
    last failure, 0 once it has passed (exactly at expiry too). A failure at the zero time
    (None) is infinitely long ago.
    """
    if failures_count == 0:
        return 0.0
    delay = _doubled_delay(default_backoff, max_backoff, failures_count)
    elapsed = now - _instant(last_failure_time)
    if delay < elapsed:
        return 0.0
    return delay - elapsed


# --------------------------------------------------------------------------------------
# Backoff records and their store
# --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BackoffRecord:
    """Consecutive pod failures of one Job since its last success; mirrors ``backoffRecord``."""

    key: str
    failures_after_last_success: int = 0
    last_failure_time: float | None = None

    def remaining_time(
        self,
        now: float,
        default_backoff: float = DEFAULT_JOB_POD_FAILURE_BACKOFF,
        max_backoff: float = MAX_JOB_POD_FAILURE_BACKOFF,
    ) -> float:
        """Seconds left before a replacement pod may be created; see :func:`get_remaining_time`."""
        return get_remaining_time(self, now, default_backoff, max_backoff)


def get_remaining_time(
    record: BackoffRecord,
    now: float,
    default_backoff: float = DEFAULT_JOB_POD_FAILURE_BACKOFF,
    max_backoff: float = MAX_JOB_POD_FAILURE_BACKOFF,
) -> float:
    """Seconds left of the Job-wide backoff; mirrors ``backoffRecord.getRemainingTime``."""
    return get_remaining_time_for_failures_count(
        now, default_backoff, max_backoff, record.failures_after_last_success, record.last_failure_time
    )


def get_remaining_time_per_index(
    now: float,
    default_backoff: float,
    max_backoff: float,
    last_failed_pod: Pod | None,
) -> float:
    """Seconds left before an index may get a new pod (backoffLimitPerIndex).

    Mirrors ``getRemainingTimePerIndex``: the failures of the index are the counted and
    ignored failure-count annotations of its last failed pod plus that pod's own failure,
    counted from that pod's finish time. 0 when the index has no failed pod.
    """
    if last_failed_pod is None:
        return 0.0
    failures = get_index_absolute_failure_count(last_failed_pod) + 1
    return get_remaining_time_for_failures_count(
        now, default_backoff, max_backoff, failures, get_finished_time(last_failed_pod)
    )


def _sorted_by_finished_time(pods: Iterable[Pod]) -> list[float]:
    return sorted(_instant(get_finished_time(p)) for p in pods)


class BackoffStore:
    """The controller's in-memory backoff records, keyed by Job key; mirrors ``backoffStore``.

    A plain dict: deterministic, and copies in and out by immutability.
    """

    __slots__ = ("_records",)

    def __init__(self) -> None:
        self._records: dict[str, BackoffRecord] = {}

    def get(self, key: str) -> BackoffRecord | None:
        """The stored record of ``key``, if any."""
        return self._records.get(key)

    def update_backoff_record(self, record: BackoffRecord) -> None:
        """Store ``record`` (replacing the one with the same key); mirrors ``updateBackoffRecord``."""
        self._records[record.key] = record

    def remove_backoff_record(self, key: str) -> None:
        """Forget ``key``'s record, if any; mirrors ``removeBackoffRecord``."""
        self._records.pop(key, None)

    def keys(self) -> list[str]:
        """The keys with a record, sorted."""
        return sorted(self._records)

    def new_backoff_record(
        self, key: str, new_succeeded_pods: Sequence[Pod], new_failed_pods: Sequence[Pod]
    ) -> BackoffRecord:
        """The record after this sync's newly finished pods; mirrors ``newBackoffRecord``.

        Does not store it (the controller stores it after a successful status write).

        * No new pods: the stored record (or an empty one).
        * Only failures: stored count + number of new failures; last failure = the latest one.
        * Some success: the stored record is discarded; only failures that finished strictly
          after the latest success count, and the last failure time is the latest of those.

        Every new failure counts, also two pods failing together and pods whose failure a
        podFailurePolicy rule ignores.
        """
        stored = self._records.get(key)
        record = BackoffRecord(key) if stored is None else stored  # frozen: the stored record itself
        if not new_succeeded_pods and not new_failed_pods:
            return record  # (most syncs see no newly finished pod)
        succeeded = _sorted_by_finished_time(new_succeeded_pods)
        failed = _sorted_by_finished_time(new_failed_pods)
        if not succeeded:
            if not failed:
                return record
            return BackoffRecord(key, record.failures_after_last_success + len(failed), _real(failed[-1]))
        last_success = succeeded[-1]
        after = [t for t in failed if t > last_success]
        if not after:
            return BackoffRecord(key, 0, None)
        return BackoffRecord(key, len(after), _real(after[-1]))


def _real(t: float) -> float | None:
    return None if t == _ZERO_TIME else t
