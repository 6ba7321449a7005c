"""API-server validation of Jobs: create, update and status writes (k8sjobs.api.validation).

Create and update cases go through the ``validation`` conformance runner (strict decoding,
defaulting, selector generation, ValidateJob / the strategy's update validation), so they
check exactly what the public and held-out cases check, plus the message text. Status
writes go through :func:`k8sjobs.api.admission.admit_job_status_update`.
"""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any

import pytest

from k8sjobs.api import admission, validation
from k8sjobs.api.errors import InvalidError
from k8sjobs.api.indexes import validate_indexes_format
from k8sjobs.api.serialize import from_dict
from k8sjobs.api.types import Job, JobCondition, JobStatus, UncountedTerminatedPods
from k8sjobs.conformance.validation import run_case

UID = "00000000-0000-4000-8000-000000000001"


def manifest(spec: dict[str, Any] | None = None, pod: dict[str, Any] | None = None,
             meta: dict[str, Any] | None = None, template_meta: dict[str, Any] | None = None) -> dict[str, Any]:
    pod_spec = {"restartPolicy": "Never", "containers": [{"name": "ctr", "image": "img"}]}
    pod_spec.update(pod or {})
    template: dict[str, Any] = {"spec": pod_spec}
    if template_meta is not None:
        template["metadata"] = template_meta
    return {
        "apiVersion": "batch/v1", "kind": "Job",
        "metadata": {"name": "myjob", "namespace": "default", **(meta or {})},
        "spec": {"template": template, **(spec or {})},
    }


def create(doc: dict[str, Any]) -> dict[str, Any]:
    return run_case({"operation": "create", "job": doc})


def update(old: dict[str, Any], new: dict[str, Any], old_status: dict[str, Any] | None = None) -> dict[str, Any]:
    old = copy.deepcopy(old)
    if old_status is not None:
        old["status"] = old_status
    return run_case({"operation": "update", "job": new, "oldJob": old})


INDEXED = {"completionMode": "Indexed", "completions": 5, "parallelism": 2}
PFP = {"rules": [{"action": "FailJob", "onExitCodes": {"operator": "In", "values": [42]}}]}


# ----------------------------------------------------------------------------- create


CREATE_CASES = [
    # spec
    ("negative completions are rejected naming spec.completions", manifest({"completions": -1}),
     ["spec.completions"], "spec.completions: Invalid value: -1: must be greater than or equal to 0"),
    ("negative ttlSecondsAfterFinished is rejected", manifest({"ttlSecondsAfterFinished": -5}),
     ["spec.ttlSecondsAfterFinished"], "must be greater than or equal to 0"),
    ("ttlSecondsAfterFinished 0 is accepted", manifest({"ttlSecondsAfterFinished": 0}), [], None),
    ("an empty managedBy is required to be a path", manifest({"managedBy": ""}), ["spec.managedBy"],
     "spec.managedBy: Required value"),
    ("a managedBy with an invalid domain is rejected", manifest({"managedBy": "Example_com/x"}), ["spec.managedBy"],
     'spec.managedBy: Invalid value: "Example_com"'),
    ("Indexed parallelism above 100000 is rejected",
     manifest({"completionMode": "Indexed", "completions": 5, "parallelism": 100001}), ["spec.parallelism"],
     "must be less than or equal to 100000 when completion mode is Indexed"),
    ("maxFailedIndexes without backoffLimitPerIndex requires backoffLimitPerIndex",
     manifest({**INDEXED, "maxFailedIndexes": 1}), ["spec.backoffLimitPerIndex"],
     "spec.backoffLimitPerIndex: Required value: when maxFailedIndexes is specified"),
    ("above 100000 completions backoffLimitPerIndex needs maxFailedIndexes",
     manifest({"completionMode": "Indexed", "completions": 100001, "parallelism": 1, "backoffLimitPerIndex": 1}),
     ["spec.maxFailedIndexes"], "spec.maxFailedIndexes: Required value: must be specified when completions is above 100000"),
    ("an Indexed Job whose last pod hostname has a dot is rejected naming metadata.name",
     manifest(INDEXED, meta={"name": "a.b"}), ["metadata.name"],
     'metadata.name: Invalid value: "a.b": will not able to create pod with invalid DNS label: a.b-4'),
    ("an Indexed Job with 0 completions skips the hostname check",
     manifest({"completionMode": "Indexed", "completions": 0, "parallelism": 0}, meta={"name": "a.b"}), [], None),
    # pod failure policy
    ("a rule without an action requires one",
     manifest({"podFailurePolicy": {"rules": [{"onExitCodes": {"operator": "In", "values": [1]}}]}}),
     ["spec.podFailurePolicy.rules[0].action"],
     'spec.podFailurePolicy.rules[0].action: Required value: valid values: ["Count" "FailIndex" "FailJob" "Ignore"]'),
    ("an onExitCodes without an operator requires one",
     manifest({"podFailurePolicy": {"rules": [{"action": "FailJob", "onExitCodes": {"values": [1]}}]}}),
     ["spec.podFailurePolicy.rules[0].onExitCodes.operator"], 'Required value: valid values: ["In" "NotIn"]'),
    ("an onExitCodes without values is rejected",
     manifest({"podFailurePolicy": {"rules": [{"action": "FailJob", "onExitCodes": {"operator": "In", "values": []}}]}}),
     ["spec.podFailurePolicy.rules[0].onExitCodes.values"],
     "onExitCodes.values: Invalid value: []int32{}: at least one value is required"),
    ("unordered exit codes are rejected",
     manifest({"podFailurePolicy": {"rules": [{"action": "Count", "onExitCodes": {"operator": "NotIn", "values": [3, 1]}}]}}),
     ["spec.podFailurePolicy.rules[0].onExitCodes.values"], "Invalid value: []int32{3, 1}: must be ordered"),
    ("an unknown onPodConditions status is not supported",
     manifest({"podFailurePolicy": {"rules": [{"action": "Ignore",
                                               "onPodConditions": [{"type": "DisruptionTarget", "status": "Maybe"}]}]}}),
     ["spec.podFailurePolicy.rules[0].onPodConditions[0].status"],
     'Unsupported value: "Maybe": supported values: "False", "True", "Unknown"'),
    ("21 pod failure policy rules are too many",
     manifest({"podFailurePolicy": {"rules": [PFP["rules"][0]] * 21}}), ["spec.podFailurePolicy.rules"],
     "spec.podFailurePolicy.rules: Too many: 21: must have at most 20 items"),
    ("TerminatingOrFailed with a pod failure policy is not supported",
     manifest({"podFailurePolicy": PFP, "podReplacementPolicy": "TerminatingOrFailed"}), ["spec.podReplacementPolicy"],
     'spec.podReplacementPolicy: Unsupported value: "TerminatingOrFailed": supported values: "Failed"'),
    ("a pod failure policy with restartPolicy Never and defaults is accepted", manifest({"podFailurePolicy": PFP}), [], None),
    # success policy
    ("a success policy on a NonIndexed Job requires indexed completion mode",
     manifest({"successPolicy": {"rules": [{"succeededCount": 1}]}}), ["spec.successPolicy"],
     'spec.successPolicy: Invalid value: {"rules":[{"succeededCount":1}]}: requires indexed completion mode'),
    ("a success rule with neither field requires one",
     manifest({**INDEXED, "successPolicy": {"rules": [{}]}}), ["spec.successPolicy.rules[0]"],
     "spec.successPolicy.rules[0]: Required value: at least one of succeededCount or succeededIndexes must be specified"),
    ("succeededCount above the number of succeededIndexes is rejected",
     manifest({**INDEXED, "successPolicy": {"rules": [{"succeededIndexes": "0,2", "succeededCount": 3}]}}),
     ["spec.successPolicy.rules[0].succeededCount"],
     "must be less than or equal to 2 (the number of indexes in the specified succeededIndexes field)"),
    ("a bad succeededIndexes with a count reports both fields",
     manifest({**INDEXED, "successPolicy": {"rules": [{"succeededIndexes": "x", "succeededCount": 1}]}}),
     ["spec.successPolicy.rules[0].succeededCount", "spec.successPolicy.rules[0].succeededIndexes"], None),
    ("succeededIndexes longer than 64 KiB is too long",
     manifest({"completionMode": "Indexed", "completions": 100000, "parallelism": 1,
               "successPolicy": {"rules": [{"succeededIndexes": ",".join(str(i) for i in range(0, 30000, 2))}]}}),
     ["spec.successPolicy.rules[0].succeededIndexes"],
     "spec.successPolicy.rules[0].succeededIndexes: Too long: may not be more than 65536 bytes"),
    # selector and labels
    ("a selector given without manualSelector is not auto-generated",
     manifest({"selector": {"matchLabels": {"app": "x"}}}, template_meta={"labels": {"app": "x"}}), ["spec.selector"],
     "`selector` not auto-generated"),
    ("a wrong controller-uid template label is rejected at its key",
     manifest(template_meta={"labels": {"controller-uid": "other"}}), ["spec.template.metadata.labels[controller-uid]"],
     "spec.template.metadata.labels[controller-uid]: Invalid value: map[string]string{"),
    ("a manual selector that does not match the template labels is rejected",
     manifest({"manualSelector": True, "selector": {"matchLabels": {"app": "y"}}}, template_meta={"labels": {"app": "x"}}),
     ["spec.template.metadata.labels"], "`selector` does not match template `labels`"),
    ("a manual selector with a bad operator is rejected",
     manifest({"manualSelector": True, "selector": {"matchExpressions": [{"key": "app", "operator": "Has"}]}},
              template_meta={"labels": {"app": "x"}}),
     ["spec.selector.matchExpressions[0].operator"], 'Invalid value: "Has": not a valid selector operator'),
    ("a bad template label key is reported at spec.template.labels and again on the Job labels it defaults",
     manifest(template_meta={"labels": {"bad key": "x"}}), ["metadata.labels", "spec.template.labels"],
     'spec.template.labels: Invalid value: "bad key"'),
    ("a bad Job label value is rejected", manifest(meta={"labels": {"app": "-x"}}), ["metadata.labels"],
     'metadata.labels: Invalid value: "-x": a valid label must be an empty string'),
    ("an invalid namespace is rejected", manifest(meta={"namespace": "Team_A"}), ["metadata.namespace"],
     "a lowercase RFC 1123 label must consist of"),
    ("an unqualified non-standard finalizer is rejected", manifest(meta={"finalizers": ["cleanup"]}),
     ["metadata.finalizers[0]"], "name is neither a standard finalizer name nor is it fully qualified"),
    ("a generateName alone is enough", manifest(meta={"name": None, "generateName": "pi-"}), [], None),
    ("neither name nor generateName is rejected", manifest(meta={"name": None}), ["metadata.name"],
     "metadata.name: Required value: name or generateName is required"),
    # pod template
    ("a template without containers is rejected", manifest(pod={"containers": []}),
     ["spec.template.spec.containers"], "spec.template.spec.containers: Required value"),
    ("a container without an image is rejected", manifest(pod={"containers": [{"name": "c"}]}),
     ["spec.template.spec.containers[0].image"], "spec.template.spec.containers[0].image: Required value"),
    ("a container name that is not a DNS label is rejected", manifest(pod={"containers": [{"name": "My_C", "image": "i"}]}),
     ["spec.template.spec.containers[0].name"], "a lowercase RFC 1123 label must consist of"),
    ("an init container may not reuse a container name",
     manifest(pod={"initContainers": [{"name": "ctr", "image": "i"}]}), ["spec.template.spec.initContainers[0].name"],
     'spec.template.spec.initContainers[0].name: Duplicate value: "ctr"'),
    ("an unknown imagePullPolicy is not supported",
     manifest(pod={"containers": [{"name": "c", "image": "i", "imagePullPolicy": "Sometimes"}]}),
     ["spec.template.spec.containers[0].imagePullPolicy"],
     'Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"'),
    ("an unknown pod restartPolicy is reported by the pod and the Job rules",
     manifest(pod={"restartPolicy": "Sometimes"}), ["spec.template.spec.restartPolicy"],
     'spec.template.spec.restartPolicy: Unsupported value: "Sometimes": supported values: "OnFailure", "Never"'),
    ("restartPolicy Always is rejected for a Job", manifest(pod={"restartPolicy": "Always"}),
     ["spec.template.spec.restartPolicy"], 'Required value: valid values: "OnFailure", "Never"'),
    ("an env var with both value and valueFrom is rejected",
     manifest(pod={"containers": [{"name": "c", "image": "i", "env": [
         {"name": "A", "value": "x", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}}]}]}),
     ["spec.template.spec.containers[0].env[0].valueFrom"], "may not be specified when `value` is not empty"),
    ("a downward API env var on an unsupported field is not supported",
     manifest(pod={"containers": [{"name": "c", "image": "i", "env": [
         {"name": "A", "valueFrom": {"fieldRef": {"fieldPath": "status.phase"}}}]}]}),
     ["spec.template.spec.containers[0].env[0].valueFrom.fieldRef.fieldPath"], 'Unsupported value: "status.phase"'),
    ("the completion-index label is a valid env source",
     manifest(pod={"containers": [{"name": "c", "image": "i", "env": [{"name": "I", "valueFrom": {"fieldRef": {
         "fieldPath": "metadata.labels['batch.kubernetes.io/job-completion-index']"}}}]}]}), [], None),
    ("a volume mount of an unknown volume is not found",
     manifest(pod={"containers": [{"name": "c", "image": "i", "volumeMounts": [{"name": "data", "mountPath": "/d"}]}]}),
     ["spec.template.spec.containers[0].volumeMounts[0].name"], 'Not found: "data"'),
    ("two volumes with one name are duplicates",
     manifest(pod={"volumes": [{"name": "v", "emptyDir": {}}, {"name": "v", "emptyDir": {}}]}),
     ["spec.template.spec.volumes[1].name"], 'Duplicate value: "v"'),
    ("a volume with two sources is rejected",
     manifest(pod={"volumes": [{"name": "v", "emptyDir": {}, "configMap": {"name": "c"}}]}),
     ["spec.template.spec.volumes[0].configMap"], "may not specify more than 1 volume type"),
    ("a secret volume needs a secretName", manifest(pod={"volumes": [{"name": "v", "secret": {}}]}),
     ["spec.template.spec.volumes[0].secret.secretName"], "Required value"),
    ("requests above limits are rejected",
     manifest(pod={"containers": [{"name": "c", "image": "i", "resources": {
         "requests": {"memory": "2Gi"}, "limits": {"memory": "1024Mi"}}}]}),
     ["spec.template.spec.containers[0].resources.requests"],
     'Invalid value: "2Gi": must be less than or equal to memory limit of 1Gi'),
    ("an unknown single-word resource is rejected",
     manifest(pod={"containers": [{"name": "c", "image": "i", "resources": {"limits": {"gpu": "1"}}}]}),
     ["spec.template.spec.containers[0].resources.limits[gpu]"], "must be a standard resource type or fully qualified"),
    ("an extended resource request needs an equal limit",
     manifest(pod={"containers": [{"name": "c", "image": "i", "resources": {"requests": {"example.com/gpu": "1"}}}]}),
     ["spec.template.spec.containers[0].resources.limits"], "Limit must be set for non overcommitable resources"),
    ("a liveness probe must have successThreshold 1",
     manifest(pod={"containers": [{"name": "c", "image": "i", "livenessProbe": {
         "exec": {"command": ["true"]}, "successThreshold": 2}}]}),
     ["spec.template.spec.containers[0].livenessProbe.successThreshold"], "Invalid value: 2: must be 1"),
    ("a probe needs a handler",
     manifest(pod={"containers": [{"name": "c", "image": "i", "readinessProbe": {"periodSeconds": 5}}]}),
     ["spec.template.spec.containers[0].readinessProbe"], "Required value: must specify a handler type"),
    ("a plain init container may not have a readiness probe",
     manifest(pod={"initContainers": [{"name": "init", "image": "i", "readinessProbe": {"exec": {"command": ["x"]}}}]}),
     ["spec.template.spec.initContainers[0].readinessProbe"],
     "Forbidden: may not be set for init containers without restartPolicy=Always"),
    ("a sidecar init container may have a readiness probe",
     manifest(pod={"initContainers": [{"name": "log", "image": "i", "restartPolicy": "Always",
                                       "readinessProbe": {"exec": {"command": ["x"]}}}]}), [], None),
    ("a pod activeDeadlineSeconds of 0 is rejected", manifest(pod={"activeDeadlineSeconds": 0}),
     ["spec.template.spec.activeDeadlineSeconds"], "must be between 1 and 2147483647, inclusive"),
    ("a non-integer pod-deletion-cost annotation is rejected",
     manifest(template_meta={"annotations": {"controller.kubernetes.io/pod-deletion-cost": "cheap"}}),
     ["spec.template.annotations[controller.kubernetes.io/pod-deletion-cost]"], "must be a 32bit integer"),
    ("ephemeral containers are forbidden in a template",
     manifest(pod={"ephemeralContainers": [{"name": "dbg", "image": "i"}]}), ["spec.template.spec.ephemeralContainers"],
     "ephemeral containers not allowed in pod template"),
    ("a toleration with operator Exists must have no value",
     manifest(pod={"tolerations": [{"key": "k", "operator": "Exists", "value": "v"}]}),
     ["spec.template.spec.tolerations[0].operator"], "value must be empty when `operator` is 'Exists'"),
    ("a required node affinity needs at least one term",
     manifest(pod={"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
         "nodeSelectorTerms": []}}}}),
     ["spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms"],
     "must have at least one node selector term"),
    ("duplicate scheduling gates are rejected",
     manifest(pod={"schedulingGates": [{"name": "example.com/gate"}, {"name": "example.com/gate"}]}),
     ["spec.template.spec.schedulingGates[1]"], 'Duplicate value: "example.com/gate"'),
    ("two containers on one host port conflict",
     manifest(pod={"containers": [{"name": "a", "image": "i", "ports": [{"containerPort": 80, "hostPort": 8080}]},
                                  {"name": "b", "image": "i", "ports": [{"containerPort": 81, "hostPort": 8080}]}]}),
     ["spec.template.spec.containers[1].ports[0].hostPort"], 'Duplicate value: "TCP//8080"'),
    ("a negative runAsUser is rejected", manifest(pod={"securityContext": {"runAsUser": -1}}),
     ["spec.template.spec.securityContext.runAsUser"], "must be between 0 and 2147483647, inclusive"),
    ("privileged without privilege escalation is a contradiction",
     manifest(pod={"containers": [{"name": "c", "image": "i", "securityContext": {
         "privileged": True, "allowPrivilegeEscalation": False}}]}),
     ["spec.template.spec.containers[0].securityContext"],
     "cannot set `allowPrivilegeEscalation` to false and `privileged` to true"),
    ("a topology spread constraint needs a positive skew",
     manifest(pod={"topologySpreadConstraints": [{"maxSkew": 0, "topologyKey": "zone",
                                                  "whenUnsatisfiable": "DoNotSchedule"}]}),
     ["spec.template.spec.topologySpreadConstraints[0].maxSkew"], "must be greater than zero"),
    ("a realistic template with probes volumes env and resources is accepted",
     manifest(pod={"volumes": [{"name": "work"}, {"name": "cfg", "configMap": {"name": "cfg"}}],
                   "containers": [{"name": "main", "image": "busybox:1.36", "command": ["sh", "-c", "echo hi"],
                                   "env": [{"name": "POD", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}}],
                                   "envFrom": [{"configMapRef": {"name": "cfg"}}],
                                   "ports": [{"name": "http", "containerPort": 8080}],
                                   "resources": {"requests": {"cpu": "100m", "memory": "64Mi"},
                                                 "limits": {"cpu": 1, "memory": "128Mi"}},
                                   "readinessProbe": {"httpGet": {"port": "http"}},
                                   "volumeMounts": [{"name": "work", "mountPath": "/work"},
                                                    {"name": "cfg", "mountPath": "/cfg", "readOnly": True}]}],
                   "tolerations": [{"key": "dedicated", "operator": "Equal", "value": "batch", "effect": "NoSchedule"}],
                   "nodeSelector": {"kubernetes.io/os": "linux"}}), [], None),
]


@pytest.mark.parametrize(("doc", "fields", "message"), [pytest.param(d, f, m, id=i) for i, d, f, m in CREATE_CASES])
def test_create(doc: dict[str, Any], fields: list[str], message: str | None) -> None:
    if doc["metadata"].get("name") is None:
        doc["metadata"].pop("name", None)
    result = create(doc)
    assert result["fields"] == sorted(fields), result["errors"]
    assert result["valid"] is (not fields)
    if message is not None:
        assert any(message in e for e in result["errors"]), result["errors"]


# ----------------------------------------------------------------------------- update

BASE = manifest({"completions": 5, "parallelism": 2})
SUSPENDED = manifest({"completions": 5, "parallelism": 2, "suspend": True})
STARTED = {"startTime": "2026-01-01T00:00:00Z"}


def with_spec(doc: dict[str, Any], **changes: Any) -> dict[str, Any]:
    out = copy.deepcopy(doc)
    out["spec"].update(changes)
    return out


def with_pod(doc: dict[str, Any], **changes: Any) -> dict[str, Any]:
    out = copy.deepcopy(doc)
    out["spec"]["template"]["spec"].update(changes)
    return out


UPDATE_CASES = [
    ("changing backoffLimit is allowed", BASE, with_spec(BASE, backoffLimit=2), STARTED, []),
    ("changing activeDeadlineSeconds is allowed", BASE, with_spec(BASE, activeDeadlineSeconds=60), STARTED, []),
    ("changing podReplacementPolicy without a pod failure policy is allowed",
     BASE, with_spec(BASE, podReplacementPolicy="Failed"), STARTED, []),
    ("changing completionMode is rejected", BASE, with_spec(BASE, completionMode="Indexed"), STARTED,
     ["spec.completionMode"]),
    ("changing the success policy is rejected",
     manifest({**INDEXED, "successPolicy": {"rules": [{"succeededCount": 1}]}}),
     manifest({**INDEXED, "successPolicy": {"rules": [{"succeededCount": 2}]}}), STARTED, ["spec.successPolicy"]),
    ("changing a manual selector is rejected along with the template",
     manifest({"manualSelector": True, "selector": {"matchLabels": {"app": "x"}}}, template_meta={"labels": {"app": "x"}}),
     manifest({"manualSelector": True, "selector": {"matchLabels": {"app": "y"}}}, template_meta={"labels": {"app": "y"}}),
     STARTED, ["spec.selector", "spec.template"]),
    ("resubmitting TerminatingOrFailed with a pod failure policy is rejected",
     manifest({"podFailurePolicy": PFP}), manifest({"podFailurePolicy": PFP, "podReplacementPolicy": "TerminatingOrFailed"}),
     STARTED, ["spec.podReplacementPolicy"]),
    ("scaling an Indexed Job down with parallelism is allowed",
     manifest({"completionMode": "Indexed", "completions": 5, "parallelism": 5}),
     manifest({"completionMode": "Indexed", "completions": 3, "parallelism": 3}), STARTED, []),
    ("a suspended never-started Job may change node affinity",
     SUSPENDED, with_pod(SUSPENDED, affinity={"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
         "nodeSelectorTerms": [{"matchExpressions": [{"key": "zone", "operator": "In", "values": ["a"]}]}]}}}), None, []),
    ("a suspended never-started Job may not add pod affinity",
     SUSPENDED, with_pod(SUSPENDED, affinity={"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
         {"topologyKey": "zone", "labelSelector": {"matchLabels": {"a": "b"}}}]}}), None, ["spec.template"]),
    ("a suspended never-started Job may change scheduling gates",
     SUSPENDED, with_pod(SUSPENDED, schedulingGates=[{"name": "example.com/wait"}]), None, []),
    ("a suspended never-started Job may change template labels",
     SUSPENDED, {**copy.deepcopy(SUSPENDED), "spec": {**copy.deepcopy(SUSPENDED["spec"]), "template": {
         **copy.deepcopy(SUSPENDED["spec"]["template"]), "metadata": {"labels": {"team": "a"}}}}}, None, []),
    ("a suspended never-started Job may not change its image",
     SUSPENDED, with_pod(SUSPENDED, containers=[{"name": "ctr", "image": "img:2"}]), None, ["spec.template"]),
    ("a running Job may not change tolerations",
     BASE, with_pod(BASE, tolerations=[{"operator": "Exists"}]), STARTED, ["spec.template"]),
    ("an update still runs the create rules", BASE, with_spec(BASE, parallelism=-1), STARTED, ["spec.parallelism"]),
]


@pytest.mark.parametrize(("old", "new", "old_status", "fields"),
                         [pytest.param(o, n, s, f, id=i) for i, o, n, s, f in UPDATE_CASES])
def test_update(old: dict, new: dict, old_status: dict | None, fields: list[str]) -> None:
    result = update(old, new, old_status)
    assert result["fields"] == sorted(fields), result["errors"]


def test_an_update_error_is_reported_once() -> None:
    result = update(BASE, with_spec(BASE, parallelism=-1), STARTED)
    assert result["errors"] == ["spec.parallelism: Invalid value: -1: must be greater than or equal to 0"]


def test_the_immutable_completions_message_shows_the_new_value() -> None:
    result = update(BASE, with_spec(BASE, completions=6), STARTED)
    assert result["errors"] == ["spec.completions: Invalid value: 6: field is immutable"]


# ----------------------------------------------------------------------------- admission and metadata


def stored_job(spec: dict[str, Any] | None = None) -> Job:
    job = from_dict(Job, manifest(spec))
    job = replace(job, metadata=replace(job.metadata, uid=UID, resource_version="5"))
    return admission.admit_job_create(job)


def test_admit_job_create_defaults_generates_and_validates() -> None:
    job = stored_job()
    assert job.spec.selector.match_labels == {"batch.kubernetes.io/controller-uid": UID}
    assert job.spec.backoff_limit == 6
    assert job.metadata.generation == 1


def test_admit_job_create_raises_with_every_error_in_kubectl_words() -> None:
    job = from_dict(Job, manifest({"parallelism": -1, "completions": -1}))
    with pytest.raises(InvalidError) as info:
        admission.admit_job_create(replace(job, metadata=replace(job.metadata, uid=UID)))
    assert info.value.message() == (
        'The Job "myjob" is invalid: \n'
        "* spec.parallelism: Invalid value: -1: must be greater than or equal to 0\n"
        "* spec.completions: Invalid value: -1: must be greater than or equal to 0")


def test_a_create_without_a_uid_is_rejected_naming_metadata_uid() -> None:
    with pytest.raises(InvalidError) as info:
        admission.admit_job_create(from_dict(Job, manifest()))
    assert "metadata.uid" in info.value.fields


def test_admit_job_update_keeps_status_and_bumps_generation() -> None:
    job = replace(stored_job(), status=JobStatus(active=1))
    new = admission.admit_job_update(job, replace(job, spec=replace(job.spec, parallelism=3), status=JobStatus()))
    assert new.status == JobStatus(active=1)
    assert new.metadata.generation == 2


@pytest.mark.parametrize(("attr", "value", "field"), [
    pytest.param("uid", "other", "metadata.uid", id="changing the uid is rejected"),
    pytest.param("namespace", "other", "metadata.namespace", id="changing the namespace is rejected"),
    pytest.param("generation", 0, "metadata.generation", id="decrementing the generation is rejected"),
])
def test_object_meta_update_rules(attr: str, value: Any, field: str) -> None:
    job = replace(stored_job(), metadata=replace(stored_job().metadata, generation=3))
    new = replace(job, metadata=replace(job.metadata, **{attr: value}))
    assert field in {e.field for e in validation.validate_object_meta_update(new.metadata, job.metadata)}


def test_metadata_found_valid_before_is_still_checked_when_its_labels_change() -> None:
    # A status write of the stored metadata skips the checks of maps found valid just before (by identity);
    # any other labels are checked again, and a bad label is reported at every write that carries it.
    meta = stored_job().metadata
    assert validation.validate_object_meta_update(meta, meta) == []
    assert validation.validate_object_meta_update(meta, meta) == []
    bad = replace(meta, labels={**meta.labels, "bad key!": "x"})
    for _ in range(2):
        assert {e.field for e in validation.validate_object_meta_update(bad, bad)} == {"metadata.labels"}
    assert validation.validate_object_meta_update(meta, meta) == []


# ----------------------------------------------------------------------------- status writes


def cond(ctype: str, status: str = "True") -> JobCondition:
    return JobCondition(type=ctype, status=status, reason="r", message="m", last_transition_time=10.0)


RUNNING = JobStatus(start_time=0.0, active=2, ready=1, uncounted_terminated_pods=UncountedTerminatedPods())


def status_write(new: JobStatus, old: JobStatus = RUNNING, spec: dict[str, Any] | None = None) -> list[str]:
    job = replace(stored_job(spec), status=old)
    try:
        admission.admit_job_status_update(job, replace(job, status=new))
    except InvalidError as exc:
        return exc.fields
    return []


STATUS_CASES = [
    ("a normal progress write is accepted", replace(RUNNING, succeeded=1, active=1, ready=1), RUNNING, None, []),
    ("more ready than active pods is rejected naming status.ready", replace(RUNNING, ready=3), RUNNING, None,
     ["status.ready"]),
    ("a Failed condition without FailureTarget is rejected", replace(RUNNING, active=0, ready=0, conditions=(
        cond("Failed"),)), RUNNING, None, ["status.conditions"]),
    ("FailureTarget then Failed is accepted", replace(RUNNING, active=0, ready=0, failed=1, conditions=(
        cond("FailureTarget"), cond("Failed"))), RUNNING, None, []),
    ("a Complete condition without SuccessCriteriaMet is rejected", replace(RUNNING, active=0, ready=0, succeeded=5,
     completion_time=20.0, conditions=(cond("Complete"),)), RUNNING, None, ["status.conditions"]),
    ("SuccessCriteriaMet then Complete with a completion time is accepted", replace(
        RUNNING, active=0, ready=0, succeeded=5, completion_time=20.0,
        conditions=(cond("SuccessCriteriaMet"), cond("Complete"))), RUNNING, None, []),
    ("Complete without a completion time is rejected", replace(RUNNING, active=0, ready=0, succeeded=5, conditions=(
        cond("SuccessCriteriaMet"), cond("Complete"))), RUNNING, None, ["status.completionTime"]),
    ("a completion time without Complete is rejected", replace(RUNNING, completion_time=20.0), RUNNING, None,
     ["status.completionTime"]),
    ("a finished Job with active pods is rejected", replace(RUNNING, ready=0, conditions=(
        cond("FailureTarget"), cond("Failed"))), RUNNING, None, ["status.active"]),
    ("a finished Job with terminating pods is rejected", replace(RUNNING, active=0, ready=0, terminating=1, conditions=(
        cond("FailureTarget"), cond("Failed"))), RUNNING, None, ["status.terminating"]),
    ("a finished Job with uncounted pods is rejected", replace(RUNNING, active=0, ready=0, conditions=(
        cond("FailureTarget"), cond("Failed")), uncounted_terminated_pods=UncountedTerminatedPods(failed=("u1",))),
     RUNNING, None, ["status.uncountedTerminatedPods"]),
    ("a finished Job without a start time is rejected", replace(RUNNING, start_time=None, active=0, ready=0, conditions=(
        cond("FailureTarget"), cond("Failed"))), replace(RUNNING, start_time=None), None, ["status.startTime"]),
    ("the failed counter never decreases", replace(RUNNING, failed=1), replace(RUNNING, failed=2), None,
     ["status.failed"]),
    ("the succeeded counter does not decrease for a NonIndexed Job", replace(RUNNING, succeeded=1),
     replace(RUNNING, succeeded=2), None, ["status.succeeded"]),
    ("the succeeded counter may decrease for an Indexed Job with completions equal to parallelism",
     replace(RUNNING, succeeded=1, completed_indexes="0"), replace(RUNNING, succeeded=2, completed_indexes="0,1"),
     {"completionMode": "Indexed", "completions": 3, "parallelism": 3}, []),
    ("a malformed completedIndexes is rejected", replace(RUNNING, completed_indexes="3-1"), RUNNING,
     {"completionMode": "Indexed", "completions": 5, "parallelism": 2}, ["status.completedIndexes"]),
    ("completedIndexes on a NonIndexed Job is rejected", replace(RUNNING, completed_indexes="0"), RUNNING, None,
     ["status.completedIndexes"]),
    ("failedIndexes without backoffLimitPerIndex is rejected", replace(RUNNING, failed_indexes=""), RUNNING,
     {"completionMode": "Indexed", "completions": 5, "parallelism": 2}, ["status.failedIndexes"]),
    ("failedIndexes overlapping completedIndexes is rejected",
     replace(RUNNING, completed_indexes="0-2", failed_indexes="2"), RUNNING,
     {"completionMode": "Indexed", "completions": 5, "parallelism": 2, "backoffLimitPerIndex": 1},
     ["status.failedIndexes"]),
    ("a terminal condition cannot be disabled", RUNNING, replace(RUNNING, conditions=(cond("FailureTarget"),)), None,
     ["status.conditions"]),
    ("duplicate uncounted pod UIDs are rejected", replace(RUNNING, uncounted_terminated_pods=UncountedTerminatedPods(
        succeeded=("u1",), failed=("u1",))), RUNNING, None, ["status.uncountedTerminatedPods.failed[0]"]),
    ("changing the start time of a running Job is rejected", replace(RUNNING, start_time=50.0), RUNNING, None,
     ["status.startTime"]),
    ("resetting the start time when a suspended Job resumes is accepted",
     replace(RUNNING, start_time=50.0, conditions=(cond("Suspended", "False"),)),
     replace(RUNNING, active=0, ready=0, conditions=(cond("Suspended"),)), None, []),
    ("an already-wrong field that the write does not touch is not re-checked",
     replace(RUNNING, ready=3, succeeded=1), replace(RUNNING, ready=3), None, []),
]


@pytest.mark.parametrize(("new", "old", "spec", "fields"), [pytest.param(n, o, s, f, id=i) for i, n, o, s, f in STATUS_CASES])
def test_status_write(new: JobStatus, old: JobStatus, spec: dict | None, fields: list[str]) -> None:
    assert status_write(new, old, spec) == sorted(fields)


def test_a_status_write_keeps_the_stored_spec() -> None:
    job = replace(stored_job(), status=RUNNING)
    out = admission.admit_job_status_update(job, replace(job, spec=replace(job.spec, parallelism=9),
                                                         status=replace(RUNNING, succeeded=1)))
    assert out.spec.parallelism == job.spec.parallelism
    assert out.status.succeeded == 1


def test_the_ready_message_is_upstreams() -> None:
    job = replace(stored_job(), status=RUNNING)
    with pytest.raises(InvalidError) as info:
        admission.admit_job_status_update(job, replace(job, status=replace(RUNNING, ready=3)))
    assert str(info.value) == 'The Job "myjob" is invalid: status.ready: Invalid value: 3: cannot set more ready pods than active'


# ----------------------------------------------------------------------------- helpers


@pytest.mark.parametrize(("value", "expected"), [
    pytest.param("500m", "500m", id="millicores stay millicores"),
    pytest.param("0.5", "500m", id="a half becomes 500m"),
    pytest.param("1000m", "1", id="a thousand millicores become 1"),
    pytest.param("1000", "1k", id="a thousand becomes 1k"),
    pytest.param("1024Mi", "1Gi", id="1024Mi becomes 1Gi"),
    pytest.param("1.5Gi", "1536Mi", id="a fractional Gi becomes whole Mi"),
    pytest.param(2, "2", id="a JSON number is a quantity"),
])
def test_canonical_quantity(value: Any, expected: str) -> None:
    assert validation.canonical_quantity(value) == expected


@pytest.mark.parametrize(("selector", "labels", "expected"), [
    pytest.param(None, {"a": "b"}, False, id="a nil selector matches nothing"),
    pytest.param({}, {"a": "b"}, True, id="an empty selector matches everything"),
    pytest.param({"matchExpressions": [{"key": "a", "operator": "NotIn", "values": ["x"]}]}, {}, True,
                 id="NotIn matches a missing label"),
    pytest.param({"matchExpressions": [{"key": "a", "operator": "Bogus"}]}, {}, None,
                 id="a selector with a bad operator does not convert"),
])
def test_selector_matches(selector: dict | None, labels: dict, expected: bool | None) -> None:
    from k8sjobs.api.types import LabelSelector

    typed = None if selector is None else from_dict(LabelSelector, selector)
    assert validation.selector_matches(typed, labels) is expected


# validateIndexesFormat / parseIndexInterval: each fragment is read whole (both ends checked
# against completions, start before end) before its order in the list; Atoi reads 64 bits.
@pytest.mark.parametrize("text, answer", [
    ("", 0),
    ("0,2-4", 4),
    ("3000000000", 'too large index: "3000000000"'),
    ("99999999999999999999", 'cannot convert string to integer for index: "99999999999999999999"'),
    ("3,1-9", 'too large index: "9"'),
    ("2,1-1", "non-increasing order, previous: 1, current: 1"),
    ("1-2,2-9", 'too large index: "9"'),
    ("1-2,2-4", "non-increasing order, previous: 2, current: 2"),
    ("-1", 'cannot convert string to integer for index: ""'),
    ("1-2-3", "the fragment \"1-2-3\" violates the requirement that an index interval can have at most two "
              "parts separated by '-'"),
])
def test_an_index_list_is_read_fragment_by_fragment_as_upstream(text: str, answer: int | str) -> None:
    if isinstance(answer, int):
        assert validate_indexes_format(text, 5) == answer
    else:
        with pytest.raises(ValueError) as err:
            validate_indexes_format(text, 5)
        assert str(err.value) == answer


# validateFailedIndexesNotOverlapCompleted walks both lists at once as if each were in order.
@pytest.mark.parametrize("completed, failed, message", [
    ("0-2", "2", "failedIndexes and completedIndexes overlap at index: 2"),
    ("1,3-5", "0,2,4", "failedIndexes and completedIndexes overlap at index: 4"),
    ("0-1,5", "2-4", None),
    ("x,1", "1", "failedIndexes and completedIndexes overlap at index: 1"),  # a bad fragment is skipped
    ("3,0", "0", None),  # out of order: the walk passes 0 by (the format check reports the order)
    ("", "1", None),
])
def test_failed_and_completed_indexes_overlap_as_upstream_walks_them(completed: str, failed: str,
                                                                     message: str | None) -> None:
    assert validation._indexes_overlap(completed, failed, 10) == message
