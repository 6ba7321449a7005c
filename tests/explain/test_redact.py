"""``redact_snapshot`` / ``python -m k8sjobs redact``: what may hold secrets goes, what explain reads stays.

Checked on a snapshot full of the places secrets hide (env values, commands and arguments,
image pull secrets, volumes, probes with headers, the last-applied-configuration annotation,
termination messages, a Secret object in the same file): none of them survives. And explain
answers the same on the redacted snapshot as on the original, for the example snapshots and
every upstream-derived sync case written as a snapshot. A CronJob dump (batch/v1 and batch/v1beta1, alone or
with its Jobs) is redacted as its Jobs are, its Job template like a Job, and explain (the sync now, the next
schedule time, the next sync, the forecast of 3 runs) answers the same on the three published CronJob dumps
and on a simulated one.
"""

from __future__ import annotations

import io
import json
import sys
from collections import Counter
from pathlib import Path

import pytest
import yaml
from case_snapshots import NOW_TEXT, case_to_yaml, exclusion
from realistic import as_list, job, pod

from k8sjobs import EXAMPLE_SNAPSHOTS, Run, example_snapshot, explain, redact_snapshot
from k8sjobs.cli import main
from k8sjobs.trace.kubectl import job_document, to_kubectl_yaml

SECRETS = ("hunter2", "sk-live-0123", "s3cr3t-arg", "regcred-private", "db-credentials", "Bearer tok-99",
           "panic: password=letmein", "vault-agent-config", "10.244.0.7")


def _leaky() -> dict:
    container = {"name": "main", "image": "busybox:1.36", "command": ["sh", "-c", "run --password=s3cr3t-arg"],
                 "env": [{"name": "DB_PASSWORD", "value": "hunter2"}, {"name": "TOKEN", "value": "sk-live-0123"}],
                 "envFrom": [{"secretRef": {"name": "db-credentials"}}],
                 "livenessProbe": {"httpGet": {"path": "/", "port": 80,
                                               "httpHeaders": [{"name": "Authorization", "value": "Bearer tok-99"}]}}}
    j = job(completions=3, parallelism=2, status={"active": 1, "failed": 1, "startTime": "2025-06-02T08:00:00Z"})
    j["metadata"]["annotations"] = {"kubectl.kubernetes.io/last-applied-configuration": json.dumps(
        {"spec": {"template": {"spec": {"containers": [container]}}}}), "vault.hashicorp.com/agent-inject-template":
        "vault-agent-config"}
    tspec = j["spec"]["template"]["spec"]
    tspec["containers"] = [container]
    tspec["imagePullSecrets"] = [{"name": "regcred-private"}]
    tspec["volumes"] = [{"name": "creds", "secret": {"secretName": "db-credentials"}}]
    running = pod("report-a", at="08:00:40")
    failed = pod("report-b", "Failed", at="08:00:05", ended="08:00:30", exit_code=2)
    for p in (running, failed):
        p["spec"]["containers"] = [container]
        p["spec"]["imagePullSecrets"] = [{"name": "regcred-private"}]
    failed["status"]["containerStatuses"][0]["state"]["terminated"]["message"] = "panic: password=letmein"
    secret = {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "db-credentials"},
              "data": {"password": "aHVudGVyMg=="}, "stringData": {"p": "hunter2"}}
    return as_list(j, running, failed, secret)


def _answer(text: str, **kw) -> dict:
    doc = explain(text, **kw).to_json()
    doc.pop("ignored")
    return doc


def test_redaction_removes_every_place_a_secret_hides_and_keeps_what_explain_reads() -> None:
    original = yaml.safe_dump(_leaky())
    assert all(s in original for s in SECRETS)
    result = redact_snapshot(original)
    assert [s for s in SECRETS if s in result.text] == []
    assert result.removed["Pod: spec.containers[*].env"] == 2 and result.removed["Secret (v1)"] == 1
    assert result.removed["Job: metadata.annotations[kubectl.kubernetes.io/last-applied-configuration]"] == 1
    assert result.removed["Pod: status.containerStatuses[*].state.terminated.message"] == 1
    assert _answer(result.text) == _answer(original)
    # What explain reads is all there: owner references, the tracking finalizer, exit codes, times.
    doc = yaml.safe_load(result.text)
    failed = doc["items"][2]
    assert failed["metadata"]["ownerReferences"][0]["controller"] is True
    assert failed["status"]["containerStatuses"][0]["state"]["terminated"]["exitCode"] == 2
    assert doc["items"][0]["spec"]["template"]["spec"]["containers"] == [{"image": "busybox:1.36", "name": "main"}]


@pytest.mark.parametrize("name", EXAMPLE_SNAPSHOTS)
def test_explain_answers_the_same_on_a_redacted_example_snapshot(name: str) -> None:
    text = example_snapshot(name)
    redacted = redact_snapshot(text).text
    assert "sk-live" not in redacted and "last-applied-configuration" not in redacted
    assert _answer(redacted) == _answer(text)


CASES = [c for c in json.loads((Path(__file__).resolve().parents[1] / "conformance" / "sync.json").read_text())["cases"]
         if exclusion(c) is None]


def test_explain_answers_the_same_on_every_redacted_sync_case_snapshot() -> None:
    differ = [c["id"] for c in CASES
              if _answer(redact_snapshot(case_to_yaml(c)).text, now=NOW_TEXT) != _answer(case_to_yaml(c), now=NOW_TEXT)]
    assert differ == [] and len(CASES) == 77


def test_json_stays_json_and_two_documents_stay_two(tmp_path, capsys, monkeypatch) -> None:
    quota = {"apiVersion": "v1", "kind": "List", "items": [
        {"apiVersion": "v1", "kind": "ResourceQuota", "metadata": {"name": "q", "namespace": "default"},
         "spec": {"hard": {"pods": "4", "secrets": "10"}}, "status": {"used": {"pods": "3"}}}]}
    text = json.dumps(_leaky(), indent=4) + "\n" + json.dumps(quota, indent=4) + "\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    assert main(["redact", "-"]) == 0
    out, err = capsys.readouterr()
    docs = [json.loads(chunk) for chunk in out.replace("}\n{", "}\n\x00{").split("\x00")]
    assert [d["kind"] for d in docs] == ["List", "List"] and out.startswith('{\n    "apiVersion": "v1"')
    assert docs[1]["items"][0]["spec"] == {"hard": {"pods": "4"}}
    assert err.startswith("redact: removed: ") and len(err.splitlines()) == 1
    # explain reads the two JSON documents one after the other, the quota included.
    path = tmp_path / "snap.json"
    path.write_text(out)
    assert explain(str(path)).snapshot.quota.hard == 4


def test_bad_input_to_redact_is_one_line_and_exit_1(tmp_path, capsys) -> None:
    path = tmp_path / "x.yaml"
    path.write_text("a: [1,\n")
    assert main(["redact", str(path)]) == 1
    assert len(capsys.readouterr().err.splitlines()) == 1
    assert main(["redact", str(tmp_path / "missing.yaml")]) == 1
    assert "missing.yaml: no such file" in capsys.readouterr().err


# CronJobs: `kubectl get cronjob NAME -o yaml`, alone or with its Jobs (batch/v1 and batch/v1beta1).

PUBLISHED_CRONJOBS = Path(__file__).parent / "published_cronjobs"

LEAKY_CRONJOB = """\
apiVersion: batch/v1
kind: CronJob
metadata:
  name: nightly
  annotations:
    kubectl.kubernetes.io/last-applied-configuration: '{"env": [{"name": "DB_PASSWORD", "value": "hunter2"}]}'
spec:
  schedule: "*/5 * * * *"
  timeZone: Europe/Berlin
  startingDeadlineSeconds: 200
  concurrencyPolicy: Forbid
  successfulJobsHistoryLimit: 2
  failedJobsHistoryLimit: 1
  jobTemplate:
    metadata:
      annotations:
        vault.hashicorp.com/agent-inject-template: vault-agent-config
    spec:
      backoffLimit: 1
      template:
        metadata:
          annotations:
            sim.k8sjobs.io/duration: "7m"
        spec:
          restartPolicy: Never
          imagePullSecrets:
          - name: regcred-private
          volumes:
          - name: creds
            secret:
              secretName: db-credentials
          containers:
          - name: work
            image: busybox:1.36
            command: ["sh", "-c", "run --password=s3cr3t-arg"]
            env:
            - name: DB_PASSWORD
              value: hunter2
            - name: TOKEN
              value: sk-live-0123
"""


def _simulated_cronjob_dump() -> str:
    """`kubectl get cronjob,jobs -o yaml` after 30 simulated minutes of LEAKY_CRONJOB (a run still active)."""
    run = Run(LEAKY_CRONJOB, nodes=1, max_time=1800)
    cj = run.cluster.cronjobs()[0]
    items = [job_document(cj.final_job, cj.origin)]
    items += [job_document(t.final_job, t.origin) for t in run.cluster.jobs() if t.final_job is not None]
    return to_kubectl_yaml({"apiVersion": "v1", "kind": "List", "items": items, "metadata": {"resourceVersion": ""}})


def _cron_answer(text: str, now: str | None = None) -> dict:
    answer = explain(text, now=now)
    doc = answer.to_json()
    doc.pop("ignored")
    doc["forecast"] = answer.forecast(3).to_json()
    return doc


def test_a_cronjob_dump_keeps_its_schedule_and_status_and_loses_what_may_hold_secrets() -> None:
    dump = yaml.safe_load(_simulated_cronjob_dump())
    # kubectl before 1.21 (or with --show-managed-fields) prints managedFields: who wrote which field.
    dump["items"][0]["metadata"]["managedFields"] = [{"manager": "kubectl-client-side-apply", "operation": "Update",
                                                      "fieldsV1": {"f:spec": {"f:jobTemplate": {}}}}]
    original = to_kubectl_yaml(dump)
    assert all(s in original for s in ("hunter2", "sk-live-0123", "s3cr3t-arg", "regcred-private", "db-credentials",
                                       "vault-agent-config", "last-applied-configuration"))
    result = redact_snapshot(original)
    assert [s for s in SECRETS if s in result.text] == [] and "last-applied-configuration" not in result.text
    # What was removed is said for the CronJob as for its Jobs (three Jobs kept: two succeeded, one active).
    removed = result.removed
    assert removed["CronJob: metadata.annotations[kubectl.kubernetes.io/last-applied-configuration]"] == 1
    assert removed["CronJob: spec.jobTemplate.metadata.annotations[vault.hashicorp.com/agent-inject-template]"] == 1
    for key in ("env", "command"):
        assert removed[f"CronJob: spec.jobTemplate.spec.template.spec.containers[*].{key}"] == 1
        assert removed[f"Job: spec.template.spec.containers[*].{key}"] == 3
    assert removed["CronJob: metadata.managedFields"] == 1 and "kubectl-client-side-apply" not in result.text
    assert removed["CronJob: spec.jobTemplate.spec.template.spec.imagePullSecrets"] == 1
    assert removed["CronJob: spec.jobTemplate.spec.template.spec.volumes"] == 1
    assert "CronJob (batch/v1)" not in removed
    assert "CronJob: spec.jobTemplate.spec.template.spec.containers[*].env (1)" in result.summary()
    # What explain reads stays, field for field.
    before, after = yaml.safe_load(original)["items"], yaml.safe_load(result.text)["items"]
    assert [i["kind"] for i in after] == ["CronJob", "Job", "Job", "Job"]
    kept_spec = ("schedule", "timeZone", "startingDeadlineSeconds", "concurrencyPolicy", "suspend",
                 "successfulJobsHistoryLimit", "failedJobsHistoryLimit")
    assert {k: after[0]["spec"][k] for k in kept_spec} == {k: before[0]["spec"][k] for k in kept_spec}
    assert after[0]["status"] == before[0]["status"] and after[0]["status"]["active"]
    assert set(after[0]["status"]) == {"active", "lastScheduleTime", "lastSuccessfulTime"}
    template = after[0]["spec"]["jobTemplate"]
    assert template["spec"]["backoffLimit"] == 1
    assert template["spec"]["template"]["metadata"]["annotations"] == {"sim.k8sjobs.io/duration": "7m"}
    assert template["spec"]["template"]["spec"]["containers"] == [{"image": "busybox:1.36", "name": "work"}]
    for b, a in zip(before[1:], after[1:]):
        assert a["status"] == b["status"] and a["metadata"]["ownerReferences"] == b["metadata"]["ownerReferences"]
        assert a["metadata"]["annotations"] == {"batch.kubernetes.io/cronjob-scheduled-timestamp":
                                                b["metadata"]["annotations"][
                                                    "batch.kubernetes.io/cronjob-scheduled-timestamp"]}


@pytest.mark.parametrize("now", [None, "2026-01-01T00:31:00Z", "2026-01-01T00:34:00Z", "2026-01-01T02:00:00Z"])
def test_explain_answers_the_same_on_a_redacted_simulated_cronjob_dump(now: str | None) -> None:
    # The snapshot's own time; the next run skipped (Forbid: the Job of 00:25 runs 7 min); passed over
    # (startingDeadlineSeconds 200); and 90 minutes of missed runs.
    original = _simulated_cronjob_dump()
    redacted = redact_snapshot(original).text
    assert _cron_answer(redacted, now) == _cron_answer(original, now)
    # The CronJob alone (its Jobs left out of the paste) too: status.active stands for its Job.
    alone = to_kubectl_yaml(yaml.safe_load(original)["items"][0])
    assert _cron_answer(redact_snapshot(alone).text, now) == _cron_answer(alone, now)


def _kinds(text: str) -> list[tuple[str, int]]:
    doc = yaml.safe_load(text)
    items = doc["items"] if doc["kind"] == "List" else [doc]
    return sorted(Counter(i["kind"] for i in items).items())


PUBLISHED_NOWS = {
    "forbid-stale-active.yaml": [None, "2022-02-09T11:00:00Z", "2022-02-08T20:00:05Z"],
    "daily-deadline-10s.yaml": [None, "2020-02-26T00:01:15Z", "2020-02-26T00:01:09Z"],
    "weekdays-deadline-v1beta1.yaml": [None, "2020-07-30T14:09:00Z", "2020-07-30T14:11:00Z"],
    "weekly-active-openshift-v1beta1.yaml": [None, "2019-07-18T19:40:00Z", "2019-07-25T19:39:30Z"],
    "every-minute-history-v1beta1.yaml": [None, "2020-01-12T08:14:30Z"],
    "forbid-every-minute-v1beta1.yaml": [None, "2020-05-31T16:35:30Z"],
}


@pytest.mark.parametrize(("name", "now"), [(n, t) for n, ts in PUBLISHED_NOWS.items() for t in ts])
def test_explain_answers_the_same_on_a_redacted_published_cronjob_dump(name: str, now: str | None) -> None:
    original = (PUBLISHED_CRONJOBS / name).read_text()
    result = redact_snapshot(original)
    assert _kinds(result.text) == _kinds(original) and ("CronJob", 1) in _kinds(original)
    assert _cron_answer(result.text, now) == _cron_answer(original, now)


def test_the_set_of_published_cronjob_dumps_is_the_one_checked() -> None:
    assert sorted(p.name for p in PUBLISHED_CRONJOBS.glob("*.yaml")) == sorted(PUBLISHED_NOWS)


def test_a_v1beta1_cronjob_list_in_json_stays_json_and_its_args_go(capsys, monkeypatch) -> None:
    # `kubectl get cronjobs -o json` of a 1.20 cluster: a typed CronJobList whose items carry no kind.
    cronjob = yaml.safe_load((PUBLISHED_CRONJOBS / "weekdays-deadline-v1beta1.yaml").read_text())
    item = {k: v for k, v in cronjob.items() if k not in ("kind", "apiVersion")}
    text = json.dumps({"apiVersion": "batch/v1beta1", "kind": "CronJobList", "items": [item]}, indent=4) + "\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    assert main(["redact", "-"]) == 0
    out, err = capsys.readouterr()
    doc = json.loads(out)
    assert [(i["apiVersion"], i["kind"]) for i in doc["items"]] == [("batch/v1beta1", "CronJob")]
    container = doc["items"][0]["spec"]["jobTemplate"]["spec"]["template"]["spec"]["containers"][0]
    assert set(container) == {"name", "image"}
    assert "CronJob: spec.jobTemplate.spec.template.spec.containers[*].args (1)" in err
    assert _cron_answer(out, "2020-07-30T14:09:00Z") == _cron_answer(text, "2020-07-30T14:09:00Z")
