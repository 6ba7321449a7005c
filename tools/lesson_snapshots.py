"""Build the example snapshots of lesson 15 (``k8sjobs/snapshots/*.yaml``) from simulations.

    .venv/bin/python tools/lesson_snapshots.py           # write them
    .venv/bin/python tools/lesson_snapshots.py --check   # exit 1 if a committed file differs

Each snapshot is what ``kubectl get job,pods -l batch.kubernetes.io/job-name=NAME -o yaml``
would print for a Job the simulator ran up to a chosen instant: the model's own Job and pods
(so what ``explain`` says about them is consistent with a run of the same Job), dressed as a
real API server returns them (managedFields, UUIDs, pod IPs, QoS class, container and image
IDs, the service-account volume, tolerations; no ``sim.k8sjobs.io`` annotations) and moved to
a real-looking date. A snapshot with a quota adds what ``kubectl get resourcequota -o yaml``
printed as a second YAML document.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from k8sjobs.api.serialize import EPOCH, to_dict
from k8sjobs.sim import Simulation
from k8sjobs.trace.kubectl import job_document, to_kubectl_yaml

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "k8sjobs" / "snapshots"
TIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")
RESOURCE_VERSION_BASE = 8_812_000

NIGHTLY_REPORT = """\
apiVersion: batch/v1
kind: Job
metadata:
  name: nightly-report
  namespace: default
spec:
  backoffLimit: 6
  template:
    metadata:
      annotations:
        sim.k8sjobs.io/duration: "19s"
        sim.k8sjobs.io/fail-rate: "1"
    spec:
      restartPolicy: Never
      containers:
      - name: report
        image: registry.example.com/reports/nightly:2.4.1
        command: ["python", "-m", "reports.nightly", "--since", "24h"]
        env:
        - name: REPORT_DB_HOST
          value: reports-db.default.svc
        - name: SMTP_API_TOKEN
          value: sk-live-4f9b2c7e1d3a8b6c
        - name: REPORT_DB_PASSWORD
          valueFrom:
            secretKeyRef:
              name: reports-db
              key: password
      imagePullSecrets:
      - name: registry-example-com
"""

THUMBNAILS = """\
apiVersion: batch/v1
kind: Job
metadata:
  name: thumbnails
  namespace: default
spec:
  completions: 40
  parallelism: 10
  template:
    metadata:
      annotations:
        sim.k8sjobs.io/duration: "45s"
    spec:
      restartPolicy: Never
      containers:
      - name: resize
        image: registry.example.com/media/thumbnailer:1.8
        args: ["--bucket", "uploads", "--size", "256x256"]
"""

SHARDS = """\
apiVersion: batch/v1
kind: Job
metadata:
  name: shards
  namespace: default
spec:
  completions: 5
  parallelism: 5
  completionMode: Indexed
  backoffLimitPerIndex: 1
  template:
    metadata:
      annotations:
        sim.k8sjobs.io/durations: "0=38s;1=42s;2=25s;*=90s"
        sim.k8sjobs.io/fail-indexes: "2"
    spec:
      restartPolicy: Never
      containers:
      - name: index
        image: registry.example.com/search/indexer:5.2
        args: ["--shard", "$(JOB_COMPLETION_INDEX)", "--of", "5"]
"""


@dataclass(frozen=True)
class Quota:
    """A ResourceQuota on pods: ``hard`` allowed, ``others`` used by pods outside the snapshot."""

    name: str
    hard: int
    others: int
    created: str


@dataclass(frozen=True)
class Example:
    """One snapshot: a manifest run with ``seed`` up to ``at`` seconds, shown as if it began at ``start``."""

    name: str
    manifest: str
    at: float
    start: str
    applied: bool = False
    """Created with ``kubectl apply`` (the last-applied-configuration annotation holds the manifest)."""
    quota: Quota | None = None
    seed: int = 0
    notes: list[str] = field(default_factory=list)


EXAMPLES = [
    Example("backoff", NIGHTLY_REPORT, at=90, start="2026-03-10T02:00:00Z", applied=True,
            notes=["A Job in back-off: its third pod failed a moment ago (the snapshot's last instant)."]),
    Example("quota", THUMBNAILS, at=20, start="2026-03-10T09:30:00Z",
            quota=Quota("team-pods", hard=5, others=2, created="2026-02-02T14:05:31Z"),
            notes=["A Job held below parallelism: the namespace's ResourceQuota allows 5 pods, 2 of them",
                   "belong to other workloads."]),
    Example("indexed", SHARDS, at=62, start="2026-03-10T11:00:00Z",
            notes=["An Indexed Job with backoffLimitPerIndex 1: index 2 has just failed for the second time."]),
]


# ----------------------------------------------------------------------------- simulation


def simulate(ex: Example) -> tuple[Any, list[Any]]:
    """The Job and its pods as the API server holds them at ``ex.at`` (every event up to it applied)."""
    sim = Simulation(ex.manifest, seed=ex.seed)
    if ex.quota is not None:
        faults = sim.store.faults
        faults.pod_quota, faults.pod_quota_name, faults.pod_quota_outside = ex.quota.hard, ex.quota.name, ex.quota.others
    while (t := sim.heap.peek_time()) is not None and t <= ex.at:
        sim.step()
    pods = sorted(sim.store.objects("Pod"), key=lambda p: p.metadata.name)
    return sim.job, pods


# ----------------------------------------------------------------------------- dressing


def _uuid(seed: str) -> str:
    h = hashlib.sha256(seed.encode()).hexdigest()
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{'89ab'[int(h[16], 16) % 4]}{h[17:20]}-{h[20:32]}"


def _drop_sim(annotations: dict[str, str] | None) -> dict[str, str]:
    return {k: v for k, v in (annotations or {}).items() if not k.startswith("sim.k8sjobs.io/")}


def _move_times(value: Any, offset: dt.timedelta) -> Any:
    if isinstance(value, dict):
        return {k: _move_times(v, offset) for k, v in value.items()}
    if isinstance(value, list):
        return [_move_times(v, offset) for v in value]
    if isinstance(value, str) and TIME.match(value):
        instant = dt.datetime.strptime(value, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=dt.UTC) + offset
        return instant.strftime("%Y-%m-%dT%H:%M:%SZ")
    return value


def _replace_strings(value: Any, mapping: dict[str, str]) -> Any:
    if isinstance(value, dict):
        return {k: _replace_strings(v, mapping) for k, v in value.items()}
    if isinstance(value, list):
        return [_replace_strings(v, mapping) for v in value]
    if isinstance(value, str):
        for old, new in mapping.items():
            value = value.replace(old, new)
    return value


def _version(doc: dict) -> None:
    meta = doc["metadata"]
    meta["resourceVersion"] = str(RESOURCE_VERSION_BASE + int(meta.get("resourceVersion") or 0))


def _applied(manifest: str) -> str:
    import yaml

    doc = yaml.safe_load(manifest)
    doc["metadata"]["annotations"] = {}
    tmeta = doc["spec"]["template"].setdefault("metadata", {})
    tmeta.pop("annotations", None)
    if not tmeta:
        doc["spec"]["template"].pop("metadata")
    return json.dumps(doc, sort_keys=True, separators=(",", ":")) + "\n"


def _job(ex: Example, job: Any) -> dict:
    doc = job_document(job)
    meta = doc["metadata"]
    created = meta["creationTimestamp"]
    meta["managedFields"] = [
        {"apiVersion": "batch/v1", "fieldsType": "FieldsV1",
         "fieldsV1": {"f:spec": {"f:backoffLimit": {}, "f:template": {"f:spec": {"f:containers": {}}}}},
         "manager": "kubectl-client-side-apply" if ex.applied else "kubectl-create", "operation": "Update",
         "time": created},
        {"apiVersion": "batch/v1", "fieldsType": "FieldsV1",
         "fieldsV1": {"f:status": {"f:active": {}, "f:ready": {}, "f:startTime": {}, "f:terminating": {},
                                   "f:uncountedTerminatedPods": {}}},
         "manager": "kube-controller-manager", "operation": "Update", "subresource": "status", "time": created},
    ]
    annotations = _drop_sim(meta.get("annotations"))
    if ex.applied:
        annotations["kubectl.kubernetes.io/last-applied-configuration"] = _applied(ex.manifest)
    if annotations:
        meta["annotations"] = annotations
    else:
        meta.pop("annotations", None)
    tmeta = doc["spec"]["template"]["metadata"]
    tmeta.pop("annotations", None)
    tmeta["creationTimestamp"] = None
    for c in doc["spec"]["template"]["spec"]["containers"]:
        c.setdefault("resources", {})
    _version(doc)
    return doc


def _pod(pod: Any, i: int) -> dict:
    doc = to_dict(pod)
    meta = doc["metadata"]
    meta["annotations"] = _drop_sim(meta.get("annotations"))
    if not meta["annotations"]:
        meta.pop("annotations")
    _version(doc)
    spec, status = doc["spec"], doc["status"]
    volume = f"kube-api-access-{hashlib.sha256(meta['name'].encode()).hexdigest()[:5]}"
    for c in spec["containers"]:
        c.setdefault("resources", {})
        c["volumeMounts"] = [{"mountPath": "/var/run/secrets/kubernetes.io/serviceaccount", "name": volume,
                              "readOnly": True}]
    spec.update({
        "enableServiceLinks": True, "preemptionPolicy": "PreemptLowerPriority", "priority": 0,
        "serviceAccount": "default", "serviceAccountName": "default",
        "tolerations": [{"effect": "NoExecute", "key": k, "operator": "Exists", "tolerationSeconds": 300}
                        for k in ("node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable")],
        "volumes": [{"name": volume, "projected": {"defaultMode": 420, "sources": [
            {"serviceAccountToken": {"expirationSeconds": 3607, "path": "token"}},
            {"configMap": {"items": [{"key": "ca.crt", "path": "ca.crt"}], "name": "kube-root-ca.crt"}},
            {"downwardAPI": {"items": [{"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.namespace"},
                                        "path": "namespace"}]}}]}}],
    })
    for cond in status.get("conditions", []):
        cond["lastProbeTime"] = None
    node = spec.get("nodeName", "")
    if node:
        host = f"10.0.1.{10 + int(node.rsplit('-', 1)[-1])}"
        ip = f"10.244.{int(node.rsplit('-', 1)[-1])}.{20 + i}"
        status.update({"hostIP": host, "hostIPs": [{"ip": host}], "podIP": ip, "podIPs": [{"ip": ip}]})
    status["qosClass"] = "BestEffort"
    image = spec["containers"][0]["image"]
    digest = hashlib.sha256(image.encode()).hexdigest()
    for s in status.get("containerStatuses", []):
        s.setdefault("ready", False)
        s.setdefault("restartCount", 0)
        s.setdefault("lastState", {})
        s["image"] = image
        s["imageID"] = f"{image.rsplit(':', 1)[0]}@sha256:{digest}"
        state = s.get("state", {})
        if "running" in state or "terminated" in state:
            cid = "containerd://" + hashlib.sha256((meta["name"] + s["name"]).encode()).hexdigest()
            s["containerID"] = cid
            if "terminated" in state:
                state["terminated"]["containerID"] = cid
    return doc


def _quota(ex: Example, used: int) -> dict:
    q = ex.quota
    return {"apiVersion": "v1", "kind": "List", "metadata": {"resourceVersion": ""}, "items": [{
        "apiVersion": "v1", "kind": "ResourceQuota",
        "metadata": {"creationTimestamp": q.created, "name": q.name, "namespace": "default",
                     "resourceVersion": str(RESOURCE_VERSION_BASE - 7_331), "uid": _uuid(f"quota/{q.name}")},
        "spec": {"hard": {"pods": str(q.hard)}},
        "status": {"hard": {"pods": str(q.hard)}, "used": {"pods": str(used)}},
    }]}


def render(ex: Example) -> str:
    """The snapshot file's text."""
    job, pods = simulate(ex)
    items = [_job(ex, job), *(_pod(p, i) for i, p in enumerate(pods))]
    # Real UIDs instead of the simulator's counters (the Job's uid is also in labels and the selector).
    uids = {job.metadata.uid: _uuid(f"{ex.name}/job"), **{p.metadata.uid: _uuid(f"{ex.name}/{p.metadata.name}")
                                                          for p in pods}}
    items = _replace_strings(items, uids)
    start = dt.datetime.strptime(ex.start, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=dt.UTC)
    items = _move_times(items, start - EPOCH)
    name = job.metadata.name
    header = [f"# {line}" for line in ex.notes]
    if ex.quota is None:
        header.append(f"# kubectl get job,pods -l batch.kubernetes.io/job-name={name} -o yaml")
    else:
        header.append(f"# {{ kubectl get job,pods -l batch.kubernetes.io/job-name={name} -o yaml; echo ---; "
                      "kubectl get resourcequota -o yaml; }")
    text = "\n".join(header) + "\n" + to_kubectl_yaml({"apiVersion": "v1", "items": items, "kind": "List",
                                                       "metadata": {"resourceVersion": ""}})
    if ex.quota is not None:
        live = sum(1 for p in pods if p.status.phase not in ("Succeeded", "Failed"))
        text += "---\n" + to_kubectl_yaml(_quota(ex, live + ex.quota.others))
    return text


def main(argv: list[str] | None = None) -> int:
    """Write the snapshots, or with ``--check`` report the ones that differ from what they would be."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="only compare; exit 1 when a file differs")
    args = ap.parse_args(argv)
    stale = []
    for ex in EXAMPLES:
        path = OUT / f"{ex.name}.yaml"
        text = render(ex)
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(path.relative_to(ROOT).as_posix())
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(ROOT)}")
    if stale:
        print("stale (run tools/lesson_snapshots.py): " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
