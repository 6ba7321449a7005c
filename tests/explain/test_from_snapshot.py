"""``Explorer.from_snapshot``: the dashboard opened at a real Job's snapshot; every view, fork and fault works."""

from __future__ import annotations

import re

import yaml
from realistic import as_list, job, pod

from k8sjobs import VIEWS, Explorer, view_figure, view_text
from k8sjobs.snapshot.explain import explain
from k8sjobs.widgets.state import ExplorerState, load_snapshot

SNAPSHOT = as_list(job(completions=4, parallelism=2, status={"active": 2, "succeeded": 1, "ready": 2,
                                                             "startTime": "2025-06-02T08:00:00Z"}),
                   pod("report-a", at="08:00:05"), pod("report-b", at="08:00:40"))
TEXT = yaml.safe_dump(SNAPSHOT)


def test_cycle_0_is_the_snapshot_and_cycle_1_is_what_explain_predicts() -> None:
    state = ExplorerState.from_snapshot(TEXT, now="2025-06-02T08:01:00Z", assume_duration=30)
    assert state.cycle == 0 and state.t == 60
    assert state.status_line().endswith("the snapshot of 2025-06-02T08:01:00Z: the controller's next sync comes next")
    assert sorted(state.pod_phases().values()) == ["Running", "Running"]
    state.step()
    answer = explain(load_snapshot(TEXT, now="2025-06-02T08:01:00Z"))
    assert [d.rule for d in state.current.decisions] == [d.rule for d in answer.cycle.decisions]
    assert state.run.trace.finished and state.run.trace.final_job.status.succeeded == 4


def test_every_view_draws_the_snapshot_run_at_its_first_and_last_cycles() -> None:
    state = ExplorerState.from_snapshot(TEXT)
    trace = state.run.trace
    for view in VIEWS:
        for cycle in (0, 1, len(trace)):
            view_figure(view, trace, cycle)
            assert view_text(view, trace, cycle).strip(), view
    # The snapshot's pods keep their own history: report-a started at 08:00:05, 5 s after the Job.
    history = {h.name: h for h in trace.pod_histories()}
    assert history["report-a"].started == 5 and history["report-a"].created_in_cycle == 0


def test_the_views_at_cycle_0_say_it_is_the_snapshot_not_the_jobs_creation() -> None:
    state = ExplorerState.from_snapshot(TEXT, now="2025-06-02T08:01:00Z")
    trace = state.run.trace
    assert view_figure("timeline", trace, 0).layout.title.text.startswith(
        "Pods of job.batch/report over time, up to the snapshot of 2025-06-02T08:01:00Z (t=60 s)")
    assert "the snapshot of 2025-06-02T08:01:00Z (t=60 s)" in view_text("control_loop", trace, 0)
    assert "the start (t=0 s)" not in view_text("counts", trace, 0)


def test_the_why_pane_at_cycle_0_gives_the_snapshots_time_and_says_the_next_sync_comes() -> None:
    state = ExplorerState.from_snapshot(TEXT, now="2025-06-02T08:01:00Z")
    assert state.explanation().splitlines() == [
        f"Cycle 0 of {state.n_cycles}, t=60 s: the snapshot of 2025-06-02T08:01:00Z: the controller's next sync "
        "comes next.",
        "Step to see the Job controller's next sync on this snapshot, as explain predicts it."]
    ex = Explorer.from_snapshot(TEXT, now="2025-06-02T08:01:00Z", views=["timeline"])
    assert "t=60 s: the snapshot of 2025-06-02T08:01:00Z" in ex.explanation.value


def test_faults_fork_the_snapshot_run_and_reset_returns_to_the_snapshot() -> None:
    state = ExplorerState.from_snapshot(TEXT)
    state.step()
    assert state.act("fail_pod", name="report-a", exit_code=3) == []
    state.step()
    assert any(d.rule == "backoff.wait" or d.rule.startswith("create.") for d in state.current.decisions)
    assert state.act("set_pod_quota", pods=1) == []
    state.reset()
    assert state.cycle == 0 and state.snapshot is not None and state.actions == []


def test_a_bad_snapshot_is_refused_with_the_reason() -> None:
    import pytest

    from k8sjobs import DecodeError

    with pytest.raises(DecodeError, match="no batch/v1 Job in the snapshot"):
        ExplorerState.from_snapshot(yaml.safe_dump(as_list(pod("report-a"))))


def test_explorer_from_snapshot_builds_the_dashboard_and_steps(tmp_path) -> None:
    path = tmp_path / "snapshot.yaml"
    path.write_text(TEXT)
    ex = Explorer.from_snapshot(str(path), views=["timeline", "counts"])
    assert ex.state.cycle == 0
    ex.step()
    assert ex.state.cycle == 1 and "cycle 1 of" in ex.state.status_line()


HUGE = yaml.safe_dump(as_list(job(completions=1_000_000, parallelism=100_000,
                                  status={"active": 2, "startTime": "2025-06-02T08:00:00Z"}),
                              pod("report-a", at="08:00:05"), pod("report-b", at="08:00:40")))
"""The issue's Job (completions 10^6, parallelism 10^5) as a real cluster shows it."""


def test_a_huge_snapshot_job_stops_at_the_dashboards_limit_and_says_how_to_raise_it() -> None:
    state = ExplorerState.from_snapshot(HUGE)
    limit = state.run.limit
    assert limit is not None and limit.limit == "max_pods" and limit.value == 5000 and state.final
    assert state.notice.splitlines() == [
        f"This run stops after cycle {limit.cycle} (t={limit.t:g} s), before the Job finished, at a limit of the "
        f"dashboard: it created {limit.count} pods, more than its limit of 5000 (max_pods). The cycles up to there "
        "can be stepped, seeked and forked.",
        "To go further, raise the limit: Explorer.from_snapshot(..., max_pods=10000)."]
    # The cycles up to the limit step, seek and fork like any run's; the message stays.
    assert state.seek(state.n_cycles) == [] and state.at_end and not state.step()
    assert state.seek(1) == [] and state.act("fail_pod", name="report-a", exit_code=3) == []
    assert not state.final and re.match(r"cycle 1 of \d+\+ · ", state.status_line()), "a big run forks lazily"
    while state.step():
        pass
    assert state.final and state.run.limit.limit == "max_pods" and "(max_pods)" in state.notice
    assert ExplorerState.from_snapshot(HUGE, max_pods=1000).run.limit.value == 1000


def test_a_snapshot_run_stopped_by_its_time_limit_counts_the_time_from_the_snapshot() -> None:
    state = ExplorerState.from_snapshot(TEXT, now="2025-06-02T08:01:00Z", assume_duration=600, max_time=5)
    limit = state.run.limit
    assert limit is not None and limit.limit == "max_time" and limit.start == 60 and limit.value == 65
    assert "Explorer.from_snapshot(..., max_time=10)." in state.notice and "--until" not in state.notice
    assert "Run(..., max_time=70)" in state.run.message("Run")


def test_the_dashboard_opens_a_cronjob_snapshot_at_the_cronjob_and_its_first_sync_is_what_explain_says() -> None:
    from pathlib import Path

    path = Path(__file__).parent / "published_cronjobs" / "forbid-stale-active.yaml"
    state = ExplorerState.from_snapshot(path, now="2022-02-09T11:00:00Z")
    # The picker lists the CronJob first, then its Jobs (those of the snapshot, then those it makes).
    assert state.job == "poll-daily-ballot-handout-v2" and state.jobs[1:4] == [
        "poll-daily-ballot-handout-v2-27405480", "poll-daily-ballot-handout-v2-27405600",
        "poll-daily-ballot-handout-v2-27405720"]
    assert state.status_line().endswith("the snapshot of 2022-02-09T11:00:00Z: the controller's next sync comes next")
    assert "kind: CronJob" in state.manifest_text and "schedule: 0 */2 * * *" in state.manifest_text
    state.step()
    answer = explain(path, now="2022-02-09T11:00:00Z")
    assert [d.rule for d in state.current.decisions if d.rule not in ("cronjob.sync.begin", "cronjob.jobs.listed")] \
        == [d.rule for d in answer.sync.decisions]
    assert list(state.current.created) == answer.sync.created


def test_explorer_from_a_cronjob_snapshot_builds_the_dashboard() -> None:
    from pathlib import Path

    ex = Explorer.from_snapshot(Path(__file__).parent / "published_cronjobs" / "daily-deadline-10s.yaml",
                                now="2020-02-26T00:00:15Z")
    ex.step()
    assert ex.state.job == "qs-dependabot" and ex.state.cycle == 1
