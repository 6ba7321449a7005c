"""A CronJob sync in a few words: what the CronJob controller decided and why (the dashboard's status line).

The controller's decisions carry rule ids and fields (:mod:`k8sjobs.trace.reasons` says each in
full); this module says a whole sync short, as a learner reads it at a glance:
``skipped 09:05: Forbid, job nightly-29381285 still running``, ``created hello-29453762 for
00:02``, ``missed 180 runs while the controller was down: started only the latest (09:00)``.
Times are wall-clock times in the zone the controller read the schedule in (the decision's
``zone``); :func:`wall_clock` says an instant of the run as ``day 2 09:05``.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterable, Sequence
from typing import Any

from ..controller.cronjob.utils import from_time, load_location, to_time
from ..cron import CronParseError, is_zero, parse_standard
from ..i18n import _, join_list, ngettext
from .records import Cycle, Decision

PART_SEP = "; "
"""Between two parts of a summary (one sync can create a Job and delete an old one)."""


def zone_of(name: str | None) -> _dt.tzinfo:
    """The zone called ``name`` (UTC when it is None, empty or does not load)."""
    try:
        return load_location(name or "UTC") or _dt.UTC
    except ValueError:
        return _dt.UTC


def repeated_hour_offset(local: _dt.datetime) -> str:
    """`` +02:00``, the UTC offset, when the wall-clock time ``local`` happens twice in its zone (the
    hour the clocks go back: 02:30 on 25 October 2026 in Berlin is +02:00, then +01:00), else ``""``:
    two instants that read the same on the wall clock are told apart by it."""
    offset = local.utcoffset()
    if offset is None or local.replace(fold=1 - local.fold).utcoffset() == offset:
        return ""
    minutes = int(offset.total_seconds()) // 60
    sign = "+" if minutes >= 0 else "-"
    return f" {sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


def clock_time(t: float, zone: str | None, origin: float = 0.0) -> str:
    """``09:05`` (or ``09:05:07`` when the seconds are not 0): simulated seconds ``t`` in ``zone`` (the
    run's time 0 is ``origin`` seconds after the model's epoch); in the hour the clocks go back, with
    the UTC offset (``02:30 +01:00``)."""
    local = to_time(t, zone_of(zone), origin)
    return (f"{local.hour:02d}:{local.minute:02d}" + (f":{local.second:02d}" if local.second else "")
            + repeated_hour_offset(local))


def wall_clock(t: float, zone: str | None, start: float = 0.0, origin: float = 0.0) -> str:
    """``day 2 09:05``: the instant ``t`` in ``zone``, its day counted from the run's start (day 1)."""
    tz = zone_of(zone)
    day = (to_time(t, tz, origin).date() - to_time(start, tz, origin).date()).days + 1
    # TRANSLATORS: the time shown on a CronJob's dashboard: {day} counts the run's days from 1, {time} is 09:05.
    return _("day {day} {time}").format(day=day, time=clock_time(t, zone, origin))


MAX_COUNTED = 1_000_000
"""Schedule times counted one by one at most (a year of an every-second... schedule is not counted)."""


def times_between(schedule: str, zone: str | None, after: float, before: float, origin: float = 0.0) -> int | None:
    """How many times of ``schedule`` (read in ``zone``) fall strictly between ``after`` and ``before``
    (None when the schedule does not parse or there are too many to count)."""
    try:
        sched = parse_standard(schedule)
    except CronParseError:
        return None
    t, end, n = to_time(after, zone_of(zone), origin), before, 0
    while True:
        t = sched.next(t)
        if is_zero(t) or from_time(t, origin) >= end:
            return n
        n += 1
        if n > MAX_COUNTED:
            return None


def _find(decisions: Sequence[Decision], rule: str) -> list[Decision]:
    return [d for d in decisions if d.rule == rule]


def _first(decisions: Sequence[Decision], rule: str) -> Decision | None:
    found = _find(decisions, rule)
    return found[0] if found else None


def _cause(earliest: float, scheduled: float, actions: Iterable[Any]) -> str:
    """Why runs were missed between ``earliest`` and ``scheduled``, from the learner's actions ("" if none says)."""
    suspended_at: float | None = None
    for a in actions:
        kw = dict(a.kwargs)
        if a.name == "stop_controllers" and a.t < scheduled and a.t + kw.get("seconds", 0) > earliest:
            return _(" while the controller was down")
        if a.name == "suspend_cronjob":
            suspended_at = a.t
        elif a.name == "resume_cronjob" and suspended_at is not None:
            if suspended_at < scheduled and a.t > earliest:
                return _(" while the CronJob was suspended")
            suspended_at = None
    return ""


def sync_summary(cycle: Cycle, actions: Iterable[Any] = (), since: float | None = None) -> str:
    """What the CronJob controller decided at ``cycle`` and why, short (see the module docstring).

    ``actions`` are the run's learner actions (:class:`~k8sjobs.sim.Action`): they say why runs
    were missed (the controller stopped, the CronJob suspended). ``since``: the latest schedule
    time an earlier sync considered (run, skipped or too late), or the CronJob's creation: the
    runs missed are the schedule's times after it and before the one this sync handles, counted
    one by one (the controller's own count is an estimate that also counts the one it runs, and
    earlier times already skipped). A sync this module has no short words for says its headline
    decision in full.
    """
    ds = cycle.decisions
    parts: list[str] = []
    due = _first(ds, "cronjob.schedule.due")
    if due is not None:
        f = due.fields
        zone, origin = f.get("zone"), f.get("origin") or 0.0
        at = clock_time(f["scheduled"], zone, origin)
        created = _first(ds, "cronjob.create")
        start = since if since is not None else f["earliest"]
        counted = times_between(f.get("schedule", ""), zone, start, f["scheduled"], origin) if f.get("case") in (
            "few", "many") else 0
        missed = counted if counted is not None else max(int(f.get("missed") or 0) - 1, 0)
        replaced = [d.fields["job"] for d in ds if d.rule == "cronjob.delete" and d.fields.get("case") == "replace"]
        if replaced:
            # TRANSLATORS: {jobs} names the Jobs deleted; Replace is the concurrencyPolicy value (stays English).
            parts.append(_("Replace: deleted {jobs}").format(jobs=join_list(replaced)))
        if missed > 0:
            cause = _cause(start, f["scheduled"], actions)
            if created is not None:
                # TRANSLATORS: {cause} is empty or " while the controller was down"; {time} is 09:00.
                parts.append(ngettext("missed {n} run{cause}: started only the latest ({time}) as {job}",
                                      "missed {n} runs{cause}: started only the latest ({time}) as {job}",
                                      missed).format(n=missed, cause=cause, time=at, job=created.fields["job"]))
                created = None
            else:
                parts.append(ngettext("missed {n} run{cause}; the latest is {time}",
                                      "missed {n} runs{cause}; the latest is {time}", missed).format(
                    n=missed, cause=cause, time=at))
        forbid = _first(ds, "cronjob.skip.forbid")
        late = _first(ds, "cronjob.skip.too_late")
        done = _first(ds, "cronjob.skip.already_processed")
        failed = _first(ds, "cronjob.create.failed")
        if created is not None:
            # TRANSLATORS: {job} is the new Job's name, {time} the schedule time it runs for (00:02).
            parts.append(_("created {job} for {time}").format(job=created.fields["job"], time=at))
        elif forbid is not None:
            jobs = list(forbid.fields.get("jobs") or ())
            # TRANSLATORS: Forbid is the concurrencyPolicy value (stays English); {jobs} names the running Jobs.
            parts.append(ngettext("skipped {time}: Forbid, job {jobs} still running",
                                  "skipped {time}: Forbid, jobs {jobs} still running", max(len(jobs), 1)).format(
                time=at, jobs=join_list(jobs)))
        elif late is not None:
            parts.append(_("skipped {time}: more than startingDeadlineSeconds ({deadline} s) late").format(
                time=at, deadline=late.fields.get("deadline")))
        elif done is not None:
            parts.append(_("{time} was already handled").format(time=at))
        elif failed is not None:
            # TRANSLATORS: {error} is the API server's error text (stays English).
            parts.append(_("creating {job} for {time} failed: {error}").format(
                job=failed.fields["job"], time=at, error=failed.fields.get("error", "")))
        elif not parts:
            parts.append(" ".join(cycle.headline.reason.split()))
    elif _first(ds, "cronjob.skip.suspended") is not None:
        parts.append(_("suspended: no Job is created"))
    else:
        none_due = _first(ds, "cronjob.schedule.none_due")
        finished = _find(ds, "cronjob.active.saw_completed")
        if len(finished) == 1:
            # TRANSLATORS: {condition} is Complete or Failed (a Job condition type, stays English).
            parts.append(_("{job} finished ({condition})").format(job=finished[0].fields["job"],
                                                                  condition=finished[0].fields["condition"]))
        elif finished:
            parts.append(ngettext("{n} Job finished", "{n} Jobs finished", len(finished)).format(n=len(finished)))
        if none_due is not None and not finished:
            # TRANSLATORS: {time} is the next schedule time, e.g. 09:05.
            parts.append(_("nothing due; next run at {time}").format(
                time=clock_time(none_due.fields["at"], none_due.fields.get("zone"),
                                none_due.fields.get("origin") or 0.0)))
        elif none_due is None and not finished:
            parts.append(" ".join(cycle.headline.reason.split()))
    history = [d.fields["job"] for d in ds if d.rule == "cronjob.delete"
               and d.fields.get("case") in ("successful", "failed")]
    if history:
        # TRANSLATORS: {jobs} names the finished Jobs the history limits removed.
        parts.append(_("deleted {jobs} (history limit)").format(jobs=join_list(history)))
    if cycle.error:
        # TRANSLATORS: {error} is the API server's error text (stays English).
        parts.append(_("the sync failed and will be retried: {error}").format(error=cycle.error))
    return PART_SEP.join(parts)


__all__ = ["MAX_COUNTED", "PART_SEP", "clock_time", "sync_summary", "times_between", "wall_clock", "zone_of"]
