"""Facts about one pod: active, ready, terminal, terminating, failed for its Job, when it finished.

A leaf module: it imports only :mod:`k8sjobs.api.types`, so every module of the controller
(``controller_utils``, each file of ``job/``, later ``cronjob/``) can use these predicates and
no circle of imports forms. In Go a package is one namespace and upstream needs no such leaf;
here it gathers, for Kubernetes 1.35 (current master line):

* ``IsPodReady`` (with ``GetPodReadyCondition``) and ``IsPodTerminal`` in pkg/api/v1/pod/util.go;
* ``IsPodActive``, ``FilterActivePods``, ``IsPodTerminating``, ``FilterTerminatingPods`` and
  ``CountTerminatingPods`` in pkg/controller/controller_utils.go;
* ``isPodFailed``, ``onlyReplaceFailedPods`` and ``countReadyPods`` in
  pkg/controller/job/job_controller.go, which indexed_job_utils.go also calls;
* ``getFinishedTime`` and its three lookups in pkg/controller/job/backoff_utils.go, which
  indexed_job_utils.go also calls (backoff_utils.go in turn calls indexed_job_utils.go).
"""

from __future__ import annotations

from collections.abc import Iterable

from k8sjobs.api.types import (
    ConditionStatus,
    Job,
    Phase,
    Pod,
    PodConditionType,
    PodReplacementPolicy,
)

# --------------------------------------------------------------------------------------
# Active, ready, terminal, terminating (pkg/api/v1/pod, controller_utils.go, job_controller.go)
# --------------------------------------------------------------------------------------


def is_pod_active(pod: Pod) -> bool:
    """Not Succeeded, not Failed and not being deleted; mirrors ``IsPodActive`` in controller_utils.go."""
    return (
        pod.status.phase not in (Phase.SUCCEEDED, Phase.FAILED)
        and pod.metadata.deletion_timestamp is None
    )


def filter_active_pods(pods: Iterable[Pod]) -> list[Pod]:
    """The active pods, in input order; mirrors ``FilterActivePods`` in controller_utils.go."""
    return [p for p in pods if is_pod_active(p)]


def is_pod_terminal(pod: Pod) -> bool:
    """Phase Succeeded or Failed; mirrors ``podutil.IsPodTerminal``."""
    return pod.status.phase in (Phase.SUCCEEDED, Phase.FAILED)


def is_pod_terminating(pod: Pod) -> bool:
    """Being deleted but not yet terminal; mirrors ``IsPodTerminating`` in controller_utils.go.

    A Succeeded or Failed pod that carries a deletionTimestamp is terminal, not terminating.
    """
    return not is_pod_terminal(pod) and pod.metadata.deletion_timestamp is not None


def filter_terminating_pods(pods: Iterable[Pod]) -> list[Pod]:
    """The terminating pods, in input order; mirrors ``FilterTerminatingPods`` in controller_utils.go."""
    return [p for p in pods if is_pod_terminating(p)]


def count_terminating_pods(pods: Iterable[Pod]) -> int:
    """How many pods are terminating; mirrors ``CountTerminatingPods`` in controller_utils.go."""
    return sum(1 for p in pods if is_pod_terminating(p))


def _ready_condition(pod: Pod):
    # podutil.GetPodCondition returns the FIRST condition of the type; later duplicates are ignored.
    for condition in pod.status.conditions:
        if condition.type == PodConditionType.READY:
            return condition
    return None


def is_pod_ready(pod: Pod) -> bool:
    """The pod's Ready condition is True; mirrors ``podutil.IsPodReady``."""
    condition = _ready_condition(pod)
    return condition is not None and condition.status == ConditionStatus.TRUE


def count_ready_pods(pods: Iterable[Pod]) -> int:
    """How many of ``pods`` are ready; mirrors ``countReadyPods`` in job_controller.go.

    The controller calls it with the active pods only (status.ready).
    """
    return sum(1 for p in pods if is_pod_ready(p))


def only_replace_failed_pods(job: Job) -> bool:
    """Whether only Failed pods are replaced; mirrors ``onlyReplaceFailedPods`` in job_controller.go.

    Master checks ``podReplacementPolicy == Failed``. An unset policy is read as the value the
    API server's defaulting would give it (Failed when a podFailurePolicy is set, else
    TerminatingOrFailed), so an undefaulted Job behaves like the stored one.
    """
    policy = job.spec.pod_replacement_policy
    if policy is None:
        return job.spec.pod_failure_policy is not None
    return policy == PodReplacementPolicy.FAILED


def is_pod_failed(pod: Pod, job: Job) -> bool:
    """Whether the controller treats ``pod`` as failed; mirrors ``isPodFailed`` in job_controller.go.

    Phase Failed always counts. With podReplacementPolicy TerminatingOrFailed a pod being
    deleted (and not Succeeded) counts too, to account for orphan pods that never reach
    the Failed phase.
    """
    if pod.status.phase == Phase.FAILED:
        return True
    if only_replace_failed_pods(job):
        return False
    return pod.metadata.deletion_timestamp is not None and pod.status.phase != Phase.SUCCEEDED


# --------------------------------------------------------------------------------------
# Finish time of a pod (backoff_utils.go)
# --------------------------------------------------------------------------------------


def _latest_finish_time(previous: float | None, statuses, names: set[str] | None) -> float | None:
    # Mirrors latestFinishTime: None as soon as one considered container is not terminated
    # with a finish time (dropping ``previous`` too); otherwise the latest finish time seen.
    latest = previous
    for status in statuses:
        if names is not None and status.name not in names:
            continue
        terminated = status.state.terminated
        if terminated is None or terminated.finished_at is None:
            return None
        if latest is None or latest < terminated.finished_at:
            latest = terminated.finished_at
    return latest


def get_finish_time_from_containers(pod: Pod) -> float | None:
    """Latest container finish time, or None; mirrors ``getFinishTimeFromContainers``.

    Regular containers first, then sidecars (init containers with restartPolicy Always,
    SidecarContainers is GA); ordinary init containers are ignored. Exactly like upstream,
    the sidecar pass starts again from "nothing" when a regular container was still
    running, so a pod whose only terminated containers are sidecars gets their time.
    """
    finish = _latest_finish_time(None, pod.status.container_statuses, None)
    sidecars = {c.name for c in (pod.spec.init_containers or ()) if c.restart_policy == "Always"}
    return _latest_finish_time(finish, pod.status.init_container_statuses, sidecars)


def get_finish_time_from_pod_ready_false_condition(pod: Pod) -> float | None:
    """lastTransitionTime of a Ready=False condition, if set.

    Mirrors ``getFinishTimeFromPodReadyFalseCondition``; the kubelet marks a pod Ready=False
    when it reaches a terminal phase.
    """
    for condition in pod.status.conditions:
        if condition.type == PodConditionType.READY:
            if condition.status == ConditionStatus.FALSE and condition.last_transition_time is not None:
                return condition.last_transition_time
            return None
    return None


def get_finish_time_from_deletion_timestamp(pod: Pod) -> float | None:
    """deletionTimestamp minus the grace period (0 when unset), if the pod is being deleted.

    Mirrors ``getFinishTimeFromDeletionTimestamp``: the estimated moment of deletion.
    """
    if pod.metadata.deletion_timestamp is None:
        return None
    return pod.metadata.deletion_timestamp - (pod.metadata.deletion_grace_period_seconds or 0)


def get_finished_time(pod: Pod) -> float | None:
    """When a finished pod finished; mirrors ``getFinishedTime`` in backoff_utils.go.

    The first that applies: (1) every regular and sidecar container terminated with a
    finish time -> the latest one; (2) a Ready=False condition's lastTransitionTime; (3)
    deletionTimestamp minus the grace period; (4) creationTimestamp (None if unset).
    """
    for lookup in (
        get_finish_time_from_containers,
        get_finish_time_from_pod_ready_false_condition,
        get_finish_time_from_deletion_timestamp,
    ):
        finish = lookup(pod)
        if finish is not None:
            return finish
    # Should not happen in clusters where the kubelet and pod GC run.
    return pod.metadata.creation_timestamp
