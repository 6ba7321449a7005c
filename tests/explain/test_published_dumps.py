"""explain on what people paste: real, published `kubectl get job -o yaml` dumps, without their pods.

Each file in ``published/`` says where it was published, what was filled in, and what happened
next on that cluster; the test checks the next sync the model predicts and the notes (assumptions
and odd states) it prints. The stuck shape (started, no pod, no condition) has no published dump
with its status here: it is built from one (``realistic.job``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from realistic import job as job_doc

from k8sjobs import explain, set_language
from k8sjobs.cli import main
from k8sjobs.snapshot.errors import SnapshotError

PUBLISHED = Path(__file__).parent / "published"


def cli_json(path: Path, capsys, *extra: str) -> dict:
    assert main(["explain", str(path), "--format", "json", *extra]) == 0
    return json.loads(capsys.readouterr().out)


def ids(answer: dict) -> list[str]:
    return [n["id"] for n in answer["notes"]]


def test_a_running_job_without_its_pods_keeps_its_active_pod_and_names_the_command(capsys) -> None:
    # kubernetes#93559: active 1, failed 1. The controller replaced each failed pod one at a time,
    # never a second pod while one ran: the next sync creates nothing.
    answer = cli_json(PUBLISHED / "active-without-pods.yaml", capsys)
    assert answer["sync"]["creations"] == 0 and answer["sync"]["deletions"] == []
    assert answer["observed"]["active"] == 1 and answer["observed"]["failed"] == 1
    assert answer["sync"]["status"]["active"] == 1
    assert "assume.unseen_pods" in ids(answer) and "warn.pods_missing" not in ids(answer)
    note = next(n for n in answer["notes"] if n["id"] == "assume.unseen_pods")
    assert note["names"] == ["jobname-unseen-1"]
    assert note["command"] == "kubectl get job,pods -l batch.kubernetes.io/job-name=jobname -o yaml"
    assert "`kubectl get job,pods -l batch.kubernetes.io/job-name=jobname -o yaml`" in note["text"]


def test_its_forecast_creates_only_the_pods_the_status_does_not_count(capsys) -> None:
    # completions 1, one pod active: the forecast runs it to its end and creates none.
    answer = cli_json(PUBLISHED / "active-without-pods.yaml", capsys, "--forecast")
    created = [n for c in answer["forecast"]["cycles"] for n in c.get("created", [])]
    assert created == []
    assert answer["forecast"]["final"]["lastStatus"]["succeeded"] == 1
    assert answer["forecast"]["final"]["lastStatus"]["startTime"] == "2020-07-30T06:45:37Z"


def test_a_finished_job_shows_what_its_status_counted(capsys) -> None:
    # kubernetes#92245: Failed (BackoffLimitExceeded) with failed 5; the Job stayed Failed.
    answer = cli_json(PUBLISHED / "failed-backoff-limit.yaml", capsys)
    assert answer["observed"]["failed"] == 5 and answer["observed"]["succeeded"] == 0
    assert [d["rule"] for d in answer["decisions"]] == ["sync.skip.finished"]
    assert answer["sync"]["creations"] == 0 and answer["sync"]["error"] is None
    assert "assume.unseen_pods" not in ids(answer) and "assume.no_pods_shown" not in ids(answer)
    main(["explain", str(PUBLISHED / "failed-backoff-limit.yaml")])
    assert "succeeded 0, failed 5 (the status counters" in capsys.readouterr().out


def test_a_job_being_deleted_with_orphan_propagation_says_what_the_garbage_collector_does(capsys) -> None:
    # kubernetes#43168: finalizer orphan, parallelism 0: no pod is created; the note names the orphan case.
    answer = cli_json(PUBLISHED / "deleting-orphan.yaml", capsys)
    assert answer["sync"]["creations"] == 0 and answer["sync"]["deletions"] == []
    note = next(n for n in answer["notes"] if n["id"] == "state.deleting")
    assert note["case"] == "orphan" and note["finalizers"] == ["orphan"] and note["at"] == "2017-03-16T15:46:48Z"
    assert "its pods stay and run on without a controller" in note["text"]
    assert answer["states"] == [note["text"]]


def test_a_suspended_job_with_zero_completions_is_refused_as_the_published_log_says(capsys) -> None:
    # kubernetes#132144: 1.32+ logs "removing uncounted pods from status: ... startTime is required for finished job".
    answer = cli_json(PUBLISHED / "suspended-zero-completions.yaml", capsys)
    assert answer["sync"]["error"].startswith("tracking status: removing uncounted pods from status: ")
    assert answer["sync"]["error"].endswith("status.startTime: Required value: startTime is required for finished job")
    assert [c["type"] for c in answer["sync"]["conditions"]] == ["SuccessCriteriaMet"]
    note = next(n for n in answer["notes"] if n["id"] == "state.status_refused")
    assert note["case"] == "suspended_finish" and "kubernetes/kubernetes#132144" in note["text"]


def stuck_job(**status) -> dict:
    doc = job_doc("stuck", completions=3, parallelism=2, status={"startTime": "2025-06-02T08:00:01Z", **status})
    return doc


def test_a_started_job_without_pods_or_condition_is_named_stuck_and_its_forecast_starts_no_sync_unless_told(
        capsys, tmp_path) -> None:
    path = tmp_path / "stuck.json"
    path.write_text(json.dumps(stuck_job()))
    answer = cli_json(path, capsys, "--now", "2025-06-02T08:30:00Z")
    note = next(n for n in answer["notes"] if n["id"] == "state.started_without_pods")
    assert note["since"] == 1799.0 and note["started"] == "2025-06-02T08:00:01Z"
    assert "FailedCreate" in note["text"] and "same name" in note["text"]
    assert answer["sync"]["creations"] == 2  # what a sync does when one comes
    # The forecast follows the plain answer: no sync is due by itself, so it starts none and nothing happens.
    assert main(["explain", str(path), "--now", "2025-06-02T08:30:00Z", "--forecast"]) == 0
    out = capsys.readouterr().out
    assert "so the forecast starts none: nothing happens" in out and "--assume-sync" in out
    forecast = cli_json(path, capsys, "--now", "2025-06-02T08:30:00Z", "--forecast")["forecast"]
    assert forecast["cycles"] == [] and forecast["final"]["status"]["startTime"] == "2025-06-02T08:00:01Z"
    # --assume-sync plays what follows if a sync comes: its first cycle is the sync explained (2 pods created).
    assert main(["explain", str(path), "--now", "2025-06-02T08:30:00Z", "--forecast", "--assume-sync", "--until",
                 "2"]) == 0
    out = capsys.readouterr().out
    assert "Its first cycle assumes that a sync comes at 2025-06-02T08:30:00Z, although none is due by itself" in out
    forecast = cli_json(path, capsys, "--now", "2025-06-02T08:30:00Z", "--forecast", "--assume-sync", "--until",
                        "2")["forecast"]
    assert len(forecast["cycles"][0]["created"]) == 2
    # With a pod present, or with an active count, it is not that state.
    answer = cli_json(path, capsys)
    path.write_text(json.dumps(stuck_job(active=1)))
    answer = cli_json(path, capsys)
    assert "state.started_without_pods" not in ids(answer) and "assume.unseen_pods" in ids(answer)


def test_an_empty_pod_list_says_the_job_has_no_pods(tmp_path, capsys) -> None:
    # kubectl get pods -l ... prints an empty List when it finds none: then active 1 is a stale status.
    path = tmp_path / "snap.yaml"
    path.write_text((PUBLISHED / "active-without-pods.yaml").read_text()
                    + "---\napiVersion: v1\nitems: []\nkind: List\nmetadata:\n  resourceVersion: \"\"\n")
    answer = cli_json(path, capsys)
    assert answer["sync"]["creations"] == 1 and "assume.unseen_pods" not in ids(answer)
    assert "warn.pods_missing" in ids(answer)


def test_the_python_api_names_keywords_and_the_command_line_names_options(capsys) -> None:
    set_language("en")
    text = (PUBLISHED / "active-without-pods.yaml").read_text()
    two = text + "---\n" + text.replace("name: jobname", "name: other")
    with pytest.raises(SnapshotError) as err:
        explain(two)
    assert err.value.id == "job.several" and 'choose one with job="NAME"' in str(err.value)
    assert "--job" not in str(err.value)
    assert err.value.render("cli").endswith("choose one with --job NAME")
    with pytest.raises(SnapshotError, match=r'^now: Invalid value: "soon"'):
        explain(text, now="soon")
    api = explain(text)
    assert any("give now= to choose another" in a for a in api.assumptions())
    assert not any("--now" in a for a in api.assumptions())
    main(["explain", str(PUBLISHED / "active-without-pods.yaml")])
    assert "give --now to choose another" in capsys.readouterr().out
