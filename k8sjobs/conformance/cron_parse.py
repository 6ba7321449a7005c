"""The ``cron-parse`` kind: robfig/cron v3 ``ParseStandard`` of one schedule string.

``input`` is ``{"schedule": str}``, passed verbatim to :func:`k8sjobs.cron.parse_standard`.
The answer is ``{"valid": true, "schedule": {...}}`` with the parsed fields as
``{"values": [...], "star": bool}`` (robfig's bit sets; ``star`` is its starBit) and the
``location`` (``null`` = time.Local), or ``{"type": "every", "delaySeconds"}`` for
``@every``; or ``{"valid": false, "errorContains": <the Go error text>, "error": <same>}``.
"""

from __future__ import annotations

from typing import Any

from k8sjobs.cron import ConstantDelaySchedule, CronParseError, Schedule, SpecSchedule, parse_standard


def describe(schedule: Schedule) -> dict[str, Any]:
    """A parsed schedule in the case files' form."""
    if isinstance(schedule, ConstantDelaySchedule):
        return {"type": "every", "delaySeconds": schedule.delay_seconds}
    assert isinstance(schedule, SpecSchedule)
    out: dict[str, Any] = {"type": "spec", "location": schedule.location}
    for name in SpecSchedule.FIELDS:
        out[name] = {"values": schedule.values(name), "star": schedule.has_star(name)}
    return out


def run_case(inp: dict[str, Any]) -> dict[str, Any]:
    """Parse ``inp["schedule"]`` and describe the schedule or the error."""
    spec = inp.get("schedule")
    if not isinstance(spec, str):
        raise ValueError("input.schedule must be a string")
    try:
        schedule = parse_standard(spec)
    except CronParseError as exc:
        return {"valid": False, "errorContains": str(exc), "error": str(exc)}
    return {"valid": True, "schedule": describe(schedule)}
