"""The ``validation`` kind: API-server defaulting and validation of one Job manifest.

``input`` is ``{"operation": "create"|"update", "job": <manifest>, "oldJob": <stored
object, for updates>}``. Each manifest is read strictly (unknown fields and wrong types
are errors, as with kubectl's default field validation), defaulted as the API server
defaults (SetDefaults_Job and the pod-template defaults), given a deterministic UID and
its generated selector and template labels (unless ``manualSelector``), then validated
with ``ValidateJob`` (create) or the Job strategy's update validation (update). The
answer is ``{"valid", "fields", "errors"}``: ``fields`` is the sorted set of distinct
field paths in error, ``errors`` the messages as kubectl prints them.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from k8sjobs.api.defaults import (
    default_and_prepare_for_create,
    generate_selector,
    prepare_for_update,
    set_defaults_job,
)
from k8sjobs.api.errors import DecodeError, FieldError
from k8sjobs.api.types import Job
from k8sjobs.api.validation import dedupe, validate_job, validate_job_update, validation_options_for_job
from k8sjobs.api.yamlio import job_from_document
from k8sjobs.ids import IdSource

CASE_UID = "00000000-0000-4000-8000-000000000001"
"""The UID the cases' Job gets: the first UID of a fresh :class:`~k8sjobs.ids.IdSource`."""

CASE_RESOURCE_VERSION = "1"


def _decode(doc: Any, what: str) -> Job | list[FieldError]:
    if not isinstance(doc, dict):
        raise ValueError(f"input.{what} must be a Job manifest (an object)")
    try:
        return job_from_document(doc, f"input.{what}")
    except DecodeError as exc:
        if exc.errors:
            return exc.errors
        raise ValueError(exc.reason) from None


def _created(job: Job, ids: IdSource) -> Job:
    """What the server does before validating a create: namespace, name, UID, defaults, PrepareForCreate."""
    meta = job.metadata
    if not meta.namespace:
        meta = replace(meta, namespace="default")
    if not meta.name and meta.generate_name:
        meta = replace(meta, name=ids.generate_name(meta.generate_name))
    meta = replace(meta, uid=meta.uid or CASE_UID, resource_version=meta.resource_version or CASE_RESOURCE_VERSION)
    return default_and_prepare_for_create(replace(job, metadata=meta))


def _answer(errors: list[FieldError]) -> dict[str, Any]:
    errors = dedupe(errors)
    return {
        "valid": not errors,
        "fields": sorted({e.field for e in errors}),
        "errors": [str(e) for e in errors],
    }


def run_case(inp: dict[str, Any]) -> dict[str, Any]:
    """Default and validate ``inp["job"]`` (and ``inp["oldJob"]`` for updates)."""
    operation = inp.get("operation", "create")
    if operation not in ("create", "update"):
        raise ValueError(f"input.operation must be create or update, not {operation!r}")
    job = _decode(inp.get("job"), "job")
    if isinstance(job, list):
        return _answer(job)
    ids = IdSource(0)
    if operation == "create":
        job = _created(job, ids)
        return _answer(validate_job(job, validation_options_for_job(job, None)))
    old = _decode(inp.get("oldJob"), "oldJob")
    if isinstance(old, list):
        raise ValueError("input.oldJob is not a valid stored Job: " + "; ".join(str(e) for e in old))
    # The stored object went through create (same UID, so the generated selectors agree)
    # and keeps the status the case gives it (startTime says whether the Job started).
    stored = replace(_created(old, IdSource(0)), status=old.status)
    new = set_defaults_job(job)
    meta = replace(new.metadata, namespace=new.metadata.namespace or stored.metadata.namespace,
                   uid=new.metadata.uid or stored.metadata.uid)
    new = replace(new, metadata=meta)
    if not new.spec.manual_selector:
        # Selector generation (as for the stored object): the generated selector key and
        # the four template labels, each only where the submitted object lacks it.
        new = generate_selector(new)
    new = prepare_for_update(stored, new)
    return _answer(validate_job_update(new, stored, validation_options_for_job(new, stored)))
