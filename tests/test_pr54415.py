"""The documented real-cluster run of kubernetes/website PR 54415, reproduced by the simulation.

Facts (PR description, Kubernetes v1.34.0 on minikube; examples/docs/EXPECTED.md): the failjob
example WITHOUT its podFailurePolicy -- completions 8, parallelism 2, backoffLimit 6, every pod
``sleep 30 && exit 42`` -- created wave 1 at 14:11:43, wave 1 failed at 14:12:14 (31 s, 2
failures, next delay 20 s), wave 2 was created at 14:12:34 (51 s), and the Job was Failed at
14:20:49: 9 min 6 s = 546 s, with 8 failed pods. The controller's backoff (10 s doubled per
failure since the last success, reference §9) gives the rest: waves at ~162 s and ~513 s after
delays of 80 s and 320 s.

The run uses examples/docs/job-pod-failure-backoff.yaml with seed 0 on 3 nodes.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from k8sjobs.sim import load_job
from k8sjobs.trace import Run

MANIFEST = Path(__file__).resolve().parents[1] / "examples" / "docs" / "job-pod-failure-backoff.yaml"
OBSERVED_END = 546.0  # 14:11:43 -> 14:20:49
WAVES_CREATED = [0.0, 51.0, 162.0, 513.0]
DELAYS = [20.0, 80.0, 320.0]


@cache
def run() -> Run:
    return Run(MANIFEST.read_text(), seed=0, nodes=3)


def waves() -> list[list]:
    by_time: dict[float, list] = {}
    for h in run().trace.pod_histories():
        by_time.setdefault(h.created, []).append(h)
    return [by_time[t] for t in sorted(by_time)]


def test_the_manifest_is_the_one_the_pr_ran():
    spec = load_job(MANIFEST.read_text()).spec
    ann = spec.template.metadata.annotations
    assert (spec.completions, spec.parallelism, spec.backoff_limit, spec.pod_failure_policy) == (8, 2, 6, None)
    assert "sleep 30 && exit 42" in " ".join(spec.template.spec.containers[0].args)
    assert (ann["sim.k8sjobs.io/duration"], ann["sim.k8sjobs.io/fail-rate"], ann["sim.k8sjobs.io/exit-code"]) == (
        "30s", "1", "42")


def test_pods_come_in_four_waves_of_two():
    assert [len(w) for w in waves()] == [2, 2, 2, 2]


@pytest.mark.parametrize(("wave", "created"), list(enumerate(WAVES_CREATED)),
                         ids=[f"wave {i + 1} is created at about {t:g} s" for i, t in enumerate(WAVES_CREATED)])
def test_each_wave_is_created_when_the_pr_timeline_says(wave: int, created: float):
    assert abs(waves()[wave][0].created - created) <= 2


def test_every_pod_runs_thirty_seconds_and_exits_42():
    pods = run().trace.pod_histories()
    assert [(h.phase, h.exit_code) for h in pods] == [("Failed", 42)] * 8
    assert {round(h.finished - h.started, 3) for h in pods} == {30.0}
    assert all(abs(h.finished - h.created - 31) <= 1 for h in pods)  # 14:11:43 -> 14:12:14


@pytest.mark.parametrize(("gap", "delay"), list(enumerate(DELAYS)),
                         ids=[f"the backoff after wave {i + 1} is {d:g} s" for i, d in enumerate(DELAYS)])
def test_the_backoff_between_a_failed_wave_and_the_next_one_doubles_twice_per_wave(gap: int, delay: float):
    failed_at = max(h.finished for h in waves()[gap])
    next_created = waves()[gap + 1][0].created
    assert abs((next_created - failed_at) - delay) <= 1
    failures = 2 * (gap + 1)
    waits = [d for c in run().cycles for d in c.find("backoff.wait") if d.fields["failures"] == failures]
    assert waits and f"(delay {delay:g} s since the last failure at t={failed_at:g} s)" in waits[0].reason


def test_the_job_fails_with_backoff_limit_exceeded_after_eight_failed_pods():
    job = run().trace.final_job
    assert [(c.type, c.status, c.reason, c.message) for c in job.status.conditions] == [
        ("FailureTarget", "True", "BackoffLimitExceeded", "Job has reached the specified backoff limit"),
        ("Failed", "True", "BackoffLimitExceeded", "Job has reached the specified backoff limit")]
    assert (job.status.failed, job.status.succeeded, job.status.active) == (8, 0, 0)
    decision = next(d for c in run().cycles for d in c.find("decision.backoff_limit_exceeded"))
    assert decision.reason == "backoff limit exceeded: 8 failed pods > backoffLimit 6"
    warnings = [(e.type, e.reason, e.message) for e in run().trace.events if e.type == "Warning"]
    assert warnings == [("Warning", "BackoffLimitExceeded", "Job has reached the specified backoff limit")]


def test_the_job_ends_within_ten_percent_of_the_observed_nine_minutes_six_seconds():
    failed = next(c for c in run().trace.final_job.status.conditions if c.type == "Failed")
    assert abs(failed.last_transition_time - OBSERVED_END) <= 0.10 * OBSERVED_END
    assert abs(failed.last_transition_time - OBSERVED_END) <= 2  # in fact within two seconds
    assert run().trace.finished and not run().trace.truncated
