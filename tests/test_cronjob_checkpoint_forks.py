"""CronJob runs forked from a saved state give, byte for byte, what a replay from time 0 gives: over random
CronJobs (schedule, time zone, concurrency policy, deadline, history limits) and chains of random forks of
the CronJob's actions (downtime, suspend and resume, a new schedule or zone, a pod failed, stretched or
deleted, a Job deleted), hypothesis-driven. The Job-only property is in test_checkpoint_forks.py."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from k8sjobs.api.errors import InvalidError
from k8sjobs.sim import SimulationError
from k8sjobs.trace import Run
from k8sjobs.trace.text import render_run
from tests.manifests import cronjob_manifest

PROFILE = settings(max_examples=25, deadline=None, derandomize=True, database=None,
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
DENSE = 8
"""Work between saved states: dense, so forks land near (and right on) saved states."""
HOURS = 2 * 3600.0

SCHEDULES = ["*/5 * * * *", "*/7 * * * *", "0,20,40 * * * *", "*/15 * * * *", "30 * * * *", "*/10 1-2 * * *"]
ZONES = [None, "UTC", "Europe/Moscow", "Asia/Taipei", "America/St_Johns"]


@st.composite
def cronjobs(draw: st.DrawFn) -> str:
    spec: dict[str, Any] = {}
    zone = draw(st.sampled_from(ZONES))
    if zone is not None:
        spec["timeZone"] = zone
    spec["concurrencyPolicy"] = draw(st.sampled_from(["Allow", "Forbid", "Replace"]))
    if draw(st.booleans()):
        spec["startingDeadlineSeconds"] = draw(st.sampled_from([10, 60, 300, 1200]))
    spec["successfulJobsHistoryLimit"] = draw(st.integers(0, 3))
    spec["failedJobsHistoryLimit"] = draw(st.integers(0, 2))
    duration = draw(st.sampled_from(["30s", "4m", "9m..21m", "1m..3m"]))
    return cronjob_manifest("cj", draw(st.sampled_from(SCHEDULES)), duration=duration, spec=spec)


def fingerprint_run(run: Run) -> tuple:
    """The whole run's text, then per object every API change (whole objects, compared field by field),
    cycle, decision and event."""
    parts: list[Any] = [render_run(run.cluster)]
    for trace in run.cluster.traces.values():
        parts.append([(ch.seq, ch.t, ch.type, ch.kind, ch.name, ch.obj) for ch in trace.changes])
        parts.append([(c.index, c.t, c.position, c.created, c.deleted, c.before, c.after,
                       [(d.rule, d.reason, sorted(d.fields.items(), key=str)) for d in c.decisions])
                      for c in trace.cycles])
        parts.append([(e.t, e.type, e.reason, e.message, e.cycle) for e in trace.events])
        parts.append((trace.end_t, trace.finished, trace.truncated, trace.actions))
    return tuple(parts)


def action_at(run: Run, t: float, name: str, pick: int) -> tuple[str, dict[str, Any]]:
    """A well-typed action for the world at time ``t`` (its arguments derived from ``pick``)."""
    if name in ("fail_pod", "stretch_pod", "delete_pod", "delete_job"):
        jobs = [j for j in run.cluster.jobs() if j.cycles and j.cycles[0].t <= t]
        live: list[str] = []
        for j in jobs:
            at = j.cycle_at_time(t)
            if at >= 0:
                live += [p.metadata.name for p in j.state_at(at).pods
                         if p.status.phase in ("Pending", "Running") and p.metadata.deletion_timestamp is None]
        if name == "delete_job" and jobs:
            return "delete_job", {"job": jobs[pick % len(jobs)].job_name,
                                  "propagation": ("Background", "Orphan", "Foreground")[pick % 3]}
        if live:
            pod = live[pick % len(live)]
            if name == "fail_pod":
                return name, {"name": pod, "exit_code": (1, 42)[pick % 2]}
            if name == "stretch_pod":
                return name, {"name": pod, "seconds": 60 * (1 + pick % 30)}
            return name, {"name": pod}
    table = {"stop_controllers": {"seconds": 60 * (1 + pick % 90)}, "suspend_cronjob": {}, "resume_cronjob": {},
             "set_schedule": {"schedule": SCHEDULES[pick % len(SCHEDULES)]},
             "set_time_zone": {"time_zone": ZONES[pick % len(ZONES)]}}
    if name not in table:  # no pod or Job to act on at that time
        name = list(table)[pick % len(table)]
    return name, table[name]


ACTIONS = ["stop_controllers", "suspend_cronjob", "resume_cronjob", "set_schedule",
           "set_time_zone", "fail_pod", "stretch_pod", "delete_pod", "delete_job"]
# The action comes from the same number as its arguments: hypothesis then spreads the actions evenly (a
# sampled_from list is drawn mostly from its first entries).
forks = st.lists(st.tuples(st.floats(0, 1), st.integers(0, 10**6), st.booleans()), min_size=1, max_size=3)


@PROFILE
@given(manifest=cronjobs(), seed=st.integers(0, 3), chain=forks)
def test_a_cronjob_fork_from_a_saved_state_gives_the_replayed_run_byte_for_byte(manifest, seed, chain):
    saved = Run(manifest, seed=seed, nodes=2, max_time=HOURS, checkpoints=DENSE)
    replayed = Run(manifest, seed=seed, nodes=2, max_time=HOURS, checkpoints=False)
    assert fingerprint_run(saved) == fingerprint_run(replayed), "saving states never changes a run"
    t = 0.0
    for where, pick, lazy in chain:
        # Each fork within the hour after the last one: a fork then often lands inside a downtime, a
        # suspension or a stretched pod that the last one started, resumed from a state saved there.
        t = min(HOURS, round(t + where * 3600.0, 1))
        action, kwargs = action_at(saved, t, ACTIONS[pick % len(ACTIONS)], pick // len(ACTIONS))
        try:
            expected = replayed.fork_at_time(t, action, **kwargs)
        except (SimulationError, InvalidError, ValueError):
            continue  # the action does not apply there (a pod already gone, a CronJob already suspended, ...)
        got = saved.fork_at_time(t, action, lazy=lazy, **kwargs)
        if lazy:
            got.extend()
        assert got.complete and fingerprint_run(got) == fingerprint_run(expected), (t, action, kwargs)
        saved, replayed = got, expected
