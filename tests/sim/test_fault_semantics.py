"""Faults mean what they mean on a real cluster; acting twice at one cycle keeps both actions."""

from __future__ import annotations

import pytest

from k8sjobs import Run, SimulationError
from tests.manifests import DURATION, job_manifest

ON_FAILURE = job_manifest("of", completions=1, parallelism=1, annotations={DURATION: "20s"}, restart_policy="OnFailure")


def test_failing_a_container_under_on_failure_restarts_it_in_place() -> None:
    run = Run(ON_FAILURE, seed=0)
    pod = run.trace.pod_histories()[0].name
    forked = run.fork(2, "fail_pod", name=pod, exit_code=3)
    (only,) = forked.trace.pod_histories()
    assert (only.name, only.restarts, only.phase) == (pod, 1, "Succeeded"), "the same pod, restarted, then succeeds"
    status = forked.trace.final_job.status
    assert (status.failed, status.succeeded) == (0, 1)
    restarts = [n for n in forked.trace.notes if n.rule == "cluster.container_restart"]
    assert restarts and restarts[0].fields["exit_code"] == 3


def test_failing_an_on_failure_pod_before_its_container_runs_is_refused() -> None:
    run = Run(ON_FAILURE, seed=0)
    pod = run.trace.pod_histories()[0].name
    with pytest.raises(SimulationError, match="no running container"):
        run.fork(1, "fail_pod", name=pod)


def test_two_actions_at_the_same_cycle_are_both_kept() -> None:
    both = Run(ON_FAILURE, seed=0).fork(1, "set_status_conflicts", n=2).fork(1, "set_informer_lag", seconds=3)
    assert [a.name for a in both.actions] == ["set_status_conflicts", "set_informer_lag"]
    later = both.fork(0, "suspend")
    assert [a.name for a in later.actions] == ["suspend"], "a fork at an earlier cycle drops them"
