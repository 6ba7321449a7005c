"""The ``cron-next`` kind: robfig/cron v3 ``ParseStandard(schedule).Next(start)``.

``input`` is ``{"schedule", "timeZone", "start"}``: ``timeZone`` is the zone of the time
handed to ``Next`` (an IANA name, or a fixed offset such as ``"+05:30"``, Go's
``FixedZone``), ``start`` an RFC 3339 time with offset (a fraction allowed). The answer is
``{"next": <RFC 3339 in timeZone>}``, or ``{"next": "zero"}`` when ``Next`` returns Go's
zero time (nothing within five years).
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from k8sjobs.cron import is_zero, load_location, parse_standard

_OFFSET = re.compile(r"^([+-])(\d{2}):(\d{2})$")


def zone_of(name: str) -> dt.tzinfo:
    """An IANA zone (from tzdata) or a fixed ``±HH:MM`` offset."""
    m = _OFFSET.match(name)
    if m:
        sign = -1 if m.group(1) == "-" else 1
        return dt.timezone(sign * dt.timedelta(hours=int(m.group(2)), minutes=int(m.group(3))))
    zone = load_location(name)
    if zone is None:
        raise ValueError("input.timeZone must name a zone; Local has none in the model")
    return zone


def run_case(inp: dict[str, Any]) -> dict[str, Any]:
    """Compute the next activation after ``start`` in ``timeZone``."""
    zone = zone_of(str(inp.get("timeZone", "UTC")))
    start = dt.datetime.fromisoformat(str(inp["start"]).replace("Z", "+00:00")).astimezone(zone)
    found = parse_standard(str(inp["schedule"])).next(start)
    return {"next": "zero" if is_zero(found) else found.isoformat()}
