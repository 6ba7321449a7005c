"""batch/v1 Job and CronJob, core/v1 Pod, Node and Event as frozen dataclasses.

Field names are the snake_case forms of the Kubernetes JSON names (``backoffLimit`` ->
``backoff_limit``); :mod:`k8sjobs.api.serialize` converts to and from the camelCase
documents a user writes for ``kubectl apply``. Objects are immutable: change them with
``dataclasses.replace``. Sequences are tuples; maps are plain dicts that nobody mutates
after construction.

Optional fields use ``None`` for "unset", exactly where the Go type is a pointer or an
omitempty value, because the API server's defaulting and validation treat "unset" and
"set to the zero value" differently (an explicit ``podReplacementPolicy: ""`` is not
defaulted, for example).

Times (:data:`Time`) are seconds of simulated time; ``None`` is Go's zero time.
"""

from __future__ import annotations

from dataclasses import MISSING as _DC_MISSING
from dataclasses import dataclass, field
from dataclasses import fields as _dc_fields
from dataclasses import is_dataclass as _dc_is_dataclass
from typing import Any, NewType

Time = NewType("Time", float)
"""Simulated seconds. Serialized as RFC 3339 relative to :data:`k8sjobs.api.serialize.EPOCH`."""

# --------------------------------------------------------------------------------------
# Well-known names (k8s.io/api/batch/v1 and core/v1 constants)
# --------------------------------------------------------------------------------------

JOB_TRACKING_FINALIZER = "batch.kubernetes.io/job-tracking"
JOB_COMPLETION_INDEX_ANNOTATION = "batch.kubernetes.io/job-completion-index"
JOB_INDEX_FAILURE_COUNT_ANNOTATION = "batch.kubernetes.io/job-index-failure-count"
JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION = "batch.kubernetes.io/job-index-ignored-failure-count"
JOB_NAME_LABEL = "batch.kubernetes.io/job-name"
CONTROLLER_UID_LABEL = "batch.kubernetes.io/controller-uid"
LEGACY_JOB_NAME_LABEL = "job-name"
LEGACY_CONTROLLER_UID_LABEL = "controller-uid"
JOB_CONTROLLER_NAME = "kubernetes.io/job-controller"
POD_DELETION_COST_ANNOTATION = "controller.kubernetes.io/pod-deletion-cost"
JOB_COMPLETION_INDEX_ENV = "JOB_COMPLETION_INDEX"
MAX_INT32 = 2147483647


class Phase:
    """Pod phases (core/v1 PodPhase)."""

    PENDING = "Pending"
    RUNNING = "Running"
    SUCCEEDED = "Succeeded"
    FAILED = "Failed"
    UNKNOWN = "Unknown"


class CompletionMode:
    """spec.completionMode values."""

    NON_INDEXED = "NonIndexed"
    INDEXED = "Indexed"


class PodReplacementPolicy:
    """spec.podReplacementPolicy values."""

    TERMINATING_OR_FAILED = "TerminatingOrFailed"
    FAILED = "Failed"


class PodFailurePolicyAction:
    """spec.podFailurePolicy.rules[*].action values."""

    FAIL_JOB = "FailJob"
    FAIL_INDEX = "FailIndex"
    IGNORE = "Ignore"
    COUNT = "Count"


class JobConditionType:
    """Job condition types."""

    SUSPENDED = "Suspended"
    COMPLETE = "Complete"
    FAILED = "Failed"
    FAILURE_TARGET = "FailureTarget"
    SUCCESS_CRITERIA_MET = "SuccessCriteriaMet"


class JobReason:
    """Reasons the Job controller writes on conditions and events."""

    SUSPENDED = "JobSuspended"
    RESUMED = "JobResumed"
    BACKOFF_LIMIT_EXCEEDED = "BackoffLimitExceeded"
    DEADLINE_EXCEEDED = "DeadlineExceeded"
    POD_FAILURE_POLICY = "PodFailurePolicy"
    MAX_FAILED_INDEXES_EXCEEDED = "MaxFailedIndexesExceeded"
    FAILED_INDEXES = "FailedIndexes"
    COMPLETIONS_REACHED = "CompletionsReached"
    SUCCESS_POLICY = "SuccessPolicy"


class ConditionStatus:
    """core/v1 ConditionStatus."""

    TRUE = "True"
    FALSE = "False"
    UNKNOWN = "Unknown"


class PodConditionType:
    """Pod condition types the Job controller looks at."""

    READY = "Ready"
    POD_SCHEDULED = "PodScheduled"
    DISRUPTION_TARGET = "DisruptionTarget"
    RESOURCE_LIMIT_EXCEEDED = "ResourceLimitExceeded"


# --------------------------------------------------------------------------------------
# Metadata
# --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class OwnerReference:
    """metav1.OwnerReference."""

    api_version: str = ""
    kind: str = ""
    name: str = ""
    uid: str = ""
    controller: bool | None = None
    block_owner_deletion: bool | None = None


@dataclass(frozen=True, slots=True)
class ObjectMeta:
    """metav1.ObjectMeta (the fields k8sjobs uses; managedFields and the like are left out)."""

    name: str = ""
    generate_name: str = ""
    namespace: str = ""
    uid: str = ""
    resource_version: str = ""
    generation: int = 0
    creation_timestamp: Time | None = None
    deletion_timestamp: Time | None = None
    deletion_grace_period_seconds: int | None = None
    labels: dict[str, str] = field(default_factory=dict)
    annotations: dict[str, str] = field(default_factory=dict)
    owner_references: tuple[OwnerReference, ...] = ()
    finalizers: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class LabelSelectorRequirement:
    """metav1.LabelSelectorRequirement."""

    key: str = ""
    operator: str = ""
    values: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class LabelSelector:
    """metav1.LabelSelector."""

    match_labels: dict[str, str] = field(default_factory=dict)
    match_expressions: tuple[LabelSelectorRequirement, ...] = ()


# --------------------------------------------------------------------------------------
# Pod
# --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EnvVar:
    """core/v1 EnvVar; ``value_from`` is kept as the raw document."""

    name: str = ""
    value: str | None = None
    value_from: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class Container:
    """core/v1 Container. Fields k8sjobs does not interpret live in ``extra`` (camelCase keys)."""

    name: str = ""
    image: str | None = None
    command: tuple[str, ...] | None = None
    args: tuple[str, ...] | None = None
    env: tuple[EnvVar, ...] | None = None
    restart_policy: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class PodSpec:
    """core/v1 PodSpec. Fields k8sjobs does not interpret live in ``extra`` (camelCase keys)."""

    containers: tuple[Container, ...] = ()
    init_containers: tuple[Container, ...] | None = None
    restart_policy: str | None = None
    node_name: str = ""
    node_selector: dict[str, str] | None = None
    tolerations: tuple[dict[str, Any], ...] | None = None
    affinity: dict[str, Any] | None = None
    scheduling_gates: tuple[dict[str, Any], ...] | None = None
    hostname: str | None = None
    subdomain: str | None = None
    termination_grace_period_seconds: int | None = None
    active_deadline_seconds: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class PodTemplateMeta:
    """The metadata a pod template may carry (ObjectMeta, usually only labels/annotations)."""

    name: str = ""
    generate_name: str = ""
    namespace: str = ""
    labels: dict[str, str] = field(default_factory=dict)
    annotations: dict[str, str] = field(default_factory=dict)
    finalizers: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class PodTemplateSpec:
    """core/v1 PodTemplateSpec."""

    metadata: PodTemplateMeta = field(default_factory=PodTemplateMeta)
    spec: PodSpec = field(default_factory=PodSpec)


@dataclass(frozen=True, slots=True)
class ContainerStateWaiting:
    """core/v1 ContainerStateWaiting."""

    reason: str = ""
    message: str = ""


@dataclass(frozen=True, slots=True)
class ContainerStateRunning:
    """core/v1 ContainerStateRunning."""

    started_at: Time | None = None


@dataclass(frozen=True, slots=True)
class ContainerStateTerminated:
    """core/v1 ContainerStateTerminated; ``finished_at`` None is Go's zero time."""

    exit_code: int = 0
    signal: int | None = None
    reason: str = ""
    message: str = ""
    started_at: Time | None = None
    finished_at: Time | None = None


@dataclass(frozen=True, slots=True)
class ContainerState:
    """core/v1 ContainerState: at most one member is set."""

    waiting: ContainerStateWaiting | None = None
    running: ContainerStateRunning | None = None
    terminated: ContainerStateTerminated | None = None


@dataclass(frozen=True, slots=True)
class ContainerStatus:
    """core/v1 ContainerStatus."""

    name: str = ""
    image: str = ""
    ready: bool = False
    restart_count: int = 0
    started: bool | None = None
    state: ContainerState = field(default_factory=ContainerState)
    last_state: ContainerState = field(default_factory=ContainerState)


@dataclass(frozen=True, slots=True)
class PodCondition:
    """core/v1 PodCondition."""

    type: str = ""
    status: str = ""
    last_probe_time: Time | None = None
    last_transition_time: Time | None = None
    reason: str = ""
    message: str = ""


@dataclass(frozen=True, slots=True)
class PodStatus:
    """core/v1 PodStatus."""

    phase: str = ""
    conditions: tuple[PodCondition, ...] = ()
    message: str = ""
    reason: str = ""
    start_time: Time | None = None
    init_container_statuses: tuple[ContainerStatus, ...] = ()
    container_statuses: tuple[ContainerStatus, ...] = ()


@dataclass(frozen=True, slots=True)
class Pod:
    """core/v1 Pod."""

    metadata: ObjectMeta = field(default_factory=ObjectMeta)
    spec: PodSpec = field(default_factory=PodSpec)
    status: PodStatus = field(default_factory=PodStatus)
    api_version: str = "v1"
    kind: str = "Pod"


# --------------------------------------------------------------------------------------
# Job
# --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PodFailurePolicyOnExitCodesRequirement:
    """batch/v1 PodFailurePolicyOnExitCodesRequirement."""

    container_name: str | None = None
    operator: str = ""
    values: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class PodFailurePolicyOnPodConditionsPattern:
    """batch/v1 PodFailurePolicyOnPodConditionsPattern (status defaults to True)."""

    type: str = ""
    status: str = ""


@dataclass(frozen=True, slots=True)
class PodFailurePolicyRule:
    """batch/v1 PodFailurePolicyRule."""

    action: str = ""
    on_exit_codes: PodFailurePolicyOnExitCodesRequirement | None = None
    on_pod_conditions: tuple[PodFailurePolicyOnPodConditionsPattern, ...] | None = None


@dataclass(frozen=True, slots=True)
class PodFailurePolicy:
    """batch/v1 PodFailurePolicy."""

    rules: tuple[PodFailurePolicyRule, ...] = ()


@dataclass(frozen=True, slots=True)
class SuccessPolicyRule:
    """batch/v1 SuccessPolicyRule."""

    succeeded_indexes: str | None = None
    succeeded_count: int | None = None


@dataclass(frozen=True, slots=True)
class SuccessPolicy:
    """batch/v1 SuccessPolicy."""

    rules: tuple[SuccessPolicyRule, ...] = ()


@dataclass(frozen=True, slots=True)
class JobSpec:
    """batch/v1 JobSpec: every field of Kubernetes 1.35."""

    template: PodTemplateSpec = field(default_factory=PodTemplateSpec)
    parallelism: int | None = None
    completions: int | None = None
    active_deadline_seconds: int | None = None
    pod_failure_policy: PodFailurePolicy | None = None
    success_policy: SuccessPolicy | None = None
    backoff_limit: int | None = None
    backoff_limit_per_index: int | None = None
    max_failed_indexes: int | None = None
    selector: LabelSelector | None = None
    manual_selector: bool | None = None
    ttl_seconds_after_finished: int | None = None
    completion_mode: str | None = None
    suspend: bool | None = None
    pod_replacement_policy: str | None = None
    managed_by: str | None = None


@dataclass(frozen=True, slots=True)
class JobCondition:
    """batch/v1 JobCondition."""

    type: str = ""
    status: str = ""
    last_probe_time: Time | None = None
    last_transition_time: Time | None = None
    reason: str = ""
    message: str = ""


@dataclass(frozen=True, slots=True)
class UncountedTerminatedPods:
    """batch/v1 UncountedTerminatedPods: UIDs of finished pods not yet in the counters."""

    succeeded: tuple[str, ...] = ()
    failed: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class JobStatus:
    """batch/v1 JobStatus."""

    conditions: tuple[JobCondition, ...] = ()
    start_time: Time | None = None
    completion_time: Time | None = None
    active: int = 0
    succeeded: int = 0
    failed: int = 0
    terminating: int | None = None
    completed_indexes: str = ""
    failed_indexes: str | None = None
    uncounted_terminated_pods: UncountedTerminatedPods | None = None
    ready: int | None = None


@dataclass(frozen=True, slots=True)
class Job:
    """batch/v1 Job."""

    metadata: ObjectMeta = field(default_factory=ObjectMeta)
    spec: JobSpec = field(default_factory=JobSpec)
    status: JobStatus = field(default_factory=JobStatus)
    api_version: str = "batch/v1"
    kind: str = "Job"


# --------------------------------------------------------------------------------------
# CronJob
# --------------------------------------------------------------------------------------


class ConcurrencyPolicy:
    """batch/v1 CronJob spec.concurrencyPolicy values."""

    ALLOW = "Allow"
    FORBID = "Forbid"
    REPLACE = "Replace"


CRONJOB_SCHEDULED_TIMESTAMP_ANNOTATION = "batch.kubernetes.io/cronjob-scheduled-timestamp"
"""The annotation on a Job a CronJob created: its scheduled time, RFC 3339 in the CronJob's zone."""


@dataclass(frozen=True, slots=True)
class JobTemplateSpec:
    """batch/v1 JobTemplateSpec: the metadata and spec of the Jobs a CronJob creates."""

    metadata: ObjectMeta = field(default_factory=ObjectMeta)
    spec: JobSpec = field(default_factory=JobSpec)


@dataclass(frozen=True, slots=True)
class CronJobSpec:
    """batch/v1 CronJobSpec: every field of Kubernetes 1.35.

    ``concurrency_policy`` is a plain string in Go (omitempty, not a pointer): "" means
    unset and defaulting makes it Allow. ``starting_deadline_seconds`` is an int64.
    """

    schedule: str = ""
    time_zone: str | None = None
    starting_deadline_seconds: int | None = None
    concurrency_policy: str = ""
    suspend: bool | None = None
    job_template: JobTemplateSpec = field(default_factory=JobTemplateSpec)
    successful_jobs_history_limit: int | None = None
    failed_jobs_history_limit: int | None = None


@dataclass(frozen=True, slots=True)
class CronJobStatus:
    """batch/v1 CronJobStatus: the active Jobs and the last schedule and success times."""

    active: tuple[ObjectReference, ...] = ()
    last_schedule_time: Time | None = None
    last_successful_time: Time | None = None


@dataclass(frozen=True, slots=True)
class CronJob:
    """batch/v1 CronJob."""

    metadata: ObjectMeta = field(default_factory=ObjectMeta)
    spec: CronJobSpec = field(default_factory=CronJobSpec)
    status: CronJobStatus = field(default_factory=CronJobStatus)
    api_version: str = "batch/v1"
    kind: str = "CronJob"


# --------------------------------------------------------------------------------------
# Node and Event
# --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class NodeCondition:
    """core/v1 NodeCondition."""

    type: str = ""
    status: str = ""
    last_heartbeat_time: Time | None = None
    last_transition_time: Time | None = None
    reason: str = ""
    message: str = ""


@dataclass(frozen=True, slots=True)
class NodeSpec:
    """core/v1 NodeSpec (the scheduling-relevant part)."""

    unschedulable: bool | None = None
    taints: tuple[dict[str, Any], ...] | None = None


@dataclass(frozen=True, slots=True)
class NodeStatus:
    """core/v1 NodeStatus: ``capacity``/``allocatable`` hold quantities as strings ({"pods": "110"})."""

    capacity: dict[str, str] = field(default_factory=dict)
    allocatable: dict[str, str] = field(default_factory=dict)
    conditions: tuple[NodeCondition, ...] = ()


@dataclass(frozen=True, slots=True)
class Node:
    """core/v1 Node."""

    metadata: ObjectMeta = field(default_factory=ObjectMeta)
    spec: NodeSpec = field(default_factory=NodeSpec)
    status: NodeStatus = field(default_factory=NodeStatus)
    api_version: str = "v1"
    kind: str = "Node"


@dataclass(frozen=True, slots=True)
class ObjectReference:
    """core/v1 ObjectReference (what an Event is about; a CronJob's active Jobs)."""

    kind: str = ""
    namespace: str = ""
    name: str = ""
    uid: str = ""
    api_version: str = ""
    resource_version: str = ""
    field_path: str = ""


@dataclass(frozen=True, slots=True)
class EventSource:
    """core/v1 EventSource."""

    component: str = ""
    host: str = ""


@dataclass(frozen=True, slots=True)
class Event:
    """core/v1 Event, as ``kubectl describe`` lists them."""

    metadata: ObjectMeta = field(default_factory=ObjectMeta)
    involved_object: ObjectReference = field(default_factory=ObjectReference)
    reason: str = ""
    message: str = ""
    type: str = "Normal"
    source: EventSource = field(default_factory=EventSource)
    first_timestamp: Time | None = None
    last_timestamp: Time | None = None
    count: int = 1
    api_version: str = "v1"
    kind: str = "Event"


KINDS: dict[str, type] = {"Job": Job, "CronJob": CronJob, "Pod": Pod, "Node": Node, "Event": Event}
"""Kind name -> dataclass, for the store and the loader."""


# --------------------------------------------------------------------------------------
# Fast immutable update
# --------------------------------------------------------------------------------------

_EVOLVERS: dict[type, dict[tuple[str, ...], Any]] = {}
"""The generated copiers by class, then by the changed field names (two lookups: hashing a
(class, names) pair costs more than the second lookup)."""


def evolve(obj: Any, **changes: Any) -> Any:
    """``dataclasses.replace`` for these frozen, slotted types, several times faster.

    A simulation makes hundreds of thousands of object versions. For each class and set
    of changed field names a small copier is generated once (see :func:`_make_evolver`).
    Unknown field names raise TypeError, as ``replace`` does.
    """
    try:
        fn = _EVOLVERS[type(obj)][tuple(changes)]
    except KeyError:
        fn = _EVOLVERS.setdefault(type(obj), {})[tuple(changes)] = _make_evolver(type(obj), tuple(changes))
    return fn(obj, changes)


def _make_evolver(cls: type, changed: tuple[str, ...]) -> Any:
    """A copier of ``cls`` that takes the ``changed`` fields from a dict and the rest from the old object.

    The copy is built as an instance of an unfrozen twin class with the same slots, whose
    plain attribute stores are much cheaper than the ``object.__setattr__`` calls a frozen
    class needs, and then becomes a ``cls`` by ``__class__`` assignment (allowed because the
    two layouts are identical). Nothing is validated or converted, as with ``replace``
    on these plain classes (none has ``__post_init__``).
    """
    names = cls.__slots__
    unknown = sorted(set(changed) - set(names))
    if unknown:
        raise TypeError(f"{cls.__name__} has no field(s) {unknown}")
    twin = type(f"_{cls.__name__}Draft", (), {"__slots__": names})
    body = "".join(f"    new.{n} = ch[{n!r}]\n" if n in changed else f"    new.{n} = obj.{n}\n" for n in names)
    src = "def evolve_one(obj, ch):\n    new = twin()\n" + body + "    new.__class__ = cls\n    return new\n"
    namespace: dict[str, Any] = {"cls": cls, "twin": twin}
    exec(src, namespace)  # a generated copier; the source is built from field names only
    return namespace["evolve_one"]


_TWIN_INIT_MIN_FIELDS = 5
"""From this many fields on, a constructor fills an unfrozen twin (see :func:`_fast_init`)."""


def _fast_init(cls: type) -> Any:
    """An ``__init__`` for a frozen, slotted dataclass that stores without the frozen guard.

    Same signature, defaults and default factories as the one ``dataclass`` writes. A class with
    a few fields sets each through its slot's ``__set__`` directly instead of going through
    ``object.__setattr__`` (about a quarter less time per object). A class with more fields
    turns the new object into an unfrozen twin with the same slots (as :func:`evolve` builds its
    copies), fills it with plain attribute stores and turns it back: another third less for the
    big types (ObjectMeta, the specs and statuses, Event). An instance of a subclass (another
    layout) is built by the ``__init__`` that ``dataclass`` wrote. A run builds hundreds of thousands of these objects.
    """
    # (Helper names start with "_": a field may be called "type".)
    namespace: dict[str, Any] = {"_MISSING": _DC_MISSING, "_cls": cls, "_type": type, "_set_class": object.__setattr__}
    params, slow, fast, forward = [], [], [], []
    for f in _dc_fields(cls):
        n = f.name
        namespace[f"_set_{n}"] = cls.__dict__[n].__set__
        if f.default is not _DC_MISSING:
            namespace[f"_default_{n}"] = f.default
            params.append(f"{n}=_default_{n}")
            value = n
        elif f.default_factory is not _DC_MISSING:
            namespace[f"_factory_{n}"] = f.default_factory
            params.append(f"{n}=_MISSING")
            value = f"_factory_{n}() if {n} is _MISSING else {n}"
        else:
            params.append(n)
            value = n
        slow.append(f"    _set_{n}(self, {value})\n")
        fast.append(f"    self.{n} = {value}\n")
        forward.append(f"{n}={value}")
    head = f"def __init__(self, {', '.join(params)}):\n"
    if len(fast) >= _TWIN_INIT_MIN_FIELDS:
        namespace["_twin"] = type(f"_{cls.__name__}Init", (), {"__slots__": cls.__slots__})
        namespace["_dataclass_init"] = cls.__init__
        src = (head + "    if _type(self) is not _cls:\n"
               + f"        return _dataclass_init(self, {', '.join(forward)})\n"
               + "    _set_class(self, '__class__', _twin)\n" + "".join(fast) + "    self.__class__ = _cls\n")
    else:
        src = head + "".join(slow or ["    pass\n"])
    exec(src, namespace)  # generated from field names only, as dataclass itself does
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = cls.__init__.__doc__
    return init


def share_on_deepcopy(self: Any, memo: dict[int, Any]) -> Any:
    """``__deepcopy__`` of an immutable object: the copy is the object itself.

    API objects never change once built (maps inside them are never mutated either), so a
    snapshot of a simulation shares them instead of copying thousands of pods field by field.
    """
    return self


def _speed_up_api_types() -> None:
    for obj in list(globals().values()):
        if isinstance(obj, type) and obj.__module__ == __name__ and _dc_is_dataclass(obj) and "__slots__" in obj.__dict__:
            obj.__init__ = _fast_init(obj)
            obj.__deepcopy__ = share_on_deepcopy


_speed_up_api_types()
