"""The Job controller (mirrors pkg/controller/job/job_controller.go, Kubernetes 1.35 line).

Every function with an upstream twin carries its snake_case name and says so. The
controller sees the world only through:

* ``jobs`` and ``pods``: informer listers (:class:`~k8sjobs.api.informer.Informer`),
* ``pod_control``: creates, deletes and finalizer patches (:mod:`..controller_utils`),
* ``job_client``: status writes and live reads of Jobs,
* ``clock``: simulated time, and ``recorder`` for Events.

Each decision is reported through ``emit(rule_id, **numbers)`` (its sentence is a template in
k8sjobs/trace/reasons.py, rendered when shown) so a
learner can see *why*: which rule created, deleted, waited or set a condition.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Protocol

from ...api.apierrors import APIError, has_namespace_terminating_cause, is_not_found
from ...api.events import NORMAL, WARNING, EventRecorder
from ...api.informer import EventHandlers, Informer
from ...api.labels import selector_matches
from ...api.types import (
    JOB_COMPLETION_INDEX_ANNOTATION,
    JOB_COMPLETION_INDEX_ENV,
    JOB_CONTROLLER_NAME,
    JOB_INDEX_FAILURE_COUNT_ANNOTATION,
    JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION,
    JOB_TRACKING_FINALIZER,
    CompletionMode,
    ConditionStatus,
    EnvVar,
    Job,
    JobCondition,
    JobConditionType,
    JobReason,
    OwnerReference,
    Phase,
    Pod,
    PodReplacementPolicy,
    PodTemplateSpec,
    UncountedTerminatedPods,
    evolve,
)
from ...clock import Clock
from ...hooks import Emit, null_emit
from ..controller_utils import (
    ControllerExpectations,
    PodControl,
    deciding_rule,
    key_func,
    new_controller_ref,
    ready_since,
    sort_active_pods,
    split_key,
    with_finalizer,
)
from ..pod_util import is_pod_ready, is_pod_terminating
from ..workqueue import RateLimitingQueue
from . import backoff_utils as bu
from . import indexed_job_utils as iju
from .pod_failure_policy import match_pod_failure_policy
from .success_policy import match_success_policy
from .tracking_utils import UIDTrackingExpectations
from .util.utils import is_job_finished

SYNC_JOB_BATCH_PERIOD = 1.0
"""syncJobBatchPeriod: pod events and status-only Job updates are batched for 1 s."""
MAX_UNCOUNTED_PODS = 500
MAX_POD_CREATE_DELETE_PER_SYNC = 500
SLOW_START_INITIAL_BATCH_SIZE = 1
MAX_GENERATED_NAME_LENGTH = 58
UNKNOWN_COMPLETION_INDEX = -1

MSG_BACKOFF_LIMIT = "Job has reached the specified backoff limit"
MSG_DEADLINE = "Job was active longer than specified deadline"
MSG_MAX_FAILED_INDEXES = "Job has exceeded the specified maximal number of failed indexes"
MSG_FAILED_INDEXES = "Job has failed indexes"
MSG_COMPLETIONS_REACHED = "Reached expected number of succeeded pods"


class JobClient(Protocol):
    """The Job API the controller writes through."""

    def update_status(self, job: Job) -> Job:
        """UpdateStatus (optimistic concurrency on resourceVersion); raises APIError."""
        ...

    def get(self, namespace: str, name: str) -> Job:
        """A live GET; raises APIError."""
        ...


class StoreJobClient:
    """:class:`JobClient` over the in-memory API server."""

    def __init__(self, store: Any) -> None:
        self.store = store

    def update_status(self, job: Job) -> Job:
        """Write the status subresource."""
        return self.store.update_status(job)

    def get(self, namespace: str, name: str) -> Job:
        """Read the Job from the server, not the cache."""
        return self.store.get("Job", namespace, name)

    def delete_job(self, namespace: str, name: str, *, propagation: str = "Background",
                   precondition_uid: str | None = None) -> None:
        """Delete the Job (the ttl-after-finished controller uses Foreground and a UID precondition)."""
        self.store.delete("Job", namespace, name, propagation=propagation, precondition_uid=precondition_uid)


# ---------------------------------------------------------------------------- small predicates


def find_condition_by_type(conditions: tuple[JobCondition, ...], ctype: str) -> JobCondition | None:
    """The first condition of ``ctype`` (mirrors findConditionByType)."""
    for c in conditions:
        if c.type == ctype:
            return c
    return None


def job_suspended(job: Job) -> bool:
    """spec.suspend is true."""
    return bool(job.spec.suspend)


def managed_by_external_controller(job: Job) -> str | None:
    """The external controller named in spec.managedBy, if any (mirrors managedByExternalController)."""
    mb = job.spec.managed_by
    if mb is not None and mb != JOB_CONTROLLER_NAME:
        return mb
    return None


def has_job_tracking_finalizer(pod: Pod) -> bool:
    """The pod still carries batch.kubernetes.io/job-tracking."""
    return JOB_TRACKING_FINALIZER in pod.metadata.finalizers


def only_replace_failed_pods(job: Job) -> bool:
    """podReplacementPolicy is Failed (mirrors onlyReplaceFailedPods, master)."""
    return job.spec.pod_replacement_policy == PodReplacementPolicy.FAILED


def is_pod_failed(pod: Pod, job: Job) -> bool:
    """Phase Failed; or, unless only Failed pods are replaced, being deleted without having succeeded."""
    if pod.status.phase == Phase.FAILED:
        return True
    if only_replace_failed_pods(job):
        return False
    # Count deleted pods as failures: an orphaned pod may never reach phase Failed.
    return pod.metadata.deletion_timestamp is not None and pod.status.phase != Phase.SUCCEEDED


def new_condition(ctype: str, status: str, reason: str, message: str, now: float) -> JobCondition:
    """A condition with both times set to now (mirrors newCondition)."""
    return JobCondition(type=ctype, status=status, reason=reason, message=message,
                        last_probe_time=now, last_transition_time=now)


def new_failed_condition_for_failure_target(cond: JobCondition, now: float) -> JobCondition:
    """Failed with the FailureTarget's reason and message."""
    return new_condition(JobConditionType.FAILED, ConditionStatus.TRUE, cond.reason, cond.message, now)


def is_success_criteria_met_condition(cond: JobCondition | None) -> bool:
    """A SuccessCriteriaMet=True condition."""
    return cond is not None and cond.type == JobConditionType.SUCCESS_CRITERIA_MET and cond.status == ConditionStatus.TRUE


def has_success_criteria_met_condition(job: Job) -> JobCondition | None:
    """The Job's SuccessCriteriaMet=True condition, if any (mirrors hasSuccessCriteriaMetCondition)."""
    return success_criteria_met_in(job.status.conditions)


def success_criteria_met_in(conditions: tuple[JobCondition, ...]) -> JobCondition | None:
    """The SuccessCriteriaMet=True condition among ``conditions``: what has_success_criteria_met_condition
    answers for a Job holding them (asked of a status being built, with no Job copied for it)."""
    c = find_condition_by_type(conditions, JobConditionType.SUCCESS_CRITERIA_MET)
    return c if c is not None and c.status == ConditionStatus.TRUE else None


def ensure_job_condition_status(conditions: tuple[JobCondition, ...], ctype: str, status: str, reason: str,
                                message: str, now: float) -> tuple[tuple[JobCondition, ...], bool]:
    """Update a condition in place when it differs; never add a False one (mirrors ensureJobConditionStatus)."""
    for i, c in enumerate(conditions):
        if c.type == ctype:
            if c.status != status or c.reason != reason or c.message != message:
                new = new_condition(ctype, status, reason, message, now)
                return conditions[:i] + (new,) + conditions[i + 1:], True
            return conditions, False
    if status != ConditionStatus.FALSE:
        return (*conditions, new_condition(ctype, status, reason, message, now)), True
    return conditions, False


def past_backoff_limit_on_failure(job: Job, pods: list[Pod]) -> bool:
    """restartPolicy OnFailure: restarts of pending/running pods reach backoffLimit (mirrors pastBackoffLimitOnFailure)."""
    if job.spec.template.spec.restart_policy != "OnFailure":
        return False
    restarts = 0
    for p in pods:
        if p.status.phase in (Phase.RUNNING, Phase.PENDING):
            restarts += sum(s.restart_count for s in p.status.init_container_statuses)
            restarts += sum(s.restart_count for s in p.status.container_statuses)
    limit = job.spec.backoff_limit or 0
    if limit == 0:
        return restarts > 0
    return restarts >= limit


def restart_total(pods: list[Pod]) -> int:
    """Container restarts summed over pending and running pods (what OnFailure counts)."""
    return sum(s.restart_count for p in pods if p.status.phase in (Phase.RUNNING, Phase.PENDING)
               for s in (*p.status.init_container_statuses, *p.status.container_statuses))


JOB_POD_INDEX = "job-pods"
SETTLED_SUCCEEDED = "#settled-succeeded"
SETTLED_FAILED = "#settled-failed"


def job_pod_index(pod: Pod) -> list[str]:
    """Index pods by their controller's UID; orphans under "".

    A pod that finished and lost its tracking finalizer is *settled*: it is counted in the
    Job status and changes nothing any more, so it goes to a separate bucket. Every step of
    sync_job reads only the live bucket, except the FailJob scan, which also reads the
    settled failed pods; that keeps a sync proportional to the pods still in play.
    (Upstream lists all pods; the outcome is the same, except that a settled pod relabelled
    out of the selector is not released.)
    """
    for ref in pod.metadata.owner_references:
        if ref.controller:
            if pod.status.phase in (Phase.SUCCEEDED, Phase.FAILED) and \
                    JOB_TRACKING_FINALIZER not in pod.metadata.finalizers:
                return [ref.uid + (SETTLED_FAILED if pod.status.phase == Phase.FAILED else SETTLED_SUCCEEDED)]
            return [ref.uid]
    return [""]


def pod_facts(pod: Pod) -> dict[str, Any]:
    """What the deletion order looks at, for one pod (reported with a scale-down)."""
    return {"name": pod.metadata.name, "node": pod.spec.node_name, "phase": pod.status.phase or Phase.PENDING,
            "ready": is_pod_ready(pod), "readySince": ready_since(pod) if is_pod_ready(pod) else None,
            "restarts": max((s.restart_count for s in pod.status.container_statuses), default=0),
            "created": pod.metadata.creation_timestamp,
            "index": pod.metadata.annotations.get(JOB_COMPLETION_INDEX_ANNOTATION)}


def pod_generate_name_with_index(job_name: str, index: int) -> str:
    """``<job>-<index>-`` with the job name cut so the prefix fits 58 characters."""
    suffix = f"-{index}-"
    prefix = job_name + suffix
    if len(prefix) > MAX_GENERATED_NAME_LENGTH:
        prefix = job_name[:MAX_GENERATED_NAME_LENGTH - len(suffix)] + suffix
    return prefix


def add_completion_index_env_variables(template: PodTemplateSpec) -> PodTemplateSpec:
    """Add JOB_COMPLETION_INDEX (from the index label) to every container that lacks it."""
    ref = EnvVar(name=JOB_COMPLETION_INDEX_ENV, value_from={
        "fieldRef": {"fieldPath": f"metadata.labels['{JOB_COMPLETION_INDEX_ANNOTATION}']"}})

    def fix(containers: tuple) -> tuple:
        out = []
        for c in containers:
            env = c.env or ()
            if not any(e.name == JOB_COMPLETION_INDEX_ENV for e in env):
                c = evolve(c, env=(*env, ref))
            out.append(c)
        return tuple(out)

    spec = template.spec
    spec = evolve(spec, containers=fix(spec.containers),
                   init_containers=fix(spec.init_containers) if spec.init_containers else spec.init_containers)
    return evolve(template, spec=spec)


# ---------------------------------------------------------------------------- which active pods to delete

ALL_REMAINING = "all"
"""The pseudo rule of a pod removed because every remaining pod had to go."""


def _split_for_removal(job: Job, pods: list[Pod]) -> tuple[list[tuple[Pod, str]], list[Pod]]:
    if iju.is_indexed_job(job):
        return iju.append_duplicated_index_pods_for_removal(pods, job.spec.completions or 0)
    return [], list(pods)


def active_pods_for_removal(job: Job, pods: list[Pod], rm_at_least: int) -> list[Pod]:
    """The active pods to delete; mirrors ``activePodsForRemoval`` in job_controller.go.

    ``pods`` are the Job's ACTIVE pods. Indexed Jobs first remove, whatever ``rm_at_least``
    says, pods with a missing/invalid/negative index, pods with index >= completions, and
    all but one pod of each duplicated index. If that is fewer than ``rm_at_least``, the
    rest are taken in deletion order (:func:`~k8sjobs.controller.controller_utils.active_pods_sort_key`):
    unassigned before assigned, Pending before Unknown before Running, not-ready before ready,
    and so on.
    """
    prestep, left = _split_for_removal(job, pods)
    rm = [p for p, _ in prestep]
    if len(rm) < rm_at_least:
        rm.extend(sort_active_pods(left)[: rm_at_least - len(rm)])
    return rm


@dataclass(frozen=True, slots=True)
class RemovalPlan:
    """Why :func:`active_pods_for_removal` picks the pods it picks, for lessons and traces.

    Language-neutral: rule ids and their numbers; :func:`k8sjobs.trace.reasons.removal_reasons`
    and :func:`~k8sjobs.trace.reasons.removal_text` render it.

    * ``to_delete``: the pods deleted, in order (the same list as ``active_pods_for_removal``).
    * ``prestep``: ``(pod_name, rule_id)`` for each Indexed pre-step removal.
    * ``ranking``: the remaining candidates in deletion order (first = deleted first).
    * ``pair_rules``: for each adjacent pair of ``ranking``, the id of the rule that orders them.
    * ``why``: pod name -> (the rule that picked it, its numbers), for every pod of ``to_delete``.
    """

    to_delete: tuple[Pod, ...]
    prestep: tuple[tuple[str, str], ...]
    ranking: tuple[Pod, ...]
    pair_rules: tuple[str | None, ...]
    why: dict[str, tuple[str, dict[str, Any]]]

    @property
    def deleted_names(self) -> list[str]:
        """Names of ``to_delete``, in deletion order."""
        return [p.metadata.name for p in self.to_delete]

    @property
    def order(self) -> list[Pod]:
        """Every pod in the order it would go if more and more had to be removed."""
        return [*self.to_delete[: len(self.prestep)], *self.ranking]


def plan_removal(job: Job, pods: list[Pod], rm_at_least: int) -> RemovalPlan:
    """:func:`active_pods_for_removal` with its reasons (see :class:`RemovalPlan`)."""
    prestep, left = _split_for_removal(job, pods)
    ranking = sort_active_pods(left)
    need = max(rm_at_least - len(prestep), 0)
    picked = ranking[:need]
    why: dict[str, tuple[str, dict[str, Any]]] = {}
    for p, rule_id in prestep:
        why[p.metadata.name] = (rule_id, {"index": iju.get_completion_index(p.metadata.annotations),
                                          "completions": job.spec.completions or 0})
    first_kept = ranking[need] if need < len(ranking) else None
    for pod in picked:
        if first_kept is None:
            why[pod.metadata.name] = (ALL_REMAINING, {})
        else:
            why[pod.metadata.name] = (deciding_rule(pod, first_kept) or "name", {})
    return RemovalPlan(
        to_delete=tuple([p for p, _ in prestep] + picked),
        prestep=tuple((p.metadata.name, rule_id) for p, rule_id in prestep),
        ranking=tuple(ranking),
        pair_rules=tuple(deciding_rule(a, b) for a, b in itertools.pairwise(ranking)),
        why=why,
    )


# ---------------------------------------------------------------------------- sync context


@dataclass(slots=True)
class SyncJobCtx:
    """What one sync knows (mirrors syncJobCtx)."""

    job: Job
    pods: list[Pod]
    active_pods: list[Pod]
    uncounted_succeeded: set[str]
    uncounted_failed: set[str]
    expected_rm_finalizers: frozenset[str]
    terminating: int = 0
    ready: int = 0
    succeeded: int = 0
    finished_condition: JobCondition | None = None
    new_backoff_record: bu.BackoffRecord | None = None
    prev_succeeded_indexes: iju.OrderedIntervals | None = None
    succeeded_indexes: iju.OrderedIntervals | None = None
    failed_indexes: iju.OrderedIntervals | None = None
    pods_with_delayed_deletion_per_index: dict[int, Pod] = field(default_factory=dict)
    # Filled by classify_pods in the same pass (not in upstream's syncJobCtx): pods by phase
    # for the trace, the UIDs still carrying the tracking finalizer (and not expected to
    # lose it), and those of them already terminal or being deleted, in pod order.
    by_phase: dict[str, int] = field(default_factory=dict)
    tracked_uids: set[str] = field(default_factory=set)
    tracked_done: list[Pod] = field(default_factory=list)


@dataclass(slots=True)
class SyncResult:
    """What one sync did, for traces (not part of upstream)."""

    key: str
    created: list[str] = field(default_factory=list)
    created_indexes: list[int] = field(default_factory=list)
    create_attempts: int = 0
    deleted: list[str] = field(default_factory=list)
    delete_attempts: int = 0
    finalizer_patches: int = 0
    status_writes: int = 0
    conditions_added: list[str] = field(default_factory=list)
    requeue_after: float | None = None
    error: str | None = None
    skipped: str | None = None


def always_listening() -> bool:
    """The default of :attr:`JobController.listening`: every report is made."""
    return True


class JobController:
    """The Job controller: event handlers, work queue, ``sync_job`` and ``manage_job``."""

    def __init__(self, *, jobs: Informer, pods: Informer, pod_control: PodControl, job_client: JobClient,
                 clock: Clock, recorder: EventRecorder, queue: RateLimitingQueue | None = None,
                 orphan_queue: RateLimitingQueue | None = None, emit: Emit = null_emit,
                 register_handlers: bool = True, listening: Callable[[], bool] = always_listening) -> None:
        self.jobs = jobs
        self.pods = pods
        self.pod_control = pod_control
        self.job_client = job_client
        self.clock = clock
        self.recorder = recorder
        self.queue = queue if queue is not None else RateLimitingQueue(clock)
        self.orphan_queue = orphan_queue if orphan_queue is not None else RateLimitingQueue(clock)
        self.emit = emit
        # self._say(rule, **fields): language-neutral, the rule id and its fields (k8sjobs.trace.reasons
        # renders the sentence). The hook itself, not a method passing it on: it is called ~10 times a sync.
        self._say: Emit = emit
        self.listening = listening
        """Whether anyone reads what is reported only for a trace: ``sync.observed`` (every pod counted by
        phase, the expectations, the backoff record) and the details of ``sync.end``. A headless run skips
        building them. Decisions, and ``sync.begin`` / ``sync.end`` themselves (the cycles a run's budget
        counts), are reported either way."""
        self.expectations = ControllerExpectations(clock)
        self.finalizer_expectations = UIDTrackingExpectations()
        self.pod_backoff_store = bu.BackoffStore()
        self.update_status_handler: Callable[[Job], Job] = job_client.update_status
        self.last_result: SyncResult | None = None
        self._result: SyncResult | None = None
        pods.add_indexer(JOB_POD_INDEX, job_pod_index)
        if register_handlers:
            pods.add_event_handler(EventHandlers(
                on_add=self.add_pod, on_update=self.update_pod,
                on_delete=partial(self.delete_pod, final=True)))
            jobs.add_event_handler(EventHandlers(
                on_add=self.add_job, on_update=self.update_job, on_delete=self.delete_job))

    # ------------------------------------------------------------------ reporting

    # ------------------------------------------------------------------ lookups

    def resolve_controller_ref(self, namespace: str, ref: OwnerReference) -> Job | None:
        """The Job a controllerRef points at, if it is in the cache with the same UID."""
        if ref.kind != "Job":
            return None
        job = self.jobs.get(namespace, ref.name)
        if job is None or job.metadata.uid != ref.uid:
            return None
        return job

    def get_pod_jobs(self, pod: Pod) -> list[Job]:
        """Jobs whose selector matches the pod's labels (mirrors GetPodJobs)."""
        if not pod.metadata.labels:
            return []
        return [j for j in self.jobs.list(pod.metadata.namespace)
                if j.spec.selector is not None and (j.spec.selector.match_labels or j.spec.selector.match_expressions)
                and selector_matches(j.spec.selector, pod.metadata.labels)]

    def _owned_pods(self, job: Job) -> list[Pod]:
        """Live pods whose controllerRef is this Job, in creation order (settled ones aside)."""
        return self.pods.by_index(JOB_POD_INDEX, job.metadata.uid)

    @staticmethod
    def _controller_of(pod: Pod) -> OwnerReference | None:
        for ref in pod.metadata.owner_references:
            if ref.controller:
                return ref
        return None

    # ------------------------------------------------------------------ enqueueing

    def enqueue_sync_job_immediately(self, job: Job) -> None:
        """Sync now (Job added, deleted or its spec changed)."""
        self.queue.add_after(key_func(job), 0)

    def enqueue_sync_job_batched(self, job: Job) -> None:
        """Sync in 1 s, folding the burst of pod events into one sync."""
        self.queue.add_after(key_func(job), SYNC_JOB_BATCH_PERIOD)

    def enqueue_sync_job_with_delay(self, job: Job, delay: float) -> None:
        """Sync after ``delay`` (at least 1 s): pod-failure backoff."""
        self.queue.add_after(key_func(job), max(delay, SYNC_JOB_BATCH_PERIOD))

    def enqueue_orphan_pod(self, pod: Pod) -> None:
        """Queue a pod whose tracking finalizer nobody else will remove."""
        self.orphan_queue.add(key_func(pod))

    # ------------------------------------------------------------------ pod handlers

    def add_pod(self, pod: Pod) -> None:
        """A pod appeared (mirrors addPod): observe a creation and sync its Job in 1 s."""
        if pod.metadata.deletion_timestamp is not None:
            # A pod that shows up already deleting is not a creation we expected.
            self.delete_pod(pod, final=False)
            return
        ref = self._controller_of(pod)
        if ref is not None:
            job = self.resolve_controller_ref(pod.metadata.namespace, ref)
            if job is None:
                return
            key = key_func(job)
            self.expectations.creation_observed(key)
            self._say("expectations.creation_observed", job=key, pod=pod.metadata.name)
            self.enqueue_sync_job_batched(job)
            return
        if has_job_tracking_finalizer(pod):
            self.enqueue_orphan_pod(pod)
        for job in self.get_pod_jobs(pod):
            self.enqueue_sync_job_batched(job)

    def update_pod(self, old: Pod, cur: Pod) -> None:
        """A pod changed (mirrors updatePod)."""
        if cur.metadata.resource_version == old.metadata.resource_version:
            return
        if cur.metadata.deletion_timestamp is not None:
            # Graceful deletion: act on the deletionTimestamp, not on the final removal.
            self.delete_pod(cur, final=False)
            return
        finalizer_removed = not has_job_tracking_finalizer(cur)
        cur_ref = self._controller_of(cur)
        old_ref = self._controller_of(old)
        ref_changed = cur_ref is not old_ref and cur_ref != old_ref
        if ref_changed and old_ref is not None:
            job = self.resolve_controller_ref(old.metadata.namespace, old_ref)
            if job is not None:
                if finalizer_removed:
                    self.finalizer_expectations.finalizer_removal_observed(key_func(job), cur.metadata.uid)
                self.enqueue_sync_job_batched(job)
        if cur_ref is not None:
            job = self.resolve_controller_ref(cur.metadata.namespace, cur_ref)
            if job is None:
                return
            if finalizer_removed:
                self.finalizer_expectations.finalizer_removal_observed(key_func(job), cur.metadata.uid)
            self.enqueue_sync_job_batched(job)
            return
        if has_job_tracking_finalizer(cur):
            self.enqueue_orphan_pod(cur)
        if cur.metadata.labels != old.metadata.labels or ref_changed:
            for job in self.get_pod_jobs(cur):
                self.enqueue_sync_job_batched(job)

    def delete_pod(self, pod: Pod, final: bool) -> None:
        """A pod is being deleted or is gone (mirrors deletePod)."""
        ref = self._controller_of(pod)
        has_finalizer = has_job_tracking_finalizer(pod)
        if ref is None:
            if has_finalizer:
                self.enqueue_orphan_pod(pod)
            return
        job = self.resolve_controller_ref(pod.metadata.namespace, ref)
        if job is None or is_job_finished(job):
            if has_finalizer:
                self.enqueue_orphan_pod(pod)
            return
        key = key_func(job)
        self.expectations.deletion_observed(key)
        self._say("expectations.deletion_observed", job=key, pod=pod.metadata.name, final=final)
        if final or not has_finalizer:
            self.finalizer_expectations.finalizer_removal_observed(key, pod.metadata.uid)
        self.enqueue_sync_job_batched(job)

    # ------------------------------------------------------------------ job handlers

    def add_job(self, job: Job) -> None:
        """A Job appeared: sync it now."""
        self.enqueue_sync_job_immediately(job)

    def update_job(self, old: Job, cur: Job) -> None:
        """A Job changed (mirrors updateJob): spec changes sync now, status-only changes in 1 s."""
        key = key_func(cur)
        if cur.metadata.generation == old.metadata.generation:
            self.enqueue_sync_job_batched(cur)
        else:
            self.enqueue_sync_job_immediately(cur)
        if is_job_finished(cur):
            self.cleanup_pod_finalizers(cur)
        if cur.status.start_time is not None:
            cur_ads = cur.spec.active_deadline_seconds
            if cur_ads is None:
                return
            old_ads = old.spec.active_deadline_seconds
            if old_ads is None or old_ads != cur_ads:
                passed = self.clock.now() - cur.status.start_time
                self.queue.add_after(key, cur_ads - passed)

    def delete_job(self, job: Job) -> None:
        """A Job is gone: sync (to forget it) and clean its pods' finalizers."""
        self.enqueue_sync_job_immediately(job)
        self.cleanup_pod_finalizers(job)

    def cleanup_pod_finalizers(self, job: Job) -> None:
        """Queue the finalizer removal of every pod of a finished or deleted Job."""
        for pod in self._owned_pods(job):
            if any(r.uid == job.metadata.uid and r.controller for r in pod.metadata.owner_references) \
                    and has_job_tracking_finalizer(pod):
                self.enqueue_orphan_pod(pod)

    # ------------------------------------------------------------------ workers

    def process_next_work_item(self) -> bool:
        """Take one key, sync it, requeue with rate limit on error (mirrors processNextWorkItem)."""
        key = self.queue.get()
        if key is None:
            return False
        try:
            err = self.sync_job(key)
            if err is None:
                self.queue.forget(key)
            else:
                delay = self.queue.add_rate_limited(key)
                self._say("sync.error", job=key, error=str(err), retry_in=delay)
        finally:
            self.queue.done(key)
        return True

    def process_next_orphan_pod(self) -> bool:
        """Take one orphan pod key and remove its finalizer (mirrors processNextOrphanPod)."""
        key = self.orphan_queue.get()
        if key is None:
            return False
        try:
            err = self.sync_orphan_pod(key)
            if err is None:
                self.orphan_queue.forget(key)
            else:
                self.orphan_queue.add_rate_limited(key)
        finally:
            self.orphan_queue.done(key)
        return True

    def sync_orphan_pod(self, key: str) -> APIError | None:
        """Remove the tracking finalizer of a pod no live Job will count (mirrors syncOrphanPod)."""
        ns, name = split_key(key)
        pod = self.pods.get(ns, name)
        if pod is None:
            return None
        ref = self._controller_of(pod)
        if ref is not None:
            if ref.kind != "Job" or ref.api_version != "batch/v1":
                return None
            job = self.resolve_controller_ref(ns, ref)
            if job is not None and managed_by_external_controller(job) is not None:
                return None
            if job is not None and not is_job_finished(job):
                return None
        if has_job_tracking_finalizer(pod):
            try:
                self.pod_control.remove_finalizer(ns, name, JOB_TRACKING_FINALIZER)
            except APIError as exc:
                if not is_not_found(exc):
                    return exc
        return None

    # ------------------------------------------------------------------ sync_job

    def sync_job(self, key: str) -> Exception | None:
        """Reconcile one Job (mirrors syncJob). Returns the error upstream would return, or None."""
        self._result = result = SyncResult(key)
        say = self._say
        say("sync.begin", job=key)
        try:
            err = self._sync_job(key)
        except APIError as exc:  # an unexpected API failure is a sync error, as upstream returns it
            err = exc
        if err is not None:
            result.error = str(err)
        self.last_result = result
        if not self.listening():
            say("sync.end", job=key)  # the end of a cycle, which a run's budget counts; its details are for a trace
            return err
        expectations = self.expectations
        exp = expectations.get_expectations(key)
        say("sync.end", job=key, case="" if err is None else "error",
            error=result.error, created=list(result.created), deleted=list(result.deleted),
            requeue_after=result.requeue_after, expect_add=exp.add if exp else 0,
            expect_del=exp.dele if exp else 0, expect_since=exp.timestamp if exp else None,
            satisfied=expectations.satisfied_expectations(key))
        return err

    def _sync_job(self, key: str) -> Exception | None:
        ns, name = split_key(key)
        shared = self.jobs.get(ns, name)
        if shared is None:
            self.expectations.delete_expectations(key)
            self.finalizer_expectations.delete_expectations(key)
            self.pod_backoff_store.remove_backoff_record(key)
            self._result.skipped = "not-found"
            self._say("sync.skip.not_found", job=key)
            return None
        mb = managed_by_external_controller(shared)
        if mb is not None:
            self._result.skipped = "managed-by"
            self._say("sync.skip.managed_by", job=key, managed_by=mb)
            return None
        job = shared
        if is_job_finished(job):
            self.pod_backoff_store.remove_backoff_record(key)
            self._result.skipped = "finished"
            self._say("sync.skip.finished", job=key)
            return None
        mode = job.spec.completion_mode
        if mode is not None and mode not in (CompletionMode.NON_INDEXED, CompletionMode.INDEXED):
            self.recorder.event(job, WARNING, "UnknownCompletionMode",
                                "Skipped Job sync because completion mode is unknown")
            self._result.skipped = "unknown-completion-mode"
            self._say("sync.skip.unknown_mode", job=key, mode=mode)
            return None
        if job.status.uncounted_terminated_pods is None:
            job = evolve(job, status=evolve(job.status, uncounted_terminated_pods=UncountedTerminatedPods()))

        # Check expectations before listing pods: a pod that appears after the check only
        # delays the work to a later sync, never makes the controller act twice.
        satisfied = self.expectations.satisfied_expectations(key)
        pods, claim_err = self.get_pods_for_job(job)
        if claim_err is not None:
            return claim_err
        uncounted = job.status.uncounted_terminated_pods
        ctx = SyncJobCtx(job=job, pods=pods, active_pods=[],
                         uncounted_succeeded=set(uncounted.succeeded), uncounted_failed=set(uncounted.failed),
                         expected_rm_finalizers=self.finalizer_expectations.get_expected_uids(key))
        new_succeeded, new_failed = self.classify_pods(ctx)
        active_pods = ctx.active_pods
        active = len(active_pods)
        succeeded = job.status.succeeded + len(new_succeeded) + len(ctx.uncounted_succeeded)
        failed = job.status.failed + self.non_ignored_failed_pods_count(ctx, new_failed) + len(ctx.uncounted_failed)
        ready = ctx.ready
        if self.listening():
            self._report_observed(ctx, key, satisfied, succeeded, failed, len(new_succeeded), len(new_failed), ready)
        if not satisfied:
            self._report_unsatisfied(key)

        if job.status.start_time is None and not job_suspended(job):
            job = evolve(job, status=evolve(job.status, start_time=self.clock.now()))
            ctx.job = job
            self._say("status.start_time", job=key, t=self.clock.now())

        ctx.new_backoff_record = self.pod_backoff_store.new_backoff_record(key, new_succeeded, new_failed)

        manage_job_err: Exception | None = None
        now = self.clock.now()
        backoff_limit = job.spec.backoff_limit if job.spec.backoff_limit is not None else 6
        exceeds_backoff_limit = failed > backoff_limit

        ctx.finished_condition = has_success_criteria_met_condition(job)
        if ctx.finished_condition is None:
            ft = find_condition_by_type(job.status.conditions, JobConditionType.FAILURE_TARGET)
            if ft is not None and ft.status == ConditionStatus.TRUE:
                ctx.finished_condition = new_failed_condition_for_failure_target(ft, now)
                self._say("decision.failure_target_exists", job=key, reason_code=ft.reason)
            elif job.spec.pod_failure_policy is not None:
                settled_failed = self.pods.by_index(JOB_POD_INDEX, job.metadata.uid + SETTLED_FAILED)
                msg = self.get_fail_job_message(job, pods + settled_failed)
                if msg is not None:
                    ctx.finished_condition = new_condition(JobConditionType.FAILURE_TARGET, ConditionStatus.TRUE,
                                                           JobReason.POD_FAILURE_POLICY, msg, now)
                    self._say("decision.pod_failure_policy.fail_job", job=key, message=msg)
        if ctx.finished_condition is None:
            if exceeds_backoff_limit or past_backoff_limit_on_failure(job, pods):
                ctx.finished_condition = new_condition(JobConditionType.FAILURE_TARGET, ConditionStatus.TRUE,
                                                       JobReason.BACKOFF_LIMIT_EXCEEDED, MSG_BACKOFF_LIMIT, now)
                if exceeds_backoff_limit:
                    self._say("decision.backoff_limit_exceeded", job=key, case="failed", failed=failed,
                              backoff_limit=backoff_limit)
                else:
                    self._say("decision.backoff_limit_exceeded", job=key, case="restarts", failed=failed,
                              backoff_limit=backoff_limit, restarts=restart_total(pods))
            elif self.past_active_deadline(job):
                ctx.finished_condition = new_condition(JobConditionType.FAILURE_TARGET, ConditionStatus.TRUE,
                                                       JobReason.DEADLINE_EXCEEDED, MSG_DEADLINE, now)
                self._say("decision.deadline_exceeded", job=key, active_for=now - job.status.start_time,
                          active_deadline_seconds=job.spec.active_deadline_seconds)
            elif job.spec.active_deadline_seconds is not None and not job_suspended(job):
                remaining = job.spec.active_deadline_seconds - (now - job.status.start_time)
                self.queue.add_after(key, remaining)
                self._say("deadline.requeue", job=key, delay=remaining)

        if iju.is_indexed_job(job):
            ctx.prev_succeeded_indexes, ctx.succeeded_indexes = iju.calculate_succeeded_indexes(job, pods)
            succeeded = ctx.succeeded_indexes.total()
            if iju.has_backoff_limit_per_index(job):
                ctx.failed_indexes = iju.calculate_failed_indexes(job, pods)
                if ctx.finished_condition is None:
                    n_failed_ix = ctx.failed_indexes.total()
                    if job.spec.max_failed_indexes is not None and n_failed_ix > job.spec.max_failed_indexes:
                        ctx.finished_condition = new_condition(
                            JobConditionType.FAILURE_TARGET, ConditionStatus.TRUE,
                            JobReason.MAX_FAILED_INDEXES_EXCEEDED, MSG_MAX_FAILED_INDEXES, now)
                        self._say("decision.max_failed_indexes_exceeded", job=key,
                                  failed_indexes=str(ctx.failed_indexes), n_failed=n_failed_ix,
                                  max_failed_indexes=job.spec.max_failed_indexes)
                    elif n_failed_ix > 0 and n_failed_ix + ctx.succeeded_indexes.total() >= (job.spec.completions or 0):
                        ctx.finished_condition = new_condition(
                            JobConditionType.FAILURE_TARGET, ConditionStatus.TRUE, JobReason.FAILED_INDEXES,
                            MSG_FAILED_INDEXES, now)
                        self._say("decision.failed_indexes", job=key, failed_indexes=str(ctx.failed_indexes),
                                  n_failed=n_failed_ix)
                ctx.pods_with_delayed_deletion_per_index = iju.get_pods_with_delayed_deletion_per_index(
                    job, pods, active_pods=ctx.active_pods, succeeded_indexes=ctx.succeeded_indexes,
                    failed_indexes=ctx.failed_indexes, expected_rm_finalizers=ctx.expected_rm_finalizers)
            if ctx.finished_condition is None and has_success_criteria_met_condition(job) is None:
                met, msg = match_success_policy(job.spec.success_policy, job.spec.completions or 0,
                                                ctx.succeeded_indexes)
                if met:
                    ctx.finished_condition = new_condition(JobConditionType.SUCCESS_CRITERIA_MET,
                                                           ConditionStatus.TRUE, JobReason.SUCCESS_POLICY, msg, now)
                    self._say("decision.success_policy", job=key, message=msg)
        ctx.succeeded = succeeded

        suspend_cond_changed = False
        if ctx.finished_condition is not None:
            deleted_ready, deleted, err = self.delete_active_pods(job, ctx.active_pods)
            if deleted != active or not satisfied:
                self._say("decision.dropped", job=key, case="unsatisfied" if not satisfied else "partial",
                          condition=ctx.finished_condition.type, deleted=deleted, active=active)
                # There may be pods or finalizers the cache has not shown yet.
                ctx.finished_condition = None
            active -= deleted
            ctx.terminating += deleted
            ready -= deleted_ready
            manage_job_err = err
        else:
            manage_job_called = False
            if satisfied and job.metadata.deletion_timestamp is None:
                active, manage_job_err = self.manage_job(job, ctx)
                manage_job_called = True
            ready = ctx.ready
            if job.spec.completions is None:
                # Work queue: done when any pod succeeded and no pod is still running.
                complete = succeeded > 0 and active == 0
            else:
                complete = succeeded >= job.spec.completions and active == 0
            if complete:
                ctx.finished_condition = new_condition(JobConditionType.SUCCESS_CRITERIA_MET, ConditionStatus.TRUE,
                                                       JobReason.COMPLETIONS_REACHED, MSG_COMPLETIONS_REACHED, now)
                self._say("decision.completions_reached", job=key, succeeded=succeeded,
                          case="queue" if job.spec.completions is None else "",
                          completions=job.spec.completions)
            elif manage_job_called:
                if job_suspended(job):
                    conds, changed = ensure_job_condition_status(job.status.conditions, JobConditionType.SUSPENDED,
                                                                 ConditionStatus.TRUE, JobReason.SUSPENDED,
                                                                 "Job suspended", now)
                    if changed:
                        suspend_cond_changed = True
                        job = evolve(job, status=evolve(job.status, conditions=conds))
                        self.recorder.event(job, NORMAL, "Suspended", "Job suspended")
                        self._result.conditions_added.append("Suspended=True")
                        self._say("condition.suspended", job=key)
                else:
                    conds, changed = ensure_job_condition_status(job.status.conditions, JobConditionType.SUSPENDED,
                                                                 ConditionStatus.FALSE, JobReason.RESUMED,
                                                                 "Job resumed", now)
                    if changed:
                        suspend_cond_changed = True
                        # ActiveDeadlineSeconds counts continuous activity: restart it on resume.
                        job = evolve(job, status=evolve(job.status, conditions=conds, start_time=now))
                        self.recorder.event(job, NORMAL, "Resumed", "Job resumed")
                        self._result.conditions_added.append("Suspended=False")
                        self._say("condition.resumed", job=key)
            held = ctx.job.status
            if held.conditions is not job.status.conditions or held.start_time is not job.status.start_time:
                ctx.job = evolve(ctx.job, status=evolve(held, conditions=job.status.conditions,
                                                        start_time=job.status.start_time))
        job = ctx.job

        old = job.status
        needs_status_update = (suspend_cond_changed or active != old.active or ready != old.ready
                               or ctx.terminating != old.terminating)
        if active is not old.active or ready is not old.ready or ctx.terminating is not old.terminating:
            # (The same values, as the same objects, would make an equal copy: most syncs change none.)
            ctx.job = evolve(job, status=evolve(old, active=active, ready=ready, terminating=ctx.terminating))
        err = self.track_job_status_and_remove_finalizers(ctx, needs_status_update)
        if err is not None:
            return APIError(getattr(err, "reason", "InternalError"), f"tracking status: {err}")
        return manage_job_err

    # ------------------------------------------------------------------ helpers of sync_job

    def _report_observed(self, ctx: SyncJobCtx, key: str, satisfied: bool, succeeded: int, failed: int,
                         new_succeeded: int, new_failed: int, ready: int) -> None:
        # The settled pods are counted here, in the sync's own by_phase (classify_pods made it
        # for this report; nothing else reads it).
        by_phase = ctx.by_phase
        uid = ctx.job.metadata.uid
        settled_s = self.pods.index_size(JOB_POD_INDEX, uid + SETTLED_SUCCEEDED)
        settled_f = self.pods.index_size(JOB_POD_INDEX, uid + SETTLED_FAILED)
        if settled_s:
            by_phase[Phase.SUCCEEDED] = by_phase.get(Phase.SUCCEEDED, 0) + settled_s
        if settled_f:
            by_phase[Phase.FAILED] = by_phase.get(Phase.FAILED, 0) + settled_f
        exp = self.expectations.get_expectations(key)
        rec = self.pod_backoff_store.get(key)
        self._say("sync.observed", job=key,
                  pods=len(ctx.pods) + settled_s + settled_f,
                  active=len(ctx.active_pods), ready=ready,
                  terminating=ctx.terminating, succeeded=succeeded, failed=failed, by_phase=by_phase,
                  new_succeeded=new_succeeded, new_failed=new_failed, satisfied=satisfied,
                  expect_add=exp.add if exp else 0, expect_del=exp.dele if exp else 0,
                  expect_since=exp.timestamp if exp else None,
                  backoff_failures=rec.failures_after_last_success if rec else 0,
                  backoff_last_failure=rec.last_failure_time if rec else None)

    def _report_unsatisfied(self, key: str) -> None:
        exp = self.expectations.get_expectations(key)
        expires = exp.timestamp + 300.0 if exp is not None else None
        self._say("expectations.unsatisfied", job=key, case="" if expires is not None else "unknown", add=exp.add if exp else 0, dele=exp.dele if exp else 0, expires_at=expires)

    def get_pods_for_job(self, job: Job) -> tuple[list[Pod], Exception | None]:
        """The Job's pods, adopting matching orphans and releasing non-matching ones (mirrors getPodsForJob)."""
        ns = job.metadata.namespace
        owned = self._owned_pods(job)
        orphans = self.pods.by_index(JOB_POD_INDEX, "")
        claimed: list[Pod] = []
        being_deleted = job.metadata.deletion_timestamp is not None
        # Pods made from the template share its labels object: one selector check covers them all.
        template_labels = job.spec.template.metadata.labels
        template_matches = selector_matches(job.spec.selector, template_labels)
        if template_matches and not orphans and all(
                p.metadata.labels is template_labels and p.metadata.namespace == ns for p in owned):
            return owned, None  # the usual case, decided without the loop below
        for pod in owned:
            if pod.metadata.namespace != ns:
                continue
            labels = pod.metadata.labels
            if (template_matches if labels is template_labels else selector_matches(job.spec.selector, labels)):
                claimed.append(pod)
            elif not being_deleted:
                self._release(pod, job)
        for pod in orphans:
            if pod.metadata.namespace != ns or being_deleted or pod.metadata.deletion_timestamp is not None:
                continue
            if not selector_matches(job.spec.selector, pod.metadata.labels):
                continue
            adopted, err = self._adopt(pod, job)
            if err is not None:
                return claimed, err
            if adopted is not None:
                claimed.append(adopted)
        return claimed, None

    def _adopt(self, pod: Pod, job: Job) -> tuple[Pod | None, Exception | None]:
        # Recheck with a live read that the Job is not being deleted (RecheckDeletionTimestamp).
        try:
            fresh = self.job_client.get(job.metadata.namespace, job.metadata.name)
        except APIError as exc:
            return None, exc
        if fresh.metadata.uid != job.metadata.uid or fresh.metadata.deletion_timestamp is not None:
            return None, None
        ref = new_controller_ref(job)
        fins = pod.metadata.finalizers if has_job_tracking_finalizer(pod) else (
            *pod.metadata.finalizers, JOB_TRACKING_FINALIZER)
        adopted = evolve(pod, metadata=evolve(pod.metadata, owner_references=(*pod.metadata.owner_references, ref),
                                                finalizers=fins))
        patch = getattr(self.pod_control, "adopt_pod", None)
        if patch is not None:
            try:
                patch(pod.metadata.namespace, pod.metadata.name, ref, JOB_TRACKING_FINALIZER)
            except APIError as exc:
                if is_not_found(exc):
                    return None, None
                return None, exc
        self._say("pods.adopted", job=key_func(job), pod=pod.metadata.name)
        return adopted, None

    def _release(self, pod: Pod, job: Job) -> None:
        release = getattr(self.pod_control, "release_pod", None)
        if release is not None:
            try:
                release(pod.metadata.namespace, pod.metadata.name, job.metadata.uid)
            except APIError:
                return
        self._say("pods.released", job=key_func(job), pod=pod.metadata.name)

    def classify_pods(self, ctx: SyncJobCtx) -> tuple[list[Pod], list[Pod]]:
        """One pass over the pods doing what upstream does in four.

        Fills ``ctx.active_pods`` (FilterActivePods), ``ctx.terminating``
        (CountTerminatingPods) and ``ctx.ready`` (countReadyPods of the active pods), and
        returns the finished pods not yet counted (getNewFinishedPods): (succeeded, failed).
        Same results; the fusion only keeps a sync cheap when a Job has a thousand pods. The
        same pass fills ``ctx.by_phase``, ``ctx.tracked_uids`` and ``ctx.tracked_done`` for
        the trace and for track_job_status_and_remove_finalizers.
        """
        job = ctx.job
        indexed = iju.is_indexed_job(job)
        completions = job.spec.completions or 0
        replace_failed_only = only_replace_failed_pods(job)
        expected = ctx.expected_rm_finalizers
        unc_s, unc_f = ctx.uncounted_succeeded, ctx.uncounted_failed
        active: list[Pod] = []
        succeeded: list[Pod] = []
        failed: list[Pod] = []
        terminating = ready = 0
        by_phase: dict[str, int] = {}
        tracked_uids: set[str] = set()
        tracked_done: list[Pod] = []
        # Locals, not attribute lookups: this loop runs for every live pod in every sync.
        pending, succeeded_phase, failed_phase, finalizer = Phase.PENDING, Phase.SUCCEEDED, Phase.FAILED, \
            JOB_TRACKING_FINALIZER
        get_index = iju.get_completion_index
        for p in ctx.pods:
            meta = p.metadata
            status = p.status
            phase = status.phase
            key = phase or pending
            by_phase[key] = by_phase.get(key, 0) + 1
            terminal = phase == succeeded_phase or phase == failed_phase
            deleting = meta.deletion_timestamp is not None
            if not terminal:
                if deleting:
                    terminating += 1
                else:
                    active.append(p)
                    for cond in status.conditions:  # podutil.IsPodReady: the first Ready condition
                        if cond.type == "Ready":
                            ready += cond.status == "True"
                            break
            uid = meta.uid
            if finalizer not in meta.finalizers or uid in expected:
                continue
            tracked_uids.add(uid)
            if terminal or deleting:
                tracked_done.append(p)
            if indexed:
                ix = get_index(meta.annotations)
                if ix == UNKNOWN_COMPLETION_INDEX or ix >= completions:
                    continue
            if phase == succeeded_phase:
                if uid not in unc_s:
                    succeeded.append(p)
            elif (phase == failed_phase or (deleting and not replace_failed_only)) and uid not in unc_f:
                # is_pod_failed: Failed, or (unless only Failed pods are replaced) deleted before succeeding.
                failed.append(p)
        ctx.active_pods = active
        ctx.terminating = terminating
        ctx.ready = ready
        ctx.by_phase = by_phase
        ctx.tracked_uids = tracked_uids
        ctx.tracked_done = tracked_done
        return succeeded, failed

    @staticmethod
    def non_ignored_failed_pods_count(ctx: SyncJobCtx, failed_pods: list[Pod]) -> int:
        """Failures that count toward backoffLimit (Ignore rules do not)."""
        policy = ctx.job.spec.pod_failure_policy
        if policy is None:
            return len(failed_pods)
        return sum(1 for p in failed_pods if match_pod_failure_policy(policy, p)[1])

    @staticmethod
    def get_fail_job_message(job: Job, pods: list[Pod]) -> str | None:
        """The message of the first failed pod that matches a FailJob rule (mirrors getFailJobMessage)."""
        policy = job.spec.pod_failure_policy
        if policy is None:
            return None
        for p in pods:
            if is_pod_failed(p, job):
                msg, _, _ = match_pod_failure_policy(policy, p)
                if msg is not None:
                    return msg
        return None

    def past_active_deadline(self, job: Job) -> bool:
        """Active at least activeDeadlineSeconds since startTime, and not suspended (mirrors pastActiveDeadline)."""
        ads = job.spec.active_deadline_seconds
        if ads is None or job.status.start_time is None or job_suspended(job):
            return False
        return self.clock.now() - job.status.start_time >= ads

    # ------------------------------------------------------------------ deleting pods

    def delete_active_pods(self, job: Job, pods: list[Pod]) -> tuple[int, int, Exception | None]:
        """Delete every active pod of a finishing Job, finalizers kept (mirrors deleteActivePods).

        Returns (ready pods a DELETE was issued for, pods deleted, first error).
        """
        key = key_func(job)
        deleted = len(pods)
        deleted_ready = 0
        first_err: Exception | None = None
        for pod in pods:
            self._result.delete_attempts += 1
            try:
                self.pod_control.delete_pod(job.metadata.namespace, pod.metadata.name, job)
                self._result.deleted.append(pod.metadata.name)
                self._say("delete.finishing", job=key, pod=pod.metadata.name)
            except APIError as exc:
                if not is_not_found(exc):
                    deleted -= 1
                    first_err = first_err or exc
                    self._say("delete.failed", job=key, pod=pod.metadata.name, error=str(exc))
            # Upstream counts the ready pod as removed even when its DELETE failed.
            if is_pod_ready(pod):
                deleted_ready += 1
        return deleted_ready, deleted, first_err

    def delete_job_pods(self, job: Job, key: str, pods: list[Pod],
                        why: dict[str, tuple[str, dict[str, Any]]] | None = None,
                        rule: str = "delete.scale_down") -> tuple[int, int, Exception | None]:
        """Remove the tracking finalizer, then DELETE each pod (mirrors deleteJobPods).

        ``why``: pod name -> (the deletion-order rule that picked it, its numbers), reported
        with each deletion.

        A pod whose finalizer is gone is never counted as failed. Every failure lowers the
        deletion expectation, because no informer event will come for it.
        """
        successful = len(pods)
        deleted_ready = 0
        first_err: Exception | None = None

        def fail(pod: Pod, exc: APIError) -> None:
            nonlocal successful, first_err
            self.expectations.deletion_observed(key)
            if not is_not_found(exc):
                successful -= 1
                first_err = first_err or exc
                self._say("delete.failed", job=key, pod=pod.metadata.name, error=str(exc), case="lowered")

        for pod in pods:
            if has_job_tracking_finalizer(pod):
                self._result.finalizer_patches += 1
                try:
                    self.pod_control.remove_finalizer(pod.metadata.namespace, pod.metadata.name,
                                                      JOB_TRACKING_FINALIZER)
                except APIError as exc:
                    fail(pod, exc)
                    continue
            self._result.delete_attempts += 1
            try:
                self.pod_control.delete_pod(job.metadata.namespace, pod.metadata.name, job)
            except APIError as exc:
                fail(pod, exc)
                continue
            self._result.deleted.append(pod.metadata.name)
            picked = why.get(pod.metadata.name) if why else None
            if picked is None:
                self._say(rule, job=key, pod=pod.metadata.name, case="plain" if rule == "delete.scale_down" else "")
            else:
                self._say(rule, job=key, pod=pod.metadata.name, order_rule=picked[0], **picked[1])
            if is_pod_ready(pod):
                deleted_ready += 1
        return deleted_ready, successful, first_err

    # ------------------------------------------------------------------ manage_job

    def manage_job(self, job: Job, ctx: SyncJobCtx) -> tuple[int, Exception | None]:
        """Create or delete pods toward the wanted active count (mirrors manageJob).

        Returns the new active count and the first error. Deleting wins over creating:
        one sync never does both.
        """
        active = len(ctx.active_pods)
        parallelism = job.spec.parallelism if job.spec.parallelism is not None else 1
        key = key_func(job)

        if job_suspended(job):
            to_delete = active_pods_for_removal(job, ctx.active_pods, active)
            self.expectations.expect_deletions(key, len(to_delete))
            if to_delete:
                self._say("suspend.delete", job=key,
                          count=len(to_delete))
            removed_ready, removed, err = self.delete_job_pods(job, key, to_delete, rule="delete.suspend")
            active -= removed
            ctx.terminating += removed
            ctx.ready -= removed_ready
            return active, err

        if job.spec.completions is None:
            # Work queue: no new pods once any pod succeeded; leave running ones alone.
            want_active = active if ctx.succeeded > 0 else parallelism
            want_case = "queue_done" if ctx.succeeded > 0 else "queue"
        else:
            remaining = job.spec.completions - ctx.succeeded
            want_active = max(0, min(remaining, parallelism))
            want_case = ""
        self._say("manage.want_active", job=key, case=want_case, want=want_active, active=active,
                  parallelism=parallelism, completions=job.spec.completions, succeeded=ctx.succeeded)

        rm_at_least = max(active - want_active, 0)
        to_delete = active_pods_for_removal(job, ctx.active_pods, rm_at_least)
        if len(to_delete) > MAX_POD_CREATE_DELETE_PER_SYNC:
            to_delete = to_delete[:MAX_POD_CREATE_DELETE_PER_SYNC]
        if to_delete:
            self.expectations.expect_deletions(key, len(to_delete))
            plan = plan_removal(job, ctx.active_pods, rm_at_least)
            self._say("scale_down", job=key, active=active, want=want_active,
                      count=len(to_delete), ranking=[p.metadata.name for p in plan.ranking],
                      pair_rules=list(plan.pair_rules), prestep=[[name, rule_id, plan.why[name][1]] for name, rule_id in plan.prestep],
                      to_delete=[p.metadata.name for p in to_delete],
                      candidates=[pod_facts(p) for p in ctx.active_pods])
            removed_ready, removed, err = self.delete_job_pods(job, key, to_delete, plan.why)
            active -= removed
            ctx.terminating += removed
            ctx.ready -= removed_ready
            # Deletion takes precedence over creation within one sync.
            return active, err

        terminating = ctx.terminating if only_replace_failed_pods(job) else 0
        diff = want_active - terminating - active
        if diff <= 0:
            if terminating and want_active - active > 0:
                self._say("create.wait_terminating", job=key, terminating=terminating)
            return active, None

        if not iju.has_backoff_limit_per_index(job):
            rec = ctx.new_backoff_record
            remaining_time = bu.get_remaining_time(rec, self.clock.now(), bu.DEFAULT_JOB_POD_FAILURE_BACKOFF,
                                                   bu.MAX_JOB_POD_FAILURE_BACKOFF)
            if remaining_time > 0:
                self.enqueue_sync_job_with_delay(job, remaining_time)
                self._result.requeue_after = max(remaining_time, SYNC_JOB_BATCH_PERIOD)
                n = rec.failures_after_last_success
                self._say("backoff.wait", job=key, delay=remaining_time, backoff=bu.backoff_delay(n), failures=n, last_failure=rec.last_failure_time,
                          until=self.clock.now() + remaining_time)
                return active, None
        diff = min(diff, MAX_POD_CREATE_DELETE_PER_SYNC)

        indexes_to_add: list[int] = []
        if iju.is_indexed_job(job):
            indexes_to_add = iju.first_pending_indexes(
                active_pods=ctx.active_pods, succeeded_indexes=ctx.succeeded_indexes,
                failed_indexes=ctx.failed_indexes,
                terminating_pods=[p for p in ctx.pods if is_pod_terminating(p)] if only_replace_failed_pods(job)
                else None, count=diff, completions=job.spec.completions or 0)
            if iju.has_backoff_limit_per_index(job):
                lowest = indexes_to_add
                indexes_to_add, remaining_time = self.get_pod_creation_info_for_independent_indexes(
                    indexes_to_add, ctx.pods_with_delayed_deletion_per_index)
                if remaining_time > 0:
                    self.enqueue_sync_job_with_delay(job, remaining_time)
                    self._result.requeue_after = max(remaining_time, SYNC_JOB_BATCH_PERIOD)
                    # Only the lowest `diff` pending indexes were considered: higher pending
                    # indexes, in backoff or not, do not take the place of those waiting.
                    self._say("backoff.wait_index", job=key, delay=remaining_time, count=len(lowest),
                              indexes=str(iju.OrderedIntervals.from_indexes(lowest)))
                    return active, None
            diff = len(indexes_to_add)
            if diff == 0:
                failed = str(ctx.failed_indexes) if ctx.failed_indexes is not None and ctx.failed_indexes.total() else ""
                self._say("create.no_pending_index", job=key, case="failed" if failed else "", want=want_active,
                          active=active, failed_indexes=failed)
                return active, None

        self.expectations.expect_creations(key, diff)
        self._say("create.plan", job=key,
                  count=diff, indexes=list(indexes_to_add))
        active += diff
        template = job.spec.template
        if iju.is_indexed_job(job):
            template = add_completion_index_env_variables(template)
        template = with_finalizer(template, JOB_TRACKING_FINALIZER)
        ref = new_controller_ref(job)

        first_err: Exception | None = None
        batch_no = 0
        remaining = diff
        batch = min(remaining, SLOW_START_INITIAL_BATCH_SIZE)
        while remaining > 0:
            batch_no += 1
            failed_in_batch = 0
            created_in_batch: list[str] = []
            for _ in range(batch):
                index = indexes_to_add.pop(0) if indexes_to_add else UNKNOWN_COMPLETION_INDEX
                err = self._create_one(job, ctx, template, ref, index, created_in_batch)
                if err is not None:
                    failed_in_batch += 1
                    self.expectations.creation_observed(key)
                    active -= 1
                    first_err = first_err or err
            self._say("create.slow_start_batch", job=key, case="failed" if failed_in_batch else "", batch=batch_no, size=batch, created=list(created_in_batch), failed=failed_in_batch)
            skipped = remaining - batch
            if failed_in_batch and skipped > 0:
                active -= skipped
                for _ in range(skipped):
                    self.expectations.creation_observed(key)
                self._say("create.slow_start_stop", job=key, batch=batch_no, skipped=skipped)
                break
            remaining -= batch
            batch = min(2 * batch, remaining)
        return active, first_err

    def _create_one(self, job: Job, ctx: SyncJobCtx, template: PodTemplateSpec, ref: OwnerReference, index: int,
                    created: list[str]) -> Exception | None:
        key = key_func(job)
        generate_name = ""
        if index != UNKNOWN_COMPLETION_INDEX:
            ann = {**template.metadata.annotations, JOB_COMPLETION_INDEX_ANNOTATION: str(index)}
            labels = {**template.metadata.labels, JOB_COMPLETION_INDEX_ANNOTATION: str(index)}
            if iju.has_backoff_limit_per_index(job):
                failures, ignored = iju.get_new_index_failure_counts(
                    job, ctx.pods_with_delayed_deletion_per_index.get(index))
                ann[JOB_INDEX_FAILURE_COUNT_ANNOTATION] = str(failures)
                if ignored > 0:
                    ann[JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION] = str(ignored)
            template = evolve(template, metadata=evolve(template.metadata, annotations=ann, labels=labels),
                               spec=evolve(template.spec, hostname=f"{job.metadata.name}-{index}"))
            generate_name = pod_generate_name_with_index(job.metadata.name, index)
        self._result.create_attempts += 1
        try:
            pod = self.pod_control.create_pods_with_generate_name(job.metadata.namespace, template, job, ref,
                                                                  generate_name)
        except APIError as exc:
            if has_namespace_terminating_cause(exc):
                # The namespace is going away; every later create would fail the same way.
                self._say("create.namespace_terminating", job=key)
                return None
            self._say("create.failed", job=key,
                      error=str(exc), index=index)
            return exc
        name = pod.metadata.name if pod is not None else "?"
        self._result.created.append(name)
        if index != UNKNOWN_COMPLETION_INDEX:
            self._result.created_indexes.append(index)
        created.append(name)
        return None

    def get_pod_creation_info_for_independent_indexes(self, indexes: list[int],
                                                      delayed: dict[int, Pod]) -> tuple[list[int], float]:
        """Indexes whose per-index backoff is over; else the shortest remaining wait (mirrors getPodCreationInfoForIndependentIndexes)."""
        now_indexes: list[int] = []
        min_remaining: float | None = None
        for ix in indexes:
            remaining = bu.get_remaining_time_per_index(self.clock.now(), bu.DEFAULT_JOB_POD_FAILURE_BACKOFF,
                                                        bu.MAX_JOB_POD_FAILURE_BACKOFF, delayed.get(ix))
            if remaining == 0:
                now_indexes.append(ix)
            elif min_remaining is None or remaining < min_remaining:
                min_remaining = remaining
        if now_indexes:
            return now_indexes, 0.0
        return now_indexes, min_remaining or 0.0

    # ------------------------------------------------------------------ status tracking

    def can_remove_finalizer(self, ctx: SyncJobCtx, pod: Pod, consider_failed: bool) -> bool:
        """Whether this sync may count the pod and drop its finalizer (mirrors canRemoveFinalizer)."""
        if ctx.job.metadata.deletion_timestamp is not None or ctx.finished_condition is not None \
                or pod.status.phase == Phase.SUCCEEDED:
            return True
        if not consider_failed:
            return False
        if iju.has_backoff_limit_per_index(ctx.job):
            ix = iju.get_completion_index(pod.metadata.annotations)
            if ix != UNKNOWN_COMPLETION_INDEX:
                held = ctx.pods_with_delayed_deletion_per_index.get(ix)
                if held is not None and held.metadata.uid == pod.metadata.uid:
                    # Keep the finalizer until a replacement exists, so the index's counts survive.
                    return False
        return True

    def track_job_status_and_remove_finalizers(self, ctx: SyncJobCtx, needs_flush: bool) -> Exception | None:
        """Count finished pods through uncountedTerminatedPods, remove finalizers, finish the Job.

        Mirrors trackJobStatusAndRemoveFinalizers: the counters only grow after a pod's
        finalizer is gone, so a pod is counted once even if the controller restarts.
        """
        job = ctx.job
        key = key_func(job)
        indexed = iju.is_indexed_job(job)
        completions = job.spec.completions or 0
        fc = ctx.finished_condition
        finishing = ctx.job.metadata.deletion_timestamp is not None or fc is not None
        uids_with_finalizer = ctx.tracked_uids  # classify_pods collected them
        # Only pods that still carry the finalizer can be processed, and unless the Job is
        # finishing only those already terminal or being deleted (can_remove_finalizer says
        # no to the rest): walking just those keeps the order and the outcome.
        pods = [p for p in ctx.pods if p.metadata.uid in uids_with_finalizer] if finishing else ctx.tracked_done
        if indexed:
            # Introduce completed indexes in order.
            pods = sorted(pods, key=lambda p: iju.get_completion_index(p.metadata.annotations))
        status, changed = clean_uncounted_pods_without_finalizers(job.status, uids_with_finalizer)
        needs_flush = needs_flush or changed
        unc = status.uncounted_terminated_pods
        unc_succeeded = list(unc.succeeded)
        unc_failed = list(unc.failed)
        new_succeeded_indexes: list[int] = []
        to_remove: list[Pod] = []
        reached_max = False
        failure_pending = fc is not None and not is_success_criteria_met_condition(fc)
        for pod in pods:  # all still carry the finalizer; unless finishing, all are done or deleting
            uid = pod.metadata.uid
            consider_failed = is_pod_failed(pod, job)
            if not self.can_remove_finalizer(ctx, pod, consider_failed):
                continue
            to_remove.append(pod)
            if pod.status.phase == Phase.SUCCEEDED and uid not in ctx.uncounted_failed:
                if indexed:
                    ix = iju.get_completion_index(pod.metadata.annotations)
                    if ix != UNKNOWN_COMPLETION_INDEX and ix < completions and not ctx.prev_succeeded_indexes.has(ix):
                        new_succeeded_indexes.append(ix)
                        needs_flush = True
                elif uid not in ctx.uncounted_succeeded:
                    needs_flush = True
                    unc_succeeded.append(uid)
            elif consider_failed or failure_pending:
                # A finishing failure counts every still-running pod as failed.
                ix = iju.get_completion_index(pod.metadata.annotations)
                if uid not in ctx.uncounted_failed and (not indexed or (ix != UNKNOWN_COMPLETION_INDEX
                                                                       and ix < completions)):
                    policy = job.spec.pod_failure_policy
                    if policy is not None:
                        _, count_failed, _ = match_pod_failure_policy(policy, pod)
                        if count_failed:
                            needs_flush = True
                            unc_failed.append(uid)
                    else:
                        needs_flush = True
                        unc_failed.append(uid)
            if len(new_succeeded_indexes) + len(unc_succeeded) + len(unc_failed) >= MAX_UNCOUNTED_PODS:
                # Keep the status small and let big Jobs yield; the next sync continues.
                reached_max = True
                self._say("track.cap", job=key, cap=MAX_UNCOUNTED_PODS)
                break
        if (len(unc_succeeded) != len(unc.succeeded) or len(unc_failed) != len(unc.failed)
                or type(unc.succeeded) is not tuple or type(unc.failed) is not tuple):
            # (The lists are only appended to: the same lengths are the same UIDs, and most syncs add none.)
            status = evolve(status, uncounted_terminated_pods=UncountedTerminatedPods(tuple(unc_succeeded),
                                                                                        tuple(unc_failed)))
        if indexed:
            ctx.succeeded_indexes = ctx.succeeded_indexes.with_ordered_indexes(sorted(new_succeeded_indexes))
            text = str(ctx.succeeded_indexes)
            if text != status.completed_indexes:
                needs_flush = True
            failed_text = str(ctx.failed_indexes) if ctx.failed_indexes is not None else None
            if failed_text != status.failed_indexes:
                needs_flush = True
            status = evolve(status, succeeded=ctx.succeeded_indexes.total(), completed_indexes=text,
                             failed_indexes=failed_text)
        now = self.clock.now()
        if fc is not None and fc.type == JobConditionType.FAILURE_TARGET:
            # Record the failure before finalizers are removed, so it survives a restart.
            status = evolve(status, conditions=(*status.conditions, fc))
            needs_flush = True
            self._result.conditions_added.append(f"FailureTarget={fc.reason}")
            self._say("condition.failure_target", job=key, message=fc.message,
                      reason_code=fc.reason)
            ctx.finished_condition = fc = new_failed_condition_for_failure_target(fc, now)
        if is_success_criteria_met_condition(fc):
            if success_criteria_met_in(status.conditions) is None:  # the Job as this status makes it
                status = evolve(status, conditions=(*status.conditions, fc))
                needs_flush = True
                self._result.conditions_added.append(f"SuccessCriteriaMet={fc.reason}")
                self._say("condition.success_criteria_met", job=key, message=fc.message, reason_code=fc.reason)
            ctx.finished_condition = fc = new_condition(JobConditionType.COMPLETE, ConditionStatus.TRUE, fc.reason,
                                                        fc.message, now)
        if status is not job.status:
            ctx.job = evolve(job, status=status)
        needs_flush, err = self.flush_uncounted_and_remove_finalizers(ctx, to_remove, uids_with_finalizer,
                                                                       needs_flush)
        if err is not None:
            return err
        job_finished = not reached_max and self.enact_job_finished(ctx)
        if job_finished:
            needs_flush = True
        if needs_flush:
            try:
                ctx.job = self.update_status_handler(ctx.job)
            except APIError as exc:
                self._say("status.write_failed", job=key, error=str(exc))
                return APIError(exc.reason, f"removing uncounted pods from status: {exc}")
            self._result.status_writes += 1
            self._report_status_write(ctx.job)
            if job_finished:
                self.record_job_finished(ctx.job, ctx.finished_condition)
        return None

    def flush_uncounted_and_remove_finalizers(self, ctx: SyncJobCtx, to_remove: list[Pod],
                                              uids_with_finalizer: set[str],
                                              needs_flush: bool) -> tuple[bool, Exception | None]:
        """Write the uncounted UIDs, then remove finalizers, then move UIDs to the counters.

        Mirrors flushUncountedAndRemoveFinalizers. The backoff record is saved only after a
        successful status write.
        """
        key = key_func(ctx.job)
        if needs_flush:
            try:
                ctx.job = self.update_status_handler(ctx.job)
            except APIError as exc:
                self._say("status.write_failed", job=key, error=str(exc))
                return needs_flush, APIError(exc.reason, f"adding uncounted pods to status: {exc}")
            self._result.status_writes += 1
            self._report_status_write(ctx.job)
            if ctx.new_backoff_record is not None:
                self.pod_backoff_store.update_backoff_record(ctx.new_backoff_record)
            needs_flush = False
        rm_err: Exception | None = None
        if to_remove:
            ok, rm_err = self.remove_tracking_finalizer_from_pods(key, to_remove)
            for pod, removed in zip(to_remove, ok):
                if removed:
                    uids_with_finalizer.discard(pod.metadata.uid)
        status, changed = clean_uncounted_pods_without_finalizers(ctx.job.status, uids_with_finalizer)
        if changed:
            before = ctx.job.status
            ctx.job = evolve(ctx.job, status=status)
            needs_flush = True
            new_s, new_f = status.succeeded - before.succeeded, status.failed - before.failed
            self._say("track.counted", job=key, succeeded=status.succeeded, failed=status.failed,
                      new_succeeded=new_s, new_failed=new_f, counted=new_s + new_f)
        if rm_err is not None and needs_flush:
            try:
                ctx.job = self.update_status_handler(ctx.job)
                self._result.status_writes += 1
            except APIError as exc:
                return needs_flush, APIError(exc.reason, f"removing uncounted pods from status: {exc}")
        return needs_flush, rm_err

    def remove_tracking_finalizer_from_pods(self, key: str, pods: list[Pod]) -> tuple[list[bool], Exception | None]:
        """Patch the tracking finalizer off each pod, remembering the UIDs in flight (mirrors removeTrackingFinalizerFromPods)."""
        self.finalizer_expectations.expect_finalizers_removed(key, [p.metadata.uid for p in pods])
        ok = [False] * len(pods)
        first_err: Exception | None = None
        for i, pod in enumerate(pods):
            if not has_job_tracking_finalizer(pod):
                continue
            self._result.finalizer_patches += 1
            try:
                self.pod_control.remove_finalizer(pod.metadata.namespace, pod.metadata.name, JOB_TRACKING_FINALIZER)
            except APIError as exc:
                # No update will show this removal: stop expecting it now.
                self.finalizer_expectations.finalizer_removal_observed(key, pod.metadata.uid)
                if not is_not_found(exc):
                    first_err = first_err or exc
                    continue
            ok[i] = True
        return ok, first_err

    def enact_job_finished(self, ctx: SyncJobCtx) -> bool:
        """Add the terminal condition once nothing is uncounted or terminating (mirrors enactJobFinished)."""
        fc = ctx.finished_condition
        if fc is None:
            return False
        job = ctx.job
        key = key_func(job)
        unc = job.status.uncounted_terminated_pods
        n = len(unc.succeeded) + len(unc.failed) if unc is not None else 0
        if n > 0:
            self._say("finish.delayed_uncounted", job=key, condition=fc.type, uncounted=n)
            return False
        if ctx.terminating > 0:
            self._say("finish.delayed_terminating", job=key, condition=fc.type, terminating=ctx.terminating)
            return False
        conds, _ = ensure_job_condition_status(job.status.conditions, fc.type, fc.status, fc.reason, fc.message,
                                               self.clock.now())
        if fc.type == JobConditionType.COMPLETE:
            status = evolve(job.status, conditions=conds, completion_time=fc.last_transition_time)
        else:
            status = evolve(job.status, conditions=conds)
        ctx.job = evolve(job, status=status)
        self._result.conditions_added.append(f"{fc.type}={fc.reason}")
        self._say("condition.complete" if fc.type == JobConditionType.COMPLETE else "condition.failed",
                  job=key, reason_code=fc.reason, condition=fc.type, message=fc.message)
        return True

    def record_job_finished(self, job: Job, fc: JobCondition) -> None:
        """Record the finishing events (mirrors recordJobFinished)."""
        if fc.type == JobConditionType.COMPLETE:
            if job.spec.completions is not None and job.status.succeeded > job.spec.completions:
                self.recorder.event(job, WARNING, "TooManySucceededPods",
                                    "Too many succeeded pods running after completion count reached")
            self.recorder.event(job, NORMAL, "Completed", "Job completed")
        else:
            self.recorder.event(job, WARNING, fc.reason, fc.message)

    def _report_status_write(self, job: Job) -> None:
        s = job.status
        self._say("status.write", job=key_func(job), active=s.active,
                  ready=s.ready, succeeded=s.succeeded, failed=s.failed, terminating=s.terminating)


def clean_uncounted_pods_without_finalizers(status: Any, uids_with_finalizer: set[str]) -> tuple[Any, bool]:
    """Move UIDs whose pod lost its finalizer (or vanished) into the counters (mirrors cleanUncountedPodsWithoutFinalizers)."""
    unc = status.uncounted_terminated_pods or UncountedTerminatedPods()
    if not unc.succeeded and not unc.failed:
        return status, False  # (nothing uncounted: most syncs)
    keep_s = tuple(u for u in unc.succeeded if u in uids_with_finalizer)
    keep_f = tuple(u for u in unc.failed if u in uids_with_finalizer)
    if len(keep_s) == len(unc.succeeded) and len(keep_f) == len(unc.failed):
        return status, False
    return evolve(status, succeeded=status.succeeded + len(unc.succeeded) - len(keep_s),
                   failed=status.failed + len(unc.failed) - len(keep_f),
                   uncounted_terminated_pods=UncountedTerminatedPods(keep_s, keep_f)), True
