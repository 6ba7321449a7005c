"""explain on real, published CronJob dumps: the next schedule time, the sync at `now`, the sync at the next
schedule time, why runs were missed, the forecast and the assumptions printed.

Each file in ``published_cronjobs/`` says where it was published, what was filled in, and what happened
next on that cluster.
"""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys
from pathlib import Path

import pytest

from k8sjobs import set_language
from k8sjobs.cli import main
from k8sjobs.snapshot import explain
from k8sjobs.snapshot.cronexplain import CronExplanation
from k8sjobs.snapshot.errors import SnapshotError

PUBLISHED = Path(__file__).parent / "published_cronjobs"


def minutes(text: str) -> int:
    return int(dt.datetime.fromisoformat(text).timestamp()) // 60


def cli_json(name: str, capsys, *extra: str) -> dict:
    assert main(["explain", str(PUBLISHED / name), "--format", "json", *extra]) == 0
    return json.loads(capsys.readouterr().out)


def ids(answer: dict) -> list[str]:
    return [n["id"] for n in answer["notes"]]


def test_a_completed_job_left_in_active_is_removed_and_the_most_recent_missed_run_starts(capsys) -> None:
    # kubernetes#108023: Forbid, status.active names a Job that completed 17 h before. The 1.35 controller
    # sees it finished (SawCompletedJob), sets lastSuccessfulTime, and starts only the latest of the 8
    # schedule times missed since 18:00 (10:00); the next run is due at 12:00.
    answer = cli_json("forbid-stale-active.yaml", capsys, "--now", "2022-02-09T11:00:00Z")
    name = "poll-daily-ballot-handout-v2"
    assert answer["nextSchedule"] == "2022-02-09T12:00:00Z"
    assert answer["nextJob"] == f"{name}-{minutes('2022-02-09T12:00:00+00:00')}"
    sync = answer["sync"]
    assert sync["createdJobs"] == [f"{name}-{minutes('2022-02-09T10:00:00+00:00')}"]
    assert sync["deletedJobs"] == []
    assert [e["reason"] for e in sync["events"]] == ["SawCompletedJob", "SuccessfulCreate"]
    assert sync["requeueAfter"] == pytest.approx(3600.1)
    due = next(d for d in sync["decisions"] if d["rule"] == "cronjob.schedule.due")
    assert due["missed"] == 8 and due["case"] == "few"
    assert any("only the most recent one, 2022-02-09T10:00:00Z, is started now" in m for m in answer["missed"])
    # At 12:00 the Job of 10:00 (pods of the median 23 min of the three completed Jobs) is done: it runs.
    nxt = answer["next"]
    assert nxt["at"].startswith("2022-02-09T12:00:00.1")
    assert nxt["createdJobs"] == [answer["nextJob"]]
    # The Jobs were shown: no stand-ins, no note asking for them; no timeZone: the controller's zone is assumed.
    assert answer["jobs"]["standIns"] == [] and len(answer["jobs"]["shown"]) == 3
    assert "assume.cron_unseen_jobs" not in ids(answer) and "assume.cron_no_jobs" not in ids(answer)
    assert "assume.cron_controller_zone" in ids(answer) and "assume.cron_latest_time" not in ids(answer)


def test_its_forecast_deletes_the_oldest_completed_job_beyond_the_history_limit(capsys) -> None:
    answer = cli_json("forbid-stale-active.yaml", capsys, "--now", "2022-02-09T11:00:00Z", "--forecast",
                      "--runs", "3")
    runs = answer["forecast"]["runs"]
    # The sync at now settles the missed 10:00; then 12:00 and 14:00 come.
    assert [r["scheduled"] for r in runs] == ["2022-02-09T10:00:00Z", "2022-02-09T12:00:00Z",
                                             "2022-02-09T14:00:00Z"]
    assert all(r["outcome"] == "cronjob.create" for r in runs)
    # The Jobs' pods run the median time the three completed Jobs took (35, 21, 23 min): 23 min.
    assert answer["forecast"]["durationFrom"] == "finished-jobs" and answer["forecast"]["assumedDuration"] == 1380
    assert any("1380 s" in a for a in answer["forecast"]["assumptions"])
    # successfulJobsHistoryLimit 3 (the default): when the Job made at 11:00 for 10:00 completes (23 min and
    # its pod's start later), the oldest of the four completed Jobs is deleted, and so on after each run.
    deletions = answer["forecast"]["deletions"]
    assert deletions[0]["at"].startswith("2022-02-09T11:23:0")
    assert [d["job"] for d in deletions[:3]] == ["poll-daily-ballot-handout-v2-27405480",
                                                 "poll-daily-ballot-handout-v2-27405600",
                                                 "poll-daily-ballot-handout-v2-27405720"]


def test_a_sync_later_than_starting_deadline_seconds_passes_over_the_run_without_an_event(capsys) -> None:
    # kubernetes#86647: daily at 00:01, startingDeadlineSeconds 10, Replace; the run of 2020-02-26 never came.
    late = cli_json("daily-deadline-10s.yaml", capsys, "--now", "2020-02-26T00:01:15Z")
    assert late["sync"]["createdJobs"] == [] and late["sync"]["events"] == []
    assert [d["rule"] for d in late["sync"]["decisions"]] == ["cronjob.schedule.none_due", "cronjob.requeue"]
    assert late["nextSchedule"] == "2020-02-27T00:01:00Z"
    assert any("2020-02-26T00:01:00Z passed more than startingDeadlineSeconds (10 s)" in m for m in late["missed"])
    # On time (9 s late), the same sync starts it.
    on_time = cli_json("daily-deadline-10s.yaml", capsys, "--now", "2020-02-26T00:01:09Z")
    assert on_time["sync"]["createdJobs"] == [f"qs-dependabot-{minutes('2020-02-26T00:01:00+00:00')}"]
    assert on_time["missed"] == []


def test_a_cronjob_alone_is_read_with_the_notes_it_rests_on(capsys) -> None:
    answer = cli_json("daily-deadline-10s.yaml", capsys)
    # No --now: the latest time recorded (lastScheduleTime); nothing is due then, the next run is a day later.
    assert answer["now"] == "2020-02-25T00:01:00Z" and answer["nextSchedule"] == "2020-02-26T00:01:00Z"
    assert answer["apiVersion"] == "batch/v1beta1"
    assert ids(answer) == ["assume.cron_sync_time", "assume.cron_latest_time", "assume.cron_no_jobs",
                           "assume.cron_controller_zone", "assume.cron_old_api"]
    note = next(n for n in answer["notes"] if n["id"] == "assume.cron_no_jobs")
    assert note["command"] == "kubectl get cronjob,jobs -o yaml"
    assert "--now" in next(n["text"] for n in answer["notes"] if n["id"] == "assume.cron_latest_time")


def test_a_weekday_run_is_started_within_the_deadline_and_passed_over_after_it(capsys) -> None:
    # kubernetes#93578 (batch/v1beta1): 14:00 on weekdays, startingDeadlineSeconds 600, Forbid.
    job = f"rcj-homebroker-bolsa-{minutes('2020-07-30T14:00:00+00:00')}"
    ok = cli_json("weekdays-deadline-v1beta1.yaml", capsys, "--now", "2020-07-30T14:09:00Z")
    assert ok["sync"]["createdJobs"] == [job]
    late = cli_json("weekdays-deadline-v1beta1.yaml", capsys, "--now", "2020-07-30T14:11:00Z")
    assert late["sync"]["createdJobs"] == []
    # Thursday 14:00 missed; the next run is Friday's.
    assert late["nextSchedule"] == "2020-07-31T14:00:00Z"
    assert any("startingDeadlineSeconds (600 s)" in m for m in late["missed"])
    assert "assume.cron_old_api" in ids(late)


def test_status_active_without_its_job_stands_in_a_running_job_and_forbid_skips() -> None:
    text = (PUBLISHED / "forbid-stale-active.yaml").read_text()
    # The CronJob alone (its first item), as `kubectl get cronjob NAME -o yaml` prints it.
    import yaml

    doc = yaml.safe_load(text)["items"][0]
    answer = explain(doc, now="2022-02-08T20:00:05Z")
    assert isinstance(answer, CronExplanation)
    assert answer.snapshot.unseen_jobs == ("poll-daily-ballot-handout-v2-27405720",)
    data = answer.to_json()
    # Its Job is taken as running: Forbid skips the 20:00 run (JobAlreadyActive); the stand-in is named.
    assert data["sync"]["createdJobs"] == []
    assert [e["reason"] for e in data["sync"]["events"]] == ["JobAlreadyActive"]
    assert "assume.cron_unseen_jobs" in [n.id for n in answer.notes]
    assert any("concurrencyPolicy Forbid" in m for m in answer.missed())
    assert "kubectl get cronjob,jobs -n transparency -o yaml" in answer.render_text()


def test_the_next_run_is_given_in_the_cronjobs_zone_and_in_utc() -> None:
    doc = {"apiVersion": "batch/v1", "kind": "CronJob",
           "metadata": {"name": "report", "namespace": "default", "creationTimestamp": "2026-03-01T00:00:00Z"},
           "spec": {"schedule": "0 3 * * *", "timeZone": "America/New_York",
                    "jobTemplate": {"spec": {"template": {"spec": {"restartPolicy": "Never", "containers": [
                        {"name": "c", "image": "busybox"}]}}}}}}
    answer = explain(doc, now="2026-03-07T12:00:00Z")
    data = answer.to_json()
    # The spring-forward night: 03:00 EDT is 07:00 UTC.
    assert data["nextScheduleLocal"] == "2026-03-08T03:00:00-04:00" and data["nextSchedule"] == "2026-03-08T07:00:00Z"
    assert data["nextJob"] == f"report-{minutes('2026-03-08T07:00:00+00:00')}"
    assert "assume.cron_controller_zone" not in [n.id for n in answer.notes]
    assert "2026-03-08T03:00:00-04:00 (America/New_York), 2026-03-08T07:00:00Z" in answer.render_text()


def test_a_bad_runs_value_names_the_option_on_each_surface() -> None:
    answer = explain(PUBLISHED / "daily-deadline-10s.yaml")
    with pytest.raises(SnapshotError, match="runs: must be a whole number of schedule times from 1 to 1000"):
        answer.forecast(0)
    out = subprocess.run([sys.executable, "-m", "k8sjobs", "explain", str(PUBLISHED / "daily-deadline-10s.yaml"),
                          "--forecast", "--runs", "0"], capture_output=True, text=True)
    assert out.returncode == 1 and out.stderr.startswith("--runs: must be a whole number")


def test_the_text_is_translated(capsys) -> None:
    set_language("ru")
    try:
        assert main(["explain", str(PUBLISHED / "daily-deadline-10s.yaml")]) == 0
        out = capsys.readouterr().out
    finally:
        set_language("en")
    assert "CronJob default/qs-dependabot" in out and "next schedule time" not in out


def test_a_job_of_the_list_is_explained_as_a_job_when_chosen_by_name(capsys) -> None:
    answer = cli_json("forbid-stale-active.yaml", capsys, "--job", "poll-daily-ballot-handout-v2-27405720")
    assert answer["job"] == "transparency/poll-daily-ballot-handout-v2-27405720"
    assert [d["rule"] for d in answer["decisions"]] == ["sync.skip.finished"]
    assert main(["explain", str(PUBLISHED / "forbid-stale-active.yaml"), "--job",
                 "poll-daily-ballot-handout-v2-27405720"]) == 0
    assert "Not used by the model (ignored): 1 CronJob object" in capsys.readouterr().out


def test_a_suspended_cronjob_says_why_its_runs_pass_and_what_resuming_does() -> None:
    import yaml

    doc = yaml.safe_load((PUBLISHED / "daily-deadline-10s.yaml").read_text())
    doc["spec"]["suspend"] = True
    answer = explain(doc, now="2020-02-27T09:00:00Z")
    data = answer.to_json()
    assert [d["rule"] for d in data["sync"]["decisions"]] == ["cronjob.skip.suspended"]
    assert data["sync"]["requeueAfter"] is None and data["next"] is None
    assert data["nextSchedule"] == "2020-02-28T00:01:00Z"  # when it would run, were it resumed
    assert any("spec.suspend: true" in m for m in data["missed"])
    assert "No sync comes at the next schedule time" in answer.render_text()


def test_several_cronjobs_ask_for_one_by_name_on_each_surface() -> None:
    import yaml

    one = yaml.safe_load((PUBLISHED / "daily-deadline-10s.yaml").read_text())
    other = {**one, "metadata": {**one["metadata"], "name": "other"}}
    text = yaml.safe_dump({"apiVersion": "v1", "kind": "List", "items": [one, other]})
    with pytest.raises(SnapshotError) as err:
        explain(text)
    assert str(err.value) == '<snapshot>: 2 CronJobs in the snapshot (default/other, default/qs-dependabot): ' \
        'choose one with job="NAME"'
    assert err.value.render("cli").endswith("choose one with --job NAME")
    assert explain(text, job="other").snapshot.cronjob.metadata.name == "other"


# ---------------------------------------------------------------------------- dumps published verbatim
#
# Each file below is a CronJob as `kubectl get cronjob NAME -o yaml` (or `oc edit`) printed it on a real cluster,
# stored as published (see its header). `--now` is the instant the publication shows it was printed at; the
# expected values are worked out by hand from the schedule (the arithmetic is in the comments).

VERBATIM = [
    pytest.param(
        # Weekly "39 19 * * THU"; printed right after the run of Thursday 2019-07-18T19:39:00Z started.
        # Next: 7 days later, 2019-07-25T19:39:00Z = 1563478740 s + 604800 s = 1564083540 s = 26068059 min.
        # Requeue: from 19:40:00 to 19:39:00 a week later plus 100 ms = 604800 - 60 + 0.1 s.
        "weekly-active-openshift-v1beta1.yaml", "2019-07-18T19:40:00Z", "2019-07-25T19:39:00Z",
        "crawler-ichkoche-26068059", 604740.1, ["crawler-ichkoche-1563478740"],
        ["assume.cron_sync_time", "assume.cron_unseen_jobs", "assume.cron_controller_zone", "assume.cron_old_api",
         "assume.cron_old_job_names"],
        id="weekly-active-openshift"),
    pytest.param(
        # Every minute; printed between 08:14:00 and 08:15:00. Next: 08:15:00Z = 1578816000 s (08:00, the
        # published hello-1578816000) + 900 s = 1578816900 s = 26313615 min. Requeue: 30 s to 08:15 + 0.1 s.
        "every-minute-history-v1beta1.yaml", "2020-01-12T08:14:30Z", "2020-01-12T08:15:00Z", "hello-26313615",
        30.1, [], ["assume.cron_sync_time", "assume.cron_no_jobs", "assume.cron_controller_zone",
                   "assume.cron_old_api"],
        id="every-minute-history"),
    pytest.param(
        # Every minute, Forbid; printed between 16:35:00 and 16:36:00. Next: 16:36:00Z = 1590942960 s
        # = 26515716 min. Requeue: 30 s + 0.1 s.
        "forbid-every-minute-v1beta1.yaml", "2020-05-31T16:35:30Z", "2020-05-31T16:36:00Z",
        "time-teller-26515716", 30.1, [], ["assume.cron_sync_time", "assume.cron_no_jobs",
                                           "assume.cron_controller_zone", "assume.cron_old_api"],
        id="forbid-every-minute"),
]


@pytest.mark.parametrize(("name", "now", "next_schedule", "next_job", "requeue", "stand_ins", "notes"), VERBATIM)
def test_a_published_dump_between_two_runs_is_synced_without_a_job_and_its_next_run_creates_one(
        name, now, next_schedule, next_job, requeue, stand_ins, notes, capsys) -> None:
    answer = cli_json(name, capsys, "--now", now)
    assert answer["now"] == now and answer["apiVersion"] == "batch/v1beta1"
    assert answer["nextSchedule"] == next_schedule and answer["nextScheduleLocal"] == next_schedule
    assert answer["nextJob"] == next_job
    assert int(next_job.rsplit("-", 1)[1]) == minutes(next_schedule.replace("Z", "+00:00"))
    # Nothing is due at `now`: the last schedule time is already lastScheduleTime.
    sync = answer["sync"]
    assert sync["createdJobs"] == [] and sync["deletedJobs"] == [] and sync["events"] == []
    assert [d["rule"] for d in sync["decisions"]] == ["cronjob.schedule.none_due", "cronjob.requeue"]
    assert sync["requeueAfter"] == pytest.approx(requeue)
    assert answer["missed"] == []
    # The sync at the next schedule time (plus 100 ms) creates its Job, whatever the policy (none is running then).
    nxt = answer["next"]
    assert nxt["at"].startswith(next_schedule[:-1] + ".1")
    assert nxt["createdJobs"] == [next_job] and nxt["deletedJobs"] == []
    assert [e["reason"] for e in nxt["events"]] == ["SuccessfulCreate"]
    # What it rests on: the Jobs not in the paste, the controller's zone, the v1beta1 dump read as 1.35's model.
    assert ids(answer) == notes
    assert answer["jobs"]["shown"] == [] and answer["jobs"]["standIns"] == stand_ins
    old_api = next(n for n in answer["notes"] if n["id"] == "assume.cron_old_api")
    assert "batch/v1beta1" in old_api["text"] and "Kubernetes 1.35" in old_api["text"]


def test_a_stand_in_job_named_in_unix_seconds_by_an_older_controller_is_read_at_that_second(capsys) -> None:
    # crawler-ichkoche-1563478740: the controller before Kubernetes 1.21 named Jobs NAME-<Unix seconds>;
    # 1563478740 s is 2019-07-18T19:39:00Z, the lastScheduleTime. Read as minutes it would be the year 4942, and
    # the sync would see some 150,000 missed times (TooManyMissedTimes) and start a Job for a Thursday of 4942.
    answer = cli_json("weekly-active-openshift-v1beta1.yaml", capsys)
    # No --now: the latest time recorded is the lastScheduleTime, the Job's start.
    assert answer["now"] == "2019-07-18T19:39:00Z" and "assume.cron_latest_time" in ids(answer)
    assert answer["sync"]["events"] == [] and answer["sync"]["createdJobs"] == []
    assert answer["nextSchedule"] == "2019-07-25T19:39:00Z"
    note = next(n for n in answer["notes"] if n["id"] == "assume.cron_unseen_jobs")
    assert note["command"] == "kubectl get cronjob,jobs -n washeuteessen-test -o yaml"
    assert "crawler-ichkoche-1563478740" in note["text"]
    # And the reading of its name is said: seconds, the older controller's names; 1.35 names in minutes.
    old = next(n for n in answer["notes"] if n["id"] == "assume.cron_old_job_names")
    assert old["names"] == ["crawler-ichkoche-1563478740"] and old["seconds"] == 1563478740
    assert old["time"] == "2019-07-18T19:39:00Z" and "NAME-<Unix minutes>" in old["text"]
    # The stand-in Job is created at the time its name says, in the simulation's frame of the snapshot.
    ex = explain(PUBLISHED / "weekly-active-openshift-v1beta1.yaml")
    job = next(j for j in ex.snapshot.jobs if j.metadata.name == "crawler-ichkoche-1563478740")
    assert ex.snapshot.real_time(job.metadata.creation_timestamp) == "2019-07-18T19:39:00Z"
    assert ex.snapshot.real_time(job.status.start_time) == "2019-07-18T19:39:00Z"


def test_the_weekly_forecast_deletes_the_older_controllers_job_first(capsys) -> None:
    # successfulJobsHistoryLimit 3. The Job of 07-18 (its pods taken to run 60 s) and those of 07-25, 08-01 and
    # 08-08 complete: when the fourth completes (08-08 19:39:00.1 + its pod's start + 60 s), the oldest by start
    # time goes, the older controller's Job of 07-18 (read at 2019-07-18 from its seconds; read as minutes it
    # would start in 4942 and be kept as the newest); a week later the 1.35 Job of 07-25 (26068059).
    answer = cli_json("weekly-active-openshift-v1beta1.yaml", capsys, "--now", "2019-07-18T19:40:00Z", "--forecast",
                      "--runs", "4")
    runs = answer["forecast"]["runs"]
    # 26068059 min + 7 days (10080 min) each: 26078139, 26088219, 26098299.
    assert [r["job"] for r in runs] == ["crawler-ichkoche-26068059", "crawler-ichkoche-26078139",
                                        "crawler-ichkoche-26088219", "crawler-ichkoche-26098299"]
    deletions = answer["forecast"]["deletions"]
    assert [d["job"] for d in deletions] == ["crawler-ichkoche-1563478740", "crawler-ichkoche-26068059"]
    assert deletions[0]["at"].startswith("2019-08-08T19:40:") and deletions[1]["at"].startswith("2019-08-15T19:40:")


def test_every_minute_the_forecast_keeps_three_completed_jobs_as_the_published_lists_show(capsys) -> None:
    # The post's lists: each minute a Job whose pod ran 6 to 10 s; once the fourth Job (08:01) completed, the
    # oldest (07:58) and its pod were gone (successfulJobsHistoryLimit 3). The same at 08:15 to 08:19 with
    # pods of 6 s: the Job of 08:15 is deleted when the one of 08:18 completes, the one of 08:16 after 08:19's.
    answer = cli_json("every-minute-history-v1beta1.yaml", capsys, "--now", "2020-01-12T08:14:30Z", "--forecast",
                      "--runs", "5", "--assume-duration", "6")
    runs = answer["forecast"]["runs"]
    # 08:15 to 08:19 = 26313615 to 26313619 min (1578816900 s / 60 = 26313615, one more each minute).
    assert [r["job"] for r in runs] == [f"hello-{26313615 + i}" for i in range(5)]
    assert all(r["outcome"] == "cronjob.create" and r["createdJobs"] == [r["job"]] for r in runs)
    assert [r["scheduled"] for r in runs] == [f"2020-01-12T08:1{5 + i}:00Z" for i in range(5)]
    deletions = answer["forecast"]["deletions"]
    assert [d["job"] for d in deletions] == ["hello-26313615", "hello-26313616"]
    assert deletions[0]["at"].startswith("2020-01-12T08:18:") and deletions[1]["at"].startswith("2020-01-12T08:19:")
    # The 6 s pods end before the next minute: every run finds no Job running.
    assert answer["forecast"]["durationFrom"] == "given" and answer["forecast"]["assumedDuration"] == 6


def test_forbid_starts_a_skipped_time_late_when_the_running_job_finishes(capsys) -> None:
    # time-teller, Forbid, every minute. Jobs of 70 s: the one of 16:36 still runs at 16:37:00.1, so 16:37 is
    # skipped (JobAlreadyActive) and lastScheduleTime stays 16:36; when that Job completes (16:36:00.1 + its
    # pod's start + 70 s, before 16:38), its change wakes a sync that finds 16:37 without a Job and starts it.
    answer = cli_json("forbid-every-minute-v1beta1.yaml", capsys, "--now", "2020-05-31T16:35:30Z", "--forecast",
                      "--runs", "3", "--assume-duration", "70")
    runs = answer["forecast"]["runs"]
    assert [(r["scheduled"], r["outcome"]) for r in runs] == [
        ("2020-05-31T16:36:00Z", "cronjob.create"), ("2020-05-31T16:37:00Z", "cronjob.skip.forbid"),
        ("2020-05-31T16:37:00Z", "cronjob.create")]
    assert [e["reason"] for e in runs[1]["events"]] == ["JobAlreadyActive"]
    late = runs[2]
    assert late["job"] == "time-teller-26515717" and "2020-05-31T16:37:10" <= late["at"] < "2020-05-31T16:38:00"
    assert [e["reason"] for e in late["events"]] == ["SawCompletedJob", "SuccessfulCreate"]


def test_forbid_says_a_skipped_time_is_started_when_the_active_job_finishes() -> None:
    import yaml

    doc = yaml.safe_load((PUBLISHED / "forbid-every-minute-v1beta1.yaml").read_text())
    # The Job of 16:36 (26515716 min) still active at the sync of 16:37 (pasted without it: a stand-in runs).
    doc["status"] = {"lastScheduleTime": "2020-05-31T16:36:00Z", "active": [
        {"apiVersion": "batch/v1", "kind": "Job", "name": "time-teller-26515716", "namespace": "default",
         "uid": "3c1f7d2e-0000-4000-8000-000000000001"}]}
    answer = explain(doc, now="2020-05-31T16:37:00.1Z")
    data = answer.to_json()
    assert [e["reason"] for e in data["sync"]["events"]] == ["JobAlreadyActive"]
    assert data["sync"]["createdJobs"] == []
    text = next(m for m in data["missed"] if "concurrencyPolicy Forbid" in m)
    assert "2020-05-31T16:37:00Z is skipped" in text and "time-teller-26515716" in text
    assert "starts the skipped time late" in text and "not retried" not in text


def test_a_dump_with_crlf_line_ends_reads_as_the_same_cronjob() -> None:
    # The README the time-teller dump comes from has CRLF line ends.
    text = (PUBLISHED / "forbid-every-minute-v1beta1.yaml").read_text()
    lf = explain(text, now="2020-05-31T16:35:30Z").to_json()
    crlf = explain(text.replace("\n", "\r\n"), now="2020-05-31T16:35:30Z").to_json()
    assert crlf == lf and crlf["nextJob"] == "time-teller-26515716"


def test_a_trimmed_paste_naming_an_active_job_without_its_uid_gets_no_unexpected_job_event() -> None:
    import yaml

    doc = yaml.safe_load((PUBLISHED / "weekly-active-openshift-v1beta1.yaml").read_text())
    for ref in doc["status"]["active"]:
        del ref["uid"]
    answer = explain(doc, now="2019-07-18T19:40:00Z").to_json()
    # The reference and its stand-in Job agree: the sync at now is the one of the full dump, no UnexpectedJob.
    full = explain(PUBLISHED / "weekly-active-openshift-v1beta1.yaml", now="2019-07-18T19:40:00Z").to_json()
    assert answer["sync"]["events"] == [] == full["sync"]["events"]
    assert answer["sync"]["decisions"] == full["sync"]["decisions"]
    assert answer["jobs"]["standIns"] == ["crawler-ichkoche-1563478740"]


def test_a_dump_loaded_with_yaml_safe_load_keeps_its_unquoted_timestamps() -> None:
    # `oc` printed creationTimestamp and lastScheduleTime unquoted: yaml.safe_load makes datetimes of them.
    import yaml

    doc = yaml.safe_load((PUBLISHED / "weekly-active-openshift-v1beta1.yaml").read_text())
    assert isinstance(doc["status"]["lastScheduleTime"], dt.datetime)
    from_dict = explain(doc, now="2019-07-18T19:40:00Z").to_json()
    from_file = explain(PUBLISHED / "weekly-active-openshift-v1beta1.yaml", now="2019-07-18T19:40:00Z").to_json()
    assert from_dict == from_file
    assert from_dict["nextSchedule"] == "2019-07-25T19:39:00Z"
