"""API-server defaulting of Jobs and their pod templates, and the strategy's prepare steps."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from k8sjobs.api import defaults
from k8sjobs.api.serialize import from_dict, to_dict
from k8sjobs.api.types import MAX_INT32, Job, JobStatus

UID = "00000000-0000-4000-8000-000000000001"


def job(spec: dict[str, Any] | None = None, template_spec: dict[str, Any] | None = None,
        template_meta: dict[str, Any] | None = None, meta: dict[str, Any] | None = None) -> Job:
    pod = {"restartPolicy": "Never", "containers": [{"name": "ctr", "image": "img:1"}]}
    pod.update(template_spec or {})
    template: dict[str, Any] = {"spec": pod}
    if template_meta is not None:
        template["metadata"] = template_meta
    doc = {
        "apiVersion": "batch/v1", "kind": "Job",
        "metadata": {"name": "myjob", "namespace": "default", "uid": UID, **(meta or {})},
        "spec": {"template": template, **(spec or {})},
    }
    return from_dict(Job, doc)


def spec_of(j: Job) -> dict[str, Any]:
    return to_dict(defaults.set_defaults_job(j).spec)


@pytest.mark.parametrize(("spec", "expected"), [
    pytest.param({}, {"completions": 1, "parallelism": 1}, id="unset completions and parallelism both become 1"),
    pytest.param({"completions": 5}, {"completions": 5, "parallelism": 1}, id="unset parallelism becomes 1"),
    pytest.param({"parallelism": 3}, {"parallelism": 3}, id="unset completions stay unset for a work queue"),
    pytest.param({"parallelism": 0}, {"parallelism": 0}, id="parallelism 0 is kept"),
    pytest.param({}, {"backoffLimit": 6}, id="backoffLimit defaults to 6"),
    pytest.param({"completionMode": "Indexed", "completions": 3, "backoffLimitPerIndex": 1},
                 {"backoffLimit": MAX_INT32}, id="backoffLimit defaults to MaxInt32 with backoffLimitPerIndex"),
    pytest.param({"backoffLimit": 0}, {"backoffLimit": 0}, id="an explicit backoffLimit 0 is kept"),
    pytest.param({}, {"completionMode": "NonIndexed", "suspend": False, "manualSelector": False},
                 id="completionMode suspend and manualSelector get their defaults"),
    pytest.param({}, {"podReplacementPolicy": "TerminatingOrFailed"},
                 id="podReplacementPolicy defaults to TerminatingOrFailed without a pod failure policy"),
    pytest.param({"podFailurePolicy": {"rules": [{"action": "Ignore", "onPodConditions": [{"type": "DisruptionTarget"}]}]}},
                 {"podReplacementPolicy": "Failed",
                  "podFailurePolicy": {"rules": [{"action": "Ignore",
                                                  "onPodConditions": [{"type": "DisruptionTarget", "status": "True"}]}]}},
                 id="a pod failure policy makes podReplacementPolicy Failed and an empty condition status True"),
    pytest.param({"podReplacementPolicy": ""}, {"podReplacementPolicy": ""},
                 id="an explicit empty podReplacementPolicy is not defaulted"),
    pytest.param({"suspend": True, "manualSelector": True}, {"suspend": True, "manualSelector": True},
                 id="explicit suspend and manualSelector are kept"),
])
def test_set_defaults_job(spec: dict[str, Any], expected: dict[str, Any]) -> None:
    got = spec_of(job(spec))
    for key, value in expected.items():
        assert got[key] == value, key
    if "completions" not in expected and "completions" not in spec and spec.get("parallelism") is not None:
        assert "completions" not in got


def test_job_labels_default_to_the_template_labels_as_submitted() -> None:
    j = defaults.set_defaults_job(job(template_meta={"labels": {"app": "x"}}))
    assert j.metadata.labels == {"app": "x"}


def test_job_labels_are_not_replaced_when_the_job_has_some() -> None:
    j = defaults.set_defaults_job(job(template_meta={"labels": {"app": "x"}}, meta={"labels": {"team": "y"}}))
    assert j.metadata.labels == {"team": "y"}


@pytest.mark.parametrize(("template_spec", "path", "expected"), [
    pytest.param({"restartPolicy": None}, ("restartPolicy",), "Always",
                 id="an unset restartPolicy becomes Always (which Job validation rejects)"),
    pytest.param({}, ("dnsPolicy",), "ClusterFirst", id="dnsPolicy defaults to ClusterFirst"),
    pytest.param({}, ("terminationGracePeriodSeconds",), 30, id="terminationGracePeriodSeconds defaults to 30"),
    pytest.param({}, ("schedulerName",), "default-scheduler", id="schedulerName defaults to default-scheduler"),
    pytest.param({}, ("securityContext",), {}, id="securityContext defaults to an empty one"),
    pytest.param({}, ("containers", 0, "imagePullPolicy"), "IfNotPresent",
                 id="a tagged image is pulled IfNotPresent"),
    pytest.param({"containers": [{"name": "c", "image": "busybox"}]}, ("containers", 0, "imagePullPolicy"), "Always",
                 id="an untagged image is pulled Always"),
    pytest.param({"containers": [{"name": "c", "image": "busybox:latest"}]}, ("containers", 0, "imagePullPolicy"),
                 "Always", id="a latest image is pulled Always"),
    pytest.param({"containers": [{"name": "c", "image": "reg.io:5000/team/app@sha256:" + "a" * 64}]},
                 ("containers", 0, "imagePullPolicy"), "IfNotPresent", id="an image by digest is pulled IfNotPresent"),
    pytest.param({"containers": [{"name": "c", "image": "localhost:5000/app"}]}, ("containers", 0, "imagePullPolicy"),
                 "Always", id="a registry port is not mistaken for a tag"),
    pytest.param({}, ("containers", 0, "terminationMessagePath"), "/dev/termination-log",
                 id="terminationMessagePath defaults to /dev/termination-log"),
    pytest.param({}, ("containers", 0, "terminationMessagePolicy"), "File",
                 id="terminationMessagePolicy defaults to File"),
    pytest.param({"containers": [{"name": "c", "image": "i", "ports": [{"containerPort": 80}]}]},
                 ("containers", 0, "ports", 0, "protocol"), "TCP", id="a container port's protocol defaults to TCP"),
    pytest.param({"containers": [{"name": "c", "image": "i", "livenessProbe": {"httpGet": {"port": 80}}}]},
                 ("containers", 0, "livenessProbe"),
                 {"httpGet": {"port": 80, "path": "/", "scheme": "HTTP"}, "timeoutSeconds": 1, "periodSeconds": 10,
                  "successThreshold": 1, "failureThreshold": 3},
                 id="a probe gets its timing defaults and an httpGet path and scheme"),
    pytest.param({"containers": [{"name": "c", "image": "i",
                                  "env": [{"name": "N", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}}]}]},
                 ("containers", 0, "env", 0, "valueFrom", "fieldRef", "apiVersion"), "v1",
                 id="a fieldRef's apiVersion defaults to v1"),
    pytest.param({"volumes": [{"name": "scratch"}]}, ("volumes", 0), {"name": "scratch", "emptyDir": {}},
                 id="a volume without a source becomes an emptyDir"),
    pytest.param({"volumes": [{"name": "s", "secret": {"secretName": "x"}}]}, ("volumes", 0, "secret", "defaultMode"), 420,
                 id="secret volumes get mode 0644"),
    pytest.param({"volumes": [{"name": "c", "configMap": {"name": "x"}}]}, ("volumes", 0, "configMap", "defaultMode"), 420,
                 id="configMap volumes get mode 0644"),
    pytest.param({"initContainers": [{"name": "init", "image": "i"}]}, ("initContainers", 0, "imagePullPolicy"),
                 "Always", id="init containers get the container defaults too"),
])
def test_pod_template_defaults(template_spec: dict[str, Any], path: tuple, expected: Any) -> None:
    doc: Any = to_dict(defaults.set_defaults_job(job(template_spec=template_spec)).spec.template.spec)
    for step in path:
        doc = doc[step]
    assert doc == expected


def test_pod_only_defaults_are_not_applied_to_a_template() -> None:
    ctr = {"name": "c", "image": "i", "resources": {"limits": {"cpu": "1"}}}
    spec = to_dict(defaults.set_defaults_job(job(template_spec={"containers": [ctr]})).spec.template.spec)
    assert "requests" not in spec["containers"][0]["resources"]
    assert "enableServiceLinks" not in spec


def test_defaulting_twice_changes_nothing() -> None:
    once = defaults.set_defaults_job(job({"podFailurePolicy": {"rules": [{"action": "Count", "onExitCodes": {
        "operator": "In", "values": [1]}}]}}))
    assert defaults.set_defaults_job(once) == once


def test_prepare_for_create_generates_the_selector_and_four_template_labels() -> None:
    j = defaults.prepare_for_create(defaults.set_defaults_job(job(template_meta={"labels": {"app": "x"}})))
    assert j.spec.selector.match_labels == {"batch.kubernetes.io/controller-uid": UID}
    assert j.spec.template.metadata.labels == {
        "app": "x", "job-name": "myjob", "batch.kubernetes.io/job-name": "myjob",
        "controller-uid": UID, "batch.kubernetes.io/controller-uid": UID,
    }
    assert j.metadata.generation == 1
    assert j.status == JobStatus()


@pytest.mark.parametrize(("job_labels", "template_labels", "expected"), [
    pytest.param(None, None, {"job-name": "myjob", "batch.kubernetes.io/job-name": "myjob", "controller-uid": UID,
                              "batch.kubernetes.io/controller-uid": UID},
                 id="a Job without labels shows the generated template labels as kubectl describe does"),
    pytest.param(None, {"app": "x"}, {"app": "x", "job-name": "myjob", "batch.kubernetes.io/job-name": "myjob",
                                      "controller-uid": UID, "batch.kubernetes.io/controller-uid": UID},
                 id="a Job without labels gets the template labels including the generated ones"),
    pytest.param({"team": "a"}, {"app": "x"}, {"team": "a"}, id="a Job with labels keeps exactly its own"),
])
def test_job_labels_after_create(job_labels: dict | None, template_labels: dict | None, expected: dict) -> None:
    j = job(template_meta=None if template_labels is None else {"labels": template_labels},
            meta=None if job_labels is None else {"labels": job_labels})
    assert defaults.default_and_prepare_for_create(j).metadata.labels == expected


def test_prepare_for_create_keeps_template_labels_the_user_set() -> None:
    j = defaults.prepare_for_create(defaults.set_defaults_job(job(template_meta={"labels": {"job-name": "mine"}})))
    assert j.spec.template.metadata.labels["job-name"] == "mine"
    assert j.spec.template.metadata.labels["batch.kubernetes.io/job-name"] == "myjob"


def test_prepare_for_create_with_a_manual_selector_adds_nothing() -> None:
    j = defaults.prepare_for_create(defaults.set_defaults_job(job(
        {"manualSelector": True, "selector": {"matchLabels": {"app": "x"}}}, template_meta={"labels": {"app": "x"}})))
    assert j.spec.selector.match_labels == {"app": "x"}
    assert j.spec.template.metadata.labels == {"app": "x"}


def test_prepare_for_create_clears_a_submitted_status() -> None:
    j = replace(job(), status=JobStatus(active=3, succeeded=2))
    assert defaults.prepare_for_create(j).status == JobStatus()


def test_prepare_for_update_keeps_status_and_bumps_generation_only_on_spec_change() -> None:
    stored = replace(defaults.prepare_for_create(defaults.set_defaults_job(job())), status=JobStatus(active=1))
    stored = replace(stored, metadata=replace(stored.metadata, resource_version="7", generation=3))
    same = defaults.prepare_for_update(stored, replace(stored, status=JobStatus()))
    assert same.status == JobStatus(active=1)
    assert same.metadata.generation == 3
    changed = defaults.prepare_for_update(stored, replace(stored, spec=replace(stored.spec, parallelism=4)))
    assert changed.metadata.generation == 4
    assert changed.metadata.uid == UID and changed.metadata.resource_version == "7"


def test_prepare_for_status_update_keeps_the_stored_spec() -> None:
    stored = defaults.prepare_for_create(defaults.set_defaults_job(job()))
    new = defaults.prepare_for_status_update(stored, replace(stored, spec=replace(stored.spec, parallelism=9)))
    assert new.spec == stored.spec
