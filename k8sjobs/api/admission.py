"""What the API server does to a Job before storing it: defaulting, then validation.

``admit_job_create`` and ``admit_job_update`` are called by the in-memory store
(:mod:`k8sjobs.api.store`); they return the object to store or raise
:class:`k8sjobs.api.errors.InvalidError`. (Stub: defaulting and validation are being
written; until then objects pass through unchanged.)
"""

from __future__ import annotations

from .types import Job


def admit_job_create(job: Job) -> Job:
    """Default, generate the selector and template labels, validate (create). Stub: pass through."""
    return job


def admit_job_update(old: Job, new: Job) -> Job:
    """Default the submitted object and validate it against the stored one (update). Stub."""
    return new


def admit_job_status_update(old: Job, new: Job) -> Job:
    """Validate a status write as the status subresource strategy does. Stub: pass through."""
    return new
