"""The dashboard on a CronJob: its views and a Job's, the grouped picker, the next schedule, the wall clock,
the CronJob controller's decisions said short, and the CronJob's faults (each a fork of the run)."""

from __future__ import annotations

import pytest

from k8sjobs import set_language, viz
from k8sjobs.widgets.explorer import Explorer
from k8sjobs.widgets.state import PICKER_JOBS, ExplorerState
from tests.manifests import cronjob_manifest


def cronjob(name: str = "hello", schedule: str = "* * * * *", duration: str = "2s", **spec: object) -> str:
    return cronjob_manifest(name, schedule, duration=duration, spec=spec)


HELLO = cronjob()
FORBID = cronjob("nightly", "*/5 * * * *", "30s", concurrencyPolicy="Forbid")
REPLACE = cronjob("nightly", "*/5 * * * *", "30s", concurrencyPolicy="Replace")


@pytest.fixture(autouse=True)
def english():
    set_language("en")
    yield
    set_language("en")


@pytest.fixture
def hello() -> ExplorerState:
    return ExplorerState(HELLO, nodes=1, max_time=2400)


@pytest.fixture
def hello_4h() -> ExplorerState:
    return ExplorerState(HELLO, nodes=1, max_time=4 * 3600)


def test_a_cronjobs_dashboard_starts_on_the_cronjob_at_sync_0_with_its_wall_clock(hello):
    assert hello.kind == "CronJob" and hello.cronjob == "hello" and hello.job == "hello"
    assert hello.status_line() == (f"sync 0 of {hello.n_cycles} · day 1 00:00 · the CronJob is created; the CronJob "
                                   "controller has not synced it yet")


def test_step_on_the_cronjob_moves_to_its_next_sync_and_says_what_it_decided(hello):
    hello.step()
    assert hello.status_line().endswith("· day 1 00:00 · nothing due; next run at 00:01")
    hello.step()
    assert hello.status_line() == f"sync 2 of {hello.n_cycles} · day 1 00:01 · created hello-29453761 for 00:01"


def test_to_the_next_schedule_jumps_over_quiet_syncs_to_the_next_schedule_time(hello):
    assert hello.next_schedule() is True
    first = hello.cycle
    assert "cronjob.schedule.due" in hello.current.rules()
    assert hello.next_schedule() is True
    assert hello.cycle > first + 1, "the syncs between (a Job finished, nothing due) are jumped over"
    assert hello.status_line().endswith("· day 1 00:02 · created hello-29453762 for 00:02")
    assert all("cronjob.schedule.due" not in hello.run.cycle(k).rules() for k in range(first + 1, hello.cycle))


def test_to_the_next_schedule_from_a_job_shows_the_cronjob_at_its_next_schedule_after_that_time(hello):
    hello.next_schedule()
    hello.next_schedule()
    assert hello.select_job("hello-29453761") == []
    # the Job's last cycle at or before 00:02 was when it finished, a few seconds after 00:01
    assert hello.kind == "Job" and hello.status_line() == ("cycle 5 of 6 · day 1 00:01:05 · the Job is finished: "
                                                           "nothing left to do")
    assert hello.next_schedule() is True
    assert hello.kind == "CronJob" and hello.job == "hello"
    assert hello.status_line().endswith("· day 1 00:02 · created hello-29453762 for 00:02")
    assert hello.notice == "showing CronJob hello"


def test_the_picker_lists_the_cronjob_then_its_jobs_made_so_far_newest_first(hello):
    for _ in range(3):
        hello.next_schedule()
    options, more = hello.picker()
    assert options == [("hello (CronJob)", "hello"), ("\u21b3 hello-29453763", "hello-29453763"),
                       ("\u21b3 hello-29453762", "hello-29453762"), ("\u21b3 hello-29453761", "hello-29453761")]
    assert more == 0
    assert len(hello.jobs) > 4, "the run has made more Jobs later: the picker does not list them yet"


def test_the_picker_keeps_a_cronjobs_newest_jobs_and_counts_the_older_ones(hello):
    for _ in range(PICKER_JOBS + 5):
        hello.next_schedule()
    options, more = hello.picker()
    assert len(options) == 1 + PICKER_JOBS and more == 5
    assert options[1][1] == f"hello-{29453760 + PICKER_JOBS + 5}"
    # a Job picked among the older ones stays listed under the CronJob
    hello.select_job("hello-29453761")
    options, more = hello.picker()
    assert options[-1] == ("\u21b3 hello-29453761", "hello-29453761")


def test_picking_a_job_of_the_cronjob_shows_its_own_cycles_and_the_wall_clock(hello):
    hello.next_schedule()
    hello.select_job("hello-29453761")
    assert hello.kind == "Job" and hello.cycle == 1
    assert hello.status_line() == (f"cycle 1 of {hello.n_cycles} · day 1 00:01 · creating 1 pod in slow-start "
                                   "batches 1, 2, 4, ...")


def test_stopping_the_controllers_for_three_hours_misses_179_runs_and_starts_only_the_03_01_one(hello_4h):
    hello_4h.next_schedule()
    assert hello_4h.stop_controllers("3h") == []
    assert hello_4h.actions[-1].describe() == "stop_controllers(seconds=10800.0)"
    assert hello_4h.next_schedule() is True
    assert hello_4h.status_line().endswith("· day 1 03:01 · missed 179 runs while the controller was down: started "
                                        "only the latest (03:01) as hello-29453941")
    # the controller's own estimate counts the one it runs too: 180 unmet times, more than 100
    due = hello_4h.current.find("cronjob.schedule.due")[0].fields
    assert due["missed"] == 180 and due["case"] == "many"
    # the Schedule view counts the same 179 times missed while the controller manager was down
    assert "179 missed while the controller manager was down" in viz.text("schedule", hello_4h.trace, hello_4h.cycle)


def test_runs_skipped_by_an_earlier_sync_are_not_counted_again_as_missed():
    s = ExplorerState(FORBID, nodes=1, max_time=2 * 3600)
    s.next_schedule()
    s.step()
    s.step()
    s.act_on_job("stretch_pod", "nightly-29453765", seconds=700)  # runs until 00:16:42
    s.next_schedule()
    assert s.status_line().endswith("· day 1 00:10 · skipped 00:10: Forbid, job nightly-29453765 still running")
    s.next_schedule()
    assert s.status_line().endswith("· day 1 00:15 · skipped 00:15: Forbid, job nightly-29453765 still running")
    s.next_schedule()
    # when the Job has finished, the most recent unmet time runs late; the controller counts 2 unmet
    # times (00:10, 00:15), but 00:10 was skipped by Forbid at its own sync, not missed
    assert s.current.find("cronjob.schedule.due")[0].fields["missed"] == 2
    assert s.status_line().endswith("· created nightly-29453775 for 00:15")
    assert s.clock() == "day 1 00:16:42"


def test_a_stop_duration_that_does_not_read_is_refused_naming_the_field_and_the_run_is_kept(hello):
    before = (hello.run, hello.cycle)
    for bad in ("3 hours", "", "-1h", "soon"):
        lines = hello.stop_controllers(bad)
        assert lines and lines[0].startswith("stop the controllers for: must be a duration such as 90m, 3h or 1d12h")
        assert (hello.run, hello.cycle) == before


def test_forbid_skips_the_schedule_while_a_stretched_job_still_runs():
    s = ExplorerState(FORBID, nodes=1, max_time=2 * 3600)
    s.next_schedule()
    s.step()
    s.step()
    assert s.active_jobs() == ["nightly-29453765"]
    assert s.act_on_job("stretch_pod", "nightly-29453765", seconds=600) == []
    assert s.next_schedule() is True
    assert s.status_line().endswith("· day 1 00:10 · skipped 00:10: Forbid, job nightly-29453765 still running")


def test_replace_deletes_the_running_job_before_it_creates_the_next():
    s = ExplorerState(REPLACE, nodes=1, max_time=2 * 3600)
    s.next_schedule()
    s.step()
    s.step()
    s.act_on_job("stretch_pod", "nightly-29453765", seconds=600)
    s.next_schedule()
    assert s.status_line().endswith("· day 1 00:10 · Replace: deleted nightly-29453765; created nightly-29453770 "
                                    "for 00:10")


def test_a_job_without_a_running_pod_cannot_be_failed_and_nothing_changes(hello):
    hello.step()
    before = (hello.run, hello.cycle)
    lines = hello.act_on_job("fail_pod", "hello-29453761", exit_code=3)
    assert lines == ["fail_pod: Job hello-29453761 has no running pod at this time (step until it runs)"]
    assert (hello.run, hello.cycle) == before


def test_failing_a_jobs_running_pod_forks_the_run_and_the_job_fails_its_pod(hello):
    hello.next_schedule()
    hello.step()
    hello.step()
    assert hello.active_jobs() == ["hello-29453761"]
    assert hello.act_on_job("fail_pod", "hello-29453761", exit_code=3) == []
    act = hello.actions[-1]
    assert act.name == "fail_pod" and dict(act.kwargs)["name"].startswith("hello-29453761-")
    assert dict(act.kwargs)["exit_code"] == 3
    hello.select_job("hello-29453761")
    hello.run.extend()
    # the Job counts the failed pod and goes on (backoffLimit 6): a new pod, which succeeds; the Job is
    # deleted later by successfulJobsHistoryLimit (3), when the Job of 00:04 has succeeded too
    after = [c.after for c in hello.run.trace.cycles]
    assert any(a.failed == 1 for a in after) and any(a.succeeded == 1 and a.failed == 1 for a in after)
    assert hello.run.trace.cycles[-1].rules() == ["sync.skip.not_found"]


def test_suspending_the_cronjob_creates_no_job_and_resuming_starts_only_the_latest_missed_run(hello):
    hello.next_schedule()
    assert hello.act("suspend_cronjob") == []
    hello.step()
    assert hello.status_line().endswith("suspended: no Job is created")
    assert hello.next_schedule() is False, "a suspended CronJob's controller has no sync to come"
    # nothing is left to happen: the run ends when the last Job's last event has run
    assert hello.last_error == ["no later sync of the CronJob controller has a schedule time due: this run ends at "
                                f"{hello.clock(hello.run.trace.end_t)}"] and hello.run.trace.end_t < 180
    hello.back()
    assert hello.suspend_cronjob_for("29m") == []
    assert hello.notice.startswith("the CronJob is suspended right after sync 2 and resumed at day 1 00:30")
    hello.step()
    assert hello.status_line().endswith("suspended: no Job is created")
    assert hello.next_schedule() is True
    assert hello.status_line().endswith("· day 1 00:30 · missed 28 runs while the CronJob was suspended: started "
                                        "only the latest (00:30) as hello-29453790")


def test_a_bad_schedule_or_time_zone_is_refused_with_the_api_servers_error_and_the_run_is_kept(hello):
    hello.next_schedule()
    before = (hello.run, hello.cycle)
    assert hello.act("set_schedule", schedule="61 * * * *") == [
        'The CronJob "hello" is invalid: spec.schedule: Invalid value: "61 * * * *": end of range (61) above '
        'maximum (59): 61']
    assert hello.act("set_time_zone", time_zone="Mars/Base") == [
        'The CronJob "hello" is invalid: spec.timeZone: Invalid value: "Mars/Base": unknown time zone Mars/Base']
    assert (hello.run, hello.cycle) == before


def test_a_new_schedule_applies_from_the_next_sync(hello):
    hello.next_schedule()
    assert hello.act("set_schedule", schedule="*/15 * * * *") == []
    hello.next_schedule()
    assert hello.status_line().endswith("· day 1 00:15 · created hello-29453775 for 00:15")


def test_a_time_zone_moves_the_wall_clock_after_the_sync_it_was_set_at(hello):
    hello.next_schedule()
    assert hello.act("set_time_zone", time_zone="Asia/Shanghai") == []
    assert hello.clock() == "day 1 00:01", "the sync shown came before the change"
    hello.next_schedule()
    assert hello.zone() == "Asia/Shanghai"
    assert hello.status_line().endswith("· day 1 08:02 · created hello-29453762 for 08:02")


def test_the_yaml_tab_applies_an_edited_cronjob_and_runs_it_from_the_start(hello):
    assert hello.apply_yaml(HELLO.replace("* * * * *", "*/10 * * * *")) == []
    assert hello.kind == "CronJob"
    hello.next_schedule()
    assert hello.status_line().endswith("· day 1 00:10 · created hello-29453770 for 00:10")


def test_applying_yaml_to_the_running_cronjob_points_to_the_faults_and_keeps_the_run(hello):
    hello.next_schedule()
    before = (hello.run, hello.cycle)
    assert hello.apply_yaml(HELLO.replace("* * * * *", "*/5 * * * *"), mode="edit") == [
        "a running CronJob is changed with the faults and actions (schedule, time zone, suspend); Apply creates it "
        "again from the edited YAML"]
    assert (hello.run, hello.cycle) == before


def test_the_status_line_speaks_the_learners_language():
    set_language("ru")
    s = ExplorerState(HELLO, nodes=1, max_time=3600)
    s.next_schedule()
    assert s.status_line() == f"синхронизация 2 из {s.n_cycles} · день 1, 00:01 · создан hello-29453761 для 00:01"
    set_language("zh-CN")
    assert s.status_line() == f"第 2 次同步（共 {s.n_cycles} 次） · 第 1 天 00:01 · 为 00:01 创建了 hello-29453761"


# ------------------------------------------------------------------ the widgets


def test_the_cronjob_shows_its_views_and_a_picked_job_the_job_views_in_the_same_figures():
    e = Explorer(HELLO, nodes=1, max_time=3600)
    assert set(e.cronjob_views) == set(viz.views_for("CronJob"))
    own = [v for v in e.cronjob_views if viz.REGISTRY[v].kinds == ("CronJob",)]
    assert own and list(e.cronjob_views[:len(own)]) == own, "the CronJob's own views come first"
    assert list(e.tabs.titles) == [viz.title(v) for v in e.cronjob_views]
    assert e.clock_label.value == "day 1 00:00" and e.slider.readout is False
    e.next_schedule_button.click()
    assert "created hello-29453761 for 00:01" in e.status.value
    e.tabs.selected_index = e.cronjob_views.index("cluster")
    cluster = e.figures["cluster"]
    e.job_menu.value = "hello-29453761"
    assert list(e.tabs.titles) == [viz.title(v) for v in e.views]
    assert all("Job" in viz.REGISTRY[v].kinds for v in e.views)
    e.tabs.selected_index = e.views.index("cluster")
    e.job_menu.value = "hello"
    assert list(e.tabs.titles) == [viz.title(v) for v in e.cronjob_views]
    assert e.tabs.selected_index == e.cronjob_views.index("cluster"), "the tab shown stays where it can"
    assert e.figures["cluster"] is cluster, "one FigureWidget per view, updated in place"
    assert e.job_faults.layout.display == "none" and e.cronjob_faults.layout.display == "flex"


def test_the_cronjob_faults_panel_acts_and_keeps_a_refused_schedule_in_its_field():
    e = Explorer(HELLO, nodes=1, max_time=4 * 3600)
    e.next_schedule()
    e.schedule_text.value = "61 * * * *"
    e.schedule_button.click()
    assert "spec.schedule: Invalid value" in e.error.value and e.schedule_text.value == "61 * * * *"
    e.stop_for.value = "3h"
    e.stop_button.click()
    assert e.error.layout.display == "none"
    e.next_schedule_button.click()
    assert "missed 179 runs while the controller was down" in e.status.value
    assert e.clock_label.value == "day 1 03:01"
