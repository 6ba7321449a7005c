"""CronJob defaulting and validation as the API server does them (pkg/apis/batch)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from k8sjobs.api.admission import admit_cronjob_create, admit_cronjob_update
from k8sjobs.api.defaults import set_defaults_cronjob
from k8sjobs.api.errors import InvalidError
from k8sjobs.api.types import (
    ConcurrencyPolicy,
    Container,
    CronJob,
    CronJobSpec,
    JobSpec,
    JobTemplateSpec,
    LabelSelector,
    ObjectMeta,
    PodSpec,
    PodTemplateSpec,
)
from k8sjobs.api.validation import (
    validate_cronjob_create,
    validate_cronjob_spec,
    validate_cronjob_update,
    validate_schedule_format,
    validate_time_zone,
)

TEMPLATE = JobTemplateSpec(spec=JobSpec(template=PodTemplateSpec(spec=PodSpec(
    restart_policy="OnFailure", containers=(Container(name="c", image="busybox"),)))))


def cronjob(**spec: object) -> CronJob:
    """A defaulted, valid CronJob with some spec fields changed (a Job template is defaulted too)."""
    template = spec.pop("job_template", TEMPLATE)
    base = CronJob(metadata=ObjectMeta(name="nightly", namespace="default", resource_version="1"),
                   spec=CronJobSpec(schedule="0 3 * * *", job_template=template))
    cj = set_defaults_cronjob(base)
    return replace(cj, spec=replace(cj.spec, **spec))


def fields(errors: list) -> list[str]:
    return [e.field for e in errors]


def test_defaulting_fills_allow_not_suspended_and_history_limits_3_and_1() -> None:
    spec = set_defaults_cronjob(CronJob()).spec
    assert (spec.concurrency_policy, spec.suspend, spec.successful_jobs_history_limit,
            spec.failed_jobs_history_limit) == ("Allow", False, 3, 1)


def test_defaulting_keeps_explicit_values_including_zero_limits() -> None:
    spec = set_defaults_cronjob(CronJob(spec=CronJobSpec(
        concurrency_policy="Forbid", suspend=True, successful_jobs_history_limit=0, failed_jobs_history_limit=0))).spec
    assert (spec.concurrency_policy, spec.suspend, spec.successful_jobs_history_limit,
            spec.failed_jobs_history_limit) == ("Forbid", True, 0, 0)


def test_defaulting_gives_the_job_templates_pod_template_the_pod_defaults_but_not_the_job_defaults() -> None:
    job_spec = set_defaults_cronjob(CronJob(spec=CronJobSpec(job_template=TEMPLATE))).spec.job_template.spec
    assert job_spec.template.spec.containers[0].extra["terminationMessagePolicy"] == "File"
    assert job_spec.backoff_limit is None and job_spec.completions is None


def test_a_valid_cronjob_has_no_errors_on_create_and_on_a_no_op_update() -> None:
    cj = cronjob()
    assert validate_cronjob_create(cj) == []
    assert validate_cronjob_update(cj, cj) == []


CREATE_ERRORS = {
    "an empty schedule is required": (dict(schedule=""), "spec.schedule", "spec.schedule: Required value"),
    "a schedule robfig cannot parse": (dict(schedule="0 3 * *"), "spec.schedule",
                                       'spec.schedule: Invalid value: "0 3 * *": expected exactly 5 fields, found 4: '
                                       "[0 3 * *]"),
    "a TZ= prefix on create": (dict(schedule="TZ=UTC 0 3 * * *"), "spec.schedule",
                               'spec.schedule: Invalid value: "TZ=UTC 0 3 * * *": cannot use TZ or CRON_TZ in '
                               "schedule, use timeZone field instead"),
    "a negative startingDeadlineSeconds": (dict(starting_deadline_seconds=-1), "spec.startingDeadlineSeconds",
                                           "spec.startingDeadlineSeconds: Invalid value: -1: must be greater than "
                                           "or equal to 0"),
    "an empty timeZone": (dict(time_zone=""), "spec.timeZone",
                          'spec.timeZone: Invalid value: "": timeZone must be nil or non-empty string'),
    "a time zone with a space": (dict(time_zone=" Europe/Rome"), "spec.timeZone",
                                 'spec.timeZone: Invalid value: " Europe/Rome": unknown time zone  Europe/Rome'),
    "an empty concurrencyPolicy": (dict(concurrency_policy=""), "spec.concurrencyPolicy",
                                   "spec.concurrencyPolicy: Required value"),
    "a negative successful history limit": (dict(successful_jobs_history_limit=-1), "spec.successfulJobsHistoryLimit",
                                            "spec.successfulJobsHistoryLimit: Invalid value: -1: must be greater "
                                            "than or equal to 0"),
    "a negative failed history limit": (dict(failed_jobs_history_limit=-2), "spec.failedJobsHistoryLimit",
                                        "spec.failedJobsHistoryLimit: Invalid value: -2: must be greater than or "
                                        "equal to 0"),
    "a selector in the Job template": (
        dict(job_template=replace(TEMPLATE, spec=replace(TEMPLATE.spec, selector=LabelSelector(match_labels={"a": "b"})))),
        "spec.jobTemplate.spec.selector",
        'spec.jobTemplate.spec.selector: Invalid value: {"matchLabels":{"a":"b"}}: `selector` will be auto-generated'),
    "manualSelector true in the Job template": (
        dict(job_template=replace(TEMPLATE, spec=replace(TEMPLATE.spec, manual_selector=True))),
        "spec.jobTemplate.spec.manualSelector",
        'spec.jobTemplate.spec.manualSelector: Unsupported value: true: supported values: "nil", "false"'),
    "restartPolicy Always in the Job template": (
        dict(job_template=replace(TEMPLATE, spec=replace(TEMPLATE.spec, template=replace(
            TEMPLATE.spec.template, spec=replace(TEMPLATE.spec.template.spec, restart_policy="Always"))))),
        "spec.jobTemplate.spec.template.spec.restartPolicy",
        'spec.jobTemplate.spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"'),
}


@pytest.mark.parametrize(("change", "field", "message"), CREATE_ERRORS.values(), ids=CREATE_ERRORS.keys())
def test_a_malformed_spec_gets_the_api_servers_error_at_its_field(change: dict, field: str, message: str) -> None:
    errors = validate_cronjob_create(cronjob(**change))
    assert fields(errors) == [field]
    assert str(errors[0]) == message


def test_the_name_limit_is_52_characters_on_create_only() -> None:
    ok, long = cronjob(), cronjob()
    ok = replace(ok, metadata=replace(ok.metadata, name="a" * 52))
    long = replace(long, metadata=replace(long.metadata, name="a" * 53))
    assert validate_cronjob_create(ok) == []
    assert [str(e) for e in validate_cronjob_create(long)] == [
        f'metadata.name: Invalid value: "{"a" * 53}": must be no more than 52 characters']
    assert validate_cronjob_update(long, long) == []


TZ_UPDATES = {
    "keeping a TZ= prefix the old schedule had is allowed": ("TZ=UTC 0 3 * * *", None, "TZ=UTC 0 4 * * *", None, []),
    "removing the TZ= prefix is allowed": ("TZ=UTC 0 3 * * *", None, "0 3 * * *", None, []),
    "adding a TZ= prefix is refused": ("0 3 * * *", None, "TZ=UTC 0 3 * * *", None, ["spec.schedule"]),
    "a TZ= prefix with spec.timeZone is refused even when the old schedule had it": (
        "TZ=UTC 0 3 * * *", None, "TZ=UTC 0 3 * * *", "Europe/Rome", ["spec.schedule"]),
    "an unchanged invalid timeZone is not checked again": ("0 3 * * *", "broken", "0 3 * * *", "broken", []),
    "a changed invalid timeZone is checked": ("0 3 * * *", "broken", "0 3 * * *", "still broken", ["spec.timeZone"]),
}


@pytest.mark.parametrize(("old_schedule", "old_tz", "schedule", "tz", "expected"), TZ_UPDATES.values(),
                         ids=TZ_UPDATES.keys())
def test_update_rules_for_tz_in_the_schedule_and_the_time_zone(old_schedule: str, old_tz: str | None, schedule: str,
                                                              tz: str | None, expected: list[str]) -> None:
    old = cronjob(schedule=old_schedule, time_zone=old_tz).spec
    new = cronjob(schedule=schedule, time_zone=tz).spec
    assert fields(validate_cronjob_spec(new, old, "spec")) == expected


def test_a_parser_panic_is_recovered_as_invalid_schedule_format() -> None:
    errors = validate_schedule_format("TZ=UTC", False, None, "spec.schedule")
    assert str(errors[0]).startswith('spec.schedule: Invalid value: "TZ=UTC": invalid schedule format: ')
    assert "cannot use TZ or CRON_TZ" in str(errors[1])


@pytest.mark.parametrize(("zone", "messages"), [
    ("Europe/Rome", []),
    ("Local", ['spec.timeZone: Invalid value: "Local": timeZone must be an explicit time zone as defined in '
               "https://www.iana.org/time-zones"]),
    ("local", ['spec.timeZone: Invalid value: "local": timeZone must be an explicit time zone as defined in '
               "https://www.iana.org/time-zones",
               'spec.timeZone: Invalid value: "local": unknown time zone local']),
    ("Continent/Zone", ['spec.timeZone: Invalid value: "Continent/Zone": unknown time zone Continent/Zone']),
    ("America/../Rome", ['spec.timeZone: Invalid value: "America/../Rome": unknown time zone America/../Rome']),
    ("-Europe/Rome", ['spec.timeZone: Invalid value: "-Europe/Rome": unknown time zone -Europe/Rome']),
    ("Etc/GMT+5", []),
    ("Europe/Rome\n", ['spec.timeZone: Invalid value: "Europe/Rome\\n": unknown time zone Europe/Rome\n']),
])
def test_time_zones_must_be_explicit_iana_names_that_load(zone: str, messages: list[str]) -> None:
    assert [str(e) for e in validate_time_zone(zone, "spec.timeZone")] == messages


def test_admission_defaults_then_validates_and_names_the_cronjob_in_its_error() -> None:
    submitted = CronJob(metadata=ObjectMeta(name="nightly"), spec=CronJobSpec(schedule="0 3 * * *",
                                                                              job_template=TEMPLATE))
    stored = admit_cronjob_create(submitted)
    assert stored.metadata.namespace == "default" and stored.metadata.generation == 1
    assert stored.spec.concurrency_policy == ConcurrencyPolicy.ALLOW
    with pytest.raises(InvalidError) as info:
        admit_cronjob_create(replace(submitted, spec=replace(submitted.spec, time_zone="Mars/Olympus")))
    assert info.value.message().startswith('The CronJob "nightly" is invalid: spec.timeZone: Invalid value')


def test_an_update_bumps_the_generation_only_when_the_spec_changes() -> None:
    stored = admit_cronjob_create(CronJob(metadata=ObjectMeta(name="nightly", resource_version="1"),
                                          spec=CronJobSpec(schedule="0 3 * * *", job_template=TEMPLATE)))
    same = admit_cronjob_update(stored, stored)
    changed = admit_cronjob_update(stored, replace(stored, spec=replace(stored.spec, schedule="0 4 * * *")))
    assert (same.metadata.generation, changed.metadata.generation) == (1, 2)
