"""One-line builders of real-looking Job and pod documents, as ``kubectl get -o yaml`` prints them."""

from __future__ import annotations

import zlib
from typing import Any

UID = "6b1f2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"
CREATED = "2025-06-02T08:00:00Z"


def job(name: str = "report", *, uid: str = UID, completions: int | None = 4, parallelism: int = 2,
        backoff_limit: int = 6, indexed: bool = False, status: dict | None = None, **spec: Any) -> dict:
    """A batch/v1 Job as a 1.35 server returns it (defaulted, with its generated selector)."""
    labels = {"batch.kubernetes.io/controller-uid": uid, "batch.kubernetes.io/job-name": name,
              "controller-uid": uid, "job-name": name}
    body = {"backoffLimit": backoff_limit, "completionMode": "Indexed" if indexed else "NonIndexed",
            "manualSelector": False, "parallelism": parallelism, "podReplacementPolicy": "TerminatingOrFailed",
            "selector": {"matchLabels": {"batch.kubernetes.io/controller-uid": uid}}, "suspend": False,
            "template": {"metadata": {"creationTimestamp": None, "labels": labels},
                         "spec": {"containers": [{"name": "main", "image": "busybox:1.36",
                                                  "imagePullPolicy": "IfNotPresent", "resources": {}}],
                                  "dnsPolicy": "ClusterFirst", "restartPolicy": "Never",
                                  "terminationGracePeriodSeconds": 30}},
            **spec}
    if completions is not None:
        body["completions"] = completions
    return {"apiVersion": "batch/v1", "kind": "Job",
            "metadata": {"creationTimestamp": CREATED, "generation": 1, "labels": labels, "name": name,
                         "namespace": "default", "resourceVersion": "91230", "uid": uid,
                         "managedFields": [{"manager": "kubectl-create", "operation": "Update", "time": CREATED}]},
            "spec": body, "status": status or {"active": 0, "startTime": CREATED}}


def pod(name: str, phase: str = "Running", *, job_name: str = "report", uid: str = UID, at: str = "08:00:05",
        ended: str | None = None, exit_code: int = 0, finalizer: bool = True, index: int | None = None,
        owner: bool = True, **meta: Any) -> dict:
    """A pod of the Job: ``at`` is when it started (HH:MM:SS that day), ``ended`` when it finished."""
    day = CREATED[:11]
    start = f"{day}{at}Z"
    labels = {"batch.kubernetes.io/controller-uid": uid, "batch.kubernetes.io/job-name": job_name,
              "controller-uid": uid, "job-name": job_name}
    annotations = {}
    if index is not None:
        labels["batch.kubernetes.io/job-completion-index"] = annotations[
            "batch.kubernetes.io/job-completion-index"] = str(index)
    m: dict[str, Any] = {"creationTimestamp": start, "generateName": f"{job_name}-", "labels": labels,
                         "name": name, "namespace": "default", "resourceVersion": "91300",
                         "uid": f"{uid[:-12]}{zlib.crc32(name.encode()):012x}", "annotations": annotations, **meta}
    if owner:
        m["ownerReferences"] = [{"apiVersion": "batch/v1", "blockOwnerDeletion": True, "controller": True,
                                 "kind": "Job", "name": job_name, "uid": uid}]
    if finalizer:
        m["finalizers"] = ["batch.kubernetes.io/job-tracking"]
    state: dict[str, Any] = {"running": {"startedAt": start}}
    ready = "True"
    if phase in ("Succeeded", "Failed"):
        state = {"terminated": {"exitCode": exit_code, "reason": "Completed" if exit_code == 0 else "Error",
                                "startedAt": start, "finishedAt": f"{day}{ended or at}Z",
                                "containerID": "containerd://" + "a" * 64}}
        ready = "False"
    status: dict[str, Any] = {"phase": phase, "qosClass": "BestEffort", "podIP": "10.244.0.7", "hostIP": "10.0.0.4",
                              "startTime": start,
                              "conditions": [{"type": "Ready", "status": ready, "lastProbeTime": None,
                                              "lastTransitionTime": f"{day}{ended or at}Z"},
                                             {"type": "PodScheduled", "status": "True", "lastProbeTime": None,
                                              "lastTransitionTime": start}],
                              "containerStatuses": [{"name": "main", "ready": ready == "True", "restartCount": 0,
                                                     "image": "busybox:1.36", "imageID": "sha256:" + "b" * 64,
                                                     "state": state, "lastState": {}}]}
    if phase == "Pending":
        status = {"phase": "Pending", "qosClass": "BestEffort",
                  "conditions": [{"type": "PodScheduled", "status": "False", "reason": "Unschedulable",
                                  "lastProbeTime": None, "lastTransitionTime": start}]}
    spec = {"containers": [{"name": "main", "image": "busybox:1.36"}], "restartPolicy": "Never",
            "serviceAccountName": "default", "volumes": [{"name": "kube-api-access-q", "projected": {}}]}
    if phase != "Pending":
        spec["nodeName"] = "worker-1"
    return {"apiVersion": "v1", "kind": "Pod", "metadata": m, "spec": spec, "status": status}


def as_list(*items: dict) -> dict:
    """``kubectl get job,pods -o yaml``: a v1 List."""
    return {"apiVersion": "v1", "kind": "List", "items": list(items), "metadata": {"resourceVersion": ""}}
