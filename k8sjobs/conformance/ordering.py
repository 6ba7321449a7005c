"""Runner for the ``ordering`` conformance kind: which active pods the controller deletes first.

The answer has ``deleted`` (the pods :func:`active_pods_for_removal` picks for ``input.remove``,
in deletion order) and ``order`` (every pod in the order it would be deleted if more and more
had to go: the Indexed pre-step removals, then the rest in ``ActivePods`` order). Times in a
case are "seconds ago", turned into absolute simulated times with a fixed :data:`NOW`.
"""

from __future__ import annotations

from typing import Any

from k8sjobs.api.types import (
    JOB_COMPLETION_INDEX_ANNOTATION,
    POD_DELETION_COST_ANNOTATION,
    CompletionMode,
    ConditionStatus,
    Container,
    ContainerStatus,
    Job,
    JobSpec,
    ObjectMeta,
    Phase,
    Pod,
    PodCondition,
    PodConditionType,
    PodSpec,
    PodStatus,
)
from k8sjobs.controller.job.job_controller import plan_removal
from k8sjobs.trace.reasons import removal_reasons

NOW = 1_000_000_000.0
"""The fixed "now" of every case."""


def _at(seconds_ago: float | None) -> float | None:
    return None if seconds_ago is None else NOW - seconds_ago


def pod_from_case(doc: dict[str, Any]) -> Pod:
    """A Pod from the ``ordering`` pod vocabulary."""
    annotations = {}
    if "index" in doc and doc["index"] is not None:
        annotations[JOB_COMPLETION_INDEX_ANNOTATION] = str(doc["index"])
    if doc.get("deletionCost") is not None:
        annotations[POD_DELETION_COST_ANNOTATION] = str(doc["deletionCost"])
    conditions = ()
    if doc.get("ready"):
        conditions = (PodCondition(type=PodConditionType.READY, status=ConditionStatus.TRUE,
                                   last_transition_time=_at(doc.get("readySecondsAgo"))),)
    elif "ready" in doc:
        conditions = (PodCondition(type=PodConditionType.READY, status=ConditionStatus.FALSE),)
    regular = [ContainerStatus(name=f"c{i}", restart_count=n) for i, n in enumerate(doc.get("containerRestarts") or [])]
    sidecars = [ContainerStatus(name=f"s{i}", restart_count=n) for i, n in enumerate(doc.get("sidecarRestarts") or [])]
    inits = [ContainerStatus(name=f"i{i}", restart_count=n) for i, n in enumerate(doc.get("initContainerRestarts") or [])]
    init_specs = [Container(name=s.name, restart_policy="Always") for s in sidecars] + [Container(name=s.name) for s in inits]
    return Pod(
        metadata=ObjectMeta(name=doc["name"], namespace="default", annotations=annotations,
                            creation_timestamp=_at(doc.get("createdSecondsAgo"))),
        spec=PodSpec(containers=tuple(Container(name=s.name) for s in regular) or (Container(name="c0"),),
                     init_containers=tuple(init_specs) or None, node_name=doc.get("nodeName") or ""),
        status=PodStatus(phase=doc.get("phase", Phase.PENDING), conditions=conditions,
                         container_statuses=tuple(regular), init_container_statuses=tuple(sidecars + inits)),
    )


def run_case(case_input: dict[str, Any]) -> dict[str, Any]:
    """Answer one ``ordering`` case."""
    mode = case_input.get("completionMode") or CompletionMode.NON_INDEXED
    job = Job(
        metadata=ObjectMeta(name="job", namespace="default"),
        spec=JobSpec(completion_mode=mode, completions=case_input.get("completions")),
    )
    pods = [pod_from_case(p) for p in case_input.get("pods") or []]
    plan = plan_removal(job, pods, int(case_input.get("remove") or 0))
    return {
        "deleted": plan.deleted_names,
        "order": [p.metadata.name for p in plan.order],
        "reasons": removal_reasons(plan),
    }
