"""What the CronJob views read from a CronJob's trace: its Jobs' lives, its schedule times and why
each one ran or did not, the controller's downtime and the CronJob's suspensions.

Built once per trace (:func:`k8sjobs.viz._common.cached`) from the run's shared API changes in
one pass (a day of an every-minute schedule leaves some 1,440 Jobs and 30,000 changes: reading
them once per Job would cost seconds), then cut at a cycle by change number and time, as the
Job views cut pod histories. Language-neutral: the views say it in words.
"""

from __future__ import annotations

import bisect
import datetime as _dt
from dataclasses import dataclass, field
from typing import Any

from k8sjobs.api.serialize import EPOCH
from k8sjobs.api.store import DELETED
from k8sjobs.cron import ConstantDelaySchedule, CronParseError, is_zero, load_location, parse_standard
from k8sjobs.trace.recorder import Trace

from ._common import cached

MAX_TIMES = 200_000
"""The most schedule times listed (a run of a year of an every-minute schedule stops there)."""

JOB_OUTCOMES = ("running", "succeeded", "failed", "replaced", "deleted")
"""What became of a Job as of a cycle: still running, finished, deleted by Replace while it ran,
or deleted otherwise before it finished."""
MISSES = ("forbid", "too_late", "down", "suspended", "missed", "due")
"""Why a schedule time has no Job (as of a cycle): skipped by Forbid, later than
startingDeadlineSeconds, the controller manager down, the CronJob suspended, missed otherwise
(only the most recent missed time runs), or due and not handled yet."""
DELETIONS = ("successful", "failed", "ttl", "replace", "other")
"""Who deleted a Job: successfulJobsHistoryLimit, failedJobsHistoryLimit, the ttl-after-finished
controller, concurrencyPolicy Replace, or someone else (kubectl delete)."""


@dataclass(slots=True)
class JobLife:
    """One Job of the CronJob, from the API changes (times in simulated seconds, ``*_seq`` change numbers)."""

    name: str
    uid: str
    created: float
    created_seq: int
    scheduled: float | None = None
    finished: float | None = None
    finished_seq: int = -1
    outcome: str = ""
    """``succeeded`` or ``failed`` once finished."""
    start_time: float | None = None
    deleting: float | None = None
    deleting_seq: int = -1
    removed: float | None = None
    removed_seq: int = -1
    deleted_by: str = ""
    """A key of :data:`DELETIONS` once a deletion was requested."""
    deleted_in_cycle: int = 0
    """The CronJob's cycle that deleted it (0: not the CronJob controller)."""
    ttl: int | None = None
    """The Job's ttlSecondsAfterFinished."""


@dataclass(frozen=True, slots=True)
class Segment:
    """The CronJob's spec from ``t`` (change ``seq``) on."""

    t: float
    seq: int
    spec: Any


@dataclass
class CronModel:
    """Everything the CronJob views read, for the whole trace (cut at a cycle with the helpers below)."""

    jobs: list[JobLife]
    by_scheduled: dict[float, JobLife]
    segments: list[Segment]
    times: list[float]
    """Every schedule time from the CronJob's creation to the end of the trace, ascending."""
    time_segment: list[int]
    """For each schedule time, the index of the spec segment it belongs to."""
    decisions: list[tuple[int, str, float]]
    """(cycle, rule, scheduled) of every cronjob.skip.forbid / cronjob.skip.too_late decision."""
    downtime: list[tuple[float, float, int]]
    """(from, until, cycles ended before) of every stop of the controller manager."""
    controller_zone: str
    history: list[tuple[int, str, str, int, int]] = field(default_factory=list)
    """(cycle, case, job, count, limit) of every cronjob.history.limit decision."""


def _zone_of(spec: Any, controller_zone: str) -> str:
    """The zone the schedule is evaluated in: a TZ= prefix's, else spec.timeZone's, else the controller's."""
    schedule = spec.schedule
    if schedule.startswith(("TZ=", "CRON_TZ=")) and " " in schedule:
        name = schedule[schedule.index("=") + 1:schedule.index(" ")]
        return name or "UTC"
    if spec.time_zone:
        try:
            load_location(spec.time_zone)
            return spec.time_zone
        except ValueError:
            pass
    return controller_zone


def zone_of(spec: Any, controller_zone: str) -> str:
    """The IANA name of the zone a CronJob spec's times are read in (see :func:`_zone_of`)."""
    return _zone_of(spec, controller_zone)


def tz(name: str) -> _dt.tzinfo:
    """The tzinfo of a zone name (UTC for one that does not load)."""
    try:
        return load_location(name) or _dt.UTC
    except ValueError:
        return _dt.UTC


def to_local(t: float, zone: str) -> _dt.datetime:
    """Simulated seconds as an aware datetime in ``zone``."""
    return (EPOCH + _dt.timedelta(seconds=t)).astimezone(tz(zone))


def _schedule_text(spec: Any) -> str:
    schedule = spec.schedule
    if "TZ" in schedule:
        return schedule
    if spec.time_zone:
        try:
            load_location(spec.time_zone)
        except ValueError:
            return schedule
        return f"TZ={spec.time_zone} {schedule}"
    return schedule


def _times_between(spec: Any, start: float, end: float, controller_zone: str, room: int) -> list[float]:
    """The schedule's times in (start, end], at most ``room``."""
    try:
        sched = parse_standard(_schedule_text(spec))
    except CronParseError:
        return []
    zone = tz(controller_zone)
    out: list[float] = []
    if isinstance(sched, ConstantDelaySchedule):
        t = start + sched.delay_seconds
        while t <= end and len(out) < room:
            out.append(float(int(t)))
            t = out[-1] + sched.delay_seconds
        return out
    w = (EPOCH + _dt.timedelta(seconds=start)).astimezone(zone)
    while len(out) < room:
        w = sched.next(w)
        if is_zero(w):
            break
        d = w - EPOCH
        s = d.days * 86400 + d.seconds
        if s > end:
            break
        out.append(float(s))
    return out


def _end_of(trace: Trace) -> float:
    ends = [trace.end_t, trace.start_t]
    if trace.cycles:
        ends.append(trace.cycles[-1].t)
    if trace.changes:
        ends.append(trace.changes[-1].t)
    return max(ends)


def _build(trace: Trace) -> CronModel:
    uid = trace.job_uid
    jobs: dict[str, JobLife] = {}
    segments: list[Segment] = []
    for ch in trace.changes:
        kind = ch.kind
        if kind == "CronJob":
            obj = ch.obj
            if ch.type == DELETED or obj.metadata.uid != uid:
                continue
            if not segments or segments[-1].spec != obj.spec:
                segments.append(Segment(ch.t, ch.seq, obj.spec))
            continue
        if kind != "Job":
            continue
        job = ch.obj
        meta = job.metadata
        life = jobs.get(meta.uid)
        if life is None:
            if not any(r.uid == uid for r in meta.owner_references) or ch.type == DELETED:
                continue
            life = jobs[meta.uid] = JobLife(meta.name, meta.uid, ch.t, ch.seq,
                                            ttl=job.spec.ttl_seconds_after_finished)
        if ch.type == DELETED:
            if life.removed is None:
                life.removed, life.removed_seq = ch.t, ch.seq
            continue
        st = job.status
        if life.start_time is None and st.start_time is not None:
            life.start_time = st.start_time
        if life.finished is None:
            for c in st.conditions:
                if c.status == "True" and c.type in ("Complete", "Failed"):
                    life.finished, life.finished_seq = ch.t, ch.seq
                    life.outcome = "succeeded" if c.type == "Complete" else "failed"
                    break
        if life.deleting is None and meta.deletion_timestamp is not None:
            life.deleting, life.deleting_seq = ch.t, ch.seq
    by_name = {j.name: j for j in jobs.values()}
    decisions: list[tuple[int, str, float]] = []
    history: list[tuple[int, str, str, int, int]] = []
    for c in trace.cycles:
        for d in c.decisions:
            rule = d.rule
            if rule == "cronjob.create":
                life = by_name.get(d.fields.get("job", ""))
                if life is not None and life.scheduled is None:
                    life.scheduled = d.fields.get("scheduled")
            elif rule in ("cronjob.skip.forbid", "cronjob.skip.too_late"):
                decisions.append((c.index, rule, d.fields.get("scheduled")))
            elif rule == "cronjob.delete":
                life = by_name.get(d.fields.get("job", ""))
                if life is not None and not life.deleted_by:
                    life.deleted_by = d.fields.get("case") or "other"
                    life.deleted_in_cycle = c.index
            elif rule == "cronjob.history.limit":
                history.append((c.index, d.fields.get("case", ""), "", int(d.fields.get("count", 0)),
                                int(d.fields.get("limit", 0))))
    # The ttl-after-finished controller's deletions are notes on the Jobs' own traces.
    if trace.cluster is not None:
        for tr in trace.cluster.jobs():
            life = jobs.get(tr.job_uid)
            if life is None or life.deleted_by:
                continue
            if any(n.rule == "ttl.deleted" for n in tr.notes):
                life.deleted_by = "ttl"
    for life in jobs.values():
        if life.deleting is not None and not life.deleted_by:
            life.deleted_by = "other"
        elif life.removed is not None and not life.deleted_by:
            life.deleted_by = "other"
    zone = trace.config.controller_zone
    end = _end_of(trace)
    times: list[float] = []
    time_segment: list[int] = []
    for i, seg in enumerate(segments):
        stop = segments[i + 1].t if i + 1 < len(segments) else end
        # The first segment counts from the CronJob's creation; a later one from the change.
        found = _times_between(seg.spec, seg.t, stop if i + 1 < len(segments) else end, zone,
                               MAX_TIMES - len(times))
        if i + 1 < len(segments):
            found = [x for x in found if x <= stop]
        times.extend(found)
        time_segment.extend([i] * len(found))
    downtime = []
    for n in trace.notes:
        if n.rule == "action.stop_controllers":
            downtime.append((n.t, n.t + float(n.fields.get("seconds", 0)), n.after_cycle))
    job_list = sorted(jobs.values(), key=lambda j: (j.created_seq,))
    by_sched = {j.scheduled: j for j in job_list if j.scheduled is not None}
    return CronModel(job_list, by_sched, segments, times, time_segment, decisions, downtime, zone, history)


def model(trace: Trace) -> CronModel:
    """The CronJob's :class:`CronModel`, built once per trace (and again when it grew)."""
    return cached(trace, "cron-model", _build)


# ------------------------------------------------------------------ as of a cycle


def spec_at(m: CronModel, t: float, end_seq: int | None = None) -> Any:
    """The CronJob's spec at time ``t`` (and before change ``end_seq``)."""
    spec = m.segments[0].spec if m.segments else None
    for seg in m.segments:
        if seg.t <= t and (end_seq is None or seg.seq < end_seq):
            spec = seg.spec
    return spec


def downtime_until(m: CronModel, t: float) -> list[tuple[float, float]]:
    """The controller manager's stops known at ``t`` (merged, in order)."""
    spans = sorted((a, b) for a, b, _k in m.downtime if a <= t)
    out: list[tuple[float, float]] = []
    for a, b in spans:
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


def suspended_until(m: CronModel, t: float, end_seq: int) -> list[tuple[float, float | None]]:
    """The spans the CronJob was suspended in, up to ``t`` (None: still suspended)."""
    out: list[tuple[float, float | None]] = []
    on: float | None = None
    for seg in m.segments:
        if seg.seq >= end_seq or seg.t > t:
            break
        if seg.spec.suspend and on is None:
            on = seg.t
        elif not seg.spec.suspend and on is not None:
            out.append((on, seg.t))
            on = None
    if on is not None:
        out.append((on, None))
    return out


def _inside(spans: list[tuple[float, float | None]], x: float) -> bool:
    return any(a <= x and (b is None or x < b) for a, b in spans)


@dataclass(frozen=True, slots=True)
class Slot:
    """One schedule time as of a cycle: what became of it."""

    scheduled: float
    what: str
    """A key of :data:`JOB_OUTCOMES` (a Job was started for it) or of :data:`MISSES`."""
    job: JobLife | None
    start: float | None
    end: float | None
    deadline: int | None
    """startingDeadlineSeconds of the spec it belongs to."""
    waited_for_forbid: bool = False
    """The Job started late: Forbid held it back while an earlier Job ran."""


def job_outcome(j: JobLife, t: float, end_seq: int) -> tuple[str, float]:
    """(outcome, end of its bar) of a Job as of ``t`` / change ``end_seq``."""
    finished = j.finished is not None and j.finished_seq < end_seq
    deleting = j.deleting is not None and j.deleting_seq < end_seq
    if finished and not (deleting and j.deleting < j.finished):
        return j.outcome, j.finished
    if deleting:
        return ("replaced" if j.deleted_by == "replace" else "deleted"), j.deleting
    removed = j.removed is not None and j.removed_seq < end_seq
    if removed:
        return ("replaced" if j.deleted_by == "replace" else "deleted"), j.removed
    return "running", t


def slots(trace: Trace, cycle: int, t: float, end_seq: int) -> list[Slot]:
    """Every schedule time up to ``t`` with what became of it as of ``cycle``."""
    m = model(trace)
    n = bisect.bisect_right(m.times, t)
    decided: dict[float, str] = {}
    forbid_seen: set[float] = set()
    for k, rule, sched in m.decisions:
        if k <= cycle and sched is not None:
            decided[sched] = "forbid" if rule == "cronjob.skip.forbid" else "too_late"
            if rule == "cronjob.skip.forbid":
                forbid_seen.add(sched)
    down = downtime_until(m, t)
    susp = suspended_until(m, t, end_seq)
    handled = [s for s, j in m.by_scheduled.items() if j.created_seq < end_seq] + list(decided)
    last_handled = max(handled) if handled else float("-inf")
    out: list[Slot] = []
    for i in range(n):
        s = m.times[i]
        seg = m.segments[m.time_segment[i]]
        deadline = seg.spec.starting_deadline_seconds
        j = m.by_scheduled.get(s)
        if j is not None and j.created_seq < end_seq:
            what, end = job_outcome(j, t, end_seq)
            out.append(Slot(s, what, j, j.created, end, deadline, s in forbid_seen))
            continue
        what = decided.get(s)
        if what is None:
            if _inside([(a, b) for a, b in down], s):
                what = "down"
            elif _inside(susp, s):
                what = "suspended"
            elif s < last_handled:
                what = "missed"
            else:
                what = "due"
        out.append(Slot(s, what, None, None, None, deadline))
    return out


def next_time(trace: Trace, t: float) -> float | None:
    """The first schedule time after ``t`` the trace knows of (None: none)."""
    m = model(trace)
    i = bisect.bisect_right(m.times, t)
    return m.times[i] if i < len(m.times) else None


__all__ = ["DELETIONS", "JOB_OUTCOMES", "MISSES", "CronModel", "JobLife", "Segment", "Slot", "downtime_until",
           "job_outcome", "model", "next_time", "slots", "spec_at", "suspended_until", "to_local", "tz", "zone_of"]
