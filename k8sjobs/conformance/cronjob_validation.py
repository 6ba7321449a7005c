"""The ``cronjob-validation`` kind: API-server validation (and v1 defaulting) of a CronJob.

``input.op`` says which upstream function runs:

* ``create`` / ``update``: ``ValidateCronJobCreate(cronJob)`` / ``ValidateCronJobUpdate(cronJob,
  oldCronJob)`` on the objects **as given** (no defaulting: the upstream tests call the
  validation functions directly on internal objects);
* ``validateCronJobSpec``: ``validateCronJobSpec(spec, oldSpec)`` at path ``spec``;
* ``validateTimeZone``: ``validateTimeZone`` of each name in ``timeZones`` (the errors of all);
* ``validateScheduleFormat``: ``validateScheduleFormat(schedule, allowTZInSchedule, timeZone)``
  at path ``spec.schedule``;
* ``default``: v1 defaulting (``SetDefaults_CronJob``); the answer is ``{"spec": <defaulted spec>}``.

Every validating op answers ``{"valid", "fields", "errors", "firstError"}``: ``fields`` the
sorted set of field paths in error, ``errors`` the messages as kubectl prints them,
``firstError`` the first error as ``{"field", "type", "contains"}`` (``contains`` is its whole
Go error string, ``type`` Go's error type name: Invalid, Required, NotSupported, ...).
"""

from __future__ import annotations

from typing import Any

from k8sjobs.api.defaults import set_defaults_cronjob
from k8sjobs.api.errors import DecodeError, ErrorType, FieldError
from k8sjobs.api.schema import check_document
from k8sjobs.api.serialize import from_dict, to_dict
from k8sjobs.api.types import CronJob, CronJobSpec
from k8sjobs.api.validation import (
    validate_cronjob_create,
    validate_cronjob_spec,
    validate_cronjob_update,
    validate_schedule_format,
    validate_time_zone,
)
from k8sjobs.api.yamlio import cronjob_from_document

_TYPE_NAMES = {
    ErrorType.NOT_FOUND: "NotFound", ErrorType.REQUIRED: "Required", ErrorType.DUPLICATE: "Duplicate",
    ErrorType.INVALID: "Invalid", ErrorType.NOT_SUPPORTED: "NotSupported", ErrorType.FORBIDDEN: "Forbidden",
    ErrorType.TOO_LONG: "TooLong", ErrorType.TOO_MANY: "TooMany", ErrorType.INTERNAL: "InternalError",
    ErrorType.UNKNOWN_FIELD: "FieldValueUnknown",
}


def _cronjob(doc: Any, what: str) -> CronJob:
    if not isinstance(doc, dict):
        raise ValueError(f"input.{what} must be a CronJob manifest (an object)")
    try:
        return cronjob_from_document(doc, f"input.{what}")
    except DecodeError as exc:
        raise ValueError(f"{exc.reason}: " + "; ".join(str(e) for e in exc.errors)) from None


def _spec(doc: Any, what: str) -> CronJobSpec:
    if not isinstance(doc, dict):
        raise ValueError(f"input.{what} must be a CronJob spec (an object)")
    errors = check_document(doc, "CronJobSpec", "spec")
    if errors:
        raise ValueError(f"input.{what}: " + "; ".join(str(e) for e in errors))
    return from_dict(CronJobSpec, doc, "spec")


def answer(errors: list[FieldError]) -> dict[str, Any]:
    """The validating ops' answer for a list of errors, in upstream order."""
    out: dict[str, Any] = {
        "valid": not errors,
        "fields": sorted({e.field for e in errors}),
        "errors": [str(e) for e in errors],
    }
    if errors:
        first = errors[0]
        out["firstError"] = {"field": first.field, "type": _TYPE_NAMES.get(first.type, first.type),
                             "contains": str(first)}
    return out


def run_case(inp: dict[str, Any]) -> dict[str, Any]:
    """Run the op ``inp["op"]`` on the given objects."""
    op = inp.get("op")
    if op == "create":
        return answer(validate_cronjob_create(_cronjob(inp.get("cronJob"), "cronJob")))
    if op == "update":
        new, old = _cronjob(inp.get("cronJob"), "cronJob"), _cronjob(inp.get("oldCronJob"), "oldCronJob")
        return answer(validate_cronjob_update(new, old))
    if op == "validateCronJobSpec":
        old_doc = inp.get("oldSpec")
        old = None if old_doc is None else _spec(old_doc, "oldSpec")
        return answer(validate_cronjob_spec(_spec(inp.get("spec"), "spec"), old, "spec"))
    if op == "validateTimeZone":
        errors: list[FieldError] = []
        for name in inp.get("timeZones") or []:
            errors.extend(validate_time_zone(name, "spec.timeZone"))
        return answer(errors)
    if op == "validateScheduleFormat":
        return answer(validate_schedule_format(str(inp.get("schedule", "")), bool(inp.get("allowTZInSchedule")),
                                               inp.get("timeZone"), "spec.schedule"))
    if op == "default":
        defaulted = set_defaults_cronjob(_cronjob(inp.get("cronJob"), "cronJob"))
        return {"spec": to_dict(defaulted)["spec"]}
    raise ValueError(f"input.op must be create, update, validateCronJobSpec, validateTimeZone, "
                     f"validateScheduleFormat or default, not {op!r}")
