"""The Job controller's rules beyond the shared conformance cases, as sentences.

Timing rules (batching, requeues, retries, expectations expiry) run through the full
simulation; single-sync rules through the controller with informers seeded directly.
"""

from __future__ import annotations

import pytest

from k8sjobs.api.apierrors import APIError, Reason
from k8sjobs.api.informer import Informer
from k8sjobs.api.types import JOB_TRACKING_FINALIZER
from k8sjobs.clock import FakeClock
from k8sjobs.conformance import _build
from k8sjobs.conformance.defaults import default_case_job
from k8sjobs.controller.controller_utils import (
    EXPECTATIONS_TIMEOUT,
    ControllerExpectations,
    FakePodControl,
    key_func,
)
from k8sjobs.controller.job.job_controller import (
    MAX_POD_CREATE_DELETE_PER_SYNC,
    MAX_UNCOUNTED_PODS,
    JobController,
)
from k8sjobs.hooks import Collector
from k8sjobs.sim import Simulation
from k8sjobs.trace import Run


def manifest(spec: str = "", annotations: str = "", name: str = "demo") -> str:
    """A Job manifest; ``spec`` lines are indented under spec, ``annotations`` under the template."""
    ann = f"\n    metadata:\n      annotations: {{{annotations}}}" if annotations else ""
    extra = "".join(f"\n  {line}" for line in spec.splitlines() if line.strip())
    return (f"apiVersion: batch/v1\nkind: Job\nmetadata: {{name: {name}}}\nspec:{extra}\n  template:{ann}\n"
            "    spec:\n      restartPolicy: Never\n      containers: [{name: main, image: busybox}]\n")


class _Client:
    def __init__(self, job):
        self.job = job
        self.writes = []

    def update_status(self, job):
        self.writes.append(job)
        self.job = job
        return job

    def get(self, ns, name):
        return self.job


class _Recorder:
    def __init__(self):
        self.events = []

    def event(self, obj, type, reason, message):
        self.events.append((type, reason, message))


def controller_with(job_doc: dict, pods: list[dict], *, fake: FakePodControl | None = None):
    """A controller whose caches hold ``job_doc`` and ``pods`` (compact case syntax)."""
    now = _build.NOW
    job = _build.ensure_selector(default_case_job(_build.job_from_case(job_doc, now)))
    jobs = Informer(None, "Job")
    jobs.replace_all([job])
    pod_inf = Informer(None, "Pod")
    ctrl = JobController(jobs=jobs, pods=pod_inf, pod_control=fake or FakePodControl(), job_client=_Client(job),
                         clock=FakeClock(now), recorder=_Recorder(), emit=Collector(), register_handlers=False)
    pod_inf.replace_all([_build.pod_from_case(p, job, now) for p in pods])
    return ctrl, job


def job_doc(**spec) -> dict:
    spec.setdefault("backoffLimit", 6)
    spec.setdefault("template", {"spec": {"restartPolicy": "Never"}})
    return {"metadata": {"name": "j", "namespace": "default"}, "spec": spec}


# ---------------------------------------------------------------------------- event handlers and queue


def syncs(run: Run) -> list[float]:
    return [c.t for c in run.cycles]


def test_a_new_job_is_synced_at_once_and_its_pods_events_one_second_later() -> None:
    run = Run(manifest("completions: 1\nparallelism: 1", 'sim.k8sjobs.io/duration: "10s"'), seed=0)
    times = syncs(run)
    assert times[0] == 0.0, "addJob enqueues immediately"
    # The pod is created at 0 and its ADDED event batches the next sync to t=1.
    assert times[1] == pytest.approx(1.0)


def test_a_burst_of_pod_events_within_the_batch_period_gives_one_sync() -> None:
    run = Run(manifest("completions: 20\nparallelism: 20", 'sim.k8sjobs.io/duration: "10s"'), seed=0)
    # 20 pods are created at t=0 (20 ADDED events); they are all folded into the sync at t=1.
    assert sum(1 for c in run.cycles if 0.0 < c.t <= 1.0) == 1


def test_a_spec_change_syncs_immediately_but_a_status_change_waits_one_second() -> None:
    sim = Simulation(manifest("completions: 5\nparallelism: 1", 'sim.k8sjobs.io/duration: "100s"'), seed=0)
    sim.run_until(50)
    before = sim.cycles
    sim.scale(parallelism=3)
    t0 = sim.now
    assert sim.next_cycle()
    assert sim.cycles == before + 1 and sim.now == t0, "a generation change is synced at once"
    log = sim.controller.queue.log
    status_only = [entry for entry in log if entry[1] == "add_after" and entry[3] == 1.0]
    assert status_only, "status writes and pod events are batched by 1 s"


@pytest.mark.parametrize(("failures", "delays"), [
    (1, [1.0]), (3, [1.0, 2.0, 4.0]), (8, [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 60.0, 60.0]),
], ids=["one failed sync is retried after 1 s", "three are retried after 1, 2 and 4 s",
        "the retry delay doubles up to one minute"])
def test_a_sync_error_is_retried_with_exponential_backoff(failures: int, delays: list[float]) -> None:
    sim = Simulation(manifest("completions: 1\nparallelism: 1"), seed=0)
    sim.store.faults.status_conflicts = failures
    sim.run_until(200)
    retries = [d for (_, verb, _, d) in sim.controller.queue.log if verb == "add_rate_limited"]
    assert retries == delays
    assert sim.controller.queue.num_requeues(sim.job_key) == 0, "a successful sync forgets the failures"


def test_a_pod_that_appears_already_deleting_is_not_taken_as_a_creation() -> None:
    ctrl, job = controller_with(job_doc(parallelism=1, completions=1), [])
    key = key_func(job)
    ctrl.expectations.expect_creations(key, 1)
    pod = _build.pod_from_case({"name": "p", "phase": "Running", "terminating": True}, job, _build.NOW)
    ctrl.add_pod(pod)
    exp = ctrl.expectations.get_expectations(key)
    assert (exp.add, exp.dele) == (1, -1)


def test_an_orphan_pod_with_the_tracking_finalizer_loses_it() -> None:
    sim = Simulation(manifest("completions: 1\nparallelism: 1", 'sim.k8sjobs.io/duration: "1000s"'), seed=0)
    sim.run_until(5)
    pod = sim.pods()[0]
    sim.delete_job(propagation="Orphan")
    sim.run_until(10)
    orphan = sim.store.get("Pod", pod.metadata.namespace, pod.metadata.name)
    assert not orphan.metadata.owner_references
    assert JOB_TRACKING_FINALIZER not in orphan.metadata.finalizers


# ---------------------------------------------------------------------------- expectations


def test_expectations_older_than_five_minutes_count_as_satisfied() -> None:
    clock = FakeClock(0)
    exp = ControllerExpectations(clock)
    exp.expect_creations("ns/j", 3)
    clock.step(EXPECTATIONS_TIMEOUT)
    assert not exp.satisfied_expectations("ns/j"), "exactly five minutes is not yet expired"
    clock.step(0.001)
    assert exp.satisfied_expectations("ns/j")


def test_a_failed_create_lowers_the_creation_expectation_at_once() -> None:
    fake = FakePodControl(err=APIError(Reason.INTERNAL, "boom"))
    ctrl, job = controller_with(job_doc(parallelism=3, completions=3), [], fake=fake)
    ctrl.sync_job(key_func(job))
    exp = ctrl.expectations.get_expectations(key_func(job))
    # One create was attempted and failed; the two skipped by slow start are observed too.
    assert (len(fake.templates), exp.add) == (1, 0)


def test_unmet_expectations_block_creating_but_the_status_is_still_counted() -> None:
    ctrl, job = controller_with(job_doc(parallelism=2, completions=5),
                                [{"name": "a", "phase": "Succeeded", "finishedSecondsAgo": 5}])
    key = key_func(job)
    ctrl.expectations.expect_creations(key, 1)
    ctrl.sync_job(key)
    assert ctrl.pod_control.templates == []
    assert ctrl.job_client.job.status.succeeded == 1
    assert "expectations.unsatisfied" in ctrl.emit.kinds()


def test_informer_lag_keeps_expectations_unmet_until_the_events_arrive() -> None:
    run = Run(manifest("completions: 20\nparallelism: 5", 'sim.k8sjobs.io/duration: "10s..20s"'), seed=0,
              informer_lag=3.0)
    blocked = [c for c in run.cycles if not c.satisfied]
    assert blocked, "with a 3 s lag some syncs come before the new pods are observed"
    assert all(c.created == () for c in blocked)


# ---------------------------------------------------------------------------- caps and precedence


def test_a_sync_that_deletes_pods_creates_none() -> None:
    pods = [{"name": f"r{i}", "phase": "Running", "index": 0} for i in range(2)]
    ctrl, job = controller_with(job_doc(parallelism=3, completions=3, completionMode="Indexed"), pods)
    ctrl.sync_job(key_func(job))
    # Index 0 is duplicated: one duplicate is deleted, and indexes 1 and 2 wait for the next sync.
    assert len(ctrl.pod_control.deleted) == 1 and ctrl.pod_control.templates == []


def test_one_sync_creates_at_most_500_pods() -> None:
    ctrl, job = controller_with(job_doc(parallelism=800, completions=800), [])
    ctrl.sync_job(key_func(job))
    assert len(ctrl.pod_control.templates) == MAX_POD_CREATE_DELETE_PER_SYNC


def test_one_sync_deletes_at_most_500_surplus_pods() -> None:
    pods = [{"name": f"r{i:03}", "phase": "Running"} for i in range(600)]
    ctrl, job = controller_with(job_doc(parallelism=0, completions=600), pods)
    ctrl.sync_job(key_func(job))
    assert len(ctrl.pod_control.deleted) == MAX_POD_CREATE_DELETE_PER_SYNC


def test_at_most_500_finished_pods_are_counted_per_sync_and_the_rest_next_time() -> None:
    pods = [{"name": f"s{i:03}", "phase": "Succeeded", "finishedSecondsAgo": 5} for i in range(700)]
    ctrl, job = controller_with(job_doc(parallelism=700, completions=700), pods)
    ctrl.sync_job(key_func(job))
    assert ctrl.job_client.job.status.succeeded == MAX_UNCOUNTED_PODS
    assert "track.cap" in ctrl.emit.kinds()
    assert not any(c.type == "Complete" for c in ctrl.job_client.job.status.conditions)


def test_the_succeeded_and_failed_counters_never_go_backwards() -> None:
    run = Run(manifest("completions: 30\nparallelism: 6\nbackoffLimit: 100",
                       'sim.k8sjobs.io/duration: "5s..20s", sim.k8sjobs.io/fail-rate: "0.3"'), seed=4)
    pairs = [(c.after.succeeded, c.after.failed) for c in run.cycles]
    assert all(a[0] <= b[0] and a[1] <= b[1] for a, b in zip(pairs, pairs[1:]))
    assert pairs[-1][0] == 30


# ---------------------------------------------------------------------------- conditions and lifecycle


def test_the_failure_target_comes_before_failed_and_failed_waits_for_terminating_pods() -> None:
    run = Run(manifest("completions: 3\nparallelism: 3\nactiveDeadlineSeconds: 20",
                       'sim.k8sjobs.io/duration: "100s", sim.k8sjobs.io/termination-delay: "5s"'), seed=0)
    target = next(c for c in run.cycles if "condition.failure_target" in c.rules())
    failed = next(c for c in run.cycles if "condition.failed" in c.rules())
    assert target.index < failed.index
    assert failed.t >= target.t + 5, "Failed is added only after the deleted pods stopped"
    assert [c.type for c in run.trace.final_job.status.conditions] == ["FailureTarget", "Failed"]


def test_a_suspended_job_deletes_its_pods_without_counting_them_failed_and_restarts_its_clock() -> None:
    sim = Simulation(manifest("completions: 2\nparallelism: 2\nactiveDeadlineSeconds: 60",
                              'sim.k8sjobs.io/duration: "1000s"'), seed=0)
    sim.run_until(10)
    sim.suspend()
    sim.run_until(40)
    job = sim.job
    assert job.status.failed == 0 and job.status.active == 0
    sim.resume()
    sim.run_until(41)
    assert sim.job.status.start_time == pytest.approx(40.0), "activeDeadlineSeconds counts from the resume"
    sim.run_until(95)
    assert not any(c.type == "FailureTarget" for c in sim.job.status.conditions), "40 + 60 s is not reached"


def test_a_suspended_job_never_hits_its_deadline_but_the_resume_sync_still_sees_the_old_start_time() -> None:
    # Upstream checks the deadline before it resets startTime on resume (reference section 13):
    # resumed after old startTime + activeDeadlineSeconds, the Job fails in the resume sync.
    sim = Simulation(manifest("completions: 2\nparallelism: 2\nactiveDeadlineSeconds: 60",
                              'sim.k8sjobs.io/duration: "1000s"'), seed=0)
    sim.run_until(10)
    sim.suspend()
    sim.run_until(200)
    assert not any(c.type == "FailureTarget" for c in sim.job.status.conditions), "no deadline while suspended"
    sim.resume()
    sim.run_until(201)
    reasons = [(c.type, c.reason) for c in sim.job.status.conditions]
    assert ("FailureTarget", "DeadlineExceeded") in reasons
    assert ("Suspended", "JobSuspended") in reasons, "the decision skips the resume: Suspended stays True"


def test_a_running_job_is_requeued_for_the_moment_its_deadline_passes() -> None:
    run = Run(manifest("completions: 1\nparallelism: 1\nactiveDeadlineSeconds: 45",
                       'sim.k8sjobs.io/duration: "1000s"'), seed=0)
    assert 45.0 in [c.t for c in run.cycles]
    assert "decision.deadline_exceeded" in run.cycle(run.trace.cycle_at_time(45.0)).rules()


def test_a_job_managed_by_another_controller_is_never_touched() -> None:
    run = Run(manifest("completions: 1\nparallelism: 1\nmanagedBy: example.com/queue"), seed=0)
    assert run.trace.pod_histories() == []
    assert {c.headline.rule for c in run.cycles} == {"sync.skip.managed_by"}


def test_a_finished_job_with_a_ttl_is_deleted_that_many_seconds_later_pods_first() -> None:
    run = Run(manifest("completions: 1\nparallelism: 1\nttlSecondsAfterFinished: 30",
                       'sim.k8sjobs.io/duration: "10s"'), seed=0)
    finished = run.trace.pod_histories()[0].finished
    deleted = [n for n in run.trace.notes if n.rule == "ttl.deleted"]
    assert deleted and deleted[0].t == pytest.approx(finished + 30, abs=1.01)
    assert run.trace.final_job is None and run.sim.store.count("Pod") == 0


# ---------------------------------------------------------------------------- reasons


def test_every_create_delete_wait_and_condition_carries_a_rule_and_a_sentence() -> None:
    base = Run(manifest("completions: 6\nparallelism: 3\nbackoffLimit: 2",
                        'sim.k8sjobs.io/duration: "10s", sim.k8sjobs.io/fail-rate: "0.5"'), seed=2)
    run = base.fork(3, "scale", parallelism=1)
    decisions = [d for c in run.cycles for d in c.decisions]
    families = {"create.slow_start_batch", "delete.scale_down", "backoff.wait", "condition.failure_target"}
    seen = {d.rule for d in decisions}
    assert families <= seen, f"missing {families - seen}"
    for d in decisions:
        assert d.rule and d.reason.strip(), f"{d.rule} has no sentence"
    batch = next(d for d in decisions if d.rule == "create.slow_start_batch")
    assert batch.reason.startswith("slow start: batch 1 of size 1")
    deleted = next(d for d in decisions if d.rule == "delete.scale_down")
    pod = deleted.fields["pod"]
    assert deleted.reason.startswith(f"deleted {pod}: "), deleted.reason


def test_the_controller_records_the_events_upstream_records() -> None:
    run = Run(manifest("completions: 2\nparallelism: 2", 'sim.k8sjobs.io/duration: "10s"'), seed=0)
    reasons = [e.reason for e in run.trace.events]
    assert reasons == ["SuccessfulCreate", "SuccessfulCreate", "Completed"]
    assert run.trace.events[0].message.startswith("Created pod: demo-")


def test_finished_and_counted_pods_are_set_aside_from_the_pods_a_sync_reads() -> None:
    from k8sjobs.controller.job.job_controller import JOB_POD_INDEX, SETTLED_FAILED, SETTLED_SUCCEEDED

    run = Run(manifest("completions: 40\nparallelism: 10\nbackoffLimit: 100",
                       'sim.k8sjobs.io/duration: "5s", sim.k8sjobs.io/fail-rate: "0.2"'), seed=1)
    pods = run.sim.pod_informer
    uid = run.trace.job_uid
    status = run.trace.final_job.status
    assert pods.by_index(JOB_POD_INDEX, uid) == [], "no pod of a finished Job is still in play"
    assert pods.index_size(JOB_POD_INDEX, uid + SETTLED_SUCCEEDED) == status.succeeded == 40
    assert pods.index_size(JOB_POD_INDEX, uid + SETTLED_FAILED) == status.failed > 0
    # The observed pod count still includes them, as kubectl would list them.
    last_sync = [c for c in run.cycles if c.observed][-1]
    assert last_sync.observed["pods"] == 40 + status.failed
