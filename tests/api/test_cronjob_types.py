"""The batch/v1 CronJob types dump to camelCase documents and load back equal."""

from __future__ import annotations

import pytest

from k8sjobs.api import serialize
from k8sjobs.api import types as T
from k8sjobs.api.errors import DecodeError

FULL = T.CronJob(
    metadata=T.ObjectMeta(name="nightly", namespace="default"),
    spec=T.CronJobSpec(
        schedule="*/5 * * * *", time_zone="Europe/Berlin", starting_deadline_seconds=2**40,
        concurrency_policy=T.ConcurrencyPolicy.FORBID, suspend=False,
        job_template=T.JobTemplateSpec(metadata=T.ObjectMeta(labels={"app": "n"}), spec=T.JobSpec(backoff_limit=2)),
        successful_jobs_history_limit=0, failed_jobs_history_limit=4),
    status=T.CronJobStatus(
        active=(T.ObjectReference(kind="Job", namespace="default", name="nightly-29000000", uid="u1",
                                  api_version="batch/v1", resource_version="7"),),
        last_schedule_time=T.Time(60.0), last_successful_time=T.Time(30.0)),
)


def test_a_full_cronjob_dumps_with_the_kubernetes_field_names() -> None:
    doc = serialize.to_dict(FULL)
    assert list(doc) == ["apiVersion", "kind", "metadata", "spec", "status"]
    assert doc["spec"] == {
        "schedule": "*/5 * * * *", "timeZone": "Europe/Berlin", "startingDeadlineSeconds": 2**40,
        "concurrencyPolicy": "Forbid", "suspend": False,
        "jobTemplate": {"metadata": {"labels": {"app": "n"}}, "spec": {"backoffLimit": 2}},
        "successfulJobsHistoryLimit": 0, "failedJobsHistoryLimit": 4}
    assert doc["status"] == {
        "active": [{"apiVersion": "batch/v1", "kind": "Job", "namespace": "default", "name": "nightly-29000000",
                    "uid": "u1", "resourceVersion": "7"}],
        "lastScheduleTime": "2026-01-01T00:01:00Z", "lastSuccessfulTime": "2026-01-01T00:00:30Z"}


@pytest.mark.parametrize("obj", [FULL, T.CronJob(), T.CronJob(spec=T.CronJobSpec(schedule="@hourly"))])
def test_a_cronjob_dump_loads_back_equal(obj: T.CronJob) -> None:
    assert serialize.from_dict(T.CronJob, serialize.to_dict(obj)) == obj


def test_an_empty_concurrency_policy_is_left_out_as_go_omitempty_does() -> None:
    assert serialize.to_dict(T.CronJob(spec=T.CronJobSpec(schedule="@daily")))["spec"] == {"schedule": "@daily"}


def test_an_unknown_cronjob_field_is_refused_with_its_path() -> None:
    with pytest.raises(DecodeError) as info:
        serialize.from_dict(T.CronJob, {"spec": {"schedul": "* * * * *"}})
    assert "spec.schedul" in str(info.value.errors[0])


MANIFEST = """\
apiVersion: batch/v1
kind: CronJob
metadata:
  name: nightly
  managedFields: [{manager: kubectl}]
spec:
  schedule: "0 3 * * *"
  jobTemplate:
    metadata:
      labels: {app: nightly}
      managedFields: [{manager: kubectl}]
    spec:
      template:
        spec:
          restartPolicy: Never
          containers: [{name: c, image: busybox}]
"""


def test_a_cronjob_manifest_loads_strictly_with_server_written_metadata_dropped() -> None:
    from k8sjobs.api.yamlio import load_manifest

    cj = load_manifest(MANIFEST, "cj.yaml")
    assert isinstance(cj, T.CronJob)
    assert cj.spec.schedule == "0 3 * * *" and cj.spec.job_template.metadata.labels == {"app": "nightly"}
    assert cj.spec.job_template.spec.template.spec.containers[0].image == "busybox"


def test_a_wrong_type_deep_in_the_job_template_is_reported_with_its_path() -> None:
    from k8sjobs.api.yamlio import load_manifest

    with pytest.raises(DecodeError) as info:
        load_manifest(MANIFEST.replace("restartPolicy: Never", "restartPolicy: Never\n          activeDeadlineSeconds: x"),
                      "cj.yaml")
    assert info.value.reason == 'cj.yaml: CronJob in version "v1" cannot be handled as a CronJob: strict decoding error'
    assert [e.field for e in info.value.errors] == ["spec.jobTemplate.spec.template.spec.activeDeadlineSeconds"]


def test_the_job_only_loader_still_refuses_a_cronjob() -> None:
    from k8sjobs.api.yamlio import load_job_manifest

    with pytest.raises(DecodeError, match='kind "CronJob" \\(batch/v1\\) is not supported: k8sjobs handles batch/v1 Job only'):
        load_job_manifest(MANIFEST, "cj.yaml")
