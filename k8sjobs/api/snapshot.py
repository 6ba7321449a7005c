"""Snapshots: a Job and its pods as ``kubectl get -o yaml`` (or ``-o json``) printed them.

:func:`read_snapshot` turns what a real cluster printed into the model's objects, so the
real controller can run its next sync on exactly that state (``python -m k8sjobs explain``,
``Explorer.from_snapshot``). It reads:

* a ``v1 List`` (``kubectl get job,pods -l batch.kubernetes.io/job-name=NAME -o yaml``), a
  typed list (``JobList``, ``PodList``), several YAML documents, or a Job alone;
* everything a real API server adds (managedFields, resourceVersion, pod IPs, qosClass,
  container IDs, fields of newer or older Kubernetes versions): what the model does not use
  is dropped and listed once in :attr:`Snapshot.ignored`, never an error;
* what the model uses is checked: a value of the wrong type or a time that is not RFC 3339
  is a :class:`~k8sjobs.api.errors.DecodeError` naming the object and the field path.

Pods are matched to the Job by their controller owner reference, as the controller's
informer index does. Pods without a controller reference (orphans) in the Job's namespace
are kept: the controller's own sync adopts those whose labels match the selector. Pods of
other controllers, and pods in other namespaces, are left out and reported
(:attr:`Snapshot.left_out`). A ``v1 ResourceQuota`` with a ``pods`` limit in the Job's
namespace becomes the simulated pod quota.

Times: the snapshot's instants are moved so that simulated time 0 is the Job's
``creationTimestamp`` (a run's time 0 is always its Job's creation); :attr:`Snapshot.origin`
remembers where that was, and :meth:`Snapshot.real_time` prints an instant as the cluster's
date again.
"""

from __future__ import annotations

import dataclasses
import gc
import json
import os
import statistics
import typing
from collections import Counter
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from ..i18n import _, join_list, ngettext
from . import serialize
from .errors import DecodeError, FieldError
from .types import JOB_TRACKING_FINALIZER, Job, Phase, Pod, Time
from .yamlio import load_documents

MAX_SNAPSHOT_BYTES = 128 * 1024 * 1024
"""Largest snapshot file read: about 15,000 pods as ``kubectl get -o json`` prints them."""

MAX_SNAPSHOT_PODS = 20_000
"""Most pods a snapshot's Job may bring into the simulation (finished, counted pods aside)."""

MAX_SNAPSHOT_NODES = 20_000_000
"""Most YAML nodes one document may expand to (an alias bomb is refused before it is built)."""

DEFAULT_ASSUMED_DURATION = 60.0
"""Seconds a pod runs in a forecast when neither its sim annotations nor finished pods say."""

DURATION_ANNOTATION = "sim.k8sjobs.io/duration"
_KWOK_DELAY = "pod-complete.stage.kwok.x-k8s.io/delay"

SNAPSHOT_COMMAND = "kubectl get job,pods -l batch.kubernetes.io/job-name=NAME -o yaml"
"""How to take a snapshot of the Job NAME (its pods carry the job-name label)."""

_TERMINAL = (Phase.SUCCEEDED, Phase.FAILED)


@dataclass(frozen=True, slots=True)
class Ignored:
    """A field of the snapshot the model does not use: ``kind`` ``field`` in ``count`` objects."""

    kind: str
    field: str
    count: int


@dataclass(frozen=True, slots=True)
class LeftOut:
    """A pod of the snapshot that is not brought into the simulation, and why.

    ``why`` is one of ``other-controller`` (its controller reference names ``owner``),
    ``other-namespace``, ``settled`` (finished, counted, beyond :data:`MAX_SNAPSHOT_PODS`).
    """

    name: str
    namespace: str
    why: str
    owner: str = ""


@dataclass(frozen=True, slots=True)
class PodQuota:
    """A ResourceQuota on pods in the snapshot, as the simulated API server enforces it.

    ``hard`` pods may be non-terminal in the namespace; ``used`` is what the quota's status
    said (None when the snapshot has no ``status.used``); ``mine`` of them are the Job's pods
    in the snapshot; ``outside`` = ``used - mine`` are pods the snapshot does not show, taken
    to stay while the Job runs (0 when ``used`` is unknown: then only the Job's pods count).
    """

    name: str
    resource: str
    hard: int
    used: int | None
    mine: int

    @property
    def outside(self) -> int:
        """Pods counted as used that the simulation does not hold."""
        return max(self.used - self.mine, 0) if self.used is not None else 0

    @property
    def room(self) -> int:
        """How many non-terminal pods this Job may have under the quota."""
        return max(self.hard - self.outside, 0)


@dataclass(frozen=True)
class Snapshot:
    """One Job and the pods its controller would see, with times moved so 0 is the Job's creation."""

    job: Job
    pods: tuple[Pod, ...]
    now: float
    """The instant of the next sync (simulated seconds since the Job's creation)."""
    origin: float
    """Where simulated time 0 is, as seconds since :data:`k8sjobs.api.serialize.EPOCH`."""
    source: str = "<snapshot>"
    now_given: bool = False
    """True when ``now`` was given; False when it is the latest instant in the snapshot."""
    ignored: tuple[Ignored, ...] = ()
    left_out: tuple[LeftOut, ...] = ()
    other_kinds: tuple[tuple[str, int], ...] = ()
    """Objects of other kinds in the snapshot (kind, count): not used."""
    other_jobs: tuple[str, ...] = ()
    quota: PodQuota | None = None
    """The namespace's ResourceQuota on pods, if the snapshot has one (the tightest of several)."""
    assumed_duration: float | None = None
    duration_source: str = ""
    """How :attr:`assumed_duration` was chosen: ``given``, ``finished-pods`` or ``default``."""
    duration_pods: int = 0
    """How many finished pods the median run time was taken from."""
    annotated_pods: int = 0
    """Pods that got the assumed duration as a sim annotation."""

    @property
    def pod_quota(self) -> int | None:
        """How many non-terminal pods the Job may have under the snapshot's quota (None: no quota)."""
        return None if self.quota is None else self.quota.room

    @property
    def key(self) -> str:
        """``namespace/name`` of the Job."""
        return f"{self.job.metadata.namespace}/{self.job.metadata.name}"

    def real_time(self, t: float | None) -> str | None:
        """A simulated instant as the cluster's RFC 3339 date (None stays None)."""
        return None if t is None else serialize.format_time(t + self.origin)

    def assuming(self, duration: float | None = None) -> Snapshot:
        """This snapshot with a run time for pods that have none in their sim annotations.

        ``duration`` in seconds; None takes the median run time of the snapshot's
        succeeded pods, else :data:`DEFAULT_ASSUMED_DURATION`. The Job's template and every
        pod without ``sim.k8sjobs.io/duration`` (or KWOK's delay) get the annotation, so a
        forecast's pods run that long and the assumption shows in their YAML.
        """
        if duration is not None:
            if isinstance(duration, bool) or not isinstance(duration, (int, float)) or not 0 < duration <= 86400 * 365:
                raise ValueError(_("assumed duration: must be a number of seconds between 0 and one year, "
                                   "got {value!r}").format(value=duration))
            source, used = "given", 0
        else:
            runs = [r for r in (_run_time(p) for p in self.pods) if r is not None]
            if runs:
                duration, source, used = max(float(statistics.median(runs)), 1.0), "finished-pods", len(runs)
            else:
                duration, source, used = DEFAULT_ASSUMED_DURATION, "default", 0
        text = _duration_text(duration)
        job = self.job
        tmeta = job.spec.template.metadata
        if not _has_duration(tmeta.annotations):
            tmeta = replace(tmeta, annotations={**tmeta.annotations, DURATION_ANNOTATION: text})
            job = replace(job, spec=replace(job.spec, template=replace(job.spec.template, metadata=tmeta)))
        pods = []
        annotated = 0
        for p in self.pods:
            if p.status.phase not in _TERMINAL and not _has_duration(p.metadata.annotations):
                p = replace(p, metadata=replace(p.metadata, annotations={**p.metadata.annotations,
                                                                        DURATION_ANNOTATION: text}))
                annotated += 1
            pods.append(p)
        return replace(self, job=job, pods=tuple(pods), assumed_duration=float(duration), duration_source=source,
                       duration_pods=used, annotated_pods=annotated)

    def node_names(self) -> list[str]:
        """The nodes the snapshot's pods were bound to, sorted."""
        return sorted({p.spec.node_name for p in self.pods if p.spec.node_name})


def _has_duration(annotations: dict[str, str]) -> bool:
    return DURATION_ANNOTATION in annotations or _KWOK_DELAY in annotations


def _duration_text(seconds: float) -> str:
    text = f"{seconds:.3f}".rstrip("0").rstrip(".")
    return f"{text}s"


def _run_time(pod: Pod) -> float | None:
    # How long a succeeded pod's containers ran: the latest finish minus the earliest start.
    if pod.status.phase != Phase.SUCCEEDED:
        return None
    starts, ends = [], []
    for s in pod.status.container_statuses:
        term = s.state.terminated
        if term is None or term.started_at is None or term.finished_at is None:
            return None
        starts.append(term.started_at)
        ends.append(term.finished_at)
    if not starts:
        return None
    return max(ends) - min(starts)


# ----------------------------------------------------------------------------- reading


EXAMPLE_SNAPSHOTS = ("backoff", "quota", "indexed")
"""The example snapshots that ship with k8sjobs (lesson 15): a Job in back-off, a Job held below
``parallelism`` by a ResourceQuota, an Indexed Job with a failed index."""


def example_snapshot(name: str) -> str:
    """The text of an example snapshot (one of :data:`EXAMPLE_SNAPSHOTS`), as kubectl printed it.

    They are built from simulations by ``tools/lesson_snapshots.py`` and dressed as a real API
    server returns objects; they ship inside the package, so they work without the repository
    (Binder, JupyterLite).
    """
    if name not in EXAMPLE_SNAPSHOTS:
        raise ValueError(_("example snapshot {name!r}: there are {names}").format(
            name=name, names=join_list(EXAMPLE_SNAPSHOTS)))
    from importlib.resources import files

    return (files("k8sjobs") / "snapshots" / f"{name}.yaml").read_text(encoding="utf-8")


def load_snapshot(snapshot: Snapshot | str | bytes | dict | os.PathLike, *, job: str | None = None,
                  now: str | float | None = None) -> Snapshot:
    """A :class:`Snapshot` from what kubectl printed: its text (YAML or JSON), a path to the file,
    the parsed document, or a Snapshot (returned as it is).

    A one-line string ending in ``.yaml``, ``.yml`` or ``.json`` that names an existing file is
    read from that file. ``job`` and ``now`` as for :func:`read_snapshot`. Raises
    :class:`~k8sjobs.api.errors.DecodeError` (a ValueError) with one clear reason.
    """
    if isinstance(snapshot, Snapshot):
        return snapshot
    source = "<snapshot>"
    if isinstance(snapshot, (str, os.PathLike)) and (isinstance(snapshot, os.PathLike) or (
            "\n" not in snapshot.strip() and snapshot.strip().lower().endswith((".yaml", ".yml", ".json")))):
        source = os.fspath(snapshot).strip()
        try:
            size = os.stat(source).st_size
        except OSError as exc:
            raise DecodeError(f"{source}: {exc.strerror or exc}") from None
        if size > MAX_SNAPSHOT_BYTES:
            raise DecodeError(_("{source}: {size} bytes: larger than the {limit} bytes a snapshot may have").format(
                source=source, size=f"{size:,}", limit=f"{MAX_SNAPSHOT_BYTES:,}"))
        with open(source, "rb") as f:
            snapshot = f.read()
    elif isinstance(snapshot, dict):
        snapshot = json.dumps(snapshot)
    elif not isinstance(snapshot, (str, bytes)):
        raise TypeError(_("snapshot: expected YAML or JSON text, a path, a dict or a Snapshot, got {type}").format(
            type=type(snapshot).__name__))
    return read_snapshot(snapshot, source, job=job, now=now)


def read_snapshot(data: bytes | str, source: str = "<snapshot>", *, job: str | None = None,
                  now: str | float | None = None) -> Snapshot:
    """Read a snapshot (see the module docstring); raise DecodeError with one clear reason.

    ``job`` chooses the Job by ``NAME`` or ``NAMESPACE/NAME`` when the snapshot has several.
    ``now`` (RFC 3339 text, or seconds since :data:`~k8sjobs.api.serialize.EPOCH`) is the
    instant of the next sync; by default the latest instant in the snapshot.
    """
    # Reading makes millions of small acyclic objects: the cyclic collector would walk them
    # again and again (a third of the time for 10,000 pods) and find nothing to free.
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _read_snapshot(data, source, job, now)
    finally:
        if enabled:
            gc.enable()


def _read_snapshot(data: bytes | str, source: str, job: str | None, now: str | float | None) -> Snapshot:
    documents = load_documents(data, source, max_bytes=MAX_SNAPSHOT_BYTES, max_nodes=MAX_SNAPSHOT_NODES,
                               too_large=_("more than a snapshot may have (about 15,000 pods as kubectl "
                                           "prints them)"))
    if not documents:
        raise DecodeError(_("{source}: empty: no Kubernetes object in it (expected what `{command}` "
                            "prints)").format(source=source, command=SNAPSHOT_COMMAND))
    objects = list(_flatten(documents, source))
    jobs: list[tuple[str, dict]] = []
    pods: list[tuple[str, dict]] = []
    quotas: list[dict] = []
    wrong_jobs: list[str] = []
    others: Counter[str] = Counter()
    for where, doc in objects:
        api, kind = doc.get("apiVersion"), doc.get("kind")
        if kind == "Job":
            if api == "batch/v1":
                jobs.append((where, doc))
            else:
                wrong_jobs.append(str(api))
        elif kind == "Pod" and api == "v1":
            pods.append((where, doc))
        elif kind == "ResourceQuota" and api == "v1":
            quotas.append(doc)
        else:
            others[f"{kind} ({api})" if api not in ("v1", "batch/v1") else str(kind)] += 1
    where, job_doc = _choose_job(jobs, wrong_jobs, pods, others, job, source)
    counter: Counter[tuple[str, str]] = Counter()
    the_job = _decode(Job, job_doc, counter, _describe("Job", job_doc, where), source)
    the_job = _complete_job(the_job, where, source)
    mine, left_out = _select_pods(the_job, pods, source)
    origin = the_job.metadata.creation_timestamp
    # Times move while decoding when the Job says where 0 is (the usual case), else after.
    delta = -origin if origin is not None else 0.0
    decoded = tuple(_complete_pod(_decode(Pod, d, counter, _describe("Pod", d, w), source, delta), the_job)
                    for w, d in mine)
    if origin is None:
        origin = min(_all_instants([the_job, *decoded]), default=None)
        if origin is None:
            origin = serialize.parse_time(now) if isinstance(now, str) and _is_time(now) else 0.0
        decoded = tuple(_shift(p, -origin) for p in decoded)
    the_job = _shift(the_job, -origin)
    quota = _pod_quota(quotas, the_job, decoded)
    latest = _latest_instant([the_job, *decoded])
    now_given = now is not None
    if now is None:
        at = latest if latest is not None else 0.0
    elif isinstance(now, str):
        try:
            at = serialize.parse_time(now) - origin
        except ValueError as exc:
            raise DecodeError(_("--now: Invalid value: {value}: {detail}").format(
                value=_quoted(now), detail=exc)) from None
    else:
        at = float(now) - origin
    if at < 0:
        raise DecodeError(_("--now: {now} is before the Job was created ({created}): the controller cannot "
                            "sync a Job before it exists").format(now=serialize.format_time(at + origin),
                                                                 created=serialize.format_time(origin)))
    return Snapshot(
        job=the_job, pods=decoded, now=at, origin=origin,
        source=source, now_given=now_given,
        ignored=tuple(Ignored(k, f, n) for (k, f), n in sorted(counter.items())),
        left_out=tuple(left_out), other_kinds=tuple(sorted(others.items())),
        other_jobs=tuple(sorted(_name_of(d) for w, d in jobs if d is not job_doc)),
        quota=quota)


def _is_time(text: str) -> bool:
    try:
        serialize.parse_time(text)
    except ValueError:
        return False
    return True


def _quoted(text: str) -> str:
    return '"' + text.replace('"', '\\"') + '"'


def _flatten(documents: list[Any], source: str):
    """Every object of the documents, with where it was: lists are opened (also typed ones)."""
    many = len(documents) > 1
    for i, doc in enumerate(documents):
        where = _("document {n}").format(n=i + 1) if many else ""
        if not isinstance(doc, dict) or ("kind" not in doc and "apiVersion" not in doc):
            raise DecodeError(_("{source}: not Kubernetes YAML or JSON: {where}has no apiVersion and kind "
                                "(expected what `{command}` prints: a List, a Job, or several documents)").format(
                source=source, where=f"{where} " if where else _("the document "), command=SNAPSHOT_COMMAND))
        kind = doc.get("kind")
        items = doc.get("items")
        if isinstance(kind, str) and kind.endswith("List") and "items" in doc:
            if not isinstance(items, list):
                raise DecodeError(f"{source}: {where + ': ' if where else ''}items: Invalid value: "
                                  f"must be a list of objects")
            item_kind = kind[: -len("List")] or None
            for j, item in enumerate(items):
                place = f"{where}: items[{j}]" if where else f"items[{j}]"
                if not isinstance(item, dict):
                    raise DecodeError(f"{source}: {place}: Invalid value: must be an object with apiVersion and kind")
                if item_kind and "kind" not in item:
                    # A typed list (PodList, JobList) leaves kind and apiVersion out of its items.
                    list_api = doc.get("apiVersion")
                    item = {"kind": item_kind, "apiVersion": list_api, **item}
                yield place, item
        else:
            yield where, doc


def _name_of(doc: dict) -> str:
    meta = doc.get("metadata")
    if isinstance(meta, dict):
        ns, name = meta.get("namespace"), meta.get("name")
        if isinstance(name, str):
            return f"{ns}/{name}" if isinstance(ns, str) and ns else name
    return "?"


def _describe(kind: str, doc: dict, where: str) -> str:
    meta = doc.get("metadata") if isinstance(doc.get("metadata"), dict) else {}
    name = meta.get("name") if isinstance(meta.get("name"), str) else ""
    text = f'{kind} "{name}"' if name else kind
    return f"{text} ({where})" if where else text


def _choose_job(jobs, wrong_jobs, pods, others, wanted, source) -> tuple[str, dict]:
    if not jobs:
        if wrong_jobs:
            raise DecodeError(_('{source}: no matches for kind "Job" in version "{version}": explain reads '
                                "batch/v1 Jobs, as kubectl prints them").format(source=source, version=wrong_jobs[0]))
        held = [ngettext("{n} Pod", "{n} Pods", len(pods)).format(n=len(pods))] if pods else []
        held += [f"{n} {kind}" for kind, n in sorted(others.items())]
        raise DecodeError(_("{source}: no batch/v1 Job in the snapshot (it holds {held}): take one with `{command}`")
                          .format(source=source, held=join_list(held) or _("nothing"), command=SNAPSHOT_COMMAND))
    names = sorted(_name_of(d) for _, d in jobs)
    if wanted is not None:
        hits = [(w, d) for w, d in jobs
                if _name_of(d) == wanted or _name_of(d).split("/")[-1] == wanted]
        if len(hits) == 1:
            return hits[0]
        if not hits:
            raise DecodeError(_('{source}: --job {name}: no such Job in the snapshot; its Jobs: {names}').format(
                source=source, name=wanted, names=join_list(names)))
        raise DecodeError(_("{source}: --job {name}: several Jobs have that name ({names}): give NAMESPACE/NAME")
                          .format(source=source, name=wanted, names=join_list(_name_of(d) for _, d in hits)))
    if len(jobs) > 1:
        raise DecodeError(ngettext("{source}: {n} Job in the snapshot ({names}): choose one with --job NAME",
                                   "{source}: {n} Jobs in the snapshot ({names}): choose one with --job NAME",
                                   len(jobs)).format(source=source, n=len(jobs), names=join_list(names)))
    return jobs[0]


def _complete_job(job: Job, where: str, source: str) -> Job:
    """What a server always sets and the controller needs: a name, a namespace, a UID, a selector."""
    meta = job.metadata
    if not meta.name:
        raise DecodeError(_("{source}: the Job ({where}) cannot be read").format(source=source, where=where or "1"),
                          [FieldError.required("metadata.name")])
    meta = replace(meta, namespace=meta.namespace or "default", uid=meta.uid or f"snapshot-{meta.name}")
    job = replace(job, metadata=meta)
    from .defaults import generate_selector, set_defaults_job

    # An object read back from storage is defaulted by the reading server: fields an older
    # server did not default get the 1.35 defaults (a real 1.35 object is unchanged).
    job = set_defaults_job(job)
    if job.spec.selector is None and not job.spec.manual_selector:
        job = generate_selector(job)
    if job.spec.selector is None:
        raise DecodeError(_("{source}: the Job cannot be used").format(source=source),
                          [FieldError.required("spec.selector", "a Job with manualSelector needs a selector")])
    return job


def _complete_pod(pod: Pod, job: Job) -> Pod:
    meta = pod.metadata
    if not meta.namespace or not meta.uid:
        pod = replace(pod, metadata=replace(meta, namespace=meta.namespace or job.metadata.namespace,
                                            uid=meta.uid or f"snapshot-{meta.name}"))
    return pod


def _controller_ref(doc: dict) -> dict | None:
    meta = doc.get("metadata")
    refs = meta.get("ownerReferences") if isinstance(meta, dict) else None
    if isinstance(refs, list):
        for ref in refs:
            if isinstance(ref, dict) and ref.get("controller") is True:
                return ref
    return None


def _settled(doc: dict) -> bool:
    # Finished, and the tracking finalizer is gone: the Job's status counts it already.
    status = doc.get("status")
    meta = doc.get("metadata")
    if not isinstance(status, dict) or status.get("phase") not in _TERMINAL or not isinstance(meta, dict):
        return False
    fins = meta.get("finalizers")
    return not (isinstance(fins, list) and JOB_TRACKING_FINALIZER in fins)


def _select_pods(job: Job, pods: list[tuple[str, dict]], source: str) -> tuple[list[tuple[str, dict]], list[LeftOut]]:
    ns, uid = job.metadata.namespace, job.metadata.uid
    mine: list[tuple[str, dict]] = []
    settled: list[tuple[str, dict]] = []
    left: list[LeftOut] = []
    for where, doc in pods:
        meta = doc.get("metadata") if isinstance(doc.get("metadata"), dict) else {}
        name = meta.get("name") if isinstance(meta.get("name"), str) else "?"
        pod_ns = meta.get("namespace") if isinstance(meta.get("namespace"), str) and meta.get("namespace") else ns
        if not name or name == "?":
            raise DecodeError(_("{source}: {what} cannot be read").format(source=source, what=_describe("Pod", doc, where)),
                              [FieldError.required("metadata.name")])
        if pod_ns != ns:
            left.append(LeftOut(name, pod_ns, "other-namespace"))
            continue
        ref = _controller_ref(doc)
        if ref is not None and ref.get("uid") != uid:
            left.append(LeftOut(name, pod_ns, "other-controller", f"{ref.get('kind', '?')}/{ref.get('name', '?')}"))
            continue
        (settled if ref is not None and _settled(doc) and _settled_aside(doc) else mine).append((where, doc))
    if len(mine) > MAX_SNAPSHOT_PODS:
        raise DecodeError(_("{source}: {n} pods of Job {job} still count for the controller (running, pending, "
                            "or finished and not yet counted): more than the {limit} explain simulates; take a "
                            "snapshot of fewer pods or wait until more of them are counted").format(
            source=source, n=f"{len(mine):,}", job=job.metadata.name, limit=f"{MAX_SNAPSHOT_PODS:,}"))
    room = MAX_SNAPSHOT_PODS - len(mine)
    mine.extend(settled[:room])
    for _where, doc in settled[room:]:
        meta = doc["metadata"]
        left.append(LeftOut(str(meta.get("name")), ns, "settled"))
    return mine, left


def _settled_aside(doc: dict) -> bool:
    # Settled failed pods stay: a podFailurePolicy FailJob rule still reads them.
    return doc.get("status", {}).get("phase") == Phase.SUCCEEDED


def _pod_quota(quotas: list[dict], job: Job, pods: tuple[Pod, ...]) -> PodQuota | None:
    """The ResourceQuota on pods in the Job's namespace that leaves the Job the least room."""
    best: PodQuota | None = None
    mine = sum(1 for p in pods if p.status.phase not in _TERMINAL)
    for q in quotas:
        meta = q.get("metadata") if isinstance(q.get("metadata"), dict) else {}
        if (meta.get("namespace") or job.metadata.namespace) != job.metadata.namespace:
            continue
        status = q.get("status") if isinstance(q.get("status"), dict) else {}
        spec = q.get("spec") if isinstance(q.get("spec"), dict) else {}
        hard_map = status.get("hard") or spec.get("hard") or {}
        used_map = status.get("used") or {}
        for key in ("pods", "count/pods"):
            hard = _quantity(hard_map.get(key)) if isinstance(hard_map, dict) else None
            if hard is None:
                continue
            used = _quantity(used_map.get(key)) if isinstance(used_map, dict) else None
            quota = PodQuota(str(meta.get("name") or "quota"), key, hard, used, mine)
            if best is None or quota.room < best.room:
                best = quota
    return best


def _quantity(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    if isinstance(value, str) and value.strip().endswith("k") and value.strip()[:-1].isdigit():
        return int(value.strip()[:-1]) * 1000
    return None


# ----------------------------------------------------------------------------- decoding


def _decode(cls: type, doc: dict, counter: Counter, what: str, source: str, delta: float = 0.0) -> Any:
    """``doc`` as a ``cls``, times moved by ``delta``; ignored fields counted in ``counter``.

    The fast loader handles what real servers print; anything it does not expect (a wrong
    type, a bad time, a number out of range) sends the object to the strict decoder, whose
    error names the field path.
    """
    kind = cls.__name__
    local: Counter = Counter()
    try:
        obj = _fast(cls, doc, "", local, kind, delta)
    except _Unexpected:
        clean = _prune(cls, doc, "", Counter(), kind)
        try:
            obj = _shift(serialize.from_dict(cls, clean), delta)
        except DecodeError as exc:
            raise DecodeError(_("{source}: {what} cannot be read").format(source=source, what=what),
                              exc.errors) from None
    counter.update(local)
    return obj


class _Unexpected(Exception):
    """The fast loader met something only the strict decoder can report properly."""


_INT_LIMIT = 2**31 - 1


@cache
def _plan(cls: type) -> dict[str, tuple[str, str, Any]]:
    """JSON key -> (field name, how to load it, the nested class or item type) for the fast loader."""
    out: dict[str, tuple[str, str, Any]] = {}
    for key, (name, hint) in serialize.json_fields(cls).items():
        base, _optional = serialize.unwrap_optional(hint)
        nested = _nested(hint)
        if base is Time:
            how, arg = "time", None
        elif nested is not None:
            how, arg = ("objects" if nested[1] else "object"), nested[0]
        elif typing.get_origin(base) is tuple:
            (item,) = [a for a in typing.get_args(base) if a is not Ellipsis]
            how, arg = "list", item
        elif typing.get_origin(base) is dict:
            how, arg = "map", typing.get_args(base)[1]
        elif base in (bool, int, float, str):
            how, arg = "scalar", base
        else:
            how, arg = "any", None
        out[key] = (name, how, arg)
    return out


def _fast(cls: type, doc: Any, path: str, counter: Counter, kind: str, delta: float) -> Any:
    if not isinstance(doc, dict):
        raise _Unexpected
    plan = _plan(cls)
    extra = serialize.keeps_extra(cls)
    kwargs: dict[str, Any] = {}
    leftover: dict[str, Any] = {}
    parse = serialize.parse_time
    for key, value in doc.items():
        entry = plan.get(key)
        if entry is None:
            if key not in _KEEP_ALWAYS:
                counter[(kind, path + key)] += 1
                if extra:
                    leftover[key] = value
            continue
        name, how, arg = entry
        if value is None:
            continue  # JSON null: unset (the dataclass default)
        if how == "time":
            if not isinstance(value, str):
                raise _Unexpected
            try:
                kwargs[name] = parse(value) + delta
            except ValueError:
                raise _Unexpected from None
        elif how == "object":
            kwargs[name] = _fast(arg, value, f"{path}{key}.", counter, kind, delta)
        elif how == "objects":
            if not isinstance(value, list):
                raise _Unexpected
            sub = f"{path}{key}[*]."
            kwargs[name] = tuple(_fast(arg, v, sub, counter, kind, delta) for v in value)
        elif how == "scalar":
            if arg is int:
                if type(value) is not int or not -_INT_LIMIT - 1 <= value <= _INT_LIMIT:
                    raise _Unexpected
            elif arg is float:
                if type(value) not in (int, float):
                    raise _Unexpected
                value = float(value)
            elif type(value) is not arg:
                raise _Unexpected
            kwargs[name] = value
        elif how == "list":
            if not isinstance(value, list) or (arg in (str, int) and any(type(v) is not arg for v in value)):
                raise _Unexpected
            if arg not in (str, int) and not all(isinstance(v, dict) for v in value):
                raise _Unexpected
            kwargs[name] = tuple(value)
        elif how == "map":
            if not isinstance(value, dict) or (arg is str and any(type(v) is not str for v in value.values())):
                raise _Unexpected
            kwargs[name] = value
        else:
            kwargs[name] = value
    if leftover:
        kwargs["extra"] = leftover
    return cls(**kwargs)


_KEEP_ALWAYS = ("apiVersion", "kind")


def _prune(cls: type, doc: dict, path: str, counter: Counter, kind: str) -> dict:
    """The keys of ``doc`` that ``cls`` models (recursively); every other one is counted as ignored.

    Classes that keep unknown keys (Container, PodSpec) keep them, and they are counted too:
    the model carries them along without using them. Values of the wrong type are left for
    the decoder, which names their path.
    """
    fields = serialize.json_fields(cls)
    extra = serialize.keeps_extra(cls)
    out: dict[str, Any] = {}
    for key, value in doc.items():
        f = fields.get(key)
        if f is None:
            if key in _KEEP_ALWAYS:
                out[key] = value
                continue
            counter[(kind, f"{path}{key}")] += 1
            if extra:
                out[key] = value
            continue
        sub = _nested(f[1])
        if sub is None or value is None:
            out[key] = value
        elif sub[1]:  # a list of objects
            if isinstance(value, list):
                out[key] = [_prune(sub[0], v, f"{path}{key}[*].", counter, kind) if isinstance(v, dict) else v
                            for v in value]
            else:
                out[key] = value
        elif isinstance(value, dict):
            out[key] = _prune(sub[0], value, f"{path}{key}.", counter, kind)
        else:
            out[key] = value
    return out


@cache
def _nested(hint: Any) -> tuple[type, bool] | None:
    """(dataclass, is_list) when ``hint`` holds API objects, else None."""
    hint, _optional = serialize.unwrap_optional(hint)
    if dataclasses.is_dataclass(hint):
        return hint, False
    if typing.get_origin(hint) is tuple:
        args = [a for a in typing.get_args(hint) if a is not Ellipsis]
        if len(args) == 1 and dataclasses.is_dataclass(args[0]):
            return args[0], True
    return None


# ----------------------------------------------------------------------------- times


@cache
def _time_plan(cls: type) -> tuple[tuple[str, str, Any], ...]:
    """The fields of ``cls`` that are times or hold times: (name, "time" | "one" | "many", class)."""
    plan = []
    hints = typing.get_type_hints(cls)
    for f in dataclasses.fields(cls):
        hint, _optional = serialize.unwrap_optional(hints[f.name])
        if hint is Time:
            plan.append((f.name, "time", None))
            continue
        sub = _nested(hints[f.name])
        if sub is not None and _time_plan(sub[0]):
            plan.append((f.name, "many" if sub[1] else "one", sub[0]))
    return tuple(plan)


def _instants(obj: Any, out: list[float]) -> None:
    for name, mode, _cls in _time_plan(type(obj)):
        value = getattr(obj, name)
        if value is None:
            continue
        if mode == "time":
            out.append(value)
        elif mode == "one":
            _instants(value, out)
        else:
            for v in value:
                _instants(v, out)


def _all_instants(objects: list[Any]) -> list[float]:
    out: list[float] = []
    for obj in objects:
        _instants(obj, out)
    return out


def _latest_instant(objects: list[Any]) -> float | None:
    """The latest instant the objects record; a deletion counts from when it was asked for."""
    latest: float | None = None
    for obj in objects:
        found: list[float] = []
        meta = obj.metadata
        if meta.deletion_timestamp is not None:
            # deletionTimestamp is the end of the grace period, which may still lie ahead.
            found.append(meta.deletion_timestamp - (meta.deletion_grace_period_seconds or 0))
            obj = replace(obj, metadata=replace(meta, deletion_timestamp=None))
        _instants(obj, found)
        for t in found:
            if latest is None or t > latest:
                latest = t
    return latest


def _shift(obj: Any, delta: float) -> Any:
    """``obj`` with every time moved by ``delta`` seconds."""
    changes: dict[str, Any] = {}
    for name, mode, _cls in _time_plan(type(obj)):
        value = getattr(obj, name)
        if value is None:
            continue
        if mode == "time":
            changes[name] = value + delta
        elif mode == "one":
            changes[name] = _shift(value, delta)
        elif value:
            changes[name] = tuple(_shift(v, delta) for v in value)
    return replace(obj, **changes) if changes else obj


__all__ = ["DEFAULT_ASSUMED_DURATION", "EXAMPLE_SNAPSHOTS", "MAX_SNAPSHOT_BYTES", "MAX_SNAPSHOT_PODS", "SNAPSHOT_COMMAND",
           "Ignored", "LeftOut", "PodQuota", "Snapshot", "example_snapshot", "load_snapshot", "read_snapshot"]
