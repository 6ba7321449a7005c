"""Time travel on a recorded run: seek any cycle, fork the past, pod histories.

``state_at(k)`` is rebuilt from checkpoints (every CHECKPOINT_EVERY = 64 cycles) plus API
changes; the tests compare it with what a fresh replay of the same manifest, settings and
actions shows when stopped right after cycle k. Simulated time only.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from k8sjobs.api.errors import InvalidError
from k8sjobs.sim import Simulation, SimulationError
from k8sjobs.trace import Run, render_trace
from k8sjobs.trace.records import CHECKPOINT_EVERY
from k8sjobs.trace.text import render_cycle

# ----------------------------------------------------------------------------- one-line builders


def job(completions: int = 80, parallelism: int = 4, duration: str = "5s..15s", **spec: Any) -> dict:
    ann = {"sim.k8sjobs.io/start-latency": "1s", "sim.k8sjobs.io/duration": duration, "sim.k8sjobs.io/fail-rate": "0.2"}
    return {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "tt"},
            "spec": {"completions": completions, "parallelism": parallelism, "backoffLimit": 100, **spec,
                     "template": {"metadata": {"annotations": ann},
                                  "spec": {"restartPolicy": "Never", "containers": [{"name": "main", "image": "b"}]}}}}


@cache
def long_run() -> Run:
    """More than two checkpoints' worth of cycles, with a learner action in the middle."""
    return Run(job(), seed=1).fork(30, "scale", parallelism=6)


@cache
def short_run() -> Run:
    return Run(job(completions=12, parallelism=3), seed=2)


def pods_and_status(pods, job) -> tuple:
    return ([(p.metadata.name, p.status.phase, p.metadata.deletion_timestamp, p.metadata.finalizers,
              p.spec.node_name) for p in pods], job.status if job is not None else None)


def replayed_to(run: Run, k: int) -> Simulation:
    return Simulation.replay(run.manifest, run.config, run.actions, until=run.cycle(k).position)


def cycles_text(run: Run, upto: int | None = None) -> list[str]:
    return [render_cycle(c) for c in run.cycles[:upto]]


# ----------------------------------------------------------------------------- seeking


def test_the_long_run_spans_more_than_two_checkpoints():
    assert CHECKPOINT_EVERY == 64
    assert len(long_run()) > 2 * CHECKPOINT_EVERY + 2
    assert [a.name for a in long_run().actions] == ["scale"]


@pytest.mark.parametrize("k", [1, 2, 29, 30, 31, 63, 64, 65, 100, 127, 128, 129, -1])
def test_the_world_at_a_cycle_is_what_a_fresh_replay_shows_when_stopped_after_that_cycle(k):
    run = long_run()
    k = len(run) if k == -1 else k
    state = run.state_at(k)
    sim = replayed_to(run, k)
    assert sim.cycles == k
    assert state.t == sim.now == run.cycle(k).t
    assert pods_and_status(state.pods, state.job) == pods_and_status(sim.pods(), sim.job)
    assert [n.metadata.name for n in state.nodes] == ["node-1", "node-2", "node-3"]


def test_the_world_before_the_first_cycle_holds_only_the_new_job():
    state = long_run().state_at(0)
    assert (state.t, state.pods, state.job.status.active, state.job.status.start_time) == (0.0, (), 0, None)


def test_seeking_back_and_forth_gives_the_same_world_each_time():
    run = long_run()
    order = [129, 3, 70, 3, 129]
    seen = [pods_and_status(run.state_at(k).pods, run.state_at(k).job) for k in order]
    assert seen[0] == seen[4] and seen[1] == seen[3]
    assert seen[0] != seen[1]


def test_pods_by_phase_counts_terminating_pods_apart():
    run = long_run()
    for k in (1, 40, 90, len(run)):
        state = run.state_at(k)
        counts = state.pods_by_phase()
        assert sum(counts.values()) == len(state.pods)
        assert counts.get("Running", 0) + counts.get("Pending", 0) + counts.get("Terminating", 0) >= \
            state.job.status.active


def test_a_cycle_outside_the_run_is_an_index_error_naming_the_range():
    run = short_run()
    with pytest.raises(IndexError, match=f"cycle {len(run) + 1} does not exist: this run has cycles 1 to {len(run)}"):
        run.state_at(len(run) + 1)
    with pytest.raises(IndexError, match="cycle 0 does not exist"):
        run.cycle(0)


def test_cycle_at_time_is_the_last_cycle_that_ran_at_or_before_that_time():
    run = short_run()
    times = [c.t for c in run.cycles]
    assert run.trace.cycle_at_time(-1) == 0
    assert run.trace.cycle_at_time(0) == times.count(0.0)
    for i, t in enumerate(times, start=1):
        if i == len(times) or times[i] > t:
            assert run.trace.cycle_at_time(t) == i
            assert run.trace.cycle_at_time(t + 1e-6) == i
    assert run.trace.cycle_at_time(10 ** 9) == len(run)


def test_events_until_a_cycle_are_the_events_of_the_cycles_so_far():
    run = short_run()
    for k in (1, 5, len(run)):
        expected = [e for c in run.cycles[:k] for e in c.events]
        assert [e for e in run.trace.events_until(k) if e.cycle] == expected
    assert run.trace.events_until(0) == []


# ----------------------------------------------------------------------------- forking


def test_a_fork_keeps_the_past_identical_and_changes_the_future():
    run = short_run()
    k = next(c.index for c in run.cycles if c.index > 3 and c.after.active == 3)
    forked = run.fork(k, "scale", parallelism=1)
    assert cycles_text(forked, k) == cycles_text(run, k)
    assert [c.after for c in forked.cycles[:k]] == [c.after for c in run.cycles[:k]]
    assert cycles_text(forked)[k:] != cycles_text(run)[k:]
    assert len(forked.cycles[k].deleted) == 2 and forked.cycles[k].find("scale_down")
    assert [(a.name, a.cycle) for a in forked.actions] == [("scale", k)]
    assert run.actions == []


def test_a_later_fork_keeps_earlier_actions_and_drops_the_ones_after_its_cycle():
    first = short_run().fork(10, "scale", parallelism=1)
    later = first.fork(14, "scale", parallelism=2)
    earlier = first.fork(5, "set_pod_quota", pods=1)
    assert [(a.name, a.cycle, dict(a.kwargs)) for a in later.actions] == [
        ("scale", 10, {"parallelism": 1, "completions": None}), ("scale", 14, {"parallelism": 2, "completions": None})]
    assert [(a.name, a.cycle) for a in earlier.actions] == [("set_pod_quota", 5)]
    assert cycles_text(later, 14) == cycles_text(first, 14)


def test_a_fork_at_cycle_zero_changes_the_run_from_its_start():
    forked = short_run().fork(0, "suspend")
    assert forked.cycles[0].find("condition.suspended")
    assert forked.trace.final_job.status.start_time is None
    assert all(not c.created for c in forked.cycles)


def test_a_forked_run_replays_byte_for_byte_from_its_actions():
    forked = short_run().fork(6, "set_status_conflicts", n=2).fork(9, "scale", parallelism=5)
    again = Run(forked.manifest, forked.config, actions=forked.actions)
    assert render_trace(again.trace) == render_trace(forked.trace)


def test_a_fork_from_a_checkpoint_taken_under_a_pod_quota_runs_as_a_replay_does():
    """Checkpoints are copies of the simulation; the quota they hold must still be the quota (a copy that
    put its fields in each other's places made such a fork raise a TypeError)."""
    quota = Run(job(completions=120, parallelism=5, duration="20s"), seed=0).fork(0, "set_pod_quota", pods=2)
    assert len(quota.checkpoints) > 2
    forked = quota.fork(len(quota.cycles) - 5, "scale", parallelism=3)
    again = Run(forked.manifest, forked.config, actions=forked.actions)
    assert render_trace(forked.trace) == render_trace(again.trace)
    assert forked.trace.final_job.status.succeeded == 120
    assert max(c.after.active for c in forked.cycles) == 2


def test_a_fork_can_fail_a_pod_that_runs_at_that_cycle():
    run = short_run()
    k = next(i for i in range(1, len(run)) if any(p.status.phase == "Running" for p in run.state_at(i).pods))
    pod = next(p.metadata.name for p in run.state_at(k).pods if p.status.phase == "Running")
    forked = run.fork(k, "fail_pod", name=pod, exit_code=3)
    assert [h.exit_code for h in forked.trace.pod_histories() if h.name == pod] == [3]
    assert render_trace(Run(forked.manifest, forked.config, actions=forked.actions).trace) == render_trace(forked.trace)


@pytest.mark.parametrize(("action", "kwargs", "error", "message"), [
    pytest.param("scale", {}, SimulationError, "scale: give parallelism, completions or both", id="a scale without numbers"),
    pytest.param("scale", {"parallelism": -1}, InvalidError, "spec.parallelism", id="an invalid scale"),
    pytest.param("nope", {}, SimulationError, "unknown action 'nope'", id="an unknown action"),
    pytest.param("fail_pod", {"name": "ghost"}, SimulationError, 'pod "ghost" not found', id="an unknown pod"),
])
def test_a_fork_with_bad_input_raises_and_leaves_the_original_run_intact(action, kwargs, error, message):
    run = short_run().fork(4, "scale", parallelism=2)
    text, actions, n = render_trace(run.trace), list(run.actions), len(run)
    with pytest.raises(error) as info:
        run.fork(6, action, **kwargs)
    assert message in (info.value.message() if isinstance(info.value, InvalidError) else str(info.value))
    assert (render_trace(run.trace), run.actions, len(run)) == (text, actions, n)
    assert pods_and_status(run.state_at(n).pods, run.state_at(n).job) == pods_and_status(run.sim.pods(), run.sim.job)


def test_a_fork_past_the_end_is_an_index_error():
    run = short_run()
    with pytest.raises(IndexError, match=f"cycle {len(run) + 1} does not exist: this run has cycles 0 to {len(run)}"):
        run.fork(len(run) + 1, "suspend")


def test_other_settings_keep_the_actions_and_give_another_run():
    run = short_run().fork(5, "scale", parallelism=1)
    other = run.with_settings(seed=9)
    assert [(a.name, a.position) for a in other.actions] == [(a.name, a.position) for a in run.actions]
    assert other.config.seed == 9
    assert render_trace(other.trace) != render_trace(run.trace)


# ----------------------------------------------------------------------------- pod histories


def test_pod_histories_agree_with_the_api_changes():
    run = long_run()
    tr = run.trace
    changes: dict[str, list] = {}
    for ch in tr.changes:
        if ch.kind == "Pod":
            changes.setdefault(ch.obj.metadata.uid, []).append(ch)
    hist = tr.pod_histories()
    assert [h.uid for h in hist] == list(changes)
    cycle_ends = [c.change_end for c in tr.cycles]
    for h in hist:
        mine = changes[h.uid]
        last = next(c.obj for c in reversed(mine) if c.type != "DELETED")
        assert h.created == mine[0].t == mine[0].obj.metadata.creation_timestamp
        assert h.phase == last.status.phase
        assert (h.removed is not None) == (mine[-1].type == "DELETED")
        assert h.created_in_cycle == sum(end <= mine[0].seq for end in cycle_ends) + 1
        steps = [x for x in (h.created, h.scheduled, h.started, h.finished) if x is not None]
        assert steps == sorted(steps)
        if h.phase in ("Succeeded", "Failed"):
            term = [s.state.terminated.exit_code for s in last.status.container_statuses]
            assert h.exit_code in term
    created = [name for c in tr.cycles for name in c.created]
    assert sorted(created) == sorted(h.name for h in hist)


def test_a_pod_outcome_follows_its_life():
    run = long_run()
    failed = next(h for h in run.trace.pod_histories() if h.phase == "Failed")
    assert failed.outcome(failed.created) in ("pending", "running")
    assert failed.outcome(failed.started) == "running"
    assert failed.outcome() == "failed"
    assert failed.end == failed.finished
