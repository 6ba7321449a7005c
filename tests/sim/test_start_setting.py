"""The ``start`` setting: where simulated time 0 is on the wall clock (a CronJob on any date)."""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys

import pytest

from k8sjobs import Run
from k8sjobs.api.types import CRONJOB_SCHEDULED_TIMESTAMP_ANNOTATION
from k8sjobs.commands.run import run_to_json
from k8sjobs.sim import SimConfig, Simulation
from k8sjobs.snapshot.read import example_snapshot, load_snapshot
from k8sjobs.trace.kubectl import describe_cronjob, describe_job
from k8sjobs.trace.text import render_run


def cronjob(schedule: str, time_zone: str | None = None) -> str:
    tz = f"\n  timeZone: {time_zone}" if time_zone else ""
    return f"""\
apiVersion: batch/v1
kind: CronJob
metadata:
  name: report
spec:
  schedule: "{schedule}"{tz}
  jobTemplate:
    spec:
      template:
        metadata:
          annotations:
            sim.k8sjobs.io/duration: "10s"
        spec:
          restartPolicy: Never
          containers:
          - name: work
            image: busybox
"""


def minutes(text: str) -> int:
    return int(dt.datetime.fromisoformat(text).timestamp()) // 60


def created(run: Run) -> list[str]:
    return [name for c in run.cluster.cronjobs()[0].cycles for name in c.created]


def test_a_cronjob_started_in_2023_names_its_jobs_annotates_them_and_prints_its_dates_in_2023() -> None:
    run = Run(cronjob("0 12 * * *", "Europe/Berlin"), start="2023-06-01T00:00:00Z", nodes=1, max_time=86400)
    # Noon in Berlin (summer time) is 10:00 UTC.
    assert created(run) == [f"report-{minutes('2023-06-01T10:00:00+00:00')}"]
    job = run.cluster.jobs()[0]
    assert job.final_job.metadata.annotations[CRONJOB_SCHEDULED_TIMESTAMP_ANNOTATION] == "2023-06-01T12:00:00+02:00"
    cron = run.cluster.cronjobs()[0]
    assert cron.final_job.status.last_schedule_time == 10 * 3600, "objects keep seconds since the run's time 0"
    assert "Last Schedule Time:  Thu, 01 Jun 2023 10:00:00 +0000" in describe_cronjob(cron)
    assert "Start Time:       Thu, 01 Jun 2023 10:00:00 +0000" in describe_job(job)
    text = render_run(run.cluster)
    assert "t=0 s is 2023-06-01T00:00:00Z" in text
    assert "for the schedule time 2023-06-01T12:00:00+02:00" in text
    assert "2026" not in text
    doc = run_to_json(run)
    assert doc["final"]["status"]["lastScheduleTime"] == "2023-06-01T10:00:00Z"


def test_the_default_start_is_the_models_epoch_and_an_explicit_epoch_changes_nothing() -> None:
    plain = Run(cronjob("*/7 * * * *"), nodes=1, max_time=1800)
    same = Run(cronjob("*/7 * * * *"), start="2026-01-01T00:00:00Z", nodes=1, max_time=1800)
    assert render_run(plain.cluster) == render_run(same.cluster)
    assert created(plain)[0] == f"report-{minutes('2026-01-01T00:07:00+00:00')}"
    assert SimConfig().origin == 0.0 and plain.trace.origin == 0.0


def test_on_the_spring_forward_day_a_new_york_schedule_runs_one_hour_earlier_in_utc() -> None:
    run = Run(cronjob("0 3 * * *", "America/New_York"), start="2026-03-07T00:00:00-05:00", nodes=1,
              max_time=2 * 86400)
    # 03:00 EST on March 7 is 08:00 UTC; on March 8 the clocks jump from 02:00 to 03:00 EDT: 07:00 UTC.
    assert created(run) == [f"report-{minutes('2026-03-07T08:00:00+00:00')}",
                            f"report-{minutes('2026-03-08T07:00:00+00:00')}"]
    stamps = [j.final_job.metadata.annotations[CRONJOB_SCHEDULED_TIMESTAMP_ANNOTATION] for j in run.cluster.jobs()
              if j.final_job is not None]
    assert stamps == ["2026-03-07T03:00:00-05:00", "2026-03-08T03:00:00-04:00"]


def test_a_schedule_without_a_zone_reads_the_start_in_the_controllers_zone() -> None:
    run = Run(cronjob("0 9 * * 1"), start="2024-02-29T00:00:00Z", controller_zone="Asia/Tokyo", nodes=1,
              max_time=7 * 86400)
    # 2024-02-29 is a Thursday; the next Monday 09:00 in Tokyo is 2024-03-04T00:00:00Z.
    assert created(run) == [f"report-{minutes('2024-03-04T00:00:00+00:00')}"]


def test_a_fork_of_a_run_with_a_start_keeps_its_dates() -> None:
    run = Run(cronjob("*/10 * * * *"), start="2030-07-04T09:00:00Z", nodes=1, max_time=3600)
    forked = run.fork_at_time(1200, "stop_controllers", seconds=60)
    assert created(forked)[0] == created(run)[0] == f"report-{minutes('2030-07-04T09:10:00+00:00')}"
    assert forked.trace.origin == run.trace.origin == SimConfig(start="2030-07-04T09:00:00Z").origin


@pytest.mark.parametrize("value, problem", [
    ("2023-06-01", "start: must be an RFC 3339 date and time with its offset"),
    ("2023-06-01T00:00:00", "start: must be an RFC 3339 date and time with its offset"),
    (1685577600, "start: must be an RFC 3339 date and time with its offset"),
    ("1969-12-31T23:59:59Z", "start: must be from 1970-01-01T00:00:00Z up to 9000-01-01T00:00:00Z"),
])
def test_a_bad_start_is_refused_naming_the_setting(value: object, problem: str) -> None:
    with pytest.raises(ValueError, match="invalid simulation settings: " + problem):
        SimConfig(start=value)


def test_a_snapshot_runs_at_its_own_dates_and_refuses_a_start() -> None:
    snap = load_snapshot(example_snapshot("backoff"))
    with pytest.raises(ValueError, match="start: a run from a snapshot is at the snapshot's own dates"):
        Simulation(snap, start="2023-06-01T00:00:00Z")


def test_run_start_on_the_command_line(tmp_path) -> None:
    path = tmp_path / "cj.yaml"
    path.write_text(cronjob("30 2 * * *", "Europe/Paris"))
    out = subprocess.run([sys.executable, "-m", "k8sjobs", "run", str(path), "--until", "1d", "--format", "json",
                          "--start", "2025-07-01T00:00:00+02:00"], capture_output=True, text=True, check=True)
    doc = json.loads(out.stdout)
    # 02:30 in Paris in summer is 00:30 UTC.
    assert doc["final"]["status"]["lastScheduleTime"] == "2025-07-01T00:30:00Z"
    bad = subprocess.run([sys.executable, "-m", "k8sjobs", "run", str(path), "--start", "yesterday"],
                         capture_output=True, text=True)
    assert bad.returncode == 1 and "start: must be an RFC 3339 date and time" in bad.stderr
