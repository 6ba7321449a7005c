"""The CronJob views (Schedule, History) over Allow, Forbid, Replace, downtime, suspend, history limits and
ttlSecondsAfterFinished, and the Job views on a Job a CronJob created."""

from __future__ import annotations

import re

import cron_scenarios as C
import plotly.graph_objects as go
import pytest
from viz_golden import check_golden

from k8sjobs import i18n, viz
from k8sjobs.viz._common import FIGURE_PX, NARROW_FIGURE_PX, figure_title, text_px, title_room

END = -1


def _rows(text: str) -> dict[str, str]:
    """SCHEDULED (its clock time) -> the row, from a Schedule text twin."""
    out = {}
    for line in text.splitlines():
        if line.startswith("2026-"):
            out[line[:16]] = line
    return out


SCHEDULE_CASES = [
    # (what the Schedule view must show, scenario, clock time, words in its row)
    ("with Allow two Jobs overlap and both succeed", "allow", "00:10", "Job succeeded"),
    ("Forbid skips a time while a Job still runs", "forbid", "00:20", "skipped: Forbid"),
    ("Forbid starts a held-back time late when the Job before it ends", "forbid", "00:10", "started late: Forbid"),
    ("Replace deletes the running Job for the next one", "replace", "00:05", "Job deleted by Replace"),
    ("a time while the controller manager was down is missed", "down", "00:25", "missed: controller manager down"),
    ("the most recent missed time runs when the controller manager is back", "down", "00:40", "00:41:00"),
    ("with startingDeadlineSeconds 30 the most recent missed time is too old at 00:41", "down_deadline", "00:40",
     "missed: controller manager down"),
    ("with startingDeadlineSeconds the next time runs as usual", "down_deadline", "00:45", "Job succeeded"),
    ("a time while the CronJob was suspended is missed", "suspended", "00:20", "missed: CronJob suspended"),
    ("the most recent time missed while suspended runs on resume", "suspended", "00:30", "00:33:20"),
    ("a failed Job is shown as failed", "history", "00:04", "Job failed"),
    ("a time zone's 02:30 is 02:30 on the axis", "zone", "2026-01-02 02:30", "Job succeeded"),
]


@pytest.mark.parametrize(("what", "scenario", "at", "words"), SCHEDULE_CASES, ids=[c[0] for c in SCHEDULE_CASES])
def test_the_schedule_view_says_what_became_of_each_time(what, scenario, at, words):
    tr = C.trace(scenario)
    rows = _rows(viz.text("schedule", tr, len(tr.cycles)))
    row = rows[at if len(at) > 5 else f"2026-01-01 {at}"]
    assert words in row, (what, row)


HISTORY_CASES = [
    # (what the History view must show, scenario, words in the text twin)
    ("the successful history limit deletes the oldest successful Job", "allow",
     "the oldest of 4 successful Jobs, successfulJobsHistoryLimit 3"),
    ("the failed history limit deletes the oldest failed Job, apart from the successful ones", "history",
     "the oldest of 2 failed Jobs, failedJobsHistoryLimit 1"),
    ("what each limit keeps is counted", "history", "kept now: 2 succeeded, 1 failed, 0 running"),
    ("ttlSecondsAfterFinished deletes a Job before the history limit would", "ttl",
     "ttlSecondsAfterFinished 180: the ttl-after-finished controller deleted it 180 s after it finished"),
    ("the Job template's ttlSecondsAfterFinished is named in the subtitle", "ttl",
     "the Job template's ttlSecondsAfterFinished 180"),
    ("a Job deleted by Replace is told apart from the history limits", "replace",
     "concurrencyPolicy Replace: the next schedule time came while it ran"),
]


@pytest.mark.parametrize(("what", "scenario", "words"), HISTORY_CASES, ids=[c[0] for c in HISTORY_CASES])
def test_the_history_view_says_which_jobs_are_kept_and_who_deleted_the_others(what, scenario, words):
    tr = C.trace(scenario)
    assert words in viz.text("history", tr, len(tr.cycles)), what


def test_no_ttl_deletion_is_counted_as_a_history_limit_deletion():
    tr = C.trace("ttl")
    text = viz.text("history", tr, len(tr.cycles))
    assert "HistoryLimit 3" not in text.split("\n", 2)[2]
    assert "by ttlSecondsAfterFinished" in text.splitlines()[1]


@pytest.mark.parametrize("scenario", list(C.ALL))
@pytest.mark.parametrize("view", ["schedule", "history"])
def test_every_figure_is_valid_plotly_and_its_title_fits_full_and_half_width(view, scenario):
    tr = C.trace(scenario)
    n = len(tr.cycles)
    for k in sorted({0, 1, n // 2, n}):
        for narrow, width in ((False, FIGURE_PX), (True, NARROW_FIGURE_PX)):
            fig = viz.figure(view, tr, k, narrow=narrow)
            again = go.Figure(fig.to_dict())  # validates every property
            assert again.layout.title.text == fig.layout.title.text
            for line in fig.layout.title.text.split("<br>"):
                assert text_px(line, 15) <= title_room(width) + 1, (view, scenario, k, width, line)
            ticks = fig.layout.xaxis.ticktext or ()
            plot = width - fig.layout.margin.l - fig.layout.margin.r
            assert len(ticks) * 40 <= plot, (view, scenario, k, width, len(ticks))
            main = figure_title(fig).splitlines()
            text = viz.text(view, tr, k).splitlines()
            assert text[:len(main)] == main, (view, scenario, k)


def test_a_day_of_an_every_minute_schedule_is_drawn_as_binned_counts_not_marks():
    tr = C.trace("minutes")
    fig = viz.figure("schedule", tr, len(tr.cycles))
    assert "counted per 5 minutes bin" in figure_title(fig)
    assert all(t.type == "bar" and len(t.x) <= 100 for t in fig.data)
    assert sum(sum(t.y) for t in fig.data) == 179
    text = viz.text("schedule", tr, len(tr.cycles))
    assert len(text.splitlines()) < 50


def test_the_history_view_draws_at_most_its_newest_jobs_and_counts_the_older_ones():
    from k8sjobs.viz import history

    tr = C.trace("minutes")
    fig = viz.figure("history", tr, len(tr.cycles))
    assert len(fig.layout.yaxis.categoryarray) == history.MAX_BARS
    assert "the 139 oldest Jobs are left out of the picture" in figure_title(fig)


def test_the_schedule_views_marks_and_bars_are_told_apart_without_colour():
    from k8sjobs.viz import schedule

    symbols = [s[2] for s in schedule.STYLE.values()]
    assert len(set(symbols)) == len(symbols)
    tr = C.trace("forbid")
    fig = viz.figure("schedule", tr, len(tr.cycles))
    names = [t.name for t in fig.data if t.showlegend]
    assert "skipped: Forbid, a Job still active" in names and "Job succeeded" in names
    bars = [t for t in fig.data if t.type == "bar" and t.name == "Job succeeded"]
    assert bars and bars[0].marker.pattern.shape == "/"


def test_the_schedule_view_shades_the_downtime_and_names_the_time_zone():
    tr = C.trace("down")
    fig = viz.figure("schedule", tr, len(tr.cycles))
    assert [a.text for a in fig.layout.annotations if a.text == "controller manager down"]
    assert any(s.type == "rect" and s.x0 == 700 and s.x1 == 2460 for s in fig.layout.shapes)
    assert fig.layout.xaxis.title.text == "clock time in UTC"
    zone = C.trace("zone")
    assert "Asia/Shanghai" in figure_title(viz.figure("schedule", zone, len(zone.cycles))).splitlines()[0]


def test_a_cycle_cuts_the_schedule_as_it_stood_then():
    tr = C.trace("forbid")
    early = _rows(viz.text("schedule", tr, 6))
    assert list(early) == ["2026-01-01 00:05", "2026-01-01 00:10"]
    assert "Job running" in early["2026-01-01 00:10"]


def test_the_job_views_work_on_a_job_the_cronjob_created():
    run = C.allow()
    job = run.trace_of("default/nightly-29453765")
    assert job.kind == "Job"
    for view in viz.views_for("Job"):
        viz.figure(view, job, len(job.cycles))
        assert "nightly-29453765" in viz.text(view, job, len(job.cycles)) or view == "cluster"


def test_the_events_view_shows_a_cronjobs_events_from_the_cronjob_controller():
    tr = C.trace("forbid")
    assert "events" in viz.views_for("CronJob")
    text = viz.text("events", tr, len(tr.cycles))
    assert text.startswith("Events of cronjob.batch/nightly")
    assert "JobAlreadyActive" in text and "cronjob-controller" in text
    assert not re.search(r"(?<!cron)job-controller", text)


def test_a_cronjob_view_given_a_jobs_trace_says_it_shows_a_cronjob():
    job = C.allow().trace_of("default/nightly-29453765")
    for view in ("schedule", "history"):
        assert viz.text(view, job, 1).startswith("Not a CronJob: job.batch/nightly-29453765 is a Job")


@pytest.mark.parametrize("lang", ["zh-CN", "ru"])
def test_the_cronjob_views_speak_the_learners_language(lang):
    tr = C.trace("down")
    i18n.set_language(lang)
    try:
        text = viz.text("schedule", tr, len(tr.cycles)) + viz.text("history", tr, len(tr.cycles))
    finally:
        i18n.set_language("en")
    assert "missed" not in text and "Schedule of" not in text and "kept now" not in text


GOLDEN = [
    ("schedule", "forbid"), ("schedule", "replace"), ("schedule", "down"), ("schedule", "down_deadline"),
    ("schedule", "suspended"), ("schedule", "minutes"), ("history", "history"), ("history", "ttl"),
]


@pytest.mark.parametrize(("view", "scenario"), GOLDEN, ids=[f"{v}-{s}" for v, s in GOLDEN])
def test_the_cronjob_text_twins_match_their_golden_files(view, scenario):
    tr = C.trace(scenario)
    check_golden(f"{view}--{scenario}--end", viz.text(view, tr, len(tr.cycles)))
