"""Redact a snapshot: keep what ``explain`` reads, drop what may hold secrets.

``kubectl get job,pods -o yaml`` prints everything: environment variables (an API token
written as a plain ``value``), commands and arguments (``--password=...``), image pull
secrets, volumes, annotations (``kubectl.kubernetes.io/last-applied-configuration`` holds
the whole manifest as it was applied, environment included), containers' termination
messages (the last lines a program wrote), pod and node IPs. :func:`redact_snapshot` keeps
only what the model reads, field by field (an allow-list, so a field added by a newer
Kubernetes is dropped too), and prints the result as kubectl would, in the same format:

* objects: Jobs (``batch/v1``), CronJobs (``batch/v1``, and ``batch/v1beta1`` and ``batch/v2alpha1`` of
  older clusters), Pods and ResourceQuotas (``v1``); every other kind goes;
* metadata: names, namespace, UID, times, labels, owner references, finalizers, and only the
  annotations the controller or the simulator reads (``batch.kubernetes.io/...``,
  ``sim.k8sjobs.io/...``);
* the Job's spec and status, with its pod template redacted like a pod;
* a CronJob's spec: its schedule, time zone, starting deadline, concurrency policy, suspend and history
  limits, and its Job template redacted like a Job (the template's metadata like a pod template's); its
  status: the active Jobs' references and the last schedule and success times;
* a pod's spec: containers and init containers reduced to ``name``, ``image`` and
  ``restartPolicy``; restart policy, node, scheduling constraints, hostname, grace period and
  deadline; its status: phase, conditions, start time and container states without their
  termination messages or container IDs;
* a ResourceQuota: its name and its ``pods`` limits and usage.

``explain`` gives the same answer on the redacted snapshot as on the original (a test checks
it on every example snapshot, on the upstream-derived cases, and on CronJob dumps: the published ones and a
simulated one, the sync now, the next schedule time and sync, and the forecast).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ..api.yamlio import load_documents
from ..i18n import _, join_list
from ..trace.kubectl import to_kubectl_json, to_kubectl_yaml
from .read import CRONJOB_VERSIONS, MAX_SNAPSHOT_BYTES, MAX_SNAPSHOT_NODES

KEPT_ANNOTATION_PREFIXES = ("batch.kubernetes.io/", "sim.k8sjobs.io/", "pod-complete.stage.kwok.x-k8s.io/")
"""Annotations a redacted snapshot keeps: those the Job controller or the simulator reads."""

_META = ("name", "generateName", "namespace", "uid", "resourceVersion", "generation", "creationTimestamp",
         "deletionTimestamp", "deletionGracePeriodSeconds", "labels", "annotations", "ownerReferences", "finalizers")
_TEMPLATE_META = ("name", "generateName", "namespace", "labels", "annotations", "finalizers")
_POD_SPEC = ("containers", "initContainers", "restartPolicy", "nodeName", "nodeSelector", "tolerations", "affinity",
             "schedulingGates", "hostname", "subdomain", "terminationGracePeriodSeconds", "activeDeadlineSeconds")
_CONTAINER = ("name", "image", "restartPolicy")
_POD_STATUS = ("phase", "conditions", "message", "reason", "startTime", "initContainerStatuses", "containerStatuses")
_CONTAINER_STATUS = ("name", "ready", "restartCount", "started", "state", "lastState")
_QUOTA_KEYS = ("pods", "count/pods")
_CRONJOB_SPEC = ("schedule", "timeZone", "startingDeadlineSeconds", "concurrencyPolicy", "suspend", "jobTemplate",
                 "successfulJobsHistoryLimit", "failedJobsHistoryLimit")
_CRONJOB_STATUS = ("active", "lastScheduleTime", "lastSuccessfulTime")
_OBJECT_REFERENCE = ("apiVersion", "kind", "name", "namespace", "uid", "resourceVersion", "fieldPath")
_KINDS = {("batch/v1", "Job"), ("v1", "Pod"), ("v1", "ResourceQuota"), *((v, "CronJob") for v in CRONJOB_VERSIONS)}


@dataclass
class Redaction:
    """A redacted snapshot: its ``text`` and what was removed (field path -> how many objects had it)."""

    text: str
    removed: Counter = field(default_factory=Counter)

    def summary(self) -> str:
        """One line: what was removed, most frequent first."""
        if not self.removed:
            return _("nothing to remove: the snapshot holds only what explain reads")
        parts = [f"{path} ({n})" for path, n in sorted(self.removed.items(), key=lambda kv: (-kv[1], kv[0]))]
        return _("removed: {fields}").format(fields=join_list(parts))


class _Redactor:
    def __init__(self) -> None:
        self.removed: Counter = Counter()

    def keep(self, doc: dict, keys: tuple[str, ...], path: str) -> dict:
        out = {}
        for k, v in doc.items():
            if k in keys:
                out[k] = v
            else:
                self.removed[f"{path}{k}"] += 1
        return out

    def annotations(self, meta: dict, path: str) -> None:
        ann = meta.get("annotations")
        if not isinstance(ann, dict):
            return
        kept = {}
        for k, v in ann.items():
            if k.startswith(KEPT_ANNOTATION_PREFIXES):
                kept[k] = v
            else:
                self.removed[f"{path}annotations[{k}]"] += 1
        if kept:
            meta["annotations"] = kept
        else:
            meta.pop("annotations")

    def metadata(self, meta: Any, keys: tuple[str, ...], path: str) -> Any:
        if not isinstance(meta, dict):
            return meta
        meta = self.keep(meta, keys, path)
        self.annotations(meta, path)
        return meta

    def containers(self, items: Any, path: str) -> Any:
        if not isinstance(items, list):
            return items
        return [self.keep(c, _CONTAINER, f"{path}[*].") if isinstance(c, dict) else c for c in items]

    def pod_spec(self, spec: Any, path: str) -> Any:
        if not isinstance(spec, dict):
            return spec
        spec = self.keep(spec, _POD_SPEC, path)
        for key in ("containers", "initContainers"):
            if key in spec:
                spec[key] = self.containers(spec[key], f"{path}{key}")
        return spec

    def container_statuses(self, items: Any, path: str) -> Any:
        if not isinstance(items, list):
            return items
        out = []
        for s in items:
            if not isinstance(s, dict):
                out.append(s)
                continue
            s = self.keep(s, _CONTAINER_STATUS, f"{path}[*].")
            for which in ("state", "lastState"):
                state = s.get(which)
                term = state.get("terminated") if isinstance(state, dict) else None
                if isinstance(term, dict):
                    for k in ("message", "containerID"):
                        if k in term:
                            self.removed[f"{path}[*].{which}.terminated.{k}"] += 1
                    state["terminated"] = {k: v for k, v in term.items() if k not in ("message", "containerID")}
            out.append(s)
        return out

    def job_spec(self, spec: Any, path: str) -> Any:
        """A Job's spec (of a Job or of a CronJob's Job template): its pod template redacted like a pod."""
        if isinstance(spec, dict) and isinstance(spec.get("template"), dict):
            template = self.keep(spec["template"], ("metadata", "spec"), f"{path}template.")
            if "metadata" in template:
                template["metadata"] = self.metadata(template["metadata"], _TEMPLATE_META,
                                                     f"{path}template.metadata.")
            if "spec" in template:
                template["spec"] = self.pod_spec(template["spec"], f"{path}template.spec.")
            spec = {**spec, "template": template}
        return spec

    def job(self, doc: dict) -> dict:
        doc = self.keep(doc, ("apiVersion", "kind", "metadata", "spec", "status"), "Job: ")
        doc["metadata"] = self.metadata(doc.get("metadata"), _META, "Job: metadata.")
        if "spec" in doc:
            doc["spec"] = self.job_spec(doc["spec"], "Job: spec.")
        return doc

    def cronjob(self, doc: dict) -> dict:
        doc = self.keep(doc, ("apiVersion", "kind", "metadata", "spec", "status"), "CronJob: ")
        doc["metadata"] = self.metadata(doc.get("metadata"), _META, "CronJob: metadata.")
        spec = doc.get("spec")
        if isinstance(spec, dict):
            spec = self.keep(spec, _CRONJOB_SPEC, "CronJob: spec.")
            template = spec.get("jobTemplate")
            if isinstance(template, dict):
                template = self.keep(template, ("metadata", "spec"), "CronJob: spec.jobTemplate.")
                if "metadata" in template:
                    template["metadata"] = self.metadata(template["metadata"], _TEMPLATE_META,
                                                         "CronJob: spec.jobTemplate.metadata.")
                if "spec" in template:
                    template["spec"] = self.job_spec(template["spec"], "CronJob: spec.jobTemplate.spec.")
                spec["jobTemplate"] = template
            doc["spec"] = spec
        status = doc.get("status")
        if isinstance(status, dict):
            status = self.keep(status, _CRONJOB_STATUS, "CronJob: status.")
            if isinstance(status.get("active"), list):
                status["active"] = [self.keep(ref, _OBJECT_REFERENCE, "CronJob: status.active[*].")
                                    if isinstance(ref, dict) else ref for ref in status["active"]]
            doc["status"] = status
        return doc

    def pod(self, doc: dict) -> dict:
        doc = self.keep(doc, ("apiVersion", "kind", "metadata", "spec", "status"), "Pod: ")
        doc["metadata"] = self.metadata(doc.get("metadata"), _META, "Pod: metadata.")
        if "spec" in doc:
            doc["spec"] = self.pod_spec(doc["spec"], "Pod: spec.")
        status = doc.get("status")
        if isinstance(status, dict):
            status = self.keep(status, _POD_STATUS, "Pod: status.")
            for key in ("containerStatuses", "initContainerStatuses"):
                if key in status:
                    status[key] = self.container_statuses(status[key], f"Pod: status.{key}")
            doc["status"] = status
        return doc

    def quota(self, doc: dict) -> dict:
        doc = self.keep(doc, ("apiVersion", "kind", "metadata", "spec", "status"), "ResourceQuota: ")
        meta = doc.get("metadata")
        if isinstance(meta, dict):
            doc["metadata"] = self.keep(meta, ("name", "namespace", "uid", "resourceVersion", "creationTimestamp"),
                                        "ResourceQuota: metadata.")
        for part, maps in (("spec", ("hard",)), ("status", ("hard", "used"))):
            body = doc.get(part)
            if not isinstance(body, dict):
                continue
            body = self.keep(body, maps, f"ResourceQuota: {part}.")
            for m in maps:
                if isinstance(body.get(m), dict):
                    body[m] = self.keep(body[m], _QUOTA_KEYS, f"ResourceQuota: {part}.{m}.")
            doc[part] = body
        return doc

    def object(self, doc: Any) -> dict | None:
        if not isinstance(doc, dict):
            return None
        kind, api = doc.get("kind"), doc.get("apiVersion")
        if (api, kind) not in _KINDS:
            self.removed[f"{kind} ({api})" if isinstance(kind, str) else "?"] += 1
            return None
        return {"Job": self.job, "CronJob": self.cronjob, "Pod": self.pod, "ResourceQuota": self.quota}[kind](doc)

    def document(self, doc: Any) -> Any:
        if not isinstance(doc, dict):
            return doc
        kind = doc.get("kind")
        if isinstance(kind, str) and kind.endswith("List") and isinstance(doc.get("items"), list):
            item_kind = kind[: -len("List")]
            items = []
            for item in doc["items"]:
                if isinstance(item, dict) and item_kind and "kind" not in item:
                    item = {"kind": item_kind, "apiVersion": doc.get("apiVersion"), **item}
                kept = self.object(item)
                if kept is not None:
                    items.append(kept)
            return {"apiVersion": "v1", "items": items, "kind": "List", "metadata": {"resourceVersion": ""}}
        return self.object(doc)


def redact_snapshot(data: str | bytes, source: str = "<snapshot>") -> Redaction:
    """The snapshot ``data`` (YAML or JSON, as kubectl printed it) with only what ``explain`` reads.

    Returns a :class:`Redaction`: its ``text`` is in the input's format (JSON as ``kubectl -o
    json`` writes it, else YAML as ``kubectl -o yaml`` does; several documents stay several),
    ``removed`` says which fields went (see the module docstring for what is kept). Raises
    :class:`~k8sjobs.api.errors.DecodeError` for input that is not Kubernetes YAML or JSON.
    """
    text = data.decode("utf-8", errors="replace") if isinstance(data, bytes) else data
    documents = load_documents(data, source, max_bytes=MAX_SNAPSHOT_BYTES, max_nodes=MAX_SNAPSHOT_NODES,
                               too_large=_("more than a snapshot may have (about 15,000 pods as kubectl "
                                           "prints them)"))
    r = _Redactor()
    kept = [d for d in (r.document(doc) for doc in documents) if d is not None]
    if text.lstrip().startswith(("{", "[")):
        out = "".join(to_kubectl_json(d) + "\n" for d in kept)
    else:
        out = "---\n".join(to_kubectl_yaml(d) for d in kept)
    return Redaction(out, r.removed)


__all__ = ["KEPT_ANNOTATION_PREFIXES", "Redaction", "redact_snapshot"]
