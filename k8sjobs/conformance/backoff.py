"""Runner for the ``backoff`` conformance kind: delays before replacement pods, finish times.

``input.op`` is one of ``remaining``, ``record``, ``finishedTime`` and ``perIndex`` (see the
kind's ``vocabulary``). Times in a case are "seconds ago"; the runner turns them into absolute
simulated times with a fixed :data:`NOW` and back.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from k8sjobs.api.types import (
    JOB_INDEX_FAILURE_COUNT_ANNOTATION,
    JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION,
    Container,
    ContainerState,
    ContainerStateRunning,
    ContainerStateTerminated,
    ContainerStateWaiting,
    ContainerStatus,
    ObjectMeta,
    Phase,
    Pod,
    PodCondition,
    PodConditionType,
    PodSpec,
    PodStatus,
)
from k8sjobs.controller.job.backoff_utils import (
    DEFAULT_JOB_POD_FAILURE_BACKOFF,
    MAX_JOB_POD_FAILURE_BACKOFF,
    BackoffRecord,
    BackoffStore,
    get_remaining_time,
    get_remaining_time_per_index,
)
from k8sjobs.controller.pod_util import get_finished_time

NOW = 1_000_000_000.0
"""The fixed "now" of every case."""

_KEY = "default/job"


def _at(seconds_ago: float | None) -> float | None:
    return None if seconds_ago is None else NOW - seconds_ago


def _ago(t: float | None) -> float | int | None:
    if t is None:
        return None
    ago = NOW - t
    return int(ago) if ago == int(ago) else ago


def _seconds(value: float) -> float | int:
    return int(value) if value == int(value) else value


def _limits(case: dict[str, Any]) -> tuple[float, float]:
    base = case.get("baseSeconds")
    cap = case.get("maxSeconds")
    return (
        DEFAULT_JOB_POD_FAILURE_BACKOFF if base is None else float(base),
        MAX_JOB_POD_FAILURE_BACKOFF if cap is None else float(cap),
    )


def _container_state(doc: dict[str, Any]) -> ContainerState:
    if "terminatedSecondsAgo" in doc:
        return ContainerState(terminated=ContainerStateTerminated(exit_code=1, finished_at=_at(doc["terminatedSecondsAgo"])))
    if doc.get("terminatedWithoutFinishTime"):
        return ContainerState(terminated=ContainerStateTerminated(exit_code=1))
    if doc.get("running"):
        return ContainerState(running=ContainerStateRunning())
    return ContainerState(waiting=ContainerStateWaiting(reason="ContainerCreating"))


def _pod(doc: dict[str, Any]) -> Pod:
    """A pod from the ``finishedTime`` vocabulary."""
    containers = doc.get("containers") or []
    sidecars = doc.get("sidecars") or []
    inits = doc.get("initContainers") or []
    statuses = tuple(
        ContainerStatus(name=c.get("name", f"c{i}"), state=_container_state(c)) for i, c in enumerate(containers)
    )
    init_specs = [Container(name=c.get("name", f"s{i}"), restart_policy="Always") for i, c in enumerate(sidecars)]
    init_specs += [Container(name=c.get("name", f"i{i}")) for i, c in enumerate(inits)]
    init_statuses = tuple(
        ContainerStatus(name=spec.name, state=_container_state(c))
        for spec, c in zip(init_specs, [*sidecars, *inits])
    )
    conditions = ()
    ready = doc.get("readyCondition")
    if ready is not None:
        conditions = (PodCondition(type=PodConditionType.READY, status=ready.get("status", "False"),
                                   last_transition_time=_at(ready.get("lastTransitionSecondsAgo"))),)
    meta = ObjectMeta(
        name=doc.get("name", "pod"),
        namespace="default",
        creation_timestamp=_at(doc.get("createdSecondsAgo")),
        deletion_timestamp=_at(doc.get("deletionTimestampSecondsAgo")),
        deletion_grace_period_seconds=doc.get("deletionGracePeriodSeconds"),
        annotations=_failure_annotations(doc),
    )
    return Pod(
        metadata=meta,
        spec=PodSpec(containers=tuple(Container(name=s.name) for s in statuses),
                     init_containers=tuple(init_specs) or None),
        status=PodStatus(phase=doc.get("phase", Phase.FAILED), conditions=conditions,
                         container_statuses=statuses, init_container_statuses=init_statuses),
    )


def _failure_annotations(doc: dict[str, Any]) -> dict[str, str]:
    annotations = {}
    if doc.get("failureCount") is not None:
        annotations[JOB_INDEX_FAILURE_COUNT_ANNOTATION] = str(doc["failureCount"])
    if doc.get("ignoredFailureCount") is not None:
        annotations[JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION] = str(doc["ignoredFailureCount"])
    return annotations


def _finished_pod(doc: dict[str, Any], phase: str) -> Pod:
    """A pod whose only container finished ``finishedSecondsAgo`` (the record/perIndex vocabulary)."""
    if "finishedSecondsAgo" not in doc:
        return _pod({**doc, "phase": phase})
    return _pod({**doc, "phase": phase, "containers": [{"terminatedSecondsAgo": doc["finishedSecondsAgo"]}]})


def _record(doc: dict[str, Any] | None) -> BackoffRecord:
    doc = doc or {}
    return BackoffRecord(_KEY, int(doc.get("failuresAfterLastSuccess") or 0), _at(doc.get("lastFailureSecondsAgo")))


def _record_answer(record: BackoffRecord) -> dict[str, Any]:
    return {"failuresAfterLastSuccess": record.failures_after_last_success,
            "lastFailureSecondsAgo": _ago(record.last_failure_time)}


def _op_remaining(case: dict[str, Any]) -> dict[str, Any]:
    record = _record(case.get("record"))
    return {"delaySeconds": _seconds(get_remaining_time(record, NOW, *_limits(case)))}


def _op_record(case: dict[str, Any]) -> dict[str, Any]:
    store = BackoffStore()
    if case.get("prior") is not None:
        store.update_backoff_record(_record(case["prior"]))
    succeeded = [_finished_pod(d, Phase.SUCCEEDED) for d in case.get("newSucceeded") or []]
    failed = [_finished_pod(d, Phase.FAILED) for d in case.get("newFailed") or []]
    record = store.new_backoff_record(_KEY, succeeded, failed)
    return {"record": _record_answer(record),
            "delaySeconds": _seconds(get_remaining_time(record, NOW, *_limits(case)))}


def _op_finished_time(case: dict[str, Any]) -> dict[str, Any]:
    return {"finishedSecondsAgo": _ago(get_finished_time(_pod(case.get("pod") or {})))}


def _op_per_index(case: dict[str, Any]) -> dict[str, Any]:
    doc = case.get("lastFailedPod")
    pod = None if doc is None else _finished_pod(doc, Phase.FAILED)
    base, cap = _limits(case)
    return {"delaySeconds": _seconds(get_remaining_time_per_index(NOW, base, cap, pod))}


OPS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "remaining": _op_remaining,
    "record": _op_record,
    "finishedTime": _op_finished_time,
    "perIndex": _op_per_index,
}
"""``input.op`` -> the function answering it."""


def run_case(case_input: dict[str, Any]) -> dict[str, Any]:
    """Answer one ``backoff`` case."""
    op = case_input.get("op")
    if op not in OPS:
        raise NotImplementedError(f"backoff op {op!r} (known: {', '.join(OPS)})")
    return OPS[op](case_input)
