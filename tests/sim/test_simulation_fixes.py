"""Tests that fail on main today because of bugs in k8sjobs/ (see the report); to land in tests/sim/.

Copy next to tests/sim/test_simulation.py (it imports that file's builders) and run:
    python3 -m pytest -q tests/sim/test_simulation_pending.py
"""

from __future__ import annotations

import pytest
from test_simulation import finish, job, notes, watch, world

from k8sjobs.api.errors import InvalidError
from k8sjobs.cluster.workload import parse_workload
from k8sjobs.sim import Simulation, SimulationError
from k8sjobs.trace import Run

# ----------------------------------------------------------------------------- BUG 2 and 3: bad input changes the run


@pytest.mark.parametrize(("act", "message"), [
    pytest.param(lambda s, p: s.fail_pod(p, container="sidecar"), 'has no container "sidecar"; containers: main',
                 id="fail_pod of an unknown container"),
    pytest.param(lambda s, p: s.scale(parallelism="x"), "parallelism", id="scale with text"),
    pytest.param(lambda s, p: s.scale(parallelism=1.5), "parallelism", id="scale with a fraction"),
])
def test_bad_pod_and_node_action_input_is_refused_and_the_run_is_unchanged(act, message):
    sim, rec = watch(job(completions=2, parallelism=2, duration="20s"), nodes=2)
    sim.run_until(5)
    name = sim.pods()[1].metadata.name
    before = world(sim)
    with pytest.raises((SimulationError, InvalidError), match=None) as info:
        act(sim, name)
    text = info.value.message() if isinstance(info.value, InvalidError) else str(info.value)
    assert message in text
    assert world(sim) == before
    tr = finish(sim, rec)
    assert tr.final_job.status.succeeded == 2  # the pods still run to their end


# ----------------------------------------------------------------------------- BUG 5: OnFailure loses the index


def test_fail_indexes_keep_failing_after_an_in_place_restart():
    tr = Run(job(completions=2, parallelism=2, duration="5s", restart="OnFailure", completionMode="Indexed",
                 backoffLimit=3, ann={"sim.k8sjobs.io/fail-indexes": "1"})).trace
    assert [(c.type, c.reason) for c in tr.final_job.status.conditions] == [
        ("FailureTarget", "BackoffLimitExceeded"), ("Failed", "BackoffLimitExceeded")]


def test_per_index_exit_codes_keep_applying_after_an_in_place_restart():
    tr = Run(job(completions=2, parallelism=2, duration="5s", restart="OnFailure", completionMode="Indexed",
                 backoffLimit=3, ann={"sim.k8sjobs.io/exit-codes": "1=9;*=0"})).trace
    codes = {n.fields["exit_code"] for n in notes(tr, "cluster.container_restart")}
    assert codes == {9}
    assert tr.final_job.status.completed_indexes == "0"


# ----------------------------------------------------------------------------- low: KWOK jitter path, node names


def test_an_invalid_kwok_jitter_delay_is_reported_on_the_jitter_annotation():
    _, errors = parse_workload({"pod-complete.stage.kwok.x-k8s.io/delay": "10s",
                                "pod-complete.stage.kwok.x-k8s.io/jitter-delay": "soon"})
    assert [str(e) for e in errors] == [
        'spec.template.metadata.annotations[pod-complete.stage.kwok.x-k8s.io/jitter-delay]: Invalid value: "soon": '
        "must be a duration such as 30s, 1m30s or 500ms, not 'soon'"]


def test_an_invalid_kwok_delay_is_reported_even_when_a_sim_duration_is_set():
    manifest = job(ann={"pod-complete.stage.kwok.x-k8s.io/delay": "soon"})
    with pytest.raises(InvalidError):
        Simulation(manifest)


def test_add_node_without_a_name_picks_a_free_name():
    sim, _ = watch(job(), nodes=1)
    sim.add_node("node-3")
    sim.add_node()
    assert len(sim.cluster.ready_nodes()) == 3


# ----------------------------------------------------------------------------- fewer_gc_passes


def test_a_run_relaxes_the_garbage_collector_only_while_it_runs_and_restores_it_after_an_error():
    import gc

    from k8sjobs.sim import fewer_gc_passes

    before = gc.get_threshold()
    with fewer_gc_passes(12_345):
        assert gc.get_threshold() == (12_345, *before[1:])
    assert gc.get_threshold() == before
    with pytest.raises(RuntimeError), fewer_gc_passes(12_345):
        raise RuntimeError("boom")
    assert gc.get_threshold() == before


def test_a_higher_threshold_set_by_the_user_is_left_alone():
    import gc

    from k8sjobs.sim import fewer_gc_passes

    before = gc.get_threshold()
    try:
        gc.set_threshold(50_000, *before[1:])
        with fewer_gc_passes(10_000):
            assert gc.get_threshold()[0] == 50_000
        assert gc.get_threshold()[0] == 50_000
    finally:
        gc.set_threshold(*before)
