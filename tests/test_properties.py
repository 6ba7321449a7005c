"""Property tests: random valid Jobs, workloads and fault schedules never break the reference's invariants.

Specs cover parallelism, completions or a work queue, Indexed or not, backoffLimit,
backoffLimitPerIndex / maxFailedIndexes, podFailurePolicy rules, podReplacementPolicy,
activeDeadlineSeconds and suspend; workloads cover durations, fail rates, exit codes,
OnFailure restarts and termination delays; schedules apply up to six learner actions at random
cycles. Invariants (job-controller.md §7.3, §8.7, §16, §4.1): no sync both creates and deletes;
succeeded and failed never decrease (succeeded may for an elastic Indexed scale-down); terminal
conditions come in their documented order and never both; ready <= active; a terminal condition
only with nothing active or terminating; expectations never hold a sync back for more than
5 minutes and are whole numbers; replaying the same seed and actions reproduces the trace byte
for byte. Hypothesis runs derandomized, without a database, 40 examples per property.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from k8sjobs.api.errors import InvalidError
from k8sjobs.sim import SimConfig, Simulation, SimulationError
from k8sjobs.trace import Recorder, Run, Trace, render_trace

MAX_TIME = 4 * 3600.0
MAX_CYCLES = 300
PROFILE = settings(max_examples=40, deadline=None, derandomize=True, database=None,
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# ----------------------------------------------------------------------------- strategies


@st.composite
def specs(draw: st.DrawFn) -> dict:
    mode = draw(st.sampled_from(["fixed", "queue", "indexed"]))
    spec: dict[str, Any] = {"parallelism": draw(st.integers(1, 5))}
    if mode != "queue":
        spec["completions"] = draw(st.integers(1, 7))
    if mode == "indexed":
        spec["completionMode"] = "Indexed"
        if draw(st.booleans()):
            spec["backoffLimitPerIndex"] = draw(st.integers(0, 2))
            if draw(st.booleans()):
                spec["maxFailedIndexes"] = draw(st.integers(0, spec["completions"]))
    if draw(st.booleans()):
        spec["backoffLimit"] = draw(st.integers(0, 5))
    restart = draw(st.sampled_from(["Never", "OnFailure"]))
    if restart == "Never" and draw(st.booleans()):
        actions = ["FailJob", "Ignore", "Count"] + (["FailIndex"] if "backoffLimitPerIndex" in spec else [])
        rules = []
        for _ in range(draw(st.integers(1, 3))):
            action = draw(st.sampled_from(actions))
            if draw(st.booleans()):
                rules.append({"action": action, "onExitCodes": {"operator": draw(st.sampled_from(["In", "NotIn"])),
                                                                "values": [draw(st.sampled_from([1, 42]))]}})
            else:
                rules.append({"action": action, "onPodConditions": [{"type": "DisruptionTarget"}]})
        spec["podFailurePolicy"] = {"rules": rules}
    elif restart == "Never" and draw(st.booleans()):
        spec["podReplacementPolicy"] = draw(st.sampled_from(["Failed", "TerminatingOrFailed"]))
    if draw(st.booleans()):
        spec["activeDeadlineSeconds"] = draw(st.integers(5, 120))
    if draw(st.integers(0, 4)) == 0:
        spec["suspend"] = True
    low = draw(st.integers(1, 20))
    ann = {"sim.k8sjobs.io/start-latency": f"{draw(st.integers(0, 3))}s",
           "sim.k8sjobs.io/duration": f"{low}s..{low + draw(st.integers(0, 20))}s",
           "sim.k8sjobs.io/fail-rate": str(draw(st.sampled_from([0, 0.2, 0.5, 1]))),
           "sim.k8sjobs.io/exit-code": str(draw(st.sampled_from([1, 42])))}
    if restart == "OnFailure":
        ann["sim.k8sjobs.io/restarts"] = str(draw(st.integers(0, 2)))
    if draw(st.booleans()):
        ann["sim.k8sjobs.io/termination-delay"] = f"{draw(st.integers(0, 40))}s"
    spec["template"] = {"metadata": {"annotations": ann},
                        "spec": {"restartPolicy": restart, "containers": [{"name": "main", "image": "busybox"}]}}
    return {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "prop"}, "spec": spec}


ACTIONS = ["fail_pod", "evict_pod", "delete_pod", "fail_next_creates", "set_pod_quota", "set_informer_lag",
           "set_status_conflicts", "suspend", "resume", "scale", "lose_node", "add_node", "delete_job"]
# Pod faults are the interesting ones, so they come up more often; suspend and delete_job end most runs early.
WEIGHTED = ACTIONS[:7] * 2 + ["resume", "scale", "scale", "lose_node", "add_node", "suspend", "delete_job"]
schedules = st.lists(st.tuples(st.integers(0, 15), st.sampled_from(WEIGHTED), st.integers(0, 10 ** 6)),
                     min_size=1, max_size=6).map(sorted)


def apply(sim: Simulation, name: str, pick: int) -> None:
    """One learner action with arguments derived from ``pick`` (always well-typed)."""
    live = [p.metadata.name for p in sim.pods()
            if p.status.phase in ("Pending", "Running") and p.metadata.deletion_timestamp is None]
    if name in ("fail_pod", "evict_pod", "delete_pod"):
        if not live:
            return
        kwargs: dict[str, Any] = {"name": live[pick % len(live)]}
        if name == "fail_pod":
            kwargs["exit_code"] = (1, 42, 0)[pick % 3]
            kwargs["condition"] = "DisruptionTarget" if pick % 2 else None
        getattr(sim, name)(**kwargs)
    elif name == "fail_next_creates":
        sim.fail_next_creates(pick % 4)
    elif name == "set_pod_quota":
        sim.set_pod_quota(None if pick % 3 == 0 else pick % 4)
    elif name == "set_informer_lag":
        sim.set_informer_lag(pick % 7)
    elif name == "set_status_conflicts":
        sim.set_status_conflicts(pick % 4)
    elif name in ("suspend", "resume"):
        getattr(sim, name)()
    elif name == "scale":
        if sim.job.spec.completion_mode == "Indexed":
            sim.scale(parallelism=pick % 6 + 1, completions=pick % 6 + 1)
        else:
            sim.scale(parallelism=pick % 6)
    elif name == "lose_node":
        nodes = sim.cluster.ready_nodes()
        if nodes:
            sim.lose_node(nodes[pick % len(nodes)])
    elif name == "add_node":
        sim.add_node(f"extra-{pick}")
    elif name == "delete_job":
        sim.delete_job(("Background", "Foreground", "Orphan")[pick % 3])


def simulate(manifest: dict, seed: int, schedule: list) -> tuple[Simulation, Trace]:
    """Run to the end, applying each action once the run reaches its cycle (as Run does, by heap position)."""
    sim = Simulation(manifest, SimConfig(seed=seed, nodes=2))
    rec = Recorder(sim)
    for at, name, pick in schedule:
        while sim.cycles < at and sim.job is not None and sim.next_cycle(MAX_TIME):
            pass
        if sim.job is None:
            break
        try:
            apply(sim, name, pick)
        except (SimulationError, InvalidError):
            pass  # refused (e.g. an invalid scale): the run is unchanged, which other tests check
    while (nxt := sim.heap.peek_time()) is not None and nxt <= MAX_TIME and sim.cycles < MAX_CYCLES:
        sim.step()
    return sim, rec.finish()


def job_versions(tr: Trace) -> list:
    return [ch.obj for ch in tr.changes if ch.kind == "Job" and ch.type != "DELETED"]


def true_conditions(job) -> list[str]:
    return [c.type for c in job.status.conditions if c.status == "True"]


runs = given(specs(), st.integers(0, 3), schedules)

# ----------------------------------------------------------------------------- properties


@PROFILE
@runs
def test_no_sync_both_creates_and_deletes(manifest, seed, schedule):
    _, tr = simulate(manifest, seed, schedule)
    for c in tr.cycles:
        assert not (c.created and c.deleted), (c.index, c.created, c.deleted)


@PROFILE
@runs
def test_succeeded_and_failed_never_decrease(manifest, seed, schedule):
    _, tr = simulate(manifest, seed, schedule)
    versions = job_versions(tr)
    for old, new in zip(versions, versions[1:]):
        assert new.status.failed >= old.status.failed
        elastic = new.spec.completion_mode == "Indexed" and new.spec.completions < old.spec.completions
        if not elastic:
            assert new.status.succeeded >= old.status.succeeded


@PROFILE
@runs
def test_terminal_conditions_come_in_their_documented_order_and_never_both(manifest, seed, schedule):
    _, tr = simulate(manifest, seed, schedule)
    for job in job_versions(tr):
        types = true_conditions(job)
        if "Failed" in types:
            assert "FailureTarget" in types[:types.index("Failed")], types
        if "Complete" in types:
            assert "SuccessCriteriaMet" in types[:types.index("Complete")], types
            assert job.status.completion_time is not None
        assert not ("Complete" in types and "Failed" in types), types
        assert not ("SuccessCriteriaMet" in types and "FailureTarget" in types), types
        if "Complete" in types or "Failed" in types:
            assert (job.status.active, job.status.terminating or 0) == (0, 0)


@PROFILE
@runs
def test_ready_never_exceeds_active(manifest, seed, schedule):
    _, tr = simulate(manifest, seed, schedule)
    for job in job_versions(tr):
        assert (job.status.ready or 0) <= job.status.active
    for c in tr.cycles:
        assert c.after.ready <= c.after.active


@PROFILE
@runs
def test_expectations_never_block_a_sync_for_more_than_five_minutes_and_are_whole_numbers(manifest, seed, schedule):
    _, tr = simulate(manifest, seed, schedule)
    for c in tr.cycles:
        assert all(type(n) is int for n in c.expectations), c.expectations
        assert all(type(c.observed.get(k, 0)) is int for k in ("expect_add", "expect_del"))
        if not c.satisfied:
            assert c.t - c.observed["expect_since"] <= 300, (c.index, c.t, c.observed["expect_since"])
            assert not c.created and not c.deleted


@PROFILE
@runs
def test_a_finished_job_leaves_no_running_pod_and_no_tracking_finalizer(manifest, seed, schedule):
    sim, _ = simulate(manifest, seed, schedule)
    job = sim.job
    if job is not None and {"Complete", "Failed"} & set(true_conditions(job)):
        assert [p.metadata.name for p in sim.pods() if p.status.phase in ("Pending", "Running")] == []
        assert [p.metadata.name for p in sim.pods() if "batch.kubernetes.io/job-tracking" in p.metadata.finalizers] == []
        unc = job.status.uncounted_terminated_pods
        assert unc is None or (unc.succeeded, unc.failed) == ((), ())


@PROFILE
@runs
def test_replaying_the_same_seed_and_actions_reproduces_the_trace_byte_for_byte(manifest, seed, schedule):
    sim, tr = simulate(manifest, seed, schedule)
    again = Run(manifest, SimConfig(seed=seed, nodes=2), actions=sim.actions, max_time=MAX_TIME,
                max_cycles=MAX_CYCLES)
    assert render_trace(again.trace) == render_trace(tr)
