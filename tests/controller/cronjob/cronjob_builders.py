"""One-line builders for the CronJob controller tests (times as upstream's test helpers name them).

``cronjob().schedule("0 * * * ?").created(JUST_BEFORE_THE_HOUR).last_schedule(...).build()``;
``job("mycronjob-24394200").controlled_by(cj).complete(at=...).build()``. Times are datetimes
(UTC) in the tests and simulated seconds in the objects (:func:`sec`).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from k8sjobs.api.types import (
    ConditionStatus,
    CronJob,
    CronJobSpec,
    CronJobStatus,
    Job,
    JobCondition,
    JobSpec,
    JobStatus,
    JobTemplateSpec,
    ObjectMeta,
    ObjectReference,
    OwnerReference,
    evolve,
)
from k8sjobs.controller.cronjob import utils as u

UTC = dt.UTC
TOP_OF_THE_HOUR = dt.datetime(2016, 5, 19, 10, 0, tzinfo=UTC)
"""topOfTheHour(): a Thursday."""


def after(delta: dt.timedelta) -> dt.datetime:
    """deltaTimeAfterTopOfTheHour(delta)."""
    return TOP_OF_THE_HOUR + delta


def minutes(n: float) -> dt.timedelta:
    return dt.timedelta(minutes=n)


def hours(n: float) -> dt.timedelta:
    return dt.timedelta(hours=n)


JUST_BEFORE_THE_PRIOR_HOUR = after(minutes(-61))
JUST_AFTER_THE_PRIOR_HOUR = after(minutes(-59))
JUST_BEFORE_THE_HOUR = after(minutes(-1))
JUST_AFTER_THE_HOUR = after(minutes(1))
WEEK_AFTER_THE_HOUR = after(dt.timedelta(days=7))


def sec(t: dt.datetime | None) -> float | None:
    """A datetime as the simulated seconds API objects hold."""
    return None if t is None else u.from_time(t)


class CronJobBuilder:
    def __init__(self, name: str = "mycronjob", namespace: str = "snazzycats", uid: str = "1a2b3c") -> None:
        self.meta: dict[str, Any] = {"name": name, "namespace": namespace, "uid": uid}
        self.spec: dict[str, Any] = {"schedule": "0 * * * ?", "concurrency_policy": "Allow",
                                     "job_template": JobTemplateSpec(
                                         metadata=ObjectMeta(labels={"a": "b"}, annotations={"x": "y"}),
                                         spec=JobSpec(parallelism=1, completions=1))}
        self.status: dict[str, Any] = {}

    def schedule(self, s: str) -> CronJobBuilder:
        self.spec["schedule"] = s
        return self

    def zone(self, tz: str | None) -> CronJobBuilder:
        self.spec["time_zone"] = tz
        return self

    def policy(self, p: str) -> CronJobBuilder:
        self.spec["concurrency_policy"] = p
        return self

    def suspend(self, value: bool = True) -> CronJobBuilder:
        self.spec["suspend"] = value
        return self

    def deadline(self, seconds: int | None) -> CronJobBuilder:
        self.spec["starting_deadline_seconds"] = seconds
        return self

    def history(self, successful: int | None, failed: int | None) -> CronJobBuilder:
        self.spec["successful_jobs_history_limit"] = successful
        self.spec["failed_jobs_history_limit"] = failed
        return self

    def created(self, t: dt.datetime | None) -> CronJobBuilder:
        self.meta["creation_timestamp"] = sec(t)
        return self

    def deleting(self, t: dt.datetime) -> CronJobBuilder:
        self.meta["deletion_timestamp"] = sec(t)
        return self

    def last_schedule(self, t: dt.datetime | None) -> CronJobBuilder:
        self.status["last_schedule_time"] = sec(t)
        return self

    def active(self, *jobs: Job) -> CronJobBuilder:
        self.status["active"] = tuple(ObjectReference(kind="Job", namespace=j.metadata.namespace,
                                                      name=j.metadata.name, uid=j.metadata.uid) for j in jobs)
        return self

    def build(self) -> CronJob:
        return CronJob(metadata=ObjectMeta(**self.meta), spec=CronJobSpec(**self.spec),
                       status=CronJobStatus(**self.status))


def cronjob(name: str = "mycronjob") -> CronJobBuilder:
    return CronJobBuilder(name)


class JobBuilder:
    def __init__(self, name: str, namespace: str = "snazzycats", uid: str = "1234") -> None:
        self.meta: dict[str, Any] = {"name": name, "namespace": namespace, "uid": uid}
        self.status: dict[str, Any] = {}

    def controlled_by(self, cj: CronJob, *, uid: str | None = None) -> JobBuilder:
        self.meta["owner_references"] = (OwnerReference(api_version="batch/v1", kind="CronJob",
                                                        name=cj.metadata.name,
                                                        uid=cj.metadata.uid if uid is None else uid,
                                                        controller=True, block_owner_deletion=True),)
        return self

    def rv(self, rv: str) -> JobBuilder:
        self.meta["resource_version"] = rv
        return self

    def deleting(self) -> JobBuilder:
        self.meta["deletion_timestamp"] = 0.0
        return self

    def started(self, t: dt.datetime | None) -> JobBuilder:
        self.status["start_time"] = sec(t)
        return self

    def complete(self, at: dt.datetime | None = None) -> JobBuilder:
        self.status["conditions"] = (JobCondition(type="Complete", status=ConditionStatus.TRUE),)
        self.status["completion_time"] = sec(at)
        return self

    def failed(self) -> JobBuilder:
        self.status["conditions"] = (JobCondition(type="Failed", status=ConditionStatus.TRUE),)
        return self

    def build(self) -> Job:
        return Job(metadata=ObjectMeta(**self.meta), status=JobStatus(**self.status))


def job(name: str, uid: str = "1234") -> JobBuilder:
    return JobBuilder(name, uid=uid)


def with_status(cj: CronJob, **status: Any) -> CronJob:
    return evolve(cj, status=evolve(cj.status, **status))
