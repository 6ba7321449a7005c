"""The ``cronjob-schedule`` kind: the schedule arithmetic of utils.go (``mostRecentScheduleTime``,
``nextScheduleTime``, ``nextScheduleTimeDuration``), the CronJob update handler's requeue
(``onCronJobUpdate``) and the Job built for a schedule time (``jobFromTemplate``).

The functions are the controller's own (k8sjobs.controller.cronjob.utils); schedules are parsed
as the controller parses them (formatSchedule, then robfig/cron's standard parser) and
evaluated in UTC.
"""

from __future__ import annotations

import datetime as _dt
from typing import Any

from ..api import serialize
from ..api.types import CronJob, CronJobSpec, CronJobStatus, ObjectMeta
from ..controller.cronjob import utils as u
from ..controller.cronjob.cronjob_controllerv2 import format_schedule, parse_cron_schedule
from ._cronjob import Harness, cron_job, dt_text, ms

_UTC = _dt.UTC


def _time(text: str | None) -> float | None:
    return None if text is None else serialize.parse_time(text)


def _schedule_cron_job(inp: dict[str, Any]) -> CronJob:
    return CronJob(metadata=ObjectMeta(name="mycronjob", namespace="snazzycats",
                                       creation_timestamp=_time(inp.get("creationTimestamp"))),
                   spec=CronJobSpec(schedule=inp.get("schedule", ""),
                                    starting_deadline_seconds=inp.get("startingDeadlineSeconds")),
                   status=CronJobStatus(last_schedule_time=_time(inp.get("lastScheduleTime"))))


def run_case(inp: dict[str, Any]) -> dict[str, Any]:
    """Run one case and report every output the kind defines."""
    op = inp.get("op")
    if op == "onCronJobUpdate":
        return _on_update(inp)
    if op == "jobFromTemplate":
        return _job_from_template(inp)
    if op not in ("mostRecentScheduleTime", "nextScheduleTime", "nextScheduleTimeDuration"):
        raise NotImplementedError(f"op {op!r} (known: mostRecentScheduleTime, nextScheduleTime, "
                                  "nextScheduleTimeDuration, onCronJobUpdate, jobFromTemplate)")
    cj = _schedule_cron_job(inp)
    now = u.to_time(serialize.parse_time(inp["now"]), _UTC)
    sched = parse_cron_schedule(format_schedule(cj, None))
    if op == "mostRecentScheduleTime":
        mr = u.most_recent_schedule_time(cj, now, sched, bool(inp.get("includeStartingDeadlineSeconds")))
        return {"earliestTime": dt_text(mr.earliest), "mostRecentTime": dt_text(mr.most_recent),
                "missedSchedules": mr.missed, "error": mr.error is not None}
    if op == "nextScheduleTime":
        events: list[str] = []
        nxt = u.next_schedule_time(cj, now, sched, lambda _mr: events.append("TooManyMissedTimes"))
        return {"scheduledTime": dt_text(nxt.scheduled), "scheduledTimeSet": nxt.scheduled is not None,
                "error": nxt.error is not None, "events": events}
    return {"durationMs": ms(u.next_schedule_time_duration(cj, now, sched))}


def _on_update(inp: dict[str, Any]) -> dict[str, Any]:
    h = Harness({"now": inp.get("now")})
    old, new = cron_job(inp["oldCronJob"]), cron_job(inp["newCronJob"])
    h.controller.update_cron_job(old, new)
    log = h.controller.queue.log
    after = [delay for _, verb, _, delay in log if verb == "add_after"]
    enqueue = "after" if after else ("immediate" if any(verb == "add" for _, verb, _, _ in log) else "none")
    return {"addAfterDelayMs": ms(after[-1]) if after else 0, "enqueue": enqueue,
            "events": [reason for _, reason, _ in h.recorder.events]}


def _job_from_template(inp: dict[str, Any]) -> dict[str, Any]:
    cj = cron_job(inp["cronJob"])
    scheduled = u.to_time(serialize.parse_time(inp["scheduledTime"]), _UTC)
    job = u.get_job_from_template2(cj, scheduled)
    name = job.metadata.name
    suffix = str(u.get_time_hash_in_minutes(scheduled))
    owner = job.metadata.owner_references[0]
    return {
        "namePrefix": name[: -len(suffix)] if name.endswith(suffix) else name,
        "name": name,
        "labelCount": len(job.metadata.labels),
        "annotationCount": len(job.metadata.annotations),
        "scheduledTimestampAnnotation": job.metadata.annotations.get(
            "batch.kubernetes.io/cronjob-scheduled-timestamp"),
        "labels": dict(job.metadata.labels),
        "annotations": dict(job.metadata.annotations),
        "ownerReference": {"apiVersion": owner.api_version, "kind": owner.kind, "name": owner.name,
                           "uid": owner.uid, "controller": bool(owner.controller),
                           "blockOwnerDeletion": bool(owner.block_owner_deletion)},
    }
