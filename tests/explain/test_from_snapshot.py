"""``Explorer.from_snapshot``: the dashboard opened at a real Job's snapshot; every view, fork and fault works."""

from __future__ import annotations

import yaml
from realistic import as_list, job, pod

from k8sjobs import VIEWS, Explorer, view_figure, view_text
from k8sjobs.trace.explain import explain
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
    assert "before the first cycle" not in view_text("counts", trace, 0)


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
