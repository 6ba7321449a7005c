"""The ttl-after-finished controller (mirrors pkg/controller/ttlafterfinished/ttlafterfinished_controller.go).

A finished Job with ``spec.ttlSecondsAfterFinished`` is deleted that many seconds after
its Complete or Failed condition was added, with foreground propagation (its pods go
first) and a UID precondition. Before deleting it re-reads the Job from the server, since
the TTL may have been changed since the cache saw it. It records no events.
"""

from __future__ import annotations

from typing import Any

from ...api.apierrors import APIError, is_not_found
from ...api.informer import EventHandlers, Informer
from ...api.types import ConditionStatus, Job, JobConditionType
from ...clock import Clock
from ...hooks import Emit, null_emit
from ..controller_utils import key_func, split_key
from ..job.util.utils import is_job_finished
from ..workqueue import RateLimitingQueue


class TTLError(Exception):
    """A finished Job without a finish time (a zero lastTransitionTime)."""


def needs_cleanup(job: Job) -> bool:
    """ttlSecondsAfterFinished is set and the Job is finished."""
    return job.spec.ttl_seconds_after_finished is not None and is_job_finished(job)


def job_finish_time(job: Job) -> float:
    """lastTransitionTime of the first Complete=True or Failed=True condition (mirrors jobFinishTime)."""
    for c in job.status.conditions:
        if c.type in (JobConditionType.COMPLETE, JobConditionType.FAILED) and c.status == ConditionStatus.TRUE:
            if c.last_transition_time is None:
                raise TTLError(f"unable to find the time when the Job {key_func(job)} finished")
            return c.last_transition_time
    raise TTLError(f"unable to find the time when the Job {key_func(job)} finished")


class TTLAfterFinishedController:
    """Deletes finished Jobs once their TTL has expired."""

    def __init__(self, *, jobs: Informer, client: Any, clock: Clock, queue: RateLimitingQueue | None = None,
                 emit: Emit = null_emit, register_handlers: bool = True) -> None:
        self.jobs = jobs
        self.client = client
        self.clock = clock
        self.queue = queue if queue is not None else RateLimitingQueue(clock)
        self.emit = emit
        self.deleted: list[str] = []
        if register_handlers:
            jobs.add_event_handler(EventHandlers(on_add=self._maybe_enqueue, on_update=self._updated))

    def _updated(self, old: Job, new: Job) -> None:
        self._maybe_enqueue(new)

    def _maybe_enqueue(self, job: Job) -> None:
        if job.metadata.deletion_timestamp is None and needs_cleanup(job):
            self.queue.add(key_func(job))

    def process_next_work_item(self) -> bool:
        """Take one key and process it; requeue with rate limit on error."""
        key = self.queue.get()
        if key is None:
            return False
        try:
            err = self.process_job(key)
            if err is None:
                self.queue.forget(key)
            else:
                self.queue.add_rate_limited(key)
        finally:
            self.queue.done(key)
        return True

    def time_left(self, job: Job) -> tuple[float, float]:
        """(seconds left, expiry time) for a finished Job with a TTL."""
        finish = job_finish_time(job)
        expire = finish + (job.spec.ttl_seconds_after_finished or 0)
        return expire - self.clock.now(), expire

    def process_ttl(self, job: Job) -> float | None:
        """The expiry time when the TTL has passed; otherwise requeue for later and return None."""
        if job.metadata.deletion_timestamp is not None or not needs_cleanup(job):
            return None
        left, expire = self.time_left(job)
        if left <= 0:
            return expire
        self.queue.add_after(key_func(job), left)
        return None

    def process_job(self, key: str) -> Exception | None:
        """Delete the Job if its TTL truly expired (mirrors processJob)."""
        ns, name = split_key(key)
        job = self.jobs.get(ns, name)
        if job is None:
            return None
        try:
            if self.process_ttl(job) is None:
                return None
            try:
                fresh = self.client.get(ns, name)
            except APIError as exc:
                return None if is_not_found(exc) else exc
            expired = self.process_ttl(fresh)
            if expired is None:
                return None
        except TTLError as exc:
            return exc
        try:
            self.client.delete_job(ns, name, propagation="Foreground", precondition_uid=fresh.metadata.uid)
        except APIError as exc:
            return None if is_not_found(exc) else exc
        self.deleted.append(key)
        ttl = fresh.spec.ttl_seconds_after_finished
        self.emit("ttl.deleted", job=key, ttl=ttl, finished_at=expired - (ttl or 0))
        return None
