"""Pictures at a cycle show that cycle, not what a later cycle did at the same instant."""

from __future__ import annotations

from pathlib import Path

from k8sjobs import Run, describe_job, view_text
from tests.manifests import DURATION, TERMINATION_DELAY, job_manifest

DOCS = Path(__file__).resolve().parents[2] / "examples" / "docs"
JOB = job_manifest("render", completions=4, parallelism=2, annotations={DURATION: "30s", TERMINATION_DELAY: "5s"})


def test_a_pod_deleted_in_the_next_cycle_at_the_same_time_is_not_yet_terminating() -> None:
    base = Run(JOB, seed=0)
    suspended = base.fork(3, "suspend")
    k = next(c.index for c in suspended.cycles if c.deleted)
    assert suspended.cycle(k - 1).t == suspended.cycle(k).t, "the deleting cycle follows at the same instant"
    before, after = view_text("timeline", suspended.trace, k - 1), view_text("timeline", suspended.trace, k)
    assert "terminating" not in before.splitlines()[1]
    assert "2 terminating" in after.splitlines()[1]


def test_history_until_forgets_later_events_and_keeps_earlier_ones() -> None:
    run = Run(JOB, seed=0)
    h = run.trace.pod_histories()[0]
    cut = h.until(h.seqs["finished"])
    assert (cut.finished, cut.phase, cut.exit_code) == (None, "Pending", None)
    assert cut.started == h.started and cut.created == h.created
    assert h.until(len(run.trace.changes)) is h


def test_the_wanted_count_is_zero_while_the_job_is_suspended() -> None:
    suspended = Run(JOB, seed=0).fork(3, "suspend")
    row = view_text("counts", suspended.trace, len(suspended)).splitlines()[-1].split()
    header = view_text("counts", suspended.trace, len(suspended)).splitlines()
    cols = next(line.split() for line in header if line.startswith("CYCLE"))
    assert row[cols.index("WANTED")] == "0"


def test_describe_at_a_cycle_measures_ages_from_that_cycle() -> None:
    run = Run((DOCS / "job.yaml").read_text(), seed=0)
    first = describe_job(run.trace, 1)
    assert "Created pod:" in first and "0s" in first
    assert "Completed" not in first, "an event of a later cycle is not shown"


def test_an_action_between_events_replays_at_its_own_time() -> None:
    from k8sjobs.trace.text import render_trace

    base = Run(JOB, seed=0)
    pod = base.trace.pod_histories()[0].name
    forked = base.fork_at_time(12.5, "delete_pod", name=pod)
    (action,) = forked.actions
    assert action.t == 12.5
    again = Run(JOB, seed=0, actions=forked.actions)
    assert render_trace(again.trace) == render_trace(forked.trace)
    deleted = next(h for h in again.trace.pod_histories() if h.name == pod)
    assert deleted.deleting == 12.5
