"""The CronJob controller in the engine: its Jobs and their pods run together, on one heap."""

from __future__ import annotations

import json

import pytest

from k8sjobs import Run
from k8sjobs.sim import SimulationError
from k8sjobs.trace.text import render_run
from tests.manifests import cronjob_manifest


def cronjob(schedule: str = "*/5 * * * *", duration: str = "30s", **spec: object) -> str:
    return cronjob_manifest("nightly", schedule, duration=duration, spec=spec)


def created(run: Run) -> list[str]:
    return [name for c in run.cluster.cronjobs()[0].cycles for name in c.created]


def test_an_hour_of_a_five_minute_schedule_starts_eleven_jobs_named_by_their_minute_and_keeps_three() -> None:
    run = Run(cronjob(), nodes=1, max_time=3600)
    names = created(run)
    # t=0 is 2026-01-01T00:00:00Z, the CronJob's creation: the first time after it is 00:05.
    assert len(names) == 11
    assert names[0] == f"nightly-{(1767225600 + 300) // 60}"
    assert [int(n.split("-")[1]) for n in names] == [(1767225600 + 300 * k) // 60 for k in range(1, 12)]
    kept = [t for t in run.cluster.jobs() if t.final_job is not None]
    assert len(kept) == 3, "successfulJobsHistoryLimit 3 (the default): the oldest finished Jobs are deleted"
    assert all(t.finished for t in run.cluster.jobs())
    cj = run.cluster.cronjobs()[0].final_job
    assert cj.status.last_schedule_time == 3300 and cj.status.last_successful_time is not None


def test_forbid_skips_a_run_while_the_last_one_is_active() -> None:
    run = Run(cronjob(duration="7m", concurrencyPolicy="Forbid"), nodes=1, max_time=1800)
    heads = [c.headline.rule for c in run.cluster.cronjobs()[0].cycles]
    assert "cronjob.skip.forbid" in heads
    events = [e.reason for e in run.cluster.cronjobs()[0].events]
    assert "JobAlreadyActive" in events
    # Never two Jobs at once.
    for t in (600, 900, 1200, 1500):
        active = [j for j in run.cluster.jobs()
                  if j.cycles and j.cycles[0].t <= t and (j.final_job is None or not j.finished
                                                         or j.final_job.status.completion_time > t)]
        assert len(active) <= 1


def test_after_the_controller_manager_was_down_the_most_recent_missed_time_runs_once() -> None:
    run = Run(cronjob(), nodes=1, max_time=7200)
    down = run.fork_at_time(700, "stop_controllers", seconds=1760)  # from 00:11:40, back at t=2460 (00:41)
    names = created(down)
    minutes = [int(n.split("-")[1]) - 1767225600 // 60 for n in names]
    # 00:05 and 00:10 ran; 00:15 ... 00:40 were missed while down; at 00:41 only 00:40 is started.
    assert minutes[:3] == [5, 10, 40]
    sync = next(c for c in down.cluster.cronjobs()[0].cycles if c.created and c.t > 2400)
    assert sync.t == pytest.approx(2460, abs=1)
    assert down.actions[-1].name == "stop_controllers"


def test_starting_deadline_seconds_skips_a_missed_run_that_is_too_late() -> None:
    run = Run(cronjob(startingDeadlineSeconds=30), nodes=1, max_time=7200)
    down = run.fork_at_time(700, "stop_controllers", seconds=1760)
    minutes = [int(n.split("-")[1]) - 1767225600 // 60 for n in created(down)]
    # At 00:41 the most recent time, 00:40, is 60 s old: more than 30 s, so nothing is started until 00:45.
    assert minutes[:3] == [5, 10, 45]


def test_suspending_the_cronjob_stops_new_jobs_and_a_schedule_change_takes_effect() -> None:
    run = Run(cronjob(), nodes=1, max_time=3600)
    suspended = run.fork_at_time(700, "suspend_cronjob")
    assert len(created(suspended)) == 2
    hourly = run.fork_at_time(700, "set_schedule", schedule="0 * * * *")
    assert [int(n.split("-")[1]) - 1767225600 // 60 for n in created(hourly)] == [5, 10]
    with pytest.raises(Exception, match="spec.schedule"):
        run.fork_at_time(700, "set_schedule", schedule="61 * * * *")
    with pytest.raises(SimulationError, match="seconds"):
        run.fork_at_time(700, "stop_controllers", seconds=-1)


def test_a_time_zone_moves_the_schedule_and_the_scheduled_timestamp_annotation() -> None:
    run = Run(cronjob("0 2 * * *", timeZone='"Asia/Shanghai"'), nodes=1, max_time=86400)
    jobs = run.cluster.jobs()
    assert len(jobs) == 1
    # 02:00 in Shanghai is 18:00 UTC the day before: the first 02:00 after 2026-01-01T00:00Z is at 18:00Z.
    assert jobs[0].cycles[0].t == pytest.approx(18 * 3600, abs=1)
    ann = jobs[0].state_at(1).job.metadata.annotations["batch.kubernetes.io/cronjob-scheduled-timestamp"]
    assert ann == "2026-01-02T02:00:00+08:00"


def test_a_schedule_that_never_fires_ends_at_once_and_says_why() -> None:
    run = Run(cronjob("0 0 30 2 *"), nodes=1, max_time=7 * 86400)
    assert run.complete and created(run) == [] and run.cluster.jobs() == []
    (sync,) = run.cluster.cronjobs()[0].cycles
    assert sync.headline.rule == "cronjob.skip.invalid_schedule"
    assert [e.reason for e in sync.events] == ["InvalidSchedule"]


def test_a_cronjob_that_would_make_more_jobs_than_the_budget_stops_at_the_budget() -> None:
    run = Run(cronjob("* * * * *", duration="10s"), nodes=1, max_time=7 * 86400, max_pods=50)
    assert run.limit is not None and run.limit.limit == "max_pods"
    assert "max_pods" in run.message() and "Run(..., max_pods=100)" in run.message()


def test_the_text_trace_names_the_cronjob_and_ends_with_get_cronjob_jobs_and_describe_cronjob() -> None:
    text = render_run(Run(cronjob(), nodes=1, max_time=1200).cluster)
    lines = text.splitlines()
    assert lines[1] == "t=0 s is 2026-01-01T00:00:00Z; kube-controller-manager's time zone: UTC"
    assert any(ln.startswith("cronjob/nightly") and "created nightly-" in ln for ln in lines)
    get = lines.index("$ kubectl get cronjob,jobs")
    assert lines[get + 1].split() == ["NAME", "SCHEDULE", "TIMEZONE", "SUSPEND", "ACTIVE", "LAST", "SCHEDULE",
                                      "AGE"]
    assert lines[get + 2].startswith("cronjob.batch/nightly   */5 * * * *   <none>     False")
    assert "$ kubectl describe cronjob nightly" in lines
    assert "Concurrency Policy:            Allow" in lines


def test_the_json_lists_the_cronjob_and_every_job_it_left(tmp_path, capsys) -> None:
    from k8sjobs.cli import main

    path = tmp_path / "cj.yaml"
    path.write_text(cronjob())
    assert main(["run", str(path), "--until", "1h", "--nodes", "1", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    kinds = [(o["kind"], o["name"]) for o in doc["objects"]]
    assert kinds[0] == ("CronJob", "nightly") and len(kinds) == 4
    assert doc["objects"][0]["status"]["lastScheduleTime"] == "2026-01-01T00:55:00Z"


def test_the_same_cronjob_and_seed_give_the_same_trace() -> None:
    a = Run(cronjob(), nodes=1, max_time=3600).fork_at_time(700, "stop_controllers", seconds=900)
    b = Run(cronjob(), nodes=1, max_time=3600, actions=a.actions)
    assert render_run(a.cluster) == render_run(b.cluster)


def test_a_job_that_runs_long_makes_forbid_skip_the_next_runs() -> None:
    run = Run(cronjob(concurrencyPolicy="Forbid"), nodes=1, max_time=3600)
    first = run.cluster.jobs()[0]
    pod = first.state_at(1).pods[0].metadata.name
    long = run.fork_at_time(310, "stretch_pod", name=pod, seconds=1200)  # runs until t = 1510 s
    skipped = [c.t for c in long.cluster.cronjobs()[0].cycles if c.headline.rule == "cronjob.skip.forbid"]
    assert skipped and min(skipped) == pytest.approx(600.1) and max(skipped) < 1510
    stretched = long.trace_of(first.job_name)
    done = [c.after.completion_time for c in stretched.cycles if c.after.completion_time is not None]
    assert done and done[0] == pytest.approx(1511, abs=2)
    with pytest.raises(SimulationError, match="only a running pod can run longer"):
        long.fork_at_time(1600, "stretch_pod", name=pod, seconds=10)


def test_a_cronjob_sync_that_fails_is_headlined_by_its_error_and_the_rate_limited_retry(monkeypatch) -> None:
    from k8sjobs.controller.cronjob.cronjob_controllerv2 import CronJobController

    real, calls = CronJobController._sync, []

    def failing_once(self, key):
        calls.append(key)
        if len(calls) == 1:
            raise ValueError("injected")
        return real(self, key)

    monkeypatch.setattr(CronJobController, "_sync", failing_once)
    cycles = Run(cronjob("* * * * *"), max_time=90).cluster.cronjobs()[0].cycles
    first = cycles[0]
    assert first.error == "injected"
    assert first.headline.rule == "cronjob.sync.error"
    assert first.headline.fields["retry_in"] == pytest.approx(0.005)  # client-go DefaultControllerRateLimiter: 5 ms first
    assert cycles[1].t == pytest.approx(0.005) and cycles[1].error is None


def test_a_schedule_that_never_fires_is_an_invalid_schedule_in_every_time_zone() -> None:
    # 30 February: the controller's second search starts at Go's zero time, which in a zone east or
    # west of UTC is a local date Python's datetime cannot hold without care.
    for zone in ("UTC", "Europe/Berlin", "Asia/Tokyo", "Pacific/Kiritimati", "America/New_York", "Pacific/Pago_Pago"):
        run = Run(cronjob("0 0 30 2 *", timeZone=zone), max_time=600)
        cycles = run.cluster.cronjobs()[0].cycles
        assert len(cycles) == 1, zone
        assert cycles[0].headline.rule == "cronjob.skip.invalid_schedule", zone
        assert [e.reason for e in cycles[0].events] == ["InvalidSchedule"], zone
    run = Run(cronjob("0 0 30 2 *"), max_time=600, controller_zone="Asia/Tokyo")
    assert run.cluster.cronjobs()[0].cycles[0].headline.rule == "cronjob.skip.invalid_schedule"
