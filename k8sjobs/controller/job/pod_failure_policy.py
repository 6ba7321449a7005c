"""Matching a failed pod against spec.podFailurePolicy.

Mirrors pkg/controller/job/pod_failure_policy.go (Kubernetes 1.35, the version with FailIndex;
JobPodFailurePolicy and JobBackoffLimitPerIndex are GA). Rules are tried in order and the
first match wins. An onExitCodes rule looks at terminated containers — regular containers
first, then init containers — skipping exit code 0 and honouring containerName; an
onPodConditions rule matches a pod condition with the same type and status.

What each action means for the controller is data (:data:`ACTION_COUNTS`): Ignore does not
count the failure toward backoffLimit (nor the index failure count); Count, FailIndex and
FailJob do. FailJob also yields the message of the Job's FailureTarget/Failed condition.
"""

from __future__ import annotations

from collections.abc import Sequence

from k8sjobs.api.types import (
    ContainerStatus,
    Pod,
    PodCondition,
    PodFailurePolicy,
    PodFailurePolicyAction,
    PodFailurePolicyOnExitCodesRequirement,
    PodFailurePolicyOnPodConditionsPattern,
    PodStatus,
)

ACTION_COUNTS: dict[str, bool] = {
    PodFailurePolicyAction.IGNORE: False,
    PodFailurePolicyAction.COUNT: True,
    PodFailurePolicyAction.FAIL_INDEX: True,
    PodFailurePolicyAction.FAIL_JOB: True,
}
"""Action -> whether the failure counts toward backoffLimit. A rule with an action not listed
here never matches (upstream's switch falls through to the next rule)."""

EXIT_CODE_MESSAGE = "Container {container} for pod {namespace}/{pod} failed with exit code {exit_code} matching {action} rule at index {index}"
"""FailJob message of an onExitCodes rule."""

POD_CONDITION_MESSAGE = "Pod {namespace}/{pod} has condition {condition} matching {action} rule at index {index}"
"""FailJob message of an onPodConditions rule."""


def is_on_exit_codes_operator_matching(exit_code: int, requirement: PodFailurePolicyOnExitCodesRequirement) -> bool:
    """``exit_code`` is In / NotIn the requirement's values; mirrors ``isOnExitCodesOperatorMatching``.

    An unknown operator never matches.
    """
    if requirement.operator == "In":
        return exit_code in requirement.values
    if requirement.operator == "NotIn":
        return exit_code not in requirement.values
    return False


def _matching_container(
    statuses: Sequence[ContainerStatus], requirement: PodFailurePolicyOnExitCodesRequirement
) -> ContainerStatus | None:
    # Mirrors getMatchingContainerFromList: the first terminated container (of the named one,
    # if containerName is set) with a non-zero exit code the operator accepts.
    for status in statuses:
        terminated = status.state.terminated
        if terminated is None:
            continue  # still running or terminating: no exit code to match yet.
        if requirement.container_name is not None and requirement.container_name != status.name:
            continue
        if terminated.exit_code != 0 and is_on_exit_codes_operator_matching(terminated.exit_code, requirement):
            return status
    return None


def match_on_exit_codes(
    pod_status: PodStatus, requirement: PodFailurePolicyOnExitCodesRequirement
) -> ContainerStatus | None:
    """The terminated container status that matches, regular containers before init containers.

    Mirrors ``matchOnExitCodes``; a returned status always has ``state.terminated`` set.
    """
    return _matching_container(pod_status.container_statuses, requirement) or _matching_container(
        pod_status.init_container_statuses, requirement
    )


def match_on_pod_conditions(
    pod_status: PodStatus, patterns: Sequence[PodFailurePolicyOnPodConditionsPattern]
) -> PodCondition | None:
    """The first pod condition (in the pod's order) whose type and status equal a pattern's.

    Mirrors ``matchOnPodConditions``.
    """
    for condition in pod_status.conditions:
        for pattern in patterns:
            if condition.type == pattern.type and condition.status == pattern.status:
                return condition
    return None


def match_pod_failure_policy(
    policy: PodFailurePolicy | None, pod: Pod
) -> tuple[str | None, bool, str | None]:
    """(FailJob message, whether the failure counts, matched action) for a failed pod.

    Mirrors ``matchPodFailurePolicy``. No policy or no matching rule: ``(None, True, None)``.
    The message is set only for FailJob, e.g. "Container main for pod default/p-0 failed with
    exit code 42 matching FailJob rule at index 0".
    """
    if policy is None:
        return None, True, None
    for index, rule in enumerate(policy.rules):
        if rule.action not in ACTION_COUNTS:
            continue
        message_fields = {"namespace": pod.metadata.namespace, "pod": pod.metadata.name,
                          "action": rule.action, "index": index}
        if rule.on_exit_codes is not None:
            status = match_on_exit_codes(pod.status, rule.on_exit_codes)
            if status is None:
                continue
            message = EXIT_CODE_MESSAGE.format(
                container=status.name, exit_code=status.state.terminated.exit_code, **message_fields
            )
        elif rule.on_pod_conditions is not None:
            condition = match_on_pod_conditions(pod.status, rule.on_pod_conditions)
            if condition is None:
                continue
            message = POD_CONDITION_MESSAGE.format(condition=condition.type, **message_fields)
        else:
            continue
        fail_job_message = message if rule.action == PodFailurePolicyAction.FAIL_JOB else None
        return fail_job_message, ACTION_COUNTS[rule.action], rule.action
    return None, True, None
