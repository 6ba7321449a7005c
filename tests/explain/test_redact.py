"""``redact_snapshot`` / ``python -m k8sjobs redact``: what may hold secrets goes, what explain reads stays.

Checked on a snapshot full of the places secrets hide (env values, commands and arguments,
image pull secrets, volumes, probes with headers, the last-applied-configuration annotation,
termination messages, a Secret object in the same file): none of them survives. And explain
answers the same on the redacted snapshot as on the original, for the example snapshots and
every upstream-derived sync case written as a snapshot.
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest
import yaml
from case_snapshots import NOW_TEXT, case_to_yaml, exclusion
from realistic import as_list, job, pod

from k8sjobs import EXAMPLE_SNAPSHOTS, example_snapshot, explain, redact_snapshot
from k8sjobs.cli import main

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
