"""Completion indexes of Indexed Jobs: interval strings, pending indexes, per-index failures.

Mirrors pkg/controller/job/indexed_job_utils.go (Kubernetes 1.35, current master line):
``orderedIntervals`` and its methods, ``parseIndexesFromString``, ``calculateSucceededIndexes``,
``calculateFailedIndexes``, ``isIndexFailed``, ``firstPendingIndexes``, ``getCompletionIndex``,
``getPodsWithDelayedDeletionPerIndex``, ``appendDuplicatedIndexPodsForRemoval``, the
failure-count annotation helpers and the pod template helpers (index annotation/label,
``JOB_COMPLETION_INDEX`` env, generateName).

The controller's parser is lenient (bad parts are skipped, parsing stops at the first index
>= completions, the last range is clamped); the API server's strict check is
:func:`k8sjobs.api.indexes.validate_indexes_format`. Parsing keeps what it reads as it reads
it, exactly like upstream: a stored string that is not increasing ("3,1") stays unsorted and
prints back the same way.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import NamedTuple

from k8sjobs.api.types import (
    JOB_COMPLETION_INDEX_ANNOTATION,
    JOB_COMPLETION_INDEX_ENV,
    JOB_INDEX_FAILURE_COUNT_ANNOTATION,
    JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION,
    JOB_TRACKING_FINALIZER,
    MAX_INT32,
    CompletionMode,
    Container,
    EnvVar,
    Job,
    Phase,
    Pod,
    PodFailurePolicyAction,
    PodTemplateSpec,
)
from k8sjobs.controller.controller_utils import active_pods_sort_key
from k8sjobs.controller.job.pod_failure_policy import match_pod_failure_policy
from k8sjobs.controller.pod_util import (
    filter_active_pods,
    get_finished_time,
    is_pod_failed,
    is_pod_terminating,
)

UNKNOWN_COMPLETION_INDEX = -1
"""What :func:`get_completion_index` returns for a missing, invalid or negative index."""

MAX_GENERATED_NAME_LENGTH = 58
"""names.MaxGeneratedNameLength: 63 minus the 5 random characters the API server appends."""

_GO_INT = re.compile(r"[+-]?[0-9]+")
_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1


def _atoi(text: str) -> int | None:
    """strconv.Atoi on a 64-bit platform: optional sign, ASCII digits, int64 range; else None."""
    if not _GO_INT.fullmatch(text):
        return None
    value = int(text)
    return value if _INT64_MIN <= value <= _INT64_MAX else None


# --------------------------------------------------------------------------------------
# Job helpers
# --------------------------------------------------------------------------------------


def is_indexed_job(job: Job) -> bool:
    """completionMode is Indexed; mirrors ``isIndexedJob``."""
    return job.spec.completion_mode == CompletionMode.INDEXED


def has_backoff_limit_per_index(job: Job) -> bool:
    """spec.backoffLimitPerIndex is set; mirrors ``hasBackoffLimitPerIndex`` (the gate is GA)."""
    return job.spec.backoff_limit_per_index is not None


def completion_mode_str(job: Job) -> str:
    """spec.completionMode, NonIndexed when unset; mirrors ``completionModeStr``."""
    return job.spec.completion_mode or CompletionMode.NON_INDEXED


def has_job_tracking_finalizer(pod: Pod) -> bool:
    """The pod still carries ``batch.kubernetes.io/job-tracking``; mirrors ``hasJobTrackingFinalizer``."""
    return JOB_TRACKING_FINALIZER in pod.metadata.finalizers


def get_completion_index(annotations: dict[str, str] | None) -> int:
    """The pod's completion index, or -1 when absent, invalid or negative.

    Mirrors ``getCompletionIndex``: the annotation is read with strconv.Atoi, so a sign and
    leading zeros are accepted ("+2", "007"); spaces, decimals and "" are not.
    """
    if not annotations:
        return UNKNOWN_COMPLETION_INDEX
    text = annotations.get(JOB_COMPLETION_INDEX_ANNOTATION)
    if text is None:
        return UNKNOWN_COMPLETION_INDEX
    # A sync reads every pod's index several times: each distinct text is parsed once.
    value = _INDEX_OF_TEXT.get(text)
    if value is None:
        parsed = _atoi(text)
        value = UNKNOWN_COMPLETION_INDEX if parsed is None or parsed < 0 else parsed
        if len(_INDEX_OF_TEXT) >= 200_000:
            _INDEX_OF_TEXT.clear()
        _INDEX_OF_TEXT[text] = value
    return value


_INDEX_OF_TEXT: dict[str, int] = {}
"""Completion index by annotation text (a pure function of the text, cached)."""


def get_indexes(pods: Iterable[Pod]) -> set[int]:
    """The valid completion indexes of ``pods``; mirrors ``getIndexes``."""
    indexes = (get_completion_index(p.metadata.annotations) for p in pods)
    return {ix for ix in indexes if ix != UNKNOWN_COMPLETION_INDEX}


# --------------------------------------------------------------------------------------
# orderedIntervals
# --------------------------------------------------------------------------------------


class Interval(NamedTuple):
    """A run of indexes ``first..last`` (inclusive); mirrors ``interval``."""

    first: int
    last: int


@dataclass(frozen=True, slots=True)
class OrderedIntervals:
    """A set of indexes as increasing, non-adjacent runs; mirrors ``orderedIntervals``.

    ``len()`` is the number of runs (Go's ``len(oi)``); :meth:`total` the number of indexes.
    ``str()`` is the canonical status format: runs of three or more as ``a-b``, pairs as
    ``a,b`` ("1,3-5").
    """

    intervals: tuple[Interval, ...] = ()

    @classmethod
    def from_indexes(cls, indexes: Iterable[int]) -> OrderedIntervals:
        """The runs covering ``indexes`` (any order, duplicates allowed)."""
        return cls().with_ordered_indexes(sorted(set(indexes)))

    def __len__(self) -> int:
        return len(self.intervals)

    def __iter__(self) -> Iterator[Interval]:
        return iter(self.intervals)

    def total(self) -> int:
        """Number of indexes covered; mirrors ``orderedIntervals.total``."""
        return sum(iv.last - iv.first + 1 for iv in self.intervals)

    def has(self, ix: int) -> bool:
        """Whether ``ix`` is covered; mirrors ``orderedIntervals.has`` (binary search)."""
        lo, hi = 0, len(self.intervals)
        # Invariant: every run at or after hi ends at or after ix.
        while hi > lo:
            mid = lo + (hi - lo) // 2
            if self.intervals[mid].last >= ix:
                hi = mid
            else:
                lo = mid + 1
        return hi < len(self.intervals) and self.intervals[hi].first <= ix

    def indexes(self) -> Iterator[int]:
        """Every covered index, run by run."""
        for iv in self.intervals:
            yield from range(iv.first, iv.last + 1)

    def __str__(self) -> str:
        """The canonical string; mirrors ``orderedIntervals.String``."""
        parts = []
        for iv in self.intervals:
            if iv.last == iv.first + 1:
                parts.append(f"{iv.first},{iv.last}")
            elif iv.last > iv.first:
                parts.append(f"{iv.first}-{iv.last}")
            else:
                parts.append(str(iv.first))
        return ",".join(parts)

    def with_ordered_indexes(self, new_indexes: Sequence[int]) -> OrderedIntervals:
        """These runs plus ``new_indexes`` (increasing); mirrors ``withOrderedIndexes``."""
        return self.merge(OrderedIntervals(tuple(Interval(ix, ix) for ix in new_indexes)))

    def merge(self, other: OrderedIntervals) -> OrderedIntervals:
        """The union with ``other``; mirrors ``orderedIntervals.merge``.

        A two-way merge by first index; a run that starts at most one past the previous
        run's end is folded into it.
        """
        result: list[Interval] = []

        def append_or_extend(iv: Interval) -> None:
            if not result or iv.first > result[-1].last + 1:
                result.append(iv)
            elif result[-1].last < iv.last:
                result[-1] = Interval(result[-1].first, iv.last)

        mine, theirs = self.intervals, other.intervals
        i = j = 0
        while i < len(mine) and j < len(theirs):
            if mine[i].first < theirs[j].first:
                append_or_extend(mine[i])
                i += 1
            else:
                append_or_extend(theirs[j])
                j += 1
        for iv in (*mine[i:], *theirs[j:]):
            append_or_extend(iv)
        return OrderedIntervals(tuple(result))


def parse_indexes_from_string(text: str | None, completions: int) -> OrderedIntervals:
    """Read a stored index string leniently; mirrors ``parseIndexesFromString``.

    Comma-separated parts "a" or "a-b". A part whose numbers do not parse is skipped (only
    the first two '-'-separated numbers are read, so "1-3-5" reads as 1-3); parsing stops
    at the first part that starts at or beyond ``completions``; a range end beyond it is
    clamped to ``completions - 1``. A part that starts right after the previous one ends is
    joined to it.
    """
    if not text:
        return OrderedIntervals()
    result: list[Interval] = []
    for part in text.split(","):
        limits = part.split("-")
        first = _atoi(limits[0])
        if first is None:
            continue  # corrupted part: upstream logs it and moves on.
        if first >= completions:
            break
        if len(limits) > 1:
            last = _atoi(limits[1])
            if last is None:
                continue
            last = min(last, completions - 1)
        else:
            last = first
        if result and result[-1].last == first - 1:
            result[-1] = Interval(result[-1].first, last)
        else:
            result.append(Interval(first, last))
    return OrderedIntervals(tuple(result))


# --------------------------------------------------------------------------------------
# Succeeded, failed and pending indexes
# --------------------------------------------------------------------------------------


def calculate_succeeded_indexes(job: Job, pods: Iterable[Pod]) -> tuple[OrderedIntervals, OrderedIntervals]:
    """(indexes recorded in status.completedIndexes, those plus the newly succeeded ones).

    Mirrors ``calculateSucceededIndexes``. A pod adds its index when it Succeeded, has a
    valid index < completions and still carries the tracking finalizer (not counted yet).
    """
    completions = job.spec.completions or 0
    previous = parse_indexes_from_string(job.status.completed_indexes, completions)
    new = set()
    for pod in pods:
        ix = get_completion_index(pod.metadata.annotations)
        if (
            pod.status.phase == Phase.SUCCEEDED
            and ix != UNKNOWN_COMPLETION_INDEX
            and ix < completions
            and has_job_tracking_finalizer(pod)
        ):
            new.add(ix)
    return previous, previous.with_ordered_indexes(sorted(new))


def is_index_failed(job: Job, pod: Pod) -> bool:
    """Whether ``pod``'s failure fails its index; mirrors ``isIndexFailed``.

    A FailIndex rule of the podFailurePolicy fails the index at once; otherwise a failure
    that counts (not Ignored) fails it when the pod's failure-count annotation has reached
    backoffLimitPerIndex.
    """
    counted = False
    if is_pod_failed(pod, job):
        if job.spec.pod_failure_policy is not None:
            _, count_failed, action = match_pod_failure_policy(job.spec.pod_failure_policy, pod)
            if action == PodFailurePolicyAction.FAIL_INDEX:
                return True
            counted = count_failed
        else:
            counted = True
    limit = job.spec.backoff_limit_per_index
    return counted and limit is not None and get_index_failure_count(pod) >= limit


def calculate_failed_indexes(job: Job, pods: Iterable[Pod]) -> OrderedIntervals | None:
    """status.failedIndexes plus the indexes failed since; None without backoffLimitPerIndex.

    Mirrors ``calculateFailedIndexes`` (which syncJob only calls with backoffLimitPerIndex).
    A pod adds its index when it has a valid index < completions, still carries the
    tracking finalizer and :func:`is_index_failed`.
    """
    if not has_backoff_limit_per_index(job):
        return None
    completions = job.spec.completions or 0
    previous = OrderedIntervals()
    if job.status.failed_indexes is not None:
        previous = parse_indexes_from_string(job.status.failed_indexes, completions)
    new = set()
    for pod in pods:
        ix = get_completion_index(pod.metadata.annotations)
        if (
            ix != UNKNOWN_COMPLETION_INDEX
            and ix < completions
            and has_job_tracking_finalizer(pod)
            and is_index_failed(job, pod)
        ):
            new.add(ix)
    return previous.with_ordered_indexes(sorted(new))


def first_pending_indexes(
    *,
    active_pods: Iterable[Pod],
    succeeded_indexes: OrderedIntervals,
    failed_indexes: OrderedIntervals | None,
    terminating_pods: Iterable[Pod] | None,
    count: int,
    completions: int,
) -> list[int]:
    """The lowest ``count`` indexes below ``completions`` that still need a pod.

    Mirrors ``firstPendingIndexes``: an index is not pending when it succeeded, has an
    active pod, failed (backoffLimitPerIndex; pass None otherwise) or — only when
    podReplacementPolicy is Failed, so pass ``terminating_pods=None`` otherwise — is held
    by a terminating pod.
    """
    if count == 0:
        return []
    non_pending = succeeded_indexes.with_ordered_indexes(sorted(get_indexes(active_pods)))
    if terminating_pods is not None:
        terminating = get_indexes(p for p in terminating_pods if is_pod_terminating(p))
        non_pending = non_pending.with_ordered_indexes(sorted(terminating))
    if failed_indexes is not None:
        non_pending = non_pending.merge(failed_indexes)
    result: list[int] = []
    candidate = 0
    for iv in non_pending:
        while candidate < completions and len(result) < count and candidate < iv.first:
            result.append(candidate)
            candidate += 1
        candidate = max(candidate, iv.last + 1)
    while candidate < completions and len(result) < count:
        result.append(candidate)
        candidate += 1
    return result


# --------------------------------------------------------------------------------------
# Per-index failure counts (backoffLimitPerIndex)
# --------------------------------------------------------------------------------------


def _parse_int32(text: str) -> int:
    # Unparsable, negative or > MaxInt32 values (e.g. written by hand) read as 0.
    value = _atoi(text)
    if value is None or value < 0 or value > MAX_INT32:
        return 0
    return value


def get_index_failure_count(pod: Pod) -> int:
    """The ``job-index-failure-count`` annotation, 0 when absent or bad; mirrors ``getIndexFailureCount``."""
    value = pod.metadata.annotations.get(JOB_INDEX_FAILURE_COUNT_ANNOTATION)
    return 0 if value is None else _parse_int32(value)


def get_index_ignored_failure_count(pod: Pod) -> int:
    """The ``job-index-ignored-failure-count`` annotation, 0 when absent or bad.

    Mirrors ``parseIndexFailureIgnoreCountAnnotation``.
    """
    value = pod.metadata.annotations.get(JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION)
    return 0 if value is None else _parse_int32(value)


def get_index_absolute_failure_count(pod: Pod) -> int:
    """Counted plus ignored failures of the index so far; mirrors ``getIndexAbsoluteFailureCount``."""
    return get_index_failure_count(pod) + get_index_ignored_failure_count(pod)


def get_new_index_failure_counts(job: Job, pod_being_replaced: Pod | None) -> tuple[int, int]:
    """(failure count, ignored failure count) for the pod that replaces ``pod_being_replaced``.

    Mirrors ``getNewIndexFailureCounts``: the replaced pod's counts, with its own failure
    added to the ignored count when a podFailurePolicy rule says Ignore, else to the
    failure count. (0, 0) for the first pod of an index.
    """
    if pod_being_replaced is None:
        return 0, 0
    failures = get_index_failure_count(pod_being_replaced)
    ignored = get_index_ignored_failure_count(pod_being_replaced)
    if job.spec.pod_failure_policy is not None:
        _, count_failed, _ = match_pod_failure_policy(job.spec.pod_failure_policy, pod_being_replaced)
        if count_failed:
            failures += 1
        else:
            ignored += 1
    else:
        failures += 1
    return failures, ignored


def index_failure_count_annotations(job: Job, pod_being_replaced: Pod | None) -> dict[str, str]:
    """The failure-count annotations of a new pod; mirrors ``addIndexFailureCountAnnotation``.

    The failure count is always written ("0" for a first pod); the ignored count only when
    it is positive.
    """
    failures, ignored = get_new_index_failure_counts(job, pod_being_replaced)
    annotations = {JOB_INDEX_FAILURE_COUNT_ANNOTATION: str(failures)}
    if ignored > 0:
        annotations[JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION] = str(ignored)
    return annotations


def get_pods_with_delayed_deletion_per_index(
    job: Job,
    pods: Sequence[Pod],
    *,
    active_pods: Sequence[Pod] | None = None,
    succeeded_indexes: OrderedIntervals | None = None,
    failed_indexes: OrderedIntervals | None = None,
    expected_rm_finalizers: Iterable[str] = (),
) -> dict[int, Pod]:
    """Per index, the failed pod whose finalizer stays until its replacement exists.

    Mirrors ``getPodsWithDelayedDeletionPerIndex`` (backoffLimitPerIndex): the replacement
    pod copies its failure counts from this pod, so it must not go away first. Only indexes
    that are not succeeded, not failed and not active have one. Pods are scanned in list
    order among those that still carry the finalizer, are not in ``expected_rm_finalizers``
    (UIDs), have a valid index < completions and are failed; a later pod replaces the
    current candidate only if its absolute failure count is >= the candidate's AND its
    finish time is not earlier.

    ``active_pods``, ``succeeded_indexes`` and ``failed_indexes`` default to what syncJob
    computes from ``pods``.
    """
    completions = job.spec.completions or 0
    if active_pods is None:
        active_pods = filter_active_pods(pods)
    if succeeded_indexes is None:
        _, succeeded_indexes = calculate_succeeded_indexes(job, pods)
    if failed_indexes is None:
        failed_indexes = calculate_failed_indexes(job, pods) or OrderedIntervals()
    active_indexes = get_indexes(active_pods)
    skip_uids = set(expected_rm_finalizers)
    delayed: dict[int, Pod] = {}
    for pod in pods:
        if not has_job_tracking_finalizer(pod) or pod.metadata.uid in skip_uids:
            continue
        ix = get_completion_index(pod.metadata.annotations)
        if ix == UNKNOWN_COMPLETION_INDEX or ix >= completions or not is_pod_failed(pod, job):
            continue
        # The failure count of an index that is active lives on in its active pod.
        if succeeded_indexes.has(ix) or failed_indexes.has(ix) or ix in active_indexes:
            continue
        current = delayed.get(ix)
        if current is None or (
            get_index_absolute_failure_count(current) <= get_index_absolute_failure_count(pod)
            and not _finished_before(pod, current)
        ):
            delayed[ix] = pod
    return delayed


def _finished_before(a: Pod, b: Pod) -> bool:
    # Go's time.Before, with None (the zero time) before every real time.
    ta, tb = get_finished_time(a), get_finished_time(b)
    if ta is None:
        return tb is not None
    return tb is not None and ta < tb


# --------------------------------------------------------------------------------------
# Pod template helpers (used when creating pods of Indexed Jobs)
# --------------------------------------------------------------------------------------


def _with_completion_index_env(container: Container) -> Container:
    if any(v.name == JOB_COMPLETION_INDEX_ENV for v in container.env or ()):
        return container  # the user's own definition wins.
    # PodIndexLabel is GA: the variable reads the label, not the annotation.
    field_path = f"metadata.labels['{JOB_COMPLETION_INDEX_ANNOTATION}']"
    env_var = EnvVar(name=JOB_COMPLETION_INDEX_ENV, value_from={"fieldRef": {"fieldPath": field_path}})
    return replace(container, env=(*(container.env or ()), env_var))


def add_completion_index_env_variables(template: PodTemplateSpec) -> PodTemplateSpec:
    """``JOB_COMPLETION_INDEX`` added to every init container and container.

    Mirrors ``addCompletionIndexEnvVariables``: the variable is a fieldRef on the
    ``batch.kubernetes.io/job-completion-index`` label; containers that already define a
    variable of that name are left alone.
    """
    spec = template.spec
    init = None
    if spec.init_containers is not None:
        init = tuple(_with_completion_index_env(c) for c in spec.init_containers)
    containers = tuple(_with_completion_index_env(c) for c in spec.containers)
    return replace(template, spec=replace(spec, init_containers=init, containers=containers))


def add_completion_index_annotation(template: PodTemplateSpec, index: int) -> PodTemplateSpec:
    """The template with the completion-index annotation; mirrors ``addCompletionIndexAnnotation``."""
    annotations = {**template.metadata.annotations, JOB_COMPLETION_INDEX_ANNOTATION: str(index)}
    return replace(template, metadata=replace(template.metadata, annotations=annotations))


def add_completion_index_label(template: PodTemplateSpec, index: int) -> PodTemplateSpec:
    """The template with the completion-index label (same key as the annotation).

    Mirrors ``addCompletionIndexLabel``.
    """
    labels = {**template.metadata.labels, JOB_COMPLETION_INDEX_ANNOTATION: str(index)}
    return replace(template, metadata=replace(template.metadata, labels=labels))


def pod_generate_name_with_index(job_name: str, index: int) -> str:
    """``<job>-<index>-``, the job name cut so the prefix fits 58 characters.

    Mirrors ``podGenerateNameWithIndex``.
    """
    suffix = f"-{index}-"
    prefix = job_name + suffix
    if len(prefix) > MAX_GENERATED_NAME_LENGTH:
        prefix = prefix[: MAX_GENERATED_NAME_LENGTH - len(suffix)] + suffix
    return prefix


# --------------------------------------------------------------------------------------
# appendDuplicatedIndexPodsForRemoval
# --------------------------------------------------------------------------------------

PRESTEP_RULE_IDS = ("no-index", "index-out-of-range", "duplicate-index")
"""Why an Indexed Job removes a pod before anything else, whatever the number to remove: the pod
has no valid completion index, its index is >= completions, or another pod has the same index."""


def append_duplicated_index_pods_for_removal(
    pods: Sequence[Pod], completions: int
) -> tuple[list[tuple[Pod, str]], list[Pod]]:
    """Split an Indexed Job's active pods into (removals with their rule id, pods left).

    Mirrors ``appendDuplicatedIndexPodsForRemoval`` in indexed_job_utils.go: pods without a
    valid index and pods with index >= completions are removed; of several pods sharing an
    index, all but the last in deletion order are removed. Removals come in upstream's
    order (by index; the out-of-range pods are appended before the duplicates of the last
    in-range index). Within one index pods are taken in deletion order, so the result does
    not depend on the input order. The rule ids are :data:`PRESTEP_RULE_IDS`.
    """

    def index_of(p: Pod) -> int:
        return get_completion_index(p.metadata.annotations)

    # Sorted by (index, deletion order): the deletion order is computed only where an index has
    # more than one pod (the sorts are stable, so equal pods keep their input order either way).
    by_index = sorted(pods, key=index_of)
    ordered = []
    for _ix, members in itertools.groupby(by_index, key=index_of):
        group = list(members)
        ordered.extend(sorted(group, key=active_pods_sort_key) if len(group) > 1 else group)
    rm: list[tuple[Pod, str]] = []
    left: list[Pod] = []

    def flush(group: list[Pod], ix: int) -> None:
        if ix == -1:
            rm.extend((p, "no-index") for p in group)
        elif len(group) == 1:
            left.append(group[0])
        else:
            # The group is already in deletion order: keep the last, the most advanced pod.
            rm.extend((p, "duplicate-index") for p in group[:-1])
            left.append(group[-1])

    pending: tuple[list[Pod], int] | None = None
    for ix, members in itertools.groupby(ordered, key=index_of):
        group = list(members)
        if ix >= completions:
            # Everything from here on is out of range (the list is sorted by index).
            rest = [p for p in ordered if index_of(p) >= completions]
            rm.extend((p, "index-out-of-range") for p in rest)
            break
        if pending is not None:
            flush(*pending)
        pending = (group, ix)
    if pending is not None:
        flush(*pending)
    return rm, left
