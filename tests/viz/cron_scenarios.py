"""The CronJob runs the CronJob views' tests look at (Allow, Forbid, Replace, downtime with and without
startingDeadlineSeconds, suspend, history limits, ttlSecondsAfterFinished, a day's worth of times),
built once per process."""

from __future__ import annotations

from functools import cache

from k8sjobs.trace import Run


def cronjob(schedule: str = "*/5 * * * *", *, duration: str = "30s", spec: str = "", job_spec: str = "",
            annotations: str = "", name: str = "nightly") -> str:
    """A CronJob manifest: one pod per Job running ``duration``; ``spec`` and ``job_spec`` are extra YAML lines
    of the CronJob's and the Job template's spec (indented by the caller's two spaces)."""
    return f"""\
apiVersion: batch/v1
kind: CronJob
metadata:
  name: {name}
spec:
  schedule: "{schedule}"
{spec}  jobTemplate:
    spec:
{job_spec}      backoffLimit: 0
      template:
        metadata:
          annotations:
            sim.k8sjobs.io/duration: "{duration}"
{annotations}        spec:
          restartPolicy: Never
          containers:
          - name: work
            image: busybox
"""


def _run(text: str, hours: float, **kw) -> Run:
    return Run(text, nodes=2, max_time=hours * 3600, **kw)


@cache
def allow() -> Run:
    """Every 5 minutes, Jobs of 7 minutes, Allow: two Jobs overlap."""
    return _run(cronjob(duration="7m"), 1)


@cache
def forbid() -> Run:
    """Every 5 minutes, Jobs of 7 minutes, Forbid: times skipped while a Job runs, later ones started late."""
    return _run(cronjob(duration="7m", spec="  concurrencyPolicy: Forbid\n"), 1)


@cache
def replace() -> Run:
    """Every 5 minutes, Jobs of 7 minutes, Replace: each running Job is deleted for the next one."""
    return _run(cronjob(duration="7m", spec="  concurrencyPolicy: Replace\n"), 1)


@cache
def down() -> Run:
    """The controller manager down from 00:11:40 to 00:41 (no startingDeadlineSeconds): 00:40 runs at 00:41."""
    return _run(cronjob(), 2).fork_at_time(700, "stop_controllers", seconds=1760)


@cache
def down_deadline() -> Run:
    """The same downtime with startingDeadlineSeconds 30: 00:40 is too old at 00:41, the next Job is at 00:45."""
    return _run(cronjob(spec="  startingDeadlineSeconds: 30\n"), 2).fork_at_time(700, "stop_controllers", seconds=1760)


@cache
def suspended() -> Run:
    """Suspended from 00:11:40 to 00:33:20: no Job for 00:15 to 00:30."""
    return _run(cronjob(), 1).fork_at_time(700, "suspend_cronjob").fork_at_time(2000, "resume_cronjob")


@cache
def history() -> Run:
    """Every 2 minutes, half the Jobs fail; successfulJobsHistoryLimit 2, failedJobsHistoryLimit 1."""
    return _run(cronjob("*/2 * * * *", duration="20s", spec="  successfulJobsHistoryLimit: 2\n"
                        "  failedJobsHistoryLimit: 1\n",
                        annotations='            sim.k8sjobs.io/fail-rate: "0.5"\n'), 0.5, seed=3)


@cache
def ttl() -> Run:
    """Every 2 minutes with the Job template's ttlSecondsAfterFinished 180 and the default limits."""
    return _run(cronjob("*/2 * * * *", duration="20s", job_spec="      ttlSecondsAfterFinished: 180\n"), 0.5)


@cache
def zone() -> Run:
    """At 02:30 every day in Asia/Shanghai, over two days."""
    return _run(cronjob("30 2 * * *", spec='  timeZone: "Asia/Shanghai"\n'), 48)


@cache
def minutes() -> Run:
    """Every minute for three hours: 180 times, more than the Schedule view draws one by one."""
    return _run(cronjob("* * * * *", duration="10s"), 3)


ALL = {"allow": allow, "forbid": forbid, "replace": replace, "down": down, "down_deadline": down_deadline,
       "suspended": suspended, "history": history, "ttl": ttl, "zone": zone, "minutes": minutes}


def trace(name: str):
    """The CronJob's trace of scenario ``name``."""
    return ALL[name]().cluster.cronjobs()[0]
