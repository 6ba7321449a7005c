"""Runner for the ``indexes`` conformance kind: interval strings, pending indexes, success policy.

Each case's ``input.op`` picks the function (see the kind's ``vocabulary``); the answer holds
every output that op defines: ``text``, ``indexes`` and ``total`` for the interval ops,
``indexes`` for firstPendingIndexes, ``valid``/``total`` for validateIndexesFormat,
``met``/``message`` for matchSuccessPolicy and ``index`` for completionIndex.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from k8sjobs.api.indexes import validate_indexes_format
from k8sjobs.api.types import (
    JOB_COMPLETION_INDEX_ANNOTATION,
    JOB_TRACKING_FINALIZER,
    CompletionMode,
    Job,
    JobSpec,
    JobStatus,
    ObjectMeta,
    Phase,
    Pod,
    PodReplacementPolicy,
    PodStatus,
    SuccessPolicy,
    SuccessPolicyRule,
)
from k8sjobs.controller.job.indexed_job_utils import (
    OrderedIntervals,
    calculate_succeeded_indexes,
    first_pending_indexes,
    get_completion_index,
    parse_indexes_from_string,
)
from k8sjobs.controller.job.success_policy import match_success_policy

NOW = 1_000_000_000.0
"""The fixed "now" of every case (only used to mark pods as terminating)."""


def _intervals_answer(intervals: OrderedIntervals) -> dict[str, Any]:
    return {"text": str(intervals), "indexes": list(intervals.indexes()), "total": intervals.total()}


def _pod(name: str, index: Any, phase: str = Phase.RUNNING, *, finalizer: bool = True,
         terminating: bool = False) -> Pod:
    annotations = {} if index is None else {JOB_COMPLETION_INDEX_ANNOTATION: str(index)}
    meta = ObjectMeta(
        name=name,
        namespace="default",
        annotations=annotations,
        finalizers=(JOB_TRACKING_FINALIZER,) if finalizer else (),
        deletion_timestamp=NOW if terminating else None,
    )
    return Pod(metadata=meta, status=PodStatus(phase=phase))


def _job(completions: int, completed_indexes: str = "") -> Job:
    return Job(
        metadata=ObjectMeta(name="job", namespace="default"),
        spec=JobSpec(completions=completions, parallelism=completions, completion_mode=CompletionMode.INDEXED),
        status=JobStatus(completed_indexes=completed_indexes),
    )


def _op_format(case: dict[str, Any]) -> dict[str, Any]:
    return _intervals_answer(OrderedIntervals.from_indexes(case.get("indexes") or []))


def _op_parse(case: dict[str, Any]) -> dict[str, Any]:
    return _intervals_answer(parse_indexes_from_string(case.get("text") or "", int(case["completions"])))


def _op_normalize(case: dict[str, Any]) -> dict[str, Any]:
    # What the controller writes back: syncJob always passes the parsed string through
    # withOrderedIndexes (calculateSucceededIndexes, trackJobStatusAndRemoveFinalizers),
    # which folds overlapping runs; for well-formed strings this is just parse + format.
    parsed = parse_indexes_from_string(case.get("text") or "", int(case["completions"]))
    return _intervals_answer(parsed.with_ordered_indexes([]))


def _op_succeeded_indexes(case: dict[str, Any]) -> dict[str, Any]:
    completions = int(case["completions"])
    pods = [
        _pod(f"p{i}", p.get("index"), p.get("phase", Phase.SUCCEEDED), finalizer=p.get("finalizer", True))
        for i, p in enumerate(case.get("pods") or [])
    ]
    previous, succeeded = calculate_succeeded_indexes(_job(completions, case.get("completedIndexes") or ""), pods)
    return {**_intervals_answer(succeeded), "previous": str(previous)}


def _indexes_from(value: Any, completions: int) -> OrderedIntervals:
    # A list of indexes or a stored (leniently parsed) string.
    if isinstance(value, list):
        return OrderedIntervals.from_indexes(value)
    return parse_indexes_from_string(value or "", completions)


def _op_first_pending_indexes(case: dict[str, Any]) -> dict[str, Any]:
    completions = int(case["completions"])
    active = [_pod(f"a{i}", ix) for i, ix in enumerate(case.get("activeIndexes") or [])]
    terminating = [_pod(f"t{i}", ix, terminating=True) for i, ix in enumerate(case.get("terminatingIndexes") or [])]
    only_failed = case.get("podReplacementPolicy") == PodReplacementPolicy.FAILED or bool(case.get("podFailurePolicy"))
    failed = case.get("failedIndexes")
    indexes = first_pending_indexes(
        active_pods=active,
        succeeded_indexes=_indexes_from(case.get("completedIndexes"), completions),
        failed_indexes=None if failed is None else _indexes_from(failed, completions),
        terminating_pods=terminating if only_failed else None,
        count=int(case["count"]),
        completions=completions,
    )
    return {"indexes": indexes}


def _op_validate_indexes_format(case: dict[str, Any]) -> dict[str, Any]:
    try:
        total = validate_indexes_format(case.get("text") or "", int(case["completions"]))
    except ValueError as exc:
        return {"valid": False, "error": str(exc)}
    return {"valid": True, "total": total}


def _op_match_success_policy(case: dict[str, Any]) -> dict[str, Any]:
    completions = int(case["completions"])
    doc = case.get("successPolicy")
    policy = None
    if doc is not None:
        policy = SuccessPolicy(rules=tuple(
            SuccessPolicyRule(succeeded_indexes=r.get("succeededIndexes"), succeeded_count=r.get("succeededCount"))
            for r in doc.get("rules") or []
        ))
    succeeded = _indexes_from(case.get("completedIndexes"), completions)
    met, message = match_success_policy(policy, completions, succeeded)
    return {"met": met, "message": message}


def _op_completion_index(case: dict[str, Any]) -> dict[str, Any]:
    value = case.get("annotation")
    annotations = {} if value is None else {JOB_COMPLETION_INDEX_ANNOTATION: str(value)}
    return {"index": get_completion_index(annotations)}


OPS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "format": _op_format,
    "parse": _op_parse,
    "normalize": _op_normalize,
    "succeededIndexes": _op_succeeded_indexes,
    "firstPendingIndexes": _op_first_pending_indexes,
    "validateIndexesFormat": _op_validate_indexes_format,
    "matchSuccessPolicy": _op_match_success_policy,
    "completionIndex": _op_completion_index,
}
"""``input.op`` -> the function answering it."""


def run_case(case_input: dict[str, Any]) -> dict[str, Any]:
    """Answer one ``indexes`` case."""
    op = case_input.get("op")
    if op not in OPS:
        raise NotImplementedError(f"indexes op {op!r} (known: {', '.join(OPS)})")
    return OPS[op](case_input)
