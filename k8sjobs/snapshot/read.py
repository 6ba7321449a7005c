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

import gc
import json
import os
import typing
from collections import Counter
from dataclasses import replace
from functools import cache
from typing import Any

from ..api import serialize
from ..api.errors import DecodeError, FieldError
from ..api.snapshot import (
    DEFAULT_ASSUMED_DURATION,
    CronJobSnapshot,
    Ignored,
    LeftOut,
    PodQuota,
    Snapshot,
    _nested,
    _shift,
    _time_plan,
)
from ..api.types import JOB_TRACKING_FINALIZER, CronJob, Job, Phase, Pod, Time
from ..api.yamlio import load_documents
from ..i18n import _
from .errors import SNAPSHOT_COMMAND, SnapshotError, SnapshotTypeError

MAX_SNAPSHOT_BYTES = 128 * 1024 * 1024
"""Largest snapshot file read: about 15,000 pods as ``kubectl get -o json`` prints them."""

MAX_SNAPSHOT_PODS = 20_000
"""Most pods a snapshot's Job may bring into the simulation (finished, counted pods aside)."""

MAX_SNAPSHOT_NODES = 20_000_000
"""Most YAML nodes one document may expand to (an alias bomb is refused before it is built)."""

_TERMINAL = (Phase.SUCCEEDED, Phase.FAILED)


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
        raise SnapshotError("example.unknown", name=name, names=list(EXAMPLE_SNAPSHOTS))
    from importlib.resources import files

    return (files("k8sjobs") / "snapshots" / f"{name}.yaml").read_text(encoding="utf-8")


def load_snapshot(snapshot: Snapshot | CronJobSnapshot | str | bytes | dict | os.PathLike, *, job: str | None = None,
                  now: str | float | None = None) -> Snapshot | CronJobSnapshot:
    """A :class:`Snapshot` from what kubectl printed: its text (YAML or JSON), a path to the file,
    the parsed document, or a Snapshot (returned as it is).

    A one-line string ending in ``.yaml``, ``.yml`` or ``.json`` that names an existing file is
    read from that file. ``job`` and ``now`` as for :func:`read_snapshot`. Raises
    :class:`~k8sjobs.api.errors.DecodeError` (a ValueError) with one clear reason.
    """
    if isinstance(snapshot, (Snapshot, CronJobSnapshot)):
        return snapshot
    source = "<snapshot>"
    if isinstance(snapshot, (str, os.PathLike)) and (isinstance(snapshot, os.PathLike) or (
            "\n" not in snapshot.strip() and snapshot.strip().lower().endswith((".yaml", ".yml", ".json")))):
        source = os.fspath(snapshot).strip()
        try:
            size = os.stat(source).st_size
        except OSError as exc:
            raise SnapshotError("file.unreadable", source=source, detail=str(exc.strerror or exc)) from None
        if size > MAX_SNAPSHOT_BYTES:
            raise SnapshotError("file.too_large", source=source, size=size, limit=MAX_SNAPSHOT_BYTES)
        with open(source, "rb") as f:
            snapshot = f.read()
    elif isinstance(snapshot, dict):
        snapshot = json.dumps(snapshot, default=_yaml_scalar_text)
    elif not isinstance(snapshot, (str, bytes)):
        raise SnapshotTypeError("type", type=type(snapshot).__name__)
    return read_snapshot(snapshot, source, job=job, now=now)


def _yaml_scalar_text(value: Any) -> str:
    """A value ``yaml.safe_load`` made of a plain scalar, written back as the text it came from.

    PyYAML turns an unquoted timestamp (``creationTimestamp: 2019-07-11T19:38:21Z``, as ``oc`` and older
    kubectl print them) into a datetime, which JSON cannot hold; the snapshot reads every time as RFC 3339 text.
    A timestamp without a zone is UTC (YAML's timestamp type). Any other value becomes its text, and the field
    that expected something else names itself when the snapshot is decoded.
    """
    import datetime as _dt

    if isinstance(value, _dt.datetime):
        return (value if value.tzinfo is not None else value.replace(tzinfo=_dt.UTC)).isoformat()
    if isinstance(value, _dt.date):
        return value.isoformat()
    return str(value)


def read_snapshot(data: bytes | str, source: str = "<snapshot>", *, job: str | None = None,
                  now: str | float | None = None) -> Snapshot | CronJobSnapshot:
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


def _read_snapshot(data: bytes | str, source: str, job: str | None,
                   now: str | float | None) -> Snapshot | CronJobSnapshot:
    documents = load_documents(data, source, max_bytes=MAX_SNAPSHOT_BYTES, max_nodes=MAX_SNAPSHOT_NODES,
                               too_large=_("more than a snapshot may have (about 15,000 pods as kubectl "
                                           "prints them)"))
    if not documents:
        raise SnapshotError("empty", source=source)
    objects = list(_flatten(documents, source))
    jobs: list[tuple[str, dict]] = []
    cronjobs: list[tuple[str, dict]] = []
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
        elif kind == "CronJob" and api in CRONJOB_VERSIONS:
            cronjobs.append((where, doc))
        elif kind == "Pod" and api == "v1":
            pods.append((where, doc))
        elif kind == "ResourceQuota" and api == "v1":
            quotas.append(doc)
        else:
            others[f"{kind} ({api})" if api not in ("v1", "batch/v1") else str(kind)] += 1
    if cronjobs and (job is None or any(job in (_name_of(d), _name_of(d).split("/")[-1]) for _, d in cronjobs)):
        return _read_cronjob_snapshot(cronjobs, jobs, pods, others, documents, job, now, source)
    if cronjobs:
        others["CronJob"] += len(cronjobs)  # a Job was chosen: the CronJob is not used
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
        origin = _first_instant([the_job, *decoded], now)
        decoded = tuple(_shift(p, -origin) for p in decoded)
    the_job = _shift(the_job, -origin)
    quota = _pod_quota(quotas, the_job, decoded)
    latest = _latest_instant([the_job, *decoded])
    now_given = now is not None
    at = _now_at(now, origin, latest)
    unseen: tuple[str, ...] = ()
    # `kubectl get job NAME -o yaml` shows no pods; `kubectl get pods -l ...` that found none prints an empty List.
    pods_shown = bool(pods) or any(_empty_list(d) for d in documents)
    if not mine and not pods_shown:
        extra = unseen_pods(the_job, at)
        decoded, unseen = extra, tuple(p.metadata.name for p in extra)
    return Snapshot(
        job=the_job, pods=decoded, now=at, origin=origin, unseen=unseen, pods_shown=pods_shown,
        source=source, now_given=now_given,
        ignored=tuple(Ignored(k, f, n) for (k, f), n in sorted(counter.items())),
        left_out=tuple(left_out), other_kinds=tuple(sorted(others.items())),
        other_jobs=tuple(sorted(_name_of(d) for w, d in jobs if d is not job_doc)),
        quota=quota)


CRONJOB_VERSIONS = ("batch/v1", "batch/v1beta1", "batch/v2alpha1")
"""The API versions a CronJob is read from: batch/v1 (Kubernetes 1.21 on), batch/v1beta1 (1.8 to 1.24),
batch/v2alpha1 (1.4 to 1.7); the older ones are read as batch/v1 (their fields are the same ones)."""


def _read_cronjob_snapshot(cronjobs: list[tuple[str, dict]], jobs: list[tuple[str, dict]],
                           pods: list[tuple[str, dict]], others: Counter, documents: list[Any], wanted: str | None,
                           now: str | float | None, source: str) -> CronJobSnapshot:
    """A CronJob and the Jobs it owns (see :class:`~k8sjobs.api.snapshot.CronJobSnapshot`)."""
    from ..api.defaults import set_defaults_cronjob

    names = sorted(_name_of(d) for _, d in cronjobs)
    if wanted is not None:
        hits = [(w, d) for w, d in cronjobs if wanted in (_name_of(d), _name_of(d).split("/")[-1])]
        if len(hits) > 1:
            raise SnapshotError("job.ambiguous", source=source, name=wanted, names=[_name_of(d) for _, d in hits])
        where, doc = hits[0]
    elif len(cronjobs) > 1:
        raise SnapshotError("cronjob.several", source=source, names=names)
    else:
        where, doc = cronjobs[0]
    counter: Counter[tuple[str, str]] = Counter()
    cj = _decode(CronJob, doc, counter, _describe("CronJob", doc, where), source)
    meta = cj.metadata
    if not meta.name:
        raise SnapshotError("job.unreadable", [FieldError.required("metadata.name")], source=source, where=where)
    meta = replace(meta, namespace=meta.namespace or "default", uid=meta.uid or f"snapshot-{meta.name}",
                   resource_version=meta.resource_version or "1")
    cj = set_defaults_cronjob(replace(cj, metadata=meta, api_version="batch/v1"))
    ns, uid = meta.namespace, meta.uid
    mine: list[Job] = []
    other_jobs: list[str] = []
    for w, d in jobs:
        ref = _controller_ref(d)
        d_meta = d.get("metadata") if isinstance(d.get("metadata"), dict) else {}
        owned = ref is not None and ref.get("kind") == "CronJob" and (
            ref.get("uid") == uid if ref.get("uid") and meta.uid and not meta.uid.startswith("snapshot-")
            else ref.get("name") == meta.name)
        if not owned or (d_meta.get("namespace") or ns) != ns:
            other_jobs.append(_name_of(d))
            continue
        j = _complete_job(_decode(Job, d, counter, _describe("Job", d, w), source), w, source)
        mine.append(j)
    origin = cj.metadata.creation_timestamp
    if origin is None:
        origin = _first_instant([cj, *mine], now)
    cj = _shift(cj, -origin)
    mine = [_shift(j, -origin) for j in mine]
    jobs_shown = bool(jobs) or any(_empty_list(d) for d in documents)
    unseen_jobs: list[Job] = []
    if not jobs_shown:
        have = {j.metadata.name for j in mine}
        unseen_jobs = [_stand_in_job(cj, ref, origin, source) for ref in cj.status.active if ref.name not in have]
        # A trimmed paste may name an active Job without its uid: the reference gets its stand-in's uid, as the
        # cluster's status had it (else the controller would see an unexpected Job beside a reference it cannot
        # match by uid).
        uids = {j.metadata.name: j.metadata.uid for j in unseen_jobs}
        if any(not ref.uid and ref.name in uids for ref in cj.status.active):
            active = tuple(replace(ref, uid=uids[ref.name]) if not ref.uid and ref.name in uids else ref
                           for ref in cj.status.active)
            cj = replace(cj, status=replace(cj.status, active=active))
    all_jobs = [*mine, *unseen_jobs]
    latest = _latest_instant([cj, *all_jobs])
    now_given = now is not None
    at = _now_at(now, origin, latest)
    stand_ins: list[Pod] = []
    for j in all_jobs:
        stand_ins.extend(unseen_pods(j, at))
    if pods:
        others["Pod"] += len(pods)
    return CronJobSnapshot(
        cronjob=cj, jobs=tuple(all_jobs), pods=tuple(stand_ins), now=at, origin=origin, source=source,
        now_given=now_given, api_version=str(doc.get("apiVersion")), jobs_shown=jobs_shown,
        unseen_jobs=tuple(j.metadata.name for j in unseen_jobs),
        ignored=tuple(Ignored(k, f, n) for (k, f), n in sorted(counter.items())),
        other_kinds=tuple(sorted(others.items())), other_jobs=tuple(sorted(other_jobs)),
        other_cronjobs=tuple(n for n in names if n != _name_of(doc)),
        unseen=tuple(p.metadata.name for p in stand_ins))


OLD_JOB_NAME_SECONDS = 10**9
"""A Job name's number from this value on is Unix seconds (the CronJob controller before Kubernetes 1.21), below
it Unix minutes (1.21 on): 10**9 seconds is 2001-09-09, 10**9 minutes the year 3871."""


def job_name_seconds(cronjob: str, job: str) -> int | None:
    """The Unix seconds in the name ``CRONJOB-<Unix seconds>`` that the CronJob controller before Kubernetes 1.21
    gave a run's Job, or None (a name of 1.21 on, in minutes, or not a run's name)."""
    head, _sep, tail = job.rpartition("-")
    if head != cronjob or not tail.isdigit() or int(tail) < OLD_JOB_NAME_SECONDS:
        return None
    return int(tail)


def _stand_in_job(cj: CronJob, ref: Any, origin: float, source: str) -> Job:
    """A Job that the CronJob's ``status.active`` names and the snapshot does not hold: its template's Job,
    created at the time its name says, started then, its pods running.

    The name's number is the schedule time: in Unix minutes from the controller of Kubernetes 1.21 on
    (``getTimeHashInMinutes``), in Unix seconds from the one before (``getTimeHash``; a ``batch/v1beta1`` dump of
    an older cluster names its Jobs so). Seconds since 2001 have ten digits, and minutes keep eight or nine
    until the year 3871: a number of ten digits or more is read as seconds."""
    import datetime as _dt

    from ..api.types import CRONJOB_SCHEDULED_TIMESTAMP_ANNOTATION, JobStatus, ObjectMeta, OwnerReference
    from ..controller.cronjob.utils import format_rfc3339

    name = ref.name
    _head, _sep, tail = name.rpartition("-")
    created = cj.status.last_schedule_time
    annotations = dict(cj.spec.job_template.metadata.annotations)
    if tail.isdigit():
        value = int(tail)
        instant = _dt.datetime.fromtimestamp(value if value >= OLD_JOB_NAME_SECONDS else value * 60, _dt.UTC)
        created = serialize.parse_time(format_rfc3339(instant)) - origin
        annotations[CRONJOB_SCHEDULED_TIMESTAMP_ANNOTATION] = format_rfc3339(instant)
    template = cj.spec.job_template
    owner = OwnerReference(api_version="batch/v1", kind="CronJob", name=cj.metadata.name, uid=cj.metadata.uid,
                           controller=True, block_owner_deletion=True)
    meta = ObjectMeta(name=name, namespace=ref.namespace or cj.metadata.namespace,
                      uid=ref.uid or f"snapshot-{name}", resource_version="1",
                      labels=dict(template.metadata.labels), annotations=annotations, creation_timestamp=created,
                      owner_references=(owner,))
    job = _complete_job(Job(metadata=meta, spec=template.spec), "", source)
    spec = job.spec
    want = min(spec.parallelism if spec.parallelism is not None else 1,
               spec.completions if spec.completions is not None else 1 << 30)
    return replace(job, status=JobStatus(active=max(want, 0), ready=0, start_time=created))


UNSEEN_NODES = 3
"""The unseen pods run on the simulation's default nodes (``node-1`` ... ``node-3``), spread evenly."""


def unseen_pods(job: Job, at: float) -> tuple[Pod, ...]:
    """Pods standing for those the Job's status counts when the snapshot holds none of its pods.

    ``status.active`` pods exist and run (``status.ready`` of them ready), ``status.terminating``
    more are being deleted; their names are unknown, so they are called ``NAME-unseen-1``, ...
    (no generated name has a ``u`` or an ``e`` in its suffix, so none can clash). They are the
    template's pods as the controller made them (labels, annotations, the tracking finalizer,
    the Job as controller), started at ``at`` (their real start is unknown), bound to the
    default nodes. An Indexed Job's pods take the lowest indexes neither completed nor failed,
    which is where its controller creates pods first. A finished Job gets none: its controller
    does not look at its pods.
    """
    from ..api.types import (
        ContainerState,
        ContainerStateRunning,
        ContainerStatus,
        PodCondition,
        PodStatus,
    )
    from ..controller.controller_utils import get_pod_from_template, new_controller_ref
    from ..controller.job import indexed_job_utils as iju
    from ..controller.job.util.utils import is_job_finished

    st = job.status
    active, terminating = max(st.active, 0), max(st.terminating or 0, 0)
    if active + terminating == 0 or is_job_finished(job):
        return ()
    ready = min(max(st.ready or 0, 0), active)
    name = job.metadata.name
    indexes: list[int] = []
    if job.spec.completion_mode == "Indexed" and job.spec.completions is not None:
        taken = _index_set(st.completed_indexes) | _index_set(st.failed_indexes)
        indexes = [i for i in range(job.spec.completions) if i not in taken][:active + terminating]
    ref = new_controller_ref(job)
    template = job.spec.template
    tmeta = template.metadata
    if JOB_TRACKING_FINALIZER not in tmeta.finalizers:
        template = replace(template, metadata=replace(tmeta, finalizers=(*tmeta.finalizers, JOB_TRACKING_FINALIZER)))
    grace = template.spec.termination_grace_period_seconds
    grace = 30 if grace is None else grace
    out = []
    for i in range(active + terminating):
        t = template
        if i < len(indexes):
            t = iju.add_completion_index_label(iju.add_completion_index_annotation(t, indexes[i]), indexes[i])
        pod = get_pod_from_template(t, job, ref, f"{name}-")
        is_ready = i < ready
        deleting = i >= active
        meta = replace(pod.metadata, name=f"{name}-unseen-{i + 1}", uid=f"snapshot-unseen-{job.metadata.uid}-{i + 1}",
                       resource_version="1", creation_timestamp=at,
                       deletion_timestamp=at + grace if deleting else None,
                       deletion_grace_period_seconds=grace if deleting else None)
        statuses = tuple(ContainerStatus(name=c.name, image=c.image, ready=is_ready, started=True,
                                         state=ContainerState(running=ContainerStateRunning(started_at=at)))
                         for c in pod.spec.containers)
        status = PodStatus(phase=Phase.RUNNING, start_time=at, container_statuses=statuses, conditions=(
            PodCondition(type="Ready", status="True" if is_ready else "False", last_transition_time=at),))
        spec = replace(pod.spec, node_name=f"node-{i % UNSEEN_NODES + 1}")
        out.append(replace(pod, metadata=meta, spec=spec, status=status))
    return tuple(out)


def _index_set(text: str | None) -> set[int]:
    out: set[int] = set()
    for part in (text or "").split(","):
        lo, _sep, hi = part.partition("-")
        if lo.strip().isdigit() and (not hi or hi.strip().isdigit()):
            out.update(range(int(lo), int(hi or lo) + 1))
    return out


def _empty_list(doc: Any) -> bool:
    """An empty ``List`` or ``PodList`` document: what ``kubectl get pods -l ... -o yaml`` prints when it finds none."""
    return isinstance(doc, dict) and doc.get("kind") in ("List", "PodList") and doc.get("items") in ([], None)


def _is_time(text: str) -> bool:
    try:
        serialize.parse_time(text)
    except ValueError:
        return False
    return True


def _flatten(documents: list[Any], source: str):
    """Every object of the documents, with where it was: lists are opened (also typed ones)."""
    many = len(documents) > 1
    for i, doc in enumerate(documents):
        where = _("document {n}").format(n=i + 1) if many else ""
        if not isinstance(doc, dict) or ("kind" not in doc and "apiVersion" not in doc):
            raise SnapshotError("not_kubernetes", source=source, where=i + 1 if many else 0)
        kind = doc.get("kind")
        items = doc.get("items")
        if isinstance(kind, str) and kind.endswith("List") and "items" in doc:
            if not isinstance(items, list):
                raise SnapshotError("items.not_list", source=source, where=where)
            item_kind = kind[: -len("List")] or None
            for j, item in enumerate(items):
                place = f"{where}: items[{j}]" if where else f"items[{j}]"
                if not isinstance(item, dict):
                    raise SnapshotError("items.not_object", source=source, place=place)
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
            raise SnapshotError("job.wrong_version", source=source, version=str(wrong_jobs[0]))
        raise SnapshotError("job.none", source=source, pods=len(pods), others=sorted(others.items()))
    names = sorted(_name_of(d) for _, d in jobs)
    if wanted is not None:
        hits = [(w, d) for w, d in jobs
                if _name_of(d) == wanted or _name_of(d).split("/")[-1] == wanted]
        if len(hits) == 1:
            return hits[0]
        if not hits:
            raise SnapshotError("job.not_found", source=source, name=wanted, names=names)
        raise SnapshotError("job.ambiguous", source=source, name=wanted, names=[_name_of(d) for _, d in hits])
    if len(jobs) > 1:
        raise SnapshotError("job.several", source=source, names=names)
    return jobs[0]


def _complete_job(job: Job, where: str, source: str) -> Job:
    """What a server always sets and the controller needs: a name, a namespace, a UID, a selector."""
    meta = job.metadata
    if not meta.name:
        raise SnapshotError("job.unreadable", [FieldError.required("metadata.name")], source=source, where=where)
    # A server always sets these; a dump trimmed by hand may lack them (a status write needs the version).
    meta = replace(meta, namespace=meta.namespace or "default", uid=meta.uid or f"snapshot-{meta.name}",
                   resource_version=meta.resource_version or "1")
    job = replace(job, metadata=meta)
    from ..api.defaults import generate_selector, set_defaults_job

    # An object read back from storage is defaulted by the reading server: fields an older
    # server did not default get the 1.35 defaults (a real 1.35 object is unchanged).
    job = set_defaults_job(job)
    if job.spec.selector is None and not job.spec.manual_selector:
        job = generate_selector(job)
    if job.spec.selector is None:
        raise SnapshotError("job.unusable", [FieldError.required("spec.selector",
                                                                 "a Job with manualSelector needs a selector")],
                            source=source)
    return job


def _complete_pod(pod: Pod, job: Job) -> Pod:
    meta = pod.metadata
    if not meta.namespace or not meta.uid:
        pod = replace(pod, metadata=replace(meta, namespace=meta.namespace or job.metadata.namespace,
                                            uid=meta.uid or f"snapshot-{meta.name}"))
    return pod if pod.metadata.resource_version else replace(pod, metadata=replace(pod.metadata, resource_version="1"))


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
            raise SnapshotError("object.unreadable", [FieldError.required("metadata.name")], source=source,
                                what=_describe("Pod", doc, where))
        if pod_ns != ns:
            left.append(LeftOut(name, pod_ns, "other-namespace"))
            continue
        ref = _controller_ref(doc)
        if ref is not None and ref.get("uid") != uid:
            left.append(LeftOut(name, pod_ns, "other-controller", f"{ref.get('kind', '?')}/{ref.get('name', '?')}"))
            continue
        (settled if ref is not None and _settled(doc) and _settled_aside(doc) else mine).append((where, doc))
    if len(mine) > MAX_SNAPSHOT_PODS:
        raise SnapshotError("pods.too_many", source=source, n=len(mine), job=job.metadata.name, limit=MAX_SNAPSHOT_PODS)
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
            raise SnapshotError("object.unreadable", exc.errors, source=source, what=what) from None
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


# ----------------------------------------------------------------------------- times


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


def _first_instant(objects: list[Any], now: Any) -> float:
    """Where a snapshot's simulated time 0 goes: its earliest instant, else a ``now`` given as a time, else 0."""
    first = min(_all_instants(objects), default=None)
    if first is not None:
        return first
    return serialize.parse_time(now) if isinstance(now, str) and _is_time(now) else 0.0


def _now_at(now: Any, origin: float, latest: float | None) -> float:
    """The instant of the next sync in simulated seconds: ``now`` (RFC 3339 or seconds since EPOCH) moved by
    ``origin``, or the latest instant of the snapshot; a time before the first object is refused."""
    if now is None:
        at = latest if latest is not None else 0.0
    elif isinstance(now, str):
        try:
            at = serialize.parse_time(now) - origin
        except ValueError as exc:
            raise SnapshotError("now.invalid", value=now, detail=str(exc)) from None
    else:
        at = float(now) - origin
    if at < 0:
        raise SnapshotError("now.before_creation", now=serialize.format_time(at + origin),
                            created=serialize.format_time(origin))
    return at


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


def check_duration(duration: float | None) -> None:
    """Refuse an assumed pod duration that is not a number of seconds in (0, one year]."""
    if duration is None:
        return
    if isinstance(duration, bool) or not isinstance(duration, (int, float)) or not 0 < duration <= 86400 * 365:
        raise SnapshotError("duration.invalid", value=duration)


def assume(snapshot: Snapshot, duration: float | None = None) -> Snapshot:
    """:meth:`Snapshot.assuming` with ``duration`` checked (a SnapshotError names ``assume_duration``)."""
    check_duration(duration)
    return snapshot.assuming(duration)


__all__ = ["CRONJOB_VERSIONS", "DEFAULT_ASSUMED_DURATION", "EXAMPLE_SNAPSHOTS", "MAX_SNAPSHOT_BYTES", "MAX_SNAPSHOT_PODS", "SNAPSHOT_COMMAND",
           "UNSEEN_NODES", "Ignored", "LeftOut", "PodQuota", "Snapshot", "assume", "check_duration", "example_snapshot",
           "load_snapshot", "read_snapshot", "unseen_pods"]
