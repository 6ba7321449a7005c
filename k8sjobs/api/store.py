"""An in-memory API server: create / get / list / update / patch / delete with resourceVersion.

What it does as the real API server does (and a learner can see):

* names from ``generateName`` (deterministic, seeded), UIDs, creationTimestamp, a
  resourceVersion that grows with every write, ``generation`` that grows with every
  Job spec change;
* Jobs go through defaulting and validation on create, update and status writes
  (:mod:`k8sjobs.api.admission`); new pods start in phase Pending;
* deletion honours finalizers: an object that has finalizers only gets a
  ``deletionTimestamp`` and is removed when the last finalizer goes; running pods are
  deleted gracefully (``deletionTimestamp = now + grace``) and the kubelet finishes them;
* watch events (ADDED / MODIFIED / DELETED) for informers;
* the garbage collector: deleting a Job deletes its pods (background or foreground
  propagation), orphan propagation releases them;
* fault hooks: fail the next N creations, a pod quota, a terminating namespace,
  conflicts on status writes, and arbitrary reactors.

Objects are frozen dataclasses; the store replaces them, never mutates them.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ..clock import Clock, copy_callback
from ..ids import IdSource
from . import admission
from .apierrors import NAMESPACE_TERMINATING_CAUSE, APIError, Reason, already_exists, conflict, not_found
from .errors import InvalidError
from .labels import selector_matches
from .types import Job, LabelSelector, Phase, Pod, evolve

ADDED, MODIFIED, DELETED = "ADDED", "MODIFIED", "DELETED"
FOREGROUND_DELETION_FINALIZER = "foregroundDeletion"
DEFAULT_TERMINATION_GRACE_PERIOD = 30
GENERATE_NAME_ATTEMPTS = 8

RESOURCES = {"Job": "jobs.batch", "Pod": "pods", "Node": "nodes", "Event": "events", "CronJob": "cronjobs.batch"}
_SHORT_RESOURCES = {"Job": "jobs", "Pod": "pods", "Node": "nodes", "Event": "events", "CronJob": "cronjobs"}
_CLUSTER_SCOPED = {"Node"}


class WatchEvent(NamedTuple):
    """One change seen by a watcher: ``type`` is ADDED, MODIFIED or DELETED.

    A named tuple (immutable, and cheap to make: one is made for every write).
    """

    type: str
    kind: str
    obj: Any
    old: Any = None

    def __deepcopy__(self, memo: dict[int, Any]) -> WatchEvent:
        return self  # immutable, and so are the API objects in it


@dataclass
class Faults:
    """Fault injection, the way a lesson breaks the cluster on purpose.

    ``fail_next_creates``: the next N pod creations fail (an internal error);
    ``pod_quota``: a ResourceQuota on ``pods`` per namespace (non-terminal pods count), named
    ``pod_quota_name``, on the resource ``pod_quota_resource``; ``pod_quota_outside`` more pods
    count as used (pods of the namespace the simulation does not hold: a snapshot's quota status);
    ``terminating_namespaces``: creations there fail with the NamespaceTerminating cause;
    ``status_conflicts``: the next N Job status writes fail with a Conflict;
    ``reactors``: ``fn(verb, kind, obj) -> APIError | None`` checked before every write.
    """

    fail_next_creates: int = 0
    pod_quota: int | None = None
    pod_quota_name: str = "pod-quota"
    pod_quota_resource: str = "pods"
    pod_quota_outside: int = 0
    terminating_namespaces: set[str] = field(default_factory=set)
    status_conflicts: int = 0
    reactors: list[Callable[[str, str, Any], APIError | None]] = field(default_factory=list)

    def __deepcopy__(self, memo: dict[int, Any]) -> Faults:
        # replace() carries every other field by name: one added later cannot land in another's place
        # (a positional copy once did that). The two containers are copied; the rest are immutable values.
        new = dataclasses.replace(self, terminating_namespaces=set(self.terminating_namespaces),
                                  reactors=[copy_callback(fn, memo) for fn in self.reactors])
        memo[id(self)] = new
        return new


_new_tuple = tuple.__new__


def _key(obj: Any) -> tuple[str, str]:
    return (obj.metadata.namespace, obj.metadata.name)


_TERMINAL_PHASES = frozenset({Phase.SUCCEEDED, Phase.FAILED})


def _is_terminal(pod: Pod) -> bool:
    return pod.status.phase in (Phase.SUCCEEDED, Phase.FAILED)


def upstream_pod_grace_period(pod: Pod, requested: int | None) -> int:
    """The grace period a pod DELETE gets (mirrors the pod strategy's CheckGracefulDelete).

    Unscheduled and already-finished pods go at once (0); others get the requested
    period, else ``spec.terminationGracePeriodSeconds``, else 30 s.
    """
    if not pod.spec.node_name or _is_terminal(pod):
        return 0
    if requested is not None:
        return max(requested, 0)
    tgps = pod.spec.termination_grace_period_seconds
    return DEFAULT_TERMINATION_GRACE_PERIOD if tgps is None else max(tgps, 0)


class APIStore:
    """The in-memory API server (mirrors what client-go's ObjectTracker + the real server do)."""

    def __init__(self, clock: Clock, *, seed: int = 0, ids: IdSource | None = None,
                 pod_grace_period: Callable[[Pod, int | None], int] = upstream_pod_grace_period) -> None:
        self.clock = clock
        self.ids = ids or IdSource(seed)
        self.faults = Faults()
        self.pod_grace_period = pod_grace_period
        self._objects: dict[str, dict[tuple[str, str], Any]] = {k: {} for k in RESOURCES}
        self._rv = 0
        self._watchers: dict[str, list[Callable[[WatchEvent], None]]] = {k: [] for k in RESOURCES}
        self._non_terminal_pods: dict[str, int] = {}
        self.write_log: list[tuple[float, str, str, str, str]] = []
        """(time, verb, kind, namespace, name) of every successful write, in order."""

    # ------------------------------------------------------------------ helpers

    def __deepcopy__(self, memo: dict[int, Any]) -> APIStore:
        # The stored objects are immutable: a snapshot copies the maps that hold them, not them.
        new = APIStore.__new__(APIStore)
        memo[id(self)] = new
        for name, value in self.__dict__.items():
            if name == "_objects":
                new._objects = {kind: dict(objs) for kind, objs in value.items()}
            elif name == "write_log":
                new.write_log = list(value)
            elif name == "_watchers":
                new._watchers = {kind: [copy_callback(fn, memo) for fn in fns] for kind, fns in value.items()}
            else:
                setattr(new, name, copy.deepcopy(value, memo))
        return new

    def _next_rv(self) -> str:
        self._rv += 1
        return str(self._rv)

    def _check_reactors(self, verb: str, kind: str, obj: Any) -> None:
        for reactor in self.faults.reactors:
            err = reactor(verb, kind, obj)
            if err is not None:
                raise err

    def _notify(self, ev: WatchEvent) -> None:
        # The list is never changed in place (watch and its undo replace it), so a handler that
        # stops watching (or starts) while the event is delivered does not change this loop.
        for handler in self._watchers[ev.kind]:
            handler(ev)

    def _log(self, verb: str, kind: str, obj: Any) -> None:
        self.write_log.append((self.clock.now(), verb, kind, obj.metadata.namespace, obj.metadata.name))

    def _track_pod_count(self, old: Pod | None, new: Pod | None) -> None:
        # Non-terminal pods per namespace, for the pod quota; touched only when that changes.
        counted_old = old is not None and old.status.phase not in _TERMINAL_PHASES
        counted_new = new is not None and new.status.phase not in _TERMINAL_PHASES
        if counted_old != counted_new:
            ns = (new if new is not None else old).metadata.namespace
            self._non_terminal_pods[ns] = self._non_terminal_pods.get(ns, 0) + (1 if counted_new else -1)

    def _store(self, kind: str, obj: Any, old: Any, verb: str) -> Any:
        # _key, _log and _notify inlined, and the WatchEvent made as the plain tuple it is (its
        # generated __new__ costs three times as much): every write of a run comes here.
        meta = obj.metadata
        self._objects[kind][(meta.namespace, meta.name)] = obj
        if kind == "Pod":
            self._track_pod_count(old, obj)
        self.write_log.append((self.clock.now(), verb, kind, meta.namespace, meta.name))
        ev = _new_tuple(WatchEvent, (MODIFIED if old is not None else ADDED, kind, obj, old))
        for handler in self._watchers[kind]:
            handler(ev)
        return obj

    def _remove(self, kind: str, obj: Any) -> None:
        del self._objects[kind][_key(obj)]
        if kind == "Pod":
            self._track_pod_count(obj, None)
        self._log("remove", kind, obj)
        self._notify(WatchEvent(DELETED, kind, obj, obj))
        self._after_removal(kind, obj)

    # ------------------------------------------------------------------ read

    def get(self, kind: str, namespace: str, name: str) -> Any:
        """The stored object; raises NotFound."""
        obj = self._objects[kind].get((namespace if kind not in _CLUSTER_SCOPED else "", name))
        if obj is None:
            raise not_found(RESOURCES[kind], name)
        return obj

    def try_get(self, kind: str, namespace: str, name: str) -> Any | None:
        """The stored object or None."""
        return self._objects[kind].get((namespace if kind not in _CLUSTER_SCOPED else "", name))

    def list(self, kind: str, namespace: str | None = None, selector: LabelSelector | None = None) -> list[Any]:
        """Objects of ``kind`` sorted by (namespace, name), optionally filtered."""
        out = []
        for key in sorted(self._objects[kind]):
            obj = self._objects[kind][key]
            if namespace is not None and obj.metadata.namespace != namespace:
                continue
            if selector is not None and not selector_matches(selector, obj.metadata.labels):
                continue
            out.append(obj)
        return out

    def count(self, kind: str) -> int:
        """How many objects of ``kind`` are stored."""
        return len(self._objects[kind])

    def size(self) -> int:
        """How many objects are stored, of every kind."""
        return sum(len(objs) for objs in self._objects.values())

    def watch(self, kind: str, handler: Callable[[WatchEvent], None]) -> Callable[[], None]:
        """Call ``handler`` for every change of ``kind``; returns a function that stops it."""
        self._watchers[kind] = [*self._watchers[kind], handler]
        return lambda: self._unwatch(kind, handler)

    def _unwatch(self, kind: str, handler: Callable[[WatchEvent], None]) -> None:
        kept = list(self._watchers[kind])
        kept.remove(handler)
        self._watchers[kind] = kept  # a new list: a delivery under way goes on with the old one

    # ------------------------------------------------------------------ create

    def create(self, obj: Any) -> Any:
        """Create ``obj`` (name or generateName); returns the stored object or raises APIError."""
        kind = obj.kind
        if kind not in RESOURCES:
            raise APIError(Reason.BAD_REQUEST, f"unknown kind {kind!r}")
        meta = obj.metadata
        ns = "" if kind in _CLUSTER_SCOPED else (meta.namespace or "default")
        name = meta.name
        if kind == "Pod":
            self._admit_pod_create(obj, ns)
        self._check_reactors("create", kind, obj)
        if not name:
            if not meta.generate_name:
                raise APIError(Reason.INVALID, "metadata.name: Required value: name or generateName is required",
                               field_errors=[])
            # RetryGenerateName (GA in 1.32): a generated name that is taken is drawn again, up
            # to 8 attempts, so thousands of pods of one Job do not fail on a random collision.
            for _ in range(GENERATE_NAME_ATTEMPTS):
                name = self.ids.generate_name(meta.generate_name, kind)
                if (ns, name) not in self._objects[kind]:
                    break
        if (ns, name) in self._objects[kind]:
            raise already_exists(RESOURCES[kind], name)
        now = self.clock.now()
        meta = evolve(meta, name=name, namespace=ns, uid=self.ids.uid(kind), creation_timestamp=now,
                      resource_version=self._next_rv(),
                      generation=1 if kind in ("Job", "CronJob") else meta.generation,
                      deletion_timestamp=None, deletion_grace_period_seconds=None)
        if kind == "Pod" and not obj.status.phase:
            # The pod strategy starts every pod in phase Pending.
            obj = evolve(obj, metadata=meta, status=evolve(obj.status, phase=Phase.PENDING))
        else:
            obj = evolve(obj, metadata=meta)
        if kind == "Job":
            obj = self._admit(lambda: admission.admit_job_create(obj), obj)
        elif kind == "CronJob":
            obj = self._admit(lambda: admission.admit_cronjob_create(obj), obj)
        return self._store(kind, obj, None, "create")

    def _admit_pod_create(self, pod: Pod, ns: str) -> None:
        f = self.faults
        shown = pod.metadata.name or pod.metadata.generate_name
        if ns in f.terminating_namespaces:
            raise APIError(Reason.FORBIDDEN,
                           f'pods "{shown}" is forbidden: unable to create new content in namespace {ns} '
                           "because it is being terminated", cause=NAMESPACE_TERMINATING_CAUSE)
        if f.fail_next_creates > 0:
            f.fail_next_creates -= 1
            raise APIError(Reason.INTERNAL, "Internal error occurred: injected create failure (k8sjobs fault)")
        if f.pod_quota is not None:
            used = self._non_terminal_pods.get(ns, 0) + f.pod_quota_outside
            if used + 1 > f.pod_quota:
                res = f.pod_quota_resource
                raise APIError(Reason.FORBIDDEN,
                               f'pods "{shown}" is forbidden: exceeded quota: {f.pod_quota_name}, requested: '
                               f"{res}=1, used: {res}={used}, limited: {res}={f.pod_quota}")

    @staticmethod
    def _admit(fn: Callable[[], Any], obj: Any) -> Any:
        try:
            return fn()
        except InvalidError as exc:
            raise APIError(Reason.INVALID, exc.message(), field_errors=exc.errors) from exc

    # ------------------------------------------------------------------ update

    def _current(self, obj: Any) -> Any:
        ns = "" if obj.kind in _CLUSTER_SCOPED else obj.metadata.namespace
        cur = self._objects[obj.kind].get((ns, obj.metadata.name))
        if cur is None:
            raise not_found(RESOURCES[obj.kind], obj.metadata.name)
        rv = obj.metadata.resource_version
        if rv and rv != cur.metadata.resource_version:
            raise conflict(RESOURCES[obj.kind], obj.metadata.name)
        return cur

    def update(self, obj: Any) -> Any:
        """Replace metadata and spec (not status); a stale resourceVersion is a Conflict."""
        cur = self._current(obj)
        self._check_reactors("update", obj.kind, obj)
        # Identity fields are the server's; status goes through update_status.
        meta = evolve(obj.metadata, uid=cur.metadata.uid, creation_timestamp=cur.metadata.creation_timestamp,
                       deletion_timestamp=cur.metadata.deletion_timestamp,
                       deletion_grace_period_seconds=cur.metadata.deletion_grace_period_seconds,
                       generation=cur.metadata.generation, resource_version=cur.metadata.resource_version)
        new = evolve(obj, metadata=meta, status=cur.status) if hasattr(obj, "status") else evolve(obj, metadata=meta)
        if obj.kind == "Job":
            new = self._admit(lambda: admission.admit_job_update(cur, new), new)
            if new.spec != cur.spec:
                new = evolve(new, metadata=evolve(new.metadata, generation=cur.metadata.generation + 1))
        elif obj.kind == "CronJob":
            new = self._admit(lambda: admission.admit_cronjob_update(cur, new), new)
        if new == cur:
            return cur  # a no-op write does not bump the resourceVersion
        new = evolve(new, metadata=evolve(new.metadata, resource_version=self._next_rv()))
        return self._finish_write(obj.kind, new, cur, "update")

    def update_status(self, obj: Any) -> Any:
        """Write the status subresource: only ``status`` changes."""
        cur = self._current(obj)
        if obj.kind == "Job" and self.faults.status_conflicts > 0:
            self.faults.status_conflicts -= 1
            raise conflict(RESOURCES["Job"], obj.metadata.name)
        self._check_reactors("update_status", obj.kind, obj)
        if obj.status is cur.status or obj.status == cur.status:
            return cur  # a no-op write does not bump the resourceVersion
        status = obj.status
        if obj.kind == "Job":
            status = self._admit(lambda: admission.admit_job_status_update(cur, evolve(cur, status=status)),
                                 obj).status
        new = evolve(cur, status=status, metadata=evolve(cur.metadata, resource_version=self._next_rv()))
        return self._finish_write(obj.kind, new, cur, "update_status")

    def patch(self, kind: str, namespace: str, name: str, mutate: Callable[[Any], Any], *,
              verb: str = "patch") -> Any:
        """Apply ``mutate(current) -> new`` to the stored object (a server-side patch, no rv check)."""
        cur = self.get(kind, namespace, name)
        self._check_reactors(verb, kind, cur)
        new = mutate(cur)
        m = new.metadata
        if m.uid != cur.metadata.uid or m.creation_timestamp != cur.metadata.creation_timestamp:
            new = evolve(new, metadata=evolve(m, uid=cur.metadata.uid,
                                              creation_timestamp=cur.metadata.creation_timestamp))
        if kind == "Job" and new.spec != cur.spec:
            new = self._admit(lambda: admission.admit_job_update(cur, new), new)
            new = evolve(new, metadata=evolve(new.metadata, generation=cur.metadata.generation + 1))
        if new == cur:
            return cur
        new = evolve(new, metadata=evolve(new.metadata, resource_version=self._next_rv()))
        return self._finish_write(kind, new, cur, verb)

    def bind_pod(self, namespace: str, name: str, spec: Any, status: Any) -> Any:
        """The scheduler's write (pods/binding): the pod's spec (nodeName set) and status (PodScheduled).

        The same as ``patch`` with a function that sets both, in one copy: this runs once
        for every pod.
        """
        cur = self.get("Pod", namespace, name)
        self._check_reactors("bind", "Pod", cur)
        if spec == cur.spec and status == cur.status:
            return cur
        new = evolve(cur, spec=spec, status=status,
                     metadata=evolve(cur.metadata, resource_version=self._next_rv()))
        return self._finish_write("Pod", new, cur, "bind")

    def remove_finalizer(self, kind: str, namespace: str, name: str, finalizer: str) -> Any:
        """Patch one finalizer away (what the Job controller does to tracked pods).

        The same as ``patch`` with a function that drops the finalizer, in one copy: this
        runs once for every pod of every Job.
        """
        cur = self.get(kind, namespace, name)
        self._check_reactors("remove_finalizer", kind, cur)
        meta = cur.metadata
        if finalizer not in meta.finalizers:
            return cur  # nothing changes: no write, no new resourceVersion
        kept = tuple(f for f in meta.finalizers if f != finalizer)
        new = evolve(cur, metadata=evolve(meta, finalizers=kept, resource_version=self._next_rv()))
        return self._finish_write(kind, new, cur, "remove_finalizer")

    def _finish_write(self, kind: str, new: Any, cur: Any, verb: str) -> Any:
        meta = new.metadata
        # The last finalizer of an object whose grace period is over: the object goes.
        if meta.deletion_timestamp is not None and not meta.finalizers and not meta.deletion_grace_period_seconds:
            # The write and the removal are one step: watchers see a single DELETED.
            self._objects[kind][_key(new)] = new
            if kind == "Pod":
                self._track_pod_count(cur, new)
            self._remove(kind, new)
            return new
        return self._store(kind, new, cur, verb)

    # ------------------------------------------------------------------ delete

    def delete(self, kind: str, namespace: str, name: str, *, grace_period_seconds: int | None = None,
               propagation: str = "Background", precondition_uid: str | None = None) -> Any:
        """Delete an object as the API server does; returns the object as last stored.

        Pods get graceful deletion; objects with finalizers only get a deletionTimestamp;
        ``propagation`` (Background, Foreground, Orphan) decides what happens to the pods
        a Job owns.
        """
        cur = self.get(kind, namespace, name)
        if precondition_uid is not None and precondition_uid != cur.metadata.uid:
            raise conflict(RESOURCES[kind], name, "Precondition failed: UID in precondition: "
                           f"{precondition_uid}, UID in object meta: {cur.metadata.uid}")
        self._check_reactors("delete", kind, cur)
        now = self.clock.now()
        meta = cur.metadata
        if kind == "Pod":
            grace = self.pod_grace_period(cur, grace_period_seconds)
            if meta.deletion_timestamp is not None:
                # Already terminating: a shorter grace period may still speed it up.
                if grace == 0 and meta.deletion_grace_period_seconds:
                    return self._mark_deleted(kind, cur, now, 0)
                return cur
            if grace > 0 or meta.finalizers:
                return self._mark_deleted(kind, cur, now, grace)
            self._remove(kind, cur)
            return cur
        if propagation == "Orphan":
            self._orphan_dependents(cur)
        if propagation == "Foreground" and self._dependents(cur):
            fins = meta.finalizers if FOREGROUND_DELETION_FINALIZER in meta.finalizers else (
                *meta.finalizers, FOREGROUND_DELETION_FINALIZER)
            new = evolve(cur, metadata=evolve(meta, finalizers=fins,
                                                deletion_timestamp=meta.deletion_timestamp or now,
                                                deletion_grace_period_seconds=0,
                                                resource_version=self._next_rv()))
            self._store(kind, new, cur, "delete")
            for dep in self._dependents(cur):
                self._delete_dependent(dep)
            self._maybe_finish_foreground(new)
            return new
        if meta.finalizers:
            if meta.deletion_timestamp is not None:
                return cur
            return self._mark_deleted(kind, cur, now, 0)
        self._remove(kind, cur)
        return cur

    def _mark_deleted(self, kind: str, cur: Any, now: float, grace: int) -> Any:
        new = evolve(cur, metadata=evolve(cur.metadata, deletion_timestamp=now + grace,
                                            deletion_grace_period_seconds=grace,
                                            resource_version=self._next_rv()))
        if grace == 0 and not new.metadata.finalizers:
            self._objects[kind][_key(new)] = new
            self._remove(kind, new)
            return new
        return self._store(kind, new, cur, "delete")

    # ------------------------------------------------------------------ garbage collector

    def _dependents(self, owner: Any) -> list[Any]:
        # A Job owns pods; a CronJob owns Jobs.
        uid = owner.metadata.uid
        kind = "Job" if owner.kind == "CronJob" else "Pod"
        return [p for p in self._objects[kind].values()
                if p.metadata.namespace == owner.metadata.namespace
                and any(r.uid == uid for r in p.metadata.owner_references)]

    def _delete_dependent(self, dep: Any) -> None:
        if dep.metadata.deletion_timestamp is None and self.try_get(dep.kind, dep.metadata.namespace,
                                                                    dep.metadata.name):
            self.delete(dep.kind, dep.metadata.namespace, dep.metadata.name)

    def _orphan_dependents(self, owner: Any) -> None:
        uid = owner.metadata.uid
        for dep in self._dependents(owner):
            refs = tuple(r for r in dep.metadata.owner_references if r.uid != uid)
            self.patch(dep.kind, dep.metadata.namespace, dep.metadata.name,
                       lambda o, refs=refs: evolve(o, metadata=evolve(o.metadata, owner_references=refs)),
                       verb="orphan")

    def _after_removal(self, kind: str, obj: Any) -> None:
        if kind in ("Job", "CronJob"):
            # Background propagation: the garbage collector deletes what the Job owned.
            for dep in self._dependents(obj):
                self._delete_dependent(dep)
        elif kind == "Pod":
            for ref in obj.metadata.owner_references:
                if ref.kind == "Job":
                    owner = self.try_get("Job", obj.metadata.namespace, ref.name)
                    if owner is not None and owner.metadata.uid == ref.uid:
                        self._maybe_finish_foreground(owner)

    def _maybe_finish_foreground(self, owner: Job) -> None:
        # Re-read: the last dependent's removal may already have finished the owner.
        cur = self.try_get("Job", owner.metadata.namespace, owner.metadata.name)
        if cur is None or cur.metadata.uid != owner.metadata.uid:
            return
        if FOREGROUND_DELETION_FINALIZER not in cur.metadata.finalizers or self._dependents(cur):
            return
        self.remove_finalizer("Job", cur.metadata.namespace, cur.metadata.name, FOREGROUND_DELETION_FINALIZER)

    # ------------------------------------------------------------------ convenience

    def objects(self, kind: str) -> Iterable[Any]:
        """Every stored object of ``kind`` (unsorted; for bulk reads such as memory checks)."""
        return self._objects[kind].values()

    def snapshot(self) -> dict[str, dict[tuple[str, str], Any]]:
        """A cheap copy of the whole state (the objects themselves are immutable and shared)."""
        return {k: dict(v) for k, v in self._objects.items()}

    def load(self, objects: Iterable[Any]) -> None:
        """Put objects in as they are, as a restored etcd would hold them (no admission, no watch events).

        Used to start a simulation from a real cluster's state (a snapshot): names, UIDs,
        timestamps, status and resourceVersions are kept, and new resourceVersions continue
        above the highest numeric one loaded, so none is ever given twice.
        """
        highest = 0
        for obj in objects:
            kind = obj.kind
            if kind not in RESOURCES:
                raise APIError(Reason.BAD_REQUEST, f"unknown kind {kind!r}")
            key = ("" if kind in _CLUSTER_SCOPED else obj.metadata.namespace, obj.metadata.name)
            if key in self._objects[kind]:
                raise already_exists(RESOURCES[kind], obj.metadata.name)
            self._objects[kind][key] = obj
            if kind == "Pod":
                self._track_pod_count(None, obj)
            rv = obj.metadata.resource_version
            if rv.isdigit():
                highest = max(highest, int(rv))
        # The next resourceVersion given is above every one loaded (and one that was due is skipped).
        current = self._rv + 1
        self._rv = max(current, highest + 1) - 1

    def restore(self, snapshot: dict[str, dict[tuple[str, str], Any]]) -> None:
        """Put back a :meth:`snapshot` (used by time travel); watchers are not notified."""
        self._objects = {k: dict(v) for k, v in snapshot.items()}
        self._non_terminal_pods = {}
        for pod in self._objects["Pod"].values():
            self._track_pod_count(None, pod)


def replace_deep(obj: Any, **changes: Any) -> Any:
    """``dataclasses.replace`` that accepts dotted paths: ``replace_deep(job, **{"spec.suspend": True})``."""
    for path, value in changes.items():
        obj = _replace_path(obj, path.split("."), value)
    return obj


def _replace_path(obj: Any, parts: list[str], value: Any) -> Any:
    head, *rest = parts
    if not rest:
        return dataclasses.replace(obj, **{head: value})
    return dataclasses.replace(obj, **{head: _replace_path(getattr(obj, head), rest, value)})
