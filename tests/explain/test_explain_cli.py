"""``python -m k8sjobs explain``: real-looking snapshots, what it says, and bad input.

Bad input (not Kubernetes YAML or JSON, a List without a Job, a Job of another version,
pods without owner references, 100,000 pods) gets one clear line or a bounded, explained
answer; never a traceback.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from realistic import UID, as_list, job, pod

from k8sjobs.cli import main


def _explain(tmp_path: Path, capsys, doc, *args: str, name: str = "snap.yaml", raw: bytes | None = None):
    path = tmp_path / name
    if raw is not None:
        path.write_bytes(raw)
    elif name.endswith(".json"):
        path.write_text(json.dumps(doc))
    else:
        path.write_text(yaml.safe_dump(doc))
    status = main(["explain", str(path), *args])
    out, err = capsys.readouterr()
    return status, out, err


def _json(tmp_path, capsys, doc, *args, name="snap.yaml") -> dict:
    status, out, err = _explain(tmp_path, capsys, doc, "--format", "json", *args, name=name)
    assert status == 0, err
    return json.loads(out)


# ----------------------------------------------------------------------------- what it says


def test_a_job_in_backoff_waits_and_says_until_when(tmp_path, capsys) -> None:
    doc = as_list(job(status={"active": 0, "failed": 0, "startTime": "2025-06-02T08:00:00Z"}),
                  pod("report-a", "Failed", at="08:00:05", ended="08:00:30", exit_code=1),
                  pod("report-b", "Failed", at="08:00:31", ended="08:00:50", exit_code=1))
    answer = _json(tmp_path, capsys, doc, "--now", "2025-06-02T08:00:55Z")
    backoff = answer["observed"]["backoff"]
    assert backoff["failuresAfterLastSuccess"] == 2 and backoff["lastFailureTime"] == "2025-06-02T08:00:50Z"
    assert backoff["delay"] == 20 and backoff["remaining"] == 15 and backoff["until"] == "2025-06-02T08:01:10Z"
    rules = [d["rule"] for d in answer["decisions"]]
    assert "backoff.wait" in rules and answer["sync"]["creations"] == 0
    assert answer["sync"]["requeueAfter"] == 15
    assert answer["sync"]["finalizerRemovals"] == 2 and answer["sync"]["status"]["failed"] == 2
    assert answer["observed"]["uncounted"] == ["report-a", "report-b"]


def test_the_text_answer_lists_observations_decisions_result_and_assumptions(tmp_path, capsys) -> None:
    doc = as_list(job(), pod("report-a"))
    status, out, err = _explain(tmp_path, capsys, doc)
    assert status == 0, err
    for heading in ("What the controller observes", "What its next sync does, in order", "Result",
                    "What the snapshot cannot show (assumed)", "Not used by the model (ignored)"):
        assert heading in out
    assert "[manage.want_active]" in out and "[create.slow_start_batch]" in out
    assert "expectations are taken as satisfied" in out
    # What the model does not use is said once, at the end.
    assert out.count("managedFields") == 1 and out.rstrip().splitlines()[-1].startswith("Not used by the model")


def test_a_quota_in_the_snapshot_limits_creations_and_slow_start_stops(tmp_path, capsys) -> None:
    quota = {"apiVersion": "v1", "kind": "ResourceQuota", "metadata": {"name": "pods", "namespace": "default"},
             "spec": {"hard": {"pods": "3"}}, "status": {"hard": {"pods": "3"}, "used": {"pods": "3"}}}
    doc = as_list(job(completions=10, parallelism=6), pod("report-a"), pod("report-b"), pod("report-c"), quota)
    answer = _json(tmp_path, capsys, doc)
    sync = answer["sync"]
    assert sync["creations"] == 1 and sync["created"] == [] and sync["error"]
    assert "create.slow_start_stop" in [d["rule"] for d in answer["decisions"]]
    assert any("ResourceQuota pods" in a for a in answer["assumptions"])


def _team_quota(hard: int, used: int | None) -> dict:
    status = {"hard": {"pods": str(hard)}}
    if used is not None:
        status["used"] = {"pods": str(used)}
    return {"apiVersion": "v1", "kind": "ResourceQuota", "metadata": {"name": "team-pods", "namespace": "default"},
            "spec": {"hard": {"pods": str(hard)}}, "status": status}


def test_the_quota_error_counts_the_pods_the_quota_status_says_are_used_as_the_cluster_does(tmp_path, capsys) -> None:
    # 5 pods allowed, 5 used: 2 of this Job's pods are in the snapshot, 3 others are not.
    doc = as_list(job(completions=10, parallelism=6), pod("report-a"), pod("report-b"), _team_quota(5, 5))
    answer = _json(tmp_path, capsys, doc)
    assert answer["sync"]["error"] == ('pods "report-" is forbidden: exceeded quota: team-pods, requested: pods=1, '
                                       "used: pods=5, limited: pods=5")
    assert answer["observed"]["quota"] == {"name": "team-pods", "resource": "pods", "hard": 5, "used": 5, "mine": 2,
                                           "outside": 3}
    assert any("2 by this Job's pods in the snapshot, 3 by pods the snapshot does not show" in a
               for a in answer["assumptions"])


def test_a_quota_without_status_used_counts_only_the_jobs_pods_and_says_so(tmp_path, capsys) -> None:
    doc = as_list(job(completions=10, parallelism=6), pod("report-a"), pod("report-b"), _team_quota(4, None))
    answer = _json(tmp_path, capsys, doc)
    assert answer["sync"]["created"] and len(answer["sync"]["created"]) == 2
    assert answer["sync"]["error"].endswith("used: pods=4, limited: pods=4")
    assert any("its status.used is not in the snapshot, so only this Job's 2 non-finished pods are counted" in a
               for a in answer["assumptions"])


def test_a_forecast_names_the_snapshot_and_its_own_nodes_in_the_header(tmp_path, capsys) -> None:
    doc = as_list(job(completions=2, parallelism=2), pod("report-a"), pod("report-b"))
    status, out, err = _explain(tmp_path, capsys, doc, "--forecast", "--assume-duration", "10s")
    assert status == 0, err
    assert ("k8sjobs run: job.batch/report from the snapshot of 2025-06-02T08:00:05Z  seed=0  nodes=1x110 (worker-1)"
            in out)


def test_an_indexed_job_with_a_failed_index_fails_and_deletes_its_active_pods(tmp_path, capsys) -> None:
    doc = as_list(job(indexed=True, completions=3, parallelism=3, backoff_limit=100, backoffLimitPerIndex=0,
                      status={"active": 2, "startTime": "2025-06-02T08:00:00Z", "failedIndexes": ""}),
                  pod("report-0-a", "Failed", index=0, exit_code=3, ended="08:00:09"),
                  pod("report-1-b", index=1), pod("report-2-c", index=2))
    answer = _json(tmp_path, capsys, doc)
    st = answer["sync"]["status"]
    assert st["failedIndexes"] == "0"
    assert [c["type"] for c in answer["sync"]["conditions"]] == []  # not every index is finished yet
    assert answer["sync"]["creations"] == 0


def test_orphan_pods_whose_labels_match_are_adopted_by_the_sync(tmp_path, capsys) -> None:
    doc = as_list(job(completions=2, parallelism=2), pod("report-a"), pod("stray", owner=False, finalizer=False))
    answer = _json(tmp_path, capsys, doc)
    assert "pods.adopted" in [d["rule"] for d in answer["decisions"]]
    assert answer["observed"]["active"] == 2 and answer["sync"]["creations"] == 0


def test_pods_of_another_job_are_reported_and_left_out(tmp_path, capsys) -> None:
    other = "11111111-2222-4333-8444-555555555555"
    doc = as_list(job(), pod("report-a"), pod("nightly-x", job_name="nightly", uid=other))
    answer = _json(tmp_path, capsys, doc)
    assert answer["leftOut"] == [{"pod": "nightly-x", "namespace": "default", "why": "other-controller",
                                  "owner": "Job/nightly"}]
    assert answer["observed"]["pods"] == 1


def test_several_jobs_need_job_and_it_picks_one(tmp_path, capsys) -> None:
    other = "11111111-2222-4333-8444-555555555555"
    doc = as_list(job(), job("nightly", uid=other), pod("report-a"))
    status, _out, err = _explain(tmp_path, capsys, doc)
    assert status == 1 and "2 Jobs in the snapshot (default/nightly, default/report): choose one with --job" in err
    assert _json(tmp_path, capsys, doc, "--job", "default/nightly")["job"] == "default/nightly"


def test_yaml_documents_a_job_alone_and_json_are_read_alike(tmp_path, capsys) -> None:
    docs = [job(), pod("report-a")]
    text = "---\n".join(yaml.safe_dump(d) for d in docs)
    status, out, err = _explain(tmp_path, capsys, None, "--format", "json", raw=text.encode())
    assert status == 0, err
    multi = json.loads(out)
    listed = _json(tmp_path, capsys, as_list(*docs), name="snap.json")
    assert multi["sync"]["creations"] == listed["sync"]["creations"] == 1
    alone = _json(tmp_path, capsys, job(), "--now", "2025-06-02T08:00:10Z")
    assert alone["sync"]["creations"] == 2


def test_forecast_runs_the_job_to_its_end_with_the_assumed_duration(tmp_path, capsys) -> None:
    doc = as_list(job(completions=2, parallelism=2), pod("report-a", at="08:00:05"))
    status, out, err = _explain(tmp_path, capsys, doc, "--forecast", "--assume-duration", "30s")
    assert status == 0, err
    assert "run 30 s (given with --assume-duration)" in out
    assert "condition Complete (CompletionsReached)" in out
    answer = _json(tmp_path, capsys, doc, "--forecast")
    assert answer["forecast"]["final"]["status"]["succeeded"] == 2
    assert answer["forecast"]["durationFrom"] == "default"


# ----------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(("raw", "expected"), [
    pytest.param(b"hello: world\n", "not Kubernetes YAML or JSON", id="a YAML mapping that is no Kubernetes object"),
    pytest.param(b"just some text\n", "not Kubernetes YAML or JSON", id="plain text"),
    pytest.param(b"items: [\n", "not YAML", id="broken YAML"),
    pytest.param(b"\xff\xfe\x00\x01", "not UTF-8", id="binary bytes"),
    pytest.param(b"", "empty", id="an empty file"),
    pytest.param(yaml.safe_dump(as_list(pod("report-a"))).encode(), "no batch/v1 Job in the snapshot (it holds 1 Pod)",
                 id="a List without a Job"),
    pytest.param(yaml.safe_dump({**job(), "apiVersion": "batch/v1beta1"}).encode(),
                 'no matches for kind "Job" in version "batch/v1beta1"', id="a Job of another version"),
    pytest.param(yaml.safe_dump({"apiVersion": "batch/v9", "kind": "CronJob", "metadata": {"name": "c"}}).encode(),
                 "no batch/v1 Job in the snapshot (it holds 1 CronJob (batch/v9))", id="a CronJob of no known version"),
    pytest.param(yaml.safe_dump(as_list(job(), {**pod("report-a"), "status": {
        "phase": "Running", "startTime": "yesterday"}})).encode(), "status.startTime: Invalid value: \"yesterday\"",
                 id="a pod time that is not RFC 3339"),
    pytest.param(yaml.safe_dump(job(status={"succeeded": "three"})).encode(),
                 "status.succeeded: Invalid value: \"string\"", id="a Job status of the wrong type"),
])
def test_bad_input_is_one_clear_line(tmp_path, capsys, raw: bytes, expected: str) -> None:
    status, out, err = _explain(tmp_path, capsys, None, raw=raw)
    assert status == 1 and out == ""
    assert expected in err, err
    assert "Traceback" not in err


def test_a_bad_field_names_the_object_and_the_field_path(tmp_path, capsys) -> None:
    bad = pod("report-a")
    bad["status"]["containerStatuses"][0]["restartCount"] = "many"
    status, _out, err = _explain(tmp_path, capsys, as_list(job(), bad))
    assert status == 1
    assert err.splitlines()[0].endswith('Pod "report-a" (items[1]) cannot be read')
    assert "status.containerStatuses[0].restartCount" in err


def test_now_before_the_job_existed_is_refused(tmp_path, capsys) -> None:
    status, _out, err = _explain(tmp_path, capsys, as_list(job()), "--now", "2020-01-01T00:00:00Z")
    assert status == 1 and "is before the Job was created" in err


def test_a_file_too_big_to_be_a_snapshot_is_refused_before_it_is_read(tmp_path, capsys) -> None:
    path = tmp_path / "huge.json"
    with open(path, "wb") as fh:  # sparse: nothing is written, the size is what counts
        fh.truncate(500 * 1024 * 1024)
    assert main(["explain", str(path)]) == 1
    err = capsys.readouterr().err
    assert "larger than the 134,217,728 bytes a snapshot may have" in err and len(err.splitlines()) == 1


def _compact_pod(i: int, phase: str, finalizer: bool) -> dict:
    meta = {"name": f"report-{i}", "namespace": "default", "uid": f"u-{i}",
            "creationTimestamp": "2025-06-02T08:00:05Z",
            "ownerReferences": [{"apiVersion": "batch/v1", "kind": "Job", "name": "report", "uid": UID,
                                 "controller": True}],
            "labels": {"batch.kubernetes.io/controller-uid": UID}}
    if finalizer:
        meta["finalizers"] = ["batch.kubernetes.io/job-tracking"]
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": {"containers": [{"name": "main"}]},
            "status": {"phase": phase}}


def test_100000_counted_pods_give_a_bounded_explained_answer(tmp_path, capsys) -> None:
    n = 100_000
    items = [job(completions=n + 10, parallelism=10, status={"succeeded": n, "active": 10,
                                                              "startTime": "2025-06-02T08:00:00Z"})]
    items += [_compact_pod(i, "Succeeded", False) for i in range(n)]
    items += [_compact_pod(n + i, "Running", True) for i in range(10)]
    answer = _json(tmp_path, capsys, as_list(*items), name="big.json")
    settled = [x for x in answer["leftOut"] if x["why"] == "settled"]
    assert len(settled) == n + 10 - 20_000
    assert answer["observed"]["active"] == 10 and answer["sync"]["creations"] == 0


def test_too_many_pods_that_still_count_is_one_clear_line(tmp_path, capsys, monkeypatch) -> None:
    # The same rule as at 20,000 pods, with a lower limit so the test stays quick.
    monkeypatch.setattr("k8sjobs.snapshot.read.MAX_SNAPSHOT_PODS", 50)
    items = [job(completions=100, parallelism=100)] + [_compact_pod(i, "Running", True) for i in range(51)]
    status, _out, err = _explain(tmp_path, capsys, as_list(*items), name="many.json")
    assert status == 1 and len(err.splitlines()) == 1
    assert "51 pods of Job report still count for the controller (running, pending, or finished and not yet " \
           "counted): more than the 50 explain simulates" in err


def test_the_command_never_prints_a_traceback_for_bad_input(tmp_path) -> None:
    path = tmp_path / "list.yaml"
    path.write_text(yaml.safe_dump(as_list(pod("report-a"))))
    proc = subprocess.run([sys.executable, "-m", "k8sjobs", "explain", str(path)], capture_output=True, text=True,
                          check=False)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr and len(proc.stderr.splitlines()) == 1


EXAMPLES = Path(__file__).resolve().parents[2] / "k8sjobs" / "snapshots"


@pytest.mark.parametrize(("name", "rule", "check"), [
    ("backoff", "backoff.wait", lambda a: a["sync"]["requeueAfter"] == 10 and a["sync"]["creations"] == 0
     and a["observed"]["backoff"]["failuresAfterLastSuccess"] == 1 and a["sync"]["status"]["failed"] == 3),
    ("quota", "create.slow_start_stop", lambda a: a["sync"]["creations"] == 1 and a["sync"]["created"] == []
     and a["sync"]["error"].endswith("exceeded quota: team-pods, requested: pods=1, used: pods=5, limited: pods=5")),
    ("indexed", "create.no_pending_index", lambda a: a["sync"]["status"]["failedIndexes"] == "2"
     and a["sync"]["status"]["completedIndexes"] == "0,1" and a["sync"]["creations"] == 0 and a["warnings"] == []),
])
def test_the_example_snapshots_say_what_lesson_15_teaches(capsys, name, rule, check) -> None:
    assert main(["explain", str(EXAMPLES / f"{name}.yaml"), "--format", "json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert rule in [d["rule"] for d in answer["decisions"]] and check(answer)


def test_the_example_snapshots_are_what_their_simulations_make() -> None:
    proc = subprocess.run([sys.executable, str(EXAMPLES.parents[1] / "tools" / "lesson_snapshots.py"), "--check"],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr


def test_example_snapshot_returns_the_shipped_text_and_names_the_choices_for_a_wrong_name() -> None:
    from k8sjobs import EXAMPLE_SNAPSHOTS, example_snapshot

    assert EXAMPLE_SNAPSHOTS == ("backoff", "quota", "indexed")
    assert example_snapshot("quota") == (EXAMPLES / "quota.yaml").read_text()
    with pytest.raises(ValueError, match="there are backoff, quota, indexed"):
        example_snapshot("nope")


def test_the_help_says_to_take_big_snapshots_as_json_and_to_redact_them(capsys) -> None:
    with pytest.raises(SystemExit) as info:
        main(["explain", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert info.value.code == 0
    assert "-o json for big Jobs: it is read many times faster than YAML" in out
    assert "| python -m k8sjobs redact - > snap.json" in out and "kubectl get job NAME -o json;" in out


def test_a_forecast_stopped_by_a_limit_says_which_and_how_to_raise_it(capsys) -> None:
    path = str(EXAMPLES / "quota.yaml")
    assert main(["explain", path, "--forecast", "--max-cycles", "5"]) == 0
    err = capsys.readouterr().err
    assert err.startswith("explain: the forecast stopped after 5 cycles at t=") and err.count("\n") == 1
    assert "before the Job finished: --max-cycles 5 reached; give a larger --max-cycles to see more" in err
    assert main(["explain", path, "--forecast", "--until", "30", "--format", "json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["forecast"]["final"]["truncated"] and "--until 30 reached" in err
    assert main(["explain", path, "--forecast"]) == 0
    assert capsys.readouterr().err == ""


HUGE = as_list(job(completions=1_000_000, parallelism=100_000, status={"active": 2, "startTime": "2025-06-02T08:00:00Z"}),
               pod("report-a", at="08:00:05"), pod("report-b", at="08:00:40"))
"""The issue's Job (completions 10^6, parallelism 10^5) as a real cluster shows it: two pods running."""


def test_a_forecast_of_a_huge_job_stops_at_a_run_limit_with_the_message_of_run_and_how_to_raise_it(
        tmp_path, capsys) -> None:
    status, out, err = _explain(tmp_path, capsys, HUGE, "--forecast", "--max-pods", "1200")
    assert status == 0, err
    assert err.startswith("explain: The run stopped after cycle 3 (t=") and err.count("\n") == 1, err
    assert "before the Job finished: it created 1500 pods, more than its limit of 1200 (max_pods)" in err
    assert "To go further, raise the limit: --max-pods 2400 with python -m k8sjobs explain --forecast." in err
    assert "Forecast from 2025-06-02T08:00:40Z" in out and "SuccessfulCreate" in out, "the cycles up to there"
    doc = _json(tmp_path, capsys, HUGE, "--forecast", "--max-pods", "1200")
    limit = doc["forecast"]["final"]["limit"]
    assert limit["name"] == "max_pods" and limit["value"] == 1200 and limit["reached"] == 1500
    assert "--max-pods 2400 with python -m k8sjobs explain --forecast" in limit["message"]
    assert doc["forecast"]["final"]["truncated"] and len(doc["forecast"]["cycles"]) == limit["cycle"] == 3


def test_the_forecast_has_the_run_limits_of_any_run_and_bad_ones_are_refused(tmp_path, capsys) -> None:
    from k8sjobs.sim import Budget
    from k8sjobs.snapshot.explain import explain
    from k8sjobs.snapshot.read import read_snapshot

    snapshot = read_snapshot(yaml.safe_dump(HUGE).encode(), "huge.yaml")
    run = explain(snapshot).forecast(max_events=3000)
    assert run.budget == Budget(max_events=3000, max_time=run.budget.max_time)
    assert run.limit is not None and run.limit.limit == "max_events" and run.sim.events_run == 3000
    assert "forecast(..., max_events=6000)" in run.message("forecast")
    for option in ("--max-pods", "--max-events", "--max-pod-cycles"):
        status, _, err = _explain(tmp_path, capsys, HUGE, "--forecast", option, "-1")
        assert status == 1 and err == f"explain: {option}: must be at least 0, got -1\n"
