"""Forks resumed from a saved state of the simulation give, byte for byte, the trace a replay from time 0
gives: over random valid Jobs, settings and chains of random forks (plain and lazy), hypothesis-driven."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_properties import WEIGHTED, specs

from k8sjobs.api.errors import InvalidError
from k8sjobs.api.serialize import to_dict
from k8sjobs.sim import Simulation, SimulationError
from k8sjobs.trace import Run, Trace, render_trace

PROFILE = settings(max_examples=60, deadline=None, derandomize=True, database=None,
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
DENSE = 8
"""Work between saved states in these runs: dense, so forks land near (and right on) saved states."""


def fingerprint(trace: Trace) -> str:
    """Everything a trace holds: its text, every API change (whole objects), events, notes and cycles."""
    h = hashlib.sha256(render_trace(trace).encode())
    for ch in trace.changes:
        h.update(json.dumps([ch.seq, ch.t, ch.type, ch.kind, ch.name, to_dict(ch.obj)], sort_keys=True,
                            default=str).encode())
    for c in trace.cycles:
        h.update(repr((c.index, c.t, c.position, c.change_start, c.change_end, c.created, c.deleted, c.before,
                       c.after, c.expectations, [(d.rule, d.reason, sorted(d.fields.items(), key=str))
                                                 for d in c.decisions])).encode())
    h.update(repr([(e.t, e.type, e.reason, e.message, e.cycle) for e in trace.events]).encode())
    h.update(repr([(n.t, n.rule, n.reason, sorted(n.fields.items(), key=str), n.after_cycle) for n in trace.notes]).encode())
    h.update(repr((trace.end_t, trace.finished, trace.truncated, trace.actions)).encode())
    return h.hexdigest()


def action_at(run: Run, k: int, name: str, pick: int) -> tuple[str, dict[str, Any]]:
    """A well-typed action for the world at cycle ``k`` (its arguments derived from ``pick``)."""
    world = run.state_at(k)
    live = [p.metadata.name for p in world.pods
            if p.status.phase in ("Pending", "Running") and p.metadata.deletion_timestamp is None]
    nodes = [n.metadata.name for n in world.nodes]
    if name in ("fail_pod", "evict_pod", "delete_pod") and live:
        kwargs: dict[str, Any] = {"name": live[pick % len(live)]}
        if name == "fail_pod":
            kwargs.update(exit_code=(1, 42, 0)[pick % 3], condition="DisruptionTarget" if pick % 2 else None)
        return name, kwargs
    if name == "scale":
        return "scale", {"parallelism": pick % 6}
    if name == "lose_node" and nodes:
        return "lose_node", {"name": nodes[pick % len(nodes)]}
    table = {"fail_next_creates": {"n": pick % 4}, "set_pod_quota": {"pods": None if pick % 3 == 0 else pick % 4},
             "set_informer_lag": {"seconds": pick % 7}, "set_status_conflicts": {"n": pick % 4},
             "suspend": {}, "resume": {}, "delete_job": {"propagation": ("Background", "Orphan")[pick % 2]}}
    if name in table:
        return name, table[name]
    return "add_node", {"name": f"extra-{pick}"}


forks = st.lists(st.tuples(st.floats(0, 1), st.sampled_from(WEIGHTED), st.integers(0, 10**6), st.booleans()),
                 min_size=1, max_size=4)


@PROFILE
@given(spec=specs(), seed=st.integers(0, 3), nodes=st.integers(1, 3), chain=forks)
def test_a_fork_from_a_saved_state_gives_the_replayed_trace_byte_for_byte(spec, seed, nodes, chain):
    saved = Run(spec, seed=seed, nodes=nodes, checkpoints=DENSE)
    replayed = Run(spec, seed=seed, nodes=nodes, checkpoints=False)
    assert fingerprint(saved.trace) == fingerprint(replayed.trace), "saving states never changes a run"
    for where, name, pick, lazy in chain:
        k = round(where * len(saved))
        action, kwargs = action_at(saved, k, name, pick)
        try:
            expected = replayed.fork(k, action, **kwargs)
        except (SimulationError, InvalidError):
            continue  # the action does not apply there (a finished pod, an immutable field, ...)
        got = saved.fork(k, action, lazy=lazy, **kwargs)
        if lazy:
            assert len(got) >= min(k + 1, len(expected)), "a lazy fork has its forked cycle at once"
            got.extend()
        assert got.complete and fingerprint(got.trace) == fingerprint(expected.trace), (k, action, kwargs)
        saved, replayed = got, expected


def test_forks_resume_from_the_last_saved_state_before_the_fork_point(monkeypatch):
    spec = {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "p"},
            "spec": {"completions": 40, "parallelism": 8, "template": {"metadata": {"annotations": {
                "sim.k8sjobs.io/duration": "5s..20s"}}, "spec": {"restartPolicy": "Never",
                                                                "containers": [{"name": "m", "image": "b"}]}}}}
    run = Run(spec, seed=1, checkpoints=DENSE)
    assert len(run.checkpoints) > 5
    k = len(run) // 2
    position = run.cycle(k).position
    point = max((p for p in run.checkpoints if p.events <= position), key=lambda p: p.events)
    resumed: list[Simulation] = []
    clone = Simulation.clone
    monkeypatch.setattr(Simulation, "clone", lambda self: resumed.append(self) or clone(self))
    fork = run.fork(k, "add_node")
    assert resumed and resumed[0] is point.sim, "the fork starts from a copy of that saved state, not from time 0"
    assert point.events > 0
    assert [p for p in fork.checkpoints if p.events <= point.events] == [
        p for p in run.checkpoints if p.events <= point.events], "the fork keeps the saved states of its past"
    assert render_trace(fork.trace) == render_trace(Run(spec, seed=1, checkpoints=False).fork(k, "add_node").trace)


def test_a_saved_state_is_never_run_so_it_serves_many_forks():
    spec = {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "p"},
            "spec": {"completions": 12, "parallelism": 4, "template": {"spec": {
                "restartPolicy": "Never", "containers": [{"name": "m", "image": "b"}]}}}}
    run = Run(spec, seed=0, checkpoints=DENSE)
    before = [(p.events, p.sim.events_run, p.sim.now) for p in run.checkpoints]
    first = run.fork(3, "add_node")
    again = run.fork(3, "add_node")
    assert render_trace(first.trace) == render_trace(again.trace)
    assert [(p.events, p.sim.events_run, p.sim.now) for p in run.checkpoints] == before
