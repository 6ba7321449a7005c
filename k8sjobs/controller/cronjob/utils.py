"""Schedule arithmetic and small helpers of the CronJob controller (mirrors pkg/controller/cronjob/utils.go).

Times in API objects are simulated seconds (:data:`k8sjobs.api.types.Time`). Cron needs wall-clock
time in a zone, so the schedule functions convert to aware datetimes at their edge, work as
upstream does on Go times, and convert back. ``origin`` is where simulated time 0 is on the wall
clock, in seconds after :data:`k8sjobs.api.serialize.EPOCH` (the clock's
:attr:`~k8sjobs.clock.Clock.origin`; 0 by default): the instant ``t`` is ``EPOCH + origin + t``. ``zone`` is where a schedule without its own ``TZ=`` is evaluated: upstream
evaluates it in the location of the times it is given, which are the kube-controller-manager's
local time; here that zone is a setting of the controller (UTC unless told otherwise).

Go semantics kept on purpose (the cases and the learner see them):

* ``Time.Sub`` saturates at about 292 years (:func:`go_sub`), so a requeue computed from the
  zero time is the largest duration, not an overflow;
* ``Duration.Round(time.Second)`` rounds half away from zero, ``int64(d.Seconds())`` truncates;
* a schedule that has no next time within five years answers the zero time (robfig/cron v3).
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple, Protocol

from ...api.serialize import EPOCH
from ...api.types import (
    CRONJOB_SCHEDULED_TIMESTAMP_ANNOTATION,
    ConditionStatus,
    CronJob,
    Job,
    JobConditionType,
    JobTemplateSpec,
    ObjectMeta,
    OwnerReference,
    evolve,
)
from ...cron import ZERO_TIME
from ...cron import load_location as _cron_load_location

NEXT_SCHEDULE_DELTA = 0.1
"""nextScheduleDelta: every requeue at a schedule time is 100 ms late, for clock skew (NTP)."""
TOO_MANY_MISSED = 100
"""More missed schedule times than this is 'many' (the TooManyMissedTimes warning)."""
MAX_DURATION = (2**63 - 1) / 1e9
"""Go's largest time.Duration, in seconds: Time.Sub saturates there."""
GO_ZERO = ZERO_TIME
"""Go's zero time.Time (0001-01-01T00:00:00Z): an unset metav1.Time reads as this."""
_ONE_SECOND_US = 1_000_000


class MissedSchedules:
    """missedSchedulesType: how many schedule times passed unmet ('none', 'few' or 'many')."""

    NONE = "none"
    FEW = "few"
    MANY = "many"


class Schedule(Protocol):
    """A parsed cron schedule (robfig/cron v3 Schedule): the next activation strictly after ``t``."""

    def next(self, t: _dt.datetime) -> _dt.datetime | None:
        """The next activation after ``t``; None (or the zero time) when none comes within five years."""
        ...


class Ref:
    """A pointer to the CronJob being changed (Go passes ``*batchv1.CronJob``).

    The API objects are frozen: a change replaces ``obj``. Whoever holds the same Ref sees it;
    when ``sync_cron_job`` switches to a re-read copy it takes a new Ref, so the caller's
    object stops seeing the changes, as upstream's ``cronJob = cjCopy`` does.
    """

    __slots__ = ("obj",)

    def __init__(self, obj: CronJob) -> None:
        self.obj = obj


# ---------------------------------------------------------------------------- time conversion


def to_time(seconds: float | None, zone: _dt.tzinfo, origin: float = 0.0) -> _dt.datetime:
    """Simulated seconds -> an aware datetime in ``zone`` (time 0 is ``origin`` after EPOCH); None is Go's zero time.

    Near year 1 a zone west of UTC would need year 0, which Python's datetime lacks: such an
    instant stays in UTC (the same instant; only a schedule without a zone of its own would
    read its fields there).
    """
    if seconds is None:
        return GO_ZERO
    # A pure function of its arguments, and a controller asks for the same instant at each sync of
    # that instant (jm.now()): the last answer is kept (the zone compared by identity).
    last = _LAST_TO_TIME
    if seconds == last[0] and origin == last[1] and zone is last[2]:
        return last[3]
    t = EPOCH + _dt.timedelta(seconds=seconds + origin if origin else seconds)
    if zone is not _dt.UTC:
        try:
            t = t.astimezone(zone)
        except OverflowError:
            pass
    last[:] = (seconds, origin, zone, t)
    return t


_LAST_TO_TIME: list[Any] = [None, None, None, None]
"""(seconds, origin, zone, answer) of the last :func:`to_time`."""


def from_time(t: _dt.datetime, origin: float = 0.0) -> float:
    """An aware datetime -> simulated seconds (time 0 is ``origin`` after EPOCH)."""
    d = t - EPOCH
    seconds = d.days * 86400 + d.seconds + d.microseconds / 1e6
    return seconds - origin if origin else seconds


def _us(d: _dt.timedelta) -> int:
    return (d.days * 86400 + d.seconds) * _ONE_SECOND_US + d.microseconds


# Go's Time compares, subtracts and adds instants. Python's aware datetimes that share a tzinfo
# (every time of a controller whose zone is not UTC) do it on the wall clock instead, an hour
# off across a daylight-saving change: these helpers go through UTC when the zone is not UTC.

def _utc(t: _dt.datetime) -> _dt.datetime:
    return t if t.tzinfo is _dt.UTC else t.astimezone(_dt.UTC)


def go_before(a: _dt.datetime, b: _dt.datetime) -> bool:
    """``a.Before(b)``: the instants compared, whatever the zones."""
    if a.tzinfo is _dt.UTC and b.tzinfo is _dt.UTC:
        return a < b
    return _utc(a) < _utc(b)


def go_add(t: _dt.datetime, d: _dt.timedelta) -> _dt.datetime:
    """``t.Add(d)``: the instant ``d`` later, in ``t``'s zone."""
    if t.tzinfo is _dt.UTC:
        return t + d
    return (_utc(t) + d).astimezone(t.tzinfo)


def go_seconds(n: int) -> _dt.timedelta:
    """``time.Duration(n) * time.Second`` as Go computes it: nanoseconds in an int64, which wrap
    around past about 292 years (a startingDeadlineSeconds of 9223372037 is about -292 years)."""
    ns = (n * 1_000_000_000 + 2**63) % 2**64 - 2**63
    us = abs(ns) // 1000  # a datetime holds microseconds: truncated toward zero
    return _dt.timedelta(microseconds=us if ns >= 0 else -us)


def go_sub(a: _dt.datetime, b: _dt.datetime) -> float:
    """``a.Sub(b)`` in seconds, saturated at Go's largest and smallest Duration."""
    s = _us(_utc(a) - _utc(b)) / 1e6
    return max(-MAX_DURATION, min(MAX_DURATION, s))


def _round_to_second(d: _dt.timedelta) -> int:
    """``Duration.Round(time.Second)`` as whole seconds (halves away from zero)."""
    us = _us(d)
    q, r = divmod(abs(us), _ONE_SECOND_US)
    if 2 * r >= _ONE_SECOND_US:
        q += 1
    return q if us >= 0 else -q


def _next(schedule: Schedule, t: _dt.datetime) -> _dt.datetime:
    """``schedule.Next(t)`` with robfig's zero time when there is none."""
    last = _LAST_NEXT
    if t is last[0] and schedule is last[1]:
        # The same question as the last one (immutable objects: the same answer). A sync asks for the
        # time after its most recent schedule time, which is the same object from sync to sync.
        return last[2]
    n = schedule.next(t)
    n = GO_ZERO if n is None else n
    last[:] = (t, schedule, n)
    return n


_LAST_NEXT: list[Any] = [None, None, None]
"""(time, schedule, answer) of the last :func:`_next`."""


def _is_zero(t: _dt.datetime) -> bool:
    return t == GO_ZERO


def load_location(name: str) -> _dt.tzinfo | None:
    """``time.LoadLocation`` (:func:`k8sjobs.cron.load_location`): None for "Local"; raises ValueError with Go's text."""
    return _cron_load_location(name)


# ---------------------------------------------------------------------------- the active list


def in_active_list(cj: CronJob, uid: str) -> bool:
    """status.active holds a Job with this UID (mirrors inActiveList in utils.go)."""
    for ref in cj.status.active:  # a loop, not any(): this runs for every Job at every sync
        if ref.uid == uid:
            return True
    return False


def in_active_list_by_name(cj: CronJob, namespace: str, name: str) -> bool:
    """status.active holds a Job of this name and namespace (mirrors inActiveListByName in utils.go)."""
    return any(ref.name == name and ref.namespace == namespace for ref in cj.status.active)


def delete_from_active_list(ref: Ref, uid: str) -> None:
    """Drop every status.active entry with this UID (mirrors deleteFromActiveList in utils.go)."""
    cj = ref.obj
    if cj is None:
        return
    kept = tuple(a for a in cj.status.active if a.uid != uid)
    if len(kept) == len(cj.status.active):
        return  # nothing to drop (a history cleanup deletes finished Jobs): the copy would equal the object
    ref.obj = evolve(cj, status=evolve(cj.status, active=kept))


# ---------------------------------------------------------------------------- schedule times


class MostRecent(NamedTuple):
    """What mostRecentScheduleTime returns."""

    earliest: _dt.datetime
    """The time the search started from (lastScheduleTime, else creationTimestamp, maybe the deadline)."""
    most_recent: _dt.datetime | None
    """The latest schedule time at or before now, or None."""
    missed: str
    """:class:`MissedSchedules`: none, few or many."""
    error: str | None
    """Go's error text when consecutive times are less than 1 s apart (a schedule that never fires)."""
    count: int = 0
    """The estimate of missed times behind ``missed`` (0 when the estimate was not made)."""


def most_recent_schedule_time(cj: CronJob, now: _dt.datetime, schedule: Schedule,
                              include_starting_deadline_seconds: bool, origin: float = 0.0) -> MostRecent:
    """The most recent unmet schedule time and an estimate of how many were missed.

    Mirrors mostRecentScheduleTime in utils.go, step for step: the search starts at
    lastScheduleTime (else creationTimestamp), or at now - startingDeadlineSeconds when
    that is later and the deadline is included; the count is estimated from the first two
    times after that start (t1, t2) as floor((now - t1) / (t2 - t1)) + 1, so an irregular
    schedule can be misjudged (upstream's quirk, kept).
    """
    zone = now.tzinfo
    deadline = cj.spec.starting_deadline_seconds if include_starting_deadline_seconds else None
    # A pure function of these: a sync asks twice (nextScheduleTime, then nextScheduleTimeDuration),
    # and without a deadline both questions are the same. The zone is compared by identity.
    # The schedule by identity too (its entry keeps it alive): hashing its fields costs more than a hit.
    key = (cj.metadata.creation_timestamp, cj.status.last_schedule_time, deadline, now, id(zone), id(schedule), origin)
    known = _MOST_RECENT.get(key)
    if known is not None and known[0] is zone and known[2] is schedule:
        return known[1]
    answer = _most_recent_schedule_time(cj, now, schedule, deadline, origin)
    if len(_MOST_RECENT) >= 64:
        _MOST_RECENT.clear()
    _MOST_RECENT[key] = (zone, answer, schedule)
    return answer


_MOST_RECENT: dict[tuple, tuple[_dt.tzinfo | None, MostRecent, Schedule]] = {}


def _most_recent_schedule_time(cj: CronJob, now: _dt.datetime, schedule: Schedule,
                               deadline: int | None, origin: float = 0.0) -> MostRecent:
    zone = now.tzinfo
    if deadline is None:
        # Without a deadline the search start and its first two schedule times do not depend on
        # now: every sync until the next schedule time asks for the same three times.
        earliest, t1, t2 = _first_times(cj.metadata.creation_timestamp, cj.status.last_schedule_time, zone,
                                        schedule, origin)
    else:
        earliest = to_time(cj.metadata.creation_timestamp, zone, origin)
        if cj.status.last_schedule_time is not None:
            earliest = to_time(cj.status.last_schedule_time, zone, origin)
        scheduling_deadline = go_add(now, go_seconds(-deadline))
        if go_before(earliest, scheduling_deadline):
            earliest = scheduling_deadline
        t1 = _next(schedule, earliest)
        t2 = _next(schedule, t1)
    if go_before(now, t1):
        return MostRecent(earliest, None, MissedSchedules.NONE, None)
    if go_before(now, t2):
        return MostRecent(earliest, t1, MissedSchedules.NONE, None)

    between = _round_to_second(_utc(t2) - _utc(t1))
    if between < 1:
        return MostRecent(earliest, None, MissedSchedules.NONE,
                          "time difference between two schedules is less than 1 second")
    # int64(now.Sub(t1).Seconds()): Sub saturates at about 292 years (a creationTimestamp of the zero time)
    elapsed = int(go_sub(now, t1))
    missed_count = elapsed // between + 1
    # Jump close to now (one interval early, for irregular schedules), then walk to now.
    potential_earliest = go_add(t1, go_seconds((missed_count - 2) * between))
    most_recent = None
    t = _next(schedule, potential_earliest)
    while not _is_zero(t) and not go_before(now, t):
        most_recent = t
        t = _next(schedule, t)

    missed = MissedSchedules.NONE
    if missed_count > TOO_MANY_MISSED:
        missed = MissedSchedules.MANY
    elif missed_count > 0:
        missed = MissedSchedules.FEW
    return MostRecent(earliest, most_recent, missed, None, missed_count)


def _first_times(created: float | None, last: float | None, zone: Any, schedule: Schedule,
                 origin: float) -> tuple[_dt.datetime, _dt.datetime, _dt.datetime]:
    """(earliest, t1, t2) of mostRecentScheduleTime without a deadline: the search start (lastScheduleTime,
    else creationTimestamp) and the next two schedule times after it (a pure function of these, kept for the
    latest few questions; the zone and the schedule by identity, kept alive by their entry)."""
    key = (created, last, id(zone), id(schedule), origin)
    known = _FIRST_TIMES.get(key)
    if known is not None and known[0] is zone and known[1] is schedule:
        return known[2]
    earliest = to_time(created if last is None else last, zone, origin)
    t1 = _next(schedule, earliest)
    answer = (earliest, t1, _next(schedule, t1))
    if len(_FIRST_TIMES) >= 64:
        _FIRST_TIMES.clear()
    _FIRST_TIMES[key] = (zone, schedule, answer)
    return answer


_FIRST_TIMES: dict[tuple, tuple[Any, Schedule, tuple[_dt.datetime, _dt.datetime, _dt.datetime]]] = {}


def next_schedule_time_duration(cj: CronJob, now: _dt.datetime, schedule: Schedule, origin: float = 0.0) -> float:
    """Seconds until the next schedule time plus 100 ms (mirrors nextScheduleTimeDuration in utils.go).

    The next time is counted from the most recent schedule time (without the starting
    deadline); when there is none, from the search start if nothing was missed, else from now;
    on an error, from now.
    """
    mr = most_recent_schedule_time(cj, now, schedule, False, origin)
    if mr.error is not None:
        base = now
    elif mr.most_recent is None:
        base = mr.earliest if mr.missed == MissedSchedules.NONE else now
    else:
        base = mr.most_recent
    nxt = _next(schedule, base)
    return go_sub(go_add(nxt, _NEXT_SCHEDULE_DELTA), now)


_NEXT_SCHEDULE_DELTA = _dt.timedelta(seconds=NEXT_SCHEDULE_DELTA)


class NextSchedule(NamedTuple):
    """What nextScheduleTime returns, with the facts behind it (for the learner)."""

    scheduled: _dt.datetime | None
    error: str | None
    recent: MostRecent


def next_schedule_time(cj: CronJob, now: _dt.datetime, schedule: Schedule,
                       too_many_missed: Callable[[MostRecent], None] | None = None,
                       origin: float = 0.0) -> NextSchedule:
    """The unmet schedule time to run now, or None (mirrors nextScheduleTime in utils.go).

    startingDeadlineSeconds is applied. When more than 100 times were missed,
    ``too_many_missed`` is called (the controller records the TooManyMissedTimes warning) and
    the time is still returned: the warning does not stop the run.
    """
    mr = most_recent_schedule_time(cj, now, schedule, True, origin)
    if mr.most_recent is None or go_before(now, mr.most_recent):
        return NextSchedule(None, mr.error, mr)
    if mr.missed == MissedSchedules.MANY and too_many_missed is not None:
        too_many_missed(mr)
    return NextSchedule(mr.most_recent, mr.error, mr)


# ---------------------------------------------------------------------------- the Job of a schedule time


def copy_labels(template: JobTemplateSpec) -> dict[str, str]:
    """A copy of the template's labels (mirrors copyLabels in utils.go)."""
    return dict(template.metadata.labels)


def copy_annotations(template: JobTemplateSpec) -> dict[str, str]:
    """A copy of the template's annotations (mirrors copyAnnotations in utils.go)."""
    return dict(template.metadata.annotations)


_UNIX_EPOCH = _dt.datetime(1970, 1, 1, tzinfo=_dt.UTC)
_ONE_SECOND = _dt.timedelta(seconds=1)


def get_time_hash_in_minutes(scheduled: _dt.datetime) -> int:
    """Unix seconds of the scheduled time / 60, as Go's integer division (mirrors getTimeHashInMinutes in utils.go)."""
    unix = int((scheduled - _UNIX_EPOCH) // _ONE_SECOND)
    return unix // 60 if unix >= 0 else -((-unix) // 60)


def get_job_name(cj: CronJob, scheduled: _dt.datetime) -> str:
    """``<cronjob>-<scheduled time in Unix minutes>`` (mirrors getJobName in cronjob_controllerv2.go)."""
    return f"{cj.metadata.name}-{get_time_hash_in_minutes(scheduled)}"


def new_controller_ref(cj: CronJob) -> OwnerReference:
    """metav1.NewControllerRef(cj, batch/v1 CronJob)."""
    return OwnerReference(api_version="batch/v1", kind="CronJob", name=cj.metadata.name, uid=cj.metadata.uid,
                          controller=True, block_owner_deletion=True)


def format_rfc3339(t: _dt.datetime) -> str:
    """Go's ``Format(time.RFC3339)``: whole seconds, ``Z`` for a zero offset, else ``±hh:mm``."""
    head = f"{t.year:04d}-{t.month:02d}-{t.day:02d}T{t.hour:02d}:{t.minute:02d}:{t.second:02d}"
    off = t.utcoffset() or _dt.timedelta(0)
    secs = int(off.total_seconds())
    if secs == 0:
        return head + "Z"
    sign = "-" if secs < 0 else "+"
    secs = abs(secs)
    return f"{head}{sign}{secs // 3600:02d}:{secs % 3600 // 60:02d}"


def get_job_from_template2(cj: CronJob, scheduled: _dt.datetime, origin: float = 0.0) -> Job:
    """The Job for one schedule time (mirrors getJobFromTemplate2 in utils.go).

    Name ``<cronjob>-<Unix minutes>``; the template's labels and annotations plus
    batch.kubernetes.io/cronjob-scheduled-timestamp (RFC 3339 in spec.timeZone, UTC when unset);
    creationTimestamp = the scheduled time (the API server sets its own on create); the CronJob
    as controller owner; the template's spec. Raises ValueError when spec.timeZone does not load.
    """
    labels = copy_labels(cj.spec.job_template)
    annotations = copy_annotations(cj.spec.job_template)
    name = get_job_name(cj, scheduled)
    location = load_location(cj.spec.time_zone or "")
    # "Local" is the controller's own zone, the zone ``scheduled`` is in.
    shown = scheduled if location is None else scheduled.astimezone(location)
    annotations[CRONJOB_SCHEDULED_TIMESTAMP_ANNOTATION] = format_rfc3339(shown)
    meta = ObjectMeta(name=name, namespace=cj.metadata.namespace, labels=labels, annotations=annotations,
                      creation_timestamp=from_time(scheduled, origin), owner_references=(new_controller_ref(cj),))
    return Job(metadata=meta, spec=cj.spec.job_template.spec)


# ---------------------------------------------------------------------------- finished Jobs


_COMPLETE = JobConditionType.COMPLETE
_FAILED = JobConditionType.FAILED
_TRUE = ConditionStatus.TRUE
_NOT_FINISHED = (False, "")


def get_finished_status(job: Job) -> tuple[bool, str]:
    """(finished, Complete or Failed) from the first such condition with status True (mirrors getFinishedStatus in cronjob_controllerv2.go)."""
    # (Module constants instead of class attributes: this runs twice for every Job at every sync.)
    for c in job.status.conditions:
        ctype = c.type
        if (ctype == _COMPLETE or ctype == _FAILED) and c.status == _TRUE:
            return True, ctype
    return _NOT_FINISHED


def is_job_finished(job: Job) -> bool:
    """Complete=True or Failed=True (mirrors IsJobFinished in pkg/controller/job/util/utils.go)."""
    return get_finished_status(job)[0]


def is_job_succeeded(job: Job) -> bool:
    """Complete=True (mirrors IsJobSucceeded in pkg/controller/job/util/utils.go)."""
    for c in job.status.conditions:
        if c.type == _COMPLETE and c.status == _TRUE:
            return True
    return False


def by_job_start_time_key(job: Job) -> tuple[Any, ...]:
    """The oldest-first order of history cleanup (mirrors byJobStartTime.Less in utils.go).

    By status.startTime; Jobs without one after all that have one; ties (and two unset) by name.
    """
    start = job.status.start_time
    return (1, 0.0, job.metadata.name) if start is None else (0, start, job.metadata.name)


def sort_by_job_start_time(jobs: Iterable[Job]) -> list[Job]:
    """Jobs oldest first (sort.Sort(byJobStartTime(js)))."""
    return sorted(jobs, key=by_job_start_time_key)
