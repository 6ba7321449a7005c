"""What every controller shares (mirrors pkg/controller/controller_utils.go, Kubernetes 1.35).

* ``KeyFunc`` and client-go's ``SplitMetaNamespaceKey``: the ``namespace/name`` keys of work queues;
* ``ControllerExpectations``: creation/deletion expectations. Before creating N pods the
  controller records "expect N creations"; the informer's add events lower the count; a failed
  create lowers it at once because no event will ever come. While a record is unfulfilled the
  Job is not managed again (no new creates or deletes), which stops the controller from acting
  twice on a stale cache. A record older than five minutes counts as satisfied, so a lost event
  cannot wedge a Job forever;
* ``PodControlInterface``: ``StorePodControl`` talks to the in-memory API server and records the
  same events as upstream's RealPodControl (SuccessfulCreate, FailedCreate, SuccessfulDelete,
  FailedDelete); ``FakePodControl`` records calls without touching anything, as upstream's
  FakePodControl does in unit tests (``err`` fails every call, ``create_limit`` refuses
  creations after the first N);
* ``ActivePods.Less`` (with ``podReadyTime``, ``afterOrZero``, ``compareMaxContainerRestarts``,
  ``maxContainerRestarts``): the order in which a controller deletes active pods, as a sort key.

The pod predicates of controller_utils.go (``IsPodActive``, ``FilterActivePods``,
``IsPodTerminating``...) are in the leaf :mod:`k8sjobs.controller.pod_util`.

The Job controller sorts with plain ``ActivePods``, not ``ActivePodsWithRanks``: there is no
pod-deletion-cost, no per-node co-location rank and no logarithmic time bucketing here. The
deletion order is a sort key built from :data:`ORDER_RULES`, a table of small rules in the
order upstream applies them; a smaller key is deleted first. Upstream leaves pods that tie on
every rule unordered (Go's sort is not stable); the key ends with the pod name so that our
traces never depend on the order in which pods were listed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..api.apierrors import APIError, Reason, has_namespace_terminating_cause, is_not_found
from ..api.events import NORMAL, WARNING, EventRecorder
from ..api.types import (
    ConditionStatus,
    Job,
    ObjectMeta,
    OwnerReference,
    Phase,
    Pod,
    PodConditionType,
    PodTemplateSpec,
    evolve,
)
from ..clock import Clock
from .pod_util import is_pod_ready

# --------------------------------------------------------------------------------------
# Keys (controller.KeyFunc, cache.SplitMetaNamespaceKey)
# --------------------------------------------------------------------------------------


def key_func(obj: Any) -> str:
    """``namespace/name`` (mirrors controller.KeyFunc)."""
    return f"{obj.metadata.namespace}/{obj.metadata.name}"


def split_key(key: str) -> tuple[str, str]:
    """``namespace/name`` -> (namespace, name)."""
    ns, _, name = key.partition("/")
    return ns, name


# --------------------------------------------------------------------------------------
# ControllerExpectations
# --------------------------------------------------------------------------------------

EXPECTATIONS_TIMEOUT = 300.0
"""ExpectationsTimeout: 5 minutes of simulated time."""


@dataclass
class ControlleeExpectations:
    """One Job's outstanding creations (``add``) and deletions (``dele``), set at ``timestamp``."""

    add: int
    dele: int
    key: str
    timestamp: float

    def fulfilled(self) -> bool:
        """Both counters at or below zero (below zero happens and still means satisfied)."""
        return self.add <= 0 and self.dele <= 0


class ControllerExpectations:
    """Per-Job expectations on the injected clock."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self._records: dict[str, ControlleeExpectations] = {}

    def get_expectations(self, key: str) -> ControlleeExpectations | None:
        """The record for ``key``, if any."""
        return self._records.get(key)

    def satisfied_expectations(self, key: str) -> bool:
        """True when there is no record, it is fulfilled, or it has expired (mirrors SatisfiedExpectations)."""
        exp = self._records.get(key)
        if exp is None:
            return True
        if exp.fulfilled():
            return True
        return self.is_expired(exp)

    def is_expired(self, exp: ControlleeExpectations) -> bool:
        """Older than :data:`EXPECTATIONS_TIMEOUT` (strictly)."""
        return self.clock.now() - exp.timestamp > EXPECTATIONS_TIMEOUT

    def set_expectations(self, key: str, add: int, dele: int) -> None:
        """Replace the record (a fresh timestamp); it does not add to what is outstanding."""
        self._records[key] = ControlleeExpectations(add, dele, key, self.clock.now())

    def expect_creations(self, key: str, adds: int) -> None:
        """ExpectCreations: the record becomes (adds, 0)."""
        self.set_expectations(key, adds, 0)

    def expect_deletions(self, key: str, dels: int) -> None:
        """ExpectDeletions: the record becomes (0, dels)."""
        self.set_expectations(key, 0, dels)

    def lower_expectations(self, key: str, add: int, dele: int) -> None:
        """Lower both counters of an existing record."""
        exp = self._records.get(key)
        if exp is not None:
            exp.add -= add
            exp.dele -= dele

    def raise_expectations(self, key: str, add: int, dele: int) -> None:
        """Raise both counters of an existing record."""
        exp = self._records.get(key)
        if exp is not None:
            exp.add += add
            exp.dele += dele

    def creation_observed(self, key: str) -> None:
        """One expected creation was seen (or will never come)."""
        self.lower_expectations(key, 1, 0)

    def deletion_observed(self, key: str) -> None:
        """One expected deletion was seen (or will never come)."""
        self.lower_expectations(key, 0, 1)

    def delete_expectations(self, key: str) -> None:
        """Forget the record (the Job is gone)."""
        self._records.pop(key, None)

    def snapshot(self) -> dict[str, tuple[int, int, float]]:
        """Every record as (add, del, timestamp), for traces and time travel."""
        return {k: (e.add, e.dele, e.timestamp) for k, e in self._records.items()}

    def restore(self, snap: dict[str, tuple[int, int, float]]) -> None:
        """Put back a :meth:`snapshot`."""
        self._records = {k: ControlleeExpectations(a, d, k, t) for k, (a, d, t) in snap.items()}


# --------------------------------------------------------------------------------------
# PodControl (RealPodControl, FakePodControl)
# --------------------------------------------------------------------------------------

SUCCESSFUL_CREATE = "SuccessfulCreate"
FAILED_CREATE = "FailedCreate"
SUCCESSFUL_DELETE = "SuccessfulDelete"
FAILED_DELETE = "FailedDelete"


def new_controller_ref(job: Job) -> OwnerReference:
    """metav1.NewControllerRef for a Job."""
    return OwnerReference(api_version="batch/v1", kind="Job", name=job.metadata.name, uid=job.metadata.uid,
                          controller=True, block_owner_deletion=True)


def get_pod_from_template(template: PodTemplateSpec, job: Job, controller_ref: OwnerReference,
                          generate_name: str) -> Pod:
    """A new pod from the template (mirrors GetPodFromTemplate): labels, annotations, finalizers, spec."""
    meta = ObjectMeta(
        generate_name=generate_name or f"{job.metadata.name}-",
        namespace=job.metadata.namespace,
        # Shared, never mutated: a pod's labels are its template's labels object until someone edits them.
        labels=template.metadata.labels,
        annotations=template.metadata.annotations,
        finalizers=tuple(template.metadata.finalizers),
        owner_references=(controller_ref,),
    )
    return Pod(metadata=meta, spec=template.spec)


class PodControl(Protocol):
    """What the Job controller may do to pods."""

    def create_pods_with_generate_name(self, namespace: str, template: PodTemplateSpec, job: Job,
                                       controller_ref: OwnerReference, generate_name: str) -> Pod | None:
        """Create one pod from ``template``; raises APIError."""
        ...

    def delete_pod(self, namespace: str, name: str, job: Job) -> None:
        """Delete one pod; raises APIError (NotFound included)."""
        ...

    def remove_finalizer(self, namespace: str, name: str, finalizer: str) -> None:
        """Patch ``finalizer`` off a pod; raises APIError."""
        ...


class StorePodControl:
    """Pod control against an :class:`~k8sjobs.api.store.APIStore`, recording events on the Job."""

    def __init__(self, store: Any, recorder: EventRecorder) -> None:
        self.store = store
        self.recorder = recorder

    def create_pods_with_generate_name(self, namespace: str, template: PodTemplateSpec, job: Job,
                                       controller_ref: OwnerReference, generate_name: str) -> Pod | None:
        """Create a pod; on failure record FailedCreate unless the namespace is terminating."""
        pod = get_pod_from_template(template, job, controller_ref, generate_name)
        if not pod.metadata.labels:
            raise APIError(Reason.BAD_REQUEST, "unable to create pods, no labels")
        try:
            created = self.store.create(pod)
        except APIError as exc:
            if not has_namespace_terminating_cause(exc):
                self.recorder.event(job, WARNING, FAILED_CREATE, f"Error creating: {exc}")
            raise
        self.recorder.event(job, NORMAL, SUCCESSFUL_CREATE, f"Created pod: {created.metadata.name}")
        return created

    def delete_pod(self, namespace: str, name: str, job: Job) -> None:
        """Delete a pod; NotFound records nothing, other errors FailedDelete."""
        try:
            self.store.delete("Pod", namespace, name)
        except APIError as exc:
            if not is_not_found(exc):
                self.recorder.event(job, WARNING, FAILED_DELETE, f"Error deleting: {exc}")
            raise
        self.recorder.event(job, NORMAL, SUCCESSFUL_DELETE, f"Deleted pod: {name}")

    def remove_finalizer(self, namespace: str, name: str, finalizer: str) -> None:
        """Patch the finalizer away (no event, as upstream)."""
        self.store.remove_finalizer("Pod", namespace, name, finalizer)

    def adopt_pod(self, namespace: str, name: str, ref: OwnerReference, finalizer: str) -> None:
        """Add the controllerRef and the tracking finalizer to an orphan (ClaimPods' adopt patch)."""
        def adopt(pod: Pod) -> Pod:
            fins = pod.metadata.finalizers if finalizer in pod.metadata.finalizers else (
                *pod.metadata.finalizers, finalizer)
            return evolve(pod, metadata=evolve(pod.metadata, finalizers=fins,
                                                 owner_references=(*pod.metadata.owner_references, ref)))
        self.store.patch("Pod", namespace, name, adopt, verb="adopt")

    def release_pod(self, namespace: str, name: str, owner_uid: str) -> None:
        """Drop the controllerRef of a pod that no longer matches the selector (ClaimPods' release)."""
        def release(pod: Pod) -> Pod:
            refs = tuple(r for r in pod.metadata.owner_references if r.uid != owner_uid)
            return evolve(pod, metadata=evolve(pod.metadata, owner_references=refs))
        self.store.patch("Pod", namespace, name, release, verb="release")


@dataclass
class FakePodControl:
    """Records calls (mirrors FakePodControl): ``err`` fails every call, ``create_limit`` caps creations."""

    err: APIError | None = None
    create_limit: int = 0
    create_call_count: int = 0
    templates: list[PodTemplateSpec] = field(default_factory=list)
    generate_names: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    patches: list[str] = field(default_factory=list)
    recorder: EventRecorder | None = None

    def create_pods_with_generate_name(self, namespace: str, template: PodTemplateSpec, job: Job,
                                       controller_ref: OwnerReference, generate_name: str) -> Pod | None:
        """Record the creation (or refuse it past ``create_limit``)."""
        self.create_call_count += 1
        if self.create_limit and self.create_call_count > self.create_limit:
            err = APIError(Reason.INTERNAL, "not creating pod, limit 3 already reached (create call "
                           f"{self.create_call_count})".replace("3", str(self.create_limit)))
            self._event(job, WARNING, FAILED_CREATE, f"Error creating: {err}")
            raise err
        self.templates.append(template)
        self.generate_names.append(generate_name)
        if self.err is not None:
            self._event(job, WARNING, FAILED_CREATE, f"Error creating: {self.err}")
            raise self.err
        name = f"{generate_name or job.metadata.name + '-'}{len(self.templates)}"
        self._event(job, NORMAL, SUCCESSFUL_CREATE, f"Created pod: {name}")
        return get_pod_from_template(template, job, controller_ref, generate_name)

    def delete_pod(self, namespace: str, name: str, job: Job) -> None:
        """Record the deletion."""
        self.deleted.append(name)
        if self.err is not None:
            self._event(job, WARNING, FAILED_DELETE, f"Error deleting: {self.err}")
            raise self.err
        self._event(job, NORMAL, SUCCESSFUL_DELETE, f"Deleted pod: {name}")

    def remove_finalizer(self, namespace: str, name: str, finalizer: str) -> None:
        """Record the patch."""
        self.patches.append(name)
        if self.err is not None:
            raise self.err

    def _event(self, job: Job, type_: str, reason: str, message: str) -> None:
        if self.recorder is not None:
            self.recorder.event(job, type_, reason, message)


def with_finalizer(template: PodTemplateSpec, finalizer: str) -> PodTemplateSpec:
    """The template with ``finalizer`` added if missing (appendJobCompletionFinalizerIfNotFound)."""
    fins = template.metadata.finalizers
    if finalizer in fins:
        return template
    return evolve(template, metadata=evolve(template.metadata, finalizers=(*fins, finalizer)))


# --------------------------------------------------------------------------------------
# The deletion order (ActivePods.Less) as data
# --------------------------------------------------------------------------------------


def ready_since(pod: Pod) -> float | None:
    """When a ready pod became ready; None (Go's zero time) if unknown or not ready.

    Mirrors ``podReadyTime`` in controller_utils.go: the lastTransitionTime of the first
    Ready=True condition of a ready pod.
    """
    if not is_pod_ready(pod):
        return None
    for condition in pod.status.conditions:
        if condition.type == PodConditionType.READY and condition.status == ConditionStatus.TRUE:
            return condition.last_transition_time
    return None


def max_container_restarts(pod: Pod) -> tuple[int, int]:
    """(max restartCount of regular containers, max restartCount of sidecars).

    Mirrors ``maxContainerRestarts`` in controller_utils.go. A sidecar is an init container
    whose spec has restartPolicy Always; ordinary init containers are not counted. The
    maximum is taken, not the sum.
    """
    regular = max((cs.restart_count for cs in pod.status.container_statuses), default=0)
    sidecar_names = {
        c.name for c in (pod.spec.init_containers or ()) if c.restart_policy == "Always"
    }
    sidecar = max(
        (cs.restart_count for cs in pod.status.init_container_statuses if cs.name in sidecar_names),
        default=0,
    )
    return max(regular, 0), max(sidecar, 0)


# Any phase missing from this map ranks like Pending: upstream's map lookup defaults to 0.
_PHASE_RANK = {Phase.PENDING: 0, Phase.UNKNOWN: 1, Phase.RUNNING: 2}


def _assigned(pod: Pod) -> bool:
    return pod.spec.node_name != ""


def _phase_rank(pod: Pod) -> int:
    return _PHASE_RANK.get(pod.status.phase, 0)


def _newest_first(t: float | None) -> tuple[int, float]:
    # afterOrZero: a zero (unset) time sorts before any real time; otherwise later first.
    return (0, 0.0) if t is None else (1, -t)


def _ready_time(pod: Pod) -> tuple[int, float]:
    # Only compared between two ready pods: rule "not-ready-first" already split the rest.
    if not is_pod_ready(pod):
        return (0, 0.0)
    return _newest_first(ready_since(pod))


def _creation_time(pod: Pod) -> tuple[int, float]:
    return _newest_first(pod.metadata.creation_timestamp)


@dataclass(frozen=True, slots=True)
class OrderRule:
    """One step of ``ActivePods.Less``: pods whose ``key`` is smaller are deleted first."""

    id: str
    key: Callable[[Pod], Any] = field(repr=False)


ORDER_RULES: tuple[OrderRule, ...] = (
    OrderRule("unassigned-first", _assigned),
    OrderRule("earlier-phase-first", _phase_rank),
    OrderRule("not-ready-first", is_pod_ready),
    OrderRule("recently-ready-first", _ready_time),
    OrderRule("more-restarts-first", lambda p: -max_container_restarts(p)[0]),
    OrderRule("more-sidecar-restarts-first", lambda p: -max_container_restarts(p)[1]),
    OrderRule("newer-first", _creation_time),
)
"""The rules of ``ActivePods.Less`` in the order upstream applies them; the first rule on which
two pods differ decides. Their sentences are data of the trace layer
(:data:`k8sjobs.trace.reasons.ORDER_RULE_SENTENCES`), keyed by these ids."""

NAME_RULE = OrderRule("name", lambda p: p.metadata.name)
"""Our tie-breaker (upstream leaves such pods unordered)."""


def active_pods_sort_key(pod: Pod) -> tuple:
    """Sort key of the deletion order: smaller is deleted first.

    Mirrors ``ActivePods.Less`` in controller_utils.go (see :data:`ORDER_RULES`), with the pod
    name appended so that the order is total.
    """
    return tuple(rule.key(pod) for rule in ORDER_RULES) + (NAME_RULE.key(pod),)


def deciding_rule(a: Pod, b: Pod) -> str | None:
    """Id of the rule that puts ``a`` before ``b`` in the deletion order.

    That is the first rule of :data:`ORDER_RULES` on which the two pods differ, or ``"name"``
    when they tie on every rule and ``a``'s name is smaller. None when ``a`` does not go
    before ``b`` (``b`` goes first, or the pods are indistinguishable).
    """
    for rule in (*ORDER_RULES, NAME_RULE):
        ka, kb = rule.key(a), rule.key(b)
        if ka != kb:
            return rule.id if ka < kb else None
    return None


def sort_active_pods(pods: Iterable[Pod]) -> list[Pod]:
    """``pods`` in deletion order (first = deleted first); mirrors ``sort.Sort(controller.ActivePods(pods))``."""
    return sorted(pods, key=active_pods_sort_key)
