"""What the API server does to a Job before storing it: defaulting, then validation.

The in-memory store (:mod:`k8sjobs.api.store`) calls these hooks after it has assigned
what the server assigns (name from ``generateName``, namespace, UID, creation
timestamp, resourceVersion); each returns the object to store or raises
:class:`k8sjobs.api.errors.InvalidError` listing every error, phrased as ``kubectl``
prints it (``The Job "x" is invalid: ...``).

* :func:`admit_job_create` -- decode-time defaults (:func:`~k8sjobs.api.defaults.set_defaults_job`),
  the strategy's PrepareForCreate (selector and template labels from the UID, status
  cleared, generation 1; a Job without labels shows its template's final labels), then
  ``ValidateJob``.
* :func:`admit_job_update` -- defaults on the submitted object, ``rest.BeforeUpdate`` and
  PrepareForUpdate (status and identity kept from the stored Job, generation bumped when
  the spec changed), then ``ValidateJob`` + ``ValidateJobUpdate`` with the strategy's
  options (scheduling directives mutable only while the stored Job is suspended and
  never started).
* :func:`admit_job_status_update` -- the status strategy (spec kept from the stored Job),
  then ``ValidateJobUpdateStatus``: the API server's guard against a buggy controller
  (ready <= active, Failed needs FailureTarget, Complete needs SuccessCriteriaMet,
  counters that never decrease, well-formed index lists, ...).
* :func:`admit_cronjob_create` / :func:`admit_cronjob_update` -- the same for a CronJob:
  v1 defaulting (:func:`~k8sjobs.api.defaults.set_defaults_cronjob`), the CronJob
  strategy's PrepareForCreate / PrepareForUpdate, then ``ValidateCronJobCreate`` /
  ``ValidateCronJobUpdate``.
"""

from __future__ import annotations

from dataclasses import replace

from .defaults import (
    default_and_prepare_for_create,
    prepare_cronjob_for_create,
    prepare_for_status_update,
    prepare_for_update,
    set_defaults_cronjob,
    set_defaults_job,
)
from .errors import InvalidError
from .types import CronJob, Job
from .validation import (
    dedupe,
    validate_cronjob_create,
    validate_cronjob_update,
    validate_job,
    validate_job_status_update,
    validate_job_update,
    validation_options_for_job,
)

DEFAULT_NAMESPACE = "default"


def _raise_if(job: Job, errors: list) -> None:
    if errors:
        raise InvalidError("Job", job.metadata.name or job.metadata.generate_name, dedupe(errors))


def admit_job_create(job: Job) -> Job:
    """Default, generate the selector and template labels, validate (create).

    ``job.metadata.uid`` must be set (the store assigns it first); an empty namespace is
    the request's namespace, ``default``.
    """
    if not job.metadata.namespace:
        job = replace(job, metadata=replace(job.metadata, namespace=DEFAULT_NAMESPACE))
    job = default_and_prepare_for_create(job)
    _raise_if(job, validate_job(job, validation_options_for_job(job, None)))
    return job


def admit_job_update(old: Job, new: Job) -> Job:
    """Default the submitted object and validate it against the stored one (update)."""
    new = prepare_for_update(old, set_defaults_job(new))
    _raise_if(new, validate_job_update(new, old, validation_options_for_job(new, old)))
    return new


def admit_job_status_update(old: Job, new: Job) -> Job:
    """Validate a status write as the status subresource strategy does."""
    new = prepare_for_status_update(old, new)
    _raise_if(new, validate_job_status_update(new, old))
    return new


def admit_cronjob_create(cronjob: CronJob) -> CronJob:
    """Default, prepare and validate a CronJob (create); an empty namespace is ``default``.

    Mirrors the CronJob REST strategy (pkg/registry/batch/cronjob/strategy.go): decode-time
    defaults, PrepareForCreate, then ValidateCronJobCreate.
    """
    if not cronjob.metadata.namespace:
        cronjob = replace(cronjob, metadata=replace(cronjob.metadata, namespace=DEFAULT_NAMESPACE))
    cronjob = prepare_cronjob_for_create(set_defaults_cronjob(cronjob))
    errors = validate_cronjob_create(cronjob)
    if errors:
        raise InvalidError("CronJob", cronjob.metadata.name or cronjob.metadata.generate_name, dedupe(errors))
    return cronjob


def admit_cronjob_update(old: CronJob, new: CronJob) -> CronJob:
    """Default the submitted CronJob and validate it against the stored one (update).

    PrepareForUpdate keeps the stored status and bumps the generation when the spec changed.
    """
    new = set_defaults_cronjob(new)
    meta = new.metadata
    generation = old.metadata.generation + 1 if new.spec != old.spec else old.metadata.generation
    meta = replace(meta, generation=generation, uid=meta.uid or old.metadata.uid,
                   creation_timestamp=old.metadata.creation_timestamp)
    new = replace(new, metadata=meta, status=old.status)
    errors = validate_cronjob_update(new, old)
    if errors:
        raise InvalidError("CronJob", new.metadata.name, dedupe(errors))
    return new
