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


def test_pod_gc_stops_with_kube_controller_manager_and_runs_as_it_starts_again() -> None:
    from k8sjobs import Run

    manifest = """\
apiVersion: batch/v1
kind: Job
metadata:
  name: lost
spec:
  template:
    metadata:
      annotations:
        sim.k8sjobs.io/duration: "600s"
    spec:
      restartPolicy: Never
      containers:
      - name: c
        image: busybox
"""

    def gc_time(run: Run) -> float:
        tr = run.trace
        return next(n.t for n in tr.notes if n.rule == "cluster.pod_gc")

    plain = Run(manifest, nodes=1, max_time=400)
    node = plain.state_at(len(plain)).pods[0].spec.node_name
    lost = plain.fork_at_time(10, "lose_node", name=node)
    # the node's Node object goes at 10 s; pod GC quarantines it (40 s) on its next 20 s tick, then fails the pod
    assert 40 <= gc_time(lost) <= 80
    down = plain.fork_at_time(5, "stop_controllers", seconds=300).fork_at_time(10, "lose_node", name=node)
    # with kube-controller-manager stopped until 305 s, pod GC first sees the missing node then
    assert gc_time(down) == pytest.approx(305 + 40, abs=20)
