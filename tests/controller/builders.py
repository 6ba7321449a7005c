"""One-line builders for the pods and Jobs of the controller helper tests.

``pod("p1").running().on("node-1").ready(since=T0 - 60).restarts(2).build()`` reads like the
situation it sets up. Builders are mutable and chainable; ``build()`` returns the frozen
:class:`~k8sjobs.api.types.Pod`. All times are simulated seconds around :data:`T0`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from k8sjobs.api.types import (
    JOB_COMPLETION_INDEX_ANNOTATION,
    JOB_INDEX_FAILURE_COUNT_ANNOTATION,
    JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION,
    JOB_TRACKING_FINALIZER,
    CompletionMode,
    ConditionStatus,
    Container,
    ContainerState,
    ContainerStateRunning,
    ContainerStateTerminated,
    ContainerStatus,
    Job,
    JobSpec,
    JobStatus,
    ObjectMeta,
    Phase,
    Pod,
    PodCondition,
    PodConditionType,
    PodFailurePolicy,
    PodFailurePolicyOnExitCodesRequirement,
    PodFailurePolicyOnPodConditionsPattern,
    PodFailurePolicyRule,
    PodSpec,
    PodStatus,
)

T0 = 1_000.0
"""The "now" of the tests."""


class PodBuilder:
    """Chainable description of one pod; see :func:`pod`."""

    def __init__(self, name: str) -> None:
        self._name = name
        self._uid = f"uid-{name}"
        self._phase = Phase.RUNNING
        self._node = "node-1"
        self._created: float | None = T0 - 1000
        self._deleted: float | None = None
        self._grace: int | None = None
        self._annotations: dict[str, str] = {}
        self._finalizers: tuple[str, ...] = (JOB_TRACKING_FINALIZER,)
        self._conditions: list[PodCondition] = []
        self._containers: list[tuple[Container, ContainerStatus]] = []
        self._inits: list[tuple[Container, ContainerStatus]] = []

    # metadata -----------------------------------------------------------------------
    def created(self, t: float | None) -> PodBuilder:
        """creationTimestamp (None = unset)."""
        self._created = t
        return self

    def deleting(self, at: float = T0, grace: int | None = None) -> PodBuilder:
        """deletionTimestamp (and deletionGracePeriodSeconds)."""
        self._deleted, self._grace = at, grace
        return self

    def index(self, ix: int | str | None) -> PodBuilder:
        """The completion-index annotation (None removes it)."""
        if ix is None:
            self._annotations.pop(JOB_COMPLETION_INDEX_ANNOTATION, None)
        else:
            self._annotations[JOB_COMPLETION_INDEX_ANNOTATION] = str(ix)
        return self

    def failure_count(self, n: int | str) -> PodBuilder:
        """The job-index-failure-count annotation."""
        self._annotations[JOB_INDEX_FAILURE_COUNT_ANNOTATION] = str(n)
        return self

    def ignored_failure_count(self, n: int | str) -> PodBuilder:
        """The job-index-ignored-failure-count annotation."""
        self._annotations[JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION] = str(n)
        return self

    def annotation(self, key: str, value: str) -> PodBuilder:
        """Any annotation."""
        self._annotations[key] = value
        return self

    def no_finalizer(self) -> PodBuilder:
        """Without the tracking finalizer (already counted)."""
        self._finalizers = ()
        return self

    # spec and status ------------------------------------------------------------------
    def phase(self, phase: str) -> PodBuilder:
        """status.phase."""
        self._phase = phase
        return self

    def pending(self) -> PodBuilder:
        """Phase Pending."""
        return self.phase(Phase.PENDING)

    def running(self) -> PodBuilder:
        """Phase Running."""
        return self.phase(Phase.RUNNING)

    def failed(self) -> PodBuilder:
        """Phase Failed."""
        return self.phase(Phase.FAILED)

    def succeeded(self) -> PodBuilder:
        """Phase Succeeded."""
        return self.phase(Phase.SUCCEEDED)

    def on(self, node: str) -> PodBuilder:
        """spec.nodeName ("" = not scheduled)."""
        self._node = node
        return self

    def unscheduled(self) -> PodBuilder:
        """No node."""
        return self.on("")

    def condition(self, ctype: str, status: str = ConditionStatus.TRUE, at: float | None = None) -> PodBuilder:
        """Append a pod condition."""
        self._conditions.append(PodCondition(type=ctype, status=status, last_transition_time=at))
        return self

    def ready(self, since: float | None = None) -> PodBuilder:
        """Ready=True since ``since`` (None = zero time)."""
        return self.condition(PodConditionType.READY, ConditionStatus.TRUE, since)

    def not_ready(self, since: float | None = None) -> PodBuilder:
        """Ready=False since ``since``."""
        return self.condition(PodConditionType.READY, ConditionStatus.FALSE, since)

    def restarts(self, *counts: int) -> PodBuilder:
        """One running regular container per count, with that restartCount."""
        for n in counts:
            name = f"c{len(self._containers)}"
            state = ContainerState(running=ContainerStateRunning())
            self._containers.append((Container(name=name), ContainerStatus(name=name, restart_count=n, state=state)))
        return self

    def sidecar_restarts(self, *counts: int) -> PodBuilder:
        """One sidecar (restartPolicy Always init container) per count."""
        for n in counts:
            name = f"s{len(self._inits)}"
            self._inits.append((Container(name=name, restart_policy="Always"), ContainerStatus(name=name, restart_count=n)))
        return self

    def init_restarts(self, *counts: int) -> PodBuilder:
        """One ordinary init container per count."""
        for n in counts:
            name = f"i{len(self._inits)}"
            self._inits.append((Container(name=name), ContainerStatus(name=name, restart_count=n)))
        return self

    def container(self, name: str, *, exit_code: int | None = None, finished_at: float | None = None,
                  running: bool = False, init: bool = False, sidecar: bool = False) -> PodBuilder:
        """A container (``init``/``sidecar``: an init container) that runs, or terminated with ``exit_code``."""
        if running:
            state = ContainerState(running=ContainerStateRunning())
        else:
            state = ContainerState(terminated=ContainerStateTerminated(exit_code=exit_code or 0, finished_at=finished_at))
        spec = Container(name=name, restart_policy="Always" if sidecar else None)
        entry = (spec, ContainerStatus(name=name, state=state))
        (self._inits if init or sidecar else self._containers).append(entry)
        return self

    def exit_code(self, code: int, name: str = "main", finished_at: float | None = T0) -> PodBuilder:
        """A regular container that terminated with ``code``."""
        return self.container(name, exit_code=code, finished_at=finished_at)

    def finished_at(self, t: float) -> PodBuilder:
        """A regular container that terminated (exit code 1) at ``t``."""
        return self.container(f"c{len(self._containers)}", exit_code=1, finished_at=t)

    def build(self) -> Pod:
        """The frozen Pod."""
        containers = tuple(c for c, _ in self._containers) or (Container(name="main"),)
        return Pod(
            metadata=ObjectMeta(
                name=self._name, namespace="default", uid=self._uid,
                creation_timestamp=self._created, deletion_timestamp=self._deleted,
                deletion_grace_period_seconds=self._grace,
                annotations=dict(self._annotations), finalizers=self._finalizers,
            ),
            spec=PodSpec(containers=containers, init_containers=tuple(c for c, _ in self._inits) or None,
                         node_name=self._node),
            status=PodStatus(
                phase=self._phase, conditions=tuple(self._conditions),
                container_statuses=tuple(s for _, s in self._containers),
                init_container_statuses=tuple(s for _, s in self._inits),
            ),
        )


def pod(name: str = "p") -> PodBuilder:
    """A running, scheduled pod with the tracking finalizer, created 1000 s before T0."""
    return PodBuilder(name)


def job(
    *,
    completions: int | None = 5,
    indexed: bool = True,
    backoff_limit_per_index: int | None = None,
    pod_failure_policy: PodFailurePolicy | None = None,
    pod_replacement_policy: str | None = None,
    completed_indexes: str = "",
    failed_indexes: str | None = None,
    **spec: Any,
) -> Job:
    """A Job (Indexed by default) with the given spec and recorded indexes."""
    mode = CompletionMode.INDEXED if indexed else CompletionMode.NON_INDEXED
    return Job(
        metadata=ObjectMeta(name="job", namespace="default", uid="uid-job"),
        spec=JobSpec(
            completions=completions, parallelism=completions, completion_mode=mode,
            backoff_limit_per_index=backoff_limit_per_index, pod_failure_policy=pod_failure_policy,
            pod_replacement_policy=pod_replacement_policy, **spec,
        ),
        status=JobStatus(completed_indexes=completed_indexes, failed_indexes=failed_indexes),
    )


def on_exit_codes(action: str, operator: str, *values: int, container: str | None = None) -> PodFailurePolicyRule:
    """A podFailurePolicy rule on exit codes."""
    return PodFailurePolicyRule(
        action=action,
        on_exit_codes=PodFailurePolicyOnExitCodesRequirement(container_name=container, operator=operator, values=values),
    )


def on_conditions(action: str, *patterns: tuple[str, str]) -> PodFailurePolicyRule:
    """A podFailurePolicy rule on pod conditions ``(type, status)``."""
    return PodFailurePolicyRule(
        action=action,
        on_pod_conditions=tuple(PodFailurePolicyOnPodConditionsPattern(type=t, status=s) for t, s in patterns),
    )


def policy(*rules: PodFailurePolicyRule) -> PodFailurePolicy:
    """A podFailurePolicy."""
    return PodFailurePolicy(rules=rules)


def with_status(j: Job, **status: Any) -> Job:
    """``j`` with some status fields replaced."""
    return replace(j, status=replace(j.status, **status))
