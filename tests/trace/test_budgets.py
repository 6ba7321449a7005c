"""Run budgets: every run stops at its limits in simulated units, says which limit and how to raise it,
and keeps a usable trace; a run that stays within its limits is unchanged by them."""

from __future__ import annotations

import pytest

from k8sjobs import viz
from k8sjobs.sim import Budget, Simulation
from k8sjobs.trace import Run, render_trace
from tests.manifests import DURATION, FAIL_RATE, job_manifest

NO_LIMITS = Budget(max_pods=10**9, max_events=10**9, max_pod_cycles=10**12)


def job(completions: int, parallelism: int, *, duration: str = "10s", policy: str = "Never",
        ann: dict | None = None, extra: dict | None = None) -> str:
    """A Job manifest; ``ann`` adds pod-template annotations, ``extra`` spec fields."""
    return job_manifest("big", completions=completions, parallelism=parallelism,
                        spec={"backoffLimit": 100000, **(extra or {})}, restart_policy=policy,
                        annotations={DURATION: duration, **(ann or {})})


WIDE = job(100_000, 2_000)


def test_a_job_that_needs_more_pods_than_max_pods_stops_with_a_message_naming_the_limit_and_how_to_raise_it():
    run = Run(WIDE, seed=0, nodes=20, max_pods=1200)
    limit = run.limit
    assert limit is not None and limit.limit == "max_pods" and limit.value == 1200
    assert 1200 < run.sim.pods_created <= 1200 + 500, "the run stops right after the sync that passed the limit"
    assert run.trace.truncated and not run.trace.finished
    text = run.message()
    assert "more than its limit of 1200 (max_pods)" in text
    # The Python caller is told its keyword, not the command line's option (and the other way round).
    assert "Run(..., max_pods=2400)" in text and "--max-pods" not in text
    assert f"after cycle {len(run)}" in text
    from k8sjobs.commands.run import cli_message

    cli = cli_message(run.limit, "run")
    assert "--max-pods 2400 with python -m k8sjobs run" in cli and "Run(" not in cli


@pytest.mark.parametrize("limits, name, words", [
    ({"max_events": 3000}, "max_events", "its limit (max_events)"),
    ({"max_pod_cycles": 20_000}, "max_pod_cycles", "(max_pod_cycles: each cycle looks at every live pod"),
    ({"max_time": 25.0}, "max_time", "it reached t=25 s of simulated time, its limit (max_time)"),
    ({"max_cycles": 7}, "max_cycles", "it ran 7 reconcile cycles, its limit (max_cycles)"),
])
def test_each_limit_stops_the_run_and_is_named_with_its_option(limits, name, words):
    small = WIDE.replace("parallelism: 2000", "parallelism: 20") if name == "max_time" else WIDE
    run = Run(small, seed=0, nodes=20, budget=Budget(**{**{"max_pods": 10**6}, **limits}))
    assert run.limit is not None and run.limit.limit == name
    option = {"max_events": "--max-events", "max_pod_cycles": "--max-pod-cycles", "max_time": "--until",
              "max_cycles": "--max-cycles"}[name]
    from k8sjobs.commands.run import cli_message

    assert words in run.message() and f"{name}=" in run.message() and option not in run.message()
    assert words in cli_message(run.limit) and option in cli_message(run.limit) and f"{name}=" not in cli_message(
        run.limit)
    sim = run.sim
    counted = {"max_events": sim.events_run, "max_pod_cycles": sim.pod_cycles, "max_time": sim.now,
               "max_cycles": sim.cycles}[name]
    assert counted == run.limit.count


def test_a_run_stopped_at_a_limit_can_be_seeked_viewed_and_forked():
    run = Run(WIDE, seed=0, nodes=20, max_pods=800)
    last = len(run)
    assert run.state_at(last).pods, "the world at the last cycle has the pods created so far"
    for view in viz.VIEWS:
        assert viz.text(view, run.trace, last)
        viz.figure(view, run.trace, last // 2)
    fork = run.fork(last // 2, "scale", parallelism=5)
    assert [c.t for c in fork.cycles[:last // 2]] == [c.t for c in run.cycles[:last // 2]], "the same past"
    assert fork.actions[-1].name == "scale" and len(fork) > last // 2


def test_a_fork_of_a_stopped_run_that_makes_the_job_small_finishes():
    run = Run(job(3000, 3000, extra={"completionMode": "Indexed"}), seed=0, nodes=40, max_pods=600)
    assert run.limit is not None
    small = run.fork(1, "scale", parallelism=4, completions=4)
    assert small.limit is None and small.trace.finished


def test_limits_never_change_a_run_that_finishes_within_them():
    text = job(300, 40, duration="5s..20s", ann={FAIL_RATE: "0.1"})
    within = Run(text, seed=3, nodes=2)
    unlimited = Run(text, seed=3, nodes=2, budget=NO_LIMITS)
    assert within.limit is None and within.trace.finished
    assert render_trace(within.trace) == render_trace(unlimited.trace)


def test_a_limit_stops_every_run_of_the_same_job_at_the_same_event():
    a = Run(WIDE, seed=1, nodes=20, max_events=2500)
    b = Run(WIDE, seed=1, nodes=20, max_events=2500)
    assert a.sim.events_run == b.sim.events_run == 2500
    assert render_trace(a.trace) == render_trace(b.trace)


def test_simulation_run_until_finished_respects_a_budget():
    sim = Simulation(WIDE, seed=0, nodes=20)
    finished = sim.run_until_finished(budget=Budget(max_pods=700))
    assert not finished and sim.limit_reached is not None and sim.limit_reached.limit == "max_pods"
    small = Simulation(job(3, 2), seed=0)
    assert small.run_until_finished(budget=Budget(max_pods=700)) and small.limit_reached is None


@pytest.mark.parametrize("field, value", [("max_pods", -1), ("max_events", 1.5), ("max_pod_cycles", True),
                                          ("max_cycles", "9"), ("max_time", -3)])
def test_an_invalid_limit_is_a_value_error_naming_it(field, value):
    with pytest.raises(ValueError, match=f"invalid run limits: {field}: must be"):
        Run(job(2, 1), **{field: value})


def test_a_finished_job_whose_settling_passes_a_limit_is_not_reported_as_stopped():
    # ttlSecondsAfterFinished beyond max_time: the Job finished, the deletion is past the horizon.
    text = job(2, 2, extra={"ttlSecondsAfterFinished": 100})
    run = Run(text, seed=0, max_time=50)
    assert run.trace.finished and run.limit is None and run.message() == ""


def test_pod_cycles_count_the_pods_each_sync_looks_at():
    # Each sync lists the Job's live pods: at least the active ones, at most every pod it observed.
    run = Run(job(40, 10, duration="5s..15s", ann={FAIL_RATE: "0.3"}), seed=0)
    observed = [c.observed for c in run.cycles if c.observed]
    assert sum(o["active"] for o in observed) <= run.sim.pod_cycles <= sum(o["pods"] for o in observed)
    assert run.sim.pod_cycles < sum(o["pods"] for o in observed), "settled pods are not looked at again"


def test_with_a_pod_failure_policy_pod_cycles_also_count_the_failed_pods():
    # getFailJobMessage matches every failed pod in every sync.
    policy = {"podFailurePolicy": {"rules": [{"action": "Ignore", "onExitCodes": {"operator": "In", "values": [42]}}]}}
    ann = {FAIL_RATE: "0.3", "sim.k8sjobs.io/exit-code": "42"}
    run = Run(job(40, 10, duration="5s..15s", ann=ann, extra=policy), seed=0)
    plain = Run(job(40, 10, duration="5s..15s", ann=ann), seed=0)
    assert run.sim.pod_cycles > plain.sim.pod_cycles
