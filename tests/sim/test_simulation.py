"""The simulation engine seen from outside: the event heap, determinism, actions and workloads.

Every run is simulated time only (seed 0 and 3 nodes unless a test says otherwise). Tests look
at what a learner sees: the recorded cycles, decisions, events, pod histories and the Job
status. References: job-controller.md §3 (queueing and the 1 s batch), §4 (expectations),
§7 (manageJob, slow start), §9 (backoff), §13 (suspend/resume), §16 (events); issue 8 for the
workload vocabulary and the actions.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from k8sjobs.api.errors import InvalidError
from k8sjobs.clock import EventHeap, FakeClock
from k8sjobs.cluster.workload import crash_loop_backoff
from k8sjobs.commands.run import run_to_json
from k8sjobs.sim import SimConfig, Simulation, SimulationError
from k8sjobs.trace import Recorder, Run, Trace, render_trace

# ----------------------------------------------------------------------------- one-line builders


def job(completions: int | None = 2, parallelism: int = 2, duration: str = "10s", *, name: str = "j",
        restart: str = "Never", ann: dict[str, str] | None = None, **spec: Any) -> dict:
    annotations = {"sim.k8sjobs.io/start-latency": "1s", "sim.k8sjobs.io/duration": duration, **(ann or {})}
    body = {"parallelism": parallelism, **({"completions": completions} if completions is not None else {}), **spec,
            "template": {"metadata": {"annotations": annotations},
                         "spec": {"restartPolicy": restart, "containers": [{"name": "main", "image": "busybox"}]}}}
    return {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": name}, "spec": body}


def watch(manifest: dict, seed: int = 0, **settings: Any) -> tuple[Simulation, Recorder]:
    sim = Simulation(manifest, SimConfig(seed=seed, **settings))
    return sim, Recorder(sim)


def finish(sim: Simulation, rec: Recorder, until: float = 24 * 3600.0) -> Trace:
    sim.run_until_finished(max_time=until)
    return rec.finish()


def histories(tr: Trace) -> dict[str, Any]:
    return {h.name: h for h in tr.pod_histories()}


def rules(tr: Trace) -> list[str]:
    return [d.rule for c in tr.cycles for d in c.decisions]


def notes(tr: Trace, rule: str) -> list[Any]:
    return [n for n in tr.notes if n.rule == rule]


def conditions(sim: Simulation) -> list[tuple[str, str, str]]:
    return [(c.type, c.status, c.reason) for c in sim.job.status.conditions]


def world(sim: Simulation) -> tuple:
    """Everything an action could have changed."""
    job = sim.job
    return (len(sim.store.write_log), len(sim.heap), len(sim.actions), job.metadata.resource_version,
            sim.store.faults.fail_next_creates, sim.store.faults.pod_quota, sim.store.faults.status_conflicts,
            sim.pod_informer.lag)


# ----------------------------------------------------------------------------- the event heap


def test_the_heap_runs_events_by_time_then_priority_then_scheduling_order():
    clock = FakeClock()
    heap = EventHeap(clock)
    ran: list[tuple[float, str]] = []
    for t, prio, label in [(2, 0, "late"), (1, 20, "sync"), (1, 10, "informer"), (1, 0, "kubelet-a"),
                           (1, 0, "kubelet-b"), (1, 15, "queue")]:
        heap.call_at(t, lambda label=label: ran.append((clock.now(), label)), priority=prio, label=label)
    while heap.run_next() is not None:
        pass
    assert ran == [(1, "kubelet-a"), (1, "kubelet-b"), (1, "informer"), (1, "queue"), (1, "sync"), (2, "late")]


def test_an_event_scheduled_in_the_past_runs_now_and_time_never_goes_back():
    clock = FakeClock(10)
    heap = EventHeap(clock)
    seen: list[float] = []
    heap.call_at(3, lambda: seen.append(clock.now()))
    heap.call_later(-5, lambda: seen.append(clock.now()))
    heap.run_until(10)
    assert seen == [10, 10]
    with pytest.raises(ValueError, match="cannot go back"):
        clock.set(9)


def test_two_heaps_keep_separate_sequence_counters():
    clock_a, clock_b = FakeClock(), FakeClock()
    a, b = EventHeap(clock_a), EventHeap(clock_b)
    order: list[str] = []
    b.call_at(1, lambda: order.append("b1"))
    a.call_at(1, lambda: order.append("a1"))
    b.call_at(1, lambda: order.append("b2"))
    a.call_at(1, lambda: order.append("a2"))
    a.run_until(1)
    b.run_until(1)
    assert order == ["a1", "a2", "b1", "b2"]


def test_the_first_sync_runs_at_creation_time_and_sees_the_job_the_informer_delivered():
    sim, rec = watch(job())
    tr = finish(sim, rec, until=0)
    assert [c.t for c in tr.cycles] == [0.0]
    assert tr.cycles[0].created and tr.cycles[0].after.active == 2


def test_a_pod_event_syncs_the_job_one_second_later():
    sim, rec = watch(job(completions=1, parallelism=1, duration="10s"))
    tr = finish(sim, rec)
    pod = tr.pod_histories()[0]
    assert (pod.started, pod.finished) == (1.0, 11.0)
    assert [c.t for c in tr.cycles] == [0.0, 1.0, 2.0, 12.0, 13.0]


# ----------------------------------------------------------------------------- determinism


SEEDED = job(completions=6, parallelism=3, duration="5s..25s", ann={"sim.k8sjobs.io/fail-rate": "0.3"},
             backoffLimit=20)


def json_bytes(run: Run) -> bytes:
    return json.dumps(run_to_json(run), indent=1).encode()


def test_the_same_manifest_and_seed_give_the_same_trace_text_and_json_twice_in_one_process():
    first, second = Run(SEEDED, seed=7), Run(SEEDED, seed=7)
    assert render_trace(first.trace) == render_trace(second.trace)
    assert json_bytes(first) == json_bytes(second)


def test_another_seed_gives_another_run():
    assert render_trace(Run(SEEDED, seed=7).trace) != render_trace(Run(SEEDED, seed=8).trace)
    assert json_bytes(Run(SEEDED, seed=7)) != json_bytes(Run(SEEDED, seed=8))


def test_two_simulations_in_one_process_do_not_influence_each_other():
    a, rec_a = watch(SEEDED, seed=3)
    b, rec_b = watch(SEEDED, seed=3)
    for _ in range(40):  # interleave their steps
        a.step()
        b.step()
    ta, tb = finish(a, rec_a), finish(b, rec_b)
    assert render_trace(ta) == render_trace(tb) == render_trace(Run(SEEDED, seed=3).trace)


# ----------------------------------------------------------------------------- actions


def test_fail_next_creates_gives_failed_create_events_skips_the_rest_of_slow_start_and_retries_in_one_second():
    sim, rec = watch(job(completions=8, parallelism=8))
    sim.fail_next_creates(1)
    tr = finish(sim, rec)
    first = tr.cycles[0]
    assert [(e.type, e.reason, e.message) for e in first.events] == [
        ("Warning", "FailedCreate", "Error creating: Internal error occurred: injected create failure (k8sjobs fault)")]
    stop = first.find("create.slow_start_stop")[0]
    assert stop.fields["skipped"] == 7
    assert (first.after.active, first.created) == (0, ())
    retry = notes(tr, "sync.error")[0]
    assert (retry.t, retry.fields["retry_in"]) == (0.0, 1.0)
    second = tr.cycles[1]
    assert (second.t, len(second.created)) == (1.0, 8)
    assert [d.fields["size"] for d in second.find("create.slow_start_batch")] == [1, 2, 4, 1]
    assert tr.final_job.status.succeeded == 8


def test_a_pod_quota_gives_exceeded_quota_events_and_fewer_pods_than_parallelism():
    sim, rec = watch(job(completions=6, parallelism=6, duration="20s"))
    sim.set_pod_quota(4)
    sim.run_until(15)
    assert sim.job.status.active == 4
    assert sum(p.status.phase == "Running" for p in sim.pods()) == 4
    sim.set_pod_quota(None)
    tr = finish(sim, rec)
    quota = [e for e in tr.events if e.reason == "FailedCreate"]
    assert quota and all("exceeded quota: pod-quota, requested: pods=1, used: pods=4, limited: pods=4" in e.message
                         for e in quota)
    assert max(c.after.active for c in tr.cycles) == 4
    assert tr.final_job.status.succeeded == 6


def test_a_clone_keeps_every_fault_in_its_own_field_and_runs_as_the_original_does():
    """A fork or a rewind copies the injected faults field by field: a quota stays a quota (its name and
    resource too), pending conflicts and failing creations stay pending, a terminating namespace stays."""
    sim = Simulation(job(completions=6, parallelism=6, duration="20s"), SimConfig(seed=3))
    sim.set_pod_quota(4)
    sim.set_status_conflicts(2)
    sim.fail_next_creates(1)
    faults = sim.store.faults
    faults.pod_quota_name, faults.pod_quota_resource, faults.pod_quota_outside = "team-quota", "count/pods", 1
    faults.terminating_namespaces.add("gone")
    faults.reactors.append(lambda verb, kind, obj: None)
    clone = sim.clone()
    copied = clone.store.faults
    assert copied is not faults and copied.reactors is not faults.reactors
    assert (copied.fail_next_creates, copied.pod_quota, copied.pod_quota_name, copied.pod_quota_resource,
            copied.pod_quota_outside, copied.terminating_namespaces, copied.status_conflicts, len(copied.reactors)) \
        == (1, 4, "team-quota", "count/pods", 1, {"gone"}, 2, 1)
    for s in (sim, clone):
        s.run_until(15)
    assert clone.job.status == sim.job.status and clone.job.status.active == 3
    assert [e.message for e in clone.store.list("Event")] == [e.message for e in sim.store.list("Event")]
    assert any("exceeded quota: team-quota, requested: count/pods=1" in e.message for e in clone.store.list("Event"))


def test_informer_lag_leaves_expectations_visibly_unsatisfied_for_a_while():
    sim, rec = watch(job(completions=6, parallelism=3, duration="5s..15s"))
    sim.set_informer_lag(5)
    tr = finish(sim, rec)
    waiting = [c for c in tr.cycles if not c.satisfied]
    assert waiting, "no cycle waited for the informer"
    for c in waiting:
        assert c.expectations[0] > 0  # creations still expected when the sync started
        assert c.created == () and c.deleted == ()
        assert "expectations.unsatisfied" in c.rules()
    assert tr.cycles[-1].satisfied
    assert tr.final_job.status.succeeded >= 6


def test_status_conflicts_make_the_sync_fail_and_retry_after_one_two_and_four_seconds():
    sim, rec = watch(job(completions=1, parallelism=1, duration="30s"))
    sim.set_status_conflicts(3)
    tr = finish(sim, rec)
    errors = notes(tr, "sync.error")
    assert [(n.t, n.fields["retry_in"]) for n in errors] == [(0.0, 1.0), (1.0, 2.0), (3.0, 4.0)]
    assert all("Operation cannot be fulfilled on jobs.batch" in n.fields["error"] for n in errors)
    assert [c.t for c in tr.cycles[:4]] == [0.0, 1.0, 3.0, 7.0]
    assert [c.error is not None for c in tr.cycles[:4]] == [True, True, True, False]
    assert tr.final_job.status.succeeded == 1


def test_suspend_deletes_the_pods_without_counting_them_and_resume_restarts_the_clock():
    sim, rec = watch(job(completions=4, parallelism=2, duration="20s"))
    sim.run_until(5)
    sim.suspend()
    sim.run_until(30)
    assert sim.pods() == []
    assert sim.job.status.failed == 0
    assert conditions(sim) == [("Suspended", "True", "JobSuspended")]
    sim.resume()
    tr = finish(sim, rec)
    assert conditions(sim) == [("Suspended", "False", "JobResumed"), ("SuccessCriteriaMet", "True", "CompletionsReached"),
                               ("Complete", "True", "CompletionsReached")]
    assert tr.final_job.status.start_time == 30.0
    assert (tr.final_job.status.succeeded, tr.final_job.status.failed) == (4, 0)
    reasons = [e.reason for e in tr.events]
    assert reasons.index("SuccessfulDelete") < reasons.index("Suspended") < reasons.index("Resumed")
    assert [a.name for a in sim.actions] == ["suspend", "resume"]


def test_scaling_down_deletes_pods_in_deletion_order_and_never_creates_in_that_sync():
    sim, rec = watch(job(completions=6, parallelism=3, duration="20s"))
    sim.run_until(5)
    sim.scale(parallelism=1)
    assert sim.job.metadata.generation == 2
    tr = finish(sim, rec)
    down = next(c for c in tr.cycles if c.find("scale_down"))
    decision = down.find("scale_down")[0]
    assert (decision.fields["active"], decision.fields["want"], len(down.deleted)) == (3, 1, 2)
    assert list(down.deleted) == decision.fields["to_delete"]
    assert down.created == ()
    assert [e.reason for e in down.events] == ["SuccessfulDelete", "SuccessfulDelete"]
    assert max(c.after.active for c in tr.cycles if c.t > down.t) == 1
    assert tr.final_job.status.succeeded == 6


def test_an_elastic_indexed_job_scaled_down_deletes_its_highest_indexes():
    sim, rec = watch(job(completions=4, parallelism=4, duration="20s", completionMode="Indexed"))
    sim.run_until(5)
    sim.scale(parallelism=2, completions=2)
    tr = finish(sim, rec)
    down = next(c for c in tr.cycles if c.deleted)
    assert sorted(h.index for h in tr.pod_histories() if h.name in down.deleted) == [2, 3]
    assert (tr.final_job.status.completed_indexes, tr.final_job.status.succeeded) == ("0,1", 2)


def test_editing_the_spec_bumps_the_generation_and_the_next_sync_follows_it():
    sim, rec = watch(job(completions=4, parallelism=2, duration="20s"))
    sim.run_until(5)
    sim.edit(job(completions=4, parallelism=4, duration="20s"))
    assert (sim.job.metadata.generation, sim.job.spec.parallelism) == (2, 4)
    tr = finish(sim, rec)
    grow = next(c for c in tr.cycles if c.t == 5.0)
    assert len(grow.created) == 2
    assert tr.final_job.status.succeeded == 4
    assert sim.actions[-1].name == "edit"


@pytest.mark.parametrize(("propagation", "pods_left"), [
    pytest.param("Background", [], id="background deletion removes the job and then its pods"),
    pytest.param("Foreground", [], id="foreground deletion removes the pods and then the job"),
])
def test_deleting_a_running_job_removes_it_and_its_pods(propagation, pods_left):
    sim, rec = watch(job(completions=4, parallelism=2, duration="20s"))
    sim.run_until(5)
    sim.delete_job(propagation)
    tr = finish(sim, rec)
    assert sim.job is None and tr.final_job is None
    assert [p.metadata.name for p in sim.store.list("Pod")] == pods_left
    assert "sync.skip.not_found" in rules(tr)
    assert render_trace(tr).endswith('jobs.batch "j" not found (deleted by the end of the run)\n')


def test_orphan_deletion_leaves_the_pods_running_to_the_end_without_owner_or_finalizer():
    sim, rec = watch(job(completions=4, parallelism=2, duration="20s"))
    sim.run_until(5)
    sim.delete_job("Orphan")
    finish(sim, rec)
    pods = sim.store.list("Pod")
    assert [(p.status.phase, p.metadata.owner_references, p.metadata.finalizers) for p in pods] == [
        ("Succeeded", (), ()), ("Succeeded", (), ())]


def test_the_foreground_job_waits_for_its_pods_to_stop():
    sim, _ = watch(job(completions=4, parallelism=2, duration="20s", ann={"sim.k8sjobs.io/termination-delay": "5s"}))
    sim.run_until(5)
    sim.delete_job("Foreground")
    assert sim.job.metadata.deletion_timestamp == 5.0
    sim.run_until(9)
    assert sim.job is not None
    sim.run_until(11)
    assert sim.job is None


# ----------------------------------------------------------------------------- actions on pods and nodes


def test_fail_pod_fails_a_running_pod_with_the_exit_code_and_the_condition():
    sim, rec = watch(job(completions=2, parallelism=2, duration="100s"))
    sim.run_until(5)
    name = sim.pods()[0].metadata.name
    sim.fail_pod(name, exit_code=42, condition="DisruptionTarget")
    pod = sim.pod(name)
    term = pod.status.container_statuses[0].state.terminated
    assert (pod.status.phase, term.exit_code, term.finished_at) == ("Failed", 42, 5.0)
    assert ("DisruptionTarget", "True") in [(c.type, c.status) for c in pod.status.conditions]
    tr = finish(sim, rec)
    replacement = [h for h in tr.pod_histories() if h.created > 5]
    assert len(replacement) == 1 and replacement[0].created == 15.0  # one failure: 10 s backoff
    assert (tr.final_job.status.failed, tr.final_job.status.succeeded) == (1, 2)
    assert [a.describe() for a in sim.actions] == [
        f"fail_pod(condition='DisruptionTarget', container=None, exit_code=42, name='{name}')"]


def test_evict_pod_adds_disruption_target_deletes_gracefully_and_the_pod_is_replaced():
    sim, rec = watch(job(completions=2, parallelism=2, duration="30s", ann={"sim.k8sjobs.io/termination-delay": "5s"}))
    sim.run_until(5)
    name = sim.pods()[0].metadata.name
    sim.evict_pod(name)
    pod = sim.pod(name)
    assert (pod.metadata.deletion_timestamp, pod.metadata.deletion_grace_period_seconds) == (35.0, 30)
    assert [(c.type, c.reason) for c in pod.status.conditions if c.type == "DisruptionTarget"] == [
        ("DisruptionTarget", "EvictionByEvictionAPI")]
    tr = finish(sim, rec)
    h = histories(tr)[name]
    assert (h.deleting, h.finished, h.exit_code, h.disruption) == (5.0, 10.0, 143, "EvictionByEvictionAPI")
    assert [x.created for x in tr.pod_histories() if x.created > 0] == [15.0]
    assert (tr.final_job.status.failed, tr.final_job.status.succeeded) == (1, 2)


def test_delete_pod_is_a_graceful_delete_and_the_job_replaces_the_pod():
    sim, rec = watch(job(completions=2, parallelism=2, duration="30s"))
    sim.run_until(5)
    name = sim.pods()[0].metadata.name
    sim.delete_pod(name)
    assert sim.pod(name).metadata.deletion_timestamp == 35.0
    tr = finish(sim, rec)
    assert histories(tr)[name].deleting == 5.0
    assert tr.final_job.status.succeeded == 2
    assert len(tr.pod_histories()) == 3


def test_lose_node_fails_its_pods_at_the_first_pod_gc_pass_after_the_quarantine_and_they_are_replaced():
    sim, rec = watch(job(completions=3, parallelism=3, duration="100s"), nodes=2, node_lost_delay=40)
    sim.run_until(5)
    victims = sim.cluster.on_node()["node-1"]
    sim.lose_node("node-1")
    # Pod GC passes every 20 s: the one at 20 s notices the node and quarantines it until 60 s.
    sim.run_until(59)
    assert all(sim.pod(n).status.phase == "Running" for n in victims)
    tr = finish(sim, rec)
    for n in victims:
        h = histories(tr)[n]
        # Pod GC patches the phase only: no kubelet reported the containers' end.
        assert (h.finished, h.phase, h.exit_code, h.disruption) == (60.0, "Failed", None, "DeletionByPodGC")
    assert [n.t for n in notes(tr, "cluster.pod_gc")] == [60.0] * len(victims)
    replacements = [h for h in tr.pod_histories() if h.created > 5]
    assert len(replacements) == len(victims) and all(h.node != "node-1" for h in replacements)
    assert tr.final_job.status.failed == len(victims)


@pytest.mark.parametrize(("lost_at", "gc_at"), [(0.5, 60.0), (19.9, 60.0), (20.5, 80.0), (39.0, 80.0)])
def test_the_quarantine_starts_at_the_pod_gc_pass_that_notices_the_node_is_gone(lost_at, gc_at):
    sim, rec = watch(job(completions=1, parallelism=1, duration="500s"), nodes=1, node_lost_delay=40)
    sim.run_until(lost_at)
    sim.lose_node("node-1")
    tr = finish(sim, rec)
    assert [n.t for n in notes(tr, "cluster.pod_gc")][:1] == [gc_at]


def test_add_node_gives_the_scheduler_room_for_a_pending_pod():
    sim, rec = watch(job(completions=2, parallelism=2, duration="20s"), nodes=1, pods_per_node=1)
    sim.run_until(5)
    waiting = [p.metadata.name for p in sim.pods() if not p.spec.node_name]
    assert len(waiting) == 1
    assert [c.reason for c in sim.pod(waiting[0]).status.conditions] == ["Unschedulable"]
    sim.add_node()
    tr = finish(sim, rec)
    late = histories(tr)[waiting[0]]
    assert (late.node, late.scheduled) == ("node-2", 5.0)
    assert [a.describe() for a in sim.actions] == ["add_node(name='node-2', pods=None)"]
    assert tr.final_job.status.succeeded == 2


def test_the_scheduler_picks_the_node_with_the_most_free_slots():
    sim, rec = watch(job(completions=3, parallelism=3, duration="20s"), nodes=1, pods_per_node=1)
    sim.run_until(5)
    sim.add_node("small", pods=1)
    sim.add_node("big", pods=5)
    tr = finish(sim, rec)
    assert sorted(h.node for h in tr.pod_histories()) == ["big", "big", "node-1"]


@pytest.mark.parametrize(("act", "message"), [
    pytest.param(lambda s, p: s.fail_pod("nope"), 'pod "nope" not found; pods of this Job: ', id="fail_pod of an unknown pod"),
    pytest.param(lambda s, p: s.fail_pod(p, exit_code=256), "exit_code: must be an integer between 0 and 255, got 256",
                 id="fail_pod with an exit code too big"),
    pytest.param(lambda s, p: s.fail_pod(p, exit_code=True), "exit_code: must be an integer", id="fail_pod with a boolean"),
    pytest.param(lambda s, p: s.evict_pod("nope"), 'pod "nope" not found', id="evict_pod of an unknown pod"),
    pytest.param(lambda s, p: s.delete_pod("nope"), 'pod "nope" not found', id="delete_pod of an unknown pod"),
    pytest.param(lambda s, p: s.lose_node("node-9"), "node 'node-9' is not a ready node; ready nodes: node-1, node-2",
                 id="lose_node of an unknown node"),
    pytest.param(lambda s, p: s.add_node("node-1"), 'node "node-1" already exists', id="add_node of an existing node"),
])
def test_bad_pod_and_node_action_input_is_refused_and_the_run_is_unchanged(act, message):
    sim, rec = watch(job(completions=2, parallelism=2, duration="20s"), nodes=2)
    sim.run_until(5)
    name = sim.pods()[1].metadata.name
    before = world(sim)
    with pytest.raises(SimulationError) as info:
        act(sim, name)
    assert message in str(info.value)
    assert world(sim) == before
    tr = finish(sim, rec)
    assert tr.final_job.status.succeeded == 2  # the pods still run to their end


def test_a_pod_that_has_finished_cannot_be_failed_again():
    sim, _ = watch(job(completions=1, parallelism=1, duration="5s"))
    sim.run_until(20)
    name = sim.pods()[0].metadata.name
    with pytest.raises(SimulationError, match=f'pod "{name}" has already finished \\(Succeeded\\)'):
        sim.fail_pod(name)


def test_an_evicted_pod_cannot_be_evicted_twice():
    sim, _ = watch(job(completions=1, parallelism=1, duration="50s"))
    sim.run_until(5)
    name = sim.pods()[0].metadata.name
    sim.evict_pod(name)
    with pytest.raises(SimulationError, match="is already being deleted"):
        sim.evict_pod(name)


def test_foreground_deletion_of_a_job_whose_pods_have_all_finished_succeeds_and_is_recorded():
    sim, _ = watch(job(completions=1, parallelism=1, duration="5s", ann={"sim.k8sjobs.io/fail-rate": "1"},
                       backoffLimit=0))
    sim.run_until_finished()
    sim.delete_job("Foreground")
    assert sim.job is None
    assert [a.name for a in sim.actions] == ["delete_job"]


# ----------------------------------------------------------------------------- bad action input


@pytest.mark.parametrize(("act", "error", "message"), [
    pytest.param(lambda s: s.fail_next_creates(-1), SimulationError, "n: must be an integer between 0 and 100000, got -1",
                 id="fail_next_creates refuses a negative count"),
    pytest.param(lambda s: s.fail_next_creates(True), SimulationError, "n: must be an integer",
                 id="fail_next_creates refuses a boolean"),
    pytest.param(lambda s: s.set_pod_quota(-2), SimulationError, "pods: must be a non-negative integer or None, got -2",
                 id="set_pod_quota refuses a negative quota"),
    pytest.param(lambda s: s.set_informer_lag(-1), SimulationError, "seconds: must be between 0 and 3600, got -1",
                 id="set_informer_lag refuses a negative lag"),
    pytest.param(lambda s: s.set_informer_lag("5"), SimulationError, "seconds: must be between 0 and 3600",
                 id="set_informer_lag refuses text"),
    pytest.param(lambda s: s.set_status_conflicts(1001), SimulationError,
                 "n: must be an integer between 0 and 1000, got 1001", id="set_status_conflicts refuses too many"),
    pytest.param(lambda s: s.scale(), SimulationError, "scale: give parallelism, completions or both",
                 id="scale needs a number"),
    pytest.param(lambda s: s.scale(parallelism=-1), InvalidError,
                 "spec.parallelism: Invalid value: -1: must be greater than or equal to 0",
                 id="scale to a negative parallelism is invalid"),
    pytest.param(lambda s: s.scale(completions=3), InvalidError, "spec.completions: Invalid value: 3: field is immutable",
                 id="scale of a non-indexed job's completions is invalid"),
    pytest.param(lambda s: s.edit(job(name="other")), SimulationError,
                 'metadata.name: Invalid value: "other": the edited manifest must keep the name "j"',
                 id="edit must keep the name"),
    pytest.param(lambda s: s.edit(job(ann={"sim.k8sjobs.io/fail-rate": "2"})), InvalidError,
                 'spec.template.metadata.annotations[sim.k8sjobs.io/fail-rate]: Invalid value: "2": must be between 0 and 1',
                 id="edit refuses an invalid sim annotation"),
    pytest.param(lambda s: s.delete_job("Sideways"), SimulationError,
                 'propagation: Unsupported value: "Sideways": supported values: "Background", "Foreground", "Orphan"',
                 id="delete_job refuses an unknown propagation"),
    pytest.param(lambda s: s.apply("explode"), SimulationError, "unknown action 'explode'; actions: add_node,",
                 id="apply refuses an unknown action"),
    pytest.param(lambda s: s.apply("_record", name="x"), SimulationError, "unknown action '_record'",
                 id="apply refuses a private method"),
])
def test_bad_action_input_is_refused_with_a_message_naming_the_field_and_the_run_is_unchanged(act, error, message):
    sim, _ = watch(job(completions=4, parallelism=2, duration="20s"))
    sim.run_until(5)
    before = world(sim)
    with pytest.raises(error) as info:
        act(sim)
    text = info.value.message() if isinstance(info.value, InvalidError) else str(info.value)
    assert message in text
    assert world(sim) == before


def test_actions_on_a_deleted_job_say_so():
    sim, _ = watch(job())
    sim.delete_job()
    sim.run_until(2)
    for act in (sim.suspend, sim.resume, lambda: sim.scale(parallelism=1), lambda: sim.edit(job())):
        with pytest.raises(SimulationError, match="the Job has been deleted"):
            act()
    with pytest.raises(SimulationError, match='jobs.batch "j" not found'):
        sim.delete_job()


@pytest.mark.parametrize(("settings", "message"), [
    pytest.param({"nodes": -1}, "nodes: must be an integer between 0 and 10000, got -1", id="negative nodes"),
    pytest.param({"seed": "x"}, "seed: must be an integer, got 'x'", id="a seed that is not a number"),
    pytest.param({"informer_lag": -2}, "informer_lag: must be a number of seconds between 0 and 86400",
                 id="a negative informer lag"),
    pytest.param({"pods_per_node": 0}, "pods_per_node: must be an integer between 1 and 100000", id="no pod slots"),
])
def test_invalid_settings_name_the_setting(settings, message):
    with pytest.raises(ValueError, match="invalid simulation settings: .*" + message.replace("(", r"\(")):
        SimConfig(**settings)


# ----------------------------------------------------------------------------- workload annotations


def runs(tr: Trace) -> list[float]:
    return [round(h.finished - h.started, 3) for h in tr.pod_histories()]


def test_a_duration_range_is_drawn_with_the_seed():
    manifest = job(completions=6, parallelism=6, duration="10s..20s")
    first, again, other = (Run(manifest, seed=s).trace for s in (4, 4, 5))
    assert runs(first) == runs(again)
    assert runs(first) != runs(other)
    assert all(10 <= d <= 20 for d in runs(first) + runs(other))
    assert len(set(runs(first))) > 1


@pytest.mark.parametrize(("ann", "started", "run"), [
    pytest.param({"sim.k8sjobs.io/start-latency": "3s"}, 3.0, 10.0, id="start-latency delays the start after scheduling"),
    pytest.param({"sim.k8sjobs.io/start-latency": "0"}, 0.0, 10.0, id="a zero start latency starts at once"),
    pytest.param({"sim.k8sjobs.io/duration": "1m30s"}, 1.0, 90.0, id="durations use Go syntax"),
    pytest.param({"sim.k8sjobs.io/duration": "1500ms"}, 1.0, 1.5, id="milliseconds are understood"),
])
def test_start_latency_and_duration_set_when_a_pod_starts_and_stops(ann, started, run):
    base = job(completions=1, parallelism=1)
    base["spec"]["template"]["metadata"]["annotations"].update(ann)
    pod = Run(base).trace.pod_histories()[0]
    assert (pod.started - pod.scheduled, round(pod.finished - pod.started, 3)) == (started, run)


def test_without_sim_annotations_a_pod_starts_after_one_second_and_runs_ten():
    base = job(completions=1, parallelism=1)
    base["spec"]["template"]["metadata"]["annotations"] = {}
    pod = Run(base).trace.pod_histories()[0]
    assert (pod.started, pod.finished) == (1.0, 11.0)


@pytest.mark.parametrize(("rate", "failed_lo", "failed_hi"), [
    pytest.param("0", 0, 0, id="fail-rate 0 never fails"),
    pytest.param("1", 20, 20, id="fail-rate 1 always fails"),
    pytest.param("0.5", 3, 17, id="fail-rate 0.5 fails some pods and not others"),
])
def test_fail_rate_decides_how_many_pods_fail_with_the_exit_code(rate, failed_lo, failed_hi):
    tr = Run(job(completions=20, parallelism=20, ann={"sim.k8sjobs.io/fail-rate": rate,
                                                       "sim.k8sjobs.io/exit-code": "42"}, backoffLimit=100),
             seed=1).trace
    first_wave = [h for h in tr.pod_histories() if h.created_in_cycle == 1]
    failed = [h for h in first_wave if h.phase == "Failed"]
    assert len(first_wave) == 20
    assert failed_lo <= len(failed) <= failed_hi
    assert {h.exit_code for h in failed} <= {42}
    assert {h.exit_code for h in first_wave if h.phase == "Succeeded"} <= {0}


def indexed(completions: int = 4, **kw: Any) -> dict:
    return job(completions=completions, parallelism=completions, completionMode="Indexed", **kw)


def exit_codes_by_index(tr: Trace) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for h in tr.pod_histories():
        out.setdefault(h.index, []).append(h.exit_code)
    return out


def test_fail_indexes_fail_exactly_those_indexes():
    tr = Run(indexed(5, ann={"sim.k8sjobs.io/fail-indexes": "1,3-4", "sim.k8sjobs.io/exit-code": "7"},
                     backoffLimitPerIndex=0)).trace
    st = tr.final_job.status
    assert (st.completed_indexes, st.failed_indexes) == ("0,2", "1,3,4")
    assert exit_codes_by_index(tr) == {0: [0], 1: [7], 2: [0], 3: [7], 4: [7]}


def test_an_index_in_per_index_backoff_keeps_its_creation_slot():
    """manageJob takes the lowest `diff` pending indexes, then drops those still in backoff without
    taking higher ones instead (firstPendingIndexes, getPodCreationInfoForIndependentIndexes):
    with parallelism 3 and indexes 0 and 2 failing at 2 s, only index 3 starts; when 0, 2 and 4
    all wait, nothing runs although 5-9 are pending and never started."""
    spec = job(completions=10, parallelism=3, duration="1s", completionMode="Indexed", backoffLimitPerIndex=1,
               ann={"sim.k8sjobs.io/fail-indexes": "0,2,4,6,8"})
    run = Run(spec, seed=0)
    by_t = {c.t: c for c in run.cycles}
    assert by_t[2.0].created_indexes == (3,)
    waits = [(c.t, c.after.active, d.fields["count"], d.fields["indexes"])
             for c in run.cycles if c.t <= 12 for d in c.find("backoff.wait_index")]
    assert waits == [(3.0, 1, 2, "0,2"), (5.0, 1, 2, "0,2"), (6.0, 0, 3, "0,2,4"), (7.0, 0, 3, "0,2,4")]
    first_start = {h.index: h.created for h in reversed(run.trace.pod_histories())}
    assert first_start[5] == 14.0 and min(first_start[i] for i in (5, 6, 7, 8, 9)) == 14.0
    assert run.cycles[6].find("backoff.wait_index")[0].reason == (
        "waiting 6 s: the 3 lowest pending indexes (0,2,4) are all in their per-index backoff")


def test_exit_codes_set_a_code_per_index_and_zero_means_success():
    tr = Run(indexed(4, ann={"sim.k8sjobs.io/exit-codes": "0=3;1=42;*=0"}, backoffLimitPerIndex=0)).trace
    assert exit_codes_by_index(tr) == {0: [3], 1: [42], 2: [0], 3: [0]}
    assert tr.final_job.status.failed_indexes == "0,1"


def test_durations_set_a_run_time_per_index():
    tr = Run(indexed(3, ann={"sim.k8sjobs.io/durations": "0=2s;*=6s"})).trace
    by_index = {h.index: h.finished - h.started for h in tr.pod_histories()}
    assert by_index == {0: 2.0, 1: 6.0, 2: 6.0}


def test_fail_attempts_fail_the_first_pods_of_a_job_then_let_them_succeed():
    tr = Run(job(completions=1, parallelism=1, ann={"sim.k8sjobs.io/fail-attempts": "2"})).trace
    assert [h.phase for h in tr.pod_histories()] == ["Failed", "Failed", "Succeeded"]
    assert (tr.final_job.status.failed, tr.final_job.status.succeeded) == (2, 1)


def test_fail_attempts_count_per_index_for_indexed_jobs():
    tr = Run(indexed(2, ann={"sim.k8sjobs.io/fail-attempts": "1"}, backoffLimit=10)).trace
    phases: dict[int, list[str]] = {}
    for h in tr.pod_histories():
        phases.setdefault(h.index, []).append(h.phase)
    assert phases == {0: ["Failed", "Succeeded"], 1: ["Failed", "Succeeded"]}


def test_restarts_with_on_failure_restart_in_place_at_once_then_after_crash_loop_back_off_delays():
    tr = Run(job(completions=1, parallelism=1, restart="OnFailure",
                 ann={"sim.k8sjobs.io/restarts": "3", "sim.k8sjobs.io/exit-code": "7"})).trace
    restarts = notes(tr, "cluster.container_restart")
    # Runs of 10 s from t=1: exits at 11, 21 (restarted at 11 + 0), 41 (restarted at 21 + 10).
    assert [(n.t, n.fields["exit_code"], n.fields["restarts"], n.fields["delay"]) for n in restarts] == [
        (11.0, 7, 1, 0.0), (21.0, 7, 2, 10.0), (41.0, 7, 3, 20.0)]
    assert [n.reason.split("; ")[1] for n in restarts] == [
        "restart 1 at once", "restart 2 in 10 s (CrashLoopBackOff)", "restart 3 in 20 s (CrashLoopBackOff)"]
    (pod,) = tr.pod_histories()
    assert (pod.restarts, pod.phase, pod.finished) == (3, "Succeeded", 71.0)
    assert tr.final_job.status.failed == 0


def crash_loop_waits(exits: list[float]) -> list[float]:
    """The kubelet's waits for a container that exits at these times (each restart before the next exit)."""
    entry, waits = None, []
    for t in exits:
        wait, entry = crash_loop_backoff(entry, t)
        waits.append(wait)
    return waits


@pytest.mark.parametrize(("exits", "waits"), [
    ([5.0], [0.0]),                                                  # the first crash restarts at once
    ([5.0, 10.0, 30.0, 70.0], [0.0, 10.0, 20.0, 40.0]),              # then 10 s, doubling
    ([0.0, 1.0, 12.0, 33.0, 74.0, 155.0, 316.0, 617.0, 918.0],
     [0.0, 10.0, 20.0, 40.0, 80.0, 160.0, 300.0, 300.0, 300.0]),    # at most 5 minutes
    ([0.0, 1.0, 612.0], [0.0, 10.0, 0.0]),                           # ran > 10 min since the last restart: start over
    ([0.0, 1.0, 611.0], [0.0, 10.0, 20.0]),                          # exactly 10 min (611 - 11 = 600): not yet
])
def test_crash_loop_back_off_waits_follow_the_kubelet(exits, waits):
    assert crash_loop_waits(exits) == waits


def test_the_restart_count_grows_when_the_container_restarts_not_when_it_crashes():
    sim, rec = watch(job(completions=1, parallelism=1, restart="OnFailure", duration="10s",
                         ann={"sim.k8sjobs.io/restarts": "2"}))
    sim.run_until(25)    # second exit at 21; its restart waits 10 s
    (pod,) = sim.pods()
    (status,) = pod.status.container_statuses
    assert (status.restart_count, status.state.waiting.reason, status.last_state.terminated.exit_code) == (
        1, "CrashLoopBackOff", 1)
    assert (pod.status.phase, status.ready) == ("Running", False)
    sim.run_until(32)
    (status,) = sim.pods()[0].status.container_statuses
    assert (status.restart_count, status.ready, status.state.running is not None) == (2, True, True)


def test_on_failure_restarts_count_against_the_backoff_limit():
    tr = Run(job(completions=1, parallelism=1, restart="OnFailure", ann={"sim.k8sjobs.io/restarts": "5"},
                 backoffLimit=2)).trace
    assert [(c.type, c.reason) for c in tr.final_job.status.conditions] == [
        ("FailureTarget", "BackoffLimitExceeded"), ("Failed", "BackoffLimitExceeded")]
    decision = next(d for c in tr.cycles for d in c.find("decision.backoff_limit_exceeded"))
    assert "2 container restarts reach backoffLimit 2 (restartPolicy OnFailure)" in decision.reason


def test_termination_delay_is_how_long_a_deleted_pod_takes_to_stop():
    sim, rec = watch(job(completions=2, parallelism=2, duration="60s", ann={"sim.k8sjobs.io/termination-delay": "7s"}))
    sim.run_until(5)
    sim.suspend()
    tr = finish(sim, rec)
    stopped = [(h.deleting, h.finished, h.exit_code) for h in tr.pod_histories()]
    assert stopped == [(5.0, 12.0, 143), (5.0, 12.0, 143)]


def test_a_pod_that_outlives_its_grace_period_is_killed_at_the_end_of_it():
    manifest = job(completions=1, parallelism=1, duration="60s", ann={"sim.k8sjobs.io/termination-delay": "20s"})
    manifest["spec"]["template"]["spec"]["terminationGracePeriodSeconds"] = 3
    sim, rec = watch(manifest)
    sim.run_until(5)
    sim.suspend()
    (pod,) = finish(sim, rec).pod_histories()
    assert (pod.deleting, pod.finished, pod.exit_code) == (5.0, 8.0, 137)


def test_evict_after_and_evict_pods_evict_only_the_chosen_pods_with_disruption_target():
    tr = Run(job(completions=3, parallelism=3, duration="60s", backoffLimit=5,
                 ann={"sim.k8sjobs.io/evict-after": "30s", "sim.k8sjobs.io/evict-pods": "2"})).trace
    first_wave = [h for h in tr.pod_histories() if h.created_in_cycle == 1]
    assert [h.disruption for h in first_wave] == ["", "EvictionByEvictionAPI", ""]
    evicted = first_wave[1]
    assert (evicted.deleting, evicted.phase) == (evicted.started + 30, "Failed")
    assert [n.t for n in notes(tr, "cluster.evicted")] == [evicted.started + 30]
    assert (tr.final_job.status.succeeded, tr.final_job.status.failed) == (3, 1)


@pytest.mark.parametrize(("ann", "low", "high"), [
    pytest.param({"pod-complete.stage.kwok.x-k8s.io/delay": "7s"}, 7, 7, id="the kwok delay is the run time"),
    pytest.param({"pod-complete.stage.kwok.x-k8s.io/delay": "5s", "pod-complete.stage.kwok.x-k8s.io/jitter-delay": "9s"},
                 5, 9, id="the kwok jitter delay bounds a random run time"),
    pytest.param({"pod-complete.stage.kwok.x-k8s.io/delay": "7s", "sim.k8sjobs.io/duration": "3s"}, 3, 3,
                 id="an explicit sim duration wins over kwok"),
])
def test_kwok_delay_annotations_mean_the_same_as_on_a_kwok_cluster(ann, low, high):
    base = job(completions=6, parallelism=6)
    annotations = base["spec"]["template"]["metadata"]["annotations"]
    annotations.pop("sim.k8sjobs.io/duration")
    annotations.update(ann)
    durations = runs(Run(base, seed=2).trace)
    assert len(durations) == 6 and all(low <= d <= high for d in durations)
    if low != high:
        assert len(set(durations)) > 1


@pytest.mark.parametrize(("key", "value", "message"), [
    pytest.param("sim.k8sjobs.io/fail-rate", "2", "must be between 0 and 1", id="a fail rate above one"),
    pytest.param("sim.k8sjobs.io/fail-rate", "often", "must be a number between 0 and 1", id="a fail rate in words"),
    pytest.param("sim.k8sjobs.io/duration", "5", "must be a duration such as 30s, 1m30s or 500ms, not '5'",
                 id="a duration without a unit"),
    pytest.param("sim.k8sjobs.io/duration", "40s..20s", "range '40s..20s' must go from the shorter to the longer duration",
                 id="a duration range backwards"),
    pytest.param("sim.k8sjobs.io/start-latency", "-1s", "must be a duration", id="a negative start latency"),
    pytest.param("sim.k8sjobs.io/exit-code", "256", "must be an exit code between 0 and 255", id="an exit code too big"),
    pytest.param("sim.k8sjobs.io/fail-indexes", "4-1", "range '4-1' must go from the lower to the higher index",
                 id="an index range backwards"),
    pytest.param("sim.k8sjobs.io/exit-codes", "0=300", "must be an exit code between 0 and 255",
                 id="a per-index exit code too big"),
    pytest.param("sim.k8sjobs.io/exit-codes", "42", "'42' must look like INDEXES=VALUE or *=VALUE",
                 id="per-index exit codes without an index"),
    pytest.param("sim.k8sjobs.io/durations", "2=soon", "must be a duration", id="a per-index duration in words"),
    pytest.param("sim.k8sjobs.io/fail-attempts", "-1", "must be a whole number between 0 and 1000000",
                 id="negative fail attempts"),
    pytest.param("sim.k8sjobs.io/restarts", "many", "must be a whole number between 0 and 20",
                 id="restarts in words"),
    pytest.param("sim.k8sjobs.io/termination-delay", "never", "must be a duration", id="a termination delay of never"),
    pytest.param("sim.k8sjobs.io/evict-after", "x", "must be a duration", id="an eviction time in words"),
    pytest.param("sim.k8sjobs.io/evict-pods", "first", "'first' is not an index or a range such as 3-5",
                 id="evicted pods by name"),
    pytest.param("pod-complete.stage.kwok.x-k8s.io/delay", "soon", "must be a duration", id="a kwok delay in words"),
])
def test_an_invalid_annotation_is_a_field_error_with_the_annotation_path(key, value, message):
    manifest = job()
    annotations = manifest["spec"]["template"]["metadata"]["annotations"]
    if key.startswith("pod-complete."):
        del annotations["sim.k8sjobs.io/duration"]  # KWOK's delay counts only without a sim duration
    annotations[key] = value
    with pytest.raises(InvalidError) as info:
        Simulation(manifest)
    text = info.value.message()
    assert text.startswith('The Job "j" is invalid: ')
    assert f'spec.template.metadata.annotations[{key}]: Invalid value: "{value}": {message}' in text


def test_every_invalid_annotation_is_reported_at_once():
    manifest = job(ann={"sim.k8sjobs.io/fail-rate": "2", "sim.k8sjobs.io/exit-code": "x"})
    with pytest.raises(InvalidError) as info:
        Simulation(manifest)
    paths = [e.field for e in info.value.errors]
    assert paths == ["spec.template.metadata.annotations[sim.k8sjobs.io/fail-rate]",
                     "spec.template.metadata.annotations[sim.k8sjobs.io/exit-code]"]


def test_a_headless_run_skips_only_the_trace_only_report_and_counts_the_same_budget():
    """sync.observed is built only while someone listens; the run itself (its events, cycles and the pods
    the syncs read, what budgets count) is the same with and without a listener."""
    manifest = job(completions=6, parallelism=3, ann={"sim.k8sjobs.io/fail-rate": "0.3"}, backoffLimit=20)
    headless = Simulation(manifest, SimConfig(seed=4))
    seen: list[str] = []
    listened = Simulation(manifest, SimConfig(seed=4))
    listened.add_listener(lambda kind, fields: seen.append(kind))
    heard_by_clone: list[str] = []
    clone = headless.clone()
    clone.add_listener(lambda kind, fields: heard_by_clone.append(kind))
    for sim in (headless, listened, clone):
        sim.run_until_finished()
    counted = [(s.events_run, s.cycles, s.pod_cycles, s.pods_created, s.now, s.job.status)
               for s in (headless, listened, clone)]
    assert counted[0] == counted[1] == counted[2]
    assert seen.count("sync.observed") == seen.count("sync.begin") - seen.count("sync.skip.finished") > 0
    assert heard_by_clone.count("sync.observed") == seen.count("sync.observed")
    assert headless.controller.listening() is False and listened.controller.listening() is True
