"""How the CronJob controller reaches the API (mirrors pkg/controller/cronjob/injection.go).

``JobControl`` (jobControlInterface) gets, creates and deletes Jobs; ``CronJobControl``
(cjControlInterface) reads a CronJob live and writes its status. The ``Store...`` classes talk
to the in-memory API server (realJobControl, realCJControl); the ``Fake...`` classes behave as
upstream's test fakes (fakeJobControl, fakeCJControl) and record every call, for the
conformance runners and the table tests.
"""

from __future__ import annotations

from typing import Any, Protocol

from ...api.apierrors import APIError
from ...api.types import CronJob, Job, evolve


class JobControl(Protocol):
    """jobControlInterface: what the controller does to Jobs."""

    def get_job(self, namespace: str, name: str) -> Job | None:
        """A live GET; raises APIError."""
        ...

    def create_job(self, namespace: str, job: Job) -> Job:
        """CREATE; returns the stored Job or raises APIError."""
        ...

    def delete_job(self, namespace: str, name: str) -> None:
        """DELETE with background propagation (the garbage collector deletes the pods); raises APIError."""
        ...


class CronJobControl(Protocol):
    """cjControlInterface: a live read of a CronJob and its status writes."""

    def get_cron_job(self, namespace: str, name: str) -> CronJob:
        """A live GET; raises APIError."""
        ...

    def update_status(self, cj: CronJob) -> CronJob:
        """UpdateStatus; raises APIError."""
        ...


class StoreJobControl:
    """realJobControl over the in-memory API server."""

    def __init__(self, store: Any) -> None:
        self.store = store

    def get_job(self, namespace: str, name: str) -> Job:
        """Read the Job from the server, not the cache."""
        return self.store.get("Job", namespace, name)

    def create_job(self, namespace: str, job: Job) -> Job:
        """Create the Job in ``namespace``."""
        if job.metadata.namespace != namespace:
            job = evolve(job, metadata=evolve(job.metadata, namespace=namespace))
        return self.store.create(job)

    def delete_job(self, namespace: str, name: str) -> None:
        """Delete with propagationPolicy Background, as realJobControl.DeleteJob does."""
        self.store.delete("Job", namespace, name, propagation="Background")


class StoreCronJobControl:
    """realCJControl over the in-memory API server."""

    def __init__(self, store: Any) -> None:
        self.store = store

    def get_cron_job(self, namespace: str, name: str) -> CronJob:
        """Read the CronJob from the server."""
        return self.store.get("CronJob", namespace, name)

    def update_status(self, cj: CronJob) -> CronJob:
        """Write the status subresource."""
        return self.store.update_status(cj)


class FakeJobControl:
    """fakeJobControl: every GET answers ``job`` (whatever the name), ``err`` fails GET and DELETE,
    ``create_err`` fails CREATE; a created Job gets the uid ``test-uid``."""

    def __init__(self, job: Job | None = None, err: APIError | None = None,
                 create_err: APIError | None = None) -> None:
        self.job = job
        self.err = err
        self.create_err = create_err
        self.created: list[Job] = []
        self.deleted: list[str] = []
        self.get_calls: list[tuple[str, str]] = []

    def get_job(self, namespace: str, name: str) -> Job | None:
        self.get_calls.append((namespace, name))
        if self.err is not None:
            raise self.err
        return self.job

    def create_job(self, namespace: str, job: Job) -> Job:
        if self.create_err is not None:
            raise self.create_err
        self.created.append(job)
        return evolve(job, metadata=evolve(job.metadata, uid="test-uid"))

    def delete_job(self, namespace: str, name: str) -> None:
        if self.err is not None:
            raise self.err
        self.deleted.append(name)


class FakeCronJobControl:
    """fakeCJControl: GET answers ``cron_job``; status writes are recorded in ``updates``."""

    def __init__(self, cron_job: CronJob | None = None) -> None:
        self.cron_job = cron_job
        self.updates: list[CronJob] = []

    def get_cron_job(self, namespace: str, name: str) -> CronJob:
        if self.cron_job is None:
            from ...api.apierrors import not_found

            raise not_found("cronjobs.batch", name)
        return self.cron_job

    def update_status(self, cj: CronJob) -> CronJob:
        self.updates.append(cj)
        return cj
