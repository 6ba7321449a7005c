"""Upstream ``sync`` cases written as the ``kubectl get job,pods -o yaml`` List a real cluster would print.

The case's Job and pods are built as the conformance runner builds them (the same
builders, the same API defaulting), then dressed as a real API server returns objects:
UUIDs, resourceVersions, managedFields, creation timestamps, pod IPs, a QoS class,
container IDs, the service-account volume, tolerations, a node for pods that ran, and a
field of a newer Kubernetes version. None of that may change the controller's decision.
"""

from __future__ import annotations

import uuid
from typing import Any

import yaml

from k8sjobs.api.serialize import format_time, to_dict
from k8sjobs.conformance import _build
from k8sjobs.conformance.defaults import default_case_job

NOW = _build.NOW
NOW_TEXT = format_time(NOW)
CREATED = NOW - _build.LONG_AGO - 3600.0
"""The Job and pods without a creation time in the case were created before anything else happened."""

MEMORY_KEYS = {
    "backoffRecord": "a backoff record held in the controller's memory",
    "fakeExpectationsNotSatisfied": "expectations held in the controller's memory",
    "podControlError": "an API fault: every pod create, delete and patch fails",
    "podLimit": "an API fault: pod creations beyond a limit are refused",
    "statusUpdateError": "an API fault: the Job's status write fails",
    "jobInCache": "the Job missing from the informer cache (a snapshot always holds its Job)",
}
"""Inputs a snapshot cannot carry, and why: the cases that have one are left out."""


def exclusion(case: dict) -> str | None:
    """Why a case cannot be a snapshot (None when it can)."""
    for key, why in MEMORY_KEYS.items():
        if key in case["input"]:
            return why
    return None


def _uid(old: str) -> str:
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"k8sjobs-case/{old}"))


def _swap(doc: Any, uids: dict[str, str]) -> Any:
    if isinstance(doc, dict):
        return {k: _swap(v, uids) for k, v in doc.items()}
    if isinstance(doc, list):
        return [_swap(v, uids) for v in doc]
    if isinstance(doc, str) and doc in uids:
        return uids[doc]
    return doc


def _managed(manager: str, operation: str, t: str, subresource: str = "") -> dict:
    entry = {"apiVersion": "v1", "fieldsType": "FieldsV1", "fieldsV1": {"f:metadata": {"f:labels": {}}},
             "manager": manager, "operation": operation, "time": t}
    if subresource:
        entry["subresource"] = subresource
    return entry


def case_to_list(case: dict) -> dict:
    """The List document of one case (see the module docstring)."""
    inp = case["input"]
    job = _build.ensure_selector(default_case_job(_build.job_from_case(inp["job"], NOW)))
    pods = [_build.pod_from_case(p, job, NOW) for p in inp.get("pods") or []]
    uids = {job.metadata.uid: _uid(job.metadata.uid)}
    uids.update({p.metadata.uid: _uid(p.metadata.uid) for p in pods})

    jdoc = to_dict(job)
    jmeta = jdoc["metadata"]
    jmeta.setdefault("creationTimestamp", format_time(CREATED))
    jmeta["resourceVersion"] = "7340041"
    jmeta["generation"] = 1
    jmeta["managedFields"] = [_managed("kubectl-client-side-apply", "Update", jmeta["creationTimestamp"]),
                              _managed("kube-controller-manager", "Update", NOW_TEXT, "status")]
    if "deletionTimestamp" in jmeta:
        # A Job being deleted is still there only while a finalizer holds it (kubectl delete
        # --cascade=foreground): otherwise it would be gone, not in a snapshot.
        jmeta["finalizers"] = ["foregroundDeletion"]
    status = jdoc.setdefault("status", {})
    if job.spec.suspend and "startTime" not in status and pods and all(
            p.status.phase in ("Succeeded", "Failed") for p in pods):
        # Its pods ran and finished, so the Job was started before it was suspended (and
        # suspending keeps the start time); a real API server refuses to finish a Job without
        # one (status.startTime: Required value). Upstream's fake client does not validate, so
        # sync-119 leaves it out. The controller reads it only for activeDeadlineSeconds, which
        # a suspended Job does not count.
        status["startTime"] = format_time(CREATED)
    jdoc["spec"]["template"]["metadata"]["creationTimestamp"] = None
    tspec = jdoc["spec"]["template"]["spec"]
    tspec.update({"dnsPolicy": "ClusterFirst", "schedulerName": "default-scheduler", "securityContext": {},
                  "terminationGracePeriodSeconds": 30})
    for c in tspec.get("containers") or []:
        c.update({"imagePullPolicy": "IfNotPresent", "resources": {},
                  "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File"})

    items = [jdoc]
    for i, pod in enumerate(pods):
        doc = to_dict(pod)
        meta = doc["metadata"]
        created = meta.setdefault("creationTimestamp", format_time(CREATED + i))
        meta["generateName"] = f"{job.metadata.name}-"
        meta["resourceVersion"] = str(7340100 + i)
        meta["managedFields"] = [_managed("kube-controller-manager", "Update", created),
                                 _managed("kubelet", "Update", NOW_TEXT, "status")]
        if "deletionTimestamp" in meta and not meta.get("finalizers"):
            # Without a finalizer a pod deleted with no grace period is gone at once: one a
            # snapshot shows is still within its grace period (the same finish time).
            when = pod.metadata.deletion_timestamp + 30
            meta.update(deletionTimestamp=format_time(when), deletionGracePeriodSeconds=30)
        spec = doc.setdefault("spec", {})
        phase = doc.get("status", {}).get("phase", "Pending")
        if phase != "Pending":
            spec["nodeName"] = f"ip-10-0-{i % 4}-{10 + i % 7}.ec2.internal"
        spec.update({"serviceAccountName": "default", "serviceAccount": "default", "enableServiceLinks": True,
                     "priority": 0, "preemptionPolicy": "PreemptLowerPriority",
                     "tolerations": [{"effect": "NoExecute", "key": "node.kubernetes.io/not-ready",
                                      "operator": "Exists", "tolerationSeconds": 300}],
                     "volumes": [{"name": "kube-api-access-x", "projected": {"defaultMode": 420, "sources": [
                         {"serviceAccountToken": {"expirationSeconds": 3607, "path": "token"}}]}}]})
        status = doc.setdefault("status", {})
        status["qosClass"] = "BestEffort"
        status["observedGeneration"] = 1  # a field of a newer Kubernetes than the model's
        if phase != "Pending":
            status.update({"hostIP": "10.0.1.23", "hostIPs": [{"ip": "10.0.1.23"}], "podIP": f"10.244.1.{i % 250}",
                           "podIPs": [{"ip": f"10.244.1.{i % 250}"}], "startTime": created})
        for cond in status.get("conditions") or []:
            cond.setdefault("lastTransitionTime", created)
            cond.setdefault("lastProbeTime", None)
        for cs in status.get("containerStatuses") or []:
            cs.update({"containerID": f"containerd://{i:064x}", "imageID": "docker.io/library/busybox@sha256:"
                       + "ab" * 32, "image": "docker.io/library/busybox:1.36"})
        items.append(doc)
    return {"apiVersion": "v1", "kind": "List", "items": _swap(items, uids), "metadata": {"resourceVersion": ""}}


def case_to_yaml(case: dict) -> str:
    """The List as ``kubectl get -o yaml`` prints it; a case without pods adds the empty list that
    ``kubectl get pods -l ...`` prints when it finds none (else explain takes the pods as not shown)."""
    listed = case_to_list(case)
    text = yaml.safe_dump(listed, sort_keys=True)
    if not any(item.get("kind") == "Pod" for item in listed["items"]):
        text += "---\n" + yaml.safe_dump({"apiVersion": "v1", "items": [], "kind": "List",
                                          "metadata": {"resourceVersion": ""}}, sort_keys=True)
    return text


def as_conformance_actual(answer: dict) -> dict:
    """``explain --format json`` in the shape of a ``sync`` case's expect."""
    sync = answer["sync"]
    st = sync["status"]
    unc = st.get("uncountedTerminatedPods") or {}
    return {
        "creations": sync["creations"],
        "deletions": len(sync["deletions"]),
        "createdIndexes": sync["createdIndexes"],
        "finalizerRemovals": sync["finalizerRemovals"],
        "status": {
            "active": st["active"], "ready": st["ready"] or 0, "succeeded": st["succeeded"], "failed": st["failed"],
            "terminating": st["terminating"] or 0, "completedIndexes": st["completedIndexes"],
            "failedIndexes": st["failedIndexes"], "uncountedSucceeded": len(unc.get("succeeded") or []),
            "uncountedFailed": len(unc.get("failed") or []), "startTimeSet": st.get("startTime") is not None,
        },
        "conditions": [{k: c[k] for k in ("type", "status", "reason", "message")} for c in sync["conditions"]],
        "error": sync["error"] is not None,
        "requeue": sync["error"] is not None or sync["requeueAfter"] is not None,
    }


CHECKED = ("creations", "deletions", "createdIndexes", "finalizerRemovals", "status", "conditions",
           "conditionCount", "conditionTypeCounts", "conditionsContain", "error", "requeue")
"""What the snapshot test checks of a case's expect: the sync's writes, its status and conditions, and
whether it failed or asked to run again (only the events are left: explain reports them as decisions)."""
