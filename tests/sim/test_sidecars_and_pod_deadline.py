"""The simulated kubelet: native sidecars, classic sidecars and a pod's own activeDeadlineSeconds.

Upstream references: pkg/kubelet/kubelet_pods.go ``getPhase`` (sidecar exit codes never
count; a running sidecar keeps the pod Running), pkg/kubelet/kuberuntime ``computePodActions``
(once no regular container runs or is to start, the pod is killed and sidecars are not
restarted), the docs' "Pod shutdown and sidecar containers" (sidecars get SIGTERM only after
the last main container stopped), pkg/kubelet/active_deadline.go (DeadlineExceeded, measured
from status.startTime) and the status manager's rule that a pod is reported terminal only once
its containers have stopped.
"""

from __future__ import annotations

import pytest

from k8sjobs import Run, SimulationError, validate

SIDECAR_JOB = """apiVersion: batch/v1
kind: Job
metadata: {name: myjob}
spec:
  completions: 1
  parallelism: 1
  backoffLimit: 0
  template:
    metadata:
      annotations:
        sim.k8sjobs.io/start-latency: "1s"
        sim.k8sjobs.io/duration: "10s"
        sim.k8sjobs.io/sidecar-termination-delay: "5s"
    spec:
      restartPolicy: Never
      terminationGracePeriodSeconds: 30
      initContainers:
      - {name: setup, image: alpine}
      - {name: logshipper, image: alpine, restartPolicy: Always}
      containers:
      - {name: myjob, image: alpine}
"""


def pod_states(run: Run) -> list[tuple[float, str, dict[str, object], dict[str, object]]]:
    """(t, phase, init container -> exit code or "running", container -> exit code or "running") per pod write."""
    def codes(statuses):
        return {s.name: s.state.terminated.exit_code if s.state.terminated else "running" for s in statuses}
    return [(ch.t, ch.obj.status.phase, codes(ch.obj.status.init_container_statuses),
             codes(ch.obj.status.container_statuses))
            for ch in run.trace.changes if ch.kind == "Pod" and ch.type == "MODIFIED"]


def first_time(run: Run, rule: str) -> float:
    return next(c.t for c in run.cycles if c.find(rule))


def test_a_native_sidecar_does_not_keep_the_job_running_it_is_stopped_after_the_main_container() -> None:
    run = Run(SIDECAR_JOB, seed=0)
    states = pod_states(run)
    assert (1.0, "Running", {"setup": 0, "logshipper": "running"}, {"myjob": "running"}) in states
    # The main container exits at 11 s; the pod stays Running while the kubelet stops the sidecar.
    assert (11.0, "Running", {"setup": 0, "logshipper": "running"}, {"myjob": 0}) in states
    # 5 s later the sidecar is gone (SIGTERM: 143) and the pod Succeeded: sidecar exit codes do not count.
    assert (16.0, "Succeeded", {"setup": 0, "logshipper": 143}, {"myjob": 0}) in states
    assert first_time(run, "condition.complete") == 17.0
    assert any(n.rule == "cluster.sidecars_stopping" and n.t == 11.0 for n in run.trace.notes)


def test_while_its_sidecar_stops_the_pod_is_active_but_not_ready() -> None:
    run = Run(SIDECAR_JOB, seed=0)
    during = next(c for c in run.cycles if 11.0 < c.t < 16.0)
    assert (during.after.active, during.after.ready, during.after.succeeded) == (1, 0, 0)
    pod = next(ch.obj for ch in run.trace.changes if ch.kind == "Pod" and ch.t == 11.0)
    ready = next(c for c in pod.status.conditions if c.type == "Ready")
    assert (ready.status, ready.reason, ready.message) == ("False", "ContainersNotReady",
                                                           "containers with unready status: [myjob]")


def test_a_sidecar_slower_than_the_grace_period_is_killed_when_it_runs_out() -> None:
    slow = SIDECAR_JOB.replace('sidecar-termination-delay: "5s"', 'sidecar-termination-delay: "60s"')
    run = Run(slow, seed=0)
    assert (41.0, "Succeeded", {"setup": 0, "logshipper": 137}, {"myjob": 0}) in pod_states(run)


def test_the_main_container_decides_the_phase_not_the_sidecar() -> None:
    failing = SIDECAR_JOB.replace('duration: "10s"', 'duration: "10s"\n        sim.k8sjobs.io/fail-rate: "1"')
    run = Run(failing, seed=0)
    assert (16.0, "Failed", {"setup": 0, "logshipper": 143}, {"myjob": 1}) in pod_states(run)
    assert run.trace.final_job.status.conditions[-1].reason == "BackoffLimitExceeded"


def test_an_exit_code_rule_without_container_name_also_matches_the_sidecars_exit_code() -> None:
    # matchOnExitCodes looks at regular containers first, then at every init container status.
    policy = SIDECAR_JOB.replace("  backoffLimit: 0\n", """  backoffLimit: 3
  podFailurePolicy:
    rules:
    - action: FailJob
      onExitCodes: {operator: In, values: [143]}
""").replace('duration: "10s"', 'duration: "10s"\n        sim.k8sjobs.io/fail-rate: "1"')
    run = Run(policy, seed=0)
    failed = run.trace.final_job.status.conditions[-1]
    assert (failed.type, failed.reason) == ("Failed", "PodFailurePolicy")
    assert "Container logshipper" in failed.message and "exit code 143" in failed.message
    named = policy.replace("onExitCodes: {operator: In", "onExitCodes: {containerName: myjob, operator: In")
    assert Run(named, seed=0).trace.final_job.status.conditions[-1].reason == "BackoffLimitExceeded"


def test_deleting_a_pod_with_a_sidecar_stops_the_main_container_first_then_the_sidecar() -> None:
    run = Run(SIDECAR_JOB.replace('duration: "10s"', 'duration: "100s"'), seed=0)
    pod = run.trace.pod_histories()[0].name
    gone = run.fork(3, "delete_pod", name=pod)
    deleted_at = gone.cycle(3).t
    stopped = next(s for s in pod_states(gone) if s[1] == "Failed")
    # termination delay (1 s) for the main container, then 5 s for the sidecar.
    assert stopped == (deleted_at + 6.0, "Failed", {"setup": 0, "logshipper": 143}, {"myjob": 143})


CLASSIC = """apiVersion: batch/v1
kind: Job
metadata: {name: migrate}
spec:
  activeDeadlineSeconds: 120
  template:
    metadata:
      annotations:
        sim.k8sjobs.io/start-latency: "1s"
        sim.k8sjobs.io/duration: "20s"
        sim.k8sjobs.io/keeps-running: istio-proxy
    spec:
      restartPolicy: Never
      containers:
      - {name: migrate, image: busybox}
      - {name: istio-proxy, image: istio/proxyv2}
"""


def test_a_classic_sidecar_keeps_the_pod_running_until_the_job_deadline_ends_it() -> None:
    run = Run(CLASSIC, seed=0)
    assert (21.0, "Running", {}, {"migrate": 0, "istio-proxy": "running"}) in pod_states(run)
    assert not any(c.find("condition.complete") for c in run.cycles)
    assert first_time(run, "condition.failure_target") == 120.0
    assert run.trace.final_job.status.conditions[-1].reason == "DeadlineExceeded"


def test_keeps_running_must_name_a_regular_container() -> None:
    errors = validate(CLASSIC.replace("keeps-running: istio-proxy", "keeps-running: envoy"))
    assert errors == ['spec.template.metadata.annotations[sim.k8sjobs.io/keeps-running]: Invalid value: "envoy": '
                      "must name regular containers of the pod template (migrate, istio-proxy); not envoy"]
    assert validate(CLASSIC.replace("keeps-running: istio-proxy", "keeps-running: Istio_Proxy"))[0].endswith(
        "'Istio_Proxy' is not a container name (a DNS label such as istio-proxy)")


def test_failing_the_main_container_of_a_pod_with_a_classic_sidecar_leaves_the_pod_running() -> None:
    run = Run(CLASSIC, seed=0)
    pod = run.trace.pod_histories()[0].name
    forked = run.fork(3, "fail_pod", name=pod, exit_code=2)
    at = forked.cycle(3).t
    assert (at, "Running", {}, {"migrate": 2, "istio-proxy": "running"}) in pod_states(forked)
    # Nothing is counted until the Job's own deadline deletes the pod at 120 s.
    before_deadline = [c.after.failed for c in forked.cycles if c.t < 120.0]
    assert set(before_deadline) == {0}


POD_DEADLINE = """apiVersion: batch/v1
kind: Job
metadata: {name: report}
spec:
  backoffLimit: 2
  template:
    metadata:
      annotations:
        sim.k8sjobs.io/start-latency: "5s"
        sim.k8sjobs.io/duration: "60s"
    spec:
      activeDeadlineSeconds: 30
      restartPolicy: Never
      containers:
      - {name: main, image: busybox}
"""


def test_a_pods_own_deadline_fails_that_pod_and_the_job_retries_it() -> None:
    run = Run(POD_DEADLINE, seed=0)
    pods = run.trace.pod_histories()
    # Each pod is bound at creation (its startTime), killed at +30 s, stopped 1 s later.
    assert [(p.created, p.finished, p.outcome()) for p in pods] == [
        (0.0, 31.0, "failed"), (41.0, 72.0, "failed"), (92.0, 123.0, "failed")]
    last = run.trace.final_job.status
    assert (last.failed, last.conditions[-1].reason) == (3, "BackoffLimitExceeded")
    failed_pod = next(ch.obj for ch in run.trace.changes if ch.kind == "Pod" and ch.obj.status.phase == "Failed")
    assert (failed_pod.status.reason, failed_pod.status.message) == (
        "DeadlineExceeded", "Pod was active on the node longer than the specified deadline")
    assert failed_pod.status.start_time == 0.0
    assert [n.t for n in run.trace.notes if n.rule == "cluster.pod_deadline"] == [30.0, 71.0, 122.0]


def test_a_pod_deadline_counts_from_binding_so_a_slow_start_uses_it_up() -> None:
    slow = POD_DEADLINE.replace('start-latency: "5s"', 'start-latency: "40s"')
    first = Run(slow, seed=0).trace.pod_histories()[0]
    assert (first.started, first.finished, first.outcome()) == (None, 31.0, "failed")


def test_a_pod_that_finishes_before_its_deadline_is_not_touched() -> None:
    quick = POD_DEADLINE.replace('duration: "60s"', 'duration: "10s"')
    run = Run(quick, seed=0)
    assert run.trace.final_job.status.conditions[-1].type == "Complete"
    assert not [n for n in run.trace.notes if n.rule == "cluster.pod_deadline"]


def test_a_sidecar_stop_delay_must_be_a_duration() -> None:
    bad = SIDECAR_JOB.replace('sidecar-termination-delay: "5s"', 'sidecar-termination-delay: "soon"')
    (error,) = validate(bad)
    assert error.startswith("spec.template.metadata.annotations[sim.k8sjobs.io/sidecar-termination-delay]: "
                            'Invalid value: "soon"')
    with pytest.raises(SimulationError):
        Run(SIDECAR_JOB, seed=0).fork(1, "fail_pod", name="no-such-pod")
